/* check_report.c - the output formats (text golden, JSON and SARIF parsed back, GitHub escaping),
 * emitted configurations parsed back (JSON by cJSON, Python by python3's ast), and fixes (in
 * place and as a unified diff), on the hand-built seed example of lint_fixture.h.
 * The SARIF document is also written to $BUILD/sarif/check_report.sarif.json, which
 * tests/e2e/sarif.cmake validates against the official 2.1.0 schema. */
#include "lint_fixture.h"

#include <check.h>
#include <cjson/cJSON.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "poolcheck/report.h"
#include "report/report_int.h"

static const int64_t T_64_0_1[3] = {64, 0, 1};
static const int64_t T_64_1_1[3] = {64, 1, 1};

/* Run pc_rep_write into a string. */
static char *render(pc_file_result **files, size_t n, pc_report_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pc_rep_write(f, files, n, o);
    fclose(f);
    return buf;
}

static char *dry_run(pc_file_result *fr, int *applied)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *applied = pc_rep_apply_fixes(fr, true, f);
    fclose(f);
    return buf;
}

/* The PC001 case: [64, 0, 1] with a frontend message on line 1. */
static pc_file_result *pc001_case(lf *f, pc_lang lang)
{
    if (lang == PC_LANG_PYTHON)
        lf_setup(f, lang, "[64, 0, 1]", T_64_0_1);
    else
        lf_setup(f, lang, "std::vector<int64_t>{64, 0, 1}", T_64_0_1);
    lf_lint(f);
    pc_loc l = {f->m->file, 1, 1, 1, 7};
    pc_diag_message(f->s, PC_SEV_WARNING, l, "a frontend says: 100% sure");
    return lf_file_result(f);
}

/* ---- text ------------------------------------------------------------------------------------- */

START_TEST(test_text_golden)
{
    lf f;
    pc_file_result *fr = pc001_case(&f, PC_LANG_PYTHON);
    char *stats = NULL;
    size_t slen = 0;
    FILE *sf = open_memstream(&stats, &slen);
    pc_report_opts o = {.format = PC_FMT_TEXT, .stats = sf};
    char *out = render(&fr, 1, &o);
    fclose(sf);
    const char *want =
        "k.py:1:1: warning: a frontend says: 100% sure\n"
        "import pypto\n"
        "^~~~~~\n"
        "k.py:3:69: error: stitch_function_num_per_pool[1] cannot be 0 because the current program requires "
        "this workspace pool to construct one root function: kernel 'k_tmp' keeps 'tmp_assemble' in "
        "assemble_outcast (configured [64, 0, 1], suggested [64, 2, 1]) [PC001]\n"
        "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])\n"
        "                                                                    ^~~~~~~~~~\n"
        "                                                                    [64, 2, 1]\n"
        "k.py:8:5: note: 'tmp_assemble' uses assemble_outcast: created in the kernel body, assembled in "
        "l_loop_1, read later\n"
        "    tmp_assemble = pypto.tensor([1, 64, 1, 16], pypto.DT_FP32, \"tmp_assemble\")\n"
        "    ^\n"
        "k.py:7:1: note: kernel 'k_tmp' is defined here\n"
        "def k_tmp(dy, weight):\n"
        "^\n"
        "";
    ck_assert_str_eq(out, want);
    ck_assert_str_eq(stats, "1 error, 1 warning generated.\n");
    free(out);
    free(stats);
    lf_free(&f);
}
END_TEST

START_TEST(test_text_promoted_unlocated_tabs)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, "[64, 1, 1]", T_64_1_1);
    char *err = NULL;
    ck_assert(pc_diag_set_werror(lf_sink(&f), "PC011", &err));
    /* --set with a bad value: no place in a file. */
    pc_arena *a = pc_arena_new();
    f.ext[0].key = PC_KEY_MAX_NUM;
    f.ext[0].site = PC_SITE_COMMAND_LINE;
    f.ext[0].kernel = -1;
    f.ext[0].value.kind = PC_OPT_INT;
    f.ext[0].value.i = 4096;
    f.next = 1;
    lf_lint(&f);
    pc_file_result *fr = lf_file_result(&f);
    pc_report_opts o = {.format = PC_FMT_TEXT};
    char *out = render(&fr, 1, &o);
    ck_assert_msg(strstr(out, "is 1, exactly the live assemble allocations") &&
                      strstr(out, "use 2 [PC011,-warnings-as-errors]\n"),
                  "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "k.py:3:69: error: stitch_function_num_per_pool[1] (assemble_outcast)"));
    ck_assert_msg(strstr(out, "\nerror: Invalid stitch_function_max_num: '4096'") || strncmp(out, "error: Invalid", 14) == 0,
                  "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "(set by --set) [PC003]\n"));
    free(out);
    pc_arena_free(a);
    lf_free(&f);

    /* A tab before the column keeps the caret aligned; multi-byte characters count once. */
    pc_diag_sink *s = pc_diag_sink_new();
    const char *src = "\tx = 'é' + y\n";
    pc_diag_set_source(s, "t.py", src, strlen(src), PC_LANG_PYTHON);
    pc_loc l = {"t.py", 1, 13, 1, 14}; /* y: tab, "x = '" (5), é (2 bytes), "' + " (4) -> byte 13 */
    pc_diag_message(s, PC_SEV_ERROR, l, "here");
    pc_model *m = pc_model_new("t.py", PC_LANG_PYTHON);
    pc_file_result one = {.model = m, .sink = s};
    pc_file_result *p = &one;
    out = render(&p, 1, &o);
    ck_assert_str_eq(out, "t.py:1:13: error: here\n\tx = 'é' + y\n\t          ^\n");
    free(out);
    pc_model_free(m);
    pc_diag_sink_free(s);
}
END_TEST

START_TEST(test_text_color_summary_verbose)
{
    lf f;
    pc_file_result *fr = pc001_case(&f, PC_LANG_PYTHON);
    pc_report_opts o = {.format = PC_FMT_TEXT, .color = true, .summary = true};
    char *out = render(&fr, 1, &o);
    ck_assert_ptr_nonnull(strstr(out, "\033[1;31merror:"));
    ck_assert_ptr_nonnull(strstr(out, "\033[1;35mwarning:"));
    ck_assert_ptr_nonnull(strstr(out, "k_tmp")); /* the kernel summary follows */
    ck_assert_ptr_nonnull(strstr(out, "tmp_assemble"));
    free(out);
    lf_free(&f);

    pc_model *m = pc_model_new("empty.py", PC_LANG_PYTHON);
    pc_diag_sink *s = pc_diag_sink_new();
    pc_file_result one = {.model = m, .sink = s};
    pc_file_result *p = &one;
    pc_report_opts v = {.format = PC_FMT_TEXT, .verbose = true};
    out = render(&p, 1, &v);
    ck_assert_str_eq(out, "no kernel in empty.py\n");
    free(out);
    v.verbose = false;
    out = render(&p, 1, &v);
    ck_assert_str_eq(out, "");
    free(out);
    pc_diag_sink_free(s);
    pc_model_free(m);
}
END_TEST

/* ---- JSON ------------------------------------------------------------------------------------- */

static cJSON *get(const cJSON *o, const char *k)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    ck_assert_msg(v != NULL, "missing key %s", k);
    return v;
}

