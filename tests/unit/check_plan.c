/* check_plan.c - the budget planner (docs/model.md 7, seed article scenario 2) on pc_result structs
 * built by hand with known units, every number worked out by hand below.
 *
 * Bytes (docs/model.md 7): AlignUp(U0*d0 + U2*d2 + (2E + 2A + A*d1)*S, 32768) * P.
 * The seed example (docs/model.md 10): U0 = 512, U2 = 4096, S = 4096, E = 1, A = 1, P = 1:
 *   fixed (boundary slots) = (2 + 2) * 4096 = 16384, one assemble depth = A*S = 4096, so
 *   raw(d) = 512*d0 + 4096*d1 + 4096*d2 + 16384
 *   [64,1,1]: 32768 + 4096 + 4096 + 16384 = 57344 -> 65536
 *   [64,2,1]: 61440 -> 65536        [128,128,128]: 1130496 -> 1146880
 *   [1,1,1]:  25088 -> 32768 (the smallest runnable workspace, 32 KB)
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/analysis.h"
#include "helpers/test_run.h"
#include "poolcheck/logs.h"
#include "poolcheck/report.h"
#include "poolcheck/support.h"

#define SEED_PY PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"
#define SAMPLES PC_SOURCE_DIR "/examples/logs"

static void assert_triple(const int64_t got[3], int64_t a, int64_t b, int64_t c, const char *what)
{
    ck_assert_msg(got[0] == a && got[1] == b && got[2] == c,
                  "%s: got [%lld, %lld, %lld], want [%lld, %lld, %lld]", what, (long long)got[0],
                  (long long)got[1], (long long)got[2], (long long)a, (long long)b, (long long)c);
}

static void set3(int64_t *d, int64_t a, int64_t b, int64_t c)
{
    d[0] = a;
    d[1] = b;
    d[2] = c;
}

/* A result with the given units; predicted/required/suggested as given, needed from required. */
static pc_result result(int64_t u0, int64_t u2, int64_t s, int e, int a, int64_t p,
                        const int64_t pred[3], const int64_t req[3], const int64_t sug[3])
{
    pc_result r;
    memset(&r, 0, sizeof r);
    r.unit_inner = u0;
    r.unit_excl = u2;
    r.slot_size = s;
    r.n_exclusive = e;
    r.n_assemble = a;
    r.parallelism = p;
    for (int i = 0; i < 3; i++) {
        r.predicted[i] = pred[i];
        r.bounds[i] = pred[i] >= 0 ? pred[i] : 128;
        r.required[i] = req[i];
        r.suggested[i] = sug[i];
        r.needed[i] = req[i] > 0;
    }
    r.k = 128;
    return r;
}

static pc_result seed(int64_t parallelism)
{
    static const int64_t pred[3] = {64, 1, 1}, req[3] = {1, 1, 1}, sug[3] = {64, 2, 1};
    return result(512, 4096, 4096, 1, 1, parallelism, pred, req, sug);
}

START_TEST(seed_bytes)
{
    pc_result r = seed(1);
    int64_t d[3];
    set3(d, 64, 1, 1);
    ck_assert_int_eq(pc_workspace_bytes(&r, d, 1), 65536);
    set3(d, 128, 128, 128);
    ck_assert_int_eq(pc_workspace_bytes(&r, d, 1), 1146880);
    pc_plan_costs c;
    ck_assert(pc_an_plan_costs(&r, &c));
    assert_triple(c.step, 512, 4096, 4096, "steps");
    ck_assert_int_eq(c.fixed, 16384);
    /* the planner's prices agree with the analysis' bytes everywhere */
    for (int64_t a = 1; a <= 1024; a += 97)
        for (int64_t b = 1; b <= 9; b += 4)
            for (int64_t e = 1; e <= 300; e += 37) {
                set3(d, a, b, e);
                ck_assert_int_eq(pc_plan_costs_bytes(&c, d), pc_workspace_bytes(&r, d, 1));
            }
}
END_TEST

