/* check_cli.c - end-to-end behaviour of the `poolcheck` command: exit statuses, inputs, the
 * seed examples in JSON, and the model's JSON round trip. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers/test_run.h"
#include "poolcheck/frontend.h"
#include "poolcheck/model.h"

#define SEED_PY PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"
#define SEED_CPP PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp"

static char *tmpdir(void)
{
    char tmpl[] = "/tmp/pccli-XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(version_and_help)
{
    pc_test_output o = pc_test_poolcheck("--version", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "poolcheck "));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--help", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "--emit-config"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck(NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    /* `model --help` says what the command prints, not only its usage line */
    o = pc_test_poolcheck("model", "--help", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "Print the kernel model of FILE as JSON"));
    ck_assert_ptr_nonnull(strstr(o.out, "Exit status:"));
    pc_test_output_free(&o);
    /* the top-level help says what the tool does */
    o = pc_test_poolcheck("--help", NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "predicts, per kernel, the minimal non-zero stitch_function_num_per_pool"));
    pc_test_output_free(&o);
}
END_TEST

START_TEST(usage_errors)
{
    pc_test_output o = pc_test_poolcheck("check", "--no-such-option", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "unknown option '--no-such-option'"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--set", "stitch_function_max_num", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "--set"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--bind", "n=abc", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "/nonexistent/kernel.py", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "/nonexistent/kernel.py"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("check", "--format=xml", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 2);
    pc_test_output_free(&o);
}
END_TEST

static cJSON *check_json(const char *file, int want_status, const char *extra)
{
    pc_test_output o = extra ? pc_test_poolcheck("check", "--format=json", "--no-config-lookup", extra, file, NULL)
                             : pc_test_poolcheck("check", "--format=json", "--no-config-lookup", file, NULL);
    ck_assert_msg(o.status == want_status, "exit %d (want %d): %s", o.status, want_status, o.err);
    cJSON *doc = cJSON_Parse(o.out);
    ck_assert_msg(doc != NULL, "not JSON: %s", o.out);
    pc_test_output_free(&o);
    return doc;
}

static void assert_triple(cJSON *k, const char *key, int a, int b, int c)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(k, key);
    ck_assert_msg(cJSON_GetArraySize(v) == 3, "%s is not a triple", key);
    ck_assert_int_eq(cJSON_GetArrayItem(v, 0)->valueint, a);
    ck_assert_int_eq(cJSON_GetArrayItem(v, 1)->valueint, b);
    ck_assert_int_eq(cJSON_GetArrayItem(v, 2)->valueint, c);
}

static const char *pool_of(cJSON *k, const char *name)
{
    cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(k, "tensors")) {
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(t, "name")->valuestring, name))
            return cJSON_GetObjectItemCaseSensitive(t, "pool")->valuestring;
    }
    return "(missing)";
}

static void assert_seed(const char *file)
{
    cJSON *doc = check_json(file, 0, NULL);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(doc, "version")->valueint, 1);
    cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0);
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(k, "name")->valuestring, "k_tmp_to_d_emb");
    assert_triple(k, "predicted", 64, 1, 1);
    assert_triple(k, "required", 1, 1, 1);
    assert_triple(k, "configured", 128, 128, 128);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(k, "instances")->valueint, 129);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(k, "device_tasks")->valueint, 2);
    ck_assert_str_eq(pool_of(k, "dy"), "none");
    ck_assert_str_eq(pool_of(k, "weight"), "none");
    ck_assert_str_eq(pool_of(k, "output1"), "none");
    ck_assert_str_eq(pool_of(k, "output2"), "none");
    ck_assert_str_eq(pool_of(k, "dx"), "root_inner");
    ck_assert_str_eq(pool_of(k, "tmp_assemble"), "assemble_outcast");
    ck_assert_str_eq(pool_of(k, "tmp_exclusive"), "exclusive_outcast");
    cJSON *ws = cJSON_GetObjectItemCaseSensitive(k, "workspace_bytes");
    ck_assert_int_eq((int)cJSON_GetObjectItemCaseSensitive(ws, "predicted")->valuedouble, 65536);
    ck_assert_int_eq((int)cJSON_GetObjectItemCaseSensitive(ws, "default")->valuedouble, 1146880);
    cJSON_Delete(doc);
}

