/*
 * py_stmt.c - kernel statements into the model: assignments and writes, pypto loops, compile-time
 * `for` loops, branches, helper inlining.
 *
 * The walk follows the trace upstream's jit parser makes of a kernel body: Python control flow on
 * compile-time values is executed (a `for` over a constant range is unrolled, an `if` on a constant
 * takes one branch), pypto control flow (pypto.loop, pypto.loop_unroll, pypto.cond, `if` on a
 * loop value) becomes model loops and branches.
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <stdint.h>
#include <string.h>

enum {
    MAX_INLINE_DEPTH = 32,
    MAX_INLINE_TOTAL = 20000     /* helper bodies inlined per kernel */
};

/* A test evaluated once: its trace-time truth (1, 0, -1 unknown), the condition as a model
 * expression over constants, symbols, loop indices and loop predicates (NULL when it depends on
 * tensor data or on something poolcheck cannot follow), and whether it is a device-side path
 * whatever its value (pypto.cond, is_loop_begin / is_loop_end: model.md 3, "Paths"). */
typedef struct testres {
    int truth;
    const pc_expr *cond;
    bool path;
} testres;

static bool tensorish(const pc_py_val *v)
{
    return v->kind == PV_TENSOR || v->kind == PV_PENDING || v->kind == PV_VIEW || v->kind == PV_CREATE;
}

static pc_py_val sym(pc_py_ctx *c, const char *name)
{
    pc_py_val v = pc_py_unknown();
    v.kind = PV_INT;
    v.e = pc_expr_sym(pc_model_arena(c->m), name);
    return v;
}

/* ---- writes --------------------------------------------------------------------------------- */

/* The value on the right of a write is stored in the destination (model.md 4): an op result gets
 * no tensor of its own, its operands were already read with its unit.  Returns the unit that
 * produces the stored data. */
static pc_unit store_value(pc_py_ctx *c, pc_py_val *v, const pc_py_node *at)
{
    switch (v->kind) {
    case PV_PENDING:
    case PV_CREATE:
        return v->unit;
    case PV_TENSOR:
    case PV_VIEW:
        pc_py_access(c, v->tensor, PC_ACC_READ, PC_UNIT_NONE, at);
        if (v->kind == PV_TENSOR && v->alt)
            for (int i = 0; i < v->nitems; i++)
                pc_py_access(c, v->items[i].tensor, PC_ACC_READ, PC_UNIT_NONE, at);
        return PC_UNIT_NONE;
    case PV_SEQ:
        for (int i = 0; i < v->nitems; i++)
            if (tensorish(&v->items[i]))
                (void)store_value(c, &v->items[i], at);
        return PC_UNIT_NONE;
    default:
        return PC_UNIT_NONE;
    }
}

/* Is this subscript key "empty" (`:`, `:, :`, `...`): Tensor.__setitem__ lowers it to a move. */
static bool key_is_empty(const pc_py_node *key)
{
    if (!key)
        return false;
    if (key->kind == PY_SLICE)
        return !key->a && !key->b && !key->c;
    if (key->kind == PY_ELLIPSIS)
        return true;
    if (key->kind != PY_TUPLE || key->list1.count == 0)
        return false;
    for (int i = 0; i < key->list1.count; i++)
        if (!key_is_empty(key->list1.items[i]) || key->list1.items[i]->kind == PY_TUPLE)
            return false;
    return true;
}

/* Count the key's elements and whether each is an integer index (not a slice, not a tensor). */
static bool key_all_int(pc_py_ctx *c, const pc_py_node *key, int *count)
{
    const pc_py_node *one;
    const pc_py_node *const *elems;
    int n = pc_py_key_elems(key, &one, &elems);
    *count = n;
    bool all = n > 0;
    for (int i = 0; i < n; i++) {
        const pc_py_node *e = elems[i];
        if (!e || e->kind == PY_SLICE || e->kind == PY_ELLIPSIS || e->kind == PY_NONE || e->kind == PY_STARRED) {
            all = false;
            continue;
        }
        pc_py_val v = pc_py_eval(c, e);
        if (v.kind != PV_INT && v.kind != PV_BOOL)
            all = false;
    }
    return all;
}

static void write_subscript(pc_py_ctx *c, const pc_py_node *target, pc_py_val *v, const pc_py_node *value_node)
{
    pc_py_val dst = pc_py_eval(c, target->a);
    if (dst.kind == PV_PENDING || dst.kind == PV_CREATE)
        pc_py_materialise(c, &dst, NULL, target->a);
    if (dst.kind != PV_TENSOR && dst.kind != PV_VIEW) {
        /* a store into a list or dict: only the reads of the value matter */
        if (tensorish(v))
            (void)store_value(c, v, value_node);
        return;
    }
    int ndims = -1;
    if (c->kernel >= 0 && dst.tensor >= 0) {
        const pc_tensor *t = &pc_py_kernel(c)->tensors[dst.tensor];
        ndims = t->shape ? t->ndims : -1;
    }
    if (dst.kind == PV_VIEW)
        ndims = dst.shape ? dst.ndims : -1;
    pc_access_kind kind;
    int nkeys = 0;
    if (key_is_empty(target->b) && dst.kind == PV_TENSOR) {
        kind = PC_ACC_WRITE_WHOLE;          /* t[:] = e: Tensor.move */
    } else if (key_all_int(c, target->b, &nkeys) && !tensorish(v) && (ndims < 0 || nkeys == ndims)) {
        kind = PC_ACC_WRITE_ELEMENT;        /* t[i, j] = scalar: SetTensorData */
    } else {
        kind = PC_ACC_WRITE_ASSEMBLE;       /* any bound or index: pypto.assemble */
    }
    pc_unit unit = store_value(c, v, value_node);
    pc_py_access(c, dst.tensor, kind, unit, target);
    if (dst.kind == PV_TENSOR && dst.alt) /* written whichever alternative it is */
        for (int i = 0; i < dst.nitems; i++)
            pc_py_access(c, dst.items[i].tensor, kind, unit, target);
}

/* ---- locals read from tensor data ------------------------------------------------------------ */

void pc_py_note_data_read(pc_py_ctx *c, const char *name)
{
    if (!name || c->kernel < 0)
        return;
    if (!c->data_reads)
        c->data_reads = pc_py_frame_new(c, NULL);
    if (!pc_py_lookup_local(c->data_reads, name))
        pc_py_bind(c, c->data_reads, name, pc_py_mkval(PV_NONE));
}

/* Does e use a scalar read from tensor data?  Iterative: an integer expression may have thousands
 * of terms. */
static bool reads_data(pc_py_ctx *c, const pc_expr *e)
{
    if (!e || !c->data_reads)
        return false;
    const pc_expr *stack0[64];
    const pc_expr **stack = stack0;
    int n = 0, cap = 64;
    stack[n++] = e;
    bool found = false;
    while (n > 0 && !found) {
        const pc_expr *x = stack[--n];
        if (!x)
            continue;
        if (x->kind == PC_EXPR_SYM) {
            found = x->name && pc_py_lookup_local(c->data_reads, x->name);
            continue;
        }
        if (n + 2 > cap) {
            const pc_expr **bigger = pc_arena_alloc(c->scratch, (size_t)cap * 2 * sizeof *bigger);
            memcpy(bigger, stack, (size_t)n * sizeof *bigger);
            stack = bigger;
            cap *= 2;
        }
        stack[n++] = x->a;
        stack[n++] = x->b;
    }
    return found;
}

/* May the local `name` be the symbol of its own name?  Not when an enclosing pypto loop's index or
 * unroll factor has that name: the analysis reads such a symbol as the loop's. */
static bool local_symbol_ok(pc_py_ctx *c, const char *name)
{
    const pc_kernel *k = pc_py_kernel(c);
    for (int l = c->loop; l >= 0 && l < k->nloops; l = k->loops[l].parent) {
        const pc_loop *lp = &k->loops[l];
        if ((lp->index_var && strcmp(lp->index_var, name) == 0) ||
            (lp->factor_var && strcmp(lp->factor_var, name) == 0))
            return false;
    }
    return true;
}

/* `n = seqlens[b + 1] - seqlens[b]`: the value depends on the data, so poolcheck cannot know it
 * (model.md 2); the local is the symbol `n`, which PC008 names and `--bind n=V` sets.  Each
 * assignment is recorded: one symbol standing for values that may differ (a pypto loop around it,
 * another assignment of the name) is said at the kernel's end. */
static pc_py_val data_local(pc_py_ctx *c, const pc_py_node *target, const pc_py_node *value_node)
{
    if (!c->data_locals)
        c->data_locals = pc_py_frame_new(c, NULL);
    pc_py_val *idx = pc_py_lookup_local(c->data_locals, target->name);
    if (!idx) {
        c->dlocals = pc_py_room_for_one(c, c->dlocals, c->ndlocals, &c->capdlocals, 8, sizeof *c->dlocals);
        struct pc_py_data_local *d = &c->dlocals[c->ndlocals];
        memset(d, 0, sizeof *d);
        d->name = pc_arena_strdup(c->scratch, target->name);
        d->at = target;
        d->file = c->file;
        d->src = c->src;
        d->value = value_node ? pc_py_source_text(c->src, value_node->line, value_node->col, value_node->end_line,
                                                  value_node->end_col)
                              : NULL;
        d->loop = c->loop >= 0 ? pc_py_kernel(c)->loops[c->loop].name : NULL;
        pc_py_val iv = pc_py_mkval(PV_INT);
        iv.i = c->ndlocals++;
        pc_py_bind(c, c->data_locals, d->name, iv);
        idx = pc_py_lookup_local(c->data_locals, target->name);
    }
    struct pc_py_data_local *d = &c->dlocals[idx->i];
    d->runs++;
    if (!d->loop && c->loop >= 0)
        d->loop = pc_py_kernel(c)->loops[c->loop].name;
    if (target != d->at) { /* another place (a node is one place of the source) */
        if (!d->line2)
            d->line2 = target->line;
        else if (d->line2 != target->line)
            d->more = true;
    }
    return sym(c, target->name);
}

