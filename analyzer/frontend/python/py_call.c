/*
 * py_call.c - calls in a kernel body: their arguments (evaluated, starred sequences expanded), and
 * what a call is: a pypto API call (an op, a tensor creation, a view, a loop object, a no-op), a
 * Python builtin (len, range, min, max, int, ...), a method of a tensor, printing or logging, a
 * helper of this file or of an imported project module (inlined, py_stmt.c), or a call poolcheck
 * cannot see into (PC012, its tensor arguments read).
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* ---- call arguments ------------------------------------------------------------------------- */

const pc_py_node *pc_py_kwarg(const pc_py_node *call, const char *name)
{
    if (!call || call->kind != PY_CALL)
        return NULL;
    for (int i = 0; i < call->list2.count; i++) {
        const pc_py_node *kw = call->list2.items[i];
        if (kw && kw->name && strcmp(kw->name, name) == 0)
            return kw->a;
    }
    return NULL;
}

const pc_py_node *pc_py_posarg(const pc_py_node *call, int i)
{
    if (!call || call->kind != PY_CALL || i < 0 || i >= call->list1.count)
        return NULL;
    const pc_py_node *a = call->list1.items[i];
    return a && a->kind != PY_STARRED ? a : NULL;
}


/* One more positional argument, value v written as node n (the arrays hold *cap; doubled when full). */
static void push_pos(pc_py_ctx *c, pc_py_args *a, int *cap, const pc_py_node *n, pc_py_val v)
{
    if (a->npos == *cap) {
        a->pos = pc_arena_grow(c->scratch, a->pos, (size_t)*cap, (size_t)*cap * 2, sizeof *a->pos);
        a->posnode = pc_arena_grow(c->scratch, a->posnode, (size_t)*cap, (size_t)*cap * 2, sizeof *a->posnode);
        *cap *= 2;
    }
    a->posnode[a->npos] = n;
    a->pos[a->npos++] = v;
}

static void eval_args(pc_py_ctx *c, const pc_py_node *call, pc_py_args *a)
{
    memset(a, 0, sizeof *a);
    a->call = call;
    int cap = call->list1.count + 8;
    a->pos = pc_arena_alloc(c->scratch, (size_t)cap * sizeof *a->pos);
    a->posnode = pc_arena_alloc(c->scratch, (size_t)cap * sizeof *a->posnode);
    for (int i = 0; i < call->list1.count; i++) {
        const pc_py_node *n = call->list1.items[i];
        if (!n)
            continue;
        if (n->kind == PY_STARRED) {
            pc_py_val s = pc_py_eval(c, n->a);
            if (s.kind == PV_SEQ) {
                for (int j = 0; j < s.nitems; j++)
                    push_pos(c, a, &cap, n, s.items[j]);
                continue;
            }
            push_pos(c, a, &cap, n, pc_py_unknown());
            continue;
        }
        push_pos(c, a, &cap, n, pc_py_eval(c, n));
    }
    if (call->list2.count) {
        a->kw = pc_arena_alloc(c->scratch, (size_t)call->list2.count * sizeof *a->kw);
        for (int i = 0; i < call->list2.count; i++) {
            const pc_py_node *kw = call->list2.items[i];
            a->kw[i] = kw && kw->a ? pc_py_eval(c, kw->a) : pc_py_unknown();
        }
    }
}

/* Argument by position or keyword (the Python signature order); NULL when absent. */
pc_py_val *pc_py_arg(pc_py_args *a, int pos, const char *kw)
{
    if (kw)
        for (int i = 0; i < a->call->list2.count; i++) {
            const pc_py_node *k = a->call->list2.items[i];
            if (k && k->name && strcmp(k->name, kw) == 0)
                return &a->kw[i];
        }
    if (pos >= 0 && pos < a->npos)
        return &a->pos[pos];
    return NULL;
}

const pc_py_node *pc_py_arg_node(pc_py_args *a, int pos, const char *kw)
{
    const pc_py_node *n = kw ? pc_py_kwarg(a->call, kw) : NULL;
    if (n)
        return n;
    if (pos >= 0 && pos < a->npos)
        return a->posnode[pos];
    return a->call;
}

