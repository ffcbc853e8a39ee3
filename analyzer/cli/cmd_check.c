/* cmd_check.c - `poolcheck check [options] FILE|DIR...`: predict, lint, report. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char check_help[] =
    "usage: poolcheck check [options] FILE|DIR... [-- COMPILER ARGS]\n"
    "Predict the minimal stitch_function_num_per_pool depths of every PyPTO kernel in the files\n"
    "(directories are searched for Python files and C++ sources and headers: .py .cpp .cc .cxx .c\n"
    ".c++ .cp .C .CPP .h .hpp .hh .hxx) and lint their runtime options.\n\n"
    "Output options:\n"
    "  --format=text|json|sarif|github   output format (default text)\n"
    "  -o FILE                   write the output (or the emitted config) to FILE\n"
    "  --emit-config=json|python|cpp     print the suggested runtime configuration\n"
    "  --fix                     rewrite stitch_function_num_per_pool in the sources (regular\n"
    "                            files the user may write; owner, mode and hard links kept); with\n"
    "                            the source on stdin (/dev/stdin), print the fixed text instead\n"
    "  --diff, --fix-dry-run     print the fixes as a unified diff, write nothing\n"
    "  --no-summary              text: diagnostics only, no per-kernel summary\n"
    "  --report=FILE.html        also write a self-contained HTML picture of the DeviceTasks\n"
    "  --color=auto|always|never\n"
    "  --docs-url=URL            SARIF: base of the checks' help links (default: the docs/checks\n"
    "                            directory of this source tree)\n"
    "  --exclude GLOB            skip matching files when searching directories (repeatable)\n"
    "  --verbose                 say which files hold no kernel\n"
    "  -j N                      analyse files in N worker processes (default 1)\n"
    "  --kernel-name NAME        check only the kernels of this name (repeatable; as with\n"
    "                            'logs --kernel-name' and 'plan --kernel-name'); no such kernel\n"
    "                            in any file is a usage error\n"
    "  --statistics              text: after the report, one line per check with its count of\n"
    "                            findings, most frequent first (analyses in one process)\n"
    "  --show-settings           print, for each FILE|DIR, the settings it would be checked with\n"
    "                            (options, .poolcheck.json and config file, bindings, runtime\n"
    "                            options), each with where it came from; exit 0, analyse nothing\n"
    "  --list-checks             list the checks and exit\n\n"
    "Exit status (docs/model.md 12):\n"
    "  0  no error-level finding\n"
    "  1  error-level findings (after --warnings-as-errors)\n"
    "  2  usage error, unreadable or missing input, a source that cannot be parsed at all,\n"
    "     internal error\n"
    "  3  'poolcheck logs --kernel' compared nothing (not returned by check)\n\n";

typedef PC_VEC(char *) str_vec;

/* The frontend's one extension list (pc_frontend_source_exts): what it reads, the walk finds. */
static bool has_kernel_ext(const char *path) { return pc_frontend_source_ext(path) != NULL; }

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
static void collect_dir(pc_cli_common *c, const char *dir, const str_vec *excludes, str_vec *out, int depth)
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
    /* `models/` names the directory as `models` does: its files are `models/x.py`, not `models//x.py` */
    size_t dlen = strlen(dir);
    while (dlen > 0 && dir[dlen - 1] == '/') /* "/" itself: "/x.py" */
        dlen--;
    for (size_t i = 0; i < names.count; i++) {
        pc_sb p = {0};
        pc_sb_printf(&p, "%.*s/%s", (int)dlen, dir, names.items[i]);
        char *path = pc_sb_take(&p);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect_dir(c, path, excludes, out, depth + 1);
            pc_mem_free(path);
        } else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && has_kernel_ext(path) && !excluded(path, excludes) &&
                   !pc_cli_project_excludes(c, path)) {
            PC_VEC_PUSH(*out, path);
        } else {
            pc_mem_free(path);
        }
        pc_mem_free(names.items[i]);
    }
    PC_VEC_FREE(names);
}

/* ---- -j N: worker processes ---------------------------------------------------------------------
 * Each worker analyses files and sends back, per file, its record (pc_rep_file_encode: the
 * diagnostics, the source lines they show, the kernel summaries, the status); the parent decodes
 * each record when its file's turn comes and writes it through the same stream as one process
 * does (pc_rep_stream_file), so every format comes out byte for byte as with -j 1, a shared
 * config file's diagnostics once.  Processes rather than threads, like run-clang-tidy: a crash in
 * one parse cannot take the others down.  The C++ frontend is loaded in each worker, when its
 * first C++ file comes (pc_frontend_new after the fork).
 *
 * On the pipe, per file: u64 index, u64 length, then the record (length 0: the file's options
 * could not be set up, its error is on stderr; as with one process, nothing after it is written). */

