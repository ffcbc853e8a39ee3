/* analyze.c - depths, units and bytes over binding sets; builds the pc_result
 * (spec docs/model.md sections 6 and 7). */
#include "analysis_int.h"

#include <string.h>

const char *pc_pool_name(pc_pool p)
{
    static const char *n[] = {"root_inner", "assemble_outcast", "exclusive_outcast", "none"};
    return p >= 0 && p <= PC_POOL_NONE ? n[p] : "none";
}

const char *pc_task_close_name(pc_task_close c)
{
    static const char *n[] = {"k reached", "1024 reached", "barrier", "parallel loop", "end"};
    return c >= 0 && c <= PC_CLOSE_END ? n[c] : "?";
}

void pc_an_default_opts(pc_analysis_opts *o)
{
    memset(o, 0, sizeof *o);
    o->inner_policy = PC_INNER_BOUNDARY;
    o->assemble_headroom = 1;
    o->max_walk_seconds = PC_DEFAULT_MAX_WALK_SECONDS;
}

int64_t pc_workspace_bytes(const pc_result *r, const int64_t d[3], int64_t P)
{
    if (r->unit_inner < 0 || r->unit_excl < 0 || r->slot_size < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (d[i] < 0)
            return -1;
    int64_t E = r->n_exclusive, A = r->n_assemble;
    int64_t raw = r->unit_inner * d[0] + r->unit_excl * d[2] + (2 * E + 2 * A + A * d[1]) * r->slot_size;
    return pc_align_up(raw, 32768) * (P < 1 ? 1 : P);
}

void pc_result_free(pc_result *r)
{
    if (r)
        pc_arena_free(r->arena);
}

/* Per-set depths: predicted[i] for one binding set (-1 when the walk could not finish). */
typedef struct set_depths {
    int64_t pred[3];
    int64_t arg_task[3];     /* the explicit task (an_set_result.tasks) first setting it */
} set_depths;

static void task_needs(const an_ctx *c, an_set_result *s, int64_t A, set_depths *d)
{
    for (int i = 0; i < 3; i++) {
        d->pred[i] = 0;
        d->arg_task[i] = -1;
    }
    for (size_t t = 0; t < s->tasks.count; t++) {
        pc_task *task = &s->tasks.items[t];
        int64_t si = s->task_sum_inner.items[t], se = s->task_sum_excl.items[t];
        /* unknown bytes: count the instances that need the pool (docs/model.md section 6) */
        task->need[0] = s->unit_inner > 0 && si >= 0 ? pc_ceil_div(si, s->unit_inner)
                                                      : s->task_cnt_inner.items[t];
        task->need[2] = s->unit_excl > 0 && se >= 0 ? pc_ceil_div(se, s->unit_excl)
                                                     : s->task_cnt_excl.items[t];
        task->need[1] = A > 0 ? pc_ceil_div(s->task_assemble_live[t], A) : 0;
        for (int i = 0; i < 3; i++)
            if (task->need[i] > d->pred[i]) {
                d->pred[i] = task->need[i];
                d->arg_task[i] = (int64_t)t; /* repeated tasks never exceed their walked one */
            }
    }
    for (int i = 0; i < 3; i++) {
        if (c->needed[i] && d->pred[i] == 0)
            d->pred[i] = 1;
        if (!c->needed[i])
            d->pred[i] = 0;
    }
}

static void add_name(pc_arena *a, const char ***list, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i], name) == 0)
            return;
    *list = pc_arena_grow(a, (void *)*list, (size_t)*n, (size_t)*n + 1, sizeof(char *));
    (*list)[(*n)++] = pc_arena_strdup(a, name);
}

/* The loops' own variables are not symbols a user can bind. */
static bool is_loop_var(const pc_kernel *k, const char *name)
{
    for (int l = 0; l < k->nloops; l++)
        if ((k->loops[l].index_var && strcmp(k->loops[l].index_var, name) == 0) ||
            (k->loops[l].factor_var && strcmp(k->loops[l].factor_var, name) == 0))
            return true;
    return false;
}

/* Instances of a run over the launch, as an expression (NULL when unroll makes it irregular). */
static const pc_expr *run_count_expr(an_ctx *c, int run, const pc_bindings *sets, size_t nsets)
{
    const pc_kernel *k = c->k;
    const pc_expr *count = pc_expr_int(c->arena, 1);
    for (int l = c->runs[run].loop; l >= 0 && l < k->nloops; l = k->loops[l].parent) {
        const pc_loop *lp = &k->loops[l];
        if (c->loop_nfactors[l] > 1 || !lp->end)
            return NULL;
        const pc_expr *b = lp->begin ? lp->begin : pc_expr_int(c->arena, 0);
        const pc_expr *s = lp->step ? lp->step : pc_expr_int(c->arena, 1);
        int64_t sv;
        if (pc_expr_is_int(pc_expr_subst(c->arena, s, sets, nsets), &sv) && sv == 0)
            return pc_expr_int(c->arena, 0); /* a zero step runs nothing (and divides nothing) */
        const pc_expr *trip = pc_expr_bin(c->arena, PC_EXPR_CEILDIV,
                                          pc_expr_bin(c->arena, PC_EXPR_SUB, lp->end, b), s);
        count = pc_expr_bin(c->arena, PC_EXPR_MUL, count, trip);
    }
    return pc_expr_subst(c->arena, count, sets, nsets);
}