/* The symbols a kernel's loop bounds and tensor shapes use, as a set. */
static void collect_syms(pc_py_ctx *c, pc_py_frame *set, const pc_expr *e)
{
    const char *names[64];
    size_t n = pc_expr_symbols(e, names, 0, 64);
    for (size_t i = 0; i < n; i++)
        if (c->data_locals && pc_py_lookup_local(c->data_locals, names[i]) && !pc_py_lookup_local(set, names[i]))
            pc_py_bind(c, set, names[i], pc_py_mkval(PV_NONE));
}

void pc_py_data_local_notes(pc_py_ctx *c)
{
    if (c->kernel < 0 || c->ndlocals == 0)
        return;
    const pc_kernel *k = pc_py_kernel(c);
    pc_py_frame *used = pc_py_frame_new(c, NULL);
    for (int i = 0; i < k->nloops; i++) {
        collect_syms(c, used, k->loops[i].begin);
        collect_syms(c, used, k->loops[i].end);
        collect_syms(c, used, k->loops[i].step);
    }
    for (int i = 0; i < k->ntensors; i++)
        for (int d = 0; k->tensors[i].shape && d < k->tensors[i].ndims; d++)
            collect_syms(c, used, k->tensors[i].shape[d]);
    pc_py_place back = pc_py_place_now(c);
    for (int i = 0; i < c->ndlocals; i++) {
        const struct pc_py_data_local *d = &c->dlocals[i];
        if (!pc_py_lookup_local(used, d->name) || (!d->loop && d->runs < 2 && !d->line2))
            continue;
        c->file = d->file;
        c->src = d->src;
        /* `'n = seqlens[b + 1] - seqlens[b]'`, or `'n'` when the value does not fit one short line */
        const char *what = d->value && strlen(d->value) <= 80 && !strchr(d->value, '\n')
                               ? pc_arena_printf(c->scratch, "'%s = %s'", d->name, d->value)
                               : pc_arena_printf(c->scratch, "'%s'", d->name);
        int64_t bound;
        bool bound_any = pc_py_user_binding(c, d->name, &bound, true);
        const char *bind = bound_any ? pc_arena_printf(c->scratch, "the binding of '%s' gives", d->name)
                                     : pc_arena_printf(c->scratch, "--bind %s=VALUE gives", d->name);
        if (d->line2)
            pc_py_note_check(c, "PC019", d->at,
                             "%s reads tensor data and '%s' is assigned again at line %u%s: poolcheck cannot "
                             "know these values, which may differ, and models all of them as one symbol '%s' "
                             "(%s each of them the same value)",
                             what, d->name, d->line2, d->more ? " and elsewhere" : "", d->name, bind);
        else if (d->loop)
            pc_py_note_check(c, "PC019", d->at,
                             "%s reads tensor data in every iteration of loop '%s', so its value may differ from "
                             "one iteration to the next: poolcheck models it as one symbol '%s' (%s every "
                             "iteration the same value)",
                             what, d->loop, d->name, bind);
        else
            pc_py_note_check(c, "PC019", d->at,
                             "%s reads tensor data each of the %lld times the trace runs it, so its value may "
                             "differ each time: poolcheck models it as one symbol '%s' (%s every one of them "
                             "the same value)",
                             what, (long long)d->runs, d->name, bind);
    }
    pc_py_place_set(c, &back);
}

void pc_py_assign(pc_py_ctx *c, const pc_py_node *target, pc_py_val v, const pc_py_node *value_node)
{
    if (!target)
        return;
    switch (target->kind) {
    case PY_NAME:
        if (v.kind == PV_UNKNOWN && value_node &&
            ((value_node->kind == PY_BINOP && value_node->op != PY_OP_MATMUL) ||
             (value_node->kind == PY_UNARYOP && value_node->op == PY_OP_USUB))) {
            /* `block_num = s2_tile // block_size` over values poolcheck cannot see: an integer
             * the user can bind by this name (model.md 2: a bound is a symbol like any other) */
            v = sym(c, target->name);
        } else if (c->kernel >= 0 && v.kind == PV_INT && reads_data(c, v.e) && local_symbol_ok(c, target->name)) {
            v = data_local(c, target, value_node);
        }
        if (c->kernel >= 0 && tensorish(&v) && v.kind != PV_TENSOR) {
            /* t = op(...): a new value (a new pc_tensor each time) */
            pc_py_materialise(c, &v, target->name, target);
        }
        pc_py_bind(c, c->frame, target->name, v);
        break;
    case PY_TUPLE:
    case PY_LIST: {
        int n = target->list1.count;
        bool starred = false;
        for (int i = 0; i < n; i++)
            starred |= target->list1.items[i] && target->list1.items[i]->kind == PY_STARRED;
        if (v.kind == PV_SHAPE && !v.shape && !starred && c->kernel >= 0 && v.tensor >= 0 &&
            pc_py_open_param(c, v.tensor)) {
            /* `b, s, n, d = x.shape` on a parameter of open rank: now it is 4 */
            pc_py_fix_rank(c, v.tensor, n);
            const pc_tensor *t = &pc_py_kernel(c)->tensors[v.tensor];
            v.shape = t->shape;
            v.ndims = t->shape ? t->ndims : -1;
        }
        if (v.kind == PV_SHAPE && v.shape && v.ndims == n && !starred) {
            for (int i = 0; i < n; i++) {
                pc_py_val d = pc_py_unknown();
                d.kind = PV_INT;
                d.e = v.shape[i];
                pc_py_assign(c, target->list1.items[i], d, NULL);
            }
        } else if (v.kind == PV_SEQ && v.nitems == n && !starred) {
            const pc_py_node *lit = value_node && (value_node->kind == PY_TUPLE || value_node->kind == PY_LIST) &&
                                            value_node->list1.count == n
                                        ? value_node
                                        : NULL;
            for (int i = 0; i < n; i++)
                pc_py_assign(c, target->list1.items[i], v.items[i], lit ? lit->list1.items[i] : NULL);
        } else {
            if (tensorish(&v))
                (void)store_value(c, &v, value_node);
            for (int i = 0; i < n; i++) {
                const pc_py_node *t = target->list1.items[i];
                if (t && t->kind == PY_STARRED)
                    t = t->a;
                /* unknown parts become symbols the user can bind */
                pc_py_assign(c, t, t && t->kind == PY_NAME ? sym(c, t->name) : pc_py_unknown(), NULL);
            }
        }
        break;
    }
    case PY_SUBSCRIPT:
        write_subscript(c, target, &v, value_node);
        break;
    case PY_STARRED:
        pc_py_assign(c, target->a, pc_py_unknown(), NULL);
        break;
    default:
        /* attribute stores (self.x = ...): nothing the pools see, but keep the value's reads */
        if (tensorish(&v))
            (void)store_value(c, &v, value_node);
        break;
    }
}

/* `return out0, out1` at kernel level: the jit frontend hands the returned tensors back as the
 * kernel's outputs, so they are output slots like the parameters (no workspace pool: upstream's
 * MarkOutcastSlotsFromEncodeList skips INPUT/OUTPUT slots). */
static void mark_outputs(pc_py_ctx *c, pc_py_val *v, const pc_py_node *at)
{
    if (v->kind == PV_SEQ) {
        const pc_py_node *lit = at && (at->kind == PY_TUPLE || at->kind == PY_LIST) && at->list1.count == v->nitems
                                    ? at
                                    : NULL;
        for (int i = 0; i < v->nitems; i++)
            mark_outputs(c, &v->items[i], lit ? lit->list1.items[i] : at);
        return;
    }
    if (v->kind == PV_PENDING || v->kind == PV_CREATE)
        pc_py_materialise(c, v, NULL, at);
    if (v->kind != PV_TENSOR || v->tensor < 0)
        return;
    pc_tensor *t = &pc_py_kernel(c)->tensors[v->tensor];
    if (t->kind == PC_TENSOR_CREATED || t->kind == PC_TENSOR_VALUE)
        t->kind = PC_TENSOR_PARAM;
}

/* ---- helper inlining ------------------------------------------------------------------------ */

