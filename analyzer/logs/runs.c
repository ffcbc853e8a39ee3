/*
 * runs.c - from tagged log lines to runs: recommended depths as printed, observed depths from
 * the logged peaks, DeviceTasks, Alloc Failures (docs/model.md 11; reference sections 6, 7, 9).
 *
 * Lines of one launch come in this order (dev_workspace.cpp): per submit a Pool line per
 * parallel id and a Tuning line (LogTuningUsage), then at the end of the control flow a Summary
 * line per parallel id and one Recommendation (LogTuningSummary).  The units that turn peaks
 * into depths are printed only in the Recommendation, so the peaks of a launch are collected
 * until its Recommendation arrives; a run cut off before it (a crash, a truncated log) falls back
 * to capacity / configured depth, which is the same unit (capacity = unit x depth).
 */
#include "logs_int.h"

#include <stdio.h>
#include <string.h>

struct pc_log_acc {
    pc_log_run run;
    /* the launch in progress */
    bool launch_any;
    int64_t peak[3];        /* rootInner bytes, assemble slots, exclusive bytes; -1 none */
    int64_t capacity[3];    /* the same three capacities */
    int64_t tuning_cfg[3];  /* configuredDepths of the last Tuning line */
    int64_t tuning_rec_max[3];
    bool have_recommendation;
    int64_t size_unit_inner;     /* [workspaceSize] rootInnerUnitBytes */
    int64_t size_depths[3];      /* [workspaceSize] rootInnerDepth/assembleOutcast/exclusiveDepth */
    PC_VEC(pc_log_failure) failures;
    PC_VEC(pc_log_task) tasks;   /* handed to run.tasks by pc_log_finish, freed with the set */
};

static void set3(int64_t *d, int64_t v)
{
    d[0] = d[1] = d[2] = v;
}

static void max_into(int64_t *acc, int64_t v)
{
    if (v >= 0 && v > *acc)
        *acc = v;
}

pc_log_set *pc_log_new(const pc_log_opts *opts)
{
    pc_arena *a = pc_arena_new();
    pc_log_set *s = pc_arena_alloc(a, sizeof *s);
    s->arena = a;
    s->state = pc_mem_calloc(1, sizeof *s->state);
    s->state->buffer_bytes = pc_log_buffer_size(opts);
    s->state->max_tasks = opts && opts->max_tasks ? opts->max_tasks : PC_LOG_DEFAULT_MAX_TASKS;
    set3(s->recommended, -1);
    set3(s->observed, -1);
    return s;
}

void pc_log_free(pc_log_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->state->runs.count; i++) {
        PC_VEC_FREE(s->state->runs.items[i]->failures);
        PC_VEC_FREE(s->state->runs.items[i]->tasks);
        pc_mem_free(s->state->runs.items[i]);
    }
    PC_VEC_FREE(s->state->runs);
    PC_VEC_FREE(s->state->warnings);
    pc_log_free_buffers(s);
    pc_mem_free(s->state);
    pc_arena_free(s->arena);
}

void pc_log_warn(pc_log_set *s, const char *source, const char *fmt, ...)
{
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    char *text = pc_sb_take(&b);
    pc_log_msg m = {pc_arena_strdup(s->arena, source), pc_arena_strdup(s->arena, text)};
    pc_mem_free(text);
    PC_VEC_PUSH(s->state->warnings, m);
}

static pc_log_acc *run_for(pc_log_set *s, const char *source, int64_t pid, int64_t line)
{
    struct pc_log_state *st = s->state;
    /* source strings are interned per scan, so pointer equality identifies the file */
    if (st->last && st->last->run.source == source && st->last->run.pid == pid)
        return st->last;
    for (size_t i = 0; i < st->runs.count; i++) {
        pc_log_acc *a = st->runs.items[i];
        if (a->run.source == source && a->run.pid == pid)
            return st->last = a;
    }
    pc_log_acc *a = pc_mem_calloc(1, sizeof *a);
    a->run.source = source;
    a->run.pid = pid;
    a->run.first_line = line;
    set3(a->run.recommended, -1);
    set3(a->run.observed, -1);
    a->run.max_stitch_count = -1;
    set3(a->run.actual_depths, -1);
    set3(a->run.raw_per_parallel, -1);
    set3(a->run.next_depth_bytes, -1);
    set3(a->run.units, -1);
    a->run.parallelism = -1;
    a->run.boundary_slots = -1;
    a->run.slot_bytes = -1;
    a->run.min_workspace_kb = -1;
    set3(a->peak, -1);
    set3(a->capacity, -1);
    set3(a->tuning_cfg, -1);
    set3(a->tuning_rec_max, -1);
    a->size_unit_inner = -1;
    set3(a->size_depths, -1);
    PC_VEC_PUSH(st->runs, a);
    return st->last = a;
}

