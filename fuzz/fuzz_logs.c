/*
 * fuzz_logs.c - the runtime log scanner (analyzer/logs): pc_log_add_buffer on arbitrary bytes
 * (plain or gzip), then everything `poolcheck logs` and `poolcheck plan --logs` do with the
 * runs: finish, compare with a prediction, text and JSON output, plan costs.
 *
 * Input layout: byte 0 picks the scan buffer size (small sizes exercise the long-line and
 * carry-over paths) and how many sources the rest is split into; the rest is the log text.
 */
#define _GNU_SOURCE
#include "fuzz_common.h"

#include <cjson/cJSON.h>
#include <stdio.h>

#include "poolcheck/logs.h"

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t ctl = data[0];
    data++;
    size--;
    pc_log_opts opts = {0};
    opts.buffer_bytes = (ctl & 3) == 0 ? 0 : (size_t)4096 << ((ctl & 3) - 1); /* default, 4, 8, 16 KiB */
    pc_log_set *s = pc_log_new(&opts);
    /* 1 or 2 sources: two runs combine element-wise, and a split lands anywhere in a line */
    size_t cut = (ctl & 4) ? size / 2 : size;
    char *err = NULL;
    pc_log_add_buffer(s, data, cut, "fuzz-a.log", &err);
    pc_mem_free(err);
    err = NULL;
    if (cut < size)
        pc_log_add_buffer(s, data + cut, size - cut, "fuzz-b.log", &err);
    pc_mem_free(err);
    pc_log_finish(s);

    int64_t predicted[3] = {64, 1, 1};
    pc_log_check chk;
    pc_log_check_against(s, (ctl & 8) ? predicted : NULL, &chk);

    FILE *null = fopen("/dev/null", "w");
    if (null) {
        pc_log_write_text(null, s, &chk);
        pc_log_write_json(null, s, &chk);
        fclose(null);
    }
    cJSON *j = pc_log_json(s, &chk);
    char *txt = cJSON_PrintUnformatted(j);
    cJSON_free(txt);
    cJSON_Delete(j);

    pc_plan_costs costs;
    if (pc_log_plan_costs(s, NULL, &costs)) {
        int64_t d[3] = {1, 1, 1};
        (void)pc_plan_costs_bytes(&costs, d);
        /* what `plan --logs` prices: each run's actualDepths and one more of each pool */
        for (size_t r = 0; r < s->nruns; r++) {
            const int64_t *a = s->runs[r].actual_depths;
            if (a[0] < 0 || a[1] < 0 || a[2] < 0 || a[0] == INT64_MAX || a[1] == INT64_MAX || a[2] == INT64_MAX)
                continue; /* as cmd_plan.c: each depth is raised by one below */
            (void)pc_plan_costs_bytes(&costs, a);
            for (int k = 0; k < 3; k++) {
                int64_t dk[3] = {a[0], a[1], a[2]};
                dk[k]++;
                (void)pc_plan_costs_bytes(&costs, dk);
            }
        }
    }
    pc_log_free(s);
    return 0;
}
