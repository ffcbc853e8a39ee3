/*
 * lint_fixture.h - hand-built inputs for the checks and report suites (check_checks.c,
 * check_report.c): the seed article's kernel (docs/model.md section 10) as a pc_model with a source
 * text, per-kernel pc_results filled in by hand, and effective configurations.  No frontend and
 * no analysis run: every number below is the one docs/model.md section 10 works out.
 *
 *   dx            root_inner         512 B aligned (U0 = 512)
 *   tmp_assemble  assemble_outcast   4096 B (A = 1), lives across DeviceTasks
 *   tmp_exclusive exclusive_outcast  4096 B (U2 = 4096, E = 1), S = 4096
 *   predicted [64, 1, 1], required [1, 1, 1], suggested [64, 2, 1]; k = 128
 *   bytes = AlignUp(512 d0 + 4096 d2 + (2 + 2 + d1) 4096, 32768)
 */
#ifndef LINT_FIXTURE_H
#define LINT_FIXTURE_H

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"
#include "poolcheck/diag.h"
#include "poolcheck/poolcheck.h"
#include "support/support.h"

enum { LF_DY, LF_WEIGHT, LF_TMP_ASSEMBLE, LF_TMP_EXCLUSIVE, LF_DX, LF_NTENSORS };

typedef struct lf {
    pc_model *m;
    char *src;
    size_t len;
    pc_result *r[4];
    pc_runtime_config cfg[4];
    pc_option ext[4];
    size_t next;
    int64_t headroom;
    pc_diag_sink *s;
    pc_file_result fr;      /* for the report functions (points at the above) */
    pc_file_result *frp;
} lf;

static const char LF_PY_PREFIX[] = "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=";

/* The Python source; line 3 sets the pool option to `value` (text) unless it is NULL. */
static char *lf_python_source(const char *value)
{
    pc_sb b = {0};
    pc_sb_append(&b, "import pypto\n\n");
    if (value)
        pc_sb_printf(&b, "%s%s)\n", LF_PY_PREFIX, value);
    else
        pc_sb_append(&b, "# no runtime options\n");
    pc_sb_append(&b,
                 "\n"
                 "\n"
                 "@pypto.frontend.jit\n"
                 "def k_tmp(dy, weight):\n"
                 "    tmp_assemble = pypto.tensor([1, 64, 1, 16], pypto.DT_FP32, \"tmp_assemble\")\n"
                 "    tmp_exclusive = pypto.tensor([1, 64, 1, 16], pypto.DT_FP32, \"tmp_exclusive\")\n"
                 "    for j, t in pypto.loop_unroll(0, 64, 1, name=\"l_loop_1\"):\n"
                 "        dx = pypto.matmul(dy, weight, pypto.DT_FP32)\n"
                 "        tmp_assemble[0, j:j+t, 0] = dx + 0.0\n"
                 "        tmp_exclusive[:] = dx\n");
    return pc_sb_take(&b);
}

static const char LF_CPP_PREFIX[] = "    config::SetRuntimeOption(\"stitch_function_num_per_pool\", ";

static char *lf_cpp_source(const char *value)
{
    pc_sb b = {0};
    pc_sb_append(&b, "#include \"tilefwk/tilefwk.h\"\nvoid Build() {\n");
    if (value)
        pc_sb_printf(&b, "%s%s);\n", LF_CPP_PREFIX, value);
    else
        pc_sb_append(&b, "    // no runtime options\n");
    pc_sb_append(&b,
                 "    Tensor dy(DT_FP32, {1, 64}, \"dy\");\n"
                 "    Tensor weight(DT_FP32, {64, 64}, \"weight\");\n"
                 "    FUNCTION(\"k_tmp\", {dy, weight}, {}) {\n"
                 "        Tensor tmpAssemble(DT_FP32, {1, 64, 1, 16}, \"tmp_assemble\");\n"
                 "        Tensor tmpExclusive(DT_FP32, {1, 64, 1, 16}, \"tmp_exclusive\");\n"
                 "        LOOP(\"l_loop_1\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 64, 1)) {\n"
                 "            Tensor dx = Matrix::Matmul(DT_FP32, dy, weight);\n"
                 "            Assemble(dx, {0, j, 0, 0}, tmpAssemble);\n"
                 "            tmpExclusive = dx;\n"
                 "        }\n"
                 "    }\n"
                 "}\n");
    return pc_sb_take(&b);
}

