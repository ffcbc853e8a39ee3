/*
 * clang_recover.c - error recovery: what clang dropped or cut off, read back from the written text.
 *
 * Headers: the stub's LOOP hands its arguments to the recorder as real expressions (clang_walk.c
 * reads them from cursors).  When one has an error (an undeclared name in a LoopRange), clang
 * drops that recorder call and keeps the loop and its body: the header is then read back from the
 * macro's written arguments here, names clang did not know becoming symbols, so the loop is still
 * modelled; so are a FUNCTION's name and tensor lists, and a SetRuntimeOption call clang rejected.
 *
 * Leftovers: statements clang left out of its tree (a use of a declaration it rejected), LOOP and
 * FUNCTION tokens no recognised statement starts at, kernel bodies clang stopped parsing inside,
 * and clang errors inside kernels: each reported where it is, as PC012 or an error.
 *
 * This is the one place error recovery reads tokens.
 */
#include "clang_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* `NAME ( args )` at the start of toks: the argument slice [*a0, *a1). */
static bool macro_args(const pc_ctoks *toks, int *a0, int *a1)
{
    if (toks->count < 3 || toks->items[0].kind != PC_CTOK_IDENT || !pc_ctok_is(&toks->items[1], "("))
        return false;
    int close = pc_clang_match(toks->items, (int)toks->count, 1);
    if (close >= (int)toks->count)
        return false;
    *a0 = 2;
    *a1 = close;
    return true;
}

/* ---- values in code clang dropped ---------------------------------------------------------------
 * Integer literals, names and + - * / % over them; any other expression is one symbol named by
 * its spelling.  A name is a scalar variable's value, a constant of the project's headers, or the
 * symbol of that name.  The kernel already has clang's error: these are a reading of what is
 * written, so that the loop and its body stay in the model, not a second evaluator. */

/* A number token's text without its ' digit separators (1'000'000), cut to size - 1 bytes. */
static void literal_digits(const pc_ctok *t, char *out, size_t size)
{
    size_t n = 0;
    for (uint32_t k = 0; k < t->len && n + 1 < size; k++)
        if (t->text[k] != '\'')
            out[n++] = t->text[k];
    out[n] = 0;
}

/* An integer literal (decimal, hex, octal, binary; ' separators; u/l suffixes).  False for
 * floating literals and anything malformed. */
static bool int_literal(const pc_ctok *t, int64_t *out)
{
    char digits[80];
    literal_digits(t, digits, sizeof digits);
    int base = 10;
    const char *p = digits;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, p += 2;
    else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
        base = 2, p += 2;
    else if (p[0] == '0' && p[1])
        base = 8;
    if (base == 10 || base == 8)
        for (const char *q = p; *q; q++)
            if (*q == '.' || *q == 'e' || *q == 'E')
                return false;
    if (base == 16)
        for (const char *q = p; *q; q++)
            if (*q == '.' || *q == 'p' || *q == 'P')
                return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, base);
    if (errno || end == p)
        return false;
    for (; *end; end++)
        if (!strchr("uUlLzZ", *end))
            return false;
    *out = (int64_t)v;
    return true;
}

static bool float_literal(const pc_ctok *t, double *out)
{
    char buf[80];
    literal_digits(t, buf, sizeof buf);
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || errno)
        return false;
    for (; *end; end++)
        if (!strchr("fFlL", *end))
            return false;
    *out = v;
    return true;
}


/* nesting of parentheses and unary minus the reader follows (clang's own bracket limit is 256) */
#define RECOVER_MAX_DEPTH 256

typedef struct recovered { pc_cx *cx; const pc_ctok *t; int n, i, depth; bool bad; } recovered;

static bool rd_at(const recovered *r, const char *s) { return r->i < r->n && pc_ctok_is(&r->t[r->i], s); }

static const pc_expr *rd_sum(recovered *r);

