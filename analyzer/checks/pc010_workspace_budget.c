/*
 * PC010 workspace-budget-too-small (error): max_workspace_kb is set (precise mode off, where the
 * budget is honoured) and is at or below the smallest runnable workspace, the one at the required
 * depths.  Mirrors upstream's ValidateMaxWorkspaceOrThrow: "[workspaceSize]
 * max_workspace_kb=<ceilKB>KB must be greater than the minimum runnable workspace=<ceilKB>KB."
 * poolcheck's bytes are the tensor workspace only (no AICore spill), so the real minimum is at
 * least this one and the failure is certain.
 */
#include "checks/checks_int.h"

void pc_chk_workspace_budget(pc_chk_ctx *c)
{
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        const pc_runtime_config *cfg = pc_chk_cfg(c, k);
        if (!r || pc_cfg_precise(cfg) || cfg->workspace_kb <= 0 || r->ws_required < 0)
            continue;
        if (cfg->workspace_kb > INT64_MAX / 1024 || cfg->workspace_kb * 1024 > r->ws_required)
            continue;
        const pc_kernel *kern = &c->model->kernels[k];
        const pc_option *src = cfg->src_workspace_kb;
        pc_loc at = pc_chk_primary(src, kern);
        pc_diag *d = pc_diag_report(
            c->sink, PC_CHK_WORKSPACE_BUDGET, at, kern->name,
            "max_workspace_kb=%lldKB must be greater than the minimum runnable workspace=%lldKB: "
            "kernel %s needs %lld bytes at the smallest depths %s; raise it above %lld or unset it",
            (long long)cfg->workspace_kb, (long long)pc_ceil_div(r->ws_required, 1024), kern->ref,
            (long long)r->ws_required, pc_chk_triple(c, r->required),
            (long long)pc_ceil_div(r->ws_required, 1024));
        if (!d)
            continue;
        pc_chk_note_option(c, d, src, at);
        pc_chk_note_kernel(c, d, kern, at);
    }
}
