/* check_model.c - expressions, data types, builders, and the model's JSON form. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_int.h"
#include "poolcheck/frontend.h"
#include "poolcheck/model.h"
#include "support/support.h"

/* ---- helpers --------------------------------------------------------------------------------- */

static pc_arena *A;

static void setup(void) { A = pc_arena_new(); }
static void teardown(void) { pc_arena_free(A); A = NULL; }

static pc_expr *P(const char *text)
{
    char *err = NULL;
    pc_expr *e = pc_expr_parse(A, text, &err);
    ck_assert_msg(e != NULL, "parse '%s': %s", text, err ? err : "?");
    return e;
}

static void assert_text(const pc_expr *e, const char *want)
{
    char *s = pc_expr_to_string(e);
    ck_assert_str_eq(s, want);
    free(s);
}

static pc_expr *I(int64_t v) { return pc_expr_int(A, v); }
static pc_expr *S(const char *n) { return pc_expr_sym(A, n); }
static pc_expr *B(pc_expr_kind k, const pc_expr *l, const pc_expr *r) { return pc_expr_bin(A, k, l, r); }

static int64_t eval0(const pc_expr *e)
{
    int64_t v = 0;
    ck_assert_msg(pc_expr_eval(e, NULL, 0, &v), "expression is not constant");
    return v;
}

/* Replace the first occurrence of `from` in text (which must contain it). */
static char *replace_first(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' not in the JSON", from);
    size_t pre = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    memcpy(out, text, pre);
    strcpy(out + pre, to);
    strcat(out, at + strlen(from));
    return out;
}

/* ---- expressions ----------------------------------------------------------------------------- */

START_TEST(expr_folding)
{
    int64_t v;
    ck_assert(pc_expr_is_int(B(PC_EXPR_ADD, I(2), I(3)), &v) && v == 5);
    ck_assert(pc_expr_is_int(B(PC_EXPR_FLOORDIV, I(-7), I(2)), &v) && v == -4);
    ck_assert(pc_expr_is_int(B(PC_EXPR_DIV, I(-7), I(2)), &v) && v == -3);   /* C truncation */
    ck_assert(pc_expr_is_int(B(PC_EXPR_MOD, I(-7), I(3)), &v) && v == 2);    /* Python modulo */
    ck_assert(pc_expr_is_int(B(PC_EXPR_CEILDIV, I(7), I(2)), &v) && v == 4);
    ck_assert(pc_expr_is_int(B(PC_EXPR_CEILDIV, I(-7), I(2)), &v) && v == -3);
    ck_assert(pc_expr_is_int(B(PC_EXPR_CEILDIV, I(8), I(2)), &v) && v == 4);
    ck_assert(pc_expr_is_int(B(PC_EXPR_MIN, I(4), I(9)), &v) && v == 4);
    ck_assert(pc_expr_is_int(B(PC_EXPR_MAX, I(4), I(9)), &v) && v == 9);
    ck_assert(pc_expr_is_int(B(PC_EXPR_MUL, I(0), S("n")), &v) && v == 0);
    ck_assert(pc_expr_is_int(pc_expr_neg(A, I(5)), &v) && v == -5);
    /* identities keep the symbolic operand itself */
    pc_expr *n = S("n");
    ck_assert_ptr_eq(B(PC_EXPR_MUL, I(1), n), n);
    ck_assert_ptr_eq(B(PC_EXPR_DIV, n, I(1)), n);
    ck_assert_ptr_eq(B(PC_EXPR_MIN, n, S("n")), n);
    /* division by zero is not folded and does not evaluate */
    pc_expr *dz = B(PC_EXPR_DIV, I(4), I(0));
    ck_assert_int_eq(dz->kind, PC_EXPR_DIV);
    ck_assert(!pc_expr_eval(dz, NULL, 0, &v));
    /* overflow is not folded (and not undefined behaviour) */
    pc_expr *ov = B(PC_EXPR_ADD, I(INT64_MAX), I(1));
    ck_assert(!pc_expr_is_int(ov, NULL));
    ck_assert(!pc_expr_eval(ov, NULL, 0, &v));
    ck_assert(!pc_expr_is_int(B(PC_EXPR_MUL, I(INT64_MAX), I(2)), NULL));
    ck_assert(!pc_expr_is_int(B(PC_EXPR_DIV, I(INT64_MIN), I(-1)), NULL));
    ck_assert(pc_expr_is_int(B(PC_EXPR_MOD, I(INT64_MIN), I(-1)), &v) && v == 0);
    ck_assert(!pc_expr_eval(pc_expr_neg(A, S("m")), &(pc_bindings){&(pc_binding){"m", INT64_MIN}, 1}, 1, &v));
}
END_TEST

START_TEST(expr_sum_normalisation)
{
    pc_expr *j = S("j"), *t = S("t");
    const pc_expr *e = B(PC_EXPR_SUB, B(PC_EXPR_ADD, j, t), j);
    ck_assert_int_eq(e->kind, PC_EXPR_SYM);
    ck_assert_str_eq(e->name, "t");
    e = B(PC_EXPR_SUB, B(PC_EXPR_ADD, S("j"), I(2)), B(PC_EXPR_SUB, S("j"), I(3)));
    ck_assert_int_eq(eval0(e), 5);
    ck_assert_int_eq(e->kind, PC_EXPR_INT);
    assert_text(B(PC_EXPR_ADD, B(PC_EXPR_MUL, I(2), S("x")), B(PC_EXPR_MUL, S("x"), I(3))), "5*x");
    assert_text(B(PC_EXPR_SUB, S("a"), B(PC_EXPR_MUL, I(2), S("b"))), "a - 2*b");
    assert_text(B(PC_EXPR_ADD, pc_expr_neg(A, S("x")), S("y")), "-x + y");
    assert_text(B(PC_EXPR_SUB, S("n"), I(1)), "n - 1");
    /* slice extent of an unroll factor: (i + t) - i with t the factor */
    e = P("(i_idx + t) - i_idx");
    ck_assert_int_eq(e->kind, PC_EXPR_SYM);
    ck_assert_str_eq(e->name, "t");
}
END_TEST

START_TEST(expr_eval_bindings)
{
    pc_expr *e = P("min(ceil(n/16), 128) + m*2");
    pc_binding s1[] = {{"n", 100}}, s2[] = {{"n", 5000}, {"m", 3}};
    pc_bindings sets[] = {{s1, 1}, {s2, 2}};
    int64_t v;
    ck_assert(pc_expr_eval(e, sets, 2, &v));   /* n from set 1 (first hit), m from set 2 */
    ck_assert_int_eq(v, 7 + 6);
    ck_assert(!pc_expr_eval(e, sets, 1, &v));  /* m unbound */
    ck_assert(pc_expr_eval(e, &sets[1], 1, &v));
    ck_assert_int_eq(v, 128 + 6);
    /* subst leaves only what is unbound */
    const pc_expr *p = pc_expr_subst(A, e, sets, 1);
    assert_text(p, "2*m + 7");
    const char *names[8];
    size_t n = pc_expr_symbols(P("a*b + min(a, c) - b"), names, 0, 8);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(names[0], "a");
    ck_assert_str_eq(names[1], "b");
    ck_assert_str_eq(names[2], "c");
    pc_binding xb[] = {{"x.shape[0]", 1000}};
    pc_bindings xs = {xb, 1};
    ck_assert(pc_expr_eval(P("ceil(x.shape[0]/64)"), &xs, 1, &v));
    ck_assert_int_eq(v, 16);
    ck_assert(pc_expr_eval(P("x.shape[0] // 64"), &xs, 1, &v));
    ck_assert_int_eq(v, 15);
    ck_assert(pc_expr_eval(P("ceil(7/2)"), NULL, 0, &v));
    ck_assert_int_eq(v, 4);
}
END_TEST

START_TEST(expr_text_round_trip)
{
    static const char *const texts[] = {
        "min(ceil(n/16), 128)", "2*x.shape[0]", "max(a, b) + 1", "n//4 - 1", "(a + b)/c",
        "a*(b/c)", "-x + y", "ceil((n + 15)/16)", "a%3", "2*ns::kRows", "x.shape[-1]",
        "ceil(x/-y)", "-(2*x)", "ceil(2*x/4)", "ceil(a/b/c)", "max(min(a, 4), ceil(b/2))",
        "GetInputShape_x_0 - 1", "3*(2*x)", "n - 2*m + 7", "a - (b/2)*3", "-7", "123456789012345678",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        pc_expr *e = P(texts[i]);
        char *s = pc_expr_to_string(e);
        ck_assert_msg(strcmp(s, texts[i]) == 0 || strcmp(texts[i], "a - (b/2)*3") == 0,
                      "'%s' printed as '%s'", texts[i], s);
        pc_expr *back = P(s);
        ck_assert_msg(pc_expr_equal(e, back), "'%s' does not read back as itself", s);
        free(s);
    }
    /* printing: CEILDIV, MIN, symbols with attribute and index parts */
    assert_text(B(PC_EXPR_MIN, B(PC_EXPR_CEILDIV, S("n"), I(16)), I(128)), "min(ceil(n/16), 128)");
    assert_text(B(PC_EXPR_MUL, S("x.shape[0]"), I(2)), "2*x.shape[0]");
    assert_text(NULL, "?");
    /* whitespace is free */
    ck_assert(pc_expr_equal(P("  min( a ,b )+1 "), P("min(a, b) + 1")));
}
END_TEST

