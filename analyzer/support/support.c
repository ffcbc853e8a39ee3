/* support.c - the memory seam, arenas, string buffers and file reading (see support.h). */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- memory seam ---------------------------------------------------------------------------- */

/* Per-thread so that concurrent analyses (the LSP server) never share mutable state. */
static _Thread_local uint64_t alloc_count;
static _Thread_local uint64_t fail_at;
static _Thread_local const char *oom_context; /* the file being read or analysed, if any */

static void default_oom(void)
{
    if (oom_context)
        fprintf(stderr, "poolcheck: error: out of memory while processing '%s'\n", oom_context);
    else
        fputs("poolcheck: error: out of memory\n", stderr);
    exit(2);
}

const char *pc_mem_oom_context(const char *file)
{
    const char *outer = oom_context;
    oom_context = file;
    return outer;
}

const char *pc_mem_oom_file(void) { return oom_context; }

static void out_of_memory(void)
{
    default_oom();
}

static bool inject_failure(void)
{
    alloc_count++;
    return fail_at && alloc_count >= fail_at;
}

void *pc_mem_alloc(size_t n)
{
    void *p = inject_failure() ? NULL : malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *pc_mem_calloc(size_t n, size_t size)
{
    void *p = inject_failure() ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *pc_mem_realloc(void *old, size_t n)
{
    void *p = inject_failure() ? NULL : realloc(old, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void pc_mem_free(void *p) { free(p); }

char *pc_mem_strdup(const char *s) { return pc_mem_strndup(s, strlen(s)); }

char *pc_mem_strndup(const char *s, size_t n)
{
    char *p = pc_mem_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void pc_mem_fail_after(uint64_t n)
{
    alloc_count = 0;
    fail_at = n;
}

uint64_t pc_mem_count(void) { return alloc_count; }

/* ---- arena ------------------------------------------------------------------------------------ */

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} arena_chunk;

struct pc_arena {
    arena_chunk *head;
};

pc_arena *pc_arena_new(void) { return pc_mem_calloc(1, sizeof(pc_arena)); }

void pc_arena_free(pc_arena *a)
{
    if (!a)
        return;
    for (arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        pc_mem_free(c);
    }
    pc_mem_free(a);
}

void *pc_arena_alloc(pc_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    arena_chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > 16384 ? n : 16384;
        c = pc_mem_alloc(sizeof(arena_chunk) + size);
        c->used = 0;
        c->size = size;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *pc_arena_strndup(pc_arena *a, const char *s, size_t n)
{
    char *p = pc_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *pc_arena_strdup(pc_arena *a, const char *s) { return s ? pc_arena_strndup(a, s, strlen(s)) : NULL; }

char *pc_arena_printf(pc_arena *a, const char *fmt, ...)
{
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    char *p = pc_arena_strndup(a, b.data ? b.data : "", b.len);
    pc_sb_free(&b);
    return p;
}

void *pc_arena_grow(pc_arena *a, void *old, size_t old_count, size_t new_count, size_t elem)
{
    void *p = pc_arena_alloc(a, new_count * elem);
    if (old && old_count)
        memcpy(p, old, old_count * elem);
    return p;
}

/* ---- string buffer --------------------------------------------------------------------------- */

static void sb_reserve(pc_sb *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->data = pc_mem_realloc(b->data, cap);
    b->cap = cap;
}

void pc_sb_appendn(pc_sb *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void pc_sb_append(pc_sb *b, const char *s) { pc_sb_appendn(b, s, strlen(s)); }

void pc_sb_putc(pc_sb *b, char c) { pc_sb_appendn(b, &c, 1); }

void pc_sb_vprintf(pc_sb *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    sb_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void pc_sb_printf(pc_sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *pc_sb_take(pc_sb *b)
{
    char *p = b->data;
    if (!p)
        p = pc_mem_strdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void pc_sb_free(pc_sb *b)
{
    pc_mem_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ---- error messages --------------------------------------------------------------------------- */

bool pc_err_set(char **err, const char *fmt, ...)
{
    if (!err)
        return false;
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    pc_mem_free(*err);
    *err = pc_sb_take(&b);
    return false;
}

void pc_err_clear(char **err)
{
    if (!err)
        return;
    pc_mem_free(*err);
    *err = NULL;
}

/* ---- files ------------------------------------------------------------------------------------ */

static char *errorf(const char *fmt, const char *path, const char *why)
{
    pc_sb b = {0};
    pc_sb_printf(&b, fmt, path, why);
    return pc_sb_take(&b);
}

const char *pc_file_kind(unsigned mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISREG(mode)  ? "a regular file"
                            : "not a regular file";
}

static void human_size(char *buf, size_t n, uint64_t bytes)
{
    if (bytes >= (1u << 30) && bytes % (1u << 30) == 0)
        snprintf(buf, n, "%llu GiB", (unsigned long long)(bytes >> 30));
    else if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, n, "%llu MiB", (unsigned long long)(bytes >> 20));
    else
        snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
}

char *pc_read_file_max(const char *path, size_t max, size_t *len, char **err)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below); fstat on the
     * open descriptor, so what is checked is what is read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (err)
            *err = errorf("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        if (err)
            *err = errorf("cannot read '%s': %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        if (err)
            *err = errorf("cannot read '%s': %s", path, "Is a directory");
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        /* A FIFO blocks, /dev/zero never ends, a terminal waits for typing: only regular files
         * are read (stdin, where `-` is allowed, is read by its caller). */
        if (err) {
            pc_sb b = {0};
            pc_sb_printf(&b, "cannot read '%s': %s, not a regular file", path, pc_file_kind(st.st_mode));
            *err = pc_sb_take(&b);
        }
        close(fd);
        return NULL;
    }
    char limit[32];
    human_size(limit, sizeof limit, max);
    if ((uint64_t)st.st_size > (uint64_t)max) {
        if (err) {
            pc_sb b = {0};
            pc_sb_printf(&b, "cannot read '%s': %lld bytes is more than the %s poolcheck reads of such a file",
                         path, (long long)st.st_size, limit);
            *err = pc_sb_take(&b);
        }
        close(fd);
        return NULL;
    }
    /* Back to blocking reads (a regular file never blocks, but be plain about it). */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    const char *outer = pc_mem_oom_context(path);
    pc_sb b = {0};
    char buf[65536];
    bool bad = false, too_big = false;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            bad = true;
            break;
        }
        if (n == 0)
            break;
        if (b.len + (size_t)n > max) { /* the file grew while being read */
            too_big = true;
            break;
        }
        pc_sb_appendn(&b, buf, (size_t)n);
    }
    int saved = errno;
    close(fd);
    pc_mem_oom_context(outer);
    if (bad || too_big) {
        pc_sb_free(&b);
        if (err) {
            if (too_big) {
                pc_sb e = {0};
                pc_sb_printf(&e, "cannot read '%s': it grew past the %s poolcheck reads of such a file", path, limit);
                *err = pc_sb_take(&e);
            } else {
                *err = errorf("cannot read '%s': %s", path, strerror(saved));
            }
        }
        return NULL;
    }
    if (len)
        *len = b.len;
    return pc_sb_take(&b);
}

char *pc_read_file(const char *path, size_t *len, char **err)
{
    return pc_read_file_max(path, PC_READ_MAX_SOURCE, len, err);
}

/* ---- UTF-8 ------------------------------------------------------------------------------------ */

size_t pc_utf8_seq_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;             /* no overlong forms */
        else if (c == 0xED)
            hi = 0x9F;             /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;             /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

char *pc_utf8_repair(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n && pc_utf8_seq_len(p + i, n - i))
        i += pc_utf8_seq_len(p + i, n - i);
    if (i == n)
        return NULL;
    pc_sb b = {0};
    pc_sb_appendn(&b, s, i);
    while (i < n) {
        size_t k = pc_utf8_seq_len(p + i, n - i);
        if (k) {
            pc_sb_appendn(&b, s + i, k);
            i += k;
        } else {
            pc_sb_append(&b, "\xEF\xBF\xBD"); /* U+FFFD REPLACEMENT CHARACTER */
            i++;
        }
    }
    return pc_sb_take(&b);
}

void pc_json_repair_utf8(void *root)
{
    for (cJSON *j = root; j; j = j->next) {
        if (j->string && !(j->type & cJSON_StringIsConst)) {
            char *fixed = pc_utf8_repair(j->string);
            if (fixed) {
                char *key = cJSON_malloc(strlen(fixed) + 1);
                if (key) {
                    strcpy(key, fixed);
                    cJSON_free(j->string);
                    j->string = key;
                }
                pc_mem_free(fixed);
            }
        }
        if (cJSON_IsString(j) && j->valuestring) {
            char *fixed = pc_utf8_repair(j->valuestring);
            if (fixed) {
                cJSON_SetValuestring(j, fixed);
                pc_mem_free(fixed);
            }
        }
        if (j->child)
            pc_json_repair_utf8(j->child);
    }
}

/* ---- control characters ---------------------------------------------------------------------- */

size_t pc_ctrl_escape(const char *s, size_t n, char out[16])
{
    const unsigned char *u = (const unsigned char *)s;
    out[0] = 0;
    if ((u[0] < 0x20 && u[0] != '\t') || u[0] == 0x7F) {
        snprintf(out, 16, "<U+%04X>", u[0]);
        return 1;
    }
    if (u[0] < 0x80)
        return 1;
    size_t k = pc_utf8_seq_len(u, n);
    if (k == 2 && u[0] == 0xC2 && u[1] <= 0x9F) {
        snprintf(out, 16, "<U+%04X>", u[1]);   /* U+0080-U+009F: C1 controls */
        return 2;
    }
    if (k)
        return k;
    if (u[0] <= 0x9F)
        snprintf(out, 16, "<%02X>", u[0]);
    return 1;
}

void pc_sb_append_visible(pc_sb *b, const char *s, size_t n)
{
    size_t plain = 0; /* start of the run copied as it is */
    for (size_t i = 0; i < n;) {
        char esc[16];
        size_t k = pc_ctrl_escape(s + i, n - i, esc);
        if (esc[0]) {
            pc_sb_appendn(b, s + plain, i - plain);
            pc_sb_append(b, esc);
            plain = i + k;
        }
        i += k;
    }
    pc_sb_appendn(b, s + plain, n - plain);
}

char *pc_visible(const char *s)
{
    size_t n = strlen(s);
    bool any = false;
    for (size_t i = 0; i < n && !any;) {
        char esc[16];
        i += pc_ctrl_escape(s + i, n - i, esc);
        any = esc[0] != 0;
    }
    if (!any)
        return NULL;
    pc_sb b = {0};
    pc_sb_append_visible(&b, s, n);
    return pc_sb_take(&b);
}

/* ---- small helpers ---------------------------------------------------------------------------- */

int64_t pc_align_up(int64_t v, int64_t a) { return a <= 0 ? v : (v + a - 1) / a * a; }

/* Not (a + b - 1) / b: that overflows for a near INT64_MAX (byte counts read from logs). */
int64_t pc_ceil_div(int64_t a, int64_t b) { return b <= 0 ? 0 : a / b + (a % b > 0); }

size_t pc_eol_len(const char *text, size_t len, size_t off)
{
    if (off >= len)
        return 0;
    if (text[off] == '\n')
        return 1;
    if (text[off] == '\r')
        return off + 1 < len && text[off + 1] == '\n' ? 2 : 1;
    return 0;
}

size_t pc_line_end(const char *text, size_t len, size_t off)
{
    /* memchr (vectorised) over windows instead of a loop over the bytes: pc_line_start walks a
     * large file line by line for each location the report quotes and each fix it places.  The
     * window keeps a file whose lines end in a lone CR from searching for an LF to its end. */
    for (size_t i = off; i < len;) {
        size_t w = len - i < 256 ? len - i : 256;
        const char *lf = memchr(text + i, '\n', w);
        size_t n = lf ? (size_t)(lf - (text + i)) : w;
        const char *cr = memchr(text + i, '\r', n);
        if (cr)
            return (size_t)(cr - text);
        if (lf)
            return (size_t)(lf - text);
        i += w;
    }
    return len;
}

long pc_line_start(const char *text, size_t len, uint32_t line)
{
    if (line == 0)
        return -1;
    size_t off = 0;
    if (len > 0 && !memchr(text, '\r', len)) { /* every line ends in LF: one memchr per line */
        for (uint32_t l = 1; l < line; l++) {
            const char *lf = memchr(text + off, '\n', len - off);
            if (!lf)
                return -1;
            off = (size_t)(lf - text) + 1;
        }
        return (long)off;
    }
    for (uint32_t l = 1; l < line; l++) {
        size_t e = pc_line_end(text, len, off);
        if (e == len)
            return -1;
        off = e + pc_eol_len(text, len, e);
    }
    return (long)off;
}

long pc_text_offset(const char *text, size_t len, uint32_t line, uint32_t col)
{
    if (col == 0)
        return -1;
    long start = pc_line_start(text, len, line);
    if (start < 0)
        return -1;
    size_t line_len = pc_line_end(text, len, (size_t)start) - (size_t)start;
    if (col - 1 > line_len)
        return -1;
    return start + (long)(col - 1);
}

bool pc_glob_match(const char *p, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (*p == '*') {
            star = p++;
            resume = s;
        } else if (star) {
            p = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == 0;
}
