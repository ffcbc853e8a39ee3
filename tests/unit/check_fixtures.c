/* check_fixtures.c - runs every fixture kernel under tests/fixtures/ through the real CLI
 * (`poolcheck check --format=json`) and compares with the expectations written in the fixture's
 * own comments (format: tests/fixtures/README.md).  One Check test per fixture, and the runner's
 * own tests (tcase "runner") on fixtures written to a temporary directory.
 *
 * Every diagnostic a case's run reports must be claimed by one expectation of the case
 * (EXPECT-DIAG for a diagnostic with a check id, EXPECT-NOTE / EXPECT-WARNING / EXPECT-ERROR for one
 * without), as clang-tidy's check_clang_tidy.py and clang -verify do; a diagnostic nobody expects
 * fails the case, and so does an expectation nothing matches.  The one opt-out is per case and
 * explicit: `ALLOW-NOTES: PC013 ...` lets that case's notes of the named checks go unlisted.
 * A LINE may be written relative to the expectation's own line (@LINE, @LINE+N, @LINE-N), and an
 * EXPECT- comment may trail the code line it describes; `ALL:` before an EXPECT- key makes it an
 * expectation of every case of the file.
 *
 * A case (a RUN: line and the EXPECT- lines after it) may carry `XFAIL: <reason>`: it is known to
 * fail (the reason says on what it waits).  Its first failing expectation is printed as an XFAIL
 * line instead of failing the test, and a marked case that passes fails as XPASS, so a marker is
 * removed as soon as what it waits on lands.  A malformed directive fails even in an XFAIL case. */
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

/* An expectation of one diagnostic: EXPECT-DIAG (id set, any severity) or an id-less
 * EXPECT-NOTE / EXPECT-WARNING / EXPECT-ERROR (severity set). */
typedef struct fx_expect {
    int at;                   /* the fixture line that states it */
    char file[256];           /* the file the diagnostic is in, when not the fixture ("cfg.json") */
    char id[32];
    const char *severity;
    int line, col;            /* col 0: any column */
    const char *frag;         /* a fragment of the message ("" : any) */
} fx_expect;

enum { FX_MAX_ALLOW = 16 };

typedef struct ctx {
    const char *fixture;
    int line;                 /* line of the EXPECT being checked */
    cJSON *doc;
    cJSON *kernel;
    pc_test_output out;
    /* `XFAIL: reason` in the case: it is known to fail; the first failure is kept, not raised */
    const char *xfail;
    char *failure;
    bool hard;                /* the failure is a malformed fixture: it fails even under XFAIL */
    fx_expect *ex;
    int nex;
    /* `ALLOW-NOTES: ID ...`: notes of these checks may go unlisted in this case */
    char allow[FX_MAX_ALLOW][32];
    int nallow;
} ctx;

/* An expectation that does not hold: the first failure of the case is recorded and the rest of
 * the case is skipped; the case fails with it unless it is marked XFAIL. */
static void fx_fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fx_fail(ctx *c, const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!c->failure)
        c->failure = strdup(buf);
}
#define FX_FAIL(c, ...) do { fx_fail((c), __VA_ARGS__); return; } while (0)
#define FX_ASSERT(c, cond, ...) do { if (!(cond)) FX_FAIL((c), __VA_ARGS__); } while (0)
/* A malformed directive: the fixture itself is wrong, XFAIL or not. */
#define FX_HARD(c, ...) do { if (!(c)->failure) (c)->hard = true; fx_fail((c), __VA_ARGS__); return; } while (0)

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

/* EXPECT-KERNELS: N - the output has N kernels (each found once: a template's kernel is the
 * template's, not one per instantiation). */
