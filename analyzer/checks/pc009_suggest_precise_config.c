/*
 * PC009 suggest-precise-config (note): precise mode is off; the suggested triple (the predicted
 * depths, plus the assemble headroom) and the workspace it saves against the default
 * [k, k, k] -- the numbers the upstream `[Workspace Runtime Recommendation]` log gives after a run,
 * before any run.  Silent when a depth is unknown (PC008 says why), when a loop never ends (step 0),
 * when no pool is needed, or when the suggestion saves nothing.
 *
 * Fix: rewrite an explicit [0, 0, 0] in place; else insert an options call.  In Python that is one
 * module-level set_runtime_options before the first such kernel, with the element-wise maximum
 * over them (module-level options apply to every kernel compiled later); in C++ a
 * config::SetRuntimeOption before each FUNCTION, with that kernel's triple (source order).
 *
 * A kernel with code poolcheck did not model (a PC012: clang rejected a statement, a host loop
 * modelled once, ...) gets a suggestion that is only a floor: a pool the modelled part does not
 * use may be needed by the part left out, so it keeps the depth it runs with now instead of 0
 * (which would make the kernel fail to compile), and the note says the suggestion is incomplete.
 */
#include "checks/checks_int.h"

#include <string.h>

/* Does the source set the pool option for kernel k somewhere, valid or not?  Then the fix belongs
 * to that option (PC002 rewrites an invalid one), not to a new call. */
static bool has_pool_site(const pc_chk_ctx *c, int k)
{
    for (int i = 0; i < c->model->noptions; i++) {
        const pc_option *o = &c->model->options[i];
        if (strcmp(o->key, PC_KEY_POOL) == 0 && !o->in_kernel && (o->kernel < 0 || o->kernel == k))
            return true;
    }
    return false;
}

/* The triple to suggest for kernel k: its suggested depths (the analysis already keeps the depth
 * in force on a pool the modelled part does not need, when code was left out).  Returns true when
 * the triple is such a floor. */
static bool suggestion(const pc_chk_ctx *c, int k, int64_t out[3])
{
    const pc_result *r = pc_chk_result(c, k);
    for (int i = 0; i < 3; i++)
        out[i] = r->suggested[i];
    return r->suggestion_floor;
}

static bool wants_suggestion(const pc_chk_ctx *c, int k)
{
    const pc_result *r = pc_chk_result(c, k);
    const pc_runtime_config *cfg = pc_chk_cfg(c, k);
    if (!r || pc_cfg_precise(cfg))
        return false;
    if (!r->needed[0] && !r->needed[1] && !r->needed[2])
        return false;
    /* A loop with step 0 never ends (an error of its own): the depths counted for its one pass are
     * not a kernel's depths, so there is no exact triple to suggest. */
    if (r->nzero_step_loops > 0)
        return false;
    for (int i = 0; i < 3; i++)
        if (r->predicted[i] < 0)
            return false;
    int64_t s[3];
    suggestion(c, k, s);
    int64_t ws = r->ws_suggested >= 0 ? pc_workspace_bytes(r, s, r->parallelism) : -1;
    if (r->ws_default >= 0 && ws >= 0 && ws >= r->ws_default)
        return false;
    return true;
}

/* "; the suggestion is incomplete: ..." for a kernel with unmodelled code ("" otherwise). */
static const char *incomplete_tail(pc_chk_ctx *c, int k, const int64_t s[3])
{
    const pc_result *r = pc_chk_result(c, k);
    if (!r->suggestion_floor)
        return "";
    int kept[3], n = 0;
    for (int i = 0; i < 3; i++)
        if (!r->needed[i])
            kept[n++] = i;
    pc_sb b = {0};
    pc_sb_printf(&b, "; the suggestion is incomplete: kernel %s has code poolcheck did not model (PC012), so "
                     "the depths are what its modelled part needs, at least",
                 c->model->kernels[k].ref);
    for (int j = 0; j < n; j++)
        pc_sb_printf(&b, "%s%s", j == 0 ? ", and " : j == n - 1 ? " and " : ", ", pc_pool_name((pc_pool)kept[j]));
    if (n == 1)
        pc_sb_printf(&b, ", which that part does not use, keeps the depth it runs with (%lld): the code left out "
                         "may need it", (long long)s[kept[0]]);
    else if (n > 1) {
        pc_sb_printf(&b, ", which that part does not use, keep the depths they run with (");
        for (int j = 0; j < n; j++)
            pc_sb_printf(&b, "%s%lld", j ? ", " : "", (long long)s[kept[j]]);
        pc_sb_printf(&b, "): the code left out may need them");
    }
    const char *t = pc_arena_strdup(c->arena, b.data ? b.data : "");
    pc_sb_free(&b);
    return t;
}