static bool run_uses_pool(const an_ctx *c, int run, pc_pool pool)
{
    const pc_kernel *k = c->k;
    for (int s = 0; s < k->nstmts; s++) {
        if (c->stmt_run[s] != run || k->stmts[s].kind != PC_STMT_OP)
            continue;
        for (int i = 0; i < k->stmts[s].naccesses; i++) {
            const pc_access *a = &k->stmts[s].accesses[i];
            if (a->kind != PC_ACC_READ && a->tensor >= 0 && a->tensor < k->ntensors &&
                !(a->kind == PC_ACC_DEFINE && k->tensors[a->tensor].kind == PC_TENSOR_VIEW) &&
                c->pool[c->base[a->tensor]] == pool)
                return true;
        }
    }
    return false;
}

static const char *depth_formula(an_ctx *c, pc_pool pool, const pc_bindings *sets, size_t nsets)
{
    if (pool == PC_POOL_ASSEMBLE)
        return NULL;
    const pc_expr *sum = NULL;
    for (int r = 0; r < c->nruns; r++) {
        if (!c->runs[r].has_op || !run_uses_pool(c, r, pool))
            continue;
        const pc_expr *n = run_count_expr(c, r, sets, nsets);
        if (!n)
            return NULL;
        sum = sum ? pc_expr_bin(c->arena, PC_EXPR_ADD, sum, n) : n;
    }
    if (!sum || pc_expr_is_int(sum, NULL))
        return NULL;
    const pc_expr *f = pc_expr_bin(c->arena, PC_EXPR_MIN, sum, pc_expr_int(c->arena, c->kcap));
    char *text = pc_expr_to_string(f);
    const char *out = pc_arena_strdup(c->arena, text);
    pc_mem_free(text);
    return out;
}

static void fill_why(an_ctx *c, pc_result *r, const an_set_result *s, int pool, int64_t task)
{
    pc_why *w = &r->why[pool];
    w->task = -1;
    if (task < 0 || (size_t)task >= s->tasks.count || !c->needed[pool])
        return;
    const pc_task *t = &s->tasks.items[task];
    w->task = s->task_vidx.items[task];
    w->first_instance = t->first;
    w->last_instance = t->last;
    if (!s->instance_roots.count)
        return;
    int64_t *per_root = pc_mem_calloc((size_t)(c->nroots ? c->nroots : 1), sizeof(int64_t));
    for (int64_t i = t->first; i <= t->last && i < (int64_t)s->instance_roots.count; i++)
        per_root[s->instance_roots.items[i]]++;
    for (int root = 0; root < c->nroots; root++) {
        if (!per_root[root])
            continue;
        w->roots = pc_arena_grow(c->arena, w->roots, (size_t)w->nroots, (size_t)w->nroots + 1, sizeof(pc_why_root));
        pc_why_root *wr = &w->roots[w->nroots++];
        wr->name = c->roots[root].name;
        wr->loop = c->runs[c->roots[root].run].loop;
        wr->instances = per_root[root];
        /* tensors of this pool that the root touches */
        for (int st = 0; st < c->k->nstmts; st++) {
            if (c->stmt_run[st] != c->roots[root].run || c->k->stmts[st].kind != PC_STMT_OP)
                continue;
            if (s->stmt_tasks && !pc_an_ranges_has(&s->stmt_tasks[st], w->task))
                continue; /* on a path no instance of this task took */
            for (int a = 0; a < c->k->stmts[st].naccesses; a++) {
                int tid = c->k->stmts[st].accesses[a].tensor;
                if (tid < 0 || tid >= c->k->ntensors)
                    continue;
                tid = c->base[tid];
                if ((int)c->pool[tid] != pool)
                    continue;
                const pc_tensor *T = &c->k->tensors[tid];
                /* anonymous intermediates are named where they are computed (as in reports) */
                char label[32];
                add_name(c->arena, &w->tensors, &w->ntensors, pc_tensor_label(T, label, sizeof label));
            }
        }
    }
    pc_mem_free(per_root);
}