START_TEST(fits_with_room)
{
    pc_result r = seed(1);
    pc_plan p;
    /* 64 KB: [64,2,1] costs 65536 = the budget, nothing lost.  More root_inner steps while
     * 512*d0 + 28672 <= 65536: d0 <= 72, so 8 more. */
    pc_an_plan(&r, 64 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.start, 64, 2, 1, "start");
    assert_triple(p.depths, 64, 2, 1, "64 KB");
    ck_assert_int_eq(p.bytes, 65536);
    ck_assert_int_eq(p.spare_bytes, 0);
    assert_triple(p.lost, 0, 0, 0, "lost");
    ck_assert_int_eq(p.extra_root_steps, 8);
    ck_assert_int_eq(p.min_bytes, 32768);
    ck_assert_int_eq(p.min_budget_kb, 32);
    ck_assert(!p.headroom_dropped);

    /* 1024 KB: spare 1048576 - 65536 = 983040; 512*d0 + 28672 <= 1048576 holds up to d0 = 1992,
     * but a depth is at most 1024: 960 more steps. */
    pc_an_plan(&r, 1024 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 64, 2, 1, "1 MB");
    ck_assert_int_eq(p.spare_bytes, 983040);
    ck_assert_int_eq(p.extra_root_steps, 960);
}
END_TEST

START_TEST(lowers_root_inner)
{
    pc_result r = seed(1);
    pc_plan p;
    /* 48 KB = 49152: the workspace comes in 32 KiB blocks, so at most one block (32768) fits:
     * exclusive is at its floor (1), the assemble headroom goes last, so root_inner goes down
     * while 512*d0 + 28672 > 32768: d0 = 8.  Lost 64 - 8 = 56; 16384 bytes stay unused. */
    pc_an_plan(&r, 48 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 8, 2, 1, "48 KB");
    ck_assert_int_eq(p.bytes, 32768);
    ck_assert_int_eq(p.spare_bytes, 16384);
    assert_triple(p.lost, 56, 0, 0, "lost");
    ck_assert_int_eq(p.extra_root_steps, 0);
    ck_assert(!p.headroom_dropped);

    /* A bigger dx: U0 = 4096.  [64,2,1] = 262144 + 8192 + 4096 + 16384 = 290816 -> 294912.
     * 200 KB = 204800 holds six blocks (196608): 4096*d0 + 28672 <= 196608 -> d0 <= 41. */
    static const int64_t pred[3] = {64, 1, 1}, req[3] = {1, 1, 1}, sug[3] = {64, 2, 1};
    pc_result big = result(4096, 4096, 4096, 1, 1, 1, pred, req, sug);
    pc_an_plan(&big, 200 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 41, 2, 1, "200 KB");
    ck_assert_int_eq(p.bytes, 196608);
    ck_assert_int_eq(p.spare_bytes, 8192);
    assert_triple(p.lost, 23, 0, 0, "lost");

    /* 32 KB: 512*d0 + 28672 <= 32768 -> d0 <= 8; the headroom slot still fits. */
    pc_an_plan(&r, 32 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 8, 2, 1, "32 KB");
    ck_assert_int_eq(p.bytes, 32768);
    assert_triple(p.lost, 56, 0, 0, "lost");
}
END_TEST

START_TEST(too_small)
{
    pc_result r = seed(1);
    pc_plan p;
    /* 31 KB = 31744 < 32768 at [1,1,1]: PC010, smallest runnable budget 32 KB. */
    pc_an_plan(&r, 31 * 1024, NULL, &p);
    ck_assert(!p.fits);
    assert_triple(p.depths, 1, 1, 1, "required");
    ck_assert_int_eq(p.bytes, 32768);
    ck_assert_int_eq(p.min_bytes, 32768);
    ck_assert_int_eq(p.min_budget_kb, 32);
    assert_triple(p.lost, 63, 0, 0, "lost");
}
END_TEST