START_TEST(seed_python) { assert_seed(SEED_PY); }
END_TEST

START_TEST(seed_cpp) { assert_seed(SEED_CPP); }
END_TEST

/* A zero-depth pool the kernel needs is an error (PC001): exit 1. */
START_TEST(zero_depth_exit_1)
{
    cJSON *doc = check_json(SEED_PY, 1, "--set=stitch_function_num_per_pool=64,0,1");
    bool found = false;
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "diagnostics")) {
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(d, "check")->valuestring, "PC001"))
            found = true;
    }
    ck_assert(found);
    cJSON_Delete(doc);
}
END_TEST

/* `poolcheck model` prints JSON that reads back into a model equal to the frontend's. */
static void model_round_trip(const char *file)
{
    pc_test_output o = pc_test_poolcheck("model", file, NULL);
    ck_assert_msg(o.status == 0, "model exit %d: %s", o.status, o.err);
    char *err = NULL;
    pc_model *back = pc_model_from_json(o.out, strlen(o.out), &err);
    ck_assert_msg(back != NULL, "from_json: %s", err ? err : "?");
    pc_frontend *fe = pc_frontend_new();
    pc_model *direct = pc_frontend_parse(fe, file, NULL, 0, NULL);
    char where[256];
    ck_assert_msg(pc_model_equal(direct, back, where, sizeof where), "models differ at %s", where);
    char *again = pc_model_to_json(back);
    /* the CLI prints a trailing newline */
    ck_assert_int_eq(strncmp(again, o.out, strlen(again)), 0);
    free(again);
    pc_model_free(back);
    pc_model_free(direct);
    pc_frontend_free(fe);
    pc_test_output_free(&o);
}

START_TEST(model_round_trip_python) { model_round_trip(SEED_PY); }
END_TEST

START_TEST(model_round_trip_cpp) { model_round_trip(SEED_CPP); }
END_TEST

/* Directories are searched recursively; --exclude skips; a file without a kernel is fine. */
START_TEST(directories_and_no_kernel)
{
    char *d = tmpdir();
    char path[512], sub[512];
    snprintf(sub, sizeof sub, "%s/sub", d);
    mkdir(sub, 0700);
    snprintf(path, sizeof path, "%s/plain.py", d);
    write_file(path, "x = 1\n");
    snprintf(path, sizeof path, "%s/sub/seed.py", d);
    FILE *in = fopen(SEED_PY, "r");
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, in);
    buf[n] = 0;
    fclose(in);
    write_file(path, buf);
    snprintf(path, sizeof path, "%s/notes.txt", d);
    write_file(path, "not a kernel");

    cJSON *doc = check_json(d, 0, NULL);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "kernels")), 1);
    cJSON_Delete(doc);
    doc = check_json(d, 0, "--exclude=seed*");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "kernels")), 0);
    cJSON_Delete(doc);

    snprintf(path, sizeof path, "%s/plain.py", d);
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", path, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_str_eq(o.out, "");
    pc_test_output_free(&o);
    free(d);
}
END_TEST

/* A subcommand name wins over a file of that name; `./logs` names the file. */
START_TEST(subcommand_vs_file)
{
    char *d = tmpdir();
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(d), 0);
    write_file("model", "y = 2\n");
    char *argv[] = {PC_BINARY_DIR "/bin/poolcheck", "--lang=python", "./model", NULL};
    pc_test_output o = pc_test_run(argv, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    pc_test_output_free(&o);
    char *argv2[] = {PC_BINARY_DIR "/bin/poolcheck", "model", NULL};
    o = pc_test_run(argv2, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "needs a FILE"));
    pc_test_output_free(&o);
    ck_assert_int_eq(chdir(cwd), 0);
    free(d);
}
END_TEST

/* A mistyped subcommand that names no file: the nearest subcommand as a hint, exit 2.
 * The same word as an existing file is read as a kernel file; a word far from every subcommand
 * is a file that cannot be opened. */
