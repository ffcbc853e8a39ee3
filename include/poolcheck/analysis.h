/*
 * poolcheck/analysis.h - pools, instances, DeviceTasks, depths and bytes (spec docs/model.md 3-7).
 *
 * Input: one kernel of a pc_model and the effective runtime configuration.  Output: a
 * pc_result that owns everything it points to (one arena); free with pc_result_free().
 * Analysis never sees a parser: it reads only the model.
 */
#ifndef POOLCHECK_ANALYSIS_H
#define POOLCHECK_ANALYSIS_H

#include "poolcheck/config.h"
#include "poolcheck/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pool indices follow stitch_function_num_per_pool. */
typedef enum pc_pool {
    PC_POOL_ROOT_INNER = 0,
    PC_POOL_ASSEMBLE = 1,
    PC_POOL_EXCLUSIVE = 2,
    PC_POOL_NONE = 3
} pc_pool;

const char *pc_pool_name(pc_pool p);   /* "root_inner", "assemble_outcast", "exclusive_outcast", "none" */

typedef enum pc_inner_policy { PC_INNER_BOUNDARY, PC_INNER_ALL } pc_inner_policy;

typedef struct pc_analysis_opts {
    pc_inner_policy inner_policy;
    /* Binding sets (multi-shape).  Zero sets = one empty set.  Each set is searched before the
     * kernel's own constants.  The prediction is the element-wise maximum over the sets. */
    const pc_bindings *binding_sets;
    size_t nbinding_sets;
    int64_t assemble_headroom;   /* default 1 (docs/model.md section 6) */
    /* An explicit limit on the instances walked per binding set, for callers that must bound
     * their time (fuzzers): past it the walk gives up and reports the depths as bounds
     * (pc_result.truncated; PC012 warns).  0 (the default) = no limit: what repeats is added in
     * closed form, what does not is walked to the end. */
    int64_t max_instances;
    /* Walk every instance, also where a loop's iterations repeat (the walk otherwise
     * records its state at iteration boundaries and, once it repeats, adds the repeating periods
     * in closed form).  The results are the same; tests compare the two. */
    bool walk_every_instance;
    /* Progress of a long walk (instances that have no repeating structure): once the walk of a
     * binding set has taken a second, called about once a second with the kernel's name, the
     * instances walked so far and the seconds spent.  NULL = not called.  The CLI prints it on a
     * terminal. */
    void (*progress)(void *user, const char *kernel, int64_t instances, double seconds);
    void *progress_user;
    /* The walk's time budget per binding set, in seconds (what has no repeating
     * structure is walked, and a walk must never hang the caller): past it the walk stops and the
     * depths are bounds (pc_result.truncated, walk_time_limit; PC012 names the limit).  Default
     * PC_DEFAULT_MAX_WALK_SECONDS; 0 = no limit. */
    double max_walk_seconds;
    /* Polled by the walk every few thousand steps; true stops it like the time budget
     * (pc_result.cancelled).  The LSP server cancels an analysis a newer edit or a shutdown made
     * stale.  NULL = never. */
    bool (*cancelled)(void *user);
    void *cancel_user;
} pc_analysis_opts;

#define PC_DEFAULT_MAX_WALK_SECONDS 60.0

void pc_an_default_opts(pc_analysis_opts *o);

typedef struct pc_tensor_result {
    int tensor;              /* model tensor id */
    pc_pool pool;
    int64_t bytes;           /* numel * bits / 8, -1 unknown (largest over binding sets) */
    int64_t aligned_bytes;   /* AlignUp(bytes, 512), -1 unknown */
    const char *reason;      /* why this pool, one short clause */
    int root;                /* the root function that writes it (-1: none / parameter) */
    /* docs/model.md 7, "Tile pieces": a root_inner tensor upstream stores as several
     * pieces.  pieces = 0: one piece (aligned_bytes = AlignUp(bytes, 512)); else the number of
     * pieces, aligned_bytes is their sum (each rounded up to 512) and pieces_text says what they are
     * ("2 pieces of [1, 32]", "[1, 96] + [1, 32]", "the whole [1, 64] + 2 pieces of [1, 32]"). */
    int pieces;
    const char *pieces_text;
} pc_tensor_result;

typedef struct pc_root_result {
    const char *name;        /* loop name, "<loop>_LoopUnroll<p>" for an unroll factor, or kernel name */
    int loop;                /* -1 = kernel body */
    int64_t unroll_factor;   /* 1 unless an unroll root */
    int64_t instances;       /* over the whole launch; -1 unknown */
    int64_t inner_bytes;     /* max over paths, -1 unknown */
    int64_t excl_bytes;
    /* of the root_inner bytes, the most on one compiled path that are buffers upstream's lowering
     * adds (docs/model.md 4: FP32 copies of FP16 / BF16 operands, a reduction's halves; 0 none),
     * and what they are ("FP32 copies of FP16 operands", ...; NULL with 0) */
    int64_t lowered_bytes;
    const char *lowered_what;
    pc_loc loc;
} pc_root_result;

