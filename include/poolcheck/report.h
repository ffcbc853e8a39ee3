/*
 * poolcheck/report.h - everything poolcheck writes for people and tools: kernel summaries,
 * diagnostics in text / JSON / SARIF / GitHub form, emitted runtime configurations, budget plans,
 * fixes, the HTML report.
 */
#ifndef POOLCHECK_REPORT_H
#define POOLCHECK_REPORT_H

#include <stdio.h>

#include "poolcheck/diag.h"
#include "poolcheck/support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pc_format { PC_FMT_TEXT, PC_FMT_JSON, PC_FMT_SARIF, PC_FMT_GITHUB } pc_format;

typedef struct pc_report_opts {
    pc_format format;
    bool color;            /* text: ANSI colours (a terminal, and NO_COLOR unset) */
    bool summary;          /* text: print the per-kernel summary (tensors, depths, bytes) */
    bool verbose;          /* text: also say "no kernel in FILE" */
    const char *base_dir;  /* SARIF/github: paths are made relative to this directory */
    int64_t assemble_headroom;
    /* Added by the report module: */
    FILE *stats;           /* text: "N errors, M warnings generated." and the suppressed count
                              go here (clang-tidy prints them on stderr); NULL = nowhere */
    const char *docs_url;  /* SARIF helpUri base, ending in '/' (PC001.md is appended); NULL = the
                              file:// URI of docs/checks/ in the source tree this was built from */
} pc_report_opts;

/* ---- kernel summaries (report/kernels.c) ------------------------------------------------------ */
/* One kernel object of `check --format=json` (docs/model.md section 12); caller owns the cJSON tree.
 * Declared with void* so this header does not need cJSON. */
void *pc_rep_kernel_json(const pc_result *r, const pc_runtime_config *cfg);
/* The readable per-kernel summary: tensors with pools and file:line, then depths and bytes. */
void pc_rep_kernel_text(FILE *out, const pc_result *r, const pc_runtime_config *cfg, bool color);

/* ---- whole-run output (report/output.c and friends) ------------------------------------------- */
/* Write every file's kernels and diagnostics in the chosen format, as one document. */
/* Formats (docs/model.md 12; clang's text format, SARIF 2.1.0):
 * - text: clang style `file:line:col: severity: message [PC001]` (`[PC006,-warnings-as-errors]`
 *   when promoted), the source line, a caret line and a fix-it line when the fix is on that
 *   line; notes as `file:line:col: note: ...`; then, when o->summary, each kernel's summary.
 * - json: {"version":1, "kernels":[...], "diagnostics":[{file, line, column, end_line, end_column,
 *   severity, check, name, message, kernel, notes, fixes}]}; check/name null for frontend messages.
 * - sarif: 2.1.0, rules from the check table, columnKind "unicodeCodePoints" (byte columns are
 *   converted with the source line), repo-relative URIs with uriBaseId SRCROOT (= base_dir, else
 *   the working directory), partialFingerprints.primaryLocationLineHash, relatedLocations for
 *   notes, fixes.  Frontend messages are toolExecutionNotifications of the run's invocation.
 * - github: workflow commands `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=PC001
 *   zero-depth-pool::message`, notes appended to the message on their own lines.
 * A diagnostic located outside its file (a config file shared by every input) is written once. */
void pc_rep_write(FILE *out, pc_file_result *const *files, size_t nfiles, const pc_report_opts *o);
/* The text format's closing counts ("N errors, M warnings generated.", "Suppressed K ...") for
 * diagnostics counted elsewhere (check -j N adds up its workers' files); nothing when all are 0. */
void pc_rep_write_counts(FILE *stats, size_t errors, size_t warnings, size_t suppressed);

