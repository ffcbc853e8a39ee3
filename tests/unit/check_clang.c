/* check_clang.c - the libclang C++ frontend: sources in, pc_model out.
 *
 * The seed example (examples/k_tmp_to_d_emb.cpp) is checked in detail; focused cases
 * cover helper inlining, IF / ELSE, UNROLL, runtime options, constants and symbols, shapes,
 * error recovery, unsaved buffers, the real-header modes (compile_commands.json with bisheng flags,
 * a compiler command line), editor reparses, the stub lookup and unreadable files.
 * PC_CLANG_DUMP=1 prints every parsed model (for debugging a failure). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend/clang/clang_int.h"
#include "poolcheck/frontend.h"

#define SEED PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp"

/* ---- helpers -------------------------------------------------------------------------------- */

static const char *expr_text(const pc_expr *e)
{
    static char buf[8][128];
    static int k;
    k = (k + 1) % 8;
    char *s = e ? pc_expr_to_string(e) : NULL;
    snprintf(buf[k], sizeof buf[k], "%s", s ? s : "(null)");
    free(s);
    return buf[k];
}

static void dump_block(const pc_kernel *k, const pc_block *b, int ind);

static void dump_stmt(const pc_kernel *k, int id, int ind)
{
    const pc_stmt *s = &k->stmts[id];
    fprintf(stderr, "%*s#%d %u:%u ", ind, "", id, s->loc.line, s->loc.col);
    switch (s->kind) {
    case PC_STMT_OP:
        fprintf(stderr, "OP%s", s->has_op ? "" : " (no op)");
        for (int i = 0; i < s->naccesses; i++)
            fprintf(stderr, " [%s %s %s]", pc_access_kind_name(s->accesses[i].kind),
                    k->tensors[s->accesses[i].tensor].variable, pc_unit_name(s->accesses[i].unit));
        fprintf(stderr, "\n");
        break;
    case PC_STMT_LOOP: {
        const pc_loop *l = &k->loops[s->loop];
        fprintf(stderr, "LOOP '%s' %s in [%s, %s) step %s\n", l->name, l->index_var, expr_text(l->begin),
                expr_text(l->end), expr_text(l->step));
        dump_block(k, &l->body, ind + 2);
        break;
    }
    case PC_STMT_IF:
        fprintf(stderr, "IF\n");
        for (int i = 0; i < s->nbranches; i++) {
            fprintf(stderr, "%*sbranch %d decided %d\n", ind + 2, "", i, s->branches[i].decided);
            dump_block(k, &s->branches[i].body, ind + 4);
        }
        break;
    case PC_STMT_UNROLL:
        fprintf(stderr, "UNROLL %lld\n", (long long)s->unroll_factor);
        dump_block(k, &s->unroll_body, ind + 2);
        break;
    case PC_STMT_UNANALYSED:
        fprintf(stderr, "UNANALYSED %s\n", s->message);
        break;
    }
}

static void dump_block(const pc_kernel *k, const pc_block *b, int ind)
{
    for (int i = 0; i < b->count; i++)
        dump_stmt(k, b->stmts[i], ind);
}

static void dump(const pc_model *m)
{
    if (!getenv("PC_CLANG_DUMP"))
        return;
    fprintf(stderr, "model %s fatal=%d\n", m->file, m->fatal);
    for (int i = 0; i < m->nmessages; i++)
        fprintf(stderr, "  message %d %u:%u %s\n", m->messages[i].kind, m->messages[i].loc.line,
                m->messages[i].loc.col, m->messages[i].text);
    for (int i = 0; i < m->noptions; i++)
        fprintf(stderr, "  option %s kind %d kernel %d\n", m->options[i].key, m->options[i].value.kind,
                m->options[i].kernel);
    for (int ki = 0; ki < m->nkernels; ki++) {
        const pc_kernel *k = &m->kernels[ki];
        fprintf(stderr, "kernel %s\n", k->name);
        for (int t = 0; t < k->ntensors; t++) {
            const pc_tensor *pt = &k->tensors[t];
            fprintf(stderr, "  T%d %s %s (%s) %s [", t, pc_tensor_kind_name(pt->kind), pt->variable, pt->name,
                    pc_dtype_name(pt->dtype));
            for (int d = 0; d < pt->ndims; d++)
                fprintf(stderr, "%s%s", d ? "," : "", expr_text(pt->shape[d]));
            fprintf(stderr, "] base %d scope %d\n", pt->base, pt->scope_loop);
        }
        dump_block(k, &k->body, 2);
    }
}

static pc_model *parse_opts(const char *path, const char *text, const pc_parse_opts *opts)
{
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = pc_clang_parse(fe, path, text, text ? strlen(text) : 0, opts);
    pc_frontend_free(fe);
    ck_assert_ptr_nonnull(m);
    dump(m);
    return m;
}

static pc_model *parse_text(const char *text)
{
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    return parse_opts("/nonexistent/poolcheck_test_kernel.cpp", text, &o);
}

static const pc_kernel *kernel_named(const pc_model *m, const char *name)
{
    for (int i = 0; i < m->nkernels; i++)
        if (!strcmp(m->kernels[i].name, name))
            return &m->kernels[i];
    ck_abort_msg("no kernel '%s' (of %d)", name, m->nkernels);
    return NULL;
}

static const pc_tensor *tensor_var(const pc_kernel *k, const char *variable)
{
    for (int i = 0; i < k->ntensors; i++)
        if (!strcmp(k->tensors[i].variable, variable))
            return &k->tensors[i];
    ck_abort_msg("kernel %s has no tensor '%s'", k->name, variable);
    return NULL;
}

static int count_tensors(const pc_kernel *k, const char *variable)
{
    int n = 0;
    for (int i = 0; i < k->ntensors; i++)
        n += !strcmp(k->tensors[i].variable, variable);
    return n;
}

static const pc_loop *loop_named(const pc_kernel *k, const char *name, int nth)
{
    for (int i = 0; i < k->nloops; i++)
        if (!strcmp(k->loops[i].name, name) && nth-- == 0)
            return &k->loops[i];
    ck_abort_msg("kernel %s has no loop '%s'", k->name, name);
    return NULL;
}

static void expect_int(const pc_expr *e, int64_t v, const char *what)
{
    int64_t got;
    ck_assert_msg(e && pc_expr_is_int(e, &got) && got == v, "%s: expected %lld, got %s", what, (long long)v,
                  expr_text(e));
}

static void expect_expr(const pc_expr *e, const char *text, const char *what)
{
    ck_assert_msg(e && !strcmp(expr_text(e), text), "%s: expected %s, got %s", what, text, expr_text(e));
}

static void expect_shape(const pc_tensor *t, int n, const int64_t *dims)
{
    ck_assert_msg(t->ndims == n, "%s: %d dims, expected %d", t->variable, t->ndims, n);
    for (int i = 0; i < n; i++)
        expect_int(t->shape[i], dims[i], t->variable);
}

/* Accesses of kind `kind` by `unit` (PC_UNIT_NONE + 100 = any unit) to tensor `variable`, in a
 * block and everything nested in it. */
static int count_in_block(const pc_kernel *k, const pc_block *b, const char *variable, pc_access_kind kind, int unit);

static int count_in_stmt(const pc_kernel *k, int id, const char *variable, pc_access_kind kind, int unit)
{
    const pc_stmt *s = &k->stmts[id];
    int n = 0;
    for (int i = 0; i < s->naccesses; i++) {
        const pc_access *a = &s->accesses[i];
        n += a->kind == kind && (unit > 50 || (int)a->unit == unit) && !strcmp(k->tensors[a->tensor].variable, variable);
    }
    if (s->kind == PC_STMT_LOOP)
        n += count_in_block(k, &k->loops[s->loop].body, variable, kind, unit);
    for (int b = 0; b < s->nbranches; b++)
        n += count_in_block(k, &s->branches[b].body, variable, kind, unit);
    if (s->kind == PC_STMT_UNROLL)
        n += count_in_block(k, &s->unroll_body, variable, kind, unit);
    return n;
}

static int count_in_block(const pc_kernel *k, const pc_block *b, const char *variable, pc_access_kind kind, int unit)
{
    int n = 0;
    for (int i = 0; i < b->count; i++)
        n += count_in_stmt(k, b->stmts[i], variable, kind, unit);
    return n;
}

#define ANY_UNIT 100

static int count_kind(const pc_kernel *k, pc_stmt_kind kind)
{
    int n = 0;
    for (int i = 0; i < k->nstmts; i++)
        n += k->stmts[i].kind == kind;
    return n;
}

static const pc_stmt *first_stmt(const pc_kernel *k, pc_stmt_kind kind)
{
    for (int i = 0; i < k->nstmts; i++)
        if (k->stmts[i].kind == kind)
            return &k->stmts[i];
    ck_abort_msg("kernel %s has no statement of kind %d", k->name, kind);
    return NULL;
}

static int count_messages(const pc_model *m, pc_msg_kind kind)
{
    int n = 0;
    for (int i = 0; i < m->nmessages; i++)
        n += m->messages[i].kind == kind;
    return n;
}

static const pc_option *option_key(const pc_model *m, const char *key)
{
    for (int i = 0; i < m->noptions; i++)
        if (!strcmp(m->options[i].key, key))
            return &m->options[i];
    ck_abort_msg("no option '%s' (of %d)", key, m->noptions);
    return NULL;
}

