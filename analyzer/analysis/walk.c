/* walk.c - the instance interpreter (spec docs/model.md sections 3, 5 and 6).
 *
 * Walks the kernel's control flow like the AICPU control program does, emitting one instance per
 * execution of a root function, cutting DeviceTasks where the runtime submits
 * (DeviceExecuteContext: root-count threshold k outside parallel-for scopes, 1024 inside,
 * LOOP_BARRIER for submit_before_loop, PARALLEL_FOR_BEGIN/END, FINISH), and following every
 * assemble allocation from its first write to the submit after its last reader (slots are
 * recycled only at a submit: TriggerDelayedRecycle). */
#include "analysis_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What one instance of a root needs: the taken path's bytes per pool and whether it does any
 * tensor work at all (a path with no operation produces no instance). */
typedef struct inst_req {
    int64_t inner, excl;     /* bytes, -1 unknown */
    bool has_inner, has_excl, has_op;
} inst_req;

/* Tier 2: a root whose sizes do not follow the loops but whose paths do is computed
 * once per combination of its IF statements' decisions (its path signature). */
#define AN_SIG_WORDS 2
#define AN_SIG_MAX 16
typedef struct req_sig {
    uint64_t sig[AN_SIG_WORDS];
    inst_req v;
    int *taken; int ntaken;
    int64_t marked_task;     /* the task mark_tasks last marked this path in (+1; 0 none) */
} req_sig;

typedef struct req_cache {
    int tier;                /* 0 not computed, 1 valid without loop bindings, 2 per path
                              * signature, 3 per instance */
    inst_req v;
    int *taken; int ntaken;  /* tier 1: the OP statements on the path */
    req_sig *sigs; int nsigs;/* tier 2 */
    int *ifs; int nifs;      /* tier 2: the IF statements of the root, preorder */
    int last_sig;            /* tier 2: the entry of the last requirement (mark_tasks) */
    int64_t marked_task;     /* tier 1: the task mark_tasks last marked the path in (+1; 0 none) */
} req_cache;

/* The statements and loops inside a loop, at any depth. */
typedef struct an_sub { int *stmts; int nstmts; int *loops; int nloops; } an_sub;

typedef struct walker {
    an_ctx *c;
    an_set_result *out;
    pc_binding scope[AN_MAX_DEPTH * 2];
    int nscope;
    pc_bindings sets[3];     /* scope, user, kernel constants */
    int64_t *cur_factor;     /* per loop: factor of the iteration being walked */
    int depth;
    bool stop;               /* unknown trip count or instance cap: the walk is abandoned */
    /* current DeviceTask */
    int64_t task_first, task_count;
    int parallel_depth;
    int64_t copy_inner[8], copy_excl[8], copy_cnt_inner[8], copy_cnt_excl[8];
    /* assemble allocation state per tensor */
    int *cur_alloc;
    bool *need_new;
    /* the assemble tensors a statement creates (pypto.tensor / Tensor t(...) with def_stmt s):
     * created[created_start[s] .. created_start[s + 1]), so entering a statement costs its own
     * tensors, not a scan of every tensor of the kernel (that made 20,000 statements quadratic) */
    int *created_start, *created;
    req_cache *cache;        /* per root */
    bool *root_dyn;          /* per root: a path condition depends on the loops being walked */
    bool *run_asm;           /* per run: it touches or creates an assemble tensor */
    bool *root_sizes_static; /* per root: no tensor size of it names a loop index or another
                              * loop's factor variable (tier 2 possible) */
    struct ix_memo **scan_memo; /* per loop, allocated when first used */
    struct ff_state **ffs;   /* per nesting depth: the iteration-boundary states, made when a
                              * loop at that depth is first walked (most kernels nest a few deep) */
    signed char *scan_static;/* per loop: 0 not known, 1 no size or inner bound names its index,
                              * -1 some does (the index scan) */
    PC_VEC(const char *) unknowns;
    /* loops being walked, outermost first, and per loop the iteration being walked within the
     * current factor's loop (is_loop_begin / is_loop_end are decided against it) */
    int active[AN_MAX_DEPTH];
    int nactive;
    int64_t *iter_pos, *iter_n;
    bool *undecided_seen;    /* per statement */
    bool *zero_step_seen;    /* per loop */
    bool all_paths;          /* compile-time units: every path, no condition evaluated */
    /* all_paths: one compiled path of the root - IF path_ifs[i] takes branch
     * path_choice[path_key[i]] (nbranches: none); npath_ifs 0: every IF its largest branch */
    const int *path_ifs, *path_key, *path_choice;
    int npath_ifs;
    bool mark;               /* record taken statements and undecidable conditions */
    /* DeviceTasks so far (also those added in closed form; the open one's number),
     * assemble allocation events (a new allocation, a use that moves a non-whole-launch one's
     * end, a slot marked for allocation), the last use of any non-whole-launch allocation, and
     * per loop the statements and loops inside it (the index scan) */
    int64_t vtasks, events;
    /* per tensor: allocations (not of the whole launch) whose last use is in the open task, as
     * of task n_open_vt (a count for another task is 0) */
    int *n_open; int64_t *n_open_vt;
    int *asm_list; int nasm;     /* the assemble tensors */
    struct an_sub *sub;
    double t_start, t_last;  /* progress: when the walk started, the last report */
    double t_walk;           /* the budget: when the walk started */
    uint64_t steps;          /* instances and iterations walked (the budget's clock is read every 4096) */
    PC_VEC(int) taken;       /* OP statements on the path of the requirement being computed */
    bool collect;
} walker;

bool pc_an_ranges_has(const an_ranges *r, int64_t task)
{
    if (r->all)
        return true;
    int lo = 0, hi = r->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (r->hi[mid] < task)
            lo = mid + 1;
        else if (r->lo[mid] > task)
            hi = mid - 1;
        else
            return true;
    }
    return false;
}

/* Add the tasks [lo, hi] to r as adding lo, lo + 1, ..., hi one by one would.  Tasks are met in
 * increasing order: extend the last range or start one. */
static void ranges_add_span(an_ranges *r, int64_t lo, int64_t hi)
{
    if (r->all)
        return;
    if (r->n && lo >= r->lo[r->n - 1] && lo <= r->hi[r->n - 1] + 1) {
        if (hi > r->hi[r->n - 1])
            r->hi[r->n - 1] = hi;
        return;
    }
    if (r->n == AN_MAX_RANGES) {
        r->all = true;
        return;
    }
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 4;
        r->lo = pc_mem_realloc(r->lo, (size_t)r->cap * sizeof(int64_t));
        r->hi = pc_mem_realloc(r->hi, (size_t)r->cap * sizeof(int64_t));
    }
    r->lo[r->n] = lo;
    r->hi[r->n] = hi > lo ? hi : lo;
    r->n++;
}

static void ranges_add(an_ranges *r, int64_t task) { ranges_add_span(r, task, task); }

static void refresh_sets(walker *w)
{
    w->sets[0].items = w->scope;
    w->sets[0].count = (size_t)w->nscope;
}

static void add_unknowns(walker *w, const pc_expr *e)
{
    const char *names[32];
    size_t n = pc_expr_symbols(e, names, 0, 32);
    for (size_t i = 0; i < n; i++) {
        int64_t v;
        pc_expr probe = {.kind = PC_EXPR_SYM, .name = names[i]};
        if (pc_expr_eval(&probe, w->sets, 3, &v))
            continue;
        bool dup = false;
        for (size_t j = 0; j < w->unknowns.count; j++)
            if (strcmp(w->unknowns.items[j], names[i]) == 0)
                dup = true;
        if (!dup)
            PC_VEC_PUSH(w->unknowns, names[i]);
    }
}

int64_t pc_an_tensor_bytes(const an_ctx *c, int t, const pc_bindings *sets, size_t nsets)
{
    const pc_tensor *T = &c->k->tensors[t];
    int bits = pc_dtype_bits(T->dtype);
    if (T->ndims < 0 || !T->shape || bits == 0)
        return -1;
    int64_t numel = 1;
    for (int d = 0; d < T->ndims; d++) {
        int64_t v;
        if (!T->shape[d] || !pc_expr_eval(T->shape[d], sets, nsets, &v) || v < 0)
            return -1;
        if (v && numel > INT64_MAX / 64 / v)
            return -1; /* absurd sizes: treat as unknown rather than overflow */
        numel *= v;
    }
    return numel * bits / 8;
}

/* ---- paths: deciding a branch per instance ----------------------------------------------------- */

static int active_loop_of(const walker *w, const char *index_var)
{
    if (!index_var)
        return -1;
    for (int i = w->nactive - 1; i >= 0; i--) {
        const pc_loop *lp = &w->c->k->loops[w->active[i]];
        if (lp->index_var && strcmp(lp->index_var, index_var) == 0)
            return w->active[i];
    }
    return -1;
}

/* A branch condition's value for the instance being walked: constants, bound symbols, the
 * enclosing loops' indices and factor variables (all in w->sets), and is_loop_begin / is_loop_end
 * of an enclosing loop (of the factor's own loop under unroll).  `x and y` is false when one side
 * is, `x or y` true when one side is, even if the other cannot be evaluated. */
static bool eval_cond(const walker *w, const pc_expr *e, int64_t *out, int depth)
{
    if (!e || depth > AN_MAX_EXPR_DEPTH)
        return false;
    switch (e->kind) {
    case PC_EXPR_INT: *out = e->value; return true;
    case PC_EXPR_SYM: return pc_expr_eval(e, w->sets, 3, out);
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END: {
        int l = active_loop_of(w, e->name);
        if (l < 0)
            return false;
        *out = e->kind == PC_EXPR_IS_LOOP_BEGIN ? w->iter_pos[l] == 0 : w->iter_pos[l] == w->iter_n[l] - 1;
        return true;
    }
    case PC_EXPR_NOT: {
        int64_t v;
        if (!eval_cond(w, e->a, &v, depth + 1))
            return false;
        *out = v == 0;
        return true;
    }
    case PC_EXPR_AND:
    case PC_EXPR_OR: {
        bool is_and = e->kind == PC_EXPR_AND;
        int64_t x = 0, y = 0;
        bool kx = eval_cond(w, e->a, &x, depth + 1), ky = eval_cond(w, e->b, &y, depth + 1);
        if (kx && ky) {
            *out = is_and ? (x != 0 && y != 0) : (x != 0 || y != 0);
            return true;
        }
        if ((kx && (x != 0) != is_and) || (ky && (y != 0) != is_and)) {
            *out = !is_and;
            return true;
        }
        return false;
    }
    case PC_EXPR_NEG: {
        int64_t v;
        if (!eval_cond(w, e->a, &v, depth + 1) || v == INT64_MIN)
            return false;
        *out = -v;
        return true;
    }
    default: {
        int64_t x, y;
        if (!eval_cond(w, e->a, &x, depth + 1) || !eval_cond(w, e->b, &y, depth + 1))
            return false;
        pc_expr lx = {.kind = PC_EXPR_INT, .value = x}, ly = {.kind = PC_EXPR_INT, .value = y};
        pc_expr op = {.kind = e->kind, .a = &lx, .b = &ly};
        return pc_expr_eval(&op, NULL, 0, out);
    }
    }
}

static void note_undecided(walker *w, int s, int b)
{
    if (!w->mark || w->undecided_seen[s])
        return;
    w->undecided_seen[s] = true;
    PC_VEC_PUSH(w->out->undecided_stmt, s);
    PC_VEC_PUSH(w->out->undecided_branch, b);
}

/* Which branches of IF statement s the instance can take (model.md section 3, "Paths"): the first
 * branch whose condition holds (an else when none does, no branch at all without an else).  An
 * undecidable condition leaves that branch and the rest of the chain possible.  cand has
 * nbranches + 1 entries, the last one standing for "no branch"; returns how many are set. */
static int decide_if(walker *w, int s, bool *cand)
{
    const pc_stmt *st = &w->c->k->stmts[s];
    int n = 0;
    bool open = true;
    for (int b = 0; b <= st->nbranches; b++)
        cand[b] = false;
    for (int i = 0; w->all_paths && i < w->npath_ifs; i++)
        if (w->path_ifs[i] == s) {
            cand[w->path_choice[w->path_key[i]]] = true;
            return 1;
        }
    for (int b = 0; b < st->nbranches && open; b++) {
        const pc_branch *br = &st->branches[b];
        int t;
        if (w->all_paths)
            t = -1;
        else if (br->decided == 1)
            t = 1;
        else if (br->decided == 0)
            t = 0;
        else if (pc_an_branch_is_else(st, b))
            t = 1;
        else if (!br->cond)
            t = -1; /* data-dependent: the frontend kept only its spelling */
        else {
            int64_t v;
            t = eval_cond(w, br->cond, &v, 0) ? v != 0 : -1;
        }
        if (t == 0)
            continue;
        cand[b] = true;
        n++;
        if (t == 1)
            open = false;
        else if (!w->all_paths)
            note_undecided(w, s, b);
    }
    if (open) {
        cand[st->nbranches] = true;
        n++;
    }
    return n;
}

/* Candidate buffer: small IFs on the stack, long elif chains on the heap. */
typedef struct cand_buf { bool small[17]; bool *v; } cand_buf;

static bool *cand_get(cand_buf *cb, int nbranches)
{
    cb->v = nbranches < 16 ? cb->small : pc_mem_alloc((size_t)(nbranches + 1) * sizeof(bool));
    return cb->v;
}

static void cand_free(cand_buf *cb)
{
    if (cb->v && cb->v != cb->small)
        pc_mem_free(cb->v);
}

/* ---- per-instance requirements ----------------------------------------------------------------- */

typedef struct seen { int *t; int n, cap; } seen;

static bool seen_has(const seen *s, int t)
{
    for (int i = 0; i < s->n; i++)
        if (s->t[i] == t)
            return true;
    return false;
}