START_TEST(mistyped_subcommand)
{
    char *d = tmpdir();
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(d), 0);
    static const char *const typo[][2] = {{"chek", "check"}, {"lgos", "logs"}, {"modle", "model"},
                                          {"plna", "plan"}, {"chekc", "check"}};
    for (size_t i = 0; i < sizeof typo / sizeof *typo; i++) {
        char *argv[] = {PC_BINARY_DIR "/bin/poolcheck", (char *)typo[i][0], "x.py", NULL};
        pc_test_output o = pc_test_run(argv, NULL);
        char want[128];
        snprintf(want, sizeof want, "poolcheck: error: unknown command '%s'; did you mean '%s'?\n", typo[i][0],
                 typo[i][1]);
        ck_assert_int_eq(o.status, 2);
        ck_assert_str_eq(o.err, want);
        ck_assert_str_eq(o.out, "");
        pc_test_output_free(&o);
    }
    /* far from every subcommand: an input that cannot be opened */
    char *far[] = {PC_BINARY_DIR "/bin/poolcheck", "frobnicate", NULL};
    pc_test_output o = pc_test_run(far, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "cannot open 'frobnicate'"));
    ck_assert_ptr_null(strstr(o.err, "unknown command"));
    pc_test_output_free(&o);
    /* a file of that name exists: it is an input (with no kernel: exit 0) */
    write_file("chek", "y = 2\n");
    char *file[] = {PC_BINARY_DIR "/bin/poolcheck", "--lang=python", "chek", NULL};
    o = pc_test_run(file, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    pc_test_output_free(&o);
    char *first[] = {PC_BINARY_DIR "/bin/poolcheck", "chek", NULL};
    o = pc_test_run(first, NULL);
    ck_assert_ptr_null(strstr(o.err, "unknown command"));
    pc_test_output_free(&o);
    unlink("chek");
    ck_assert_int_eq(chdir(cwd), 0);
    rmdir(d);
    free(d);
}
END_TEST

/* `logs` on a path that does not exist: the error alone, exit 2; no table of unknowns and no hint
 * about INFO logging (the run is not to blame).  A readable log next to it is still reported. */
START_TEST(logs_missing_path)
{
    pc_test_output o = pc_test_poolcheck("logs", "/nonexistent/dir/run.log", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_str_eq(o.err, "poolcheck: error: cannot open '/nonexistent/dir/run.log': No such file or directory\n");
    ck_assert_str_eq(o.out, "");
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, "/nonexistent/dir/run.log", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_str_eq(o.out, "");
    ck_assert_ptr_null(strstr(o.err, "INFO"));
    ck_assert_ptr_null(strstr(o.err, "unknown"));
    pc_test_output_free(&o);
    o = pc_test_poolcheck("logs", "--kernel", SEED_PY, "/nonexistent/dir/run.log",
                          PC_SOURCE_DIR "/examples/logs/k_tmp_to_d_emb.sim.log", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "cannot open '/nonexistent/dir/run.log'"));
    ck_assert_ptr_nonnull(strstr(o.out, "match"));
    pc_test_output_free(&o);
}
END_TEST

static char *slurp_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = 0;
    fclose(f);
    return b;
}

/* --fix reports what remains after the rewrite (as ruff --fix does), not the finding it just
 * fixed, and takes the exit status from what remains. */
