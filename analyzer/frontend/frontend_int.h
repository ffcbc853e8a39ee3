/* frontend_int.h - internal header shared by the frontend dispatcher and the language frontends. */
#ifndef POOLCHECK_FRONTEND_INT_H
#define POOLCHECK_FRONTEND_INT_H

#include "poolcheck/frontend.h"

#include <stdatomic.h>
#include "support/support.h"

/* Per-session state of the libclang frontend (CXIndex, kept TUs); defined in frontend/clang/. */
struct pc_clang_state;
void pc_clang_state_free(struct pc_clang_state *st);
/* Dispose the translation unit kept for path, if any. */
void pc_clang_release(struct pc_clang_state *st, const char *path);

/* Editor mode's memory of each document's last C++ analysis (clang_incr.c): what an edit can
 * leave out of the next parse. */
struct pc_clang_incr_set;
void pc_clang_incr_free(struct pc_clang_incr_set *s);
void pc_clang_incr_release(struct pc_clang_incr_set *s, const char *path);
/* How many function bodies the last editor-mode parse of path left out (reused from the analysis
 * before), 0 for a parse of the whole text, -1 when the session remembers nothing of path.
 * For tests. */
int pc_clang_incr_reused(const pc_frontend *fe, const char *path);

struct pc_frontend {
    struct pc_clang_state *clang;   /* created lazily by pc_clang_parse */
    struct pc_clang_incr_set *clang_incr; /* created by the first editor-mode C++ parse */
    /* A parse went past its bounds and runs on in its thread, using clang and clang_incr: they,
     * and this struct, are never freed (pc_frontend_abandoned). */
    _Atomic bool abandoned;
};

/* Host (trace-time) loops with a trip count poolcheck knows are unrolled, as the trace runs them
 * (docs/model.md section 2, "Compile-time code"): every iteration, up to this many unrolled
 * iterations per kernel in all (an inner loop counts once per iteration of the loops around it).
 * The budget bounds the work, not the semantics: a loop that would pass it is modelled once,
 * with PC012 naming the budget, by both frontends alike. */
enum { PC_HOST_UNROLL_BUDGET = 4096 };

/* ---- the PyPTO op table (ops.c), shared by the C++ and Python frontends ------------------------
 * Owned by the op-table maintainer (cpp-values); one row per op with both spellings. */
typedef enum pc_op_lang { PC_OP_CPP, PC_OP_PY } pc_op_lang;

/* What an op is. */
typedef enum pc_op_class {
    PC_OPC_CUBE,       /* runs on the cube unit (matmul family, conv) */
    PC_OPC_VECTOR,     /* runs on the vector unit */
    PC_OPC_VIEW,       /* aliases its first operand (View, Reshape): allocates nothing */
    PC_OPC_CREATION,   /* makes a tensor from scalars and a shape (Full) */
    PC_OPC_SCALAR,     /* reads one element as a symbolic scalar (GetTensorData): no pool */
    PC_OPC_DATA        /* moves data into a destination operand (Assemble, TensorMove, collectives) */
} pc_op_class;

