/* cmd_check.c - `poolcheck check [options] FILE|DIR...`: predict, lint, report. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "cli.h"

#include <cjson/cJSON.h>
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
    "  --fix                     rewrite stitch_function_num_per_pool in the sources\n"
    "  --fix-dry-run             print the fixes as a unified diff instead\n"
    "  --no-summary              text: diagnostics only, no per-kernel summary\n"
    "  --report=FILE.html        also write a self-contained HTML picture of the DeviceTasks\n"
    "  --color=auto|always|never\n"
    "  --docs-url=URL            SARIF: base of the checks' help links (default: the docs/checks\n"
    "                            directory of this source tree)\n"
    "  --exclude GLOB            skip matching files when searching directories (repeatable)\n"
    "  --verbose                 say which files hold no kernel\n"
    "  -j N                      analyse files in N worker processes (default 1)\n"
    "  --list-checks             list the checks and exit\n\n";

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
    for (size_t i = 0; i < names.count; i++) {
        pc_sb p = {0};
        pc_sb_printf(&p, "%s/%s", dir, names.items[i]);
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
 * Each worker analyses every N-th file and sends back, per file, its exit status and its output
 * rendered in the requested format; the parent merges them in file order (text and github
 * concatenate; JSON and SARIF documents are merged into one).  Processes rather than threads, like
 * run-clang-tidy: a crash in one parse cannot take the others down. */

/* A worker's record per file: index, exit status, then the text format's counts (errors,
 * warnings, suppressed), which the parent adds up into one closing line; then the payload.
 *
 * A diagnostic located outside the worker's file (a tile_fwk_config.json or .poolcheck.json every
 * input shares, an unlocated --set value) is written once in a run, for the first file that has it
 * (pc_rep_write does that across the files it is given).  A worker sees only its own files, so in
 * the text and github formats it sends such diagnostics apart, each rendered alone with its key,
 * and the parent writes each key once.  Payload: u64 n, the file's output without them (n bytes),
 * u64 m, its kernel summaries (m bytes), then per diagnostic apart: i32 severity (| APART_AFTER),
 * u64 key length, key, u64 text length, text. */
enum { HDR_INDEX, HDR_STATUS, HDR_ERRORS, HDR_WARNINGS, HDR_SUPPRESSED, HDR_COUNT };

enum { APART_AFTER = 0x100 }; /* in the severity word: written after the file's own diagnostics */
typedef struct apart { int severity; bool after; const char *key; size_t klen; const char *text; size_t len; } apart;
typedef struct file_output {
    int status; char *text; size_t len; bool done; int32_t counts[3];
    const char *summary; size_t summary_len; /* text: the kernel summaries, after everything else */
    char *payload;                    /* as received; text and the aparts point into it */
    apart *aparts; size_t naparts;
} file_output;

static int file_status(const pc_file_result *fr)
{
    if (fr->model->fatal)
        return PC_EXIT_USAGE;
    return pc_diag_count(fr->sink, PC_SEV_ERROR) > 0 ? PC_EXIT_FINDINGS : PC_EXIT_OK;
}

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

/* Is d located outside fr's own file (then it may repeat across files)? */
static bool located_apart(const pc_file_result *fr, const pc_diag *d)
{
    const char *own = fr->model ? fr->model->file : NULL;
    return !(d->loc.file && own && strcmp(d->loc.file, own) == 0);
}

/* What makes two such diagnostics the same (pc_rep_write's rule): check, place and message; the
 * check and message alone for an unlocated one. */
static char *apart_key(const pc_diag *d)
{
    pc_sb b = {0};
    if (d->loc.file)
        pc_sb_printf(&b, "%d\x1f%s\x1f%u\x1f%u\x1f%s", d->check, d->loc.file, d->loc.line, d->loc.col, d->message);
    else
        pc_sb_printf(&b, "%d\x1f\x1f\x1f\x1f%s", d->check, d->message);
    return pc_sb_take(&b);
}

