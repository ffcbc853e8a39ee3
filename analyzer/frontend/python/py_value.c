/*
 * py_value.c - the values of kernel evaluation and the scopes that hold them: frames (name
 * lookup), tensor parameters of open rank, value constructors, dotted names of the pypto API,
 * and the trace-time truth of values and comparisons.
 *
 * A value (pc_py_val, py_int.h) is what an expression evaluates to while a kernel body is traced:
 * an integer expression (constant or symbolic), a dtype, a tensor of the model, an op result not
 * yet stored, a view, a sequence, a function, ...  Nothing here records anything in the model.
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- frames ---------------------------------------------------------------------------------- */

pc_py_frame *pc_py_frame_new(pc_py_ctx *c, pc_py_frame *parent)
{
    pc_py_frame *f = pc_arena_alloc(c->scratch, sizeof *f);
    f->parent = parent;
    return f;
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int frame_find(const pc_py_frame *f, const char *name)
{
    if (!f->nslots)
        return -1;
    uint32_t mask = (uint32_t)f->nslots - 1;
    for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        int s = f->slots[i];
        if (!s)
            return -1;
        if (strcmp(f->items[s - 1].name, name) == 0)
            return s - 1;
    }
}

static void frame_rehash(pc_py_ctx *c, pc_py_frame *f, int nslots)
{
    f->slots = pc_arena_alloc(c->scratch, (size_t)nslots * sizeof *f->slots);
    f->nslots = nslots;
    uint32_t mask = (uint32_t)nslots - 1;
    for (int k = 0; k < f->count; k++) {
        uint32_t i = name_hash(f->items[k].name) & mask;
        while (f->slots[i])
            i = (i + 1) & mask;
        f->slots[i] = k + 1;
    }
}

void *pc_py_room_for_one(pc_py_ctx *c, void *items, int count, int *cap, int first, size_t elem)
{
    if (count < *cap)
        return items;
    int ncap = *cap ? *cap * 2 : first;
    items = pc_arena_grow(c->scratch, items, (size_t)count, (size_t)ncap, elem);
    *cap = ncap;
    return items;
}

void pc_py_bind(pc_py_ctx *c, pc_py_frame *f, const char *name, pc_py_val v)
{
    if (!name)
        return;
    /* Rebinding in place keeps frames small in long unrolled bodies. */
    int at = frame_find(f, name);
    if (at >= 0) {
        f->items[at].val = v;
        return;
    }
    f->items = pc_py_room_for_one(c, f->items, f->count, &f->cap, 16, sizeof *f->items);
    f->items[f->count].name = pc_arena_strdup(c->scratch, name);
    f->items[f->count].val = v;
    f->count++;
    if (f->count * 2 > f->nslots)
        frame_rehash(c, f, f->nslots ? f->nslots * 2 : 32);
    else {
        uint32_t mask = (uint32_t)f->nslots - 1, i = name_hash(name) & mask;
        while (f->slots[i])
            i = (i + 1) & mask;
        f->slots[i] = f->count;
    }
}

void pc_py_bind_def(pc_py_ctx *c, const pc_py_node *def)
{
    pc_py_val f = pc_py_unknown();
    f.kind = PV_FUNC;
    f.node = def;
    f.frame = c->frame;
    pc_py_bind(c, c->frame, def->name, f);
}

pc_py_val *pc_py_lookup(pc_py_frame *f, const char *name)
{
    for (; f; f = f->parent) {
        int at = frame_find(f, name);
        if (at >= 0)
            return &f->items[at].val;
    }
    return NULL;
}

pc_py_val *pc_py_lookup_local(pc_py_frame *f, const char *name)
{
    int at = frame_find(f, name);
    return at >= 0 ? &f->items[at].val : NULL;
}

void pc_py_frame_restore(pc_py_ctx *c, pc_py_frame *f, const pc_py_binding *items, int count)
{
    if (count > f->cap) {
        f->items = pc_arena_grow(c->scratch, f->items, (size_t)f->count, (size_t)count, sizeof *f->items);
        f->cap = count;
    }
    if (count)
        memcpy(f->items, items, (size_t)count * sizeof *f->items);
    f->count = count;
    frame_rehash(c, f, f->nslots ? f->nslots : 32);
}

