/* check_logs.c - the runtime-log reader: every fixture under tests/fixtures/logs/ against the
 * expectations written in its own `# EXPECT-` lines, the shared sample logs, and the input
 * variants generated here (gzip, CRLF, empty, a 10 MB line, random binary, truncation, chunk
 * boundaries, stdin), verdicts, output shapes and the prices a plan takes from the logs. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "helpers/test_run.h"
#include "logs/logs_int.h"
#include "poolcheck/logs.h"
#include "support/support.h"

#define FIXTURES PC_SOURCE_DIR "/tests/fixtures/logs"
#define SAMPLE_SIM PC_SOURCE_DIR "/examples/logs/k_tmp_to_d_emb.sim.log"
#define SAMPLE_DEV PC_SOURCE_DIR "/examples/logs/k_tmp_to_d_emb.device.log"
#define SEED_PY PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"

static const int64_t SEED[3] = {64, 1, 1};

/* ---- helpers ------------------------------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
    char *err = NULL;
    char *t = pc_read_file(path, len, &err);
    ck_assert_msg(t != NULL, "%s", err ? err : path);
    return t;
}

static void assert_triple(const int64_t got[3], const int64_t want[3], const char *what)
{
    ck_assert_msg(got[0] == want[0] && got[1] == want[1] && got[2] == want[2],
                  "%s: got [%lld, %lld, %lld], want [%lld, %lld, %lld]", what, (long long)got[0],
                  (long long)got[1], (long long)got[2], (long long)want[0], (long long)want[1],
                  (long long)want[2]);
}

static pc_log_set *scan_buffer(const char *data, size_t len, size_t bufsize)
{
    pc_log_opts o = {.buffer_bytes = bufsize};
    pc_log_set *s = pc_log_new(&o);
    char *err = NULL;
    ck_assert(pc_log_add_buffer(s, data, len, "mem.log", &err));
    ck_assert_ptr_null(err);
    pc_log_finish(s);
    return s;
}

static pc_log_set *scan_paths(const char *const *paths, int n)
{
    pc_log_set *s = pc_log_new(NULL);
    for (int i = 0; i < n; i++) {
        char *err = NULL;
        ck_assert_msg(pc_log_add_path(s, paths[i], &err), "%s", err ? err : paths[i]);
    }
    pc_log_finish(s);
    return s;
}

/* gzip-compress (one member) */
static unsigned char *gzip_bytes(const char *data, size_t len, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, (uLong)len) + 64;
    unsigned char *out = malloc(cap);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

static char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/check_logs_%d_%s", PC_BINARY_DIR, (int)getpid(), name);
    return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

static char *text_of(const pc_log_set *s, const pc_log_check *chk)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    pc_log_write_text(f, s, chk);
    fclose(f);
    return buf;
}

/* ---- fixtures with their own expectations -------------------------------------------------------- */

static bool parse_triple(const char **pp, int64_t out[3])
{
    const char *p = *pp;
    while (*p == ' ')
        p++;
    if (*p++ != '[')
        return false;
    for (int i = 0; i < 3; i++) {
        while (*p == ' ')
            p++;
        if (*p == '?') {
            out[i] = -1;
            p++;
        } else {
            char *end;
            out[i] = strtoll(p, &end, 10);
            if (end == p)
                return false;
            p = end;
        }
        while (*p == ' ')
            p++;
        if (*p != (i < 2 ? ',' : ']'))
            return false;
        p++;
    }
    *pp = p;
    return true;
}

static int64_t parse_num_or_unknown(const char *v)
{
    if (*v == '?' || strncmp(v, "none", 4) == 0)
        return -1;
    return strtoll(v, NULL, 10);
}

static void check_fixture(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    const char *paths[1] = {path};
    pc_log_set *s = scan_paths(paths, 1);
    int checked = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "# EXPECT-", 9) != 0)
            continue;
        const char *p = line + 9;
        checked++;
        if (strncmp(p, "RUNS:", 5) == 0) {
            ck_assert_msg(s->nruns == strtoull(p + 5, NULL, 10), "%s: %zu runs", path, s->nruns);
        } else if (strncmp(p, "RECOMMENDED:", 12) == 0 || strncmp(p, "OBSERVED:", 9) == 0) {
            bool rec = p[0] == 'R';
            const char *q = strchr(p, ':') + 1;
            int64_t want[3];
            ck_assert_msg(parse_triple(&q, want), "%s: bad expectation '%s'", path, line);
            assert_triple(rec ? s->recommended : s->observed, want, path);
        } else if (strncmp(p, "SKIPPED:", 8) == 0) {
            ck_assert_msg(s->stats.skipped_lines == strtoll(p + 8, NULL, 10), "%s: %lld skipped",
                          path, (long long)s->stats.skipped_lines);
        } else if (strncmp(p, "WORKSPACE-LINES:", 16) == 0) {
            ck_assert_msg(s->stats.workspace_lines == strtoll(p + 16, NULL, 10),
                          "%s: %lld Workspace lines", path, (long long)s->stats.workspace_lines);
        } else if (strncmp(p, "FAILURE:", 8) == 0) {
            char *end;
            size_t run = strtoull(p + 8, &end, 10);
            int64_t ln = strtoll(end, &end, 10);
            while (*end == ' ')
                end++;
            ck_assert_msg(run >= 1 && run <= s->nruns, "%s: no run %zu", path, run);
            const pc_log_run *r = &s->runs[run - 1];
            bool found = false;
            for (size_t i = 0; i < r->nfailures; i++)
                if (r->failures[i].line == ln && strcmp(r->failures[i].reason, end) == 0)
                    found = true;
            ck_assert_msg(found, "%s: no Alloc Failure '%s' at line %lld", path, end, (long long)ln);
        } else if (strncmp(p, "SLOTS:", 6) == 0 || strncmp(p, "RUN:", 4) == 0) {
            bool slots = p[0] == 'S';
            char *end;
            size_t run = strtoull(p + (slots ? 6 : 4), &end, 10);
            ck_assert_msg(run >= 1 && run <= s->nruns, "%s: no run %zu", path, run);
            const pc_log_run *r = &s->runs[run - 1];
            for (const char *q = end; *q;) {
                while (*q == ' ')
                    q++;
                if (!*q)
                    break;
                const char *eq = strchr(q, '=');
                ck_assert_msg(eq != NULL, "%s: bad expectation '%s'", path, line);
                size_t kl = (size_t)(eq - q);
                const char *v = eq + 1;
                int64_t t[3];
#define KEY(k) (kl == strlen(k) && strncmp(q, k, kl) == 0)
                if (KEY("recommended") || KEY("observed")) {
                    const char *vv = v;
                    ck_assert_msg(parse_triple(&vv, t), "%s: bad triple in '%s'", path, line);
                    assert_triple(KEY("recommended") ? r->recommended : r->observed, t, path);
                    q = vv;
                    continue;
                }
                int64_t want = parse_num_or_unknown(v);
                if (KEY("pid"))
                    ck_assert_msg(r->pid == want, "%s: pid %lld", path, (long long)r->pid);
                else if (KEY("tasks"))
                    ck_assert_msg(r->device_tasks == want, "%s: %lld tasks", path,
                                  (long long)r->device_tasks);
                else if (KEY("stitch"))
                    ck_assert_msg(r->max_stitch_count == want, "%s: stitch %lld", path,
                                  (long long)r->max_stitch_count);
                else if (KEY("failures"))
                    ck_assert_msg((int64_t)r->nfailures == want, "%s: %zu failures", path,
                                  r->nfailures);
                else if (KEY("boundary"))
                    ck_assert_msg(r->boundary_slots == want, "%s: boundary %lld", path,
                                  (long long)r->boundary_slots);
                else if (KEY("slot"))
                    ck_assert_msg(r->slot_bytes == want, "%s: slot %lld", path,
                                  (long long)r->slot_bytes);
                else
                    ck_abort_msg("%s: unknown key in '%s'", path, line);
#undef KEY
                while (*q && *q != ' ')
                    q++;
            }
        } else {
            ck_abort_msg("%s: unknown expectation '%s'", path, line);
        }
    }
    ck_assert_msg(checked > 0, "%s states no expectation", path);
    for (size_t i = 0; i < s->nruns; i++) /* every Tuning line is a listed or a counted task */
        ck_assert_msg((int64_t)s->runs[i].ntasks + s->runs[i].tasks_dropped ==
                          s->runs[i].device_tasks,
                      "%s: run %zu lists %zu tasks of %lld", path, i + 1, s->runs[i].ntasks,
                      (long long)s->runs[i].device_tasks);
    pc_log_free(s);
    free(text);
}

