/* clang_hostfn.c - host helpers run at trace time.
 *
 * A kernel often gets a shape or a size from a helper of its own file whose body is more than one
 * `return`:
 *
 *     static Shape ClampedViewShape(const Tensor &self, const Shape &view) {
 *         Shape result = view;
 *         for (size_t i = 0; i < self.GetShape().size(); i++)
 *             result[i] = std::min(self.GetShape()[i], view[i]);
 *         return result;
 *     }
 *
 * The host runs it while tracing, so the value is known before any tile is made, and upstream's
 * compiler sizes the view with it.  This runner executes such a body statement by statement over
 * the cursor tree: declarations of integers and lists, assignments (`=`, `+=`, `++`), element
 * stores (`result[i] = ...`), `push_back`, `if`, `for`, `while`, `break`, `continue` and `return`,
 * each value read by the cursor evaluator of clang_value.c.  Anything else (a call made for its
 * effect, a condition that is not a constant, a step budget spent) stops the run and the value is
 * unknown: the caller then says so (PC013), never a guess. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

enum {
    HOSTFN_MAX_STEPS = 100000, /* statements executed per outermost run */
    HOSTFN_MAX_LIST = 1024     /* elements of one list value */
};

typedef enum flow { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN, FLOW_FAIL } flow;

typedef struct run {
    pc_cx *cx;
    int depth;
    long *steps;               /* shared by the runs nested in one outermost run */
    bool want_list;
    const pc_expr *ival;       /* the returned value */
    const pc_expr **list;
    int nlist;
} run;

static CXCursor strip(CXCursor c)
{
    for (int guard = 0; guard < 16; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return c;
        pc_clang_cursors ch = {0};
        pc_clang_children(c, &ch);
        if (ch.count != 1) {
            PC_VEC_FREE(ch);
            return c;
        }
        c = ch.items[0];
        PC_VEC_FREE(ch);
    }
    return c;
}

/* A copy of a list the run may change (element stores, push_back). */
static const pc_expr **list_copy(pc_cx *cx, const pc_expr *const *d, int n, int room)
{
    const pc_expr **c = pc_arena_alloc(pc_model_arena(cx->m), sizeof *c * (size_t)(n + room > 0 ? n + room : 1));
    for (int i = 0; i < n; i++)
        c[i] = d[i];
    return c;
}

