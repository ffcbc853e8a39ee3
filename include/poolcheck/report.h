/*
 * poolcheck/report.h - everything poolcheck writes for people and tools: kernel summaries,
 * diagnostics in text / JSON / SARIF / GitHub form, emitted runtime configurations, fixes.
 */
#ifndef POOLCHECK_REPORT_H
#define POOLCHECK_REPORT_H

#include <stdio.h>

#include "poolcheck/poolcheck.h"

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
} pc_report_opts;

/* ---- kernel summaries (report/kernels.c) ------------------------------------------------------ */
/* One kernel object of `check --format=json` (model.md section 12); caller owns the cJSON tree.
 * Declared with void* so this header does not need cJSON. */
void *pc_rep_kernel_json(const pc_result *r, const pc_runtime_config *cfg);
/* The readable per-kernel summary: tensors with pools and file:line, then depths and bytes. */
void pc_rep_kernel_text(FILE *out, const pc_result *r, const pc_runtime_config *cfg, bool color);

/* ---- whole-run output (report/output.c and friends) ------------------------------------------- */
/* Write every file's kernels and diagnostics in the chosen format, as one document. */
void pc_rep_write(FILE *out, pc_file_result *const *files, size_t nfiles, const pc_report_opts *o);

#ifdef __cplusplus
}
#endif
#endif
