/* clang_host.c - host (trace-time) code.
 *
 * Outside FUNCTION bodies: the declarations of the main file are walked for what kernels see of
 * them - integer constants (flow-sensitively: `int sq = 32; ... sq = 18;`), shape vectors, dtype
 * and string variables, Tensor declarations (a FUNCTION's parameters are usually declared just
 * before it) and `config::SetRuntimeOption` calls; each FUNCTION not nested in another is handed
 * to the kernel walk (clang_walk.c).
 *
 * Inside a kernel: a host `if` is decided from constants or kept as an undecided branch, and a
 * host `for` / `while` / `do` runs at trace time - unrolled when its trip count is a small
 * constant (simulated from the ForStmt's children), modelled once with a PC012 or PC014 when
 * not. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

/* ---- host code ------------------------------------------------------------------------------------ */

static void host_stmt(pc_cx *cx, CXCursor s);

/* A Tensor declared outside kernels: what each kernel that uses it will see. */
static void host_tensor_decl(pc_cx *cx, CXCursor v, const char *name)
{
    int id = pc_clang_env_push(cx, PC_CENV_TENSOR, name, &v);
    pc_chost info;
    memset(&info, 0, sizeof info);
    info.kind = PC_TENSOR_CREATED;
    info.ndims = -1;
    info.base_entry = -1;
    info.loc = pc_clang_name_loc(cx, v, name);
    if (!pc_clang_tensor_ctor(cx, v, &info)) {
        /* Tensor v = View(x, ...) / Reshape(x, ...) / x: an alias of another host tensor */
        pc_clang_cursors ch = {0};
        pc_clang_children(v, &ch);
        for (size_t i = ch.count; i-- > 0;) {
            CXCursor c = pc_clang_strip(ch.items[i]);
            if (!clang_isExpression(clang_getCursorKind(c)))
                continue;
            const char *fn = pc_clang_call_name(cx, c, NULL, NULL);
            if (fn && (!strcmp(fn, "View") || !strcmp(fn, "Reshape")) && pc_clang_call_nargs(c) >= 2) {
                pc_ctoks toks = {0};
                if (pc_clang_cursor_tokens(cx, pc_clang_call_arg(c, 1), &toks))
                    pc_clang_shape_list(cx, toks.items, (int)toks.count, &info.shape, &info.ndims);
                PC_VEC_FREE(toks);
                c = pc_clang_strip(pc_clang_call_arg(c, 0));
            }
            if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
                int b = pc_clang_env_find_decl(cx, clang_getCursorReferenced(c));
                if (b >= 0) {
                    info.kind = PC_TENSOR_VIEW;
                    info.base_entry = b;
                    if (info.ndims < 0) {
                        info.shape = cx->env.items[b].host.shape;
                        info.ndims = cx->env.items[b].host.ndims;
                    }
                    info.dtype = cx->env.items[b].host.dtype;
                }
            }
            break;
        }
        PC_VEC_FREE(ch);
    }
    pc_cenv *e = &cx->env.items[id];
    e->is_host = true;
    e->host = info;
}

static void host_vardecl(pc_cx *cx, CXCursor v)
{
    const char *name = pc_clang_spelling(cx, v);
    pc_cvclass vc = pc_clang_classify_type(cx, clang_getCursorType(v));
    if (vc == PC_VC_TENSOR)
        host_tensor_decl(cx, v, name);
    else if (vc != PC_VC_OTHER)
        pc_clang_scalar_decl(cx, v, vc, name);
}

static void host_children(pc_cx *cx, CXCursor s, bool conditional)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    size_t mark = cx->env.count;
    if (conditional)
        cx->in_host_loop = true;
    bool saved = cx->in_host_loop;
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor c = ch.items[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_VarDecl)
            host_vardecl(cx, c);
        else if (clang_isStatement(k) || k == CXCursor_CompoundStmt)
            host_stmt(cx, c);
        else if (clang_isExpression(k) && conditional)
            host_stmt(cx, c);
    }
    cx->in_host_loop = saved;
    cx->env.count = mark;
    PC_VEC_FREE(ch);
}