/* d alone, rendered as pc_rep_write renders it (its notes, fixes and source lines included). */
static char *render_alone(const pc_file_result *fr, const pc_diag *d, const pc_report_opts *ro, size_t *len)
{
    pc_diag_sink *sink = pc_diag_sink_new();
    pc_diag *c = d->check >= 0 ? pc_diag_report(sink, d->check, d->loc, d->kernel, "%s", d->message)
                               : pc_diag_message(sink, d->severity, d->loc, d->message);
    if (c) {
        c->severity = d->severity;
        c->promoted = d->promoted;
        for (int k = 0; k < d->nnotes; k++)
            pc_diag_note(sink, c, d->notes[k].loc, "%s", d->notes[k].message);
        for (int k = 0; k < d->nfixes; k++)
            pc_diag_fix(sink, c, d->fixes[k].range, d->fixes[k].replacement);
    }
    pc_file_result alone = *fr;
    alone.results = NULL;
    alone.cfgs = NULL;
    alone.sink = sink;
    pc_report_opts o = *ro;
    o.summary = false;
    o.verbose = false;
    o.stats = NULL;
    char *buf = NULL;
    *len = 0;
    FILE *mem = open_memstream(&buf, len);
    if (mem) {
        pc_file_result *one = &alone;
        pc_rep_write(mem, &one, 1, &o);
        fclose(mem);
    }
    pc_diag_sink_free(sink);
    if (!buf)
        *len = 0;
    return buf;
}

static void put_u64(FILE *f, uint64_t v) { fwrite(&v, sizeof v, 1, f); }

/* The payload of one file (see HDR_*); the diagnostics sent apart leave the header's counts. */
static void write_payload(FILE *mem, pc_file_result *fr, const pc_report_opts *ro, int32_t *hdr)
{
    size_t n;
    const pc_diag *items = pc_diag_items(fr->sink, &n);
    bool split = ro->format == PC_FMT_TEXT || ro->format == PC_FMT_GITHUB;
    size_t napart = 0;
    for (size_t i = 0; split && i < n; i++)
        napart += located_apart(fr, &items[i]);
    if (!napart) {
        char *all = NULL;
        size_t alen = 0;
        FILE *m = open_memstream(&all, &alen);
        if (m) {
            pc_rep_write(m, &fr, 1, ro);
            fclose(m);
        }
        put_u64(mem, all ? alen : 0);
        if (all)
            fwrite(all, 1, alen, mem);
        put_u64(mem, 0);
        free(all);
        return;
    }
    /* The file's output without them: given the file twice, pc_rep_write leaves out of the second
     * copy what the first already said, which is exactly the diagnostics located apart.  The
     * kernel summary, last in a file's output, is sent on its own: it comes after them. */
    pc_report_opts bare = *ro;
    bare.summary = false;
    char *once = NULL, *twice = NULL, *with = NULL;
    size_t olen = 0, tlen = 0, wlen = 0;
    FILE *m1 = open_memstream(&once, &olen), *m2 = open_memstream(&twice, &tlen), *m3 = open_memstream(&with, &wlen);
    pc_file_result *both[2] = {fr, fr};
    if (m1) {
        pc_rep_write(m1, &fr, 1, &bare);
        fclose(m1);
    }
    if (m2) {
        pc_rep_write(m2, both, 2, &bare);
        fclose(m2);
    }
    if (m3) {
        pc_rep_write(m3, &fr, 1, ro);
        fclose(m3);
    }
    size_t own = once && twice && tlen >= olen ? tlen - olen : 0;
    size_t summary = once && with && wlen >= olen ? wlen - olen : 0;
    put_u64(mem, own);
    if (own)
        fwrite(twice + olen, 1, own, mem);
    put_u64(mem, summary);
    if (summary)
        fwrite(with + olen, 1, summary, mem);
    free(once);
    free(twice);
    free(with);
    for (size_t i = 0; i < n; i++) {
        if (!located_apart(fr, &items[i]))
            continue;
        /* where pc_rep_write would put it: unlocated, or in a file named before this one, first */
        const char *own_file = fr->model ? fr->model->file : NULL;
        bool after = items[i].loc.file && own_file && strcmp(items[i].loc.file, own_file) > 0;
        int32_t sev = (int32_t)items[i].severity | (after ? APART_AFTER : 0);
        if (items[i].severity == PC_SEV_ERROR)
            hdr[HDR_ERRORS]--;
        else if (items[i].severity == PC_SEV_WARNING)
            hdr[HDR_WARNINGS]--;
        char *key = apart_key(&items[i]);
        size_t rlen = 0;
        char *text = render_alone(fr, &items[i], ro, &rlen);
        fwrite(&sev, sizeof sev, 1, mem);
        put_u64(mem, strlen(key));
        fputs(key, mem);
        put_u64(mem, text ? rlen : 0);
        if (text)
            fwrite(text, 1, rlen, mem);
        pc_mem_free(key);
        free(text);
    }
}