pc_py_module *pc_py_frame_module(const pc_py_frame *f)
{
    for (; f; f = f->parent)
        if (f->module)
            return f->module;
    return NULL;
}

/* ---- open-rank parameters ------------------------------------------------------------------ */

struct pc_py_open_param *pc_py_open_param(pc_py_ctx *c, int tensor)
{
    for (int i = 0; i < c->nopen; i++)
        if (c->open[i].tensor == tensor)
            return &c->open[i];
    return NULL;
}

void pc_py_fix_rank(pc_py_ctx *c, int tensor, int ndims)
{
    struct pc_py_open_param *op = pc_py_open_param(c, tensor);
    if (!op || c->kernel < 0 || ndims < op->nprefix || ndims > 64)
        return;
    pc_arena *ar = pc_model_arena(c->m);
    const pc_expr **s = pc_arena_alloc(ar, (size_t)(ndims + 1) * sizeof *s);
    for (int d = 0; d < ndims; d++)
        s[d] = d < op->nprefix ? op->prefix[d]
                               : pc_expr_sym(ar, pc_arena_printf(c->scratch, "%s.shape[%d]", op->name, d));
    pc_tensor *t = &c->m->kernels[c->kernel].tensors[tensor];
    t->shape = s;
    t->ndims = ndims;
    *op = c->open[--c->nopen]; /* no longer open */
}

/* ---- small value constructors ------------------------------------------------------------------- */

pc_py_val pc_py_unknown(void)
{
    pc_py_val v;
    memset(&v, 0, sizeof v);
    v.kind = PV_UNKNOWN;
    v.tensor = -1;
    v.ndims = -1;
    return v;
}

pc_py_val pc_py_mkval(pc_py_vkind kind)
{
    pc_py_val v = pc_py_unknown();
    v.kind = kind;
    return v;
}

pc_arena *pc_py_marena(pc_py_ctx *c) { return pc_model_arena(c->m); }

pc_py_val pc_py_int(pc_py_ctx *c, int64_t x)
{
    pc_py_val v = pc_py_mkval(PV_INT);
    v.e = pc_expr_int(pc_py_marena(c), x);
    return v;
}

pc_py_val pc_py_expr_val(const pc_expr *e)
{
    if (!e)
        return pc_py_unknown();
    pc_py_val v = pc_py_mkval(PV_INT);
    v.e = e;
    return v;
}

pc_py_val pc_py_sym_val(pc_py_ctx *c, const char *name) { return pc_py_expr_val(pc_expr_sym(pc_py_marena(c), name)); }

const pc_expr *pc_py_as_expr(const pc_py_val *v)
{
    if (v->kind == PV_INT)
        return v->e;
    return NULL;
}

bool pc_py_const_int(const pc_py_val *v, int64_t *out)
{
    if (v->kind == PV_BOOL) {
        *out = v->i;
        return true;
    }
    return v->kind == PV_INT && pc_expr_is_int(v->e, out);
}

bool pc_py_tensorish(const pc_py_val *v)
{
    return v->kind == PV_TENSOR || v->kind == PV_PENDING || v->kind == PV_VIEW || v->kind == PV_CREATE;
}

bool pc_py_in_kernel(const pc_py_ctx *c) { return c->kernel >= 0; }

/* ---- names ---------------------------------------------------------------------------------- */

