/* check_twins.c - the same kernel written in C++ and in Python must give the same answer.
 *
 * For every pair tests/fixtures/cpp/X.cpp + tests/fixtures/python/X.py (tests/fixtures/README.md:
 * "twins"), run `poolcheck check --format=json` on both, each with the arguments of its own first
 * `RUN:` line, and compare per kernel (in file order): the predicted and required depths, and the
 * tensor -> pool map by tensor name.
 *
 * The map comparison is by name, as a map: name -> the set of pools its tensors take.  How many
 * tensors carry one name is a property of the language, not of the kernel (Python's `h = h + x`
 * defines a new value each time while C++ `h = Add(h, x)` writes the same tensor; a C++ UNROLL(p)
 * body repeats its declarations), so multiplicity is not compared.  Every name that takes a pool
 * (anything but "none") on one side must take the same pools on the other; a name present on both
 * sides must have the same set of pools.  Names whose tensors take no pool and that only one side
 * has are tolerated: the languages spell views differently (C++ names every View/Reshape result,
 * Python reads a slice inline), and a view never takes workspace.  Anonymous tensors are skipped.
 *
 * Broken input is the one place the languages differ by design (docs/model.md 12): a Python syntax
 * error loses the whole file (exit 2, one located error, no kernel) while libclang recovers a
 * broken C++ file and reports what it could not model as PC012.  For such a pair the test checks
 * that each twin follows its own rule instead of comparing depths.
 *
 * The base names the two frontend owners agreed to write are listed below; a missing half of a
 * pair is a failure, so the test cannot pass vacuously. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers/test_run.h"

/* PC_TWINS_FIXTURES overrides the fixture root (used to test this test on a scratch tree). */
static const char *fixtures_root(void)
{
    const char *env = getenv("PC_TWINS_FIXTURES");
    return env && *env ? env : PC_SOURCE_DIR "/tests/fixtures";
}

static const char *const agreed[] = {
    "row_param_view",     "row_root_inner",   "row_assemble_outcast", "row_exclusive_outcast",
    "row_alias_reshape",  "window_overflow",  "submit_barrier",       "unroll_weighting",
    "assemble_per_outer", "loop_carried",     "if_else",              "dynamic_trip",
    "syntax_error",       "seed_k_tmp_to_d_emb", "header_body_agree",
    /* tests/fixtures/paths/, side by side */
    "paths/cond_lt",      "paths/loop_begin_end", "paths/elif_chain",   "paths/no_op_path",
    "paths/data_dependent", "paths/bind_decides", "paths/unroll_7_4_6", "paths/never_taken_unit",
};
#define NAGREED (sizeof agreed / sizeof *agreed)

/* Pairs found on disk (test-harness state, filled before the runner forks). */
static char **pairs;
static int npairs;

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Does the file mark a case `XFAIL:` (tests/unit/check_fixtures.c)?  Such a pair waits on a
 * frontend; the fixture runner reports it (and fails as XPASS once it passes), so the pair is not
 * compared until its marker goes. */
static const char *xfail_reason(const char *path)
{
    static char reason[512];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char line[8192];
    const char *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == '/' && p[1] == '/')
            p += 2;
        else if (p[0] == '#')
            p++;
        else
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "XFAIL:", 6) == 0) {
            snprintf(reason, sizeof reason, "%s", p + 6);
            reason[strcspn(reason, "\r\n")] = 0;
            found = reason;
        }
    }
    fclose(f);
    return found;
}

/* Twins side by side in tests/fixtures/paths/ (X.cpp + X.py), named "paths/X". */
static void collect_dir_pairs(const char *sub)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", fixtures_root(), sub);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *dot = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.' || !dot || strcmp(dot, ".cpp") != 0)
            continue;
        char py[8192];
        snprintf(py, sizeof py, "%s/%.*s.py", dir, (int)(dot - e->d_name), e->d_name);
        if (!file_exists(py))
            continue;
        char name[4096];
        snprintf(name, sizeof name, "%s/%.*s", sub, (int)(dot - e->d_name), e->d_name);
        pairs = realloc(pairs, (size_t)(npairs + 1) * sizeof *pairs);
        pairs[npairs++] = strdup(name);
    }
    closedir(d);
}

