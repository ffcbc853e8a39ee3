/*
 * poolcheck/support.h - the public part of the support layer: the allocator every caller of the
 * library shares, arenas, growable arrays, string buffers, file reading and the line rule.
 *
 * Plugins (the LSP server, the compiler launcher) and programs linking libpoolcheck use these so
 * that what they allocate goes through the same seam as the library (a fault-injection build can
 * fail any allocation) and their line numbers agree with the frontends'.  The library's own
 * module code reaches them through its internal support/support.h, which adds the test-only
 * fault-injection controls and the helpers no caller outside the library needs.
 *
 * Freeing, one way.  Every plain heap pointer the library hands to its caller, a string or a
 * buffer not owned by an object, is released with pc_mem_free() and nothing else:
 *   - every *err message of every function ("Errors, one way", below);
 *   - pc_sb_take, pc_mem_strdup/strndup, pc_read_file's text (below);
 *   - pc_expr_to_string, pc_model_to_json (poolcheck/model.h);
 *   - pc_cfg_find_project's path (poolcheck/config.h);
 *   - pc_rep_emit_config, pc_rep_html_render (poolcheck/report.h), pc_chk_docs_index
 *     (poolcheck/diag.h).
 * Objects go with their own function (pc_model_free, pc_result_free, pc_file_result_free,
 * pc_arena_free, pc_config_cache_free, pc_frontend_free, pc_log_free, pc_json_free, ...), a cJSON
 * tree (pc_rep_kernel_json) with cJSON_Delete, and a `const char *` result is never freed (it
 * lives in an arena or is static).  free() is not the way: what
 * pc_mem_alloc returns is allocated by the seam, whose allocator the library may change.
 *
 * Errors, one way.  A public function that can fail says so in its return value: bool (true =
 * success), or its natural result (a pointer, NULL on failure).  What went wrong is a message in
 * `char **err`, which the caller sets to NULL before the call: on failure the function stores a
 * heap string there that the caller owns and releases with pc_mem_free (before reusing the
 * variable); on success *err is left untouched, so it is still NULL.  err itself may be NULL when
 * the caller does not want the message.  There are no borrowed messages (`const char
 * **err`), no caller buffers sized by a _MSG_MAX macro, no per-thread message buffers and no error
 * out-structs: a position comes back in its own out-parameter (pc_json_parse's pc_json_pos *at).
 * tests/e2e/error_one_way keeps the public headers to this.
 *
 * Running out of memory is not recoverable: pc_mem_alloc and friends never return NULL; the
 * default handler prints "poolcheck: error: out of memory" and exits with status 2.
 */
#ifndef POOLCHECK_PUBLIC_SUPPORT_H
#define POOLCHECK_PUBLIC_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PC_PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PC_PRINTF_LIKE(fmt, args)
#endif

/* The version of libpoolcheck ("1.2.0"): what the reports name as their tool's version. */
const char *pc_version(void);

/* ---- the allocator ----------------------------------------------------------------------------- */
void *pc_mem_alloc(size_t n);            /* never returns NULL (n == 0 gives a unique block) */
void *pc_mem_calloc(size_t n, size_t size);
void *pc_mem_realloc(void *p, size_t n);
void pc_mem_free(void *p);               /* the one way to free what the library hands out; NULL is fine */
char *pc_mem_strdup(const char *s);
char *pc_mem_strndup(const char *s, size_t n);

/* ---- arena: many small allocations freed at once ------------------------------------------------ */
typedef struct pc_arena pc_arena;        /* also declared by poolcheck/model.h (same type) */
pc_arena *pc_arena_new(void);
void pc_arena_free(pc_arena *a);         /* NULL is fine */
void *pc_arena_alloc(pc_arena *a, size_t n);   /* zeroed, 16-byte aligned */
char *pc_arena_strdup(pc_arena *a, const char *s);   /* NULL stays NULL */
char *pc_arena_strndup(pc_arena *a, const char *s, size_t n);
char *pc_arena_printf(pc_arena *a, const char *fmt, ...) PC_PRINTF_LIKE(2, 3);
/* Grow an arena-held array (old contents copied; old block left in the arena). */
void *pc_arena_grow(pc_arena *a, void *old, size_t old_count, size_t new_count, size_t elem);

