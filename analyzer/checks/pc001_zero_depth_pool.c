/*
 * PC001 zero-depth-pool (error): precise mode on, a pool set to 0, and the kernel has a tensor that
 * needs it.  Mirrors upstream's encode-time ValidateDepth, which throws
 * "stitch_function_num_per_pool[i] cannot be 0 because the current program requires this
 * workspace pool to construct one root function" (upstream workspace_budget_calculator.cpp ValidateDepth; docs/model.md section 8).
 */
#include "checks/checks_int.h"

static void zero_depth_pool(pc_chk_ctx *c, const pc_kernel *kern, const pc_result *r, const pc_runtime_config *cfg)
{
    const pc_option *src = cfg->src_pool;
    for (int i = 0; i < 3; i++) {
        if (cfg->pool[i] != 0 || !r->needed[i])
            continue;
        pc_loc at = pc_chk_primary(src, kern);
        int64_t fix[3];
        bool have_fix = src && pc_chk_suggest_for_option(c, src, fix);
        if (!have_fix)
            for (int j = 0; j < 3; j++)
                fix[j] = r->suggested[j];
        pc_diag *d = pc_diag_report(
            c->sink, PC_CHK_ZERO_DEPTH_POOL, at, kern->name,
            "stitch_function_num_per_pool[%d] cannot be 0 because the current program requires "
            "this workspace pool to construct one root function: kernel %s keeps %s in %s "
            "(configured %s, suggested %s)",
            i, kern->ref, pc_chk_pool_tensor_names(c, r, i), pc_pool_name((pc_pool)i),
            pc_chk_triple(c, cfg->pool), pc_chk_triple(c, fix));
        if (!d)
            continue;
        pc_chk_note_pool_tensors(c, d, r, i);
        pc_chk_pool_finding_tail(c, d, src, kern, at, have_fix ? fix : NULL);
    }
}

void pc_chk_zero_depth_pool(pc_chk_ctx *c) { pc_chk_each_precise_kernel(c, zero_depth_pool); }
