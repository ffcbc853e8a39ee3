/*
 * framing.c - the LSP base protocol: `Content-Length: N` headers, a blank line, N bytes of JSON.
 *
 * Input arrives in arbitrary pieces (a header split across reads, several messages in one read),
 * so the reader buffers bytes and hands out whole messages.  A malformed header must not end the
 * session: the reader reports it once, then skips to the next "Content-Length:" it can find.
 */
#define _POSIX_C_SOURCE 200809L
#include "lsp.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

static const char content_length[] = "content-length:";

/* What was wrong with a frame, into *err as the library's own messages are (poolcheck/support.h,
 * "Errors, one way"): a heap string the caller pc_mem_frees, replacing one already there. */
static void bad_frame(char **err, const char *fmt, ...) PC_PRINTF_LIKE(2, 3);
static void bad_frame(char **err, const char *fmt, ...)
{
    if (!err)
        return;
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    pc_mem_free(*err);
    *err = pc_sb_take(&b);
}

void pc_lsp_reader_init(pc_lsp_reader *r) { memset(r, 0, sizeof *r); }

void pc_lsp_reader_free(pc_lsp_reader *r)
{
    pc_mem_free(r->buf);
    memset(r, 0, sizeof *r);
}

void pc_lsp_reader_feed(pc_lsp_reader *r, const char *data, size_t n)
{
    if (r->start == r->len) {
        r->start = r->len = 0;
    } else if (r->start > 0 && r->start >= r->cap / 2) {
        memmove(r->buf, r->buf + r->start, r->len - r->start);
        r->len -= r->start;
        r->start = 0;
    }
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n)
            cap *= 2;
        r->buf = pc_mem_realloc(r->buf, cap);
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, n);
    r->len += n;
}

/* Offset of the next "Content-Length:" (any case) at or after `from`, or len when none. */
static size_t find_content_length(const pc_lsp_reader *r, size_t from)
{
    size_t k = sizeof content_length - 1;
    for (size_t i = from; i + k <= r->len; i++)
        if (strncasecmp(r->buf + i, content_length, k) == 0)
            return i;
    return r->len;
}

/* Skip past a bad header: drop everything before the next "Content-Length:" after the current
 * position, keeping a tail that could be the start of one split across reads. */
static void resync(pc_lsp_reader *r)
{
    size_t next = find_content_length(r, r->start + 1);
    if (next < r->len) {
        r->start = next;
        r->resync = false;
        return;
    }
    size_t keep = sizeof content_length - 2;
    if (r->len - r->start > keep)
        r->start = r->len - keep;
    r->resync = true;
}

/* End of the header block starting at r->start: sets *body_at to the first body byte.  Accepts
 * "\r\n\r\n" and, leniently, "\n\n" (hand-typed input). */
static bool header_end(const pc_lsp_reader *r, size_t *body_at)
{
    for (size_t i = r->start; i < r->len; i++) {
        if (r->buf[i] != '\n')
            continue;
        size_t j = i + 1;
        if (j < r->len && r->buf[j] == '\r')
            j++;
        if (j < r->len && r->buf[j] == '\n') {
            *body_at = j + 1;
            return true;
        }
    }
    return false;
}

/* Parse the header lines in buf[from, to): the value of Content-Length, or -1 with err. */
static long long parse_headers(const char *buf, size_t from, size_t to, char **err)
{
    long long length = -1;
    size_t i = from;
    while (i < to) {
        size_t eol = i;
        while (eol < to && buf[eol] != '\n')
            eol++;
        size_t end = eol;
        if (end > i && buf[end - 1] == '\r')
            end--;
        if (end > i) {
            const char *colon = memchr(buf + i, ':', end - i);
            size_t name_len = colon ? (size_t)(colon - (buf + i)) : 0;
            if (!colon || name_len == 0) {
                bad_frame(err, "malformed header line '%.*s' (expected 'Name: value')",
                         (int)(end - i > 60 ? 60 : end - i), buf + i);
                return -1;
            }
            const char *v = colon + 1, *ve = buf + end;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            if (name_len == sizeof content_length - 2 &&
                strncasecmp(buf + i, content_length, name_len) == 0) {
                long long n = 0;
                bool ok = v < ve && ve - v <= 12;
                for (const char *p = v; ok && p < ve; p++) {
                    if (!isdigit((unsigned char)*p))
                        ok = false;
                    else
                        n = n * 10 + (*p - '0');
                }
                if (!ok) {
                    bad_frame(err, "Content-Length '%.*s' is not a byte count",
                             (int)(ve - v > 40 ? 40 : ve - v), v);
                    return -1;
                }
                if (n > (long long)PC_LSP_MAX_BODY) {
                    bad_frame(err, "Content-Length %lld exceeds the limit of %u bytes", n,
                             PC_LSP_MAX_BODY);
                    return -1;
                }
                length = n;
            }
            /* Content-Type and unknown headers are ignored: the body is UTF-8 JSON either way. */
        }
        i = eol + 1;
    }
    if (length < 0)
        bad_frame(err, "header without Content-Length");
    return length;
}

pc_lsp_frame pc_lsp_reader_next(pc_lsp_reader *r, const char **body, size_t *len, char **err)
{
    if (r->resync) {
        size_t next = find_content_length(r, r->start);
        if (next == r->len) {
            resync(r);
            return PC_LSP_FRAME_NEED_MORE;
        }
        r->start = next;
        r->resync = false;
    }
    /* Blank lines between messages are tolerated. */
    while (r->start < r->len && (r->buf[r->start] == '\r' || r->buf[r->start] == '\n'))
        r->start++;
    if (r->start == r->len)
        return PC_LSP_FRAME_NEED_MORE;
    size_t body_at;
    if (!header_end(r, &body_at)) {
        if (r->len - r->start > PC_LSP_MAX_HEADER) {
            bad_frame(err, "header block longer than %u bytes", PC_LSP_MAX_HEADER);
            resync(r);
            return PC_LSP_FRAME_BAD;
        }
        return PC_LSP_FRAME_NEED_MORE;
    }
    long long n = parse_headers(r->buf, r->start, body_at, err);
    if (n < 0) {
        resync(r);
        return PC_LSP_FRAME_BAD;
    }
    if (r->len - body_at < (size_t)n)
        return PC_LSP_FRAME_NEED_MORE;
    *body = r->buf + body_at;
    *len = (size_t)n;
    r->start = body_at + (size_t)n;
    return PC_LSP_FRAME_MESSAGE;
}

bool pc_lsp_write_body(const pc_lsp_transport *t, const char *body, size_t len)
{
    pc_sb b = {0};
    pc_sb_printf(&b, "Content-Length: %zu\r\n\r\n", len);
    pc_sb_appendn(&b, body, len);
    bool ok = t->write(t->ctx, b.data, b.len);
    pc_sb_free(&b);
    return ok;
}
