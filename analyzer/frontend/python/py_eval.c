/*
 * py_eval.c - evaluating kernel expressions: names, attributes, subscripts (views, scalar reads,
 * gathers), operators on integers and on tensors, and the dispatch of every expression kind.
 *
 * Evaluation is symbolic "tracing": what upstream's jit parser does when it runs the kernel body
 * on SymbolicScalars, restricted to what the pool analysis needs.  Values are py_value.c's, op
 * results py_ops.c's, calls py_call.c's; what is recorded in the model goes through py_build.c.
 *
 * Outside a kernel (module constants, host code around legacy kernels) the same evaluator runs in
 * host mode: c->kernel < 0, nothing is recorded, tensors stay as descriptions.
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* ---- operators ------------------------------------------------------------------------------ */

/* Op d on the n operand values vals (written as nodes), as if they were a call's positional
 * arguments: an operator (`a + b`) or attribute (`x.T`) that is an op without a call of its own. */
static pc_py_val apply_op_to(pc_py_ctx *c, const pc_op_info *d, pc_py_val *vals, const pc_py_node **nodes, int n,
                             const pc_py_node *at)
{
    pc_py_args a;
    memset(&a, 0, sizeof a);
    pc_py_node no_call;
    memset(&no_call, 0, sizeof no_call);
    no_call.kind = PY_CALL;
    a.call = &no_call;
    a.pos = vals;
    a.posnode = nodes;
    a.npos = n;
    return pc_py_apply_op(c, d, &a, at);
}

/* The bounds on one value: a string, an integer expression.  Far above anything a kernel
 * needs (names, shapes), far below what exhausts memory or time. */
#define PY_MAX_STR ((size_t)1 << 20)
#define PY_MAX_STR_TEXT "1 MiB"
#define PY_MAX_EXPR 4096
#define PY_MAX_EXPR_TEXT "4096"

/* Nodes of e counted as a tree, stopping at budget (the tree of a shared DAG can be exponential). */
static int64_t expr_size(const pc_expr *e, int64_t budget)
{
    if (!e || budget <= 0)
        return 0;
    int64_t n = 1;
    n += expr_size(e->a, budget - n);
    n += expr_size(e->b, budget - n);
    return n;
}

/* A value past the bounds: a note naming the expression, which then is unknown. */
static void too_big(pc_py_ctx *c, const pc_py_node *at, const char *what)
{
    if (!at)
        return;
    const char *text = pc_py_source_text(c->src, at->line, at->col, at->end_line, at->end_col);
    size_t n = text ? strlen(text) : 0;
    pc_py_message(c, PC_MSG_NOTE, at, "the value of '%.*s%s' %s: poolcheck treats it as unknown",
                  (int)(n > 60 ? 60 : n), text ? text : "", n > 60 ? "..." : "", what);
}