START_TEST(test_json)
{
    lf f;
    pc_file_result *fr = pc001_case(&f, PC_LANG_PYTHON);
    pc_report_opts o = {.format = PC_FMT_JSON};
    char *out = render(&fr, 1, &o);
    cJSON *doc = cJSON_Parse(out);
    ck_assert_ptr_nonnull(doc);
    ck_assert_int_eq((int)get(doc, "version")->valuedouble, 1);
    cJSON *kernels = get(doc, "kernels");
    ck_assert_int_eq(cJSON_GetArraySize(kernels), 1);
    ck_assert_str_eq(get(cJSON_GetArrayItem(kernels, 0), "name")->valuestring, "k_tmp");
    cJSON *diags = get(doc, "diagnostics");
    ck_assert_int_eq(cJSON_GetArraySize(diags), 2);
    /* In source order: the frontend message on line 1, then PC001 on line 3. */
    cJSON *d = cJSON_GetArrayItem(diags, 1);
    ck_assert_str_eq(get(d, "file")->valuestring, "k.py");
    ck_assert_int_eq((int)get(d, "line")->valuedouble, 3);
    ck_assert_int_eq((int)get(d, "column")->valuedouble, 69);
    ck_assert_int_eq((int)get(d, "end_line")->valuedouble, 3);
    ck_assert_int_eq((int)get(d, "end_column")->valuedouble, 79);
    ck_assert_str_eq(get(d, "severity")->valuestring, "error");
    ck_assert_str_eq(get(d, "check")->valuestring, "PC001");
    ck_assert_str_eq(get(d, "name")->valuestring, "zero-depth-pool");
    ck_assert_str_eq(get(d, "kernel")->valuestring, "k_tmp");
    ck_assert_ptr_nonnull(strstr(get(d, "message")->valuestring, "cannot be 0"));
    cJSON *notes = get(d, "notes");
    ck_assert_int_eq(cJSON_GetArraySize(notes), 2);
    cJSON *n0 = cJSON_GetArrayItem(notes, 0);
    ck_assert_str_eq(get(n0, "file")->valuestring, "k.py");
    ck_assert_int_eq((int)get(n0, "line")->valuedouble, 8);
    ck_assert_int_eq((int)get(n0, "column")->valuedouble, 5);
    ck_assert_ptr_nonnull(strstr(get(n0, "message")->valuestring, "tmp_assemble"));
    cJSON *fx = cJSON_GetArrayItem(get(d, "fixes"), 0);
    ck_assert_str_eq(get(fx, "file")->valuestring, "k.py");
    ck_assert_int_eq((int)get(get(fx, "start"), "line")->valuedouble, 3);
    ck_assert_int_eq((int)get(get(fx, "start"), "column")->valuedouble, 69);
    ck_assert_int_eq((int)get(get(fx, "end"), "column")->valuedouble, 79);
    ck_assert_str_eq(get(fx, "replacement")->valuestring, "[64, 2, 1]");
    /* The frontend message: check and name null. */
    cJSON *m = cJSON_GetArrayItem(diags, 0);
    ck_assert(cJSON_IsNull(get(m, "check")) && cJSON_IsNull(get(m, "name")) && cJSON_IsNull(get(m, "kernel")));
    ck_assert_str_eq(get(m, "message")->valuestring, "a frontend says: 100% sure");
    ck_assert_str_eq(get(m, "severity")->valuestring, "warning");
    cJSON_Delete(doc);
    free(out);
    lf_free(&f);
}
END_TEST

/* A diagnostic in a config file shared by two inputs is written once. */
START_TEST(test_repeated_external_diagnostic)
{
    lf a, b;
    lf_setup(&a, PC_LANG_PYTHON, NULL, NULL);
    lf_setup(&b, PC_LANG_CPP, NULL, NULL);
    pc_arena *ar = pc_arena_new();
    for (int i = 0; i < 2; i++) {
        lf *f = i ? &b : &a;
        f->ext[0].key = PC_KEY_POOL;
        f->ext[0].site = PC_SITE_CONFIG_FILE;
        f->ext[0].kernel = -1;
        f->ext[0].value.kind = PC_OPT_STRING;
        f->ext[0].value.text = "abc";
        f->ext[0].value.loc = (pc_loc){"tile_fwk_config.json", 2, 40, 2, 45};
        f->next = 1;
        lf_lint(f);
    }
    pc_file_result *files[2] = {lf_file_result(&a), lf_file_result(&b)};
    ck_assert_uint_eq(lf_count(&a, "PC002") + lf_count(&b, "PC002"), 2);
    pc_report_opts o = {.format = PC_FMT_JSON};
    char *out = render(files, 2, &o);
    cJSON *doc = cJSON_Parse(out);
    int n002 = 0, n009 = 0;
    cJSON *d;
    cJSON_ArrayForEach(d, get(doc, "diagnostics")) {
        n002 += strcmp(get(d, "check")->valuestring, "PC002") == 0;
        n009 += strcmp(get(d, "check")->valuestring, "PC009") == 0;
    }
    ck_assert_int_eq(n002, 1);
    ck_assert_int_eq(n009, 2); /* per-file findings are all kept */
    ck_assert_int_eq(cJSON_GetArraySize(get(doc, "kernels")), 2);
    cJSON_Delete(doc);
    free(out);
    pc_arena_free(ar);
    lf_free(&a);
    lf_free(&b);
}
END_TEST

/* ---- SARIF ------------------------------------------------------------------------------------ */