/* Shared by the parent and its workers (MAP_SHARED). */
typedef struct shared {
    size_t next; /* the next file not yet taken */
    int stop;    /* a file's options failed: take no more */
} shared;

static bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* One file's record: analysed, made a pc_rep_file, the analysis freed.  NULL when its options
 * could not be set up (the error is on stderr).  The options layered for the file (pc_cli_analyze
 * puts them in c->arena, and the results point at them) go in an arena of their own, freed with
 * the file: over 10,000 files they would be the one thing a run keeps per file. */
/* --statistics: the findings of one file, counted per check (counts has one slot per check). */
static void count_findings(size_t *counts, const pc_file_result *fr)
{
    size_t n = 0, nchecks = 0;
    const pc_diag *d = counts && fr ? pc_diag_items(fr->sink, &n) : NULL;
    pc_chk_table(&nchecks);
    for (size_t i = 0; i < n; i++)
        if (d[i].check >= 0 && (size_t)d[i].check < nchecks)
            counts[d[i].check]++;
}

typedef struct stat_row { size_t count; size_t check; } stat_row;

static int cmp_stat(const void *a, const void *b)
{
    const stat_row *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->check < y->check ? -1 : x->check > y->check;
}

/* `  3  PC012  unanalysed-region`, most frequent first, as `ruff --statistics` prints. */
static void print_statistics(FILE *out, const size_t *counts)
{
    size_t n = 0;
    const pc_check_info *table = pc_chk_table(&n);
    stat_row *rows = pc_mem_calloc(n ? n : 1, sizeof *rows);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (counts[i])
            rows[k++] = (stat_row){counts[i], i};
    qsort(rows, k, sizeof *rows, cmp_stat);
    for (size_t i = 0; i < k; i++)
        fprintf(out, "%3zu  %s  %s\n", rows[i].count, table[rows[i].check].id, table[rows[i].check].name);
    pc_mem_free(rows);
}

static pc_rep_file *analyse_one(pc_cli_common *c, pc_frontend *fe, const char *path, size_t *counts)
{
    pc_arena *cmd = c->arena;
    c->arena = pc_arena_new();
    pc_file_result *fr = pc_cli_analyze(c, fe, path);
    count_findings(counts, fr);
    pc_rep_file *rec = fr ? pc_rep_file_new(fr) : NULL;
    pc_file_result_free(fr);
    pc_arena_free(c->arena);
    c->arena = cmd;
    return rec;
}

/* A worker takes the next file not yet taken from sh->next, a counter shared by all workers
 * (every N-th file when there is none): a fixed split gave one worker all the slow C++ parses
 * when Python and C++ twins sit side by side in name order, and -j 2 was no faster than -j 1. */
static void worker(pc_cli_common *c, const str_vec *files, int w, int jobs, shared *sh, int fd)
{
    pc_frontend *fe = pc_frontend_new();
    for (size_t k = 0;; k++) {
        if (sh && __atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
            break;
        size_t i = sh ? __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED) : (size_t)w + k * (size_t)jobs;
        if (i >= files->count)
            break;
        pc_rep_file *rec = analyse_one(c, fe, files->items[i], NULL);
        char *buf = NULL;
        size_t len = 0;
        if (rec)
            buf = pc_rep_file_encode(rec, &len);
        else if (sh)
            __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
        pc_rep_file_free(rec);
        uint64_t hdr[2] = {(uint64_t)i, (uint64_t)len};
        bool ok = write_all(fd, hdr, sizeof hdr) && (!len || write_all(fd, buf, len));
        pc_mem_free(buf);
        if (!ok || !buf)
            break;
    }
    pc_frontend_free(fe);
}

/* What the parent holds of files that arrived before their turn (workers run ahead of a slow
 * file); a file's bytes are freed as soon as it is written. */
typedef struct inbox {
    char **bytes; size_t *len; bool *arrived;
    size_t n, due;       /* files; the next to write */
    size_t finished;     /* arrived, for the progress line */
    bool stopped;        /* a file's options failed: nothing after it is written */
    int status;
} inbox;

typedef struct reader { int fd; uint64_t hdr[2]; size_t got; char *buf; int stage; } reader;

static void combine(int *status, int st)
{
    if (st > *status)
        *status = st; /* 2 (usage) over 1 (findings) over 0 */
}

