/*
 * PC011 assemble-no-headroom (warning): precise mode, and the configured assemble depth equals the
 * predicted one (the live allocations) while an assemble tensor's allocation lives across
 * DeviceTasks.  Newer runtimes refuse a root whenever fewer than A assemble slots are free (the
 * preflight behind "#ctrl.workspace.preflight: Root cannot fit in an empty DeviceTask") and
 * RecommendAssembleOutcastDepth says observed + 1 (docs/model.md section 6).  A lower depth is PC006's.
 * With --assemble-headroom 0 the user has said their runtime has no such pre-check: silent.
 */
#include "checks/checks_int.h"

static void assemble_no_headroom(pc_chk_ctx *c, const pc_kernel *kern, const pc_result *r,
                                 const pc_runtime_config *cfg)
{
    int64_t depth = cfg->pool[PC_POOL_ASSEMBLE];
    if (r->ncross_task_assemble == 0 || depth <= 0 || r->predicted[PC_POOL_ASSEMBLE] < 0 ||
        depth != r->predicted[PC_POOL_ASSEMBLE])
        return;
    const pc_option *src = cfg->src_pool;
    pc_loc at = pc_chk_primary(src, kern);
    int64_t want[3] = {cfg->pool[0], depth + c->in->assemble_headroom, cfg->pool[2]};
    if (want[1] > PC_MAX_DEPTH)
        want[1] = PC_MAX_DEPTH;
    /* Name the tensors that cross a DeviceTask boundary. */
    pc_sb names = {0};
    for (int i = 0; i < r->ncross_task_assemble && i < 3; i++) {
        int t = r->cross_task_assemble[i];
        if (t < 0 || t >= kern->ntensors)
            continue;
        pc_sb_printf(&names, "%s'%s'", names.len ? ", " : "", kern->tensors[t].name);
    }
    if (r->ncross_task_assemble > 3)
        pc_sb_printf(&names, " and %d more", r->ncross_task_assemble - 3);
    pc_diag *d = pc_diag_report(
        c->sink, PC_CHK_ASSEMBLE_NO_HEADROOM, at, kern->name,
        "%s is %lld, exactly the live assemble allocations of kernel %s, and %s lives across "
        "DeviceTasks: newer runtimes stop with 'Root cannot fit in an empty DeviceTask'; use %lld",
        pc_chk_pool_label(PC_POOL_ASSEMBLE), (long long)depth, kern->ref,
        names.data ? names.data : "an assemble tensor", (long long)want[1]);
    pc_sb_free(&names);
    if (!d)
        return;
    for (int i = 0; i < r->ncross_task_assemble && i < 6; i++) {
        int t = r->cross_task_assemble[i];
        if (t >= 0 && t < kern->ntensors)
            pc_diag_note(c->sink, d, kern->tensors[t].loc,
                         "'%s' is allocated in one DeviceTask and still read in a later one",
                         kern->tensors[t].name);
    }
    pc_chk_pool_finding_tail(c, d, src, kern, at, want);
}

/* With --assemble-headroom 0 the user has said their runtime has no such pre-check. */
void pc_chk_assemble_no_headroom(pc_chk_ctx *c)
{
    if (c->in->assemble_headroom > 0)
        pc_chk_each_precise_kernel(c, assemble_no_headroom);
}
