/* clang_frontend.c - the libclang C++ frontend: session state, the stub header, compiler
 * arguments, parsing (batch and editor reparse) on a parse thread, clang's diagnostics.
 *
 * Two modes share one recogniser (clang_walk.c):
 *  - stub mode (default, no CANN): stub/poolcheck_tilefwk_stub.h is injected with -include and
 *    stub/include/ stands in for the PyPTO, CANN, C++ standard library and gtest headers; every
 *    other #include of the source (the project's own headers) is followed on the include path
 *    (the source's directory, --extra-arg=-I..., a compile command's -I).  An include nobody can
 *    find is left out with a note.  Clang's errors there are noise (PC_MSG_PARSE_NOISE) unless
 *    --show-parse-errors.
 *  - real headers: a compile_commands.json entry (-p DIR) or a compiler command line after `--`,
 *    with flags libclang does not know rewritten or dropped (bisheng's -xcce, --npu-arch=...).
 * Measured on the build machine: a single parse is cheapest without any preamble
 * flags, so batch mode uses none; editor mode (keep_tu) keeps the translation unit and reparses
 * it with a precompiled preamble (the stub and the #includes at the top of the file), and an edit
 * inside one function body re-parses the file with the other unchanged bodies left out, their
 * kernels taken from the analysis before (clang_incr.c plans that parse, checks it and merges its
 * model; this file asks for the plan and runs the parse). */
#define _GNU_SOURCE /* pthread_timedjoin_np: the parse's time and memory bounds */
#include "clang_int.h"

#include <clang-c/CXCompilationDatabase.h>

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- session state ----------------------------------------------------------------------------- */

static struct pc_clang_state *state_of(pc_frontend *fe)
{
    if (!fe->clang) {
        fe->clang = pc_mem_calloc(1, sizeof *fe->clang);
        /* excludeDeclarationsFromPCH: a visit of a translation unit lists what was parsed for it,
         * not the precompiled stub's (or preamble's) macros and declarations; deserialising those
         * was a quarter of an editor-mode reparse (pc_clang_visit_tu) */
        fe->clang->index = clang_createIndex(1, 0);
    }
    return fe->clang;
}

static void kept_free(pc_clang_kept *k)
{
    if (k->tu)
        clang_disposeTranslationUnit(k->tu);
    pc_mem_free(k->path);
    pc_mem_free(k->args_key);
}

void pc_clang_state_free(struct pc_clang_state *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->kept.count; i++)
        kept_free(&st->kept.items[i]);
    PC_VEC_FREE(st->kept);
    if (st->index)
        clang_disposeIndex(st->index);
    pc_mem_free(st->stub_path);
    pc_mem_free(st->stub_text);
    pc_mem_free(st);
}

void pc_clang_release(struct pc_clang_state *st, const char *path)
{
    for (size_t i = 0; i < st->kept.count; i++) {
        if (strcmp(st->kept.items[i].path, path) != 0)
            continue;
        kept_free(&st->kept.items[i]);
        st->kept.items[i] = st->kept.items[--st->kept.count];
        return;
    }
}

/* ---- the stub header ------------------------------------------------------------------------------ */

static bool try_stub_dir(struct pc_clang_state *st, const char *dir)
{
    if (!dir || !*dir)
        return false;
    pc_sb b = {0};
    pc_sb_printf(&b, "%s/%s", dir, PC_CLANG_STUB_NAME);
    char *path = pc_sb_take(&b);
    char *err = NULL;
    size_t len = 0;
    char *text = pc_read_file(path, &len, &err);
    if (!text) {
        pc_mem_free(err);
        pc_mem_free(path);
        return false;
    }
    char real[PATH_MAX];
    if (realpath(path, real)) {
        pc_mem_free(path);
        path = pc_mem_strdup(real);
    }
    st->stub_path = path;
    st->stub_text = pc_mem_strndup(text, len);
    st->stub_len = len;
    pc_mem_free(text);
    return true;
}

/* The stub directory: $POOLCHECK_STUB_DIR when set (an explicit choice wins); then an installed
 * layout next to the executable (<prefix>/bin/poolcheck, <prefix>/share/poolcheck/stub: an
 * installed poolcheck uses the stub it was installed with); then the source tree this library
 * was built from (build trees and tests). */
static bool try_exe_relative(struct pc_clang_state *st, const char *const *rel)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = 0;
    for (int i = 0; rel[i]; i++) {
        pc_sb b = {0};
        pc_sb_printf(&b, "%s%s", exe, rel[i]);
        char *dir = pc_sb_take(&b);
        bool ok = try_stub_dir(st, dir);
        pc_mem_free(dir);
        if (ok)
            return true;
    }
    return false;
}

static bool find_stub(struct pc_clang_state *st)
{
    if (st->stub_searched)
        return st->stub_path != NULL;
    st->stub_searched = true;
    static const char *const installed[] = {"/../share/poolcheck/stub", NULL};
    static const char *const beside[] = {"/stub", "/../stub", NULL};
    if (try_stub_dir(st, getenv("POOLCHECK_STUB_DIR")) || try_exe_relative(st, installed))
        return true;
#ifdef POOLCHECK_STUB_DIR
    if (try_stub_dir(st, POOLCHECK_STUB_DIR))
        return true;
#endif
    return try_exe_relative(st, beside);
}

/* ---- what stub mode stands in for ------------------------------------------------------------------ */

/* Stub mode replaces, by the spelling of the #include, the headers the stub declares and nothing
 * else: PyPTO's (the public tilefwk/ root and the internal interface/ root of framework/src),
 * CANN's (acl/, aclnn/, runtime/, hccl/ and the loose toolkit headers), the C++ standard
 * library and gtest/gmock.  Every other #include is followed on the compile command's include
 * path, so a project's helpers and its `using namespace npu::tile_fwk;` arrive as in a real
 * build.
 *
 * How: stub/include/ (next to the stub header, installed with it) holds a file for each of
 * those headers - empty but for a comment, or for <cstdio>, <cmath>... the C header and its
 * names in std - and is the first -I of every stub-mode parse, with -nostdinc++; the stub itself
 * comes in with -include.  So they shadow a real copy the include path may reach, and clang sees
 * exactly what `clang -fsyntax-only` with the same flags sees (bench/cpp.sh).
 * The standard library is stood in for, not followed: the stub declares the part kernels use,
 * and parsing libstdc++'s <string>, <vector>, <map>, <functional>... costs about 1.1 s per file
 * against 0.17 s for the whole stub (clang-14 -fsyntax-only, this machine); gtest's real header
 * needs the real library, so the stub's TEST/TEST_F fallbacks stand in for it.
 *
 * An #include under one of these roots that stub/include/ does not have is dropped without a
 * note (the stub, injected with -include, declares what it would have); any other include that
 * cannot be found gets one note naming it. */