static const pc_expr *rd_atom(recovered *r)
{
    pc_arena *a = pc_model_arena(r->cx->m);
    if (r->i >= r->n || r->depth >= RECOVER_MAX_DEPTH) {
        r->bad = true;
        return NULL;
    }
    const pc_ctok *t = &r->t[r->i];
    int64_t v;
    if (rd_at(r, "(")) {
        r->i++;
        r->depth++;
        const pc_expr *e = rd_sum(r);
        r->depth--;
        if (!rd_at(r, ")"))
            r->bad = true;
        r->i++;
        return e;
    }
    if (rd_at(r, "-")) {
        r->i++;
        r->depth++;
        const pc_expr *e = rd_atom(r);
        r->depth--;
        return e ? pc_expr_neg(a, e) : NULL;
    }
    r->i++;
    if (t->kind == PC_CTOK_NUMBER && int_literal(t, &v))
        return pc_expr_int(a, v);
    if (pc_ctok_is(t, "true") || pc_ctok_is(t, "false"))
        return pc_expr_int(a, pc_ctok_is(t, "true"));
    if (t->kind != PC_CTOK_IDENT) {
        r->bad = true;
        return NULL;
    }
    int from = r->i - 1;
    while (r->i + 1 < r->n && pc_ctok_is(&r->t[r->i], "::") && r->t[r->i + 1].kind == PC_CTOK_IDENT)
        r->i += 2;
    const char *name = pc_clang_tok_spelling(r->cx, r->t + from, r->i - from);
    int e = r->i == from + 1 ? pc_clang_env_find(r->cx, name, PC_CENV_EXPR) : -1;
    if (e >= 0)
        return r->cx->env.items[e].expr;
    const pc_expr *hc = pc_clang_header_constant(r->cx, name);
    return hc ? hc : pc_expr_sym(a, name);
}

static const pc_expr *rd_product(recovered *r)
{
    pc_arena *a = pc_model_arena(r->cx->m);
    const pc_expr *l = rd_atom(r);
    while (l && !r->bad && (rd_at(r, "*") || rd_at(r, "/") || rd_at(r, "%"))) {
        char op = r->t[r->i++].text[0];
        const pc_expr *x = rd_atom(r);
        if (!x)
            return NULL;
        l = op == '%' ? pc_clang_cpp_mod(a, l, x) : pc_expr_bin(a, op == '*' ? PC_EXPR_MUL : PC_EXPR_DIV, l, x);
    }
    return l;
}

static const pc_expr *rd_sum(recovered *r)
{
    pc_arena *a = pc_model_arena(r->cx->m);
    const pc_expr *l = rd_product(r);
    while (l && !r->bad && (rd_at(r, "+") || rd_at(r, "-"))) {
        bool plus = r->t[r->i++].text[0] == '+';
        const pc_expr *x = rd_product(r);
        if (!x)
            return NULL;
        l = pc_expr_bin(a, plus ? PC_EXPR_ADD : PC_EXPR_SUB, l, x);
    }
    return l;
}

/* The integer an argument slice is, NULL when it is empty. */
static const pc_expr *recovered_int(pc_cx *cx, const pc_ctok *t, int n)
{
    if (n <= 0)
        return NULL;
    recovered r = {cx, t, n, 0, 0, false};
    const pc_expr *e = rd_sum(&r);
    return e && !r.bad && r.i == n ? e : pc_expr_sym(pc_model_arena(cx->m), pc_clang_tok_spelling(cx, t, n));
}

/* A string literal slice (adjacent literals concatenated), NULL for anything else. */
static const char *recovered_string(pc_cx *cx, const pc_ctok *t, int n)
{
    pc_sb b = {0};
    for (int k = 0; k < n; k++) {
        if (t[k].kind != PC_CTOK_STRING) {
            pc_sb_free(&b);
            return NULL;
        }
        pc_sb_append(&b, pc_clang_string_literal(cx, t[k].text, t[k].len));
    }
    char *s = pc_sb_take(&b);
    const char *r = n > 0 ? pc_arena_strdup(cx->scratch, s ? s : "") : NULL;
    pc_mem_free(s);
    return r;
}

/* The braced list t[0, n) is (`{a, b}`, after any type spelling: std::vector<int64_t>{...}): the
 * slice inside the braces, false when t is not one. */
static bool braced(const pc_ctok *t, int n, int *in0, int *in1)
{
    int b = 0;
    while (b < n && !pc_ctok_is(&t[b], "{"))
        b++;
    if (b >= n || pc_clang_match(t, n, b) != n - 1)
        return false;
    *in0 = b + 1;
    *in1 = n - 1;
    return true;
}

/* A list of integers: `{a, b}`; its items in the arena. */
static bool recovered_list(pc_cx *cx, const pc_ctok *t, int n, const pc_expr ***dims, int *nd)
{
    int in0, in1;
    if (!braced(t, n, &in0, &in1))
        return false;
    int cap = in1 - in0 + 1;
    int *st = pc_mem_alloc(sizeof *st * (size_t)cap), *en = pc_mem_alloc(sizeof *en * (size_t)cap);
    int na = pc_clang_split_args(t + in0, in1 - in0, st, en, cap);
    *dims = pc_arena_alloc(pc_model_arena(cx->m), sizeof **dims * (size_t)(na ? na : 1));
    for (int k = 0; k < na; k++)
        (*dims)[k] = recovered_int(cx, t + in0 + st[k], en[k] - st[k]);
    *nd = na;
    pc_mem_free(st);
    pc_mem_free(en);
    return true;
}

