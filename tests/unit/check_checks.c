/* check_checks.c - the check table, the diagnostics sink (selection, promotion, suppression, caps)
 * and every check firing and staying silent, on hand-built models and results
 * (lint_fixture.h: the seed example of docs/model.md section 10). */
#include "lint_fixture.h"
#include "checks/checks_int.h" /* the check indices, for the sink test */

#include <check.h>
#include <dirent.h>

/* ---- the table and its docs ------------------------------------------------------------------- */

START_TEST(test_table)
{
    size_t n;
    const pc_check_info *t = pc_chk_table(&n);
    ck_assert_uint_eq(n, PC_CHK_COUNT); /* checks.def's entries, ids PC001.. in order */
    ck_assert_uint_ge(n, 15);
    for (size_t i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "PC%03d", (int)i + 1);
        ck_assert_str_eq(t[i].id, id);
        ck_assert_ptr_nonnull(t[i].name);
        ck_assert(strlen(t[i].summary) > 10 && strlen(t[i].description) > 40 && strlen(t[i].remedy) > 10);
        ck_assert_int_eq(pc_chk_find(t[i].id), (int)i);
        ck_assert_int_eq(pc_chk_find(t[i].name), (int)i);
        char full[96];
        snprintf(full, sizeof full, "poolcheck-%s", t[i].name);
        ck_assert_int_eq(pc_chk_find(full), (int)i);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(t[i].name, t[j].name);
    }
    /* docs/model.md section 9, verbatim */
    ck_assert_str_eq(t[0].name, "zero-depth-pool");
    ck_assert_str_eq(t[5].name, "pool-too-shallow");
    ck_assert_str_eq(t[11].name, "unanalysed-region");
    ck_assert_int_eq(t[0].severity, PC_SEV_ERROR);
    ck_assert_int_eq(t[6].severity, PC_SEV_NOTE);
    ck_assert_int_eq(t[10].severity, PC_SEV_WARNING);
    ck_assert_int_eq(pc_chk_find("pc001"), 0);
    ck_assert_str_eq(t[12].name, "shape-not-inferred");
    ck_assert_str_eq(t[13].name, "unevaluated-loop-bound");
    ck_assert_str_eq(t[14].name, "tile-split-unknown");
    ck_assert_int_eq(t[12].severity, PC_SEV_NOTE);
    ck_assert_int_eq(t[13].severity, PC_SEV_NOTE);
    ck_assert_int_eq(t[14].severity, PC_SEV_NOTE);
    char next[16];
    snprintf(next, sizeof next, "PC%03d", (int)n + 1);
    ck_assert_int_eq(pc_chk_find(next), -1);
    ck_assert_int_eq(pc_chk_find("PC*"), -1);
    ck_assert_int_eq(pc_chk_find(""), -1);
}
END_TEST

static char *read_all(const char *path)
{
    char *err = NULL;
    char *s = pc_read_file(path, NULL, &err);
    pc_mem_free(err);
    return s;
}

/* Every table entry has docs/checks/PCnnn.md (naming its id and name, with failing and fixed
 * examples in both languages), every PC*.md page has a table entry, and index.md is the one
 * generated from the table.  The pages are written by gen_check_docs (`cmake --build BUILD
 * --target regenerate-check-docs`), whose CTest checks_docs compares every page. */
START_TEST(test_docs_match_table)
{
    size_t n;
    const pc_check_info *t = pc_chk_table(&n);
    char path[1024];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/docs/checks/%s.md", PC_SOURCE_DIR, t[i].id);
        char *doc = read_all(path);
        ck_assert_msg(doc != NULL, "missing doc page %s", path);
        char head[128];
        snprintf(head, sizeof head, "# %s: %s", t[i].id, t[i].name);
        ck_assert_msg(strncmp(doc, head, strlen(head)) == 0, "%s must start with '%s'", path, head);
        ck_assert_msg(strstr(doc, "```python") && strstr(doc, "```cpp"), "%s needs Python and C++ examples", path);
        ck_assert_msg(strstr(doc, "## Failing example") && strstr(doc, "## Fixed example"),
                      "%s needs a failing and a fixed example", path);
        pc_mem_free(doc);
    }
    snprintf(path, sizeof path, "%s/docs/checks", PC_SOURCE_DIR);
    DIR *dir = opendir(path);
    ck_assert_ptr_nonnull(dir);
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (strncmp(e->d_name, "PC", 2) != 0)
            continue;
        char id[16] = {0};
        const char *dot = strstr(e->d_name, ".md");
        ck_assert_msg(dot && dot[3] == 0, "unexpected file docs/checks/%s", e->d_name);
        memcpy(id, e->d_name, (size_t)(dot - e->d_name) < 15 ? (size_t)(dot - e->d_name) : 15);
        int c = pc_chk_find(id);
        ck_assert_msg(c >= 0 && strcmp(t[c].id, id) == 0, "docs/checks/%s has no table entry", e->d_name);
    }
    closedir(dir);
    char *want = pc_chk_docs_index();
    snprintf(path, sizeof path, "%s/docs/checks/index.md", PC_SOURCE_DIR);
    char *have = read_all(path);
    ck_assert_msg(have && strcmp(have, want) == 0,
                  "docs/checks/index.md differs from the table: run cmake --build BUILD --target "
                  "regenerate-check-docs");
    pc_mem_free(have);
    pc_mem_free(want);
}
END_TEST

START_TEST(test_list_checks)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pc_chk_list(f);
    fclose(f);
    /* the columns `poolcheck --list-checks` has always printed (the CLI calls pc_chk_list) */
    ck_assert(strstr(buf, "PC001  zero-depth-pool              error    precise mode is on and a "
                          "pool the kernel needs is set to 0\n") == buf);
    ck_assert_ptr_nonnull(strstr(buf, "\nPC010  workspace-budget-too-small   error    max_workspace_kb "));
    ck_assert_ptr_nonnull(strstr(buf, "PC012  unanalysed-region"));
    size_t lines = 0;
    for (const char *p = buf; *p; p++)
        lines += *p == '\n';
    ck_assert_uint_eq(lines, PC_CHK_COUNT);
    free(buf);
}
END_TEST

/* ---- selection and promotion ------------------------------------------------------------------ */

static pc_loc at(const char *file, uint32_t line)
{
    pc_loc l = {file, line, 1, line, 2};
    return l;
}

