/* check_report_cli.c - `--report=FILE.html` of `poolcheck logs --kernel` and `poolcheck plan`:
 * the command is run (build dir's bin/poolcheck) on the example kernel, the seed logs and the log
 * fixtures, and the page it writes must hold what the same command prints as JSON: each run's
 * label and observed depths, each DeviceTask's stitchCount and recommendedDepths as markers, the
 * Alloc Failure note; each planned kernel's plan depths, bytes and budget.  Usage errors and an
 * unwritable path exit 2 with the message, and write nothing.
 * Also the record `check -j N` workers send the parent (report/serialize.c): encoded, decoded and
 * encoded again it is the same bytes and writes the same output in every format; a cut or
 * corrupted record is refused with a message (or, when a flipped byte still reads as a record,
 * written without a crash), never read out of bounds. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers/test_run.h"
#include "poolcheck/poolcheck.h"
#include "poolcheck/report.h"
#include "support/support.h"

#define EXAMPLE_PY PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"
#define SEED_LOGS PC_SOURCE_DIR "/examples/logs"
#define SAMPLE_DEV SEED_LOGS "/k_tmp_to_d_emb.device.log"
#define SAMPLE_SIM SEED_LOGS "/k_tmp_to_d_emb.sim.log"
#define FIXTURES PC_SOURCE_DIR "/tests/fixtures/logs"
#define UNWRITABLE "/nonexistent/dir/x.html"

/* ---- helpers ------------------------------------------------------------------------------------ */

static char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/check_report_cli_%d_%s", PC_BINARY_DIR, (int)getpid(), name);
    return p;
}

/* The report at path: it exists, is a non-empty HTML page; the caller frees the text. */
static char *read_report(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "no report at %s: %s", path, strerror(errno));
    ck_assert_msg(st.st_size > 0, "%s is empty", path);
    size_t len;
    char *err = NULL;
    char *t = pc_read_file(path, &len, &err);
    ck_assert_msg(t != NULL, "%s", err ? err : path);
    ck_assert_uint_eq(len, (size_t)st.st_size);
    ck_assert_msg(strncmp(t, "<!DOCTYPE html>", 15) == 0, "%s is not an HTML page", path);
    ck_assert_ptr_nonnull(strstr(t, "</html>"));
    return t;
}

static void assert_has(const char *text, const char *needle, const char *what)
{
    ck_assert_msg(strstr(text, needle) != NULL, "%s: '%s' not in the report", what, needle);
}

static cJSON *item(cJSON *o, const char *k)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    ck_assert_msg(v != NULL, "missing \"%s\"", k);
    return v;
}

static void json_triple(cJSON *a, int64_t out[3])
{
    ck_assert(cJSON_IsArray(a) && cJSON_GetArraySize(a) == 3);
    for (int i = 0; i < 3; i++) {
        cJSON *e = cJSON_GetArrayItem(a, i);
        out[i] = cJSON_IsNumber(e) ? (int64_t)e->valuedouble : -1;
    }
}

/* "[64, 1, 1]", as the report prints depths ("?" for unknown) */
static void triple_text(char *buf, size_t cap, const int64_t d[3])
{
    char e[3][24];
    for (int i = 0; i < 3; i++) {
        if (d[i] < 0)
            snprintf(e[i], sizeof e[i], "?");
        else
            snprintf(e[i], sizeof e[i], "%lld", (long long)d[i]);
    }
    snprintf(buf, cap, "[%s, %s, %s]", e[0], e[1], e[2]);
}

static cJSON *parse_out(const pc_test_output *o)
{
    cJSON *j = cJSON_Parse(o->out);
    ck_assert_msg(j != NULL, "not JSON: %s (stderr: %s)", o->out, o->err);
    return j;
}

/* Every run of the `logs --format=json` document has its row in the report's runs table: its
 * label (source, and the pid when there is one), its observed depths, its DeviceTask count and
 * its largest stitchCount. */