static void host_stmt(pc_cx *cx, CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    bool saved = cx->in_host_loop;
    switch (k) {
    case CXCursor_CompoundStmt: {
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
        size_t mark = cx->env.count;
        for (size_t i = 0; i < ch.count; i++)
            host_stmt(cx, ch.items[i]);
        cx->env.count = mark;
        PC_VEC_FREE(ch);
        return;
    }
    case CXCursor_DeclStmt: {
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
        for (size_t i = 0; i < ch.count; i++)
            if (clang_getCursorKind(ch.items[i]) == CXCursor_VarDecl)
                host_vardecl(cx, ch.items[i]);
        PC_VEC_FREE(ch);
        return;
    }
    case CXCursor_CXXForRangeStmt: {
        CXCursor body = clang_getNullCursor();
        pc_cmarker mk = pc_clang_for_range_marker(cx, s, &body);
        if (mk == PC_MK_FUNCTION) {
            pc_clang_kernel_function(cx, s, body);
            return;
        }
        if (mk == PC_MK_PROGRAM) {
            host_stmt(cx, body);
            return;
        }
        if (mk == PC_MK_LOOP) /* a LOOP outside FUNCTION (a helper): modelled where a kernel calls it */
            return;
        host_children(cx, s, true);
        return;
    }
    case CXCursor_IfStmt: case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt:
    case CXCursor_SwitchStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_CXXTryStmt:
    case CXCursor_CXXCatchStmt: case CXCursor_LabelStmt:
        host_children(cx, s, true);
        cx->in_host_loop = saved;
        return;
    default:
        break;
    }
    if (clang_isExpression(k)) {
        if (pc_clang_mentions(cx, s, "SetRuntimeOption"))
            pc_clang_option_site(cx, s);
        else
            pc_clang_scalar_assign(cx, s);
    }
}

/* A function, method or function template defined in the main file. */
static void host_function(pc_cx *cx, CXCursor fn)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(fn, &ch);
    int saved_frame = cx->frame;
    size_t mark = cx->env.count;
    cx->frame = ++cx->next_frame;
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor c = ch.items[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_ParmDecl) {
            const char *name = pc_clang_spelling(cx, c);
            pc_cvclass vc = pc_clang_classify_type(cx, clang_getCursorType(c));
            if (vc == PC_VC_TENSOR) {
                int id = pc_clang_env_push(cx, PC_CENV_TENSOR, name, &c);
                cx->env.items[id].is_host = true;
                cx->env.items[id].host.kind = PC_TENSOR_CREATED;
                cx->env.items[id].host.loc = pc_clang_name_loc(cx, c, name);
            } else if (vc == PC_VC_INT) {
                int id = pc_clang_env_push(cx, PC_CENV_EXPR, name, &c);
                cx->env.items[id].expr = pc_expr_sym(pc_model_arena(cx->m), name);
            }
        } else if (k == CXCursor_CompoundStmt) {
            host_stmt(cx, c);
        }
    }
    cx->env.count = mark;
    cx->frame = saved_frame;
    PC_VEC_FREE(ch);
}

static bool in_main_file(pc_cx *cx, CXCursor c)
{
    uint32_t off;
    return pc_clang_main_offset(cx, clang_getCursorLocation(c), &off);
}

