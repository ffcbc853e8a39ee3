/* check_cli_settings.c - `poolcheck check --show-settings` (what a file would be checked with, and
 * where each setting came from, without analysing) and `check --kernel-name` (with the "did you
 * mean" of a name no kernel has, in `logs` and `plan` too). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers/test_run.h"

#define KERNEL(DECORATOR, NAME, LOOP)                                                                  \
    DECORATOR "\n"                                                                                     \
    "def " NAME "(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n" \
    "    for i in pypto.loop(0, 4, 1, name=\"" LOOP "\"):\n"                                           \
    "        y[:] = pypto.add(x, x)\n"

/* kb's own runtime option is invalid: a PC002 error that belongs to kb alone */
static const char two_kernels[] =
    "import pypto\n\n\n" KERNEL("@pypto.frontend.jit", "ka", "la") "\n\n"
    KERNEL("@pypto.frontend.jit(runtime_options={\"stitch_function_num_per_pool\": [1, 2]})", "kb", "lb");

typedef struct fixture {
    char *dir, *py, *proj;
} fixture;

static fixture setup(const char *project)
{
    fixture f;
    f.dir = pc_test_tmpdir("pcclis");
    f.py = pc_test_path(f.dir, "two.py");
    f.proj = pc_test_path(f.dir, ".poolcheck.json");
    pc_test_write_file(f.py, two_kernels);
    if (project)
        pc_test_write_file(f.proj, project);
    return f;
}

static void teardown(fixture *f)
{
    unlink(f->py);
    unlink(f->proj);
    rmdir(f->dir);
    free(f->py);
    free(f->proj);
    free(f->dir);
}

static bool has(const char *text, const char *what) { return text && strstr(text, what) != NULL; }

/* ---- --kernel-name ------------------------------------------------------------------------------ */

START_TEST(kernel_name_selects)
{
    fixture f = setup(NULL);
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", f.py, NULL);
    ck_assert_int_eq(o.status, 1);
    ck_assert_msg(has(o.out, "kernel ka (") && has(o.out, "kernel kb (") && has(o.out, "[PC002]"), "%s", o.out);
    pc_test_output_free(&o);
    /* only ka: kb's summary and its option's PC002 are gone, and so is the exit status they gave */
    o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name", "ka", f.py, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(has(o.out, "kernel ka (") && !has(o.out, "kernel kb") && !has(o.out, "[PC002]"), "%s", o.out);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name=kb", "--format=json", f.py, NULL);
    ck_assert_int_eq(o.status, 1);
    ck_assert_msg(has(o.out, "\"kb\"") && !has(o.out, "\"ka\"") && has(o.out, "PC002"), "%s", o.out);
    pc_test_output_free(&o);
    /* repeatable */
    o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name", "kb", "--kernel-name", "ka", f.py, NULL);
    ck_assert_msg(has(o.out, "kernel ka (") && has(o.out, "kernel kb ("), "%s", o.out);
    pc_test_output_free(&o);
    /* a name no file has is an error, not a clean run */
    o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name", "kc", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "--kernel-name: no kernel named 'kc' in the 1 file checked"), "%s", o.err);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--no-config-lookup", f.py, "--kernel-name", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "option '--kernel-name' needs a kernel name"), "%s", o.err);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--help", NULL);
    ck_assert_msg(has(o.out, "--kernel-name NAME") && has(o.out, "--show-settings"), "%s", o.out);
    pc_test_output_free(&o);
    teardown(&f);
}
END_TEST

/* A --kernel-name no kernel has names the nearest one there is, as the other "did you mean"
 * messages do (unknown options, commands, checks), in check, logs --kernel and plan alike; a name
 * nothing is near gets the plain error. */
START_TEST(kernel_name_did_you_mean)
{
    fixture f = setup(NULL);
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name", "kbb", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "--kernel-name: no kernel named 'kbb' in the 1 file checked; did you mean 'kb'?\n"),
                  "%s", o.err);
    pc_test_output_free(&o);
    /* one suggestion per name asked, each once */
    o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name", "kbb", "--kernel-name", "kaa",
                          "--kernel-name", "kbbb", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "no kernel named 'kbb', 'kaa' or 'kbbb' in the 1 file checked; did you mean 'kb' or 'ka'?\n"),
                  "%s", o.err);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--no-config-lookup", "--kernel-name", "zzzz", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "no kernel named 'zzzz' in the 1 file checked\n") && !has(o.err, "did you mean"), "%s",
                  o.err);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--no-config-lookup", "--kernel", f.py, "--kernel-name", "kbb", f.dir, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "no kernel named 'kbb' in '") && has(o.err, "'; did you mean 'kb'? (it has 'ka', 'kb')\n"),
                  "%s", o.err);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("plan", "--no-config-lookup", f.py, "--budget-kb", "64", "--kernel-name", "kbb", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "no kernel named 'kbb' in '") && has(o.err, "'; did you mean 'kb'? (it has 'ka', 'kb')\n"),
                  "%s", o.err);
    pc_test_output_free(&o);
    teardown(&f);
}
END_TEST

/* ---- --show-settings ------------------------------------------------------------------------------ */

/* .poolcheck.json "extend" (ruff's extend, clang-tidy's InheritParentConfig): the file builds on
 * the one it names; what it does not give is that file's, its runtime options come after that
 * file's (a later option wins); a cycle and a missing file are located errors. */
