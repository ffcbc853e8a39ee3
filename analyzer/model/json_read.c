/* json_read.c - the model JSON read back (pc_model_from_json; the format: json_write.c).
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

static const char *dtype_name(int t) { return pc_dtype_name((pc_dtype)t); }
static const char *access_name(int k) { return pc_access_kind_name((pc_access_kind)k); }
static const char *tensor_name(int k) { return pc_tensor_kind_name((pc_tensor_kind)k); }
static const char *unit_name(int k) { return pc_unit_name((pc_unit)k); }
static const char *site_name(int k) { return pc_optsite_kind_name((pc_optsite_kind)k); }
static const char *operand_role_i(int k) { return pc_operand_role_name((pc_operand_role)k); }


typedef struct jr {
    pc_model *m;
    pc_sb path;       /* JSON path of the item being read: kernels[0].tensors[2].kind */
    char *err;        /* first problem, malloc'd */
    /* counts of the kernel being read, for index validation */
    int ntensors, nstmts, nloops;
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

static bool read_int(jr *r, const pc_json *obj, const char *k, int64_t lo, int64_t hi, int64_t *out)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = int_value(r, j, lo, hi, out);
    path_pop(r, saved);
    return ok;
}

static bool read_i32(jr *r, const pc_json *obj, const char *k, int lo, int hi, int *out)
{
    int64_t v;
    if (!read_int(r, obj, k, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

static bool read_u32(jr *r, const pc_json *obj, const char *k, uint32_t *out)
{
    int64_t v;
    if (!read_int(r, obj, k, 0, UINT32_MAX, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

/* An index field: -1 (none, when allowed) or a valid index into an array of `count` items. */
static bool read_index(jr *r, const pc_json *obj, const char *k, bool allow_none, int count,
                       const char *what, int *out)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    int64_t v;
    bool ok = int_value(r, j, INT32_MIN, INT32_MAX, &v);
    if (ok && !(allow_none && v == -1) && (v < 0 || v >= count))
        ok = fail(r, "%s index %lld out of range (%d %s%s)", what, (long long)v, count, what,
                  count == 1 ? "" : "s");
    path_pop(r, saved);
    if (ok)
        *out = (int)v;
    return ok;
}

static bool read_bool(jr *r, const pc_json *obj, const char *k, bool required, bool *out)
{
    const pc_json *j = field(r, obj, k, required);
    if (!j)
        return !required;
    if (!pc_json_is(j, PC_JSON_BOOL))
        return fail_at(r, k, "expected a boolean, got %s", pc_json_kind(j));
    *out = j->b;
    return true;
}

/* A string (copied into the model arena) or null (NULL). */
static bool read_str(jr *r, const pc_json *obj, const char *k, const char **out)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
    if (pc_json_is(j, PC_JSON_NULL)) {
        *out = NULL;
        return true;
    }
    if (!pc_json_is(j, PC_JSON_STRING))
        return fail_at(r, k, "expected a string or null, got %s", pc_json_kind(j));
    *out = pc_model_strdup(r->m, j->str);
    return true;
}

/* An enum by its name, as the pc_*_name functions spell it. */
static bool read_enum(jr *r, const pc_json *obj, const char *k, const char *(*name)(int), int lo,
                      int hi, int *out)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = false;
    if (!pc_json_is(j, PC_JSON_STRING)) {
        fail(r, "expected a string, got %s", pc_json_kind(j));
    } else {
        for (int v = lo; v <= hi; v++)
            if (strcmp(name(v), j->str) == 0) {
                *out = v;
                ok = true;
                break;
            }
        if (!ok)
            fail(r, "unknown value \"%s\"", j->str);
    }
    path_pop(r, saved);
    return ok;
}

static bool read_loc(jr *r, const pc_json *obj, const char *k, pc_loc *out)
{
    static const char *const fields[] = {"file", "line", "col", "end_line", "end_col", NULL};
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
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

/* Arrays that the builders grow keep the capacity the builders assume (a power of two, at least
 * 8), so that a frontend or test may keep adding to a model read from JSON. */
static size_t builder_cap(size_t count) { size_t c = 8; while (c < count) c *= 2; return c; }

static void *grown_array(pc_model *m, int count, size_t elem)
{
    return count > 0 ? pc_arena_alloc(m->arena, builder_cap((size_t)count) * elem) : NULL;
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
        const char *perr = NULL;
        const pc_expr *e = pc_expr_parse(r->m->arena, s, &perr);
        if (!e)
            return fail(r, "invalid expression \"%s\": %s", s, perr ? perr : "syntax error");
        *out = e;
        return true;
    }
    if (pc_json_is(j, PC_JSON_OBJECT))
        return expr_struct(r, j, out);
    return fail(r, "expected an expression (integer, string or object), got %s", pc_json_kind(j));
}

static bool read_expr(jr *r, const pc_json *obj, const char *k, const pc_expr **out)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = expr_value(r, j, out);
    path_pop(r, saved);
    return ok;
}

/* A block: an array of statement ids, each a valid index. */
static bool read_block(jr *r, const pc_json *obj, const char *k, pc_block *out)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
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

static bool read_tensor(jr *r, const pc_json *j, int index, pc_tensor *t)
{
    static const char *const fields[] = {"id", "name", "variable", "kind", "dtype", "shape", "base",
                                         "scope_loop", "def_stmt", "loc", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    int kind, dtype;
    if (!read_i32(r, j, "id", index, index, &t->id) || !read_str(r, j, "name", &t->name) ||
        !read_str(r, j, "variable", &t->variable) ||
        !read_enum(r, j, "kind", tensor_name, PC_TENSOR_PARAM, PC_TENSOR_VIEW, &kind) ||
        !read_enum(r, j, "dtype", dtype_name, PC_DT_UNKNOWN, PC_DT_COUNT - 1, &dtype))
        return false;
    t->kind = (pc_tensor_kind)kind;
    t->dtype = (pc_dtype)dtype;
    const pc_json *js = field(r, j, "shape", true);
    if (!js)
        return false;
    size_t saved = path_key(r, "shape");
    bool ok = true;
    if (pc_json_is(js, PC_JSON_NULL)) {
        t->shape = NULL;
        t->ndims = -1;
    } else if (want_array(r, js)) {
        t->ndims = js->count;
        t->shape = pc_arena_alloc(r->m->arena, (size_t)(t->ndims ? t->ndims : 1) * sizeof *t->shape);
        int i = 0;
        for (const pc_json *c = js->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            ok = expr_value(r, c, &t->shape[i]);
            path_pop(r, s2);
        }
    } else {
        ok = false;
    }
    path_pop(r, saved);
    return ok && read_index(r, j, "base", true, r->ntensors, "tensor", &t->base) &&
           read_index(r, j, "scope_loop", true, r->nloops, "loop", &t->scope_loop) &&
           read_index(r, j, "def_stmt", true, r->nstmts, "statement", &t->def_stmt) &&
           read_loc(r, j, "loc", &t->loc);
}

/* ---- tile shapes and matmul operands: see jw_stmt_tiles for the format ---------- */
static bool read_access_operand(jr *r, const pc_json *c, pc_access *a)
{
    int role = PC_OPERAND_ANY;
    if (field(r, c, "role", false) &&
        !read_enum(r, c, "role", operand_role_i, PC_OPERAND_ANY, PC_OPERAND_OTHER, &role))
        return false;
    a->role = (pc_operand_role)role;
    a->transposed = false;
    return read_bool(r, c, "transposed", false, &a->transposed);
}

/* An array of at most max integers, each in [lo, hi]; exactly max when exact. */
static bool read_int_list(jr *r, const pc_json *obj, const char *k, int max, bool exact, int64_t lo,
                          int64_t hi, int64_t *out, int *n)
{
    const pc_json *j = field(r, obj, k, true);
    if (!j)
        return false;
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

static bool read_stmt_tiles(jr *r, const pc_json *j, pc_stmt *s)
{
    static const char *const fields[] = {"vec_set", "vec_known", "vec", "vec_loc", "cube_set", "cube_known",
                                         "cube_m", "cube_k", "cube_n", "cube_loc", NULL};
    const pc_json *jt = field(r, j, "tiles", false);
    s->tiles = NULL;
    if (!jt)
        return true;
    pc_tile_shapes *t = pc_arena_alloc(r->m->arena, sizeof *t);
    size_t saved = path_key(r, "tiles");
    bool ok = want_object(r, jt) && check_fields(r, jt, fields) &&
              read_bool(r, jt, "vec_set", true, &t->vec_set) && read_bool(r, jt, "vec_known", true, &t->vec_known) &&
              read_int_list(r, jt, "vec", PC_TILE_MAX_DIMS, false, 0, INT64_MAX, t->vec, &t->nvec) &&
              read_loc(r, jt, "vec_loc", &t->vec_loc) && read_bool(r, jt, "cube_set", true, &t->cube_set) &&
              read_bool(r, jt, "cube_known", true, &t->cube_known) &&
              read_int_list(r, jt, "cube_m", 2, true, 0, INT64_MAX, t->cube_m, NULL) &&
              read_int_list(r, jt, "cube_k", 3, true, 0, INT64_MAX, t->cube_k, NULL) &&
              read_int_list(r, jt, "cube_n", 2, true, 0, INT64_MAX, t->cube_n, NULL) &&
              read_loc(r, jt, "cube_loc", &t->cube_loc);
    path_pop(r, saved);
    if (ok)
        s->tiles = t;
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

/* The op call of an access (jw_access_op): all optional; "call" goes with "op". */
static bool read_access_op(jr *r, const pc_json *c, pc_access *a)
{
    a->op = NULL;
    a->call = -1;
    a->region = NULL;
    a->region_rank = -1;
    a->axis = -1;
    if (field(r, c, "op", false)) {
        if (!read_str(r, c, "op", &a->op) || !read_i32(r, c, "call", 0, INT32_MAX, &a->call))
            return false;
        if (!a->op)
            a->call = -1;
    } else if (field(r, c, "call", false)) {
        return fail_at(r, "call", "\"call\" without \"op\"");
    }
    if (field(r, c, "axis", false) && !read_i32(r, c, "axis", 0, 64, &a->axis))
        return false;
    const pc_json *js = field(r, c, "region", false);
    if (!js)
        return true;
    size_t saved = path_key(r, "region");
    bool ok = want_array(r, js);
    if (ok) {
        a->region_rank = js->count;
        a->region = pc_arena_alloc(r->m->arena, (size_t)(js->count ? js->count : 1) * sizeof *a->region);
        int i = 0;
        for (const pc_json *d = js->child; d && ok; d = d->next, i++) {
            size_t s2 = path_index(r, i);
            ok = expr_value(r, d, &a->region[i]);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok;
}

static bool read_access(jr *r, const pc_json *c, int index, pc_access *a)
{
    (void)index;
    static const char *const afields[] = {"tensor", "kind", "unit", "loc", "role", "transposed",
                                          "op", "call", "region", "axis", NULL};
    int ak, unit;
    bool ok = want_object(r, c) && check_fields(r, c, afields) &&
              read_index(r, c, "tensor", false, r->ntensors, "tensor", &a->tensor) &&
              read_enum(r, c, "kind", access_name, PC_ACC_READ, PC_ACC_WRITE_ELEMENT, &ak) &&
              read_enum(r, c, "unit", unit_name, PC_UNIT_NONE, PC_UNIT_CUBE, &unit) &&
              read_loc(r, c, "loc", &a->loc) && read_access_operand(r, c, a) && read_access_op(r, c, a);
    if (ok) {
        a->kind = (pc_access_kind)ak;
        a->unit = (pc_unit)unit;
    }
    return ok;
}

static bool read_branch(jr *r, const pc_json *c, int index, pc_branch *b)
{
    (void)index;
    static const char *const bfields[] = {"cond", "cond_text", "decided", "body", "loc", NULL};
    return want_object(r, c) && check_fields(r, c, bfields) && read_expr(r, c, "cond", &b->cond) &&
           /* cond_text is optional: models written before conditions were kept */
           (!field(r, c, "cond_text", false) || read_str(r, c, "cond_text", &b->cond_text)) &&
           read_i32(r, c, "decided", -1, 1, &b->decided) && read_block(r, c, "body", &b->body) &&
           read_loc(r, c, "loc", &b->loc);
}

static bool read_stmt(jr *r, const pc_json *j, int index, pc_stmt *s)
{
    static const char *const fields[] = {"id", "kind", "loc", "has_op", "accesses", "loop", "branches",
                                         "unroll_factor", "unroll_body", "message", "tiles", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    int kind;
    if (!read_i32(r, j, "id", index, index, &s->id) ||
        !read_enum(r, j, "kind", pc_mjson_stmt_kind_name, PC_STMT_OP, PC_STMT_UNANALYSED, &kind) ||
        !read_loc(r, j, "loc", &s->loc))
        return false;
    s->kind = (pc_stmt_kind)kind;
    /* fields of other kinds are optional and default to what the builder sets */
    s->has_op = kind == PC_STMT_OP;
    if (!read_bool(r, j, "has_op", kind == PC_STMT_OP, &s->has_op))
        return false;
    const pc_json *ja = field(r, j, "accesses", kind == PC_STMT_OP);
    if (kind == PC_STMT_OP && !ja)
        return false;
    if (ja)
        READ_ARRAY_OF(r, ja, "accesses", s->accesses, s->naccesses, read_access);
    s->loop = -1;
    if (kind == PC_STMT_LOOP || field(r, j, "loop", false)) {
        if (!read_index(r, j, "loop", kind != PC_STMT_LOOP, r->nloops, "loop", &s->loop))
            return false;
    }
    const pc_json *jb = field(r, j, "branches", kind == PC_STMT_IF);
    if (kind == PC_STMT_IF && !jb)
        return false;
    if (jb)
        READ_ARRAY_OF(r, jb, "branches", s->branches, s->nbranches, read_branch);
    if (kind == PC_STMT_UNROLL || field(r, j, "unroll_factor", false)) {
        if (!read_int(r, j, "unroll_factor", INT64_MIN, INT64_MAX, &s->unroll_factor))
            return false;
    }
    if (kind == PC_STMT_UNROLL || field(r, j, "unroll_body", false)) {
        if (!read_block(r, j, "unroll_body", &s->unroll_body))
            return false;
    }
    if (kind == PC_STMT_UNANALYSED || field(r, j, "message", false)) {
        if (!read_str(r, j, "message", &s->message))
            return false;
    }
    return read_stmt_tiles(r, j, s);
}

static bool read_unroll_rule(jr *r, const pc_json *j, pc_loop *l)
{
    int v = PC_UNROLL_RULE_DEFAULT;
    if (field(r, j, "unroll_rule", false) &&
        !read_enum(r, j, "unroll_rule", pc_mjson_unroll_rule_name, PC_UNROLL_RULE_DEFAULT, PC_UNROLL_RULE_GREEDY, &v))
        return false;
    l->unroll_rule = (pc_unroll_rule)v;
    return true;
}

static bool read_loop(jr *r, const pc_json *j, int index, pc_loop *l)
{
    static const char *const fields[] = {"id", "name", "index_var", "factor_var", "begin", "end", "step",
                                         "unroll", "submit_before_loop", "parallel", "parent", "stmt",
                                         "body", "loc", "header", "unroll_rule", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    if (!read_i32(r, j, "id", index, index, &l->id) || !read_str(r, j, "name", &l->name) ||
        !read_str(r, j, "index_var", &l->index_var) || !read_str(r, j, "factor_var", &l->factor_var) ||
        !read_expr(r, j, "begin", &l->begin) || !read_expr(r, j, "end", &l->end) ||
        !read_expr(r, j, "step", &l->step))
        return false;
    const pc_json *ju = field(r, j, "unroll", true);
    if (!ju)
        return false;
    size_t saved = path_key(r, "unroll");
    bool ok = want_array(r, ju);
    if (ok) {
        l->nunroll = ju->count;
        l->unroll = l->nunroll ? pc_arena_alloc(r->m->arena, (size_t)l->nunroll * sizeof *l->unroll) : NULL;
        int i = 0;
        for (const pc_json *c = ju->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            ok = int_value(r, c, INT64_MIN, INT64_MAX, &l->unroll[i]);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok && read_bool(r, j, "submit_before_loop", true, &l->submit_before_loop) &&
           read_bool(r, j, "parallel", true, &l->parallel) &&
           read_index(r, j, "parent", true, r->nloops, "loop", &l->parent) &&
           read_index(r, j, "stmt", true, r->nstmts, "statement", &l->stmt) &&
           read_block(r, j, "body", &l->body) && read_loc(r, j, "loc", &l->loc) &&
           read_loc(r, j, "header", &l->header) && read_unroll_rule(r, j, l);
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

/* The required array field `key` of obj (READ_ARRAY_OF). */
#define READ_ARRAY(r, obj, key, arr, count, reader)                                              \
    do {                                                                                         \
        const pc_json *_f = field(r, obj, key, true);                                            \
        if (!_f)                                                                                 \
            return false;                                                                        \
        READ_ARRAY_OF(r, _f, key, arr, count, reader);                                           \
    } while (0)

static bool read_kernel(jr *r, const pc_json *j, int index, pc_kernel *k)
{
    static const char *const fields[] = {"id", "name", "scope", "loc", "insert_loc", "tensors", "stmts",
                                         "loops", "body", "constants", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    /* the counts first: indices anywhere in the kernel are checked against them */
    r->ntensors = array_size_of(j, "tensors");
    r->nstmts = array_size_of(j, "stmts");
    r->nloops = array_size_of(j, "loops");
    if (!read_i32(r, j, "id", index, index, &k->id) || !read_str(r, j, "name", &k->name) ||
        /* scope is optional: models written before kernels had one */
        (field(r, j, "scope", false) && !read_str(r, j, "scope", &k->scope)) || !read_loc(r, j, "loc", &k->loc) || !read_loc(r, j, "insert_loc", &k->insert_loc))
        return false;
    READ_ARRAY(r, j, "tensors", k->tensors, k->ntensors, read_tensor);
    READ_ARRAY(r, j, "stmts", k->stmts, k->nstmts, read_stmt);
    READ_ARRAY(r, j, "loops", k->loops, k->nloops, read_loop);
    if (!read_block(r, j, "body", &k->body))
        return false;
    const pc_json *jc = field(r, j, "constants", true);
    if (!jc)
        return false;
    size_t saved = path_key(r, "constants");
    bool ok = want_object(r, jc);
    if (ok) {
        k->nconstants = jc->count;
        k->constants = grown_array(r->m, k->nconstants, sizeof *k->constants);
        int i = 0;
        for (const pc_json *c = jc->child; c && ok; c = c->next, i++) {
            size_t s2 = path_key(r, c->key);
            k->constants[i].name = pc_model_strdup(r->m, c->key);
            ok = int_value(r, c, INT64_MIN, INT64_MAX, &k->constants[i].value);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    if (!ok)
        return false;
    return validate_tree(r, k);
}

static bool read_option(jr *r, const pc_json *j, int index, pc_option *o)
{
    static const char *const fields[] = {"key", "value", "site", "kernel", "in_kernel", "loc", NULL};
    (void)index;
    if (!want_object(r, j) || !check_fields(r, j, fields) || !read_str(r, j, "key", &o->key))
        return false;
    const pc_json *jv = field(r, j, "value", true);
    if (!jv)
        return false;
    size_t saved = path_key(r, "value");
    bool ok = optval_read(r, jv, &o->value);
    path_pop(r, saved);
    int site;
    return ok && read_enum(r, j, "site", site_name, PC_SITE_SET_RUNTIME_OPTIONS, PC_SITE_COMMAND_LINE, &site) &&
           (o->site = (pc_optsite_kind)site, true) &&
           read_index(r, j, "kernel", true, r->m->nkernels, "kernel", &o->kernel) &&
           read_bool(r, j, "in_kernel", true, &o->in_kernel) && read_loc(r, j, "loc", &o->loc);
}

static bool read_message(jr *r, const pc_json *j, int index, pc_message *msg)
{
    static const char *const fields[] = {"kind", "loc", "text", "check", NULL};
    (void)index;
    int kind;
    if (!want_object(r, j) || !check_fields(r, j, fields) ||
        !read_enum(r, j, "kind", pc_mjson_msg_kind_name, PC_MSG_FATAL, PC_MSG_ERROR, &kind))
        return false;
    msg->kind = (pc_msg_kind)kind;
    msg->check = NULL; /* optional: only the notes a check reports have one */
    return read_loc(r, j, "loc", &msg->loc) && read_str(r, j, "text", &msg->text) &&
           (!field(r, j, "check", false) || read_str(r, j, "check", &msg->check));
}

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
    if (!read_bool(r, root, "fatal", true, &m->fatal))
        return false;
    READ_ARRAY(r, root, "kernels", m->kernels, m->nkernels, read_kernel);
    READ_ARRAY(r, root, "options", m->options, m->noptions, read_option);
    READ_ARRAY(r, root, "messages", m->messages, m->nmessages, read_message);
    pc_model_name_kernels(m); /* ref is derived from name and scope, not stored */
    return true;
}

pc_model *pc_model_from_json(const char *text, size_t len, char **err)
{
    if (!text) {
        if (err)
            *err = pc_mem_strdup("no input");
        return NULL;
    }
    pc_json_error je;
    pc_json_doc *doc = pc_json_parse(text, len, PC_JSON_BOM, &je);
    if (!doc) {
        if (err) {
            pc_sb b = {0};
            pc_sb_printf(&b, "line %u, column %u: %s", je.at.line, je.at.col, je.msg);
            *err = pc_sb_take(&b);
        }
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
