/* clang_host.c - host (trace-time) code.
 *
 * Outside FUNCTION bodies: the declarations of the main file are walked for what kernels see of
 * them - integer constants (flow-sensitively: `int sq = 32; ... sq = 18;`), shape vectors, dtype
 * and string variables, Tensor declarations (a FUNCTION's parameters are usually declared just
 * before it) and `config::SetRuntimeOption` calls; each FUNCTION not nested in another is handed
 * to the kernel walk (clang_walk.c).  Each function definition is walked on its own, following
 * the helpers it calls for the options they set, and after the walk each option record names the
 * kernels it configures (docs/model.md section 8).  A kernel that reads a value from a declaration
 * clang rejected (a constant, a helper) gets a PC012 naming it.
 *
 * Inside a kernel: a host `if` is decided from constants or kept as an undecided branch, and a
 * host `for` / `while` / `do` runs at trace time - unrolled when its trip count is a small
 * constant (simulated from the ForStmt's children), modelled once with a PC012 or PC014 when
 * not. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

#include "poolcheck/config.h"

/* ---- host code ------------------------------------------------------------------------------------ */

/* Runtime options are scoped as the host code runs (docs/model.md section 8).
 * config::SetRuntimeOption changes a global that the compile of a FUNCTION reads when the FUNCTION
 * runs, so a kernel sees the options set before it on the way the host code reaches it: earlier in
 * its host function, in the helpers that function called before it (followed into their
 * definitions, their parameters bound to the call's arguments), and for a TEST_F body in the
 * fixture's SetUp.  Each host function is walked on its own from the defaults: a test may run
 * alone under a filter, so what another one set is not in force.  During the walk every FUNCTION
 * reached records the option records in force there (a context); after it each kernel takes the
 * records of its contexts (scope_options), and a record that configures no kernel applies to none. */

typedef struct opt_ctx {
    CXCursor function;         /* the FUNCTION statement reached */
    int root;                  /* the host function whose walk reached it (index in roots) */
    size_t begin, end;         /* active[begin, end): what is in force there, in the order it ran */
} opt_ctx;

typedef struct fn_kernel { CXCursor function; int kernel; } fn_kernel;
typedef struct reach_memo { CXCursor def; bool reaches, done; } reach_memo;
typedef struct lost_call { pc_loc loc; const char *name; } lost_call;
/* A declaration clang rejected (or reported an error in): a value a kernel reads from it is a
 * symbol that only looks like something to bind.  first_line..last_line: where it is visible
 * (the whole file for one at namespace scope). */
typedef struct broken_decl {
    const char *name;
    bool function;             /* a helper: a kernel depends on it through "name(...)" symbols */
    pc_loc loc;
    const char *error;
    uint32_t first_line, last_line;
} broken_decl;

typedef struct host_walk {
    PC_VEC(int) active;        /* option records in the order they ran; -1 - i: lost[i] */
    size_t base;               /* where the options of the current root begin (config::Reset moves it) */
    PC_VEC(opt_ctx) ctxs;
    PC_VEC(fn_kernel) kernels; /* the kernel each FUNCTION walked as a kernel became */
    PC_VEC(CXCursor) roots;    /* the host functions walked from the top */
    PC_VEC(CXCursor) called;   /* definitions followed from a call: helpers, not entry points */
    PC_VEC(CXCursor) stack;    /* definitions being followed */
    PC_VEC(reach_memo) memo;
    PC_VEC(lost_call) lost;    /* calls that may set options but are not followed (a recursion, too deep) */
    PC_VEC(broken_decl) broken;
    int root;
    int follow;                /* > 0: in a helper's body at a call: option sites and FUNCTION positions only */
} host_walk;

enum { MAX_FOLLOW = 8, MAX_PARAMS = 16 };

static void host_stmt(pc_cx *cx, host_walk *w, CXCursor s);

static bool spelled(CXCursor c, const char *name)
{
    CXString s = clang_getCursorSpelling(c);
    bool hit = !strcmp(clang_getCString(s), name);
    clang_disposeString(s);
    return hit;
}

/* config::Reset(): every option back to its default, as several fixtures' SetUp does. */
static bool is_config_reset(CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref) || !spelled(ref, "Reset"))
        return false;
    CXCursor ns = clang_getCursorSemanticParent(ref);
    return clang_getCursorKind(ns) == CXCursor_Namespace && spelled(ns, "config");
}

static bool same_cursor_in(const CXCursor *items, size_t n, CXCursor c)
{
    for (size_t i = 0; i < n; i++)
        if (clang_equalCursors(items[i], c))
            return true;
    return false;
}

/* Can running def set an option, reset them or run a FUNCTION (directly or in what it calls)?
 * Only such helpers are followed from host code.  Memoised; a definition being searched counts as
 * no (a recursion adds nothing new). */
static bool reaches(pc_cx *cx, host_walk *w, CXCursor def, int depth);

typedef struct reach_search { pc_cx *cx; host_walk *w; int depth; bool found; } reach_search;