static void collect_pairs(void)
{
    collect_dir_pairs("paths");
    collect_dir_pairs("tiles"); /* tests/fixtures/tiles/, side by side */
    collect_dir_pairs("upstream"); /* tests/fixtures/upstream/: lowering rules in both languages */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/cpp", fixtures_root());
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *dot = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.' || !dot || strcmp(dot, ".cpp") != 0)
            continue;
        char py[4096];
        snprintf(py, sizeof py, "%s/python/%.*s.py", fixtures_root(), (int)(dot - e->d_name), e->d_name);
        if (!file_exists(py))
            continue;
        pairs = realloc(pairs, (size_t)(npairs + 1) * sizeof *pairs);
        pairs[npairs++] = strndup(e->d_name, (size_t)(dot - e->d_name));
    }
    closedir(d);
    if (npairs)
        qsort(pairs, (size_t)npairs, sizeof *pairs, cmp_str);
}

/* ---- running one side ----------------------------------------------------------------------- */

/* The arguments of the file's first `RUN:` line (after `//` or `#`), or "" when it has none. */
static char *first_run_args(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char line[8192];
    char *args = NULL;
    while (!args && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == '/' && p[1] == '/')
            p += 2;
        else if (p[0] == '#')
            p++;
        else
            continue;
        while (*p == ' ' || *p == '\t' || *p == '*')
            p++;
        if (strncmp(p, "RUN:", 4) == 0)
            args = strdup(p + 4);
    }
    fclose(f);
    return args ? args : strdup("");
}


typedef struct side {
    char path[4096];
    pc_test_output out;
    cJSON *doc;
} side;

static void run_side(side *s, const char *path)
{
    snprintf(s->path, sizeof s->path, "%s", path);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    char *argv[64];
    int argc = 0;
    argv[argc++] = strdup(PC_BINARY_DIR "/bin/poolcheck");
    argv[argc++] = strdup("check");
    argv[argc++] = strdup("--format=json");
    argv[argc++] = strdup("--no-config-lookup");
    char *args = first_run_args(path);
    argc += pc_test_split_args(args, argv + argc, 56, dir);
    free(args);
    argv[argc++] = strdup(path);
    argv[argc] = NULL;
    s->out = pc_test_run(argv, NULL);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    s->doc = cJSON_Parse(s->out.out);
    ck_assert_msg(s->doc != NULL, "%s: `poolcheck check --format=json` did not print JSON (exit %d)\nstderr: %.800s",
                  path, s->out.status, s->out.err);
}

static void free_side(side *s)
{
    cJSON_Delete(s->doc);
    pc_test_output_free(&s->out);
}

/* ---- comparing ------------------------------------------------------------------------------- */

static char *triple_text(const cJSON *t)
{
    char *p = t ? cJSON_PrintUnformatted(t) : NULL;
    return p ? p : strdup("(missing)");
}

static void compare_triple(const char *base, int kernel, const char *key, const cJSON *kc, const cJSON *kp)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(kc, key), *b = cJSON_GetObjectItemCaseSensitive(kp, key);
    char *ta = triple_text(a), *tb = triple_text(b);
    bool same = a && b && cJSON_IsArray(a) && cJSON_IsArray(b) && cJSON_Compare(a, b, true);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s, kernel %d: %s differs: C++ %s, Python %s", base, kernel, key, ta, tb);
    free(ta);
    free(tb);
    ck_assert_msg(same, "%s", msg);
}

typedef struct entry { const char *name, *pool; } entry;

static int cmp_entry(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->pool, y->pool);
}

static int entries(const cJSON *kernel, entry **out)
{
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(kernel, "tensors");
    int n = 0;
    *out = calloc((size_t)cJSON_GetArraySize(ts) + 1, sizeof **out);
    const cJSON *t;
    cJSON_ArrayForEach(t, ts) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
        const cJSON *pool = cJSON_GetObjectItemCaseSensitive(t, "pool");
        if (!cJSON_IsString(name) || !cJSON_IsString(pool) || !*name->valuestring)
            continue;
        (*out)[n].name = name->valuestring;
        (*out)[n].pool = pool->valuestring;
        n++;
    }
    qsort(*out, (size_t)n, sizeof **out, cmp_entry);
    return n;
}