START_TEST(test_sarif)
{
    lf f;
    pc_file_result *fr = pc001_case(&f, PC_LANG_PYTHON);
    pc_report_opts o = {.format = PC_FMT_SARIF, .docs_url = "https://docs.example.org/poolcheck/checks/"};
    char *out = render(&fr, 1, &o);
    cJSON *doc = cJSON_Parse(out);
    ck_assert_ptr_nonnull(doc);
    ck_assert_str_eq(get(doc, "version")->valuestring, "2.1.0");
    cJSON *run = cJSON_GetArrayItem(get(doc, "runs"), 0);
    ck_assert_str_eq(get(run, "columnKind")->valuestring, "unicodeCodePoints");
    cJSON *driver = get(get(run, "tool"), "driver");
    ck_assert_str_eq(get(driver, "name")->valuestring, "poolcheck");
    cJSON *rules = get(driver, "rules");
    size_t n;
    const pc_check_info *t = pc_chk_table(&n);
    ck_assert_int_eq(cJSON_GetArraySize(rules), (int)n);
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_GetArrayItem(rules, (int)i);
        ck_assert_str_eq(get(r, "id")->valuestring, t[i].id);
        ck_assert_str_eq(get(r, "name")->valuestring, t[i].name);
        ck_assert_str_eq(get(get(r, "shortDescription"), "text")->valuestring, t[i].summary);
        ck_assert_str_eq(get(get(r, "fullDescription"), "text")->valuestring, t[i].description);
        ck_assert_ptr_nonnull(strstr(get(get(r, "help"), "text")->valuestring, t[i].remedy));
        ck_assert_ptr_nonnull(get(get(r, "help"), "markdown")->valuestring);
        char url[256];
        snprintf(url, sizeof url, "https://docs.example.org/poolcheck/checks/%s.md", t[i].id);
        ck_assert_str_eq(get(r, "helpUri")->valuestring, url);
        ck_assert_str_eq(get(get(r, "defaultConfiguration"), "level")->valuestring,
                         pc_severity_name(t[i].severity));
    }
    cJSON *results = get(run, "results");
    ck_assert_int_eq(cJSON_GetArraySize(results), 1);
    cJSON *r = cJSON_GetArrayItem(results, 0);
    ck_assert_str_eq(get(r, "ruleId")->valuestring, "PC001");
    ck_assert_int_eq((int)get(r, "ruleIndex")->valuedouble, 0);
    ck_assert_str_eq(get(r, "level")->valuestring, "error");
    cJSON *pl = get(cJSON_GetArrayItem(get(r, "locations"), 0), "physicalLocation");
    ck_assert_str_eq(get(get(pl, "artifactLocation"), "uri")->valuestring, "k.py");
    ck_assert_str_eq(get(get(pl, "artifactLocation"), "uriBaseId")->valuestring, "SRCROOT");
    cJSON *reg = get(pl, "region");
    ck_assert_int_eq((int)get(reg, "startLine")->valuedouble, 3);
    ck_assert_int_eq((int)get(reg, "startColumn")->valuedouble, 69);
    ck_assert_int_eq((int)get(reg, "endColumn")->valuedouble, 79);
    const char *fp = get(get(r, "partialFingerprints"), "primaryLocationLineHash")->valuestring;
    ck_assert_uint_eq(strlen(fp), 18);
    ck_assert_str_eq(fp + 16, ":1");
    char fpbuf[32];
    snprintf(fpbuf, sizeof fpbuf, "%s", fp);
    ck_assert_int_eq(cJSON_GetArraySize(get(r, "relatedLocations")), 2);
    cJSON *rep = cJSON_GetArrayItem(get(cJSON_GetArrayItem(get(cJSON_GetArrayItem(get(r, "fixes"), 0), "artifactChanges"), 0),
                                        "replacements"), 0);
    ck_assert_int_eq((int)get(get(rep, "deletedRegion"), "startColumn")->valuedouble, 69);
    ck_assert_str_eq(get(get(rep, "insertedContent"), "text")->valuestring, "[64, 2, 1]");
    /* The frontend message is a tool execution notification. */
    cJSON *inv = cJSON_GetArrayItem(get(run, "invocations"), 0);
    ck_assert(cJSON_IsTrue(get(inv, "executionSuccessful")));
    cJSON *note = cJSON_GetArrayItem(get(inv, "toolExecutionNotifications"), 0);
    ck_assert_str_eq(get(get(note, "message"), "text")->valuestring, "a frontend says: 100% sure");
    cJSON_Delete(doc);
    free(out);

    /* Same input, same fingerprint; the document for the schema test (default docs URL). */
    pc_report_opts d = {.format = PC_FMT_SARIF};
    out = render(&fr, 1, &d);
    ck_assert_ptr_nonnull(strstr(out, fpbuf));
    ck_assert_ptr_nonnull(strstr(out, "\"helpUri\":\t\"file:///"));
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/sarif", PC_BINARY_DIR);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/check_report.sarif.json", dir);
    FILE *w = fopen(path, "w");
    ck_assert_ptr_nonnull(w);
    fputs(out, w);
    fclose(w);
    free(out);
    lf_free(&f);
}
END_TEST

START_TEST(test_sarif_columns_and_paths)
{
    /* Code point columns: "αβγ = [1]" has '[' at byte 10, code point 7. */
    char dir[1024], file[1200], other[1200];
    snprintf(dir, sizeof dir, "%s/sarif/base dir", PC_BINARY_DIR);
    snprintf(other, sizeof other, "%s/sarif", PC_BINARY_DIR);
    mkdir(other, 0777);
    mkdir(dir, 0777);
    snprintf(file, sizeof file, "%s/sub/k,1.py", dir);
    snprintf(other, sizeof other, "%s/sarif/outside.py", PC_BINARY_DIR);
    pc_diag_sink *s = pc_diag_sink_new();
    const char *src = "\xce\xb1\xce\xb2\xce\xb3 = [1]\n";
    pc_diag_set_source(s, file, src, strlen(src), PC_LANG_PYTHON);
    pc_diag *dg = pc_diag_report(s, 1, (pc_loc){file, 1, 10, 1, 13}, NULL, "bad");
    pc_diag_note(s, dg, (pc_loc){other, 2, 3, 0, 0}, "elsewhere");
    pc_model *m = pc_model_new(file, PC_LANG_PYTHON);
    pc_file_result one = {.model = m, .sink = s};
    pc_file_result *p = &one;
    pc_report_opts o = {.format = PC_FMT_SARIF, .base_dir = dir, .docs_url = "https://x.org/"};
    char *out = render(&p, 1, &o);
    cJSON *doc = cJSON_Parse(out);
    cJSON *run = cJSON_GetArrayItem(get(doc, "runs"), 0);
    cJSON *r = cJSON_GetArrayItem(get(run, "results"), 0);
    cJSON *pl = get(cJSON_GetArrayItem(get(r, "locations"), 0), "physicalLocation");
    ck_assert_str_eq(get(get(pl, "artifactLocation"), "uri")->valuestring, "sub/k%2C1.py");
    ck_assert_int_eq((int)get(get(pl, "region"), "startColumn")->valuedouble, 7);
    ck_assert_int_eq((int)get(get(pl, "region"), "endColumn")->valuedouble, 10);
    cJSON *rel = get(cJSON_GetArrayItem(get(r, "relatedLocations"), 0), "physicalLocation");
    const char *uri = get(get(rel, "artifactLocation"), "uri")->valuestring;
    ck_assert_msg(strncmp(uri, "file:///", 8) == 0 && strstr(uri, "/sarif/outside.py"), "%s", uri);
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(get(rel, "artifactLocation"), "uriBaseId"));
    const char *root = get(get(get(run, "originalUriBaseIds"), "SRCROOT"), "uri")->valuestring;
    ck_assert_msg(strstr(root, "/sarif/base%20dir/") && root[strlen(root) - 1] == '/', "%s", root);
    cJSON_Delete(doc);
    free(out);
    pc_model_free(m);
    pc_diag_sink_free(s);
}
END_TEST

