/* roots.c - statement runs, root functions and textual positions (spec docs/model.md section 3).
 *
 * A root function is a maximal run of non-loop statements directly inside one block (a loop body
 * or the kernel body).  A loop with an unroll list has one root per factor, named like upstream's
 * `<loop>_LoopUnroll<p>`; the factors run largest first with 1 always added (upstream lowers
 * loop_unroll into one pypto.loop per factor in that order). */
#include "analysis_int.h"

#include <stdlib.h>
#include <string.h>

typedef PC_VEC(int) int_vec;
typedef PC_VEC(an_item) item_vec;

typedef struct builder {
    an_ctx *c;
    int pos;
    PC_VEC(an_run) runs;
} builder;

static bool stmt_has_loop(const pc_kernel *k, int s);

static bool block_has_loop(const pc_kernel *k, const pc_block *b)
{
    for (int i = 0; i < b->count; i++)
        if (stmt_has_loop(k, b->stmts[i]))
            return true;
    return false;
}

static bool stmt_has_loop(const pc_kernel *k, int s)
{
    const pc_stmt *st = &k->stmts[s];
    switch (st->kind) {
    case PC_STMT_LOOP: return true;
    case PC_STMT_IF:
        for (int b = 0; b < st->nbranches; b++)
            if (block_has_loop(k, &st->branches[b].body))
                return true;
        return false;
    case PC_STMT_UNROLL: return block_has_loop(k, &st->unroll_body);
    default: return false;
    }
}

static bool valid_stmt(const pc_kernel *k, int s) { return s >= 0 && s < k->nstmts; }

/* Preorder positions, innermost loop and UNROLL factor of every statement. */
static void number_block(builder *b, const pc_block *blk, int loop, int64_t unroll, int depth)
{
    an_ctx *c = b->c;
    const pc_kernel *k = c->k;
    if (depth > 256)
        return; /* a model this deep is corrupt; positions stay 0 */
    for (int i = 0; i < blk->count; i++) {
        int s = blk->stmts[i];
        if (!valid_stmt(k, s))
            continue;
        const pc_stmt *st = &k->stmts[s];
        c->stmt_pos[s] = ++b->pos;
        c->stmt_loop[s] = loop;
        c->stmt_unroll[s] = (int)unroll;
        if (st->kind == PC_STMT_LOOP && st->loop >= 0 && st->loop < k->nloops)
            number_block(b, &k->loops[st->loop].body, st->loop, 0, depth + 1);
        else if (st->kind == PC_STMT_IF)
            for (int br = 0; br < st->nbranches; br++)
                number_block(b, &st->branches[br].body, loop, unroll, depth + 1);
        else if (st->kind == PC_STMT_UNROLL)
            number_block(b, &st->unroll_body, loop, st->unroll_factor, depth + 1);
        c->stmt_end[s] = b->pos;
    }
}

static void mark_run(an_ctx *c, int s, int run, int depth)
{
    const pc_kernel *k = c->k;
    if (!valid_stmt(k, s) || depth > 256)
        return;
    c->stmt_run[s] = run;
    const pc_stmt *st = &k->stmts[s];
    if (st->kind == PC_STMT_IF)
        for (int br = 0; br < st->nbranches; br++)
            for (int i = 0; i < st->branches[br].body.count; i++)
                mark_run(c, st->branches[br].body.stmts[i], run, depth + 1);
    if (st->kind == PC_STMT_UNROLL)
        for (int i = 0; i < st->unroll_body.count; i++)
            mark_run(c, st->unroll_body.stmts[i], run, depth + 1);
}

static void build_block(builder *b, const pc_block *blk, int loop, an_body *out, int depth);

static void flush_run(builder *b, int_vec *pending, int loop, int *ordinal, item_vec *items)
{
    if (!pending->count)
        return;
    an_ctx *c = b->c;
    an_run r = {0};
    r.loop = loop;
    r.ordinal = ++*ordinal;
    r.nstmts = (int)pending->count;
    r.stmts = pc_arena_alloc(c->arena, pending->count * sizeof(int));
    memcpy(r.stmts, pending->items, pending->count * sizeof(int));
    int idx = (int)b->runs.count;
    for (int i = 0; i < r.nstmts; i++)
        mark_run(c, r.stmts[i], idx, 0);
    PC_VEC_PUSH(b->runs, r);
    an_item it = {false, idx};
    PC_VEC_PUSH(*items, it);
    pending->count = 0;
}

