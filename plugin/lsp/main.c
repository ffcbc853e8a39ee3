/*
 * main.c - poolcheck-lsp: the LSP server over stdin/stdout.
 *
 * stdout carries protocol messages and nothing else.  The protocol gets a private duplicate of
 * fd 1, and fd 1 itself is pointed at stderr, so a stray printf anywhere in the process (an
 * embedded interpreter, a library) lands in the log instead of corrupting a message.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include "lsp.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "usage: poolcheck-lsp [--stdio] [--debounce-ms=N] [--max-walk-seconds=S] [--max-parse-seconds=S]\n"
    "                     [--docs-url=URL] [--verbose]\n"
    "\n"
    "A Language Server Protocol 3.17 server for poolcheck: diagnostics, quickfixes, hovers, inlay\n"
    "hints (instances and DeviceTasks of each loop, pool and bytes of each tensor) and code lenses\n"
    "(each kernel's predicted depths, with a command that applies the suggested configuration) for\n"
    "PyPTO kernels (Python and C++), over stdin/stdout.\n"
    "\n"
    "  --stdio          accepted for editors that pass it (stdio is the only transport)\n"
    "  --debounce-ms=N  quiet period after an edit before re-analysing (default 150)\n"
    "  --max-walk-seconds=S  stop walking a kernel's instances after S seconds and report bounds\n"
    "                   (PC012; default 10, 0 = no limit)\n"
    "  --max-parse-seconds=S  stop parsing a C++ file after S seconds: the document gets an\n"
    "                   error and the server goes on (default 60, 0 = no limit)\n"
    "  --docs-url=URL   base of the check pages linked from diagnostics (<URL>/PC001.md);\n"
    "                   default: the installed docs, else $POOLCHECK_DOCS_URL\n"
    "  --verbose        log each analysis on stderr\n"
    "\n"
    "Settings (initializationOptions or workspace/didChangeConfiguration, optionally under a\n"
    "\"poolcheck\" key): \"set\": [\"KEY=VALUE\"], \"bind\": [\"NAME=VALUE\"], \"configFile\": PATH,\n"
    "\"checks\": GLOBS, \"warningsAsErrors\": GLOBS.  See docs/integrations.md.\n";

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The check pages: <prefix>/share/doc/poolcheck/checks beside an installed binary, else the
 * source tree this binary was built from. */
static char *find_docs_base(void)
{
    const char *env = getenv("POOLCHECK_DOCS_URL");
    if (env && *env)
        return pc_mem_strdup(env);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            pc_sb p = {0};
            pc_sb_printf(&p, "%s/../share/doc/poolcheck/checks", exe);
            char *real = realpath(p.data, NULL);
            pc_sb_free(&p);
            if (real && is_dir(real)) {
                char *uri = pc_lsp_path_to_uri(real);
                free(real);
                return uri;
            }
            free(real);
        }
    }
#ifdef POOLCHECK_DOCS_DIR
    if (is_dir(POOLCHECK_DOCS_DIR))
        return pc_lsp_path_to_uri(POOLCHECK_DOCS_DIR);
#endif
    return NULL;
}

/* --FLAG=S with S in seconds, 0..86400 (the name is the text before the value, arg[0..name_len)). */
static bool parse_seconds(const char *arg, size_t name_len, double *out)
{
    char *end;
    double v = strtod(arg + name_len, &end);
    if (end == arg + name_len || *end || !(v >= 0 && v <= 86400)) {
        fprintf(stderr, "poolcheck-lsp: error: %.*s wants 0..86400, got '%s'\n", (int)(name_len - 1), arg,
                arg + name_len);
        return false;
    }
    *out = v;
    return true;
}

int main(int argc, char **argv)
{
    pc_lsp_server_opts opts;
    pc_lsp_server_opts_init(&opts);
    const char *docs_url = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--stdio") == 0) {
            continue;
        } else if (strncmp(a, "--debounce-ms=", 14) == 0) {
            char *end;
            long v = strtol(a + 14, &end, 10);
            if (*end || v < 0 || v > 60000) {
                fprintf(stderr, "poolcheck-lsp: error: --debounce-ms wants 0..60000, got '%s'\n", a + 14);
                return 2;
            }
            opts.debounce_ms = (int)v;
        } else if (strncmp(a, "--max-walk-seconds=", 19) == 0) {
            if (!parse_seconds(a, 19, &opts.max_walk_seconds))
                return 2;
        } else if (strncmp(a, "--max-parse-seconds=", 20) == 0) {
            if (!parse_seconds(a, 20, &opts.max_parse_seconds))
                return 2;
        } else if (strncmp(a, "--docs-url=", 11) == 0) {
            docs_url = a + 11;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            opts.verbose = true;
        } else if (strcmp(a, "--version") == 0) {
            printf("poolcheck-lsp %s\n", pc_version());
            return 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else {
            fprintf(stderr, "poolcheck-lsp: error: unknown option '%s'\n%s", a, usage);
            return 2;
        }
    }

    fflush(stdout);
    int proto_fd = dup(STDOUT_FILENO);
    if (proto_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        perror("poolcheck-lsp: cannot set up stdout");
        return 2;
    }
    /* A client that closes the pipe must not kill us mid-write: the write fails instead. */
    signal(SIGPIPE, SIG_IGN);

    char *docs = docs_url ? pc_mem_strdup(docs_url) : find_docs_base();
    opts.docs_base = docs;
    pc_lsp_transport t;
    pc_lsp_fd_io io;
    pc_lsp_fd_transport(&t, &io, STDIN_FILENO, proto_fd);
    pc_lsp_server *s = pc_lsp_server_new(&t, &opts);
    int rc = pc_lsp_server_run(s);
    if (pc_lsp_server_parses_abandoned(s)) {
        /* a parse thread still runs in libclang: end without exit's destructors and atexit
         * handlers, which would unload what it uses */
        fflush(NULL);
        _exit(rc);
    }
    pc_lsp_server_free(s);
    pc_mem_free(docs);
    close(proto_fd);
    return rc;
}