static void assert_runs_drawn(const char *html, cJSON *doc)
{
    cJSON *runs = item(doc, "runs");
    ck_assert_int_gt(cJSON_GetArraySize(runs), 0);
    cJSON *run;
    cJSON_ArrayForEach(run, runs)
    {
        char label[1024], obs[96], row[2048];
        cJSON *pid = item(run, "pid");
        if (cJSON_IsNumber(pid))
            snprintf(label, sizeof label, "%s, pid %d", item(run, "source")->valuestring, pid->valueint);
        else
            snprintf(label, sizeof label, "%s", item(run, "source")->valuestring);
        int64_t o[3];
        json_triple(item(run, "observed"), o);
        triple_text(obs, sizeof obs, o);
        snprintf(row, sizeof row, "<tr><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%d</td>"
                                  "<td class=\"n\">%d</td>",
                 label, obs, item(run, "device_tasks")->valueint,
                 item(run, "max_stitch_count")->valueint);
        assert_has(html, row, label);
    }
}

static void assert_order(const char *html, const char *first, const char *then)
{
    const char *a = strstr(html, first);
    ck_assert_msg(a != NULL, "'%s' not in the report", first);
    ck_assert_msg(strstr(a + strlen(first), then) != NULL, "'%s' does not follow '%s'", then, first);
}

/* ---- poolcheck logs --kernel FILE --report=OUT.html -------------------------------------------- */