/* A runtime option value as written: bool, number, string, {list}; else unknown with its text. */
static void recovered_optval(pc_cx *cx, const pc_ctok *t, int n, pc_optval *out, int depth)
{
    memset(out, 0, sizeof *out);
    out->kind = PC_OPT_UNKNOWN;
    out->text = "";
    if (n <= 0)
        return;
    out->loc = pc_clang_loc_range(cx, t[0].off, t[n - 1].off + t[n - 1].len);
    out->text = pc_model_strdup(cx->m, pc_clang_tok_spelling(cx, t, n));
    const char *s = recovered_string(cx, t, n);
    int in0, in1;
    double f;
    int neg = n == 2 && pc_ctok_is(&t[0], "-");
    if (s) {
        out->kind = PC_OPT_STRING;
        out->text = pc_model_strdup(cx->m, s);
    } else if (n == 1 && (pc_ctok_is(&t[0], "true") || pc_ctok_is(&t[0], "false"))) {
        out->kind = PC_OPT_BOOL;
        out->i = pc_ctok_is(&t[0], "true");
    } else if (depth < 8 && braced(t, n, &in0, &in1)) {
        int cap = in1 - in0 + 1;
        int *st = pc_mem_alloc(sizeof *st * (size_t)cap), *en = pc_mem_alloc(sizeof *en * (size_t)cap);
        int na = pc_clang_split_args(t + in0, in1 - in0, st, en, cap);
        out->kind = PC_OPT_LIST;
        out->nitems = na;
        out->items = pc_arena_alloc(pc_model_arena(cx->m), sizeof *out->items * (size_t)(na ? na : 1));
        for (int k = 0; k < na; k++)
            recovered_optval(cx, t + in0 + st[k], en[k] - st[k], &out->items[k], depth + 1);
        pc_mem_free(st);
        pc_mem_free(en);
    } else if (n == 1 + neg && t[neg].kind == PC_CTOK_NUMBER && !int_literal(&t[neg], &(int64_t){0}) &&
               float_literal(&t[neg], &f)) {
        out->kind = PC_OPT_FLOAT;
        out->f = neg ? -f : f;
    } else {
        const pc_expr *e = recovered_int(cx, t, n);
        int64_t v;
        if (e && pc_expr_is_int(e, &v)) {
            out->kind = PC_OPT_INT;
            out->i = v;
        }
    }
}

/* Reads hidden in the range: GetTensorData(t, ...) reads tensor t. */
static void header_reads(pc_cx *cx, const pc_ctok *t, int n)
{
    for (int i = 0; i + 2 < n; i++) {
        if (!(pc_ctok_is(&t[i], "GetTensorData") || pc_ctok_is(&t[i], "GetInputData")) || !pc_ctok_is(&t[i + 1], "("))
            continue;
        int close = pc_clang_match(t, n, i + 1);
        int st[4], en[4];
        int na = close < n ? pc_clang_split_args(t + i + 2, close - i - 2, st, en, 4) : 0;
        if (na < 1)
            continue;
        const char *name = pc_clang_tok_spelling(cx, t + i + 2 + st[0], en[0] - st[0]);
        int e = pc_clang_env_find(cx, name, PC_CENV_TENSOR);
        int tid = pc_clang_env_tensor(cx, e);
        if (tid >= 0) {
            bool saved = cx->header_reads;
            cx->header_reads = true;
            const pc_ctok *a = t + i + 2 + st[0];
            pc_clang_access(cx, tid, PC_ACC_READ, PC_UNIT_NONE,
                            pc_clang_loc_range(cx, a[0].off, a[en[0] - st[0] - 1].off + a[en[0] - st[0] - 1].len));
            cx->header_reads = saved;
        }
    }
}

/* LoopRange(e) / LoopRange(b, e) / LoopRange(b, e, s), {b, e, s}, or a LoopRange variable. */
static bool loop_range(pc_cx *cx, const pc_ctok *t, int n, const pc_expr **b, const pc_expr **e, const pc_expr **s)
{
    pc_arena *a = pc_model_arena(cx->m);
    int k = 0;
    while (k < n && (t[k].kind == PC_CTOK_IDENT || pc_ctok_is(&t[k], "::")) && !(k + 1 == n))
        k++;
    if (n == 1 && t[0].kind == PC_CTOK_IDENT) {
        const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
        int en = pc_clang_env_find(cx, name, PC_CENV_LIST);
        if (en < 0 || cx->env.items[en].nlist != 3)
            return false;
        *b = cx->env.items[en].list[0];
        *e = cx->env.items[en].list[1];
        *s = cx->env.items[en].list[2];
        return *b && *e && *s;
    }
    if (k >= n || !(pc_ctok_is(&t[k], "(") || pc_ctok_is(&t[k], "{")) || pc_clang_match(t, n, k) != n - 1)
        return false;
    if (k > 0 && !pc_ctok_is(&t[k - 1], "LoopRange"))
        return false;
    int st[4], en[4];
    int na = pc_clang_split_args(t + k + 1, n - k - 2, st, en, 4);
    const pc_ctok *in = t + k + 1;
    if (na < 1 || na > 3)
        return false;
    if (na == 1) {
        *b = pc_expr_int(a, 0);
        *e = recovered_int(cx, in + st[0], en[0] - st[0]);
        *s = pc_expr_int(a, 1);
    } else {
        *b = recovered_int(cx, in + st[0], en[0] - st[0]);
        *e = recovered_int(cx, in + st[1], en[1] - st[1]);
        *s = na == 3 ? recovered_int(cx, in + st[2], en[2] - st[2]) : pc_expr_int(a, 1);
    }
    return *b && *e && *s;
}

