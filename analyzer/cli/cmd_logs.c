/* cmd_logs.c - `poolcheck logs [options] PATH...`: read the runtime's Workspace INFO logs and,
 * with --kernel, check the prediction against what the run observed (model.md 11). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/logs.h"

static const char logs_help[] =
    "usage: poolcheck logs [options] PATH...\n"
    "Read PyPTO runtime INFO logs (files; directories, recursively; gzip or plain; '-' for stdin)\n"
    "and print, per run (a file, or a process inside a file), the depths the runtime recommended,\n"
    "the depths observed from the logged peaks, the DeviceTasks and any Alloc Failure; then the\n"
    "element-wise maximum over all runs.  Logs come from a run with\n"
    "  export ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_PROCESS_LOG_PATH=<dir>\n\n"
    "Options:\n"
    "  --kernel FILE             compare with the depths predicted for the kernel(s) in FILE\n"
    "                            (element-wise maximum over its kernels); exit 1 when a pool is\n"
    "                            under-predicted\n"
    "  --kernel-name NAME        with --kernel: the one kernel of FILE to compare with\n"
    "  --format=text|json        output format (default text)\n"
    "  -o FILE                   write the output to FILE\n"
    "  --max-line-kb N           longest line read (default 1024); longer lines are skipped and\n"
    "                            counted\n\n";

static bool parse_count(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* The prediction of `--kernel FILE` (element-wise maximum over its kernels, or the one named).
 * Returns false after printing an error (exit 2). */
static bool kernel_prediction(pc_cli_common *c, const char *file, const char *name,
                              int64_t pred[3])
{
    pc_frontend *fe = pc_frontend_new();
    pc_file_result *fr = pc_cli_analyze(c, fe, file);
    bool ok = fr != NULL;
    if (ok && fr->model->fatal) {
        for (int i = 0; i < fr->model->nmessages; i++)
            if (fr->model->messages[i].kind == PC_MSG_FATAL)
                fprintf(stderr, "%s:%u:%u: error: %s\n", file, fr->model->messages[i].loc.line,
                        fr->model->messages[i].loc.col, fr->model->messages[i].text);
        pc_cli_error("cannot analyse '%s'", file);
        ok = false;
    }
    int used = 0;
    for (int k = 0; ok && k < fr->model->nkernels; k++) {
        const pc_result *r = fr->results[k];
        if (name && strcmp(fr->model->kernels[k].name, name) != 0)
            continue;
        for (int i = 0; i < 3; i++) {
            int64_t p = r->predicted[i];
            if (used == 0)
                pred[i] = p;
            else if (pred[i] >= 0)
                pred[i] = p < 0 ? -1 : (p > pred[i] ? p : pred[i]);
        }
        for (int u = 0; u < r->nunknowns; u++)
            fprintf(stderr, "poolcheck: note: kernel '%s': the prediction depends on '%s'; bind it "
                    "(--bind %s=VALUE) for an exact comparison\n",
                    fr->model->kernels[k].name, r->unknowns[u], r->unknowns[u]);
        used++;
    }
    if (ok && used == 0) {
        if (name) {
            pc_sb names = {0};
            for (int k = 0; k < fr->model->nkernels; k++)
                pc_sb_printf(&names, "%s'%s'", k ? ", " : "", fr->model->kernels[k].name);
            char *list = pc_sb_take(&names);
            pc_cli_error("no kernel named '%s' in '%s'%s%s", name, file,
                         fr->model->nkernels ? "; it has " : " (it has no kernel)", list);
            pc_mem_free(list);
        } else {
            pc_cli_error("no kernel in '%s'", file);
        }
        ok = false;
    }
    pc_file_result_free(fr);
    pc_frontend_free(fe);
    return ok;
}