static void expect_kernel_count(ctx *c, const char *want)
{
    char *end;
    long n = strtol(want, &end, 10);
    if (end == want || *end || n < 0)
        FX_HARD(c, "%s:%d: EXPECT-KERNELS: wants a count, got '%s'", c->fixture, c->line, want);
    cJSON *ks = c->doc ? cJSON_GetObjectItemCaseSensitive(c->doc, "kernels") : NULL;
    int got = cJSON_GetArraySize(ks);
    if (got == n)
        return;
    char list[2048] = "";
    size_t used = 0;
    cJSON *k;
    cJSON_ArrayForEach(k, ks) {
        cJSON *nm = cJSON_GetObjectItemCaseSensitive(k, "name"), *ln = cJSON_GetObjectItemCaseSensitive(k, "line");
        int w = snprintf(list + used, sizeof list - used, " %s@%d", cJSON_IsString(nm) ? nm->valuestring : "?",
                         cJSON_IsNumber(ln) ? ln->valueint : 0);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    FX_FAIL(c, "%s:%d: %d kernels, expected %ld:%s", c->fixture, c->line, got, n, list);
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

/* ---- one fixture ------------------------------------------------------------------------------------ */

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* The start of a directive's text: after `ALL:` when the directive is marked as one of every case
 * (see every_case); NULL when p does not start with `ALL:`. */
static const char *after_all(const char *p)
{
    return strncmp(p, "ALL:", 4) == 0 ? skip_blanks(p + 4) : NULL;
}

/* The text after `KEY` when `line` is a comment line `// KEY ...` / `# KEY ...`, or, for an EXPECT-
 * key, when a trailing comment of a code line starts with it (`x = f(a)  # EXPECT-DIAG: ...`).
 * An EXPECT- key may be preceded by `ALL:` (a directive of every case). */
static const char *directive(const char *line, const char *key)
{
    size_t n = strlen(key);
    bool expect = strncmp(key, "EXPECT-", 7) == 0;
    const char *p = skip_blanks(line);
    const char *body = NULL;
    if (p[0] == '/' && p[1] == '/')
        body = p + 2;
    else if (p[0] == '#')
        body = p + 1;
    if (body) {
        while (*body == ' ' || *body == '\t' || *body == '*')
            body++;
        const char *all = expect ? after_all(body) : NULL;
        if (all)
            body = all;
        return strncmp(body, key, n) == 0 ? skip_blanks(body + n) : NULL;
    }
    if (!expect)
        return NULL;
    for (const char *q = strstr(line, key); q; q = strstr(q + 1, key)) {
        const char *b = q;
        while (b > line && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b - line >= 4 && strncmp(b - 4, "ALL:", 4) == 0)
            for (b -= 4; b > line && (b[-1] == ' ' || b[-1] == '\t');)
                b--;
        if ((b - line >= 1 && b[-1] == '#') || (b - line >= 2 && b[-1] == '/' && b[-2] == '/'))
            return skip_blanks(q + n);
    }
    return NULL;
}

/* Is the EXPECT- directive on `line` marked `ALL:`, a directive of every case of the fixture?
 * (Written once next to the code it describes, it is checked in each case.) */
static bool every_case(const char *line)
{
    if (!directive(line, "EXPECT-"))
        return false;
    const char *q = strstr(line, "EXPECT-");
    while (q > line && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
    return q - line >= 4 && strncmp(q - 4, "ALL:", 4) == 0;
}

/* [FILE:]LINE[:COL] at s, LINE being a number, or @LINE, @LINE+N, @LINE-N relative to `here` (the
 * line that states the expectation, FileCheck's [[@LINE]]).  FILE (with an absolute LINE) names the
 * file of a diagnostic that is not in the fixture (a --config file) by its last path components;
 * LINE 0 is a diagnostic without a location.  False when s is not one. */
static bool parse_where(const char *s, int here, char *file, size_t fsize, int *line, int *col, int *consumed)
{
    const char *p = s;
    char *end;
    file[0] = 0;
    if (*p && *p != '@' && !isdigit((unsigned char)*p)) {
        const char *colon = p;
        while (*colon && *colon != ' ' && *colon != '\t' && !(colon[0] == ':' && isdigit((unsigned char)colon[1])))
            colon++;
        if (*colon != ':' || (size_t)(colon - p) >= fsize)
            return false;
        snprintf(file, fsize, "%.*s", (int)(colon - p), p);
        p = colon + 1;
    }
    bool relative = strncmp(p, "@LINE", 5) == 0;
    if (relative && file[0])
        return false;
    if (relative) {
        p += 5;
        long off = 0;
        if (*p == '+' || *p == '-') {
            if (!isdigit((unsigned char)p[1]))
                return false;
            off = strtol(p, &end, 10);
            p = end;
        }
        *line = here + (int)off;
    } else if (isdigit((unsigned char)*p)) {
        *line = (int)strtol(p, &end, 10);
        p = end;
    } else
        return false;
    *col = 0;
    if (*p == ':') {
        if (!isdigit((unsigned char)p[1]))
            return false;
        *col = (int)strtol(p + 1, &end, 10);
        p = end;
    }
    if (*p && *p != ' ' && *p != '\t')
        return false;
    *consumed = (int)(p - s);
    return *line >= 1 || (!relative && *line == 0);
}

/* EXPECT-DIAG: ID LINE[:COL] [text]   one diagnostic of check ID at that line
 * EXPECT-NOTE: / EXPECT-WARNING: / EXPECT-ERROR: LINE[:COL] [text]   one without a check id */
static void add_expect(ctx *c, const char *rest, const char *severity)
{
    fx_expect e = {.at = c->line, .severity = severity};
    int consumed = 0;
    if (!severity) {
        int n = 0;
        if (sscanf(rest, "%31s%n", e.id, &n) != 1)
            FX_HARD(c, "%s:%d: EXPECT-DIAG: ID LINE[:COL] [text]", c->fixture, c->line);
        rest = skip_blanks(rest + n);
    }
    if (!parse_where(rest, c->line, e.file, sizeof e.file, &e.line, &e.col, &consumed))
        FX_HARD(c, "%s:%d: expected [FILE:]LINE[:COL] (a number, @LINE, @LINE+N or @LINE-N) at '%s'", c->fixture,
                c->line, rest);
    e.frag = skip_blanks(rest + consumed);
    c->ex = realloc(c->ex, (size_t)(c->nex + 1) * sizeof *c->ex);
    c->ex[c->nex++] = e;
}

static const char *jstr(cJSON *d, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(d, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int jint(cJSON *d, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(d, key);
    return cJSON_IsNumber(v) ? v->valueint : 0;
}

/* Is diagnostic file `df` the file an expectation names (its last path components), or, when it
 * names none, the fixture (or no file: an unlocated diagnostic)? */
static bool same_file(const char *df, const char *want, const char *fixture)
{
    if (!*want)
        return !df || !*df || strcmp(df, fixture) == 0;
    size_t n = strlen(df ? df : ""), w = strlen(want);
    return n >= w && strcmp(df + n - w, want) == 0 && (n == w || df[n - w - 1] == '/');
}

static bool fits(const ctx *c, const fx_expect *e, cJSON *d)
{
    const char *id = jstr(d, "check"), *sev = jstr(d, "severity"), *msg = jstr(d, "message");
    if (e->severity ? id || !sev || strcmp(sev, e->severity) != 0 : !id || strcmp(id, e->id) != 0)
        return false;
    if (!same_file(jstr(d, "file"), e->file, c->fixture))
        return false;
    return jint(d, "line") == e->line && (!e->col || jint(d, "column") == e->col) &&
           (!*e->frag || (msg && strstr(msg, e->frag)));
}

/* EXPECT-NO-DIAG: ID   no diagnostic of that check at all */
static void expect_no_diag(ctx *c, const char *rest)
{
    char id[32] = "";
    if (sscanf(rest, "%31s", id) != 1)
        FX_HARD(c, "%s:%d: EXPECT-NO-DIAG: ID", c->fixture, c->line);
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics")) {
        const char *chk = jstr(d, "check");
        FX_ASSERT(c, !chk || strcmp(chk, id) != 0, "%s:%d: unexpected %s at line %d: %s", c->fixture, c->line, id,
                  jint(d, "line"), jstr(d, "message"));
    }
}

/* EXPECT-NO-NOTE: TEXT   no note without a check id contains TEXT */
static void expect_no_note(ctx *c, const char *frag)
{
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics")) {
        const char *sev = jstr(d, "severity"), *msg = jstr(d, "message");
        if (jstr(d, "check") || !sev || strcmp(sev, "note") != 0 || !msg)
            continue;
        FX_ASSERT(c, !strstr(msg, frag), "%s:%d: unexpected note at line %d: %s", c->fixture, c->line,
                  jint(d, "line"), msg);
    }
}

/* ALLOW-NOTES: ID [ID ...] [-- reason]   this case's notes of these checks need no expectation */
static void allow_notes(ctx *c, const char *rest)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", rest);
    for (char *tok = strtok(buf, " \t,"); tok && strcmp(tok, "--") != 0; tok = strtok(NULL, " \t,")) {
        if (strncmp(tok, "PC", 2) != 0 || c->nallow == FX_MAX_ALLOW)
            FX_HARD(c, "%s:%d: ALLOW-NOTES: check ids (PC0NN), at most %d, then optionally '-- reason'", c->fixture,
                    c->line, FX_MAX_ALLOW);
        snprintf(c->allow[c->nallow++], sizeof c->allow[0], "%s", tok);
    }
    if (!c->nallow)
        FX_HARD(c, "%s:%d: ALLOW-NOTES: names no check id", c->fixture, c->line);
}

static bool allowed(const ctx *c, cJSON *d)
{
    const char *id = jstr(d, "check"), *sev = jstr(d, "severity");
    if (!id || !sev || strcmp(sev, "note") != 0)
        return false;
    for (int i = 0; i < c->nallow; i++)
        if (strcmp(c->allow[i], id) == 0)
            return true;
    return false;
}

/* Kuhn's augmenting path: give expectation e a diagnostic, moving others along if need be. */
static bool augment(int e, const bool *cand, int nd, int *owner, bool *seen)
{
    for (int d = 0; d < nd; d++)
        if (cand[(size_t)e * (size_t)nd + (size_t)d] && !seen[d]) {
            seen[d] = true;
            if (owner[d] < 0 || augment(owner[d], cand, nd, owner, seen)) {
                owner[d] = e;
                return true;
            }
        }
    return false;
}

/* The expectation line that would claim diagnostic d, for the failure message. */
static void suggest(const ctx *c, char *buf, size_t size, cJSON *d)
{
    const char *id = jstr(d, "check"), *sev = jstr(d, "severity"), *msg = jstr(d, "message");
    const char *df = jstr(d, "file");
    const char *base = df && *df && strcmp(df, c->fixture) != 0 ? strrchr(df, '/') : NULL;
    char key[32];
    if (id)
        snprintf(key, sizeof key, "EXPECT-DIAG: %s ", id);
    else {
        snprintf(key, sizeof key, "EXPECT-%s: ", sev ? sev : "?");
        for (char *k = key + 7; *k && *k != ':'; k++)
            *k = (char)toupper((unsigned char)*k);
    }
    snprintf(buf, size, "%s%s%s%d:%d %s", key, base ? base + 1 : df && *df && strcmp(df, c->fixture) != 0 ? df : "",
             df && *df && strcmp(df, c->fixture) != 0 ? ":" : "", jint(d, "line"), jint(d, "column"), msg ? msg : "");
}

/* Pair every diagnostic of the run with one expectation (a maximum matching, so a loose
 * expectation does not steal the diagnostic a precise one needs): an expectation left without one,
 * or a diagnostic left without one that ALLOW-NOTES does not cover, fails the case. */
static void match_diags(ctx *c)
{
    cJSON *diags = cJSON_GetObjectItemCaseSensitive(c->doc, "diagnostics");
    int nd = cJSON_GetArraySize(diags);
    cJSON **d = calloc((size_t)nd + 1, sizeof *d);
    int i = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, diags)
        d[i++] = it;
    bool *cand = calloc((size_t)c->nex * (size_t)nd + 1, sizeof *cand);
    int *owner = malloc(((size_t)nd + 1) * sizeof *owner);
    bool *seen = calloc((size_t)nd + 1, sizeof *seen);
    for (int k = 0; k < nd; k++)
        owner[k] = -1;
    for (int e = 0; e < c->nex; e++)
        for (int k = 0; k < nd; k++)
            cand[(size_t)e * (size_t)nd + (size_t)k] = fits(c, &c->ex[e], d[k]);
    int unmatched = -1;
    for (int e = 0; e < c->nex; e++) {
        memset(seen, 0, ((size_t)nd + 1) * sizeof *seen);
        if (!augment(e, cand, nd, owner, seen) && unmatched < 0)
            unmatched = e;
    }
    char *all = cJSON_Print(diags);
    if (unmatched >= 0) {
        const fx_expect *e = &c->ex[unmatched];
        bool any = false;
        for (int k = 0; k < nd; k++)
            any |= cand[(size_t)unmatched * (size_t)nd + (size_t)k];
        char what[64];
        if (e->severity)
            snprintf(what, sizeof what, "%s without a check id", e->severity);
        else
            snprintf(what, sizeof what, "%s", e->id);
        fx_fail(c, "%s:%d: %s %s at line %d%s%s%s; diagnostics: %s", c->fixture, e->at,
                any ? "every diagnostic that fits is claimed by another expectation: no second" : "no", what,
                e->line, *e->frag ? " containing '" : "", e->frag, *e->frag ? "'" : "", all);
    } else {
        char msg[8192];
        size_t used = 0;
        int n = 0;
        for (int k = 0; k < nd; k++) {
            if (owner[k] >= 0 || allowed(c, d[k]))
                continue;
            char line[1024];
            suggest(c, line, sizeof line, d[k]);
            if (used < sizeof msg)
                used += (size_t)snprintf(msg + used, sizeof msg - used, "\n  %s", line);
            n++;
        }
        if (n)
            fx_fail(c, "%s:%d: %d unexpected diagnostic%s (every diagnostic needs an expectation):%s", c->fixture,
                    c->line, n, n == 1 ? "" : "s", msg);
    }
    free(all);
    free(seen);
    free(owner);
    free(cand);
    free(d);
}

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

/* EXPECT-ROOT: NAME inner=N exclusive=M lowered=L   a root's bytes ("roots" of the kernel:
 * inner_bytes, exclusive_bytes, and lowered_inner_bytes - the part of inner upstream's lowering
 * adds, docs/model.md 4); any key may be left out.  Upstream's compiler gives the numbers of the
 * fixtures under upstream/ (tests/fixtures/upstream/README.md). */
static void expect_root(ctx *c, const char *rest)
{
    char name[256], buf[512];
    int consumed = 0;
    if (sscanf(rest, "%255s%n", name, &consumed) != 1)
        FX_HARD(c, "%s:%d: EXPECT-ROOT: NAME inner=N exclusive=M",
              c->fixture, c->line);
    FX_ASSERT(c, c->kernel, "%s:%d: no kernel in the output: %s", c->fixture, c->line, c->out.err);
    cJSON *root = NULL, *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(c->kernel, "roots")) {
        cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            root = r;
    }
    FX_ASSERT(c, root, "%s:%d: no root named %s", c->fixture, c->line, name);
    snprintf(buf, sizeof buf, "%s", rest + consumed);
    int keys = 0;
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            FX_HARD(c, "%s:%d: EXPECT-ROOT: key=value", c->fixture, c->line);
        *eq = 0;
        const char *field = !strcmp(tok, "inner") ? "inner_bytes" : !strcmp(tok, "exclusive") ? "exclusive_bytes"
                          : !strcmp(tok, "lowered") ? "lowered_inner_bytes" : NULL;
        if (!field)
            FX_HARD(c, "%s:%d: EXPECT-ROOT: unknown key '%s' (inner, exclusive, lowered)", c->fixture, c->line, tok);
        cJSON *v = cJSON_GetObjectItemCaseSensitive(root, field);
        cJSON zero = {.type = cJSON_Number}; /* lowered_inner_bytes is left out when 0 */
        if (!v && !strcmp(tok, "lowered"))
            v = &zero;
        FX_ASSERT(c, cJSON_IsNumber(v) && v->valuedouble == atof(eq + 1), "%s:%d: root %s: expected %s %s, got %.0f",
                  c->fixture, c->line, name, field, eq + 1, cJSON_IsNumber(v) ? v->valuedouble : -1.0);
        keys++;
    }
    if (!keys)
        FX_HARD(c, "%s:%d: EXPECT-ROOT: NAME inner=N exclusive=M", c->fixture, c->line);
}

