/*
 * fix.c - pc_rep_apply_fixes: `check --fix` rewrites files in place, `--fix-dry-run` prints the
 * same change as a unified diff.
 *
 * Only the analysed file is rewritten, and only when it still holds the analysed text: a fix in
 * another file (a shared tile_fwk_config.json) is reported as not applied.
 * Fixes are taken in diagnostic order and a fix that overlaps one already taken is skipped, as
 * clang-apply-replacements and ruff do (the first diagnostic wins); identical duplicates (PC001 for
 * two pools of the same option both rewrite the triple) are applied once.  The diff is built from
 * the edits themselves: each run of edited lines is one change, trimmed of lines that did not
 * change, and changes closer than 2 x 3 context lines share a hunk.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "report/report_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CONTEXT = 3 };

typedef struct edit {
    size_t file;        /* index into the file table */
    size_t start, end;  /* byte offsets in the old text, end exclusive */
    const char *text;
    size_t order;       /* position in diagnostic order, for stable sorting */
} edit;

typedef struct fix_file {
    const char *path;
    const char *text;   /* old text (not owned: fr->source or the sources cache) */
    size_t len;
} fix_file;

static bool conflicts(const edit *a, const edit *b)
{
    if (a->file != b->file)
        return false;
    if (a->start < b->end && b->start < a->end)
        return true;                          /* the replaced ranges intersect */
    if (a->start == b->start)
        return true;                          /* same point: which goes first is ambiguous */
    if (a->start == a->end && b->start < a->start && a->start < b->end)
        return true;                          /* an insertion inside a replaced range */
    if (b->start == b->end && a->start < b->start && b->start < a->end)
        return true;
    return false;
}

static int by_position(const void *x, const void *y)
{
    const edit *a = x, *b = y;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* ---- lines ------------------------------------------------------------------------------------ */

typedef struct lines { size_t *start; size_t count; const char *text; size_t len; } lines;

static lines split(const char *text, size_t len)
{
    lines l = {NULL, 0, text, len};
    size_t cap = 16;
    l.start = pc_mem_alloc(cap * sizeof *l.start);
    for (size_t off = 0; off < len;) {
        if (l.count == cap)
            l.start = pc_mem_realloc(l.start, (cap *= 2) * sizeof *l.start);
        l.start[l.count++] = off;
        size_t e = pc_line_end(text, len, off); /* LF, CRLF and a lone CR: support.h */
        off = e + pc_eol_len(text, len, e);
    }
    return l;
}

static size_t line_end(const lines *l, size_t i) { return i + 1 < l->count ? l->start[i + 1] : l->len; }

/* Index of the line containing byte off (l->count when off is at the end after a newline). */
static size_t line_of(const lines *l, size_t off)
{
    size_t lo = 0, hi = l->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (l->start[mid] <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    size_t i = lo - 1;
    if (off < line_end(l, i))
        return i;
    /* The end of a last line without a newline still belongs to it. */
    if (off == l->len && i + 1 == l->count && l->len && l->text[l->len - 1] != '\n' &&
        l->text[l->len - 1] != '\r')
        return i;
    return l->count;
}

static bool same_line(const lines *a, size_t i, const lines *b, size_t j)
{
    size_t la = line_end(a, i) - a->start[i], lb = line_end(b, j) - b->start[j];
    return la == lb && memcmp(a->text + a->start[i], b->text + b->start[j], la) == 0;
}

/* One change: old lines [oa, oa+on) became new lines [na, na+nn). */
typedef struct change { size_t oa, on, na, nn; } change;

static void print_line(pc_sb *b, char mark, const lines *l, size_t i)
{
    size_t s = l->start[i], e = line_end(l, i);
    size_t content = pc_line_end(l->text, e, s);
    bool nl = content < e;
    pc_sb_putc(b, mark);
    /* A CRLF line keeps its CR (as diff and git show it); a lone CR would send the terminal's
     * cursor back over the line, so it is shown as the line break it is. */
    bool crlf = e - content == 2;
    pc_sb_appendn(b, l->text + s, content - s + (crlf ? 1 : 0));
    pc_sb_append(b, nl ? "\n" : "\n\\ No newline at end of file\n");
}

/* Unified diff of one file from its changes (sorted, non-overlapping). */
static void print_diff(pc_sb *b, const char *path, const lines *old, const lines *new_,
                       const change *ch, size_t nch)
{
    if (!nch)
        return;
    bool inside;
    char *shown = pc_rep_relative_path(path, NULL, &inside);
    pc_sb_printf(b, "--- a/%s\n+++ b/%s\n", shown, shown);
    pc_mem_free(shown);
    for (size_t i = 0; i < nch;) {
        /* Changes whose contexts touch share a hunk. */
        size_t j = i;
        while (j + 1 < nch && ch[j + 1].oa <= ch[j].oa + ch[j].on + 2 * CONTEXT)
            j++;
        size_t os = ch[i].oa > CONTEXT ? ch[i].oa - CONTEXT : 0;
        size_t oe = ch[j].oa + ch[j].on + CONTEXT;
        if (oe > old->count)
            oe = old->count;
        /* The new file's lines before os are the old ones shifted by the changes before i. */
        size_t ns = ch[i].na - (ch[i].oa - os);
        size_t ne = ch[j].na + ch[j].nn + (oe - (ch[j].oa + ch[j].on));
        size_t ol = oe - os, nl = ne - ns;
        pc_sb_printf(b, "@@ -%zu,%zu +%zu,%zu @@\n", ol ? os + 1 : os, ol, nl ? ns + 1 : ns, nl);
        size_t o = os;
        for (size_t k = i; k <= j; k++) {
            for (; o < ch[k].oa; o++)
                print_line(b, ' ', old, o);
            for (size_t x = 0; x < ch[k].on; x++)
                print_line(b, '-', old, ch[k].oa + x);
            for (size_t x = 0; x < ch[k].nn; x++)
                print_line(b, '+', new_, ch[k].na + x);
            o = ch[k].oa + ch[k].on;
        }
        for (; o < oe; o++)
            print_line(b, ' ', old, o);
        i = j + 1;
    }
}

/* ---- one file --------------------------------------------------------------------------------- */

static bool write_atomically(const char *named, const char *text, size_t len)
{
    /* Through a symbolic link the target is rewritten (as editors save): renaming over the link
     * itself would replace it with a regular file and leave the target unfixed.  The temporary
     * file goes beside the target, so the rename stays within one file system. */
    char target[PATH_MAX];
    const char *path = realpath(named, target) ? target : named;
    struct stat st;
    bool have_mode = stat(path, &st) == 0;
    pc_sb tmp = {0};
    const char *slash = strrchr(path, '/');
    if (slash)
        pc_sb_appendn(&tmp, path, (size_t)(slash - path) + 1);
    pc_sb_printf(&tmp, ".%s.poolcheck-XXXXXX", slash ? slash + 1 : path);
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        fprintf(stderr, "poolcheck: error: cannot write a temporary file beside '%s': %s\n", path,
                strerror(errno));
        pc_sb_free(&tmp);
        return false;
    }
    bool ok = true;
    for (size_t done = 0; ok && done < len;) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            ok = false;
        else
            done += (size_t)w;
    }
    if (ok && have_mode && fchmod(fd, st.st_mode & 07777) != 0)
        ok = false;
    if (ok && fsync(fd) != 0)
        ok = false;
    if (close(fd) != 0)
        ok = false;
    if (ok && rename(tmp.data, path) != 0)
        ok = false;
    if (!ok) {
        fprintf(stderr, "poolcheck: error: cannot rewrite '%s': %s\n", named, strerror(errno));
        unlink(tmp.data);
    }
    pc_sb_free(&tmp);
    return ok;
}

