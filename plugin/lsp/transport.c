/*
 * transport.c - the two transports of poolcheck-lsp: file descriptors (stdio) and memory.
 *
 * The fd transport waits with poll(), so the server's debounce needs no threads: the main loop
 * asks for input with a timeout equal to the time left until the next analysis is due.
 */
#define _POSIX_C_SOURCE 200809L
#include "lsp.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- file descriptors -------------------------------------------------------------------- */

static long fd_read(void *ctx, char *buf, size_t cap, int timeout_ms)
{
    pc_lsp_fd_io *io = ctx;
    struct pollfd p = {.fd = io->in_fd, .events = POLLIN};
    for (;;) {
        int rc = poll(&p, 1, timeout_ms);
        if (rc == 0)
            return PC_LSP_READ_TIMEOUT;
        if (rc < 0) {
            if (errno == EINTR)
                continue;   /* a signal is not a timeout: wait again (the deadline is re-derived
                               by the caller on its next iteration, so a few ms of drift is all) */
            return PC_LSP_READ_ERROR;
        }
        break;
    }
    for (;;) {
        ssize_t n = read(io->in_fd, buf, cap);
        if (n > 0)
            return (long)n;
        if (n == 0)
            return PC_LSP_READ_EOF;
        if (errno != EINTR)
            return PC_LSP_READ_ERROR;
    }
}

static bool fd_write(void *ctx, const char *data, size_t len)
{
    pc_lsp_fd_io *io = ctx;
    while (len) {
        ssize_t n = write(io->out_fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

static int64_t fd_now_ms(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void pc_lsp_fd_transport(pc_lsp_transport *t, pc_lsp_fd_io *io, int in_fd, int out_fd)
{
    io->in_fd = in_fd;
    io->out_fd = out_fd;
    t->ctx = io;
    t->read = fd_read;
    t->write = fd_write;
    t->now_ms = fd_now_ms;
}

/* ---- memory ------------------------------------------------------------------------------ */

static long mem_read(void *ctx, char *buf, size_t cap, int timeout_ms)
{
    pc_lsp_mem *m = ctx;
    while (m->next < m->in.count && m->in.items[m->next].pos == m->in.items[m->next].len)
        m->next++;
    if (m->next == m->in.count) {
        if (timeout_ms < 0)
            return PC_LSP_READ_EOF;   /* nothing will ever come: the client hung up */
        m->clock_ms += timeout_ms;
        return PC_LSP_READ_TIMEOUT;
    }
    pc_lsp_mem_chunk *c = &m->in.items[m->next];
    if (c->at_ms > m->clock_ms) {
        if (timeout_ms >= 0 && m->clock_ms + timeout_ms < c->at_ms) {
            m->clock_ms += timeout_ms;
            return PC_LSP_READ_TIMEOUT;
        }
        m->clock_ms = c->at_ms;
    }
    size_t n = c->len - c->pos;
    if (n > cap)
        n = cap;
    if (m->max_read && n > m->max_read)
        n = m->max_read;
    memcpy(buf, c->data + c->pos, n);
    c->pos += n;
    return (long)n;
}

static bool mem_write(void *ctx, const char *data, size_t len)
{
    pc_lsp_mem *m = ctx;
    if (m->write_fails)
        return false;
    pc_sb_appendn(&m->out, data, len);
    return true;
}

static int64_t mem_now_ms(void *ctx) { return ((pc_lsp_mem *)ctx)->clock_ms; }

void pc_lsp_mem_init(pc_lsp_mem *m, pc_lsp_transport *t)
{
    memset(m, 0, sizeof *m);
    t->ctx = m;
    t->read = mem_read;
    t->write = mem_write;
    t->now_ms = mem_now_ms;
}

void pc_lsp_mem_free(pc_lsp_mem *m)
{
    for (size_t i = 0; i < m->in.count; i++)
        pc_mem_free(m->in.items[i].data);
    PC_VEC_FREE(m->in);
    pc_sb_free(&m->out);
}

void pc_lsp_mem_feed(pc_lsp_mem *m, int64_t at_ms, const char *data, size_t len)
{
    pc_lsp_mem_chunk c = {pc_mem_alloc(len ? len : 1), len, 0, at_ms};
    memcpy(c.data, data, len);
    PC_VEC_PUSH(m->in, c);
}

void pc_lsp_mem_feed_msg(pc_lsp_mem *m, int64_t at_ms, const char *json)
{
    pc_sb b = {0};
    pc_sb_printf(&b, "Content-Length: %zu\r\n\r\n%s", strlen(json), json);
    pc_lsp_mem_feed(m, at_ms, b.data, b.len);
    pc_sb_free(&b);
}