int pc_py_arg_truth(pc_py_ctx *c, pc_py_args *a, int pos, const char *kw)
{
    pc_py_val *v = pc_py_arg(a, pos, kw);
    return v ? pc_py_truth(c, v) : 0;
}


/* ---- calls ---------------------------------------------------------------------------------- */


/* A call poolcheck cannot see into: record the reads of its tensor arguments (so their liveness
 * is right) and say what was skipped (PC012). */
static pc_py_val opaque_call(pc_py_ctx *c, const char *what, pc_py_args *a, const pc_py_node *call)
{
    bool tensors = false;
    for (int i = 0; i < a->npos; i++)
        if (pc_py_tensorish(&a->pos[i]) || (a->pos[i].kind == PV_SEQ)) {
            pc_py_read_operand(c, &a->pos[i], PC_UNIT_VECTOR, a->posnode[i]);
            tensors |= pc_py_tensorish(&a->pos[i]);
        }
    for (int i = 0; i < call->list2.count; i++)
        if (pc_py_tensorish(&a->kw[i])) {
            pc_py_read_operand(c, &a->kw[i], PC_UNIT_VECTOR, call->list2.items[i]);
            tensors = true;
        }
    if (tensors && pc_py_in_kernel(c)) {
        char *msg = pc_arena_printf(c->scratch,
                                    "call to '%s' with tensor arguments: it is neither a pypto op nor a "
                                    "function defined in this file, so its writes and results are not modelled",
                                    what);
        pc_py_unanalysed(c, call, msg);
    }
    return pc_py_unknown();
}