/* Write every file whose turn has come. */
static void flush_due(inbox *in, const str_vec *files, pc_rep_stream *s, shared *sh)
{
    while (in->due < in->n && in->arrived[in->due]) {
        size_t i = in->due++;
        char *b = in->bytes[i];
        in->bytes[i] = NULL;
        if (in->stopped) {
            pc_mem_free(b);
            continue;
        }
        if (!in->len[i]) {
            in->status = PC_EXIT_USAGE;
            in->stopped = true;
            if (sh)
                __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
            pc_mem_free(b);
            continue;
        }
        char *err = NULL;
        pc_rep_file *rec = pc_rep_file_decode(b, in->len[i], &err);
        pc_mem_free(b);
        if (!rec) {
            pc_cli_error("%s: the worker's result is unreadable (%s)", files->items[i], err ? err : "corrupt");
            pc_mem_free(err);
            pc_rep_stream_failed(s);
            in->status = PC_EXIT_USAGE;
            continue;
        }
        combine(&in->status, pc_rep_file_status(rec));
        pc_rep_stream_file(s, rec);
        pc_rep_file_free(rec);
    }
}

/* Feed bytes read from a worker; completes records into the inbox.  False on a corrupt stream. */
static bool feed(reader *r, const char *data, size_t n, inbox *in)
{
    for (;;) {
        if (r->stage == 1 && r->got == (size_t)r->hdr[1]) {
            size_t i = (size_t)r->hdr[0];
            in->bytes[i] = r->buf;
            in->len[i] = (size_t)r->hdr[1];
            in->arrived[i] = true;
            in->finished++;
            r->buf = NULL;
            r->stage = 0;
            r->got = 0;
        }
        if (!n)
            return true;
        char *dst = r->stage == 0 ? (char *)r->hdr : r->buf;
        size_t want = r->stage == 0 ? sizeof r->hdr : (size_t)r->hdr[1];
        size_t take = want - r->got < n ? want - r->got : n;
        memcpy(dst + r->got, data, take);
        r->got += take;
        data += take;
        n -= take;
        if (r->got < want)
            continue;
        if (r->stage == 0) {
            if (r->hdr[0] >= in->n || in->arrived[r->hdr[0]] || r->hdr[1] > ((uint64_t)1 << 32))
                return false;
            r->buf = r->hdr[1] ? pc_mem_alloc((size_t)r->hdr[1]) : NULL;
            r->stage = 1;
            r->got = 0;
        }
    }
}

static int run_parallel(pc_cli_common *c, const str_vec *files, int jobs, pc_rep_stream *s)
{
    size_t n = files->count;
    inbox in = {0};
    in.n = n;
    in.bytes = pc_mem_calloc(n ? n : 1, sizeof *in.bytes);
    in.len = pc_mem_calloc(n ? n : 1, sizeof *in.len);
    in.arrived = pc_mem_calloc(n ? n : 1, sizeof *in.arrived);
    reader *rd = pc_mem_calloc((size_t)jobs, sizeof(reader));
    pid_t *pids = pc_mem_calloc((size_t)jobs, sizeof(pid_t));
    shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        sh = NULL; /* then every N-th file */
    else
        memset(sh, 0, sizeof *sh);
    fflush(NULL); /* children must not flush a copy of the parent's buffers */
    for (int w = 0; w < jobs; w++) {
        int fds[2];
        if (pipe(fds) != 0) {
            rd[w].fd = -1;
            continue;
        }
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            for (int u = 0; u < w; u++)
                if (rd[u].fd >= 0)
                    close(rd[u].fd);
            worker(c, files, w, jobs, sh, fds[1]);
            close(fds[1]);
            _exit(0);
        }
        close(fds[1]);
        pids[w] = pid;
        rd[w].fd = pid > 0 ? fds[0] : -1;
        if (pid < 0)
            close(fds[0]);
    }
    bool progress = n > 20 && isatty(2);
    struct pollfd *pfd = pc_mem_calloc((size_t)jobs, sizeof(struct pollfd));
    for (;;) {
        int np = 0;
        for (int w = 0; w < jobs; w++)
            if (rd[w].fd >= 0) {
                pfd[np].fd = rd[w].fd;
                pfd[np].events = POLLIN;
                np++;
            }
        if (!np)
            break;
        if (poll(pfd, (nfds_t)np, -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < np; i++) {
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int w = 0;
            while (rd[w].fd != pfd[i].fd)
                w++;
            char buf[65536];
            ssize_t got = read(rd[w].fd, buf, sizeof buf);
            if (got > 0 && feed(&rd[w], buf, (size_t)got, &in)) {
                if (progress)
                    fprintf(stderr, "\r[%zu/%zu] analysed", in.finished, n);
                continue;
            }
            if (got < 0 && errno == EINTR)
                continue;
            if (got > 0) /* feed refused it */
                pc_cli_error("a worker process sent a corrupt result stream; its files are not reported");
            close(rd[w].fd);
            rd[w].fd = -1;
            pc_mem_free(rd[w].buf);
            rd[w].buf = NULL;
        }
        if (progress && in.due < n && in.arrived[in.due])
            fputs("\r\033[K", stderr); /* the progress line must not sit in the middle of the output */
        flush_due(&in, files, s, sh);
    }
    if (progress)
        fputs("\r\033[K", stderr);
    for (int w = 0; w < jobs; w++)
        if (pids[w] > 0)
            waitpid(pids[w], NULL, 0);
    if (sh)
        munmap(sh, sizeof *sh);
    /* Files no worker reported (a crash, out of memory, a corrupt stream), then what waited for them. */
    for (;;) {
        flush_due(&in, files, s, NULL);
        if (in.due >= n)
            break;
        if (!in.stopped) {
            pc_cli_error("%s: the worker analysing this file stopped (crash or out of memory)", files->items[in.due]);
            in.status = PC_EXIT_USAGE;
            pc_rep_stream_failed(s);
        }
        in.due++;
    }
    for (size_t i = 0; i < n; i++)
        pc_mem_free(in.bytes[i]);
    pc_mem_free(in.bytes);
    pc_mem_free(in.len);
    pc_mem_free(in.arrived);
    pc_mem_free(rd);
    pc_mem_free(pids);
    pc_mem_free(pfd);
    return in.status;
}

