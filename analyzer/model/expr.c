/* expr.c - integer expressions with folding and sum normalisation (see poolcheck/model.h).
 *
 * Sums are kept in a canonical shape: Σ coef·term + constant, terms in first-seen order, like
 * terms merged.  That is what makes slice extents such as `(j + t) - j` come out as `t`, so an
 * unroll factor's shape follows the factor. */
#define _POSIX_C_SOURCE 200809L
#include "model_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static pc_expr *mk(pc_arena *a, pc_expr_kind k)
{
    pc_expr *e = pc_arena_alloc(a, sizeof *e);
    e->kind = k;
    return e;
}

pc_expr *pc_expr_int(pc_arena *a, int64_t v)
{
    pc_expr *e = mk(a, PC_EXPR_INT);
    e->value = v;
    return e;
}

pc_expr *pc_expr_sym(pc_arena *a, const char *name)
{
    pc_expr *e = mk(a, PC_EXPR_SYM);
    e->name = pc_arena_strdup(a, name);
    return e;
}

bool pc_expr_is_int(const pc_expr *e, int64_t *out)
{
    if (!e || e->kind != PC_EXPR_INT)
        return false;
    if (out)
        *out = e->value;
    return true;
}

bool pc_expr_equal(const pc_expr *a, const pc_expr *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case PC_EXPR_INT: return a->value == b->value;
    case PC_EXPR_SYM: return strcmp(a->name, b->name) == 0;
    default: return pc_expr_equal(a->a, b->a) && pc_expr_equal(a->b, b->b);
    }
}

/* ---- sum normalisation ----------------------------------------------------------------------- */

typedef struct term { int64_t coef; const pc_expr *e; } term;
typedef struct sum { term t[32]; int n; int64_t c; bool overflow; } sum;

static void sum_add(sum *s, int64_t coef, const pc_expr *e)
{
    if (coef == 0)
        return;
    switch (e->kind) {
    case PC_EXPR_INT: s->c += coef * e->value; return;
    case PC_EXPR_ADD: sum_add(s, coef, e->a); sum_add(s, coef, e->b); return;
    case PC_EXPR_SUB: sum_add(s, coef, e->a); sum_add(s, -coef, e->b); return;
    case PC_EXPR_NEG: sum_add(s, -coef, e->a); return;
    case PC_EXPR_MUL:
        if (e->a->kind == PC_EXPR_INT) { sum_add(s, coef * e->a->value, e->b); return; }
        if (e->b->kind == PC_EXPR_INT) { sum_add(s, coef * e->b->value, e->a); return; }
        break;
    default: break;
    }
    for (int i = 0; i < s->n; i++)
        if (pc_expr_equal(s->t[i].e, e)) {
            s->t[i].coef += coef;
            return;
        }
    if (s->n == 32) {
        s->overflow = true;
        return;
    }
    s->t[s->n].coef = coef;
    s->t[s->n].e = e;
    s->n++;
}

static pc_expr *raw(pc_arena *a, pc_expr_kind k, const pc_expr *l, const pc_expr *r)
{
    pc_expr *e = mk(a, k);
    e->a = l;
    e->b = r;
    return e;
}

static pc_expr *sum_build(pc_arena *a, const sum *s)
{
    pc_expr *acc = NULL;
    for (int i = 0; i < s->n; i++) {
        int64_t c = s->t[i].coef;
        if (c == 0)
            continue;
        int64_t mag = c < 0 ? -c : c;
        const pc_expr *t = mag == 1 ? s->t[i].e : raw(a, PC_EXPR_MUL, pc_expr_int(a, mag), s->t[i].e);
        if (!acc)
            acc = c < 0 ? raw(a, PC_EXPR_NEG, t, NULL) : (pc_expr *)t;
        else
            acc = raw(a, c < 0 ? PC_EXPR_SUB : PC_EXPR_ADD, acc, t);
    }
    if (!acc)
        return pc_expr_int(a, s->c);
    if (s->c > 0)
        acc = raw(a, PC_EXPR_ADD, acc, pc_expr_int(a, s->c));
    else if (s->c < 0)
        acc = raw(a, PC_EXPR_SUB, acc, pc_expr_int(a, -s->c));
    return acc;
}

