/* plan.c - what `poolcheck plan` writes (poolcheck/report.h, "budget plans"): the text and JSON
 * forms of pc_rep_plan, the planned configuration as JSON / Python / C++, and the HTML report with
 * the plans drawn in.  The plans themselves are computed by the analysis (pc_an_plan, pc_an_plan_ex)
 * and the command line (analyzer/cli/cmd_plan.c) only parses options and calls these. */
#include "report_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <string.h>

#include "poolcheck/logs.h"

static void triple(pc_sb *b, const int64_t v[3])
{
    pc_sb_printf(b, "[%lld, %lld, %lld]", (long long)v[0], (long long)v[1], (long long)v[2]);
}

static cJSON *triple_json(const int64_t v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

void pc_rep_plan_text(FILE *out, const pc_rep_plan *it, int64_t budget_kb, const pc_log_set *logs)
{
    const pc_plan *p = &it->plan;
    pc_sb b = {0};
    pc_sb_printf(&b, "%s (%s:%u): budget %lld KB = %lld bytes\n", it->kernel->name,
                 it->kernel->loc.file ? it->kernel->loc.file : "?", it->kernel->loc.line,
                 (long long)budget_kb, (long long)p->budget_bytes);
    pc_sb_append(&b, "  start      ");
    triple(&b, p->start);
    pc_sb_printf(&b, "  %s\n", it->from_logs ? "(observed in the logs, assemble headroom added)"
                                             : "(suggested: predicted + assemble headroom)");
    if (it->from_logs) {
        pc_sb_printf(&b, "  priced with the logged rawPerParallelBytes {rootInner=%lld, "
                         "innerTemporal=%lld, exclusive=%lld}, %lld bytes of boundary slots, "
                         "parallelism %lld\n",
                     (long long)it->costs.step[0], (long long)it->costs.step[1],
                     (long long)it->costs.step[2], (long long)it->costs.fixed,
                     (long long)it->costs.parallelism);
        /* The run's own nextDepthTotalBytes (at its actualDepths) against these prices: the
         * same numbers unless the logs' boundary slots or slot size differ from the kernel's. */
        for (size_t i = 0; logs && i < logs->nruns; i++) {
            const pc_log_run *run = &logs->runs[i];
            if (run->next_depth_bytes[0] < 0 || run->actual_depths[0] < 0 ||
                run->actual_depths[1] < 0 || run->actual_depths[2] < 0)
                continue;
            /* each depth is raised by one below: a logged INT64_MAX would overflow */
            if (run->actual_depths[0] == INT64_MAX || run->actual_depths[1] == INT64_MAX ||
                run->actual_depths[2] == INT64_MAX)
                continue;
            int64_t priced[3];
            int64_t base = pc_plan_costs_bytes(&it->costs, run->actual_depths);
            for (int k = 0; k < 3; k++) {
                int64_t d[3] = {run->actual_depths[0], run->actual_depths[1], run->actual_depths[2]};
                d[k]++;
                priced[k] = pc_plan_costs_bytes(&it->costs, d) - base;
            }
            bool same = true;
            for (int k = 0; k < 3; k++)
                if (run->next_depth_bytes[k] >= 0 && run->next_depth_bytes[k] != priced[k])
                    same = false;
            pc_sb_printf(&b, "  the run at actualDepths [%lld, %lld, %lld] logged nextDepthTotalBytes "
                             "{%lld, %lld, %lld}; %s {%lld, %lld, %lld}\n",
                         (long long)run->actual_depths[0], (long long)run->actual_depths[1],
                         (long long)run->actual_depths[2], (long long)run->next_depth_bytes[0],
                         (long long)run->next_depth_bytes[1], (long long)run->next_depth_bytes[2],
                         same ? "these prices agree:" : "warning: these prices give",
                         (long long)priced[0], (long long)priced[1], (long long)priced[2]);
            break;
        }
    }
    if (!p->fits) {
        pc_sb_append(&b, "  required   ");
        triple(&b, p->depths);
        pc_sb_printf(&b, "  %lld bytes: does not fit\n", (long long)p->min_bytes);
        fputs(b.data, out);
        pc_sb_free(&b);
        return;
    }
    pc_sb_append(&b, "  plan       ");
    triple(&b, p->depths);
    pc_sb_printf(&b, "  %lld bytes, %lld bytes spare\n", (long long)p->bytes,
                 (long long)p->spare_bytes);
    bool lost = false;
    for (int i = 0; i < 3; i++) {
        if (!p->lost[i])
            continue;
        if (!lost)
            pc_sb_append(&b, "  lost against the predicted depths ");
        if (!lost) {
            triple(&b, p->predicted);
            pc_sb_append(&b, ":\n");
        }
        lost = true;
        long long n = (long long)p->lost[i];
        if (i == PC_POOL_ROOT_INNER)
            pc_sb_printf(&b, "    root_inner %lld -> %lld: %lld instance%s per DeviceTask "
                             "serialise (they wait for root_inner memory of earlier ones)\n",
                         (long long)p->predicted[i], (long long)p->depths[i], n, n == 1 ? "" : "s");
        else if (i == PC_POOL_EXCLUSIVE)
            pc_sb_printf(&b, "    exclusive_outcast %lld -> %lld: DeviceTasks are submitted early, "
                             "%lld fewer instance%s' exclusive outcasts per task\n",
                         (long long)p->predicted[i], (long long)p->depths[i], n, n == 1 ? "" : "s");
        else
            pc_sb_printf(&b, "    assemble_outcast %lld -> %lld: DeviceTasks are submitted early, "
                             "%lld fewer assemble allocation%s alive at once\n",
                         (long long)p->predicted[i], (long long)p->depths[i], n, n == 1 ? "" : "s");
    }
    if (!lost)
        pc_sb_append(&b, "  nothing lost against the predicted depths\n");
    if (p->headroom_dropped)
        pc_sb_append(&b, "  warning: the plan has no assemble headroom: newer runtimes may stop with "
                         "`Root cannot fit in an empty DeviceTask` (PC011)\n");
    if (p->extra_root_steps > 0)
        pc_sb_printf(&b, "  room for %lld more root_inner step%s (root_inner up to %lld) within "
                         "the budget\n",
                     (long long)p->extra_root_steps, p->extra_root_steps == 1 ? "" : "s",
                     (long long)(p->depths[0] + p->extra_root_steps));
    fputs(b.data, out);
    pc_sb_free(&b);
}

static cJSON *plan_json(const pc_rep_plan *it)
{
    const pc_plan *p = &it->plan;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", it->kernel->name);
    if (it->kernel->loc.file)
        cJSON_AddStringToObject(o, "file", it->kernel->loc.file);
    else
        cJSON_AddNullToObject(o, "file");
    cJSON_AddNumberToObject(o, "line", it->kernel->loc.line);
    cJSON_AddBoolToObject(o, "fits", p->fits);
    cJSON_AddItemToObject(o, "start", triple_json(p->start));
    cJSON_AddItemToObject(o, "depths", triple_json(p->depths));
    cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
    cJSON_AddNumberToObject(o, "budget_bytes", (double)p->budget_bytes);
    cJSON_AddNumberToObject(o, "min_bytes", (double)p->min_bytes);
    cJSON_AddNumberToObject(o, "min_budget_kb", (double)p->min_budget_kb);
    cJSON_AddItemToObject(o, "predicted", triple_json(p->predicted));
    cJSON_AddItemToObject(o, "lost", triple_json(p->lost));
    cJSON_AddNumberToObject(o, "spare_bytes", (double)p->spare_bytes);
    cJSON_AddNumberToObject(o, "extra_root_steps", (double)p->extra_root_steps);
    cJSON_AddBoolToObject(o, "headroom_dropped", p->headroom_dropped);
    cJSON_AddStringToObject(o, "priced_with", it->from_logs ? "logs" : "analysis");
    cJSON *c = cJSON_AddObjectToObject(o, "costs");
    cJSON_AddItemToObject(c, "step_bytes", triple_json(it->costs.step));
    cJSON_AddNumberToObject(c, "fixed_bytes", (double)it->costs.fixed);
    cJSON_AddNumberToObject(c, "parallelism", (double)it->costs.parallelism);
    return o;
}

void pc_rep_plan_json(FILE *out, const pc_rep_plan *plans, size_t n, int64_t budget_kb)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddNumberToObject(root, "budget_kb", (double)budget_kb);
    cJSON *arr = cJSON_AddArrayToObject(root, "plans");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, plan_json(&plans[i]));
    pc_json_repair_utf8(root); /* a path need not be UTF-8; JSON text must be */
    char *text = cJSON_Print(root);
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    cJSON_Delete(root);
}