static const char *const stub_roots[] = {
    "tilefwk/", "interface/",                           /* PyPTO */
    "acl/", "aclnn/", "runtime/", "hccl/",              /* CANN toolkit */
    "gtest/", "gmock/",                                 /* the test framework kernels sit in */
    NULL};
static const char *const stub_loose_headers[] = {
    "securec.h", "securectype.h", "dlog_pub.h", "slog.h", "kernel_operator.h", "acl_define.h", NULL};

/* Does stub mode stand in for an #include spelled `name` (without its quotes or brackets)? */
static bool stub_stands_in(const char *name)
{
    for (int i = 0; stub_roots[i]; i++)
        if (!strncmp(name, stub_roots[i], strlen(stub_roots[i])))
            return true;
    for (int i = 0; stub_loose_headers[i]; i++)
        if (!strcmp(name, stub_loose_headers[i]))
            return true;
    return false;
}

/* stub/include/: the directory next to the stub header. */
static char *stub_include_dir(const struct pc_clang_state *st)
{
    const char *slash = strrchr(st->stub_path, '/');
    size_t n = slash ? (size_t)(slash - st->stub_path) : 0;
    pc_sb b = {0};
    pc_sb_printf(&b, "%.*s/include", (int)n, st->stub_path);
    return pc_sb_take(&b);
}

/* The header name in clang's "'NAME' file not found" (err_pp_file_not_found), or NULL. */
static char *not_found_name(const char *text)
{
    if (!text || text[0] != '\'' || !strstr(text, "' file not found"))
        return NULL;
    const char *end = strstr(text, "' file not found");
    return pc_mem_strndup(text + 1, (size_t)(end - text - 1));
}

uint32_t *pc_clang_line_table(const char *s, size_t len, int *n)
{
    /* LF, CRLF and a lone CR each end a line, as libclang's own locations count them (support.h) */
    int count = 1;
    for (size_t i = pc_line_end(s, len, 0); i < len; i = pc_line_end(s, len, i + pc_eol_len(s, len, i)))
        count++;
    uint32_t *t = pc_mem_alloc(sizeof *t * (size_t)count);
    int k = 0;
    t[k++] = 0;
    for (size_t i = pc_line_end(s, len, 0); i < len; i = pc_line_end(s, len, i + pc_eol_len(s, len, i)))
        t[k++] = (uint32_t)(i + pc_eol_len(s, len, i));
    *n = count;
    return t;
}

/* ---- arguments -------------------------------------------------------------------------------------- */

static void argv_push(pc_clang_argv *v, const char *s) { PC_VEC_PUSH(*v, pc_mem_strdup(s)); }

static void argv_free(pc_clang_argv *v)
{
    for (size_t i = 0; i < v->count; i++)
        pc_mem_free(v->items[i]);
    PC_VEC_FREE(*v);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Do a (relative to dir, when given) and b name the same file? */
static bool same_file(const char *dir, const char *a, const char *b)
{
    if (!a || !b)
        return false;
    if (!strcmp(a, b))
        return true;
    if (strcmp(base_name(a), base_name(b)) != 0)
        return false;
    char ra[PATH_MAX], rb[PATH_MAX];
    char *joined = NULL;
    if (dir && a[0] != '/') {
        pc_sb sb = {0};
        pc_sb_printf(&sb, "%s/%s", dir, a);
        joined = pc_sb_take(&sb);
        a = joined;
    }
    bool r = realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
    pc_mem_free(joined);
    return r;
}

void pc_clang_sanitize_args(const char *const *argv, size_t argc, const char *input, const char *dir,
                            pc_clang_argv *out)
{
    size_t i = 0;
    /* the compiler, behind any launcher (ccache clang++ ...) */
    while (i < argc) {
        const char *b = base_name(argv[i]);
        bool launcher = !strcmp(b, "ccache") || !strcmp(b, "sccache") || !strcmp(b, "distcc");
        i++;
        if (!launcher)
            break;
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM") ||
            !strcmp(a, "-MD") || !strcmp(a, "-MMD") || !strcmp(a, "-MP") || !strcmp(a, "--") ||
            !strcmp(a, "-fsyntax-only") || !strcmp(a, "-Werror") || !strncmp(a, "-Werror=", 8) ||
            !strncmp(a, "--npu-arch", 10) || !strncmp(a, "--cce-", 6) || !strncmp(a, "-fcce-", 6))
            continue;
        if (!strcmp(a, "-o") || !strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ")) {
            i++; /* and its value */
            continue;
        }
        if ((!strncmp(a, "-o", 2) && strlen(a) > 2 && a[2] != 'p') || !strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) ||
            !strncmp(a, "-MQ", 3))
            continue;
        /* bisheng compiles device code as -xcce; for parsing it is C++ */
        if (!strcmp(a, "-xcce") || !strcmp(a, "-xcce-host")) {
            argv_push(out, "-x");
            argv_push(out, "c++");
            continue;
        }
        if (!strcmp(a, "-x") && i + 1 < argc) {
            argv_push(out, "-x");
            argv_push(out, !strncmp(argv[i + 1], "cce", 3) ? "c++" : argv[i + 1]);
            i++;
            continue;
        }
        if (input && a[0] != '-' && same_file(dir, a, input))
            continue;
        argv_push(out, a);
    }
}