static enum CXChildVisitResult reach_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    reach_search *rs = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor body;
    if (k == CXCursor_CXXForRangeStmt && pc_clang_for_range_marker(rs->cx, c, &body) == PC_MK_FUNCTION)
        rs->found = true;
    else if (k == CXCursor_CallExpr && (spelled(c, "SetRuntimeOption") || is_config_reset(c)))
        rs->found = true;
    else if (k == CXCursor_CallExpr && rs->depth < MAX_FOLLOW) {
        CXCursor ref = clang_getCursorReferenced(c);
        CXCursor def = clang_Cursor_isNull(ref) ? ref : clang_getCursorDefinition(ref);
        rs->found = !clang_Cursor_isNull(def) && pc_clang_inlinable(rs->cx, def) &&
                    reaches(rs->cx, rs->w, def, rs->depth + 1);
    }
    return rs->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool reaches(pc_cx *cx, host_walk *w, CXCursor def, int depth)
{
    for (size_t i = 0; i < w->memo.count; i++)
        if (clang_equalCursors(w->memo.items[i].def, def))
            return w->memo.items[i].done && w->memo.items[i].reaches;
    size_t at = w->memo.count;
    reach_memo rm = {def, false, false};
    PC_VEC_PUSH(w->memo, rm);
    /* a call clang rejected is no CallExpr: its tokens still say so */
    reach_search rs = {cx, w, depth, pc_clang_mentions(cx, def, "SetRuntimeOption")};
    if (!rs.found)
        clang_visitChildren(def, reach_visit, &rs);
    w->memo.items[at].reaches = rs.found;
    w->memo.items[at].done = true;
    return rs.found;
}

/* A helper's body where host code calls it: its parameters bound to the call's arguments (a default
 * argument's value when the call leaves it out), evaluated where the call is. */
static void follow(pc_cx *cx, host_walk *w, CXCursor def, CXCursor call)
{
    if (!reaches(cx, w, def, 0))
        return;
    if (w->follow >= MAX_FOLLOW || same_cursor_in(w->stack.items, w->stack.count, def)) {
        lost_call l = {pc_clang_cursor_loc(cx, clang_Cursor_isNull(call) ? def : call),
                       pc_arena_strdup(cx->scratch, pc_clang_spelling(cx, def))};
        PC_VEC_PUSH(w->lost, l);
        PC_VEC_PUSH(w->active, -(int)w->lost.count);
        return;
    }
    if (!same_cursor_in(w->called.items, w->called.count, def))
        PC_VEC_PUSH(w->called, def);
    struct { CXCursor parm; pc_cvclass vc; const pc_expr *e; const char *str; } bind[MAX_PARAMS];
    int nbind = 0, nargs = clang_Cursor_isNull(call) ? 0 : clang_Cursor_getNumArguments(call), pi = 0;
    CXCursor body = clang_getNullCursor();
    pc_clang_cursors ch = {0};
    pc_clang_children(def, &ch);
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor c = ch.items[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_CompoundStmt)
            body = c;
        if (k != CXCursor_ParmDecl)
            continue;
        CXCursor arg = pi < nargs ? clang_Cursor_getArgument(call, (unsigned)pi) : clang_getNullCursor();
        CXCursor dflt = pc_clang_decl_init(c);
        pi++;
        pc_cvclass vc = pc_clang_classify_type(cx, clang_getCursorType(c));
        if (nbind >= MAX_PARAMS || (vc != PC_VC_INT && vc != PC_VC_STRING))
            continue;
        bind[nbind].parm = c;
        bind[nbind].vc = vc;
        bind[nbind].e = NULL;
        bind[nbind].str = NULL;
        if (vc == PC_VC_INT) {
            if (!clang_Cursor_isNull(arg))
                bind[nbind].e = pc_clang_value_int(cx, arg);
            if (!bind[nbind].e && !clang_Cursor_isNull(dflt))
                bind[nbind].e = pc_clang_value_int(cx, dflt);
        } else {
            bind[nbind].str = !clang_Cursor_isNull(arg) ? pc_clang_value_string(cx, arg)
                              : !clang_Cursor_isNull(dflt) ? pc_clang_value_string(cx, dflt) : NULL;
        }
        nbind++;
    }
    PC_VEC_FREE(ch);
    int saved_frame = cx->frame;
    size_t mark = cx->env.count;
    cx->frame = ++cx->next_frame;
    for (int i = 0; i < nbind; i++) {
        const char *name = pc_clang_spelling(cx, bind[i].parm);
        if (bind[i].vc == PC_VC_INT) {
            int id = pc_clang_env_push(cx, PC_CENV_EXPR, name, &bind[i].parm);
            cx->env.items[id].expr = bind[i].e ? bind[i].e : pc_expr_sym(pc_model_arena(cx->m), name);
        } else if (bind[i].str) {
            int id = pc_clang_env_push(cx, PC_CENV_STRING, name, &bind[i].parm);
            cx->env.items[id].str = bind[i].str;
        }
    }
    PC_VEC_PUSH(w->stack, def);
    w->follow++;
    if (!clang_Cursor_isNull(body))
        host_stmt(cx, w, body);
    w->follow--;
    w->stack.count--;
    cx->env.count = mark;
    cx->frame = saved_frame;
}

static enum CXChildVisitResult call_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        PC_VEC_PUSH(*(pc_clang_cursors *)d, c);
    /* a lambda's body is host code of its own, walked where the call it is passed to runs it
     * (lambda_arguments): its calls are made then, not where the lambda is written */
    return clang_getCursorKind(c) == CXCursor_LambdaExpr ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

/* The lambdas an argument passes (through the conversions and constructions that make a
 * std::function of it), not those of a call inside it, which that call passes. */
static enum CXChildVisitResult lambda_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr) {
        PC_VEC_PUSH(*(pc_clang_cursors *)d, c);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_CallExpr && clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_Constructor)
        return CXChildVisit_Continue;
    return CXChildVisit_Recurse;
}

