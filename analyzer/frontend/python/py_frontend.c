/*
 * py_frontend.c - pc_py_parse: a Python source file -> pc_model.
 *
 * Two passes over the module, both on the C copy of CPython's AST (nothing is imported or run):
 *  1. bind: imports (pypto and its aliases), module constants (`B, L = 1, 64`, arithmetic),
 *     dicts and lists used as option values, and function definitions.  Globals are read when a
 *     kernel is traced (at call time), so kernels see the final module bindings.
 *  2. find: in source order, every kernel - a function decorated `@pypto.frontend.jit` /
 *     `@pypto.jit` (with or without arguments, through import aliases), or a legacy
 *     `with pypto.function("name", *io):` block in host code - and every runtime option site
 *     outside kernels.  Host functions are scanned so that tensors created before a
 *     `with pypto.function` are known (they are the kernel's inputs and outputs).
 * Option sites are collected, de-duplicated (a helper inlined twice holds one call) and added in
 * source order.
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- locations and messages ----------------------------------------------------------------- */

pc_loc pc_py_loc(pc_py_ctx *c, const pc_py_node *n)
{
    if (!n || !n->line)
        return pc_model_loc(c->m, c->file, c->stmt_line ? c->stmt_line : 1, c->stmt_col ? c->stmt_col : 1,
                            c->stmt_end_line, c->stmt_end_col);
    return pc_model_loc(c->m, c->file, n->line, n->col, n->end_line, n->end_col);
}

pc_loc pc_py_loc_span(pc_py_ctx *c, const pc_py_node *from, const pc_py_node *to)
{
    if (!from || !from->line)
        return pc_py_loc(c, to);
    if (!to || !to->end_line)
        return pc_py_loc(c, from);
    return pc_model_loc(c->m, c->file, from->line, from->col, to->end_line, to->end_col);
}

static void add_message(pc_py_ctx *c, pc_msg_kind kind, const char *check, const pc_py_node *at, const char *fmt,
                        va_list ap)
{
    pc_sb sb = {0};
    pc_sb_vprintf(&sb, fmt, ap);
    char *text = pc_sb_take(&sb);
    pc_loc loc = pc_py_loc(c, at);
    /* the same helper inlined twice says the same thing once */
    bool dup = false;
    for (int i = 0; i < c->m->nmessages && !dup; i++) {
        const pc_message *msg = &c->m->messages[i];
        dup = msg->kind == kind && msg->loc.line == loc.line && msg->loc.col == loc.col && strcmp(msg->text, text) == 0;
    }
    if (!dup)
        pc_model_add_message_check(c->m, kind, loc, check, text);
    pc_mem_free(text);
}

void pc_py_message(pc_py_ctx *c, pc_msg_kind kind, const pc_py_node *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(c, kind, NULL, at, fmt, ap);
    va_end(ap);
}

void pc_py_note_check(pc_py_ctx *c, const char *check, const pc_py_node *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(c, PC_MSG_NOTE, check, at, fmt, ap);
    va_end(ap);
}

/* ---- option values -------------------------------------------------------------------------- */

static void optval_from(pc_py_ctx *c, const pc_py_node *n, pc_optval *out, int depth);

/* n's source text as written, in the model (a value kept with its spelling: floats, unknowns). */
static const char *as_written(pc_py_ctx *c, const pc_py_node *n)
{
    return pc_model_strdup(c->m, pc_py_source_text(c->src, n->line, n->col, n->end_line, n->end_col));
}

static void optval_from_val(pc_py_ctx *c, const pc_py_node *n, const pc_py_val *v, pc_optval *out, int depth)
{
    int64_t x;
    out->text = NULL;
    switch (v->kind) {
    case PV_INT:
        if (pc_expr_is_int(v->e, &x)) {
            out->kind = PC_OPT_INT;
            out->i = x;
            return;
        }
        break;
    case PV_BOOL:
        out->kind = PC_OPT_BOOL;
        out->i = v->i;
        return;
    case PV_FLOAT:
        out->kind = PC_OPT_FLOAT;
        out->f = v->f;
        out->text = as_written(c, n);
        return;
    case PV_STR:
        out->kind = PC_OPT_STRING;
        out->text = pc_model_strdup(c->m, v->s);
        return;
    case PV_NONE:
        out->kind = PC_OPT_NONE;
        return;
    case PV_SEQ:
        if (v->node && v->node != n && depth < 8) {
            /* a name bound to a literal list: its items, with the name's extent as the value's */
            pc_loc keep = out->loc;
            optval_from(c, v->node, out, depth + 1);
            out->loc = keep;
            return;
        }
        break;
    default:
        break;
    }
    out->kind = PC_OPT_UNKNOWN;
    out->text = as_written(c, n);
}

/* The value as written (model.md 8: invalid values are reported, so nothing is normalised away). */
static void optval_from(pc_py_ctx *c, const pc_py_node *n, pc_optval *out, int depth)
{
    memset(out, 0, sizeof *out);
    out->loc = pc_py_loc(c, n);
    /* a literal int, bool, float, string or None is evaluated like any constant (optval_from_val
     * converts it): one conversion for a value written out and a value named */
    switch (n->kind) {
    case PY_LIST:
    case PY_TUPLE: {
        bool starred = false;
        for (int i = 0; i < n->list1.count; i++)
            starred |= !n->list1.items[i] || n->list1.items[i]->kind == PY_STARRED;
        if (starred || depth > 8)
            break;
        out->kind = n->kind == PY_LIST ? PC_OPT_LIST : PC_OPT_TUPLE;
        out->nitems = n->list1.count;
        out->items = pc_arena_alloc(pc_model_arena(c->m), (size_t)(out->nitems + 1) * sizeof *out->items);
        for (int i = 0; i < out->nitems; i++)
            optval_from(c, n->list1.items[i], &out->items[i], depth + 1);
        return;
    }
    case PY_UNARYOP:
        if ((n->op == PY_OP_USUB || n->op == PY_OP_UADD) && n->a && (n->a->kind == PY_INT || n->a->kind == PY_FLOAT) &&
            !n->a->big) {
            bool neg = n->op == PY_OP_USUB;
            if (n->a->kind == PY_INT) {
                out->kind = PC_OPT_INT;
                out->i = neg ? -n->a->ivalue : n->a->ivalue;
            } else {
                out->kind = PC_OPT_FLOAT;
                out->f = neg ? -n->a->fvalue : n->a->fvalue;
                out->text = as_written(c, n);
            }
            return;
        }
        break;
    default:
        break;
    }
    /* names of module constants, arithmetic on them: evaluated without side effects */
    int saved = c->kernel;
    c->kernel = -1;
    pc_py_val v = pc_py_eval(c, n);
    c->kernel = saved;
    optval_from_val(c, n, &v, out, depth);
}

