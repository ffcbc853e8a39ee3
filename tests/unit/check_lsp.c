/*
 * check_lsp.c - poolcheck-lsp's core over an in-memory transport: framing, JSON-RPC dispatch and
 * the lifecycle, position-encoding conversion, debounce on a virtual clock, and the diagnostics,
 * quickfixes, hovers, inlay hints, code lenses and the lens's apply command for the seed example
 * (examples/k_tmp_to_d_emb.py, bundled), with a zero-depth assemble pool configured where a
 * diagnostic is wanted.
 *
 * Outputs are parsed here with an independent, strict framing parser, so a server that wrote a
 * stray byte to its protocol stream fails every session test.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lsp.h"

/* ==== helpers ================================================================================= */

/* A session: a server on a memory transport, its input queued, its output parsed. */
typedef struct session {
    pc_lsp_mem mem;
    pc_lsp_transport t;
    pc_lsp_server_opts opts;
    int rc;
    cJSON **msgs;
    size_t nmsgs;
} session;

static void sess_init(session *x, int debounce_ms)
{
    memset(x, 0, sizeof *x);
    pc_lsp_mem_init(&x->mem, &x->t);
    pc_lsp_server_opts_init(&x->opts);
    x->opts.debounce_ms = debounce_ms;
    x->opts.docs_base = "https://docs.example/poolcheck/checks";
}

static void sess_send_json(session *x, int64_t at, cJSON *msg)
{
    char *s = cJSON_PrintUnformatted(msg);
    pc_lsp_mem_feed_msg(&x->mem, at, s);
    cJSON_free(s);
    cJSON_Delete(msg);
}

static void sess_send(session *x, int64_t at, const char *json)
{
    pc_lsp_mem_feed_msg(&x->mem, at, json);
}

/* Strictly parse everything the server wrote: `Content-Length: N\r\n\r\n` + N bytes, repeated,
 * nothing else.  Fails the test on any stray byte. */
static void sess_parse_output(session *x)
{
    const char *p = x->mem.out.data ? x->mem.out.data : "";
    const char *end = p + x->mem.out.len;
    while (p < end) {
        unsigned long n = 0;
        int used = 0;
        ck_assert_msg(sscanf(p, "Content-Length: %lu\r\n\r\n%n", &n, &used) == 1 && used > 0,
                      "output is not a framed message at byte %ld: '%.40s'",
                      (long)(p - x->mem.out.data), p);
        p += used;
        ck_assert_msg((size_t)(end - p) >= n, "truncated body");
        cJSON *m = cJSON_ParseWithLength(p, n);
        ck_assert_msg(m != NULL, "body is not JSON: '%.*s'", (int)n, p);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "jsonrpc");
        ck_assert(cJSON_IsString(v) && strcmp(v->valuestring, "2.0") == 0);
        x->msgs = realloc(x->msgs, (x->nmsgs + 1) * sizeof *x->msgs);
        x->msgs[x->nmsgs++] = m;
        p += n;
    }
}

static void sess_run(session *x)
{
    pc_lsp_server *s = pc_lsp_server_new(&x->t, &x->opts);
    x->rc = pc_lsp_server_run(s);
    pc_lsp_server_free(s);
    sess_parse_output(x);
}

static void sess_free(session *x)
{
    for (size_t i = 0; i < x->nmsgs; i++)
        cJSON_Delete(x->msgs[i]);
    free(x->msgs);
    pc_lsp_mem_free(&x->mem);
}

/* The response to request `id` (numeric ids). */
static const cJSON *response(const session *x, int id)
{
    for (size_t i = 0; i < x->nmsgs; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x->msgs[i], "id");
        if (cJSON_IsNumber(v) && v->valueint == id && !cJSON_GetObjectItemCaseSensitive(x->msgs[i], "method"))
            return x->msgs[i];
    }
    ck_abort_msg("no response to request %d", id);
    return NULL;
}

static int error_code(const cJSON *m)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(m, "error");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "code");
    return cJSON_IsNumber(c) ? c->valueint : 0;
}

/* The n-th (0-based) notification with this method, or NULL. */
static const cJSON *notification(const session *x, const char *method, int n)
{
    for (size_t i = 0; i < x->nmsgs; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(x->msgs[i], "method");
        if (cJSON_IsString(m) && strcmp(m->valuestring, method) == 0 && n-- == 0)
            return cJSON_GetObjectItemCaseSensitive(x->msgs[i], "params");
    }
    return NULL;
}

static int count_notifications(const session *x, const char *method)
{
    int n = 0;
    while (notification(x, method, n))
        n++;
    return n;
}

static const char *initialize_utf16 =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}";
static const char *initialized = "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}";
static const char *shutdown_req = "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"shutdown\"}";
static const char *exit_note = "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}";

static cJSON *request(int id, const char *method, cJSON *params)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddNumberToObject(m, "id", id);
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    return m;
}

static cJSON *notify(const char *method, cJSON *params)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    return m;
}

static cJSON *initialize_with(const char *encodings_json, const char *init_options_json)
{
    cJSON *p = cJSON_CreateObject();
    cJSON *caps = cJSON_AddObjectToObject(p, "capabilities");
    if (encodings_json)
        cJSON_AddItemToObject(cJSON_AddObjectToObject(caps, "general"), "positionEncodings",
                              cJSON_Parse(encodings_json));
    if (init_options_json)
        cJSON_AddItemToObject(p, "initializationOptions", cJSON_Parse(init_options_json));
    return request(1, "initialize", p);
}

static cJSON *did_open(const char *uri, const char *lang, int version, const char *text)
{
    cJSON *p = cJSON_CreateObject();
    cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddStringToObject(td, "languageId", lang);
    cJSON_AddNumberToObject(td, "version", version);
    cJSON_AddStringToObject(td, "text", text);
    return notify("textDocument/didOpen", p);
}

static cJSON *did_change(const char *uri, int version, const char *text)
{
    cJSON *p = cJSON_CreateObject();
    cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddNumberToObject(td, "version", version);
    cJSON *ch = cJSON_AddArrayToObject(p, "contentChanges");
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "text", text);
    cJSON_AddItemToArray(ch, c);
    return notify("textDocument/didChange", p);
}

static cJSON *text_document_params(const char *uri)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(cJSON_AddObjectToObject(p, "textDocument"), "uri", uri);
    return p;
}

static cJSON *position_json(int line, int ch)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", line);
    cJSON_AddNumberToObject(o, "character", ch);
    return o;
}

static int num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "missing number '%s'", key);
    return v->valueint;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* ==== framing ================================================================================= */

static pc_lsp_frame next(pc_lsp_reader *r, const char **body, size_t *len)
{
    return pc_lsp_reader_next(r, body, len, NULL);
}

START_TEST(frame_one_message)
{
    pc_lsp_reader r;
    pc_lsp_reader_init(&r);
    const char *in = "Content-Length: 2\r\n\r\n{}";
    pc_lsp_reader_feed(&r, in, strlen(in));
    const char *body;
    size_t len;
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_MESSAGE);
    ck_assert_uint_eq(len, 2);
    ck_assert(memcmp(body, "{}", 2) == 0);
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_NEED_MORE);
    pc_lsp_reader_free(&r);
}
END_TEST

START_TEST(frame_split_byte_by_byte)
{
    /* The header and the body arrive one byte at a time: nothing until the last body byte. */
    pc_lsp_reader r;
    pc_lsp_reader_init(&r);
    const char *in = "Content-Length: 13\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8"
                     "\r\n\r\n{\"a\":[1,2,3]}";
    size_t n = strlen(in);
    const char *body;
    size_t len;
    for (size_t i = 0; i < n; i++) {
        pc_lsp_reader_feed(&r, in + i, 1);
        pc_lsp_frame f = next(&r, &body, &len);
        if (i + 1 < n)
            ck_assert_msg(f == PC_LSP_FRAME_NEED_MORE, "message after only %zu bytes", i + 1);
        else
            ck_assert_int_eq(f, PC_LSP_FRAME_MESSAGE);
    }
    ck_assert_uint_eq(len, 13);
    ck_assert(memcmp(body, "{\"a\":[1,2,3]}", 13) == 0);
    pc_lsp_reader_free(&r);
}
END_TEST

START_TEST(frame_several_in_one_read)
{
    pc_lsp_reader r;
    pc_lsp_reader_init(&r);
    const char *in = "Content-Length: 3\r\n\r\n[1]content-length:3\r\n\r\n[2]CONTENT-LENGTH:  3  \r\n\r\n[3]"
                     "Content-Length: 3\r\n\r\n[4";   /* the last one is incomplete */
    pc_lsp_reader_feed(&r, in, strlen(in));
    const char *body;
    size_t len;
    for (int i = 1; i <= 3; i++) {
        ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_MESSAGE);
        char want[4];
        snprintf(want, sizeof want, "[%d]", i);
        ck_assert(len == 3 && memcmp(body, want, 3) == 0);
    }
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_NEED_MORE);
    pc_lsp_reader_feed(&r, "]", 1);
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_MESSAGE);
    ck_assert(len == 3 && memcmp(body, "[4]", 3) == 0);
    pc_lsp_reader_free(&r);
}
END_TEST

START_TEST(frame_counts_bytes_not_characters)
{
    /* "池深" is 6 bytes in UTF-8 but 2 characters: Content-Length 9 covers `"池深"!` exactly. */
    pc_lsp_reader r;
    pc_lsp_reader_init(&r);
    const char *in = "Content-Length: 9\r\n\r\n\"\xE6\xB1\xA0\xE6\xB7\xB1\"!!Content-Length: 2\r\n\r\n{}";
    pc_lsp_reader_feed(&r, in, strlen(in));
    const char *body;
    size_t len;
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_MESSAGE);
    ck_assert_uint_eq(len, 9);
    ck_assert(memcmp(body, "\"\xE6\xB1\xA0\xE6\xB7\xB1\"!", 9) == 0);
    /* One '!' is left before the next header: that is a malformed header line... */
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_BAD);
    /* ...after which the reader finds the next message. */
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_MESSAGE);
    ck_assert(len == 2 && memcmp(body, "{}", 2) == 0);
    pc_lsp_reader_free(&r);
}
END_TEST