/* The compile command for path in DIR/compile_commands.json; false (with a note) if none. */
static bool compile_db_args(pc_model *m, const char *dir, const char *abs_path, pc_clang_argv *out, char **workdir)
{
    /* libclang reports a missing database on stderr itself: look first */
    pc_sb pb = {0};
    pc_sb_printf(&pb, "%s/compile_commands.json", dir);
    char *dbpath = pc_sb_take(&pb);
    bool present = access(dbpath, R_OK) == 0;
    pc_mem_free(dbpath);
    CXCompilationDatabase_Error err = CXCompilationDatabase_CanNotLoadDatabase;
    CXCompilationDatabase db = present ? clang_CompilationDatabase_fromDirectory(dir, &err) : NULL;
    if (err != CXCompilationDatabase_NoError || !db) {
        if (db)
            clang_CompilationDatabase_dispose(db);
        pc_sb b = {0};
        pc_sb_printf(&b, "cannot load %s/compile_commands.json: parsed with the PyPTO stub header instead", dir);
        char *msg = pc_sb_take(&b);
        pc_model_add_message(m, PC_MSG_WARNING, pc_model_loc(m, m->file, 1, 1, 0, 0), msg);
        pc_mem_free(msg);
        return false;
    }
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs_path);
    bool found = cmds && clang_CompileCommands_getSize(cmds) > 0;
    if (found) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
        unsigned n = clang_CompileCommand_getNumArgs(cmd);
        CXString *strs = pc_mem_alloc(sizeof *strs * (n ? n : 1));
        const char **args = pc_mem_alloc(sizeof *args * (n ? n : 1));
        for (unsigned i = 0; i < n; i++) {
            strs[i] = clang_CompileCommand_getArg(cmd, i);
            args[i] = clang_getCString(strs[i]);
        }
        CXString wd = clang_CompileCommand_getDirectory(cmd);
        *workdir = pc_mem_strdup(clang_getCString(wd));
        /* relative paths in the command (the input, -I) are relative to the entry's directory */
        pc_clang_sanitize_args(args, n, abs_path, *workdir, out);
        clang_disposeString(wd);
        for (unsigned i = 0; i < n; i++)
            clang_disposeString(strs[i]);
        pc_mem_free(strs);
        pc_mem_free(args);
    } else {
        pc_sb b = {0};
        pc_sb_printf(&b, "no entry for this file in %s/compile_commands.json: parsed with the PyPTO stub header instead", dir);
        char *msg = pc_sb_take(&b);
        pc_model_add_message(m, PC_MSG_WARNING, pc_model_loc(m, m->file, 1, 1, 0, 0), msg);
        pc_mem_free(msg);
    }
    if (cmds)
        clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    return found;
}

static bool has_lang_flag(const pc_clang_argv *v)
{
    for (size_t i = 0; i < v->count; i++)
        if (!strcmp(v->items[i], "-x") || !strncmp(v->items[i], "-x", 2))
            return true;
    return false;
}

typedef PC_VEC(const char *) str_vec;

static bool str_in(const str_vec *v, const char *s)
{
    for (size_t i = 0; i < v->count; i++)
        if (!strcmp(v->items[i], s))
            return true;
    return false;
}

/* ---- diagnostics -------------------------------------------------------------------------------- */

/* The path clang_guard.c refused that diagnostic text t names ('PATH' in "cannot open file"), with
 * its kind, or NULL. */
static const char *refused_include(const char *t, const char **kind)
{
    const pc_clang_guard *g = pc_clang_guard_current();
    for (int i = 0; g && t && i < g->nrefused; i++) {
        size_t n = strlen(g->refused[i].path);
        for (const char *q = strchr(t, '\''); q; q = strchr(q + 1, '\''))
            if (!strncmp(q + 1, g->refused[i].path, n) && q[1 + n] == '\'') {
                *kind = g->refused[i].kind;
                return g->refused[i].path;
            }
    }
    return NULL;
}

/* Is name (an #include's, not found after a refused open) the end of a refused path?  Clang
 * says "not found" for a header it found and could not open: the error is said once. */
static bool refused_suffix(const char *name)
{
    const pc_clang_guard *g = pc_clang_guard_current();
    size_t n = strlen(name);
    for (int i = 0; g && i < g->nrefused; i++) {
        const char *p = g->refused[i].path;
        size_t k = strlen(p);
        if (k >= n && !strcmp(p + k - n, name) && (k == n || p[k - n - 1] == '/'))
            return true;
    }
    return false;
}

/* A message about an #include clang could not follow, at line:col of the file holding it: a header
 * by its own name, the main file (or no file) by the model's. */
static void include_message(pc_cx *cx, pc_msg_kind kind, CXFile f, unsigned line, unsigned col, const char *msg)
{
    pc_model *m = cx->m;
    CXString fn = {0};
    const char *fname = m->file;
    if (f && !clang_File_isEqual(f, cx->main_file)) {
        fn = clang_getFileName(f);
        fname = clang_getCString(fn);
    }
    pc_model_add_message(m, kind, pc_model_loc(m, fname ? fname : m->file, line, col, 0, 0), msg);
    if (fn.data)
        clang_disposeString(fn);
}

static void collect_diagnostics(pc_cx *cx)
{
    pc_model *m = cx->m;
    unsigned n = clang_getNumDiagnostics(cx->tu);
    PC_VEC(pc_cdiag) diags = {0};
    str_vec notes = {0};
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(cx->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        cx->tu_errors = true;
        CXString text = clang_getDiagnosticSpelling(d);
        CXFile f;
        unsigned line, col, off;
        clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
        const char *t = clang_getCString(text);
        const char *kind = NULL, *rpath = refused_include(t, &kind);
        if (rpath) {
            /* an #include of a device, FIFO or socket (clang_guard.c refused the open) */
            include_message(cx, PC_MSG_FATAL, f, line, col,
                            pc_arena_printf(cx->scratch, "'%s' is %s, not a regular file: not included", rpath,
                                            kind));
            clang_disposeString(text);
            clang_disposeDiagnostic(d);
            continue;
        }
        char *missing = not_found_name(t);
        if (missing) {
            /* an #include that cannot be found is left out: stub mode stands in for PyPTO's,
             * CANN's and the standard headers; any other gets one note naming it */
            bool seen = (cx->stub_mode && stub_stands_in(missing)) || str_in(&notes, missing) ||
                        refused_suffix(missing);
            if (!seen) {
                PC_VEC_PUSH(notes, pc_arena_strdup(cx->scratch, missing));
                const char *hint =
                    cx->stub_mode ? " (add its directory with --extra-arg=-I<dir> or -p <build dir>)" : "";
                include_message(cx, PC_MSG_NOTE, f, line, col,
                                pc_arena_printf(cx->scratch,
                                                "cannot find the included file '%s': it is left out of the parse%s",
                                                missing, hint));
            }
            pc_mem_free(missing);
            clang_disposeString(text);
            clang_disposeDiagnostic(d);
            continue;
        }
        pc_loc loc;
        if (f && clang_File_isEqual(f, cx->main_file)) {
            loc = pc_model_loc(m, m->file, line, col, 0, 0);
            /* the message added below, for a clang error leftovers finds inside a kernel */
            pc_cdiag cd = {off, line, col, pc_arena_strdup(cx->scratch, t), false, m->nmessages};
            PC_VEC_PUSH(diags, cd);
        } else if (f) {
            CXString fn = clang_getFileName(f);
            loc = pc_model_loc(m, clang_getCString(fn), line, col, 0, 0);
            clang_disposeString(fn);
        } else {
            loc = pc_model_loc(m, m->file, 1, 1, 0, 0);
        }
        pc_sb b = {0};
        pc_sb_printf(&b, "clang: %s", t);
        char *msg = pc_sb_take(&b);
        pc_model_add_message(m, PC_MSG_PARSE_NOISE, loc, msg);
        pc_mem_free(msg);
        clang_disposeString(text);
        clang_disposeDiagnostic(d);
    }
    cx->diags = pc_arena_alloc(cx->scratch, sizeof *cx->diags * (diags.count ? diags.count : 1));
    if (diags.count)
        memcpy(cx->diags, diags.items, sizeof *cx->diags * diags.count);
    cx->ndiags = (int)diags.count;
    PC_VEC_FREE(diags);
    PC_VEC_FREE(notes);
}