/* ---- one file at a time (report/record.c, stream.c, serialize.c) --------------------------------
 * pc_rep_write is pc_rep_stream_begin, pc_rep_file_new + pc_rep_stream_file per file, then
 * pc_rep_stream_end: each file's part is written when it is given, and nothing of a written file is
 * kept (JSON and SARIF are still one document: its beginning is written by begin, its end by end).
 * A pc_rep_file is what the formats print of one pc_file_result (diagnostics in order, the source
 * lines they show, kernel summaries, status), independent of the model; `check -j N` workers
 * send it to the parent as bytes (pc_rep_file_encode), and the parent writes what
 * pc_rep_file_decode gives back: the output is the same as with one process. */
typedef struct pc_rep_file pc_rep_file;
pc_rep_file *pc_rep_file_new(const pc_file_result *fr);
void pc_rep_file_free(pc_rep_file *f);                 /* NULL is fine */
int pc_rep_file_status(const pc_rep_file *f);          /* 0, 1 error-level findings, 2 not analysed */
/* The record as bytes (freed with pc_mem_free), and back.  decode checks everything it reads:
 * bad bytes give NULL and a message in *err (pc_mem_free), never a crash. */
char *pc_rep_file_encode(const pc_rep_file *f, size_t *len);
pc_rep_file *pc_rep_file_decode(const void *data, size_t len, char **err);

typedef struct pc_rep_stream pc_rep_stream;
pc_rep_stream *pc_rep_stream_begin(FILE *out, const pc_report_opts *o);
void pc_rep_stream_file(pc_rep_stream *s, const pc_rep_file *f);
/* A file that has no record (its analysis stopped): SARIF says executionSuccessful false. */
void pc_rep_stream_failed(pc_rep_stream *s);
/* Write the end and free s.  False when the document could not be completed (its second part's
 * temporary file failed); errors writing `out` itself show in ferror(out). */
bool pc_rep_stream_end(pc_rep_stream *s);

/* ---- emitted configuration (report/emit.c) -------------------------------------------------- */
/* The runtime configuration for every kernel of `files`: the depths are the element-wise maximum
 * over kernels of the suggested depths (predicted, or the bound when unknown, plus `headroom` on
 * a needed assemble pool; never 0 for a needed pool, at most 1024).  kind:
 *   "json"   {"runtime": {"stitch_function_num_per_pool": [64, 2, 1]}}  (no comment: the
 *            runtime section of tile_fwk_config.json takes no extra keys)
 *   "python" `# ...` lines with the bytes saved against the default, then
 *            pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])
 *   "cpp"    `// ...` lines, then
 *            config::SetRuntimeOption("stitch_function_num_per_pool", std::vector<int64_t>{64, 2, 1});
 * Returns a string the caller frees with pc_mem_free, or NULL for an unknown kind. */
char *pc_rep_emit_config(pc_file_result *const *files, size_t n, const char *kind, int64_t headroom);
/* What a configuration emitted for these files cannot promise, one clang-style warning line per
 * kernel with code poolcheck did not model (its suggestion is only a floor): for stderr, since
 * the JSON fragment takes no comment.  "" when there is none; the caller frees it. */
char *pc_rep_emit_caveats(pc_file_result *const *files, size_t n);

/* ---- budget plans (report/plan.c): what `poolcheck plan` writes ---------------------------- */
/* One kernel's plan under a workspace budget (docs/model.md 7), computed by pc_an_plan or
 * pc_an_plan_ex; the CLI fills these and the functions below write them. */
typedef struct pc_log_set pc_log_set;   /* poolcheck/logs.h */
typedef struct pc_rep_plan {
    const pc_kernel *kernel;
    pc_plan plan;
    pc_plan_costs costs;         /* the prices the plan used */
    bool from_logs;              /* started from a run's observed depths, priced with its units */
} pc_rep_plan;
/* The readable form: budget, start depths (suggested, or observed in the logs), with from_logs the
 * logged prices and the first run's nextDepthTotalBytes against them (logs may be NULL), then the
 * plan and what it loses against the predicted depths, or the required depths when it does not fit. */