static void build_block(builder *b, const pc_block *blk, int loop, an_body *out, int depth)
{
    an_ctx *c = b->c;
    const pc_kernel *k = c->k;
    int_vec pending = {0};
    item_vec items = {0};
    int ordinal = 0;
    for (int i = 0; i < blk->count && depth <= 256; i++) {
        int s = blk->stmts[i];
        if (!valid_stmt(k, s))
            continue;
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_LOOP && st->loop >= 0 && st->loop < k->nloops) {
            flush_run(b, &pending, loop, &ordinal, &items);
            an_item it = {true, st->loop};
            PC_VEC_PUSH(items, it);
            build_block(b, &k->loops[st->loop].body, st->loop, &c->loop_bodies[st->loop], depth + 1);
        } else if (stmt_has_loop(k, s)) {
            /* An IF / UNROLL that contains loops cannot be part of a straight-line root: it is
             * walked as control flow (see walk.c), its branches as blocks of their own.  Encoded
             * as a loop item with a negative index: -(stmt + 1). */
            flush_run(b, &pending, loop, &ordinal, &items);
            an_item it = {true, -(s + 1)};
            PC_VEC_PUSH(items, it);
            int nb = st->kind == PC_STMT_IF ? st->nbranches : 1;
            c->stmt_bodies[s] = pc_arena_alloc(c->arena, (size_t)(nb ? nb : 1) * sizeof(an_body));
            if (st->kind == PC_STMT_IF)
                for (int br = 0; br < st->nbranches; br++)
                    build_block(b, &st->branches[br].body, loop, &c->stmt_bodies[s][br], depth + 1);
            else
                build_block(b, &st->unroll_body, loop, &c->stmt_bodies[s][0], depth + 1);
        } else {
            PC_VEC_PUSH(pending, s);
        }
    }
    flush_run(b, &pending, loop, &ordinal, &items);
    out->nitems = (int)items.count;
    out->items = pc_arena_alloc(c->arena, (items.count ? items.count : 1) * sizeof(an_item));
    if (items.count)
        memcpy(out->items, items.items, items.count * sizeof(an_item));
    PC_VEC_FREE(pending);
    PC_VEC_FREE(items);
}

static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void loop_factors(an_ctx *c, int l)
{
    const pc_loop *lp = &c->k->loops[l];
    int n = 0;
    int64_t *f = pc_arena_alloc(c->arena, (size_t)(lp->nunroll + 1) * sizeof(int64_t));
    for (int i = 0; i < lp->nunroll; i++)
        if (lp->unroll[i] >= 1)
            f[n++] = lp->unroll[i];
    qsort(f, (size_t)n, sizeof *f, cmp_desc);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || f[m - 1] != f[i])
            f[m++] = f[i];
    if (m == 0 || f[m - 1] != 1)
        f[m++] = 1;
    c->loop_factors[l] = f;
    c->loop_nfactors[l] = m;
}

bool pc_an_branch_is_else(const pc_stmt *st, int b)
{
    return b > 0 && b == st->nbranches - 1 && !st->branches[b].cond && !st->branches[b].cond_text;
}

bool pc_an_access_is_op(const pc_kernel *k, const pc_access *a)
{
    if (a->tensor < 0 || a->tensor >= k->ntensors)
        return false;
    switch (a->kind) {
    case PC_ACC_WRITE_WHOLE:
    case PC_ACC_WRITE_ASSEMBLE:
    case PC_ACC_WRITE_ELEMENT:
        return true;
    case PC_ACC_DEFINE:
        /* creating a tensor or a view allocates nothing by itself */
        return k->tensors[a->tensor].kind == PC_TENSOR_VALUE;
    case PC_ACC_READ:
        return a->unit != PC_UNIT_NONE;
    }
    return false;
}

static bool stmt_is_op_for(const an_ctx *c, int s, int64_t factor, int depth)
{
    const pc_kernel *k = c->k;
    if (!valid_stmt(k, s))
        return false;
    if (depth >= AN_MAX_NEST)
        return true; /* past the walk's nesting limit: kept, so the walk reaches it and PC012 names it */
    const pc_stmt *st = &k->stmts[s];
    switch (st->kind) {
    case PC_STMT_OP:
        if (!st->has_op)
            return false;
        for (int i = 0; i < st->naccesses; i++)
            if (pc_an_access_is_op(k, &st->accesses[i]))
                return true;
        return false;
    case PC_STMT_IF:
        for (int br = 0; br < st->nbranches; br++) {
            if (st->branches[br].decided == 0)
                continue;
            for (int i = 0; i < st->branches[br].body.count; i++)
                if (stmt_is_op_for(c, st->branches[br].body.stmts[i], factor, depth + 1))
                    return true;
        }
        return false;
    case PC_STMT_UNROLL:
        if (factor && st->unroll_factor != factor)
            return false;
        for (int i = 0; i < st->unroll_body.count; i++)
            if (stmt_is_op_for(c, st->unroll_body.stmts[i], factor, depth + 1))
                return true;
        return false;
    default:
        return false;
    }
}

