/*
 * source.c - what the output formats share: source lines for carets and fingerprints, byte to
 * code point columns, repository-relative paths and URIs, and the one rule that keeps a
 * diagnostic shared by every input file (a bad tile_fwk_config.json value) from repeating.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/report_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pc_rep_source(pc_rep_sources *s, const pc_file_result *fr, const char *file, size_t *len)
{
    if (!file || !*file)
        return NULL;
    if (fr && fr->source && fr->model && fr->model->file && strcmp(fr->model->file, file) == 0) {
        *len = fr->source_len;
        return fr->source;
    }
    if (fr && fr->sink) {
        const char *t = pc_diag_source(fr->sink, file, len, NULL);
        if (t)
            return t;
    }
    for (size_t i = 0; i < s->items.count; i++)
        if (strcmp(s->items.items[i].file, file) == 0) {
            *len = s->items.items[i].len;
            return s->items.items[i].missing ? NULL : s->items.items[i].text;
        }
    pc_rep_src src = {pc_mem_strdup(file), NULL, 0, false};
    char *err = NULL;
    src.text = pc_read_file(file, &src.len, &err);
    pc_mem_free(err);
    src.missing = src.text == NULL;
    PC_VEC_PUSH(s->items, src);
    *len = src.len;
    return src.text;
}

void pc_rep_sources_free(pc_rep_sources *s)
{
    for (size_t i = 0; i < s->items.count; i++) {
        pc_mem_free(s->items.items[i].file);
        pc_mem_free(s->items.items[i].text);
    }
    PC_VEC_FREE(s->items);
}

bool pc_rep_line(const char *text, size_t len, uint32_t line, const char **start, size_t *n)
{
    if (!text)
        return false;
    long off = pc_line_start(text, len, line); /* LF, CRLF and a lone CR: support.h */
    if (off < 0 || ((size_t)off >= len && line > 1))
        return false;
    *start = text + off;
    *n = pc_line_end(text, len, (size_t)off) - (size_t)off;
    return true;
}

uint32_t pc_rep_cp_column(const char *line, size_t n, uint32_t byte_col)
{
    if (byte_col == 0)
        return 0;
    uint32_t cp = 1;
    for (size_t i = 0; i + 1 < byte_col; i++) {
        if (i >= n) { /* past the end of the line (a range ending after it): bytes count as one */
            cp++;
            continue;
        }
        if (((unsigned char)line[i] & 0xC0) != 0x80)
            cp++;
    }
    /* A column inside a multi-byte character counts that character once. */
    if (byte_col - 1 < n && ((unsigned char)line[byte_col - 1] & 0xC0) == 0x80)
        cp--;
    return cp;
}

typedef struct order_key { const pc_diag *d; size_t index; } order_key;

static int by_location(const void *x, const void *y)
{
    const order_key *a = x, *b = y;
    const pc_loc *la = &a->d->loc, *lb = &b->d->loc;
    if (!la->file != !lb->file)
        return la->file ? 1 : -1;
    int c = (la->file && lb->file) ? strcmp(la->file, lb->file) : 0;
    if (c)
        return c;
    if (la->line != lb->line)
        return la->line < lb->line ? -1 : 1;
    if (la->col != lb->col)
        return la->col < lb->col ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

size_t *pc_rep_order(const pc_file_result *fr, size_t *n)
{
    const pc_diag *items = pc_diag_items(fr->sink, n);
    order_key *keys = pc_mem_alloc((*n ? *n : 1) * sizeof *keys);
    for (size_t i = 0; i < *n; i++)
        keys[i] = (order_key){&items[i], i};
    qsort(keys, *n, sizeof *keys, by_location);
    size_t *order = pc_mem_alloc((*n ? *n : 1) * sizeof *order);
    for (size_t i = 0; i < *n; i++)
        order[i] = keys[i].index;
    pc_mem_free(keys);
    return order;
}

static bool same_diag(const pc_diag *a, const pc_diag *b)
{
    return a->check == b->check && a->loc.line == b->loc.line && a->loc.col == b->loc.col &&
           a->loc.file && b->loc.file && strcmp(a->loc.file, b->loc.file) == 0 &&
           strcmp(a->message, b->message) == 0;
}

bool pc_rep_repeated(pc_file_result *const *files, size_t fi, size_t di)
{
    size_t n;
    const pc_diag *d = &pc_diag_items(files[fi]->sink, &n)[di];
    const char *own = files[fi]->model ? files[fi]->model->file : NULL;
    if (d->loc.file && own && strcmp(d->loc.file, own) == 0)
        return false;
    for (size_t f = 0; f < fi; f++) {
        size_t m;
        const pc_diag *items = pc_diag_items(files[f]->sink, &m);
        for (size_t j = 0; j < m; j++)
            if (same_diag(&items[j], d) || (!d->loc.file && !items[j].loc.file &&
                                             items[j].check == d->check &&
                                             strcmp(items[j].message, d->message) == 0))
                return true;
    }
    return false;
}

char *pc_rep_absolute_path(const char *path)
{
    pc_sb joined = {0};
    if (path[0] != '/') {
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd))
            pc_sb_printf(&joined, "%s/", cwd);
    }
    pc_sb_append(&joined, path);
    /* Normalise: split on '/', drop "." and empty parts, let ".." eat its parent. */
    PC_VEC(const char *) parts = {0};
    PC_VEC(size_t) lens = {0};
    const char *p = joined.data;
    while (*p) {
        while (*p == '/')
            p++;
        const char *start = p;
        while (*p && *p != '/')
            p++;
        size_t n = (size_t)(p - start);
        if (n == 0 || (n == 1 && start[0] == '.'))
            continue;
        if (n == 2 && start[0] == '.' && start[1] == '.') {
            if (parts.count) {
                parts.count--;
                lens.count--;
            }
            continue;
        }
        PC_VEC_PUSH(parts, start);
        PC_VEC_PUSH(lens, n);
    }
    pc_sb out = {0};
    for (size_t i = 0; i < parts.count; i++) {
        pc_sb_putc(&out, '/');
        pc_sb_appendn(&out, parts.items[i], lens.items[i]);
    }
    if (!out.len)
        pc_sb_putc(&out, '/');
    PC_VEC_FREE(parts);
    PC_VEC_FREE(lens);
    pc_sb_free(&joined);
    return pc_sb_take(&out);
}

char *pc_rep_relative_path(const char *file, const char *base, bool *inside)
{
    char *abs_file = pc_rep_absolute_path(file);
    char *abs_base = pc_rep_absolute_path(base && *base ? base : ".");
    size_t bl = strlen(abs_base);
    char *out;
    if (strcmp(abs_base, "/") == 0) {
        out = pc_mem_strdup(abs_file + 1);
        *inside = true;
    } else if (strncmp(abs_file, abs_base, bl) == 0 && abs_file[bl] == '/') {
        out = pc_mem_strdup(abs_file + bl + 1);
        *inside = true;
    } else {
        out = pc_mem_strdup(abs_file);
        *inside = false;
    }
    pc_mem_free(abs_file);
    pc_mem_free(abs_base);
    return out;
}

void pc_rep_uri_escape(pc_sb *b, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        unsigned char ch = *p;
        bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/';
        if (keep) {
            pc_sb_putc(b, (char)ch);
        } else {
            char e[3] = {'%', hex[ch >> 4], hex[ch & 15]};
            pc_sb_appendn(b, e, 3);
        }
    }
}
