/* cmd_logs.c - `poolcheck logs [options] PATH...`: read the runtime's Workspace INFO logs and,
 * with --kernel, check the prediction against what the run observed (docs/model.md 11) and, with
 * --report, draw the runs on the axes of the kernel's HTML report. */
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
    "  --report=FILE.html        with --kernel: also write the HTML report of FILE's analysis\n"
    "                            with every run drawn on the same axes (observed depths, each\n"
    "                            DeviceTask's stitchCount and recommendedDepths)\n"
    "  --format=text|json        output format (default text)\n"
    "  -o FILE                   write the output to FILE\n"
    "  --max-line-kb N           longest line read (default 1024); longer lines are skipped and\n"
    "                            counted\n\n"
    "Exit status: 0 the logs were read (with --kernel: every pool compared matched or was\n"
    "over-predicted); 1 with --kernel, a pool is under-predicted; 2 usage error, or a path that\n"
    "cannot be read; 3 with --kernel, nothing was compared: no pool has both a predicted and an\n"
    "observed depth (logs without Workspace lines, or a prediction that depends on unbound\n"
    "symbols), so the run is no evidence either way.\n\n";

/* `logs --kernel` that compared no pool: distinct from 0 so that a CI gate cannot pass on logs
 * that show nothing (an empty directory, INFO logging off), and from 1, which is a finding. */
enum { EXIT_NOTHING_COMPARED = 3 };

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
 * Returns the analysis (the caller frees it, after the HTML report that draws it), or NULL
 * after printing an error (exit 2). */
static pc_file_result *kernel_prediction(pc_cli_common *c, pc_frontend *fe, const char *file,
                                         const char *name, int64_t pred[3], pc_rep_html_file_inputs *in)
{
    pc_file_result *fr = pc_cli_analyze_inputs(c, fe, file, in);
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
        if (name)
            pc_cli_no_such_kernel(fr->model, name, file);
        else
            pc_cli_error("no kernel in '%s'", file);
        ok = false;
    }
    if (!ok) {
        pc_file_result_free(fr);
        return NULL;
    }
    return fr;
}

/* `--report`: the kernel file's HTML report with one pc_rep_html_run per log run (the report
 * module takes plain numbers; this is where the log reader's runs become them).  Returns 0, or -1
 * with errno set by pc_rep_html_write. */
static int write_report(const char *path, pc_file_result *fr, const char *kernel_name,
                        const pc_log_set *set, const pc_rep_html_inputs *in)
{
    size_t n = set->nruns;
    pc_rep_html_run *runs = pc_mem_calloc(n ? n : 1, sizeof *runs);
    char **labels = pc_mem_calloc(n ? n : 1, sizeof *labels);
    pc_rep_html_task_obs **tasks = pc_mem_calloc(n ? n : 1, sizeof *tasks);
    for (size_t i = 0; i < n; i++) {
        const pc_log_run *lr = &set->runs[i];
        pc_sb label = {0};
        if (lr->pid >= 0)
            pc_sb_printf(&label, "%s, pid %lld", lr->source, (long long)lr->pid);
        else
            pc_sb_append(&label, lr->source);
        labels[i] = pc_sb_take(&label);
        if (lr->ntasks) {
            tasks[i] = pc_mem_alloc(lr->ntasks * sizeof *tasks[i]);
            for (size_t t = 0; t < lr->ntasks; t++) {
                tasks[i][t].stitch_count = lr->tasks[t].stitch_count;
                memcpy(tasks[i][t].depths, lr->tasks[t].recommended, sizeof tasks[i][t].depths);
            }
        }
        if (lr->tasks_dropped > 0)
            fprintf(stderr, "poolcheck: note: %s: the report draws the first %zu of the run's %lld "
                            "DeviceTasks (the rest are counted, not kept)\n",
                    labels[i], lr->ntasks, (long long)lr->device_tasks);
        runs[i] = (pc_rep_html_run){
            .label = labels[i],
            .observed = {lr->observed[0], lr->observed[1], lr->observed[2]},
            .tasks = tasks[i],
            .ntasks = lr->ntasks,
            .cut_short = lr->nfailures > 0,
        };
    }
    pc_rep_html_extra extra = {.kernel = kernel_name, .runs = runs, .nruns = n,
                               .plan_bytes = -1};
    int rc = pc_rep_html_write_inputs(path, &fr, 1, &extra, in);
    int saved = errno;
    for (size_t i = 0; i < n; i++) {
        pc_mem_free(labels[i]);
        pc_mem_free(tasks[i]);
    }
    pc_mem_free(labels);
    pc_mem_free(tasks);
    pc_mem_free(runs);
    errno = saved;
    return rc;
}

