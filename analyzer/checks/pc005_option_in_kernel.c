/*
 * PC005 option-in-kernel (warning): set_runtime_options (or set_options / C++
 * config::SetRuntimeOption) called inside a kernel or a loop body.  Options are read when the kernel
 * is compiled, so the call comes too late for it; the upstream set_runtime_options documentation
 * says not to call it inside pypto.loop or a kernel.  The config module does not apply such calls.
 */
#include "checks/checks_int.h"

void pc_chk_option_in_kernel(pc_chk_ctx *c)
{
    for (int i = 0; i < c->model->noptions; i++) {
        const pc_option *o = &c->model->options[i];
        if (!o->in_kernel)
            continue;
        if (o->site != PC_SITE_SET_RUNTIME_OPTIONS && o->site != PC_SITE_SET_OPTIONS &&
            o->site != PC_SITE_CPP_SET_RUNTIME_OPTION)
            continue; /* jit(...) / options(...) belong to the kernel by design */
        const pc_kernel *kern = (o->kernel >= 0 && o->kernel < c->model->nkernels)
                                    ? &c->model->kernels[o->kernel] : NULL;
        pc_loc at = pc_chk_loc_known(o->loc) ? o->loc : pc_chk_option_loc(o);
        const char *value = pc_cfg_value_text(c->arena, &o->value);
        /* The call as written in the source's language. */
        const char *call = o->site == PC_SITE_CPP_SET_RUNTIME_OPTION
                               ? pc_arena_printf(c->arena, "config::SetRuntimeOption(\"%s\", %s)", o->key, value)
                               : pc_arena_printf(c->arena, "%s(%s=%s)", pc_chk_site_name(o), o->key, value);
        pc_diag *d;
        if (kern)
            d = pc_diag_report(c->sink, PC_CHK_OPTION_IN_KERNEL, at, kern->name,
                               "%s is called inside kernel %s: options are read when the kernel is "
                               "compiled, so it does not apply; call it before the kernel",
                               call, kern->ref);
        else
            d = pc_diag_report(c->sink, PC_CHK_OPTION_IN_KERNEL, at, NULL,
                               "%s is called inside a kernel or loop body: options are read when the "
                               "kernel is compiled, so it does not apply; call it before the kernel",
                               call);
        if (d && kern)
            pc_chk_note_kernel(c, d, kern, at);
    }
}
