/*
 * py_eval.c - evaluating kernel expressions: integers and symbols, dtypes, pypto ops and their
 * result shapes, views and tensor creation.
 *
 * Evaluation is symbolic "tracing": what upstream's jit parser does when it runs the kernel body
 * on SymbolicScalars, restricted to what the pool analysis needs.  An op call returns a *pending*
 * result (unit, dtype, shape) after recording the reads of its operands; the pending result
 * becomes a model tensor only when it is stored under a name or used as an operand of another op
 * (upstream materialises every op result, but the value on the right of a write lands in the
 * destination's memory - model.md section 4 - so it gets no tensor of its own).
 *
 * Outside a kernel (module constants, host code around legacy kernels) the same evaluator runs in
 * host mode: c->kernel < 0, nothing is recorded, tensors stay as descriptions.
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
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
    if (f->count == f->cap) {
        int ncap = f->cap ? f->cap * 2 : 16;
        f->items = pc_arena_grow(c->scratch, f->items, (size_t)f->count, (size_t)ncap, sizeof *f->items);
        f->cap = ncap;
    }
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

static pc_py_val mkval(pc_py_vkind kind)
{
    pc_py_val v = pc_py_unknown();
    v.kind = kind;
    return v;
}

static pc_arena *marena(pc_py_ctx *c) { return pc_model_arena(c->m); }

pc_py_val pc_py_int(pc_py_ctx *c, int64_t x)
{
    pc_py_val v = mkval(PV_INT);
    v.e = pc_expr_int(marena(c), x);
    return v;
}

static pc_py_val expr_val(const pc_expr *e)
{
    if (!e)
        return pc_py_unknown();
    pc_py_val v = mkval(PV_INT);
    v.e = e;
    return v;
}

static pc_py_val sym_val(pc_py_ctx *c, const char *name) { return expr_val(pc_expr_sym(marena(c), name)); }

const pc_expr *pc_py_as_expr(const pc_py_val *v)
{
    if (v->kind == PV_INT)
        return v->e;
    return NULL;
}

static bool const_int(const pc_py_val *v, int64_t *out)
{
    if (v->kind == PV_BOOL) {
        *out = v->i;
        return true;
    }
    return v->kind == PV_INT && pc_expr_is_int(v->e, out);
}

static bool tensorish(const pc_py_val *v)
{
    return v->kind == PV_TENSOR || v->kind == PV_PENDING || v->kind == PV_VIEW || v->kind == PV_CREATE;
}

static bool in_kernel(const pc_py_ctx *c) { return c->kernel >= 0; }

/* ---- call arguments ------------------------------------------------------------------------- */

const pc_py_node *pc_py_kwarg(const pc_py_node *call, const char *name)
{
    if (!call || call->kind != PY_CALL)
        return NULL;
    for (int i = 0; i < call->list2.count; i++) {
        const pc_py_node *kw = call->list2.items[i];
        if (kw && kw->name && strcmp(kw->name, name) == 0)
            return kw->a;
    }
    return NULL;
}

const pc_py_node *pc_py_posarg(const pc_py_node *call, int i)
{
    if (!call || call->kind != PY_CALL || i < 0 || i >= call->list1.count)
        return NULL;
    const pc_py_node *a = call->list1.items[i];
    return a && a->kind != PY_STARRED ? a : NULL;
}

/* Evaluated arguments of one call: positional (starred sequences expanded) and keywords. */
typedef struct args {
    pc_py_val *pos;
    const pc_py_node **posnode;
    int npos;
    const pc_py_node *call;
    pc_py_val *kw;      /* parallel to call->list2 */
} args;

static void eval_args(pc_py_ctx *c, const pc_py_node *call, args *a)
{
    memset(a, 0, sizeof *a);
    a->call = call;
    int cap = call->list1.count + 8;
    a->pos = pc_arena_alloc(c->scratch, (size_t)cap * sizeof *a->pos);
    a->posnode = pc_arena_alloc(c->scratch, (size_t)cap * sizeof *a->posnode);
    for (int i = 0; i < call->list1.count; i++) {
        const pc_py_node *n = call->list1.items[i];
        if (!n)
            continue;
        if (n->kind == PY_STARRED) {
            pc_py_val s = pc_py_eval(c, n->a);
            if (s.kind == PV_SEQ) {
                for (int j = 0; j < s.nitems; j++) {
                    if (a->npos == cap) {
                        a->pos = pc_arena_grow(c->scratch, a->pos, (size_t)cap, (size_t)cap * 2, sizeof *a->pos);
                        a->posnode = pc_arena_grow(c->scratch, a->posnode, (size_t)cap, (size_t)cap * 2,
                                                   sizeof *a->posnode);
                        cap *= 2;
                    }
                    a->posnode[a->npos] = n;
                    a->pos[a->npos++] = s.items[j];
                }
                continue;
            }
            s = pc_py_unknown();
            a->posnode[a->npos] = n;
            a->pos[a->npos++] = s;
            continue;
        }
        if (a->npos == cap) {
            a->pos = pc_arena_grow(c->scratch, a->pos, (size_t)cap, (size_t)cap * 2, sizeof *a->pos);
            a->posnode = pc_arena_grow(c->scratch, a->posnode, (size_t)cap, (size_t)cap * 2, sizeof *a->posnode);
            cap *= 2;
        }
        a->posnode[a->npos] = n;
        a->pos[a->npos++] = pc_py_eval(c, n);
    }
    if (call->list2.count) {
        a->kw = pc_arena_alloc(c->scratch, (size_t)call->list2.count * sizeof *a->kw);
        for (int i = 0; i < call->list2.count; i++) {
            const pc_py_node *kw = call->list2.items[i];
            a->kw[i] = kw && kw->a ? pc_py_eval(c, kw->a) : pc_py_unknown();
        }
    }
}

/* Argument by position or keyword (the Python signature order); NULL when absent. */
static pc_py_val *arg(args *a, int pos, const char *kw)
{
    if (kw)
        for (int i = 0; i < a->call->list2.count; i++) {
            const pc_py_node *k = a->call->list2.items[i];
            if (k && k->name && strcmp(k->name, kw) == 0)
                return &a->kw[i];
        }
    if (pos >= 0 && pos < a->npos)
        return &a->pos[pos];
    return NULL;
}

static const pc_py_node *arg_node(args *a, int pos, const char *kw)
{
    const pc_py_node *n = kw ? pc_py_kwarg(a->call, kw) : NULL;
    if (n)
        return n;
    if (pos >= 0 && pos < a->npos)
        return a->posnode[pos];
    return a->call;
}

static int arg_truth(pc_py_ctx *c, args *a, int pos, const char *kw)
{
    pc_py_val *v = arg(a, pos, kw);
    return v ? pc_py_truth(c, v) : 0;
}

/* ---- names ---------------------------------------------------------------------------------- */

