/*
 * clang_value.c - values from the AST: integers and symbolic scalars, lists, strings, dtypes and
 * runtime-option values, read from cursors and keyed by declaration (clang_getCursorReferenced),
 * never by re-lexing the source.
 *
 * What clang can fold itself (literals, constexpr / const variables, enumerators, constexpr
 * function calls such as a `template <class T> constexpr T Ceil(T, T)`, sizeof) comes from
 * clang_Cursor_Evaluate.  What it cannot (SymbolicScalar arithmetic, loop indices, GetInputShape,
 * helpers that are not constexpr) is built here as a pc_expr over the same cursor kinds: binary and
 * unary operators (built-in or overloaded), the conditional operator, calls of one-`return`
 * helpers with their parameters bound, std::min / std::max.  A NULL result means "not a value this
 * module models"; callers decide whether that is a symbol, a PC012 or another reader's turn.
 *
 * The operator of a BinaryOperator: clang_getCursorBinaryOperatorKind where libclang has it
 * (LLVM 17, CINDEX_VERSION_MINOR 64), otherwise the one punctuation token between the two operand
 * cursors (operator_spelling below).
 */
#include "clang_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 64

/* ---- cursor helpers --------------------------------------------------------------------------- */

typedef struct kids { CXCursor c[8]; int n; } kids;

static enum CXChildVisitResult kid_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (k->n < 8)
        k->c[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static kids kids_of(CXCursor c)
{
    kids k;
    k.n = 0;
    clang_visitChildren(c, kid_visit, &k);
    return k;
}

/* A default argument the call does not write (libclang shows it as an expression without a source
 * location): the real std::vector(std::initializer_list, const Allocator & = Allocator()) that
 * SetVecTile({1, 32}) constructs has one, the stub's vector none. */
static bool is_default_arg(CXCursor c)
{
    return clang_equalLocations(clang_getCursorLocation(c), clang_getNullLocation()) != 0;
}

/* The arguments of a call that its source writes: the count less the trailing default ones. */
int pc_clang_written_nargs(CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);
    while (n > 0 && is_default_arg(clang_Cursor_getArgument(call, (unsigned)n - 1)))
        n--;
    return n;
}


/* Implicit and explicit conversions, parentheses, temporaries and single-argument constructions
 * (SymbolicScalar(int), int64_t(x); default arguments aside) are transparent for values. */
static CXCursor value_strip(CXCursor c)
{
    for (int guard = 0; guard < 32; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        kids ch;
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr || k == CXCursor_CStyleCastExpr ||
            k == CXCursor_CXXFunctionalCastExpr || k == CXCursor_CXXStaticCastExpr) {
            ch = kids_of(c);
            if (ch.n < 1 || ch.n > 8)
                return c;
            /* a cast's children are its type reference(s) first, the operand last */
            c = ch.c[ch.n - 1];
            continue;
        }
        if (k == CXCursor_CallExpr) {
            CXCursor ref = clang_getCursorReferenced(c);
            if (clang_getCursorKind(ref) == CXCursor_Constructor && pc_clang_written_nargs(c) == 1) {
                c = clang_Cursor_getArgument(c, 0);
                continue;
            }
        }
        return c;
    }
    return c;
}

static bool file_offset(CXSourceLocation l, CXFile *f, unsigned *off)
{
    clang_getFileLocation(l, f, NULL, NULL, off);
    return *f != NULL;
}

static bool is_operator_text(const char *s)
{
    static const char *const ops[] = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||",
                                      "&", "|", "^", "<<", ">>", "=", "+=", "-=", "*=", "/=", "%=", "<<=",
                                      ">>=", "&=", "|=", "^=", ",", "<=>", "->*", ".*", NULL};
    for (int i = 0; ops[i]; i++)
        if (!strcmp(ops[i], s))
            return true;
    return false;
}

const char *pc_clang_operator_spelling(pc_cx *cx, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
#if CINDEX_VERSION_MINOR >= 64
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        CXString s = clang_getBinaryOperatorKindSpelling(clang_getCursorBinaryOperatorKind(c));
        const char *r = pc_arena_strdup(cx->scratch, clang_getCString(s) ? clang_getCString(s) : "");
        clang_disposeString(s);
        if (*r)
            return r;
    }
#endif
    kids ch = kids_of(c);
    bool unary = k == CXCursor_UnaryOperator;
    if (unary ? ch.n != 1 : ch.n != 2)
        return NULL;
    CXToken *toks = NULL;
    unsigned n = 0;
    const char *r = NULL;
    CXFile f0 = NULL, f1 = NULL;
    unsigned a = 0, b = 0;
    if (unary) {
        /* prefix: the first token is before the operand; postfix: the last one is after it */
        clang_tokenize(cx->tu, clang_getCursorExtent(c), &toks, &n);
        CXFile tf = NULL;
        unsigned t0 = 0;
        if (n > 0 && file_offset(clang_getRangeStart(clang_getCursorExtent(ch.c[0])), &f0, &a) &&
            file_offset(clang_getTokenLocation(cx->tu, toks[0]), &tf, &t0) && clang_File_isEqual(tf, f0)) {
            CXString s = clang_getTokenSpelling(cx->tu, toks[t0 < a ? 0 : n - 1]);
            r = pc_arena_strdup(cx->scratch, clang_getCString(s));
            clang_disposeString(s);
        }
    } else {
        CXSourceLocation lhs_end = clang_getRangeEnd(clang_getCursorExtent(ch.c[0]));
        CXSourceLocation rhs_start = clang_getRangeStart(clang_getCursorExtent(ch.c[1]));
        /* the one punctuation token between the operands: only that gap is lexed, so a nest of
         * binary operators costs its length once, not once per level (and an expression from a
         * macro, whose operands share the expansion's location, costs nothing) */
        if (file_offset(lhs_end, &f0, &a) && file_offset(rhs_start, &f1, &b) && clang_File_isEqual(f0, f1) && a <= b)
            clang_tokenize(cx->tu, clang_getRange(lhs_end, rhs_start), &toks, &n);
        for (unsigned i = 0; i < n; i++) {
            CXFile tf = NULL;
            unsigned to = 0;
            if (clang_getTokenKind(toks[i]) != CXToken_Punctuation ||
                !file_offset(clang_getTokenLocation(cx->tu, toks[i]), &tf, &to) || !clang_File_isEqual(tf, f0))
                continue;
            if (to >= a && to < b) {
                CXString s = clang_getTokenSpelling(cx->tu, toks[i]);
                r = pc_arena_strdup(cx->scratch, clang_getCString(s));
                clang_disposeString(s);
                break;
            }
        }
    }
    if (toks)
        clang_disposeTokens(cx->tu, toks, n);
    if (r && !unary && !is_operator_text(r))
        r = NULL;
    return r;
}

typedef struct elems { CXCursor *c; int n, cap; } elems;

static enum CXChildVisitResult elem_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    elems *el = d;
    if (el->n == el->cap) {
        el->cap = el->cap ? el->cap * 2 : 8;
        el->c = pc_mem_realloc(el->c, sizeof *el->c * (size_t)el->cap);
    }
    el->c[el->n++] = c;
    return CXChildVisit_Continue;
}

/* ---- integers and symbolic scalars ----------------------------------------------------------- */