START_TEST(logs_report_seed)
{
    /* both forms of the option; the seed logs match the prediction: exit 0 */
    for (int form = 0; form < 2; form++) {
        const char *out = tmp_path(form ? "logs_sep.html" : "logs_eq.html");
        char opt[600];
        snprintf(opt, sizeof opt, "--report=%s", out);
        unlink(out);
        pc_test_output o = form ? pc_test_poolcheck("logs", "--format=json", "--kernel", EXAMPLE_PY,
                                                    "--report", out, SEED_LOGS, NULL)
                                : pc_test_poolcheck("logs", "--format=json", "--kernel", EXAMPLE_PY,
                                                    opt, SEED_LOGS, NULL);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        cJSON *doc = parse_out(&o);
        ck_assert_int_eq(cJSON_GetArraySize(item(doc, "runs")), 2);
        char *html = read_report(out);
        assert_runs_drawn(html, doc);
        assert_has(html, SAMPLE_DEV ", pid 27305</td><td class=\"n\">[64, 1, 1]</td>", "device log");
        assert_has(html, SAMPLE_SIM "</td><td class=\"n\">[64, 1, 1]</td>", "sim log");
        /* the combined observation in the depth table and on the pool panels */
        assert_has(html, "<th class=\"n\">observed</th>", "depth table");
        assert_has(html, "observed (logs) [64, 1, 1]", "workspace bytes");
        assert_has(html, "observed 64", "root_inner panel");
        /* the per-DeviceTask list: task 0 stitched 128 roots and recommends root_inner 64, task 1
         * stitched 1 and recommends 1 */
        assert_order(html, "stitchCount (logs): 128", "stitchCount (logs): 1<");
        assert_order(html, "observed depth (logs): 64", "observed depth (logs): 1<");
        ck_assert_ptr_null(strstr(html, "the observation was cut short"));
        ck_assert_ptr_nonnull(strstr(html, "k_tmp_to_d_emb"));
        free(html);
        cJSON_Delete(doc);
        pc_test_output_free(&o);
        unlink(out);
    }

    /* text output is unchanged by --report, and --kernel-name narrows the prediction only */
    const char *out = tmp_path("logs_named.html");
    pc_test_output o = pc_test_poolcheck("logs", "--kernel", EXAMPLE_PY, "--kernel-name",
                                         "k_tmp_to_d_emb", "--report", out, SAMPLE_DEV, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    ck_assert_ptr_nonnull(strstr(o.out, "root_inner                64        64  match"));
    char *html = read_report(out);
    assert_has(html, SAMPLE_DEV ", pid 27305</td><td class=\"n\">[64, 1, 1]</td><td class=\"n\">2</td>"
                                "<td class=\"n\">128</td>",
               "named kernel");
    free(html);
    pc_test_output_free(&o);
    unlink(out);
}
END_TEST

START_TEST(logs_report_fixtures)
{
    /* two processes in one file, under-predicted: exit 1, and the report is still written with a
     * row per pid and pid 200's task (128 roots, recommends [128, 3, 2]) among the markers */
    const char *out = tmp_path("two_pids.html");
    char opt[600];
    snprintf(opt, sizeof opt, "--report=%s", out);
    pc_test_output o = pc_test_poolcheck("logs", "--format=json", "--kernel", EXAMPLE_PY, opt,
                          FIXTURES "/device_two_pids.log", NULL);
    ck_assert_msg(o.status == 1, "status %d: %s", o.status, o.err);
    cJSON *doc = parse_out(&o);
    char *html = read_report(out);
    assert_runs_drawn(html, doc);
    assert_has(html, "device_two_pids.log, pid 100</td><td class=\"n\">[64, 1, 1]</td>", "pid 100");
    assert_has(html, "device_two_pids.log, pid 200</td><td class=\"n\">[128, 2, 2]</td>", "pid 200");
    assert_has(html, "observed depth (logs): 128", "pid 200's task 0");
    assert_has(html, "under-predicted", "verdict");
    free(html);
    cJSON_Delete(doc);
    pc_test_output_free(&o);
    unlink(out);

    /* a run cut short by an Alloc Failure is drawn as such */
    o = pc_test_poolcheck("logs", "--format=json", "--kernel", EXAMPLE_PY, opt,
                          FIXTURES "/alloc_failure.device.log", SAMPLE_SIM, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    doc = parse_out(&o);
    html = read_report(out);
    assert_runs_drawn(html, doc);
    assert_order(html, "alloc_failure.device.log, pid 7001</td>",
                 "Alloc Failure: the observation was cut short</span></td></tr>");
    /* only that run: the sim log's row ends without the note */
    assert_has(html, SAMPLE_SIM "</td><td class=\"n\">[64, 1, 1]</td><td class=\"n\">2</td>"
                                "<td class=\"n\">128</td><td></td></tr>",
               "sim row");
    free(html);
    cJSON_Delete(doc);
    pc_test_output_free(&o);
    unlink(out);
}
END_TEST

START_TEST(logs_report_errors)
{
    /* --report without --kernel: a usage error that says so, nothing written */
    const char *out = tmp_path("nokernel.html");
    unlink(out);
    char opt[600];
    snprintf(opt, sizeof opt, "--report=%s", out);
    pc_test_output o = pc_test_poolcheck("logs", opt, SEED_LOGS, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "poolcheck: error: --report needs --kernel FILE"));
    ck_assert_int_ne(access(out, F_OK), 0);
    pc_test_output_free(&o);

    /* a missing or empty value */
    o = pc_test_poolcheck("logs", "--kernel", EXAMPLE_PY, SEED_LOGS, "--report", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "'--report' needs a FILE"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", EXAMPLE_PY, "--report=", SEED_LOGS, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "'--report' needs a FILE"));
    pc_test_output_free(&o);

    /* an unwritable path, both forms: the message with strerror, exit 2 (the comparison is still
     * printed) */
    o = pc_test_poolcheck("logs", "--kernel", EXAMPLE_PY, "--report=" UNWRITABLE, SEED_LOGS, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "poolcheck: error: cannot write '" UNWRITABLE
                                        "': No such file or directory"));
    ck_assert_ptr_nonnull(strstr(o.out, "match"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", EXAMPLE_PY, "--report", UNWRITABLE, SEED_LOGS, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "cannot write '" UNWRITABLE "': No such file or directory"));
    pc_test_output_free(&o);

    o = pc_test_poolcheck("logs", "--help", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "--report=FILE.html"));
    pc_test_output_free(&o);
}
END_TEST

/* ---- poolcheck plan FILE --budget-kb N --report=OUT.html --------------------------------------- */

/* The plans of `plan --format=json`, by kernel name. */
typedef struct plan_json {
    char kernel[128];
    bool fits;
    int64_t depths[3], bytes, budget_bytes;
} plan_json;

static int plans_of(const pc_test_output *o, plan_json *out, int cap)
{
    cJSON *doc = parse_out(o);
    int n = 0;
    cJSON *p;
    cJSON_ArrayForEach(p, item(doc, "plans"))
    {
        ck_assert_int_lt(n, cap);
        snprintf(out[n].kernel, sizeof out[n].kernel, "%s", item(p, "kernel")->valuestring);
        out[n].fits = cJSON_IsTrue(item(p, "fits"));
        json_triple(item(p, "depths"), out[n].depths);
        out[n].bytes = (int64_t)item(p, "bytes")->valuedouble;
        out[n].budget_bytes = (int64_t)item(p, "budget_bytes")->valuedouble;
        n++;
    }
    cJSON_Delete(doc);
    return n;
}

/* The part of the report about one kernel: from its heading to the next kernel's. */
static char *kernel_section(const char *html, const char *kernel)
{
    char head[256];
    snprintf(head, sizeof head, "<h3>kernel <code>%s</code></h3>", kernel);
    const char *a = strstr(html, head);
    ck_assert_msg(a != NULL, "no section for kernel %s", kernel);
    const char *b = strstr(a + strlen(head), "<h3>kernel <code>");
    size_t n = b ? (size_t)(b - a) : strlen(a);
    char *s = malloc(n + 1);
    memcpy(s, a, n);
    s[n] = 0;
    return s;
}

/* The plan of one kernel is drawn in its section: the workspace row with the plan's depths and
 * bytes, the per-pool "plan N" lines, the plan column, the budget line. */
static void assert_plan_drawn(const char *html, const plan_json *p, const char *budget_label)
{
    char *sec = kernel_section(html, p->kernel);
    char d[96], want[256];
    triple_text(d, sizeof d, p->depths);
    snprintf(want, sizeof want, "plan %s: %lld B", d, (long long)p->bytes);
    assert_has(sec, want, p->kernel);
    for (int i = 0; i < 3; i++) {
        snprintf(want, sizeof want, "plantxt\">plan %lld<", (long long)p->depths[i]);
        assert_has(sec, want, p->kernel);
    }
    assert_has(sec, "<th class=\"n\">plan</th>", p->kernel);
    assert_has(sec, budget_label, p->kernel);
    free(sec);
}

START_TEST(plan_report_seed)
{
    for (int form = 0; form < 2; form++) {
        const char *out = tmp_path(form ? "plan_sep.html" : "plan_eq.html");
        char opt[600];
        snprintf(opt, sizeof opt, "--report=%s", out);
        unlink(out);
        pc_test_output o = form ? pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "48",
                                                    "--format=json", "--report", out, NULL)
                                : pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "48",
                                                    "--format=json", opt, NULL);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        plan_json p[2];
        ck_assert_int_eq(plans_of(&o, p, 2), 1);
        ck_assert(p[0].fits);
        ck_assert_int_eq(p[0].budget_bytes, 48 * 1024);
        ck_assert_int_le(p[0].bytes, 48 * 1024);
        char *html = read_report(out);
        assert_plan_drawn(html, &p[0], "budget = 48 KiB");
        free(html);
        pc_test_output_free(&o);
        unlink(out);
    }

    /* a budget below the minimum (exit 1): the report still draws the required depths at the
     * minimum bytes, over the budget line */
    const char *out = tmp_path("plan_small.html");
    pc_test_output o = pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "1", "--format=json",
                                         "--report", out, NULL);
    ck_assert_msg(o.status == 1, "status %d: %s", o.status, o.err);
    plan_json p[2];
    ck_assert_int_eq(plans_of(&o, p, 2), 1);
    ck_assert(!p[0].fits);
    char *html = read_report(out);
    assert_plan_drawn(html, &p[0], "budget = 1 KiB");
    free(html);
    pc_test_output_free(&o);
    unlink(out);

    /* planned from the seed logs: the prices are the logs', the page draws that plan */
    o = pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "64", "--logs", SAMPLE_SIM,
                          "--format=json", "--report", out, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    ck_assert_int_eq(plans_of(&o, p, 2), 1);
    html = read_report(out);
    assert_plan_drawn(html, &p[0], "budget = 64 KiB");
    free(html);
    pc_test_output_free(&o);
    unlink(out);
}
END_TEST