pc_py_val pc_py_inline_call(pc_py_ctx *c, const pc_py_val *fn, const pc_py_node *call)
{
    const pc_py_node *def = fn->node;
    /* Arguments are evaluated in the caller, before anything else. */
    int npos = 0;
    pc_py_val *pos = pc_arena_alloc(c->scratch, (size_t)(call->list1.count + 1) * sizeof *pos);
    for (int i = 0; i < call->list1.count; i++) {
        const pc_py_node *a = call->list1.items[i];
        if (!a)
            continue;
        if (a->kind == PY_STARRED) {
            pc_py_val s = pc_py_eval(c, a->a);
            if (s.kind == PV_SEQ) {
                pos = pc_arena_grow(c->scratch, pos, (size_t)(call->list1.count + 1 + npos),
                                    (size_t)(call->list1.count + 1 + npos + s.nitems), sizeof *pos);
                for (int j = 0; j < s.nitems; j++)
                    pos[npos++] = s.items[j];
            }
            continue;
        }
        pos[npos] = pc_py_eval(c, a);
        /* a helper may use an argument several times: an op result passed in is one tensor */
        if (pos[npos].kind == PV_PENDING || pos[npos].kind == PV_CREATE)
            pc_py_materialise(c, &pos[npos], NULL, a);
        npos++;
    }
    pc_py_val *kw = pc_arena_alloc(c->scratch, (size_t)(call->list2.count + 1) * sizeof *kw);
    for (int i = 0; i < call->list2.count; i++) {
        const pc_py_node *k = call->list2.items[i];
        kw[i] = k && k->a ? pc_py_eval(c, k->a) : pc_py_unknown();
        if (kw[i].kind == PV_PENDING || kw[i].kind == PV_CREATE)
            pc_py_materialise(c, &kw[i], NULL, k->a);
    }
    if (c->kernel < 0 || !def)
        return pc_py_unknown();
    for (int i = 0; i < c->inline_depth; i++)
        if (c->inline_stack[i] == def) {
            pc_py_message(c, PC_MSG_WARNING, call,
                          "recursive call to '%s' is not inlined: its tensor work is not modelled", def->name);
            return pc_py_unknown();
        }
    if (c->inline_depth >= MAX_INLINE_DEPTH) {
        pc_py_message(c, PC_MSG_WARNING, call, "helper calls nested more than %d deep: '%s' is not inlined",
                      MAX_INLINE_DEPTH, def->name);
        return pc_py_unknown();
    }

    if (++c->inline_total > MAX_INLINE_TOTAL) {
        /* helpers that call helpers twice expand exponentially: stop, and say where */
        if (!c->inline_capped) {
            c->inline_capped = true;
            pc_py_message(c, PC_MSG_WARNING, call,
                          "more than %d helper calls inlined into kernel '%s': '%s' and the helper calls after "
                          "it are not expanded, so their tensor work is not modelled",
                          MAX_INLINE_TOTAL, pc_py_kernel(c)->name, def->name);
            pc_kernel *k = pc_py_kernel(c);
            int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_UNANALYSED, pc_py_loc(c, call));
            k->stmts[sid].has_op = false;
            k->stmts[sid].message = pc_model_strdup(
                c->m, pc_arena_printf(c->scratch, "helper expansion capped at %d inlined calls: '%s' is not expanded",
                                      MAX_INLINE_TOTAL, def->name));
            pc_py_block_append(c, sid);
        }
        return pc_py_unknown();
    }
    /* The helper's nodes may come from another module: locations and spellings are its own. */
    pc_py_place back = pc_py_place_now(c);
    pc_py_module *home = pc_py_frame_module(fn->frame);
    c->file = home ? home->path : c->m->file;
    c->src = home ? home->src : c->main_src;
    pc_py_frame *frame = pc_py_frame_new(c, fn->frame);
    int next = 0;
    for (int i = 0; i < def->list1.count; i++) {
        const pc_py_node *p = def->list1.items[i];
        if (!p || !p->name)
            continue;
        pc_py_val v = pc_py_unknown();
        bool have = false;
        if (p->ivalue == 0 && next < npos) {
            v = pos[next++];
            have = true;
        } else if (p->ivalue == 1) {
            v.kind = PV_SEQ;
            v.items = pos + next;
            v.nitems = npos - next;
            next = npos;
            have = true;
        }
        if (!have && (p->ivalue == 0 || p->ivalue == 2))
            for (int j = 0; j < call->list2.count; j++) {
                const pc_py_node *k = call->list2.items[j];
                if (k && k->name && strcmp(k->name, p->name) == 0) {
                    v = kw[j];
                    have = true;
                }
            }
        if (!have && p->b) {
            /* defaults are evaluated where the function was defined */
            pc_py_frame *saved = c->frame;
            c->frame = fn->frame;
            v = pc_py_eval(c, p->b);
            c->frame = saved;
            have = true;
        }
        if (!have && p->ivalue != 3)
            v = sym(c, p->name);
        pc_py_bind(c, frame, p->name, v);
    }

    /* The caller's statement is suspended while the helper's statements are emitted. */
    pc_py_suspended_stmt stmt = pc_py_suspend_stmt(c);
    pc_py_val *saved_ret = c->return_val;
    c->frame = frame;
    pc_py_val ret = pc_py_unknown();
    ret.kind = PV_NONE;
    c->return_val = &ret;
    c->returned = false;
    c->inline_stack[c->inline_depth++] = def;

    pc_py_walk_body(c, &def->list2);

    c->inline_depth--;
    c->returned = false;
    c->return_val = saved_ret;
    pc_py_place_set(c, &back);
    pc_py_resume_stmt(c, &stmt);
    c->inlined = pc_py_room_for_one(c, c->inlined, c->ninlined, &c->capinlined, 8, sizeof *c->inlined);
    c->inlined[c->ninlined++] = def;
    return ret;
}

/* ---- loops ---------------------------------------------------------------------------------- */