START_TEST(expr_parse_errors)
{
    static const struct { const char *text, *err; } bad[] = {
        {"", "unexpected end of expression"}, {"1 +", "unexpected end of expression"},
        {"min(1)", "expected ','"}, {"(a", "expected ')'"}, {"ceil(a + b)", "expected ceil(a/b)"},
        {"ceil(a*b)", "expected ceil(a/b)"}, {"a $ b", "trailing characters"},
        {"99999999999999999999", "integer out of range"}, {"1.5", "trailing characters"},
        {"x[", "trailing characters"}, {"a]", "trailing characters"}, {"max(a, b", "expected ')'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *err = NULL;
        ck_assert_msg(pc_expr_parse(A, bad[i].text, &err) == NULL, "'%s' parsed", bad[i].text);
        ck_assert_msg(err && strcmp(err, bad[i].err) == 0, "'%s': got '%s', want '%s'", bad[i].text,
                      err ? err : "(null)", bad[i].err);
        pc_mem_free(err);
    }
    /* deep nesting and huge inputs are refused, not a stack overflow */
    size_t n = 100000;
    char *deep = malloc(2 * n + 2);
    memset(deep, '(', n);
    deep[n] = '1';
    memset(deep + n + 1, ')', n);
    deep[2 * n + 1] = 0;
    char *err = NULL;
    ck_assert_ptr_null(pc_expr_parse(A, deep, &err));
    ck_assert_str_eq(err, "expression nested too deeply");
    pc_mem_free(err);
    err = NULL;
    memset(deep, '-', 2 * n);
    deep[2 * n] = '1';
    deep[2 * n + 1] = 0;
    ck_assert_ptr_null(pc_expr_parse(A, deep, &err));
    pc_mem_free(err);
    err = NULL;
    for (size_t i = 0; i < n; i++) {
        deep[2 * i] = 'a';
        deep[2 * i + 1] = '+';
    }
    deep[2 * n - 1] = 0;
    ck_assert_ptr_null(pc_expr_parse(A, deep, &err));
    ck_assert_str_eq(err, "expression too large");
    pc_mem_free(err);
    free(deep);
}
END_TEST


/* Branch conditions (model.md section 3, "Paths"): the text pc_expr_to_string writes reads back
 * as the same tree, with Python's precedence (or < and < not < comparisons < arithmetic). */
START_TEST(expr_condition_text)
{
    static const char *const texts[] = {
        "i < 1", "i <= 1", "i > n - 1", "i >= 2*t", "i == 0", "i != 0", "i < 1 and j > 2",
        "i < 1 or j > 2 and k == 3", "(i < 1 or j > 2) and k == 3", "not i < 1", "not (a and b)",
        "not is_loop_begin(i)", "is_loop_begin(i) or is_loop_end(j)", "(a < b) == (c < d)",
        "i + 1 < 2*x.shape[0]", "a - 1 <= b%2", "min(a < b, 1) == 1", "a and (b and c)",
        "a or (b or c)", "not a or b", "is_loop_end(ns::idx) and t == 4", "notx and orb",
        "(i < 1) + 1", "-(a < b)", "ceil(n/16) > 2",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        pc_expr *e = P(texts[i]);
        char *s = pc_expr_to_string(e);
        ck_assert_msg(strcmp(s, texts[i]) == 0, "'%s' printed as '%s'", texts[i], s);
        pc_expr *back = P(s);
        ck_assert_msg(pc_expr_equal(e, back), "'%s' does not read back as itself", s);
        free(s);
    }
    /* the trees the frontends build print with the right parentheses */
    pc_expr *lt = B(PC_EXPR_LT, S("i"), I(1));
    pc_expr *end = pc_expr_loop_pred(A, PC_EXPR_IS_LOOP_END, "i");
    assert_text(B(PC_EXPR_AND, lt, pc_expr_not(A, end)), "i < 1 and not is_loop_end(i)");
    assert_text(pc_expr_not(A, B(PC_EXPR_OR, lt, end)), "not (i < 1 or is_loop_end(i))");
    assert_text(B(PC_EXPR_AND, B(PC_EXPR_OR, lt, end), end), "(i < 1 or is_loop_end(i)) and is_loop_end(i)");
    assert_text(B(PC_EXPR_LT, B(PC_EXPR_LT, S("a"), S("b")), S("c")), "(a < b) < c");
    assert_text(B(PC_EXPR_EQ, B(PC_EXPR_ADD, S("i"), I(1)), B(PC_EXPR_MUL, I(2), S("n"))), "i + 1 == 2*n");
    assert_text(pc_expr_loop_pred(A, PC_EXPR_IS_LOOP_BEGIN, "j_idx"), "is_loop_begin(j_idx)");
    /* C++ spellings read as the same tree; != is not a negation */
    ck_assert(pc_expr_equal(P("i < 1 && !is_loop_end(i) || j != 2"), P("i < 1 and not is_loop_end(i) or j != 2")));
    ck_assert(pc_expr_equal(P("!(a)"), P("not a")));
    /* precedence: and binds tighter than or, not looser than comparisons */
    pc_expr *e = P("a or b and c");
    ck_assert_int_eq(e->kind, PC_EXPR_OR);
    ck_assert_int_eq(e->b->kind, PC_EXPR_AND);
    e = P("not i < 1");
    ck_assert_int_eq(e->kind, PC_EXPR_NOT);
    ck_assert_int_eq(e->a->kind, PC_EXPR_LT);
    e = P("i + 1 < n");
    ck_assert_int_eq(e->kind, PC_EXPR_LT);
    /* folding: not(not x) = x, constant sides of and/or */
    ck_assert(pc_expr_equal(P("not not (i < 1)"), lt));
    ck_assert(pc_expr_equal(P("1 and i < 1"), lt));
    ck_assert_int_eq(eval0(P("0 and is_loop_begin(i)")), 0);
    ck_assert_int_eq(eval0(P("3 < 4 or x")), 1);
    /* loop predicates: equal only for the same kind and index variable */
    ck_assert(pc_expr_equal(P("is_loop_begin(i)"), pc_expr_loop_pred(A, PC_EXPR_IS_LOOP_BEGIN, "i")));
    ck_assert(!pc_expr_equal(P("is_loop_begin(i)"), P("is_loop_begin(j)")));
    ck_assert(!pc_expr_equal(P("is_loop_begin(i)"), P("is_loop_end(i)")));
    ck_assert_ptr_null(pc_expr_loop_pred(A, PC_EXPR_LT, "i"));
}
END_TEST

START_TEST(expr_condition_eval_symbols)
{
    pc_binding b[] = {{"i", 0}, {"n", 4}, {"t", 2}};
    pc_bindings set = {b, 3};
    int64_t v = -1;
    ck_assert(pc_expr_eval(P("i < 1"), &set, 1, &v));
    ck_assert_int_eq(v, 1);
    ck_assert(pc_expr_eval(P("i >= 1 or n == 4 and t != 2"), &set, 1, &v));
    ck_assert_int_eq(v, 0);
    ck_assert(pc_expr_eval(P("not (i + 2 > n - t)"), &set, 1, &v));
    ck_assert_int_eq(v, 1);
    /* loop predicates need the iteration: pc_expr_eval cannot decide them */
    ck_assert(!pc_expr_eval(P("is_loop_begin(i)"), &set, 1, &v));
    ck_assert(!pc_expr_eval(P("not is_loop_end(i) and n > 0"), &set, 1, &v));
    /* substitution keeps the predicate and folds the rest */
    assert_text(pc_expr_subst(A, P("is_loop_end(i) or n > 9"), &set, 1), "is_loop_end(i)");
    assert_text(pc_expr_subst(A, P("is_loop_end(i) and n > 9"), &set, 1), "0");
    /* symbols: the loop predicates contribute no bindable name */
    const char *names[8];
    size_t n = pc_expr_symbols(P("is_loop_begin(i) and x.shape[0] > 2 or not is_loop_end(j)"), names, 0, 8);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(names[0], "x.shape[0]");
    n = pc_expr_symbols(P("i < n and not m == i"), names, 0, 8);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(names[0], "i");
    ck_assert_str_eq(names[1], "n");
    ck_assert_str_eq(names[2], "m");
}
END_TEST

START_TEST(expr_condition_parse_errors)
{
    static const struct { const char *text, *err; } bad[] = {
        {"not", "unexpected end of expression"}, {"and", "unexpected character"},
        {"i < ", "unexpected end of expression"}, {"a or", "unexpected end of expression"},
        {"is_loop_begin()", "expected a loop index name"}, {"is_loop_end(i + 1)", "expected ')'"},
        {"is_loop_begin(not)", "expected a loop index name"}, {"i < 1 < 2", "trailing characters"},
        {"a ! b", "trailing characters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *err = NULL;
        ck_assert_msg(pc_expr_parse(A, bad[i].text, &err) == NULL, "'%s' parsed", bad[i].text);
        ck_assert_msg(err && strcmp(err, bad[i].err) == 0, "'%s': got '%s', want '%s'", bad[i].text,
                      err ? err : "(null)", bad[i].err);
        pc_mem_free(err);
    }
    /* a long chain of nots is refused, not a stack overflow */
    size_t n = 50000;
    char *deep = malloc(4 * n + 2);
    for (size_t i = 0; i < n; i++)
        memcpy(deep + 4 * i, "not ", 4);
    deep[4 * n] = 'a';
    deep[4 * n + 1] = 0;
    char *err = NULL;
    ck_assert_ptr_null(pc_expr_parse(A, deep, &err));
    ck_assert_ptr_nonnull(err);
    pc_mem_free(err);
    free(deep);
}
END_TEST

/* ---- data types ------------------------------------------------------------------------------ */

START_TEST(dtype_bits_names)
{
    static const struct { pc_dtype t; int bits; const char *name; } cases[] = {
        {PC_DT_INT4, 4, "INT4"}, {PC_DT_HF4, 4, "HF4"}, {PC_DT_FP4_E2M1, 4, "FP4_E2M1"},
        {PC_DT_FP4_E1M2, 4, "FP4_E1M2"}, {PC_DT_INT8, 8, "INT8"}, {PC_DT_UINT8, 8, "UINT8"},
        {PC_DT_BOOL, 8, "BOOL"}, {PC_DT_FP8, 8, "FP8"}, {PC_DT_FP8E4M3, 8, "FP8E4M3"},
        {PC_DT_FP8E5M2, 8, "FP8E5M2"}, {PC_DT_FP8E8M0, 8, "FP8E8M0"}, {PC_DT_HF8, 8, "HF8"},
        {PC_DT_FP4_E2M1X2, 8, "FP4_E2M1X2"}, {PC_DT_FP4_E1M2X2, 8, "FP4_E1M2X2"},
        {PC_DT_FP16, 16, "FP16"}, {PC_DT_BF16, 16, "BF16"}, {PC_DT_INT16, 16, "INT16"},
        {PC_DT_UINT16, 16, "UINT16"}, {PC_DT_FP32, 32, "FP32"}, {PC_DT_INT32, 32, "INT32"},
        {PC_DT_UINT32, 32, "UINT32"}, {PC_DT_INT64, 64, "INT64"}, {PC_DT_UINT64, 64, "UINT64"},
        {PC_DT_DOUBLE, 64, "DOUBLE"},
    };
    ck_assert_uint_eq(sizeof cases / sizeof *cases, PC_DT_COUNT - 1); /* every type covered */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert_int_eq(pc_dtype_bits(cases[i].t), cases[i].bits);
        ck_assert_str_eq(pc_dtype_name(cases[i].t), cases[i].name);
        ck_assert_int_eq(pc_dtype_from_name(cases[i].name), cases[i].t);
    }
    ck_assert_int_eq(pc_dtype_bits(PC_DT_UNKNOWN), 0);
    ck_assert_str_eq(pc_dtype_name(PC_DT_UNKNOWN), "UNKNOWN");
    ck_assert_int_eq(pc_dtype_from_name("DT_FP32"), PC_DT_FP32);
    ck_assert_int_eq(pc_dtype_from_name("pypto.DT_BF16"), PC_DT_BF16);
    ck_assert_int_eq(pc_dtype_from_name("npu::tile_fwk::DT_INT8"), PC_DT_INT8);
    ck_assert_int_eq(pc_dtype_from_name("float32"), PC_DT_UNKNOWN);
    ck_assert_int_eq(pc_dtype_from_name("fp32"), PC_DT_UNKNOWN);
    ck_assert_int_eq(pc_dtype_from_name(NULL), PC_DT_UNKNOWN);
}
END_TEST

/* ---- builders -------------------------------------------------------------------------------- */

START_TEST(builders)
{
    pc_model *m = pc_model_new("k.py", PC_LANG_PYTHON);
    pc_loc l = pc_model_loc(m, "k.py", 3, 5, 3, 9);
    ck_assert_ptr_eq(l.file, m->file);                       /* shared, not copied */
    pc_loc other = pc_model_loc(m, "other.h", 1, 1, 0, 0);
    ck_assert_str_eq(other.file, "other.h");
    int k = pc_model_add_kernel(m, "kern", l);
    ck_assert_int_eq(k, 0);
    pc_kernel *K = &m->kernels[k];
    ck_assert_str_eq(K->name, "kern");
    ck_assert_int_eq(K->insert_loc.line, 3);
    for (int i = 0; i < 20; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "t%d", i);
        int t = pc_kernel_add_tensor(m, K, nm, PC_TENSOR_VALUE, l);
        ck_assert_int_eq(t, i);
    }
    for (int i = 0; i < 20; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "t%d", i);
        ck_assert_str_eq(K->tensors[i].variable, nm);
        ck_assert_ptr_eq(K->tensors[i].name, K->tensors[i].variable);
        ck_assert_int_eq(K->tensors[i].id, i);
        ck_assert_int_eq(K->tensors[i].base, -1);
        ck_assert_int_eq(K->tensors[i].scope_loop, -1);
        ck_assert_int_eq(K->tensors[i].def_stmt, -1);
        ck_assert_int_eq(K->tensors[i].ndims, -1);
        ck_assert_ptr_null(K->tensors[i].shape);
    }
    int s = pc_kernel_add_stmt(m, K, PC_STMT_OP, l);
    ck_assert(K->stmts[s].has_op);
    ck_assert_int_eq(K->stmts[s].loop, -1);
    int s2 = pc_kernel_add_stmt(m, K, PC_STMT_LOOP, l);
    ck_assert(!K->stmts[s2].has_op);
    for (int i = 0; i < 12; i++)
        pc_stmt_add_access(m, &K->stmts[s], i, PC_ACC_READ, PC_UNIT_VECTOR, l);
    ck_assert_int_eq(K->stmts[s].naccesses, 12);
    ck_assert_int_eq(K->stmts[s].accesses[11].tensor, 11);
    int lp = pc_kernel_add_loop(m, K, "l0", l);
    ck_assert_int_eq(K->loops[lp].parent, -1);
    ck_assert_int_eq(K->loops[lp].stmt, -1);
    ck_assert_str_eq(K->loops[lp].index_var, "");
    ck_assert_ptr_null(K->loops[lp].factor_var);
    pc_branch *b = pc_stmt_add_branch(m, &K->stmts[s2], l);
    ck_assert_int_eq(b->decided, -1);
    for (int i = 0; i < 9; i++)
        pc_block_append(m, &K->body, i % 2);
    ck_assert_int_eq(K->body.count, 9);
    ck_assert_int_eq(K->body.stmts[8], 0);
    pc_kernel_add_constant(m, K, "B", 1);
    pc_kernel_add_constant(m, K, "L", 64);
    pc_kernel_add_constant(m, K, "B", 2);
    ck_assert_int_eq(K->nconstants, 2);
    ck_assert_int_eq(K->constants[0].value, 2);
    int o = pc_model_add_option(m, "stitch_function_max_num", PC_SITE_JIT, l);
    ck_assert_int_eq(m->options[o].kernel, -1);
    ck_assert_int_eq(m->options[o].value.kind, PC_OPT_UNKNOWN);
    ck_assert(!m->fatal);
    pc_model_add_message(m, PC_MSG_NOTE, l, "note");
    ck_assert(!m->fatal);
    pc_model_add_message(m, PC_MSG_FATAL, l, "bad");
    ck_assert(m->fatal);
    ck_assert_str_eq(m->messages[1].text, "bad");
    ck_assert_str_eq(pc_access_kind_name(PC_ACC_WRITE_ASSEMBLE), "write_assemble");
    ck_assert_str_eq(pc_tensor_kind_name(PC_TENSOR_VIEW), "view");
    ck_assert_str_eq(pc_unit_name(PC_UNIT_CUBE), "cube");
    ck_assert_str_eq(pc_optsite_kind_name(PC_SITE_CPP_SET_RUNTIME_OPTION), "SetRuntimeOption");
    pc_model_free(m);
}
END_TEST

