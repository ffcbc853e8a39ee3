/*
 * gen_check_docs.c - writes docs/checks/PCnnn.md and docs/checks/index.md from the check table
 * (analyzer/checks/checks.def), or, with --check, says which of them differ from it.
 *
 *   gen_check_docs [--check] POOLCHECK DOCS_DIR
 *
 * Each page is built from the table entry's page fields (checks.def explains them): what the
 * check finds, why it matters, a failing and a fixed example in Python and C++, the real output
 * of `POOLCHECK check --no-summary --color=never --no-config-lookup k.py` on the failing Python
 * example (run in a temporary directory; everything it prints, stdout and stderr as a terminal
 * shows them, the notes of other checks included), notes, and how to suppress it.  The page shows
 * the output as a ```console block of `poolcheck check --no-summary k.py` run in=files, with the
 * failing Python example its file=k.py, so the CTest docs_console runs it again as the page says
 * (docs/dev/writing-docs.md).  The index is pc_chk_docs_index().  A PC*.md page with no table
 * entry is an error in both modes.
 *
 * Not part of the library: the build's `regenerate-check-docs` target runs it over the source
 * tree, and the CTest checks_docs runs it with --check (analyzer/checks/docgen/CMakeLists.txt).
 * Exit status: 0 done (or, with --check, everything up to date), 1 a page differs, is stale or
 * cannot be generated, 2 usage.
 */
#define _XOPEN_SOURCE 700
#include "checks/checks_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the page fields of checks.def ------------------------------------------------------------ */

typedef struct pc_page_edit { const char *from, *to; } pc_page_edit;

/* One example in one language: the seed example (or the entry's whole file) with options before
 * the kernel, replacements in it and text after it. */
typedef struct pc_page_source {
    const char *options;
    pc_page_edit edits[2];
    const char *append;
} pc_page_source;

typedef struct pc_page_example { pc_page_source py, cpp; } pc_page_example;

typedef struct pc_check_page {
    const char *id, *name;
    pc_severity severity;
    const char *finds, *why, *notes;
    const char *py_source, *cpp_source; /* a whole file instead of the seed example */
    const char *args;                   /* one more argument of `poolcheck check`, or NULL */
    pc_page_example failing, fixed;
} pc_check_page;

#define PY_POOLS(t) "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=" t ")"
#define CPP_POOLS(t) \
    "    config::SetRuntimeOption(\"stitch_function_num_per_pool\", std::vector<int64_t>{" t "});"
#define SEED_FIXED {.py = {.options = PY_POOLS("[64, 2, 1]")}, .cpp = {.options = CPP_POOLS("64, 2, 1")}}