/* Can `text` be given to --bind as a name (`n`, `cfg.block`, `x.shape[0]`)? */
static bool bindable_name(const char *text)
{
    if (!text || !(*text == '_' || (*text >= 'A' && *text <= 'Z') || (*text >= 'a' && *text <= 'z')))
        return false;
    /* Python's constants are spelled like names, but `--bind None=4` binds nothing the code reads */
    if (strcmp(text, "None") == 0 || strcmp(text, "True") == 0 || strcmp(text, "False") == 0)
        return false;
    for (const char *p = text; *p; p++)
        if (!(*p == '_' || *p == '.' || *p == '[' || *p == ']' || (*p >= '0' && *p <= '9') ||
              (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
            return false;
    return true;
}

/* A loop bound: an integer expression, else a symbol the user can bind - the bound's own
 * spelling when that is a name, else `LOOP.start` / `LOOP.stop` / `LOOP.step` (PC008 must never
 * tell anyone to `--bind 0.5=VALUE`). */
static const pc_expr *bound_expr(pc_py_ctx *c, const pc_py_node *n, pc_py_val *v, const char *loop,
                                 const char *which)
{
    const pc_expr *e = pc_py_as_expr(v);
    if (e)
        return e;
    if (v->kind == PV_BOOL)
        return pc_expr_int(pc_model_arena(c->m), v->i);
    const char *text = pc_py_source_text(c->src, n->line, n->col, n->end_line, n->end_col);
    const char *name = bindable_name(text) ? text : pc_arena_printf(c->scratch, "%s.%s", loop, which);
    int64_t bound;
    if (!pc_py_user_binding(c, name, &bound, true)) {
        /* the hint only while it is needed */
        const char *why = n->kind == PY_FLOAT || v->kind == PV_FLOAT || v->kind == PV_STR || v->kind == PV_NONE
                              ? "is not an integer"
                          : (n->kind == PY_INT && n->big) || n->kind == PY_BINOP ? "is not an integer poolcheck can evaluate in 64 bits"
                                                                              : "is not an integer expression poolcheck can evaluate";
        if (strcmp(name, text) == 0)
            pc_py_note_check(c, "PC014", n, "loop bound '%s' %s; bind it with --bind %s=VALUE", text, why, name);
        else
            pc_py_note_check(c, "PC014", n, "loop bound '%s' %s: it is the symbol '%s'; bind it with --bind %s=VALUE",
                          text, why, name, name);
    }
    return pc_expr_sym(pc_model_arena(c->m), pc_model_strdup(c->m, name));
}

/* ---- loop_unroll bodies traced per factor ------------------------------------------------------
 *
 * Upstream runs a loop_unroll as one pypto.loop per factor p with the factor a Python int, so the
 * body is traced once per factor and every trace-time decision on the factor (`if tile_t <= 32:`,
 * a tile setter's argument, `range(tile_t)`, a helper that branches on it) is taken for that p.
 * Walking the body once with the factor as a symbol gives the same model when no such decision
 * reads it (the factor is only in shapes and offsets, which the analysis evaluates per factor); when
 * one may, the body is walked once per factor, each walk a PC_STMT_UNROLL body of that factor with
 * the factor bound to p.  Whether one may is found by reading the body (never running it): the
 * names that may hold the factor as an integer (assigned from expressions of it, not from op
 * results) and the places a trace-time decision reads them. */

typedef struct taint { pc_py_ctx *c; pc_py_frame *names; bool grew; } taint;

static bool safe_builtin(const char *name)
{
    static const char *const ok[] = {"min", "max", "abs", "int", "float", "bool", "round", "len", "tuple",
                                     "list", "sum", "print", "isinstance", "str", "divmod", "pow"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strcmp(ok[i], name) == 0)
            return true;
    return false;
}

/* Is the callee a builtin poolcheck evaluates (min, int, ...) rather than code of the kernel's? */
static bool builtin_callee(pc_py_ctx *c, const pc_py_node *fn)
{
    return fn && fn->kind == PY_NAME && !pc_py_lookup(c->frame, fn->name) && safe_builtin(fn->name);
}

/* An explicit stack for the iterative walks over expressions below (they may be long chains): 64
 * entries inline, grown in the scratch arena. */
typedef struct node_stack {
    const pc_py_node *inline_items[64];
    const pc_py_node **items;
    int sp, cap;
    pc_arena *arena;
} node_stack;

static void node_stack_init(node_stack *s, pc_arena *arena, const pc_py_node *root)
{
    s->items = s->inline_items;
    s->cap = 64;
    s->arena = arena;
    s->sp = 0;
    s->items[s->sp++] = root;
}

static void node_stack_reserve(node_stack *s, int need)
{
    if (s->sp + need <= s->cap)
        return;
    int ncap = (s->sp + need) * 2;
    const pc_py_node **bigger = pc_arena_alloc(s->arena, (size_t)ncap * sizeof *bigger);
    memcpy(bigger, s->items, (size_t)s->sp * sizeof *bigger);
    s->items = bigger;
    s->cap = ncap;
}

/* The next node to look at, or NULL when the walk is done (an absent operand is passed over). */
static const pc_py_node *node_stack_pop(node_stack *s)
{
    while (s->sp > 0) {
        const pc_py_node *x = s->items[--s->sp];
        if (x)
            return x;
    }
    return NULL;
}

/* Every child of x: its operands a, b, c and both lists (room reserved by the caller). */
static void node_stack_push_children(node_stack *s, const pc_py_node *x)
{
    s->items[s->sp++] = x->a;
    s->items[s->sp++] = x->b;
    s->items[s->sp++] = x->c;
    for (int i = 0; i < x->list1.count; i++)
        s->items[s->sp++] = x->list1.items[i];
    for (int i = 0; i < x->list2.count; i++)
        s->items[s->sp++] = x->list2.items[i];
}

/* May the value of n hold a tainted name's integer?  Op results, helpers' results and tensor
 * methods are not followed (a helper given the factor is a decision point of its own); a subscript
 * holds it only through its base.  Iterative: expressions may be long chains. */
static bool carries(taint *t, const pc_py_node *n)
{
    if (!n || !t->names->count)
        return false;
    node_stack ns;
    node_stack_init(&ns, t->c->scratch, n);
    for (const pc_py_node *x; (x = node_stack_pop(&ns));) {
        if (x->kind == PY_NAME) {
            if (pc_py_lookup_local(t->names, x->name))
                return true;
            continue;
        }
        if (x->kind == PY_OTHER_EXPR || (x->kind == PY_CALL && !builtin_callee(t->c, x->a)))
            continue;
        node_stack_reserve(&ns, 3 + x->list1.count + x->list2.count);
        if (x->kind == PY_SUBSCRIPT) {
            ns.items[ns.sp++] = x->a;
            continue;
        }
        if (x->kind == PY_CALL) {
            for (int i = 0; i < x->list1.count; i++)
                ns.items[ns.sp++] = x->list1.items[i];
            for (int i = 0; i < x->list2.count; i++)
                ns.items[ns.sp++] = x->list2.items[i];
            continue;
        }
        node_stack_push_children(&ns, x);
    }
    return false;
}

static void taint_target(taint *t, const pc_py_node *target)
{
    if (!target)
        return;
    if (target->kind == PY_NAME) {
        if (!pc_py_lookup_local(t->names, target->name)) {
            pc_py_bind(t->c, t->names, target->name, pc_py_mkval(PV_NONE));
            t->grew = true;
        }
    } else if (target->kind == PY_TUPLE || target->kind == PY_LIST) {
        for (int i = 0; i < target->list1.count; i++)
            taint_target(t, target->list1.items[i]);
    } else if (target->kind == PY_STARRED) {
        taint_target(t, target->a);
    }
}

/* One pass of the names that may hold the factor over a body (nested bodies included, as deep as
 * they go: the tree is already bounded by the conversion from Python's, so no cut-off here can
 * leave an assignment out). */
static void taint_body(taint *t, const pc_py_list *body)
{
    for (int i = 0; i < body->count; i++) {
        const pc_py_node *s = body->items[i];
        if (!s)
            continue;
        switch (s->kind) {
        case PY_ASSIGN:
            if (carries(t, s->a))
                for (int j = 0; j < s->list1.count; j++)
                    taint_target(t, s->list1.items[j]);
            break;
        case PY_AUGASSIGN:
            if (carries(t, s->b))
                taint_target(t, s->a);
            break;
        case PY_ANNASSIGN:
            if (carries(t, s->c))
                taint_target(t, s->a);
            break;
        case PY_FOR:
            if (carries(t, s->b))
                taint_target(t, s->a);
            taint_body(t, &s->list1);
            taint_body(t, &s->list2);
            break;
        case PY_WHILE: case PY_IF:
            taint_body(t, &s->list1);
            taint_body(t, &s->list2);
            break;
        case PY_WITH: case PY_FUNCDEF:
            taint_body(t, &s->list2);
            break;
        case PY_TRY:
            taint_body(t, &s->list1);
            taint_body(t, &s->list2);
            break;
        default:
            break;
        }
    }
}

/* Does expression n hold a trace-time decision on a tainted name: a conditional expression on it,
 * a tile setter given it, a call of the kernel's own code (a helper, an imported function) given
 * it? */
static bool expr_decides(taint *t, const pc_py_node *n)
{
    if (!n)
        return false;
    node_stack ns;
    node_stack_init(&ns, t->c->scratch, n);
    for (const pc_py_node *x; (x = node_stack_pop(&ns));) {
        if (x->kind == PY_IFEXP && carries(t, x->a))
            return true;
        if (x->kind == PY_CALL) {
            const char *q = pc_py_qualname(t->c, x->a);
            const char *leaf = pc_py_api_leaf(q);
            bool pypto_api = leaf != NULL;
            bool setter = pypto_api && strstr(leaf, "tile_shapes");
            bool method = !pypto_api && x->a && x->a->kind == PY_ATTRIBUTE && x->a->name &&
                          pc_py_find_op(x->a->name);
            bool own_code = !pypto_api && !method && !builtin_callee(t->c, x->a);
            if (setter || own_code)
                for (int i = 0; i < x->list1.count + x->list2.count; i++) {
                    const pc_py_node *a = i < x->list1.count ? x->list1.items[i]
                                                             : x->list2.items[i - x->list1.count];
                    if (a && a->kind == PY_KEYWORD)
                        a = a->a;
                    if (carries(t, a))
                        return true;
                }
        }
        node_stack_reserve(&ns, 3 + x->list1.count + x->list2.count);
        node_stack_push_children(&ns, x);
    }
    return false;
}

static bool is_path_test(pc_py_ctx *c, const pc_py_node *test)
{
    if (!test || test->kind != PY_CALL)
        return false;
    const char *q = pc_py_qualname(c, test->a);
    return pc_py_is_api(q, "cond") || pc_py_is_api(q, "is_loop_begin") || pc_py_is_api(q, "is_loop_end");
}

static bool body_decides(taint *t, const pc_py_list *body, int depth)
{
    for (int i = 0; i < body->count; i++) {
        const pc_py_node *s = body->items[i];
        if (!s)
            continue;
        if (depth >= 64)
            return true; /* deeper than read: trace it per factor, which is always right */
        switch (s->kind) {
        case PY_IF:
        case PY_WHILE:
            if (!is_path_test(t->c, s->a) && carries(t, s->a))
                return true;
            if (expr_decides(t, s->a) || body_decides(t, &s->list1, depth + 1) ||
                body_decides(t, &s->list2, depth + 1))
                return true;
            break;
        case PY_FOR: {
            const char *q = s->b && s->b->kind == PY_CALL ? pc_py_qualname(t->c, s->b->a) : NULL;
            bool pypto_loop = pc_py_is_api(q, "loop") || pc_py_is_api(q, "loop_unroll");
            if ((!pypto_loop && carries(t, s->b)) || expr_decides(t, s->b) ||
                body_decides(t, &s->list1, depth + 1) || body_decides(t, &s->list2, depth + 1))
                return true;
            break;
        }
        case PY_WITH:
            for (int j = 0; j < s->list1.count; j++)
                if (s->list1.items[j] && expr_decides(t, s->list1.items[j]->a))
                    return true;
            if (body_decides(t, &s->list2, depth + 1))
                return true;
            break;
        case PY_FUNCDEF:
            if (body_decides(t, &s->list2, depth + 1))
                return true;
            break;
        case PY_TRY:
            if (body_decides(t, &s->list1, depth + 1) || body_decides(t, &s->list2, depth + 1))
                return true;
            break;
        case PY_ASSIGN:
        case PY_EXPR_STMT:
        case PY_RETURN:
            if (expr_decides(t, s->a))
                return true;
            break;
        case PY_AUGASSIGN:
            if (expr_decides(t, s->b))
                return true;
            break;
        case PY_ANNASSIGN:
            if (expr_decides(t, s->c))
                return true;
            break;
        default:
            break;
        }
    }
    return false;
}

/* Must the body of a loop_unroll whose factor variable is `factor` be traced once per factor? */
static bool trace_per_factor(pc_py_ctx *c, const pc_py_list *body, const char *factor)
{
    taint t = {c, pc_py_frame_new(c, NULL), false};
    pc_py_bind(c, t.names, factor, pc_py_mkval(PV_NONE));
    for (int pass = 0; pass < 16; pass++) {
        t.grew = false;
        taint_body(&t, body);
        if (!t.grew)
            break;
    }
    return body_decides(&t, body, 0);
}

/* The factors upstream runs, in its order: the unroll list sorted down without repeats, 1 added
 * (python/pypto/_controller.py loop_unroll). */
static int unroll_factors(pc_py_ctx *c, const int64_t *ulist, int n, int64_t **out)
{
    int64_t *f = pc_arena_alloc(c->scratch, (size_t)(n + 1) * sizeof *f);
    int nf = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < nf && f[j] > ulist[i])
            j++;
        if (j < nf && f[j] == ulist[i])
            continue;
        memmove(f + j + 1, f + j, (size_t)(nf - j) * sizeof *f);
        f[j] = ulist[i];
        nf++;
    }
    if (nf == 0 || f[nf - 1] != 1)
        f[nf++] = 1;
    *out = f;
    return nf;
}

/* The loop's unroll_list= as written: its positive integer constants (in the model's arena, for
 * the loop spec) in *out, their count returned; 0 and NULL without one. */
static int unroll_list_arg(pc_py_ctx *c, const pc_py_node *call, bool unroll, int64_t **out)
{
    int64_t *ulist = NULL;
    int nulist = 0;
    const pc_py_node *ku = pc_py_kwarg(call, "unroll_list");
    if (ku) {
        pc_py_val uv = pc_py_eval(c, ku);
        if (uv.kind == PV_SEQ) {
            ulist = pc_arena_alloc(pc_model_arena(c->m), (size_t)(uv.nitems + 1) * sizeof *ulist);
            for (int i = 0; i < uv.nitems; i++) {
                int64_t x;
                if (!pc_expr_is_int(pc_py_as_expr(&uv.items[i]), &x) || x < 1) {
                    pc_py_message(c, PC_MSG_WARNING, ku,
                                  "unroll_list entry %d is not a positive integer constant: ignored", i);
                    continue;
                }
                ulist[nulist++] = x;
            }
        } else if (uv.kind != PV_NONE) {
            pc_py_message(c, PC_MSG_WARNING, ku, "unroll_list is not a constant list: taken as [1]");
        }
        if (!unroll && nulist > 0 && !(nulist == 1 && ulist[0] == 1))
            pc_py_message(c, PC_MSG_NOTE, ku, "unroll_list on pypto.loop: the body has no unroll factor variable");
    }
    *out = ulist;
    return nulist;
}

/* for i in pypto.loop(...) / for i, t in pypto.loop_unroll(...) */
static void walk_pypto_loop(pc_py_ctx *c, const pc_py_node *s, bool unroll)
{
    const pc_py_node *call = s->b;
    pc_arena *ar = pc_model_arena(c->m);
    pc_py_begin_stmt(c, s);
    int npos = 0;
    const pc_py_node *posn[3] = {NULL, NULL, NULL};
    pc_py_val posv[3];
    for (int i = 0; i < call->list1.count && npos < 3; i++) {
        const pc_py_node *a = call->list1.items[i];
        if (!a || a->kind == PY_STARRED)
            continue;
        posn[npos] = a;
        posv[npos++] = pc_py_eval(c, a);
    }
    const pc_py_node *kstart = pc_py_kwarg(call, "start"), *kstop = pc_py_kwarg(call, "stop"),
                     *kstep = pc_py_kwarg(call, "step");
    const char *name = pc_py_eval_str(c, pc_py_kwarg(call, "name"));
    if (!name)
        name = pc_arena_printf(c->scratch, "loop_%u", s->line);
    const pc_expr *begin = pc_expr_int(ar, 0), *end = NULL, *step = pc_expr_int(ar, 1);
    if (npos == 1) {
        end = bound_expr(c, posn[0], &posv[0], name, "stop");
    } else if (npos >= 2) {
        begin = bound_expr(c, posn[0], &posv[0], name, "start");
        end = bound_expr(c, posn[1], &posv[1], name, "stop");
        if (npos == 3)
            step = bound_expr(c, posn[2], &posv[2], name, "step");
    }
    pc_py_val kv;
    if (kstart) {
        kv = pc_py_eval(c, kstart);
        begin = bound_expr(c, kstart, &kv, name, "start");
    }
    if (kstop) {
        kv = pc_py_eval(c, kstop);
        end = bound_expr(c, kstop, &kv, name, "stop");
    }
    if (kstep) {
        kv = pc_py_eval(c, kstep);
        step = bound_expr(c, kstep, &kv, name, "step");
    }
    if (!end) {
        pc_py_message(c, PC_MSG_WARNING, call, "loop without a stop value: taken as 1 iteration");
        end = pc_expr_bin(ar, PC_EXPR_ADD, begin, pc_expr_int(ar, 1));
    }


    /* target: `i` for pypto.loop, `(i, t)` for loop_unroll */
    const char *index = NULL, *factor = NULL;
    const pc_py_node *t = s->a;
    if (t && t->kind == PY_NAME) {
        index = t->name;
    } else if (t && (t->kind == PY_TUPLE || t->kind == PY_LIST) && t->list1.count == 2) {
        if (t->list1.items[0] && t->list1.items[0]->kind == PY_NAME)
            index = t->list1.items[0]->name;
        if (t->list1.items[1] && t->list1.items[1]->kind == PY_NAME)
            factor = t->list1.items[1]->name;
    }
    if (unroll && !factor && t && t->kind == PY_NAME)
        pc_py_message(c, PC_MSG_WARNING, t, "pypto.loop_unroll yields (index, unroll_factor): unpack both");

    int64_t *ulist = NULL;
    int nulist = unroll_list_arg(c, call, unroll, &ulist);
    bool submit = false, parallel = false;
    const pc_py_node *ks = pc_py_kwarg(call, "submit_before_loop"), *kp = pc_py_kwarg(call, "parallel");
    if (ks) {
        pc_py_val v = pc_py_eval(c, ks);
        submit = pc_py_truth(c, &v) == 1;
    }
    if (kp) {
        pc_py_val v = pc_py_eval(c, kp);
        parallel = pc_py_truth(c, &v) == 1;
    }
    pc_py_flush_stmt(c, false); /* anything the header read */

    pc_kernel *k = pc_py_kernel(c);
    pc_loc kw = pc_model_loc(c->m, c->file, s->line, s->col, s->line, s->col + 3);
    pc_loc header = pc_model_loc(c->m, c->file, s->line, s->col, call->end_line, call->end_col);
    pc_loop_spec spec = {.name = name, .loc = kw, .header = header, .index_var = index, .factor_var = factor,
                         .begin = begin, .end = end, .step = step, .unroll = ulist, .nunroll = nulist,
                         .submit_before_loop = submit, .parallel = parallel, .parent = c->loop};
    int lid = pc_kernel_add_loop_spec(c->m, k, &spec);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_LOOP, header);
    k = pc_py_kernel(c);
    k->loops[lid].stmt = sid;
    k->stmts[sid].loop = lid;
    k->stmts[sid].has_op = false;
    pc_py_block_append(c, sid);

    pc_py_blockref saved_block = c->block;
    int saved_loop = c->loop;
    c->block.loop = lid;
    c->block.stmt = -1;
    c->block.branch = -1;
    c->loop = lid;
    if (index)
        pc_py_bind(c, c->frame, index, sym(c, index));
    if (factor)
        pc_py_bind(c, c->frame, factor, sym(c, factor));
    if (t && !index && !factor)
        pc_py_assign(c, t, pc_py_unknown(), NULL);
    const pc_tile_shapes *saved_tiles = pc_py_tiles_enter(c);
    if (unroll && factor && trace_per_factor(c, &s->list1, factor)) {
        /* one trace per factor, in upstream's order; each sees what the previous one left (Python
         * variables, tile shapes), as the factors' loops run one after the other */
        int64_t *fs;
        int nf = unroll_factors(c, ulist, nulist, &fs);
        for (int i = 0; i < nf && !c->returned; i++) {
            c->block.loop = lid;
            c->block.stmt = -1;
            c->block.branch = -1;
            int uid = pc_kernel_add_stmt(c->m, pc_py_kernel(c), PC_STMT_UNROLL, header);
            pc_py_kernel(c)->stmts[uid].unroll_factor = fs[i];
            pc_py_kernel(c)->stmts[uid].has_op = false;
            pc_py_block_append(c, uid);
            c->block.loop = -1;
            c->block.stmt = uid; /* branch -1: the UNROLL body (pc_py_block_append) */
            if (index)
                pc_py_bind(c, c->frame, index, sym(c, index));
            pc_py_bind(c, c->frame, factor, pc_py_int(c, fs[i]));
            pc_py_walk_body(c, &s->list1);
        }
    } else {
        pc_py_walk_body(c, &s->list1);
    }
    pc_py_tiles_leave(c, saved_tiles);
    c->block = saved_block;
    c->loop = saved_loop;
    if (s->list2.count && !c->returned)
        pc_py_walk_body(c, &s->list2);
}