START_TEST(test_select_globs)
{
    char *err = NULL;
    pc_diag_sink *s = pc_diag_sink_new();
    for (int i = 0; i < 12; i++)
        ck_assert(pc_diag_selected(s, i)); /* default: all */
    ck_assert(pc_diag_set_checks(s, "PC*,-PC009", &err));
    for (int i = 0; i < 12; i++)
        ck_assert(pc_diag_selected(s, i) == (i != 8));
    ck_assert(pc_diag_set_checks(s, "PC001", &err)); /* a positive first glob: only that */
    for (int i = 0; i < 12; i++)
        ck_assert(pc_diag_selected(s, i) == (i == 0));
    ck_assert(pc_diag_set_checks(s, "-pool-too-deep", &err)); /* a negative first glob: all but */
    for (int i = 0; i < 12; i++)
        ck_assert(pc_diag_selected(s, i) == (i != 6));
    ck_assert(pc_diag_set_checks(s, " -*, poolcheck-zero-depth-pool , PC01? ", &err)); /* later wins */
    for (int i = 0; i < 12; i++)
        ck_assert(pc_diag_selected(s, i) == (i == 0 || i >= 9));
    ck_assert(pc_diag_set_checks(s, "PC006,-PC006", &err));
    ck_assert(!pc_diag_selected(s, 5));
    ck_assert(!pc_diag_set_checks(s, "PC*,PC099", &err));
    ck_assert_ptr_nonnull(strstr(err, "PC099"));
    pc_mem_free(err); /* the caller's to free (it outlives the sink) */
    ck_assert(!pc_diag_selected(s, 5)); /* unchanged after an error */
    /* Unselected checks report nothing and count nothing. */
    ck_assert_ptr_null(pc_diag_report(s, 5, at("a.py", 1), NULL, "x"));
    ck_assert_uint_eq(pc_diag_suppressed(s), 0);
    pc_diag_sink_free(s);
}
END_TEST

START_TEST(test_werror)
{
    char *err = NULL;
    pc_diag_sink *s = pc_diag_sink_new();
    ck_assert(pc_diag_set_werror(s, "PC006,assemble-no-headroom,PC007", &err));
    pc_diag *d = pc_diag_report(s, 5, at("a.py", 1), "k", "too shallow %d", 3);
    ck_assert_int_eq(d->severity, PC_SEV_ERROR);
    ck_assert(d->promoted);
    ck_assert_str_eq(d->message, "too shallow 3");
    ck_assert_str_eq(d->kernel, "k");
    d = pc_diag_report(s, 3, at("a.py", 2), NULL, "ignored");   /* PC004 not listed */
    ck_assert_int_eq(d->severity, PC_SEV_WARNING);
    ck_assert(!d->promoted);
    d = pc_diag_report(s, 6, at("a.py", 3), NULL, "deep");      /* a note stays a note */
    ck_assert_int_eq(d->severity, PC_SEV_NOTE);
    d = pc_diag_report(s, 0, at("a.py", 4), NULL, "zero");      /* an error stays unflagged */
    ck_assert_int_eq(d->severity, PC_SEV_ERROR);
    ck_assert(!d->promoted);
    ck_assert_uint_eq(pc_diag_count(s, PC_SEV_ERROR), 2);
    ck_assert(!pc_diag_set_werror(s, "nonsense", &err));
    pc_diag_sink_free(s);
    ck_assert_str_eq(err, "--warnings-as-errors: 'nonsense' matches no check (see --list-checks)");
    pc_mem_free(err);
}
END_TEST

/* ---- suppression ------------------------------------------------------------------------------ */

/* Report check c at line `line` of file f and say whether it was kept. */
static bool kept(pc_diag_sink *s, const char *f, int c, uint32_t line)
{
    return pc_diag_report(s, c, at(f, line), NULL, "m") != NULL;
}

START_TEST(test_suppress_nolint)
{
    const char *src =
        "a = 1  // NOLINT\n"                                         /* 1: bare: all */
        "b = 2  // NOLINT(PC001)\n"                                  /* 2: by id */
        "c = 3  // NOLINT(zero-depth-pool)\n"                        /* 3: by name */
        "d = 4  // NOLINT(bugprone-foo, poolcheck-pool-too-shallow)\n" /* 4: full name in a list */
        "e = 5  // NOLINT(bugprone-foo)\n"                           /* 5: another tool's check */
        "// NOLINTNEXTLINE(PC00*)\n"                                 /* 6 */
        "f = 6\n"                                                    /* 7: next line, glob */
        "g = 7  // NOLINTNEXTLINE\n"                                 /* 8 */
        "h = 8\n"                                                    /* 9: bare next line */
        "i = 9  // XNOLINT NOLINTFOO\n";                             /* 10: not ours */
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag_set_source(s, "k.cpp", src, strlen(src), PC_LANG_CPP);
    ck_assert(!kept(s, "k.cpp", 0, 1));
    ck_assert(!kept(s, "k.cpp", 11, 1));
    ck_assert(!kept(s, "k.cpp", 0, 2));
    ck_assert(kept(s, "k.cpp", 1, 2));
    ck_assert(!kept(s, "k.cpp", 0, 3));
    ck_assert(kept(s, "k.cpp", 5, 3));
    ck_assert(!kept(s, "k.cpp", 5, 4));
    ck_assert(kept(s, "k.cpp", 0, 4));
    ck_assert(kept(s, "k.cpp", 0, 5));
    ck_assert(kept(s, "k.cpp", 0, 6));
    ck_assert(!kept(s, "k.cpp", 3, 7));
    ck_assert(kept(s, "k.cpp", 9, 7)); /* PC010 does not match PC00* */
    ck_assert(kept(s, "k.cpp", 0, 8));
    ck_assert(!kept(s, "k.cpp", 4, 9));
    ck_assert(kept(s, "k.cpp", 0, 10));
    ck_assert(kept(s, "other.cpp", 0, 1)); /* another file */
    ck_assert_uint_eq(pc_diag_suppressed(s), 7);
    /* Frontend messages are never suppressed. */
    ck_assert_ptr_nonnull(pc_diag_message(s, PC_SEV_ERROR, at("k.cpp", 1), "syntax error"));
    pc_diag_sink_free(s);
}
END_TEST