/* The bytes of the value a C++ `t = e` stores, when its shape is not t's (pc_access.region); -1
 * when a dim is not known. */
static int64_t region_bytes(const pc_kernel *k, int t, const pc_access *a, const pc_bindings *sets)
{
    int bits = pc_dtype_bits(k->tensors[t].dtype);
    int64_t numel = 1;
    for (int d = 0; d < a->region_rank; d++) {
        int64_t v;
        if (!pc_expr_eval(a->region[d], sets, 3, &v) || v < 0 || (v && numel > INT64_MAX / 64 / v))
            return -1;
        numel *= v;
    }
    return bits ? numel * bits / 8 : -1;
}

/* A structural limit was reached (what: the limit, as PC012 names it): the binding set's walk
 * stops and is truncated, so what lies past the limit is reported, not dropped. */
static void nesting_limit(walker *w, const char *what, int limit)
{
    if (w->out->stop_reason != AN_STOP_NESTING) {
        w->out->limit_what = what;
        w->out->limit = limit;
    }
    w->out->stop_reason = AN_STOP_NESTING;
    w->out->truncated = true;
    w->out->known = false;
    w->stop = true;
}

/* Is a block of n statements at IF / UNROLL nesting `depth` past AN_MAX_NEST?  Then the set's
 * walk stops there (PC012 names the limit): the one rule of stmts_req and path_ops. */
static bool block_too_deep(walker *w, int n, int depth)
{
    if (n <= 0 || depth < AN_MAX_NEST)
        return false;
    nesting_limit(w, "IF and UNROLL blocks", AN_MAX_NEST);
    return true;
}

/* Sum of aligned bytes of distinct pool-`pool` tensors written by the statements on the path the
 * instance takes (an undecidable IF, or every IF in all_paths mode: its largest branch).  Returns
 * false when some size is unknown. */
static bool stmts_req(walker *w, const int *stmts, int n, int64_t factor, pc_pool pool, seen *done,
                      int64_t *sum, bool *any, int depth)
{
    an_ctx *c = w->c;
    const pc_kernel *k = c->k;
    if (block_too_deep(w, n, depth))
        return false;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        int s = stmts[i];
        if (s < 0 || s >= k->nstmts)
            continue;
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_OP) {
            if (w->mark)
                w->out->stmt_taken[s] = true;
            if (w->collect)
                PC_VEC_PUSH(w->taken, s);
            for (int j = 0; j < st->naccesses; j++) {
                const pc_access *a = &st->accesses[j];
                if (a->kind == PC_ACC_READ || a->tensor < 0 || a->tensor >= k->ntensors)
                    continue;
                if (a->kind == PC_ACC_DEFINE && k->tensors[a->tensor].kind == PC_TENSOR_VIEW)
                    continue; /* making a view writes nothing into its base */
                int t = c->base[a->tensor];
                if (c->pool[t] != pool || seen_has(done, t))
                    continue;
                if (pool == PC_POOL_EXCLUSIVE && a->kind == PC_ACC_DEFINE &&
                    k->tensors[t].kind == PC_TENSOR_CREATED)
                    continue; /* a declaration writes nothing */
                if (done->n == done->cap) {
                    done->cap = done->cap ? done->cap * 2 : 16;
                    done->t = pc_mem_realloc(done->t, (size_t)done->cap * sizeof(int));
                }
                done->t[done->n++] = t;
                *any = true;
                int64_t b = a->kind == PC_ACC_WRITE_WHOLE && a->region_rank >= 0
                                ? region_bytes(k, t, a, w->sets)
                                : pc_an_tensor_bytes(c, t, w->sets, 3);
                if (b < 0) {
                    ok = false;
                    continue;
                }
                if (b > w->out->tensor_bytes[t])
                    w->out->tensor_bytes[t] = b;
                *sum += pool == PC_POOL_ROOT_INNER ? pc_an_tiles_inner_bytes(c, t, w->sets, 3, b) : pc_align_up(b, 512);
            }
        } else if (st->kind == PC_STMT_IF) {
            cand_buf cb = {0};
            bool *cand = cand_get(&cb, st->nbranches);
            int ncand = decide_if(w, s, cand);
            int only = -1;
            for (int br = 0; br < st->nbranches && ncand == 1; br++)
                if (cand[br])
                    only = br;
            if (ncand == 1 && only >= 0) {
                /* one path: its tensors join the root's (shared with what came before) */
                ok &= stmts_req(w, st->branches[only].body.stmts, st->branches[only].body.count, factor, pool,
                                done, sum, any, depth + 1);
            } else if (ncand > 1) {
                int64_t best = 0;
                bool best_any = false;
                for (int br = 0; br < st->nbranches; br++) {
                    if (!cand[br])
                        continue;
                    seen local = {0};
                    if (done->n) {
                        local.t = pc_mem_alloc((size_t)done->n * sizeof(int));
                        memcpy(local.t, done->t, (size_t)done->n * sizeof(int));
                        local.n = local.cap = done->n;
                    }
                    int64_t bs = 0;
                    bool bany = false;
                    if (!stmts_req(w, st->branches[br].body.stmts, st->branches[br].body.count, factor, pool,
                                   &local, &bs, &bany, depth + 1))
                        ok = false;
                    pc_mem_free(local.t);
                    if (bs > best)
                        best = bs;
                    best_any |= bany;
                }
                *sum += best;
                *any |= best_any;
            }
            cand_free(&cb);
        } else if (st->kind == PC_STMT_UNROLL) {
            if (st->unroll_factor == factor)
                ok &= stmts_req(w, st->unroll_body.stmts, st->unroll_body.count, factor, pool, done, sum,
                                any, depth + 1);
        }
    }
    return ok;
}

/* Visit, in order, the OP statements of a block on the path an instance of unroll factor `factor`
 * takes: an IF's candidate branches (every possible one when undecidable), the UNROLL bodies of
 * this factor.  visit(w, s, arg) returns true to stop the walk; path_ops then returns true. */
typedef bool (*path_op_fn)(walker *w, int s, void *arg);

static bool path_ops(walker *w, const int *stmts, int n, int64_t factor, int depth, path_op_fn visit, void *arg)
{
    const pc_kernel *k = w->c->k;
    if (block_too_deep(w, n, depth))
        return false;
    for (int i = 0; i < n; i++) {
        int s = stmts[i];
        if (s < 0 || s >= k->nstmts)
            continue;
        const pc_stmt *st = &k->stmts[s];
        bool stop = false;
        if (st->kind == PC_STMT_OP) {
            stop = visit(w, s, arg);
        } else if (st->kind == PC_STMT_IF) {
            cand_buf cb = {0};
            bool *cand = cand_get(&cb, st->nbranches);
            decide_if(w, s, cand);
            for (int br = 0; br < st->nbranches && !stop; br++)
                if (cand[br])
                    stop = path_ops(w, st->branches[br].body.stmts, st->branches[br].body.count, factor, depth + 1,
                                    visit, arg);
            cand_free(&cb);
        } else if (st->kind == PC_STMT_UNROLL && st->unroll_factor == factor) {
            stop = path_ops(w, st->unroll_body.stmts, st->unroll_body.count, factor, depth + 1, visit, arg);
        }
        if (stop)
            return true;
    }
    return false;
}

static bool does_tensor_work(walker *w, int s, void *arg)
{
    (void)arg;
    return pc_an_stmt_is_op(w->c, s);
}

/* Does the path the instance takes do any tensor work?  (An undecidable IF: any of its paths.) */
static bool stmts_have_op(walker *w, const int *stmts, int n, int64_t factor)
{
    return path_ops(w, stmts, n, factor, 0, does_tensor_work, NULL);
}

typedef PC_VEC(int) int_vec;

static bool collect_op(walker *w, int s, void *arg)
{
    (void)w;
    PC_VEC_PUSH(*(int_vec *)arg, s);
    return false;
}

/* The root_inner bytes upstream's lowering adds on the path an instance (or, in all_paths mode,
 * a compiled path) of the root takes (lower.c); lr, when given, learns what could not be sized. */
static int64_t lowered_bytes(walker *w, const an_run *run, int64_t factor, low_result *lr)
{
    int_vec ops = {0};
    path_ops(w, run->stmts, run->nstmts, factor, 0, collect_op, &ops);
    int64_t b = ops.count ? pc_an_lowered_inner(w->c, ops.items, ops.count, w->sets, 3, lr) : 0;
    PC_VEC_FREE(ops);
    return b;
}

static void req_once(walker *w, int r, inst_req *out, bool *ok_all)
{
    an_ctx *c = w->c;
    const an_root *root = &c->roots[r];
    const an_run *run = &c->runs[root->run];
    int64_t si = 0, se = 0;
    bool ai = false, ae = false;
    seen d1 = {0}, d2 = {0};
    bool ok1 = stmts_req(w, run->stmts, run->nstmts, root->factor, PC_POOL_ROOT_INNER, &d1, &si, &ai, 0);
    bool ok2 = stmts_req(w, run->stmts, run->nstmts, root->factor, PC_POOL_EXCLUSIVE, &d2, &se, &ae, 0);
    pc_mem_free(d1.t);
    pc_mem_free(d2.t);
    int64_t lowered = ok1 ? lowered_bytes(w, run, root->factor, NULL) : 0;
    si += lowered;
    ai |= lowered > 0;
    out->inner = ok1 ? si : -1;
    out->excl = ok2 ? se : -1;
    out->has_inner = ai;
    out->has_excl = ae;
    out->has_op = stmts_have_op(w, run->stmts, run->nstmts, root->factor);
    *ok_all = ok1 && ok2;
}


/* Past AN_MAX_NEST the IFs are not collected: stmts_req and path_ops, which walk the same
 * blocks, stop the walk there and PC012 names the limit. */
static void collect_ifs(const pc_kernel *k, const int *stmts, int n, int64_t factor, int_vec *out, int depth)
{
    for (int i = 0; i < n && depth < AN_MAX_NEST; i++) {
        int s = stmts[i];
        if (s < 0 || s >= k->nstmts)
            continue;
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_IF) {
            PC_VEC_PUSH(*out, s);
            for (int b = 0; b < st->nbranches; b++)
                collect_ifs(k, st->branches[b].body.stmts, st->branches[b].body.count, factor, out, depth + 1);
        } else if (st->kind == PC_STMT_UNROLL && st->unroll_factor == factor) {
            collect_ifs(k, st->unroll_body.stmts, st->unroll_body.count, factor, out, depth + 1);
        }
    }
}

/* The path signature of root r for the instance being walked: every IF statement's candidate
 * branches (no note is taken: the requirement, computed on a miss, takes them).  False when it
 * does not fit. */
static bool path_signature(walker *w, req_cache *rc, uint64_t sig[AN_SIG_WORDS])
{
    memset(sig, 0, AN_SIG_WORDS * sizeof(uint64_t));
    int bit = 0;
    bool saved = w->mark;
    w->mark = false;
    bool ok = true;
    for (int i = 0; i < rc->nifs && ok; i++) {
        const pc_stmt *st = &w->c->k->stmts[rc->ifs[i]];
        if (bit + st->nbranches + 1 > AN_SIG_WORDS * 64) {
            ok = false;
            break;
        }
        cand_buf cb = {0};
        bool *cand = cand_get(&cb, st->nbranches);
        decide_if(w, rc->ifs[i], cand);
        for (int b = 0; b <= st->nbranches; b++, bit++)
            if (cand[b])
                sig[bit / 64] |= (uint64_t)1 << (bit % 64);
        cand_free(&cb);
    }
    w->mark = saved;
    return ok;
}

static void root_req(walker *w, int r, inst_req *out)
{
    req_cache *rc = &w->cache[r];
    if (rc->tier == 1) {
        *out = rc->v;
        return;
    }
    /* Tier 1: a root whose sizes and path conditions do not depend on loop indices or factors is
     * computed once; any other per instance. */
    w->taken.count = 0;
    w->collect = w->mark;
    if (rc->tier == 0 && !w->root_dyn[r]) {
        /* the only scope binding every instance of the root shares: its own loop's factor
         * variable, which is the root's factor */
        pc_bindings saved = w->sets[0];
        const an_run *run = &w->c->runs[w->c->roots[r].run];
        pc_binding own = {NULL, w->c->roots[r].factor};
        if (run->loop >= 0)
            own.name = w->c->k->loops[run->loop].factor_var;
        w->sets[0].items = &own;
        w->sets[0].count = own.name && *own.name ? 1 : 0;
        bool ok;
        req_once(w, r, out, &ok);
        w->sets[0] = saved;
        /* unknown sizes that do not follow the loops are unknown in every instance alike */
        if (ok || w->root_sizes_static[r]) {
            rc->tier = 1;
            rc->v = *out;
            rc->ntaken = (int)w->taken.count;
            rc->taken = pc_mem_alloc((w->taken.count ? w->taken.count : 1) * sizeof(int));
            if (w->taken.count)
                memcpy(rc->taken, w->taken.items, w->taken.count * sizeof(int));
            w->collect = false;
            return;
        }
        w->taken.count = 0;
    }
    if (rc->tier == 0) {
        rc->tier = 3;
        if (w->root_dyn[r] && w->root_sizes_static[r]) {
            const an_root *root = &w->c->roots[r];
            const an_run *run = &w->c->runs[root->run];
            int_vec ifs = {0};
            collect_ifs(w->c->k, run->stmts, run->nstmts, root->factor, &ifs, 0);
            rc->ifs = ifs.items;
            rc->nifs = (int)ifs.count;
            rc->tier = 2;
        }
    }
    if (rc->tier == 2) {
        uint64_t sig[AN_SIG_WORDS];
        if (path_signature(w, rc, sig)) {
            for (int i = 0; i < rc->nsigs; i++)
                if (memcmp(rc->sigs[i].sig, sig, sizeof sig) == 0) {
                    *out = rc->sigs[i].v;
                    rc->last_sig = i;
                    w->collect = false;
                    return;
                }
            if (rc->nsigs < AN_SIG_MAX) {
                bool ok;
                req_once(w, r, out, &ok);
                rc->sigs = pc_mem_realloc(rc->sigs, (size_t)(rc->nsigs + 1) * sizeof(req_sig));
                req_sig *e = &rc->sigs[rc->nsigs];
                memcpy(e->sig, sig, sizeof sig);
                e->v = *out;
                e->marked_task = 0;
                e->ntaken = (int)w->taken.count;
                e->taken = pc_mem_alloc((w->taken.count ? w->taken.count : 1) * sizeof(int));
                if (w->taken.count)
                    memcpy(e->taken, w->taken.items, w->taken.count * sizeof(int));
                rc->last_sig = rc->nsigs++;
                w->collect = false;
                return;
            }
        }
        rc->last_sig = -1;
    }
    bool ok;
    req_once(w, r, out, &ok);
    w->collect = false;
}