/* ---- a model with every feature -------------------------------------------------------------- */

static pc_optval ival(pc_model *m, int64_t v, uint32_t col)
{
    pc_optval o;
    memset(&o, 0, sizeof o);
    o.kind = PC_OPT_INT;
    o.i = v;
    o.loc = pc_model_loc(m, NULL, 2, col, 2, col + 2);
    return o;
}

static pc_model *full_model(void)
{
    pc_model *m = pc_model_new("dir/kern \"x\".py", PC_LANG_PYTHON);
    pc_arena *a = m->arena;
    pc_loc L = pc_model_loc(m, m->file, 10, 1, 10, 20);
    pc_loc H = pc_model_loc(m, "include/helper.h", 4, 2, 6, 1);

    /* kernel 0 */
    int k0 = pc_model_add_kernel(m, "k_main", L);
    pc_kernel *K = &m->kernels[k0];
    K->insert_loc = pc_model_loc(m, m->file, 9, 1, 0, 0);
    int tp = pc_kernel_add_tensor(m, K, "x", PC_TENSOR_PARAM, L);
    K->tensors[tp].dtype = PC_DT_FP32;
    K->tensors[tp].ndims = 3;
    K->tensors[tp].shape = pc_arena_alloc(a, 3 * sizeof(pc_expr *));
    K->tensors[tp].shape[0] = pc_expr_int(a, 64);
    K->tensors[tp].shape[1] = pc_expr_sym(a, "x.shape[1]");
    K->tensors[tp].shape[2] = NULL; /* one unknown dimension */
    int tc = pc_kernel_add_tensor(m, K, "tmpAssemble", PC_TENSOR_CREATED, H);
    K->tensors[tc].name = pc_model_strdup(m, "tmp_assemble");
    K->tensors[tc].dtype = PC_DT_BF16;
    K->tensors[tc].ndims = 2;
    K->tensors[tc].shape = pc_arena_alloc(a, 2 * sizeof(pc_expr *));
    K->tensors[tc].shape[0] = pc_expr_parse(a, "min(ceil(n/16), 128)", NULL);
    /* beyond 2^53: written as a string */
    K->tensors[tc].shape[1] = pc_expr_int(a, 9007199254740993LL);
    int tv = pc_kernel_add_tensor(m, K, "dx", PC_TENSOR_VALUE, L);
    K->tensors[tv].dtype = PC_DT_FP4_E1M2X2;
    K->tensors[tv].scope_loop = 0;
    K->tensors[tv].def_stmt = 2;
    K->tensors[tv].ndims = 0;                 /* a scalar: shape known, no dims */
    int tw = pc_kernel_add_tensor(m, K, "", PC_TENSOR_VIEW, L);
    K->tensors[tw].base = tp;
    K->tensors[tw].name = NULL;               /* null strings survive */
    /* an expression with a name and shape the text form cannot carry */
    K->tensors[tw].ndims = 2;
    K->tensors[tw].shape = pc_arena_alloc(a, 2 * sizeof(pc_expr *));
    K->tensors[tw].shape[0] = pc_expr_sym(a, "weird name(0)");
    pc_expr *raw = pc_arena_alloc(a, sizeof *raw);
    raw->kind = PC_EXPR_ADD;                  /* not normalised: 1 + 2 */
    raw->a = pc_expr_int(a, 1);
    raw->b = pc_expr_int(a, 2);
    K->tensors[tw].shape[1] = raw;

    /* statements: 0 op, 1 loop, 2 op in loop, 3 if, 4 op (then), 5 unroll, 6 op (unroll body),
     * 7 unanalysed, 8 inner loop, 9 op in inner loop */
    int s0 = pc_kernel_add_stmt(m, K, PC_STMT_OP, L);
    pc_stmt_add_access(m, &K->stmts[s0], tp, PC_ACC_READ, PC_UNIT_VECTOR, L);
    pc_stmt_add_access(m, &K->stmts[s0], tc, PC_ACC_WRITE_WHOLE, PC_UNIT_NONE, H);
    /* the read is a reduction's, of a region of its tensor (a View) */
    const pc_expr *region[2] = {pc_expr_int(a, 16), pc_expr_sym(a, "n")};
    pc_access_set_op(m, &K->stmts[s0].accesses[0], "Sum", 0, 1);
    pc_access_set_region(m, &K->stmts[s0].accesses[0], region, 2);
    int s1 = pc_kernel_add_stmt(m, K, PC_STMT_LOOP, L);
    int s2 = pc_kernel_add_stmt(m, K, PC_STMT_OP, L);
    pc_stmt_add_access(m, &K->stmts[s2], tv, PC_ACC_DEFINE, PC_UNIT_CUBE, L);
    pc_stmt_add_access(m, &K->stmts[s2], tc, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE, L);
    pc_stmt_add_access(m, &K->stmts[s2], tc, PC_ACC_WRITE_ELEMENT, PC_UNIT_VECTOR, L);
    /* a matmul's transposed left operand */
    K->stmts[s2].accesses[0].role = PC_OPERAND_LEFT;
    K->stmts[s2].accesses[0].transposed = true;
    /* the tile shapes in force at statement 0 */
    pc_tile_shapes *ts = pc_arena_alloc(a, sizeof *ts);
    ts->vec_set = ts->vec_known = true;
    ts->nvec = 2;
    ts->vec[0] = 16;
    ts->vec[1] = 128;
    ts->vec_loc = L;
    ts->cube_set = true;
    ts->cube_m[0] = 16;
    ts->cube_m[1] = 32;
    ts->cube_k[2] = 64;
    ts->cube_n[1] = 8;
    ts->cube_loc = H;
    K->stmts[s0].tiles = ts;
    int s3 = pc_kernel_add_stmt(m, K, PC_STMT_IF, L);
    int s4 = pc_kernel_add_stmt(m, K, PC_STMT_OP, L);
    K->stmts[s4].has_op = false;
    int s5 = pc_kernel_add_stmt(m, K, PC_STMT_UNROLL, L);
    K->stmts[s5].unroll_factor = 4;
    int s6 = pc_kernel_add_stmt(m, K, PC_STMT_OP, L);
    int s7 = pc_kernel_add_stmt(m, K, PC_STMT_UNANALYSED, L);
    K->stmts[s7].message = pc_model_strdup(m, "skipped: while loop\n(data-dependent)");
    int s8 = pc_kernel_add_stmt(m, K, PC_STMT_LOOP, L);
    int s9 = pc_kernel_add_stmt(m, K, PC_STMT_OP, L);
    K->stmts[s9].message = pc_model_strdup(m, "an odd field on an op"); /* off-kind field kept */
    pc_branch *b1 = pc_stmt_add_branch(m, &K->stmts[s3], L);
    b1->cond = pc_expr_parse(a, "j_idx < 1 and not is_loop_end(j_idx) or t == 4", NULL);
    b1->cond_text = pc_model_strdup(m, "pypto.cond(j_idx < 1 and not pypto.is_loop_end(j_idx) or t == 4)");
    b1->decided = 1;
    pc_block_append(m, &b1->body, s4);
    pc_branch *b2 = pc_stmt_add_branch(m, &K->stmts[s3], H);
    b2->decided = 0;
    /* a condition the text form cannot carry (an index variable no NAME can spell), data-dependent
     * branches keep their spelling with no expression */
    pc_branch *b3 = pc_stmt_add_branch(m, &K->stmts[s3], H);
    b3->cond = pc_expr_not(a, pc_expr_loop_pred(a, PC_EXPR_IS_LOOP_BEGIN, "weird index"));
    pc_branch *b4 = pc_stmt_add_branch(m, &K->stmts[s3], H);
    b4->cond_text = pc_model_strdup(m, "x[0] > 0");
    pc_block_append(m, &K->stmts[s5].unroll_body, s6);

    int l0 = pc_kernel_add_loop(m, K, "l_loop_1", L);
    pc_loop *LP = &K->loops[l0];
    LP->index_var = pc_model_strdup(m, "j_idx");
    LP->factor_var = pc_model_strdup(m, "t");
    LP->begin = pc_expr_int(a, 0);
    LP->end = pc_expr_parse(a, "x.shape[0]//4", NULL);
    LP->step = pc_expr_int(a, -2);
    LP->nunroll = 3;
    LP->unroll = pc_arena_alloc(a, 3 * sizeof(int64_t));
    LP->unroll[0] = 16;
    LP->unroll[1] = 4;
    LP->unroll[2] = -9007199254740999LL;
    LP->submit_before_loop = true;
    LP->unroll_rule = PC_UNROLL_RULE_PER_FACTOR;
    LP->stmt = s1;
    LP->header = H;
    K->stmts[s1].loop = l0;
    pc_block_append(m, &LP->body, s2);
    pc_block_append(m, &LP->body, s3);
    pc_block_append(m, &LP->body, s5);
    pc_block_append(m, &LP->body, s8);
    int l1 = pc_kernel_add_loop(m, K, "inner", L);
    K->loops[l1].parallel = true;
    K->loops[l1].parent = l0;
    K->loops[l1].stmt = s8;
    K->loops[l1].begin = NULL; /* unknown bound */
    K->loops[l1].end = pc_expr_sym(a, "n");
    K->loops[l1].step = pc_expr_int(a, 1);
    K->stmts[s8].loop = l1;
    pc_block_append(m, &K->loops[l1].body, s9);
    pc_block_append(m, &K->body, s0);
    pc_block_append(m, &K->body, s1);
    pc_block_append(m, &K->body, s7);
    pc_kernel_add_constant(m, K, "B", 1);
    pc_kernel_add_constant(m, K, "HUGE", INT64_MIN);
    pc_kernel_add_constant(m, K, "with space", -3);

    /* kernel 1: empty */
    int k1 = pc_model_add_kernel(m, "k_empty", H);
    (void)k1;

    /* options: every value kind, nested lists, every site */
    int o = pc_model_add_option(m, "stitch_function_num_per_pool", PC_SITE_SET_RUNTIME_OPTIONS, L);
    pc_optval *v = &m->options[o].value;
    v->kind = PC_OPT_LIST;
    v->nitems = 3;
    v->items = pc_arena_alloc(a, 3 * sizeof *v->items);
    v->items[0] = ival(m, 64, 5);
    v->items[1].kind = PC_OPT_BOOL;
    v->items[1].i = 1;
    v->items[2].kind = PC_OPT_LIST;           /* nested */
    v->items[2].nitems = 2;
    v->items[2].items = pc_arena_alloc(a, 2 * sizeof(pc_optval));
    v->items[2].items[0] = ival(m, 1, 9);
    v->items[2].items[1].kind = PC_OPT_TUPLE; /* empty tuple */
    v->text = NULL;
    v->loc = pc_model_loc(m, NULL, 2, 3, 2, 30);
    m->options[o].in_kernel = true;
    o = pc_model_add_option(m, "max_workspace_kb", PC_SITE_JIT, L);
    m->options[o].kernel = 0;
    m->options[o].value.kind = PC_OPT_FLOAT;
    m->options[o].value.f = 1.5;
    m->options[o].value.text = pc_model_strdup(m, "1.50");
    o = pc_model_add_option(m, "a", PC_SITE_SET_OPTIONS, L);
    m->options[o].value.kind = PC_OPT_STRING;
    m->options[o].value.text = pc_model_strdup(m, "abc\t\"q\"");
    o = pc_model_add_option(m, "b", PC_SITE_OPTIONS_SCOPE, L);
    m->options[o].value.kind = PC_OPT_NONE;
    m->options[o].value.text = NULL;
    o = pc_model_add_option(m, "c", PC_SITE_CPP_SET_RUNTIME_OPTION, H);
    m->options[o].kernel = 1;
    m->options[o].value.text = pc_model_strdup(m, "kDepth * 2"); /* UNKNOWN */
    o = pc_model_add_option(m, "d", PC_SITE_CONFIG_FILE, L);
    m->options[o].value.kind = PC_OPT_INT;
    m->options[o].value.i = 9007199254740993LL;
    m->options[o].value.text = pc_model_strdup(m, "0x20000000000001"); /* off-kind text kept */
    m->options[o].value.f = -0.0;                                      /* and f */
    o = pc_model_add_option(m, "e", PC_SITE_PROJECT_FILE, L);
    m->options[o].value.kind = PC_OPT_FLOAT;
    m->options[o].value.f = 1e300 * 1e300; /* inf */
    m->options[o].value.i = 7;
    o = pc_model_add_option(m, "f", PC_SITE_COMMAND_LINE, L);
    m->options[o].value.kind = PC_OPT_BOOL;
    m->options[o].value.i = 2;
    m->options[o].value.f = 0.1;
    o = pc_model_add_option(m, "g", PC_SITE_SET_RUNTIME_OPTIONS, L);
    m->options[o].value.kind = PC_OPT_FLOAT;
    m->options[o].value.f = 2.0;
    m->options[o].value.text = NULL;

    pc_model_add_message(m, PC_MSG_PARSE_NOISE, H, "clang: unknown type");
    pc_model_add_message(m, PC_MSG_WARNING, L, "w");
    pc_model_add_message(m, PC_MSG_NOTE, (pc_loc){NULL, 0, 0, 0, 0}, "");
    pc_model_add_message(m, PC_MSG_FATAL, L, "syntax error");
    pc_model_add_message_check(m, PC_MSG_NOTE, L, "PC013", "'pypto.argsort': result shape not inferred");
    return m;
}