/* Two kernels in one file (the example and a copy with L = 32): one entry per kernel, each drawn
 * in its own kernel's section; --kernel-name plans (and draws) one. */
START_TEST(plan_report_two_kernels)
{
    size_t len;
    char *err = NULL;
    char *src = pc_read_file(EXAMPLE_PY, &len, &err);
    ck_assert_msg(src != NULL, "%s", err ? err : EXAMPLE_PY);
    const char *jit = strstr(src, "@pypto.frontend.jit");
    ck_assert_ptr_nonnull(jit);
    pc_sb b = {0};
    pc_sb_append(&b, src);
    pc_sb_append(&b, "\n\nL_SMALL = 32\n\n\n");
    for (const char *q = jit; *q;) {
        if (strncmp(q, "def k_tmp_to_d_emb", 18) == 0) {
            pc_sb_append(&b, "def k_small");
            q += 18;
        } else if (strncmp(q, "L_STATIC", 8) == 0) {
            pc_sb_append(&b, "L_SMALL");
            q += 8;
        } else {
            pc_sb_putc(&b, *q++);
        }
    }
    const char *py = tmp_path("two.py");
    FILE *f = fopen(py, "w");
    ck_assert_ptr_nonnull(f);
    fputs(b.data, f);
    fclose(f);
    pc_sb_free(&b);
    free(src);

    const char *out = tmp_path("plan_two.html");
    pc_test_output o = pc_test_poolcheck("plan", py, "--budget-kb", "48", "--format=json",
                                         "--report", out, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    plan_json p[4];
    ck_assert_int_eq(plans_of(&o, p, 4), 2);
    ck_assert_str_eq(p[0].kernel, "k_tmp_to_d_emb");
    ck_assert_str_eq(p[1].kernel, "k_small");
    /* different plans, so a report that drew the first entry for both would be caught */
    ck_assert(memcmp(p[0].depths, p[1].depths, sizeof p[0].depths) != 0);
    char *html = read_report(out);
    assert_plan_drawn(html, &p[0], "budget = 48 KiB");
    assert_plan_drawn(html, &p[1], "budget = 48 KiB");
    char d[96], other[128];
    triple_text(d, sizeof d, p[1].depths);
    snprintf(other, sizeof other, "plan %s", d);
    char *sec = kernel_section(html, "k_tmp_to_d_emb");
    ck_assert_ptr_null(strstr(sec, other));
    free(sec);
    free(html);
    pc_test_output_free(&o);

    o = pc_test_poolcheck("plan", py, "--budget-kb", "48", "--kernel-name", "k_small",
                          "--format=json", "--report", out, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    ck_assert_int_eq(plans_of(&o, p, 4), 1);
    html = read_report(out);
    assert_plan_drawn(html, &p[0], "budget = 48 KiB");
    sec = kernel_section(html, "k_tmp_to_d_emb"); /* drawn, without a plan */
    ck_assert_ptr_null(strstr(sec, "plan ["));
    ck_assert_ptr_null(strstr(sec, "<th class=\"n\">plan</th>"));
    free(sec);
    free(html);
    pc_test_output_free(&o);
    unlink(out);
    unlink(py);
}
END_TEST

START_TEST(plan_report_errors)
{
    pc_test_output o = pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "48",
                                         "--report=" UNWRITABLE, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "poolcheck: error: cannot write '" UNWRITABLE
                                        "': No such file or directory"));
    ck_assert_ptr_nonnull(strstr(o.out, "plan ")); /* the plan itself is still printed */
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "48", "--report", UNWRITABLE, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "cannot write '" UNWRITABLE "': No such file or directory"));
    pc_test_output_free(&o);

    o = pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "48", "--report", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "'--report' needs a value"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", EXAMPLE_PY, "--budget-kb", "48", "--report=", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "'--report' needs a FILE"));
    pc_test_output_free(&o);

    o = pc_test_poolcheck("plan", "--help", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "--report=FILE.html"));
    pc_test_output_free(&o);
}
END_TEST

