/* check_fixtures.c - runs every fixture kernel under tests/fixtures/ through the real CLI
 * (`poolcheck check --format=json`) and compares with the expectations written in the fixture's
 * own comments (format: tests/fixtures/README.md).  One Check test per fixture.
 *
 * A case (a RUN: line and the EXPECT- lines after it) may carry `XFAIL: <reason>`: it is known to
 * fail (the reason says on what it waits).  Its first failing expectation is printed as an XFAIL
 * line instead of failing the test, and a marked case that passes fails as XPASS, so a marker is
 * removed as soon as what it waits on lands. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdbool.h>
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers/test_run.h"

/* The list of fixtures is test-harness state, filled once before the runner forks. */
static char **fixtures;
static int nfixtures;

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool is_fixture(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcmp(dot, ".py") || !strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".h"));
}

static void collect(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        /* logs/ holds runtime logs, not kernels */
        if (S_ISDIR(st.st_mode) && strcmp(e->d_name, "logs") != 0)
            collect(path);
        else if (S_ISREG(st.st_mode) && is_fixture(e->d_name)) {
            fixtures = realloc(fixtures, (size_t)(nfixtures + 1) * sizeof(char *));
            fixtures[nfixtures++] = strdup(path);
        }
    }
    closedir(d);
}

/* ---- expectations ------------------------------------------------------------------------------- */

typedef struct ctx {
    const char *fixture;
    int line;                 /* line of the EXPECT being checked */
    cJSON *doc;
    cJSON *kernel;
    pc_test_output out;
    /* `XFAIL: reason` in the case: it is known to fail; the first failure is kept, not raised */
    const char *xfail;
    char *failure;
} ctx;

/* An expectation that does not hold: the case fails, or, in a case marked XFAIL, the failure is
 * recorded and the rest of the case is skipped. */
static void fx_fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fx_fail(ctx *c, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!c->xfail)
        ck_abort_msg("%s", buf);
    if (!c->failure)
        c->failure = strdup(buf);
}
#define FX_FAIL(c, ...) do { fx_fail((c), __VA_ARGS__); return; } while (0)
#define FX_ASSERT(c, cond, ...) do { if (!(cond)) FX_FAIL((c), __VA_ARGS__); } while (0)


static cJSON *kernel_by_name(cJSON *doc, const char *name)
{
    cJSON *ks = cJSON_GetObjectItemCaseSensitive(doc, "kernels");
    cJSON *k;
    cJSON_ArrayForEach(k, ks) {
        if (!name)
            return k;
        cJSON *n = cJSON_GetObjectItemCaseSensitive(k, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return k;
    }
    return NULL;
}

static void expect_triple(ctx *c, const char *key, const char *want)
{
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output (exit %d): %s", c->fixture, c->line, c->out.status, c->out.err);
    cJSON *a = cJSON_GetObjectItemCaseSensitive(c->kernel, key);
    char *got = a ? cJSON_PrintUnformatted(a) : strdup("missing");
    /* compare ignoring white space */
    char w[128], g[128];
    size_t wi = 0, gi = 0;
    for (const char *p = want; *p && wi < sizeof w - 1; p++)
        if (!isspace((unsigned char)*p)) w[wi++] = *p;
    for (const char *p = got; *p && gi < sizeof g - 1; p++)
        if (!isspace((unsigned char)*p)) g[gi++] = *p;
    w[wi] = g[gi] = 0;
    FX_ASSERT(c, strcmp(w, g) == 0, "%s:%d: %s: expected %s, got %s", c->fixture, c->line, key, w, g);
    free(got);
}

static void expect_number(ctx *c, const char *key, const char *want)
{
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output (exit %d): %s", c->fixture, c->line, c->out.status, c->out.err);
    cJSON *v = cJSON_GetObjectItemCaseSensitive(c->kernel, key);
    if (strcmp(want, "null") == 0) {
        FX_ASSERT(c, cJSON_IsNull(v), "%s:%d: %s: expected null", c->fixture, c->line, key);
        return;
    }
    FX_ASSERT(c, cJSON_IsNumber(v) && v->valuedouble == atof(want), "%s:%d: %s: expected %s, got %s",
                  c->fixture, c->line, key, want, v && cJSON_IsNumber(v) ? cJSON_Print(v) : "null/missing");
}

static void expect_pool(ctx *c, const char *rest)
{
    char name[256], pool[64];
    FX_ASSERT(c, sscanf(rest, "%255s %63s", name, pool) == 2, "%s:%d: EXPECT-POOL: NAME POOL", c->fixture, c->line);
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output: %s", c->fixture, c->line, c->out.err);
    cJSON *t;
    bool found = false;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(c->kernel, "tensors")) {
        cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name");
        if (!cJSON_IsString(n) || strcmp(n->valuestring, name) != 0)
            continue;
        found = true;
        const char *got = cJSON_GetObjectItemCaseSensitive(t, "pool")->valuestring;
        FX_ASSERT(c, strcmp(got, pool) == 0, "%s:%d: tensor %s: expected pool %s, got %s", c->fixture, c->line,
                      name, pool, got);
    }
    FX_ASSERT(c, found, "%s:%d: no tensor named %s", c->fixture, c->line, name);
}