static pc_py_val call_builtin(pc_py_ctx *c, const char *q, pc_py_args *a, const pc_py_node *call)
{
    pc_arena *ar = pc_py_marena(c);
    int64_t x;
    if (strcmp(q, "range") == 0) {
        /* range(n) over a name poolcheck cannot evaluate: the symbol n (bindable) */
        for (int i = 0; i < a->npos; i++)
            if (a->pos[i].kind == PV_UNKNOWN && a->posnode[i] && a->posnode[i]->kind == PY_NAME)
                a->pos[i] = pc_py_sym_val(c, a->posnode[i]->name);
        pc_py_val v = pc_py_mkval(PV_RANGE);
        v.items = pc_arena_alloc(c->scratch, 3 * sizeof *v.items);
        v.nitems = 3;
        if (a->npos == 1) {
            v.items[0] = pc_py_int(c, 0);
            v.items[1] = a->pos[0];
            v.items[2] = pc_py_int(c, 1);
        } else if (a->npos >= 2) {
            v.items[0] = a->pos[0];
            v.items[1] = a->pos[1];
            v.items[2] = a->npos >= 3 ? a->pos[2] : pc_py_int(c, 1);
        } else {
            return pc_py_unknown();
        }
        return v;
    }
    if ((strcmp(q, "min") == 0 || strcmp(q, "max") == 0) && a->npos >= 1) {
        pc_py_val *items = a->pos;
        int n = a->npos;
        if (n == 1 && a->pos[0].kind == PV_SEQ) {
            items = a->pos[0].items;
            n = a->pos[0].nitems;
        }
        const pc_expr *acc = NULL;
        for (int i = 0; i < n; i++) {
            const pc_expr *e = pc_py_as_expr(&items[i]);
            if (!e)
                return pc_py_unknown();
            acc = acc ? pc_expr_bin(ar, q[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, acc, e) : e;
        }
        return pc_py_expr_val(acc);
    }
    if (strcmp(q, "len") == 0 && a->npos == 1) {
        if (a->pos[0].kind == PV_SEQ)
            return pc_py_int(c, a->pos[0].nitems);
        if (a->pos[0].kind == PV_SHAPE && a->pos[0].shape)
            return pc_py_int(c, a->pos[0].ndims);
        return pc_py_unknown();
    }
    if ((strcmp(q, "int") == 0 || strcmp(q, "math.floor") == 0 || strcmp(q, "math.trunc") == 0) && a->npos == 1) {
        if (a->pos[0].kind == PV_INT)
            return a->pos[0];
        if (a->pos[0].kind == PV_BOOL)
            return pc_py_int(c, a->pos[0].i);
        if (a->pos[0].kind == PV_FLOAT && isfinite(a->pos[0].f) && fabs(a->pos[0].f) < 9e18)
            return pc_py_int(c, q[0] == 'm' && q[5] == 'f' ? (int64_t)floor(a->pos[0].f) : (int64_t)a->pos[0].f);
        if (a->pos[0].kind == PV_STR)
            return pc_py_unknown();
        return pc_py_unknown();
    }
    if (strcmp(q, "math.ceil") == 0 && a->npos == 1) {
        const pc_py_node *n = a->posnode[0];
        if (a->pos[0].kind == PV_FLOAT && isfinite(a->pos[0].f) && fabs(a->pos[0].f) < 9e18)
            return pc_py_int(c, (int64_t)ceil(a->pos[0].f));
        /* math.ceil(a / b) on integers is the ceiling division the loop bounds need */
        if (n && n->kind == PY_BINOP && n->op == PY_OP_DIV && a->pos[0].kind == PV_INT && a->pos[0].e &&
            a->pos[0].e->kind == PC_EXPR_DIV)
            return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_CEILDIV, a->pos[0].e->a, a->pos[0].e->b));
        if (a->pos[0].kind == PV_INT)
            return a->pos[0];
        return pc_py_unknown();
    }
    if (strcmp(q, "abs") == 0 && a->npos == 1 && pc_py_const_int(&a->pos[0], &x))
        return pc_py_int(c, x < 0 ? -x : x);
    if (strcmp(q, "float") == 0 && a->npos == 1) {
        pc_py_val v = pc_py_mkval(PV_FLOAT);
        if (pc_py_const_int(&a->pos[0], &x))
            v.f = (double)x;
        else if (a->pos[0].kind == PV_FLOAT)
            v.f = a->pos[0].f;
        else
            return pc_py_unknown();
        return v;
    }
    if ((strcmp(q, "list") == 0 || strcmp(q, "tuple") == 0) && a->npos == 1 && a->pos[0].kind == PV_SEQ) {
        pc_py_val v = a->pos[0];
        v.is_list = q[0] == 'l';
        return v;
    }
    if ((strcmp(q, "list") == 0 || strcmp(q, "tuple") == 0) && a->npos == 1 && a->pos[0].kind == PV_SHAPE &&
        a->pos[0].shape) {
        pc_py_val v = pc_py_mkval(PV_SEQ);
        v.nitems = a->pos[0].ndims;
        v.items = pc_arena_alloc(c->scratch, (size_t)(v.nitems + 1) * sizeof *v.items);
        for (int i = 0; i < v.nitems; i++)
            v.items[i] = pc_py_expr_val(a->pos[0].shape[i]);
        return v;
    }
    if (strcmp(q, "print") == 0 || strcmp(q, "isinstance") == 0 || strcmp(q, "str") == 0 ||
        strcmp(q, "repr") == 0 || strncmp(q, "logging.", 8) == 0 || strncmp(q, "logger.", 7) == 0)
        return pc_py_unknown();
    return opaque_call(c, q, a, call);
}

static bool seq_has_tensor(const pc_py_val *v)
{
    for (int i = 0; i < v->nitems; i++)
        if (pc_py_tensorish(&v->items[i]) || (v->items[i].kind == PV_SEQ && seq_has_tensor(&v->items[i])))
            return true;
    return false;
}