/* recommendedDepths={rootInner=..,assembleOutcast|innerTemporal=..,exclusive=..} and the like. */
static bool read_triple(const pc_log_fields *f, const char *group, int64_t out[3])
{
    char p0[PC_LOG_MAX_PATH], p2[PC_LOG_MAX_PATH];
    snprintf(p0, sizeof p0, "%s.rootInner", group);
    snprintf(p2, sizeof p2, "%s.exclusive", group);
    return pc_log_field_u64(f, p0, &out[0]) && pc_log_field_pool1(f, group, "", &out[1]) &&
           pc_log_field_u64(f, p2, &out[2]);
}

/* ceil(peak / unit); a zero unit gives 0 (CeilDiv in dev_workspace.cpp); -1 when unknown. */
static int64_t depth_of(int64_t peak, int64_t unit)
{
    if (peak < 0 || unit < 0)
        return -1;
    if (unit == 0)
        return 0;
    return peak / unit + (peak % unit != 0);
}

/* Close the launch in progress with these units (bytes, slots per depth, bytes). */
static void close_launch(pc_log_acc *a, const int64_t units[3])
{
    if (!a->launch_any)
        return;
    for (int i = 0; i < 3; i++) {
        int64_t d = depth_of(a->peak[i], units[i]);
        if (d >= 0 && d > a->run.observed[i])
            a->run.observed[i] = d;
        if (units[i] >= 0)
            a->run.units[i] = units[i];
    }
    a->launch_any = false;
    set3(a->peak, -1);
    set3(a->capacity, -1);
}

/* Units when no Recommendation gives them: capacity / configured depth. */
static void fallback_units(const pc_log_acc *a, int64_t units[3])
{
    for (int i = 0; i < 3; i++) {
        int64_t depth = a->tuning_cfg[i] >= 0 ? a->tuning_cfg[i] : a->size_depths[i];
        if (a->have_recommendation && a->run.units[i] >= 0)
            units[i] = a->run.units[i];
        else if (a->capacity[i] >= 0 && depth > 0)
            units[i] = a->capacity[i] / depth;
        else if (a->capacity[i] >= 0 && depth == 0)
            units[i] = 0;
        else
            units[i] = -1;
    }
    if (units[0] < 0 && a->size_unit_inner >= 0)
        units[0] = a->size_unit_inner;
}

/* Pool and Summary lines: peaks and capacities of the three pools. */
static bool take_peaks(pc_log_acc *a, const pc_log_fields *f)
{
    int64_t pi, pe, ps;
    if (!pc_log_field_u64(f, "rootInner.peak", &pi) ||
        !pc_log_field_u64(f, "exclusiveOutcast.peak", &pe) ||
        !pc_log_field_pool1(f, "", "peakSlots", &ps))
        return false;
    a->launch_any = true;
    max_into(&a->peak[0], pi);
    max_into(&a->peak[1], ps);
    max_into(&a->peak[2], pe);
    int64_t c;
    if (pc_log_field_u64(f, "rootInner.capacity", &c))
        max_into(&a->capacity[0], c);
    if (pc_log_field_pool1(f, "", "capacitySlots", &c))
        max_into(&a->capacity[1], c);
    if (pc_log_field_u64(f, "exclusiveOutcast.capacity", &c))
        max_into(&a->capacity[2], c);
    return true;
}

/* A Tuning line is one submitted DeviceTask (LogTuningUsage): it is counted, kept in the run's
 * task list while the list is under max_tasks (past it, only counted: a log of a long run must
 * not take memory without bound), and folded into the run's maxima. */
