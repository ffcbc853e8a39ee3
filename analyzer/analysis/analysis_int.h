/*
 * analysis_int.h - internal header of the analysis module.
 *
 * The pipeline (spec docs/model.md 3-7), one file per phase:
 *   roots.c     statement runs -> root functions (one per unroll factor), textual positions
 *   classify.c  every tensor -> a pool (section 4), loop-carried values
 *   walk.c      the instance interpreter: instances, DeviceTasks, per-task needs, assemble
 *               allocations (sections 3, 5, 6)
 *   analyze.c   units, bytes, depths over binding sets, the pc_result (sections 6, 7)
 */
#ifndef POOLCHECK_ANALYSIS_INT_H
#define POOLCHECK_ANALYSIS_INT_H

#include "poolcheck/analysis.h"
#include "support/support.h"

/* ---- roots.c ---------------------------------------------------------------------------------- */

/* A run: a maximal sequence of non-loop statements directly inside one block.  Classification
 * works on runs; a run inside a loop with an unroll list yields one root per factor. */
/* lower.c's report: the first buffer it could not size (why, where), and the kinds of buffers it
 * added (LOW_COPIES: FP32 copies of FP16 / BF16 operands; LOW_REDUCTION: a reduction's halves). */
enum { LOW_COPIES = 1, LOW_REDUCTION = 2 };
typedef struct low_result { const char *why; pc_loc loc; unsigned kinds; } low_result;

typedef struct an_run {
    int loop;               /* owning loop, -1 = kernel body */
    int *stmts; int nstmts; /* top-level statements of the run (OP, IF, UNROLL, UNANALYSED) */
    int ordinal;            /* 1-based index among the runs of the same block */
    bool has_op;            /* does any statement do tensor work (else: no instance) */
} an_run;

typedef struct an_root {
    int run;
    int64_t factor;         /* unroll factor (1 when the loop has no unroll list) */
    const char *name;
} an_root;

/* One entry of a block in execution order: a run (executed as its root for the current factor),
 * a nested loop (index >= 0), or an IF/UNROLL statement that holds loops (index = -(stmt + 1)),
 * walked as control flow. */
typedef struct an_item { bool is_loop; int index; /* run index or loop index */ } an_item;
typedef struct an_body { an_item *items; int nitems; } an_body;

typedef struct an_ctx {
    pc_arena *arena;
    const pc_model *model;
    const pc_kernel *k;
    const pc_analysis_opts *opts;
    const pc_runtime_config *cfg;
    int64_t kcap;                   /* k = min(stitch_function_max_num, 1024) */
    int64_t parallelism;

    an_run *runs; int nruns;
    an_root *roots; int nroots;
    an_body kernel_body;
    an_body *loop_bodies;           /* per loop */
    int64_t **loop_factors;         /* per loop: factors in walk order (desc, 1 last) */
    int *loop_nfactors;
    pc_unroll_rule *loop_rule;      /* per loop: PER_FACTOR or GREEDY (DEFAULT resolved) */
    int *root_of_run_factor;        /* run * 1 + ... see pc_an_root_for() */

    int *stmt_run;                  /* statement -> run (also nested IF/UNROLL statements) */
    int *stmt_pos;                  /* statement -> textual (preorder) position */
    int *stmt_end;                  /* statement -> last position inside it */
    int *stmt_loop;                 /* statement -> innermost enclosing loop (-1) */
    int *stmt_unroll;               /* statement -> factor of the innermost UNROLL block (0 none) */
    an_body **stmt_bodies;          /* IF/UNROLL statements holding loops: one body per branch */

    /* classify.c */
    int *base;                      /* tensor -> alias root (follows view chains) */
    pc_pool *pool;                  /* tensor -> pool */
    const char **reason;
    bool *loop_carried;
    bool *kernel_scope_assemble;    /* assemble tensor created in the kernel body (whole launch) */
    bool *stmt_defines_assemble;    /* statement -> it defines an assemble tensor (pc_an_classify) */
    bool needed[3];
    struct an_tiles *tiles;         /* tiles.c's per-tensor producers and consumers */
    low_result lowering;            /* lower.c: the first buffer its rules could not size */
    int64_t *root_lowered;          /* per root: the most root_inner bytes lower.c adds on a compiled path */
    unsigned *root_lowered_kinds;   /* per root: what they are (LOW_*) */
} an_ctx;

