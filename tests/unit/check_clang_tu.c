/* check_clang_tu.c - the C++ frontend's translation unit: which headers stub mode follows and
 * which it stands in for, include paths (--extra-arg, compile_commands.json, the source's own
 * directory), missing includes, the parse thread's stack, editor reparses.
 *
 * Every case writes its sources into a fresh temporary directory and parses them from disk, the
 * way `poolcheck check` does.  PC_CLANG_TU_KEEP=1 keeps the directories (for debugging). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/clang/clang_int.h"
#include "frontend/frontend_int.h"
#include "helpers/test_run.h"
#include "poolcheck/frontend.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static char *tmp_dir(void)
{
    char tmpl[] = "/tmp/pc-clang-tu-XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

static void rm_rf(const char *dir)
{
    if (getenv("PC_CLANG_TU_KEEP"))
        return;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* dir/rel (pc-free with free()) */
static char *path_in(const char *dir, const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

/* Write text to dir/rel, creating the directories on the way. */
static char *write_file(const char *dir, const char *rel, const char *text)
{
    char *p = path_in(dir, rel);
    for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static pc_model *parse_file(pc_frontend *fe, const char *path, const pc_parse_opts *opts)
{
    pc_parse_opts none;
    if (!opts) {
        memset(&none, 0, sizeof none);
        opts = &none;
    }
    pc_model *m = pc_clang_parse(fe, path, NULL, 0, opts);
    ck_assert_ptr_nonnull(m);
    if (getenv("PC_CLANG_DUMP"))
        for (int i = 0; i < m->nmessages; i++)
            fprintf(stderr, "  message %d %s:%u:%u %s\n", m->messages[i].kind, m->messages[i].loc.file,
                    m->messages[i].loc.line, m->messages[i].loc.col, m->messages[i].text);
    return m;
}

static int count_messages(const pc_model *m, pc_msg_kind kind, const char *containing)
{
    int n = 0;
    for (int i = 0; i < m->nmessages; i++)
        if (m->messages[i].kind == kind && (!containing || strstr(m->messages[i].text, containing)))
            n++;
    return n;
}

/* No clang error anywhere (the first one is the failure message). */
static void assert_no_clang_errors(const pc_model *m)
{
    for (int i = 0; i < m->nmessages; i++)
        ck_assert_msg(m->messages[i].kind != PC_MSG_PARSE_NOISE && m->messages[i].kind != PC_MSG_FATAL,
                      "unexpected %s:%u:%u: %s", m->messages[i].loc.file ? m->messages[i].loc.file : "?",
                      m->messages[i].loc.line, m->messages[i].loc.col, m->messages[i].text);
}

static const pc_kernel *only_kernel(const pc_model *m)
{
    ck_assert_int_eq(m->nkernels, 1);
    return &m->kernels[0];
}

/* A project header the way upstream's tests have them: the PyPTO include, a standard header,
 * the `using namespace`, and a helper holding the kernel's LOOP. */
static const char helpers_h[] =
    "#pragma once\n"
    "#include \"tilefwk/tilefwk.h\"\n"
    "#include <vector>\n"
    "using namespace npu::tile_fwk;\n"
    "inline void AddRows(Tensor &a, Tensor &out, int n)\n"
    "{\n"
    "    LOOP(\"rows\", FunctionType::DYNAMIC_LOOP, i, LoopRange(n)) {\n"
    "        Tensor t = View(a, {16, 16}, {i * 16, 0});\n"
    "        Assemble(Add(t, t), {i * 16, 0}, out);\n"
    "    }\n"
    "}\n";

/* A kernel using the helper and the header's `using namespace` (Tensor unqualified). */
static const char *kernel_cpp(const char *include)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "#include \"%s\"\n"
             "\n"
             "void Kernel()\n"
             "{\n"
             "    Tensor a(DT_FP32, {128, 16}, \"a\");\n"
             "    Tensor out(DT_FP32, {128, 16}, \"out\");\n"
             "    FUNCTION(\"main\", {a}, {out}) {\n"
             "        AddRows(a, out, 8);\n"
             "    }\n"
             "}\n",
             include);
    return buf;
}

