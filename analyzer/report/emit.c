/*
 * emit.c - pc_rep_emit_config: the runtime configuration that gives every analysed kernel its
 * suggested depths (docs/model.md section 6), as a tile_fwk_config.json "runtime" fragment, a Python
 * set_runtime_options line or a C++ config::SetRuntimeOption line.
 *
 * One configuration serves every kernel it is given (a module-level option applies to all of
 * them), so the depths are the element-wise maximum; binding sets are already folded into each
 * result (its predicted depths are the maximum over the sets).
 */
#include "report/report_int.h"

#include <string.h>

#include "poolcheck/config.h"

/* The suggested depths of one kernel for `headroom` assemble slots: the predicted depth (the
 * bound when it is unknown), + headroom on a needed assemble pool, never 0 where needed; for a
 * kernel with unmodelled code (pc_result.suggestion_floor), a pool its modelled part does not need
 * keeps the depth in force, as in pc_result.suggested. */
static void suggested(const pc_result *r, int64_t headroom, int64_t out[3])
{
    for (int i = 0; i < 3; i++) {
        if (r->suggestion_floor && !r->needed[i]) {
            out[i] = r->suggested[i];
            continue;
        }
        int64_t d = r->predicted[i] >= 0 ? r->predicted[i] : r->bounds[i];
        if (d < 0)
            d = r->k > 0 ? r->k : 128;
        if (r->needed[i] && i == PC_POOL_ASSEMBLE && headroom > 0)
            d += headroom;
        if (r->needed[i] && d < 1)
            d = 1;
        if (!r->needed[i])
            d = 0;
        out[i] = d > PC_MAX_DEPTH ? PC_MAX_DEPTH : d;
    }
}

#define INCOMPLETE                                                                                     \
    "the suggestion is incomplete: the kernel has code poolcheck did not model (PC012), so the depths "  \
    "are what its modelled part needs, at least, and a pool that part does not use keeps the depth it " \
    "runs with"

static void comment_lines(pc_sb *b, const char *lead, pc_file_result *const *files, size_t n,
                          const int64_t depths[3], int nkernels, bool bounded)
{
    pc_sb_printf(b, "%s poolcheck: %s=[%lld, %lld, %lld] for %d kernel%s\n", lead, PC_KEY_POOL,
                 (long long)depths[0], (long long)depths[1], (long long)depths[2], nkernels,
                 nkernels == 1 ? "" : "s");
    for (size_t f = 0; f < n; f++) {
        const pc_file_result *fr = files[f];
        if (!fr->results || !fr->model)
            continue;
        for (int k = 0; k < fr->model->nkernels; k++) {
            const pc_result *r = fr->results[k];
            if (!r)
                continue;
            int64_t at = pc_workspace_bytes(r, depths, r->parallelism);
            if (at >= 0 && r->ws_default >= 0)
                pc_sb_printf(b,
                             "%s   %s (%s:%u): %lld bytes of workspace instead of %lld with the "
                             "default [%lld, %lld, %lld]: saves %lld bytes\n",
                             lead, r->kernel->name, fr->model->file, r->kernel->loc.line,
                             (long long)at, (long long)r->ws_default, (long long)r->k,
                             (long long)r->k, (long long)r->k, (long long)(r->ws_default - at));
            else
                pc_sb_printf(b, "%s   %s (%s:%u): workspace bytes unknown (bind %s)\n", lead,
                             r->kernel->name, fr->model->file, r->kernel->loc.line,
                             r->nunknowns ? r->unknowns[0] : "the dynamic dims");
            if (r->suggestion_floor)
                pc_sb_printf(b, "%s   %s: %s\n", lead, r->kernel->name, INCOMPLETE);
        }
    }
    if (bounded)
        pc_sb_printf(b, "%s   some depths are upper bounds: bind the symbols PC008 names for exact ones\n",
                     lead);
}

char *pc_rep_emit_config(pc_file_result *const *files, size_t n, const char *kind, int64_t headroom)
{
    if (!kind)
        return NULL;
    bool json = strcmp(kind, "json") == 0, py = strcmp(kind, "python") == 0,
         cpp = strcmp(kind, "cpp") == 0;
    if (!json && !py && !cpp)
        return NULL;
    int64_t depths[3] = {0, 0, 0};
    int nkernels = 0;
    bool bounded = false;
    for (size_t f = 0; f < n; f++) {
        const pc_file_result *fr = files[f];
        if (!fr || !fr->results || !fr->model)
            continue;
        for (int k = 0; k < fr->model->nkernels; k++) {
            const pc_result *r = fr->results[k];
            if (!r)
                continue;
            int64_t s[3];
            suggested(r, headroom, s);
            for (int i = 0; i < 3; i++) {
                if (s[i] > depths[i])
                    depths[i] = s[i];
                bounded |= r->needed[i] && r->predicted[i] < 0;
            }
            nkernels++;
        }
    }
    pc_sb b = {0};
    if (json) {
        pc_sb_printf(&b, "{\n  \"runtime\": {\n    \"%s\": [%lld, %lld, %lld]\n  }\n}\n", PC_KEY_POOL,
                     (long long)depths[0], (long long)depths[1], (long long)depths[2]);
    } else if (py) {
        comment_lines(&b, "#", files, n, depths, nkernels, bounded);
        pc_sb_printf(&b, "pypto.experimental.set_runtime_options(%s=[%lld, %lld, %lld])\n", PC_KEY_POOL,
                     (long long)depths[0], (long long)depths[1], (long long)depths[2]);
    } else {
        comment_lines(&b, "//", files, n, depths, nkernels, bounded);
        pc_sb_printf(&b, "config::SetRuntimeOption(\"%s\", std::vector<int64_t>{%lld, %lld, %lld});\n",
                     PC_KEY_POOL, (long long)depths[0], (long long)depths[1], (long long)depths[2]);
    }
    return pc_sb_take(&b);
}

char *pc_rep_emit_caveats(pc_file_result *const *files, size_t n)
{
    pc_sb b = {0};
    for (size_t f = 0; f < n; f++) {
        const pc_file_result *fr = files[f];
        if (!fr || !fr->results || !fr->model)
            continue;
        for (int k = 0; k < fr->model->nkernels; k++)
            if (fr->results[k] && fr->results[k]->suggestion_floor)
                pc_sb_printf(&b, "%s:%u: warning: kernel %s: %s [PC012]\n", fr->model->file,
                             fr->model->kernels[k].loc.line, fr->model->kernels[k].ref, INCOMPLETE);
    }
    return pc_sb_take(&b);
}