/* The tile directives; false when the line is none of them. */
static bool expect_tiles(ctx *c, const char *line)
{
    const char *v;
    if ((v = directive(line, "EXPECT-UNITS:")))
        expect_units(c, v);
    else if ((v = directive(line, "EXPECT-TENSOR-BYTES:")))
        expect_tensor_bytes(c, v);
    else if ((v = directive(line, "EXPECT-ROOT:")))
        expect_root(c, v);
    else
        return false;
    return true;
}

/* The diagnostic directives; false when the line is none of them. */
static bool expect_diags(ctx *c, const char *line)
{
    const char *v;
    if ((v = directive(line, "EXPECT-NO-DIAG:")))
        expect_no_diag(c, v);
    else if ((v = directive(line, "EXPECT-DIAG:")))
        add_expect(c, v, NULL);
    else if ((v = directive(line, "EXPECT-NO-NOTE:")))
        expect_no_note(c, v);
    else if ((v = directive(line, "EXPECT-NOTE:")))
        add_expect(c, v, "note");
    else if ((v = directive(line, "EXPECT-WARNING:")))
        add_expect(c, v, "warning");
    else if ((v = directive(line, "EXPECT-ERROR:")))
        add_expect(c, v, "error");
    else
        return false;
    return true;
}

/* One case: run poolcheck with the RUN: arguments and check lines [from, to).  Returns NULL when
 * it passes (or fails as its XFAIL marker says), else the failure (free()). */