START_TEST(fix_reports_what_remains)
{
    char *d = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/k.py", d);
    /* the seed kernel with a zero assemble depth (PC001, an error) and an ignored option (PC004,
     * a warning the fix does not touch) */
    char *seed = slurp_file(SEED_PY);
    char *at = strstr(seed, "\n@pypto.frontend.jit");
    ck_assert_ptr_nonnull(at);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fwrite(seed, 1, (size_t)(at - seed), f);
    fputs("\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])\n"
          "pypto.experimental.set_runtime_options(stitch_function_max_num=128)\n\n", f);
    fputs(at, f);
    fclose(f);
    free(seed);

    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", "--no-summary", path, NULL);
    ck_assert_int_eq(o.status, 1);
    ck_assert_ptr_nonnull(strstr(o.out, "[PC001]"));
    pc_test_output_free(&o);

    o = pc_test_poolcheck("check", "--no-config-lookup", "--no-summary", "--fix", path, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    ck_assert_ptr_null(strstr(o.out, "[PC001]"));        /* fixed: not reported again */
    ck_assert_ptr_nonnull(strstr(o.out, "[PC004]"));     /* what remains, on stdout */
    ck_assert_ptr_nonnull(strstr(o.out, "stitch_function_num_per_pool=[64, 2, 1]"));
    ck_assert_ptr_nonnull(strstr(o.err, "fixed 1 finding in 1 file; 1 remains"));
    pc_test_output_free(&o);
    char *after = slurp_file(path);
    ck_assert_ptr_nonnull(strstr(after, "stitch_function_num_per_pool=[64, 2, 1]"));
    free(after);

    /* nothing left to fix: the same findings as a plain check, exit 0 */
    o = pc_test_poolcheck("check", "--no-config-lookup", "--no-summary", "--fix", path, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.err, "fixed 0 findings in 0 files; 1 remains"));
    pc_test_output_free(&o);

    /* --warnings-as-errors on what remains: exit 1 from the remaining PC004 */
    o = pc_test_poolcheck("check", "--no-config-lookup", "--no-summary", "--fix",
                          "--warnings-as-errors=PC004", path, NULL);
    ck_assert_int_eq(o.status, 1);
    pc_test_output_free(&o);
    unlink(path);
    rmdir(d);
    free(d);
}
END_TEST

/* One Content-Length frame of an LSP message (the JSON is consumed). */
static void frame(char **buf, size_t *len, cJSON *msg)
{
    char *body = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    size_t n = strlen(body);
    char head[64];
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
    *buf = realloc(*buf, *len + (size_t)h + n + 1);
    memcpy(*buf + *len, head, (size_t)h);
    memcpy(*buf + *len + h, body, n + 1);
    *len += (size_t)h + n;
    free(body);
}

static cJSON *lsp_hover(int id, int line, int character)
{
    cJSON *m = cJSON_Parse("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/hover\",\"params\":"
                           "{\"textDocument\":{\"uri\":\"file:///tmp/pc-numbering/k.py\"}}}");
    cJSON_AddNumberToObject(m, "id", id);
    cJSON *pos = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(m, "params"), "position");
    cJSON_AddNumberToObject(pos, "line", line);
    cJSON_AddNumberToObject(pos, "character", character);
    return m;
}

/* DeviceTasks are numbered from 0 in the text report, JSON, the HTML report and the editor's
 * hovers alike (docs/model.md section 5): the seed example's first task holds instances 0-127,
 * the second instance 128. */
