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

/* The result dtype the row's dtype rule gives: `first` is the first tensor operand's, `arg` the
 * value of the row's dtype argument (NULL when the call has none). */
static pc_dtype rule_dtype(const pc_op_info *op, pc_dtype first, const pc_py_val *arg)
{
    switch (op ? op->dtype : PC_OPDT_FIRST) {
    case PC_OPDT_FIRST:
        return first;
    case PC_OPDT_ARG:
        return op->py_dtype_arg < 0 ? first : dtype_of(arg);
    default:
        return pc_op_fixed_dtype(op->dtype);
    }
}

/* x's shape permuted by the constant list p (NULL when either is not known). */
static const pc_expr **permuted(pc_py_ctx *c, const pc_expr **xs, int xn, const pc_py_val *p)
{
    if (!xs || xn < 0 || !p || p->kind != PV_SEQ || p->nitems != xn)
        return NULL;
    const pc_expr **s = shape_alloc(c, xn);
    for (int i = 0; i < xn; i++) {
        int64_t v;
        int k = pc_py_const_int(&p->items[i], &v) ? pc_py_norm_dim(v, xn) : -1;
        if (k < 0)
            return NULL;
        s[i] = xs[k];
    }
    return s;
}

/* The keyword spelling of a row's dtype argument in the Python API (matmul.py: out_dtype). */
static pc_py_val *dtype_arg(pc_py_args *a, const pc_op_info *op)
{
    if (!op || op->dtype != PC_OPDT_ARG || op->py_dtype_arg < 0)
        return NULL;
    return pc_py_arg(a, op->py_dtype_arg, op->shape == PC_OPSHAPE_MATMUL ? "out_dtype" : "dtype");
}

/* The shape of x with a 1 inserted at axis dim (pypto.unsqueeze(input, dim): dim counts in the
 * result's rank, so -1 appends). */
static pc_py_val unsqueezed(pc_py_ctx *c, pc_unit unit, pc_dtype dt, const pc_expr **xs, int xn, pc_py_val *dimv)
{
    int64_t v;
    if (!xs || xn < 0 || !dimv || !pc_py_const_int(dimv, &v))
        return pc_py_pending(c, unit, dt, NULL, -1);
    int k = pc_py_norm_dim(v, xn + 1);
    if (k < 0)
        return pc_py_pending(c, unit, dt, NULL, -1);
    const pc_expr **s = shape_alloc(c, xn + 1);
    for (int i = 0, j = 0; i <= xn; i++)
        s[i] = i == k ? pc_expr_int(pc_py_marena(c), 1) : xs[j++];
    return pc_py_pending(c, unit, dt, s, xn + 1);
}

