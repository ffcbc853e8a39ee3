/*
 * PC006 pool-too-shallow (warning): precise mode, a configured non-zero depth below the predicted
 * one.  The runtime then cuts DeviceTasks early or serialises instances (the scenario the
 * upstream `[Workspace Runtime Recommendation]` log exists to fix).  A 0 is PC001's; an unknown
 * prediction is PC008's.
 */
#include "checks/checks_int.h"

/* "DeviceTask 0 (instances 0..127) sets it: l_loop_1 (64 instances), l_loop_2 (63 instances)" */
static void note_why(pc_chk_ctx *c, pc_diag *d, const pc_result *r, int pool)
{
    const pc_why *w = &r->why[pool];
    if (w->task < 0)
        return;
    pc_sb b = {0};
    pc_sb_printf(&b, "DeviceTask %lld (instances %lld..%lld) needs depth %lld", (long long)w->task,
                 (long long)w->first_instance, (long long)w->last_instance, (long long)r->predicted[pool]);
    for (int i = 0; i < w->nroots; i++)
        pc_sb_printf(&b, "%s%s (%lld instance%s)", i ? ", " : ": ", w->roots[i].name,
                     (long long)w->roots[i].instances, w->roots[i].instances == 1 ? "" : "s");
    pc_diag_note(c->sink, d, r->kernel->loc, "%s", b.data ? b.data : "");
    pc_sb_free(&b);
}

static void pool_too_shallow(pc_chk_ctx *c, const pc_kernel *kern, const pc_result *r, const pc_runtime_config *cfg)
{
    const pc_option *src = cfg->src_pool;
    for (int i = 0; i < 3; i++) {
        if (cfg->pool[i] <= 0 || r->predicted[i] < 0 || cfg->pool[i] >= r->predicted[i])
            continue;
        pc_loc at = pc_chk_primary(src, kern);
        int64_t fix[3];
        bool have_fix = src && pc_chk_suggest_for_option(c, src, fix);
        pc_diag *d = pc_diag_report(
            c->sink, PC_CHK_POOL_TOO_SHALLOW, at, kern->name,
            "%s is %lld, below the predicted %lld for kernel %s (%s): DeviceTasks are cut "
            "early or instances serialised; suggested %s",
            pc_chk_pool_label(i), (long long)cfg->pool[i], (long long)r->predicted[i], kern->ref,
            pc_chk_pool_tensor_names(c, r, i), pc_chk_triple(c, have_fix ? fix : r->suggested));
        if (!d)
            continue;
        note_why(c, d, r, i);
        pc_chk_note_pool_tensors(c, d, r, i);
        pc_chk_pool_finding_tail(c, d, src, kern, at, have_fix ? fix : NULL);
    }
}

void pc_chk_pool_too_shallow(pc_chk_ctx *c) { pc_chk_each_precise_kernel(c, pool_too_shallow); }