void pc_rep_plan_emit(FILE *out, const pc_rep_plan *it, const char *kind, int64_t budget_kb)
{
    const int64_t *d = it->plan.depths;
    if (strcmp(kind, "json") == 0) {
        fprintf(out, "{\"runtime\": {\"stitch_function_num_per_pool\": [%lld, %lld, %lld]}}\n",
                (long long)d[0], (long long)d[1], (long long)d[2]);
        return;
    }
    const char *cmt = strcmp(kind, "python") == 0 ? "#" : "//";
    fprintf(out, "%s poolcheck plan for %s: workspace %lld bytes within a budget of %lld KB\n", cmt,
            it->kernel->name, (long long)it->plan.bytes, (long long)budget_kb);
    if (strcmp(kind, "python") == 0)
        fprintf(out, "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[%lld, "
                     "%lld, %lld])\n",
                (long long)d[0], (long long)d[1], (long long)d[2]);
    else
        fprintf(out, "config::SetRuntimeOption(\"stitch_function_num_per_pool\", "
                     "std::vector<int64_t>{%lld, %lld, %lld});\n",
                (long long)d[0], (long long)d[1], (long long)d[2]);
}

/* One extra entry per planned kernel (chained through next; the report matches them by kernel
 * name).  A plan that does not fit is drawn too: its depths are the required ones and its bytes the
 * minimum, against the budget line. */
int pc_rep_plan_html_write(const char *path, pc_file_result *fr, const pc_rep_plan *items, size_t n,
                           int64_t budget_bytes)
{
    pc_rep_html_extra *extra = n ? pc_mem_calloc(n, sizeof *extra) : NULL;
    for (size_t i = 0; i < n; i++) {
        extra[i].kernel = items[i].kernel->name;
        extra[i].plan_depths = items[i].plan.depths;
        extra[i].plan_bytes = items[i].plan.bytes;
        extra[i].budget_bytes = budget_bytes;
        extra[i].next = i + 1 < n ? &extra[i + 1] : NULL;
    }
    int rc = pc_rep_html_write(path, &fr, 1, extra);
    int saved = errno;
    pc_mem_free(extra);
    errno = saved;
    return rc;
}
