/* check_config_bind.c - bindings read from JSON: the one conversion (poolcheck/bind.h,
 * pc_cfg_bindings_from_json) and the three readers that use it, .poolcheck.json `bind`, a --shapes
 * file and the LSP's `bind` setting, each fed 2^53 + 1 = 9007199254740993, which a double cannot
 * hold (it reads as ...992). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers/test_run.h"
#include "poolcheck/bind.h"
#include "poolcheck/config.h"
#include "poolcheck/json.h"
#include "poolcheck/support.h"

#define BIG "9007199254740993"

/* A kernel whose one loop runs n times: its instance count shows the value n was bound to. */
static const char kernel_py[] = "import pypto\n"
                                "\n"
                                "\n"
                                "@pypto.frontend.jit\n"
                                "def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n"
                                "    for i in pypto.loop(0, n, 1, name=\"l\"):\n"
                                "        y[:] = pypto.add(x, x)\n";

/* ---- the conversion itself ---------------------------------------------------------------- */

static int int64_of(const char *spelling, int64_t *v) { return pc_cfg_json_int64(spelling, strlen(spelling), v); }

START_TEST(json_int64_exact)
{
    int64_t v = 0;
    ck_assert_int_eq(int64_of(BIG, &v), 0);
    ck_assert(v == INT64_C(9007199254740993));
    ck_assert_int_eq(int64_of("9223372036854775807", &v), 0);
    ck_assert(v == INT64_MAX);
    ck_assert_int_eq(int64_of("-9223372036854775808", &v), 0);
    ck_assert(v == INT64_MIN);
    ck_assert_int_eq(int64_of("9223372036854775808", &v), 2);
    ck_assert_int_eq(int64_of("-9223372036854775809", &v), 2);
    ck_assert_int_eq(int64_of("1e19", &v), 2);
    ck_assert_int_eq(int64_of("1e300", &v), 2);
    ck_assert_int_eq(int64_of("1.5", &v), 1);
    ck_assert_int_eq(int64_of("1e-3", &v), 1);
    ck_assert_int_eq(int64_of("64.0", &v), 0);
    ck_assert(v == 64);
    ck_assert_int_eq(int64_of("1e3", &v), 0);
    ck_assert(v == 1000);
    ck_assert_int_eq(int64_of("0.5e1", &v), 0);
    ck_assert(v == 5);
    ck_assert_int_eq(int64_of("9007199254740993.000", &v), 0);
    ck_assert(v == INT64_C(9007199254740993));
    ck_assert_int_eq(int64_of("-0", &v), 0);
    ck_assert(v == 0);
    ck_assert_int_eq(int64_of("0e99999", &v), 0);
    ck_assert(v == 0);
    ck_assert_int_eq(int64_of("0.000", &v), 0);
    ck_assert(v == 0);
}
END_TEST

static pc_json_doc *parse(const char *text)
{
    char *why = NULL;
    pc_json_doc *d = pc_json_parse(text, strlen(text), 0, NULL, &why);
    ck_assert_msg(d != NULL, "%s", why);
    return d;
}

START_TEST(bindings_from_json)
{
    pc_arena *a = pc_arena_new();
    pc_json_doc *d = parse("{\"n\": " BIG ", \"x.shape[0]\": -3, \"m\": 1e3}");
    pc_bindings set;
    pc_loc at;
    char *err = NULL;
    ck_assert(pc_cfg_bindings_from_json(a, pc_json_root(d), "bind", false, &set, &at, &err));
    ck_assert_uint_eq(set.count, 3);
    ck_assert_str_eq(set.items[0].name, "n");
    ck_assert(set.items[0].value == INT64_C(9007199254740993));
    ck_assert_str_eq(set.items[1].name, "x.shape[0]");
    ck_assert(set.items[1].value == -3);
    ck_assert(set.items[2].value == 1000);
    pc_json_free(d);

    /* errors name the member and say where */
    struct { const char *text, *what, *msg; unsigned line, col; } bad[] = {
        {"{\"n\": 1.5}", "bind", "`bind.n` must be an integer, found 1.5", 1, 7},
        {"{\"n\": \"8\"}", "bind", "`bind.n` must be an integer, found a string", 1, 7},
        {"{\"n\": true}", NULL, "\"n\" must be an integer, found a boolean", 1, 7},
        {"{\"n\": 9223372036854775808}", "bind", "`bind.n` must be an integer, found 9223372036854775808 (out of int64's range", 1, 7},
        {"{\"n\": 1, \"n\": 2}", "bind", "`bind`: duplicate binding `n`", 1, 10},
        {"{\"\": 1}", "bind[2]", "`bind[2]`: a binding needs a name", 1, 2},
        {"[1]", "bind", "`bind` must be an object of NAME: integer, found an array", 1, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        d = parse(bad[i].text);
        err = NULL;
        ck_assert(!pc_cfg_bindings_from_json(a, pc_json_root(d), bad[i].what, false, &set, &at, &err));
        ck_assert_msg(strstr(err, bad[i].msg) != NULL, "%s: got '%s'", bad[i].text, err);
        ck_assert_msg(at.line == bad[i].line && at.col == bad[i].col, "%s: at %u:%u", bad[i].text, at.line, at.col);
        pc_mem_free(err);
        pc_json_free(d);
    }

    /* all_errors: the valid members are kept, every bad one named */
    d = parse("{\"a\": 1.5, \"b\": 2, \"c\": \"x\"}");
    err = NULL;
    ck_assert(!pc_cfg_bindings_from_json(a, pc_json_root(d), "bind", true, &set, &at, &err));
    ck_assert_uint_eq(set.count, 1);
    ck_assert_str_eq(set.items[0].name, "b");
    ck_assert_str_eq(err, "`bind.a` must be an integer, found 1.5; `bind.c` must be an integer, found a string");
    ck_assert_uint_eq(at.col, 7);
    pc_mem_free(err);
    pc_json_free(d);
    pc_arena_free(a);
}
END_TEST

/* ---- the three readers -------------------------------------------------------------------------- */

START_TEST(project_file_exact)
{
    const char *text = "{\"bind\": {\"n\": " BIG "}}";
    char *err = NULL;
    pc_project_config *p = pc_cfg_parse_project("p/.poolcheck.json", text, strlen(text), &err);
    ck_assert_msg(p != NULL, "%s", err ? err : "");
    ck_assert_uint_eq(p->nbinding_sets, 1);
    ck_assert(p->binding_sets[0].items[0].value == INT64_C(9007199254740993));
    pc_cfg_project_free(p);
    /* and through the command */
    char *dir = pc_test_tmpdir("pcbind"), *k = pc_test_path(dir, "k.py"), *proj = pc_test_path(dir, ".poolcheck.json");
    pc_test_write_file(k, kernel_py);
    pc_test_write_file(proj, text);
    pc_test_output o = pc_test_poolcheck("check", k, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "root l                        " BIG " instances") != NULL, "%s", o.out);
    pc_test_output_free(&o);
    unlink(k);
    unlink(proj);
    rmdir(dir);
    free(k);
    free(proj);
    free(dir);
}
END_TEST