static char *temp_dir(void)
{
    char tmpl[] = "/tmp/pc_clang_XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (char *p = path + strlen(dir) + 1; *p; p++) /* the directories on the way */
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void remove_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- the seed example ---------------------------------------------------------------------------- */

/* The op table and the stub cannot drift: every C++ row of frontend/ops.c is a declaration of the
 * stub, by a using-declaration of the name (overloads and templates alike) looked up in the kernel
 * API's namespaces, and the whole file parses with no clang error. */
START_TEST(op_table_rows_declared_in_stub)
{
    pc_sb src = {0};
    pc_sb_append(&src, "#include \"tilefwk/tilefwk.h\"\n"
                       "namespace probe {\n"
                       "using namespace npu::tile_fwk;\n"
                       "using namespace npu::tile_fwk::Matrix;\n"
                       "using namespace npu::tile_fwk::Distributed;\n"
                       "using namespace npu::tile_fwk::experimental;\n"
                       "}\n");
    int rows = 0;
    for (size_t i = 0; pc_op_at(i); i++) {
        const pc_op_info *op = pc_op_at(i);
        if (!op->cpp)
            continue;
        /* Conv is a namespace and its op: name the op inside it */
        if (!strcmp(op->cpp, "Conv"))
            pc_sb_append(&src, "using npu::tile_fwk::Conv::Conv;\n");
        else
            pc_sb_printf(&src, "using probe::%s;\n", op->cpp);
        rows++;
    }
    ck_assert_int_gt(rows, 100);
    pc_model *m = parse_text(src.data);
    for (int i = 0; i < m->nmessages; i++)
        ck_assert_msg(m->messages[i].kind != PC_MSG_PARSE_NOISE, "op table row not declared by the stub: %s",
                      m->messages[i].text);
    pc_model_free(m);
    pc_sb_free(&src);
}
END_TEST

START_TEST(seed_example)
{
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    pc_frontend *fe = pc_frontend_new();
    double t0 = now_ms();
    pc_model *m = pc_clang_parse(fe, SEED, NULL, 0, &o);
    double ms = now_ms() - t0;
    pc_frontend_free(fe);
    dump(m);
    fprintf(stderr, "seed example: stub-mode parse and walk %.1f ms\n", ms);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->lang, PC_LANG_CPP);
    ck_assert_int_eq(count_messages(m, PC_MSG_PARSE_NOISE), 0); /* the stub covers the whole kernel */
    ck_assert_int_eq(m->nkernels, 1);
    const pc_kernel *k = kernel_named(m, "k_tmp_to_d_emb");
    ck_assert_uint_eq(k->loc.line, 20); /* the FUNCTION line */
    ck_assert_uint_eq(k->loc.col, 5);

    /* parameters: the FUNCTION lists, in order, with their declarations' shapes and names */
    static const char *const params[] = {"dy", "weight", "output1", "output2"};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(k->tensors[i].kind, PC_TENSOR_PARAM);
        ck_assert_str_eq(k->tensors[i].variable, params[i]);
        ck_assert_str_eq(k->tensors[i].name, params[i]);
        ck_assert_int_eq(k->tensors[i].dtype, PC_DT_FP32);
    }
    int nparams = 0;
    for (int i = 0; i < k->ntensors; i++)
        nparams += k->tensors[i].kind == PC_TENSOR_PARAM;
    ck_assert_int_eq(nparams, 4);
    expect_shape(tensor_var(k, "dy"), 4, (int64_t[]){1, 64, 1, 16});
    expect_shape(tensor_var(k, "weight"), 3, (int64_t[]){1, 16, 16});
    ck_assert_uint_eq(tensor_var(k, "dy")->loc.line, 15);
    ck_assert_uint_eq(tensor_var(k, "dy")->loc.col, 12);

    const pc_tensor *ta = tensor_var(k, "tmpAssemble"), *te = tensor_var(k, "tmpExclusive");
    ck_assert_int_eq(ta->kind, PC_TENSOR_CREATED);
    ck_assert_str_eq(ta->name, "tmp_assemble");
    ck_assert_int_eq(ta->scope_loop, -1);
    expect_shape(ta, 4, (int64_t[]){1, 64, 1, 16});
    ck_assert_int_eq(te->kind, PC_TENSOR_CREATED);
    ck_assert_str_eq(te->name, "tmp_exclusive");
    ck_assert_uint_eq(te->loc.line, 23);
    ck_assert_uint_eq(te->loc.col, 16);
    ck_assert_uint_eq(te->loc.end_col, 28);

    const pc_tensor *dyv = tensor_var(k, "dyV"), *w0 = tensor_var(k, "w0"), *dx = tensor_var(k, "dx");
    ck_assert_int_eq(dyv->kind, PC_TENSOR_VIEW);
    ck_assert_str_eq(k->tensors[dyv->base].variable, "dy");
    expect_shape(dyv, 2, (int64_t[]){1, 16});
    ck_assert_int_eq(w0->kind, PC_TENSOR_VIEW);
    ck_assert_str_eq(k->tensors[w0->base].variable, "weight");
    ck_assert_int_eq(dx->kind, PC_TENSOR_VALUE);
    ck_assert_int_eq(dx->dtype, PC_DT_FP32);
    expect_shape(dx, 2, (int64_t[]){1, 16}); /* [1,16] x [16,16]^T */

    /* loops: names, indices, bounds, the body each belongs to */
    ck_assert_int_eq(k->nloops, 3);
    static const char *const names[] = {"l_loop_0", "l_loop_1", "l_loop_2"};
    static const char *const idx[] = {"i", "j", "k"};
    static const int64_t ends[] = {1, 64, 64};
    static const unsigned lines[] = {26, 33, 45};
    for (int i = 0; i < 3; i++) {
        const pc_loop *l = &k->loops[i];
        ck_assert_str_eq(l->name, names[i]);
        ck_assert_str_eq(l->index_var, idx[i]);
        expect_int(l->begin, 0, "begin");
        expect_int(l->end, ends[i], "end");
        expect_int(l->step, 1, "step");
        ck_assert_int_eq(l->nunroll, 0);
        ck_assert(!l->submit_before_loop && !l->parallel);
        ck_assert_int_eq(l->parent, -1);
        ck_assert_uint_eq(l->loc.line, lines[i]);
        ck_assert_uint_eq(l->loc.col, 9);
        ck_assert_int_eq(k->stmts[l->stmt].kind, PC_STMT_LOOP);
        ck_assert_int_eq(k->stmts[l->stmt].loop, i);
    }
    ck_assert_int_eq(dx->scope_loop, 1);
    ck_assert_int_eq(dyv->scope_loop, 1);

    /* accesses */
    const pc_block *b0 = &k->loops[0].body, *b1 = &k->loops[1].body, *b2 = &k->loops[2].body;
    ck_assert_int_eq(count_in_block(k, b0, "tmpExclusive", PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(count_in_block(k, b0, "dy", PC_ACC_READ, PC_UNIT_VECTOR), 2);
    ck_assert_int_eq(count_in_block(k, b1, "tmpAssemble", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 1);
    ck_assert_int_eq(count_in_block(k, b1, "dx", PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(count_in_block(k, b1, "dx", PC_ACC_READ, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(count_in_block(k, b1, "dyV", PC_ACC_READ, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(count_in_block(k, b2, "tmpAssemble", PC_ACC_READ, ANY_UNIT), 1);
    ck_assert_int_eq(count_in_block(k, b2, "tmpExclusive", PC_ACC_READ, ANY_UNIT), 1);
    ck_assert_int_eq(count_in_block(k, b2, "output1", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 1);
    ck_assert_int_eq(count_in_block(k, b2, "output2", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 1);
    /* no other writes to the temporaries anywhere */
    ck_assert_int_eq(count_in_block(k, &k->body, "tmpExclusive", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 0);
    ck_assert_int_eq(count_in_block(k, &k->body, "tmpAssemble", PC_ACC_WRITE_WHOLE, ANY_UNIT), 0);
    /* the kernel body holds two declarations and the three loops: no operation of its own */
    ck_assert_int_eq(k->body.count, 5);
    for (int i = 0; i < k->body.count; i++)
        ck_assert(!(k->stmts[k->body.stmts[i]].kind == PC_STMT_OP && k->stmts[k->body.stmts[i]].has_op));
    /* a READ points at the tensor's own token, through the views around it */
    const pc_stmt *rd = NULL;
    for (int i = 0; i < b2->count && !rd; i++)
        if (k->stmts[b2->stmts[i]].naccesses)
            rd = &k->stmts[b2->stmts[i]];
    ck_assert_ptr_nonnull(rd);
    ck_assert_uint_eq(rd->accesses[0].loc.line, 48);
    ck_assert_uint_eq(rd->accesses[0].loc.col, 35);
    /* constants the kernel uses */
    bool found = false;
    for (int i = 0; i < k->nconstants; i++)
        found = found || (!strcmp(k->constants[i].name, "L_STATIC") && k->constants[i].value == 64);
    ck_assert(found);
    /* The time is printed above, not asserted: a timed unit test fails on a loaded machine (it
     * did, at 1 s and at 3 s); bench/cpp.sh measures it against clang's own parse. */
    pc_model_free(m);
}
END_TEST

/* ---- helpers called from a FUNCTION ---------------------------------------------------------------- */

START_TEST(helper_function_loops)
{
    pc_model *m = parse_text(
        "#include \"tilefwk/tilefwk.h\"\n"
        "using namespace npu::tile_fwk;\n"
        "static void Stage(const Tensor &in, Tensor &dst, int rows, const char *name)\n"
        "{\n"
        "    LOOP(name, FunctionType::DYNAMIC_LOOP, r, LoopRange(0, rows, 1)) {\n"
        "        Tensor v = View(in, {1, 16}, {r, 0});\n"
        "        Assemble(Exp(v), {r, 0}, dst);\n"
        "    }\n"
        "}\n"
        "static Tensor Twice(const Tensor &t) { Tensor s = Add(t, t); return s; }\n"
        "void Build()\n"
        "{\n"
        "    Tensor x(DT_FP16, {8, 16}, \"x\");\n"
        "    Tensor y(DT_FP16, {8, 16}, \"y\");\n"
        "    FUNCTION(\"main\", {x}, {y}) {\n"
        "        Tensor mid(DT_FP16, {8, 16}, \"mid\");\n"
        "        Stage(x, mid, 8, \"first\");\n"
        "        Stage(mid, y, 4, \"second\");\n"
        "        LOOP(\"third\", FunctionType::DYNAMIC_LOOP, q, LoopRange(2)) {\n"
        "            Tensor d = Twice(View(y, {1, 16}, {q, 0}));\n"
        "        }\n"
        "    }\n"
        "}\n");
    ck_assert(!m->fatal);
    const pc_kernel *k = kernel_named(m, "main");
    ck_assert_int_eq(k->nloops, 3);
    const pc_loop *l1 = loop_named(k, "first", 0), *l2 = loop_named(k, "second", 0), *l3 = loop_named(k, "third", 0);
    expect_int(l1->end, 8, "first end");
    expect_int(l2->end, 4, "second end");
    expect_int(l3->begin, 0, "LoopRange(e) begin");
    expect_int(l3->end, 2, "LoopRange(e) end");
    ck_assert_str_eq(l1->index_var, "r");
    ck_assert_uint_eq(l1->loc.line, 5); /* the LOOP inside the helper */
    /* the helper's parameters are the caller's tensors: each call's `v` views its own input */
    ck_assert_int_eq(count_in_block(k, &l1->body, "v", PC_ACC_READ, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(count_in_block(k, &l1->body, "mid", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);
    ck_assert_int_eq(count_in_block(k, &l2->body, "v", PC_ACC_READ, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(count_in_block(k, &l2->body, "y", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);
    ck_assert_int_eq(count_tensors(k, "in"), 0);
    ck_assert_int_eq(count_tensors(k, "dst"), 0);
    ck_assert_int_eq(count_tensors(k, "v"), 2);
    int bases[2], nv = 0;
    for (int i = 0; i < k->ntensors; i++)
        if (!strcmp(k->tensors[i].variable, "v")) {
            ck_assert_int_eq(k->tensors[i].kind, PC_TENSOR_VIEW);
            ck_assert_int_eq(k->tensors[i].scope_loop, nv == 0 ? l1->id : l2->id);
            bases[nv++] = k->tensors[i].base;
        }
    ck_assert_str_eq(k->tensors[bases[0]].variable, "x");
    ck_assert_str_eq(k->tensors[bases[1]].variable, "mid");
    ck_assert_int_eq(tensor_var(k, "mid")->scope_loop, -1);
    /* a helper returning a tensor: its local value becomes the caller's variable */
    const pc_tensor *s = tensor_var(k, "s");
    ck_assert_int_eq(s->kind, PC_TENSOR_VALUE);
    ck_assert_int_eq(s->dtype, PC_DT_FP16);
    expect_shape(s, 2, (int64_t[]){1, 16});
    ck_assert_int_eq(count_tensors(k, "d"), 0); /* d names s */
    const pc_tensor *tv = tensor_var(k, "t");   /* the parameter bound to View(y, ...) */
    ck_assert_int_eq(tv->kind, PC_TENSOR_VIEW);
    ck_assert_str_eq(k->tensors[tv->base].variable, "y");
    ck_assert_int_eq(count_in_block(k, &l3->body, "t", PC_ACC_READ, PC_UNIT_VECTOR), 2);
    ck_assert_int_eq(count_in_block(k, &l3->body, "s", PC_ACC_DEFINE, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(s->scope_loop, l3->id);
    pc_model_free(m);
}
END_TEST

START_TEST(helper_forms)
{
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "template <typename T> void Tmpl(const Tensor &in, Tensor &out, T rows)\n"
        "{\n"
        "    LOOP(\"tmpl\", FunctionType::DYNAMIC_LOOP, i, LoopRange(rows)) { Assemble(in, {i, 0}, out); }\n"
        "}\n"
        "struct Builder {\n"
        "    void Stage(const Tensor &in, Tensor &out) {\n"
        "        LOOP(\"method\", FunctionType::DYNAMIC_LOOP, i, LoopRange(3)) { Assemble(in, {i, 0}, out); }\n"
        "    }\n"
        "};\n"
        "void Rec(Tensor &t, int n) { LOOP(\"rec\", FunctionType::DYNAMIC_LOOP, i, LoopRange(n)) { t = Exp(t); } Rec(t, n - 1); }\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        Tmpl<int>(a, b, 5);\n"
        "        Builder bld;\n"
        "        bld.Stage(a, b);\n"
        "        auto lam = [&](int n) { LOOP(\"lambda\", FunctionType::DYNAMIC_LOOP, j, LoopRange(n)) { b = Exp(a); } };\n"
        "        lam(7);\n"
        "        auto unused = [&]() { LOOP(\"never\", FunctionType::DYNAMIC_LOOP, j, LoopRange(1)) { b = Exp(a); } };\n"
        "        Rec(b, 2);\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    expect_int(loop_named(k, "tmpl", 0)->end, 5, "a function template");
    expect_int(loop_named(k, "method", 0)->end, 3, "a method");
    expect_int(loop_named(k, "lambda", 0)->end, 7, "a lambda's parameter");
    expect_int(loop_named(k, "rec", 0)->end, 2, "the first call of a recursive helper");
    ck_assert_int_eq(count_in_block(k, &loop_named(k, "method", 0)->body, "b", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 1);
    /* a LOOP in a lambda that is never called, and the recursive call: reported, not dropped */
    int un = 0;
    bool never = false, rec = false;
    for (int i = 0; i < k->nstmts; i++)
        if (k->stmts[i].kind == PC_STMT_UNANALYSED) {
            un++;
            never = never || k->stmts[i].loc.line == 20;
            rec = rec || strstr(k->stmts[i].message, "recursive") != NULL;
        }
    ck_assert_int_eq(un, 2);
    ck_assert(never && rec);
    pc_model_free(m);
}
END_TEST

/* ---- IF / ELSE IF / ELSE ------------------------------------------------------------------------ */

START_TEST(if_else_branches)
{
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "constexpr int kFlag = 0;\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 8, 1)) {\n"
        "            IF(i == 0) {\n"
        "                Tensor p = Exp(a);\n"
        "                Assemble(p, {i, 0}, b);\n"
        "            } ELSE IF(IsLoopEnd(i, 8)) {\n"
        "                Assemble(a, {i, 0}, b);\n"
        "            } ELSE {\n"
        "                b = Add(a, a);\n"
        "            }\n"
        "            IF(kFlag) { Tensor never = Exp(a); } ELSE { Tensor always = Exp(a); }\n"
        "            if (kFlag == 0) { Tensor host_taken = Exp(a); } else { Tensor host_dropped = Exp(a); }\n"
        "        }\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    ck_assert_int_eq(count_kind(k, PC_STMT_IF), 2);
    const pc_stmt *s = first_stmt(k, PC_STMT_IF);
    ck_assert_int_eq(s->nbranches, 3);
    ck_assert_uint_eq(s->loc.line, 7);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(s->branches[i].decided, -1);
    ck_assert_ptr_null(s->branches[2].cond); /* ELSE */
    ck_assert_ptr_null(s->branches[2].cond_text);
    /* the conditions as expressions, with their spelling */
    ck_assert_str_eq(expr_text(s->branches[0].cond), "i == 0");
    ck_assert_str_eq(s->branches[0].cond_text, "i == 0");
    ck_assert_ptr_nonnull(s->branches[1].cond);
    ck_assert_int_eq(s->branches[1].cond->kind, PC_EXPR_IS_LOOP_END);
    ck_assert_str_eq(s->branches[1].cond->name, "i");
    ck_assert_str_eq(s->branches[1].cond_text, "IsLoopEnd(i, 8)");
    ck_assert_uint_eq(s->branches[1].loc.line, 10);
    ck_assert_int_eq(count_in_block(k, &s->branches[0].body, "p", PC_ACC_DEFINE, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(count_in_block(k, &s->branches[1].body, "b", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 1);
    ck_assert_int_eq(count_in_block(k, &s->branches[2].body, "b", PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR), 1);
    /* a condition poolcheck can decide from constants */
    const pc_stmt *s2 = NULL;
    for (int i = 0; i < k->nstmts; i++)
        if (k->stmts[i].kind == PC_STMT_IF && &k->stmts[i] != s)
            s2 = &k->stmts[i];
    ck_assert_ptr_nonnull(s2);
    ck_assert_int_eq(s2->nbranches, 2);
    ck_assert_int_eq(s2->branches[0].decided, 0);
    ck_assert_int_eq(s2->branches[1].decided, 1);
    /* a host `if` on constants is decided at trace time: only the taken side exists */
    ck_assert_int_eq(count_tensors(k, "host_taken"), 1);
    ck_assert_int_eq(count_tensors(k, "host_dropped"), 0);
    pc_model_free(m);
}
END_TEST

/* ---- UNROLL and the loop options ------------------------------------------------------------------ */

START_TEST(unroll_and_loop_flags)
{
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "constexpr int kMax = 4;\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        LOOP(\"u\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 10, 1), std::set<int>{kMax, 2, 1}, true) {\n"
        "            UNROLL(kMax) { Assemble(Exp(View(a, {4, 8}, {i, 0})), {i, 0}, b); }\n"
        "            UNROLL(2) { Assemble(Exp(View(a, {2, 8}, {i, 0})), {i, 0}, b); }\n"
        "            UNROLL_DEFAULT { Assemble(Exp(View(a, {1, 8}, {i, 0})), {i, 0}, b); }\n"
        "        }\n"
        "        LOOP(\"p\", FunctionType::DYNAMIC_LOOP, j, LoopRange(3, 12, 3), {}, false, true) {\n"
        "            Assemble(View(a, {1, 8}, {j, 0}), {j, 0}, b);\n"
        "        }\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    const pc_loop *u = loop_named(k, "u", 0), *p = loop_named(k, "p", 0);
    ck_assert_int_eq(u->nunroll, 3);
    ck_assert_int_eq(u->unroll[0], 4);
    ck_assert_int_eq(u->unroll[1], 2);
    ck_assert_int_eq(u->unroll[2], 1);
    ck_assert(u->submit_before_loop && !u->parallel);
    ck_assert(!p->submit_before_loop && p->parallel);
    expect_int(p->begin, 3, "begin");
    expect_int(p->end, 12, "end");
    expect_int(p->step, 3, "step");
    ck_assert_int_eq(count_kind(k, PC_STMT_UNROLL), 3);
    int64_t factors[3];
    for (int i = 0; i < 3; i++) {
        const pc_stmt *s = &k->stmts[u->body.stmts[i]];
        ck_assert_int_eq(s->kind, PC_STMT_UNROLL);
        factors[i] = s->unroll_factor;
        ck_assert_int_eq(count_in_block(k, &s->unroll_body, "a", PC_ACC_READ, PC_UNIT_VECTOR), 1);
        ck_assert_int_eq(count_in_block(k, &s->unroll_body, "b", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);
    }
    ck_assert(factors[0] == 4 && factors[1] == 2 && factors[2] == 1);
    pc_model_free(m);
}
END_TEST

/* ---- runtime options --------------------------------------------------------------------------------- */

START_TEST(runtime_options)
{
    pc_model *m = parse_text(
        "#include \"tilefwk/tilefwk.h\"\n"
        "using namespace npu::tile_fwk;\n"
        "const std::string kKey = \"max_workspace_kb\";\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    config::SetRuntimeOption(STITCH_FUNCTION_MAX_NUM, 64);\n"
        "    config::SetRuntimeOption<int64_t>(\"device_sched_mode\", 0x4);\n"
        "    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>{64, 1, 1});\n"
        "    config::SetRuntimeOption(kKey, 1.5);\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        config::SetRuntimeOption(\"stitch_function_num_per_pool\", {8, true, -1});\n"
        "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) {\n"
        "            config::SetRuntimeOption(DEVICE_SCHED_PARALLELISM, \"two\");\n"
        "            Assemble(a, {i, 0}, b);\n"
        "        }\n"
        "    }\n"
        "}\n");
    ck_assert_int_eq(m->noptions, 6);
    /* source order */
    ck_assert_str_eq(m->options[0].key, "stitch_function_max_num");
    ck_assert_str_eq(m->options[5].key, "device_sched_parallelism");
    const pc_option *o = option_key(m, "stitch_function_max_num");
    ck_assert_int_eq(o->site, PC_SITE_CPP_SET_RUNTIME_OPTION);
    ck_assert_int_eq(o->value.kind, PC_OPT_INT);
    ck_assert_int_eq(o->value.i, 64);
    ck_assert_int_eq(o->kernel, -1);
    ck_assert(!o->in_kernel);
    ck_assert_uint_eq(o->loc.line, 6);
    ck_assert_uint_eq(o->loc.col, 5);
    ck_assert_uint_eq(o->value.loc.col, 55);
    o = option_key(m, "device_sched_mode");
    ck_assert_int_eq(o->value.kind, PC_OPT_INT);
    ck_assert_int_eq(o->value.i, 4);
    ck_assert_str_eq(o->value.text, "0x4");
    o = &m->options[2];
    ck_assert_str_eq(o->key, "stitch_function_num_per_pool");
    ck_assert_int_eq(o->value.kind, PC_OPT_LIST);
    ck_assert_int_eq(o->value.nitems, 3);
    ck_assert_int_eq(o->value.items[0].i, 64);
    ck_assert_int_eq(o->value.items[2].kind, PC_OPT_INT);
    o = option_key(m, "max_workspace_kb"); /* a key held in a variable */
    ck_assert_int_eq(o->value.kind, PC_OPT_FLOAT);
    ck_assert_str_eq(o->value.text, "1.5");
    o = &m->options[4]; /* inside the FUNCTION: applies to the kernel, reported as in-kernel */
    ck_assert_str_eq(o->key, "stitch_function_num_per_pool");
    ck_assert_int_eq(o->kernel, 0);
    ck_assert(o->in_kernel);
    ck_assert_int_eq(o->value.kind, PC_OPT_LIST);
    ck_assert_int_eq(o->value.nitems, 3);
    ck_assert_int_eq(o->value.items[1].kind, PC_OPT_BOOL);
    ck_assert_int_eq(o->value.items[2].i, -1);
    o = option_key(m, "device_sched_parallelism");
    ck_assert_int_eq(o->value.kind, PC_OPT_STRING);
    ck_assert_str_eq(o->value.text, "two");
    ck_assert(o->in_kernel);
    pc_model_free(m);
}
END_TEST

/* ---- constants, symbols, shapes ------------------------------------------------------------------- */

START_TEST(constants_and_symbols)
{
    pc_model *m = parse_text(
        "#include <vector>\n"
        "using namespace npu::tile_fwk;\n"
        "#define TILE 16\n"
        "void Build(int rows)\n"
        "{\n"
        "    int b = 2;\n"
        "    int sq = 32;\n"
        "    const int d = TILE * 4;\n"
        "    std::vector<int64_t> qShape = {b * sq, d};\n"
        "    Tensor q(DT_BF16, qShape, \"q\");\n"
        "    Tensor x(DT_FP32, {-1, TILE}, \"x\");\n"
        "    Tensor r(DT_FP32, {rows, TILE});\n"
        "    sq = 8;\n"
        "    FUNCTION(\"k\", {q, x, r}, {}) {\n"
        "        LOOP(\"dyn\", FunctionType::DYNAMIC_LOOP, i, LoopRange(GetInputShape(x, 0) / TILE)) {\n"
        "            Tensor t = Cast(View(x, {TILE, TILE}, {i * TILE, 0}), DT_FP16);\n"
        "        }\n"
        "        SymbolicScalar n = GetInputShape(q, 0);\n"
        "        LOOP(\"stat\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, n + sq, d)) { (void)j; }\n"
        "        LOOP(\"sym\", FunctionType::DYNAMIC_LOOP, k, LoopRange(rows)) { (void)k; }\n"
        "        SymbolicScalar seq = GetTensorData(x, {0, 0});\n"
        "        Tensor idx(DT_INT32, {4}, \"idx\");\n"
        "        Tensor pick = View(q, {1, 64}, {GetTensorData(idx, {0}) + 1, 0});\n"
        "        LOOP(\"data\", FunctionType::DYNAMIC_LOOP, s, LoopRange(seq)) { (void)s; }\n"
        "    }\n"
        "}\n");
    ck_assert(!m->fatal);
    const pc_kernel *k = kernel_named(m, "k");
    expect_shape(tensor_var(k, "q"), 2, (int64_t[]){64, 64});
    ck_assert_int_eq(tensor_var(k, "q")->dtype, PC_DT_BF16);
    const pc_tensor *x = tensor_var(k, "x");
    expect_expr(x->shape[0], "x.shape[0]", "a dynamic dim");
    expect_int(x->shape[1], 16, "x dim 1");
    expect_expr(tensor_var(k, "r")->shape[0], "rows", "a symbolic dim");
    expect_expr(loop_named(k, "dyn", 0)->end, "x.shape[0]/16", "GetInputShape of a dynamic dim");
    const pc_loop *st = loop_named(k, "stat", 0);
    expect_int(st->end, 72, "GetInputShape of a static dim plus a reassigned int"); /* 64 + 8 */
    expect_int(st->step, 64, "const int");
    expect_expr(loop_named(k, "sym", 0)->end, "rows", "a parameter");
    /* the one-element read itself, named as the Python frontend names x[0, 0] (model.md 2) */
    expect_expr(loop_named(k, "data", 0)->end, "x[0,0]", "a data-dependent scalar");
    const pc_tensor *t = tensor_var(k, "t");
    ck_assert_int_eq(t->dtype, PC_DT_FP16);
    expect_shape(t, 2, (int64_t[]){16, 16});
    /* GetTensorData reads its tensor, in a declaration and inside an offset list */
    ck_assert_int_eq(count_in_block(k, &k->body, "x", PC_ACC_READ, ANY_UNIT), 2);
    ck_assert_int_eq(count_in_block(k, &k->body, "idx", PC_ACC_READ, PC_UNIT_NONE), 1);
    ck_assert_int_eq(tensor_var(k, "pick")->kind, PC_TENSOR_VIEW);
    bool have_d = false, have_n = false;
    for (int i = 0; i < k->nconstants; i++) {
        have_d = have_d || (!strcmp(k->constants[i].name, "d") && k->constants[i].value == 64);
        have_n = have_n || (!strcmp(k->constants[i].name, "n") && k->constants[i].value == 64);
    }
    ck_assert(have_d && have_n);
    pc_model_free(m);
}
END_TEST

START_TEST(shape_inference)
{
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "void Build(Tensor &o)\n"
        "{\n"
        "    Tensor a(DT_FP16, {4, 32, 16}, \"a\");\n"
        "    Tensor b(DT_FP16, {4, 64, 16}, \"b\");\n"
        "    Tensor c3(DT_FP16, {4, 64, 32}, \"c3\");\n"
        "    FUNCTION(\"k\", {a, b, c3}, {o}) {\n"
        "        Tensor mt = Matrix::Matmul(DT_FP32, a, b, false, true);\n"
        "        Tensor bm = Matrix::BatchMatmul(DT_BF16, b, c3, true);\n"
        "        Tensor s0 = Sum(a, 1);\n"
        "        Tensor s1 = Amax(a, -1, true);\n"
        "        Tensor e = Add(a, View(a, {1, 32, 16}, {0, 0, 0}));\n"
        "        Tensor r = Reshape(a, {128, 16});\n"
        "        Tensor tr = Transpose(a, {1, 2});\n"
        "        Tensor un = Unsqueeze(a, 0);\n"
        "        Tensor c = Cat({a, a}, 1);\n"
        "        Tensor f = Full(Element(DT_FP32, 0.0), DT_INT32, {8, 8});\n"
        "        Tensor cmp = Compare(a, b, OpType::LT, OutType::BOOL);\n"
        "        Tensor bits = View(a, DT_INT8);\n"
        "        Assemble(mt, {0, 0, 0}, o);\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    const pc_tensor *mt = tensor_var(k, "mt");
    ck_assert_int_eq(mt->dtype, PC_DT_FP32);
    expect_shape(mt, 3, (int64_t[]){4, 32, 64});
    ck_assert_int_eq(count_in_block(k, &k->body, "mt", PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(count_in_block(k, &k->body, "b", PC_ACC_READ, PC_UNIT_CUBE), 2); /* mt and bm */
    const pc_tensor *bm = tensor_var(k, "bm");
    ck_assert_int_eq(bm->dtype, PC_DT_BF16);
    expect_shape(bm, 3, (int64_t[]){4, 16, 32}); /* [64,16]^T x [64,32] */
    expect_shape(tensor_var(k, "s0"), 2, (int64_t[]){4, 16});
    expect_shape(tensor_var(k, "s1"), 3, (int64_t[]){4, 32, 1});
    expect_shape(tensor_var(k, "e"), 3, (int64_t[]){4, 32, 16});
    ck_assert_int_eq(tensor_var(k, "e")->dtype, PC_DT_FP16);
    const pc_tensor *r = tensor_var(k, "r");
    ck_assert_int_eq(r->kind, PC_TENSOR_VIEW);
    expect_shape(r, 2, (int64_t[]){128, 16});
    expect_shape(tensor_var(k, "tr"), 3, (int64_t[]){4, 16, 32});
    expect_shape(tensor_var(k, "un"), 4, (int64_t[]){1, 4, 32, 16});
    expect_shape(tensor_var(k, "c"), 3, (int64_t[]){4, 64, 16});
    const pc_tensor *f = tensor_var(k, "f");
    ck_assert_int_eq(f->dtype, PC_DT_INT32);
    expect_shape(f, 2, (int64_t[]){8, 8});
    ck_assert_int_eq(tensor_var(k, "cmp")->dtype, PC_DT_BOOL);
    const pc_tensor *bits = tensor_var(k, "bits");
    ck_assert_int_eq(bits->kind, PC_TENSOR_VIEW);
    ck_assert_int_eq(bits->dtype, PC_DT_INT8);
    expect_shape(bits, 3, (int64_t[]){4, 32, 32});
    pc_model_free(m);
}
END_TEST

START_TEST(writes_through_references)
{
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "void Build(Tensor &a, Tensor &o, std::vector<Tensor> &outs)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {o, outs[0]}) {\n"
        "        Tensor t(DT_FP32, {8, 8}, \"t\");\n"
        "        Tensor u;\n"
        "        TensorMove(a, t);\n"
        "        SetTensorData(1, {0, 0}, t);\n"
        "        IndexPut_(t, {a}, a);\n"
        "        AtomicRMW(a, {0, 0}, o, AtomicRMWMode::ADD);\n"
        "        Reshape(a, u);\n"
        "        Assemble({{a, {0, 0}}, {t, {0, 8}}}, o);\n"
        "        Assemble(t, {0, 0}, outs[0]);\n"
        "        u = t;\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    ck_assert_int_eq(tensor_var(k, "outs[0]")->kind, PC_TENSOR_PARAM);
    const pc_block *b = &k->body;
    ck_assert_int_eq(count_in_block(k, b, "t", PC_ACC_WRITE_WHOLE, PC_UNIT_NONE), 1);
    ck_assert_int_eq(count_in_block(k, b, "t", PC_ACC_WRITE_ELEMENT, ANY_UNIT), 2);
    ck_assert_int_eq(count_in_block(k, b, "o", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 2);
    ck_assert_int_eq(count_in_block(k, b, "u", PC_ACC_WRITE_WHOLE, PC_UNIT_NONE), 2);
    ck_assert_int_eq(count_in_block(k, b, "outs[0]", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);
    ck_assert_int_eq(count_in_block(k, b, "t", PC_ACC_READ, PC_UNIT_NONE), 3); /* item list, Assemble, u = t */
    ck_assert_int_eq(tensor_var(k, "u")->kind, PC_TENSOR_CREATED);
    pc_model_free(m);
}
END_TEST

START_TEST(kernels_in_program_and_nested)
{
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    PROGRAM(\"P\") {\n"
        "        FUNCTION(\"first\", {a}, {b}) {\n"
        "            FUNCTION(\"inner\") {\n"
        "                LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(2)) { b = Exp(a); }\n"
        "            }\n"
        "        }\n"
        "        FUNCTION(\"second\", {b}, {a}) { a = Exp(b); }\n"
        "    }\n"
        "    for (int h = 0; h < 3; h++) {\n"
        "        FUNCTION(\"third\", {a}, {b}) {\n"
        "            for (int r = 0; r < 3; r++) {\n"
        "                LOOP(\"rep\", FunctionType::DYNAMIC_LOOP, i, LoopRange(r + 1)) { b = Exp(a); }\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n");
    ck_assert_int_eq(m->nkernels, 3);
    const pc_kernel *k = kernel_named(m, "first");
    ck_assert_int_eq(k->nloops, 1); /* the nested FUNCTION belongs to its enclosing kernel */
    kernel_named(m, "second");
    const pc_kernel *t = kernel_named(m, "third");
    ck_assert_int_eq(t->nloops, 3); /* a host loop around a LOOP makes it once per trip */
    expect_int(loop_named(t, "rep", 2)->end, 3, "third trip");
    pc_model_free(m);
}
END_TEST

/* ---- errors ----------------------------------------------------------------------------------------- */

START_TEST(syntax_error_recovery)
{
    pc_model *m = parse_text(
        "#include \"tilefwk/tilefwk.h\"\n"
        "using namespace npu::tile_fwk;\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        LOOP(\"L0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, UNDECLARED_N, 1)) {\n"
        "            Tensor y = Add(a, a;\n"
        "            Assemble(Exp(Foo(a)), {i, 0}, b);\n"
        "        }\n"
        "        LOOP(\"L1\", FunctionType::DYNAMIC_LOOP, j) { b = Exp(a); }\n"
        "        LOOP(\"L2\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 4, 1)) { b = Exp(a); }\n"
        "    }\n"
        "}\n");
    ck_assert(!m->fatal);
    /* clang's errors inside the kernel body are the kernel's own: errors, not stub noise */
    ck_assert_int_gt(count_messages(m, PC_MSG_ERROR), 0);
    const pc_kernel *k = kernel_named(m, "k");
    /* an undeclared name in a LOOP header does not lose the loop: it is a symbol */
    const pc_loop *l0 = loop_named(k, "L0", 0);
    expect_expr(l0->end, "UNDECLARED_N", "undeclared bound");
    /* the broken statements are reported, what is recognisable in them is kept */
    int un = 0;
    for (int i = 0; i < l0->body.count; i++) {
        const pc_stmt *s = &k->stmts[l0->body.stmts[i]];
        if (s->kind == PC_STMT_UNANALYSED) {
            un++;
            ck_assert_ptr_nonnull(strstr(s->message, "clang"));
        }
    }
    ck_assert_int_eq(un, 2);
    ck_assert_int_eq(count_in_block(k, &l0->body, "b", PC_ACC_WRITE_ASSEMBLE, ANY_UNIT), 1);
    /* a LOOP with too few arguments is no statement for clang: still reported, at its line */
    bool found = false;
    for (int i = 0; i < k->body.count; i++) {
        const pc_stmt *s = &k->stmts[k->body.stmts[i]];
        if (s->kind == PC_STMT_UNANALYSED && s->loc.line == 10) {
            found = true;
            ck_assert_ptr_nonnull(strstr(s->message, "LOOP"));
        }
    }
    ck_assert(found);
    loop_named(k, "L2", 0);
    /* a FUNCTION clang dropped entirely leaves no kernel: a located warning says so */
    pc_model *m2 = parse_text("void f(){\n    FUNCTION(\"gone\", {a}, {b}) }\n");
    ck_assert_int_eq(m2->nkernels, 0);
    ck_assert_int_eq(count_messages(m2, PC_MSG_WARNING), 1);
    for (int i = 0; i < m2->nmessages; i++)
        if (m2->messages[i].kind == PC_MSG_WARNING) {
            ck_assert_uint_eq(m2->messages[i].loc.line, 2);
            ck_assert_uint_eq(m2->messages[i].loc.col, 5);
            ck_assert_ptr_nonnull(strstr(m2->messages[i].text, "FUNCTION"));
        }
    pc_model_free(m2);
    /* statements come in source order even with the late insertion */
    int last = 0;
    for (int i = 0; i < k->body.count; i++) {
        ck_assert_int_ge((int)k->stmts[k->body.stmts[i]].loc.line, last);
        last = (int)k->stmts[k->body.stmts[i]].loc.line;
    }
    pc_model_free(m);
}
END_TEST

START_TEST(missing_file_is_fatal)
{
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    pc_model *m = parse_opts("/nonexistent/dir/kernel.cpp", NULL, &o);
    ck_assert(m->fatal);
    ck_assert_int_eq(m->nkernels, 0);
    ck_assert_int_eq(count_messages(m, PC_MSG_FATAL), 1);
    ck_assert_ptr_nonnull(strstr(m->messages[0].text, "/nonexistent/dir/kernel.cpp"));
    ck_assert_uint_eq(m->messages[0].loc.line, 1);
    pc_model_free(m);
    /* the dispatcher routes .cpp here too */
    pc_frontend *fe = pc_frontend_new();
    m = pc_frontend_parse(fe, "/nonexistent/dir/kernel.cc", NULL, 0, NULL);
    ck_assert(m->fatal);
    pc_model_free(m);
    pc_frontend_free(fe);
}
END_TEST

/* ---- unsaved buffers and editor reparses -------------------------------------------------------------- */

START_TEST(unsaved_buffer)
{
    /* the buffer wins over the file on disk */
    char *text = NULL;
    size_t len = 0;
    char *err = NULL;
    text = pc_read_file(SEED, &len, &err);
    ck_assert_ptr_nonnull(text);
    char *p = strstr(text, "\"l_loop_2\"");
    ck_assert_ptr_nonnull(p);
    memcpy(p, "\"edited_2\"", 10);
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    pc_model *m = parse_opts(SEED, text, &o);
    const pc_kernel *k = kernel_named(m, "k_tmp_to_d_emb");
    loop_named(k, "edited_2", 0);
    ck_assert_str_eq(m->file, SEED);
    ck_assert_str_eq(k->loc.file, SEED);
    pc_model_free(m);
    pc_mem_free(text);
}
END_TEST

START_TEST(editor_reparse)
{
    const char *v1 = "using namespace npu::tile_fwk;\n"
                     "void B(Tensor &a, Tensor &b) { FUNCTION(\"k\", {a}, {b}) {\n"
                     "  LOOP(\"one\", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) { b = Exp(a); } } }\n";
    const char *v2 = "using namespace npu::tile_fwk;\n"
                     "void B(Tensor &a, Tensor &b) { FUNCTION(\"k\", {a}, {b}) {\n"
                     "  LOOP(\"two\", FunctionType::DYNAMIC_LOOP, i, LoopRange(8)) { b = Exp(a); } } }\n";
    const char *path = "/nonexistent/editor_kernel.cpp";
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.keep_tu = true;
    pc_frontend *fe = pc_frontend_new();
    pc_model *m1 = pc_clang_parse(fe, path, v1, strlen(v1), &o);
    ck_assert_ptr_nonnull(fe->clang);
    ck_assert_int_eq(fe->clang->kept.count, 1);
    CXTranslationUnit tu = fe->clang->kept.items[0].tu;
    pc_model *m2 = pc_clang_parse(fe, path, v2, strlen(v2), &o);
    ck_assert_int_eq(fe->clang->kept.count, 1);
    ck_assert_ptr_eq(fe->clang->kept.items[0].tu, tu); /* reparsed, not parsed afresh */
    pc_model *m3 = pc_clang_parse(fe, path, v1, strlen(v1), &o);
    expect_int(loop_named(kernel_named(m1, "k"), "one", 0)->end, 4, "v1");
    expect_int(loop_named(kernel_named(m2, "k"), "two", 0)->end, 8, "v2");
    expect_int(loop_named(kernel_named(m3, "k"), "one", 0)->end, 4, "v1 again");
    /* changed flags: a fresh translation unit */
    const char *defs[] = {"-DUNUSED_FLAG=1"};
    o.extra_args = defs;
    o.nextra_args = 1;
    pc_model *m4 = pc_clang_parse(fe, path, v2, strlen(v2), &o);
    ck_assert_int_eq(fe->clang->kept.count, 1);
    kernel_named(m4, "k");
    /* the editor closed the document: the kept translation unit goes */
    pc_frontend_release(fe, "/nonexistent/other.cpp");
    ck_assert_int_eq(fe->clang->kept.count, 1);
    pc_frontend_release(fe, path);
    ck_assert_int_eq(fe->clang->kept.count, 0);
    pc_model *m5 = pc_clang_parse(fe, path, v1, strlen(v1), &o);
    ck_assert_int_eq(fe->clang->kept.count, 1);
    expect_int(loop_named(kernel_named(m5, "k"), "one", 0)->end, 4, "after release");
    pc_model_free(m5);
    pc_model_free(m1);
    pc_model_free(m2);
    pc_model_free(m3);
    pc_model_free(m4);
    pc_frontend_free(fe); /* disposes the kept translation unit (valgrind: no definite leak) */
}
END_TEST

/* Thousands of -D macros over many kernels: once each kernel recorded every integer macro as
 * a constant, searching its constants once per macro (20,000 macros and 100 kernels took
 * minutes; 30,000 through poolcheck-cc, 407 s).  Values come from clang's expansion now: well
 * under the bound, the last definition's value, and no constant per macro. */
START_TEST(many_defines_linear)
{
    enum { NDEFS = 20000, NKERNELS = 100 };
    char **defs = malloc(sizeof *defs * (NDEFS + 1));
    for (int i = 0; i < NDEFS; i++) {
        defs[i] = malloc(32);
        snprintf(defs[i], 32, "-DM%d=%d", i, i);
    }
    defs[NDEFS] = malloc(32);
    snprintf(defs[NDEFS], 32, "-DM7=70"); /* a later definition wins */
    size_t cap = (size_t)NKERNELS * 256 + 64, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len, "using namespace npu::tile_fwk;\n");
    for (int k = 0; k < NKERNELS; k++)
        len += (size_t)snprintf(src + len, cap - len,
                                "void B%d(Tensor &a, Tensor &b) { FUNCTION(\"k%d\", {a}, {b}) {\n"
                                "  LOOP(\"l\", FunctionType::DYNAMIC_LOOP, i, LoopRange(M7)) { b = Exp(a); } } }\n",
                                k, k);
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.extra_args = (const char *const *)defs;
    o.nextra_args = NDEFS + 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pc_model *m = parse_opts("/nonexistent/many_defines.cpp", src, &o);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
#if defined(__SANITIZE_ADDRESS__)
    const double bound = 120.0;
#else
    const double bound = 20.0;
#endif
    ck_assert_msg(s < bound, "%d macros, %d kernels: %.1f s", NDEFS, NKERNELS, s);
    ck_assert_int_eq(m->nkernels, NKERNELS);
    const pc_kernel *k = kernel_named(m, "k42");
    expect_int(loop_named(k, "l", 0)->end, 70, "M7 as last defined");
    /* the value is clang's expansion in the cursors: a macro is no constant of the kernel */
    ck_assert_int_eq(k->nconstants, 0);
    pc_model_free(m);
    free(src);
    for (int i = 0; i <= NDEFS; i++)
        free(defs[i]);
    free(defs);
}
END_TEST

/* ---- real headers: compile_commands.json and compiler command lines ------------------------------------ */

/* A tiny header set shaped like the real PyPTO headers: the upstream macro expansions
 * (RecordLoopFunc / RecordFunc / RecordIfBranch), no stub markers. */
static const char *const real_header =
    "#pragma once\n"
    "#include <initializer_list>\n"
    "namespace npu { namespace tile_fwk {\n"
    "enum DataType { DT_INT8, DT_FP16, DT_FP32 };\n"
    "class SymbolicScalar { public: SymbolicScalar(int v); SymbolicScalar(long v); };\n"
    "SymbolicScalar operator*(const SymbolicScalar &a, const SymbolicScalar &b);\n"
    "class Tensor { public: Tensor(); Tensor(DataType t, std::initializer_list<long> s, const char *n = \"\");\n"
    "  Tensor(const Tensor &o); Tensor &operator=(const Tensor &o); };\n"
    "Tensor Exp(const Tensor &t);\n"
    "Tensor View(const Tensor &t, std::initializer_list<long> s, std::initializer_list<SymbolicScalar> o);\n"
    "void Assemble(const Tensor &t, std::initializer_list<SymbolicScalar> o, Tensor &dst);\n"
    "namespace Matrix { Tensor Matmul(DataType t, const Tensor &a, const Tensor &b, bool at = false, bool bt = false); }\n"
    "enum class FunctionType { STATIC, DYNAMIC_LOOP };\n"
    "class LoopRange { public: LoopRange(const SymbolicScalar &b, const SymbolicScalar &e, const SymbolicScalar &s);\n"
    "  explicit LoopRange(const SymbolicScalar &e); };\n"
    "struct ScalarIt { SymbolicScalar &operator*(); ScalarIt &operator++(); bool operator!=(const ScalarIt &o); };\n"
    "class RecordLoopFunc { public: RecordLoopFunc(const char *n, FunctionType t, const char *i, const LoopRange &r,\n"
    "  std::initializer_list<int> u = {}, bool submit = false, bool parallel = false);\n"
    "  ScalarIt begin(); ScalarIt end(); static bool MatchUnrollTimes(int t); };\n"
    "class RecordFunc { public: RecordFunc(const char *n, std::initializer_list<Tensor> in, std::initializer_list<Tensor> out);\n"
    "  ScalarIt begin(); ScalarIt end(); };\n"
    "class RecordIfBranch { public: RecordIfBranch(const SymbolicScalar &c, const char *f, int l); operator bool() const; };\n"
    "}}\n"
    "#define FUNCTION(name, ...) for ([[maybe_unused]] auto &recordFunc0 : npu::tile_fwk::RecordFunc(name, ##__VA_ARGS__))\n"
    "#define LOOP(name, funcType, index, ...) for (auto &index : npu::tile_fwk::RecordLoopFunc(name, funcType, #index, ##__VA_ARGS__))\n"
    "#define IF(cond) if (npu::tile_fwk::RecordIfBranch(cond, __FILE__, __LINE__))\n"
    "#define ELSE else\n"
    "#define UNROLL(X) if (npu::tile_fwk::RecordLoopFunc::MatchUnrollTimes(X))\n";

/* A helper in a project header: inlined from that file in the real-header mode. */
static const char *const real_helpers =
    "#pragma once\n"
    "#include \"tilefwk/tilefwk.h\"\n"
    "inline void Stage(const npu::tile_fwk::Tensor &in, npu::tile_fwk::Tensor &out)\n"
    "{\n"
    "    using namespace npu::tile_fwk;\n"
    "    LOOP(\"helper_loop\", FunctionType::DYNAMIC_LOOP, h, LoopRange(0, 2, 1)) { Assemble(in, {h, 0}, out); }\n"
    "}\n";

static const char *const real_kernel =
    "#include \"tilefwk/tilefwk.h\"\n"
    "#include \"kernel_helpers.h\"\n"
    "using namespace npu::tile_fwk;\n"
    "void Build()\n"
    "{\n"
    "    Tensor a(DT_FP32, {64, 16}, \"a\");\n"
    "    Tensor w(DT_FP32, {16, 16}, \"w\");\n"
    "    Tensor o(DT_FP32, {64, 16}, \"o\");\n"
    "    FUNCTION(\"real_kernel\", {a, w}, {o}) {\n"
    "        LOOP(\"L0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, ROWS, 1), {2, 1}) {\n"
    "            UNROLL(2) { Assemble(a, {i, 0}, o); }\n"
    "            Tensor mm = Matrix::Matmul(DT_FP32, View(a, {16, 16}, {i * 16, 0}), w);\n"
    "            IF(i) { Assemble(Exp(mm), {i * 16, 0}, o); } ELSE { Assemble(mm, {i * 16, 0}, o); }\n"
    "        }\n"
    "        Stage(w, o);\n"
    "    }\n"
    "}\n";

static void check_real_model(const pc_model *m)
{
    ck_assert(!m->fatal);
    ck_assert_msg(count_messages(m, PC_MSG_WARNING) == 0, "warning: %s", m->nmessages ? m->messages[0].text : "");
    ck_assert_msg(count_messages(m, PC_MSG_PARSE_NOISE) == 0, "clang error: %s", m->nmessages ? m->messages[0].text : "");
    const pc_kernel *k = kernel_named(m, "real_kernel");
    const pc_loop *l = loop_named(k, "L0", 0);
    expect_int(l->end, 4, "-DROWS=4");
    ck_assert_int_eq(l->nunroll, 2);
    expect_shape(tensor_var(k, "mm"), 2, (int64_t[]){16, 16});
    ck_assert_int_eq(tensor_var(k, "a")->kind, PC_TENSOR_PARAM);
    ck_assert_int_eq(count_kind(k, PC_STMT_IF), 1);
    ck_assert_int_eq(count_kind(k, PC_STMT_UNROLL), 1);
    ck_assert_int_eq(count_in_block(k, &l->body, "mm", PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(count_in_block(k, &l->body, "mm", PC_ACC_READ, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(count_in_block(k, &l->body, "o", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 3);
    /* the helper from include/kernel_helpers.h, located in that file */
    const pc_loop *h = loop_named(k, "helper_loop", 0);
    expect_int(h->end, 2, "helper loop");
    ck_assert_ptr_nonnull(strstr(h->loc.file, "kernel_helpers.h"));
    ck_assert_uint_eq(h->loc.line, 6);
    ck_assert_int_eq(count_in_block(k, &h->body, "w", PC_ACC_READ, PC_UNIT_NONE), 1);
    ck_assert_int_eq(count_in_block(k, &h->body, "o", PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);
}

START_TEST(compile_commands_with_bisheng_flags)
{
    char *dir = temp_dir();
    write_file(dir, "include/tilefwk/tilefwk.h", real_header);
    write_file(dir, "include/kernel_helpers.h", real_helpers);
    write_file(dir, "kernel.cpp", real_kernel);
    char json[8192];
    /* relative paths: they resolve against the entry's directory, not poolcheck's cwd */
    snprintf(json, sizeof json,
             "[{\"directory\": \"%s\", \"file\": \"kernel.cpp\", \"command\": \"ccache bisheng -xcce "
             "--npu-arch=dav-2201 -std=c++17 -Iinclude -DROWS=4 -Werror -c kernel.cpp -o build/kernel.o -MD -MF "
             "build/kernel.d\"}]",
             dir);
    write_file(dir, "compile_commands.json", json);
    char path[4096];
    snprintf(path, sizeof path, "%s/kernel.cpp", dir);
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.compile_db_dir = dir;
    char *cwd = getcwd(NULL, 0);
    pc_model *m = parse_opts(path, NULL, &o);
    check_real_model(m);
    pc_model_free(m);
    /* clang's driver chdir()s for -working-directory: the frontend puts the process back */
    char *after = getcwd(NULL, 0);
    ck_assert_str_eq(after, cwd);
    free(after);
    free(cwd);

    /* a file with no entry of its own gets the command of its nearest neighbour (libclang
     * interpolates, as clangd does) */
    char other[4096];
    snprintf(other, sizeof other, "%s/other.cpp", dir);
    write_file(dir, "other.cpp", real_kernel);
    m = parse_opts(other, NULL, &o);
    check_real_model(m);
    pc_model_free(m);

    /* a directory with no compile_commands.json: the stub header, and a warning saying so */
    char nodb[4200];
    snprintf(nodb, sizeof nodb, "%s/include", dir);
    o.compile_db_dir = nodb;
    m = parse_opts(path, NULL, &o);
    ck_assert(!m->fatal);
    ck_assert_int_eq(count_messages(m, PC_MSG_WARNING), 1);
    ck_assert_ptr_nonnull(strstr(m->messages[0].text, "stub"));
    ck_assert_ptr_nonnull(strstr(m->messages[0].text, "compile_commands.json"));
    const pc_kernel *k = kernel_named(m, "real_kernel");
    expect_expr(loop_named(k, "L0", 0)->end, "ROWS", "no -DROWS without the database");
    pc_model_free(m);
    remove_tree(dir);
    free(dir);
}
END_TEST

START_TEST(compiler_command_line)
{
    char *dir = temp_dir();
    write_file(dir, "include/tilefwk/tilefwk.h", real_header);
    write_file(dir, "include/kernel_helpers.h", real_helpers);
    write_file(dir, "kernel.cpp", real_kernel);
    char inc[4200], path[4200];
    snprintf(inc, sizeof inc, "-I%s/include", dir);
    snprintf(path, sizeof path, "%s/kernel.cpp", dir);
    const char *argv[] = {"bisheng", "-x", "cce", "--npu-arch=dav-c220", "-std=c++17", inc, "-c", path, "-o", "k.o"};
    const char *before[] = {"-DROWS=4"};
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.compiler_args = argv;
    o.ncompiler_args = sizeof argv / sizeof *argv;
    o.extra_args_before = before;
    o.nextra_args_before = 1;
    pc_model *m = parse_opts(path, NULL, &o);
    check_real_model(m);
    pc_model_free(m);

    /* a command whose include path does not reach the PyPTO headers (no CANN here): the stub
     * header instead, with the command's definitions, and a warning saying so */
    const char *nocann[] = {"c++", "-I/nonexistent/include", "-DROWS=4", "-Werror", "-c", path};
    pc_parse_opts o2;
    memset(&o2, 0, sizeof o2);
    o2.compiler_args = nocann;
    o2.ncompiler_args = sizeof nocann / sizeof *nocann;
    m = parse_opts(path, NULL, &o2);
    ck_assert(!m->fatal);
    ck_assert_int_eq(count_messages(m, PC_MSG_WARNING), 1);
    ck_assert_ptr_nonnull(strstr(m->messages[0].text, "stub"));
    expect_int(loop_named(kernel_named(m, "real_kernel"), "L0", 0)->end, 4, "-DROWS=4 kept in stub mode");
    pc_model_free(m);

    /* the sanitiser itself */
    pc_clang_argv out = {0};
    const char *cmd[] = {"/usr/bin/ccache", "bisheng", "-xcce", "--npu-arch", "-O2", "-o", "x.o", "-MFdep.d", path};
    pc_clang_sanitize_args(cmd, sizeof cmd / sizeof *cmd, path, NULL, &out);
    ck_assert_int_eq(out.count, 3);
    ck_assert_str_eq(out.items[0], "-x");
    ck_assert_str_eq(out.items[1], "c++");
    ck_assert_str_eq(out.items[2], "-O2");
    for (size_t i = 0; i < out.count; i++)
        pc_mem_free(out.items[i]);
    PC_VEC_FREE(out);
    remove_tree(dir);
    free(dir);
}
END_TEST

/* ---- the stub header lookup --------------------------------------------------------------------------- */

/* The real C++ standard library and gtest's naming, with the real-header macros of real_header:
 * the real std::vector's initializer-list constructor has a default allocator argument (the stub's
 * vector has none), and the real TEST(Suite, Name) is a class Suite_Name_Test whose TestBody is
 * defined out of line (the stub's TEST carries the name as a string).  And a FUNCTION written out
 * as a for-range over a RecordFunc variable, which only the real RecordFunc can iterate. */
static const char *const real_tile_shape =
    "#pragma once\n"
    "#include <cstdint>\n"
    "#include <vector>\n"
    "namespace npu { namespace tile_fwk {\n"
    "class TileShape { public: static TileShape &Current();\n"
    "  void SetVecTile(const std::vector<int64_t> &tile);\n"
    "  template <typename... Args> void SetVecTile(Args... args) { SetVecTile(std::vector<int64_t>{args...}); } };\n"
    "}}\n";

static const char *const fake_gtest =
    "#pragma once\n"
    "namespace testing { class Test { public: virtual ~Test() {} virtual void TestBody() = 0; }; }\n"
    "#define FAKE_GTEST_CLASS_(suite, name) suite##_##name##_Test\n"
    "#define TEST(suite, name) class FAKE_GTEST_CLASS_(suite, name) : public ::testing::Test {\\\n"
    "    void TestBody() override; };\\\n"
    "  void FAKE_GTEST_CLASS_(suite, name)::TestBody()\n"
    /* a project's wrapper with one more argument, as upstream's TEST_F_WITH_COST */
    "#define TEST_WITH_COST(suite, name, seconds) TEST(suite, name)\n";

static const char *const real_gtest_kernel =
    "#include \"tilefwk/tilefwk.h\"\n"
    "#include \"tilefwk/tile_shape.h\"\n"
    "#include \"gtest/gtest.h\"\n"
    "using namespace npu::tile_fwk;\n"
    "TEST(RealSuite, VecTile)\n"
    "{\n"
    "    Tensor a(DT_FP32, {64, 16}, \"a\");\n"
    "    Tensor o(DT_FP32, {64, 16}, \"o\");\n"
    "    FUNCTION(\"gtest_kernel\", {a}, {o}) {\n"
    "        LOOP(\"L0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1)) {\n"
    "            TileShape::Current().SetVecTile({16, 32});\n"
    "            Assemble(Exp(View(a, {16, 16}, {i * 16, 0})), {i * 16, 0}, o);\n"
    "        }\n"
    "    }\n"
    "}\n"
    /* FUNCTION written out, as upstream's test_encode.cpp does */
    "void WrittenOut()\n"
    "{\n"
    "    Tensor x(DT_FP32, {32, 16}, \"x\");\n"
    "    Tensor y(DT_FP32, {32, 16}, \"y\");\n"
    "    RecordFunc rec(\"written_out\", {x}, {y});\n"
    "    for ([[maybe_unused]] auto &step : rec) {\n"
    "        LOOP(\"W0\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 2, 1)) {\n"
    "            Assemble(Exp(View(x, {16, 16}, {j * 16, 0})), {j * 16, 0}, y);\n"
    "        }\n"
    "    }\n"
    "    for ([[maybe_unused]] auto &step : RecordFunc(\"written_temporary\", {y}, {x})) {\n"
    "        Assemble(Exp(View(y, {16, 16}, {0, 0})), {0, 0}, x);\n"
    "    }\n"
    "}\n"
    "TEST_WITH_COST(RealSuite, Costed, 98)\n"
    "{\n"
    "    Tensor c(DT_FP32, {16, 16}, \"c\");\n"
    "    Tensor d(DT_FP32, {16, 16}, \"d\");\n"
    "    FUNCTION(\"costed_kernel\", {c}, {d}) { Assemble(Exp(c), {0, 0}, d); }\n"
    "}\n";

START_TEST(real_std_library_and_gtest)
{
    char *dir = temp_dir();
    write_file(dir, "include/tilefwk/tilefwk.h", real_header);
    write_file(dir, "include/tilefwk/tile_shape.h", real_tile_shape);
    write_file(dir, "include/gtest/gtest.h", fake_gtest);
    write_file(dir, "kernel.cpp", real_gtest_kernel);
    char inc[4200], path[4200];
    snprintf(inc, sizeof inc, "-I%s/include", dir);
    snprintf(path, sizeof path, "%s/kernel.cpp", dir);
    const char *argv[] = {"c++", "-std=c++17", inc, "-c", path};
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    o.compiler_args = argv;
    o.ncompiler_args = sizeof argv / sizeof *argv;
    pc_model *m = parse_opts(path, NULL, &o);
    ck_assert(!m->fatal);
    ck_assert_msg(count_messages(m, PC_MSG_WARNING) == 0, "warning: %s", m->nmessages ? m->messages[0].text : "");
    ck_assert_msg(count_messages(m, PC_MSG_PARSE_NOISE) == 0, "clang error: %s", m->nmessages ? m->messages[0].text : "");
    const pc_kernel *k = kernel_named(m, "gtest_kernel");
    ck_assert_str_eq(k->scope, "RealSuite.VecTile"); /* as stub mode names it */
    const pc_tile_shapes *t = NULL;
    for (int i = 0; i < k->nstmts && !t; i++)
        if (k->stmts[i].tiles && k->stmts[i].tiles->vec_set)
            t = k->stmts[i].tiles;
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(t->vec_known, "SetVecTile({16, 32}) through the real std::vector is known");
    ck_assert_int_eq(t->nvec, 2);
    ck_assert_int_eq(t->vec[0], 16);
    ck_assert_int_eq(t->vec[1], 32);
    const pc_kernel *w = kernel_named(m, "written_out"); /* its name and lists from `rec`'s declaration */
    ck_assert_int_eq(tensor_var(w, "x")->kind, PC_TENSOR_PARAM);
    ck_assert_int_eq(tensor_var(w, "y")->kind, PC_TENSOR_PARAM);
    expect_int(loop_named(w, "W0", 0)->end, 2, "written-out kernel's loop");
    ck_assert_str_eq(kernel_named(m, "costed_kernel")->scope, "RealSuite.Costed");
    const pc_kernel *wt = kernel_named(m, "written_temporary");
    ck_assert_int_eq(tensor_var(wt, "y")->kind, PC_TENSOR_PARAM);
    ck_assert_int_eq(tensor_var(wt, "x")->kind, PC_TENSOR_PARAM);
    pc_model_free(m);
    remove_tree(dir);
    free(dir);
}
END_TEST

START_TEST(stub_dir_from_environment)
{
    const char *text = "using namespace npu::tile_fwk;\n"
                       "void B(Tensor &a, Tensor &b) { FUNCTION(\"k\", {a}, {b}) {\n"
                       "  LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) { b = Exp(a); } } }\n";
    char *dir = temp_dir();
    /* an explicit POOLCHECK_STUB_DIR wins: a stub without LOOP shows it was used */
    write_file(dir, PC_CLANG_STUB_NAME, "namespace npu { namespace tile_fwk { class Tensor {}; } }\n");
    setenv("POOLCHECK_STUB_DIR", dir, 1);
    pc_model *m = parse_text(text);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 0);
    pc_model_free(m);
    /* a directory without the stub: the next place (the source tree) is used */
    char empty[4200];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    mkdir(empty, 0755);
    setenv("POOLCHECK_STUB_DIR", empty, 1);
    m = parse_text(text);
    ck_assert_int_eq(m->nkernels, 1);
    pc_model_free(m);
    unsetenv("POOLCHECK_STUB_DIR");
    remove_tree(dir);
    free(dir);
}
END_TEST

/* ---- locations ------------------------------------------------------------------------------------------- */

START_TEST(byte_columns)
{
    /* a tab and a multi-byte character before the name: columns count bytes */
    pc_model *m = parse_text("using namespace npu::tile_fwk;\n"
                             "void B(Tensor &a, Tensor &b) { FUNCTION(\"k\", {a}, {b}) {\n"
                             "\t/* \xc3\xa9 */ Tensor t = Exp(a);\n"
                             "} }\n");
    const pc_kernel *k = kernel_named(m, "k");
    const pc_tensor *t = tensor_var(k, "t");
    ck_assert_uint_eq(t->loc.line, 3);
    ck_assert_uint_eq(t->loc.col, 18); /* tab, comment opener and space, 2 bytes, space, closer, "Tensor " */
    ck_assert_uint_eq(t->loc.end_col, 19);
    pc_model_free(m);
}
END_TEST

START_TEST(branch_conditions)
{
    /* IF conditions as model expressions; reading tensor data makes one data-dependent */
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "#define LIMIT 3\n"
        "void Build(Tensor &a, Tensor &s, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a, s}, {b}) {\n"
        "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 8, 1)) {\n"
        "            IF((i + 1 < LIMIT && !IsLoopBegin(i, 0)) || i * 2 >= 12) { b = Exp(a); }\n"
        "            IF(GetTensorData(s, {i}) > 0) { b = Exp(a); }\n"
        "            IF(i != 2) { b = Exp(a); }\n"
        "        }\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    const pc_stmt *ifs[3];
    int n = 0;
    for (int i = 0; i < k->nstmts && n < 3; i++)
        if (k->stmts[i].kind == PC_STMT_IF)
            ifs[n++] = &k->stmts[i];
    ck_assert_int_eq(n, 3);
    const pc_expr *c = ifs[0]->branches[0].cond;
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->kind, PC_EXPR_OR);
    ck_assert_int_eq(c->a->kind, PC_EXPR_AND);
    ck_assert_int_eq(c->a->b->kind, PC_EXPR_NOT);
    ck_assert_int_eq(c->a->b->a->kind, PC_EXPR_IS_LOOP_BEGIN);
    ck_assert_int_eq(c->b->kind, PC_EXPR_GE);
    /* decided per value of i: i = 1 -> (2 < 3 && !false) -> true; i = 0 -> begin -> false; i = 6 -> 12 >= 12 */
    pc_binding one = {"i", 1};
    pc_bindings set = {&one, 1};
    int64_t v;
    ck_assert(pc_expr_eval(c->a->a, &set, 1, &v) && v == 1);
    ck_assert_str_eq(ifs[0]->branches[0].cond_text, "(i + 1 < LIMIT && !IsLoopBegin(i, 0)) || i * 2 >= 12");
    ck_assert_ptr_null(ifs[1]->branches[0].cond); /* data-dependent */
    ck_assert_str_eq(ifs[1]->branches[0].cond_text, "GetTensorData(s, {i}) > 0");
    ck_assert_int_eq(ifs[1]->branches[0].decided, -1);
    ck_assert_int_eq(ifs[2]->branches[0].cond->kind, PC_EXPR_NE);
    pc_model_free(m);
}
END_TEST

START_TEST(headers_are_expressions)
{
    /* the macros' arguments are expressions clang parsed, read by the one evaluator of values
     * (clang_value.c) as the body's are: a helper whose body is statements (which no reading of
     * the written text could run) gives the LoopRange's end, the UNROLL factor and the IF's
     * comparison alike */
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "int Half(int n) { int h = n / 2; return h; }\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(Half(16))) {\n"
        "            IF(i == Half(4)) { b = Exp(a); }\n"
        "            UNROLL(Half(8)) { b = Exp(a); }\n"
        "        }\n"
        "        IF(UNDECLARED_FLAG > 0) { b = Exp(a); }\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    const pc_loop *l = loop_named(k, "L", 0);
    expect_expr(l->end, "8", "LoopRange(Half(16))");
    const pc_stmt *ifs[2];
    int n = 0;
    const pc_stmt *unroll = NULL;
    for (int i = 0; i < k->nstmts; i++) {
        if (k->stmts[i].kind == PC_STMT_IF && n < 2)
            ifs[n++] = &k->stmts[i];
        if (k->stmts[i].kind == PC_STMT_UNROLL)
            unroll = &k->stmts[i];
        ck_assert_int_ne(k->stmts[i].kind, PC_STMT_UNANALYSED);
    }
    ck_assert_ptr_nonnull(unroll);
    ck_assert_int_eq(unroll->unroll_factor, 4);
    ck_assert_int_eq(n, 2);
    ck_assert_ptr_nonnull(ifs[0]->branches[0].cond);
    ck_assert_str_eq(expr_text(ifs[0]->branches[0].cond), "i == 2");
    ck_assert_str_eq(ifs[0]->branches[0].cond_text, "i == Half(4)");
    /* a condition clang rejected is both paths, its text kept and clang's error shown */
    ck_assert_ptr_null(ifs[1]->branches[0].cond);
    ck_assert_str_eq(ifs[1]->branches[0].cond_text, "UNDECLARED_FLAG > 0");
    ck_assert_int_eq(ifs[1]->branches[0].decided, -1);
    ck_assert_int_gt(count_messages(m, PC_MSG_ERROR), 0);
    pc_model_free(m);
    /* a FUNCTION header clang rejected (an undeclared tensor in a list) keeps its name and
     * parameters, read from the written header */
    m = parse_text("using namespace npu::tile_fwk;\n"
                   "void Build(Tensor &a, Tensor &b)\n"
                   "{\n"
                   "    FUNCTION(\"k2\", {a, UNDECLARED_T}, {b}) { b = Exp(a); }\n"
                   "}\n");
    k = kernel_named(m, "k2");
    ck_assert_int_eq(k->ntensors, 3);
    ck_assert_str_eq(k->tensors[1].variable, "UNDECLARED_T");
    for (int i = 0; i < k->ntensors; i++)
        ck_assert_int_eq(k->tensors[i].kind, PC_TENSOR_PARAM);
    pc_model_free(m);
}
END_TEST

START_TEST(one_reader_values)
{
    /* every value through clang_value.c: a SymbolicScalar element converted to int (a member
     * call), GetStorage()->Datatype() through the smart pointer's operator->, a Tensor whose dtype
     * is a parameter (its shape still read), SymbolicScalar("n") as the symbol n, an empty `{}`
     * unroll list, and n-ary max / CeilDiv by name in a header and a body alike */
    pc_model *m = parse_text(
        "#include \"tilefwk/tilefwk.h\"\n"
        "#include \"interface/inner/tilefwk.h\"\n"
        "using namespace npu::tile_fwk;\n"
        "namespace mine { static int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b * b; } }\n"
        "void Build(std::vector<Tensor> &outs, DataType dt, int64_t *vs, int64_t n)\n"
        "{\n"
        "    Tensor a(DT_FP16, {8, 8}, \"a\");\n"
        "    Tensor p(dt, {64, 256}, \"p\");\n"
        "    FUNCTION(\"k\", {a, p}, {outs[0]}) {\n"
        "        std::vector<SymbolicScalar> shape = {SymbolicScalar(\"rows\"), 32};\n"
        "        const int first = CeilDiv(shape[0], 16);\n"
        "        DataType d = a.GetStorage()->Datatype();\n"
        "        Tensor t(d, {8, 8}, \"t\");\n"
        "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, first, 1), {}) { outs[0] = Exp(a); }\n"
        "        LOOP(\"M\", FunctionType::DYNAMIC_LOOP, j, LoopRange(std::max({int64_t(shape[1]), int64_t(4), vs[0]}))) {\n"
        "            outs[0] = Exp(t);\n"
        "        }\n"
        "        LOOP(\"N\", FunctionType::DYNAMIC_LOOP, q, LoopRange(0, mine::CeilDiv(n, 16), 1)) { outs[0] = Exp(a); }\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    /* a helper's body wins over its name where it gives a value: this CeilDiv rounds up */
    expect_expr(loop_named(k, "N", 0)->end, "16*((n + 15)/16)", "the body of a helper named CeilDiv");
    expect_expr(loop_named(k, "L", 0)->end, "ceil(rows/16)", "element converted to int, CeilDiv by name");
    ck_assert_int_eq(loop_named(k, "L", 0)->nunroll, 0);
    expect_expr(loop_named(k, "M", 0)->end, "max(32, vs[0])", "max over a braced list, written part");
    ck_assert_int_ne(tensor_var(k, "a")->dtype, PC_DT_UNKNOWN);
    ck_assert_int_eq(tensor_var(k, "t")->dtype, tensor_var(k, "a")->dtype);
    const pc_tensor *p = tensor_var(k, "p");
    ck_assert_int_eq(p->ndims, 2);
    ck_assert_int_eq(count_messages(m, PC_MSG_ERROR), 0);
    pc_model_free(m);
}
END_TEST

START_TEST(values_from_the_ast)
{
    /* values from cursors: SymbolicScalar operator= / operator+ and built-in
     * assignments keyed by declaration, a constexpr template call, an enumerator, a shift */
    pc_model *m = parse_text(
        "using namespace npu::tile_fwk;\n"
        "template <typename T> constexpr T Ceil(T a, T b) { return (a + b - 1) / b; }\n"
        "enum { kRows = 5 };\n"
        "void Build(Tensor &a, Tensor &b)\n"
        "{\n"
        "    FUNCTION(\"k\", {a}, {b}) {\n"
        "        int64_t n = 4;\n"
        "        n = n * 2 + 1;\n"
        "        SymbolicScalar s = 3;\n"
        "        s = s + n;\n"
        "        int64_t c = Ceil<int64_t>(100, 16) + (1 << 2) + kRows;\n"
        "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(s)) { b = Exp(a); }\n"
        "        LOOP(\"M\", FunctionType::DYNAMIC_LOOP, j, LoopRange(c)) { b = Exp(a); }\n"
        "    }\n"
        "}\n");
    const pc_kernel *k = kernel_named(m, "k");
    ck_assert_int_eq(k->nloops, 2);
    ck_assert_str_eq(expr_text(k->loops[0].end), "12");
    ck_assert_str_eq(expr_text(k->loops[1].end), "16");
    pc_model_free(m);
}
END_TEST

START_TEST(op_table)
{
    /* one table for both languages: a C++ op and its Python twin are the same row */
    const pc_op_info *mm = pc_op_find(PC_OP_CPP, "Matmul");
    ck_assert_ptr_nonnull(mm);
    ck_assert_ptr_eq(mm, pc_op_find(PC_OP_PY, "matmul"));
    ck_assert_int_eq(mm->cls, PC_OPC_CUBE);
    ck_assert_int_eq(mm->shape, PC_OPSHAPE_MATMUL);
    /* Conv runs on the cube unit and is not a matmul (its shape is [N, Cout, Ho, Wo]) */
    const pc_op_info *conv = pc_op_find(PC_OP_CPP, "Conv");
    ck_assert_ptr_nonnull(conv);
    ck_assert_ptr_eq(conv, pc_op_find(PC_OP_PY, "conv"));
    ck_assert_int_eq(conv->cls, PC_OPC_CUBE);
    ck_assert_int_eq(conv->shape, PC_OPSHAPE_OPAQUE);
    ck_assert_int_eq(pc_op_unit(conv), PC_UNIT_CUBE);
    ck_assert_int_eq(pc_op_unit(pc_op_find(PC_OP_CPP, "View")), PC_UNIT_NONE);
    ck_assert_int_eq(pc_op_unit(pc_op_find(PC_OP_PY, "exp")), PC_UNIT_VECTOR);
    ck_assert_ptr_null(pc_op_find(PC_OP_CPP, "matmul"));
    ck_assert_ptr_null(pc_op_find(PC_OP_PY, NULL));
    /* no name twice in one language, every row named in at least one */
    size_t n = 0;
    for (const pc_op_info *r; (r = pc_op_at(n)) != NULL; n++) {
        ck_assert(r->cpp || r->py);
        if (r->cpp)
            ck_assert_ptr_eq(pc_op_find(PC_OP_CPP, r->cpp), r);
        if (r->py)
            ck_assert_ptr_eq(pc_op_find(PC_OP_PY, r->py), r);
        if (r->shape == PC_OPSHAPE_WRITES)
            ck_assert_int_ge(r->outs[0], 0);
    }
    ck_assert_uint_gt(n, 100);

    /* the C++ frontend uses it: a Conv result is a cube value of unknown shape with the output dtype */
    pc_model *m = parse_text("using namespace npu::tile_fwk;\n"
                             "void B(Tensor &x, Tensor &w, Tensor &o) { FUNCTION(\"k\", {x, w}, {o}) {\n"
                             "  Conv::ConvExtendParam p;\n"
                             "  Tensor c = Conv::Conv(DT_FP16, x, w, {1, 1}, {0, 0, 0, 0}, {1, 1}, p);\n"
                             "  o = Exp(c);\n"
                             "} }\n");
    const pc_kernel *k = kernel_named(m, "k");
    const pc_tensor *c = tensor_var(k, "c");
    ck_assert_int_eq(c->dtype, PC_DT_FP16);
    ck_assert_int_lt(c->ndims, 0);
    pc_model_free(m);
}
END_TEST

/* pc_clang_src_lex gives what lexing the range gives, for every range of a text full of the
 * lexer's corner cases (the main file is lexed once and ranges between tokens are slices of it). */
START_TEST(main_tokens_shared)
{
    static const char text[] =
        "#include \"a.h\"\n"
        "  # define TRIPS 64 \\\n"
        "   + 1\n"
        "int a = 1'000 + 1e+5 - .5; // LOOP(\"x\")\n"
        "/* FUNCTION(\"y\"\n"
        "   ) */ auto s = u8\"q\\\"\" R\"d(raw\n"
        ")\" )d\" L'c';\n"
        "x >>= y->*z; a #b; c \\\n"
        "#d\n"
        "/ /e/ f/\\ g\n"
        "\"open string\n"
        "LOOP(\"L\", FUNCTION::DYNAMIC_LOOP, i, LoopRange(4)) { }\n"
        "v = w/**/u; // end";
    pc_cx cx;
    memset(&cx, 0, sizeof cx);
    cx.src = text;
    cx.srclen = sizeof text - 1;
    cx.in_main = true;
    pc_ctoks got = {0}, want = {0};
    /* every range up to 48 bytes long, and every range to the end */
    for (size_t b = 0; b <= cx.srclen; b++)
        for (size_t e = b; e <= cx.srclen; e = e < b + 48 || e == cx.srclen ? e + 1 : cx.srclen) {
            got.count = want.count = 0;
            pc_clang_src_lex(&cx, b, e, &got);
            pc_clang_lex(text, b, e, &want);
            ck_assert_msg(got.count == want.count, "[%zu, %zu): %zu tokens, lexing gives %zu", b, e, got.count,
                          want.count);
            for (size_t i = 0; i < got.count; i++) {
                const pc_ctok *g = &got.items[i], *w = &want.items[i];
                ck_assert_msg(g->kind == w->kind && g->text == w->text && g->len == w->len && g->off == w->off,
                              "[%zu, %zu) token %zu: %.*s, lexing gives %.*s", b, e, i, (int)g->len, g->text,
                              (int)w->len, w->text);
            }
        }
    ck_assert_ptr_eq(cx.main_toks_src, text); /* lexed once, kept */
    PC_VEC_FREE(cx.main_toks);
    /* another file's buffer (an inlined helper's header) is lexed, not taken from the main file's */
    memset(&cx, 0, sizeof cx);
    cx.src = text;
    cx.srclen = sizeof text - 1;
    cx.in_main = false;
    got.count = 0;
    pc_clang_src_lex(&cx, 0, cx.srclen, &got);
    ck_assert_uint_gt(got.count, 50);
    ck_assert_ptr_null(pc_clang_main_tokens(&cx));
    ck_assert_ptr_null(cx.main_toks_src);
    PC_VEC_FREE(got);
    PC_VEC_FREE(want);
}
END_TEST

/* The host function of a kernel (where clang_tiles.c reads the tile setters run before it) is
 * looked up in one visit of the translation unit, kept in the context for every kernel. */
static const char *host_at(pc_cx *cx, uint32_t line, uint32_t col)
{
    static char name[64];
    CXCursor fn = clang_getNullCursor();
    pc_loc at = {NULL, line, col, line, col};
    ck_assert(pc_clang_host_function(cx, at, &fn));
    if (clang_Cursor_isNull(fn))
        return "(none)";
    CXString s = clang_getCursorSpelling(fn);
    snprintf(name, sizeof name, "%s", clang_getCString(s));
    clang_disposeString(s);
    return name;
}

START_TEST(host_function_lookup)
{
    static const char src[] = "namespace a { namespace b {\n"
                              "struct S { void m() {\n"
                              "  int x = 0; (void)x;\n"
                              "} };\n"
                              "void f() {\n"
                              "  auto l = [] { return 1; }; (void)l;\n"
                              "}\n"
                              "} }\n"
                              "struct S2 { S2() { } };\n"
                              "template <int N> int t() { return N; }\n"
                              "void h();\n";
    CXIndex idx = clang_createIndex(0, 0);
    struct CXUnsavedFile u = {"host.cpp", src, sizeof src - 1};
    const char *args[] = {"-x", "c++", "-std=c++17"};
    CXTranslationUnit tu = clang_parseTranslationUnit(idx, "host.cpp", args, 3, &u, 1, 0);
    ck_assert_ptr_nonnull(tu);
    pc_cx cx;
    memset(&cx, 0, sizeof cx);
    cx.m = pc_model_new("host.cpp", PC_LANG_CPP);
    cx.scratch = pc_arena_new();
    cx.tu = tu;
    cx.main_file = clang_getFile(tu, "host.cpp");
    cx.src = src;
    cx.srclen = sizeof src - 1;
    cx.line_start = pc_clang_line_table(src, cx.srclen, &cx.nlines);
    cx.in_main = true;
    ck_assert_str_eq(host_at(&cx, 3, 3), "m");  /* a method, inside a struct inside namespaces */
    ck_assert_uint_eq(cx.host_fns.count, 5);   /* m, f, S2, t and the declaration h (not the lambda) */
    ck_assert(cx.host_fns_scanned);
    ck_assert_str_eq(host_at(&cx, 6, 12), "f"); /* inside a lambda: the function around it */
    ck_assert_str_eq(host_at(&cx, 9, 19), "S2"); /* a constructor */
    ck_assert_str_eq(host_at(&cx, 10, 28), "t");
    ck_assert_str_eq(host_at(&cx, 2, 1), "(none)");
    ck_assert_str_eq(host_at(&cx, 11, 1), "(none)");
    ck_assert_uint_eq(cx.host_fns.count, 5);   /* one visit for every lookup */
    /* while another file's helper is walked, locations are that file's: the caller searches */
    cx.in_main = false;
    CXCursor fn = clang_getNullCursor();
    ck_assert(!pc_clang_host_function(&cx, (pc_loc){NULL, 3, 3, 3, 3}, &fn));
    PC_VEC_FREE(cx.host_fns);
    pc_mem_free(cx.line_start);
    pc_arena_free(cx.scratch);
    pc_model_free(cx.m);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clang");
    TCase *tc = tcase_create("frontend");
    tcase_add_test(tc, op_table_rows_declared_in_stub);
    tcase_add_test(tc, seed_example);
    tcase_add_test(tc, many_defines_linear);
    tcase_add_test(tc, helper_function_loops);
    tcase_add_test(tc, helper_forms);
    tcase_add_test(tc, if_else_branches);
    tcase_add_test(tc, unroll_and_loop_flags);
    tcase_add_test(tc, runtime_options);
    tcase_add_test(tc, constants_and_symbols);
    tcase_add_test(tc, shape_inference);
    tcase_add_test(tc, writes_through_references);
    tcase_add_test(tc, kernels_in_program_and_nested);
    tcase_add_test(tc, syntax_error_recovery);
    tcase_add_test(tc, missing_file_is_fatal);
    tcase_add_test(tc, unsaved_buffer);
    tcase_add_test(tc, editor_reparse);
    tcase_add_test(tc, compile_commands_with_bisheng_flags);
    tcase_add_test(tc, compiler_command_line);
    tcase_add_test(tc, real_std_library_and_gtest);
    tcase_add_test(tc, stub_dir_from_environment);
    tcase_add_test(tc, byte_columns);
    tcase_add_test(tc, op_table);
    tcase_add_test(tc, values_from_the_ast);
    tcase_add_test(tc, one_reader_values);
    tcase_add_test(tc, branch_conditions);
    tcase_add_test(tc, headers_are_expressions);
    tcase_add_test(tc, main_tokens_shared);
    tcase_add_test(tc, host_function_lookup);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