bool pc_clang_is_builtin_int(CXType value_type)
{
    switch (value_type.kind) {
    case CXType_Bool: case CXType_Char_S: case CXType_Char_U: case CXType_SChar: case CXType_UChar:
    case CXType_Short: case CXType_UShort: case CXType_Int: case CXType_UInt: case CXType_Long:
    case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
        return true;
    default:
        return false;
    }
}

/* An integer or enum type: what clang can fold to an integer. */
static bool integral_type(CXType t)
{
    CXType c = pc_clang_value_type(t);
    return c.kind == CXType_Enum || pc_clang_is_builtin_int(c);
}

/* clang's own folding of an integral expression (NULL when it cannot). */
static const pc_expr *clang_fold(pc_cx *cx, CXCursor e)
{
    if (!integral_type(clang_getCursorType(e)))
        return NULL;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return NULL;
    const pc_expr *v = NULL;
    if (clang_EvalResult_getKind(r) == CXEval_Int)
        v = pc_expr_int(pc_model_arena(cx->m), clang_EvalResult_getAsLongLong(r));
    clang_EvalResult_dispose(r);
    return v;
}

static int env_by_decl(pc_cx *cx, CXCursor decl)
{
    for (size_t i = cx->env.count; i-- > 0;) {
        pc_cenv *e = &cx->env.items[i];
        if (e->has_decl && e->name[0] && clang_equalCursors(e->decl, decl))
            return (int)i;
    }
    return -1;
}

int pc_clang_env_of_decl(pc_cx *cx, CXCursor decl) { return env_by_decl(cx, decl); }

/* The initialiser expression of a variable declaration, or a null cursor. */
static CXCursor var_init(CXCursor var)
{
    kids ch = kids_of(var);
    for (int i = ch.n < 8 ? ch.n : 8; i-- > 0;) {
        enum CXCursorKind k = clang_getCursorKind(ch.c[i]);
        if (clang_isExpression(k))
            return ch.c[i];
    }
    return clang_getNullCursor();
}

static const pc_expr *vint(pc_cx *cx, CXCursor e, int depth, bool w);
static bool vlist(pc_cx *cx, CXCursor e, int depth, bool w, const pc_expr ***dims, int *nd);

static pc_expr_kind binop_kind(const char *op, bool *ok)
{
    static const struct { const char *s; pc_expr_kind k; } map[] = {
        {"+", PC_EXPR_ADD}, {"-", PC_EXPR_SUB}, {"*", PC_EXPR_MUL}, {"/", PC_EXPR_DIV},
        {"<", PC_EXPR_LT}, {"<=", PC_EXPR_LE}, {">", PC_EXPR_GT}, {">=", PC_EXPR_GE}, {"==", PC_EXPR_EQ},
        {"!=", PC_EXPR_NE}, {"&&", PC_EXPR_AND}, {"||", PC_EXPR_OR},
    };
    *ok = false;
    if (!op)
        return PC_EXPR_INT;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(map[i].s, op)) {
            *ok = true;
            return map[i].k;
        }
    return PC_EXPR_INT;
}

/* C++ `l % r`: the remainder of truncating division, which takes the sign of l (-7 % 4 is -3).
 * The model's MOD is Python's (floor: -7 % 4 is 1), so C++ writes it through truncating DIV:
 * l - (l / r) * r, exact for every sign. */
const pc_expr *pc_clang_cpp_mod(pc_arena *a, const pc_expr *l, const pc_expr *r)
{
    int64_t x, y;
    if (pc_expr_is_int(l, &x) && pc_expr_is_int(r, &y) && y != 0 && !(x == INT64_MIN && y == -1))
        return pc_expr_int(a, x % y);
    return pc_expr_bin(a, PC_EXPR_SUB, l, pc_expr_bin(a, PC_EXPR_MUL, pc_expr_bin(a, PC_EXPR_DIV, l, r), r));
}

static const pc_expr *binary(pc_cx *cx, const char *op, const pc_expr *l, const pc_expr *r)
{
    if (!l || !r || !op)
        return NULL;
    pc_arena *a = pc_model_arena(cx->m);
    if (!strcmp(op, "%"))
        return pc_clang_cpp_mod(a, l, r);
    bool ok;
    pc_expr_kind k = binop_kind(op, &ok);
    if (ok)
        return pc_expr_bin(a, k, l, r);
    int64_t x, y;
    if (!pc_expr_is_int(l, &x) || !pc_expr_is_int(r, &y))
        return NULL;
    if (!strcmp(op, "&"))
        return pc_expr_int(a, x & y);
    if (!strcmp(op, "|"))
        return pc_expr_int(a, x | y);
    if (!strcmp(op, "^"))
        return pc_expr_int(a, x ^ y);
    if (!strcmp(op, "<<") && y >= 0 && y < 63)
        return pc_expr_int(a, (int64_t)((uint64_t)x << y));
    if (!strcmp(op, ">>") && y >= 0 && y < 63)
        return pc_expr_int(a, x >> y);
    return NULL;
}

static const pc_expr *unary(pc_cx *cx, const char *op, const pc_expr *v)
{
    if (!v || !op)
        return NULL;
    pc_arena *a = pc_model_arena(cx->m);
    if (!strcmp(op, "-"))
        return pc_expr_neg(a, v);
    if (!strcmp(op, "+"))
        return v;
    if (!strcmp(op, "!"))
        return pc_expr_not(a, v);
    int64_t x;
    if (!strcmp(op, "~") && pc_expr_is_int(v, &x))
        return pc_expr_int(a, ~x);
    return NULL;
}

/* The body of a helper that is `{ return e; }` (declarations of constants before it allowed):
 * the returned expression, or a null cursor. */
static CXCursor single_return(CXCursor fn)
{
    kids ch = kids_of(fn);
    CXCursor body = clang_getNullCursor();
    for (int i = 0; i < ch.n && i < 8; i++)
        if (clang_getCursorKind(ch.c[i]) == CXCursor_CompoundStmt)
            body = ch.c[i];
    if (clang_Cursor_isNull(body))
        return body;
    kids st = kids_of(body);
    if (st.n != 1 || clang_getCursorKind(st.c[0]) != CXCursor_ReturnStmt)
        return clang_getNullCursor();
    kids rv = kids_of(st.c[0]);
    return rv.n == 1 ? rv.c[0] : clang_getNullCursor();
}

/* The function whose body a call runs: the definition, or for a template specialisation the
 * pattern it was instantiated from (libclang shows template bodies uninstantiated). */
static CXCursor callee_definition(CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref))
        return ref;
    CXCursor def = clang_getCursorDefinition(ref);
    if (!clang_Cursor_isNull(def) && !clang_Cursor_isNull(single_return(def)))
        return def;
    CXCursor tpl = clang_getSpecializedCursorTemplate(ref);
    if (!clang_Cursor_isNull(tpl)) {
        CXCursor tdef = clang_getCursorDefinition(tpl);
        return clang_Cursor_isNull(tdef) ? tpl : tdef;
    }
    return def;
}

