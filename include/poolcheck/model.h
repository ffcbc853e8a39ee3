/*
 * poolcheck/model.h - the kernel model: what every frontend produces and the analysis reads.
 *
 * This is the seam between the frontends (libclang for C/C++, CPython's ast for Python) and the
 * analysis.  Nothing here knows about either parser.  One pc_model holds every kernel found in one
 * source file; all of its memory lives in one arena and goes with pc_model_free().
 *
 * Identity of values (spec model.md section 2): every *definition* of a tensor is its own
 * pc_tensor (Python `t = op(...)`, C++ `Tensor t = op(...)`, a `Tensor t(...)` declaration, a
 * parameter).  Frontends resolve each use of a name to the definition that textually precedes it
 * (the reaching definition of straight-line, structured code).  The one case that textual order
 * cannot see, a loop-carried value (`h = h + x` inside a loop, read before it is redefined), is
 * found by the analysis from the statement order and the variable names.
 *
 * Every member of the structs below a pc_model has a row in analyzer/model/fields.def, the table
 * the JSON form, the equality and the copies are generated from (docs/dev/adding-a-model-field.md).
 */
#ifndef POOLCHECK_MODEL_H
#define POOLCHECK_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pc_arena pc_arena;

/* A source range.  Lines and columns are 1-based; columns count bytes (as clang does).
 * end_line/end_col point one past the last byte of the range (0 when unknown).
 * file is owned by the model's arena (interned). */
typedef struct pc_loc {
    const char *file;
    uint32_t line, col;
    uint32_t end_line, end_col;
} pc_loc;

/* ---------------------------------------------------------------------------------------------
 * Integer expressions: dims, loop bounds, trip counts.  Smart constructors fold constants and
 * normalise sums, so `(i + t) - i` becomes `t`.  Symbols are plain names (`n`, `x.shape[0]`,
 * a loop index, an unroll factor variable).
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_expr_kind {
    PC_EXPR_INT,
    PC_EXPR_SYM,
    PC_EXPR_ADD,     /* a + b */
    PC_EXPR_SUB,     /* a - b (constructors normalise most of these away) */
    PC_EXPR_MUL,
    PC_EXPR_DIV,     /* truncating C division */
    PC_EXPR_FLOORDIV,/* Python // */
    PC_EXPR_MOD,
    PC_EXPR_MIN,
    PC_EXPR_MAX,
    PC_EXPR_CEILDIV,
    PC_EXPR_NEG,
    /* Branch conditions (model.md section 3, "Paths"): 0/1 valued.  Comparisons and and/or are
     * built with pc_expr_bin, not with pc_expr_not / pc_expr_loop_pred below. */
    PC_EXPR_LT, PC_EXPR_LE, PC_EXPR_GT, PC_EXPR_GE, PC_EXPR_EQ, PC_EXPR_NE,
    PC_EXPR_AND,     /* a and b (C++ &&) */
    PC_EXPR_OR,      /* a or b (C++ ||) */
    PC_EXPR_NOT,     /* not a (C++ !a); operand in a */
    PC_EXPR_IS_LOOP_BEGIN, /* pypto.is_loop_begin(i) / C++ IsLoopBegin(i): name = the index variable */
    PC_EXPR_IS_LOOP_END    /* is_loop_end(i): true on the last iteration of i's loop (of the factor's
                            * own loop under loop_unroll); name = the index variable */
} pc_expr_kind;

typedef struct pc_expr pc_expr;
struct pc_expr {
    pc_expr_kind kind;
    int64_t value;        /* PC_EXPR_INT */
    const char *name;     /* PC_EXPR_SYM */
    const pc_expr *a, *b; /* operands */
};

pc_expr *pc_expr_int(pc_arena *a, int64_t v);
pc_expr *pc_expr_sym(pc_arena *a, const char *name);
pc_expr *pc_expr_bin(pc_arena *a, pc_expr_kind k, const pc_expr *l, const pc_expr *r);
pc_expr *pc_expr_neg(pc_arena *a, const pc_expr *e);
/* Conditions: not e (folds constants, not(not x) = x); is_loop_begin/is_loop_end of the loop whose
 * index variable is index_var (kind is PC_EXPR_IS_LOOP_BEGIN or PC_EXPR_IS_LOOP_END).  These are
 * evaluated per instance by the analysis, which knows the iteration; pc_expr_eval cannot decide the
 * loop predicates and returns false for them. */