START_TEST(device_task_numbering)
{
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "why root_inner = 64: DeviceTask 0 (instances 0-127)"));
    pc_test_output_free(&o);

    o = pc_test_poolcheck("check", "--no-config-lookup", "--format=json", SEED_PY, NULL);
    cJSON *doc = cJSON_Parse(o.out);
    ck_assert_ptr_nonnull(doc);
    cJSON *why = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0), "why");
    cJSON *w0 = cJSON_GetArrayItem(why, 0);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(w0, "task")->valueint, 0);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(w0, "first_instance")->valueint, 0);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(w0, "last_instance")->valueint, 127);
    cJSON_Delete(doc);
    pc_test_output_free(&o);

    char html[] = "/tmp/pc-numbering-XXXXXX";
    int fd = mkstemp(html);
    ck_assert_int_ge(fd, 0);
    close(fd);
    o = pc_test_poolcheck("check", "--no-config-lookup", "--report", html, SEED_PY, NULL);
    ck_assert_int_eq(o.status, 0);
    pc_test_output_free(&o);
    char *page = slurp_file(html);
    ck_assert_ptr_nonnull(strstr(page, "DeviceTask T0: instances 0\xE2\x80\x93" "127"));
    ck_assert_ptr_nonnull(strstr(page, "DeviceTask T1: instances 128\xE2\x80\x93" "128"));
    ck_assert_ptr_null(strstr(page, "T2"));
    free(page);
    unlink(html);

    /* the editor: hovers on l_loop_1 (all in the first task) and l_loop_2 (both tasks) */
    char *src = slurp_file(SEED_PY);
    int l1 = -1, l2 = -1, col = 0, line = 0;
    for (const char *p = src; *p; line++) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        const char *q = strstr(p, "\"l_loop_");
        if (q && q < end && (q[8] == '1' || q[8] == '2')) {
            const char *f = strstr(p, "for ");
            col = (int)(f - p);
            if (q[8] == '1')
                l1 = line;
            else
                l2 = line;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    ck_assert(l1 >= 0 && l2 >= 0);
    char *in = NULL;
    size_t len = 0;
    frame(&in, &len, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}"));
    frame(&in, &len, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}"));
    cJSON *open = cJSON_Parse("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
                              "{\"uri\":\"file:///tmp/pc-numbering/k.py\",\"languageId\":\"python\",\"version\":1}}}");
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(open, "params"),
                                                             "textDocument"), "text", src);
    frame(&in, &len, open);
    frame(&in, &len, lsp_hover(2, l1, col));
    frame(&in, &len, lsp_hover(3, l2, col));
    frame(&in, &len, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"shutdown\"}"));
    frame(&in, &len, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"));
    char *argv[] = {PC_BINARY_DIR "/bin/poolcheck-lsp", NULL};
    o = pc_test_run(argv, in);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    ck_assert_msg(strstr(o.out, "64 instances, in DeviceTask 0 (of 2, numbered from 0)"), "l_loop_1 hover: %s", o.out);
    ck_assert_msg(strstr(o.out, "across 2 DeviceTasks (0 to 1 of 2, numbered from 0)"), "l_loop_2 hover: %s", o.out);
    pc_test_output_free(&o);
    free(in);
    free(src);
}
END_TEST

/* --fix-dry-run inserting the module-level call before the decorator keeps blank lines between
 * the call and the decorator. */
START_TEST(fix_dry_run_blank_line_before_decorator)
{
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", "--fix-dry-run", SEED_PY, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "\n+pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n"
                                "+\n+\n @pypto.frontend.jit\n"), "%s", o.out);
    pc_test_output_free(&o);
}
END_TEST

/* A Python syntax error: one located diagnostic, exit 2, no traceback. */
START_TEST(syntax_error_exit_2)
{
    char *d = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/broken.py", d);
    write_file(path, "import pypto\n\n@pypto.frontend.jit\ndef k(x:\n    pass\n");
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", path, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.out, "broken.py:"));
    ck_assert_ptr_null(strstr(o.out, "Traceback"));
    ck_assert_ptr_null(strstr(o.err, "Traceback"));
    pc_test_output_free(&o);
    free(d);
}
END_TEST

/* --shapes: several binding sets, element-wise maximum; a broken shapes file is exit 2. */
START_TEST(shapes_file)
{
    char *d = tmpdir();
    char k[512], s[512], bad[512];
    snprintf(k, sizeof k, "%s/dyn.py", d);
    write_file(k, "import pypto\n\n"
                  "@pypto.frontend.jit\n"
                  "def dyn(x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),\n"
                  "        y: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):\n"
                  "    t = pypto.tensor([1, 16], pypto.DT_FP32, \"t\")\n"
                  "    for i in pypto.loop(x.shape[0], name=\"l0\"):\n"
                  "        t[:] = x[i:i + 1, :] + 1.0\n"
                  "    for j in pypto.loop(4, name=\"l1\"):\n"
                  "        y[j:j + 1, :] = t + 2.0\n");
    snprintf(s, sizeof s, "%s/shapes.json", d);
    write_file(s, "[{\"x.shape[0]\": 10}, {\"x.shape[0]\": 300}]");
    char arg[600];
    snprintf(arg, sizeof arg, "--shapes=%s", s);
    cJSON *doc = check_json(k, 0, arg);
    cJSON *kern = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0);
    assert_triple(kern, "predicted", 0, 0, 128);
    cJSON_Delete(doc);
    doc = check_json(k, 0, "--bind=x.shape[0]=10");
    kern = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0);
    assert_triple(kern, "predicted", 0, 0, 10);
    cJSON_Delete(doc);
    doc = check_json(k, 0, NULL);
    kern = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0);
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(kern, "predicted"), 2)));
    ck_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(kern, "unknowns"), 0)->valuestring,
                     "x.shape[0]");
    cJSON_Delete(doc);
    snprintf(bad, sizeof bad, "%s/bad.json", d);
    write_file(bad, "[{\"x.shape[0]\": 10},");
    snprintf(arg, sizeof arg, "--shapes=%s", bad);
    pc_test_output o = pc_test_poolcheck("check", arg, k, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "bad.json:1:"));
    pc_test_output_free(&o);
    free(d);
}
END_TEST