void pc_py_add_option(pc_py_ctx *c, const char *key, const pc_py_node *value, pc_optsite_kind site, int kernel,
                      bool in_kernel, pc_loc loc)
{
    c->opts = pc_py_room_for_one(c, c->opts, c->nopts, &c->capopts, 8, sizeof *c->opts);
    pc_py_optrec *r = &c->opts[c->nopts++];
    r->key = key;
    optval_from(c, value, &r->value, 0);
    r->site = site;
    r->kernel = kernel;
    r->in_kernel = in_kernel;
    r->loc = loc;
    r->owner = in_kernel ? NULL : c->owner;
}

void pc_py_add_option_dict(pc_py_ctx *c, const pc_py_node *dict, pc_optsite_kind site, int kernel, bool in_kernel)
{
    const pc_py_node *d = dict;
    if (d && d->kind == PY_NAME) {
        pc_py_val *v = pc_py_lookup_forced(c, c->frame, d->name);
        if (v && v->kind == PV_DICT)
            d = v->node;
    }
    if (d && d->kind == PY_CALL && pc_py_qualname(c, d->a) && strcmp(pc_py_qualname(c, d->a), "dict") == 0 &&
        d->list1.count == 0) {
        for (int i = 0; i < d->list2.count; i++) {
            const pc_py_node *kw = d->list2.items[i];
            if (kw && kw->name && kw->a)
                pc_py_add_option(c, kw->name, kw->a, site, kernel, in_kernel, pc_py_loc(c, kw));
        }
        return;
    }
    if (!d || d->kind != PY_DICT) {
        if (d && d->kind != PY_NONE)
            pc_py_message(c, PC_MSG_WARNING, dict,
                          "runtime_options is not a dict literal poolcheck can read: its options are not checked");
        return;
    }
    for (int i = 0; i < d->list1.count && i < d->list2.count; i++) {
        const pc_py_node *k = d->list1.items[i], *v = d->list2.items[i];
        if (!v)
            continue;
        if (!k) {
            pc_py_message(c, PC_MSG_WARNING, v, "'**' in runtime_options: those options are not checked");
            continue;
        }
        int saved = c->kernel;
        c->kernel = -1;
        pc_py_val kv = pc_py_eval(c, k);
        c->kernel = saved;
        const char *key = kv.kind == PV_STR ? kv.s : pc_py_source_text(c->src, k->line, k->col, k->end_line, k->end_col);
        pc_py_add_option(c, key, v, site, kernel, in_kernel, pc_py_loc_span(c, k, v));
    }
}

bool pc_py_option_call(pc_py_ctx *c, const pc_py_node *call, int kernel, bool in_kernel)
{
    if (!call || call->kind != PY_CALL)
        return false;
    const char *q = pc_py_qualname(c, call->a);
    if (!q)
        return false;
    int k = in_kernel ? kernel : -1;
    if (pc_py_is_api(q, "experimental.set_runtime_options") || pc_py_is_api(q, "set_runtime_options")) {
        for (int i = 0; i < call->list2.count; i++) {
            const pc_py_node *kw = call->list2.items[i];
            if (!kw || !kw->a)
                continue;
            if (kw->name)
                pc_py_add_option(c, kw->name, kw->a, PC_SITE_SET_RUNTIME_OPTIONS, k, in_kernel, pc_py_loc(c, kw));
            else
                pc_py_add_option_dict(c, kw->a, PC_SITE_SET_RUNTIME_OPTIONS, k, in_kernel);
        }
        if (call->list1.count)
            pc_py_message(c, PC_MSG_WARNING, call,
                          "positional arguments to set_runtime_options are not read: pass options by keyword");
        return true;
    }
    if (pc_py_is_api(q, "set_options") || pc_py_is_api(q, "options")) {
        const pc_py_node *ro = pc_py_kwarg(call, "runtime_options");
        if (ro)
            pc_py_add_option_dict(c, ro, pc_py_is_api(q, "options") ? PC_SITE_OPTIONS_SCOPE : PC_SITE_SET_OPTIONS,
                                  kernel, in_kernel);
        return true;
    }
    return false;
}

/* ---- pass 1: module bindings ------------------------------------------------------------------ */

/* How often each name of a module is bound at its top level (assignments, augmented ones, imports,
 * definitions, the base of `X[0] = ...`), counted before pass 1 (what may be lazy). */
typedef struct name_counts { pc_py_frame *f; } name_counts;

static void count_name(pc_py_ctx *c, name_counts *nc, const char *name, int64_t by)
{
    if (!name)
        return;
    pc_py_val *v = pc_py_lookup_local(nc->f, name);
    if (v) {
        v->i += by;
        return;
    }
    pc_py_val n = pc_py_mkval(PV_INT);
    n.i = by;
    pc_py_bind(c, nc->f, name, n);
}

