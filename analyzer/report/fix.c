/*
 * fix.c - pc_rep_apply_fixes: `check --fix` rewrites files in place, `--fix-dry-run` / `--diff`
 * prints the same change as a unified diff, and a source read from stdin gets its fixed text
 * printed (out given with dry_run false), as `ruff check --fix -` does.
 *
 * What is rewritten is a regular file named by a path: a name that stands for an open file
 * descriptor (/dev/stdin, /dev/fd/N, /proc/PID/fd/N) is refused, and so is a file the user may not
 * write.  The rewrite keeps the file's owner, group and mode and every one of its hard links
 * (write_fixed below says how).
 *
 * Only the analysed file is rewritten, and only when it still holds the analysed text: a fix in
 * another file (a shared tile_fwk_config.json) is reported as not applied.
 * Fixes are taken in diagnostic order and a fix that overlaps one already taken is skipped, as
 * clang-apply-replacements and ruff do (the first diagnostic wins); identical duplicates (PC001 for
 * two pools of the same option both rewrite the triple) are applied once.  The diff is built from
 * the edits themselves: each run of edited lines is one change, trimmed of lines that did not
 * change, and changes closer than 2 x 3 context lines share a hunk.
 */
#define _XOPEN_SOURCE 700 /* realpath, pwrite, faccessat */
#define _DEFAULT_SOURCE   /* statfs */
#include "report/report_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/magic.h> /* PROC_SUPER_MAGIC */
#include <sys/vfs.h>
#endif

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

/* A file name (or message text taken from one) as the terminal may show it: control characters
 * escaped (support.h).  *hold keeps the copy, when one was needed, for pc_mem_free. */
static const char *shown_name(const char *s, char **hold)
{
    *hold = pc_visible(s);
    return *hold ? *hold : s;
}

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
    /* Source text reaches the terminal: an escape sequence in a comment must not retitle or
     * clear it, so control characters are shown as the text report shows them (<U+001B>).  A
     * CRLF line keeps its CR (as diff and git show it); a lone CR would send the terminal's
     * cursor back over the line, so it is shown as the line break it is. */
    bool crlf = e - content == 2;
    pc_sb_append_visible(b, l->text + s, content - s);
    if (crlf)
        pc_sb_putc(b, '\r');
    pc_sb_append(b, nl ? "\n" : "\n\\ No newline at end of file\n");
}