static pc_py_val binop(pc_py_ctx *c, pc_py_op op, pc_py_val *l, pc_py_val *r, const pc_py_node *ln,
                       const pc_py_node *rn, const pc_py_node *at)
{
    pc_arena *ar = pc_py_marena(c);
    if (pc_py_tensorish(l) || pc_py_tensorish(r)) {
        /* tensor arithmetic: `a + b`, `x * 2.0`, `a @ b` */
        pc_py_val vals[2] = {*l, *r};
        const pc_py_node *nodes[2] = {ln, rn};
        /* the rows of the ops the operators stand for: elementwise (add's), BOOL (eq's), matmul */
        /* (sub, mul and div by name: the lowering of docs/model.md section 4 tells them apart) */
        const char *row = op == PY_OP_MATMUL ? "matmul" : (op >= PY_OP_EQ && op <= PY_OP_GE) ? "eq"
                        : op == PY_OP_SUB ? "sub" : op == PY_OP_MUL ? "mul" : op == PY_OP_DIV ? "div" : "add";
        return apply_op_to(c, pc_py_find_op(row), vals, nodes, 2, at);
    }
    int64_t x, y;
    bool lx = pc_py_const_int(l, &x), ry = pc_py_const_int(r, &y);
    if ((l->kind == PV_FLOAT || r->kind == PV_FLOAT || (op == PY_OP_DIV && lx && ry)) &&
        (l->kind == PV_FLOAT || lx) && (r->kind == PV_FLOAT || ry)) {
        double a = l->kind == PV_FLOAT ? l->f : (double)x, b = r->kind == PV_FLOAT ? r->f : (double)y;
        pc_py_val v = pc_py_mkval(PV_FLOAT);
        switch (op) {
        case PY_OP_ADD: v.f = a + b; break;
        case PY_OP_SUB: v.f = a - b; break;
        case PY_OP_MUL: v.f = a * b; break;
        case PY_OP_DIV: if (b == 0) return pc_py_unknown(); v.f = a / b; break;
        case PY_OP_POW: v.f = pow(a, b); break;
        case PY_OP_FLOORDIV: if (b == 0) return pc_py_unknown(); v.f = floor(a / b); break;
        default: return pc_py_unknown();
        }
        return v;
    }
    if (l->kind == PV_STR && r->kind == PV_STR && op == PY_OP_ADD) {
        /* `S1 = S0 + S0` doubling 60 times would want 2^60 bytes: past the bound the value is
         * unknown (no kernel name or option is that long) */
        size_t nl = strlen(l->s), nr = strlen(r->s);
        if (nl + nr > PY_MAX_STR) {
            too_big(c, at, "is a string of more than " PY_MAX_STR_TEXT);
            return pc_py_unknown();
        }
        pc_py_val v = pc_py_mkval(PV_STR);
        v.s = pc_arena_printf(c->scratch, "%s%s", l->s, r->s);
        return v;
    }
    const pc_expr *le = l->kind == PV_BOOL ? pc_expr_int(ar, l->i) : pc_py_as_expr(l);
    const pc_expr *re = r->kind == PV_BOOL ? pc_expr_int(ar, r->i) : pc_py_as_expr(r);
    if (!le || !re)
        return pc_py_unknown();
    int64_t folded;
    if (lx && ry &&
        ((op == PY_OP_ADD && __builtin_add_overflow(x, y, &folded)) ||
         (op == PY_OP_SUB && __builtin_sub_overflow(x, y, &folded)) ||
         (op == PY_OP_MUL && __builtin_mul_overflow(x, y, &folded)))) {
        /* Python would make a big integer; kept as a product of two constants it would be a tree
         * that doubles with every `C1 = C0 * C0` line */
        too_big(c, at, "is an integer past int64");
        return pc_py_unknown();
    }
    if (expr_size(le, PY_MAX_EXPR) + expr_size(re, PY_MAX_EXPR) >= PY_MAX_EXPR) {
        /* symbols squared line after line: the expression (a shared tree) would print and
         * evaluate in time exponential in the lines */
        too_big(c, at, "is an integer expression of more than " PY_MAX_EXPR_TEXT " terms");
        return pc_py_unknown();
    }
    switch (op) {
    case PY_OP_ADD: return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_ADD, le, re));
    case PY_OP_SUB: return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_SUB, le, re));
    case PY_OP_MUL: return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_MUL, le, re));
    case PY_OP_FLOORDIV:
        if (ry && y == 0)
            return pc_py_unknown();
        return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_FLOORDIV, le, re));
    case PY_OP_MOD:
        if (ry && y == 0)
            return pc_py_unknown();
        return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_MOD, le, re));
    case PY_OP_DIV:
        /* symbolic true division: kept as a division so math.ceil(a / b) can become ceil(a/b) */
        return pc_py_expr_val(pc_expr_bin(ar, PC_EXPR_DIV, le, re));
    case PY_OP_POW:
        if (lx && ry && y >= 0 && y < 64) {
            /* 10**19 does not fit: unknown, never a wrapped-around loop bound */
            int64_t p = 1;
            for (int64_t i = 0; i < y; i++)
                if (__builtin_mul_overflow(p, x, &p))
                    return pc_py_unknown();
            return pc_py_int(c, p);
        }
        return pc_py_unknown();
    case PY_OP_LSHIFT:
        /* 5 << 61 overflows: unknown */
        if (lx && ry && y >= 0 && y < 63 && x >= 0 && x <= (INT64_MAX >> y))
            return pc_py_int(c, x << y);
        return pc_py_unknown();
    case PY_OP_RSHIFT:
        if (lx && ry && y >= 0 && y < 64)
            return pc_py_int(c, x >> y);
        return pc_py_unknown();
    case PY_OP_BITAND: if (lx && ry) return pc_py_int(c, x & y); return pc_py_unknown();
    case PY_OP_BITOR: if (lx && ry) return pc_py_int(c, x | y); return pc_py_unknown();
    case PY_OP_BITXOR: if (lx && ry) return pc_py_int(c, x ^ y); return pc_py_unknown();
    default: return pc_py_unknown();
    }
}