/* The shape of x without its constant 1-dims: all of them, or those at the listed axes. */
static pc_py_val squeezed(pc_py_ctx *c, pc_unit unit, pc_dtype dt, const pc_expr **xs, int xn, pc_py_val *dimv)
{
    bool drop[64] = {false};
    if (!xs || xn < 0 || xn > 64)
        return pc_py_pending(c, unit, dt, NULL, -1);
    int64_t v;
    for (int i = 0; i < xn; i++) {
        bool listed = !dimv || dimv->kind == PV_NONE;
        if (!listed && pc_py_const_int(dimv, &v))
            listed = pc_py_norm_dim(v, xn) == i;
        else if (!listed && dimv->kind == PV_SEQ)
            for (int j = 0; j < dimv->nitems && !listed; j++)
                listed = pc_py_const_int(&dimv->items[j], &v) && pc_py_norm_dim(v, xn) == i;
        else if (!listed)
            return pc_py_pending(c, unit, dt, NULL, -1);
        drop[i] = listed && pc_expr_is_int(xs[i], &v) && v == 1;
    }
    const pc_expr **s = shape_alloc(c, xn);
    int n = 0;
    for (int i = 0; i < xn; i++)
        if (!drop[i])
            s[n++] = xs[i];
    return pc_py_pending(c, unit, dt, s, n);
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
    const pc_expr **xs = NULL;
    int xn = -1;
    pc_dtype xdt = PC_DT_UNKNOWN;
    if (x && pc_py_tensorish(x))
        pc_py_tensor_shape(c, x, (const pc_expr ***)&xs, &xn, &xdt);
    pc_arena *ar = pc_py_marena(c);

    switch (rule) {
    case PC_OPSHAPE_ELEMWISE: {
        const pc_expr **s = NULL;
        int n = -1;
        pc_dtype dt = PC_DT_UNKNOWN, second = PC_DT_UNKNOWN;
        int ntensors = 0;
        for (int i = 0; i < a->npos; i++) {
            if (!pc_py_tensorish(&a->pos[i]))
                continue;
            const pc_expr **ts;
            int tn;
            pc_dtype tdt;
            pc_py_tensor_shape(c, &a->pos[i], (const pc_expr ***)&ts, &tn, &tdt);
            if (ntensors == 0) {
                s = ts;
                n = tn;
                dt = tdt;
            } else {
                s = pc_op_broadcast(pc_py_marena(c), s, n, ts, tn, &n);
                if (ntensors == 1)
                    second = tdt;
            }
            ntensors++;
        }
        if (op && op->dtype == PC_OPDT_VALUES)
            return pc_py_pending(c, unit, ntensors > 1 ? second : dt, s, n);
        return pc_py_pending(c, unit, rule_dtype(op, dt, NULL), s, n);
    }
    case PC_OPSHAPE_REDUCE: {
        pc_dtype dt = rule_dtype(op, xdt, NULL);
        if (!xs || xn < 0)
            return pc_py_pending(c, unit, dt, NULL, -1);
        pc_py_val *dimv = pc_py_arg(a, 1, "dim");
        if (!dimv)
            dimv = pc_py_arg(a, -1, "axis");
        if (!dimv)
            dimv = pc_py_arg(a, -1, "dims");
        bool keep = pc_py_arg_truth(c, a, 2, "keepdim") == 1 || pc_py_arg_truth(c, a, -1, "keep_dim") == 1 ||
                    pc_py_arg_truth(c, a, -1, "keepdims") == 1;
        bool reduced[64] = {false};
        if (xn > 64)
            return pc_py_pending(c, unit, dt, NULL, -1);
        int64_t v;
        if (!dimv || dimv->kind == PV_NONE) {
            if (!dimv && xn > 0)
                reduced[xn - 1] = true; /* default axis -1, as the C++ API */
            else
                for (int i = 0; i < xn; i++)
                    reduced[i] = true;
        } else if (pc_py_const_int(dimv, &v)) {
            int k = pc_py_norm_dim(v, xn);
            if (k < 0)
                return pc_py_pending(c, unit, dt, NULL, -1);
            reduced[k] = true;
        } else if (dimv->kind == PV_SEQ) {
            for (int i = 0; i < dimv->nitems; i++) {
                int k = pc_py_const_int(&dimv->items[i], &v) ? pc_py_norm_dim(v, xn) : -1;
                if (k < 0)
                    return pc_py_pending(c, unit, dt, NULL, -1);
                reduced[k] = true;
            }
        } else {
            return pc_py_pending(c, unit, dt, NULL, -1);
        }
        const pc_expr **s = shape_alloc(c, xn);
        int n = 0, nreduced = 0;
        for (int i = 0; i < xn; i++) {
            if (!reduced[i])
                s[n++] = xs[i];
            else if (keep)
                s[n++] = pc_expr_int(ar, 1);
            if (reduced[i]) {
                nreduced++;
                c->op_axis = i;
            }
        }
        if (nreduced != 1)
            c->op_axis = -1; /* the lowering rule of one reduced axis only */
        return pc_py_pending(c, unit, dt, s, n);
    }
    case PC_OPSHAPE_MATMUL: {
        pc_py_tiles_matmul(c, a->npos > 0 ? a->posnode[0] : pc_py_arg_node(a, -1, "input"), a->npos > 1 ? a->posnode[1] : pc_py_arg_node(a, -1, "mat2"), pc_py_arg_truth(c, a, -1, "a_trans"), pc_py_arg_truth(c, a, -1, "b_trans"));
        pc_py_val *b = a->npos > 1 ? &a->pos[1] : pc_py_arg(a, -1, "mat2");
        /* out_dtype; the operands' dtype when the call names none poolcheck can see */
        pc_dtype dt = rule_dtype(op, xdt, dtype_arg(a, op));
        if (dt == PC_DT_UNKNOWN && op->dtype == PC_OPDT_ARG)
            dt = xdt;
        const pc_expr **bs = NULL;
        int bn = -1;
        pc_dtype bdt;
        if (b && pc_py_tensorish(b))
            pc_py_tensor_shape(c, b, (const pc_expr ***)&bs, &bn, &bdt);
        if (!xs || !bs || xn < 2 || bn < 2)
            return pc_py_pending(c, unit, dt, NULL, -1);
        bool at_ = pc_py_arg_truth(c, a, -1, "a_trans") == 1, bt = pc_py_arg_truth(c, a, -1, "b_trans") == 1;
        const pc_expr *m = at_ ? xs[xn - 1] : xs[xn - 2];
        const pc_expr *nn = bt ? bs[bn - 2] : bs[bn - 1];
        const pc_expr **lead = xn >= bn ? xs : bs;
        int nl = (xn >= bn ? xn : bn) - 2;
        const pc_expr **s = shape_alloc(c, nl + 2);
        for (int i = 0; i < nl; i++)
            s[i] = lead[i];
        s[nl] = m;
        s[nl + 1] = nn;
        return pc_py_pending(c, unit, dt, s, nl + 2);
    }
    case PC_OPSHAPE_CAST:
        return pc_py_pending(c, unit, rule_dtype(op, xdt, dtype_arg(a, op)), xs, xn);
    case PC_OPSHAPE_GATHERMASK: {
        pc_py_val *mv = pc_py_arg(a, 1, "pattern_mode");
        int64_t mode = 0;
        int nd = -1;
        bool known = mv && pc_py_const_int(mv, &mode);
        const pc_expr **s = pc_op_gathermask_shape(ar, xs, xn, known, mode, &nd);
        return pc_py_pending(c, unit, rule_dtype(op, xdt, NULL), s, nd);
    }
    case PC_OPSHAPE_TRANSPOSE: {
        pc_dtype dt = rule_dtype(op, xdt, NULL);
        int64_t d0 = -2, d1 = -1;
        pc_py_val *v0 = pc_py_arg(a, 1, "dim0"), *v1 = pc_py_arg(a, 2, "dim1");
        if (v0 && v0->kind == PV_SEQ && !v1) /* transpose(x, [0, 1, 3, 2]): a permutation */
            return pc_py_pending(c, unit, dt, permuted(c, xs, xn, v0), xn);
        if ((v0 && !pc_py_const_int(v0, &d0)) || (v1 && !pc_py_const_int(v1, &d1)) || !xs)
            return pc_py_pending(c, unit, dt, NULL, -1);
        int k0 = pc_py_norm_dim(d0, xn), k1 = pc_py_norm_dim(d1, xn);
        if (k0 < 0 || k1 < 0)
            return pc_py_pending(c, unit, dt, NULL, -1);
        const pc_expr **s = shape_alloc(c, xn);
        memcpy(s, xs, (size_t)xn * sizeof *s);
        s[k0] = xs[k1];
        s[k1] = xs[k0];
        return pc_py_pending(c, unit, dt, s, xn);
    }
    case PC_OPSHAPE_PERMUTE:
        return pc_py_pending(c, unit, rule_dtype(op, xdt, NULL), permuted(c, xs, xn, pc_py_arg(a, 1, "dims")), xn);
    case PC_OPSHAPE_UNSQUEEZE:
        return unsqueezed(c, unit, rule_dtype(op, xdt, NULL), xs, xn, pc_py_arg(a, 1, "dim"));
    case PC_OPSHAPE_SQUEEZE:
        return squeezed(c, unit, rule_dtype(op, xdt, NULL), xs, xn, pc_py_arg(a, 1, "dim"));
    case PC_OPSHAPE_CONCAT: {
        pc_py_val *list = pc_py_arg(a, 0, "tensors");
        int64_t dim = 0;
        pc_py_val *dv = pc_py_arg(a, 1, "dim");
        if (!dv)
            dv = pc_py_arg(a, -1, "axis");
        if (!list || list->kind != PV_SEQ || list->nitems == 0 || (dv && !pc_py_const_int(dv, &dim)))
            return pc_py_pending(c, unit, PC_DT_UNKNOWN, NULL, -1);
        const pc_expr **s = NULL, **ts;
        int n = -1, tn, k = -1;
        pc_dtype dt = PC_DT_UNKNOWN, tdt;
        for (int i = 0; i < list->nitems; i++) {
            if (!pc_py_tensorish(&list->items[i]))
                return pc_py_pending(c, unit, dt, NULL, -1);
            pc_py_tensor_shape(c, &list->items[i], (const pc_expr ***)&ts, &tn, &tdt);
            if (!ts)
                return pc_py_pending(c, unit, tdt, NULL, -1);
            if (i == 0) {
                n = tn;
                k = pc_py_norm_dim(dim, n);
                if (k < 0)
                    return pc_py_pending(c, unit, tdt, NULL, -1);
                s = shape_alloc(c, n);
                memcpy(s, ts, (size_t)n * sizeof *s);
                dt = tdt;
            } else if (tn == n) {
                s[k] = pc_expr_bin(ar, PC_EXPR_ADD, s[k], ts[k]);
            }
        }
        return pc_py_pending(c, unit, dt, s, n);
    }
    case PC_OPSHAPE_EXPAND: {
        pc_dtype dt = rule_dtype(op, xdt, NULL);
        pc_py_val *sv = pc_py_arg(a, 1, "shape");
        const pc_expr **s;
        int n;
        if (sv && shape_of_value(c, sv, (const pc_expr ***)&s, &n))
            return pc_py_pending(c, unit, dt, s, n);
        return pc_py_pending(c, unit, dt, NULL, -1);
    }
    case PC_OPSHAPE_TUPLE:
        /* several results (online_softmax, topk): one value, neither one shape nor one dtype */
        return pc_py_pending(c, unit, PC_DT_UNKNOWN, NULL, -1);
    default:
        /* PC_OPSHAPE_OPAQUE; the views, creations and writes of the table are evaluated by their
         * callers before they get here (pc_py_make_view, pc_py_create_tensor, assemble, move) */
        break;
    }
    return pc_py_pending(c, unit, rule_dtype(op, xdt, dtype_arg(a, op)), NULL, -1);
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
    const pc_expr **s = NULL;
    int n = -1;
    pc_dtype dt;
    if (input->kind == PV_PENDING || input->kind == PV_CREATE)
        pc_py_materialise(c, input, NULL, at);
    pc_py_tensor_shape(c, input, (const pc_expr ***)&s, &n, &dt);
    pc_py_val v = pc_py_mkval(PV_VIEW);
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