/* ---- GitHub ----------------------------------------------------------------------------------- */

START_TEST(test_github)
{
    lf f;
    pc_file_result *fr = pc001_case(&f, PC_LANG_PYTHON);
    pc_report_opts o = {.format = PC_FMT_GITHUB};
    char *out = render(&fr, 1, &o);
    const char *want =
        "::warning file=k.py,line=1,col=1,endLine=1,endColumn=7,title=poolcheck::a frontend says: 100%25 sure\n"
        "::error file=k.py,line=3,col=69,endLine=3,endColumn=79,title=PC001 zero-depth-pool::"
        "stitch_function_num_per_pool[1] cannot be 0 because the current program requires this workspace pool "
        "to construct one root function: kernel 'k_tmp' keeps 'tmp_assemble' in assemble_outcast (configured "
        "[64, 0, 1], suggested [64, 2, 1])"
        "%0Ak.py:8:5: note: 'tmp_assemble' uses assemble_outcast: created in the kernel body, assembled in "
        "l_loop_1, read later%0Ak.py:7:1: note: kernel 'k_tmp' is defined here\n";
    ck_assert_str_eq(out, want);
    free(out);
    lf_free(&f);

    /* Escaping: % CR LF everywhere (messages are one line; notes follow on new lines), and : ,
     * in properties. */
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag *d = pc_diag_report(s, 6, (pc_loc){"dir:a,b/k\r.py", 2, 3, 0, 0}, NULL, "50%% done, next: line");
    pc_diag_note(s, d, (pc_loc){0}, "more");
    pc_diag_message(s, PC_SEV_NOTE, (pc_loc){0}, "no place");
    pc_model *m = pc_model_new("dir:a,b/k\r.py", PC_LANG_PYTHON);
    pc_file_result one = {.model = m, .sink = s};
    pc_file_result *p = &one;
    out = render(&p, 1, &o);
    ck_assert_str_eq(out,
                     "::notice title=poolcheck::no place\n"
                     "::notice file=dir%3Aa%2Cb/k%0D.py,line=2,col=3,title=PC007 pool-too-deep::50%25 done, next: "
                     "line%0Anote: more\n");
    free(out);
    pc_model_free(m);
    pc_diag_sink_free(s);
}
END_TEST

/* ---- emitted configurations ------------------------------------------------------------------- */

/* Does python3's own parser accept the text? */
static int python_parses(const char *text)
{
    FILE *p = popen("python3 -c 'import ast,sys; ast.parse(sys.stdin.read())' 2>/dev/null", "w");
    ck_assert_ptr_nonnull(p);
    fputs(text, p);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_emit_config)
{
    lf f;
    lf_setup(&f, PC_LANG_PYTHON, NULL, NULL);
    int k2 = lf_add_kernel(&f, "k_two", 20);
    f.r[0]->kernel = &f.m->kernels[0];
    f.r[k2] = lf_result(&f, k2);
    f.r[k2]->predicted[0] = 16;   /* element-wise maximum: [64, 2, 5] */
    f.r[k2]->predicted[1] = 0;    /* needed but 0 observed: never emitted as 0 */
    f.r[k2]->predicted[2] = 5;
    lf_config(&f, k2, NULL);
    lf_lint(&f);
    pc_file_result *fr = lf_file_result(&f);

    char *json = pc_rep_emit_config(&fr, 1, "json", 1);
    cJSON *doc = cJSON_ParseWithOpts(json, NULL, 1);
    ck_assert_ptr_nonnull(doc);
    cJSON *pool = get(get(doc, "runtime"), "stitch_function_num_per_pool");
    ck_assert_int_eq(cJSON_GetArraySize(pool), 3);
    ck_assert_int_eq((int)cJSON_GetArrayItem(pool, 0)->valuedouble, 64);
    ck_assert_int_eq((int)cJSON_GetArrayItem(pool, 1)->valuedouble, 2);
    ck_assert_int_eq((int)cJSON_GetArrayItem(pool, 2)->valuedouble, 5);
    cJSON_Delete(doc);
    pc_mem_free(json);

    char *py = pc_rep_emit_config(&fr, 1, "python", 1);
    ck_assert_ptr_nonnull(strstr(py, "\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 5])\n"));
    /* k_tmp at [64, 2, 5]: AlignUp(32768 + 20480 + 6*4096, 32768) = 98304, default 1146880. */
    ck_assert_msg(strstr(py, "# poolcheck: stitch_function_num_per_pool=[64, 2, 5] for 2 kernels\n"), "%s", py);
    ck_assert_msg(strstr(py, "k_tmp (k.py:7): 98304 bytes of workspace instead of 1146880 with the default [128, 128, 128]: saves 1048576 bytes"), "%s", py);
    ck_assert_int_eq(python_parses(py), 0);
    ck_assert_int_ne(python_parses("set_runtime_options(=[1,2,3])\n"), 0); /* the check can fail */
    pc_mem_free(py);

    char *cpp = pc_rep_emit_config(&fr, 1, "cpp", 0);   /* headroom 0: the observed triple */
    ck_assert_msg(strstr(cpp, "\nconfig::SetRuntimeOption(\"stitch_function_num_per_pool\", std::vector<int64_t>{64, 1, 5});\n"), "%s", cpp);
    ck_assert_ptr_nonnull(strstr(cpp, "// poolcheck: "));
    pc_mem_free(cpp);
    ck_assert_ptr_null(pc_rep_emit_config(&fr, 1, "yaml", 1));

    /* A pool no kernel uses stays 0; an unknown depth uses its bound. */
    f.r[0]->needed[0] = f.r[k2]->needed[0] = false;
    f.r[0]->predicted[2] = -1;
    f.r[0]->bounds[2] = 128;
    json = pc_rep_emit_config(&fr, 1, "json", 1);
    ck_assert_ptr_nonnull(strstr(json, "[0, 2, 128]"));
    pc_mem_free(json);
    py = pc_rep_emit_config(&fr, 1, "python", 1);
    ck_assert_ptr_nonnull(strstr(py, "upper bounds"));
    ck_assert_int_eq(python_parses(py), 0);
    pc_mem_free(py);
    lf_free(&f);
}
END_TEST

/* ---- fixes ------------------------------------------------------------------------------------ */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static char *fix_path(const char *name)
{
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s/report-fix", PC_BINARY_DIR);
    mkdir(dir, 0777);
    pc_sb b = {0};
    pc_sb_printf(&b, "%s/%s", dir, name);
    return pc_sb_take(&b);
}

