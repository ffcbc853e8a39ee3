/* check_cli_bindings.c - bindings on the command line end to end: the warning for bindings that
 * name no symbol (PC018), what it says of each binding's source, and its cost with very many. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers/test_run.h"

#define SEED_PY PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"

static const char kernel_py[] = "import pypto\n"
                                "\n"
                                "\n"
                                "@pypto.frontend.jit\n"
                                "def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n"
                                "    for i in pypto.loop(0, n, 1, name=\"l\"):\n"
                                "        y[:] = pypto.add(x, x)\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Every binding that names nothing is named, not only the first (the sink keeps one warning per
 * place, so the others were dropped without a word). */
START_TEST(unused_bindings_all_named)
{
    pc_test_output o = pc_test_poolcheck("check", "--no-summary", "--no-config-lookup", "--bind", "aa=1", "--bind",
                                         "bb=2", "--bind", "L_STATIC=64", "--bind", "cc=3", "--bind", "aa=4", SEED_PY,
                                         NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "warning: --bind aa: no symbol 'aa' in kernel 'k_tmp_to_d_emb': the binding has no "
                                "effect; 2 more bindings name no symbol either: 'bb', 'cc' [PC018]") != NULL,
                  "%s", o.out);
    pc_test_output_free(&o);
}
END_TEST

/* A binding names where it was given: one from .poolcheck.json or a --shapes file is no --bind
 * the user could look for on the command line (it said "--bind nn" for all three). */
START_TEST(unused_binding_names_its_source)
{
    char *dir = pc_test_tmpdir("pcclib"), *k = pc_test_path(dir, "k.py"), *proj = pc_test_path(dir, ".poolcheck.json"),
         *shapes = pc_test_path(dir, "shapes.json");
    pc_test_write_file(k, kernel_py);
    pc_test_write_file(proj, "{\"bind\": {\"nn\": 3}}");
    pc_test_write_file(shapes, "[{\"nq\": 3}]");
    char want[4096];
    pc_test_output o = pc_test_poolcheck("check", "--no-summary", "--bind", "n=4", k, NULL);
    ck_assert_int_eq(o.status, 0);
    snprintf(want, sizeof want, "warning: 'nn' bound in %s: no symbol 'nn' in kernel 'k'; did you mean 'n'? [PC018]", proj);
    ck_assert_msg(strstr(o.out, want) != NULL, "%s", o.out);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--no-summary", "--shapes", shapes, "--bind", "n=4", k, NULL);
    ck_assert_int_eq(o.status, 0);
    snprintf(want, sizeof want, "warning: 'nq' bound in %s (--shapes): no symbol 'nq' in kernel 'k'; did you mean 'n'? [PC018]",
             shapes);
    ck_assert_msg(strstr(o.out, want) != NULL, "%s", o.out);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--no-summary", "--no-config-lookup", "--bind", "nz=4", k, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "warning: --bind nz: no symbol 'nz' in kernel 'k'; did you mean 'n'? [PC018]") != NULL, "%s",
                  o.out);
    pc_test_output_free(&o);
    unlink(k);
    unlink(proj);
    unlink(shapes);
    rmdir(dir);
    free(k);
    free(proj);
    free(shapes);
    free(dir);
}
END_TEST

/* 200,000 bindings: each name is looked up once (sorted, not compared pairwise); 60,000 took 7 s
 * and 200,000 over 60 s. */
/* The command line overrides .poolcheck.json (docs/model.md 8.1): `--bind n=64` over a project
 * `"bind": {"n": 8}` gives 64 instances (it gave 8: the file's binding was searched first). */
START_TEST(command_line_bind_overrides_project)
{
    char *dir = pc_test_tmpdir("pcclib"), *k = pc_test_path(dir, "k.py"), *proj = pc_test_path(dir, ".poolcheck.json");
    pc_test_write_file(k, kernel_py);
    pc_test_write_file(proj, "{\"bind\": {\"n\": 8}}");
    pc_test_output o = pc_test_poolcheck("check", "--format=json", k, NULL);
    ck_assert_msg(strstr(o.out, "\"instances\":\t8,") != NULL, "%s", o.out);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--format=json", "--bind", "n=64", k, NULL);
    ck_assert_msg(strstr(o.out, "\"instances\":\t64,") != NULL, "%s", o.out);
    pc_test_output_free(&o);
    unlink(k);
    unlink(proj);
    rmdir(dir);
    free(k);
    free(proj);
    free(dir);
}
END_TEST

/* --kernel-name narrows what is reported, not what a binding is judged by: n is read by k, so
 * `--kernel-name other` gives no PC018 for it (it said "no symbol 'n' in kernel 'other'"). */
START_TEST(kernel_name_keeps_bindings_used)
{
    char *dir = pc_test_tmpdir("pcclib"), *k = pc_test_path(dir, "k.py");
    char text[2048];
    snprintf(text, sizeof text, "%s\n\n@pypto.frontend.jit\ndef other(x: pypto.Tensor([16, 16], pypto.DT_FP32), "
                                "y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n    y[:] = pypto.add(x, x)\n",
             kernel_py);
    pc_test_write_file(k, text);
    pc_test_output o = pc_test_poolcheck("check", "--no-summary", "--no-config-lookup", "--bind", "n=8",
                                         "--kernel-name", "other", k, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "PC018") == NULL, "%s", o.out);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--no-summary", "--no-config-lookup", "--bind", "nq=8", "--kernel-name", "other", k,
                          NULL);
    ck_assert_msg(strstr(o.out, "no symbol 'nq'") != NULL, "%s", o.out); /* the check can fail */
    pc_test_output_free(&o);
    unlink(k);
    rmdir(dir);
    free(k);
    free(dir);
}
END_TEST

START_TEST(many_bindings_linearithmic)
{
    char *dir = pc_test_tmpdir("pcclib"), *shapes = pc_test_path(dir, "shapes.json");
    FILE *f = fopen(shapes, "w");
    ck_assert_ptr_nonnull(f);
    fputs("[{", f);
    for (int i = 0; i < 200000; i++)
        fprintf(f, "%s\"n%d\": %d", i ? ", " : "", i, i);
    fputs("}, {\"n5\": 1, \"L_STATIC\": 64}]", f);
    fclose(f);
    double t0 = now();
    pc_test_output o = pc_test_poolcheck("check", "--no-summary", "--no-config-lookup", "--shapes", shapes, SEED_PY, NULL);
    double took = now() - t0;
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "no symbol 'n0' in kernel 'k_tmp_to_d_emb': the binding has no effect; 199999 more "
                                "bindings name no symbol either: 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', ... "
                                "[PC018]") != NULL,
                  "%s", o.out);
    ck_assert_msg(took < 20.0, "200,000 bindings took %.1f s", took);
    pc_test_output_free(&o);
    unlink(shapes);
    rmdir(dir);
    free(shapes);
    free(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli_bindings");
    TCase *t = tcase_create("unused");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, unused_bindings_all_named);
    tcase_add_test(t, unused_binding_names_its_source);
    tcase_add_test(t, many_bindings_linearithmic);
    tcase_add_test(t, command_line_bind_overrides_project);
    tcase_add_test(t, kernel_name_keeps_bindings_used);
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
