/*
 * py_int.h - internal header of the Python frontend (analyzer/frontend/python/).
 *
 * The frontend works in two phases so that the interpreter lock is held as briefly as possible:
 *
 *   py_embed.c   CPython is embedded (one interpreter per process, initialised once), the source
 *                is handed to `ast.parse` and the resulting Python AST is copied into a small C
 *                tree (pc_py_node, below) in a scratch arena.  Every Python object is released
 *                before the lock is dropped.  The analysed file is never imported or executed.
 *   py_frontend.c  the entry point (pc_py_parse): module bindings, the kernels of a module
 *                (jit-decorated functions, legacy `with pypto.function(...)` blocks), option sites,
 *                locations and messages.
 *   py_module.c  code outside the analysed file: the project modules a kernel imports (read,
 *                never run), and the user's bindings as the frontend sees them.
 *   py_value.c   the values of evaluation (pc_py_val) and the scopes holding them: frames,
 *                open-rank parameters, constructors, pypto API names, trace-time truth.
 *   py_eval.c    evaluates expressions of a kernel body: names, attributes, subscripts,
 *                operators, and the dispatch of every expression kind.
 *   py_call.c    calls: their arguments, pypto API calls, builtins, tensor methods, opaque calls.
 *   py_ops.c     the pypto ops: the shared op table's rules (frontend/ops.c) applied to Python values
 *                (result shapes and dtypes), tensor creation, views.
 *   py_build.c   builds the kernel model: tensors, the accesses of a statement, PC_STMT_OPs,
 *                the PC012 statements of what is not modelled.
 *   py_stmt.c    walks kernel statements into the model: loops, ifs, writes, helper inlining.
 *   py_tiles.c   the tile shapes in force at each op.
 *
 * Nothing here is visible outside the module; every function carries the pc_py_ prefix.
 */
#ifndef POOLCHECK_PY_INT_H
#define POOLCHECK_PY_INT_H

#include "frontend/frontend_int.h"

/* =============================================================================================
 * The C copy of Python's AST (py_embed.c)
 * ============================================================================================= */

typedef enum pc_py_kind {
    /* statements */
    PY_MODULE,
    PY_FUNCDEF,      /* name; list1 = args (PY_ARG), list2 = body, list3 = decorators */
    PY_CLASSDEF,     /* name; list2 = body, list3 = decorators */
    PY_RETURN,       /* a = value (may be NULL) */
    PY_ASSIGN,       /* list1 = targets, a = value */
    PY_AUGASSIGN,    /* a = target, b = value, op */
    PY_ANNASSIGN,    /* a = target, b = annotation, c = value (may be NULL) */
    PY_FOR,          /* a = target, b = iter, list1 = body, list2 = orelse */
    PY_WHILE,        /* a = test, list1 = body, list2 = orelse */
    PY_IF,           /* a = test, list1 = body, list2 = orelse */
    PY_WITH,         /* list1 = items (PY_WITHITEM), list2 = body */
    PY_WITHITEM,     /* a = context expression, b = `as` target (may be NULL) */
    PY_TRY,          /* list1 = body, list2 = handler bodies, else and finally, concatenated */
    PY_EXPR_STMT,    /* a = value */
    PY_IMPORT,       /* list1 = aliases (PY_ALIAS) */
    PY_IMPORTFROM,   /* name = module ("" for `from . import x`), list1 = aliases, ivalue = level */
    PY_ALIAS,        /* name = imported name, str = asname (NULL when none) */
    PY_PASS,
    PY_BREAK,
    PY_CONTINUE,
    PY_OTHER_STMT,   /* name = Python class name (Raise, Assert, Delete, Global, Match, ...) */
    /* expressions */
    PY_NAME,         /* name */
    PY_INT,          /* ivalue; big = true when it does not fit int64 */
    PY_FLOAT,        /* fvalue */
    PY_STR,          /* str */
    PY_BOOL,         /* ivalue 0/1 */
    PY_NONE,
    PY_ELLIPSIS,
    PY_OTHER_CONST,  /* bytes, complex */
    PY_ATTRIBUTE,    /* a = value, name = attr */
    PY_CALL,         /* a = func, list1 = args, list2 = keywords (PY_KEYWORD) */
    PY_KEYWORD,      /* name = arg (NULL for **mapping), a = value */
    PY_SUBSCRIPT,    /* a = value, b = slice */
    PY_SLICE,        /* a = lower, b = upper, c = step (each may be NULL) */
    PY_TUPLE,        /* list1 = elts */
    PY_LIST,         /* list1 = elts */
    PY_SET,          /* list1 = elts */
    PY_DICT,         /* list1 = keys (an entry is NULL for **mapping), list2 = values */
    PY_BINOP,        /* a = left, b = right, op */
    PY_UNARYOP,      /* a = operand, op */
    PY_BOOLOP,       /* op (PY_OP_AND / PY_OP_OR), list1 = values */
    PY_COMPARE,      /* a = left, list1 = comparators, ops[] = one PY_OP_* per comparator */
    PY_IFEXP,        /* a = test, b = body, c = orelse */
    PY_STARRED,      /* a = value */
    PY_ARG,          /* name; a = annotation, b = default; ivalue: 0 positional, 1 *args, 2 kw-only,
                      * 3 **kwargs */
    PY_OTHER_EXPR    /* name = Python class name (Lambda, ListComp, JoinedStr, ...) */
} pc_py_kind;