static pc_py_val call_pypto(pc_py_ctx *c, const char *q, const pc_py_node *call)
{
    const char *leaf = pc_py_api_leaf(q);
    if (pc_py_option_call(c, call, c->kernel, pc_py_in_kernel(c)))
        return pc_py_mkval(PV_NONE);
    if (pc_py_tiles_call(c, leaf, call))
        return pc_py_mkval(PV_NONE);
    pc_py_args a;
    eval_args(c, call, &a);
    if (strcmp(leaf, "dynamic") == 0) {
        pc_py_val *n = pc_py_arg(&a, 0, "name");
        if (n && n->kind == PV_STR)
            return pc_py_sym_val(c, n->s);
        return pc_py_unknown();
    }
    if (strcmp(leaf, "tensor") == 0 || strcmp(leaf, "Tensor") == 0 || strcmp(leaf, "full") == 0 ||
        strcmp(leaf, "zeros") == 0 || strcmp(leaf, "ones") == 0)
        return pc_py_create_tensor(c, leaf, &a);
    if (strcmp(leaf, "view") == 0)
        return pc_py_make_view(c, pc_py_arg(&a, 0, "input"), pc_py_arg(&a, 1, "shape"), pc_py_arg(&a, -1, "dtype"), call);
    if (strcmp(leaf, "reshape") == 0)
        return pc_py_make_view(c, pc_py_arg(&a, 0, "input"), pc_py_arg(&a, 1, "shape"), NULL, call);
    if (strcmp(leaf, "assemble") == 0) {
        /* assemble(src, offsets, dst) or assemble([(src, offsets), ...], dst) */
        pc_py_val *first = pc_py_arg(&a, 0, "src");
        pc_py_val *dst;
        const pc_py_node *dstnode;
        pc_unit unit = PC_UNIT_NONE;
        if (first && first->kind == PV_SEQ) {
            dst = pc_py_arg(&a, 1, "dst");
            dstnode = pc_py_arg_node(&a, 1, "dst");
            for (int i = 0; i < first->nitems; i++) {
                pc_py_val *item = &first->items[i];
                pc_py_val *src = item->kind == PV_SEQ && item->nitems > 0 ? &item->items[0] : item;
                if (src->kind == PV_PENDING || src->kind == PV_CREATE)
                    unit = src->unit != PC_UNIT_NONE ? src->unit : unit;
                else
                    pc_py_read_operand(c, src, PC_UNIT_NONE, a.posnode[0]);
            }
        } else {
            dst = pc_py_arg(&a, 2, "dst");
            dstnode = pc_py_arg_node(&a, 2, "dst");
            if (first && (first->kind == PV_PENDING || first->kind == PV_CREATE))
                unit = first->unit;
            else if (first)
                pc_py_read_operand(c, first, PC_UNIT_NONE, pc_py_arg_node(&a, 0, "src"));
        }
        if (dst && dst->kind == PV_TENSOR)
            pc_py_access(c, dst->tensor, PC_ACC_WRITE_ASSEMBLE, unit, dstnode);
        else if (dst && dst->kind == PV_VIEW)
            pc_py_access(c, dst->tensor, PC_ACC_WRITE_ASSEMBLE, unit, dstnode);
        return pc_py_mkval(PV_NONE);
    }
    if (strcmp(leaf, "cond") == 0 || strcmp(leaf, "is_loop_begin") == 0 || strcmp(leaf, "is_loop_end") == 0)
        return pc_py_unknown(); /* decided on the device: a dynamic branch */
    if (strncmp(leaf, "set_", 4) == 0 || strncmp(leaf, "get_", 4) == 0 || strcmp(leaf, "options") == 0 ||
        strcmp(leaf, "nop") == 0)
        return pc_py_mkval(PV_NONE); /* tile shapes, pass and codegen options: no tensor work */
    if (leaf[0] && leaf[strlen(leaf) - 1] == '_' && a.npos > 0 && pc_py_tensorish(&a.pos[0])) {
        /* in-place ops (index_put_, index_add_, ...): element writes into their first argument */
        for (int i = 1; i < a.npos; i++)
            pc_py_read_operand(c, &a.pos[i], PC_UNIT_VECTOR, a.posnode[i]);
        if (a.pos[0].kind == PV_TENSOR || a.pos[0].kind == PV_VIEW)
            pc_py_access(c, a.pos[0].tensor, PC_ACC_WRITE_ELEMENT, PC_UNIT_VECTOR, a.posnode[0]);
        return pc_py_mkval(PV_NONE);
    }
    bool tensors = false;
    for (int i = 0; i < a.npos; i++)
        tensors |= pc_py_tensorish(&a.pos[i]) || (a.pos[i].kind == PV_SEQ && seq_has_tensor(&a.pos[i]));
    for (int i = 0; i < call->list2.count; i++)
        tensors |= pc_py_tensorish(&a.kw[i]);
    const pc_op_info *op = pc_py_find_op(leaf);
    if (!tensors) {
        /* pypto.min / pypto.max on SymbolicScalars (loop bounds, valid shapes) */
        if (strcmp(leaf, "min") == 0 || strcmp(leaf, "max") == 0)
            return call_builtin(c, leaf, &a, call);
        /* a creation from scalars (pypto.arange: upstream's Range, a vector op) is still an op */
        if (!op || op->cls != PC_OPC_CREATION)
            return pc_py_unknown();
    }
    if (op)
        return pc_py_apply_op(c, op, &a, call);
    /* An op poolcheck has no shape rule for: vector work with an unknown result shape. */
    if (pc_py_in_kernel(c))
        pc_py_note_check(c, "PC013", call, "'%s': result shape not inferred (not in poolcheck's op table)", q);
    return pc_py_apply_op(c, NULL, &a, call);
}