static bool take_tuning(pc_log_acc *a, const pc_log_fields *f, size_t max_tasks)
{
    int64_t stitch, rec[3];
    if (!pc_log_field_u64(f, "stitchCount", &stitch) || !read_triple(f, "recommendedDepths", rec))
        return false;
    a->run.device_tasks++;
    if (a->tasks.count < max_tasks) {
        pc_log_task t = {.task_id = -1, .stitch_count = stitch};
        memcpy(t.recommended, rec, sizeof rec);
        if (!pc_log_field_u64(f, "taskId", &t.task_id))
            t.task_id = -1;
        PC_VEC_PUSH(a->tasks, t);
    } else {
        a->run.tasks_dropped++;
    }
    max_into(&a->run.max_stitch_count, stitch);
    for (int i = 0; i < 3; i++)
        max_into(&a->tuning_rec_max[i], rec[i]);
    int64_t cfg[3];
    if (read_triple(f, "configuredDepths", cfg)) {
        memcpy(a->tuning_cfg, cfg, sizeof cfg);
        if (!a->have_recommendation)
            memcpy(a->run.actual_depths, cfg, sizeof cfg);
    }
    return true;
}

static bool take_recommendation(pc_log_acc *a, const pc_log_fields *f)
{
    int64_t rec[3];
    if (!read_triple(f, "recommendedDepths", rec))
        return false;
    a->run.launches++;
    a->have_recommendation = true;
    a->run.recommended_final = true;
    memcpy(a->run.recommended, rec, sizeof rec);

    int64_t actual[3];
    if (read_triple(f, "actualDepths", actual))
        memcpy(a->run.actual_depths, actual, sizeof actual);
    else
        memcpy(actual, a->tuning_cfg, sizeof actual);
    int64_t raw[3] = {-1, -1, -1};
    pc_log_field_u64(f, "depthMemory.rawPerParallelBytes.rootInner", &raw[0]);
    pc_log_field_pool1(f, "depthMemory.rawPerParallelBytes", "", &raw[1]);
    pc_log_field_u64(f, "depthMemory.rawPerParallelBytes.exclusive", &raw[2]);
    int64_t next[3] = {-1, -1, -1};
    pc_log_field_u64(f, "depthMemory.nextDepthTotalBytes.rootInner", &next[0]);
    pc_log_field_pool1(f, "depthMemory.nextDepthTotalBytes", "", &next[1]);
    pc_log_field_u64(f, "depthMemory.nextDepthTotalBytes.exclusive", &next[2]);
    for (int i = 0; i < 3; i++) {
        if (raw[i] >= 0)
            a->run.raw_per_parallel[i] = raw[i];
        if (next[i] >= 0)
            a->run.next_depth_bytes[i] = next[i];
    }
    int64_t par;
    if (pc_log_field_u64(f, "depthMemory.parallelism", &par))
        a->run.parallelism = par;

    /* Units of this launch: rawPerParallelBytes for the byte pools (rootInnerUnitBytes,
     * exclusiveOutcastUnitBytes), capacitySlots / actualDepths.innerTemporal for assemble
     * (= assembleSlotsPerDepth); capacity / depth where the line has no depthMemory. */
    int64_t units[3];
    fallback_units(a, units);
    a->have_recommendation = true;
    for (int i = 0; i < 3; i += 2) {
        if (raw[i] >= 0)
            units[i] = raw[i];
        else if (a->capacity[i] >= 0 && actual[i] > 0)
            units[i] = a->capacity[i] / actual[i];
    }
    if (a->capacity[1] >= 0 && actual[1] > 0)
        units[1] = a->capacity[1] / actual[1];
    else if (a->capacity[1] >= 0 && actual[1] == 0)
        units[1] = 0;
    close_launch(a, units);
    return true;
}

static bool take_failure(pc_log_set *s, pc_log_acc *a, const pc_log_fields *f, int64_t line)
{
    const pc_log_field *r = pc_log_field_get(f, "reason");
    const char *reason = "unknown";
    if (r && r->vlen) {
        size_t n = r->vlen;
        while (n && (r->val[n - 1] == '.' || r->val[n - 1] == ' '))
            n--;
        if (n)
            reason = pc_arena_strndup(s->arena, r->val, n);
    }
    pc_log_failure fl = {reason, line};
    PC_VEC_PUSH(a->failures, fl);
    return true;
}

static bool contains(const char *t, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(t + i, needle, k) == 0)
            return true;
    return false;
}

/* [workspaceSize] lines (host, compile/launch time; reference 9.1): the slot layout a plan
 * needs, and a refused max_workspace_kb.  Which of them a line is: */