/* ---- module constants on demand ---------------------------------------------------- */

/* The names an expression reads (it was made lazy, so it is shallow and has no call). */
static void collect_names(pc_py_ctx *c, const pc_py_node *n, const pc_py_node ***out, int *count, int *cap)
{
    if (!n)
        return;
    if (n->kind == PY_NAME) {
        *out = pc_py_room_for_one(c, *out, *count, cap, 8, sizeof **out);
        (*out)[(*count)++] = n;
        return;
    }
    collect_names(c, n->a, out, count, cap);
    collect_names(c, n->b, out, count, cap);
    collect_names(c, n->c, out, count, cap);
    for (int i = 0; i < n->list1.count; i++)
        collect_names(c, n->list1.items[i], out, count, cap);
    for (int i = 0; i < n->list2.count; i++)
        collect_names(c, n->list2.items[i], out, count, cap);
}

/* One constant being evaluated: the names its value reads, and how many were seen to. */
typedef struct lazy_job {
    pc_py_frame *frame;
    const pc_py_node *stmt;
    const pc_py_node **names;
    int nnames, next;
} lazy_job;

/* Evaluate the statement of one constant in its module, as pass 1 would have: host mode, the
 * module's file for messages, the statement's position. */
static void run_lazy(pc_py_ctx *c, const lazy_job *j)
{
    pc_py_ctx saved = *c;
    pc_py_module *mod = pc_py_frame_module(j->frame);
    c->kernel = -1;
    c->frame = j->frame;
    c->owner = NULL;
    if (mod) {
        c->file = mod->path;
        c->src = mod->src;
    } else {
        c->file = c->m->file;
        c->src = c->main_src;
    }
    c->stmt_line = j->stmt->line;
    c->stmt_col = j->stmt->col;
    c->stmt_end_line = j->stmt->end_line;
    c->stmt_end_col = j->stmt->end_col;
    pc_py_suspended_stmt st = pc_py_suspend_stmt(c);
    pc_py_val v = pc_py_eval(c, j->stmt->a);
    pc_py_assign(c, j->stmt->list1.items[0], v, j->stmt->a);
    pc_py_resume_stmt(c, &st);
    /* what evaluation may have grown (messages go to the model, the module cache lives in c) is
     * kept, the position of the walk restored */
    c->kernel = saved.kernel;
    c->frame = saved.frame;
    c->owner = saved.owner;
    c->file = saved.file;
    c->src = saved.src;
    c->stmt_line = saved.stmt_line;
    c->stmt_col = saved.stmt_col;
    c->stmt_end_line = saved.stmt_end_line;
    c->stmt_end_col = saved.stmt_end_col;
}

/* A chain `V1 = V0 + 1`, `V2 = V1 + 1`, ... a hundred thousand long is evaluated with a stack
 * of its own rather than C recursion: every constant's inputs first, then the constant. */
static void force(pc_py_ctx *c, pc_py_val *b)
{
    lazy_job *stack = NULL;
    int n = 0, cap = 0;
    stack = pc_py_room_for_one(c, stack, n, &cap, 16, sizeof *stack);
    stack[n++] = (lazy_job){b->frame, b->node, NULL, 0, 0};
    b->i = 1;
    while (n) {
        lazy_job *j = &stack[n - 1];
        if (!j->names) {
            int capn = 0;
            collect_names(c, j->stmt->a, &j->names, &j->nnames, &capn);
            if (!j->names)
                j->names = (const pc_py_node **)&j->stmt; /* none: marks the job as scanned */
        }
        bool pushed = false;
        while (j->next < j->nnames && !pushed) {
            const char *name = j->names[j->next++]->name;
            pc_py_val *d = pc_py_lookup(j->frame, name);
            if (d && d->kind == PV_LAZY && d->i == 0) {
                d->i = 1;
                lazy_job nj = {d->frame, d->node, NULL, 0, 0};
                stack = pc_py_room_for_one(c, stack, n, &cap, 16, sizeof *stack);
                stack[n++] = nj;
                pushed = true;
            }
        }
        if (pushed)
            continue;
        lazy_job done = stack[--n];
        run_lazy(c, &done);
    }
}

pc_py_val *pc_py_forced(pc_py_ctx *c, pc_py_val *v)
{
    if (!v || v->kind != PV_LAZY || v->i != 0)
        return v;
    pc_py_frame *f = v->frame;
    const char *name = v->node->list1.items[0]->name;
    force(c, v);
    /* the slot may have moved: the frame's items grow in the scratch arena */
    return pc_py_lookup(f, name);
}