static int walk_fixtures(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        ck_assert_int_eq(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            n += walk_fixtures(path);
        } else if (strlen(e->d_name) > 4 && strcmp(e->d_name + strlen(e->d_name) - 4, ".log") == 0) {
            check_fixture(path);
            n++;
        }
    }
    closedir(d);
    return n;
}

START_TEST(fixtures)
{
    ck_assert_int_ge(walk_fixtures(FIXTURES), 9);
}
END_TEST

/* ---- the sample logs in examples/logs: both forms give [64, 1, 1] and match the seed prediction - */

START_TEST(shared_samples)
{
    const char *both[2] = {SAMPLE_SIM, SAMPLE_DEV};
    for (int i = 0; i < 2; i++) {
        pc_log_set *s = scan_paths(&both[i], 1);
        ck_assert_uint_eq(s->nruns, 1);
        assert_triple(s->runs[0].observed, SEED, both[i]);
        assert_triple(s->runs[0].recommended, SEED, both[i]);
        ck_assert(s->runs[0].recommended_final);
        ck_assert_int_eq(s->runs[0].device_tasks, 2);
        ck_assert_int_eq(s->runs[0].max_stitch_count, 128);
        ck_assert_int_eq(s->runs[0].pid, i == 0 ? -1 : 27305);
        ck_assert_int_eq(s->stats.skipped_lines, 0);
        pc_log_check chk;
        pc_log_check_against(s, SEED, &chk);
        for (int k = 0; k < 3; k++)
            ck_assert_int_eq(chk.verdict[k], PC_VERDICT_MATCH);
        ck_assert(!chk.under);
        pc_log_free(s);
    }
    pc_log_set *s = scan_paths(both, 2);
    ck_assert_uint_eq(s->nruns, 2);
    assert_triple(s->observed, SEED, "combined");
    ck_assert_str_eq(s->runs[0].source, SAMPLE_SIM);
    ck_assert_str_eq(s->runs[1].source, SAMPLE_DEV);
    pc_log_free(s);
}
END_TEST

START_TEST(directory_recursive)
{
    const char *dir[1] = {FIXTURES "/tree"};
    pc_log_set *s = scan_paths(dir, 1);
    ck_assert_uint_eq(s->nruns, 2);
    ck_assert_int_eq(s->stats.files, 2);
    /* name order: a.log before sub/ */
    ck_assert_ptr_nonnull(strstr(s->runs[0].source, "tree/a.log"));
    ck_assert_ptr_nonnull(strstr(s->runs[1].source, "tree/sub/b.log"));
    ck_assert_int_eq(s->runs[1].pid, 9);
    assert_triple(s->observed, SEED, "tree");
    pc_log_free(s);

    /* the whole fixture directory: every run of every file, combined by maximum */
    const char *all[1] = {FIXTURES};
    s = scan_paths(all, 1);
    int64_t want_obs[3] = {128, 2, 2}; /* device_two_pids (128, 2, 2) and tuning_only (32, 2, 2) */
    assert_triple(s->observed, want_obs, "all fixtures");
    ck_assert(s->cut_short); /* alloc_failure.device.log */
    pc_log_free(s);
}
END_TEST

/* ---- generated variants ---------------------------------------------------------------------- */

START_TEST(gzip_by_magic)
{
    size_t len, zlen;
    char *plain = slurp(SAMPLE_DEV, &len);
    unsigned char *z = gzip_bytes(plain, len, &zlen);

    /* a file whose name says nothing about gzip */
    const char *p = tmp_path("gz_named.txt");
    write_file(p, z, zlen);
    const char *paths[1] = {p};
    pc_log_set *s = scan_paths(paths, 1);
    ck_assert_uint_eq(s->nruns, 1);
    assert_triple(s->observed, SEED, "gzip");
    ck_assert_int_eq(s->runs[0].pid, 27305);
    ck_assert_int_eq(s->stats.bytes, (int64_t)len);
    ck_assert_uint_eq(s->nwarnings, 0);
    pc_log_free(s);
    unlink(p);

    /* two gzip members, split in the middle of a line (cat a.gz b.gz) */
    size_t half = len / 2, z1len, z2len;
    unsigned char *z1 = gzip_bytes(plain, half, &z1len);
    unsigned char *z2 = gzip_bytes(plain + half, len - half, &z2len);
    unsigned char *cat = malloc(z1len + z2len);
    memcpy(cat, z1, z1len);
    memcpy(cat + z1len, z2, z2len);
    s = scan_buffer((char *)cat, z1len + z2len, 0);
    ck_assert_uint_eq(s->nruns, 1);
    assert_triple(s->observed, SEED, "gzip members");
    ck_assert_int_eq(s->runs[0].device_tasks, 2);
    ck_assert_uint_eq(s->nwarnings, 0);
    pc_log_free(s);

    /* truncated gzip: what was decompressed is read, the cut is a warning, not a crash */
    s = scan_buffer((char *)z, zlen * 2 / 3, 0);
    ck_assert_uint_eq(s->nwarnings, 1);
    ck_assert_ptr_nonnull(strstr(s->warnings[0].text, "truncated"));
    ck_assert_int_lt(s->stats.workspace_lines, 6);
    pc_log_free(s);

    /* corrupt gzip data: a warning naming the problem */
    unsigned char *bad = malloc(zlen);
    memcpy(bad, z, zlen);
    for (size_t i = 20; i < zlen - 8; i += 7)
        bad[i] ^= 0x5a;
    s = scan_buffer((char *)bad, zlen, 0);
    ck_assert_uint_ge(s->nwarnings, 1);
    pc_log_free(s);

    free(bad);
    free(cat);
    free(z1);
    free(z2);
    free(z);
    free(plain);
}
END_TEST

