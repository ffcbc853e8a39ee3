/*
 * clang_cond.c - an IF / ELSE IF condition as a model expression (docs/model.md section 3,
 * "Paths").
 *
 * In stub mode `IF(cond)` hands its condition to the marker as a string (stub header), so the
 * condition is read from the macro argument's tokens: `||`, `&&`, `!`, parentheses, the six
 * comparisons, IsLoopBegin(i, b) / IsLoopEnd(i, e) (upstream's loop predicates: true on the first /
 * last iteration of i's loop when b / e is that loop's begin / end; IsLoopBegin(i, b) with another
 * b is `i == b`), and arithmetic (C++ `%` truncates: pc_clang_cpp_mod) operands through the integer reader (constants,
 * #defines, variables in scope, loop indices, bound symbols).  A condition that reads tensor data
 * (GetTensorData, a value poolcheck made an opaque symbol of) is data-dependent: NULL, so the
 * analysis charges the maximum over the paths and says why.
 */
#include "clang_int.h"

#include <string.h>

typedef struct cparse {
    pc_cx *cx;
    const pc_ctok *t;
    int n, i;
    bool data;                   /* the condition reads tensor data */
} cparse;

static const pc_expr *c_or(cparse *p);

static bool c_at(const cparse *p, const char *s) { return p->i < p->n && pc_ctok_is(&p->t[p->i], s); }

/* The end of an operand: the next top-level `&&`, `||`, comparison or `)` of the enclosing group. */
static int operand_end(const cparse *p, int from, bool stop_at_compare)
{
    static const char *const cmp[] = {"<", "<=", ">", ">=", "==", "!=", NULL};
    int k = from;
    while (k < p->n) {
        const pc_ctok *t = &p->t[k];
        if (pc_ctok_is(t, "(") || pc_ctok_is(t, "[") || pc_ctok_is(t, "{")) {
            int c = pc_clang_match(p->t, p->n, k);
            if (c >= p->n)
                return p->n;
            k = c + 1;
            continue;
        }
        if (pc_ctok_is(t, ")") || pc_ctok_is(t, "&&") || pc_ctok_is(t, "||") || pc_ctok_is(t, "?") ||
            pc_ctok_is(t, ":"))
            return k;
        if (stop_at_compare)
            for (int j = 0; cmp[j]; j++)
                if (pc_ctok_is(t, cmp[j]))
                    return k;
        /* a template argument list of a call (Min<int64_t>(...)) is not a comparison */
        if (pc_ctok_is(t, "<") && k > from && p->t[k - 1].kind == PC_CTOK_IDENT) {
            int after = pc_clang_skip_template_args(p->t, p->n, k);
            if (after > 0 && after < p->n && pc_ctok_is(&p->t[after], "(")) {
                k = after;
                continue;
            }
        }
        k++;
    }
    return k;
}

static bool reads_data(const pc_ctok *t, int n)
{
    for (int k = 0; k < n; k++)
        if (pc_ctok_is(&t[k], "GetTensorData") || pc_ctok_is(&t[k], "GetInputData"))
            return true;
    return false;
}

/* Does e hold a symbol made from text poolcheck could not evaluate (a call, a member)? */
static bool opaque_symbol(const pc_expr *e)
{
    const char *names[16];
    size_t n = pc_expr_symbols(e, names, 0, 16);
    for (size_t k = 0; k < n; k++)
        if (strpbrk(names[k], "({?"))
            return true;
    return false;
}

/* Are two expressions the same value: equal constants, or the same spelling. */
static bool same_value(const pc_expr *a, const pc_expr *b)
{
    int64_t x, y;
    if (pc_expr_is_int(a, &x) || pc_expr_is_int(b, &y))
        return pc_expr_is_int(a, &x) && pc_expr_is_int(b, &y) && x == y;
    char *sa = pc_expr_to_string(a), *sb = pc_expr_to_string(b);
    bool same = sa && sb && !strcmp(sa, sb);
    pc_mem_free(sa);
    pc_mem_free(sb);
    return same;
}

