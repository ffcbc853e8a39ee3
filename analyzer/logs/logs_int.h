/*
 * logs_int.h - internal header of the log reader (analyzer/logs/).
 *
 * scan.c    streams sources (plain/gzip, files/directories/stdin) through one fixed buffer and
 *           hands every tagged line to the interpreter;
 * fields.c  reads `key=value` / `key={...}` groups into a flat list of dotted paths;
 * runs.c    turns tagged lines into runs and derives recommended/observed depths;
 * output.c  text and JSON.
 */
#ifndef POOLCHECK_LOGS_INT_H
#define POOLCHECK_LOGS_INT_H

#include "poolcheck/logs.h"
#include "support/support.h"

/* ---- tags ------------------------------------------------------------------------------------ */
typedef enum pc_log_tag {
    PC_TAG_NONE = 0,
    PC_TAG_POOL,             /* [Workspace Runtime Pool] */
    PC_TAG_TUNING,           /* [Workspace Runtime Tuning] */
    PC_TAG_SUMMARY,          /* [Workspace Runtime Summary] */
    PC_TAG_RECOMMENDATION,   /* [Workspace Runtime Recommendation] */
    PC_TAG_ALLOC_FAILURE,    /* [Workspace Runtime Alloc Failure] */
    PC_TAG_WORKSPACE_SIZE    /* [workspaceSize] (host, compile/launch time) */
} pc_log_tag;

/* Recognise a tag starting at p (p[0] == '['), with n bytes readable.  Returns the tag and its
 * length in *len, or PC_TAG_NONE. */
pc_log_tag pc_log_tag_at(const char *p, size_t n, size_t *len);

/* Find the next candidate tag start ("[Workspace Runtime " or "[workspaceSize]") in [p, p+n):
 * a pointer to its '[' or NULL.  The common line has no tag, so this is the hot loop. */
const char *pc_log_find_tag(const char *p, size_t n);

/* ---- fields ---------------------------------------------------------------------------------- */
#define PC_LOG_MAX_FIELDS 96
#define PC_LOG_MAX_PATH 96

typedef struct pc_log_field {
    char path[PC_LOG_MAX_PATH]; /* "rootInner.peak", "depthMemory.rawPerParallelBytes.exclusive" */
    const char *val;            /* points into the parsed text; not NUL-terminated */
    size_t vlen;
} pc_log_field;

typedef struct pc_log_fields {
    pc_log_field items[PC_LOG_MAX_FIELDS];
    int count;
    bool unbalanced;            /* a `{` without its `}` or the reverse: the line is cut short */
} pc_log_fields;

/* Parse text (quotes and CRs already removed).  Never allocates. */
void pc_log_parse_fields(const char *text, size_t n, pc_log_fields *out);
const pc_log_field *pc_log_field_get(const pc_log_fields *f, const char *path);
/* Unsigned decimal at the start of the value ("32768", "32768 bytes", "4096x132(slots)"); false
 * when it does not start with a digit or overflows int64. */
bool pc_log_field_u64(const pc_log_fields *f, const char *path, int64_t *out);
/* Same for "<group>.<pool-1 key>.<leaf>" where the pool-1 group may be spelled
 * assembleOutcast, innerTemporalOutcast or innerTemporal (reference section 9.3).  group and
 * leaf may be "" (no prefix / no suffix). */
bool pc_log_field_pool1(const pc_log_fields *f, const char *group, const char *leaf, int64_t *out);

/* ---- interpretation -------------------------------------------------------------------------- */
typedef struct pc_log_line {
    const char *source;      /* arena string */
    int64_t line;            /* 1-based */
    int64_t pid;             /* -1 none */
    pc_log_tag tag;
    const char *text;        /* from just after the tag, quotes and CRs removed */
    size_t len;
    bool at_eof_unterminated;/* the file's last line, without a newline */
} pc_log_line;

/* Interpret one tagged line.  Returns false when it is malformed (counted by the caller). */
bool pc_log_take_line(pc_log_set *s, const pc_log_line *l);
void pc_log_warn(pc_log_set *s, const char *source, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Internal state of a set: the runs being built. */
typedef struct pc_log_acc pc_log_acc;
struct pc_log_state {
    size_t buffer_bytes;
    size_t max_tasks;        /* per run: DeviceTasks kept in pc_log_run.tasks */
    PC_VEC(pc_log_acc *) runs;
    pc_log_acc *last;        /* the run of the previous line (most lines belong to it) */
    PC_VEC(pc_log_msg) warnings;
    bool finished;
    void *buffers;           /* scan.c: the fixed buffers, shared by every source of the set */
    /* the first line skipped (pc_log_stats.skipped_lines), for the note that counts them */
    const char *first_skip_source;
    int64_t first_skip_line;
    const char *first_skip_why;
};

size_t pc_log_buffer_size(const pc_log_opts *o);
void pc_log_free_buffers(pc_log_set *s);

#endif
