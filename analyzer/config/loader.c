/* loader.c - tile_fwk_config.json ("runtime" section) and .poolcheck.json (project file).
 *
 * Both are strict JSON (the model module's validator: RFC 8259, nothing after the value), with
 * errors located as file:line:col.  cJSON does not keep positions, so after parsing, one pass
 * over the (already valid) text records where each key and value starts and ends, in the same
 * order as cJSON's children; options and errors point at those positions.
 */
#define _POSIX_C_SOURCE 200809L
#include "poolcheck/config.h"
#include "model/model_int.h"
#include "support/support.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- positions ------------------------------------------------------------------------------ */

typedef struct jpos {
    size_t key_start;        /* object members: the opening quote of the key */
    size_t start, end;       /* the value: first byte, one past the last */
    struct jpos *kids;       /* parallel to the cJSON children */
    int nkids;
} jpos;

typedef struct src {
    const char *path;        /* as given (arena copy) */
    const char *text;
    size_t len;
    size_t *line_starts;     /* offsets where each line starts */
    size_t nlines;
    size_t bom;              /* 3 when the text starts with a UTF-8 byte order mark */
    pc_arena *arena;
} src;

static void skip_ws(const char *t, size_t len, size_t *i)
{
    while (*i < len && (t[*i] == ' ' || t[*i] == '\t' || t[*i] == '\n' || t[*i] == '\r'))
        (*i)++;
}

static void skip_string(const char *t, size_t len, size_t *i)
{
    (*i)++;
    while (*i < len && t[*i] != '"') {
        if (t[*i] == '\\')
            (*i)++;
        (*i)++;
    }
    (*i)++;
}

/* Walk one value of valid JSON text at *i alongside its cJSON node. */
static void scan(src *s, size_t *i, const cJSON *node, jpos *p)
{
    const char *t = s->text;
    size_t len = s->len;
    skip_ws(t, len, i);
    p->start = *i;
    if (*i >= len) {
        p->end = *i;
        return;
    }
    char c = t[*i];
    if (c == '{' || c == '[') {
        p->nkids = cJSON_GetArraySize(node);
        p->kids = p->nkids ? pc_arena_alloc(s->arena, (size_t)p->nkids * sizeof *p->kids) : NULL;
        (*i)++;
        int k = 0;
        for (const cJSON *ch = node->child; ch && k < p->nkids; ch = ch->next, k++) {
            skip_ws(t, len, i);
            if (c == '{') {
                p->kids[k].key_start = *i;
                skip_string(t, len, i);
                skip_ws(t, len, i);
                (*i)++; /* ':' */
            }
            scan(s, i, ch, &p->kids[k]);
            skip_ws(t, len, i);
            if (*i < len && t[*i] == ',')
                (*i)++;
        }
        skip_ws(t, len, i);
        (*i)++; /* closing bracket */
    } else if (c == '"') {
        skip_string(t, len, i);
    } else {
        while (*i < len && !strchr(",]} \t\r\n", t[*i]))
            (*i)++;
    }
    p->end = *i;
}

