/* clang_env.c - the environment: what a name in scope stands for (pc_cenv entries, found by name
 * or by declaration), the kernel tensors made on demand for variables declared outside a kernel,
 * and the scalar variables (integers and SymbolicScalars, lists, LoopRanges, strings, dtypes)
 * their declarations and straight-line assignments give values. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

/* ---- environment ------------------------------------------------------------------------------ */

int pc_clang_env_push(pc_cx *cx, pc_cenv_kind kind, const char *name, const CXCursor *decl)
{
    pc_cenv e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.name = pc_arena_strdup(cx->scratch, name ? name : "");
    e.frame = cx->frame;
    if (decl) {
        e.decl = *decl;
        e.has_decl = true;
    }
    e.kernel = -1;
    e.tensor = -1;
    e.host.base_entry = -1;
    e.host.ndims = -1;
    PC_VEC_PUSH(cx->env, e);
    return (int)cx->env.count - 1;
}

int pc_clang_env_find(pc_cx *cx, const char *name, int kind)
{
    for (size_t i = cx->env.count; i-- > 0;) {
        pc_cenv *e = &cx->env.items[i];
        if ((e->frame == cx->frame || e->frame == 0) && strcmp(e->name, name) == 0)
            return (kind < 0 || (int)e->kind == kind) ? (int)i : -1;
    }
    return -1;
}

int pc_clang_env_find_decl(pc_cx *cx, CXCursor decl)
{
    for (size_t i = cx->env.count; i-- > 0;) {
        pc_cenv *e = &cx->env.items[i];
        if (e->has_decl && e->kind == PC_CENV_TENSOR && clang_equalCursors(e->decl, decl))
            return (int)i;
    }
    return -1;
}

/* Replace a negative (dynamic) dimension by the binding symbol PARAM.shape[D]. */
static const pc_expr **dynamic_dims(pc_cx *cx, const pc_expr **shape, int ndims, const char *variable)
{
    if (ndims <= 0)
        return shape;
    pc_arena *a = pc_model_arena(cx->m);
    const pc_expr **d = pc_arena_alloc(a, sizeof *d * (size_t)ndims);
    for (int i = 0; i < ndims; i++) {
        int64_t v;
        d[i] = shape[i];
        if (!shape[i] || (pc_expr_is_int(shape[i], &v) && v < 0))
            d[i] = pc_expr_sym(a, pc_arena_printf(cx->scratch, "%s.shape[%d]", variable, i));
    }
    return d;
}

int pc_clang_make_tensor(pc_cx *cx, const char *variable, pc_tensor_kind kind, pc_loc loc, const pc_chost *info)
{
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    int id = pc_kernel_add_tensor(cx->m, k, variable, kind, loc);
    pc_tensor *t = &k->tensors[id];
    if (info) {
        t->dtype = info->dtype;
        t->ndims = info->ndims;
        t->shape = info->ndims >= 0 ? dynamic_dims(cx, info->shape, info->ndims, variable) : NULL;
        if (info->name && *info->name)
            t->name = pc_model_strdup(cx->m, info->name);
    }
    return id;
}

int pc_clang_env_tensor(pc_cx *cx, int entry)
{
    if (cx->kernel < 0 || entry < 0)
        return -1;
    pc_cenv *e = &cx->env.items[entry];
    if (e->kind != PC_CENV_TENSOR)
        return -1;
    if (e->kernel == cx->kernel && e->tensor >= 0)
        return e->tensor;
    if (!e->is_host)
        return -1;
    /* declared outside this kernel: the kernel's own tensor for it, made once */
    int base = -1;
    if (e->host.kind == PC_TENSOR_VIEW && e->host.base_entry >= 0 && e->host.base_entry != entry)
        base = pc_clang_env_tensor(cx, e->host.base_entry);
    e = &cx->env.items[entry];
    pc_chost info = e->host;
    int id = pc_clang_make_tensor(cx, e->name, base >= 0 ? PC_TENSOR_VIEW : PC_TENSOR_CREATED, info.loc, &info);
    pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[id];
    t->base = base;
    if (base >= 0 && t->ndims < 0) {
        pc_tensor *bt = &cx->m->kernels[cx->kernel].tensors[base];
        t->ndims = bt->ndims;
        t->shape = bt->shape;
        t->dtype = t->dtype ? t->dtype : bt->dtype;
    }
    e->kernel = cx->kernel;
    e->tensor = id;
    return id;
}

/* ---- scalar declarations and assignments ------------------------------------------------------- */