/* ---- the record of check -j N -------------------------------------------------------------------- */

static pc_file_result *analyse(pc_frontend *fe, const char *path)
{
    pc_check_opts o;
    pc_check_opts_init(&o);
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, path, NULL, 0, &o, &err);
    ck_assert_msg(fr != NULL, "%s: %s", path, err ? err : "?");
    return fr;
}

/* One file through the stream, in format fmt, into a string (caller frees with free). */
static char *stream_one(const pc_rep_file *rec, pc_format fmt, size_t *len)
{
    char *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    char *stats = NULL;
    size_t slen = 0;
    FILE *sf = open_memstream(&stats, &slen);
    pc_report_opts o = {.format = fmt, .summary = true, .verbose = true, .stats = sf, .docs_url = "x/"};
    pc_rep_stream *s = pc_rep_stream_begin(f, &o);
    pc_rep_stream_file(s, rec);
    ck_assert(pc_rep_stream_end(s));
    fclose(sf);
    fputs(stats, f); /* the closing counts are part of what must agree */
    free(stats);
    fclose(f);
    return buf;
}

static const char *const record_inputs[] = {
    PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py",
    PC_SOURCE_DIR "/tests/fixtures/checks/pc006_pool_too_shallow.py",
    PC_SOURCE_DIR "/tests/fixtures/checks/suppress_noqa.py",
    PC_SOURCE_DIR "/tests/bad_inputs/files/py_unterminated_string.py",
    PC_SOURCE_DIR "/tests/bad_inputs/files/no_such_file.py",
};

