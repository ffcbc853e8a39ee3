/*
 * cli.h - internal header of the poolcheck command-line tool (analyzer/cli/).
 *
 * main.c dispatches subcommands; each subcommand is one cmd_<name>.c with
 * `int pc_cmd_<name>(int argc, char **argv)` (argv[0] is the subcommand name) returning the exit
 * status: 0 no error-level finding, 1 error-level findings / under-prediction / plan that does not
 * fit, 2 usage error, unreadable input, internal error.
 */
#ifndef POOLCHECK_CLI_H
#define POOLCHECK_CLI_H

#include <stdio.h>

#include "poolcheck/poolcheck.h"
#include "poolcheck/report.h"
#include "support/support.h"

enum { PC_EXIT_OK = 0, PC_EXIT_FINDINGS = 1, PC_EXIT_USAGE = 2 };

/* Options shared by `check`, `logs --kernel` and `plan`: how to read and analyse a kernel. */
typedef struct pc_cli_common {
    pc_arena *arena;
    PC_VEC(pc_binding) binds;          /* --bind NAME=VALUE */
    PC_VEC(pc_bindings) binding_sets;  /* --shapes FILE: binding sets (each merged with binds) */
    PC_VEC(const char *) binding_set_sources; /* for each binding set: "FILE (--shapes)" */
    PC_VEC(pc_option) set_opts;        /* --set KEY=VALUE */
    PC_VEC(const char *) extra_args, extra_args_before, compiler_args;
    PC_VEC(const char *) python_path;  /* --python-path DIR (repeatable) */
    PC_VEC(const char *) kernel_names; /* check --kernel-name NAME (repeatable): only these kernels */
    size_t kernels_analysed;           /* kernels pc_cli_analyze analysed (after --kernel-name) */
    const char *config_path;           /* --config tile_fwk_config.json */
    const char *project_file;          /* --config-file .poolcheck.json */
    bool no_config_lookup;
    bool no_cache;                     /* --no-cache: the stub header's text, never its PCH */
    const char *checks, *werror;
    pc_lang lang;                      /* --lang */
    const char *compile_db_dir;        /* -p DIR */
    pc_inner_policy inner_policy;
    int64_t assemble_headroom;
    double max_walk_seconds;           /* --max-walk-seconds: the walk's time budget, so a kernel
                                          with no repeating structure cannot stall the run */
    double max_parse_seconds;          /* --max-parse-seconds: the C++ parse's time bound */
    bool inner_policy_set, assemble_headroom_set;  /* given on the command line */
    bool show_parse_errors;
    /* Project files and tile_fwk_config.json files, loaded once for every file. */
    pc_config_cache *configs;
} pc_cli_common;

void pc_cli_common_init(pc_cli_common *c);
void pc_cli_common_free(pc_cli_common *c);
/* If argv[*i] is a common option, consume it (and its value; both `--opt=v` and `--opt v`) and
 * return 1; return 0 when it is not one; return -1 after printing a usage error to stderr. */
int pc_cli_common_option(pc_cli_common *c, int argc, char **argv, int *i);
/* `--opt=value` or `--opt value` (what the common options take, for a command's own options):
 * the value, or NULL when argv[*i] is not this option or, with *missing set, lacks its value. */
const char *pc_cli_opt_value(int argc, char **argv, int *i, const char *name, bool *missing);
/* Analyse one file with these options (.poolcheck.json lookup, config file, bindings).  Returns
 * NULL after printing an error (bad config file, unreadable input): exit status 2. */
pc_file_result *pc_cli_analyze(pc_cli_common *c, pc_frontend *fe, const char *path);
/* The same, and *in (when not NULL) says what the file was given from outside its source, for the
 * HTML report (pointers into c's arena and configurations; valid while c is). */
pc_file_result *pc_cli_analyze_inputs(pc_cli_common *c, pc_frontend *fe, const char *path, pc_rep_html_file_inputs *in);
/* --show-settings: print what path would be analysed with (the options, the project and config
 * files, every binding and runtime option from outside the source, each with its source) to out,
 * without analysing.  False after printing an error (a broken project or config file). */
bool pc_cli_show_settings(pc_cli_common *c, const char *path, FILE *out);
/* The project file (.poolcheck.json) that governs path: --config-file, else the nearest one
 * (unless --no-config-lookup).  NULL when none; sets *failed after printing a located error. */
const pc_project_config *pc_cli_project_for(pc_cli_common *c, const char *path, bool *failed);
/* Does the governing project file's "exclude" list skip path (found by a directory search)? */
bool pc_cli_project_excludes(pc_cli_common *c, const char *path);
/* Usage text of the common options, for --help. */
extern const char pc_cli_common_help[];

/* Print "poolcheck: error: ..." to stderr (printf-style). */
void pc_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The index of `value` among the NULL-terminated `choices` of an option that takes one word
 * (--format, --emit-config, --color); -1 after printing "unknown OPTION 'value' (a, b, c)". */
int pc_cli_choice(const char *option, const char *value, const char *const choices[]);
/* "unknown option ARG" for `poolcheck COMMAND`, with the nearest of the long options named in
 * the command's help texts (more_help may be NULL) as "did you mean '--checks=PC001'?", as clang-tidy
 * does; an option that exists but was given without the value it needs says so. */
void pc_cli_unknown_option(const char *command, const char *arg, const char *help, const char *more_help);
/* The words of --emit-config (check and plan) and of a --format that is text or json (logs, plan). */
extern const char *const pc_cli_emit_config_choices[];
extern const char *const pc_cli_text_json_choices[];
/* "no kernel named NAME in FILE" for a --kernel-name that names none of m's kernels, with the
 * nearest name (pc_cfg_nearest's rule) as "did you mean" and the kernels the file has. */
void pc_cli_no_such_kernel(const pc_model *m, const char *name, const char *file);
/* Finish an output stream: flush stdout, close any other.  When a write to it failed (a closed or
 * full stdout, a full disk) print "cannot write 'NAME': why" and return false: the caller exits 2,
 * because a report that never arrived is an error, not silence. */
bool pc_cli_close_output(FILE *f, const char *name);
/* Would writing `out` (-o, --report) overwrite a file the command reads?  Every word of argv but
 * the one holding `out` (and the VALUE of a --name=VALUE word) and each of paths[0..n) that names
 * an existing file is compared with `out` by device and inode, so a symbolic link or another
 * spelling of the path is caught too.  When one matches, prints "refusing to write ..." and
 * returns true: the caller exits 2 before opening anything. */
bool pc_cli_output_is_input(const char *option, const char *out, int argc, char **argv, char *const *paths, size_t n);

int pc_cmd_check(int argc, char **argv);
int pc_cmd_model(int argc, char **argv);
int pc_cmd_logs(int argc, char **argv);
int pc_cmd_plan(int argc, char **argv);
int pc_cmd_rule(int argc, char **argv);

#endif
