/*
 * main.c - poolcheck-cc: poolcheck in a build, beside every compile.
 *
 * Two calling conventions, told apart by the first argument that is not one of our options:
 *
 * 1. Compiler launcher (CMAKE_<LANG>_COMPILER_LAUNCHER, or by hand):
 *        poolcheck-cc [options] [ccache|sccache|distcc|env VAR=V...] <compiler> <args...>
 *    The first argument is a program.  poolcheck-cc finds the source file(s) in the compiler's
 *    arguments, analyses each through pc_check_file with that compiler command as
 *    parse.compiler_args, prints diagnostics on stderr in clang's format, and then either fails
 *    (exit 1, on error-level findings, unless POOLCHECK_CC_WARN_ONLY=1) or execs the command
 *    unchanged: with CMAKE_CXX_COMPILER_LAUNCHER="poolcheck-cc;ccache" CMake runs
 *    `poolcheck-cc ccache c++ ... -c k.cpp`, so the lint runs on every build (ccache can only
 *    cache the compile), and the compiler is the first non-launcher program.
 *
 * 2. clang-tidy's slot (CMAKE_<LANG>_CLANG_TIDY):
 *        poolcheck-cc [options] --extra-arg-before=--driver-mode=g++ <src> -- <compiler cmd>
 *        poolcheck-cc [options] -p <build dir> <src>
 *    The first argument is an option of clang-tidy's (-p, --extra-arg*) or a source file.  Lint,
 *    print diagnostics on stdout (CMake shows a co-compile tool's stdout, and its stderr only on
 *    failure), exit 1 on error-level findings, and run nothing: CMake runs the compiler itself.
 *
 * A source with no kernel marker (FUNCTION, SetRuntimeOption, jit, runtime options) is not
 * parsed at all: non-kernel files cost one read.  A source poolcheck cannot parse is reported and
 * passed through; the compiler will say what is wrong with it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "poolcheck/poolcheck.h"
#include "poolcheck/report.h"
#include "poolcheck/support.h"

static const char usage[] =
    "usage: poolcheck-cc [options] <compiler> <compiler args...>       (compiler launcher)\n"
    "       poolcheck-cc [options] [-p DIR] [--extra-arg[-before]=ARG] <source>... [-- <compiler cmd>]\n"
    "                                                                   (clang-tidy calling convention)\n"
    "\n"
    "Runs poolcheck on the source being compiled.  As a launcher it then runs the compiler\n"
    "unchanged, unless an error-level diagnostic was found (exit 1).  In clang-tidy's convention\n"
    "it only lints.  A leading ccache/sccache/distcc (or `env VAR=VALUE...`) is skipped when\n"
    "looking for the compiler and kept in the command that runs.  Response files (@FILE) in the\n"
    "compiler's arguments are read for the lint as GCC and clang read them; the compiler gets\n"
    "them unchanged.\n"
    "\n"
    "options (the `--opt=value` form only):\n"
    "  --set=KEY=VALUE           a runtime option, as `poolcheck check --set`\n"
    "  --bind=NAME=VALUE         bind a symbol (repeatable)\n"
    "  --config=FILE             tile_fwk_config.json whose \"runtime\" section applies\n"
    "  --checks=GLOBS            select checks (`PC*,-PC009`)\n"
    "  --warnings-as-errors=GLOBS\n"
    "  --warn-only               never fail (also POOLCHECK_CC_WARN_ONLY=1)\n"
    "\n"
    "environment: POOLCHECK_CC_WARN_ONLY=1 reports but never fails; POOLCHECK_CC_DISABLE=1 skips\n"
    "the analysis entirely (the launcher just runs the compiler).\n";

typedef PC_VEC(const char *) str_vec;

typedef struct cc_opts {
    pc_arena *arena;
    PC_VEC(pc_option) ext;           /* --config's options, then --set's */
    PC_VEC(pc_binding) binds;
    const char *checks, *werror;
    bool warn_only;
    /* clang-tidy convention */
    bool tidy;
    const char *compile_db_dir;
    str_vec extra_args, extra_args_before;
    str_vec sources;                 /* named explicitly (tidy convention) */
    PC_VEC(pc_config_file *) configs;
    char **compiler;                 /* the compiler command (launcher: after the launchers) */
    int ncompiler;
    char **command;                  /* launcher: what runs afterwards, launchers included */
} cc_opts;

