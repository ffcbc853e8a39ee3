/* check_config_keys.c - the option names poolcheck knows (config/keys.c) and the "did you mean"
 * distance shared by PC003's unknown keys and the command line's unknown options and commands. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/config.h"

#define N(a) (sizeof(a) / sizeof *(a))

/* upstream's "runtime" section (tile_fwk_config.json) and the pool triple: each is known, each is
 * its own nearest name, and the list holds nothing else */
START_TEST(runtime_keys_are_upstreams)
{
    static const char *const upstream[] = {"device_sched_mode", "run_mode", "stitch_function_max_num",
                                           "max_workspace_kb", "valid_shape_optimize", "ready_on_host_tensors",
                                           "device_sched_parallelism", "launch_sched_aicpu_num", "launch_early_mode",
                                           "stitch_function_num_per_pool"};
    const char *const *keys = NULL;
    size_t n = pc_cfg_runtime_keys(&keys);
    ck_assert_uint_eq(n, N(upstream));
    ck_assert_uint_eq(pc_cfg_runtime_keys(NULL), n);
    for (size_t i = 0; i < N(upstream); i++) {
        ck_assert_msg(pc_cfg_runtime_key_known(upstream[i]), "%s", upstream[i]);
        ck_assert_str_eq(pc_cfg_runtime_key_nearest(upstream[i]), upstream[i]);
        bool listed = false;
        for (size_t k = 0; k < n; k++)
            listed |= strcmp(keys[k], upstream[i]) == 0;
        ck_assert_msg(listed, "%s", upstream[i]);
        ck_assert_ptr_null(pc_cfg_key_home_of(upstream[i]));
    }
    /* the C++ frontend's spelling of CFG_RUN_MODE / CFG_VALID_SHAPE_OPTIMIZE when it cannot read them */
    ck_assert(pc_cfg_runtime_key_known("cfg_run_mode"));
    ck_assert(pc_cfg_runtime_key_known("cfg_valid_shape_optimize"));
    ck_assert(!pc_cfg_runtime_key_known(NULL));
    ck_assert(!pc_cfg_runtime_key_known(""));
    ck_assert(!pc_cfg_runtime_key_known("stitch_funtion_num_per_pool"));
    ck_assert(!pc_cfg_runtime_key_known("Stitch_function_num_per_pool")); /* keys are case-sensitive */
    ck_assert(!pc_cfg_runtime_key_known("runtime.stitch_function_max_num"));
    ck_assert(!pc_cfg_runtime_key_known("pg_lower_bound"));
}
END_TEST

/* the misspellings users write get the key they meant */
START_TEST(typos_get_the_key_meant)
{
    static const char *const typo[][2] = {
        {"stitch_funtion_num_per_pool", "stitch_function_num_per_pool"},  /* a letter dropped */
        {"stitch_function_num_per_poool", "stitch_function_num_per_pool"}, /* one added */
        {"stitch_functoin_max_num", "stitch_function_max_num"},           /* two swapped: one edit */
        {"stich_function_max_num", "stitch_function_max_num"},
        {"stitch_function_max_nun", "stitch_function_max_num"},
        {"stitch_function_num_per_pools", "stitch_function_num_per_pool"},
        {"max_workspace_kib", "max_workspace_kb"},
        {"max_workspace", "max_workspace_kb"},
        {"device_sched_parallelsim", "device_sched_parallelism"},
        {"device_sched_mod", "device_sched_mode"},
        {"runmode", "run_mode"},
        {"Stitch_Function_Max_Num", "stitch_function_max_num"},
    };
    for (size_t i = 0; i < N(typo); i++) {
        const char *near = pc_cfg_runtime_key_nearest(typo[i][0]);
        ck_assert_msg(near && strcmp(near, typo[i][1]) == 0, "%s: got %s, want %s", typo[i][0], near ? near : "NULL",
                      typo[i][1]);
    }
    /* nothing near: no guess (upstream's own test of an unknown key uses "not_exist") */
    static const char *const far[] = {"not_exist", "x", "pool", "stitch", "num_per_pool_depths", "workspace"};
    for (size_t i = 0; i < N(far); i++)
        ck_assert_msg(pc_cfg_runtime_key_nearest(far[i]) == NULL, "%s: got %s", far[i],
                      pc_cfg_runtime_key_nearest(far[i]));
}
END_TEST