pc_py_val *pc_py_lookup_forced(pc_py_ctx *c, pc_py_frame *f, const char *name)
{
    return pc_py_forced(c, pc_py_lookup(f, name));
}

/* ---- expressions ---------------------------------------------------------------------------- */

/* A dotted pypto name as a value: a dtype, a dim marker, or a module/function reference. */
static pc_py_val pypto_name(const char *q)
{
    const char *leaf = pc_py_api_leaf(q);
    if (leaf) {
        pc_dtype dt;
        if (strncmp(leaf, "DT_", 3) == 0 && (dt = pc_dtype_from_name(leaf)) != PC_DT_UNKNOWN) {
            pc_py_val v = pc_py_mkval(PV_DTYPE);
            v.dtype = dt;
            return v;
        }
        if (strcmp(leaf, "DYNAMIC") == 0 || strcmp(leaf, "DYN") == 0 || strcmp(leaf, "STATIC") == 0) {
            pc_py_val v = pc_py_mkval(PV_DIMMARK);
            v.s = leaf;
            return v;
        }
    }
    pc_py_val v = pc_py_mkval(PV_MODULE);
    v.s = q;
    return v;
}

static pc_py_val eval_name(pc_py_ctx *c, const pc_py_node *n)
{
    pc_py_val *b = pc_py_lookup_forced(c, c->frame, n->name);
    if (b && b->kind == PV_LAZY)
        return pc_py_unknown(); /* a cycle (not made lazy, so not expected): what it was being evaluated from */
    if (b) {
        if (b->kind == PV_CREATE && pc_py_in_kernel(c)) {
            /* A tensor made outside the kernel (before `with pypto.function`, or at module level)
             * is one of its inputs/outputs: it becomes a parameter on first use. */
            pc_py_val host = *b;
            int id = pc_py_new_tensor(c, n->name, PC_TENSOR_PARAM, host.dtype, host.shape, host.ndims, n);
            if (host.s && *host.s)
                pc_py_kernel(c)->tensors[id].name = pc_model_strdup(c->m, host.s);
            pc_py_val t = pc_py_mkval(PV_TENSOR);
            t.tensor = id;
            pc_py_bind(c, c->frame, n->name, t);
            return t;
        }
        if (b->kind == PV_MODULE && b->s && strncmp(b->s, "pypto", 5) != 0) {
            /* `from .config import BLOCK`: the value bound in that module */
            pc_py_val *fv = pc_py_forced(c, pc_py_foreign(c, b->s, n));
            if (fv && fv->kind != PV_MODULE)
                return *fv;
        }
        return *b;
    }
    const char *q = pc_py_qualname(c, n);
    if (q && strncmp(q, "pypto.", 6) == 0)
        return pypto_name(q);
    /* An unknown name: a symbol the user can bind (--bind n=100). */
    return pc_py_sym_val(c, n->name);
}

static pc_py_val eval_attribute(pc_py_ctx *c, const pc_py_node *n)
{
    const char *q = pc_py_qualname(c, n);
    if (q && strncmp(q, "pypto", 5) != 0) {
        pc_py_val *fv = pc_py_forced(c, pc_py_foreign(c, q, n));
        if (fv && fv->kind != PV_MODULE)
            return *fv;
    }
    if (q)
        return pypto_name(q);
    pc_py_val base = pc_py_eval(c, n->a);
    if (pc_py_tensorish(&base)) {
        const pc_expr **s;
        int nd;
        pc_dtype dt;
        if (base.kind == PV_PENDING || base.kind == PV_CREATE)
            pc_py_materialise(c, &base, NULL, n->a);
        pc_py_tensor_shape(c, &base, (const pc_expr ***)&s, &nd, &dt);
        if (strcmp(n->name, "shape") == 0) {
            pc_py_val v = pc_py_mkval(PV_SHAPE);
            v.tensor = base.tensor;
            v.shape = s;
            v.ndims = s ? nd : -1;
            return v;
        }
        if (strcmp(n->name, "dtype") == 0) {
            pc_py_val v = pc_py_mkval(PV_DTYPE);
            v.dtype = dt;
            return v;
        }
        if (strcmp(n->name, "ndim") == 0 && s)
            return pc_py_int(c, nd);
        if (strcmp(n->name, "T") == 0 && s && nd >= 2) {
            pc_py_val vals[1] = {base};
            const pc_py_node *nodes[1] = {n->a};
            return apply_op_to(c, pc_py_find_op("transpose"), vals, nodes, 1, n);
        }
    }
    return pc_py_unknown();
}