void pc_an_build_roots(an_ctx *c);
/* The root executing run r for unroll factor p. */
int pc_an_root_for(const an_ctx *c, int run, int64_t factor);
/* Is statement s an operation (does tensor work), recursively for IF/UNROLL. */
bool pc_an_stmt_is_op(const an_ctx *c, int s);
/* Does access a count as tensor work (an instance)? */
bool pc_an_access_is_op(const pc_kernel *k, const pc_access *a);
/* Is the branch `b` of IF statement st an else (taken when no earlier branch is)?  The last branch
 * of two or more with neither a condition nor a condition text. */
bool pc_an_branch_is_else(const pc_stmt *st, int b);

/* ---- classify.c ------------------------------------------------------------------------------- */
void pc_an_classify(an_ctx *c);

/* ---- walk.c ----------------------------------------------------------------------------------- */

/* Structural limits of the walk, set where real code never reaches (clang's bracket depth is 256):
 * loops nested in loops (the binding scope holds the index and factor variables of each), IF and
 * UNROLL blocks nested in a root's statements, and expression trees.  Reaching the loop or block
 * limit stops the binding set's walk (truncated, stop_reason AN_STOP_NESTING) and PC012 names the
 * limit; nothing past it is dropped without saying so. */
#define AN_MAX_DEPTH 256
#define AN_MAX_NEST 256
#define AN_MAX_EXPR_DEPTH 256

/* The DeviceTasks in which a statement was on a taken path, as ranges (why's tensor list); past
 * AN_MAX_RANGES ranges it gives up and counts as taken everywhere. */
#define AN_MAX_RANGES 4096
typedef struct an_ranges { int64_t *lo, *hi; int n, cap; bool all; } an_ranges;
bool pc_an_ranges_has(const an_ranges *r, int64_t task);

/* One DeviceTask in order: an explicit task (an_set_result.tasks) and the instances it is shifted
 * by (a task of a period added in closed form is a walked task shifted). */
typedef struct an_vtask { int64_t task, shift; } an_vtask;

#define AN_KEEP_TASKS 262144   /* every DeviceTask is listed (pc_result.tasks) up to this many */

/* Why a truncated walk stopped (an_set_result.stop_reason). */
typedef enum an_stop { AN_STOP_COUNT = 0, AN_STOP_TIME, AN_STOP_CANCELLED, AN_STOP_NESTING } an_stop;

typedef struct an_set_result {
    bool known;                     /* every trip count evaluated (and not truncated) */
    bool truncated;                 /* an explicit max_instances reached: the walk stopped there */
    an_stop stop_reason;            /* truncated: the instance limit or count (0), the time
                                     * budget, the caller's cancel, a nesting limit */
    const char *limit_what;         /* AN_STOP_NESTING: what was nested ("loops"), static text */
    int limit;                      /* AN_STOP_NESTING: the limit (AN_MAX_DEPTH, AN_MAX_NEST) */
    int64_t ninstances;
    PC_VEC(int32_t) instance_roots; /* only kept while ninstances <= AN_KEEP_INSTANCES */
    /* The DeviceTasks the walk closed (explicit tasks).  Periods added in closed form
     * add tasks that repeat explicit ones shifted: nvtasks counts all of them, task_vidx gives
     * each explicit task its number among all, and vtasks lists every task while there are at
     * most AN_KEEP_TASKS (vtasks_dropped past that).  Per-task vectors below are per explicit
     * task; a repeated task has its explicit task's sums, needs and live assemble count. */
    PC_VEC(pc_task) tasks;
    PC_VEC(int64_t) task_vidx;
    int64_t nvtasks;
    PC_VEC(an_vtask) vtasks;
    bool vtasks_dropped;
    int64_t fast_forwards;          /* periods of iterations added in closed form */
    /* per task: sums over the largest workspace copy, bytes and counts */
    PC_VEC(int64_t) task_sum_inner, task_sum_excl, task_cnt_inner, task_cnt_excl;
    int64_t *root_instances;        /* per root */
    int64_t *root_inner, *root_excl;/* per root: max bytes per instance (-1 unknown) */
    int64_t unit_inner, unit_excl;  /* max per instance; -1 when some bytes are unknown */
    int64_t *tensor_bytes;          /* per tensor: largest numel*bits/8 seen (-1 unknown) */
    /* assemble allocations */
    PC_VEC(int64_t) alloc_start, alloc_last;
    PC_VEC(int) alloc_tensor;
    PC_VEC(bool) alloc_whole_launch;
    /* the DeviceTasks (numbered among all) of each allocation's first and last use */
    PC_VEC(int64_t) alloc_start_vt, alloc_last_vt;
    int64_t *task_assemble_live;
    const char **unknowns; int nunknowns;
    /* Paths (model.md section 3): IF statements whose condition could not be decided for some
     * instance (the first undecidable branch of each), in the order met. */
    PC_VEC(int) undecided_stmt, undecided_branch;
    bool *stmt_taken;               /* per statement: on a path some instance took */
    an_ranges *stmt_tasks;          /* per statement: the tasks of those instances */
    size_t nstmt_tasks;
    PC_VEC(int) zero_step_loops;    /* loops whose step evaluated to 0 (no iterations) */
    bool trimmed;                   /* pc_an_set_result_trim was called */
} an_set_result;