static int64_t floordiv(int64_t x, int64_t y)
{
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
        q--;
    return q;
}

static int64_t pymod(int64_t x, int64_t y)
{
    int64_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

static bool fold(pc_expr_kind k, int64_t x, int64_t y, int64_t *out)
{
    switch (k) {
    case PC_EXPR_ADD: *out = x + y; return true;
    case PC_EXPR_SUB: *out = x - y; return true;
    case PC_EXPR_MUL: *out = x * y; return true;
    case PC_EXPR_DIV: if (!y) return false; *out = x / y; return true;
    case PC_EXPR_FLOORDIV: if (!y) return false; *out = floordiv(x, y); return true;
    case PC_EXPR_MOD: if (!y) return false; *out = pymod(x, y); return true;
    case PC_EXPR_MIN: *out = x < y ? x : y; return true;
    case PC_EXPR_MAX: *out = x > y ? x : y; return true;
    case PC_EXPR_CEILDIV: if (!y) return false; *out = -floordiv(-x, y); return true;
    default: return false;
    }
}

pc_expr *pc_expr_bin(pc_arena *a, pc_expr_kind k, const pc_expr *l, const pc_expr *r)
{
    if (!l || !r)
        return NULL;
    int64_t x, y, v;
    bool li = pc_expr_is_int(l, &x), ri = pc_expr_is_int(r, &y);
    if (li && ri && fold(k, x, y, &v))
        return pc_expr_int(a, v);
    switch (k) {
    case PC_EXPR_ADD:
    case PC_EXPR_SUB: {
        sum s = {.n = 0};
        sum_add(&s, 1, l);
        sum_add(&s, k == PC_EXPR_ADD ? 1 : -1, r);
        if (!s.overflow)
            return sum_build(a, &s);
        break;
    }
    case PC_EXPR_MUL:
        if ((li && x == 0) || (ri && y == 0))
            return pc_expr_int(a, 0);
        if (li && x == 1)
            return (pc_expr *)r;
        if (ri && y == 1)
            return (pc_expr *)l;
        if (ri) /* constant first */
            return raw(a, PC_EXPR_MUL, r, l);
        break;
    case PC_EXPR_DIV:
    case PC_EXPR_FLOORDIV:
    case PC_EXPR_CEILDIV:
        if (ri && y == 1)
            return (pc_expr *)l;
        break;
    case PC_EXPR_MIN:
    case PC_EXPR_MAX:
        if (pc_expr_equal(l, r))
            return (pc_expr *)l;
        break;
    default: break;
    }
    return raw(a, k, l, r);
}

pc_expr *pc_expr_neg(pc_arena *a, const pc_expr *e)
{
    return pc_expr_bin(a, PC_EXPR_SUB, pc_expr_int(a, 0), e);
}

/* ---- evaluation ------------------------------------------------------------------------------ */

static bool lookup(const char *name, const pc_bindings *sets, size_t nsets, int64_t *out)
{
    for (size_t s = 0; s < nsets; s++)
        for (size_t i = 0; i < sets[s].count; i++)
            if (strcmp(sets[s].items[i].name, name) == 0) {
                *out = sets[s].items[i].value;
                return true;
            }
    return false;
}

bool pc_expr_eval(const pc_expr *e, const pc_bindings *sets, size_t nsets, int64_t *out)
{
    if (!e)
        return false;
    switch (e->kind) {
    case PC_EXPR_INT: *out = e->value; return true;
    case PC_EXPR_SYM: return lookup(e->name, sets, nsets, out);
    case PC_EXPR_NEG: {
        int64_t v;
        if (!pc_expr_eval(e->a, sets, nsets, &v))
            return false;
        *out = -v;
        return true;
    }
    default: {
        int64_t x, y;
        if (!pc_expr_eval(e->a, sets, nsets, &x) || !pc_expr_eval(e->b, sets, nsets, &y))
            return false;
        return fold(e->kind, x, y, out);
    }
    }
}

const pc_expr *pc_expr_subst(pc_arena *a, const pc_expr *e, const pc_bindings *sets, size_t nsets)
{
    if (!e)
        return NULL;
    int64_t v;
    switch (e->kind) {
    case PC_EXPR_INT: return e;
    case PC_EXPR_SYM: return lookup(e->name, sets, nsets, &v) ? pc_expr_int(a, v) : e;
    case PC_EXPR_NEG: return pc_expr_neg(a, pc_expr_subst(a, e->a, sets, nsets));
    default:
        return pc_expr_bin(a, e->kind, pc_expr_subst(a, e->a, sets, nsets), pc_expr_subst(a, e->b, sets, nsets));
    }
}

size_t pc_expr_symbols(const pc_expr *e, const char **names, size_t count, size_t cap)
{
    if (!e)
        return count;
    if (e->kind == PC_EXPR_SYM) {
        for (size_t i = 0; i < count; i++)
            if (strcmp(names[i], e->name) == 0)
                return count;
        if (count < cap)
            names[count++] = e->name;
        return count;
    }
    count = pc_expr_symbols(e->a, names, count, cap);
    return pc_expr_symbols(e->b, names, count, cap);
}

/* ---- printing -------------------------------------------------------------------------------- */

static int prec(const pc_expr *e)
{
    switch (e->kind) {
    case PC_EXPR_ADD: case PC_EXPR_SUB: return 1;
    case PC_EXPR_MUL: case PC_EXPR_DIV: case PC_EXPR_FLOORDIV: case PC_EXPR_MOD: return 2;
    case PC_EXPR_NEG: return 3;
    default: return 4;
    }
}

static void print(pc_sb *b, const pc_expr *e, int min_prec)
{
    bool paren = prec(e) < min_prec;
    if (paren)
        pc_sb_putc(b, '(');
    switch (e->kind) {
    case PC_EXPR_INT: pc_sb_printf(b, "%lld", (long long)e->value); break;
    case PC_EXPR_SYM: pc_sb_append(b, e->name); break;
    case PC_EXPR_NEG: pc_sb_putc(b, '-'); print(b, e->a, 4); break;
    case PC_EXPR_MIN: case PC_EXPR_MAX:
        pc_sb_append(b, e->kind == PC_EXPR_MIN ? "min(" : "max(");
        print(b, e->a, 0);
        pc_sb_append(b, ", ");
        print(b, e->b, 0);
        pc_sb_putc(b, ')');
        break;
    case PC_EXPR_CEILDIV:
        pc_sb_append(b, "ceil(");
        print(b, e->a, 2);
        pc_sb_putc(b, '/');
        print(b, e->b, 3);
        pc_sb_putc(b, ')');
        break;
    default: {
        const char *op = e->kind == PC_EXPR_ADD ? " + " : e->kind == PC_EXPR_SUB ? " - "
                       : e->kind == PC_EXPR_MUL ? "*" : e->kind == PC_EXPR_DIV ? "/"
                       : e->kind == PC_EXPR_FLOORDIV ? "//" : "%";
        int p = prec(e);
        print(b, e->a, p);
        pc_sb_append(b, op);
        print(b, e->b, p + 1); /* left-associative: a right operand of equal rank needs parens */
        break;
    }
    }
    if (paren)
        pc_sb_putc(b, ')');
}

char *pc_expr_to_string(const pc_expr *e)
{
    pc_sb b = {0};
    if (e)
        print(&b, e, 0);
    else
        pc_sb_append(&b, "?");
    return pc_sb_take(&b);
}

/* ---- parsing (the grammar print() writes) ---------------------------------------------------- */

typedef struct parser { pc_arena *a; const char *p; const char *err; } parser;

static void skip(parser *ps) { while (*ps->p == ' ' || *ps->p == '\t') ps->p++; }

static bool eat(parser *ps, const char *tok)
{
    skip(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0)
        return false;
    ps->p += n;
    return true;
}

static pc_expr *p_sum(parser *ps);

static pc_expr *p_atom(parser *ps)
{
    skip(ps);
    const char *s = ps->p;
    if (eat(ps, "(")) {
        pc_expr *e = p_sum(ps);
        if (e && !eat(ps, ")")) {
            ps->err = "expected ')'";
            return NULL;
        }
        return e;
    }
    if (eat(ps, "-")) {
        pc_expr *e = p_atom(ps);
        return e ? pc_expr_neg(ps->a, e) : NULL;
    }
    if (isdigit((unsigned char)*s)) {
        char *end;
        long long v = strtoll(s, &end, 10);
        ps->p = end;
        return pc_expr_int(ps->a, v);
    }
    if (isalpha((unsigned char)*s) || *s == '_') {
        const char *q = s;
        /* identifiers may carry attribute and index parts: x.shape[0] */
        while (isalnum((unsigned char)*q) || *q == '_' || *q == '.' ||
               (*q == '[' && strchr(q, ']')) || (*q == ']'))
            q++;
        size_t n = (size_t)(q - s);
        ps->p = q;
        if (*q == '(' && ((n == 3 && !strncmp(s, "min", 3)) || (n == 3 && !strncmp(s, "max", 3)))) {
            ps->p++;
            pc_expr *l = p_sum(ps);
            if (!l || !eat(ps, ",")) { ps->err = ps->err ? ps->err : "expected ','"; return NULL; }
            pc_expr *r = p_sum(ps);
            if (!r || !eat(ps, ")")) { ps->err = ps->err ? ps->err : "expected ')'"; return NULL; }
            return pc_expr_bin(ps->a, s[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, l, r);
        }
        if (*q == '(' && n == 4 && !strncmp(s, "ceil", 4)) {
            ps->p++;
            pc_expr *l = p_sum(ps);
            /* p_sum parsed l/r as a DIV; turn it into CEILDIV */
            if (!l || !eat(ps, ")")) { ps->err = ps->err ? ps->err : "expected ')'"; return NULL; }
            if (l->kind == PC_EXPR_DIV)
                return pc_expr_bin(ps->a, PC_EXPR_CEILDIV, l->a, l->b);
            return l;
        }
        char *name = pc_arena_strndup(ps->a, s, n);
        return pc_expr_sym(ps->a, name);
    }
    ps->err = *s ? "unexpected character" : "unexpected end of expression";
    return NULL;
}

static pc_expr *p_prod(parser *ps)
{
    pc_expr *l = p_atom(ps);
    while (l) {
        pc_expr_kind k;
        if (eat(ps, "//")) k = PC_EXPR_FLOORDIV;
        else if (eat(ps, "*")) k = PC_EXPR_MUL;
        else if (eat(ps, "/")) k = PC_EXPR_DIV;
        else if (eat(ps, "%")) k = PC_EXPR_MOD;
        else break;
        pc_expr *r = p_atom(ps);
        if (!r)
            return NULL;
        /* keep ceil(a/b) recognisable: build DIV raw when folding would not apply */
        l = pc_expr_bin(ps->a, k, l, r);
    }
    return l;
}

static pc_expr *p_sum(parser *ps)
{
    pc_expr *l = p_prod(ps);
    while (l) {
        pc_expr_kind k;
        if (eat(ps, "+")) k = PC_EXPR_ADD;
        else if (eat(ps, "-")) k = PC_EXPR_SUB;
        else break;
        pc_expr *r = p_prod(ps);
        if (!r)
            return NULL;
        l = pc_expr_bin(ps->a, k, l, r);
    }
    return l;
}

pc_expr *pc_expr_parse(pc_arena *a, const char *text, const char **err)
{
    parser ps = {a, text ? text : "", NULL};
    pc_expr *e = p_sum(&ps);
    skip(&ps);
    if (e && *ps.p) {
        e = NULL;
        ps.err = "trailing characters";
    }
    if (!e && err)
        *err = ps.err ? ps.err : "invalid expression";
    return e;
}