pc_expr *pc_expr_not(pc_arena *a, const pc_expr *e);
pc_expr *pc_expr_loop_pred(pc_arena *a, pc_expr_kind kind, const char *index_var);
bool pc_expr_is_int(const pc_expr *e, int64_t *out);
/* Structural equality of two expressions (NULL equals only NULL). */
bool pc_expr_equal(const pc_expr *a, const pc_expr *b);

/* Bindings: name -> value.  Lookups are by exact name. */
typedef struct pc_binding { const char *name; int64_t value; } pc_binding;
typedef struct pc_bindings { const pc_binding *items; size_t count; } pc_bindings;

/* Evaluate under bindings (several sets searched in order, first hit wins).  Returns true and
 * sets *out when every symbol is bound and no division by zero occurs. */
bool pc_expr_eval(const pc_expr *e, const pc_bindings *sets, size_t nsets, int64_t *out);
/* Substitute bound symbols and re-fold: the result mentions only unbound symbols. */
const pc_expr *pc_expr_subst(pc_arena *a, const pc_expr *e, const pc_bindings *sets, size_t nsets);
/* Infix text: `min(ceil(n/16), 128)`, `x.shape[0]*2`.  Caller frees with pc_mem_free. */
char *pc_expr_to_string(const pc_expr *e);
/* Parse the text pc_expr_to_string writes (also plain integers).  NULL and *err (pc_mem_free it)
 * on error. */
pc_expr *pc_expr_parse(pc_arena *a, const char *text, char **err);
/* Append the distinct symbol names of e to names (array of cap entries); returns the new count. */
size_t pc_expr_symbols(const pc_expr *e, const char **names, size_t count, size_t cap);

/* ---------------------------------------------------------------------------------------------
 * Data types: spec model.md section 7.  Names are the C++ spellings without DT_ (FP32, BF16...).
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_dtype {
    PC_DT_UNKNOWN = 0,
    PC_DT_INT4, PC_DT_INT8, PC_DT_INT16, PC_DT_INT32, PC_DT_INT64,
    PC_DT_FP8, PC_DT_FP16, PC_DT_FP32, PC_DT_BF16, PC_DT_HF4, PC_DT_HF8,
    PC_DT_UINT8, PC_DT_UINT16, PC_DT_UINT32, PC_DT_UINT64,
    PC_DT_BOOL, PC_DT_DOUBLE,
    PC_DT_FP8E4M3, PC_DT_FP8E5M2, PC_DT_FP8E8M0,
    PC_DT_FP4_E2M1X2, PC_DT_FP4_E1M2X2, PC_DT_FP4_E2M1, PC_DT_FP4_E1M2,
    PC_DT_COUNT
} pc_dtype;

int pc_dtype_bits(pc_dtype t);                 /* 0 for PC_DT_UNKNOWN */
const char *pc_dtype_name(pc_dtype t);         /* "FP32" */
/* Accepts "FP32", "DT_FP32", "pypto.DT_FP32", "float32"-style aliases are not accepted. */
pc_dtype pc_dtype_from_name(const char *name);

/* ---------------------------------------------------------------------------------------------
 * Tensors (one per definition).
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_tensor_kind {
    PC_TENSOR_PARAM,    /* kernel input/output (FUNCTION lists, jit parameters, with-function io) */
    PC_TENSOR_CREATED,  /* pypto.tensor(...) / pypto.full/zeros/ones / C++ Tensor t(DT_, {...}, "n") */
    PC_TENSOR_VALUE,    /* result of an op: x = pypto.add(a, b); Tensor x = Add(a, b) */
    PC_TENSOR_VIEW      /* view / reshape / slice read / alias of base (allocates nothing) */
} pc_tensor_kind;