/* A boolean argument (submitBeforeLoop, parallel): true/false or a constant. */
static bool bool_arg(pc_cx *cx, const pc_ctok *t, int n, bool *out)
{
    const pc_expr *e = recovered_int(cx, t, n);
    int64_t v;
    if (!e || !pc_expr_is_int(e, &v))
        return false;
    *out = v != 0;
    return true;
}

const char *pc_clang_loop_header_from_tokens(pc_cx *cx, uint32_t begin, uint32_t body, pc_cloop_header *h)
{
    pc_ctoks toks = {0};
    int a0, a1;
    pc_clang_src_lex(cx, begin, body, &toks);
    if (!macro_args(&toks, &a0, &a1)) {
        PC_VEC_FREE(toks);
        return "LOOP not modelled: its header could not be read from the source";
    }
    const pc_ctok *t = toks.items;
    h->loc = pc_clang_loc_range(cx, t[0].off, t[0].off + t[0].len);
    h->header = pc_clang_loc_range(cx, t[0].off, t[a1].off + 1);
    int st[8], en[8];
    int na = pc_clang_split_args(t + a0, a1 - a0, st, en, 8);
    if (na < 4 || na > 7 || !loop_range(cx, t + a0 + st[3], en[3] - st[3], &h->begin, &h->end, &h->step)) {
        PC_VEC_FREE(toks);
        return na < 4 ? "LOOP not modelled: expected LOOP(name, type, index, range, ...)"
                      : "LOOP not modelled: its LoopRange could not be read";
    }
    h->name = recovered_string(cx, t + a0 + st[0], en[0] - st[0]);
    if (!h->name)
        h->name = pc_clang_tok_spelling(cx, t + a0 + st[0], en[0] - st[0]);
    h->index = pc_clang_tok_spelling(cx, t + a0 + st[2], en[2] - st[2]);

    /* reads of tensor data in the range happen before the loop */
    cx->cur_stmt = -1;
    cx->stmt_loc = h->header;
    header_reads(cx, t + a0 + st[3], en[3] - st[3]);
    cx->cur_stmt = -1;

    if (na >= 5 && en[4] > st[4]) {
        const pc_expr **list = NULL;
        int nl = 0;
        bool ok = recovered_list(cx, t + a0 + st[4], en[4] - st[4], &list, &nl);
        pc_clang_loop_unroll(cx, h, list, nl, ok,
                             pc_clang_loc_range(cx, t[a0 + st[4]].off, t[a0 + en[4] - 1].off + t[a0 + en[4] - 1].len));
    }
    if (na >= 6 && !bool_arg(cx, t + a0 + st[5], en[5] - st[5], &h->submit))
        pc_model_add_message(cx->m, PC_MSG_WARNING, h->header, "submitBeforeLoop is not a constant; modelled as false");
    if (na >= 7 && !bool_arg(cx, t + a0 + st[6], en[6] - st[6], &h->parallel))
        pc_model_add_message(cx->m, PC_MSG_WARNING, h->header, "parallel is not a constant; modelled as false");
    PC_VEC_FREE(toks);
    return NULL;
}

/* The elements of the braced lists in t[a0, a1), nested lists flattened. */
static void written_list_items(const pc_ctok *t, int a0, int a1, pc_cranges *out)
{
    int st[64], en[64];
    int na = pc_clang_split_args(t + a0, a1 - a0, st, en, 64);
    for (int i = 0; i < na; i++) {
        int s0 = a0 + st[i], s1 = a0 + en[i];
        if (s1 > s0 && pc_ctok_is(&t[s0], "{") && pc_clang_match(t, s1, s0) == s1 - 1)
            written_list_items(t, s0 + 1, s1 - 1, out);
        else if (s1 > s0)
            PC_VEC_PUSH(*out, ((pc_crange){t[s0].off, t[s1 - 1].off + t[s1 - 1].len}));
    }
}

