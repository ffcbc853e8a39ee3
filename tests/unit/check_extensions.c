/* check_extensions.c - the one list of source extensions: what the frontend dispatch
 * reads, the directory walk of `poolcheck check DIR` finds and the help lists, entry by entry of
 * pc_frontend_source_exts.  Before the list was one, the walk skipped .c, .hh and .hxx files the
 * frontend read when named. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers/test_run.h"
#include "poolcheck/frontend.h"

START_TEST(lang_of_follows_the_table)
{
    size_t n = 0;
    const pc_source_ext *exts = pc_frontend_source_exts(&n);
    ck_assert_uint_ge(n, 10);
    int py = 0, units = 0, headers = 0;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "dir.d/kernel%s", exts[i].ext);
        ck_assert_msg(pc_frontend_lang_of(path) == exts[i].lang, "%s: language not the table's", path);
        ck_assert_ptr_eq(pc_frontend_source_ext(path), &exts[i]);
        py += exts[i].lang == PC_LANG_PYTHON;
        units += exts[i].lang == PC_LANG_CPP && !exts[i].header;
        headers += exts[i].header;
        ck_assert_msg(!exts[i].header || exts[i].lang == PC_LANG_CPP, "%s: a header is C++", exts[i].ext);
    }
    ck_assert_int_eq(py, 1);
    ck_assert_int_ge(units, 1);
    ck_assert_int_ge(headers, 1);
    /* what poolcheck reads by name is what the list says, nothing more */
    const char *none[] = {"k.pyi", "k.PY", "k.txt", "k", "dir.cpp/k", "k.cpp~", "k.hpp.orig"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        ck_assert_msg(pc_frontend_lang_of(none[i]) == PC_LANG_UNKNOWN, "%s: read as a source", none[i]);
        ck_assert_ptr_null(pc_frontend_source_ext(none[i]));
    }
    ck_assert_int_eq(pc_frontend_lang_of("k.hh"), PC_LANG_CPP);
    ck_assert(pc_frontend_source_ext("k.hxx")->header);
    ck_assert(!pc_frontend_source_ext("k.c")->header);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
}

START_TEST(directory_walk_finds_every_extension)
{
    char dir[] = PC_BINARY_DIR "/ext_walk_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    size_t n = 0;
    const pc_source_ext *exts = pc_frontend_source_exts(&n);
    char path[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/nokernel%s", dir, exts[i].ext);
        write_file(path, exts[i].lang == PC_LANG_PYTHON ? "x = 1\n" : "int x = 1;\n");
    }
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    write_file(path, "not a source\n");

    pc_test_output o = pc_test_poolcheck("check", "--verbose", dir, NULL);
    ck_assert_msg(o.status == 0, "status %d: %s%s", o.status, o.out, o.err);
    char *all = malloc(strlen(o.out) + strlen(o.err) + 1);
    strcpy(all, o.out);
    strcat(all, o.err);
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "no kernel in %s/nokernel%s\n", dir, exts[i].ext);
        ck_assert_msg(strstr(all, path) != NULL, "the walk skipped nokernel%s:\n%s", exts[i].ext, all);
    }
    ck_assert_msg(strstr(all, "notes.txt") == NULL, "the walk read notes.txt:\n%s", all);
    free(all);
    pc_test_output_free(&o);

    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/nokernel%s", dir, exts[i].ext);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(help_lists_every_extension)
{
    pc_test_output o = pc_test_poolcheck("check", "--help", NULL);
    ck_assert_int_eq(o.status, 0);
    size_t n = 0;
    const pc_source_ext *exts = pc_frontend_source_exts(&n);
    for (size_t i = 0; i < n; i++) {
        /* the extension as a word of the help: after a blank or a line break, before a blank,
         * ')' or a line break (".c" inside ".cpp" does not count) */
        const char *word = exts[i].ext, *at = o.out;
        size_t len = strlen(word);
        while ((at = strstr(at, word)) != NULL) {
            bool starts = at > o.out && (at[-1] == ' ' || at[-1] == '\n');
            bool ends = at[len] == ' ' || at[len] == ')' || at[len] == '\n';
            if (starts && ends)
                break;
            at++;
        }
        ck_assert_msg(at != NULL, "check --help does not list %s", exts[i].ext);
    }
    pc_test_output_free(&o);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("extensions");
    TCase *tc = tcase_create("extensions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lang_of_follows_the_table);
    tcase_add_test(tc, directory_walk_finds_every_extension);
    tcase_add_test(tc, help_lists_every_extension);
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
