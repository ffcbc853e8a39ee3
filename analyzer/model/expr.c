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
    case PC_EXPR_SYM:
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END: return strcmp(a->name, b->name) == 0;
    default: return pc_expr_equal(a->a, b->a) && pc_expr_equal(a->b, b->b);
    }
}

/* ---- sum normalisation ----------------------------------------------------------------------- */

typedef struct term { int64_t coef; const pc_expr *e; } term;
typedef struct sum { term t[32]; int n; int64_t c; bool overflow; } sum;

/* Coefficients and the constant use checked arithmetic: a sum that would overflow int64 is
 * left unnormalised (the caller builds the plain node) rather than folded wrongly. */
static void sum_add(sum *s, int64_t coef, const pc_expr *e)
{
    if (coef == 0 || s->overflow)
        return;
    int64_t scaled;
    switch (e->kind) {
    case PC_EXPR_INT:
        if (__builtin_mul_overflow(coef, e->value, &scaled) || __builtin_add_overflow(s->c, scaled, &s->c))
            s->overflow = true;
        return;
    case PC_EXPR_ADD: sum_add(s, coef, e->a); sum_add(s, coef, e->b); return;
    case PC_EXPR_SUB:
    case PC_EXPR_NEG:
        if (coef == INT64_MIN) {
            s->overflow = true;
            return;
        }
        if (e->kind == PC_EXPR_SUB) {
            sum_add(s, coef, e->a);
            sum_add(s, -coef, e->b);
        } else {
            sum_add(s, -coef, e->a);
        }
        return;
    case PC_EXPR_MUL:
        if (e->a->kind == PC_EXPR_INT || e->b->kind == PC_EXPR_INT) {
            bool left = e->a->kind == PC_EXPR_INT;
            if (__builtin_mul_overflow(coef, left ? e->a->value : e->b->value, &scaled))
                s->overflow = true;
            else
                sum_add(s, scaled, left ? e->b : e->a);
            return;
        }
        break;
    default: break;
    }
    for (int i = 0; i < s->n; i++)
        if (pc_expr_equal(s->t[i].e, e)) {
            if (__builtin_add_overflow(s->t[i].coef, coef, &s->t[i].coef))
                s->overflow = true;
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
        /* |INT64_MIN| is not representable: keep that coefficient as a signed factor */
        int64_t mag = c == INT64_MIN ? c : c < 0 ? -c : c;
        bool negate = c < 0 && c != INT64_MIN;
        const pc_expr *t = mag == 1 ? s->t[i].e : raw(a, PC_EXPR_MUL, pc_expr_int(a, mag), s->t[i].e);
        if (!acc)
            acc = negate ? raw(a, PC_EXPR_NEG, t, NULL) : (pc_expr *)t;
        else
            acc = raw(a, negate ? PC_EXPR_SUB : PC_EXPR_ADD, acc, t);
    }
    if (!acc)
        return pc_expr_int(a, s->c);
    if (s->c > 0 || s->c == INT64_MIN)
        acc = raw(a, PC_EXPR_ADD, acc, pc_expr_int(a, s->c));
    else if (s->c < 0)
        acc = raw(a, PC_EXPR_SUB, acc, pc_expr_int(a, -s->c));
    return acc;
}

/* Callers guarantee y != 0 and not (x == INT64_MIN && y == -1). */
static int64_t floordiv(int64_t x, int64_t y)
{
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
        q--;
    return q;
}

static int64_t ceildiv(int64_t x, int64_t y)
{
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) == (y < 0)))
        q++;
    return q;
}