/* Is argv[*i] option `name` (--name=V, or --name V)?  *v is its value, NULL when the option is the
 * last word and has none (the `--opt=v | --opt v` rule of pc_cli_opt_value). */
static bool own_option(int argc, char **argv, int *i, const char *name, const char **v)
{
    bool missing = false;
    *v = pc_cli_opt_value(argc, argv, i, name, &missing);
    return *v || missing;
}

typedef PC_VEC(const char *) path_vec;

/* What `logs` was asked: its own options (the common ones go to the pc_cli_common). */
typedef struct logs_args {
    path_vec paths;
    const char *kernel, *kernel_name, *out_path, *report;
    bool json;
    int64_t max_line_kb;
} logs_args;

/* The command line, into *c and *la.  False when the command ends here, --help or a usage error,
 * with *status its exit status. */
static bool parse_logs_args(pc_cli_common *c, int argc, char **argv, logs_args *la, int *status)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-") == 0) {
            PC_VEC_PUSH(la->paths, a);
            continue;
        }
        int r = pc_cli_common_option(c, argc, argv, &i);
        if (r < 0) {
            *status = PC_EXIT_USAGE;
            return false;
        }
        if (r > 0)
            continue;
        const char *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s%s", logs_help, pc_cli_common_help);
            return false;
        } else if (own_option(argc, argv, &i, "--kernel-name", &v)) {
            if (!v) {
                pc_cli_error("option '--kernel-name' needs a value");
                *status = PC_EXIT_USAGE;
                return false;
            }
            la->kernel_name = v;
        } else if (own_option(argc, argv, &i, "--kernel", &v)) {
            if (!v) {
                pc_cli_error("option '--kernel' needs a FILE");
                *status = PC_EXIT_USAGE;
                return false;
            }
            la->kernel = v;
        } else if (own_option(argc, argv, &i, "--report", &v)) {
            if (!v || !*v) {
                pc_cli_error("option '--report' needs a FILE (--report=FILE.html)");
                *status = PC_EXIT_USAGE;
                return false;
            }
            la->report = v;
        } else if (own_option(argc, argv, &i, "--format", &v)) {
            int f = pc_cli_choice("--format", v ? v : "", pc_cli_text_json_choices);
            if (f < 0) {
                *status = PC_EXIT_USAGE;
                return false;
            }
            la->json = f == 1;
        } else if (own_option(argc, argv, &i, "--max-line-kb", &v)) {
            if (!v)
                v = "";
            if (!parse_count(v, 4, 1 << 20, &la->max_line_kb)) {
                pc_cli_error("--max-line-kb must be an integer in [4, 1048576], got '%s'", v);
                *status = PC_EXIT_USAGE;
                return false;
            }
        } else if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                pc_cli_error("option '-o' needs a FILE");
                *status = PC_EXIT_USAGE;
                return false;
            }
            la->out_path = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            pc_cli_unknown_option("logs", a, logs_help, pc_cli_common_help);
            *status = PC_EXIT_USAGE;
            return false;
        } else {
            PC_VEC_PUSH(la->paths, a);
        }
    }
    return true;
}

/* The exit status the comparison gives, from status (what reading the logs gave): 1 when a pool
 * is under-predicted; with --kernel and no pool compared, 3 after saying why. */