/* model.md 8: a lambda handed to a call (upstream's tests wrap kernels in
 * CaptureLogFileAndEcho([]() { ... FUNCTION ... })) runs during that call: its body is walked
 * there as host code, so its FUNCTIONs are kernels with the options in force at the call. */
static void lambda_arguments(pc_cx *cx, host_walk *w, CXCursor call)
{
    int nargs = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < nargs; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        pc_clang_cursors lambdas = {0};
        if (clang_getCursorKind(arg) == CXCursor_LambdaExpr)
            PC_VEC_PUSH(lambdas, arg);
        else
            clang_visitChildren(arg, lambda_visit, &lambdas);
        for (size_t j = 0; j < lambdas.count; j++) {
            pc_clang_cursors ch = {0};
            pc_clang_children(lambdas.items[j], &ch);
            if (ch.count && clang_getCursorKind(ch.items[ch.count - 1]) == CXCursor_CompoundStmt)
                host_stmt(cx, w, ch.items[ch.count - 1]);
            PC_VEC_FREE(ch);
        }
        PC_VEC_FREE(lambdas);
    }
}

/* The calls host code makes in c: config::Reset, and the helpers that may set options or run a
 * FUNCTION, followed in the order they start. */
static void host_calls(pc_cx *cx, host_walk *w, CXCursor c)
{
    pc_clang_cursors calls = {0};
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        PC_VEC_PUSH(calls, c);
    clang_visitChildren(c, call_visit, &calls);
    for (size_t i = 0; i < calls.count; i++) {
        CXCursor call = calls.items[i];
        if (is_config_reset(call)) {
            w->base = w->active.count;
            continue;
        }
        CXCursor ref = clang_getCursorReferenced(call);
        CXCursor def = clang_Cursor_isNull(ref) ? ref : clang_getCursorDefinition(ref);
        if (!clang_Cursor_isNull(def) && pc_clang_inlinable(cx, def))
            follow(cx, w, def, call);
        if (clang_getCursorKind(ref) != CXCursor_Constructor) /* a std::function made of it: the call's */
            lambda_arguments(cx, w, call);
    }
    PC_VEC_FREE(calls);
}

/* An option site host code runs: the records it made are in force from here on. */
static void host_option(pc_cx *cx, host_walk *w, CXCursor s)
{
    int before = cx->m->noptions;
    pc_clang_option_site(cx, s);
    for (int i = before; i < cx->m->noptions; i++)
        PC_VEC_PUSH(w->active, i);
}

/* A FUNCTION host code reaches: the options in force there are its kernel's (one context). */
static void host_reach_function(host_walk *w, CXCursor s)
{
    opt_ctx c = {s, w->root, w->base, w->active.count};
    PC_VEC_PUSH(w->ctxs, c);
}

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
                if (!pc_clang_value_list_written(cx, pc_clang_call_arg(c, 1), &info.shape, &info.ndims))
                    info.ndims = -1;
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

/* The first clang error inside c in the main file (NULL when none).  A variable's extent stops
 * where clang gave up on its initialiser, so for one the declaration runs to its ';': looked for
 * only when an error follows the extent, and no further than that error. */
static const char *error_inside(pc_cx *cx, CXCursor c)
{
    uint32_t b, e;
    if (!cx->tu_errors || !cx->in_main || !pc_clang_offsets(cx, c, &b, &e))
        return NULL;
    const pc_cdiag *after = NULL;
    for (int i = 0; i < cx->ndiags; i++) {
        const pc_cdiag *d = &cx->diags[i];
        if (d->off >= b && d->off <= e)
            return d->text;
        if (d->off > e && (!after || d->off < after->off))
            after = d;
    }
    if (after && clang_getCursorKind(c) == CXCursor_VarDecl && pc_clang_declaration_end(cx, e, after->off) >= after->off)
        return after->text;
    return NULL;
}

/* Remember a declaration with a clang error (once, in the function's own walk). */
static void note_broken(pc_cx *cx, host_walk *w, CXCursor c, const char *name, bool function, CXCursor scope)
{
    if (w->follow || !name || !*name)
        return;
    const char *err = error_inside(cx, c);
    if (!err && !function && clang_isInvalidDeclaration(c))
        err = "clang rejected the declaration";
    if (!err)
        return;
    broken_decl bd = {pc_arena_strdup(cx->scratch, name), function, pc_clang_name_loc(cx, c, name), err, 0, UINT32_MAX};
    if (!clang_Cursor_isNull(scope)) {
        pc_loc sl = pc_clang_cursor_loc(cx, scope);
        bd.first_line = sl.line;
        bd.last_line = sl.end_line;
    }
    PC_VEC_PUSH(w->broken, bd);
}

static void host_vardecl(pc_cx *cx, host_walk *w, CXCursor v, CXCursor scope)
{
    const char *name = pc_clang_spelling(cx, v);
    pc_cvclass vc = pc_clang_classify_type(cx, clang_getCursorType(v));
    if (vc == PC_VC_TENSOR)
        host_tensor_decl(cx, v, name);
    else if (vc != PC_VC_OTHER)
        pc_clang_scalar_decl(cx, v, vc, name);
    if (vc != PC_VC_OTHER)
        note_broken(cx, w, v, name, false, scope);
}