static char *check_case(const char *fixture, const char *run_args, int run_line, char **lines, int nlines, int from,
                        int to)
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
    for (int i = from; i < to && !c.hard; i++) {
        const char *v;
        c.line = i + 1;
        if ((v = directive(lines[i], "XFAIL:"))) {
            if (!*v)
                fx_fail(&c, "%s:%d: XFAIL: needs a reason", fixture, c.line), c.hard = true;
            c.xfail = v;
        } else if ((v = directive(lines[i], "ALLOW-NOTES:")))
            allow_notes(&c, v);
    }
    if (!c.hard) {
        c.out = pc_test_run(argv, NULL);
        c.doc = cJSON_Parse(c.out.out);
        if (!c.doc)
            fx_fail(&c, "%s:%d: output is not JSON (exit %d)\nstdout: %.400s\nstderr: %.800s", fixture, run_line,
                    c.out.status, c.out.out, c.out.err);
    }
    c.kernel = c.doc ? kernel_by_name(c.doc, NULL) : NULL;
    /* the directives marked ALL: (wherever they are), then the case's own, in order */
    for (int k = 0; k < nlines + (to - from) && !c.failure; k++) {
        bool all = k < nlines;
        int i = all ? k : from + (k - nlines);
        if (all != every_case(lines[i]))
            continue;
        const char *v;
        c.line = i + 1;
        if (directive(lines[i], "XFAIL:") || directive(lines[i], "ALLOW-NOTES:"))
            continue;
        if ((v = directive(lines[i], "EXPECT-EXIT:"))) {
            if (c.out.status != atoi(v))
                fx_fail(&c, "%s:%d: exit status %d, expected %d\nstderr: %.800s", fixture, c.line, c.out.status,
                        atoi(v), c.out.err);
        } else if ((v = directive(lines[i], "EXPECT-KERNEL:"))) {
            c.kernel = kernel_by_name(c.doc, v);
            if (!c.kernel)
                fx_fail(&c, "%s:%d: no kernel named %s", fixture, c.line, v);
        } else if ((v = directive(lines[i], "EXPECT-KERNELS:"))) {
            expect_kernel_count(&c, v);
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
        else if (expect_diags(&c, lines[i]) || expect_tiles(&c, lines[i]))
            continue;
        else if (directive(lines[i], "EXPECT-")) {
            fx_fail(&c, "%s:%d: unknown directive: %s", fixture, c.line, lines[i]);
            c.hard = true;
        }
    }
    c.line = run_line;
    if (!c.failure)
        match_diags(&c);
    char *result = NULL;
    if (c.xfail && !c.hard) {
        /* a known failure stays visible in the log; a case that passes must lose its marker */
        if (!c.failure) {
            size_t size = strlen(fixture) + strlen(c.xfail) + 128;
            result = malloc(size);
            snprintf(result, size, "%s:%d: XPASS: the case marked 'XFAIL: %s' passes: remove the marker", fixture,
                     run_line, c.xfail);
        } else {
            printf("XFAIL %s:%d: %s\n  failure: %.*s\n", fixture, run_line, c.xfail, (int)strcspn(c.failure, "\n"),
                   c.failure);
            fflush(stdout);
        }
    } else {
        result = c.failure;
        c.failure = NULL;
    }
    free(c.failure);
    free(c.ex);
    cJSON_Delete(c.doc);
    pc_test_output_free(&c.out);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return result;
}