START_TEST(test_suppress_noqa)
{
    const char *src =
        "a = 1  # noqa\n"                                  /* 1: bare */
        "b = 2  # noqa: PC001\n"                           /* 2 */
        "c = 3  # noqa: PC002, zero-depth-pool\n"          /* 3: list, by name */
        "d = 4  # NOQA:PC006 because it is tuned\n"        /* 4: case, no blank, trailing words */
        "e = 5  # noqa: E501\n"                            /* 5: another tool's code */
        "f = 6  #noqa:poolcheck-pool-too-deep\n"           /* 6 */
        "g = 7  # noqa: PC*\n"                             /* 7: glob */
        "h = 8  # noqanot\n"                               /* 8: not a noqa */
        "i = 9 #noqa";                                     /* 9: at the very end, no newline */
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag_set_source(s, "k.py", src, strlen(src), PC_LANG_PYTHON);
    ck_assert(!kept(s, "k.py", 3, 1));
    ck_assert(!kept(s, "k.py", 0, 2));
    ck_assert(kept(s, "k.py", 1, 2));
    ck_assert(!kept(s, "k.py", 0, 3));
    ck_assert(!kept(s, "k.py", 1, 3));
    ck_assert(kept(s, "k.py", 2, 3));
    ck_assert(!kept(s, "k.py", 5, 4));
    ck_assert(kept(s, "k.py", 0, 4));
    ck_assert(kept(s, "k.py", 0, 5));
    ck_assert(!kept(s, "k.py", 6, 6));
    ck_assert(kept(s, "k.py", 5, 6));
    ck_assert(!kept(s, "k.py", 8, 7));
    ck_assert(kept(s, "k.py", 0, 8));
    ck_assert(!kept(s, "k.py", 0, 9));
    ck_assert_uint_eq(pc_diag_suppressed(s), 8);
    pc_diag_sink_free(s);
}
END_TEST

START_TEST(test_suppress_begin_end)
{
    const char *src =
        "// NOLINTBEGIN(PC006)\n"     /* 1 */
        "x\n"                         /* 2 */
        "// NOLINTBEGIN\n"            /* 3 */
        "y\n"                         /* 4 */
        "// NOLINTEND\n"              /* 5 */
        "z\n"                         /* 6 */
        "// NOLINTEND(PC006)\n"       /* 7 */
        "w\n"                         /* 8 */
        "// NOLINTBEGIN(PC001)\n"     /* 9: never closed */
        "v\n";                        /* 10 */
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag_set_source(s, "k.cpp", src, strlen(src), PC_LANG_CPP);
    /* The unmatched NOLINTBEGIN is reported (PC020 unused-suppression) and suppresses nothing. */
    size_t n;
    const pc_diag *d = pc_diag_items(s, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(d[0].id, "PC020");
    ck_assert_uint_eq(d[0].loc.line, 9);
    ck_assert_ptr_nonnull(strstr(d[0].message, "unmatched 'NOLINTBEGIN'"));
    ck_assert(!kept(s, "k.cpp", 5, 2));
    ck_assert(kept(s, "k.cpp", 0, 2));
    ck_assert(!kept(s, "k.cpp", 0, 4));
    ck_assert(!kept(s, "k.cpp", 5, 6));
    ck_assert(kept(s, "k.cpp", 1, 6));
    ck_assert(kept(s, "k.cpp", 5, 8));
    ck_assert(kept(s, "k.cpp", 0, 10));
    pc_diag_sink_free(s);

    const char *stray = "a\n// NOLINTEND(PC001)\n";
    s = pc_diag_sink_new();
    pc_diag_set_source(s, "k.cpp", stray, strlen(stray), PC_LANG_CPP);
    d = pc_diag_items(s, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_nonnull(strstr(d[0].message, "unmatched 'NOLINTEND'"));
    pc_diag_sink_free(s);
}
END_TEST

START_TEST(test_cap_and_notes)
{
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag_set_max(s, 2);
    pc_diag *d = pc_diag_report(s, 0, at("a.py", 1), NULL, "one");
    pc_diag_note(s, d, at("a.py", 5), "note %s", "here");
    pc_diag_fix(s, d, at("a.py", 1), "[1, 1, 1]");
    ck_assert_int_eq(d->nnotes, 1);
    ck_assert_str_eq(d->notes[0].message, "note here");
    ck_assert_int_eq(d->nfixes, 1);
    ck_assert_ptr_nonnull(pc_diag_report(s, 1, at("a.py", 2), NULL, "two"));
    ck_assert_ptr_null(pc_diag_report(s, 2, at("a.py", 3), NULL, "three"));
    ck_assert_uint_eq(pc_diag_capped(s), 1);
    ck_assert_ptr_nonnull(pc_diag_message(s, PC_SEV_WARNING, at("a.py", 4), "frontend")); /* never capped */
    size_t n;
    pc_diag_items(s, &n);
    ck_assert_uint_eq(n, 3);
    /* Notes on a foreign or NULL diagnostic are dropped, not crashes. */
    pc_diag other = {0};
    pc_diag_note(s, &other, at("a.py", 1), "x");
    pc_diag_note(s, NULL, at("a.py", 1), "x");
    pc_diag_fix(s, NULL, at("a.py", 1), "x");
    ck_assert_int_eq(other.nnotes, 0);
    /* Messages stay on one line. */
    pc_diag *m = pc_diag_message(s, PC_SEV_ERROR, at("a.py", 9), "SyntaxError:\n  x = (\r\n\t^");
    ck_assert_str_eq(m->message, "SyntaxError:   x = (   ^");
    pc_diag_sink_free(s);
}
END_TEST

/* A message said again at the same place, with the same severity, is kept once (two kernels
 * inlining one helper reach its statements twice); another text, place or severity is kept. */
START_TEST(test_message_said_once)
{
    pc_diag_sink *s = pc_diag_sink_new();
    ck_assert_ptr_nonnull(pc_diag_message(s, PC_SEV_NOTE, at("h.py", 52), "bytes may be low"));
    ck_assert_ptr_null(pc_diag_message(s, PC_SEV_NOTE, at("h.py", 52), "bytes may be low"));
    ck_assert_ptr_nonnull(pc_diag_message(s, PC_SEV_NOTE, at("h.py", 52), "another note"));
    ck_assert_ptr_null(pc_diag_message(s, PC_SEV_NOTE, at("h.py", 52), "another note"));
    ck_assert_ptr_nonnull(pc_diag_message(s, PC_SEV_WARNING, at("h.py", 52), "bytes may be low"));
    ck_assert_ptr_nonnull(pc_diag_message(s, PC_SEV_NOTE, at("h.py", 53), "bytes may be low"));
    /* a check's diagnostic with that text at that place is not a message: both stay */
    ck_assert_ptr_nonnull(pc_diag_report(s, 0, at("h.py", 52), NULL, "bytes may be low"));
    size_t n;
    pc_diag_items(s, &n);
    ck_assert_uint_eq(n, 5);
    pc_diag_sink_free(s);
}
END_TEST

/* ---- PC001 ------------------------------------------------------------------------------------ */

static const int64_t T_64_0_1[3] = {64, 0, 1};
static const int64_t T_64_1_1[3] = {64, 1, 1};
static const int64_t T_64_2_1[3] = {64, 2, 1};
static const int64_t T_0_0_0[3] = {0, 0, 0};

START_TEST(test_pc001_fires)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[64, 0, 1]", T_64_0_1);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC001"), 1);
    const pc_diag *d = lf_find(&f, "PC001");
    ck_assert_int_eq(d->severity, PC_SEV_ERROR);
    ck_assert_ptr_nonnull(strstr(d->message, "stitch_function_num_per_pool[1] cannot be 0 because the current "
                                             "program requires this workspace pool to construct one root function"));
    ck_assert_ptr_nonnull(strstr(d->message, "'tmp_assemble'"));
    ck_assert_ptr_nonnull(strstr(d->message, "assemble_outcast"));
    ck_assert_ptr_null(strchr(d->message, '\n'));
    ck_assert_str_eq(d->kernel, "k_tmp");
    /* Primary location: the option value on line 3. */
    uint32_t col = (uint32_t)strlen(LF_PY_PREFIX) + 1;
    ck_assert_uint_eq(d->loc.line, 3);
    ck_assert_uint_eq(d->loc.col, col);
    /* Notes: the tensor that needs the pool, and the kernel. */
    bool tensor_note = false, kernel_note = false;
    for (int i = 0; i < d->nnotes; i++) {
        tensor_note |= d->notes[i].loc.line == 8 && strstr(d->notes[i].message, "'tmp_assemble' uses assemble_outcast");
        kernel_note |= d->notes[i].loc.line == 7 && strstr(d->notes[i].message, "kernel 'k_tmp'");
    }
    ck_assert(tensor_note && kernel_note);
    /* Fix: the suggested triple over the value's extent. */
    ck_assert_int_eq(d->nfixes, 1);
    ck_assert_str_eq(d->fixes[0].replacement, "[64, 2, 1]");
    ck_assert_uint_eq(d->fixes[0].range.line, 3);
    ck_assert_uint_eq(d->fixes[0].range.col, col);
    ck_assert_uint_eq(d->fixes[0].range.end_col, col + 10);
    lf_free(&f);
}
END_TEST