typedef struct pc_tensor {
    int id;                  /* index in pc_kernel.tensors */
    const char *name;        /* its own name string if it has one ("tmp_assemble"), else variable */
    const char *variable;    /* the variable name ("tmpAssemble"); "" for anonymous */
    pc_tensor_kind kind;
    pc_dtype dtype;
    const pc_expr **shape;   /* ndims entries; NULL shape (ndims = -1) when unknown */
    int ndims;
    int base;                /* PC_TENSOR_VIEW: the tensor it aliases; else -1 */
    int scope_loop;          /* loop whose body defines it; -1 = kernel body */
    int def_stmt;            /* statement that defines it; -1 for parameters / pre-kernel decls */
    pc_loc loc;              /* the defining name token (or the declaration) */
} pc_tensor;

/* ---------------------------------------------------------------------------------------------
 * Tile shapes in force at an operation (model.md section 7, "Tile pieces of root_inner tensors").
 * Frontends record them in program order, scoped as the API scopes them (Python: a
 * pypto.loop body and a `with pypto.options(...)` block restore the enclosing tiles when they end;
 * C++: TileShape::Current() is one value changed in program order).  The analysis uses them to
 * cut a root_inner tensor into the pieces upstream's SplitLargeFanoutTensor pass stores.
 * ------------------------------------------------------------------------------------------- */
#define PC_TILE_MAX_DIMS 8

typedef struct pc_tile_shapes {
    /* set_vec_tile_shapes(...) / SetVecTile(...): entries map to dims from the front */
    bool vec_set;              /* a vector tile setter is in force */
    bool vec_known;            /* ...and every entry is a known positive integer */
    int nvec;                  /* entries (at most PC_TILE_MAX_DIMS kept) */
    int64_t vec[PC_TILE_MAX_DIMS];
    pc_loc vec_loc;            /* the setter call */
    /* set_cube_tile_shapes([m0, m1], [k0, k1(, k2)], [n0, n1]) / SetCubeTile({..}, {..}, {..}) */
    bool cube_set, cube_known;
    int64_t cube_m[2], cube_k[3], cube_n[2]; /* unused k2 is 0 */
    pc_loc cube_loc;
} pc_tile_shapes;

/* How a matmul reads an operand (PC_UNIT_CUBE reads); ANY for every other access. */
typedef enum pc_operand_role {
    PC_OPERAND_ANY = 0,   /* not a matmul operand, or not known */
    PC_OPERAND_LEFT,      /* matmul(a, b): a */
    PC_OPERAND_RIGHT,     /* matmul(a, b): b */
    PC_OPERAND_OTHER      /* bias, scale, ... */
} pc_operand_role;

/* ---------------------------------------------------------------------------------------------
 * Accesses: what one statement does to tensors.
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_access_kind {
    PC_ACC_READ,            /* operand of an op, source of a view, source of a move/assemble */
    PC_ACC_DEFINE,          /* a new value is produced into this (new) tensor: x = op(...) */
    PC_ACC_WRITE_WHOLE,     /* t[:] = e, t.move(e), C++ t = e on an existing Tensor, TensorMove dst */
    PC_ACC_WRITE_ASSEMBLE,  /* t[a:b] = e, pypto.assemble(s, off, t), Assemble(s, off, t), AtomicRMW */
    PC_ACC_WRITE_ELEMENT    /* t[i, j] = scalar, SetTensorData, IndexPut_-style in-place ops */
} pc_access_kind;

/* Which execution unit performs the access (for the root_inner "boundary" policy). */
typedef enum pc_unit {
    PC_UNIT_NONE = 0,  /* views, moves, assembles: data movement that fuses with its producer */
    PC_UNIT_VECTOR,
    PC_UNIT_CUBE       /* matmul family */
} pc_unit;