/* Undecidable path conditions and zero-step loops, over every binding set, into the result. */
static void collect_paths(an_ctx *c, pc_result *r, const an_set_result *sets, size_t nsets, pc_bindings user)
{
    const pc_kernel *k = c->k;
    pc_bindings bs[2] = {user, {k->constants, (size_t)k->nconstants}};
    for (size_t i = 0; i < nsets; i++) {
        const an_set_result *s = &sets[i];
        for (size_t u = 0; u < s->undecided_stmt.count; u++) {
            int st = s->undecided_stmt.items[u], b = s->undecided_branch.items[u];
            bool dup = false;
            for (int j = 0; j < r->nundecided && !dup; j++)
                dup = r->undecided[j].stmt == st;
            if (dup || st < 0 || st >= k->nstmts || b < 0 || b >= k->stmts[st].nbranches)
                continue;
            const pc_branch *br = &k->stmts[st].branches[b];
            r->undecided = pc_arena_grow(c->arena, r->undecided, (size_t)r->nundecided,
                                         (size_t)r->nundecided + 1, sizeof(pc_undecided));
            pc_undecided *d = &r->undecided[r->nundecided++];
            memset(d, 0, sizeof *d);
            d->stmt = st;
            d->branch = b;
            if (br->cond_text && *br->cond_text) {
                d->cond_text = pc_arena_strdup(c->arena, br->cond_text);
            } else if (br->cond) {
                char *t = pc_expr_to_string(br->cond);
                d->cond_text = pc_arena_strdup(c->arena, t);
                pc_mem_free(t);
            } else {
                d->cond_text = "a data-dependent condition";
            }
            d->loc = br->loc.line ? br->loc : k->stmts[st].loc;
            const char *names[32];
            size_t n = pc_expr_symbols(br->cond, names, 0, 32);
            for (size_t j = 0; j < n; j++) {
                int64_t v;
                pc_expr probe = {.kind = PC_EXPR_SYM, .name = names[j]};
                if (!is_loop_var(k, names[j]) && !pc_expr_eval(&probe, bs, 2, &v))
                    add_name(c->arena, &d->symbols, &d->nsymbols, names[j]);
            }
        }
        for (size_t z = 0; z < s->zero_step_loops.count; z++) {
            int l = s->zero_step_loops.items[z];
            bool dup = false;
            for (int j = 0; j < r->nzero_step_loops && !dup; j++)
                dup = r->zero_step_loops[j] == l;
            if (dup)
                continue;
            r->zero_step_loops = pc_arena_grow(c->arena, r->zero_step_loops, (size_t)r->nzero_step_loops,
                                               (size_t)r->nzero_step_loops + 1, sizeof(int));
            r->zero_step_loops[r->nzero_step_loops++] = l;
        }
    }
}

/* `--bind PARAM.shape[D]` names a parameter by its variable name or by its name string
 * (docs/model.md section 12); frontends spell dynamic dims with one of the two.  Extend each binding
 * set with the other spelling so either works. */
static pc_bindings alias_param_names(pc_arena *a, const pc_kernel *k, pc_bindings in)
{
    size_t extra = 0;
    for (size_t i = 0; i < in.count; i++)
        if (strchr(in.items[i].name, '.'))
            extra += 1;
    if (!extra)
        return in;
    pc_binding *items = pc_arena_alloc(a, (in.count + extra) * sizeof(pc_binding));
    if (in.count)
        memcpy(items, in.items, in.count * sizeof(pc_binding));
    size_t n = in.count;
    for (size_t i = 0; i < in.count; i++) {
        const char *other = pc_kernel_param_other_spelling(k, in.items[i].name);
        if (other) {
            items[n].name = pc_arena_printf(a, "%s%s", other, strchr(in.items[i].name, '.'));
            items[n].value = in.items[i].value;
            n++;
        }
    }
    pc_bindings out = {items, n};
    return out;
}

/* ---- pc_analyze, phase by phase ----------------------------------------------------------------
 * One analysis (an_run) goes: the context (roots, pools, slots), the walk of every binding set with
 * its units, the merge of the sets into depths, units and tensor bytes, the instances, tasks and
 * "why" of the set with the most instances, the roots, and the workspace bytes.  Each phase reads
 * what the ones before it left in the an_run. */
typedef struct an_run_state {
    an_ctx c;
    pc_analysis_opts opts;
    pc_result *r;
    pc_bindings empty;
    size_t nsets;
    an_set_result *sets;
    set_depths *depths;
    bool all_known;
    size_t chosen;                 /* the set with the most instances (the first of equals) */
    size_t first_max[3];           /* per pool, the first set to reach the largest depth */
    int64_t *static_inner, *static_excl; /* per root, over every set: the compiled units */
} an_run_state;

static pc_bindings set_bindings(const an_run_state *st, size_t i)
{
    return st->opts.nbinding_sets ? st->opts.binding_sets[i] : st->empty;
}

/* E and A count slots: upstream binds one runtime slot per program-level tensor variable
 * (TensorSlotManager), so `h = x + 1` and a loop's `h = h + x` share one slot. */
static void count_slots(const an_ctx *c, pc_result *r)
{
    const pc_kernel *k = c->k;
    for (int t = 0; t < k->ntensors; t++) {
        if (c->pool[t] != PC_POOL_ASSEMBLE && c->pool[t] != PC_POOL_EXCLUSIVE)
            continue;
        const char *v = k->tensors[t].variable;
        bool seen = false;
        for (int u = 0; u < t && v && *v && !seen; u++)
            seen = c->pool[u] == c->pool[t] && k->tensors[u].variable && strcmp(k->tensors[u].variable, v) == 0;
        if (seen)
            continue;
        if (c->pool[t] == PC_POOL_ASSEMBLE) r->n_assemble++;
        else r->n_exclusive++;
    }
}