static const pc_check_page pages[] = {
#define PC_CHECK(enum_, id_, name_, sev, fn, summary, description, remedy, ...) \
    {.id = id_, .name = name_, .severity = PC_SEV_##sev, __VA_ARGS__},
#define PC_FRONTEND_NOTE(enum_, id_, name_, sev, summary, description, remedy, ...) \
    {.id = id_, .name = name_, .severity = PC_SEV_##sev, __VA_ARGS__},
#include "checks/checks.def"
};

_Static_assert(sizeof pages / sizeof pages[0] == PC_CHK_COUNT, "one page per check table entry");

/* ---- the seed example (docs/model.md section 10) ---------------------------------------------- */

static const char seed_py_kernel[] =
    "@pypto.frontend.jit\n"
    "def k_tmp_to_d_emb(\n"
    "    dy: pypto.Tensor([1, 64, 1, 16], pypto.DT_FP32),\n"
    "    weight: pypto.Tensor([1, 16, 16], pypto.DT_FP32),\n"
    "    output1: pypto.Tensor([1, 64, 16], pypto.DT_FP32),\n"
    "    output2: pypto.Tensor([1, 64, 16], pypto.DT_FP32),\n"
    "):\n"
    "    tmp_assemble = pypto.tensor([1, 64, 1, 16], output1.dtype, \"tmp_assemble\")\n"
    "    tmp_exclusive = pypto.tensor([1, 64, 1, 16], output2.dtype, \"tmp_exclusive\")\n"
    "    for i_idx, t in pypto.loop_unroll(0, 1, 1, name=\"l_loop_0\"):\n"
    "        tmp_exclusive[:] = pypto.add(dy, dy)\n"
    "    for j_idx, t in pypto.loop_unroll(0, 64, 1, name=\"l_loop_1\"):\n"
    "        dy_v = dy[0, j_idx : j_idx + t, 0]\n"
    "        dx = pypto.matmul(dy_v, weight[0], pypto.DT_FP32, b_trans=True)\n"
    "        tmp_assemble[0, j_idx : j_idx + t, 0] = dx + 0.0\n"
    "    for k_idx, t in pypto.loop_unroll(0, 64, 1, name=\"l_loop_2\"):\n"
    "        output1[0, k_idx : k_idx + t] = tmp_assemble[0, k_idx : k_idx + t, 0]\n"
    "        output2[0, k_idx : k_idx + t] = tmp_exclusive[0, k_idx : k_idx + t, 0]";

#define SEED_CPP_DECLS                                     \
    "    Tensor dy(DT_FP32, {1, 64, 1, 16}, \"dy\");\n"         \
    "    Tensor weight(DT_FP32, {1, 16, 16}, \"weight\");\n"    \
    "    Tensor output1(DT_FP32, {1, 64, 16}, \"output1\");\n"  \
    "    Tensor output2(DT_FP32, {1, 64, 16}, \"output2\");"

static const char seed_cpp_kernel[] =
    "    FUNCTION(\"k_tmp_to_d_emb\", {dy, weight}, {output1, output2})\n"
    "    {\n"
    "        Tensor tmpAssemble(DT_FP32, {1, 64, 1, 16}, \"tmp_assemble\");\n"
    "        Tensor tmpExclusive(DT_FP32, {1, 64, 1, 16}, \"tmp_exclusive\");\n"
    "        LOOP(\"l_loop_0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 1, 1))\n"
    "        {\n"
    "            tmpExclusive = Add(dy, dy);\n"
    "        }\n"
    "        LOOP(\"l_loop_1\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 64, 1))\n"
    "        {\n"
    "            Tensor dyV = Reshape(View(dy, {1, 1, 1, 16}, {0, j, 0, 0}), {1, 16});\n"
    "            Tensor w0 = Reshape(View(weight, {1, 16, 16}, {0, 0, 0}), {16, 16});\n"
    "            Tensor dx = Matrix::Matmul(DT_FP32, dyV, w0, false, true);\n"
    "            Assemble(Reshape(Add(dx, Element(DT_FP32, 0.0)), {1, 1, 1, 16}), {0, j, 0, 0}, "
    "tmpAssemble);\n"
    "        }\n"
    "        LOOP(\"l_loop_2\", FunctionType::DYNAMIC_LOOP, k, LoopRange(0, 64, 1))\n"
    "        {\n"
    "            Assemble(Reshape(View(tmpAssemble, {1, 1, 1, 16}, {0, k, 0, 0}), {1, 1, 16}), "
    "{0, k, 0}, output1);\n"
    "            Assemble(Reshape(View(tmpExclusive, {1, 1, 1, 16}, {0, k, 0, 0}), {1, 1, 16}), "
    "{0, k, 0}, output2);\n"
    "        }\n"
    "    }";

/* ---- building the examples -------------------------------------------------------------------- */

/* text with every `from` replaced by `to` (pc_mem_free); NULL when `from` does not occur. */
static char *replace_all(const char *text, const char *from, const char *to)
{
    size_t n = strlen(from);
    if (!n || !strstr(text, from))
        return NULL;
    pc_sb b = {0};
    const char *p = text, *hit;
    while ((hit = strstr(p, from))) {
        pc_sb_appendn(&b, p, (size_t)(hit - p));
        pc_sb_append(&b, to);
        p = hit + n;
    }
    pc_sb_append(&b, p);
    return pc_sb_take(&b);
}

/* The body (the seed kernel or the entry's file) after the edits and the append; NULL with a
 * message on stderr when an edit's text is not found. */
static char *edited(const pc_check_page *pg, const char *lang, const char *body, const pc_page_source *s)
{
    char *text = pc_mem_strdup(body);
    for (size_t i = 0; i < sizeof s->edits / sizeof s->edits[0]; i++) {
        if (!s->edits[i].from)
            continue;
        char *next = replace_all(text, s->edits[i].from, s->edits[i].to ? s->edits[i].to : "");
        if (!next) {
            fprintf(stderr, "gen_check_docs: %s: %s example: the edit's text '%s' is not in it\n", pg->id,
                    lang, s->edits[i].from);
            pc_mem_free(text);
            return NULL;
        }
        pc_mem_free(text);
        text = next;
    }
    if (s->append) {
        pc_sb b = {0};
        pc_sb_append(&b, text);
        pc_sb_append(&b, s->append);
        pc_mem_free(text);
        text = pc_sb_take(&b);
    }
    return text;
}

/* How the seed example of one language is put together around its kernel. */
typedef struct seed_frame {
    const char *lang;
    const char *kernel;
    const char *head;     /* before the options */
    const char *middle;   /* between the options and the kernel */
    const char *tail;     /* after the kernel */
} seed_frame;

static const seed_frame python_frame = {"Python", seed_py_kernel, "import pypto\n\n", "\n\n", "\n"};
static const seed_frame cpp_frame = {
    "C++", seed_cpp_kernel,
    "#include \"tilefwk/tilefwk.h\"\n\nusing namespace npu::tile_fwk;\n\nvoid BuildTmpToDEmb()\n{\n" SEED_CPP_DECLS "\n",
    "", "\n}\n"};

/* One example in one language: the entry's whole file (`whole`) or the seed example, edited
 * (pc_mem_free); NULL when an edit does not apply. */
static char *example_source(const pc_check_page *pg, const seed_frame *f, const char *whole,
                            const pc_page_source *s)
{
    if (whole)
        return edited(pg, f->lang, whole, s);
    char *kernel = edited(pg, f->lang, f->kernel, s);
    if (!kernel)
        return NULL;
    pc_sb b = {0};
    pc_sb_append(&b, f->head);
    if (s->options && *s->options)
        pc_sb_printf(&b, "%s\n", s->options);
    pc_sb_printf(&b, "%s%s%s", f->middle, kernel, f->tail);
    pc_mem_free(kernel);
    return pc_sb_take(&b);
}

/* ---- running poolcheck on the failing example ------------------------------------------------- */

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    return ok;
}

/* stdout and stderr, interleaved in one pipe as a terminal shows them, of `poolcheck check
 * --no-summary --color=never --no-config-lookup k.py` with k.py = src, in a fresh temporary
 * directory (pc_mem_free); NULL with a message when it does not exit 0 or 1. */
static char *run_poolcheck(const char *poolcheck, const char *id, const char *args, const char *src)
{
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], file[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/gen_check_docs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "gen_check_docs: cannot make a temporary directory: %s\n", strerror(errno));
        return NULL;
    }
    snprintf(file, sizeof file, "%s/k.py", dir);
    char *result = NULL;
    int fds[2] = {-1, -1};
    if (!write_text(file, src) || pipe(fds) != 0) {
        fprintf(stderr, "gen_check_docs: %s: cannot write %s: %s\n", id, file, strerror(errno));
        goto out;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gen_check_docs: fork: %s\n", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        if (chdir(dir) != 0 || dup2(fds[1], STDOUT_FILENO) < 0 || dup2(fds[1], STDERR_FILENO) < 0)
            _exit(127);
        close(fds[0]);
        close(fds[1]);
        char *const argv[] = {(char *)poolcheck, "check", "--no-summary", "--color=never", "--no-config-lookup",
                              args ? (char *)args : "k.py", args ? "k.py" : NULL, NULL};
        execv(poolcheck, argv);
        _exit(127);
    }
    close(fds[1]);
    fds[1] = -1;
    pc_sb b = {0};
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            pc_sb_appendn(&b, buf, (size_t)n);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    pc_sb_append(&b, "");
    char *printed = pc_sb_take(&b);
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "gen_check_docs: %s: '%s check k.py' failed (status %d): %s\n", id, poolcheck,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1, printed);
        pc_mem_free(printed);
        goto out;
    }
    result = printed;