typedef struct pc_access {
    int tensor;
    pc_access_kind kind;
    pc_unit unit;
    pc_loc loc;
    /* a matmul read's operand and whether it is transposed (a_trans/b_trans) */
    pc_operand_role role;
    bool transposed;
    /* The op call that makes the access, for the lowering rules of docs/model.md section 4 (FP16
     * work through FP32 copies, multi-tile reductions) and the view regions of section 7: the op
     * table's C++ name of the op ("Add", "Sum"; NULL when no op makes it: an assemble's write, a
     * view of its own), which call of the statement it is (the accesses of one call share it; -1
     * none), the region a read reads when it is a view of the tensor - or, on a C++ whole write
     * `t = e`, the shape of the value stored when it is not t's (Tensor::operator= re-points t) -
     * (region_rank -1: the whole tensor, or not known), and a reduction's axis (-1: none, or not known). */
    const char *op;
    int call;
    const pc_expr **region;
    int region_rank;
    int axis;
} pc_access;

/* ---------------------------------------------------------------------------------------------
 * Statements and blocks: the kernel's control flow.
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_stmt_kind {
    PC_STMT_OP,          /* straight-line work: accesses (may be empty: a tile-shape call) */
    PC_STMT_LOOP,        /* pypto.loop / loop_unroll / C++ LOOP */
    PC_STMT_IF,          /* IF/ELSE, pypto.cond, if on loop values: one branch block per path */
    PC_STMT_UNROLL,      /* C++ UNROLL(p) / UNROLL_DEFAULT body variant: runs only for factor p */
    PC_STMT_UNANALYSED   /* a part that could not be modelled (PC012); message says what */
} pc_stmt_kind;

typedef struct pc_block { int *stmts; int count; } pc_block;

typedef struct pc_branch {
    /* The path's condition, as written, over constants, symbols (bindable names, loop indices, the
     * unroll factor variable) and the loop predicates.  NULL: an else branch (taken when no earlier
     * branch is), or a condition that is data-dependent (cond_text says what it was). */
    const pc_expr *cond;
    const char *cond_text; /* the condition's source spelling for notes ("i < 1"); NULL for else */
    int decided;           /* -1 unknown, 0 never taken, 1 always taken (constants) */
    pc_block body;
    pc_loc loc;
} pc_branch;

typedef struct pc_stmt {
    int id;
    pc_stmt_kind kind;
    pc_loc loc;
    /* PC_STMT_OP */
    bool has_op;           /* false for statements that do no tensor work (declarations only) */
    pc_access *accesses; int naccesses;
    /* PC_STMT_LOOP */
    int loop;              /* index in pc_kernel.loops */
    /* PC_STMT_IF */
    pc_branch *branches; int nbranches;
    /* PC_STMT_UNROLL */
    int64_t unroll_factor; pc_block unroll_body;
    /* PC_STMT_UNANALYSED */
    const char *message;
    /* PC_STMT_OP: the tile shapes in force at it (arena-owned, shared between
     * statements); NULL when no tile setter precedes it */
    const pc_tile_shapes *tiles;
} pc_stmt;

/* Which instance count an unroll list follows (model.md section 3, "Unroll").  FRONTENDS: set
 * pc_loop.unroll_rule on every loop with an unroll list (Python loop_unroll: PER_FACTOR; a C++
 * unroll set: GREEDY).  Left at DEFAULT, the analysis takes the rule from pc_model.lang (Python:
 * PER_FACTOR, anything else: GREEDY). */
typedef enum pc_unroll_rule {
    PC_UNROLL_RULE_DEFAULT = 0,
    /* upstream Python: one loop per factor p, largest first, 1 added; with b where the previous
     * factor's loop stopped (start for the first), loop(b, stop - ((stop - start) % (step*p)),
     * step*p); the next factor begins at that end whether or not the loop ran (iterations can
     * repeat: loop_unroll(7, unroll_list=[4, 6]) is 4 instances) */
    PC_UNROLL_RULE_PER_FACTOR,
    /* C++ unroll sets: from the start, as many steps of the largest factor as fit, then the next */
    PC_UNROLL_RULE_GREEDY
} pc_unroll_rule;