/* The env entry of the scalar or list variable an expression names (by declaration), -1. */
static int var_entry(pc_cx *cx, CXCursor e, pc_cenv_kind kind)
{
    CXCursor s = strip(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return -1;
    int en = pc_clang_env_of_decl(cx, clang_getCursorReferenced(s));
    return en >= 0 && cx->env.items[en].kind == kind ? en : -1;
}

static const pc_expr *ival(run *r, CXCursor e) { return pc_clang_value_int_at(r->cx, e, r->depth + 1); }

static bool known_int(run *r, CXCursor e, int64_t *v)
{
    const pc_expr *x = ival(r, e);
    return x && pc_expr_is_int(x, v);
}

/* `xs[i]` as a place: the list variable's entry and the index. */
static bool element_place(run *r, CXCursor e, int *entry, int *index)
{
    CXCursor s = strip(e);
    if (clang_getCursorKind(s) != CXCursor_CallExpr || strcmp(pc_clang_spelling(r->cx, s), "operator[]") ||
        clang_Cursor_getNumArguments(s) != 2)
        return false;
    int en = var_entry(r->cx, clang_Cursor_getArgument(s, 0), PC_CENV_LIST);
    int64_t k;
    if (en < 0 || !known_int(r, clang_Cursor_getArgument(s, 1), &k) || k < 0 || k >= r->cx->env.items[en].nlist)
        return false;
    *entry = en;
    *index = (int)k;
    return true;
}

static const pc_expr *arith(run *r, const char *op, const pc_expr *l, const pc_expr *v)
{
    pc_arena *a = pc_model_arena(r->cx->m);
    if (!l || !v)
        return NULL;
    if (!strcmp(op, "+"))
        return pc_expr_bin(a, PC_EXPR_ADD, l, v);
    if (!strcmp(op, "-"))
        return pc_expr_bin(a, PC_EXPR_SUB, l, v);
    if (!strcmp(op, "*"))
        return pc_expr_bin(a, PC_EXPR_MUL, l, v);
    if (!strcmp(op, "/"))
        return pc_expr_bin(a, PC_EXPR_DIV, l, v);
    if (!strcmp(op, "%"))
        return pc_clang_cpp_mod(a, l, v);
    return NULL;
}

/* Store v (an integer) into the place `lhs` names. */
static bool store_int(run *r, CXCursor lhs, const pc_expr *v)
{
    if (!v)
        return false;
    int en = var_entry(r->cx, lhs, PC_CENV_EXPR), ix;
    if (en >= 0) {
        r->cx->env.items[en].expr = v;
        return true;
    }
    if (element_place(r, lhs, &en, &ix)) {
        r->cx->env.items[en].list[ix] = v;
        return true;
    }
    return false;
}

static const pc_expr *load_int(run *r, CXCursor lhs)
{
    int en = var_entry(r->cx, lhs, PC_CENV_EXPR), ix;
    if (en >= 0)
        return r->cx->env.items[en].expr;
    if (element_place(r, lhs, &en, &ix))
        return r->cx->env.items[en].list[ix];
    return NULL;
}

/* An expression evaluated for its effect. */
static flow effect(run *r, CXCursor e)
{
    pc_cx *cx = r->cx;
    CXCursor s = strip(e);
    enum CXCursorKind k = clang_getCursorKind(s);
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    flow f = FLOW_FAIL;
    if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) && ch.count == 2) {
        const char *op = pc_clang_operator_spelling(cx, s);
        if (op && !strcmp(op, "=")) {
            int en = var_entry(cx, ch.items[0], PC_CENV_LIST);
            const pc_expr **d;
            int nd;
            if (en >= 0) { /* xs = other list */
                if (pc_clang_value_list_at(cx, ch.items[1], r->depth + 1, &d, &nd)) {
                    cx->env.items[en].list = list_copy(cx, d, nd, 0);
                    cx->env.items[en].nlist = nd;
                    f = FLOW_NEXT;
                }
            } else if (store_int(r, ch.items[0], ival(r, ch.items[1])))
                f = FLOW_NEXT;
        } else if (op && strlen(op) == 2 && op[1] == '=' && k == CXCursor_CompoundAssignOperator) {
            char bop[2] = {op[0], 0};
            if (store_int(r, ch.items[0], arith(r, bop, load_int(r, ch.items[0]), ival(r, ch.items[1]))))
                f = FLOW_NEXT;
        }
    } else if (k == CXCursor_UnaryOperator && ch.count == 1) {
        const char *op = pc_clang_operator_spelling(cx, s);
        if (op && (!strcmp(op, "++") || !strcmp(op, "--")) &&
            store_int(r, ch.items[0],
                      arith(r, op[0] == '+' ? "+" : "-", load_int(r, ch.items[0]), pc_expr_int(pc_model_arena(cx->m), 1))))
            f = FLOW_NEXT;
    } else if (k == CXCursor_CallExpr) {
        const char *name = pc_clang_spelling(cx, s);
        CXCursor object = pc_clang_member_object(s);
        int en = clang_Cursor_isNull(object) ? -1 : var_entry(cx, object, PC_CENV_LIST);
        if (en >= 0 && (!strcmp(name, "push_back") || !strcmp(name, "emplace_back")) &&
            clang_Cursor_getNumArguments(s) == 1 && cx->env.items[en].nlist < HOSTFN_MAX_LIST) {
            const pc_expr *v = ival(r, clang_Cursor_getArgument(s, 0));
            if (v) {
                pc_cenv *le = &cx->env.items[en];
                le->list = list_copy(cx, le->list, le->nlist, 1);
                le->list[le->nlist++] = v;
                f = FLOW_NEXT;
            }
        } else if (!strcmp(name, "operator=") && clang_Cursor_getNumArguments(s) == 2) {
            int le = var_entry(cx, clang_Cursor_getArgument(s, 0), PC_CENV_LIST);
            const pc_expr **d;
            int nd;
            if (le >= 0 && pc_clang_value_list_at(cx, clang_Cursor_getArgument(s, 1), r->depth + 1, &d, &nd)) {
                cx->env.items[le].list = list_copy(cx, d, nd, 0);
                cx->env.items[le].nlist = nd;
                f = FLOW_NEXT;
            }
        }
    }
    PC_VEC_FREE(ch);
    return f;
}