/* Call a one-`return` helper: parameters bound to the argument values (by declaration). */
static const pc_expr *call_helper(pc_cx *cx, CXCursor call, int depth, bool w)
{
    CXCursor def = callee_definition(call);
    if (clang_Cursor_isNull(def) || !pc_clang_inlinable(cx, def))
        return NULL;
    CXCursor ret = single_return(def);
    if (clang_Cursor_isNull(ret)) {
        /* a body of statements: run it (clang_hostfn.c) */
        const pc_expr *r = NULL;
        if (pc_clang_is_builtin_int(clang_getCursorResultType(def)) &&
            pc_clang_run_helper(cx, def, call, depth + 1, &r, NULL, NULL))
            return r;
        return NULL;
    }
    int nargs = clang_Cursor_getNumArguments(call);
    const pc_expr *vals[16];
    CXCursor parms[16];
    int np = 0;
    /* parameters in order (a template's children also hold its template parameters) */
    PC_VEC(CXCursor) ps = {0};
    kids all = kids_of(def);
    for (int i = 0; i < all.n && i < 8; i++)
        if (clang_getCursorKind(all.c[i]) == CXCursor_ParmDecl)
            PC_VEC_PUSH(ps, all.c[i]);
    if (all.n > 8) { /* more children than kids_of keeps: ask for the parameters directly */
        ps.count = 0;
        int n = clang_Cursor_getNumArguments(def);
        for (int i = 0; i < n; i++)
            PC_VEC_PUSH(ps, clang_Cursor_getArgument(def, (unsigned)i));
    }
    bool ok = nargs >= 0 && (size_t)nargs <= ps.count && ps.count <= 16;
    for (int i = 0; ok && i < (int)ps.count; i++) {
        if (i >= nargs) {
            ok = false; /* a default argument: not followed */
            break;
        }
        vals[i] = vint(cx, clang_Cursor_getArgument(call, (unsigned)i), depth + 1, w);
        parms[i] = ps.items[i];
        ok = vals[i] != NULL;
        np++;
    }
    PC_VEC_FREE(ps);
    if (!ok)
        return NULL;
    size_t mark = cx->env.count;
    for (int i = 0; i < np; i++) {
        CXString s = clang_getCursorSpelling(parms[i]);
        int e = pc_clang_env_push(cx, PC_CENV_EXPR, clang_getCString(s), &parms[i]);
        clang_disposeString(s);
        cx->env.items[e].expr = vals[i];
        cx->env.items[e].frame = -1; /* visible by declaration only, never by name */
    }
    const pc_expr *r = vint(cx, ret, depth + 1, false);
    cx->env.count = mark;
    return r;
}

/* The operator a dependent operator call in a template names (`a + b` on a `T`): libclang shows
 * a CallExpr without a name whose callee is an OverloadedDeclRef `operator+`. */
static enum CXChildVisitResult overloaded_op(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_OverloadedDeclRef) {
        *(CXCursor *)d = c;
        return CXChildVisit_Break;
    }
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr || clang_getCursorKind(c) == CXCursor_UnexposedExpr
               ? CXChildVisit_Recurse
               : CXChildVisit_Continue;
}

static const char *call_name(pc_cx *cx, CXCursor e)
{
    const char *name = pc_clang_spelling(cx, e);
    if (*name)
        return name;
    kids ch = kids_of(e);
    for (int i = 0; i < ch.n && i < 8; i++) {
        CXCursor od = clang_getNullCursor();
        if (clang_getCursorKind(ch.c[i]) == CXCursor_OverloadedDeclRef)
            od = ch.c[i];
        else if (clang_getCursorKind(ch.c[i]) == CXCursor_DeclRefExpr || clang_getCursorKind(ch.c[i]) == CXCursor_UnexposedExpr)
            clang_visitChildren(ch.c[i], overloaded_op, &od);
        if (!clang_Cursor_isNull(od)) {
            const char *n = pc_clang_spelling(cx, od);
            if (!strncmp(n, "operator", 8))
                return n;
        }
    }
    return name;
}

/* The shape of the tensor variable named `name` here, created in the current kernel on first
 * use, and the variable it is.  False when the name is not a tensor. */
static bool tensor_by_name(pc_cx *cx, const char *name, const pc_expr ***shape, int *ndims, const char **variable)
{
    int e = pc_clang_env_find(cx, name, PC_CENV_TENSOR);
    if (e < 0)
        return false;
    int t = pc_clang_env_tensor(cx, e);
    if (t >= 0) {
        pc_tensor *pt = &cx->m->kernels[cx->kernel].tensors[t];
        *shape = pt->shape;
        *ndims = pt->ndims;
        *variable = pt->variable;
    } else {
        pc_cenv *en = &cx->env.items[e];
        *shape = en->host.shape;
        *ndims = en->host.ndims;
        *variable = en->name;
    }
    return true;
}

const pc_expr *pc_clang_input_shape(pc_cx *cx, const char *tname, int64_t dim)
{
    pc_arena *a = pc_model_arena(cx->m);
    const pc_expr **shape = NULL;
    int ndims = -1;
    const char *variable = tname;
    if (tensor_by_name(cx, tname, &shape, &ndims, &variable) && dim >= 0 && dim < ndims && shape[dim]) {
        /* a constant dim is that constant; any other (a host parameter `n`, an expression) is the
         * binding symbol, so `--bind x.shape[0]=...` applies as docs/model.md section 12 says */
        int64_t v;
        if (pc_expr_is_int(shape[dim], &v) && v >= 0)
            return shape[dim];
    }
    return pc_expr_sym(a, pc_arena_printf(cx->scratch, "%s.shape[%lld]", variable, (long long)dim));
}


/* model.md 2, "Scalars are not tensors": GetTensorData(t, {i, j}) reads one element of t, a
 * symbolic scalar (no tensor, no pool) named as the Python frontend names `t[i, j]`: the tensor
 * variable and the indices printed without spaces (`seqlens[b+1]`), so one --bind sets it in both
 * languages and PC008 names the read.  NULL when an index is not a value poolcheck reads. */
const pc_expr *pc_clang_tensor_data(pc_cx *cx, const char *tensor, const pc_expr *const *idx, int n)
{
    if (!tensor || !*tensor || n < 1)
        return NULL;
    pc_sb sb = {0};
    pc_sb_append(&sb, tensor);
    pc_sb_putc(&sb, '[');
    for (int i = 0; i < n; i++) {
        if (!idx[i]) {
            pc_sb_free(&sb);
            return NULL;
        }
        char *t = pc_expr_to_string(idx[i]);
        if (i)
            pc_sb_putc(&sb, ',');
        for (const char *p = t ? t : "?"; *p; p++)
            if (*p != ' ')
                pc_sb_putc(&sb, *p);
        pc_mem_free(t);
    }
    pc_sb_putc(&sb, ']');
    char *name = pc_sb_take(&sb);
    const pc_expr *sym = pc_expr_sym(pc_model_arena(cx->m), pc_arena_strdup(pc_model_arena(cx->m), name));
    pc_mem_free(name);
    return sym;
}

/* The object of a member call `obj.f(...)` / `obj->f(...)`: the MemberRefExpr's operand; a null
 * cursor for any other call. */
