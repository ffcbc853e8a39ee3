/*
 * poolcheck/logs.h - reading the runtime's Workspace INFO logs and checking a prediction
 * against them (spec docs/model.md section 11; formats: docs/model.md section 11 and examples/logs/).
 *
 * A pc_log_set collects runs from any number of sources (files, directories, stdin, memory).
 * The scanner streams: it holds one fixed-size buffer per source whatever the file size, finds
 * lines by their tag anywhere on the line (`[Workspace Runtime Pool|Tuning|Summary|
 * Recommendation|Alloc Failure]`, `[workspaceSize]`), reads `key=value` / `key={...}` groups by
 * name, and skips (and counts) what it cannot read: lines longer than the buffer, binary lines,
 * tagged lines that are cut short or malformed.  gzip input is recognised by its magic bytes.
 *
 * A run is one source file, or one process (`(pid,` in the CANN header) inside a file; simulator
 * logs carry no pid and are one run per file.  After pc_log_finish() every run holds the depths
 * the runtime recommended and the depths observed from the logged peaks, and the set holds their
 * element-wise maximum over all runs.
 */
#ifndef POOLCHECK_LOGS_H
#define POOLCHECK_LOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "poolcheck/analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pc_log_opts {
    /* Scan buffer size: also the longest line read (longer lines are skipped and counted).
     * 0 = default (1 MiB).  Values below 4 KiB are raised to 4 KiB. */
    size_t buffer_bytes;
    /* Added for the per-DeviceTask list (additive): the most DeviceTasks kept per run in
     * pc_log_run.tasks; the Tuning lines past it are counted in tasks_dropped, not stored.
     * 0 = default (PC_LOG_DEFAULT_MAX_TASKS). */
    size_t max_tasks;
} pc_log_opts;

/* 1,000,000 tasks x sizeof(pc_log_task) = 40 MB per run at most. */
#define PC_LOG_DEFAULT_MAX_TASKS 1000000u

/* One DeviceTask as its `[Workspace Runtime Tuning] taskId=.., stitchCount=..,
 * recommendedDepths={...}` line (LogTuningUsage, once per submitted DeviceTask) logged it. */
typedef struct pc_log_task {
    int64_t task_id;             /* taskId (restarts at 0 with every launch); -1 = not logged */
    int64_t stitch_count;        /* root instances stitched into the task */
    int64_t recommended[3];      /* the task's recommendedDepths */
} pc_log_task;

/* One `[Workspace Runtime Alloc Failure] reason=...` line: parallelism was cut by memory. */
typedef struct pc_log_failure {
    const char *reason;          /* as logged: exclusive-outcast, inner-temporal-outcast,
                                    runtime-outcast-metadata; "unknown" when the line has none */
    int64_t line;                /* 1-based line in the (decompressed) source */
} pc_log_failure;

typedef struct pc_log_run {
    const char *source;          /* file path as given, "<stdin>" for "-" */
    int64_t pid;                 /* from the CANN header `MODULE(pid,...)`; -1 = none */
    int64_t first_line;          /* line of the run's first recognised line */

    /* Depths as printed: the last Recommendation line's recommendedDepths, else the maximum
     * over the Tuning lines; -1 where nothing was logged. */
    int64_t recommended[3];
    bool recommended_final;      /* true: from a Recommendation line */
    /* Depths derived from the logged peaks (docs/model.md 11): root_inner and exclusive =
     * ceil(peak bytes / unit bytes) with the units of rawPerParallelBytes, assemble =
     * ceil(peakSlots / (capacitySlots / actualDepths.innerTemporal)); maximum over the launches
     * in the run; -1 where no peak was logged. */
    int64_t observed[3];

    int64_t device_tasks;        /* Tuning lines (one per submitted DeviceTask) */
    int64_t max_stitch_count;    /* largest stitchCount; -1 without Tuning lines */
    int64_t launches;            /* Recommendation lines (one per kernel launch) */

    /* From the last Recommendation line (-1 = not logged). */
    int64_t actual_depths[3];    /* actualDepths (configuredDepths of Tuning when no Recommendation) */
    int64_t raw_per_parallel[3]; /* rawPerParallelBytes {rootInner, innerTemporal, exclusive} */
    int64_t next_depth_bytes[3]; /* nextDepthTotalBytes {rootInner, assembleOutcast, exclusive} */
    int64_t parallelism;
    /* Units the observed depths were derived with (-1 unknown): bytes per root_inner and
     * exclusive depth, assemble slots per depth. */
    int64_t units[3];

    /* From the compile/launch-time `[workspaceSize]` lines (-1 = not logged). */
    int64_t boundary_slots;      /* devTaskBoundaryOutcastNum / OutcastSlots: boundary= */
    int64_t slot_bytes;          /* MaxOutcastMem(): Tensor:... slotted=<bytes>x<slots> */
    int64_t min_workspace_kb;    /* minimum runnable workspace of a refused max_workspace_kb */

    int64_t workspace_lines;     /* [Workspace Runtime ...] lines read */
    int64_t size_lines;          /* [workspaceSize] lines read */
    pc_log_failure *failures;
    size_t nfailures;

    /* Added (additive): every DeviceTask of the run, in submit order (the order of its Tuning
     * lines, launch after launch).  At most pc_log_opts.max_tasks entries; tasks_dropped counts
     * the Tuning lines read past that cap (ntasks + tasks_dropped == device_tasks).  Owned by the
     * set, freed by pc_log_free; NULL when ntasks is 0. */
    pc_log_task *tasks;
    size_t ntasks;
    int64_t tasks_dropped;
} pc_log_run;