START_TEST(shapes_file_exact)
{
    char *dir = pc_test_tmpdir("pcbind"), *k = pc_test_path(dir, "k.py"), *shapes = pc_test_path(dir, "shapes.json");
    pc_test_write_file(k, kernel_py);
    pc_test_write_file(shapes, "[{\"n\": " BIG "}]");
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", "--shapes", shapes, k, NULL);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, "root l                        " BIG " instances") != NULL, "%s", o.out);
    pc_test_output_free(&o);
    /* its errors are the conversion's, located in the file */
    pc_test_write_file(shapes, "[{\"n\": 1}, {\"n\": 9223372036854775808}]");
    o = pc_test_poolcheck("check", "--no-config-lookup", "--shapes", shapes, k, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(strstr(o.err, "shapes.json:1:18: entry 1: \"n\" must be an integer, found 9223372036854775808 (out of "
                                "int64's range") != NULL, "%s", o.err);
    pc_test_output_free(&o);
    unlink(k);
    unlink(shapes);
    rmdir(dir);
    free(k);
    free(shapes);
    free(dir);
}
END_TEST

static void frame(char **buf, size_t *len, const char *json)
{
    size_t n = strlen(json);
    char head[64];
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
    *buf = realloc(*buf, *len + (size_t)h + n + 1);
    memcpy(*buf + *len, head, (size_t)h);
    memcpy(*buf + *len + h, json, n + 1);
    *len += (size_t)h + n;
}

/* The LSP's {"bind": {"n": 9007199254740993}}: the hover on the loop shows the instances. */
START_TEST(lsp_setting_exact)
{
    char *dir = pc_test_tmpdir("pcbind"), *k = pc_test_path(dir, "k.py");
    pc_test_write_file(k, kernel_py);
    char *in = NULL;
    size_t len = 0;
    char msg[4096];
    frame(&in, &len, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{},"
                     "\"initializationOptions\":{\"bind\":{\"n\":" BIG "}}}}");
    frame(&in, &len, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    char *esc = malloc(2 * sizeof kernel_py);
    size_t e = 0;
    for (const char *p = kernel_py; *p; p++) {
        if (*p == '\n') {
            esc[e++] = '\\';
            esc[e++] = 'n';
        } else {
            if (*p == '"')
                esc[e++] = '\\';
            esc[e++] = *p;
        }
    }
    esc[e] = 0;
    snprintf(msg, sizeof msg,
             "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file://%s\","
             "\"languageId\":\"python\",\"version\":1,\"text\":\"%s\"}}}",
             k, esc);
    frame(&in, &len, msg);
    snprintf(msg, sizeof msg,
             "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":"
             "\"file://%s\"},\"position\":{\"line\":5,\"character\":10}}}",
             k);
    frame(&in, &len, msg);
    frame(&in, &len, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"shutdown\"}");
    frame(&in, &len, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    char *argv[] = {(char *)PC_BINARY_DIR "/bin/poolcheck-lsp", NULL};
    pc_test_output o = pc_test_run(argv, in);
    ck_assert_int_eq(o.status, 0);
    ck_assert_msg(strstr(o.out, BIG " instances") != NULL, "%s", o.out);
    ck_assert_msg(strstr(o.out, "9007199254740992") == NULL, "%s", o.out);
    pc_test_output_free(&o);
    free(esc);
    free(in);
    unlink(k);
    rmdir(dir);
    free(k);
    free(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("config_bind");
    TCase *t = tcase_create("json");
    tcase_add_test(t, json_int64_exact);
    tcase_add_test(t, bindings_from_json);
    suite_add_tcase(s, t);
    t = tcase_create("readers");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, project_file_exact);
    tcase_add_test(t, shapes_file_exact);
    tcase_add_test(t, lsp_setting_exact);
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