/* The context of one analysis: roots and pools of the kernel under cfg, and the result's header. */
static void setup(an_run_state *st, const pc_model *m, int kernel, const pc_runtime_config *cfg)
{
    pc_arena *arena = pc_arena_new();
    pc_result *r = pc_arena_alloc(arena, sizeof *r);
    r->arena = arena;
    r->model = m;
    r->kernel = &m->kernels[kernel];
    st->r = r;
    an_ctx *c = &st->c;
    c->arena = arena;
    c->model = m;
    c->k = r->kernel;
    c->opts = &st->opts;
    c->cfg = cfg;
    c->kcap = pc_cfg_k(cfg);
    if (c->kcap < 1)
        c->kcap = 1;
    c->parallelism = cfg->parallelism < 1 ? 1 : cfg->parallelism;
    pc_an_build_roots(c);
    pc_an_classify(c);
    size_t nr = (size_t)(c->nroots ? c->nroots : 1);
    c->root_lowered = pc_arena_alloc(arena, nr * sizeof(int64_t));
    c->root_lowered_kinds = pc_arena_alloc(arena, nr * sizeof(unsigned));
    memset(c->root_lowered, 0, nr * sizeof(int64_t));
    memset(c->root_lowered_kinds, 0, nr * sizeof(unsigned));
    r->k = c->kcap;
    r->parallelism = c->parallelism;
    r->precise = pc_cfg_precise(cfg);
    pc_cfg_effective_pool(cfg, r->configured);
    for (int i = 0; i < 3; i++)
        r->needed[i] = c->needed[i];
    count_slots(c, r);
}

/* The symbols the units can depend on: those of every tensor size and loop begin.  *all is false
 * when there may be more than were listed (then no set reuses another's units). */
static void unit_symbols(const pc_kernel *k, pc_arena *a, const char ***out, size_t *n, bool *all)
{
    PC_VEC(const char *) usyms = {0};
    *all = true;
    for (int t = 0; t < k->ntensors + k->nloops; t++) {
        const pc_expr *const *exprs = t < k->ntensors ? k->tensors[t].shape : &k->loops[t - k->ntensors].begin;
        int ne = t < k->ntensors ? (k->tensors[t].shape ? k->tensors[t].ndims : 0) : 1;
        for (int d = 0; d < ne; d++) {
            const char *names[32];
            size_t nn = pc_expr_symbols(exprs[d], names, 0, 32);
            if (nn == 32)
                *all = false; /* maybe more than the list holds: no reuse */
            for (size_t j = 0; j < nn; j++) {
                bool dup = false;
                for (size_t q = 0; q < usyms.count && !dup; q++)
                    dup = strcmp(usyms.items[q], names[j]) == 0;
                if (!dup)
                    PC_VEC_PUSH(usyms, names[j]);
            }
        }
    }
    *n = usyms.count;
    *out = pc_arena_alloc(a, (usyms.count ? usyms.count : 1) * sizeof **out);
    for (size_t i = 0; i < usyms.count; i++)
        (*out)[i] = usyms.items[i];
    PC_VEC_FREE(usyms);
}

/* Why a set's walk stopped early, into the result. */
static void record_stop(pc_result *r, const an_set_result *s, const pc_analysis_opts *opts)
{
    r->truncated = true;
    /* an explicit limit, or where a count past 2^62 instances stopped the walk */
    if (s->stop_reason == AN_STOP_NESTING) {
        if (!r->nesting_what) {
            r->nesting_what = s->limit_what;
            r->nesting_limit = s->limit;
        }
        r->instance_limit = s->ninstances;
    } else if (s->stop_reason == AN_STOP_TIME || s->stop_reason == AN_STOP_CANCELLED) {
        /* the budget, not the count: what was walked is the bound's basis */
        if (s->stop_reason == AN_STOP_TIME)
            r->walk_time_limit = opts->max_walk_seconds;
        else
            r->cancelled = true;
        r->instance_limit = s->ninstances;
    } else {
        r->instance_limit = opts->max_instances > 0 ? opts->max_instances : s->ninstances;
        if (opts->max_instances <= 0)
            r->too_many_instances = true;
    }
}

/* Walk every binding set: its instances and tasks, its units (U0 / U2, model.md section 6,
 * "Units": the largest inner / excl of every compiled root function -- every path, every unroll
 * factor, every loop body, whether or not an instance of it ran (upstream's rootInnerUnitBytes /
 * exclusiveOutcastUnitBytes are compile-time) -- and of every instance walked (sizes that follow the
 * loop index are known only per instance)), its depths.  Per binding set: each set is its own
 * compilation. */
