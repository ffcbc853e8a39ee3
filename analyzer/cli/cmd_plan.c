/* cmd_plan.c - `poolcheck plan FILE --budget-kb N`: the depths to use under a workspace memory
 * limit (docs/model.md 7; scenario 2 of the seed article), optionally starting from a run's logs.
 * The analysis computes each plan (pc_an_plan, pc_an_plan_ex); the report module writes it
 * (pc_rep_plan_*, report/plan.c); this file reads the options and says what went wrong. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/logs.h"

static const char plan_help[] =
    "usage: poolcheck plan FILE --budget-kb N [options]\n"
    "The stitch_function_num_per_pool depths to use when the workspace may take at most N KB:\n"
    "start from the suggested depths; when they do not fit, lower the pool whose step frees the\n"
    "most bytes per lost instance (root_inner first on a tie; never below 1 for a needed pool);\n"
    "say what is lost against the predicted depths, or how much room is left.\n\n"
    "Options:\n"
    "  --budget-kb N             the workspace limit in KB (what max_workspace_kb would be)\n"
    "  --kernel-name NAME        plan for this kernel of FILE only\n"
    "  --logs PATH               start from the depths a run observed and price them with the\n"
    "                            logged rawPerParallelBytes (repeatable; files or directories)\n"
    "  --format=text|json        output format (default text)\n"
    "  --emit-config=json|python|cpp  print the planned configuration instead\n"
    "  -o FILE                   write the output to FILE\n"
    "  --report=FILE.html        also write the HTML report of FILE's analysis with each planned\n"
    "                            kernel's plan depths, their workspace bytes and the budget\n\n";

/* `--opt=value` / `--opt value` (pc_cli_opt_value); NULL when argv[*i] is another option; *bad,
 * after the usage error, when it lacks a value. */
static const char *value_of(int argc, char **argv, int *i, const char *name, bool *bad)
{
    bool missing = false;
    const char *v = pc_cli_opt_value(argc, argv, i, name, &missing);
    if (missing) {
        pc_cli_error("option '%s' needs a value", name);
        *bad = true;
    }
    return v;
}

typedef PC_VEC(const char *) path_vec;
typedef PC_VEC(pc_rep_plan) plan_vec;

/* What `plan` was asked: its own options (the common ones go to the pc_cli_common). */
typedef struct plan_args {
    path_vec log_paths;
    const char *file, *kernel_name, *out_path, *emit, *report;
    bool json;
    int64_t budget_kb;
} plan_args;

/* The command line, into *c and *pa.  False when the command ends here, --help or a usage error,
 * with *status its exit status. */
static bool parse_plan_args(pc_cli_common *c, int argc, char **argv, plan_args *pa, int *status)
{
    bool bad = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = pc_cli_common_option(c, argc, argv, &i);
        if (r < 0) {
            *status = PC_EXIT_USAGE;
            return false;
        }
        if (r > 0)
            continue;
        const char *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s%s", plan_help, pc_cli_common_help);
            return false;
        } else if ((v = value_of(argc, argv, &i, "--budget-kb", &bad))) {
            char *end;
            errno = 0;
            long long n = strtoll(v, &end, 10);
            if (errno || end == v || *end || n <= 0 || n > 2147483647LL) {
                pc_cli_error("--budget-kb must be an integer in [1, 2147483647] (KB), got '%s'", v);
                *status = PC_EXIT_USAGE;
                return false;
            }
            pa->budget_kb = n;
        } else if ((v = value_of(argc, argv, &i, "--kernel-name", &bad))) {
            pa->kernel_name = v;
        } else if ((v = value_of(argc, argv, &i, "--logs", &bad))) {
            PC_VEC_PUSH(pa->log_paths, v);
        } else if ((v = value_of(argc, argv, &i, "--format", &bad))) {
            int f = pc_cli_choice("--format", v, pc_cli_text_json_choices);
            if (f < 0) {
                *status = PC_EXIT_USAGE;
                return false;
            }
            pa->json = f == 1;
        } else if ((v = value_of(argc, argv, &i, "--report", &bad))) {
            if (!*v) {
                pc_cli_error("option '--report' needs a FILE (--report=FILE.html)");
                *status = PC_EXIT_USAGE;
                return false;
            }
            pa->report = v;
        } else if ((v = value_of(argc, argv, &i, "--emit-config", &bad))) {
            if (pc_cli_choice("--emit-config", v, pc_cli_emit_config_choices) < 0) {
                *status = PC_EXIT_USAGE;
                return false;
            }
            pa->emit = v;
        } else if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                pc_cli_error("option '-o' needs a FILE");
                *status = PC_EXIT_USAGE;
                return false;
            }
            pa->out_path = argv[++i];
        } else if (bad) {
            *status = PC_EXIT_USAGE;
            return false;
        } else if (a[0] == '-' && a[1]) {
            pc_cli_unknown_option("plan", a, plan_help, pc_cli_common_help);
            *status = PC_EXIT_USAGE;
            return false;
        } else if (pa->file) {
            pc_cli_error("'poolcheck plan' takes one FILE ('%s' and '%s' given)", pa->file, a);
            *status = PC_EXIT_USAGE;
            return false;
        } else {
            pa->file = a;
        }
    }
    return true;
}

