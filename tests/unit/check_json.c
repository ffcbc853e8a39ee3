/* check_json.c - the one strict JSON reader (poolcheck/json.h): the tree, the positions of every
 * value and key, the flags, the errors, and the cJSON copy the LSP's handlers walk. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/json.h"
#include "support/support.h"

static pc_json_doc *parse(const char *text, unsigned flags)
{
    pc_json_pos at;
    char *why = NULL;
    pc_json_doc *d = pc_json_parse(text, strlen(text), flags, &at, &why);
    ck_assert_msg(d != NULL, "refused '%s': %u:%u: %s", text, d ? 0 : at.line, d ? 0 : at.col, why);
    ck_assert_ptr_null(why); /* success leaves *err alone */
    return d;
}

/* text is refused with "L:C: msg" */
static void refused(const char *text, size_t len, unsigned flags, const char *want)
{
    pc_json_pos at;
    char *why = NULL;
    pc_json_doc *d = pc_json_parse(text, len, flags, &at, &why);
    ck_assert_msg(d == NULL, "accepted '%s'", text);
    char got[200];
    snprintf(got, sizeof got, "%u:%u: %s", at.line, at.col, why);
    pc_mem_free(why);
    ck_assert_msg(strcmp(got, want) == 0, "'%s': got '%s', want '%s'", text, got, want);
    ck_assert_ptr_null(pc_json_parse(text, len, flags, NULL, NULL)); /* neither wanted */
}

/* a string literal, NUL bytes and all */
#define REFUSED(lit, flags, want) refused(lit, sizeof lit - 1, flags, want)

static void at(pc_json_pos p, uint32_t line, uint32_t col, size_t off)
{
    ck_assert_msg(p.line == line && p.col == col && p.off == off, "at %u:%u (%zu), want %u:%u (%zu)", p.line, p.col,
                  p.off, line, col, off);
}

START_TEST(tree_and_values)
{
    pc_json_doc *d = parse("{\"a\": [1, -2.5e1, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\"], \"b\": {}}", 0);
    const pc_json *r = pc_json_root(d);
    ck_assert(pc_json_is(r, PC_JSON_OBJECT));
    ck_assert_int_eq(r->count, 2);
    const pc_json *a = pc_json_get(r, "a");
    ck_assert(pc_json_is(a, PC_JSON_ARRAY));
    ck_assert_int_eq(a->count, 6);
    const pc_json *v = a->child;
    ck_assert(v->type == PC_JSON_NUMBER && v->num == 1 && strcmp(v->str, "1") == 0);
    v = v->next;
    ck_assert(v->type == PC_JSON_NUMBER && v->num == -25 && strcmp(v->str, "-2.5e1") == 0 && v->len == 6);
    v = v->next;
    ck_assert(v->type == PC_JSON_BOOL && v->b);
    v = v->next;
    ck_assert(v->type == PC_JSON_BOOL && !v->b);
    v = v->next;
    ck_assert(v->type == PC_JSON_NULL);
    v = v->next;
    ck_assert(v->type == PC_JSON_STRING);
    ck_assert_str_eq(v->str, "x\xc3\xa9\xf0\x9f\x98\x80\n");
    ck_assert_uint_eq(v->len, 8);
    ck_assert_ptr_null(v->next);
    ck_assert(pc_json_is(pc_json_get(r, "b"), PC_JSON_OBJECT));
    ck_assert_ptr_null(pc_json_get(r, "c"));
    ck_assert_ptr_null(pc_json_get(a, "a")); /* not an object */
    ck_assert_str_eq(pc_json_kind(a), "an array");
    ck_assert_str_eq(pc_json_kind(NULL), "nothing");
    pc_json_free(d);
    pc_json_free(NULL);
}
END_TEST