const char *pc_clang_function_header_from_tokens(pc_cx *cx, uint32_t begin, uint32_t body, pc_cranges *items)
{
    pc_ctoks toks = {0};
    int a0, a1;
    const char *name = NULL;
    pc_clang_src_lex(cx, begin, body, &toks);
    if (macro_args(&toks, &a0, &a1)) {
        int st[8], en[8];
        int na = pc_clang_split_args(toks.items + a0, a1 - a0, st, en, 8);
        if (na >= 1) {
            name = recovered_string(cx, toks.items + a0 + st[0], en[0] - st[0]);
            if (!name)
                name = pc_clang_tok_spelling(cx, toks.items + a0 + st[0], en[0] - st[0]);
        }
        for (int i = 1; i < na; i++) {
            int s0 = a0 + st[i], s1 = a0 + en[i];
            if (s1 > s0 && pc_ctok_is(&toks.items[s0], "{"))
                written_list_items(toks.items, s0 + 1, s1 - 1, items);
        }
    }
    PC_VEC_FREE(toks);
    return name;
}

/* A config::SetRuntimeOption<T>(key, value) call clang rejected (an error in its arguments or an
 * unknown option type): its key and value read back from the statement's tokens, so the option
 * is still recorded (clang_options.c records the ones clang resolved). */
void pc_clang_option_site_from_tokens(pc_cx *cx, CXCursor c)
{
    pc_ctoks toks = {0};
    if (!pc_clang_cursor_tokens(cx, c, &toks)) {
        PC_VEC_FREE(toks);
        return;
    }
    const pc_ctok *t = toks.items;
    int n = (int)toks.count, i = 0;
    while (i < n && !pc_ctok_is(&t[i], "SetRuntimeOption"))
        i++;
    if (i >= n) {
        PC_VEC_FREE(toks);
        return;
    }
    uint32_t call_begin = t[0].off;
    i++;
    if (i < n && pc_ctok_is(&t[i], "<")) /* SetRuntimeOption<std::vector<int64_t>>(...) */
        i = pc_clang_skip_template_args(t, n, i);
    if (i < 0) {
        PC_VEC_FREE(toks);
        return;
    }
    if (i >= n || !pc_ctok_is(&t[i], "(")) {
        PC_VEC_FREE(toks);
        return;
    }
    int close = pc_clang_match(t, n, i);
    int st[4], en[4];
    int na = close < n ? pc_clang_split_args(t + i + 1, close - i - 1, st, en, 4) : 0;
    pc_loc loc = pc_clang_loc_range(cx, call_begin, close < n ? t[close].off + 1 : t[n - 1].off + t[n - 1].len);
    if (na < 2) {
        PC_VEC_FREE(toks);
        return;
    }
    const pc_ctok *kt = t + i + 1 + st[0];
    int kn = en[0] - st[0];
    const char *key = recovered_string(cx, kt, kn);
    if (!key && kn > 0)
        key = pc_clang_option_key_from_constant(cx, pc_arena_strndup(cx->scratch, kt[kn - 1].text, kt[kn - 1].len));
    pc_option *o = pc_clang_option_record(cx, key, loc);
    if (o)
        recovered_optval(cx, t + i + 1 + st[1], en[1] - st[1], &o->value, 0);
    PC_VEC_FREE(toks);
}

/* ---- code the walk could not see: clang errors claimed by the statements that contain them,
 * statements clang left out of its tree, and after the walk the LOOP / FUNCTION tokens no
 * recognised statement starts at and the clang errors inside a kernel that no statement claimed,
 * each reported where it is ---- */

/* ---- diagnostics ---------------------------------------------------------------------------- */

const char *pc_clang_claim_errors(pc_cx *cx, uint32_t begin, uint32_t end)
{
    const char *first = NULL;
    if (!cx->in_main) /* the errors recorded are the main file's; their offsets mean nothing here */
        return NULL;
    for (int i = 0; i < cx->ndiags; i++) {
        pc_cdiag *d = &cx->diags[i];
        if (!d->claimed && d->off >= begin && d->off < end) {
            d->claimed = true;
            if (!first)
                first = d->text;
        }
    }
    return first;
}

/* LOOP tokens inside a kernel that no recognised loop starts at (the macro did not expand, or
 * clang dropped the statement), and clang errors inside a kernel that no statement claimed: each
 * becomes an unanalysed statement at its place in the innermost enclosing LOOP body. */
