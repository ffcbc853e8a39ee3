/* check_bind.c - the one NAME=VALUE binding parser (poolcheck/bind.h) and its three
 * callers: the CLI's --bind, the launcher's --bind= and the LSP's "bind" setting.  Before, the
 * CLI split at the last '=', the launcher and the LSP at the first; the launcher took 2^63 and
 * beyond silently clamped to INT64_MAX and " 5" with a blank; each worded its error its own way. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/test_run.h"
#include "poolcheck/bind.h"
#include "support/support.h"

START_TEST(values_decimal_within_int64)
{
    static const struct { const char *text; int64_t want; } good[] = {
        {"0", 0}, {"7", 7}, {"064", 64}, {"-1", -1}, {"1000", 1000},
        {"9223372036854775807", INT64_MAX}, {"-9223372036854775808", INT64_MIN},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        int64_t v = 12345;
        ck_assert_msg(pc_cfg_bind_value(good[i].text, &v), "'%s' refused", good[i].text);
        ck_assert_msg(v == good[i].want, "'%s' read as %lld", good[i].text, (long long)v);
    }
    static const char *bad[] = {"", "-", "+5", " 5", "5 ", "0x10", "1.5", "1e3", "abc", "12a",
                                "9223372036854775808", "-9223372036854775809",
                                "99999999999999999999", "--1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t v = 12345;
        ck_assert_msg(!pc_cfg_bind_value(bad[i], &v), "'%s' accepted", bad[i]);
        ck_assert_int_eq(v, 12345);
    }
}
END_TEST

/* text is refused with the message want, which is the caller's to free */
static void refused(pc_arena *a, const char *text, const char *want)
{
    pc_binding b;
    char *err = NULL;
    ck_assert_msg(!pc_cfg_bind_parse(a, text, &b, &err), "'%s' accepted", text);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, want);
    pc_mem_free(err);
}

START_TEST(split_at_first_equals_one_wording)
{
    pc_arena *a = pc_arena_new();
    char *err = NULL;
    pc_binding b;
    ck_assert(pc_cfg_bind_parse(a, "x.shape[0]=1000", &b, &err));
    ck_assert_ptr_null(err); /* success leaves *err alone */
    ck_assert_str_eq(b.name, "x.shape[0]");
    ck_assert_int_eq(b.value, 1000);

    /* the first '=' splits: "a=b=3" is name 'a', value 'b=3', not an integer */
    refused(a, "a=b=3", "bind 'a=b=3': 'b=3' is not an integer (decimal digits, within int64)");
    refused(a, "n", "bind expects NAME=VALUE, got 'n'");
    refused(a, "=3", "bind expects NAME=VALUE, got '=3'");
    refused(a, "n=", "bind expects NAME=VALUE, got 'n='");
    refused(a, "n=99999999999999999999", "bind 'n=99999999999999999999': '99999999999999999999' is not an "
                                         "integer (decimal digits, within int64)");
    ck_assert(!pc_cfg_bind_parse_pair(a, "n", 1, NULL, &b, &err));
    ck_assert_str_eq(err, "bind expects NAME=VALUE, got 'n'");
    pc_mem_free(err);
    err = NULL;
    ck_assert(pc_cfg_bind_parse_pair(a, "nn", 1, "-4", &b, &err));
    ck_assert_ptr_null(err);
    ck_assert_str_eq(b.name, "n");
    ck_assert_int_eq(b.value, -4);
    /* no room limit (there was a 512-byte buffer): a long name comes back whole */
    char name[2000];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = 0;
    ck_assert(!pc_cfg_bind_parse(a, name, &b, &err));
    ck_assert_uint_eq(strlen(err), strlen("bind expects NAME=VALUE, got ''") + sizeof name - 1);
    pc_mem_free(err);
    ck_assert(!pc_cfg_bind_parse(a, "n", &b, NULL)); /* err NULL: no message wanted */
    pc_arena_free(a);
}
END_TEST

/* The CLI and the launcher say the parser's words (with their "--"). */
START_TEST(cli_and_launcher_same_wording)
{
    const char *k = PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py";
    static const struct { const char *arg; const char *want; } cases[] = {
        {"n=9223372036854775808",
         "--bind 'n=9223372036854775808': '9223372036854775808' is not an integer (decimal digits, within int64)"},
        {"n= 5", "--bind 'n= 5': ' 5' is not an integer"},
        {"n", "--bind expects NAME=VALUE, got 'n'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pc_test_output o = pc_test_poolcheck("check", "--bind", cases[i].arg, k, NULL);
        ck_assert_msg(o.status == 2, "cli --bind %s: status %d", cases[i].arg, o.status);
        ck_assert_msg(strstr(o.err, cases[i].want), "cli --bind %s: %s", cases[i].arg, o.err);
        pc_test_output_free(&o);

        char opt[128];
        snprintf(opt, sizeof opt, "--bind=%s", cases[i].arg);
        char *argv[] = {PC_BINARY_DIR "/bin/poolcheck-cc", opt, "true", "-c", (char *)k, NULL};
        o = pc_test_run(argv, NULL);
        ck_assert_msg(o.status == 2, "launcher %s: status %d", opt, o.status);
        ck_assert_msg(strstr(o.err, cases[i].want), "launcher %s: %s", opt, o.err);
        pc_test_output_free(&o);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bind");
    TCase *tc = tcase_create("bind");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, values_decimal_within_int64);
    tcase_add_test(tc, split_at_first_equals_one_wording);
    tcase_add_test(tc, cli_and_launcher_same_wording);
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