void pc_clang_walk_decls(pc_cx *cx, CXCursor parent)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(parent, &ch);
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor c = ch.items[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (!in_main_file(cx, c))
            continue;
        switch (k) {
        case CXCursor_Namespace: case CXCursor_LinkageSpec: case CXCursor_StructDecl: case CXCursor_ClassDecl:
        case CXCursor_ClassTemplate: case CXCursor_UnexposedDecl:
            pc_clang_walk_decls(cx, c);
            break;
        case CXCursor_VarDecl:
            host_vardecl(cx, c);
            break;
        case CXCursor_FunctionDecl: case CXCursor_CXXMethod: case CXCursor_FunctionTemplate:
        case CXCursor_Constructor: case CXCursor_Destructor:
            if (clang_isCursorDefinition(c))
                host_function(cx, c);
            break;
        default:
            break;
        }
    }
    PC_VEC_FREE(ch);
}

/* ---- host functions ------------------------------------------------------------------------ */

pc_chost_step pc_clang_host_fn_step(CXCursor c)
{
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return PC_CHOST_SKIP;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl || k == CXCursor_StructDecl)
        return PC_CHOST_RECURSE;
    if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate &&
        k != CXCursor_Constructor)
        return PC_CHOST_SKIP;
    return PC_CHOST_TAKE;
}

static enum CXChildVisitResult host_fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    pc_cx *cx = data;
    pc_chost_step step = pc_clang_host_fn_step(c);
    if (step != PC_CHOST_TAKE)
        return step == PC_CHOST_RECURSE ? CXChildVisit_Recurse : CXChildVisit_Continue;
    struct pc_chostfn h = {c, pc_clang_cursor_loc(cx, c)};
    PC_VEC_PUSH(cx->host_fns, h);
    return CXChildVisit_Continue;
}

bool pc_clang_host_function(pc_cx *cx, pc_loc at, CXCursor *fn)
{
    if (!cx->in_main || !cx->tu)
        return false;
    if (!cx->host_fns_scanned) {
        clang_visitChildren(clang_getTranslationUnitCursor(cx->tu), host_fn_visit, cx);
        cx->host_fns_scanned = true;
    }
    *fn = clang_getNullCursor();
    for (size_t i = 0; i < cx->host_fns.count; i++) {
        pc_loc l = cx->host_fns.items[i].loc;
        bool starts_before = l.line < at.line || (l.line == at.line && l.col < at.col);
        bool ends_after = l.end_line > at.line || (l.end_line == at.line && l.end_col > at.col);
        if (starts_before && ends_after) {
            *fn = cx->host_fns.items[i].fn;
            break;
        }
    }
    return true;
}

/* A host `if` inside a kernel: trace-time code.  Decided from constants when possible, else
 * both paths are kept as an undecided PC_STMT_IF. */
void pc_clang_host_if(pc_cx *cx, CXCursor s)
{
    CXCursor cond, then_s, else_s;
    pc_clang_if_parts(s, &cond, &then_s, &else_s);
    pc_ctoks toks = {0};
    const pc_expr *c = pc_clang_value_int(cx, cond);
    const char *text = NULL;
    if (pc_clang_cursor_tokens(cx, cond, &toks) && toks.count) {
        if (!c)
            c = pc_clang_int_expr(cx, toks.items, (int)toks.count);
        uint32_t tb = toks.items[0].off, te = toks.items[toks.count - 1].off + toks.items[toks.count - 1].len;
        text = pc_model_strdup(cx->m, pc_arena_strndup(cx->scratch, cx->src + tb, te - tb));
    }
    PC_VEC_FREE(toks);
    int64_t v;
    if (c && pc_expr_is_int(c, &v)) {
        pc_clang_kernel_block(cx, v ? then_s : else_s);
        return;
    }
    bool saved_host = cx->in_host_loop;
    cx->in_host_loop = true;
    int sid = pc_clang_new_stmt(cx, PC_STMT_IF, pc_clang_cursor_loc(cx, s));
    pc_cblock saved = cx->block;
    pc_branch *br = pc_stmt_add_branch(cx->m, &cx->m->kernels[cx->kernel].stmts[sid], pc_clang_cursor_loc(cx, cond));
    br->decided = -1;
    br->cond_text = text; /* decided while tracing from a value poolcheck does not know: alternatives */
    cx->block = (pc_cblock){PC_CBLK_BRANCH, sid, 0};
    pc_clang_kernel_block(cx, then_s);
    if (!clang_Cursor_isNull(else_s)) {
        br = pc_stmt_add_branch(cx->m, &cx->m->kernels[cx->kernel].stmts[sid], pc_clang_cursor_loc(cx, else_s));
        br->decided = -1;
        cx->block = (pc_cblock){PC_CBLK_BRANCH, sid, 1};
        pc_clang_kernel_block(cx, else_s);
    }
    cx->block = saved;
    cx->in_host_loop = saved_host;
    cx->cur_stmt = -1;
}