static void place_unanalysed(pc_cx *cx, int kernel, uint32_t off, const char *message)
{
    int loop = -1;
    uint32_t best = 0xffffffffu;
    for (size_t i = 0; i < cx->body_spans.count; i++) {
        pc_cspan *sp = &cx->body_spans.items[i];
        if (sp->kernel == kernel && off >= sp->begin && off < sp->end && sp->end - sp->begin < best) {
            best = sp->end - sp->begin;
            loop = sp->loop;
        }
    }
    int saved_kernel = cx->kernel;
    pc_cblock saved_block = cx->block;
    cx->kernel = kernel;
    cx->block = loop >= 0 ? (pc_cblock){PC_CBLK_LOOP, loop, 0} : (pc_cblock){PC_CBLK_KERNEL, 0, 0};
    pc_clang_unanalysed(cx, pc_clang_loc_range(cx, off, off), message);
    pc_clang_block_sort_last(cx, cx->block);
    cx->kernel = saved_kernel;
    cx->block = saved_block;
}

static int kernel_at(pc_cx *cx, uint32_t off)
{
    int k = -1;
    uint32_t best = 0xffffffffu;
    for (size_t i = 0; i < cx->kernel_spans.count; i++) {
        pc_cspan *sp = &cx->kernel_spans.items[i];
        if (off >= sp->begin && off < sp->end && sp->end - sp->begin < best) {
            best = sp->end - sp->begin;
            k = sp->kernel;
        }
    }
    return k;
}

/* The PARSE_NOISE message pc_clang_parse recorded for dg becomes a PC_MSG_ERROR. */
static void promote_to_error(pc_cx *cx, const pc_cdiag *dg)
{
    if (dg->message >= 0 && dg->message < cx->m->nmessages && cx->m->messages[dg->message].kind == PC_MSG_PARSE_NOISE)
        cx->m->messages[dg->message].kind = PC_MSG_ERROR;
}

typedef PC_VEC(uint32_t) line_list;

/* LOOP tokens inside a kernel that no recognised loop starts at: each an unanalysed statement
 * (lines: the lines they are on, whose clang errors they explain). */
static void loop_leftovers(pc_cx *cx, const pc_ctoks *toks, line_list *lines)
{
    for (size_t i = 0; i + 1 < toks->count; i++) {
        const pc_ctok *t = &toks->items[i];
        if (!pc_ctok_is(t, "LOOP") || !pc_ctok_is(&toks->items[i + 1], "(") || pc_clang_is_skipped(cx, t->off))
            continue;
        bool known = false;
        for (size_t j = 0; j < cx->loop_spans.count && !known; j++)
            known = cx->loop_spans.items[j].begin == t->off;
        int k = known ? -1 : kernel_at(cx, t->off);
        if (k < 0)
            continue;
        /* an UNANALYSED statement already made for this LOOP (its header could not be read) */
        pc_loc at = pc_clang_loc_range(cx, t->off, t->off);
        bool reported = false;
        pc_kernel *kk = &cx->m->kernels[k];
        for (int s = 0; s < kk->nstmts && !reported; s++)
            reported = kk->stmts[s].kind == PC_STMT_UNANALYSED && kk->stmts[s].loc.line == at.line;
        PC_VEC_PUSH(*lines, at.line);
        if (reported)
            continue;
        const char *err = NULL;
        for (int d = 0; d < cx->ndiags && !err; d++)
            if (cx->diags[d].line == at.line && !cx->diags[d].claimed)
                err = cx->diags[d].text;
        place_unanalysed(cx, k, t->off,
                         err ? pc_arena_printf(cx->scratch, "LOOP not modelled: clang could not parse it (%s)", err)
                             : "LOOP not modelled: it is in code poolcheck does not follow from the FUNCTION "
                               "(a lambda that is not called, a call through a pointer)");
    }
}

/* FUNCTION tokens no kernel starts at: clang dropped the statement, so no kernel exists to
 * hold an unanalysed statement; say so where it is */
static void function_leftovers(pc_cx *cx, const pc_ctoks *toks)
{
    for (size_t i = 0; i + 1 < toks->count; i++) {
        const pc_ctok *t = &toks->items[i];
        if (!pc_ctok_is(t, "FUNCTION") || !pc_ctok_is(&toks->items[i + 1], "(") || pc_clang_is_skipped(cx, t->off))
            continue;
        bool known = false;
        for (size_t j = 0; j < cx->function_offs.count && !known; j++)
            known = cx->function_offs.items[j] == t->off;
        if (known)
            continue;
        pc_loc at = pc_clang_loc_range(cx, t->off, t->off + t->len);
        const char *err = NULL;
        for (int d = 0; d < cx->ndiags && !err; d++)
            if (cx->diags[d].line >= at.line && cx->diags[d].line <= at.line + 1)
                err = cx->diags[d].text;
        const pc_cspan *cut = NULL;
        for (size_t c = 0; c < cx->cut_bodies.count && !cut; c++)
            if (cx->cut_bodies.items[c].begin <= t->off)
                cut = &cx->cut_bodies.items[c];
        const char *why;
        if (err)
            why = pc_arena_printf(cx->scratch, "FUNCTION not modelled: clang could not parse it (%s)", err);
        else if (cut)
            why = pc_arena_printf(cx->scratch, "FUNCTION not modelled: clang stopped parsing the file at line %u, before it",
                                  pc_clang_loc_range(cx, cut->begin, cut->begin).line);
        else
            why = "FUNCTION not modelled: it is in code poolcheck does not follow (a lambda, a macro of its own)";
        pc_model_add_message(cx->m, PC_MSG_WARNING, at, why);
    }
}