static void count_target(pc_py_ctx *c, name_counts *nc, const pc_py_node *t, int depth)
{
    if (!t || depth > 64)
        return;
    switch (t->kind) {
    case PY_NAME: count_name(c, nc, t->name, 1); break;
    case PY_TUPLE:
    case PY_LIST:
        for (int i = 0; i < t->list1.count; i++)
            count_target(c, nc, t->list1.items[i], depth + 1);
        break;
    case PY_STARRED:
    case PY_SUBSCRIPT:
    case PY_ATTRIBUTE: {
        /* `X[0] = 5` changes what X holds: X is not a constant to evaluate later */
        const pc_py_node *b = t->a;
        while (b && (b->kind == PY_SUBSCRIPT || b->kind == PY_ATTRIBUTE || b->kind == PY_STARRED))
            b = b->a;
        if (b && b->kind == PY_NAME)
            count_name(c, nc, b->name, 2);
        break;
    }
    default: break;
    }
}

static void count_bindings(pc_py_ctx *c, name_counts *nc, const pc_py_list *body)
{
    for (int i = 0; i < body->count; i++) {
        const pc_py_node *s = body->items[i];
        if (!s)
            continue;
        switch (s->kind) {
        case PY_IMPORT:
        case PY_IMPORTFROM:
            for (int a = 0; a < s->list1.count; a++) {
                const pc_py_node *al = s->list1.items[a];
                if (!al)
                    continue;
                const char *nm = al->str ? al->str : al->name;
                const char *dot = nm ? strchr(nm, '.') : NULL;
                count_name(c, nc, dot && !al->str ? pc_arena_strndup(c->scratch, nm, (size_t)(dot - nm)) : nm, 1);
            }
            break;
        case PY_ASSIGN:
            for (int t = 0; t < s->list1.count; t++)
                count_target(c, nc, s->list1.items[t], 0);
            break;
        case PY_ANNASSIGN: count_target(c, nc, s->a, 0); break;
        case PY_AUGASSIGN: count_target(c, nc, s->a, 0); count_target(c, nc, s->a, 0); break;
        case PY_FUNCDEF:
        case PY_CLASSDEF: count_name(c, nc, s->name, 1); break;
        case PY_FOR: count_target(c, nc, s->a, 0); count_target(c, nc, s->a, 0); /* fall through */
        case PY_WHILE:
        case PY_IF:
            count_bindings(c, nc, &s->list1);
            count_bindings(c, nc, &s->list2);
            break;
        case PY_TRY:
            count_bindings(c, nc, &s->list1);
            count_bindings(c, nc, &s->list2);
            break;
        case PY_WITH:
            for (int w = 0; w < s->list1.count; w++)
                if (s->list1.items[w])
                    count_target(c, nc, s->list1.items[w]->b, 0);
            count_bindings(c, nc, &s->list2);
            break;
        default:
            /* Global, Delete, Match, ...: whatever they name is not a constant */
            break;
        }
    }
}

/* Can `NAME = value` wait until a kernel reads NAME?  Only when evaluating it later gives what
 * evaluating it now would: no call (helpers inline, options record), nothing deep, and every name
 * it reads already bound here and never bound again (so later is the same as now). */
static bool lazy_ok(pc_py_ctx *c, const name_counts *nc, const pc_py_node *n, int depth)
{
    if (!n)
        return true;
    if (depth > 48)
        return false;
    switch (n->kind) {
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
    case PY_BOOL:
    case PY_NONE:
        return true;
    case PY_NAME: {
        pc_py_val *cnt = pc_py_lookup_local(nc->f, n->name);
        return pc_py_lookup_local(c->frame, n->name) && cnt && cnt->i == 1;
    }
    case PY_ATTRIBUTE:
    case PY_UNARYOP:
        return lazy_ok(c, nc, n->a, depth + 1);
    case PY_BINOP:
    case PY_SUBSCRIPT:
        return n->op != PY_OP_MATMUL && lazy_ok(c, nc, n->a, depth + 1) && lazy_ok(c, nc, n->b, depth + 1);
    case PY_TUPLE:
    case PY_LIST:
        for (int i = 0; i < n->list1.count; i++)
            if (!n->list1.items[i] || n->list1.items[i]->kind == PY_STARRED || !lazy_ok(c, nc, n->list1.items[i], depth + 1))
                return false;
        return true;
    default:
        return false;
    }
}

static void bind_module_in(pc_py_ctx *c, const name_counts *nc, const pc_py_list *body)
{
    for (int i = 0; i < body->count; i++) {
        const pc_py_node *s = body->items[i];
        if (!s)
            continue;
        switch (s->kind) {
        case PY_IMPORT:
        case PY_IMPORTFROM:
            pc_py_bind_import(c, s);
            break;
        case PY_ASSIGN: {
            if (nc && s->list1.count == 1 && s->list1.items[0] && s->list1.items[0]->kind == PY_NAME &&
                lazy_ok(c, nc, s->a, 0)) {
                /* evaluated where a kernel reads it (pc_py_lookup_forced), never when none
                 * does: `S59 = S58 + S58` costs nothing until then */
                pc_py_val lazy = pc_py_mkval(PV_LAZY);
                lazy.node = s;
                lazy.frame = c->frame;
                pc_py_bind(c, c->frame, s->list1.items[0]->name, lazy);
                break;
            }
            c->stmt_line = s->line;
            pc_py_val v = pc_py_eval(c, s->a);
            for (int t = 0; t < s->list1.count; t++)
                pc_py_assign(c, s->list1.items[t], v, s->a);
            break;
        }
        case PY_ANNASSIGN:
            if (s->c)
                pc_py_assign(c, s->a, pc_py_eval(c, s->c), s->c);
            break;
        case PY_AUGASSIGN:
            if (s->a && s->a->kind == PY_NAME) {
                pc_py_node bin = pc_py_augassign_binop(s);
                pc_py_assign(c, s->a, pc_py_eval(c, &bin), NULL);
            }
            break;
        case PY_FUNCDEF:
            pc_py_bind_def(c, s);
            break;
        case PY_IF: {
            pc_py_val t = pc_py_eval(c, s->a);
            int truth = pc_py_truth(c, &t);
            if (truth != 0)
                bind_module_in(c, nc, &s->list1);
            if (truth != 1)
                bind_module_in(c, nc, &s->list2);
            break;
        }
        case PY_TRY: /* `try: import pypto / except ImportError: pypto = None`: the body is what counts */
            bind_module_in(c, nc, &s->list1);
            break;
        case PY_WITH:
            bind_module_in(c, nc, &s->list2);
            break;
        default:
            break;
        }
    }
}