static void expect_bytes(ctx *c, const char *rest)
{
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output: %s", c->fixture, c->line, c->out.err);
    cJSON *ws = cJSON_GetObjectItemCaseSensitive(c->kernel, "workspace_bytes");
    char buf[512];
    snprintf(buf, sizeof buf, "%s", rest);
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        FX_ASSERT(c, eq, "%s:%d: EXPECT-BYTES: key=value", c->fixture, c->line);
        *eq = 0;
        cJSON *v = cJSON_GetObjectItemCaseSensitive(ws, tok);
        if (strcmp(eq + 1, "null") == 0)
            FX_ASSERT(c, cJSON_IsNull(v), "%s:%d: workspace_bytes.%s: expected null", c->fixture, c->line, tok);
        else
            FX_ASSERT(c, cJSON_IsNumber(v) && v->valuedouble == atof(eq + 1),
                          "%s:%d: workspace_bytes.%s: expected %s, got %.0f", c->fixture, c->line, tok, eq + 1,
                          cJSON_IsNumber(v) ? v->valuedouble : -1.0);
    }
}

static void expect_unknown(ctx *c, const char *sym)
{
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output: %s", c->fixture, c->line, c->out.err);
    cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(c->kernel, "unknowns"))
        if (cJSON_IsString(u) && strcmp(u->valuestring, sym) == 0)
            return;
    FX_FAIL(c, "%s:%d: symbol %s is not among the unknowns", c->fixture, c->line, sym);
}

static void expect_diag(ctx *c, const char *rest, bool negate)
{
    char id[32] = "";
    int line = 0, col = 0, consumed = 0;
    if (negate) {
        sscanf(rest, "%31s", id);
    } else if (sscanf(rest, "%31s %d:%d%n", id, &line, &col, &consumed) < 3) {
        col = 0;
        FX_ASSERT(c, sscanf(rest, "%31s %d%n", id, &line, &consumed) >= 2, "%s:%d: EXPECT-DIAG: ID LINE[:COL] [text]",
                      c->fixture, c->line);
    }
    const char *frag = rest + consumed;
    while (*frag == ' ')
        frag++;
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics")) {
        cJSON *chk = cJSON_GetObjectItemCaseSensitive(d, "check");
        if (!cJSON_IsString(chk) || strcmp(chk->valuestring, id) != 0)
            continue;
        if (negate)
            FX_FAIL(c, "%s:%d: unexpected %s: %s", c->fixture, c->line, id,
                         cJSON_GetObjectItemCaseSensitive(d, "message")->valuestring);
        int dl = cJSON_GetObjectItemCaseSensitive(d, "line")->valueint;
        int dc = cJSON_GetObjectItemCaseSensitive(d, "column")->valueint;
        const char *msg = cJSON_GetObjectItemCaseSensitive(d, "message")->valuestring;
        if (dl == line && (!col || dc == col) && (!*frag || strstr(msg, frag)))
            return;
    }
    if (!negate) {
        char *all = cJSON_Print(cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics"));
        FX_FAIL(c, "%s:%d: no %s at line %d%s%s; diagnostics: %s", c->fixture, c->line, id, line,
                     *frag ? " containing " : "", frag, all);
    }
}