START_TEST(test_pc001_every_pool_and_tuple)
{
    static const int64_t zeros_but_one[3] = {0, 0, 1};
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "(0, 0, 1)", zeros_but_one);
    lf_lint(&f);
    /* root_inner and assemble_outcast: one finding at the value (one per check and location),
     * the second pool a note of it */
    ck_assert_uint_eq(lf_count(&f, "PC001"), 1);
    const pc_diag *d = lf_find(&f, "PC001");
    ck_assert_ptr_nonnull(strstr(d->message, "stitch_function_num_per_pool[0] cannot be 0"));
    bool second = false;
    for (int i = 0; i < d->nnotes; i++)
        second |= strstr(d->notes[i].message, "also here: stitch_function_num_per_pool[1] cannot be 0") != NULL;
    ck_assert_msg(second, "the second pool's finding is lost");
    ck_assert_ptr_nonnull(strstr(d->message, "'dx'"));
    ck_assert_str_eq(d->fixes[0].replacement, "(64, 2, 1)"); /* a tuple stays a tuple */
    lf_free(&f);
}
END_TEST

START_TEST(test_pc001_cpp_spelling)
{
    lf f;
    lf_setup(&f, PC_LANG_CPP, "std::vector<int64_t>{64, 0, 1}", T_64_0_1);
    lf_lint(&f);
    const pc_diag *d = lf_find(&f, "PC001");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->nfixes, 1);
    /* Only the braces are rewritten; std::vector<int64_t> stays. */
    ck_assert_str_eq(d->fixes[0].replacement, "{64, 2, 1}");
    uint32_t col = (uint32_t)strlen(LF_CPP_PREFIX) + 1 + (uint32_t)strlen("std::vector<int64_t>");
    ck_assert_uint_eq(d->fixes[0].range.col, col);
    lf_free(&f);
}
END_TEST

START_TEST(test_pc001_silent)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[64, 1, 1]", T_64_1_1); /* no zero */
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC001"), 0);
    lf_free(&f);
    lf_setup(&f, PC_LANG_PYTHON, "[0, 0, 0]", T_0_0_0); /* precise mode off */
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC001"), 0);
    lf_free(&f);
    lf_setup(&f, PC_LANG_PYTHON, "[64, 0, 1]", T_64_0_1); /* the pool is not needed */
    f.r[0]->needed[1] = false;
    f.r[0]->predicted[1] = f.r[0]->suggested[1] = f.r[0]->required[1] = 0;
    f.r[0]->tensors[LF_TMP_ASSEMBLE].pool = PC_POOL_NONE;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC001"), 0);
    lf_free(&f);
}
END_TEST

/* ---- PC002 / PC003 ---------------------------------------------------------------------------- */

/* One source option for `key` with value v (copied), validated by pc_lint. */
static size_t lint_one_option(const char *key, pc_optval v, const char *want_check)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    int o = pc_model_add_option(f.m, key, PC_SITE_SET_RUNTIME_OPTIONS, lf_loc(&f, 3, 1, 20));
    v.loc = lf_loc(&f, 3, 5, 15);
    f.m->options[o].value = v;
    lf_lint(&f);
    size_t n = lf_count(&f, want_check);
    if (n) {
        const pc_diag *d = lf_find(&f, want_check);
        ck_assert_int_eq(d->severity, PC_SEV_ERROR);
        ck_assert_uint_eq(d->loc.line, 3);
        ck_assert_uint_eq(d->loc.col, 5);
        if (strcmp(key, PC_KEY_POOL) == 0) {
            ck_assert_msg(strstr(d->message, "Invalid stitch_function_num_per_pool"), "message: %s", d->message);
            ck_assert_int_eq(d->nfixes, 1);
            ck_assert_str_eq(d->fixes[0].replacement, "[64, 2, 1]");
        }
    }
    lf_free(&f);
    return n;
}

static pc_optval list_of(pc_arena *a, int n, const pc_optval *items)
{
    pc_optval v = {0};
    v.kind = PC_OPT_LIST;
    v.nitems = n;
    v.items = pc_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *items);
    memcpy(v.items, items, (size_t)n * sizeof *items);
    return v;
}

static pc_optval ival(int64_t i) { pc_optval v = {0}; v.kind = PC_OPT_INT; v.i = i; return v; }