/* Does c hold a LOOP, directly or in a helper it calls (followed through the definitions)? */
typedef struct loop_search { pc_cx *cx; int depth; bool found; } loop_search;

static enum CXChildVisitResult loop_search_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    loop_search *ls = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor body;
    if (k == CXCursor_CXXForRangeStmt && pc_clang_for_range_marker(ls->cx, c, &body) == PC_MK_LOOP) {
        ls->found = true;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_CallExpr && ls->depth < 8) {
        CXCursor ref = clang_getCursorReferenced(c);
        CXCursor def = clang_Cursor_isNull(ref) ? ref : clang_getCursorDefinition(ref);
        if (!clang_Cursor_isNull(def) && pc_clang_inlinable(ls->cx, def)) {
            loop_search inner = {ls->cx, ls->depth + 1, false};
            clang_visitChildren(def, loop_search_visit, &inner);
            if (inner.found) {
                ls->found = true;
                return CXChildVisit_Break;
            }
        }
    }
    return CXChildVisit_Recurse;
}

static bool reaches_loop(pc_cx *cx, CXCursor c)
{
    if (pc_clang_mentions(cx, c, "LOOP"))
        return true;
    loop_search ls = {cx, 0, false};
    clang_visitChildren(c, loop_search_visit, &ls);
    return ls.found;
}

/* The values a host `for (init; cond; inc)` loop variable takes, from the ForStmt's children:
 * `for (int h = 0; 3 > h; ++h)`, `h <= n`, `h != e`, `h += 2`, `--h` ...  The loop is simulated
 * (at most max + 1 iterations), so any direction and comparison works.  Returns the trip count
 * (-1 when not a constant one or more than max) and sets *var_decl to the variable; *unbound (when
 * not NULL) names the first unbound symbol the condition depends on. */
