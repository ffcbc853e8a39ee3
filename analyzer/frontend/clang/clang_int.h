/*
 * clang_int.h - internal header of the libclang C++ frontend (prefix pc_clang_).
 *
 * The frontend turns one C++ source into a pc_model:
 *   clang_frontend.c  session state, stub-header lookup, compiler arguments (stub mode, compile
 *                     database, `-- <compiler command>`), parse / reparse on the parse thread,
 *                     clang's diagnostics;
 *   clang_incr.c      editor mode: an edit re-parses the function it touches, the other bodies
 *                     left out and their analysis carried over (pc_clang_incr_*);
 *   clang_lex.c       a small C++ lexer over the main buffer, bracket and argument helpers over
 *                     its tokens, and an expression's written spelling (a symbol's name);
 *   clang_loc.c       where cursors are: offsets, model locations, a cursor's tokens, spelling,
 *                     children;
 *   clang_env.c       the environment (names in scope, by name or declaration; kernel tensors of
 *                     host variables) and scalar declarations / assignments;
 *   clang_host.c      host code: the main file's declarations outside kernels, and trace-time
 *                     `if` / `for` / `while` inside kernels (host loops unrolled or reported);
 *   clang_walk.c      the kernel walk: FUNCTION kernels, LOOP / IF / UNROLL statements, kernel
 *                     declarations and statements, the statements and blocks they build, and
 *                     pc_clang_walk_tu;
 *   clang_inline.c    helper inlining (main file or project header);
 *   clang_options.c   config::SetRuntimeOption sites;
 *   clang_recover.c   error recovery: LOOP / FUNCTION headers and SetRuntimeOption calls clang
 *                     dropped (an error in them), read from their written text; clang errors
 *                     claimed by statements, and what the walk could not see (statements clang
 *                     left out, LOOP / FUNCTION tokens no statement starts at, cut-off bodies,
 *                     unclaimed errors in kernels);
 *   clang_tensor.c    tensor expressions: reads / writes / definitions, shapes (op rules from
 *                     the shared table in frontend/ops.c), tensor constructors;
 *   clang_value.c     the one evaluator: values from cursors, keyed by declaration (integers and
 *                     symbolic scalars, lists, loop ranges, strings, dtypes, runtime-option
 *                     values, one-`return` helpers, IF / ELSE IF conditions);
 *   clang_pch.c       the stub header precompiled into a cache, loaded by stub-mode parses;
 *   clang_pp.c        the preprocessor's decisions: the main file's skipped ranges;
 *   clang_tiles.c     tile shapes in force at each op.
 *
 * Every value comes from the AST through clang_value.c, the macro headers' too: in stub mode LOOP
 * / FUNCTION / IF / UNROLL pass their arguments as expressions clang parses (see
 * stub/poolcheck_tilefwk_stub.h), and macros are clang's expansion.  Tokens remain for code clang
 * dropped (clang_recover.c), for the written spelling a symbol is named by
 * (clang_lex.c), and for the operator of a binary expression, which libclang before 17 does not
 * give (pc_clang_operator_spelling).  All offsets are
 * byte offsets into the main buffer (the text clang parsed; blanked #include lines keep their
 * length, so offsets and line numbers are the user's).
 */
#ifndef POOLCHECK_CLANG_INT_H
#define POOLCHECK_CLANG_INT_H

#include <clang-c/Index.h>

#include "frontend/frontend_int.h"

/* ================================================================================================
 * clang_frontend.c
 * ============================================================================================== */

/* A translation unit kept for editor reparses (pc_parse_opts.keep_tu). */
typedef struct pc_clang_kept {
    char *path;
    char *args_key;              /* the argument list joined: a changed list means a fresh parse */
    CXTranslationUnit tu;
} pc_clang_kept;

struct pc_clang_state {
    CXIndex index;
    bool stub_searched;
    char *stub_path;             /* NULL when no stub header was found */
    char *stub_text;
    size_t stub_len;
    PC_VEC(pc_clang_kept) kept;
};

/* clang_guard.c: while a parse runs on this thread, opens (by libLLVM) of a path that exists and
 * is neither a regular file nor a directory fail with EACCES and are recorded here, so that
 * clang's "cannot open file" becomes a located error naming the file's kind. */
#define PC_CLANG_GUARD_MAX 16
typedef struct pc_clang_guard {
    struct {
        char *path;              /* as opened (pc_mem) */
        const char *kind;        /* "a character device", "a FIFO", ... */
    } refused[PC_CLANG_GUARD_MAX];
    int nrefused;
} pc_clang_guard;

/* Start guarding this thread's opens into g; false when the guard could not be installed (an
 * architecture it does not know). */
bool pc_clang_guard_begin(pc_clang_guard *g);
/* Stop, and free what g recorded. */
void pc_clang_guard_end(pc_clang_guard *g);
/* The guard active on this thread, or NULL. */
const pc_clang_guard *pc_clang_guard_current(void);

/* Name of the stub header inside its directory. */
#define PC_CLANG_STUB_NAME "poolcheck_tilefwk_stub.h"

/* Rewrite a compiler command line for libclang: drop the compiler, the input file, output and
 * dependency-file options and flags libclang does not know (`--npu-arch=...`), turn bisheng's
 * `-xcce` / `-x cce` into `-x c++`.  Appends pc_mem strings to out; input may be NULL; relative
 * arguments are compared with input relative to dir (NULL: the current directory). */