START_TEST(crlf_line_ends)
{
    size_t len;
    char *plain = slurp(SAMPLE_DEV, &len);
    char *crlf = malloc(len * 2 + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (plain[i] == '\n')
            crlf[n++] = '\r';
        crlf[n++] = plain[i];
    }
    pc_log_set *s = scan_buffer(crlf, n, 0);
    ck_assert_uint_eq(s->nruns, 1);
    ck_assert_int_eq(s->runs[0].pid, 27305);
    assert_triple(s->runs[0].observed, SEED, "crlf");
    assert_triple(s->runs[0].recommended, SEED, "crlf");
    ck_assert_int_eq(s->stats.skipped_lines, 0);
    ck_assert_int_eq(s->stats.lines, 18); /* 9 messages, a header line and a message line each */
    pc_log_free(s);
    free(crlf);
    free(plain);
}
END_TEST

START_TEST(empty_and_no_workspace)
{
    const char *p = tmp_path("empty.log");
    write_file(p, "", 0);
    const char *paths[1] = {p};
    pc_log_set *s = scan_paths(paths, 1);
    ck_assert_uint_eq(s->nruns, 0);
    ck_assert_int_eq(s->stats.files, 1);
    ck_assert_int_eq(s->stats.lines, 0);
    ck_assert_int_eq(s->stats.skipped_lines, 0);
    int64_t unknown[3] = {-1, -1, -1};
    assert_triple(s->observed, unknown, "empty");
    char *t = text_of(s, NULL);
    ck_assert_ptr_nonnull(strstr(t, "export ASCEND_GLOBAL_LOG_LEVEL=1"));
    ck_assert_ptr_nonnull(strstr(t, "ASCEND_PROCESS_LOG_PATH=<dir>"));
    free(t);
    /* verdicts are unknown, not a match, when nothing was observed */
    pc_log_check chk;
    pc_log_check_against(s, SEED, &chk);
    ck_assert_int_eq(chk.verdict[0], PC_VERDICT_UNKNOWN);
    ck_assert(!chk.under);
    pc_log_free(s);
    unlink(p);

    /* an empty memory block, even a NULL one */
    s = scan_buffer(NULL, 0, 0);
    ck_assert_uint_eq(s->nruns, 0);
    ck_assert_int_eq(s->stats.lines, 0);
    pc_log_free(s);

    const char *nw[1] = {FIXTURES "/no_workspace.log"};
    s = scan_paths(nw, 1);
    t = text_of(s, NULL);
    ck_assert_ptr_nonnull(strstr(t, "INFO logging"));
    free(t);
    pc_log_free(s);
}
END_TEST

START_TEST(ten_mb_line)
{
    size_t len;
    char *sample = slurp(SAMPLE_SIM, &len);
    /* One 10 MB line that starts like a Tuning line: it must be skipped, not half-read. */
    size_t junk = 10u << 20;
    const char *fake = "[Workspace Runtime Tuning] taskId=9, stitchCount=999, "
                       "recommendedDepths={rootInner=999,assembleOutcast=9,exclusive=9}, ";
    char *data = malloc(junk + 1 + len);
    memset(data, 'x', junk);
    memcpy(data, fake, strlen(fake));
    data[junk] = '\n';
    memcpy(data + junk + 1, sample, len);

    const char *p = tmp_path("long.log");
    write_file(p, data, junk + 1 + len);
    const char *paths[1] = {p};
    pc_log_set *s = scan_paths(paths, 1);
    ck_assert_int_eq(s->stats.long_lines, 1);
    ck_assert_int_eq(s->stats.skipped_lines, 1);
    ck_assert_uint_eq(s->nruns, 1);
    ck_assert_int_eq(s->runs[0].device_tasks, 2);
    ck_assert_int_eq(s->runs[0].max_stitch_count, 128);
    assert_triple(s->runs[0].recommended, SEED, "after a long line");
    ck_assert_int_eq(s->runs[0].first_line, 2); /* line numbers count the skipped line */
    ck_assert_int_eq(s->stats.lines, 12); /* the junk line and the sample's 11 */
    pc_log_free(s);

    /* the same long line as the file's last, unterminated line */
    write_file(p, data, junk);
    s = scan_paths(paths, 1);
    ck_assert_int_eq(s->stats.long_lines, 1);
    ck_assert_uint_eq(s->nruns, 0);
    ck_assert_int_eq(s->stats.lines, 1);
    pc_log_free(s);
    unlink(p);
    free(data);
    free(sample);
}
END_TEST

START_TEST(random_binary)
{
    size_t len;
    char *sample = slurp(SAMPLE_DEV, &len);
    size_t junk = 4u << 20;
    char *data = malloc(junk + 1 + len);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < junk; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data[i] = (char)(x >> 56);
    }
    data[junk] = '\n';
    memcpy(data + junk + 1, sample, len);
    pc_log_set *s = scan_buffer(data, junk + 1 + len, 0);
    ck_assert_int_gt(s->stats.binary_lines, 1000);
    ck_assert_int_le(s->stats.binary_lines, s->stats.lines);
    ck_assert_int_eq(s->stats.malformed_lines, 0);
    ck_assert_uint_eq(s->nruns, 1);
    assert_triple(s->runs[0].observed, SEED, "after binary junk");
    ck_assert_int_eq(s->runs[0].pid, 27305);
    pc_log_free(s);

    /* binary bytes inside a tagged line: the line is skipped as binary, not read */
    const char *tagged = "[x.cpp:1][MACHINE]:[Workspace Runtime Tuning] taskId=0, stitchCount=5\x01, "
                         "recommendedDepths={rootInner=1,assembleOutcast=1,exclusive=1}.\n";
    s = scan_buffer(tagged, strlen(tagged), 0);
    ck_assert_int_eq(s->stats.binary_lines, 1);
    ck_assert_uint_eq(s->nruns, 0);
    pc_log_free(s);
    free(data);
    free(sample);
}
END_TEST

