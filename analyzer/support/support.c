/* support.c - the memory seam, arenas, string buffers and file reading (see support.h). */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- memory seam ---------------------------------------------------------------------------- */

/* Per-thread so that concurrent analyses (the LSP server) never share mutable state. */
static _Thread_local uint64_t alloc_count;
static _Thread_local uint64_t fail_at;
static _Thread_local pc_oom_handler oom_handler;

static void default_oom(void)
{
    fputs("poolcheck: error: out of memory\n", stderr);
    exit(2);
}

static void out_of_memory(void)
{
    if (oom_handler)
        oom_handler();
    default_oom(); /* a handler that returns still must not let us continue */
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

void pc_mem_set_oom_handler(pc_oom_handler h) { oom_handler = h; }

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

/* ---- files ------------------------------------------------------------------------------------ */

static char *errorf(const char *fmt, const char *path, const char *why)
{
    pc_sb b = {0};
    pc_sb_printf(&b, fmt, path, why);
    return pc_sb_take(&b);
}

char *pc_read_file(const char *path, size_t *len, char **err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (err)
            *err = errorf("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        if (err)
            *err = errorf("cannot read '%s': %s", path, "Is a directory");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err)
            *err = errorf("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    pc_sb b = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        pc_sb_appendn(&b, buf, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        pc_sb_free(&b);
        if (err)
            *err = errorf("cannot read '%s': %s", path, "I/O error");
        return NULL;
    }
    if (len)
        *len = b.len;
    return pc_sb_take(&b);
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

/* ---- small helpers ---------------------------------------------------------------------------- */

int64_t pc_align_up(int64_t v, int64_t a) { return a <= 0 ? v : (v + a - 1) / a * a; }

/* Not (a + b - 1) / b: that overflows for a near INT64_MAX (byte counts read from logs). */
int64_t pc_ceil_div(int64_t a, int64_t b) { return b <= 0 ? 0 : a / b + (a % b > 0); }

long pc_text_offset(const char *text, size_t len, uint32_t line, uint32_t col)
{
    if (line == 0 || col == 0)
        return -1;
    size_t off = 0;
    for (uint32_t l = 1; l < line; l++) {
        const char *nl = memchr(text + off, '\n', len - off);
        if (!nl)
            return -1;
        off = (size_t)(nl - text) + 1;
    }
    const char *nl = memchr(text + off, '\n', len - off);
    size_t line_len = nl ? (size_t)(nl - (text + off)) : len - off;
    if (col - 1 > line_len)
        return -1;
    return (long)(off + col - 1);
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