START_TEST(json_round_trip)
{
    pc_model *m = full_model();
    char *text = pc_model_to_json(m);
    char *err = NULL;
    pc_model *back = pc_model_from_json(text, strlen(text), &err);
    ck_assert_msg(back != NULL, "from_json: %s\n%s", err ? err : "?", text);
    char where[512];
    ck_assert_msg(pc_model_equal(m, back, where, sizeof where), "differs at %s", where);
    ck_assert_str_eq(where, "");
    /* deterministic, and a fixed point */
    char *again = pc_model_to_json(back);
    ck_assert_str_eq(text, again);
    char *text2 = pc_model_to_json(m);
    ck_assert_str_eq(text, text2);
    /* readable: names for enums, version, 2-space indent, locs without the model's file */
    ck_assert_ptr_nonnull(strstr(text, "\n  \"version\": 1,\n"));
    ck_assert_ptr_nonnull(strstr(text, "\"kind\": \"write_assemble\", \"unit\": \"none\""));
    ck_assert_ptr_nonnull(strstr(text, "\"dtype\": \"FP4_E1M2X2\""));
    ck_assert_ptr_nonnull(strstr(text, "\"site\": \"SetRuntimeOption\""));
    ck_assert_ptr_nonnull(strstr(text, "\"loc\": {\"line\": 10, \"col\": 1, \"end_line\": 10, \"end_col\": 20}"));
    ck_assert_ptr_nonnull(strstr(text, "{\"file\": \"include/helper.h\", \"line\": 4"));
    ck_assert_ptr_nonnull(strstr(text, "\"shape\": [64, \"x.shape[1]\", null]"));
    ck_assert_ptr_nonnull(strstr(text, "\"min(ceil(n/16), 128)\", \"9007199254740993\""));
    ck_assert_ptr_nonnull(strstr(text, "{\"sym\": \"weird name(0)\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"value\": \"inf\""));
    ck_assert_ptr_nonnull(strstr(text, "\"value\": 2.0"));
    ck_assert_ptr_nonnull(strstr(text, "\"cond\": \"j_idx < 1 and not is_loop_end(j_idx) or t == 4\", "
                                       "\"cond_text\": \"pypto.cond(j_idx < 1 and not pypto.is_loop_end(j_idx) or t == 4)\""));
    ck_assert_ptr_nonnull(strstr(text, "\"cond\": {\"op\": \"not\", \"a\": {\"op\": \"is_loop_begin\", \"var\": \"weird index\"}}"));
    ck_assert_ptr_nonnull(strstr(text, "\"cond\": null, \"cond_text\": \"x[0] > 0\""));
    ck_assert_ptr_nonnull(strstr(text, "\"unroll_rule\": \"per_factor\""));
    /* a message's check id only where it has one */
    ck_assert_ptr_nonnull(strstr(text, "\"text\": \"'pypto.argsort': result shape not inferred\", \"check\": \"PC013\""));
    ck_assert_ptr_null(strstr(text, "\"check\": null"));
    ck_assert_str_eq(back->messages[4].check, "PC013");
    ck_assert_ptr_null(back->messages[3].check);
    ck_assert_ptr_null(strstr(text, "\t"));
    /* the model arena's file string is shared by locations read back */
    ck_assert_ptr_eq(back->kernels[0].loc.file, back->file);
    /* builders keep working on a model read from JSON */
    pc_kernel *K = &back->kernels[0];
    for (int i = 0; i < 10; i++)
        pc_kernel_add_tensor(back, K, "more", PC_TENSOR_VALUE, K->loc);
    ck_assert_int_eq(K->ntensors, 14);
    ck_assert_str_eq(K->tensors[1].name, "tmp_assemble");
    for (int i = 0; i < 10; i++)
        pc_block_append(back, &K->body, 0);
    ck_assert_int_eq(K->body.stmts[2], 7);
    free(text);
    free(again);
    free(text2);
    pc_model_free(m);
    pc_model_free(back);
}
END_TEST