START_TEST(test_fix_dry_run_and_apply)
{
    char *path = fix_path("pc001.py");
    lf f;
    lf_setup_at(&f, path, PC_LANG_PYTHON, "[64, 0, 1]", T_64_0_1);
    write_file(path, f.src);
    chmod(path, 0640);
    lf_lint(&f);
    pc_file_result *fr = lf_file_result(&f);
    int applied = 0;
    char *diff = dry_run(fr, &applied);
    ck_assert_int_eq(applied, 1);
    bool inside;
    char *shown = pc_rep_relative_path(path, NULL, &inside);
    pc_sb want = {0};
    pc_sb_printf(&want,
                 "--- a/%s\n+++ b/%s\n"
                 "@@ -1,6 +1,6 @@\n"
                 " import pypto\n"
                 " \n"
                 "-pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])\n"
                 "+pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n"
                 " \n"
                 " \n"
                 " @pypto.frontend.jit\n",
                 shown, shown);
    ck_assert_str_eq(diff, want.data);
    pc_sb_free(&want);
    free(diff);
    pc_mem_free(shown);
    /* The file is untouched by a dry run, rewritten (mode kept) by a real one. */
    char *err = NULL, *text = pc_read_file(path, NULL, &err);
    ck_assert_str_eq(text, f.src);
    pc_mem_free(text);
    ck_assert_int_eq(pc_rep_apply_fixes(fr, false, NULL), 1);
    text = pc_read_file(path, NULL, &err);
    ck_assert_ptr_nonnull(strstr(text, "stitch_function_num_per_pool=[64, 2, 1])\n\n\n@pypto.frontend.jit\n"));
    ck_assert_uint_eq(strlen(text), f.len);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    pc_mem_free(text);
    lf_free(&f);
    pc_mem_free(path);
}
END_TEST

START_TEST(test_fix_insert_cpp)
{
    char *path = fix_path("pc009.cpp");
    lf f;
    lf_setup_at(&f, path, PC_LANG_CPP, NULL, NULL);
    write_file(path, f.src);
    lf_lint(&f);
    pc_file_result *fr = lf_file_result(&f);
    ck_assert_int_eq(pc_rep_apply_fixes(fr, false, NULL), 1);
    char *err = NULL, *text = pc_read_file(path, NULL, &err);
    ck_assert_msg(strstr(text, "    Tensor weight(DT_FP32, {64, 64}, \"weight\");\n"
                               "    config::SetRuntimeOption(\"stitch_function_num_per_pool\", std::vector<int64_t>{64, 2, 1});\n"
                               "    FUNCTION(\"k_tmp\", {dy, weight}, {}) {\n"),
                  "%s", text);
    pc_mem_free(text);
    lf_free(&f);
    pc_mem_free(path);
}
END_TEST

/* Hand-made fixes: overlap (first wins), duplicates (once), hunks, a last line without newline. */
START_TEST(test_fix_overlap_hunks_eof)
{
    char *path = fix_path("lines.txt");
    pc_sb src = {0};
    for (int i = 1; i <= 20; i++)
        pc_sb_printf(&src, "line%d\n", i);
    pc_sb_append(&src, "last");
    write_file(path, src.data);
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag *d = pc_diag_report(s, 0, (pc_loc){path, 2, 1, 2, 6}, NULL, "a");
    pc_diag_fix(s, d, (pc_loc){path, 2, 1, 2, 6}, "LINE2");        /* taken */
    pc_diag_fix(s, d, (pc_loc){path, 2, 3, 2, 4}, "x");            /* overlaps: skipped */
    pc_diag_fix(s, d, (pc_loc){path, 2, 1, 2, 6}, "LINE2");        /* duplicate: once */
    d = pc_diag_report(s, 1, (pc_loc){path, 4, 1, 4, 1}, NULL, "b");
    pc_diag_fix(s, d, (pc_loc){path, 4, 1, 4, 1}, "new\n");        /* insertion, same hunk */
    d = pc_diag_report(s, 2, (pc_loc){path, 21, 5, 21, 5}, NULL, "c");
    pc_diag_fix(s, d, (pc_loc){path, 21, 5, 21, 5}, "!");          /* end of file, no newline */
    pc_diag_fix(s, d, (pc_loc){path, 40, 1, 40, 2}, "?");          /* outside the file: skipped */
    pc_model *m = pc_model_new(path, PC_LANG_UNKNOWN);
    pc_file_result one = {.model = m, .sink = s, .source = src.data, .source_len = src.len};
    int applied = 0;
    char *diff = dry_run(&one, &applied);
    ck_assert_int_eq(applied, 3);
    bool inside;
    char *shown = pc_rep_relative_path(path, NULL, &inside);
    pc_sb want = {0};
    pc_sb_printf(&want,
                 "--- a/%s\n+++ b/%s\n"
                 "@@ -1,6 +1,7 @@\n"
                 " line1\n-line2\n+LINE2\n line3\n+new\n line4\n line5\n line6\n"
                 "@@ -18,4 +19,4 @@\n"
                 " line18\n line19\n line20\n-last\n\\ No newline at end of file\n+last!\n\\ No newline at end of file\n",
                 shown, shown);
    ck_assert_str_eq(diff, want.data);
    free(diff);
    ck_assert_int_eq(pc_rep_apply_fixes(&one, false, NULL), 3);
    char *err = NULL, *text = pc_read_file(path, NULL, &err);
    ck_assert(strncmp(text, "line1\nLINE2\nline3\nnew\nline4\n", 28) == 0);
    ck_assert_str_eq(text + strlen(text) - 12, "line20\nlast!");
    /* Applying the same fixes again: the file no longer holds the analysed text -> refused. */
    ck_assert_int_eq(pc_rep_apply_fixes(&one, false, NULL), -1);
    char *after = pc_read_file(path, NULL, &err);
    ck_assert_str_eq(after, text);
    pc_mem_free(after);
    pc_mem_free(text);
    /* A fix located in another file (a shared config file) is not applied. */
    char *cfg = fix_path("tile_fwk_config.json");
    write_file(cfg, "{\"runtime\": {\"stitch_function_num_per_pool\": \"abc\"}}\n");
    pc_diag_sink *s2 = pc_diag_sink_new();
    d = pc_diag_report(s2, 1, (pc_loc){cfg, 1, 45, 1, 50}, NULL, "bad");
    pc_diag_fix(s2, d, (pc_loc){cfg, 1, 45, 1, 50}, "[64, 2, 1]");
    pc_file_result two = {.model = m, .sink = s2, .source = src.data, .source_len = src.len};
    ck_assert_int_eq(pc_rep_apply_fixes(&two, false, NULL), 0);
    text = pc_read_file(cfg, NULL, &err);
    ck_assert_ptr_nonnull(strstr(text, "\"abc\""));
    pc_mem_free(text);
    pc_mem_free(cfg);
    pc_diag_sink_free(s2);
    pc_sb_free(&want);
    pc_mem_free(shown);
    pc_model_free(m);
    pc_diag_sink_free(s);
    pc_sb_free(&src);
    pc_mem_free(path);
}
END_TEST