typedef enum pc_py_op {
    PY_OP_NONE,
    PY_OP_ADD, PY_OP_SUB, PY_OP_MUL, PY_OP_DIV, PY_OP_FLOORDIV, PY_OP_MOD, PY_OP_POW,
    PY_OP_MATMUL, PY_OP_LSHIFT, PY_OP_RSHIFT, PY_OP_BITOR, PY_OP_BITXOR, PY_OP_BITAND,
    PY_OP_USUB, PY_OP_UADD, PY_OP_NOT, PY_OP_INVERT,
    PY_OP_AND, PY_OP_OR,
    PY_OP_EQ, PY_OP_NE, PY_OP_LT, PY_OP_LE, PY_OP_GT, PY_OP_GE,
    PY_OP_IS, PY_OP_ISNOT, PY_OP_IN, PY_OP_NOTIN
} pc_py_op;

typedef struct pc_py_node pc_py_node;
typedef struct pc_py_list { pc_py_node **items; int count; } pc_py_list;

struct pc_py_node {
    pc_py_kind kind;
    pc_py_op op;
    /* 1-based line, 1-based byte column; end is one past the last byte (as pc_loc). */
    uint32_t line, col, end_line, end_col;
    const char *name;
    const char *str;
    int64_t ivalue;
    bool big;
    double fvalue;
    pc_py_node *a, *b, *c;
    pc_py_list list1, list2, list3;
    pc_py_op *ops;       /* PY_COMPARE */
};

/* The parsed source: the tree plus what is needed to map positions back to bytes. */
typedef struct pc_py_source {
    pc_arena *arena;            /* scratch: nodes, strings (freed with the parse) */
    const char *text;           /* the bytes as read (not NUL-terminated necessarily) */
    size_t len;
    size_t *line_start;         /* byte offset of each 1-based line; [0] unused */
    uint32_t nlines;
    pc_py_node *module;
    /* A file a PEP 263 cookie declares in another encoding than UTF-8 (latin-1, gbk, ...): the
     * text as CPython decoded it, in UTF-8, and for each of its bytes (and its end) the byte
     * offset in the file, so columns stay bytes of the file as written.  NULL for UTF-8 files. */
    const char *u8;
    size_t u8_len;
    size_t *u8_line_start;      /* like line_start, for u8 */
    size_t *u8_to_file;         /* [u8_len + 1] */
} pc_py_source;

