/* json_equal.c - structural equality of two models (pc_model_equal): what the model JSON's round
 * trip promises (model.h: the text pc_model_to_json writes reads back into an equal model), with
 * the path of the first difference.  The comparison of each struct below the model is generated
 * from the field table (fields.def), member by member in table order. */
#define _POSIX_C_SOURCE 200809L
#include "model_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct eq {
    pc_sb path;
    char *where;
    size_t where_size;
} eq;

static bool differ(eq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool differ(eq *q, const char *fmt, ...)
{
    if (q->where && q->where_size) {
        va_list ap;
        va_start(ap, fmt);
        char *msg = pc_mjson_vat_path(&q->path, "model", fmt, ap);
        va_end(ap);
        snprintf(q->where, q->where_size, "%s", msg);
        pc_mem_free(msg);
    }
    return false;
}

static size_t eq_push(eq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t eq_push(eq *q, const char *fmt, ...)
{
    size_t saved = q->path.len;
    if (q->path.len && fmt[0] != '[')
        pc_sb_putc(&q->path, '.');
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&q->path, fmt, ap);
    va_end(ap);
    return saved;
}

static void eq_pop(eq *q, size_t saved)
{
    q->path.len = saved;
    if (q->path.data)
        q->path.data[saved] = 0;
}

#define EQ_SCOPE(q, body, ...)                                                                   \
    do {                                                                                         \
        size_t _sv = eq_push(q, __VA_ARGS__);                                                    \
        bool _ok = (body);                                                                       \
        eq_pop(q, _sv);                                                                          \
        if (!_ok)                                                                                \
            return false;                                                                        \
    } while (0)

/* Equal counts a->count and b->count (named `name`, a string literal), then equal elements
 * a->field[i] and b->field[i] by eq_elem, each under "name[i]". */
#define EQ_ARRAY(q, name, a, b, count, field, eq_elem)                                           \
    do {                                                                                         \
        if (!eq_count(q, name, (a)->count, (b)->count))                                          \
            return false;                                                                        \
        for (int i_ = 0; i_ < (a)->count; i_++)                                                  \
            EQ_SCOPE(q, eq_elem(q, &(a)->field[i_], &(b)->field[i_]), name "[%d]", i_);          \
    } while (0)

static bool eq_int(eq *q, const char *name, int64_t a, int64_t b)
{
    if (a == b)
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%lld != %lld", (long long)a, (long long)b);
    eq_pop(q, sv);
    return false;
}

static bool eq_str(eq *q, const char *name, const char *a, const char *b)
{
    if (pc_mjson_same_str(a, b))
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%s%s%s != %s%s%s", a ? "\"" : "", a ? a : "null", a ? "\"" : "", b ? "\"" : "",
           b ? b : "null", b ? "\"" : "");
    eq_pop(q, sv);
    return false;
}

static bool eq_double(eq *q, const char *name, double a, double b)
{
    if (a == b || (isnan(a) && isnan(b)))
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%.17g != %.17g", a, b);
    eq_pop(q, sv);
    return false;
}

static bool eq_loc_body(eq *q, pc_loc a, pc_loc b)
{
    return eq_str(q, "file", a.file, b.file) && eq_int(q, "line", a.line, b.line) &&
           eq_int(q, "col", a.col, b.col) && eq_int(q, "end_line", a.end_line, b.end_line) &&
           eq_int(q, "end_col", a.end_col, b.end_col);
}

static bool eq_loc(eq *q, const char *name, pc_loc a, pc_loc b)
{
    EQ_SCOPE(q, eq_loc_body(q, a, b), "%s", name);
    return true;
}

static bool eq_expr(eq *q, const char *name, const pc_expr *a, const pc_expr *b)
{
    if (pc_expr_equal(a, b))
        return true;
    char *sa = a ? pc_expr_to_string(a) : NULL, *sb = b ? pc_expr_to_string(b) : NULL;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%s != %s%s", sa ? sa : "null", sb ? sb : "null",
           sa && sb && !strcmp(sa, sb) ? " (same text, different structure)" : "");
    eq_pop(q, sv);
    pc_mem_free(sa);
    pc_mem_free(sb);
    return false;
}