START_TEST(frame_bad_content_length_recovers)
{
    static const char *bad[] = {
        "Content-Length: abc\r\n\r\n{}",
        "Content-Length: -5\r\n\r\n{}",
        "Content-Length: 99999999999999\r\n\r\n{}",
        "Content-Type: x\r\n\r\n{}",                 /* no Content-Length at all */
        "Content-Length 2\r\n\r\n{}",                /* no colon */
        "Content-Length: \r\n\r\n{}",                /* empty */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pc_lsp_reader r;
        pc_lsp_reader_init(&r);
        pc_lsp_reader_feed(&r, bad[i], strlen(bad[i]));
        const char *good = "Content-Length: 7\r\n\r\n{\"x\":1}";
        pc_lsp_reader_feed(&r, good, strlen(good));
        const char *body;
        size_t len;
        char *err = NULL;
        ck_assert_msg(pc_lsp_reader_next(&r, &body, &len, &err) == PC_LSP_FRAME_BAD,
                      "case %zu not rejected", i);
        ck_assert_msg(err && err[0] != 0, "case %zu: no reason given", i);
        pc_mem_free(err);
        ck_assert_msg(next(&r, &body, &len) == PC_LSP_FRAME_MESSAGE, "case %zu: no recovery", i);
        ck_assert(len == 7 && memcmp(body, "{\"x\":1}", 7) == 0);
        pc_lsp_reader_free(&r);
    }
}
END_TEST

START_TEST(frame_bad_header_then_split_next)
{
    /* After a bad header the next "Content-Length:" arrives split across reads. */
    pc_lsp_reader r;
    pc_lsp_reader_init(&r);
    const char *a = "Content-Length: zz\r\n\r\n{garbage}Content-Le";
    const char *b = "ngth: 2\r\n\r\n{}";
    pc_lsp_reader_feed(&r, a, strlen(a));
    const char *body;
    size_t len;
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_BAD);
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_NEED_MORE);
    pc_lsp_reader_feed(&r, b, strlen(b));
    ck_assert_int_eq(next(&r, &body, &len), PC_LSP_FRAME_MESSAGE);
    ck_assert(len == 2 && memcmp(body, "{}", 2) == 0);
    pc_lsp_reader_free(&r);
}
END_TEST

START_TEST(frame_writer)
{
    pc_lsp_mem m;
    pc_lsp_transport t;
    pc_lsp_mem_init(&m, &t);
    ck_assert(pc_lsp_write_body(&t, "{\"k\":\"\xC3\xA9\"}", 10));
    ck_assert_str_eq(m.out.data, "Content-Length: 10\r\n\r\n{\"k\":\"\xC3\xA9\"}");
    m.write_fails = true;
    ck_assert(!pc_lsp_write_body(&t, "{}", 2));
    pc_lsp_mem_free(&m);
}
END_TEST

/* ==== dispatch and lifecycle ================================================================= */

START_TEST(dispatch_before_initialize)
{
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"textDocument/hover\",\"params\":{}}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"no/such\"}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{}}");
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, shutdown_req);
    sess_send(&x, 0, exit_note);
    sess_run(&x);
    ck_assert_int_eq(error_code(response(&x, 7)), PC_LSP_SERVER_NOT_INITIALIZED);
    ck_assert_int_eq(error_code(response(&x, 8)), PC_LSP_SERVER_NOT_INITIALIZED);
    ck_assert_int_eq(error_code(response(&x, 1)), 0);
    ck_assert_int_eq(x.rc, 0);
    /* The dropped didOpen produced nothing: three responses are all there is. */
    ck_assert_uint_eq(x.nmsgs, 4);
    sess_free(&x);
}
END_TEST

START_TEST(dispatch_initialize_result)
{
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, initialize_utf16);   /* twice is an error */
    sess_send(&x, 0, initialized);
    sess_run(&x);
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(x.msgs[0], "result");
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(r, "capabilities");
    ck_assert_str_eq(str(caps, "positionEncoding"), "utf-16");
    const cJSON *sync = cJSON_GetObjectItemCaseSensitive(caps, "textDocumentSync");
    ck_assert_int_eq(num(sync, "change"), 1);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sync, "openClose")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(caps, "hoverProvider")));
    const cJSON *ca = cJSON_GetObjectItemCaseSensitive(caps, "codeActionProvider");
    const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(ca, "codeActionKinds");
    ck_assert_str_eq(cJSON_GetArrayItem(kinds, 0)->valuestring, "quickfix");
    ck_assert_str_eq(str(cJSON_GetObjectItemCaseSensitive(r, "serverInfo"), "name"), "poolcheck-lsp");
    ck_assert_uint_eq(x.nmsgs, 2);
    ck_assert_int_eq(error_code(x.msgs[1]), PC_LSP_INVALID_REQUEST);
    /* End of input without shutdown/exit: status 1. */
    ck_assert_int_eq(x.rc, 1);
    sess_free(&x);
}
END_TEST

START_TEST(dispatch_utf8_negotiated)
{
    static const char *offers[] = {"[\"utf-16\",\"utf-8\"]", "[\"utf-8\"]", "[\"utf-32\",\"utf-16\"]", "[]"};
    static const char *want[] = {"utf-8", "utf-8", "utf-16", "utf-16"};
    for (int i = 0; i < 4; i++) {
        session x;
        sess_init(&x, 0);
        sess_send_json(&x, 0, initialize_with(offers[i], NULL));
        sess_run(&x);
        const cJSON *caps = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(response(&x, 1), "result"), "capabilities");
        ck_assert_str_eq(str(caps, "positionEncoding"), want[i]);
        sess_free(&x);
    }
}
END_TEST

START_TEST(dispatch_malformed_messages_keep_serving)
{
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    pc_lsp_mem_feed(&x.mem, 0, "Content-Length: nope\r\n\r\n{}", 26);               /* bad header */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":");                   /* bad JSON */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"shutdown\"} x");  /* trailing junk */
    sess_send(&x, 0, "[1,2]");                                                     /* a batch */
    sess_send(&x, 0, "42");                                                        /* not an object */
    sess_send(&x, 0, "{\"id\":4,\"method\":\"shutdown\"}");                         /* no jsonrpc */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":17}");                /* method not a string */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"shutdown\"}");      /* id an object */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"workspace/unknown\"}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":1}}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"method\":\"custom/unknownNotification\"}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"textDocument/hover\","
                     "\"params\":{\"textDocument\":{\"uri\":\"file:///nowhere.py\"},\"position\":{\"line\":0,\"character\":0}}}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"textDocument/hover\",\"params\":{\"position\":{}}}");
    sess_send(&x, 0, shutdown_req);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"textDocument/hover\",\"params\":{}}");
    sess_send(&x, 0, exit_note);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"shutdown\"}");   /* after exit: unread */
    sess_run(&x);
    int want[][2] = {
        {-1, PC_LSP_PARSE_ERROR},      /* bad header */
        {-1, PC_LSP_PARSE_ERROR},      /* bad JSON */
        {-1, PC_LSP_PARSE_ERROR},      /* trailing junk */
        {-1, PC_LSP_INVALID_REQUEST},  /* batch */
        {-1, PC_LSP_INVALID_REQUEST},  /* 42 */
        {4, PC_LSP_INVALID_REQUEST},
        {5, PC_LSP_INVALID_REQUEST},
        {-1, PC_LSP_INVALID_REQUEST},  /* id {} */
        {6, PC_LSP_METHOD_NOT_FOUND},
    };
    size_t i = 1;   /* msgs[0] is the initialize response */
    for (size_t k = 0; k < sizeof want / sizeof *want; k++, i++) {
        ck_assert_msg(i < x.nmsgs, "missing reply %zu", k);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(x.msgs[i], "id");
        if (want[k][0] < 0)
            ck_assert_msg(cJSON_IsNull(id), "reply %zu: id should be null", k);
        else
            ck_assert_msg(cJSON_IsNumber(id) && id->valueint == want[k][0], "reply %zu: wrong id", k);
        ck_assert_msg(error_code(x.msgs[i]) == want[k][1], "reply %zu: code %d, want %d", k,
                      error_code(x.msgs[i]), want[k][1]);
    }
    /* The string id is echoed; hover on an unknown document is a null result. */
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(x.msgs[i], "id");
    ck_assert(cJSON_IsString(id) && strcmp(id->valuestring, "s-1") == 0);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(x.msgs[i], "result")));
    i++;
    ck_assert_int_eq(error_code(x.msgs[i++]), PC_LSP_INVALID_PARAMS);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(x.msgs[i++], "result")));   /* shutdown */
    ck_assert_int_eq(error_code(x.msgs[i++]), PC_LSP_INVALID_REQUEST);                 /* after shutdown */
    ck_assert_uint_eq(i, x.nmsgs);   /* notifications got no reply, nothing after exit */
    ck_assert_int_eq(x.rc, 0);
    sess_free(&x);
}
END_TEST

/* Messages cJSON took that the one strict JSON reader (poolcheck/json.h) refuses: each is a
 * Parse error with a null id that says where the problem is, and the server keeps serving. */
START_TEST(dispatch_strict_json)
{
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"shutdown\"}");   /* leading zero */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"a\tb\"}");        /* raw tab */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"\xff\"}");         /* invalid UTF-8 */
    static const char nul[] = "Content-Length: %d\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"shutdown\"}";
    char framed[128];
    int n = snprintf(framed, sizeof framed, nul, (int)strlen("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"shutdown\"}") + 1);
    pc_lsp_mem_feed(&x.mem, 0, framed, (size_t)n + 1); /* the NUL after the value is in the body */
    sess_send(&x, 0, exit_note);
    sess_run(&x);
    static const char *const where[] = {"(line 1, column 23: invalid number (leading zero))",
                                        "(line 1, column 36: control character in a string",
                                        "(line 1, column 35: invalid UTF-8 in a string)",
                                        "(line 1, column 45: unexpected NUL byte)"};
    ck_assert_uint_eq(x.nmsgs, 1 + 4);
    for (size_t k = 0; k < 4; k++) {
        const cJSON *m = x.msgs[1 + k];
        ck_assert_msg(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(m, "id")), "reply %zu: id should be null", k);
        ck_assert_int_eq(error_code(m), PC_LSP_PARSE_ERROR);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "error"), "message");
        ck_assert_msg(cJSON_IsString(e) && strstr(e->valuestring, where[k]), "reply %zu: '%s'", k,
                      cJSON_IsString(e) ? e->valuestring : "?");
    }
    sess_free(&x);
}
END_TEST