/* Every case of the fixture at `path`; NULL when all pass, else the first failure (free()). */
static char *run_fixture(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        size_t size = strlen(path) + 32;
        char *m = malloc(size);
        snprintf(m, size, "cannot open %s", path);
        return m;
    }
    char **lines = NULL;
    int n = 0;
    char buf[8192];
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = 0;
        lines = realloc(lines, (size_t)(n + 1) * sizeof(char *));
        lines[n++] = strdup(buf);
    }
    fclose(f);
    char *failure = NULL;
    int expects = 0, first_run = -1;
    for (int i = 0; i < n; i++) {
        if (directive(lines[i], "EXPECT-"))
            expects++;
        if (first_run < 0 && directive(lines[i], "RUN:"))
            first_run = i;
    }
    char msg[4608];
    msg[0] = 0;
    if (expects == 0)
        snprintf(msg, sizeof msg, "%s: a fixture must state at least one EXPECT- line", path);
    /* a directive above the first RUN: line belongs to no case: it would never be checked */
    for (int i = 0; i < first_run && !msg[0]; i++)
        if ((directive(lines[i], "EXPECT-") && !every_case(lines[i])) || directive(lines[i], "XFAIL:") ||
            directive(lines[i], "ALLOW-NOTES:"))
            snprintf(msg, sizeof msg, "%s:%d: a directive above the first RUN: line belongs to no case: %.4000s", path,
                     i + 1, lines[i]);
    if (msg[0])
        failure = strdup(msg);
    int start = -1, cases = 0;
    const char *args = NULL;
    for (int i = 0; i <= n && !failure; i++) {
        const char *v = i < n ? directive(lines[i], "RUN:") : NULL;
        if (i == n || v) {
            if (start >= 0 || (i == n && cases == 0)) {
                failure = check_case(path, args, start >= 0 ? start + 1 : 1, lines, n, start >= 0 ? start + 1 : 0, i);
                cases++;
            }
            start = i;
            args = v;
        }
    }
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    return failure;
}