START_TEST(record_roundtrip)
{
    pc_frontend *fe = pc_frontend_new();
    bool kernels = false, diags = false, lines = false;
    for (size_t i = 0; i < sizeof record_inputs / sizeof *record_inputs; i++) {
        pc_file_result *fr = analyse(fe, record_inputs[i]);
        pc_rep_file *rec = pc_rep_file_new(fr);
        size_t len = 0;
        char *bytes = pc_rep_file_encode(rec, &len);
        char *err = NULL;
        pc_rep_file *back = pc_rep_file_decode(bytes, len, &err);
        ck_assert_msg(back != NULL, "%s: %s", record_inputs[i], err ? err : "?");
        ck_assert_int_eq(pc_rep_file_status(back), pc_rep_file_status(rec));
        size_t len2 = 0;
        char *again = pc_rep_file_encode(back, &len2);
        ck_assert_uint_eq(len, len2);
        ck_assert_msg(memcmp(bytes, again, len) == 0, "%s: the record changes through bytes", record_inputs[i]);
        for (int fmt = PC_FMT_TEXT; fmt <= PC_FMT_GITHUB; fmt++) {
            size_t a_len, b_len;
            char *a = stream_one(rec, (pc_format)fmt, &a_len);
            char *b = stream_one(back, (pc_format)fmt, &b_len);
            ck_assert_msg(a_len == b_len && memcmp(a, b, a_len) == 0, "%s: format %d differs after decoding",
                          record_inputs[i], fmt);
            /* the record writes what pc_rep_write writes for the file itself */
            char *c = NULL;
            size_t c_len = 0;
            FILE *f = open_memstream(&c, &c_len);
            char *stats = NULL;
            size_t slen = 0;
            FILE *sf = open_memstream(&stats, &slen);
            pc_report_opts o = {.format = (pc_format)fmt, .summary = true, .verbose = true, .stats = sf,
                                .docs_url = "x/"};
            pc_rep_write(f, &fr, 1, &o);
            fclose(sf);
            fputs(stats, f);
            free(stats);
            fclose(f);
            ck_assert_msg(c_len == a_len && memcmp(a, c, a_len) == 0, "%s: format %d differs from pc_rep_write",
                          record_inputs[i], fmt);
            kernels |= fmt == PC_FMT_TEXT && strstr(a, "kernel k_tmp") != NULL;
            diags |= fmt == PC_FMT_SARIF && strstr(a, "\"ruleId\"") != NULL;
            lines |= fmt == PC_FMT_TEXT && strstr(a, "^") != NULL;
            free(a);
            free(b);
            free(c);
        }
        pc_mem_free(again);
        pc_rep_file_free(back);
        pc_mem_free(bytes);
        pc_rep_file_free(rec);
        pc_file_result_free(fr);
    }
    ck_assert_msg(kernels && diags && lines, "the inputs must have kernels, check results and source lines");
    pc_frontend_free(fe);
}
END_TEST