static void cc_opts_free(cc_opts *o)
{
    PC_VEC_FREE(o->ext);
    PC_VEC_FREE(o->binds);
    PC_VEC_FREE(o->extra_args);
    PC_VEC_FREE(o->extra_args_before);
    PC_VEC_FREE(o->sources);
    for (size_t i = 0; i < o->configs.count; i++)
        pc_cfg_config_file_free(o->configs.items[i]);
    PC_VEC_FREE(o->configs);
    pc_arena_free(o->arena);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Compiler caches and distributors that take the real compiler as their first argument. */
static bool is_launcher(const char *prog)
{
    static const char *const names[] = {"ccache", "sccache", "distcc", "icecc", "buildcache"};
    const char *b = base_name(prog);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(b, names[i]) == 0)
            return true;
    return false;
}

/* Source files by extension: the translation units of the frontend's one extension list (a
 * header named on a command line is an -include or a precompiled header, not a unit). */
static bool is_source_name(const char *a)
{
    const pc_source_ext *e = pc_frontend_source_ext(a);
    return e && !e->header;
}

/* Compiler options (gcc/clang spelling) whose value is the next argument.  Knowing them keeps
 * `-o k.cpp.o`, `-MF k.d` or `-include k.h` from being taken for sources. */
static bool takes_value(const char *a)
{
    static const char *const opts[] = {
        "-o", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
        "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib", "-MF", "-MT",
        "-MQ", "-Xclang", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-L", "-T", "-target",
        "-arch", "-aux-info", "--param", "-G", "-z", "-u", "-e", "-dumpbase", "-dumpdir",
        "-Xcuda-ptxas", "-Xarch_host", "-Xarch_device", "--sysroot", "-working-directory",
        "-resource-dir", "--serialize-diagnostics", "-ivfsoverlay", "-B"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (strcmp(a, opts[i]) == 0)
            return true;
    return false;
}

/* The sources in a compiler command (argv[0] is the compiler).  After `-x LANG` (LANG not
 * "none") every positional argument is a source whatever its name; otherwise only recognised
 * extensions count, so object files and libraries on a link line are not. */
static void find_sources(char **argv, int argc, str_vec *out)
{
    bool forced = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-x") == 0 && i + 1 < argc) {
            forced = strcmp(argv[++i], "none") != 0;
            continue;
        }
        if (has_prefix(a, "-x") && a[2]) {
            forced = strcmp(a + 2, "none") != 0;
            continue;
        }
        if (takes_value(a)) {
            i++;
            continue;
        }
        if (a[0] == '-' || a[0] == '@')
            continue;   /* an option, or a response file that could not be read (expand_response_files) */
        if (forced || is_source_name(a))
            PC_VEC_PUSH(*out, a);
    }
}

/* ---- response files ------------------------------------------------------------------------
 * `cc @args.rsp`: the compiler reads more arguments from the file (CMake and Ninja write them for
 * long command lines).  The lint must see them: `-c bad.cpp` in a response file was never linted.
 * They are expanded as GCC (libiberty's expandargv) and clang (llvm::cl's GNU tokenizer) do:
 *   - blanks (space, tab, newline, CR, FF, VT) separate arguments; "..." and '...' quote, also in
 *     the middle of an argument (a"b c"d is one); a backslash takes the next character as it is,
 *     inside quotes too; "" is an empty argument; the text ends at a NUL byte;
 *   - an @file among the arguments read is expanded in its turn: a relative name from the working
 *     directory, as GCC looks for it, else beside the file that names it, as clang does;
 *   - an @file that cannot be read stays a literal argument (GCC hands it to the compiler as is).
 * Bounds, so that a file including itself (GCC stops after 2000 expansions) or a huge one cannot
 * hang the build or exhaust memory: RSP_DEPTH levels, RSP_FILES files, RSP_BYTES of text and
 * RSP_ARGS arguments in all.  Only the lint reads the expansion: the compiler runs with the
 * arguments it was given and expands them itself. */