/* The statements on the path of root r's last requirement were taken in DeviceTask `task`. */
static void mark_tasks(walker *w, int r, int64_t task)
{
    req_cache *rc = &w->cache[r];
    const int *list = rc->tier == 1 ? rc->taken : w->taken.items;
    int n = rc->tier == 1 ? rc->ntaken : (int)w->taken.count;
    if (rc->tier == 2 && rc->last_sig >= 0) {
        list = rc->sigs[rc->last_sig].taken;
        n = rc->sigs[rc->last_sig].ntaken;
    }
    /* the same path marked in the same task again changes nothing */
    if (rc->tier == 1) {
        if (rc->marked_task == task + 1)
            return;
        rc->marked_task = task + 1;
    } else if (rc->tier == 2 && rc->last_sig >= 0) {
        req_sig *e = &rc->sigs[rc->last_sig];
        if (e->marked_task == task + 1)
            return;
        e->marked_task = task + 1;
    }
    for (int i = 0; i < n; i++)
        ranges_add(&w->out->stmt_tasks[list[i]], task);
}

/* Does a condition depend on the walk's loop scope (a loop index, a factor variable, a loop
 * predicate)? */
static bool cond_dynamic(const pc_kernel *k, const pc_expr *e, int depth)
{
    if (!e || depth > AN_MAX_EXPR_DEPTH)
        return false;
    if (e->kind == PC_EXPR_IS_LOOP_BEGIN || e->kind == PC_EXPR_IS_LOOP_END)
        return true;
    if (e->kind == PC_EXPR_SYM) {
        for (int l = 0; l < k->nloops; l++)
            if ((k->loops[l].index_var && strcmp(k->loops[l].index_var, e->name) == 0) ||
                (k->loops[l].factor_var && strcmp(k->loops[l].factor_var, e->name) == 0))
                return true;
        return false;
    }
    return cond_dynamic(k, e->a, depth + 1) || cond_dynamic(k, e->b, depth + 1);
}

static bool stmts_dynamic(const pc_kernel *k, const int *stmts, int n, int depth)
{
    if (n > 0 && depth >= AN_MAX_NEST)
        return true; /* not looked at: dynamic, the safe answer (the walk stops there, PC012) */
    for (int i = 0; i < n; i++) {
        int s = stmts[i];
        if (s < 0 || s >= k->nstmts)
            continue;
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_IF) {
            for (int b = 0; b < st->nbranches; b++)
                if (cond_dynamic(k, st->branches[b].cond, 0) ||
                    stmts_dynamic(k, st->branches[b].body.stmts, st->branches[b].body.count, depth + 1))
                    return true;
        } else if (st->kind == PC_STMT_UNROLL) {
            if (stmts_dynamic(k, st->unroll_body.stmts, st->unroll_body.count, depth + 1))
                return true;
        }
    }
    return false;
}

/* ---- DeviceTasks ------------------------------------------------------------------------------- */

static void cut(walker *w, pc_task_close why)
{
    if (w->task_count == 0)
        return;
    an_set_result *o = w->out;
    pc_task t = {0};
    t.first = w->task_first;
    t.last = w->task_first + w->task_count - 1;
    t.close = why;
    t.parallel = w->parallel_depth > 0;
    PC_VEC_PUSH(o->tasks, t);
    PC_VEC_PUSH(o->task_vidx, w->vtasks);
    if (!o->vtasks_dropped) {
        if (o->vtasks.count >= AN_KEEP_TASKS) {
            o->vtasks_dropped = true;
            PC_VEC_FREE(o->vtasks);
        } else {
            an_vtask v = {(int64_t)o->tasks.count - 1, 0};
            PC_VEC_PUSH(o->vtasks, v);
        }
    }
    w->vtasks++;
    int64_t mi = 0, me = 0, ci = 0, ce = 0;
    int copies = (int)(w->c->parallelism < 1 ? 1 : w->c->parallelism > 8 ? 8 : w->c->parallelism);
    for (int p = 0; p < copies; p++) {
        /* unknown bytes poison a copy's sum: keep -1 */
        if (w->copy_inner[p] < 0 || mi < 0) mi = -1; else if (w->copy_inner[p] > mi) mi = w->copy_inner[p];
        if (w->copy_excl[p] < 0 || me < 0) me = -1; else if (w->copy_excl[p] > me) me = w->copy_excl[p];
        if (w->copy_cnt_inner[p] > ci) ci = w->copy_cnt_inner[p];
        if (w->copy_cnt_excl[p] > ce) ce = w->copy_cnt_excl[p];
    }
    PC_VEC_PUSH(o->task_sum_inner, mi);
    PC_VEC_PUSH(o->task_sum_excl, me);
    PC_VEC_PUSH(o->task_cnt_inner, ci);
    PC_VEC_PUSH(o->task_cnt_excl, ce);
    memset(w->copy_inner, 0, sizeof w->copy_inner);
    memset(w->copy_excl, 0, sizeof w->copy_excl);
    memset(w->copy_cnt_inner, 0, sizeof w->copy_cnt_inner);
    memset(w->copy_cnt_excl, 0, sizeof w->copy_cnt_excl);
    w->task_first += w->task_count;
    w->task_count = 0;
}

/* ---- assemble allocations ----------------------------------------------------------------------- */

static int64_t n_open_of(const walker *w, int t) { return w->n_open_vt[t] == w->vtasks ? w->n_open[t] : 0; }

static void cover_open(walker *w, int t)
{
    if (w->n_open_vt[t] != w->vtasks) {
        w->n_open_vt[t] = w->vtasks;
        w->n_open[t] = 0;
    }
    w->n_open[t]++;
}

static void push_alloc(an_set_result *o, int t, bool whole, int64_t start, int64_t last, int64_t start_vt,
                       int64_t last_vt)
{
    PC_VEC_PUSH(o->alloc_start, start);
    PC_VEC_PUSH(o->alloc_last, last);
    PC_VEC_PUSH(o->alloc_tensor, t);
    PC_VEC_PUSH(o->alloc_whole_launch, whole);
    PC_VEC_PUSH(o->alloc_start_vt, start_vt);
    PC_VEC_PUSH(o->alloc_last_vt, last_vt);
}

static void new_alloc(walker *w, int t, int64_t inst)
{
    an_set_result *o = w->out;
    w->cur_alloc[t] = (int)o->alloc_start.count;
    w->need_new[t] = false;
    w->events++;
    bool whole = w->c->kernel_scope_assemble[t];
    if (!whole)
        cover_open(w, t);
    push_alloc(o, t, whole, inst, inst, w->vtasks, w->vtasks);
}

/* A use moves allocation `a` of tensor t to end at inst (in the open task). */
static void extend_alloc(walker *w, int t, int a, int64_t inst)
{
    an_set_result *o = w->out;
    o->alloc_last.items[a] = inst;
    if (o->alloc_last_vt.items[a] != w->vtasks) {
        o->alloc_last_vt.items[a] = w->vtasks;
        if (!w->c->kernel_scope_assemble[t]) {
            w->events++;
            cover_open(w, t);
        }
    }
}

/* The assemble events of one OP statement taken by instance `inst` (with creations_only, only the
 * creations the path marks for allocation). */
typedef struct assemble_visit { int64_t inst; bool creations_only; } assemble_visit;

static bool assemble_events_op(walker *w, int s, void *arg)
{
    const assemble_visit *v = arg;
    an_ctx *c = w->c;
    const pc_kernel *k = c->k;
    const pc_stmt *st = &k->stmts[s];
    /* upstream emits RUNTIME_SlotMarkNeedAlloc each time the creating path is entered */
    for (int i2 = w->created_start[s]; i2 < w->created_start[s + 1]; i2++)
        if (!w->need_new[w->created[i2]]) {
            w->need_new[w->created[i2]] = true;
            w->events++;
        }
    if (v->creations_only)
        return false;
    for (int j = 0; j < st->naccesses; j++) {
        const pc_access *a = &st->accesses[j];
        if (a->tensor < 0 || a->tensor >= k->ntensors)
            continue;
        if (a->kind == PC_ACC_DEFINE && k->tensors[a->tensor].kind == PC_TENSOR_VIEW)
            continue; /* making a view neither writes nor reads its base */
        int t = c->base[a->tensor];
        if (c->pool[t] != PC_POOL_ASSEMBLE)
            continue;
        int cur = w->cur_alloc[t];
        switch (a->kind) {
        case PC_ACC_READ:
            if (cur >= 0 && w->out->alloc_last.items[cur] < v->inst)
                extend_alloc(w, t, cur, v->inst);
            break;
        case PC_ACC_DEFINE:
            if (k->tensors[t].kind == PC_TENSOR_CREATED)
                break;
            /* a defined value is a whole write */
            __attribute__((fallthrough));
        case PC_ACC_WRITE_WHOLE:
            /* a non-assemble producer marks the slot for allocation (IsOutcastNeedAlloc) */
            if (cur < 0 || w->out->alloc_start.items[cur] != v->inst)
                new_alloc(w, t, v->inst);
            break;
        case PC_ACC_WRITE_ASSEMBLE:
        case PC_ACC_WRITE_ELEMENT:
            if (cur < 0 || w->need_new[t])
                new_alloc(w, t, v->inst);
            else if (w->out->alloc_last.items[cur] < v->inst)
                extend_alloc(w, t, cur, v->inst);
            break;
        }
    }
    return false;
}

static void assemble_events_stmts(walker *w, const int *stmts, int n, int64_t inst, int64_t factor,
                                  bool creations_only)
{
    assemble_visit v = {inst, creations_only};
    path_ops(w, stmts, n, factor, 0, assemble_events_op, &v);
}

/* ---- the walk ------------------------------------------------------------------------------------ */