/* Did the statements walked since (ntensors, nstmts) make tensors or do tensor work?  A body
 * that only reads and writes tensors that exist before it needs the same pools however often it
 * runs; one that makes tensors needs them once per run. */
static bool made_tensors(pc_py_ctx *c, int ntensors0)
{
    return pc_py_kernel(c)->ntensors > ntensors0;
}

static bool did_work(pc_py_ctx *c, int ntensors0, int nstmts0)
{
    const pc_kernel *k = pc_py_kernel(c);
    if (k->ntensors > ntensors0)
        return true;
    for (int i = nstmts0; i < k->nstmts; i++)
        if (k->stmts[i].kind == PC_STMT_LOOP || (k->stmts[i].kind == PC_STMT_OP && k->stmts[i].naccesses > 0))
            return true;
    return false;
}

/* An integer bound as a constant: written so, or made of symbols the user bound (the largest
 * value over the binding sets: the most the body can be repeated).  The bindings used become
 * kernel constants, so the model says what the trace assumed. */
static bool bound_value(pc_py_ctx *c, const pc_expr *e, int64_t *out)
{
    if (!e)
        return false;
    if (pc_expr_is_int(e, out))
        return true;
    const char *names[32];
    size_t n = pc_expr_symbols(e, names, 0, 32);
    if (n == 0 || n >= 32)
        return false;
    pc_binding bs[32];
    for (size_t i = 0; i < n; i++) {
        bs[i].name = names[i];
        if (!pc_py_user_binding(c, names[i], &bs[i].value, true))
            return false;
    }
    pc_bindings set = {bs, n};
    if (!pc_expr_eval(e, &set, 1, out))
        return false;
    for (size_t i = 0; i < n; i++)
        pc_kernel_add_constant(c->m, pc_py_kernel(c), pc_model_strdup(c->m, names[i]), bs[i].value);
    return true;
}

/* max(0, ceil((e - b) / s)) without overflow, capped at INT64_MAX. */
static int64_t trip_count(int64_t b, int64_t e, int64_t st)
{
    __int128 span = (__int128)e - (__int128)b;
    __int128 s = st;
    if (s < 0) {
        span = -span;
        s = -s;
    }
    if (span <= 0)
        return 0;
    __int128 t = (span + s - 1) / s;
    return t > (__int128)INT64_MAX ? INT64_MAX : (int64_t)t;
}

