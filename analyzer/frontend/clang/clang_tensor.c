/* clang_tensor.c - tensor expressions: which call is which op, what it reads and writes, and the
 * shape and dtype of what it produces.
 *
 * Rules (docs/model.md sections 2 and 4): a named tensor used as an operand is a READ by the unit of
 * the op that consumes it; views and reshapes are transparent (they alias their base, so the
 * consumer reads the base); the value of a nested op is an anonymous temporary, not a tensor, and
 * the value on the right of a write lives in the destination.  `Matrix::Matmul` and friends run
 * on the cube unit, every other op returning a Tensor on the vector unit; View / Reshape /
 * Assemble / moves are data movement (PC_UNIT_NONE). */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

/* ---- types -------------------------------------------------------------------------------------- */

static const char *skip_quals(const char *s)
{
    for (;;) {
        if (!strncmp(s, "const ", 6))
            s += 6;
        else if (!strncmp(s, "volatile ", 9))
            s += 9;
        else
            return s;
    }
}

CXType pc_clang_value_type(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_LValueReference || c.kind == CXType_RValueReference)
        c = clang_getCanonicalType(clang_getPointeeType(c));
    return c;
}

const char *pc_clang_type_name(pc_cx *cx, CXType t)
{
    CXString s = clang_getTypeSpelling(pc_clang_value_type(t));
    const char *r = pc_arena_strdup(cx->scratch, skip_quals(clang_getCString(s) ? clang_getCString(s) : ""));
    clang_disposeString(s);
    return r;
}

bool pc_clang_is_tensor_type(CXType t)
{
    CXString s = clang_getTypeSpelling(pc_clang_value_type(t));
    bool r = !strcmp(skip_quals(clang_getCString(s) ? clang_getCString(s) : ""), "npu::tile_fwk::Tensor");
    clang_disposeString(s);
    return r;
}

/* A non-const `Tensor &` parameter: what an op writes. */
static bool is_tensor_out_param(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind != CXType_LValueReference)
        return false;
    CXType p = clang_getCanonicalType(clang_getPointeeType(c));
    return !clang_isConstQualifiedType(p) && pc_clang_is_tensor_type(p);
}

static bool is_ctor_call(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(c);
    return !clang_Cursor_isNull(r) && clang_getCursorKind(r) == CXCursor_Constructor;
}

CXCursor pc_clang_strip(CXCursor c)
{
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr || k == CXCursor_CStyleCastExpr ||
            k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXFunctionalCastExpr) {
            pc_clang_cursors ch = {0};
            pc_clang_children(c, &ch);
            int nexpr = 0;
            CXCursor only = c;
            for (size_t i = 0; i < ch.count; i++)
                if (clang_isExpression(clang_getCursorKind(ch.items[i]))) {
                    nexpr++;
                    only = ch.items[i];
                }
            PC_VEC_FREE(ch);
            if (nexpr != 1)
                return c;
            /* a recovery expression around a lone callee (Foo()) is a call, not a wrapper */
            enum CXCursorKind ok = clang_getCursorKind(only);
            if (ok == CXCursor_OverloadedDeclRef)
                return c;
            if (ok == CXCursor_DeclRefExpr) {
                CXCursor r = clang_getCursorReferenced(only);
                enum CXCursorKind rk = clang_Cursor_isNull(r) ? CXCursor_OverloadedDeclRef : clang_getCursorKind(r);
                if (rk == CXCursor_FunctionDecl || rk == CXCursor_OverloadedDeclRef || rk == CXCursor_FunctionTemplate)
                    return c;
            }
            c = only;
            continue;
        }
        /* copy / move construction of a Tensor from a Tensor: the same value */
        if (is_ctor_call(c) && clang_Cursor_getNumArguments(c) == 1) {
            CXCursor a = clang_Cursor_getArgument(c, 0);
            if (pc_clang_is_tensor_type(clang_getCursorType(a)) && pc_clang_is_tensor_type(clang_getCursorType(c))) {
                c = a;
                continue;
            }
        }
        return c;
    }
    return c;
}

/* The name of what a callee expression names (DeclRefExpr, OverloadedDeclRef, MemberRefExpr). */
static const char *callee_name(pc_cx *cx, CXCursor c, CXCursor *decl)
{
    for (int guard = 0; guard < 8; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_OverloadedDeclRef) {
            if (decl && clang_getNumOverloadedDecls(c) > 0)
                *decl = clang_getOverloadedDecl(c, 0);
            return pc_clang_spelling(cx, c);
        }
        if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
            const char *s = pc_clang_spelling(cx, c);
            if (*s) {
                if (decl)
                    *decl = clang_getCursorReferenced(c);
                return s;
            }
        }
        pc_clang_cursors ch = {0};
        pc_clang_children(c, &ch);
        CXCursor first = ch.count ? ch.items[0] : clang_getNullCursor();
        PC_VEC_FREE(ch);
        if (clang_Cursor_isNull(first))
            return NULL;
        c = first;
    }
    return NULL;
}

static bool is_recovery_call(CXCursor c, CXCursor *callee)
{
    if (clang_getCursorKind(c) != CXCursor_UnexposedExpr)
        return false;
    pc_clang_cursors ch = {0};
    pc_clang_children(c, &ch);
    bool r = false;
    if (ch.count >= 1) {
        CXCursor f = ch.items[0];
        enum CXCursorKind fk = clang_getCursorKind(f);
        if (fk == CXCursor_OverloadedDeclRef)
            r = true;
        else if (fk == CXCursor_DeclRefExpr || fk == CXCursor_UnexposedExpr) {
            CXType t = clang_getCursorType(f);
            CXString ts = clang_getTypeSpelling(t);
            r = strstr(clang_getCString(ts), "overloaded function") != NULL || t.kind == CXType_FunctionProto;
            clang_disposeString(ts);
            if (!r && fk == CXCursor_DeclRefExpr) {
                CXCursor ref = clang_getCursorReferenced(f);
                r = !clang_Cursor_isNull(ref) && (clang_getCursorKind(ref) == CXCursor_FunctionDecl ||
                                                  clang_getCursorKind(ref) == CXCursor_FunctionTemplate);
            }
        }
        if (r && callee)
            *callee = f;
    }
    PC_VEC_FREE(ch);
    return r;
}

