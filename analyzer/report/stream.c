/*
 * stream.c - pc_rep_stream: every format written one file at a time, in file order.
 *
 * pc_rep_write and `check` (with one process or -j N) write through it: a file's part goes out as
 * soon as the file is given, and nothing of a written file is kept but what the run-wide rules
 * need: a 64-bit key per diagnostic of the files so far (a diagnostic located outside its own
 * file, e.g. in a shared tile_fwk_config.json, is written once: pc_rep_repeated's rule, which
 * compares with every earlier diagnostic), a fingerprint count per SARIF result (occurrence
 * numbers), and the counts of the closing line: about 16-24 bytes per diagnostic.
 *
 * JSON and SARIF are one document each.  Their text around the per-file items is cJSON's print
 * of the document with marker values where the arrays go (pc_rep_json_skeleton,
 * pc_rep_sarif_skeleton); each item is printed alone and indented to its depth, which is exactly
 * the text cJSON prints for the whole tree.  The items of the second array (JSON diagnostics,
 * SARIF toolExecutionNotifications) wait in a temporary file until the first one is closed.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/report_int.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* ---- a set of 64-bit keys, and counts per key ------------------------------------------------- */

struct pc_rep_counts { uint64_t *keys; uint32_t *counts; size_t cap, count; };

static size_t slot(const pc_rep_counts *c, uint64_t key)
{
    size_t i = (size_t)(key ^ (key >> 29)) & (c->cap - 1);
    while (c->keys[i] && c->keys[i] != key)
        i = (i + 1) & (c->cap - 1);
    return i;
}

static void grow(pc_rep_counts *c)
{
    pc_rep_counts n = {0};
    n.cap = c->cap ? c->cap * 2 : 64;
    n.keys = pc_mem_calloc(n.cap, sizeof *n.keys);
    n.counts = pc_mem_calloc(n.cap, sizeof *n.counts);
    for (size_t i = 0; i < c->cap; i++)
        if (c->keys[i]) {
            size_t j = slot(&n, c->keys[i]);
            n.keys[j] = c->keys[i];
            n.counts[j] = c->counts[i];
            n.count++;
        }
    pc_mem_free(c->keys);
    pc_mem_free(c->counts);
    *c = n;
}

static uint64_t nonzero(uint64_t key) { return key ? key : 1; }

size_t pc_rep_counts_bump(pc_rep_counts *c, uint64_t key)
{
    key = nonzero(key);
    if ((c->count + 1) * 2 > c->cap)
        grow(c);
    size_t i = slot(c, key);
    if (!c->keys[i]) {
        c->keys[i] = key;
        c->count++;
    }
    return ++c->counts[i];
}

static bool counts_has(const pc_rep_counts *c, uint64_t key)
{
    key = nonzero(key);
    return c->cap && c->keys[slot(c, key)] == key;
}

