/*
 * poolcheck/poolcheck.h - libpoolcheck's umbrella header and its one-call driver.
 *
 * The driver runs the whole pipeline for one file: source -> frontend -> model -> analysis ->
 * checks.  The CLI, the LSP server and the compiler launcher all go through it, so they agree.
 */
#ifndef POOLCHECK_POOLCHECK_H
#define POOLCHECK_POOLCHECK_H

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"
#include "poolcheck/diag.h"
#include "poolcheck/frontend.h"
#include "poolcheck/model.h"

#ifdef __cplusplus
extern "C" {
#endif

const char *pc_version(void);

/* Everything that shapes one file's analysis; the caller owns every pointer. */
typedef struct pc_check_opts {
    pc_parse_opts parse;
    pc_analysis_opts analysis;
    const pc_option *ext_opts;   /* tile_fwk_config.json / .poolcheck.json / --set, in that order */
    size_t next_opts;
    const char *checks;          /* --checks globs, NULL = all */
    const char *werror;          /* --warnings-as-errors globs, NULL = none */
    bool show_parse_errors;      /* clang's own errors in stub mode */
} pc_check_opts;

void pc_check_opts_init(pc_check_opts *o);

typedef struct pc_file_result {
    pc_model *model;             /* never NULL; model->fatal when it could not be parsed */
    pc_result **results;         /* one per kernel */
    pc_runtime_config *cfgs;     /* one per kernel */
    pc_diag_sink *sink;          /* every diagnostic for this file, frontend messages included */
    char *source;                /* the text analysed (for carets, fixes, suppression) */
    size_t source_len;
} pc_file_result;

/* Analyse one file (text != NULL: the unsaved buffer).  Never NULL.  Returns errors of the
 * configuration itself (a bad --checks glob) in *err and NULL. */
pc_file_result *pc_check_file(pc_frontend *fe, const char *path, const char *text, size_t len,
                              const pc_check_opts *opts, const char **err);
void pc_file_result_free(pc_file_result *fr);

#ifdef __cplusplus
}
#endif
#endif