/* Parse text with CPython's ast.parse into src->module.  On failure returns false and adds a
 * located PC_MSG_FATAL message to m (syntax error, undecodable input, interpreter trouble).
 * Thread-safe: takes the interpreter lock for the duration of the call. */
bool pc_py_parse_source(pc_model *m, const char *path, pc_py_source *src);

/* The bytes of [line:col, end_line:end_col) (pc_loc convention) as an arena string. */
const char *pc_py_source_text(pc_py_source *src, uint32_t line, uint32_t col, uint32_t end_line,
                              uint32_t end_col);

/* =============================================================================================
 * Values (py_value.c)
 * ============================================================================================= */

typedef enum pc_py_vkind {
    PV_UNKNOWN,     /* anything we cannot evaluate */
    PV_INT,         /* integer expression (constant or symbolic): e */
    PV_FLOAT,       /* f */
    PV_BOOL,        /* i */
    PV_STR,         /* s */
    PV_NONE,
    PV_DTYPE,       /* dtype */
    PV_DIMMARK,     /* pypto.DYNAMIC / pypto.DYN / pypto.STATIC */
    PV_TENSOR,      /* an existing model tensor: tensor */
    PV_PENDING,     /* an op result not yet stored anywhere: unit, dtype, shape */
    PV_VIEW,        /* a view/slice/reshape of tensor `tensor` not yet bound to a name */
    PV_CREATE,      /* pypto.tensor / full / zeros / ones not yet bound: dtype, shape, s = name */
    PV_SEQ,         /* tuple or list: items (is_list) */
    PV_DICT,        /* node = the PY_DICT */
    PV_MODULE,      /* a dotted name inside pypto (or another module): s = "pypto.frontend" */
    PV_FUNC,        /* a function defined in this file: node = the PY_FUNCDEF, frame = its scope */
    PV_SHAPE,       /* x.shape of tensor `tensor` */
    PV_RANGE,       /* range(...) / pypto.loop(...) object: items = begin, end, step */
    PV_LAZY         /* a module constant not evaluated yet: node = its PY_ASSIGN, frame =
                     * the module frame, i = 1 while it is being evaluated.  Only module frames hold
                     * one; pc_py_lookup_forced evaluates it where a kernel reaches it */
} pc_py_vkind;

typedef struct pc_py_frame pc_py_frame;
typedef struct pc_py_val pc_py_val;
struct pc_py_val {
    pc_py_vkind kind;
    const pc_expr *e;
    double f;
    int64_t i;
    const char *s;
    pc_dtype dtype;
    int tensor;
    pc_unit unit;
    const pc_expr **shape;   /* ndims entries; NULL with ndims = -1 when unknown */
    int ndims;
    pc_py_val *items;
    int nitems;
    bool is_list;
    bool alt;                /* PV_TENSOR: items hold the other alternatives of a trace-time `if`
                              * (each a PV_TENSOR): a read or write touches every one */
    const pc_py_node *node;
    pc_py_frame *frame;
};

/* =============================================================================================
 * Walk state (py_module.c, py_stmt.c and the evaluator: py_value.c ... py_build.c)
 * ============================================================================================= */

typedef struct pc_py_binding { const char *name; pc_py_val val; } pc_py_binding;

typedef struct pc_py_module pc_py_module;

/* A lexical scope: the module, a kernel, an inlined helper.  Lookups fall back to parent.  Names
 * are found through an open-addressing hash (slot = index + 1, 0 empty) so that a body of many
 * thousand statements is walked in linear time. */
struct pc_py_frame {
    pc_py_binding *items;
    int count, cap;
    int *slots;
    int nslots;
    pc_py_frame *parent;
    pc_py_module *module;            /* module frames: the module they belong to (NULL: the file) */
};