static void counts_free(pc_rep_counts *c)
{
    pc_mem_free(c->keys);
    pc_mem_free(c->counts);
    memset(c, 0, sizeof *c);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* What makes two diagnostics the same for the once-only rule (source.c's same_diag): check,
 * file, line, column and message; check and message for an unlocated one. */
static uint64_t diag_key(const pc_diag *d)
{
    uint64_t h = 14695981039346656037ull;
    int32_t check = d->check;
    h = fnv(h, d->loc.file ? "L" : "U", 1);
    h = fnv(h, &check, sizeof check);
    if (d->loc.file) {
        h = fnv(h, d->loc.file, strlen(d->loc.file) + 1);
        h = fnv(h, &d->loc.line, sizeof d->loc.line);
        h = fnv(h, &d->loc.col, sizeof d->loc.col);
    }
    h = fnv(h, d->message, strlen(d->message));
    return h ^ (h >> 31);
}

/* ---- the stream --------------------------------------------------------------------------------- */

struct pc_rep_stream {
    FILE *out;
    pc_report_opts o;
    char *docs_url;               /* o.docs_url, copied */
    char *base_dir;
    pc_rep_counts said;           /* keys of every diagnostic of the files written so far */
    pc_rep_counts occ;            /* SARIF fingerprints */
    size_t counts[3], suppressed;
    char *skeleton;               /* JSON / SARIF: the document with markers */
    const char *part[4];          /* the skeleton cut at its markers */
    size_t part_len[4];
    size_t items, spooled;        /* items written to out, to the spool */
    FILE *spool;
    char *spool_mem; size_t spool_mem_len;
    bool ok;                      /* SARIF executionSuccessful */
    bool spool_failed;
};

static void cut(pc_rep_stream *s, const char *const markers[], int n)
{
    const char *p = s->skeleton;
    for (int i = 0; i < n; i++) {
        const char *m = strstr(p, markers[i]);
        if (!m) { /* cannot happen: the skeleton is ours */
            m = p + strlen(p);
        }
        s->part[i] = p;
        s->part_len[i] = (size_t)(m - p);
        p = *m ? m + strlen(markers[i]) : m;
    }
    s->part[n] = p;
    s->part_len[n] = strlen(p);
}

pc_rep_stream *pc_rep_stream_begin(FILE *out, const pc_report_opts *o)
{
    pc_rep_stream *s = pc_mem_calloc(1, sizeof *s);
    s->out = out;
    if (o)
        s->o = *o;
    s->docs_url = s->o.docs_url ? pc_mem_strdup(s->o.docs_url) : NULL;
    s->o.docs_url = s->docs_url;
    s->base_dir = s->o.base_dir ? pc_mem_strdup(s->o.base_dir) : NULL;
    s->o.base_dir = s->base_dir;
    s->ok = true;
    if (s->o.format == PC_FMT_JSON) {
        static const char *const m[] = {"\x01K", "\x01D"};
        s->skeleton = pc_rep_json_skeleton(&s->o);
        cut(s, m, 2);
    } else if (s->o.format == PC_FMT_SARIF) {
        static const char *const m[] = {"\x01R", "\x01S", "\x01N"};
        s->skeleton = pc_rep_sarif_skeleton(&s->o);
        cut(s, m, 3);
    }
    if (s->skeleton) {
        fwrite(s->part[0], 1, s->part_len[0], out);
        fputc('[', out);
    }
    return s;
}

/* item printed by cJSON alone, then indented `depth` tabs deeper: what cJSON prints for it inside
 * the whole document (its line breaks are all layout; strings have theirs escaped). */
static void put_item(FILE *out, void *item, int depth, bool first)
{
    cJSON *j = item;
    pc_json_repair_utf8(j); /* a path need not be UTF-8; JSON text must be */
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    if (!text)
        return;
    if (!first)
        fputs(", ", out);
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n')
            for (int i = 0; i < depth; i++)
                fputc('\t', out);
    }
    cJSON_free(text);
}

static FILE *spool(pc_rep_stream *s)
{
    if (!s->spool) {
        s->spool = tmpfile();
        if (!s->spool) /* no temporary directory: keep them in memory */
            s->spool = open_memstream(&s->spool_mem, &s->spool_mem_len);
        if (!s->spool)
            s->spool_failed = true;
    }
    return s->spool;
}

static void spool_item(pc_rep_stream *s, void *item, int depth)
{
    FILE *f = spool(s);
    if (!f) {
        cJSON_Delete(item);
        return;
    }
    put_item(f, item, depth, s->spooled++ == 0);
}

void pc_rep_stream_failed(pc_rep_stream *s) { s->ok = false; }

void pc_rep_stream_file(pc_rep_stream *s, const pc_rep_file *f)
{
    if (f->fatal)
        s->ok = false;
    bool *skip = pc_mem_calloc(f->ndiags ? f->ndiags : 1, sizeof *skip);
    uint64_t *keys = pc_mem_alloc((f->ndiags ? f->ndiags : 1) * sizeof *keys);
    for (size_t i = 0; i < f->ndiags; i++) {
        const pc_diag *d = &f->diags[i];
        keys[i] = diag_key(d);
        bool own = d->loc.file && f->file && strcmp(d->loc.file, f->file) == 0;
        skip[i] = !own && counts_has(&s->said, keys[i]);
    }
    switch (s->o.format) {
    case PC_FMT_JSON:
        for (size_t k = 0; k < f->nkernels; k++)
            put_item(s->out, pc_rep_kernel_summary_json(&f->kernels[k]), 2, s->items++ == 0);
        for (size_t i = 0; i < f->ndiags; i++)
            if (!skip[i])
                spool_item(s, pc_rep_json_diag(&f->diags[i]), 2);
        break;
    case PC_FMT_SARIF:
        for (size_t i = 0; i < f->ndiags; i++) {
            if (skip[i])
                continue;
            if (f->diags[i].check < 0)
                spool_item(s, pc_rep_sarif_notification(&s->o, f, &f->diags[i]), 6);
            else
                put_item(s->out, pc_rep_sarif_result(&s->o, f, &f->diags[i], &s->occ), 4, s->items++ == 0);
        }
        break;
    case PC_FMT_GITHUB:
        pc_rep_github_file(s->out, &s->o, f, skip);
        break;
    case PC_FMT_TEXT:
    default:
        pc_rep_text_file(s->out, &s->o, f, skip, s->counts);
        s->suppressed += f->suppressed;
        break;
    }
    /* pc_rep_repeated compares with every diagnostic of the earlier files, written or not */
    for (size_t i = 0; i < f->ndiags; i++)
        pc_rep_counts_bump(&s->said, keys[i]);
    pc_mem_free(keys);
    pc_mem_free(skip);
}

static void copy_spool(pc_rep_stream *s)
{
    if (!s->spool)
        return;
    if (s->spool_mem || fflush(s->spool) != 0 || fseek(s->spool, 0, SEEK_SET) != 0) {
        fclose(s->spool);
        s->spool = NULL;
        if (s->spool_mem)
            fwrite(s->spool_mem, 1, s->spool_mem_len, s->out);
        free(s->spool_mem); /* open_memstream's buffer is malloc'd by libc */
        s->spool_mem = NULL;
        return;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, s->spool)) > 0)
        fwrite(buf, 1, n, s->out);
    if (ferror(s->spool))
        s->spool_failed = true;
    fclose(s->spool);
    s->spool = NULL;
}