/* Split a received payload (see HDR_*) into o's text and aparts.  False when it is malformed. */
static bool read_payload(file_output *o, char *p, size_t len)
{
    size_t at = 0;
    uint64_t v;
    o->text = p;
    o->len = 0;
    if (len == 0) /* the file could not be analysed: nothing to write (its error is on stderr) */
        return true;
    if (len < sizeof v)
        return false;
    memcpy(&v, p, sizeof v), at += sizeof v;
    if (v > len - at)
        return false;
    o->text = p + at;
    o->len = (size_t)v;
    at += (size_t)v;
    if (at == len) /* no summary part */
        return true;
    if (len - at < sizeof v)
        return false;
    memcpy(&v, p + at, sizeof v), at += sizeof v;
    if (v > len - at)
        return false;
    o->summary = p + at;
    o->summary_len = (size_t)v;
    at += (size_t)v;
    PC_VEC(apart) list = {0};
    while (at < len) {
        apart a = {0};
        int32_t sev;
        uint64_t kl, tl;
        if (len - at < sizeof sev + sizeof kl)
            break;
        memcpy(&sev, p + at, sizeof sev), at += sizeof sev;
        memcpy(&kl, p + at, sizeof kl), at += sizeof kl;
        if (kl > len - at || len - at - (size_t)kl < sizeof tl)
            break;
        a.key = p + at;
        at += (size_t)kl;
        memcpy(&tl, p + at, sizeof tl), at += sizeof tl;
        if (tl > len - at)
            break;
        a.severity = sev & ~APART_AFTER;
        a.after = (sev & APART_AFTER) != 0;
        a.text = p + at;
        a.len = (size_t)tl;
        at += (size_t)tl;
        a.klen = (size_t)kl;
        PC_VEC_PUSH(list, a);
    }
    o->aparts = list.items;
    o->naparts = list.count;
    return at == len;
}

/* A worker takes the next file not yet taken from `next`, a counter shared by all workers
 * (every N-th file when there is none): a fixed split gave one worker all the slow C++ parses
 * when Python and C++ twins sit side by side in name order, and -j 2 was no faster than -j 1. */
static void worker(pc_cli_common *c, const str_vec *files, int w, int jobs, size_t *next, const pc_report_opts *ro,
                   int fd)
{
    pc_frontend *fe = pc_frontend_new();
    pc_report_opts one = *ro;
    one.stats = NULL; /* the parent prints one count line for all files */
    for (size_t k = 0;; k++) {
        size_t i = next ? __atomic_fetch_add(next, 1, __ATOMIC_RELAXED) : (size_t)w + k * (size_t)jobs;
        if (i >= files->count)
            break;
        pc_file_result *fr = pc_cli_analyze(c, fe, files->items[i]);
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        int32_t hdr[HDR_COUNT] = {(int32_t)i, PC_EXIT_USAGE, 0, 0, 0};
        if (fr && mem) {
            hdr[HDR_STATUS] = file_status(fr);
            hdr[HDR_ERRORS] = (int32_t)pc_diag_count(fr->sink, PC_SEV_ERROR);
            hdr[HDR_WARNINGS] = (int32_t)pc_diag_count(fr->sink, PC_SEV_WARNING);
            hdr[HDR_SUPPRESSED] = (int32_t)pc_diag_suppressed(fr->sink);
            write_payload(mem, fr, &one, hdr);
        }
        if (mem)
            fclose(mem);
        uint64_t n = buf ? len : 0;
        bool ok = write_all(fd, hdr, sizeof hdr) && write_all(fd, &n, sizeof n) && (!n || write_all(fd, buf, n));
        free(buf);
        pc_file_result_free(fr);
        if (!ok)
            break;
    }
    pc_frontend_free(fe);
}

typedef struct reader { int fd; size_t got; char *buf; int32_t hdr[HDR_COUNT]; uint64_t len; int stage; } reader;

