/* walk.c - the instance interpreter (spec docs/model.md sections 3, 5 and 6).
 *
 * Walks the kernel's control flow like the AICPU control program does, emitting one instance per
 * execution of a root function, cutting DeviceTasks where the runtime submits
 * (DeviceExecuteContext: root-count threshold k outside parallel-for scopes, 1024 inside,
 * LOOP_BARRIER for submit_before_loop, PARALLEL_FOR_BEGIN/END, FINISH), and following every
 * assemble allocation from its first write to the submit after its last reader (slots are
 * recycled only at a submit: TriggerDelayedRecycle). */
#include "analysis_int.h"

#include <string.h>

typedef struct req_cache {
    int tier;                /* 0 not computed, 1 valid without loop bindings, 3 per instance */
    int64_t inner, excl;     /* bytes, -1 unknown */
    bool has_inner, has_excl;
} req_cache;

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
    req_cache *cache;        /* per root */
    PC_VEC(const char *) unknowns;
} walker;

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

int64_t an_tensor_bytes(const an_ctx *c, int t, const pc_bindings *sets, size_t nsets)
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

/* ---- per-instance requirements ----------------------------------------------------------------- */

typedef struct seen { int *t; int n, cap; } seen;

static bool seen_has(const seen *s, int t)
{
    for (int i = 0; i < s->n; i++)
        if (s->t[i] == t)
            return true;
    return false;
}

/* Sum of aligned bytes of distinct pool-`pool` tensors written by the statements (IF: the largest
 * branch).  Returns false when some size is unknown. */
static bool stmts_req(walker *w, const int *stmts, int n, int64_t factor, pc_pool pool, seen *done,
                      int64_t *sum, bool *any, int depth)
{
    an_ctx *c = w->c;
    const pc_kernel *k = c->k;
    bool ok = true;
    for (int i = 0; i < n && depth < 64; i++) {
        int s = stmts[i];
        if (s < 0 || s >= k->nstmts)
            continue;
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_OP) {
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
                int64_t b = an_tensor_bytes(c, t, w->sets, 3);
                if (b < 0) {
                    ok = false;
                    continue;
                }
                if (b > w->out->tensor_bytes[t])
                    w->out->tensor_bytes[t] = b;
                *sum += pc_align_up(b, 512);
            }
        } else if (st->kind == PC_STMT_IF) {
            int64_t best = 0;
            bool best_any = false;
            for (int br = 0; br < st->nbranches; br++) {
                if (st->branches[br].decided == 0)
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
        } else if (st->kind == PC_STMT_UNROLL) {
            if (st->unroll_factor == factor)
                ok &= stmts_req(w, st->unroll_body.stmts, st->unroll_body.count, factor, pool, done, sum,
                                any, depth + 1);
        }
    }
    return ok;
}