bool pc_rep_stream_end(pc_rep_stream *s)
{
    if (!s)
        return true;
    if (s->o.format == PC_FMT_JSON && s->skeleton) {
        fputc(']', s->out);
        fwrite(s->part[1], 1, s->part_len[1], s->out);
        fputc('[', s->out);
        copy_spool(s);
        fputc(']', s->out);
        fwrite(s->part[2], 1, s->part_len[2], s->out);
        fputc('\n', s->out);
    } else if (s->o.format == PC_FMT_SARIF && s->skeleton) {
        fputc(']', s->out);
        fwrite(s->part[1], 1, s->part_len[1], s->out);
        fputs(s->ok ? "true" : "false", s->out);
        fwrite(s->part[2], 1, s->part_len[2], s->out);
        fputc('[', s->out);
        copy_spool(s);
        fputc(']', s->out);
        fwrite(s->part[3], 1, s->part_len[3], s->out);
        fputc('\n', s->out);
    } else if (s->o.format == PC_FMT_TEXT && s->o.stats) {
        fflush(s->out); /* the count comes after the diagnostics, also when both streams are one pipe */
        pc_rep_write_counts(s->o.stats, s->counts[PC_SEV_ERROR], s->counts[PC_SEV_WARNING], s->suppressed);
    }
    if (s->spool)
        fclose(s->spool);
    free(s->spool_mem);
    pc_mem_free(s->skeleton);
    pc_mem_free(s->docs_url);
    pc_mem_free(s->base_dir);
    counts_free(&s->said);
    counts_free(&s->occ);
    bool ok = !s->spool_failed;
    pc_mem_free(s);
    return ok;
}

void pc_rep_write(FILE *out, pc_file_result *const *files, size_t nfiles, const pc_report_opts *o)
{
    pc_rep_stream *s = pc_rep_stream_begin(out, o);
    for (size_t i = 0; i < nfiles; i++) {
        pc_rep_file *f = pc_rep_file_new(files[i]);
        pc_rep_stream_file(s, f);
        pc_rep_file_free(f);
    }
    pc_rep_stream_end(s);
}