out:
    if (fds[0] >= 0)
        close(fds[0]);
    if (fds[1] >= 0)
        close(fds[1]);
    unlink(file);
    rmdir(dir);
    return result;
}

/* ---- the page --------------------------------------------------------------------------------- */

static char *page_markdown(const pc_check_page *pg, const char *poolcheck)
{
    char *fpy = example_source(pg, &python_frame, pg->py_source, &pg->failing.py);
    char *fcpp = example_source(pg, &cpp_frame, pg->cpp_source, &pg->failing.cpp);
    char *xpy = example_source(pg, &python_frame, pg->py_source, &pg->fixed.py);
    char *xcpp = example_source(pg, &cpp_frame, pg->cpp_source, &pg->fixed.cpp);
    char *out = NULL, *page = NULL;
    if (!fpy || !fcpp || !xpy || !xcpp)
        goto done;
    if (!pg->finds || !pg->why) {
        fprintf(stderr, "gen_check_docs: %s: the table entry has no .finds or .why\n", pg->id);
        goto done;
    }
    if ((pg->py_source && pg->failing.py.options) || (pg->py_source && pg->fixed.py.options) ||
        (pg->cpp_source && pg->failing.cpp.options) || (pg->cpp_source && pg->fixed.cpp.options)) {
        fprintf(stderr, "gen_check_docs: %s: .options go with the seed example, not a .py_source/.cpp_source\n",
                pg->id);
        goto done;
    }
    if (!(out = run_poolcheck(poolcheck, pg->id, pg->args, fpy)))
        goto done;
    size_t len = strlen(out);
    while (len && out[len - 1] == '\n')
        out[--len] = 0;
    char tag[32];
    snprintf(tag, sizeof tag, "[%s]", pg->id);
    if (!strstr(out, tag)) {
        fprintf(stderr, "gen_check_docs: %s: the failing example does not report %s\n", pg->id, pg->id);
        goto done;
    }
    pc_sb b = {0};
    pc_sb_printf(&b, "# %s: %s\n\n", pg->id, pg->name);
    pc_sb_append(&b, "<!-- Generated from analyzer/checks/checks.def: edit the table, then run "
                     "`cmake --build BUILD --target regenerate-check-docs`. -->\n\n");
    pc_sb_printf(&b, "Severity: **%s**. [All checks](index.md)\n\n", pc_severity_name(pg->severity));
    pc_sb_printf(&b, "## What it finds\n\n%s\n\n", pg->finds);
    pc_sb_printf(&b, "## Why it matters\n\n%s\n\n", pg->why);
    pc_sb_printf(&b, "## Failing example\n\n```python file=k.py\n%s```\n\n```cpp\n%s```\n\n", fpy, fcpp);
    pc_sb_printf(&b,
                 "With the Python example saved as `k.py`, poolcheck prints (the notes of other checks\n"
                 "included; `--no-summary` leaves out the kernel report):\n\n"
                 "```console in=files\n$ poolcheck check --no-summary %s%sk.py\n%s\n```\n\n",
                 pg->args ? pg->args : "", pg->args ? " " : "", out);
    pc_sb_printf(&b, "## Fixed example\n\n```python\n%s```\n\n```cpp\n%s```\n\n", xpy, xcpp);
    if (pg->notes && *pg->notes)
        pc_sb_printf(&b, "## Notes\n\n%s\n\n", pg->notes);
    pc_sb_printf(&b,
                 "## Suppressing it\n\n"
                 "Drop it with `--checks=-%s` (or `--checks=-%s`), and silence one finding on its line "
                 "with `// NOLINT(%s)` in C++ or `# noqa: %s` in Python; `%s` or `poolcheck-%s` works in "
                 "place of the id.\n",
                 pg->id, pg->name, pg->id, pg->id, pg->name, pg->name);
    page = pc_sb_take(&b);
done:
    pc_mem_free(fpy);
    pc_mem_free(fcpp);
    pc_mem_free(xpy);
    pc_mem_free(xcpp);
    pc_mem_free(out);
    return page;
}