CXCursor pc_clang_member_object(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return clang_getNullCursor();
    kids ch = kids_of(call);
    if (ch.n < 1 || clang_getCursorKind(ch.c[0]) != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    kids obj = kids_of(ch.c[0]);
    return obj.n == 1 ? obj.c[0] : clang_getNullCursor();
}

/* The shape of the tensor an expression names (a Tensor variable or parameter in scope). */
static bool tensor_shape(pc_cx *cx, CXCursor e, const pc_expr ***dims, int *nd)
{
    CXCursor s = value_strip(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return false;
    int en = env_by_decl(cx, clang_getCursorReferenced(s));
    if (en < 0 || cx->env.items[en].kind != PC_CENV_TENSOR)
        return false;
    int t = cx->kernel >= 0 ? pc_clang_env_tensor(cx, en) : -1;
    if (t >= 0) {
        *dims = cx->m->kernels[cx->kernel].tensors[t].shape;
        *nd = cx->m->kernels[cx->kernel].tensors[t].ndims;
    } else {
        *dims = cx->env.items[en].host.shape;
        *nd = cx->env.items[en].host.ndims;
    }
    if (*nd < 0)
        return false;
    for (int i = 0; i < *nd; i++)
        if (!(*dims)[i])
            return false;
    return true;
}

/* A list value, or the shape of a tensor (`x.Dim()` counts a tensor's dims). */
static bool vlist_or_shape(pc_cx *cx, CXCursor e, int depth, bool w, const pc_expr ***dims, int *nd)
{
    return vlist(cx, e, depth + 1, w, dims, nd) || tensor_shape(cx, e, dims, nd);
}

static bool is_ceil_div_name(const char *name)
{
    static const char *const names[] = {"CeilDiv", "ceil_div", "CeilDivision", "DivCeil", "CeilDivide", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcasecmp(name, names[i]))
            return true;
    return false;
}

static CXCursor init_list_of(CXCursor e);

/* min / max / CeilDiv by their names, where the helper's body leaves the value undecided (its
 * conditional on a symbolic operand) or has no body poolcheck reads (model.md 2, "Values"). */
static const pc_expr *named_value(pc_cx *cx, CXCursor e, const char *name, int nargs, int depth, bool w)
{
    pc_arena *a = pc_model_arena(cx->m);
    /* min / max of two or more values, or of one braced list (std::min({a, b, c})) */
    if (!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "Min") || !strcmp(name, "Max")) {
        elems el = {NULL, 0, 0};
        CXCursor il = nargs == 1 ? init_list_of(clang_Cursor_getArgument(e, 0)) : clang_getNullCursor();
        if (!clang_Cursor_isNull(il))
            clang_visitChildren(il, elem_visit, &el);
        else
            for (int i = 0; i < nargs; i++)
                elem_visit(clang_Cursor_getArgument(e, (unsigned)i), e, &el);
        const pc_expr *acc = el.n >= 2 ? vint(cx, el.c[0], depth + 1, w) : NULL;
        for (int i = 1; i < el.n && acc; i++) {
            const pc_expr *r = vint(cx, el.c[i], depth + 1, w);
            acc = r ? pc_expr_bin(a, name[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX, acc, r) : NULL;
        }
        pc_mem_free(el.c);
        return acc;
    }
    /* a ceiling division helper, by its name: its body guards b == 0 and a % b, which a symbolic a
     * leaves undecided, and the model has the operation itself (model.md 2) */
    if (nargs == 2 && is_ceil_div_name(name)) {
        const pc_expr *l = vint(cx, clang_Cursor_getArgument(e, 0), depth + 1, w);
        const pc_expr *r = vint(cx, clang_Cursor_getArgument(e, 1), depth + 1, w);
        return l && r ? pc_expr_bin(a, PC_EXPR_CEILDIV, l, r) : NULL;
    }
    return NULL;
}

static const pc_expr *call_value(pc_cx *cx, CXCursor e, int depth, bool w)
{
    pc_arena *a = pc_model_arena(cx->m);
    const char *name = call_name(cx, e);
    int nargs = clang_Cursor_getNumArguments(e);
    /* an element of a list value: shape[i], x.GetShape()[i] */
    if (!strcmp(name, "operator[]") && nargs == 2) {
        const pc_expr **d;
        int nd;
        const pc_expr *ix = vint(cx, clang_Cursor_getArgument(e, 1), depth + 1, w);
        int64_t k;
        if (ix && pc_expr_is_int(ix, &k) && vlist(cx, clang_Cursor_getArgument(e, 0), depth + 1, w, &d, &nd) && k >= 0 &&
            k < nd)
            return d[k];
        return NULL;
    }
    /* a conversion (SymbolicScalar -> int), itself a member call: before the member calls below */
    if (!strncmp(name, "operator ", 9) && nargs == 0) {
        kids ch = kids_of(e);
        if (ch.n == 1 && clang_getCursorKind(ch.c[0]) == CXCursor_MemberRefExpr) {
            kids obj = kids_of(ch.c[0]);
            if (obj.n == 1)
                return vint(cx, obj.c[0], depth + 1, w);
        }
        return NULL;
    }
    /* member calls on a list or a tensor: v.size(), x.GetShape(i), x.Dim() */
    CXCursor object = pc_clang_member_object(e);
    if (!clang_Cursor_isNull(object)) {
        const pc_expr **d;
        int nd;
        if ((!strcmp(name, "size") || !strcmp(name, "Dim")) && nargs == 0 && vlist_or_shape(cx, object, depth, w, &d, &nd))
            return pc_expr_int(a, nd);
        if (!strcmp(name, "GetShape") && nargs == 1) {
            const pc_expr *ix = vint(cx, clang_Cursor_getArgument(e, 0), depth + 1, w);
            int64_t k;
            if (ix && pc_expr_is_int(ix, &k) && tensor_shape(cx, object, &d, &nd) && k >= 0 && k < nd)
                return d[k];
        }
        return NULL;
    }
    /* overloaded operators (SymbolicScalar arithmetic): `operator+` with the operands as arguments */
    if (!strncmp(name, "operator", 8) && nargs >= 1 && nargs <= 2) {
        const char *op = name + 8;
        const pc_expr *l = vint(cx, clang_Cursor_getArgument(e, 0), depth + 1, w);
        if (nargs == 1)
            return unary(cx, op, l);
        return binary(cx, op, l, vint(cx, clang_Cursor_getArgument(e, 1), depth + 1, w));
    }
    if (!strcmp(name, "GetInputShape") && nargs == 2) {
        CXCursor t = value_strip(clang_Cursor_getArgument(e, 0));
        const pc_expr *d = vint(cx, clang_Cursor_getArgument(e, 1), depth + 1, w);
        int64_t dim;
        if (clang_getCursorKind(t) == CXCursor_DeclRefExpr && d && pc_expr_is_int(d, &dim))
            return pc_clang_input_shape(cx, pc_clang_spelling(cx, t), dim);
        return NULL;
    }
    if ((!strcmp(name, "GetTensorData") || !strcmp(name, "GetInputData")) && nargs == 2) {
        CXCursor t = value_strip(clang_Cursor_getArgument(e, 0));
        const pc_expr **idx = NULL;
        int n = 0;
        if (clang_getCursorKind(t) != CXCursor_DeclRefExpr ||
            !pc_clang_value_list(cx, clang_Cursor_getArgument(e, 1), &idx, &n))
            return NULL;
        return pc_clang_tensor_data(cx, pc_clang_spelling(cx, t), idx, n);
    }
    /* a helper of the code: its body, where that gives a value */
    const pc_expr *r = call_helper(cx, e, depth, w);
    return r ? r : named_value(cx, e, name, nargs, depth, w);
}

/* The value of an integer expression; NULL where poolcheck has no model of it, or with w (the
 * written reading, for LOOP headers and conditions) the symbol of what it has no model of, named
 * by its written text: an unknown name is that name, a call or member its spelling. */
static const pc_expr *vint_node(pc_cx *cx, CXCursor e, int depth, bool w);

static const pc_expr *vint(pc_cx *cx, CXCursor e, int depth, bool w)
{
    const pc_expr *v = vint_node(cx, e, depth, w);
    if (v || !w || depth > MAX_DEPTH || clang_Cursor_isNull(e))
        return v;
    const char *text = pc_clang_written_spelling(cx, e);
    return text ? pc_expr_sym(pc_model_arena(cx->m), text) : NULL;
}

static const pc_expr *vint_node(pc_cx *cx, CXCursor e, int depth, bool w)
{
    if (depth > MAX_DEPTH || clang_Cursor_isNull(e))
        return NULL;
    e = value_strip(e);
    const pc_expr *v = clang_fold(cx, e);
    if (v)
        return v;
    pc_arena *a = pc_model_arena(cx->m);
    switch (clang_getCursorKind(e)) {
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(e);
        if (clang_Cursor_isNull(ref))
            return NULL;
        if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl)
            return pc_expr_int(a, clang_getEnumConstantDeclValue(ref));
        int en = env_by_decl(cx, ref);
        if (en >= 0)
            return cx->env.items[en].kind == PC_CENV_EXPR ? cx->env.items[en].expr : NULL;
        if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
            CXType t = clang_getCursorType(ref);
            if (clang_isConstQualifiedType(t) || clang_isConstQualifiedType(clang_getCanonicalType(t))) {
                CXCursor init = var_init(ref);
                if (!clang_Cursor_isNull(init))
                    return vint(cx, init, depth + 1, w);
            }
        }
        return NULL;
    }
    case CXCursor_BinaryOperator: {
        kids ch = kids_of(e);
        if (ch.n != 2)
            return NULL;
        return binary(cx, pc_clang_operator_spelling(cx, e), vint(cx, ch.c[0], depth + 1, w), vint(cx, ch.c[1], depth + 1, w));
    }
    case CXCursor_UnaryOperator: {
        kids ch = kids_of(e);
        if (ch.n != 1)
            return NULL;
        return unary(cx, pc_clang_operator_spelling(cx, e), vint(cx, ch.c[0], depth + 1, w));
    }
    case CXCursor_ConditionalOperator: {
        kids ch = kids_of(e);
        if (ch.n != 3)
            return NULL;
        const pc_expr *c = vint(cx, ch.c[0], depth + 1, w);
        int64_t cv;
        if (c && pc_expr_is_int(c, &cv))
            return vint(cx, ch.c[cv ? 1 : 2], depth + 1, w);
        return NULL;
    }
    case CXCursor_CallExpr:
        return call_value(cx, e, depth, w);
    case CXCursor_StringLiteral: { /* SymbolicScalar("n"): upstream's symbol named n */
        const char *name = pc_clang_value_string(cx, e);
        return name && *name ? pc_expr_sym(a, pc_arena_strdup(a, name)) : NULL;
    }
    default:
        return NULL;
    }
}

