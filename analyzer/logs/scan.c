/*
 * scan.c - the streaming scanner behind `poolcheck logs`.
 *
 * One source (file, stdin, memory) goes through one fixed buffer of s->state->buffer_bytes
 * bytes: data is appended after the unfinished line carried over from the previous read, the
 * complete lines are searched for tags in one pass over the whole block (not line by line: the
 * common line has no tag, so it is never looked at twice), and only the unfinished line plus the
 * line before it (it may be the CANN header of a message on the next line) are carried.  A line
 * that does not fit in the buffer is skipped to its newline and counted.  Memory therefore stays
 * flat whatever the file size.  gzip input is recognised by its magic bytes (1f 8b) and inflated
 * through a second small buffer; concatenated gzip members are read one after another, as gzip(1)
 * does.
 */
#define _GNU_SOURCE /* memrchr */
#include "logs_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* PC_LOG_NO_SIMD builds the portable path on x86 too (for testing it). */
#if defined(__SSE2__) && !defined(PC_LOG_NO_SIMD)
#define PC_LOG_SSE2 1
#include <emmintrin.h>
#endif

#define PC_LOG_DEFAULT_BUFFER (1u << 20)
#define PC_LOG_MIN_BUFFER 4096u
#define PC_LOG_ZIN_BYTES (64u << 10)
/* The line before a tagged line is kept only when it can be a header (they are ~150 bytes). */
#define PC_LOG_HEADER_MAX 4096u

static const char TAG_RUNTIME[] = "[Workspace Runtime ";
static const char TAG_SIZE[] = "[workspaceSize]";
#define TAG_RUNTIME_LEN (sizeof TAG_RUNTIME - 1)
#define TAG_SIZE_LEN (sizeof TAG_SIZE - 1)

/* ---- tag search ------------------------------------------------------------------------------ */

static bool tag_prefix_at(const char *p, size_t avail)
{
    if (avail >= TAG_RUNTIME_LEN && memcmp(p, TAG_RUNTIME, TAG_RUNTIME_LEN) == 0)
        return true;
    return avail >= TAG_SIZE_LEN && memcmp(p, TAG_SIZE, TAG_SIZE_LEN) == 0;
}

const char *pc_log_find_tag(const char *p, size_t n)
{
    size_t i = 0;
#ifdef PC_LOG_SSE2
    /* Both tags are "[" + W/w + "orkspac" + "e" at offset 9: test byte 0, byte 1 (case folded)
     * and byte 9 of 16 positions at once, and verify the rare candidates with memcmp. */
    const __m128i open = _mm_set1_epi8('[');
    const __m128i w = _mm_set1_epi8('w');
    const __m128i e = _mm_set1_epi8('e');
    const __m128i lower = _mm_set1_epi8(0x20);
    while (i + 16 + 9 <= n) {
        __m128i b0 = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i b1 = _mm_loadu_si128((const __m128i *)(p + i + 1));
        __m128i b9 = _mm_loadu_si128((const __m128i *)(p + i + 9));
        __m128i m = _mm_and_si128(_mm_cmpeq_epi8(b0, open),
                                  _mm_cmpeq_epi8(_mm_or_si128(b1, lower), w));
        m = _mm_and_si128(m, _mm_cmpeq_epi8(b9, e));
        unsigned mask = (unsigned)_mm_movemask_epi8(m);
        while (mask) {
            unsigned k = (unsigned)__builtin_ctz(mask);
            mask &= mask - 1;
            if (tag_prefix_at(p + i + k, n - i - k))
                return p + i + k;
        }
        i += 16;
    }
#endif
    /* Portable path: libc's memchr (vectorised on every major libc) to each '['. */
    while (i < n) {
        const char *q = memchr(p + i, '[', n - i);
        if (!q)
            return NULL;
        if (tag_prefix_at(q, (size_t)(p + n - q)))
            return q;
        i = (size_t)(q - p) + 1;
    }
    return NULL;
}