const char *pc_py_qualname(pc_py_ctx *c, const pc_py_node *n)
{
    if (!n)
        return NULL;
    if (n->kind == PY_NAME) {
        pc_py_val *v = pc_py_lookup(c->frame, n->name);
        if (v)
            return v->kind == PV_MODULE ? v->s : NULL;
        if (c->star_pypto) {
            static const char *const api[] = {
                "loop", "loop_unroll", "tensor", "Tensor", "matmul", "view", "reshape", "assemble",
                "full", "zeros", "ones", "cond", "is_loop_begin", "is_loop_end", "function", "jit",
                "options", "set_options", "frontend", "experimental", "add", "sub", "mul", "div",
                "exp", "sum", "amax", "cast", "DYNAMIC", "DYN", "STATIC",
                "set_vec_tile_shapes", "set_cube_tile_shapes"}; /* tile setters: issue 18 */
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
static const char *api_leaf(const char *q)
{
    if (!q || strncmp(q, "pypto.", 6) != 0)
        return NULL;
    const char *dot = strrchr(q, '.');
    return dot + 1;
}

/* ---- tensors and accesses ------------------------------------------------------------------------ */

pc_kernel *pc_py_kernel(pc_py_ctx *c) { return &c->m->kernels[c->kernel]; }

static pc_loc node_loc(pc_py_ctx *c, const pc_py_node *at)
{
    if (at && at->line)
        return pc_py_loc(c, at);
    return pc_model_loc(c->m, c->file, c->stmt_line, c->stmt_col, c->stmt_end_line, c->stmt_end_col);
}

void pc_py_access(pc_py_ctx *c, int tensor, pc_access_kind kind, pc_unit unit, const pc_py_node *at)
{
    if (!in_kernel(c) || tensor < 0)
        return;
    if (c->nacc == c->capacc) {
        int ncap = c->capacc ? c->capacc * 2 : 16;
        c->acc = pc_arena_grow(c->scratch, c->acc, (size_t)c->nacc, (size_t)ncap, sizeof *c->acc);
        c->capacc = ncap;
    }
    pc_py_pending_access *p = &c->acc[c->nacc++];
    p->tensor = tensor;
    p->kind = kind;
    p->unit = unit;
    p->loc = node_loc(c, at);
}

int pc_py_new_tensor(pc_py_ctx *c, const char *variable, pc_tensor_kind kind, pc_dtype dt,
                     const pc_expr **shape, int ndims, const pc_py_node *at)
{
    pc_kernel *k = pc_py_kernel(c);
    int id = pc_kernel_add_tensor(c->m, k, variable, kind, node_loc(c, at));
    pc_tensor *t = &k->tensors[id];
    t->dtype = dt;
    t->ndims = shape ? ndims : -1;
    t->shape = shape && ndims >= 0 ? shape : NULL;
    t->scope_loop = kind == PC_TENSOR_PARAM ? -1 : c->loop;
    if (kind != PC_TENSOR_PARAM) {
        if (c->ndefined == c->capdefined) {
            int ncap = c->capdefined ? c->capdefined * 2 : 8;
            c->defined = pc_arena_grow(c->scratch, c->defined, (size_t)c->ndefined, (size_t)ncap, sizeof *c->defined);
            c->capdefined = ncap;
        }
        c->defined[c->ndefined++] = id;
    }
    return id;
}

static void tensor_shape(pc_py_ctx *c, const pc_py_val *v, const pc_expr ***shape, int *ndims, pc_dtype *dt)
{
    if (v->kind == PV_TENSOR && in_kernel(c) && v->tensor >= 0) {
        const pc_tensor *t = &pc_py_kernel(c)->tensors[v->tensor];
        *shape = (const pc_expr **)t->shape;
        *ndims = t->shape ? t->ndims : -1;
        *dt = t->dtype;
        return;
    }
    *shape = (const pc_expr **)v->shape;
    *ndims = v->shape ? v->ndims : -1;
    *dt = v->dtype;
}

int pc_py_materialise(pc_py_ctx *c, pc_py_val *v, const char *variable, const pc_py_node *at)
{
    if (!in_kernel(c))
        return -1;
    int id = -1;
    switch (v->kind) {
    case PV_TENSOR:
        return v->tensor;
    case PV_PENDING:
        id = pc_py_new_tensor(c, variable, PC_TENSOR_VALUE, v->dtype, v->shape, v->ndims, at);
        pc_py_access(c, id, PC_ACC_DEFINE, v->unit, at);
        break;
    case PV_VIEW:
        if (v->tensor < 0)
            return -1;
        /* A view reads its base and allocates nothing: no define access (it would look like a
         * write of the base's memory), just the tensor with its base. */
        pc_py_access(c, v->tensor, PC_ACC_READ, PC_UNIT_NONE, v->node ? v->node : at);
        id = pc_py_new_tensor(c, variable, PC_TENSOR_VIEW, v->dtype, v->shape, v->ndims, at);
        pc_py_kernel(c)->tensors[id].base = v->tensor;
        break;
    case PV_CREATE: {
        id = pc_py_new_tensor(c, variable, PC_TENSOR_CREATED, v->dtype, v->shape, v->ndims, at);
        if (v->s && *v->s)
            pc_py_kernel(c)->tensors[id].name = pc_model_strdup(c->m, v->s);
        /* full/zeros/ones fill their tensor: vector work that writes all of it, as `t[:] = e`
         * would.  pypto.tensor only declares it (no access). */
        if (v->unit != PC_UNIT_NONE)
            pc_py_access(c, id, PC_ACC_WRITE_WHOLE, v->unit, at);
        break;
    }
    default:
        return -1;
    }
    *v = mkval(PV_TENSOR);
    v->tensor = id;
    return id;
}

/* An operand read by an op executing on `unit`. */
static void read_operand(pc_py_ctx *c, pc_py_val *v, pc_unit unit, const pc_py_node *at)
{
    switch (v->kind) {
    case PV_TENSOR:
        pc_py_access(c, v->tensor, PC_ACC_READ, unit, at);
        if (v->alt) /* a name an open `if` bound to one of several tensors: each is read */
            for (int i = 0; i < v->nitems; i++)
                pc_py_access(c, v->items[i].tensor, PC_ACC_READ, unit, at);
        break;
    case PV_VIEW:
        /* An inline slice is read straight from its base: it allocates nothing. */
        pc_py_access(c, v->tensor, PC_ACC_READ, unit, at);
        break;
    case PV_PENDING:
    case PV_CREATE: {
        int id = pc_py_materialise(c, v, NULL, at);
        pc_py_access(c, id, PC_ACC_READ, unit, at);
        break;
    }
    case PV_SEQ:
        for (int i = 0; i < v->nitems; i++)
            read_operand(c, &v->items[i], unit, at);
        break;
    default:
        break;
    }
}

/* Flush helpers ------------------------------------------------------------------------------ */

void pc_py_begin_stmt(pc_py_ctx *c, const pc_py_node *stmt)
{
    c->nacc = 0;
    c->ndefined = 0;
    c->stmt_line = stmt->line;
    c->stmt_col = stmt->col;
    c->stmt_end_line = stmt->end_line;
    c->stmt_end_col = stmt->end_col;
}

void pc_py_block_append(pc_py_ctx *c, int stmt)
{
    pc_kernel *k = pc_py_kernel(c);
    pc_block *b;
    if (c->block.stmt >= 0)
        b = &k->stmts[c->block.stmt].branches[c->block.branch].body;
    else if (c->block.loop >= 0)
        b = &k->loops[c->block.loop].body;
    else
        b = &k->body;
    pc_block_append(c->m, b, stmt);
}

void pc_py_flush_stmt(pc_py_ctx *c, bool force)
{
    if (!in_kernel(c)) {
        c->nacc = c->ndefined = 0;
        return;
    }
    if (c->nacc == 0 && c->ndefined == 0 && !force)
        return;
    pc_kernel *k = pc_py_kernel(c);
    pc_loc loc = pc_model_loc(c->m, c->file, c->stmt_line, c->stmt_col, c->stmt_end_line, c->stmt_end_col);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_OP, loc);
    pc_stmt *s = &k->stmts[sid];
    bool op = false;
    for (int i = 0; i < c->nacc; i++) {
        const pc_py_pending_access *p = &c->acc[i];
        pc_stmt_add_access(c->m, s, p->tensor, p->kind, p->unit, p->loc);
        /* Declarations and views do no work; everything else is an operation (model.md 4:
         * a root function with no operation produces no instance). */
        if (p->kind == PC_ACC_WRITE_WHOLE || p->kind == PC_ACC_WRITE_ASSEMBLE || p->kind == PC_ACC_WRITE_ELEMENT ||
            p->unit != PC_UNIT_NONE)
            op = true;
    }
    s->has_op = op;
    pc_py_tiles_stmt(c, s);
    for (int i = 0; i < c->ndefined; i++)
        k->tensors[c->defined[i]].def_stmt = sid;
    pc_py_block_append(c, sid);
    c->nacc = c->ndefined = 0;
}

/* ---- shapes --------------------------------------------------------------------------------- */

static const pc_expr **shape_alloc(pc_py_ctx *c, int n)
{
    return pc_arena_alloc(marena(c), (size_t)(n > 0 ? n : 1) * sizeof(const pc_expr *));
}

/* A shape from a value: a sequence of integers, x.shape, or a single integer. */
static bool shape_of_value(pc_py_ctx *c, const pc_py_val *v, const pc_expr ***shape, int *ndims)
{
    if (v->kind == PV_SHAPE) {
        *shape = (const pc_expr **)v->shape;
        *ndims = v->shape ? v->ndims : -1;
        return v->shape != NULL;
    }
    if (v->kind == PV_INT) {
        const pc_expr **s = shape_alloc(c, 1);
        s[0] = v->e;
        *shape = s;
        *ndims = 1;
        return true;
    }
    if (v->kind != PV_SEQ)
        return false;
    const pc_expr **s = shape_alloc(c, v->nitems);
    for (int i = 0; i < v->nitems; i++) {
        const pc_expr *e = pc_py_as_expr(&v->items[i]);
        if (!e)
            return false;
        s[i] = e;
    }
    *shape = s;
    *ndims = v->nitems;
    return true;
}

static pc_py_val pending(pc_py_ctx *c, pc_unit unit, pc_dtype dt, const pc_expr **shape, int ndims)
{
    (void)c;
    pc_py_val v = mkval(PV_PENDING);
    v.unit = unit;
    v.dtype = dt;
    v.shape = shape;
    v.ndims = shape ? ndims : -1;
    return v;
}

static pc_dtype dtype_of(const pc_py_val *v)
{
    return v && v->kind == PV_DTYPE ? v->dtype : PC_DT_UNKNOWN;
}

/* Elementwise broadcasting of two shapes (numpy rules, dims of 1 stretch). */
static void broadcast(pc_py_ctx *c, const pc_expr **a, int na, const pc_expr **b, int nb, const pc_expr ***out,
                      int *nout)
{
    if (!a || na < 0) {
        *out = b && nb >= 0 ? (const pc_expr **)b : NULL;
        *nout = b ? nb : -1;
        return;
    }
    if (!b || nb < 0) {
        *out = (const pc_expr **)a;
        *nout = na;
        return;
    }
    int n = na > nb ? na : nb;
    const pc_expr **s = shape_alloc(c, n);
    for (int i = 0; i < n; i++) {
        int ia = na - n + i, ib = nb - n + i;
        const pc_expr *da = ia >= 0 ? a[ia] : NULL, *db = ib >= 0 ? b[ib] : NULL;
        int64_t x;
        if (!da)
            s[i] = db;
        else if (!db)
            s[i] = da;
        else if (pc_expr_is_int(da, &x) && x == 1)
            s[i] = db;
        else
            s[i] = da;
    }
    *out = s;
    *nout = n;
}

static int norm_dim(int64_t d, int ndims)
{
    if (d < 0)
        d += ndims;
    return d >= 0 && d < ndims ? (int)d : -1;
}

/* Shape of a subscript `base[key]` and what kind of key it is. */
typedef struct keyinfo {
    bool all_empty;    /* every element is `:` with no bound (or a lone ...): a whole write */
    bool all_int;      /* every element is an integer index: an element write when the value is a scalar */
    int nelems;
} keyinfo;

static void subscript_shape(pc_py_ctx *c, const pc_expr **shape, int ndims, const pc_py_node *key,
                            const pc_expr ***out, int *nout, keyinfo *ki)
{
    const pc_py_node *single[1] = {key};
    const pc_py_node *const *elems = single;
    int n = 1;
    if (key && key->kind == PY_TUPLE) {
        elems = (const pc_py_node *const *)key->list1.items;
        n = key->list1.count;
    }
    ki->all_empty = true;
    ki->all_int = n > 0;
    ki->nelems = n;
    int consumed = 0; /* elements that take a dimension */
    for (int i = 0; i < n; i++)
        if (elems[i] && elems[i]->kind != PY_ELLIPSIS && elems[i]->kind != PY_NONE)
            consumed++;
    bool known = shape && ndims >= 0;
    int cap = (known ? ndims : 0) + n + 1;
    const pc_expr **s = shape_alloc(c, cap);
    int ns = 0, d = 0;
    pc_arena *a = marena(c);
    for (int i = 0; i < n; i++) {
        const pc_py_node *e = elems[i];
        if (!e) {
            known = false;
            continue;
        }
        if (e->kind == PY_ELLIPSIS) {
            ki->all_int = false;
            int fill = known ? ndims - consumed : 0;
            for (int j = 0; j < fill && d < ndims; j++)
                s[ns++] = shape[d++];
            continue;
        }
        if (e->kind == PY_NONE) {
            ki->all_int = false;
            ki->all_empty = false;
            s[ns++] = pc_expr_int(a, 1);
            continue;
        }
        const pc_expr *dim = known && d < ndims ? shape[d] : NULL;
        if (known && d >= ndims)
            known = false;
        d++;
        if (e->kind == PY_SLICE) {
            ki->all_int = false;
            if (e->a || e->b || e->c)
                ki->all_empty = false;
            pc_py_val lo = e->a ? pc_py_eval(c, e->a) : pc_py_int(c, 0);
            pc_py_val hi = e->b ? pc_py_eval(c, e->b) : expr_val(dim);
            pc_py_val st = e->c ? pc_py_eval(c, e->c) : pc_py_int(c, 1);
            const pc_expr *l = lo.kind == PV_NONE ? pc_expr_int(a, 0) : pc_py_as_expr(&lo);
            const pc_expr *h = hi.kind == PV_NONE ? dim : pc_py_as_expr(&hi);
            const pc_expr *stp = st.kind == PV_NONE ? pc_expr_int(a, 1) : pc_py_as_expr(&st);
            int64_t x;
            /* negative constant bounds count from the end (Python slice rules) */
            if (l && pc_expr_is_int(l, &x) && x < 0)
                l = dim ? pc_expr_bin(a, PC_EXPR_ADD, dim, l) : NULL;
            if (h && pc_expr_is_int(h, &x) && x < 0)
                h = dim ? pc_expr_bin(a, PC_EXPR_ADD, dim, h) : NULL;
            const pc_expr *ext = l && h ? pc_expr_bin(a, PC_EXPR_SUB, h, l) : NULL;
            if (ext && stp && !(pc_expr_is_int(stp, &x) && x == 1))
                ext = pc_expr_bin(a, PC_EXPR_CEILDIV, ext, stp);
            if (!ext || !stp)
                known = false;
            else
                s[ns++] = ext;
        } else {
            ki->all_empty = false;
            pc_py_val iv = pc_py_eval(c, e);
            if (iv.kind != PV_INT && iv.kind != PV_BOOL) {
                /* a tensor index (gather/scatter) or something we cannot see */
                ki->all_int = false;
                known = false;
            }
        }
    }
    if (known)
        while (d < ndims)
            s[ns++] = shape[d++];
    *out = known ? s : NULL;
    *nout = known ? ns : -1;
}

/* ---- pypto ops ------------------------------------------------------------------------------ */

typedef enum opkind {
    OP_ELEM,       /* elementwise over its tensor operands (broadcasting) */
    OP_REDUCE,     /* (input, dim=-1, keepdim=False) */
    OP_ARGREDUCE,  /* like OP_REDUCE, INT32 result */
    OP_MATMUL,     /* (a, b, out_dtype, a_trans=, b_trans=) */
    OP_CAST,       /* (input, dtype) */
    OP_TRANSPOSE,  /* (input, dim0, dim1) */
    OP_PERMUTE,    /* (input, dims) */
    OP_CONCAT,     /* (tensors, dim) */
    OP_EXPAND,     /* (input, shape) */
    OP_COMPARE,    /* elementwise, BOOL result */
    OP_OPAQUE      /* a tensor op whose result shape poolcheck does not infer */
} opkind;

static const struct opdesc { const char *name; opkind kind; pc_unit unit; } ops[] = {
    /* cube */
    {"matmul", OP_MATMUL, PC_UNIT_CUBE}, {"batch_matmul", OP_MATMUL, PC_UNIT_CUBE},
    {"bmm", OP_MATMUL, PC_UNIT_CUBE}, {"matmul_mx", OP_MATMUL, PC_UNIT_CUBE},
    {"quant_matmul", OP_MATMUL, PC_UNIT_CUBE}, {"transposed_batchmatmul", OP_MATMUL, PC_UNIT_CUBE},
    {"conv2d", OP_OPAQUE, PC_UNIT_CUBE}, {"conv", OP_OPAQUE, PC_UNIT_CUBE},
    /* vector, elementwise */
    {"add", OP_ELEM, PC_UNIT_VECTOR}, {"sub", OP_ELEM, PC_UNIT_VECTOR}, {"mul", OP_ELEM, PC_UNIT_VECTOR},
    {"div", OP_ELEM, PC_UNIT_VECTOR}, {"maximum", OP_ELEM, PC_UNIT_VECTOR}, {"minimum", OP_ELEM, PC_UNIT_VECTOR},
    {"pow", OP_ELEM, PC_UNIT_VECTOR}, {"fmod", OP_ELEM, PC_UNIT_VECTOR}, {"remainder", OP_ELEM, PC_UNIT_VECTOR},
    {"exp", OP_ELEM, PC_UNIT_VECTOR}, {"exp2", OP_ELEM, PC_UNIT_VECTOR}, {"expm1", OP_ELEM, PC_UNIT_VECTOR},
    {"log", OP_ELEM, PC_UNIT_VECTOR}, {"log1p", OP_ELEM, PC_UNIT_VECTOR}, {"sqrt", OP_ELEM, PC_UNIT_VECTOR},
    {"rsqrt", OP_ELEM, PC_UNIT_VECTOR}, {"abs", OP_ELEM, PC_UNIT_VECTOR}, {"neg", OP_ELEM, PC_UNIT_VECTOR},
    {"reciprocal", OP_ELEM, PC_UNIT_VECTOR}, {"relu", OP_ELEM, PC_UNIT_VECTOR}, {"gelu", OP_ELEM, PC_UNIT_VECTOR},
    {"silu", OP_ELEM, PC_UNIT_VECTOR}, {"sigmoid", OP_ELEM, PC_UNIT_VECTOR}, {"tanh", OP_ELEM, PC_UNIT_VECTOR},
    {"sin", OP_ELEM, PC_UNIT_VECTOR}, {"cos", OP_ELEM, PC_UNIT_VECTOR}, {"sign", OP_ELEM, PC_UNIT_VECTOR},
    {"floor", OP_ELEM, PC_UNIT_VECTOR}, {"ceil", OP_ELEM, PC_UNIT_VECTOR}, {"round", OP_ELEM, PC_UNIT_VECTOR},
    {"trunc", OP_ELEM, PC_UNIT_VECTOR}, {"erf", OP_ELEM, PC_UNIT_VECTOR}, {"clip", OP_ELEM, PC_UNIT_VECTOR},
    {"clamp", OP_ELEM, PC_UNIT_VECTOR}, {"where", OP_ELEM, PC_UNIT_VECTOR}, {"softmax", OP_ELEM, PC_UNIT_VECTOR},
    {"log_softmax", OP_ELEM, PC_UNIT_VECTOR}, {"layer_norm", OP_ELEM, PC_UNIT_VECTOR},
    {"rms_norm", OP_ELEM, PC_UNIT_VECTOR}, {"logical_and", OP_COMPARE, PC_UNIT_VECTOR},
    {"logical_or", OP_COMPARE, PC_UNIT_VECTOR}, {"logical_not", OP_COMPARE, PC_UNIT_VECTOR},
    {"bitwise_and", OP_ELEM, PC_UNIT_VECTOR}, {"bitwise_or", OP_ELEM, PC_UNIT_VECTOR},
    {"bitwise_xor", OP_ELEM, PC_UNIT_VECTOR}, {"bitwise_not", OP_ELEM, PC_UNIT_VECTOR},
    {"eq", OP_COMPARE, PC_UNIT_VECTOR}, {"ne", OP_COMPARE, PC_UNIT_VECTOR}, {"lt", OP_COMPARE, PC_UNIT_VECTOR},
    {"le", OP_COMPARE, PC_UNIT_VECTOR}, {"gt", OP_COMPARE, PC_UNIT_VECTOR}, {"ge", OP_COMPARE, PC_UNIT_VECTOR},
    {"isnan", OP_COMPARE, PC_UNIT_VECTOR}, {"isinf", OP_COMPARE, PC_UNIT_VECTOR},
    {"clone", OP_ELEM, PC_UNIT_VECTOR}, {"copy", OP_ELEM, PC_UNIT_VECTOR}, {"contiguous", OP_ELEM, PC_UNIT_VECTOR},
    {"online_softmax", OP_OPAQUE, PC_UNIT_VECTOR}, {"online_softmax_update", OP_OPAQUE, PC_UNIT_VECTOR},
    /* vector, shape-changing */
    {"sum", OP_REDUCE, PC_UNIT_VECTOR}, {"amax", OP_REDUCE, PC_UNIT_VECTOR}, {"amin", OP_REDUCE, PC_UNIT_VECTOR},
    {"mean", OP_REDUCE, PC_UNIT_VECTOR}, {"prod", OP_REDUCE, PC_UNIT_VECTOR}, {"max", OP_REDUCE, PC_UNIT_VECTOR},
    {"min", OP_REDUCE, PC_UNIT_VECTOR}, {"var", OP_REDUCE, PC_UNIT_VECTOR}, {"std", OP_REDUCE, PC_UNIT_VECTOR},
    {"logsumexp", OP_REDUCE, PC_UNIT_VECTOR}, {"argmax", OP_ARGREDUCE, PC_UNIT_VECTOR},
    {"argmin", OP_ARGREDUCE, PC_UNIT_VECTOR}, {"cast", OP_CAST, PC_UNIT_VECTOR}, {"to", OP_CAST, PC_UNIT_VECTOR},
    {"transpose", OP_TRANSPOSE, PC_UNIT_VECTOR}, {"permute", OP_PERMUTE, PC_UNIT_VECTOR},
    {"concat", OP_CONCAT, PC_UNIT_VECTOR}, {"cat", OP_CONCAT, PC_UNIT_VECTOR},
    {"expand", OP_EXPAND, PC_UNIT_VECTOR}, {"broadcast_to", OP_EXPAND, PC_UNIT_VECTOR},
    {"expand_clone", OP_EXPAND, PC_UNIT_VECTOR},
    {"gather", OP_OPAQUE, PC_UNIT_VECTOR}, {"index_select", OP_OPAQUE, PC_UNIT_VECTOR},
    {"scatter", OP_OPAQUE, PC_UNIT_VECTOR}, {"topk", OP_OPAQUE, PC_UNIT_VECTOR}, {"sort", OP_OPAQUE, PC_UNIT_VECTOR},
    {"cumsum", OP_ELEM, PC_UNIT_VECTOR}, {"gather_in_l1", OP_OPAQUE, PC_UNIT_VECTOR},
    {"gather_in_ub", OP_OPAQUE, PC_UNIT_VECTOR},
};

static const struct opdesc *find_op(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

/* x's shape permuted by the constant list p (NULL when either is not known). */
static const pc_expr **permuted(pc_py_ctx *c, const pc_expr **xs, int xn, const pc_py_val *p)
{
    if (!xs || xn < 0 || !p || p->kind != PV_SEQ || p->nitems != xn)
        return NULL;
    const pc_expr **s = shape_alloc(c, xn);
    for (int i = 0; i < xn; i++) {
        int64_t v;
        int k = const_int(&p->items[i], &v) ? norm_dim(v, xn) : -1;
        if (k < 0)
            return NULL;
        s[i] = xs[k];
    }
    return s;
}

/* Run op `d` with evaluated arguments (self, when a method, is pos[0]). */
static pc_py_val apply_op(pc_py_ctx *c, const struct opdesc *d, args *a, const pc_py_node *at)
{
    /* Reads first, in argument order, with the op's unit. */
    for (int i = 0; i < a->npos; i++)
        if (tensorish(&a->pos[i]) || a->pos[i].kind == PV_SEQ)
            read_operand(c, &a->pos[i], d->unit, a->posnode[i]);
    for (int i = 0; i < a->call->list2.count; i++)
        if (tensorish(&a->kw[i]))
            read_operand(c, &a->kw[i], d->unit, a->call->list2.items[i]);

    /* Pending operands were materialised by the reads; views keep their own shape. */
    pc_py_val *x = a->npos > 0 ? &a->pos[0] : NULL;
    const pc_expr **xs = NULL;
    int xn = -1;
    pc_dtype xdt = PC_DT_UNKNOWN;
    if (x && tensorish(x))
        tensor_shape(c, x, (const pc_expr ***)&xs, &xn, &xdt);
    pc_arena *ar = marena(c);

    switch (d->kind) {
    case OP_ELEM:
    case OP_COMPARE: {
        const pc_expr **s = NULL;
        int n = -1;
        pc_dtype dt = PC_DT_UNKNOWN;
        bool first = true;
        for (int i = 0; i < a->npos; i++) {
            if (!tensorish(&a->pos[i]))
                continue;
            const pc_expr **ts;
            int tn;
            pc_dtype tdt;
            tensor_shape(c, &a->pos[i], (const pc_expr ***)&ts, &tn, &tdt);
            if (first) {
                s = ts;
                n = tn;
                dt = tdt;
                first = false;
            } else {
                broadcast(c, s, n, ts, tn, (const pc_expr ***)&s, &n);
            }
        }
        if (d->kind == OP_COMPARE)
            dt = PC_DT_BOOL;
        return pending(c, d->unit, dt, s, n);
    }
    case OP_REDUCE:
    case OP_ARGREDUCE: {
        pc_dtype dt = d->kind == OP_ARGREDUCE ? PC_DT_INT32 : xdt;
        if (!xs || xn < 0)
            return pending(c, d->unit, dt, NULL, -1);
        pc_py_val *dimv = arg(a, 1, "dim");
        if (!dimv)
            dimv = arg(a, -1, "axis");
        if (!dimv)
            dimv = arg(a, -1, "dims");
        bool keep = arg_truth(c, a, 2, "keepdim") == 1 || arg_truth(c, a, -1, "keep_dim") == 1 ||
                    arg_truth(c, a, -1, "keepdims") == 1;
        bool reduced[64] = {false};
        if (xn > 64)
            return pending(c, d->unit, dt, NULL, -1);
        int64_t v;
        if (!dimv || dimv->kind == PV_NONE) {
            if (!dimv && xn > 0)
                reduced[xn - 1] = true; /* default axis -1, as the C++ API */
            else
                for (int i = 0; i < xn; i++)
                    reduced[i] = true;
        } else if (const_int(dimv, &v)) {
            int k = norm_dim(v, xn);
            if (k < 0)
                return pending(c, d->unit, dt, NULL, -1);
            reduced[k] = true;
        } else if (dimv->kind == PV_SEQ) {
            for (int i = 0; i < dimv->nitems; i++) {
                int k = const_int(&dimv->items[i], &v) ? norm_dim(v, xn) : -1;
                if (k < 0)
                    return pending(c, d->unit, dt, NULL, -1);
                reduced[k] = true;
            }
        } else {
            return pending(c, d->unit, dt, NULL, -1);
        }
        const pc_expr **s = shape_alloc(c, xn);
        int n = 0;
        for (int i = 0; i < xn; i++) {
            if (!reduced[i])
                s[n++] = xs[i];
            else if (keep)
                s[n++] = pc_expr_int(ar, 1);
        }
        return pending(c, d->unit, dt, s, n);
    }
    case OP_MATMUL: {
        pc_py_tiles_matmul(c, a->npos > 0 ? a->posnode[0] : arg_node(a, -1, "input"), a->npos > 1 ? a->posnode[1] : arg_node(a, -1, "mat2"), arg_truth(c, a, -1, "a_trans"), arg_truth(c, a, -1, "b_trans"));
        pc_py_val *b = a->npos > 1 ? &a->pos[1] : arg(a, -1, "mat2");
        pc_dtype dt = dtype_of(arg(a, 2, "out_dtype"));
        if (dt == PC_DT_UNKNOWN)
            dt = xdt;
        const pc_expr **bs = NULL;
        int bn = -1;
        pc_dtype bdt;
        if (b && tensorish(b))
            tensor_shape(c, b, (const pc_expr ***)&bs, &bn, &bdt);
        if (!xs || !bs || xn < 2 || bn < 2)
            return pending(c, d->unit, dt, NULL, -1);
        bool at_ = arg_truth(c, a, -1, "a_trans") == 1, bt = arg_truth(c, a, -1, "b_trans") == 1;
        const pc_expr *m = at_ ? xs[xn - 1] : xs[xn - 2];
        const pc_expr *nn = bt ? bs[bn - 2] : bs[bn - 1];
        const pc_expr **lead = xn >= bn ? xs : bs;
        int nl = (xn >= bn ? xn : bn) - 2;
        const pc_expr **s = shape_alloc(c, nl + 2);
        for (int i = 0; i < nl; i++)
            s[i] = lead[i];
        s[nl] = m;
        s[nl + 1] = nn;
        return pending(c, d->unit, dt, s, nl + 2);
    }
    case OP_CAST: {
        pc_dtype dt = dtype_of(arg(a, 1, "dtype"));
        return pending(c, d->unit, dt, xs, xn);
    }
    case OP_TRANSPOSE: {
        int64_t d0 = -2, d1 = -1;
        pc_py_val *v0 = arg(a, 1, "dim0"), *v1 = arg(a, 2, "dim1");
        if (v0 && v0->kind == PV_SEQ && !v1) /* transpose(x, [0, 1, 3, 2]): a permutation */
            return pending(c, d->unit, xdt, permuted(c, xs, xn, v0), xn);
        if ((v0 && !const_int(v0, &d0)) || (v1 && !const_int(v1, &d1)) || !xs)
            return pending(c, d->unit, xdt, NULL, -1);
        int k0 = norm_dim(d0, xn), k1 = norm_dim(d1, xn);
        if (k0 < 0 || k1 < 0)
            return pending(c, d->unit, xdt, NULL, -1);
        const pc_expr **s = shape_alloc(c, xn);
        memcpy(s, xs, (size_t)xn * sizeof *s);
        s[k0] = xs[k1];
        s[k1] = xs[k0];
        return pending(c, d->unit, xdt, s, xn);
    }
    case OP_PERMUTE:
        return pending(c, d->unit, xdt, permuted(c, xs, xn, arg(a, 1, "dims")), xn);
    case OP_CONCAT: {
        pc_py_val *list = arg(a, 0, "tensors");
        int64_t dim = 0;
        pc_py_val *dv = arg(a, 1, "dim");
        if (!dv)
            dv = arg(a, -1, "axis");
        if (!list || list->kind != PV_SEQ || list->nitems == 0 || (dv && !const_int(dv, &dim)))
            return pending(c, d->unit, PC_DT_UNKNOWN, NULL, -1);
        const pc_expr **s = NULL, **ts;
        int n = -1, tn, k = -1;
        pc_dtype dt = PC_DT_UNKNOWN, tdt;
        for (int i = 0; i < list->nitems; i++) {
            if (!tensorish(&list->items[i]))
                return pending(c, d->unit, dt, NULL, -1);
            tensor_shape(c, &list->items[i], (const pc_expr ***)&ts, &tn, &tdt);
            if (!ts)
                return pending(c, d->unit, tdt, NULL, -1);
            if (i == 0) {
                n = tn;
                k = norm_dim(dim, n);
                if (k < 0)
                    return pending(c, d->unit, tdt, NULL, -1);
                s = shape_alloc(c, n);
                memcpy(s, ts, (size_t)n * sizeof *s);
                dt = tdt;
            } else if (tn == n) {
                s[k] = pc_expr_bin(ar, PC_EXPR_ADD, s[k], ts[k]);
            }
        }
        return pending(c, d->unit, dt, s, n);
    }
    case OP_EXPAND: {
        pc_py_val *sv = arg(a, 1, "shape");
        const pc_expr **s;
        int n;
        if (sv && shape_of_value(c, sv, (const pc_expr ***)&s, &n))
            return pending(c, d->unit, xdt, s, n);
        return pending(c, d->unit, xdt, NULL, -1);
    }
    case OP_OPAQUE:
        break;
    }
    return pending(c, d->unit, xdt, NULL, -1);
}

/* pypto.tensor / Tensor(shape, dtype, name), full(size, fill_value, dtype), zeros/ones(*size, dtype=). */
static pc_py_val create_tensor(pc_py_ctx *c, const char *leaf, args *a)
{
    pc_py_val v = mkval(PV_CREATE);
    v.ndims = -1;
    pc_py_val *shape = NULL, *dt = NULL, *name = NULL;
    if (strcmp(leaf, "tensor") == 0 || strcmp(leaf, "Tensor") == 0) {
        shape = arg(a, 0, "shape");
        dt = arg(a, 1, "dtype");
        name = arg(a, 2, "name");
        v.unit = PC_UNIT_NONE;
        v.dtype = PC_DT_FP32; /* pypto.tensor's default dtype */
    } else if (strcmp(leaf, "full") == 0) {
        shape = arg(a, 0, "size");
        dt = arg(a, 2, "dtype");
        v.unit = PC_UNIT_VECTOR;
        v.dtype = PC_DT_FP32;
    } else { /* zeros, ones: *size */
        dt = arg(a, -1, "dtype");
        v.unit = PC_UNIT_VECTOR;
        v.dtype = PC_DT_FP32;
        if (a->npos == 1)
            shape = &a->pos[0];
        else if (a->npos > 1) {
            pc_py_val *seq = pc_arena_alloc(c->scratch, sizeof *seq);
            *seq = mkval(PV_SEQ);
            seq->items = a->pos;
            seq->nitems = a->npos;
            shape = seq;
        } else {
            shape = arg(a, -1, "size");
        }
    }
    if (dt && dt->kind == PV_DTYPE)
        v.dtype = dt->dtype;
    else if (dt && dt->kind != PV_NONE)
        v.dtype = PC_DT_UNKNOWN;
    if (name && name->kind == PV_STR)
        v.s = name->s;
    const pc_expr **s;
    int n;
    /* tensor/full take a shape sequence; a lone integer is a 1-d size only for zeros/ones(*size) */
    bool seq_only = strcmp(leaf, "zeros") != 0 && strcmp(leaf, "ones") != 0;
    if (shape && !(seq_only && shape->kind == PV_INT) && shape_of_value(c, shape, (const pc_expr ***)&s, &n)) {
        v.shape = s;
        v.ndims = n;
    }
    return v;
}

/* pypto.view(input, shape, offsets, *, valid_shape, dtype) and pypto.reshape(input, shape). */
static pc_py_val make_view(pc_py_ctx *c, pc_py_val *input, pc_py_val *shape, pc_py_val *dtype,
                           const pc_py_node *at)
{
    if (!input || !tensorish(input))
        return pc_py_unknown();
    const pc_expr **s = NULL;
    int n = -1;
    pc_dtype dt;
    if (input->kind == PV_PENDING || input->kind == PV_CREATE)
        pc_py_materialise(c, input, NULL, at);
    tensor_shape(c, input, (const pc_expr ***)&s, &n, &dt);
    pc_py_val v = mkval(PV_VIEW);
    v.tensor = input->tensor;
    v.dtype = dt;
    v.node = at;
    if (shape && shape->kind != PV_NONE) {
        if (!shape_of_value(c, shape, (const pc_expr ***)&s, &n)) {
            s = NULL;
            n = -1;
        }
    }
    if (dtype && dtype->kind == PV_DTYPE)
        v.dtype = dtype->dtype;
    v.shape = s;
    v.ndims = s ? n : -1;
    return v;
}

/* ---- calls ---------------------------------------------------------------------------------- */

void pc_py_unanalysed(pc_py_ctx *c, const pc_py_node *at, const char *what)
{
    if (!in_kernel(c))
        return;
    pc_kernel *k = pc_py_kernel(c);
    pc_loc loc = pc_py_loc(c, at);
    /* one PC012 per place: a helper inlined many times, an unrolled loop, say it once */
    for (int i = 0; i < k->nstmts; i++) {
        const pc_stmt *st = &k->stmts[i];
        if (st->kind == PC_STMT_UNANALYSED && st->loc.line == loc.line && st->loc.col == loc.col &&
            st->loc.file == loc.file)
            return;
    }
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_UNANALYSED, loc);
    k = pc_py_kernel(c);
    k->stmts[sid].has_op = false;
    k->stmts[sid].message = pc_model_strdup(c->m, what);
    pc_py_block_append(c, sid);
}

static void note_unanalysed(pc_py_ctx *c, const pc_py_node *at, const char *what) { pc_py_unanalysed(c, at, what); }

/* A call poolcheck cannot see into: record the reads of its tensor arguments (so their liveness
 * is right) and say what was skipped (PC012). */
static pc_py_val opaque_call(pc_py_ctx *c, const char *what, args *a, const pc_py_node *call)
{
    bool tensors = false;
    for (int i = 0; i < a->npos; i++)
        if (tensorish(&a->pos[i]) || (a->pos[i].kind == PV_SEQ)) {
            read_operand(c, &a->pos[i], PC_UNIT_VECTOR, a->posnode[i]);
            tensors |= tensorish(&a->pos[i]);
        }
    for (int i = 0; i < call->list2.count; i++)
        if (tensorish(&a->kw[i])) {
            read_operand(c, &a->kw[i], PC_UNIT_VECTOR, call->list2.items[i]);
            tensors = true;
        }
    if (tensors && in_kernel(c)) {
        char *msg = pc_arena_printf(c->scratch,
                                    "call to '%s' with tensor arguments: it is neither a pypto op nor a "
                                    "function defined in this file, so its writes and results are not modelled",
                                    what);
        note_unanalysed(c, call, msg);
    }
    return pc_py_unknown();
}

static pc_py_val call_builtin(pc_py_ctx *c, const char *q, args *a, const pc_py_node *call)
{
    pc_arena *ar = marena(c);
    int64_t x;
    if (strcmp(q, "range") == 0) {
        /* range(n) over a name poolcheck cannot evaluate: the symbol n (bindable) */
        for (int i = 0; i < a->npos; i++)
            if (a->pos[i].kind == PV_UNKNOWN && a->posnode[i] && a->posnode[i]->kind == PY_NAME)
                a->pos[i] = sym_val(c, a->posnode[i]->name);
        pc_py_val v = mkval(PV_RANGE);
        v.items = pc_arena_alloc(c->scratch, 3 * sizeof *v.items);
        v.nitems = 3;
        if (a->npos == 1) {
            v.items[0] = pc_py_int(c, 0);
            v.items[1] = a->pos[0];
            v.items[2] = pc_py_int(c, 1);
        } else if (a->npos >= 2) {
            v.items[0] = a->pos[0];
            v.items[1] = a->pos[1];
            v.items[2] = a->npos >= 3 ? a->pos[2] : pc_py_int(c, 1);
        } else {
            return pc_py_unknown();
        }
        return v;
    }
    if ((strcmp(q, "min") == 0 || strcmp(q, "max") == 0) && a->npos >= 1) {
        pc_py_val *items = a->pos;
        int n = a->npos;
        if (n == 1 && a->pos[0].kind == PV_SEQ) {
            items = a->pos[0].items;
            n = a->pos[0].nitems;
        }
        const pc_expr *acc = NULL;
        for (int i = 0; i < n; i++) {
            const pc_expr *e = pc_py_as_expr(&items[i]);
            if (!e)
                return pc_py_unknown();
            acc = acc ? pc_expr_bin(ar, q[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, acc, e) : e;
        }
        return expr_val(acc);
    }
    if (strcmp(q, "len") == 0 && a->npos == 1) {
        if (a->pos[0].kind == PV_SEQ)
            return pc_py_int(c, a->pos[0].nitems);
        if (a->pos[0].kind == PV_SHAPE && a->pos[0].shape)
            return pc_py_int(c, a->pos[0].ndims);
        return pc_py_unknown();
    }
    if ((strcmp(q, "int") == 0 || strcmp(q, "math.floor") == 0 || strcmp(q, "math.trunc") == 0) && a->npos == 1) {
        if (a->pos[0].kind == PV_INT)
            return a->pos[0];
        if (a->pos[0].kind == PV_BOOL)
            return pc_py_int(c, a->pos[0].i);
        if (a->pos[0].kind == PV_FLOAT && isfinite(a->pos[0].f) && fabs(a->pos[0].f) < 9e18)
            return pc_py_int(c, q[0] == 'm' && q[5] == 'f' ? (int64_t)floor(a->pos[0].f) : (int64_t)a->pos[0].f);
        if (a->pos[0].kind == PV_STR)
            return pc_py_unknown();
        return pc_py_unknown();
    }
    if (strcmp(q, "math.ceil") == 0 && a->npos == 1) {
        const pc_py_node *n = a->posnode[0];
        if (a->pos[0].kind == PV_FLOAT && isfinite(a->pos[0].f) && fabs(a->pos[0].f) < 9e18)
            return pc_py_int(c, (int64_t)ceil(a->pos[0].f));
        /* math.ceil(a / b) on integers is the ceiling division the loop bounds need */
        if (n && n->kind == PY_BINOP && n->op == PY_OP_DIV && a->pos[0].kind == PV_INT && a->pos[0].e &&
            a->pos[0].e->kind == PC_EXPR_DIV)
            return expr_val(pc_expr_bin(ar, PC_EXPR_CEILDIV, a->pos[0].e->a, a->pos[0].e->b));
        if (a->pos[0].kind == PV_INT)
            return a->pos[0];
        return pc_py_unknown();
    }
    if (strcmp(q, "abs") == 0 && a->npos == 1 && const_int(&a->pos[0], &x))
        return pc_py_int(c, x < 0 ? -x : x);
    if (strcmp(q, "float") == 0 && a->npos == 1) {
        pc_py_val v = mkval(PV_FLOAT);
        if (const_int(&a->pos[0], &x))
            v.f = (double)x;
        else if (a->pos[0].kind == PV_FLOAT)
            v.f = a->pos[0].f;
        else
            return pc_py_unknown();
        return v;
    }
    if ((strcmp(q, "list") == 0 || strcmp(q, "tuple") == 0) && a->npos == 1 && a->pos[0].kind == PV_SEQ) {
        pc_py_val v = a->pos[0];
        v.is_list = q[0] == 'l';
        return v;
    }
    if ((strcmp(q, "list") == 0 || strcmp(q, "tuple") == 0) && a->npos == 1 && a->pos[0].kind == PV_SHAPE &&
        a->pos[0].shape) {
        pc_py_val v = mkval(PV_SEQ);
        v.nitems = a->pos[0].ndims;
        v.items = pc_arena_alloc(c->scratch, (size_t)(v.nitems + 1) * sizeof *v.items);
        for (int i = 0; i < v.nitems; i++)
            v.items[i] = expr_val(a->pos[0].shape[i]);
        return v;
    }
    if (strcmp(q, "print") == 0 || strcmp(q, "isinstance") == 0 || strcmp(q, "str") == 0 ||
        strcmp(q, "repr") == 0 || strncmp(q, "logging.", 8) == 0 || strncmp(q, "logger.", 7) == 0)
        return pc_py_unknown();
    return opaque_call(c, q, a, call);
}

static bool seq_has_tensor(const pc_py_val *v)
{
    for (int i = 0; i < v->nitems; i++)
        if (tensorish(&v->items[i]) || (v->items[i].kind == PV_SEQ && seq_has_tensor(&v->items[i])))
            return true;
    return false;
}

static pc_py_val call_pypto(pc_py_ctx *c, const char *q, const pc_py_node *call)
{
    const char *leaf = api_leaf(q);
    if (pc_py_option_call(c, call, c->kernel, in_kernel(c)))
        return mkval(PV_NONE);
    if (pc_py_tiles_call(c, leaf, call))
        return mkval(PV_NONE);
    args a;
    eval_args(c, call, &a);
    if (strcmp(leaf, "dynamic") == 0) {
        pc_py_val *n = arg(&a, 0, "name");
        if (n && n->kind == PV_STR)
            return sym_val(c, n->s);
        return pc_py_unknown();
    }
    if (strcmp(leaf, "tensor") == 0 || strcmp(leaf, "Tensor") == 0 || strcmp(leaf, "full") == 0 ||
        strcmp(leaf, "zeros") == 0 || strcmp(leaf, "ones") == 0)
        return create_tensor(c, leaf, &a);
    if (strcmp(leaf, "view") == 0)
        return make_view(c, arg(&a, 0, "input"), arg(&a, 1, "shape"), arg(&a, -1, "dtype"), call);
    if (strcmp(leaf, "reshape") == 0)
        return make_view(c, arg(&a, 0, "input"), arg(&a, 1, "shape"), NULL, call);
    if (strcmp(leaf, "assemble") == 0) {
        /* assemble(src, offsets, dst) or assemble([(src, offsets), ...], dst) */
        pc_py_val *first = arg(&a, 0, "src");
        pc_py_val *dst;
        const pc_py_node *dstnode;
        pc_unit unit = PC_UNIT_NONE;
        if (first && first->kind == PV_SEQ) {
            dst = arg(&a, 1, "dst");
            dstnode = arg_node(&a, 1, "dst");
            for (int i = 0; i < first->nitems; i++) {
                pc_py_val *item = &first->items[i];
                pc_py_val *src = item->kind == PV_SEQ && item->nitems > 0 ? &item->items[0] : item;
                if (src->kind == PV_PENDING || src->kind == PV_CREATE)
                    unit = src->unit != PC_UNIT_NONE ? src->unit : unit;
                else
                    read_operand(c, src, PC_UNIT_NONE, a.posnode[0]);
            }
        } else {
            dst = arg(&a, 2, "dst");
            dstnode = arg_node(&a, 2, "dst");
            if (first && (first->kind == PV_PENDING || first->kind == PV_CREATE))
                unit = first->unit;
            else if (first)
                read_operand(c, first, PC_UNIT_NONE, arg_node(&a, 0, "src"));
        }
        if (dst && dst->kind == PV_TENSOR)
            pc_py_access(c, dst->tensor, PC_ACC_WRITE_ASSEMBLE, unit, dstnode);
        else if (dst && dst->kind == PV_VIEW)
            pc_py_access(c, dst->tensor, PC_ACC_WRITE_ASSEMBLE, unit, dstnode);
        return mkval(PV_NONE);
    }
    if (strcmp(leaf, "cond") == 0 || strcmp(leaf, "is_loop_begin") == 0 || strcmp(leaf, "is_loop_end") == 0)
        return pc_py_unknown(); /* decided on the device: a dynamic branch */
    if (strncmp(leaf, "set_", 4) == 0 || strncmp(leaf, "get_", 4) == 0 || strcmp(leaf, "options") == 0 ||
        strcmp(leaf, "nop") == 0)
        return mkval(PV_NONE); /* tile shapes, pass and codegen options: no tensor work */
    if (leaf[0] && leaf[strlen(leaf) - 1] == '_' && a.npos > 0 && tensorish(&a.pos[0])) {
        /* in-place ops (index_put_, index_add_, ...): element writes into their first argument */
        for (int i = 1; i < a.npos; i++)
            read_operand(c, &a.pos[i], PC_UNIT_VECTOR, a.posnode[i]);
        if (a.pos[0].kind == PV_TENSOR || a.pos[0].kind == PV_VIEW)
            pc_py_access(c, a.pos[0].tensor, PC_ACC_WRITE_ELEMENT, PC_UNIT_VECTOR, a.posnode[0]);
        return mkval(PV_NONE);
    }
    bool tensors = false;
    for (int i = 0; i < a.npos; i++)
        tensors |= tensorish(&a.pos[i]) || (a.pos[i].kind == PV_SEQ && seq_has_tensor(&a.pos[i]));
    for (int i = 0; i < call->list2.count; i++)
        tensors |= tensorish(&a.kw[i]);
    if (!tensors) {
        /* pypto.min / pypto.max on SymbolicScalars (loop bounds, valid shapes) */
        if (strcmp(leaf, "min") == 0 || strcmp(leaf, "max") == 0)
            return call_builtin(c, leaf, &a, call);
        return pc_py_unknown();
    }
    const struct opdesc *d = find_op(leaf);
    if (d)
        return apply_op(c, d, &a, call);
    /* An op poolcheck has no shape rule for: vector work with an unknown result shape. */
    static const struct opdesc opaque = {"?", OP_OPAQUE, PC_UNIT_VECTOR};
    if (in_kernel(c))
        pc_py_note_check(c, "PC013", call, "'%s': result shape not inferred (not in poolcheck's op table)", q);
    return apply_op(c, &opaque, &a, call);
}

/* x.method(...) on a tensor value. */
static pc_py_val call_method(pc_py_ctx *c, pc_py_val *self, const char *method, const pc_py_node *call)
{
    args a;
    eval_args(c, call, &a);
    /* self becomes positional argument 0 */
    args b = a;
    b.pos = pc_arena_alloc(c->scratch, (size_t)(a.npos + 1) * sizeof *b.pos);
    b.posnode = pc_arena_alloc(c->scratch, (size_t)(a.npos + 1) * sizeof *b.posnode);
    b.pos[0] = *self;
    b.posnode[0] = call->a ? call->a->a : call;
    for (int i = 0; i < a.npos; i++) {
        b.pos[i + 1] = a.pos[i];
        b.posnode[i + 1] = a.posnode[i];
    }
    b.npos = a.npos + 1;
    if (strcmp(method, "move") == 0) {
        /* t.move(e): a whole write of t (Tensor.Move) */
        pc_py_val *src = a.npos > 0 ? &a.pos[0] : NULL;
        pc_unit unit = PC_UNIT_NONE;
        if (src && (src->kind == PV_PENDING || src->kind == PV_CREATE))
            unit = src->unit;
        else if (src)
            read_operand(c, src, PC_UNIT_NONE, a.posnode[0]);
        if (self->kind == PV_TENSOR || self->kind == PV_VIEW)
            pc_py_access(c, self->tensor, PC_ACC_WRITE_WHOLE, unit, call->a->a);
        return mkval(PV_NONE);
    }
    if (strcmp(method, "set_cache_policy") == 0 || strcmp(method, "get_cache_policy") == 0 ||
        strcmp(method, "is_empty") == 0)
        return mkval(PV_NONE); /* Tensor metadata (tensor.py): no tensor work */
    if (strcmp(method, "view") == 0)
        return make_view(c, self, arg(&a, 0, "shape"), arg(&a, -1, "dtype"), call);
    if (strcmp(method, "reshape") == 0) {
        pc_py_val *shape = arg(&a, 0, "shape");
        if (shape && a.npos > 1) { /* x.reshape(a, b) */
            pc_py_val *seq = pc_arena_alloc(c->scratch, sizeof *seq);
            *seq = mkval(PV_SEQ);
            seq->items = a.pos;
            seq->nitems = a.npos;
            shape = seq;
        }
        return make_view(c, self, shape, NULL, call);
    }
    if (strcmp(method, "size") == 0 || strcmp(method, "dim") == 0) {
        const pc_expr **s;
        int n;
        pc_dtype dt;
        tensor_shape(c, self, (const pc_expr ***)&s, &n, &dt);
        int64_t d;
        if (strcmp(method, "dim") == 0)
            return s ? pc_py_int(c, n) : pc_py_unknown();
        if (a.npos == 1 && const_int(&a.pos[0], &d) && s && norm_dim(d, n) >= 0)
            return expr_val(s[norm_dim(d, n)]);
        return pc_py_unknown();
    }
    const struct opdesc *d = find_op(method);
    if (d)
        return apply_op(c, d, &b, call);
    if (method[0] && method[strlen(method) - 1] == '_') {
        for (int i = 0; i < a.npos; i++)
            read_operand(c, &a.pos[i], PC_UNIT_VECTOR, a.posnode[i]);
        if (self->kind == PV_TENSOR || self->kind == PV_VIEW)
            pc_py_access(c, self->tensor, PC_ACC_WRITE_ELEMENT, PC_UNIT_VECTOR, call->a->a);
        return mkval(PV_NONE);
    }
    char *what = pc_arena_printf(c->scratch, "Tensor.%s", method);
    return opaque_call(c, what, &b, call);
}

/* Calls that only print or log at trace time. */
static bool is_no_op_call(const char *q)
{
    static const char *const exact[] = {"print", "breakpoint", "warnings.warn", "pprint", "pprint.pprint"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcmp(q, exact[i]) == 0)
            return true;
    static const char *const prefix[] = {"logging.", "logger.", "log.", "LOGGER.", "LOG.", "_logger.", "self.logger."};
    for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
        if (strncmp(q, prefix[i], strlen(prefix[i])) == 0)
            return true;
    return false;
}

static pc_py_val eval_call(pc_py_ctx *c, const pc_py_node *n)
{
    const pc_py_node *fn = n->a;
    const char *q = pc_py_qualname(c, fn);
    if (q && strncmp(q, "pypto.", 6) == 0)
        return call_pypto(c, q, n);
    if (q && in_kernel(c)) {
        /* a helper of another module of the project (read from its source, never run) */
        pc_py_val *fv = pc_py_foreign(c, q, n);
        if (fv && fv->kind == PV_FUNC)
            return pc_py_inline_call(c, fv, n);
    }
    if (q && is_no_op_call(q)) {
        /* printing and logging: no operation, and their arguments (f-strings) are not work */
        return mkval(PV_NONE);
    }
    if (q) {
        args a;
        eval_args(c, n, &a);
        return call_builtin(c, q, &a, n);
    }
    if (fn && fn->kind == PY_ATTRIBUTE) {
        pc_py_val self = pc_py_eval(c, fn->a);
        if (tensorish(&self))
            return call_method(c, &self, fn->name, n);
        if (self.kind == PV_SHAPE || self.kind == PV_SEQ) {
            args a;
            eval_args(c, n, &a);
            return pc_py_unknown();
        }
        if ((self.kind == PV_INT || self.kind == PV_BOOL) &&
            (strcmp(fn->name, "as_variable") == 0 || strcmp(fn->name, "item") == 0) && n->list1.count == 0)
            return self; /* SymbolicScalar.as_variable(): still the same scalar */
        if (self.kind == PV_INT && (strcmp(fn->name, "min") == 0 || strcmp(fn->name, "max") == 0)) {
            /* SymbolicScalar.min(x) / .max(x): valid shapes of the last, partial tile */
            args a;
            eval_args(c, n, &a);
            const pc_expr *o = a.npos == 1 ? pc_py_as_expr(&a.pos[0]) : NULL;
            if (!o)
                return pc_py_unknown();
            return expr_val(pc_expr_bin(marena(c), fn->name[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, self.e, o));
        }
        args a;
        eval_args(c, n, &a);
        return opaque_call(c, fn->name, &a, n);
    }
    pc_py_val f = pc_py_eval(c, fn);
    if (f.kind == PV_FUNC)
        return pc_py_inline_call(c, &f, n);
    args a;
    eval_args(c, n, &a);
    return opaque_call(c, "<expression>", &a, n);
}

/* ---- operators ------------------------------------------------------------------------------ */

static pc_py_val binop(pc_py_ctx *c, pc_py_op op, pc_py_val *l, pc_py_val *r, const pc_py_node *ln,
                       const pc_py_node *rn, const pc_py_node *at)
{
    pc_arena *ar = marena(c);
    if (tensorish(l) || tensorish(r)) {
        /* tensor arithmetic: `a + b`, `x * 2.0`, `a @ b` */
        args a;
        memset(&a, 0, sizeof a);
        pc_py_node fake;
        memset(&fake, 0, sizeof fake);
        fake.kind = PY_CALL;
        a.call = &fake;
        pc_py_val vals[2] = {*l, *r};
        const pc_py_node *nodes[2] = {ln, rn};
        a.pos = vals;
        a.posnode = nodes;
        a.npos = 2;
        static const struct opdesc elem = {"binop", OP_ELEM, PC_UNIT_VECTOR};
        static const struct opdesc cmp = {"compare", OP_COMPARE, PC_UNIT_VECTOR};
        static const struct opdesc mm = {"matmul", OP_MATMUL, PC_UNIT_CUBE};
        const struct opdesc *d = op == PY_OP_MATMUL ? &mm : (op >= PY_OP_EQ && op <= PY_OP_GE) ? &cmp : &elem;
        (void)at;
        return apply_op(c, d, &a, at);
    }
    int64_t x, y;
    bool lx = const_int(l, &x), ry = const_int(r, &y);
    if ((l->kind == PV_FLOAT || r->kind == PV_FLOAT || (op == PY_OP_DIV && lx && ry)) &&
        (l->kind == PV_FLOAT || lx) && (r->kind == PV_FLOAT || ry)) {
        double a = l->kind == PV_FLOAT ? l->f : (double)x, b = r->kind == PV_FLOAT ? r->f : (double)y;
        pc_py_val v = mkval(PV_FLOAT);
        switch (op) {
        case PY_OP_ADD: v.f = a + b; break;
        case PY_OP_SUB: v.f = a - b; break;
        case PY_OP_MUL: v.f = a * b; break;
        case PY_OP_DIV: if (b == 0) return pc_py_unknown(); v.f = a / b; break;
        case PY_OP_POW: v.f = pow(a, b); break;
        case PY_OP_FLOORDIV: if (b == 0) return pc_py_unknown(); v.f = floor(a / b); break;
        default: return pc_py_unknown();
        }
        return v;
    }
    if (l->kind == PV_STR && r->kind == PV_STR && op == PY_OP_ADD) {
        pc_py_val v = mkval(PV_STR);
        v.s = pc_arena_printf(c->scratch, "%s%s", l->s, r->s);
        return v;
    }
    const pc_expr *le = l->kind == PV_BOOL ? pc_expr_int(ar, l->i) : pc_py_as_expr(l);
    const pc_expr *re = r->kind == PV_BOOL ? pc_expr_int(ar, r->i) : pc_py_as_expr(r);
    if (!le || !re)
        return pc_py_unknown();
    switch (op) {
    case PY_OP_ADD: return expr_val(pc_expr_bin(ar, PC_EXPR_ADD, le, re));
    case PY_OP_SUB: return expr_val(pc_expr_bin(ar, PC_EXPR_SUB, le, re));
    case PY_OP_MUL: return expr_val(pc_expr_bin(ar, PC_EXPR_MUL, le, re));
    case PY_OP_FLOORDIV:
        if (ry && y == 0)
            return pc_py_unknown();
        return expr_val(pc_expr_bin(ar, PC_EXPR_FLOORDIV, le, re));
    case PY_OP_MOD:
        if (ry && y == 0)
            return pc_py_unknown();
        return expr_val(pc_expr_bin(ar, PC_EXPR_MOD, le, re));
    case PY_OP_DIV:
        /* symbolic true division: kept as a division so math.ceil(a / b) can become ceil(a/b) */
        return expr_val(pc_expr_bin(ar, PC_EXPR_DIV, le, re));
    case PY_OP_POW:
        if (lx && ry && y >= 0 && y < 64) {
            /* 10**19 does not fit: unknown, never a wrapped-around loop bound */
            int64_t p = 1;
            for (int64_t i = 0; i < y; i++)
                if (__builtin_mul_overflow(p, x, &p))
                    return pc_py_unknown();
            return pc_py_int(c, p);
        }
        return pc_py_unknown();
    case PY_OP_LSHIFT:
        /* 5 << 61 overflows: unknown */
        if (lx && ry && y >= 0 && y < 63 && x >= 0 && x <= (INT64_MAX >> y))
            return pc_py_int(c, x << y);
        return pc_py_unknown();
    case PY_OP_RSHIFT:
        if (lx && ry && y >= 0 && y < 64)
            return pc_py_int(c, x >> y);
        return pc_py_unknown();
    case PY_OP_BITAND: if (lx && ry) return pc_py_int(c, x & y); return pc_py_unknown();
    case PY_OP_BITOR: if (lx && ry) return pc_py_int(c, x | y); return pc_py_unknown();
    case PY_OP_BITXOR: if (lx && ry) return pc_py_int(c, x ^ y); return pc_py_unknown();
    default: return pc_py_unknown();
    }
}

static bool expr_same(const pc_expr *a, const pc_expr *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    if (a->kind == PC_EXPR_INT)
        return a->value == b->value;
    if (a->kind == PC_EXPR_SYM)
        return strcmp(a->name, b->name) == 0;
    return expr_same(a->a, b->a) && expr_same(a->b, b->b);
}

static pc_py_val bool_val(int64_t b)
{
    pc_py_val v = mkval(PV_BOOL);
    v.i = b != 0;
    return v;
}

int pc_py_compare_truth(pc_py_op op, const pc_py_val *l, const pc_py_val *r)
{
    int64_t x, y;
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
    if (const_int(l, &x))
        a = (double)x;
    else if (l->kind == PV_FLOAT)
        a = l->f;
    else
        return -1;
    if (const_int(r, &y))
        b = (double)y;
    else if (r->kind == PV_FLOAT)
        b = r->f;
    else
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

/* ---- expressions ---------------------------------------------------------------------------- */

/* A dotted pypto name as a value: a dtype, a dim marker, or a module/function reference. */
static pc_py_val pypto_name(const char *q)
{
    const char *leaf = api_leaf(q);
    if (leaf) {
        pc_dtype dt;
        if (strncmp(leaf, "DT_", 3) == 0 && (dt = pc_dtype_from_name(leaf)) != PC_DT_UNKNOWN) {
            pc_py_val v = mkval(PV_DTYPE);
            v.dtype = dt;
            return v;
        }
        if (strcmp(leaf, "DYNAMIC") == 0 || strcmp(leaf, "DYN") == 0 || strcmp(leaf, "STATIC") == 0) {
            pc_py_val v = mkval(PV_DIMMARK);
            v.s = leaf;
            return v;
        }
    }
    pc_py_val v = mkval(PV_MODULE);
    v.s = q;
    return v;
}

static pc_py_val eval_name(pc_py_ctx *c, const pc_py_node *n)
{
    pc_py_val *b = pc_py_lookup(c->frame, n->name);
    if (b) {
        if (b->kind == PV_CREATE && in_kernel(c)) {
            /* A tensor made outside the kernel (before `with pypto.function`, or at module level)
             * is one of its inputs/outputs: it becomes a parameter on first use. */
            pc_py_val host = *b;
            int id = pc_py_new_tensor(c, n->name, PC_TENSOR_PARAM, host.dtype, host.shape, host.ndims, n);
            if (host.s && *host.s)
                pc_py_kernel(c)->tensors[id].name = pc_model_strdup(c->m, host.s);
            pc_py_val t = mkval(PV_TENSOR);
            t.tensor = id;
            pc_py_bind(c, c->frame, n->name, t);
            return t;
        }
        if (b->kind == PV_MODULE && b->s && strncmp(b->s, "pypto", 5) != 0) {
            /* `from .config import BLOCK`: the value bound in that module */
            pc_py_val *fv = pc_py_foreign(c, b->s, n);
            if (fv && fv->kind != PV_MODULE)
                return *fv;
        }
        return *b;
    }
    const char *q = pc_py_qualname(c, n);
    if (q && strncmp(q, "pypto.", 6) == 0)
        return pypto_name(q);
    /* An unknown name: a symbol the user can bind (--bind n=100). */
    return sym_val(c, n->name);
}

static pc_py_val eval_attribute(pc_py_ctx *c, const pc_py_node *n)
{
    const char *q = pc_py_qualname(c, n);
    if (q && strncmp(q, "pypto", 5) != 0) {
        pc_py_val *fv = pc_py_foreign(c, q, n);
        if (fv && fv->kind != PV_MODULE)
            return *fv;
    }
    if (q)
        return pypto_name(q);
    pc_py_val base = pc_py_eval(c, n->a);
    if (tensorish(&base)) {
        const pc_expr **s;
        int nd;
        pc_dtype dt;
        if (base.kind == PV_PENDING || base.kind == PV_CREATE)
            pc_py_materialise(c, &base, NULL, n->a);
        tensor_shape(c, &base, (const pc_expr ***)&s, &nd, &dt);
        if (strcmp(n->name, "shape") == 0) {
            pc_py_val v = mkval(PV_SHAPE);
            v.tensor = base.tensor;
            v.shape = s;
            v.ndims = s ? nd : -1;
            return v;
        }
        if (strcmp(n->name, "dtype") == 0) {
            pc_py_val v = mkval(PV_DTYPE);
            v.dtype = dt;
            return v;
        }
        if (strcmp(n->name, "ndim") == 0 && s)
            return pc_py_int(c, nd);
        if (strcmp(n->name, "T") == 0 && s && nd >= 2) {
            static const struct opdesc tr = {"transpose", OP_TRANSPOSE, PC_UNIT_VECTOR};
            args a;
            memset(&a, 0, sizeof a);
            pc_py_node fake;
            memset(&fake, 0, sizeof fake);
            fake.kind = PY_CALL;
            a.call = &fake;
            pc_py_val vals[1] = {base};
            const pc_py_node *nodes[1] = {n->a};
            a.pos = vals;
            a.posnode = nodes;
            a.npos = 1;
            return apply_op(c, &tr, &a, n);
        }
    }
    return pc_py_unknown();
}

/* model.md 2, "Scalars are not tensors": a tensor indexed by a scalar in every dimension is one
 * element read (upstream GetTensorData): a symbolic scalar named by its spelling
 * (`seqlens[b+1]`), no tensor, no pool.  A key holding a tensor (an index tensor, a slice whose
 * stop is a tensor) is a gather: an operation on the vector unit.  Returns false for a view. */
static bool scalar_or_gather(pc_py_ctx *c, const pc_py_node *n, pc_py_val *base, const pc_expr **shape, int nd,
                             pc_dtype dt, pc_py_val *out)
{
    const pc_py_node *key = n->b;
    const pc_py_node *single[1] = {key};
    const pc_py_node *const *elems = single;
    int count = 1;
    if (key && key->kind == PY_TUPLE) {
        elems = (const pc_py_node *const *)key->list1.items;
        count = key->list1.count;
    }
    if (!key || count == 0)
        return false;
    bool all_scalar = true;
    pc_py_val tens[8];
    const pc_py_node *tnodes[8];
    int ntens = 0;
    const pc_expr **idx = pc_arena_alloc(c->scratch, (size_t)count * sizeof *idx);
    for (int i = 0; i < count; i++) {
        const pc_py_node *e = elems[i];
        if (!e || e->kind == PY_ELLIPSIS || e->kind == PY_NONE || e->kind == PY_STARRED) {
            all_scalar = false;
            continue;
        }
        if (e->kind == PY_SLICE) {
            all_scalar = false;
            const pc_py_node *parts[3] = {e->a, e->b, e->c};
            for (int p = 0; p < 3; p++) {
                if (!parts[p] || parts[p]->kind == PY_INT || parts[p]->kind == PY_NAME)
                    continue; /* names are looked up again by the view; constants are constants */
                pc_py_val v = pc_py_eval(c, parts[p]);
                if (tensorish(&v) && ntens < 8) {
                    tnodes[ntens] = parts[p];
                    tens[ntens++] = v;
                }
            }
            /* a name bound to a tensor as a bound */
            for (int p = 0; p < 3; p++)
                if (parts[p] && parts[p]->kind == PY_NAME) {
                    pc_py_val *b = pc_py_lookup(c->frame, parts[p]->name);
                    if (b && tensorish(b) && ntens < 8) {
                        tnodes[ntens] = parts[p];
                        tens[ntens++] = *b;
                    }
                }
            continue;
        }
        pc_py_val v = pc_py_eval(c, e);
        if (tensorish(&v)) {
            all_scalar = false;
            if (ntens < 8) {
                tnodes[ntens] = e;
                tens[ntens++] = v;
            }
        } else if (v.kind == PV_INT) {
            idx[i] = v.e;
        } else if (v.kind == PV_BOOL) {
            idx[i] = pc_expr_int(marena(c), v.i);
        } else {
            all_scalar = false;
        }
    }
    if (ntens > 0) {
        /* gather: reads the base and the index tensors, makes a value of unknown shape */
        read_operand(c, base, PC_UNIT_VECTOR, n->a);
        for (int i = 0; i < ntens; i++)
            read_operand(c, &tens[i], PC_UNIT_VECTOR, tnodes[i]);
        *out = pending(c, PC_UNIT_VECTOR, dt, NULL, -1);
        return true;
    }
    bool int_dtype = dt == PC_DT_INT32 || dt == PC_DT_INT64 || dt == PC_DT_INT16 || dt == PC_DT_INT8 ||
                     dt == PC_DT_UINT8 || dt == PC_DT_UINT16 || dt == PC_DT_UINT32 || dt == PC_DT_UINT64;
    /* every dimension indexed; with the rank still open only an integer tensor is read this way */
    if (!all_scalar || !((shape && nd == count) || (!shape && int_dtype)))
        return false;
    pc_sb sb = {0};
    pc_sb_append(&sb, pc_py_source_text(c->src, n->a->line, n->a->col, n->a->end_line, n->a->end_col));
    pc_sb_putc(&sb, '[');
    for (int i = 0; i < count; i++) {
        char *t = pc_expr_to_string(idx[i]);
        if (i)
            pc_sb_putc(&sb, ',');
        for (const char *p = t ? t : "?"; *p; p++)
            if (*p != ' ')
                pc_sb_putc(&sb, *p); /* `seqlens[b+1]`: one shell word in --bind advice */
        pc_mem_free(t);
    }
    pc_sb_putc(&sb, ']');
    char *name = pc_sb_take(&sb);
    if (base->kind == PV_TENSOR || base->kind == PV_VIEW)
        pc_py_access(c, base->tensor, PC_ACC_READ, PC_UNIT_NONE, n);
    *out = sym_val(c, pc_model_strdup(c->m, name));
    pc_mem_free(name);
    return true;
}

static pc_py_val eval_subscript(pc_py_ctx *c, const pc_py_node *n)
{
    pc_py_val base = pc_py_eval(c, n->a);
    int64_t idx;
    if (base.kind == PV_SHAPE || base.kind == PV_SEQ) {
        int count = base.kind == PV_SHAPE ? base.ndims : base.nitems;
        if (n->b && n->b->kind == PY_SLICE) {
            pc_py_val lo = n->b->a ? pc_py_eval(c, n->b->a) : pc_py_int(c, 0);
            pc_py_val hi = n->b->b ? pc_py_eval(c, n->b->b) : pc_py_int(c, count);
            int64_t l, h;
            if (count < 0 || n->b->c || !const_int(&lo, &l) || !const_int(&hi, &h))
                return pc_py_unknown();
            if (l < 0) l += count;
            if (h < 0) h += count;
            if (l < 0) l = 0;
            if (h > count) h = count;
            pc_py_val v = mkval(PV_SEQ);
            v.items = pc_arena_alloc(c->scratch, (size_t)(h > l ? h - l + 1 : 1) * sizeof *v.items);
            for (int64_t i = l; i < h; i++)
                v.items[v.nitems++] = base.kind == PV_SHAPE ? expr_val(base.shape[i]) : base.items[i];
            return v;
        }
        pc_py_val iv = pc_py_eval(c, n->b);
        if (count < 0 && base.kind == PV_SHAPE && const_int(&iv, &idx) && idx >= 0 && idx < 64) {
            /* x.shape[3] of a parameter whose rank is still open: its dim 3, a symbol */
            struct pc_py_open_param *op = in_kernel(c) ? pc_py_open_param(c, base.tensor) : NULL;
            if (op)
                return idx < op->nprefix ? expr_val(op->prefix[idx])
                                         : sym_val(c, pc_arena_printf(c->scratch, "%s.shape[%d]", op->name, (int)idx));
        }
        if (count < 0 || !const_int(&iv, &idx))
            return pc_py_unknown();
        int k = norm_dim(idx, count);
        if (k < 0)
            return pc_py_unknown();
        return base.kind == PV_SHAPE ? expr_val(base.shape[k]) : base.items[k];
    }
    if (tensorish(&base)) {
        if (base.kind == PV_PENDING || base.kind == PV_CREATE)
            pc_py_materialise(c, &base, NULL, n->a);
        const pc_expr **s;
        int nd;
        pc_dtype dt;
        tensor_shape(c, &base, (const pc_expr ***)&s, &nd, &dt);
        pc_py_val special;
        if (scalar_or_gather(c, n, &base, s, nd, dt, &special))
            return special;
        const pc_expr **out;
        int nout;
        keyinfo ki;
        subscript_shape(c, s, nd, n->b, (const pc_expr ***)&out, &nout, &ki);
        pc_py_val v = mkval(PV_VIEW);
        v.tensor = base.tensor;
        v.dtype = dt;
        v.shape = out;
        v.ndims = out ? nout : -1;
        v.node = n;
        return v;
    }
    if (n->b)
        (void)pc_py_eval(c, n->b);
    return pc_py_unknown();
}

/* What a user calls an expression kind CPython names ListComp, GeneratorExp, ... */
static const char *expr_kind_words(const char *cls)
{
    static const struct { const char *cls, *words; } names[] = {
        {"ListComp", "list comprehension"}, {"SetComp", "set comprehension"},
        {"DictComp", "dict comprehension"}, {"GeneratorExp", "generator expression"},
        {"NamedExpr", "':=' assignment"}, {"Await", "await"}, {"Yield", "yield"}, {"YieldFrom", "yield from"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(names[i].cls, cls) == 0)
            return names[i].words;
    return cls;
}

/* Does an unmodelled expression mention a tensor or a pypto function (without evaluating it)? */
static bool touches_tensors(pc_py_ctx *c, const pc_py_node *n, int depth)
{
    if (!n || depth > 64)
        return false;
    if (n->kind == PY_NAME) {
        pc_py_val *v = pc_py_lookup(c->frame, n->name);
        if (v)
            return tensorish(v) || (v->kind == PV_MODULE && v->s && strncmp(v->s, "pypto", 5) == 0);
        return false;
    }
    /* x.shape, x.dtype, pypto.DT_FP32: reading metadata is no tensor work */
    if (n->kind == PY_ATTRIBUTE && n->name &&
        (strcmp(n->name, "shape") == 0 || strcmp(n->name, "dtype") == 0 || strcmp(n->name, "ndim") == 0 ||
         strncmp(n->name, "DT_", 3) == 0))
        return false;
    const pc_py_node *kids[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3; i++)
        if (touches_tensors(c, kids[i], depth + 1))
            return true;
    const pc_py_list *lists[3] = {&n->list1, &n->list2, &n->list3};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->count; i++)
            if (touches_tensors(c, lists[l]->items[i], depth + 1))
                return true;
    return false;
}

pc_py_val pc_py_eval(pc_py_ctx *c, const pc_py_node *n)
{
    if (!n)
        return pc_py_unknown();
    pc_arena *ar = marena(c);
    switch (n->kind) {
    case PY_INT:
        return n->big ? pc_py_unknown() : pc_py_int(c, n->ivalue);
    case PY_FLOAT: {
        pc_py_val v = mkval(PV_FLOAT);
        v.f = n->fvalue;
        return v;
    }
    case PY_BOOL:
        return bool_val(n->ivalue);
    case PY_STR: {
        pc_py_val v = mkval(PV_STR);
        v.s = n->str;
        return v;
    }
    case PY_NONE:
        return mkval(PV_NONE);
    case PY_NAME:
        return eval_name(c, n);
    case PY_ATTRIBUTE:
        return eval_attribute(c, n);
    case PY_SUBSCRIPT:
        return eval_subscript(c, n);
    case PY_CALL:
        return eval_call(c, n);
    case PY_TUPLE:
    case PY_LIST: {
        pc_py_val v = mkval(PV_SEQ);
        v.is_list = n->kind == PY_LIST;
        v.node = n;
        int cap = n->list1.count + 1;
        v.items = pc_arena_alloc(c->scratch, (size_t)cap * sizeof *v.items);
        for (int i = 0; i < n->list1.count; i++) {
            const pc_py_node *e = n->list1.items[i];
            if (e && e->kind == PY_STARRED) {
                pc_py_val s = pc_py_eval(c, e->a);
                if (s.kind != PV_SEQ)
                    return pc_py_unknown();
                v.items = pc_arena_grow(c->scratch, v.items, (size_t)cap, (size_t)(cap + s.nitems), sizeof *v.items);
                cap += s.nitems;
                for (int j = 0; j < s.nitems; j++)
                    v.items[v.nitems++] = s.items[j];
                continue;
            }
            v.items[v.nitems++] = pc_py_eval(c, e);
        }
        return v;
    }
    case PY_DICT: {
        pc_py_val v = mkval(PV_DICT);
        v.node = n;
        return v;
    }
    case PY_BINOP: {
        pc_py_val l = pc_py_eval(c, n->a), r = pc_py_eval(c, n->b);
        return binop(c, n->op, &l, &r, n->a, n->b, n);
    }
    case PY_UNARYOP: {
        pc_py_val x = pc_py_eval(c, n->a);
        if (tensorish(&x)) {
            pc_py_val zero = pc_py_int(c, 0);
            if (n->op == PY_OP_UADD)
                return x;
            return binop(c, PY_OP_SUB, &zero, &x, n, n->a, n);
        }
        if (n->op == PY_OP_NOT) {
            int t = pc_py_truth(c, &x);
            return t < 0 ? pc_py_unknown() : bool_val(!t);
        }
        if (n->op == PY_OP_UADD)
            return x;
        if (n->op == PY_OP_USUB) {
            if (x.kind == PV_FLOAT) {
                x.f = -x.f;
                return x;
            }
            if (x.kind == PV_BOOL)
                return pc_py_int(c, -x.i);
            if (x.kind == PV_INT)
                return expr_val(pc_expr_neg(ar, x.e));
        }
        if (n->op == PY_OP_INVERT) {
            int64_t v;
            if (const_int(&x, &v))
                return pc_py_int(c, ~v);
        }
        return pc_py_unknown();
    }
    case PY_BOOLOP: {
        /* and/or: decided when the operands are; every operand is evaluated for its reads */
        int result = n->op == PY_OP_AND ? 1 : 0;
        bool decided = false;
        for (int i = 0; i < n->list1.count; i++) {
            pc_py_val v = pc_py_eval(c, n->list1.items[i]);
            if (decided)
                continue;
            int t = pc_py_truth(c, &v);
            if (t < 0)
                result = -1;
            else if (n->op == PY_OP_AND && t == 0) {
                result = 0;
                decided = true;
            } else if (n->op == PY_OP_OR && t == 1) {
                result = 1;
                decided = true;
            }
        }
        return result < 0 ? pc_py_unknown() : bool_val(result);
    }
    case PY_COMPARE: {
        pc_py_val l = pc_py_eval(c, n->a);
        int result = 1;
        for (int i = 0; i < n->list1.count; i++) {
            pc_py_val r = pc_py_eval(c, n->list1.items[i]);
            if (tensorish(&l) || tensorish(&r)) {
                pc_py_op op = n->ops[i];
                if (op >= PY_OP_EQ && op <= PY_OP_GE)
                    return binop(c, op, &l, &r, n->a, n->list1.items[i], n);
                return pc_py_unknown();
            }
            int t = pc_py_compare_truth(n->ops[i], &l, &r);
            if (t < 0)
                result = -1;
            else if (t == 0 && result == 1)
                result = 0;
            l = r;
        }
        return result < 0 ? pc_py_unknown() : bool_val(result);
    }
    case PY_IFEXP: {
        pc_py_val t = pc_py_eval(c, n->a);
        int truth = pc_py_truth(c, &t);
        if (truth == 1)
            return pc_py_eval(c, n->b);
        if (truth == 0)
            return pc_py_eval(c, n->c);
        pc_py_val b = pc_py_eval(c, n->b), o = pc_py_eval(c, n->c);
        const pc_expr *be = pc_py_as_expr(&b), *oe = pc_py_as_expr(&o);
        if (be && oe && expr_same(be, oe))
            return b;
        return pc_py_unknown();
    }
    case PY_STARRED:
        return pc_py_eval(c, n->a);
    case PY_OTHER_EXPR:
        if (n->name && strcmp(n->name, "NamedExpr") == 0 && n->list1.count == 2 && n->list1.items[0] &&
            n->list1.items[0]->kind == PY_NAME) {
            /* `(n := 16)`: binds n and is its value */
            pc_py_val v = pc_py_eval(c, n->list1.items[1]);
            pc_py_assign(c, n->list1.items[0], v, n->list1.items[1]);
            return v;
        }
        /* Comprehensions, generators, walrus, await: tensor work inside them would be lost
         * silently, so say so when one mentions a tensor or a pypto function.  Lambdas only
         * define, and `[32 for _ in range(n)]` does no tensor work. */
        if (in_kernel(c) && n->name && strcmp(n->name, "Lambda") != 0 && strcmp(n->name, "JoinedStr") != 0 &&
            strcmp(n->name, "FormattedValue") != 0 && touches_tensors(c, n, 0))
            note_unanalysed(c, n, pc_arena_printf(c->scratch, "a %s in a kernel is not modelled: "
                                                  "the tensor work inside it is skipped", expr_kind_words(n->name)));
        return pc_py_unknown();
    default:
        return pc_py_unknown();
    }
}