START_TEST(dispatch_exit_without_shutdown)
{
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, exit_note);
    sess_run(&x);
    ck_assert_int_eq(x.rc, 1);
    sess_free(&x);

    sess_init(&x, 0);
    sess_send(&x, 0, exit_note);   /* exit before initialize is still exit */
    sess_run(&x);
    ck_assert_int_eq(x.rc, 1);
    ck_assert_uint_eq(x.nmsgs, 0);
    sess_free(&x);
}
END_TEST

START_TEST(dispatch_byte_by_byte_session)
{
    /* A whole session delivered one byte per read behaves like one delivered at once. */
    session x;
    sess_init(&x, 0);
    x.mem.max_read = 1;
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}");
    sess_send(&x, 0, shutdown_req);
    sess_send(&x, 0, exit_note);
    sess_run(&x);
    ck_assert_uint_eq(x.nmsgs, 3);
    ck_assert_int_eq(error_code(response(&x, 2)), PC_LSP_METHOD_NOT_FOUND);
    ck_assert_int_eq(x.rc, 0);
    sess_free(&x);
}
END_TEST

START_TEST(dispatch_client_gone)
{
    /* A client that stops reading: the server stops instead of spinning. */
    session x;
    sess_init(&x, 0);
    x.mem.write_fails = true;
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, shutdown_req);
    sess_send(&x, 0, exit_note);
    sess_run(&x);
    ck_assert_int_eq(x.rc, 1);
    ck_assert_uint_eq(x.mem.in.items[1].pos, 0);   /* it stopped after the first failed write */
    sess_free(&x);
}
END_TEST

START_TEST(dispatch_settings_errors_are_shown)
{
    session x;
    sess_init(&x, 0);
    sess_send_json(&x, 0, initialize_with(NULL, "{\"poolcheck\":{\"set\":[\"no_equals_sign\"],"
                                                "\"bind\":[\"n=abc\",\"m=4\"],\"configFile\":17}}"));
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/didChangeConfiguration\","
                     "\"params\":{\"settings\":{\"bind\":{\"n\":\"x\"}}}}");
    sess_run(&x);
    const cJSON *m = notification(&x, "window/showMessage", 0);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(num(m, "type"), 1);
    const char *text = str(m, "message");
    ck_assert_ptr_nonnull(strstr(text, "no_equals_sign"));
    ck_assert_ptr_nonnull(strstr(text, "n=abc"));
    ck_assert_ptr_null(strstr(text, "m=4"));
    ck_assert_ptr_nonnull(strstr(text, "configFile"));
    m = notification(&x, "window/showMessage", 1);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(strstr(str(m, "message"), "`bind.n` must be an integer, found a string"));
    sess_free(&x);
}
END_TEST

/* ==== positions =============================================================================== */

/* "aé😀b" : bytes a(1) é(2) 😀(4) b(1); UTF-16 units 1, 1, 2, 1. */
static const char mixed[] = "x = 1\r\na\xC3\xA9\xF0\x9F\x98\x80" "b\rlast";

START_TEST(pos_utf16_and_utf8)
{
    pc_lsp_lines l;
    pc_lsp_lines_init(&l, mixed, strlen(mixed));
    ck_assert_uint_eq(l.nlines, 3);   /* \r\n and a lone \r both end lines */
    ck_assert_uint_eq(pc_lsp_line_len(&l, 0), 5);
    ck_assert_uint_eq(pc_lsp_line_len(&l, 1), 8);
    /* byte column -> character: a at 1, é at 2, 😀 at 4, b at 8, end at 9 */
    static const uint32_t cols[] = {1, 2, 4, 8, 9};
    static const uint32_t u16[] = {0, 1, 2, 4, 5};
    static const uint32_t u8[] = {0, 1, 3, 7, 8};
    for (int i = 0; i < 5; i++) {
        pc_lsp_pos p = pc_lsp_to_lsp(&l, 2, cols[i], PC_LSP_UTF16);
        ck_assert_uint_eq(p.line, 1);
        ck_assert_msg(p.character == u16[i], "col %u: utf-16 %u, want %u", cols[i], p.character, u16[i]);
        p = pc_lsp_to_lsp(&l, 2, cols[i], PC_LSP_UTF8);
        ck_assert_uint_eq(p.character, u8[i]);
        /* and back */
        uint32_t line, col;
        pc_lsp_pos q = {1, u16[i]};
        pc_lsp_from_lsp(&l, q, PC_LSP_UTF16, &line, &col);
        ck_assert_uint_eq(line, 2);
        ck_assert_uint_eq(col, cols[i]);
        q.character = u8[i];
        pc_lsp_from_lsp(&l, q, PC_LSP_UTF8, &line, &col);
        ck_assert_uint_eq(col, cols[i]);
    }
    /* A UTF-16 position inside the surrogate pair of 😀 lands after it. */
    uint32_t line, col;
    pc_lsp_pos mid = {1, 3};
    pc_lsp_from_lsp(&l, mid, PC_LSP_UTF16, &line, &col);
    ck_assert_uint_eq(col, 8);
    pc_lsp_lines_free(&l);
}
END_TEST

START_TEST(pos_clamping_and_unknown)
{
    pc_lsp_lines l;
    pc_lsp_lines_init(&l, mixed, strlen(mixed));
    pc_lsp_pos p = pc_lsp_to_lsp(&l, 0, 0, PC_LSP_UTF16);   /* unknown location */
    ck_assert(p.line == 0 && p.character == 0);
    p = pc_lsp_to_lsp(&l, 1, 80, PC_LSP_UTF16);              /* past the end of the line */
    ck_assert(p.line == 0 && p.character == 5);
    p = pc_lsp_to_lsp(&l, 2, 80, PC_LSP_UTF16);              /* a \r\n is not content */
    ck_assert(p.line == 1 && p.character == 5);
    p = pc_lsp_to_lsp(&l, 9, 1, PC_LSP_UTF16);               /* past the last line */
    ck_assert(p.line == 2 && p.character == 4);
    uint32_t line, col;
    pc_lsp_pos far = {40, 2};
    pc_lsp_from_lsp(&l, far, PC_LSP_UTF16, &line, &col);
    ck_assert(line == 3 && col == 5);
    pc_lsp_lines_free(&l);

    /* Invalid UTF-8 counts one unit per byte; an empty text has one empty line. */
    const char bad[] = "\xFF\xC3(z";
    pc_lsp_lines_init(&l, bad, 4);
    ck_assert_uint_eq(pc_lsp_to_lsp(&l, 1, 4, PC_LSP_UTF16).character, 3);
    pc_lsp_lines_free(&l);
    pc_lsp_lines_init(&l, "", 0);
    ck_assert_uint_eq(l.nlines, 1);
    p = pc_lsp_to_lsp(&l, 3, 3, PC_LSP_UTF16);
    ck_assert(p.line == 0 && p.character == 0);
    pc_lsp_lines_free(&l);
}
END_TEST

START_TEST(pos_uris)
{
    char *p = pc_lsp_uri_to_path("file:///tmp/a%20b/%E6%B1%A0.py");
    ck_assert_str_eq(p, "/tmp/a b/\xE6\xB1\xA0.py");
    char *u = pc_lsp_path_to_uri(p);
    ck_assert_str_eq(u, "file:///tmp/a%20b/%E6%B1%A0.py");
    pc_mem_free(p);
    pc_mem_free(u);
    p = pc_lsp_uri_to_path("file://localhost/etc/x%2By.cpp");
    ck_assert_str_eq(p, "/etc/x+y.cpp");
    pc_mem_free(p);
    p = pc_lsp_uri_to_path("untitled:Untitled-1");
    ck_assert_str_eq(p, "untitled:Untitled-1");
    pc_mem_free(p);
}
END_TEST

/* ==== debounce ================================================================================ */

START_TEST(debounce_rapid_edits)
{
    /* Edits 10 ms apart coalesce: only the last version is analysed.  An edit after a quiet
     * period is analysed on its own.  The virtual clock makes this exact. */
    session x;
    sess_init(&x, 150);
    const char *uri = "file:///tmp/debounce_k.py";
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, initialized);
    sess_send_json(&x, 0, did_open(uri, "python", 1, "import pypto\n"));
    sess_send_json(&x, 10, did_change(uri, 2, "import pypto\n\n"));
    sess_send_json(&x, 20, did_change(uri, 3, "import pypto\n\n\n"));
    sess_send_json(&x, 1000, did_change(uri, 4, "import pypto\n"));
    sess_send(&x, 2000, shutdown_req);
    sess_send(&x, 2000, exit_note);
    sess_run(&x);
    ck_assert_int_eq(count_notifications(&x, "textDocument/publishDiagnostics"), 2);
    ck_assert_int_eq(num(notification(&x, "textDocument/publishDiagnostics", 0), "version"), 3);
    ck_assert_int_eq(num(notification(&x, "textDocument/publishDiagnostics", 1), "version"), 4);
    ck_assert_int_eq(x.rc, 0);
    sess_free(&x);
}
END_TEST

START_TEST(debounce_request_flushes)
{
    /* A hover right after an edit does not wait for the quiet period: it analyses first. */
    session x;
    sess_init(&x, 150);
    const char *uri = "file:///tmp/flush_k.py";
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, "import pypto\n"));
    cJSON *p = text_document_params(uri);
    cJSON_AddItemToObject(p, "position", position_json(0, 1));
    sess_send_json(&x, 1, request(2, "textDocument/hover", p));
    sess_send_json(&x, 2, notify("textDocument/didClose", text_document_params(uri)));
    sess_run(&x);
    ck_assert_int_eq(count_notifications(&x, "textDocument/publishDiagnostics"), 2);
    /* The publish came before the hover's response. */
    const cJSON *first = x.msgs[1];
    ck_assert_str_eq(str(first, "method"), "textDocument/publishDiagnostics");
    response(&x, 2);
    /* Closing clears: an empty list without a version. */
    const cJSON *closed = notification(&x, "textDocument/publishDiagnostics", 1);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(closed, "diagnostics")), 0);
    sess_free(&x);
}
END_TEST