static bool eq_block(eq *q, const char *name, pc_block a, pc_block b)
{
    size_t sv = eq_push(q, "%s", name);
    bool ok = true;
    if (a.count != b.count)
        ok = differ(q, "%d statements != %d", a.count, b.count);
    for (int i = 0; ok && i < a.count; i++)
        if (a.stmts[i] != b.stmts[i]) {
            size_t s2 = eq_push(q, "[%d]", i);
            ok = differ(q, "%d != %d", a.stmts[i], b.stmts[i]);
            eq_pop(q, s2);
        }
    eq_pop(q, sv);
    return ok;
}

static bool eq_count(eq *q, const char *name, int a, int b)
{
    if (a == b)
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%d items != %d", a, b);
    eq_pop(q, sv);
    return false;
}

static bool eq_optval(eq *q, const pc_optval *a, const pc_optval *b)
{
    if (!eq_int(q, "kind", a->kind, b->kind) || !eq_int(q, "i", a->i, b->i) ||
        !eq_double(q, "f", a->f, b->f) || !eq_str(q, "text", a->text, b->text))
        return false;
    EQ_ARRAY(q, "items", a, b, nitems, items, eq_optval);
    return eq_loc(q, "loc", a->loc, b->loc);
}

static bool eq_int64s(eq *q, const char *name, const int64_t *a, int na, const int64_t *b, int nb)
{
    if (!eq_count(q, name, na, nb))
        return false;
    for (int i = 0; i < na; i++)
        if (a[i] != b[i]) {
            size_t sv = eq_push(q, "%s[%d]", name, i);
            differ(q, "%lld != %lld", (long long)a[i], (long long)b[i]);
            eq_pop(q, sv);
            return false;
        }
    return true;
}

/* A list of expressions: its count (by the count member's name), whether there is one at all
 * (count -1 or no array), then each "name[i]". */
static bool eq_exprs(eq *q, const char *name, const char *count_name, const pc_expr *const *a, int na,
                     const pc_expr *const *b, int nb)
{
    if (!eq_int(q, count_name, na, nb))
        return false;
    bool sa = a != NULL || na == 0, sb = b != NULL || nb == 0;
    if (sa != sb)
        return eq_str(q, name, sa ? "[...]" : NULL, sb ? "[...]" : NULL);
    for (int i = 0; sa && i < na; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "%s[%d]", name, i);
        if (!eq_expr(q, nm, a[i], b[i]))
            return false;
    }
    return true;
}

static bool eq_constants(eq *q, const char *name, const pc_binding *a, int na, const pc_binding *b, int nb)
{
    if (!eq_count(q, name, na, nb))
        return false;
    for (int i = 0; i < na; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "%s[%d].name", name, i);
        if (!eq_str(q, nm, a[i].name, b[i].name))
            return false;
        snprintf(nm, sizeof nm, "%s[%d].value", name, i);
        if (!eq_int(q, nm, a[i].value, b[i].value))
            return false;
    }
    return true;
}

/* ---- the structs of fields.def: one comparison each, generated ------------------------------- */

static bool eq_access_op(eq *q, const pc_access *a, const pc_access *b)
{
    return eq_str(q, "op", a->op, b->op) && eq_int(q, "call", a->call, b->call);
}

#define PC_MODEL_STRUCT(name, type, layout, pre, post) static bool eq_##name(eq *q, const type *A, const type *B);
#define PC_MODEL_FIELD(...)
#define PC_MODEL_FIELD_OPT(...)
#define PC_MODEL_END(name)
#include "fields.def"

#define E_CHECK(call)                                                                            \
    if (!(call))                                                                                 \
        return false;
