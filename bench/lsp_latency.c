/*
 * lsp_latency.c - time from textDocument/didChange to the matching textDocument/publishDiagnostics
 * of poolcheck-lsp, as an editor sees it: over pipes, whole messages, one document.
 *
 *   lsp_latency SERVER FILE [EDITS] [--at=end|body|between] [-- SERVER ARGS...]
 *
 * Opens FILE (file:// URI, languageId from its extension), waits for its first diagnostics, then
 * EDITS times (default 30) sends a full-text didChange (the original text with a comment line
 * `edit N` added: every change is new text, so nothing can be answered from a cache) and
 * waits for the publishDiagnostics carrying that version.  Where the line goes: --at=end (the
 * default) appends it; --at=body puts it first in the function body that opens (a line `{`) in the
 * middle of the file; --at=between puts it after the blank line that follows a function's closing
 * line `}` in the middle of the file, between two functions.  Prints the
 * median, 90th percentile and maximum in milliseconds, and the server's CPU time per edit (user +
 * system from /proc/PID/stat over the edits, Linux; "?" elsewhere): on a loaded machine the wall
 * times include waiting for a core, the CPU time does not.  Run the server with --debounce-ms=0 to
 * time the analysis itself; with its default debounce the editor waits that much longer.
 * POSIX only, no JSON library: the server's messages are found by Content-Length framing and
 * the notification by its method and "version" field.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int to_server, from_server;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void die(const char *what)
{
    fprintf(stderr, "lsp_latency: %s\n", what);
    exit(2);
}

static void send_body(const char *body)
{
    char head[64];
    int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(body));
    if (write(to_server, head, (size_t)n) != n)
        die("write to the server failed");
    size_t len = strlen(body), off = 0;
    while (off < len) {
        ssize_t w = write(to_server, body + off, len - off);
        if (w <= 0)
            die("write to the server failed");
        off += (size_t)w;
    }
}

/* Read buffer for the server's output. */
static char *rbuf;
static size_t rlen, rcap;

/* The next message body from the server (malloc'd), or NULL at end of output. */
static char *next_message(void)
{
    for (;;) {
        char *hdr_end = rlen ? strstr(rbuf, "\r\n\r\n") : NULL;
        if (hdr_end) {
            char *cl = strstr(rbuf, "Content-Length:");
            if (!cl || cl > hdr_end)
                die("a server message without Content-Length");
            size_t n = strtoul(cl + 15, NULL, 10);
            size_t start = (size_t)(hdr_end - rbuf) + 4;
            if (rlen >= start + n) {
                char *body = malloc(n + 1);
                memcpy(body, rbuf + start, n);
                body[n] = 0;
                memmove(rbuf, rbuf + start + n, rlen - start - n);
                rlen -= start + n;
                rbuf[rlen] = 0;
                return body;
            }
        }
        if (rcap - rlen < 65536) {
            rcap = rcap ? rcap * 2 : 1 << 20;
            rbuf = realloc(rbuf, rcap);
        }
        ssize_t r = read(from_server, rbuf + rlen, rcap - rlen - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        rlen += (size_t)r;
        rbuf[rlen] = 0;
    }
}

/* Wait for publishDiagnostics of `version`; other messages are skipped. */
static void wait_diagnostics(int version)
{
    char want[64];
    snprintf(want, sizeof want, "\"version\":%d", version);
    for (;;) {
        char *m = next_message();
        if (!m)
            die("the server ended before publishing diagnostics");
        const char *v = strstr(m, want);
        int hit = strstr(m, "textDocument/publishDiagnostics") && v && (v[strlen(want)] == ',' || v[strlen(want)] == '}');
        free(m);
        if (hit)
            return;
    }
}

static void wait_response(int id)
{
    char want[64];
    snprintf(want, sizeof want, "\"id\":%d", id);
    for (;;) {
        char *m = next_message();
        if (!m)
            die("the server ended before answering");
        int hit = strstr(m, want) && !strstr(m, "\"method\"");
        free(m);
        if (hit)
            return;
    }
}

/* JSON string contents of s. */
static char *json_escape(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n * 6 + 1), *o = out;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            *o++ = '\\';
            *o++ = (char)*p;
        } else if (*p == '\n') {
            *o++ = '\\';
            *o++ = 'n';
        } else if (*p == '\r') {
            *o++ = '\\';
            *o++ = 'r';
        } else if (*p == '\t') {
            *o++ = '\\';
            *o++ = 't';
        } else if (*p < 0x20) {
            o += sprintf(o, "\\u%04x", *p);
        } else {
            *o++ = (char)*p;
        }
    }
    *o = 0;
    return out;
}

/* CPU time (user + system) the process has used, in milliseconds, or -1 when unknown. */
static double cpu_ms(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* fields after the command name, which is in parentheses and may hold blanks */
    char *p = strrchr(buf, ')');
    unsigned long long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? (double)(ut + st) * 1000.0 / (double)hz : -1;
}

/* Start of the line after the first line equal to `want` at or after the middle of text, or 0. */
static size_t line_after(const char *text, size_t len, size_t from, const char *want)
{
    size_t n = strlen(want);
    for (size_t i = from; i < len; i++) {
        if (i > 0 && text[i - 1] != '\n')
            continue;
        if (strncmp(text + i, want, n) == 0 && (text[i + n] == '\n' || (text[i + n] == '\r' && text[i + n + 1] == '\n')))
            return (size_t)(strchr(text + i, '\n') - text) + 1;
    }
    return 0;
}

