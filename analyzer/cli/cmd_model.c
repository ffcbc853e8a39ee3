/* cmd_model.c - `poolcheck model FILE`: the kernel model as JSON (the frontends' output). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>

static const char model_help[] =
    "usage: poolcheck model [options] FILE\n"
    "Print the kernel model of FILE as JSON: what the frontend (libclang for C++, CPython's ast for\n"
    "Python) read from the source, before any analysis.  Per kernel: its tensors (name, dtype,\n"
    "shape, kind, where each is created), loops (bounds, step, unroll list, submit_before_loop,\n"
    "parallel), paths, the statements with their reads, whole writes, assemble writes and views,\n"
    "and the runtime options found in the source, each with its source location.  The analysis\n"
    "(check, logs --kernel, plan) works only from this model, so it shows what poolcheck saw: use\n"
    "it when a prediction looks wrong.  Messages of the frontend go to stderr.\n"
    "Exit status: 0 model printed; 2 usage error, unreadable file, or a source that cannot be\n"
    "parsed at all.\n\n"
    "Options (how the source is read; the model involves no analysis, bindings or runtime options):\n"
    "  --lang=cpp|python         force the language (default: from the extension)\n"
    "  --python-path DIR         also look for imported project modules in DIR (repeatable)\n"
    "  -p DIR                    directory holding compile_commands.json (real headers)\n"
    "  --extra-arg=ARG           append a compiler argument (repeatable)\n"
    "  --extra-arg-before=ARG    prepend a compiler argument (repeatable)\n"
    "  --show-parse-errors       show clang's own errors (hidden in stub-header mode)\n"
    "  --no-cache                parse the stub header's text; do not load or write its precompiled\n"
    "                            form (cache: $POOLCHECK_CACHE_DIR, else ~/.cache/poolcheck)\n"
    "  --max-parse-seconds S     give up parsing a C++ file after S seconds: exit 2. Default 300,\n"
    "                            0 = no limit\n";

/* The options of check, logs and plan that only the analysis reads: `model` prints what the
 * frontend saw and would ignore them, so they are unknown here, as its help says. */
static bool analysis_only(const char *arg)
{
    static const char *const names[] = {"bind", "shapes", "set", "config", "config-file", "no-config-lookup",
                                        "inner-policy", "assemble-headroom", "max-walk-seconds",
                                        "checks", "warnings-as-errors", NULL};
    if (arg[0] != '-' || arg[1] != '-')
        return false;
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == len && strncmp(name, names[i], len) == 0)
            return true;
    return false;
}

int pc_cmd_model(int argc, char **argv)
{
    pc_cli_common c;
    pc_cli_common_init(&c);
    const char *file = NULL;
    int status = PC_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            fputs(model_help, stdout);
            pc_cli_common_free(&c);
            return PC_EXIT_OK;
        }
        if (analysis_only(argv[i])) {
            pc_cli_unknown_option("model", argv[i], model_help, NULL);
            pc_cli_common_free(&c);
            return PC_EXIT_USAGE;
        }
        int r = pc_cli_common_option(&c, argc, argv, &i);
        if (r < 0) {
            pc_cli_common_free(&c);
            return PC_EXIT_USAGE;
        }
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            pc_cli_unknown_option("model", argv[i], model_help, NULL);
            pc_cli_common_free(&c);
            return PC_EXIT_USAGE;
        }
        if (file) {
            pc_cli_error("'poolcheck model' takes one file");
            pc_cli_common_free(&c);
            return PC_EXIT_USAGE;
        }
        file = argv[i];
    }
    if (!file) {
        pc_cli_error("'poolcheck model' needs a FILE");
        pc_cli_common_free(&c);
        return PC_EXIT_USAGE;
    }
    pc_parse_opts po = {0};
    po.lang = c.lang;
    po.max_parse_seconds = c.max_parse_seconds; /* as check bounds its parse */
    po.compile_db_dir = c.compile_db_dir;
    po.extra_args = c.extra_args.items;
    po.nextra_args = c.extra_args.count;
    po.no_cache = c.no_cache;
    po.extra_args_before = c.extra_args_before.items;
    po.nextra_args_before = c.extra_args_before.count;
    po.python_path = c.python_path.items;
    po.npython_path = c.python_path.count;
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = pc_frontend_parse(fe, file, NULL, 0, &po);
    for (int i = 0; i < m->nmessages; i++) {
        const pc_message *msg = &m->messages[i];
        if (msg->kind == PC_MSG_PARSE_NOISE && !c.show_parse_errors)
            continue;
        fprintf(stderr, "%s:%u:%u: %s: %s\n", msg->loc.file ? msg->loc.file : file, msg->loc.line, msg->loc.col,
                msg->kind == PC_MSG_NOTE ? "note" : msg->kind == PC_MSG_WARNING ? "warning" : "error", msg->text);
    }
    if (m->fatal) {
        status = PC_EXIT_USAGE;
    } else {
        char *json = pc_model_to_json(m);
        fputs(json, stdout);
        fputc('\n', stdout);
        pc_mem_free(json);
        if (!pc_cli_close_output(stdout, "<stdout>"))
            status = PC_EXIT_USAGE;
    }
    pc_model_free(m);
    pc_frontend_free(fe);
    pc_cli_common_free(&c);
    return status;
}