static void bind_module(pc_py_ctx *c, const pc_py_list *body)
{
    /* laziness only where the frame is a module's own (no parent whose names could change) */
    name_counts nc = {pc_py_frame_new(c, NULL)};
    count_bindings(c, &nc, body);
    bind_module_in(c, c->frame->parent ? NULL : &nc, body);
}

void pc_py_bind_module(pc_py_ctx *c, const pc_py_list *body) { bind_module(c, body); }

/* ---- kernels ---------------------------------------------------------------------------------- */

static size_t src_offset(pc_py_source *src, uint32_t line, uint32_t col)
{
    if (line < 1 || line > src->nlines)
        return src->len;
    size_t off = src->line_start[line] + (col ? col - 1 : 0);
    return off > src->len ? src->len : off;
}

/* The `def name` extent of a function definition (model.md 12: a kernel's line is its def line). */
static pc_loc def_loc(pc_py_ctx *c, const pc_py_node *def)
{
    pc_py_source *src = c->src;
    size_t p = src_offset(src, def->line, def->col);
    size_t end = def->line < src->nlines ? src->line_start[def->line + 1] : src->len;
    const char *t = src->text;
    uint32_t ecol = def->col + 3;
    if (p + 5 <= end && memcmp(t + p, "async", 5) == 0) {
        p += 5;
        while (p < end && (t[p] == ' ' || t[p] == '\t'))
            p++;
    }
    if (p + 3 <= end && memcmp(t + p, "def", 3) == 0) {
        p += 3;
        while (p < end && (t[p] == ' ' || t[p] == '\t'))
            p++;
        size_t n = def->name ? strlen(def->name) : 0;
        if (n && p + n <= end && memcmp(t + p, def->name, n) == 0)
            ecol = (uint32_t)(p + n - src->line_start[def->line] + 1);
    }
    return pc_model_loc(c->m, c->file, def->line, def->col, def->line, ecol);
}

/* The `@` of a decorator: where an options call would be inserted before the kernel. */
static pc_loc decorator_loc(pc_py_ctx *c, const pc_py_node *dec)
{
    pc_py_source *src = c->src;
    uint32_t col = dec->col;
    size_t ls = src->line_start[dec->line];
    size_t p = src_offset(src, dec->line, dec->col);
    while (p > ls) {
        p--;
        if (src->text[p] == '@') {
            col = (uint32_t)(p - ls + 1);
            break;
        }
        if (src->text[p] != ' ' && src->text[p] != '\t')
            break;
    }
    return pc_model_loc(c->m, c->file, dec->line, col, dec->line, col);
}

static const pc_py_node *decorator_callee(const pc_py_node *dec)
{
    return dec && dec->kind == PY_CALL ? dec->a : dec;
}

static bool is_jit(pc_py_ctx *c, const pc_py_node *def)
{
    for (int i = 0; i < def->list3.count; i++) {
        const char *q = pc_py_qualname(c, decorator_callee(def->list3.items[i]));
        if (pc_py_is_api(q, "frontend.jit") || pc_py_is_api(q, "jit"))
            return true;
    }
    return false;
}

static bool is_helper(pc_py_ctx *c, const pc_py_node *def)
{
    for (int i = 0; i < def->list3.count; i++) {
        const char *q = pc_py_qualname(c, decorator_callee(def->list3.items[i]));
        if (pc_py_is_api(q, "frontend.function"))
            return true;
    }
    return false;
}

/* Before a kernel's constants are taken: the module constants whose names a symbol of the kernel
 * may carry are evaluated (the others wait until the walk reaches them).  Those are names
 * an inner scope binds again (a host function's or the kernel's parameter: its symbol is bound by
 * the constant) and names the user binds (--bind knows them). */
static void force_visible(pc_py_ctx *c, pc_py_frame *host, const pc_py_node *def)
{
    for (pc_py_frame *f = host; f && f->parent; f = f->parent)
        for (int i = 0; i < f->count; i++)
            (void)pc_py_lookup_forced(c, f->parent, f->items[i].name);
    if (def)
        for (int i = 0; i < def->list1.count; i++)
            if (def->list1.items[i] && def->list1.items[i]->name)
                (void)pc_py_lookup_forced(c, host, def->list1.items[i]->name);
    const pc_parse_opts *o = c->popts;
    for (size_t s = 0; o && s < o->nbindings; s++)
        for (size_t i = 0; i < o->bindings[s].count; i++)
            if (o->bindings[s].items[i].name)
                (void)pc_py_lookup_forced(c, host, o->bindings[s].items[i].name);
}

/* Constants the kernel can see: the module's integers and those of the host scopes around it
 * (those evaluated so far).  One the walk evaluates later needs no entry: the walk reads its value,
 * and a symbol of its name comes only from a binding that hides it, which force_visible saw. */
static void add_constants(pc_py_ctx *c, pc_py_frame *scope)
{
    if (!scope)
        return;
    add_constants(c, scope->parent); /* outer first, so inner bindings win */
    for (int i = 0; i < scope->count; i++) {
        const pc_py_val *v = &scope->items[i].val;
        int64_t x;
        if (v->kind == PV_INT && pc_expr_is_int(v->e, &x))
            pc_kernel_add_constant(c->m, pc_py_kernel(c), scope->items[i].name, x);
    }
}