static const char *parse_error_name(enum CXErrorCode e)
{
    switch (e) {
    case CXError_Crashed: return "libclang crashed";
    case CXError_InvalidArguments: return "invalid arguments";
    case CXError_ASTReadError: return "AST read error (often an unknown compiler flag)";
    default: return "failure";
    }
}

/* ---- parsing ------------------------------------------------------------------------------------- */

typedef struct parse_req {
    const char *filename;          /* the name clang sees the main file by */
    char *buffer;                  /* what clang parses */
    size_t len;
    pc_clang_argv args;
    bool stub;
    char *pch;                     /* stub mode: the precompiled stub args load, or NULL (clang_pch.c) */
} parse_req;

static void restore_cwd(const char *cwd)
{
    char *now = getcwd(NULL, 0);
    if (cwd && (!now || strcmp(now, cwd) != 0) && chdir(cwd) != 0) {
        /* nothing better to do: the directory we started in is gone */
    }
    free(now);
}

static char *args_key(const pc_clang_argv *v)
{
    pc_sb b = {0};
    for (size_t i = 0; i < v->count; i++) {
        pc_sb_append(&b, v->items[i]);
        pc_sb_putc(&b, '\x1f');
    }
    return pc_sb_take(&b);
}

static CXTranslationUnit parse_with(struct pc_clang_state *st, const pc_parse_opts *opts, parse_req *rq,
                                    struct CXUnsavedFile *unsaved, unsigned nunsaved, enum CXErrorCode *rc,
                                    bool *owned)
{
    *owned = true;
    *rc = CXError_Success;
    char *key = opts->keep_tu ? args_key(&rq->args) : NULL;
    /* clang's driver applies -working-directory with a real chdir(): put the process back */
    char *saved_cwd = getcwd(NULL, 0);
    if (opts->keep_tu) {
        for (size_t i = 0; i < st->kept.count; i++) {
            pc_clang_kept *k = &st->kept.items[i];
            if (strcmp(k->path, rq->filename) != 0)
                continue;
            int rr = strcmp(k->args_key, key) ? -1
                     : clang_reparseTranslationUnit(k->tu, nunsaved, unsaved, clang_defaultReparseOptions(k->tu));
            restore_cwd(saved_cwd);
            if (rr == 0) {
                pc_mem_free(key);
                free(saved_cwd);
                *owned = false;
                return k->tu;
            }
            /* other flags, or a failed reparse (the TU is unusable then): start afresh */
            kept_free(k);
            st->kept.items[i] = st->kept.items[--st->kept.count];
            break;
        }
    }
    /* the preprocessing record: which #define is in effect and what #if skipped (clang_pp.c) */
    unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
    /* editor mode: the preamble (the stub and the #includes at the top of the file, with the
     * project headers they reach) is precompiled on the first parse, so that every edit
     * reparses only the main file */
    if (opts->keep_tu)
        flags |= CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse;
    CXTranslationUnit tu = NULL;
    *rc = clang_parseTranslationUnit2(st->index, rq->filename, (const char *const *)rq->args.items,
                                      (int)rq->args.count, unsaved, nunsaved, flags, &tu);
    restore_cwd(saved_cwd);
    free(saved_cwd);
    saved_cwd = NULL;
    if (*rc != CXError_Success || !tu) {
        pc_mem_free(key);
        return NULL;
    }
    if (opts->keep_tu) {
        pc_clang_kept k = {pc_mem_strdup(rq->filename), key, tu};
        PC_VEC_PUSH(st->kept, k);
        *owned = false;
    }
    return tu;
}

/* Parse (or reparse) rq: the main buffer and in stub mode the stub as unsaved files (libclang
 * copies them during the call). */
static CXTranslationUnit run_parse(struct pc_clang_state *st, const pc_parse_opts *opts, parse_req *rq,
                                   enum CXErrorCode *rc, bool *owned)
{
    struct CXUnsavedFile unsaved[2];
    unsigned nunsaved = 0;
    unsaved[nunsaved++] = (struct CXUnsavedFile){rq->filename, rq->buffer, (unsigned long)rq->len};
    if (rq->stub && !rq->pch)
        unsaved[nunsaved++] = (struct CXUnsavedFile){st->stub_path, st->stub_text, (unsigned long)st->stub_len};
    return parse_with(st, opts, rq, unsaved, nunsaved, rc, owned);
}

/* Did the real-header parse miss the PyPTO headers themselves (`tilefwk/tilefwk.h` not found)? */
static bool missing_pypto_headers(CXTranslationUnit tu)
{
    bool missing = false;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n && !missing; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXString s = clang_getDiagnosticSpelling(d);
        const char *t = clang_getCString(s);
        missing = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && t && strstr(t, "file not found") &&
                  strstr(t, "tilefwk");
        clang_disposeString(s);
        clang_disposeDiagnostic(d);
    }
    return missing;
}

static void drop_tu(struct pc_clang_state *st, CXTranslationUnit tu, bool owned)
{
    if (owned) {
        clang_disposeTranslationUnit(tu);
        return;
    }
    for (size_t i = 0; i < st->kept.count; i++)
        if (st->kept.items[i].tu == tu) {
            kept_free(&st->kept.items[i]);
            st->kept.items[i] = st->kept.items[--st->kept.count];
            return;
        }
}

/* Is a an include-path option of a compile command (-I, -isystem, -iquote, -idirafter), with its
 * value in the same argument (-Idir) or the next?  *joined gets the value's offset in a. */
static bool include_path_flag(const char *a, size_t *joined)
{
    static const char *const flags[] = {"-isystem", "-iquote", "-idirafter", "-I", NULL};
    for (int i = 0; flags[i]; i++) {
        size_t n = strlen(flags[i]);
        if (!strncmp(a, flags[i], n)) {
            *joined = n;
            return true;
        }
    }
    return false;
}

/* Push an include-path option, its directory made absolute against dir (a compile command's
 * directory: libclang would resolve it against the process's). */
static void push_include_path(pc_clang_argv *v, const char *flag, const char *path, const char *dir)
{
    pc_sb b = {0};
    if (path[0] != '/' && dir && *dir)
        pc_sb_printf(&b, "%s%s/%s", flag, dir, path);
    else
        pc_sb_printf(&b, "%s%s", flag, path);
    char *s = pc_sb_take(&b);
    argv_push(v, s);
    pc_mem_free(s);
}