static void root_req(walker *w, int r, int64_t *inner, int64_t *excl, bool *has_inner, bool *has_excl)
{
    an_ctx *c = w->c;
    const an_root *root = &c->roots[r];
    const an_run *run = &c->runs[root->run];
    req_cache *rc = &w->cache[r];
    if (rc->tier == 1) {
        *inner = rc->inner, *excl = rc->excl, *has_inner = rc->has_inner, *has_excl = rc->has_excl;
        return;
    }
    /* Tier 1: sizes that do not depend on loop indices or factors are computed once. */
    pc_bindings saved = w->sets[0];
    for (int tier = (rc->tier == 3 ? 3 : 1); tier <= 3; tier += 2) {
        if (tier == 1) {
            w->sets[0].count = 0;
        } else {
            w->sets[0] = saved;
        }
        int64_t si = 0, se = 0;
        bool ai = false, ae = false;
        seen d1 = {0}, d2 = {0};
        bool ok1 = stmts_req(w, run->stmts, run->nstmts, root->factor, PC_POOL_ROOT_INNER, &d1, &si, &ai, 0);
        bool ok2 = stmts_req(w, run->stmts, run->nstmts, root->factor, PC_POOL_EXCLUSIVE, &d2, &se, &ae, 0);
        pc_mem_free(d1.t);
        pc_mem_free(d2.t);
        if ((ok1 && ok2) || tier == 3) {
            *inner = ok1 ? si : -1;
            *excl = ok2 ? se : -1;
            *has_inner = ai;
            *has_excl = ae;
            rc->tier = tier;
            rc->inner = *inner, rc->excl = *excl, rc->has_inner = ai, rc->has_excl = ae;
            break;
        }
    }
    w->sets[0] = saved;
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

static void new_alloc(walker *w, int t, int64_t inst)
{
    an_set_result *o = w->out;
    w->cur_alloc[t] = (int)o->alloc_start.count;
    w->need_new[t] = false;
    PC_VEC_PUSH(o->alloc_start, inst);
    PC_VEC_PUSH(o->alloc_last, inst);
    PC_VEC_PUSH(o->alloc_tensor, t);
    PC_VEC_PUSH(o->alloc_whole_launch, w->c->kernel_scope_assemble[t]);
}

static void assemble_events_stmts(walker *w, const int *stmts, int n, int64_t inst, bool creations_only, int depth)
{
    an_ctx *c = w->c;
    const pc_kernel *k = c->k;
    for (int i = 0; i < n && depth < 64; i++) {
        int s = stmts[i];
        if (s < 0 || s >= k->nstmts)
            continue;
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_IF) {
            for (int br = 0; br < st->nbranches; br++)
                if (st->branches[br].decided != 0)
                    assemble_events_stmts(w, st->branches[br].body.stmts, st->branches[br].body.count, inst,
                                          creations_only, depth + 1);
            continue;
        }
        if (st->kind == PC_STMT_UNROLL) {
            assemble_events_stmts(w, st->unroll_body.stmts, st->unroll_body.count, inst, creations_only, depth + 1);
            continue;
        }
        if (st->kind != PC_STMT_OP)
            continue;
        /* upstream emits RUNTIME_SlotMarkNeedAlloc each time the creating path is entered */
        for (int t = 0; t < k->ntensors; t++)
            if (k->tensors[t].def_stmt == s && c->pool[t] == PC_POOL_ASSEMBLE &&
                k->tensors[t].kind == PC_TENSOR_CREATED)
                w->need_new[t] = true;
        if (creations_only)
            continue;
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
                if (cur >= 0 && w->out->alloc_last.items[cur] < inst)
                    w->out->alloc_last.items[cur] = inst;
                break;
            case PC_ACC_DEFINE:
                if (k->tensors[t].kind == PC_TENSOR_CREATED)
                    break;
                /* a defined value is a whole write */
                __attribute__((fallthrough));
            case PC_ACC_WRITE_WHOLE:
                /* a non-assemble producer marks the slot for allocation (IsOutcastNeedAlloc) */
                if (cur < 0 || w->out->alloc_start.items[cur] != inst)
                    new_alloc(w, t, inst);
                break;
            case PC_ACC_WRITE_ASSEMBLE:
            case PC_ACC_WRITE_ELEMENT:
                if (cur < 0 || w->need_new[t])
                    new_alloc(w, t, inst);
                else if (w->out->alloc_last.items[cur] < inst)
                    w->out->alloc_last.items[cur] = inst;
                break;
            }
        }
    }
}

/* ---- the walk ------------------------------------------------------------------------------------ */

static void emit_instance(walker *w, int r)
{
    an_ctx *c = w->c;
    an_set_result *o = w->out;
    if (w->parallel_depth > 0) {
        if (w->task_count >= 1024)
            cut(w, PC_CLOSE_HARD_LIMIT);
    } else if (w->task_count >= c->kcap) {
        cut(w, PC_CLOSE_LIMIT);
    }
    int64_t inst = o->ninstances++;
    int64_t pos = w->task_count++;
    int copy = 0;
    if (w->parallel_depth > 0 && c->parallelism > 1)
        copy = (int)(pos % (c->parallelism > 8 ? 8 : c->parallelism));
    int64_t inner, excl;
    bool hi, he;
    root_req(w, r, &inner, &excl, &hi, &he);
    if (w->copy_inner[copy] >= 0)
        w->copy_inner[copy] = inner < 0 ? -1 : w->copy_inner[copy] + inner;
    if (w->copy_excl[copy] >= 0)
        w->copy_excl[copy] = excl < 0 ? -1 : w->copy_excl[copy] + excl;
    w->copy_cnt_inner[copy] += hi;
    w->copy_cnt_excl[copy] += he;
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
    assemble_events_stmts(w, run->stmts, run->nstmts, inst, false, 0);
    if (o->ninstances >= w->c->opts->max_instances) {
        o->truncated = true;
        w->stop = true;
    }
}

static void walk_body(walker *w, const an_body *body, int loop);