START_TEST(truncated_last_line)
{
    size_t len;
    char *sample = slurp(SAMPLE_SIM, &len);
    /* cut the Recommendation line (the last) inside its depthMemory group, no newline */
    char *rec = strstr(sample, "[Workspace Runtime Recommendation]");
    ck_assert_ptr_nonnull(rec);
    char *cut = strstr(rec, "rawPerParallelBytes={rootInner=5");
    ck_assert_ptr_nonnull(cut);
    size_t n = (size_t)(cut - sample) + strlen("rawPerParallelBytes={rootInner=5");
    pc_log_set *s = scan_buffer(sample, n, 0);
    ck_assert_int_eq(s->stats.malformed_lines, 1);
    ck_assert_int_eq(s->stats.skipped_lines, 1);
    ck_assert_uint_eq(s->nruns, 1);
    /* no Recommendation: recommended is the maximum over Tuning lines, observed comes from
     * capacity / configured depth (65536/128 = 512, 128/128 = 1, 524288/128 = 4096) */
    ck_assert(!s->runs[0].recommended_final);
    assert_triple(s->runs[0].recommended, SEED, "tuning max");
    assert_triple(s->runs[0].observed, SEED, "fallback units");
    pc_log_free(s);

    /* cut right after a complete group: balanced braces but a required field missing */
    char *sum = strstr(sample, "[Workspace Runtime Summary]");
    char *after = strstr(sum, "exclusiveOutcast={peak=4096,capacity=524288}");
    n = (size_t)(after - sample);
    s = scan_buffer(sample, n, 0);
    ck_assert_int_eq(s->stats.malformed_lines, 1);
    pc_log_free(s);
    free(sample);
}
END_TEST

/* The same log through buffers of many sizes (every chunk boundary lands elsewhere, headers get
 * separated from their messages) and through memory, a file and stdin: identical results. */
static char *big_device_log(size_t *len, int launches)
{
    pc_sb b = {0};
    for (int l = 0; l < launches; l++) {
        int pid = 1000 + l % 3;
        for (int i = 0; i < 40; i++)
            pc_sb_printf(&b, "[INFO] RUNTIME(%d,python3):2026-11-20-10:00:00.%03d.000 [stream.cc:%d][tid:%d] "
                             "Stream synchronize: stream_id=%d, task_id=%d\n",
                         pid, i, 100 + i, pid, i, l * 40 + i);
        int64_t peak = 512 * (1 + (l * 7) % 64);
        pc_sb_printf(&b, "[INFO] AICPU(%d,aicpu_scheduler):2026-11-20-10:00:01.000.000 [dev_workspace.cpp:118][tid:%d] %d LogTuningUsage\n"
                         "\"[Workspace Runtime Pool] parallelId=0, \" \"rootInner={current=%lld,peak=%lld,capacity=65536}, \" "
                         "\"exclusiveOutcast={current=4096,peak=4096,capacity=524288}, \" "
                         "\"assembleOutcast={currentSlots=1,peakSlots=%d,capacitySlots=128}.\"\n",
                     pid, pid, pid, (long long)peak, (long long)peak, 1 + l % 2);
        pc_sb_printf(&b, "[INFO] AICPU(%d,aicpu_scheduler):2026-11-20-10:00:01.000.001 [dev_workspace.cpp:131][tid:%d] %d LogTuningUsage\n"
                         "\"[Workspace Runtime Tuning] taskId=%d, stitchCount=%d, \" "
                         "\"configuredDepths={rootInner=128,innerTemporal=128,exclusive=128}, \" "
                         "\"recommendedDepths={rootInner=%lld,assembleOutcast=2,exclusive=1}.\"\n",
                     pid, pid, pid, l, 1 + l % 128, (long long)(peak / 512));
        if (l % 5 == 4)
            pc_sb_printf(&b, "[INFO] AICPU(%d,aicpu_scheduler):2026-11-20-10:00:01.000.002 [dev_workspace.cpp:240][tid:%d] %d CanAllocateFunctionMemory\n"
                             "\"[Workspace Runtime Alloc Failure] reason=exclusive-outcast\"\n",
                         pid, pid, pid);
    }
    *len = b.len;
    return pc_sb_take(&b);
}

static void same_runs(const pc_log_set *a, const pc_log_set *b, const char *what)
{
    ck_assert_msg(a->nruns == b->nruns, "%s: %zu vs %zu runs", what, a->nruns, b->nruns);
    for (size_t i = 0; i < a->nruns; i++) {
        const pc_log_run *x = &a->runs[i], *y = &b->runs[i];
        ck_assert_int_eq(x->pid, y->pid);
        assert_triple(x->observed, y->observed, what);
        assert_triple(x->recommended, y->recommended, what);
        ck_assert_int_eq(x->device_tasks, y->device_tasks);
        ck_assert_int_eq(x->max_stitch_count, y->max_stitch_count);
        ck_assert_uint_eq(x->nfailures, y->nfailures);
        for (size_t k = 0; k < x->nfailures; k++)
            ck_assert_int_eq(x->failures[k].line, y->failures[k].line);
        ck_assert_int_eq(x->first_line, y->first_line);
        ck_assert_uint_eq(x->ntasks, y->ntasks);
        ck_assert_int_eq(x->tasks_dropped, y->tasks_dropped);
        for (size_t k = 0; k < x->ntasks; k++) {
            ck_assert_int_eq(x->tasks[k].task_id, y->tasks[k].task_id);
            ck_assert_int_eq(x->tasks[k].stitch_count, y->tasks[k].stitch_count);
            assert_triple(x->tasks[k].recommended, y->tasks[k].recommended, what);
        }
    }
    ck_assert_int_eq(a->stats.lines, b->stats.lines);
    ck_assert_int_eq(a->stats.workspace_lines, b->stats.workspace_lines);
    ck_assert_int_eq(a->stats.skipped_lines, b->stats.skipped_lines);
}

static void same_runs_except_lines(const pc_log_set *a, const pc_log_set *b, int64_t extra_lines)
{
    ck_assert_uint_eq(a->nruns, b->nruns);
    for (size_t i = 0; i < a->nruns; i++) {
        assert_triple(a->runs[i].observed, b->runs[i].observed, "flat");
        ck_assert_uint_eq(a->runs[i].nfailures, b->runs[i].nfailures);
    }
    ck_assert_int_eq(a->stats.lines + extra_lines, b->stats.lines);
}

START_TEST(chunk_boundaries)
{
    size_t len;
    char *log = big_device_log(&len, 300);
    ck_assert_uint_gt(len, 600000);
    pc_log_set *ref = scan_buffer(log, len, 0);
    ck_assert_uint_eq(ref->nruns, 3);
    ck_assert_int_eq(ref->stats.skipped_lines, 0);
    /* pid 1000 holds launches 0, 3, 6, ...: peaks 512 * (1 + 7l % 64), max over them = 64 */
    int64_t want[3] = {64, 2, 1};
    assert_triple(ref->observed, want, "big");
    ck_assert_int_eq(ref->runs[0].device_tasks, 100);
    ck_assert_uint_eq(ref->runs[0].nfailures + ref->runs[1].nfailures + ref->runs[2].nfailures, 60);
    static const size_t sizes[] = {4096, 4097, 4099, 5000, 8191, 65536, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        pc_log_set *s = scan_buffer(log, len, sizes[i]);
        char what[64];
        snprintf(what, sizeof what, "buffer %zu", sizes[i]);
        same_runs(ref, s, what);
        pc_log_free(s);
    }

    /* a file, and the same file as stdin ("-") */
    const char *p = tmp_path("big.log");
    write_file(p, log, len);
    const char *paths[1] = {p};
    pc_log_set *f = scan_paths(paths, 1);
    same_runs(ref, f, "file");
    pc_log_free(f);
    int saved = dup(0);
    int fd = open(p, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 0);
    close(fd);
    const char *dash[1] = {"-"};
    pc_log_set *in = scan_paths(dash, 1);
    dup2(saved, 0);
    close(saved);
    same_runs(ref, in, "stdin");
    ck_assert_str_eq(in->runs[0].source, "<stdin>");
    pc_log_free(in);
    unlink(p);
    pc_log_free(ref);
    free(log);
}
END_TEST

