/*
 * PC002 invalid-pool-option (error): stitch_function_num_per_pool is not 3 ints in 0..1024 (bool,
 * float, string, wrong length, out of range), wherever it is set: the source, tile_fwk_config.json,
 * .poolcheck.json or --set.  The message is pc_cfg_validate's, which echoes upstream's
 * _validate_stitch_function_num_per_pool ("Invalid stitch_function_num_per_pool: '...'. ...").
 */
#include "checks/checks_int.h"

#include <string.h>

/* Report one option if its value is invalid; shared by source and external options. */
static void check_option(pc_chk_ctx *c, const pc_option *o)
{
    if (!o->key || strcmp(o->key, PC_KEY_POOL) != 0)
        return;
    /* None means "no change"; an expression poolcheck cannot evaluate is not known to be bad. */
    const pc_optval *value = pc_chk_judged_value(c, o);
    if (value->kind == PC_OPT_NONE || value->kind == PC_OPT_UNKNOWN)
        return;
    const char *why = pc_cfg_validate(c->arena, o->key, value);
    if (!why)
        return;
    const pc_kernel *kern = (o->kernel >= 0 && o->kernel < c->model->nkernels)
                                ? &c->model->kernels[o->kernel] : NULL;
    pc_loc at = pc_chk_option_loc(o);
    pc_diag *d;
    if (pc_chk_loc_known(at))
        d = pc_diag_report(c->sink, PC_CHK_INVALID_POOL_OPTION, at, kern ? kern->name : NULL, "%s",
                           why);
    else
        d = pc_diag_report(c->sink, PC_CHK_INVALID_POOL_OPTION, at, kern ? kern->name : NULL,
                           "%s (set by %s)", why, pc_chk_site_name(o));
    if (!d)
        return;
    int64_t fix[3];
    if (pc_chk_suggest_for_option(c, o, fix)) {
        pc_diag_note(c->sink, d, (pc_loc){0},
                     "the kernels this option configures need %s=%s (suggested)", PC_KEY_POOL,
                     pc_chk_triple(c, fix));
        pc_chk_fix_pool_value(c, d, o, fix);
    }
}

void pc_chk_invalid_pool_option(pc_chk_ctx *c)
{
    for (int i = 0; i < c->model->noptions; i++)
        check_option(c, &c->model->options[i]);
    for (size_t i = 0; i < c->in->next_opts; i++)
        check_option(c, &c->in->ext_opts[i]);
}
