/*
 * py_ops.c - the pypto ops: the rules of the op table the two frontends share (frontend/ops.c:
 * unit, result-shape rule, dtype rule of each op) applied to Python values - keyword arguments,
 * reductions, matmul, transposes, concatenation, unsqueeze / squeeze, subscripts, broadcasting
 * through pc_op_broadcast - and tensor creation (pypto.tensor / full / zeros / ones) and views
 * (view / reshape).
 *
 * An op call returns a *pending* result (unit, dtype, shape) after recording the reads of its
 * operands; the pending result becomes a model tensor only when it is stored under a name or used
 * as an operand of another op (upstream materialises every op result, but the value on the right of
 * a write lands in the destination's memory - model.md section 4 - so it gets no tensor of its own).
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* ---- shapes --------------------------------------------------------------------------------- */

static const pc_expr **shape_alloc(pc_py_ctx *c, int n)
{
    return pc_arena_alloc(pc_py_marena(c), (size_t)(n > 0 ? n : 1) * sizeof(const pc_expr *));
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

pc_py_val pc_py_pending(pc_py_ctx *c, pc_unit unit, pc_dtype dt, const pc_expr **shape, int ndims)
{
    (void)c;
    pc_py_val v = pc_py_mkval(PV_PENDING);
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

int pc_py_norm_dim(int64_t d, int ndims)
{
    if (d < 0)
        d += ndims;
    return d >= 0 && d < ndims ? (int)d : -1;
}

int pc_py_key_elems(const pc_py_node *key, const pc_py_node **one, const pc_py_node *const **elems)
{
    *one = key;
    if (key && key->kind == PY_TUPLE) {
        *elems = (const pc_py_node *const *)key->list1.items;
        return key->list1.count;
    }
    *elems = one;
    return 1;
}

void pc_py_subscript_shape(pc_py_ctx *c, const pc_expr **shape, int ndims, const pc_py_node *key,
                           const pc_expr ***out, int *nout, pc_py_keyinfo *ki)
{
    const pc_py_node *one;
    const pc_py_node *const *elems;
    int n = pc_py_key_elems(key, &one, &elems);
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
    pc_arena *a = pc_py_marena(c);
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
            pc_py_val hi = e->b ? pc_py_eval(c, e->b) : pc_py_expr_val(dim);
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


const pc_op_info *pc_py_find_op(const char *name) { return pc_op_find(PC_OP_PY, name); }

/* v as an operand: its shape and dtype (unknown when v is no tensor). */
static pc_op_operand py_operand(pc_py_ctx *c, const pc_py_val *v)
{
    pc_op_operand o = {NULL, -1, PC_DT_UNKNOWN};
    if (v && pc_py_tensorish(v)) {
        const pc_expr **s;
        int n;
        pc_py_tensor_shape(c, v, (const pc_expr ***)&s, &n, &o.dtype);
        o.shape = s;
        o.ndims = s ? n : -1;
    }
    return o;
}

/* v as an integer attribute: not given, None, one integer, or a list of integers. */
static pc_op_ints py_ints(pc_py_ctx *c, const pc_py_val *v)
{
    pc_op_ints r = {PC_OPA_ABSENT, false, 0, NULL};
    if (!v)
        return r;
    if (v->kind == PV_NONE) {
        r.state = PC_OPA_NONE;
        return r;
    }
    r.state = PC_OPA_UNKNOWN;
    int n = v->kind == PV_SEQ ? v->nitems : 1;
    int64_t *vals = pc_arena_alloc(c->scratch, sizeof *vals * (size_t)(n ? n : 1));
    if (v->kind == PV_SEQ) {
        for (int i = 0; i < n; i++)
            if (!pc_py_const_int(&v->items[i], &vals[i]))
                return r;
        r.list = true;
    } else if (!pc_py_const_int(v, &vals[0])) {
        return r;
    }
    r.state = PC_OPA_KNOWN;
    r.n = n;
    r.v = vals;
    return r;
}

/* v as the shape attribute (a sequence, x.shape, one integer). */
static void shape_attr(pc_py_ctx *c, const pc_py_val *v, pc_op_attrs *at)
{
    if (!v || v->kind == PV_NONE)
        return;
    at->shape_state = shape_of_value(c, v, &at->shape, &at->ndims) ? PC_OPA_KNOWN : PC_OPA_UNKNOWN;
}

static pc_py_val pending_of(pc_py_ctx *c, pc_unit unit, pc_op_result r)
{
    return pc_py_pending(c, unit, r.dtype, r.shape, r.ndims);
}

/* The keyword spelling of a row's dtype argument in the Python API (matmul.py: out_dtype). */
static pc_py_val *dtype_arg(pc_py_args *a, const pc_op_info *op)
{
    if (!op || op->dtype != PC_OPDT_ARG || op->py_dtype_arg < 0)
        return NULL;
    return pc_py_arg(a, op->py_dtype_arg, op->shape == PC_OPSHAPE_MATMUL ? "out_dtype" : "dtype");
}

/* Run op `op` with evaluated arguments (self, when a method, is pos[0]). */
static pc_py_val op_rules(pc_py_ctx *c, const pc_op_info *op, pc_py_args *a);

/* An op: its rule (op_rules), then the reads it made carry the op's C++ name, a call id and its
 * reduction axis (pc_access.op, for the lowering rules of docs/model.md section 4; the call id is
 * the index of its first read in the statement).  The operands'
 * own ops were applied before this one (arguments are evaluated first), so every read from
 * `first` on is this call's. */
pc_py_val pc_py_apply_op(pc_py_ctx *c, const pc_op_info *op, pc_py_args *a, const pc_py_node *at)
{
    (void)at;
    int first = c->nacc, saved_axis = c->op_axis;
    c->op_axis = -1;
    pc_py_val v = op_rules(c, op, a);
    if (op && op->cpp && c->nacc >= first) {
        int call = -1; /* the index of the call's first read in its statement */
        for (int i = first; i < c->nacc; i++)
            if (c->acc[i].kind == PC_ACC_READ && !c->acc[i].op) {
                if (call < 0)
                    call = i;
                c->acc[i].op = op->cpp;
                c->acc[i].call = call;
                c->acc[i].axis = c->op_axis;
            }
    }
    c->op_axis = saved_axis;
    return v;
}

static pc_py_val op_rules(pc_py_ctx *c, const pc_op_info *op, pc_py_args *a)
{
    pc_unit unit = op ? pc_op_unit(op) : PC_UNIT_VECTOR;
    pc_op_shape rule = op ? op->shape : PC_OPSHAPE_OPAQUE;
    if (rule == PC_OPSHAPE_INPLACE) {
        /* index_put_, index_add_: element writes into their first operand, after the reads of the rest */
        for (int i = 1; i < a->npos; i++)
            pc_py_read_operand(c, &a->pos[i], unit, a->posnode[i]);
        if (a->npos > 0 && (a->pos[0].kind == PV_TENSOR || a->pos[0].kind == PV_VIEW))
            pc_py_access(c, a->pos[0].tensor, PC_ACC_WRITE_ELEMENT, unit, a->posnode[0]);
        return pc_py_mkval(PV_NONE);
    }
    /* Reads first, in argument order, with the op's unit. */
    for (int i = 0; i < a->npos; i++)
        if (pc_py_tensorish(&a->pos[i]) || a->pos[i].kind == PV_SEQ)
            pc_py_read_operand(c, &a->pos[i], unit, a->posnode[i]);
    for (int i = 0; i < a->call->list2.count; i++)
        if (pc_py_tensorish(&a->kw[i]))
            pc_py_read_operand(c, &a->kw[i], unit, a->call->list2.items[i]);

    /* Pending operands were materialised by the reads; views keep their own shape. */
    pc_py_val *x = a->npos > 0 ? &a->pos[0] : NULL;
    pc_arena *ar = pc_py_marena(c);

    pc_op_attrs at = pc_op_attrs_none(PC_OP_PY);
    pc_py_val *dt_arg = dtype_arg(a, op);
    if (dt_arg && dt_arg->kind != PV_NONE) {
        at.dtype = dtype_of(dt_arg);
        at.dtype_state = at.dtype != PC_DT_UNKNOWN ? PC_OPA_KNOWN : PC_OPA_UNKNOWN;
    }
    pc_op_operand x0 = py_operand(c, x);
    switch (rule) {
    case PC_OPSHAPE_ELEMWISE: {
        /* the positional tensor operands */
        pc_op_operand *ops = pc_arena_alloc(c->scratch, sizeof *ops * (size_t)(a->npos ? a->npos : 1));
        int n = 0;
        for (int i = 0; i < a->npos; i++)
            if (pc_py_tensorish(&a->pos[i]))
                ops[n++] = py_operand(c, &a->pos[i]);
        return pending_of(c, unit, pc_op_apply(ar, op, ops, n, &at));
    }
    case PC_OPSHAPE_REDUCE: {
        pc_py_val *dimv = pc_py_arg(a, 1, "dim");
        if (!dimv)
            dimv = pc_py_arg(a, -1, "axis");
        if (!dimv)
            dimv = pc_py_arg(a, -1, "dims");
        at.axes = py_ints(c, dimv);
        at.keepdim = pc_py_arg_truth(c, a, 2, "keepdim") == 1 || pc_py_arg_truth(c, a, -1, "keep_dim") == 1 ||
                     pc_py_arg_truth(c, a, -1, "keepdims") == 1;
        pc_op_result r = pc_op_apply(ar, op, &x0, x ? 1 : 0, &at);
        c->op_axis = r.axis;
        return pending_of(c, unit, r);
    }
    case PC_OPSHAPE_MATMUL: {
        pc_py_tiles_matmul(c, a->npos > 0 ? a->posnode[0] : pc_py_arg_node(a, -1, "input"), a->npos > 1 ? a->posnode[1] : pc_py_arg_node(a, -1, "mat2"), pc_py_arg_truth(c, a, -1, "a_trans"), pc_py_arg_truth(c, a, -1, "b_trans"));
        pc_op_operand ab[2] = {x0, py_operand(c, a->npos > 1 ? &a->pos[1] : pc_py_arg(a, -1, "mat2"))};
        at.a_trans = pc_py_arg_truth(c, a, -1, "a_trans") == 1;
        at.b_trans = pc_py_arg_truth(c, a, -1, "b_trans") == 1;
        return pending_of(c, unit, pc_op_apply(ar, op, ab, 2, &at));
    }
    case PC_OPSHAPE_GATHERMASK: {
        pc_py_val *mv = pc_py_arg(a, 1, "pattern_mode");
        at.mode_known = mv && pc_py_const_int(mv, &at.mode);
        return pending_of(c, unit, pc_op_apply(ar, op, &x0, x ? 1 : 0, &at));
    }
    case PC_OPSHAPE_TRANSPOSE: {
        pc_py_val *v0 = pc_py_arg(a, 1, "dim0"), *v1 = pc_py_arg(a, 2, "dim1");
        if (v0 && v0->kind == PV_SEQ && !v1) { /* transpose(x, [0, 1, 3, 2]): a permutation */
            at.axes = py_ints(c, v0);
        } else if (v0 || v1) { /* transpose(x, dim0, dim1): the defaults of x.T, -2 and -1 */
            int64_t *d = pc_arena_alloc(c->scratch, 2 * sizeof *d);
            d[0] = -2;
            d[1] = -1;
            bool known = (!v0 || pc_py_const_int(v0, &d[0])) && (!v1 || pc_py_const_int(v1, &d[1]));
            at.axes.state = known ? PC_OPA_KNOWN : PC_OPA_UNKNOWN;
            at.axes.n = 2;
            at.axes.v = d;
        }
        return pending_of(c, unit, pc_op_apply(ar, op, &x0, x ? 1 : 0, &at));
    }
    case PC_OPSHAPE_PERMUTE:
        at.axes = py_ints(c, pc_py_arg(a, 1, "dims"));
        return pending_of(c, unit, pc_op_apply(ar, op, &x0, x ? 1 : 0, &at));
    case PC_OPSHAPE_UNSQUEEZE:
    case PC_OPSHAPE_SQUEEZE:
        at.axes = py_ints(c, pc_py_arg(a, 1, "dim"));
        return pending_of(c, unit, pc_op_apply(ar, op, &x0, x ? 1 : 0, &at));
    case PC_OPSHAPE_CONCAT: {
        /* concat(tensors, dim = 0): the list's items are the operands (one that is no tensor: an
         * operand of unknown shape) */
        pc_py_val *list = pc_py_arg(a, 0, "tensors");
        pc_py_val *dv = pc_py_arg(a, 1, "dim");
        if (!dv)
            dv = pc_py_arg(a, -1, "axis");
        at.axes = py_ints(c, dv);
        int n = list && list->kind == PV_SEQ ? list->nitems : 0;
        pc_op_operand *ops = pc_arena_alloc(c->scratch, sizeof *ops * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            ops[i] = py_operand(c, &list->items[i]);
        return pending_of(c, unit, pc_op_apply(ar, op, ops, n, &at));
    }
    case PC_OPSHAPE_EXPAND: {
        pc_py_val *sv = pc_py_arg(a, 1, "shape");
        shape_attr(c, sv, &at);
        return pending_of(c, unit, pc_op_apply(ar, op, &x0, x ? 1 : 0, &at));
    }
    case PC_OPSHAPE_CAST:
    case PC_OPSHAPE_TUPLE: /* several results (online_softmax, topk): neither one shape nor one dtype */
    case PC_OPSHAPE_OPAQUE:
        return pending_of(c, unit, pc_op_apply(ar, op, &x0, x ? 1 : 0, &at));
    default:
        /* no row; the views, creations and writes of the table are evaluated by their callers
         * before they get here (pc_py_make_view, pc_py_create_tensor, assemble, move) */
        break;
    }
    return pending_of(c, unit, pc_op_apply(ar, NULL, &x0, x ? 1 : 0, &at));
}

/* pypto.tensor / Tensor(shape, dtype, name), full(size, fill_value, dtype), zeros/ones(*size, dtype=). */
pc_py_val pc_py_create_tensor(pc_py_ctx *c, const char *leaf, pc_py_args *a)
{
    pc_py_val v = pc_py_mkval(PV_CREATE);
    v.ndims = -1;
    pc_py_val *shape = NULL, *dt = NULL, *name = NULL;
    if (strcmp(leaf, "tensor") == 0 || strcmp(leaf, "Tensor") == 0) {
        shape = pc_py_arg(a, 0, "shape");
        dt = pc_py_arg(a, 1, "dtype");
        name = pc_py_arg(a, 2, "name");
        v.unit = PC_UNIT_NONE;
        v.dtype = PC_DT_FP32; /* pypto.tensor's default dtype */
    } else if (strcmp(leaf, "full") == 0) {
        shape = pc_py_arg(a, 0, "size");
        dt = pc_py_arg(a, 2, "dtype");
        v.unit = PC_UNIT_VECTOR;
        v.dtype = PC_DT_FP32;
    } else { /* zeros, ones: *size */
        dt = pc_py_arg(a, -1, "dtype");
        v.unit = PC_UNIT_VECTOR;
        v.dtype = PC_DT_FP32;
        if (a->npos == 1)
            shape = &a->pos[0];
        else if (a->npos > 1) {
            pc_py_val *seq = pc_arena_alloc(c->scratch, sizeof *seq);
            *seq = pc_py_mkval(PV_SEQ);
            seq->items = a->pos;
            seq->nitems = a->npos;
            shape = seq;
        } else {
            shape = pc_py_arg(a, -1, "size");
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
pc_py_val pc_py_make_view(pc_py_ctx *c, pc_py_val *input, pc_py_val *shape, pc_py_val *dtype,
                           const pc_py_node *at)
{
    if (!input || !pc_py_tensorish(input))
        return pc_py_unknown();
    if (input->kind == PV_PENDING || input->kind == PV_CREATE)
        pc_py_materialise(c, input, NULL, at);
    pc_op_operand base = py_operand(c, input);
    pc_op_attrs attrs = pc_op_attrs_none(PC_OP_PY);
    shape_attr(c, shape, &attrs);
    if (dtype && dtype->kind != PV_NONE) { /* view(x, dtype=...): upstream's View(input, dtype) */
        attrs.dtype = dtype_of(dtype);
        attrs.dtype_state = attrs.dtype != PC_DT_UNKNOWN ? PC_OPA_KNOWN : PC_OPA_UNKNOWN;
    }
    pc_op_result r = pc_op_apply(pc_py_marena(c), pc_op_find(PC_OP_PY, "view"), &base, 1, &attrs);
    pc_py_val v = pc_py_mkval(PV_VIEW);
    v.tensor = input->tensor;
    v.dtype = r.dtype;
    v.node = at;
    v.shape = r.shape;
    v.ndims = r.shape ? r.ndims : -1;
    return v;
}
