/* cmd_check.c - `poolcheck check [options] FILE|DIR...`: predict, lint, report. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char check_help[] =
    "usage: poolcheck check [options] FILE|DIR... [-- COMPILER ARGS]\n"
    "Predict the minimal stitch_function_num_per_pool depths of every PyPTO kernel in the files\n"
    "(directories are searched for .py .cpp .cc .cxx .h .hpp) and lint their runtime options.\n\n"
    "Output options:\n"
    "  --format=text|json|sarif|github   output format (default text)\n"
    "  -o FILE                   write the output (or the emitted config) to FILE\n"
    "  --emit-config=json|python|cpp     print the suggested runtime configuration\n"
    "  --fix                     rewrite stitch_function_num_per_pool in the sources\n"
    "  --fix-dry-run             print the fixes as a unified diff instead\n"
    "  --no-summary              text: diagnostics only, no per-kernel summary\n"
    "  --color=auto|always|never\n"
    "  --exclude GLOB            skip matching files when searching directories (repeatable)\n"
    "  --verbose                 say which files hold no kernel\n"
    "  --list-checks             list the checks and exit\n\n";

typedef PC_VEC(char *) str_vec;

static bool has_kernel_ext(const char *path)
{
    static const char *exts[] = {".py", ".cpp", ".cc", ".cxx", ".h", ".hpp"};
    const char *dot = strrchr(path, '.');
    if (!dot)
        return false;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return true;
    return false;
}

static bool excluded(const char *path, const str_vec *excludes)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < excludes->count; i++)
        if (pc_glob_match(excludes->items[i], path) || pc_glob_match(excludes->items[i], base))
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Directories are searched recursively in name order; symbolic links to directories are not
 * followed (no loops); hidden directories (.git) are skipped. */
static void collect_dir(const char *dir, const str_vec *excludes, str_vec *out, int depth)
{
    if (depth > 64)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    str_vec names = {0};
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            PC_VEC_PUSH(names, pc_mem_strdup(e->d_name));
    closedir(d);
    if (names.count)
        qsort(names.items, names.count, sizeof(char *), cmp_str);
    for (size_t i = 0; i < names.count; i++) {
        pc_sb p = {0};
        pc_sb_printf(&p, "%s/%s", dir, names.items[i]);
        char *path = pc_sb_take(&p);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect_dir(path, excludes, out, depth + 1);
            pc_mem_free(path);
        } else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && has_kernel_ext(path) && !excluded(path, excludes)) {
            PC_VEC_PUSH(*out, path);
        } else {
            pc_mem_free(path);
        }
        pc_mem_free(names.items[i]);
    }
    PC_VEC_FREE(names);
}

static void list_checks(void)
{
    size_t n;
    const pc_check_info *t = pc_chk_table(&n);
    for (size_t i = 0; i < n; i++)
        printf("%s  %-28s %-8s %s\n", t[i].id, t[i].name, pc_severity_name(t[i].severity), t[i].summary);
}