typedef PC_VEC(char *) pc_clang_argv;
/* Offsets of the line starts of s[0, len) (pc_mem; *n lines). */
uint32_t *pc_clang_line_table(const char *s, size_t len, int *n);
void pc_clang_sanitize_args(const char *const *argv, size_t argc, const char *input, const char *dir,
                            pc_clang_argv *out);

/* ================================================================================================
 * clang_pch.c
 * ============================================================================================== */

/* The precompiled stub header for a stub-mode argument list whose `-include STUB` pair is at
 * args[include_at]: the path of a PCH built with exactly these arguments (pc_mem; built now when
 * the cache has none), or NULL when there is no cache or the stub does not compile. */
char *pc_clang_stub_pch(struct pc_clang_state *st, const pc_clang_argv *args, size_t include_at);

/* ================================================================================================
 * clang_lex.c
 * ============================================================================================== */

typedef enum pc_ctok_kind { PC_CTOK_IDENT, PC_CTOK_NUMBER, PC_CTOK_STRING, PC_CTOK_CHAR, PC_CTOK_PUNCT } pc_ctok_kind;

typedef struct pc_ctok {
    pc_ctok_kind kind;
    const char *text;            /* points into the buffer; not NUL-terminated */
    uint32_t len;
    uint32_t off;                /* byte offset of the first byte */
} pc_ctok;

typedef PC_VEC(pc_ctok) pc_ctoks;

/* Tokens of buf[begin, end): comments, whitespace, preprocessor line continuations skipped. */
void pc_clang_lex(const char *buf, size_t begin, size_t end, pc_ctoks *out);
bool pc_ctok_is(const pc_ctok *t, const char *s);
/* Index of the bracket closing the one at t[i] ('(', '[' or '{'), or n when unbalanced. */
int pc_clang_match(const pc_ctok *t, int n, int i);
/* t[i] is '<': the index after the '>' closing that template argument list (`>>` closes two),
 * -1 when it is not one. */
int pc_clang_skip_template_args(const pc_ctok *t, int n, int i);
/* Split t[0, n) at top-level commas: fills starts/ends (half-open) and returns the count (at most
 * max).  An empty list gives 0. */
int pc_clang_split_args(const pc_ctok *t, int n, int *starts, int *ends, int max);

/* ================================================================================================
 * The walker context shared by the walk, clang_tensor.c and the token readers.
 * ============================================================================================== */

/* What a name in scope stands for. */
typedef enum pc_cenv_kind {
    PC_CENV_EXPR,     /* integer or symbolic scalar: int rows = 128; SymbolicScalar n = ...; loop index */
    PC_CENV_LIST,     /* std::vector<int64_t> shape = {...}; Shape s{...}; LoopRange r(...) (3 items) */
    PC_CENV_STRING,   /* const char *name = "x"; std::string key = "..." */
    PC_CENV_DTYPE,    /* DataType dt = DT_FP16 */
    PC_CENV_TENSOR    /* a Tensor variable (or an addressable tensor expression like outputs[0]) */
} pc_cenv_kind;

/* How a tensor variable declared outside any kernel (before a FUNCTION) looks, so that each
 * kernel using it can create its own pc_tensor. */
typedef struct pc_chost {
    pc_tensor_kind kind;         /* PC_TENSOR_CREATED, or PC_TENSOR_VIEW of base_entry */
    pc_dtype dtype;
    const pc_expr **shape;
    int ndims;
    const char *name;            /* name string, or NULL */
    pc_loc loc;
    int base_entry;              /* env index of the aliased variable (views), -1 */
} pc_chost;

typedef struct pc_cenv {
    pc_cenv_kind kind;
    const char *name;            /* the variable name (or normalised spelling for outputs[0]) */
    int frame;                   /* 0 = file scope; otherwise the function activation */
    CXCursor decl;               /* the declaration, when there is one */
    bool has_decl;
    const pc_expr *expr;         /* EXPR */
    const pc_expr **list;        /* LIST */
    int nlist;
    const char *str;             /* STRING */
    pc_dtype dtype;              /* DTYPE */
    /* TENSOR */
    int kernel;                  /* the kernel whose pc_tensor `tensor` is; -1 = not created yet */
    int tensor;
    pc_chost host;
    bool is_host;                /* declared outside a kernel: create per kernel on first use */
} pc_cenv;

/* A block of the kernel being built, named by indices because the arrays that hold blocks grow. */
typedef enum pc_cblock_kind { PC_CBLK_KERNEL, PC_CBLK_LOOP, PC_CBLK_BRANCH, PC_CBLK_UNROLL } pc_cblock_kind;
typedef struct pc_cblock { pc_cblock_kind kind; int index, sub; } pc_cblock;

/* A clang error in the main file: statements that contain one are reported unanalysed. */
typedef struct pc_cdiag {
    uint32_t off, line, col;
    const char *text;
    bool claimed;
    int message; /* its PARSE_NOISE message in the model (m->messages index) */
} pc_cdiag;