/* Does the input name this process's stdin?  `--fix` then prints the fixed text, as `ruff check
 * --fix -` does, instead of rewriting whatever file stdin was opened on (the library refuses such
 * a name anyway: pc_rep_apply_fixes). */
static bool names_stdin(const char *path)
{
    static const char *const names[] = {"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(path, names[i]) == 0)
            return true;
    char own[64];
    snprintf(own, sizeof own, "/proc/%ld/fd/0", (long)getpid());
    return strcmp(path, own) == 0;
}

/* --fix of a source read from stdin: the fixed text goes to stdout.  It is written to a temporary
 * file first, which then becomes stdin: the analysis again of what remains reads the input by its
 * name (/dev/stdin, with the project settings found for it), and so reads the fixed text. */
static int fix_stdin(pc_file_result *fr)
{
    FILE *text = tmpfile();
    if (!text) {
        pc_cli_error("cannot hold the fixed text of stdin: %s", strerror(errno));
        return -1;
    }
    int n = pc_rep_apply_fixes(fr, false, text);
    bool ok = n >= 0 && fflush(text) == 0 && fseek(text, 0, SEEK_SET) == 0;
    char buf[65536];
    size_t got;
    while (ok && (got = fread(buf, 1, sizeof buf, text)) > 0)
        ok = fwrite(buf, 1, got, stdout) == got;
    ok = ok && !ferror(text) && fflush(stdout) == 0;
    if (ok && (lseek(fileno(text), 0, SEEK_SET) != 0 || dup2(fileno(text), 0) < 0)) {
        pc_cli_error("cannot analyse the fixed text of stdin again: %s", strerror(errno));
        ok = false;
    }
    fclose(text);
    return ok ? n : -1;
}

/* The names of the kernels in the files checked, for the "did you mean" of a --kernel-name that
 * matched none.  The frontend drops the kernels --kernel-name does not name before the CLI sees a
 * result, so the files are analysed again without it: on this error path only.  A file read from
 * stdin is not read again (its text is gone). */
static void kernel_names_of(pc_cli_common *c, const str_vec *files, str_vec *names)
{
    size_t asked = c->kernel_names.count;
    c->kernel_names.count = 0;
    pc_frontend *fe = pc_frontend_new();
    for (size_t i = 0; i < files->count; i++) {
        if (names_stdin(files->items[i]))
            continue;
        pc_arena *cmd = c->arena;
        c->arena = pc_arena_new();
        pc_file_result *fr = pc_cli_analyze(c, fe, files->items[i]);
        for (int k = 0; fr && k < fr->model->nkernels; k++)
            PC_VEC_PUSH(*names, pc_mem_strdup(fr->model->kernels[k].name));
        pc_file_result_free(fr);
        pc_arena_free(c->arena);
        c->arena = cmd;
    }
    pc_frontend_free(fe);
    c->kernel_names.count = asked;
}

/* --kernel-name that matched no kernel of any file checked: a usage error, as a misspelled name
 * must not pass as "nothing to report"; with the nearest kernel names the files have (as
 * pc_cfg_nearest finds them), one per name asked.  Returns false after saying so. */
static bool no_such_kernel(pc_cli_common *c, const str_vec *files, int status)
{
    if (!c->kernel_names.count || c->kernels_analysed || status == PC_EXIT_USAGE)
        return true;
    size_t nfiles = files->count;
    str_vec known = {0};
    kernel_names_of(c, files, &known);
    pc_sb names = {0}, near = {0};
    size_t nnear = 0;
    for (size_t i = 0; i < c->kernel_names.count; i++) {
        pc_sb_printf(&names, "%s'%s'", i ? (i + 1 == c->kernel_names.count ? " or " : ", ") : "", c->kernel_names.items[i]);
        const char *best = pc_cfg_nearest(c->kernel_names.items[i], (const char *const *)known.items, known.count, -1);
        bool again = false;
        for (size_t j = 0; best && j < i && !again; j++) /* two typos of one name: it once */
            again = pc_cfg_nearest(c->kernel_names.items[j], (const char *const *)known.items, known.count, -1) == best;
        if (best && !again)
            pc_sb_printf(&near, "%s'%s'", nnear++ ? " or " : "; did you mean ", best);
    }
    pc_cli_error("--kernel-name: no kernel named %s in the %zu file%s checked%s%s", names.data, nfiles,
                 nfiles == 1 ? "" : "s", near.data ? near.data : "", nnear ? "?" : "");
    pc_sb_free(&names);
    pc_sb_free(&near);
    for (size_t i = 0; i < known.count; i++)
        pc_mem_free(known.items[i]);
    PC_VEC_FREE(known);
    return false;
}

/* What `check` was asked (parse_check_args) and what it has come to: the files it found
 * (collect_files) and the exit status so far.  The phases of pc_cmd_check share it. */
typedef struct check_run {
    int argc;
    char **argv;
    pc_cli_common c;
    pc_report_opts ro;
    const char *out_path, *emit, *color, *report;
    bool fix, fix_dry, statistics, show_settings;
    size_t *counts; /* --statistics in the text format: findings per check */
    int64_t jobs;
    str_vec inputs, excludes, files;
    int status;
} check_run;

typedef PC_VEC(pc_file_result *) result_vec;
typedef PC_VEC(pc_rep_html_file_inputs) file_inputs_vec;

/* The command line, into run.  False when the command ends here: --help, --list-checks or a usage
 * error (run->status says which). */
static bool parse_check_args(check_run *run)
{
    int argc = run->argc;
    char **argv = run->argv;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *name = NULL;
        bool missing = false;
        if (strcmp(a, "--") == 0) {
            for (int j = i + 1; j < argc; j++)
                PC_VEC_PUSH(run->c.compiler_args, argv[j]);
            break;
        }
        int r = pc_cli_common_option(&run->c, argc, argv, &i);
        if (r < 0) {
            run->status = PC_EXIT_USAGE;
            return false;
        }
        if (r > 0)
            continue;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s%s", check_help, pc_cli_common_help);
            run->status = pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
            return false;
        } else if (strcmp(a, "--list-checks") == 0) {
            pc_chk_list(stdout); /* from the check table (analyzer/checks/checks.def) */
            run->status = pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
            return false;
        } else if (strncmp(a, "--format=", 9) == 0 || (strcmp(a, "--format") == 0 && i + 1 < argc)) {
            static const char *const formats[] = {"text", "json", "sarif", "github", NULL};
            static const pc_format format_ids[] = {PC_FMT_TEXT, PC_FMT_JSON, PC_FMT_SARIF, PC_FMT_GITHUB};
            int f = pc_cli_choice("--format", a[8] == '=' ? a + 9 : argv[++i], formats);
            if (f < 0) {
                run->status = PC_EXIT_USAGE;
                return false;
            }
            run->ro.format = format_ids[f];
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            run->out_path = argv[++i];
        } else if (strncmp(a, "--emit-config=", 14) == 0) {
            run->emit = a + 14;
            if (pc_cli_choice("--emit-config", run->emit, pc_cli_emit_config_choices) < 0) {
                run->status = PC_EXIT_USAGE;
                return false;
            }
        } else if (strcmp(a, "--fix") == 0) {
            run->fix = true;
        } else if (strcmp(a, "--fix-dry-run") == 0 || strcmp(a, "--diff") == 0) {
            run->fix_dry = true;
        } else if (strcmp(a, "-j") == 0 || strncmp(a, "-j", 2) == 0 || strncmp(a, "--jobs=", 7) == 0) {
            const char *v = strncmp(a, "--jobs=", 7) == 0 ? a + 7 : a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
            char *end;
            run->jobs = strtoll(v, &end, 10);
            if (!*v || *end || run->jobs < 1 || run->jobs > 256) {
                pc_cli_error("-j expects a number of jobs in [1, 256], got '%s'", v);
                run->status = PC_EXIT_USAGE;
                return false;
            }
        } else if (strncmp(a, "--report=", 9) == 0 || (strcmp(a, "--report") == 0 && i + 1 < argc)) {
            run->report = a[8] == '=' ? a + 9 : argv[++i];
        } else if (strcmp(a, "--statistics") == 0) {
            run->statistics = true;
        } else if (strcmp(a, "--show-settings") == 0) {
            run->show_settings = true;
        } else if ((name = pc_cli_opt_value(argc, argv, &i, "--kernel-name", &missing)) || missing) {
            if (missing || !*name) {
                pc_cli_error("option '--kernel-name' needs a kernel name");
                run->status = PC_EXIT_USAGE;
                return false;
            }
            PC_VEC_PUSH(run->c.kernel_names, name);
        } else if (strcmp(a, "--no-summary") == 0) {
            run->ro.summary = false;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            run->ro.verbose = true;
        } else if (strncmp(a, "--docs-url=", 11) == 0) {
            run->ro.docs_url = a + 11;
        } else if (strncmp(a, "--color=", 8) == 0) {
            static const char *const colors[] = {"auto", "always", "never", NULL};
            run->color = a + 8;
            if (pc_cli_choice("--color", run->color, colors) < 0) {
                run->status = PC_EXIT_USAGE;
                return false;
            }
        } else if (strcmp(a, "--exclude") == 0 && i + 1 < argc) {
            PC_VEC_PUSH(run->excludes, argv[++i]);
        } else if (strncmp(a, "--exclude=", 10) == 0) {
            PC_VEC_PUSH(run->excludes, (char *)a + 10);
        } else if (a[0] == '-' && a[1]) {
            pc_cli_unknown_option("check", a, check_help, pc_cli_common_help);
            run->status = PC_EXIT_USAGE;
            return false;
        } else {
            PC_VEC_PUSH(run->inputs, (char *)a);
        }
    }
    return true;
}