static bool has_name(const entry *e, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0)
            return true;
    return false;
}

static bool has_pool(const entry *e, int n, const char *name, const char *pool)
{
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0 && strcmp(e[i].pool, pool) == 0)
            return true;
    return false;
}

/* The pools of `name` on one side, for messages ("exclusive_outcast, none"). */
static void pools_of(const entry *e, int n, const char *name, char *out, size_t size)
{
    out[0] = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0 && (i == 0 || strcmp(e[i - 1].name, name) != 0 ||
                                               strcmp(e[i - 1].pool, e[i].pool) != 0)) {
            size_t len = strlen(out);
            snprintf(out + len, size - len, "%s%s", len ? ", " : "", e[i].pool);
        }
    if (!out[0])
        snprintf(out, size, "(no tensor of that name)");
}

/* Check side `a` against side `b` (called both ways). */
static void compare_pools_one_way(const char *base, int kernel, const char *an, const entry *a, int na,
                                  const char *bn, const entry *b, int nb)
{
    for (int i = 0; i < na; i++) {
        bool pooled = strcmp(a[i].pool, "none") != 0;
        if (!pooled && !has_name(b, nb, a[i].name))
            continue; /* a view only this language names */
        if (strncmp(a[i].name, "tmp@", 4) == 0) {
            /* an unnamed op result is named by where it is (tmp@LINE:COL), which differs between
             * the twins: it must have a counterpart of the same pool among the other side's */
            int mine = 0, theirs = 0;
            for (int j = 0; j < na; j++)
                mine += strncmp(a[j].name, "tmp@", 4) == 0 && strcmp(a[j].pool, a[i].pool) == 0;
            for (int j = 0; j < nb; j++)
                theirs += strncmp(b[j].name, "tmp@", 4) == 0 && strcmp(b[j].pool, a[i].pool) == 0;
            if (!pooled || mine == theirs)
                continue;
            ck_abort_msg("%s, kernel %d: %d unnamed op result(s) take %s in %s but %d in %s", base, kernel, mine,
                         a[i].pool, an, theirs, bn);
        }
        if (has_pool(b, nb, a[i].name, a[i].pool))
            continue;
        char pa[256], pb[256];
        pools_of(a, na, a[i].name, pa, sizeof pa);
        pools_of(b, nb, a[i].name, pb, sizeof pb);
        ck_abort_msg("%s, kernel %d: tensor '%s' takes %s in %s but %s in %s", base, kernel, a[i].name, pa, an, pb,
                     bn);
    }
}

static int count_diags(const cJSON *doc, const char *check)
{
    int n = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "diagnostics")) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(d, "check");
        if (check ? (cJSON_IsString(c) && strcmp(c->valuestring, check) == 0) : cJSON_IsNull(c))
            n++;
    }
    return n;
}

/* A source broken beyond recovery on one side: each twin must follow its language's rule. */
static void compare_broken(const char *base, side *c, side *p)
{
    const cJSON *kc = cJSON_GetObjectItemCaseSensitive(c->doc, "kernels");
    const cJSON *kp = cJSON_GetObjectItemCaseSensitive(p->doc, "kernels");
    ck_assert_msg(p->out.status == 2, "%s: only the C++ twin is fatal (exit %d): libclang recovers broken C++, so a "
                  "C++ twin may not be lost while its Python twin parses\nC++ stderr: %.600s",
                  base, c->out.status, c->out.err);
    ck_assert_msg(cJSON_GetArraySize(kp) == 0 && count_diags(p->doc, NULL) >= 1,
                  "%s: the Python twin exits 2 but does not say where it is broken, or still has kernels", base);
    const cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(p->doc, "diagnostics"), 0);
    ck_assert_msg(cJSON_GetObjectItemCaseSensitive(d, "line")->valueint > 0, "%s: the Python error has no line", base);
    ck_assert_msg(cJSON_GetArraySize(kc) >= 1 && count_diags(c->doc, "PC012") >= 1,
                  "%s: the C++ twin neither recovers a kernel nor reports the broken part as PC012 (exit %d)", base,
                  c->out.status);
}