/* What a tensor expression is (clang_tensor.c). */
typedef enum pc_ctres_kind { PC_TR_NONE, PC_TR_NAMED, PC_TR_ANON } pc_ctres_kind;
typedef struct pc_ctres {
    pc_ctres_kind kind;
    int tensor;                  /* NAMED: the tensor the value is (or is a view of) */
    bool via_view;               /* NAMED through View / Reshape */
    pc_unit unit;                /* ANON: the unit of the outermost op */
    pc_dtype dtype;
    const pc_expr **shape;
    int ndims;                   /* -1 unknown */
    pc_loc loc;                  /* NAMED: the tensor's own token (what a READ points at) */
} pc_ctres;

/* Where the value of an inlined helper's `return` goes. */
typedef enum pc_ctarget_kind {
    PC_CTGT_NONE,                /* the call's value is discarded */
    PC_CTGT_DECL,                /* Tensor y = Helper(...): env entry `env` gets the tensor */
    PC_CTGT_ASSIGN,              /* t = Helper(...): tensor `tensor` is written whole */
    PC_CTGT_RESULT               /* an operand: the value is returned in `result` */
} pc_ctarget_kind;
typedef struct pc_ctarget {
    pc_ctarget_kind kind;
    int env;
    int tensor;
    pc_loc loc;                  /* DECL: the variable's name */
    bool done;
    pc_ctres result;
} pc_ctarget;

/* A source extent (byte offsets) recorded while walking, for the LOOP-token cross-check. */
typedef struct pc_cspan { int kernel; int loop; uint32_t begin, end; } pc_cspan;

/* A function definition and its main-file extent (byte offsets). */
typedef struct pc_cscopefn { CXCursor fn; uint32_t begin, end; } pc_cscopefn;

typedef struct pc_cx {
    pc_model *m;
    pc_arena *scratch;           /* temporary strings for this parse */
    CXTranslationUnit tu;
    CXFile main_file;
    const char *src;             /* the buffer being walked: the main file's, or while a helper from
                                    another (project) file is inlined, that file's */
    size_t srclen;
    uint32_t *line_start;        /* offsets of line starts */
    int nlines;
    const char *src_name;        /* the file name locations get; NULL = the model's file */
    bool in_main;                /* walking the main file: its clang errors can be claimed */
    bool stub_mode;
    char *const *args;           /* the compiler arguments (for -D definitions) */
    int nargs;

    pc_cdiag *diags;
    int ndiags;
    bool tu_errors;              /* any error in the translation unit (a header's too): without one,
                                  * clang dropped no code and rejected no declaration */

    PC_VEC(pc_cenv) env;
    int frame, next_frame;

    /* kernel walk */
    int kernel;                  /* -1 outside kernels */
    int cur_loop;                /* innermost LOOP, -1 = kernel body */
    pc_cblock block;             /* where new statements go */
    int cur_stmt;                /* the statement accesses go to; -1: made on the first access */
    int op_axis;                 /* the reduction axis of the op call being read, -1 none */
    pc_loc stmt_loc;             /* the location that statement gets */
    bool header_reads;           /* reads of tensor data for control (LOOP / IF headers,
                                    GetTensorData): they do not make the statement an op */
    int depth;                   /* helper inlining depth */
    CXCursor inline_stack[16];
    pc_ctarget *target;          /* the return target of the innermost inlined helper */
    bool in_host_loop;           /* inside a host for/while/if: scalar assignments are not constants */
    long *hostfn_steps;          /* clang_hostfn.c: the step budget of the outermost helper run */
    int host_unroll_kernel;      /* the kernel host_unrolled counts for */
    int host_unrolled;           /* host-loop iterations unrolled in it (PC_HOST_UNROLL_BUDGET) */

    /* tensors made on demand for variables declared outside the kernel walk, per kernel */
    PC_VEC(struct pc_clate { int kernel; CXCursor decl; const char *spelling; int tensor; }) late;

    PC_VEC(pc_cspan) loop_spans; /* recognised LOOPs (begin = LOOP token offset) */
    PC_VEC(uint32_t) function_offs; /* recognised FUNCTIONs (kernels and nested): their token offsets */
    PC_VEC(pc_cspan) body_spans; /* LOOP bodies, for placing unanalysed LOOP tokens */
    PC_VEC(pc_cspan) kernel_spans; /* FUNCTION bodies and helper bodies inlined into them */
    PC_VEC(pc_cspan) cut_bodies;   /* kernel bodies clang stopped parsing inside: [cut, closing brace) */

    /* clang_value.c: namespace-scope constants of the translation unit, for the names recovery
     * reads in code clang dropped (found once, freed by pc_clang_walk_tu) */
    PC_VEC(CXCursor) header_constants;
    bool header_constants_scanned;
    /* the parse options (bindings: a host `for` whose bound the user bound is unrolled); may be NULL */
    const pc_parse_opts *opts;
    PC_VEC(pc_cspan) skipped;    /* clang_pp.c: main-file ranges the preprocessor skipped */
    /* clang_loc.c: the main file's tokens, lexed once on the first request (pc_clang_src_lex) and
     * shared by every reader of main-file tokens and the LOOP / FUNCTION cross-check (freed by
     * pc_clang_walk_tu) */
    pc_ctoks main_toks;
    const char *main_toks_src;   /* the buffer main_toks were lexed from; NULL: not lexed yet */
    /* clang_host.c: the main file's function definitions, where a kernel's host function is
     * looked up (pc_clang_host_function), found in one visit of the translation unit instead of
     * one per kernel (freed by pc_clang_walk_tu) */
    PC_VEC(struct pc_chostfn { CXCursor fn; pc_loc loc; }) host_fns;
    bool host_fns_scanned;
    /* clang_walk.c: function definitions with their main-file extents, for kernels' scopes */
    PC_VEC(pc_cscopefn) scope_fns;
    bool scope_fns_scanned;
} pc_cx;