static int64_t host_for_values(pc_cx *cx, CXCursor s, CXCursor *var_decl, int64_t *vals, int64_t max,
                               const char **unbound)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    int64_t trips = -1;
    if (ch.count == 4 && clang_getCursorKind(ch.items[0]) == CXCursor_DeclStmt) {
        pc_clang_cursors vd = {0};
        pc_clang_children(ch.items[0], &vd);
        CXCursor v = vd.count == 1 ? vd.items[0] : clang_getNullCursor();
        PC_VEC_FREE(vd);
        const pc_expr *e0 = NULL;
        if (!clang_Cursor_isNull(v) && clang_getCursorKind(v) == CXCursor_VarDecl) {
            CXCursor init = pc_clang_decl_init(v);
            e0 = clang_Cursor_isNull(init) ? NULL : pc_clang_value_int(cx, init);
        }
        int64_t x;
        CXCursor cond = ch.items[1], inc = ch.items[2];
        const char *iop = pc_clang_operator_spelling(cx, inc);
        int64_t step = 0;
        if (iop && (!strcmp(iop, "++") || !strcmp(iop, "--")) && clang_getCursorKind(inc) == CXCursor_UnaryOperator)
            step = !strcmp(iop, "++") ? 1 : -1;
        else if (iop && clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator &&
                 (!strcmp(iop, "+=") || !strcmp(iop, "-="))) {
            pc_clang_cursors ic = {0};
            pc_clang_children(inc, &ic);
            const pc_expr *se = ic.count == 2 ? pc_clang_value_int(cx, ic.items[1]) : NULL;
            PC_VEC_FREE(ic);
            if (se && pc_expr_is_int(se, &step))
                step = !strcmp(iop, "+=") ? step : -step;
            else
                step = 0;
        }
        if (e0 && pc_expr_is_int(e0, &x) && step != 0) {
            /* the condition, evaluated per value with the variable bound by its declaration */
            pc_arena *a = pc_model_arena(cx->m);
            CXString vs = clang_getCursorSpelling(v);
            size_t mark = cx->env.count;
            int e = pc_clang_env_push(cx, PC_CENV_EXPR, clang_getCString(vs), &v);
            clang_disposeString(vs);
            cx->env.items[e].frame = -1; /* by declaration only */
            trips = 0;
            for (;;) {
                cx->env.items[e].expr = pc_expr_int(a, x);
                const pc_expr *c = pc_clang_value_int(cx, cond);
                int64_t cv;
                /* a bound on a symbol the user bound (--bind block_num=4) is that value */
                if (c && !pc_expr_is_int(c, &cv)) {
                    const char *names[4];
                    size_t ns = pc_expr_symbols(c, names, 0, 4);
                    if (!cx->opts || !pc_expr_eval(c, cx->opts->bindings, cx->opts->nbindings, &cv)) {
                        if (unbound && !*unbound && ns > 0)
                            *unbound = pc_arena_strdup(cx->scratch, names[0]);
                        c = NULL;
                    } else if (trips == 0) {
                        /* the kernel used these bindings: its constants (so --bind is not "no effect") */
                        for (size_t q = 0; q < ns; q++) {
                            int64_t bv;
                            if (pc_expr_eval(pc_expr_sym(a, names[q]), cx->opts->bindings, cx->opts->nbindings, &bv))
                                pc_clang_record_constant(cx, names[q], pc_expr_int(a, bv));
                        }
                    }
                }
                if (!c) {
                    trips = -1;
                    break;
                }
                if (!cv)
                    break;
                if (trips >= max) {
                    trips = -1;
                    break;
                }
                vals[trips++] = x;
                x += step;
            }
            cx->env.count = mark;
            *var_decl = v;
        }
    }
    PC_VEC_FREE(ch);
    return trips;
}

/* for / while / do and host for-range loops inside a kernel run at trace time: their bodies
 * belong to the enclosing root function.  A body holding a LOOP is repeated per iteration when
 * the trip count is a small constant (each iteration makes that LOOP again). */