/* --show-settings: as ruff --show-settings, what each input would be checked with, nothing
 * analysed. */
static void print_settings(check_run *run)
{
    for (size_t i = 0; i < run->inputs.count && run->status == PC_EXIT_OK; i++) {
        if (i)
            putchar('\n');
        if (!pc_cli_show_settings(&run->c, run->inputs.items[i], stdout))
            run->status = PC_EXIT_USAGE;
    }
    if (!pc_cli_close_output(stdout, "<stdout>"))
        run->status = PC_EXIT_USAGE;
}

/* How the results are written (colour, statistics, base directory), and the number of jobs the
 * options leave. */
static void set_report_opts(check_run *run)
{
    run->ro.color = strcmp(run->color, "always") == 0 ||
                    (strcmp(run->color, "auto") == 0 && !run->out_path && isatty(1) && !getenv("NO_COLOR"));
    run->ro.assemble_headroom = run->c.assemble_headroom;
    if (run->statistics && run->ro.format == PC_FMT_TEXT) {
        size_t nchecks = 0;
        pc_chk_table(&nchecks);
        run->counts = pc_mem_calloc(nchecks ? nchecks : 1, sizeof *run->counts);
        run->jobs = 1; /* the workers send back the report of a file, not its diagnostics */
    }
    if (run->c.kernel_names.count)
        run->jobs = 1; /* whether any file had the kernel is counted in this process */
    run->ro.stats = run->ro.format == PC_FMT_TEXT ? stderr : NULL;
    {
        char cwd[4096];
        run->ro.base_dir = getcwd(cwd, sizeof cwd) ? pc_arena_strdup(run->c.arena, cwd) : NULL;
    }
}

