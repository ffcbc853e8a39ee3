/*
 * PC003 invalid-runtime-option (error): another runtime option (stitch_function_max_num,
 * max_workspace_kb, device_sched_parallelism) out of its range or of the wrong type, in the source,
 * a config file or --set.  Validation and its wording are the config module's (pc_cfg_validate);
 * keys poolcheck does not model are valid there.
 */
#include "checks/checks_int.h"

#include <string.h>

static void check_option(pc_chk_ctx *c, const pc_option *o)
{
    if (!o->key || strcmp(o->key, PC_KEY_POOL) == 0)
        return; /* PC002's */
    pc_chk_report_invalid_option(c, PC_CHK_INVALID_RUNTIME_OPTION, o);
}

void pc_chk_invalid_runtime_option(pc_chk_ctx *c)
{
    for (int i = 0; i < c->model->noptions; i++)
        check_option(c, &c->model->options[i]);
    for (size_t i = 0; i < c->in->next_opts; i++)
        check_option(c, &c->in->ext_opts[i]);
}
