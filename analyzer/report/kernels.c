/* kernels.c - per-kernel summaries: the JSON object of `check --format=json` and the readable
 * text block (spec docs/model.md section 12). */
#define _POSIX_C_SOURCE 200809L
#include "report/report_int.h"

#include <cjson/cJSON.h>
#include <string.h>

static cJSON *num_or_null(int64_t v) { return v < 0 ? cJSON_CreateNull() : cJSON_CreateNumber((double)v); }

static cJSON *triple(const int64_t v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(a, num_or_null(v[i]));
    return a;
}

static const char *loop_name(const pc_result *r, int loop)
{
    return loop >= 0 && loop < r->kernel->nloops ? r->kernel->loops[loop].name : NULL;
}

static const char *dup(pc_arena *a, const char *s) { return s ? pc_arena_strdup(a, s) : NULL; }

void pc_rep_kernel_from_result(pc_rep_kernel *o, const pc_result *r, pc_arena *a)
{
    const pc_kernel *k = r->kernel;
    memset(o, 0, sizeof *o);
    o->name = dup(a, k->name);
    o->scope = dup(a, k->scope);
    o->title = pc_kernel_scope_shown(k) ? pc_arena_printf(a, "%s in %s", k->name, k->scope) : o->name;
    o->file = dup(a, k->loc.file);
    o->model_file = dup(a, r->model->file);
    o->line = k->loc.line;
    memcpy(o->predicted, r->predicted, sizeof o->predicted);
    memcpy(o->required, r->required, sizeof o->required);
    memcpy(o->suggested, r->suggested, sizeof o->suggested);
    memcpy(o->configured, r->configured, sizeof o->configured);
    memcpy(o->bounds, r->bounds, sizeof o->bounds);
    for (int i = 0; i < 3; i++)
        o->formulas[i] = dup(a, r->formulas[i]);
    o->precise = r->precise;
    o->truncated = r->truncated;
    o->k = r->k;
    o->parallelism = r->parallelism;
    o->instances = r->instances;
    o->device_tasks = r->device_tasks;
    o->instance_limit = r->instance_limit;
    o->ntensors = r->ntensors > 0 ? (size_t)r->ntensors : 0;
    o->tensors = pc_arena_alloc(a, (o->ntensors ? o->ntensors : 1) * sizeof *o->tensors);
    for (size_t t = 0; t < o->ntensors; t++) {
        const pc_tensor *T = &k->tensors[t];
        const pc_tensor_result *tr = &r->tensors[t];
        pc_rep_tensor *x = &o->tensors[t];
        char label[64];
        x->label = dup(a, pc_tensor_label(T, label, sizeof label));
        x->variable = dup(a, T->variable ? T->variable : "");
        x->kind = dup(a, pc_tensor_kind_name(T->kind));
        x->pool = dup(a, pc_pool_name(tr->pool));
        x->file = dup(a, T->loc.file);
        x->line = T->loc.line;
        x->col = T->loc.col;
        x->bytes = tr->bytes;
        x->aligned_bytes = tr->aligned_bytes;
        x->pieces = tr->pieces;
        x->pieces_text = dup(a, tr->pieces_text);
        x->reason = dup(a, tr->reason);
    }
    o->nroots = r->nroots > 0 ? (size_t)r->nroots : 0;
    o->roots = pc_arena_alloc(a, (o->nroots ? o->nroots : 1) * sizeof *o->roots);
    for (size_t i = 0; i < o->nroots; i++) {
        const pc_root_result *rr = &r->roots[i];
        o->roots[i] = (pc_rep_root){dup(a, rr->name), dup(a, loop_name(r, rr->loop)), rr->unroll_factor,
                                    rr->instances, rr->inner_bytes, rr->excl_bytes, rr->lowered_bytes,
                                    dup(a, rr->lowered_what), rr->loc.line};
    }
    for (int p = 0; p < 3; p++) {
        const pc_why *w = &r->why[p];
        pc_rep_why *x = &o->why[p];
        x->task = w->task;
        if (w->task < 0)
            continue;
        x->first_instance = w->first_instance;
        x->last_instance = w->last_instance;
        x->nroots = w->nroots > 0 ? (size_t)w->nroots : 0;
        x->roots = pc_arena_alloc(a, (x->nroots ? x->nroots : 1) * sizeof *x->roots);
        for (size_t i = 0; i < x->nroots; i++)
            x->roots[i] = (pc_rep_why_root){dup(a, w->roots[i].name), dup(a, loop_name(r, w->roots[i].loop)),
                                            w->roots[i].instances};
        x->ntensors = w->ntensors > 0 ? (size_t)w->ntensors : 0;
        x->tensors = pc_arena_alloc(a, (x->ntensors ? x->ntensors : 1) * sizeof *x->tensors);
        for (size_t i = 0; i < x->ntensors; i++)
            x->tensors[i] = dup(a, w->tensors[i]);
    }
    o->unit_inner = r->unit_inner;
    o->unit_excl = r->unit_excl;
    o->slot_size = r->slot_size;
    o->n_assemble = r->n_assemble;
    o->n_exclusive = r->n_exclusive;
    o->ws_predicted = r->ws_predicted;
    o->ws_suggested = r->ws_suggested;
    o->ws_required = r->ws_required;
    o->ws_default = r->ws_default;
    o->ws_configured = r->ws_configured;
    o->nunknowns = r->nunknowns > 0 ? (size_t)r->nunknowns : 0;
    o->unknowns = pc_arena_alloc(a, (o->nunknowns ? o->nunknowns : 1) * sizeof *o->unknowns);
    for (size_t i = 0; i < o->nunknowns; i++)
        o->unknowns[i] = dup(a, r->unknowns[i]);
}

