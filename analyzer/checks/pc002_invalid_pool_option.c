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
    pc_diag *d = pc_chk_report_invalid_option(c, PC_CHK_INVALID_POOL_OPTION, o);
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
