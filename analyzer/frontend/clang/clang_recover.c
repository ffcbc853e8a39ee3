/*
 * clang_recover.c - the headers of macro-made statements clang dropped, read from their tokens.
 *
 * The stub's LOOP hands its arguments to the recorder as real expressions (clang_walk.c reads
 * them from cursors).  When one has an error (an undeclared name in a LoopRange), clang drops
 * that recorder call and keeps the loop and its body: the header is then read back from the
 * macro's written arguments here, names clang did not know becoming symbols, so the loop is
 * still modelled; so are a FUNCTION's name and tensor lists.  A SetRuntimeOption call clang
 * rejected is read back the same way.  This is the one place error recovery reads tokens.
 */
#include "clang_int.h"

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
        *e = pc_clang_int_expr(cx, in + st[0], en[0] - st[0]);
        *s = pc_expr_int(a, 1);
    } else {
        *b = pc_clang_int_expr(cx, in + st[0], en[0] - st[0]);
        *e = pc_clang_int_expr(cx, in + st[1], en[1] - st[1]);
        *s = na == 3 ? pc_clang_int_expr(cx, in + st[2], en[2] - st[2]) : pc_expr_int(a, 1);
    }
    return *b && *e && *s;
}

/* A boolean argument (submitBeforeLoop, parallel): true/false or a constant. */
static bool bool_arg(pc_cx *cx, const pc_ctok *t, int n, bool *out)
{
    const pc_expr *e = pc_clang_int_expr(cx, t, n);
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
    h->name = pc_clang_string_arg(cx, t + a0 + st[0], en[0] - st[0]);
    if (!h->name)
        h->name = pc_clang_tok_spelling(cx, t + a0 + st[0], en[0] - st[0]);
    h->index = pc_clang_tok_spelling(cx, t + a0 + st[2], en[2] - st[2]);

    /* reads of tensor data in the range happen before the loop */
    cx->cur_stmt = -1;
    cx->stmt_loc = h->header;
    header_reads(cx, t + a0 + st[3], en[3] - st[3]);
    cx->cur_stmt = -1;

    if (na >= 5 && en[4] > st[4]) {
        const pc_expr **list;
        int nl;
        bool ok = pc_clang_shape_list(cx, t + a0 + st[4], en[4] - st[4], &list, &nl);
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
static void list_items(const pc_ctok *t, int a0, int a1, pc_cranges *out)
{
    int st[64], en[64];
    int na = pc_clang_split_args(t + a0, a1 - a0, st, en, 64);
    for (int i = 0; i < na; i++) {
        int s0 = a0 + st[i], s1 = a0 + en[i];
        if (s1 > s0 && pc_ctok_is(&t[s0], "{") && pc_clang_match(t, s1, s0) == s1 - 1)
            list_items(t, s0 + 1, s1 - 1, out);
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
            name = pc_clang_string_arg(cx, toks.items + a0 + st[0], en[0] - st[0]);
            if (!name)
                name = pc_clang_tok_spelling(cx, toks.items + a0 + st[0], en[0] - st[0]);
        }
        for (int i = 1; i < na; i++) {
            int s0 = a0 + st[i], s1 = a0 + en[i];
            if (s1 > s0 && pc_ctok_is(&toks.items[s0], "{"))
                list_items(toks.items, s0 + 1, s1 - 1, items);
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
    const char *key = pc_clang_string_arg(cx, kt, kn);
    if (!key && kn > 0)
        key = pc_clang_option_key_from_constant(cx, pc_arena_strndup(cx->scratch, kt[kn - 1].text, kt[kn - 1].len));
    pc_option *o = pc_clang_option_record(cx, key, loc);
    if (o)
        pc_clang_optval(cx, t + i + 1 + st[1], en[1] - st[1], &o->value);
    PC_VEC_FREE(toks);
}