START_TEST(headroom_last_and_give_back)
{
    /* U0 = 4096, U2 = 1024, S = 16384, E = 1, A = 1: fixed = 4 * 16384 = 65536, one assemble depth
     * = 16384.  predicted [8,1,4], suggested [8,2,4].  raw = 4096*d0 + 16384*d1 + 1024*d2 + 65536.
     * Budget 100 KB = 102400 (so raw must be <= 98304, three 32 KiB blocks):
     *   start [8,2,4]: 135168 -> 163840, too much.
     *   root_inner (4096 per instance) down to 1: 106496 -> 131072, still too much;
     *   exclusive (1024) down to 1: 103424 -> 131072; then the headroom: [1,1,1] 87040 -> 98304.
     *   Give back: the headroom (+16384 -> 103424) does not fit; exclusive back to 4: 90112;
     *   root_inner to 3: 98304; 4 would be 102400 -> 131072.  Plan [3,1,4], 98304 bytes. */
    static const int64_t pred[3] = {8, 1, 4}, req[3] = {1, 1, 1}, sug[3] = {8, 2, 4};
    pc_result r = result(4096, 1024, 16384, 1, 1, 1, pred, req, sug);
    pc_plan p;
    pc_an_plan(&r, 100 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 3, 1, 4, "100 KB");
    ck_assert_int_eq(p.bytes, 98304);
    ck_assert_int_eq(p.spare_bytes, 4096);
    assert_triple(p.lost, 5, 0, 0, "lost");
    ck_assert(p.headroom_dropped);
    ck_assert_int_eq(p.extra_root_steps, 0);
    ck_assert_int_eq(p.min_bytes, 98304);
}
END_TEST

START_TEST(tie_goes_to_root_inner)
{
    /* U0 = U2 = 4096, no assemble pool (A = 0), E = 1, S = 4096: fixed = 2 * 4096 = 8192.
     * predicted = suggested = [4,0,4], required [1,0,1].  Budget 32 KB: raw <= 32768.
     * Both steps free 4096 per instance: root_inner first.  [3,0,4] = 36864, [2,0,4] = 32768. */
    static const int64_t pred[3] = {4, 0, 4}, req[3] = {1, 0, 1};
    pc_result r = result(4096, 4096, 4096, 1, 0, 1, pred, req, pred);
    pc_plan p;
    pc_an_plan(&r, 32 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 2, 0, 4, "tie");
    assert_triple(p.lost, 2, 0, 0, "lost");
    ck_assert(!p.headroom_dropped);

    /* The bigger step goes first: U2 = 8192 > U0 = 4096, S = 8192, fixed = 2 * 8192 = 16384.
     * predicted [8,0,8]: 32768 + 65536 + 16384 = 114688 -> 131072.  Budget 96 KB (98304):
     * exclusive 8 -> 7 gives 106496 -> 131072, 7 -> 6 gives 98304: fits; root_inner keeps 8. */
    static const int64_t pred2[3] = {8, 0, 8};
    r = result(4096, 8192, 8192, 1, 0, 1, pred2, req, pred2);
    pc_an_plan(&r, 96 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 8, 0, 6, "bigger step first");
    ck_assert_int_eq(p.bytes, 98304);
    assert_triple(p.lost, 0, 0, 2, "lost");
}
END_TEST

START_TEST(parallelism)
{
    pc_result r = seed(2);
    pc_plan p;
    /* P = 2 doubles every rounded size: [64,2,1] = 2 * 65536 = 131072 fits 128 KB exactly. */
    pc_an_plan(&r, 128 * 1024, NULL, &p);
    ck_assert(p.fits);
    ck_assert_int_eq(p.bytes, 131072);
    /* 100 KB: AlignUp(raw) * 2 <= 102400 -> AlignUp(raw) <= 32768 -> d0 <= 8. */
    pc_an_plan(&r, 100 * 1024, NULL, &p);
    ck_assert(p.fits);
    assert_triple(p.depths, 8, 2, 1, "P=2");
    ck_assert_int_eq(p.bytes, 65536);
    ck_assert_int_eq(p.min_bytes, 65536);
}
END_TEST