bool pc_an_stmt_is_op(const an_ctx *c, int s) { return stmt_is_op_for(c, s, 0, 0); }

int pc_an_root_for(const an_ctx *c, int run, int64_t factor)
{
    int first = c->root_of_run_factor[run];
    for (int r = first; r < c->nroots && c->roots[r].run == run; r++)
        if (c->roots[r].factor == factor)
            return r;
    return first;
}

void pc_an_build_roots(an_ctx *c)
{
    const pc_kernel *k = c->k;
    size_t ns = (size_t)(k->nstmts ? k->nstmts : 1);
    c->stmt_run = pc_arena_alloc(c->arena, ns * sizeof(int));
    c->stmt_pos = pc_arena_alloc(c->arena, ns * sizeof(int));
    c->stmt_end = pc_arena_alloc(c->arena, ns * sizeof(int));
    c->stmt_loop = pc_arena_alloc(c->arena, ns * sizeof(int));
    c->stmt_unroll = pc_arena_alloc(c->arena, ns * sizeof(int));
    c->stmt_bodies = pc_arena_alloc(c->arena, ns * sizeof(an_body *));
    for (int s = 0; s < k->nstmts; s++) {
        c->stmt_run[s] = -1;
        c->stmt_loop[s] = -1;
    }
    size_t nl = (size_t)(k->nloops ? k->nloops : 1);
    c->loop_bodies = pc_arena_alloc(c->arena, nl * sizeof(an_body));
    c->loop_factors = pc_arena_alloc(c->arena, nl * sizeof(int64_t *));
    c->loop_nfactors = pc_arena_alloc(c->arena, nl * sizeof(int));
    c->loop_rule = pc_arena_alloc(c->arena, nl * sizeof(pc_unroll_rule));
    for (int l = 0; l < k->nloops; l++) {
        loop_factors(c, l);
        /* model.md section 3, "Unroll": Python loop_unroll runs one loop per factor, C++ unroll
         * sets count greedily; a frontend that does not say takes its language's rule */
        pc_unroll_rule rule = k->loops[l].unroll_rule;
        if (rule != PC_UNROLL_RULE_PER_FACTOR && rule != PC_UNROLL_RULE_GREEDY)
            rule = c->model && c->model->lang == PC_LANG_PYTHON ? PC_UNROLL_RULE_PER_FACTOR : PC_UNROLL_RULE_GREEDY;
        c->loop_rule[l] = rule;
    }

    builder b = {.c = c};
    number_block(&b, &k->body, -1, 0, 0);
    build_block(&b, &k->body, -1, &c->kernel_body, 0);

    c->nruns = (int)b.runs.count;
    c->runs = pc_arena_alloc(c->arena, (b.runs.count ? b.runs.count : 1) * sizeof(an_run));
    if (b.runs.count)
        memcpy(c->runs, b.runs.items, b.runs.count * sizeof(an_run));
    PC_VEC_FREE(b.runs);

    /* roots: one per (run, factor) */
    PC_VEC(an_root) roots = {0};
    c->root_of_run_factor = pc_arena_alloc(c->arena, (size_t)(c->nruns ? c->nruns : 1) * sizeof(int));
    for (int r = 0; r < c->nruns; r++) {
        an_run *run = &c->runs[r];
        for (int i = 0; i < run->nstmts; i++)
            if (pc_an_stmt_is_op(c, run->stmts[i]))
                run->has_op = true;
        c->root_of_run_factor[r] = (int)roots.count;
        const char *base = run->loop >= 0 ? k->loops[run->loop].name : k->name;
        if (!base || !*base)
            base = run->loop >= 0 ? "loop" : "kernel";
        int nf = run->loop >= 0 ? c->loop_nfactors[run->loop] : 1;
        for (int f = 0; f < nf; f++) {
            an_root root = {0};
            root.run = r;
            root.factor = run->loop >= 0 ? c->loop_factors[run->loop][f] : 1;
            const char *suffix = run->ordinal > 1 ? pc_arena_printf(c->arena, ".%d", run->ordinal) : "";
            if (nf > 1)
                root.name = pc_arena_printf(c->arena, "%s_LoopUnroll%lld%s", base, (long long)root.factor, suffix);
            else
                root.name = pc_arena_printf(c->arena, "%s%s", base, suffix);
            PC_VEC_PUSH(roots, root);
        }
    }
    c->nroots = (int)roots.count;
    c->roots = pc_arena_alloc(c->arena, (roots.count ? roots.count : 1) * sizeof(an_root));
    if (roots.count)
        memcpy(c->roots, roots.items, roots.count * sizeof(an_root));
    PC_VEC_FREE(roots);
}