/* Writes (or, checking, compares) one file of the docs directory; false when it differs or
 * cannot be written. */
static bool emit(const char *dir, const char *file, const char *text, bool check)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (!check) {
        if (write_text(path, text))
            return true;
        fprintf(stderr, "gen_check_docs: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    char *have = pc_read_file(path, NULL, NULL);
    bool exists = have != NULL, same = have && strcmp(have, text) == 0;
    pc_mem_free(have);
    if (!same)
        fprintf(stderr, "gen_check_docs: docs/checks/%s %s analyzer/checks/checks.def; run "
                        "`cmake --build BUILD --target regenerate-check-docs`\n",
                file, exists ? "differs from what is generated from" : "is missing, though generated from");
    return same;
}

/* Every PC*.md of the directory belongs to a table entry. */
static bool no_stale_pages(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "gen_check_docs: cannot read %s: %s\n", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "PC", 2) != 0)
            continue;
        bool known = false;
        for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
            char want[32];
            snprintf(want, sizeof want, "%s.md", pages[i].id);
            known = known || strcmp(e->d_name, want) == 0;
        }
        if (!known) {
            fprintf(stderr, "gen_check_docs: docs/checks/%s has no entry in analyzer/checks/checks.def "
                            "(remove the page, or add the check)\n", e->d_name);
            ok = false;
        }
    }
    closedir(d);
    return ok;
}