START_TEST(test_pc002_each_invalid_value)
{
    pc_arena *a = pc_arena_new();
    pc_optval good[3] = {ival(64), ival(1), ival(1)};
    /* The upstream UT's rejects (upstream runtime.py _validate_stitch_function_num_per_pool), plus a scalar and a float list. */
    pc_optval two[2] = {ival(64), ival(1)};
    pc_optval four[4] = {ival(64), ival(1), ival(1), ival(1)};
    pc_optval neg[3] = {ival(64), ival(-1), ival(1)};
    pc_optval big[3] = {ival(64), ival(1025), ival(1)};
    pc_optval flt[3] = {ival(64), ival(1), {.kind = PC_OPT_FLOAT, .f = 1.5, .text = "1.5"}};
    pc_optval boo[3] = {ival(64), {.kind = PC_OPT_BOOL, .i = 1}, ival(1)};
    pc_optval str = {.kind = PC_OPT_STRING, .text = "abc"};
    pc_optval scalar = ival(64);
    pc_optval fscalar = {.kind = PC_OPT_FLOAT, .f = 64.0, .text = "64.0"};
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 2, two), "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 4, four), "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 3, neg), "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 3, big), "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 3, flt), "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 3, boo), "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, str, "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, scalar, "PC002"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, fscalar, "PC002"), 1);
    /* Valid: a list, a tuple, the edges 0 and 1024. */
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 3, good), "PC002"), 0);
    pc_optval tup = list_of(a, 3, good);
    tup.kind = PC_OPT_TUPLE;
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, tup, "PC002"), 0);
    pc_optval edges[3] = {ival(0), ival(1024), ival(0)};
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, list_of(a, 3, edges), "PC002"), 0);
    /* Not known to be bad: None and an expression poolcheck cannot evaluate. */
    pc_optval none = {.kind = PC_OPT_NONE};
    pc_optval unknown = {.kind = PC_OPT_UNKNOWN, .text = "DEPTHS"};
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, none, "PC002"), 0);
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, unknown, "PC002"), 0);
    pc_arena_free(a);
}
END_TEST

START_TEST(test_pc002_external_options)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    pc_arena *a = pc_arena_new();
    pc_optval two[2] = {ival(64), ival(1)};
    /* --set: no location in a file, so the message says where it came from. */
    f.ext[0].key = PC_KEY_POOL;
    f.ext[0].site = PC_SITE_COMMAND_LINE;
    f.ext[0].kernel = -1;
    f.ext[0].value = list_of(a, 2, two);
    /* tile_fwk_config.json: located in that file. */
    f.ext[1] = f.ext[0];
    f.ext[1].site = PC_SITE_CONFIG_FILE;
    f.ext[1].value.loc = (pc_loc){"tile_fwk_config.json", 3, 37, 3, 44};
    f.ext[1].loc = f.ext[1].value.loc;
    f.next = 2;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC002"), 2);
    size_t n;
    const pc_diag *d = pc_diag_items(f.s, &n);
    bool cli = false, file = false;
    for (size_t i = 0; i < n; i++) {
        if (!d[i].id || strcmp(d[i].id, "PC002") != 0)
            continue;
        if (!d[i].loc.file) {
            cli = strstr(d[i].message, "(set by --set)") != NULL;
            ck_assert_int_eq(d[i].nfixes, 0);
        } else {
            file = strcmp(d[i].loc.file, "tile_fwk_config.json") == 0 && d[i].loc.line == 3;
            ck_assert_int_eq(d[i].nfixes, 1);
            ck_assert_str_eq(d[i].fixes[0].replacement, "[64, 2, 1]"); /* JSON spelling */
        }
    }
    ck_assert(cli && file);
    pc_arena_free(a);
    lf_free(&f);
}
END_TEST

START_TEST(test_pc003)
{
    pc_optval str = {.kind = PC_OPT_STRING, .text = "abc"};
    pc_optval flt = {.kind = PC_OPT_FLOAT, .f = 1.5, .text = "1.5"};
    ck_assert_uint_eq(lint_one_option(PC_KEY_MAX_NUM, ival(0), "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_MAX_NUM, ival(1025), "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_MAX_NUM, str, "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_MAX_NUM, flt, "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_WORKSPACE_KB, ival(-1), "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_PARALLELISM, ival(9), "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_PARALLELISM, ival(0), "PC003"), 1);
    ck_assert_uint_eq(lint_one_option(PC_KEY_MAX_NUM, ival(64), "PC003"), 0);
    ck_assert_uint_eq(lint_one_option(PC_KEY_WORKSPACE_KB, ival(0), "PC003"), 0);
    ck_assert_uint_eq(lint_one_option(PC_KEY_PARALLELISM, ival(8), "PC003"), 0);
    ck_assert_uint_eq(lint_one_option("device_sched_mode", str, "PC003"), 0); /* not modelled */
    /* The pool option is PC002's, never PC003's. */
    ck_assert_uint_eq(lint_one_option(PC_KEY_POOL, str, "PC003"), 0);
}
END_TEST

/* ---- PC004 / PC005 ---------------------------------------------------------------------------- */

static int add_int_option(lf *f, const char *key, int64_t v, uint32_t line, pc_optsite_kind site)
{
    int o = pc_model_add_option(f->m, key, site, lf_loc(f, line, 1, 30));
    f->m->options[o].value = ival(v);
    f->m->options[o].value.loc = lf_loc(f, line, 20, 22);
    return o;
}

START_TEST(test_pc004)
{
    lf f;
    lf_init(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1);
    int o = add_int_option(&f, PC_KEY_MAX_NUM, 64, 4, PC_SITE_SET_RUNTIME_OPTIONS);
    int w = add_int_option(&f, PC_KEY_WORKSPACE_KB, 0, 5, PC_SITE_SET_RUNTIME_OPTIONS);
    int k2 = lf_add_kernel(&f, "k_two", 20);
    for (int k = 0; k <= k2; k++) {
        f.r[k] = lf_result(&f, k);
        lf_config(&f, k, &f.m->options[0]);
        f.cfg[k].max_num = 64;
        f.cfg[k].src_max_num = &f.m->options[o];
        f.cfg[k].workspace_kb = 0;
        f.cfg[k].src_workspace_kb = &f.m->options[w];
    }
    lf_lint(&f);
    /* Once per option site, although it applies to two precise kernels; max_workspace_kb=0 is
     * "off" and changes nothing. */
    ck_assert_uint_eq(lf_count(&f, "PC004"), 1);
    const pc_diag *d = lf_find(&f, "PC004");
    ck_assert_int_eq(d->severity, PC_SEV_WARNING);
    ck_assert_uint_eq(d->loc.line, 4);
    ck_assert_ptr_nonnull(strstr(d->message, "stitch_function_max_num"));
    ck_assert_ptr_nonnull(strstr(d->message, "precise mode is on"));
    ck_assert_uint_eq(d->notes[0].loc.line, 3); /* where precise mode was switched on */
    lf_free(&f);

    /* Precise mode off: the options do what they say. */
    lf_init(&f, PC_LANG_PYTHON, "[0, 0, 0]", T_0_0_0);
    o = add_int_option(&f, PC_KEY_WORKSPACE_KB, 4096, 4, PC_SITE_SET_RUNTIME_OPTIONS);
    f.r[0] = lf_result(&f, 0);
    lf_config(&f, 0, &f.m->options[0]);
    f.cfg[0].workspace_kb = 4096;
    f.cfg[0].src_workspace_kb = &f.m->options[o];
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC004"), 0);
    lf_free(&f);
}
END_TEST