static double now_seconds(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every 65536 instances: past one second of walking, tell the caller (about once a second) how far
 * the walk of instances that have no repeating structure has come. */
static void progress_tick(walker *w)
{
    double t = now_seconds();
    if (t - w->t_start < 1.0 || t - w->t_last < 1.0)
        return;
    w->t_last = t;
    w->c->opts->progress(w->c->opts->progress_user, w->c->k->name, w->out->ninstances, t - w->t_start);
}

/* The walk's budget: past pc_analysis_opts.max_walk_seconds, or once the
 * caller's cancel callback says so, the walk stops; the depths are then bounds (truncated, PC012
 * names the limit).  Checked every 4096 steps (instances and loop iterations), so a walk of loops
 * without instances is bounded too and a cancel takes effect within milliseconds. */
static void budget_tick(walker *w)
{
    if (++w->steps & 0xFFF)
        return;
    const pc_analysis_opts *o = w->c->opts;
    if (o->cancelled && o->cancelled(o->cancel_user)) {
        w->out->stop_reason = AN_STOP_CANCELLED;
    } else if (o->max_walk_seconds > 0 && now_seconds() - w->t_walk > o->max_walk_seconds) {
        w->out->stop_reason = AN_STOP_TIME;
    } else {
        return;
    }
    w->out->truncated = true;
    w->out->known = false;
    w->stop = true;
}

static void emit_instance(walker *w, int r, const inst_req *q)
{
    an_ctx *c = w->c;
    an_set_result *o = w->out;
    if (w->parallel_depth > 0) {
        if (w->task_count >= PC_MAX_DEPTH) /* upstream's threshold inside a parallel-for: the largest depth */
            cut(w, PC_CLOSE_HARD_LIMIT);
    } else if (w->task_count >= c->kcap) {
        cut(w, PC_CLOSE_LIMIT);
    }
    int64_t inst = o->ninstances++;
    int64_t pos = w->task_count++;
    int copy = 0;
    if (w->parallel_depth > 0 && c->parallelism > 1)
        copy = (int)(pos % (c->parallelism > 8 ? 8 : c->parallelism));
    int64_t inner = q->inner, excl = q->excl;
    if (w->copy_inner[copy] >= 0)
        w->copy_inner[copy] = inner < 0 ? -1 : w->copy_inner[copy] + inner;
    if (w->copy_excl[copy] >= 0)
        w->copy_excl[copy] = excl < 0 ? -1 : w->copy_excl[copy] + excl;
    w->copy_cnt_inner[copy] += q->has_inner;
    w->copy_cnt_excl[copy] += q->has_excl;
    if (inner < 0 || o->unit_inner < 0) o->unit_inner = -1; else if (inner > o->unit_inner) o->unit_inner = inner;
    if (excl < 0 || o->unit_excl < 0) o->unit_excl = -1; else if (excl > o->unit_excl) o->unit_excl = excl;
    o->root_instances[r]++;
    if (o->root_inner[r] >= 0 && (inner < 0 || inner > o->root_inner[r]))
        o->root_inner[r] = inner;
    if (o->root_excl[r] >= 0 && (excl < 0 || excl > o->root_excl[r]))
        o->root_excl[r] = excl;
    if (o->ninstances <= AN_KEEP_INSTANCES)
        PC_VEC_PUSH(o->instance_roots, (int32_t)r);
    const an_run *run = &c->runs[c->roots[r].run];
    if (w->run_asm[c->roots[r].run])
        assemble_events_stmts(w, run->stmts, run->nstmts, inst, c->roots[r].factor, false);
    if ((o->ninstances & 0xFFFF) == 0 && c->opts->progress)
        progress_tick(w);
    budget_tick(w);
    if (c->opts->max_instances > 0 && o->ninstances >= c->opts->max_instances) {
        /* an explicit limit (pc_analysis_opts.max_instances; none by default): the walk stops
         * here and nothing after it is counted, so the numbers are not exact (analyze.c reports
         * them as bounds, PC012 says why) */
        o->truncated = true;
        o->known = false;
        w->stop = true;
    }
}

static void walk_body(walker *w, const an_body *body, int loop);

static bool eval(walker *w, const pc_expr *e, int64_t *v)
{
    if (pc_expr_eval(e, w->sets, 3, v))
        return true;
    add_unknowns(w, e);
    return false;
}

static void push_binding(walker *w, const char *name, int64_t v)
{
    if (!name || !*name)
        return;
    /* two bindings (index, factor) per enclosing loop: the loop-nesting limit stops the walk
     * first, so this is never reached; if it were, the walk stops and says so, never a lost index */
    if (w->nscope >= AN_MAX_DEPTH * 2) {
        nesting_limit(w, "loop bindings", AN_MAX_DEPTH * 2);
        return;
    }
    w->scope[w->nscope].name = name;
    w->scope[w->nscope].value = v;
    w->nscope++;
    refresh_sets(w);
}

/* Iterations of range(from, to, step) (Python semantics, step != 0), exact for any bounds: the
 * arithmetic is 128-bit, and bounds computed from an unroll stride may lie beyond int64.
 * Saturates at INT64_MAX, far past the walk's max_instances safety valve. */
static int64_t trip128(__int128 from, __int128 to, __int128 step)
{
    __int128 n;
    if (step > 0 && to > from)
        n = (to - from + step - 1) / step;
    else if (step < 0 && from > to)
        n = (from - to + (-step) - 1) / (-step);
    else
        return 0;
    return n > INT64_MAX ? INT64_MAX : (int64_t)n;
}

static __int128 pymod128(__int128 x, __int128 y)
{
    __int128 r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

static int64_t clamp64(__int128 v)
{
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* One factor's loop: iterations begin, begin + stride, ... (n of them). */
typedef struct segment { __int128 begin, stride; int64_t n; } segment;

/* The loops a loop with factors f[0] > f[1] > ... > 1 runs (model.md section 3, "Unroll").
 * PER_FACTOR (upstream Python loop_unroll): with b where the previous factor's loop stopped (start
 * for the first), loop(b, stop - ((stop - start) % (step*p)), step*p), the next factor beginning at
 * that end whether or not the loop ran.  GREEDY (C++ unroll sets): from where the previous factor
 * stopped, as many whole steps of step*p as fit; the last factor (1) takes the rest. */
static void loop_segments(const an_ctx *c, int l, int64_t b, int64_t e, int64_t s, segment *seg)
{
    int nf = c->loop_nfactors[l];
    __int128 cur = b;
    for (int f = 0; f < nf; f++) {
        __int128 p = c->loop_factors[l][f];
        __int128 stride = (__int128)s * p;
        seg[f].stride = stride;
        seg[f].begin = cur;
        seg[f].n = 0;
        if (s == 0)
            continue;
        bool per_factor = c->loop_rule[l] == PC_UNROLL_RULE_PER_FACTOR;
        if (nf == 1 && !(per_factor && c->k->loops[l].factor_var)) {
            /* a plain loop: range(b, e, s) */
            seg[f].n = trip128(b, e, s);
        } else if (per_factor) {
            /* also a loop_unroll with only the factor 1: upstream's loop stops at
             * stop - ((stop - start) % step) */
            __int128 end = (__int128)e - pymod128((__int128)e - b, stride);
            seg[f].n = trip128(cur, end, stride);
            cur = end;
        } else if (f == nf - 1) {
            seg[f].n = trip128(cur, e, stride);
        } else {
            __int128 span = stride > 0 ? (__int128)e - cur : cur - (__int128)e;
            __int128 mag = stride > 0 ? stride : -stride;
            if (span > 0) {
                __int128 whole = span / mag;
                seg[f].n = whole > INT64_MAX ? INT64_MAX : (int64_t)whole;
                cur += whole * stride;
            }
        }
    }
}

/* ---- periodic iterations in closed form ------------------------------------------- *
 *
 * The walk is an interpreter whose future depends only on its state.  Over a range of iterations
 * of a loop in which the body behaves the same in iteration j and j + Q (nothing in it depends on
 * the loop's index except through conditions that are constant between breakpoints or periodic
 * with period Q), the state at an iteration boundary -- the position in the open DeviceTask, its
 * per-copy sums, the phase modulo Q, and counters that change whenever anything else the future
 * reads changes (assemble allocation events, undecided conditions, unknowns, zero steps) -- is
 * recorded.  When it repeats after p iterations, the next p iterations are walked once more to
 * measure one period (its DeviceTasks, instances per root function, statements taken per task);
 * the following floor(rest / p) periods then repeat that one exactly and are added in closed form:
 * task and instance counts grow, the period's tasks are the same tasks shifted (their needs are
 * equal, so maxima and the first task reaching them -- the 'why' -- are those of the walked
 * period), and the rest is walked.  Nested loops fast-forward inside each outer iteration, and the
 * outer loop's state then repeats too.  The results are the per-instance walk's, exactly
 * (check_property and check_analysis compare the two; pc_analysis_opts.walk_every_instance). */

#define IX_MAX_BREAKS 256
#define IX_MAX_PERIOD 4096

/* How an expression depends on the index of the loop being scanned: not at all (INDEP, and its
 * value is not known here: an inner loop's index, data), a*i + b with b known (AFFINE; a = 0 for a
 * known value), periodic in i with period q (PERIODIC), or in some other way (UNKNOWN). */
typedef enum ix_kind { IX_INDEP, IX_AFFINE, IX_PERIODIC, IX_UNKNOWN } ix_kind;
typedef struct ix { ix_kind kind; __int128 a, b; int64_t q; } ix;

typedef struct ix_scan {
    walker *w;
    const char *var;              /* the loop's index variable */
    __int128 begin, stride;       /* iteration j has the index begin + j * stride */
    int64_t n;
    int64_t breaks[IX_MAX_BREAKS];/* iterations where a condition may change */
    int nbreaks;
    int64_t period;               /* conditions repeat every `period` iterations between breaks */
    bool unknown;                 /* the iterations cannot be compared: walk them all */
    bool used_scope;              /* a value outside the loop was read (the scan depends on it) */
} ix_scan;

/* The last scan of a loop, reused when the loop runs again with the same range and factor and the
 * scan read nothing else (an inner loop runs once per outer iteration). */
typedef struct ix_memo { bool valid; __int128 begin, stride; int64_t n, factor; ix_scan scan; } ix_memo;

static bool mentions(const pc_expr *e, const char *var, int depth)
{
    if (!e)
        return false;
    if (depth > AN_MAX_EXPR_DEPTH)
        return true;
    if ((e->kind == PC_EXPR_SYM || e->kind == PC_EXPR_IS_LOOP_BEGIN || e->kind == PC_EXPR_IS_LOOP_END) && e->name &&
        strcmp(e->name, var) == 0)
        return true;
    return mentions(e->a, var, depth + 1) || mentions(e->b, var, depth + 1);
}

static bool small128(__int128 v) { return v > -((__int128)1 << 62) && v < ((__int128)1 << 62); }

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

static int64_t lcm_period(int64_t a, int64_t b)
{
    if (a <= 0 || b <= 0)
        return -1;
    int64_t l = a / gcd64(a, b) * b;
    return l > IX_MAX_PERIOD ? -1 : l;
}

static ix ix_arith(ix_scan *s, const pc_expr *e, int depth)
{
    ix r = {IX_UNKNOWN, 0, 0, 0};
    if (!e || depth > AN_MAX_EXPR_DEPTH)
        return r;
    if (!mentions(e, s->var, 0)) {
        int64_t v;
        const char *any[1];
        if (e->kind != PC_EXPR_INT && pc_expr_symbols(e, any, 0, 1) > 0)
            s->used_scope = true;
        if (pc_expr_eval(e, s->w->sets, 3, &v)) {
            r.kind = IX_AFFINE;
            r.b = v;
        } else {
            r.kind = IX_INDEP;
        }
        return r;
    }
    if (e->kind == PC_EXPR_SYM) {
        r.kind = IX_AFFINE;
        r.a = 1;
        return r;
    }
    ix x = ix_arith(s, e->a, depth + 1);
    if (e->kind == PC_EXPR_NEG) {
        if (x.kind == IX_AFFINE) {
            x.a = -x.a;
            x.b = -x.b;
        }
        return x.kind == IX_AFFINE || x.kind == IX_PERIODIC ? x : r;
    }
    ix y = ix_arith(s, e->b, depth + 1);
    /* e mentions the index, so an INDEP operand (unknown here) makes the whole unknown */
    if (x.kind == IX_UNKNOWN || y.kind == IX_UNKNOWN || x.kind == IX_INDEP || y.kind == IX_INDEP)
        return r;
    bool xc = x.kind == IX_AFFINE && x.a == 0, yc = y.kind == IX_AFFINE && y.a == 0;
    if (x.kind == IX_PERIODIC || y.kind == IX_PERIODIC) {
        /* a periodic operand combined with values or with another periodic one stays periodic
         * (x % q, then any arithmetic, comparison-free) */
        if ((x.kind == IX_PERIODIC || xc) && (y.kind == IX_PERIODIC || yc)) {
            r.kind = IX_PERIODIC;
            r.q = x.kind == IX_PERIODIC && y.kind == IX_PERIODIC ? lcm_period(x.q, y.q)
                                                                 : (x.kind == IX_PERIODIC ? x.q : y.q);
            if (r.q < 0)
                r.kind = IX_UNKNOWN;
        }
        return r;
    }
    switch (e->kind) {
    case PC_EXPR_ADD:
    case PC_EXPR_SUB: {
        int sg = e->kind == PC_EXPR_ADD ? 1 : -1;
        r.kind = IX_AFFINE;
        r.a = x.a + sg * y.a;
        r.b = x.b + sg * y.b;
        break;
    }
    case PC_EXPR_MUL:
        if (!xc && !yc)
            return r;
        r.kind = IX_AFFINE;
        r.a = xc ? x.b * y.a : x.a * y.b;
        r.b = x.b * y.b;
        break;
    case PC_EXPR_MOD:
        /* (a*i + b) % q repeats when i grows by q, whatever a, b and the loop's step */
        if (!yc || y.b == 0 || !small128(y.b))
            return r;
        r.kind = IX_PERIODIC;
        r.q = (int64_t)(y.b < 0 ? -y.b : y.b);
        if (r.q > IX_MAX_PERIOD)
            r.kind = IX_UNKNOWN;
        return r;
    default:
        return r;
    }
    if (!small128(r.a) || !small128(r.b))
        r.kind = IX_UNKNOWN;
    return r;
}

static void ix_break(ix_scan *s, __int128 j)
{
    if (j <= 0 || j >= s->n)
        return;
    for (int i = 0; i < s->nbreaks; i++)
        if (s->breaks[i] == (int64_t)j)
            return;
    if (s->nbreaks == IX_MAX_BREAKS) {
        s->unknown = true;
        return;
    }
    s->breaks[s->nbreaks++] = (int64_t)j;
}

static __int128 floordiv128(__int128 x, __int128 y)
{
    __int128 q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0)))
        q--;
    return q;
}

/* d = a*i + b compared with 0: its sign is constant before t, at t, and from t + 1 on, with
 * t = floor(-B / A) in iterations (A = a * stride, B = a * begin + b). */
static void ix_sign(ix_scan *s, ix d)
{
    if (d.kind == IX_PERIODIC) {
        s->period = lcm_period(s->period, d.q);
        if (s->period < 0)
            s->unknown = true;
        return;
    }
    if (d.kind != IX_AFFINE) {
        s->unknown = true;
        return;
    }
    if (d.a == 0)
        return;
    __int128 A = d.a * s->stride, B = d.a * s->begin + d.b;
    if (A == 0)
        return;
    __int128 t = floordiv128(-B, A);
    ix_break(s, t);
    ix_break(s, t + 1);
}

static void ix_cond(ix_scan *s, const pc_expr *e, int depth)
{
    if (!e || s->unknown || !mentions(e, s->var, 0))
        return;
    if (depth > AN_MAX_EXPR_DEPTH) {
        s->unknown = true;
        return;
    }
    switch (e->kind) {
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END:
        ix_break(s, 1);
        ix_break(s, (__int128)s->n - 1);
        return;
    case PC_EXPR_AND:
    case PC_EXPR_OR:
        ix_cond(s, e->a, depth + 1);
        ix_cond(s, e->b, depth + 1);
        return;
    case PC_EXPR_NOT:
        ix_cond(s, e->a, depth + 1);
        return;
    case PC_EXPR_LT: case PC_EXPR_LE: case PC_EXPR_GT: case PC_EXPR_GE: case PC_EXPR_EQ: case PC_EXPR_NE: {
        pc_expr diff = {.kind = PC_EXPR_SUB, .a = e->a, .b = e->b};
        ix_sign(s, ix_arith(s, &diff, depth + 1));
        return;
    }
    default:
        ix_sign(s, ix_arith(s, e, depth + 1)); /* a number used as a truth value */
        return;
    }
}

static bool shape_mentions(const pc_kernel *k, int t, const char *var)
{
    if (t < 0 || t >= k->ntensors)
        return false;
    const pc_tensor *T = &k->tensors[t];
    for (int d = 0; d < T->ndims && T->shape; d++)
        if (mentions(T->shape[d], var, 0))
            return true;
    return false;
}