START_TEST(project_extend)
{
    fixture f = setup("{\"extend\": \"base.json\", \"runtime\": {\"stitch_function_max_num\": 32}}");
    char *base = pc_test_path(f.dir, "base.json");
    pc_test_write_file(base, "{\"bind\": {\"m\": 8}, \"checks\": \"PC*,-PC009\",\n"
                             " \"runtime\": {\"stitch_function_max_num\": 64, \"device_sched_parallelism\": 2}}");
    pc_test_output o = pc_test_poolcheck("check", "--show-settings", f.py, NULL);
    ck_assert_int_eq(o.status, 0);
    char want[1024];
    snprintf(want, sizeof want, "  checks                 PC*,-PC009  (%s)\n", f.proj);
    ck_assert_msg(has(o.out, want), "%s", o.out);
    snprintf(want, sizeof want, "  m = 8  (%s)\n", base);
    ck_assert_msg(has(o.out, want), "%s", o.out); /* an inherited binding names the file it is in */
    snprintf(want, sizeof want, "  stitch_function_max_num        32  (%s:1:37)\n", f.proj);
    ck_assert_msg(has(o.out, want), "%s", o.out); /* this file's option wins over base.json's 64 */
    snprintf(want, sizeof want, "  device_sched_parallelism       2  (%s:2:45)\n", base);
    ck_assert_msg(has(o.out, want), "%s", o.out);
    pc_test_output_free(&o);
    /* a cycle: base.json extends the project file */
    pc_test_write_file(base, "{\"extend\": \".poolcheck.json\"}");
    o = pc_test_poolcheck("check", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, "`extend` makes a cycle"), "%s", o.err);
    pc_test_output_free(&o);
    unlink(base);
    o = pc_test_poolcheck("check", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    snprintf(want, sizeof want, "%s:1:12: `extend`: cannot read", f.proj);
    ck_assert_msg(has(o.err, want), "%s", o.err);
    pc_test_output_free(&o);
    free(base);
    teardown(&f);
}
END_TEST

START_TEST(show_settings_sources)
{
    fixture f = setup("{\"bind\": {\"m\": 8, \"n\": 2}, \"checks\": \"PC*,-PC009\", \"assemble_headroom\": 2,\n"
                      " \"runtime\": {\"stitch_function_max_num\": 64}}");
    char *cfg = pc_test_path(f.dir, "tile_fwk_config.json");
    pc_test_write_file(cfg, "{\"runtime\": {\"device_sched_parallelism\": 2}}");
    pc_test_output o = pc_test_poolcheck("check", "--show-settings", "--config", cfg, "--bind", "n=4", "--set",
                                         "stitch_function_num_per_pool=64,2,1", "--inner-policy=all", f.py, NULL);
    ck_assert_int_eq(o.status, 0);
    char want[4096];
    const char *lines[] = {
        "settings for %s\n",
        "  project file           %s  (the nearest .poolcheck.json)\n",
        "  config file            %s  (--config)\n",
        "  checks                 PC*,-PC009  (%s)\n",
        "  warnings as errors     none  (default)\n",
        "  inner policy           all  (--inner-policy)\n",
        "  assemble headroom      2  (%s)\n",
        "  language               python  (the file name's extension)\n",
        /* the command line overrides .poolcheck.json (docs/model.md 8.1): --bind first */
        "bindings: 1 set (the depths are the element-wise maximum over the sets)\n"
        "  n = 4  (--bind)\n  m = 8  (%s)\n",
        "  n = 2  (%s): not used, the binding above wins\n",
        "runtime options from outside the source: (in the order they apply; later wins)\n"
        "  device_sched_parallelism = 2  (%s:1:14)\n",
        "  stitch_function_max_num = 64  (%s:2:14)\n  stitch_function_num_per_pool = [64, 2, 1]  (--set)\n",
        "runtime configuration, before the options in the source:\n"
        "  stitch_function_num_per_pool   [64, 2, 1]  (--set)\n"
        "  stitch_function_max_num        64  (%s:2:14)\n"
        "  max_workspace_kb               0  (default)\n"
        "  device_sched_parallelism       2  (%s:1:14)\n",
    };
    const char *args[] = {f.py, f.proj, cfg, f.proj, "", "", f.proj, "", f.proj, f.proj, cfg, f.proj, ""};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        /* the last line names two files */
        if (i + 1 == sizeof lines / sizeof *lines)
            snprintf(want, sizeof want, lines[i], f.proj, cfg);
        else
            snprintf(want, sizeof want, lines[i], args[i]);
        ck_assert_msg(has(o.out, want), "no\n%s\nin\n%s", want, o.out);
    }
    /* nothing was analysed: no diagnostics, no kernel summary */
    ck_assert_msg(!has(o.out, "kernel ka") && !has(o.out, "[PC"), "%s", o.out);
    pc_test_output_free(&o);

    /* a source that cannot be parsed is not read */
    pc_test_write_file(f.py, "def (\n");
    o = pc_test_poolcheck("check", "--show-settings", f.py, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(has(o.out, "  m = 8  (") && has(o.err, "") && !has(o.err, "error"), "%s%s", o.out, o.err);
    pc_test_output_free(&o);
    /* a broken project file is the error it is for check */
    pc_test_write_file(f.proj, "{\"bind\": {\"m\": 1.5}}");
    o = pc_test_poolcheck("check", "--show-settings", f.py, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(has(o.err, ".poolcheck.json:1:16: `bind.m` must be an integer, found 1.5"), "%s", o.err);
    pc_test_output_free(&o);
    unlink(cfg);
    free(cfg);
    teardown(&f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli_settings");
    TCase *t = tcase_create("check");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, kernel_name_selects);
    tcase_add_test(t, kernel_name_did_you_mean);
    tcase_add_test(t, show_settings_sources);
    tcase_add_test(t, project_extend);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