/* Whether every binding set the user gave names `name` (then nothing falls back to a default). */
static bool bound_in_every_set(const pc_py_ctx *c, const char *name)
{
    const pc_parse_opts *o = c->popts;
    if (!o || !o->nbindings)
        return false;
    for (size_t s = 0; s < o->nbindings; s++) {
        bool found = false;
        for (size_t i = 0; i < o->bindings[s].count && !found; i++)
            found = o->bindings[s].items[i].name && strcmp(o->bindings[s].items[i].name, name) == 0;
        if (!found)
            return false;
    }
    return true;
}

/* A scalar parameter with a constant default (`iters: int = 20`): the caller that omits it runs
 * with that value, so the kernel's constants carry it, below any binding the user gives (the
 * analysis reads bindings first).  The note says so, since a call that passes another value gets
 * other depths.  Python evaluates a default where the function is defined: in the host scope. */
static void default_as_binding(pc_py_ctx *c, pc_py_frame *host, const pc_py_node *param)
{
    if (!param->b)
        return;
    pc_py_frame *kf = c->frame;
    int saved = c->kernel;
    c->frame = host;
    c->kernel = -1;
    pc_py_val v = pc_py_eval(c, param->b);
    c->kernel = saved;
    c->frame = kf;
    int64_t x;
    if (!pc_py_const_int(&v, &x))
        return;
    pc_kernel_add_constant(c->m, pc_py_kernel(c), param->name, x);
    if (!bound_in_every_set(c, param->name))
        pc_py_note_check(c, "PC019", param,
                     "parameter '%s' is taken as its default value %lld (a call that passes another gets other "
                     "depths: --bind %s=VALUE)",
                     param->name, (long long)x, param->name);
}
/* pypto.Tensor([dims], dtype, ...) / pypto.Tensor[[dims], dtype] / pypto.Tensor / pypto.Tensor():
 * a tensor parameter (model.md 2, "Parameter shapes").  A DYNAMIC (or non-constant) dim d of
 * parameter x is the symbol `x.shape[d]`.  `[d0, ...]` and `[]` (and no shape at all) leave the
 * rank open: *open_prefix is then the number of dims written before the `...` (the others come
 * from the argument, and the kernel's use of x.shape reveals how many there are); else -1. */
static bool tensor_param(pc_py_ctx *c, const char *name, const pc_py_node *ann, pc_dtype *dt,
                         const pc_expr ***shape, int *ndims, int *open_prefix)
{
    *dt = PC_DT_UNKNOWN;
    *shape = NULL;
    *ndims = -1;
    *open_prefix = -1;
    if (!ann)
        return false;
    const pc_py_node *shape_node = NULL, *dtype_node = NULL;
    if (ann->kind == PY_CALL) {
        const char *q = pc_py_qualname(c, ann->a);
        if (!pc_py_is_api(q, "Tensor") && !pc_py_is_api(q, "tensor"))
            return false;
        shape_node = pc_py_kwarg(ann, "shape");
        if (!shape_node)
            shape_node = pc_py_posarg(ann, 0);
        dtype_node = pc_py_kwarg(ann, "dtype");
        if (!dtype_node)
            dtype_node = pc_py_posarg(ann, 1);
    } else if (ann->kind == PY_SUBSCRIPT) {
        const char *q = pc_py_qualname(c, ann->a);
        if (!pc_py_is_api(q, "Tensor") && !pc_py_is_api(q, "tensor"))
            return false;
        const pc_py_node *key = ann->b;
        if (key && key->kind == PY_TUPLE && key->list1.count >= 1) {
            shape_node = key->list1.items[0];
            dtype_node = key->list1.count >= 2 ? key->list1.items[1] : NULL;
        } else {
            shape_node = key;
        }
    } else {
        const char *q = pc_py_qualname(c, ann);
        if (pc_py_is_api(q, "Tensor") || pc_py_is_api(q, "tensor")) {
            *open_prefix = 0;
            return true;
        }
        return false;
    }
    if (dtype_node) {
        pc_py_val v = pc_py_eval(c, dtype_node);
        if (v.kind == PV_DTYPE)
            *dt = v.dtype;
    }
    if (!shape_node || shape_node->kind == PY_NONE) {
        *open_prefix = 0;
        return true;
    }
    pc_arena *ar = pc_model_arena(c->m);
    if (shape_node->kind == PY_LIST || shape_node->kind == PY_TUPLE) {
        /* a literal: `...` ends the dims the annotation fixes */
        int n = shape_node->list1.count;
        for (int d = 0; d < shape_node->list1.count; d++)
            if (shape_node->list1.items[d] && shape_node->list1.items[d]->kind == PY_ELLIPSIS) {
                n = d;
                *open_prefix = d;
                break;
            }
        if (shape_node->list1.count == 0)
            *open_prefix = 0;
        const pc_expr **s = pc_arena_alloc(ar, (size_t)(n + 1) * sizeof *s);
        for (int d = 0; d < n; d++) {
            const pc_py_node *dn = shape_node->list1.items[d];
            pc_py_val dv = dn && dn->kind != PY_STARRED ? pc_py_eval(c, dn) : pc_py_unknown();
            const pc_expr *e = pc_py_as_expr(&dv);
            if (dv.kind == PV_INT && e)
                s[d] = e;
            else /* pypto.DYNAMIC / DYN / STATIC, or a dim poolcheck cannot evaluate */
                s[d] = pc_expr_sym(ar, pc_arena_printf(c->scratch, "%s.shape[%d]", name, d));
        }
        *shape = s; /* with an open rank: the prefix, kept for when the rank is known */
        *ndims = n;
        return true;
    }
    pc_py_val sv = pc_py_eval(c, shape_node);
    if (sv.kind != PV_SEQ) {
        *open_prefix = 0; /* a shape poolcheck cannot read: the use decides the rank */
        return true;
    }
    const pc_expr **s = pc_arena_alloc(ar, (size_t)(sv.nitems + 1) * sizeof *s);
    for (int d = 0; d < sv.nitems; d++) {
        const pc_expr *e = pc_py_as_expr(&sv.items[d]);
        if (sv.items[d].kind == PV_INT && e)
            s[d] = e;
        else
            s[d] = pc_expr_sym(ar, pc_arena_printf(c->scratch, "%s.shape[%d]", name, d));
    }
    *shape = s;
    *ndims = sv.nitems;
    return true;
}

