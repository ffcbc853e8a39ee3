/* classify.c - which pool each tensor uses (spec docs/model.md section 4).
 *
 * Mirrors upstream's encode-time classification (DevAscendFunction::InitRawTensorAndMemoryRequirement
 * and MarkOutcastSlotsFromEncodeList): parameters and aliases take no workspace; a slot written by
 * an assemble is an assemble slot; any other value that crosses a root boundary is an exclusive
 * outcast; what stays inside one root and goes through global memory is root_inner. */
#include "analysis_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct tinfo {
    bool written, assembled, whole, read;
    int first_run;           /* first run that touches it */
    bool multi_run;          /* touched by more than one run */
    int first_writer;        /* first run that writes it */
    bool multi_writer;
    pc_unit def_unit;        /* unit of the op that defines / writes it whole */
    bool read_by_cube, read_by_vector;
    bool written_by_cube, written_by_vector;
} tinfo;

static int resolve_base(const pc_kernel *k, int t)
{
    for (int hops = 0; hops < 64 && t >= 0 && t < k->ntensors; hops++) {
        const pc_tensor *x = &k->tensors[t];
        if (x->kind != PC_TENSOR_VIEW || x->base < 0 || x->base >= k->ntensors || x->base == t)
            return t;
        t = x->base;
    }
    return t;
}

static void touch(tinfo *ti, int run)
{
    if (run < 0)
        return;
    if (ti->first_run < 0)
        ti->first_run = run;
    else if (ti->first_run != run)
        ti->multi_run = true;
}

static void gather(an_ctx *c, tinfo *info)
{
    const pc_kernel *k = c->k;
    for (int s = 0; s < k->nstmts; s++) {
        const pc_stmt *st = &k->stmts[s];
        if (st->kind != PC_STMT_OP)
            continue;
        int run = c->stmt_run[s];
        for (int i = 0; i < st->naccesses; i++) {
            const pc_access *a = &st->accesses[i];
            if (a->tensor < 0 || a->tensor >= k->ntensors)
                continue;
            /* A view's own definition is not a use of its base. */
            if (a->kind == PC_ACC_DEFINE && k->tensors[a->tensor].kind == PC_TENSOR_VIEW)
                continue;
            int t = c->base[a->tensor];
            tinfo *ti = &info[t];
            touch(ti, run);
            if (a->kind == PC_ACC_READ) {
                ti->read = true;
                if (a->unit == PC_UNIT_CUBE) ti->read_by_cube = true;
                if (a->unit == PC_UNIT_VECTOR) ti->read_by_vector = true;
                continue;
            }
            if (a->kind == PC_ACC_DEFINE && k->tensors[t].kind == PC_TENSOR_CREATED)
                continue; /* pypto.tensor(...) / Tensor t(...): a declaration, not a write */
            ti->written = true;
            if (run >= 0) {
                if (ti->first_writer < 0)
                    ti->first_writer = run;
                else if (ti->first_writer != run)
                    ti->multi_writer = true;
            }
            if (a->kind == PC_ACC_WRITE_ASSEMBLE || a->kind == PC_ACC_WRITE_ELEMENT) {
                ti->assembled = true;
            } else {
                ti->whole = true;
                if (a->unit != PC_UNIT_NONE)
                    ti->def_unit = a->unit;
            }
            if (a->unit == PC_UNIT_CUBE) ti->written_by_cube = true;
            if (a->unit == PC_UNIT_VECTOR) ti->written_by_vector = true;
        }
    }
}

/* Is statement position p inside loop l's body? */
static bool in_loop(const an_ctx *c, int l, int pos)
{
    const pc_loop *lp = &c->k->loops[l];
    if (lp->stmt < 0 || lp->stmt >= c->k->nstmts)
        return false;
    return pos > c->stmt_pos[lp->stmt] && pos <= c->stmt_end[lp->stmt];
}

static int def_pos(const an_ctx *c, int t)
{
    int s = c->k->tensors[t].def_stmt;
    return s >= 0 && s < c->k->nstmts ? c->stmt_pos[s] : 0;
}