static bool has_check(cJSON *doc, const char *id)
{
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "diagnostics")) {
        cJSON *c = cJSON_GetObjectItemCaseSensitive(d, "check");
        if (cJSON_IsString(c) && !strcmp(c->valuestring, id))
            return true;
    }
    return false;
}

/* .poolcheck.json in a parent directory applies (runtime options, checks, bindings);
 * --no-config-lookup ignores it; --config's tile_fwk_config.json applies; broken files exit 2. */
START_TEST(project_and_config_files)
{
    char *d = tmpdir();
    char sub[512], k[600], proj[600], cfg[600], arg[700];
    snprintf(sub, sizeof sub, "%s/kernels", d);
    mkdir(sub, 0700);
    snprintf(k, sizeof k, "%s/seed.py", sub);
    FILE *in = fopen(SEED_PY, "r");
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, in);
    buf[n] = 0;
    fclose(in);
    write_file(k, buf);
    snprintf(proj, sizeof proj, "%s/.poolcheck.json", d);
    write_file(proj, "{\"checks\": \"-PC009\", \"runtime\": {\"stitch_function_num_per_pool\": [64, 0, 1]}}");

    char *argv[] = {PC_BINARY_DIR "/bin/poolcheck", "check", "--format=json", k, NULL};
    pc_test_output o = pc_test_run(argv, NULL);
    ck_assert_msg(o.status == 1, "exit %d: %s", o.status, o.err);
    cJSON *doc = cJSON_Parse(o.out);
    ck_assert(has_check(doc, "PC001"));
    ck_assert(!has_check(doc, "PC009"));
    cJSON_Delete(doc);
    pc_test_output_free(&o);

    doc = check_json(k, 0, NULL); /* check_json passes --no-config-lookup */
    ck_assert(!has_check(doc, "PC001"));
    ck_assert(has_check(doc, "PC009"));
    cJSON_Delete(doc);

    snprintf(cfg, sizeof cfg, "%s/tile_fwk_config.json", d);
    write_file(cfg, "{\"runtime\": {\"stitch_function_num_per_pool\": [64, 2, 0]}}");
    snprintf(arg, sizeof arg, "--config=%s", cfg);
    doc = check_json(k, 1, arg);
    ck_assert(has_check(doc, "PC001"));
    cJSON *kern = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0);
    assert_triple(kern, "configured", 64, 2, 0);
    cJSON_Delete(doc);

    write_file(cfg, "{\"runtime\": {\"stitch_function_num_per_pool\": [64, 2, 0]");
    o = pc_test_poolcheck("check", "--no-config-lookup", arg, k, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "tile_fwk_config.json:1:"));
    pc_test_output_free(&o);

    write_file(proj, "{\"chekcs\": \"PC001\"}");
    o = pc_test_run(argv, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, ".poolcheck.json:1:"));
    pc_test_output_free(&o);
    free(d);
}
END_TEST

/* .poolcheck.json binds symbols with `bind` (the key the editor settings use), or with the
 * deprecated alias `bindings`; both keys in one file are an error (docs/model.md 8.1). */