/* Scan loop l's body (every statement and loop inside it) for iteration `seg` of the current
 * factor: breakpoints and period, or unknown (sizes or inner trip counts follow the index). */
static void ix_scan_loop(walker *w, int l, __int128 begin, __int128 stride, int64_t n, ix_scan *s)
{
    an_ctx *c = w->c;
    const pc_kernel *k = c->k;
    memset(s, 0, sizeof *s);
    s->w = w;
    s->var = k->loops[l].index_var;
    s->begin = begin;
    s->stride = stride;
    s->n = n;
    s->period = 1;
    if (!s->var || !*s->var)
        return;
    const an_sub *sub = &w->sub[l];
    if (!w->scan_static[l]) {
        /* inner trip counts and sizes that name the index: the same every time the loop runs */
        bool named = false;
        for (int i = 0; i < sub->nloops && !named; i++) {
            const pc_loop *m = &k->loops[sub->loops[i]];
            named = mentions(m->begin, s->var, 0) || mentions(m->end, s->var, 0) || mentions(m->step, s->var, 0);
        }
        for (int i = 0; i < sub->nstmts && !named; i++) {
            const pc_stmt *st = &k->stmts[sub->stmts[i]];
            for (int j = 0; j < st->naccesses && !named; j++) {
                int t = st->accesses[j].tensor;
                named = t >= 0 && t < k->ntensors && (shape_mentions(k, t, s->var) || shape_mentions(k, c->base[t], s->var));
            }
        }
        w->scan_static[l] = named ? -1 : 1;
    }
    if (w->scan_static[l] < 0) {
        s->unknown = true;
        return;
    }
    for (int i = 0; i < sub->nstmts && !s->unknown; i++) {
        const pc_stmt *st = &k->stmts[sub->stmts[i]];
        if (st->kind == PC_STMT_IF)
            for (int b = 0; b < st->nbranches; b++)
                ix_cond(s, st->branches[b].cond, 0);
    }
}

/* ---- the state at an iteration boundary ---- */

#define FF_KEEP 2048   /* boundaries remembered per range before the table starts over */

typedef struct ff_key {
    int64_t task_count, phase, asm_hash, nundecided, nzero, nunknowns;
    int64_t sums[32];
} ff_key;

typedef struct ff_state {
    ff_key *keys;
    int64_t *at;                  /* the iteration of each key */
    int n;
    struct ff_slot { uint32_t gen; int idx; } *slot; /* hash table: entries of generation gen */
    uint32_t gen;                 /* ff_clear starts a new generation instead of wiping */
    /* a repetition found: the period being walked once more to measure it */
    bool pending;
    ff_key pkey;
    int64_t pstart, pperiod;
    int64_t s_ninst, s_vt, s_events;
    int64_t *s_roots;
    /* assemble state at the period's start: asm_state's vector, each tensor's current allocation,
     * the number of allocations */
    int64_t *s_asm;
    int *s_cur;
    size_t s_nalloc;
    bool give_up;                 /* the period makes whole-launch allocations: walk this range */
    int64_t *snap;                /* per key: its boundary's snapshot (ff_snap_take), or NULL */
    size_t snap_cap, snap_words;
} ff_state;

/* The assemble allocations' state relative to the open task, per assemble tensor: whether a new
 * allocation is due, the current allocation's kind (none, whole launch, other) and, for the last,
 * how many tasks ago it started and was last used, and how many of the tensor's allocations cover
 * the open task.  Into out (5 per tensor) when given; returns a hash of it. */
static uint64_t asm_state(const walker *w, int64_t *out)
{
    const an_set_result *o = w->out;
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < w->nasm; i++) {
        int t = w->asm_list[i], cur = w->cur_alloc[t];
        int64_t v[5] = {w->need_new[t], cur < 0 ? 0 : o->alloc_whole_launch.items[cur] ? 1 : 2, 0, 0, n_open_of(w, t)};
        if (v[1] == 2) {
            v[2] = w->vtasks - o->alloc_start_vt.items[cur];
            v[3] = w->vtasks - o->alloc_last_vt.items[cur];
        }
        for (int j = 0; j < 5; j++) {
            h ^= (uint64_t)v[j];
            h *= 1099511628211ULL;
            if (out)
                out[5 * i + j] = v[j];
        }
    }
    return h;
}

static void ff_make_key(const walker *w, int64_t phase, ff_key *k)
{
    memset(k, 0, sizeof *k);
    k->task_count = w->task_count;
    k->phase = phase;
    k->asm_hash = (int64_t)asm_state(w, NULL);
    k->nundecided = (int64_t)w->out->undecided_stmt.count;
    k->nzero = (int64_t)w->out->zero_step_loops.count;
    k->nunknowns = (int64_t)w->unknowns.count;
    for (int i = 0; i < 8; i++) {
        k->sums[i] = w->copy_inner[i];
        k->sums[8 + i] = w->copy_excl[i];
        k->sums[16 + i] = w->copy_cnt_inner[i];
        k->sums[24 + i] = w->copy_cnt_excl[i];
    }
}