START_TEST(test_pc005)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    int o = add_int_option(&f, PC_KEY_MAX_NUM, 64, 12, PC_SITE_SET_RUNTIME_OPTIONS);
    f.m->options[o].in_kernel = true;
    f.m->options[o].kernel = 0;
    int j = add_int_option(&f, PC_KEY_MAX_NUM, 64, 6, PC_SITE_JIT); /* jit options belong there */
    f.m->options[j].in_kernel = true;
    f.m->options[j].kernel = 0;
    add_int_option(&f, PC_KEY_MAX_NUM, 64, 4, PC_SITE_SET_RUNTIME_OPTIONS); /* module level */
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC005"), 1);
    const pc_diag *d = lf_find(&f, "PC005");
    ck_assert_uint_eq(d->loc.line, 12);
    ck_assert_ptr_nonnull(strstr(d->message, "inside kernel 'k_tmp'"));
    ck_assert_ptr_nonnull(strstr(d->message, "set_runtime_options"));
    lf_free(&f);
}
END_TEST

/* ---- PC006 / PC007 ---------------------------------------------------------------------------- */

START_TEST(test_pc006)
{
    static const int64_t shallow[3] = {32, 1, 1};
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[32, 1, 1]", shallow);
    pc_why_root roots[2] = {{"l_loop_1", 0, 64}, {"k_tmp", -1, 1}};
    f.r[0]->why[0] = (pc_why){0, 0, 127, roots, 2, NULL, 0};
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC006"), 1);
    const pc_diag *d = lf_find(&f, "PC006");
    ck_assert_int_eq(d->severity, PC_SEV_WARNING);
    ck_assert_ptr_nonnull(strstr(d->message, "stitch_function_num_per_pool[0] (root_inner) is 32, below the predicted 64"));
    ck_assert_ptr_nonnull(strstr(d->message, "'dx'"));
    ck_assert_ptr_nonnull(strstr(d->notes[0].message, "DeviceTask 0 (instances 0..127) needs depth 64: l_loop_1 (64 instances)"));
    ck_assert_str_eq(d->fixes[0].replacement, "[64, 2, 1]");
    ck_assert_uint_eq(lf_count(&f, "PC001"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[64, 1, 1]", T_64_1_1); /* at the prediction */
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC006"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[32, 1, 1]", shallow); /* unknown prediction: PC008's */
    f.r[0]->predicted[0] = -1;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC006"), 0);
    lf_free(&f);
}
END_TEST

START_TEST(test_pc007)
{
    /* [128, 2, 1]: AlignUp(65536 + 4096 + 6*4096, 32768) = 98304; at [64, 2, 1]: 65536. */
    static const int64_t deep[3] = {128, 2, 1};
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[128, 2, 1]", deep);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC007"), 1);
    const pc_diag *d = lf_find(&f, "PC007");
    ck_assert_int_eq(d->severity, PC_SEV_NOTE);
    ck_assert_ptr_nonnull(strstr(d->message, "reserves 32768 bytes"));
    ck_assert_ptr_nonnull(strstr(d->message, "deeper than the suggested 64"));
    ck_assert_str_eq(d->fixes[0].replacement, "[64, 2, 1]");
    ck_assert_uint_eq(lf_count(&f, "PC006") + lf_count(&f, "PC011"), 0);
    lf_free(&f);

    /* [65, 2, 1]: 33280 + 4096 + 24576 = 61952 -> 65536, the same as [64, 2, 1]: silent. */
    static const int64_t one_more[3] = {65, 2, 1};
    lf_setup(&f, PC_LANG_PYTHON, "[65, 2, 1]", one_more);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC007"), 0);
    lf_free(&f);

    /* A deep pool nobody uses reserves nothing (unit 0): silent. */
    static const int64_t unused[3] = {64, 2, 512};
    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 512]", unused);
    f.r[0]->needed[2] = false;
    f.r[0]->predicted[2] = f.r[0]->suggested[2] = f.r[0]->required[2] = 0;
    f.r[0]->unit_excl = 0;
    f.r[0]->n_exclusive = 0;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC007"), 0);
    lf_free(&f);

    /* The suggested depth itself: silent. */
    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC007"), 0);
    lf_free(&f);
}
END_TEST

/* ---- PC008 ------------------------------------------------------------------------------------ */

START_TEST(test_pc008)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    pc_result *r = f.r[0];
    pc_kernel *K = &f.m->kernels[0];
    K->loops[0].end = pc_expr_sym(f.m->arena, "n");
    r->predicted[0] = -1;
    r->bounds[0] = 128;
    r->formulas[0] = "min(n, 128)";
    const char **unk = pc_arena_alloc(r->arena, 2 * sizeof *unk);
    unk[0] = "n";
    unk[1] = "x.shape[0]";
    r->unknowns = unk;
    r->nunknowns = 2;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC008"), 2); /* one per unbound symbol */
    const pc_diag *d = lf_find(&f, "PC008");
    ck_assert_int_eq(d->severity, PC_SEV_NOTE);
    ck_assert_uint_eq(d->loc.line, 10); /* the loop whose bound mentions n */
    ck_assert_ptr_nonnull(strstr(d->message, "'n'"));
    ck_assert_ptr_nonnull(strstr(d->message, "root_inner <= 128 (min(n, 128))"));
    ck_assert_ptr_nonnull(strstr(d->message, "--bind n=VALUE"));
    ck_assert_uint_eq(lf_count(&f, "PC009"), 0); /* no suggestion from a bound */
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC008"), 0);
    lf_free(&f);
}
END_TEST

/* ---- PC009 ------------------------------------------------------------------------------------ */