static void host_children(pc_cx *cx, host_walk *w, CXCursor s, bool conditional)
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
        if (k == CXCursor_VarDecl) {
            host_calls(cx, w, c);
            host_vardecl(cx, w, c, w->roots.items[w->root]);
        } else if (clang_isStatement(k) || k == CXCursor_CompoundStmt) {
            host_stmt(cx, w, c);
        } else if (clang_isExpression(k) && conditional) {
            host_stmt(cx, w, c);
        }
    }
    cx->in_host_loop = saved;
    cx->env.count = mark;
    PC_VEC_FREE(ch);
}

static void host_stmt(pc_cx *cx, host_walk *w, CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    bool saved = cx->in_host_loop;
    switch (k) {
    case CXCursor_CompoundStmt: {
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
        size_t mark = cx->env.count;
        for (size_t i = 0; i < ch.count; i++)
            host_stmt(cx, w, ch.items[i]);
        cx->env.count = mark;
        PC_VEC_FREE(ch);
        return;
    }
    case CXCursor_DeclStmt: {
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
        for (size_t i = 0; i < ch.count; i++)
            if (clang_getCursorKind(ch.items[i]) == CXCursor_VarDecl) {
                host_calls(cx, w, ch.items[i]);
                host_vardecl(cx, w, ch.items[i], w->roots.items[w->root]);
            }
        PC_VEC_FREE(ch);
        return;
    }
    case CXCursor_CXXForRangeStmt: {
        CXCursor body = clang_getNullCursor();
        pc_cmarker mk = pc_clang_for_range_marker(cx, s, &body);
        if (mk == PC_MK_FUNCTION) {
            /* a helper's FUNCTION reached from a call is its own host function's kernel, walked
             * there once: here only the options in force are recorded for it */
            if (!w->follow) {
                int kernel = cx->m->nkernels;
                pc_clang_kernel_function(cx, s, body);
                if (cx->m->nkernels > kernel) {
                    fn_kernel fk = {s, kernel};
                    PC_VEC_PUSH(w->kernels, fk);
                }
            }
            host_reach_function(w, s);
            return;
        }
        if (mk == PC_MK_PROGRAM) {
            host_stmt(cx, w, body);
            return;
        }
        if (mk == PC_MK_LOOP) /* a LOOP outside FUNCTION (a helper): modelled where a kernel calls it */
            return;
        host_children(cx, w, s, true);
        return;
    }
    case CXCursor_IfStmt: case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt:
    case CXCursor_SwitchStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_CXXTryStmt:
    case CXCursor_CXXCatchStmt: case CXCursor_LabelStmt:
        host_children(cx, w, s, true);
        cx->in_host_loop = saved;
        return;
    default:
        break;
    }
    if (clang_isExpression(k)) {
        pc_clang_cursors lambdas = {0};
        clang_visitChildren(s, lambda_visit, &lambdas);
        bool passes_lambda = lambdas.count > 0; /* its SetRuntimeOption may be the lambda's */
        PC_VEC_FREE(lambdas);
        if (!passes_lambda && pc_clang_mentions(cx, s, "SetRuntimeOption")) {
            host_option(cx, w, s);
            return;
        }
        /* a helper followed at a call leaves the caller's variables as they are: its own walk
         * as a host function already gave its assignments their place in the file */
        if (!w->follow)
            pc_clang_scalar_assign(cx, s);
        host_calls(cx, w, s);
    }
}

/* ---- TEST_F fixtures ---------------------------------------------------------------------------- */

/* The definition of method `name` of class cls or, when it has none, of the nearest base that has
 * one (gtest calls the most derived override). */
typedef struct method_find { const char *name; CXCursor found; } method_find;

static enum CXChildVisitResult method_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    method_find *mf = d;
    if (clang_getCursorKind(c) == CXCursor_CXXMethod && spelled(c, mf->name)) {
        CXCursor def = clang_getCursorDefinition(c);
        if (!clang_Cursor_isNull(def)) {
            mf->found = def;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

static CXCursor inherited_method(CXCursor cls, const char *name, int depth)
{
    method_find mf = {name, clang_getNullCursor()};
    if (clang_Cursor_isNull(cls) || depth > MAX_FOLLOW)
        return mf.found;
    clang_visitChildren(cls, method_visit, &mf);
    if (!clang_Cursor_isNull(mf.found))
        return mf.found;
    pc_clang_cursors ch = {0};
    pc_clang_children(cls, &ch);
    for (size_t i = 0; i < ch.count && clang_Cursor_isNull(mf.found); i++)
        if (clang_getCursorKind(ch.items[i]) == CXCursor_CXXBaseSpecifier) {
            CXCursor base = clang_getCursorDefinition(clang_getTypeDeclaration(clang_getCursorType(ch.items[i])));
            mf.found = inherited_method(base, name, depth + 1);
        }
    PC_VEC_FREE(ch);
    return mf.found;
}

/* A TEST_F / TEST_P body is the TestBody of a class derived from the fixture; gtest runs the
 * fixture's SetUpTestSuite (SetUpTestCase in older gtest) and SetUp before it. */
static void fixture_setup(pc_cx *cx, host_walk *w, CXCursor fn)
{
    if (clang_getCursorKind(fn) != CXCursor_CXXMethod || !spelled(fn, "TestBody"))
        return;
    CXCursor cls = clang_getCursorSemanticParent(fn);
    static const char *const setups[] = {"SetUpTestSuite", "SetUpTestCase", "SetUp"};
    for (size_t i = 0; i < sizeof setups / sizeof *setups; i++) {
        CXCursor def = inherited_method(cls, setups[i], 0);
        if (!clang_Cursor_isNull(def) && pc_clang_inlinable(cx, def))
            follow(cx, w, def, clang_getNullCursor());
    }
}

/* A function, method or function template defined in the main file: one root of the walk. */
static void host_function(pc_cx *cx, host_walk *w, CXCursor fn)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(fn, &ch);
    int saved_frame = cx->frame;
    size_t mark = cx->env.count;
    cx->frame = ++cx->next_frame;
    w->root = (int)w->roots.count;
    PC_VEC_PUSH(w->roots, fn);
    w->base = w->active.count; /* from the defaults */
    fixture_setup(cx, w, fn);
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
            host_stmt(cx, w, c);
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

static void walk_decls(pc_cx *cx, host_walk *w, CXCursor parent)
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
            walk_decls(cx, w, c);
            break;
        case CXCursor_VarDecl:
            host_vardecl(cx, w, c, clang_getNullCursor());
            break;
        case CXCursor_FunctionDecl: case CXCursor_CXXMethod: case CXCursor_FunctionTemplate:
        case CXCursor_Constructor: case CXCursor_Destructor:
            if (clang_isCursorDefinition(c)) {
                host_function(cx, w, c);
                note_broken(cx, w, c, pc_clang_spelling(cx, c), true, clang_getNullCursor());
            }
            break;
        default:
            break;
        }
    }
    PC_VEC_FREE(ch);
}