/* Stub-mode arguments.  From a compile command the stub mode replaces (cmd, relative to
 * cmd_dir) it keeps what picks #if branches (-D, -U), the language standard and the include
 * path: the project's own headers are parsed as in the real build.  With use_pch, a plain
 * argument list (nothing from a command or --extra-arg) loads the precompiled stub instead of the
 * header's text: its path is returned (pc_mem), NULL otherwise. */
static char *stub_args(struct pc_clang_state *st, const pc_parse_opts *opts, const pc_clang_argv *cmd,
                       const char *cmd_dir, bool use_pch, pc_clang_argv *v)
{
    for (size_t i = 0; i < opts->nextra_args_before; i++)
        argv_push(v, opts->extra_args_before[i]);
    argv_push(v, "-x");
    argv_push(v, "c++");
    argv_push(v, "-std=c++17");
    /* the C++ standard library and the stood-in headers come from stub/include/, which is
     * searched before any directory of the command or of --extra-arg */
    argv_push(v, "-nostdinc++");
    char *vdir = stub_include_dir(st);
    push_include_path(v, "-I", vdir, NULL);
    pc_mem_free(vdir);
    size_t before_cmd = v->count;
    for (size_t i = 0; cmd && i < cmd->count; i++) {
        const char *a = cmd->items[i];
        size_t at = 0;
        if ((!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2)) && a[2])
            argv_push(v, a);
        else if ((!strcmp(a, "-D") || !strcmp(a, "-U")) && i + 1 < cmd->count) {
            argv_push(v, a);
            argv_push(v, cmd->items[++i]);
        } else if (!strncmp(a, "-std=", 5))
            argv_push(v, a);
        else if (include_path_flag(a, &at)) {
            char flag[16];
            snprintf(flag, sizeof flag, "%.*s", (int)at, a);
            if (a[at])
                push_include_path(v, flag, a + at, cmd_dir);
            else if (i + 1 < cmd->count)
                push_include_path(v, flag, cmd->items[++i], cmd_dir);
        }
    }
    /* nothing from a compile command or --extra-arg, outside editor mode */
    bool plain = v->count == before_cmd && opts->nextra_args_before == 0 && opts->nextra_args == 0 && !opts->keep_tu;
    size_t include_at = v->count;
    argv_push(v, "-include");
    argv_push(v, st->stub_path);
    argv_push(v, "-ferror-limit=0");
    /* typo correction looks every undeclared name up against the whole TU: with the errors a
     * stub parse has, that is most of clang's time, and poolcheck never shows "did you mean" */
    argv_push(v, "-fno-spell-checking");
    argv_push(v, "-w");
    argv_push(v, "-fno-access-control"); /* upstream tests poke at private members */
    for (size_t i = 0; i < opts->nextra_args; i++)
        argv_push(v, opts->extra_args[i]);
    char *pch = use_pch && plain && !opts->no_cache ? pc_clang_stub_pch(st, v, include_at) : NULL;
    if (pch) {
        pc_mem_free(v->items[include_at]);
        pc_mem_free(v->items[include_at + 1]);
        v->items[include_at] = pc_mem_strdup("-include-pch");
        v->items[include_at + 1] = pc_mem_strdup(pch);
    }
    return pch;
}

/* Give rq its whole text back and forget the plan. */
static void plan_undo(parse_req *rq, pc_clang_plan **plan)
{
    pc_clang_incr_plan_free(*plan, &rq->buffer);
    *plan = NULL;
}

/* A parse of rq, of its text with the plan's bodies left out when one applies (editor mode). */
static CXTranslationUnit parse_planned(pc_frontend *fe, struct pc_clang_state *st, const pc_parse_opts *opts,
                                       parse_req *rq, bool allow_incr, pc_clang_plan **plan, char **key,
                                       enum CXErrorCode *rc, bool *owned)
{
    plan_undo(rq, plan);
    pc_mem_free(*key);
    *key = NULL;
    if (opts->keep_tu) {
        *key = pc_clang_incr_key(&rq->args, opts);
        if (allow_incr) /* with a plan, clang parses the blanked text */
            *plan = pc_clang_incr_plan(fe, rq->filename, *key, &rq->buffer, rq->len);
    }
    CXTranslationUnit tu = run_parse(st, opts, rq, rc, owned);
    return tu;
}

/* What one parse of a text holds from reading it to the walk; run_free lets go of it (the model
 * is the caller's). */
typedef struct parse_run {
    pc_frontend *fe;
    struct pc_clang_state *st;
    const pc_parse_opts *opts;
    bool allow_incr;
    pc_model *m;
    pc_loc top;                    /* where file-wide messages go */
    parse_req rq;
    char *abs_path;                /* the main file's real path: rq.filename, the document's name */
    char *workdir;                 /* the compile command's directory, or NULL */
    pc_clang_plan *plan;           /* editor mode's plan for this parse, or NULL */
    char *key;                     /* editor mode: pc_clang_incr_key of the arguments parsed with */
    CXTranslationUnit tu;
    bool owned;                    /* tu is this parse's to dispose (not one kept for reparses) */
    enum CXErrorCode rc;
} parse_run;

static void run_free(parse_run *r)
{
    plan_undo(&r->rq, &r->plan);
    pc_mem_free(r->key);
    argv_free(&r->rq.args);
    pc_mem_free(r->rq.pch);
    pc_mem_free(r->rq.buffer);
    pc_mem_free(r->abs_path);
    pc_mem_free(r->workdir);
}

/* The text to parse: the caller's (text) or the file's; false (with a fatal message) when the file
 * cannot be read. */
static bool read_source(parse_run *r, const char *path, const char *text, size_t len)
{
    if (text) {
        r->rq.buffer = pc_mem_strndup(text, len);
        r->rq.len = len;
        return true;
    }
    char *err = NULL;
    char *data = pc_read_file(path, &r->rq.len, &err);
    if (!data) {
        pc_model_add_message(r->m, PC_MSG_FATAL, r->top, err ? err : "cannot read this file");
        pc_mem_free(err);
        return false;
    }
    r->rq.buffer = pc_mem_strndup(data, r->rq.len);
    pc_mem_free(data);
    return true;
}

/* The real headers when the user says how this file is compiled (a compile database entry, or a
 * compiler command): its arguments in rq.args, true.  False: stub mode. */