int pc_cmd_check(int argc, char **argv)
{
    pc_cli_common c;
    pc_cli_common_init(&c);
    pc_report_opts ro = {0};
    ro.format = PC_FMT_TEXT;
    ro.summary = true;
    const char *out_path = NULL, *emit = NULL, *color = "auto";
    bool fix = false, fix_dry = false;
    str_vec inputs = {0}, excludes = {0}, files = {0};
    int status = PC_EXIT_OK;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (int j = i + 1; j < argc; j++)
                PC_VEC_PUSH(c.compiler_args, argv[j]);
            break;
        }
        int r = pc_cli_common_option(&c, argc, argv, &i);
        if (r < 0) {
            status = PC_EXIT_USAGE;
            goto done;
        }
        if (r > 0)
            continue;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s%s", check_help, pc_cli_common_help);
            goto done;
        } else if (strcmp(a, "--list-checks") == 0) {
            list_checks();
            goto done;
        } else if (strncmp(a, "--format=", 9) == 0 || (strcmp(a, "--format") == 0 && i + 1 < argc)) {
            const char *f = a[8] == '=' ? a + 9 : argv[++i];
            if (strcmp(f, "text") == 0) ro.format = PC_FMT_TEXT;
            else if (strcmp(f, "json") == 0) ro.format = PC_FMT_JSON;
            else if (strcmp(f, "sarif") == 0) ro.format = PC_FMT_SARIF;
            else if (strcmp(f, "github") == 0) ro.format = PC_FMT_GITHUB;
            else {
                pc_cli_error("unknown --format '%s' (text, json, sarif, github)", f);
                status = PC_EXIT_USAGE;
                goto done;
            }
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strncmp(a, "--emit-config=", 14) == 0) {
            emit = a + 14;
            if (strcmp(emit, "json") && strcmp(emit, "python") && strcmp(emit, "cpp")) {
                pc_cli_error("unknown --emit-config '%s' (json, python, cpp)", emit);
                status = PC_EXIT_USAGE;
                goto done;
            }
        } else if (strcmp(a, "--fix") == 0) {
            fix = true;
        } else if (strcmp(a, "--fix-dry-run") == 0) {
            fix_dry = true;
        } else if (strcmp(a, "--no-summary") == 0) {
            ro.summary = false;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            ro.verbose = true;
        } else if (strncmp(a, "--color=", 8) == 0) {
            color = a + 8;
        } else if (strcmp(a, "--exclude") == 0 && i + 1 < argc) {
            PC_VEC_PUSH(excludes, argv[++i]);
        } else if (strncmp(a, "--exclude=", 10) == 0) {
            PC_VEC_PUSH(excludes, (char *)a + 10);
        } else if (a[0] == '-' && a[1]) {
            pc_cli_error("unknown option '%s' (see 'poolcheck check --help')", a);
            status = PC_EXIT_USAGE;
            goto done;
        } else {
            PC_VEC_PUSH(inputs, (char *)a);
        }
    }
    if (!inputs.count) {
        pc_cli_error("no input files (see 'poolcheck check --help')");
        status = PC_EXIT_USAGE;
        goto done;
    }
    ro.color = strcmp(color, "always") == 0 ||
               (strcmp(color, "auto") == 0 && !out_path && isatty(1) && !getenv("NO_COLOR"));
    ro.assemble_headroom = c.assemble_headroom;
    {
        char cwd[4096];
        ro.base_dir = getcwd(cwd, sizeof cwd) ? pc_arena_strdup(c.arena, cwd) : NULL;
    }

    for (size_t i = 0; i < inputs.count; i++) {
        struct stat st;
        if (stat(inputs.items[i], &st) != 0) {
            pc_cli_error("cannot open '%s': no such file or directory", inputs.items[i]);
            status = PC_EXIT_USAGE;
            continue;
        }
        if (S_ISDIR(st.st_mode))
            collect_dir(inputs.items[i], &excludes, &files, 0);
        else
            PC_VEC_PUSH(files, pc_mem_strdup(inputs.items[i]));
    }

    pc_frontend *fe = pc_frontend_new();
    PC_VEC(pc_file_result *) results = {0};
    for (size_t i = 0; i < files.count; i++) {
        pc_file_result *fr = pc_cli_analyze(&c, fe, files.items[i]);
        if (!fr) {
            status = PC_EXIT_USAGE;
            break;
        }
        if (fr->model->fatal)
            status = PC_EXIT_USAGE;
        else if (status == PC_EXIT_OK && pc_diag_count(fr->sink, PC_SEV_ERROR) > 0)
            status = PC_EXIT_FINDINGS;
        PC_VEC_PUSH(results, fr);
    }

    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        pc_cli_error("cannot write '%s'", out_path);
        out = stdout;
        status = PC_EXIT_USAGE;
    }
    if (emit) {
        char *cfg = pc_rep_emit_config(results.items, results.count, emit, c.assemble_headroom);
        if (cfg) {
            fputs(cfg, out);
            pc_mem_free(cfg);
        }
    } else if (fix || fix_dry) {
        for (size_t i = 0; i < results.count; i++)
            if (!results.items[i]->model->fatal && pc_rep_apply_fixes(results.items[i], fix_dry, out) < 0)
                status = PC_EXIT_USAGE;
        pc_rep_write(stderr, results.items, results.count, &ro);
    } else {
        pc_rep_write(out, results.items, results.count, &ro);
    }
    if (out != stdout)
        fclose(out);
    else if (fflush(stdout) != 0)
        status = PC_EXIT_USAGE; /* a closed or full stdout is an error, not silence */

    for (size_t i = 0; i < results.count; i++)
        pc_file_result_free(results.items[i]);
    PC_VEC_FREE(results);
    pc_frontend_free(fe);
done:
    for (size_t i = 0; i < files.count; i++)
        pc_mem_free(files.items[i]);
    PC_VEC_FREE(files);
    PC_VEC_FREE(inputs);
    PC_VEC_FREE(excludes);
    pc_cli_common_free(&c);
    return status;
}
