/*
 * poolcheck/config.h - the runtime options that decide DeviceTasks and pool depths, and where
 * each one came from (spec docs/model.md section 8).
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
/* The largest pool depth and stitch_function_max_num the runtime accepts (upstream's
 * tile_fwk_config_schema.json); every depth poolcheck suggests or checks is at most this. */
#define PC_MAX_DEPTH 1024
/* k = min(stitch_function_max_num, PC_MAX_DEPTH) */
int64_t pc_cfg_k(const pc_runtime_config *c);
/* The triple the runtime uses: {k,k,k} unless precise. */
void pc_cfg_effective_pool(const pc_runtime_config *c, int64_t out[3]);

/* Validation of one option value as upstream does it.  Returns NULL when valid, else a
 * one-line reason (static or arena string) such as
 * "Invalid stitch_function_num_per_pool: '[64, True, 1]'. Each element must be an int in [0, 1024]."
 * Keys that are not modelled are valid here, whatever the value (an unknown key is
 * pc_cfg_runtime_key_known's question, not this one's). */
const char *pc_cfg_validate(pc_arena *a, const char *key, const pc_optval *v);
/* Apply one valid option to c (keeps a pointer to opt as provenance). */
void pc_cfg_apply(pc_runtime_config *c, const pc_option *opt);
/* The effective configuration for kernel `kernel` of m, given the options that come from
 * outside the source (config file first, command line last).
 * Order, later wins: defaults; file_opts from tile_fwk_config.json (and any other non-command-line
 * site), then from .poolcheck.json (PC_SITE_PROJECT_FILE), each in array order;
 * in the model, module-level set_runtime_options / set_options / C++ SetRuntimeOption outside any
 * FUNCTION (kernel == -1), then pypto.options(...) scopes, then jit(runtime_options=...) and C++
 * SetRuntimeOption of this kernel (each in source order); then cli_opts.  An option whose site is
 * PC_SITE_COMMAND_LINE is applied last even when it is passed in file_opts.  Options with
 * in_kernel set (PC005), invalid values (PC002/PC003), None and values poolcheck cannot evaluate
 * never apply. */
void pc_cfg_resolve(pc_runtime_config *c, const pc_model *m, int kernel,
                    const pc_option *file_opts, size_t nfile_opts,
                    const pc_option *cli_opts, size_t ncli_opts);

/* Parse a `--set KEY=VALUE` argument into opt (value as written: `64,1,1`, `[64,1,1]`, `true`,
 * `1.5`, `"abc"`).  Returns false with *err for a missing '='. Strings live in arena a. */
bool pc_cfg_parse_set(pc_arena *a, const char *arg, pc_option *opt, char **err);
/* Render a value as Python would print it: [64, True, 1], 'abc', 1.5 */
char *pc_cfg_value_text(pc_arena *a, const pc_optval *v);
/* The same with a top-level string unquoted (Python's str(), as f"'{value}'" in upstream
 * messages prints it): abc, [64, 'a'], 1.5 */
char *pc_cfg_value_str(pc_arena *a, const pc_optval *v);
/* True when v is a valid, fully known value for key that changes the configuration (what
 * pc_cfg_apply applies): not None, no element poolcheck cannot evaluate, pc_cfg_validate happy,
 * and key one of the four modelled options. */
bool pc_cfg_applicable(const char *key, const pc_optval *v);

/* ---- option names (keys.c) ------------------------------------------------------------------ */
/* Upstream's runtime option names, in a fixed order (the four above among them); returns how many
 * and, when keys is not NULL, points it at them (static). */
size_t pc_cfg_runtime_keys(const char *const **keys);
/* Is key a runtime option upstream has?  Every runtime option site takes only these: upstream
 * refuses any other key ("key: runtime.<key> does not exist."), so one that is not known is PC003.
 * Also true for the C++ frontend's spelling of an unread key constant of upstream's whose name is
 * not its key (cfg_run_mode for CFG_RUN_MODE). */
