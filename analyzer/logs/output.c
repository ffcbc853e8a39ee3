/*
 * output.c - what `poolcheck logs` prints: per run, combined, and against a prediction.
 */
#include "logs_int.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char *const POOL_NAMES[3] = {"root_inner", "assemble_outcast", "exclusive_outcast"};

static cJSON *triple_json(const int64_t v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(a, v[i] < 0 ? cJSON_CreateNull() : cJSON_CreateNumber((double)v[i]));
    return a;
}

static cJSON *num_or_null(int64_t v)
{
    return v < 0 ? cJSON_CreateNull() : cJSON_CreateNumber((double)v);
}

static bool any_known(const int64_t v[3])
{
    return v[0] >= 0 || v[1] >= 0 || v[2] >= 0;
}

void *pc_log_json(const pc_log_set *s, const pc_log_check *chk)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON *runs = cJSON_AddArrayToObject(root, "runs");
    for (size_t i = 0; i < s->nruns; i++) {
        const pc_log_run *r = &s->runs[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", r->source);
        cJSON_AddItemToObject(o, "pid", num_or_null(r->pid));
        cJSON_AddItemToObject(o, "recommended", triple_json(r->recommended));
        cJSON_AddItemToObject(o, "observed", triple_json(r->observed));
        cJSON_AddNumberToObject(o, "device_tasks", (double)r->device_tasks);
        cJSON_AddItemToObject(o, "max_stitch_count", num_or_null(r->max_stitch_count));
        cJSON *fails = cJSON_AddArrayToObject(o, "alloc_failures");
        for (size_t k = 0; k < r->nfailures; k++) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "reason", r->failures[k].reason);
            cJSON_AddNumberToObject(f, "line", (double)r->failures[k].line);
            cJSON_AddItemToArray(fails, f);
        }
        cJSON_AddNumberToObject(o, "launches", (double)r->launches);
        cJSON_AddItemToObject(o, "actual_depths", triple_json(r->actual_depths));
        cJSON_AddItemToObject(o, "raw_per_parallel_bytes", triple_json(r->raw_per_parallel));
        cJSON_AddItemToObject(o, "next_depth_total_bytes", triple_json(r->next_depth_bytes));
        cJSON_AddItemToObject(o, "parallelism", num_or_null(r->parallelism));
        cJSON_AddNumberToObject(o, "first_line", (double)r->first_line);
        cJSON_AddItemToArray(runs, o);
    }
    cJSON_AddItemToObject(root, "recommended", triple_json(s->recommended));
    cJSON_AddItemToObject(root, "observed", triple_json(s->observed));
    if (chk && chk->have_prediction) {
        cJSON_AddItemToObject(root, "predicted", triple_json(chk->predicted));
        cJSON *v = cJSON_AddArrayToObject(root, "verdict");
        for (int i = 0; i < 3; i++)
            cJSON_AddItemToArray(v, chk->verdict[i] == PC_VERDICT_UNKNOWN
                                        ? cJSON_CreateNull()
                                        : cJSON_CreateString(pc_log_verdict_name(chk->verdict[i])));
    } else {
        cJSON_AddNullToObject(root, "predicted");
        cJSON_AddNullToObject(root, "verdict");
    }
    cJSON_AddNumberToObject(root, "skipped_lines", (double)s->stats.skipped_lines);
    cJSON_AddBoolToObject(root, "cut_short", s->cut_short);
    cJSON *st = cJSON_AddObjectToObject(root, "stats");
    cJSON_AddNumberToObject(st, "files", (double)s->stats.files);
    cJSON_AddNumberToObject(st, "bytes", (double)s->stats.bytes);
    cJSON_AddNumberToObject(st, "lines", (double)s->stats.lines);
    cJSON_AddNumberToObject(st, "workspace_lines", (double)s->stats.workspace_lines);
    cJSON_AddNumberToObject(st, "workspace_size_lines", (double)s->stats.size_lines);
    cJSON_AddNumberToObject(st, "long_lines", (double)s->stats.long_lines);
    cJSON_AddNumberToObject(st, "binary_lines", (double)s->stats.binary_lines);
    cJSON_AddNumberToObject(st, "malformed_lines", (double)s->stats.malformed_lines);
    cJSON *w = cJSON_AddArrayToObject(root, "warnings");
    for (size_t i = 0; i < s->nwarnings; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", s->warnings[i].source);
        cJSON_AddStringToObject(o, "message", s->warnings[i].text);
        cJSON_AddItemToArray(w, o);
    }
    return root;
}

void pc_log_write_json(FILE *out, const pc_log_set *s, const pc_log_check *chk)
{
    cJSON *root = pc_log_json(s, chk);
    pc_json_repair_utf8(root); /* a log file's name need not be UTF-8; JSON text must be */
    char *text = cJSON_Print(root);
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    cJSON_Delete(root);
}

static void triple_text(FILE *out, const int64_t v[3])
{
    fputc('[', out);
    for (int i = 0; i < 3; i++) {
        if (v[i] < 0)
            fputs("?", out);
        else
            fprintf(out, "%lld", (long long)v[i]);
        if (i < 2)
            fputs(", ", out);
    }
    fputc(']', out);
}

/* A file name with its control characters shown escaped (support.h): a log named with an
 * escape sequence must not drive the terminal. */
static void put_name(FILE *out, const char *name)
{
    char *v = pc_visible(name);
    fputs(v ? v : name, out);
    pc_mem_free(v);
}

static void run_title(FILE *out, const pc_log_run *r)
{
    put_name(out, r->source);
    if (r->pid >= 0)
        fprintf(out, " (pid %lld)", (long long)r->pid);
}

