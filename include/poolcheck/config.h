/*
 * poolcheck/config.h - the runtime options that decide DeviceTasks and pool depths, and where
 * each one came from (spec model.md section 8).
 *
 * Sources, later wins: defaults -> tile_fwk_config.json "runtime" -> module-level
 * set_runtime_options / set_options -> options(...) scope -> jit(runtime_options=...) / C++
 * config::SetRuntimeOption (source order) -> --set.  Invalid values never apply (PC002/PC003 report
 * them); the value in force stays the previous valid one.
 */
#ifndef POOLCHECK_CONFIG_H
#define POOLCHECK_CONFIG_H

#include "poolcheck/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PC_KEY_MAX_NUM "stitch_function_max_num"
#define PC_KEY_WORKSPACE_KB "max_workspace_kb"
#define PC_KEY_POOL "stitch_function_num_per_pool"
#define PC_KEY_PARALLELISM "device_sched_parallelism"

typedef struct pc_runtime_config {
    int64_t max_num;          /* stitch_function_max_num, default 128 */
    int64_t workspace_kb;     /* max_workspace_kb, default 0 (off) */
    int64_t pool[3];          /* stitch_function_num_per_pool, default {0,0,0} */
    int64_t parallelism;      /* device_sched_parallelism, default 1 */
    /* Where the value in force was set; NULL = built-in default. */
    const pc_option *src_max_num, *src_workspace_kb, *src_pool, *src_parallelism;
} pc_runtime_config;

void pc_cfg_defaults(pc_runtime_config *c);
/* Precise mode: any element of the pool triple is non-zero. */
bool pc_cfg_precise(const pc_runtime_config *c);
/* k = min(stitch_function_max_num, 1024) */
int64_t pc_cfg_k(const pc_runtime_config *c);
/* The triple the runtime uses: {k,k,k} unless precise. */
void pc_cfg_effective_pool(const pc_runtime_config *c, int64_t out[3]);

/* Validation of one option value as upstream does it.  Returns NULL when valid, else a
 * one-line reason (static or arena string) such as
 * "Invalid stitch_function_num_per_pool: '[64, True, 1]'. Each element must be an int in [0, 1024]."
 * Unknown keys are valid (poolcheck does not police options it does not model). */
const char *pc_cfg_validate(pc_arena *a, const char *key, const pc_optval *v);
/* Apply one valid option to c (keeps a pointer to opt as provenance). */
void pc_cfg_apply(pc_runtime_config *c, const pc_option *opt);
/* The effective configuration for kernel `kernel` of m, given the options that come from
 * outside the source (config file first, command line last). */
void pc_cfg_resolve(pc_runtime_config *c, const pc_model *m, int kernel,
                    const pc_option *file_opts, size_t nfile_opts,
                    const pc_option *cli_opts, size_t ncli_opts);

/* Parse a `--set KEY=VALUE` argument into opt (value as written: `64,1,1`, `[64,1,1]`, `true`,
 * `1.5`, `"abc"`).  Returns false with *err for a missing '='. Strings live in arena a. */
bool pc_cfg_parse_set(pc_arena *a, const char *arg, pc_option *opt, const char **err);
/* Render a value as Python would print it: [64, True, 1], 'abc', 1.5 */
char *pc_cfg_value_text(pc_arena *a, const pc_optval *v);

#ifdef __cplusplus
}
#endif
#endif