pc_cvclass pc_clang_classify_type(pc_cx *cx, CXType t)
{
    CXType c = pc_clang_value_type(t);
    if (pc_clang_is_builtin_int(c))
        return PC_VC_INT;
    if (c.kind == CXType_Pointer) {
        CXType p = clang_getCanonicalType(clang_getPointeeType(c));
        return p.kind == CXType_Char_S || p.kind == CXType_Char_U ? PC_VC_STRING : PC_VC_OTHER;
    }
    const char *n = pc_clang_type_name(cx, c);
    if (!strcmp(n, "npu::tile_fwk::Tensor"))
        return PC_VC_TENSOR;
    if (!strcmp(n, "npu::tile_fwk::SymbolicScalar"))
        return PC_VC_INT;
    if (!strcmp(n, "npu::tile_fwk::DataType"))
        return PC_VC_DTYPE;
    if (!strcmp(n, "npu::tile_fwk::LoopRange"))
        return PC_VC_RANGE;
    if (!strncmp(n, "std::vector<", 12) || !strncmp(n, "std::array<", 11) || !strncmp(n, "std::set<", 9) ||
        !strncmp(n, "std::initializer_list<", 22)) {
        if (strstr(n, "Tensor") || strstr(n, "vector<std::"))
            return PC_VC_OTHER;
        return PC_VC_LIST;
    }
    if (!strcmp(n, "std::string") || strstr(n, "basic_string<char"))
        return PC_VC_STRING;
    return PC_VC_OTHER;
}

/* Does a symbolic expression contain a symbol poolcheck made from unevaluable text (a call)? */
bool pc_clang_has_opaque(const pc_expr *e)
{
    const char *names[16];
    size_t n = pc_expr_symbols(e, names, 0, 16);
    for (size_t i = 0; i < n; i++)
        if (strchr(names[i], '(') || strchr(names[i], '{') || strchr(names[i], '?'))
            return true;
    return false;
}

/* A variable that a later assignment makes non-constant (conditional, repeated, compound) is a
 * symbol of its own: the constant recorded for its first value must not bind it. */
static void forget_constant(pc_cx *cx, const char *name)
{
    if (cx->kernel < 0)
        return;
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    for (int i = 0; i < k->nconstants; i++)
        if (!strcmp(k->constants[i].name, name)) {
            memmove(&k->constants[i], &k->constants[i + 1], sizeof *k->constants * (size_t)(k->nconstants - i - 1));
            k->nconstants--;
            i--;
        }
}

void pc_clang_record_constant(pc_cx *cx, const char *name, const pc_expr *e)
{
    int64_t v;
    if (cx->kernel >= 0 && e && pc_expr_is_int(e, &v))
        pc_kernel_add_constant(cx->m, &cx->m->kernels[cx->kernel], name, v);
}

/* The initialiser expression of a variable declaration (its last expression child). */
CXCursor pc_clang_decl_init(CXCursor v)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(v, &ch);
    CXCursor r = clang_getNullCursor();
    for (size_t i = ch.count; i-- > 0;)
        if (clang_isExpression(clang_getCursorKind(ch.items[i]))) {
            r = ch.items[i];
            break;
        }
    PC_VEC_FREE(ch);
    return r;
}

void pc_clang_scalar_decl(pc_cx *cx, CXCursor v, pc_cvclass vc, const char *name)
{
    pc_arena *a = pc_model_arena(cx->m);
    /* a declaration clang rejected has no value poolcheck trusts: its name stands for it */
    CXCursor init = clang_isInvalidDeclaration(v) ? clang_getNullCursor() : pc_clang_decl_init(v);
    bool has_init = !clang_Cursor_isNull(init);
    switch (vc) {
    case PC_VC_INT: {
        const pc_expr *e = NULL;
        CXType t = clang_getCursorType(v);
        if (has_init && (clang_isConstQualifiedType(t) || clang_isConstQualifiedType(clang_getCanonicalType(t)))) {
            CXEvalResult r = clang_Cursor_Evaluate(v);
            if (r) {
                if (clang_EvalResult_getKind(r) == CXEval_Int)
                    e = pc_expr_int(a, clang_EvalResult_getAsLongLong(r));
                clang_EvalResult_dispose(r);
            }
        }
        if (!e && has_init)
            e = pc_clang_value_int_written(cx, init);
        if (!e || pc_clang_has_opaque(e))
            e = pc_expr_sym(a, name);
        int id = pc_clang_env_push(cx, PC_CENV_EXPR, name, &v);
        cx->env.items[id].expr = e;
        pc_clang_record_constant(cx, name, e);
        break;
    }
    case PC_VC_LIST:
    case PC_VC_RANGE: {
        const pc_expr **dims = NULL;
        int nd = -1;
        if (has_init && vc == PC_VC_RANGE) {
            dims = pc_arena_alloc(a, sizeof *dims * 3);
            nd = pc_clang_value_range(cx, init, &dims[0], &dims[1], &dims[2]) ? 3 : -1;
        } else if (has_init && !pc_clang_value_list_written(cx, init, &dims, &nd)) {

            nd = -1; /* std::vector<int64_t> v(n, 0), a call...: not a list poolcheck can read */
        }
        int id = pc_clang_env_push(cx, PC_CENV_LIST, name, &v);
        if (nd >= 0) {
            cx->env.items[id].list = dims;
            cx->env.items[id].nlist = nd;
        } else {
            cx->env.items[id].kind = PC_CENV_EXPR; /* unknown list: a plain symbol if used as a value */
            cx->env.items[id].expr = pc_expr_sym(a, name);
        }
        break;
    }
    case PC_VC_STRING: {
        const char *s = has_init ? pc_clang_value_string(cx, init) : NULL;
        if (s) {
            int id = pc_clang_env_push(cx, PC_CENV_STRING, name, &v);
            cx->env.items[id].str = s;
        }
        break;
    }
    case PC_VC_DTYPE: {
        int id = pc_clang_env_push(cx, PC_CENV_DTYPE, name, &v);
        cx->env.items[id].dtype = has_init ? pc_clang_value_dtype(cx, init) : PC_DT_UNKNOWN;
        break;
    }
    default:
        break;
    }
}