/* ---- which kernels each option record configures --------------------------------------------- */

static bool same_config(const pc_runtime_config *a, const pc_runtime_config *b)
{
    return a->max_num == b->max_num && a->workspace_kb == b->workspace_kb && a->parallelism == b->parallelism &&
           a->pool[0] == b->pool[0] && a->pool[1] == b->pool[1] && a->pool[2] == b->pool[2];
}

/* The configuration a context gives (from the defaults), and the first call in it that was not
 * followed (-1 if none). */
static int ctx_config(const pc_model *m, const host_walk *w, const opt_ctx *c, pc_runtime_config *out)
{
    int lost = -1;
    pc_cfg_defaults(out);
    for (size_t i = c->begin; i < c->end; i++) {
        int r = w->active.items[i];
        if (r >= 0)
            pc_cfg_apply(out, &m->options[r]);
        else if (lost < 0)
            lost = -1 - r;
    }
    return lost;
}

/* What the two configurations differ in, for a message: "stitch_function_max_num 100 and 4". */
static const char *config_difference(pc_cx *cx, const pc_runtime_config *a, const pc_runtime_config *b)
{
    if (a->max_num != b->max_num)
        return pc_arena_printf(cx->scratch, "%s %lld and %lld", PC_KEY_MAX_NUM, (long long)a->max_num,
                               (long long)b->max_num);
    if (a->workspace_kb != b->workspace_kb)
        return pc_arena_printf(cx->scratch, "%s %lld and %lld", PC_KEY_WORKSPACE_KB, (long long)a->workspace_kb,
                               (long long)b->workspace_kb);
    if (a->parallelism != b->parallelism)
        return pc_arena_printf(cx->scratch, "%s %lld and %lld", PC_KEY_PARALLELISM, (long long)a->parallelism,
                               (long long)b->parallelism);
    return pc_arena_printf(cx->scratch, "%s [%lld, %lld, %lld] and [%lld, %lld, %lld]", PC_KEY_POOL,
                           (long long)a->pool[0], (long long)a->pool[1], (long long)a->pool[2],
                           (long long)b->pool[0], (long long)b->pool[1], (long long)b->pool[2]);
}

typedef struct opt_bind { int record, kernel; } opt_bind;
typedef PC_VEC(opt_bind) opt_binds;

/* The records of context c that kernel k takes.  Records that never apply (an invalid value, one
 * poolcheck cannot read, a key it does not model) are taken for their checks and the fixes of the
 * kernels they target.  Of the records that apply, the last of each key wins; an earlier one is
 * taken too when it also comes earlier in the file (the model's options are in source order, and
 * within a rank the later one wins), else left out so that it cannot win. */
static void bind_context(const pc_model *m, const host_walk *w, const opt_ctx *c, int k, opt_binds *out)
{
    for (size_t i = c->begin; i < c->end; i++) {
        int r = w->active.items[i];
        if (r < 0)
            continue;
        const pc_option *o = &m->options[r];
        bool take = true;
        if (pc_cfg_applicable(o->key, &o->value)) {
            int winner = r;
            for (size_t j = i + 1; j < c->end; j++) {
                int q = w->active.items[j];
                if (q >= 0 && !strcmp(m->options[q].key, o->key) &&
                    pc_cfg_applicable(m->options[q].key, &m->options[q].value))
                    winner = q;
            }
            int order = pc_clang_loc_cmp(o->loc, m->options[winner].loc);
            take = winner == r || order < 0 || (order == 0 && r < winner);
        }
        for (size_t b = 0; b < out->count && take; b++)
            take = !(out->items[b].record == r && out->items[b].kernel == k);
        if (take) {
            opt_bind ob = {r, k};
            PC_VEC_PUSH(*out, ob);
        }
    }
}

/* A PC012 of kernel k after the walk, at its FUNCTION. */
static void kernel_unanalysed(pc_cx *cx, int k, const char *message)
{
    int saved_kernel = cx->kernel;
    pc_cblock saved_block = cx->block;
    cx->kernel = k;
    cx->block = (pc_cblock){PC_CBLK_KERNEL, 0, 0};
    pc_clang_unanalysed(cx, cx->m->kernels[k].loc, message);
    pc_clang_block_sort_last(cx, cx->block);
    cx->kernel = saved_kernel;
    cx->block = saved_block;
}