typedef enum size_kind { SIZE_OTHER, SIZE_STITCH_DEPTH, SIZE_TENSOR, SIZE_SLOTS, SIZE_REFUSED } size_kind;

static size_kind size_kind_of(const pc_log_line *l)
{
    if (contains(l->text, l->len, "stitch depth:"))
        return SIZE_STITCH_DEPTH;              /* LogWorkspaceEncodeSummary */
    if (contains(l->text, l->len, "Tensor:") && contains(l->text, l->len, "slotted="))
        return SIZE_TENSOR;                    /* device_launcher.h */
    if (contains(l->text, l->len, "OutcastSlots:"))
        return SIZE_SLOTS;
    if (contains(l->text, l->len, "must be greater than the minimum runnable workspace"))
        return SIZE_REFUSED;                   /* ValidateMaxWorkspaceOrThrow */
    return SIZE_OTHER;
}

static bool take_size(pc_log_acc *a, size_kind kind, const pc_log_fields *f)
{
    int64_t v;
    switch (kind) {
    case SIZE_STITCH_DEPTH:
        if (pc_log_field_u64(f, "devTaskBoundaryOutcastNum", &v))
            a->run.boundary_slots = v;
        if (pc_log_field_u64(f, "rootInnerUnitBytes", &v))
            a->size_unit_inner = v;
        if (pc_log_field_u64(f, "rootInnerDepth", &v))
            a->size_depths[0] = v;
        if (pc_log_field_u64(f, "assembleOutcast", &v))
            a->size_depths[1] = v;
        if (pc_log_field_u64(f, "exclusiveDepth", &v))
            a->size_depths[2] = v;
        break;
    case SIZE_TENSOR:
        if (pc_log_field_u64(f, "slotted", &v)) /* slotted=<MaxOutcastMem>x<slots>(slots) */
            a->run.slot_bytes = v;
        break;
    case SIZE_SLOTS:
        if (pc_log_field_u64(f, "boundary", &v))
            a->run.boundary_slots = v;
        break;
    case SIZE_REFUSED:
        if (pc_log_field_u64(f, "workspace", &v))
            a->run.min_workspace_kb = v;
        break;
    default:
        break;
    }
    return true;
}

bool pc_log_take_line(pc_log_set *s, const pc_log_line *l)
{
    pc_log_fields f;
    pc_log_parse_fields(l->text, l->len, &f);
    size_kind sk = SIZE_OTHER;
    if (l->tag == PC_TAG_WORKSPACE_SIZE) {
        /* Most [workspaceSize] lines (metadata sizes, per-root requirements) say nothing a run
         * reports: they are read, not stored, and make no run of their own. */
        sk = size_kind_of(l);
        if (sk == SIZE_OTHER)
            return true;
    }
    if (f.unbalanced && l->tag != PC_TAG_ALLOC_FAILURE)
        return false; /* cut short (a truncated line) or damaged */
    pc_log_acc *a = run_for(s, l->source, l->pid, l->line);
    bool ok;
    switch (l->tag) {
    case PC_TAG_POOL:
    case PC_TAG_SUMMARY: ok = take_peaks(a, &f); break;
    case PC_TAG_TUNING: ok = take_tuning(a, &f, s->state->max_tasks); break;
    case PC_TAG_RECOMMENDATION: ok = take_recommendation(a, &f); break;
    case PC_TAG_ALLOC_FAILURE: ok = take_failure(s, a, &f, l->line); break;
    case PC_TAG_WORKSPACE_SIZE: ok = take_size(a, sk, &f); break;
    default: ok = false; break;
    }
    if (ok) {
        if (l->tag == PC_TAG_WORKSPACE_SIZE)
            a->run.size_lines++;
        else
            a->run.workspace_lines++;
    }
    return ok;
}