typedef struct pc_loop {
    int id;
    const char *name;          /* "l_loop_1"; frontends make one up ("loop_<line>") if absent */
    const char *index_var;     /* "j_idx" / "j" */
    const char *factor_var;    /* loop_unroll's second value ("t"); NULL when none */
    const pc_expr *begin, *end, *step;
    int64_t *unroll; int nunroll; /* the unroll list as written; empty = [1] */
    bool submit_before_loop;
    bool parallel;
    int parent;                /* enclosing loop, -1 = kernel body */
    int stmt;                  /* the PC_STMT_LOOP statement */
    pc_block body;
    pc_loc loc;                /* the LOOP / for token */
    pc_loc header;             /* the whole loop header */
    pc_unroll_rule unroll_rule;/* see pc_unroll_rule (frontends: set it; DEFAULT = from the language) */
} pc_loop;

/* ---------------------------------------------------------------------------------------------
 * Runtime option sites found in the source: values kept as written so invalid ones can be
 * reported (PC002/PC003).
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_optval_kind {
    PC_OPT_INT, PC_OPT_FLOAT, PC_OPT_BOOL, PC_OPT_STRING, PC_OPT_LIST, PC_OPT_TUPLE,
    PC_OPT_NONE,        /* Python None: "no change" */
    PC_OPT_UNKNOWN      /* an expression poolcheck cannot evaluate; text holds its spelling */
} pc_optval_kind;

typedef struct pc_optval pc_optval;
struct pc_optval {
    pc_optval_kind kind;
    int64_t i;           /* INT, BOOL (0/1) */
    double f;            /* FLOAT */
    const char *text;    /* STRING contents; UNKNOWN / FLOAT spelling */
    pc_optval *items; int nitems; /* LIST, TUPLE */
    pc_loc loc;          /* the value's extent (what a fix replaces) */
};

typedef enum pc_optsite_kind {
    PC_SITE_SET_RUNTIME_OPTIONS, /* pypto.experimental.set_runtime_options(k=v) */
    PC_SITE_SET_OPTIONS,         /* pypto.set_options(runtime_options={...}) */
    PC_SITE_OPTIONS_SCOPE,       /* pypto.options(runtime_options=...) decorator or with */
    PC_SITE_JIT,                 /* @pypto.frontend.jit(runtime_options={...}) */
    PC_SITE_CPP_SET_RUNTIME_OPTION, /* config::SetRuntimeOption(KEY, v) */
    PC_SITE_CONFIG_FILE,         /* tile_fwk_config.json "runtime" */
    PC_SITE_PROJECT_FILE,        /* .poolcheck.json */
    PC_SITE_COMMAND_LINE         /* --set */
} pc_optsite_kind;

typedef struct pc_option {
    const char *key;          /* "stitch_function_num_per_pool" (constants mapped to strings) */
    pc_optval value;
    pc_optsite_kind site;
    int kernel;               /* kernel it applies to (jit/options/C++ in a FUNCTION), -1 = module */
    bool in_kernel;           /* the call sits inside a kernel or loop body (PC005) */
    pc_loc loc;               /* the call (or the key=value pair) */
} pc_option;

/* ---------------------------------------------------------------------------------------------
 * Kernels and the model.
 * ------------------------------------------------------------------------------------------- */
typedef enum pc_lang { PC_LANG_UNKNOWN = 0, PC_LANG_CPP, PC_LANG_PYTHON } pc_lang;

typedef struct pc_kernel {
    int id;
    const char *name;
    /* C++: the gtest TEST / TEST_F ("Suite.Name") or the host function the kernel is defined in;
     * NULL when there is none (Python).  Upstream's tests call most kernels "main": the scope tells
     * them apart. */
    const char *scope;
    /* How every output names the kernel after the word "kernel": 'name', or 'name' in SCOPE when
     * another kernel of the model has the same name (pc_model_name_kernels).  Never NULL. */
    const char *ref;
    pc_loc loc;                /* the def line (Python) / FUNCTION line (C++) */
    pc_loc insert_loc;         /* where an options call goes if the source has none (fixes) */
    pc_tensor *tensors; int ntensors;
    pc_stmt *stmts; int nstmts;
    pc_loop *loops; int nloops;
    pc_block body;
    /* Integer constants the frontend could evaluate (constexpr, module ints): name -> value.
     * Analysis uses them to resolve symbols that survived into expressions. */
    pc_binding *constants; int nconstants;
} pc_kernel;

