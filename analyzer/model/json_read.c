/* json_read.c - the model JSON read back (pc_model_from_json; the format: json_write.c).  The
 * reader of each struct below the model is generated from the field table (fields.def): its
 * allowed keys, each value by its kind, the required and the optional keys with their defaults.
 *
 * The text goes through the one strict JSON reader (poolcheck/json.h: RFC 8259, nothing after the
 * value, a located error); then every field is checked: case-sensitive names, unknown and
 * duplicate fields rejected, integers range-checked (numbers beyond 2^53 are written as strings
 * and read exactly), and every index validated against its array, plus the statement tree and the
 * base / parent chains checked for cycles, so a corrupt model file can never make the analysis
 * index out of range or recurse forever.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_int.h"
#include "poolcheck/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jr {
    pc_model *m;
    pc_sb path;       /* JSON path of the item being read: kernels[0].tensors[2].kind */
    char *err;        /* first problem, malloc'd */
    /* counts of the kernel being read, for index validation */
    int ntensors, nstmts, nloops;
    int nkernels;     /* of the model, once its kernels are read (options name them) */
} jr;

/* The first problem, "PATH: message"; false. */
static bool vfail(jr *r, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static bool vfail(jr *r, const char *fmt, va_list ap)
{
    if (!r->err)
        r->err = pc_mjson_vat_path(&r->path, "top level", fmt, ap);
    return false;
}

static bool fail(jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(jr *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    return false;
}

static size_t path_key(jr *r, const char *k)
{
    size_t saved = r->path.len;
    if (r->path.len)
        pc_sb_putc(&r->path, '.');
    pc_sb_append(&r->path, k);
    return saved;
}

static size_t path_index(jr *r, int i)
{
    size_t saved = r->path.len;
    pc_sb_printf(&r->path, "[%d]", i);
    return saved;
}

static void path_pop(jr *r, size_t saved)
{
    r->path.len = saved;
    if (r->path.data)
        r->path.data[saved] = 0;
}

/* fail() about member k of the object being read (its path ends in ".k"). */
static bool fail_at(jr *r, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail_at(jr *r, const char *k, const char *fmt, ...)
{
    size_t saved = path_key(r, k);
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    path_pop(r, saved);
    return false;
}

/* Every member of obj must be one of the allowed names, and appear once. */
static bool check_fields(jr *r, const pc_json *obj, const char *const *allowed)
{
    for (const pc_json *c = obj->child; c; c = c->next) {
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, c->key) == 0)
                ok = true;
        if (!ok)
            return fail(r, "unknown field \"%s\"", c->key);
        for (const pc_json *d = obj->child; d != c; d = d->next)
            if (strcmp(d->key, c->key) == 0)
                return fail(r, "duplicate field \"%s\"", c->key);
    }
    return true;
}

static bool want_object(jr *r, const pc_json *j)
{
    return pc_json_is(j, PC_JSON_OBJECT) || fail(r, "expected an object, got %s", pc_json_kind(j));
}

static bool want_array(jr *r, const pc_json *j)
{
    return pc_json_is(j, PC_JSON_ARRAY) || fail(r, "expected an array, got %s", pc_json_kind(j));
}

static const pc_json *field(jr *r, const pc_json *obj, const char *k, bool required)
{
    const pc_json *j = pc_json_get(obj, k);
    if (!j && required)
        fail(r, "missing \"%s\"", k);
    return j;
}

/* An integer in [lo, hi]: a JSON number with no fraction (read from valuedouble: valueint
 * saturates), or a decimal string for values beyond 2^53. */
static bool int_value(jr *r, const pc_json *j, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t v;
    if (pc_json_is(j, PC_JSON_NUMBER)) {
        double d = j->num;
        if (!isfinite(d) || d != floor(d))
            return fail(r, "expected an integer, got %g", d);
        if (d < -(double)JSON_SAFE_INT || d > (double)JSON_SAFE_INT)
            return fail(r, "integer %g is too large to be exact in JSON (write it as a string)", d);
        v = (int64_t)d;
    } else if (pc_json_is(j, PC_JSON_STRING)) {
        const char *s = j->str, *p = s;
        if (*p == '-')
            p++;
        if (!*p)
            return fail(r, "expected an integer, got \"%s\"", s);
        int64_t acc = 0;
        bool neg = *s == '-';
        for (; *p; p++) {
            if (*p < '0' || *p > '9')
                return fail(r, "expected an integer, got \"%s\"", s);
            if (__builtin_mul_overflow(acc, 10, &acc) ||
                (neg ? __builtin_sub_overflow(acc, *p - '0', &acc) : __builtin_add_overflow(acc, *p - '0', &acc)))
                return fail(r, "integer \"%s\" is out of range", s);
        }
        v = acc;
    } else {
        return fail(r, "expected an integer, got %s", pc_json_kind(j));
    }
    if (v < lo || v > hi)
        return fail(r, "%lld is out of range [%lld, %lld]", (long long)v, (long long)lo, (long long)hi);
    *out = v;
    return true;
}

/* ---- values: rv_* read the value f of member k of the object being read (errors at ".k") ---- */

static bool rv_int(jr *r, const pc_json *f, const char *k, int64_t lo, int64_t hi, int64_t *out)
{
    size_t saved = path_key(r, k);
    bool ok = int_value(r, f, lo, hi, out);
    path_pop(r, saved);
    return ok;
}

/* An index: -1 (none, when allowed) or a valid index into an array of `count` items. */
static bool rv_index(jr *r, const pc_json *f, const char *k, bool allow_none, int count, const char *what,
                     int *out)
{
    size_t saved = path_key(r, k);
    int64_t v;
    bool ok = int_value(r, f, INT32_MIN, INT32_MAX, &v);
    if (ok && !(allow_none && v == -1) && (v < 0 || v >= count))
        ok = fail(r, "%s index %lld out of range (%d %s%s)", what, (long long)v, count, what,
                  count == 1 ? "" : "s");
    path_pop(r, saved);
    if (ok)
        *out = (int)v;
    return ok;
}

static bool rv_bool(jr *r, const pc_json *f, const char *k, bool *out)
{
    if (!pc_json_is(f, PC_JSON_BOOL))
        return fail_at(r, k, "expected a boolean, got %s", pc_json_kind(f));
    *out = f->b;
    return true;
}

/* A string (copied into the model arena) or null (NULL). */
static bool rv_str(jr *r, const pc_json *f, const char *k, const char **out)
{
    if (pc_json_is(f, PC_JSON_NULL)) {
        *out = NULL;
        return true;
    }
    if (!pc_json_is(f, PC_JSON_STRING))
        return fail_at(r, k, "expected a string or null, got %s", pc_json_kind(f));
    *out = pc_model_strdup(r->m, f->str);
    return true;
}

/* An enum by its name, as name() spells it. */
static bool rv_enum(jr *r, const pc_json *f, const char *k, const char *(*name)(int), int lo, int hi, int *out)
{
    size_t saved = path_key(r, k);
    bool ok = false;
    if (!pc_json_is(f, PC_JSON_STRING)) {
        fail(r, "expected a string, got %s", pc_json_kind(f));
    } else {
        for (int v = lo; v <= hi; v++)
            if (strcmp(name(v), f->str) == 0) {
                *out = v;
                ok = true;
                break;
            }
        if (!ok)
            fail(r, "unknown value \"%s\"", f->str);
    }
    path_pop(r, saved);
    return ok;
}

static bool read_str(jr *r, const pc_json *obj, const char *k, const char **out);

static bool read_u32(jr *r, const pc_json *obj, const char *k, uint32_t *out)
{
    const pc_json *f = field(r, obj, k, true);
    int64_t v;
    if (!f || !rv_int(r, f, k, 0, UINT32_MAX, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool rv_loc(jr *r, const pc_json *j, const char *k, pc_loc *out)
{
    static const char *const fields[] = {"file", "line", "col", "end_line", "end_col", NULL};
    size_t saved = path_key(r, k);
    bool ok = want_object(r, j) && check_fields(r, j, fields);
    if (ok) {
        const pc_json *f = field(r, j, "file", false);
        if (!f) {
            out->file = r->m->file;
        } else {
            ok = read_str(r, j, "file", &out->file);
            /* share the model's own file string, as pc_model_loc does */
            if (ok && pc_mjson_same_str(out->file, r->m->file))
                out->file = r->m->file;
        }
        ok = ok && read_u32(r, j, "line", &out->line) && read_u32(r, j, "col", &out->col) &&
             read_u32(r, j, "end_line", &out->end_line) && read_u32(r, j, "end_col", &out->end_col);
    }
    path_pop(r, saved);
    return ok;
}

/* The same for the required member k of obj ("missing" when it is absent). */
static bool read_int(jr *r, const pc_json *obj, const char *k, int64_t lo, int64_t hi, int64_t *out)
{
    const pc_json *f = field(r, obj, k, true);
    return f && rv_int(r, f, k, lo, hi, out);
}

static bool read_i32(jr *r, const pc_json *obj, const char *k, int lo, int hi, int *out)
{
    int64_t v;
    if (!read_int(r, obj, k, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

static bool read_bool(jr *r, const pc_json *obj, const char *k, bool *out)
{
    const pc_json *f = field(r, obj, k, true);
    return f && rv_bool(r, f, k, out);
}

static bool read_str(jr *r, const pc_json *obj, const char *k, const char **out)
{
    const pc_json *f = field(r, obj, k, true);
    return f && rv_str(r, f, k, out);
}

static bool read_enum(jr *r, const pc_json *obj, const char *k, const char *(*name)(int), int lo, int hi,
                      int *out)
{
    const pc_json *f = field(r, obj, k, true);
    return f && rv_enum(r, f, k, name, lo, hi, out);
}

static bool read_loc(jr *r, const pc_json *obj, const char *k, pc_loc *out)
{
    const pc_json *f = field(r, obj, k, true);
    return f && rv_loc(r, f, k, out);
}

/* Arrays keep the capacity the builders assume (pc_model_cap_for), so that a frontend or test may
 * keep adding to a model read from JSON. */
static void *grown_array(pc_model *m, int count, size_t elem)
{
    return count > 0 ? pc_arena_alloc(m->arena, pc_model_cap_for((size_t)count) * elem) : NULL;
}

static bool expr_value(jr *r, const pc_json *j, const pc_expr **out);

static bool expr_struct(jr *r, const pc_json *j, const pc_expr **out)
{
    static const char *const fields[] = {"int", "sym", "op", "a", "b", "var", NULL};
    if (!check_fields(r, j, fields))
        return false;
    const pc_json *ji = field(r, j, "int", false), *js = field(r, j, "sym", false);
    if (ji) {
        int64_t v;
        size_t saved = path_key(r, "int");
        bool ok = int_value(r, ji, INT64_MIN, INT64_MAX, &v);
        path_pop(r, saved);
        if (ok)
            *out = pc_expr_int(r->m->arena, v);
        return ok;
    }
    if (js) {
        if (!pc_json_is(js, PC_JSON_STRING))
            return fail(r, "\"sym\": expected a string, got %s", pc_json_kind(js));
        *out = pc_expr_sym(r->m->arena, js->str);
        return true;
    }
    int k;
    if (!read_enum(r, j, "op", pc_mjson_expr_op_name, PC_EXPR_ADD, PC_EXPR_IS_LOOP_END, &k))
        return false;
    if (k == PC_EXPR_IS_LOOP_BEGIN || k == PC_EXPR_IS_LOOP_END) {
        /* a loop predicate names the index variable of its loop and has no operands */
        const char *var = NULL;
        if (!read_str(r, j, "var", &var))
            return false;
        if (!var || !*var)
            return fail(r, "\"var\": a loop predicate needs the loop's index variable");
        if (field(r, j, "a", false) || field(r, j, "b", false))
            return fail(r, "a loop predicate has no operands");
        *out = pc_expr_loop_pred(r->m->arena, (pc_expr_kind)k, var);
        return true;
    }
    if (field(r, j, "var", false))
        return fail(r, "\"var\" belongs to is_loop_begin / is_loop_end only");
    bool unary = k == PC_EXPR_NEG || k == PC_EXPR_NOT;
    pc_expr *e = pc_arena_alloc(r->m->arena, sizeof *e);
    e->kind = (pc_expr_kind)k;
    const pc_json *ja = field(r, j, "a", true);
    if (!ja)
        return false;
    size_t saved = path_key(r, "a");
    bool ok = expr_value(r, ja, &e->a);
    path_pop(r, saved);
    if (!ok)
        return false;
    if (!e->a)
        return fail(r, "\"a\": operand missing");
    const pc_json *jb = field(r, j, "b", !unary);
    if (jb) {
        saved = path_key(r, "b");
        ok = expr_value(r, jb, &e->b);
        path_pop(r, saved);
        if (!ok)
            return false;
        if (!e->b && !unary)
            return fail(r, "\"b\": operand missing");
    } else if (!unary) {
        return false;
    }
    *out = e;
    return true;
}

static bool expr_value(jr *r, const pc_json *j, const pc_expr **out)
{
    if (pc_json_is(j, PC_JSON_NULL)) {
        *out = NULL;
        return true;
    }
    if (pc_json_is(j, PC_JSON_NUMBER)) {
        int64_t v;
        if (!int_value(r, j, INT64_MIN, INT64_MAX, &v))
            return false;
        *out = pc_expr_int(r->m->arena, v);
        return true;
    }
    if (pc_json_is(j, PC_JSON_STRING)) {
        const char *s = j->str;
        /* plain integers (those beyond 2^53 are written as strings) are read exactly */
        const char *p = s + (*s == '-');
        if (*p && strspn(p, "0123456789") == strlen(p)) {
            int64_t v;
            if (!int_value(r, j, INT64_MIN, INT64_MAX, &v))
                return false;
            *out = pc_expr_int(r->m->arena, v);
            return true;
        }
        char *perr = NULL;
        const pc_expr *e = pc_expr_parse(r->m->arena, s, &perr);
        if (!e) {
            fail(r, "invalid expression \"%s\": %s", s, perr);
            pc_mem_free(perr);
            return false;
        }
        *out = e;
        return true;
    }
    if (pc_json_is(j, PC_JSON_OBJECT))
        return expr_struct(r, j, out);
    return fail(r, "expected an expression (integer, string or object), got %s", pc_json_kind(j));
}

static bool rv_expr(jr *r, const pc_json *f, const char *k, const pc_expr **out)
{
    size_t saved = path_key(r, k);
    bool ok = expr_value(r, f, out);
    path_pop(r, saved);
    return ok;
}

/* A block: an array of statement ids, each a valid index. */
static bool rv_block(jr *r, const pc_json *j, const char *k, pc_block *out)
{
    size_t saved = path_key(r, k);
    bool ok = want_array(r, j);
    if (ok) {
        int n = j->count;
        out->count = n;
        out->stmts = grown_array(r->m, n, sizeof(int));
        int i = 0;
        for (const pc_json *c = j->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            int64_t v;
            ok = int_value(r, c, INT32_MIN, INT32_MAX, &v);
            if (ok && (v < 0 || v >= r->nstmts))
                ok = fail(r, "statement index %lld out of range (%d statements)", (long long)v, r->nstmts);
            if (ok)
                out->stmts[i] = (int)v;
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok;
}

static bool double_value(jr *r, const pc_json *j, double *out)
{
    if (pc_json_is(j, PC_JSON_NUMBER)) {
        *out = j->num;
        return true;
    }
    if (pc_json_is(j, PC_JSON_STRING)) {
        if (!strcmp(j->str, "inf")) { *out = INFINITY; return true; }
        if (!strcmp(j->str, "-inf")) { *out = -INFINITY; return true; }
        if (!strcmp(j->str, "nan")) { *out = NAN; return true; }
    }
    return fail(r, "expected a number, got %s", pc_json_kind(j));
}

static bool optval_read(jr *r, const pc_json *j, pc_optval *v);

static bool optval_items(jr *r, const pc_json *j, pc_optval *v)
{
    if (!want_array(r, j))
        return false;
    v->nitems = j->count;
    v->items = v->nitems ? pc_arena_alloc(r->m->arena, (size_t)v->nitems * sizeof *v->items) : NULL;
    int i = 0;
    for (const pc_json *c = j->child; c; c = c->next, i++) {
        size_t saved = path_index(r, i);
        bool ok = optval_read(r, c, &v->items[i]);
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    return true;
}

static bool optval_read(jr *r, const pc_json *j, pc_optval *v)
{
    static const char *const fields[] = {"kind", "value", "i", "f", "text", "items", "loc", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    int kind;
    if (!read_enum(r, j, "kind", pc_mjson_optval_kind_name, PC_OPT_INT, PC_OPT_UNKNOWN, &kind))
        return false;
    v->kind = (pc_optval_kind)kind;
    const pc_json *jv = field(r, j, "value", false);
    bool value_used = kind == PC_OPT_INT || kind == PC_OPT_BOOL || kind == PC_OPT_FLOAT || kind == PC_OPT_STRING;
    if (jv && !value_used)
        return fail(r, "\"value\" is not used by kind \"%s\"", pc_mjson_optval_kind_name(v->kind));
    if (!jv && value_used)
        return fail(r, "missing \"value\"");
    size_t saved;
    bool ok = true;
    if (jv) {
        saved = path_key(r, "value");
        switch (v->kind) {
        case PC_OPT_INT: ok = int_value(r, jv, INT64_MIN, INT64_MAX, &v->i); break;
        case PC_OPT_BOOL:
            if (pc_json_is(jv, PC_JSON_BOOL))
                v->i = jv->b;
            else
                ok = int_value(r, jv, INT64_MIN, INT64_MAX, &v->i);
            break;
        case PC_OPT_FLOAT: ok = double_value(r, jv, &v->f); break;
        default: /* STRING */
            if (pc_json_is(jv, PC_JSON_NULL))
                v->text = NULL;
            else if (pc_json_is(jv, PC_JSON_STRING))
                v->text = pc_model_strdup(r->m, jv->str);
            else
                ok = fail(r, "expected a string, got %s", pc_json_kind(jv));
            break;
        }
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    const pc_json *ji = field(r, j, "i", false);
    if (ji) {
        if (kind == PC_OPT_INT || kind == PC_OPT_BOOL)
            return fail(r, "\"i\" duplicates \"value\"");
        saved = path_key(r, "i");
        ok = int_value(r, ji, INT64_MIN, INT64_MAX, &v->i);
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    const pc_json *jf = field(r, j, "f", false);
    if (jf) {
        if (kind == PC_OPT_FLOAT)
            return fail(r, "\"f\" duplicates \"value\"");
        saved = path_key(r, "f");
        ok = double_value(r, jf, &v->f);
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    const pc_json *jt = field(r, j, "text", kind == PC_OPT_UNKNOWN);
    if (jt) {
        if (kind == PC_OPT_STRING)
            return fail(r, "\"text\" duplicates \"value\"");
        if (!read_str(r, j, "text", &v->text))
            return false;
    } else if (kind == PC_OPT_UNKNOWN) {
        return false;
    }
    const pc_json *jl = field(r, j, "items", kind == PC_OPT_LIST || kind == PC_OPT_TUPLE);
    if (jl) {
        saved = path_key(r, "items");
        ok = optval_items(r, jl, v);
        path_pop(r, saved);
        if (!ok)
            return false;
    } else if (kind == PC_OPT_LIST || kind == PC_OPT_TUPLE) {
        return false;
    }
    return read_loc(r, j, "loc", &v->loc);
}

/* ---- structural validation of one kernel ----------------------------------------------------- */

/* The statement tree: every statement sits in at most one block, every loop body belongs to at
 * most one LOOP statement, and following "the statement whose block holds me" never cycles.
 * Otherwise an interpreter-style walk of the kernel (the analysis) could recurse forever. */
/* fail() with a path below the current one ("stmts[3].loop"). */
static bool fail_below(jr *r, const char *sub, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail_below(jr *r, const char *sub, const char *fmt, ...)
{
    size_t saved = path_key(r, sub);
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    fail(r, "%s", b.data ? b.data : "");
    pc_sb_free(&b);
    path_pop(r, saved);
    return false;
}

/* Record that block `where` (held by statement `own`, -1 for none) contains its statements. */
static bool place_block(jr *r, int *owner, pc_block b, int own, const char *where)
{
    for (int i = 0; i < b.count; i++) {
        int s = b.stmts[i];
        if (owner[s] != -2) {
            char sub[96];
            snprintf(sub, sizeof sub, "%s[%d]", where, i);
            return fail_below(r, sub, "statement %d appears in more than one block", s);
        }
        owner[s] = own;
    }
    return true;
}

static bool validate_tree(jr *r, const pc_kernel *k)
{
    int n = k->nstmts;
    bool ok = true;
    char sub[96];
    int *owner = pc_mem_alloc(sizeof(int) * (size_t)(n ? n : 1));        /* who holds each stmt */
    int *loop_owner = pc_mem_alloc(sizeof(int) * (size_t)(k->nloops ? k->nloops : 1));
    char *state = pc_mem_calloc((size_t)(n ? n : 1), 1);
    for (int i = 0; i < n; i++)
        owner[i] = -2; /* -2: in no block; -1: a block no statement holds (kernel body); else stmt */
    for (int i = 0; i < k->nloops; i++)
        loop_owner[i] = -1;

    ok = place_block(r, owner, k->body, -1, "body");
    for (int s = 0; ok && s < n; s++) {
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_LOOP) {
            if (loop_owner[st->loop] != -1) {
                snprintf(sub, sizeof sub, "stmts[%d].loop", s);
                ok = fail_below(r, sub, "loop %d is already the loop of statement %d", st->loop,
                                loop_owner[st->loop]);
                break;
            }
            loop_owner[st->loop] = s;
        }
        for (int b = 0; ok && b < st->nbranches; b++) {
            snprintf(sub, sizeof sub, "stmts[%d].branches[%d].body", s, b);
            ok = place_block(r, owner, st->branches[b].body, s, sub);
        }
        if (ok) {
            snprintf(sub, sizeof sub, "stmts[%d].unroll_body", s);
            ok = place_block(r, owner, st->unroll_body, s, sub);
        }
    }
    for (int l = 0; ok && l < k->nloops; l++) {
        snprintf(sub, sizeof sub, "loops[%d].body", l);
        ok = place_block(r, owner, k->loops[l].body, loop_owner[l], sub);
    }

    /* owner[] links each statement to the one holding it; walk each chain once
     * (state 0 new, 1 on the current chain, 2 known to end at a top-level block) */
    for (int s = 0; ok && s < n; s++) {
        int cur = s;
        while (cur >= 0 && state[cur] == 0) {
            state[cur] = 1;
            cur = owner[cur];
        }
        if (cur >= 0 && state[cur] == 1) {
            snprintf(sub, sizeof sub, "stmts[%d]", cur);
            ok = fail_below(r, sub, "statement %d contains itself (its blocks form a cycle)", cur);
            break;
        }
        for (cur = s; cur >= 0 && state[cur] == 1; cur = owner[cur])
            state[cur] = 2;
    }

    /* tensor base chains and loop parent chains must end */
    for (int t = 0; ok && t < k->ntensors; t++) {
        int cur = k->tensors[t].base, steps = 0;
        while (cur >= 0 && steps++ <= k->ntensors)
            cur = k->tensors[cur].base;
        if (cur >= 0) {
            snprintf(sub, sizeof sub, "tensors[%d].base", t);
            ok = fail_below(r, sub, "the chain of view bases forms a cycle");
        }
    }
    for (int l = 0; ok && l < k->nloops; l++) {
        int cur = k->loops[l].parent, steps = 0;
        while (cur >= 0 && steps++ <= k->nloops)
            cur = k->loops[cur].parent;
        if (cur >= 0) {
            snprintf(sub, sizeof sub, "loops[%d].parent", l);
            ok = fail_below(r, sub, "the chain of parent loops forms a cycle");
        }
    }
    pc_mem_free(owner);
    pc_mem_free(loop_owner);
    pc_mem_free(state);
    return ok;
}

/* (READ_ARRAY's `count` parameter would replace a member named count inside the macro) */
static int array_size_of(const pc_json *obj, const char *k)
{
    const pc_json *j = pc_json_get(obj, k);
    return pc_json_is(j, PC_JSON_ARRAY) ? j->count : 0;
}

static bool rv_optval(jr *r, const pc_json *f, const char *k, pc_optval *v)
{
    size_t saved = path_key(r, k);
    bool ok = optval_read(r, f, v);
    path_pop(r, saved);
    return ok;
}

/* An array of at most max integers, each in [lo, hi]; exactly max when exact. */
static bool rv_int_list(jr *r, const pc_json *j, const char *k, int max, bool exact, int64_t lo, int64_t hi,
                        int64_t *out, int *n)
{
    size_t saved = path_key(r, k);
    bool ok = want_array(r, j);
    int count = ok ? j->count : 0;
    if (ok && (count > max || (exact && count != max)))
        ok = fail(r, "expected %s%d integers, got %d", exact ? "" : "at most ", max, count);
    int i = 0;
    for (const pc_json *c = ok ? j->child : NULL; c && ok; c = c->next, i++) {
        size_t s2 = path_index(r, i);
        ok = int_value(r, c, lo, hi, &out[i]);
        path_pop(r, s2);
    }
    path_pop(r, saved);
    if (ok && n)
        *n = count;
    return ok;
}

/* An array of any number of integers, into a new array of exactly that many. */
static bool rv_int64s(jr *r, const pc_json *j, const char *k, int64_t **out, int *n)
{
    size_t saved = path_key(r, k);
    bool ok = want_array(r, j);
    if (ok) {
        *n = j->count;
        *out = *n ? pc_arena_alloc(r->m->arena, (size_t)*n * sizeof **out) : NULL;
        int i = 0;
        for (const pc_json *c = j->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            ok = int_value(r, c, INT64_MIN, INT64_MAX, &(*out)[i]);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok;
}

/* A list of expressions (null, when nullable: none, count -1). */
static bool rv_exprs(jr *r, const pc_json *j, const char *k, bool nullable, const pc_expr ***out, int *n)
{
    size_t saved = path_key(r, k);
    bool ok = true;
    if (nullable && pc_json_is(j, PC_JSON_NULL)) {
        *out = NULL;
        *n = -1;
    } else if (want_array(r, j)) {
        *n = j->count;
        const pc_expr **v = pc_arena_alloc(r->m->arena, (size_t)(j->count ? j->count : 1) * sizeof *v);
        *out = v;
        int i = 0;
        for (const pc_json *c = j->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            ok = expr_value(r, c, &v[i]);
            path_pop(r, s2);
        }
    } else {
        ok = false;
    }
    path_pop(r, saved);
    return ok;
}

/* An object of integers: name -> value, in order. */
static bool rv_constants(jr *r, const pc_json *j, const char *k, pc_binding **out, int *n)
{
    size_t saved = path_key(r, k);
    bool ok = want_object(r, j);
    if (ok) {
        *n = j->count;
        *out = grown_array(r->m, *n, sizeof **out);
        int i = 0;
        for (const pc_json *c = j->child; c && ok; c = c->next, i++) {
            size_t s2 = path_key(r, c->key);
            (*out)[i].name = pc_model_strdup(r->m, c->key);
            ok = int_value(r, c, INT64_MIN, INT64_MAX, &(*out)[i].value);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok;
}

/* The JSON array j, the value of `key`, into arr[0 .. n): element i read by
 * reader(r, element, i, &arr[i]) under the path "key[i]"; on a problem the calling reader returns
 * false. */
#define READ_ARRAY_OF(r, j, key, arr, n, reader)                                                 \
    do {                                                                                         \
        size_t _saved = path_key(r, key);                                                        \
        bool _ok = want_array(r, j);                                                             \
        if (_ok) {                                                                               \
            (n) = (j)->count;                                                                    \
            (arr) = grown_array((r)->m, (n), sizeof *(arr));                                     \
            int _i = 0;                                                                          \
            for (const pc_json *_c = (j)->child; _c && _ok; _c = _c->next, _i++) {               \
                size_t _s2 = path_index(r, _i);                                                  \
                _ok = reader(r, _c, _i, &(arr)[_i]);                                             \
                path_pop(r, _s2);                                                                \
            }                                                                                    \
        }                                                                                        \
        path_pop(r, _saved);                                                                     \
        if (!_ok)                                                                                \
            return false;                                                                        \
    } while (0)

/* ---- the structs of fields.def: one reader each, generated ----------------------------------- */

/* access "op" and "call" (json_write.c w_access_op): both or neither; "op" null is no op */
static bool r_access_op(jr *r, const pc_json *c, pc_access *a)
{
    a->op = NULL;
    a->call = -1;
    if (field(r, c, "op", false)) {
        if (!read_str(r, c, "op", &a->op) || !read_i32(r, c, "call", 0, INT32_MAX, &a->call))
            return false;
        if (!a->op)
            a->call = -1;
    } else if (field(r, c, "call", false)) {
        return fail_at(r, "call", "\"call\" without \"op\"");
    }
    return true;
}

/* the kernel's counts first: indices anywhere in the kernel are checked against them */
static bool rhook_kernel_counts(jr *r, const pc_json *j, pc_kernel *k)
{
    (void)k;
    r->ntensors = array_size_of(j, "tensors");
    r->nstmts = array_size_of(j, "stmts");
    r->nloops = array_size_of(j, "loops");
    return true;
}

static bool rhook_kernel_tree(jr *r, const pc_json *j, pc_kernel *k)
{
    (void)j;
    return validate_tree(r, k);
}

#define rhook_NONE(r, j, X) true

/* each struct's reader, the copy of its shared objects, and its allowed keys */
#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    typedef type mtype_##name;                                                                   \
    static bool r_##name(jr *r, const pc_json *j, int index, type *X);
#define PC_MODEL_FIELD(...)
#define PC_MODEL_FIELD_OPT(...)
#define PC_MODEL_END(name)
#include "fields.def"

#define K_SELF_ID(key, ...) key,
#define K_INT(key, ...) key,
#define K_INT64(key, ...) key,
#define K_BOOL(key, ...) key,
#define K_STR(key, ...) key,
#define K_ENUM(key, ...) key,
#define K_INDEX(key, ...) key,
#define K_LOC(key, ...) key,
#define K_EXPR(key, ...) key,
#define K_BLOCK(key, ...) key,
#define K_LIST(key, ...) key,
#define K_INT64S(key, ...) key,
#define K_INT64S_UPTO(key, ...) key,
#define K_INT64_ARRAY(key, ...) key,
#define K_EXPRS(key, ...) key,
#define K_SHARED(key, ...) key,
#define K_OPTVAL(key, ...) key,
#define K_CONSTANTS(key, ...) key,
#define K_DERIVED(key, ...)
#define K_CUSTOM(key, ...) key,
#define K_WITH(key, ...) key,
#define PC_MODEL_STRUCT(name, type, layout, pre, post) static const char *const keys_##name[] = {
#define PC_MODEL_FIELD(m, key, kind, args) K_##kind(key)
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt) K_##kind(key)
#define PC_MODEL_END(name) NULL};
#include "fields.def"

/* R_FIELD: the member `key` of the object j: `absent` when it is not there (an error when
 * required), else `read`, statements that return false on a problem */
#define R_FIELD(key, required, absent, read)                                                     \
    {                                                                                            \
        const pc_json *f_ = pc_json_get(j, key);                                                 \
        if (!f_) {                                                                               \
            if (required)                                                                        \
                return fail(r, "missing \"%s\"", key);                                           \
            absent;                                                                              \
        } else {                                                                                 \
            read                                                                                 \
        }                                                                                        \
    }
#define R_CHECK(call)                                                                            \
    if (!(call))                                                                                 \
        return false;
#define R_SELF_ID(m, key, req, dflt, ...)                                                        \
    R_FIELD(key, req, X->m = (dflt), {                                                           \
        int64_t v_;                                                                              \
        R_CHECK(rv_int(r, f_, key, index, index, &v_))                                           \
        X->m = (int)v_;                                                                          \
    })
#define R_INT(m, key, req, dflt, lo, hi)                                                         \
    R_FIELD(key, req, X->m = (dflt), {                                                           \
        int64_t v_;                                                                              \
        R_CHECK(rv_int(r, f_, key, lo, hi, &v_))                                                 \
        X->m = (int)v_;                                                                          \
    })
#define R_INT64(m, key, req, dflt, ...)                                                          \
    R_FIELD(key, req, X->m = (dflt), R_CHECK(rv_int(r, f_, key, INT64_MIN, INT64_MAX, &X->m)))
#define R_BOOL(m, key, req, dflt, ...) R_FIELD(key, req, X->m = (dflt), R_CHECK(rv_bool(r, f_, key, &X->m)))
#define R_STR(m, key, req, dflt, ...) R_FIELD(key, req, X->m = (dflt), R_CHECK(rv_str(r, f_, key, &X->m)))
#define R_ENUM(m, key, req, dflt, name, lo, hi)                                                  \
    R_FIELD(key, req, X->m = (dflt), {                                                           \
        int v_;                                                                                  \
        R_CHECK(rv_enum(r, f_, key, name, lo, hi, &v_))                                          \
        X->m = v_;                                                                               \
    })
#define R_INDEX(m, key, req, dflt, count, what, none)                                            \
    R_FIELD(key, req, X->m = (dflt), R_CHECK(rv_index(r, f_, key, none, r->count, what, &X->m)))
#define R_LOC(m, key, req, dflt, ...) R_FIELD(key, req, (void)0, R_CHECK(rv_loc(r, f_, key, &X->m)))
#define R_EXPR(m, key, req, dflt, ...) R_FIELD(key, req, X->m = (dflt), R_CHECK(rv_expr(r, f_, key, &X->m)))
#define R_BLOCK(m, key, req, dflt, ...) R_FIELD(key, req, (void)0, R_CHECK(rv_block(r, f_, key, &X->m)))
#define R_LIST(m, key, req, dflt, item, count)                                                   \
    R_FIELD(key, req, (void)0, READ_ARRAY_OF(r, f_, key, X->m, X->count, r_##item);)
#define R_INT64S(m, key, req, dflt, count)                                                       \
    R_FIELD(key, req, (void)0, R_CHECK(rv_int64s(r, f_, key, &X->m, &X->count)))
#define R_INT64S_UPTO(m, key, req, dflt, count, max, lo)                                         \
    R_FIELD(key, req, (void)0, R_CHECK(rv_int_list(r, f_, key, max, false, lo, INT64_MAX, X->m, &X->count)))
#define R_INT64_ARRAY(m, key, req, dflt, n, lo)                                                  \
    R_FIELD(key, req, (void)0, R_CHECK(rv_int_list(r, f_, key, n, true, lo, INT64_MAX, X->m, NULL)))
#define R_EXPRS(m, key, req, dflt, count, nullable)                                              \
    R_FIELD(key, req, (X->m = NULL, X->count = (dflt)),                                          \
            R_CHECK(rv_exprs(r, f_, key, nullable, &X->m, &X->count)))
#define R_SHARED(m, key, req, dflt, item)                                                        \
    R_FIELD(key, req, X->m = (dflt), R_CHECK(rs_##item(r, f_, key, &X->m)))
#define R_OPTVAL(m, key, req, dflt, ...) R_FIELD(key, req, (void)0, R_CHECK(rv_optval(r, f_, key, &X->m)))
#define R_CONSTANTS(m, key, req, dflt, count)                                                    \
    R_FIELD(key, req, (void)0, R_CHECK(rv_constants(r, f_, key, &X->m, &X->count)))
#define R_DERIVED(m, key, req, dflt, ...)
#define R_CUSTOM(m, key, req, dflt, hooks) R_CHECK(r_##hooks(r, j, X))
#define R_WITH(m, key, req, dflt, ...)

#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    static bool rf_##name(jr *r, const pc_json *j, int index, type *X);                          \
    static bool r_##name(jr *r, const pc_json *j, int index, type *X)                            \
    {                                                                                            \
        return want_object(r, j) && check_fields(r, j, keys_##name) && rhook_##pre(r, j, X) &&   \
               rf_##name(r, j, index, X) && rhook_##post(r, j, X);                               \
    }                                                                                            \
    /* the members, in table order */                                                            \
    static bool rf_##name(jr *r, const pc_json *j, int index, type *X)                           \
    {                                                                                            \
        (void)index;
#define PC_MODEL_FIELD(m, key, kind, args) PC_MF_CALL(R_##kind, m, key, true, 0, PC_MF_ARGS args)
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt)                          \
    PC_MF_CALL(R_##kind, m, key, required, dflt, PC_MF_ARGS args)
#define PC_MODEL_END(name)                                                                       \
        return true;                                                                             \
    }                                                                                            \
    /* a new object of the struct, for a SHARED member */                                        \
    __attribute__((unused)) static bool rs_##name(jr *r, const pc_json *f, const char *k,        \
                                                  const mtype_##name **out)                      \
    {                                                                                            \
        mtype_##name *t = pc_arena_alloc(r->m->arena, sizeof *t);                                \
        size_t saved = path_key(r, k);                                                           \
        bool ok = r_##name(r, f, 0, t);                                                          \
        path_pop(r, saved);                                                                      \
        if (ok)                                                                                  \
            *out = t;                                                                            \
        return ok;                                                                               \
    }
#include "fields.def"

/* The required array field `key` of obj (READ_ARRAY_OF). */
#define READ_ARRAY(r, obj, key, arr, count, reader)                                              \
    do {                                                                                         \
        const pc_json *_f = field(r, obj, key, true);                                            \
        if (!_f)                                                                                 \
            return false;                                                                        \
        READ_ARRAY_OF(r, _f, key, arr, count, reader);                                           \
    } while (0)

static bool read_model(jr *r, const pc_json *root)
{
    static const char *const fields[] = {"version", "file", "lang", "fatal", "kernels", "options",
                                         "messages", NULL};
    if (!want_object(r, root) || !check_fields(r, root, fields))
        return false;
    int64_t version;
    const pc_json *jv = field(r, root, "version", true);
    if (!jv)
        return false;
    size_t saved = path_key(r, "version");
    bool ok = int_value(r, jv, INT32_MIN, INT32_MAX, &version);
    if (ok && version != MODEL_JSON_VERSION)
        ok = fail(r, "unsupported model version %lld (this poolcheck reads version %d)", (long long)version,
                  MODEL_JSON_VERSION);
    path_pop(r, saved);
    if (!ok)
        return false;
    const pc_json *jf = field(r, root, "file", true);
    if (!jf)
        return false;
    if (!pc_json_is(jf, PC_JSON_STRING)) {
        saved = path_key(r, "file");
        fail(r, "expected a string, got %s", pc_json_kind(jf));
        path_pop(r, saved);
        return false;
    }
    int lang;
    if (!read_enum(r, root, "lang", pc_mjson_lang_name, PC_LANG_UNKNOWN, PC_LANG_PYTHON, &lang))
        return false;
    r->m = pc_model_new(jf->str, (pc_lang)lang);
    pc_model *m = r->m;
    if (!read_bool(r, root, "fatal", &m->fatal))
        return false;
    READ_ARRAY(r, root, "kernels", m->kernels, m->nkernels, r_kernel);
    r->nkernels = m->nkernels;
    READ_ARRAY(r, root, "options", m->options, m->noptions, r_option);
    READ_ARRAY(r, root, "messages", m->messages, m->nmessages, r_message);
    pc_model_name_kernels(m); /* ref is derived from name and scope, not stored */
    return true;
}

pc_model *pc_model_from_json(const char *text, size_t len, char **err)
{
    if (!text) {
        pc_err_set(err, "no input");
        return NULL;
    }
    pc_json_pos at;
    char *why = NULL;
    pc_json_doc *doc = pc_json_parse(text, len, PC_JSON_BOM, &at, &why);
    if (!doc) {
        pc_err_set(err, "line %u, column %u: %s", at.line, at.col, why);
        pc_mem_free(why);
        return NULL;
    }
    const pc_json *root = pc_json_root(doc);
    jr r;
    memset(&r, 0, sizeof r);
    bool ok = read_model(&r, root);
    pc_json_free(doc);
    pc_sb_free(&r.path);
    if (!ok) {
        if (!r.err)
            r.err = pc_mem_strdup("invalid model");
        if (err)
            *err = r.err;
        else
            pc_mem_free(r.err);
        pc_model_free(r.m);
        return NULL;
    }
    return r.m;
}
