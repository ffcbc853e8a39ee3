/*
 * poolcheck/diag.h - checks and the one diagnostics sink every check reports through.
 *
 * Severity promotion (--warnings-as-errors), selection (--checks), suppression (NOLINT / noqa)
 * and caps all happen in the sink, nowhere else (sparse's habit).  The check table is the single
 * registry: --list-checks, SARIF rules and docs are generated from it.
 */
#ifndef POOLCHECK_DIAG_H
#define POOLCHECK_DIAG_H

#include <stdio.h>

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"
#include "poolcheck/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pc_severity { PC_SEV_NOTE = 0, PC_SEV_WARNING = 1, PC_SEV_ERROR = 2 } pc_severity;
const char *pc_severity_name(pc_severity s);

typedef struct pc_note { pc_loc loc; const char *message; } pc_note;
typedef struct pc_fix { pc_loc range; const char *replacement; } pc_fix; /* range end exclusive */

typedef struct pc_diag {
    int check;               /* index in the check table; -1 for frontend messages */
    const char *id;          /* "PC001" (NULL for frontend messages) */
    const char *name;        /* "zero-depth-pool" */
    pc_severity severity;    /* after promotion */
    bool promoted;           /* a warning made an error by --warnings-as-errors */
    pc_loc loc;
    const char *kernel;      /* kernel name or NULL */
    const char *message;     /* one line that stands alone */
    pc_note *notes; int nnotes;
    pc_fix *fixes; int nfixes;
} pc_diag;

typedef struct pc_check_info {
    const char *id;          /* "PC001" */
    const char *name;        /* "zero-depth-pool" */
    pc_severity severity;
    const char *summary;     /* one line */
    /* Added by the checks module (SARIF fullDescription / help, docs index): */
    const char *description; /* a few sentences: what it finds and why it matters */
    const char *remedy;      /* a few sentences: what to do about it */
} pc_check_info;

const pc_check_info *pc_chk_table(size_t *count);
int pc_chk_find(const char *id_or_name);   /* index or -1; accepts "PC001", "zero-depth-pool",
                                              "poolcheck-zero-depth-pool" (case-insensitive) */
/* Does the glob (`*`, `?`; case-insensitive) match check `check` by id, name or
 * "poolcheck-"name? */
bool pc_chk_glob_matches(const char *glob, int check);
/* The docs index (docs/checks/index.md) generated from the table; caller frees (pc_mem_free). */
char *pc_chk_docs_index(void);
/* `--list-checks`: one line per check, "PC001  zero-depth-pool  error  summary". */
void pc_chk_list(FILE *out);

typedef struct pc_diag_sink pc_diag_sink;

pc_diag_sink *pc_diag_sink_new(void);
void pc_diag_sink_free(pc_diag_sink *s);
/* Selection: comma-separated globs of ids or names, '-' negates, later wins
 * ("PC*,-PC009").  The starting set is every check when the first glob is a negation
 * ("-PC009" = all but PC009), else none ("PC001" = only PC001).  Returns false with *err
 * (pc_mem_free it) for a glob that matches no check; the selection is then unchanged.  The same
 * grammar for --warnings-as-errors (starting set: none), which makes warnings of matching checks
 * errors, tagged `[PC006,-warnings-as-errors]` in text. */
bool pc_diag_set_checks(pc_diag_sink *s, const char *globs, char **err);
bool pc_diag_set_werror(pc_diag_sink *s, const char *globs, char **err);
void pc_diag_set_max(pc_diag_sink *s, int max_per_file);    /* 0 = no cap */
/* Source text of a file, for NOLINT / noqa suppression (the sink keeps a copy).  Grammar, in
 * any language: `NOLINT`, `NOLINT(PC001, zero-depth-pool, PC00*)`, `NOLINTNEXTLINE(...)`,
 * `NOLINTBEGIN(...)` ... `NOLINTEND(...)` (clang-tidy's), and `noqa`, `noqa: PC001 PC002`
 * (ruff's; case-insensitive).  A bare form suppresses every check on its line(s).  Names may be
 * ids, names or "poolcheck-"names; unknown names are ignored (they belong to other tools).
 * A NOLINTBEGIN without its NOLINTEND (or the reverse) suppresses nothing and is reported as
 * PC020 at the comment.  Call before reporting. */
void pc_diag_set_source(pc_diag_sink *s, const char *file, const char *text, size_t len, pc_lang lang);
/* PC020 (ruff's RUF100): after every finding of the file has been reported, each name of a
 * suppression comment that is one of poolcheck's checks (selected) and suppressed no finding, and
 * each name that looks like poolcheck's (PC + digits, poolcheck-...) but names no check.  Bare
 * forms and other tools' names are never judged. */
void pc_diag_report_unused_suppressions(pc_diag_sink *s);

/* Report.  fmt is printf-style; notes and fixes are attached with the two calls below, to the
 * diagnostic just reported (dropped silently if that one was filtered). Returns the diag or NULL
 * when it was filtered (unselected, suppressed, capped).  The pointer is valid until the next
 * report (diagnostics live in one growable array); strings are copied into the sink. */
pc_diag *pc_diag_report(pc_diag_sink *s, int check, pc_loc loc, const char *kernel,
                        const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void pc_diag_note(pc_diag_sink *s, pc_diag *d, pc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pc_diag_fix(pc_diag_sink *s, pc_diag *d, pc_loc range, const char *replacement);
/* A frontend message as a diagnostic (no check id).  Messages and notes are kept on one line:
 * CR, LF and tabs in them become blanks. */
pc_diag *pc_diag_message(pc_diag_sink *s, pc_severity sev, pc_loc loc, const char *text);

const pc_diag *pc_diag_items(const pc_diag_sink *s, size_t *count);
size_t pc_diag_count(const pc_diag_sink *s, pc_severity sev);
size_t pc_diag_suppressed(const pc_diag_sink *s);
/* Diagnostics dropped because the per-file cap was reached. */
size_t pc_diag_capped(const pc_diag_sink *s);
/* Is check `check` selected (--checks)? */
bool pc_diag_selected(const pc_diag_sink *s, int check);
/* The source text given to pc_diag_set_source for `file` (NULL when none). */
const char *pc_diag_source(const pc_diag_sink *s, const char *file, size_t *len, pc_lang *lang);

/* Run every selected check on one analysed file. results[i] belongs to m->kernels[i]; cfgs[i] is
 * that kernel's effective configuration.  file_opts are options from tile_fwk_config.json /
 * .poolcheck.json / --set (validated here too). */
/* One analysed file: what the driver (driver.h) produces and the reports print. */
typedef struct pc_file_result {
    pc_model *model;             /* never NULL; model->fatal when it could not be parsed */
    pc_result **results;         /* one per kernel */
    pc_runtime_config *cfgs;     /* one per kernel */
    pc_diag_sink *sink;          /* every diagnostic for this file, frontend messages included */
    char *source;                /* the text analysed (for carets, fixes, suppression) */
    size_t source_len;
} pc_file_result;

typedef struct pc_lint_input {
    const pc_model *model;
    pc_result *const *results;
    const pc_runtime_config *cfgs;
    const pc_option *ext_opts; size_t next_opts;
    int64_t assemble_headroom;
    /* the binding sets the kernels were analysed under (none: nsets 0), for the checks that
     * evaluate the model's expressions themselves (PC017) */
    const pc_bindings *sets; size_t nsets;
} pc_lint_input;

void pc_lint(pc_diag_sink *s, const pc_lint_input *in);

#ifdef __cplusplus
}
#endif
#endif