/* Kernel-level state is reset for every kernel; the module-level state is kept. */
static void begin_kernel(pc_py_ctx *c, int kid, pc_py_frame *host)
{
    c->kernel = kid;
    c->block.loop = -1;
    c->block.stmt = -1;
    c->block.branch = -1;
    c->loop = -1;
    c->frame = pc_py_frame_new(c, host);
    c->returned = false;
    c->return_val = NULL;
    c->inline_depth = 0;
    c->nfor_unrolled = 0;
    c->nacc = c->ndefined = 0;
    c->nopen = 0;
    c->inline_total = 0;
    c->inline_capped = false;
    c->data_reads = c->data_locals = NULL;
    c->ndlocals = 0;
    c->kernels_built++;
}

static void end_kernel(pc_py_ctx *c, pc_py_frame *host)
{
    pc_py_data_local_notes(c);
    c->kernel = -1;
    c->frame = host;
    c->returned = false;
}

/* Enclosing `with pypto.options(runtime_options=...)` blocks of host code. */
typedef struct optscope { const pc_py_node *call; struct optscope *outer; } optscope;

static void scope_options(pc_py_ctx *c, const optscope *sc, int kid)
{
    for (; sc; sc = sc->outer) {
        const pc_py_node *ro = pc_py_kwarg(sc->call, "runtime_options");
        if (ro)
            pc_py_add_option_dict(c, ro, PC_SITE_OPTIONS_SCOPE, kid, false);
    }
}

/* A kernel's start, jit or `with pypto.function`: the options of the scopes around it, the host
 * names its body reads (def: the jit function, NULL for a with block), fresh kernel state and the
 * host's constants. */
static void open_kernel(pc_py_ctx *c, int kid, pc_py_frame *host, const optscope *sc, const pc_py_node *def)
{
    scope_options(c, sc, kid);
    force_visible(c, host, def);
    begin_kernel(c, kid, host);
    add_constants(c, host);
}

static void build_jit_kernel(pc_py_ctx *c, const pc_py_node *def, pc_py_frame *host, const optscope *sc,
                             bool method)
{
    int kid = pc_model_add_kernel(c->m, def->name, def_loc(c, def));
    pc_kernel *k = &c->m->kernels[kid];
    if (def->list3.count)
        k->insert_loc = decorator_loc(c, def->list3.items[0]);
    const pc_py_node *saved_owner = c->owner;
    c->owner = NULL;
    /* jit(runtime_options=...) and options(runtime_options=...) decorators belong to this kernel */
    for (int i = 0; i < def->list3.count; i++) {
        const pc_py_node *dec = def->list3.items[i];
        if (!dec || dec->kind != PY_CALL)
            continue;
        const char *q = pc_py_qualname(c, dec->a);
        const pc_py_node *ro = pc_py_kwarg(dec, "runtime_options");
        if (!ro)
            continue;
        if (pc_py_is_api(q, "frontend.jit") || pc_py_is_api(q, "jit"))
            pc_py_add_option_dict(c, ro, PC_SITE_JIT, kid, false);
        else if (pc_py_is_api(q, "options"))
            pc_py_add_option_dict(c, ro, PC_SITE_OPTIONS_SCOPE, kid, false);
    }
    open_kernel(c, kid, host, sc, def);
    /* Parameters: annotations are evaluated where the function is defined (the host scope). */
    for (int i = 0; i < def->list1.count; i++) {
        const pc_py_node *p = def->list1.items[i];
        if (!p || !p->name)
            continue;
        if (method && i == 0 && p->ivalue == 0)
            continue; /* self / cls */
        pc_dtype dt;
        const pc_expr **shape;
        int ndims;
        pc_py_frame *kf = c->frame;
        c->frame = host;
        int saved = c->kernel;
        c->kernel = -1;
        int open_prefix = -1;
        bool is_tensor =
            p->ivalue != 1 && p->ivalue != 3 && tensor_param(c, p->name, p->a, &dt, &shape, &ndims, &open_prefix);
        c->kernel = saved;
        c->frame = kf;
        if (is_tensor) {
            pc_loc loc = pc_model_loc(c->m, c->file, p->line, p->col, p->line, p->col + (uint32_t)strlen(p->name));
            int id = pc_kernel_add_tensor(c->m, pc_py_kernel(c), p->name, PC_TENSOR_PARAM, loc);
            pc_tensor *t = &pc_py_kernel(c)->tensors[id];
            t->dtype = dt;
            t->shape = open_prefix >= 0 ? NULL : shape;
            t->ndims = open_prefix >= 0 || !shape ? -1 : ndims;
            if (open_prefix >= 0) {
                c->open = pc_py_room_for_one(c, c->open, c->nopen, &c->capopen, 8, sizeof *c->open);
                struct pc_py_open_param *op = &c->open[c->nopen++];
                op->tensor = id;
                op->name = pc_arena_strdup(c->scratch, p->name);
                op->nprefix = open_prefix;
                op->prefix = shape;
            }
            pc_py_val v = pc_py_unknown();
            v.kind = PV_TENSOR;
            v.tensor = id;
            pc_py_bind(c, c->frame, p->name, v);
        } else {
            /* int/float/bool parameters are compile-time values the caller passes: symbols */
            pc_py_val v = pc_py_unknown();
            v.kind = PV_INT;
            v.e = pc_expr_sym(pc_model_arena(c->m), p->name);
            pc_py_bind(c, c->frame, p->name, v);
            default_as_binding(c, host, p);
        }
    }
    pc_py_walk_body(c, &def->list2);
    end_kernel(c, host);
    c->owner = saved_owner;
}