bool pc_cfg_runtime_key_known(const char *key);
/* The runtime option name nearest to key (pc_cfg_nearest's rule), or NULL when none is near. */
const char *pc_cfg_runtime_key_nearest(const char *key);
/* Where a name of one of upstream's other option sections is set, for "'X' is a pass option". */
typedef struct pc_cfg_key_home {
    const char *section;  /* "pass", "host", "codegen", "verify", "debug", "operation" */
    const char *python;   /* "pypto.set_pass_options" */
    const char *cpp;      /* "config::SetPassOption" */
} pc_cfg_key_home;
/* The other section that has key, or NULL (static). */
const pc_cfg_key_home *pc_cfg_key_home_of(const char *key);
/* Did you mean: the candidate nearest to word by optimal-string-alignment distance (Levenshtein
 * plus a swap of neighbours), when at most max_distance edits away; max_distance < 0 takes clang's
 * bound for typo correction, (strlen(word) + 2) / 3.  The first of equally near candidates wins;
 * a candidate equal to word is returned (distance 0).  NULL when none is near enough. */
const char *pc_cfg_nearest(const char *word, const char *const *candidates, size_t n, int max_distance);

/* ---- tile_fwk_config.json ------------------------------------------------------------------ */
/* Its "runtime" object, each entry one option (site PC_SITE_CONFIG_FILE, kernel -1) with the
 * value converted from JSON (array -> LIST, true/false -> BOOL, integral number -> INT, other
 * number -> FLOAT, string -> STRING, null -> NONE, object -> UNKNOWN) and locations in the file
 * (option loc: from the key to the end of the value; value loc: the value's extent).  Other
 * sections of the file are not read.  Everything lives in the result's arena. */
typedef struct pc_config_file {
    pc_arena *arena;
    const char *path;
    pc_option *options;
    size_t noptions;
} pc_config_file;

/* Read and parse path.  NULL on failure, with a message in *err (pc_mem_free it):
 * "cannot open 'x': No such file or directory", or "path:3:7: expected ',' or '}', found ..."
 * for a syntax error (strict JSON) or a "runtime" section that is not an object. */
pc_config_file *pc_cfg_load_config_file(const char *path, char **err);
/* The same from text (path names the file in locations and messages). */
pc_config_file *pc_cfg_parse_config_file(const char *path, const char *text, size_t len, char **err);
void pc_cfg_config_file_free(pc_config_file *f);

/* ---- .poolcheck.json (project file) --------------------------------------------------------- */
#define PC_PROJECT_FILE_NAME ".poolcheck.json"

/* Fields absent from the file are NULL / 0 with has_* false.  Unknown fields are an error. */
typedef struct pc_project_config {
    pc_arena *arena;
    const char *path;              /* the project file */
    const char *dir;               /* its directory (relative paths in it are relative to this) */
    const char *checks;            /* "checks": --checks globs */
    const char *warnings_as_errors;/* "warnings_as_errors": --warnings-as-errors globs */
    pc_bindings *binding_sets;     /* "bindings": {name: int} (one set) or [{...}, ...] (several) */
    size_t nbinding_sets;
    const char *config_path;       /* "config": tile_fwk_config.json, resolved against dir */
    pc_option *options;            /* "runtime": options, site PC_SITE_PROJECT_FILE, kernel -1 */
    size_t noptions;
    const char *inner_policy;      /* "inner_policy": "boundary" or "all" (validated) */
    bool has_assemble_headroom;
    int64_t assemble_headroom;     /* "assemble_headroom": integer 0..1024 */
    const char **exclude;          /* "exclude": globs */
    size_t nexclude;
    const char **python_path;      /* "python_path": module search directories, resolved against dir */
    size_t npython_path;
    /* "extend": the project file this one builds on (kept alive by it); every field this file does
     * not give is that file's, and its runtime options apply before this file's */
    struct pc_project_config *extends;
    const char *extends_path;      /* "extend" as written */
    const char *binding_sets_path; /* the file binding_sets come from when inherited, else NULL (path) */
    bool given_exclude, given_python_path; /* the file gives them (an empty list too) */
} pc_project_config;

/* The nearest project file for an analysed path: PC_PROJECT_FILE_NAME in the path's directory
 * (the path itself when it is a directory), then each parent up to the filesystem root.
 * Returns the path (pc_mem_free it) or NULL when there is none. */
char *pc_cfg_find_project(const char *analysed_path);
/* Read and parse a project file.  NULL on failure with a "path:line:col: message" in
 * *err (pc_mem_free it), e.g. ".poolcheck.json:3:3: unknown field \"chekcs\", expected one of ...". */
pc_project_config *pc_cfg_load_project(const char *path, char **err);
pc_project_config *pc_cfg_parse_project(const char *path, const char *text, size_t len, char **err);
void pc_cfg_project_free(pc_project_config *p);

#ifdef __cplusplus
}
#endif
#endif