/* Feed bytes read from a worker; completes records into outs. Returns false on a corrupt stream. */
static bool feed(reader *r, const char *data, size_t n, file_output *outs, size_t nfiles, size_t *finished)
{
    for (;;) {
        if (r->stage == 2 && r->got == (size_t)r->len) {
            file_output *o = &outs[r->hdr[HDR_INDEX]];
            o->status = r->hdr[HDR_STATUS];
            memcpy(o->counts, r->hdr + HDR_ERRORS, sizeof o->counts);
            o->payload = r->buf;
            o->payload[r->len] = 0;
            r->buf = NULL;
            if (!read_payload(o, o->payload, (size_t)r->len))
                return false;
            o->done = true;
            (*finished)++;
            r->buf = NULL;
            r->stage = 0;
            r->got = 0;
        }
        if (!n)
            return true;
        char *dst = r->stage == 0 ? (char *)r->hdr : r->stage == 1 ? (char *)&r->len : r->buf;
        size_t want = r->stage == 0 ? sizeof r->hdr : r->stage == 1 ? sizeof r->len : (size_t)r->len;
        size_t take = want - r->got < n ? want - r->got : n;
        memcpy(dst + r->got, data, take);
        r->got += take;
        data += take;
        n -= take;
        if (r->got < want)
            continue;
        if (r->stage == 0) {
            if (r->hdr[0] < 0 || (size_t)r->hdr[0] >= nfiles || outs[r->hdr[0]].done)
                return false;
            r->stage = 1;
            r->got = 0;
        } else if (r->stage == 1) {
            if (r->len > ((uint64_t)1 << 40))
                return false;
            r->buf = pc_mem_alloc((size_t)r->len + 1);
            r->stage = 2;
            r->got = 0;
        }
    }
}

/* Was item (a JSON diagnostic or a SARIF result from a later file) already among the first n
 * entries of `to`, the earlier files' (same check, place and message: a shared config file's
 * diagnostic, written once as with one process)?  Diagnostics of different inputs differ in file. */
static bool said_before(const cJSON *to, int n, const cJSON *item, bool sarif)
{
    static const char *const json_keys[] = {"check", "file", "line", "column", "message", NULL};
    static const char *const sarif_keys[] = {"ruleId", "message", "locations", NULL};
    const char *const *keys = sarif ? sarif_keys : json_keys;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(to, i);
        bool same = true;
        for (int k = 0; keys[k] && same; k++) {
            const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, keys[k]);
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(item, keys[k]);
            same = (!x && !y) || (x && y && cJSON_Compare(x, y, true));
        }
        if (same)
            return true;
    }
    return false;
}

static void merge_json(FILE *out, file_output *outs, size_t n, bool sarif)
{
    cJSON *base = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!outs[i].done || !outs[i].len)
            continue;
        cJSON *doc = cJSON_Parse(outs[i].text);
        if (!doc)
            continue;
        if (!base) {
            base = doc;
            continue;
        }
        const char *arrays[] = {"kernels", "diagnostics"};
        if (sarif) {
            cJSON *from = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "runs"), 0), "results");
            cJSON *to = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(base, "runs"), 0), "results");
            int before = to ? cJSON_GetArraySize(to) : 0;
            while (from && to && cJSON_GetArraySize(from) > 0) {
                cJSON *item = cJSON_DetachItemFromArray(from, 0);
                if (said_before(to, before, item, true))
                    cJSON_Delete(item);
                else
                    cJSON_AddItemToArray(to, item);
            }
        } else {
            for (int a = 0; a < 2; a++) {
                cJSON *from = cJSON_GetObjectItemCaseSensitive(doc, arrays[a]);
                cJSON *to = cJSON_GetObjectItemCaseSensitive(base, arrays[a]);
                int before = to ? cJSON_GetArraySize(to) : 0;
                while (from && to && cJSON_GetArraySize(from) > 0) {
                    cJSON *item = cJSON_DetachItemFromArray(from, 0);
                    if (a == 1 && said_before(to, before, item, false))
                        cJSON_Delete(item);
                    else
                        cJSON_AddItemToArray(to, item);
                }
            }
        }
        cJSON_Delete(doc);
    }
    if (base) {
        char *text = cJSON_Print(base);
        fputs(text, out);
        fputc('\n', out);
        cJSON_free(text);
        cJSON_Delete(base);
    }
}