/* ---- locations and tokens of cursors (clang_loc.c) ---- */
/* The byte offset of l's expansion location in the file being walked; false when elsewhere. */
bool pc_clang_main_offset(pc_cx *cx, CXSourceLocation l, uint32_t *off);
bool pc_clang_offsets(pc_cx *cx, CXCursor c, uint32_t *begin, uint32_t *end);
/* The extent of c where it is written in the main file: a macro argument's own text, not the
 * macro invocation (pc_clang_offsets); false when elsewhere. */
bool pc_clang_written_offsets(pc_cx *cx, CXCursor c, uint32_t *begin, uint32_t *end);
pc_loc pc_clang_loc_range(pc_cx *cx, uint32_t begin, uint32_t end);
pc_loc pc_clang_cursor_loc(pc_cx *cx, CXCursor c);
/* The location of a declaration's name (its cursor location), one token long. */
pc_loc pc_clang_name_loc(pc_cx *cx, CXCursor decl, const char *name);
/* A cursor's spelling as a scratch-arena string ("" when it has none). */
const char *pc_clang_spelling(pc_cx *cx, CXCursor c);
/* cx->src[begin, end) without its whitespace, but for one space between two words ("outputs[0]",
 * "GetTensorData(s,{i})", "unsigned int"), in the scratch arena. */
const char *pc_clang_src_spelling(pc_cx *cx, uint32_t begin, uint32_t end);
/* The tokens of cx->src[begin, end), appended to out: exactly what pc_clang_lex(cx->src, begin, end,
 * out) gives.  In the main file they are a copy of the slice of cx->main_toks (the file lexed once)
 * when the range starts and ends between tokens; otherwise (another file's buffer, a range that
 * starts or ends inside a token, a comment or a directive) the range is lexed. */
void pc_clang_src_lex(pc_cx *cx, size_t begin, size_t end, pc_ctoks *out);
/* The whole main file's tokens (lexed on the first call); NULL while another file is walked. */
const pc_ctoks *pc_clang_main_tokens(pc_cx *cx);
/* Where a declaration that ends its extent at `from` ends in the text: its ';', the ',' before
 * the next declarator or the bracket closing what holds it; `limit` when none comes before it. */
uint32_t pc_clang_declaration_end(pc_cx *cx, uint32_t from, uint32_t limit);
/* One past the '}' that closes the block whose '{' is at `open`, in the main file's text; `end`
 * (the block cursor's end) when the text says less. */
uint32_t pc_clang_block_end(pc_cx *cx, uint32_t open, uint32_t end);
/* Tokens of a cursor's extent (main file only); false when the extent is not in the main file. */
bool pc_clang_cursor_tokens(pc_cx *cx, CXCursor c, pc_ctoks *out);
/* Is `word` one of the tokens of c's extent? */
bool pc_clang_mentions(pc_cx *cx, CXCursor c, const char *word);
/* A translation unit's children, without the implicit template instantiations the index lists
 * among them (clang_loc.c); every visit of a translation unit goes through this. */
void pc_clang_visit_tu(CXTranslationUnit tu, CXCursorVisitor fn, CXClientData data);
/* The direct children of a cursor, a translation unit's as pc_clang_visit_tu gives them (out is
 * cleared first; the caller frees it). */
typedef PC_VEC(CXCursor) pc_clang_cursors;
void pc_clang_children(CXCursor c, pc_clang_cursors *out);
/* The spelling of tokens with insignificant spaces removed ("outputs[0]", "GetTensorData(s,{i})"). */
const char *pc_clang_tok_spelling(pc_cx *cx, const pc_ctok *t, int n);
/* The value of a string literal from its spelling (escapes, prefixes, raw strings decoded). */
const char *pc_clang_string_literal(pc_cx *cx, const char *spelling, size_t len);

/* ---- environment and scalar variables (clang_env.c) ---- */
int pc_clang_env_push(pc_cx *cx, pc_cenv_kind kind, const char *name, const CXCursor *decl);
/* The entry a name denotes here (current frame, then file scope); kind < 0 for any; -1 if none. */
int pc_clang_env_find(pc_cx *cx, const char *name, int kind);
/* The tensor entry declared by decl, -1 if none. */
int pc_clang_env_find_decl(pc_cx *cx, CXCursor decl);
/* The tensor of an env entry in the current kernel, created on first use (-1 outside kernels). */
int pc_clang_env_tensor(pc_cx *cx, int entry);
/* A tensor of the current kernel for `variable` (info: dtype, shape, name; may be NULL); a
 * negative dim becomes the binding symbol `variable.shape[D]`. */
