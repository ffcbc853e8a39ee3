/*
 * PC009 suggest-precise-config (note): precise mode is off; the suggested triple (the predicted
 * depths, plus the assemble headroom) and the workspace it saves against the default
 * [k, k, k] -- the numbers the upstream `[Workspace Runtime Recommendation]` log gives after a run,
 * before any run.  Silent when a depth is unknown (PC008 says why), when a loop never ends (step 0),
 * when no pool is needed, or when the suggestion saves nothing.
 *
 * Fix: rewrite an explicit [0, 0, 0] in place; else insert an options call.  In Python that is one
 * module-level set_runtime_options before the first such kernel, with the element-wise maximum
 * over them (module-level options apply to every kernel compiled later); in C++ a
 * config::SetRuntimeOption before each FUNCTION, with that kernel's triple (source order).
 */
#include "checks/checks_int.h"

#include <string.h>

/* Does the source set the pool option for kernel k somewhere, valid or not?  Then the fix belongs
 * to that option (PC002 rewrites an invalid one), not to a new call. */
static bool has_pool_site(const pc_chk_ctx *c, int k)
{
    for (int i = 0; i < c->model->noptions; i++) {
        const pc_option *o = &c->model->options[i];
        if (strcmp(o->key, PC_KEY_POOL) == 0 && !o->in_kernel && (o->kernel < 0 || o->kernel == k))
            return true;
    }
    return false;
}

static bool wants_suggestion(const pc_chk_ctx *c, int k)
{
    const pc_result *r = pc_chk_result(c, k);
    const pc_runtime_config *cfg = pc_chk_cfg(c, k);
    if (!r || pc_cfg_precise(cfg))
        return false;
    if (!r->needed[0] && !r->needed[1] && !r->needed[2])
        return false;
    /* A loop with step 0 never ends (an error of its own): the depths counted for its one pass are
     * not a kernel's depths, so there is no exact triple to suggest. */
    if (r->nzero_step_loops > 0)
        return false;
    for (int i = 0; i < 3; i++)
        if (r->predicted[i] < 0)
            return false;
    if (r->ws_default >= 0 && r->ws_suggested >= 0 && r->ws_suggested >= r->ws_default)
        return false;
    return true;
}

void pc_chk_suggest_precise_config(pc_chk_ctx *c)
{
    /* Python: one insertion point and triple for the whole module. */
    int first = -1;
    int64_t module_triple[3] = {0, 0, 0};
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        if (!wants_suggestion(c, k))
            continue;
        if (first < 0)
            first = k;
        const pc_result *r = pc_chk_result(c, k);
        for (int i = 0; i < 3; i++)
            if (r->suggested[i] > module_triple[i])
                module_triple[i] = r->suggested[i];
    }
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        if (!wants_suggestion(c, k))
            continue;
        const pc_result *r = pc_chk_result(c, k);
        const pc_runtime_config *cfg = pc_chk_cfg(c, k);
        const pc_kernel *kern = &c->model->kernels[k];
        const pc_option *src = cfg->src_pool; /* an explicit [0, 0, 0], if any */
        pc_loc at = pc_chk_primary(src, kern);
        int64_t deflt[3];
        pc_cfg_effective_pool(cfg, deflt);
        pc_diag *d;
        if (r->ws_default >= 0 && r->ws_suggested >= 0)
            d = pc_diag_report(c->sink, PC_CHK_SUGGEST_PRECISE_CONFIG, at, kern->name,
                               "kernel '%s' runs with the default pool depths %s (%lld bytes of "
                               "workspace); %s=%s (predicted %s) needs %lld bytes and saves %lld",
                               kern->name, pc_chk_triple(c, deflt), (long long)r->ws_default,
                               PC_KEY_POOL, pc_chk_triple(c, r->suggested),
                               pc_chk_triple(c, r->predicted), (long long)r->ws_suggested,
                               (long long)(r->ws_default - r->ws_suggested));
        else
            d = pc_diag_report(c->sink, PC_CHK_SUGGEST_PRECISE_CONFIG, at, kern->name,
                               "kernel '%s' runs with the default pool depths %s; %s=%s (predicted "
                               "%s) keeps its parallelism with less workspace",
                               kern->name, pc_chk_triple(c, deflt), PC_KEY_POOL,
                               pc_chk_triple(c, r->suggested), pc_chk_triple(c, r->predicted));
        if (!d)
            continue;
        if (src) {
            pc_chk_note_option(c, d, src, at);
            int64_t fix[3];
            if (pc_chk_suggest_for_option(c, src, fix))
                pc_chk_fix_pool_value(c, d, src, fix);
        } else if (has_pool_site(c, k)) {
            /* an option the runtime rejects: PC002 carries the fix */
        } else if (c->model->lang == PC_LANG_CPP) {
            pc_chk_fix_insert_call(c, d, kern, r->suggested);
        } else {
            pc_chk_fix_insert_call(c, d, &c->model->kernels[first], module_triple);
        }
    }
}