/* A module a kernel imports, read from its source (py_module.c): never imported or executed. */
struct pc_py_module {
    const char *name;                /* dotted, as resolved ("pkg.common") */
    const char *path;                /* the file, as interned in the model */
    const char *dir;                 /* its directory (relative imports) */
    bool is_package;                 /* an __init__.py */
    pc_py_source *src;
    pc_py_frame *frame;              /* its module bindings (NULL while loading: a cycle) */
    bool failed;                     /* not found or not parseable: said once */
};

/* Where statements go: the kernel body, a loop body, or one branch of an if statement.  Kept as
 * indices because the model's arrays move when they grow. */
typedef struct pc_py_blockref {
    int loop;       /* >= 0: that loop's body */
    int stmt;       /* >= 0: branch `branch` of that if statement; branch -1: that UNROLL
                     * statement's body (a loop_unroll body traced for one factor) */
    int branch;
} pc_py_blockref;

/* Accesses of the Python statement being evaluated; flushed into one PC_STMT_OP. */
typedef struct pc_py_pending_access {
    int tensor;
    pc_access_kind kind;
    pc_unit unit;
    pc_loc loc;
    /* the op call that makes it and the view region it reads (pc_access's op, call, axis, region) */
    const char *op;
    int call, axis;
    const pc_expr **region;
    int region_rank;
} pc_py_pending_access;

/* An option site found while walking; added to the model (sorted, de-duplicated) at the end. */
typedef struct pc_py_optrec {
    const char *key;
    pc_optval value;
    pc_optsite_kind site;
    int kernel;
    bool in_kernel;
    pc_loc loc;
    const pc_py_node *owner;         /* enclosing host function (NULL: module level or a kernel) */
} pc_py_optrec;

typedef struct pc_py_ctx {
    pc_model *m;
    pc_arena *scratch;
    pc_py_source *src;
    /* module-level knowledge (py_module.c) */
    pc_py_frame *module_frame;
    bool star_pypto;                 /* `from pypto import *` */
    /* the kernel being built (-1 while scanning the module) */
    int kernel;
    pc_py_blockref block;
    int loop;                        /* innermost pypto loop, -1 = kernel body */
    pc_py_frame *frame;              /* current scope */
    /* current statement */
    pc_py_pending_access *acc;
    int nacc, capacc;
    int op_axis;                     /* the reduction axis of the op being applied, -1 none */
    int *defined;                    /* tensors defined by the current statement */
    int ndefined, capdefined;
    uint32_t stmt_line, stmt_col, stmt_end_line, stmt_end_col;
    /* helper inlining */
    const pc_py_node *inline_stack[32];
    int inline_depth;
    pc_py_val *return_val;           /* where a `return` of the helper being inlined goes */
    bool returned;                   /* a return was reached: skip the rest of this body */
    /* functions that were inlined into some kernel (not host code) */
    const pc_py_node **inlined;
    int ninlined, capinlined;
    int nfor_unrolled;               /* safety valve on compile-time unrolling */
    /* option sites */
    pc_py_optrec *opts;
    int nopts, capopts;
    const pc_py_node *owner;         /* host function being scanned */
    int kernels_built;               /* kernels found so far (for `with pypto.options` scopes) */
    /* where the nodes being walked come from: the analysed file or an imported module */
    const char *file;
    const pc_parse_opts *popts;          /* the caller's parse options (python_path, bindings) */
    const char *kernel_dir;          /* directory of the analysed file */
    pc_py_source *main_src;          /* the analysed file's source */
    pc_py_module **modules;          /* imported modules read so far (cache by name) */
    int nmodules, capmodules;
    /* tensor parameters whose rank the annotation leaves open (`[]`, `[d0, ...]`): fixed by
     * `a, b = x.shape` */
    struct pc_py_open_param { int tensor; const char *name; int nprefix; const pc_expr **prefix; } *open;
    int nopen, capopen;
    int64_t inline_total;            /* helper bodies inlined into the current kernel */
    bool inline_capped;
    struct pc_py_tiles *tiles;       /* tile shapes in force (py_tiles.c) */
    /* Scalars read from tensor data (`seqlens[b+1]`, model.md 2) and the locals assigned a value
     * made of them (py_stmt.c): such a local is the symbol of its own name, which --bind sets.
     * data_reads: the read symbols' names (a set); data_locals: a local's name -> its record in
     * dlocals (PV_INT, i = index).  Per kernel. */
    pc_py_frame *data_reads;
    pc_py_frame *data_locals;
    struct pc_py_data_local {
        const char *name;
        const pc_py_node *at;        /* the first assignment's target */
        const char *file;            /* where it is (a helper may live in another module) */
        pc_py_source *src;
        const char *value;           /* the first value's spelling (NULL when none) */
        const char *loop;            /* the innermost pypto loop around it (NULL: none) */
        uint32_t line2;              /* another assignment's line (0: only one place) */
        bool more;                   /* a third place or more */
        int64_t runs;                /* how often the trace assigned it */
    } *dlocals;
    int ndlocals, capdlocals;
} pc_py_ctx;