/* Where the edit's comment line goes (see the top of the file); exits when FILE has no such place. */
static size_t edit_offset(const char *text, size_t len, const char *at)
{
    if (strcmp(at, "end") == 0)
        return len;
    if (strcmp(at, "body") && strcmp(at, "between"))
        die("--at= takes end, body or between");
    size_t off = 0;
    /* from the middle, else from the top */
    for (size_t start = len / 2;; start = 0) {
        if (strcmp(at, "body") == 0) {
            off = line_after(text, len, start, "{");
        } else {
            for (size_t from = start; (off = line_after(text, len, from, "}")) != 0; from = off) {
                size_t blank = line_after(text, len, off, "");
                if (blank == off + 1 || (blank == off + 2 && text[off] == '\r'))
                    break; /* `}` then a blank line: the next function starts after it */
            }
            off = off ? line_after(text, len, off, "") : 0;
        }
        if (off || !start)
            break;
    }
    if (!off)
        die("no place for the --at edit in FILE");
    return off;
}

static int line_of(const char *text, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        die("usage: lsp_latency SERVER FILE [EDITS] [-- SERVER ARGS...]");
    const char *server = argv[1], *file = argv[2], *at = "end";
    int edits = 30, sargs = argc;
    for (int i = 3; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            sargs = i + 1;
            break;
        } else if (strncmp(argv[i], "--at=", 5) == 0) {
            at = argv[i] + 5;
        } else {
            edits = atoi(argv[i]);
        }
    if (edits < 1)
        edits = 1;

    FILE *f = fopen(file, "rb");
    if (!f)
        die("cannot open FILE");
    char *text = malloc(1 << 22);
    size_t tlen = fread(text, 1, (1 << 22) - 1, f);
    text[tlen] = 0;
    fclose(f);
    char abs[4096];
    if (!realpath(file, abs))
        die("cannot resolve FILE");
    const char *dot = strrchr(file, '.');
    const char *lang = dot && strcmp(dot, ".py") == 0 ? "python" : "cpp";
    const char *comment = strcmp(lang, "python") == 0 ? "#" : "//";
    size_t split = edit_offset(text, tlen, at);
    char saved = text[split];
    text[split] = 0;
    char *escaped = json_escape(text); /* the text before the edit's line */
    text[split] = saved;
    char *escaped_tail = json_escape(text + split);
    char *whole = json_escape(text);

    int in[2], out[2];
    if (pipe(in) || pipe(out))
        die("pipe failed");
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        char **av = calloc((size_t)(argc - sargs + 2), sizeof *av);
        int k = 0;
        av[k++] = (char *)server;
        for (int i = sargs; i < argc; i++)
            av[k++] = argv[i];
        execv(server, av);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_server = in[1];
    from_server = out[0];

    size_t cap = strlen(escaped) + strlen(escaped_tail) + 4096;
    char *msg = malloc(cap);
    send_body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":null,\"capabilities\":{}}}");
    wait_response(1);
    send_body("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    snprintf(msg, cap,
             "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
             "{\"uri\":\"file://%s\",\"languageId\":\"%s\",\"version\":1,\"text\":\"%s\"}}}",
             abs, lang, whole);
    double t_open = now_ms();
    send_body(msg);
    wait_diagnostics(1);
    double first = now_ms() - t_open;

    double *lat = calloc((size_t)edits, sizeof *lat);
    double cpu0 = cpu_ms(pid);
    for (int i = 0; i < edits; i++) {
        int version = i + 2;
        snprintf(msg, cap,
                 "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":"
                 "{\"uri\":\"file://%s\",\"version\":%d},\"contentChanges\":[{\"text\":\"%s%s edit %d\\n%s\"}]}}",
                 abs, version, escaped, comment, version, escaped_tail);
        double t0 = now_ms();
        send_body(msg);
        wait_diagnostics(version);
        lat[i] = now_ms() - t0;
    }
    double cpu1 = cpu_ms(pid);
    char cpu[64] = "?";
    if (cpu0 >= 0 && cpu1 >= 0)
        snprintf(cpu, sizeof cpu, "%.1f ms", (cpu1 - cpu0) / edits);
    send_body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
    wait_response(2);
    send_body("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    close(to_server);
    int st = 0;
    waitpid(pid, &st, 0);

    qsort(lat, (size_t)edits, sizeof *lat, cmp_double);
    double median = edits % 2 ? lat[edits / 2] : (lat[edits / 2 - 1] + lat[edits / 2]) / 2;
    int p90 = (int)((edits - 1) * 0.9 + 0.5);
    printf("didOpen->diagnostics %.1f ms; didChange->publishDiagnostics over %d edits (--at=%s, line %d): median "
           "%.1f ms, p90 %.1f ms, max %.1f ms; server CPU %s per edit (server exit %d)\n",
           first, edits, at, line_of(text, split), median, lat[p90], lat[edits - 1], cpu,
           WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    free(lat);
    free(msg);
    free(escaped);
    free(escaped_tail);
    free(whole);
    free(text);
    free(rbuf);
    return 0;
}