START_TEST(json_empty_model)
{
    pc_model *m = pc_model_new("", PC_LANG_UNKNOWN);
    char *text = pc_model_to_json(m);
    char *err = NULL;
    pc_model *back = pc_model_from_json(text, strlen(text), &err);
    ck_assert_msg(back != NULL, "%s", err ? err : "");
    ck_assert(pc_model_equal(m, back, NULL, 0));
    ck_assert_str_eq(text, "{\n  \"version\": 1,\n  \"file\": \"\",\n  \"lang\": \"unknown\",\n  \"fatal\": false,\n"
                           "  \"kernels\": [],\n  \"options\": [],\n  \"messages\": []\n}\n");
    free(text);
    pc_model_free(m);
    pc_model_free(back);
}
END_TEST

START_TEST(json_equal_names_difference)
{
    pc_model *m = full_model();
    char *text = pc_model_to_json(m);
    char where[256];
    struct { const char *from, *to, *where; } cases[] = {
        {"\"x.shape[1]\"", "\"x.shape[2]\"", "kernels[0].tensors[0].shape[1]: x.shape[1] != x.shape[2]"},
        {"\"name\": \"l_loop_1\"", "\"name\": \"l_loop_2\"", "kernels[0].loops[0].name: \"l_loop_1\" != \"l_loop_2\""},
        {"\"decided\": 1", "\"decided\": -1", "kernels[0].stmts[3].branches[0].decided: 1 != -1"},
        {"{\"kind\": \"int\", \"value\": 1,", "{\"kind\": \"int\", \"value\": 2,",
         "options[0].value.items[2].items[0].i: 1 != 2"},
        {"\"end_line\": 6", "\"end_line\": 7", "kernels[0].tensors[1].loc.end_line: 6 != 7"},
        {"\"B\": 1", "\"B\": 1, \"C\": 2", "kernels[0].constants: 3 items != 4"},
        {"\"text\": \"w\"", "\"text\": null", "messages[1].text: \"w\" != null"},
        {"\"check\": \"PC013\"", "\"check\": \"PC014\"", "messages[4].check: \"PC013\" != \"PC014\""},
        {"\"fatal\": true", "\"fatal\": false", "fatal: 1 != 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *mod = replace_first(text, cases[i].from, cases[i].to);
        char *err = NULL;
        pc_model *b = pc_model_from_json(mod, strlen(mod), &err);
        ck_assert_msg(b != NULL, "case %zu: %s", i, err ? err : "");
        ck_assert(!pc_model_equal(m, b, where, sizeof where));
        ck_assert_msg(strncmp(where, cases[i].where, strlen(cases[i].where)) == 0, "case %zu: got '%s'", i, where);
        /* where is always terminated, even when small */
        char tiny[8];
        ck_assert(!pc_model_equal(m, b, tiny, sizeof tiny));
        ck_assert_uint_eq(strlen(tiny), 7);
        pc_model_free(b);
        free(mod);
    }
    /* a structurally different expression with the same text */
    pc_model *c = full_model();
    pc_expr *raw = pc_arena_alloc(c->arena, sizeof *raw);
    raw->kind = PC_EXPR_MUL;
    raw->a = pc_expr_sym(c->arena, "x.shape[1]");
    raw->b = pc_expr_int(c->arena, 1);
    c->kernels[0].tensors[0].shape[1] = raw;
    ck_assert(!pc_model_equal(m, c, where, sizeof where));
    ck_assert_str_eq(where, "kernels[0].tensors[0].shape[1]: x.shape[1] != x.shape[1]*1");
    ck_assert(!pc_model_equal(m, NULL, where, sizeof where));
    ck_assert(pc_model_equal(m, m, where, sizeof where));
    pc_model_free(c);
    pc_model_free(m);
    free(text);
}
END_TEST

/* ---- from_json errors ------------------------------------------------------------------------ */

static char *load_err(const char *text)
{
    char *err = NULL;
    pc_model *m = pc_model_from_json(text, strlen(text), &err);
    ck_assert_msg(m == NULL, "accepted: %.200s", text);
    ck_assert_ptr_nonnull(err);
    return err;
}

static void expect_err(const char *text, const char *want)
{
    char *err = load_err(text);
    ck_assert_msg(strstr(err, want) != NULL, "got '%s', want '%s'", err, want);
    free(err);
}

/* Mutate the full model's JSON and expect the error message `want`. */
static void expect_mut(const char *from, const char *to, const char *want)
{
    pc_model *m = full_model();
    char *text = pc_model_to_json(m);
    char *mod = replace_first(text, from, to);
    char *err = NULL;
    pc_model *bad = pc_model_from_json(mod, strlen(mod), &err);
    ck_assert_msg(bad == NULL && err, "'%s' -> '%s' accepted", from, to);
    ck_assert_msg(strcmp(err, want) == 0, "'%s' -> '%s': got '%s', want '%s'", from, to, err, want);
    free(err);
    free(mod);
    free(text);
    pc_model_free(m);
}

/* Several replacements (pairs of strings, NULL-terminated), then expect `want`. */
static void expect_muts(const char *want, ...)
{
    pc_model *m = full_model();
    char *text = pc_model_to_json(m);
    va_list ap;
    va_start(ap, want);
    const char *from;
    while ((from = va_arg(ap, const char *)) != NULL) {
        const char *to = va_arg(ap, const char *);
        char *next = replace_first(text, from, to);
        free(text);
        text = next;
    }
    va_end(ap);
    char *err = NULL;
    pc_model *bad = pc_model_from_json(text, strlen(text), &err);
    ck_assert_msg(bad == NULL && err, "accepted, want '%s'", want);
    ck_assert_msg(strcmp(err, want) == 0, "got '%s', want '%s'", err, want);
    free(err);
    free(text);
    pc_model_free(m);
}

START_TEST(json_syntax_errors)
{
    expect_err("{\n  \"version\": 1,\n  \"file\": x\n}", "line 3, column 11: expected a value, found 'x'");
    expect_err("{\"version\": 1,}", "line 1, column 15: expected a string key, found '}'");
    expect_err("", "line 1, column 1: expected a value, found end of input");
    expect_err("  \n ", "line 2, column 2: expected a value, found end of input");
    expect_err("{\"a\":\n", "line 2, column 1: expected a value, found end of input");
    expect_err("{} x", "line 1, column 4: unexpected text after the JSON value, found 'x'");
    expect_err("{}\n\n  {}", "line 3, column 3: unexpected text after the JSON value, found '{'");
    expect_err("[1, 2] ]", "line 1, column 8: unexpected text after the JSON value, found ']'");
    expect_err("[1, 2,]", "line 1, column 7: expected a value, found ']'");
    expect_err("{\"a\" 1}", "line 1, column 6: expected ':' after the key, found '1'");
    expect_err("{\"a\": 1 \"b\": 2}", "line 1, column 9: expected ',' or '}', found '\"'");
    expect_err("[1 2]", "line 1, column 4: expected ',' or ']', found '2'");
    /* RFC 8259, stricter than cJSON alone */
    expect_err("[01]", "line 1, column 2: invalid number (leading zero)");
    expect_err("[+1]", "line 1, column 2: expected a value, found '+'");
    expect_err("[.5]", "line 1, column 2: expected a value, found '.'");
    expect_err("[1.]", "line 1, column 4: invalid number: expected a digit after '.', found ']'");
    expect_err("[1e]", "line 1, column 4: invalid number: expected a digit in the exponent, found ']'");
    expect_err("[-]", "line 1, column 3: invalid number: expected a digit, found ']'");
    expect_err("[tru]", "line 1, column 2: expected a value, found 't'");
    expect_err("[True]", "line 1, column 2: expected a value, found 'T'");
    expect_err("[\"a\tb\"]", "line 1, column 4: control character in a string");
    expect_err("[\"a\\qb\"]", "line 1, column 4: invalid escape '\\q'");
    expect_err("[\"\\u12G4\"]", "line 1, column 3: invalid \\u escape (expected 4 hex digits)");
    expect_err("[\"\\udc00\"]", "line 1, column 3: invalid \\u escape (a low surrogate without a high one)");
    expect_err("[\"\\ud800x\"]", "line 1, column 3: invalid \\u escape (a high surrogate without a low one)");
    expect_err("[\"\\u0000\"]", "line 1, column 3: \\u0000 is not allowed in strings");
    expect_err("[\"\xff\"]", "line 1, column 3: invalid UTF-8 in a string");
    expect_err("[\"\xc0\xaf\"]", "line 1, column 3: invalid UTF-8 in a string");
    expect_err("[\"abc", "line 1, column 6: unterminated string, found end of input");
    expect_err("[1234567890123456789012345678901234567890123456789012345678901234567890]",
               "line 1, column 2: number too long (more than 63 characters)");
    /* what is valid reaches the model reader (and a byte order mark is skipped) */
    expect_err("\xEF\xBB\xBF[\"\\ud83d\\ude00 \xc3\xa9\", -0.5e+3, true, false, null, {}]",
               "top level: expected an object, got an array");
    expect_err("\xEF\xBB\xBF{\n x}", "line 2, column 2: expected a string key, found 'x'");
    char nul[] = "{\"a\": 1}";
    nul[4] = 0;
    char *err = NULL;
    ck_assert_ptr_null(pc_model_from_json(nul, 8, &err));
    ck_assert_str_eq(err, "line 1, column 5: unexpected NUL byte");
    free(err);
    /* the length bounds the text: no read past it, no need for a terminator */
    const char *partial = "{}garbage";
    ck_assert_ptr_null(pc_model_from_json(partial, 2, &err));
    ck_assert_str_eq(err, "top level: missing \"version\"");
    free(err);
    ck_assert_ptr_null(pc_model_from_json(partial, 2, NULL)); /* err is optional */
}
END_TEST

START_TEST(json_deep_nesting)
{
    size_t n = 100000;
    char *deep = malloc(n + 1);
    memset(deep, '[', n);
    deep[n] = 0;
    expect_err(deep, "line 1, column 1001: nesting deeper than 1000 levels");
    for (size_t i = 0; i < n; i++)
        deep[i] = (i % 2) ? '[' : '{';
    /* "{[{[" is not even valid JSON at depth 2: the syntax error comes first */
    expect_err(deep, "line 1, column 2: expected a string key, found '['");
    for (size_t i = 0; i < n; i += 5)
        memcpy(deep + i, "{\"a\":", 5);
    expect_err(deep, "nesting deeper than 1000 levels");
    free(deep);
    /* 999 levels are fine for the parser (and then not a model) */
    char *ok = malloc(2 * 999 + 1);
    memset(ok, '[', 999);
    memset(ok + 999, ']', 999);
    ok[1998] = 0;
    expect_err(ok, "top level: expected an object, got an array");
    free(ok);
}
END_TEST

START_TEST(json_field_errors)
{
    expect_mut("\"version\": 1", "\"version\": 2", "version: unsupported model version 2 (this poolcheck reads version 1)");
    expect_mut("\"version\": 1", "\"Version\": 1", "top level: unknown field \"Version\"");
    expect_mut("\"lang\": \"python\"", "\"lang\": \"Python\"", "lang: unknown value \"Python\"");
    expect_mut("\"kind\": \"param\",", "", "kernels[0].tensors[0]: missing \"kind\"");
    expect_mut("\"kind\": \"param\"", "\"kind\": \"PARAM\"", "kernels[0].tensors[0].kind: unknown value \"PARAM\"");
    expect_mut("\"name\": \"k_main\"", "\"name\": 5", "kernels[0].name: expected a string or null, got a number");
    expect_mut("\"dtype\": \"FP32\"", "\"dtype\": \"DT_FP32\"", "kernels[0].tensors[0].dtype: unknown value \"DT_FP32\"");
    expect_mut("\"shape\": [64,", "\"shape\": [true,",
               "kernels[0].tensors[0].shape[0]: expected an expression (integer, string or object), got a boolean");
    expect_mut("\"x.shape[1]\"", "\"x.shape[1] +\"",
               "kernels[0].tensors[0].shape[1]: invalid expression \"x.shape[1] +\": unexpected end of expression");
    expect_mut("\"id\": 0", "\"id\": 1", "kernels[0].id: 1 is out of range [0, 0]");
    expect_mut("\"line\": 10", "\"line\": 10.5", "kernels[0].loc.line: expected an integer, got 10.5");
    expect_mut("\"line\": 10", "\"line\": -1", "kernels[0].loc.line: -1 is out of range [0, 4294967295]");
    expect_mut("\"line\": 10", "\"line\": 1e300",
               "kernels[0].loc.line: integer 1e+300 is too large to be exact in JSON (write it as a string)");
    expect_mut("\"line\": 10", "\"line\": \"ten\"", "kernels[0].loc.line: expected an integer, got \"ten\"");
    expect_mut("\"line\": 10", "\"line\": null", "kernels[0].loc.line: expected an integer, got null");
}
END_TEST

START_TEST(json_index_errors)
{
    expect_mut("\"base\": 0", "\"base\": 99", "kernels[0].tensors[3].base: tensor index 99 out of range (4 tensors)");
    expect_mut("\"base\": 0", "\"base\": -2", "kernels[0].tensors[3].base: tensor index -2 out of range (4 tensors)");
    expect_mut("\"scope_loop\": 0", "\"scope_loop\": 2", "kernels[0].tensors[2].scope_loop: loop index 2 out of range (2 loops)");
    expect_mut("\"def_stmt\": 2", "\"def_stmt\": 10",
               "kernels[0].tensors[2].def_stmt: statement index 10 out of range (10 statements)");
    expect_mut("{\"tensor\": 0,", "{\"tensor\": 4,",
               "kernels[0].stmts[0].accesses[0].tensor: tensor index 4 out of range (4 tensors)");
    expect_mut("{\"tensor\": 0,", "{\"tensor\": -1,",
               "kernels[0].stmts[0].accesses[0].tensor: tensor index -1 out of range (4 tensors)");
    expect_mut("\"loop\": 0", "\"loop\": -1", "kernels[0].stmts[1].loop: loop index -1 out of range (2 loops)");
    expect_mut("\"parent\": 0", "\"parent\": 5", "kernels[0].loops[1].parent: loop index 5 out of range (2 loops)");
    expect_mut("\"stmt\": 1", "\"stmt\": 77", "kernels[0].loops[0].stmt: statement index 77 out of range (10 statements)");
    expect_mut("\"body\": [0, 1, 7]", "\"body\": [0, 1, 10]",
               "kernels[0].body[2]: statement index 10 out of range (10 statements)");
    expect_mut("\"unroll_body\": [6]", "\"unroll_body\": [60]",
               "kernels[0].stmts[5].unroll_body[0]: statement index 60 out of range (10 statements)");
    expect_mut("\"kernel\": 0", "\"kernel\": 2", "options[1].kernel: kernel index 2 out of range (2 kernels)");
    /* the statement tree */
    expect_mut("\"body\": [0, 1, 7]", "\"body\": [0, 1, 7, 2]",
               "kernels[0].loops[0].body[0]: statement 2 appears in more than one block");
    expect_muts("kernels[0].stmts[5]: statement 5 contains itself (its blocks form a cycle)",
                "\"unroll_body\": [6]", "\"unroll_body\": [5, 6]", "\"body\": [2, 3, 5, 8]", "\"body\": [2, 3, 8]",
                NULL);
    /* a cycle through two statements (if -> unroll -> if), unreachable from the kernel body */
    expect_muts("kernels[0].stmts[3]: statement 3 contains itself (its blocks form a cycle)",
                "\"unroll_body\": [6]", "\"unroll_body\": [3, 6]", "\"body\": [2, 3, 5, 8]", "\"body\": [2, 8]",
                "\"body\": [4]", "\"body\": [4, 5]", NULL);
    /* a loop whose body holds its own LOOP statement */
    expect_muts("kernels[0].stmts[8]: statement 8 contains itself (its blocks form a cycle)",
                "\"body\": [2, 3, 5, 8]", "\"body\": [2, 3, 5]", "\"body\": [9]", "\"body\": [9, 8]", NULL);
    expect_mut("\"loop\": 1", "\"loop\": 0", "kernels[0].stmts[8].loop: loop 0 is already the loop of statement 1");
    expect_mut("\"parent\": -1", "\"parent\": 1", "kernels[0].loops[0].parent: the chain of parent loops forms a cycle");
    expect_mut("\"base\": -1", "\"base\": 3", "kernels[0].tensors[0].base: the chain of view bases forms a cycle");
}
END_TEST

START_TEST(json_value_errors)
{
    expect_mut("{\"kind\": \"int\", \"value\": 64,", "{\"kind\": \"int\", \"value\": \"64x\",",
               "options[0].value.items[0].value: expected an integer, got \"64x\"");
    expect_mut("{\"kind\": \"int\", \"value\": 64,", "{\"kind\": \"int\",", "options[0].value.items[0]: missing \"value\"");
    expect_mut("{\"kind\": \"tuple\", \"items\": [],", "{\"kind\": \"tuple\", \"items\": {},",
               "options[0].value.items[2].items[1].items: expected an array, got an object");
    expect_mut("{\"kind\": \"none\",", "{\"kind\": \"none\", \"value\": 1,", "options[3].value: \"value\" is not used by kind \"none\"");
    expect_mut("\"kind\": \"warning\"", "\"kind\": \"remark\"", "messages[1].kind: unknown value \"remark\"");
    expect_mut("{\"sym\": \"weird name(0)\"}", "{\"op\": \"add\", \"a\": 1}", "kernels[0].tensors[3].shape[0]: missing \"b\"");
    expect_mut("{\"sym\": \"weird name(0)\"}", "{\"op\": \"pow\", \"a\": 1, \"b\": 2}",
               "kernels[0].tensors[3].shape[0].op: unknown value \"pow\"");
    expect_mut("{\"op\": \"is_loop_begin\", \"var\": \"weird index\"}", "{\"op\": \"is_loop_begin\"}",
               "kernels[0].stmts[3].branches[2].cond.a: missing \"var\"");
    expect_mut("{\"op\": \"is_loop_begin\", \"var\": \"weird index\"}", "{\"op\": \"is_loop_end\", \"var\": \"\"}",
               "kernels[0].stmts[3].branches[2].cond.a: \"var\": a loop predicate needs the loop's index variable");
    expect_mut("{\"op\": \"is_loop_begin\", \"var\": \"weird index\"}",
               "{\"op\": \"is_loop_begin\", \"var\": \"i\", \"a\": 1}",
               "kernels[0].stmts[3].branches[2].cond.a: a loop predicate has no operands");
    expect_mut("{\"op\": \"is_loop_begin\", \"var\": \"weird index\"}", "{\"op\": \"lt\", \"a\": 1, \"b\": 2, \"var\": \"i\"}",
               "kernels[0].stmts[3].branches[2].cond.a: \"var\" belongs to is_loop_begin / is_loop_end only");
    expect_mut("\"cond_text\": \"x[0] > 0\"", "\"cond_text\": 3",
               "kernels[0].stmts[3].branches[3].cond_text: expected a string or null, got a number");
    expect_mut("\"unroll_rule\": \"per_factor\"", "\"unroll_rule\": \"python\"",
               "kernels[0].loops[0].unroll_rule: unknown value \"python\"");
    expect_mut("\"op\": \"Sum\", \"call\": 0", "\"call\": 0", "kernels[0].stmts[0].accesses[0].call: \"call\" without \"op\"");
    expect_mut("\"op\": \"Sum\", \"call\": 0", "\"op\": \"Sum\"", "kernels[0].stmts[0].accesses[0]: missing \"call\"");
    expect_mut("\"axis\": 1", "\"axis\": -1", "kernels[0].stmts[0].accesses[0].axis: -1 is out of range [0, 64]");
    expect_mut("\"region\": [16, \"n\"]", "\"region\": 16", "kernels[0].stmts[0].accesses[0].region: expected an array, got a number");
    expect_mut("\"in_kernel\": true", "\"in_kernel\": 1", "options[0].in_kernel: expected a boolean, got a number");
    expect_mut("\"in_kernel\": true", "\"in_kernel\": true, \"in_kernel\": false",
               "options[0]: duplicate field \"in_kernel\"");
}
END_TEST

/* What the one strict JSON reader (poolcheck/json.h) catches that the model reader took before. */
START_TEST(json_strict_reader)
{
    /* a number beyond a double's range was read as infinity: now an error at the number */
    pc_model *m = full_model();
    char *text = pc_model_to_json(m);
    char *mod = replace_first(text, "\"value\": 1.5", "\"value\": 1e400");
    const char *num = strstr(mod, "1e400");
    unsigned line = 1, col = 1;
    for (const char *p = mod; p < num; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char want[128];
    snprintf(want, sizeof want, "line %u, column %u: number out of range (beyond what a double holds)", line, col);
    char *err = NULL;
    ck_assert_ptr_null(pc_model_from_json(mod, strlen(mod), &err));
    ck_assert_str_eq(err, want);
    free(err);
    free(mod);
    free(text);
    pc_model_free(m);
    /* a lone CR ends a line, as it does for every other input (support.h's line rule) */
    expect_err("{\r  \"version\": 1,\r  \"file\": x\r}", "line 3, column 11: expected a value, found 'x'");
    expect_err("{\r\n\"a\":\r\r\n x}", "line 4, column 2: expected a value, found 'x'");
}
END_TEST

/* ---- the field table (fields.def) ------------------------------------------------------------- */

/* The rows of each struct are in the order of its members (fields_check.c checks at compile time
 * that they cover every member), and full_model sets every field the JSON has a key for, so that
 * json_round_trip and copy_equals_original hold each one. */
START_TEST(fields_table_in_struct_order)
{
    size_t n = pc_model_fields(NULL, 0);
    ck_assert_uint_gt(n, 50);
    pc_model_field *rows = calloc(n, sizeof *rows);
    ck_assert_uint_eq(pc_model_fields(rows, n), n);
    pc_model *m = full_model();
    char *text = pc_model_to_json(m);
    int structs = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(rows[i].strct, rows[i - 1].strct) != 0) {
            structs++;
        } else {
            ck_assert_msg(rows[i].offset > rows[i - 1].offset, "%s.%s is not after %s in the struct", rows[i].strct,
                          rows[i].member, rows[i - 1].member);
        }
        ck_assert_uint_lt(rows[i].offset, rows[i].struct_size);
        if (!rows[i].key)
            continue;
        char want[64];
        snprintf(want, sizeof want, "\"%s\": ", rows[i].key);
        ck_assert_msg(strstr(text, want), "full_model has no %s.%s (\"%s\"): add it", rows[i].strct, rows[i].member,
                      rows[i].key);
    }
    ck_assert_int_eq(structs, 9);
    free(text);
    free(rows);
    pc_model_free(m);
}
END_TEST

