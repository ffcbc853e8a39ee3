/* loader.c - tile_fwk_config.json ("runtime" section) and .poolcheck.json (project file).
 *
 * Both are strict JSON, read by the one JSON reader (poolcheck/json.h: RFC 8259, nothing after
 * the value, a leading byte order mark skipped), with errors located as file:line:col: the
 * reader records where each key and value starts and ends, and options and errors point there.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "poolcheck/bind.h"
#include "poolcheck/config.h"
#include "poolcheck/json.h"
#include "support/support.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct src {
    const char *path;        /* as given (arena copy) */
    const char *text;
    size_t len;
    pc_arena *arena;
} src;

static pc_loc span(const src *s, pc_json_pos start, pc_json_pos end)
{
    pc_loc l = {s->path, start.line, start.col, end.line, end.col};
    return l;
}

static void src_init(src *s, pc_arena *a, const char *path, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->arena = a;
    s->path = pc_arena_strdup(a, path ? path : "");
    s->text = text;
    s->len = len;
}

/* "path:line:col: message" (malloc'd) */
static char *located(const src *s, pc_json_pos at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *located(const src *s, pc_json_pos at, const char *fmt, ...)
{
    pc_sb b = {0};
    pc_sb_printf(&b, "%s:%u:%u: ", s->path, at.line, at.col);
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return pc_sb_take(&b);
}

/* Parse text strictly; NULL + *err ("path:l:c: ...") on a syntax error (a number beyond a double's
 * range, 1e400, is one: the reader's rule) or a top level that is not an object. */
static pc_json_doc *parse_located(src *s, char **err)
{
    pc_json_pos at;
    char *why = NULL;
    pc_json_doc *doc = pc_json_parse(s->text, s->len, PC_JSON_BOM, &at, &why);
    if (!doc) {
        *err = located(s, at, "%s", why);
        pc_mem_free(why);
        return NULL;
    }
    const pc_json *root = pc_json_root(doc);
    if (!pc_json_is(root, PC_JSON_OBJECT)) {
        *err = located(s, root->pos, "expected a JSON object at the top level, found %s", pc_json_kind(root));
        pc_json_free(doc);
        return NULL;
    }
    return doc;
}

/* A parse that failed: its error goes to *err when the caller asked for it (else it is freed), and
 * what the parse had built goes with its arena.  Returns NULL, the parse's result. */
static void *parse_failed(char *e, char **err, pc_arena *a)
{
    if (err)
        *err = e;
    else
        pc_mem_free(e);
    pc_arena_free(a);
    return NULL;
}

/* ---- JSON values -> option values ------------------------------------------------------------ */

static void to_optval(const src *s, const pc_json *j, pc_optval *v)
{
    memset(v, 0, sizeof *v);
    v->loc = span(s, j->pos, j->end);
    if (pc_json_is(j, PC_JSON_ARRAY)) {
        v->kind = PC_OPT_LIST;
        v->nitems = j->count;
        v->items = v->nitems ? pc_arena_alloc(s->arena, (size_t)v->nitems * sizeof *v->items) : NULL;
        int k = 0;
        for (const pc_json *c = j->child; c && k < v->nitems; c = c->next, k++)
            to_optval(s, c, &v->items[k]);
    } else if (pc_json_is(j, PC_JSON_BOOL)) {
        v->kind = PC_OPT_BOOL;
        v->i = j->b;
    } else if (pc_json_is(j, PC_JSON_NUMBER)) {
        /* from the spelling, so that integers beyond 2^53 are read exactly (the rule bindings
         * follow too, pc_cfg_json_int64); 64.0 and 1e3 are integral numbers, so integers.  One
         * beyond int64 stays a number, out of every option's range, and is shown as written. */
        v->text = pc_arena_strndup(s->arena, j->str, j->len);
        int64_t x = 0;
        if (pc_cfg_json_int64(j->str, j->len, &x) == 0) {
            v->kind = PC_OPT_INT;
            v->i = x;
        } else {
            v->kind = PC_OPT_FLOAT;
            v->f = j->num;
        }
    } else if (pc_json_is(j, PC_JSON_STRING)) {
        v->kind = PC_OPT_STRING;
        v->text = pc_arena_strdup(s->arena, j->str);
    } else if (pc_json_is(j, PC_JSON_NULL)) {
        v->kind = PC_OPT_NONE;
    } else {
        /* an object: not a value any runtime option takes; kept as written */
        v->kind = PC_OPT_UNKNOWN;
        v->text = pc_arena_strndup(s->arena, s->text + j->pos.off, j->end.off - j->pos.off);
    }
}

/* Each member of a "runtime" object becomes one option. */
static void runtime_options(const src *s, const pc_json *obj, pc_optsite_kind site, pc_option **out,
                            size_t *nout)
{
    size_t n = (size_t)obj->count;
    pc_option *opts = n ? pc_arena_alloc(s->arena, n * sizeof *opts) : NULL;
    size_t k = 0;
    for (const pc_json *c = obj->child; c && k < n; c = c->next, k++) {
        pc_option *o = &opts[k];
        o->key = pc_arena_strdup(s->arena, c->key);
        to_optval(s, c, &o->value);
        o->site = site;
        o->kernel = -1;
        o->in_kernel = false;
        o->loc = span(s, c->key_pos, c->end);
    }
    *out = opts;
    *nout = k;
}

/* ---- tile_fwk_config.json ------------------------------------------------------------------- */

pc_config_file *pc_cfg_parse_config_file(const char *path, const char *text, size_t len, char **err)
{
    char *e = NULL;
    pc_arena *a = pc_arena_new();
    pc_config_file *f = pc_arena_alloc(a, sizeof *f);
    f->arena = a;
    src s;
    src_init(&s, a, path, text ? text : "", text ? len : 0);
    f->path = s.path;
    pc_json_doc *doc = parse_located(&s, &e);
    if (!doc)
        return parse_failed(e, err, a);
    const pc_json *root = pc_json_root(doc);
    const pc_json *runtime = NULL;
    for (const pc_json *c = root->child; c; c = c->next) {
        if (strcmp(c->key, "runtime") != 0)
            continue;
        if (runtime) {
            e = located(&s, c->key_pos, "duplicate key \"runtime\"");
            break;
        }
        runtime = c;
    }
    if (!e && runtime && !pc_json_is(runtime, PC_JSON_OBJECT))
        e = located(&s, runtime->pos, "the \"runtime\" section must be an object, found %s", pc_json_kind(runtime));
    if (!e && runtime)
        runtime_options(&s, runtime, PC_SITE_CONFIG_FILE, &f->options, &f->noptions);
    pc_json_free(doc);
    return e ? parse_failed(e, err, a) : f;
}

pc_config_file *pc_cfg_load_config_file(const char *path, char **err)
{
    size_t len = 0;
    char *text = pc_read_file_max(path, PC_READ_MAX_CONFIG, &len, err);
    if (!text)
        return NULL;
    pc_config_file *f = pc_cfg_parse_config_file(path, text, len, err);
    pc_mem_free(text);
    return f;
}

void pc_cfg_config_file_free(pc_config_file *f)
{
    if (f)
        pc_arena_free(f->arena);
}

/* ---- .poolcheck.json ---------------------------------------------------------------------------- */

/* `bind`, not its deprecated spelling `bindings`: the list and the "did you mean" offer what to write. */
static const char *const project_fields[] = {"checks", "warnings_as_errors", "bind", "config", "runtime",
                                             "inner_policy", "assemble_headroom", "exclude", "python_path",
                                             "extend", NULL};

enum { MAX_EXTEND_DEPTH = 16 }; /* a chain of "extend" longer than this is an error, not a recursion */

static char *unknown_field(const src *s, pc_json_pos at, const char *name)
{
    pc_sb b = {0};
    size_t n = 0;
    while (project_fields[n])
        n++;
    const char *near = pc_cfg_nearest(name, project_fields, n, -1);
    pc_sb_printf(&b, "unknown field `%s`", name);
    if (near)
        pc_sb_printf(&b, " (did you mean `%s`?)", near);
    pc_sb_printf(&b, ", expected one of ");
    for (int i = 0; project_fields[i]; i++)
        pc_sb_printf(&b, "%s`%s`", i ? ", " : "", project_fields[i]);
    char *msg = pc_sb_take(&b);
    char *e = located(s, at, "%s", msg);
    pc_mem_free(msg);
    return e;
}

/* An integer in [lo, hi] from a JSON number (exact, from its spelling); bool is not a number. */
static char *int_field(const src *s, const pc_json *j, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
    if (!pc_json_is(j, PC_JSON_NUMBER))
        return located(s, j->pos, "`%s` must be an integer, found %s", what, pc_json_kind(j));
    pc_optval v;
    to_optval(s, j, &v);
    if (v.kind != PC_OPT_INT)
        return located(s, j->pos, "`%s` must be an integer, found %s", what, v.text);
    if (v.i < lo || v.i > hi)
        return located(s, j->pos, "`%s` must be in [%lld, %lld], found %lld", what, (long long)lo, (long long)hi,
                       (long long)v.i);
    *out = v.i;
    return NULL;
}

/* One binding set: the one JSON -> bindings conversion (poolcheck/bind.h), located in this file. */
static char *binding_set(const src *s, const pc_json *j, const char *what, pc_bindings *out)
{
    pc_loc at;
    char *why = NULL;
    if (pc_cfg_bindings_from_json(s->arena, j, what, false, out, &at, &why))
        return NULL;
    pc_json_pos p = {at.line, at.col, 0};
    char *e = located(s, p, "%s", why);
    pc_mem_free(why);
    return e;
}

static char *string_field(const src *s, const pc_json *j, const char *what, const char **out)
{
    if (!pc_json_is(j, PC_JSON_STRING))
        return located(s, j->pos, "`%s` must be a string, found %s", what, pc_json_kind(j));
    *out = pc_arena_strdup(s->arena, j->str);
    return NULL;
}

static const char *dir_of(pc_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    if (slash == path)
        return "/";
    return pc_arena_strndup(a, path, (size_t)(slash - path));
}

static char *project_field(src *s, pc_project_config *pc, const pc_json *c)
{
    const char *k = c->key;
    if (!strcmp(k, "checks"))
        return string_field(s, c, k, &pc->checks);
    if (!strcmp(k, "warnings_as_errors"))
        return string_field(s, c, k, &pc->warnings_as_errors);
    if (!strcmp(k, "config")) {
        const char *v = NULL;
        char *e = string_field(s, c, k, &v);
        if (e)
            return e;
        if (!*v)
            return located(s, c->pos, "`config` must name a file");
        pc->config_path = v[0] == '/' ? v : pc_arena_printf(s->arena, "%s/%s", pc->dir, v);
        return NULL;
    }
    if (!strcmp(k, "inner_policy")) {
        const char *v = NULL;
        char *e = string_field(s, c, k, &v);
        if (e)
            return e;
        if (strcmp(v, "boundary") != 0 && strcmp(v, "all") != 0)
            return located(s, c->pos, "`inner_policy` must be \"boundary\" or \"all\", found \"%s\"", v);
        pc->inner_policy = v;
        return NULL;
    }
    if (!strcmp(k, "assemble_headroom")) {
        char *e = int_field(s, c, k, 0, PC_MAX_DEPTH, &pc->assemble_headroom);
        pc->has_assemble_headroom = e == NULL;
        return e;
    }
    if (!strcmp(k, "runtime")) {
        if (!pc_json_is(c, PC_JSON_OBJECT))
            return located(s, c->pos, "`runtime` must be an object of runtime options, found %s", pc_json_kind(c));
        /* poolcheck's own file: an option given twice is an error, as a field or a binding given
         * twice is (which one wins would be the reader's whim, not the user's choice) */
        const pc_json *dup = pc_json_repeated_key(c);
        if (dup)
            return located(s, dup->key_pos, "`runtime`: duplicate runtime option `%s`", dup->key);
        runtime_options(s, c, PC_SITE_PROJECT_FILE, &pc->options, &pc->noptions);
        return NULL;
    }
    if (!strcmp(k, "exclude")) {
        if (!pc_json_is(c, PC_JSON_ARRAY))
            return located(s, c->pos, "`exclude` must be an array of glob strings, found %s", pc_json_kind(c));
        pc->given_exclude = true;
        pc->nexclude = (size_t)c->count;
        pc->exclude = c->count ? pc_arena_alloc(s->arena, (size_t)c->count * sizeof *pc->exclude) : NULL;
        int i = 0;
        for (const pc_json *g = c->child; g; g = g->next, i++) {
            if (!pc_json_is(g, PC_JSON_STRING))
                return located(s, g->pos, "`exclude[%d]` must be a string, found %s", i, pc_json_kind(g));
            pc->exclude[i] = pc_arena_strdup(s->arena, g->str);
        }
        return NULL;
    }
    /* --python-path DIR for every file the project governs; a relative directory is relative to
     * the project file's directory (as `config` is), so the setting means the same from any cwd */
    if (!strcmp(k, "python_path")) {
        if (!pc_json_is(c, PC_JSON_ARRAY))
            return located(s, c->pos, "`python_path` must be an array of directory strings, found %s", pc_json_kind(c));
        pc->given_python_path = true;
        pc->npython_path = (size_t)c->count;
        pc->python_path = c->count ? pc_arena_alloc(s->arena, (size_t)c->count * sizeof *pc->python_path) : NULL;
        int i = 0;
        for (const pc_json *d = c->child; d; d = d->next, i++) {
            if (!pc_json_is(d, PC_JSON_STRING))
                return located(s, d->pos, "`python_path[%d]` must be a string, found %s", i, pc_json_kind(d));
            const char *v = d->str;
            if (!*v)
                return located(s, d->pos, "`python_path[%d]` must name a directory", i);
            pc->python_path[i] = v[0] == '/' ? pc_arena_strdup(s->arena, v) : pc_arena_printf(s->arena, "%s/%s", pc->dir, v);
        }
        return NULL;
    }
    /* `bind` is the name the LSP settings and the docs use (docs/model.md 8.1); `bindings` is its
     * deprecated alias, still read.  Both in one file is an error: which one wins is not obvious. */
    if (!strcmp(k, "bindings") || !strcmp(k, "bind")) {
        for (const pc_json *o = c->next; o; o = o->next)
            if (o->key && strcmp(o->key, k) != 0 && (!strcmp(o->key, "bind") || !strcmp(o->key, "bindings")))
                return located(s, c->key_pos, "`%s` and `%s` both given; they are the same setting (`bindings` is "
                               "the deprecated name of `bind`): keep `bind`", k, o->key);
        if (pc_json_is(c, PC_JSON_OBJECT)) {
            pc->nbinding_sets = 1;
            pc->binding_sets = pc_arena_alloc(s->arena, sizeof *pc->binding_sets);
            return binding_set(s, c, k, &pc->binding_sets[0]);
        }
        if (!pc_json_is(c, PC_JSON_ARRAY))
            return located(s, c->pos, "`%s` must be an object or an array of objects, found %s", k, pc_json_kind(c));
        pc->nbinding_sets = (size_t)c->count;
        pc->binding_sets = c->count ? pc_arena_alloc(s->arena, (size_t)c->count * sizeof *pc->binding_sets) : NULL;
        int i = 0;
        for (const pc_json *set = c->child; set; set = set->next, i++) {
            char *what = pc_arena_printf(s->arena, "%s[%d]", k, i);
            char *e = binding_set(s, set, what, &pc->binding_sets[i]);
            if (e)
                return e;
        }
        return NULL;
    }
    if (!strcmp(k, "extend"))
        return string_field(s, c, k, &pc->extends_path); /* loaded once the file is read */
    return unknown_field(s, c->key_pos, k);
}

/* The files an "extend" chain has read so far, by their resolved paths, to refuse a cycle. */
typedef struct extend_chain { const char *real[MAX_EXTEND_DEPTH + 1]; int n; } extend_chain;

static pc_project_config *parse_project(const char *path, const char *text, size_t len, char **err,
                                        extend_chain *chain);

/* "extend": read the file it names (relative to this file's directory) and take from it every
 * field this file does not give; its runtime options go before this file's (a later option wins). */
static char *extend_from(src *s, pc_project_config *pc, const pc_json *at, extend_chain *chain)
{
    const char *v = pc->extends_path;
    if (!*v)
        return located(s, at->pos, "`extend` must name a file");
    if (chain->n >= MAX_EXTEND_DEPTH)
        return located(s, at->pos, "`extend` chain deeper than %d files", (int)MAX_EXTEND_DEPTH);
    const char *path = v[0] == '/' ? v : pc_arena_printf(s->arena, "%s/%s", pc->dir, v);
    char *real = realpath(path, NULL);
    for (int i = 0; real && i < chain->n; i++)
        if (!strcmp(chain->real[i], real)) {
            free(real); /* realpath's own result */
            return located(s, at->pos, "`extend` makes a cycle: '%s' is already extended by this chain", path);
        }
    if (real) {
        chain->real[chain->n++] = pc_arena_strdup(s->arena, real);
        free(real);
    }
    size_t len = 0;
    char *why = NULL;
    char *text = pc_read_file_max(path, PC_READ_MAX_CONFIG, &len, &why);
    if (!text) {
        char *e = located(s, at->pos, "`extend`: cannot read '%s': %s", path, why ? why : "unreadable");
        pc_mem_free(why);
        return e;
    }
    pc_project_config *base = parse_project(path, text, len, &why, chain);
    pc_mem_free(text);
    if (!base) {
        char *e = located(s, at->pos, "`extend`: %s", why ? why : "invalid");
        pc_mem_free(why);
        return e;
    }
    pc->extends = base;
    if (!pc->checks) pc->checks = base->checks;
    if (!pc->warnings_as_errors) pc->warnings_as_errors = base->warnings_as_errors;
    if (!pc->config_path) pc->config_path = base->config_path;
    if (!pc->inner_policy) pc->inner_policy = base->inner_policy;
    if (!pc->has_assemble_headroom) {
        pc->has_assemble_headroom = base->has_assemble_headroom;
        pc->assemble_headroom = base->assemble_headroom;
    }
    if (!pc->binding_sets) {
        pc->binding_sets = base->binding_sets;
        pc->nbinding_sets = base->nbinding_sets;
        pc->binding_sets_path = base->binding_sets_path ? base->binding_sets_path : base->path;
    }
    if (!pc->given_exclude) {
        pc->exclude = base->exclude;
        pc->nexclude = base->nexclude;
    }
    if (!pc->given_python_path) {
        pc->python_path = base->python_path;
        pc->npython_path = base->npython_path;
    }
    if (base->noptions) {
        pc_option *all = pc_arena_alloc(s->arena, (base->noptions + pc->noptions) * sizeof *all);
        memcpy(all, base->options, base->noptions * sizeof *all);
        if (pc->noptions)
            memcpy(all + base->noptions, pc->options, pc->noptions * sizeof *all);
        pc->options = all;
        pc->noptions += base->noptions;
    }
    return NULL;
}

pc_project_config *pc_cfg_parse_project(const char *path, const char *text, size_t len, char **err)
{
    extend_chain chain = {{0}, 0};
    char *real = path ? realpath(path, NULL) : NULL;
    if (real) {
        chain.real[chain.n++] = real;
    }
    pc_project_config *pc = parse_project(path, text, len, err, &chain);
    free(real); /* realpath's own result */
    return pc;
}

static pc_project_config *parse_project(const char *path, const char *text, size_t len, char **err,
                                        extend_chain *chain)
{
    char *e = NULL;
    pc_arena *a = pc_arena_new();
    pc_project_config *pc = pc_arena_alloc(a, sizeof *pc);
    pc->arena = a;
    src s;
    src_init(&s, a, path, text ? text : "", text ? len : 0);
    pc->path = s.path;
    pc->dir = dir_of(a, s.path);
    pc_json_doc *doc = parse_located(&s, &e);
    if (!doc)
        return parse_failed(e, err, a);
    const pc_json *root = pc_json_root(doc);
    for (const pc_json *c = root->child; c && !e; c = c->next) {
        for (const pc_json *d = root->child; d != c && !e; d = d->next)
            if (strcmp(d->key, c->key) == 0)
                e = located(&s, c->key_pos, "duplicate field `%s`", c->key);
        if (!e)
            e = project_field(&s, pc, c);
    }
    for (const pc_json *c = root->child; c && !e; c = c->next)
        if (!strcmp(c->key, "extend"))
            e = extend_from(&s, pc, c, chain);
    pc_json_free(doc);
    if (e) {
        pc_cfg_project_free(pc->extends);
        return parse_failed(e, err, a);
    }
    return pc;
}

pc_project_config *pc_cfg_load_project(const char *path, char **err)
{
    size_t len = 0;
    char *text = pc_read_file_max(path, PC_READ_MAX_CONFIG, &len, err);
    if (!text)
        return NULL;
    pc_project_config *pc = pc_cfg_parse_project(path, text, len, err);
    pc_mem_free(text);
    return pc;
}

void pc_cfg_project_free(pc_project_config *p)
{
    if (p) {
        pc_cfg_project_free(p->extends);
        pc_arena_free(p->arena);
    }
}

/* ---- finding the project file ---------------------------------------------------------------- */

/* Make `path` absolute (against the working directory) and drop "." and ".." lexically, so the
 * search climbs the directories as the user wrote them (through symlinks, not around them). */
static char *absolute_dir(const char *path)
{
    pc_sb b = {0};
    if (path[0] != '/') {
        size_t cap = PATH_MAX;
        char *cwd = pc_mem_alloc(cap);
        while (!getcwd(cwd, cap)) {
            if (errno != ERANGE || cap > (1u << 20)) {
                pc_mem_free(cwd);
                return NULL;
            }
            cap *= 2;
            cwd = pc_mem_realloc(cwd, cap);
        }
        pc_sb_append(&b, cwd);
        pc_mem_free(cwd);
        pc_sb_putc(&b, '/');
    }
    pc_sb_append(&b, path);
    char *in = pc_sb_take(&b);
    /* normalise components into out */
    size_t n = strlen(in);
    char *out = pc_mem_alloc(n + 2);
    size_t olen = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && in[i] == '/')
            i++;
        size_t j = i;
        while (j < n && in[j] != '/')
            j++;
        size_t clen = j - i;
        if (clen == 0 || (clen == 1 && in[i] == '.')) {
            /* nothing */
        } else if (clen == 2 && in[i] == '.' && in[i + 1] == '.') {
            while (olen > 0 && out[olen - 1] != '/')
                olen--;
            if (olen > 0)
                olen--; /* the slash */
        } else {
            out[olen++] = '/';
            memcpy(out + olen, in + i, clen);
            olen += clen;
        }
        i = j;
    }
    if (olen == 0)
        out[olen++] = '/';
    out[olen] = 0;
    pc_mem_free(in);
    return out;
}