static bool command_args(parse_run *r, const char *path)
{
    const pc_parse_opts *opts = r->opts;
    pc_clang_argv *args = &r->rq.args;
    bool real_mode = false;
    if (opts->compile_db_dir && *opts->compile_db_dir) {
        pc_clang_argv db = {0};
        if (compile_db_args(r->m, opts->compile_db_dir, r->abs_path, &db, &r->workdir)) {
            for (size_t i = 0; i < opts->nextra_args_before; i++)
                argv_push(args, opts->extra_args_before[i]);
            for (size_t i = 0; i < db.count; i++)
                argv_push(args, db.items[i]);
            pc_sb b = {0};
            pc_sb_printf(&b, "-working-directory=%s", r->workdir);
            char *wd = pc_sb_take(&b);
            argv_push(args, wd);
            pc_mem_free(wd);
            real_mode = true;
        }
        argv_free(&db);
    } else if (opts->ncompiler_args > 0) {
        for (size_t i = 0; i < opts->nextra_args_before; i++)
            argv_push(args, opts->extra_args_before[i]);
        pc_clang_sanitize_args(opts->compiler_args, opts->ncompiler_args, path, NULL, args);
        real_mode = true;
    }
    if (real_mode) {
        if (!has_lang_flag(args)) {
            /* kernels are C++ even in a .h file */
            pc_clang_argv v = {0};
            argv_push(&v, "-x");
            argv_push(&v, "c++");
            for (size_t i = 0; i < args->count; i++)
                PC_VEC_PUSH(v, args->items[i]);
            PC_VEC_FREE(*args);
            *args = v;
        }
        argv_push(args, "-ferror-limit=0");
        for (size_t i = 0; i < opts->nextra_args; i++)
            argv_push(args, opts->extra_args[i]);
    }
    return real_mode;
}

/* Parse with the real headers (real_mode), falling back to the stub when their parse cannot be
 * used, or with the stub: r->tu, true.  False (with a fatal message) when there is no translation
 * unit: no stub header, or libclang failed. */
static bool parse_tu(parse_run *r, bool real_mode)
{
    pc_clang_argv real_args = {0};
    if (real_mode) {
        r->tu = parse_planned(r->fe, r->st, r->opts, &r->rq, r->allow_incr, &r->plan, &r->key, &r->rc, &r->owned);
        const char *why = NULL;
        if (!r->tu)
            why = parse_error_name(r->rc);
        else if (missing_pypto_headers(r->tu)) {
            /* the command's include path does not reach the PyPTO headers (no CANN here) */
            why = "tilefwk headers not found on its include path";
            drop_tu(r->st, r->tu, r->owned);
            r->tu = NULL;
        }
        if (why) {
            pc_sb b = {0};
            pc_sb_printf(&b, "the compile command cannot be used (%s): parsed with the PyPTO stub header instead", why);
            char *msg = pc_sb_take(&b);
            pc_model_add_message(r->m, PC_MSG_WARNING, r->top, msg);
            pc_mem_free(msg);
            real_args = r->rq.args;
            memset(&r->rq.args, 0, sizeof r->rq.args);
            real_mode = false;
            plan_undo(&r->rq, &r->plan);
        }
    }
    if (!real_mode) {
        if (!find_stub(r->st)) {
            pc_model_add_message(r->m, PC_MSG_FATAL, r->top,
                                 "cannot find the PyPTO stub header " PC_CLANG_STUB_NAME
                                 " (set POOLCHECK_STUB_DIR to its directory, or pass the real headers with -p / --)");
            argv_free(&real_args);
            return false;
        }
        r->rq.stub = true;
        r->rq.pch = stub_args(r->st, r->opts, &real_args, r->workdir, true, &r->rq.args);
        r->tu = parse_planned(r->fe, r->st, r->opts, &r->rq, r->allow_incr, &r->plan, &r->key, &r->rc, &r->owned);
        if (r->rq.pch && !r->tu && r->rc == CXError_ASTReadError) {
            /* a stale or damaged PCH (clang checks it on load): remove it, so that the next run
             * builds it again, and parse the text */
            unlink(r->rq.pch);
            pc_mem_free(r->rq.pch);
            r->rq.pch = NULL;
            argv_free(&r->rq.args);
            stub_args(r->st, r->opts, &real_args, r->workdir, false, &r->rq.args);
            r->tu = parse_planned(r->fe, r->st, r->opts, &r->rq, r->allow_incr, &r->plan, &r->key, &r->rc, &r->owned);
        }
        argv_free(&real_args);
    }
    if (!r->tu) {
        pc_sb b = {0};
        pc_sb_printf(&b, "libclang could not parse this file (%s)", parse_error_name(r->rc));
        char *msg = pc_sb_take(&b);
        pc_model_add_message(r->m, PC_MSG_FATAL, r->top, msg);
        pc_mem_free(msg);
        if (r->opts->keep_tu)
            pc_clang_incr_release(r->fe->clang_incr, r->abs_path);
        return false;
    }
    return true;
}

/* The walk's context over the parse of r's text. */
static void cx_begin(pc_cx *cx, const parse_run *r)
{
    memset(cx, 0, sizeof *cx);
    cx->m = r->m;
    cx->scratch = pc_arena_new();
    cx->tu = r->tu;
    cx->main_file = clang_getFile(r->tu, r->rq.filename);
    cx->src = r->rq.buffer;
    cx->srclen = r->rq.len;
    cx->line_start = pc_clang_line_table(r->rq.buffer, r->rq.len, &cx->nlines);
    cx->in_main = true;
    cx->stub_mode = r->rq.stub;
    cx->opts = r->opts;
    cx->args = r->rq.args.items;
    cx->nargs = (int)r->rq.args.count;
    cx->kernel = -1;
    cx->cur_loop = -1;
    cx->cur_stmt = -1;
}

static void cx_end(pc_cx *cx)
{
    PC_VEC_FREE(cx->env);
    PC_VEC_FREE(cx->late);
    PC_VEC_FREE(cx->loop_spans);
    PC_VEC_FREE(cx->function_offs);
    PC_VEC_FREE(cx->body_spans);
    PC_VEC_FREE(cx->kernel_spans);
    PC_VEC_FREE(cx->cut_bodies);
    pc_mem_free(cx->line_start);
    pc_arena_free(cx->scratch);
}

/* clang's diagnostics and the walk into r->m, checked against the plan before and after; true
 * when the plan did not hold (the text is to be parsed whole). */
static bool walk_checked(parse_run *r, pc_cx *cx)
{
    if (!cx->main_file) {
        pc_model_add_message(r->m, PC_MSG_FATAL, r->top, "libclang lost track of the main file");
        return false;
    }
    if (r->plan && !pc_clang_incr_check_tu(r->plan, cx))
        return true;
    collect_diagnostics(cx);
    pc_clang_walk_tu(cx);
    return r->plan && !pc_clang_incr_check_model(r->plan, cx);
}