int pc_clang_make_tensor(pc_cx *cx, const char *variable, pc_tensor_kind kind, pc_loc loc, const pc_chost *info);
/* What a variable's type makes it for the walk. */
typedef enum pc_cvclass {
    PC_VC_OTHER, PC_VC_INT, PC_VC_LIST, PC_VC_STRING, PC_VC_DTYPE, PC_VC_TENSOR, PC_VC_RANGE
} pc_cvclass;
pc_cvclass pc_clang_classify_type(pc_cx *cx, CXType t);
/* Does a symbolic expression contain a symbol poolcheck made from unevaluable text (a call)? */
bool pc_clang_has_opaque(const pc_expr *e);
/* An integer value of `name` becomes a constant of the current kernel (none outside kernels). */
void pc_clang_record_constant(pc_cx *cx, const char *name, const pc_expr *e);
/* The initialiser expression of a variable declaration (its last expression child). */
CXCursor pc_clang_decl_init(CXCursor v);
/* An integer / list / LoopRange / string / dtype variable's declaration: its env entry. */
void pc_clang_scalar_decl(pc_cx *cx, CXCursor v, pc_cvclass vc, const char *name);
/* `x = e;`, `x += e;`, `++x;` on a scalar variable: its new value, or a symbol; false when c is
 * not such an assignment. */
bool pc_clang_scalar_assign(pc_cx *cx, CXCursor c);

/* ---- written text (clang_lex.c) and tensor shapes by name (clang_value.c) ---- */
/* The value of `GetInputShape(t, d)` for the tensor named `tname`: its static dim, its symbolic
 * dim, or the binding symbol `PARAM.shape[D]`. */
const pc_expr *pc_clang_input_shape(pc_cx *cx, const char *tname, int64_t dim);
/* An expression's written spelling with insignificant spaces removed (pc_clang_tok_spelling), NULL outside
 * the main file. */
const char *pc_clang_written_spelling(pc_cx *cx, CXCursor e);
/* The same spelling of a cursor's extent where the code expands (pc_clang_offsets): a macro's
 * body where clang expanded it. */
const char *pc_clang_extent_spelling(pc_cx *cx, CXCursor c);

/* ---- headers clang dropped, from their tokens (clang_recover.c) ---- */
/* What a LOOP header says (docs/model.md section 3). */
typedef struct pc_cloop_header {
    const char *name, *index;
    const pc_expr *begin, *end, *step;
    int64_t *unroll;
    int nunroll;
    bool submit, parallel;
    pc_loc loc, header; /* the LOOP word; the invocation up to its ')' */
} pc_cloop_header;
/* The header of a LOOP whose recorder call clang dropped (an error in it), from the tokens of
 * cx->src[begin, body): NULL when read (reads of tensor data in the range recorded, warnings for
 * arguments that are not constants given), else why the LOOP is not modelled. */
const char *pc_clang_loop_header_from_tokens(pc_cx *cx, uint32_t begin, uint32_t body, pc_cloop_header *h);
/* A LOOP's unroll list as read (ok: every element was read): kept in h when every element is a
 * positive integer constant, else a warning at `at` and the LOOP modelled as unrolled [1]. */
void pc_clang_loop_unroll(pc_cx *cx, pc_cloop_header *h, const pc_expr **list, int n, bool ok, pc_loc at);
/* A range of the main buffer, [b, e). */
typedef struct pc_crange { uint32_t b, e; } pc_crange;
typedef PC_VEC(pc_crange) pc_cranges;
/* The name (NULL when none) and the tensor-list elements (appended to items, nested lists
 * flattened) of a FUNCTION header clang dropped, from the tokens of cx->src[begin, body). */
const char *pc_clang_function_header_from_tokens(pc_cx *cx, uint32_t begin, uint32_t body, pc_cranges *items);

/* ---- values from cursors (clang_value.c) ---- */
/* C++ `l % r` (truncating: the sign of l) in the model's terms: l - (l / r) * r. */
const pc_expr *pc_clang_cpp_mod(pc_arena *a, const pc_expr *l, const pc_expr *r);
/* The operator of a BinaryOperator / CompoundAssignOperator / UnaryOperator cursor ("+", "<"). */
const char *pc_clang_operator_spelling(pc_cx *cx, CXCursor c);
/* An integer or symbolic scalar from an expression cursor: clang's folding, declarations through
 * the environment (by declaration), operators, GetInputShape, min/max, one-`return` helpers.  NULL
 * when the expression is not a value this reader models. */
const pc_expr *pc_clang_value_int(pc_cx *cx, CXCursor e);
bool pc_clang_is_builtin_int(CXType value_type); /* bool, char and integer types, not enums (pc_clang_value_type) */
/* A list value: `{a, b}`, `std::vector<int64_t>{...}`, a list variable, `x.GetShape()`, a helper
 * returning a list.  False when not one. */
bool pc_clang_value_list(pc_cx *cx, CXCursor e, const pc_expr ***dims, int *nd);
/* The same readers at a nesting depth (for clang_hostfn.c, which runs helpers inside them). */
const pc_expr *pc_clang_value_int_at(pc_cx *cx, CXCursor e, int depth);
bool pc_clang_value_list_at(pc_cx *cx, CXCursor e, int depth, const pc_expr ***dims, int *nd);
/* The env entry of the tensor variable an expression names, -1 when it names none. */
int pc_clang_value_tensor_entry(pc_cx *cx, CXCursor e);
/* The object of a member call `obj.f(...)`, a null cursor for other calls. */
CXCursor pc_clang_member_object(CXCursor call);