/* ---- one fixture ------------------------------------------------------------------------------------ */

static const char *directive(const char *line, const char *key)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (p[0] == '/' && p[1] == '/')
        p += 2;
    else if (p[0] == '#')
        p += 1;
    else
        return NULL;
    while (*p == ' ' || *p == '\t' || *p == '*')
        p++;
    size_t n = strlen(key);
    if (strncmp(p, key, n) != 0)
        return NULL;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}


/* ---- tile pieces (issue 18): units, one tensor's bytes, id-less notes ------------------------------- */

/* EXPECT-UNITS: root_inner=1024 exclusive=0   (the kernel's "units" object) */
static void expect_units(ctx *c, const char *rest)
{
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output: %s", c->fixture, c->line, c->out.err);
    cJSON *units = cJSON_GetObjectItemCaseSensitive(c->kernel, "units");
    char buf[512];
    snprintf(buf, sizeof buf, "%s", rest);
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        FX_ASSERT(c, eq, "%s:%d: EXPECT-UNITS: key=value", c->fixture, c->line);
        *eq = 0;
        cJSON *v = cJSON_GetObjectItemCaseSensitive(units, tok);
        if (strcmp(eq + 1, "null") == 0)
            FX_ASSERT(c, cJSON_IsNull(v), "%s:%d: units.%s: expected null", c->fixture, c->line, tok);
        else
            FX_ASSERT(c, cJSON_IsNumber(v) && v->valuedouble == atof(eq + 1), "%s:%d: units.%s: expected %s, got %.0f",
                      c->fixture, c->line, tok, eq + 1, cJSON_IsNumber(v) ? v->valuedouble : -1.0);
    }
}

/* EXPECT-TENSOR-BYTES: NAME ALIGNED [PIECES]   aligned bytes (the pieces' sum) and, when given, the
 * pieces' description ("2 pieces of [1, 32]"; "-" for one piece) */
static void expect_tensor_bytes(ctx *c, const char *rest)
{
    char name[256];
    long long want = 0;
    int consumed = 0;
    FX_ASSERT(c, sscanf(rest, "%255s %lld%n", name, &want, &consumed) == 2,
              "%s:%d: EXPECT-TENSOR-BYTES: NAME BYTES [PIECES]", c->fixture, c->line);
    const char *pieces = rest + consumed;
    while (*pieces == ' ')
        pieces++;
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output: %s", c->fixture, c->line, c->out.err);
    cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(c->kernel, "tensors")) {
        cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name");
        if (!cJSON_IsString(n) || strcmp(n->valuestring, name) != 0)
            continue;
        cJSON *ab = cJSON_GetObjectItemCaseSensitive(t, "aligned_bytes");
        FX_ASSERT(c, cJSON_IsNumber(ab) && ab->valuedouble == (double)want, "%s:%d: tensor %s: expected %lld aligned bytes, got %.0f",
                  c->fixture, c->line, name, want, cJSON_IsNumber(ab) ? ab->valuedouble : -1.0);
        if (!*pieces)
            return;
        cJSON *pt = cJSON_GetObjectItemCaseSensitive(t, "pieces_text");
        const char *got = cJSON_IsString(pt) ? pt->valuestring : "-";
        FX_ASSERT(c, strcmp(got, pieces) == 0, "%s:%d: tensor %s: expected pieces '%s', got '%s'", c->fixture, c->line,
                  name, pieces, got);
        return;
    }
    FX_FAIL(c, "%s:%d: no tensor named %s", c->fixture, c->line, name);
}

/* EXPECT-NOTE: LINE[:COL] TEXT   a note with no check id (frontend or analysis remark) at that line
 * EXPECT-NO-NOTE: TEXT         no note without a check id contains TEXT */
