/* clang_leftovers.c - what the walk could not see: clang errors claimed by the statements that
 * contain them, and after the walk the LOOP / FUNCTION tokens no recognised statement starts at
 * and the clang errors inside a kernel that no statement claimed, each reported where it is. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

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
