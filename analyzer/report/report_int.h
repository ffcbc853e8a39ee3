/*
 * report_int.h - internal header of the report module (analyzer/report/).
 *
 *   kernels.c   per-kernel JSON object and text summary (the lead's)
 *   output.c    the text format
 *   record.c    pc_rep_file: one file's results as the formats print them
 *   serialize.c pc_rep_file_encode / pc_rep_file_decode (check -j N workers to the parent)
 *   stream.c    pc_rep_write and pc_rep_stream: every format written one file at a time
 *   json.c      --format=json
 *   sarif.c     --format=sarif (SARIF 2.1.0)
 *   github.c    --format=github (workflow commands)
 *   emit.c      pc_rep_emit_config
 *   plan.c      what `poolcheck plan` writes: pc_rep_plan_text / _json / _emit / _html_write
 *   fix.c       pc_rep_apply_fixes: in place or as a unified diff
 *   html.c      pc_rep_html_write / pc_rep_html_render: the HTML report
 *   source.c    what several formats share: source lines, columns, paths, duplicates
 */
#ifndef POOLCHECK_REPORT_INT_H
#define POOLCHECK_REPORT_INT_H

#include "poolcheck/report.h"
#include "support/support.h"

/* ---- source.c --------------------------------------------------------------------------------- */

/* Source texts by file for one write: the analysed file's own text (fr->source), texts the sink
 * was given, else the file read from disk (once). */
typedef struct pc_rep_src { char *file; char *text; size_t len; bool missing; } pc_rep_src;
typedef struct pc_rep_sources { PC_VEC(pc_rep_src) items; } pc_rep_sources;

const char *pc_rep_source(pc_rep_sources *s, const pc_file_result *fr, const char *file, size_t *len);
void pc_rep_sources_free(pc_rep_sources *s);

/* Line `line` (1-based) of text, without its newline (nor a CR before it).  False when absent. */
bool pc_rep_line(const char *text, size_t len, uint32_t line, const char **start, size_t *n);
/* Byte column (1-based) -> Unicode code point column on that line (1-based). */
uint32_t pc_rep_cp_column(const char *line, size_t n, uint32_t byte_col);

/* The order diagnostics are written in: by file (unlocated ones first, as they concern the whole
 * run), line and column, report order among equals.  Returns n indices into the sink's items;
 * caller frees. */
size_t *pc_rep_order(const pc_file_result *fr, size_t *n);

/* Was the same diagnostic (same check, location and message) already written for an earlier file?
 * Only diagnostics located outside their own file (a config file, --set) can repeat. */
bool pc_rep_repeated(pc_file_result *const *files, size_t fi, size_t di);

/* The path of `file` relative to `base` (NULL = the working directory) when it lies beneath it,
 * with `/` separators and no "./"; *inside = false and the absolute path otherwise.  Caller frees. */
char *pc_rep_relative_path(const char *file, const char *base, bool *inside);
/* The absolute, normalised form of a path (no "." / ".." components).  Caller frees. */
char *pc_rep_absolute_path(const char *path);
/* Percent-encode a path for a URI (RFC 3986: unreserved characters and '/' stay). */
void pc_rep_uri_escape(pc_sb *b, const char *path);

/* ---- record.c, serialize.c, stream.c ---------------------------------------------------------
 *
 * One file's results as the output formats print them (report/record.c), their
 * serialisation (report/serialize.c) and the streaming writer (report/stream.c).
 *
 * A pc_rep_file holds everything the text, JSON, SARIF and GitHub formats read of a
 * pc_file_result, and nothing else: the diagnostics in the order they are written, the source
 * lines their carets, columns and fingerprints need, the kernel summaries, the file's status.
 * It does not point into the model, the analysis or the sink, so it can travel from a `check -j N`
 * worker process to the parent (pc_rep_file_encode / pc_rep_file_decode) and be written there
 * exactly as it would have been in the worker: every format renders a pc_rep_file, whichever
 * process built it.  It lives in one arena and is freed as soon as it is written.
 */

/* A source line a diagnostic, note or fix points at ("file", 1-based line). */
typedef struct pc_rep_srcline { const char *file; uint32_t line; const char *text; size_t len; } pc_rep_srcline;

typedef struct pc_rep_tensor {
    const char *label, *variable, *kind, *pool;
    const char *file;           /* the tensor's own location file, NULL when it has none */
    uint32_t line, col;
    int64_t bytes, aligned_bytes;
    int64_t pieces; const char *pieces_text; /* pieces_text NULL: one piece */
    const char *reason;         /* NULL: none */
} pc_rep_tensor;