int pc_cmd_logs(int argc, char **argv)
{
    pc_cli_common c;
    pc_cli_common_init(&c);
    PC_VEC(const char *) paths = {0};
    const char *kernel = NULL, *kernel_name = NULL, *out_path = NULL;
    bool json = false;
    int64_t max_line_kb = 1024;
    int status = PC_EXIT_OK;
    pc_log_set *set = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-") == 0) {
            PC_VEC_PUSH(paths, a);
            continue;
        }
        int r = pc_cli_common_option(&c, argc, argv, &i);
        if (r < 0) {
            status = PC_EXIT_USAGE;
            goto done;
        }
        if (r > 0)
            continue;
        const char *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s%s", logs_help, pc_cli_common_help);
            goto done;
        } else if (strncmp(a, "--kernel-name", 13) == 0 && (a[13] == '=' || a[13] == 0)) {
            v = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                pc_cli_error("option '--kernel-name' needs a value");
                status = PC_EXIT_USAGE;
                goto done;
            }
            kernel_name = v;
        } else if (strncmp(a, "--kernel", 8) == 0 && (a[8] == '=' || a[8] == 0)) {
            v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                pc_cli_error("option '--kernel' needs a FILE");
                status = PC_EXIT_USAGE;
                goto done;
            }
            kernel = v;
        } else if (strncmp(a, "--format", 8) == 0 && (a[8] == '=' || a[8] == 0)) {
            v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : "");
            if (strcmp(v, "json") == 0) {
                json = true;
            } else if (strcmp(v, "text") == 0) {
                json = false;
            } else {
                pc_cli_error("unknown --format '%s' (text, json)", v);
                status = PC_EXIT_USAGE;
                goto done;
            }
        } else if (strncmp(a, "--max-line-kb", 13) == 0 && (a[13] == '=' || a[13] == 0)) {
            v = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : "");
            if (!parse_count(v, 4, 1 << 20, &max_line_kb)) {
                pc_cli_error("--max-line-kb must be an integer in [4, 1048576], got '%s'", v);
                status = PC_EXIT_USAGE;
                goto done;
            }
        } else if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                pc_cli_error("option '-o' needs a FILE");
                status = PC_EXIT_USAGE;
                goto done;
            }
            out_path = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            pc_cli_error("unknown option '%s' (see 'poolcheck logs --help')", a);
            status = PC_EXIT_USAGE;
            goto done;
        } else {
            PC_VEC_PUSH(paths, a);
        }
    }
    if (!paths.count) {
        pc_cli_error("no log files or directories (see 'poolcheck logs --help')");
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (kernel_name && !kernel) {
        pc_cli_error("--kernel-name needs --kernel FILE");
        status = PC_EXIT_USAGE;
        goto done;
    }

    int64_t pred[3] = {-1, -1, -1};
    if (kernel && !kernel_prediction(&c, kernel, kernel_name, pred)) {
        status = PC_EXIT_USAGE;
        goto done;
    }

    pc_log_opts lo = {.buffer_bytes = (size_t)max_line_kb * 1024};
    set = pc_log_new(&lo);
    for (size_t i = 0; i < paths.count; i++) {
        const char *err = NULL;
        if (pc_log_add_path(set, paths.items[i], &err) != 0) {
            pc_cli_error("%s", err ? err : "cannot read the logs");
            status = PC_EXIT_USAGE; /* unreadable input; what could be read is still reported */
        }
    }
    pc_log_finish(set);
    pc_log_check chk;
    pc_log_check_against(set, kernel ? pred : NULL, &chk);
    if (chk.under && status == PC_EXIT_OK)
        status = PC_EXIT_FINDINGS;

    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        pc_cli_error("cannot write '%s': %s", out_path, strerror(errno));
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (json)
        pc_log_write_json(out, set, &chk);
    else
        pc_log_write_text(out, set, &chk);
    if (out != stdout) {
        if (fclose(out) != 0)
            status = PC_EXIT_USAGE;
    } else if (fflush(stdout) != 0) {
        status = PC_EXIT_USAGE;
    }

done:
    pc_log_free(set);
    PC_VEC_FREE(paths);
    pc_cli_common_free(&c);
    return status;
}