/* x.method(...) on a tensor value. */
static pc_py_val call_method(pc_py_ctx *c, pc_py_val *self, const char *method, const pc_py_node *call)
{
    pc_py_args a;
    eval_args(c, call, &a);
    /* self becomes positional argument 0 */
    pc_py_args b = a;
    b.pos = pc_arena_alloc(c->scratch, (size_t)(a.npos + 1) * sizeof *b.pos);
    b.posnode = pc_arena_alloc(c->scratch, (size_t)(a.npos + 1) * sizeof *b.posnode);
    b.pos[0] = *self;
    b.posnode[0] = call->a ? call->a->a : call;
    for (int i = 0; i < a.npos; i++) {
        b.pos[i + 1] = a.pos[i];
        b.posnode[i + 1] = a.posnode[i];
    }
    b.npos = a.npos + 1;
    const pc_op_info *op = pc_py_find_op(method);
    if (op && (op->shape == PC_OPSHAPE_MOVE || op->shape == PC_OPSHAPE_ASSEMBLE)) {
        /* t.move(e): a whole write of t (Tensor.Move); t.assemble(e, offsets): a write of part of
         * t, pypto.assemble(e, offsets, t) (tensor.py's Tensor.assemble) */
        pc_py_val *src = a.npos > 0 ? &a.pos[0] : NULL;
        pc_unit unit = PC_UNIT_NONE;
        if (src && (src->kind == PV_PENDING || src->kind == PV_CREATE))
            unit = src->unit;
        else if (src)
            pc_py_read_operand(c, src, PC_UNIT_NONE, a.posnode[0]);
        pc_access_kind kind = op->shape == PC_OPSHAPE_MOVE ? PC_ACC_WRITE_WHOLE : PC_ACC_WRITE_ASSEMBLE;
        if (self->kind == PV_TENSOR || self->kind == PV_VIEW)
            pc_py_access(c, self->tensor, kind, unit, call->a->a);
        return pc_py_mkval(PV_NONE);
    }
    if (strcmp(method, "set_cache_policy") == 0 || strcmp(method, "get_cache_policy") == 0 ||
        strcmp(method, "is_empty") == 0)
        return pc_py_mkval(PV_NONE); /* Tensor metadata (tensor.py): no tensor work */
    if (strcmp(method, "view") == 0)
        return pc_py_make_view(c, self, pc_py_arg(&a, 0, "shape"), pc_py_arg(&a, -1, "dtype"), call);
    if (strcmp(method, "reshape") == 0) {
        pc_py_val *shape = pc_py_arg(&a, 0, "shape");
        if (shape && a.npos > 1) { /* x.reshape(a, b) */
            pc_py_val *seq = pc_arena_alloc(c->scratch, sizeof *seq);
            *seq = pc_py_mkval(PV_SEQ);
            seq->items = a.pos;
            seq->nitems = a.npos;
            shape = seq;
        }
        return pc_py_make_view(c, self, shape, NULL, call);
    }
    if (strcmp(method, "size") == 0 || strcmp(method, "dim") == 0) {
        const pc_expr **s;
        int n;
        pc_dtype dt;
        pc_py_tensor_shape(c, self, (const pc_expr ***)&s, &n, &dt);
        int64_t d;
        if (strcmp(method, "dim") == 0)
            return s ? pc_py_int(c, n) : pc_py_unknown();
        if (a.npos == 1 && pc_py_const_int(&a.pos[0], &d) && s && pc_py_norm_dim(d, n) >= 0)
            return pc_py_expr_val(s[pc_py_norm_dim(d, n)]);
        return pc_py_unknown();
    }
    if (op)
        return pc_py_apply_op(c, op, &b, call);
    if (method[0] && method[strlen(method) - 1] == '_') {
        for (int i = 0; i < a.npos; i++)
            pc_py_read_operand(c, &a.pos[i], PC_UNIT_VECTOR, a.posnode[i]);
        if (self->kind == PV_TENSOR || self->kind == PV_VIEW)
            pc_py_access(c, self->tensor, PC_ACC_WRITE_ELEMENT, PC_UNIT_VECTOR, call->a->a);
        return pc_py_mkval(PV_NONE);
    }
    char *what = pc_arena_printf(c->scratch, "Tensor.%s", method);
    return opaque_call(c, what, &b, call);
}