const char *pc_clang_call_name(pc_cx *cx, CXCursor c, CXCursor *decl, bool *resolved)
{
    if (decl)
        *decl = clang_getNullCursor();
    if (resolved)
        *resolved = false;
    CXCursor callee;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        const char *name = pc_clang_spelling(cx, c);
        if (!clang_Cursor_isNull(ref) && *name) {
            if (decl)
                *decl = ref;
            if (resolved)
                *resolved = true;
            return name;
        }
        pc_clang_cursors ch = {0};
        pc_clang_children(c, &ch);
        const char *r = ch.count ? callee_name(cx, ch.items[0], decl) : NULL;
        PC_VEC_FREE(ch);
        return r && *r ? r : (*name ? name : NULL);
    }
    if (is_recovery_call(c, &callee))
        return callee_name(cx, callee, decl);
    return NULL;
}

int pc_clang_call_nargs(CXCursor c)
{
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        int n = clang_Cursor_getNumArguments(c);
        return n < 0 ? 0 : n;
    }
    pc_clang_cursors ch = {0};
    pc_clang_children(c, &ch);
    int n = ch.count > 0 ? (int)ch.count - 1 : 0;
    PC_VEC_FREE(ch);
    return n;
}

CXCursor pc_clang_call_arg(CXCursor c, int i)
{
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        return clang_Cursor_getArgument(c, (unsigned)i);
    pc_clang_cursors ch = {0};
    pc_clang_children(c, &ch);
    CXCursor r = (size_t)i + 1 < ch.count ? ch.items[i + 1] : clang_getNullCursor();
    PC_VEC_FREE(ch);
    return r;
}

/* Is argument i written in the source (not a default argument)? */
static bool arg_present(pc_cx *cx, CXCursor call, int i)
{
    if (i >= pc_clang_call_nargs(call))
        return false;
    CXCursor a = pc_clang_call_arg(call, i);
    uint32_t b, e;
    return !clang_Cursor_isNull(a) && pc_clang_offsets(cx, a, &b, &e) && e > b;
}

/* ---- argument readers -------------------------------------------------------------------------- */

/* A list argument in the written reading: `{a[0], b->n}` has the symbols of those spellings. */
static bool arg_shape(pc_cx *cx, CXCursor call, int i, const pc_expr ***dims, int *nd)
{
    return arg_present(cx, call, i) && pc_clang_value_list_written(cx, pc_clang_call_arg(call, i), dims, nd);
}

static bool arg_int(pc_cx *cx, CXCursor call, int i, int64_t *v)
{
    if (!arg_present(cx, call, i))
        return false;
    const pc_expr *e = pc_clang_value_int(cx, pc_clang_call_arg(call, i));
    return e && pc_expr_is_int(e, v);
}

static pc_dtype arg_dtype(pc_cx *cx, CXCursor call, int i)
{
    return arg_present(cx, call, i) ? pc_clang_value_dtype(cx, pc_clang_call_arg(call, i)) : PC_DT_UNKNOWN;
}

static bool arg_type_is(pc_cx *cx, CXCursor call, int i, const char *suffix)
{
    if (i >= pc_clang_call_nargs(call))
        return false;
    const char *n = pc_clang_type_name(cx, clang_getCursorType(pc_clang_call_arg(call, i)));
    size_t ln = strlen(n), ls = strlen(suffix);
    return ln >= ls && !strcmp(n + ln - ls, suffix);
}

/* ---- the op table: frontend/ops.c, shared with the Python frontend --------------------------------- */

static const pc_op_info *op_lookup(const char *name) { return pc_op_find(PC_OP_CPP, name); }

/* A function of the PyPTO API (namespace npu::tile_fwk, not defined in the main file). */
static bool api_function(CXCursor decl)
{
    if (clang_Cursor_isNull(decl))
        return false;
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
        return false;
    const char *chain[8];
    int n = 0;
    CXString names[8];
    for (CXCursor p = clang_getCursorSemanticParent(decl);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit && n < 8;
         p = clang_getCursorSemanticParent(p)) {
        names[n] = clang_getCursorSpelling(p);
        chain[n] = clang_getCString(names[n]);
        n++;
    }
    bool r = n >= 2 && !strcmp(chain[n - 1], "npu") && !strcmp(chain[n - 2], "tile_fwk");
    for (int i = 0; i < n; i++)
        clang_disposeString(names[i]);
    return r;
}

/* ---- shapes --------------------------------------------------------------------------------------- */

static pc_ctres tres_none(void)
{
    pc_ctres r;
    memset(&r, 0, sizeof r);
    r.kind = PC_TR_NONE;
    r.tensor = -1;
    r.ndims = -1;
    return r;
}

static pc_ctres tres_anon(pc_unit unit, pc_dtype dt, const pc_expr **shape, int nd)
{
    pc_ctres r = tres_none();
    r.kind = PC_TR_ANON;
    r.unit = unit;
    r.dtype = dt;
    r.shape = nd >= 0 ? shape : NULL;
    r.ndims = nd;
    return r;
}

/* What a Tensor constructor gives, before one is read (pc_clang_tensor_ctor): nothing known. */
static pc_chost no_ctor_info(void)
{
    pc_chost info;
    memset(&info, 0, sizeof info);
    info.ndims = -1;
    info.base_entry = -1;
    return info;
}

/* A tensor a Tensor constructor made: its dtype, shape and name string (when it has one). */
static void take_ctor_info(pc_cx *cx, pc_tensor *t, const pc_chost *info)
{
    t->dtype = info->dtype;
    t->ndims = info->ndims;
    t->shape = info->shape;
    if (info->name && *info->name)
        t->name = pc_model_strdup(cx->m, info->name);
}

/* Where an inlined helper's value goes (docs/model.md 4): kind, nothing returned yet. */
static pc_ctarget helper_target(pc_ctarget_kind kind)
{
    pc_ctarget t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.result = tres_none();
    return t;
}

/* call inlined, its value going to target, when it calls a project helper the walk inlines
 * (pc_clang_inline_call); false, nothing walked, when it calls no such helper. */
static bool inline_helper_call(pc_cx *cx, CXCursor call, pc_ctarget *target)
{
    CXCursor decl;
    bool resolved;
    const char *name = pc_clang_call_name(cx, call, &decl, &resolved);
    return name && resolved && pc_clang_inlinable(cx, decl) && pc_clang_inline_call(cx, call, target);
}

/* ---- reads and writes ------------------------------------------------------------------------------ */

static int resolve_lvalue(pc_cx *cx, CXCursor c);

typedef PC_VEC(pc_ctres) tres_list;

/* Every tensor operand inside an argument (a Tensor, a braced list of them, a vector, an
 * AssembleItem list): READ by `unit`; their values are appended to out when given. */