/* ==== diagnostics, quickfixes and hovers on the seed example ================================== */

/* The seed example with a zero-depth assemble pool configured at module level.  The option call
 * shares its line with a string of non-ASCII characters, so byte columns and UTF-16 characters
 * differ where the diagnostic is. */
static const char option_prefix[] = "note = \"\xE6\xB1\xA0\xE6\xB7\xB1\xE5\xBA\xA6\"; ";   /* 池深度 */
static const char option_call[] =
    "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])";

static char *seed_text(bool with_option, int *option_line)
{
    size_t len = 0;
    char *err = NULL;
    char *src = pc_read_file(PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py", &len, &err);
    ck_assert_msg(src != NULL, "%s", err ? err : "?");
    const char *at = strstr(src, "import pypto\n");
    ck_assert_ptr_nonnull(at);
    at += strlen("import pypto\n");
    pc_sb b = {0};
    pc_sb_appendn(&b, src, (size_t)(at - src));
    if (with_option) {
        int line = 1;
        for (const char *p = src; p < at; p++)
            line += *p == '\n';
        *option_line = line;   /* 1-based */
        pc_sb_printf(&b, "%s%s\n", option_prefix, option_call);
    }
    pc_sb_append(&b, at);
    pc_mem_free(src);
    return pc_sb_take(&b);
}

/* UTF-16 units in the first `bytes` bytes of s, counted independently of position.c. */
static uint32_t utf16_units(const char *s, size_t bytes)
{
    uint32_t n = 0;
    for (size_t i = 0; i < bytes; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) != 0x80)
            n += c >= 0xF0 ? 2 : 1;
    }
    return n;
}

static const char *line_start(const char *text, int line1)
{
    const char *p = text;
    for (int l = 1; l < line1; l++)
        p = strchr(p, '\n') + 1;
    return p;
}

static const cJSON *find_code(const cJSON *diags, const char *code)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, diags)
    {
        const char *c = str(d, "code");
        if (c && strcmp(c, code) == 0)
            return d;
    }
    return NULL;
}

/* What the library itself reports for PC001 in text (1-based byte columns). */
static pc_loc library_pc001(const char *path, const char *text)
{
    pc_frontend *fe = pc_frontend_new();
    pc_check_opts o;
    pc_check_opts_init(&o);
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, path, text, strlen(text), &o, &err);
    ck_assert_ptr_nonnull(fr);
    size_t n = 0;
    const pc_diag *items = pc_diag_items(fr->sink, &n);
    pc_loc at = {0};
    for (size_t i = 0; i < n; i++)
        if (items[i].id && strcmp(items[i].id, "PC001") == 0)
            at = items[i].loc;
    ck_assert_msg(at.line > 0, "the library reports no PC001 for the seed example with [64, 0, 1]");
    pc_file_result_free(fr);
    pc_frontend_free(fe);
    return at;
}

static void check_seed_diagnostics(const char *encodings, bool utf8)
{
    int opt_line = 0;
    char *text = seed_text(true, &opt_line);
    const char *path = PC_BINARY_DIR "/lsp_seed_k.py";
    char uri[512];
    snprintf(uri, sizeof uri, "file://%s", path);
    pc_loc lib = library_pc001(path, text);
    ck_assert_int_eq((int)lib.line, opt_line);
    const char *ls = line_start(text, opt_line);
    /* The diagnostic sits after the non-ASCII prefix, so the encodings disagree there. */
    ck_assert_uint_ge(lib.col, sizeof option_prefix);

    session x;
    sess_init(&x, 0);
    sess_send_json(&x, 0, initialize_with(encodings, NULL));
    sess_send(&x, 0, initialized);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_send(&x, 1, shutdown_req);
    sess_send(&x, 1, exit_note);
    sess_run(&x);
    const cJSON *pub = notification(&x, "textDocument/publishDiagnostics", 0);
    ck_assert_ptr_nonnull(pub);
    ck_assert_str_eq(str(pub, "uri"), uri);
    ck_assert_int_eq(num(pub, "version"), 1);
    const cJSON *d = find_code(cJSON_GetObjectItemCaseSensitive(pub, "diagnostics"), "PC001");
    ck_assert_msg(d != NULL, "no PC001 published");
    ck_assert_int_eq(num(d, "severity"), 1);
    ck_assert_str_eq(str(d, "source"), "poolcheck");
    ck_assert_str_eq(str(cJSON_GetObjectItemCaseSensitive(d, "codeDescription"), "href"),
                     "https://docs.example/poolcheck/checks/PC001.md");
    ck_assert_ptr_nonnull(strstr(str(d, "message"), "cannot be 0"));
    const cJSON *start = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "range"), "start");
    ck_assert_int_eq(num(start, "line"), opt_line - 1);
    uint32_t want = utf8 ? lib.col - 1 : utf16_units(ls, lib.col - 1);
    ck_assert_int_eq(num(start, "character"), (int)want);
    if (!utf8)
        ck_assert_uint_ne(want, lib.col - 1);
    /* Notes arrive as relatedInformation in this document. */
    const cJSON *rel = cJSON_GetObjectItemCaseSensitive(d, "relatedInformation");
    ck_assert_int_ge(cJSON_GetArraySize(rel), 1);
    const cJSON *loc0 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rel, 0), "location");
    ck_assert_str_eq(str(loc0, "uri"), uri);
    ck_assert_int_eq(x.rc, 0);
    sess_free(&x);
    pc_mem_free(text);
}

START_TEST(seed_pc001_utf16)
{
    check_seed_diagnostics(NULL, false);
}
END_TEST

START_TEST(seed_pc001_utf8)
{
    check_seed_diagnostics("[\"utf-8\",\"utf-16\"]", true);
}
END_TEST

/* Apply LSP TextEdits (UTF-16 positions, one line each here) to text; returns a new string. */
static char *apply_edits(const char *text, const cJSON *edits)
{
    pc_sb out = {0};
    pc_sb_append(&out, text);
    const cJSON *e;
    cJSON_ArrayForEach(e, edits)
    {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "range");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(r, "start");
        const cJSON *en = cJSON_GetObjectItemCaseSensitive(r, "end");
        ck_assert_int_eq(num(s, "line"), num(en, "line"));
        const char *ls = line_start(out.data, num(s, "line") + 1);
        /* character -> byte offset by walking UTF-16 units */
        size_t off[2];
        int chars[2] = {num(s, "character"), num(en, "character")};
        for (int k = 0; k < 2; k++) {
            size_t b = 0;
            while (utf16_units(ls, b) < (uint32_t)chars[k])
                b++;
            while ((ls[b] & 0xC0) == 0x80)
                b++;
            off[k] = (size_t)(ls - out.data) + b;
        }
        pc_sb next = {0};
        pc_sb_appendn(&next, out.data, off[0]);
        pc_sb_append(&next, str(e, "newText"));
        pc_sb_append(&next, out.data + off[1]);
        pc_sb_free(&out);
        out = next;
    }
    return pc_sb_take(&out);
}

START_TEST(seed_quickfix_clears)
{
    int opt_line = 0;
    char *text = seed_text(true, &opt_line);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_fix_k.py";

    /* Round 1: open, ask for the quickfix with the whole PC001 line selected, and with the
     * cursor inside the diagnostic; and once at the top of the file, where there is none. */
    pc_loc lib = library_pc001(PC_BINARY_DIR "/lsp_fix_k.py", text);
    int cursor = (int)utf16_units(line_start(text, opt_line), lib.col - 1) + 1;
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    int ranges[3][4] = {{opt_line - 1, 0, opt_line, 0}, {opt_line - 1, cursor, opt_line - 1, cursor}, {0, 0, 0, 0}};
    for (int i = 0; i < 3; i++) {
        cJSON *p = text_document_params(uri);
        cJSON *range = cJSON_AddObjectToObject(p, "range");
        cJSON_AddItemToObject(range, "start", position_json(ranges[i][0], ranges[i][1]));
        cJSON_AddItemToObject(range, "end", position_json(ranges[i][2], ranges[i][3]));
        cJSON *ctx = cJSON_AddObjectToObject(p, "context");
        cJSON_AddItemToObject(ctx, "only", cJSON_Parse("[\"quickfix\"]"));
        cJSON_AddArrayToObject(ctx, "diagnostics");
        sess_send_json(&x, 0, request(i == 0 ? 2 : 4 + i, "textDocument/codeAction", p));
    }
    cJSON *p;
    cJSON *range;
    /* A request for refactorings only gets none. */
    p = text_document_params(uri);
    range = cJSON_AddObjectToObject(p, "range");
    cJSON_AddItemToObject(range, "start", position_json(opt_line - 1, 0));
    cJSON_AddItemToObject(range, "end", position_json(opt_line - 1, 0));
    cJSON_AddItemToObject(cJSON_AddObjectToObject(p, "context"), "only", cJSON_Parse("[\"refactor\"]"));
    sess_send_json(&x, 0, request(3, "textDocument/codeAction", p));
    sess_run(&x);
    const cJSON *actions = cJSON_GetObjectItemCaseSensitive(response(&x, 2), "result");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(response(&x, 3), "result")), 0);
    /* The cursor inside the diagnostic gets the same actions as the whole line. */
    const cJSON *at_cursor = cJSON_GetObjectItemCaseSensitive(response(&x, 5), "result");
    ck_assert_int_eq(cJSON_GetArraySize(at_cursor), cJSON_GetArraySize(actions));
    ck_assert(cJSON_Compare(at_cursor, actions, 1));
    /* Line 1 (the docstring) has no diagnostic with a fix. */
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(response(&x, 6), "result")), 0);
    const cJSON *fix = NULL, *a;
    cJSON_ArrayForEach(a, actions)
    {
        const cJSON *dd = cJSON_GetObjectItemCaseSensitive(a, "diagnostics");
        if (find_code(dd, "PC001"))
            fix = a;
    }
    ck_assert_msg(fix != NULL, "no quickfix for PC001");
    ck_assert_str_eq(str(fix, "kind"), "quickfix");
    ck_assert_ptr_nonnull(strstr(str(fix, "title"), "PC001"));
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fix, "edit"), "changes");
    const cJSON *edits = cJSON_GetObjectItemCaseSensitive(changes, uri);
    ck_assert_int_ge(cJSON_GetArraySize(edits), 1);
    char *fixed = apply_edits(text, edits);
    ck_assert_msg(strstr(fixed, "stitch_function_num_per_pool=[64, 0, 1]") == NULL,
                  "the fix left the zero: %s", line_start(fixed, opt_line));
    ck_assert_msg(strstr(fixed, option_prefix) != NULL, "the fix damaged the non-ASCII prefix");
    sess_free(&x);

    /* Round 2: the fixed text as a didChange clears PC001. */
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_send_json(&x, 1, did_change(uri, 2, fixed));
    sess_run(&x);
    const cJSON *pub1 = notification(&x, "textDocument/publishDiagnostics", 0);
    const cJSON *pub2 = notification(&x, "textDocument/publishDiagnostics", 1);
    ck_assert_ptr_nonnull(pub2);
    ck_assert_ptr_nonnull(find_code(cJSON_GetObjectItemCaseSensitive(pub1, "diagnostics"), "PC001"));
    ck_assert_int_eq(num(pub2, "version"), 2);
    ck_assert_ptr_null(find_code(cJSON_GetObjectItemCaseSensitive(pub2, "diagnostics"), "PC001"));
    sess_free(&x);
    pc_mem_free(fixed);
    pc_mem_free(text);
}
END_TEST