/* Unified diff of one file from its changes (sorted, non-overlapping). */
static void print_diff(pc_sb *b, const char *path, const lines *old, const lines *new_,
                       const change *ch, size_t nch)
{
    if (!nch)
        return;
    bool inside;
    char *rel = pc_rep_relative_path(path, NULL, &inside), *hold;
    const char *shown = shown_name(rel, &hold);
    pc_sb_printf(b, "--- a/%s\n+++ b/%s\n", shown, shown);
    pc_mem_free(hold);
    pc_mem_free(rel);
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

/* ---- where a fix may be written ---------------------------------------------------------------- */

static void fix_error(const char *named, const char *why)
{
    char *hold;
    fprintf(stderr, "poolcheck: error: cannot fix '%s': %s; not fixed\n", shown_name(named, &hold), why);
    pc_mem_free(hold);
}

/* Does this name (one step of a chain of symbolic links) stand for an open file descriptor?
 * /dev/stdin, /dev/fd/N and /proc/<pid>/fd/N lead, through the kernel's magic link, to whatever
 * the descriptor was opened on: a file the user never named (`--fix /dev/stdin < victim.py`
 * replaced victim.py).  Nothing under /proc is a source to rewrite, so the whole of procfs is
 * refused: by the name, and by the file system of the directory holding it (statfs follows
 * /dev/fd -> /proc/self/fd, and finds a procfs mounted elsewhere). */
static bool names_descriptor(const char *path)
{
    static const char *const exact[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr", "/proc", "/dev/fd"};
    static const char *const prefixes[] = {"/proc/", "/dev/fd/"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcmp(path, exact[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(path, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
#ifdef __linux__
    pc_sb dir = {0};
    const char *slash = strrchr(path, '/');
    if (!slash)
        pc_sb_append(&dir, ".");
    else if (slash == path)
        pc_sb_append(&dir, "/");
    else
        pc_sb_appendn(&dir, path, (size_t)(slash - path));
    struct statfs fs;
    bool proc = statfs(dir.data, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
    pc_sb_free(&dir);
    if (proc)
        return true;
#endif
    return false;
}

/* The file a fix of `named` rewrites.  Symbolic links are followed one at a time so that every
 * name of the chain is looked at, not only where it ends (/dev/stdin -> /proc/self/fd/0 ->
 * victim.py); what it ends at must be a regular file.  On success *target is its real path
 * (pc_mem_free) and *st its status; false after a message on stderr. */
static bool fix_target(const char *named, char **target, struct stat *st)
{
    pc_sb cur = {0};
    pc_sb_append(&cur, named);
    bool ok = false;
    for (int hop = 0;; hop++) {
        if (names_descriptor(cur.data)) {
            pc_sb why = {0};
            pc_sb_append(&why, "it names an open file descriptor");
            if (hop) {
                pc_sb_append(&why, " (through ");
                pc_sb_append_visible(&why, cur.data, cur.len);
                pc_sb_append(&why, ")");
            }
            pc_sb_append(&why, ", not a file");
            fix_error(named, why.data);
            pc_sb_free(&why);
            fputs("poolcheck: note: --fix rewrites only files named by their path; a source given as /dev/stdin "
                  "gets its fixed text printed, and --diff shows the change\n", stderr);
            goto done;
        }
        if (lstat(cur.data, st) != 0) {
            fix_error(named, strerror(errno));
            goto done;
        }
        if (!S_ISLNK(st->st_mode))
            break;
        char link[PATH_MAX];
        ssize_t n = hop < 40 ? readlink(cur.data, link, sizeof link - 1) : -1;
        if (n < 0) {
            fix_error(named, strerror(hop < 40 ? errno : ELOOP));
            goto done;
        }
        link[n] = 0;
        pc_sb next = {0};
        const char *slash = strrchr(cur.data, '/');
        if (link[0] != '/' && slash)
            pc_sb_appendn(&next, cur.data, (size_t)(slash - cur.data) + 1);
        pc_sb_append(&next, link);
        pc_sb_free(&cur);
        cur = next;
    }
    if (!S_ISREG(st->st_mode)) {
        fix_error(named, pc_file_kind(st->st_mode));
        goto done;
    }
    char real[PATH_MAX];
    if (!realpath(cur.data, real)) {
        fix_error(named, strerror(errno));
        goto done;
    }
    *target = pc_mem_strdup(real);
    ok = true;
done:
    pc_sb_free(&cur);
    return ok;
}

/* A file the user may not write is not written, as clang-tidy and ruff leave it: replacing it
 * through the directory would succeed where opening it would not.  root passes every access()
 * test, so for root a file whose owner has no write bit (a 0444 file) counts as read-only. */
static bool may_write(const char *named, const char *target, const struct stat *st)
{
    if (faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) {
        fix_error(named, strerror(errno));
        return false;
    }
    if (geteuid() == 0 && !(st->st_mode & S_IWUSR)) {
        char why[64];
        snprintf(why, sizeof why, "it is read-only (mode %04o)", (unsigned)(st->st_mode & 07777));
        fix_error(named, why);
        return false;
    }
    return true;
}

static bool pwrite_all(int fd, const char *text, size_t len, off_t at)
{
    for (size_t done = 0; done < len;) {
        ssize_t w = pwrite(fd, text + done, len - done, at + (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return false;
        }
        done += (size_t)w;
    }
    return true;
}

/* A file with several names: replacing it would give only this name the fix and cut it off from
 * the others, so its own inode is rewritten (as clang-apply-replacements does), once the new text
 * is complete in memory.  The bytes past the old end go first: when the disk is full, not one byte
 * of the old text has been touched yet and the file is cut back to its old length.  Unlike a
 * rename, a crash in the middle of the overwrite leaves the file part old, part new. */
static bool write_in_place(const char *named, const char *path, const struct stat *st, const char *old,
                           size_t old_len, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        fix_error(named, strerror(errno));
        return false;
    }
    struct stat now;
    if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
        (size_t)now.st_size != old_len) {
        fix_error(named, "it changed since it was analysed");
        close(fd);
        return false;
    }
    size_t common = len < old_len ? len : old_len;
    bool ok = true;
    const char *why = NULL;
    if (len > old_len && !pwrite_all(fd, text + old_len, len - old_len, (off_t)old_len)) {
        int e = errno;
        fix_error(named, strerror(e));
        if (ftruncate(fd, (off_t)old_len) != 0) {
            char *hold;
            fprintf(stderr, "poolcheck: warning: '%s' holds its old text, but with bytes after it: %s\n",
                    shown_name(named, &hold), strerror(errno));
            pc_mem_free(hold);
        }
        close(fd);
        return false;
    }
    if (!pwrite_all(fd, text, common, 0) || (len < old_len && ftruncate(fd, (off_t)len) != 0))
        ok = false, why = strerror(errno);
    /* A write by a user without CAP_FSETID clears the set-user-ID and set-group-ID bits. */
    if (ok && fstat(fd, &now) == 0 && (now.st_mode & 07777) != (st->st_mode & 07777) &&
        fchmod(fd, st->st_mode & 07777) != 0) {
        char *hold;
        fprintf(stderr, "poolcheck: warning: '%s' is fixed, but its mode %04o is now %04o: %s\n", shown_name(named, &hold),
                (unsigned)(st->st_mode & 07777), (unsigned)(now.st_mode & 07777), strerror(errno));
        pc_mem_free(hold);
    }
    if (ok && fsync(fd) != 0)
        ok = false, why = strerror(errno);
    if (!ok) {
        /* Put the old text back: the write failed after it began to overwrite it. */
        bool back = pwrite_all(fd, old, old_len, 0) && ftruncate(fd, (off_t)old_len) == 0 && fsync(fd) == 0;
        char *hold;
        fprintf(stderr, "poolcheck: error: cannot fix '%s': %s; %s\n", shown_name(named, &hold), why,
                back ? "its old text is written back" : "it may be partly rewritten");
        pc_mem_free(hold);
    }
    if (close(fd) != 0 && ok) {
        fix_error(named, strerror(errno));
        ok = false;
    }
    return ok;
}

/* The usual case: a temporary file beside the target, complete and synced, renamed over it, so a
 * full disk, a read-only directory or a kill leaves the original as it was.  The copy gets the
 * original's owner, group and mode before the rename (a file of 1234:5678 fixed by root stays
 * 1234:5678); where it cannot, the fix is refused rather than the file handed to someone else. */
static bool write_replacing(const char *named, const char *path, const struct stat *st, const char *text, size_t len)
{
    pc_sb tmp = {0};
    const char *slash = strrchr(path, '/');
    if (slash)
        pc_sb_appendn(&tmp, path, (size_t)(slash - path) + 1);
    pc_sb_printf(&tmp, ".%s.poolcheck-XXXXXX", slash ? slash + 1 : path);
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        char *hold;
        fprintf(stderr, "poolcheck: error: cannot write a temporary file beside '%s': %s; not fixed\n",
                shown_name(path, &hold), strerror(errno));
        pc_mem_free(hold);
        pc_sb_free(&tmp);
        return false;
    }
    const char *why = NULL; /* set: the reason, already printed when empty */
    if (!pwrite_all(fd, text, len, 0))
        why = strerror(errno);
    if (!why) {
        /* Owner and group first: changing them clears the set-user-ID and set-group-ID bits, which
         * the fchmod after it sets again.  fchmod drops the set-group-ID bit without a word when
         * the user is not in the file's group, so what counts is what the copy has at the end. */
        struct stat got;
        bool kept = fstat(fd, &got) == 0;
        int e = 0;
        if (kept && (got.st_uid != st->st_uid || got.st_gid != st->st_gid) && fchown(fd, st->st_uid, st->st_gid) != 0)
            kept = false, e = errno;
        if (kept && fchmod(fd, st->st_mode & 07777) != 0)
            kept = false, e = errno;
        if (kept && (fstat(fd, &got) != 0 || got.st_uid != st->st_uid || got.st_gid != st->st_gid ||
                     (got.st_mode & 07777) != (st->st_mode & 07777)))
            kept = false;
        if (!kept) {
            char *hold;
            fprintf(stderr, "poolcheck: error: cannot fix '%s': a rewritten copy cannot keep its owner, group and "
                            "mode (%u:%u, %04o)%s%s; not fixed\n",
                    shown_name(named, &hold), (unsigned)st->st_uid, (unsigned)st->st_gid,
                    (unsigned)(st->st_mode & 07777), e ? ": " : "", e ? strerror(e) : "");
            pc_mem_free(hold);
            why = "";
        }
    }
    if (!why && fsync(fd) != 0)
        why = strerror(errno);
    if (close(fd) != 0 && !why)
        why = strerror(errno);
    if (!why && rename(tmp.data, path) != 0)
        why = strerror(errno);
    if (why) {
        if (*why)
            fix_error(named, why);
        unlink(tmp.data);
    }
    pc_sb_free(&tmp);
    return !why;
}

/* Write the fixed text of the file named `named`, whose analysed text is old[0..old_len).  Through
 * a symbolic link the target is rewritten (as editors save); the link stays.  A file with one
 * name is replaced by a complete copy (write_replacing: owner, group and mode kept, or the fix
 * refused); a file with several hard links is rewritten in place (write_in_place), so that every
 * name sees the fix. */
static bool write_fixed(const char *named, const char *old, size_t old_len, const char *text, size_t len)
{
    char *target = NULL;
    struct stat st;
    if (!fix_target(named, &target, &st))
        return false;
    bool ok = may_write(named, target, &st);
    if (ok) {
        /* The edits are offsets into the analysed text: refuse a file that changed since. */
        size_t disk_len = 0;
        char *disk = pc_read_file(target, &disk_len, NULL);
        if (!disk || disk_len != old_len || memcmp(disk, old, disk_len) != 0) {
            char *hold;
            fprintf(stderr, "poolcheck: error: %s changed since it was analysed; not fixed\n", shown_name(named, &hold));
            pc_mem_free(hold);
            ok = false;
        }
        pc_mem_free(disk);
    }
    if (ok)
        ok = st.st_nlink > 1 ? write_in_place(named, target, &st, old, old_len, text, len)
                             : write_replacing(named, target, &st, text, len);
    pc_mem_free(target);
    return ok;
}

/* Apply the (sorted) edits of one file; print the diff or write the file. */
static bool apply_file(const fix_file *f, const edit *e, size_t ne, bool dry_run, pc_sb *diff, FILE *text_out)
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
    } else if (text_out) {
        /* The source came on stdin: the fixed text goes to stdout, as `ruff check --fix -` does. */
        if (new_len && fwrite(new_text, 1, new_len, text_out) != new_len)
            ok = false;
    } else if (new_len != f->len || memcmp(new_text, f->text, new_len) != 0) {
        ok = write_fixed(f->path, f->text, f->len, new_text, new_len);
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
                    char *h1, *h2;
                    fprintf(stderr, "poolcheck: warning: %s: fixes in this file are not applied when "
                                    "fixing %s; edit it by hand\n", shown_name(fx->range.file, &h1),
                            own ? shown_name(own, &h2) : (h2 = NULL, "the input"));
                    pc_mem_free(h1);
                    pc_mem_free(h2);
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
                    char *hold;
                    fprintf(stderr, "poolcheck: error: cannot read '%s' to fix it\n", shown_name(fx->range.file, &hold));
                    pc_mem_free(hold);
                    continue;
                }
                PC_VEC_PUSH(files, f);
            }
            const fix_file *f = &files.items[fi];
            long s = pc_text_offset(f->text, f->len, fx->range.line, fx->range.col);
            long e = fx->range.end_line ? pc_text_offset(f->text, f->len, fx->range.end_line, fx->range.end_col) : s;
            if (s < 0 || e < s) {
                char *hold;
                fprintf(stderr, "%s:%u:%u: warning: fix for %s is outside the file; skipped\n",
                        shown_name(fx->range.file, &hold), fx->range.line, fx->range.col,
                        items[i].id ? items[i].id : "a message");
                pc_mem_free(hold);
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
    FILE *text_out = dry_run ? NULL : out;
    for (size_t i = 0; i < taken.count;) {
        size_t j = i;
        while (j < taken.count && taken.items[j].file == taken.items[i].file)
            j++;
        ok &= apply_file(&files.items[taken.items[i].file], &taken.items[i], j - i, dry_run, &diff, text_out);
        i = j;
    }
    if (text_out && !taken.count) {
        /* Nothing to fix: the text is printed all the same, so the output is always the source. */
        size_t len = 0;
        const char *text = own ? pc_rep_source(&srcs, fr, own, &len) : NULL;
        if (!text) {
            fputs("poolcheck: error: the analysed text is gone; nothing printed\n", stderr);
            ok = false;
        } else if (len && fwrite(text, 1, len, text_out) != len) {
            ok = false;
        }
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