pc_log_tag pc_log_tag_at(const char *p, size_t n, size_t *len)
{
    static const struct { const char *name; pc_log_tag tag; } runtime_tags[] = {
        {"Pool]", PC_TAG_POOL},
        {"Tuning]", PC_TAG_TUNING},
        {"Summary]", PC_TAG_SUMMARY},
        {"Recommendation]", PC_TAG_RECOMMENDATION},
        {"Alloc Failure]", PC_TAG_ALLOC_FAILURE},
    };
    if (n >= TAG_SIZE_LEN && memcmp(p, TAG_SIZE, TAG_SIZE_LEN) == 0) {
        *len = TAG_SIZE_LEN;
        return PC_TAG_WORKSPACE_SIZE;
    }
    if (n < TAG_RUNTIME_LEN || memcmp(p, TAG_RUNTIME, TAG_RUNTIME_LEN) != 0)
        return PC_TAG_NONE;
    for (size_t i = 0; i < sizeof runtime_tags / sizeof runtime_tags[0]; i++) {
        size_t l = strlen(runtime_tags[i].name);
        if (n - TAG_RUNTIME_LEN >= l && memcmp(p + TAG_RUNTIME_LEN, runtime_tags[i].name, l) == 0) {
            *len = TAG_RUNTIME_LEN + l;
            return runtime_tags[i].tag;
        }
    }
    return PC_TAG_NONE;
}

/* Number of c bytes in [p, p+n). */
static int64_t count_byte(const char *p, size_t n, char c)
{
    int64_t total = 0;
#ifdef PC_LOG_SSE2
    size_t i = 0;
    const __m128i needle = _mm_set1_epi8(c);
    const __m128i zero = _mm_setzero_si128();
    while (i + 16 <= n) {
        /* cmpeq gives -1 per hit; subtracting counts per byte lane, at most 255 rounds. */
        __m128i acc = _mm_setzero_si128();
        size_t rounds = (n - i) / 16;
        if (rounds > 255)
            rounds = 255;
        for (size_t r = 0; r < rounds; r++, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), needle));
        __m128i sums = _mm_sad_epu8(acc, zero);
        total += _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
    }
    for (; i < n; i++)
        total += p[i] == c;
#else
    /* memchr hops from line to line faster than a byte loop where it is vectorised */
    const char *e = p + n;
    while (p < e && (p = memchr(p, c, (size_t)(e - p))) != NULL) {
        total++;
        p++;
    }
#endif
    return total;
}

/* ---- one source ------------------------------------------------------------------------------ */

typedef struct scanner {
    pc_log_set *set;
    const char *name;           /* arena string */
    char *buf;
    size_t cap, len;
    size_t scan_from;           /* start of the first line not yet searched (a line start) */
    size_t counted_pos;         /* newlines before this position are in nl_count */
    int64_t nl_count;
    bool skipping;              /* inside a line longer than the buffer */
    bool looked, cr_only;       /* the first block was checked; it has CRs and no LF */
    char *scratch;

    /* input */
    int fd;                     /* -1: memory */
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    bool gzip, z_ready, z_done, z_member_open;
    z_stream z;
    unsigned char *zin;
    int64_t raw_bytes;          /* compressed bytes consumed (for messages) */
    const char *read_error;
} scanner;

/* Raw bytes from the descriptor or the memory block; 0 at EOF; -1 on a read error. */
static ssize_t raw_read(scanner *sc, void *dst, size_t n)
{
    if (sc->fd < 0) {
        size_t k = sc->mem_len - sc->mem_pos;
        if (k > n)
            k = n;
        if (k == 0)
            return 0; /* (an empty buffer may be NULL) */
        memcpy(dst, sc->mem + sc->mem_pos, k);
        sc->mem_pos += k;
        return (ssize_t)k;
    }
    for (;;) {
        ssize_t r = read(sc->fd, dst, n);
        if (r >= 0)
            return r;
        if (errno != EINTR) {
            sc->read_error = pc_arena_printf(sc->set->arena, "cannot read '%s': %s", sc->name,
                                             strerror(errno));
            return -1;
        }
    }
}