/* ---- host helpers run at trace time (clang_hostfn.c) ---- */
/* Run the body of helper `def` for `call`, its parameters bound to the arguments' values: the
 * integer it returns (*ival) or the list (*dims, *nd), whichever pointer is not NULL.  False when
 * the body does something this runner does not follow; then nothing is known of the value. */
bool pc_clang_run_helper(pc_cx *cx, CXCursor def, CXCursor call, int depth, const pc_expr **ival,
                         const pc_expr ***dims, int *nd);
/* A string value: a literal, std::string("..."), a string constant or variable.  NULL otherwise. */
const char *pc_clang_value_string(pc_cx *cx, CXCursor e);
/* A DataType value: DT_FP32 (any qualification), a DataType constant or variable; UNKNOWN otherwise. */
pc_dtype pc_clang_value_dtype(pc_cx *cx, CXCursor e);
/* A runtime option value from its cursor; false (kind UNKNOWN, text = spelling) when unknown. */
bool pc_clang_value_opt(pc_cx *cx, CXCursor e, pc_optval *out, int depth);
/* The environment entry declared by decl (any kind), -1 if none. */
int pc_clang_env_of_decl(pc_cx *cx, CXCursor decl);
/* GetTensorData(tensor, {idx...}): the one-element read as the symbol `tensor[i,j]` (model.md 2,
 * named as the Python frontend names `tensor[i, j]`); NULL when an index is NULL. */
const pc_expr *pc_clang_tensor_data(pc_cx *cx, const char *tensor, const pc_expr *const *idx, int n);
/* The value of a constant declared in a header of the translation unit (`constexpr int BLOCK = 8;`
 * in a project header), by the name as written (`BLOCK`, `sibling::BLOCK`): NULL when none. */
const pc_expr *pc_clang_header_constant(pc_cx *cx, const char *written);

/* The condition of an IF (docs/model.md section 3): comparisons, &&, ||, !, IsLoopBegin /
 * IsLoopEnd, arithmetic, built-in or overloaded.  NULL when it reads tensor data (*data_dependent
 * set) or cannot be read. */
const pc_expr *pc_clang_value_cond(pc_cx *cx, CXCursor e, bool *data_dependent);
/* The written reading of a scalar (a LOOP header, a condition, a kernel argument): the value
 * pc_clang_value_int gives, where it has no model of a part the symbol named by that part's
 * written spelling (an unknown name is that name, a call its text: model.md 2). */
const pc_expr *pc_clang_value_int_written(pc_cx *cx, CXCursor e);
/* A LoopRange value (LoopRange(...), {b, e, s}, a LoopRange variable) in the written reading. */
bool pc_clang_value_range(pc_cx *cx, CXCursor c, const pc_expr **b, const pc_expr **e, const pc_expr **s);
/* The same reading of a list value ({a, b}, a list variable, x.GetShape()). */
bool pc_clang_value_list_written(pc_cx *cx, CXCursor e, const pc_expr ***dims, int *nd);

/* ---- the preprocessor's decisions (clang_pp.c) ---- */
/* Fill cx->skipped with the main file's ranges the preprocessor skipped (#if 0, a false #ifdef). */
void pc_clang_skipped_ranges(pc_cx *cx);
bool pc_clang_is_skipped(const pc_cx *cx, uint32_t off);

/* ---- tensors (clang_tensor.c) ---- */
bool pc_clang_is_tensor_type(CXType t);
/* Canonical spelling of a type without cv-qualifiers and references ("npu::tile_fwk::Tensor"). */
const char *pc_clang_type_name(pc_cx *cx, CXType t);
CXType pc_clang_value_type(CXType t); /* canonical, references removed: the type a value of t has */
/* Skip implicit wrappers (casts, temporaries, parentheses, copy constructions). */
CXCursor pc_clang_strip(CXCursor c);
/* Analyse a tensor expression: READ accesses for its operands go to cx->cur_stmt. */
pc_ctres pc_clang_tensor_expr(pc_cx *cx, CXCursor e);
/* Handle an expression statement that may do tensor work; returns true when it was recognised
 * (an op call, an assignment to a Tensor, a write through a Tensor& parameter). */
bool pc_clang_tensor_stmt(pc_cx *cx, CXCursor e);
/* A tensor variable's declaration (kernel mode): creates the tensor, its statement, accesses. */
void pc_clang_tensor_decl(pc_cx *cx, CXCursor vardecl);
/* Read `Tensor t(DT_, {dims}, "name")`, `Tensor t;`, `Tensor t = Tensor(DT_, ...)` from the
 * declaration's constructor call; false for any other initialiser (`Tensor t = Add(a, b)`, a
 * copy) and for a declaration clang rejected. */
bool pc_clang_tensor_ctor(pc_cx *cx, CXCursor vardecl, pc_chost *out);
/* The callee name (last component) of a call or recovery expression, NULL if not a call. */
const char *pc_clang_call_name(pc_cx *cx, CXCursor c, CXCursor *decl, bool *resolved);
int pc_clang_call_nargs(CXCursor c);
/* The arguments a call's source writes (trailing default arguments not counted). */
int pc_clang_written_nargs(CXCursor call);
CXCursor pc_clang_call_arg(CXCursor c, int i);