/* A plain Python `for` inside a kernel runs at trace time: its body belongs to the enclosing root
 * function (model.md 2).  With a trip count poolcheck knows (a constant, or bound with --bind) and
 * small enough, every iteration is emitted with the loop variable bound, exactly what the trace
 * does.  Otherwise the body is emitted once with the variable as a symbol: that is exact for the
 * pools when the body makes no tensors of its own; when it does, the repetition is what is missing
 * and that is said - a note naming the symbol to bind when the count is a symbol (model.md 2: a
 * range() bound is a symbol like any other, not an unanalysed region), PC012 otherwise. */
static void walk_host_for(pc_py_ctx *c, const pc_py_node *s)
{
    pc_py_begin_stmt(c, s);
    pc_py_val it = pc_py_eval(c, s->b);
    pc_py_flush_stmt(c, false);
    int64_t b, e, st;
    const char *unknown_sym = NULL;
    bool over_budget = false;    /* a known trip count past what is left of the unroll budget */
    if (it.kind == PV_RANGE) {
        const pc_expr *eb = pc_py_as_expr(&it.items[0]), *ee = pc_py_as_expr(&it.items[1]),
                      *es = pc_py_as_expr(&it.items[2]);
        if (bound_value(c, eb, &b) && bound_value(c, ee, &e) && bound_value(c, es, &st) && st != 0) {
            int64_t trips = trip_count(b, e, st);
            if (trips <= PC_HOST_UNROLL_BUDGET - c->nfor_unrolled) {
                c->nfor_unrolled += (int)trips;
                for (int64_t i = 0; i < trips && !c->returned; i++) {
                    pc_py_assign(c, s->a, pc_py_int(c, (int64_t)((__int128)b + (__int128)i * st)), NULL);
                    pc_py_walk_body(c, &s->list1);
                }
                if (!c->returned)
                    pc_py_walk_body(c, &s->list2);
                return;
            }
            over_budget = true;
        } else {
            /* the first symbol of the count that nobody bound: what to tell the user */
            const pc_expr *parts[3] = {eb, ee, es};
            for (int p = 0; p < 3 && !unknown_sym; p++) {
                int64_t v;
                if (!parts[p] || bound_value(c, parts[p], &v))
                    continue;
                const char *names[8];
                size_t n = pc_expr_symbols(parts[p], names, 0, 8);
                for (size_t i = 0; i < n && !unknown_sym; i++)
                    if (!pc_py_user_binding(c, names[i], &v, true))
                        unknown_sym = names[i];
            }
        }
    }
    if (it.kind == PV_SEQ && it.nitems > PC_HOST_UNROLL_BUDGET - c->nfor_unrolled)
        over_budget = true;
    if (it.kind == PV_SEQ && !over_budget) {
        c->nfor_unrolled += it.nitems;
        for (int i = 0; i < it.nitems && !c->returned; i++) {
            pc_py_assign(c, s->a, it.items[i], NULL);
            pc_py_walk_body(c, &s->list1);
        }
        if (!c->returned)
            pc_py_walk_body(c, &s->list2);
        return;
    }
    int nt0 = pc_py_kernel(c)->ntensors;
    if (s->a && s->a->kind == PY_NAME)
        pc_py_assign(c, s->a, sym(c, s->a->name), NULL);
    else
        pc_py_assign(c, s->a, pc_py_unknown(), NULL);
    pc_py_walk_body(c, &s->list1);
    if (!made_tensors(c, nt0))
        return;
    const char *iter = pc_py_source_text(c->src, s->b->line, s->b->col, s->b->end_line, s->b->end_col);
    if (unknown_sym) {
        pc_py_note_check(c, "PC014", s,
                      "compile-time loop 'for ... in %s' runs a number of times that depends on '%s', which is "
                      "not bound: its body, which makes tensors, is modelled once, so root_inner bytes may be "
                      "low; bind it with --bind %s=VALUE",
                      iter, unknown_sym, unknown_sym);
        return;
    }
    if (over_budget)
        pc_py_unanalysed(c, s,
                         pc_arena_printf(c->scratch,
                                         "compile-time loop 'for ... in %s' is not unrolled: it would pass the "
                                         "budget of %d unrolled compile-time iterations per kernel, so its body is "
                                         "modelled once and root_inner bytes may be low",
                                         iter, (int)PC_HOST_UNROLL_BUDGET));
    else
        pc_py_unanalysed(c, s,
                         pc_arena_printf(c->scratch,
                                         "compile-time loop 'for ... in %s' is not unrolled (trip count not a "
                                         "constant): its body is modelled once, so root_inner bytes may be low",
                                         iter));
}

/* Whether a break or return sits in the body, at any depth: a cut-off would take a loop that
 * leaves early for one that runs to its end (the tree is bounded by the conversion already). */
static bool has_break(const pc_py_list *body)
{
    for (int i = 0; i < body->count; i++) {
        const pc_py_node *s = body->items[i];
        if (!s)
            continue;
        if (s->kind == PY_BREAK || s->kind == PY_RETURN)
            return true;
        if ((s->kind == PY_IF || s->kind == PY_WITH || s->kind == PY_TRY) &&
            (has_break(&s->list1) || has_break(&s->list2)))
            return true;
    }
    return false;
}

static testres eval_test(pc_py_ctx *c, const pc_py_node *test);

/* A `while` runs at trace time too: on values poolcheck knows it is executed (a bounded number of
 * iterations); otherwise the body is walked once, and only a body that does tensor work is
 * reported (PC012) - a while computing a tile size in a helper is host arithmetic. */
static void walk_while(pc_py_ctx *c, const pc_py_node *s)
{
    int nt0 = pc_py_kernel(c)->ntensors, ns0 = pc_py_kernel(c)->nstmts;
    bool exact = !has_break(&s->list1);
    int iters = 0;
    for (;;) {
        int t = eval_test(c, s->a).truth;
        if (t == 0 && exact)
            break;
        if (t < 0 || !exact || c->nfor_unrolled >= PC_HOST_UNROLL_BUDGET) {
            if (iters == 0 || t < 0) {
                pc_py_walk_body(c, &s->list1);
                if (did_work(c, nt0, ns0))
                    pc_py_unanalysed(c, s, "compile-time 'while' loop: its body is modelled once");
            }
            return;
        }
        iters++;
        c->nfor_unrolled++;
        pc_py_walk_body(c, &s->list1);
        if (c->returned)
            return;
    }
    pc_py_walk_body(c, &s->list2);
}

/* ---- branches ------------------------------------------------------------------------------- */

static const pc_expr *truth_expr(pc_py_ctx *c, const pc_py_val *v)
{
    pc_arena *ar = pc_model_arena(c->m);
    if (v->kind == PV_BOOL)
        return pc_expr_int(ar, v->i != 0);
    if (v->kind == PV_INT && v->e) {
        int64_t x;
        if (pc_expr_is_int(v->e, &x))
            return pc_expr_int(ar, x != 0);
        switch (v->e->kind) {
        case PC_EXPR_LT: case PC_EXPR_LE: case PC_EXPR_GT: case PC_EXPR_GE: case PC_EXPR_EQ: case PC_EXPR_NE:
        case PC_EXPR_AND: case PC_EXPR_OR: case PC_EXPR_NOT: case PC_EXPR_IS_LOOP_BEGIN: case PC_EXPR_IS_LOOP_END:
            return v->e;
        default:
            return pc_expr_bin(ar, PC_EXPR_NE, v->e, pc_expr_int(ar, 0));
        }
    }
    if (v->kind == PV_NONE)
        return pc_expr_int(ar, 0);
    return NULL;
}

static const pc_expr *int_operand(pc_py_ctx *c, const pc_py_val *v)
{
    if (v->kind == PV_BOOL)
        return pc_expr_int(pc_model_arena(c->m), v->i != 0);
    return pc_py_as_expr(v);
}

