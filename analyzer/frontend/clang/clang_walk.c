/* clang_walk.c - the recogniser: host code, FUNCTION kernels, LOOP / IF / UNROLL statements,
 * runtime options, and the regions that could not be modelled.
 *
 * Host code (outside FUNCTION bodies) is walked for what kernels see of it: integer constants
 * (flow-sensitively: `int sq = 32; ... sq = 18;`), shape vectors, dtype and string variables,
 * Tensor declarations (a FUNCTION's parameters are usually declared just before it), and
 * `config::SetRuntimeOption` calls.  Each FUNCTION not nested in another is one kernel; its body is
 * walked in kernel mode, which builds statements, loops, branches and accesses.
 *
 * LOOP / FUNCTION / IF / UNROLL are recognised by the range (or condition) type of the statement
 * their macro expands to - npu::tile_fwk::RecordLoopFunc / RecordFunc / RecordIfBranch with the
 * real headers, the npu::tile_fwk::pc_stub markers with the stub - and located by expansion
 * location (clang_Location_isFromMainFile looks at the spelling location, which for macro-made
 * statements is the header: pypto-api.md 4.5).  Their arguments are read from the source tokens
 * between the statement's expansion start and its body. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"
#include "clang_tiles.h"

#include <string.h>

/* ---- locations ------------------------------------------------------------------------------ */

static bool main_offset(pc_cx *cx, CXSourceLocation l, uint32_t *off)
{
    CXFile f;
    unsigned o;
    clang_getExpansionLocation(l, &f, NULL, NULL, &o);
    if (!f || !clang_File_isEqual(f, cx->main_file))
        return false;
    *off = o;
    return true;
}

bool pc_clang_offsets(pc_cx *cx, CXCursor c, uint32_t *begin, uint32_t *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    if (!main_offset(cx, clang_getRangeStart(r), begin))
        return false;
    if (!main_offset(cx, clang_getRangeEnd(r), end) || *end < *begin)
        *end = *begin;
    return true;
}

static void line_col(pc_cx *cx, uint32_t off, uint32_t *line, uint32_t *col)
{
    int lo = 0, hi = cx->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (cx->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = (uint32_t)lo + 1;
    *col = off - cx->line_start[lo] + 1;
}

pc_loc pc_clang_loc_range(pc_cx *cx, uint32_t begin, uint32_t end)
{
    uint32_t l1, c1, l2, c2;
    line_col(cx, begin, &l1, &c1);
    line_col(cx, end, &l2, &c2);
    return pc_model_loc(cx->m, cx->src_name ? cx->src_name : cx->m->file, l1, c1, l2, c2);
}

pc_loc pc_clang_cursor_loc(pc_cx *cx, CXCursor c)
{
    uint32_t b, e;
    if (pc_clang_offsets(cx, c, &b, &e))
        return pc_clang_loc_range(cx, b, e);
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
    CXString name = clang_getFileName(f);
    const char *fn = clang_getCString(name);
    pc_loc l = pc_model_loc(cx->m, fn ? fn : cx->m->file, line, col, 0, 0);
    clang_disposeString(name);
    return l;
}

/* The location of a declaration's name (its cursor location), one token long. */
static pc_loc name_loc(pc_cx *cx, CXCursor decl, const char *name)
{
    uint32_t off;
    if (main_offset(cx, clang_getCursorLocation(decl), &off))
        return pc_clang_loc_range(cx, off, off + (uint32_t)strlen(name));
    return pc_clang_cursor_loc(cx, decl);
}

bool pc_clang_cursor_tokens(pc_cx *cx, CXCursor c, pc_ctoks *out)
{
    uint32_t b, e;
    out->count = 0;
    if (!pc_clang_offsets(cx, c, &b, &e) || e <= b)
        return false;
    pc_clang_lex(cx->src, b, e, out);
    return true;
}

/* A cursor's spelling as a scratch-arena string ("" when it has none). */
const char *pc_clang_spelling(pc_cx *cx, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *r = pc_arena_strdup(cx->scratch, clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

/* ---- children ------------------------------------------------------------------------------- */

typedef PC_VEC(CXCursor) cursors;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cursors *v = d;
    PC_VEC_PUSH(*v, c);
    return CXChildVisit_Continue;
}

static void children(CXCursor c, cursors *out)
{
    out->count = 0;
    clang_visitChildren(c, collect, out);
}

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

static int make_tensor(pc_cx *cx, const char *variable, pc_tensor_kind kind, pc_loc loc, const pc_chost *info)
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
    int id = make_tensor(cx, e->name, base >= 0 ? PC_TENSOR_VIEW : PC_TENSOR_CREATED, info.loc, &info);
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

/* ---- diagnostics ---------------------------------------------------------------------------- */

const char *pc_clang_claim_errors(pc_cx *cx, uint32_t begin, uint32_t end)
{
    const char *first = NULL;
    if (!cx->in_main) /* the errors recorded are the main file's; their offsets mean nothing here */
        return NULL;
    for (int i = 0; i < cx->ndiags; i++) {
        pc_cdiag *d = &cx->diags[i];
        if (!d->claimed && d->off >= begin && d->off < end) {
            d->claimed = true;
            if (!first)
                first = d->text;
        }
    }
    return first;
}

/* ---- statements ------------------------------------------------------------------------------ */

static pc_block *block_of(pc_cx *cx, pc_cblock b)
{
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    switch (b.kind) {
    case PC_CBLK_LOOP: return &k->loops[b.index].body;
    case PC_CBLK_BRANCH: return &k->stmts[b.index].branches[b.sub].body;
    case PC_CBLK_UNROLL: return &k->stmts[b.index].unroll_body;
    default: return &k->body;
    }
}

int pc_clang_new_stmt(pc_cx *cx, pc_stmt_kind kind, pc_loc loc)
{
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    int id = pc_kernel_add_stmt(cx->m, k, kind, loc);
    k->stmts[id].has_op = false;
    pc_clang_tiles_inherit(cx, id);
    pc_block_append(cx->m, block_of(cx, cx->block), id);
    return id;
}

void pc_clang_access(pc_cx *cx, int tensor, pc_access_kind kind, pc_unit unit, pc_loc loc)
{
    if (cx->kernel < 0 || tensor < 0)
        return;
    if (cx->cur_stmt < 0)
        cx->cur_stmt = pc_clang_new_stmt(cx, PC_STMT_OP, cx->stmt_loc);
    pc_stmt *s = &cx->m->kernels[cx->kernel].stmts[cx->cur_stmt];
    pc_stmt_add_access(cx->m, s, tensor, kind, unit, loc);
    if (!cx->header_reads)
        s->has_op = true;
}

static int unanalysed(pc_cx *cx, pc_loc loc, const char *message)
{
    int id = pc_clang_new_stmt(cx, PC_STMT_UNANALYSED, loc);
    cx->m->kernels[cx->kernel].stmts[id].message = pc_model_strdup(cx->m, message);
    return id;
}

static int loc_cmp(pc_loc a, pc_loc b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    return a.col < b.col ? -1 : a.col > b.col;
}

/* Insert statement `id` (already created, appended to the block) at its source position. */
static void block_sort_last(pc_cx *cx, pc_cblock b)
{
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    pc_block *blk = block_of(cx, b);
    for (int i = blk->count - 1; i > 0; i--) {
        int cur = blk->stmts[i], prev = blk->stmts[i - 1];
        if (loc_cmp(k->stmts[prev].loc, k->stmts[cur].loc) <= 0)
            break;
        blk->stmts[i] = prev;
        blk->stmts[i - 1] = cur;
    }
}

/* ---- recognising the macro-made statements ------------------------------------------------- */

typedef enum marker { MK_NONE, MK_LOOP, MK_FUNCTION, MK_PROGRAM, MK_IF, MK_UNROLL } marker;

static marker marker_of_type(pc_cx *cx, CXType t)
{
    const char *n = pc_clang_type_name(cx, t);
    if (!strcmp(n, "npu::tile_fwk::RecordLoopFunc") || !strcmp(n, "npu::tile_fwk::pc_stub::LoopMarker"))
        return MK_LOOP;
    if (!strcmp(n, "npu::tile_fwk::RecordFunc") || !strcmp(n, "npu::tile_fwk::pc_stub::FunctionMarker"))
        return MK_FUNCTION;
    if (!strcmp(n, "npu::tile_fwk::RecordProgram") || !strcmp(n, "npu::tile_fwk::pc_stub::ProgramMarker"))
        return MK_PROGRAM;
    if (!strcmp(n, "npu::tile_fwk::RecordIfBranch") || !strcmp(n, "npu::tile_fwk::pc_stub::IfMarker"))
        return MK_IF;
    if (!strcmp(n, "npu::tile_fwk::pc_stub::UnrollMarker"))
        return MK_UNROLL;
    return MK_NONE;
}

/* A for-range statement: [loop variable, range initialiser, body]. */
static marker for_range_marker(pc_cx *cx, CXCursor s, CXCursor *body)
{
    cursors ch = {0};
    children(s, &ch);
    marker mk = MK_NONE;
    if (ch.count >= 2) {
        *body = ch.items[ch.count - 1];
        for (size_t i = 0; i + 1 < ch.count && mk == MK_NONE; i++)
            if (clang_isExpression(clang_getCursorKind(ch.items[i])))
                mk = marker_of_type(cx, clang_getCursorType(ch.items[i]));
    }
    PC_VEC_FREE(ch);
    return mk;
}

/* Search an if-condition a few levels deep for RecordIfBranch / the IF or UNROLL markers, or a
 * call to RecordLoopFunc::MatchUnrollTimes (real-header UNROLL). */
static marker cond_marker(pc_cx *cx, CXCursor c, int depth)
{
    marker mk = marker_of_type(cx, clang_getCursorType(c));
    if (mk == MK_IF || mk == MK_UNROLL)
        return mk;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        const char *n = pc_clang_spelling(cx, c);
        if (!strcmp(n, "MatchUnrollTimes"))
            return MK_UNROLL;
    }
    if (depth <= 0)
        return MK_NONE;
    cursors ch = {0};
    children(c, &ch);
    for (size_t i = 0; i < ch.count && mk == MK_NONE; i++) {
        marker m2 = cond_marker(cx, ch.items[i], depth - 1);
        if (m2 == MK_IF || m2 == MK_UNROLL)
            mk = m2;
    }
    PC_VEC_FREE(ch);
    return mk == MK_IF || mk == MK_UNROLL ? mk : MK_NONE;
}

/* An if statement's parts: condition, then, else (missing parts are null cursors). */
static void if_parts(CXCursor s, CXCursor *cond, CXCursor *then_s, CXCursor *else_s)
{
    cursors ch = {0};
    children(s, &ch);
    *cond = *then_s = *else_s = clang_getNullCursor();
    size_t i = 0;
    /* skip an init statement / condition variable, take the first expression as the condition */
    while (i < ch.count && !clang_isExpression(clang_getCursorKind(ch.items[i])))
        i++;
    if (i < ch.count)
        *cond = ch.items[i++];
    if (i < ch.count)
        *then_s = ch.items[i++];
    if (i < ch.count)
        *else_s = ch.items[i++];
    PC_VEC_FREE(ch);
}

/* The header tokens of a macro-made statement: from its expansion start to its body. */
static bool header_tokens(pc_cx *cx, CXCursor s, CXCursor body, pc_ctoks *out, uint32_t *begin, uint32_t *body_off)
{
    uint32_t b, e, bb, be;
    out->count = 0;
    if (!pc_clang_offsets(cx, s, &b, &e) || !pc_clang_offsets(cx, body, &bb, &be) || bb < b)
        return false;
    pc_clang_lex(cx->src, b, bb, out);
    *begin = b;
    *body_off = bb;
    return out->count > 0;
}

/* `NAME ( args )` at the start of toks: the argument slice [*a0, *a1) and the index after ')'. */
static bool macro_args(const pc_ctoks *toks, const char *name, int *a0, int *a1, int *after)
{
    if (toks->count < 3 || toks->items[0].kind != PC_CTOK_IDENT || !pc_ctok_is(&toks->items[1], "("))
        return false;
    if (name && !pc_ctok_is(&toks->items[0], name))
        return false;
    int close = pc_clang_match(toks->items, (int)toks->count, 1);
    if (close >= (int)toks->count)
        return false;
    *a0 = 2;
    *a1 = close;
    *after = close + 1;
    return true;
}

/* ---- scalar declarations and assignments ------------------------------------------------------- */

typedef enum vclass { VC_OTHER, VC_INT, VC_LIST, VC_STRING, VC_DTYPE, VC_TENSOR, VC_RANGE } vclass;

static vclass classify_type(pc_cx *cx, CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_LValueReference || c.kind == CXType_RValueReference)
        c = clang_getCanonicalType(clang_getPointeeType(c));
    switch (c.kind) {
    case CXType_Bool: case CXType_Char_S: case CXType_Char_U: case CXType_SChar: case CXType_UChar:
    case CXType_Short: case CXType_UShort: case CXType_Int: case CXType_UInt: case CXType_Long:
    case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
        return VC_INT;
    case CXType_Pointer: {
        CXType p = clang_getCanonicalType(clang_getPointeeType(c));
        return p.kind == CXType_Char_S || p.kind == CXType_Char_U ? VC_STRING : VC_OTHER;
    }
    default: break;
    }
    const char *n = pc_clang_type_name(cx, c);
    if (!strcmp(n, "npu::tile_fwk::Tensor"))
        return VC_TENSOR;
    if (!strcmp(n, "npu::tile_fwk::SymbolicScalar"))
        return VC_INT;
    if (!strcmp(n, "npu::tile_fwk::DataType"))
        return VC_DTYPE;
    if (!strcmp(n, "npu::tile_fwk::LoopRange"))
        return VC_RANGE;
    if (!strncmp(n, "std::vector<", 12) || !strncmp(n, "std::array<", 11) || !strncmp(n, "std::set<", 9) ||
        !strncmp(n, "std::initializer_list<", 22)) {
        if (strstr(n, "Tensor") || strstr(n, "vector<std::"))
            return VC_OTHER;
        return VC_LIST;
    }
    if (!strcmp(n, "std::string") || strstr(n, "basic_string<char"))
        return VC_STRING;
    return VC_OTHER;
}