/* model.md 2, "Scalars are not tensors": a tensor indexed by a scalar in every dimension is one
 * element read (upstream GetTensorData): a symbolic scalar named by its spelling
 * (`seqlens[b+1]`), no tensor, no pool.  A key holding a tensor (an index tensor, a slice whose
 * stop is a tensor) is a gather: an operation on the vector unit.  Returns false for a view. */
static bool scalar_or_gather(pc_py_ctx *c, const pc_py_node *n, pc_py_val *base, const pc_expr **shape, int nd,
                             pc_dtype dt, pc_py_val *out)
{
    const pc_py_node *key = n->b;
    const pc_py_node *one;
    const pc_py_node *const *elems;
    int count = pc_py_key_elems(key, &one, &elems);
    if (!key || count == 0)
        return false;
    bool all_scalar = true;
    pc_py_val tens[8];
    const pc_py_node *tnodes[8];
    int ntens = 0;
    const pc_expr **idx = pc_arena_alloc(c->scratch, (size_t)count * sizeof *idx);
    for (int i = 0; i < count; i++) {
        const pc_py_node *e = elems[i];
        if (!e || e->kind == PY_ELLIPSIS || e->kind == PY_NONE || e->kind == PY_STARRED) {
            all_scalar = false;
            continue;
        }
        if (e->kind == PY_SLICE) {
            all_scalar = false;
            const pc_py_node *parts[3] = {e->a, e->b, e->c};
            for (int p = 0; p < 3; p++) {
                if (!parts[p] || parts[p]->kind == PY_INT || parts[p]->kind == PY_NAME)
                    continue; /* names are looked up again by the view; constants are constants */
                pc_py_val v = pc_py_eval(c, parts[p]);
                if (pc_py_tensorish(&v) && ntens < 8) {
                    tnodes[ntens] = parts[p];
                    tens[ntens++] = v;
                }
            }
            /* a name bound to a tensor as a bound */
            for (int p = 0; p < 3; p++)
                if (parts[p] && parts[p]->kind == PY_NAME) {
                    pc_py_val *b = pc_py_lookup_forced(c, c->frame, parts[p]->name);
                    if (b && pc_py_tensorish(b) && ntens < 8) {
                        tnodes[ntens] = parts[p];
                        tens[ntens++] = *b;
                    }
                }
            continue;
        }
        pc_py_val v = pc_py_eval(c, e);
        if (pc_py_tensorish(&v)) {
            all_scalar = false;
            if (ntens < 8) {
                tnodes[ntens] = e;
                tens[ntens++] = v;
            }
        } else if (v.kind == PV_INT) {
            idx[i] = v.e;
        } else if (v.kind == PV_BOOL) {
            idx[i] = pc_expr_int(pc_py_marena(c), v.i);
        } else {
            all_scalar = false;
        }
    }
    if (ntens > 0) {
        /* gather: reads the base and the index tensors, makes a value of unknown shape */
        pc_py_read_operand(c, base, PC_UNIT_VECTOR, n->a);
        for (int i = 0; i < ntens; i++)
            pc_py_read_operand(c, &tens[i], PC_UNIT_VECTOR, tnodes[i]);
        *out = pc_py_pending(c, PC_UNIT_VECTOR, dt, NULL, -1);
        return true;
    }
    bool int_dtype = dt == PC_DT_INT32 || dt == PC_DT_INT64 || dt == PC_DT_INT16 || dt == PC_DT_INT8 ||
                     dt == PC_DT_UINT8 || dt == PC_DT_UINT16 || dt == PC_DT_UINT32 || dt == PC_DT_UINT64;
    /* every dimension indexed; with the rank still open only an integer tensor is read this way */
    if (!all_scalar || !((shape && nd == count) || (!shape && int_dtype)))
        return false;
    pc_sb sb = {0};
    pc_sb_append(&sb, pc_py_source_text(c->src, n->a->line, n->a->col, n->a->end_line, n->a->end_col));
    pc_sb_putc(&sb, '[');
    for (int i = 0; i < count; i++) {
        char *t = pc_expr_to_string(idx[i]);
        if (i)
            pc_sb_putc(&sb, ',');
        for (const char *p = t ? t : "?"; *p; p++)
            if (*p != ' ')
                pc_sb_putc(&sb, *p); /* `seqlens[b+1]`: one shell word in --bind advice */
        pc_mem_free(t);
    }
    pc_sb_putc(&sb, ']');
    char *name = pc_sb_take(&sb);
    if (base->kind == PV_TENSOR || base->kind == PV_VIEW)
        pc_py_access(c, base->tensor, PC_ACC_READ, PC_UNIT_NONE, n);
    *out = pc_py_sym_val(c, pc_model_strdup(c->m, name));
    pc_py_note_data_read(c, out->e && out->e->kind == PC_EXPR_SYM ? out->e->name : NULL);
    pc_mem_free(name);
    return true;
}