static testres test_of(pc_py_ctx *c, const pc_py_node *n, int depth)
{
    testres r = {-1, NULL, false};
    pc_arena *ar = pc_model_arena(c->m);
    if (!n || depth > 64) {
        if (n)
            (void)pc_py_eval(c, n);
        return r;
    }
    if (n->kind == PY_CALL) {
        const char *q = pc_py_qualname(c, n->a);
        if (pc_py_is_api(q, "cond")) {
            const pc_py_node *a = pc_py_posarg(n, 0);
            if (!a)
                a = pc_py_kwarg(n, "cond");
            testres in = test_of(c, a, depth + 1);
            /* pypto.cond(<constant>) stays a path: both branches are compiled */
            r.cond = in.cond ? in.cond : in.truth >= 0 ? pc_expr_int(ar, in.truth) : NULL;
            r.path = true;
            return r;
        }
        if (pc_py_is_api(q, "is_loop_begin") || pc_py_is_api(q, "is_loop_end")) {
            const pc_py_node *a = pc_py_posarg(n, 0);
            pc_py_val v = a ? pc_py_eval(c, a) : pc_py_unknown();
            if (v.kind == PV_INT && v.e && v.e->kind == PC_EXPR_SYM)
                r.cond = pc_expr_loop_pred(ar, strstr(q, "begin") ? PC_EXPR_IS_LOOP_BEGIN : PC_EXPR_IS_LOOP_END,
                                           v.e->name);
            r.path = true;
            return r;
        }
    }
    if (n->kind == PY_UNARYOP && n->op == PY_OP_NOT) {
        testres in = test_of(c, n->a, depth + 1);
        r.truth = in.truth < 0 ? -1 : !in.truth;
        r.cond = in.cond ? pc_expr_not(ar, in.cond) : NULL;
        r.path = in.path;
        return r;
    }
    if (n->kind == PY_BOOLOP && n->list1.count > 0) {
        bool is_and = n->op == PY_OP_AND;
        int result = is_and ? 1 : 0;
        bool decided = false, have = true;
        const pc_expr *acc = NULL;
        for (int i = 0; i < n->list1.count; i++) {
            testres t = test_of(c, n->list1.items[i], depth + 1); /* every operand, for its reads */
            r.path |= t.path;
            if (decided)
                continue;
            if (t.truth < 0)
                result = -1;
            else if (t.truth == (is_and ? 0 : 1)) {
                result = t.truth;
                decided = true;
            }
            const pc_expr *e = t.cond ? t.cond : t.truth >= 0 ? pc_expr_int(ar, t.truth) : NULL;
            if (!e)
                have = false;
            else
                acc = acc ? pc_expr_bin(ar, is_and ? PC_EXPR_AND : PC_EXPR_OR, acc, e) : e;
        }
        r.truth = result;
        r.cond = decided ? pc_expr_int(ar, result) : have ? acc : NULL;
        return r;
    }
    if (n->kind == PY_COMPARE && n->list1.count > 0 && n->ops) {
        pc_py_val l = pc_py_eval(c, n->a);
        bool tensors = tensorish(&l), have = true;
        const pc_expr *acc = NULL;
        int result = 1;
        for (int i = 0; i < n->list1.count; i++) {
            pc_py_val rv = pc_py_eval(c, n->list1.items[i]);
            if (tensorish(&rv) || tensors) {
                tensors = true;
                l = rv;
                continue;
            }
            pc_py_op op = n->ops[i];
            static const struct { pc_py_op op; pc_expr_kind k; } map[] = {
                {PY_OP_LT, PC_EXPR_LT}, {PY_OP_LE, PC_EXPR_LE}, {PY_OP_GT, PC_EXPR_GT},
                {PY_OP_GE, PC_EXPR_GE}, {PY_OP_EQ, PC_EXPR_EQ}, {PY_OP_NE, PC_EXPR_NE}};
            pc_expr_kind k = PC_EXPR_INT;
            for (size_t j = 0; j < sizeof map / sizeof *map; j++)
                if (map[j].op == op)
                    k = map[j].k;
            const pc_expr *le = int_operand(c, &l), *re = int_operand(c, &rv);
            const pc_expr *e = k != PC_EXPR_INT && le && re ? pc_expr_bin(ar, k, le, re) : NULL;
            int t = pc_py_compare_truth(op, &l, &rv);
            if (t < 0 && e) {
                int64_t x;
                if (pc_expr_is_int(e, &x))
                    t = x != 0;
            }
            if (t < 0)
                result = -1;
            else if (t == 0 && result == 1)
                result = 0;
            if (!e && t < 0)
                have = false;
            else if (!e)
                e = pc_expr_int(ar, t);
            if (e)
                acc = acc ? pc_expr_bin(ar, PC_EXPR_AND, acc, e) : e;
            l = rv;
        }
        if (tensors) {
            /* an elementwise comparison of tensors: data on the device, its reads are work */
            pc_py_val v = pc_py_eval(c, n);
            (void)v;
            return r;
        }
        r.truth = result;
        r.cond = result >= 0 ? pc_expr_int(ar, result) : have ? acc : NULL;
        return r;
    }
    pc_py_val v = pc_py_eval(c, n);
    if (tensorish(&v))
        return r; /* a tensor's value: data-dependent */
    r.truth = pc_py_truth(c, &v);
    r.cond = truth_expr(c, &v);
    return r;
}

/* The condition once, as a statement of its own (its reads are work of the enclosing root). */
static testres eval_test(pc_py_ctx *c, const pc_py_node *test)
{
    pc_py_begin_stmt(c, test);
    testres r = test_of(c, test, 0);
    pc_py_flush_stmt(c, false);
    if (r.truth < 0 && !r.path && r.cond) {
        /* a jit argument or config flag the user bound (every binding set agreeing): decided
         * while tracing, as upstream's trace decides it */
        const char *names[32];
        size_t nn = pc_expr_symbols(r.cond, names, 0, 32);
        pc_binding bs[32];
        bool all = nn > 0 && nn < 32;
        for (size_t i = 0; i < nn && all; i++) {
            bs[i].name = names[i];
            all = pc_py_user_binding(c, names[i], &bs[i].value, false);
        }
        int64_t v;
        pc_bindings set = {bs, nn};
        if (all && pc_expr_eval(r.cond, &set, 1, &v)) {
            for (size_t i = 0; i < nn; i++)
                pc_kernel_add_constant(c->m, pc_py_kernel(c), pc_model_strdup(c->m, names[i]), bs[i].value);
            r.truth = v != 0;
        }
    }
    return r;
}

/* ---- alternatives: bindings after an if with several live branches ------------------------------ */

typedef struct snapshot { pc_py_binding *items; int count; } snapshot;

static snapshot snap(pc_py_ctx *c, const pc_py_frame *f)
{
    snapshot s = {NULL, f->count};
    s.items = pc_arena_alloc(c->scratch, (size_t)(f->count + 1) * sizeof *s.items);
    if (f->count)
        memcpy(s.items, f->items, (size_t)f->count * sizeof *s.items);
    return s;
}

static bool same_val(const pc_py_val *a, const pc_py_val *b)
{
    if (a->kind != b->kind)
        return false;
    /* field by field: the structs have padding, which memcmp would read */
    switch (a->kind) {
    case PV_TENSOR: return a->tensor == b->tensor && a->alt == b->alt && a->nitems == b->nitems;
    case PV_INT: return a->e == b->e;
    case PV_BOOL: return a->i == b->i;
    case PV_FLOAT: return a->f == b->f;
    case PV_STR: case PV_MODULE: return a->s == b->s || (a->s && b->s && strcmp(a->s, b->s) == 0);
    case PV_NONE: case PV_UNKNOWN: return true;
    case PV_DTYPE: return a->dtype == b->dtype;
    case PV_FUNC: return a->node == b->node && a->frame == b->frame;
    default:
        return a->tensor == b->tensor && a->items == b->items && a->nitems == b->nitems && a->node == b->node &&
               a->shape == b->shape && a->ndims == b->ndims && a->e == b->e && a->unit == b->unit &&
               a->dtype == b->dtype;
    }
}

static void add_alt(pc_py_ctx *c, pc_py_val *into, const pc_py_val *other)
{
    if (other->kind != PV_TENSOR)
        return;
    if (other->tensor == into->tensor)
        return;
    for (int i = 0; i < into->nitems; i++)
        if (into->alt && into->items[i].tensor == other->tensor)
            return;
    pc_py_val *items = pc_arena_alloc(c->scratch, (size_t)(into->nitems + 2) * sizeof *items);
    if (into->alt && into->nitems)
        memcpy(items, into->items, (size_t)into->nitems * sizeof *items);
    else
        into->nitems = 0;
    items[into->nitems] = *other;
    items[into->nitems].alt = false;
    items[into->nitems].items = NULL;
    items[into->nitems].nitems = 0;
    into->items = items;
    into->nitems++;
    into->alt = true;
    if (other->alt)
        for (int i = 0; i < other->nitems; i++)
            add_alt(c, into, &other->items[i]);
}

/* After the branches of an if that stays open at trace time: a name the branches bind to
 * different tensors denotes all of them (a later read reads each alternative), a name bound to
 * different integers becomes a symbol the user can bind, anything else is unknown. */
static void merge_branches(pc_py_ctx *c, pc_py_frame *f, const snapshot *ends, int nends)
{
    if (nends < 2)
        return;
    const snapshot *last = &ends[nends - 1];
    pc_py_frame_restore(c, f, last->items, last->count);
    for (int b = 0; b < nends - 1; b++)
        for (int i = 0; i < ends[b].count; i++) {
            const pc_py_binding *o = &ends[b].items[i];
            pc_py_val *cur = pc_py_lookup_local(f, o->name);
            if (!cur) {
                pc_py_bind(c, f, o->name, o->val);
                continue;
            }
            if (same_val(cur, &o->val))
                continue;
            if (cur->kind == PV_TENSOR && o->val.kind == PV_TENSOR) {
                pc_py_val merged = *cur;
                add_alt(c, &merged, &o->val);
                *cur = merged;
            } else if (cur->kind == PV_INT && o->val.kind == PV_INT) {
                *cur = sym(c, o->name);
            } else if (!(tensorish(cur) || tensorish(&o->val))) {
                *cur = pc_py_unknown();
            }
        }
}

static void walk_branch(pc_py_ctx *c, int sid, const pc_py_list *body, pc_loc loc, const pc_expr *cond,
                        const char *cond_text, int decided)
{
    pc_kernel *k = pc_py_kernel(c);
    pc_branch *br = pc_stmt_add_branch(c->m, &k->stmts[sid], loc);
    br->cond = cond;
    br->cond_text = cond_text ? pc_model_strdup(c->m, cond_text) : NULL;
    br->decided = decided;
    int bi = pc_py_kernel(c)->stmts[sid].nbranches - 1;
    pc_py_blockref saved = c->block;
    c->block.stmt = sid;
    c->block.branch = bi;
    c->block.loop = -1;
    pc_py_walk_body(c, body);
    c->block = saved;
}

static const char *test_text(pc_py_ctx *c, const pc_py_node *test)
{
    const pc_py_node *n = test;
    /* `if pypto.cond(i < 1):` is spelt `i < 1` */
    if (n && n->kind == PY_CALL && pc_py_is_api(pc_py_qualname(c, n->a), "cond") && pc_py_posarg(n, 0))
        n = pc_py_posarg(n, 0);
    return pc_py_source_text(c->src, n->line, n->col, n->end_line, n->end_col);
}