/* ---- helper inlining (clang_inline.c) ---- */
/* Inline a call to a helper whose body poolcheck can walk: defined in the main file, or in a
 * project header (not a system header, not the PyPTO API).  False when it is not one. */
bool pc_clang_inline_call(pc_cx *cx, CXCursor call, pc_ctarget *target);
bool pc_clang_inlinable(pc_cx *cx, CXCursor decl);

/* ---- runtime options (clang_options.c) ---- */
/* A statement holding a `config::SetRuntimeOption(key, value)` call: its option site. */
void pc_clang_option_site(pc_cx *cx, CXCursor c);
/* A record for an option site (NULL: this kernel recorded the site already). */
pc_option *pc_clang_option_record(pc_cx *cx, const char *key, pc_loc loc);
/* The key of a constant whose value poolcheck cannot read: the constant's lower-case name. */
const char *pc_clang_option_key_from_constant(pc_cx *cx, const char *spelled);
/* A statement whose SetRuntimeOption call clang rejected: its site, from tokens (clang_recover.c). */
void pc_clang_option_site_from_tokens(pc_cx *cx, CXCursor c);
/* The model's options in source order (helpers are walked where they are called). */
void pc_clang_sort_options(pc_model *m);

/* ---- host code (clang_host.c) ---- */
/* The main file's declarations under parent: host variables, functions, FUNCTION kernels. */
void pc_clang_walk_decls(pc_cx *cx, CXCursor parent);
/* The function definition of the main file whose extent holds `at` (a FUNCTION header): the first,
 * in the order of a visit of the translation unit that enters namespaces, classes, structs (and
 * linkage specifications where libclang names them so), of the functions, methods, function
 * templates and constructors from the main file that start before `at` and end after it; a null
 * cursor when none does (clang_tiles.c's search, answered from one visit).  False (fn
 * untouched) while a helper from another file is walked: locations mean that file's lines then. */
bool pc_clang_host_function(pc_cx *cx, pc_loc at, CXCursor *fn);
/* A search of the main file's function definitions at cursor c: true to take it (a function,
 * method, function template or constructor of the main file); otherwise *pass is the visitor's
 * answer (look inside namespaces, linkage specs and classes, pass over the rest). */
bool pc_clang_host_fn_take(CXCursor c, enum CXChildVisitResult *pass);
/* A host `if` inside a kernel: decided from constants, else both paths as an undecided IF. */
void pc_clang_host_if(pc_cx *cx, CXCursor s);
/* A host for / while / do (or for-range) inside a kernel: unrolled, or modelled once and said. */
void pc_clang_host_loop(pc_cx *cx, CXCursor s);

/* ---- the kernel walk (clang_walk.c) ---- */
void pc_clang_walk_tu(pc_cx *cx);
/* The statement kinds the PyPTO macros expand to, recognised by type. */
typedef enum pc_cmarker { PC_MK_NONE, PC_MK_LOOP, PC_MK_FUNCTION, PC_MK_PROGRAM, PC_MK_IF, PC_MK_UNROLL } pc_cmarker;
/* A for-range statement's marker (LOOP, FUNCTION, PROGRAM or none) and its body. */
pc_cmarker pc_clang_for_range_marker(pc_cx *cx, CXCursor s, CXCursor *body);
/* An if statement's parts: condition, then, else (missing parts are null cursors). */
void pc_clang_if_parts(CXCursor s, CXCursor *cond, CXCursor *then_s, CXCursor *else_s);
/* A FUNCTION statement: one kernel, its parameters from the FUNCTION lists, its body walked. */
void pc_clang_kernel_function(pc_cx *cx, CXCursor s, CXCursor body);
/* Walk a block (or one statement) in kernel mode; its declarations end with it. */
void pc_clang_kernel_block(pc_cx *cx, CXCursor body);
/* Walk a statement in kernel mode (used by helper inlining). */
void pc_clang_walk_kernel_stmt(pc_cx *cx, CXCursor s);
/* A leaf statement starts: accesses go to a statement made on the first one, located at s. */
void pc_clang_begin_leaf(pc_cx *cx, CXCursor s);
/* Statements of the current kernel: a new one appended to the current block, an access of the
 * current statement, an unanalysed statement (PC012) with its message. */
int pc_clang_new_stmt(pc_cx *cx, pc_stmt_kind kind, pc_loc loc);
void pc_clang_access(pc_cx *cx, int tensor, pc_access_kind kind, pc_unit unit, pc_loc loc);
/* The current statement's accesses so far (0 before it exists), and the access at index i. */
int pc_clang_naccesses(pc_cx *cx);
pc_access *pc_clang_access_at(pc_cx *cx, int i);
int pc_clang_unanalysed(pc_cx *cx, pc_loc loc, const char *message);
/* Source order of two locations (-1, 0, 1). */
int pc_clang_loc_cmp(pc_loc a, pc_loc b);
/* Move the statement appended last to block b into its place in source order. */
void pc_clang_block_sort_last(pc_cx *cx, pc_cblock b);