static void walk_sets(an_run_state *st)
{
    an_ctx *c = &st->c;
    pc_result *r = st->r;
    const pc_kernel *k = c->k;
    int64_t A = r->n_assemble;
    st->nsets = st->opts.nbinding_sets ? st->opts.nbinding_sets : 1;
    if (st->opts.nbinding_sets) {
        pc_bindings *aliased = pc_arena_alloc(c->arena, st->opts.nbinding_sets * sizeof(pc_bindings));
        for (size_t i = 0; i < st->opts.nbinding_sets; i++)
            aliased[i] = alias_param_names(c->arena, k, st->opts.binding_sets[i]);
        st->opts.binding_sets = aliased;
    }
    size_t nsets = st->nsets;
    st->sets = pc_mem_calloc(nsets, sizeof(an_set_result));
    st->depths = pc_mem_calloc(nsets, sizeof(set_depths));
    st->all_known = true;
    an_set_result *sets = st->sets;
    set_depths *depths = st->depths;
    const char **usyms;
    size_t nusyms;
    bool usyms_all;
    unit_symbols(k, c->arena, &usyms, &nusyms, &usyms_all);
    int64_t *unit_key = pc_mem_calloc(nusyms + 1, sizeof(int64_t));
    size_t nr = (size_t)(c->nroots ? c->nroots : 1);
    struct unit_entry { int64_t ui, ue; bool only_loop; } *unit_cache = pc_mem_calloc(nr, sizeof(struct unit_entry));
    st->static_inner = pc_mem_calloc(nr, sizeof(int64_t));
    st->static_excl = pc_mem_calloc(nr, sizeof(int64_t));
    for (size_t i = 0; i < nsets; i++) {
        pc_bindings set = set_bindings(st, i);
        pc_an_walk(c, &set, &sets[i]);
        an_set_result *sr = &sets[i];
        /* the units depend on the set only through the symbols of the sizes and loop begins: a
         * set that gives them the previous set's values has its units (--shapes sweeps) */
        bool same_units = i > 0 && usyms_all;
        for (size_t q = 0; q < nusyms; q++) {
            pc_expr probe = {.kind = PC_EXPR_SYM, .name = usyms[q]};
            pc_bindings bs[2] = {set, {k->constants, (size_t)k->nconstants}};
            int64_t v = 0;
            bool known = pc_expr_eval(&probe, bs, 2, &v);
            int64_t key = known ? v : INT64_MIN;
            if (unit_key[q] != key)
                same_units = false;
            unit_key[q] = key;
        }
        for (int root = 0; root < c->nroots; root++) {
            int64_t ui, ue;
            bool only_loop;
            if (same_units) {
                ui = unit_cache[root].ui;
                ue = unit_cache[root].ue;
                only_loop = unit_cache[root].only_loop;
            } else {
                pc_an_root_units(c, root, &set, &ui, &ue, &only_loop);
                unit_cache[root].ui = ui;
                unit_cache[root].ue = ue;
                unit_cache[root].only_loop = only_loop;
            }
            if (ui < 0 && !only_loop) sr->unit_inner = -1;
            else if (ui > 0 && sr->unit_inner >= 0 && ui > sr->unit_inner) sr->unit_inner = ui;
            if (ue < 0 && !only_loop) sr->unit_excl = -1;
            else if (ue > 0 && sr->unit_excl >= 0 && ue > sr->unit_excl) sr->unit_excl = ue;
            if (ui > st->static_inner[root]) st->static_inner[root] = ui;
            /* a root with root_inner bytes needs the pool, also when they are all buffers
             * upstream's lowering adds (lower.c) and no tensor of the kernel is root_inner */
            if (ui > 0)
                c->needed[PC_POOL_ROOT_INNER] = r->needed[PC_POOL_ROOT_INNER] = true;
            if (ue > st->static_excl[root]) st->static_excl[root] = ue;
        }
        if (sets[i].known || sets[i].truncated)
            task_needs(c, &sets[i], A, &depths[i]); /* truncated: what was seen, a lower bound */
        if (!sets[i].known)
            st->all_known = false;
        if (sets[i].truncated)
            record_stop(r, &sets[i], &st->opts);
        if (sets[i].ninstances > sets[st->chosen].ninstances)
            st->chosen = i;
        r->fast_forwards += sets[i].fast_forwards;
        /* keep the tasks of the sets a report can read: the one with the most instances (the
         * first of equals) and, per pool, the first to reach the largest depth */
        for (int p = 0; p < 3; p++)
            if (depths[i].pred[p] > depths[st->first_max[p]].pred[p])
                st->first_max[p] = i;
        for (size_t j = 0; j <= i; j++)
            if (!sets[j].trimmed && j != st->chosen && j != st->first_max[0] && j != st->first_max[1] &&
                j != st->first_max[2])
                pc_an_set_result_trim(&sets[j]);
    }
    pc_mem_free(unit_key);
    pc_mem_free(unit_cache);
    collect_paths(c, r, sets, nsets, set_bindings(st, 0));
}

/* The depths: per pool the largest over the sets (unknown when a set could not finish: then its
 * bound and formula), and the suggestion with the assemble headroom. */
static bool has_unmodelled_code(const pc_kernel *k)
{
    for (int s = 0; s < k->nstmts; s++)
        if (k->stmts[s].kind == PC_STMT_UNANALYSED)
            return true;
    return false;
}