START_TEST(fixture)
{
    char *failure = run_fixture(fixtures[_i]);
    if (failure)
        ck_abort_msg("%s", failure);
}
END_TEST

/* ---- the runner's own tests: fixtures written to a temporary directory ----------------------------- */

/* A kernel with one diagnostic: the note PC013 at the argsort call, column 17, line `head + 12`
 * where `head` is the number of lines of `header` (see checks/pc013_shape_not_inferred.py), one
 * more when `above` (a line put just above the call) is given; `trailer` is appended to the call's
 * line (a trailing comment). */
static char *self_fixture_cfg(const char *header, const char *above, const char *trailer, const char *cfg)
{
    char tmpl[] = "/tmp/pc_fixture_selftest_XXXXXX";
    char *dir = mkdtemp(tmpl);
    ck_assert_msg(dir, "mkdtemp");
    size_t size = strlen(dir) + 16;
    char *path = malloc(size);
    snprintf(path, size, "%s/k.py", dir);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f, "cannot write %s", path);
    fprintf(f,
            "%s"
            "import pypto\n"
            "\n"
            "\n"
            "@pypto.frontend.jit\n"
            "def k_argsort(\n"
            "    a: pypto.Tensor([64, 16], pypto.DT_FP32),\n"
            "    out: pypto.Tensor([64, 16], pypto.DT_FP32),\n"
            "):\n"
            "    pypto.set_vec_tile_shapes(1, 16)\n"
            "    for i in pypto.loop(0, 4, 1, name=\"rows\"):\n"
            "        out[i : i + 1, :] = pypto.add(a[i : i + 1, :], 1.0)\n"
            "%s%s"
            "        order = pypto.argsort(a, dim=1)%s\n",
            header, above ? above : "", above ? "\n" : "", trailer ? trailer : "");
    fclose(f);
    if (cfg) {
        char cpath[4096];
        snprintf(cpath, sizeof cpath, "%s/cfg.json", dir);
        f = fopen(cpath, "w");
        ck_assert_msg(f, "cannot write %s", cpath);
        fputs(cfg, f);
        fclose(f);
    }
    return path;
}