/* The generator's table and the library's are the same rows in the same order. */
static bool table_matches(void)
{
    size_t n;
    const pc_check_info *t = pc_chk_table(&n);
    bool ok = n == sizeof pages / sizeof pages[0];
    for (size_t i = 0; ok && i < n; i++) {
        char id[32]; /* room for any size_t: gcc -Wformat-truncation at -O1 */
        snprintf(id, sizeof id, "PC%03zu", i + 1);
        ok = strcmp(pages[i].id, t[i].id) == 0 && strcmp(pages[i].name, t[i].name) == 0 &&
             strcmp(t[i].id, id) == 0;
        if (!ok)
            fprintf(stderr, "gen_check_docs: entry %zu of checks.def is %s; the ids must be PC001, PC002, ... "
                            "in order\n", i + 1, t[i].id);
    }
    return ok;
}

int main(int argc, char **argv)
{
    bool check = argc == 4 && strcmp(argv[1], "--check") == 0;
    if (argc != 3 + check) {
        fprintf(stderr, "usage: gen_check_docs [--check] POOLCHECK DOCS_DIR\n");
        return 2;
    }
    char poolcheck[PATH_MAX];
    if (!realpath(argv[1 + check], poolcheck)) {
        fprintf(stderr, "gen_check_docs: %s: %s\n", argv[1 + check], strerror(errno));
        return 2;
    }
    const char *dir = argv[2 + check];
    if (!table_matches())
        return 1;
    bool ok = no_stale_pages(dir);
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        char *page = page_markdown(&pages[i], poolcheck);
        char file[32];
        snprintf(file, sizeof file, "%s.md", pages[i].id);
        if (!page || !emit(dir, file, page, check))
            ok = false;
        pc_mem_free(page);
    }
    char *index = pc_chk_docs_index();
    if (!emit(dir, "index.md", index, check))
        ok = false;
    pc_mem_free(index);
    return ok ? 0 : 1;
}