static uint64_t ff_hash(const ff_key *k)
{
    const int64_t *v = (const int64_t *)k;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof *k / sizeof(int64_t); i++) {
        h ^= (uint64_t)v[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static void ff_clear(ff_state *st)
{
    st->n = 0;
    st->gen++;
    if (st->gen == 0 && st->slot) {
        memset(st->slot, 0, 2 * FF_KEEP * sizeof *st->slot);
        st->gen = 1;
    }
}

static void ff_free(ff_state *st)
{
    pc_mem_free(st->keys);
    pc_mem_free(st->at);
    pc_mem_free(st->slot);
    pc_mem_free(st->s_roots);
    pc_mem_free(st->s_asm);
    pc_mem_free(st->s_cur);
    pc_mem_free(st->snap);
    memset(st, 0, sizeof *st);
}

/* The statement was taken in some of the period's tasks [vb, ve) (and maybe in the open task ve,
 * before the period's end): the same tasks of each of the `times` following periods, then the open
 * task again, as the walk would add them. */
static void ranges_repeat(an_ranges *r, int64_t vb, int64_t ve, int64_t times)
{
    if (r->all || r->n == 0 || r->hi[r->n - 1] < vb)
        return;
    int64_t D = ve - vb;
    int i0 = r->n - 1;
    while (i0 > 0 && r->hi[i0 - 1] >= vb)
        i0--;
    bool pre = r->hi[r->n - 1] >= ve;
    int nb = r->n - i0;
    int64_t *blo = pc_mem_alloc((size_t)nb * sizeof(int64_t)), *bhi = pc_mem_alloc((size_t)nb * sizeof(int64_t));
    int m = 0;
    for (int i = i0; i < r->n; i++) {
        int64_t lo = r->lo[i] < vb ? vb : r->lo[i], hi = r->hi[i] > ve - 1 ? ve - 1 : r->hi[i];
        if (lo <= hi) {
            blo[m] = lo - vb;
            bhi[m] = hi - vb;
            m++;
        }
    }
    if (m == 1 && blo[0] == 0 && bhi[0] == D - 1) {
        /* taken in every task of the period: one range grows */
        r->hi[r->n - 1] = vb + (times + 1) * D - 1 + (pre ? 1 : 0);
    } else if (m > 0) {
        /* each period adds a range at least: the ranges give up (all) within AN_MAX_RANGES */
        for (int64_t cpy = 1; cpy <= times && !r->all; cpy++)
            for (int i = 0; i < m && !r->all; i++)
                ranges_add_span(r, vb + cpy * D + blo[i], vb + cpy * D + bhi[i]);
        if (pre)
            ranges_add(r, ve + times * D);
    }
    pc_mem_free(blo);
    pc_mem_free(bhi);
}

/* The period just walked (from st->pstart, its state again equal) repeats `times` more times. */
/* The assemble allocations after `skip` more periods (the period just walked made allocations
 * alloc_start[s_nalloc..]): each current allocation made in the period is used in the next one as
 * the one current at the period's start was in this one (its end moves there); the allocations
 * the state after the skipped periods holds -- the current ones and those still covering the open
 * task -- are the period's shifted by `skip` periods, made explicit for what follows. */
static void ff_allocations(walker *w, ff_state *st, int64_t skip, int64_t dinst, int64_t ve, int64_t D)
{
    an_set_result *o = w->out;
    size_t n_now = o->alloc_start.count;
    int *xof = pc_mem_alloc((size_t)(w->c->k->ntensors ? w->c->k->ntensors : 1) * sizeof(int));
    for (int i = 0; i < w->nasm; i++)
        xof[w->asm_list[i]] = -1;
    for (size_t a = st->s_nalloc; a < n_now; a++) {
        int t = o->alloc_tensor.items[a];
        bool cur = w->cur_alloc[t] == (int)a;
        if (!cur && o->alloc_last_vt.items[a] != ve)
            continue;
        int id = (int)o->alloc_start.count;
        push_alloc(o, t, false, o->alloc_start.items[a] + skip * dinst, o->alloc_last.items[a] + skip * dinst,
                   o->alloc_start_vt.items[a] + skip * D, o->alloc_last_vt.items[a] + skip * D);
        if (cur) {
            xof[t] = (int)a;
            w->cur_alloc[t] = id;
        }
    }
    for (int i = 0; i < w->nasm; i++) {
        int t = w->asm_list[i], y = st->s_cur[i], x = xof[t];
        if (w->n_open_vt[t] == ve)
            w->n_open_vt[t] = ve + skip * D;
        if (x < 0 || y < 0 || o->alloc_whole_launch.items[y] || o->alloc_last.items[y] < st->s_ninst)
            continue; /* the one current at the period's start was not used in it: nor is x after */
        int64_t x_start = o->alloc_start.items[x], x_start_vt = o->alloc_start_vt.items[x];
        o->alloc_last.items[x] = o->alloc_last.items[y] + dinst;
        o->alloc_last_vt.items[x] = o->alloc_last_vt.items[y] + D;
        if (skip >= 2 && o->alloc_last_vt.items[y] == ve)
            push_alloc(o, t, false, x_start + (skip - 1) * dinst, o->alloc_last.items[y] + skip * dinst,
                       x_start_vt + (skip - 1) * D, o->alloc_last_vt.items[y] + skip * D);
    }
    pc_mem_free(xof);
}

static void ff_apply(walker *w, ff_state *st, int64_t times, bool events)
{
    an_ctx *c = w->c;
    an_set_result *o = w->out;
    int64_t dinst = o->ninstances - st->s_ninst, vb = st->s_vt, ve = w->vtasks, D = ve - vb;
    if (events)
        ff_allocations(w, st, times, dinst, ve, D);
    for (int r = 0; r < c->nroots; r++)
        o->root_instances[r] += (o->root_instances[r] - st->s_roots[r]) * times;
    if (dinst > 0 && o->instance_roots.count == (size_t)o->ninstances && o->instance_roots.count < AN_KEEP_INSTANCES) {
        /* the period's roots again, up to the first million, copied in blocks */
        size_t want = (size_t)AN_KEEP_INSTANCES - o->instance_roots.count;
        if ((__int128)times * dinst < (__int128)want)
            want = (size_t)(times * dinst);
        size_t need = o->instance_roots.count + want;
        if (need > o->instance_roots.cap) {
            o->instance_roots.items = pc_mem_realloc(o->instance_roots.items, need * sizeof(int32_t));
            o->instance_roots.cap = need;
        }
        const int32_t *src = o->instance_roots.items + st->s_ninst;
        for (size_t done = 0; done < want;) {
            size_t chunk = (size_t)dinst < want - done ? (size_t)dinst : want - done;
            memcpy(o->instance_roots.items + o->instance_roots.count, src, chunk * sizeof(int32_t));
            o->instance_roots.count += chunk;
            done += chunk;
        }
    }
    if (D > 0) {
        for (size_t s = 0; s < o->nstmt_tasks; s++)
            ranges_repeat(&o->stmt_tasks[s], vb, ve, times);
        if (!o->vtasks_dropped && o->vtasks.count + (size_t)(times * D) > AN_KEEP_TASKS) {
            o->vtasks_dropped = true;
            PC_VEC_FREE(o->vtasks);
        }
        if (!o->vtasks_dropped)
            for (int64_t cpy = 1; cpy <= times; cpy++)
                for (int64_t v = vb; v < ve; v++) {
                    an_vtask t = o->vtasks.items[v];
                    t.shift += cpy * dinst;
                    PC_VEC_PUSH(o->vtasks, t);
                }
    }
    o->ninstances += times * dinst;
    w->task_first += times * dinst;
    w->vtasks += times * D;
    o->fast_forwards++;
}

/* Called at the boundary before iteration j of the range [a, b) (conditions periodic with
 * `period`): records the state, and when a measured period can repeat, adds the repetitions and
 * returns how many iterations they cover (0: walk iteration j). */
/* Snapshots of the boundaries a key was recorded at: with them a repetition is added
 * from the period already walked, without walking one more to measure it.  Per key: instances,
 * task number, events, allocations, then the roots' instance counts and the assemble state. */
#define FF_SNAP_MAX_WORDS 512
static size_t ff_snap_words(const walker *w) { return 4 + (size_t)w->c->nroots + 6 * (size_t)w->nasm; }

static void ff_snap_take(const walker *w, int64_t *out)
{
    out[0] = w->out->ninstances;
    out[1] = w->vtasks;
    out[2] = w->events;
    out[3] = (int64_t)w->out->alloc_start.count;
    int64_t *roots = out + 4, *asm_v = roots + w->c->nroots, *cur = asm_v + 5 * w->nasm;
    if (w->c->nroots)
        memcpy(roots, w->out->root_instances, (size_t)w->c->nroots * sizeof(int64_t));
    if (w->nasm)
        asm_state(w, asm_v);
    for (int q = 0; q < w->nasm; q++)
        cur[q] = w->cur_alloc[w->asm_list[q]];
}

/* Load a snapshot as the period's start (st->s_*). */
static void ff_snap_load(const walker *w, ff_state *st, const int64_t *in)
{
    const an_ctx *c = w->c;
    st->s_ninst = in[0];
    st->s_vt = in[1];
    st->s_events = in[2];
    st->s_nalloc = (size_t)in[3];
    if (!st->s_roots)
        st->s_roots = pc_mem_alloc((size_t)(c->nroots ? c->nroots : 1) * sizeof(int64_t));
    if (c->nroots)
        memcpy(st->s_roots, in + 4, (size_t)c->nroots * sizeof(int64_t));
    if (w->nasm) {
        if (!st->s_asm) {
            st->s_asm = pc_mem_alloc((size_t)w->nasm * 5 * sizeof(int64_t));
            st->s_cur = pc_mem_alloc((size_t)w->nasm * sizeof(int));
        }
        memcpy(st->s_asm, in + 4 + c->nroots, (size_t)w->nasm * 5 * sizeof(int64_t));
        for (int q = 0; q < w->nasm; q++)
            st->s_cur[q] = (int)in[4 + c->nroots + 5 * w->nasm + q];
    }
}

/* The period from st->s_* (its state equal to now, key and all) to iteration j, of p iterations,
 * repeats: add what fits before b.  Returns the iterations added (0: none). */
static int64_t ff_try(walker *w, ff_state *st, int64_t j, int64_t b, int64_t p)
{
    an_ctx *c = w->c;
    bool same = true;
    bool events = w->events != st->s_events;
    if (w->nasm) {
        int64_t *now = pc_mem_alloc((size_t)w->nasm * 5 * sizeof(int64_t));
        asm_state(w, now);
        same = memcmp(now, st->s_asm, (size_t)w->nasm * 5 * sizeof(int64_t)) == 0;
        pc_mem_free(now);
    }
    for (size_t al = st->s_nalloc; same && al < w->out->alloc_start.count; al++)
        if (w->out->alloc_whole_launch.items[al]) {
            /* each period would add an allocation that lives to the end: not periodic */
            same = false;
            st->give_up = true;
        }
    if (same && events && w->vtasks == st->s_vt)
        same = false; /* allocation events without a task boundary: nothing to shift by */
    if (!same)
        return 0;
    int64_t times = (b - j) / p;
    int64_t dinst = w->out->ninstances - st->s_ninst;
    if (dinst > 0 && times > (((int64_t)1 << 62) - w->out->ninstances) / dinst) {
        /* more instances than a count holds (over 2^62): the numbers cannot be exact; stop, as
         * an explicit limit does (pc_result.truncated, PC012) */
        w->out->truncated = true;
        w->out->known = false;
        w->stop = true;
        return 0;
    }
    if (c->opts->max_instances > 0 && dinst > 0) {
        /* an explicit limit: stop short of it, the walk reaches it instance by instance */
        int64_t room = c->opts->max_instances - 1 - w->out->ninstances;
        times = room <= 0 ? 0 : (times < room / dinst ? times : room / dinst);
    }
    /* with allocation events the last period is walked: what follows it reads the allocations it
     * leaves, which are made explicit (ff_apply) */
    if (events)
        times--;
    if (times <= 0)
        return 0;
    ff_apply(w, st, times, events);
    return times * p;
}

/* Called at the boundary before iteration j of the range [a, b) (conditions periodic with
 * `period`): records the state, and when it repeats, adds the repetitions and returns how many
 * iterations they cover (0: walk iteration j). */
static int64_t ff_step(walker *w, ff_state *st, int64_t j, int64_t a, int64_t b, int64_t period)
{
    an_ctx *c = w->c;
    ff_key key;
    ff_make_key(w, (j - a) % period, &key);
    size_t words = ff_snap_words(w);
    bool snaps = words <= FF_SNAP_MAX_WORDS;
    if (st->pending) {
        /* no snapshots: the period after the repetition was seen is walked to measure it */
        if (j - st->pstart < st->pperiod)
            return 0;
        st->pending = false;
        int64_t skip = memcmp(&key, &st->pkey, sizeof key) == 0 ? ff_try(w, st, j, b, st->pperiod) : 0;
        ff_clear(st);
        if (skip)
            return skip;
    }
    if (!st->keys) {
        st->keys = pc_mem_alloc(FF_KEEP * sizeof(ff_key));
        st->at = pc_mem_alloc(FF_KEEP * sizeof(int64_t));
        st->slot = pc_mem_calloc(2 * FF_KEEP, sizeof *st->slot);
        if (st->gen == 0)
            st->gen = 1;
    }
    if (snaps && st->snap_words != words) {
        pc_mem_free(st->snap);
        st->snap = NULL;
        st->snap_cap = 0;
        st->snap_words = words;
    }
    uint64_t h = ff_hash(&key);
    size_t mask = 2 * FF_KEEP - 1, pos = (size_t)h & mask;
    while (st->slot[pos].gen == st->gen) {
        int i = st->slot[pos].idx;
        if (memcmp(&st->keys[i], &key, sizeof key) == 0) {
            int64_t p = j - st->at[i];
            st->at[i] = j;
            if (st->give_up)
                return 0;
            if (snaps) {
                ff_snap_load(w, st, st->snap + (size_t)i * words);
                int64_t skip = ff_try(w, st, j, b, p);
                if (skip) {
                    ff_clear(st);
                    return skip;
                }
                ff_snap_take(w, st->snap + (size_t)i * words);
                return 0;
            }
            if ((b - j) / p >= 2) {
                st->pending = true;
                st->pkey = key;
                st->pstart = j;
                st->pperiod = p;
                int64_t *tmp = pc_mem_alloc(words * sizeof(int64_t));
                ff_snap_take(w, tmp);
                ff_snap_load(w, st, tmp);
                pc_mem_free(tmp);
            }
            return 0;
        }
        pos = (pos + 1) & mask;
    }
    if (st->n == FF_KEEP) {
        ff_clear(st);
        pos = (size_t)h & mask;
    }
    st->keys[st->n] = key;
    st->at[st->n] = j;
    if (snaps) {
        if ((size_t)st->n >= st->snap_cap) {
            st->snap_cap = st->snap_cap ? st->snap_cap * 2 : 16;
            st->snap = pc_mem_realloc(st->snap, st->snap_cap * words * sizeof(int64_t));
        }
        ff_snap_take(w, st->snap + (size_t)st->n * words);
    }
    st->n++;
    st->slot[pos].gen = st->gen;
    st->slot[pos].idx = st->n - 1;
    (void)c;
    return 0;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Iteration i of a segment walked `wrap` iterations at a time (a loop that stands for a whole
 * nest, walk_loop: its index restarts every wrap iterations, as in the nest). */
static void walk_iteration(walker *w, int l, int saved_scope, const segment *sg, int64_t p, int64_t i, int64_t wrap)
{
    const pc_loop *lp = &w->c->k->loops[l];
    if (wrap > 0)
        i %= wrap;
    w->nscope = saved_scope;
    w->iter_pos[l] = i;
    push_binding(w, lp->index_var, clamp64(sg->begin + (__int128)i * sg->stride));
    if (lp->factor_var)
        push_binding(w, lp->factor_var, p);
    walk_body(w, &w->c->loop_bodies[l], l);
}

/* ---- nests of identical iterations ---- *
 *
 * The closed form above finds a loop's period from its states at iteration boundaries; a loop
 * whose state needs more iterations to repeat than it has (the position in the open DeviceTask
 * comes back only after k / gcd(k, instances per iteration) of them) is walked whole, once per
 * iteration of the loop around it.  Nested, that is the product of the trip counts: 50 levels of
 * 2 iterations were 2^50 walked instances, 127^4 took minutes.  But where no iteration of a loop
 * differs from another (no breakpoint, period 1, no size or inner bound naming its index) and its
 * body is nothing but one inner loop, the nest runs the inner body n_outer * n_inner times in a
 * row, exactly like one loop of that many iterations: the inner loop is walked as such a loop,
 * and its own closed form applies to the product.  The inner loop must qualify the same way
 * (checked before, so a loop whose inner one has breakpoints keeps the outer closed form). */

/* Loop l's only content, when it is one plain loop (no barrier, no parallel scope, one factor and
 * no factor variable), or -1. */
static int nest_child(const an_ctx *c, int l)
{
    const an_body *b = &c->loop_bodies[l];
    if (b->nitems != 1 || !b->items[0].is_loop || b->items[0].index < 0)
        return -1;
    int m = b->items[0].index;
    const pc_loop *lp = &c->k->loops[m];
    if (lp->submit_before_loop || lp->parallel || lp->factor_var || c->loop_nfactors[m] != 1)
        return -1;
    return m;
}

/* Whether loop m (a nest_child), with the scope as it is, has iterations that are all alike: its
 * bounds evaluate, its step is not 0, and the index scan finds no breakpoint and period 1. */
static bool iterations_alike(walker *w, int m)
{
    const pc_loop *lp = &w->c->k->loops[m];
    int64_t b = 0, e = 0, s = 1;
    if ((lp->begin && !eval(w, lp->begin, &b)) || !lp->end || !eval(w, lp->end, &e) ||
        (lp->step && !eval(w, lp->step, &s)) || s == 0 || w->depth + 1 >= AN_MAX_DEPTH)
        return false;
    segment sg;
    loop_segments(w->c, m, b, e, s, &sg);
    /* scanned as walk_loop scans it: the loop counted as entered */
    w->depth++;
    w->active[w->nactive++] = m;
    ix_scan sc;
    ix_scan_loop(w, m, sg.begin, sg.stride, sg.n, &sc);
    w->nactive--;
    w->depth--;
    refresh_sets(w);
    return !sc.unknown && sc.nbreaks == 0 && sc.period == 1;
}


/* mult > 1: the loop stands for a nest (nest_child), whose loops around it have `mult` iterations
 * in all: each segment runs mult times in a row. */
static void walk_loop(walker *w, int l, int64_t mult)
{
    an_ctx *c = w->c;
    const pc_loop *lp = &c->k->loops[l];
    if (w->depth >= AN_MAX_DEPTH) {
        nesting_limit(w, "loops", AN_MAX_DEPTH);
        return;
    }
    int64_t b = 0, e = 0, s = 1;
    bool ok_begin = !lp->begin || eval(w, lp->begin, &b);
    bool ok_end = lp->end && eval(w, lp->end, &e);
    bool ok_step = !lp->step || eval(w, lp->step, &s);
    if (!ok_begin || !ok_end || !ok_step) {
        w->out->known = false;
        w->stop = true;
        return;
    }
    if (s == 0 && !w->zero_step_seen[l]) {
        /* upstream rejects a loop that never ends; the walk gives it no iterations and says so
         * (pc_result.zero_step_loops) instead of dividing by zero */
        w->zero_step_seen[l] = true;
        PC_VEC_PUSH(w->out->zero_step_loops, l);
    }
    if (lp->submit_before_loop)
        cut(w, PC_CLOSE_BARRIER);
    if (lp->parallel) {
        cut(w, PC_CLOSE_PARALLEL);
        w->parallel_depth++;
    }
    int nf = c->loop_nfactors[l];
    segment *seg = pc_mem_alloc((size_t)nf * sizeof(segment));
    loop_segments(c, l, b, e, s, seg);
    /* the scan reads the scope outside the loop (outer indices), before the index is bound */
    w->depth++;
    w->active[w->nactive++] = l;
    int saved_scope = w->nscope;
    for (int f = 0; f < nf && !w->stop; f++) {
        int64_t p = c->loop_factors[l][f];
        const segment *sg = &seg[f];
        int64_t n = sg->n, wrap = 0;
        w->cur_factor[l] = p;
        w->iter_n[l] = n;
        if (mult > 1 && n > 0) {
            if ((__int128)n * mult > ((int64_t)1 << 62)) {
                /* more iterations than a count holds: as ff_try does past 2^62 instances */
                w->out->truncated = true;
                w->out->known = false;
                w->stop = true;
                break;
            }
            wrap = n;
            n *= mult;
        }
        ix_scan sc;
        int child = c->opts->walk_every_instance ? -1 : nest_child(c, l);
        bool fast = !c->opts->walk_every_instance && (n > 2 || child >= 0);
        if (fast) {
            /* the factor variable is bound while the conditions are scanned */
            w->nscope = saved_scope;
            if (lp->factor_var)
                push_binding(w, lp->factor_var, p);
            ix_memo *memo = w->scan_memo[l];
            if (memo && memo->valid && memo->begin == sg->begin && memo->stride == sg->stride && memo->n == (wrap ? wrap : n) &&
                memo->factor == p) {
                sc = memo->scan;
            } else {
                ix_scan_loop(w, l, sg->begin, sg->stride, wrap ? wrap : n, &sc);
                if (!sc.used_scope) {
                    if (!memo)
                        memo = w->scan_memo[l] = pc_mem_calloc(1, sizeof(ix_memo));
                    memo->valid = true;
                    memo->begin = sg->begin;
                    memo->stride = sg->stride;
                    memo->n = wrap ? wrap : n;
                    memo->factor = p;
                    memo->scan = sc;
                }
            }
            fast = !sc.unknown;
            w->nscope = saved_scope;
            refresh_sets(w);
        }
        if (!fast) {
            for (int64_t i = 0; i < n && !w->stop; i++) {
                budget_tick(w);
                walk_iteration(w, l, saved_scope, sg, p, i, wrap);
            }
            continue;
        }
        if (child >= 0 && sc.nbreaks == 0 && sc.period == 1 && n > 0) {
            /* every iteration alike and nothing but a loop inside: if that loop's iterations are
             * alike too, the nest is one loop of n times its trip count */
            w->nscope = saved_scope;
            w->iter_pos[l] = 0;
            push_binding(w, lp->index_var, clamp64(sg->begin));
            if (iterations_alike(w, child)) {
                walk_loop(w, child, n);
                continue;
            }
            w->nscope = saved_scope;
            refresh_sets(w);
        }
        /* ranges between breakpoints, each with its own record of states */
        qsort(sc.breaks, (size_t)sc.nbreaks, sizeof(int64_t), cmp_i64);
        if (!w->ffs[w->depth]) /* one per nesting depth, reused */
            w->ffs[w->depth] = pc_mem_calloc(1, sizeof(ff_state));
        ff_state *st = w->ffs[w->depth];
        for (int r = 0; r <= sc.nbreaks && !w->stop; r++) {
            int64_t lo = r ? sc.breaks[r - 1] : 0, hi = r < sc.nbreaks ? sc.breaks[r] : n;
            ff_clear(st);
            st->pending = false;
            st->give_up = false;
            for (int64_t i = lo; i < hi && !w->stop;) {
                int64_t skip = hi - i > 2 ? ff_step(w, st, i, lo, hi, sc.period) : 0;
                if (skip) {
                    i += skip;
                    continue;
                }
                budget_tick(w);
                walk_iteration(w, l, saved_scope, sg, p, i, wrap);
                i++;
            }
        }
    }
    pc_mem_free(seg);
    w->nactive--;
    w->nscope = saved_scope;
    refresh_sets(w);
    w->depth--;
    if (lp->parallel) {
        cut(w, PC_CLOSE_PARALLEL);
        w->parallel_depth--;
    }
}

static void walk_branchy(walker *w, int s, int loop)
{
    an_ctx *c = w->c;
    const pc_stmt *st = &c->k->stmts[s];
    an_body *bodies = c->stmt_bodies[s];
    if (!bodies)
        return;
    if (st->kind == PC_STMT_UNROLL) {
        int64_t factor = loop >= 0 ? w->cur_factor[loop] : 1;
        if (st->unroll_factor == factor)
            walk_body(w, &bodies[0], loop);
        return;
    }
    /* The path the iteration takes; when undecidable, every possible one is walked.  That
     * over-counts instances (an upper bound, never an under-prediction). */
    cand_buf cb = {0};
    bool *cand = cand_get(&cb, st->nbranches);
    bool saved = w->mark;
    w->mark = true;
    decide_if(w, s, cand);
    w->mark = saved;
    for (int br = 0; br < st->nbranches && !w->stop; br++)
        if (cand[br])
            walk_body(w, &bodies[br], loop);
    cand_free(&cb);
}

static void walk_body(walker *w, const an_body *body, int loop)
{
    an_ctx *c = w->c;
    for (int i = 0; i < body->nitems && !w->stop; i++) {
        const an_item *it = &body->items[i];
        if (it->is_loop && it->index >= 0) {
            walk_loop(w, it->index, 1);
        } else if (it->is_loop) {
            walk_branchy(w, -it->index - 1, loop);
        } else {
            int64_t factor = loop >= 0 ? w->cur_factor[loop] : 1;
            int r = pc_an_root_for(c, it->index, factor);
            if (!c->runs[it->index].has_op) {
                /* no path of this run does tensor work: never an instance */
                const an_run *run = &c->runs[it->index];
                if (w->run_asm[it->index])
                    assemble_events_stmts(w, run->stmts, run->nstmts, w->out->ninstances, factor, true);
                continue;
            }
            inst_req q;
            w->mark = true;
            root_req(w, r, &q);
            if (q.has_op) {
                emit_instance(w, r, &q);
                mark_tasks(w, r, w->vtasks); /* the open task holds it */
            } else {
                /* the path taken has no operation: no instance for this iteration */
                const an_run *run = &c->runs[it->index];
                if (w->run_asm[it->index])
                    assemble_events_stmts(w, run->stmts, run->nstmts, w->out->ninstances, factor, true);
            }
            w->mark = false;
        }
    }
}


/* Per run: no tensor its statements touch has a size naming a loop index or the factor variable
 * of a loop other than the run's own (tier 2 possible).  One pass over the statements, with each
 * tensor's loop variables found once (distinct loop variable names only). */
static void runs_sizes_static(const an_ctx *c, bool *out)
{
    const pc_kernel *k = c->k;
    PC_VEC(const char *) idx = {0};
    PC_VEC(const char *) fac = {0};
    for (int l = 0; l < k->nloops; l++) {
        const char *names[2] = {k->loops[l].index_var, k->loops[l].factor_var};
        for (int q = 0; q < 2; q++) {
            if (!names[q] || !*names[q])
                continue;
            bool dup = false;
            for (size_t i = 0; i < (q ? fac.count : idx.count) && !dup; i++)
                dup = strcmp(q ? fac.items[i] : idx.items[i], names[q]) == 0;
            if (!dup) {
                if (q)
                    PC_VEC_PUSH(fac, names[q]);
                else
                    PC_VEC_PUSH(idx, names[q]);
            }
        }
    }
    /* per tensor: 1 names an index or two factor variables, 0 static, else -2 - i: names only the
     * factor variable fac[i] */
    int *kind = pc_mem_alloc((size_t)(k->ntensors ? k->ntensors : 1) * sizeof(int));
    for (int t = 0; t < k->ntensors; t++) {
        const pc_tensor *T = &k->tensors[t];
        kind[t] = 0;
        for (int d = 0; T->shape && d < T->ndims && kind[t] != 1; d++) {
            const char *names[32];
            size_t n = pc_expr_symbols(T->shape[d], names, 0, 32);
            for (size_t j = 0; j < n && kind[t] != 1; j++) {
                for (size_t i = 0; i < idx.count && kind[t] != 1; i++)
                    if (strcmp(idx.items[i], names[j]) == 0)
                        kind[t] = 1;
                for (size_t i = 0; i < fac.count && kind[t] != 1; i++)
                    if (strcmp(fac.items[i], names[j]) == 0)
                        kind[t] = kind[t] == 0 || kind[t] == -2 - (int)i ? -2 - (int)i : 1;
            }
        }
    }
    for (int r = 0; r < c->nruns; r++)
        out[r] = true;
    for (int s = 0; s < k->nstmts; s++) {
        int run = c->stmt_run[s];
        if (run < 0 || run >= c->nruns || !out[run])
            continue;
        const pc_stmt *st = &k->stmts[s];
        int own = c->runs[run].loop;
        const char *own_f = own >= 0 ? k->loops[own].factor_var : NULL;
        for (int j = 0; j < st->naccesses && out[run]; j++) {
            int t = st->accesses[j].tensor;
            if (t < 0 || t >= k->ntensors)
                continue;
            int ts[2] = {t, c->base[t]};
            for (int q = 0; q < 2 && out[run]; q++) {
                int x = ts[q] >= 0 && ts[q] < k->ntensors ? kind[ts[q]] : 0;
                if (x == 1 || (x < 0 && !(own_f && strcmp(own_f, fac.items[-2 - x]) == 0)))
                    out[run] = false;
            }
        }
    }
    pc_mem_free(kind);
    PC_VEC_FREE(idx);
    PC_VEC_FREE(fac);
}

/* The walker of one binding set: its state sized to the kernel, and what it precomputes (the
 * assemble tensors each statement creates, which runs touch the assemble pool, which roots'
 * sizes are static, per loop the statements and loops inside it). */
static void walker_init(walker *w, an_ctx *c, const pc_bindings *user, an_set_result *o)
{
    const pc_kernel *k = c->k;
    size_t nr = (size_t)(c->nroots ? c->nroots : 1), nt = (size_t)(k->ntensors ? k->ntensors : 1);
    memset(w, 0, sizeof *w);
    w->c = c;
    w->out = o;
    if (user)
        w->sets[1] = *user;
    w->sets[2].items = k->constants;
    w->sets[2].count = (size_t)k->nconstants;
    refresh_sets(w);
    w->cur_factor = pc_mem_calloc((size_t)(k->nloops ? k->nloops : 1), sizeof(int64_t));
    w->cur_alloc = pc_mem_alloc(nt * sizeof(int));
    w->need_new = pc_mem_calloc(nt, sizeof(bool));
    for (size_t t = 0; t < nt; t++) {
        w->cur_alloc[t] = -1;
        w->need_new[t] = true;
    }
    w->created_start = pc_mem_calloc((size_t)k->nstmts + 2, sizeof(int));
    w->created = pc_mem_alloc(nt * sizeof(int));
    for (int t = 0; t < k->ntensors; t++) {
        int ds = k->tensors[t].def_stmt;
        if (ds >= 0 && ds < k->nstmts && c->pool[t] == PC_POOL_ASSEMBLE && k->tensors[t].kind == PC_TENSOR_CREATED)
            w->created_start[ds + 1]++;
    }
    for (int st = 0; st < k->nstmts; st++)
        w->created_start[st + 1] += w->created_start[st];
    {
        int *fill = pc_mem_alloc(((size_t)k->nstmts + 1) * sizeof(int));
        memcpy(fill, w->created_start, ((size_t)k->nstmts + 1) * sizeof(int));
        for (int t = 0; t < k->ntensors; t++) {
            int ds = k->tensors[t].def_stmt;
            if (ds >= 0 && ds < k->nstmts && c->pool[t] == PC_POOL_ASSEMBLE && k->tensors[t].kind == PC_TENSOR_CREATED)
                w->created[fill[ds]++] = t;
        }
        pc_mem_free(fill);
    }
    w->cache = pc_mem_calloc(nr, sizeof(req_cache));
    size_t ns = (size_t)(k->nstmts ? k->nstmts : 1), nl = (size_t)(k->nloops ? k->nloops : 1);
    w->root_dyn = pc_mem_calloc(nr, sizeof(bool));
    for (int r = 0; r < c->nroots; r++) {
        const an_run *run = &c->runs[c->roots[r].run];
        w->root_dyn[r] = stmts_dynamic(k, run->stmts, run->nstmts, 0);
    }
    w->run_asm = pc_mem_calloc((size_t)(c->nruns ? c->nruns : 1), sizeof(bool));
    for (int st = 0; st < k->nstmts; st++) {
        int run = c->stmt_run[st];
        if (run < 0 || run >= c->nruns || w->run_asm[run])
            continue;
        bool touches = w->created_start[st + 1] > w->created_start[st];
        for (int j = 0; j < k->stmts[st].naccesses && !touches; j++) {
            int t = k->stmts[st].accesses[j].tensor;
            touches = t >= 0 && t < k->ntensors && c->pool[c->base[t]] == PC_POOL_ASSEMBLE;
        }
        w->run_asm[run] = touches;
    }
    w->root_sizes_static = pc_mem_calloc(nr, sizeof(bool));
    {
        bool *run_static = pc_mem_calloc((size_t)(c->nruns ? c->nruns : 1), sizeof(bool));
        runs_sizes_static(c, run_static);
        for (int r = 0; r < c->nroots; r++)
            w->root_sizes_static[r] = run_static[c->roots[r].run];
        pc_mem_free(run_static);
    }
    w->scan_static = pc_mem_calloc(nl, sizeof(signed char));
    w->scan_memo = pc_mem_calloc(nl, sizeof(ix_memo *));
    w->ffs = pc_mem_calloc(AN_MAX_DEPTH + 2, sizeof(ff_state *));
    w->iter_pos = pc_mem_calloc(nl, sizeof(int64_t));
    w->iter_n = pc_mem_calloc(nl, sizeof(int64_t));
    w->undecided_seen = pc_mem_calloc(ns, sizeof(bool));
    w->zero_step_seen = pc_mem_calloc(nl, sizeof(bool));
    o->stmt_taken = pc_mem_calloc(ns, sizeof(bool));
    o->stmt_tasks = pc_mem_calloc(ns, sizeof(an_ranges));
    o->nstmt_tasks = (size_t)k->nstmts;
    w->n_open = pc_mem_calloc(nt, sizeof(int));
    w->n_open_vt = pc_mem_alloc(nt * sizeof(int64_t));
    w->asm_list = pc_mem_alloc(nt * sizeof(int));
    for (size_t t = 0; t < nt; t++)
        w->n_open_vt[t] = -1;
    for (int t = 0; t < k->ntensors; t++)
        if (c->pool[t] == PC_POOL_ASSEMBLE && c->base[t] == t)
            w->asm_list[w->nasm++] = t;
    if (o->tasks.count == 0 && c->opts->progress)
        w->t_start = w->t_last = now_seconds();
    w->t_walk = now_seconds();
    /* per loop: the statements and loops inside it, at any depth (the index scan) */
    w->sub = pc_mem_calloc(nl, sizeof(an_sub));
    if (!c->opts->walk_every_instance && k->nloops) {
        /* two passes: count, then fill */
        for (int pass = 0; pass < 2; pass++) {
            for (int s = 0; s < k->nstmts; s++)
                for (int l = c->stmt_loop[s], d = 0; l >= 0 && l < k->nloops && d < AN_MAX_DEPTH; l = k->loops[l].parent, d++) {
                    if (pass)
                        w->sub[l].stmts[w->sub[l].nstmts] = s;
                    w->sub[l].nstmts++;
                }
            for (int m = 0; m < k->nloops; m++)
                for (int l = k->loops[m].parent, d = 0; l >= 0 && l < k->nloops && d < AN_MAX_DEPTH; l = k->loops[l].parent, d++) {
                    if (pass)
                        w->sub[l].loops[w->sub[l].nloops] = m;
                    w->sub[l].nloops++;
                }
            for (int l = 0; l < k->nloops && !pass; l++) {
                w->sub[l].stmts = pc_mem_alloc((size_t)(w->sub[l].nstmts + 1) * sizeof(int));
                w->sub[l].loops = pc_mem_alloc((size_t)(w->sub[l].nloops + 1) * sizeof(int));
                w->sub[l].nstmts = w->sub[l].nloops = 0;
            }
        }
    }

}

static void walker_free(walker *w, an_ctx *c)
{
    const pc_kernel *k = c->k;
    size_t nl = (size_t)(k->nloops ? k->nloops : 1);
    PC_VEC_FREE(w->unknowns);
    pc_mem_free(w->cur_factor);
    pc_mem_free(w->cur_alloc);
    pc_mem_free(w->need_new);
    pc_mem_free(w->created_start);
    pc_mem_free(w->created);
    for (int r = 0; r < c->nroots; r++) {
        pc_mem_free(w->cache[r].taken);
        for (int i = 0; i < w->cache[r].nsigs; i++)
            pc_mem_free(w->cache[r].sigs[i].taken);
        pc_mem_free(w->cache[r].sigs);
        pc_mem_free(w->cache[r].ifs);
    }
    pc_mem_free(w->cache);
    pc_mem_free(w->root_sizes_static);
    pc_mem_free(w->run_asm);
    pc_mem_free(w->n_open);
    pc_mem_free(w->n_open_vt);
    pc_mem_free(w->asm_list);
    pc_mem_free(w->scan_static);
    for (size_t l = 0; l < nl; l++)
        pc_mem_free(w->scan_memo[l]);
    pc_mem_free(w->scan_memo);
    for (int d = 0; d < AN_MAX_DEPTH + 2; d++)
        if (w->ffs[d]) {
            ff_free(w->ffs[d]);
            pc_mem_free(w->ffs[d]);
        }
    pc_mem_free(w->ffs);
    pc_mem_free(w->root_dyn);
    pc_mem_free(w->iter_pos);
    pc_mem_free(w->iter_n);
    pc_mem_free(w->undecided_seen);
    pc_mem_free(w->zero_step_seen);
    for (size_t l = 0; l < nl; l++) {
        pc_mem_free(w->sub[l].stmts);
        pc_mem_free(w->sub[l].loops);
    }
    pc_mem_free(w->sub);
    PC_VEC_FREE(w->taken);
}

/* Live assemble allocations per task: each lives from the task of its first write to the task of
 * its last use (kernel-body tensors: to the end of the launch). */
static void assemble_live_per_task(an_set_result *o)
{
    size_t ntasks = o->tasks.count;
    o->task_assemble_live = pc_mem_calloc(ntasks + 1, sizeof(int64_t));
    if (o->known && ntasks) {
        /* allocations span DeviceTasks by number among all; the walked tasks they cover (a
         * repeated task has its walked one's count) */
        int64_t *delta = pc_mem_calloc(ntasks + 1, sizeof(int64_t));
        for (size_t a = 0; a < o->alloc_start.count; a++) {
            int64_t vs = o->alloc_start_vt.items[a];
            int64_t ve = o->alloc_whole_launch.items[a] ? o->nvtasks - 1 : o->alloc_last_vt.items[a];
            if (ve < vs)
                ve = vs;
            /* first walked task numbered >= vs, last numbered <= ve */
            size_t lo = 0, hi = ntasks;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (o->task_vidx.items[mid] < vs)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            size_t first = lo;
            lo = 0;
            hi = ntasks;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (o->task_vidx.items[mid] <= ve)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (first < lo) {
                delta[first]++;
                delta[lo]--;
            }
        }
        int64_t live = 0;
        for (size_t t = 0; t < ntasks; t++) {
            live += delta[t];
            o->task_assemble_live[t] = live;
        }
        pc_mem_free(delta);
    }
}

void pc_an_walk(an_ctx *c, const pc_bindings *user, an_set_result *o)
{
    const pc_kernel *k = c->k;
    memset(o, 0, sizeof *o);
    o->known = true;
    size_t nr = (size_t)(c->nroots ? c->nroots : 1), nt = (size_t)(k->ntensors ? k->ntensors : 1);
    o->root_instances = pc_mem_calloc(nr, sizeof(int64_t));
    o->root_inner = pc_mem_calloc(nr, sizeof(int64_t));
    o->root_excl = pc_mem_calloc(nr, sizeof(int64_t));
    o->tensor_bytes = pc_mem_alloc(nt * sizeof(int64_t));
    for (size_t t = 0; t < nt; t++)
        o->tensor_bytes[t] = -1;

    walker w;
    walker_init(&w, c, user, o);
    walk_body(&w, &c->kernel_body, -1);
    cut(&w, PC_CLOSE_END);
    o->nvtasks = w.vtasks;
    assemble_live_per_task(o);
    o->unknowns = pc_mem_calloc(w.unknowns.count + 1, sizeof(char *));
    for (size_t i = 0; i < w.unknowns.count; i++)
        o->unknowns[i] = w.unknowns.items[i];
    o->nunknowns = (int)w.unknowns.count;
    walker_free(&w, c);
    o->nvtasks = w.vtasks;
}

/* ---- the compiled paths of a root ------------------------------------------------------------
 *
 * Upstream compiles one root per path of a loop body (docs/model.md section 3), and a path decides
 * each distinct condition once: two IFs of one body with the same condition take the same branch
 * on every path.  `IF(i % 2 == 0) {a} ELSE {b}  IF(i % 2 == 0) {c} ELSE {d}` is compiled as the
 * two roots a+c and b+d (upstream's _PATH0 and _PATH1), never a+d, so the root's bytes are the
 * larger of those two.  Conditions are the same when their expressions are (pc_expr_equal); a
 * data-dependent condition (no expression) is never taken for another. */
#define AN_MAX_COMPILED_PATHS 4096 /* past this, each IF independently takes its largest branch */

typedef struct path_set {
    int_vec ifs;         /* the IF statements of the root, in program order */
    int_vec key;         /* per IF: the first IF with the same condition (an index into ifs) */
    int_vec choice;      /* per IF that is its own key: the branch of the path being measured */
} path_set;

static bool same_condition(const pc_stmt *a, const pc_stmt *b)
{
    if (a->nbranches != b->nbranches)
        return false;
    for (int i = 0; i < a->nbranches; i++) {
        bool ea = pc_an_branch_is_else(a, i), eb = pc_an_branch_is_else(b, i);
        if (ea != eb)
            return false;
        if (!ea && (!a->branches[i].cond || !pc_expr_equal(a->branches[i].cond, b->branches[i].cond)))
            return false;
    }
    return true;
}

/* How many ways the path can go at IF s: a branch each, and none when the chain has no else. */
static int path_choices(const pc_stmt *st)
{
    return st->nbranches + (st->nbranches > 0 && pc_an_branch_is_else(st, st->nbranches - 1) ? 0 : 1);
}

/* Root-inner and exclusive bytes of the root's largest compiled path (each pool on its own: the
 * unit is a maximum over the compiled roots); *ok_inner / *ok_excl false when a size is unknown. */
static void compiled_paths_req(walker *w, int r, const an_run *run, int64_t factor, int64_t *inner, int64_t *excl,
                               bool *ok_inner, bool *ok_excl)
{
    const pc_kernel *k = w->c->k;
    path_set ps = {0};
    collect_ifs(k, run->stmts, run->nstmts, factor, &ps.ifs, 0);
    int64_t combos = 1;
    for (size_t i = 0; i < ps.ifs.count; i++) {
        int key = (int)i;
        for (size_t j = 0; j < i && key == (int)i; j++)
            if (ps.key.items[j] == (int)j && same_condition(&k->stmts[ps.ifs.items[j]], &k->stmts[ps.ifs.items[i]]))
                key = (int)j;
        PC_VEC_PUSH(ps.key, key);
        PC_VEC_PUSH(ps.choice, 0);
        if (key == (int)i && combos <= AN_MAX_COMPILED_PATHS)
            combos *= path_choices(&k->stmts[ps.ifs.items[i]]);
    }
    bool enumerate = ps.ifs.count > 0 && combos <= AN_MAX_COMPILED_PATHS;
    if (enumerate) {
        w->path_ifs = ps.ifs.items;
        w->path_key = ps.key.items;
        w->path_choice = ps.choice.items;
        w->npath_ifs = (int)ps.ifs.count;
    }
    *inner = *excl = 0;
    *ok_inner = *ok_excl = true;
    for (;;) {
        int64_t si = 0, se = 0;
        bool ai = false, ae = false;
        seen d1 = {0}, d2 = {0};
        *ok_inner &= stmts_req(w, run->stmts, run->nstmts, factor, PC_POOL_ROOT_INNER, &d1, &si, &ai, 0);
        *ok_excl &= stmts_req(w, run->stmts, run->nstmts, factor, PC_POOL_EXCLUSIVE, &d2, &se, &ae, 0);
        low_result lr = {0};
        int64_t lowered = lowered_bytes(w, run, factor, &lr);
        si += lowered;
        if (lr.why && !w->c->lowering.why)
            w->c->lowering = lr;
        if (w->c->root_lowered && lowered > 0) {
            if (lowered > w->c->root_lowered[r])
                w->c->root_lowered[r] = lowered;
            w->c->root_lowered_kinds[r] |= lr.kinds;
        }
        pc_mem_free(d1.t);
        pc_mem_free(d2.t);
        if (si > *inner)
            *inner = si;
        if (se > *excl)
            *excl = se;
        /* the next path: an odometer over the IFs that are their own key */
        size_t i = 0;
        for (; enumerate && i < ps.ifs.count; i++) {
            if (ps.key.items[i] != (int)i)
                continue;
            if (++ps.choice.items[i] < path_choices(&k->stmts[ps.ifs.items[i]]))
                break;
            ps.choice.items[i] = 0;
        }
        if (!enumerate || i == ps.ifs.count)
            break;
    }
    w->npath_ifs = 0;
    w->path_ifs = w->path_key = w->path_choice = NULL;
    PC_VEC_FREE(ps.ifs);
    PC_VEC_FREE(ps.key);
    PC_VEC_FREE(ps.choice);
}

bool pc_an_root_units(an_ctx *c, int r, const pc_bindings *user, int64_t *inner, int64_t *excl,
                   bool *only_loop_vars)
{
    const pc_kernel *k = c->k;
    const an_root *root = &c->roots[r];
    const an_run *run = &c->runs[root->run];
    /* a scratch walker: all paths, no marks, the factor variables bound */
    an_set_result scratch = {0};
    size_t nt = (size_t)(k->ntensors ? k->ntensors : 1);
    scratch.tensor_bytes = pc_mem_alloc(nt * sizeof(int64_t));
    for (size_t t = 0; t < nt; t++)
        scratch.tensor_bytes[t] = -1;
    walker w = {0};
    w.c = c;
    w.out = &scratch;
    w.all_paths = true;
    if (user)
        w.sets[1] = *user;
    w.sets[2].items = k->constants;
    w.sets[2].count = (size_t)k->nconstants;
    refresh_sets(&w);
    for (int l = 0; l < k->nloops; l++)
        if (k->loops[l].factor_var && *k->loops[l].factor_var)
            push_binding(&w, k->loops[l].factor_var, l == run->loop ? root->factor : c->loop_factors[l][0]);
    int64_t si = 0, se = 0;
    bool ok1 = true, ok2 = true;
    compiled_paths_req(&w, r, run, root->factor, &si, &se, &ok1, &ok2);
    bool ok = ok1 && ok2;
    seen d1 = {0}, d2 = {0};
    *only_loop_vars = false;
    if (!ok) {
        /* would the loop indices alone have made the sizes known?  Bind every index to its loop's
         * begin (or 0) and try again: if that succeeds, only the iteration was missing. */
        for (int l = 0; l < k->nloops; l++) {
            int64_t v = 0;
            if (k->loops[l].begin && !pc_expr_eval(k->loops[l].begin, w.sets, 3, &v))
                v = 0;
            push_binding(&w, k->loops[l].index_var, v);
        }
        d1.n = d2.n = 0;
        int64_t ti = 0, te = 0;
        bool bi = false, be = false;
        *only_loop_vars = stmts_req(&w, run->stmts, run->nstmts, root->factor, PC_POOL_ROOT_INNER, &d1, &ti, &bi, 0) &&
                          stmts_req(&w, run->stmts, run->nstmts, root->factor, PC_POOL_EXCLUSIVE, &d2, &te, &be, 0);
    }
    pc_mem_free(d1.t);
    pc_mem_free(d2.t);
    pc_mem_free(scratch.tensor_bytes);
    *inner = ok1 ? si : -1;
    *excl = ok2 ? se : -1;
    return ok;
}

void pc_an_set_result_trim(an_set_result *s)
{
    PC_VEC_FREE(s->instance_roots);
    PC_VEC_FREE(s->tasks);
    PC_VEC_FREE(s->task_vidx);
    PC_VEC_FREE(s->vtasks);
    PC_VEC_FREE(s->task_sum_inner);
    PC_VEC_FREE(s->task_sum_excl);
    PC_VEC_FREE(s->task_cnt_inner);
    PC_VEC_FREE(s->task_cnt_excl);
    PC_VEC_FREE(s->alloc_start);
    PC_VEC_FREE(s->alloc_last);
    PC_VEC_FREE(s->alloc_tensor);
    PC_VEC_FREE(s->alloc_whole_launch);
    PC_VEC_FREE(s->alloc_start_vt);
    PC_VEC_FREE(s->alloc_last_vt);
    pc_mem_free(s->task_assemble_live);
    s->task_assemble_live = NULL;
    if (s->stmt_tasks) {
        for (size_t i = 0; i < s->nstmt_tasks; i++) {
            pc_mem_free(s->stmt_tasks[i].lo);
            pc_mem_free(s->stmt_tasks[i].hi);
        }
        pc_mem_free(s->stmt_tasks);
        s->stmt_tasks = NULL;
        s->nstmt_tasks = 0;
    }
    s->trimmed = true;
}

void pc_an_set_result_free(an_set_result *s)
{
    pc_an_set_result_trim(s); /* the per-task and per-instance tables */
    pc_mem_free(s->root_instances);
    pc_mem_free(s->root_inner);
    pc_mem_free(s->root_excl);
    pc_mem_free(s->tensor_bytes);
    pc_mem_free(s->unknowns);
    PC_VEC_FREE(s->undecided_stmt);
    PC_VEC_FREE(s->undecided_branch);
    PC_VEC_FREE(s->zero_step_loops);
    pc_mem_free(s->stmt_taken);
}