void pc_log_finish(pc_log_set *s)
{
    struct pc_log_state *st = s->state;
    if (st->finished)
        return;
    st->finished = true;
    /* Runs that hold nothing usable (every line of theirs malformed) are not reported. */
    size_t n = 0;
    for (size_t i = 0; i < st->runs.count; i++)
        if (st->runs.items[i]->run.workspace_lines || st->runs.items[i]->run.size_lines)
            n++;
    s->runs = pc_arena_alloc(s->arena, (n ? n : 1) * sizeof *s->runs);
    s->nruns = 0;
    for (size_t i = 0; i < st->runs.count; i++) {
        pc_log_acc *a = st->runs.items[i];
        if (!a->run.workspace_lines && !a->run.size_lines)
            continue;
        if (a->launch_any) {
            int64_t units[3];
            fallback_units(a, units);
            close_launch(a, units);
        }
        if (!a->run.recommended_final)
            memcpy(a->run.recommended, a->tuning_rec_max, sizeof a->tuning_rec_max);
        if (a->failures.count) {
            a->run.failures = pc_arena_alloc(s->arena, a->failures.count * sizeof *a->run.failures);
            memcpy(a->run.failures, a->failures.items, a->failures.count * sizeof *a->run.failures);
            a->run.nfailures = a->failures.count;
            s->cut_short = true;
        }
        /* no copy: the list can be large; the accumulator keeps ownership until pc_log_free */
        a->run.tasks = a->tasks.count ? a->tasks.items : NULL;
        a->run.ntasks = a->tasks.count;
        for (int k = 0; k < 3; k++) {
            max_into(&s->recommended[k], a->run.recommended[k]);
            max_into(&s->observed[k], a->run.observed[k]);
        }
        s->runs[s->nruns++] = a->run;
    }
    s->warnings = st->warnings.items;
    s->nwarnings = st->warnings.count;
    pc_log_stats *t = &s->stats;
    t->skipped_lines = t->long_lines + t->binary_lines + t->malformed_lines;
}

/* ---- comparison -------------------------------------------------------------------------------- */

const char *pc_log_verdict_name(pc_log_verdict v)
{
    switch (v) {
    case PC_VERDICT_MATCH: return "match";
    case PC_VERDICT_UNDER: return "under-predicted";
    case PC_VERDICT_OVER: return "over-predicted";
    default: return "unknown";
    }
}

pc_log_verdict pc_log_compare(int64_t predicted, int64_t observed)
{
    if (predicted < 0 || observed < 0)
        return PC_VERDICT_UNKNOWN;
    if (predicted == observed)
        return PC_VERDICT_MATCH;
    return predicted < observed ? PC_VERDICT_UNDER : PC_VERDICT_OVER;
}

void pc_log_check_against(const pc_log_set *s, const int64_t *predicted, pc_log_check *out)
{
    memset(out, 0, sizeof *out);
    set3(out->predicted, -1);
    if (!predicted)
        return;
    out->have_prediction = true;
    for (int i = 0; i < 3; i++) {
        out->predicted[i] = predicted[i];
        out->verdict[i] = pc_log_compare(predicted[i], s->observed[i]);
        if (out->verdict[i] == PC_VERDICT_UNDER)
            out->under = true;
    }
}

/* ---- prices for a plan ------------------------------------------------------------------------- */

bool pc_log_plan_costs(const pc_log_set *s, const pc_result *r, pc_plan_costs *out)
{
    memset(out, 0, sizeof *out);
    int64_t raw[3] = {-1, -1, -1}, par = -1, boundary = -1, slot = -1;
    for (size_t i = 0; i < s->nruns; i++) {
        const pc_log_run *run = &s->runs[i];
        for (int k = 0; k < 3; k++)
            max_into(&raw[k], run->raw_per_parallel[k]);
        max_into(&par, run->parallelism);
        max_into(&boundary, run->boundary_slots);
        max_into(&slot, run->slot_bytes);
        /* innerTemporal = A x MaxOutcastMem and A = capacitySlots / depth: the slot size */
        if (run->raw_per_parallel[1] > 0 && run->units[1] > 0)
            max_into(&slot, run->raw_per_parallel[1] / run->units[1]);
    }
    if (raw[0] < 0 || raw[1] < 0 || raw[2] < 0)
        return false;
    if (r) {
        if (boundary < 0)
            boundary = 2 * (int64_t)r->n_exclusive + 2 * (int64_t)r->n_assemble;
        if (slot < 0)
            slot = r->slot_size;
    }
    if (boundary < 0 || slot < 0)
        return false;
    for (int k = 0; k < 3; k++)
        out->step[k] = raw[k];
    /* Logged numbers are only bounded by int64: a product that does not fit saturates (a price
     * nothing fits under) instead of overflowing. */
    if (__builtin_mul_overflow(boundary, slot, &out->fixed))
        out->fixed = INT64_MAX;
    out->parallelism = par > 0 ? par : 1;
    return true;
}