/* A value defined in a loop body whose variable is read earlier in the same body, where that read
 * still sees a definition from outside the loop, is read again by the next iteration: upstream
 * keeps it in an exclusive slot with one new block per iteration (docs/model.md section 4).
 *
 * Answered from an index built once per kernel, so that a kernel of 20,000 statements is not
 * quadratic: tensors grouped by variable name; per tensor the position of the next definition of
 * its variable; per variable its reads (position, tensor read); per (variable, loop) the first
 * read inside the loop that sees a definition from outside it, computed once. */
typedef struct carried_read { int pos, tensor; } carried_read;
typedef struct carried_memo { int loop, first; } carried_memo;
typedef struct carried_index {
    int *var;                   /* tensor -> variable id (-1: anonymous) */
    int *next_def;              /* tensor -> position of the next definition of its variable, or -1 */
    int *read_start;            /* variable -> its reads: reads[read_start[v] .. read_start[v + 1]) */
    carried_read *reads;
    PC_VEC(carried_memo) *memo; /* variable -> (loop, first outside-seeing read) pairs */
    int nvars;
} carried_index;

typedef struct var_key { const char *name; int tensor; } var_key;

static int by_variable(const void *a, const void *b)
{
    const var_key *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->tensor > y->tensor) - (x->tensor < y->tensor);
}

/* The variable (ix->var) that access i of statement st reads, -1 when it is not an op's read of a
 * tensor in range that has a variable; *base is the base tensor read. */
static int read_variable(const an_ctx *c, const carried_index *ix, const pc_stmt *st, int i, int *base)
{
    const pc_access *a = &st->accesses[i];
    if (st->kind != PC_STMT_OP || a->kind != PC_ACC_READ || a->tensor < 0 || a->tensor >= c->k->ntensors)
        return -1;
    *base = c->base[a->tensor];
    return ix->var[*base];
}

static void carried_index_build(const an_ctx *c, carried_index *ix)
{
    const pc_kernel *k = c->k;
    size_t nt = (size_t)(k->ntensors ? k->ntensors : 1);
    ix->var = pc_mem_alloc(nt * sizeof(int));
    ix->next_def = pc_mem_alloc(nt * sizeof(int));
    var_key *keys = pc_mem_alloc(nt * sizeof(var_key));
    int nk = 0;
    for (int t = 0; t < k->ntensors; t++) {
        ix->var[t] = -1;
        ix->next_def[t] = -1;
        if (k->tensors[t].variable && *k->tensors[t].variable)
            keys[nk++] = (var_key){k->tensors[t].variable, t};
    }
    qsort(keys, (size_t)nk, sizeof *keys, by_variable);
    int nv = 0;
    for (int i = 0; i < nk; i++) {
        if (i > 0 && strcmp(keys[i].name, keys[i - 1].name) != 0)
            nv++;
        ix->var[keys[i].tensor] = nv;
    }
    ix->nvars = nk ? nv + 1 : 0;
    /* next definition: per variable, definitions in position order */
    for (int i = 0; i < nk;) {
        int j = i;
        while (j < nk && ix->var[keys[j].tensor] == ix->var[keys[i].tensor])
            j++;
        /* sort this group by definition position (insertion sort: groups are small; a large group
         * is already in id order, which is definition order for frontends that number in order) */
        for (int a = i + 1; a < j; a++) {
            var_key key = keys[a];
            int b = a - 1;
            while (b >= i && def_pos(c, keys[b].tensor) > def_pos(c, key.tensor)) {
                keys[b + 1] = keys[b];
                b--;
            }
            keys[b + 1] = key;
        }
        for (int a = i; a < j; a++) {
            int pa = def_pos(c, keys[a].tensor);
            for (int b = a + 1; b < j; b++) {
                int pb = def_pos(c, keys[b].tensor);
                if (pb > pa) {
                    ix->next_def[keys[a].tensor] = pb;
                    break;
                }
            }
        }
        i = j;
    }
    pc_mem_free(keys);
    /* reads per variable, in position order (statements are walked in position order below) */
    int nvs = ix->nvars ? ix->nvars : 1;
    ix->read_start = pc_mem_calloc((size_t)nvs + 1, sizeof(int));
    size_t nreads = 0;
    for (int s = 0; s < k->nstmts; s++)
        for (int i = 0; i < k->stmts[s].naccesses; i++) {
            int x = -1, v = read_variable(c, ix, &k->stmts[s], i, &x);
            if (v >= 0) {
                ix->read_start[v + 1]++;
                nreads++;
            }
        }
    for (int v = 0; v < nvs; v++)
        ix->read_start[v + 1] += ix->read_start[v];
    ix->reads = pc_mem_alloc((nreads ? nreads : 1) * sizeof(carried_read));
    int *fill = pc_mem_alloc((size_t)nvs * sizeof(int));
    memcpy(fill, ix->read_start, (size_t)nvs * sizeof(int));
    for (int s = 0; s < k->nstmts; s++)
        for (int i = 0; i < k->stmts[s].naccesses; i++) {
            int x = -1, v = read_variable(c, ix, &k->stmts[s], i, &x);
            if (v >= 0)
                ix->reads[fill[v]++] = (carried_read){c->stmt_pos[s], x};
        }
    pc_mem_free(fill);
    ix->memo = pc_mem_calloc((size_t)nvs, sizeof *ix->memo);
}