static cJSON *str_or_null(const char *s) { return s ? cJSON_CreateString(s) : cJSON_CreateNull(); }

void *pc_rep_kernel_summary_json(const pc_rep_kernel *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", k->name);
    cJSON_AddItemToObject(o, "scope", str_or_null(k->scope));
    cJSON_AddStringToObject(o, "file", k->file ? k->file : k->model_file);
    cJSON_AddNumberToObject(o, "line", k->line);
    cJSON_AddItemToObject(o, "predicted", triple(k->predicted));
    cJSON_AddItemToObject(o, "required", triple(k->required));
    cJSON_AddItemToObject(o, "suggested", triple(k->suggested));
    cJSON_AddItemToObject(o, "configured", triple(k->configured));
    cJSON_AddBoolToObject(o, "precise", k->precise);
    cJSON_AddNumberToObject(o, "k", (double)k->k);
    cJSON_AddNumberToObject(o, "parallelism", (double)k->parallelism);
    cJSON_AddItemToObject(o, "bounds", triple(k->bounds));
    cJSON *f = cJSON_CreateArray();
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(f, k->formulas[i] ? cJSON_CreateString(k->formulas[i]) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "formulas", f);
    cJSON_AddItemToObject(o, "instances", num_or_null(k->instances));
    cJSON_AddItemToObject(o, "device_tasks", num_or_null(k->device_tasks));

    cJSON *tensors = cJSON_CreateArray();
    for (size_t t = 0; t < k->ntensors; t++) {
        const pc_rep_tensor *T = &k->tensors[t];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", T->label);
        cJSON_AddStringToObject(x, "variable", T->variable);
        cJSON_AddStringToObject(x, "kind", T->kind);
        cJSON_AddStringToObject(x, "pool", T->pool);
        cJSON_AddStringToObject(x, "file", T->file ? T->file : k->model_file);
        cJSON_AddNumberToObject(x, "line", T->line);
        cJSON_AddNumberToObject(x, "column", T->col);
        cJSON_AddItemToObject(x, "bytes", num_or_null(T->bytes));
        cJSON_AddItemToObject(x, "aligned_bytes", num_or_null(T->aligned_bytes));
        if (T->pieces_text) { /* tile pieces (aligned_bytes is their sum) */
            cJSON_AddNumberToObject(x, "pieces", (double)T->pieces);
            cJSON_AddStringToObject(x, "pieces_text", T->pieces_text);
        }
        cJSON_AddStringToObject(x, "reason", T->reason ? T->reason : "");
        cJSON_AddItemToArray(tensors, x);
    }
    cJSON_AddItemToObject(o, "tensors", tensors);

    cJSON *roots = cJSON_CreateArray();
    for (size_t i = 0; i < k->nroots; i++) {
        const pc_rep_root *rr = &k->roots[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", rr->name);
        cJSON_AddItemToObject(x, "loop", str_or_null(rr->loop));
        cJSON_AddNumberToObject(x, "unroll_factor", (double)rr->unroll_factor);
        cJSON_AddItemToObject(x, "instances", num_or_null(rr->instances));
        cJSON_AddItemToObject(x, "inner_bytes", num_or_null(rr->inner_bytes));
        if (rr->lowered_bytes > 0) {
            cJSON_AddNumberToObject(x, "lowered_inner_bytes", (double)rr->lowered_bytes);
            cJSON_AddStringToObject(x, "lowered", rr->lowered_what ? rr->lowered_what : "");
        }
        cJSON_AddItemToObject(x, "exclusive_bytes", num_or_null(rr->excl_bytes));
        cJSON_AddNumberToObject(x, "line", rr->line);
        cJSON_AddItemToArray(roots, x);
    }
    cJSON_AddItemToObject(o, "roots", roots);

    cJSON *why = cJSON_CreateArray();
    for (int p = 0; p < 3; p++) {
        const pc_rep_why *w = &k->why[p];
        if (w->task < 0) {
            cJSON_AddItemToArray(why, cJSON_CreateNull());
            continue;
        }
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "task", (double)w->task);
        cJSON_AddNumberToObject(x, "first_instance", (double)w->first_instance);
        cJSON_AddNumberToObject(x, "last_instance", (double)w->last_instance);
        cJSON *wr = cJSON_CreateArray();
        for (size_t i = 0; i < w->nroots; i++) {
            cJSON *y = cJSON_CreateObject();
            cJSON_AddStringToObject(y, "name", w->roots[i].name);
            cJSON_AddItemToObject(y, "loop", str_or_null(w->roots[i].loop));
            cJSON_AddNumberToObject(y, "instances", (double)w->roots[i].instances);
            cJSON_AddItemToArray(wr, y);
        }
        cJSON_AddItemToObject(x, "roots", wr);
        cJSON *wt = cJSON_CreateArray();
        for (size_t i = 0; i < w->ntensors; i++)
            cJSON_AddItemToArray(wt, cJSON_CreateString(w->tensors[i]));
        cJSON_AddItemToObject(x, "tensors", wt);
        cJSON_AddItemToArray(why, x);
    }
    cJSON_AddItemToObject(o, "why", why);

    cJSON *units = cJSON_CreateObject();
    cJSON_AddItemToObject(units, "root_inner", num_or_null(k->unit_inner));
    cJSON_AddItemToObject(units, "exclusive", num_or_null(k->unit_excl));
    cJSON_AddItemToObject(units, "slot", num_or_null(k->slot_size));
    cJSON_AddNumberToObject(units, "assemble_tensors", (double)k->n_assemble);
    cJSON_AddNumberToObject(units, "exclusive_tensors", (double)k->n_exclusive);
    cJSON_AddItemToObject(o, "units", units);

    cJSON *ws = cJSON_CreateObject();
    cJSON_AddItemToObject(ws, "predicted", num_or_null(k->ws_predicted));
    cJSON_AddItemToObject(ws, "suggested", num_or_null(k->ws_suggested));
    cJSON_AddItemToObject(ws, "required", num_or_null(k->ws_required));
    cJSON_AddItemToObject(ws, "default", num_or_null(k->ws_default));
    cJSON_AddItemToObject(ws, "configured", num_or_null(k->ws_configured));
    cJSON_AddItemToObject(o, "workspace_bytes", ws);

    cJSON *unk = cJSON_CreateArray();
    for (size_t i = 0; i < k->nunknowns; i++)
        cJSON_AddItemToArray(unk, cJSON_CreateString(k->unknowns[i]));
    cJSON_AddItemToObject(o, "unknowns", unk);
    return o;
}

