/*
 * PC004 ignored-option (warning): precise mode is on while stitch_function_max_num or
 * max_workspace_kb is also set.  In precise mode the runtime sizes the workspace from the three
 * depths alone (docs/model.md section 1; the encode summary logs stitchNumMax=1024 whatever was set),
 * so these options do nothing.  Reported once per option site, at the ignored option.
 */
#include "checks/checks_int.h"

static void report(pc_chk_ctx *c, const pc_option *o, const pc_runtime_config *cfg,
                   const pc_kernel *kern)
{
    if (!pc_chk_first(c, PC_CHK_IGNORED_OPTION, o))
        return;
    pc_loc at = pc_chk_primary(o, kern);
    const char *value = pc_cfg_value_text(c->arena, &o->value);
    pc_diag *d = pc_diag_report(
        c->sink, PC_CHK_IGNORED_OPTION, at, kern->name,
        "%s=%s has no effect on kernel %s: precise mode is on (%s=%s), so the runtime uses "
        "the three pool depths as given",
        o->key, value, kern->ref, PC_KEY_POOL, pc_chk_triple(c, cfg->pool));
    if (!d)
        return;
    if (!pc_chk_loc_known(pc_chk_option_loc(o)))
        pc_chk_note_option(c, d, o, at);
    const pc_option *pool = cfg->src_pool;
    pc_loc pl = pc_chk_option_loc(pool);
    if (pool && pc_chk_loc_known(pl))
        pc_diag_note(c->sink, d, pl, "precise mode is switched on here");
    else if (pool)
        pc_chk_note_option(c, d, pool, at);
}

static void ignored_options(pc_chk_ctx *c, const pc_kernel *kern, const pc_result *r, const pc_runtime_config *cfg)
{
    (void)r; /* what is ignored depends on the options alone */
    if (cfg->src_max_num)
        report(c, cfg->src_max_num, cfg, kern);
    /* max_workspace_kb = 0 means "off": setting it changes nothing either way. */
    if (cfg->src_workspace_kb && cfg->workspace_kb != 0)
        report(c, cfg->src_workspace_kb, cfg, kern);
}

void pc_chk_ignored_option(pc_chk_ctx *c) { pc_chk_each_precise_kernel(c, ignored_options); }