static void operand_reads(pc_cx *cx, CXCursor arg, pc_unit unit, tres_list *out, int depth)
{
    if (clang_Cursor_isNull(arg) || depth > 8)
        return;
    if (pc_clang_is_tensor_type(clang_getCursorType(arg))) {
        pc_ctres r = pc_clang_tensor_expr(cx, arg);
        if (r.kind == PC_TR_ANON && unit != PC_UNIT_NONE && cx->kernel >= 0) {
            /* another op's result that this op reads (Add(Matmul(a, b), 1.0)) is a value of its own,
             * as the Python frontend makes it: a cube result a vector op reads is root_inner, and the
             * lowering rules see the operand (docs/model.md section 4).  (Data movement - an
             * Assemble's source - stores the value in its destination instead: unit NONE.) */
            pc_loc at = pc_clang_cursor_loc(cx, arg);
            int id = pc_clang_make_tensor(cx, NULL, PC_TENSOR_VALUE, at, NULL);
            pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[id];
            t->dtype = r.dtype;
            t->ndims = r.ndims;
            t->shape = r.ndims >= 0 ? r.shape : NULL;
            t->scope_loop = cx->cur_loop;
            pc_clang_access(cx, id, PC_ACC_DEFINE, r.unit, at);
            cx->m->kernels[cx->kernel].tensors[id].def_stmt = cx->cur_stmt;
            r.kind = PC_TR_NAMED;
            r.tensor = id;
            r.via_view = false;
            r.loc = at;
        }
        if (r.kind == PC_TR_NAMED) {
            pc_clang_access(cx, r.tensor, PC_ACC_READ, unit, r.loc);
            /* a View's region is what a cube -> vector copy moves (docs/model.md section 7) */
            if (r.via_view && r.ndims >= 0 && pc_clang_naccesses(cx) > 0)
                pc_access_set_region(cx->m, pc_clang_access_at(cx, pc_clang_naccesses(cx) - 1), r.shape, r.ndims);
        }
        if (out && r.kind != PC_TR_NONE)
            PC_VEC_PUSH(*out, r);
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(arg);
    bool container = k == CXCursor_InitListExpr || k == CXCursor_UnexposedExpr || is_ctor_call(arg) ||
                     k == CXCursor_ParenExpr;
    if (!container)
        return;
    pc_clang_cursors ch = {0};
    pc_clang_children(arg, &ch);
    for (size_t i = 0; i < ch.count; i++)
        if (clang_isExpression(clang_getCursorKind(ch.items[i])))
            operand_reads(cx, ch.items[i], unit, out, depth + 1);
    PC_VEC_FREE(ch);
}

/* Read the tensor operands of every argument except those in skip[]. */
static void call_reads(pc_cx *cx, CXCursor call, pc_unit unit, const signed char *skip, tres_list *out)
{
    int n = pc_clang_call_nargs(call);
    for (int i = 0; i < n; i++) {
        bool skipped = false;
        for (int s = 0; skip && s < 4 && skip[s] >= 0; s++)
            skipped = skipped || skip[s] == i;
        if (!skipped)
            operand_reads(cx, pc_clang_call_arg(call, i), unit, out, 0);
    }
}

/* A write destination: a Tensor lvalue (or, in a call clang could not resolve, a variable of
 * type Tensor). */
static bool tensor_like(CXCursor a)
{
    if (pc_clang_is_tensor_type(clang_getCursorType(a)))
        return true;
    CXCursor s = pc_clang_strip(a);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(s);
    return !clang_Cursor_isNull(r) && pc_clang_is_tensor_type(clang_getCursorType(r));
}

static void write_arg(pc_cx *cx, CXCursor call, int i, pc_access_kind kind, pc_unit unit)
{
    if (i >= pc_clang_call_nargs(call))
        return;
    CXCursor a = pc_clang_call_arg(call, i);
    if (!tensor_like(a))
        return;
    int t = resolve_lvalue(cx, a);
    if (t >= 0)
        pc_clang_access(cx, t, kind, unit, pc_clang_cursor_loc(cx, a));
}

static pc_ctres named(pc_cx *cx, int t, CXCursor at)
{
    pc_ctres r = tres_none();
    if (t < 0)
        return r;
    r.loc = pc_clang_cursor_loc(cx, at);
    pc_tensor *pt = &cx->m->kernels[cx->kernel].tensors[t];
    r.kind = PC_TR_NAMED;
    r.tensor = t;
    r.dtype = pt->dtype;
    r.shape = pt->shape;
    r.ndims = pt->ndims;
    return r;
}

/* A tensor variable (or outputs[0], s.data): the kernel's tensor for it, made on first use. */
static int resolve_lvalue(pc_cx *cx, CXCursor c)
{
    if (cx->kernel < 0)
        return -1;
    c = pc_clang_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(c);
        const char *name = pc_clang_spelling(cx, c);
        int e = clang_Cursor_isNull(decl) ? -1 : pc_clang_env_find_decl(cx, decl);
        if (e < 0) {
            e = pc_clang_env_find(cx, name, PC_CENV_TENSOR);
            if (e >= 0 && cx->env.items[e].has_decl && !clang_Cursor_isNull(decl) &&
                !clang_equalCursors(cx->env.items[e].decl, decl))
                e = -1;
            if (e >= 0 && !cx->env.items[e].has_decl && !clang_Cursor_isNull(decl)) {
                cx->env.items[e].decl = decl;
                cx->env.items[e].has_decl = true;
            }
        }
        int t = pc_clang_env_tensor(cx, e);
        if (t >= 0)
            return t;
        for (size_t i = 0; i < cx->late.count; i++)
            if (cx->late.items[i].kernel == cx->kernel && !clang_Cursor_isNull(decl) &&
                !cx->late.items[i].spelling && clang_equalCursors(cx->late.items[i].decl, decl))
                return cx->late.items[i].tensor;
        /* a Tensor declared where the walk did not see it (a global, a lambda capture...) */
        pc_chost info = no_ctor_info();
        if (!clang_Cursor_isNull(decl) && clang_getCursorKind(decl) == CXCursor_VarDecl)
            pc_clang_tensor_ctor(cx, decl, &info);
        pc_kernel *kk = &cx->m->kernels[cx->kernel];
        int id = pc_kernel_add_tensor(cx->m, kk, name, PC_TENSOR_CREATED,
                                      clang_Cursor_isNull(decl) ? pc_clang_cursor_loc(cx, c) : pc_clang_cursor_loc(cx, decl));
        take_ctor_info(cx, &kk->tensors[id], &info);
        struct pc_clate l = {cx->kernel, decl, NULL, id};
        PC_VEC_PUSH(cx->late, l);
        return id;
    }
    /* outputs[0], s.data, *p: by spelling */
    const char *sp = pc_clang_extent_spelling(cx, c);
    if (!sp)
        return -1;
    pc_loc loc = pc_clang_cursor_loc(cx, c);
    int e = pc_clang_env_find(cx, sp, PC_CENV_TENSOR);
    int t = pc_clang_env_tensor(cx, e);
    if (t >= 0)
        return t;
    for (size_t i = 0; i < cx->late.count; i++)
        if (cx->late.items[i].kernel == cx->kernel && cx->late.items[i].spelling &&
            !strcmp(cx->late.items[i].spelling, sp))
            return cx->late.items[i].tensor;
    int id = pc_kernel_add_tensor(cx->m, &cx->m->kernels[cx->kernel], sp, PC_TENSOR_CREATED, loc);
    struct pc_clate l = {cx->kernel, clang_getNullCursor(), sp, id};
    PC_VEC_PUSH(cx->late, l);
    return id;
}

