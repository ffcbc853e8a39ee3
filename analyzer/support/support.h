/*
 * support.h - memory seam, arenas, growable arrays and string buffers shared by every module.
 *
 * All library allocation goes through pc_mem_alloc/pc_mem_realloc/pc_mem_free (Lua's habit): a
 * test build can make the Nth allocation fail (pc_mem_fail_after) and check that poolcheck
 * reports out-of-memory cleanly.  Running out of memory is not recoverable inside the library: the
 * seam calls the out-of-memory handler, which by default prints "poolcheck: error: out of
 * memory" and exits with status 2 (the CLI's "internal error" status).  The counters are per-thread
 * (_Thread_local), so analyses in different threads never share mutable state.
 */
#ifndef POOLCHECK_SUPPORT_H
#define POOLCHECK_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolcheck/model.h"

/* ---- memory seam ------------------------------------------------------------------------- */
void *pc_mem_alloc(size_t n);            /* never returns NULL */
void *pc_mem_calloc(size_t n, size_t size);
void *pc_mem_realloc(void *p, size_t n);
void pc_mem_free(void *p);
char *pc_mem_strdup(const char *s);
char *pc_mem_strndup(const char *s, size_t n);
/* Fault injection for tests: fail the Nth allocation from now (1-based); 0 disables. */
void pc_mem_fail_after(uint64_t n);
uint64_t pc_mem_count(void);             /* allocations made on this thread so far */
typedef void (*pc_oom_handler)(void);
void pc_mem_set_oom_handler(pc_oom_handler h); /* NULL restores the default (print, exit 2) */
/* The file an out-of-memory message names ("out of memory while processing 'x'"): set around
 * reading and analysing a file; returns the previous one, to be put back after.  The string must
 * outlive its use (per-thread, like the counters).  pc_mem_oom_file: the current one, or NULL. */
const char *pc_mem_oom_context(const char *file);
const char *pc_mem_oom_file(void);
/* Fault-injection build (POOLCHECK_FAULT_INJECTION) only: honour POOLCHECK_FAIL_ALLOC_AFTER=N
 * (pc_mem_fail_after(N)) and POOLCHECK_ALLOC_COUNT=1 (print pc_mem_count() at exit).  Call first
 * thing in main; a no-op in normal builds (fault_env.c). */
void pc_mem_init_from_env(void);