static int run_parallel(pc_cli_common *c, const str_vec *files, int jobs, const pc_report_opts *ro, FILE *out)
{
    size_t n = files->count;
    file_output *outs = pc_mem_calloc(n ? n : 1, sizeof(file_output));
    reader *rd = pc_mem_calloc((size_t)jobs, sizeof(reader));
    pid_t *pids = pc_mem_calloc((size_t)jobs, sizeof(pid_t));
    size_t *next = mmap(NULL, sizeof *next, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next == MAP_FAILED)
        next = NULL; /* then every N-th file */
    else
        *next = 0;
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
            worker(c, files, w, jobs, next, ro, fds[1]);
            close(fds[1]);
            _exit(0);
        }
        close(fds[1]);
        pids[w] = pid;
        rd[w].fd = pid > 0 ? fds[0] : -1;
        if (pid < 0)
            close(fds[0]);
    }
    size_t finished = 0;
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
            if (got > 0 && feed(&rd[w], buf, (size_t)got, outs, n, &finished)) {
                if (progress)
                    fprintf(stderr, "\r[%zu/%zu] analysed", finished, n);
                continue;
            }
            if (got < 0 && errno == EINTR)
                continue;
            close(rd[w].fd);
            rd[w].fd = -1;
            pc_mem_free(rd[w].buf);
            rd[w].buf = NULL;
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    for (int w = 0; w < jobs; w++)
        if (pids[w] > 0)
            waitpid(pids[w], NULL, 0);
    if (next)
        munmap(next, sizeof *next);
    int status = PC_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        if (!outs[i].done) {
            pc_cli_error("%s: the worker analysing this file stopped (crash or out of memory)", files->items[i]);
            outs[i].status = PC_EXIT_USAGE;
        }
        if (outs[i].status == PC_EXIT_USAGE)
            status = PC_EXIT_USAGE;
        else if (outs[i].status == PC_EXIT_FINDINGS && status == PC_EXIT_OK)
            status = PC_EXIT_FINDINGS;
    }
    if (ro->format == PC_FMT_JSON || ro->format == PC_FMT_SARIF) {
        merge_json(out, outs, n, ro->format == PC_FMT_SARIF);
    } else {
        size_t total[3] = {0, 0, 0};
        PC_VEC(const apart *) said = {0}; /* diagnostics located apart, written once */
        for (size_t i = 0; i < n; i++)
            if (outs[i].done) {
                for (int pass = 0; pass < 2; pass++) {
                    for (size_t a = 0; a < outs[i].naparts; a++) {
                        const apart *d = &outs[i].aparts[a];
                        if (d->after != (pass == 1))
                            continue;
                        bool before = false;
                        for (size_t b = 0; b < said.count && !before; b++)
                            before = said.items[b]->klen == d->klen && memcmp(said.items[b]->key, d->key, d->klen) == 0;
                        if (before)
                            continue;
                        PC_VEC_PUSH(said, d);
                        fwrite(d->text, 1, d->len, out);
                        if (d->severity == PC_SEV_ERROR)
                            total[0]++;
                        else if (d->severity == PC_SEV_WARNING)
                            total[1]++;
                    }
                    if (pass == 0)
                        fwrite(outs[i].text, 1, outs[i].len, out);
                }
                if (outs[i].summary_len)
                    fwrite(outs[i].summary, 1, outs[i].summary_len, out);
                for (int k = 0; k < 3; k++)
                    total[k] += (size_t)outs[i].counts[k];
            }
        PC_VEC_FREE(said);
        if (ro->stats) {
            fflush(out); /* the count comes after the diagnostics, as with one process */
            pc_rep_write_counts(ro->stats, total[0], total[1], total[2]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        pc_mem_free(outs[i].payload);
        pc_mem_free(outs[i].aparts);
    }
    pc_mem_free(outs);
    pc_mem_free(rd);
    pc_mem_free(pids);
    pc_mem_free(pfd);
    return status;
}

int pc_cmd_check(int argc, char **argv)
{
    pc_cli_common c;
    pc_cli_common_init(&c);
    pc_report_opts ro = {0};
    ro.format = PC_FMT_TEXT;
    ro.summary = true;
    const char *out_path = NULL, *emit = NULL, *color = "auto", *report = NULL;
    bool fix = false, fix_dry = false;
    int64_t jobs = 1;
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
            status = pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
            goto done;
        } else if (strcmp(a, "--list-checks") == 0) {
            pc_chk_list(stdout); /* from the check table (analyzer/checks/checks.def) */
            status = pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
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
        } else if (strcmp(a, "-j") == 0 || strncmp(a, "-j", 2) == 0 || strncmp(a, "--jobs=", 7) == 0) {
            const char *v = strncmp(a, "--jobs=", 7) == 0 ? a + 7 : a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
            char *end;
            jobs = strtoll(v, &end, 10);
            if (!*v || *end || jobs < 1 || jobs > 256) {
                pc_cli_error("-j expects a number of jobs in [1, 256], got '%s'", v);
                status = PC_EXIT_USAGE;
                goto done;
            }
        } else if (strncmp(a, "--report=", 9) == 0 || (strcmp(a, "--report") == 0 && i + 1 < argc)) {
            report = a[8] == '=' ? a + 9 : argv[++i];
        } else if (strcmp(a, "--no-summary") == 0) {
            ro.summary = false;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            ro.verbose = true;
        } else if (strncmp(a, "--docs-url=", 11) == 0) {
            ro.docs_url = a + 11;
        } else if (strncmp(a, "--color=", 8) == 0) {
            color = a + 8;
            if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
                pc_cli_error("unknown --color '%s' (auto, always, never)", color);
                status = PC_EXIT_USAGE;
                goto done;
            }
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
    ro.stats = ro.format == PC_FMT_TEXT ? stderr : NULL;
    {
        char cwd[4096];
        ro.base_dir = getcwd(cwd, sizeof cwd) ? pc_arena_strdup(c.arena, cwd) : NULL;
    }

    for (size_t i = 0; i < inputs.count; i++) {
        struct stat st;
        if (stat(inputs.items[i], &st) != 0) {
            pc_cli_error("cannot open '%s': %s", inputs.items[i], strerror(errno)); /* ELOOP, EACCES too */
            status = PC_EXIT_USAGE;
            continue;
        }
        if (S_ISDIR(st.st_mode))
            collect_dir(&c, inputs.items[i], &excludes, &files, 0);
        else
            PC_VEC_PUSH(files, pc_mem_strdup(inputs.items[i]));
    }

    /* The HTML report, emitted configs and fixes need every result in this process. */
    if (jobs > 1 && files.count > 1 && !emit && !fix && !fix_dry && !report) {
        FILE *pout = stdout;
        if (out_path && !(pout = fopen(out_path, "w"))) {
            pc_cli_error("cannot write '%s'", out_path);
            status = PC_EXIT_USAGE;
            goto done;
        }
        int st = run_parallel(&c, &files, (int)(jobs < (int64_t)files.count ? jobs : (int64_t)files.count), &ro, pout);
        if (status == PC_EXIT_OK || st == PC_EXIT_USAGE)
            status = st;
        if (!pc_cli_close_output(pout, pout != stdout ? out_path : "<stdout>"))
            status = PC_EXIT_USAGE;
        goto done;
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
    } else if (fix_dry) {
        for (size_t i = 0; i < results.count; i++)
            if (!results.items[i]->model->fatal && pc_rep_apply_fixes(results.items[i], true, out) < 0)
                status = PC_EXIT_USAGE;
        pc_rep_write(stderr, results.items, results.count, &ro);
    } else if (fix) {
        /* As `ruff --fix` does: rewrite, analyse the rewritten files again, and report what is
         * still there; the exit status comes from what remains, not from what was fixed. */
        bool usage = status == PC_EXIT_USAGE;
        size_t nfixed = 0, nfiles = 0;
        for (size_t i = 0; i < results.count; i++) {
            if (results.items[i]->model->fatal)
                continue;
            int n = pc_rep_apply_fixes(results.items[i], false, out);
            if (n < 0) {
                usage = true;
                continue;
            }
            if (n == 0)
                continue;
            nfixed += (size_t)n;
            nfiles++;
            pc_file_result *again = pc_cli_analyze(&c, fe, files.items[i]);
            if (!again) {
                usage = true;
                continue;
            }
            pc_file_result_free(results.items[i]);
            results.items[i] = again;
        }
        status = usage ? PC_EXIT_USAGE : PC_EXIT_OK;
        size_t remaining = 0;
        for (size_t i = 0; i < results.count; i++) {
            const pc_file_result *fr = results.items[i];
            if (fr->model->fatal)
                status = PC_EXIT_USAGE;
            else if (status == PC_EXIT_OK && pc_diag_count(fr->sink, PC_SEV_ERROR) > 0)
                status = PC_EXIT_FINDINGS;
            for (int sev = PC_SEV_NOTE; sev <= PC_SEV_ERROR; sev++)
                remaining += pc_diag_count(fr->sink, (pc_severity)sev);
        }
        pc_rep_write(out, results.items, results.count, &ro);
        if (ro.format == PC_FMT_TEXT)
            fprintf(stderr, "poolcheck: fixed %zu finding%s in %zu file%s; %zu remain%s\n", nfixed,
                    nfixed == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s", remaining, remaining == 1 ? "s" : "");
    } else {
        pc_rep_write(out, results.items, results.count, &ro);
    }
    if (report && pc_rep_html_write(report, results.items, results.count, NULL) != 0) {
        pc_cli_error("cannot write '%s': %s", report, strerror(errno));
        status = PC_EXIT_USAGE;
    }
    if (!pc_cli_close_output(out, out != stdout ? out_path : "<stdout>"))
        status = PC_EXIT_USAGE;

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