START_TEST(from_logs)
{
    /* Scenario 2: a run under max_workspace_kb observed [32,1,1]; its logs priced the pools as
     * the analysis does (rawPerParallelBytes {512, 4096, 4096}, 4 boundary slots of 4096).
     * Start [32,2,1] (headroom added): 16384 + 8192 + 4096 + 16384 = 45056 -> 65536 within 64 KB.
     * The budget has room, so root_inner goes up to the suggested 64 (61440 -> 65536), and then
     * 512*d0 + 28672 <= 65536 allows 8 more steps (up to 72). */
    pc_result r = seed(1);
    pc_plan_costs c = {.step = {512, 4096, 4096}, .fixed = 16384, .parallelism = 1};
    int64_t start[3] = {32, 2, 1};
    pc_plan p;
    pc_an_plan_ex(&r, &c, 64 * 1024, start, &p);
    ck_assert(p.fits);
    assert_triple(p.start, 32, 2, 1, "start");
    assert_triple(p.depths, 64, 2, 1, "logs");
    ck_assert_int_eq(p.bytes, 65536);
    ck_assert_int_eq(p.extra_root_steps, 8);
    assert_triple(p.lost, 0, 0, 0, "lost");

    /* The logs may price differently from the analysis: a larger root_inner unit in the run
     * (1024): 1024*d0 + 28672 <= 65536 -> d0 <= 36, so root_inner rises from 32 to 36 only,
     * 28 short of the prediction. */
    c.step[0] = 1024;
    pc_an_plan_ex(&r, &c, 64 * 1024, start, &p);
    assert_triple(p.depths, 36, 2, 1, "bigger unit");
    assert_triple(p.lost, 28, 0, 0, "lost");
    ck_assert_int_eq(p.extra_root_steps, 0);

    /* A start above the suggested depths (the run needed more than predicted) is kept when it
     * fits: [96,3,2] = 49152 + 12288 + 8192 + 16384 = 86016 -> 98304 within 96 KB. */
    c.step[0] = 512;
    int64_t above[3] = {96, 3, 2};
    pc_an_plan_ex(&r, &c, 96 * 1024, above, &p);
    assert_triple(p.depths, 96, 3, 2, "above");
    ck_assert_int_eq(p.bytes, 98304);
    /* 512*d0 + 12288 + 8192 + 16384 <= 98304 -> d0 <= 120: 24 more. */
    ck_assert_int_eq(p.extra_root_steps, 24);
}
END_TEST

START_TEST(start_clamped_and_unknown)
{
    pc_result r = seed(1);
    pc_plan p;
    int64_t zero[3] = {0, 0, 0};
    pc_an_plan(&r, 1024 * 1024, zero, &p);
    assert_triple(p.start, 1, 1, 1, "never below 1 for a needed pool");
    int64_t huge[3] = {5000, 1, 1};
    pc_an_plan(&r, 1024 * 1024, huge, &p);
    ck_assert_int_eq(p.start[0], 1024);

    r.unit_inner = -1; /* an unbound symbol */
    pc_an_plan(&r, 64 * 1024, NULL, &p);
    ck_assert(p.bytes_unknown);
    ck_assert(!p.fits);
}
END_TEST

/* ---- the command: the seed kernel through the Python frontend ---------------------------------- */

static void json_triple(cJSON *a, int64_t x, int64_t y, int64_t z, const char *what)
{
    ck_assert_msg(cJSON_IsArray(a) && cJSON_GetArraySize(a) == 3, "%s: not a triple", what);
    int64_t got[3];
    for (int i = 0; i < 3; i++)
        got[i] = (int64_t)cJSON_GetArrayItem(a, i)->valuedouble;
    assert_triple(got, x, y, z, what);
}