enum { RSP_DEPTH = 32, RSP_FILES = 2000, RSP_ARGS = 1 << 20 };
#define RSP_BYTES ((size_t)16 << 20)

typedef struct rsp {
    pc_arena *arena;   /* the expanded arguments live here (cc_opts' arena) */
    str_vec *out;
    size_t files, bytes;
    char *error;       /* a bound was passed: why (arena) */
} rsp;

static bool rsp_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool rsp_expand(rsp *r, const char *arg, const char *from, int depth);

/* An argument as an error message may show it: a control character in a file name must not
 * reach the terminal (the library's escaping is not in the public API), so it becomes '?'. */
static const char *rsp_shown(rsp *r, const char *arg)
{
    char *s = pc_arena_strdup(r->arena, arg);
    for (char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return s;
}

static bool rsp_push(rsp *r, const char *arg)
{
    if (r->out->count >= RSP_ARGS) {
        r->error = pc_arena_printf(r->arena, "more than %d arguments in response files", RSP_ARGS);
        return false;
    }
    PC_VEC_PUSH(*r->out, pc_arena_strdup(r->arena, arg));
    return true;
}

/* The arguments of one response file's text, each expanded in its turn (dir: the file's own
 * directory, for nested relative names). */
static bool rsp_tokens(rsp *r, const char *text, const char *dir, int depth)
{
    pc_sb tok = {0};
    bool ok = true;
    const char *p = text;
    while (ok && *p) {
        while (rsp_blank(*p))
            p++;
        if (!*p)
            break;
        tok.len = 0;
        pc_sb_append(&tok, ""); /* an empty argument ("") is still an argument */
        char quote = 0;
        for (; *p; p++) {
            if (*p == '\\' && p[1]) {
                pc_sb_putc(&tok, *++p);
            } else if (quote) {
                if (*p == quote)
                    quote = 0;
                else
                    pc_sb_putc(&tok, *p);
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (rsp_blank(*p)) {
                break;
            } else {
                pc_sb_putc(&tok, *p);
            }
        }
        ok = rsp_expand(r, tok.data, dir, depth);
    }
    pc_sb_free(&tok);
    return ok;
}

/* One argument: itself, or the arguments of the response file it names.  from: the directory of
 * the response file it was read from (NULL on the command line). */
static bool rsp_expand(rsp *r, const char *arg, const char *from, int depth)
{
    if (arg[0] != '@' || !arg[1])
        return rsp_push(r, arg);
    const char *name = arg + 1;
    char *beside = NULL;
    struct stat st;
    bool found = stat(name, &st) == 0 && S_ISREG(st.st_mode);
    if (!found && from && name[0] != '/') {
        beside = pc_arena_printf(r->arena, "%s/%s", from, name);
        if (stat(beside, &st) == 0 && S_ISREG(st.st_mode)) {
            name = beside;
            found = true;
        }
    }
    if (!found)
        return rsp_push(r, arg); /* GCC passes it on as a literal argument */
    if (depth >= RSP_DEPTH) {
        r->error = pc_arena_printf(r->arena, "response files nested more than %d deep (does %s include itself?)",
                                   RSP_DEPTH, rsp_shown(r, arg));
        return false;
    }
    if (++r->files > RSP_FILES) {
        r->error = pc_arena_printf(r->arena, "more than %d response files", RSP_FILES);
        return false;
    }
    if ((uint64_t)st.st_size > RSP_BYTES - r->bytes) {
        r->error = pc_arena_printf(r->arena, "more than %zu MiB of response files (at %s)", RSP_BYTES >> 20,
                                   rsp_shown(r, arg));
        return false;
    }
    size_t len = 0;
    char *err = NULL;
    char *text = pc_read_file_max(name, RSP_BYTES - r->bytes, &len, &err);
    if (!text) {
        pc_mem_free(err);
        return rsp_push(r, arg); /* unreadable after all: as GCC, a literal argument */
    }
    r->bytes += len;
    const char *slash = strrchr(name, '/');
    const char *dir = slash ? pc_arena_strndup(r->arena, name, slash == name ? 1 : (size_t)(slash - name)) : ".";
    bool ok = rsp_tokens(r, text, dir, depth + 1);
    pc_mem_free(text);
    return ok;
}

/* argv[0..argc) with its @files expanded (argv[0], the compiler, is not: neither GCC nor clang
 * expands it) into out, whose strings live in the arena.  False with *err (pc_mem_free it) on a
 * passed bound. */
static bool expand_response_files(pc_arena *arena, char **argv, int argc, str_vec *out, char **err)
{
    rsp r = {arena, out, 0, 0, NULL};
    for (int i = 0; i < argc; i++) {
        if (i == 0 ? !rsp_push(&r, argv[0]) : !rsp_expand(&r, argv[i], NULL, 0)) {
            *err = pc_mem_strdup(r.error ? r.error : "cannot expand the response files");
            return false;
        }
    }
    return true;
}

/* Cheap test before parsing: does the text mention anything poolcheck reports on?  Kernels
 * (FUNCTION / jit / pypto.function) and runtime option sites (SetRuntimeOption,
 * set_runtime_options, runtime_options=). */
static bool mentions_kernel(const char *path)
{
    size_t len = 0;
    char *err = NULL;
    char *text = pc_read_file(path, &len, &err);
    if (!text) {
        pc_mem_free(err);
        return true;   /* let the analysis report the unreadable file */
    }
    static const char *const marks[] = {"FUNCTION", "RuntimeOption", "runtime_options", "jit",
                                        "pypto.function"};
    bool found = false;
    for (size_t i = 0; i < sizeof marks / sizeof *marks && !found; i++)
        found = strstr(text, marks[i]) != NULL;
    pc_mem_free(text);
    return found;
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("poolcheck-cc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n", stderr);
    fputs(usage, stderr);
    return 2;
}

/* usage_error for a message of the library's (freed here). */
static int usage_error_owned(const char *fmt, char *msg)
{
    int status = usage_error(fmt, msg);
    pc_mem_free(msg);
    return status;
}

static bool add_binding(cc_opts *o, const char *arg, char **err)
{
    pc_binding b;
    if (!pc_cfg_bind_parse(o->arena, arg, &b, err))
        return false;
    PC_VEC_PUSH(o->binds, b);
    return true;
}

static bool load_config(cc_opts *o, const char *path)
{
    char *err = NULL;
    pc_config_file *f = pc_cfg_load_config_file(path, &err);
    if (!f) {
        fprintf(stderr, "poolcheck-cc: error: %s\n", err ? err : "cannot read the config file");
        pc_mem_free(err);
        return false;
    }
    /* The options point into f's arena, which lives until cc_opts_free. */
    for (size_t i = 0; i < f->noptions; i++) {
        pc_option opt = f->options[i];
        PC_VEC_PUSH(o->ext, opt);
    }
    PC_VEC_PUSH(o->configs, f);
    return true;
}

/* Parse our arguments.  Returns -1 to go on, else an exit status. */
static int parse_args(cc_opts *o, int argc, char **argv)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            o->tidy = true;
            o->compiler = argv + i + 1;
            o->ncompiler = argc - i - 1;
            return -1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("poolcheck-cc %s\n", pc_version());
            return 0;
        } else if (has_prefix(a, "--set=")) {
            pc_option opt;
            memset(&opt, 0, sizeof opt);
            char *err = NULL;
            if (!pc_cfg_parse_set(o->arena, a + 6, &opt, &err))
                return usage_error_owned("--set: %s", err);
            opt.site = PC_SITE_COMMAND_LINE;
            opt.kernel = -1;
            PC_VEC_PUSH(o->ext, opt);
        } else if (has_prefix(a, "--bind=")) {
            char *err = NULL;
            if (!add_binding(o, a + 7, &err))
                return usage_error_owned("--%s", err);
        } else if (has_prefix(a, "--config=")) {
            if (!load_config(o, a + 9))
                return 2;
        } else if (has_prefix(a, "--checks=")) {
            o->checks = a + 9;
        } else if (has_prefix(a, "--warnings-as-errors=")) {
            o->werror = a + 21;
        } else if (strcmp(a, "--warn-only") == 0) {
            o->warn_only = true;
        } else if (has_prefix(a, "--extra-arg-before=")) {
            o->tidy = true;
            PC_VEC_PUSH(o->extra_args_before, a + 19);
        } else if (has_prefix(a, "--extra-arg=")) {
            o->tidy = true;
            PC_VEC_PUSH(o->extra_args, a + 12);
        } else if (strcmp(a, "-p") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s wants a build directory", a);
            o->tidy = true;
            o->compile_db_dir = argv[++i];
        } else if (has_prefix(a, "-p=")) {
            o->tidy = true;
            o->compile_db_dir = a + 3;
        } else if (has_prefix(a, "--quiet") || has_prefix(a, "--use-color") ||
                   has_prefix(a, "--header-filter=") || has_prefix(a, "--export-fixes=")) {
            /* clang-tidy options users carry over with the slot: meaningless here, harmless. */
            o->tidy = true;
        } else if (a[0] == '-') {
            return usage_error("unknown option '%s'", a);
        } else if (o->tidy || is_source_name(a)) {
            o->tidy = true;
            PC_VEC_PUSH(o->sources, a);
        } else {
            break;   /* the launched command */
        }
    }
    if (o->tidy) {
        if (o->sources.count == 0)
            return usage_error("%s", "no source file to check");
        return -1;
    }
    if (i == argc)
        return usage_error("%s", "no compiler command");
    o->command = argv + i;
    /* Skip launchers (and `env VAR=VALUE...`) to the compiler itself. */
    int j = i;
    while (j < argc) {
        if (is_launcher(argv[j])) {
            j++;
        } else if (strcmp(base_name(argv[j]), "env") == 0) {
            j++;
            while (j < argc && (strchr(argv[j], '=') || argv[j][0] == '-'))
                j++;
        } else {
            break;
        }
    }
    if (j == argc)
        return usage_error("%s", "no compiler after the launcher");
    o->compiler = argv + j;
    o->ncompiler = argc - j;
    return -1;
}