/* The operator and operands of an assignment or increment statement (built-in or an overloaded
 * SymbolicScalar operator=, operator+=, operator++): the operator's spelling, or NULL. */
static const char *assignment_parts(pc_cx *cx, CXCursor op, CXCursor *lhs, CXCursor *rhs)
{
    enum CXCursorKind k = clang_getCursorKind(op);
    if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator && k != CXCursor_UnaryOperator &&
        k != CXCursor_CallExpr)
        return NULL;
    const char *spelled = k == CXCursor_CallExpr ? pc_clang_spelling(cx, op) : pc_clang_operator_spelling(cx, op);
    if (spelled && k == CXCursor_CallExpr)
        spelled = !strncmp(spelled, "operator", 8) ? spelled + 8 : NULL;
    if (!spelled)
        return NULL;
    size_t n = strlen(spelled);
    bool assign = !strcmp(spelled, "=") || (n >= 2 && spelled[n - 1] == '=' && strcmp(spelled, "==") &&
                                           strcmp(spelled, "!=") && strcmp(spelled, "<=") && strcmp(spelled, ">="));
    if (!assign && strcmp(spelled, "++") && strcmp(spelled, "--"))
        return NULL;
    /* operands: an overloaded operator call has its callee between them */
    pc_clang_cursors ch = {0};
    pc_clang_children(op, &ch);
    *lhs = k == CXCursor_CallExpr ? clang_Cursor_getArgument(op, 0) : ch.count ? ch.items[0] : clang_getNullCursor();
    *rhs = k == CXCursor_CallExpr ? clang_Cursor_getArgument(op, 1) : ch.count == 2 ? ch.items[1] : clang_getNullCursor();
    PC_VEC_FREE(ch);
    return spelled;
}

/* `x = e;`, `x += e;`, `++x;` on an integer / SymbolicScalar, list, string or dtype variable.  A
 * plain assignment in straight-line code gives x a new value; anything conditional, repeated or
 * compound makes an integer a symbol (poolcheck does not guess values) and leaves the others. */
bool pc_clang_scalar_assign(pc_cx *cx, CXCursor c)
{
    CXCursor lhs = clang_getNullCursor(), rhs = clang_getNullCursor();
    const char *op = assignment_parts(cx, pc_clang_strip(c), &lhs, &rhs);
    if (!op || clang_Cursor_isNull(lhs))
        return false;
    lhs = pc_clang_strip(lhs);
    if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
        return false;
    int e = pc_clang_env_of_decl(cx, clang_getCursorReferenced(lhs));
    if (e < 0)
        return false;
    pc_cenv *en = &cx->env.items[e];
    bool plain = !strcmp(op, "=") && !clang_Cursor_isNull(rhs);
    bool straight = !cx->in_host_loop && cx->cur_loop < 0;
    switch (en->kind) {
    case PC_CENV_EXPR: {
        const pc_expr *v = plain && straight ? pc_clang_value_int_written(cx, rhs) : NULL;
        if (v && pc_clang_has_opaque(v))
            v = NULL;
        en->expr = v ? v : pc_expr_sym(pc_model_arena(cx->m), en->name);
        if (!v)
            forget_constant(cx, en->name);
        return true;
    }
    case PC_CENV_LIST: {
        const pc_expr **dims;
        int nd;
        if (plain && straight && pc_clang_value_list_written(cx, rhs, &dims, &nd)) {
            en->list = dims;
            en->nlist = nd;
        }
        return true;
    }
    case PC_CENV_DTYPE:
        if (plain)
            en->dtype = straight ? pc_clang_value_dtype(cx, rhs) : PC_DT_UNKNOWN;
        return true;
    case PC_CENV_STRING: {
        const char *s = plain && straight ? pc_clang_value_string(cx, rhs) : NULL;
        if (s)
            en->str = s;
        return true;
    }
    default:
        return false;
    }
}