static cJSON *first_plan(const pc_test_output *o)
{
    cJSON *j = cJSON_Parse(o->out);
    ck_assert_msg(j != NULL, "not JSON: %s (stderr: %s)", o->out, o->err);
    cJSON *plans = cJSON_GetObjectItemCaseSensitive(j, "plans");
    ck_assert_int_eq(cJSON_GetArraySize(plans), 1);
    return j;
}

START_TEST(cli_plan)
{
    /* 48 KB: [8, 2, 1] (see lowers_root_inner) */
    pc_test_output o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "48", "--format=json", NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    cJSON *j = first_plan(&o);
    cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "plans"), 0);
    json_triple(cJSON_GetObjectItemCaseSensitive(p, "depths"), 8, 2, 1, "depths");
    json_triple(cJSON_GetObjectItemCaseSensitive(p, "lost"), 56, 0, 0, "lost");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(p, "bytes")->valueint, 32768);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "fits")));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "priced_with")->valuestring, "analysis");
    cJSON_Delete(j);
    pc_test_output_free(&o);

    /* room to spare, text */
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "64", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "plan       [64, 2, 1]  65536 bytes, 0 bytes spare"));
    ck_assert_ptr_nonnull(strstr(o.out, "room for 8 more root_inner steps (root_inner up to 72)"));
    pc_test_output_free(&o);

    /* --assemble-headroom 0 starts from the seed article's exact triple */
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "64", "--assemble-headroom", "0",
                          "--emit-config=python", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "set_runtime_options(stitch_function_num_per_pool=[64, 1, 1])"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "48", "--emit-config=cpp", NULL);
    ck_assert_ptr_nonnull(strstr(o.out, "std::vector<int64_t>{8, 2, 1}"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "48", "--emit-config=json", NULL);
    j = cJSON_Parse(o.out);
    ck_assert_ptr_nonnull(j);
    json_triple(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "runtime"),
                                                 "stitch_function_num_per_pool"),
                8, 2, 1, "emitted json");
    cJSON_Delete(j);
    pc_test_output_free(&o);

    /* too small: PC010, exit 1, the smallest runnable budget named */
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "31", NULL);
    ck_assert_int_eq(o.status, 1);
    ck_assert_ptr_nonnull(strstr(o.err, "minimum runnable workspace=32KB"));
    ck_assert_ptr_nonnull(strstr(o.err, "--budget-kb 32"));
    ck_assert_ptr_nonnull(strstr(o.err, "PC010"));
    pc_test_output_free(&o);

    /* from the logs: observed [64,1,1] + headroom, priced with rawPerParallelBytes */
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "64", "--logs", SAMPLES,
                          "--format=json", NULL);
    ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
    j = first_plan(&o);
    p = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "plans"), 0);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "priced_with")->valuestring, "logs");
    json_triple(cJSON_GetObjectItemCaseSensitive(p, "start"), 64, 2, 1, "start from logs");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(p, "extra_root_steps")->valueint, 8);
    cJSON_Delete(j);
    pc_test_output_free(&o);

    /* usage errors */
    o = pc_test_poolcheck("plan", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "0", NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "64", "--emit-config=yaml", NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "64", "--logs", "/nonexistent", NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", SEED_PY, "--budget-kb", "64", "--kernel-name", "nope", NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
}
END_TEST

/* The report module writes plans (report/plan.c): called as a library, with plans made by hand,
 * the text, JSON and emitted forms are exactly these bytes (the CLI prints the same). */
static char *plan_output(int form, const pc_rep_plan *p, size_t n, int64_t budget_kb)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    if (form == 0)
        for (size_t i = 0; i < n; i++)
            pc_rep_plan_text(out, &p[i], budget_kb, NULL);
    else if (form == 1)
        pc_rep_plan_json(out, p, n, budget_kb);
    else
        pc_rep_plan_emit(out, p, form == 2 ? "python" : "cpp", budget_kb);
    fclose(out);
    char *copy = pc_mem_strdup(buf); /* the library's way of handing text over */
    free(buf);                       /* open_memstream's buffer is libc's */
    return copy;
}