START_TEST(copy_equals_original)
{
    pc_model *m = full_model();
    /* one tile state shared by two statements, one expression by two dims */
    pc_kernel *K = &m->kernels[0];
    ck_assert_ptr_nonnull(K->stmts[0].tiles);
    K->stmts[1].tiles = K->stmts[0].tiles;
    K->tensors[1].shape[0] = K->tensors[0].shape[1];
    char *text = pc_model_to_json(m);
    pc_model *c = pc_model_copy(m);
    char where[512];
    ck_assert_msg(pc_model_equal(m, c, where, sizeof where), "copy differs at %s", where);
    const pc_kernel *C = &c->kernels[0];
    ck_assert_ptr_eq(C->stmts[1].tiles, C->stmts[0].tiles);
    ck_assert_ptr_ne(C->stmts[0].tiles, K->stmts[0].tiles);
    ck_assert_ptr_eq(C->tensors[1].shape[0], C->tensors[0].shape[1]);
    ck_assert_ptr_ne(C->tensors[0].shape[1], K->tensors[0].shape[1]);
    ck_assert_ptr_eq(C->loc.file, c->file);
    ck_assert_str_eq(C->ref, K->ref);
    /* nothing of the copy points into the original */
    pc_model_free(m);
    char *again = pc_model_to_json(c);
    ck_assert_str_eq(text, again);
    /* the builders keep working on a copy */
    pc_kernel *W = &c->kernels[0];
    for (int i = 0; i < 10; i++)
        pc_kernel_add_tensor(c, W, "more", PC_TENSOR_VALUE, W->loc);
    ck_assert_int_eq(W->ntensors, 14);
    free(text);
    free(again);
    pc_model_free(c);
}
END_TEST