#define AN_KEEP_INSTANCES 1000000

void pc_an_walk(an_ctx *c, const pc_bindings *user, an_set_result *out);
/* Compile-time requirement of root r over every path (model.md section 6, "Units"): the largest
 * inner / excl bytes of any path, with the root's own factor variable bound to its factor and
 * other loops' factor variables to their largest factor.  False (and *only_loop_vars) when some
 * size cannot be evaluated; *only_loop_vars says whether only loop indices were missing. */
bool pc_an_root_units(an_ctx *c, int r, const pc_bindings *user, int64_t *inner, int64_t *excl,
                   bool *only_loop_vars);
void pc_an_set_result_free(an_set_result *s);
/* Free the per-task and per-instance parts of a binding set's result that no report reads (it is
 * neither the set with the most instances nor the first to set a pool's maximum): a --shapes file
 * of a thousand sets keeps two or three walks, not a thousand. */
void pc_an_set_result_trim(an_set_result *s);
/* numel*bits/8 of tensor t under the bindings (-1 unknown); unknown symbols appended to syms. */
int64_t pc_an_tensor_bytes(const an_ctx *c, int t, const pc_bindings *sets, size_t nsets);

/* ---- lower.c (docs/model.md 4, "What upstream's lowering adds") ------------------------------- */
/* The root_inner bytes upstream's lowering adds to one path of a root - FP32 copies of FP16
 * operands, a multi-tile reduction's halves - given the OP statements on the path in order;
 * what cannot be sized is left out, the first such op in lr (when given). */
int64_t pc_an_lowered_inner(an_ctx *c, const int *stmts, size_t n, const pc_bindings *sets, size_t nsets,
                            low_result *lr);

/* ---- tiles.c (docs/model.md 7, "Tile pieces of root_inner tensors") ------------------ */
/* The aligned bytes root_inner tensor t takes: its pieces, each rounded up to 512, or
 * AlignUp(raw, 512) when it stays one piece (raw = its numel*bits/8 under sets). */
int64_t pc_an_tiles_inner_bytes(an_ctx *c, int t, const pc_bindings *sets, size_t nsets, int64_t raw);
/* S (n dims, bits per element) cut at multiples of b from 0, the last piece per dim clipped: adds
 * the pieces' aligned bytes (each rounded up to 512) to *bytes and, when text is given, what they
 * are; returns how many pieces. */
int64_t pc_an_add_pieces(const int64_t *S, const int64_t *b, int n, int bits, int64_t *bytes, pc_sb *text);
/* Fill r->tensors[t]'s pieces (aligned_bytes, pieces, pieces_text, reason) and r's list of
 * tensors kept as one piece for want of the rule's inputs. */
void pc_an_tiles_tensor_result(an_ctx *c, pc_result *r, int t, const pc_bindings *sets, size_t nsets);

#endif