/* Calls that only print or log at trace time. */
static bool is_no_op_call(const char *q)
{
    static const char *const exact[] = {"print", "breakpoint", "warnings.warn", "pprint", "pprint.pprint"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcmp(q, exact[i]) == 0)
            return true;
    static const char *const prefix[] = {"logging.", "logger.", "log.", "LOGGER.", "LOG.", "_logger.", "self.logger."};
    for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
        if (strncmp(q, prefix[i], strlen(prefix[i])) == 0)
            return true;
    return false;
}

pc_py_val pc_py_eval_call(pc_py_ctx *c, const pc_py_node *n)
{
    const pc_py_node *fn = n->a;
    const char *q = pc_py_qualname(c, fn);
    if (q && strncmp(q, "pypto.", 6) == 0)
        return call_pypto(c, q, n);
    if (q && pc_py_in_kernel(c)) {
        /* a helper of another module of the project (read from its source, never run) */
        pc_py_val *fv = pc_py_foreign(c, q, n);
        if (fv && fv->kind == PV_FUNC)
            return pc_py_inline_call(c, fv, n);
    }
    if (q && is_no_op_call(q)) {
        /* printing and logging: no operation, and their arguments (f-strings) are not work */
        return pc_py_mkval(PV_NONE);
    }
    if (q) {
        pc_py_args a;
        eval_args(c, n, &a);
        return call_builtin(c, q, &a, n);
    }
    if (fn && fn->kind == PY_ATTRIBUTE) {
        pc_py_val self = pc_py_eval(c, fn->a);
        if (pc_py_tensorish(&self))
            return call_method(c, &self, fn->name, n);
        if (self.kind == PV_SHAPE || self.kind == PV_SEQ) {
            pc_py_args a;
            eval_args(c, n, &a);
            return pc_py_unknown();
        }
        if ((self.kind == PV_INT || self.kind == PV_BOOL) &&
            (strcmp(fn->name, "as_variable") == 0 || strcmp(fn->name, "item") == 0) && n->list1.count == 0)
            return self; /* SymbolicScalar.as_variable(): still the same scalar */
        if (self.kind == PV_INT && (strcmp(fn->name, "min") == 0 || strcmp(fn->name, "max") == 0)) {
            /* SymbolicScalar.min(x) / .max(x): valid shapes of the last, partial tile */
            pc_py_args a;
            eval_args(c, n, &a);
            const pc_expr *o = a.npos == 1 ? pc_py_as_expr(&a.pos[0]) : NULL;
            if (!o)
                return pc_py_unknown();
            return pc_py_expr_val(pc_expr_bin(pc_py_marena(c), fn->name[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, self.e, o));
        }
        pc_py_args a;
        eval_args(c, n, &a);
        return opaque_call(c, fn->name, &a, n);
    }
    pc_py_val f = pc_py_eval(c, fn);
    if (f.kind == PV_FUNC)
        return pc_py_inline_call(c, &f, n);
    pc_py_args a;
    eval_args(c, n, &a);
    return opaque_call(c, "<expression>", &a, n);
}