START_TEST(copier_moves_lines)
{
    pc_model *m = full_model();
    pc_model *d = pc_model_new("moved.py", PC_LANG_PYTHON);
    pc_model_copier *c = pc_model_copier_new(d, m);
    ck_assert_int_eq(pc_model_copier_kernel(c, &m->kernels[1]), 0);
    pc_model_copier_set_line_delta(c, 5);
    ck_assert_int_eq(pc_model_copier_kernel(c, &m->kernels[0]), 1);
    ck_assert_int_eq(pc_model_copier_option(c, &m->options[1], 0), 0);
    pc_model_copier_message(c, &m->messages[3]); /* the fatal one */
    pc_model_copier_free(c);
    const pc_kernel *s = &m->kernels[0], *k = &d->kernels[1];
    ck_assert_int_eq(k->id, 1);
    ck_assert_int_eq(d->kernels[0].id, 0);
    ck_assert_ptr_eq(k->loc.file, d->file);
    ck_assert_uint_eq(k->loc.line, s->loc.line + 5);
    ck_assert_uint_eq(k->loc.end_line, s->loc.end_line + 5);
    ck_assert_uint_eq(k->loc.col, s->loc.col);
    ck_assert_uint_eq(k->tensors[0].loc.line, s->tensors[0].loc.line + 5);
    ck_assert_uint_eq(k->stmts[0].tiles->vec_loc.line, s->stmts[0].tiles->vec_loc.line + 5);
    /* another file's locations stay */
    ck_assert_str_eq(d->kernels[0].loc.file, "include/helper.h");
    ck_assert_uint_eq(d->kernels[0].loc.line, m->kernels[1].loc.line);
    ck_assert_str_eq(k->tensors[1].loc.file, "include/helper.h");
    ck_assert_uint_eq(k->tensors[1].loc.line, s->tensors[1].loc.line);
    ck_assert_uint_eq(k->stmts[0].tiles->cube_loc.line, s->stmts[0].tiles->cube_loc.line);
    ck_assert_int_eq(d->options[0].kernel, 0);
    ck_assert_str_eq(d->options[0].key, m->options[1].key);
    ck_assert(d->fatal);
    ck_assert_int_eq(d->nmessages, 1);
    pc_model_free(m);
    ck_assert_int_eq(k->nstmts, 10);
    ck_assert_int_eq(k->stmts[3].nbranches, 4);
    pc_model_free(d);
}
END_TEST