#define E_SELF_ID(m, key, ...) E_CHECK(eq_int(q, key, A->m, B->m))
#define E_INT(m, key, ...) E_CHECK(eq_int(q, key, A->m, B->m))
#define E_INT64(m, key, ...) E_CHECK(eq_int(q, key, A->m, B->m))
#define E_BOOL(m, key, ...) E_CHECK(eq_int(q, key, A->m, B->m))
#define E_ENUM(m, key, ...) E_CHECK(eq_int(q, key, A->m, B->m))
#define E_INDEX(m, key, ...) E_CHECK(eq_int(q, key, A->m, B->m))
#define E_STR(m, key, ...) E_CHECK(eq_str(q, key, A->m, B->m))
#define E_LOC(m, key, ...) E_CHECK(eq_loc(q, key, A->m, B->m))
#define E_EXPR(m, key, ...) E_CHECK(eq_expr(q, key, A->m, B->m))
#define E_BLOCK(m, key, ...) E_CHECK(eq_block(q, key, A->m, B->m))
#define E_LIST(m, key, item, count) EQ_ARRAY(q, key, A, B, count, m, eq_##item);
#define E_INT64S(m, key, count) E_CHECK(eq_int64s(q, key, A->m, A->count, B->m, B->count))
#define E_INT64S_UPTO(m, key, count, max, lo) E_CHECK(eq_int64s(q, key, A->m, A->count, B->m, B->count))
#define E_INT64_ARRAY(m, key, n, lo) E_CHECK(eq_int64s(q, key, A->m, n, B->m, n))
#define E_EXPRS(m, key, count, nullable) E_CHECK(eq_exprs(q, key, #count, A->m, A->count, B->m, B->count))
#define E_SHARED(m, key, item)                                                                   \
    if (!A->m || !B->m) {                                                                        \
        E_CHECK(eq_str(q, key, A->m ? "{...}" : NULL, B->m ? "{...}" : NULL))                    \
    } else {                                                                                     \
        EQ_SCOPE(q, eq_##item(q, A->m, B->m), "%s", key);                                        \
    }
#define E_OPTVAL(m, key, ...) EQ_SCOPE(q, eq_optval(q, &A->m, &B->m), "%s", key);
#define E_CONSTANTS(m, key, count) E_CHECK(eq_constants(q, key, A->m, A->count, B->m, B->count))
#define E_DERIVED(m, key, ...)
#define E_CUSTOM(m, key, hooks) E_CHECK(eq_##hooks(q, A, B))
#define E_WITH(m, key, ...)

#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    static bool eq_##name(eq *q, const type *A, const type *B)                                   \
    {
#define PC_MODEL_FIELD(m, key, kind, args) PC_MF_CALL(E_##kind, m, key, PC_MF_ARGS args)
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt)                          \
    PC_MF_CALL(E_##kind, m, key, PC_MF_ARGS args)
#define PC_MODEL_END(name)                                                                       \
        return true;                                                                             \
    }
#include "fields.def"

static bool eq_model(eq *q, const pc_model *a, const pc_model *b)
{
    if (!eq_str(q, "file", a->file, b->file) || !eq_int(q, "lang", a->lang, b->lang) ||
        !eq_int(q, "fatal", a->fatal, b->fatal))
        return false;
    EQ_ARRAY(q, "kernels", a, b, nkernels, kernels, eq_kernel);
    EQ_ARRAY(q, "options", a, b, noptions, options, eq_option);
    EQ_ARRAY(q, "messages", a, b, nmessages, messages, eq_message);
    return true;
}

bool pc_model_equal(const pc_model *a, const pc_model *b, char *where, size_t where_size)
{
    if (where && where_size)
        where[0] = 0;
    if (a == b)
        return true;
    eq q = {{0}, where, where_size};
    bool ok;
    if (!a || !b)
        ok = differ(&q, "%s", a ? "second model is NULL" : "first model is NULL");
    else
        ok = eq_model(&q, a, b);
    pc_sb_free(&q.path);
    return ok;
}