/* Contexts of kernels reached through a helper from an entry point count, the helper's own walk
 * as if it ran alone does not; a helper nobody in the file calls is an entry point itself. */
static bool entry_point(const host_walk *w, int root)
{
    return !same_cursor_in(w->called.items, w->called.count, w->roots.items[root]);
}

/* The model's options after the walk: each kept record once per kernel it configures, or once
 * with kernel -1 when it configures every kernel of the file (the model's "module" option, as a
 * file with one kernel has always had it).  Module options rank below a kernel's own in the
 * configuration, so the result is checked against what each kernel's context gives; should
 * the two ever differ, every record names its kernels. */
static void place_records(pc_cx *cx, const host_walk *w, const opt_binds *binds, const bool *keep, int n,
                          const pc_runtime_config *expected)
{
    pc_model *m = cx->m;
    pc_option *orig = pc_mem_calloc((size_t)(n ? n : 1), sizeof *orig);
    if (n > 0) /* (m->options is NULL in a file with none) */
        memcpy(orig, m->options, sizeof *orig * (size_t)n);
    int total = 0;
    for (int r = 0; r < n; r++) {
        int nk = 0;
        for (size_t b = 0; b < binds->count; b++)
            nk += binds->items[b].record == r;
        total += keep[r] ? (nk > 1 ? nk : 1) : 0;
    }
    while (m->noptions < total) /* room for the copies */
        pc_model_add_option(m, "", PC_SITE_CPP_SET_RUNTIME_OPTION, orig[0].loc);
    for (int collapse = 1; collapse >= 0; collapse--) {
        int out = 0;
        bool collapsed = false;
        for (int r = 0; r < n; r++) {
            if (!keep[r])
                continue;
            int nk = 0;
            bool all = m->nkernels > 0;
            for (int k = 0; k < m->nkernels && all; k++) {
                bool has = false;
                for (size_t b = 0; b < binds->count && !has; b++)
                    has = binds->items[b].record == r && binds->items[b].kernel == k;
                all = has;
            }
            for (size_t b = 0; b < binds->count; b++)
                nk += binds->items[b].record == r;
            if (nk == 0 || (collapse && all)) {
                m->options[out] = orig[r];
                if (nk)
                    m->options[out].kernel = -1;
                collapsed |= nk > 0;
                out++;
                continue;
            }
            for (size_t b = 0; b < binds->count; b++) /* a copy per kernel, beside the original */
                if (binds->items[b].record == r) {
                    m->options[out] = orig[r];
                    m->options[out].kernel = binds->items[b].kernel;
                    out++;
                }
        }
        m->noptions = out;
        pc_clang_sort_options(m);
        if (!collapse || !collapsed)
            break;
        bool same = true;
        for (size_t f = 0; f < w->kernels.count && same; f++) {
            pc_runtime_config got;
            pc_cfg_resolve(&got, m, w->kernels.items[f].kernel, NULL, 0, NULL, 0);
            same = same_config(&got, &expected[f]);
        }
        if (same)
            break;
    }
    pc_mem_free(orig);
}