static void carried_index_free(carried_index *ix)
{
    for (int v = 0; v < ix->nvars; v++)
        PC_VEC_FREE(ix->memo[v]);
    pc_mem_free(ix->memo);
    pc_mem_free(ix->reads);
    pc_mem_free(ix->read_start);
    pc_mem_free(ix->next_def);
    pc_mem_free(ix->var);
}

/* The first position inside loop l of a read of variable v that sees a definition from outside
 * the loop (INT_MAX when none). */
static int first_outside_read(const an_ctx *c, carried_index *ix, int v, int l)
{
    for (size_t i = 0; i < ix->memo[v].count; i++)
        if (ix->memo[v].items[i].loop == l)
            return ix->memo[v].items[i].first;
    int first = INT_MAX;
    for (int i = ix->read_start[v]; i < ix->read_start[v + 1]; i++) {
        const carried_read *r = &ix->reads[i];
        if (r->pos >= first || !in_loop(c, l, r->pos))
            continue;
        int xs = c->k->tensors[r->tensor].def_stmt;
        if (xs < 0 || xs >= c->k->nstmts || !in_loop(c, l, c->stmt_pos[xs]))
            first = r->pos;
    }
    PC_VEC_PUSH(ix->memo[v], ((carried_memo){l, first}));
    return first;
}

static bool is_loop_carried(const an_ctx *c, carried_index *ix, int t)
{
    const pc_kernel *k = c->k;
    const pc_tensor *T = &k->tensors[t];
    if (!T->variable || !*T->variable || T->def_stmt < 0 || T->def_stmt >= k->nstmts || ix->var[t] < 0)
        return false;
    int tpos = def_pos(c, t);
    for (int l = c->stmt_loop[T->def_stmt]; l >= 0 && l < k->nloops; l = k->loops[l].parent) {
        /* T must be the last definition of the variable in this loop body */
        if (ix->next_def[t] >= 0 && in_loop(c, l, ix->next_def[t]))
            continue;
        /* a read of the variable earlier in the body (at or before T's definition) that sees a
         * definition from outside the loop; a read of T itself is inside, so never counts */
        if (first_outside_read(c, ix, ix->var[t], l) <= tpos)
            return true;
    }
    return false;
}