const pc_expr *pc_clang_value_int(pc_cx *cx, CXCursor e) { return vint(cx, e, 0, false); }

/* ---- branch conditions (docs/model.md section 3, "Paths") ------------------------------------- */

/* Does the expression read tensor data (GetTensorData / GetInputData anywhere in it)? */
static enum CXChildVisitResult data_read_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXString s = clang_getCursorSpelling(c);
        const char *n = clang_getCString(s);
        bool hit = n && (!strcmp(n, "GetTensorData") || !strcmp(n, "GetInputData"));
        clang_disposeString(s);
        if (hit) {
            *(bool *)d = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static bool reads_tensor_data(CXCursor e)
{
    bool hit = false;
    if (data_read_visit(e, clang_getNullCursor(), &hit) == CXChildVisit_Recurse)
        clang_visitChildren(e, data_read_visit, &hit);
    return hit;
}

/* Are two expressions the same value: equal constants, or the same spelling. */
static bool same_value(const pc_expr *a, const pc_expr *b)
{
    int64_t x, y;
    if (pc_expr_is_int(a, &x) || pc_expr_is_int(b, &y))
        return pc_expr_is_int(a, &x) && pc_expr_is_int(b, &y) && x == y;
    char *sa = pc_expr_to_string(a), *sb = pc_expr_to_string(b);
    bool same = sa && sb && !strcmp(sa, sb);
    pc_mem_free(sa);
    pc_mem_free(sb);
    return same;
}

/* A scalar operand of a condition: the cursor's value, or what the written text gives where the
 * cursor reader has no model of it (an unknown name is the symbol of that name). */
const pc_expr *pc_clang_value_int_written(pc_cx *cx, CXCursor e)
{
    return vint(cx, e, 0, true);
}

/* An arithmetic operand: data-dependent (NULL, *data set) when it reads tensor data or holds a
 * value poolcheck made an opaque symbol of. */
static const pc_expr *cond_operand(pc_cx *cx, CXCursor e, bool *data)
{
    if (reads_tensor_data(e)) {
        *data = true;
        return NULL;
    }
    const pc_expr *v = pc_clang_value_int_written(cx, e);
    if (v && pc_clang_has_opaque(v)) {
        *data = true;
        return NULL;
    }
    return v;
}

/* IsLoopBegin(i, b) / IsLoopEnd(i, e): upstream's loop predicates, true on the first / last
 * iteration of i's loop when b / e is that loop's begin / end. */
static const pc_expr *loop_predicate(pc_cx *cx, CXCursor call, bool begin)
{
    int na = clang_Cursor_getNumArguments(call);
    if (na < 1)
        return NULL;
    /* the loop is named by its index variable (a helper's parameter stands for the caller's index) */
    const pc_expr *ix = pc_clang_value_int_written(cx, clang_Cursor_getArgument(call, 0));
    if (!ix || ix->kind != PC_EXPR_SYM)
        return NULL;
    pc_arena *a = pc_model_arena(cx->m);
    const pc_expr *pred = pc_expr_loop_pred(a, begin ? PC_EXPR_IS_LOOP_BEGIN : PC_EXPR_IS_LOOP_END, ix->name);
    if (na < 2)
        return pred;
    /* IsLoopBegin(i, b) is `i == b` (upstream's runtime: RuntimeIsLoopBegin(idx, begin)), the
     * first iteration only when b is the loop's own begin; IsLoopEnd(i, e) is the last iteration
     * when e is the loop's end (what pypto.is_loop_end passes).  Another b is that comparison;
     * another e is left undecided (both paths) rather than guessed. */
    const pc_expr *bound = pc_clang_value_int_written(cx, clang_Cursor_getArgument(call, 1));
    if (!bound)
        return NULL;
    const pc_loop *l = NULL;
    if (cx->kernel >= 0) {
        const pc_kernel *kk = &cx->m->kernels[cx->kernel];
        for (int li = cx->cur_loop; li >= 0 && !l; li = kk->loops[li].parent)
            if (kk->loops[li].index_var && !strcmp(kk->loops[li].index_var, ix->name))
                l = &kk->loops[li];
    }
    if (l && same_value(bound, begin ? l->begin : l->end))
        return pred;
    return begin ? pc_expr_bin(a, PC_EXPR_EQ, ix, bound) : NULL;
}

/* The operator and operands of a built-in or overloaded binary / unary operator; 0 operands when
 * e is not one. */
static int operator_parts(pc_cx *cx, CXCursor e, const char **op, CXCursor *l, CXCursor *r)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator) {
        kids ch = kids_of(e);
        int want = k == CXCursor_BinaryOperator ? 2 : 1;
        if (ch.n != want)
            return 0;
        *op = pc_clang_operator_spelling(cx, e);
        *l = ch.c[0];
        if (want == 2)
            *r = ch.c[1];
        return *op ? want : 0;
    }
    if (k == CXCursor_CallExpr) {
        const char *name = call_name(cx, e);
        int na = clang_Cursor_getNumArguments(e);
        if (strncmp(name, "operator", 8) || na < 1 || na > 2 || !(is_operator_text(name + 8) || !strcmp(name + 8, "!")))
            return 0;
        *op = name + 8;
        *l = clang_Cursor_getArgument(e, 0);
        if (na == 2)
            *r = clang_Cursor_getArgument(e, 1);
        return na;
    }
    return 0;
}