START_TEST(record_corrupt)
{
    pc_frontend *fe = pc_frontend_new();
    pc_file_result *fr = analyse(fe, PC_SOURCE_DIR "/tests/fixtures/checks/pc006_pool_too_shallow.py");
    pc_rep_file *rec = pc_rep_file_new(fr);
    size_t len = 0;
    char *bytes = pc_rep_file_encode(rec, &len);
    ck_assert_uint_gt(len, 64);
    /* every cut is refused, with a message naming the byte */
    for (size_t k = 0; k < len; k++) {
        char *cut = pc_mem_alloc(k ? k : 1); /* exactly k bytes: ASan sees a read past them */
        memcpy(cut, bytes, k);
        char *err = NULL;
        pc_rep_file *r = pc_rep_file_decode(cut, k, &err);
        ck_assert_msg(r == NULL, "a record cut at %zu of %zu bytes was accepted", k, len);
        ck_assert_msg(err && strstr(err, "corrupt result stream at byte"), "cut at %zu: no message", k);
        pc_mem_free(err);
        pc_mem_free(cut);
    }
    /* a byte too many */
    char *longer = pc_mem_alloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    char *err = NULL;
    ck_assert_ptr_null(pc_rep_file_decode(longer, len + 1, &err));
    ck_assert_ptr_nonnull(err);
    pc_mem_free(err);
    pc_mem_free(longer);
    /* every byte flipped: refused, or a record every format writes without a crash */
    size_t refused = 0;
    for (size_t k = 0; k < len; k++) {
        char *bad = pc_mem_alloc(len);
        memcpy(bad, bytes, len);
        bad[k] = (char)(bad[k] ^ 0xA5);
        err = NULL;
        pc_rep_file *r = pc_rep_file_decode(bad, len, &err);
        if (!r) {
            ck_assert_ptr_nonnull(err);
            refused++;
        } else {
            for (int fmt = PC_FMT_TEXT; fmt <= PC_FMT_GITHUB; fmt++) {
                size_t n;
                free(stream_one(r, (pc_format)fmt, &n));
            }
            pc_rep_file_free(r);
        }
        pc_mem_free(err);
        pc_mem_free(bad);
    }
    ck_assert_uint_gt(refused, 0);
    /* not a record at all */
    err = NULL;
    ck_assert_ptr_null(pc_rep_file_decode("hello", 5, &err));
    pc_mem_free(err);
    err = NULL;
    ck_assert_ptr_null(pc_rep_file_decode(NULL, 0, &err));
    pc_mem_free(err);
    pc_mem_free(bytes);
    pc_rep_file_free(rec);
    pc_file_result_free(fr);
    pc_frontend_free(fe);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("report_cli");
    TCase *tc = tcase_create("report_cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, logs_report_seed);
    tcase_add_test(tc, logs_report_fixtures);
    tcase_add_test(tc, logs_report_errors);
    tcase_add_test(tc, plan_report_seed);
    tcase_add_test(tc, plan_report_two_kernels);
    tcase_add_test(tc, plan_report_errors);
    tcase_add_test(tc, record_roundtrip);
    tcase_add_test(tc, record_corrupt);
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