/* Analyse one source.  Returns the number of error-level diagnostics. */
static size_t check_one(pc_frontend *fe, const cc_opts *o, const char *src, FILE *out)
{
    pc_check_opts co;
    pc_check_opts_init(&co);
    /* What a C/C++ compiler compiles is C++ to poolcheck, whatever its name (`-x c++ k.cce`). */
    co.parse.lang = pc_frontend_lang_of(src);
    if (co.parse.lang == PC_LANG_UNKNOWN)
        co.parse.lang = PC_LANG_CPP;
    co.parse.compile_db_dir = o->compile_db_dir;
    co.parse.extra_args = o->extra_args.items;
    co.parse.nextra_args = o->extra_args.count;
    co.parse.extra_args_before = o->extra_args_before.items;
    co.parse.nextra_args_before = o->extra_args_before.count;
    co.parse.compiler_args = (const char *const *)o->compiler;
    co.parse.ncompiler_args = o->compiler ? (size_t)o->ncompiler : 0;
    pc_bindings set = {o->binds.items, o->binds.count};
    if (set.count) {
        co.analysis.binding_sets = &set;
        co.analysis.nbinding_sets = 1;
    }
    co.ext_opts = o->ext.items;
    co.next_opts = o->ext.count;
    co.checks = o->checks;
    co.werror = o->werror;
    /* The .poolcheck.json governing the source fills what the arguments leave open, layered as
     * on the command line (pc_check_opts_layer). */
    pc_config_cache *cache = pc_config_cache_new();
    pc_arena *oarena = pc_arena_new();
    const pc_project_config *proj = NULL;
    char *perr = NULL;
    if (!pc_config_cache_project(cache, src, NULL, true, &proj, &perr)) {
        fprintf(stderr, "poolcheck-cc: error: %s\n", perr ? perr : "cannot read the project file");
        pc_mem_free(perr);
        pc_arena_free(oarena);
        pc_config_cache_free(cache);
        return 1;
    }
    if (proj) {
        pc_opts_layers l = {0};
        l.project = proj;
        l.config = o->configs.count ? o->configs.items[o->configs.count - 1] : NULL;
        if (!l.config && proj->config_path && !(l.config = pc_config_cache_config_file(cache, proj->config_path, &perr))) {
            fprintf(stderr, "poolcheck-cc: error: %s\n", perr ? perr : proj->config_path);
            pc_mem_free(perr);
            pc_arena_free(oarena);
            pc_config_cache_free(cache);
            return 1;
        }
        size_t first_set = 0;
        while (first_set < o->ext.count && o->ext.items[first_set].site != PC_SITE_COMMAND_LINE)
            first_set++;
        l.set_opts = o->ext.items + first_set;
        l.nset_opts = o->ext.count - first_set;
        l.binds = o->binds.items;
        l.nbinds = o->binds.count;
        l.checks_given = o->checks != NULL;
        l.werror_given = o->werror != NULL;
        pc_check_opts_layer(&co, &l, oarena);
    }
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, src, NULL, 0, &co, &err);
    if (!fr) {
        fprintf(stderr, "poolcheck-cc: error: %s\n", err);
        pc_mem_free(err);
        pc_arena_free(oarena);
        pc_config_cache_free(cache);
        return 1;
    }
    pc_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = PC_FMT_TEXT;
    ro.color = isatty(fileno(out)) && !getenv("NO_COLOR");
    ro.assemble_headroom = co.analysis.assemble_headroom;
    pc_rep_write(out, &fr, 1, &ro);
    /* A file poolcheck cannot parse does not fail the build: the compiler judges the source. */
    size_t errors = fr->model->fatal ? 0 : pc_diag_count(fr->sink, PC_SEV_ERROR);
    pc_file_result_free(fr);
    pc_arena_free(oarena);
    pc_config_cache_free(cache);
    return errors;
}