/* A variable declared in the helper: visible by declaration only (frame -1). */
static bool declare(run *r, CXCursor v)
{
    pc_cx *cx = r->cx;
    CXCursor init = pc_clang_decl_init(v);
    const char *name = pc_clang_spelling(cx, v);
    switch (pc_clang_classify_type(cx, clang_getCursorType(v))) {
    case PC_VC_INT: {
        const pc_expr *x = clang_Cursor_isNull(init) ? NULL : ival(r, init);
        if (!x)
            return false;
        int e = pc_clang_env_push(cx, PC_CENV_EXPR, name, &v);
        cx->env.items[e].expr = x;
        cx->env.items[e].frame = -1;
        return true;
    }
    case PC_VC_LIST: {
        const pc_expr **d = NULL;
        int nd = 0;
        if (!clang_Cursor_isNull(init) && !pc_clang_value_list_at(cx, init, r->depth + 1, &d, &nd))
            return false;
        int e = pc_clang_env_push(cx, PC_CENV_LIST, name, &v);
        cx->env.items[e].list = list_copy(cx, d, nd, 0);
        cx->env.items[e].nlist = nd;
        cx->env.items[e].frame = -1;
        return true;
    }
    default:
        return false;
    }
}

static flow exec(run *r, CXCursor s);

static flow exec_children(run *r, const pc_clang_cursors *ch, size_t from)
{
    for (size_t i = from; i < ch->count; i++) {
        flow f = exec(r, ch->items[i]);
        if (f != FLOW_NEXT)
            return f;
    }
    return FLOW_NEXT;
}

/* for (init; cond; inc) body and while (cond) body, the condition known at every test. */
static flow exec_loop(run *r, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body)
{
    if (!clang_Cursor_isNull(init) && exec(r, init) != FLOW_NEXT)
        return FLOW_FAIL;
    for (;;) {
        int64_t c;
        if (++*r->steps > HOSTFN_MAX_STEPS || !known_int(r, cond, &c))
            return FLOW_FAIL;
        if (!c)
            return FLOW_NEXT;
        flow f = exec(r, body);
        if (f == FLOW_BREAK)
            return FLOW_NEXT;
        if (f == FLOW_RETURN || f == FLOW_FAIL)
            return f;
        if (!clang_Cursor_isNull(inc) && effect(r, inc) != FLOW_NEXT)
            return FLOW_FAIL;
    }
}

static flow exec(run *r, CXCursor s)
{
    if (++*r->steps > HOSTFN_MAX_STEPS)
        return FLOW_FAIL;
    pc_cx *cx = r->cx;
    enum CXCursorKind k = clang_getCursorKind(s);
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    flow f = FLOW_FAIL;
    switch (k) {
    case CXCursor_CompoundStmt:
        f = exec_children(r, &ch, 0);
        break;
    case CXCursor_NullStmt:
        f = FLOW_NEXT;
        break;
    case CXCursor_DeclStmt:
        f = FLOW_NEXT;
        for (size_t i = 0; i < ch.count && f == FLOW_NEXT; i++)
            if (clang_getCursorKind(ch.items[i]) != CXCursor_VarDecl || !declare(r, ch.items[i]))
                f = FLOW_FAIL;
        break;
    case CXCursor_ReturnStmt:
        if (ch.count == 1) {
            if (r->want_list) {
                const pc_expr **d;
                int nd;
                if (pc_clang_value_list_at(cx, ch.items[0], r->depth + 1, &d, &nd)) {
                    r->list = list_copy(cx, d, nd, 0);
                    r->nlist = nd;
                    f = FLOW_RETURN;
                }
            } else if ((r->ival = ival(r, ch.items[0])) != NULL)
                f = FLOW_RETURN;
        }
        break;
    case CXCursor_IfStmt: {
        /* if (cond) then [else]: only the plain form (no init statement, no declaration) */
        int64_t c;
        if ((ch.count == 2 || ch.count == 3) && clang_isExpression(clang_getCursorKind(ch.items[0])) &&
            known_int(r, ch.items[0], &c))
            f = c ? exec(r, ch.items[1]) : ch.count == 3 ? exec(r, ch.items[2]) : FLOW_NEXT;
        break;
    }
    case CXCursor_ForStmt:
        /* every part present: for (init; cond; inc) body */
        if (ch.count == 4 && clang_isExpression(clang_getCursorKind(ch.items[1])) &&
            clang_isExpression(clang_getCursorKind(ch.items[2])))
            f = exec_loop(r, ch.items[0], ch.items[1], ch.items[2], ch.items[3]);
        break;
    case CXCursor_WhileStmt:
        if (ch.count == 2 && clang_isExpression(clang_getCursorKind(ch.items[0])))
            f = exec_loop(r, clang_getNullCursor(), ch.items[0], clang_getNullCursor(), ch.items[1]);
        break;
    case CXCursor_BreakStmt:
        f = FLOW_BREAK;
        break;
    case CXCursor_ContinueStmt:
        f = FLOW_CONTINUE;
        break;
    default:
        if (clang_isExpression(k))
            f = effect(r, s);
        break;
    }
    PC_VEC_FREE(ch);
    return f;
}