/* --fix on copies of the lint fixtures, through the real pipeline (frontend, config, analysis,
 * checks): every fixable finding is gone when the fixed file is analysed again, and the fixed file
 * is exactly the dry run's diff applied. */
static pc_file_result *analyse(pc_frontend *fe, const char *path)
{
    pc_check_opts o;
    pc_check_opts_init(&o);
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, path, NULL, 0, &o, &err);
    ck_assert_msg(fr != NULL, "%s", err ? err : "");
    ck_assert_msg(!fr->model->fatal, "%s could not be analysed", path);
    return fr;
}

static size_t count_id(const pc_file_result *fr, const char *id)
{
    size_t n, c = 0;
    const pc_diag *d = pc_diag_items(fr->sink, &n);
    for (size_t i = 0; i < n; i++)
        c += d[i].id && strcmp(d[i].id, id) == 0;
    return c;
}

START_TEST(test_fix_fixture_copies)
{
    static const struct { const char *fixture, *id, *want; } cases[] = {
        {"pc001_zero_depth_pool.py", "PC001", "stitch_function_num_per_pool=[64, 2, 1])\n"},
        {"pc001_zero_depth_pool_jit.py", "PC001", "{\"stitch_function_num_per_pool\": [64, 2, 1]}"},
        {"pc006_pool_too_shallow.py", "PC006", "stitch_function_num_per_pool=[64, 2, 1])\n"},
        {"pc007_pool_too_deep.py", "PC007", "stitch_function_num_per_pool=[64, 2, 1])\n"},
        {"pc009_suggest_precise_config.py", "PC009",
         "# no runtime options\n\n\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n"
         "\n\n@pypto.frontend.jit\n"},
        {"pc011_assemble_no_headroom.py", "PC011", "stitch_function_num_per_pool=[64, 2, 1])\n"},
    };
    pc_frontend *fe = pc_frontend_new();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[1024];
        snprintf(src, sizeof src, "%s/tests/fixtures/checks/%s", PC_SOURCE_DIR, cases[i].fixture);
        char *err = NULL, *text = pc_read_file(src, NULL, &err);
        ck_assert_msg(text != NULL, "%s", err ? err : src);
        char *path = fix_path(cases[i].fixture);
        write_file(path, text);

        pc_file_result *fr = analyse(fe, path);
        ck_assert_msg(count_id(fr, cases[i].id) >= 1, "%s: no %s to fix", cases[i].fixture, cases[i].id);
        int applied = 0;
        char *diff = dry_run(fr, &applied);
        ck_assert_msg(applied >= 1 && strstr(diff, "--- a/") && strstr(diff, "\n+"), "%s: %s", cases[i].fixture, diff);
        char *same = pc_read_file(path, NULL, &err);
        ck_assert_str_eq(same, text); /* the dry run changed nothing */
        pc_mem_free(same);
        ck_assert_int_eq(pc_rep_apply_fixes(fr, false, NULL), applied);
        pc_file_result_free(fr);
        free(diff);

        char *fixed = pc_read_file(path, NULL, &err);
        ck_assert_msg(strstr(fixed, cases[i].want), "%s fixed to:\n%s", cases[i].fixture, fixed);
        fr = analyse(fe, path);
        ck_assert_msg(count_id(fr, cases[i].id) == 0, "%s: %s still reported after --fix", cases[i].fixture, cases[i].id);
        ck_assert_uint_eq(count_id(fr, "PC001") + count_id(fr, "PC006") + count_id(fr, "PC011"), 0);
        ck_assert_uint_eq(count_id(fr, "PC009"), 0);
        /* Nothing left to fix: a second --fix is a no-op. */
        int again = 0;
        diff = dry_run(fr, &again);
        ck_assert_msg(again == 0 && diff[0] == 0, "%s: %s", cases[i].fixture, diff);
        free(diff);
        pc_file_result_free(fr);
        pc_mem_free(fixed);
        pc_mem_free(text);
        pc_mem_free(path);
    }
    pc_frontend_free(fe);
}
END_TEST

START_TEST(test_fix_adjacent_lines)
{
    char *path = fix_path("adjacent.txt");
    const char *src = "a\nb\nc\n";
    write_file(path, src);
    pc_diag_sink *s = pc_diag_sink_new();
    pc_diag *d = pc_diag_report(s, 0, (pc_loc){path, 1, 1, 1, 2}, NULL, "x");
    pc_diag_fix(s, d, (pc_loc){path, 1, 1, 1, 2}, "A");
    d = pc_diag_report(s, 0, (pc_loc){path, 2, 1, 2, 2}, NULL, "y");
    pc_diag_fix(s, d, (pc_loc){path, 2, 1, 2, 2}, "B");
    pc_model *m = pc_model_new(path, PC_LANG_UNKNOWN);
    pc_file_result one = {.model = m, .sink = s, .source = (char *)src, .source_len = strlen(src)};
    int applied = 0;
    char *diff = dry_run(&one, &applied);
    ck_assert_int_eq(applied, 2);
    ck_assert_ptr_nonnull(strstr(diff, "@@ -1,3 +1,3 @@\n-a\n-b\n+A\n+B\n c\n"));
    free(diff);
    pc_model_free(m);
    pc_diag_sink_free(s);
    pc_mem_free(path);
}
END_TEST

/* One line table (support.h): LF, CRLF and a lone CR each end a line, as CPython and libclang
 * count them.  --fix and the snippet must land on the line the frontend names. */