static pc_loc lf_loc(lf *f, uint32_t line, uint32_t col, uint32_t end_col)
{
    return pc_model_loc(f->m, NULL, line, col, end_col ? line : 0, end_col);
}

/* A list value [a, b, c] of ints at (line, col) spanning `width` bytes. */
static void lf_set_list(lf *f, pc_optval *v, const int64_t *items, int n, pc_loc loc)
{
    v->kind = PC_OPT_LIST;
    v->nitems = n;
    v->items = pc_arena_alloc(f->m->arena, (size_t)(n ? n : 1) * sizeof(pc_optval));
    for (int i = 0; i < n; i++) {
        v->items[i].kind = PC_OPT_INT;
        v->items[i].i = items[i];
    }
    v->loc = loc;
}

/* The model: one kernel `k_tmp`, in Python (lang PC_LANG_PYTHON) or C++; when `value` is not
 * NULL the pool option is set to the list `triple` written as `value` on line 3. */
static void lf_init_at(lf *f, const char *file, pc_lang lang, const char *value, const int64_t *triple)
{
    memset(f, 0, sizeof *f);
    f->headroom = 1;
    bool py = lang == PC_LANG_PYTHON;
    f->src = py ? lf_python_source(value) : lf_cpp_source(value);
    f->len = strlen(f->src);
    f->m = pc_model_new(file ? file : py ? "k.py" : "k.cpp", lang);
    int k = pc_model_add_kernel(f->m, "k_tmp", py ? lf_loc(f, 7, 1, 0) : lf_loc(f, 6, 5, 0));
    pc_kernel *K = &f->m->kernels[k];
    K->insert_loc = py ? lf_loc(f, 6, 1, 0) : lf_loc(f, 6, 5, 0);
    static const struct { const char *var, *name; pc_tensor_kind kind; uint32_t py_line, py_col, cpp_line, cpp_col; } t[] = {
        {"dy", "dy", PC_TENSOR_PARAM, 7, 11, 4, 12},
        {"weight", "weight", PC_TENSOR_PARAM, 7, 15, 5, 12},
        {"tmp_assemble", "tmp_assemble", PC_TENSOR_CREATED, 8, 5, 7, 16},
        {"tmp_exclusive", "tmp_exclusive", PC_TENSOR_CREATED, 9, 5, 8, 16},
        {"dx", "dx", PC_TENSOR_VALUE, 11, 9, 10, 20},
    };
    for (int i = 0; i < LF_NTENSORS; i++) {
        int id = pc_kernel_add_tensor(f->m, K, t[i].var, t[i].kind,
                                      py ? lf_loc(f, t[i].py_line, t[i].py_col, 0)
                                         : lf_loc(f, t[i].cpp_line, t[i].cpp_col, 0));
        K = &f->m->kernels[k];
        K->tensors[id].name = pc_model_strdup(f->m, t[i].name);
        K->tensors[id].dtype = PC_DT_FP32;
    }
    int l = pc_kernel_add_loop(f->m, K, "l_loop_1", py ? lf_loc(f, 10, 5, 0) : lf_loc(f, 9, 9, 0));
    K = &f->m->kernels[k];
    K->loops[l].header = py ? lf_loc(f, 10, 5, 63) : lf_loc(f, 9, 9, 80);
    K->loops[l].begin = pc_expr_int(f->m->arena, 0);
    K->loops[l].end = pc_expr_int(f->m->arena, 64);
    K->loops[l].step = pc_expr_int(f->m->arena, 1);
    if (value) {
        const char *prefix = py ? LF_PY_PREFIX : LF_CPP_PREFIX;
        uint32_t col = (uint32_t)strlen(prefix) + 1;
        int o = pc_model_add_option(f->m, PC_KEY_POOL, py ? PC_SITE_SET_RUNTIME_OPTIONS : PC_SITE_CPP_SET_RUNTIME_OPTION,
                                    lf_loc(f, 3, py ? 1 : 5, col + (uint32_t)strlen(value) + 1));
        lf_set_list(f, &f->m->options[o].value, triple, 3, lf_loc(f, 3, col, col + (uint32_t)strlen(value)));
    }
}

