/*
 * PC008 unknown-trip-count (note): a depth could not be computed exactly.  One note per unbound
 * symbol per kernel (docs/model.md section 12), at the first loop header or tensor that mentions it,
 * naming the pools whose depth is only a bound and how to bind the symbol.
 */
#include "checks/checks_int.h"

#include <string.h>

static bool mentions(const pc_expr *e, const char *sym)
{
    if (!e)
        return false;
    const char *names[64];
    size_t n = pc_expr_symbols(e, names, 0, 64);
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], sym) == 0)
            return true;
    return false;
}

/* Where the symbol shows: a loop bound, else a tensor shape, else the kernel. */
static pc_loc where(const pc_kernel *k, const char *sym, const char **what)
{
    for (int i = 0; i < k->nloops; i++) {
        const pc_loop *l = &k->loops[i];
        if (mentions(l->begin, sym) || mentions(l->end, sym) || mentions(l->step, sym)) {
            *what = l->name;
            return pc_chk_loc_known(l->header) ? l->header : l->loc;
        }
    }
    for (int i = 0; i < k->ntensors; i++) {
        const pc_tensor *t = &k->tensors[i];
        for (int d = 0; d < t->ndims && t->shape; d++)
            if (mentions(t->shape[d], sym)) {
                *what = t->name;
                return t->loc;
            }
    }
    *what = NULL;
    return k->loc;
}

void pc_chk_unknown_trip_count(pc_chk_ctx *c)
{
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        if (!r || r->nunknowns == 0)
            continue;
        /* a kernel that uses no pool needs depth 0 and no workspace whatever its trip counts are:
         * nothing to bind (its summary still says the instance count is unknown) */
        if (!r->needed[0] && !r->needed[1] && !r->needed[2])
            continue;
        const pc_kernel *kern = &c->model->kernels[k];
        /* "root_inner <= 128 (min(ceil(n/16), 128)), exclusive_outcast <= 128" */
        pc_sb bounds = {0};
        for (int i = 0; i < 3; i++) {
            if (r->predicted[i] >= 0)
                continue;
            pc_sb_printf(&bounds, "%s%s <= %lld", bounds.len ? ", " : "", pc_pool_name((pc_pool)i),
                         (long long)r->bounds[i]);
            if (r->formulas[i])
                pc_sb_printf(&bounds, " (%s)", r->formulas[i]);
        }
        for (int u = 0; u < r->nunknowns; u++) {
            const char *sym = r->unknowns[u];
            const char *what = NULL;
            pc_loc at = where(kern, sym, &what);
            pc_diag *d;
            if (bounds.len)
                d = pc_diag_report(c->sink, PC_CHK_UNKNOWN_TRIP_COUNT, at, kern->name,
                                   "the depths of kernel %s depend on '%s', which is not bound: "
                                   "%s; bind it with --bind %s=VALUE",
                                   kern->ref, sym, bounds.data, sym);
            else
                d = pc_diag_report(c->sink, PC_CHK_UNKNOWN_TRIP_COUNT, at, kern->name,
                                   "the instance count of kernel %s depends on '%s', which is not "
                                   "bound; bind it with --bind %s=VALUE",
                                   kern->ref, sym, sym);
            if (d && what)
                pc_chk_note_kernel(c, d, kern, at);
        }
        pc_sb_free(&bounds);
    }
    /* Path conditions the analysis could not decide (model.md section 3, "Paths"; added by the
     * analysis owner): each instance reaching one is charged the largest of its paths. */
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        if (!r)
            continue;
        const pc_kernel *kern = &c->model->kernels[k];
        for (int u = 0; u < r->nundecided; u++) {
            const pc_undecided *d = &r->undecided[u];
            pc_loc at = pc_chk_loc_known(d->loc) ? d->loc : kern->loc;
            pc_diag *diag;
            if (d->nsymbols) {
                pc_sb names = {0}, binds = {0};
                for (int i = 0; i < d->nsymbols; i++) {
                    pc_sb_printf(&names, "%s'%s'", i ? ", " : "", d->symbols[i]);
                    pc_sb_printf(&binds, "%s--bind %s=VALUE", i ? " " : "", d->symbols[i]);
                }
                diag = pc_diag_report(c->sink, PC_CHK_UNKNOWN_TRIP_COUNT, at, kern->name,
                                      "kernel %s: the path condition '%s' cannot be decided while %s "
                                      "%s not bound, so every instance that reaches it is charged the "
                                      "largest of its paths and the depths may be higher than a run needs; "
                                      "bind it with %s",
                                      kern->ref, d->cond_text, names.data, d->nsymbols > 1 ? "are" : "is",
                                      binds.data);
                pc_sb_free(&names);
                pc_sb_free(&binds);
            } else {
                diag = pc_diag_report(c->sink, PC_CHK_UNKNOWN_TRIP_COUNT, at, kern->name,
                                      "kernel %s: the path condition '%s' depends on values known only "
                                      "at run time, so every instance that reaches it is charged the "
                                      "largest of its paths and the depths may be higher than a run needs",
                                      kern->ref, d->cond_text);
            }
            if (diag)
                pc_chk_note_kernel(c, diag, kern, at);
        }
    }
}