/* The inputs, directories searched, into run->files; an input that cannot be opened is a usage
 * error, and the others are still checked. */
static void collect_files(check_run *run)
{
    for (size_t i = 0; i < run->inputs.count; i++) {
        struct stat st;
        if (stat(run->inputs.items[i], &st) != 0) {
            pc_cli_error("cannot open '%s': %s", run->inputs.items[i], strerror(errno)); /* ELOOP, EACCES too */
            run->status = PC_EXIT_USAGE;
            continue;
        }
        if (S_ISDIR(st.st_mode))
            collect_dir(&run->c, run->inputs.items[i], &run->excludes, &run->files, 0);
        else
            PC_VEC_PUSH(run->files, pc_mem_strdup(run->inputs.items[i]));
    }
}

/* Each file analysed, written when its turn comes and freed (with -j N, by the workers and the
 * parent). */
static void check_streamed(check_run *run)
{
    FILE *sout = stdout;
    if (run->out_path && !(sout = fopen(run->out_path, "w"))) {
        pc_cli_error("cannot write '%s'", run->out_path);
        run->status = PC_EXIT_USAGE;
        return;
    }
    pc_rep_stream *s = pc_rep_stream_begin(sout, &run->ro);
    if (run->jobs > 1 && run->files.count > 1) {
        int st = run_parallel(&run->c, &run->files,
                              (int)(run->jobs < (int64_t)run->files.count ? run->jobs : (int64_t)run->files.count), s);
        combine(&run->status, st);
    } else {
        pc_frontend *sfe = pc_frontend_new();
        for (size_t i = 0; i < run->files.count; i++) {
            pc_rep_file *rec = analyse_one(&run->c, sfe, run->files.items[i], run->counts);
            if (!rec) {
                run->status = PC_EXIT_USAGE;
                break;
            }
            combine(&run->status, pc_rep_file_status(rec));
            pc_rep_stream_file(s, rec);
            pc_rep_file_free(rec);
        }
        pc_frontend_free(sfe);
    }
    if (!pc_rep_stream_end(s)) {
        pc_cli_error("cannot complete the %s document: its temporary file failed", run->ro.format == PC_FMT_SARIF ? "SARIF" : "JSON");
        run->status = PC_EXIT_USAGE;
    }
    if (run->counts)
        print_statistics(sout, run->counts);
    if (!pc_cli_close_output(sout, sout != stdout ? run->out_path : "<stdout>"))
        run->status = PC_EXIT_USAGE;
    if (!no_such_kernel(&run->c, &run->files, run->status))
        run->status = PC_EXIT_USAGE;
}