START_TEST(report_plan_api)
{
    pc_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.loc.file = "f.py";
    k.loc.line = 3;
    pc_rep_plan fits;
    memset(&fits, 0, sizeof fits);
    fits.kernel = &k;
    fits.plan.fits = true;
    set3(fits.plan.start, 64, 2, 1);
    set3(fits.plan.depths, 8, 2, 1);
    set3(fits.plan.predicted, 64, 1, 1);
    set3(fits.plan.lost, 56, 0, 0);
    fits.plan.bytes = 32768;
    fits.plan.budget_bytes = 49152;
    fits.plan.spare_bytes = 16384;
    fits.plan.min_bytes = 32768;
    fits.plan.min_budget_kb = 32;
    fits.plan.headroom_dropped = true;
    set3(fits.costs.step, 512, 4096, 4096);
    fits.costs.fixed = 16384;
    fits.costs.parallelism = 1;
    pc_rep_plan small = fits;
    small.plan.fits = false;
    set3(small.plan.depths, 1, 1, 1);
    small.plan.headroom_dropped = false;

    pc_rep_plan both[2] = {fits, small};
    char *text = plan_output(0, both, 2, 48);
    ck_assert_str_eq(text,
                     "k (f.py:3): budget 48 KB = 49152 bytes\n"
                     "  start      [64, 2, 1]  (suggested: predicted + assemble headroom)\n"
                     "  plan       [8, 2, 1]  32768 bytes, 16384 bytes spare\n"
                     "  lost against the predicted depths [64, 1, 1]:\n"
                     "    root_inner 64 -> 8: 56 instances per DeviceTask serialise (they wait for "
                     "root_inner memory of earlier ones)\n"
                     "  warning: the plan has no assemble headroom: newer runtimes may stop with "
                     "`Root cannot fit in an empty DeviceTask` (PC011)\n"
                     "k (f.py:3): budget 48 KB = 49152 bytes\n"
                     "  start      [64, 2, 1]  (suggested: predicted + assemble headroom)\n"
                     "  required   [1, 1, 1]  32768 bytes: does not fit\n");
    pc_mem_free(text);

    char *json = plan_output(1, &fits, 1, 48);
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(j, "version")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(j, "budget_kb")->valueint, 48);
    cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "plans"), 0);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "kernel")->valuestring, "k");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "file")->valuestring, "f.py");
    json_triple(cJSON_GetObjectItemCaseSensitive(p, "depths"), 8, 2, 1, "api depths");
    json_triple(cJSON_GetObjectItemCaseSensitive(p, "lost"), 56, 0, 0, "api lost");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "headroom_dropped")));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "priced_with")->valuestring, "analysis");
    json_triple(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p, "costs"), "step_bytes"),
                512, 4096, 4096, "api step_bytes");
    cJSON_Delete(j);
    pc_mem_free(json);

    char *py = plan_output(2, &fits, 1, 48);
    ck_assert_str_eq(py, "# poolcheck plan for k: workspace 32768 bytes within a budget of 48 KB\n"
                         "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[8, 2, 1])\n");
    pc_mem_free(py);
    char *cpp = plan_output(3, &fits, 1, 48);
    ck_assert_str_eq(cpp, "// poolcheck plan for k: workspace 32768 bytes within a budget of 48 KB\n"
                          "config::SetRuntimeOption(\"stitch_function_num_per_pool\", "
                          "std::vector<int64_t>{8, 2, 1});\n");
    pc_mem_free(cpp);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, seed_bytes);
    tcase_add_test(tc, fits_with_room);
    tcase_add_test(tc, lowers_root_inner);
    tcase_add_test(tc, too_small);
    tcase_add_test(tc, headroom_last_and_give_back);
    tcase_add_test(tc, tie_goes_to_root_inner);
    tcase_add_test(tc, parallelism);
    tcase_add_test(tc, from_logs);
    tcase_add_test(tc, start_clamped_and_unknown);
    tcase_add_test(tc, cli_plan);
    tcase_add_test(tc, report_plan_api);
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