/* The models of real sources: write -> read -> equal, and copy -> equal with the same text. */
static void fixture_round_trip(pc_frontend *fe, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PC_SOURCE_DIR, rel);
    pc_model *m = pc_frontend_parse(fe, path, NULL, 0, NULL);
    ck_assert_msg(!m->fatal, "%s: not parsed", rel);
    char *text = pc_model_to_json(m);
    char *err = NULL;
    pc_model *back = pc_model_from_json(text, strlen(text), &err);
    ck_assert_msg(back, "%s: %s", rel, err ? err : "?");
    char where[512];
    ck_assert_msg(pc_model_equal(m, back, where, sizeof where), "%s: read back differs at %s", rel, where);
    pc_model *c = pc_model_copy(m);
    ck_assert_msg(pc_model_equal(m, c, where, sizeof where), "%s: copy differs at %s", rel, where);
    pc_model_free(m);
    char *again = pc_model_to_json(c);
    ck_assert_msg(!strcmp(text, again), "%s: the copy writes another text", rel);
    free(again);
    free(text);
    pc_model_free(back);
    pc_model_free(c);
}

START_TEST(fixture_models_round_trip)
{
    static const char *const dirs[] = {"examples", "tests/fixtures/paths", "tests/fixtures/tiles",
                                       "tests/fixtures/python", "tests/fixtures/checks"};
    pc_frontend *fe = pc_frontend_new();
    int files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", PC_SOURCE_DIR, dirs[d]);
        DIR *dp = opendir(dir);
        ck_assert_msg(dp != NULL, "%s", dir);
        struct dirent *e;
        char **names = NULL;
        size_t nn = 0;
        while ((e = readdir(dp)) != NULL) {
            size_t len = strlen(e->d_name);
            bool py = len > 3 && !strcmp(e->d_name + len - 3, ".py");
            bool cpp = len > 4 && !strcmp(e->d_name + len - 4, ".cpp");
            if (!py && !cpp)
                continue;
            names = realloc(names, (nn + 1) * sizeof *names);
            names[nn] = malloc(strlen(dirs[d]) + len + 2);
            sprintf(names[nn++], "%s/%s", dirs[d], e->d_name);
        }
        closedir(dp);
        for (size_t i = 0; i < nn; i++) {
            /* a source the frontend cannot read at all (a fixture of a broken file) has no model to
             * hold */
            if (!strstr(names[i], "/broken_") && !strstr(names[i], "syntax"))
                fixture_round_trip(fe, names[i]);
            files++;
            free(names[i]);
        }
        free(names);
    }
    ck_assert_int_gt(files, 80);
    pc_frontend_free(fe);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("model");
    TCase *t = tcase_create("expr");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, expr_folding);
    tcase_add_test(t, expr_sum_normalisation);
    tcase_add_test(t, expr_eval_bindings);
    tcase_add_test(t, expr_text_round_trip);
    tcase_add_test(t, expr_parse_errors);
    tcase_add_test(t, expr_condition_text);
    tcase_add_test(t, expr_condition_eval_symbols);
    tcase_add_test(t, expr_condition_parse_errors);
    suite_add_tcase(s, t);
    t = tcase_create("model");
    tcase_add_test(t, dtype_bits_names);
    tcase_add_test(t, builders);
    suite_add_tcase(s, t);
    t = tcase_create("json");
    tcase_add_test(t, json_round_trip);
    tcase_add_test(t, json_empty_model);
    tcase_add_test(t, json_equal_names_difference);
    tcase_add_test(t, json_syntax_errors);
    tcase_add_test(t, json_deep_nesting);
    tcase_add_test(t, json_field_errors);
    tcase_add_test(t, json_index_errors);
    tcase_add_test(t, json_value_errors);
    tcase_add_test(t, json_strict_reader);
    suite_add_tcase(s, t);
    t = tcase_create("fields");
    tcase_add_test(t, fields_table_in_struct_order);
    tcase_add_test(t, copy_equals_original);
    tcase_add_test(t, copier_moves_lines);
    tcase_add_test(t, fixture_models_round_trip);
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
