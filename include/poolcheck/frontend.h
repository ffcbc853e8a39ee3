/*
 * poolcheck/frontend.h - source -> pc_model.
 *
 * A pc_frontend is a parsing session: it owns a CXIndex (and, for editors, the translation units
 * it keeps for reparsing with a precompiled preamble).  One session per thread; sessions share
 * nothing except CPython's interpreter, which exists once per process (CPython's own rule) and is
 * initialised on first use by the Python frontend.
 */
#ifndef POOLCHECK_FRONTEND_H
#define POOLCHECK_FRONTEND_H

#include "poolcheck/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pc_parse_opts {
    pc_lang lang;                        /* PC_LANG_UNKNOWN: from the file extension */
    /* C++ only */
    const char *compile_db_dir;          /* -p DIR: compile_commands.json lives there */
    const char *const *extra_args;       /* --extra-arg=... (appended) */
    size_t nextra_args;
    const char *const *extra_args_before;/* --extra-arg-before=... (prepended) */
    size_t nextra_args_before;
    const char *const *compiler_args;    /* after `--`: a compiler command line (argv[0] = compiler) */
    size_t ncompiler_args;
    bool keep_tu;                        /* editor mode: keep the TU for fast reparses */
    /* Parse the stub header's text in stub mode instead of loading its precompiled form from the
     * cache ($POOLCHECK_CACHE_DIR, else $XDG_CACHE_HOME/poolcheck or ~/.cache/poolcheck;
     * $POOLCHECK_NO_CACHE also turns it off).  The output is the same either way. */
    bool no_cache;
    /* The parse's bounds (C++): past max_parse_seconds of wall time, or once the process's resident
     * memory passes max_parse_mb (0: three quarters of the physical memory, at most 8 GB), the parse
     * is abandoned and the model gets a PC_MSG_FATAL naming the bound.  The abandoned parse keeps
     * running on its thread and the session's libclang state stays with it: later parses in that
     * session fail at once and pc_frontend_abandoned() says so, so the caller either ends the
     * process soon after (the CLI) or goes on with a new pc_frontend (the language server).
     * max_parse_seconds 0 = no time bound (the memory bound then holds only while `cancelled` is
     * polled). */
    double max_parse_seconds;
    size_t max_parse_mb;
    /* Polled every few milliseconds while a C++ parse runs, on the caller's thread (NULL: never):
     * true abandons the parse as a bound does, with a PC_MSG_FATAL saying it was cancelled.  The
     * language server stops a parse this way when the client asks to shut down or goes away. */
    bool (*cancelled)(void *user);
    void *cancel_user;
    /* Python only: directories searched for the modules a kernel imports (--python-path DIR,
     * repeatable; also .poolcheck.json "python_path"), after the kernel's directory and its package
     * root.  The modules are parsed, never imported or executed. */
    const char *const *python_path;
    size_t npython_path;
    /* The binding sets the analysis will use (--bind, --shapes), so that the Python frontend can
     * unroll a compile-time range() over a bound symbol and decide a trace-time `if` on a bound jit
     * argument, and so that a binding that names no symbol is reported.  May be empty. */
    const pc_bindings *bindings;
    size_t nbindings;
    /* Where each binding was given, for the messages about it: binding_sources[s][i] names the
     * source of bindings[s].items[i] as a user wrote it ("shapes.json (--shapes)", the path of a
     * .poolcheck.json, "the editor's `bind` setting").  NULL (the table, a set's row or an entry)
     * is the command line's --bind. */
    const char *const *const *binding_sources;
    /* Keep only the kernels of these names (`check --kernel-name`; none: all): the others leave the
     * model, with the options that belong to them and the frontend's messages inside them (from a
     * kernel's first line to the next kernel's), so nothing is analysed or reported of them. */
    const char *const *kernel_names;
    size_t nkernel_names;
} pc_parse_opts;

/* The CLI's default for pc_parse_opts.max_parse_seconds (--max-parse-seconds). */
#define PC_DEFAULT_MAX_PARSE_SECONDS 300.0

typedef struct pc_frontend pc_frontend;

pc_frontend *pc_frontend_new(void);
/* Frees the session, except one pc_frontend_abandoned() reports: its state stays with the parse
 * thread still running on it, until the process ends. */
void pc_frontend_free(pc_frontend *fe);
/* A parse of this session went past its bounds or was cancelled and still runs on its thread: the
 * session parses no more C++ (each parse gets a PC_MSG_FATAL at once); start a new pc_frontend. */
bool pc_frontend_abandoned(const pc_frontend *fe);

/* Forget what the session keeps for path (an editor closed the document): its translation unit. */
void pc_frontend_release(pc_frontend *fe, const char *path);

/* The one list of source extensions: the frontend dispatch, the directory walk of
 * `poolcheck check DIR` and the compiler launcher all read it, so a file one of them reads is never
 * skipped by another.  Extensions match exactly (case-sensitive: `.C` is C++, `.PY` is nothing).
 * header: a C++ header, read when named or found in a directory, never a compiler's
 * translation unit (the launcher analyses the units it sees compiled). */
typedef struct pc_source_ext {
    const char *ext;                     /* with the dot: ".cpp" */
    pc_lang lang;
    bool header;
} pc_source_ext;

/* The table, in the order the CLI's help lists it; *n receives its length. */
const pc_source_ext *pc_frontend_source_exts(size_t *n);

/* The table's entry for path's extension (after the last '/'), or NULL when poolcheck reads no
 * such file. */
const pc_source_ext *pc_frontend_source_ext(const char *path);

/* Language of a path by extension (pc_frontend_source_ext's lang; PC_LANG_UNKNOWN if none). */
pc_lang pc_frontend_lang_of(const char *path);

/* Parse path (or, when text != NULL, the unsaved buffer text[0..len) under that path).
 * Always returns a model (never NULL); model->fatal is set when the file could not be read or
 * parsed at all, with a located PC_MSG_FATAL message saying why. */
pc_model *pc_frontend_parse(pc_frontend *fe, const char *path, const char *text, size_t len,
                            const pc_parse_opts *opts);

/* Language-specific entry points (the dispatcher above calls these). */
pc_model *pc_clang_parse(pc_frontend *fe, const char *path, const char *text, size_t len,
                         const pc_parse_opts *opts);
pc_model *pc_py_parse(const char *path, const char *text, size_t len, const pc_parse_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