static void self_fixture_free(char *path)
{
    unlink(path);
    char *slash = strrchr(path, '/');
    *slash = 0;
    char cpath[4096];
    snprintf(cpath, sizeof cpath, "%s/cfg.json", path);
    unlink(cpath);
    rmdir(path);
    free(path);
}

/* Run the fixture (with cfg.json beside it when cfg is not NULL); expect it to pass (want == NULL)
 * or to fail with a message containing want. */
static void self_expect_cfg(const char *header, const char *above, const char *trailer, const char *cfg,
                            const char *want)
{
    char *path = self_fixture_cfg(header, above, trailer, cfg);
    char *failure = run_fixture(path);
    if (!want)
        ck_assert_msg(!failure, "the fixture should pass, failed: %s", failure ? failure : "");
    else {
        ck_assert_msg(failure, "the fixture should fail with '%s', passed", want);
        ck_assert_msg(strstr(failure, want), "expected a failure with '%s', got: %s", want, failure);
    }
    free(failure);
    self_fixture_free(path);
}

static void self_expect(const char *header, const char *above, const char *trailer, const char *want)
{
    self_expect_cfg(header, above, trailer, NULL, want);
}

static const char SELF_HEAD[] = "# RUN:\n# EXPECT-EXIT: 0\n";   /* 2 lines: the note is at line 14 */

START_TEST(unexpected_diagnostic_fails)
{
    /* the run reports PC013 at 14:17; a fixture that does not say so must fail, naming it */
    self_expect(SELF_HEAD, NULL, NULL, "1 unexpected diagnostic");
    self_expect(SELF_HEAD, NULL, NULL, "EXPECT-DIAG: PC013 14:17 'pypto.argsort': result shape not inferred");
    /* expecting something else does not cover it */
    self_expect("# RUN:\n# EXPECT-EXIT: 0\n# EXPECT-NO-DIAG: PC006\n", NULL, NULL, "1 unexpected diagnostic");
    /* the same file with the expectation passes (so the failure above is the missing line) */
    self_expect("# RUN:\n# EXPECT-EXIT: 0\n# EXPECT-DIAG: PC013 15:17 result shape not inferred\n", NULL, NULL,
                NULL);
}
END_TEST

START_TEST(expectation_without_diagnostic_fails)
{
    self_expect("# RUN:\n# EXPECT-DIAG: PC013 15:17\n# EXPECT-DIAG: PC006 15\n", NULL, NULL, "no PC006 at line 15");
    /* one diagnostic satisfies one expectation, not two */
    self_expect("# RUN:\n# EXPECT-DIAG: PC013 15\n# EXPECT-DIAG: PC013 15:17\n", NULL, NULL,
                "claimed by another expectation");
    /* an id-less note expectation does not take a diagnostic with an id */
    self_expect("# RUN:\n# EXPECT-DIAG: PC013 15\n# EXPECT-NOTE: 15 result shape\n", NULL, NULL,
                "no note without a check id at line 15");
}
END_TEST