/* How the result's shape (or the op's effect) follows from its arguments. */
typedef enum pc_op_shape {
    PC_OPSHAPE_ELEMWISE,   /* broadcast of the tensor operands' shapes */
    PC_OPSHAPE_MATMUL,     /* [..., M, N] from a [..., M, K] x [..., K, N] with the transpose flags */
    PC_OPSHAPE_CAST,       /* the first operand's shape */
    PC_OPSHAPE_GATHERMASK, /* (input, pattern mode): the last dim / 2 (modes 1, 2), / 4 (3-6), kept (7) */
    PC_OPSHAPE_REDUCE,     /* (input, axis = -1, keepdim = false) */
    PC_OPSHAPE_FULL,       /* the shape argument */
    PC_OPSHAPE_EXPAND,     /* the shape argument */
    PC_OPSHAPE_TRANSPOSE,  /* two axes swapped (C++ also takes a full permutation) */
    PC_OPSHAPE_PERMUTE,    /* a permutation list */
    PC_OPSHAPE_UNSQUEEZE,  /* a 1 inserted at the axis */
    PC_OPSHAPE_SQUEEZE,    /* 1-dims removed (all, or the listed axes) */
    PC_OPSHAPE_CONCAT,     /* (tensors, axis): the axis summed */
    PC_OPSHAPE_VIEW,       /* the shape argument (or a dtype reinterpretation) */
    PC_OPSHAPE_RESHAPE,    /* the shape argument; C++ Reshape(src, dst) writes dst */
    PC_OPSHAPE_ASSEMBLE,   /* writes part of its destination */
    PC_OPSHAPE_ATOMIC,     /* AtomicRMW(src, offsets, dst): part of dst */
    PC_OPSHAPE_MOVE,       /* whole write of its destination */
    PC_OPSHAPE_SETDATA,    /* one element of its destination */
    PC_OPSHAPE_GETDATA,    /* a scalar */
    PC_OPSHAPE_INPLACE,    /* writes elements of its first operand */
    PC_OPSHAPE_WRITES,     /* void: writes the arguments listed in `outs` whole */
    PC_OPSHAPE_TUPLE,      /* several results (std::tuple / Python tuple): shapes not tracked */
    PC_OPSHAPE_OPAQUE      /* one result whose shape poolcheck does not infer */
} pc_op_shape;

/* The result's dtype. */
typedef enum pc_op_dtype {
    PC_OPDT_NONE,      /* no tensor result */
    PC_OPDT_FIRST,     /* the first tensor operand's */
    PC_OPDT_VALUES,    /* the second tensor operand's (Where(cond, x, y): x's, not the condition's);
                        * the first's when there is one tensor operand */
    PC_OPDT_ARG,       /* an explicit DataType argument (cpp_dtype_arg / py_dtype_arg; -1 in a
                          language: the first tensor operand's) */
    PC_OPDT_BOOL,
    PC_OPDT_INT32,
    PC_OPDT_UNKNOWN
} pc_op_dtype;

typedef struct pc_op_info {
    const char *cpp;             /* C++ name (last component), NULL when C++ has no such op */
    const char *py;              /* pypto.<name>, NULL when Python has no such op */
    pc_op_class cls;
    pc_op_shape shape;
    pc_op_dtype dtype;
    signed char cpp_dtype_arg;   /* PC_OPDT_ARG: the DataType argument's position */
    signed char py_dtype_arg;
    signed char outs[4];         /* PC_OPSHAPE_WRITES: written argument positions, -1 ends */
    /* PC_OPSHAPE_MATMUL in C++: the argument positions of the left and right operands and of their
     * transpose flags (-1: none; a MatmulExtendParam before the flags moves them one on) */
    signed char mm_a, mm_b, mm_at, mm_bt;
} pc_op_info;

/* The row for an op name in a language, NULL if the table has none. */
const pc_op_info *pc_op_find(pc_op_lang lang, const char *name);
/* The dtype a rule names outright (PC_OPDT_BOOL, PC_OPDT_INT32); PC_DT_UNKNOWN for the others, whose
 * dtype comes from the call (the first operand, a DataType argument). */
pc_dtype pc_op_fixed_dtype(pc_op_dtype rule);
/* Row i of the table, NULL past the end (for tests and listings). */
const pc_op_info *pc_op_at(size_t i);
/* The unit an op runs on: cube, vector (vector and creation ops), none (views, data, scalars). */
pc_unit pc_op_unit(const pc_op_info *op);

/* ---- one op's shape and dtype rule: pc_op_apply (ops.c) ----------------------------------------
 * The frontends read a call's operands and attributes into these structs and call pc_op_apply, so a
 * C++ kernel and its Python twin get one answer (docs/dev/adding-an-op.md).  What a frontend keeps
 * to itself is the reading (argument positions, keywords, defaults of its API) and the accesses. */

/* A tensor operand: its shape (ndims < 0, shape NULL: unknown) and dtype. */
typedef struct pc_op_operand {
    const pc_expr **shape;
    int ndims;
    pc_dtype dtype;
} pc_op_operand;