/* ---- operands and attributes for the shared rule (pc_op_apply, frontend/ops.c) ----------------- */

static pc_op_operand operand_of(pc_ctres r)
{
    pc_op_operand o = {r.ndims >= 0 ? r.shape : NULL, r.shape ? r.ndims : -1, r.dtype};
    return o;
}

/* The tensor operands as call_reads saw them, in argument order. */
static pc_op_operand *operands_of(pc_cx *cx, const tres_list *l)
{
    pc_op_operand *o = pc_arena_alloc(cx->scratch, sizeof *o * (l->count ? l->count : 1));
    for (size_t i = 0; i < l->count; i++)
        o[i] = operand_of(l->items[i]);
    return o;
}

static pc_ctres anon_of(pc_unit unit, pc_op_result r) { return tres_anon(unit, r.dtype, r.shape, r.ndims); }

/* Argument i as an integer attribute: one integer, or a braced list / vector of them. */
static void arg_ints(pc_cx *cx, CXCursor call, int i, pc_op_ints *out)
{
    memset(out, 0, sizeof *out);
    out->state = PC_OPA_ABSENT;
    if (!arg_present(cx, call, i))
        return;
    out->state = PC_OPA_UNKNOWN;
    int64_t v;
    if (arg_int(cx, call, i, &v)) {
        int64_t *one = pc_arena_alloc(cx->scratch, sizeof *one);
        *one = v;
        out->state = PC_OPA_KNOWN;
        out->n = 1;
        out->v = one;
        return;
    }
    const pc_expr **dims = NULL;
    int nd = -1;
    if (!arg_shape(cx, call, i, &dims, &nd) || nd < 0)
        return;
    int64_t *vals = pc_arena_alloc(cx->scratch, sizeof *vals * (size_t)(nd ? nd : 1));
    for (int k = 0; k < nd; k++)
        if (!dims[k] || !pc_expr_is_int(dims[k], &vals[k]))
            return;
    out->state = PC_OPA_KNOWN;
    out->list = true;
    out->n = nd;
    out->v = vals;
}

/* Argument i as the shape attribute. */
static void arg_shape_attr(pc_cx *cx, CXCursor call, int i, pc_op_attrs *at)
{
    at->shape_state = PC_OPA_ABSENT;
    if (!arg_present(cx, call, i))
        return;
    at->shape_state = arg_shape(cx, call, i, &at->shape, &at->ndims) && at->ndims >= 0 ? PC_OPA_KNOWN : PC_OPA_UNKNOWN;
}

/* The row's DataType argument (ops.c's cpp_dtype_arg) as the dtype attribute. */
static void arg_dtype_attr(pc_cx *cx, CXCursor call, int i, pc_op_attrs *at)
{
    if (i < 0 || !arg_present(cx, call, i))
        return;
    at->dtype = arg_dtype(cx, call, i);
    at->dtype_state = at->dtype != PC_DT_UNKNOWN ? PC_OPA_KNOWN : PC_OPA_UNKNOWN;
}

/* A view of base with the shape and dtype the rule gives: a named base stays named (the view
 * aliases it). */
static pc_ctres view_result(pc_ctres base, pc_op_result r)
{
    if (base.kind == PC_TR_NONE)
        return base;
    if (base.kind == PC_TR_NAMED)
        base.via_view = true;
    base.shape = r.shape;
    base.ndims = r.ndims;
    base.dtype = r.dtype;
    return base;
}

/* View(t, shape, ...) / Reshape(t, shape): base seen with the shape of argument 1. */
static pc_ctres view_of_shape_arg(pc_cx *cx, CXCursor call, const pc_op_info *op, pc_ctres base)
{
    pc_op_attrs at = pc_op_attrs_none(PC_OP_CPP);
    arg_shape_attr(cx, call, 1, &at);
    pc_op_operand x = operand_of(base);
    pc_ctres r = view_result(base, pc_op_apply(pc_model_arena(cx->m), op, &x, 1, &at));
    if (at.shape_state == PC_OPA_UNKNOWN && cx->kernel >= 0)
        /* a shape argument poolcheck does not evaluate: the view's shape is unknown - never its
         * base's, which would size what it feeds by the whole tensor */
        pc_model_add_message_check(cx->m, PC_MSG_NOTE, pc_clang_cursor_loc(cx, pc_clang_call_arg(call, 1)), "PC013",
                                   "'View': its shape argument is not a value poolcheck evaluates (a helper's "
                                   "result, a host computation), so the view's shape, and the bytes of what it "
                                   "feeds, are unknown");
    return r;
}

/* ---- tensor expressions --------------------------------------------------------------------------- */

/* Tensor data read inside a scalar argument (an offset list, a shape, a value):
 * View(x, {16, 16}, {i * 16 + GetTensorData(idx, {0})}) reads idx. */
typedef struct data_read_ctx { pc_cx *cx; int depth; } data_read_ctx;

static enum CXChildVisitResult data_read_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    data_read_ctx *ctx = d;
    pc_cx *cx = ctx->cx;
    if (pc_clang_is_tensor_type(clang_getCursorType(c)))
        return CXChildVisit_Continue; /* a tensor operand: the op's own rules cover it */
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        const char *n = pc_clang_call_name(cx, c, NULL, NULL);
        if (n && (!strcmp(n, "GetTensorData") || !strcmp(n, "GetInputData")) && pc_clang_call_nargs(c) >= 1) {
            bool saved = cx->header_reads;
            cx->header_reads = true; /* a scalar read for control flow, not an op of its own */
            operand_reads(cx, pc_clang_call_arg(c, 0), PC_UNIT_NONE, NULL, 0);
            cx->header_reads = saved;
            return CXChildVisit_Continue;
        }
    }
    if (ctx->depth < 16) {
        ctx->depth++;
        clang_visitChildren(c, data_read_visit, ctx);
        ctx->depth--;
    }
    return CXChildVisit_Continue;
}