static int comparison_status(const pc_log_set *set, const pc_log_check *chk, bool kernel, int status)
{
    if (chk->under && status == PC_EXIT_OK)
        status = PC_EXIT_FINDINGS;
    bool compared = false;
    for (int p = 0; p < 3; p++)
        compared |= chk->verdict[p] != PC_VERDICT_UNKNOWN;
    if (kernel && !compared && status == PC_EXIT_OK) {
        bool observed = set->observed[0] >= 0 || set->observed[1] >= 0 || set->observed[2] >= 0;
        pc_cli_error("nothing compared: %s (exit status %d)",
                     observed ? "the prediction is unknown for every pool the logs observed; bind the "
                                "symbols it depends on"
                              : "the logs hold no observed depth for any pool",
                     EXIT_NOTHING_COMPARED);
        status = EXIT_NOTHING_COMPARED;
    }
    return status;
}

int pc_cmd_logs(int argc, char **argv)
{
    pc_cli_common c;
    pc_cli_common_init(&c);
    logs_args la = {.max_line_kb = 1024};
    int status = PC_EXIT_OK;
    pc_log_set *set = NULL;
    pc_frontend *fe = NULL;
    pc_file_result *kernel_fr = NULL;
    pc_rep_html_file_inputs kernel_in = {0}; /* --report: what the kernel file was given */

    if (!parse_logs_args(&c, argc, argv, &la, &status))
        goto done;
    path_vec paths = la.paths;
    const char *kernel = la.kernel, *kernel_name = la.kernel_name, *out_path = la.out_path, *report = la.report;
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

    if (pc_cli_output_is_input("-o", out_path, argc, argv, NULL, 0) ||
        pc_cli_output_is_input("--report", report, argc, argv, NULL, 0)) {
        status = PC_EXIT_USAGE;
        goto done;
    }

    if (report && !kernel) {
        pc_cli_error("--report needs --kernel FILE: the report draws the runs on the axes of that "
                     "file's analysis");
        status = PC_EXIT_USAGE;
        goto done;
    }

    int64_t pred[3] = {-1, -1, -1};
    if (kernel) {
        fe = pc_frontend_new();
        kernel_fr = kernel_prediction(&c, fe, kernel, kernel_name, pred, &kernel_in);
        if (!kernel_fr) {
            status = PC_EXIT_USAGE;
            goto done;
        }
    }

    pc_log_opts lo = {.buffer_bytes = (size_t)la.max_line_kb * 1024};
    set = pc_log_new(&lo);
    size_t unreadable = 0;
    for (size_t i = 0; i < paths.count; i++) {
        char *err = NULL;
        if (!pc_log_add_path(set, paths.items[i], &err)) {
            pc_cli_error("%s", err);
            pc_mem_free(err);
            status = PC_EXIT_USAGE; /* unreadable input; what could be read is still reported */
            unreadable++;
        }
    }
    pc_log_finish(set);
    /* Nothing could be read at all (a mistyped path): the error is the whole answer.  A table of
     * unknowns and the hint to turn on INFO logging would blame the run for the user's typo. */
    if (unreadable && set->nruns == 0)
        goto done;
    pc_log_check chk;
    pc_log_check_against(set, kernel ? pred : NULL, &chk);
    status = comparison_status(set, &chk, kernel != NULL, status);

    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        pc_cli_error("cannot write '%s': %s", out_path, strerror(errno));
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (la.json)
        pc_log_write_json(out, set, &chk);
    else
        pc_log_write_text(out, set, &chk);
    if (!pc_cli_close_output(out, out != stdout ? out_path : "<stdout>"))
        status = PC_EXIT_USAGE;
    pc_rep_html_inputs in = {.argv = (const char *const *)argv, .argc = (size_t)argc, .files = &kernel_in,
                             .nfiles = 1, .assemble_headroom = c.assemble_headroom};
    if (report && write_report(report, kernel_fr, kernel_name, set, &in) != 0) {
        pc_cli_error("cannot write '%s': %s", report, strerror(errno));
        status = PC_EXIT_USAGE;
    }

done:
    pc_file_result_free(kernel_fr);
    if (fe)
        pc_frontend_free(fe);
    pc_log_free(set);
    PC_VEC_FREE(la.paths);
    pc_cli_common_free(&c);
    return status;
}