START_TEST(seed_settings_set_and_reconfigure)
{
    /* The zero-depth pool comes from the `set` setting instead of the source; changing the
     * setting re-analyses open documents. */
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_set_k.py";
    session x;
    sess_init(&x, 0);
    sess_send_json(&x, 0, initialize_with(NULL, "{\"set\":[\"stitch_function_num_per_pool=[64,0,1]\"]}"));
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_send(&x, 1, "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/didChangeConfiguration\","
                     "\"params\":{\"settings\":{\"poolcheck\":{\"set\":[\"stitch_function_num_per_pool=[64,2,1]\"]}}}}");
    sess_run(&x);
    ck_assert_int_eq(count_notifications(&x, "window/showMessage"), 0);
    const cJSON *pub1 = notification(&x, "textDocument/publishDiagnostics", 0);
    const cJSON *pub2 = notification(&x, "textDocument/publishDiagnostics", 1);
    ck_assert_ptr_nonnull(pub2);
    ck_assert_ptr_nonnull(find_code(cJSON_GetObjectItemCaseSensitive(pub1, "diagnostics"), "PC001"));
    ck_assert_ptr_null(find_code(cJSON_GetObjectItemCaseSensitive(pub2, "diagnostics"), "PC001"));
    sess_free(&x);
    pc_mem_free(text);
}
END_TEST

START_TEST(seed_settings_config_file)
{
    /* configFile: tile_fwk_config.json's "runtime" section, relative to the workspace root.
     * A config file that cannot be read is reported to the user, and the rest still applies. */
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_cfg_k.py";
    FILE *f = fopen(PC_BINARY_DIR "/lsp_tile_fwk_config.json", "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"runtime\": {\"stitch_function_num_per_pool\": [64, 0, 1]}}\n", f);
    fclose(f);
    session x;
    sess_init(&x, 0);
    cJSON *init = initialize_with(NULL, "{\"configFile\": \"lsp_tile_fwk_config.json\"}");
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(init, "params"), "rootUri",
                            "file://" PC_BINARY_DIR);
    sess_send_json(&x, 0, init);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_send(&x, 1, "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/didChangeConfiguration\","
                     "\"params\":{\"settings\":{\"configFile\":\"no_such_config.json\"}}}");
    sess_run(&x);
    const cJSON *pub1 = notification(&x, "textDocument/publishDiagnostics", 0);
    const cJSON *pub2 = notification(&x, "textDocument/publishDiagnostics", 1);
    ck_assert_ptr_nonnull(pub2);
    ck_assert_ptr_nonnull(find_code(cJSON_GetObjectItemCaseSensitive(pub1, "diagnostics"), "PC001"));
    ck_assert_ptr_null(find_code(cJSON_GetObjectItemCaseSensitive(pub2, "diagnostics"), "PC001"));
    const cJSON *m = notification(&x, "window/showMessage", 0);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(strstr(str(m, "message"), "no_such_config.json"));
    ck_assert_int_eq(count_notifications(&x, "window/showMessage"), 1);
    sess_free(&x);
    pc_mem_free(text);
}
END_TEST

START_TEST(seed_cpp_reparse)
{
    /* The C++ seed example: analysed with its translation unit kept (keep_tu), so the edit is
     * a reparse of the kept unit; the zero in SetRuntimeOption gives PC001, its fix clears it. */
    size_t len = 0;
    char *err = NULL;
    char *src = pc_read_file(PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp", &len, &err);
    ck_assert_msg(src != NULL, "%s", err ? err : "?");
    const char *anchor = "void BuildTmpToDEmb()\n{\n";
    const char *at = strstr(src, anchor);
    ck_assert_ptr_nonnull(at);
    at += strlen(anchor);
    pc_sb bad = {0}, good = {0};
    pc_sb_appendn(&bad, src, (size_t)(at - src));
    pc_sb_appendn(&good, src, (size_t)(at - src));
    pc_sb_append(&bad, "    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>{64, 0, 1});\n");
    pc_sb_append(&good, "    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>{64, 2, 1});\n");
    pc_sb_append(&bad, at);
    pc_sb_append(&good, at);
    int opt_line = 1;
    for (const char *p = src; p < at; p++)
        opt_line += *p == '\n';
    const char *uri = "file://" PC_BINARY_DIR "/lsp_cpp_k.cpp";
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "cpp", 1, bad.data));
    sess_send_json(&x, 1, did_change(uri, 2, good.data));
    sess_send_json(&x, 2, did_change(uri, 3, bad.data));
    sess_run(&x);
    static const bool want[] = {true, false, true};
    for (int i = 0; i < 3; i++) {
        const cJSON *pub = notification(&x, "textDocument/publishDiagnostics", i);
        ck_assert_msg(pub != NULL, "publish %d missing", i);
        ck_assert_int_eq(num(pub, "version"), i + 1);
        const cJSON *d = find_code(cJSON_GetObjectItemCaseSensitive(pub, "diagnostics"), "PC001");
        ck_assert_msg((d != NULL) == want[i], "version %d: PC001 %s", i + 1, d ? "present" : "absent");
        if (d)
            ck_assert_int_eq(num(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "range"), "start"), "line"),
                             opt_line - 1);
    }
    sess_free(&x);
    pc_sb_free(&bad);
    pc_sb_free(&good);
    pc_mem_free(src);
}
END_TEST

static const char *hover_text(const session *x, int id)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(response(x, id), "result");
    ck_assert_msg(cJSON_IsObject(r), "hover %d: no result", id);
    return str(cJSON_GetObjectItemCaseSensitive(r, "contents"), "value");
}

START_TEST(seed_hover)
{
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_hover_k.py";
    /* Positions: `tmp_assemble` where it is created, `l_loop_1`'s header, and `dx`. */
    int ta_line = 0, loop_line = 0, dx_line = 0, ta_col = 0, loop_col = 0, dx_col = 0;
    int l = 0;
    for (const char *p = text; *p; p = strchr(p, '\n') + 1, l++) {
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        const char *q;
        if (!ta_line && (q = strstr(p, "tmp_assemble = ")) && q < nl) {
            ta_line = l;
            ta_col = (int)(q - p) + 2;
        }
        if (!loop_line && (q = strstr(p, "\"l_loop_1\"")) && q < nl) {
            loop_line = l;
            loop_col = (int)(strstr(p, "for") - p);
        }
        if (!dx_line && (q = strstr(p, "dx = ")) && q < nl) {
            dx_line = l;
            dx_col = (int)(q - p);
        }
    }
    ck_assert(ta_line && loop_line && dx_line);
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    int pos[][2] = {{ta_line, ta_col}, {loop_line, loop_col}, {dx_line, dx_col}, {0, 0}};
    for (int i = 0; i < 4; i++) {
        cJSON *p = text_document_params(uri);
        cJSON_AddItemToObject(p, "position", position_json(pos[i][0], pos[i][1]));
        sess_send_json(&x, 0, request(10 + i, "textDocument/hover", p));
    }
    sess_run(&x);
    const char *h = hover_text(&x, 10);
    ck_assert_msg(strstr(h, "tmp_assemble") && strstr(h, "assemble_outcast") && strstr(h, "4096 bytes"),
                  "tensor hover: %s", h);
    h = hover_text(&x, 11);
    ck_assert_msg(strstr(h, "l_loop_1") && strstr(h, "64 instances") && strstr(h, "DeviceTask"),
                  "loop hover: %s", h);
    h = hover_text(&x, 12);
    ck_assert_msg(strstr(h, "dx") && strstr(h, "root_inner") && strstr(h, "64 bytes"), "dx hover: %s", h);
    /* The docstring's first line is neither a tensor nor a loop. */
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(response(&x, 13), "result")));
    sess_free(&x);
    pc_mem_free(text);
}
END_TEST

/* A kernel of one instance in one DeviceTask says so in the singular ("1 instances in 1
 * DeviceTasks" before). */
START_TEST(hover_singular_counts)
{
    const char *uri = "file://" PC_BINARY_DIR "/lsp_hover_one.py";
    const char *text = "import pypto\n"
                       "\n"
                       "\n"
                       "@pypto.frontend.jit\n"
                       "def k_one(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n"
                       "    t = pypto.tensor([16, 16], pypto.DT_FP32, \"t\")\n"
                       "    for i in pypto.loop(0, 1, 1, name=\"once\"):\n"
                       "        t[:] = pypto.add(x, x)\n"
                       "        y[:] = pypto.add(t, t)\n";
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    cJSON *p = text_document_params(uri);
    cJSON_AddItemToObject(p, "position", position_json(5, 4));
    sess_send_json(&x, 0, request(10, "textDocument/hover", p));
    sess_run(&x);
    const char *h = hover_text(&x, 10);
    ck_assert_msg(strstr(h, "1 instance in 1 DeviceTask (k = ") && !strstr(h, "1 instances"), "hover: %s", h);
    sess_free(&x);
}
END_TEST

/* ==== runner ================================================================================== */