/* The initialiser tokens of a declaration: after `name =`, inside `name(...)` / `name{...}`. */
static bool init_tokens(pc_cx *cx, CXCursor v, pc_ctoks *toks, int *i0, int *i1)
{
    uint32_t name_off, b, e;
    if (!main_offset(cx, clang_getCursorLocation(v), &name_off) || !pc_clang_offsets(cx, v, &b, &e) || e <= name_off)
        return false;
    toks->count = 0;
    pc_clang_lex(cx->src, name_off, e, toks);
    int n = (int)toks->count;
    if (n < 2)
        return false;
    int k = 1;
    if (pc_ctok_is(&toks->items[k], "[")) /* array declarator: not ours */
        return false;
    if (pc_ctok_is(&toks->items[k], "=")) {
        *i0 = k + 1;
        *i1 = n;
        return *i1 > *i0;
    }
    if (pc_ctok_is(&toks->items[k], "(") || pc_ctok_is(&toks->items[k], "{")) {
        int close = pc_clang_match(toks->items, n, k);
        if (close >= n)
            return false;
        if (pc_ctok_is(&toks->items[k], "{")) { /* v{...}: the braces are the value */
            *i0 = k;
            *i1 = close + 1;
        } else {
            *i0 = k + 1;
            *i1 = close;
        }
        return true;
    }
    return false;
}

/* Does a symbolic expression contain a symbol poolcheck made from unevaluable text (a call)? */
static bool has_opaque(const pc_expr *e)
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

static void record_constant(pc_cx *cx, const char *name, const pc_expr *e)
{
    int64_t v;
    if (cx->kernel >= 0 && e && pc_expr_is_int(e, &v))
        pc_kernel_add_constant(cx->m, &cx->m->kernels[cx->kernel], name, v);
}

/* The initialiser expression of a variable declaration (its last expression child). */
static CXCursor decl_init(CXCursor v)
{
    cursors ch = {0};
    children(v, &ch);
    CXCursor r = clang_getNullCursor();
    for (size_t i = ch.count; i-- > 0;)
        if (clang_isExpression(clang_getCursorKind(ch.items[i]))) {
            r = ch.items[i];
            break;
        }
    PC_VEC_FREE(ch);
    return r;
}