bool pc_clang_run_helper(pc_cx *cx, CXCursor def, CXCursor call, int depth, const pc_expr **ival_out,
                         const pc_expr ***dims, int *nd)
{
    if (depth > 32 || cx->depth >= (int)(sizeof cx->inline_stack / sizeof cx->inline_stack[0]))
        return false;
    for (int i = 0; i < cx->depth; i++)
        if (clang_equalCursors(cx->inline_stack[i], def))
            return false; /* recursion: not followed */
    pc_clang_cursors ch = {0};
    pc_clang_children(def, &ch);
    CXCursor body = clang_getNullCursor();
    PC_VEC(CXCursor) parms = {0};
    for (size_t i = 0; i < ch.count; i++) {
        if (clang_getCursorKind(ch.items[i]) == CXCursor_CompoundStmt)
            body = ch.items[i];
        else if (clang_getCursorKind(ch.items[i]) == CXCursor_ParmDecl)
            PC_VEC_PUSH(parms, ch.items[i]);
    }
    PC_VEC_FREE(ch);
    int nargs = clang_Cursor_getNumArguments(call);
    bool ok = !clang_Cursor_isNull(body) && nargs == (int)parms.count;
    size_t mark = cx->env.count;
    /* the arguments, evaluated in the caller's scope before any parameter is visible */
    run r = {cx, depth, NULL, dims != NULL, NULL, NULL, 0};
    for (size_t i = 0; ok && i < parms.count; i++) {
        CXCursor p = parms.items[i], arg = clang_Cursor_getArgument(call, (unsigned)i);
        const char *name = pc_clang_spelling(cx, p);
        switch (pc_clang_classify_type(cx, clang_getCursorType(p))) {
        case PC_VC_INT: {
            const pc_expr *x = ival(&r, arg);
            if (x) {
                int e = pc_clang_env_push(cx, PC_CENV_EXPR, name, &p);
                cx->env.items[e].expr = x;
                cx->env.items[e].frame = -1;
            }
            break; /* unknown: a use of it makes the run fail */
        }
        case PC_VC_LIST: {
            const pc_expr **d;
            int n;
            if (pc_clang_value_list_at(cx, arg, depth + 1, &d, &n)) {
                int e = pc_clang_env_push(cx, PC_CENV_LIST, name, &p);
                cx->env.items[e].list = list_copy(cx, d, n, 0);
                cx->env.items[e].nlist = n;
                cx->env.items[e].frame = -1;
            }
            break;
        }
        case PC_VC_TENSOR: {
            int src = pc_clang_value_tensor_entry(cx, arg);
            if (src >= 0) { /* the caller's tensor, seen through the parameter */
                pc_cenv copy = cx->env.items[src];
                copy.decl = p;
                copy.has_decl = true;
                copy.frame = -1;
                PC_VEC_PUSH(cx->env, copy);
            }
            break;
        }
        default:
            break;
        }
    }
    PC_VEC_FREE(parms);
    /* one budget for the outermost run and every run nested in it */
    long steps = 0;
    bool outermost = cx->hostfn_steps == NULL;
    if (outermost)
        cx->hostfn_steps = &steps;
    r.steps = cx->hostfn_steps;
    if (ok) {
        cx->inline_stack[cx->depth++] = def;
        ok = exec(&r, body) == FLOW_RETURN;
        cx->depth--;
    }
    if (outermost)
        cx->hostfn_steps = NULL;
    cx->env.count = mark;
    if (!ok)
        return false;
    if (dims) {
        *dims = r.list;
        *nd = r.nlist;
    } else
        *ival_out = r.ival;
    return true;
}
