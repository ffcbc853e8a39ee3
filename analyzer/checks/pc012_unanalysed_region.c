/*
 * PC012 unanalysed-region (warning): a part of a kernel (a LOOP, a statement) the frontend could
 * not model (a PC_STMT_UNANALYSED statement, whose message says what was skipped).  Whatever it
 * would add is missing from the analysis, so the depths may be too low.
 */
#include "checks/checks_int.h"

#include <stdio.h>

void pc_chk_unanalysed_region(pc_chk_ctx *c)
{
    for (int k = 0; k < c->model->nkernels; k++) {
        const pc_kernel *kern = &c->model->kernels[k];
        for (int s = 0; s < kern->nstmts; s++) {
            const pc_stmt *st = &kern->stmts[s];
            if (st->kind != PC_STMT_UNANALYSED)
                continue;
            pc_loc at = pc_chk_loc_known(st->loc) ? st->loc : kern->loc;
            pc_diag *d = pc_diag_report(c->sink, PC_CHK_UNANALYSED_REGION, at, kern->name,
                                        "kernel %s: %s; this part is left out of the "
                                        "analysis, so the predicted depths may be too low",
                                        kern->ref,
                                        st->message && *st->message ? st->message
                                                                    : "a statement could not be modelled");
            if (d)
                pc_chk_note_kernel(c, d, kern, at);
        }
    }
    /* The analysis stopped walking instances at its limit (pc_result.truncated; added by the
     * analysis owner): what follows was not analysed, the depths are only bounds. */
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        if (!r || !r->truncated)
            continue;
        const pc_kernel *kern = &c->model->kernels[k];
        if (r->too_many_instances) {
            pc_diag_report(c->sink, PC_CHK_UNANALYSED_REGION, kern->loc, kern->name,
                           "kernel %s has more than 2^62 instances, more than poolcheck counts: "
                           "the analysis stopped after %lld, so the depths are only bounds and the "
                           "instance count is unknown",
                           kern->ref, (long long)r->instance_limit);
            continue;
        }
        if (r->nesting_what) {
            pc_diag_report(c->sink, PC_CHK_UNANALYSED_REGION, kern->loc, kern->name,
                           "kernel %s has %s nested more than %d deep, poolcheck's limit: the "
                           "analysis stopped there, so the depths are only bounds and the instance "
                           "count is unknown",
                           kern->ref, r->nesting_what, r->nesting_limit);
            continue;
        }
        if (r->walk_time_limit > 0 || r->cancelled) {
            /* the walk's budget: the limit is named, so the user knows what to raise */
            char limit[96];
            if (r->cancelled)
                snprintf(limit, sizeof limit, "the walk was cancelled");
            else
                snprintf(limit, sizeof limit, "its time limit of %g s (--max-walk-seconds) was reached", r->walk_time_limit);
            pc_diag_report(c->sink, PC_CHK_UNANALYSED_REGION, kern->loc, kern->name,
                           "kernel %s: the analysis stopped walking instances after %lld: %s; "
                           "the instances after that are left out, so the depths are "
                           "only bounds and the instance count is unknown",
                           kern->ref, (long long)r->instance_limit, limit);
            continue;
        }
        pc_diag_report(c->sink, PC_CHK_UNANALYSED_REGION, kern->loc, kern->name,
                       "kernel %s: the analysis stopped after %lld instances (its limit); the "
                       "instances after that are left out, so the depths are only bounds and the "
                       "instance count is unknown",
                       kern->ref, (long long)r->instance_limit);
    }
}
