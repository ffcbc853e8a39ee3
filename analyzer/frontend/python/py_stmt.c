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

#include <string.h>

enum {
    MAX_UNROLL_TRIP = 64,        /* compile-time loops up to this many iterations are unrolled */
    MAX_UNROLL_TOTAL = 4096,     /* and at most this many unrolled iterations per kernel */
    MAX_INLINE_DEPTH = 32,
    MAX_INLINE_TOTAL = 20000     /* helper bodies inlined per kernel */
};

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
    const pc_py_node *single[1] = {key};
    const pc_py_node *const *elems = single;
    int n = 1;
    if (key && key->kind == PY_TUPLE) {
        elems = (const pc_py_node *const *)key->list1.items;
        n = key->list1.count;
    }
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
}

void pc_py_assign(pc_py_ctx *c, const pc_py_node *target, pc_py_val v, const pc_py_node *value_node)
{
    if (!target)
        return;
    switch (target->kind) {
    case PY_NAME:
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
    const char *saved_file = c->file;
    pc_py_source *saved_src = c->src;
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
    pc_py_pending_access *acc = c->acc;
    int nacc = c->nacc, capacc = c->capacc;
    int *defined = c->defined;
    int ndefined = c->ndefined, capdefined = c->capdefined;
    uint32_t sl = c->stmt_line, sc = c->stmt_col, sel = c->stmt_end_line, sec = c->stmt_end_col;
    pc_py_frame *saved_frame = c->frame;
    pc_py_val *saved_ret = c->return_val;
    c->acc = NULL;
    c->nacc = c->capacc = 0;
    c->defined = NULL;
    c->ndefined = c->capdefined = 0;
    c->frame = frame;
    pc_py_val ret = pc_py_unknown();
    ret.kind = PV_NONE;
    c->return_val = &ret;
    c->returned = false;
    c->inline_stack[c->inline_depth++] = def;

    pc_py_walk_body(c, &def->list2);

    c->inline_depth--;
    c->file = saved_file;
    c->src = saved_src;
    c->returned = false;
    c->return_val = saved_ret;
    c->frame = saved_frame;
    c->acc = acc;
    c->nacc = nacc;
    c->capacc = capacc;
    c->defined = defined;
    c->ndefined = ndefined;
    c->capdefined = capdefined;
    c->stmt_line = sl;
    c->stmt_col = sc;
    c->stmt_end_line = sel;
    c->stmt_end_col = sec;
    if (c->ninlined == c->capinlined) {
        int ncap = c->capinlined ? c->capinlined * 2 : 8;
        c->inlined = pc_arena_grow(c->scratch, c->inlined, (size_t)c->ninlined, (size_t)ncap, sizeof *c->inlined);
        c->capinlined = ncap;
    }
    c->inlined[c->ninlined++] = def;
    return ret;
}

/* ---- loops ---------------------------------------------------------------------------------- */

static const pc_expr *bound_expr(pc_py_ctx *c, const pc_py_node *n, pc_py_val *v)
{
    const pc_expr *e = pc_py_as_expr(v);
    if (e)
        return e;
    if (v->kind == PV_BOOL)
        return pc_expr_int(pc_model_arena(c->m), v->i);
    /* Not an integer poolcheck can follow: its spelling becomes a symbol the user can bind. */
    const char *text = pc_py_source_text(c->src, n->line, n->col, n->end_line, n->end_col);
    pc_py_message(c, PC_MSG_NOTE, n, "loop bound '%s' is not an integer expression poolcheck can evaluate; "
                  "bind it with --bind '%s=N'", text, text);
    return pc_expr_sym(pc_model_arena(c->m), text);
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
    const pc_expr *begin = pc_expr_int(ar, 0), *end = NULL, *step = pc_expr_int(ar, 1);
    if (npos == 1) {
        end = bound_expr(c, posn[0], &posv[0]);
    } else if (npos >= 2) {
        begin = bound_expr(c, posn[0], &posv[0]);
        end = bound_expr(c, posn[1], &posv[1]);
        if (npos == 3)
            step = bound_expr(c, posn[2], &posv[2]);
    }
    pc_py_val kv;
    if (kstart) {
        kv = pc_py_eval(c, kstart);
        begin = bound_expr(c, kstart, &kv);
    }
    if (kstop) {
        kv = pc_py_eval(c, kstop);
        end = bound_expr(c, kstop, &kv);
    }
    if (kstep) {
        kv = pc_py_eval(c, kstep);
        step = bound_expr(c, kstep, &kv);
    }
    if (!end) {
        pc_py_message(c, PC_MSG_WARNING, call, "loop without a stop value: taken as 1 iteration");
        end = pc_expr_bin(ar, PC_EXPR_ADD, begin, pc_expr_int(ar, 1));
    }

    const char *name = NULL;
    const pc_py_node *kn = pc_py_kwarg(call, "name");
    if (kn) {
        pc_py_val nv = pc_py_eval(c, kn);
        if (nv.kind == PV_STR)
            name = nv.s;
    }
    if (!name)
        name = pc_arena_printf(c->scratch, "loop_%u", s->line);

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
    int nulist = 0;
    const pc_py_node *ku = pc_py_kwarg(call, "unroll_list");
    if (ku) {
        pc_py_val uv = pc_py_eval(c, ku);
        if (uv.kind == PV_SEQ) {
            ulist = pc_arena_alloc(ar, (size_t)(uv.nitems + 1) * sizeof *ulist);
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
    int lid = pc_kernel_add_loop(c->m, k, name, kw);
    pc_loc header = pc_model_loc(c->m, c->file, s->line, s->col, call->end_line, call->end_col);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_LOOP, header);
    k = pc_py_kernel(c);
    pc_loop *l = &k->loops[lid];
    l->index_var = pc_model_strdup(c->m, index ? index : "");
    l->factor_var = factor ? pc_model_strdup(c->m, factor) : NULL;
    l->begin = begin;
    l->end = end;
    l->step = step;
    l->unroll = ulist;
    l->nunroll = nulist;
    l->submit_before_loop = submit;
    l->parallel = parallel;
    l->parent = c->loop;
    l->stmt = sid;
    l->header = header;
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
    pc_py_walk_body(c, &s->list1);
    c->block = saved_block;
    c->loop = saved_loop;
    if (s->list2.count && !c->returned)
        pc_py_walk_body(c, &s->list2);
}

/* A plain Python `for` inside a kernel runs at trace time: its body belongs to the enclosing root
 * function (model.md 2).  With a small constant trip count every iteration is emitted with the loop
 * variable bound, exactly what the trace does.  Otherwise the body is emitted once with the
 * variable as a symbol: the pools the body needs are the same for every iteration, only the
 * root_inner byte sum of one instance is under-counted, and that is said (PC012). */
static void walk_host_for(pc_py_ctx *c, const pc_py_node *s)
{
    pc_py_begin_stmt(c, s);
    pc_py_val it = pc_py_eval(c, s->b);
    pc_py_flush_stmt(c, false);
    int64_t b, e, st;
    if (it.kind == PV_RANGE && pc_expr_is_int(pc_py_as_expr(&it.items[0]), &b) &&
        pc_expr_is_int(pc_py_as_expr(&it.items[1]), &e) && pc_expr_is_int(pc_py_as_expr(&it.items[2]), &st) &&
        st != 0) {
        int64_t trips = st > 0 ? (e > b ? (e - b + st - 1) / st : 0) : (b > e ? (b - e + (-st) - 1) / (-st) : 0);
        if (trips <= MAX_UNROLL_TRIP && c->nfor_unrolled + trips <= MAX_UNROLL_TOTAL) {
            c->nfor_unrolled += (int)trips;
            for (int64_t i = 0; i < trips && !c->returned; i++) {
                pc_py_assign(c, s->a, pc_py_int(c, b + i * st), NULL);
                pc_py_walk_body(c, &s->list1);
            }
            if (!c->returned)
                pc_py_walk_body(c, &s->list2);
            return;
        }
    }
    if (it.kind == PV_SEQ && it.nitems <= MAX_UNROLL_TRIP && c->nfor_unrolled + it.nitems <= MAX_UNROLL_TOTAL) {
        c->nfor_unrolled += it.nitems;
        for (int i = 0; i < it.nitems && !c->returned; i++) {
            pc_py_assign(c, s->a, it.items[i], NULL);
            pc_py_walk_body(c, &s->list1);
        }
        if (!c->returned)
            pc_py_walk_body(c, &s->list2);
        return;
    }
    const char *iter = pc_py_source_text(c->src, s->b->line, s->b->col, s->b->end_line, s->b->end_col);
    char *msg = pc_arena_printf(c->scratch,
                                "compile-time loop 'for ... in %s' is not unrolled (trip count not a small "
                                "constant): its body is modelled once, so root_inner bytes may be low",
                                iter);
    pc_kernel *k = pc_py_kernel(c);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_UNANALYSED, pc_py_loc(c, s));
    k->stmts[sid].has_op = false;
    k->stmts[sid].message = pc_model_strdup(c->m, msg);
    pc_py_block_append(c, sid);
    if (s->a && s->a->kind == PY_NAME)
        pc_py_assign(c, s->a, sym(c, s->a->name), NULL);
    else
        pc_py_assign(c, s->a, pc_py_unknown(), NULL);
    pc_py_walk_body(c, &s->list1);
}

/* ---- branches ------------------------------------------------------------------------------- */

static int eval_test(pc_py_ctx *c, const pc_py_node *test)
{
    pc_py_begin_stmt(c, test);
    pc_py_val v = pc_py_eval(c, test);
    pc_py_flush_stmt(c, false);
    return pc_py_truth(c, &v);
}

static void walk_branch(pc_py_ctx *c, int sid, const pc_py_list *body, pc_loc loc)
{
    pc_kernel *k = pc_py_kernel(c);
    pc_stmt_add_branch(c->m, &k->stmts[sid], loc);
    int bi = pc_py_kernel(c)->stmts[sid].nbranches - 1;
    pc_py_blockref saved = c->block;
    c->block.stmt = sid;
    c->block.branch = bi;
    c->block.loop = -1;
    pc_py_walk_body(c, body);
    c->block = saved;
}

/* `if` on a value known at trace time takes one branch; otherwise (pypto.cond, is_loop_begin /
 * is_loop_end, a comparison on a loop index or a dynamic dim) it is a device-side branch: one
 * PC_STMT_IF whose branches are the paths (elif chains flattened, a missing else is an empty path). */
static void walk_if(pc_py_ctx *c, const pc_py_node *s)
{
    int t = eval_test(c, s->a);
    if (t == 1) {
        pc_py_walk_body(c, &s->list1);
        return;
    }
    if (t == 0) {
        pc_py_walk_body(c, &s->list2);
        return;
    }
    pc_kernel *k = pc_py_kernel(c);
    pc_loc head = pc_model_loc(c->m, c->file, s->line, s->col, s->a->end_line, s->a->end_col);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_IF, head);
    pc_py_kernel(c)->stmts[sid].has_op = false;
    pc_py_block_append(c, sid);
    const pc_py_node *cur = s;
    for (;;) {
        walk_branch(c, sid, &cur->list1, pc_py_loc(c, cur->a));
        const pc_py_list *rest = &cur->list2;
        const pc_py_node *next = NULL;
        while (rest->count == 1 && rest->items[0] && rest->items[0]->kind == PY_IF) {
            const pc_py_node *e = rest->items[0];
            int te = eval_test(c, e->a);
            if (te < 0) {
                next = e;
                break;
            }
            rest = te == 1 ? &e->list1 : &e->list2;
        }
        if (next) {
            cur = next;
            continue;
        }
        pc_loc eloc = rest->count && rest->items[0] ? pc_py_loc(c, rest->items[0]) : head;
        walk_branch(c, sid, rest, eloc);
        break;
    }
}

/* ---- statements ----------------------------------------------------------------------------- */

static void walk_with(pc_py_ctx *c, const pc_py_node *s)
{
    pc_py_begin_stmt(c, s);
    for (int i = 0; i < s->list1.count; i++) {
        const pc_py_node *item = s->list1.items[i];
        if (!item || !item->a)
            continue;
        const char *q = item->a->kind == PY_CALL ? pc_py_qualname(c, item->a->a) : NULL;
        if (pc_py_is_api(q, "options")) {
            (void)pc_py_option_call(c, item->a, c->kernel, true);
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
    case PY_WHILE: {
        pc_kernel *k = pc_py_kernel(c);
        int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_UNANALYSED, pc_py_loc(c, s));
        k->stmts[sid].has_op = false;
        k->stmts[sid].message = "compile-time 'while' loop: its body is modelled once";
        pc_py_block_append(c, sid);
        (void)eval_test(c, s->a);
        pc_py_walk_body(c, &s->list1);
        break;
    }
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
    case PY_FUNCDEF: {
        pc_py_val f = pc_py_unknown();
        f.kind = PV_FUNC;
        f.node = s;
        f.frame = c->frame;
        pc_py_bind(c, c->frame, s->name, f);
        break;
    }
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