/* Editor mode: the model merged with the left-out bodies' analysis, and the document remembered
 * for the next edit (forgotten when the plan did not hold). */
static void store_analysis(parse_run *r, const pc_cx *cx, bool redo)
{
    if (!redo && r->plan) {
        pc_model *merged = pc_clang_incr_merge(r->fe, r->plan, r->abs_path, r->key, cx);
        pc_model_free(r->m);
        r->m = merged;
    } else if (!redo && r->opts->keep_tu) {
        pc_clang_incr_remember(r->fe, r->abs_path, r->key, cx);
    } else if (r->opts->keep_tu) {
        pc_clang_incr_release(r->fe->clang_incr, r->abs_path);
    }
}

/* One parse of the text: editor mode's incremental plan when allow_incr, else the whole text
 * (what a plan that did not hold falls back to). */
static pc_model *parse_text(pc_frontend *fe, const char *path, const char *text, size_t len, const pc_parse_opts *opts,
                            bool allow_incr)
{
    pc_parse_opts none;
    if (!opts) {
        memset(&none, 0, sizeof none);
        opts = &none;
    }
    parse_run r;
    memset(&r, 0, sizeof r);
    r.fe = fe;
    r.opts = opts;
    r.allow_incr = allow_incr;
    r.m = pc_model_new(path, PC_LANG_CPP);
    r.top = pc_model_loc(r.m, path, 1, 1, 0, 0);
    r.st = state_of(fe);
    r.rc = CXError_Success;
    r.owned = true;
    if (!read_source(&r, path, text, len))
        return r.m;
    char real[PATH_MAX];
    r.abs_path = pc_mem_strdup(realpath(path, real) ? real : path);
    r.rq.filename = r.abs_path;
    bool real_mode = command_args(&r, path);
    if (!parse_tu(&r, real_mode)) {
        run_free(&r);
        return r.m;
    }
    pc_cx cx;
    cx_begin(&cx, &r);
    bool redo = walk_checked(&r, &cx);
    store_analysis(&r, &cx, redo);
    cx_end(&cx);
    if (r.owned)
        clang_disposeTranslationUnit(r.tu);
    run_free(&r);
    if (redo) {
        /* the plan did not hold: the whole text, as a first parse would */
        pc_model_free(r.m);
        return parse_text(fe, path, text, len, opts, false);
    }
    pc_model_name_kernels(r.m); /* a shared kernel name gets its TEST (Suite.Name) in every output */
    return r.m;
}

/* (parse_thread's entry: parse_text with editor mode's plan allowed) */
static pc_model *parse_here(pc_frontend *fe, const char *path, const char *text, size_t len, const pc_parse_opts *opts)
{
    return parse_text(fe, path, text, len, opts, true);
}

/* ---- the parse thread ------------------------------------------------------------------------- */

/* Clang's parser and Sema, and the walk over the tree they build, recurse once per nesting level
 * of the source: a 50,000-term `1 + 1 + ...` needs 16-32 MB (clang-14 -fsyntax-only dies of
 * SIGSEGV with the default 8 MB stack, and libclang parses on a thread of its own with 8 MB, where
 * a stack overflow cannot be recovered: the process died with 139).  So the whole parse and walk
 * run on a thread of ours whose stack grows with the input (about 600 bytes of stack per nesting
 * level were measured, and a level takes at least two bytes of source), with
 * LIBCLANG_NOTHREADS set so that libclang runs on it (its crash recovery stays on).  The stack is
 * reserved address space; only the pages a parse touches are used. */
#define PARSE_STACK_BASE ((size_t)64 << 20)
#define PARSE_STACK_PER_BYTE 1024
#define PARSE_STACK_MAX ((size_t)8 << 30)

static pthread_once_t nothreads_once = PTHREAD_ONCE_INIT;

/* Process-wide, once: libclang reads it on every parse and reparse. */
static void set_nothreads(void) { setenv("LIBCLANG_NOTHREADS", "1", 0); }

/* Shared by the caller and the parse thread; the last of the two to let go frees it (a caller
 * that abandons the parse returns first).  The path, the text and the options with everything they
 * point to are copies (in `arena`), so that an abandoned thread never reads what its caller has
 * freed since. */
typedef struct parse_job {
    pc_frontend *fe;
    char *path;
    char *text;
    size_t len;
    pc_parse_opts opts;
    pc_arena *arena;
    const char *oom_file;
    pc_model *model;
    _Atomic int refs;
    _Atomic bool abandoned;
} parse_job;

static void job_release(parse_job *j)
{
    if (atomic_fetch_sub(&j->refs, 1) != 1)
        return;
    if (atomic_load(&j->abandoned))
        pc_model_free(j->model);
    pc_mem_free(j->path);
    pc_mem_free(j->text);
    pc_arena_free(j->arena);
    pc_mem_free(j);
}