START_TEST(test_pc009_python_insert)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC009"), 1);
    const pc_diag *d = lf_find(&f, "PC009");
    ck_assert_int_eq(d->severity, PC_SEV_NOTE);
    /* default [128,128,128]: AlignUp(65536 + 524288 + 132*4096, 32768) = 1130496 -> 1146880;
     * suggested [64,2,1]: 65536; saves 1081344. */
    ck_assert_msg(strstr(d->message, "[128, 128, 128] (1146880 bytes"), "%s", d->message);
    ck_assert_ptr_nonnull(strstr(d->message, "stitch_function_num_per_pool=[64, 2, 1] (predicted [64, 1, 1]) needs 65536 bytes and saves 1081344"));
    ck_assert_uint_eq(d->loc.line, 7);
    ck_assert_int_eq(d->nfixes, 1);
    ck_assert_uint_eq(d->fixes[0].range.line, 6);
    ck_assert_uint_eq(d->fixes[0].range.col, 1);
    ck_assert_uint_eq(d->fixes[0].range.end_col, 1);
    ck_assert_str_eq(d->fixes[0].replacement,
                     "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n\n\n");
    lf_free(&f);
}
END_TEST

START_TEST(test_pc009_python_two_kernels)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    int k2 = lf_add_kernel(&f, "k_two", 20);
    f.r[0]->kernel = &f.m->kernels[0]; /* the kernel array may have moved */
    f.r[k2] = lf_result(&f, k2);
    f.r[k2]->predicted[2] = 3;
    f.r[k2]->suggested[2] = 3;
    lf_config(&f, k2, NULL);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC009"), 2);
    /* One module-level call (identical fixes, before the first kernel) with the maximum. */
    size_t n;
    const pc_diag *d = pc_diag_items(f.s, &n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(d[i].nfixes, 1);
        ck_assert_uint_eq(d[i].fixes[0].range.line, 6);
        ck_assert_ptr_nonnull(strstr(d[i].fixes[0].replacement, "=[64, 2, 3])"));
    }
    lf_free(&f);
}
END_TEST

START_TEST(test_pc009_cpp_and_explicit)
{
    lf f;
    lf_setup(&f, PC_LANG_CPP, NULL, NULL);
    lf_lint(&f);
    const pc_diag *d = lf_find(&f, "PC009");
    ck_assert_ptr_nonnull(d);
    /* Before FUNCTION (6:5); what followed keeps its indentation. */
    ck_assert_uint_eq(d->fixes[0].range.line, 6);
    ck_assert_uint_eq(d->fixes[0].range.col, 5);
    ck_assert_str_eq(d->fixes[0].replacement,
                     "config::SetRuntimeOption(\"stitch_function_num_per_pool\", std::vector<int64_t>{64, 2, 1});\n    ");
    lf_free(&f);

    /* An explicit [0, 0, 0] is rewritten in place. */
    lf_setup(&f, PC_LANG_PYTHON, "[0, 0, 0]", T_0_0_0);
    lf_lint(&f);
    d = lf_find(&f, "PC009");
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->loc.line, 3);
    ck_assert_str_eq(d->fixes[0].replacement, "[64, 2, 1]");
    ck_assert_uint_eq(d->fixes[0].range.line, 3);
    lf_free(&f);
}
END_TEST

/* An option the runtime rejects leaves precise mode off; its PC002 fix is the fix, not a new call. */
START_TEST(test_pc009_no_insert_over_invalid_option)
{
    static const int64_t two[3] = {64, 1, 0}; /* only the first two are written */
    lf f;
    lf_init(&f, PC_LANG_PYTHON, "[64, 1]", two);
    f.m->options[0].value.nitems = 2;
    f.r[0] = lf_result(&f, 0);
    lf_config(&f, 0, NULL);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC002"), 1);
    ck_assert_int_eq(lf_find(&f, "PC002")->nfixes, 1);
    const pc_diag *d = lf_find(&f, "PC009");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->nfixes, 0);
    lf_free(&f);
}
END_TEST

START_TEST(test_pc009_silent)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1); /* precise already */
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC009"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL); /* nothing needs a pool */
    for (int i = 0; i < 3; i++) {
        f.r[0]->needed[i] = false;
        f.r[0]->predicted[i] = f.r[0]->suggested[i] = f.r[0]->required[i] = 0;
    }
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC009"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL); /* k = 1: the default is already minimal */
    f.r[0]->k = 1;
    for (int i = 0; i < 3; i++)
        f.r[0]->predicted[i] = f.r[0]->suggested[i] = 1;
    f.cfg[0].max_num = 1;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC009"), 0);
    lf_free(&f);
}
END_TEST

/* ---- PC010 ------------------------------------------------------------------------------------ */

START_TEST(test_pc010)
{
    /* required [1,1,1]: AlignUp(512 + 4096 + 5*4096, 32768) = 32768 bytes = 32 KB. */
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    int o = add_int_option(&f, PC_KEY_WORKSPACE_KB, 32, 4, PC_SITE_SET_RUNTIME_OPTIONS);
    f.cfg[0].workspace_kb = 32;
    f.cfg[0].src_workspace_kb = &f.m->options[o];
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC010"), 1);
    const pc_diag *d = lf_find(&f, "PC010");
    ck_assert_int_eq(d->severity, PC_SEV_ERROR);
    ck_assert_uint_eq(d->loc.line, 4);
    ck_assert_msg(strstr(d->message, "max_workspace_kb=32KB must be greater than the minimum runnable workspace=32KB"),
                  "%s", d->message);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    f.cfg[0].workspace_kb = 33;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC010"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1); /* precise mode ignores the budget */
    f.cfg[0].workspace_kb = 1;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC010"), 0);
    lf_free(&f);
}
END_TEST

/* ---- PC011 ------------------------------------------------------------------------------------ */

START_TEST(test_pc011)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[64, 1, 1]", T_64_1_1);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC011"), 1);
    const pc_diag *d = lf_find(&f, "PC011");
    ck_assert_int_eq(d->severity, PC_SEV_WARNING);
    ck_assert_ptr_nonnull(strstr(d->message, "Root cannot fit in an empty DeviceTask"));
    ck_assert_ptr_nonnull(strstr(d->message, "'tmp_assemble'"));
    ck_assert_uint_eq(d->notes[0].loc.line, 8);
    ck_assert_str_eq(d->fixes[0].replacement, "[64, 2, 1]");
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1); /* headroom present */
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC011"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[64, 1, 1]", T_64_1_1); /* nothing crosses a DeviceTask */
    f.r[0]->ncross_task_assemble = 0;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC011"), 0);
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[64, 1, 1]", T_64_1_1); /* --assemble-headroom 0 */
    f.headroom = 0;
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC011"), 0);
    lf_free(&f);
}
END_TEST