/* A kernel body clang stopped parsing inside: the rest of it is not in the model */
static void cut_leftovers(pc_cx *cx)
{
    for (size_t i = 0; i < cx->cut_bodies.count; i++) {
        const pc_cspan *cut = &cx->cut_bodies.items[i];
        const char *err = NULL;
        for (int d = 0; d < cx->ndiags && !err; d++)
            if (cx->diags[d].off <= cut->begin)
                err = cx->diags[d].text;
        place_unanalysed(cx, cut->kernel, cut->begin,
                         pc_arena_printf(cx->scratch, "the rest of the kernel is not modelled: clang stopped parsing it%s%s%s",
                                         err ? " (" : "", err ? err : "", err ? ")" : ""));
    }
}

/* A clang error inside a kernel body is the kernel's own (it will not compile): shown as an
 * error whatever --show-parse-errors says, where one outside kernel code stays stub noise. */
static void error_leftovers(pc_cx *cx, const line_list *lines)
{
    for (int d = 0; d < cx->ndiags; d++)
        if (kernel_at(cx, cx->diags[d].off) >= 0)
            promote_to_error(cx, &cx->diags[d]);
    for (int d = 0; d < cx->ndiags; d++) {
        pc_cdiag *dg = &cx->diags[d];
        if (dg->claimed)
            continue;
        int k = kernel_at(cx, dg->off);
        bool on_loop_line = false;
        for (size_t i = 0; i < lines->count && !on_loop_line; i++)
            on_loop_line = lines->items[i] == dg->line;
        dg->claimed = true;
        if (k < 0 || on_loop_line)
            continue;
        place_unanalysed(cx, k, dg->off, pc_arena_printf(cx->scratch, "code not modelled (clang: %s)", dg->text));
    }
}

void pc_clang_check_leftovers(pc_cx *cx)
{
    pc_ctoks own = {0};
    const pc_ctoks *toks = pc_clang_main_tokens(cx); /* lexed once, shared with the walk */
    if (!toks) {
        pc_clang_lex(cx->src, 0, cx->srclen, &own);
        toks = &own;
    }
    line_list lines = {0};
    loop_leftovers(cx, toks, &lines);
    function_leftovers(cx, toks);
    cut_leftovers(cx);
    error_leftovers(cx, &lines);
    PC_VEC_FREE(lines);
    PC_VEC_FREE(own);
}

/* ---- statements clang left out of its tree, or kept with a rejected declaration in them ---- */

/* Code clang left out of its tree with no error there: a token in cx->src[begin, end) that is not
 * a separator (`;`, and `,` between declarators) and not in a skipped #if branch.  Clang drops a
 * statement, or a declaration's initializer, that uses a declaration it rejected earlier (host
 * code before the FUNCTION: `auto [b, s] = GetParams<7>(...)` with GetParams undeclared, a
 * parameter of an unknown type) and reports nothing at the use: its children's extents leave
 * that code uncovered.  Returns the offset of the first such token, or UINT32_MAX (also when a
 * clang error lies in the range). */
uint32_t pc_clang_uncovered_code(pc_cx *cx, uint32_t begin, uint32_t end, bool commas)
{
    uint32_t at = UINT32_MAX;
    if (!cx->tu_errors || !cx->in_main || end <= begin)
        return at;
    /* a clang error in the gap says what happened there: the leftovers pass reports it (and a
     * LOOP token there) quoting clang */
    for (int i = 0; i < cx->ndiags; i++)
        if (cx->diags[i].off >= begin && cx->diags[i].off < end)
            return at;
    pc_ctoks toks = {0};
    pc_clang_src_lex(cx, begin, end, &toks);
    for (size_t i = 0; i < toks.count && at == UINT32_MAX; i++) {
        const pc_ctok *t = &toks.items[i];
        if (pc_ctok_is(t, ";") || (commas && pc_ctok_is(t, ",")) || pc_clang_is_skipped(cx, t->off))
            continue;
        at = t->off;
    }
    PC_VEC_FREE(toks);
    return at;
}