START_TEST(relative_line)
{
    /* an expectation on its own line above the call: @LINE+1 is right, @LINE and @LINE+2 are not */
    self_expect(SELF_HEAD, "        # EXPECT-DIAG: PC013 @LINE+1:17 'pypto.argsort'", NULL, NULL);
    self_expect(SELF_HEAD, "        # EXPECT-DIAG: PC013 @LINE:17 'pypto.argsort'", NULL, "no PC013 at line 14");
    self_expect(SELF_HEAD, "        # EXPECT-DIAG: PC013 @LINE+2 'pypto.argsort'", NULL, "no PC013 at line 16");
    self_expect(SELF_HEAD, "        # EXPECT-DIAG: PC013 @LINE-1 'pypto.argsort'", NULL, "no PC013 at line 13");
    /* a trailing comment on the line itself: @LINE */
    self_expect(SELF_HEAD, NULL, "  # EXPECT-DIAG: PC013 @LINE:17 result shape not inferred", NULL);
    self_expect(SELF_HEAD, NULL, "  # EXPECT-DIAG: PC013 @LINE+1", "no PC013 at line 15");
    /* the absolute form still works next to the relative one */
    self_expect("# RUN:\n# EXPECT-DIAG: PC013 14:17\n", NULL, NULL, NULL);
    /* below the last RUN: a directive belongs to the last case only; ALL: makes it every case's */
    self_expect("# RUN:\n# RUN:\n", NULL, "  # EXPECT-DIAG: PC013 @LINE:17", "1 unexpected diagnostic");
    self_expect("# RUN:\n# RUN:\n", NULL, "  # ALL: EXPECT-DIAG: PC013 @LINE:17", NULL);
    self_expect("# RUN:\n# RUN: --checks=-shape-not-inferred\n", NULL, "  # ALL: EXPECT-DIAG: PC013 @LINE:17",
                "no PC013 at line 14");
    /* a diagnostic in another file (the --config file) is expected with its file's name */
    static const char cfg[] = "{\"runtime\": {\"stitch_function_max_num\": \"x\"}}\n";
    static const char cfg_head[] = "# RUN: --config %S/cfg.json\n# EXPECT-EXIT: 1\n# EXPECT-DIAG: PC013 16:17\n";
    char head[256];
    snprintf(head, sizeof head, "%s# EXPECT-DIAG: PC003 cfg.json:1:41 stitch_function_max_num\n", cfg_head);
    self_expect_cfg(head, NULL, NULL, cfg, NULL);
    snprintf(head, sizeof head, "%s# EXPECT-DIAG: PC003 1:41 stitch_function_max_num\n", cfg_head);
    self_expect_cfg(head, NULL, NULL, cfg, "no PC003 at line 1");
    snprintf(head, sizeof head, "%s# EXPECT-NO-DIAG: PC006\n", cfg_head);
    self_expect_cfg(head, NULL, NULL, cfg, "EXPECT-DIAG: PC003 cfg.json:1:41 Invalid");
    /* a malformed position is a fixture error, not a silent pass */
    self_expect(SELF_HEAD, NULL, "  # EXPECT-DIAG: PC013 @LINE+x", "expected [FILE:]LINE[:COL]");
}
END_TEST

START_TEST(allow_notes_opt_out)
{
    /* the documented per-case opt-out: notes of the named checks, and only those */
    self_expect("# RUN:\n# ALLOW-NOTES: PC013 -- the op is beside the point here\n# EXPECT-EXIT: 0\n", NULL, NULL,
                NULL);
    self_expect("# RUN:\n# ALLOW-NOTES: PC014\n# EXPECT-EXIT: 0\n", NULL, NULL, "1 unexpected diagnostic");
    self_expect("# RUN:\n# ALLOW-NOTES:\n# EXPECT-EXIT: 0\n", NULL, NULL, "names no check id");
    /* it belongs to its case: the second case must list the note */
    self_expect("# RUN:\n# ALLOW-NOTES: PC013\n# EXPECT-EXIT: 0\n# RUN:\n# EXPECT-EXIT: 0\n", NULL, NULL,
                "1 unexpected diagnostic");
}
END_TEST

START_TEST(xfail_and_orphans)
{
    /* an unexpected diagnostic in an XFAIL case is its known failure; once listed, XPASS */
    self_expect("# RUN:\n# XFAIL: waits on nothing\n# EXPECT-EXIT: 0\n", NULL, NULL, NULL);
    self_expect("# RUN:\n# XFAIL: waits on nothing\n# EXPECT-DIAG: PC013 15:17\n", NULL, NULL, "XPASS");
    /* an expectation above the first RUN: would be checked by no case */
    self_expect("# EXPECT-DIAG: PC006 1\n# RUN:\n# EXPECT-DIAG: PC013 13:17\n", NULL, NULL, "belongs to no case");
    /* an unknown directive fails even under XFAIL */
    self_expect("# RUN:\n# XFAIL: waits on nothing\n# EXPECT-DIAGS: PC013 13\n", NULL, NULL, "unknown directive");
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
    TCase *runner = tcase_create("runner");
    tcase_set_timeout(runner, 120);
    tcase_add_test(runner, unexpected_diagnostic_fails);
    tcase_add_test(runner, expectation_without_diagnostic_fails);
    tcase_add_test(runner, relative_line);
    tcase_add_test(runner, allow_notes_opt_out);
    tcase_add_test(runner, xfail_and_orphans);
    suite_add_tcase(s, runner);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    for (int i = 0; i < nfixtures; i++)
        free(fixtures[i]);
    free(fixtures);
    if (nfixtures == 0) {
        fprintf(stderr, "no fixtures found under %s/tests/fixtures\n", PC_SOURCE_DIR);
        return EXIT_FAILURE;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