static void scope_options(pc_cx *cx, host_walk *w, int first_record)
{
    pc_model *m = cx->m;
    opt_binds binds = {0};
    PC_VEC(size_t) mine = {0};
    /* what each kernel's options must come to: its (first) context's configuration */
    pc_runtime_config *expected = pc_mem_calloc(w->kernels.count ? w->kernels.count : 1, sizeof *expected);
    for (size_t f = 0; f < w->kernels.count; f++) {
        int k = w->kernels.items[f].kernel;
        pc_cfg_defaults(&expected[f]);
        mine.count = 0;
        for (int pass = 0; pass < 2 && !mine.count; pass++)
            for (size_t c = 0; c < w->ctxs.count; c++)
                if (clang_equalCursors(w->ctxs.items[c].function, w->kernels.items[f].function) &&
                    (pass == 1 || entry_point(w, w->ctxs.items[c].root)))
                    PC_VEC_PUSH(mine, c);
        if (!mine.count)
            continue;
        pc_runtime_config first, other;
        int lost = ctx_config(m, w, &w->ctxs.items[mine.items[0]], &first);
        expected[f] = first;
        /* Callers that differ in what the analysis reads (k, the pool triple, the parallelism)
         * make one model wrong for some of them: PC012.  A different max_workspace_kb changes no
         * depth, only PC010's verdict: the kernel takes the smallest budget set (the one PC010
         * must judge), without a warning. */
        size_t differs = 0, strictest = 0;
        bool budgets_differ = false;
        for (size_t i = 1; i < mine.count && !differs; i++) {
            ctx_config(m, w, &w->ctxs.items[mine.items[i]], &other);
            int64_t ws = other.workspace_kb;
            other.workspace_kb = first.workspace_kb;
            if (!same_config(&first, &other))
                differs = i;
            budgets_differ |= ws != first.workspace_kb;
        }
        if (!differs && budgets_differ) {
            int64_t best = 0;
            for (size_t i = 0; i < mine.count; i++) {
                ctx_config(m, w, &w->ctxs.items[mine.items[i]], &other);
                if (other.workspace_kb > 0 && (best == 0 || other.workspace_kb < best)) {
                    best = other.workspace_kb;
                    strictest = i;
                }
            }
            ctx_config(m, w, &w->ctxs.items[mine.items[strictest]], &expected[f]);
        }
        if (differs || budgets_differ)
            bind_context(m, w, &w->ctxs.items[mine.items[differs ? 0 : strictest]], k, &binds);
        else
            for (size_t i = 0; i < mine.count; i++)
                bind_context(m, w, &w->ctxs.items[mine.items[i]], k, &binds);
        if (differs) {
            const opt_ctx *a = &w->ctxs.items[mine.items[0]], *b = &w->ctxs.items[mine.items[differs]];
            ctx_config(m, w, b, &other);
            kernel_unanalysed(
                cx, k,
                pc_arena_printf(cx->scratch,
                                "an option site may change this kernel's options: the host functions at lines %u "
                                "and %u run its FUNCTION with different runtime options (%s); it is analysed "
                                "with the first's",
                                pc_clang_cursor_loc(cx, w->roots.items[a->root]).line,
                                pc_clang_cursor_loc(cx, w->roots.items[b->root]).line,
                                config_difference(cx, &first, &other)));
        }
        if (lost >= 0)
            kernel_unanalysed(cx, k,
                              pc_arena_printf(cx->scratch,
                                              "an option site may change this kernel's options: '%s' (line %u) "
                                              "is not followed (a recursion or more than %d calls deep)",
                                              w->lost.items[lost].name, w->lost.items[lost].loc.line, MAX_FOLLOW));
    }
    PC_VEC_FREE(mine);

    /* Each host record: the kernels it configures, or none.  A record that configures no kernel
     * must not apply to any: it goes, unless it is the one record of its site and never applies
     * anyway (kept for PC002 / PC003 and their fixes). */
    int n = m->noptions;
    bool *keep = pc_mem_calloc((size_t)(n ? n : 1), sizeof *keep);
    for (int r = 0; r < n; r++) {
        const pc_option *o = &m->options[r];
        keep[r] = !(r >= first_record && o->site == PC_SITE_CPP_SET_RUNTIME_OPTION && !o->in_kernel && o->kernel < 0);
        for (size_t b = 0; b < binds.count && !keep[r]; b++)
            keep[r] = binds.items[b].record == r;
    }
    for (int r = 0; r < n; r++) {
        if (keep[r] || pc_cfg_applicable(m->options[r].key, &m->options[r].value))
            continue;
        bool represented = false;
        for (int q = 0; q < n && !represented; q++)
            represented = q != r && keep[q] && m->options[q].site == PC_SITE_CPP_SET_RUNTIME_OPTION &&
                          !pc_clang_loc_cmp(m->options[q].loc, m->options[r].loc);
        keep[r] = !represented;
    }
    place_records(cx, w, &binds, keep, n, expected);
    pc_mem_free(keep);
    pc_mem_free(expected);
    PC_VEC_FREE(binds);
}

/* ---- kernels that read a declaration clang rejected ------------------------------------------ */