/* Memory stays flat: scanning ten times more input makes no more allocations. */
START_TEST(flat_memory)
{
    size_t small_len, big_len;
    char *small = big_device_log(&small_len, 30);
    pc_sb b = {0};
    pc_sb_appendn(&b, small, small_len);
    for (int i = 0; i < 200000; i++)
        pc_sb_appendn(&b, "[INFO] RUNTIME(1,python3):2026 [x.cc:1][tid:1] noise noise noise noise\n", 71);
    big_len = b.len;
    char *big = pc_sb_take(&b);

    uint64_t c0 = pc_mem_count();
    pc_log_set *s1 = scan_buffer(small, small_len, 0);
    uint64_t c1 = pc_mem_count();
    pc_log_set *s2 = scan_buffer(big, big_len, 0);
    uint64_t c2 = pc_mem_count();
    ck_assert_msg(c2 - c1 == c1 - c0, "allocations: %llu for %zu bytes, %llu for %zu bytes",
                  (unsigned long long)(c1 - c0), small_len, (unsigned long long)(c2 - c1), big_len);
    same_runs_except_lines(s1, s2, 200000);
    pc_log_free(s1);
    pc_log_free(s2);
    free(small);
    free(big);
}
END_TEST

/* ---- the per-DeviceTask list ------------------------------------------------------------------ */

static void assert_task(const pc_log_run *r, size_t k, int64_t id, int64_t stitch, int64_t d0,
                        int64_t d1, int64_t d2, const char *what)
{
    ck_assert_msg(k < r->ntasks, "%s: no task %zu (%zu tasks)", what, k, r->ntasks);
    const pc_log_task *t = &r->tasks[k];
    ck_assert_msg(t->task_id == id && t->stitch_count == stitch, "%s: task %zu is taskId=%lld "
                  "stitchCount=%lld, want %lld, %lld", what, k, (long long)t->task_id,
                  (long long)t->stitch_count, (long long)id, (long long)stitch);
    int64_t want[3] = {d0, d1, d2};
    assert_triple(t->recommended, want, what);
}

START_TEST(task_lists)
{
    /* the seed logs, both forms: taskId 0 stitches 128 roots (recommends [64,1,1]), taskId 1
     * the last root alone ([1,1,1]) */
    const char *both[2] = {SAMPLE_SIM, SAMPLE_DEV};
    for (int i = 0; i < 2; i++) {
        pc_log_set *s = scan_paths(&both[i], 1);
        const pc_log_run *r = &s->runs[0];
        ck_assert_uint_eq(r->ntasks, 2);
        ck_assert_int_eq(r->tasks_dropped, 0);
        ck_assert_int_eq((int64_t)r->ntasks, r->device_tasks);
        assert_task(r, 0, 0, 128, 64, 1, 1, both[i]);
        assert_task(r, 1, 1, 1, 1, 1, 1, both[i]);
        pc_log_free(s);
    }

    /* two pids interleaved in one file: each run keeps its own tasks */
    const char *p[1] = {FIXTURES "/device_two_pids.log"};
    pc_log_set *s = scan_paths(p, 1);
    ck_assert_uint_eq(s->nruns, 2);
    ck_assert_uint_eq(s->runs[0].ntasks, 2);
    assert_task(&s->runs[0], 0, 0, 128, 64, 1, 1, "pid 100");
    assert_task(&s->runs[0], 1, 1, 1, 1, 1, 1, "pid 100");
    ck_assert_uint_eq(s->runs[1].ntasks, 1);
    assert_task(&s->runs[1], 0, 0, 128, 128, 3, 2, "pid 200");
    pc_log_free(s);

    /* two launches in one run: taskId restarts at 0, the list stays in submit order */
    p[0] = FIXTURES "/multi_launch.sim.log";
    s = scan_paths(p, 1);
    ck_assert_uint_eq(s->nruns, 1);
    ck_assert_uint_eq(s->runs[0].ntasks, 2);
    assert_task(&s->runs[0], 0, 0, 128, 64, 2, 1, "launch 1");
    assert_task(&s->runs[0], 1, 0, 20, 20, 3, 1, "launch 2");
    pc_log_free(s);

    /* the older innerTemporal key, and a stitchCount split across quoted pieces */
    p[0] = FIXTURES "/old_keys.sim.log";
    s = scan_paths(p, 1);
    assert_task(&s->runs[0], 1, 1, 1, 1, 1, 1, "old keys");
    pc_log_free(s);
    p[0] = FIXTURES "/quoted_split.device.log";
    s = scan_paths(p, 1);
    ck_assert_uint_eq(s->runs[0].ntasks, 1);
    assert_task(&s->runs[0], 0, 0, 128, 64, 2, 1, "quoted split");
    pc_log_free(s);

    /* a Tuning line without taskId is still a task; one without stitchCount is malformed and
     * not a task; runs without Tuning lines have no list */
    const char *log =
        "[x.cpp:1][MACHINE]:[Workspace Runtime Tuning] stitchCount=7, "
        "recommendedDepths={rootInner=7,assembleOutcast=1,exclusive=1}.\n"
        "[x.cpp:1][MACHINE]:[Workspace Runtime Tuning] taskId=5, "
        "recommendedDepths={rootInner=9,assembleOutcast=1,exclusive=1}.\n";
    s = scan_buffer(log, strlen(log), 0);
    ck_assert_uint_eq(s->runs[0].ntasks, 1);
    assert_task(&s->runs[0], 0, -1, 7, 7, 1, 1, "no taskId");
    ck_assert_int_eq(s->stats.malformed_lines, 1);
    pc_log_free(s);
    p[0] = FIXTURES "/host_plog.log"; /* [workspaceSize] lines only */
    s = scan_paths(p, 1);
    ck_assert_uint_eq(s->nruns, 1);
    ck_assert_uint_eq(s->runs[0].ntasks, 0);
    ck_assert_ptr_null(s->runs[0].tasks);
    pc_log_free(s);
}
END_TEST

/* Tuning lines with stitchCount = 1 + i % 100 (taskId i), as one simulator log. */
static char *tuning_log(size_t *len, int ntasks)
{
    pc_sb b = {0};
    for (int i = 0; i < ntasks; i++)
        pc_sb_printf(&b, "[dev_workspace.cpp:131][MACHINE]:[Workspace Runtime Tuning] taskId=%d, "
                         "stitchCount=%d, configuredDepths={rootInner=128,innerTemporal=128,"
                         "exclusive=128}, recommendedDepths={rootInner=%d,assembleOutcast=1,"
                         "exclusive=1}.\n",
                     i, 1 + i % 100, 1 + i % 100);
    *len = b.len;
    return pc_sb_take(&b);
}