static void merge_depths(an_run_state *st)
{
    an_ctx *c = &st->c;
    pc_result *r = st->r;
    const pc_kernel *k = c->k;
    r->suggestion_floor = has_unmodelled_code(k);
    for (int p = 0; p < 3; p++) {
        int64_t best = 0;
        bool unknown = false;
        for (size_t i = 0; i < st->nsets; i++) {
            if (!st->sets[i].known)
                unknown = true;
            if ((st->sets[i].known || st->sets[i].truncated) && st->depths[i].pred[p] > best)
                best = st->depths[i].pred[p];
        }
        r->required[p] = c->needed[p] ? 1 : 0;
        if (!c->needed[p]) {
            r->predicted[p] = r->bounds[p] = 0;
        } else if (unknown) {
            r->predicted[p] = -1;
            r->bounds[p] = best > c->kcap ? best : c->kcap;
            pc_bindings fsets[2] = {set_bindings(st, 0), {k->constants, (size_t)k->nconstants}};
            r->formulas[p] = depth_formula(c, (pc_pool)p, fsets, 2);
        } else {
            r->predicted[p] = r->bounds[p] = best;
        }
        int64_t base = r->predicted[p] >= 0 ? r->predicted[p] : r->bounds[p];
        if (p == PC_POOL_ASSEMBLE && c->needed[p])
            base += st->opts.assemble_headroom > 0 ? st->opts.assemble_headroom : 0;
        if (base > PC_MAX_DEPTH)
            base = PC_MAX_DEPTH;
        if (base < r->required[p])
            base = r->required[p];
        if (r->suggestion_floor && !c->needed[p])
            base = r->configured[p] > PC_MAX_DEPTH ? PC_MAX_DEPTH : r->configured[p];
        r->suggested[p] = base;
    }
}

/* The units (largest over the sets) and every tensor's pool, bytes, root and unknown symbols. */
static void merge_units_and_tensors(an_run_state *st)
{
    an_ctx *c = &st->c;
    pc_result *r = st->r;
    const pc_kernel *k = c->k;
    const an_set_result *sets = st->sets;
    size_t nsets = st->nsets;
    r->unit_inner = r->unit_excl = 0;
    for (size_t i = 0; i < nsets; i++) {
        if ((!sets[i].known && !sets[i].truncated) || sets[i].unit_inner < 0 || r->unit_inner < 0) r->unit_inner = -1;
        else if (sets[i].unit_inner > r->unit_inner) r->unit_inner = sets[i].unit_inner;
        if ((!sets[i].known && !sets[i].truncated) || sets[i].unit_excl < 0 || r->unit_excl < 0) r->unit_excl = -1;
        else if (sets[i].unit_excl > r->unit_excl) r->unit_excl = sets[i].unit_excl;
    }
    /* A pool no tensor of the kernel uses (and, for root_inner, no buffer upstream's lowering adds)
     * costs 0 bytes per instance whatever the walk could not count: a kernel that needs no pool
     * needs no workspace, not an unknown one. */
    bool lowered_any = false;
    for (int i = 0; i < c->nroots && !lowered_any; i++)
        lowered_any = c->root_lowered[i] != 0;
    if (!c->needed[PC_POOL_ROOT_INNER] && !lowered_any)
        r->unit_inner = 0;
    if (!c->needed[PC_POOL_EXCLUSIVE])
        r->unit_excl = 0;
    r->ntensors = k->ntensors;
    r->tensors = pc_arena_alloc(c->arena, (size_t)(k->ntensors ? k->ntensors : 1) * sizeof(pc_tensor_result));
    /* Bindings for sizes outside the walk: loop factor variables at their largest factor. */
    pc_binding *factor_b = pc_mem_calloc((size_t)(k->nloops ? k->nloops : 1), sizeof(pc_binding));
    size_t nfb = 0;
    for (int l = 0; l < k->nloops; l++)
        if (k->loops[l].factor_var && *k->loops[l].factor_var) {
            factor_b[nfb].name = k->loops[l].factor_var;
            factor_b[nfb].value = c->loop_factors[l][0];
            nfb++;
        }
    int64_t slot = 0;
    bool slot_unknown = false;
    for (int t = 0; t < k->ntensors; t++) {
        pc_tensor_result *tr = &r->tensors[t];
        tr->tensor = t;
        tr->pool = c->pool[t];
        tr->reason = c->reason[t];
        tr->root = -1;
        int64_t bytes = -1;
        bool unknown = false;
        for (size_t i = 0; i < nsets; i++) {
            int64_t b = sets[i].tensor_bytes[t];
            if (b < 0) {
                pc_bindings bs[3] = {{factor_b, nfb}, set_bindings(st, i),
                                     {k->constants, (size_t)k->nconstants}};
                b = pc_an_tensor_bytes(c, t, bs, 3);
            }
            if (b < 0)
                unknown = true;
            else if (b > bytes)
                bytes = b;
        }
        tr->bytes = unknown ? -1 : bytes;
        tr->aligned_bytes = tr->bytes < 0 ? -1 : pc_align_up(tr->bytes, 512);
        pc_an_tiles_tensor_result(c, r, t, (pc_bindings[3]){{factor_b, nfb}, set_bindings(st, 0), {k->constants, (size_t)k->nconstants}}, 3);
        const pc_tensor *T = &k->tensors[t];
        if (T->def_stmt >= 0 && T->def_stmt < k->nstmts && c->stmt_run[T->def_stmt] >= 0)
            tr->root = c->root_of_run_factor[c->stmt_run[T->def_stmt]];
        if (tr->pool == PC_POOL_EXCLUSIVE || tr->pool == PC_POOL_ASSEMBLE) {
            if (tr->aligned_bytes < 0)
                slot_unknown = true;
            else if (tr->aligned_bytes > slot)
                slot = tr->aligned_bytes;
        }
        /* symbols a user can bind to make this tensor's size known */
        if (tr->pool != PC_POOL_NONE && unknown && T->shape)
            for (int d = 0; d < T->ndims; d++) {
                const char *names[16];
                size_t n = pc_expr_symbols(T->shape[d], names, 0, 16);
                for (size_t j = 0; j < n; j++) {
                    int64_t v;
                    pc_expr probe = {.kind = PC_EXPR_SYM, .name = names[j]};
                    pc_bindings bs[2] = {set_bindings(st, 0), {k->constants, (size_t)k->nconstants}};
                    if (!is_loop_var(k, names[j]) && !pc_expr_eval(&probe, bs, 2, &v))
                        add_name(c->arena, &r->unknowns, &r->nunknowns, names[j]);
                }
            }
    }
    pc_mem_free(factor_b);
    r->slot_size = slot_unknown ? -1 : slot;
}