START_TEST(positions)
{
    /* LF, CRLF and a lone CR each end a line; columns are bytes */
    const char *t = "{\n  \"k\": 12,\r\n \"s\": \"\xc3\xa9\",\r\"o\": [1,\n  2]}";
    pc_json_doc *d = parse(t, 0);
    const pc_json *r = pc_json_root(d);
    at(r->pos, 1, 1, 0);
    at(r->end, 5, 6, strlen(t));
    const pc_json *k = pc_json_get(r, "k");
    at(k->key_pos, 2, 3, 4);
    at(k->pos, 2, 8, 9);
    at(k->end, 2, 10, 11);
    const pc_json *s = pc_json_get(r, "s");
    at(s->key_pos, 3, 2, 15);
    at(s->pos, 3, 7, 20);
    at(s->end, 3, 11, 24); /* the closing quote's column plus one: bytes, not characters */
    const pc_json *o = pc_json_get(r, "o");
    at(o->key_pos, 4, 1, 26);
    at(o->pos, 4, 6, 31);
    at(o->child->next->pos, 5, 3, 37);
    at(o->end, 5, 5, 39);
    /* pc_json_pos_of agrees with what the parser recorded */
    for (const pc_json *c = r->child; c; c = c->next) {
        pc_json_pos p = pc_json_pos_of(t, strlen(t), c->key_pos.off, 0);
        at(c->key_pos, p.line, p.col, p.off);
        p = pc_json_pos_of(t, strlen(t), c->end.off, 0);
        at(c->end, p.line, p.col, p.off);
    }
    pc_json_free(d);
    /* a byte order mark: skipped with PC_JSON_BOM and not counted in columns; refused without */
    d = parse("\xEF\xBB\xBF [7]", PC_JSON_BOM);
    at(pc_json_root(d)->pos, 1, 2, 4);
    at(pc_json_root(d)->child->pos, 1, 3, 5);
    pc_json_free(d);
    REFUSED("\xEF\xBB\xBF[7]", 0, "1:1: expected a value, found byte 0xef");
    REFUSED("\xEF\xBB\xBF[7", PC_JSON_BOM, "1:3: expected ',' or ']', found end of input");
}
END_TEST

START_TEST(errors_located)
{
    REFUSED("{\n  \"a\": 1,\r\n  \"b\" 2}", 0, "3:7: expected ':' after the key, found '2'");
    REFUSED("[1,\r\r  x]", 0, "3:3: expected a value, found 'x'");
    REFUSED("[1] [2]", 0, "1:5: unexpected text after the JSON value, found '['");
    REFUSED("[01]", 0, "1:2: invalid number (leading zero)");
    REFUSED("[1.]", 0, "1:4: invalid number: expected a digit after '.', found ']'");
    REFUSED("[\"a\x01\"]", 0, "1:4: control character in a string (write it as an escape such as \\n)");
    REFUSED("[\"\xed\xa0\x80\"]", 0, "1:3: invalid UTF-8 in a string"); /* an encoded surrogate */
    REFUSED("[\"\\ud800\"]", 0, "1:3: invalid \\u escape (a high surrogate without a low one)");
    REFUSED("{\"a\": 1,}", 0, "1:9: expected a string key, found '}'");
    REFUSED("[1, // no\n 2]", 0, "1:5: expected a value, found '/'");
    REFUSED("['a']", 0, "1:2: expected a value, found '''");
    REFUSED("[NaN]", 0, "1:2: expected a value, found 'N'");
    REFUSED("", 0, "1:1: expected a value, found end of input");
    REFUSED("[1]\0", 0, "1:4: unexpected NUL byte");
    REFUSED("[\"a\0\"]", 0, "1:4: unexpected NUL byte");
}
END_TEST

START_TEST(huge_numbers)
{
    REFUSED("[1e400]", 0, "1:2: number out of range (beyond what a double holds)");
    REFUSED("{\"n\":\n -1e400}", 0, "2:2: number out of range (beyond what a double holds)");
    REFUSED("[1234567890123456789012345678901234567890123456789012345678901234]", 0,
            "1:2: number too long (more than 63 characters)");
    /* what a double holds, and an underflow to zero, are numbers */
    pc_json_doc *d = parse("[1e308, 1e-400, 12345678901234567890, 123456789012345]", 0);
    const pc_json *v = pc_json_root(d)->child;
    ck_assert(v->num == 1e308);
    ck_assert(v->next->num == 0);
    ck_assert(v->next->next->num == 12345678901234567890.0);
    ck_assert_str_eq(v->next->next->str, "12345678901234567890");
    ck_assert(v->next->next->next->num == 123456789012345.0);
    pc_json_free(d);
}
END_TEST

START_TEST(depth_limit)
{
    size_t n = 5000;
    char *deep = malloc(2 * n + 1);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    deep[2 * n] = 0;
    refused(deep, 2 * n, 0, "1:1001: nesting deeper than 1000 levels");
    pc_json_doc *d = pc_json_parse(deep + n - PC_JSON_MAX_DEPTH, 2 * PC_JSON_MAX_DEPTH, 0, NULL, NULL);
    ck_assert_ptr_nonnull(d); /* exactly the limit */
    pc_json_free(d);
    free(deep);
}
END_TEST