START_TEST(task_list_cap)
{
    /* the cap keeps the first tasks and counts the rest; memory stops growing at the cap */
    size_t small_len, big_len;
    char *small = tuning_log(&small_len, 2000);
    char *big = tuning_log(&big_len, 20000);
    pc_log_opts o = {.max_tasks = 50};
    uint64_t c0 = pc_mem_count();
    pc_log_set *s1 = pc_log_new(&o);
    ck_assert(pc_log_add_buffer(s1, small, small_len, "small.log", NULL));
    pc_log_finish(s1);
    uint64_t c1 = pc_mem_count();
    pc_log_set *s2 = pc_log_new(&o);
    ck_assert(pc_log_add_buffer(s2, big, big_len, "big.log", NULL));
    pc_log_finish(s2);
    uint64_t c2 = pc_mem_count();
    ck_assert_msg(c2 - c1 == c1 - c0, "allocations: %llu for 2000 tasks, %llu for 20000",
                  (unsigned long long)(c1 - c0), (unsigned long long)(c2 - c1));
    const pc_log_run *r = &s2->runs[0];
    ck_assert_int_eq(r->device_tasks, 20000);
    ck_assert_uint_eq(r->ntasks, 50);
    ck_assert_int_eq(r->tasks_dropped, 19950);
    ck_assert_int_eq(r->max_stitch_count, 100); /* the maxima still see every task */
    assert_task(r, 0, 0, 1, 1, 1, 1, "first");
    assert_task(r, 49, 49, 50, 50, 1, 1, "last kept");
    ck_assert_int_eq(s1->runs[0].tasks_dropped, 1950);
    pc_log_free(s1);
    pc_log_free(s2);

    /* the default cap keeps every one of them */
    pc_log_set *s = scan_buffer(big, big_len, 0);
    ck_assert_uint_eq(s->runs[0].ntasks, 20000);
    ck_assert_int_eq(s->runs[0].tasks_dropped, 0);
    assert_task(&s->runs[0], 19999, 19999, 100, 100, 1, 1, "last");
    pc_log_free(s);
    free(small);
    free(big);
}
END_TEST

/* ---- tags, headers, fields --------------------------------------------------------------------- */

START_TEST(tag_anywhere_and_headers)
{
    /* the tag after arbitrary text on the line; host plog header with the message on the line;
     * a header without the tag on the next line does not leak its pid into a sim line. */
    const char *log =
        "[INFO] PYPTO(777):2026-11-20 10:30:58.412 [a.cpp:1][MACHINE]:[workspaceSize] OutcastSlots: boundary=6, innerTemporal=3.\n"
        "[INFO] AICPU(888,aicpu_scheduler):2026 [b.cpp:2][tid:1] 1 Something\n"
        "[dev_workspace.cpp:131][MACHINE]:[Workspace Runtime Tuning] taskId=0, stitchCount=3, "
        "configuredDepths={rootInner=128,innerTemporal=128,exclusive=128}, recommendedDepths={rootInner=3,assembleOutcast=1,exclusive=1}.\n"
        "some text before it [Workspace Runtime Tuning] taskId=1, stitchCount=4, recommendedDepths={rootInner=4,assembleOutcast=1,exclusive=1}.\n"
        "[Workspace Runtime Unknown] taskId=1, stitchCount=9.\n"
        "[workspacesize] not a tag (case matters)\n";
    pc_log_set *s = scan_buffer(log, strlen(log), 0);
    ck_assert_uint_eq(s->nruns, 2);
    ck_assert_int_eq(s->runs[0].pid, 777);
    ck_assert_int_eq(s->runs[0].boundary_slots, 6);
    ck_assert_int_eq(s->runs[1].pid, -1);
    ck_assert_int_eq(s->runs[1].device_tasks, 2);
    ck_assert_int_eq(s->runs[1].max_stitch_count, 4);
    int64_t want[3] = {4, 1, 1};
    assert_triple(s->runs[1].recommended, want, "tuning max");
    ck_assert_int_eq(s->stats.workspace_lines, 2);
    ck_assert_int_eq(s->stats.size_lines, 1);
    pc_log_free(s);

    size_t tl;
    ck_assert_int_eq(pc_log_tag_at("[Workspace Runtime Alloc Failure] x", 35, &tl), PC_TAG_ALLOC_FAILURE);
    ck_assert_uint_eq(tl, 33);
    ck_assert_int_eq(pc_log_tag_at("[Workspace Runtime Pool", 23, &tl), PC_TAG_NONE);
    const char *hay = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa[workspace]x[Workspaces][workspaceSize] y";
    ck_assert_ptr_eq(pc_log_find_tag(hay, strlen(hay)), strstr(hay, "[workspaceSize]"));
    ck_assert_ptr_null(pc_log_find_tag(hay, (size_t)(strstr(hay, "[workspaceSize]") - hay) + 14));
}
END_TEST

START_TEST(fields_by_name)
{
    pc_log_fields f;
    const char *t = " depthMemory={rawPerParallelBytes={rootInner=512,innerTemporal=4096,exclusive=4096}, "
                    "nextDepthTotalBytes={rootInner=0,assembleOutcast=32768,exclusive=0}, parallelism=2}, "
                    "stitch_1=32768 bytes, slotted=4096x132(slots), reason=exclusive-outcast";
    pc_log_parse_fields(t, strlen(t), &f);
    ck_assert(!f.unbalanced);
    int64_t v;
    ck_assert(pc_log_field_u64(&f, "depthMemory.rawPerParallelBytes.exclusive", &v));
    ck_assert_int_eq(v, 4096);
    ck_assert(pc_log_field_u64(&f, "depthMemory.parallelism", &v));
    ck_assert_int_eq(v, 2);
    ck_assert(pc_log_field_pool1(&f, "depthMemory.rawPerParallelBytes", "", &v));
    ck_assert_int_eq(v, 4096);
    ck_assert(pc_log_field_pool1(&f, "depthMemory.nextDepthTotalBytes", "", &v));
    ck_assert_int_eq(v, 32768);
    ck_assert(pc_log_field_u64(&f, "stitch_1", &v));
    ck_assert_int_eq(v, 32768);
    ck_assert(pc_log_field_u64(&f, "slotted", &v));
    ck_assert_int_eq(v, 4096);
    ck_assert(!pc_log_field_u64(&f, "reason", &v));
    const pc_log_field *r = pc_log_field_get(&f, "reason");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq((int)r->vlen, 17);
    ck_assert(!pc_log_field_u64(&f, "rootInner", &v)); /* only inside its group */

    const char *order = "assembleOutcast={capacitySlots=7,peakSlots=2}, rootInner={capacity=9,peak=1}";
    pc_log_parse_fields(order, strlen(order), &f);
    ck_assert(pc_log_field_pool1(&f, "", "peakSlots", &v));
    ck_assert_int_eq(v, 2);
    ck_assert(pc_log_field_u64(&f, "rootInner.peak", &v));
    ck_assert_int_eq(v, 1);

    const char *cut = "rootInner={current=1,peak=";
    pc_log_parse_fields(cut, strlen(cut), &f);
    ck_assert(f.unbalanced);
    const char *extra = "a=1}, b=2";
    pc_log_parse_fields(extra, strlen(extra), &f);
    ck_assert(f.unbalanced);
    const char *big = "n=99999999999999999999";
    pc_log_parse_fields(big, strlen(big), &f);
    ck_assert(!pc_log_field_u64(&f, "n", &v));
}
END_TEST