/* ---- growable heap arrays ------------------------------------------------------------------------ */
/* Usage: PC_VEC(int) v = {0}; PC_VEC_PUSH(v, 3); ... PC_VEC_FREE(v); (items through the seam).
 * C++ callers get the cast from void * that C does not need. */
#ifdef __cplusplus
#define PC_VEC_ITEMS_CAST_(v) (decltype((v).items))
#else
#define PC_VEC_ITEMS_CAST_(v)
#endif
#define PC_VEC(T) struct { T *items; size_t count, cap; }
#define PC_VEC_PUSH(v, x)                                                                        \
    do {                                                                                         \
        if ((v).count == (v).cap) {                                                              \
            (v).cap = (v).cap ? (v).cap * 2 : 8;                                                 \
            (v).items = PC_VEC_ITEMS_CAST_(v) pc_mem_realloc((v).items, (v).cap * sizeof(*(v).items)); \
        }                                                                                        \
        (v).items[(v).count++] = (x);                                                            \
    } while (0)
#define PC_VEC_FREE(v) (pc_mem_free((v).items), (v).items = NULL, (v).count = (v).cap = 0)

/* ---- string buffer --------------------------------------------------------------------------------
 * pc_sb b = {0}; appends keep data NUL-terminated once anything was appended (data is NULL
 * before).  Release with pc_sb_free, or hand the text over with pc_sb_take (then pc_mem_free it). */
typedef struct pc_sb { char *data; size_t len, cap; } pc_sb;
void pc_sb_append(pc_sb *b, const char *s);
void pc_sb_appendn(pc_sb *b, const char *s, size_t n);
void pc_sb_putc(pc_sb *b, char c);
void pc_sb_printf(pc_sb *b, const char *fmt, ...) PC_PRINTF_LIKE(2, 3);
void pc_sb_vprintf(pc_sb *b, const char *fmt, va_list ap);
char *pc_sb_take(pc_sb *b);          /* the NUL-terminated string (never NULL); b is reset */
void pc_sb_free(pc_sb *b);

/* ---- files ---------------------------------------------------------------------------------------- */
/* Read a whole regular file (text and *len; NUL-terminated).  Returns NULL with a message in *err
 * ("cannot open 'x': No such file or directory"; err may be NULL); a FIFO, a device or a socket is
 * refused ("cannot read 'x': a FIFO, not a regular file") without blocking, and so is a file of
 * more than `max` bytes.  pc_read_file caps at PC_READ_MAX_SOURCE (sources); configuration and
 * shapes files take PC_READ_MAX_CONFIG.  The text and the message are freed with pc_mem_free. */
#define PC_READ_MAX_SOURCE ((size_t)1 << 30)  /* 1 GiB */
#define PC_READ_MAX_CONFIG ((size_t)64 << 20) /* 64 MiB */
char *pc_read_file(const char *path, size_t *len, char **err);
char *pc_read_file_max(const char *path, size_t max, size_t *len, char **err);

/* ---- lines: the one rule for where a line ends ---------------------------------------------------
 * LF, CRLF and a lone CR each end one line: the rule of both frontends' parsers (CPython's
 * tokenizer, clang's SourceManager), so that report snippets, --fix offsets and LSP positions
 * agree with the line numbers the frontends hand over. */
/* Length of the line break at text[off] (2 for CRLF, 1 for LF or a lone CR), 0 if none. */
size_t pc_eol_len(const char *text, size_t len, size_t off);
/* Offset of the first line break at or after off (len when the text ends first). */
size_t pc_line_end(const char *text, size_t len, size_t off);
/* Offset of the start of 1-based line `line`, or -1 past the text's last line. */
long pc_line_start(const char *text, size_t len, uint32_t line);
/* Byte offset of 1-based (line, byte column) in text, or -1 outside it (col may be one past the
 * line's end: an insertion point). */
long pc_text_offset(const char *text, size_t len, uint32_t line, uint32_t col);

#ifdef __cplusplus
}
#endif
#endif