START_TEST(unique_keys)
{
    /* kept in order without the flag; pc_json_get finds the first */
    pc_json_doc *d = parse("{\"a\": 1, \"a\": 2}", 0);
    ck_assert_int_eq(pc_json_root(d)->count, 2);
    ck_assert(pc_json_get(pc_json_root(d), "a")->num == 1);
    pc_json_free(d);
    REFUSED("{\"a\": 1,\n \"b\": 2, \"a\": 3}", PC_JSON_UNIQUE_KEYS, "2:10: duplicate key \"a\"");
    REFUSED("[{}, {\"x\": {\"y\": 1, \"y\": 1}}]", PC_JSON_UNIQUE_KEYS, "1:21: duplicate key \"y\"");
    /* "a\u0062" is "ab": keys compare decoded */
    REFUSED("{\"ab\": 1, \"a\\u0062\": 2}", PC_JSON_UNIQUE_KEYS, "1:11: duplicate key \"ab\"");
    /* many members: the first repeated key in document order is the one reported */
    char big[4096];
    size_t n = 0;
    n += (size_t)snprintf(big + n, sizeof big - n, "{");
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "\"k%d\": %d, ", i, i);
    n += (size_t)snprintf(big + n, sizeof big - n, "\"k70\": 0, \"k5\": 0}");
    char want[64];
    snprintf(want, sizeof want, "1:%zu: duplicate key \"k70\"", strlen(big) - strlen("\"k70\": 0, \"k5\": 0}") + 1);
    refused(big, n, PC_JSON_UNIQUE_KEYS, want);
    d = parse("{\"a\": {\"a\": 1}, \"b\": [{\"a\": 1}, {\"a\": 2}]}", PC_JSON_UNIQUE_KEYS);
    pc_json_free(d);
}
END_TEST

START_TEST(nul_escapes)
{
    REFUSED("[\"a\\u0000b\"]", 0, "1:4: \\u0000 is not allowed in strings");
    pc_json_doc *d = parse("[\"a\\u0000b\"]", PC_JSON_ALLOW_NUL);
    const pc_json *s = pc_json_root(d)->child;
    ck_assert_uint_eq(s->len, 3);
    ck_assert(memcmp(s->str, "a\0b", 4) == 0);
    pc_json_free(d);
}
END_TEST

START_TEST(to_cjson)
{
    pc_json_doc *d = parse("{\"id\": 3, \"m\": \"x\", \"p\": [true, null, 1.5, {\"k\": \"v\"}], \"id\": 4}", 0);
    cJSON *c = pc_json_to_cjson(pc_json_root(d));
    pc_json_free(d);
    char *text = cJSON_PrintUnformatted(c);
    ck_assert_str_eq(text, "{\"id\":3,\"m\":\"x\",\"p\":[true,null,1.5,{\"k\":\"v\"}],\"id\":4}");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(c, "id")->valueint, 3); /* the first, as cJSON */
    cJSON_free(text);
    cJSON_Delete(c);
    ck_assert_ptr_null(pc_json_to_cjson(NULL));
}
END_TEST

/* cJSON's allocations go through pc_mem_*, so the allocation counter sees them */
START_TEST(cjson_uses_pc_mem)
{
    pc_json_use_pc_mem();
    uint64_t before = pc_mem_count();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "k", "v");
    ck_assert_uint_ge(pc_mem_count() - before, 3); /* the object, the item, its key and value */
    cJSON_Delete(o);
}
END_TEST

/* The helpers behind every library *err (poolcheck/support.h, "Errors, one way"). */
START_TEST(error_messages_owned)
{
    char *err = NULL;
    ck_assert(!pc_err_set(&err, "cannot open '%s': %s", "x.json", "No such file or directory"));
    ck_assert_str_eq(err, "cannot open 'x.json': No such file or directory");
    ck_assert(!pc_err_set(&err, "second %d", 2)); /* replaces, freeing the first (ASan/valgrind) */
    ck_assert_str_eq(err, "second 2");
    pc_err_clear(&err);
    ck_assert_ptr_null(err);
    pc_err_clear(&err);         /* already clear */
    pc_err_clear(NULL);
    ck_assert(!pc_err_set(NULL, "unwanted %s", "message"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("json");
    TCase *t = tcase_create("reader");
    tcase_add_test(t, tree_and_values);
    tcase_add_test(t, positions);
    tcase_add_test(t, errors_located);
    tcase_add_test(t, huge_numbers);
    tcase_add_test(t, depth_limit);
    tcase_add_test(t, unique_keys);
    tcase_add_test(t, nul_escapes);
    tcase_add_test(t, to_cjson);
    tcase_add_test(t, cjson_uses_pc_mem);
    tcase_add_test(t, error_messages_owned);
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