static const pc_expr *cond_value(pc_cx *cx, CXCursor e, bool *data, int depth)
{
    if (depth > MAX_DEPTH)
        return NULL;
    pc_arena *a = pc_model_arena(cx->m);
    CXCursor s = value_strip(e);
    const char *op = NULL;
    CXCursor l = clang_getNullCursor(), r = clang_getNullCursor();
    int n = operator_parts(cx, s, &op, &l, &r);
    if (n == 1 && !strcmp(op, "!")) {
        const pc_expr *v = cond_value(cx, l, data, depth + 1);
        return v ? pc_expr_not(a, v) : NULL;
    }
    if (n == 2 && (!strcmp(op, "&&") || !strcmp(op, "||"))) {
        const pc_expr *x = cond_value(cx, l, data, depth + 1);
        const pc_expr *y = cond_value(cx, r, data, depth + 1);
        return x && y ? pc_expr_bin(a, op[0] == '&' ? PC_EXPR_AND : PC_EXPR_OR, x, y) : NULL;
    }
    static const struct { const char *op; pc_expr_kind k; } cmp[] = {
        {"<", PC_EXPR_LT}, {"<=", PC_EXPR_LE}, {">", PC_EXPR_GT}, {">=", PC_EXPR_GE}, {"==", PC_EXPR_EQ}, {"!=", PC_EXPR_NE},
    };
    if (n == 2)
        for (size_t j = 0; j < sizeof cmp / sizeof *cmp; j++)
            if (!strcmp(op, cmp[j].op)) {
                const pc_expr *x = cond_operand(cx, l, data);
                const pc_expr *y = cond_operand(cx, r, data);
                return x && y ? pc_expr_bin(a, cmp[j].k, x, y) : NULL;
            }
    if (clang_getCursorKind(s) == CXCursor_CallExpr) {
        const char *name = pc_clang_spelling(cx, s);
        if (!strcmp(name, "IsLoopBegin") || !strcmp(name, "IsLoopEnd"))
            return loop_predicate(cx, s, name[6] == 'B');
    }
    return cond_operand(cx, e, data); /* a plain value: true when non-zero */
}

const pc_expr *pc_clang_value_cond(pc_cx *cx, CXCursor e, bool *data_dependent)
{
    bool data = false;
    const pc_expr *v = clang_Cursor_isNull(e) ? NULL : cond_value(cx, e, &data, 0);
    if (data_dependent)
        *data_dependent = data;
    return data ? NULL : v;
}

/* ---- constants of the project's headers by their written name (error recovery) ------------------ */

static enum CXChildVisitResult constant_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    pc_cx *cx = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    /* namespace-scope constants of the project's headers (`constexpr int BLOCK = 8;`) */
    if (k == CXCursor_VarDecl && !clang_Location_isInSystemHeader(clang_getCursorLocation(c)) &&
        clang_isConstQualifiedType(clang_getCursorType(c)))
        PC_VEC_PUSH(cx->header_constants, c);
    return CXChildVisit_Continue;
}

static void scan_header_constants(pc_cx *cx)
{
    if (!cx->header_constants_scanned) {
        cx->header_constants_scanned = true;
        pc_clang_visit_tu(cx->tu, constant_visit, cx);
    }
}

/* `ns::NAME` of a declaration (its namespaces and classes), in the scratch arena. */
static const char *qualified_name(pc_cx *cx, CXCursor d)
{
    const char *q = pc_clang_spelling(cx, d);
    for (CXCursor p = clang_getCursorSemanticParent(d); !clang_Cursor_isNull(p); p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit || clang_isInvalid(k))
            break;
        const char *n = pc_clang_spelling(cx, p);
        if (*n)
            q = pc_arena_printf(cx->scratch, "%s::%s", n, q);
    }
    return q;
}

const pc_expr *pc_clang_header_constant(pc_cx *cx, const char *written)
{
    if (!written)
        return NULL;
    while (*written == ':')
        written++;
    scan_header_constants(cx);
    size_t wl = strlen(written);
    for (size_t i = cx->header_constants.count; i-- > 0;) {
        CXCursor v = cx->header_constants.items[i];
        const char *last = strrchr(written, ':');
        CXString vs = clang_getCursorSpelling(v);
        bool same = !strcmp(clang_getCString(vs), last ? last + 1 : written);
        clang_disposeString(vs);
        if (!same)
            continue; /* the last component first: no qualified name built for the rest */
        const char *q = qualified_name(cx, v);
        size_t ql = strlen(q);
        /* as written, or its last components (`BLOCK` or `sibling::BLOCK` for sibling::BLOCK) */
        if (!(ql == wl && !strcmp(q, written)) && !(ql > wl + 2 && !strcmp(q + ql - wl, written) &&
                                                    q[ql - wl - 1] == ':' && q[ql - wl - 2] == ':'))
            continue;
        CXEvalResult r = clang_Cursor_Evaluate(v);
        const pc_expr *e = NULL;
        if (r) {
            if (clang_EvalResult_getKind(r) == CXEval_Int)
                e = pc_expr_int(pc_model_arena(cx->m), clang_EvalResult_getAsLongLong(r));
            clang_EvalResult_dispose(r);
        }
        if (e)
            return e;
    }
    return NULL;
}

/* ---- strings, lists, dtypes ------------------------------------------------------------------- */

/* The value of a string literal from its spelling: prefixes, escapes and raw strings decoded. */
const char *pc_clang_string_literal(pc_cx *cx, const char *spelling, size_t len)
{
    const char *s = spelling, *e = spelling + len;
    while (s < e && *s != '"')
        s++;
    if (s >= e)
        return pc_arena_strdup(cx->scratch, "");
    bool raw = s > spelling && s[-1] == 'R';
    pc_sb b = {0};
    if (raw) {
        const char *open = memchr(s, '(', (size_t)(e - s));
        const char *close = e - 1;
        while (close > s && *close != ')')
            close--;
        if (open && close > open)
            pc_sb_appendn(&b, open + 1, (size_t)(close - open - 1));
    } else {
        for (const char *p = s + 1; p < e && *p != '"'; p++) {
            if (*p != '\\' || p + 1 >= e) {
                pc_sb_putc(&b, *p);
                continue;
            }
            p++;
            switch (*p) {
            case 'n': pc_sb_putc(&b, '\n'); break;
            case 't': pc_sb_putc(&b, '\t'); break;
            case 'r': pc_sb_putc(&b, '\r'); break;
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
                int v = 0, k = 0;
                while (k < 3 && p < e && *p >= '0' && *p <= '7') {
                    v = v * 8 + (*p - '0');
                    p++, k++;
                }
                p--;
                pc_sb_putc(&b, (char)v);
                break;
            }
            case 'x': {
                int v = 0;
                while (p + 1 < e && isxdigit((unsigned char)p[1])) {
                    p++;
                    v = v * 16 + (isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
                }
                pc_sb_putc(&b, (char)v);
                break;
            }
            default: pc_sb_putc(&b, *p); break;
            }
        }
    }
    char *str = pc_sb_take(&b);
    const char *r = pc_arena_strdup(cx->scratch, str);
    pc_mem_free(str);
    return r;
}