static const char *const *copy_strings(pc_arena *a, const char *const *v, size_t n)
{
    if (!v)
        return NULL;
    const char **out = pc_arena_alloc(a, (n ? n : 1) * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = pc_arena_strdup(a, v[i]);
    return out;
}

/* The parse's own copy of the options: the thread outlives its caller's arrays when abandoned. */
static void copy_parse_opts(parse_job *j, const pc_parse_opts *o)
{
    pc_arena *a = j->arena = pc_arena_new();
    j->opts = *o;
    /* opts.cancelled stays: wait_bounded, on the caller's thread, is its only reader */
    j->opts.compile_db_dir = pc_arena_strdup(a, o->compile_db_dir);
    j->opts.extra_args = copy_strings(a, o->extra_args, o->nextra_args);
    j->opts.extra_args_before = copy_strings(a, o->extra_args_before, o->nextra_args_before);
    j->opts.compiler_args = copy_strings(a, o->compiler_args, o->ncompiler_args);
    j->opts.python_path = copy_strings(a, o->python_path, o->npython_path);
    j->opts.kernel_names = copy_strings(a, o->kernel_names, o->nkernel_names);
    if (o->bindings) {
        pc_bindings *sets = pc_arena_alloc(a, (o->nbindings ? o->nbindings : 1) * sizeof *sets);
        for (size_t s = 0; s < o->nbindings; s++) {
            pc_binding *items = pc_arena_alloc(a, (o->bindings[s].count ? o->bindings[s].count : 1) * sizeof *items);
            for (size_t i = 0; i < o->bindings[s].count; i++) {
                items[i].name = pc_arena_strdup(a, o->bindings[s].items[i].name);
                items[i].value = o->bindings[s].items[i].value;
            }
            sets[s].items = items;
            sets[s].count = o->bindings[s].count;
        }
        j->opts.bindings = sets;
    }
    if (o->binding_sources) {
        const char *const **src = pc_arena_alloc(a, (o->nbindings ? o->nbindings : 1) * sizeof *src);
        for (size_t s = 0; s < o->nbindings; s++)
            src[s] = o->binding_sources[s] ? copy_strings(a, o->binding_sources[s], o->bindings ? o->bindings[s].count : 0)
                                           : NULL;
        j->opts.binding_sources = src;
    }
}

static void *parse_thread(void *arg)
{
    parse_job *j = arg;
    /* LLVM's signal handlers (crash recovery) give the thread an alternate signal stack of their
     * own when the one in place is too small, and never take it back.  The thread ends with the
     * one it started with, so whoever installed that (AddressSanitizer unmaps its own at thread
     * exit and aborts with "unable to unmap" when it finds LLVM's) finds it again. */
    stack_t entry_altstack;
    bool have_altstack = sigaltstack(NULL, &entry_altstack) == 0;
    pc_mem_oom_context(j->oom_file); /* the out-of-memory message still names the file */
    pc_clang_guard guard;
    (void)pc_clang_guard_begin(&guard);
    j->model = parse_here(j->fe, j->path, j->text, j->len, &j->opts);
    pc_clang_guard_end(&guard);
    if (have_altstack) {
        if (entry_altstack.ss_flags & SS_DISABLE)
            entry_altstack.ss_flags = SS_DISABLE;
        (void)sigaltstack(&entry_altstack, NULL);
    }
    job_release(j);
    return NULL;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The process's resident memory in MB (/proc/self/statm), or 0 when it cannot be read. */
static size_t resident_mb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long size = 0, rss = 0;
    int n = fscanf(f, "%lu %lu", &size, &rss);
    fclose(f);
    if (n != 2)
        return 0;
    return (size_t)((unsigned long long)rss * (unsigned long long)sysconf(_SC_PAGESIZE) >> 20);
}

/* The memory bound when the options leave it at 0: three quarters of the physical memory, at most
 * 8 GB (a parse of real kernels stays far below; /dev/zero read to its end does not). */
static size_t default_parse_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t cap = (size_t)8 << 10;
    if (pages <= 0 || page <= 0)
        return cap;
    size_t phys = (size_t)((unsigned long long)pages * (unsigned long long)page >> 20);
    return phys / 4 * 3 < cap ? phys / 4 * 3 : cap;
}

/* How often a bounded parse is looked at: the caller's cancel is answered within this. */
#define PARSE_POLL_NS (20 * 1000 * 1000)

/* Wait for the parse thread; past a bound or once the caller cancels, abandon it and say why
 * (NULL: it ended). */
static char *wait_bounded(pthread_t th, const parse_job *j)
{
    double limit_s = j->opts.max_parse_seconds;
    bool timed = limit_s > 0;
    if (!timed && !j->opts.cancelled) {
        pthread_join(th, NULL);
        return NULL;
    }
    size_t limit_mb = j->opts.max_parse_mb ? j->opts.max_parse_mb : default_parse_mb();
    double t0 = mono_now();
    pc_sb b = {0};
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts); /* pthread_timedjoin_np's clock */
        ts.tv_nsec += PARSE_POLL_NS;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        if (pthread_timedjoin_np(th, NULL, &ts) == 0)
            return NULL;
        size_t mb = resident_mb();
        if (j->opts.cancelled && j->opts.cancelled(j->opts.cancel_user)) {
            pc_sb_printf(&b, "parsing '%s' was cancelled: not analysed", j->path);
            break;
        }
        if (timed && mono_now() - t0 > limit_s) {
            pc_sb_printf(&b, "parsing '%s' took longer than %g s (--max-parse-seconds): stopped, not analysed",
                         j->path, limit_s);
            break;
        }
        if (mb > limit_mb) {
            pc_sb_printf(&b, "parsing '%s' took more than %zu MB of memory: stopped, not analysed", j->path,
                         limit_mb);
            break;
        }
    }
    pthread_detach(th);
    return pc_sb_take(&b);
}

static size_t parse_stack_size(const char *path, const char *text, size_t len)
{
    size_t bytes = len;
    struct stat sb;
    if (!text && stat(path, &sb) == 0 && sb.st_size > 0)
        bytes = (size_t)sb.st_size;
    if (bytes > (PARSE_STACK_MAX - PARSE_STACK_BASE) / PARSE_STACK_PER_BYTE)
        return PARSE_STACK_MAX;
    return PARSE_STACK_BASE + bytes * PARSE_STACK_PER_BYTE;
}

pc_model *pc_clang_parse(pc_frontend *fe, const char *path, const char *text, size_t len, const pc_parse_opts *opts)
{
    pthread_once(&nothreads_once, set_nothreads);
    if (atomic_load(&fe->abandoned)) {
        pc_model *m = pc_model_new(path, PC_LANG_CPP);
        pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0),
                             "not parsed: an earlier parse in this session went past its bounds");
        return m;
    }
    parse_job *job = pc_mem_calloc(1, sizeof *job);
    job->fe = fe;
    job->path = pc_mem_strdup(path);
    if (text) {
        job->text = pc_mem_alloc(len + 1);
        memcpy(job->text, text, len);
        job->text[len] = '\0';
    }
    job->len = len;
    copy_parse_opts(job, opts);
    job->oom_file = pc_mem_oom_file();
    atomic_init(&job->refs, 2);
    atomic_init(&job->abandoned, false);
    size_t stack = parse_stack_size(path, text, len);
    pthread_attr_t attr;
    int err = pthread_attr_init(&attr);
    if (!err)
        err = pthread_attr_setstacksize(&attr, stack);
    pthread_t th;
    if (!err)
        err = pthread_create(&th, &attr, parse_thread, job);
    pthread_attr_destroy(&attr);
    if (err) {
        job->refs = 1;
        job_release(job);
        pc_model *m = pc_model_new(path, PC_LANG_CPP);
        pc_sb b = {0};
        pc_sb_printf(&b, "cannot start the parse thread with a %zu MB stack: %s", stack >> 20, strerror(err));
        char *msg = pc_sb_take(&b);
        pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0), msg);
        pc_mem_free(msg);
        return m;
    }
    char *why = wait_bounded(th, job);
    if (why) {
        atomic_store(&fe->abandoned, true);
        atomic_store(&job->abandoned, true);
        job_release(job);
        pc_model *m = pc_model_new(path, PC_LANG_CPP);
        pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0), why);
        pc_mem_free(why);
        return m;
    }
    pc_model *m = job->model;
    job_release(job);
    return m;
}
