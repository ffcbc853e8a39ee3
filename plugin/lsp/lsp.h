/*
 * lsp.h - internal header of poolcheck-lsp (plugin/lsp/), the Language Server Protocol 3.17 server.
 *
 * The server has no analysis logic: every diagnostic, fix, hover, inlay hint and code lens fact
 * comes from the library's one-call driver pc_check_file().  What lives here is protocol: framing, JSON-RPC dispatch, the
 * lifecycle, open documents and their debounce, position-encoding conversion, and turning
 * pc_file_result into LSP JSON.  The core runs on an abstract transport, so the unit tests
 * (tests/unit/check_lsp.c) drive it in memory and the binary drives it over stdio.
 *
 * One section per source file, in dependency order.
 */
#ifndef POOLCHECK_PLUGIN_LSP_H
#define POOLCHECK_PLUGIN_LSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolcheck/poolcheck.h"
#include "poolcheck/support.h"

/* ==== transport.c: where bytes come from and go to ========================================== */

enum {
    PC_LSP_READ_EOF = 0,        /* the peer closed its end */
    PC_LSP_READ_ERROR = -1,     /* an I/O error: treated like EOF */
    PC_LSP_READ_TIMEOUT = -2    /* nothing arrived within timeout_ms */
};

typedef struct pc_lsp_transport {
    void *ctx;
    /* Read up to cap bytes, waiting at most timeout_ms (-1: until something arrives).  Returns
     * the number of bytes read (> 0) or one of the PC_LSP_READ_* codes. */
    long (*read)(void *ctx, char *buf, size_t cap, int timeout_ms);
    /* Write all len bytes; false when the peer is gone. */
    bool (*write)(void *ctx, const char *data, size_t len);
    /* A monotonic clock in milliseconds: the debounce is measured on it. */
    int64_t (*now_ms)(void *ctx);
} pc_lsp_transport;

/* File descriptors (stdin/stdout in the binary): poll() gives the timeouts, no threads needed. */
typedef struct pc_lsp_fd_io { int in_fd, out_fd; } pc_lsp_fd_io;
void pc_lsp_fd_transport(pc_lsp_transport *t, pc_lsp_fd_io *io, int in_fd, int out_fd);

/* In memory, on a virtual clock (tests, fuzzing).  Input is a queue of chunks, each delivered
 * when the clock reaches its time; a read that would wait advances the clock instead of
 * sleeping, so debounce tests are exact and instant.  Everything written is appended to `out`. */
typedef struct pc_lsp_mem_chunk { char *data; size_t len, pos; int64_t at_ms; } pc_lsp_mem_chunk;
typedef struct pc_lsp_mem {
    PC_VEC(pc_lsp_mem_chunk) in;
    size_t next;             /* first chunk not fully read */
    int64_t clock_ms;
    size_t max_read;         /* 0 = no limit; 1 delivers byte by byte */
    pc_sb out;
    bool write_fails;        /* simulate a client that went away */
} pc_lsp_mem;
void pc_lsp_mem_init(pc_lsp_mem *m, pc_lsp_transport *t);
void pc_lsp_mem_free(pc_lsp_mem *m);
/* Queue raw bytes, available from at_ms on. */
void pc_lsp_mem_feed(pc_lsp_mem *m, int64_t at_ms, const char *data, size_t len);
/* Queue one JSON body with its Content-Length header. */
void pc_lsp_mem_feed_msg(pc_lsp_mem *m, int64_t at_ms, const char *json);

/* ==== framing.c: Content-Length framing (LSP base protocol) ================================= */

/* Header lines `Name: value\r\n`, a blank line, then exactly Content-Length bytes (not characters)
 * of UTF-8 JSON.  Header names are matched case-insensitively; lone `\n` line ends are accepted. */
typedef enum pc_lsp_frame {
    PC_LSP_FRAME_NEED_MORE,  /* no complete message buffered yet */
    PC_LSP_FRAME_MESSAGE,    /* *body, *len: one message, valid until the next reader call */
    PC_LSP_FRAME_BAD         /* a malformed header; the reader has skipped to the next one */
} pc_lsp_frame;