static bool root_has_op(const an_ctx *c, int r)
{
    const an_root *root = &c->roots[r];
    const an_run *run = &c->runs[root->run];
    for (int i = 0; i < run->nstmts; i++) {
        const pc_stmt *st = &c->k->stmts[run->stmts[i]];
        if (st->kind == PC_STMT_UNROLL && st->unroll_factor != root->factor)
            continue;
        if (an_stmt_is_op(c, run->stmts[i]))
            return true;
    }
    return false;
}

static bool eval(walker *w, const pc_expr *e, int64_t *v)
{
    if (pc_expr_eval(e, w->sets, 3, v))
        return true;
    add_unknowns(w, e);
    return false;
}

static void push_binding(walker *w, const char *name, int64_t v)
{
    if (!name || !*name || w->nscope >= AN_MAX_DEPTH * 2)
        return;
    w->scope[w->nscope].name = name;
    w->scope[w->nscope].value = v;
    w->nscope++;
    refresh_sets(w);
}

/* Iterations of a loop from `from` to `to` (exclusive) by `step`, exact for any int64 bounds a
 * source or a model file can give (the span may not fit in int64: it is taken unsigned);
 * saturates at INT64_MAX, far past the walk's max_instances safety valve. */
static int64_t trip_count(int64_t from, int64_t to, int64_t step)
{
    uint64_t span, st;
    if (step > 0 && to > from) {
        span = (uint64_t)to - (uint64_t)from;
        st = (uint64_t)step;
    } else if (step < 0 && from > to) {
        span = (uint64_t)from - (uint64_t)to;
        st = 0 - (uint64_t)step;
    } else {
        return 0;
    }
    uint64_t n = span / st + (span % st != 0);
    return n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n;
}

static void walk_loop(walker *w, int l)
{
    an_ctx *c = w->c;
    const pc_loop *lp = &c->k->loops[l];
    if (w->depth >= AN_MAX_DEPTH) {
        w->stop = true;
        return;
    }
    int64_t b = 0, e = 0, s = 1;
    bool ok_begin = !lp->begin || eval(w, lp->begin, &b);
    bool ok_end = lp->end && eval(w, lp->end, &e);
    bool ok_step = !lp->step || eval(w, lp->step, &s);
    if (!ok_begin || !ok_end || !ok_step || s == 0) {
        w->out->known = false;
        w->stop = true;
        return;
    }
    if (lp->submit_before_loop)
        cut(w, PC_CLOSE_BARRIER);
    if (lp->parallel) {
        cut(w, PC_CLOSE_PARALLEL);
        w->parallel_depth++;
    }
    w->depth++;
    int saved_scope = w->nscope;
    int nf = c->loop_nfactors[l];
    int64_t cur = b;
    for (int f = 0; f < nf && !w->stop; f++) {
        int64_t p = c->loop_factors[l][f];
        int64_t stride, n, seg_end;
        if (__builtin_mul_overflow(s, p, &stride))  /* a stride past int64: one iteration at most */
            stride = (s > 0) == (p > 0) ? INT64_MAX : INT64_MIN;
        if (nf == 1) {
            n = trip_count(b, e, s);
            seg_end = e;
        } else {
            /* upstream: the factor-p loop starts where the previous stopped and ends at
             * stop - ((stop - start) % (step*p)), stepping by step*p */
            if (s <= 0 || stride <= 0 || e <= cur) {
                n = 0;
                seg_end = cur;
            } else {
                uint64_t span = (uint64_t)e - (uint64_t)cur, whole = span - span % (uint64_t)stride;
                seg_end = (int64_t)((uint64_t)cur + whole);
                n = trip_count(cur, seg_end, stride);
            }
        }
        w->cur_factor[l] = p;
        for (int64_t i = 0; i < n && !w->stop; i++) {
            w->nscope = saved_scope;
            /* unsigned: the true value lies between the bounds, the intermediate may not */
            push_binding(w, lp->index_var, (int64_t)((uint64_t)cur + (uint64_t)i * (uint64_t)stride));
            if (lp->factor_var)
                push_binding(w, lp->factor_var, p);
            walk_body(w, &c->loop_bodies[l], l);
        }
        if (n > 0)
            cur = seg_end;
    }
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
    for (int br = 0; br < st->nbranches; br++)
        if (st->branches[br].decided == 1) {
            walk_body(w, &bodies[br], loop);
            return;
        }
    /* Undecidable branches that hold loops: walk every possible branch.  This over-counts
     * instances (an upper bound, never an under-prediction). */
    for (int br = 0; br < st->nbranches && !w->stop; br++)
        if (st->branches[br].decided != 0)
            walk_body(w, &bodies[br], loop);
}