void pc_an_classify(an_ctx *c)
{
    const pc_kernel *k = c->k;
    size_t nt = (size_t)(k->ntensors ? k->ntensors : 1);
    c->base = pc_arena_alloc(c->arena, nt * sizeof(int));
    c->pool = pc_arena_alloc(c->arena, nt * sizeof(pc_pool));
    c->reason = pc_arena_alloc(c->arena, nt * sizeof(char *));
    c->loop_carried = pc_arena_alloc(c->arena, nt * sizeof(bool));
    c->kernel_scope_assemble = pc_arena_alloc(c->arena, nt * sizeof(bool));
    for (int t = 0; t < k->ntensors; t++)
        c->base[t] = resolve_base(k, t);

    tinfo *info = pc_mem_calloc(nt, sizeof(tinfo));
    for (int t = 0; t < k->ntensors; t++) {
        info[t].first_run = -1;
        info[t].first_writer = -1;
    }
    gather(c, info);
    carried_index carried = {0};
    carried_index_build(c, &carried);

    for (int t = 0; t < k->ntensors; t++) {
        const pc_tensor *T = &k->tensors[t];
        const tinfo *ti = &info[t];
        int b = c->base[t];
        c->pool[t] = PC_POOL_NONE;
        if (T->kind == PC_TENSOR_PARAM) {
            c->reason[t] = "kernel parameter";
            continue;
        }
        if (b != t) {
            c->reason[t] = pc_arena_printf(c->arena, "view of '%s': uses its memory", k->tensors[b].name);
            continue;
        }
        if (T->kind == PC_TENSOR_VIEW) {
            c->reason[t] = "view: allocates nothing";
            continue;
        }
        if (!ti->written && !ti->read) {
            c->reason[t] = "never used";
            continue;
        }
        int def_run = T->def_stmt >= 0 && T->def_stmt < k->nstmts ? c->stmt_run[T->def_stmt] : -1;
        bool created_outside = ti->first_writer >= 0 &&
                               ((def_run >= 0 && def_run != ti->first_writer) || ti->multi_writer ||
                                (T->def_stmt < 0 && T->kind != PC_TENSOR_VALUE));
        c->loop_carried[t] = ti->whole && is_loop_carried(c, &carried, t);
        bool cross = ti->multi_run || created_outside || c->loop_carried[t];

        if (ti->assembled && cross) {
            c->pool[t] = PC_POOL_ASSEMBLE;
            c->reason[t] = created_outside ? "created outside the root that assembles into it"
                                           : "assembled by one root and read by another";
            c->kernel_scope_assemble[t] = T->scope_loop < 0;
        } else if (cross && ti->written) {
            c->pool[t] = PC_POOL_EXCLUSIVE;
            c->reason[t] = c->loop_carried[t] ? "loop-carried: each iteration writes it and the next one reads it"
                         : created_outside ? "created outside the root that writes it whole"
                                           : "written whole by one root and read by another";
        } else if (!ti->written) {
            c->reason[t] = "read but never written in the kernel";
        } else if (!ti->read) {
            c->reason[t] = "written but never read";
        } else if (c->opts->inner_policy == PC_INNER_ALL) {
            c->pool[t] = PC_POOL_ROOT_INNER;
            c->reason[t] = "intermediate of one root (--inner-policy=all)";
        } else if ((ti->written_by_cube && ti->read_by_vector) || (ti->written_by_vector && ti->read_by_cube)) {
            c->pool[t] = PC_POOL_ROOT_INNER;
            c->reason[t] = ti->written_by_cube ? "matmul result read by a vector op in the same root"
                                               : "vector result read by a matmul in the same root";
        } else {
            c->reason[t] = "stays on chip: produced and read by ops of one root on the same unit";
        }
        if (c->pool[t] != PC_POOL_NONE)
            c->needed[c->pool[t]] = true;
    }
    pc_mem_free(info);
    carried_index_free(&carried);
    c->stmt_defines_assemble = pc_arena_alloc(c->arena, (size_t)(k->nstmts ? k->nstmts : 1) * sizeof(bool));
    memset(c->stmt_defines_assemble, 0, (size_t)(k->nstmts ? k->nstmts : 1) * sizeof(bool));
    for (int t = 0; t < k->ntensors; t++) {
        int ds = k->tensors[t].def_stmt;
        if (ds >= 0 && ds < k->nstmts && c->pool[t] == PC_POOL_ASSEMBLE)
            c->stmt_defines_assemble[ds] = true;
    }
}
