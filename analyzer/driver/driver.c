/* driver.c - one file through the whole pipeline: frontend -> config -> analysis -> checks.
 * The CLI, the LSP server and the compiler launcher all call pc_check_file, so they agree. */
#define _POSIX_C_SOURCE 200809L
#include "poolcheck/poolcheck.h"
#include "support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pc_version(void)
{
#ifdef POOLCHECK_VERSION
    return POOLCHECK_VERSION;
#else
    return "0";
#endif
}

void pc_check_opts_init(pc_check_opts *o)
{
    memset(o, 0, sizeof *o);
    pc_an_default_opts(&o->analysis);
}

static pc_severity msg_severity(pc_msg_kind k)
{
    switch (k) {
    case PC_MSG_FATAL: return PC_SEV_ERROR;
    case PC_MSG_PARSE_NOISE: return PC_SEV_ERROR;
    case PC_MSG_WARNING: return PC_SEV_WARNING;
    default: return PC_SEV_NOTE;
    }
}

/* A loop whose step is 0 under the bindings never ends: an error of its own (exit 1), not a trip
 * count left unknown.  Upstream's range operation says "stepValue must not be 0" (indexing.cpp)
 * and Python's range() "arg 3 must not be zero"; pypto.loop and LoopRange take the same three
 * numbers.  Each binding set is tried with the kernel's own constants after it; a step naming
 * an outer loop's index is not decided here. */
static void report_zero_steps(pc_diag_sink *sink, const pc_model *m, const pc_check_opts *opts)
{
    size_t nsets = opts->analysis.nsets ? opts->analysis.nsets : 1;
    for (int k = 0; k < m->nkernels; k++) {
        const pc_kernel *kern = &m->kernels[k];
        for (int l = 0; l < kern->nloops; l++) {
            const pc_loop *loop = &kern->loops[l];
            if (!loop->step)
                continue;
            for (size_t i = 0; i < nsets; i++) {
                pc_bindings sets[2] = {{NULL, 0}, {kern->constants, (size_t)kern->nconstants}};
                if (opts->analysis.nsets)
                    sets[0] = opts->analysis.sets[i];
                int64_t step;
                if (!pc_expr_eval(loop->step, sets, 2, &step) || step != 0)
                    continue;
                int64_t literal;
                pc_sb msg = {0};
                pc_sb_printf(&msg, "loop '%s' of kernel '%s': step must not be 0", loop->name ? loop->name : "?",
                             kern->name ? kern->name : "?");
                if (!pc_expr_is_int(loop->step, &literal)) {
                    char *text = pc_expr_to_string(loop->step);
                    pc_sb_printf(&msg, " (the step '%s' is 0 under %s)", text ? text : "?",
                                 opts->analysis.nsets > 1 ? "one of the binding sets" : "the bindings");
                    pc_mem_free(text);
                }
                pc_sb_append(&msg, ", so the loop would never end");
                pc_diag_message(sink, PC_SEV_ERROR, loop->loc.line ? loop->loc : kern->loc, msg.data);
                pc_sb_free(&msg);
                break;
            }
        }
    }
}

pc_file_result *pc_check_file(pc_frontend *fe, const char *path, const char *text, size_t len,
                              const pc_check_opts *opts, const char **err)
{
    pc_check_opts defaults;
    if (!opts) {
        pc_check_opts_init(&defaults);
        opts = &defaults;
    }
    /* an out-of-memory message from here on names the file (support.h) */
    const char *outer = pc_mem_oom_context(path);
    pc_diag_sink *sink = pc_diag_sink_new();
    const char *why = NULL;
    if ((opts->checks && !pc_diag_set_checks(sink, opts->checks, &why)) ||
        (opts->werror && !pc_diag_set_werror(sink, opts->werror, &why))) {
        /* The sink's message dies with its arena: copy it to this thread's buffer, valid until
         * the thread's next pc_check_file (per-thread, like the allocation counters). */
        static _Thread_local char err_buf[512];
        snprintf(err_buf, sizeof err_buf, "%s", why ? why : "invalid check selection");
        if (err)
            *err = err_buf;
        pc_diag_sink_free(sink);
        pc_mem_oom_context(outer);
        return NULL;
    }
    pc_file_result *fr = pc_mem_calloc(1, sizeof *fr);
    fr->sink = sink;
    /* Keep the analysed text for carets, suppression comments and fixes. */
    if (text) {
        fr->source = pc_mem_strndup(text, len);
        fr->source_len = len;
    } else {
        fr->source = pc_read_file(path, &fr->source_len, NULL);
    }
    fr->model = pc_frontend_parse(fe, path, text, len, &opts->parse);
    pc_model *m = fr->model;
    if (fr->source)
        pc_diag_set_source(sink, path, fr->source, fr->source_len, m->lang);

    for (int i = 0; i < m->nmessages; i++) {
        const pc_message *msg = &m->messages[i];
        if (msg->kind == PC_MSG_PARSE_NOISE && !opts->show_parse_errors)
            continue;
        /* a note with a check id (PC013, PC014) goes through the check: selection, NOLINT/noqa */
        int check = msg->check ? pc_chk_find(msg->check) : -1;
        if (check >= 0)
            pc_diag_report(sink, check, msg->loc, NULL, "%s", msg->text);
        else
            pc_diag_message(sink, msg_severity(msg->kind), msg->loc, msg->text);
    }
    if (m->fatal) {
        pc_mem_oom_context(outer);
        return fr;
    }

    size_t nk = (size_t)m->nkernels;
    fr->results = pc_mem_calloc(nk ? nk : 1, sizeof(pc_result *));
    fr->cfgs = pc_mem_calloc(nk ? nk : 1, sizeof(pc_runtime_config));
    /* Options from outside the source: config files first, the command line last. */
    size_t nfile = 0;
    while (nfile < opts->next_opts && opts->ext_opts[nfile].site != PC_SITE_COMMAND_LINE)
        nfile++;
    /* No external options: ext_opts may be NULL, and NULL + 0 is undefined behaviour in C. */
    const pc_option *cli_opts = opts->ext_opts ? opts->ext_opts + nfile : NULL;
    for (int kidx = 0; kidx < m->nkernels; kidx++) {
        pc_cfg_resolve(&fr->cfgs[kidx], m, kidx, opts->ext_opts, nfile, cli_opts, opts->next_opts - nfile);
        fr->results[kidx] = pc_analyze(m, kidx, &fr->cfgs[kidx], &opts->analysis);
    }
    pc_lint_input in = {0};
    in.model = m;
    in.results = fr->results;
    in.cfgs = fr->cfgs;
    in.ext_opts = opts->ext_opts;
    in.next_opts = opts->next_opts;
    in.assemble_headroom = opts->analysis.assemble_headroom;
    pc_lint(sink, &in);
    report_zero_steps(sink, m, opts);
    pc_mem_oom_context(outer);
    return fr;
}

void pc_file_result_free(pc_file_result *fr)
{
    if (!fr)
        return;
    if (fr->model)
        for (int i = 0; i < fr->model->nkernels; i++)
            if (fr->results)
                pc_result_free(fr->results[i]);
    pc_mem_free(fr->results);
    pc_mem_free(fr->cfgs);
    pc_diag_sink_free(fr->sink);
    pc_model_free(fr->model);
    pc_mem_free(fr->source);
    pc_mem_free(fr);
}