/* The text of the main file's clang error nearest before offset `off` (what most likely made clang
 * drop the code there: the rejected declaration comes before its use), or NULL. */
static const char *error_before(pc_cx *cx, uint32_t off, uint32_t *line)
{
    const pc_cdiag *best = NULL;
    for (int i = 0; i < cx->ndiags; i++)
        if (cx->diags[i].off < off && (!best || cx->diags[i].off > best->off))
            best = &cx->diags[i];
    if (!best)
        return NULL;
    *line = best->line;
    return best->text;
}

void pc_clang_report_dropped(pc_cx *cx, uint32_t off, const char *what)
{
    uint32_t line = 0;
    const char *err = error_before(cx, off, &line);
    pc_clang_unanalysed(cx, pc_clang_loc_range(cx, off, off),
                        err ? pc_arena_printf(cx->scratch,
                                              "%s not modelled: clang left it out of its tree with no error at it, as "
                                              "it does when code uses a declaration clang rejected (the nearest error "
                                              "before it: line %u, clang: %s)",
                                              what, line, err)
                            : pc_arena_printf(cx->scratch, "%s not modelled: clang left it out of its tree", what));
}

/* What a statement holds of code clang rejected without an error at it: the first reference to a
 * declaration clang rejected, or (newer libclang) a name clang could not resolve, kept as an empty
 * recovery expression. */
typedef struct rejected_scan {
    pc_cx *cx;
    CXCursor decl;     /* the rejected declaration referred to, or null */
    uint32_t dropped;  /* the offset of an unresolved name, or UINT32_MAX */
    const char *callee; /* that name */
} rejected_scan;

static enum CXChildVisitResult rejected_use_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    rejected_scan *rs = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        CXCursor r = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(r) && clang_isInvalidDeclaration(r)) {
            rs->decl = r;
            return CXChildVisit_Break;
        }
    }
    /* a reference clang could not resolve, kept as a recovery expression with nothing inside:
     * an expression with no children whose extent is one identifier (an implicit conversion has
     * its operand as a child) */
    uint32_t eb, ee;
    if (k == CXCursor_UnexposedExpr && pc_clang_offsets(rs->cx, c, &eb, &ee) && ee > eb) {
        pc_clang_cursors ch = {0};
        pc_clang_children(c, &ch);
        size_t nch = ch.count;
        PC_VEC_FREE(ch);
        pc_ctoks toks = {0};
        if (nch == 0)
            pc_clang_src_lex(rs->cx, eb, ee, &toks);
        bool one_ident = toks.count == 1 && toks.items[0].kind == PC_CTOK_IDENT;
        PC_VEC_FREE(toks);
        if (one_ident) {
            rs->dropped = eb;
            rs->callee = pc_arena_printf(rs->cx->scratch, "%.*s", (int)(ee - eb), rs->cx->src + eb);
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* A statement that uses a declaration clang rejected, where clang keeps the use in its tree as a
 * recovery expression (newer libclang; older ones drop the code: pc_clang_uncovered_code): what the
 * statement does with it is not in the model.  The message names the declaration and clang's
 * error on its line, or the call and the nearest error before it. */
const char *pc_clang_rejected_use(pc_cx *cx, CXCursor s)
{
    rejected_scan rs = {cx, clang_getNullCursor(), UINT32_MAX, NULL};
    if (!cx->tu_errors || !cx->in_main)
        return NULL;
    clang_visitChildren(s, rejected_use_visit, &rs);
    if (rs.dropped != UINT32_MAX) {
        uint32_t line = 0;
        const char *err = error_before(cx, rs.dropped, &line);
        return err ? pc_arena_printf(cx->scratch,
                                     "statement not modelled: it uses '%s', which clang could not resolve "
                                     "(a declaration clang rejected; the nearest error before it: line %u, "
                                     "clang: %s)",
                                     rs.callee, line, err)
                   : NULL;
    }
    if (clang_Cursor_isNull(rs.decl))
        return NULL;
    const char *name = pc_clang_spelling(cx, rs.decl);
    pc_loc at = pc_clang_cursor_loc(cx, rs.decl);
    const char *err = NULL;
    for (int i = 0; at.line > 0 && i < cx->ndiags && !err; i++)
        if (cx->diags[i].line == at.line)
            err = cx->diags[i].text;
    if (err)
        return pc_arena_printf(cx->scratch,
                               "statement not modelled: it uses '%s', whose declaration clang rejected (line %u, clang: %s)",
                               name, at.line, err);
    return pc_arena_printf(cx->scratch, "statement not modelled: it uses '%s', whose declaration clang rejected", name);
}