#define PC_LSP_MAX_HEADER 8192u                 /* a header block longer than this is bad */
#define PC_LSP_MAX_BODY (256u * 1024u * 1024u)  /* larger Content-Length values are refused */

typedef struct pc_lsp_reader {
    char *buf;
    size_t start, len, cap;  /* unconsumed bytes are buf[start, len) */
    bool resync;             /* after a bad header: skipping to the next "Content-Length:" */
} pc_lsp_reader;

void pc_lsp_reader_init(pc_lsp_reader *r);
void pc_lsp_reader_free(pc_lsp_reader *r);
void pc_lsp_reader_feed(pc_lsp_reader *r, const char *data, size_t n);
/* Next message.  On PC_LSP_FRAME_BAD, *err says what was wrong (pc_mem_free it; err may be
 * NULL), as the library's errors do (poolcheck/support.h). */
pc_lsp_frame pc_lsp_reader_next(pc_lsp_reader *r, const char **body, size_t *len, char **err);
/* Frame and write one JSON body. */
bool pc_lsp_write_body(const pc_lsp_transport *t, const char *body, size_t len);

/* ==== position.c: position encodings, line tables, URIs ====================================== */

/* LSP 3.17 position encodings.  poolcheck's own columns are 1-based byte columns (docs/model.md 12). */
typedef enum pc_lsp_encoding { PC_LSP_UTF16 = 0, PC_LSP_UTF8 } pc_lsp_encoding;
const char *pc_lsp_encoding_name(pc_lsp_encoding e);   /* "utf-16", "utf-8" */

typedef struct pc_lsp_pos { uint32_t line, character; } pc_lsp_pos;   /* 0-based */

/* Start offsets of the lines of a text.  Lines end at \n, \r\n or \r, as LSP counts them. */
typedef struct pc_lsp_lines {
    const char *text;        /* not owned */
    size_t len;
    size_t *starts;          /* nlines entries */
    size_t nlines;
} pc_lsp_lines;

void pc_lsp_lines_init(pc_lsp_lines *l, const char *text, size_t len);
void pc_lsp_lines_free(pc_lsp_lines *l);
/* Byte length of line i's content (without its line end). */
size_t pc_lsp_line_len(const pc_lsp_lines *l, size_t i);
/* 1-based line and byte column -> LSP position in encoding e.  Line 0 (unknown) gives 0:0; a line
 * or column past the end is clamped to the end of the text or line. */
pc_lsp_pos pc_lsp_to_lsp(const pc_lsp_lines *l, uint32_t line, uint32_t col, pc_lsp_encoding e);
/* LSP position in encoding e -> 1-based line and byte column (clamped likewise). */
void pc_lsp_from_lsp(const pc_lsp_lines *l, pc_lsp_pos p, pc_lsp_encoding e, uint32_t *line,
                     uint32_t *col);

/* file:// URIs <-> paths (percent-decoding and -encoding).  A URI of another scheme (untitled:)
 * is returned unchanged by uri_to_path.  Results come from pc_mem_* (pc_mem_free). */
char *pc_lsp_uri_to_path(const char *uri);
char *pc_lsp_path_to_uri(const char *path);

/* ==== server.c: lifecycle, dispatch, documents, settings, debounce =========================== */

/* JSON-RPC 2.0 / LSP error codes. */
enum {
    PC_LSP_PARSE_ERROR = -32700,
    PC_LSP_INVALID_REQUEST = -32600,
    PC_LSP_METHOD_NOT_FOUND = -32601,
    PC_LSP_INVALID_PARAMS = -32602,
    PC_LSP_INTERNAL_ERROR = -32603,
    PC_LSP_SERVER_NOT_INITIALIZED = -32002,
    PC_LSP_REQUEST_FAILED = -32803   /* LSP 3.17: valid request, but it could not be carried out */
};

/* The workspace/executeCommand command of the code lenses: arguments [uri, kernel name] (and the
 * kernel's scope when kernels of the file share the name); it sends workspace/applyEdit with the
 * fix of that kernel's PC009, the quickfix's edit. */
#define PC_LSP_CMD_APPLY_CONFIG "poolcheck.applySuggestedConfiguration"

