/* json_equal.c - structural equality of two models (pc_model_equal): what the model JSON's round
 * trip promises (model.h: the text pc_model_to_json writes reads back into an equal model), with
 * the path of the first difference. */
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

static bool eq_tensor(eq *q, const pc_tensor *a, const pc_tensor *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_str(q, "name", a->name, b->name) ||
        !eq_str(q, "variable", a->variable, b->variable) || !eq_int(q, "kind", a->kind, b->kind) ||
        !eq_int(q, "dtype", a->dtype, b->dtype) || !eq_int(q, "ndims", a->ndims, b->ndims))
        return false;
    bool sa = a->shape != NULL || a->ndims == 0, sb = b->shape != NULL || b->ndims == 0;
    if (sa != sb)
        return eq_str(q, "shape", sa ? "[...]" : NULL, sb ? "[...]" : NULL);
    for (int i = 0; sa && i < a->ndims; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "shape[%d]", i);
        if (!eq_expr(q, nm, a->shape[i], b->shape[i]))
            return false;
    }
    return eq_int(q, "base", a->base, b->base) && eq_int(q, "scope_loop", a->scope_loop, b->scope_loop) &&
           eq_int(q, "def_stmt", a->def_stmt, b->def_stmt) && eq_loc(q, "loc", a->loc, b->loc);
}

/* tile shapes and matmul operands */
static bool eq_access_op(eq *q, const pc_access *a, const pc_access *b)
{
    if (!eq_int(q, "role", a->role, b->role) || !eq_int(q, "transposed", a->transposed, b->transposed) ||
        !eq_str(q, "op", a->op, b->op) || !eq_int(q, "call", a->call, b->call) ||
        !eq_int(q, "axis", a->axis, b->axis) || !eq_int(q, "region_rank", a->region_rank, b->region_rank))
        return false;
    for (int d = 0; d < a->region_rank; d++)
        if (!eq_expr(q, "region", a->region[d], b->region[d]))
            return false;
    return true;
}

static bool eq_tiles_body(eq *q, const pc_tile_shapes *a, const pc_tile_shapes *b)
{
    if (!eq_int(q, "vec_set", a->vec_set, b->vec_set) || !eq_int(q, "vec_known", a->vec_known, b->vec_known) ||
        !eq_count(q, "vec", a->nvec, b->nvec) || !eq_loc(q, "vec_loc", a->vec_loc, b->vec_loc) ||
        !eq_int(q, "cube_set", a->cube_set, b->cube_set) || !eq_int(q, "cube_known", a->cube_known, b->cube_known) ||
        !eq_loc(q, "cube_loc", a->cube_loc, b->cube_loc))
        return false;
    char nm[32];
    for (int i = 0; i < a->nvec; i++) {
        snprintf(nm, sizeof nm, "vec[%d]", i);
        if (!eq_int(q, nm, a->vec[i], b->vec[i]))
            return false;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(nm, sizeof nm, "cube_k[%d]", i);
        if (!eq_int(q, nm, a->cube_k[i], b->cube_k[i]))
            return false;
    }
    for (int i = 0; i < 2; i++) {
        snprintf(nm, sizeof nm, "cube_m[%d]", i);
        if (!eq_int(q, nm, a->cube_m[i], b->cube_m[i]))
            return false;
        snprintf(nm, sizeof nm, "cube_n[%d]", i);
        if (!eq_int(q, nm, a->cube_n[i], b->cube_n[i]))
            return false;
    }
    return true;
}

static bool eq_stmt_tiles(eq *q, const pc_stmt *a, const pc_stmt *b)
{
    if (!a->tiles || !b->tiles)
        return eq_str(q, "tiles", a->tiles ? "{...}" : NULL, b->tiles ? "{...}" : NULL);
    EQ_SCOPE(q, eq_tiles_body(q, a->tiles, b->tiles), "tiles");
    return true;
}

static bool eq_access(eq *q, const pc_access *a, const pc_access *b)
{
    return eq_int(q, "tensor", a->tensor, b->tensor) && eq_int(q, "kind", a->kind, b->kind) &&
           eq_int(q, "unit", a->unit, b->unit) && eq_loc(q, "loc", a->loc, b->loc) && eq_access_op(q, a, b);
}