static inline void lf_init(lf *f, pc_lang lang, const char *value, const int64_t *triple)
{
    lf_init_at(f, NULL, lang, value, triple);
}

/* A second kernel (same tensors, no loop) for multi-kernel cases. */
static inline int lf_add_kernel(lf *f, const char *name, uint32_t line)
{
    int k = pc_model_add_kernel(f->m, name, lf_loc(f, line, 1, 0));
    pc_kernel *K = &f->m->kernels[k];
    K->insert_loc = lf_loc(f, line, 1, 0);
    for (int i = 0; i < LF_NTENSORS; i++) {
        const pc_tensor *src = &f->m->kernels[0].tensors[i];
        int id = pc_kernel_add_tensor(f->m, K, src->variable, src->kind, lf_loc(f, line, 1, 0));
        K = &f->m->kernels[k];
        K->tensors[id].name = src->name;
        K->tensors[id].dtype = PC_DT_FP32;
    }
    return k;
}

/* The seed example's result for kernel k (see the header comment). */
static pc_result *lf_result(lf *f, int k)
{
    pc_result *r = calloc(1, sizeof *r);
    r->arena = pc_arena_new();
    r->model = f->m;
    r->kernel = &f->m->kernels[k];
    r->ntensors = LF_NTENSORS;
    r->tensors = pc_arena_alloc(r->arena, LF_NTENSORS * sizeof *r->tensors);
    static const struct { pc_pool pool; int64_t bytes; const char *reason; } t[] = {
        {PC_POOL_NONE, 4096, "kernel parameter"},
        {PC_POOL_NONE, 1024, "kernel parameter"},
        {PC_POOL_ASSEMBLE, 4096, "created in the kernel body, assembled in l_loop_1, read later"},
        {PC_POOL_EXCLUSIVE, 4096, "written whole by l_loop_1 and read by another root"},
        {PC_POOL_ROOT_INNER, 64, "matmul result read by a vector op in the same root"},
    };
    for (int i = 0; i < LF_NTENSORS; i++) {
        r->tensors[i].tensor = i;
        r->tensors[i].pool = t[i].pool;
        r->tensors[i].bytes = t[i].bytes;
        r->tensors[i].aligned_bytes = pc_align_up(t[i].bytes, 512);
        r->tensors[i].reason = t[i].reason;
        r->tensors[i].root = -1;
    }
    const int64_t pred[3] = {64, 1, 1}, req[3] = {1, 1, 1}, sug[3] = {64, 2, 1};
    for (int i = 0; i < 3; i++) {
        r->predicted[i] = pred[i];
        r->bounds[i] = pred[i];
        r->required[i] = req[i];
        r->suggested[i] = sug[i];
        r->needed[i] = true;
        r->why[i].task = -1;
    }
    r->k = 128;
    r->parallelism = 1;
    r->instances = 129;
    r->device_tasks = 2;
    r->unit_inner = 512;
    r->unit_excl = 4096;
    r->slot_size = 4096;
    r->n_assemble = 1;
    r->n_exclusive = 1;
    r->cross_task_assemble = pc_arena_alloc(r->arena, sizeof(int));
    r->cross_task_assemble[0] = LF_TMP_ASSEMBLE;
    r->ncross_task_assemble = 1;
    r->assemble_live_max = 1;
    return r;
}