void pc_chk_suggest_precise_config(pc_chk_ctx *c)
{
    /* Python: one insertion point and triple for the whole module. */
    int first = -1;
    int64_t module_triple[3] = {0, 0, 0};
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        if (!wants_suggestion(c, k))
            continue;
        if (first < 0)
            first = k;
        int64_t t[3];
        suggestion(c, k, t);
        for (int i = 0; i < 3; i++)
            if (t[i] > module_triple[i])
                module_triple[i] = t[i];
    }
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        if (!wants_suggestion(c, k))
            continue;
        const pc_result *r = pc_chk_result(c, k);
        const pc_runtime_config *cfg = pc_chk_cfg(c, k);
        const pc_kernel *kern = &c->model->kernels[k];
        const pc_option *src = cfg->src_pool; /* an explicit [0, 0, 0], if any */
        pc_loc at = pc_chk_primary(src, kern);
        int64_t deflt[3], triple[3];
        pc_cfg_effective_pool(cfg, deflt);
        suggestion(c, k, triple);
        int64_t ws = r->ws_suggested >= 0 ? pc_workspace_bytes(r, triple, r->parallelism) : -1;
        const char *tail = incomplete_tail(c, k, triple);
        pc_diag *d;
        if (r->ws_default >= 0 && ws >= 0)
            d = pc_diag_report(c->sink, PC_CHK_SUGGEST_PRECISE_CONFIG, at, kern->name,
                               "kernel %s runs with the default pool depths %s (%lld bytes of "
                               "workspace); %s=%s (predicted %s) needs %lld bytes and saves %lld%s",
                               kern->ref, pc_chk_triple(c, deflt), (long long)r->ws_default,
                               PC_KEY_POOL, pc_chk_triple(c, triple),
                               pc_chk_triple(c, r->predicted), (long long)ws,
                               (long long)(r->ws_default - ws), tail);
        else
            d = pc_diag_report(c->sink, PC_CHK_SUGGEST_PRECISE_CONFIG, at, kern->name,
                               "kernel %s runs with the default pool depths %s; %s=%s (predicted "
                               "%s) keeps its parallelism with less workspace%s",
                               kern->ref, pc_chk_triple(c, deflt), PC_KEY_POOL,
                               pc_chk_triple(c, triple), pc_chk_triple(c, r->predicted), tail);
        if (!d)
            continue;
        if (src) {
            pc_chk_note_option(c, d, src, at);
            int64_t fix[3];
            if (pc_chk_suggest_for_option(c, src, fix)) {
                /* the kernels this option configures: none of them below its own floor */
                for (int q = 0; q < pc_chk_nkernels(c); q++) {
                    int64_t t[3];
                    if (pc_chk_result(c, q) && pc_chk_cfg(c, q)->src_pool == src && suggestion(c, q, t))
                        for (int i = 0; i < 3; i++)
                            fix[i] = t[i] > fix[i] ? t[i] : fix[i];
                }
                pc_chk_fix_pool_value(c, d, src, fix);
            }
        } else if (has_pool_site(c, k)) {
            /* an option the runtime rejects: PC002 carries the fix */
        } else if (c->model->lang == PC_LANG_CPP) {
            pc_chk_fix_insert_call(c, d, kern, triple);
        } else {
            pc_chk_fix_insert_call(c, d, &c->model->kernels[first], module_triple);
        }
    }
}