void pc_log_write_text(FILE *out, const pc_log_set *s, const pc_log_check *chk)
{
    for (size_t i = 0; i < s->nruns; i++) {
        const pc_log_run *r = &s->runs[i];
        run_title(out, r);
        fputs(":", out);
        if (r->device_tasks)
            fprintf(out, " %lld DeviceTask%s, largest stitchCount %lld", (long long)r->device_tasks,
                    r->device_tasks == 1 ? "" : "s", (long long)r->max_stitch_count);
        if (r->launches)
            fprintf(out, "%s %lld launch%s", r->device_tasks ? "," : "", (long long)r->launches,
                    r->launches == 1 ? "" : "es");
        if (!r->workspace_lines)
            fputs(" [workspaceSize] lines only", out);
        fputc('\n', out);
        if (any_known(r->recommended)) {
            fputs("  recommended ", out);
            triple_text(out, r->recommended);
            fputs(r->recommended_final ? "  (last Recommendation line)\n"
                                       : "  (maximum over Tuning lines: no Recommendation line)\n",
                  out);
        }
        if (any_known(r->observed)) {
            fputs("  observed    ", out);
            triple_text(out, r->observed);
            fputs("  (peak / unit", out);
            if (any_known(r->units)) {
                static const char *const what[3] = {" B", " slot", " B"};
                fputs(" per depth: ", out);
                for (int k = 0; k < 3; k++) {
                    if (r->units[k] < 0)
                        fprintf(out, "%s ?", POOL_NAMES[k]);
                    else
                        fprintf(out, "%s %lld%s%s", POOL_NAMES[k], (long long)r->units[k], what[k],
                                k == 1 && r->units[k] != 1 ? "s" : "");
                    fputs(k < 2 ? ", " : "", out);
                }
            }
            fputs(")\n", out);
        }
        for (size_t k = 0; k < r->nfailures; k++)
            fprintf(out, "  line %lld: [Workspace Runtime Alloc Failure] reason=%s\n",
                    (long long)r->failures[k].line, r->failures[k].reason);
        if (r->min_workspace_kb >= 0)
            fprintf(out, "  max_workspace_kb was refused: the minimum runnable workspace is %lld KB\n",
                    (long long)r->min_workspace_kb);
    }
    if (s->nruns > 1) {
        fprintf(out, "all %zu runs (element-wise maximum): recommended ", s->nruns);
        triple_text(out, s->recommended);
        fputs(", observed ", out);
        triple_text(out, s->observed);
        fputc('\n', out);
    }
    if (chk && chk->have_prediction) {
        fprintf(out, "\n%-18s %9s %9s  %s\n", "pool", "predicted", "observed", "verdict");
        for (int i = 0; i < 3; i++) {
            char p[24], o[24];
            if (chk->predicted[i] < 0)
                snprintf(p, sizeof p, "?");
            else
                snprintf(p, sizeof p, "%lld", (long long)chk->predicted[i]);
            if (s->observed[i] < 0)
                snprintf(o, sizeof o, "?");
            else
                snprintf(o, sizeof o, "%lld", (long long)s->observed[i]);
            fprintf(out, "%-18s %9s %9s  %s\n", POOL_NAMES[i], p, o,
                    pc_log_verdict_name(chk->verdict[i]));
        }
        if (chk->under)
            fputs("error: the run needed deeper pools than predicted: check that the kernel was "
                  "analysed with the run's shapes (--bind / --shapes) and options (--set)\n",
                  out);
    }
    for (size_t i = 0; i < s->nruns; i++) {
        const pc_log_run *r = &s->runs[i];
        if (!r->nfailures)
            continue;
        fputs("warning: ", out);
        run_title(out, r);
        fprintf(out,
                ": %zu [Workspace Runtime Alloc Failure] line%s (first at line %lld, reason=%s): "
                "parallelism was cut by memory, so this run observed the depths of a shortened "
                "run, not what the kernel needs; rerun without max_workspace_kb (or with larger "
                "depths) before trusting these numbers\n",
                r->nfailures, r->nfailures == 1 ? "" : "s", (long long)r->failures[0].line,
                r->failures[0].reason);
    }
    for (size_t i = 0; i < s->nwarnings; i++)
    {
        fputs("warning: ", out);
        put_name(out, s->warnings[i].source);
        fputs(": ", out);
        put_name(out, s->warnings[i].text);
        fputc('\n', out);
    }
    if (s->stats.workspace_lines == 0)
        fputs("note: no [Workspace Runtime ...] lines in the logs: the runtime's INFO logging was "
              "off (or these are not the run's logs). Run the kernel again with\n"
              "  export ASCEND_GLOBAL_LOG_LEVEL=1\n"
              "  export ASCEND_PROCESS_LOG_PATH=<dir>\n"
              "and give <dir> to poolcheck logs\n",
              out);
    if (s->stats.skipped_lines) {
        fprintf(out,
                "note: %lld line%s skipped (%lld longer than the scan buffer, %lld binary, %lld "
                "Workspace line%s cut short or malformed)",
                (long long)s->stats.skipped_lines, s->stats.skipped_lines == 1 ? "" : "s",
                (long long)s->stats.long_lines, (long long)s->stats.binary_lines,
                (long long)s->stats.malformed_lines, s->stats.malformed_lines == 1 ? "" : "s");
        const struct pc_log_state *st = s->state;
        if (st && st->first_skip_source) {
            char *name = pc_visible(st->first_skip_source);
            fprintf(out, "; the first at %s:%lld (%s)", name ? name : st->first_skip_source,
                    (long long)st->first_skip_line, st->first_skip_why);
            pc_mem_free(name);
        }
        fputc('\n', out);
    }
}