void pc_rep_plan_text(FILE *out, const pc_rep_plan *p, int64_t budget_kb, const pc_log_set *logs);
/* --format=json: {"version": 1, "budget_kb": N, "plans": [{kernel, file, line, fits, start, depths,
 * bytes, budget_bytes, min_bytes, min_budget_kb, predicted, lost, spare_bytes, extra_root_steps,
 * headroom_dropped, priced_with: "logs"|"analysis", costs: {step_bytes, fixed_bytes,
 * parallelism}}, ...]}. */
void pc_rep_plan_json(FILE *out, const pc_rep_plan *plans, size_t n, int64_t budget_kb);
/* --emit-config=json|python|cpp: the planned depths as a tile_fwk_config.json runtime section, a
 * set_runtime_options call or a SetRuntimeOption call (the last two with a comment line naming the
 * bytes and the budget). */
void pc_rep_plan_emit(FILE *out, const pc_rep_plan *p, const char *kind, int64_t budget_kb);
/* --report=FILE.html: fr's HTML report with each plan's depths, bytes and the budget drawn in
 * (pc_rep_html_write).  Returns 0, or -1 with errno set. */
int pc_rep_plan_html_write(const char *path, pc_file_result *fr, const pc_rep_plan *plans, size_t n,
                           int64_t budget_bytes);

/* ---- fixes (report/fix.c) ------------------------------------------------------------------- */
/* Apply the fixes of fr's diagnostics.  Fixes are taken in diagnostic order; one that overlaps a
 * fix already taken is skipped (an identical duplicate counts once).  dry_run = false: each
 * changed file is rewritten atomically (a temporary file beside it, then rename; the mode is
 * kept).  dry_run = true: a unified diff (`--- a/F`, `+++ b/F`, hunks with 3 lines of context)
 * goes to out instead.  Only the analysed file (fr->model->file) is changed, and only while it
 * still holds the analysed text fr->source; fixes located in other files (a shared
 * tile_fwk_config.json) are skipped with a warning on stderr.
 * Returns the number of fixes applied (or that would be), -1 after an error printed on stderr. */
int pc_rep_apply_fixes(pc_file_result *fr, bool dry_run, FILE *out);

/* ==== HTML report (report/html.c; section owned by the HTML report) ========================== */
/* `--report=FILE.html`: one self-contained page (inline SVG and CSS; no script, no font, nothing
 * fetched; well-formed XHTML syntax) that draws, per kernel, what the analysis computed: the
 * instances in program order coloured by root function with the DeviceTask boundaries and why each
 * task closed; per pool the depth every DeviceTask needs against the configured, predicted and
 * suggested depths (tasks a precise configuration cuts or serialises highlighted); the tensors
 * with pool, bytes and a file:line link; the workspace bytes of the configured / predicted /
 * suggested / default depths on one scale.  Large kernels are binned (the picture says "each cell
 * = N instances").  Optional data from outside the analysis (a run's logs, a budget plan) is drawn
 * on the same axes; it is plain numbers so this module does not depend on the log reader. */

/* One DeviceTask as a run logged it: `[Workspace Runtime Tuning] taskId=.., stitchCount=..,
 * recommendedDepths={rootInner=..,assembleOutcast=..,exclusive=..}`. */
typedef struct pc_rep_html_task_obs {
    int64_t stitch_count;        /* root instances stitched into the task; -1 = not logged */
    int64_t depths[3];           /* the task's recommendedDepths; -1 = not logged */
} pc_rep_html_task_obs;

/* One run (a log file, or one process in it). */
typedef struct pc_rep_html_run {
    const char *label;           /* e.g. "device.log, pid 48211"; NULL = "run N" */
    int64_t observed[3];         /* depths the run observed; -1 = not logged */
    const pc_rep_html_task_obs *tasks; /* in submit (taskId) order; NULL when none logged */
    size_t ntasks;
    bool cut_short;              /* the run logged an Alloc Failure: the observation is a floor */
} pc_rep_html_run;