/* How an attribute was written. */
typedef enum pc_op_attr_state {
    PC_OPA_ABSENT,  /* not written: the op's default */
    PC_OPA_KNOWN,   /* a value poolcheck read */
    PC_OPA_NONE,    /* Python None (reduce / squeeze: every axis) */
    PC_OPA_UNKNOWN  /* written, but not a value poolcheck evaluates: the result's shape is unknown */
} pc_op_attr_state;

/* An integer attribute or a list of them (an axis, axes, a permutation). */
typedef struct pc_op_ints {
    pc_op_attr_state state;
    bool list;          /* written as a list ([0, 1], {0, 1}), not as one integer */
    int n;              /* KNOWN: entries of v */
    const int64_t *v;
} pc_op_ints;

typedef struct pc_op_attrs {
    pc_op_lang lang;    /* which of the row's DataType argument positions applies */
    pc_op_ints axes;    /* REDUCE: the axis or axes (absent: -1); CONCAT, UNSQUEEZE: the axis (CONCAT's
                         * absent: 0); SQUEEZE: the axes (absent, None or empty: every 1-dim);
                         * TRANSPOSE: two axes swapped (absent: the last two) or, as a list of every
                         * axis, a permutation; PERMUTE: the permutation */
    bool keepdim;       /* REDUCE */
    bool a_trans, b_trans; /* MATMUL */
    bool mode_known;    /* GATHERMASK: the pattern mode */
    int64_t mode;
    pc_op_attr_state shape_state; /* FULL, EXPAND, VIEW, RESHAPE: the shape argument */
    const pc_expr **shape;
    int ndims;
    pc_op_attr_state dtype_state; /* the row's DataType argument; VIEW: a dtype reinterpretation */
    pc_dtype dtype;
} pc_op_attrs;

/* What the op gives. */
typedef struct pc_op_result {
    bool value;         /* a tensor result (false: the op writes its operands, or has no rule) */
    const pc_expr **shape; /* ndims entries; NULL, ndims -1: unknown */
    int ndims;
    pc_dtype dtype;
    int axis;           /* REDUCE: the one reduced axis (the lowering rules), -1 otherwise */
} pc_op_result;

/* Attributes with nothing written (every state ABSENT) for language lang. */
pc_op_attrs pc_op_attrs_none(pc_op_lang lang);
/* The result of op over operands x[0..nx) with attributes at; shapes are built in arena a.  op NULL
 * (a name the table has no row for): an unknown shape with the first operand's dtype. */
pc_op_result pc_op_apply(pc_arena *a, const pc_op_info *op, const pc_op_operand *x, int nx, const pc_op_attrs *at);

/* ---- rules both frontends apply to what they read (frontend.c) --------------------------------- */
/* numpy broadcasting of two shapes (right-aligned; a dim of 1 stretches to the other's): the
 * PC_OPSHAPE_ELEMWISE result.  A shape with ndims < 0 is unknown: the result is the other one
 * (NULL, -1 when both are unknown).  Of two known shapes, a new array in arena a. */
const pc_expr **pc_op_broadcast(pc_arena *a, const pc_expr **x, int nx, const pc_expr **y, int ny, int *nd);
/* The PC_OPSHAPE_GATHERMASK result of input shape x (nx dims) and pattern mode `mode` (known:
 * mode_known); NULL with *nd = -1 when it is not known (another mode, an unknown shape). */
const pc_expr **pc_op_gathermask_shape(pc_arena *a, const pc_expr **x, int nx, bool mode_known, int64_t mode, int *nd);
/* A tile setter (SetVecTile / set_vec_tile_shapes, SetCubeTile / set_cube_tile_shapes) on t, in
 * two steps around reading its arguments into t's entries: _begin marks the tiles set and clears
 * the entries; _end records whether every entry was read (known) and the call's location.  A
 * setting that is not known keeps no entries (model.h, pc_tile_shapes). */
void pc_frontend_vec_tile_begin(pc_tile_shapes *t);
void pc_frontend_vec_tile_end(pc_tile_shapes *t, bool known, pc_loc call);
void pc_frontend_cube_tile_begin(pc_tile_shapes *t);
void pc_frontend_cube_tile_end(pc_tile_shapes *t, bool known, pc_loc call);

#endif