/* with pypto.function("name", *io): the I/O tensors, made before the with, are the parameters. */
static void build_legacy_kernel(pc_py_ctx *c, const pc_py_node *with, const pc_py_node *call, pc_py_frame *host,
                                const optscope *sc)
{
    const pc_py_node *name_node = pc_py_posarg(call, 0);
    if (!name_node)
        name_node = pc_py_kwarg(call, "name");
    const char *name = pc_py_eval_str(c, name_node);
    if (!name)
        name = pc_arena_printf(c->scratch, "function_%u", with->line);
    pc_loc loc = pc_model_loc(c->m, c->file, with->line, with->col, call->end_line, call->end_col);
    int kid = pc_model_add_kernel(c->m, name, loc);
    c->m->kernels[kid].insert_loc = pc_model_loc(c->m, c->file, with->line, with->col, with->line, with->col);
    const pc_py_node *saved_owner = c->owner;
    c->owner = NULL;
    open_kernel(c, kid, host, sc, NULL);
    /* I/O tensors in the order given; any other host tensor becomes a parameter when first used. */
    for (int i = 1; i < call->list1.count; i++) {
        const pc_py_node *a = call->list1.items[i];
        if (!a)
            continue;
        if (a->kind == PY_STARRED) {
            if (a->a && a->a->kind == PY_NAME) {
                /* *io: a host list of tensors; its elements have no names of their own */
                pc_py_val *seq = pc_py_lookup_forced(c, host, a->a->name);
                if (seq && seq->kind == PV_SEQ && seq->node)
                    for (int j = 0; j < seq->node->list1.count; j++)
                        if (seq->node->list1.items[j] && seq->node->list1.items[j]->kind == PY_NAME)
                            (void)pc_py_eval(c, seq->node->list1.items[j]);
            }
            continue;
        }
        if (a->kind == PY_NAME)
            (void)pc_py_eval(c, a); /* turns the host tensor into a parameter */
    }
    pc_py_walk_body(c, &with->list2);
    end_kernel(c, host);
    c->owner = saved_owner;
}

/* ---- pass 2: kernels and host code --------------------------------------------------------- */

static void host_walk(pc_py_ctx *c, const pc_py_list *body, bool module_level, const optscope *sc,
                      bool in_class);

static void host_funcdef(pc_py_ctx *c, const pc_py_node *s, bool module_level, const optscope *sc, bool in_class)
{
    pc_py_frame *host = c->frame;
    if (!module_level)
        pc_py_bind_def(c, s);
    if (is_jit(c, s)) {
        build_jit_kernel(c, s, host, sc, in_class);
        return;
    }
    /* @pypto.options(runtime_options=...) on a function that is not a kernel: a module-level scope */
    for (int i = 0; i < s->list3.count; i++) {
        const pc_py_node *dec = s->list3.items[i];
        if (dec && dec->kind == PY_CALL && pc_py_is_api(pc_py_qualname(c, dec->a), "options")) {
            const pc_py_node *ro = pc_py_kwarg(dec, "runtime_options");
            if (ro)
                pc_py_add_option_dict(c, ro, PC_SITE_OPTIONS_SCOPE, -1, false);
        }
    }
    if (is_helper(c, s))
        return; /* @pypto.frontend.function: only meaningful where a kernel inlines it */
    /* Host code: scanned for legacy kernels, option calls, nested definitions. */
    pc_py_frame *saved = c->frame;
    const pc_py_node *saved_owner = c->owner;
    c->frame = pc_py_frame_new(c, host);
    c->owner = s;
    /* a host function's parameters are values its caller passes: symbols the user can bind */
    for (int i = 0; i < s->list1.count; i++)
        if (s->list1.items[i] && s->list1.items[i]->name) {
            pc_py_val v = pc_py_unknown();
            if (s->list1.items[i]->ivalue == 0 || s->list1.items[i]->ivalue == 2) {
                v.kind = PV_INT;
                v.e = pc_expr_sym(pc_model_arena(c->m), s->list1.items[i]->name);
            }
            pc_py_bind(c, c->frame, s->list1.items[i]->name, v);
        }
    host_walk(c, &s->list2, false, sc, false);
    c->frame = saved;
    c->owner = saved_owner;
}