static bool names_broken(const broken_decl *bd, const pc_expr *e)
{
    const char *names[32];
    size_t n = e ? pc_expr_symbols(e, names, 0, 32) : 0;
    size_t len = strlen(bd->name);
    for (size_t i = 0; i < n; i++) {
        if (!bd->function && !strcmp(names[i], bd->name))
            return true;
        /* a helper's call kept as text: "Tiles()", "2 * Tiles(n)" */
        for (const char *p = strstr(names[i], bd->name); bd->function && p; p = strstr(p + 1, bd->name))
            if (p[len] == '(' && (p == names[i] || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                                     (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'))))
                return true;
    }
    return false;
}

/* Where kernel k reads bd, if it does: a LOOP bound, a tensor's shape or an IF condition. */
static bool kernel_reads(const pc_kernel *k, const broken_decl *bd, pc_loc *at)
{
    if (k->loc.line < bd->first_line || k->loc.line > bd->last_line)
        return false;
    for (int i = 0; i < k->nloops; i++) {
        const pc_loop *l = &k->loops[i];
        if (names_broken(bd, l->begin) || names_broken(bd, l->end) || names_broken(bd, l->step)) {
            *at = l->loc;
            return true;
        }
    }
    for (int i = 0; i < k->ntensors; i++)
        for (int d = 0; d < k->tensors[i].ndims && k->tensors[i].shape; d++)
            if (names_broken(bd, k->tensors[i].shape[d])) {
                *at = k->tensors[i].loc;
                return true;
            }
    for (int i = 0; i < k->nstmts; i++)
        for (int b = 0; b < k->stmts[i].nbranches; b++)
            if (names_broken(bd, k->stmts[i].branches[b].cond)) {
                *at = k->stmts[i].branches[b].loc;
                return true;
            }
    return false;
}

/* A value a kernel reads from a declaration with a clang error is not what the source says: a
 * PC012 naming the declaration, never a silent symbol (or 0) in the numbers. */
static void report_broken_reads(pc_cx *cx, const host_walk *w)
{
    for (int k = 0; k < cx->m->nkernels; k++)
        for (size_t i = 0; i < w->broken.count; i++) {
            const broken_decl *bd = &w->broken.items[i];
            pc_loc at;
            if (!kernel_reads(&cx->m->kernels[k], bd, &at))
                continue;
            int saved_kernel = cx->kernel;
            pc_cblock saved_block = cx->block;
            cx->kernel = k;
            cx->block = (pc_cblock){PC_CBLK_KERNEL, 0, 0};
            pc_clang_unanalysed(
                cx, at,
                pc_arena_printf(cx->scratch, "%s '%s' (line %u) has a clang error (clang: %s), so its value is "
                                "unknown and what this kernel does with it is not modelled",
                                bd->function ? "helper" : "declaration of", bd->name, bd->loc.line, bd->error));
            pc_clang_block_sort_last(cx, cx->block);
            cx->kernel = saved_kernel;
            cx->block = saved_block;
        }
}

void pc_clang_walk_decls(pc_cx *cx, CXCursor parent)
{
    host_walk w;
    memset(&w, 0, sizeof w);
    int first_record = cx->m->noptions;
    walk_decls(cx, &w, parent);
    scope_options(cx, &w, first_record);
    report_broken_reads(cx, &w);
    PC_VEC_FREE(w.broken);
    PC_VEC_FREE(w.active);
    PC_VEC_FREE(w.ctxs);
    PC_VEC_FREE(w.kernels);
    PC_VEC_FREE(w.roots);
    PC_VEC_FREE(w.called);
    PC_VEC_FREE(w.stack);
    PC_VEC_FREE(w.memo);
    PC_VEC_FREE(w.lost);
}

/* ---- host functions ------------------------------------------------------------------------ */

bool pc_clang_host_fn_take(CXCursor c, enum CXChildVisitResult *pass)
{
    *pass = CXChildVisit_Continue;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return false;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl || k == CXCursor_StructDecl) {
        *pass = CXChildVisit_Recurse;
        return false;
    }
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
           k == CXCursor_Constructor;
}

static enum CXChildVisitResult host_fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    pc_cx *cx = data;
    enum CXChildVisitResult pass;
    if (!pc_clang_host_fn_take(c, &pass))
        return pass;
    struct pc_chostfn h = {c, pc_clang_cursor_loc(cx, c)};
    PC_VEC_PUSH(cx->host_fns, h);
    return CXChildVisit_Continue;
}

bool pc_clang_host_function(pc_cx *cx, pc_loc at, CXCursor *fn)
{
    if (!cx->in_main || !cx->tu)
        return false;
    if (!cx->host_fns_scanned) {
        pc_clang_visit_tu(cx->tu, host_fn_visit, cx);
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
    const pc_expr *c = pc_clang_value_int_written(cx, cond);
    const char *text = NULL;
    uint32_t tb, te;
    if (pc_clang_written_offsets(cx, cond, &tb, &te) && te > tb)
        text = pc_model_strdup(cx->m, pc_arena_strndup(cx->scratch, cx->src + tb, te - tb));
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
 * (-1 when not a constant one or more than max, *over_max then set for the latter) and sets
 * *var_decl to the variable; *unbound (when
 * not NULL) names the first unbound symbol the condition depends on. */
static int64_t host_for_values(pc_cx *cx, CXCursor s, CXCursor *var_decl, int64_t *vals, int64_t max,
                               const char **unbound, bool *over_max)
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
                    *over_max = true;
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

/* Why a host loop with a known trip count is not unrolled. */
static const char *budget_message(pc_cx *cx, const char *what)
{
    return pc_arena_printf(cx->scratch,
                           "host loop 'for' is not unrolled: it would pass the budget of %d unrolled host-loop "
                           "iterations per kernel, so %s modelled once",
                           (int)PC_HOST_UNROLL_BUDGET, what);
}

/* for / while / do and host for-range loops inside a kernel run at trace time: their bodies
 * belong to the enclosing root function.  A body holding a LOOP is repeated per iteration when
 * the trip count is known and within the unroll budget (each iteration makes that LOOP again). */
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
    bool over_budget = false;
    int ntensors0 = cx->kernel >= 0 ? cx->m->kernels[cx->kernel].ntensors : 0;
    int nstmts0 = cx->kernel >= 0 ? cx->m->kernels[cx->kernel].nstmts : 0;
    if (clang_getCursorKind(s) == CXCursor_ForStmt) {
        /* every iteration is walked (like a Python range()), with or without a LOOP in the body:
         * each iteration makes its tensors and LOOPs again in the enclosing root (docs/model.md
         * section 2), within the kernel's budget of unrolled iterations */
        if (cx->host_unroll_kernel != cx->kernel) {
            cx->host_unroll_kernel = cx->kernel;
            cx->host_unrolled = 0;
        }
        int64_t room = PC_HOST_UNROLL_BUDGET - cx->host_unrolled;
        int64_t *vals = pc_mem_alloc((size_t)(room + 1) * sizeof *vals);
        CXCursor v = clang_getNullCursor();
        int64_t n = host_for_values(cx, s, &v, vals, room, &unbound, &over_budget);
        if (n < 0)
            pc_mem_free(vals);
        if (n >= 0) {
            cx->host_unrolled += (int)n;
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
            pc_mem_free(vals);
            return;
        }
    }
    if (has_loop) {
        pc_clang_begin_leaf(cx, s);
        pc_clang_unanalysed(cx, pc_clang_cursor_loc(cx, s),
                            over_budget ? budget_message(cx, "its LOOPs are")
                                        : "host loop around a LOOP with no constant trip count: its LOOPs are "
                                          "modelled once");
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
                            over_budget ? budget_message(cx, "its body, which does tensor work, is")
                            : clang_getCursorKind(s) == CXCursor_ForStmt
                                ? "host loop 'for' without a constant trip count: its body, which does tensor "
                                  "work, is modelled once"
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