static pc_py_val eval_subscript(pc_py_ctx *c, const pc_py_node *n)
{
    pc_py_val base = pc_py_eval(c, n->a);
    int64_t idx;
    if (base.kind == PV_SHAPE || base.kind == PV_SEQ) {
        int count = base.kind == PV_SHAPE ? base.ndims : base.nitems;
        if (n->b && n->b->kind == PY_SLICE) {
            pc_py_val lo = n->b->a ? pc_py_eval(c, n->b->a) : pc_py_int(c, 0);
            pc_py_val hi = n->b->b ? pc_py_eval(c, n->b->b) : pc_py_int(c, count);
            int64_t l, h;
            if (count < 0 || n->b->c || !pc_py_const_int(&lo, &l) || !pc_py_const_int(&hi, &h))
                return pc_py_unknown();
            if (l < 0) l += count;
            if (h < 0) h += count;
            if (l < 0) l = 0;
            if (h > count) h = count;
            pc_py_val v = pc_py_mkval(PV_SEQ);
            v.items = pc_arena_alloc(c->scratch, (size_t)(h > l ? h - l + 1 : 1) * sizeof *v.items);
            for (int64_t i = l; i < h; i++)
                v.items[v.nitems++] = base.kind == PV_SHAPE ? pc_py_expr_val(base.shape[i]) : base.items[i];
            return v;
        }
        pc_py_val iv = pc_py_eval(c, n->b);
        if (count < 0 && base.kind == PV_SHAPE && pc_py_const_int(&iv, &idx) && idx >= 0 && idx < 64) {
            /* x.shape[3] of a parameter whose rank is still open: its dim 3, a symbol */
            struct pc_py_open_param *op = pc_py_in_kernel(c) ? pc_py_open_param(c, base.tensor) : NULL;
            if (op)
                return idx < op->nprefix ? pc_py_expr_val(op->prefix[idx])
                                         : pc_py_sym_val(c, pc_arena_printf(c->scratch, "%s.shape[%d]", op->name, (int)idx));
        }
        if (count < 0 || !pc_py_const_int(&iv, &idx))
            return pc_py_unknown();
        int k = pc_py_norm_dim(idx, count);
        if (k < 0)
            return pc_py_unknown();
        return base.kind == PV_SHAPE ? pc_py_expr_val(base.shape[k]) : base.items[k];
    }
    if (pc_py_tensorish(&base)) {
        if (base.kind == PV_PENDING || base.kind == PV_CREATE)
            pc_py_materialise(c, &base, NULL, n->a);
        const pc_expr **s;
        int nd;
        pc_dtype dt;
        pc_py_tensor_shape(c, &base, (const pc_expr ***)&s, &nd, &dt);
        pc_py_val special;
        if (scalar_or_gather(c, n, &base, s, nd, dt, &special))
            return special;
        const pc_expr **out;
        int nout;
        pc_py_keyinfo ki;
        pc_py_subscript_shape(c, s, nd, n->b, (const pc_expr ***)&out, &nout, &ki);
        pc_py_val v = pc_py_mkval(PV_VIEW);
        v.tensor = base.tensor;
        v.dtype = dt;
        v.shape = out;
        v.ndims = out ? nout : -1;
        v.node = n;
        return v;
    }
    if (n->b)
        (void)pc_py_eval(c, n->b);
    return pc_py_unknown();
}