const char *pc_py_qualname(pc_py_ctx *c, const pc_py_node *n)
{
    if (!n)
        return NULL;
    if (n->kind == PY_NAME) {
        pc_py_val *v = pc_py_lookup_forced(c, c->frame, n->name);
        if (v)
            return v->kind == PV_MODULE ? v->s : NULL;
        if (c->star_pypto) {
            static const char *const api[] = {
                "loop", "loop_unroll", "tensor", "Tensor", "matmul", "view", "reshape", "assemble",
                "full", "zeros", "ones", "cond", "is_loop_begin", "is_loop_end", "function", "jit",
                "options", "set_options", "frontend", "experimental", "add", "sub", "mul", "div",
                "exp", "sum", "amax", "cast", "DYNAMIC", "DYN", "STATIC",
                "set_vec_tile_shapes", "set_cube_tile_shapes"}; /* the tile setters (py_tiles.c) */
            for (size_t i = 0; i < sizeof api / sizeof *api; i++)
                if (strcmp(api[i], n->name) == 0)
                    return pc_arena_printf(c->scratch, "pypto.%s", n->name);
            if (strncmp(n->name, "DT_", 3) == 0)
                return pc_arena_printf(c->scratch, "pypto.%s", n->name);
        }
        return n->name; /* a builtin or something imported we cannot see: keep its spelling */
    }
    if (n->kind == PY_ATTRIBUTE) {
        const char *base = pc_py_qualname(c, n->a);
        return base ? pc_arena_printf(c->scratch, "%s.%s", base, n->name) : NULL;
    }
    return NULL;
}

bool pc_py_is_api(const char *q, const char *api)
{
    return q && strncmp(q, "pypto.", 6) == 0 && strcmp(q + 6, api) == 0;
}

/* The last component of a pypto qualname ("pypto.frontend.jit" -> "jit"), NULL for non-pypto. */
const char *pc_py_api_leaf(const char *q)
{
    if (!q || strncmp(q, "pypto.", 6) != 0)
        return NULL;
    const char *dot = strrchr(q, '.');
    return dot + 1;
}


bool pc_py_expr_same(const pc_expr *a, const pc_expr *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    if (a->kind == PC_EXPR_INT)
        return a->value == b->value;
    if (a->kind == PC_EXPR_SYM)
        return strcmp(a->name, b->name) == 0;
    return pc_py_expr_same(a->a, b->a) && pc_py_expr_same(a->b, b->b);
}

pc_py_val pc_py_bool_val(int64_t b)
{
    pc_py_val v = pc_py_mkval(PV_BOOL);
    v.i = b != 0;
    return v;
}

/* A constant integer, bool or float as a double (Python compares 1 == 1.0 as numbers). */
static bool constant_number(const pc_py_val *v, double *out)
{
    int64_t x;
    if (pc_py_const_int(v, &x))
        *out = (double)x;
    else if (v->kind == PV_FLOAT)
        *out = v->f;
    else
        return false;
    return true;
}

int pc_py_compare_truth(pc_py_op op, const pc_py_val *l, const pc_py_val *r)
{
    if (op == PY_OP_IS || op == PY_OP_ISNOT) {
        int same;
        if (l->kind == PV_NONE || r->kind == PV_NONE) {
            if (l->kind == PV_UNKNOWN || r->kind == PV_UNKNOWN)
                return -1;
            same = l->kind == r->kind;
        } else if (l->kind == PV_BOOL && r->kind == PV_BOOL) {
            same = l->i == r->i;
        } else {
            return -1;
        }
        return op == PY_OP_IS ? same : !same;
    }
    if (l->kind == PV_STR && r->kind == PV_STR) {
        int cmp = strcmp(l->s, r->s);
        if (op == PY_OP_EQ) return cmp == 0;
        if (op == PY_OP_NE) return cmp != 0;
        return -1;
    }
    double a, b;
    if (!constant_number(l, &a) || !constant_number(r, &b))
        return -1;
    switch (op) {
    case PY_OP_EQ: return a == b;
    case PY_OP_NE: return a != b;
    case PY_OP_LT: return a < b;
    case PY_OP_LE: return a <= b;
    case PY_OP_GT: return a > b;
    case PY_OP_GE: return a >= b;
    default: return -1;
    }
}

int pc_py_truth(pc_py_ctx *c, const pc_py_val *v)
{
    (void)c;
    int64_t x;
    switch (v->kind) {
    case PV_BOOL: return v->i != 0;
    case PV_INT: return pc_expr_is_int(v->e, &x) ? x != 0 : -1;
    case PV_FLOAT: return v->f != 0;
    case PV_STR: return v->s[0] != 0;
    case PV_NONE: return 0;
    case PV_SEQ: return v->nitems > 0;
    case PV_DTYPE: case PV_MODULE: case PV_FUNC: case PV_DIMMARK: case PV_DICT: return 1;
    default: return -1;
    }
}