typedef struct pc_rep_root {
    const char *name, *loop;    /* loop NULL: the kernel body */
    int64_t unroll_factor, instances, inner_bytes, excl_bytes;
    int64_t lowered_bytes;      /* pc_root_result's: root_inner bytes upstream's lowering adds */
    const char *lowered_what;
    uint32_t line;
} pc_rep_root;

typedef struct pc_rep_why_root { const char *name, *loop; int64_t instances; } pc_rep_why_root;

typedef struct pc_rep_why {
    int64_t task, first_instance, last_instance; /* task -1: the pool is not needed */
    pc_rep_why_root *roots; size_t nroots;
    const char **tensors; size_t ntensors;
} pc_rep_why;

/* A kernel's summary (pc_rep_kernel_json, pc_rep_kernel_text). */
typedef struct pc_rep_kernel {
    const char *name;
    const char *scope;          /* the TEST (Suite.Name) or host function it is defined in, or NULL */
    const char *title;          /* name, or "name in SCOPE" when another kernel of the file shares the name */
    const char *file;           /* the kernel's location file, NULL when it has none */
    const char *model_file;     /* the analysed file */
    uint32_t line;
    int64_t predicted[3], required[3], suggested[3], configured[3], bounds[3];
    const char *formulas[3];
    bool precise, truncated;
    int64_t k, parallelism, instances, device_tasks, instance_limit;
    pc_rep_tensor *tensors; size_t ntensors;
    pc_rep_root *roots; size_t nroots;
    pc_rep_why why[3];
    int64_t unit_inner, unit_excl, slot_size, n_assemble, n_exclusive;
    int64_t ws_predicted, ws_suggested, ws_required, ws_default, ws_configured;
    const char **unknowns; size_t nunknowns;
} pc_rep_kernel;

struct pc_rep_file {
    pc_arena *arena;
    const char *file;           /* the analysed file (NULL: none) */
    bool fatal;                 /* the file could not be analysed */
    bool no_kernel;             /* analysed, and it holds no kernel (--verbose says so) */
    uint64_t errors;            /* error-level diagnostics (the exit status), written or not */
    uint64_t capped, suppressed;
    pc_diag *diags; size_t ndiags;          /* in the order they are written (pc_rep_order) */
    pc_rep_srcline *lines; size_t nlines;
    pc_rep_kernel *kernels; size_t nkernels;
};

/* The summary of one analysed kernel, allocated in a. */
void pc_rep_kernel_from_result(pc_rep_kernel *out, const pc_result *r, pc_arena *a);
void *pc_rep_kernel_summary_json(const pc_rep_kernel *k);   /* a cJSON object */
void pc_rep_kernel_summary_text(FILE *out, const pc_rep_kernel *k, bool color);

/* Line `line` of `file` as recorded (false when the file or the line could not be read). */
bool pc_rep_file_line(const pc_rep_file *f, const char *file, uint32_t line, const char **start, size_t *n);

/* ---- the formats' parts (stream.c calls them in file order) ------------------------------------
 * skip[i]: diagnostic i of f was already written for an earlier file (a shared config file's). */
void pc_rep_text_file(FILE *out, const pc_report_opts *o, const pc_rep_file *f, const bool *skip, size_t counts[3]);
void pc_rep_github_file(FILE *out, const pc_report_opts *o, const pc_rep_file *f, const bool *skip);

/* JSON and SARIF are one document: its text around the per-file items, split at markers. */
char *pc_rep_json_skeleton(const pc_report_opts *o);  /* "\x01K" kernels, "\x01D" diagnostics */
char *pc_rep_sarif_skeleton(const pc_report_opts *o); /* "\x01R" results, "\x01S" success, "\x01N" notifications */
/* Each item is a cJSON tree the caller prints and frees. */
void *pc_rep_json_diag(const pc_diag *d);

/* SARIF occurrence numbers: how many results with this fingerprint hash came before, + 1. */
typedef struct pc_rep_counts pc_rep_counts;
void *pc_rep_sarif_result(const pc_report_opts *o, const pc_rep_file *f, const pc_diag *d, pc_rep_counts *occ);
void *pc_rep_sarif_notification(const pc_report_opts *o, const pc_rep_file *f, const pc_diag *d);
size_t pc_rep_counts_bump(pc_rep_counts *c, uint64_t key); /* previous count + 1 */

#endif