/* What a frontend has to say about the source itself: a syntax error (fatal), clang's own errors
 * in stub mode (noise: shown only with --show-parse-errors), or a note. */
/* PC_MSG_PARSE_NOISE: clang's errors in stub mode outside kernel code, shown only with
 * --show-parse-errors; PC_MSG_ERROR: an error in the source that does not stop the analysis (clang's
 * error inside a kernel body: the kernel will not compile). */
typedef enum pc_msg_kind { PC_MSG_FATAL, PC_MSG_PARSE_NOISE, PC_MSG_WARNING, PC_MSG_NOTE, PC_MSG_ERROR } pc_msg_kind;
typedef struct pc_message {
    pc_msg_kind kind;
    pc_loc loc;
    const char *text;
    /* The check id ("PC013") of a note a user may want to silence, or NULL: the driver reports such
     * a message through that check (--checks, NOLINT/noqa, a SARIF result with its rule). */
    const char *check;
} pc_message;

typedef struct pc_model {
    pc_arena *arena;
    pc_lang lang;
    const char *file;          /* as given on the command line */
    pc_kernel *kernels; int nkernels;
    pc_option *options; int noptions;
    pc_message *messages; int nmessages;
    bool fatal;                /* the source could not be parsed at all (exit status 2) */
} pc_model;

pc_model *pc_model_new(const char *file, pc_lang lang);
void pc_model_free(pc_model *m);
pc_arena *pc_model_arena(pc_model *m);

/* Builders used by frontends: they grow the arrays (amortised) and return the new item's index,
 * with the item zeroed except for its id and sensible defaults (base = scope_loop = -1, ...). */
int pc_model_add_kernel(pc_model *m, const char *name, pc_loc loc);
/* Set every kernel's ref from its name and scope: the scope is added where a name is shared. */
void pc_model_name_kernels(pc_model *m);
/* Does the kernel's ref add its scope (another kernel of the model has the same name)? */
bool pc_kernel_scope_shown(const pc_kernel *k);
int pc_kernel_add_tensor(pc_model *m, pc_kernel *k, const char *variable, pc_tensor_kind kind,
                         pc_loc loc);
int pc_kernel_add_stmt(pc_model *m, pc_kernel *k, pc_stmt_kind kind, pc_loc loc);
int pc_kernel_add_loop(pc_model *m, pc_kernel *k, const char *name, pc_loc loc);
/* What a frontend knows of a loop when it reads its header. */
typedef struct pc_loop_spec {
    const char *name;              /* NULL: "" */
    pc_loc loc, header;
    const char *index_var;         /* copied; NULL: "" */
    const char *factor_var;        /* copied; NULL: none */
    const pc_expr *begin, *end, *step;
    int64_t *unroll; int nunroll;  /* kept as given (the model's arena) */
    bool submit_before_loop, parallel;
    int parent;                    /* the enclosing loop, -1 = the kernel body */
} pc_loop_spec;
/* A loop of kernel k made from spec (its statement and body are the frontend's to add); returns
 * its index.  The frontends' one constructor of loops: no pc_loop field is set by hand. */
int pc_kernel_add_loop_spec(pc_model *m, pc_kernel *k, const pc_loop_spec *spec);
void pc_stmt_add_access(pc_model *m, pc_stmt *s, int tensor, pc_access_kind kind, pc_unit unit,
                        pc_loc loc);
/* The op call that makes access a (op NULL: none; the name is copied into the model), and the
 * region a read reads when it is a view (rank -1: the whole tensor; the array is copied, its
 * expressions are not). */