/* Decompressed bytes into dst (up to n); 0 when the stream has ended or is unreadable. */
static size_t gz_fill(scanner *sc, char *dst, size_t n)
{
    sc->z.next_out = (Bytef *)dst;
    sc->z.avail_out = (uInt)n;
    while (sc->z.avail_out == n && !sc->z_done) {
        if (sc->z.avail_in == 0) {
            ssize_t r = raw_read(sc, sc->zin, PC_LOG_ZIN_BYTES);
            if (r <= 0) {
                if (r == 0 && sc->z_member_open)
                    pc_log_warn(sc->set, sc->name,
                                "gzip data ends early (truncated file?) after %lld compressed "
                                "bytes; the lines before the cut were read",
                                (long long)sc->raw_bytes);
                sc->z_done = true;
                break;
            }
            sc->raw_bytes += r;
            sc->z.next_in = sc->zin;
            sc->z.avail_in = (uInt)r;
        }
        if (!sc->z_member_open) {
            /* After a member: another one may follow (cat a.gz b.gz is one valid gzip file). */
            if (sc->z.next_in[0] != 0x1f) {
                pc_log_warn(sc->set, sc->name, "data after the end of the gzip stream ignored");
                sc->z_done = true;
                break;
            }
            inflateReset(&sc->z);
            sc->z_member_open = true;
        }
        int ret = inflate(&sc->z, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            sc->z_member_open = false;
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            pc_log_warn(sc->set, sc->name,
                        "corrupt gzip data near compressed byte %lld (%s); the rest of the file "
                        "is not read",
                        (long long)(sc->raw_bytes - sc->z.avail_in),
                        sc->z.msg ? sc->z.msg : "inflate failed");
            sc->z_done = true;
        }
    }
    return n - sc->z.avail_out;
}

static size_t fill(scanner *sc, char *dst, size_t n)
{
    if (sc->gzip)
        return gz_fill(sc, dst, n);
    ssize_t r = raw_read(sc, dst, n);
    return r > 0 ? (size_t)r : 0;
}