/* Apply the (sorted) edits of one file; print the diff or write the file. */
static bool apply_file(const fix_file *f, const edit *e, size_t ne, bool dry_run, pc_sb *diff)
{
    pc_sb out = {0};
    size_t at = 0;
    for (size_t i = 0; i < ne; i++) {
        pc_sb_appendn(&out, f->text + at, e[i].start - at);
        pc_sb_append(&out, e[i].text);
        at = e[i].end;
    }
    pc_sb_appendn(&out, f->text + at, f->len - at);
    size_t new_len = out.len;
    char *new_text = pc_sb_take(&out);
    bool ok = true;
    if (dry_run) {
        lines old = split(f->text, f->len), nw = split(new_text, new_len);
        PC_VEC(change) changes = {0};
        long delta = 0; /* bytes added before the current block */
        for (size_t i = 0; i < ne;) {
            /* A block: whole old lines covering edits i..j (edits sharing a line merge). */
            size_t first = line_of(&old, e[i].start);
            size_t bstart = first < old.count ? old.start[first] : old.len;
            size_t last = line_of(&old, e[i].end > e[i].start ? e[i].end - 1 : e[i].start);
            size_t bend = last < old.count ? line_end(&old, last) : old.len;
            long bdelta = (long)strlen(e[i].text) - (long)(e[i].end - e[i].start);
            size_t j = i + 1;
            while (j < ne && e[j].start < bend) {
                size_t l2 = line_of(&old, e[j].end > e[j].start ? e[j].end - 1 : e[j].start);
                size_t end2 = l2 < old.count ? line_end(&old, l2) : old.len;
                if (end2 > bend)
                    bend = end2;
                bdelta += (long)strlen(e[j].text) - (long)(e[j].end - e[j].start);
                j++;
            }
            size_t nstart = (size_t)((long)bstart + delta), nend = (size_t)((long)bend + delta + bdelta);
            change c;
            c.oa = line_of(&old, bstart);
            c.on = (bend > bstart) ? line_of(&old, bend - 1) - c.oa + 1 : 0;
            c.na = line_of(&nw, nstart);
            c.nn = (nend > nstart) ? line_of(&nw, nend - 1) - c.na + 1 : 0;
            /* Trim lines that did not change. */
            while (c.on && c.nn && same_line(&old, c.oa, &nw, c.na)) {
                c.oa++, c.na++, c.on--, c.nn--;
            }
            while (c.on && c.nn && same_line(&old, c.oa + c.on - 1, &nw, c.na + c.nn - 1)) {
                c.on--, c.nn--;
            }
            if (c.on || c.nn) {
                /* Changes on adjacent lines read as one: all '-' lines, then all '+' lines. */
                change *prev = changes.count ? &changes.items[changes.count - 1] : NULL;
                if (prev && prev->oa + prev->on == c.oa && prev->na + prev->nn == c.na) {
                    prev->on += c.on;
                    prev->nn += c.nn;
                } else {
                    PC_VEC_PUSH(changes, c);
                }
            }
            delta += bdelta;
            i = j;
        }
        print_diff(diff, f->path, &old, &nw, changes.items, changes.count);
        PC_VEC_FREE(changes);
        pc_mem_free(old.start);
        pc_mem_free(nw.start);
    } else if (new_len != f->len || memcmp(new_text, f->text, new_len) != 0) {
        /* The edits are offsets into the analysed text: refuse a file that changed since. */
        size_t disk_len = 0;
        char *disk = pc_read_file(f->path, &disk_len, NULL);
        if (!disk || disk_len != f->len || memcmp(disk, f->text, disk_len) != 0) {
            fprintf(stderr, "poolcheck: error: %s changed since it was analysed; not fixed\n", f->path);
            ok = false;
        } else {
            ok = write_atomically(f->path, new_text, new_len);
        }
        pc_mem_free(disk);
    }
    pc_mem_free(new_text);
    return ok;
}

