/*
 * PC017 zero-loop-step (error): a loop whose step is 0 under the bindings never ends.  Upstream's
 * range operation says "stepValue must not be 0" (indexing.cpp) and Python's range() "arg 3 must
 * not be zero"; pypto.loop and LoopRange take the same three numbers.  Each binding set is tried
 * with the kernel's own constants after it; a step naming an outer loop's index is not decided
 * here (it evaluates to nothing without that index).
 */
#include "checks/checks_int.h"

static void judge_loop(pc_chk_ctx *c, const pc_kernel *kern, const pc_loop *loop)
{
    const pc_lint_input *in = c->in;
    size_t nsets = in->nsets ? in->nsets : 1;
    for (size_t i = 0; i < nsets; i++) {
        pc_bindings sets[2] = {{NULL, 0}, {kern->constants, (size_t)kern->nconstants}};
        if (in->nsets)
            sets[0] = in->sets[i];
        int64_t step;
        if (!pc_expr_eval(loop->step, sets, 2, &step) || step != 0)
            continue;
        pc_sb msg = {0};
        pc_sb_printf(&msg, "loop '%s' of kernel %s: step must not be 0", loop->name ? loop->name : "?",
                     kern->ref);
        int64_t literal;
        if (!pc_expr_is_int(loop->step, &literal)) {
            char *text = pc_expr_to_string(loop->step);
            pc_sb_printf(&msg, " (the step '%s' is 0 under %s)", text ? text : "?",
                         in->nsets > 1 ? "one of the binding sets" : "the bindings");
            pc_mem_free(text);
        }
        pc_sb_append(&msg, ", so the loop would never end");
        pc_diag_report(c->sink, PC_CHK_ZERO_LOOP_STEP, loop->loc.line ? loop->loc : kern->loc, kern->name, "%s",
                       msg.data);
        pc_sb_free(&msg);
        return;
    }
}

void pc_chk_zero_loop_step(pc_chk_ctx *c)
{
    for (int k = 0; k < c->model->nkernels; k++) {
        const pc_kernel *kern = &c->model->kernels[k];
        for (int l = 0; l < kern->nloops; l++)
            if (kern->loops[l].step)
                judge_loop(c, kern, &kern->loops[l]);
    }
}