/* What a user calls an expression kind CPython names ListComp, GeneratorExp, ... */
static const char *expr_kind_words(const char *cls)
{
    static const struct { const char *cls, *words; } names[] = {
        {"ListComp", "list comprehension"}, {"SetComp", "set comprehension"},
        {"DictComp", "dict comprehension"}, {"GeneratorExp", "generator expression"},
        {"NamedExpr", "':=' assignment"}, {"Await", "await"}, {"Yield", "yield"}, {"YieldFrom", "yield from"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(names[i].cls, cls) == 0)
            return names[i].words;
    return cls;
}

/* Does an unmodelled expression mention a tensor or a pypto function (without evaluating it)? */
static bool touches_tensors(pc_py_ctx *c, const pc_py_node *n, int depth)
{
    if (!n || depth > 64)
        return false;
    if (n->kind == PY_NAME) {
        pc_py_val *v = pc_py_lookup_forced(c, c->frame, n->name);
        if (v)
            return pc_py_tensorish(v) || (v->kind == PV_MODULE && v->s && strncmp(v->s, "pypto", 5) == 0);
        return false;
    }
    /* x.shape, x.dtype, pypto.DT_FP32: reading metadata is no tensor work */
    if (n->kind == PY_ATTRIBUTE && n->name &&
        (strcmp(n->name, "shape") == 0 || strcmp(n->name, "dtype") == 0 || strcmp(n->name, "ndim") == 0 ||
         strncmp(n->name, "DT_", 3) == 0))
        return false;
    const pc_py_node *kids[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3; i++)
        if (touches_tensors(c, kids[i], depth + 1))
            return true;
    const pc_py_list *lists[3] = {&n->list1, &n->list2, &n->list3};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->count; i++)
            if (touches_tensors(c, lists[l]->items[i], depth + 1))
                return true;
    return false;
}

const char *pc_py_eval_str(pc_py_ctx *c, const pc_py_node *n)
{
    if (!n)
        return NULL;
    pc_py_val v = pc_py_eval(c, n);
    return v.kind == PV_STR ? v.s : NULL;
}

/* Longer than 150 lines on purpose: one case per expression kind of the Python model, each a few
 * lines (the larger ones - calls, subscripts, operators - are functions of their own). */
