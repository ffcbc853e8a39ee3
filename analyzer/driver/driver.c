/* driver.c - one file through the whole pipeline: frontend -> config -> analysis -> checks.
 * The CLI, the LSP server and the compiler launcher all call pc_check_file, so they agree. */
#define _POSIX_C_SOURCE 200809L
#include "poolcheck/driver.h"
#include "support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    case PC_MSG_ERROR: return PC_SEV_ERROR;
    case PC_MSG_WARNING: return PC_SEV_WARNING;
    default: return PC_SEV_NOTE;
    }
}

pc_file_result *pc_check_file(pc_frontend *fe, const char *path, const char *text, size_t len,
                              const pc_check_opts *opts, char **err)
{
    pc_check_opts defaults;
    if (!opts) {
        pc_check_opts_init(&defaults);
        opts = &defaults;
    }
    /* an out-of-memory message from here on names the file (support.h) */
    const char *outer = pc_mem_oom_context(path);
    pc_diag_sink *sink = pc_diag_sink_new();
    if ((opts->checks && !pc_diag_set_checks(sink, opts->checks, err)) ||
        (opts->werror && !pc_diag_set_werror(sink, opts->werror, err))) {
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
        /* Every warning and note goes through a check, so it can be selected, suppressed and
         * promoted: its own (PC013, PC014, PC018), else PC012 for a warning (each says what part
         * of the kernel is left out or read approximately) and PC019 for a note.  Errors of the
         * source itself (a syntax error, clang's errors) are no check's: like a compiler's, they
         * are always reported. */
        const char *id = msg->check;
        if (!id && msg->kind == PC_MSG_WARNING)
            id = "PC012";
        else if (!id && msg->kind == PC_MSG_NOTE)
            id = "PC019";
        int check = id ? pc_chk_find(id) : -1;
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
    in.sets = opts->analysis.binding_sets;
    in.nsets = opts->analysis.nbinding_sets;
    pc_lint(sink, &in);
    pc_diag_report_unused_suppressions(sink);
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
