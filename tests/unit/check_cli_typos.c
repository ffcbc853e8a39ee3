/* check_cli_typos.c - what the command line does with a typo and with no evidence:
 * an unknown runtime option key from --set or .poolcheck.json is PC003 (exit 1) with the key
 * meant; an unknown command-line option names the option meant (exit 2); `logs --kernel` that
 * compared nothing exits 3. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers/test_run.h"

#define SEED_PY PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"
#define SEED_CPP PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp"
#define SEED_LOGS PC_SOURCE_DIR "/examples/logs"

static char *copy_seed(const char *dir)
{
    char *dst = pc_test_path(dir, "k_tmp_to_d_emb.py");
    FILE *in = fopen(SEED_PY, "r"), *out = fopen(dst, "w");
    ck_assert(in && out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    return dst;
}

/* the issue's --set: PC003 with the key meant, exit 1, and the option does not apply (default mode) */
START_TEST(set_unknown_key)
{
    pc_test_output o = pc_test_poolcheck("check", "--no-summary", "--set", "stitch_funtion_num_per_pool=64,2,1",
                                         SEED_PY, NULL);
    ck_assert_msg(o.status == 1, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_nonnull(strstr(o.out, "error: unknown runtime option 'stitch_funtion_num_per_pool'; did you mean "
                                        "'stitch_function_num_per_pool'? (set by --set) [PC003]"));
    ck_assert_ptr_nonnull(strstr(o.out, "runs with the default pool depths [128, 128, 128]"));
    pc_test_output_free(&o);
    /* the same in C++, and with JSON output (no location: line 0) */
    o = pc_test_poolcheck("check", "--format=json", "--set", "device_sched_parallelsim=2", SEED_CPP, NULL);
    ck_assert_msg(o.status == 1, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_nonnull(strstr(o.out, "unknown runtime option 'device_sched_parallelsim'; did you mean "
                                        "'device_sched_parallelism'? (set by --set)"));
    ck_assert_ptr_nonnull(strstr(o.out, "\"PC003\""));
    pc_test_output_free(&o);
    /* a known key poolcheck does not model is fine */
    o = pc_test_poolcheck("check", "--no-summary", "--set", "run_mode=1", SEED_PY, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.out);
    ck_assert_ptr_null(strstr(o.out, "PC003"));
    pc_test_output_free(&o);
    /* --checks can turn it off like any check */
    o = pc_test_poolcheck("check", "--no-summary", "--checks=-PC003", "--set", "stitch_funtion_num_per_pool=64,2,1",
                          SEED_PY, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.out);
    pc_test_output_free(&o);
}
END_TEST

/* the issue's .poolcheck.json: found by the lookup, located in the file */
START_TEST(project_file_unknown_key)
{
    char *d = pc_test_tmpdir("pctypo");
    char *seed = copy_seed(d);
    char *proj = pc_test_path(d, ".poolcheck.json");
    pc_test_write_file(proj, "{\n  \"runtime\": {\"run_mode\": 1, \"stitch_funtion_num_per_pool\": [64, 2, 1]}\n}\n");
    pc_test_output o = pc_test_poolcheck("check", "--no-summary", seed, NULL);
    ck_assert_msg(o.status == 1, "exit %d: %s", o.status, o.err);
    char want[512];
    snprintf(want, sizeof want, "%s:2:30: error: unknown runtime option 'stitch_funtion_num_per_pool'; did you mean "
             "'stitch_function_num_per_pool'? [PC003]", proj);
    ck_assert_msg(strstr(o.out, want) != NULL, "%s", o.out);
    pc_test_output_free(&o);
    unlink(proj);
    unlink(seed);
    rmdir(d);
    free(proj);
    free(seed);
    free(d);
}
END_TEST

/* an unknown option of every command: the option meant, its value kept, exit 2, nothing on stdout */
START_TEST(unknown_flag_did_you_mean)
{
    static const char *const cases[][4] = {
        {"check", "--chekcs=PC001", SEED_PY, "unknown option '--chekcs=PC001'; did you mean '--checks=PC001'?"},
        {"check", "-checks=PC001", SEED_PY, "unknown option '-checks=PC001'; did you mean '--checks=PC001'?"},
        {"check", "--fromat=json", SEED_PY, "unknown option '--fromat=json'; did you mean '--format=json'?"},
        {"check", "--no-sumary", SEED_PY, "unknown option '--no-sumary'; did you mean '--no-summary'?"},
        {"check", "--sett", SEED_PY, "unknown option '--sett'; did you mean '--set'?"},
        {"check", "--warnings-as-error=*", SEED_PY,
         "unknown option '--warnings-as-error=*'; did you mean '--warnings-as-errors=*'?"},
        {"logs", "--kernal", SEED_PY, "unknown option '--kernal'; did you mean '--kernel'?"},
        {"logs", "--max-line-k=8", SEED_LOGS, "unknown option '--max-line-k=8'; did you mean '--max-line-kb=8'?"},
        {"plan", "--budget-k", "48", "unknown option '--budget-k'; did you mean '--budget-kb'?"},
        {"model", "--lnag=python", SEED_PY, "unknown option '--lnag=python'; did you mean '--lang=python'?"},
        /* the option itself without the '=' it needs */
        {"check", "--emit-config", SEED_PY,
         "option '--emit-config' needs a value (--emit-config=VALUE; see 'poolcheck check --help')"},
        /* nothing near: the help */
        {"check", "--frobnicate", SEED_PY, "unknown option '--frobnicate' (see 'poolcheck check --help')"},
        {"logs", "-x", SEED_LOGS, "unknown option '-x' (see 'poolcheck logs --help')"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pc_test_output o = pc_test_poolcheck(cases[i][0], cases[i][1], cases[i][2], NULL);
        char want[256];
        snprintf(want, sizeof want, "poolcheck: error: %s\n", cases[i][3]);
        ck_assert_msg(o.status == 2, "%s %s: exit %d", cases[i][0], cases[i][1], o.status);
        ck_assert_str_eq(o.err, want);
        ck_assert_str_eq(o.out, "");
        pc_test_output_free(&o);
    }
}
END_TEST

/* `logs --kernel` over logs that show nothing passes no gate: exit 3, said on
 * stderr; the table is still printed.  Without --kernel nothing was to be compared (exit 0); with
 * real logs the comparison exits 0. */
START_TEST(logs_nothing_compared)
{
    char *d = pc_test_tmpdir("pctypo");
    pc_test_output o = pc_test_poolcheck("logs", "--kernel", SEED_PY, d, NULL);
    ck_assert_msg(o.status == 3, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_nonnull(strstr(o.err, "poolcheck: error: nothing compared: the logs hold no observed depth for any "
                                        "pool (exit status 3)\n"));
    ck_assert_ptr_nonnull(strstr(o.out, "unknown"));
    pc_test_output_free(&o);
    /* a log file with no workspace lines (INFO logging off) is the same */
    char *log = pc_test_path(d, "run.log");
    pc_test_write_file(log, "[ERROR] something else entirely\n");
    o = pc_test_poolcheck("logs", "--format=json", "--kernel", SEED_PY, log, NULL);
    ck_assert_msg(o.status == 3, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_nonnull(strstr(o.err, "nothing compared"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", d, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_null(strstr(o.err, "nothing compared"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, SEED_LOGS, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_null(strstr(o.err, "nothing compared"));
    pc_test_output_free(&o);
    /* the status is in the help */
    o = pc_test_poolcheck("logs", "--help", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "Exit status:"));
    ck_assert_ptr_nonnull(strstr(o.out, "3 with --kernel, nothing was compared"));
    pc_test_output_free(&o);
    unlink(log);
    rmdir(d);
    free(log);
    free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli_typos");
    TCase *tc = tcase_create("cli_typos");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, set_unknown_key);
    tcase_add_test(tc, project_file_unknown_key);
    tcase_add_test(tc, unknown_flag_did_you_mean);
    tcase_add_test(tc, logs_nothing_compared);
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