/* the other sections' names: a pass option written as a runtime one is misplaced, not misspelled */
START_TEST(other_sections)
{
    static const char *const key_section[][2] = {
        {"pg_lower_bound", "pass"},          {"cube_nbuffer_setting", "pass"}, {"ooo_preschedule_method", "pass"},
        {"compile_timeout", "host"},         {"compile_stage", "host"},        {"soc_version", "codegen"},
        {"vf_compiler", "codegen"},          {"enable_pass_verify", "verify"}, {"runtime_debug_mode", "debug"},
        {"combine_axis", "operation"},
    };
    for (size_t i = 0; i < N(key_section); i++) {
        const pc_cfg_key_home *h = pc_cfg_key_home_of(key_section[i][0]);
        ck_assert_msg(h != NULL, "%s", key_section[i][0]);
        ck_assert_str_eq(h->section, key_section[i][1]);
        ck_assert(!pc_cfg_runtime_key_known(key_section[i][0]));
        ck_assert_ptr_nonnull(h->python);
        ck_assert_ptr_nonnull(h->cpp);
    }
    ck_assert_str_eq(pc_cfg_key_home_of("pg_lower_bound")->python, "pypto.set_pass_options");
    ck_assert_str_eq(pc_cfg_key_home_of("pg_lower_bound")->cpp, "config::SetPassOption");
    ck_assert_str_eq(pc_cfg_key_home_of("compile_timeout")->cpp, "config::SetHostOption");
    ck_assert_ptr_null(pc_cfg_key_home_of(NULL));
    ck_assert_ptr_null(pc_cfg_key_home_of("not_exist"));
}
END_TEST

/* the distance: Levenshtein plus a swap of neighbours; clang's (len + 2) / 3 bound by default */
START_TEST(nearest_rule)
{
    static const char *const words[] = {"check", "model", "logs", "plan", "checks", "set"};
    ck_assert_str_eq(pc_cfg_nearest("chekc", words, N(words), -1), "check");   /* swap: 1 */
    ck_assert_str_eq(pc_cfg_nearest("chekcs", words, N(words), -1), "checks"); /* swap, not 2 edits */
    ck_assert_str_eq(pc_cfg_nearest("lgos", words, N(words), -1), "logs");
    ck_assert_str_eq(pc_cfg_nearest("checks", words, N(words), -1), "checks"); /* itself */
    ck_assert_str_eq(pc_cfg_nearest("sett", words, N(words), -1), "set");
    /* "mdl" is 2 edits from "model": within an explicit 2, beyond (3 + 2) / 3 = 1 */
    ck_assert_ptr_null(pc_cfg_nearest("mdl", words, N(words), -1));
    ck_assert_str_eq(pc_cfg_nearest("mdl", words, N(words), 2), "model");
    ck_assert_ptr_null(pc_cfg_nearest("mdl", words, N(words), 1));
    /* a tie goes to the earlier candidate */
    static const char *const tie[] = {"abcx", "abcy"};
    ck_assert_str_eq(pc_cfg_nearest("abcz", tie, N(tie), -1), "abcx");
    /* nothing to compare, or nothing close */
    ck_assert_ptr_null(pc_cfg_nearest("", words, N(words), -1));
    ck_assert_ptr_null(pc_cfg_nearest(NULL, words, N(words), -1));
    ck_assert_ptr_null(pc_cfg_nearest("check", NULL, 0, -1));
    ck_assert_ptr_null(pc_cfg_nearest("frobnicate", words, N(words), -1));
    static const char *const holes[] = {NULL, "logs"};
    ck_assert_str_eq(pc_cfg_nearest("log", holes, N(holes), -1), "logs");
    /* a word longer than any key is compared, not read past: no match, no crash */
    char longw[400];
    memset(longw, 'a', sizeof longw - 1);
    longw[sizeof longw - 1] = 0;
    ck_assert_ptr_null(pc_cfg_runtime_key_nearest(longw));
    const char *const longs[] = {longw};
    ck_assert_ptr_null(pc_cfg_nearest("aaaa", longs, 1, -1));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("config_keys");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, runtime_keys_are_upstreams);
    tcase_add_test(tc, typos_get_the_key_meant);
    tcase_add_test(tc, other_sections);
    tcase_add_test(tc, nearest_rule);
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