START_TEST(seed_project_file)
{
    /* The .poolcheck.json governing the document applies in the editor as on the command line. */
    int unused;
    char *text = seed_text(false, &unused);
    char dir[] = "/tmp/pclsp-proj-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256], uri[300];
    snprintf(path, sizeof path, "%s/.poolcheck.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"checks\": \"-PC009\", \"runtime\": {\"stitch_function_num_per_pool\": [64, 0, 1]}}\n", f);
    fclose(f);
    snprintf(uri, sizeof uri, "file://%s/k.py", dir);
    session x;
    sess_init(&x, 0);
    sess_send_json(&x, 0, initialize_with(NULL, NULL));
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_run(&x);
    const cJSON *pub = notification(&x, "textDocument/publishDiagnostics", 0);
    ck_assert_ptr_nonnull(pub);
    const cJSON *diags = cJSON_GetObjectItemCaseSensitive(pub, "diagnostics");
    ck_assert_ptr_nonnull(find_code(diags, "PC001"));
    ck_assert_ptr_null(find_code(diags, "PC009"));
    sess_free(&x);
    pc_mem_free(text);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* ---- hostile input ------------------------------------------------------------------ */

/* Does any window/showMessage or window/logMessage hold `what`? */
static bool told(const session *x, const char *what)
{
    static const char *const kinds[] = {"window/showMessage", "window/logMessage"};
    for (size_t k = 0; k < 2; k++)
        for (int i = 0; notification(x, kinds[k], i); i++) {
            const char *m = str(notification(x, kinds[k], i), "message");
            if (m && strstr(m, what))
                return true;
        }
    return false;
}

/* version: 1e300 and bind {"n": 1e300}: numbers no int64_t holds are reported, never cast (the
 * cast is undefined behaviour, which clang's -fsanitize=float-cast-overflow reports). */
START_TEST(hostile_numbers_out_of_range)
{
    int unused;
    char *text = seed_text(false, &unused);
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{},"
                     "\"initializationOptions\":{\"bind\":{\"n\":1e300,\"m\":-1e300,\"k\":4}}}}");
    sess_send(&x, 0, initialized);
    cJSON *open = did_open("file://" PC_BINARY_DIR "/lsp_huge_version.py", "python", 1, text);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(open, "params"),
                                                               "textDocument"),
                              "version", cJSON_CreateNumber(1e300));
    sess_send_json(&x, 0, open);
    cJSON *change = did_change("file://" PC_BINARY_DIR "/lsp_huge_version.py", 0, text);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(change, "params"),
                                                               "textDocument"),
                              "version", cJSON_CreateNumber(-1e300));
    sess_send_json(&x, 1, change);
    sess_send(&x, 2, shutdown_req);
    sess_send(&x, 2, exit_note);
    sess_run(&x);
    ck_assert_int_eq(x.rc, 0);
    ck_assert_msg(told(&x, "`bind.n` must be an integer, found 1e300"), "bind n=1e300 is not reported");
    ck_assert_msg(told(&x, "`bind.m` must be an integer, found -1e300"), "bind m=-1e300 is not reported");
    ck_assert_msg(!told(&x, "`bind.k`"), "bind k=4 is valid");
    ck_assert_msg(told(&x, "didOpen: textDocument.version must be an integer"), "version 1e300 is not reported");
    ck_assert_msg(told(&x, "didChange: textDocument.version must be an integer"), "version -1e300 is not reported");
    const cJSON *pub = notification(&x, "textDocument/publishDiagnostics", 0);
    ck_assert_ptr_nonnull(pub);
    ck_assert_int_eq(num(pub, "version"), 0);
    sess_free(&x);
    pc_mem_free(text);
}
END_TEST

/* "params": null on shutdown and exit, as some clients send them: a result, then exit status 0. */
START_TEST(hostile_params_null)
{
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, initialized);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"shutdown\",\"params\":null}");
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\",\"params\":null}");
    sess_run(&x);
    const cJSON *r = response(&x, 7);
    ck_assert_int_eq(error_code(r), 0);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, "result")));
    ck_assert_int_eq(x.rc, 0);
    sess_free(&x);
}
END_TEST

/* The C++ PC001 fixture with its first line ended by a lone CR: clang counts it as a line break,
 * and so must the published position (0-based line 24 is the option's line 25). */
START_TEST(hostile_cpp_lone_cr_position)
{
    char *err = NULL;
    char *text = pc_read_file(PC_SOURCE_DIR "/tests/fixtures/checks/pc001_zero_depth_pool.cpp", NULL, &err);
    ck_assert_ptr_nonnull(text);
    *strchr(text, '\n') = '\r';
    const char *uri = "file://" PC_BINARY_DIR "/lsp_cr_first.cpp";
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send(&x, 0, initialized);
    sess_send_json(&x, 0, did_open(uri, "cpp", 1, text));
    sess_send(&x, 1, shutdown_req);
    sess_send(&x, 1, exit_note);
    sess_run(&x);
    const cJSON *pub = notification(&x, "textDocument/publishDiagnostics", 0);
    ck_assert_ptr_nonnull(pub);
    const cJSON *d = find_code(cJSON_GetObjectItemCaseSensitive(pub, "diagnostics"), "PC001");
    ck_assert_msg(d != NULL, "no PC001 published");
    const cJSON *start = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "range"), "start");
    ck_assert_int_eq(num(start, "line"), 24);
    ck_assert_int_eq(num(start, "character"), 61);
    sess_free(&x);
    pc_mem_free(text);
}
END_TEST

/* configFile naming a FIFO: refused at once (a read would wait for a writer forever), and
 * initialize is answered. */
START_TEST(hostile_config_file_fifo)
{
    const char *fifo = PC_BINARY_DIR "/lsp_config.fifo";
    unlink(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    session x;
    sess_init(&x, 0);
    char init[512];
    snprintf(init, sizeof init, "{\"configFile\": \"%s\"}", fifo);
    sess_send_json(&x, 0, initialize_with(NULL, init));
    sess_send(&x, 0, initialized);
    sess_send(&x, 1, shutdown_req);
    sess_send(&x, 1, exit_note);
    sess_run(&x);
    ck_assert_int_eq(error_code(response(&x, 1)), 0);
    ck_assert_msg(told(&x, "a FIFO, not a regular file"), "the FIFO is not reported");
    sess_free(&x);
    unlink(fifo);
}
END_TEST

/* ==== inlay hints, code lenses, the apply command ============================================= */

/* A kernel with an exclusive_outcast tensor created after a non-ASCII string on its line, and a
 * loop whose name is non-ASCII: byte columns and UTF-16 characters differ at both hints. */
static const char hint_text[] =
    "import pypto\n"
    "\n"
    "\n"
    "@pypto.frontend.jit\n"
    "def k_hint(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n"
    "    note = \"\xE6\xB1\xA0\"; t = pypto.tensor([16, 16], pypto.DT_FP32, \"t\")\n"
    "    for i in pypto.loop(0, 4, 1, name=\"\xE6\xB1\xA0\"):\n"
    "        u = pypto.add(x, x)\n"
    "        t[:] = pypto.add(u, u)\n"
    "    for j in pypto.loop(0, 4, 1, name=\"l_read\"):\n"
    "        y[:] = pypto.add(t, t)\n";

static cJSON *range_params(const char *uri, int l0, int c0, int l1, int c1)
{
    cJSON *p = text_document_params(uri);
    cJSON *range = cJSON_AddObjectToObject(p, "range");
    cJSON_AddItemToObject(range, "start", position_json(l0, c0));
    cJSON_AddItemToObject(range, "end", position_json(l1, c1));
    return p;
}

/* The inlay hint with this label in a result array, or NULL. */
static const cJSON *hint_labelled(const cJSON *hints, const char *label)
{
    const cJSON *h;
    cJSON_ArrayForEach(h, hints)
    {
        const char *l = str(h, "label");
        if (l && strcmp(l, label) == 0)
            return h;
    }
    return NULL;
}

static void check_hint_at(const cJSON *h, int line, int ch, int kind)
{
    ck_assert_ptr_nonnull(h);
    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(h, "position");
    ck_assert_int_eq(num(pos, "line"), line);
    ck_assert_int_eq(num(pos, "character"), ch);
    if (kind)
        ck_assert_int_eq(num(h, "kind"), kind);
    else
        ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(h, "kind"));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "paddingLeft")));
}

static void check_hints(const char *encodings, bool utf8)
{
    const char *uri = "file://" PC_BINARY_DIR "/lsp_hint_k.py";
    /* Where the hints belong, from the text: after the name `t`, and after the `:` that ends
     * the header of each loop (the end of its line). */
    const char *tl = line_start(hint_text, 6), *ll = line_start(hint_text, 7), *rl = line_start(hint_text, 10);
    size_t t_end = (size_t)(strstr(tl, "t = pypto.tensor") - tl) + 1;
    size_t l_end = (size_t)(strchr(ll, '\n') - ll), r_end = (size_t)(strchr(rl, '\n') - rl);
    ck_assert_int_eq(ll[l_end - 1], ':');
    int t_ch = utf8 ? (int)t_end : (int)utf16_units(tl, t_end);
    int l_ch = utf8 ? (int)l_end : (int)utf16_units(ll, l_end);
    if (!utf8)
        ck_assert_int_ne(t_ch, (int)t_end);   /* the encodings really differ there */

    session x;
    sess_init(&x, 0);
    sess_send_json(&x, 0, initialize_with(encodings, NULL));
    sess_send_json(&x, 0, did_open(uri, "python", 1, hint_text));
    sess_send_json(&x, 0, request(2, "textDocument/inlayHint", range_params(uri, 0, 0, 20, 0)));
    /* only the first loop's header line */
    sess_send_json(&x, 0, request(3, "textDocument/inlayHint", range_params(uri, 6, 0, 6, 200)));
    /* the lines before the kernel body: nothing */
    sess_send_json(&x, 0, request(4, "textDocument/inlayHint", range_params(uri, 0, 0, 4, 0)));
    /* a range ending exactly at the tensor hint includes it (positions are inclusive) */
    sess_send_json(&x, 0, request(5, "textDocument/inlayHint", range_params(uri, 5, 0, 5, t_ch)));
    sess_send_json(&x, 0, request(6, "textDocument/inlayHint", range_params(uri, 5, 0, 5, t_ch - 1)));
    sess_send(&x, 0, shutdown_req);
    sess_send(&x, 0, exit_note);
    sess_run(&x);

    const cJSON *all = cJSON_GetObjectItemCaseSensitive(response(&x, 2), "result");
    ck_assert_int_eq(cJSON_GetArraySize(all), 3);
    /* u stays on chip (pool none): no hint; the parameters neither */
    check_hint_at(hint_labelled(all, "exclusive_outcast, 1024 B"), 5, t_ch, 1);
    check_hint_at(cJSON_GetArrayItem(all, 1), 6, l_ch, 0);
    ck_assert_str_eq(str(cJSON_GetArrayItem(all, 1), "label"), "4 instances, 1 DeviceTask");
    check_hint_at(cJSON_GetArrayItem(all, 2), 9, (int)r_end, 0);
    ck_assert_str_eq(str(cJSON_GetArrayItem(all, 2), "label"), "4 instances, 1 DeviceTask");
    ck_assert_ptr_nonnull(strstr(str(cJSON_GetArrayItem(all, 0), "tooltip"), "created outside the root"));

    const cJSON *one = cJSON_GetObjectItemCaseSensitive(response(&x, 3), "result");
    ck_assert_int_eq(cJSON_GetArraySize(one), 1);
    ck_assert_int_eq(num(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(one, 0), "position"), "line"), 6);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(response(&x, 4), "result")), 0);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(response(&x, 5), "result")), 1);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(response(&x, 6), "result")), 0);
    ck_assert_int_eq(x.rc, 0);
    sess_free(&x);
}

