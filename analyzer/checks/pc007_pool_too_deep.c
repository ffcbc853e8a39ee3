/*
 * PC007 pool-too-deep (note): precise mode, a configured depth above the suggested one (the
 * predicted depth, plus the assemble headroom) that reserves workspace no instance uses.  The
 * bytes are the tensor-workspace difference of lowering only that pool (docs/model.md section 7,
 * AlignUp to 32 KiB, times device_sched_parallelism); silent when that is 0 or unknown.
 */
#include "checks/checks_int.h"

static void pool_too_deep(pc_chk_ctx *c, const pc_kernel *kern, const pc_result *r, const pc_runtime_config *cfg)
{
    const pc_option *src = cfg->src_pool;
    /* A shared option (module level) serves every kernel it configures: compare with the
     * deepest suggestion among them, which is also what the fix writes. */
    int64_t fix[3];
    bool have_fix = src && pc_chk_suggest_for_option(c, src, fix);
    for (int i = 0; i < 3; i++) {
        int64_t target = have_fix ? fix[i] : r->suggested[i];
        if (r->predicted[i] < 0 || cfg->pool[i] <= target)
            continue;
        int64_t lowered[3] = {cfg->pool[0], cfg->pool[1], cfg->pool[2]};
        lowered[i] = target;
        int64_t now = pc_workspace_bytes(r, cfg->pool, r->parallelism);
        int64_t then = pc_workspace_bytes(r, lowered, r->parallelism);
        if (now < 0 || then < 0 || now <= then)
            continue;
        pc_loc at = pc_chk_primary(src, kern);
        pc_diag *d = pc_diag_report(
            c->sink, PC_CHK_POOL_TOO_DEEP, at, kern->name,
            "%s is %lld, deeper than the suggested %lld for kernel %s: it reserves %lld bytes "
            "of workspace never used (%lld instead of %lld bytes)",
            pc_chk_pool_label(i), (long long)cfg->pool[i], (long long)target, kern->ref,
            (long long)(now - then), (long long)then, (long long)now);
        if (!d)
            continue;
        pc_chk_pool_finding_tail(c, d, src, kern, at, have_fix ? fix : NULL);
    }
}

void pc_chk_pool_too_deep(pc_chk_ctx *c) { pc_chk_each_precise_kernel(c, pool_too_deep); }
