/* keys.c - the option names upstream knows, and the nearest one to a name it does not.
 *
 * A runtime option site (set_runtime_options, runtime_options={...}, config::SetRuntimeOption, the
 * "runtime" section of tile_fwk_config.json, .poolcheck.json, --set) takes only runtime option
 * names: upstream prefixes the key with "runtime." and refuses one the section does not have
 * ("key: runtime.<key> does not exist.", config_manager_ng.cpp SetScope).  So a misspelled key is
 * not a harmless extra: the option the user meant stays at its default, and PC003 says so, with
 * the nearest runtime name.  The names are upstream's (framework/src/interface/configs/:
 * tile_fwk_config.json, tile_fwk_config_schema.json and the key constants of config_manager_ng.h;
 * stitch_function_num_per_pool from the runtime that has the pools, docs/model.md section 8).  The
 * other sections' names tell a misplaced option (a pass option given as a runtime one) from a typo.
 */
#include "poolcheck/config.h"

#include <string.h>

static const char *const runtime_keys[] = {
    "device_sched_mode",
    "run_mode",
    PC_KEY_MAX_NUM,
    PC_KEY_WORKSPACE_KB,
    PC_KEY_POOL,
    "valid_shape_optimize",
    "ready_on_host_tensors",
    PC_KEY_PARALLELISM,
    "launch_sched_aicpu_num",
    "launch_early_mode",
};

/* The C++ frontend spells a key written as a constant it cannot read as the constant's name in
 * lower case (frontend/clang/clang_options.c); two of upstream's runtime constants are not named
 * after their key, and read that way they are still those keys, not typos. */
static const char *const constant_spellings[][2] = {
    {"cfg_run_mode", "run_mode"},                         /* CFG_RUN_MODE */
    {"cfg_valid_shape_optimize", "valid_shape_optimize"}, /* CFG_VALID_SHAPE_OPTIMIZE */
};

static const char *const pass_keys[] = {
    "pg_parallel_lower_bound", "pg_lower_bound", "pg_partition_algorithm", "mg_copyin_upper_bound",
    "mg_vec_parallel_lb", "copyout_resolve_coalescing", "auto_mix_partition", "sg_set_tunevf_mode",
    "enable_slice", "sg_set_scope", "sg_set_ooo_scope", "ooo_sched_mode", "ooo_sort_mode_aic",
    "ooo_sort_mode_aiv", "ooo_preschedule_method", "sg_cube_parallel_num", "db_type",
    "cube_l1_reuse_setting", "cube_l1_reuse_setting_by_func", "cube_l1_reuse_setting_by_label",
    "cube_nbuffer_setting", "cube_nbuffer_setting_by_func", "cube_nbuffer_setting_by_label",
    "vec_nbuffer_setting", "vec_nbuffer_setting_by_func", "vec_nbuffer_setting_by_label", NULL};
static const char *const host_keys[] = {"compile_stage", "compile_monitor_enable", "compile_timeout",
                                        "compile_timeout_stage", "compile_monitor_print_interval", NULL};
static const char *const codegen_keys[] = {"support_dynamic_aligned", "soc_version", "enable_pmu_trace",
                                           "vf_options", "vf_compiler", NULL};
static const char *const verify_keys[] = {"enable_pass_verify", "pass_verify_save_tensor",
                                          "pass_verify_save_tensor_dir", "pass_verify_pass_filter",
                                          "pass_verify_error_tol", NULL};
static const char *const debug_keys[] = {"compile_debug_mode", "runtime_debug_mode", "dump_pass_graph", NULL};
static const char *const operation_keys[] = {"combine_axis", NULL};

typedef struct section {
    pc_cfg_key_home home;
    const char *const *keys;
} section;

static const section sections[] = {
    {{"pass", "pypto.set_pass_options", "config::SetPassOption"}, pass_keys},
    {{"host", "pypto.set_host_options", "config::SetHostOption"}, host_keys},
    {{"codegen", "pypto.set_codegen_options", "config::SetCodeGenOption"}, codegen_keys},
    {{"verify", "pypto.set_verify_options", "config::SetVerifyOption"}, verify_keys},
    {{"debug", "pypto.set_debug_options", "config::SetDebugOption"}, debug_keys},
    {{"operation", "pypto.options(operation_options=...)", "config::SetOperationOption"}, operation_keys},
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

size_t pc_cfg_runtime_keys(const char *const **keys)
{
    if (keys)
        *keys = runtime_keys;
    return COUNT(runtime_keys);
}

bool pc_cfg_runtime_key_known(const char *key)
{
    if (!key)
        return false;
    for (size_t i = 0; i < COUNT(runtime_keys); i++)
        if (strcmp(runtime_keys[i], key) == 0)
            return true;
    for (size_t i = 0; i < COUNT(constant_spellings); i++)
        if (strcmp(constant_spellings[i][0], key) == 0)
            return true;
    return false;
}

const pc_cfg_key_home *pc_cfg_key_home_of(const char *key)
{
    if (!key)
        return NULL;
    for (size_t s = 0; s < COUNT(sections); s++)
        for (const char *const *k = sections[s].keys; *k; k++)
            if (strcmp(*k, key) == 0)
                return &sections[s].home;
    return NULL;
}

const char *pc_cfg_runtime_key_nearest(const char *key)
{
    return pc_cfg_nearest(key, runtime_keys, COUNT(runtime_keys), -1);
}

/* ---- did you mean ------------------------------------------------------------------------------ */

enum { NEAREST_MAX_LEN = 128 };

/* Optimal string alignment distance (Levenshtein plus the swap of two neighbouring characters, so
 * "chekcs" is one edit from "checks", as a typist sees it), or limit + 1 as soon as every path
 * through the table exceeds limit. */
static int osa_distance(const char *a, size_t la, const char *b, size_t lb, int limit)
{
    int rows[3][NEAREST_MAX_LEN + 1];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        int row_min = cur[0];
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int d = prev[j - 1] + cost;
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
            if (d < row_min)
                row_min = d;
        }
        if (row_min > limit)
            return limit + 1;
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

const char *pc_cfg_nearest(const char *word, const char *const *candidates, size_t n, int max_distance)
{
    if (!word || !candidates)
        return NULL;
    size_t lw = strlen(word);
    if (lw == 0 || lw > NEAREST_MAX_LEN)
        return NULL;
    /* clang's bound for typo correction: about one edit per three characters typed */
    int limit = max_distance >= 0 ? max_distance : (int)(lw + 2) / 3;
    const char *best = NULL;
    int best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        const char *c = candidates[i];
        if (!c)
            continue;
        size_t lc = strlen(c);
        if (lc > NEAREST_MAX_LEN || (lc > lw ? lc - lw : lw - lc) >= (size_t)best_d)
            continue; /* the length difference alone is too many edits */
        int d = osa_distance(word, lw, c, lc, best_d - 1);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}