static int64_t pymod(int64_t x, int64_t y)
{
    int64_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

/* Constant folding with Python/C semantics per operator.  Returns false (no folding) on
 * division by zero and on int64 overflow, so the expression stays symbolic instead of wrong. */
static bool fold(pc_expr_kind k, int64_t x, int64_t y, int64_t *out)
{
    bool div_bad = y == 0 || (x == INT64_MIN && y == -1);
    switch (k) {
    case PC_EXPR_ADD: return !__builtin_add_overflow(x, y, out);
    case PC_EXPR_SUB: return !__builtin_sub_overflow(x, y, out);
    case PC_EXPR_MUL: return !__builtin_mul_overflow(x, y, out);
    case PC_EXPR_DIV: if (div_bad) return false; *out = x / y; return true;
    case PC_EXPR_FLOORDIV: if (div_bad) return false; *out = floordiv(x, y); return true;
    case PC_EXPR_MOD:
        if (y == 0) return false;
        *out = y == -1 ? 0 : pymod(x, y);
        return true;
    case PC_EXPR_MIN: *out = x < y ? x : y; return true;
    case PC_EXPR_MAX: *out = x > y ? x : y; return true;
    case PC_EXPR_CEILDIV: if (div_bad) return false; *out = ceildiv(x, y); return true;
    case PC_EXPR_LT: *out = x < y; return true;
    case PC_EXPR_LE: *out = x <= y; return true;
    case PC_EXPR_GT: *out = x > y; return true;
    case PC_EXPR_GE: *out = x >= y; return true;
    case PC_EXPR_EQ: *out = x == y; return true;
    case PC_EXPR_NE: *out = x != y; return true;
    case PC_EXPR_AND: *out = x != 0 && y != 0; return true;
    case PC_EXPR_OR: *out = x != 0 || y != 0; return true;
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
    case PC_EXPR_AND: /* a constant side decides or drops out: `0 and x` is 0, `1 and x` is x */
    case PC_EXPR_OR:
        if (li || ri) {
            bool truth = (li ? x : y) != 0;
            const pc_expr *other = li ? r : l;
            if (truth == (k == PC_EXPR_OR))
                return pc_expr_int(a, truth);
            return (pc_expr *)other;
        }
        break;
    default: break;
    }
    return raw(a, k, l, r);
}

pc_expr *pc_expr_neg(pc_arena *a, const pc_expr *e)
{
    return pc_expr_bin(a, PC_EXPR_SUB, pc_expr_int(a, 0), e);
}

pc_expr *pc_expr_not(pc_arena *a, const pc_expr *e)
{
    if (!e)
        return NULL;
    int64_t v;
    if (pc_expr_is_int(e, &v))
        return pc_expr_int(a, v == 0);
    if (e->kind == PC_EXPR_NOT)
        return (pc_expr *)e->a;
    return raw(a, PC_EXPR_NOT, e, NULL);
}

pc_expr *pc_expr_loop_pred(pc_arena *a, pc_expr_kind kind, const char *index_var)
{
    if (kind != PC_EXPR_IS_LOOP_BEGIN && kind != PC_EXPR_IS_LOOP_END)
        return NULL;
    pc_expr *e = mk(a, kind);
    e->name = pc_arena_strdup(a, index_var);
    return e;
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
        if (!pc_expr_eval(e->a, sets, nsets, &v) || v == INT64_MIN)
            return false;
        *out = -v;
        return true;
    }
    case PC_EXPR_NOT: {
        int64_t v;
        if (!pc_expr_eval(e->a, sets, nsets, &v))
            return false;
        *out = v == 0;
        return true;
    }
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END:
        return false; /* needs the iteration: the analysis decides these per instance */
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
    case PC_EXPR_NOT: return pc_expr_not(a, pc_expr_subst(a, e->a, sets, nsets));
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END: return e;
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

/* Binding strength, loosest first (Python's order): or < and < not < comparisons < + - < * / // %
 * < unary minus < atoms.  Comparisons do not chain (Python's `a < b < c` means something else), so
 * a comparison operand that is itself a comparison is parenthesised. */
enum { P_OR = 1, P_AND, P_NOT, P_CMP, P_SUM, P_PROD, P_NEG, P_ATOM };

static int prec(const pc_expr *e)
{
    switch (e->kind) {
    case PC_EXPR_OR: return P_OR;
    case PC_EXPR_AND: return P_AND;
    case PC_EXPR_NOT: return P_NOT;
    case PC_EXPR_LT: case PC_EXPR_LE: case PC_EXPR_GT: case PC_EXPR_GE: case PC_EXPR_EQ: case PC_EXPR_NE:
        return P_CMP;
    case PC_EXPR_ADD: case PC_EXPR_SUB: return P_SUM;
    case PC_EXPR_MUL: case PC_EXPR_DIV: case PC_EXPR_FLOORDIV: case PC_EXPR_MOD: return P_PROD;
    case PC_EXPR_NEG: return P_NEG;
    default: return P_ATOM;
    }
}

static const char *op_text(pc_expr_kind k)
{
    switch (k) {
    case PC_EXPR_ADD: return " + ";
    case PC_EXPR_SUB: return " - ";
    case PC_EXPR_MUL: return "*";
    case PC_EXPR_DIV: return "/";
    case PC_EXPR_FLOORDIV: return "//";
    case PC_EXPR_MOD: return "%";
    case PC_EXPR_LT: return " < ";
    case PC_EXPR_LE: return " <= ";
    case PC_EXPR_GT: return " > ";
    case PC_EXPR_GE: return " >= ";
    case PC_EXPR_EQ: return " == ";
    case PC_EXPR_NE: return " != ";
    case PC_EXPR_AND: return " and ";
    case PC_EXPR_OR: return " or ";
    default: return " ? ";
    }
}

static void print(pc_sb *b, const pc_expr *e, int min_prec)
{
    if (!e) { /* a malformed tree (an operand missing): keep the printer total */
        pc_sb_putc(b, '?');
        return;
    }
    bool paren = prec(e) < min_prec;
    if (paren)
        pc_sb_putc(b, '(');
    switch (e->kind) {
    case PC_EXPR_INT: pc_sb_printf(b, "%lld", (long long)e->value); break;
    case PC_EXPR_SYM: pc_sb_append(b, e->name); break;
    case PC_EXPR_NEG: pc_sb_putc(b, '-'); print(b, e->a, P_ATOM); break;
    case PC_EXPR_NOT: pc_sb_append(b, "not "); print(b, e->a, P_NOT); break;
    case PC_EXPR_IS_LOOP_BEGIN: case PC_EXPR_IS_LOOP_END:
        pc_sb_printf(b, "%s(%s)", e->kind == PC_EXPR_IS_LOOP_BEGIN ? "is_loop_begin" : "is_loop_end",
                     e->name ? e->name : "?");
        break;
    case PC_EXPR_MIN: case PC_EXPR_MAX:
        pc_sb_append(b, e->kind == PC_EXPR_MIN ? "min(" : "max(");
        print(b, e->a, 0);
        pc_sb_append(b, ", ");
        print(b, e->b, 0);
        pc_sb_putc(b, ')');
        break;
    case PC_EXPR_CEILDIV:
        pc_sb_append(b, "ceil(");
        print(b, e->a, P_PROD);
        pc_sb_putc(b, '/');
        print(b, e->b, P_NEG);
        pc_sb_putc(b, ')');
        break;
    default: {
        int p = prec(e);
        /* left-associative: a right operand of equal rank needs parens; comparisons: both */
        print(b, e->a, p == P_CMP ? p + 1 : p);
        pc_sb_append(b, op_text(e->kind));
        print(b, e->b, p + 1);
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

/* ---- parsing (the grammar print() writes) ----------------------------------------------------
 *
 *   or    := and ('or' and)*                        (also C++ '||')
 *   and   := not ('and' not)*                       (also '&&')
 *   not   := 'not' not | cmp                        (also '!')
 *   cmp   := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?     comparisons do not chain
 *   sum   := prod (('+' | '-') prod)*
 *   prod  := atom (('*' | '/' | '//' | '%') atom)*
 *   atom  := INT | NAME | '(' or ')' | '-' atom | min(or, or) | max(or, or) | ceil(prod '/' atom)
 *          | is_loop_begin(NAME) | is_loop_end(NAME)
 *   NAME  := ident ('.' ident | '::' ident | '[' '-'? [A-Za-z0-9_.]+ ']')*     e.g. x.shape[0]
 *            (not one of the keywords and, or, not)
 *
 * Input may come from a hand-edited or corrupt model file, so nesting and size are bounded: the
 * parser recurses once per '(' or unary '-', and every operator adds a node that later recursive
 * walks (eval, subst, printing) visit. */

#define EXPR_MAX_DEPTH 256
#define EXPR_MAX_OPS 4096

typedef struct parser { pc_arena *a; const char *p; const char *err; int depth; int ops; } parser;

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

static bool fail(parser *ps, const char *msg)
{
    if (!ps->err)
        ps->err = msg;
    return false;
}

/* Consume the token tok, or fail with msg ("expected ')'"). */
static bool expect(parser *ps, const char *tok, const char *msg) { return eat(ps, tok) || fail(ps, msg); }

/* Count one operator node; false once the expression is too big. */
static bool count_op(parser *ps)
{
    return ++ps->ops <= EXPR_MAX_OPS || fail(ps, "expression too large");
}

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Length of the NAME starting at s (0 when s does not start one). */
static size_t name_len(const char *s)
{
    const char *q = s;
    if (!ident_start(*q))
        return 0;
    while (ident_char(*q))
        q++;
    for (;;) {
        if (q[0] == '.' && ident_start(q[1])) {
            q++;
            while (ident_char(*q))
                q++;
        } else if (q[0] == ':' && q[1] == ':' && ident_start(q[2])) {
            q += 2;
            while (ident_char(*q))
                q++;
        } else if (q[0] == '[') {
            const char *r = q + 1;
            if (*r == '-')
                r++;
            const char *first = r;
            while (ident_char(*r) || *r == '.')
                r++;
            if (r == first || *r != ']')
                break;
            q = r + 1;
        } else {
            break;
        }
    }
    return (size_t)(q - s);
}

static pc_expr *p_sum(parser *ps);
static pc_expr *p_or(parser *ps);
static pc_expr *p_atom(parser *ps);

static bool is_keyword(const char *s, size_t n)
{
    return (n == 3 && (!strncmp(s, "and", 3) || !strncmp(s, "not", 3))) || (n == 2 && !strncmp(s, "or", 2));
}

/* The keyword kw as a whole word (not the start of a longer name). */
static bool eat_kw(parser *ps, const char *kw)
{
    skip(ps);
    size_t n = strlen(kw);
    if (strncmp(ps->p, kw, n) != 0 || ident_char(ps->p[n]))
        return false;
    ps->p += n;
    return true;
}

/* Product chain.  When `last_div` is given (inside ceil(...)), the final '/' is not built:
 * its left side goes to *last_left and its divisor is returned through *last_div. */
static pc_expr *p_prod_chain(parser *ps, pc_expr **last_left, pc_expr **last_div)
{
    pc_expr *l = p_atom(ps);
    while (l) {
        pc_expr_kind k;
        if (eat(ps, "//")) k = PC_EXPR_FLOORDIV;
        else if (eat(ps, "*")) k = PC_EXPR_MUL;
        else if (eat(ps, "/")) k = PC_EXPR_DIV;
        else if (eat(ps, "%")) k = PC_EXPR_MOD;
        else break;
        if (!count_op(ps))
            return NULL;
        pc_expr *r = p_atom(ps);
        if (!r)
            return NULL;
        if (last_div) {
            *last_left = l;
            *last_div = k == PC_EXPR_DIV ? r : NULL;
        }
        l = pc_expr_bin(ps->a, k, l, r);
    }
    return l;
}

static pc_expr *p_call(parser *ps, const char *fn)
{
    /* the name and '(' are consumed */
    if (!strcmp(fn, "ceil")) {
        pc_expr *num = NULL, *den = NULL;
        pc_expr *whole = p_prod_chain(ps, &num, &den);
        if (!whole)
            return NULL;
        if (!den || !num) {
            fail(ps, "expected ceil(a/b)");
            return NULL;
        }
        if (!expect(ps, ")", "expected ')'"))
            return NULL;
        return pc_expr_bin(ps->a, PC_EXPR_CEILDIV, num, den);
    }
    if (!strcmp(fn, "is_loop_begin") || !strcmp(fn, "is_loop_end")) {
        skip(ps);
        size_t n = name_len(ps->p);
        if (!n || is_keyword(ps->p, n)) {
            fail(ps, "expected a loop index name");
            return NULL;
        }
        const char *var = pc_arena_strndup(ps->a, ps->p, n);
        ps->p += n;
        if (!expect(ps, ")", "expected ')'"))
            return NULL;
        return pc_expr_loop_pred(ps->a, fn[8] == 'b' ? PC_EXPR_IS_LOOP_BEGIN : PC_EXPR_IS_LOOP_END, var);
    }
    pc_expr *l = p_or(ps);
    if (!l || !expect(ps, ",", "expected ','"))
        return NULL;
    pc_expr *r = p_or(ps);
    if (!r || !expect(ps, ")", "expected ')'"))
        return NULL;
    return pc_expr_bin(ps->a, fn[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, l, r);
}

static pc_expr *p_atom_inner(parser *ps)
{
    skip(ps);
    const char *s = ps->p;
    if (eat(ps, "(")) {
        pc_expr *e = p_or(ps);
        if (e && !expect(ps, ")", "expected ')'"))
            return NULL;
        return e;
    }
    if (eat(ps, "-")) {
        if (!count_op(ps))
            return NULL;
        pc_expr *e = p_atom(ps);
        return e ? pc_expr_neg(ps->a, e) : NULL;
    }
    if (isdigit((unsigned char)*s)) {
        int64_t v = 0;
        const char *q = s;
        while (isdigit((unsigned char)*q)) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *q - '0', &v)) {
                fail(ps, "integer out of range");
                return NULL;
            }
            q++;
        }
        ps->p = q;
        return pc_expr_int(ps->a, v);
    }
    size_t n = name_len(s);
    if (n && !is_keyword(s, n)) {
        ps->p = s + n;
        if (*ps->p == '(' && ((n == 3 && (!strncmp(s, "min", 3) || !strncmp(s, "max", 3))) ||
                              (n == 4 && !strncmp(s, "ceil", 4)) ||
                              (n == 13 && !strncmp(s, "is_loop_begin", 13)) ||
                              (n == 11 && !strncmp(s, "is_loop_end", 11)))) {
            char fn[14];
            memcpy(fn, s, n);
            fn[n] = 0;
            ps->p++;
            if (!count_op(ps))
                return NULL;
            return p_call(ps, fn);
        }
        return pc_expr_sym(ps->a, pc_arena_strndup(ps->a, s, n));
    }
    fail(ps, *s ? "unexpected character" : "unexpected end of expression");
    return NULL;
}

static pc_expr *p_atom(parser *ps)
{
    if (++ps->depth > EXPR_MAX_DEPTH) {
        fail(ps, "expression nested too deeply");
        return NULL;
    }
    pc_expr *e = p_atom_inner(ps);
    ps->depth--;
    return e;
}

static pc_expr *p_sum(parser *ps)
{
    pc_expr *l = p_prod_chain(ps, NULL, NULL);
    while (l) {
        pc_expr_kind k;
        if (eat(ps, "+")) k = PC_EXPR_ADD;
        else if (eat(ps, "-")) k = PC_EXPR_SUB;
        else break;
        if (!count_op(ps))
            return NULL;
        pc_expr *r = p_prod_chain(ps, NULL, NULL);
        if (!r)
            return NULL;
        l = pc_expr_bin(ps->a, k, l, r);
    }
    return l;
}

static pc_expr *p_cmp(parser *ps)
{
    pc_expr *l = p_sum(ps);
    if (!l)
        return NULL;
    pc_expr_kind k;
    if (eat(ps, "<=")) k = PC_EXPR_LE;
    else if (eat(ps, ">=")) k = PC_EXPR_GE;
    else if (eat(ps, "==")) k = PC_EXPR_EQ;
    else if (eat(ps, "!=")) k = PC_EXPR_NE;
    else if (eat(ps, "<")) k = PC_EXPR_LT;
    else if (eat(ps, ">")) k = PC_EXPR_GT;
    else return l;
    if (!count_op(ps))
        return NULL;
    pc_expr *r = p_sum(ps);
    return r ? pc_expr_bin(ps->a, k, l, r) : NULL;
}

static pc_expr *p_not(parser *ps)
{
    skip(ps);
    bool neg = eat_kw(ps, "not");
    if (!neg && ps->p[0] == '!' && ps->p[1] != '=') {
        ps->p++;
        neg = true;
    }
    if (!neg)
        return p_cmp(ps);
    if (!count_op(ps))
        return NULL;
    if (++ps->depth > EXPR_MAX_DEPTH) {
        fail(ps, "expression nested too deeply");
        return NULL;
    }
    pc_expr *e = p_not(ps);
    ps->depth--;
    return e ? pc_expr_not(ps->a, e) : NULL;
}

/* A left-associative chain of `operand`s joined by the keyword kw or the symbol sym (Python's and C's
 * spelling of one logical operator), as `op` nodes. */
static pc_expr *p_logical_chain(parser *ps, pc_expr *(*operand)(parser *), const char *kw, const char *sym,
                                pc_expr_kind op)
{
    pc_expr *l = operand(ps);
    while (l && (eat_kw(ps, kw) || eat(ps, sym))) {
        if (!count_op(ps))
            return NULL;
        pc_expr *r = operand(ps);
        if (!r)
            return NULL;
        l = pc_expr_bin(ps->a, op, l, r);
    }
    return l;
}

static pc_expr *p_and(parser *ps) { return p_logical_chain(ps, p_not, "and", "&&", PC_EXPR_AND); }
static pc_expr *p_or(parser *ps) { return p_logical_chain(ps, p_and, "or", "||", PC_EXPR_OR); }

pc_expr *pc_expr_parse(pc_arena *a, const char *text, char **err)
{
    parser ps = {a, text ? text : "", NULL, 0, 0};
    pc_expr *e = p_or(&ps);
    skip(&ps);
    if (e && *ps.p) {
        e = NULL;
        fail(&ps, "trailing characters");
    }
    if (!e)
        pc_err_set(err, "%s", ps.err ? ps.err : "invalid expression");
    return e;
}
