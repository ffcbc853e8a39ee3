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