static void data_reads(pc_cx *cx, CXCursor arg)
{
    if (clang_Cursor_isNull(arg) || pc_clang_is_tensor_type(clang_getCursorType(arg)))
        return;
    data_read_ctx ctx = {cx, 0};
    data_read_visit(arg, clang_getNullCursor(), &ctx);
}

static pc_ctres op_rules(pc_cx *cx, CXCursor c, const pc_op_info *op, const char *name, CXCursor decl,
                         bool resolved);

/* An op call: its rule (op_rules), then the reads it made itself - not those of the op calls in
 * its arguments, which tagged theirs first - carry the op's name, a call id (the index of its
 * first read in the statement) and its reduction axis (pc_access.op, for the lowering rules of
 * docs/model.md section 4). */
static pc_ctres op_call(pc_cx *cx, CXCursor c, const char *name, CXCursor decl, bool resolved)
{
    const pc_op_info *op = op_lookup(name);
    if (resolved && !api_function(decl))
        op = NULL; /* a method, or a function of another library with the same name */
    int first = pc_clang_naccesses(cx), stmt = cx->cur_stmt, saved_axis = cx->op_axis;
    cx->op_axis = -1;
    pc_ctres r = op_rules(cx, c, op, name, decl, resolved);
    /* (an argument that inlined a helper may have moved on to another statement: then the
     * accesses are not this call's alone, and none is tagged) */
    if (op && op->cpp && (stmt < 0 || stmt == cx->cur_stmt)) {
        int call = -1; /* the index of the call's first access in its statement: stable under reparses */
        for (int i = first; i < pc_clang_naccesses(cx); i++) {
            pc_access *a = pc_clang_access_at(cx, i);
            if (a->kind == PC_ACC_READ && !a->op) {
                if (call < 0)
                    call = i;
                pc_access_set_op(cx->m, a, op->cpp, call, cx->op_axis);
            }
        }
    }
    cx->op_axis = saved_axis;
    return r;
}

/* An op the table has no row for (or a call clang could not resolve): a vector op whose result
 * broadcasts its tensor operands (ops.c: each frontend's own default). */
static const pc_op_info unlisted_op = {NULL, NULL, PC_OPC_VECTOR, PC_OPSHAPE_ELEMWISE, PC_OPDT_FIRST, -1, -1,
                                       {-1, -1, -1, -1}, -1, -1, -1, -1};

/* Longer than 150 lines on purpose: one case per way an op's operands are read (pc_op_shape), each a
 * few lines that pick its operands and attributes out of the call before pc_op_apply; a table of
 * readers would hold the same cases. */