/* `if` on a value known at trace time takes one branch; otherwise (pypto.cond, is_loop_begin /
 * is_loop_end, a comparison on a loop index, a jit argument or flag that is not bound) it is one
 * PC_STMT_IF whose branches are the alternatives (elif chains flattened, a missing else is an
 * empty one), each with its condition: the analysis decides it per instance, or charges the
 * maximum over the branches when it cannot. */
static void walk_if(pc_py_ctx *c, const pc_py_node *s)
{
    testres t = eval_test(c, s->a);
    if (!t.path && t.truth == 1) {
        pc_py_walk_body(c, &s->list1);
        return;
    }
    if (!t.path && t.truth == 0) {
        pc_py_walk_body(c, &s->list2);
        return;
    }
    pc_kernel *k = pc_py_kernel(c);
    pc_loc head = pc_model_loc(c->m, c->file, s->line, s->col, s->a->end_line, s->a->end_col);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_IF, head);
    pc_py_kernel(c)->stmts[sid].has_op = false;
    pc_py_block_append(c, sid);
    pc_py_frame *f = c->frame;
    snapshot before = snap(c, f);
    snapshot ends[64];
    int nends = 0;
    bool returned = false;
    const pc_py_node *cur = s;
    for (;;) {
        /* data-dependent: no expression, only the spelling (the analysis takes the maximum) */
        walk_branch(c, sid, &cur->list1, pc_py_loc(c, cur->a), t.cond, test_text(c, cur->a), -1);
        returned |= c->returned;
        c->returned = false;
        if (nends < 64)
            ends[nends++] = snap(c, f);
        pc_py_frame_restore(c, f, before.items, before.count);
        const pc_py_list *rest = &cur->list2;
        const pc_py_node *next = NULL;
        while (rest->count == 1 && rest->items[0] && rest->items[0]->kind == PY_IF) {
            const pc_py_node *e = rest->items[0];
            testres te = eval_test(c, e->a);
            if (te.path || te.truth < 0) {
                next = e;
                t = te;
                break;
            }
            rest = te.truth == 1 ? &e->list1 : &e->list2;
        }
        if (next) {
            cur = next;
            continue;
        }
        pc_loc eloc = rest->count && rest->items[0] ? pc_py_loc(c, rest->items[0]) : head;
        walk_branch(c, sid, rest, eloc, NULL, NULL, -1);
        returned |= c->returned;
        c->returned = false;
        if (nends < 64)
            ends[nends++] = snap(c, f);
        break;
    }
    merge_branches(c, f, ends, nends);
    (void)returned; /* a return inside one alternative ends only that alternative */
}

/* ---- statements ----------------------------------------------------------------------------- */

static void walk_with(pc_py_ctx *c, const pc_py_node *s)
{
    pc_py_begin_stmt(c, s);
    const pc_tile_shapes *saved_tiles = pc_py_tiles_with_enter(c);
    for (int i = 0; i < s->list1.count; i++) {
        const pc_py_node *item = s->list1.items[i];
        if (!item || !item->a)
            continue;
        const char *q = item->a->kind == PY_CALL ? pc_py_qualname(c, item->a->a) : NULL;
        if (pc_py_is_api(q, "options")) {
            (void)pc_py_option_call(c, item->a, c->kernel, true);
            pc_py_tiles_options(c, item->a);
            continue;
        }
        if (pc_py_is_api(q, "function")) /* a nested static sub-function: part of this kernel */
            continue;
        pc_py_val v = pc_py_eval(c, item->a);
        if (item->b)
            pc_py_assign(c, item->b, tensorish(&v) ? v : pc_py_unknown(), NULL);
    }
    pc_py_flush_stmt(c, false);
    pc_py_walk_body(c, &s->list2);
    pc_py_tiles_with_leave(c, saved_tiles);
}

static void bind_import(pc_py_ctx *c, const pc_py_node *s)
{
    for (int i = 0; i < s->list1.count; i++) {
        const pc_py_node *a = s->list1.items[i];
        if (!a || !a->name)
            continue;
        pc_py_val v = pc_py_unknown();
        v.kind = PV_MODULE;
        if (s->kind == PY_IMPORT) {
            if (a->str) {
                v.s = a->name;                       /* import pypto.frontend as pf */
                pc_py_bind(c, c->frame, a->str, v);
            } else {
                const char *dot = strchr(a->name, '.');
                char *top = pc_arena_strndup(c->scratch, a->name, dot ? (size_t)(dot - a->name) : strlen(a->name));
                v.s = top;                           /* import pypto.frontend binds pypto */
                pc_py_bind(c, c->frame, top, v);
            }
        } else {
            if (strcmp(a->name, "*") == 0) {
                if (strcmp(s->name, "pypto") == 0)
                    c->star_pypto = true;
                continue;
            }
            int level = s->ivalue > 0 && s->ivalue < 64 ? (int)s->ivalue : 0;
            char *dots = pc_arena_alloc(c->scratch, (size_t)level + 1);
            memset(dots, '.', (size_t)level);
            /* `from .common import f` -> ".common.f"; `from . import common` -> ".common" */
            v.s = s->name && *s->name ? pc_arena_printf(c->scratch, "%s%s.%s", dots, s->name, a->name)
                                      : pc_arena_printf(c->scratch, "%s%s", dots, a->name);
            pc_py_bind(c, c->frame, a->str ? a->str : a->name, v);
        }
    }
}

void pc_py_bind_import(pc_py_ctx *c, const pc_py_node *s) { bind_import(c, s); }

pc_py_node pc_py_augassign_binop(const pc_py_node *s)
{
    pc_py_node bin;
    memset(&bin, 0, sizeof bin);
    bin.kind = PY_BINOP;
    bin.op = s->op;
    bin.a = s->a;
    bin.b = s->b;
    bin.line = s->line;
    bin.col = s->col;
    bin.end_line = s->end_line;
    bin.end_col = s->end_col;
    return bin;
}

static void walk_stmt(pc_py_ctx *c, const pc_py_node *s)
{
    switch (s->kind) {
    case PY_EXPR_STMT:
        pc_py_begin_stmt(c, s);
        (void)pc_py_eval(c, s->a); /* a discarded op result: its reads are the work */
        pc_py_flush_stmt(c, false);
        break;
    case PY_ASSIGN: {
        pc_py_begin_stmt(c, s);
        pc_py_val v = pc_py_eval(c, s->a);
        for (int i = 0; i < s->list1.count; i++) {
            pc_py_assign(c, s->list1.items[i], v, s->a);
            /* `a = b = op()`: the first target holds the value, the others alias it */
            if (s->list1.items[i] && s->list1.items[i]->kind == PY_NAME) {
                pc_py_val *b = pc_py_lookup(c->frame, s->list1.items[i]->name);
                if (b)
                    v = *b;
            }
        }
        pc_py_flush_stmt(c, false);
        break;
    }
    case PY_ANNASSIGN:
        if (s->c) {
            pc_py_begin_stmt(c, s);
            pc_py_val v = pc_py_eval(c, s->c);
            pc_py_assign(c, s->a, v, s->c);
            pc_py_flush_stmt(c, false);
        }
        break;
    case PY_AUGASSIGN: {
        /* x += e is x = x + e (pypto tensors have no in-place operators) */
        pc_py_begin_stmt(c, s);
        pc_py_node bin = pc_py_augassign_binop(s);
        pc_py_val v = pc_py_eval(c, &bin);
        pc_py_assign(c, s->a, v, s->b);
        pc_py_flush_stmt(c, false);
        break;
    }
    case PY_FOR: {
        const char *q = s->b && s->b->kind == PY_CALL ? pc_py_qualname(c, s->b->a) : NULL;
        if (pc_py_is_api(q, "loop"))
            walk_pypto_loop(c, s, false);
        else if (pc_py_is_api(q, "loop_unroll"))
            walk_pypto_loop(c, s, true);
        else
            walk_host_for(c, s);
        break;
    }
    case PY_WHILE:
        walk_while(c, s);
        break;
    case PY_IF:
        walk_if(c, s);
        break;
    case PY_WITH:
        walk_with(c, s);
        break;
    case PY_TRY:
        /* trace-time error handling: the body is what runs */
        pc_py_walk_body(c, &s->list1);
        break;
    case PY_RETURN:
        pc_py_begin_stmt(c, s);
        if (s->a) {
            pc_py_val v = pc_py_eval(c, s->a);
            if (c->return_val)
                *c->return_val = v;
            else
                mark_outputs(c, &v, s->a);
        }
        pc_py_flush_stmt(c, false);
        c->returned = true;
        break;
    case PY_FUNCDEF:
        pc_py_bind_def(c, s);
        break;
    case PY_IMPORT:
    case PY_IMPORTFROM:
        bind_import(c, s);
        break;
    case PY_OTHER_STMT:
        if (strcmp(s->name, "Match") == 0) {
            pc_kernel *k = pc_py_kernel(c);
            int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_UNANALYSED, pc_py_loc(c, s));
            k->stmts[sid].has_op = false;
            k->stmts[sid].message = "'match' statement in a kernel is not modelled";
            pc_py_block_append(c, sid);
        }
        /* assert, raise, del, global: trace-time checks, no tensor work */
        break;
    default:
        /* pass, break, continue, class definitions: nothing for the pools */
        break;
    }
}

void pc_py_walk_body(pc_py_ctx *c, const pc_py_list *body)
{
    for (int i = 0; i < body->count && !c->returned; i++)
        if (body->items[i])
            walk_stmt(c, body->items[i]);
}
