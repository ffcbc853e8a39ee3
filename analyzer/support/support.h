/*
 * support.h - internal header of the support layer (analyzer/support/): what every module of the
 * library shares.
 *
 *   support.c     the memory seam, arenas, string buffers, file reading, UTF-8, lines, globs
 *   fault_env.c   pc_mem_init_from_env (fault-injection builds)
 *   json.c        the one strict JSON reader (declared in poolcheck/json.h)
 *
 * The part callers outside the library use (the allocator, arenas, PC_VEC, pc_sb, pc_read_file,
 * the line rule, and how what the library hands out is freed) is public: poolcheck/support.h; the
 * JSON reader is public too: poolcheck/json.h.
 * This header adds the test-only allocator controls and helpers only the library's modules need.
 * It includes no module header: support sits beneath every module.
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

#include "poolcheck/support.h"

/* ---- memory seam ------------------------------------------------------------------------- */
/* pc_mem_alloc, pc_mem_calloc, pc_mem_realloc, pc_mem_free, pc_mem_strdup, pc_mem_strndup:
 * poolcheck/support.h. */
/* Fault injection for tests: fail the Nth allocation from now (1-based); 0 disables. */
void pc_mem_fail_after(uint64_t n);
uint64_t pc_mem_count(void);             /* allocations made on this thread so far */
/* The file an out-of-memory message names ("out of memory while processing 'x'"): set around
 * reading and analysing a file; returns the previous one, to be put back after.  The string must
 * outlive its use (per-thread, like the counters).  pc_mem_oom_file: the current one, or NULL. */
const char *pc_mem_oom_context(const char *file);
const char *pc_mem_oom_file(void);
/* Fault-injection build (POOLCHECK_FAULT_INJECTION) only: honour POOLCHECK_FAIL_ALLOC_AFTER=N
 * (pc_mem_fail_after(N)) and POOLCHECK_ALLOC_COUNT=1 (print pc_mem_count() at exit).  Call first
 * thing in main; a no-op in normal builds (fault_env.c). */
void pc_mem_init_from_env(void);

/* ---- arenas, PC_VEC, pc_sb: poolcheck/support.h ---------------------------------------------- */

/* ---- files --------------------------------------------------------------------------------- */
/* pc_read_file, pc_read_file_max, PC_READ_MAX_SOURCE/CONFIG: poolcheck/support.h. */
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

/* ---- error messages (poolcheck/support.h, "Errors, one way") ------------------------------- */
/* Store a printf-formatted message in *err (pc_mem_free'd by the caller), freeing any message
 * already there; err NULL: the caller does not want it, nothing is formatted.  Returns false so a
 * failing path can `return pc_err_set(err, ...);`. */
bool pc_err_set(char **err, const char *fmt, ...) PC_PRINTF_LIKE(2, 3);
/* Free the message in *err, if any, and set it to NULL (err NULL is fine). */
void pc_err_clear(char **err);

/* ---- small helpers -------------------------------------------------------------------------- */
int64_t pc_align_up(int64_t v, int64_t a);
int64_t pc_ceil_div(int64_t a, int64_t b);   /* b > 0 */

/* ---- lines ---------------------------------------------------------------------------------- */
/* pc_eol_len, pc_line_end, pc_line_start, pc_text_offset: poolcheck/support.h.  Measured with
 * libclang 14: in "int a;\rint b;\r\nint c;\n\r\rint e;" b is on line 2, c on 3, e on 7, and
 * ast.parse numbers the Python equivalent the same way (CPython's tokenizer turns "\r\n" and a
 * lone "\r" into "\n" before it counts lines; clang's ComputeLineNumbers counts '\n', '\r' and
 * "\r\n" as one break each). */
/* fnmatch-style glob with * and ? only, case-sensitive. */
bool pc_glob_match(const char *pattern, const char *s);

#endif