typedef struct pc_lsp_server_opts {
    int debounce_ms;         /* quiet period before a changed document is analysed (default 150) */
    const char *docs_base;   /* URI prefix of the check pages: <docs_base>/PC001.md; NULL = none */
    bool verbose;            /* log each analysis on stderr */
    /* the walk's time budget per analysis (pc_analysis_opts.max_walk_seconds; 0 = none): an editor
     * must get an answer, bounds with PC012 past it */
    double max_walk_seconds;
    /* a C++ parse's time bound (pc_parse_opts.max_parse_seconds; 0 = none): past it the document
     * gets an error diagnostic and the server goes on in a new libclang session */
    double max_parse_seconds;
} pc_lsp_server_opts;

#define PC_LSP_DEFAULT_MAX_WALK_SECONDS 10.0
#define PC_LSP_DEFAULT_MAX_PARSE_SECONDS 60.0

typedef struct pc_lsp_server pc_lsp_server;
typedef struct pc_lsp_doc pc_lsp_doc;      /* an open document (server.c) */

void pc_lsp_server_opts_init(pc_lsp_server_opts *o);
pc_lsp_server *pc_lsp_server_new(const pc_lsp_transport *t, const pc_lsp_server_opts *o);
void pc_lsp_server_free(pc_lsp_server *s);
/* Serve until `exit` or end of input.  Returns the process exit status: 0 when `shutdown` came
 * before, 1 otherwise (LSP 3.17, "exit notification"). */
int pc_lsp_server_run(pc_lsp_server *s);
/* A parse went past its bounds (or was stopped for shutdown) and still runs on its thread: the
 * process must end with _exit, since exit's destructors would pull libclang from under it. */
bool pc_lsp_server_parses_abandoned(const pc_lsp_server *s);

/* ==== features.c: pc_file_result -> LSP JSON ================================================ */

/* Declared with void* (cJSON *) so this header does not need cJSON, as report.h does. */

/* What features.c needs from a document: the analysed text and its result. */
typedef struct pc_lsp_view {
    const char *uri;
    const char *path;
    const pc_file_result *result;    /* the analysis of exactly `text` */
    const pc_lsp_lines *lines;       /* line table of result->source */
    pc_lsp_encoding enc;
    const char *docs_base;
} pc_lsp_view;

/* The `diagnostics` array of textDocument/publishDiagnostics. */
void *pc_lsp_diagnostics_json(const pc_lsp_view *v);
/* textDocument/codeAction result: one quickfix per diagnostic with fixes whose range meets
 * [start, end], or that the client named in context.diagnostics (context_diags: a cJSON array or
 * NULL). */
void *pc_lsp_code_actions_json(const pc_lsp_view *v, pc_lsp_pos start, pc_lsp_pos end,
                               const void *context_diags);
/* textDocument/hover result (a Hover object) or NULL when nothing is under the position. */
void *pc_lsp_hover_json(const pc_lsp_view *v, pc_lsp_pos pos);
/* textDocument/inlayHint result: the hints whose position is in [start, end] -- after the name of
 * each tensor in a pool where it is created ("root_inner, 4096 B", kind Type), and at the end of
 * each loop header with root functions ("64 instances, 1 DeviceTask"; the facts of the hover). */
void *pc_lsp_inlay_hints_json(const pc_lsp_view *v, pc_lsp_pos start, pc_lsp_pos end);
/* textDocument/codeLens result: one resolved lens per kernel at its name, titled with the
 * predicted depths; with PC_LSP_CMD_APPLY_CONFIG when PC009 has a fix for it, else the command
 * "" (a label). */
void *pc_lsp_code_lenses_json(const pc_lsp_view *v);
/* The WorkspaceEdit of kernel `name`'s suggested configuration (PC009's fix; scope: its
 * pc_kernel.scope, or NULL for the first kernel of that name that has one) and *label for
 * workspace/applyEdit; or NULL and *why.  Caller frees *label / *why (pc_mem_free). */
void *pc_lsp_suggested_edit_json(const pc_lsp_view *v, const char *name, const char *scope, char **label,
                                 char **why);

#endif