START_TEST(hints_utf16)
{
    check_hints(NULL, false);
}
END_TEST

START_TEST(hints_utf8)
{
    check_hints("[\"utf-8\"]", true);
}
END_TEST

/* The seed example: the matmul result is root_inner at its aligned size, loop 2 spans two
 * DeviceTasks; a trip count of an unbound dim says what to bind. */
START_TEST(hints_seed_and_unknown)
{
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_hint_seed.py";
    const char *dyn_uri = "file://" PC_BINARY_DIR "/lsp_hint_dyn.py";
    const char *dyn = "import pypto\n"
                      "\n"
                      "\n"
                      "@pypto.frontend.jit\n"
                      "def k_dyn(x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), w: pypto.Tensor([16, 16], pypto.DT_FP32),\n"
                      "          y: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):\n"
                      "    for i in pypto.loop(0, x.shape[0], 1, name=\"rows\"):\n"
                      "        mm = pypto.matmul(x[i : i + 1, :], w, pypto.DT_FP32)\n"
                      "        y[i : i + 1, :] = mm + 1.0\n";
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_send_json(&x, 0, did_open(dyn_uri, "python", 1, dyn));
    sess_send_json(&x, 0, request(2, "textDocument/inlayHint", range_params(uri, 0, 0, 100, 0)));
    sess_send_json(&x, 0, request(3, "textDocument/inlayHint", range_params(dyn_uri, 0, 0, 100, 0)));
    sess_run(&x);
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(response(&x, 2), "result");
    /* the CLI's table: tmp_assemble 4096 B, tmp_exclusive 4096 B, dx 512 B; 1 + 64 + 64 instances */
    const cJSON *dx = hint_labelled(seed, "root_inner, 512 B");
    ck_assert_ptr_nonnull(dx);
    const char *dxl = strstr(text, "        dx = pypto.matmul");
    int dx_line = 0;
    for (const char *p = text; p < dxl; p++)
        dx_line += *p == '\n';
    check_hint_at(dx, dx_line, 10, 1);
    ck_assert_ptr_nonnull(hint_labelled(seed, "assemble_outcast, 4096 B"));
    ck_assert_ptr_nonnull(hint_labelled(seed, "exclusive_outcast, 4096 B"));
    ck_assert_ptr_nonnull(hint_labelled(seed, "1 instance, 1 DeviceTask"));
    ck_assert_ptr_nonnull(hint_labelled(seed, "64 instances, 1 DeviceTask"));
    ck_assert_ptr_nonnull(hint_labelled(seed, "64 instances, 2 DeviceTasks"));
    ck_assert_int_eq(cJSON_GetArraySize(seed), 6);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(response(&x, 3), "result");
    check_hint_at(hint_labelled(d, "instances unknown (bind x.shape[0])"), 6, 55, 0);
    ck_assert_ptr_nonnull(hint_labelled(d, "root_inner, 512 B"));
    sess_free(&x);
    pc_mem_free(text);
}
END_TEST

static const cJSON *only_lens(const session *x, int id)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(response(x, id), "result");
    ck_assert_int_eq(cJSON_GetArraySize(r), 1);
    return cJSON_GetArrayItem(r, 0);
}

/* One lens per kernel at its def line: the predicted depths, and the command that applies
 * PC009's suggestion when there is one; a label (command "") when there is none. */
START_TEST(lens_titles)
{
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_lens_seed.py";
    const char *precise_uri = "file://" PC_BINARY_DIR "/lsp_lens_precise.py";
    const char *dyn_uri = "file://" PC_BINARY_DIR "/lsp_lens_dyn.py";
    /* precise mode with the suggested depths already: no PC009 */
    pc_sb pb = {0};
    const char *imp = strstr(text, "import pypto\n") + strlen("import pypto\n");
    pc_sb_appendn(&pb, text, (size_t)(imp - text));
    pc_sb_append(&pb, "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n");
    pc_sb_append(&pb, imp);
    const char *dyn = "import pypto\n"
                      "\n"
                      "\n"
                      "@pypto.frontend.jit\n"
                      "def k_dyn(x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), w: pypto.Tensor([16, 16], pypto.DT_FP32),\n"
                      "          y: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):\n"
                      "    for i in pypto.loop(0, x.shape[0], 1, name=\"rows\"):\n"
                      "        mm = pypto.matmul(x[i : i + 1, :], w, pypto.DT_FP32)\n"
                      "        y[i : i + 1, :] = mm + 1.0\n";
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    sess_send_json(&x, 0, did_open(precise_uri, "python", 1, pb.data));
    sess_send_json(&x, 0, did_open(dyn_uri, "python", 1, dyn));
    sess_send_json(&x, 0, request(2, "textDocument/codeLens", text_document_params(uri)));
    sess_send_json(&x, 0, request(3, "textDocument/codeLens", text_document_params(precise_uri)));
    sess_send_json(&x, 0, request(4, "textDocument/codeLens", text_document_params(dyn_uri)));
    sess_send_json(&x, 0, request(5, "textDocument/codeLens",
                                  text_document_params("file:///not/open.py")));
    sess_run(&x);

    const cJSON *lens = only_lens(&x, 2);
    const cJSON *start = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lens, "range"), "start");
    const cJSON *end = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lens, "range"), "end");
    const char *def = strstr(text, "\ndef k_tmp_to_d_emb(") + 1;
    int def_line = 0;
    for (const char *p = text; p < def; p++)
        def_line += *p == '\n';
    ck_assert_int_eq(num(start, "line"), def_line);
    ck_assert_int_eq(num(start, "character"), 0);
    ck_assert_int_eq(num(end, "line"), def_line);
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(lens, "command");
    ck_assert_str_eq(str(cmd, "title"),
                     "poolcheck: predicted [64, 1, 1] \xC2\xB7 apply stitch_function_num_per_pool=[64, 2, 1]");
    ck_assert_str_eq(str(cmd, "command"), "poolcheck.applySuggestedConfiguration");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(cmd, "arguments");
    ck_assert_int_eq(cJSON_GetArraySize(args), 2);
    ck_assert_str_eq(cJSON_GetArrayItem(args, 0)->valuestring, uri);
    ck_assert_str_eq(cJSON_GetArrayItem(args, 1)->valuestring, "k_tmp_to_d_emb");

    cmd = cJSON_GetObjectItemCaseSensitive(only_lens(&x, 3), "command");
    ck_assert_str_eq(str(cmd, "title"), "poolcheck: predicted [64, 1, 1]");
    ck_assert_str_eq(str(cmd, "command"), "");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(cmd, "arguments"));

    cmd = cJSON_GetObjectItemCaseSensitive(only_lens(&x, 4), "command");
    ck_assert_str_eq(str(cmd, "title"), "poolcheck: predicted [?, 0, 0] (bind x.shape[0])");
    ck_assert_str_eq(str(cmd, "command"), "");

    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(response(&x, 5), "result")), 0);
    sess_free(&x);
    pc_sb_free(&pb);
    pc_mem_free(text);
}
END_TEST

static cJSON *execute_command(int id, const char *command, const char *args_json)
{
    cJSON *p = cJSON_CreateObject();
    if (command)
        cJSON_AddStringToObject(p, "command", command);
    if (args_json)
        cJSON_AddItemToObject(p, "arguments", cJSON_Parse(args_json));
    return request(id, "workspace/executeCommand", p);
}

/* The server's n-th (0-based) request with this method, or NULL. */
static const cJSON *server_request(const session *x, const char *method, int n)
{
    for (size_t i = 0; i < x->nmsgs; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(x->msgs[i], "method");
        if (cJSON_IsString(m) && strcmp(m->valuestring, method) == 0 &&
            cJSON_GetObjectItemCaseSensitive(x->msgs[i], "id") && n-- == 0)
            return x->msgs[i];
    }
    return NULL;
}

/* The lens's command sends workspace/applyEdit with the PC009 quickfix's own edit, answers null,
 * and takes the client's response (a message with an id and a result, no method) quietly; the
 * edited text gets no PC009 and a lens without a command. */