START_TEST(project_file_bind_key)
{
    char *d = tmpdir();
    char k[600], proj[600];
    snprintf(k, sizeof k, "%s/dyn.py", d);
    char *src = slurp_file(PC_SOURCE_DIR "/tests/fixtures/python/dynamic_trip.py");
    write_file(k, src);
    free(src);
    snprintf(proj, sizeof proj, "%s/.poolcheck.json", d);
    static const char *const files[] = {"{\"bind\": {\"x.shape[0]\": 40}}", "{\"bindings\": {\"x.shape[0]\": 40}}",
                                        "{\"bind\": [{\"x.shape[0]\": 40}, {\"x.shape[0]\": 8}]}"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        write_file(proj, files[i]);
        char *argv[] = {PC_BINARY_DIR "/bin/poolcheck", "check", "--format=json", k, NULL};
        pc_test_output o = pc_test_run(argv, NULL);
        ck_assert_msg(o.status == 0, "%s: exit %d: %s", files[i], o.status, o.err);
        cJSON *doc = cJSON_Parse(o.out);
        ck_assert_ptr_nonnull(doc);
        assert_triple(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "kernels"), 0), "predicted", 40, 0, 0);
        cJSON_Delete(doc);
        pc_test_output_free(&o);
    }
    write_file(proj, "{\"bindings\": {\"x.shape[0]\": 40},\n \"bind\": {\"x.shape[0]\": 8}}");
    char *argv[] = {PC_BINARY_DIR "/bin/poolcheck", "check", k, NULL};
    pc_test_output o = pc_test_run(argv, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(strstr(o.err, ".poolcheck.json:1:2: `bindings` and `bind` both given"), "%s", o.err);
    pc_test_output_free(&o);
    write_file(proj, "{\"bind\": \"x.shape[0]=40\"}");
    o = pc_test_run(argv, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(strstr(o.err, "`bind` must be an object or an array of objects"), "%s", o.err);
    pc_test_output_free(&o);
    unlink(proj);
    unlink(k);
    rmdir(d);
    free(d);
}
END_TEST

/* One run mixes languages (language from the extension). */
START_TEST(mixed_languages)
{
    pc_test_output o = pc_test_poolcheck("check", "--format=json", "--no-config-lookup", SEED_CPP, SEED_PY, NULL);
    ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
    cJSON *doc = cJSON_Parse(o.out);
    cJSON *ks = cJSON_GetObjectItemCaseSensitive(doc, "kernels");
    ck_assert_int_eq(cJSON_GetArraySize(ks), 2);
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ks, 0), "file")->valuestring, ".cpp"));
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ks, 1), "file")->valuestring, ".py"));
    assert_triple(cJSON_GetArrayItem(ks, 0), "predicted", 64, 1, 1);
    assert_triple(cJSON_GetArrayItem(ks, 1), "predicted", 64, 1, 1);
    cJSON_Delete(doc);
    pc_test_output_free(&o);
    /* the same with two worker processes: same document */
    o = pc_test_poolcheck("check", "--format=json", "--no-config-lookup", "-j", "2", SEED_CPP, SEED_PY, NULL);
    ck_assert_msg(o.status == 0, "-j 2 exit %d: %s", o.status, o.err);
    doc = cJSON_Parse(o.out);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "kernels")), 2);
    cJSON_Delete(doc);
    pc_test_output_free(&o);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, version_and_help);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, seed_python);
    tcase_add_test(tc, seed_cpp);
    tcase_add_test(tc, zero_depth_exit_1);
    tcase_add_test(tc, model_round_trip_python);
    tcase_add_test(tc, model_round_trip_cpp);
    tcase_add_test(tc, directories_and_no_kernel);
    tcase_add_test(tc, subcommand_vs_file);
    tcase_add_test(tc, mistyped_subcommand);
    tcase_add_test(tc, logs_missing_path);
    tcase_add_test(tc, fix_reports_what_remains);
    tcase_add_test(tc, device_task_numbering);
    tcase_add_test(tc, project_file_bind_key);
    tcase_add_test(tc, fix_dry_run_blank_line_before_decorator);
    tcase_add_test(tc, syntax_error_exit_2);
    tcase_add_test(tc, shapes_file);
    tcase_add_test(tc, project_and_config_files);
    tcase_add_test(tc, mixed_languages);
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