/* IsLoopBegin(i, b) / IsLoopEnd(i, e) at p->i, or NULL (p->i unchanged) when not one. */
static const pc_expr *loop_pred(cparse *p, bool *matched)
{
    *matched = false;
    int k = p->i;
    while (k + 1 < p->n && p->t[k].kind == PC_CTOK_IDENT && pc_ctok_is(&p->t[k + 1], "::"))
        k += 2; /* npu::tile_fwk::IsLoopBegin */
    if (k + 1 >= p->n || !pc_ctok_is(&p->t[k + 1], "("))
        return NULL;
    bool begin = pc_ctok_is(&p->t[k], "IsLoopBegin"), end = pc_ctok_is(&p->t[k], "IsLoopEnd");
    if (!begin && !end)
        return NULL;
    int close = pc_clang_match(p->t, p->n, k + 1);
    if (close >= p->n)
        return NULL;
    *matched = true;
    int st[4], en[4];
    int na = pc_clang_split_args(p->t + k + 2, close - k - 2, st, en, 4);
    p->i = close + 1;
    if (na < 1)
        return NULL;
    /* the loop is named by its index variable (a helper's parameter stands for the caller's index) */
    const pc_expr *ix = pc_clang_int_expr(p->cx, p->t + k + 2 + st[0], en[0] - st[0]);
    if (!ix || ix->kind != PC_EXPR_SYM)
        return NULL;
    pc_arena *a = pc_model_arena(p->cx->m);
    const pc_expr *loop_pred = pc_expr_loop_pred(a, begin ? PC_EXPR_IS_LOOP_BEGIN : PC_EXPR_IS_LOOP_END, ix->name);
    if (na < 2)
        return loop_pred;
    /* IsLoopBegin(i, b) is `i == b` (upstream's runtime: RuntimeIsLoopBegin(idx, begin)), the
     * first iteration only when b is the loop's own begin; IsLoopEnd(i, e) is the last iteration
     * when e is the loop's end (what pypto.is_loop_end passes).  Another b is that comparison;
     * another e is left undecided (both paths) rather than guessed. */
    const pc_expr *bound = pc_clang_int_expr(p->cx, p->t + k + 2 + st[1], en[1] - st[1]);
    if (!bound)
        return NULL;
    const pc_loop *l = NULL;
    if (p->cx->kernel >= 0) {
        const pc_kernel *kk = &p->cx->m->kernels[p->cx->kernel];
        for (int li = p->cx->cur_loop; li >= 0 && !l; li = kk->loops[li].parent)
            if (kk->loops[li].index_var && !strcmp(kk->loops[li].index_var, ix->name))
                l = &kk->loops[li];
    }
    if (l && same_value(bound, begin ? l->begin : l->end))
        return loop_pred;
    return begin ? pc_expr_bin(a, PC_EXPR_EQ, ix, bound) : NULL;
}

/* An arithmetic operand t[from, to). */
static const pc_expr *c_value(cparse *p, int from, int to)
{
    if (to <= from)
        return NULL;
    if (reads_data(p->t + from, to - from)) {
        p->data = true;
        return NULL;
    }
    const pc_expr *e = pc_clang_int_expr(p->cx, p->t + from, to - from);
    if (e && opaque_symbol(e)) {
        p->data = true;
        return NULL;
    }
    return e;
}

static const pc_expr *c_primary(cparse *p)
{
    pc_arena *a = pc_model_arena(p->cx->m);
    if (c_at(p, "!")) {
        p->i++;
        const pc_expr *e = c_primary(p);
        return e ? pc_expr_not(a, e) : NULL;
    }
    bool matched;
    const pc_expr *lp = loop_pred(p, &matched);
    if (matched)
        return lp;
    /* a parenthesised condition, unless it is the left operand of a comparison: (i + 1) < n */
    if (c_at(p, "(")) {
        int close = pc_clang_match(p->t, p->n, p->i);
        bool group = close < p->n && (close + 1 == p->n || pc_ctok_is(&p->t[close + 1], "&&") ||
                                      pc_ctok_is(&p->t[close + 1], "||") || pc_ctok_is(&p->t[close + 1], ")"));
        if (group) {
            cparse q = {p->cx, p->t + p->i + 1, close - p->i - 1, 0, false};
            const pc_expr *e = c_or(&q);
            p->data = p->data || q.data;
            p->i = close + 1;
            return e && q.i == q.n ? e : NULL;
        }
    }
    int from = p->i;
    int end = operand_end(p, from, true);
    const pc_expr *l = c_value(p, from, end);
    p->i = end;
    static const struct { const char *op; pc_expr_kind k; } cmp[] = {
        {"<", PC_EXPR_LT}, {"<=", PC_EXPR_LE}, {">", PC_EXPR_GT}, {">=", PC_EXPR_GE}, {"==", PC_EXPR_EQ}, {"!=", PC_EXPR_NE},
    };
    for (size_t j = 0; j < sizeof cmp / sizeof *cmp; j++)
        if (c_at(p, cmp[j].op)) {
            p->i++;
            int rend = operand_end(p, p->i, true);
            const pc_expr *r = c_value(p, p->i, rend);
            p->i = rend;
            return l && r ? pc_expr_bin(a, cmp[j].k, l, r) : NULL;
        }
    return l; /* a plain value: true when non-zero */
}

static const pc_expr *c_and(cparse *p)
{
    const pc_expr *l = c_primary(p);
    while (c_at(p, "&&")) {
        p->i++;
        const pc_expr *r = c_primary(p);
        l = l && r ? pc_expr_bin(pc_model_arena(p->cx->m), PC_EXPR_AND, l, r) : NULL;
    }
    return l;
}

static const pc_expr *c_or(cparse *p)
{
    const pc_expr *l = c_and(p);
    while (c_at(p, "||")) {
        p->i++;
        const pc_expr *r = c_and(p);
        l = l && r ? pc_expr_bin(pc_model_arena(p->cx->m), PC_EXPR_OR, l, r) : NULL;
    }
    return l;
}

const pc_expr *pc_clang_cond_expr(pc_cx *cx, const pc_ctok *t, int n, bool *data_dependent)
{
    cparse p = {cx, t, n, 0, false};
    const pc_expr *e = n > 0 ? c_or(&p) : NULL;
    if (data_dependent)
        *data_dependent = p.data;
    if (p.data || p.i != n)
        return NULL;
    return e;
}