int pc_rep_apply_fixes(pc_file_result *fr, bool dry_run, FILE *out)
{
    if (!fr || !fr->sink)
        return 0;
    pc_rep_sources srcs = {0};
    PC_VEC(fix_file) files = {0};
    PC_VEC(const char *) skipped = {0};
    const char *own = fr->model ? fr->model->file : NULL;
    PC_VEC(edit) taken = {0};
    size_t n, order = 0;
    int applied = 0;
    const pc_diag *items = pc_diag_items(fr->sink, &n);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < items[i].nfixes; k++) {
            const pc_fix *fx = &items[i].fixes[k];
            if (!fx->range.file)
                continue;
            if (!own || strcmp(fx->range.file, own) != 0) {
                /* A fix in another file (tile_fwk_config.json) would be applied once per input that
                 * shares it, each time at offsets of a text an earlier input already changed. */
                bool told = false;
                for (size_t t = 0; t < skipped.count && !told; t++)
                    told = strcmp(skipped.items[t], fx->range.file) == 0;
                if (!told) {
                    fprintf(stderr, "poolcheck: warning: %s: fixes in this file are not applied when "
                                    "fixing %s; edit it by hand\n", fx->range.file, own ? own : "the input");
                    PC_VEC_PUSH(skipped, fx->range.file);
                }
                continue;
            }
            size_t fi = 0;
            while (fi < files.count && strcmp(files.items[fi].path, fx->range.file) != 0)
                fi++;
            if (fi == files.count) {
                fix_file f = {fx->range.file, NULL, 0};
                f.text = pc_rep_source(&srcs, fr, fx->range.file, &f.len);
                if (!f.text) {
                    fprintf(stderr, "poolcheck: error: cannot read '%s' to fix it\n", fx->range.file);
                    continue;
                }
                PC_VEC_PUSH(files, f);
            }
            const fix_file *f = &files.items[fi];
            long s = pc_text_offset(f->text, f->len, fx->range.line, fx->range.col);
            long e = fx->range.end_line ? pc_text_offset(f->text, f->len, fx->range.end_line, fx->range.end_col) : s;
            if (s < 0 || e < s) {
                fprintf(stderr, "%s:%u:%u: warning: fix for %s is outside the file; skipped\n",
                        fx->range.file, fx->range.line, fx->range.col, items[i].id ? items[i].id : "a message");
                continue;
            }
            edit ed = {fi, (size_t)s, (size_t)e, fx->replacement, order++};
            bool skip = false;
            for (size_t t = 0; t < taken.count && !skip; t++) {
                const edit *o = &taken.items[t];
                if (o->file == ed.file && o->start == ed.start && o->end == ed.end &&
                    strcmp(o->text, ed.text) == 0)
                    skip = true; /* the same fix again: applied once */
                else if (conflicts(o, &ed))
                    skip = true;
            }
            if (!skip) {
                PC_VEC_PUSH(taken, ed);
                applied++;
            }
        }
    }
    if (taken.count > 1)
        qsort(taken.items, taken.count, sizeof *taken.items, by_position);
    bool ok = true;
    pc_sb diff = {0};
    for (size_t i = 0; i < taken.count;) {
        size_t j = i;
        while (j < taken.count && taken.items[j].file == taken.items[i].file)
            j++;
        ok &= apply_file(&files.items[taken.items[i].file], &taken.items[i], j - i, dry_run, &diff);
        i = j;
    }
    if (dry_run && diff.len && out)
        fwrite(diff.data, 1, diff.len, out);
    pc_sb_free(&diff);
    PC_VEC_FREE(skipped);
    PC_VEC_FREE(taken);
    PC_VEC_FREE(files);
    pc_rep_sources_free(&srcs);
    return ok ? applied : -1;
}