/* ---- arena: many small allocations freed at once ------------------------------------------ */
pc_arena *pc_arena_new(void);
void pc_arena_free(pc_arena *a);
void *pc_arena_alloc(pc_arena *a, size_t n);   /* zeroed, 16-byte aligned */
char *pc_arena_strdup(pc_arena *a, const char *s);
char *pc_arena_strndup(pc_arena *a, const char *s, size_t n);
char *pc_arena_printf(pc_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Grow an arena-held array (old contents copied; old block left in the arena). */
void *pc_arena_grow(pc_arena *a, void *old, size_t old_count, size_t new_count, size_t elem);

/* ---- growable heap arrays ------------------------------------------------------------------ */
/* Usage: PC_VEC(int) v = {0}; PC_VEC_PUSH(v, 3); ... pc_mem_free(v.items); */
#define PC_VEC(T) struct { T *items; size_t count, cap; }
#define PC_VEC_PUSH(v, x)                                                                        \
    do {                                                                                         \
        if ((v).count == (v).cap) {                                                              \
            (v).cap = (v).cap ? (v).cap * 2 : 8;                                                 \
            (v).items = pc_mem_realloc((v).items, (v).cap * sizeof(*(v).items));                 \
        }                                                                                        \
        (v).items[(v).count++] = (x);                                                            \
    } while (0)
#define PC_VEC_FREE(v) (pc_mem_free((v).items), (v).items = NULL, (v).count = (v).cap = 0)

/* ---- string buffer ------------------------------------------------------------------------- */
typedef struct pc_sb { char *data; size_t len, cap; } pc_sb;
void pc_sb_append(pc_sb *b, const char *s);
void pc_sb_appendn(pc_sb *b, const char *s, size_t n);
void pc_sb_putc(pc_sb *b, char c);
void pc_sb_printf(pc_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pc_sb_vprintf(pc_sb *b, const char *fmt, va_list ap);
char *pc_sb_take(pc_sb *b);          /* the NUL-terminated string (never NULL); b is reset */
void pc_sb_free(pc_sb *b);

/* ---- files --------------------------------------------------------------------------------- */
/* Read a whole regular file.  Returns NULL with a malloc'd "cannot open 'x': No such file" in
 * *err; a FIFO, a device or a socket is refused ("cannot read 'x': a FIFO, not a regular file")
 * without blocking, and so is a file of more than `max` bytes.  pc_read_file caps at
 * PC_READ_MAX_SOURCE (sources); configuration and shapes files take PC_READ_MAX_CONFIG. */
#define PC_READ_MAX_SOURCE ((size_t)1 << 30)  /* 1 GiB */
#define PC_READ_MAX_CONFIG ((size_t)64 << 20) /* 64 MiB */
char *pc_read_file(const char *path, size_t *len, char **err);
char *pc_read_file_max(const char *path, size_t max, size_t *len, char **err);
/* "a FIFO", "a character device", ... for a stat mode (error messages). */
const char *pc_file_kind(unsigned mode);

/* ---- UTF-8 ---------------------------------------------------------------------------------- */
/* Length of the valid UTF-8 sequence at s[0..n) (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), or 0 when s[0] does not start one. */
size_t pc_utf8_seq_len(const unsigned char *s, size_t n);
/* A copy of s in which every byte that is not part of a valid UTF-8 sequence is U+FFFD (free
 * with pc_mem_free), or NULL when s is valid already. */
char *pc_utf8_repair(const char *s);
/* JSON text must be UTF-8 (RFC 8259 section 8.1), but a path or a name taken from the file system
 * or a source need not be: repair every string value and key of a cJSON tree (void * so this
 * header does not need cJSON) before printing it. */
void pc_json_repair_utf8(void *root);

/* ---- control characters in terminal output -------------------------------------------------- */
/* What a file name, a message or a source line may hold that a terminal would act on (ESC starts
 * a sequence that retitles or clears it, a CR or BS overwrites what was printed) is shown as clang
 * shows it in source lines: U+0000-U+001F except tab, U+007F and U+0080-U+009F become "<U+001B>";
 * a lone byte 0x80-0x9F (a C1 control to an 8-bit terminal) becomes "<9B>".  Other bytes, invalid
 * UTF-8 among them, are kept.  pc_ctrl_escape looks at s[0..n) (n > 0): the number of bytes of
 * one unit, its escape in out (empty when the unit is shown as it is). */
size_t pc_ctrl_escape(const char *s, size_t n, char out[16]);
void pc_sb_append_visible(pc_sb *b, const char *s, size_t n);
/* s with its control characters escaped (pc_mem_free), or NULL when there are none. */
char *pc_visible(const char *s);

/* ---- small helpers -------------------------------------------------------------------------- */
int64_t pc_align_up(int64_t v, int64_t a);
int64_t pc_ceil_div(int64_t a, int64_t b);   /* b > 0 */
/* ---- lines: the one rule for where a line ends ---------------------------------------------- */
/* LF, CRLF and a lone CR each end one line: the rule of both frontends' parsers, so that report
 * snippets, --fix offsets and LSP positions agree with the line numbers the frontends hand over.
 * CPython's tokenizer turns "\r\n" and a lone "\r" into "\n" before it counts lines; clang's
 * SourceManager (ComputeLineNumbers) counts '\n', '\r' and "\r\n" as one break each (measured
 * with libclang 14: in "int a;\rint b;\r\nint c;\n\r\rint e;" b is on line 2, c on 3, e on 7,
 * and ast.parse numbers the Python equivalent the same way). */
/* Length of the line break at text[off] (2 for CRLF, 1 for LF or a lone CR), 0 if none. */
size_t pc_eol_len(const char *text, size_t len, size_t off);
/* Offset of the first line break at or after off (len when the text ends first). */
size_t pc_line_end(const char *text, size_t len, size_t off);
/* Offset of the start of 1-based line `line`, or -1 past the text's last line. */
long pc_line_start(const char *text, size_t len, uint32_t line);
/* Byte offset of 1-based (line, byte column) in text, or -1 outside it (col may be one past the
 * line's end: an insertion point). */
long pc_text_offset(const char *text, size_t len, uint32_t line, uint32_t col);
/* fnmatch-style glob with * and ? only, case-sensitive. */
bool pc_glob_match(const char *pattern, const char *s);

#endif