const char *pc_clang_value_string(pc_cx *cx, CXCursor e)
{
    for (int depth = 0; depth < 8 && !clang_Cursor_isNull(e); depth++) {
        e = value_strip(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_StringLiteral) {
            /* the literal's spelling (prefixes, escapes and raw strings decoded) */
            const char *sp = pc_clang_spelling(cx, e);
            return pc_clang_string_literal(cx, sp, strlen(sp));
        }
        if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) >= 1) {
            /* std::string("...") and its implicit conversions from const char * */
            CXCursor ref = clang_getCursorReferenced(e);
            if (clang_getCursorKind(ref) != CXCursor_Constructor)
                return NULL;
            e = clang_Cursor_getArgument(e, 0);
            continue;
        }
        if (k != CXCursor_DeclRefExpr)
            return NULL;
        CXCursor ref = clang_getCursorReferenced(e);
        int en = env_by_decl(cx, ref);
        if (en >= 0)
            return cx->env.items[en].kind == PC_CENV_STRING ? cx->env.items[en].str : NULL;
        if (clang_getCursorKind(ref) != CXCursor_VarDecl)
            return NULL;
        e = var_init(ref);
    }
    return NULL;
}

/* The InitListExpr a value is made from (`{...}`, `std::vector<int64_t>{...}`,
 * `std::vector<int64_t>({...})`, an initializer_list temporary), or a null cursor. */
static CXCursor init_list_of(CXCursor e)
{
    for (int guard = 0; guard < 16 && !clang_Cursor_isNull(e); guard++) {
        if (clang_getCursorKind(e) == CXCursor_InitListExpr)
            return e;
        kids ch = kids_of(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (!(k == CXCursor_UnexposedExpr || k == CXCursor_CallExpr || k == CXCursor_CXXFunctionalCastExpr ||
              k == CXCursor_ParenExpr))
            return clang_getNullCursor();
        /* skip type references of a functional cast; one operand must remain */
        int last = -1, nexpr = 0;
        for (int i = 0; i < ch.n && i < 8; i++)
            if (clang_isExpression(clang_getCursorKind(ch.c[i])) && !is_default_arg(ch.c[i])) {
                last = i;
                nexpr++;
            }
        if (nexpr != 1)
            return clang_getNullCursor();
        e = ch.c[last];
    }
    return clang_getNullCursor();
}

static bool vlist(pc_cx *cx, CXCursor e, int depth, bool w, const pc_expr ***dims, int *nd)
{
    if (depth > MAX_DEPTH || clang_Cursor_isNull(e))
        return false;
    CXCursor s = value_strip(e);
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
        int en = env_by_decl(cx, clang_getCursorReferenced(s));
        if (en >= 0 && cx->env.items[en].kind == PC_CENV_LIST) {
            *dims = cx->env.items[en].list;
            *nd = cx->env.items[en].nlist;
            return true;
        }
        return false;
    }
    if (clang_getCursorKind(s) == CXCursor_CallExpr) {
        /* `{}` for a list parameter: its default constructor, no items */
        if (clang_getCursorKind(clang_getCursorReferenced(s)) == CXCursor_Constructor && pc_clang_written_nargs(s) == 0) {
            *dims = NULL;
            *nd = 0;
            return true;
        }
        const char *name = call_name(cx, s);
        CXCursor object = pc_clang_member_object(s);
        /* x.GetShape(): the tensor's shape */
        if (!strcmp(name, "GetShape") && !clang_Cursor_isNull(object) && clang_Cursor_getNumArguments(s) == 0)
            return tensor_shape(cx, object, dims, nd);
        /* a helper returning a list: run its body (clang_hostfn.c) */
        CXCursor def = callee_definition(s);
        if (clang_Cursor_isNull(object) && !clang_Cursor_isNull(def) && pc_clang_inlinable(cx, def) &&
            pc_clang_classify_type(cx, clang_getCursorResultType(def)) == PC_VC_LIST) {
            CXCursor ret = single_return(def);
            if (!clang_Cursor_isNull(ret) && clang_Cursor_getNumArguments(s) == 0)
                return vlist(cx, ret, depth + 1, w, dims, nd);
            return pc_clang_run_helper(cx, def, s, depth + 1, NULL, dims, nd);
        }
    }
    CXCursor il = init_list_of(e);
    if (clang_Cursor_isNull(il))
        return false;
    elems el = {NULL, 0, 0};
    clang_visitChildren(il, elem_visit, &el);
    const pc_expr **d = pc_arena_alloc(pc_model_arena(cx->m), sizeof *d * (size_t)(el.n ? el.n : 1));
    bool ok = true;
    for (int i = 0; i < el.n && ok; i++)
        ok = (d[i] = vint(cx, el.c[i], depth + 1, w)) != NULL;
    pc_mem_free(el.c);
    if (!ok)
        return false;
    *dims = d;
    *nd = el.n;
    return true;
}

bool pc_clang_value_list(pc_cx *cx, CXCursor e, const pc_expr ***dims, int *nd) { return vlist(cx, e, 0, false, dims, nd); }

bool pc_clang_value_list_written(pc_cx *cx, CXCursor e, const pc_expr ***dims, int *nd)
{
    return vlist(cx, e, 0, true, dims, nd);
}

const pc_expr *pc_clang_value_int_at(pc_cx *cx, CXCursor e, int depth) { return vint(cx, e, depth, false); }

bool pc_clang_value_list_at(pc_cx *cx, CXCursor e, int depth, const pc_expr ***dims, int *nd)
{
    return vlist(cx, e, depth, false, dims, nd);
}