static void compare_pair(const char *base)
{
    char cpp[4096], py[4096];
    if (strchr(base, '/')) { /* a pair side by side in one directory (paths/X) */
        snprintf(cpp, sizeof cpp, "%s/%s.cpp", fixtures_root(), base);
        snprintf(py, sizeof py, "%s/%s.py", fixtures_root(), base);
    } else {
        snprintf(cpp, sizeof cpp, "%s/cpp/%s.cpp", fixtures_root(), base);
        snprintf(py, sizeof py, "%s/python/%s.py", fixtures_root(), base);
    }
    const char *why = xfail_reason(cpp);
    if (!why)
        why = xfail_reason(py);
    if (why) {
        printf("XFAIL twins %s: not compared while a case is marked XFAIL:%s\n", base, why);
        fflush(stdout);
        return;
    }
    side c, p;
    run_side(&c, cpp);
    run_side(&p, py);
    if ((c.out.status == 2) != (p.out.status == 2)) {
        compare_broken(base, &c, &p);
        free_side(&c);
        free_side(&p);
        return;
    }
    const cJSON *kc = cJSON_GetObjectItemCaseSensitive(c.doc, "kernels");
    const cJSON *kp = cJSON_GetObjectItemCaseSensitive(p.doc, "kernels");
    ck_assert_msg(cJSON_IsArray(kc) && cJSON_IsArray(kp), "%s: output has no \"kernels\" array", base);
    int n = cJSON_GetArraySize(kc);
    ck_assert_msg(n == cJSON_GetArraySize(kp), "%s: %d kernel(s) in C++, %d in Python", base, n,
                  cJSON_GetArraySize(kp));
    for (int i = 0; i < n; i++) {
        const cJSON *a = cJSON_GetArrayItem(kc, i), *b = cJSON_GetArrayItem(kp, i);
        compare_triple(base, i, "predicted", a, b);
        compare_triple(base, i, "required", a, b);
        entry *ea, *eb;
        int na = entries(a, &ea), nb = entries(b, &eb);
        compare_pools_one_way(base, i, "C++", ea, na, "Python", eb, nb);
        compare_pools_one_way(base, i, "Python", eb, nb, "C++", ea, na);
        free(ea);
        free(eb);
    }
    free_side(&c);
    free_side(&p);
}

/* ---- tests ----------------------------------------------------------------------------------- */

START_TEST(agreed_twins_exist)
{
    char missing[4096] = "";
    size_t len = 0;
    for (size_t i = 0; i < NAGREED; i++) {
        char cpp[4096], py[4096];
        if (strchr(agreed[i], '/')) {
            snprintf(cpp, sizeof cpp, "%s/%s.cpp", fixtures_root(), agreed[i]);
            snprintf(py, sizeof py, "%s/%s.py", fixtures_root(), agreed[i]);
        } else {
            snprintf(cpp, sizeof cpp, "%s/cpp/%s.cpp", fixtures_root(), agreed[i]);
            snprintf(py, sizeof py, "%s/python/%s.py", fixtures_root(), agreed[i]);
        }
        bool hc = file_exists(cpp), hp = file_exists(py);
        if (!hc || !hp) {
            int w = snprintf(missing + len, sizeof missing - len, " %s%s", agreed[i],
                             !hc && !hp ? "(.cpp, .py)" : !hc ? "(.cpp)" : "(.py)");
            if (w > 0 && (size_t)w < sizeof missing - len)
                len += (size_t)w;
        }
    }
    ck_assert_msg(len == 0, "twin fixtures missing:%s", missing);
}
END_TEST

START_TEST(twin_pair)
{
    compare_pair(pairs[_i]);
}
END_TEST

int main(void)
{
    collect_pairs();
    Suite *s = suite_create("twins");
    TCase *tc = tcase_create("twins");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, agreed_twins_exist);
    if (npairs)
        tcase_add_loop_test(tc, twin_pair, 0, npairs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    for (int i = 0; i < npairs; i++)
        free(pairs[i]);
    free(pairs);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