char *pc_cfg_find_project(const char *analysed_path)
{
    if (!analysed_path || !*analysed_path)
        return NULL;
    struct stat st;
    char *dir;
    if (stat(analysed_path, &st) == 0 && S_ISDIR(st.st_mode)) {
        dir = pc_mem_strdup(analysed_path);
    } else {
        const char *slash = strrchr(analysed_path, '/');
        dir = !slash ? pc_mem_strdup(".")
                     : slash == analysed_path ? pc_mem_strdup("/")
                                              : pc_mem_strndup(analysed_path, (size_t)(slash - analysed_path));
    }
    char *abs = absolute_dir(dir);
    pc_mem_free(dir);
    if (!abs)
        return NULL;
    for (;;) {
        pc_sb cand = {0};
        pc_sb_append(&cand, abs);
        if (strcmp(abs, "/") != 0)
            pc_sb_putc(&cand, '/');
        pc_sb_append(&cand, PC_PROJECT_FILE_NAME);
        char *c = pc_sb_take(&cand);
        /* Something by that name that is no readable file (a symbolic-link loop, a dangling
         * link, a FIFO) is returned too: the loader's error says what it is, where skipping it
         * would silently analyse with settings other than the user's.  A directory of that name
         * is no project file. */
        bool found = stat(c, &st) == 0 ? !S_ISDIR(st.st_mode) : lstat(c, &st) == 0;
        if (found) {
            pc_mem_free(abs);
            return c;
        }
        pc_mem_free(c);
        if (strcmp(abs, "/") == 0)
            break;
        char *slash = strrchr(abs, '/');
        if (slash == abs)
            abs[1] = 0;
        else
            *slash = 0;
    }
    pc_mem_free(abs);
    return NULL;
}