void pc_clang_host_loop(pc_cx *cx, CXCursor s)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    CXCursor body = ch.count ? ch.items[ch.count - 1] : clang_getNullCursor();
    if (clang_getCursorKind(s) == CXCursor_DoStmt && ch.count)
        body = ch.items[0];
    PC_VEC_FREE(ch);
    bool has_loop = reaches_loop(cx, body);
    bool saved_host = cx->in_host_loop;
    size_t mark = cx->env.count;
    const char *unbound = NULL;
    int ntensors0 = cx->kernel >= 0 ? cx->m->kernels[cx->kernel].ntensors : 0;
    int nstmts0 = cx->kernel >= 0 ? cx->m->kernels[cx->kernel].nstmts : 0;
    if (clang_getCursorKind(s) == CXCursor_ForStmt) {
        /* a body with no LOOP is unrolled too (like a Python range() of up to 64 iterations): each
         * iteration makes its tensors again in the enclosing root (docs/model.md section 2) */
        enum { MAX_HOST_TRIPS = 256, MAX_PLAIN_TRIPS = 64 };
        int64_t vals[MAX_HOST_TRIPS];
        CXCursor v = clang_getNullCursor();
        int64_t n = host_for_values(cx, s, &v, vals, has_loop ? MAX_HOST_TRIPS : MAX_PLAIN_TRIPS, &unbound);
        if (n >= 0) {
            CXString vs = clang_getCursorSpelling(v);
            const char *var = pc_arena_strdup(cx->scratch, clang_getCString(vs));
            clang_disposeString(vs);
            for (int64_t i = 0; i < n; i++) {
                size_t m2 = cx->env.count;
                int e = pc_clang_env_push(cx, PC_CENV_EXPR, var, &v);
                cx->env.items[e].expr = pc_expr_int(pc_model_arena(cx->m), vals[i]);
                pc_clang_kernel_block(cx, body);
                cx->env.count = m2;
            }
            return;
        }
    }
    if (has_loop) {
        pc_clang_begin_leaf(cx, s);
        pc_clang_unanalysed(cx, pc_clang_cursor_loc(cx, s),
                   "host loop around a LOOP with no constant trip count: its LOOPs are modelled once");
    }
    /* the variables a `for (int h = ...)` declares are not constants inside the body */
    if (clang_getCursorKind(s) == CXCursor_ForStmt) {
        pc_clang_cursors fc = {0};
        pc_clang_children(s, &fc);
        if (fc.count && clang_getCursorKind(fc.items[0]) == CXCursor_DeclStmt) {
            pc_clang_cursors vd = {0};
            pc_clang_children(fc.items[0], &vd);
            for (size_t i = 0; i < vd.count; i++)
                if (clang_getCursorKind(vd.items[i]) == CXCursor_VarDecl) {
                    const char *v = pc_clang_spelling(cx, vd.items[i]);
                    int e = pc_clang_env_push(cx, PC_CENV_EXPR, v, &vd.items[i]);
                    cx->env.items[e].expr = pc_expr_sym(pc_model_arena(cx->m), v);
                }
            PC_VEC_FREE(vd);
        }
        PC_VEC_FREE(fc);
    }
    cx->in_host_loop = true;
    pc_clang_kernel_block(cx, body);
    cx->in_host_loop = saved_host;
    cx->env.count = mark;
    /* model.md 2, "Compile-time code": a bound poolcheck cannot evaluate is a symbol to bind; a
     * body that makes tensors is modelled once meanwhile (the Python frontend's PC014 likewise) */
    /* A host loop that is not unrolled (a while, or a for over more iterations than are unrolled,
     * or with a bound that is neither a constant nor a symbol) and whose body did tensor work is
     * in the model once: never an exact-looking number without saying so (PC012, as the Python
     * frontend says of its compile-time loops). */
    bool tensor_work = false;
    if (cx->kernel >= 0) {
        const pc_kernel *kk = &cx->m->kernels[cx->kernel];
        tensor_work = kk->ntensors > ntensors0;
        for (int i = nstmts0; i < kk->nstmts && !tensor_work; i++)
            tensor_work = kk->stmts[i].kind == PC_STMT_OP && kk->stmts[i].naccesses > 0;
    }
    if (!unbound && !has_loop && tensor_work) {
        pc_clang_begin_leaf(cx, s);
        pc_clang_unanalysed(cx, pc_clang_cursor_loc(cx, s),
                   clang_getCursorKind(s) == CXCursor_ForStmt
                       ? "host loop 'for' without a small constant trip count (at most 64 are unrolled): its body, "
                         "which does tensor work, is modelled once"
                       : "host loop (while / do): its body, which does tensor work, is modelled once");
    }
    if (unbound && !has_loop && cx->kernel >= 0 && cx->m->kernels[cx->kernel].ntensors > ntensors0)
        pc_model_add_message_check(cx->m, PC_MSG_NOTE, pc_clang_cursor_loc(cx, s), "PC014",
                                   pc_arena_printf(cx->scratch,
                                                   "host loop 'for' runs a number of times that depends on '%s', "
                                                   "which is not bound: its body, which makes tensors, is modelled "
                                                   "once, so root_inner bytes may be low; bind it with --bind %s=VALUE",
                                                   unbound, unbound));
}