/* The helper's LOOP reached the kernel: one loop named "rows" with statements in its body. */
static void assert_helper_inlined(const pc_model *m)
{
    const pc_kernel *k = only_kernel(m);
    ck_assert_int_eq(k->nloops, 1);
    ck_assert_str_eq(k->loops[0].name, "rows");
    ck_assert_int_gt(k->loops[0].body.count, 0);
    ck_assert_int_gt(k->nstmts, 1);
}

/* ---- project headers are followed ------------------------------------------------------------- */

/* a helper and `using namespace npu::tile_fwk;` in a local helpers.h gave 0 statements,
 * 0 instances, exit 0 (stub mode blanked every #include). */
START_TEST(local_header_helper_and_using_namespace)
{
    char *dir = tmp_dir();
    free(write_file(dir, "helpers.h", helpers_h));
    char *src = write_file(dir, "kernel.cpp", kernel_cpp("helpers.h"));
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = parse_file(fe, src, NULL);
    assert_no_clang_errors(m);
    assert_helper_inlined(m);
    pc_model_free(m);
    pc_frontend_free(fe);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

/* The same through the CLI: the helper's loop gives instances (8 of them), exit status 0. */
START_TEST(local_header_helper_cli)
{
    char *dir = tmp_dir();
    free(write_file(dir, "helpers.h", helpers_h));
    char *src = write_file(dir, "kernel.cpp", kernel_cpp("helpers.h"));
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", src, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s%s", o.status, o.out, o.err);
    ck_assert_msg(strstr(o.out, "instances: 8 in 1 DeviceTask") != NULL, "%s", o.out);
    ck_assert_msg(strstr(o.out, "root rows") != NULL, "%s", o.out);
    pc_test_output_free(&o);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(include_path_from_extra_arg)
{
    char *dir = tmp_dir();
    free(write_file(dir, "inc/proj/helpers.h", helpers_h));
    char *src = write_file(dir, "src/kernel.cpp", kernel_cpp("proj/helpers.h"));
    char *inc = path_in(dir, "inc");
    char flag[600];
    snprintf(flag, sizeof flag, "-I%s", inc);
    const char *extra[] = {flag};
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.extra_args = extra;
    o.nextra_args = 1;
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = parse_file(fe, src, &o);
    assert_no_clang_errors(m);
    assert_helper_inlined(m);
    pc_model_free(m);
    /* without the -I the header is missing: one note naming it, the kernel still parsed */
    m = parse_file(fe, src, NULL);
    ck_assert_int_eq(count_messages(m, PC_MSG_NOTE, "'proj/helpers.h'"), 1);
    ck_assert_int_eq(only_kernel(m)->nloops, 0);
    pc_model_free(m);
    pc_frontend_free(fe);
    free(inc);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

/* -p: the compile command cannot reach the PyPTO headers, so the stub stands in; its include
 * path (relative to the entry's directory) still finds the project's header. */
START_TEST(include_path_from_compile_db)
{
    char *dir = tmp_dir();
    free(write_file(dir, "inc/proj/helpers.h", helpers_h));
    char *src = write_file(dir, "src/kernel.cpp", kernel_cpp("proj/helpers.h"));
    char db[2048];
    snprintf(db, sizeof db,
             "[{\"directory\": \"%s\", \"command\": \"/usr/bin/c++ -DKERNEL_BUILD -Iinc -std=c++17 -c src/kernel.cpp "
             "-o kernel.o\", \"file\": \"src/kernel.cpp\"}]\n",
             dir);
    free(write_file(dir, "compile_commands.json", db));
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.compile_db_dir = dir;
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = parse_file(fe, src, &o);
    ck_assert_int_eq(count_messages(m, PC_MSG_WARNING, "parsed with the PyPTO stub header instead"), 1);
    ck_assert_int_eq(count_messages(m, PC_MSG_PARSE_NOISE, NULL), 0);
    assert_helper_inlined(m);
    pc_model_free(m);
    pc_frontend_free(fe);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

/* ---- what stub mode stands in for ------------------------------------------------------------ */

/* PyPTO's, CANN's and the standard library's headers are replaced even when the include path
 * reaches copies of them; gtest's TEST falls back to the stub's. */
START_TEST(stub_shadows_real_headers)
{
    char *dir = tmp_dir();
    const char *poison = "#error the stub mode parsed this header instead of standing in for it\n";
    free(write_file(dir, "real/tilefwk/tilefwk.h", poison));
    free(write_file(dir, "real/tilefwk/tilefwk_op.h", poison));
    free(write_file(dir, "real/interface/configs/config_manager.h", poison));
    free(write_file(dir, "real/interface/no_such_in_the_table.h", poison));
    free(write_file(dir, "real/acl/acl.h", poison));
    free(write_file(dir, "real/vector", poison));
    free(write_file(dir, "real/gtest/gtest.h", poison));
    char *src = write_file(dir, "kernel.cpp",
                           "#include \"tilefwk/tilefwk.h\"\n"
                           "#include \"tilefwk/tilefwk_op.h\"\n"
                           "#include \"interface/configs/config_manager.h\"\n"
                           "#include <acl/acl.h>\n"
                           "#include <vector>\n"
                           "#include <map>\n"
                           "#include <gtest/gtest.h>\n"
                           "#include <cstdio>\n"
                           "#include <cstring>\n"
                           "using namespace npu::tile_fwk;\n"
                           "TEST(Suite, Case)\n"
                           "{\n"
                           "    std::vector<int64_t> shape = {32, 32};\n"
                           "    char buf[8];\n"
                           "    std::memset(buf, 0, sizeof buf);\n"
                           "    std::printf(\"%d\", (int)shape[0]);\n"
                           "    Tensor a(DT_FP16, shape, \"a\");\n"
                           "    Tensor b(DT_FP16, shape, \"b\");\n"
                           "    FUNCTION(\"k\", {a}, {b}) {\n"
                           "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) {\n"
                           "            Assemble(Exp(a), {i, 0}, b);\n"
                           "        }\n"
                           "    }\n"
                           "}\n");
    char *real = path_in(dir, "real");
    char flag[600];
    snprintf(flag, sizeof flag, "-I%s", real);
    const char *extra[] = {flag};
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.extra_args = extra;
    o.nextra_args = 1;
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = parse_file(fe, src, &o);
    assert_no_clang_errors(m);
    ck_assert_int_eq(count_messages(m, PC_MSG_NOTE, NULL), 0);
    ck_assert_int_eq(only_kernel(m)->nloops, 1);
    pc_model_free(m);
    pc_frontend_free(fe);
    free(real);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

/* A header nobody can find is left out with one note naming it (however often it is included),
 * never an error that ends the parse; headers under the PyPTO roots are stood in for quietly. */
START_TEST(missing_include_one_note)
{
    char *dir = tmp_dir();
    free(write_file(dir, "helpers.h", "#include \"no/such/header.h\"\n"));
    char *src = write_file(dir, "kernel.cpp",
                           "#include \"no/such/header.h\"\n"
                           "#include \"helpers.h\"\n"
                           "#include \"interface/utils/not_in_the_stub_table.h\"\n"
                           "#include <tilefwk/tilefwk.h>\n"
                           "using namespace npu::tile_fwk;\n"
                           "void K(Tensor &a, Tensor &b)\n"
                           "{\n"
                           "    FUNCTION(\"k\", {a}, {b}) {\n"
                           "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) {\n"
                           "            Assemble(a, {i, 0}, b);\n"
                           "        }\n"
                           "    }\n"
                           "}\n");
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = parse_file(fe, src, NULL);
    assert_no_clang_errors(m);
    ck_assert_int_eq(count_messages(m, PC_MSG_NOTE, NULL), 1);
    ck_assert_int_eq(count_messages(m, PC_MSG_NOTE, "'no/such/header.h'"), 1);
    ck_assert_int_eq(m->messages[0].loc.line, 1);
    ck_assert_int_eq(only_kernel(m)->nloops, 1);
    pc_model_free(m);
    pc_frontend_free(fe);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

/* ---- the parse thread ------------------------------------------------------------------------ */

static char *deep_expression_file(const char *dir, int terms)
{
    size_t cap = (size_t)terms * 4 + 256;
    char *text = malloc(cap);
    size_t n = (size_t)snprintf(text, cap, "#include \"tilefwk/tilefwk.h\"\nint f() { return 1");
    for (int i = 1; i < terms; i++) {
        memcpy(text + n, " + 1", 4);
        n += 4;
    }
    snprintf(text + n, cap - n, "; }\n");
    char *p = write_file(dir, "deep.cpp", text);
    free(text);
    return p;
}

/* a 50,000-term `1 + 1 + ...` overflowed libclang's 8 MB parse thread (exit 139, the
 * LSP server died).  clang accepts it with a larger stack; so does poolcheck. */
START_TEST(deep_expression_parses)
{
    char *dir = tmp_dir();
    char *src = deep_expression_file(dir, 50000);
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = parse_file(fe, src, NULL);
    assert_no_clang_errors(m);
    ck_assert_int_eq(m->nkernels, 0);
    pc_model_free(m);
    /* the session lives on: the next file parses */
    free(write_file(dir, "helpers.h", helpers_h));
    char *k = write_file(dir, "kernel.cpp", kernel_cpp("helpers.h"));
    m = parse_file(fe, k, NULL);
    assert_helper_inlined(m);
    pc_model_free(m);
    pc_frontend_free(fe);
    free(k);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(deep_expression_cli)
{
    char *dir = tmp_dir();
    char *src = deep_expression_file(dir, 50000);
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", src, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    pc_test_output_free(&o);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

/* ---- editor reparses ----------------------------------------------------------------------- */

/* keep_tu: the TU is kept and reparsed (with its preamble: the stub and the project header);
 * every reparse sees the edited main file and still follows the header. */
START_TEST(editor_reparse_follows_headers)
{
    char *dir = tmp_dir();
    free(write_file(dir, "helpers.h", helpers_h));
    char *src = write_file(dir, "kernel.cpp", kernel_cpp("helpers.h"));
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.keep_tu = true;
    pc_frontend *fe = pc_frontend_new();
    const char *base = kernel_cpp("helpers.h");
    for (int edit = 0; edit < 4; edit++) {
        char text[2048];
        snprintf(text, sizeof text, "%s// edit %d\n%s", base, edit,
                 edit % 2 ? "void Other(Tensor &x) { FUNCTION(\"o\", {x}, {x}) { AddRows(x, x, 2); } }\n" : "");
        pc_model *m = pc_clang_parse(fe, src, text, strlen(text), &o);
        assert_no_clang_errors(m);
        ck_assert_int_eq(m->nkernels, edit % 2 ? 2 : 1);
        ck_assert_int_eq(m->kernels[0].nloops, 1);
        pc_model_free(m);
    }
    pc_frontend_free(fe);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST


/* ---- editor mode: only the edited function is parsed again ------------------------------------ */

/* Kernels in several functions, a helper one of them inlines, a TEST_F body, a runtime option in
 * a kernel, a file-scope constant. */
static const char incr_base[] =
    "#include \"tilefwk/tilefwk.h\"\n"
    "#include \"gtest/gtest.h\"\n"
    "#include \"consts.h\"\n"
    "using namespace npu::tile_fwk;\n"
    "constexpr int N = 64;\n"
    "\n"
    "static int Trips()\n"
    "{\n"
    "    return 4;\n"
    "}\n"
    "\n"
    "static void AddTwice(Tensor &a, Tensor &b)\n"
    "{\n"
    "    b = Add(a, a);\n"
    "}\n"
    "\n"
    "void First()\n"
    "{\n"
    "    Tensor x(DT_FP32, {M, 16}, \"x\");\n"
    "    Tensor y(DT_FP32, {M, 16}, \"y\");\n"
    "    FUNCTION(\"first\", {x}, {y})\n"
    "    {\n"
    "        LOOP(\"l0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, Trips(), 1))\n"
    "        {\n"
    "            y = Add(x, x);\n"
    "        }\n"
    "    }\n"
    "}\n"
    "\n"
    "void Second()\n"
    "{\n"
    "    Tensor x(DT_FP32, {N, 32}, \"x\");\n"
    "    Tensor y(DT_FP32, {N, 32}, \"y\");\n"
    "    FUNCTION(\"second\", {x}, {y})\n"
    "    {\n"
    "        config::SetRuntimeOption(\"stitch_function_num_per_pool\", 2);\n"
    "        LOOP(\"l1\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, N, 1))\n"
    "        {\n"
    "            Tensor t(DT_FP32, {N, 32}, \"t\");\n"
    "            Assemble(Add(x, x), {0, 0}, t);\n"
    "            y = Add(t, x);\n"
    "        }\n"
    "    }\n"
    "}\n"
    "\n"
    "void Third()\n"
    "{\n"
    "    Tensor x(DT_FP32, {M, 8}, \"x\");\n"
    "    Tensor y(DT_FP32, {M, 8}, \"y\");\n"
    "    FUNCTION(\"third\", {x}, {y})\n"
    "    {\n"
    "        AddTwice(x, y);\n"
    "    }\n"
    "}\n"
    "\n"
    "class Ops : public testing::Test {};\n"
    "\n"
    "TEST_F(Ops, Fourth)\n"
    "{\n"
    "    Tensor x(DT_FP16, {N, 8}, \"x\");\n"
    "    Tensor y(DT_FP16, {N, 8}, \"y\");\n"
    "    FUNCTION(\"fourth\", {x}, {y})\n"
    "    {\n"
    "        y = Mul(x, x);\n"
    "    }\n"
    "}\n";

/* text with the first occurrence of `from` replaced by `to` (malloc'd) */
static char *edited(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' is not in the text", from);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* After every edit of a sequence, the editor session's model (parsing only what the edit touched)
 * equals a parse of the same text from scratch, and the edits that allow it did leave bodies out. */
START_TEST(editor_incremental_equals_full)
{
    char *dir = tmp_dir();
    char *src = write_file(dir, "ops.cpp", incr_base);
    free(write_file(dir, "consts.h", "constexpr int M = 8;\n"));
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.keep_tu = true;
    /* Each edit applies to the text before it: replace `from` by `to`.  reuses: 1 the edit
     * must leave bodies out, 0 it must parse the whole text, -1 either. */
    static const struct {
        const char *what, *from, *to;
        int reuses;
        const char *header; /* consts.h rewritten with this before the edit */
    } edits[] = {
        {"edit inside a kernel", "{N, 32}, \"t\"", "{N, 48}, \"t\"", 1, NULL},
        {"a line added inside the first kernel (the later ones move down)", "            y = Add(x, x);\n",
         "            y = Add(x, x);\n\n            y = Add(y, x);\n", 1, NULL},
        {"the lines removed again", "            y = Add(x, x);\n\n            y = Add(y, x);\n",
         "            y = Add(x, x);\n", 1, NULL},
        {"a line added in the last kernel", "        y = Mul(x, x);\n", "        y = Mul(x, x);\n        y = Add(y, x);\n", 1, NULL},
        {"a syntax error inside a kernel", "Assemble(Add(x, x), {0, 0}, t);", "Assemble(Add(x, x), {0, 0}, t) +* ;", 1, NULL},
        {"undo", "Assemble(Add(x, x), {0, 0}, t) +* ;", "Assemble(Add(x, x), {0, 0}, t);", 1, NULL},
        {"the option changed", "stitch_function_num_per_pool\", 2", "stitch_function_num_per_pool\", 3", 1, NULL},
        {"a comment appended at the end", "        y = Add(y, x);\n    }\n}\n", "        y = Add(y, x);\n    }\n}\n// edit\n", 1, NULL},
        {"a kernel appended at the end", "}\n// edit\n",
         "}\n// edit\nvoid Fifth()\n{\n    Tensor a(DT_FP32, {4, 4}, \"a\");\n"
         "    FUNCTION(\"fifth\", {a}, {a})\n    {\n        a = Add(a, a);\n    }\n}\n",
         1, NULL},
        {"the inlined helper edited (its callers are parsed again)", "    b = Add(a, a);\n", "    b = Mul(a, a);\n", 0, NULL},
        {"a one-return helper a loop bound calls edited", "    return 4;\n", "    return 6;\n", 0, NULL},
        {"a comment added between kernels", "\nvoid Third()", "\n\n// between\nvoid Third()", 1, NULL},
        {"the comment edited", "// between\n", "// between two kernels\n", 1, NULL},
        {"a declaration added between kernels", "// between two kernels\n", "// between\nconstexpr int K = 3;\n", 0, NULL},
        {"an empty namespace added between kernels", "constexpr int K = 3;\n", "namespace extra {}\n", 0, NULL},
        {"and removed", "namespace extra {}\n", "", 0, NULL},
        {"the file-scope constant the kernels read changed", "constexpr int N = 64;", "constexpr int N = 32;", 0, NULL},
        {"a #define inside a kernel body", "    FUNCTION(\"second\", {x}, {y})\n    {\n",
         "    FUNCTION(\"second\", {x}, {y})\n    {\n#define EXTRA 1\n", 0, NULL},
        {"the #define removed", "#define EXTRA 1\n", "", -1, NULL},
        {"a body closed early by the edit", "            y = Add(t, x);\n", "            y = Add(t, x);\n        }}}\n        {{{\n", 0, NULL},
        {"undo", "            y = Add(t, x);\n        }}}\n        {{{\n", "            y = Add(t, x);\n", -1, NULL},
        {"edit inside a kernel again", "{N, 48}, \"t\"", "{N, 40}, \"t\"", 1, NULL},
        {"the project header saved with another constant", "{N, 40}, \"t\"", "{N, 44}, \"t\"", 0,
         "constexpr int M = 128;\n"},
        {"and one more edit", "{N, 44}, \"t\"", "{N, 40}, \"t\"", 1, NULL},
        {"a host helper and a function calling it added between two functions", "\nclass Ops",
         "\nstatic int Rows()\n{\n    int r = 4;\n    return r * 2;\n}\n"
         "\nvoid Sixth()\n{\n    int n = Rows();\n    Tensor a(DT_FP32, {n, 4}, \"a\");\n"
         "    FUNCTION(\"sixth\", {a}, {a})\n    {\n        a = Add(a, a);\n    }\n}\n\nclass Ops",
         0, NULL},
        {"an edit inside the first kernel (the helper only the left-out Sixth names is left out too)",
         "            y = Add(x, x);\n", "            y = Mul(x, x);\n", 1, NULL},
        {"the first kernel now calls that left-out helper", "            y = Mul(x, x);\n",
         "            Tensor r(DT_FP32, {Rows(), 4}, \"r\");\n            y = Add(r, x);\n", 0, NULL},
        {"the call removed again", "            Tensor r(DT_FP32, {Rows(), 4}, \"r\");\n            y = Add(r, x);\n",
         "            y = Mul(x, x);\n", -1, NULL},
        {"a function added between two functions", "\nvoid Third()",
         "\nvoid Between()\n{\n    Tensor z(DT_FP32, {8, 8}, \"z\");\n    FUNCTION(\"between\", {z}, {z})\n    {\n"
         "        z = Add(z, z);\n    }\n}\n\nvoid Third()",
         0, NULL},
        {"an edit inside the added function", "        z = Add(z, z);\n", "        z = Mul(z, z);\n", 1, NULL},
        {"the added function removed", "\nvoid Between()\n{\n    Tensor z(DT_FP32, {8, 8}, \"z\");\n"
         "    FUNCTION(\"between\", {z}, {z})\n    {\n        z = Mul(z, z);\n    }\n}\n",
         "", 0, NULL},
        {"a function removed", "\nvoid Sixth()\n{\n    int n = Rows();\n    Tensor a(DT_FP32, {n, 4}, \"a\");\n"
         "    FUNCTION(\"sixth\", {a}, {a})\n    {\n        a = Add(a, a);\n    }\n}\n",
         "", 0, NULL},
        {"edit inside a kernel after all that", "{N, 40}, \"t\"", "{N, 36}, \"t\"", 1, NULL},
        /* the directives at the top are the preamble's: the editor's translation unit does not
         * list them, yet a changed one must reach the kernels left out */
        {"a #define added at the top", "#include \"consts.h\"\n", "#include \"consts.h\"\n#define TOP_ROWS 4\n", -1, NULL},
        {"a kernel reads it", "{N, 36}, \"t\"", "{TOP_ROWS, 36}, \"t\"", -1, NULL},
        {"the #define at the top changed", "#define TOP_ROWS 4\n", "#define TOP_ROWS 6\n", -1, NULL},
        {"a #define at the top another kernel's loop reads", "#define TOP_ROWS 6\n",
         "#define TOP_ROWS 6\n#define TOP_TRIPS 3\n", -1, NULL},
        {"the loop reads it", "LoopRange(0, Trips(), 1)", "LoopRange(0, TOP_TRIPS, 1)", -1, NULL},
        {"an edit in the other kernel", "{TOP_ROWS, 36}, \"t\"", "{TOP_ROWS, 30}, \"t\"", 1, NULL},
        {"the loop's #define changed", "#define TOP_TRIPS 3\n", "#define TOP_TRIPS 5\n", -1, NULL},
    };
    size_t n = sizeof edits / sizeof *edits + 1;
    char **texts = calloc(n, sizeof *texts);
    texts[0] = strdup(incr_base);
    for (size_t i = 1; i < n; i++)
        texts[i] = edited(texts[i - 1], edits[i - 1].from, edits[i - 1].to);
    pc_frontend *fe = pc_frontend_new();
    int reused_total = 0;
    for (size_t i = 0; i < n; i++) {
        const char *what = i ? edits[i - 1].what : "open";
        int want = i ? edits[i - 1].reuses : 0;
        if (i && edits[i - 1].header)
            free(write_file(dir, "consts.h", edits[i - 1].header));
        pc_model *inc = pc_clang_parse(fe, src, texts[i], strlen(texts[i]), &o);
        int reused = pc_clang_incr_reused(fe, src);
        pc_frontend *fresh = pc_frontend_new();
        pc_model *full = pc_clang_parse(fresh, src, texts[i], strlen(texts[i]), &o);
        ck_assert_int_eq(pc_clang_incr_reused(fresh, src), 0);
        char where[256];
        bool same = pc_model_equal(inc, full, where, sizeof where);
        if (!same || getenv("PC_CLANG_DUMP")) {
            char *a = pc_model_to_json(inc), *b = pc_model_to_json(full);
            fprintf(stderr, "step %zu (%s), reused %d\n--- incremental\n%s\n--- from scratch\n%s\n", i, what, reused, a, b);
            pc_mem_free(a);
            pc_mem_free(b);
        }
        ck_assert_msg(same, "step %zu (%s): the incremental model differs at %s", i, what, where);
        if (want == 1)
            ck_assert_msg(reused > 0, "step %zu (%s): nothing was left out of the parse", i, what);
        else if (want == 0)
            ck_assert_msg(reused == 0, "step %zu (%s): %d bodies were left out", i, what, reused);
        reused_total += reused > 0 ? reused : 0;
        ck_assert_int_ge(full->nkernels, 4);
        pc_model_free(inc);
        pc_model_free(full);
        pc_frontend_free(fresh);
    }
    ck_assert_int_gt(reused_total, 0);
    pc_frontend_release(fe, src);
    ck_assert_int_eq(pc_clang_incr_reused(fe, src), -1);
    pc_frontend_free(fe);
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST


/* Editor mode reads what the preamble holds (the stub, the project headers, the #defines at the top
 * of the file) exactly as a batch parse does: object-like macros of the main file's top and of a
 * project header, and a header constant, as LOOP bounds.  The editor's translation unit does not
 * list the preamble's directives (the index excludes a PCH's: clang_frontend.c), so the preamble's
 * macros come from the expressions clang expanded: a parse that lost them would give these loops
 * no constant trip count. */
static const char preamble_h[] =
    "#pragma once\n"
    "#define HDR_TRIPS 6\n"
    "constexpr int HDR_N = 5;\n";

static const char preamble_cpp[] =
    "#include \"tilefwk/tilefwk.h\"\n"
    "#include \"pre.h\"\n"
    "#define TOP_TRIPS 8\n"
    "using namespace npu::tile_fwk;\n"
    "#define LATE_TRIPS 3\n"
    "\n"
    "void First()\n"
    "{\n"
    "    Tensor x(DT_FP32, {16, 16}, \"x\");\n"
    "    FUNCTION(\"first\", {x}, {x})\n"
    "    {\n"
    "        LOOP(\"a\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, TOP_TRIPS, 1)) { x = Add(x, x); }\n"
    "        LOOP(\"b\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, HDR_TRIPS, 1)) { x = Add(x, x); }\n"
    "        LOOP(\"c\", FunctionType::DYNAMIC_LOOP, k, LoopRange(0, HDR_N, 1)) { x = Add(x, x); }\n"
    "        LOOP(\"d\", FunctionType::DYNAMIC_LOOP, l, LoopRange(0, LATE_TRIPS, 1)) { x = Add(x, x); }\n"
    "    }\n"
    "}\n"
    "\n"
    "void Second()\n"
    "{\n"
    "    Tensor y(DT_FP32, {16, 16}, \"y\");\n"
    "    FUNCTION(\"second\", {y}, {y})\n"
    "    {\n"
    "        y = Mul(y, y);\n"
    "    }\n"
    "}\n";

static void assert_preamble_trips(const pc_model *m, const char *what)
{
    static const int64_t want[] = {8, 6, 5, 3};
    ck_assert_int_eq(m->nkernels, 2);
    const pc_kernel *k = &m->kernels[0];
    ck_assert_int_eq(k->nloops, 4);
    for (int i = 0; i < 4; i++) {
        int64_t end = -1;
        ck_assert_msg(k->loops[i].end && pc_expr_is_int(k->loops[i].end, &end) && end == want[i],
                      "%s: loop %s ends at %lld, not %lld", what, k->loops[i].name, (long long)end,
                      (long long)want[i]);
    }
}

START_TEST(editor_preamble_macros_as_batch)
{
    char *dir = tmp_dir();
    free(write_file(dir, "pre.h", preamble_h));
    char *src = write_file(dir, "pre.cpp", preamble_cpp);
    pc_parse_opts batch, editor;
    memset(&batch, 0, sizeof batch);
    memset(&editor, 0, sizeof editor);
    editor.keep_tu = true;
    pc_frontend *fe = pc_frontend_new();
    pc_model *b = pc_clang_parse(fe, src, preamble_cpp, strlen(preamble_cpp), &batch);
    assert_no_clang_errors(b);
    assert_preamble_trips(b, "batch");
    /* open, an edit inside the second body (the first one left out), an edit inside the first */
    char *t1 = edited(preamble_cpp, "y = Mul(y, y);", "y = Add(y, y);");
    char *t2 = edited(t1, "{ x = Add(x, x); }", "{ x = Mul(x, x); }");
    const char *texts[] = {preamble_cpp, t1, t2};
    for (int i = 0; i < 3; i++) {
        pc_model *e = pc_clang_parse(fe, src, texts[i], strlen(texts[i]), &editor);
        assert_no_clang_errors(e);
        assert_preamble_trips(e, i == 0 ? "editor, open" : i == 1 ? "editor, second body edited" : "editor, first body edited");
        if (i == 1)
            ck_assert_int_gt(pc_clang_incr_reused(fe, src), 0);
        pc_model_free(e);
    }
    pc_model_free(b);
    free(t1);
    free(t2);
    pc_frontend_free(fe);
    free(src);
    rm_rf(dir);
    free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clang_tu");
    TCase *tc = tcase_create("tu");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, local_header_helper_and_using_namespace);
    tcase_add_test(tc, local_header_helper_cli);
    tcase_add_test(tc, include_path_from_extra_arg);
    tcase_add_test(tc, include_path_from_compile_db);
    tcase_add_test(tc, stub_shadows_real_headers);
    tcase_add_test(tc, missing_include_one_note);
    tcase_add_test(tc, deep_expression_parses);
    tcase_add_test(tc, deep_expression_cli);
    tcase_add_test(tc, editor_reparse_follows_headers);
    tcase_add_test(tc, editor_incremental_equals_full);
    tcase_add_test(tc, editor_preamble_macros_as_batch);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