void *pc_rep_kernel_json(const pc_result *r, const pc_runtime_config *cfg)
{
    pc_arena *a = pc_arena_new();
    pc_rep_kernel k;
    pc_rep_kernel_from_result(&k, r, a);
    void *o = pc_rep_kernel_summary_json(&k);
    pc_arena_free(a);
    (void)cfg;
    return o;
}

/* ---- text ------------------------------------------------------------------------------------ */

static const char *bold(bool color) { return color ? "\033[1m" : ""; }
static const char *reset(bool color) { return color ? "\033[0m" : ""; }

static void num(FILE *out, int64_t v, int width)
{
    if (v < 0)
        fprintf(out, "%-*s", width, "?");
    else
        fprintf(out, "%-*lld", width, (long long)v);
}

static void bytes_text(FILE *out, int64_t b)
{
    if (b < 0)
        fputs("unknown", out);
    else if (b >= 1024 * 1024)
        fprintf(out, "%lld B (%.1f MiB)", (long long)b, (double)b / (1024.0 * 1024.0));
    else if (b >= 1024)
        fprintf(out, "%lld B (%.1f KiB)", (long long)b, (double)b / 1024.0);
    else
        fprintf(out, "%lld B", (long long)b);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Names from the source (kernels, tensors, loops) and file names with their control characters
 * escaped (support.h): the summary must not drive the terminal either. */
static const char *vis(pc_arena *a, const char *s)
{
    if (!s)
        return s;
    char *v = pc_visible(s);
    if (!v)
        return s;
    const char *copy = pc_arena_strdup(a, v);
    pc_mem_free(v);
    return copy;
}

void pc_rep_kernel_summary_text(FILE *out, const pc_rep_kernel *r, bool color)
{
    pc_arena *a = pc_arena_new();
    const char *file = r->file ? r->file : r->model_file;
    fprintf(out, "%skernel %s%s (%s:%u)\n", bold(color), vis(a, r->title ? r->title : r->name), reset(color),
            vis(a, file), r->line);

    fputs("  tensors:\n", out);
    size_t wname = 4;
    for (size_t t = 0; t < r->ntensors; t++) {
        size_t n = strlen(vis(a, r->tensors[t].label));
        if (n > wname)
            wname = n;
    }
    for (size_t t = 0; t < r->ntensors; t++) {
        const pc_rep_tensor *tr = &r->tensors[t];
        fprintf(out, "    %-*s  %-17s  ", (int)wname, vis(a, tr->label), tr->pool);
        char b[32];
        if (tr->aligned_bytes >= 0)
            snprintf(b, sizeof b, "%lld B", (long long)tr->aligned_bytes);
        else
            snprintf(b, sizeof b, "? B");
        fprintf(out, "%10s  %s:%u  %s\n", b, vis(a, base_name(tr->file ? tr->file : file)), tr->line,
                tr->reason ? vis(a, tr->reason) : "");
    }

    if (r->instances >= 0)
        fprintf(out, "  instances: %lld in %lld DeviceTask%s (k = %lld%s)\n", (long long)r->instances,
                (long long)r->device_tasks, r->device_tasks == 1 ? "" : "s", (long long)r->k,
                r->parallelism > 1 ? ", per workspace copy" : "");
    else if (r->truncated && !r->nunknowns) /* the analysis stopped at its limit (PC012) */
        fprintf(out, "  instances: unknown (at least %lld: the analysis stopped there)\n",
                (long long)r->instance_limit);
    else
        fprintf(out, "  instances: unknown (bind %s%s)\n", r->nunknowns ? vis(a, r->unknowns[0]) : "the dynamic dims",
                r->nunknowns > 1 ? ", ..." : "");
    for (size_t i = 0; i < r->nroots; i++) {
        const pc_rep_root *rr = &r->roots[i];
        if (rr->instances == 0)
            continue;
        fprintf(out, "    root %-24s ", vis(a, rr->name));
        if (rr->instances < 0)
            fputs("? instances", out);
        else
            fprintf(out, "%lld instance%s", (long long)rr->instances, rr->instances == 1 ? "" : "s");
        if (rr->lowered_bytes > 0) /* root_inner no tensor of the kernel explains (docs/model.md 4) */
            fprintf(out, "; root_inner %lld B of %s, which upstream's lowering adds", (long long)rr->lowered_bytes,
                    vis(a, rr->lowered_what ? rr->lowered_what : "buffers"));
        fputc('\n', out);
    }

    fprintf(out, "  %-14s%-13s%-19s%s\n", "depths", "root_inner", "assemble_outcast", "exclusive_outcast");
    const struct { const char *label; const int64_t *v; } rows[] = {
        {"predicted", r->predicted}, {"required", r->required}, {"suggested", r->suggested},
        {"configured", r->configured}};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        fprintf(out, "    %-12s", rows[i].label);
        num(out, rows[i].v[0], 13);
        num(out, rows[i].v[1], 19);
        num(out, rows[i].v[2], 0);
        if (rows[i].v == r->configured)
            fputs(r->precise ? "  (precise mode)" : "  (default mode: stitch_function_num_per_pool is [0, 0, 0])", out);
        if (rows[i].v == r->predicted)
            for (int p = 0; p < 3; p++)
                if (r->predicted[p] < 0)
                    fprintf(out, "  [%s <= %lld%s%s]", pc_pool_name((pc_pool)p), (long long)r->bounds[p],
                            r->formulas[p] ? ", = " : "", r->formulas[p] ? vis(a, r->formulas[p]) : "");
        fputc('\n', out);
    }

    for (int p = 0; p < 3; p++) {
        const pc_rep_why *w = &r->why[p];
        if (w->task < 0)
            continue;
        fprintf(out, "  why %s = %lld: DeviceTask %lld (instances %lld-%lld):", pc_pool_name((pc_pool)p),
                (long long)r->predicted[p], (long long)w->task, (long long)w->first_instance,
                (long long)w->last_instance);
        for (size_t i = 0; i < w->nroots; i++)
            fprintf(out, "%s %s x%lld", i ? "," : "", vis(a, w->roots[i].name), (long long)w->roots[i].instances);
        if (w->ntensors) {
            fputs("; tensors", out);
            for (size_t i = 0; i < w->ntensors; i++)
                fprintf(out, "%s %s", i ? "," : "", vis(a, w->tensors[i]));
        }
        fputc('\n', out);
    }

    fputs("  workspace: predicted ", out);
    bytes_text(out, r->ws_predicted);
    fputs(", suggested ", out);
    bytes_text(out, r->ws_suggested);
    fputs(", default ", out);
    bytes_text(out, r->ws_default);
    fputs(", configured ", out);
    bytes_text(out, r->ws_configured);
    fputc('\n', out);
    pc_arena_free(a);
}

void pc_rep_kernel_text(FILE *out, const pc_result *r, const pc_runtime_config *cfg, bool color)
{
    pc_arena *a = pc_arena_new();
    pc_rep_kernel k;
    pc_rep_kernel_from_result(&k, r, a);
    pc_rep_kernel_summary_text(out, &k, color);
    pc_arena_free(a);
    (void)cfg;
}