static void line_col(const src *s, size_t off, uint32_t *line, uint32_t *col)
{
    size_t lo = 0, hi = s->nlines; /* the last line start <= off */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (s->line_starts[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    size_t start = s->line_starts[lo];
    if (lo == 0 && off >= s->bom)
        start = s->bom; /* editors do not count the byte order mark */
    *line = (uint32_t)(lo + 1);
    *col = (uint32_t)(off - start + 1);
}

static pc_loc span(const src *s, size_t start, size_t end)
{
    pc_loc l;
    l.file = s->path;
    line_col(s, start, &l.line, &l.col);
    line_col(s, end, &l.end_line, &l.end_col);
    return l;
}

static void src_init(src *s, pc_arena *a, const char *path, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->arena = a;
    s->path = pc_arena_strdup(a, path ? path : "");
    s->text = text;
    s->len = len;
    s->bom = (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) ? 3 : 0;
    /* LF, CRLF and a lone CR each end a line (support.h): the rule of the report's snippets */
    size_t n = 1;
    for (size_t i = pc_line_end(text, len, 0); i < len; i = pc_line_end(text, len, i + pc_eol_len(text, len, i)))
        n++;
    s->line_starts = pc_arena_alloc(a, n * sizeof *s->line_starts);
    s->nlines = 0;
    s->line_starts[s->nlines++] = 0;
    for (size_t i = pc_line_end(text, len, 0); i < len; i = pc_line_end(text, len, i + pc_eol_len(text, len, i)))
        s->line_starts[s->nlines++] = i + pc_eol_len(text, len, i);
}

/* "path:line:col: message" (malloc'd) */
static char *located(const src *s, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *located(const src *s, size_t off, const char *fmt, ...)
{
    uint32_t line, col;
    line_col(s, off, &line, &col);
    pc_sb b = {0};
    pc_sb_printf(&b, "%s:%u:%u: ", s->path, line, col);
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return pc_sb_take(&b);
}

static const char *json_kind(const cJSON *j)
{
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    return "an unknown value";
}

/* Parse text strictly and record positions; NULL + *err ("path:l:c: ...") on a syntax error or a
 * top level that is not an object. */
/* One rule for huge numbers: a number beyond a double's range (1e400) is an error in the file,
 * as one longer than 63 characters is (the validator's limit, cJSON's buffer), rather than an
 * option value of infinity.  nlohmann::json, which upstream's C++ reads configurations with,
 * also refuses 1e400 ("number overflow"). */
static bool out_of_range_number(const cJSON *j, const jpos *p, size_t *at)
{
    if (cJSON_IsNumber(j) && !isfinite(j->valuedouble)) {
        *at = p->start;
        return true;
    }
    int k = 0;
    for (const cJSON *c = j->child; c && k < p->nkids; c = c->next, k++)
        if (out_of_range_number(c, &p->kids[k], at))
            return true;
    return false;
}

static cJSON *parse_located(src *s, jpos *root_pos, char **err)
{
    size_t off = 0;
    char what[160];
    cJSON *root = pc_model_json_parse(s->text, s->len, &off, what, sizeof what);
    if (!root) {
        *err = located(s, off, "%s", what);
        return NULL;
    }
    size_t i = s->bom;
    memset(root_pos, 0, sizeof *root_pos);
    scan(s, &i, root, root_pos);
    size_t at;
    if (out_of_range_number(root, root_pos, &at)) {
        *err = located(s, at, "number out of range (beyond what a double holds)");
        cJSON_Delete(root);
        return NULL;
    }
    if (!cJSON_IsObject(root)) {
        *err = located(s, root_pos->start, "expected a JSON object at the top level, found %s", json_kind(root));
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* ---- JSON values -> option values ------------------------------------------------------------ */

#define JSON_SAFE_INT 9007199254740992.0 /* 2^53 */

static void to_optval(const src *s, const cJSON *j, const jpos *p, pc_optval *v)
{
    memset(v, 0, sizeof *v);
    v->loc = span(s, p->start, p->end);
    if (cJSON_IsArray(j)) {
        v->kind = PC_OPT_LIST;
        v->nitems = p->nkids;
        v->items = v->nitems ? pc_arena_alloc(s->arena, (size_t)v->nitems * sizeof *v->items) : NULL;
        int k = 0;
        for (const cJSON *c = j->child; c && k < v->nitems; c = c->next, k++)
            to_optval(s, c, &p->kids[k], &v->items[k]);
    } else if (cJSON_IsBool(j)) {
        v->kind = PC_OPT_BOOL;
        v->i = cJSON_IsTrue(j);
    } else if (cJSON_IsNumber(j)) {
        /* the spelling, so that integers beyond 2^53 are read exactly */
        char *spell = pc_arena_strndup(s->arena, s->text + p->start, p->end - p->start);
        v->text = spell;
        double d = j->valuedouble;
        bool plain = strspn(spell + (spell[0] == '-'), "0123456789") == strlen(spell + (spell[0] == '-'));
        errno = 0;
        long long x = plain ? strtoll(spell, NULL, 10) : 0;
        if (plain && errno == 0) {
            v->kind = PC_OPT_INT;
            v->i = x;
        } else if (!plain && isfinite(d) && d == floor(d) && fabs(d) <= JSON_SAFE_INT) {
            v->kind = PC_OPT_INT;  /* 64.0, 1e3: integral numbers are integers */
            v->i = (int64_t)d;
        } else {
            v->kind = PC_OPT_FLOAT;
            v->f = d;
        }
    } else if (cJSON_IsString(j)) {
        v->kind = PC_OPT_STRING;
        v->text = pc_arena_strdup(s->arena, j->valuestring);
    } else if (cJSON_IsNull(j)) {
        v->kind = PC_OPT_NONE;
    } else {
        /* an object: not a value any runtime option takes; kept as written */
        v->kind = PC_OPT_UNKNOWN;
        v->text = pc_arena_strndup(s->arena, s->text + p->start, p->end - p->start);
    }
}

/* Each member of a "runtime" object becomes one option. */
static void runtime_options(const src *s, const cJSON *obj, const jpos *p, pc_optsite_kind site,
                            pc_option **out, size_t *nout)
{
    size_t n = (size_t)p->nkids;
    pc_option *opts = n ? pc_arena_alloc(s->arena, n * sizeof *opts) : NULL;
    size_t k = 0;
    for (const cJSON *c = obj->child; c && k < n; c = c->next, k++) {
        pc_option *o = &opts[k];
        o->key = pc_arena_strdup(s->arena, c->string);
        to_optval(s, c, &p->kids[k], &o->value);
        o->site = site;
        o->kernel = -1;
        o->in_kernel = false;
        o->loc = span(s, p->kids[k].key_start, p->kids[k].end);
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
    jpos root_pos;
    cJSON *root = parse_located(&s, &root_pos, &e);
    if (!root)
        goto fail;
    const cJSON *runtime = NULL;
    const jpos *rpos = NULL;
    int k = 0;
    for (const cJSON *c = root->child; c; c = c->next, k++) {
        if (strcmp(c->string, "runtime") != 0)
            continue;
        if (runtime) {
            e = located(&s, root_pos.kids[k].key_start, "duplicate key \"runtime\"");
            break;
        }
        runtime = c;
        rpos = &root_pos.kids[k];
    }
    if (!e && runtime && !cJSON_IsObject(runtime))
        e = located(&s, rpos->start, "the \"runtime\" section must be an object, found %s", json_kind(runtime));
    if (!e && runtime)
        runtime_options(&s, runtime, rpos, PC_SITE_CONFIG_FILE, &f->options, &f->noptions);
    cJSON_Delete(root);
    if (e)
        goto fail;
    return f;
fail:
    if (err)
        *err = e;
    else
        pc_mem_free(e);
    pc_arena_free(a);
    return NULL;
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

static const char *const project_fields[] = {"checks", "warnings_as_errors", "bindings", "config", "runtime",
                                             "inner_policy", "assemble_headroom", "exclude", "python_path", NULL};

static char *unknown_field(const src *s, size_t at, const char *name)
{
    pc_sb b = {0};
    pc_sb_printf(&b, "unknown field `%s`, expected one of ", name);
    for (int i = 0; project_fields[i]; i++)
        pc_sb_printf(&b, "%s`%s`", i ? ", " : "", project_fields[i]);
    char *msg = pc_sb_take(&b);
    char *e = located(s, at, "%s", msg);
    pc_mem_free(msg);
    return e;
}

/* An integer in [lo, hi] from a JSON number (exact, from its spelling); bool is not a number. */
static char *int_field(const src *s, const cJSON *j, const jpos *p, const char *what, int64_t lo, int64_t hi,
                       int64_t *out)
{
    if (!cJSON_IsNumber(j))
        return located(s, p->start, "`%s` must be an integer, found %s", what, json_kind(j));
    pc_optval v;
    to_optval(s, j, p, &v);
    if (v.kind != PC_OPT_INT)
        return located(s, p->start, "`%s` must be an integer, found %s", what, v.text);
    if (v.i < lo || v.i > hi)
        return located(s, p->start, "`%s` must be in [%lld, %lld], found %lld", what, (long long)lo, (long long)hi,
                       (long long)v.i);
    *out = v.i;
    return NULL;
}

static char *binding_set(const src *s, const cJSON *j, const jpos *p, const char *what, pc_bindings *out)
{
    if (!cJSON_IsObject(j))
        return located(s, p->start, "`%s` must be an object of NAME: integer, found %s", what, json_kind(j));
    pc_binding *items = p->nkids ? pc_arena_alloc(s->arena, (size_t)p->nkids * sizeof *items) : NULL;
    int k = 0;
    for (const cJSON *c = j->child; c; c = c->next, k++) {
        if (!*c->string)
            return located(s, p->kids[k].key_start, "`%s`: a binding needs a name", what);
        for (int prev = 0; prev < k; prev++)
            if (strcmp(items[prev].name, c->string) == 0)
                return located(s, p->kids[k].key_start, "`%s`: duplicate binding `%s`", what, c->string);
        char *name = pc_arena_strdup(s->arena, c->string);
        char *sub = pc_arena_printf(s->arena, "%s.%s", what, c->string);
        char *e = int_field(s, c, &p->kids[k], sub, INT64_MIN, INT64_MAX, &items[k].value);
        if (e)
            return e;
        items[k].name = name;
    }
    out->items = items;
    out->count = (size_t)k;
    return NULL;
}

static char *string_field(const src *s, const cJSON *j, const jpos *p, const char *what, const char **out)
{
    if (!cJSON_IsString(j))
        return located(s, p->start, "`%s` must be a string, found %s", what, json_kind(j));
    *out = pc_arena_strdup(s->arena, j->valuestring);
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

static char *project_field(src *s, pc_project_config *pc, const cJSON *c, const jpos *p)
{
    const char *k = c->string;
    if (!strcmp(k, "checks"))
        return string_field(s, c, p, k, &pc->checks);
    if (!strcmp(k, "warnings_as_errors"))
        return string_field(s, c, p, k, &pc->warnings_as_errors);
    if (!strcmp(k, "config")) {
        const char *v = NULL;
        char *e = string_field(s, c, p, k, &v);
        if (e)
            return e;
        if (!*v)
            return located(s, p->start, "`config` must name a file");
        pc->config_path = v[0] == '/' ? v : pc_arena_printf(s->arena, "%s/%s", pc->dir, v);
        return NULL;
    }
    if (!strcmp(k, "inner_policy")) {
        const char *v = NULL;
        char *e = string_field(s, c, p, k, &v);
        if (e)
            return e;
        if (strcmp(v, "boundary") != 0 && strcmp(v, "all") != 0)
            return located(s, p->start, "`inner_policy` must be \"boundary\" or \"all\", found \"%s\"", v);
        pc->inner_policy = v;
        return NULL;
    }
    if (!strcmp(k, "assemble_headroom")) {
        char *e = int_field(s, c, p, k, 0, 1024, &pc->assemble_headroom);
        pc->has_assemble_headroom = e == NULL;
        return e;
    }
    if (!strcmp(k, "runtime")) {
        if (!cJSON_IsObject(c))
            return located(s, p->start, "`runtime` must be an object of runtime options, found %s", json_kind(c));
        runtime_options(s, c, p, PC_SITE_PROJECT_FILE, &pc->options, &pc->noptions);
        return NULL;
    }
    if (!strcmp(k, "exclude")) {
        if (!cJSON_IsArray(c))
            return located(s, p->start, "`exclude` must be an array of glob strings, found %s", json_kind(c));
        pc->nexclude = (size_t)p->nkids;
        pc->exclude = p->nkids ? pc_arena_alloc(s->arena, (size_t)p->nkids * sizeof *pc->exclude) : NULL;
        int i = 0;
        for (const cJSON *g = c->child; g; g = g->next, i++) {
            if (!cJSON_IsString(g))
                return located(s, p->kids[i].start, "`exclude[%d]` must be a string, found %s", i, json_kind(g));
            pc->exclude[i] = pc_arena_strdup(s->arena, g->valuestring);
        }
        return NULL;
    }
    /* --python-path DIR for every file the project governs; a relative directory is relative to
     * the project file's directory (as `config` is), so the setting means the same from any cwd */
    if (!strcmp(k, "python_path")) {
        if (!cJSON_IsArray(c))
            return located(s, p->start, "`python_path` must be an array of directory strings, found %s", json_kind(c));
        pc->npython_path = (size_t)p->nkids;
        pc->python_path = p->nkids ? pc_arena_alloc(s->arena, (size_t)p->nkids * sizeof *pc->python_path) : NULL;
        int i = 0;
        for (const cJSON *d = c->child; d; d = d->next, i++) {
            if (!cJSON_IsString(d))
                return located(s, p->kids[i].start, "`python_path[%d]` must be a string, found %s", i, json_kind(d));
            const char *v = d->valuestring;
            if (!*v)
                return located(s, p->kids[i].start, "`python_path[%d]` must name a directory", i);
            pc->python_path[i] = v[0] == '/' ? pc_arena_strdup(s->arena, v) : pc_arena_printf(s->arena, "%s/%s", pc->dir, v);
        }
        return NULL;
    }
    /* `bind` is the name the LSP settings and the docs use (docs/model.md 8.1); `bindings` is its
     * deprecated alias, still read.  Both in one file is an error: which one wins is not obvious. */
    if (!strcmp(k, "bindings") || !strcmp(k, "bind")) {
        for (const cJSON *o = c->next; o; o = o->next)
            if (o->string && (!strcmp(o->string, "bind") || !strcmp(o->string, "bindings")))
                return located(s, p->key_start, "`%s` and `%s` both given; they are the same setting (`bindings` is "
                               "the deprecated name of `bind`): keep `bind`", k, o->string);
        if (cJSON_IsObject(c)) {
            pc->nbinding_sets = 1;
            pc->binding_sets = pc_arena_alloc(s->arena, sizeof *pc->binding_sets);
            return binding_set(s, c, p, k, &pc->binding_sets[0]);
        }
        if (!cJSON_IsArray(c))
            return located(s, p->start, "`%s` must be an object or an array of objects, found %s", k, json_kind(c));
        pc->nbinding_sets = (size_t)p->nkids;
        pc->binding_sets = p->nkids ? pc_arena_alloc(s->arena, (size_t)p->nkids * sizeof *pc->binding_sets) : NULL;
        int i = 0;
        for (const cJSON *set = c->child; set; set = set->next, i++) {
            char *what = pc_arena_printf(s->arena, "%s[%d]", k, i);
            char *e = binding_set(s, set, &p->kids[i], what, &pc->binding_sets[i]);
            if (e)
                return e;
        }
        return NULL;
    }
    return unknown_field(s, p->key_start, k);
}

pc_project_config *pc_cfg_parse_project(const char *path, const char *text, size_t len, char **err)
{
    char *e = NULL;
    pc_arena *a = pc_arena_new();
    pc_project_config *pc = pc_arena_alloc(a, sizeof *pc);
    pc->arena = a;
    src s;
    src_init(&s, a, path, text ? text : "", text ? len : 0);
    pc->path = s.path;
    pc->dir = dir_of(a, s.path);
    jpos root_pos;
    cJSON *root = parse_located(&s, &root_pos, &e);
    if (!root)
        goto fail;
    int k = 0;
    for (const cJSON *c = root->child; c && !e; c = c->next, k++) {
        for (const cJSON *d = root->child; d != c && !e; d = d->next)
            if (strcmp(d->string, c->string) == 0)
                e = located(&s, root_pos.kids[k].key_start, "duplicate field `%s`", c->string);
        if (!e)
            e = project_field(&s, pc, c, &root_pos.kids[k]);
    }
    cJSON_Delete(root);
    if (e)
        goto fail;
    return pc;
fail:
    if (err)
        *err = e;
    else
        pc_mem_free(e);
    pc_arena_free(a);
    return NULL;
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
    if (p)
        pc_arena_free(p->arena);
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
        if (stat(c, &st) == 0 && S_ISREG(st.st_mode)) {
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