static void walk_body(walker *w, const an_body *body, int loop)
{
    an_ctx *c = w->c;
    for (int i = 0; i < body->nitems && !w->stop; i++) {
        const an_item *it = &body->items[i];
        if (it->is_loop && it->index >= 0) {
            walk_loop(w, it->index);
        } else if (it->is_loop) {
            walk_branchy(w, -it->index - 1, loop);
        } else {
            int64_t factor = loop >= 0 ? w->cur_factor[loop] : 1;
            int r = an_root_for(c, it->index, factor);
            if (root_has_op(c, r)) {
                emit_instance(w, r);
            } else {
                const an_run *run = &c->runs[it->index];
                assemble_events_stmts(w, run->stmts, run->nstmts, w->out->ninstances, true, 0);
            }
        }
    }
}

static int64_t task_of(const an_set_result *o, int64_t inst)
{
    int64_t lo = 0, hi = (int64_t)o->tasks.count - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (o->tasks.items[mid].first <= inst)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void an_walk(an_ctx *c, const pc_bindings *user, an_set_result *o)
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

    walker w = {0};
    w.c = c;
    w.out = o;
    if (user)
        w.sets[1] = *user;
    w.sets[2].items = k->constants;
    w.sets[2].count = (size_t)k->nconstants;
    refresh_sets(&w);
    w.cur_factor = pc_mem_calloc((size_t)(k->nloops ? k->nloops : 1), sizeof(int64_t));
    w.cur_alloc = pc_mem_alloc(nt * sizeof(int));
    w.need_new = pc_mem_calloc(nt, sizeof(bool));
    for (size_t t = 0; t < nt; t++) {
        w.cur_alloc[t] = -1;
        w.need_new[t] = true;
    }
    w.cache = pc_mem_calloc(nr, sizeof(req_cache));

    walk_body(&w, &c->kernel_body, -1);
    cut(&w, PC_CLOSE_END);

    /* Live assemble allocations per task: each lives from the task of its first write to the
     * task of its last use (kernel-body tensors: to the end of the launch). */
    size_t ntasks = o->tasks.count;
    o->task_assemble_live = pc_mem_calloc(ntasks + 1, sizeof(int64_t));
    if (o->known && ntasks) {
        int64_t *delta = pc_mem_calloc(ntasks + 1, sizeof(int64_t));
        for (size_t a = 0; a < o->alloc_start.count; a++) {
            int64_t ts = task_of(o, o->alloc_start.items[a]);
            int64_t te = o->alloc_whole_launch.items[a] ? (int64_t)ntasks - 1 : task_of(o, o->alloc_last.items[a]);
            if (te < ts)
                te = ts;
            delta[ts]++;
            delta[te + 1]--;
        }
        int64_t live = 0;
        for (size_t t = 0; t < ntasks; t++) {
            live += delta[t];
            o->task_assemble_live[t] = live;
        }
        pc_mem_free(delta);
    }
    o->unknowns = pc_mem_calloc(w.unknowns.count + 1, sizeof(char *));
    for (size_t i = 0; i < w.unknowns.count; i++)
        o->unknowns[i] = w.unknowns.items[i];
    o->nunknowns = (int)w.unknowns.count;
    PC_VEC_FREE(w.unknowns);
    pc_mem_free(w.cur_factor);
    pc_mem_free(w.cur_alloc);
    pc_mem_free(w.need_new);
    pc_mem_free(w.cache);
}

void an_set_result_free(an_set_result *s)
{
    PC_VEC_FREE(s->instance_roots);
    PC_VEC_FREE(s->tasks);
    PC_VEC_FREE(s->task_sum_inner);
    PC_VEC_FREE(s->task_sum_excl);
    PC_VEC_FREE(s->task_cnt_inner);
    PC_VEC_FREE(s->task_cnt_excl);
    PC_VEC_FREE(s->alloc_start);
    PC_VEC_FREE(s->alloc_last);
    PC_VEC_FREE(s->alloc_tensor);
    PC_VEC_FREE(s->alloc_whole_launch);
    pc_mem_free(s->root_instances);
    pc_mem_free(s->root_inner);
    pc_mem_free(s->root_excl);
    pc_mem_free(s->tensor_bytes);
    pc_mem_free(s->task_assemble_live);
    pc_mem_free(s->unknowns);
}
