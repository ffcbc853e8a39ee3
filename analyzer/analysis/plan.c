/*
 * plan.c - depths for a workspace budget (docs/model.md section 7; scenario 2 of the seed article:
 * "memory first, then parallelism").
 *
 * Start from the suggested depths (or the depths a run observed).  While they cost more than
 * the budget, lower the pool whose step frees the most bytes per lost instance; a tie goes to
 * root_inner, which only serialises instances (WAR dependencies after a wrap) where the other
 * pools make the runtime submit DeviceTasks early.  The assemble headroom slot(s) (docs/model.md 6)
 * go last: without them newer runtimes can stop with `Root cannot fit in an empty DeviceTask`.
 * No needed pool goes below 1; when even that does not fit, the plan fails with the smallest
 * runnable budget (PC010).  Because the workspace is rounded up to 32 KiB, lowering one pool
 * fully can free more than was needed, and a start taken from a run's logs can be below the
 * suggested depths (the run was cut short by its memory limit): afterwards the pools are raised
 * one step at a time toward max(start, suggested), the assemble headroom first, then the
 * cheapest step first, as long as the budget still holds.  With room to spare, the plan says how
 * many more root_inner steps would fit (the article's `remaining / nextDepthTotalBytes.rootInner`,
 * computed with the rounding).
 */
#include "analysis_int.h"

#include <string.h>

#define PLAN_MAX_DEPTH PC_MAX_DEPTH /* stitch_function_num_per_pool elements are 0..PC_MAX_DEPTH */

int64_t pc_plan_costs_bytes(const pc_plan_costs *c, const int64_t d[3])
{
    /* Prices can come from logs (pc_log_plan_costs), where any int64 may appear: a total that
     * does not fit in int64 saturates at INT64_MAX, a workspace no budget holds. */
    int64_t raw = c->fixed, term, total;
    for (int i = 0; i < 3; i++)
        if (__builtin_mul_overflow(c->step[i], d[i], &term) || __builtin_add_overflow(raw, term, &raw))
            return INT64_MAX;
    if (raw > INT64_MAX - 32767)
        return INT64_MAX;
    if (__builtin_mul_overflow(pc_align_up(raw, 32768), c->parallelism < 1 ? 1 : c->parallelism, &total))
        return INT64_MAX;
    return total;
}

bool pc_an_plan_costs(const pc_result *r, pc_plan_costs *out)
{
    memset(out, 0, sizeof *out);
    if (r->unit_inner < 0 || r->unit_excl < 0 || r->slot_size < 0)
        return false;
    int64_t A = r->n_assemble, E = r->n_exclusive, S = r->slot_size;
    out->step[PC_POOL_ROOT_INNER] = r->unit_inner;
    out->step[PC_POOL_ASSEMBLE] = A * S;
    out->step[PC_POOL_EXCLUSIVE] = r->unit_excl;
    out->fixed = (2 * E + 2 * A) * S;
    out->parallelism = r->parallelism < 1 ? 1 : r->parallelism;
    return true;
}

typedef struct pricer {
    const pc_result *r;
    const pc_plan_costs *costs; /* NULL: the analysis' own bytes */
} pricer;

static int64_t price(const pricer *p, const int64_t d[3])
{
    if (p->costs)
        return pc_plan_costs_bytes(p->costs, d);
    return pc_workspace_bytes(p->r, d, p->r->parallelism);
}

void pc_an_plan(const pc_result *r, int64_t budget_bytes, const int64_t *start, pc_plan *out)
{
    pc_an_plan_ex(r, NULL, budget_bytes, start, out);
}

