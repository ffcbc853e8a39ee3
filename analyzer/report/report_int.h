/*
 * report_int.h - internal header of the report module (analyzer/report/).
 *
 *   kernels.c   per-kernel JSON object and text summary (the lead's)
 *   output.c    the text format
 *   record.c    pc_rep_file: one file's results as the formats print them (record.h)
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

/* The formats write one file's part of a stream at a time: report/record.h. */

#endif