void pc_access_set_op(pc_model *m, pc_access *a, const char *op, int call, int axis);
void pc_access_set_region(pc_model *m, pc_access *a, const pc_expr *const *region, int rank);
pc_branch *pc_stmt_add_branch(pc_model *m, pc_stmt *s, pc_loc loc);
void pc_block_append(pc_model *m, pc_block *b, int stmt);
void pc_kernel_add_constant(pc_model *m, pc_kernel *k, const char *name, int64_t value);
/* The same for a name the caller knows is not a constant of k yet: no search, so adding n names
 * costs n, not n^2 (a file's thousands of -D macros, recorded for each of its kernels). */
void pc_kernel_append_constant(pc_model *m, pc_kernel *k, const char *name, int64_t value);
int pc_model_add_option(pc_model *m, const char *key, pc_optsite_kind site, pc_loc loc);
/* A frontend message; PC_MSG_FATAL also sets m->fatal. */
void pc_model_add_message(pc_model *m, pc_msg_kind kind, pc_loc loc, const char *text);
/* The same with the check id that reports it (see pc_message.check). */
void pc_model_add_message_check(pc_model *m, pc_msg_kind kind, pc_loc loc, const char *check, const char *text);
/* Interned copies in the model arena. */
const char *pc_model_strdup(pc_model *m, const char *s);
pc_loc pc_model_loc(pc_model *m, const char *file, uint32_t line, uint32_t col,
                    uint32_t end_line, uint32_t end_col);

/* JSON (de)serialisation; the text pc_model_to_json writes reads back into an equal model.
 * to_json returns a string (pc_mem_free it).  from_json returns NULL and a message in *err
 * (pc_mem_free it) ("line 3, column 7: expected ..." or "kernels[0].tensors[2]: missing \"kind\""). */
char *pc_model_to_json(const pc_model *m);
pc_model *pc_model_from_json(const char *text, size_t len, char **err);
/* Deep structural equality (locations included); on difference, *where names the first one. */
bool pc_model_equal(const pc_model *a, const pc_model *b, char *where, size_t where_size);

/* Deep copies into another model (the editor's re-parse carries the kernels of bodies it left out
 * from the previous model into the new one).  A copy lives wholly in dst's arena; an expression or
 * tile state the source shares between places stays shared in the copy (a copier copies each once).
 * A location in the source model's own file names dst's file, its lines moved by the line delta
 * (0 unless set); other files' locations are kept.  Kernels, options and messages are appended to
 * dst: a kernel's id is its new index (its tensors, statements and loops keep theirs), an option
 * gets the kernel index given (the caller maps it), a PC_MSG_FATAL message sets dst->fatal. */
typedef struct pc_model_copier pc_model_copier;
pc_model_copier *pc_model_copier_new(pc_model *dst, const pc_model *src);
void pc_model_copier_set_line_delta(pc_model_copier *c, int64_t delta);
int pc_model_copier_kernel(pc_model_copier *c, const pc_kernel *k);            /* the new index */
int pc_model_copier_option(pc_model_copier *c, const pc_option *o, int kernel); /* the new index */
void pc_model_copier_message(pc_model_copier *c, const pc_message *msg);
void pc_model_copier_free(pc_model_copier *c);                                  /* NULL is fine */
/* A copy of the whole model, equal to it (pc_model_equal); pc_model_free it. */
pc_model *pc_model_copy(const pc_model *m);

/* How reports name a tensor: its name, or `tmp@LINE:COL` for an anonymous intermediate (written
 * into buf, which must hold 32 bytes). */
const char *pc_tensor_label(const pc_tensor *t, char *buf, size_t n);

/* `PARAM.shape[D]` names a parameter by its variable or by its name string (docs/model.md 12).
 * For a symbol name whose part before the first '.' is one spelling of a parameter of k that has
 * two, the other spelling (variable or name string, owned by the model); else NULL. */
const char *pc_kernel_param_other_spelling(const pc_kernel *k, const char *name);

const char *pc_access_kind_name(pc_access_kind k);
const char *pc_tensor_kind_name(pc_tensor_kind k);
const char *pc_unit_name(pc_unit u);
const char *pc_optsite_kind_name(pc_optsite_kind k);
const char *pc_operand_role_name(pc_operand_role r); /* "any", "left", "right", "other" */

#ifdef __cplusplus
}
#endif
#endif