START_TEST(command_applies_suggestion)
{
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_cmd_seed.py";
    char args[512];
    snprintf(args, sizeof args, "[\"%s\", \"k_tmp_to_d_emb\"]", uri);
    session x;
    sess_init(&x, 0);
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":"
                     "{\"workspace\":{\"applyEdit\":true}}}}");
    sess_send_json(&x, 0, did_open(uri, "python", 1, text));
    /* the quickfix of PC009 (at the def line), for comparison */
    const char *def = strstr(text, "\ndef k_tmp_to_d_emb(") + 1;
    int def_line = 0;
    for (const char *p = text; p < def; p++)
        def_line += *p == '\n';
    cJSON *ca = range_params(uri, def_line, 0, def_line, 0);
    cJSON_AddItemToObject(cJSON_AddObjectToObject(ca, "context"), "diagnostics", cJSON_CreateArray());
    sess_send_json(&x, 0, request(2, "textDocument/codeAction", ca));
    sess_send_json(&x, 0, execute_command(3, "poolcheck.applySuggestedConfiguration", args));
    /* the client's answers to the server's request 1: applied, then (again) refused */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_send_json(&x, 0, execute_command(4, "poolcheck.applySuggestedConfiguration", args));
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"applied\":false,\"failureReason\":\"read-only\"}}");
    /* a response to a request never sent is ignored too */
    sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":null}");
    sess_send(&x, 0, shutdown_req);
    sess_send(&x, 0, exit_note);
    sess_run(&x);

    const cJSON *fix = NULL, *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(response(&x, 2), "result"))
        if (find_code(cJSON_GetObjectItemCaseSensitive(a, "diagnostics"), "PC009"))
            fix = a;
    ck_assert_msg(fix != NULL, "no PC009 quickfix");
    const cJSON *req = server_request(&x, "workspace/applyEdit", 0);
    ck_assert_ptr_nonnull(req);
    ck_assert_int_eq(num(req, "id"), 1);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(req, "params");
    ck_assert_str_eq(str(params, "label"),
                     "poolcheck: kernel 'k_tmp_to_d_emb': apply stitch_function_num_per_pool=[64, 2, 1]");
    const cJSON *edit = cJSON_GetObjectItemCaseSensitive(params, "edit");
    ck_assert(cJSON_Compare(edit, cJSON_GetObjectItemCaseSensitive(fix, "edit"), 1));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(response(&x, 3), "result")));
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(response(&x, 3), "error"));
    const cJSON *req2 = server_request(&x, "workspace/applyEdit", 1);
    ck_assert_ptr_nonnull(req2);
    ck_assert_int_eq(num(req2, "id"), 2);
    /* applied: silent; refused: the user is told why; the unknown id: nothing */
    int shown = count_notifications(&x, "window/showMessage");
    ck_assert_int_eq(shown, 1);
    ck_assert(told(&x, "did not apply the suggested configuration: read-only"));
    for (size_t i = 0; i < x.nmsgs; i++)
        ck_assert_msg(!cJSON_GetObjectItemCaseSensitive(x.msgs[i], "error"), "an error: %s",
                      str(cJSON_GetObjectItemCaseSensitive(x.msgs[i], "error"), "message"));
    ck_assert_int_eq(x.rc, 0);

    /* The edit applied: PC009 is gone and the lens has nothing to run. */
    char *fixed = apply_edits(text, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(edit, "changes"), uri));
    ck_assert_ptr_nonnull(strstr(fixed, "stitch_function_num_per_pool=[64, 2, 1]"));
    sess_free(&x);
    sess_init(&x, 0);
    sess_send(&x, 0, initialize_utf16);
    sess_send_json(&x, 0, did_open(uri, "python", 1, fixed));
    sess_send_json(&x, 0, request(2, "textDocument/codeLens", text_document_params(uri)));
    sess_run(&x);
    ck_assert_ptr_null(find_code(cJSON_GetObjectItemCaseSensitive(notification(&x, "textDocument/publishDiagnostics", 0),
                                                                  "diagnostics"),
                                 "PC009"));
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(only_lens(&x, 2), "command");
    ck_assert_str_eq(str(cmd, "title"), "poolcheck: predicted [64, 1, 1]");
    ck_assert_str_eq(str(cmd, "command"), "");
    sess_free(&x);
    pc_mem_free(fixed);
    pc_mem_free(text);
}
END_TEST

/* Bad requests get InvalidParams; a client without workspace/applyEdit, or a kernel with nothing
 * to apply, RequestFailed; the lens label's command "" does nothing. */
START_TEST(command_bad_params)
{
    int unused;
    char *text = seed_text(false, &unused);
    const char *uri = "file://" PC_BINARY_DIR "/lsp_cmd_bad.py";
    char args[512], nokernel[512], closed[512];
    snprintf(args, sizeof args, "[\"%s\", \"k_tmp_to_d_emb\"]", uri);
    snprintf(nokernel, sizeof nokernel, "[\"%s\", \"nope\"]", uri);
    snprintf(closed, sizeof closed, "[\"file:///not/open.py\", \"k_tmp_to_d_emb\"]");
    const char *apply = "poolcheck.applySuggestedConfiguration";
    for (int round = 0; round < 2; round++) {
        session x;
        sess_init(&x, 0);
        if (round == 0)
            sess_send(&x, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":"
                             "{\"workspace\":{\"applyEdit\":true}}}}");
        else
            sess_send(&x, 0, initialize_utf16);   /* no workspace.applyEdit */
        sess_send_json(&x, 0, did_open(uri, "python", 1, text));
        sess_send_json(&x, 0, execute_command(2, NULL, args));
        sess_send_json(&x, 0, execute_command(3, "poolcheck.nothing", args));
        sess_send_json(&x, 0, execute_command(4, apply, NULL));
        sess_send_json(&x, 0, execute_command(5, apply, "[1, 2]"));
        sess_send_json(&x, 0, execute_command(6, apply, "[\"a\", \"b\", \"c\", \"d\"]"));
        sess_send_json(&x, 0, execute_command(7, "", NULL));
        sess_send_json(&x, 0, execute_command(8, apply, args));
        sess_send_json(&x, 0, execute_command(9, apply, nokernel));
        sess_send_json(&x, 0, execute_command(10, apply, closed));
        cJSON *p = text_document_params(uri);
        cJSON_AddItemToObject(p, "range", cJSON_Parse("{\"start\":{\"line\":0}}"));
        sess_send_json(&x, 0, request(11, "textDocument/inlayHint", p));
        sess_send_json(&x, 0, request(12, "textDocument/codeLens", cJSON_CreateObject()));
        sess_send(&x, 0, shutdown_req);
        sess_send(&x, 0, exit_note);
        sess_run(&x);
        for (int id = 2; id <= 6; id++)
            ck_assert_int_eq(error_code(response(&x, id)), PC_LSP_INVALID_PARAMS);
        ck_assert_int_eq(error_code(response(&x, 7)), 0);
        ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(response(&x, 7), "result")));
        if (round == 0) {
            ck_assert_int_eq(error_code(response(&x, 8)), 0);
            ck_assert_int_eq(error_code(response(&x, 9)), PC_LSP_REQUEST_FAILED);
            ck_assert_int_eq(error_code(response(&x, 10)), PC_LSP_INVALID_PARAMS);
            ck_assert_ptr_nonnull(server_request(&x, "workspace/applyEdit", 0));
            ck_assert_ptr_null(server_request(&x, "workspace/applyEdit", 1));
        } else {
            ck_assert_int_eq(error_code(response(&x, 8)), PC_LSP_REQUEST_FAILED);
            ck_assert_ptr_nonnull(strstr(str(cJSON_GetObjectItemCaseSensitive(response(&x, 8), "error"), "message"),
                                         "workspace/applyEdit"));
            ck_assert_ptr_null(server_request(&x, "workspace/applyEdit", 0));
        }
        ck_assert_int_eq(error_code(response(&x, 11)), PC_LSP_INVALID_PARAMS);
        ck_assert_int_eq(error_code(response(&x, 12)), PC_LSP_INVALID_PARAMS);
        ck_assert_int_eq(x.rc, 0);
        sess_free(&x);
    }
    pc_mem_free(text);
}
END_TEST

static Suite *lsp_suite(void)
{
    Suite *s = suite_create("lsp");
    TCase *tc = tcase_create("framing");
    tcase_add_test(tc, frame_one_message);
    tcase_add_test(tc, frame_split_byte_by_byte);
    tcase_add_test(tc, frame_several_in_one_read);
    tcase_add_test(tc, frame_counts_bytes_not_characters);
    tcase_add_test(tc, frame_bad_content_length_recovers);
    tcase_add_test(tc, frame_bad_header_then_split_next);
    tcase_add_test(tc, frame_writer);
    suite_add_tcase(s, tc);

    tc = tcase_create("dispatch");
    tcase_add_test(tc, dispatch_before_initialize);
    tcase_add_test(tc, dispatch_initialize_result);
    tcase_add_test(tc, dispatch_utf8_negotiated);
    tcase_add_test(tc, dispatch_malformed_messages_keep_serving);
    tcase_add_test(tc, dispatch_strict_json);
    tcase_add_test(tc, dispatch_exit_without_shutdown);
    tcase_add_test(tc, dispatch_byte_by_byte_session);
    tcase_add_test(tc, dispatch_client_gone);
    tcase_add_test(tc, dispatch_settings_errors_are_shown);
    suite_add_tcase(s, tc);

    tc = tcase_create("positions");
    tcase_add_test(tc, pos_utf16_and_utf8);
    tcase_add_test(tc, pos_clamping_and_unknown);
    tcase_add_test(tc, pos_uris);
    suite_add_tcase(s, tc);

    tc = tcase_create("debounce");
    tcase_add_test(tc, debounce_rapid_edits);
    tcase_add_test(tc, debounce_request_flushes);
    suite_add_tcase(s, tc);

    tc = tcase_create("seed");
    tcase_add_test(tc, seed_pc001_utf16);
    tcase_add_test(tc, seed_pc001_utf8);
    tcase_add_test(tc, seed_quickfix_clears);
    tcase_add_test(tc, seed_settings_set_and_reconfigure);
    tcase_add_test(tc, seed_settings_config_file);
    tcase_add_test(tc, seed_project_file);
    tcase_add_test(tc, seed_hover);
    tcase_add_test(tc, hover_singular_counts);
    tcase_add_test(tc, seed_cpp_reparse);
    tcase_add_test(tc, hostile_numbers_out_of_range);
    tcase_add_test(tc, hostile_params_null);
    tcase_add_test(tc, hostile_cpp_lone_cr_position);
    tcase_add_test(tc, hostile_config_file_fifo);
    suite_add_tcase(s, tc);

    tc = tcase_create("model_in_editor");
    tcase_add_test(tc, hints_utf16);
    tcase_add_test(tc, hints_utf8);
    tcase_add_test(tc, hints_seed_and_unknown);
    tcase_add_test(tc, lens_titles);
    tcase_add_test(tc, command_applies_suggestion);
    tcase_add_test(tc, command_bad_params);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lsp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