/* Effective configuration of kernel k: the pool triple from option `src` (NULL: defaults). */
static void lf_config(lf *f, int k, const pc_option *src)
{
    pc_runtime_config *c = &f->cfg[k];
    pc_cfg_defaults(c);
    c->max_num = 128;
    c->parallelism = 1;
    if (src && src->value.kind == PC_OPT_LIST && src->value.nitems == 3) {
        for (int i = 0; i < 3; i++)
            c->pool[i] = src->value.items[i].i;
        c->src_pool = src;
    }
}

/* Fill in the derived numbers once predicted/suggested/configured are final. */
static void lf_finish(lf *f, int k)
{
    pc_result *r = f->r[k];
    pc_cfg_effective_pool(&f->cfg[k], r->configured);
    r->precise = pc_cfg_precise(&f->cfg[k]);
    int64_t kd[3] = {r->k, r->k, r->k};
    r->ws_predicted = pc_workspace_bytes(r, r->predicted, r->parallelism);
    r->ws_suggested = pc_workspace_bytes(r, r->suggested, r->parallelism);
    r->ws_required = pc_workspace_bytes(r, r->required, r->parallelism);
    r->ws_default = pc_workspace_bytes(r, kd, r->parallelism);
    r->ws_configured = pc_workspace_bytes(r, r->configured, r->parallelism);
}

/* The usual one-kernel setup: model, result, configuration from the source option. */
static void lf_setup_at(lf *f, const char *file, pc_lang lang, const char *value, const int64_t *triple)
{
    lf_init_at(f, file, lang, value, triple);
    f->r[0] = lf_result(f, 0);
    lf_config(f, 0, f->m->noptions ? &f->m->options[0] : NULL);
    lf_finish(f, 0);
}

static inline void lf_setup(lf *f, pc_lang lang, const char *value, const int64_t *triple)
{
    lf_setup_at(f, NULL, lang, value, triple);
}

static pc_diag_sink *lf_sink(lf *f)
{
    if (!f->s) {
        f->s = pc_diag_sink_new();
        pc_diag_set_source(f->s, f->m->file, f->src, f->len, f->m->lang);
    }
    return f->s;
}

static void lf_lint(lf *f)
{
    for (int k = 0; k < f->m->nkernels; k++)
        if (f->r[k])
            lf_finish(f, k);
    pc_lint_input in = {0};
    in.model = f->m;
    in.results = f->r;
    in.cfgs = f->cfg;
    in.ext_opts = f->ext;
    in.next_opts = f->next;
    in.assemble_headroom = f->headroom;
    pc_lint(lf_sink(f), &in);
}

static inline pc_file_result *lf_file_result(lf *f)
{
    f->fr.model = f->m;
    f->fr.results = f->r;
    f->fr.cfgs = f->cfg;
    f->fr.sink = lf_sink(f);
    f->fr.source = f->src;
    f->fr.source_len = f->len;
    f->frp = &f->fr;
    return f->frp;
}

static void lf_free(lf *f)
{
    for (int k = 0; k < 4; k++)
        if (f->r[k]) {
            pc_arena_free(f->r[k]->arena);
            free(f->r[k]);
        }
    pc_diag_sink_free(f->s);
    pc_model_free(f->m);
    pc_mem_free(f->src);
}

/* Diagnostics of one check (by id), and the first of them. */
static inline size_t lf_count(lf *f, const char *id)
{
    size_t n, c = 0;
    const pc_diag *d = pc_diag_items(lf_sink(f), &n);
    for (size_t i = 0; i < n; i++)
        c += d[i].id && strcmp(d[i].id, id) == 0;
    return c;
}

static inline const pc_diag *lf_find(lf *f, const char *id)
{
    size_t n;
    const pc_diag *d = pc_diag_items(lf_sink(f), &n);
    for (size_t i = 0; i < n; i++)
        if (d[i].id && strcmp(d[i].id, id) == 0)
            return &d[i];
    return NULL;
}

#endif