/* --logs: every path read into logs, with a note when they give nothing to plan from.  False
 * after the error of a path that cannot be read. */
static bool read_plan_logs(pc_log_set *logs, path_vec log_paths)
{
    for (size_t i = 0; i < log_paths.count; i++) {
        char *err = NULL;
        if (!pc_log_add_path(logs, log_paths.items[i], &err)) {
            pc_cli_error("%s", err);
            pc_mem_free(err);
            return false;
        }
    }
    pc_log_finish(logs);
    if (logs->stats.workspace_lines == 0)
        fprintf(stderr, "poolcheck: note: --logs: no [Workspace Runtime ...] lines (INFO "
                        "logging was off: export ASCEND_GLOBAL_LOG_LEVEL=1 "
                        "ASCEND_PROCESS_LOG_PATH=<dir>); planning from the analysis\n");
    if (logs->cut_short)
        fprintf(stderr, "poolcheck: note: --logs: the run logged Alloc Failures (parallelism "
                        "cut by memory): its observed depths are what its memory allowed\n");
    return true;
}

/* The plan of every kernel of fr (the one --kernel-name names) under the budget, into items; a
 * kernel whose bytes depend on unbound symbols has none (exit 1, after the error), nor is one that
 * does not fit left unsaid (PC010, exit 1). */
static void plan_kernels(const pc_cli_common *c, const pc_file_result *fr, const plan_args *pa,
                         const pc_log_set *logs, plan_vec *items, int *status)
{
    const char *file = pa->file, *kernel_name = pa->kernel_name;
    int64_t budget_kb = pa->budget_kb;
    int64_t budget = budget_kb * 1024;
    for (int k = 0; k < fr->model->nkernels; k++) {
        if (kernel_name && strcmp(fr->model->kernels[k].name, kernel_name) != 0)
            continue;
        const pc_result *r = fr->results[k];
        pc_rep_plan it;
        memset(&it, 0, sizeof it);
        it.kernel = &fr->model->kernels[k];
        int64_t start[3];
        const int64_t *startp = NULL;
        if (logs && logs->stats.workspace_lines && pc_log_plan_costs(logs, r, &it.costs)) {
            /* Scenario 2: what the run observed, with the suggested assemble headroom. */
            for (int i = 0; i < 3; i++)
                start[i] = logs->observed[i] >= 0 ? logs->observed[i] : r->suggested[i];
            if (r->needed[PC_POOL_ASSEMBLE] && logs->observed[PC_POOL_ASSEMBLE] >= 0)
                start[PC_POOL_ASSEMBLE] += c->assemble_headroom;
            startp = start;
            it.from_logs = true;
            pc_an_plan_ex(r, &it.costs, budget, startp, &it.plan);
        } else {
            if (logs && logs->stats.workspace_lines)
                fprintf(stderr, "poolcheck: note: --logs: no rawPerParallelBytes in the logs "
                                "(no Recommendation line); planning from the analysis\n");
            pc_an_plan_costs(r, &it.costs);
            pc_an_plan(r, budget, NULL, &it.plan);
        }
        if (it.plan.bytes_unknown) {
            pc_sb names = {0};
            for (int u = 0; u < r->nunknowns; u++)
                pc_sb_printf(&names, "%s--bind %s=VALUE", u ? ", " : "", r->unknowns[u]);
            char *list = pc_sb_take(&names);
            pc_cli_error("kernel '%s': the workspace bytes depend on unbound symbols; bind them (%s)",
                         it.kernel->name, list[0] ? list : "see 'poolcheck check'");
            pc_mem_free(list);
            *status = PC_EXIT_FINDINGS;
            continue;
        }
        if (!it.plan.fits) {
            /* PC010's words: the upstream [workspaceSize] message names the same minimum. */
            pc_sb req = {0};
            pc_sb_printf(&req, "[%lld, %lld, %lld]", (long long)it.plan.depths[0],
                         (long long)it.plan.depths[1], (long long)it.plan.depths[2]);
            char *rq = pc_sb_take(&req);
            fprintf(stderr,
                    "%s:%u: error: kernel '%s': budget %lldKB is below the minimum runnable "
                    "workspace=%lldKB (%lld bytes at the required depths %s); the smallest budget "
                    "that runs is --budget-kb %lld [PC010 workspace-budget-too-small]\n",
                    it.kernel->loc.file ? it.kernel->loc.file : file, it.kernel->loc.line,
                    it.kernel->name, (long long)budget_kb, (long long)it.plan.min_budget_kb,
                    (long long)it.plan.min_bytes, rq, (long long)it.plan.min_budget_kb);
            pc_mem_free(rq);
            if (*status == PC_EXIT_OK)
                *status = PC_EXIT_FINDINGS;
        }
        PC_VEC_PUSH(*items, it);
    }
}