/* ---- verdicts and output ------------------------------------------------------------------------- */

START_TEST(verdicts)
{
    ck_assert_int_eq(pc_log_compare(64, 64), PC_VERDICT_MATCH);
    ck_assert_int_eq(pc_log_compare(32, 64), PC_VERDICT_UNDER);
    ck_assert_int_eq(pc_log_compare(128, 64), PC_VERDICT_OVER);
    ck_assert_int_eq(pc_log_compare(-1, 64), PC_VERDICT_UNKNOWN);
    ck_assert_int_eq(pc_log_compare(1, -1), PC_VERDICT_UNKNOWN);
    ck_assert_str_eq(pc_log_verdict_name(PC_VERDICT_UNDER), "under-predicted");
    ck_assert_str_eq(pc_log_verdict_name(PC_VERDICT_OVER), "over-predicted");
    ck_assert_str_eq(pc_log_verdict_name(PC_VERDICT_MATCH), "match");

    const char *both[2] = {SAMPLE_SIM, SAMPLE_DEV};
    pc_log_set *s = scan_paths(both, 2);
    pc_log_check chk;
    int64_t under[3] = {32, 1, 1}, over[3] = {64, 2, 1};
    pc_log_check_against(s, under, &chk);
    ck_assert(chk.under);
    ck_assert_int_eq(chk.verdict[0], PC_VERDICT_UNDER);
    ck_assert_int_eq(chk.verdict[1], PC_VERDICT_MATCH);
    char *t = text_of(s, &chk);
    ck_assert_ptr_nonnull(strstr(t, "root_inner                32        64  under-predicted"));
    free(t);
    pc_log_check_against(s, over, &chk);
    ck_assert(!chk.under);
    ck_assert_int_eq(chk.verdict[1], PC_VERDICT_OVER);
    ck_assert_int_eq(chk.verdict[2], PC_VERDICT_MATCH);
    pc_log_check_against(s, NULL, &chk);
    ck_assert(!chk.have_prediction);
    pc_log_free(s);
}
END_TEST

static cJSON *item(cJSON *o, const char *k)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    ck_assert_msg(v != NULL, "missing \"%s\"", k);
    return v;
}

static void json_triple(cJSON *a, int64_t x, int64_t y, int64_t z)
{
    ck_assert(cJSON_IsArray(a));
    ck_assert_int_eq(cJSON_GetArraySize(a), 3);
    int64_t w[3] = {x, y, z};
    for (int i = 0; i < 3; i++) {
        cJSON *e = cJSON_GetArrayItem(a, i);
        if (w[i] < 0)
            ck_assert(cJSON_IsNull(e));
        else
            ck_assert_int_eq((int64_t)e->valuedouble, w[i]);
    }
}

START_TEST(json_shape)
{
    const char *paths[2] = {SAMPLE_SIM, FIXTURES "/alloc_failure.device.log"};
    pc_log_set *s = scan_paths(paths, 2);
    pc_log_check chk;
    pc_log_check_against(s, SEED, &chk);
    cJSON *root = pc_log_json(s, &chk);
    ck_assert_int_eq(item(root, "version")->valueint, 1);
    cJSON *runs = item(root, "runs");
    ck_assert_int_eq(cJSON_GetArraySize(runs), 2);
    cJSON *r0 = cJSON_GetArrayItem(runs, 0), *r1 = cJSON_GetArrayItem(runs, 1);
    ck_assert_str_eq(item(r0, "source")->valuestring, SAMPLE_SIM);
    ck_assert(cJSON_IsNull(item(r0, "pid")));
    json_triple(item(r0, "recommended"), 64, 1, 1);
    json_triple(item(r0, "observed"), 64, 1, 1);
    ck_assert_int_eq(item(r0, "device_tasks")->valueint, 2);
    ck_assert_int_eq(item(r0, "max_stitch_count")->valueint, 128);
    ck_assert_int_eq(cJSON_GetArraySize(item(r0, "alloc_failures")), 0);
    ck_assert_int_eq(item(r1, "pid")->valueint, 7001);
    cJSON *fails = item(r1, "alloc_failures");
    ck_assert_int_eq(cJSON_GetArraySize(fails), 2);
    ck_assert_str_eq(item(cJSON_GetArrayItem(fails, 0), "reason")->valuestring, "exclusive-outcast");
    json_triple(item(root, "observed"), 64, 1, 1);
    json_triple(item(root, "recommended"), 64, 2, 1);
    json_triple(item(root, "predicted"), 64, 1, 1);
    cJSON *v = item(root, "verdict");
    ck_assert_str_eq(cJSON_GetArrayItem(v, 0)->valuestring, "match");
    ck_assert_int_eq(item(root, "skipped_lines")->valueint, 0);
    ck_assert(cJSON_IsTrue(item(root, "cut_short")));
    cJSON_Delete(root);

    /* without a prediction: predicted and verdict are null */
    root = pc_log_json(s, NULL);
    ck_assert(cJSON_IsNull(item(root, "predicted")));
    ck_assert(cJSON_IsNull(item(root, "verdict")));
    cJSON_Delete(root);

    char *t = text_of(s, &chk);
    ck_assert_ptr_nonnull(strstr(t, "warning: " FIXTURES "/alloc_failure.device.log (pid 7001): 2 "
                                    "[Workspace Runtime Alloc Failure] lines (first at line 15"));
    ck_assert_ptr_null(strstr(t, "ASCEND_GLOBAL_LOG_LEVEL"));
    free(t);
    pc_log_free(s);
}
END_TEST

START_TEST(unreadable_path)
{
    pc_log_set *s = pc_log_new(NULL);
    char *err = NULL;
    ck_assert(!pc_log_add_path(s, "/nonexistent/dir/x.log", &err));
    ck_assert_ptr_nonnull(err);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/dir/x.log"));
    pc_mem_free(err); /* the caller's, not the set's */
    pc_log_finish(s);
    ck_assert_uint_eq(s->nruns, 0);
    pc_log_free(s);
}
END_TEST

/* ---- prices for a plan -------------------------------------------------------------------------- */