typedef enum pc_task_close {
    PC_CLOSE_LIMIT,          /* the task holds k instances */
    PC_CLOSE_HARD_LIMIT,     /* 1024 instances inside a parallel loop */
    PC_CLOSE_BARRIER,        /* a submit_before_loop loop starts */
    PC_CLOSE_PARALLEL,       /* a parallel loop starts or ends */
    PC_CLOSE_END             /* the kernel ends */
} pc_task_close;

const char *pc_task_close_name(pc_task_close c);  /* "k reached", "barrier", ... */

typedef struct pc_task {
    int64_t first, last;     /* instance indices, inclusive */
    pc_task_close close;
    int64_t need[3];         /* depth this task needs per pool */
    bool parallel;           /* inside a parallel loop (sums are per workspace copy) */
} pc_task;

typedef struct pc_why_root { const char *name; int loop; int64_t instances; } pc_why_root;

typedef struct pc_why {
    int64_t task;            /* -1 when the pool is not needed */
    int64_t first_instance, last_instance;
    pc_why_root *roots; int nroots;
    const char **tensors; int ntensors;
} pc_why;

/* A path condition the analysis could not decide (model.md section 3, "Paths"): the instances
 * that reach it are charged the maximum over the paths it leaves possible, per pool, so the depths
 * may be higher than a run needs.  One per IF statement (its first undecidable branch). */
typedef struct pc_undecided {
    int stmt;                 /* the PC_STMT_IF statement */
    int branch;               /* the branch whose condition could not be evaluated */
    const char *cond_text;    /* its spelling: the source's (pc_branch.cond_text), else the printed
                               * expression, else "a data-dependent condition"; never NULL */
    pc_loc loc;               /* the branch (else the statement) */
    /* Symbols that are not bound and are not loop variables: binding them (--bind NAME=VALUE)
     * would decide the condition.  None: it is data-dependent (a tensor value). */
    const char **symbols; int nsymbols;
} pc_undecided;

typedef struct pc_result {
    pc_arena *arena;
    const pc_model *model;
    const pc_kernel *kernel;
    pc_tensor_result *tensors; int ntensors;   /* parallel to kernel->tensors */
    pc_root_result *roots; int nroots;

    int64_t predicted[3];    /* -1 = unknown (see bounds/formulas) */
    int64_t bounds[3];       /* upper bounds (k when nothing better is known) */
    const char *formulas[3]; /* depth as an expression of unbound symbols, or NULL */
    int64_t required[3];     /* 1 where the pool is needed, else 0 */
    int64_t suggested[3];    /* predicted (or bound), + headroom on a needed assemble pool; with
                              * suggestion_floor, a pool not needed keeps its configured depth */
    /* The kernel has code poolcheck did not model (a PC012): `suggested` is only what the modelled
     * part needs, at least, and a pool that part does not use keeps the depth it runs with, since
     * the code left out may need it (a 0 there would make the kernel fail to compile). */
    bool suggestion_floor;
    int64_t configured[3];   /* the effective triple ({k,k,k} unless precise) */
    bool precise;
    int64_t k;
    int64_t parallelism;

    int64_t instances;       /* -1 when it depends on an unbound symbol */
    int64_t device_tasks;    /* -1 likewise */
    /* The DeviceTask partition of the binding set that sets the maximum (for reports). */
    /* Every DeviceTask when there are at most 262,144 of them (else NULL and 0; device_tasks
     * still counts them all). */
    pc_task *tasks; int64_t ntasks;
    int32_t *instance_roots; int64_t ninstances; /* root index of each instance, same set */
    pc_why why[3];

    /* Units (docs/model.md 6-7); -1 unknown. */
    int64_t unit_inner, unit_excl, slot_size;
    int n_assemble, n_exclusive;
    bool needed[3];

    /* Tensor workspace bytes (docs/model.md 7); -1 unknown. */
    int64_t ws_predicted, ws_suggested, ws_required, ws_default, ws_configured;

    const char **unknowns; int nunknowns;      /* unbound symbols the numbers depend on */
    /* Assemble tensors whose allocation lives across DeviceTasks (PC011). */
    int *cross_task_assemble; int ncross_task_assemble;
    int64_t assemble_live_max;                 /* most assemble allocations alive at once */

    /* Paths whose condition could not be decided (see pc_undecided), over every binding set. */
    pc_undecided *undecided; int nundecided;
    /* The walk stopped at instance_limit instances (an explicit pc_analysis_opts.max_instances) in some binding
     * set: what comes after is not counted, so nothing is exact: predicted[] is -1 for every needed
     * pool, bounds[] are upper bounds (max(k, what was seen)), instances / device_tasks are -1. */
    bool truncated;
    int64_t instance_limit;
    /* truncated because the instances are more than a count holds (over 2^62), not by max_instances */
    bool too_many_instances;
    /* truncated by the time budget: the limit in seconds (pc_analysis_opts.max_walk_seconds), else 0;
     * cancelled: by the caller's cancel callback.  instance_limit is then the instances walked. */
    double walk_time_limit;
    bool cancelled;
    /* truncated at a structural limit of the walk: what was nested more deeply than the analysis
     * follows ("loops", "IF and UNROLL blocks"; static text) and the limit, else NULL and 0 */
    const char *nesting_what;
    int nesting_limit;
    /* Loops whose step evaluated to 0 (`pypto.loop(0, 10, 0)`, `LoopRange(0, 10, 0)`), in some
     * binding set: upstream rejects them (the loop never ends); the analysis gives them no
     * iterations, no formula and no division by zero.  Ids into kernel->loops, each once. */
    int *zero_step_loops; int nzero_step_loops;
    /* root_inner tensors kept as one piece because the tile-split rule's inputs
     * are unknown (no tile setter before an op, dynamic dims, a matmul's right or transposed
     * operand; docs/model.md 7): their bytes, so U0 and the workspace, may be low.  Tensor ids, a
     * clause saying why, and where (the op or setter concerned). */
    int *tiles_unverified; const char **tiles_unverified_why; pc_loc *tiles_unverified_loc;
    int ntiles_unverified;
    /* docs/model.md 4, "What upstream's lowering adds": why a buffer upstream's lowering may add
     * (an FP16 op's FP32 copy, a reduction's halves) is left out of the root_inner bytes, and the
     * op (NULL: nothing left out) */
    const char *lowering_unknown_why; pc_loc lowering_unknown_loc;
    /* periods of loop iterations added in closed form, over every binding set (0 with
     * walk_every_instance); tests and benchmarks read it to see that the closed form ran. */
    int64_t fast_forwards;
} pc_result;