typedef struct pc_log_stats {
    int64_t files;               /* sources scanned */
    int64_t bytes;               /* bytes scanned (after decompression) */
    int64_t lines;
    int64_t workspace_lines, size_lines;
    int64_t long_lines;          /* longer than the scan buffer */
    int64_t binary_lines;        /* lines with a NUL byte, tagged lines with control bytes */
    int64_t malformed_lines;     /* tagged lines cut short or missing a field */
    int64_t skipped_lines;       /* long + binary + malformed */
} pc_log_stats;

/* A problem with one source that did not stop the scan (corrupt or truncated gzip data). */
typedef struct pc_log_msg {
    const char *source;
    const char *text;
} pc_log_msg;

typedef struct pc_log_set {
    pc_arena *arena;
    pc_log_run *runs;            /* valid after pc_log_finish(), in order of first appearance */
    size_t nruns;
    int64_t recommended[3];      /* element-wise maximum over runs; -1 where no run has one */
    int64_t observed[3];
    bool cut_short;              /* some run logged an Alloc Failure */
    pc_log_stats stats;
    pc_log_msg *warnings;
    size_t nwarnings;
    struct pc_log_state *state;  /* internal */
} pc_log_set;

pc_log_set *pc_log_new(const pc_log_opts *opts);  /* opts may be NULL */
void pc_log_free(pc_log_set *s);

/* Scan a file, or a directory recursively (entries in name order; symlinked directories are
 * not followed), or "-" for stdin.  Returns true, or false with *err (pc_mem_free it) when
 * the path cannot be opened or read.  Damaged input inside a readable file is not an error: it is
 * skipped, counted and, for gzip damage, recorded in s->warnings. */
bool pc_log_add_path(pc_log_set *s, const char *path, char **err);
/* Scan an open descriptor (read to EOF, not closed); name is the run's source. */
bool pc_log_add_fd(pc_log_set *s, int fd, const char *name, char **err);
/* Scan bytes in memory (plain or gzip), as if they were a file called name. */
bool pc_log_add_buffer(pc_log_set *s, const void *data, size_t len, const char *name, char **err);
/* Derive each run's depths and the combined maxima.  Call once, after the last add. */
void pc_log_finish(pc_log_set *s);

/* ---- prediction against observation --------------------------------------------------------- */
typedef enum pc_log_verdict {
    PC_VERDICT_UNKNOWN = 0,      /* predicted or observed is unknown */
    PC_VERDICT_MATCH,
    PC_VERDICT_UNDER,            /* predicted < observed: the kernel needs more than predicted */
    PC_VERDICT_OVER              /* predicted > observed */
} pc_log_verdict;

const char *pc_log_verdict_name(pc_log_verdict v); /* "match", "under-predicted", ... "unknown" */
pc_log_verdict pc_log_compare(int64_t predicted, int64_t observed);

typedef struct pc_log_check {
    bool have_prediction;
    int64_t predicted[3];        /* -1 unknown */
    pc_log_verdict verdict[3];
    bool under;                  /* some pool is under-predicted (exit status 1) */
} pc_log_check;

/* predicted NULL: no prediction (verdicts unknown, have_prediction false). */
void pc_log_check_against(const pc_log_set *s, const int64_t *predicted, pc_log_check *out);

/* ---- output ----------------------------------------------------------------------------------- */
/* The `logs --format=json` document (docs/model.md 11): {"version":1, "runs":[...], "recommended",
 * "observed", "predicted", "verdict", "skipped_lines", ...}.  Returns a cJSON tree (void* so this
 * header does not need cJSON); the caller frees it with cJSON_Delete.  chk may be NULL. */
void *pc_log_json(const pc_log_set *s, const pc_log_check *chk);
void pc_log_write_json(FILE *out, const pc_log_set *s, const pc_log_check *chk);
/* Readable report: per run, combined, the side-by-side table when chk has a prediction, the
 * Alloc Failure warning and the "INFO logging off" note. */
void pc_log_write_text(FILE *out, const pc_log_set *s, const pc_log_check *chk);

/* ---- budget planning from logs (seed article scenario 2) ------------------------------------- */
/* The byte prices a plan uses, from the logged rawPerParallelBytes / parallelism and the
 * [workspaceSize] slot lines; r (may be NULL) fills what the logs do not say (boundary slots
 * (2E+2A)*S, slot size).  Returns false when the logs hold no rawPerParallelBytes. */
bool pc_log_plan_costs(const pc_log_set *s, const pc_result *r, pc_plan_costs *out);

#ifdef __cplusplus
}
#endif
#endif