/* ---- PC012 ------------------------------------------------------------------------------------ */

START_TEST(test_pc012)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1);
    pc_kernel *K = &f.m->kernels[0];
    int s = pc_kernel_add_stmt(f.m, K, PC_STMT_UNANALYSED, lf_loc(&f, 12, 9, 40));
    f.m->kernels[0].stmts[s].message = "a `while` loop (only pypto.loop makes root functions) was skipped";
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC012"), 1);
    const pc_diag *d = lf_find(&f, "PC012");
    ck_assert_uint_eq(d->loc.line, 12);
    ck_assert_ptr_nonnull(strstr(d->message, "a `while` loop"));
    ck_assert_ptr_nonnull(strstr(d->message, "depths may be too low"));
    lf_free(&f);

    lf_setup(&f, PC_LANG_PYTHON, "[64, 2, 1]", T_64_2_1);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC012"), 0);
    size_t n;
    pc_diag_items(f.s, &n);
    ck_assert_uint_eq(n, 0); /* the suggested config is clean */
    lf_free(&f);
}
END_TEST

/* ---- the whole lint ---------------------------------------------------------------------------- */

START_TEST(test_lint_selection_and_suppression)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    char *err = NULL;
    ck_assert(pc_diag_set_checks(lf_sink(&f), "PC*,-suggest-precise-config", &err));
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC009"), 0);
    lf_free(&f);

    /* noqa on the option line silences PC001 there (the primary location). */
    lf_setup(&f, PC_LANG_PYTHON, "[64, 0, 1]", T_64_0_1);
    char *nl = strchr(strstr(f.src, LF_PY_PREFIX), '\n');
    pc_sb b = {0};
    pc_sb_appendn(&b, f.src, (size_t)(nl - f.src));
    pc_sb_append(&b, "  # noqa: zero-depth-pool");
    pc_sb_append(&b, nl);
    pc_mem_free(f.src);
    f.src = pc_sb_take(&b);
    f.len = strlen(f.src);
    lf_lint(&f);
    ck_assert_uint_eq(lf_count(&f, "PC001"), 0);
    ck_assert_uint_eq(pc_diag_suppressed(f.s), 1);
    lf_free(&f);

    /* A model that could not be analysed (no results): only model-level checks run. */
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    pc_lint_input in = {0};
    in.model = f.m;
    pc_lint(lf_sink(&f), &in);
    size_t n;
    pc_diag_items(f.s, &n);
    ck_assert_uint_eq(n, 0);
    pc_lint(lf_sink(&f), NULL);
    lf_free(&f);
}
END_TEST

/* Floods: one diagnostic per check and location (another message there becomes a
 * note), and at most 100 per kernel with one summary note counting the rest ("2,000"). */
START_TEST(test_sink_floods)
{
    pc_diag_sink *s = pc_diag_sink_new();
    pc_loc at = {"k.py", 7, 5, 7, 9};
    for (int i = 0; i < 129; i++)
        pc_diag_report(s, PC_CHK_UNANALYSED_REGION, at, "k", "kernel 'k': the same statement");
    ck_assert_ptr_null(pc_diag_report(s, PC_CHK_UNANALYSED_REGION, at, "k", "kernel 'k': another message"));
    size_t n;
    const pc_diag *d = pc_diag_items(s, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(d[0].nnotes, 1);
    ck_assert_ptr_nonnull(strstr(d[0].notes[0].message, "another message"));
    /* another check at the same place is its own finding */
    ck_assert_ptr_nonnull(pc_diag_report(s, PC_CHK_UNKNOWN_TRIP_COUNT, at, "k", "kernel 'k': unknown"));
    for (uint32_t line = 100; line < 2200; line++) {
        pc_loc l = {"k.py", line, 1, line, 2};
        pc_diag_report(s, PC_CHK_UNANALYSED_REGION, l, "k", "kernel 'k': line %u", line);
    }
    d = pc_diag_items(s, &n);
    size_t kept = 0, summaries = 0;
    for (size_t i = 0; i < n; i++) {
        kept += d[i].check >= 0;
        if (d[i].check < 0) {
            summaries++;
            ck_assert_str_eq(d[i].message, "kernel 'k': ... and 2,002 more diagnostics not shown (at most 100 per kernel)");
            ck_assert_uint_eq(d[i].loc.line, 198);
        }
    }
    ck_assert_uint_eq(kept, 100);
    ck_assert_uint_eq(summaries, 1);
    /* another kernel has its own share */
    ck_assert_ptr_nonnull(pc_diag_report(s, PC_CHK_UNANALYSED_REGION, (pc_loc){"k.py", 5000, 1, 5000, 2}, "k2", "x"));
    pc_diag_sink_free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("checks");
    TCase *t = tcase_create("sink");
    tcase_add_test(t, test_table);
    tcase_add_test(t, test_docs_match_table);
    tcase_add_test(t, test_list_checks);
    tcase_add_test(t, test_select_globs);
    tcase_add_test(t, test_werror);
    tcase_add_test(t, test_suppress_nolint);
    tcase_add_test(t, test_suppress_noqa);
    tcase_add_test(t, test_suppress_begin_end);
    tcase_add_test(t, test_cap_and_notes);
    tcase_add_test(t, test_message_said_once);
    suite_add_tcase(s, t);
    t = tcase_create("checks");
    tcase_add_test(t, test_pc001_fires);
    tcase_add_test(t, test_pc001_every_pool_and_tuple);
    tcase_add_test(t, test_pc001_cpp_spelling);
    tcase_add_test(t, test_pc001_silent);
    tcase_add_test(t, test_pc002_each_invalid_value);
    tcase_add_test(t, test_pc002_external_options);
    tcase_add_test(t, test_pc003);
    tcase_add_test(t, test_pc004);
    tcase_add_test(t, test_pc005);
    tcase_add_test(t, test_pc006);
    tcase_add_test(t, test_pc007);
    tcase_add_test(t, test_pc008);
    tcase_add_test(t, test_pc009_python_insert);
    tcase_add_test(t, test_pc009_python_two_kernels);
    tcase_add_test(t, test_pc009_cpp_and_explicit);
    tcase_add_test(t, test_pc009_silent);
    tcase_add_test(t, test_pc009_no_insert_over_invalid_option);
    tcase_add_test(t, test_pc010);
    tcase_add_test(t, test_pc011);
    tcase_add_test(t, test_pc012);
    tcase_add_test(t, test_lint_selection_and_suppression);
    tcase_add_test(t, test_sink_floods);
    suite_add_tcase(s, t);
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