/* Every file analysed and kept in results (--report: what each was given, in file_inputs); stops
 * at a file whose options cannot be set up. */
static void analyse_all(check_run *run, pc_frontend *fe, result_vec *results, file_inputs_vec *file_inputs)
{
    for (size_t i = 0; i < run->files.count; i++) {
        pc_rep_html_file_inputs in;
        pc_file_result *fr = pc_cli_analyze_inputs(&run->c, fe, run->files.items[i], run->report ? &in : NULL);
        if (fr && run->report)
            PC_VEC_PUSH(*file_inputs, in);
        if (!fr) {
            run->status = PC_EXIT_USAGE;
            break;
        }
        if (fr->model->fatal)
            run->status = PC_EXIT_USAGE;
        else if (run->status == PC_EXIT_OK && pc_diag_count(fr->sink, PC_SEV_ERROR) > 0)
            run->status = PC_EXIT_FINDINGS;
        PC_VEC_PUSH(*results, fr);
    }
}

/* --fix: as `ruff --fix` does, rewrite, analyse the rewritten files again, and report what is
 * still there; the exit status comes from what remains, not from what was fixed. */
static void fix_and_check_again(check_run *run, pc_frontend *fe, result_vec *results, FILE *out)
{
    bool usage = run->status == PC_EXIT_USAGE, from_stdin = false;
    size_t nfixed = 0, nfiles = 0;
    for (size_t i = 0; i < results->count; i++) {
        if (results->items[i]->model->fatal)
            continue;
        bool in = names_stdin(run->files.items[i]);
        from_stdin |= in;
        int n = in ? fix_stdin(results->items[i]) : pc_rep_apply_fixes(results->items[i], false, NULL);
        if (n < 0) {
            usage = true;
            continue;
        }
        if (n == 0)
            continue;
        nfixed += (size_t)n;
        nfiles++;
        pc_file_result *again = pc_cli_analyze(&run->c, fe, run->files.items[i]);
        if (!again) {
            usage = true;
            continue;
        }
        pc_file_result_free(results->items[i]);
        results->items[i] = again;
    }
    run->status = usage ? PC_EXIT_USAGE : PC_EXIT_OK;
    size_t remaining = 0;
    for (size_t i = 0; i < results->count; i++) {
        const pc_file_result *fr = results->items[i];
        if (fr->model->fatal)
            run->status = PC_EXIT_USAGE;
        else if (run->status == PC_EXIT_OK && pc_diag_count(fr->sink, PC_SEV_ERROR) > 0)
            run->status = PC_EXIT_FINDINGS;
        for (int sev = PC_SEV_NOTE; sev <= PC_SEV_ERROR; sev++)
            remaining += pc_diag_count(fr->sink, (pc_severity)sev);
    }
    /* stdout holds the fixed source, so what remains goes to stderr (ruff does the same). */
    pc_rep_write(from_stdin && out == stdout ? stderr : out, results->items, results->count, &run->ro);
    if (run->ro.format == PC_FMT_TEXT)
        fprintf(stderr, "poolcheck: fixed %zu finding%s in %zu file%s; %zu remain%s\n", nfixed,
                nfixed == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s", remaining, remaining == 1 ? "s" : "");
}

/* The output of every file at once: the emitted config, the fixes (as a diff, or made), or the
 * report with --report's HTML picture beside it. */
static void write_all_results(check_run *run, pc_frontend *fe, result_vec *results, FILE *out)
{
    if (run->emit) {
        char *cfg = pc_rep_emit_config(results->items, results->count, run->emit, run->c.assemble_headroom);
        if (cfg) {
            fputs(cfg, out);
            pc_mem_free(cfg);
            char *caveats = pc_rep_emit_caveats(results->items, results->count);
            fputs(caveats, stderr);
            pc_mem_free(caveats);
        }
    } else if (run->fix_dry) {
        for (size_t i = 0; i < results->count; i++)
            if (!results->items[i]->model->fatal && pc_rep_apply_fixes(results->items[i], true, out) < 0)
                run->status = PC_EXIT_USAGE;
        pc_rep_write(stderr, results->items, results->count, &run->ro);
    } else if (run->fix) {
        fix_and_check_again(run, fe, results, out);
    } else {
        pc_rep_write(out, results->items, results->count, &run->ro);
        if (run->counts) {
            for (size_t i = 0; i < results->count; i++)
                count_findings(run->counts, results->items[i]);
            print_statistics(out, run->counts);
        }
    }
}

/* Every file analysed first, then written: the HTML report, the emitted configs and the fixes
 * need every result at once. */
static void check_all_at_once(check_run *run)
{
    pc_frontend *fe = pc_frontend_new();
    result_vec results = {0};
    file_inputs_vec file_inputs = {0}; /* --report: what each file was given */
    analyse_all(run, fe, &results, &file_inputs);

    FILE *out = stdout;
    if (run->out_path && !(out = fopen(run->out_path, "w"))) {
        pc_cli_error("cannot write '%s'", run->out_path);
        out = stdout;
        run->status = PC_EXIT_USAGE;
    }
    write_all_results(run, fe, &results, out);
    if (run->report) {
        pc_rep_html_inputs in = {.argv = (const char *const *)run->argv, .argc = (size_t)run->argc, .cwd = run->ro.base_dir,
                                 .files = file_inputs.items, .nfiles = file_inputs.count,
                                 .assemble_headroom = run->c.assemble_headroom};
        if (pc_rep_html_write_inputs(run->report, results.items, results.count, NULL, &in) != 0) {
            pc_cli_error("cannot write '%s': %s", run->report, strerror(errno));
            run->status = PC_EXIT_USAGE;
        }
    }
    PC_VEC_FREE(file_inputs);
    if (!pc_cli_close_output(out, out != stdout ? run->out_path : "<stdout>"))
        run->status = PC_EXIT_USAGE;
    if (!no_such_kernel(&run->c, &run->files, run->status))
        run->status = PC_EXIT_USAGE;

    for (size_t i = 0; i < results.count; i++)
        pc_file_result_free(results.items[i]);
    PC_VEC_FREE(results);
    pc_frontend_free(fe);
}

int pc_cmd_check(int argc, char **argv)
{
    check_run run = {.argc = argc, .argv = argv, .color = "auto", .jobs = 1, .status = PC_EXIT_OK};
    pc_cli_common_init(&run.c);
    run.ro.format = PC_FMT_TEXT;
    run.ro.summary = true;

    if (!parse_check_args(&run))
        goto done;
    if (!run.inputs.count) {
        pc_cli_error("no input files (see 'poolcheck check --help')");
        run.status = PC_EXIT_USAGE;
        goto done;
    }
    if (run.show_settings) {
        print_settings(&run);
        goto done;
    }
    set_report_opts(&run);
    collect_files(&run);

    if (pc_cli_output_is_input("-o", run.out_path, argc, argv, run.files.items, run.files.count) ||
        pc_cli_output_is_input("--report", run.report, argc, argv, run.files.items, run.files.count)) {
        run.status = PC_EXIT_USAGE;
        goto done;
    }

    /* Each file's results are written when its turn comes and freed (with -j N, by the workers
     * and the parent); the HTML report, emitted configs and fixes need every result at once. */
    if (!run.emit && !run.fix && !run.fix_dry && !run.report)
        check_streamed(&run);
    else
        check_all_at_once(&run);
done:
    for (size_t i = 0; i < run.files.count; i++)
        pc_mem_free(run.files.items[i]);
    PC_VEC_FREE(run.files);
    PC_VEC_FREE(run.inputs);
    PC_VEC_FREE(run.excludes);
    pc_mem_free(run.counts);
    pc_cli_common_free(&run.c);
    return run.status;
}