static pc_ctres op_rules(pc_cx *cx, CXCursor c, const pc_op_info *op, const char *name, CXCursor decl,
                         bool resolved)
{
    pc_arena *a = pc_model_arena(cx->m);
    CXType rt = clang_getCursorType(c);
    bool returns_tensor = pc_clang_is_tensor_type(rt);
    bool returns_void = rt.kind == CXType_Void;
    int nargs = pc_clang_call_nargs(c);
    tres_list ins = {0};
    pc_ctres r = tres_none();
    pc_op_attrs at = pc_op_attrs_none(PC_OP_CPP);
    if (!op || op->shape != PC_OPSHAPE_GETDATA)
        for (int i = 0; i < nargs; i++)
            data_reads(cx, pc_clang_call_arg(c, i));
    if (!op) {
        if (resolved && !returns_tensor && !returns_void && !api_function(decl)) {
            PC_VEC_FREE(ins);
            return r;
        }
        if (resolved && returns_void && api_function(decl)) {
            /* an API function outside the table: const Tensor& arguments read, Tensor& written */
            for (int i = 0; i < nargs; i++) {
                CXCursor p = clang_Cursor_getArgument(decl, (unsigned)i);
                if (!clang_Cursor_isNull(p) && is_tensor_out_param(clang_getCursorType(p)))
                    write_arg(cx, c, i, PC_ACC_WRITE_WHOLE, PC_UNIT_NONE);
                else
                    operand_reads(cx, pc_clang_call_arg(c, i), PC_UNIT_NONE, NULL, 0);
            }
            PC_VEC_FREE(ins);
            return r;
        }
        if (resolved && !returns_tensor) {
            PC_VEC_FREE(ins);
            return r;
        }
        /* an op poolcheck has no rule for (or a call clang could not resolve): a vector op over
         * its tensor operands */
        if (resolved && returns_tensor && api_function(decl)) /* PC013; an unresolved call is PC012's */
            pc_model_add_message_check(cx->m, PC_MSG_NOTE, pc_clang_cursor_loc(cx, c), "PC013",
                                       pc_arena_printf(cx->scratch, "'%s': result shape not inferred (not in "
                                                       "poolcheck's op table); given the shape of its tensor "
                                                       "operands, so its bytes may be wrong", name));
        call_reads(cx, c, PC_UNIT_VECTOR, NULL, &ins);
        if (ins.count == 0 && !returns_tensor) {
            PC_VEC_FREE(ins);
            return r;
        }
        r = anon_of(PC_UNIT_VECTOR, pc_op_apply(a, &unlisted_op, operands_of(cx, &ins), (int)ins.count, &at));
        PC_VEC_FREE(ins);
        return r;
    }
    arg_dtype_attr(cx, c, op->cpp_dtype_arg, &at);
    switch (op->shape) {
    case PC_OPSHAPE_VIEW: {
        pc_ctres base = nargs ? pc_clang_tensor_expr(cx, pc_clang_call_arg(c, 0)) : tres_none();
        if (nargs == 2 && arg_type_is(cx, c, 1, "DataType")) { /* View(t, dtype): same bits, new type */
            arg_dtype_attr(cx, c, 1, &at);
            pc_op_operand x = operand_of(base);
            r = view_result(base, pc_op_apply(a, op, &x, 1, &at));
        } else {
            r = view_of_shape_arg(cx, c, op, base);
        }
        break;
    }
    case PC_OPSHAPE_RESHAPE: {
        bool void_form = returns_void || (!resolved && nargs == 2 && pc_clang_is_tensor_type(clang_getCursorType(pc_clang_call_arg(c, 1))));
        pc_ctres base = nargs ? pc_clang_tensor_expr(cx, pc_clang_call_arg(c, 0)) : tres_none();
        if (void_form) { /* Reshape(src, dst): dst takes src's data */
            if (base.kind == PC_TR_NAMED)
                pc_clang_access(cx, base.tensor, PC_ACC_READ, PC_UNIT_NONE, base.loc);
            write_arg(cx, c, 1, PC_ACC_WRITE_WHOLE, PC_UNIT_NONE);
            break;
        }
        r = view_of_shape_arg(cx, c, op, base);
        break;
    }
    case PC_OPSHAPE_ASSEMBLE: {
        if (returns_tensor || (!resolved && nargs == 1)) { /* Assemble({{t, offsets}, ...}) -> new tensor */
            call_reads(cx, c, PC_UNIT_NONE, NULL, NULL);
            r = tres_anon(PC_UNIT_NONE, PC_DT_UNKNOWN, NULL, -1);
            break;
        }
        int dst;
        CXCursor a0 = nargs ? pc_clang_call_arg(c, 0) : clang_getNullCursor();
        bool item_form = nargs < 3 || clang_getCursorKind(pc_clang_strip(a0)) == CXCursor_InitListExpr ||
                         strstr(pc_clang_type_name(cx, clang_getCursorType(a0)), "AssembleItem");
        if (!item_form) {
            pc_ctres src = pc_clang_tensor_expr(cx, a0);
            if (src.kind == PC_TR_NAMED)
                pc_clang_access(cx, src.tensor, PC_ACC_READ, PC_UNIT_NONE, src.loc);
            dst = 2;
        } else { /* Assemble(items, dst): every item's tensor is read */
            operand_reads(cx, nargs ? pc_clang_call_arg(c, 0) : clang_getNullCursor(), PC_UNIT_NONE, NULL, 0);
            dst = 1;
        }
        write_arg(cx, c, dst, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE);
        break;
    }
    case PC_OPSHAPE_ATOMIC: {
        static const signed char skip[] = {2, -1};
        call_reads(cx, c, PC_UNIT_NONE, skip, NULL);
        write_arg(cx, c, 2, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE);
        break;
    }
    case PC_OPSHAPE_MOVE: {
        static const signed char skip[] = {1, -1};
        call_reads(cx, c, PC_UNIT_NONE, skip, NULL);
        write_arg(cx, c, 1, PC_ACC_WRITE_WHOLE, PC_UNIT_NONE);
        break;
    }
    case PC_OPSHAPE_SETDATA:
        write_arg(cx, c, 2, PC_ACC_WRITE_ELEMENT, PC_UNIT_NONE);
        break;
    case PC_OPSHAPE_GETDATA: {
        bool saved = cx->header_reads;
        cx->header_reads = true; /* a scalar read for control flow, not an op of its own */
        if (nargs >= 1)
            operand_reads(cx, pc_clang_call_arg(c, 0), PC_UNIT_NONE, NULL, 0);
        cx->header_reads = saved;
        break;
    }
    case PC_OPSHAPE_INPLACE: {
        static const signed char skip[] = {0, -1};
        call_reads(cx, c, pc_op_unit(op), skip, NULL);
        write_arg(cx, c, 0, PC_ACC_WRITE_ELEMENT, pc_op_unit(op));
        break;
    }
    case PC_OPSHAPE_WRITES:
        call_reads(cx, c, pc_op_unit(op), op->outs, NULL);
        for (int i = 0; i < 4 && op->outs[i] >= 0; i++)
            write_arg(cx, c, op->outs[i], PC_ACC_WRITE_WHOLE, pc_op_unit(op));
        break;
    case PC_OPSHAPE_MATMUL: {
        call_reads(cx, c, PC_UNIT_CUBE, NULL, &ins);
        pc_op_operand x[2] = {{NULL, -1, PC_DT_UNKNOWN}, {NULL, -1, PC_DT_UNKNOWN}};
        int nx = 0;
        if (op->mm_a >= 0 && op->mm_b >= 0) {
            /* the operands and transpose flags at the row's positions (ops.c); a MatmulExtendParam
             * where the first flag goes moves the flags one on */
            int shift = op->mm_at >= 0 && arg_type_is(cx, c, op->mm_at, "MatmulExtendParam") ? 1 : 0;
            int64_t at_ = 0, bt = 0;
            if (op->mm_at >= 0)
                arg_int(cx, c, op->mm_at + shift, &at_);
            if (op->mm_bt >= 0)
                arg_int(cx, c, op->mm_bt + shift, &bt);
            at.a_trans = at_ != 0;
            at.b_trans = bt != 0;
            pc_clang_tiles_matmul(cx, c, op->mm_a, op->mm_b, at.a_trans, at.b_trans);
            if (op->mm_a < nargs && op->mm_b < nargs) {
                /* the operands in argument order, as call_reads saw them: the left one is the first
                 * tensor read, the right one the tensor at its position among the tensor arguments */
                int rb_at = 0;
                for (int i = 0; i < op->mm_b; i++)
                    rb_at += i >= op->mm_a && pc_clang_is_tensor_type(clang_getCursorType(pc_clang_call_arg(c, i)));
                if (ins.count > 0)
                    x[0] = operand_of(ins.items[0]);
                if (ins.count > (size_t)rb_at)
                    x[1] = operand_of(ins.items[rb_at]);
                nx = 2;
            }
        }
        r = anon_of(PC_UNIT_CUBE, pc_op_apply(a, op, x, nx, &at));
        break;
    }
    case PC_OPSHAPE_GATHERMASK:
        at.mode_known = arg_int(cx, c, 1, &at.mode);
        call_reads(cx, c, PC_UNIT_VECTOR, NULL, &ins);
        r = anon_of(PC_UNIT_VECTOR, pc_op_apply(a, op, operands_of(cx, &ins), (int)ins.count, &at));
        break;
    case PC_OPSHAPE_REDUCE: {
        call_reads(cx, c, PC_UNIT_VECTOR, NULL, &ins);
        int64_t keep = 0;
        arg_ints(cx, c, 1, &at.axes);
        arg_int(cx, c, 2, &keep);
        at.keepdim = keep != 0;
        pc_op_result res = pc_op_apply(a, op, operands_of(cx, &ins), (int)ins.count, &at);
        cx->op_axis = res.axis;
        r = anon_of(PC_UNIT_VECTOR, res);
        break;
    }
    case PC_OPSHAPE_FULL:
        arg_shape_attr(cx, c, 2, &at);
        r = anon_of(pc_op_unit(op), pc_op_apply(a, op, NULL, 0, &at));
        break;
    case PC_OPSHAPE_EXPAND:
    case PC_OPSHAPE_CAST:
    case PC_OPSHAPE_TRANSPOSE:
    case PC_OPSHAPE_PERMUTE:
    case PC_OPSHAPE_UNSQUEEZE:
    case PC_OPSHAPE_SQUEEZE:
    case PC_OPSHAPE_CONCAT:
    case PC_OPSHAPE_ELEMWISE:
    case PC_OPSHAPE_OPAQUE:
        /* a rule over the tensor operands and argument 1: Expand's shape, the others' axes */
        if (op->shape == PC_OPSHAPE_EXPAND)
            arg_shape_attr(cx, c, 1, &at);
        else if (op->shape != PC_OPSHAPE_CAST && op->shape != PC_OPSHAPE_ELEMWISE && op->shape != PC_OPSHAPE_OPAQUE)
            arg_ints(cx, c, 1, &at.axes);
        call_reads(cx, c, pc_op_unit(op), NULL, &ins);
        r = anon_of(pc_op_unit(op), pc_op_apply(a, op, operands_of(cx, &ins), (int)ins.count, &at));
        break;
    case PC_OPSHAPE_TUPLE:
        call_reads(cx, c, pc_op_unit(op), NULL, NULL);
        r = tres_anon(pc_op_unit(op), PC_DT_UNKNOWN, NULL, -1);
        break;
    default:
        break;
    }
    PC_VEC_FREE(ins);
    return r;
}

