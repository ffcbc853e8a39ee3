/*
 * poolcheck/driver.h - the one-call driver: one file through the whole pipeline (source ->
 * frontend -> model -> analysis -> checks), with the options from outside the source layered the
 * same way for every front door.  The CLI, the LSP server and the compiler launcher all go
 * through it, so they agree.
 */
#ifndef POOLCHECK_DRIVER_H
#define POOLCHECK_DRIVER_H

#include "poolcheck/analysis.h"
#include "poolcheck/bind.h"
#include "poolcheck/config.h"
#include "poolcheck/diag.h"
#include "poolcheck/frontend.h"
#include "poolcheck/model.h"
#include "poolcheck/support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything that shapes one file's analysis; the caller owns every pointer. */
typedef struct pc_check_opts {
    pc_parse_opts parse;
    pc_analysis_opts analysis;
    const pc_option *ext_opts;   /* tile_fwk_config.json / .poolcheck.json / --set, in that order */
    size_t next_opts;
    const char *checks;          /* --checks globs, NULL = all */
    const char *werror;          /* --warnings-as-errors globs, NULL = none */
    bool show_parse_errors;      /* clang's own errors in stub mode */
} pc_check_opts;

void pc_check_opts_init(pc_check_opts *o);

/* ---- options from outside the source, in layers ------------------------------------------------
 * Every front door (CLI, LSP server, compiler launcher) builds a file's pc_check_opts the same way:
 * what the user gave explicitly wins; the governing .poolcheck.json fills the rest; runtime options
 * come in precedence order tile_fwk_config.json -> project "runtime" -> --set. */

/* Project files and tile_fwk_config.json files, each loaded once per cache. */
typedef struct pc_config_cache pc_config_cache;
pc_config_cache *pc_config_cache_new(void);
void pc_config_cache_free(pc_config_cache *c);
/* The project file governing path: `explicit_file` when given, else the nearest .poolcheck.json
 * (none when `lookup` is false).  *found = NULL when there is none.  Returns false with a
 * located message in *err (pc_mem_free it) when the file is broken. */
bool pc_config_cache_project(pc_config_cache *c, const char *path, const char *explicit_file, bool lookup,
                             const pc_project_config **found, char **err);
/* A tile_fwk_config.json, loaded once.  NULL with *err (pc_mem_free it) on error. */
const pc_config_file *pc_config_cache_config_file(pc_config_cache *c, const char *path, char **err);

typedef struct pc_opts_layers {
    const pc_project_config *project;     /* NULL: no project file */
    const pc_config_file *config;         /* the tile_fwk_config.json in force, or NULL */
    const pc_option *set_opts;            /* --set (site PC_SITE_COMMAND_LINE) */
    size_t nset_opts;
    const pc_bindings *binding_sets;      /* --shapes; nbinding_sets == 0: the project's sets */
    size_t nbinding_sets;
    const char *const *binding_set_sources; /* where each binding set came from ("shapes.json
                                             (--shapes)"); NULL: "--shapes" */
    const pc_binding *binds;              /* --bind, appended to every set */
    size_t nbinds;
    const char *binds_source;             /* where binds came from; NULL: the command line's --bind */
    bool checks_given, werror_given, inner_policy_given, headroom_given;
} pc_opts_layers;

/* Complete o (parse options, and whatever the user gave, already filled in) from the layers.
 * o->parse.binding_sources says where each binding of each set came from: the set's own ones from
 * binding_set_sources[s] (or the project file's path), the appended binds from binds_source.
 * Arrays are allocated in arena a, which must outlive the pc_file_result (its configurations point
 * at these options as provenance). */
void pc_check_opts_layer(pc_check_opts *o, const pc_opts_layers *l, pc_arena *a);

/* Analyse one file (text != NULL: the unsaved buffer).  A result whatever the file holds (a
 * file that cannot be read or parsed is a result with its messages); NULL only for an error of
 * the configuration itself (a bad --checks glob), with the message in *err (pc_mem_free it). */
pc_file_result *pc_check_file(pc_frontend *fe, const char *path, const char *text, size_t len,
                              const pc_check_opts *opts, char **err);
void pc_file_result_free(pc_file_result *fr);

#ifdef __cplusplus
}
#endif
#endif