/* `[LEVEL] MODULE(pid,` or `MODULE(pid)` at the start of a CANN / PYPTO log line; -1 otherwise. */
static int64_t header_pid(const char *p, size_t n)
{
    size_t i = 0;
    if (n < 6 || p[0] != '[')
        return -1;
    for (i = 1; i < n && i < 16 && p[i] != ']'; i++)
        if (p[i] < 'A' || p[i] > 'Z')
            return -1;
    if (i >= n || p[i] != ']')
        return -1;
    i++;
    while (i < n && p[i] == ' ')
        i++;
    size_t m = i;
    while (i < n && ((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z') ||
                     (p[i] >= '0' && p[i] <= '9') || p[i] == '_' || p[i] == '-'))
        i++;
    if (i == m || i >= n || p[i] != '(')
        return -1;
    i++;
    int64_t pid = 0;
    size_t d = i;
    while (i < n && p[i] >= '0' && p[i] <= '9' && i - d < 18)
        pid = pid * 10 + (p[i++] - '0');
    if (i == d || i >= n || (p[i] != ',' && p[i] != ')'))
        return -1;
    return pid;
}

static void count_newlines_to(scanner *sc, size_t pos)
{
    if (pos > sc->counted_pos) {
        sc->nl_count += count_byte(sc->buf + sc->counted_pos, pos - sc->counted_pos, '\n');
        sc->counted_pos = pos;
    }
}

/* Remember the first skipped line (file and line number) for the note that counts them. */
static void note_skip(scanner *sc, int64_t line, const char *why)
{
    struct pc_log_state *st = sc->set->state;
    if (st->first_skip_source)
        return;
    st->first_skip_source = sc->name;
    st->first_skip_line = line;
    st->first_skip_why = why;
}

/* A tagged line [ls, le) whose tag starts at tp. */
static void handle_line(scanner *sc, const char *ls, const char *le, const char *tp,
                        pc_log_tag tag, size_t tlen, bool unterminated)
{
    pc_log_stats *st = &sc->set->stats;
    if (tag == PC_TAG_WORKSPACE_SIZE)
        st->size_lines++;
    else
        st->workspace_lines++;
    if (memchr(ls, 0, (size_t)(le - ls)))
        return; /* counted as binary by the block check */

    /* Text after the tag without `"` (device logs quote the stringised format in pieces) and CR. */
    size_t n = 0;
    bool control = false;
    for (const char *q = tp + tlen; q < le; q++) {
        unsigned char c = (unsigned char)*q;
        if (c == '"' || c == '\r')
            continue;
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            control = true;
        sc->scratch[n++] = (char)c;
    }
    if (control) {
        st->binary_lines++;
        count_newlines_to(sc, (size_t)(ls - sc->buf));
        note_skip(sc, sc->nl_count + 1, "control bytes in a tagged line");
        return;
    }

    /* pid: a header on the same line before the tag, or, when the message opens its line
     * (CANN device logs: header line, then the quoted message), the previous line's header. */
    int64_t pid = header_pid(ls, (size_t)(tp - ls));
    if (pid < 0) {
        bool message_only = true;
        for (const char *q = ls; q < tp; q++)
            if (*q != '"' && *q != ' ' && *q != '\t')
                message_only = false;
        if (message_only && ls > sc->buf) {
            const char *pe = ls - 1; /* the previous line's '\n' */
            const char *ps = memrchr(sc->buf, '\n', (size_t)(pe - sc->buf));
            ps = ps ? ps + 1 : sc->buf;
            pid = header_pid(ps, (size_t)(pe - ps));
        }
    }

    count_newlines_to(sc, (size_t)(ls - sc->buf));
    pc_log_line line = {
        .source = sc->name,
        .line = sc->nl_count + 1,
        .pid = pid,
        .tag = tag,
        .text = sc->scratch,
        .len = n,
        .at_eof_unterminated = unterminated,
    };
    if (!pc_log_take_line(sc->set, &line)) {
        st->malformed_lines++;
        note_skip(sc, line.line, "a Workspace line cut short or malformed");
    }
}

/* Lines with a NUL byte in [b, e) (only called when the block has one). */
static void count_binary_lines(scanner *sc, const char *b, const char *e)
{
    while (b < e) {
        const char *nl = memchr(b, '\n', (size_t)(e - b));
        const char *le = nl ? nl : e;
        if (memchr(b, 0, (size_t)(le - b))) {
            sc->set->stats.binary_lines++;
            if (!sc->set->state->first_skip_source) {
                count_newlines_to(sc, (size_t)(b - sc->buf));
                note_skip(sc, sc->nl_count + 1, "a NUL byte");
            }
        }
        b = le + 1;
    }
}

/* Search the complete lines of the buffer (all of it at EOF) and carry what is left. */
static void process(scanner *sc, bool eof)
{
    /* A file whose first block has a CR but no LF ends its lines in lone CRs (a classic Mac
     * conversion): the scanner splits at LF, so the whole file would read as one line.  Said
     * once, and the file is not scanned. */
    if (!sc->looked && sc->len) {
        sc->looked = true;
        sc->cr_only = !memchr(sc->buf, '\n', sc->len) && memchr(sc->buf, '\r', sc->len);
        if (sc->cr_only)
            pc_log_warn(sc->set, sc->name, "its lines end in a lone CR (no LF), which runtime logs never do; "
                                           "not read: convert it first (tr '\\r' '\\n')");
    }
    if (sc->cr_only) {
        sc->len = sc->scan_from = sc->counted_pos = 0;
        sc->skipping = false;
        return;
    }
    size_t start = sc->scan_from;
    size_t end;
    if (eof) {
        end = sc->len;
    } else {
        const char *nl = memrchr(sc->buf + start, '\n', sc->len - start);
        if (!nl) {
            if (sc->len < sc->cap)
                return; /* the line goes on: read more */
            /* A line longer than the buffer: drop it and skip to its newline. */
            count_newlines_to(sc, start);
            if (!sc->cr_only)
                note_skip(sc, sc->nl_count + 1, "longer than the scan buffer");
            sc->skipping = true;
            sc->len = sc->scan_from = sc->counted_pos = 0;
            return;
        }
        end = (size_t)(nl - sc->buf) + 1;
    }
    if (end > start) {
        const char *b = sc->buf + start, *e = sc->buf + end;
        if (memchr(b, 0, (size_t)(e - b)))
            count_binary_lines(sc, b, e);
        const char *p = b;
        while (p < e) {
            const char *hit = pc_log_find_tag(p, (size_t)(e - p));
            if (!hit)
                break;
            size_t tlen = 0;
            pc_log_tag tag = pc_log_tag_at(hit, (size_t)(e - hit), &tlen);
            if (tag == PC_TAG_NONE) {
                p = hit + 1;
                continue;
            }
            const char *ls = memrchr(b, '\n', (size_t)(hit - b));
            ls = ls ? ls + 1 : b;
            const char *le = memchr(hit, '\n', (size_t)(e - hit));
            bool unterminated = !le;
            if (!le)
                le = e;
            handle_line(sc, ls, le, hit, tag, tlen, unterminated && eof);
            p = le + 1;
        }
    }
    if (eof) {
        count_newlines_to(sc, sc->len);
        if (sc->len > 0 && sc->buf[sc->len - 1] != '\n')
            sc->nl_count++; /* the last line, without a newline */
        return;
    }
    /* Carry the unfinished line, and the complete line before it when it is short enough to be
     * a header whose message is still to come. */
    size_t keep = end;
    if (end > 0) {
        const char *prev = memrchr(sc->buf, '\n', end - 1);
        size_t ps = prev ? (size_t)(prev - sc->buf) + 1 : 0;
        if (end - ps <= PC_LOG_HEADER_MAX && sc->len - ps < sc->cap)
            keep = ps; /* (never a full buffer: the next read needs room) */
    }
    if (sc->counted_pos < keep) {
        count_newlines_to(sc, keep);
        sc->counted_pos = 0;
    } else {
        sc->counted_pos -= keep;
    }
    memmove(sc->buf, sc->buf + keep, sc->len - keep);
    sc->len -= keep;
    sc->scan_from = end - keep;
}

static void scan(scanner *sc)
{
    /* Detection by magic bytes, not by name: read a first block and look at it. */
    size_t first = 0;
    size_t first_cap = PC_LOG_ZIN_BYTES < sc->cap ? PC_LOG_ZIN_BYTES : sc->cap;
    while (first < 2) {
        size_t got = 0;
        ssize_t r = raw_read(sc, sc->zin + first, first_cap - first);
        if (r > 0)
            got = (size_t)r;
        if (!got)
            break;
        first += got;
    }
    if (first >= 2 && sc->zin[0] == 0x1f && sc->zin[1] == 0x8b) {
        sc->gzip = true;
        sc->raw_bytes = (int64_t)first;
        memset(&sc->z, 0, sizeof sc->z);
        if (inflateInit2(&sc->z, 15 + 16) != Z_OK) { /* 15 window bits, gzip wrapper */
            pc_log_warn(sc->set, sc->name, "cannot start gzip decompression");
            return;
        }
        sc->z_ready = true;
        sc->z_member_open = true;
        sc->z.next_in = sc->zin;
        sc->z.avail_in = (uInt)first;
    } else {
        memcpy(sc->buf, sc->zin, first);
        sc->len = first;
        sc->set->stats.bytes += (int64_t)first;
        if (first)
            process(sc, false);
    }

    for (;;) {
        size_t got = fill(sc, sc->buf + sc->len, sc->cap - sc->len);
        if (!got)
            break;
        sc->set->stats.bytes += (int64_t)got;
        if (sc->skipping) {
            char *nl = memchr(sc->buf, '\n', got);
            if (!nl)
                continue; /* still inside the long line: drop the block */
            sc->set->stats.long_lines++;
            sc->nl_count++;
            size_t rest = got - (size_t)(nl + 1 - sc->buf);
            memmove(sc->buf, nl + 1, rest);
            sc->len = rest;
            sc->scan_from = sc->counted_pos = 0;
            sc->skipping = false;
        } else {
            sc->len += got;
        }
        process(sc, false);
    }
    if (sc->skipping) {
        sc->set->stats.long_lines++; /* the file ends inside the long line */
        sc->nl_count++;
        sc->len = 0;
    } else {
        process(sc, true);
    }
    sc->set->stats.lines += sc->nl_count;
}

static void scanner_buffers(pc_log_set *s, char **buf, char **scratch, unsigned char **zin);

static bool scan_source(pc_log_set *s, int fd, const void *mem, size_t mem_len, const char *name,
                        char **err)
{
    scanner sc;
    memset(&sc, 0, sizeof sc);
    sc.set = s;
    sc.name = pc_arena_strdup(s->arena, name);
    sc.cap = s->state->buffer_bytes;
    sc.fd = fd;
    sc.mem = mem;
    sc.mem_len = mem_len;
    scanner_buffers(s, &sc.buf, &sc.scratch, &sc.zin);
    s->stats.files++;
    scan(&sc);
    if (sc.z_ready)
        inflateEnd(&sc.z);
    if (sc.read_error)
        return pc_err_set(err, "%s", sc.read_error);
    return true;
}

/* ---- the set's buffers, files and directories ------------------------------------------------ */

typedef struct scan_buffers {
    char *buf, *scratch;
    unsigned char *zin;
} scan_buffers;

static void scanner_buffers(pc_log_set *s, char **buf, char **scratch, unsigned char **zin)
{
    /* Allocated once per set and reused by every source: memory does not grow with files. */
    scan_buffers *b = (scan_buffers *)s->state->buffers;
    if (!b) {
        b = pc_mem_calloc(1, sizeof *b);
        b->buf = pc_mem_alloc(s->state->buffer_bytes);
        b->scratch = pc_mem_alloc(s->state->buffer_bytes);
        b->zin = pc_mem_alloc(PC_LOG_ZIN_BYTES);
        s->state->buffers = b;
    }
    *buf = b->buf;
    *scratch = b->scratch;
    *zin = b->zin;
}

void pc_log_free_buffers(pc_log_set *s)
{
    scan_buffers *b = (scan_buffers *)s->state->buffers;
    if (!b)
        return;
    pc_mem_free(b->buf);
    pc_mem_free(b->scratch);
    pc_mem_free(b->zin);
    pc_mem_free(b);
    s->state->buffers = NULL;
}

size_t pc_log_buffer_size(const pc_log_opts *o)
{
    size_t n = o && o->buffer_bytes ? o->buffer_bytes : PC_LOG_DEFAULT_BUFFER;
    return n < PC_LOG_MIN_BUFFER ? PC_LOG_MIN_BUFFER : n;
}

bool pc_log_add_fd(pc_log_set *s, int fd, const char *name, char **err)
{
    return scan_source(s, fd, NULL, 0, name, err);
}

bool pc_log_add_buffer(pc_log_set *s, const void *data, size_t len, const char *name, char **err)
{
    return scan_source(s, -1, data, len, name, err);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_file(pc_log_set *s, const char *path, char **err)
{
    /* O_NONBLOCK so that a FIFO named on the command line is refused, not waited on */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return pc_err_set(err, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        /* a FIFO blocks and a device may never end: logs are files (or `-` for stdin) */
        if (fstat(fd, &st) != 0)
            pc_err_set(err, "cannot read '%s': %s", path, strerror(errno));
        else
            pc_err_set(err, "cannot read '%s': %s, not a regular file (use `-` for a pipe on stdin)", path,
                       pc_file_kind(st.st_mode));
        close(fd);
        return false;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    bool ok = scan_source(s, fd, NULL, 0, path, err);
    close(fd);
    return ok;
}

static bool add_dir(pc_log_set *s, const char *path, char **err, int depth)
{
    if (depth > 64)
        return pc_err_set(err, "'%s': directories nested too deep", path);
    DIR *d = opendir(path);
    if (!d)
        return pc_err_set(err, "cannot open directory '%s': %s", path, strerror(errno));
    PC_VEC(char *) names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        PC_VEC_PUSH(names, pc_mem_strdup(de->d_name));
    }
    closedir(d);
    if (names.count)
        qsort(names.items, names.count, sizeof names.items[0], cmp_names);

    /* Every entry is read even after one fails; the first failure is the one reported. */
    bool ok = true;
    for (size_t i = 0; i < names.count; i++) {
        pc_sb p = {0};
        pc_sb_printf(&p, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names.items[i]);
        char *child = pc_sb_take(&p);
        struct stat lst, st;
        char *e = NULL;
        bool child_ok = true;
        if (lstat(child, &lst) != 0) {
            child_ok = pc_err_set(&e, "cannot open '%s': %s", child, strerror(errno));
        } else if (S_ISDIR(lst.st_mode)) {
            child_ok = add_dir(s, child, &e, depth + 1);
        } else if (S_ISREG(lst.st_mode) || (S_ISLNK(lst.st_mode) && stat(child, &st) == 0 &&
                                            S_ISREG(st.st_mode))) {
            child_ok = add_file(s, child, &e);
        }
        /* Sockets, fifos, devices and symlinks to directories are not logs: not read. */
        if (!child_ok && ok) {
            ok = false;
            if (err) {
                pc_mem_free(*err);
                *err = e;
                e = NULL;
            }
        }
        pc_err_clear(&e); /* a later entry's failure: read past, not reported */
        pc_mem_free(child);
        pc_mem_free(names.items[i]);
    }
    pc_mem_free(names.items);
    return ok;
}

bool pc_log_add_path(pc_log_set *s, const char *path, char **err)
{
    if (strcmp(path, "-") == 0)
        return pc_log_add_fd(s, 0, "<stdin>", err);
    struct stat st;
    if (stat(path, &st) != 0)
        return pc_err_set(err, "cannot open '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return add_dir(s, path, err, 0);
    return add_file(s, path, err);
}