/* Instances, DeviceTasks and the "why" of each depth, from the set with the most instances; every
 * unbound symbol the counts depend on. */
static void instances_and_tasks(an_run_state *st)
{
    an_ctx *c = &st->c;
    pc_result *r = st->r;
    const pc_kernel *k = c->k;
    pc_arena *arena = c->arena;
    an_set_result *sets = st->sets;
    size_t nsets = st->nsets;
    bool all_known = st->all_known;
    an_set_result *cs = &sets[st->chosen];
    /* The walk stops at the first trip count it cannot know, so it saw only that loop's symbols;
     * every other unbound symbol of a loop's range matters to the counts too: name them all at
     * once (a user binds them in one run, not one per run). */
    for (size_t i = 0; i < nsets; i++) {
        if (sets[i].known || sets[i].nunknowns == 0)
            continue;
        pc_bindings bs[2] = {set_bindings(st, i), {k->constants, (size_t)k->nconstants}};
        for (int l = 0; l < k->nloops; l++) {
            const pc_expr *ends[3] = {k->loops[l].begin, k->loops[l].end, k->loops[l].step};
            for (int e = 0; e < 3; e++) {
                const char *names[16];
                size_t n = ends[e] ? pc_expr_symbols(ends[e], names, 0, 16) : 0;
                for (size_t j = 0; j < n; j++) {
                    int64_t v;
                    pc_expr probe = {.kind = PC_EXPR_SYM, .name = names[j]};
                    if (!is_loop_var(k, names[j]) && !pc_expr_eval(&probe, bs, 2, &v))
                        add_name(arena, &r->unknowns, &r->nunknowns, names[j]);
                }
            }
        }
    }
    for (size_t i = 0; i < nsets; i++)
        for (int u = 0; u < sets[i].nunknowns; u++)
            if (!is_loop_var(k, sets[i].unknowns[u]))
                add_name(arena, &r->unknowns, &r->nunknowns, sets[i].unknowns[u]);
    r->instances = all_known ? cs->ninstances : -1;
    r->device_tasks = all_known ? cs->nvtasks : -1;
    if (all_known) {
        /* every DeviceTask, when they are few enough to list: walked ones and repeated ones */
        if (!cs->vtasks_dropped) {
            r->ntasks = (int64_t)cs->vtasks.count;
            r->tasks = pc_arena_alloc(arena, (cs->vtasks.count ? cs->vtasks.count : 1) * sizeof(pc_task));
            for (size_t v = 0; v < cs->vtasks.count; v++) {
                const an_vtask *vt = &cs->vtasks.items[v];
                r->tasks[v] = cs->tasks.items[vt->task];
                r->tasks[v].first += vt->shift;
                r->tasks[v].last += vt->shift;
            }
        }
        if (cs->instance_roots.count == (size_t)cs->ninstances && cs->ninstances > 0) {
            r->ninstances = cs->ninstances;
            r->instance_roots = pc_arena_alloc(arena, cs->instance_roots.count * sizeof(int32_t));
            memcpy(r->instance_roots, cs->instance_roots.items, cs->instance_roots.count * sizeof(int32_t));
        }
        for (int p = 0; p < 3; p++) {
            /* the set that sets the maximum for this pool */
            size_t best = st->chosen;
            for (size_t i = 0; i < nsets; i++)
                if (st->depths[i].pred[p] > st->depths[best].pred[p])
                    best = i;
            fill_why(c, r, &sets[best], p, st->depths[best].arg_task[p]);
        }
        /* assemble allocations that live across DeviceTasks (PC011) */
        for (size_t a = 0; a < cs->alloc_start.count; a++) {
            int64_t first_vt = cs->alloc_start_vt.items[a];
            int64_t last_vt = cs->alloc_whole_launch.items[a] ? cs->nvtasks - 1 : cs->alloc_last_vt.items[a];
            /* some DeviceTask starts after its first use and at or before its last: they are in
             * different tasks (allocations are made and used only in walked tasks) */
            bool crosses = last_vt > first_vt;
            int tid = cs->alloc_tensor.items[a];
            bool dup = false;
            for (int i = 0; i < r->ncross_task_assemble; i++)
                dup |= r->cross_task_assemble[i] == tid;
            if (crosses && !dup) {
                r->cross_task_assemble = pc_arena_grow(arena, r->cross_task_assemble,
                                                       (size_t)r->ncross_task_assemble,
                                                       (size_t)r->ncross_task_assemble + 1, sizeof(int));
                r->cross_task_assemble[r->ncross_task_assemble++] = tid;
            }
        }
        for (size_t t = 0; t < cs->tasks.count; t++)
            if (cs->task_assemble_live[t] > r->assemble_live_max)
                r->assemble_live_max = cs->task_assemble_live[t];
    } else {
        for (int p = 0; p < 3; p++)
            r->why[p].task = -1;
    }

    /* a buffer upstream's lowering adds that lower.c could not size (PC015 says so) */
    if (c->lowering.why) {
        r->lowering_unknown_why = pc_arena_strdup(arena, c->lowering.why);
        r->lowering_unknown_loc = c->lowering.loc;
    }
}