int pc_cmd_plan(int argc, char **argv)
{
    pc_cli_common c;
    pc_cli_common_init(&c);
    plan_args pa = {.budget_kb = -1};
    plan_vec items = {0};
    int status = PC_EXIT_OK;
    pc_log_set *logs = NULL;
    pc_frontend *fe = NULL;
    pc_file_result *fr = NULL;
    FILE *out = stdout;
    const char *file = NULL, *out_path = NULL;

    if (!parse_plan_args(&c, argc, argv, &pa, &status))
        goto done;
    file = pa.file;
    out_path = pa.out_path;
    if (!file || pa.budget_kb < 0) {
        pc_cli_error("usage: poolcheck plan FILE --budget-kb N (see 'poolcheck plan --help')");
        status = PC_EXIT_USAGE;
        goto done;
    }

    if (pa.log_paths.count) {
        logs = pc_log_new(NULL);
        if (!read_plan_logs(logs, pa.log_paths)) {
            status = PC_EXIT_USAGE;
            goto done;
        }
    }

    fe = pc_frontend_new();
    fr = pc_cli_analyze(&c, fe, file);
    if (!fr) {
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (fr->model->fatal) {
        for (int i = 0; i < fr->model->nmessages; i++)
            if (fr->model->messages[i].kind == PC_MSG_FATAL)
                fprintf(stderr, "%s:%u:%u: error: %s\n", file, fr->model->messages[i].loc.line,
                        fr->model->messages[i].loc.col, fr->model->messages[i].text);
        status = PC_EXIT_USAGE;
        goto done;
    }

    plan_kernels(&c, fr, &pa, logs, &items, &status);
    if (pa.kernel_name && fr->model->nkernels && !items.count && status == PC_EXIT_OK) {
        pc_cli_no_such_kernel(fr->model, pa.kernel_name, file);
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (!fr->model->nkernels) {
        pc_cli_error("no kernel in '%s'", file);
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (pa.emit && items.count > 1) {
        pc_cli_error("'%s' has %zu kernels: pick the one to emit with --kernel-name", file,
                     items.count);
        status = PC_EXIT_USAGE;
        goto done;
    }

    if (pc_cli_output_is_input("-o", out_path, argc, argv, NULL, 0) ||
        pc_cli_output_is_input("--report", pa.report, argc, argv, NULL, 0)) {
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (out_path && !(out = fopen(out_path, "w"))) {
        pc_cli_error("cannot write '%s': %s", out_path, strerror(errno));
        out = stdout;
        status = PC_EXIT_USAGE;
        goto done;
    }
    if (pa.emit) {
        if (items.count == 1 && items.items[0].plan.fits)
            pc_rep_plan_emit(out, &items.items[0], pa.emit, pa.budget_kb);
    } else if (pa.json) {
        pc_rep_plan_json(out, items.items, items.count, pa.budget_kb);
    } else {
        for (size_t i = 0; i < items.count; i++)
            pc_rep_plan_text(out, &items.items[i], pa.budget_kb, logs);
    }
    if (pa.report && pc_rep_plan_html_write(pa.report, fr, items.items, items.count, pa.budget_kb * 1024) != 0) {
        pc_cli_error("cannot write '%s': %s", pa.report, strerror(errno));
        status = PC_EXIT_USAGE;
    }

done:
    if (!pc_cli_close_output(out, out != stdout ? out_path : "<stdout>") && status == PC_EXIT_OK)
        status = PC_EXIT_USAGE;
    PC_VEC_FREE(items);
    if (fr)
        pc_file_result_free(fr);
    if (fe)
        pc_frontend_free(fe);
    pc_log_free(logs);
    PC_VEC_FREE(pa.log_paths);
    pc_cli_common_free(&c);
    return status;
}