/* Analyse kernel index `kernel` of m.  Never NULL. */
pc_result *pc_analyze(const pc_model *m, int kernel, const pc_runtime_config *cfg,
                      const pc_analysis_opts *opts);
void pc_result_free(pc_result *r);

/* Tensor workspace bytes for depths d with parallelism P; -1 if units are unknown. */
int64_t pc_workspace_bytes(const pc_result *r, const int64_t d[3], int64_t P);

/* ---- budget plan (docs/model.md 7, scenario 2 of the seed article) ------------------------------ */
/* How a plan prices depths: bytes(d) = AlignUp(fixed + sum_i step[i]*d[i], 32768) * parallelism,
 * the tensor workspace of docs/model.md 7 (step = {U0, A*S, U2}, fixed = (2E+2A)*S). */
typedef struct pc_plan_costs {
    int64_t step[3];         /* raw bytes one more depth of pool i adds, per parallel copy */
    int64_t fixed;           /* depth-independent raw bytes (boundary slots) */
    int64_t parallelism;
} pc_plan_costs;

int64_t pc_plan_costs_bytes(const pc_plan_costs *c, const int64_t d[3]);
/* The costs of r's analysis; false when a unit is unknown (unbound symbols). */
bool pc_an_plan_costs(const pc_result *r, pc_plan_costs *out);

typedef struct pc_plan {
    bool fits;               /* false: even `required` does not fit (PC010) */
    int64_t depths[3];
    int64_t bytes;           /* workspace bytes at depths */
    int64_t budget_bytes;
    int64_t min_bytes;       /* smallest runnable workspace (required depths) */
    int64_t lost[3];         /* predicted - planned, per pool (never negative) */
    int64_t spare_bytes;     /* budget - bytes when it fits */
    /* Added by the planner's owner (additive). */
    bool bytes_unknown;      /* a unit is unknown: nothing was planned (bind the symbols) */
    int64_t start[3];        /* the depths the plan started from */
    int64_t predicted[3];    /* what `lost` is measured against (bounds where unknown) */
    int64_t step_bytes[3];   /* raw bytes per depth step, the lowering order's measure */
    int64_t min_budget_kb;   /* ceil(min_bytes / 1024): the smallest budget that runs */
    int64_t extra_root_steps;/* when it fits: more root_inner steps that also fit (cap 1024) */
    bool headroom_dropped;   /* the assemble headroom slot(s) had to go (PC011 risk) */
} pc_plan;

/* start: the depths to start from (NULL = r->suggested).  Bytes by pc_workspace_bytes. */
void pc_an_plan(const pc_result *r, int64_t budget_bytes, const int64_t *start, pc_plan *out);
/* The same with explicit prices (costs NULL = pc_an_plan), e.g. from a run's logs
 * (pc_log_plan_costs): what the logs measured instead of what the analysis computed. */
void pc_an_plan_ex(const pc_result *r, const pc_plan_costs *costs, int64_t budget_bytes,
                   const int64_t *start, pc_plan *out);

#ifdef __cplusplus
}
#endif
#endif