static void expect_note(ctx *c, const char *rest, bool negate)
{
    int line = 0, col = 0, consumed = 0;
    if (!negate && sscanf(rest, "%d:%d%n", &line, &col, &consumed) < 2) {
        col = 0;
        FX_ASSERT(c, sscanf(rest, "%d%n", &line, &consumed) == 1, "%s:%d: EXPECT-NOTE: LINE[:COL] TEXT", c->fixture,
                  c->line);
    }
    const char *frag = rest + consumed;
    while (*frag == ' ')
        frag++;
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics")) {
        cJSON *chk = cJSON_GetObjectItemCaseSensitive(d, "check");
        cJSON *sev = cJSON_GetObjectItemCaseSensitive(d, "severity");
        if (cJSON_IsString(chk) || !cJSON_IsString(sev) || strcmp(sev->valuestring, "note") != 0)
            continue;
        const char *msg = cJSON_GetObjectItemCaseSensitive(d, "message")->valuestring;
        if (negate) {
            FX_ASSERT(c, !strstr(msg, frag), "%s:%d: unexpected note: %s", c->fixture, c->line, msg);
            continue;
        }
        int dl = cJSON_GetObjectItemCaseSensitive(d, "line")->valueint;
        int dc = cJSON_GetObjectItemCaseSensitive(d, "column")->valueint;
        if (dl == line && (!col || dc == col) && strstr(msg, frag))
            return;
    }
    if (!negate) {
        char *all = cJSON_Print(cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics"));
        FX_FAIL(c, "%s:%d: no note at line %d containing %s; diagnostics: %s", c->fixture, c->line, line, frag, all);
    }
}

/* The tile directives; false when the line is none of them. */
static bool expect_tiles(ctx *c, const char *line)
{
    const char *v;
    if ((v = directive(line, "EXPECT-UNITS:")))
        expect_units(c, v);
    else if ((v = directive(line, "EXPECT-TENSOR-BYTES:")))
        expect_tensor_bytes(c, v);
    else if ((v = directive(line, "EXPECT-NO-NOTE:")))
        expect_note(c, v, true);
    else if ((v = directive(line, "EXPECT-NOTE:")))
        expect_note(c, v, false);
    else
        return false;
    return true;
}