static void scalar_decl(pc_cx *cx, CXCursor v, vclass vc, const char *name)
{
    pc_arena *a = pc_model_arena(cx->m);
    pc_ctoks toks = {0};
    int i0 = 0, i1 = 0;
    bool has_init = init_tokens(cx, v, &toks, &i0, &i1);
    const pc_ctok *it = toks.items + i0;
    int n = i1 - i0;
    switch (vc) {
    case VC_INT: {
        const pc_expr *e = NULL;
        CXType t = clang_getCursorType(v);
        if (clang_isConstQualifiedType(t) || clang_isConstQualifiedType(clang_getCanonicalType(t))) {
            CXEvalResult r = clang_isInvalidDeclaration(v) ? NULL : clang_Cursor_Evaluate(v);
            if (r) {
                if (clang_EvalResult_getKind(r) == CXEval_Int)
                    e = pc_expr_int(a, clang_EvalResult_getAsLongLong(r));
                clang_EvalResult_dispose(r);
            }
        }
        if (!e && !clang_isInvalidDeclaration(v)) {
            CXCursor init = decl_init(v);
            if (!clang_Cursor_isNull(init))
                e = pc_clang_value_int(cx, init);
        }
        if (!e && has_init)
            e = pc_clang_int_expr(cx, it, n);
        if (!e || has_opaque(e))
            e = pc_expr_sym(a, name);
        int id = pc_clang_env_push(cx, PC_CENV_EXPR, name, &v);
        cx->env.items[id].expr = e;
        record_constant(cx, name, e);
        break;
    }
    case VC_LIST:
    case VC_RANGE: {
        const pc_expr **dims = NULL;
        int nd = -1;
        if (has_init && vc == VC_RANGE) {
            /* LoopRange r(e) / (b, e) / (b, e, s); also = LoopRange(...) and {b, e, s} */
            int st[3], en[3];
            const pc_ctok *rt = it;
            int rn = n;
            if (rn >= 3 && pc_ctok_is(&rt[0], "LoopRange") && pc_clang_match(rt, rn, 1) == rn - 1) {
                rt += 2;
                rn -= 3;
            } else if (rn >= 2 && pc_ctok_is(&rt[0], "{") && pc_clang_match(rt, rn, 0) == rn - 1) {
                rt += 1;
                rn -= 2;
            }
            int na = pc_clang_split_args(rt, rn, st, en, 3);
            if (na >= 1) {
                dims = pc_arena_alloc(a, sizeof *dims * 3);
                dims[0] = na >= 2 ? pc_clang_int_expr(cx, rt + st[0], en[0] - st[0]) : pc_expr_int(a, 0);
                dims[1] = pc_clang_int_expr(cx, rt + st[na >= 2 ? 1 : 0], en[na >= 2 ? 1 : 0] - st[na >= 2 ? 1 : 0]);
                dims[2] = na == 3 ? pc_clang_int_expr(cx, rt + st[2], en[2] - st[2]) : pc_expr_int(a, 1);
                nd = 3;
            }
        } else if (has_init && !pc_clang_shape_list(cx, it, n, &dims, &nd)) {
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
    case VC_STRING: {
        const char *s = has_init ? pc_clang_string_arg(cx, it, n) : NULL;
        if (s) {
            int id = pc_clang_env_push(cx, PC_CENV_STRING, name, &v);
            cx->env.items[id].str = s;
        }
        break;
    }
    case VC_DTYPE: {
        int id = pc_clang_env_push(cx, PC_CENV_DTYPE, name, &v);
        cx->env.items[id].dtype = has_init ? pc_clang_dtype(cx, it, n) : PC_DT_UNKNOWN;
        break;
    }
    default:
        break;
    }
    PC_VEC_FREE(toks);
}

static bool is_assign_op(const pc_ctok *t)
{
    static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", NULL};
    for (int i = 0; ops[i]; i++)
        if (pc_ctok_is(t, ops[i]))
            return true;
    return false;
}

/* `x = e;`, `x += e;`, `++x;` on an integer / SymbolicScalar variable.  A plain assignment in
 * straight-line code gives x a new value; anything conditional, repeated or compound makes it a
 * symbol (poolcheck does not guess values). */
static bool scalar_assign(pc_cx *cx, CXCursor c)
{
    /* from the AST: `x = e` / `x += e` / `++x` on an integer or SymbolicScalar variable, the
     * variable found by its declaration */
    CXCursor op = pc_clang_strip(c);
    enum CXCursorKind ok = clang_getCursorKind(op);
    if (ok == CXCursor_BinaryOperator || ok == CXCursor_CompoundAssignOperator || ok == CXCursor_UnaryOperator ||
        ok == CXCursor_CallExpr) {
        cursors ch = {0};
        children(op, &ch);
        const char *spelled = ok == CXCursor_CallExpr ? pc_clang_spelling(cx, op) : pc_clang_operator_spelling(cx, op);
        if (spelled && ok == CXCursor_CallExpr) /* an overloaded SymbolicScalar operator= / operator+= */
            spelled = !strncmp(spelled, "operator", 8) ? spelled + 8 : NULL;
        bool assign = spelled && (!strcmp(spelled, "=") || (strlen(spelled) >= 2 && spelled[strlen(spelled) - 1] == '=' &&
                                                            strcmp(spelled, "==") && strcmp(spelled, "!=") &&
                                                            strcmp(spelled, "<=") && strcmp(spelled, ">=")));
        bool incdec = spelled && (!strcmp(spelled, "++") || !strcmp(spelled, "--"));
        /* operands: an overloaded operator call has its callee between them */
        CXCursor lhs = ok == CXCursor_CallExpr ? clang_Cursor_getArgument(op, 0)
                                               : ch.count ? ch.items[0] : clang_getNullCursor();
        CXCursor rhs = ok == CXCursor_CallExpr ? clang_Cursor_getArgument(op, 1)
                                               : ch.count == 2 ? ch.items[1] : clang_getNullCursor();
        if (!clang_Cursor_isNull(lhs))
            lhs = pc_clang_strip(lhs);
        int e = -1;
        if ((assign || incdec) && !clang_Cursor_isNull(lhs) && clang_getCursorKind(lhs) == CXCursor_DeclRefExpr)
            e = pc_clang_env_of_decl(cx, clang_getCursorReferenced(lhs));
        if (e >= 0 && cx->env.items[e].kind == PC_CENV_EXPR) {
            bool straight = !cx->in_host_loop && cx->cur_loop < 0;
            const pc_expr *v = NULL;
            if (assign && !strcmp(spelled, "=") && straight && !clang_Cursor_isNull(rhs))
                v = pc_clang_value_int(cx, rhs);
            cx->env.items[e].expr = v ? v : pc_expr_sym(pc_model_arena(cx->m), cx->env.items[e].name);
            if (!v)
                forget_constant(cx, cx->env.items[e].name);
            PC_VEC_FREE(ch);
            return true;
        }
        PC_VEC_FREE(ch);
    }
    pc_ctoks toks = {0};
    bool done = false;
    if (pc_clang_cursor_tokens(cx, c, &toks) && toks.count >= 2) {
        const pc_ctok *t = toks.items;
        int n = (int)toks.count, ni = -1;
        bool plain = false;
        if (t[0].kind == PC_CTOK_IDENT && is_assign_op(&t[1])) {
            ni = 0;
            plain = pc_ctok_is(&t[1], "=");
        } else if (t[0].kind == PC_CTOK_IDENT && n == 2 && (pc_ctok_is(&t[1], "++") || pc_ctok_is(&t[1], "--"))) {
            ni = 0;
        } else if ((pc_ctok_is(&t[0], "++") || pc_ctok_is(&t[0], "--")) && t[1].kind == PC_CTOK_IDENT && n == 2) {
            ni = 1;
        }
        if (ni >= 0) {
            const char *name = pc_arena_strndup(cx->scratch, t[ni].text, t[ni].len);
            int e = pc_clang_env_find(cx, name, -1);
            if (e >= 0 && (cx->env.items[e].kind == PC_CENV_EXPR || cx->env.items[e].kind == PC_CENV_LIST ||
                           cx->env.items[e].kind == PC_CENV_STRING || cx->env.items[e].kind == PC_CENV_DTYPE)) {
                pc_arena *a = pc_model_arena(cx->m);
                pc_cenv *en = &cx->env.items[e];
                bool straight = !cx->in_host_loop && cx->cur_loop < 0;
                if (en->kind == PC_CENV_EXPR) {
                    const pc_expr *v = plain && straight ? pc_clang_int_expr(cx, t + 2, n - 2) : NULL;
                    cx->env.items[e].expr = v && !has_opaque(v) ? v : pc_expr_sym(a, name);
                    if (!v || has_opaque(v))
                        forget_constant(cx, name);
                } else if (en->kind == PC_CENV_LIST && plain && straight) {
                    const pc_expr **dims;
                    int nd;
                    if (pc_clang_shape_list(cx, t + 2, n - 2, &dims, &nd)) {
                        cx->env.items[e].list = dims;
                        cx->env.items[e].nlist = nd;
                    }
                } else if (en->kind == PC_CENV_DTYPE && plain) {
                    cx->env.items[e].dtype = straight ? pc_clang_dtype(cx, t + 2, n - 2) : PC_DT_UNKNOWN;
                } else if (en->kind == PC_CENV_STRING && plain && straight) {
                    const char *s = pc_clang_string_arg(cx, t + 2, n - 2);
                    if (s)
                        cx->env.items[e].str = s;
                }
                done = true;
            }
        }
    }
    PC_VEC_FREE(toks);
    return done;
}

/* ---- runtime options ---------------------------------------------------------------------------- */

/* The SetRuntimeOption call inside an expression statement (clang resolved it). */
static enum CXChildVisitResult find_option_call(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 2) {
        CXString s = clang_getCursorSpelling(c);
        bool hit = !strcmp(clang_getCString(s), "SetRuntimeOption");
        clang_disposeString(s);
        if (hit) {
            *(CXCursor *)d = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Record an option site; false when the same call was recorded already (a helper walked as host
 * code and inlined into a kernel: keep one, the kernel's view wins). */
static pc_option *option_record(pc_cx *cx, const char *key, pc_loc loc)
{
    for (int o = 0; o < cx->m->noptions; o++) {
        pc_option *op = &cx->m->options[o];
        if (op->site == PC_SITE_CPP_SET_RUNTIME_OPTION && op->loc.line == loc.line && op->loc.col == loc.col) {
            if (cx->kernel >= 0) {
                op->kernel = cx->kernel;
                op->in_kernel = true;
            }
            return NULL;
        }
    }
    int id = pc_model_add_option(cx->m, key, PC_SITE_CPP_SET_RUNTIME_OPTION, loc);
    pc_option *o = &cx->m->options[id];
    o->kernel = cx->kernel;
    o->in_kernel = cx->kernel >= 0;
    return o;
}

/* A key written as a constant whose value poolcheck cannot read (STITCH_FUNCTION_MAX_NUM from an
 * unknown header): upstream spells each key as its constant's lower-case name. */
static const char *key_from_constant(pc_cx *cx, const char *spelled)
{
    const char *last = strrchr(spelled, ':');
    char *lower = pc_arena_strdup(cx->scratch, last ? last + 1 : spelled);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return lower;
}

static void option_site(pc_cx *cx, CXCursor c)
{
    /* from the AST: config::SetRuntimeOption<T>(key, value) as clang resolved it */
    CXCursor call = clang_getNullCursor();
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        find_option_call(c, c, &call);
    if (clang_Cursor_isNull(call))
        clang_visitChildren(c, find_option_call, &call);
    if (!clang_Cursor_isNull(call)) {
        CXCursor karg = clang_Cursor_getArgument(call, 0);
        const char *key = pc_clang_value_string(cx, karg);
        if (!key)
            key = key_from_constant(cx, pc_clang_spelling(cx, pc_clang_strip(karg)));
        pc_option *o = option_record(cx, key, pc_clang_cursor_loc(cx, call));
        if (o)
            pc_clang_value_opt(cx, clang_Cursor_getArgument(call, 1), &o->value, 0);
        return;
    }
    /* clang rejected the call: read it back from its tokens */
    pc_ctoks toks = {0};
    if (!pc_clang_cursor_tokens(cx, c, &toks)) {
        PC_VEC_FREE(toks);
        return;
    }
    const pc_ctok *t = toks.items;
    int n = (int)toks.count, i = 0;
    while (i < n && !pc_ctok_is(&t[i], "SetRuntimeOption"))
        i++;
    if (i >= n) {
        PC_VEC_FREE(toks);
        return;
    }
    uint32_t call_begin = t[0].off;
    i++;
    if (i < n && pc_ctok_is(&t[i], "<")) /* SetRuntimeOption<std::vector<int64_t>>(...) */
        i = pc_clang_skip_template_args(t, n, i);
    if (i < 0) {
        PC_VEC_FREE(toks);
        return;
    }
    if (i >= n || !pc_ctok_is(&t[i], "(")) {
        PC_VEC_FREE(toks);
        return;
    }
    int close = pc_clang_match(t, n, i);
    int st[4], en[4];
    int na = close < n ? pc_clang_split_args(t + i + 1, close - i - 1, st, en, 4) : 0;
    pc_loc loc = pc_clang_loc_range(cx, call_begin, close < n ? t[close].off + 1 : t[n - 1].off + t[n - 1].len);
    if (na < 2) {
        PC_VEC_FREE(toks);
        return;
    }
    const pc_ctok *kt = t + i + 1 + st[0];
    int kn = en[0] - st[0];
    const char *key = pc_clang_string_arg(cx, kt, kn);
    if (!key && kn > 0)
        key = key_from_constant(cx, pc_arena_strndup(cx->scratch, kt[kn - 1].text, kt[kn - 1].len));
    pc_option *o = option_record(cx, key, loc);
    if (o)
        pc_clang_optval(cx, t + i + 1 + st[1], en[1] - st[1], &o->value);
    PC_VEC_FREE(toks);
}

static void kernel_block(pc_cx *cx, CXCursor body);
static bool mentions(pc_cx *cx, CXCursor c, const char *word);
static bool in_main_file(pc_cx *cx, CXCursor c);

/* ---- tensor declarations -------------------------------------------------------------------------- */

bool pc_clang_tensor_ctor(pc_cx *cx, CXCursor v, pc_chost *out)
{
    pc_ctoks toks = {0};
    int i0 = 0, i1 = 0;
    bool has_init = init_tokens(cx, v, &toks, &i0, &i1);
    bool ok = false;
    out->kind = PC_TENSOR_CREATED;
    if (!has_init) {
        /* `Tensor t;`: an empty handle, written later */
        uint32_t b, e, name_off;
        ok = pc_clang_offsets(cx, v, &b, &e) && main_offset(cx, clang_getCursorLocation(v), &name_off);
        if (ok) {
            toks.count = 0;
            pc_clang_lex(cx->src, name_off, e, &toks);
            ok = toks.count <= 1;
        }
        PC_VEC_FREE(toks);
        return ok;
    }
    const pc_ctok *t = toks.items + i0;
    int n = i1 - i0;
    /* `= Tensor(args)` / `= npu::tile_fwk::Tensor(args)` */
    if (i0 >= 1 && pc_ctok_is(&toks.items[i0 - 1], "=")) {
        int k = 0;
        while (k < n && (t[k].kind == PC_CTOK_IDENT || pc_ctok_is(&t[k], "::")) && !pc_ctok_is(&t[k], "Tensor"))
            k++;
        if (k + 1 < n && pc_ctok_is(&t[k], "Tensor") && (pc_ctok_is(&t[k + 1], "(") || pc_ctok_is(&t[k + 1], "{")) &&
            pc_clang_match(t, n, k + 1) == n - 1) {
            t += k + 2;
            n -= k + 3;
        } else {
            PC_VEC_FREE(toks);
            return false;
        }
    } else if (n >= 2 && pc_ctok_is(&t[0], "{") && pc_clang_match(t, n, 0) == n - 1) {
        t += 1; /* Tensor t{args} */
        n -= 2;
    }
    int st[6], en[6];
    int na = pc_clang_split_args(t, n, st, en, 6);
    if (na == 0) {
        ok = true;
    } else if (na >= 2) {
        pc_dtype dt = pc_clang_dtype(cx, t + st[0], en[0] - st[0]);
        bool dtype_like = dt != PC_DT_UNKNOWN;
        if (!dtype_like) { /* a DataType variable whose value is not known, or a GetDataType() call */
            const char *n0 = pc_clang_tok_spelling(cx, t + st[0], en[0] - st[0]);
            dtype_like = pc_clang_env_find(cx, n0, PC_CENV_DTYPE) >= 0 || strstr(n0, "GetDataType") ||
                         strstr(n0, "Datatype") || strstr(n0, "DataType");
        }
        if (dtype_like) {
            out->dtype = dt;
            if (!pc_clang_shape_list(cx, t + st[1], en[1] - st[1], &out->shape, &out->ndims)) {
                out->shape = NULL;
                out->ndims = -1;
            }
            if (na >= 3)
                out->name = pc_clang_string_arg(cx, t + st[2], en[2] - st[2]);
            ok = true;
        }
    }
    PC_VEC_FREE(toks);
    return ok;
}

/* ---- helper inlining ------------------------------------------------------------------------------ */

/* A function poolcheck can walk into: defined in the main file, or in a project header (not a
 * system header; not the PyPTO API itself, whose inline bodies are implementation). */
bool pc_clang_inlinable(pc_cx *cx, CXCursor decl)
{
    if (clang_Cursor_isNull(decl))
        return false;
    CXCursor def = clang_getCursorDefinition(decl);
    if (clang_Cursor_isNull(def))
        return false;
    CXSourceLocation l = clang_getCursorLocation(def);
    CXFile f;
    clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
    if (!f)
        return false;
    if (clang_File_isEqual(f, cx->main_file))
        return true;
    if (clang_Location_isInSystemHeader(l)) /* the stub header is one (#pragma clang system_header) */
        return false;
    /* declared in npu::tile_fwk: the API */
    for (CXCursor p = clang_getCursorSemanticParent(def);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        CXString n = clang_getCursorSpelling(p);
        bool api = clang_getCursorKind(p) == CXCursor_Namespace && !strcmp(clang_getCString(n), "tile_fwk");
        clang_disposeString(n);
        if (api)
            return false;
    }
    return true;
}

typedef struct binding {
    CXCursor parm;
    const char *name;
    vclass vc;
    int tensor;
    const pc_expr *expr;
    const pc_expr **list;
    int nlist;
    const char *str;
    pc_dtype dtype;
    bool bound;
} binding;

bool pc_clang_inline_call(pc_cx *cx, CXCursor call, pc_ctarget *target)
{
    if (cx->kernel < 0)
        return false;
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref))
        return false;
    if (!pc_clang_inlinable(cx, ref))
        return false;
    CXCursor def = clang_getCursorDefinition(ref);
    enum CXCursorKind dk = clang_getCursorKind(def);
    if (dk != CXCursor_FunctionDecl && dk != CXCursor_CXXMethod && dk != CXCursor_FunctionTemplate)
        return false;
    const char *refused = NULL;
    for (int i = 0; i < cx->depth; i++)
        if (clang_equalCursors(cx->inline_stack[i], def))
            refused = "recursive call of a helper: its tensor work and LOOPs are not modelled";
    if (cx->depth >= (int)(sizeof cx->inline_stack / sizeof cx->inline_stack[0]))
        refused = "helper calls nested too deeply: this call's tensor work and LOOPs are not modelled";
    if (refused) {
        unanalysed(cx, pc_clang_cursor_loc(cx, call), refused);
        cx->cur_stmt = -1;
        return true; /* handled: reported instead of guessed */
    }
    cursors ch = {0};
    children(def, &ch);
    CXCursor body = clang_getNullCursor();
    PC_VEC(binding) binds = {0};
    bool relevant = pc_clang_is_tensor_type(clang_getCursorResultType(def));
    for (size_t i = 0; i < ch.count; i++) {
        enum CXCursorKind k = clang_getCursorKind(ch.items[i]);
        if (k == CXCursor_CompoundStmt)
            body = ch.items[i];
        else if (k == CXCursor_ParmDecl) {
            binding b;
            memset(&b, 0, sizeof b);
            b.parm = ch.items[i];
            b.name = pc_clang_spelling(cx, ch.items[i]);
            b.vc = classify_type(cx, clang_getCursorType(ch.items[i]));
            b.tensor = -1;
            const char *tn = pc_clang_type_name(cx, clang_getCursorType(ch.items[i]));
            relevant = relevant || strstr(tn, "npu::tile_fwk::Tensor") != NULL;
            PC_VEC_PUSH(binds, b);
        }
    }
    PC_VEC_FREE(ch);
    if (clang_Cursor_isNull(body) ||
        !(relevant || mentions(cx, body, "LOOP") || mentions(cx, body, "SetRuntimeOption"))) {
        PC_VEC_FREE(binds);
        return false;
    }
    /* arguments, evaluated in the caller's scope; a member operator call (a lambda's
     * operator()) passes the object as argument 0 */
    int nargs = pc_clang_call_nargs(call);
    int first = 0;
    if (clang_getCursorKind(def) == CXCursor_CXXMethod && !strncmp(pc_clang_spelling(cx, call), "operator", 8))
        first = 1;
    for (size_t i = 0; i < binds.count; i++) {
        binding *b = &binds.items[i];
        if ((int)i + first >= nargs)
            break;
        CXCursor arg = pc_clang_call_arg(call, (int)i + first);
        pc_ctoks toks = {0};
        bool have_toks = pc_clang_cursor_tokens(cx, arg, &toks) && toks.count > 0;
        switch (b->vc) {
        case VC_TENSOR: {
            pc_ctres r = pc_clang_tensor_expr(cx, arg);
            if (r.kind == PC_TR_NAMED && r.via_view) { /* Helper(View(x, ...)): the parameter is that view */
                int id = make_tensor(cx, b->name, PC_TENSOR_VIEW, pc_clang_cursor_loc(cx, arg), NULL);
                pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[id];
                t->base = r.tensor;
                t->dtype = r.dtype;
                t->ndims = r.ndims;
                t->shape = r.shape;
                t->scope_loop = cx->cur_loop;
                if (cx->cur_stmt < 0)
                    cx->cur_stmt = pc_clang_new_stmt(cx, PC_STMT_OP, pc_clang_cursor_loc(cx, call));
                cx->m->kernels[cx->kernel].tensors[id].def_stmt = cx->cur_stmt;
                b->tensor = id;
            } else if (r.kind == PC_TR_NAMED) {
                b->tensor = r.tensor;
            } else if (r.kind == PC_TR_ANON) { /* Helper(Add(a, b)): the parameter names a new value */
                pc_loc al = pc_clang_cursor_loc(cx, arg);
                int id = make_tensor(cx, b->name, PC_TENSOR_VALUE, al, NULL);
                pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[id];
                t->dtype = r.dtype;
                t->ndims = r.ndims;
                t->shape = r.shape;
                t->scope_loop = cx->cur_loop;
                pc_clang_access(cx, id, PC_ACC_DEFINE, r.unit, al);
                cx->m->kernels[cx->kernel].tensors[id].def_stmt = cx->cur_stmt;
                b->tensor = id;
            }
            b->bound = b->tensor >= 0;
            break;
        }
        case VC_INT:
            b->expr = pc_clang_value_int(cx, arg);
            if (!b->expr && have_toks)
                b->expr = pc_clang_int_expr(cx, toks.items, (int)toks.count);
            if (b->expr && has_opaque(b->expr))
                b->expr = NULL;
            b->bound = b->expr != NULL;
            break;
        case VC_LIST:
        case VC_RANGE:
            b->bound = have_toks && pc_clang_shape_list(cx, toks.items, (int)toks.count, &b->list, &b->nlist);
            break;
        case VC_STRING:
            b->str = have_toks ? pc_clang_string_arg(cx, toks.items, (int)toks.count) : NULL;
            b->bound = b->str != NULL;
            break;
        case VC_DTYPE:
            b->dtype = have_toks ? pc_clang_dtype(cx, toks.items, (int)toks.count) : PC_DT_UNKNOWN;
            b->bound = true;
            break;
        default:
            break;
        }
        PC_VEC_FREE(toks);
    }
    /* the callee's scope */
    int saved_frame = cx->frame;
    size_t mark = cx->env.count;
    cx->frame = ++cx->next_frame;
    for (size_t i = 0; i < binds.count; i++) {
        binding *b = &binds.items[i];
        int e;
        switch (b->vc) {
        case VC_TENSOR:
            e = pc_clang_env_push(cx, PC_CENV_TENSOR, b->name, &b->parm);
            if (b->bound) {
                cx->env.items[e].kernel = cx->kernel;
                cx->env.items[e].tensor = b->tensor;
            } else { /* unknown argument: a tensor of its own on first use */
                cx->env.items[e].is_host = true;
                cx->env.items[e].host.kind = PC_TENSOR_CREATED;
                cx->env.items[e].host.ndims = -1;
                cx->env.items[e].host.loc = pc_clang_cursor_loc(cx, call);
            }
            break;
        case VC_INT:
            e = pc_clang_env_push(cx, PC_CENV_EXPR, b->name, &b->parm);
            cx->env.items[e].expr = b->bound ? b->expr : pc_expr_sym(pc_model_arena(cx->m), b->name);
            break;
        case VC_LIST:
        case VC_RANGE:
            if (b->bound) {
                e = pc_clang_env_push(cx, PC_CENV_LIST, b->name, &b->parm);
                cx->env.items[e].list = b->list;
                cx->env.items[e].nlist = b->nlist;
            }
            break;
        case VC_STRING:
            if (b->bound) {
                e = pc_clang_env_push(cx, PC_CENV_STRING, b->name, &b->parm);
                cx->env.items[e].str = b->str;
            }
            break;
        case VC_DTYPE:
            e = pc_clang_env_push(cx, PC_CENV_DTYPE, b->name, &b->parm);
            cx->env.items[e].dtype = b->dtype;
            break;
        default:
            break;
        }
    }
    uint32_t eb, ee;
    if (cx->in_main && pc_clang_offsets(cx, body, &eb, &ee))
        PC_VEC_PUSH(cx->kernel_spans, ((pc_cspan){cx->kernel, -1, eb, ee}));
    pc_ctarget *saved_target = cx->target;
    bool saved_host = cx->in_host_loop;
    cx->target = target;
    cx->inline_stack[cx->depth++] = def;
    cx->cur_stmt = -1;
    /* a helper from another file: walk that file's bytes (the token readers work on cx->src) */
    pc_cx saved_src = *cx;
    uint32_t *other_lines = NULL;
    CXFile hf;
    clang_getExpansionLocation(clang_getCursorLocation(def), &hf, NULL, NULL, NULL);
    bool other = hf && !clang_File_isEqual(hf, cx->main_file);
    if (other) {
        size_t len = 0;
        const char *text = clang_getFileContents(cx->tu, hf, &len);
        CXString fn = clang_getFileName(hf);
        cx->src_name = pc_arena_strdup(cx->scratch, clang_getCString(fn) ? clang_getCString(fn) : "");
        clang_disposeString(fn);
        cx->main_file = hf;
        cx->src = text ? text : "";
        cx->srclen = text ? len : 0;
        other_lines = pc_clang_line_table(cx->src, cx->srclen, &cx->nlines);
        cx->line_start = other_lines;
        cx->in_main = false;
    }
    kernel_block(cx, body);
    if (other) {
        cx->main_file = saved_src.main_file;
        cx->src = saved_src.src;
        cx->srclen = saved_src.srclen;
        cx->line_start = saved_src.line_start;
        cx->nlines = saved_src.nlines;
        cx->src_name = saved_src.src_name;
        cx->in_main = saved_src.in_main;
        pc_mem_free(other_lines);
    }
    cx->depth--;
    cx->target = saved_target;
    cx->in_host_loop = saved_host;
    cx->env.count = mark;
    cx->frame = saved_frame;
    cx->cur_stmt = -1;
    PC_VEC_FREE(binds);
    return true;
}

/* ---- host code ------------------------------------------------------------------------------------ */

static void host_stmt(pc_cx *cx, CXCursor s);
static void kernel_function(pc_cx *cx, CXCursor s, CXCursor body);

static bool mentions(pc_cx *cx, CXCursor c, const char *word)
{
    pc_ctoks toks = {0};
    bool found = false;
    if (pc_clang_cursor_tokens(cx, c, &toks))
        for (size_t i = 0; i < toks.count && !found; i++)
            found = pc_ctok_is(&toks.items[i], word);
    PC_VEC_FREE(toks);
    return found;
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
    info.loc = name_loc(cx, v, name);
    if (!pc_clang_tensor_ctor(cx, v, &info)) {
        /* Tensor v = View(x, ...) / Reshape(x, ...) / x: an alias of another host tensor */
        cursors ch = {0};
        children(v, &ch);
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
    vclass vc = classify_type(cx, clang_getCursorType(v));
    if (vc == VC_TENSOR)
        host_tensor_decl(cx, v, name);
    else if (vc != VC_OTHER)
        scalar_decl(cx, v, vc, name);
}

static void host_children(pc_cx *cx, CXCursor s, bool conditional)
{
    cursors ch = {0};
    children(s, &ch);
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
        cursors ch = {0};
        children(s, &ch);
        size_t mark = cx->env.count;
        for (size_t i = 0; i < ch.count; i++)
            host_stmt(cx, ch.items[i]);
        cx->env.count = mark;
        PC_VEC_FREE(ch);
        return;
    }
    case CXCursor_DeclStmt: {
        cursors ch = {0};
        children(s, &ch);
        for (size_t i = 0; i < ch.count; i++)
            if (clang_getCursorKind(ch.items[i]) == CXCursor_VarDecl)
                host_vardecl(cx, ch.items[i]);
        PC_VEC_FREE(ch);
        return;
    }
    case CXCursor_CXXForRangeStmt: {
        CXCursor body = clang_getNullCursor();
        marker mk = for_range_marker(cx, s, &body);
        if (mk == MK_FUNCTION) {
            kernel_function(cx, s, body);
            return;
        }
        if (mk == MK_PROGRAM) {
            host_stmt(cx, body);
            return;
        }
        if (mk == MK_LOOP) /* a LOOP outside FUNCTION (a helper): modelled where a kernel calls it */
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
        if (mentions(cx, s, "SetRuntimeOption"))
            option_site(cx, s);
        else
            scalar_assign(cx, s);
    }
}

/* A function, method or function template defined in the main file. */
static void host_function(pc_cx *cx, CXCursor fn)
{
    cursors ch = {0};
    children(fn, &ch);
    int saved_frame = cx->frame;
    size_t mark = cx->env.count;
    cx->frame = ++cx->next_frame;
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor c = ch.items[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_ParmDecl) {
            const char *name = pc_clang_spelling(cx, c);
            vclass vc = classify_type(cx, clang_getCursorType(c));
            if (vc == VC_TENSOR) {
                int id = pc_clang_env_push(cx, PC_CENV_TENSOR, name, &c);
                cx->env.items[id].is_host = true;
                cx->env.items[id].host.kind = PC_TENSOR_CREATED;
                cx->env.items[id].host.loc = name_loc(cx, c, name);
            } else if (vc == VC_INT) {
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
    return main_offset(cx, clang_getCursorLocation(c), &off);
}

static void walk_decls(pc_cx *cx, CXCursor parent)
{
    cursors ch = {0};
    children(parent, &ch);
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor c = ch.items[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (!in_main_file(cx, c))
            continue;
        switch (k) {
        case CXCursor_Namespace: case CXCursor_LinkageSpec: case CXCursor_StructDecl: case CXCursor_ClassDecl:
        case CXCursor_ClassTemplate: case CXCursor_UnexposedDecl:
            walk_decls(cx, c);
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

/* ---- kernels ------------------------------------------------------------------------------------ */

/* The tensor lists of FUNCTION(name, {ins}, {outs}[, {{in, out}}]): each element's tokens. */
typedef struct listitem { int t0, t1; } listitem;
typedef PC_VEC(listitem) listitems;

static void list_items(const pc_ctok *t, int a0, int a1, listitems *out)
{
    int st[64], en[64];
    int na = pc_clang_split_args(t + a0, a1 - a0, st, en, 64);
    for (int i = 0; i < na; i++) {
        int s0 = a0 + st[i], s1 = a0 + en[i];
        if (s1 > s0 && pc_ctok_is(&t[s0], "{") && pc_clang_match(t, s1, s0) == s1 - 1)
            list_items(t, s0 + 1, s1 - 1, out);
        else if (s1 > s0)
            PC_VEC_PUSH(*out, ((listitem){s0, s1}));
    }
}

static void add_kernel_constants(pc_cx *cx)
{
    for (size_t i = 0; i < cx->env.count; i++) {
        pc_cenv *e = &cx->env.items[i];
        if (e->kind == PC_CENV_EXPR && (e->frame == cx->frame || e->frame == 0))
            record_constant(cx, e->name, e->expr);
    }
}

static void kernel_function(pc_cx *cx, CXCursor s, CXCursor body)
{
    pc_ctoks toks = {0};
    uint32_t b = 0, bo = 0;
    int a0, a1, after;
    const char *name = NULL;
    listitems items = {0};
    bool have_header = header_tokens(cx, s, body, &toks, &b, &bo) && macro_args(&toks, NULL, &a0, &a1, &after);
    pc_loc loc = have_header ? pc_clang_loc_range(cx, b, toks.items[0].off + toks.items[0].len)
                             : pc_clang_cursor_loc(cx, s);
    if (have_header && cx->in_main)
        PC_VEC_PUSH(cx->function_offs, b);
    if (have_header) {
        int st[8], en[8];
        int na = pc_clang_split_args(toks.items + a0, a1 - a0, st, en, 8);
        if (na >= 1) {
            name = pc_clang_string_arg(cx, toks.items + a0 + st[0], en[0] - st[0]);
            if (!name)
                name = pc_clang_tok_spelling(cx, toks.items + a0 + st[0], en[0] - st[0]);
        }
        for (int i = 1; i < na; i++) {
            int s0 = a0 + st[i], s1 = a0 + en[i];
            if (s1 > s0 && pc_ctok_is(&toks.items[s0], "{"))
                list_items(toks.items, s0 + 1, s1 - 1, &items);
        }
    }
    if (!name || !*name)
        name = pc_arena_printf(cx->scratch, "function_%u", loc.line);

    int saved_kernel = cx->kernel, saved_loop = cx->cur_loop;
    pc_cblock saved_block = cx->block;
    int k = pc_model_add_kernel(cx->m, name, loc);
    cx->kernel = k;
    cx->cur_loop = -1;
    cx->block = (pc_cblock){PC_CBLK_KERNEL, 0, 0};
    cx->cur_stmt = -1;
    uint32_t eb, ee;
    if (pc_clang_offsets(cx, body, &eb, &ee))
        PC_VEC_PUSH(cx->kernel_spans, ((pc_cspan){k, -1, eb, ee}));

    size_t mark = cx->env.count;
    /* parameters: the tensors of the FUNCTION lists, in order, once each */
    for (size_t i = 0; i < items.count; i++) {
        const pc_ctok *it = toks.items + items.items[i].t0;
        int n = items.items[i].t1 - items.items[i].t0;
        const char *spelling = pc_clang_tok_spelling(cx, it, n);
        bool seen = false;
        for (int t = 0; t < cx->m->kernels[k].ntensors && !seen; t++)
            seen = !strcmp(cx->m->kernels[k].tensors[t].variable, spelling);
        if (seen)
            continue;
        pc_loc tloc = pc_clang_loc_range(cx, it[0].off, it[n - 1].off + it[n - 1].len);
        int e = pc_clang_env_find(cx, spelling, PC_CENV_TENSOR);
        pc_chost *info = e >= 0 && cx->env.items[e].is_host ? &cx->env.items[e].host : NULL;
        if (info && info->loc.line)
            tloc = info->loc;
        int tid = make_tensor(cx, spelling, PC_TENSOR_PARAM, tloc, info);
        if (e < 0)
            e = pc_clang_env_push(cx, PC_CENV_TENSOR, spelling, NULL);
        cx->env.items[e].kernel = k;
        cx->env.items[e].tensor = tid;
    }
    add_kernel_constants(cx);
    kernel_block(cx, body);
    /* entries made for this kernel (list spellings without a declaration) go; host entries stay */
    cx->env.count = mark;

    cx->kernel = saved_kernel;
    cx->cur_loop = saved_loop;
    cx->block = saved_block;
    cx->cur_stmt = -1;
    PC_VEC_FREE(items);
    PC_VEC_FREE(toks);
}

/* ---- kernel statements ------------------------------------------------------------------------- */

static void kernel_block(pc_cx *cx, CXCursor body)
{
    size_t mark = cx->env.count;
    if (clang_getCursorKind(body) == CXCursor_CompoundStmt) {
        cursors ch = {0};
        children(body, &ch);
        for (size_t i = 0; i < ch.count; i++)
            pc_clang_walk_kernel_stmt(cx, ch.items[i]);
        PC_VEC_FREE(ch);
    } else if (!clang_Cursor_isNull(body)) {
        pc_clang_walk_kernel_stmt(cx, body);
    }
    cx->env.count = mark;
}

static void begin_leaf(pc_cx *cx, CXCursor s)
{
    cx->cur_stmt = -1;
    cx->header_reads = false;
    cx->stmt_loc = pc_clang_cursor_loc(cx, s);
}

/* Clang errors inside a leaf statement: that statement (or part of it) is not in the model. */
static void end_leaf(pc_cx *cx, CXCursor s)
{
    uint32_t b, e;
    if (pc_clang_offsets(cx, s, &b, &e)) {
        const char *err = pc_clang_claim_errors(cx, b, e > b ? e : b + 1);
        if (err)
            unanalysed(cx, cx->stmt_loc,
                       pc_arena_printf(cx->scratch, "statement not modelled (clang: %s)", err));
    }
    cx->cur_stmt = -1;
}

/* Reads hidden in a header (IF condition, LoopRange): GetTensorData(t, ...) reads tensor t. */
static void header_reads(pc_cx *cx, const pc_ctok *t, int n)
{
    for (int i = 0; i + 2 < n; i++) {
        if (!(pc_ctok_is(&t[i], "GetTensorData") || pc_ctok_is(&t[i], "GetInputData")) || !pc_ctok_is(&t[i + 1], "("))
            continue;
        int close = pc_clang_match(t, n, i + 1);
        int st[4], en[4];
        int na = close < n ? pc_clang_split_args(t + i + 2, close - i - 2, st, en, 4) : 0;
        if (na < 1)
            continue;
        const char *name = pc_clang_tok_spelling(cx, t + i + 2 + st[0], en[0] - st[0]);
        int e = pc_clang_env_find(cx, name, PC_CENV_TENSOR);
        int tid = pc_clang_env_tensor(cx, e);
        if (tid >= 0) {
            bool saved = cx->header_reads;
            cx->header_reads = true;
            const pc_ctok *a = t + i + 2 + st[0];
            pc_clang_access(cx, tid, PC_ACC_READ, PC_UNIT_NONE,
                            pc_clang_loc_range(cx, a[0].off, a[en[0] - st[0] - 1].off + a[en[0] - st[0] - 1].len));
            cx->header_reads = saved;
        }
    }
}

/* LoopRange(e) / LoopRange(b, e) / LoopRange(b, e, s), {b, e, s}, or a LoopRange variable. */
static bool loop_range(pc_cx *cx, const pc_ctok *t, int n, const pc_expr **b, const pc_expr **e, const pc_expr **s)
{
    pc_arena *a = pc_model_arena(cx->m);
    int k = 0;
    while (k < n && (t[k].kind == PC_CTOK_IDENT || pc_ctok_is(&t[k], "::")) && !(k + 1 == n))
        k++;
    if (n == 1 && t[0].kind == PC_CTOK_IDENT) {
        const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
        int en = pc_clang_env_find(cx, name, PC_CENV_LIST);
        if (en < 0 || cx->env.items[en].nlist != 3)
            return false;
        *b = cx->env.items[en].list[0];
        *e = cx->env.items[en].list[1];
        *s = cx->env.items[en].list[2];
        return *b && *e && *s;
    }
    if (k >= n || !(pc_ctok_is(&t[k], "(") || pc_ctok_is(&t[k], "{")) || pc_clang_match(t, n, k) != n - 1)
        return false;
    if (k > 0 && !pc_ctok_is(&t[k - 1], "LoopRange"))
        return false;
    int st[4], en[4];
    int na = pc_clang_split_args(t + k + 1, n - k - 2, st, en, 4);
    const pc_ctok *in = t + k + 1;
    if (na < 1 || na > 3)
        return false;
    if (na == 1) {
        *b = pc_expr_int(a, 0);
        *e = pc_clang_int_expr(cx, in + st[0], en[0] - st[0]);
        *s = pc_expr_int(a, 1);
    } else {
        *b = pc_clang_int_expr(cx, in + st[0], en[0] - st[0]);
        *e = pc_clang_int_expr(cx, in + st[1], en[1] - st[1]);
        *s = na == 3 ? pc_clang_int_expr(cx, in + st[2], en[2] - st[2]) : pc_expr_int(a, 1);
    }
    return *b && *e && *s;
}

/* A boolean argument (submitBeforeLoop, parallel): true/false or a constant. */
static bool bool_arg(pc_cx *cx, const pc_ctok *t, int n, bool *out)
{
    const pc_expr *e = pc_clang_int_expr(cx, t, n);
    int64_t v;
    if (!e || !pc_expr_is_int(e, &v))
        return false;
    *out = v != 0;
    return true;
}

static void loop_stmt(pc_cx *cx, CXCursor s, CXCursor body)
{
    pc_arena *a = pc_model_arena(cx->m);
    pc_ctoks toks = {0};
    uint32_t b = 0, bo = 0;
    int a0, a1, after;
    pc_loc sloc = pc_clang_cursor_loc(cx, s);
    if (!header_tokens(cx, s, body, &toks, &b, &bo) || !macro_args(&toks, NULL, &a0, &a1, &after)) {
        unanalysed(cx, sloc, "LOOP not modelled: its header could not be read from the source");
        PC_VEC_FREE(toks);
        return;
    }
    const pc_ctok *t = toks.items;
    pc_loc loc = pc_clang_loc_range(cx, t[0].off, t[0].off + t[0].len);
    pc_loc header = pc_clang_loc_range(cx, t[0].off, t[a1].off + 1);
    int st[8], en[8];
    int na = pc_clang_split_args(t + a0, a1 - a0, st, en, 8);
    const pc_expr *lb = NULL, *le = NULL, *ls = NULL;
    if (na < 4 || na > 7 || !loop_range(cx, t + a0 + st[3], en[3] - st[3], &lb, &le, &ls)) {
        unanalysed(cx, loc, na < 4 ? "LOOP not modelled: expected LOOP(name, type, index, range, ...)"
                                   : "LOOP not modelled: its LoopRange could not be read");
        PC_VEC_FREE(toks);
        return;
    }
    const char *name = pc_clang_string_arg(cx, t + a0 + st[0], en[0] - st[0]);
    if (!name)
        name = pc_clang_tok_spelling(cx, t + a0 + st[0], en[0] - st[0]);
    if (!name || !*name)
        name = pc_arena_printf(cx->scratch, "loop_%u", loc.line);
    const char *index = pc_clang_tok_spelling(cx, t + a0 + st[2], en[2] - st[2]);

    /* reads of tensor data in the range (LoopRange(GetTensorData(n, {0}))) happen before the loop */
    cx->cur_stmt = -1;
    cx->stmt_loc = header;
    header_reads(cx, t + a0 + st[3], en[3] - st[3]);
    cx->cur_stmt = -1;

    int64_t *unroll = NULL;
    int nunroll = 0;
    bool submit = false, parallel = false;
    if (na >= 5 && en[4] > st[4]) {
        const pc_expr **list;
        int nl;
        bool ok = pc_clang_shape_list(cx, t + a0 + st[4], en[4] - st[4], &list, &nl);
        if (ok && nl > 0) {
            unroll = pc_arena_alloc(a, sizeof *unroll * (size_t)nl);
            for (int i = 0; i < nl && ok; i++) {
                ok = list[i] && pc_expr_is_int(list[i], &unroll[i]) && unroll[i] > 0;
            }
            nunroll = ok ? nl : 0;
        }
        if (!ok)
            pc_model_add_message(cx->m, PC_MSG_WARNING,
                                 pc_clang_loc_range(cx, t[a0 + st[4]].off, t[a0 + en[4] - 1].off + t[a0 + en[4] - 1].len),
                                 "unroll list is not a list of positive integer constants; modelled as [1]");
    }
    if (na >= 6 && !bool_arg(cx, t + a0 + st[5], en[5] - st[5], &submit))
        pc_model_add_message(cx->m, PC_MSG_WARNING, header, "submitBeforeLoop is not a constant; modelled as false");
    if (na >= 7 && !bool_arg(cx, t + a0 + st[6], en[6] - st[6], &parallel))
        pc_model_add_message(cx->m, PC_MSG_WARNING, header, "parallel is not a constant; modelled as false");

    pc_kernel *k = &cx->m->kernels[cx->kernel];
    int lid = pc_kernel_add_loop(cx->m, k, name, loc);
    pc_loop *l = &k->loops[lid];
    l->index_var = pc_model_strdup(cx->m, index);
    l->begin = lb;
    l->end = le;
    l->step = ls;
    l->unroll = unroll;
    l->nunroll = nunroll;
    l->submit_before_loop = submit;
    l->parallel = parallel;
    l->parent = cx->cur_loop;
    l->header = header;
    int sid = pc_clang_new_stmt(cx, PC_STMT_LOOP, sloc);
    k = &cx->m->kernels[cx->kernel];
    k->stmts[sid].loop = lid;
    k->loops[lid].stmt = sid;
    uint32_t eb, ee;
    if (cx->in_main) {
        PC_VEC_PUSH(cx->loop_spans, ((pc_cspan){cx->kernel, lid, b, bo}));
        if (pc_clang_offsets(cx, body, &eb, &ee))
            PC_VEC_PUSH(cx->body_spans, ((pc_cspan){cx->kernel, lid, eb, ee}));
    }

    pc_cblock saved_block = cx->block;
    int saved_loop = cx->cur_loop;
    cx->block = (pc_cblock){PC_CBLK_LOOP, lid, 0};
    cx->cur_loop = lid;
    size_t mark = cx->env.count;
    /* the index variable is the for-range statement's VarDecl: uses in the body refer to it */
    cursors lc = {0};
    children(s, &lc);
    CXCursor ivar = clang_getNullCursor();
    for (size_t i = 0; i < lc.count && clang_Cursor_isNull(ivar); i++)
        if (clang_getCursorKind(lc.items[i]) == CXCursor_VarDecl)
            ivar = lc.items[i];
    PC_VEC_FREE(lc);
    int ie = pc_clang_env_push(cx, PC_CENV_EXPR, index, clang_Cursor_isNull(ivar) ? NULL : &ivar);
    cx->env.items[ie].expr = pc_expr_sym(a, index);
    kernel_block(cx, body);
    cx->env.count = mark;
    cx->block = saved_block;
    cx->cur_loop = saved_loop;
    PC_VEC_FREE(toks);
}

/* The condition tokens of `IF ( cond )` / `if (cond)` between a statement start and its body. */
/* The condition of an IF as a model expression (clang_cond.c) and its source spelling. */
static const pc_expr *if_condition(pc_cx *cx, CXCursor s, CXCursor then_s, pc_loc *hloc, const char **text)
{
    pc_ctoks toks = {0};
    uint32_t b, bo;
    int a0, a1, after;
    const pc_expr *e = NULL;
    *hloc = pc_clang_cursor_loc(cx, s);
    *text = NULL;
    if (header_tokens(cx, s, then_s, &toks, &b, &bo) && macro_args(&toks, NULL, &a0, &a1, &after)) {
        *hloc = pc_clang_loc_range(cx, toks.items[0].off, toks.items[a1].off + 1);
        cx->stmt_loc = *hloc;
        header_reads(cx, toks.items + a0, a1 - a0);
        if (a1 > a0) {
            uint32_t tb = toks.items[a0].off, te = toks.items[a1 - 1].off + toks.items[a1 - 1].len;
            *text = pc_model_strdup(cx->m, pc_arena_strndup(cx->scratch, cx->src + tb, te - tb));
        }
        bool data = false;
        e = pc_clang_cond_expr(cx, toks.items + a0, a1 - a0, &data);
    }
    PC_VEC_FREE(toks);
    return e;
}

/* IF / ELSE IF / ELSE: one PC_STMT_IF, one branch per path. */
static void if_stmt(pc_cx *cx, CXCursor s)
{
    cx->cur_stmt = -1;
    int sid = -1;
    bool any_true = false, all_false = true;
    CXCursor cur = s;
    while (!clang_Cursor_isNull(cur)) {
        CXCursor cond, then_s, else_s;
        if_parts(cur, &cond, &then_s, &else_s);
        pc_loc hloc;
        const char *text;
        cx->header_reads = false;
        const pc_expr *c = if_condition(cx, cur, then_s, &hloc, &text);
        cx->cur_stmt = -1;
        if (sid < 0)
            sid = pc_clang_new_stmt(cx, PC_STMT_IF, pc_clang_cursor_loc(cx, s));
        int64_t v;
        int decided = any_true ? 0 : (c && pc_expr_is_int(c, &v)) ? (v != 0) : -1;
        pc_branch *br = pc_stmt_add_branch(cx->m, &cx->m->kernels[cx->kernel].stmts[sid], hloc);
        br->cond = c; /* NULL: data-dependent (the analysis charges the maximum over the paths) */
        br->cond_text = text;
        br->decided = decided;
        any_true = any_true || decided == 1;
        all_false = all_false && decided == 0;
        int bi = cx->m->kernels[cx->kernel].stmts[sid].nbranches - 1;
        pc_cblock saved = cx->block;
        cx->block = (pc_cblock){PC_CBLK_BRANCH, sid, bi};
        kernel_block(cx, then_s);
        cx->block = saved;
        cur = clang_getNullCursor();
        if (clang_Cursor_isNull(else_s))
            break;
        if (clang_getCursorKind(else_s) == CXCursor_IfStmt) {
            CXCursor c2, t2, e2;
            if_parts(else_s, &c2, &t2, &e2);
            if (!clang_Cursor_isNull(c2) && cond_marker(cx, c2, 6) == MK_IF) {
                cur = else_s;
                continue;
            }
        }
        /* ELSE */
        pc_branch *eb = pc_stmt_add_branch(cx->m, &cx->m->kernels[cx->kernel].stmts[sid], pc_clang_cursor_loc(cx, else_s));
        eb->cond = NULL;
        eb->decided = any_true ? 0 : all_false ? 1 : -1;
        bi = cx->m->kernels[cx->kernel].stmts[sid].nbranches - 1;
        cx->block = (pc_cblock){PC_CBLK_BRANCH, sid, bi};
        kernel_block(cx, else_s);
        cx->block = saved;
    }
    cx->cur_stmt = -1;
}

static void unroll_stmt(pc_cx *cx, CXCursor s)
{
    CXCursor cond, then_s, else_s;
    if_parts(s, &cond, &then_s, &else_s);
    pc_ctoks toks = {0};
    uint32_t b, bo;
    int64_t factor = 0;
    bool ok = false;
    if (header_tokens(cx, s, then_s, &toks, &b, &bo)) {
        int a0, a1, after;
        if (pc_ctok_is(&toks.items[0], "UNROLL_DEFAULT")) {
            factor = 1;
            ok = true;
        } else if (macro_args(&toks, NULL, &a0, &a1, &after)) {
            const pc_expr *e = pc_clang_int_expr(cx, toks.items + a0, a1 - a0);
            ok = e && pc_expr_is_int(e, &factor) && factor > 0;
        }
    }
    PC_VEC_FREE(toks);
    pc_loc loc = pc_clang_cursor_loc(cx, s);
    if (!ok) {
        unanalysed(cx, loc, "UNROLL body not modelled: its factor is not a positive integer constant");
        return;
    }
    int sid = pc_clang_new_stmt(cx, PC_STMT_UNROLL, loc);
    cx->m->kernels[cx->kernel].stmts[sid].unroll_factor = factor;
    pc_cblock saved = cx->block;
    cx->block = (pc_cblock){PC_CBLK_UNROLL, sid, 0};
    kernel_block(cx, then_s);
    cx->block = saved;
    cx->cur_stmt = -1;
}

/* A host `if` inside a kernel: trace-time code.  Decided from constants when possible, else
 * both paths are kept as an undecided PC_STMT_IF. */
static void host_if(pc_cx *cx, CXCursor s)
{
    CXCursor cond, then_s, else_s;
    if_parts(s, &cond, &then_s, &else_s);
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
        kernel_block(cx, v ? then_s : else_s);
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
    kernel_block(cx, then_s);
    if (!clang_Cursor_isNull(else_s)) {
        br = pc_stmt_add_branch(cx->m, &cx->m->kernels[cx->kernel].stmts[sid], pc_clang_cursor_loc(cx, else_s));
        br->decided = -1;
        cx->block = (pc_cblock){PC_CBLK_BRANCH, sid, 1};
        kernel_block(cx, else_s);
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
    if (k == CXCursor_CXXForRangeStmt && for_range_marker(ls->cx, c, &body) == MK_LOOP) {
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
    if (mentions(cx, c, "LOOP"))
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
    cursors ch = {0};
    children(s, &ch);
    int64_t trips = -1;
    if (ch.count == 4 && clang_getCursorKind(ch.items[0]) == CXCursor_DeclStmt) {
        cursors vd = {0};
        children(ch.items[0], &vd);
        CXCursor v = vd.count == 1 ? vd.items[0] : clang_getNullCursor();
        PC_VEC_FREE(vd);
        const pc_expr *e0 = NULL;
        if (!clang_Cursor_isNull(v) && clang_getCursorKind(v) == CXCursor_VarDecl) {
            CXCursor init = decl_init(v);
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
            cursors ic = {0};
            children(inc, &ic);
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
                                record_constant(cx, names[q], pc_expr_int(a, bv));
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
static void host_loop(pc_cx *cx, CXCursor s)
{
    cursors ch = {0};
    children(s, &ch);
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
                kernel_block(cx, body);
                cx->env.count = m2;
            }
            return;
        }
    }
    if (has_loop) {
        begin_leaf(cx, s);
        unanalysed(cx, pc_clang_cursor_loc(cx, s),
                   "host loop around a LOOP with no constant trip count: its LOOPs are modelled once");
    }
    /* the variables a `for (int h = ...)` declares are not constants inside the body */
    if (clang_getCursorKind(s) == CXCursor_ForStmt) {
        cursors fc = {0};
        children(s, &fc);
        if (fc.count && clang_getCursorKind(fc.items[0]) == CXCursor_DeclStmt) {
            cursors vd = {0};
            children(fc.items[0], &vd);
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
    kernel_block(cx, body);
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
        begin_leaf(cx, s);
        unanalysed(cx, pc_clang_cursor_loc(cx, s),
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

static void kernel_vardecl(pc_cx *cx, CXCursor v)
{
    const char *name = pc_clang_spelling(cx, v);
    vclass vc = classify_type(cx, clang_getCursorType(v));
    if (vc == VC_TENSOR) {
        pc_clang_tensor_decl(cx, v);
        return;
    }
    if (vc != VC_OTHER)
        scalar_decl(cx, v, vc, name);
    /* scalars read from tensor data: SymbolicScalar idx = GetTensorData(t, {i}) */
    cursors ch = {0};
    children(v, &ch);
    for (size_t i = 0; i < ch.count; i++)
        if (clang_isExpression(clang_getCursorKind(ch.items[i])))
            pc_clang_tensor_stmt(cx, ch.items[i]);
    PC_VEC_FREE(ch);
}

/* auto [a, b] = TopK(x, k): each binding is a new value of the call. */
static void binding_decl(pc_cx *cx, CXCursor d)
{
    cursors ch = {0};
    children(d, &ch);
    CXCursor init = clang_getNullCursor();
    for (size_t i = 0; i < ch.count; i++)
        if (clang_isExpression(clang_getCursorKind(ch.items[i])))
            init = ch.items[i];
    pc_ctres r = {.kind = PC_TR_NONE, .ndims = -1};
    if (!clang_Cursor_isNull(init))
        r = pc_clang_tensor_expr(cx, init);
    for (size_t i = 0; i < ch.count; i++) {
        CXCursor b = ch.items[i];
        if (clang_getCursorKind(b) != CXCursor_UnexposedDecl || !pc_clang_is_tensor_type(clang_getCursorType(b)))
            continue;
        const char *name = pc_clang_spelling(cx, b);
        pc_loc loc = name_loc(cx, b, name);
        int e = pc_clang_env_push(cx, PC_CENV_TENSOR, name, &b);
        int tid;
        if (r.kind == PC_TR_NAMED) {
            tid = make_tensor(cx, name, PC_TENSOR_VIEW, loc, NULL);
            cx->m->kernels[cx->kernel].tensors[tid].base = r.tensor;
        } else {
            tid = make_tensor(cx, name, r.kind == PC_TR_ANON ? PC_TENSOR_VALUE : PC_TENSOR_CREATED, loc, NULL);
            if (r.kind == PC_TR_ANON)
                pc_clang_access(cx, tid, PC_ACC_DEFINE, r.unit, loc);
        }
        pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[tid];
        t->scope_loop = cx->cur_loop;
        if (cx->cur_stmt < 0)
            cx->cur_stmt = pc_clang_new_stmt(cx, PC_STMT_OP, cx->stmt_loc);
        t->def_stmt = cx->cur_stmt;
        cx->env.items[e].kernel = cx->kernel;
        cx->env.items[e].tensor = tid;
    }
    PC_VEC_FREE(ch);
}

static bool is_tile_call(const char *name)
{
    static const char *const calls[] = {"SetVecTile", "SetCubeTile", "SetConvTile", "SetDistTile", "SetMatrixSize",
                                        "SetDistRankId", "SetDistTileCol", "SetDistTileRow", "SetDistTileRank", NULL};
    for (int i = 0; calls[i]; i++)
        if (!strcmp(name, calls[i]))
            return true;
    return false;
}

static void expr_stmt(pc_cx *cx, CXCursor s)
{
    CXCursor c = pc_clang_strip(s);
    const char *name = pc_clang_call_name(cx, c, NULL, NULL);
    if (name && !strcmp(name, "SetRuntimeOption")) {
        option_site(cx, s);
        return;
    }
    if (!name && mentions(cx, s, "SetRuntimeOption")) {
        option_site(cx, s);
        return;
    }
    if (name && is_tile_call(name)) {
        pc_clang_tiles_call(cx, c, name, pc_clang_new_stmt(cx, PC_STMT_OP, cx->stmt_loc)); /* tile-shape setting: no tensor work */
        return;
    }
    if (pc_clang_tensor_stmt(cx, s))
        return;
    scalar_assign(cx, s);
}

void pc_clang_walk_kernel_stmt(pc_cx *cx, CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    switch (k) {
    case CXCursor_CompoundStmt:
        kernel_block(cx, s);
        return;
    case CXCursor_NullStmt: case CXCursor_BreakStmt: case CXCursor_ContinueStmt:
        return;
    case CXCursor_DeclStmt: {
        begin_leaf(cx, s);
        cursors ch = {0};
        children(s, &ch);
        for (size_t i = 0; i < ch.count; i++) {
            enum CXCursorKind dk = clang_getCursorKind(ch.items[i]);
            if (dk == CXCursor_VarDecl)
                kernel_vardecl(cx, ch.items[i]);
            else if (dk == CXCursor_UnexposedDecl)
                binding_decl(cx, ch.items[i]);
        }
        PC_VEC_FREE(ch);
        end_leaf(cx, s);
        return;
    }
    case CXCursor_CXXForRangeStmt: {
        CXCursor body = clang_getNullCursor();
        marker mk = for_range_marker(cx, s, &body);
        if (mk == MK_LOOP) {
            cx->cur_stmt = -1;
            loop_stmt(cx, s, body);
        } else if (mk == MK_FUNCTION || mk == MK_PROGRAM) {
            /* FUNCTION nested in a kernel: its work is part of the enclosing kernel */
            uint32_t eb, ee;
            if (mk == MK_FUNCTION && cx->in_main && pc_clang_offsets(cx, s, &eb, &ee))
                PC_VEC_PUSH(cx->function_offs, eb);
            if (cx->in_main && pc_clang_offsets(cx, body, &eb, &ee))
                PC_VEC_PUSH(cx->kernel_spans, ((pc_cspan){cx->kernel, -1, eb, ee}));
            kernel_block(cx, body);
        } else {
            host_loop(cx, s);
        }
        cx->cur_stmt = -1;
        return;
    }
    case CXCursor_IfStmt: {
        CXCursor cond, then_s, else_s;
        if_parts(s, &cond, &then_s, &else_s);
        marker mk = clang_Cursor_isNull(cond) ? MK_NONE : cond_marker(cx, cond, 6);
        if (mk == MK_IF)
            if_stmt(cx, s);
        else if (mk == MK_UNROLL)
            unroll_stmt(cx, s);
        else
            host_if(cx, s);
        return;
    }
    case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt:
        host_loop(cx, s);
        return;
    case CXCursor_SwitchStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_CXXTryStmt:
    case CXCursor_CXXCatchStmt: case CXCursor_LabelStmt: {
        bool saved = cx->in_host_loop;
        cx->in_host_loop = true;
        cursors ch = {0};
        children(s, &ch);
        for (size_t i = 0; i < ch.count; i++) {
            enum CXCursorKind ck = clang_getCursorKind(ch.items[i]);
            if (clang_isStatement(ck) || ck == CXCursor_CompoundStmt)
                pc_clang_walk_kernel_stmt(cx, ch.items[i]);
        }
        PC_VEC_FREE(ch);
        cx->in_host_loop = saved;
        return;
    }
    case CXCursor_ReturnStmt: {
        begin_leaf(cx, s);
        cursors ch = {0};
        children(s, &ch);
        CXCursor e = ch.count ? ch.items[0] : clang_getNullCursor();
        PC_VEC_FREE(ch);
        pc_ctarget *tg = cx->target;
        if (!clang_Cursor_isNull(e) && tg && !tg->done && pc_clang_is_tensor_type(clang_getCursorType(e))) {
            pc_ctres r = pc_clang_tensor_expr(cx, e);
            tg->done = true;
            tg->result = r;
            if (tg->kind == PC_CTGT_DECL) {
                pc_cenv *en = &cx->env.items[tg->env];
                if (r.kind == PC_TR_NAMED) {
                    en->kernel = cx->kernel;
                    en->tensor = r.tensor;
                } else {
                    int tid = make_tensor(cx, en->name, r.kind == PC_TR_ANON ? PC_TENSOR_VALUE : PC_TENSOR_CREATED,
                                          tg->loc, NULL);
                    pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[tid];
                    t->dtype = r.dtype;
                    t->ndims = r.ndims;
                    t->shape = r.shape;
                    t->scope_loop = cx->cur_loop;
                    if (r.kind == PC_TR_ANON)
                        pc_clang_access(cx, tid, PC_ACC_DEFINE, r.unit, tg->loc);
                    t = &cx->m->kernels[cx->kernel].tensors[tid];
                    t->def_stmt = cx->cur_stmt;
                    en = &cx->env.items[tg->env];
                    en->kernel = cx->kernel;
                    en->tensor = tid;
                }
            } else if (tg->kind == PC_CTGT_ASSIGN) {
                if (r.kind == PC_TR_NAMED)
                    pc_clang_access(cx, r.tensor, PC_ACC_READ, PC_UNIT_NONE, r.loc);
                pc_clang_access(cx, tg->tensor, PC_ACC_WRITE_WHOLE, r.kind == PC_TR_ANON ? r.unit : PC_UNIT_NONE,
                                pc_clang_cursor_loc(cx, e));
            }
        } else if (!clang_Cursor_isNull(e)) {
            pc_clang_tensor_stmt(cx, e);
        }
        end_leaf(cx, s);
        return;
    }
    default:
        break;
    }
    if (clang_isExpression(k)) {
        begin_leaf(cx, s);
        expr_stmt(cx, s);
        end_leaf(cx, s);
    }
}

/* ---- what the walk could not see ------------------------------------------------------------------ */

/* LOOP tokens inside a kernel that no recognised loop starts at (the macro did not expand, or
 * clang dropped the statement), and clang errors inside a kernel that no statement claimed: each
 * becomes an unanalysed statement at its place in the innermost enclosing LOOP body. */
static void place_unanalysed(pc_cx *cx, int kernel, uint32_t off, const char *message)
{
    int loop = -1;
    uint32_t best = 0xffffffffu;
    for (size_t i = 0; i < cx->body_spans.count; i++) {
        pc_cspan *sp = &cx->body_spans.items[i];
        if (sp->kernel == kernel && off >= sp->begin && off < sp->end && sp->end - sp->begin < best) {
            best = sp->end - sp->begin;
            loop = sp->loop;
        }
    }
    int saved_kernel = cx->kernel;
    pc_cblock saved_block = cx->block;
    cx->kernel = kernel;
    cx->block = loop >= 0 ? (pc_cblock){PC_CBLK_LOOP, loop, 0} : (pc_cblock){PC_CBLK_KERNEL, 0, 0};
    unanalysed(cx, pc_clang_loc_range(cx, off, off), message);
    block_sort_last(cx, cx->block);
    cx->kernel = saved_kernel;
    cx->block = saved_block;
}

static int kernel_at(pc_cx *cx, uint32_t off)
{
    int k = -1;
    uint32_t best = 0xffffffffu;
    for (size_t i = 0; i < cx->kernel_spans.count; i++) {
        pc_cspan *sp = &cx->kernel_spans.items[i];
        if (off >= sp->begin && off < sp->end && sp->end - sp->begin < best) {
            best = sp->end - sp->begin;
            k = sp->kernel;
        }
    }
    return k;
}

static void check_leftovers(pc_cx *cx)
{
    pc_ctoks toks = {0};
    pc_clang_lex(cx->src, 0, cx->srclen, &toks);
    PC_VEC(uint32_t) lines = {0};
    for (size_t i = 0; i + 1 < toks.count; i++) {
        const pc_ctok *t = &toks.items[i];
        if (!pc_ctok_is(t, "LOOP") || !pc_ctok_is(&toks.items[i + 1], "(") || pc_clang_is_skipped(cx, t->off))
            continue;
        bool known = false;
        for (size_t j = 0; j < cx->loop_spans.count && !known; j++)
            known = cx->loop_spans.items[j].begin == t->off;
        int k = known ? -1 : kernel_at(cx, t->off);
        if (k < 0)
            continue;
        /* an UNANALYSED statement already made for this LOOP (its header could not be read) */
        pc_loc at = pc_clang_loc_range(cx, t->off, t->off);
        bool reported = false;
        pc_kernel *kk = &cx->m->kernels[k];
        for (int s = 0; s < kk->nstmts && !reported; s++)
            reported = kk->stmts[s].kind == PC_STMT_UNANALYSED && kk->stmts[s].loc.line == at.line;
        PC_VEC_PUSH(lines, at.line);
        if (reported)
            continue;
        const char *err = NULL;
        for (int d = 0; d < cx->ndiags && !err; d++)
            if (cx->diags[d].line == at.line && !cx->diags[d].claimed)
                err = cx->diags[d].text;
        place_unanalysed(cx, k, t->off,
                         err ? pc_arena_printf(cx->scratch, "LOOP not modelled: clang could not parse it (%s)", err)
                             : "LOOP not modelled: it is in code poolcheck does not follow from the FUNCTION "
                               "(a lambda that is not called, a call through a pointer)");
    }
    /* FUNCTION tokens no kernel starts at: clang dropped the statement, so no kernel exists to
     * hold an unanalysed statement; say so where it is */
    for (size_t i = 0; i + 1 < toks.count; i++) {
        const pc_ctok *t = &toks.items[i];
        if (!pc_ctok_is(t, "FUNCTION") || !pc_ctok_is(&toks.items[i + 1], "(") || pc_clang_is_skipped(cx, t->off))
            continue;
        bool known = false;
        for (size_t j = 0; j < cx->function_offs.count && !known; j++)
            known = cx->function_offs.items[j] == t->off;
        if (known)
            continue;
        pc_loc at = pc_clang_loc_range(cx, t->off, t->off + t->len);
        const char *err = NULL;
        for (int d = 0; d < cx->ndiags && !err; d++)
            if (cx->diags[d].line >= at.line && cx->diags[d].line <= at.line + 1)
                err = cx->diags[d].text;
        pc_model_add_message(cx->m, PC_MSG_WARNING, at,
                             err ? pc_arena_printf(cx->scratch, "FUNCTION not modelled: clang could not parse it (%s)", err)
                                 : "FUNCTION not modelled: it is in code poolcheck does not follow (a lambda, a "
                                   "macro of its own)");
    }
    for (int d = 0; d < cx->ndiags; d++) {
        pc_cdiag *dg = &cx->diags[d];
        if (dg->claimed)
            continue;
        int k = kernel_at(cx, dg->off);
        bool on_loop_line = false;
        for (size_t i = 0; i < lines.count && !on_loop_line; i++)
            on_loop_line = lines.items[i] == dg->line;
        dg->claimed = true;
        if (k < 0 || on_loop_line)
            continue;
        place_unanalysed(cx, k, dg->off, pc_arena_printf(cx->scratch, "code not modelled (clang: %s)", dg->text));
    }
    PC_VEC_FREE(lines);
    PC_VEC_FREE(toks);
}

/* Options in source order (helpers are walked where they are called). */
static void sort_options(pc_model *m)
{
    for (int i = 1; i < m->noptions; i++)
        for (int j = i; j > 0 && loc_cmp(m->options[j - 1].loc, m->options[j].loc) > 0; j--) {
            pc_option tmp = m->options[j];
            m->options[j] = m->options[j - 1];
            m->options[j - 1] = tmp;
        }
}

/* ---- object-like macros ------------------------------------------------------------------------ */

/* A value for NAME from the tokens of its definition: integer, string, dtype or list. */
static void define_value(pc_cx *cx, const char *name, const pc_ctok *t, int n)
{
    if (n <= 0)
        return;
    pc_dtype dt = pc_clang_dtype(cx, t, n);
    const char *str = t[0].kind == PC_CTOK_STRING ? pc_clang_string_arg(cx, t, n) : NULL;
    const pc_expr **list;
    int nl;
    int e;
    if (str) {
        e = pc_clang_env_push(cx, PC_CENV_STRING, name, NULL);
        cx->env.items[e].str = str;
    } else if (n == 1 && dt != PC_DT_UNKNOWN) {
        e = pc_clang_env_push(cx, PC_CENV_DTYPE, name, NULL);
        cx->env.items[e].dtype = dt;
    } else if (pc_ctok_is(&t[0], "{") && pc_clang_shape_list(cx, t, n, &list, &nl)) {
        e = pc_clang_env_push(cx, PC_CENV_LIST, name, NULL);
        cx->env.items[e].list = list;
        cx->env.items[e].nlist = nl;
    } else {
        const pc_expr *v = pc_clang_int_expr(cx, t, n);
        if (v && !has_opaque(v)) {
            e = pc_clang_env_push(cx, PC_CENV_EXPR, name, NULL);
            cx->env.items[e].expr = v;
        }
    }
}

static void define_cb(pc_cx *cx, const char *name, const pc_ctok *t, int n, void *data)
{
    (void)data;
    define_value(cx, name, t, n);
}

/* Object-like macros poolcheck can read values from: -DNAME=VALUE arguments, then the
 * definitions the preprocessor kept (clang_pp.c: inactive #if branches have none).  Kernels use
 * them as constants in LoopRange and shapes, which the stringified macro arguments carry
 * unexpanded.  A translation unit without a preprocessing record falls back to the main file's
 * `#define` lines (in order; #undef forgets). */
static void scan_defines(pc_cx *cx)
{
    for (int i = 0; i < cx->nargs; i++) {
        const char *a = cx->args[i];
        const char *def = NULL;
        if (!strncmp(a, "-D", 2) && a[2])
            def = a + 2;
        else if (!strcmp(a, "-D") && i + 1 < cx->nargs)
            def = cx->args[++i];
        if (!def)
            continue;
        const char *eq = strchr(def, '=');
        const char *name = pc_arena_strndup(cx->scratch, def, eq ? (size_t)(eq - def) : strlen(def));
        const char *val = eq ? eq + 1 : "1";
        pc_ctoks toks = {0};
        pc_clang_lex(val, 0, strlen(val), &toks);
        if (!strchr(name, '('))
            define_value(cx, name, toks.items, (int)toks.count);
        PC_VEC_FREE(toks);
    }
    if (pc_clang_macros(cx, define_cb, NULL))
        return;
    for (int l = 0; l < cx->nlines; l++) {
        size_t b = cx->line_start[l], e = l + 1 < cx->nlines ? cx->line_start[l + 1] : cx->srclen;
        size_t i = b;
        while (i < e && (cx->src[i] == ' ' || cx->src[i] == '\t'))
            i++;
        if (i >= e || cx->src[i] != '#')
            continue;
        i++;
        while (i < e && (cx->src[i] == ' ' || cx->src[i] == '\t'))
            i++;
        bool undef = e - i > 5 && !strncmp(cx->src + i, "undef", 5);
        if (!(e - i > 6 && !strncmp(cx->src + i, "define", 6)) && !undef)
            continue;
        i += undef ? 5 : 6;
        /* the directive, continuation lines included */
        size_t end = i;
        while (end < cx->srclen && cx->src[end] != '\n') {
            if (cx->src[end] == '\\' && end + 1 < cx->srclen && cx->src[end + 1] == '\n')
                end++;
            end++;
        }
        pc_ctoks toks = {0};
        /* lex as code: the '#' is behind us, so the lexer does not skip the line */
        size_t k = i;
        while (k < end && (cx->src[k] == ' ' || cx->src[k] == '\t'))
            k++;
        if (k < end)
            pc_clang_lex(cx->src, k, end, &toks);
        if (toks.count >= 1 && toks.items[0].kind == PC_CTOK_IDENT) {
            const char *name = pc_arena_strndup(cx->scratch, toks.items[0].text, toks.items[0].len);
            bool function_like = toks.count >= 2 && pc_ctok_is(&toks.items[1], "(") &&
                                 toks.items[1].off == toks.items[0].off + toks.items[0].len;
            if (undef) {
                int e2 = pc_clang_env_find(cx, name, -1);
                if (e2 >= 0)
                    cx->env.items[e2].name = "";
            } else if (!function_like) {
                define_value(cx, name, toks.items + 1, (int)toks.count - 1);
            }
        }
        PC_VEC_FREE(toks);
    }
}

void pc_clang_walk_tu(pc_cx *cx)
{
    cx->kernel = -1;
    cx->cur_loop = -1;
    cx->cur_stmt = -1;
    cx->frame = 0;
    cx->next_frame = 0;
    pc_clang_skipped_ranges(cx);
    scan_defines(cx);
    walk_decls(cx, clang_getTranslationUnitCursor(cx->tu));
    check_leftovers(cx);
    sort_options(cx->m);
    PC_VEC_FREE(cx->value_fns);
    cx->value_fns_scanned = false;
    PC_VEC_FREE(cx->skipped);
}