pc_ctres pc_clang_tensor_expr(pc_cx *cx, CXCursor e)
{
    if (clang_Cursor_isNull(e) || cx->kernel < 0)
        return tres_none();
    CXCursor c = pc_clang_strip(e);
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor decl;
    bool resolved;
    const char *name = pc_clang_call_name(cx, c, &decl, &resolved);
    if (!name || !strcmp(name, "operator[]") || !strcmp(name, "operator*")) {
        if (pc_clang_is_tensor_type(clang_getCursorType(c)) &&
            (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr ||
             k == CXCursor_CallExpr || k == CXCursor_UnaryOperator))
            return named(cx, resolve_lvalue(cx, c), c);
        if (k == CXCursor_ConditionalOperator) { /* c ? a : b: both are read by the consumer */
            pc_clang_cursors ch = {0};
            pc_clang_children(c, &ch);
            for (size_t i = 1; i < ch.count; i++)
                operand_reads(cx, ch.items[i], PC_UNIT_NONE, NULL, 0);
            PC_VEC_FREE(ch);
        }
        return tres_none();
    }
    if (!strcmp(name, "operator=")) { /* (t = x) used as a value */
        pc_clang_tensor_stmt(cx, c);
        return tres_none();
    }
    if (resolved && pc_clang_inlinable(cx, decl) &&
        (clang_getCursorKind(decl) == CXCursor_FunctionDecl || clang_getCursorKind(decl) == CXCursor_FunctionTemplate ||
         clang_getCursorKind(decl) == CXCursor_CXXMethod)) {
        pc_ctarget t = helper_target(PC_CTGT_RESULT);
        if (pc_clang_inline_call(cx, c, &t))
            return t.done ? t.result : tres_none();
    }
    return op_call(cx, c, name, decl, resolved);
}

/* ---- statements ------------------------------------------------------------------------------------- */

static void fill_shape(pc_cx *cx, int t, pc_ctres r)
{
    pc_tensor *pt = &cx->m->kernels[cx->kernel].tensors[t];
    if (pt->ndims < 0 && r.ndims >= 0) {
        pt->ndims = r.ndims;
        pt->shape = r.shape;
    }
    if (pt->dtype == PC_DT_UNKNOWN)
        pt->dtype = r.dtype;
}

/* t = e on an existing tensor: a whole write; the value of e lives in t (docs/model.md 4). */
static void assign_tensor(pc_cx *cx, CXCursor lhs, CXCursor rhs)
{
    int t = resolve_lvalue(cx, lhs);
    if (t < 0)
        return;
    pc_ctarget tg = helper_target(PC_CTGT_ASSIGN);
    tg.tensor = t;
    if (inline_helper_call(cx, pc_clang_strip(rhs), &tg)) {
        if (tg.done)
            fill_shape(cx, t, tg.result);
        return;
    }
    pc_ctres r = pc_clang_tensor_expr(cx, rhs);
    if (r.kind == PC_TR_NAMED)
        pc_clang_access(cx, r.tensor, PC_ACC_READ, PC_UNIT_NONE, r.loc);
    pc_clang_access(cx, t, PC_ACC_WRITE_WHOLE, r.kind == PC_TR_ANON ? r.unit : PC_UNIT_NONE, pc_clang_cursor_loc(cx, lhs));
    /* Tensor::operator= points t at the value's storage (upstream's AssignStorage): what this root
     * writes has the value's shape, whatever t was declared with */
    const pc_tensor *T = &cx->m->kernels[cx->kernel].tensors[t];
    if (r.kind == PC_TR_ANON && r.ndims >= 0 && T->shape && T->ndims >= 0 && pc_clang_naccesses(cx) > 0) {
        bool same = r.ndims == T->ndims;
        for (int d = 0; same && d < r.ndims; d++)
            same = pc_expr_equal(r.shape[d], T->shape[d]);
        if (!same)
            pc_access_set_region(cx->m, pc_clang_access_at(cx, pc_clang_naccesses(cx) - 1), r.shape, r.ndims);
    }
    fill_shape(cx, t, r);
}

bool pc_clang_tensor_stmt(pc_cx *cx, CXCursor e)
{
    if (cx->kernel < 0)
        return false;
    CXCursor c = pc_clang_strip(e);
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor decl;
    bool resolved;
    const char *name = pc_clang_call_name(cx, c, &decl, &resolved);
    CXCursor lhs = clang_getNullCursor(), rhs = clang_getNullCursor();
    if (name && !strcmp(name, "operator=") && pc_clang_call_nargs(c) == 2) {
        lhs = pc_clang_call_arg(c, 0);
        rhs = pc_clang_call_arg(c, 1);
    } else if (k == CXCursor_BinaryOperator) {
        pc_clang_cursors ch = {0};
        pc_clang_children(c, &ch);
        const char *op = pc_clang_operator_spelling(cx, c);
        if (ch.count == 2 && op && !strcmp(op, "=")) {
            lhs = ch.items[0];
            rhs = ch.items[1];
        }
        PC_VEC_FREE(ch);
    }
    if (!clang_Cursor_isNull(lhs)) {
        if (pc_clang_is_tensor_type(clang_getCursorType(lhs))) {
            assign_tensor(cx, lhs, rhs);
            return true;
        }
        /* std::tie(a, b) = TopK(...) */
        CXCursor lc = pc_clang_strip(lhs);
        const char *ln = pc_clang_call_name(cx, lc, NULL, NULL);
        if (ln && !strcmp(ln, "tie")) {
            pc_ctres r = pc_clang_tensor_expr(cx, rhs);
            int n = pc_clang_call_nargs(lc);
            for (int i = 0; i < n; i++) {
                CXCursor a = pc_clang_call_arg(lc, i);
                if (pc_clang_is_tensor_type(clang_getCursorType(a)))
                    write_arg(cx, lc, i, PC_ACC_WRITE_WHOLE, r.kind == PC_TR_ANON ? r.unit : PC_UNIT_NONE);
            }
            return true;
        }
        return false;
    }
    if (!name)
        return false;
    int before = 0;
    if (cx->cur_stmt >= 0)
        before = cx->m->kernels[cx->kernel].stmts[cx->cur_stmt].naccesses;
    int nstmts = cx->m->kernels[cx->kernel].nstmts;
    pc_ctres r = pc_clang_tensor_expr(cx, c);
    int after = cx->cur_stmt >= 0 ? cx->m->kernels[cx->kernel].stmts[cx->cur_stmt].naccesses : 0;
    return r.kind != PC_TR_NONE || after > before || cx->m->kernels[cx->kernel].nstmts > nstmts;
}