/* ---- what the walk could not see (clang_recover.c) ---- */
/* The first token of cx->src[begin, end) clang left out of its tree with no error there (not a
 * `;`, nor a `,` between declarators when commas, nor in a skipped #if branch), or UINT32_MAX. */
uint32_t pc_clang_uncovered_code(pc_cx *cx, uint32_t begin, uint32_t end, bool commas);
/* An unanalysed statement at off for code clang left out ("statement", "declaration"). */
void pc_clang_report_dropped(pc_cx *cx, uint32_t off, const char *what);
/* Why statement s is not modelled when it uses a declaration clang rejected, or NULL. */
const char *pc_clang_rejected_use(pc_cx *cx, CXCursor s);
/* Claim the clang errors inside [begin, end): the first one's text, or NULL. */
const char *pc_clang_claim_errors(pc_cx *cx, uint32_t begin, uint32_t end);
/* After the walk: unrecognised LOOP / FUNCTION tokens and unclaimed clang errors in kernels. */
void pc_clang_check_leftovers(pc_cx *cx);

/* ================================================================================================
 * clang_incr.c: editor mode's incremental reparse (pc_parse_opts.keep_tu)
 *
 * The session remembers, per document (by absolute path, in fe->clang_incr), the last analysis: its
 * text, model, the main file's top-level function definitions and what they declare and name.  A
 * plan is what an edit of that text lets the next parse leave out: the unchanged definitions that
 * nothing parsed can reach, blanked (line breaks kept) in the text clang is given, their kernels,
 * messages and option sites taken from the model before.  A plan is made only when the document is
 * remembered with the same key (arguments and bindings) and a model that was not fatal, with its
 * kernels in location order; the edit touches no directive and lies inside one body nothing else
 * names, between two definitions touching no declaration, or after the last one; and at least one
 * definition can be left out.  The remembered analysis is the one of the whole text either way (a
 * merged model equals a parse from scratch), so each edit is planned against the one before.  The
 * parse is checked (pc_clang_incr_check_tu, then _check_model after the walk); when either check
 * fails the caller frees the plan and parses the whole text anew.
 * ============================================================================================== */

/* A plan for one parse (opaque; NULL: none applies, parse the whole text). */
typedef struct pc_clang_plan pc_clang_plan;

/* What besides the text decides the walk, as a string (pc_mem): the arguments and the bindings. */
char *pc_clang_incr_key(const pc_clang_argv *args, const pc_parse_opts *opts);
/* The plan for *text (len bytes, pc_mem) of the document path, or NULL.  With a plan, *text is
 * swapped for the blanked text clang should parse (same length and lines); the plan keeps the
 * whole one until pc_clang_incr_plan_free. */
pc_clang_plan *pc_clang_incr_plan(pc_frontend *fe, const char *path, const char *key, char **text, size_t len);
/* Give *text its whole text back and free the plan (NULL: nothing to do). */
void pc_clang_incr_plan_free(pc_clang_plan *p, char **text);
/* Before the walk: does the parse in cx (its translation unit, main file, text and line table)
 * look as the plan expects (same headers, the edited body where it should be, nothing parsed
 * naming what a left-out definition declared)? */
bool pc_clang_incr_check_tu(pc_clang_plan *p, const pc_cx *cx);
/* After the walk: did it find nothing (kernel, message, option site) in a left-out definition,
 * and its kernels in location order? */
bool pc_clang_incr_check_model(const pc_clang_plan *p, const pc_cx *cx);
/* After both checks: a new model (the caller's) of cx->m's items and the left-out definitions'
 * from the analysis before, in order, and the document remembered for the next edit.  cx->m is
 * left to the caller to free; the plan is still freed with pc_clang_incr_plan_free. */
pc_model *pc_clang_incr_merge(pc_frontend *fe, pc_clang_plan *p, const char *path, const char *key,
                              const pc_cx *cx);
/* A parse of the whole text: cx->m's messages put in location order (editor mode's order), and
 * the document remembered for the next edit, or forgotten when the walk has no main file or the
 * model is fatal. */
void pc_clang_incr_remember(pc_frontend *fe, const char *path, const char *key, const pc_cx *cx);
/* (pc_clang_incr_free, pc_clang_incr_release and pc_clang_incr_reused: frontend_int.h) */

/* ---- clang_tiles.c: the tile shapes in force at each operation of a C++ kernel (docs/model.md
 * section 7 "Tile pieces of root_inner tensors") ------------------------------------------------ */
/* A new statement `stmt` takes the tiles in force: those of the statement made before it (the
 * walk creates statements in program order; across FUNCTIONs too, as TileShape::Current() is one
 * value for the whole program). */
void pc_clang_tiles_inherit(pc_cx *cx, int stmt);
/* TileShape::Current().SetVecTile(...) / SetCubeTile(...) (name) at `call`, whose (empty) statement
 * is `stmt`: from here on the new tiles are in force.  Other tile calls change nothing. */
void pc_clang_tiles_call(pc_cx *cx, CXCursor call, const char *name, int stmt);
/* A matmul call: the cube reads of the current statement inside argument `left` / `right` get
 * their operand role, and `transposed` from a_trans / b_trans. */
void pc_clang_tiles_matmul(pc_cx *cx, CXCursor call, int left, int right, bool a_trans, bool b_trans);

#endif