void pc_an_plan_ex(const pc_result *r, const pc_plan_costs *costs, int64_t budget_bytes,
                   const int64_t *start, pc_plan *out)
{
    memset(out, 0, sizeof *out);
    out->budget_bytes = budget_bytes;
    pc_plan_costs own;
    if (!pc_an_plan_costs(r, &own) && !costs) {
        out->bytes_unknown = true;
        return;
    }
    const pc_plan_costs *c = costs ? costs : &own;
    pricer pr = {r, costs};

    int64_t floor_[3], d[3], keep_asm;
    for (int i = 0; i < 3; i++) {
        out->step_bytes[i] = c->step[i];
        out->predicted[i] = r->predicted[i] >= 0 ? r->predicted[i] : r->bounds[i];
        floor_[i] = r->required[i] > 0 ? r->required[i] : 0;
        int64_t s = start ? start[i] : r->suggested[i];
        if (s < 0)
            s = out->predicted[i];
        if (s < floor_[i])
            s = floor_[i];
        if (s > PLAN_MAX_DEPTH)
            s = PLAN_MAX_DEPTH;
        out->start[i] = d[i] = s;
    }
    /* Assemble slots up to the suggested level (predicted + headroom) are lowered last. */
    keep_asm = r->suggested[PC_POOL_ASSEMBLE] >= 0 ? r->suggested[PC_POOL_ASSEMBLE] : d[1];
    if (keep_asm > d[PC_POOL_ASSEMBLE])
        keep_asm = d[PC_POOL_ASSEMBLE];
    if (keep_asm < floor_[PC_POOL_ASSEMBLE])
        keep_asm = floor_[PC_POOL_ASSEMBLE];

    out->min_bytes = price(&pr, floor_);
    if (out->min_bytes < 0) {
        out->bytes_unknown = true;
        return;
    }
    out->min_budget_kb = pc_ceil_div(out->min_bytes, 1024);
    if (out->min_bytes > budget_bytes) {
        out->fits = false;
        memcpy(out->depths, floor_, sizeof floor_);
        out->bytes = out->min_bytes;
        for (int i = 0; i < 3; i++)
            out->lost[i] = out->predicted[i] > floor_[i] ? out->predicted[i] - floor_[i] : 0;
        return;
    }

    /* Lower. */
    static const int tie_order[3] = {PC_POOL_ROOT_INNER, PC_POOL_EXCLUSIVE, PC_POOL_ASSEMBLE};
    while (price(&pr, d) > budget_bytes) {
        int pick = -1;
        for (int k = 0; k < 3; k++) {
            int i = tie_order[k];
            int64_t limit = i == PC_POOL_ASSEMBLE ? keep_asm : floor_[i];
            if (d[i] <= limit || c->step[i] <= 0)
                continue;
            if (pick < 0 || c->step[i] > c->step[pick])
                pick = i;
        }
        if (pick < 0 && d[PC_POOL_ASSEMBLE] > floor_[PC_POOL_ASSEMBLE] &&
            c->step[PC_POOL_ASSEMBLE] > 0)
            pick = PC_POOL_ASSEMBLE; /* the headroom, last */
        if (pick < 0)
            break; /* cannot happen: floor_ fits */
        d[pick]--;
    }

    /* Raise what the budget still allows, up to the target: the start, or the suggested depths
     * where the start is below them (a run cut short by memory observed less than the kernel
     * needs).  The assemble headroom first (it was lowered last), then the cheapest step first
     * (the most instances per byte).  This also gives back what the 32 KiB rounding freed. */
    int64_t target[3];
    for (int i = 0; i < 3; i++) {
        int64_t sug = r->suggested[i] >= 0 ? r->suggested[i] : out->predicted[i];
        target[i] = out->start[i] > sug ? out->start[i] : sug;
        if (target[i] > PLAN_MAX_DEPTH)
            target[i] = PLAN_MAX_DEPTH;
    }
    int order[4] = {PC_POOL_ASSEMBLE, PC_POOL_ROOT_INNER, PC_POOL_EXCLUSIVE, PC_POOL_ASSEMBLE};
    for (int k = 2; k < 4; k++) /* insertion sort of order[1..3] by step; ties keep tie_order */
        for (int j = k; j > 1 && c->step[order[j]] < c->step[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int k = 0; k < 4; k++) {
        int i = order[k];
        while (d[i] < target[i]) {
            d[i]++;
            if (price(&pr, d) > budget_bytes) {
                d[i]--;
                break;
            }
        }
    }

    out->fits = true;
    memcpy(out->depths, d, sizeof d);
    out->bytes = price(&pr, d);
    out->spare_bytes = budget_bytes - out->bytes;
    for (int i = 0; i < 3; i++)
        out->lost[i] = out->predicted[i] > d[i] ? out->predicted[i] - d[i] : 0;
    out->headroom_dropped = r->needed[PC_POOL_ASSEMBLE] &&
                            r->suggested[PC_POOL_ASSEMBLE] > out->predicted[PC_POOL_ASSEMBLE] &&
                            d[PC_POOL_ASSEMBLE] < keep_asm;

    /* Room left: more root_inner steps (more instances per DeviceTask without serialising). */
    if (c->step[PC_POOL_ROOT_INNER] > 0 && d[PC_POOL_ROOT_INNER] > 0) {
        int64_t e[3] = {d[0], d[1], d[2]};
        while (e[0] < PLAN_MAX_DEPTH) {
            e[0]++;
            if (price(&pr, e) > budget_bytes)
                break;
            out->extra_root_steps++;
        }
    }
}