int pc_clang_value_tensor_entry(pc_cx *cx, CXCursor e)
{
    CXCursor s = value_strip(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return -1;
    int en = env_by_decl(cx, clang_getCursorReferenced(s));
    return en >= 0 && cx->env.items[en].kind == PC_CENV_TENSOR ? en : -1;
}

/* The tensor entry whose dtype a getter reads: `x` of x.GetDataType() and
 * x.GetStorage()->Datatype(); -1 for any other expression. */
static int dtype_getter_tensor(pc_cx *cx, CXCursor call)
{
    const char *name = pc_clang_spelling(cx, call);
    CXCursor object = pc_clang_member_object(call);
    if (clang_Cursor_isNull(object) || clang_Cursor_getNumArguments(call) != 0)
        return -1;
    if (!strcmp(name, "Datatype")) {
        CXCursor storage = value_strip(object);
        /* GetStorage() hands out a smart pointer: `->` is its operator-> call on it */
        if (clang_getCursorKind(storage) == CXCursor_CallExpr && !strcmp(pc_clang_spelling(cx, storage), "operator->") &&
            clang_Cursor_getNumArguments(storage) == 1)
            storage = value_strip(clang_Cursor_getArgument(storage, 0));
        if (clang_getCursorKind(storage) != CXCursor_CallExpr || strcmp(pc_clang_spelling(cx, storage), "GetStorage"))
            return -1;
        object = pc_clang_member_object(storage);
    } else if (strcmp(name, "GetDataType")) {
        return -1;
    }
    return clang_Cursor_isNull(object) ? -1 : pc_clang_value_tensor_entry(cx, object);
}

pc_dtype pc_clang_value_dtype(pc_cx *cx, CXCursor e)
{
    for (int depth = 0; depth < 8 && !clang_Cursor_isNull(e); depth++) {
        e = value_strip(e);
        if (clang_getCursorKind(e) == CXCursor_CallExpr) {
            int en = dtype_getter_tensor(cx, e);
            if (en < 0)
                return PC_DT_UNKNOWN;
            int t = cx->kernel >= 0 ? pc_clang_env_tensor(cx, en) : -1;
            return t >= 0 ? cx->m->kernels[cx->kernel].tensors[t].dtype : cx->env.items[en].host.dtype;
        }
        if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
            return PC_DT_UNKNOWN;
        CXCursor ref = clang_getCursorReferenced(e);
        if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl) {
            const char *n = pc_clang_spelling(cx, ref);
            return strncmp(n, "DT_", 3) ? PC_DT_UNKNOWN : pc_dtype_from_name(n);
        }
        int en = env_by_decl(cx, ref);
        if (en >= 0)
            return cx->env.items[en].kind == PC_CENV_DTYPE ? cx->env.items[en].dtype : PC_DT_UNKNOWN;
        if (clang_getCursorKind(ref) != CXCursor_VarDecl)
            return PC_DT_UNKNOWN;
        e = var_init(ref); /* constexpr DataType kType = DT_FP16 */
    }
    return PC_DT_UNKNOWN;
}

/* ---- loop ranges ------------------------------------------------------------------------------ */

/* LoopRange(e) / LoopRange(b, e) / LoopRange(b, e, s) (the call, or a functional cast or temporary
 * around it), {b, e, s}, or a LoopRange variable: begin, end and step in the written reading. */
bool pc_clang_value_range(pc_cx *cx, CXCursor c, const pc_expr **b, const pc_expr **e, const pc_expr **s)
{
    pc_arena *a = pc_model_arena(cx->m);
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        int en = env_by_decl(cx, clang_getCursorReferenced(c));
        if (en < 0)
            en = pc_clang_env_find(cx, pc_clang_spelling(cx, c), PC_CENV_LIST);
        if (en < 0 || cx->env.items[en].kind != PC_CENV_LIST || cx->env.items[en].nlist != 3)
            return false;
        *b = cx->env.items[en].list[0];
        *e = cx->env.items[en].list[1];
        *s = cx->env.items[en].list[2];
        return *b && *e && *s;
    }
    for (int guard = 0; guard < 8 && clang_getCursorKind(c) != CXCursor_CallExpr &&
                        clang_getCursorKind(c) != CXCursor_InitListExpr; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        kids ch = kids_of(c);
        if ((k != CXCursor_UnexposedExpr && k != CXCursor_CXXFunctionalCastExpr) || ch.n < 1 || ch.n > 8)
            return false;
        c = ch.c[ch.n - 1];
    }
    CXCursor arg[3];
    int na;
    if (clang_getCursorKind(c) == CXCursor_InitListExpr) {
        kids ch = kids_of(c);
        na = ch.n;
        for (int i = 0; i < na && i < 3; i++)
            arg[i] = ch.c[i];
    } else if (clang_getCursorKind(c) == CXCursor_CallExpr && !strcmp(pc_clang_spelling(cx, c), "LoopRange")) {
        na = pc_clang_written_nargs(c);
        for (int i = 0; i < na && i < 3; i++)
            arg[i] = clang_Cursor_getArgument(c, (unsigned)i);
    } else {
        return false;
    }
    if (na < 1 || na > 3)
        return false;
    const pc_expr *v[3];
    for (int i = 0; i < na; i++)
        v[i] = vint(cx, arg[i], 0, true);
    *b = na == 1 ? pc_expr_int(a, 0) : v[0];
    *e = na == 1 ? v[0] : v[1];
    *s = na == 3 ? v[2] : pc_expr_int(a, 1);
    return *b && *e && *s;
}

/* ---- runtime option values -------------------------------------------------------------------- */

static void opt_text(pc_cx *cx, CXCursor e, pc_optval *out)
{
    const char *text = pc_clang_extent_spelling(cx, e);
    if (text)
        out->text = pc_model_strdup(cx->m, text);
}

bool pc_clang_value_opt(pc_cx *cx, CXCursor e, pc_optval *out, int depth)
{
    memset(out, 0, sizeof *out);
    out->kind = PC_OPT_UNKNOWN;
    out->text = "";
    if (clang_Cursor_isNull(e) || depth > 8)
        return false;
    out->loc = pc_clang_cursor_loc(cx, e);
    opt_text(cx, e, out);
    CXCursor s = value_strip(e);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CXXBoolLiteralExpr) {
        const pc_expr *v = clang_fold(cx, s);
        int64_t b;
        if (v && pc_expr_is_int(v, &b)) {
            out->kind = PC_OPT_BOOL;
            out->i = b != 0;
            return true;
        }
    }
    if (k == CXCursor_FloatingLiteral) {
        CXEvalResult r = clang_Cursor_Evaluate(s);
        if (r && clang_EvalResult_getKind(r) == CXEval_Float) {
            out->kind = PC_OPT_FLOAT;
            out->f = clang_EvalResult_getAsDouble(r);
        }
        if (r)
            clang_EvalResult_dispose(r);
        return out->kind == PC_OPT_FLOAT;
    }
    const char *str = pc_clang_value_string(cx, e);
    if (str) {
        out->kind = PC_OPT_STRING;
        out->text = pc_model_strdup(cx->m, str);
        return true;
    }
    CXCursor il = init_list_of(e);
    if (!clang_Cursor_isNull(il)) {
        elems el = {NULL, 0, 0};
        clang_visitChildren(il, elem_visit, &el);
        out->kind = PC_OPT_LIST;
        out->nitems = el.n;
        out->items = pc_arena_alloc(pc_model_arena(cx->m), sizeof *out->items * (size_t)(el.n ? el.n : 1));
        for (int i = 0; i < el.n; i++)
            pc_clang_value_opt(cx, el.c[i], &out->items[i], depth + 1);
        pc_mem_free(el.c);
        return true;
    }
    const pc_expr **dims;
    int nd;
    if (k == CXCursor_DeclRefExpr && pc_clang_value_list(cx, s, &dims, &nd)) {
        out->kind = PC_OPT_LIST;
        out->nitems = nd;
        out->items = pc_arena_alloc(pc_model_arena(cx->m), sizeof *out->items * (size_t)(nd ? nd : 1));
        for (int i = 0; i < nd; i++) {
            int64_t v;
            out->items[i].loc = out->loc;
            out->items[i].text = "";
            out->items[i].kind = dims[i] && pc_expr_is_int(dims[i], &v) ? PC_OPT_INT : PC_OPT_UNKNOWN;
            out->items[i].i = out->items[i].kind == PC_OPT_INT ? v : 0;
        }
        return true;
    }
    const pc_expr *v = vint(cx, e, 0, false);
    int64_t iv;
    if (v && pc_expr_is_int(v, &iv)) {
        out->kind = PC_OPT_INT;
        out->i = iv;
        return true;
    }
    return false;
}