typedef struct pc_rep_html_extra pc_rep_html_extra;
struct pc_rep_html_extra {
    const char *kernel;          /* name of the kernel this belongs to; NULL = every kernel */
    /* Observed data (poolcheck logs): the runs are combined element-wise by maximum (docs/model.md 11). */
    const pc_rep_html_run *runs;
    size_t nruns;
    /* A budget plan (poolcheck plan): drawn when plan_depths is not NULL. */
    const int64_t *plan_depths;  /* 3 entries */
    int64_t plan_bytes;          /* workspace bytes at plan_depths; -1 = price them with
                                    pc_workspace_bytes (the analysis' own formula) */
    int64_t budget_bytes;        /* the budget the plan fits (max_workspace_kb * 1024); 0 = none */
    const pc_rep_html_extra *next; /* data for another kernel; the first entry that matches a
                                      kernel's name (or has kernel NULL) is used */
};

/* What one file's analysis was given from outside its source, for the report's "Inputs" section
 * (the same facts `check --show-settings` prints; the driver's pc_check_opts after
 * pc_check_opts_layer).  Every pointer is the caller's and may be NULL / 0. */
typedef struct pc_rep_html_file_inputs {
    const char *file;                  /* the analysed file, as pc_model.file names it */
    const char *project_file;          /* the .poolcheck.json in force, or NULL */
    const char *project_how;           /* how it was found: "--config-file", "the nearest .poolcheck.json" */
    const char *config_file;           /* the tile_fwk_config.json in force, or NULL */
    const char *config_how;            /* "--config", or the project file that names it */
    const pc_bindings *sets;           /* pc_analysis_opts.binding_sets / nbinding_sets */
    size_t nsets;
    const char *const *const *binding_sources; /* pc_parse_opts.binding_sources; NULL entries: --bind */
    const pc_option *ext_opts;         /* pc_check_opts.ext_opts / next_opts, in the order they apply */
    size_t next_opts;
} pc_rep_html_file_inputs;

typedef struct pc_rep_html_inputs {
    const char *const *argv;           /* the command line from the subcommand on ("check", ...); */
    size_t argc;                       /* argc 0: not shown */
    const char *cwd;                   /* the directory it ran in, or NULL */
    const pc_rep_html_file_inputs *files; /* one per analysed file, matched to the results by file */
    size_t nfiles;
    int64_t assemble_headroom;         /* of the pasted configuration (pc_rep_emit_config) */
} pc_rep_html_inputs;

/* Write the report of `files` to path ("-" = standard output).  extra may be NULL.  Returns 0,
 * or -1 with errno set (the file could not be created or written). */
int pc_rep_html_write(const char *path, pc_file_result *const *files, size_t nfiles,
                      const pc_rep_html_extra *extra);
/* The same page as a string; the caller frees it with pc_mem_free. */
char *pc_rep_html_render(pc_file_result *const *files, size_t nfiles, const pc_rep_html_extra *extra);
/* The same with the run's inputs (NULL: the section says what it cannot show, the headroom is 1).
 * Every page has an "Inputs" section (id "inputs", after the summary): the command line and the
 * directory, the files analysed with the project and config file of each, every binding of every
 * set with its source (a binding shadowed by an earlier one of its name is marked), the runtime
 * options from outside the source in the order they apply, and "Configuration to paste": the
 * JSON, Python and C++ text pc_rep_emit_config gives for these files (as `check --emit-config`
 * writes it), each in a block one click selects.  Each kernel's section also lists the runtime
 * options in force (pc_runtime_config) with where each was set: default, tile_fwk_config.json,
 * .poolcheck.json, --set, or the source's own call at FILE:LINE. */
char *pc_rep_html_render_inputs(pc_file_result *const *files, size_t nfiles, const pc_rep_html_extra *extra,
                                const pc_rep_html_inputs *inputs);
int pc_rep_html_write_inputs(const char *path, pc_file_result *const *files, size_t nfiles,
                             const pc_rep_html_extra *extra, const pc_rep_html_inputs *inputs);
/* ==== end of the HTML report section ========================================================== */

#ifdef __cplusplus
}
#endif
#endif