static void check_case(const char *fixture, const char *run_args, int run_line, char **lines, int from, int to)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", fixture);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    char *argv[64];
    int argc = 0;
    argv[argc++] = strdup(PC_BINARY_DIR "/bin/poolcheck");
    argv[argc++] = strdup("check");
    argv[argc++] = strdup("--format=json");
    argv[argc++] = strdup("--no-config-lookup");
    char *args = strdup(run_args ? run_args : "");
    argc += pc_test_split_args(args, argv + argc, 56, dir);
    free(args);
    argv[argc++] = strdup(fixture);
    argv[argc] = NULL;

    ctx c = {.fixture = fixture, .line = run_line};
    for (int i = from; i < to; i++) {
        const char *v = directive(lines[i], "XFAIL:");
        if (v) {
            ck_assert_msg(*v, "%s:%d: XFAIL: needs a reason", fixture, i + 1);
            c.xfail = v;
        }
    }
    c.out = pc_test_run(argv, NULL);
    c.doc = cJSON_Parse(c.out.out);
    if (!c.doc)
        fx_fail(&c, "%s:%d: output is not JSON (exit %d)\nstdout: %.400s\nstderr: %.800s", fixture, run_line,
                c.out.status, c.out.out, c.out.err);
    c.kernel = c.doc ? kernel_by_name(c.doc, NULL) : NULL;
    for (int i = from; i < to && !c.failure; i++) {
        const char *v;
        c.line = i + 1;
        if (directive(lines[i], "XFAIL:"))
            continue;
        if ((v = directive(lines[i], "EXPECT-EXIT:"))) {
            if (c.out.status != atoi(v))
                fx_fail(&c, "%s:%d: exit status %d, expected %d\nstderr: %.800s", fixture, c.line, c.out.status,
                        atoi(v), c.out.err);
        } else if ((v = directive(lines[i], "EXPECT-KERNEL:"))) {
            c.kernel = kernel_by_name(c.doc, v);
            if (!c.kernel)
                fx_fail(&c, "%s:%d: no kernel named %s", fixture, c.line, v);
        } else if ((v = directive(lines[i], "EXPECT-PREDICTED:")))
            expect_triple(&c, "predicted", v);
        else if ((v = directive(lines[i], "EXPECT-REQUIRED:")))
            expect_triple(&c, "required", v);
        else if ((v = directive(lines[i], "EXPECT-SUGGESTED:")))
            expect_triple(&c, "suggested", v);
        else if ((v = directive(lines[i], "EXPECT-CONFIGURED:")))
            expect_triple(&c, "configured", v);
        else if ((v = directive(lines[i], "EXPECT-INSTANCES:")))
            expect_number(&c, "instances", v);
        else if ((v = directive(lines[i], "EXPECT-TASKS:")))
            expect_number(&c, "device_tasks", v);
        else if ((v = directive(lines[i], "EXPECT-POOL:")))
            expect_pool(&c, v);
        else if ((v = directive(lines[i], "EXPECT-BYTES:")))
            expect_bytes(&c, v);
        else if ((v = directive(lines[i], "EXPECT-UNKNOWN:")))
            expect_unknown(&c, v);
        else if ((v = directive(lines[i], "EXPECT-NO-DIAG:")))
            expect_diag(&c, v, true);
        else if ((v = directive(lines[i], "EXPECT-DIAG:")))
            expect_diag(&c, v, false);
        else if (expect_tiles(&c, lines[i]))
            continue;
        else if (directive(lines[i], "EXPECT-"))
            ck_abort_msg("%s:%d: unknown directive: %s", fixture, c.line, lines[i]);
    }
    if (c.xfail) {
        /* a known failure stays visible in the log; a case that passes must lose its marker */
        ck_assert_msg(c.failure, "%s:%d: XPASS: the case marked 'XFAIL: %s' passes: remove the marker", fixture,
                      run_line, c.xfail);
        printf("XFAIL %s:%d: %s\n  failure: %.*s\n", fixture, run_line, c.xfail,
               (int)strcspn(c.failure, "\n"), c.failure);
        fflush(stdout);
    }
    free(c.failure);
    cJSON_Delete(c.doc);
    pc_test_output_free(&c.out);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
}

START_TEST(fixture)
{
    const char *path = fixtures[_i];
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "cannot open %s", path);
    char **lines = NULL;
    int n = 0;
    char buf[8192];
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = 0;
        lines = realloc(lines, (size_t)(n + 1) * sizeof(char *));
        lines[n++] = strdup(buf);
    }
    fclose(f);
    int cases = 0, expects = 0;
    for (int i = 0; i < n; i++)
        if (directive(lines[i], "EXPECT-"))
            expects++;
    ck_assert_msg(expects > 0, "%s: a fixture must state at least one EXPECT- line", path);
    int start = -1;
    const char *args = NULL;
    for (int i = 0; i <= n; i++) {
        const char *v = i < n ? directive(lines[i], "RUN:") : NULL;
        if (i == n || v) {
            if (start >= 0 || (i == n && cases == 0)) {
                check_case(path, args, start >= 0 ? start + 1 : 1, lines, start >= 0 ? start + 1 : 0, i);
                cases++;
            }
            start = i;
            args = v;
        }
    }
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}
END_TEST

int main(void)
{
    collect(PC_SOURCE_DIR "/tests/fixtures");
    if (nfixtures)
        qsort(fixtures, (size_t)nfixtures, sizeof(char *), cmp);
    Suite *s = suite_create("fixtures");
    TCase *tc = tcase_create("fixtures");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, fixture, 0, nfixtures);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    int run = srunner_ntests_run(sr);
    srunner_free(sr);
    for (int i = 0; i < nfixtures; i++)
        free(fixtures[i]);
    free(fixtures);
    if (run == 0) {
        fprintf(stderr, "no fixtures found under %s/tests/fixtures\n", PC_SOURCE_DIR);
        return EXIT_FAILURE;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