START_TEST(test_line_breaks_one_rule)
{
    const char *t = "a\rbb\r\nccc\n\r\rd";
    size_t n = strlen(t);
    ck_assert_int_eq(pc_line_start(t, n, 1), 0);
    ck_assert_int_eq(pc_line_start(t, n, 2), 2);
    ck_assert_int_eq(pc_line_start(t, n, 3), 6);
    ck_assert_int_eq(pc_line_start(t, n, 4), 10);
    ck_assert_int_eq(pc_line_start(t, n, 5), 11);
    ck_assert_int_eq(pc_line_start(t, n, 6), 12);
    ck_assert_int_eq(pc_line_start(t, n, 7), -1);
    ck_assert_int_eq(pc_text_offset(t, n, 2, 3), 4);   /* end of "bb": an insertion point */
    ck_assert_int_eq(pc_text_offset(t, n, 2, 4), -1);  /* the CR of CRLF is not a column */
    ck_assert_int_eq(pc_text_offset(t, n, 6, 1), 12);
    const char *line;
    size_t len;
    ck_assert(pc_rep_line(t, n, 3, &line, &len));
    ck_assert_uint_eq(len, 3);
    ck_assert(strncmp(line, "ccc", 3) == 0);
    ck_assert(pc_rep_line(t, n, 4, &line, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert(!pc_rep_line(t, n, 7, &line, &len));
}
END_TEST

/* The PC001 fixtures with their first line ended by a lone CR (and, for Python, every line): the
 * frontends count that CR as a line break, so the fix must rewrite the option's value, not text
 * some lines further down, and the text report must show the option's line under the caret. */
START_TEST(test_fix_lone_cr_lines)
{
    static const char py_line[] = "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])";
    static const char cpp_line[] =
        "    config::SetRuntimeOption(\"stitch_function_num_per_pool\", std::vector<int64_t>{64, 0, 1});";
    static const struct { const char *fixture, *out, *old, *want, *line; bool all; } cases[] = {
        {"pc001_zero_depth_pool.py", "cr_first.py", "=[64, 0, 1])", "=[64, 2, 1])", py_line, false},
        {"pc001_zero_depth_pool.py", "cr_all.py", "=[64, 0, 1])", "=[64, 2, 1])", py_line, true},
        {"pc001_zero_depth_pool.cpp", "cr_first.cpp", "{64, 0, 1}", "{64, 2, 1}", cpp_line, false},
    };
    pc_frontend *fe = pc_frontend_new();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[1024];
        snprintf(src, sizeof src, "%s/tests/fixtures/checks/%s", PC_SOURCE_DIR, cases[i].fixture);
        char *err = NULL, *text = pc_read_file(src, NULL, &err);
        ck_assert_msg(text != NULL, "%s", err ? err : src);
        for (char *p = text; *p; p++)
            if (*p == '\n') {
                *p = '\r';
                if (!cases[i].all)
                    break;
            }
        char *path = fix_path(cases[i].out);
        write_file(path, text);
        pc_file_result *fr = analyse(fe, path);
        ck_assert_msg(count_id(fr, "PC001") >= 1, "%s: no PC001", cases[i].out);
        /* the snippet under the error is the option's line */
        pc_report_opts o = {0};
        pc_file_result *one[1] = {fr};
        char *shown = render(one, 1, &o);
        pc_sb want = {0};
        pc_sb_printf(&want, "(configured [64, 0, 1], suggested [64, 2, 1]) [PC001]\n%s\n", cases[i].line);
        ck_assert_msg(strstr(shown, want.data), "%s: the line under the error is not the option's:\n%s", cases[i].out, shown);
        pc_sb_free(&want);
        free(shown);
        ck_assert_int_ge(pc_rep_apply_fixes(fr, false, NULL), 1);
        pc_file_result_free(fr);
        char *fixed = pc_read_file(path, NULL, &err);
        /* exactly the value changed: the rest of the text, line breaks included, is as it was */
        char *old_at = strstr(text, cases[i].old);
        ck_assert_ptr_nonnull(old_at);
        ck_assert_uint_eq(strlen(fixed), strlen(text));
        ck_assert_msg(strncmp(fixed, text, (size_t)(old_at - text)) == 0, "%s changed before the value", cases[i].out);
        ck_assert_msg(strncmp(fixed + (old_at - text), cases[i].want, strlen(cases[i].want)) == 0, "%s fixed to:\n%s",
                      cases[i].out, fixed);
        size_t after = (size_t)(old_at - text) + strlen(cases[i].old);
        ck_assert_str_eq(fixed + after, text + after);
        pc_mem_free(fixed);
        pc_mem_free(text);
        pc_mem_free(path);
    }
    pc_frontend_free(fe);
}
END_TEST

/* --fix through a symbolic link rewrites the link's target (its mode kept); the link stays. */
START_TEST(test_fix_through_symlink)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/tests/fixtures/checks/pc001_zero_depth_pool.py", PC_SOURCE_DIR);
    char *err = NULL, *text = pc_read_file(src, NULL, &err);
    ck_assert_ptr_nonnull(text);
    char *target = fix_path("link_target.py"), *link = fix_path("link.py");
    write_file(target, text);
    chmod(target, 0751);
    unlink(link);
    ck_assert_int_eq(symlink("link_target.py", link), 0);
    pc_frontend *fe = pc_frontend_new();
    pc_file_result *fr = analyse(fe, link);
    ck_assert_int_ge(pc_rep_apply_fixes(fr, false, NULL), 1);
    pc_file_result_free(fr);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert_msg(S_ISLNK(st.st_mode), "--fix replaced the symbolic link with a regular file");
    ck_assert_int_eq(stat(target, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0751);
    char *fixed = pc_read_file(target, NULL, &err);
    ck_assert_msg(strstr(fixed, "stitch_function_num_per_pool=[64, 2, 1])"), "the target was not fixed:\n%s", fixed);
    pc_mem_free(fixed);
    pc_frontend_free(fe);
    pc_mem_free(text);
    pc_mem_free(target);
    pc_mem_free(link);
}
END_TEST

/* ---- the notes a user may silence: PC013, PC014, PC015 ------------------------------ */

static const char NOTE_KERNEL[] =
    "import pypto\n"
    "\n"
    "\n"
    "@pypto.frontend.jit\n"
    "def k(\n"
    "    a: pypto.Tensor([64, 16], pypto.DT_FP32),\n"
    "    out: pypto.Tensor([64, 16], pypto.DT_FP32),\n"
    "):\n"
    "    for i, t in pypto.loop(0, 1.5, 1, name=\"l0\"):%s\n" /* 9: PC014 */
    "        x = pypto.frobnicate(a)%s\n"                     /* 10: PC013 */
    "        out[:] = pypto.add(a, a)\n";

/* Analyse text as path with --checks=checks (NULL: all). */
static pc_file_result *analyse_text(pc_frontend *fe, const char *path, const char *text, const char *checks)
{
    pc_check_opts o;
    pc_check_opts_init(&o);
    o.checks = checks;
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, path, text, strlen(text), &o, &err);
    ck_assert_msg(fr != NULL, "%s", err ? err : "");
    ck_assert_msg(!fr->model->fatal, "%s could not be analysed", path);
    return fr;
}

/* Diagnostics without a check id whose message contains text. */
static size_t count_idless(const pc_file_result *fr, const char *text)
{
    size_t n, c = 0;
    const pc_diag *d = pc_diag_items(fr->sink, &n);
    for (size_t i = 0; i < n; i++)
        c += d[i].check < 0 && strstr(d[i].message, text) != NULL;
    return c;
}