static bool eq_branch(eq *q, const pc_branch *a, const pc_branch *b)
{
    return eq_expr(q, "cond", a->cond, b->cond) && eq_str(q, "cond_text", a->cond_text, b->cond_text) &&
           eq_int(q, "decided", a->decided, b->decided) &&
           eq_block(q, "body", a->body, b->body) && eq_loc(q, "loc", a->loc, b->loc);
}

static bool eq_stmt(eq *q, const pc_stmt *a, const pc_stmt *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_int(q, "kind", a->kind, b->kind) ||
        !eq_loc(q, "loc", a->loc, b->loc) || !eq_int(q, "has_op", a->has_op, b->has_op))
        return false;
    EQ_ARRAY(q, "accesses", a, b, naccesses, accesses, eq_access);
    if (!eq_int(q, "loop", a->loop, b->loop))
        return false;
    EQ_ARRAY(q, "branches", a, b, nbranches, branches, eq_branch);
    return eq_int(q, "unroll_factor", a->unroll_factor, b->unroll_factor) &&
           eq_block(q, "unroll_body", a->unroll_body, b->unroll_body) &&
           eq_str(q, "message", a->message, b->message) && eq_stmt_tiles(q, a, b);
}

static bool eq_loop(eq *q, const pc_loop *a, const pc_loop *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_str(q, "name", a->name, b->name) ||
        !eq_str(q, "index_var", a->index_var, b->index_var) ||
        !eq_str(q, "factor_var", a->factor_var, b->factor_var) || !eq_expr(q, "begin", a->begin, b->begin) ||
        !eq_expr(q, "end", a->end, b->end) || !eq_expr(q, "step", a->step, b->step) ||
        !eq_count(q, "unroll", a->nunroll, b->nunroll))
        return false;
    for (int i = 0; i < a->nunroll; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "unroll[%d]", i);
        if (!eq_int(q, nm, a->unroll[i], b->unroll[i]))
            return false;
    }
    return eq_int(q, "submit_before_loop", a->submit_before_loop, b->submit_before_loop) &&
           eq_int(q, "parallel", a->parallel, b->parallel) && eq_int(q, "parent", a->parent, b->parent) &&
           eq_int(q, "stmt", a->stmt, b->stmt) && eq_int(q, "unroll_rule", a->unroll_rule, b->unroll_rule) &&
           eq_block(q, "body", a->body, b->body) &&
           eq_loc(q, "loc", a->loc, b->loc) && eq_loc(q, "header", a->header, b->header);
}

static bool eq_kernel(eq *q, const pc_kernel *a, const pc_kernel *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_str(q, "name", a->name, b->name) ||
        !eq_str(q, "scope", a->scope, b->scope) || !eq_loc(q, "loc", a->loc, b->loc) ||
        !eq_loc(q, "insert_loc", a->insert_loc, b->insert_loc))
        return false;
    EQ_ARRAY(q, "tensors", a, b, ntensors, tensors, eq_tensor);
    EQ_ARRAY(q, "stmts", a, b, nstmts, stmts, eq_stmt);
    EQ_ARRAY(q, "loops", a, b, nloops, loops, eq_loop);
    if (!eq_block(q, "body", a->body, b->body) || !eq_count(q, "constants", a->nconstants, b->nconstants))
        return false;
    for (int i = 0; i < a->nconstants; i++) {
        char nm[40];
        snprintf(nm, sizeof nm, "constants[%d].name", i);
        if (!eq_str(q, nm, a->constants[i].name, b->constants[i].name))
            return false;
        snprintf(nm, sizeof nm, "constants[%d].value", i);
        if (!eq_int(q, nm, a->constants[i].value, b->constants[i].value))
            return false;
    }
    return true;
}

static bool eq_option(eq *q, const pc_option *a, const pc_option *b)
{
    if (!eq_str(q, "key", a->key, b->key))
        return false;
    EQ_SCOPE(q, eq_optval(q, &a->value, &b->value), "value");
    return eq_int(q, "site", a->site, b->site) && eq_int(q, "kernel", a->kernel, b->kernel) &&
           eq_int(q, "in_kernel", a->in_kernel, b->in_kernel) && eq_loc(q, "loc", a->loc, b->loc);
}

static bool eq_message(eq *q, const pc_message *a, const pc_message *b)
{
    return eq_int(q, "kind", a->kind, b->kind) && eq_loc(q, "loc", a->loc, b->loc) &&
           eq_str(q, "text", a->text, b->text) && eq_str(q, "check", a->check, b->check);
}

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