void pc_clang_tensor_decl(pc_cx *cx, CXCursor v)
{
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    const char *name = pc_clang_spelling(cx, v);
    uint32_t off;
    pc_loc loc;
    CXFile f;
    unsigned o;
    clang_getExpansionLocation(clang_getCursorLocation(v), &f, NULL, NULL, &o);
    off = o;
    if (f && clang_File_isEqual(f, cx->main_file))
        loc = pc_clang_loc_range(cx, off, off + (uint32_t)strlen(name));
    else
        loc = pc_clang_cursor_loc(cx, v);
    cx->cur_stmt = -1;
    int e = pc_clang_env_push(cx, PC_CENV_TENSOR, name, &v);
    pc_chost info = no_ctor_info();
    int tid = -1;
    if (pc_clang_tensor_ctor(cx, v, &info)) {
        tid = pc_kernel_add_tensor(cx->m, k, name, PC_TENSOR_CREATED, loc);
        take_ctor_info(cx, &k->tensors[tid], &info);
    } else {
        CXCursor init = pc_clang_decl_init(v);
        pc_ctres r = tres_none();
        if (!clang_Cursor_isNull(init)) {
            pc_ctarget tg = helper_target(PC_CTGT_DECL);
            tg.env = e;
            tg.loc = loc;
            if (inline_helper_call(cx, pc_clang_strip(init), &tg)) {
                pc_cenv *en = &cx->env.items[e];
                if (!(tg.done && en->tensor >= 0 && en->kernel == cx->kernel)) {
                    int id = pc_kernel_add_tensor(cx->m, &cx->m->kernels[cx->kernel], name, PC_TENSOR_CREATED, loc);
                    cx->m->kernels[cx->kernel].tensors[id].scope_loop = cx->cur_loop;
                    en = &cx->env.items[e];
                    en->kernel = cx->kernel;
                    en->tensor = id;
                }
                cx->cur_stmt = -1;
                return;
            }
            r = pc_clang_tensor_expr(cx, init);
        }
        k = &cx->m->kernels[cx->kernel];
        if (r.kind == PC_TR_NAMED) {
            tid = pc_kernel_add_tensor(cx->m, k, name, PC_TENSOR_VIEW, loc);
            pc_tensor *t = &k->tensors[tid];
            t->base = r.tensor;
            t->dtype = r.dtype;
            t->ndims = r.ndims;
            t->shape = r.shape;
        } else if (r.kind == PC_TR_ANON) {
            tid = pc_kernel_add_tensor(cx->m, k, name, PC_TENSOR_VALUE, loc);
            pc_tensor *t = &k->tensors[tid];
            t->dtype = r.dtype;
            t->ndims = r.ndims;
            t->shape = r.shape;
            pc_clang_access(cx, tid, PC_ACC_DEFINE, r.unit, loc);
        } else {
            tid = pc_kernel_add_tensor(cx->m, k, name, PC_TENSOR_CREATED, loc);
        }
    }
    if (cx->cur_stmt < 0)
        cx->cur_stmt = pc_clang_new_stmt(cx, PC_STMT_OP, cx->stmt_loc);
    pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[tid];
    t->scope_loop = cx->cur_loop;
    t->def_stmt = cx->cur_stmt;
    pc_cenv *en = &cx->env.items[e];
    en->kernel = cx->kernel;
    en->tensor = tid;
    cx->cur_stmt = -1;
}

/* ---- tensor declarations -------------------------------------------------------------------------- */

/* The Tensor constructor call an initialiser is (through temporaries and functional casts:
 * `Tensor t(...)`, `Tensor t{...}`, `= Tensor(...)`), or a null cursor. */
static CXCursor tensor_construction(pc_cx *cx, CXCursor init)
{
    pc_clang_cursors ch = {0};
    for (int guard = 0; guard < 8 && !clang_Cursor_isNull(init); guard++) {
        enum CXCursorKind k = clang_getCursorKind(init);
        if (k == CXCursor_CallExpr) {
            CXCursor ref = clang_getCursorReferenced(init);
            bool tensor = clang_getCursorKind(ref) == CXCursor_Constructor &&
                          !strcmp(pc_clang_spelling(cx, clang_getCursorSemanticParent(ref)), "Tensor");
            PC_VEC_FREE(ch);
            return tensor ? init : clang_getNullCursor();
        }
        if (k != CXCursor_UnexposedExpr && k != CXCursor_CXXFunctionalCastExpr)
            break;
        pc_clang_children(init, &ch);
        init = ch.count ? ch.items[ch.count - 1] : clang_getNullCursor();
    }
    PC_VEC_FREE(ch);
    return clang_getNullCursor();
}

bool pc_clang_tensor_ctor(pc_cx *cx, CXCursor v, pc_chost *out)
{
    out->kind = PC_TENSOR_CREATED;
    CXCursor init = pc_clang_decl_init(v);
    if (clang_Cursor_isNull(init))
        return !clang_isInvalidDeclaration(v); /* `Tensor t;`: an empty handle, written later */
    CXCursor c = tensor_construction(cx, init);
    if (clang_Cursor_isNull(c))
        return false;
    int na = pc_clang_written_nargs(c);
    if (na == 0)
        return true;
    /* Tensor(dtype, shape[, name, ...]); one argument is a copy (`Tensor t(other)`) */
    CXCursor dt = clang_Cursor_getArgument(c, 0);
    if (na < 2 || !strstr(pc_clang_type_name(cx, clang_getCursorType(dt)), "DataType"))
        return false;
    out->dtype = pc_clang_value_dtype(cx, dt);
    if (!pc_clang_value_list_written(cx, clang_Cursor_getArgument(c, 1), &out->shape, &out->ndims)) {
        out->shape = NULL;
        out->ndims = -1;
    }
    if (na >= 3)
        out->name = pc_clang_value_string(cx, clang_Cursor_getArgument(c, 2));
    return true;
}
