/*
 * ops.c - the PyPTO op table shared by the C++ and Python frontends (frontend_int.h).
 *
 * One row per operation of the PyPTO API, with its C++ spelling (framework/include/tilefwk/
 * tilefwk_op.h, namespace npu::tile_fwk and its Matrix / Conv / Distributed sub-namespaces) and its
 * Python spelling (python/pypto/op/ and the pypto package exports), NULL where one language has no
 * such op.  Both frontends look names up here, so a C++ kernel and its Python twin classify every op
 * the same way: which unit runs it (cube / vector), whether it is a view, a creation, a scalar read
 * or a data movement, and how the result's shape and dtype follow from the operands.
 *
 * Decisions taken from upstream (facts, not code):
 *   - Conv (C++ Conv::Conv, Python pypto.conv / conv2d) runs on the cube unit
 *     (interface/operation/conv_operation_impl.cpp lowers to cube tile ops) and its result shape is
 *     [N, Cout, Ho, Wo] computed from strides, paddings and dilations (ConvComputeHo/Wo); poolcheck
 *     does not evaluate those attributes, so the rule is OPAQUE (unknown shape, a cube result).  It
 *     is not a matmul: the matmul shape rule applied to NCHW operands gave a wrong shape.
 *   - Ops the table does not name fall back to each frontend's own default (the C++ frontend treats
 *     an unknown npu::tile_fwk function returning a Tensor as an elementwise vector op).
 */
#include "frontend_int.h"

#include <string.h>

#define CUBE PC_OPC_CUBE
#define VEC PC_OPC_VECTOR
#define VIEW PC_OPC_VIEW
#define CREATE PC_OPC_CREATION
#define SCALAR PC_OPC_SCALAR
#define DATA PC_OPC_DATA