static void host_walk(pc_py_ctx *c, const pc_py_list *body, bool module_level, const optscope *sc, bool in_class)
{
    for (int i = 0; i < body->count; i++) {
        const pc_py_node *s = body->items[i];
        if (!s)
            continue;
        c->stmt_line = s->line;
        c->stmt_col = s->col;
        c->stmt_end_line = s->end_line;
        c->stmt_end_col = s->end_col;
        switch (s->kind) {
        case PY_FUNCDEF:
            host_funcdef(c, s, module_level, sc, in_class);
            break;
        case PY_CLASSDEF: {
            pc_py_frame *saved = c->frame;
            c->frame = pc_py_frame_new(c, saved);
            host_walk(c, &s->list2, false, sc, true);
            c->frame = saved;
            break;
        }
        case PY_IMPORT:
        case PY_IMPORTFROM:
            if (!module_level)
                pc_py_bind_import(c, s);
            break;
        case PY_ASSIGN:
        case PY_ANNASSIGN:
        case PY_AUGASSIGN: {
            const pc_py_node *value = s->kind == PY_ASSIGN ? s->a : s->kind == PY_ANNASSIGN ? s->c : s->b;
            if (value && value->kind == PY_CALL)
                (void)pc_py_option_call(c, value, -1, false);
            if (module_level || !value)
                break; /* module bindings were made in pass 1 */
            pc_py_val v = pc_py_eval(c, value);
            if (s->kind == PY_ASSIGN)
                for (int t = 0; t < s->list1.count; t++)
                    pc_py_assign(c, s->list1.items[t], v, value);
            else if (s->kind == PY_ANNASSIGN)
                pc_py_assign(c, s->a, v, value);
            else if (s->a && s->a->kind == PY_NAME)
                pc_py_assign(c, s->a, pc_py_unknown(), NULL);
            break;
        }
        case PY_EXPR_STMT:
            if (s->a && s->a->kind == PY_CALL)
                (void)pc_py_option_call(c, s->a, -1, false);
            break;
        case PY_WITH: {
            const pc_py_node *legacy = NULL;
            optscope *inner = (optscope *)sc;
            int before = c->kernels_built;
            const pc_py_node *opts_call = NULL;
            for (int j = 0; j < s->list1.count; j++) {
                const pc_py_node *item = s->list1.items[j];
                if (!item || !item->a || item->a->kind != PY_CALL)
                    continue;
                const char *q = pc_py_qualname(c, item->a->a);
                if (pc_py_is_api(q, "function"))
                    legacy = item->a;
                else if (pc_py_is_api(q, "options")) {
                    optscope *o = pc_arena_alloc(c->scratch, sizeof *o);
                    o->call = item->a;
                    o->outer = inner;
                    inner = o;
                    opts_call = item->a;
                } else if (pc_py_is_api(q, "set_options")) {
                    (void)pc_py_option_call(c, item->a, -1, false);
                }
            }
            if (legacy)
                build_legacy_kernel(c, s, legacy, c->frame, inner);
            else
                host_walk(c, &s->list2, module_level, inner, in_class);
            /* an options block that wraps no kernel definition still sets options (kernel -1) */
            if (opts_call && c->kernels_built == before) {
                const pc_py_node *ro = pc_py_kwarg(opts_call, "runtime_options");
                if (ro)
                    pc_py_add_option_dict(c, ro, PC_SITE_OPTIONS_SCOPE, -1, false);
            }
            break;
        }
        case PY_IF: {
            int t = -1;
            if (!module_level) {
                pc_py_val v = pc_py_eval(c, s->a);
                t = pc_py_truth(c, &v);
            }
            if (t != 0)
                host_walk(c, &s->list1, module_level, sc, in_class);
            if (t != 1)
                host_walk(c, &s->list2, module_level, sc, in_class);
            break;
        }
        case PY_FOR:
        case PY_WHILE:
            host_walk(c, &s->list1, module_level, sc, in_class);
            host_walk(c, &s->list2, module_level, sc, in_class);
            break;
        case PY_TRY:
            host_walk(c, &s->list1, module_level, sc, in_class);
            host_walk(c, &s->list2, module_level, sc, in_class);
            break;
        default:
            break;
        }
    }
}

/* ---- options into the model ------------------------------------------------------------------- */

static int cmp_opt(const void *a, const void *b)
{
    const pc_py_optrec *x = a, *y = b;
    if (x->loc.line != y->loc.line)
        return x->loc.line < y->loc.line ? -1 : 1;
    if (x->loc.col != y->loc.col)
        return x->loc.col < y->loc.col ? -1 : 1;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    return 0;
}

static bool was_inlined(const pc_py_ctx *c, const pc_py_node *def)
{
    for (int i = 0; i < c->ninlined; i++)
        if (c->inlined[i] == def)
            return true;
    return false;
}

static void emit_options(pc_py_ctx *c)
{
    /* Stable order: the index breaks ties so sorting is deterministic. */
    for (int i = 1; i < c->nopts; i++) {
        pc_py_optrec r = c->opts[i];
        int j = i - 1;
        while (j >= 0 && cmp_opt(&c->opts[j], &r) > 0) {
            c->opts[j + 1] = c->opts[j];
            j--;
        }
        c->opts[j + 1] = r;
    }
    for (int i = 0; i < c->nopts; i++) {
        const pc_py_optrec *r = &c->opts[i];
        /* a call in a helper that some kernel inlines runs inside that kernel: it was recorded there */
        if (r->owner && was_inlined(c, r->owner))
            continue;
        bool dup = false;
        for (int j = 0; j < i && !dup; j++) {
            const pc_py_optrec *o = &c->opts[j];
            dup = o->loc.line == r->loc.line && o->loc.col == r->loc.col && o->kernel == r->kernel &&
                  o->site == r->site && strcmp(o->key, r->key) == 0 && !(o->owner && was_inlined(c, o->owner));
        }
        if (dup)
            continue;
        int id = pc_model_add_option(c->m, r->key, r->site, r->loc);
        pc_option *o = &c->m->options[id];
        o->value = r->value;
        o->kernel = r->kernel;
        o->in_kernel = r->in_kernel;
    }
}

/* ---- entry ---------------------------------------------------------------------------------- */

pc_model *pc_py_parse(const char *path, const char *text, size_t len, const pc_parse_opts *opts)
{
    if (!path)
        path = "<input>";
    pc_model *m = pc_model_new(path, PC_LANG_PYTHON);
    char *owned = NULL;
    if (!text) {
        char *err = NULL;
        owned = pc_read_file(path, &len, &err);
        if (!owned) {
            pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0),
                                 err ? err : "cannot read the file");
            pc_mem_free(err);
            return m;
        }
        text = owned;
    }
    pc_py_source src;
    memset(&src, 0, sizeof src);
    src.arena = pc_arena_new();
    src.text = text;
    src.len = len;
    if (pc_py_parse_source(m, path, &src)) {
        pc_py_ctx c;
        memset(&c, 0, sizeof c);
        c.m = m;
        c.scratch = src.arena;
        c.src = &src;
        c.kernel = -1;
        c.loop = -1;
        c.block.loop = c.block.stmt = c.block.branch = -1;
        c.file = m->file;
        c.popts = opts;
        c.main_src = &src;
        {
            const char *slash = strrchr(path, '/');
            c.kernel_dir = !slash ? "." : slash == path ? "/" : pc_arena_strndup(src.arena, path, (size_t)(slash - path));
        }
        c.module_frame = pc_py_frame_new(&c, NULL);
        c.frame = c.module_frame;
        bind_module(&c, &src.module->list1);
        host_walk(&c, &src.module->list1, true, NULL, false);
        emit_options(&c);
    }
    pc_arena_free(src.arena);
    pc_mem_free(owned);
    return m;
}