/* ---- py_tiles.c: tile shapes in force at each op; see the file's comment ---- */
bool pc_py_tiles_call(pc_py_ctx *c, const char *leaf, const pc_py_node *call);
const pc_tile_shapes *pc_py_tiles_enter(pc_py_ctx *c);
void pc_py_tiles_leave(pc_py_ctx *c, const pc_tile_shapes *saved);
void pc_py_tiles_options(pc_py_ctx *c, const pc_py_node *call);
const pc_tile_shapes *pc_py_tiles_with_enter(pc_py_ctx *c);
void pc_py_tiles_with_leave(pc_py_ctx *c, const pc_tile_shapes *saved);
void pc_py_tiles_matmul(pc_py_ctx *c, const pc_py_node *left, const pc_py_node *right, int a_trans, int b_trans);
void pc_py_tiles_stmt(pc_py_ctx *c, pc_stmt *s);

/* ---- py_frontend.c ---- */
pc_loc pc_py_loc(pc_py_ctx *c, const pc_py_node *n);
pc_loc pc_py_loc_span(pc_py_ctx *c, const pc_py_node *from, const pc_py_node *to);
void pc_py_message(pc_py_ctx *c, pc_msg_kind kind, const pc_py_node *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A note a user may silence: reported through check `check` ("PC013"; pc_message.check). */
void pc_py_note_check(pc_py_ctx *c, const char *check, const pc_py_node *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Record an option site: `key` from a keyword or dict key, `value` its value node. */
void pc_py_add_option(pc_py_ctx *c, const char *key, const pc_py_node *value, pc_optsite_kind site,
                      int kernel, bool in_kernel, pc_loc loc);
/* Record every entry of a runtime_options={...} value (a dict literal or a name bound to one). */
void pc_py_add_option_dict(pc_py_ctx *c, const pc_py_node *dict, pc_optsite_kind site, int kernel,
                           bool in_kernel);
/* The option call sites: returns true when `call` is one and was recorded. */
bool pc_py_option_call(pc_py_ctx *c, const pc_py_node *call, int kernel, bool in_kernel);

/* ---- py_value.c: values and scopes ---- */
pc_py_frame *pc_py_frame_new(pc_py_ctx *c, pc_py_frame *parent);
/* An array in c's scratch arena holding count items, *cap allocated, with room for one more: when it
 * is full, a copy with twice the room (first items when it has none).  Returns the array to use. */
void *pc_py_room_for_one(pc_py_ctx *c, void *items, int count, int *cap, int first, size_t elem);
void pc_py_bind(pc_py_ctx *c, pc_py_frame *f, const char *name, pc_py_val v);
/* `def name(...)` walked: name bound in the current frame to the function, closing over that frame. */
void pc_py_bind_def(pc_py_ctx *c, const pc_py_node *def);
/* Latest binding of name in f or its parents; NULL when unbound. */
pc_py_val *pc_py_lookup(pc_py_frame *f, const char *name);
/* pc_py_lookup, with a module constant not evaluated yet (PV_LAZY) evaluated first (py_eval.c). */
pc_py_val *pc_py_lookup_forced(pc_py_ctx *c, pc_py_frame *f, const char *name);
/* v itself, or, when it is a module constant not evaluated yet, its binding once evaluated. */
pc_py_val *pc_py_forced(pc_py_ctx *c, pc_py_val *v);
/* The binding of name in f itself (not its parents), or NULL. */
pc_py_val *pc_py_lookup_local(pc_py_frame *f, const char *name);
/* Put f back to the bindings items[0..count) (a snapshot taken before the branches of an if). */
void pc_py_frame_restore(pc_py_ctx *c, pc_py_frame *f, const pc_py_binding *items, int count);
/* The module a frame belongs to (NULL: the analysed file). */
pc_py_module *pc_py_frame_module(const pc_py_frame *f);
/* Open-rank parameters: the record of tensor, or NULL; fix_rank: the rank of open parameter
 * tensor is now known, its dims become PARAM.shape[i] symbols. */
struct pc_py_open_param *pc_py_open_param(pc_py_ctx *c, int tensor);
void pc_py_fix_rank(pc_py_ctx *c, int tensor, int ndims);
pc_py_val pc_py_unknown(void);
pc_py_val pc_py_mkval(pc_py_vkind kind);
pc_py_val pc_py_int(pc_py_ctx *c, int64_t v);
pc_py_val pc_py_bool_val(int64_t b);
/* An integer value of expression e (unknown when e is NULL); of the symbol `name`. */
pc_py_val pc_py_expr_val(const pc_expr *e);
pc_py_val pc_py_sym_val(pc_py_ctx *c, const char *name);
/* The model's arena (where expressions and shapes live). */
pc_arena *pc_py_marena(pc_py_ctx *c);
/* An integer expression from a value (PV_INT), else NULL. */
const pc_expr *pc_py_as_expr(const pc_py_val *v);
/* A constant integer (PV_INT with a constant, PV_BOOL). */
bool pc_py_const_int(const pc_py_val *v, int64_t *out);
/* A tensor, pending op result, view or creation. */
bool pc_py_tensorish(const pc_py_val *v);
/* Building a kernel (c->kernel >= 0), not in host mode. */
bool pc_py_in_kernel(const pc_py_ctx *c);
bool pc_py_expr_same(const pc_expr *a, const pc_expr *b);
/* The dotted name an expression denotes after import aliases ("pypto.frontend.jit"), or NULL. */
const char *pc_py_qualname(pc_py_ctx *c, const pc_py_node *n);
/* Is qualname the pypto API `api` ("loop", "frontend.jit", "experimental.set_runtime_options")? */
bool pc_py_is_api(const char *qualname, const char *api);
/* The last component of a pypto qualname ("pypto.add" -> "add"), or NULL when not in pypto. */
const char *pc_py_api_leaf(const char *q);
/* Trace-time truth of `l op r` on constants: 1, 0, or -1 when it cannot be decided. */
int pc_py_compare_truth(pc_py_op op, const pc_py_val *l, const pc_py_val *r);
/* Truth of a condition: 1, 0, or -1 when not decidable at trace time. */
int pc_py_truth(pc_py_ctx *c, const pc_py_val *v);

/* ---- py_eval.c: expressions ---- */
pc_py_val pc_py_eval(pc_py_ctx *c, const pc_py_node *n);
/* The string n evaluates to (`name="attn"`, a string constant); NULL for no node or no string. */
const char *pc_py_eval_str(pc_py_ctx *c, const pc_py_node *n);

/* ---- py_call.c: calls ---- */
/* Evaluated arguments of one call: positional (starred sequences expanded) and keywords. */
typedef struct pc_py_args {
    pc_py_val *pos;
    const pc_py_node **posnode;
    int npos;
    const pc_py_node *call;
    pc_py_val *kw;      /* parallel to call->list2 */
} pc_py_args;
/* Keyword argument `name` of a call, or NULL. */
const pc_py_node *pc_py_kwarg(const pc_py_node *call, const char *name);
/* Positional argument i of a call (no starred expansion), or NULL. */
const pc_py_node *pc_py_posarg(const pc_py_node *call, int i);
/* Argument by position or keyword (the Python signature order); NULL when absent; its node (the
 * call when absent); its truth (0 when absent). */
pc_py_val *pc_py_arg(pc_py_args *a, int pos, const char *kw);
const pc_py_node *pc_py_arg_node(pc_py_args *a, int pos, const char *kw);
int pc_py_arg_truth(pc_py_ctx *c, pc_py_args *a, int pos, const char *kw);
pc_py_val pc_py_eval_call(pc_py_ctx *c, const pc_py_node *n);

/* ---- py_ops.c: pypto ops ---- */
/* Shape of a subscript `base[key]` and what kind of key it is. */
typedef struct pc_py_keyinfo {
    bool all_empty;    /* every element is `:` with no bound (or a lone ...): a whole write */
    bool all_int;      /* every element is an integer index: an element write when the value is a scalar */
    int nelems;
} pc_py_keyinfo;
/* The shared op table's row for a pypto op name ("add", "matmul": pc_op_find(PC_OP_PY, name)), or
 * NULL; an op poolcheck does not know gets NULL here and pc_py_apply_op's opaque treatment. */
const pc_op_info *pc_py_find_op(const char *name);
/* Run op `op` (a row of frontend/ops.c; NULL: an op with no row, vector work of unknown result) with
 * evaluated arguments (self, when a method, is pos[0]): the row's unit, shape rule and dtype rule
 * applied to the Python values. */
pc_py_val pc_py_apply_op(pc_py_ctx *c, const pc_op_info *op, pc_py_args *a, const pc_py_node *at);
pc_py_val pc_py_create_tensor(pc_py_ctx *c, const char *leaf, pc_py_args *a);
pc_py_val pc_py_make_view(pc_py_ctx *c, pc_py_val *input, pc_py_val *shape, pc_py_val *dtype, const pc_py_node *at);
/* An op result not yet stored anywhere. */
pc_py_val pc_py_pending(pc_py_ctx *c, pc_unit unit, pc_dtype dt, const pc_expr **shape, int ndims);
/* Dimension d (negative: from the end) of an ndims-dimensional shape, or -1. */
int pc_py_norm_dim(int64_t d, int ndims);
/* The elements of a subscript key: x[i, j] -> the tuple's items i, j; x[i] -> i alone, held in
 * *one.  Returns how many (0 for x[()]). */
int pc_py_key_elems(const pc_py_node *key, const pc_py_node **one, const pc_py_node *const **elems);
void pc_py_subscript_shape(pc_py_ctx *c, const pc_expr **shape, int ndims, const pc_py_node *key,
                           const pc_expr ***out, int *nout, pc_py_keyinfo *ki);

/* ---- py_build.c: the kernel model ---- */
pc_kernel *pc_py_kernel(pc_py_ctx *c);
/* Tensor values: materialise a pending result / view / creation into a model tensor named
 * `variable` (NULL: anonymous) defined by the current statement. */
int pc_py_materialise(pc_py_ctx *c, pc_py_val *v, const char *variable, const pc_py_node *at);
void pc_py_access(pc_py_ctx *c, int tensor, pc_access_kind kind, pc_unit unit, const pc_py_node *at);
/* An operand read by an op executing on `unit` (a pending result or creation is materialised). */
void pc_py_read_operand(pc_py_ctx *c, pc_py_val *v, pc_unit unit, const pc_py_node *at);
/* The shape and dtype of a tensor value (a model tensor's, else the value's own). */
void pc_py_tensor_shape(pc_py_ctx *c, const pc_py_val *v, const pc_expr ***shape, int *ndims, pc_dtype *dt);
/* A part of the kernel poolcheck does not model (PC012), at most once per source place. */
void pc_py_unanalysed(pc_py_ctx *c, const pc_py_node *at, const char *what);
/* Flush the current statement's accesses as one PC_STMT_OP in the current block (nothing when it
 * has no access and force is false). */
void pc_py_flush_stmt(pc_py_ctx *c, bool force);
void pc_py_begin_stmt(pc_py_ctx *c, const pc_py_node *stmt);
/* The statement being built (its pending accesses, the tensors it defines, its extent) put aside
 * while other code is walked: a helper's body inlined, an imported module's top level bound. */
typedef struct pc_py_suspended_stmt {
    pc_py_pending_access *acc;
    int nacc, capacc;
    int *defined;
    int ndefined, capdefined;
    uint32_t line, col, end_line, end_col;
} pc_py_suspended_stmt;
/* Put the current statement aside; c has none (no accesses, no defined tensors) until resumed. */
pc_py_suspended_stmt pc_py_suspend_stmt(pc_py_ctx *c);
/* Make s the current statement again (what the walk in between left pending is dropped). */
void pc_py_resume_stmt(pc_py_ctx *c, const pc_py_suspended_stmt *s);
/* Where the walk reads: its scope and the file and source its nodes come from.  Kept while other
 * code is walked (a helper's body inlined, an imported module's top level bound) and gone back to. */
typedef struct pc_py_place {
    pc_py_frame *frame;
    const char *file;
    pc_py_source *src;
} pc_py_place;
pc_py_place pc_py_place_now(const pc_py_ctx *c);
/* Make p where the walk reads (going elsewhere, or back). */
void pc_py_place_set(pc_py_ctx *c, const pc_py_place *p);
/* Append statement id to the current block. */
void pc_py_block_append(pc_py_ctx *c, int stmt);
/* A model tensor for a parameter / host tensor. */
int pc_py_new_tensor(pc_py_ctx *c, const char *variable, pc_tensor_kind kind, pc_dtype dt,
                     const pc_expr **shape, int ndims, const pc_py_node *at);

/* ---- py_module.c ---- */
/* The value `qualname` ("common.dequant", "..cfg.BLOCK") names in a module the kernel imports,
 * read from that module's source; NULL when it is not a project module or has no such name. */
pc_py_val *pc_py_foreign(pc_py_ctx *c, const char *qualname, const pc_py_node *at);
/* Value of a user binding for name, true when every binding set that has it agrees. */
bool pc_py_user_binding(const pc_py_ctx *c, const char *name, int64_t *out, bool want_max);
/* Bind a module's top-level names (imports, constants, functions) into c->frame (py_frontend.c). */
void pc_py_bind_module(pc_py_ctx *c, const pc_py_list *body);

/* ---- py_stmt.c ---- */
void pc_py_walk_body(pc_py_ctx *c, const pc_py_list *body);
/* A scalar read from tensor data was given the symbol `name` (py_eval.c). */
void pc_py_note_data_read(pc_py_ctx *c, const char *name);
/* At the end of a kernel: a local read from tensor data that its loop bounds or shapes use and
 * that the trace assigned more than once, or in a pypto loop, is one symbol for values that may
 * differ: a note says so (PC019). */
void pc_py_data_local_notes(pc_py_ctx *c);
/* Inline a helper function call; returns its return value. */
pc_py_val pc_py_inline_call(pc_py_ctx *c, const pc_py_val *fn, const pc_py_node *call);
/* Bind an assignment target to a value (names, tuple unpacking, subscript writes). */
void pc_py_assign(pc_py_ctx *c, const pc_py_node *target, pc_py_val v, const pc_py_node *value_node);
/* Bind the names of an import statement in the current frame (aliases of pypto included). */
void pc_py_bind_import(pc_py_ctx *c, const pc_py_node *s);
/* `x op= e` (a PY_AUGASSIGN statement) as the expression `x op e`, located at the statement. */
pc_py_node pc_py_augassign_binop(const pc_py_node *s);

#endif