pc_py_val pc_py_eval(pc_py_ctx *c, const pc_py_node *n)
{
    if (!n)
        return pc_py_unknown();
    pc_arena *ar = pc_py_marena(c);
    switch (n->kind) {
    case PY_INT:
        return n->big ? pc_py_unknown() : pc_py_int(c, n->ivalue);
    case PY_FLOAT: {
        pc_py_val v = pc_py_mkval(PV_FLOAT);
        v.f = n->fvalue;
        return v;
    }
    case PY_BOOL:
        return pc_py_bool_val(n->ivalue);
    case PY_STR: {
        pc_py_val v = pc_py_mkval(PV_STR);
        v.s = n->str;
        return v;
    }
    case PY_NONE:
        return pc_py_mkval(PV_NONE);
    case PY_NAME:
        return eval_name(c, n);
    case PY_ATTRIBUTE:
        return eval_attribute(c, n);
    case PY_SUBSCRIPT:
        return eval_subscript(c, n);
    case PY_CALL:
        return pc_py_eval_call(c, n);
    case PY_TUPLE:
    case PY_LIST: {
        pc_py_val v = pc_py_mkval(PV_SEQ);
        v.is_list = n->kind == PY_LIST;
        v.node = n;
        int cap = n->list1.count + 1;
        v.items = pc_arena_alloc(c->scratch, (size_t)cap * sizeof *v.items);
        for (int i = 0; i < n->list1.count; i++) {
            const pc_py_node *e = n->list1.items[i];
            if (e && e->kind == PY_STARRED) {
                pc_py_val s = pc_py_eval(c, e->a);
                if (s.kind != PV_SEQ)
                    return pc_py_unknown();
                v.items = pc_arena_grow(c->scratch, v.items, (size_t)cap, (size_t)(cap + s.nitems), sizeof *v.items);
                cap += s.nitems;
                for (int j = 0; j < s.nitems; j++)
                    v.items[v.nitems++] = s.items[j];
                continue;
            }
            v.items[v.nitems++] = pc_py_eval(c, e);
        }
        return v;
    }
    case PY_DICT: {
        pc_py_val v = pc_py_mkval(PV_DICT);
        v.node = n;
        return v;
    }
    case PY_BINOP: {
        pc_py_val l = pc_py_eval(c, n->a), r = pc_py_eval(c, n->b);
        return binop(c, n->op, &l, &r, n->a, n->b, n);
    }
    case PY_UNARYOP: {
        pc_py_val x = pc_py_eval(c, n->a);
        if (pc_py_tensorish(&x)) {
            pc_py_val zero = pc_py_int(c, 0);
            if (n->op == PY_OP_UADD)
                return x;
            return binop(c, PY_OP_SUB, &zero, &x, n, n->a, n);
        }
        if (n->op == PY_OP_NOT) {
            int t = pc_py_truth(c, &x);
            return t < 0 ? pc_py_unknown() : pc_py_bool_val(!t);
        }
        if (n->op == PY_OP_UADD)
            return x;
        if (n->op == PY_OP_USUB) {
            if (x.kind == PV_FLOAT) {
                x.f = -x.f;
                return x;
            }
            if (x.kind == PV_BOOL)
                return pc_py_int(c, -x.i);
            if (x.kind == PV_INT)
                return pc_py_expr_val(pc_expr_neg(ar, x.e));
        }
        if (n->op == PY_OP_INVERT) {
            int64_t v;
            if (pc_py_const_int(&x, &v))
                return pc_py_int(c, ~v);
        }
        return pc_py_unknown();
    }
    case PY_BOOLOP: {
        /* and/or: decided when the operands are; every operand is evaluated for its reads */
        int result = n->op == PY_OP_AND ? 1 : 0;
        bool decided = false;
        for (int i = 0; i < n->list1.count; i++) {
            pc_py_val v = pc_py_eval(c, n->list1.items[i]);
            if (decided)
                continue;
            int t = pc_py_truth(c, &v);
            if (t < 0)
                result = -1;
            else if (n->op == PY_OP_AND && t == 0) {
                result = 0;
                decided = true;
            } else if (n->op == PY_OP_OR && t == 1) {
                result = 1;
                decided = true;
            }
        }
        return result < 0 ? pc_py_unknown() : pc_py_bool_val(result);
    }
    case PY_COMPARE: {
        pc_py_val l = pc_py_eval(c, n->a);
        int result = 1;
        for (int i = 0; i < n->list1.count; i++) {
            pc_py_val r = pc_py_eval(c, n->list1.items[i]);
            if (pc_py_tensorish(&l) || pc_py_tensorish(&r)) {
                pc_py_op op = n->ops[i];
                if (op >= PY_OP_EQ && op <= PY_OP_GE)
                    return binop(c, op, &l, &r, n->a, n->list1.items[i], n);
                return pc_py_unknown();
            }
            int t = pc_py_compare_truth(n->ops[i], &l, &r);
            if (t < 0)
                result = -1;
            else if (t == 0 && result == 1)
                result = 0;
            l = r;
        }
        return result < 0 ? pc_py_unknown() : pc_py_bool_val(result);
    }
    case PY_IFEXP: {
        pc_py_val t = pc_py_eval(c, n->a);
        int truth = pc_py_truth(c, &t);
        if (truth == 1)
            return pc_py_eval(c, n->b);
        if (truth == 0)
            return pc_py_eval(c, n->c);
        pc_py_val b = pc_py_eval(c, n->b), o = pc_py_eval(c, n->c);
        const pc_expr *be = pc_py_as_expr(&b), *oe = pc_py_as_expr(&o);
        if (be && oe && pc_py_expr_same(be, oe))
            return b;
        return pc_py_unknown();
    }
    case PY_STARRED:
        return pc_py_eval(c, n->a);
    case PY_OTHER_EXPR:
        if (n->name && strcmp(n->name, "NamedExpr") == 0 && n->list1.count == 2 && n->list1.items[0] &&
            n->list1.items[0]->kind == PY_NAME) {
            /* `(n := 16)`: binds n and is its value */
            pc_py_val v = pc_py_eval(c, n->list1.items[1]);
            pc_py_assign(c, n->list1.items[0], v, n->list1.items[1]);
            return v;
        }
        /* Comprehensions, generators, walrus, await: tensor work inside them would be lost
         * silently, so say so when one mentions a tensor or a pypto function.  Lambdas only
         * define, and `[32 for _ in range(n)]` does no tensor work. */
        if (pc_py_in_kernel(c) && n->name && strcmp(n->name, "Lambda") != 0 && strcmp(n->name, "JoinedStr") != 0 &&
            strcmp(n->name, "FormattedValue") != 0 && touches_tensors(c, n, 0))
            pc_py_unanalysed(c, n, pc_arena_printf(c->scratch, "a %s in a kernel is not modelled: "
                                                  "the tensor work inside it is skipped", expr_kind_words(n->name)));
        return pc_py_unknown();
    default:
        return pc_py_unknown();
    }
}