int main(int argc, char **argv)
{
    cc_opts o;
    memset(&o, 0, sizeof o);
    o.arena = pc_arena_new();
    int rc = parse_args(&o, argc, argv);
    if (rc >= 0) {
        cc_opts_free(&o);
        return rc;
    }
    const char *wo = getenv("POOLCHECK_CC_WARN_ONLY");
    if (wo && *wo && strcmp(wo, "0") != 0)
        o.warn_only = true;
    const char *off = getenv("POOLCHECK_CC_DISABLE");
    bool disabled = off && *off && strcmp(off, "0") != 0;

    /* The lint reads the compiler's arguments with their response files expanded; o.command,
     * what runs afterwards, keeps them as they were given. */
    str_vec expanded = {0};
    size_t errors = 0;
    if (!disabled && o.compiler && o.ncompiler > 0) {
        char *err = NULL;
        if (!expand_response_files(o.arena, o.compiler, o.ncompiler, &expanded, &err)) {
            fprintf(stderr, "poolcheck-cc: error: %s; the sources in them are not checked\n", err);
            pc_mem_free(err);
            errors++;
            disabled = true;
        } else {
            o.compiler = (char **)expanded.items;
            o.ncompiler = (int)expanded.count;
        }
    }
    str_vec sources = {0};
    if (o.tidy) {
        for (size_t i = 0; i < o.sources.count; i++)
            PC_VEC_PUSH(sources, o.sources.items[i]);
    } else if (!disabled) {
        find_sources(o.compiler, o.ncompiler, &sources);
    }
    FILE *out = o.tidy ? stdout : stderr;
    pc_frontend *fe = NULL;
    for (size_t i = 0; !disabled && i < sources.count; i++) {
        if (!mentions_kernel(sources.items[i]))
            continue;
        if (!fe)
            fe = pc_frontend_new();
        errors += check_one(fe, &o, sources.items[i], out);
    }
    fflush(out);
    pc_frontend_free(fe);
    PC_VEC_FREE(sources);
    PC_VEC_FREE(expanded);
    bool fail = errors > 0 && !o.warn_only;
    if (o.tidy || fail) {
        if (fail && !o.tidy)
            fprintf(stderr, "poolcheck-cc: not compiling: %zu error%s (POOLCHECK_CC_WARN_ONLY=1 to "
                            "compile anyway)\n", errors, errors == 1 ? "" : "s");
        cc_opts_free(&o);
        return fail ? 1 : 0;
    }
    char **command = o.command;
    cc_opts_free(&o);
    fflush(stderr);
    execvp(command[0], command);
    fprintf(stderr, "poolcheck-cc: error: cannot run '%s': %s\n", command[0], strerror(errno));
    return 127;
}