/* Each root function: its instances and its bytes over the sets (every path as compiled). */
static void roots_result(an_run_state *st)
{
    an_ctx *c = &st->c;
    pc_result *r = st->r;
    const pc_kernel *k = c->k;
    r->nroots = c->nroots;
    r->roots = pc_arena_alloc(c->arena, (size_t)(c->nroots ? c->nroots : 1) * sizeof(pc_root_result));
    for (int i = 0; i < c->nroots; i++) {
        pc_root_result *rr = &r->roots[i];
        const an_run *run = &c->runs[c->roots[i].run];
        rr->name = c->roots[i].name;
        rr->loop = run->loop;
        rr->unroll_factor = c->roots[i].factor;
        rr->instances = st->all_known ? st->sets[st->chosen].root_instances[i] : -1;
        rr->inner_bytes = rr->excl_bytes = 0;
        for (size_t s = 0; s < st->nsets; s++) {
            const an_set_result *set = &st->sets[s];
            if (set->root_inner[i] < 0 || rr->inner_bytes < 0) rr->inner_bytes = -1;
            else if (set->root_inner[i] > rr->inner_bytes) rr->inner_bytes = set->root_inner[i];
            if (set->root_excl[i] < 0 || rr->excl_bytes < 0) rr->excl_bytes = -1;
            else if (set->root_excl[i] > rr->excl_bytes) rr->excl_bytes = set->root_excl[i];
        }
        /* every path of the root, as compiled (also for a root that never ran) */
        if (rr->inner_bytes >= 0 && st->static_inner[i] > rr->inner_bytes) rr->inner_bytes = st->static_inner[i];
        if (rr->excl_bytes >= 0 && st->static_excl[i] > rr->excl_bytes) rr->excl_bytes = st->static_excl[i];
        rr->lowered_bytes = c->root_lowered[i];
        unsigned kinds = c->root_lowered_kinds[i];
        rr->lowered_what = !rr->lowered_bytes ? NULL
                         : kinds == (LOW_COPIES | LOW_REDUCTION) ? "FP32 copies of FP16 / BF16 operands and a reduction's halves"
                         : kinds == LOW_REDUCTION ? "the halves of a reduction over four or more vector tiles"
                                                  : "FP32 copies of FP16 / BF16 operands";
        rr->loc = run->loop >= 0 ? k->loops[run->loop].loc
                                 : (run->nstmts ? k->stmts[run->stmts[0]].loc : k->loc);
    }

}

pc_result *pc_analyze(const pc_model *m, int kernel, const pc_runtime_config *cfg, const pc_analysis_opts *in_opts)
{
    an_run_state st;
    memset(&st, 0, sizeof st);
    if (in_opts)
        st.opts = *in_opts;
    else
        pc_an_default_opts(&st.opts);
    pc_runtime_config defaults;
    if (!cfg) {
        pc_cfg_defaults(&defaults);
        cfg = &defaults;
    }
    setup(&st, m, kernel, cfg);
    walk_sets(&st);
    merge_depths(&st);
    merge_units_and_tensors(&st);
    instances_and_tasks(&st);
    roots_result(&st);

    /* the workspace bytes at each triple */
    pc_result *r = st.r;
    int64_t kd[3] = {st.c.kcap, st.c.kcap, st.c.kcap};
    r->ws_predicted = pc_workspace_bytes(r, r->predicted, r->parallelism);
    r->ws_suggested = pc_workspace_bytes(r, r->suggested, r->parallelism);
    r->ws_required = pc_workspace_bytes(r, r->required, r->parallelism);
    r->ws_default = pc_workspace_bytes(r, kd, r->parallelism);
    r->ws_configured = pc_workspace_bytes(r, r->configured, r->parallelism);

    pc_mem_free(st.static_inner);
    pc_mem_free(st.static_excl);
    for (size_t i = 0; i < st.nsets; i++)
        pc_an_set_result_free(&st.sets[i]);
    pc_mem_free(st.sets);
    pc_mem_free(st.depths);
    return r;
}