/* {cpp, py, class, shape rule, dtype rule, C++ dtype argument, Python dtype argument, written args} */
#define ROW(cpp, py, cls, shape, dt, cdt, pdt) \
    {cpp, py, cls, PC_OPSHAPE_##shape, PC_OPDT_##dt, cdt, pdt, {-1, -1, -1, -1}, -1, -1, -1, -1}
#define WROW(cpp, cls, o0, o1, o2, o3) \
    {cpp, NULL, cls, PC_OPSHAPE_WRITES, PC_OPDT_NONE, -1, -1, {o0, o1, o2, o3}, -1, -1, -1, -1}
/* a matmul: C++ positions of the left operand, the right one and their transpose flags
 * (tilefwk_op.h's signatures) */
#define MROW(cpp, py, dt, cdt, pdt, a, b, at, bt) \
    {cpp, py, CUBE, PC_OPSHAPE_MATMUL, PC_OPDT_##dt, cdt, pdt, {-1, -1, -1, -1}, a, b, at, bt}

static const pc_op_info op_table[] = {
    /* ---- views and data movement (no unit of their own) ---- */
    ROW("View", "view", VIEW, VIEW, FIRST, -1, -1),
    ROW("Reshape", "reshape", VIEW, RESHAPE, FIRST, -1, -1),
    ROW("Assemble", "assemble", DATA, ASSEMBLE, NONE, -1, -1),
    ROW("AtomicRMW", NULL, DATA, ATOMIC, NONE, -1, -1),
    ROW("TensorMove", "move", DATA, MOVE, NONE, -1, -1),
    ROW("SetTensorData", NULL, DATA, SETDATA, NONE, -1, -1),
    ROW("GetTensorData", NULL, SCALAR, GETDATA, NONE, -1, -1),
    ROW("GetInputData", NULL, SCALAR, GETDATA, NONE, -1, -1),
    ROW("IndexPut_", "index_put_", VEC, INPLACE, NONE, -1, -1),
    ROW("IndexAdd_", "index_add_", VEC, INPLACE, NONE, -1, -1),
    /* ---- cube ---- */
    MROW("Matmul", "matmul", ARG, 0, 2, 1, 2, 3, 4),
    MROW("BatchMatmul", "batch_matmul", ARG, 0, 2, 1, 2, 3, 4),
    MROW(NULL, "bmm", ARG, -1, 2, -1, -1, -1, -1),
    MROW("MatmulMX", "matmul_mx", ARG, 0, 2, 1, 3, 5, 7),     /* (a, aScale, b, bScale, aT, aScaleT, bT) */
    MROW("BatchMatmulMX", NULL, ARG, 0, -1, 1, 3, 5, 7),
    MROW("TransposedBatchMatmul", "transposed_batchmatmul", ARG, 0, 2, 1, 2, -1, -1), /* (M, B, K) x (B, K, N) */
    MROW("QuantMM", "quant_matmul", UNKNOWN, -1, -1, 0, 1, -1, -1),
    ROW("Conv", "conv", CUBE, OPAQUE, ARG, 0, -1),
    ROW(NULL, "conv2d", CUBE, OPAQUE, UNKNOWN, -1, -1),
    /* ---- vector, shape-changing ---- */
    ROW("Cast", "cast", VEC, CAST, ARG, 1, 1),
    ROW(NULL, "to", VEC, CAST, ARG, -1, 1),
    ROW("Sum", "sum", VEC, REDUCE, FIRST, -1, -1),
    ROW("Amax", "amax", VEC, REDUCE, FIRST, -1, -1),
    ROW("Amin", "amin", VEC, REDUCE, FIRST, -1, -1),
    ROW("Prod", "prod", VEC, REDUCE, FIRST, -1, -1),
    ROW(NULL, "mean", VEC, REDUCE, FIRST, -1, -1),
    ROW(NULL, "max", VEC, REDUCE, FIRST, -1, -1),
    ROW(NULL, "min", VEC, REDUCE, FIRST, -1, -1),
    ROW(NULL, "var", VEC, REDUCE, FIRST, -1, -1),
    ROW(NULL, "std", VEC, REDUCE, FIRST, -1, -1),
    ROW(NULL, "logsumexp", VEC, REDUCE, FIRST, -1, -1),
    ROW("ArgMax", "argmax", VEC, REDUCE, INT32, -1, -1),
    ROW("ArgMin", "argmin", VEC, REDUCE, INT32, -1, -1),
    ROW("Full", "full", CREATE, FULL, ARG, 1, 2),
    ROW("Expand", "expand", VEC, EXPAND, FIRST, -1, -1),
    ROW(NULL, "broadcast_to", VEC, EXPAND, FIRST, -1, -1),
    ROW(NULL, "expand_clone", VEC, EXPAND, FIRST, -1, -1),
    ROW("Transpose", "transpose", VEC, TRANSPOSE, FIRST, -1, -1),
    ROW("Permute", "permute", VEC, PERMUTE, FIRST, -1, -1),
    ROW("Unsqueeze", "unsqueeze", VEC, UNSQUEEZE, FIRST, -1, -1),
    ROW("Squeeze", "squeeze", VEC, SQUEEZE, FIRST, -1, -1),
    ROW("Cat", "concat", VEC, CONCAT, FIRST, -1, -1),
    ROW(NULL, "cat", VEC, CONCAT, FIRST, -1, -1),
    /* ---- vector, elementwise (broadcast over the tensor operands) ---- */
    ROW("Add", "add", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Sub", "sub", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Mul", "mul", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Div", "div", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Maximum", "maximum", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Minimum", "minimum", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Pow", "pow", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Fmod", "fmod", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Remainder", "remainder", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Exp", "exp", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Exp2", "exp2", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Expm1", "expm1", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Log", "log", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Ln", NULL, VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Log1p", "log1p", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Sqrt", "sqrt", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Rsqrt", "rsqrt", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Abs", "abs", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Neg", "neg", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Reciprocal", "reciprocal", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Relu", "relu", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "gelu", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "silu", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Sigmoid", "sigmoid", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Tanh", "tanh", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Sin", "sin", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Cos", "cos", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Sign", "sign", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Floor", "floor", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Ceil", "ceil", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Round", "round", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Trunc", "trunc", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Erf", "erf", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Clip", "clip", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "clamp", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("Where", "where", VEC, ELEMWISE, VALUES, -1, -1), /* the values' dtype (vector/where.cpp) */
    ROW("Softmax", "softmax", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "log_softmax", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "layer_norm", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("RmsNorm", "rms_norm", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("BitwiseAnd", "bitwise_and", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("BitwiseOr", "bitwise_or", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("BitwiseXor", "bitwise_xor", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("BitwiseNot", "bitwise_not", VEC, ELEMWISE, FIRST, -1, -1),
    ROW("CumSum", "cumsum", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "clone", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "copy", VEC, ELEMWISE, FIRST, -1, -1),
    ROW(NULL, "contiguous", VEC, ELEMWISE, FIRST, -1, -1),
    /* ---- vector, BOOL results ---- */
    ROW("Compare", NULL, VEC, ELEMWISE, BOOL, -1, -1),
    ROW("LogicalNot", "logical_not", VEC, ELEMWISE, BOOL, -1, -1),
    ROW("LogicalAnd", "logical_and", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "logical_or", VEC, ELEMWISE, BOOL, -1, -1),
    ROW("IsFinite", "isfinite", VEC, ELEMWISE, BOOL, -1, -1), /* python/pypto/op/math.py isfinite */
    ROW("IsNan", "isnan", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "isinf", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "eq", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "ne", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "lt", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "le", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "gt", VEC, ELEMWISE, BOOL, -1, -1),
    ROW(NULL, "ge", VEC, ELEMWISE, BOOL, -1, -1),
    /* ---- vector, results whose shape is not a function of the operand shapes poolcheck tracks ---- */
    ROW("Gather", "gather", VEC, OPAQUE, FIRST, -1, -1),
    ROW(NULL, "index_select", VEC, OPAQUE, FIRST, -1, -1),
    ROW("Scatter", "scatter", VEC, OPAQUE, FIRST, -1, -1),
    ROW("GatherElements", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("GatherMask", "gathermask", VEC, GATHERMASK, FIRST, -1, -1), /* op/indexing.py */
    ROW("GatherInL1", "gather_in_l1", VEC, OPAQUE, FIRST, -1, -1),
    ROW("GatherInUB", "gather_in_ub", VEC, OPAQUE, FIRST, -1, -1),
    ROW("TensorIndex", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("Range", "arange", CREATE, OPAQUE, FIRST, -1, -1), /* from scalars (op/creation.py arange) */
    ROW("Uniform", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("Pad", "pad", VEC, OPAQUE, FIRST, -1, -1), /* op/other.py */
    ROW("FillPad", "fillpad", VEC, CAST, FIRST, -1, -1), /* op/other.py: the input's shape (vector/pad.cpp) */
    ROW("Maxpool", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("Reduce", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("OneHot", "one_hot", VEC, OPAQUE, FIRST, -1, -1), /* op/other.py */
    ROW("Sort32", "sort32", VEC, OPAQUE, FIRST, -1, -1), /* op/comparison.py */
    ROW("MrgSort", "mrgsort", VEC, OPAQUE, FIRST, -1, -1), /* op/comparison.py */
    ROW("TopKExtract", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("TopKMerge", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("Compact", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("NewCompact", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("Var", NULL, VEC, OPAQUE, FIRST, -1, -1),
    ROW("Quantize", NULL, VEC, OPAQUE, ARG, 2, -1),
    ROW("Dequantize", NULL, VEC, OPAQUE, ARG, 2, -1),
    ROW("Nop", "nop", VEC, OPAQUE, FIRST, -1, -1),
    ROW("OnlineSoftmax", "online_softmax", VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("OnlineSoftmaxUpdate", "online_softmax_update", VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("TopK", "topk", VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("Sort", "sort", VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("SortWithIndex", NULL, VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("Quant", NULL, VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("QuantMX", NULL, VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("TopKSort", NULL, VEC, TUPLE, UNKNOWN, -1, -1),
    ROW("Interleave", "interleave", VEC, TUPLE, UNKNOWN, -1, -1), /* op/joining.py */
    ROW("DeInterleave", "deinterleave", VEC, TUPLE, UNKNOWN, -1, -1), /* op/joining.py */
    /* ---- void ops writing through non-const Tensor& parameters (tilefwk_op.h signatures) ---- */
    WROW("SoftmaxDynamic", VEC, 1, -1, -1, -1),
    WROW("ApplyRotaryPosEmb", VEC, 5, 6, -1, -1),
    WROW("ApplyRotaryPosEmbV2", VEC, 4, 5, -1, -1),
    WROW("IncreFlashAttention", VEC, 8, -1, -1, -1),
    WROW("PageAttentionAddS", VEC, 9, 10, -1, -1),
    WROW("PageAttentionAddSSingleOutput", VEC, 9, 10, -1, -1),
    WROW("PrologPost", VEC, 11, -1, -1, -1),
    WROW("MoeDistributedDispatch", DATA, 2, 3, 4, -1),
    WROW("MoeDistributedCombine", DATA, 9, -1, -1, -1),
    WROW("MoeDistributedDispatchV2", DATA, 7, 8, 9, 10),
    WROW("MoeDistributedCombineV2", DATA, 9, -1, -1, -1),
    WROW("AllGather", DATA, 3, -1, -1, -1),
    WROW("ReduceScatter", DATA, 4, -1, -1, -1),
    WROW("OneShotAllReduce", DATA, 3, -1, -1, -1),
    WROW("TwoShotAllReduce", DATA, 3, -1, -1, -1),
};

pc_dtype pc_op_fixed_dtype(pc_op_dtype rule)
{
    switch (rule) {
    case PC_OPDT_BOOL:
        return PC_DT_BOOL;
    case PC_OPDT_INT32:
        return PC_DT_INT32;
    default:
        return PC_DT_UNKNOWN;
    }
}

const pc_op_info *pc_op_find(pc_op_lang lang, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof op_table / sizeof *op_table; i++) {
        const char *n = lang == PC_OP_CPP ? op_table[i].cpp : op_table[i].py;
        if (n && !strcmp(n, name))
            return &op_table[i];
    }
    return NULL;
}

const pc_op_info *pc_op_at(size_t i) { return i < sizeof op_table / sizeof *op_table ? &op_table[i] : NULL; }

pc_unit pc_op_unit(const pc_op_info *op)
{
    if (!op)
        return PC_UNIT_NONE;
    switch (op->cls) {
    case PC_OPC_CUBE:
        return PC_UNIT_CUBE;
    case PC_OPC_VECTOR:
    case PC_OPC_CREATION:
        return PC_UNIT_VECTOR;
    default:
        return PC_UNIT_NONE;
    }
}

/* ---- pc_op_apply: the shape and dtype rules of the table's rows --------------------------------
 *
 * Decisions where upstream (framework/src/interface/operation/, python/pypto/op/) and the two
 * frontends of before differed (facts, not code):
 *   - No rule caps the number of dimensions: shapes are arena arrays of the operand's rank
 *     (before, C++ gave up on a permutation of more than 16 axes, Python on a reduce or squeeze of
 *     more than 64).
 *   - CONCAT: upstream's CheckCat requires one rank; operands of different ranks, or one whose
 *     shape is not known, give an unknown shape (before, Python summed the operands of the first
 *     one's rank and skipped the others).  The axis defaults to 0 (pypto.concat's dim = 0).
 *   - REDUCE: the axis is one integer (absent: -1, as Sum / sum's default) or a list of axes
 *     (pypto.var's dim), each reduced; Python's None reduces every axis.  An axis written but not
 *     evaluated gives an unknown shape (before, C++ reduced the last axis).
 *   - TRANSPOSE: two axes are swapped (upstream's Transpose checks perm.size() == 2), also when the
 *     tensor has two dims; a list of every axis of a higher rank is a permutation.  PERMUTE needs a
 *     permutation of every axis (upstream's check); anything else is an unknown shape.
 *   - SQUEEZE: an empty list squeezes every 1-dim (SqueezeParamsValidCheck fills it); an axis that
 *     is not a known integer gives an unknown shape.  A tensor of one dim is returned as it is,
 *     and one whose every dim goes keeps [1] (upstream never makes a rank-0 tensor here).
 *   - MATMUL: the batch dims broadcast (upstream's std::max of the two batch sizes, one of them 1);
 *     a DataType argument written but not evaluated gives an unknown dtype.
 *   - VIEW with a dtype reinterprets the base's bits (View(operand, dstDataType); pypto.view with
 *     dtype= calls that form and ignores the shape): the last dim scaled by old / new bits. */

pc_op_attrs pc_op_attrs_none(pc_op_lang lang)
{
    pc_op_attrs at;
    memset(&at, 0, sizeof at);
    at.lang = lang;
    at.axes.state = PC_OPA_ABSENT;
    at.shape_state = PC_OPA_ABSENT;
    at.ndims = -1;
    at.dtype_state = PC_OPA_ABSENT;
    at.dtype = PC_DT_UNKNOWN;
    return at;
}

static pc_op_result unknown_result(pc_dtype dt)
{
    pc_op_result r = {true, NULL, -1, dt, -1};
    return r;
}

static pc_op_result shaped(const pc_expr **shape, int nd, pc_dtype dt)
{
    pc_op_result r = {true, nd >= 0 ? shape : NULL, nd >= 0 && shape ? nd : -1, dt, -1};
    return r;
}

static const pc_expr **dims_alloc(pc_arena *a, int n)
{
    return pc_arena_alloc(a, sizeof(const pc_expr *) * (size_t)(n > 0 ? n : 1));
}

static bool known_shape(const pc_op_operand *x) { return x && x->shape && x->ndims >= 0; }

/* An axis counted from the end when negative; -1 when outside [0, n). */
static int norm_axis(int64_t d, int n)
{
    if (d < 0)
        d += n;
    return d >= 0 && d < n ? (int)d : -1;
}

/* The one integer of an attribute (written as k or as {k}). */
static bool one_int(const pc_op_ints *v, int64_t *out)
{
    if (v->state != PC_OPA_KNOWN || v->n != 1)
        return false;
    *out = v->v[0];
    return true;
}

static pc_dtype rule_dtype(const pc_op_info *op, const pc_op_attrs *at, pc_dtype first)
{
    switch (op->dtype) {
    case PC_OPDT_FIRST:
        return first;
    case PC_OPDT_ARG: {
        int pos = at->lang == PC_OP_CPP ? op->cpp_dtype_arg : op->py_dtype_arg;
        if (pos < 0)
            return first;
        return at->dtype_state == PC_OPA_KNOWN ? at->dtype : PC_DT_UNKNOWN;
    }
    default:
        return pc_op_fixed_dtype(op->dtype);
    }
}

static pc_op_result elementwise(pc_arena *a, const pc_op_info *op, const pc_op_operand *x, int nx,
                                const pc_op_attrs *at)
{
    if (nx == 0)
        return unknown_result(rule_dtype(op, at, PC_DT_UNKNOWN));
    const pc_expr **s = x[0].ndims >= 0 ? x[0].shape : NULL;
    int n = s ? x[0].ndims : -1;
    for (int i = 1; i < nx; i++)
        s = pc_op_broadcast(a, s, n, x[i].shape, x[i].shape ? x[i].ndims : -1, &n);
    pc_dtype dt = op->dtype == PC_OPDT_VALUES ? x[nx > 1 ? 1 : 0].dtype : rule_dtype(op, at, x[0].dtype);
    return shaped(s, n, dt);
}

static pc_op_result matmul(pc_arena *a, const pc_op_info *op, const pc_op_operand *x, int nx,
                           const pc_op_attrs *at)
{
    pc_dtype dt = rule_dtype(op, at, nx > 0 ? x[0].dtype : PC_DT_UNKNOWN);
    if (nx < 2 || !known_shape(&x[0]) || !known_shape(&x[1]) || x[0].ndims < 2 || x[1].ndims < 2)
        return unknown_result(dt);
    const pc_op_operand *l = &x[0], *r = &x[1];
    int nl;
    const pc_expr **lead = pc_op_broadcast(a, l->shape, l->ndims - 2, r->shape, r->ndims - 2, &nl);
    const pc_expr **s = dims_alloc(a, nl + 2);
    for (int i = 0; i < nl; i++)
        s[i] = lead[i];
    s[nl] = at->a_trans ? l->shape[l->ndims - 1] : l->shape[l->ndims - 2];
    s[nl + 1] = at->b_trans ? r->shape[r->ndims - 2] : r->shape[r->ndims - 1];
    return shaped(s, nl + 2, dt);
}

static pc_op_result reduce(pc_arena *a, const pc_op_operand *x, const pc_op_attrs *at, pc_dtype dt)
{
    if (!known_shape(x) || at->axes.state == PC_OPA_UNKNOWN)
        return unknown_result(dt);
    int n = x->ndims;
    bool *red = pc_arena_alloc(a, (size_t)(n > 0 ? n : 1));
    memset(red, 0, (size_t)(n > 0 ? n : 1));
    if (at->axes.state == PC_OPA_NONE) {
        for (int i = 0; i < n; i++)
            red[i] = true;
    } else if (at->axes.state == PC_OPA_ABSENT) {
        if (n == 0)
            return unknown_result(dt);
        red[n - 1] = true;
    } else {
        for (int i = 0; i < at->axes.n; i++) {
            int k = norm_axis(at->axes.v[i], n);
            if (k < 0)
                return unknown_result(dt);
            red[k] = true;
        }
    }
    const pc_expr **s = dims_alloc(a, n);
    int m = 0, nred = 0, axis = -1;
    for (int i = 0; i < n; i++) {
        if (!red[i])
            s[m++] = x->shape[i];
        else {
            if (at->keepdim)
                s[m++] = pc_expr_int(a, 1);
            nred++;
            axis = i;
        }
    }
    pc_op_result r = shaped(s, m, dt);
    r.axis = nred == 1 ? axis : -1; /* the lowering rule of one reduced axis only */
    return r;
}

static pc_op_result transpose(pc_arena *a, const pc_op_info *op, const pc_op_operand *x, const pc_op_attrs *at,
                              pc_dtype dt)
{
    if (!known_shape(x) || at->axes.state == PC_OPA_UNKNOWN || at->axes.state == PC_OPA_NONE)
        return unknown_result(dt);
    int n = x->ndims;
    const pc_expr **s = dims_alloc(a, n);
    if (n > 0)
        memcpy(s, x->shape, sizeof *s * (size_t)n);
    bool swap = op->shape == PC_OPSHAPE_TRANSPOSE && (at->axes.state == PC_OPA_ABSENT || at->axes.n == 2);
    if (swap) {
        int64_t d0 = at->axes.state == PC_OPA_ABSENT ? -2 : at->axes.v[0];
        int64_t d1 = at->axes.state == PC_OPA_ABSENT ? -1 : at->axes.v[1];
        int k0 = norm_axis(d0, n), k1 = norm_axis(d1, n);
        if (k0 < 0 || k1 < 0)
            return unknown_result(dt);
        s[k0] = x->shape[k1];
        s[k1] = x->shape[k0];
        return shaped(s, n, dt);
    }
    if (at->axes.state != PC_OPA_KNOWN || !at->axes.list || at->axes.n != n)
        return unknown_result(dt);
    for (int i = 0; i < n; i++) {
        int k = norm_axis(at->axes.v[i], n);
        if (k < 0)
            return unknown_result(dt);
        s[i] = x->shape[k];
    }
    return shaped(s, n, dt);
}

static pc_op_result unsqueeze(pc_arena *a, const pc_op_operand *x, const pc_op_attrs *at, pc_dtype dt)
{
    int64_t d;
    if (!known_shape(x) || !one_int(&at->axes, &d))
        return unknown_result(dt);
    int n = x->ndims, k = norm_axis(d, n + 1);
    if (k < 0)
        return unknown_result(dt);
    const pc_expr **s = dims_alloc(a, n + 1);
    for (int i = 0, j = 0; i <= n; i++)
        s[i] = i == k ? pc_expr_int(a, 1) : x->shape[j++];
    return shaped(s, n + 1, dt);
}

static pc_op_result squeeze(pc_arena *a, const pc_op_operand *x, const pc_op_attrs *at, pc_dtype dt)
{
    if (!known_shape(x) || at->axes.state == PC_OPA_UNKNOWN)
        return unknown_result(dt);
    int n = x->ndims;
    bool all = at->axes.state != PC_OPA_KNOWN || at->axes.n == 0;
    const pc_expr **s = dims_alloc(a, n > 0 ? n : 1);
    int m = 0;
    for (int i = 0; i < n; i++) {
        bool listed = all;
        for (int j = 0; !listed && j < at->axes.n; j++)
            listed = norm_axis(at->axes.v[j], n) == i;
        int64_t v;
        if (n == 1 || !(listed && x->shape[i] && pc_expr_is_int(x->shape[i], &v) && v == 1))
            s[m++] = x->shape[i];
    }
    if (m == 0)
        s[m++] = pc_expr_int(a, 1); /* every dim squeezed: upstream keeps one of size 1 */
    return shaped(s, m, dt);
}

static pc_op_result concat(pc_arena *a, const pc_op_operand *x, int nx, const pc_op_attrs *at)
{
    pc_dtype dt = nx > 0 ? x[0].dtype : PC_DT_UNKNOWN;
    int64_t d = 0;
    if (nx == 0 || !known_shape(&x[0]) || (at->axes.state != PC_OPA_ABSENT && !one_int(&at->axes, &d)))
        return unknown_result(dt);
    int n = x[0].ndims, k = norm_axis(d, n);
    if (k < 0)
        return unknown_result(dt);
    for (int i = 1; i < nx; i++)
        if (!known_shape(&x[i]) || x[i].ndims != n)
            return unknown_result(dt); /* upstream's CheckCat: one rank for every operand */
    const pc_expr **s = dims_alloc(a, n);
    memcpy(s, x[0].shape, sizeof *s * (size_t)n);
    for (int i = 1; i < nx; i++)
        s[k] = pc_expr_bin(a, PC_EXPR_ADD, s[k], x[i].shape[k]);
    return shaped(s, n, dt);
}

static pc_op_result view(pc_arena *a, const pc_op_operand *x, int nx, const pc_op_attrs *at)
{
    const pc_op_operand none = {NULL, -1, PC_DT_UNKNOWN};
    const pc_op_operand *b = nx > 0 ? &x[0] : &none;
    if (at->dtype_state == PC_OPA_UNKNOWN)
        return unknown_result(PC_DT_UNKNOWN);
    if (at->dtype_state == PC_OPA_KNOWN) { /* the same bits seen as another dtype */
        int nd = known_shape(b) ? b->ndims : -1;
        int ob = pc_dtype_bits(b->dtype), nb = pc_dtype_bits(at->dtype);
        if (nd <= 0 || !ob || !nb || ob == nb)
            return shaped(b->shape, nd, at->dtype);
        const pc_expr **s = dims_alloc(a, nd);
        memcpy(s, b->shape, sizeof *s * (size_t)nd);
        s[nd - 1] = pc_expr_bin(a, PC_EXPR_DIV, pc_expr_bin(a, PC_EXPR_MUL, b->shape[nd - 1], pc_expr_int(a, ob)),
                                pc_expr_int(a, nb));
        return shaped(s, nd, at->dtype);
    }
    if (at->shape_state == PC_OPA_KNOWN)
        return shaped(at->shape, at->ndims, b->dtype);
    if (at->shape_state == PC_OPA_UNKNOWN)
        return unknown_result(b->dtype);
    return shaped(b->shape, b->ndims, b->dtype);
}

pc_op_result pc_op_apply(pc_arena *a, const pc_op_info *op, const pc_op_operand *x, int nx, const pc_op_attrs *at)
{
    const pc_op_operand *f = nx > 0 ? &x[0] : NULL;
    pc_dtype first = f ? f->dtype : PC_DT_UNKNOWN;
    if (!op)
        return unknown_result(first);
    pc_dtype dt = rule_dtype(op, at, first);
    switch (op->shape) {
    case PC_OPSHAPE_ELEMWISE:
        return elementwise(a, op, x, nx, at);
    case PC_OPSHAPE_MATMUL:
        return matmul(a, op, x, nx, at);
    case PC_OPSHAPE_CAST:
        return f ? shaped(f->shape, f->ndims, dt) : unknown_result(dt);
    case PC_OPSHAPE_GATHERMASK: {
        int nd = -1;
        const pc_expr **s = f ? pc_op_gathermask_shape(a, f->shape, f->shape ? f->ndims : -1, at->mode_known,
                                                       at->mode, &nd)
                              : NULL;
        return shaped(s, nd, dt);
    }
    case PC_OPSHAPE_REDUCE:
        return reduce(a, f, at, dt);
    case PC_OPSHAPE_FULL:
    case PC_OPSHAPE_EXPAND:
        return at->shape_state == PC_OPA_KNOWN ? shaped(at->shape, at->ndims, dt) : unknown_result(dt);
    case PC_OPSHAPE_TRANSPOSE:
    case PC_OPSHAPE_PERMUTE:
        return transpose(a, op, f, at, dt);
    case PC_OPSHAPE_UNSQUEEZE:
        return unsqueeze(a, f, at, dt);
    case PC_OPSHAPE_SQUEEZE:
        return squeeze(a, f, at, dt);
    case PC_OPSHAPE_CONCAT:
        return concat(a, x, nx, at);
    case PC_OPSHAPE_VIEW:
    case PC_OPSHAPE_RESHAPE:
        return view(a, x, nx, at);
    case PC_OPSHAPE_TUPLE:
        return unknown_result(PC_DT_UNKNOWN);
    case PC_OPSHAPE_OPAQUE:
        return unknown_result(dt);
    default: { /* the writes: no value of their own */
        pc_op_result r = {false, NULL, -1, PC_DT_UNKNOWN, -1};
        return r;
    }
    }
}