START_TEST(plan_costs_from_logs)
{
    /* sim sample: rawPerParallelBytes {512, 4096, 4096}, devTaskBoundaryOutcastNum=4, slot size =
     * innerTemporal / slots per depth = 4096 / 1; fixed = 4 x 4096 = 16384.
     * bytes([64,1,1]) = AlignUp(64*512 + 4096 + 4096 + 16384, 32768) = 65536 (docs/model.md 10). */
    const char *p[1] = {SAMPLE_SIM};
    pc_log_set *s = scan_paths(p, 1);
    pc_plan_costs c;
    ck_assert(pc_log_plan_costs(s, NULL, &c));
    int64_t step[3] = {512, 4096, 4096};
    assert_triple(c.step, step, "steps");
    ck_assert_int_eq(c.fixed, 16384);
    ck_assert_int_eq(c.parallelism, 1);
    ck_assert_int_eq(pc_plan_costs_bytes(&c, SEED), 65536);
    int64_t dflt[3] = {128, 128, 128};
    ck_assert_int_eq(pc_plan_costs_bytes(&c, dflt), 1146880);
    pc_log_free(s);

    /* device sample: no [workspaceSize] lines, so the boundary slots must come from the kernel */
    p[0] = SAMPLE_DEV;
    s = scan_paths(p, 1);
    ck_assert(!pc_log_plan_costs(s, NULL, &c));
    pc_result r;
    memset(&r, 0, sizeof r);
    r.n_exclusive = 1;
    r.n_assemble = 1;
    r.slot_size = 4096;
    ck_assert(pc_log_plan_costs(s, &r, &c));
    ck_assert_int_eq(c.fixed, 16384);
    pc_log_free(s);

    /* no Recommendation line: no rawPerParallelBytes, no prices */
    p[0] = FIXTURES "/tuning_only.sim.log";
    s = scan_paths(p, 1);
    ck_assert(!pc_log_plan_costs(s, &r, &c));
    pc_log_free(s);
}
END_TEST

/* ---- the command ------------------------------------------------------------------------------ */

static cJSON *parse_out(const pc_test_output *o)
{
    cJSON *j = cJSON_Parse(o->out);
    ck_assert_msg(j != NULL, "not JSON: %s (stderr: %s)", o->out, o->err);
    return j;
}

static void json_verdicts(cJSON *root, const char *a, const char *b, const char *c)
{
    cJSON *v = item(root, "verdict");
    ck_assert_str_eq(cJSON_GetArrayItem(v, 0)->valuestring, a);
    ck_assert_str_eq(cJSON_GetArrayItem(v, 1)->valuestring, b);
    ck_assert_str_eq(cJSON_GetArrayItem(v, 2)->valuestring, c);
}

START_TEST(cli_logs)
{
    /* the acceptance case: both sample logs against the seed kernel (predicted [64, 1, 1]) */
    pc_test_output o = pc_test_poolcheck("logs", "--format=json", "--kernel", SEED_PY, SAMPLE_SIM,
                                         SAMPLE_DEV, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    cJSON *j = parse_out(&o);
    json_triple(item(j, "observed"), 64, 1, 1);
    json_triple(item(j, "predicted"), 64, 1, 1);
    json_verdicts(j, "match", "match", "match");
    ck_assert_int_eq(cJSON_GetArraySize(item(j, "runs")), 2);
    cJSON_Delete(j);
    pc_test_output_free(&o);

    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, SAMPLE_DEV, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "root_inner                64        64  match"));
    ck_assert_ptr_nonnull(strstr(o.out, "(pid 27305)"));
    pc_test_output_free(&o);

    /* under-predicted: exit 1 */
    o = pc_test_poolcheck("logs", "--format=json", "--kernel", SEED_PY,
                          FIXTURES "/device_two_pids.log", NULL);
    ck_assert_int_eq(o.status, 1);
    j = parse_out(&o);
    json_verdicts(j, "under-predicted", "under-predicted", "under-predicted");
    cJSON_Delete(j);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, FIXTURES "/device_two_pids.log", NULL);
    ck_assert_int_eq(o.status, 1);
    ck_assert_ptr_nonnull(strstr(o.out, "under-predicted"));
    pc_test_output_free(&o);

    /* over-predicted (a run cut short by memory): exit 0, with the Alloc Failure warning */
    o = pc_test_poolcheck("logs", "--format=json", "--kernel", SEED_PY,
                          FIXTURES "/alloc_failure.device.log", NULL);
    ck_assert_int_eq(o.status, 0);
    j = parse_out(&o);
    json_verdicts(j, "over-predicted", "match", "match");
    ck_assert(cJSON_IsTrue(item(j, "cut_short")));
    cJSON_Delete(j);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, FIXTURES "/alloc_failure.device.log", NULL);
    ck_assert_ptr_nonnull(strstr(o.out, "warning: "));
    ck_assert_ptr_nonnull(strstr(o.out, "parallelism was cut by memory"));
    pc_test_output_free(&o);

    /* stdin, gzip through stdin is covered by the library tests */
    size_t len;
    char *sample = slurp(SAMPLE_SIM, &len);
    char *argv[] = {PC_BINARY_DIR "/bin/poolcheck", "logs", "-", NULL};
    o = pc_test_run(argv, sample);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "<stdin>: 2 DeviceTasks"));
    pc_test_output_free(&o);
    free(sample);

    /* no Workspace lines: the note, exit 0 */
    o = pc_test_poolcheck("logs", FIXTURES "/no_workspace.log", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "export ASCEND_GLOBAL_LOG_LEVEL=1"));
    pc_test_output_free(&o);

    /* usage errors and unreadable input: exit 2 */
    o = pc_test_poolcheck("logs", "/nonexistent/x.log", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "/nonexistent/x.log"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--bogus", SAMPLE_SIM, NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel-name", "k", SAMPLE_SIM, NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, "--kernel-name", "nope", SAMPLE_SIM, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "'k_tmp_to_d_emb'"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, "--kernel-name", "k_tmp_to_d_emb",
                          "--format=json", SAMPLE_SIM, NULL);
    ck_assert_int_eq(o.status, 0);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--max-line-kb", "2", SAMPLE_SIM, NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("logs");
    TCase *tc = tcase_create("logs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fixtures);
    tcase_add_test(tc, shared_samples);
    tcase_add_test(tc, directory_recursive);
    tcase_add_test(tc, gzip_by_magic);
    tcase_add_test(tc, crlf_line_ends);
    tcase_add_test(tc, empty_and_no_workspace);
    tcase_add_test(tc, ten_mb_line);
    tcase_add_test(tc, random_binary);
    tcase_add_test(tc, truncated_last_line);
    tcase_add_test(tc, chunk_boundaries);
    tcase_add_test(tc, flat_memory);
    tcase_add_test(tc, task_lists);
    tcase_add_test(tc, task_list_cap);
    tcase_add_test(tc, tag_anywhere_and_headers);
    tcase_add_test(tc, fields_by_name);
    tcase_add_test(tc, verdicts);
    tcase_add_test(tc, json_shape);
    tcase_add_test(tc, unreadable_path);
    tcase_add_test(tc, plan_costs_from_logs);
    tcase_add_test(tc, cli_logs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