START_TEST(test_frontend_notes_have_checks)
{
    pc_frontend *fe = pc_frontend_new();
    char src[2048];
    snprintf(src, sizeof src, NOTE_KERNEL, "", "");
    pc_file_result *fr = analyse_text(fe, "k.py", src, NULL);
    ck_assert_uint_eq(count_id(fr, "PC013"), 1);
    ck_assert_uint_eq(count_id(fr, "PC014"), 1);
    ck_assert_uint_eq(count_idless(fr, "result shape not inferred"), 0);
    ck_assert_uint_eq(count_idless(fr, "loop bound"), 0);
    /* in the model and its JSON the messages carry the id */
    int with_check = 0;
    for (int i = 0; i < fr->model->nmessages; i++)
        with_check += fr->model->messages[i].check != NULL;
    ck_assert_int_eq(with_check, 2);
    /* SARIF: results with their rules, not tool execution notifications */
    pc_report_opts so = {.format = PC_FMT_SARIF};
    char *out = render(&fr, 1, &so);
    cJSON *doc = cJSON_Parse(out);
    ck_assert_ptr_nonnull(doc);
    cJSON *run = cJSON_GetArrayItem(get(doc, "runs"), 0);
    int seen13 = 0, seen14 = 0;
    cJSON *r;
    cJSON_ArrayForEach(r, get(run, "results")) {
        const char *id = get(r, "ruleId")->valuestring;
        int index = (int)get(r, "ruleIndex")->valuedouble;
        if (strcmp(id, "PC013") == 0) {
            seen13++;
            ck_assert_int_eq(index, 12);
            ck_assert_str_eq(get(r, "level")->valuestring, "note");
            ck_assert_ptr_nonnull(strstr(get(get(r, "message"), "text")->valuestring, "result shape not inferred"));
        } else if (strcmp(id, "PC014") == 0) {
            seen14++;
            ck_assert_int_eq(index, 13);
            ck_assert_ptr_nonnull(strstr(get(get(r, "message"), "text")->valuestring, "loop bound '1.5'"));
        }
    }
    ck_assert_int_eq(seen13, 1);
    ck_assert_int_eq(seen14, 1);
    cJSON *note;
    cJSON_ArrayForEach(note, get(cJSON_GetArrayItem(get(run, "invocations"), 0), "toolExecutionNotifications")) {
        const char *text = get(get(note, "message"), "text")->valuestring;
        ck_assert_msg(!strstr(text, "result shape") && !strstr(text, "loop bound"), "a notification: %s", text);
    }
    cJSON_Delete(doc);
    free(out);
    pc_file_result_free(fr);

    /* --checks turns each off, by id or by name */
    fr = analyse_text(fe, "k.py", src, "-PC013");
    ck_assert_uint_eq(count_id(fr, "PC013"), 0);
    ck_assert_uint_eq(count_id(fr, "PC014"), 1);
    ck_assert_uint_eq(count_idless(fr, "result shape not inferred"), 0);
    pc_file_result_free(fr);
    fr = analyse_text(fe, "k.py", src, "PC*,-unevaluated-loop-bound");
    ck_assert_uint_eq(count_id(fr, "PC013"), 1);
    ck_assert_uint_eq(count_id(fr, "PC014"), 0);
    ck_assert_uint_eq(count_idless(fr, "loop bound"), 0);
    pc_file_result_free(fr);

    /* noqa on the line silences that one */
    snprintf(src, sizeof src, NOTE_KERNEL, "  # noqa: PC014", "  # noqa: shape-not-inferred");
    fr = analyse_text(fe, "k.py", src, NULL);
    ck_assert_uint_eq(count_id(fr, "PC013"), 0);
    ck_assert_uint_eq(count_id(fr, "PC014"), 0);
    ck_assert_uint_ge(pc_diag_suppressed(fr->sink), 2);
    pc_file_result_free(fr);

    /* C++: an API op outside the table is PC013 too (its shape guessed from its operands) */
    static const char cpp[] =
        "#include \"tilefwk/tilefwk.h\"\n"
        "using namespace npu::tile_fwk;\n"
        "void Build()\n"
        "{\n"
        "    Tensor a(DT_FP32, {64, 16}, \"a\");\n"
        "    Tensor out(DT_FP32, {64, 16}, \"out\");\n"
        "    FUNCTION(\"k\", {a}, {out})\n"
        "    {\n"
        "        LOOP(\"l0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1))\n"
        "        {\n"
        "            Tensor order = ArgSort(a, 1);\n" /* 11 */
        "            out = Add(a, a);\n"
        "        }\n"
        "    }\n"
        "}\n";
    fr = analyse_text(fe, "k.cpp", cpp, NULL);
    ck_assert_uint_eq(count_id(fr, "PC013"), 1);
    ck_assert_uint_eq(count_id(fr, "PC012"), 0);
    size_t nd;
    const pc_diag *d = pc_diag_items(fr->sink, &nd);
    for (size_t i = 0; i < nd; i++)
        if (d[i].id && strcmp(d[i].id, "PC013") == 0) {
            ck_assert_uint_eq(d[i].loc.line, 11);
            ck_assert_ptr_nonnull(strstr(d[i].message, "'ArgSort': result shape not inferred"));
        }
    pc_file_result_free(fr);
    fr = analyse_text(fe, "k.cpp", cpp, "-shape-not-inferred");
    ck_assert_uint_eq(count_id(fr, "PC013"), 0);
    pc_file_result_free(fr);

    /* the tile-split note is PC015: on by default, off with --checks=-PC015 */
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/tiles/no_tile_setter.py", PC_SOURCE_DIR);
    char *err = NULL, *tiles = pc_read_file(path, NULL, &err);
    ck_assert_msg(tiles != NULL, "%s", err ? err : path);
    fr = analyse_text(fe, path, tiles, NULL);
    ck_assert_uint_eq(count_id(fr, "PC015"), 1);
    ck_assert_uint_eq(count_idless(fr, "counted as one piece"), 0);
    pc_file_result_free(fr);
    fr = analyse_text(fe, path, tiles, "-tile-split-unknown");
    ck_assert_uint_eq(count_id(fr, "PC015"), 0);
    ck_assert_uint_eq(count_idless(fr, "counted as one piece"), 0);
    pc_file_result_free(fr);
    pc_mem_free(tiles);
    pc_frontend_free(fe);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("report");
    TCase *t = tcase_create("formats");
    tcase_add_test(t, test_text_golden);
    tcase_add_test(t, test_text_promoted_unlocated_tabs);
    tcase_add_test(t, test_text_color_summary_verbose);
    tcase_add_test(t, test_json);
    tcase_add_test(t, test_repeated_external_diagnostic);
    tcase_add_test(t, test_sarif);
    tcase_add_test(t, test_sarif_columns_and_paths);
    tcase_add_test(t, test_github);
    suite_add_tcase(s, t);
    t = tcase_create("emit-and-fix");
    tcase_add_test(t, test_emit_config);
    tcase_add_test(t, test_fix_dry_run_and_apply);
    tcase_add_test(t, test_fix_insert_cpp);
    tcase_add_test(t, test_fix_overlap_hunks_eof);
    tcase_add_test(t, test_fix_fixture_copies);
    tcase_add_test(t, test_fix_adjacent_lines);
    tcase_add_test(t, test_line_breaks_one_rule);
    tcase_add_test(t, test_fix_lone_cr_lines);
    tcase_add_test(t, test_fix_through_symlink);
    tcase_add_test(t, test_frontend_notes_have_checks);
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
