/*
 * fuzz_lsp.c - poolcheck-lsp's framing and JSON-RPC dispatch (plugin/lsp), driven through the
 * server's in-memory transport (lsp.h: pc_lsp_mem, a virtual clock, so debounces cost nothing).
 *
 * Input, byte 0:
 *   bit 0   raw mode: the rest is the byte stream as the client would send it (headers included);
 *           framed mode: the rest is JSON bodies separated by 0x1e (ASCII record separator),
 *           each framed with a correct Content-Length, after a valid `initialize` handshake, so
 *           the fuzzer spends its time in dispatch and the document handlers rather than headers
 *   bit 1   deliver byte by byte (pc_lsp_mem.max_read = 1), every message split across reads
 *   bit 2   each message arrives 200 ms after the previous one (past the debounce) instead of
 *           all at once
 * The server must answer with well-formed framed messages and return, whatever it is sent.
 */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>

#include "lsp.h"

static const char init_msg[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"processId\":null,"
    "\"rootUri\":null,\"capabilities\":{\"general\":{\"positionEncodings\":[\"utf-8\",\"utf-16\"]}}}}";
static const char initialized_msg[] = "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}";

/* Everything the server wrote must be `Content-Length: N\r\n\r\n` + N bytes, repeated. */
static void check_output(const pc_sb *out)
{
    const char *p = out->data ? out->data : "";
    const char *end = p + out->len;
    while (p < end) {
        unsigned long n = 0;
        int used = 0;
        if (sscanf(p, "Content-Length: %lu\r\n\r\n%n", &n, &used) != 1 || used <= 0 ||
            (size_t)(end - p - used) < n) {
            fprintf(stderr, "server output is not framed at byte %ld\n", (long)(p - out->data));
            abort();
        }
        p += used + n;
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t ctl = data[0];
    const char *in = (const char *)data + 1;
    size_t n = size - 1;

    pc_lsp_mem mem;
    pc_lsp_transport t;
    pc_lsp_mem_init(&mem, &t);
    mem.max_read = (ctl & 2) ? 1 : 0;
    int64_t at = 0, step = (ctl & 4) ? 200 : 0;
    if (ctl & 1) {
        pc_lsp_mem_feed(&mem, 0, in, n);
    } else {
        pc_lsp_mem_feed_msg(&mem, at, init_msg);
        pc_lsp_mem_feed_msg(&mem, at, initialized_msg);
        size_t start = 0;
        for (size_t i = 0; i <= n; i++) {
            if (i < n && in[i] != 0x1e)
                continue;
            pc_sb b = {0};
            pc_sb_printf(&b, "Content-Length: %zu\r\n\r\n", i - start);
            pc_sb_appendn(&b, in + start, i - start);
            at += step;
            pc_lsp_mem_feed(&mem, at, b.data, b.len);
            pc_sb_free(&b);
            start = i + 1;
        }
    }
    pc_lsp_server_opts o;
    pc_lsp_server_opts_init(&o);
    o.docs_base = "https://docs.example/poolcheck/checks";
    pc_lsp_server *s = pc_lsp_server_new(&t, &o);
    (void)pc_lsp_server_run(s);
    pc_lsp_server_free(s);
    check_output(&mem.out);
    pc_lsp_mem_free(&mem);
    return 0;
}
