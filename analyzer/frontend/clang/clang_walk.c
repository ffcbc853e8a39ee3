/* clang_walk.c - the kernel walk: FUNCTION kernels, LOOP / IF / UNROLL statements, tensor and
 * scalar declarations, expression and return statements inside kernels; the statements and blocks
 * they build; and the walk of a translation unit (pc_clang_walk_tu).
 *
 * LOOP / FUNCTION / IF / UNROLL are recognised by the range (or condition) type of the statement
 * their macro expands to - npu::tile_fwk::RecordLoopFunc / RecordFunc / RecordIfBranch with the
 * real headers, the npu::tile_fwk::pc_stub markers with the stub - and located by expansion
 * location (clang_Location_isFromMainFile looks at the spelling location, which for macro-made
 * statements is the header: pypto-api.md 4.5).  Their arguments are read from the source tokens
 * between the statement's expansion start and its body. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

int pc_clang_naccesses(pc_cx *cx)
{
    return cx->kernel < 0 || cx->cur_stmt < 0 ? 0 : cx->m->kernels[cx->kernel].stmts[cx->cur_stmt].naccesses;
}

pc_access *pc_clang_access_at(pc_cx *cx, int i)
{
    return &cx->m->kernels[cx->kernel].stmts[cx->cur_stmt].accesses[i];
}

int pc_clang_unanalysed(pc_cx *cx, pc_loc loc, const char *message)
{
    int id = pc_clang_new_stmt(cx, PC_STMT_UNANALYSED, loc);
    cx->m->kernels[cx->kernel].stmts[id].message = pc_model_strdup(cx->m, message);
    return id;
}

int pc_clang_loc_cmp(pc_loc a, pc_loc b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    return a.col < b.col ? -1 : a.col > b.col;
}

/* Insert statement `id` (already created, appended to the block) at its source position. */
void pc_clang_block_sort_last(pc_cx *cx, pc_cblock b)
{
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    pc_block *blk = block_of(cx, b);
    for (int i = blk->count - 1; i > 0; i--) {
        int cur = blk->stmts[i], prev = blk->stmts[i - 1];
        if (pc_clang_loc_cmp(k->stmts[prev].loc, k->stmts[cur].loc) <= 0)
            break;
        blk->stmts[i] = prev;
        blk->stmts[i - 1] = cur;
    }
}

/* ---- recognising the macro-made statements ------------------------------------------------- */

static pc_cmarker marker_of_type(pc_cx *cx, CXType t)
{
    const char *n = pc_clang_type_name(cx, t);
    if (!strcmp(n, "npu::tile_fwk::RecordLoopFunc") || !strcmp(n, "npu::tile_fwk::pc_stub::LoopMarker"))
        return PC_MK_LOOP;
    if (!strcmp(n, "npu::tile_fwk::RecordFunc") || !strcmp(n, "npu::tile_fwk::pc_stub::FunctionMarker"))
        return PC_MK_FUNCTION;
    if (!strcmp(n, "npu::tile_fwk::RecordProgram") || !strcmp(n, "npu::tile_fwk::pc_stub::ProgramMarker"))
        return PC_MK_PROGRAM;
    if (!strcmp(n, "npu::tile_fwk::RecordIfBranch") || !strcmp(n, "npu::tile_fwk::pc_stub::IfMarker"))
        return PC_MK_IF;
    if (!strcmp(n, "npu::tile_fwk::pc_stub::UnrollMarker"))
        return PC_MK_UNROLL;
    return PC_MK_NONE;
}

/* A for-range statement: [loop variable, range initialiser, body]. */
pc_cmarker pc_clang_for_range_marker(pc_cx *cx, CXCursor s, CXCursor *body)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    pc_cmarker mk = PC_MK_NONE;
    if (ch.count >= 2) {
        *body = ch.items[ch.count - 1];
        for (size_t i = 0; i + 1 < ch.count && mk == PC_MK_NONE; i++)
            if (clang_isExpression(clang_getCursorKind(ch.items[i])))
                mk = marker_of_type(cx, clang_getCursorType(ch.items[i]));
    }
    PC_VEC_FREE(ch);
    return mk;
}

/* Search an if-condition a few levels deep for RecordIfBranch / the IF or UNROLL markers, or a
 * call to RecordLoopFunc::MatchUnrollTimes (real-header UNROLL). */
static pc_cmarker cond_marker(pc_cx *cx, CXCursor c, int depth)
{
    pc_cmarker mk = marker_of_type(cx, clang_getCursorType(c));
    if (mk == PC_MK_IF || mk == PC_MK_UNROLL)
        return mk;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        const char *n = pc_clang_spelling(cx, c);
        if (!strcmp(n, "MatchUnrollTimes"))
            return PC_MK_UNROLL;
    }
    if (depth <= 0)
        return PC_MK_NONE;
    pc_clang_cursors ch = {0};
    pc_clang_children(c, &ch);
    for (size_t i = 0; i < ch.count && mk == PC_MK_NONE; i++) {
        pc_cmarker m2 = cond_marker(cx, ch.items[i], depth - 1);
        if (m2 == PC_MK_IF || m2 == PC_MK_UNROLL)
            mk = m2;
    }
    PC_VEC_FREE(ch);
    return mk == PC_MK_IF || mk == PC_MK_UNROLL ? mk : PC_MK_NONE;
}

/* An if statement's parts: condition, then, else (missing parts are null cursors). */
void pc_clang_if_parts(CXCursor s, CXCursor *cond, CXCursor *then_s, CXCursor *else_s)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
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

/* ---- the headers of the macro-made statements ---------------------------------------------- */

/* The cursor of the marker an if-condition holds (see cond_marker), or a null cursor. */
static CXCursor marker_cursor(pc_cx *cx, CXCursor c, pc_cmarker want, int depth)
{
    if (marker_of_type(cx, clang_getCursorType(c)) == want)
        return c;
    if (want == PC_MK_UNROLL && clang_getCursorKind(c) == CXCursor_CallExpr &&
        !strcmp(pc_clang_spelling(cx, c), "MatchUnrollTimes"))
        return c;
    CXCursor found = clang_getNullCursor();
    if (depth <= 0)
        return found;
    pc_clang_cursors ch = {0};
    pc_clang_children(c, &ch);
    for (size_t i = 0; i < ch.count && clang_Cursor_isNull(found); i++)
        found = marker_cursor(cx, ch.items[i], want, depth - 1);
    PC_VEC_FREE(ch);
    return found;
}

/* The argument expression a marker carries: the statement before the marker in the stub's
 * statement expression (`({ (void)(cond); IfMarker(); })`), or the first argument of a recorder
 * call (real headers: `RecordIfBranch(cond, __FILE__, __LINE__)`).  A null cursor when clang
 * dropped it (an error in the argument). */
static CXCursor marker_argument(CXCursor m)
{
    for (int guard = 0; guard < 8 && !clang_Cursor_isNull(m); guard++) {
        enum CXCursorKind k = clang_getCursorKind(m);
        pc_clang_cursors ch = {0};
        pc_clang_children(m, &ch);
        CXCursor next = clang_getNullCursor();
        if (k == CXCursor_StmtExpr) {
            if (ch.count == 1 && clang_getCursorKind(ch.items[0]) == CXCursor_CompoundStmt) {
                pc_clang_cursors st = {0};
                pc_clang_children(ch.items[0], &st);
                CXCursor arg = st.count >= 2 ? st.items[0] : clang_getNullCursor();
                PC_VEC_FREE(st);
                PC_VEC_FREE(ch);
                return arg;
            }
        } else if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(m) >= 1) {
            PC_VEC_FREE(ch);
            return clang_Cursor_getArgument(m, 0);
        } else if (ch.count == 1) {
            next = ch.items[0];
        }
        PC_VEC_FREE(ch);
        m = next;
    }
    return clang_getNullCursor();
}

/* The expression a macro argument is, inside what the stub wraps it in: the cleanups of a
 * statement with temporaries, `(void)(ARG)`, and the stub's own helper call `UnrollTimes(ARG)`. */
static CXCursor header_expr(pc_cx *cx, CXCursor arg)
{
    pc_clang_cursors ch = {0};
    for (int guard = 0; guard < 16 && !clang_Cursor_isNull(arg); guard++) {
        enum CXCursorKind k = clang_getCursorKind(arg);
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr || k == CXCursor_CStyleCastExpr) {
            pc_clang_children(arg, &ch);
            /* a cast's children: its type reference (none for void) and the operand last */
            if (ch.count < 1 || (k != CXCursor_CStyleCastExpr && ch.count != 1))
                break;
            /* parentheses and casts of the source stay as written: only the stub's own (written
             * in the macro body, not where the argument is) go */
            if (k != CXCursor_UnexposedExpr) {
                uint32_t b, e;
                if (pc_clang_written_offsets(cx, arg, &b, &e) && cx->src[b] == '(')
                    break;
            }
            arg = ch.items[ch.count - 1];
            continue;
        }
        if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(arg) == 1 &&
            !strcmp(pc_clang_spelling(cx, arg), "UnrollTimes")) {
            arg = clang_Cursor_getArgument(arg, 0);
            continue;
        }
        break;
    }
    PC_VEC_FREE(ch);
    return arg;
}

/* Reads hidden in a header expression (IF condition): GetTensorData(t, ...) reads tensor t. */
static enum CXChildVisitResult cursor_reads_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    pc_cx *cx = d;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) < 1)
        return CXChildVisit_Recurse;
    const char *n = pc_clang_spelling(cx, c);
    if (strcmp(n, "GetTensorData") && strcmp(n, "GetInputData"))
        return CXChildVisit_Recurse;
    CXCursor arg = clang_Cursor_getArgument(c, 0);
    int e = pc_clang_value_tensor_entry(cx, arg);
    if (e < 0) /* a FUNCTION list's tensor without a declaration of its own: by name */
        e = pc_clang_env_find(cx, pc_clang_spelling(cx, header_expr(cx, arg)), PC_CENV_TENSOR);
    int tid = pc_clang_env_tensor(cx, e);
    uint32_t b, en;
    if (tid >= 0 && pc_clang_written_offsets(cx, arg, &b, &en)) {
        bool saved = cx->header_reads;
        cx->header_reads = true;
        pc_clang_access(cx, tid, PC_ACC_READ, PC_UNIT_NONE, pc_clang_loc_range(cx, b, en));
        cx->header_reads = saved;
    }
    return CXChildVisit_Recurse; /* its indices may read tensor data too */
}

static void cursor_header_reads(pc_cx *cx, CXCursor e)
{
    if (cursor_reads_visit(e, clang_getNullCursor(), cx) == CXChildVisit_Recurse)
        clang_visitChildren(e, cursor_reads_visit, cx);
}

/* The written text of a macro's argument list: cx->src between the '(' after the macro name at
 * `begin` and the ')' that ends at `end`, without the spaces at its ends. */
static const char *macro_arg_text(pc_cx *cx, uint32_t begin, uint32_t end)
{
    uint32_t open = begin;
    while (open < end && cx->src[open] != '(')
        open++;
    uint32_t close = end;
    while (close > open && cx->src[close - 1] != ')')
        close--;
    if (open >= end || close <= open + 1)
        return NULL;
    uint32_t tb = open + 1, te = close - 1;
    while (tb < te && (cx->src[tb] == ' ' || cx->src[tb] == '\t' || cx->src[tb] == '\n' || cx->src[tb] == '\r'))
        tb++;
    while (te > tb && (cx->src[te - 1] == ' ' || cx->src[te - 1] == '\t' || cx->src[te - 1] == '\n' ||
                       cx->src[te - 1] == '\r'))
        te--;
    return te > tb ? pc_model_strdup(cx->m, pc_arena_strndup(cx->scratch, cx->src + tb, te - tb)) : NULL;
}

/* Is argument i of a call written in the source (not a default argument)? */
static bool written_arg(pc_cx *cx, CXCursor call, int i, uint32_t *b, uint32_t *e)
{
    if (i >= clang_Cursor_getNumArguments(call))
        return false;
    CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
    return !clang_Cursor_isNull(a) && pc_clang_written_offsets(cx, a, b, e) && *e > *b;
}

/* The recorder call a LOOP / FUNCTION holds: the stub's `({ (void)RecordLoopFunc(...); LoopMarker(); })`
 * (FUNCTION: FunctionHeader(name, lists...)) or the real headers' `RecordLoopFunc(...)` /
 * `RecordFunc(...)`, with upstream's arguments (LOOP: name, funcType, iterName, range, unrollList,
 * submitBeforeLoop, parallel).  A null cursor when clang dropped it. */
static CXCursor marker_recorder(pc_cx *cx, CXCursor s, pc_cmarker want, int min_args)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(s, &ch);
    CXCursor m = clang_getNullCursor();
    for (size_t i = 0; i + 1 < ch.count && clang_Cursor_isNull(m); i++)
        if (clang_isExpression(clang_getCursorKind(ch.items[i])) &&
            marker_of_type(cx, clang_getCursorType(ch.items[i])) == want)
            m = ch.items[i];
    PC_VEC_FREE(ch);
    for (int guard = 0; guard < 8 && !clang_Cursor_isNull(m); guard++) {
        enum CXCursorKind k = clang_getCursorKind(m);
        if (k == CXCursor_StmtExpr) {
            m = header_expr(cx, marker_argument(m));
            continue;
        }
        if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(m) >= min_args)
            return m;
        if (k == CXCursor_DeclRefExpr && clang_getCursorKind(clang_getCursorReferenced(m)) == CXCursor_VarDecl) {
            /* FUNCTION written out over a variable, as some upstream tests do with the real
             * headers: `RecordFunc rec("name", {ins}, {outs});  for (auto &step : rec) { ... }` */
            m = pc_clang_decl_init(clang_getCursorReferenced(m));
            continue;
        }
        pc_clang_children(m, &ch);
        m = ch.count == 1 ? ch.items[0] : clang_getNullCursor();
        PC_VEC_FREE(ch);
    }
    return clang_getNullCursor();
}

/* ---- kernels ------------------------------------------------------------------------------------ */

/* An integer constant of the environment a kernel sees: its index in cx->env and value. */
typedef struct env_const { const char *name; size_t index; int64_t value; } env_const;

static int by_name_then_index(const void *a, const void *b)
{
    const env_const *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int by_index(const void *a, const void *b)
{
    const env_const *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

/* The kernel's constants are the integer entries of the environment in force: in the order of
 * each name's first entry, with its last entry's value (a later definition wins).  Sorted, not
 * searched per entry: a file with 30,000 -D macros and 300 kernels took minutes. */
static void add_kernel_constants(pc_cx *cx)
{
    if (cx->kernel < 0)
        return;
    pc_kernel *k = &cx->m->kernels[cx->kernel];
    PC_VEC(env_const) all = {0};
    for (size_t i = 0; i < cx->env.count; i++) {
        pc_cenv *e = &cx->env.items[i];
        int64_t v;
        if (e->kind == PC_CENV_EXPR && (e->frame == cx->frame || e->frame == 0) && e->expr &&
            pc_expr_is_int(e->expr, &v))
            PC_VEC_PUSH(all, ((env_const){e->name, i, v}));
    }
    if (all.count)
        qsort(all.items, all.count, sizeof *all.items, by_name_then_index);
    /* one entry per name: the first's index, the last's value */
    size_t n = 0;
    for (size_t i = 0; i < all.count;) {
        size_t j = i;
        while (j + 1 < all.count && strcmp(all.items[j + 1].name, all.items[i].name) == 0)
            j++;
        all.items[n++] = (env_const){all.items[i].name, all.items[i].index, all.items[j].value};
        i = j + 1;
    }
    if (n)
        qsort(all.items, n, sizeof *all.items, by_index);
    bool fresh = k->nconstants == 0; /* constants already there (none at a kernel's start): search */
    for (size_t i = 0; i < n; i++) {
        if (!fresh)
            pc_kernel_add_constant(cx->m, k, all.items[i].name, all.items[i].value);
        else
            pc_kernel_append_constant(cx->m, k, all.items[i].name, all.items[i].value);
    }
    PC_VEC_FREE(all);
}

/* The function definitions of the translation unit whose bodies lie in the main file (gtest's
 * TEST bodies too, whose names come from a macro and so are not "from the main file"), with their
 * main-file extents: where a kernel's scope is looked up.  Scanned once per translation unit. */
static enum CXChildVisitResult scope_fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    pc_cx *cx = data;
    uint32_t off;
    /* what is not in the main file holds no kernel's scope: the preamble's thousands of stub and
     * system declarations are passed over, not deserialised on every editor reparse */
    if (!pc_clang_main_offset(cx, clang_getCursorLocation(c), &off))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl || k == CXCursor_StructDecl)
        return CXChildVisit_Recurse;
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor) &&
        clang_isCursorDefinition(c)) {
        pc_cscopefn f = {c, 0, 0};
        if (pc_clang_offsets(cx, c, &f.begin, &f.end) && f.end > f.begin)
            PC_VEC_PUSH(cx->scope_fns, f);
    }
    return CXChildVisit_Continue;
}

/* The name of a real-gtest test, whose class is Suite_Name_Test: Suite.Name from the TEST(Suite,
 * Name) (or TEST_F, TEST_P, a project's wrapper with more arguments such as upstream's
 * TEST_F_WITH_COST(Suite, Name, seconds)) the TestBody definition `fn` expands from, as the stub
 * names it; the class name less "_Test" when the definition is not written as such a macro. */
static const char *real_gtest_name(pc_cx *cx, CXCursor fn, const char *cls)
{
    size_t n = strlen(cls);
    const char *name = n > 5 && !strcmp(cls + n - 5, "_Test") ? pc_arena_strndup(cx->scratch, cls, n - 5) : cls;
    uint32_t b, e;
    if (!pc_clang_offsets(cx, fn, &b, &e))
        return name;
    pc_ctoks toks = {0};
    /* the macro's name and its arguments, up to the first ')': `TEST ( Suite , Name )` or
     * `TEST_F_WITH_COST ( Suite , Name , 98 )` */
    const char *close = b < cx->srclen ? memchr(cx->src + b, ')', cx->srclen - b) : NULL;
    if (close)
        pc_clang_src_lex(cx, b, (size_t)(close - cx->src) + 1, &toks);
    const pc_ctok *t = toks.items;
    if (toks.count >= 6 && t[0].kind == PC_CTOK_IDENT && pc_ctok_is(&t[1], "(") && t[2].kind == PC_CTOK_IDENT &&
        pc_ctok_is(&t[3], ",") && t[4].kind == PC_CTOK_IDENT && (pc_ctok_is(&t[5], ")") || pc_ctok_is(&t[5], ","))) {
        const char *joined = pc_arena_printf(cx->scratch, "%.*s_%.*s", (int)t[2].len, t[2].text, (int)t[4].len,
                                             t[4].text);
        if (!strcmp(joined, name)) /* the class is the one this macro names */
            name = pc_arena_printf(cx->scratch, "%.*s.%.*s", (int)t[2].len, t[2].text, (int)t[4].len, t[4].text);
    }
    PC_VEC_FREE(toks);
    return name;
}

/* The test or host function the statement `s` (a kernel's FUNCTION) is in: gtest's Suite.Name for a
 * TEST / TEST_F body (the stub's pc_stub_test member; with the real gtest, real_gtest_name), else
 * the function's name.  NULL outside the main file. */
static const char *kernel_scope(pc_cx *cx, CXCursor s)
{
    uint32_t sb, se;
    if (!cx->in_main || !pc_clang_offsets(cx, s, &sb, &se))
        return NULL;
    if (!cx->scope_fns_scanned) {
        pc_clang_visit_tu(cx->tu, scope_fn_visit, cx);
        cx->scope_fns_scanned = true;
    }
    CXCursor fn = clang_getNullCursor();
    uint32_t span = UINT32_MAX;
    for (size_t i = 0; i < cx->scope_fns.count; i++) {
        const pc_cscopefn *f = &cx->scope_fns.items[i];
        if (f->begin <= sb && se <= f->end && f->end - f->begin < span) { /* the innermost */
            fn = f->fn;
            span = f->end - f->begin;
        }
    }
    if (clang_Cursor_isNull(fn))
        return NULL;
    const char *name = pc_clang_spelling(cx, fn);
    if (clang_getCursorKind(fn) == CXCursor_CXXMethod && !strcmp(name, "TestBody")) {
        CXCursor cls = clang_getCursorSemanticParent(fn);
        pc_clang_cursors ch = {0};
        pc_clang_children(cls, &ch);
        const char *test = NULL;
        for (size_t i = 0; i < ch.count && !test; i++)
            if (clang_getCursorKind(ch.items[i]) == CXCursor_VarDecl &&
                !strcmp(pc_clang_spelling(cx, ch.items[i]), "pc_stub_test") &&
                !clang_Cursor_isNull(pc_clang_decl_init(ch.items[i])))
                test = pc_clang_value_string(cx, pc_clang_decl_init(ch.items[i]));
        PC_VEC_FREE(ch);
        if (!test)
            test = real_gtest_name(cx, fn, pc_clang_spelling(cx, cls));
        name = test;
    }
    return *name ? pc_model_strdup(cx->m, name) : NULL;
}

/* The InitListExpr a braced argument is made into (through the conversions and constructions
 * clang wraps it in), or a null cursor. */
static CXCursor braced_list(CXCursor c)
{
    pc_clang_cursors ch = {0};
    for (int guard = 0; guard < 12 && !clang_Cursor_isNull(c); guard++) {
        if (clang_getCursorKind(c) == CXCursor_InitListExpr)
            break;
        pc_clang_children(c, &ch);
        CXCursor next = clang_getNullCursor();
        int nexpr = 0;
        for (size_t i = 0; i < ch.count; i++)
            if (clang_isExpression(clang_getCursorKind(ch.items[i]))) {
                next = ch.items[i];
                nexpr++;
            }
        c = nexpr == 1 ? next : clang_getNullCursor();
    }
    PC_VEC_FREE(ch);
    return c;
}

/* The tensors of FUNCTION(name, {ins}, {outs}[, {{in, out}}]): each element of the braced lists
 * (nested lists flattened), as its written extent. */
static void list_items(pc_cx *cx, CXCursor c, pc_cranges *out, int depth)
{
    uint32_t b, e;
    if (depth > 8 || !pc_clang_written_offsets(cx, c, &b, &e) || e <= b)
        return;
    if (cx->src[b] != '{') {
        PC_VEC_PUSH(*out, ((pc_crange){b, e}));
        return;
    }
    CXCursor il = braced_list(c);
    pc_clang_cursors ch = {0};
    if (!clang_Cursor_isNull(il))
        pc_clang_children(il, &ch);
    for (size_t i = 0; i < ch.count; i++)
        list_items(cx, ch.items[i], out, depth + 1);
    PC_VEC_FREE(ch);
}

void pc_clang_kernel_function(pc_cx *cx, CXCursor s, CXCursor body)
{
    uint32_t b = 0, se = 0, bo = 0, be = 0;
    const char *name = NULL;
    pc_cranges items = {0};
    bool have_header = pc_clang_offsets(cx, s, &b, &se) && pc_clang_offsets(cx, body, &bo, &be) && bo > b;
    pc_loc loc = pc_clang_cursor_loc(cx, s);
    if (have_header) {
        uint32_t wend = b;
        while (wend < bo && (isalnum((unsigned char)cx->src[wend]) || cx->src[wend] == '_'))
            wend++;
        loc = pc_clang_loc_range(cx, b, wend);
    }
    if (have_header && cx->in_main)
        PC_VEC_PUSH(cx->function_offs, b);
    CXCursor rec = have_header ? marker_recorder(cx, s, PC_MK_FUNCTION, 1) : clang_getNullCursor();
    if (!clang_Cursor_isNull(rec)) {
        CXCursor name_arg = clang_Cursor_getArgument(rec, 0);
        name = pc_clang_value_string(cx, name_arg);
        if (!name)
            name = pc_clang_written_spelling(cx, header_expr(cx, name_arg));
        uint32_t ab, ae;
        for (int i = 1; written_arg(cx, rec, i, &ab, &ae); i++)
            if (cx->src[ab] == '{')
                list_items(cx, clang_Cursor_getArgument(rec, (unsigned)i), &items, 0);
    } else if (have_header) {
        /* clang dropped the header for an error there: read from the written one, so that the
         * error is this statement's (shown, not a region left out) */
        pc_clang_claim_errors(cx, b, bo);
        name = pc_clang_function_header_from_tokens(cx, b, bo, &items);
    }
    if (!name || !*name)
        name = pc_arena_printf(cx->scratch, "function_%u", loc.line);

    int saved_kernel = cx->kernel, saved_loop = cx->cur_loop;
    pc_cblock saved_block = cx->block;
    int k = pc_model_add_kernel(cx->m, name, loc);
    cx->m->kernels[k].scope = kernel_scope(cx, s);
    cx->kernel = k;
    cx->cur_loop = -1;
    cx->block = (pc_cblock){PC_CBLK_KERNEL, 0, 0};
    cx->cur_stmt = -1;
    uint32_t eb, ee;
    if (pc_clang_offsets(cx, body, &eb, &ee)) {
        /* where clang cut its parse off inside the body (bracket nesting past its limit), the
         * body's cursor ends there: the kernel still reaches its closing brace, so the LOOPs and
         * errors clang left behind are this kernel's (clang_recover.c) */
        uint32_t text_end = cx->tu_errors ? pc_clang_block_end(cx, eb, ee) : ee;
        if (text_end > ee)
            PC_VEC_PUSH(cx->cut_bodies, ((pc_cspan){k, -1, ee, text_end}));
        PC_VEC_PUSH(cx->kernel_spans, ((pc_cspan){k, -1, eb, text_end}));
    }

    size_t mark = cx->env.count;
    /* parameters: the tensors of the FUNCTION lists, in order, once each */
    for (size_t i = 0; i < items.count; i++) {
        const char *spelling = pc_clang_src_spelling(cx, items.items[i].b, items.items[i].e);
        bool seen = false;
        for (int t = 0; t < cx->m->kernels[k].ntensors && !seen; t++)
            seen = !strcmp(cx->m->kernels[k].tensors[t].variable, spelling);
        if (seen)
            continue;
        pc_loc tloc = pc_clang_loc_range(cx, items.items[i].b, items.items[i].e);
        int e = pc_clang_env_find(cx, spelling, PC_CENV_TENSOR);
        pc_chost *info = e >= 0 && cx->env.items[e].is_host ? &cx->env.items[e].host : NULL;
        if (info && info->loc.line)
            tloc = info->loc;
        int tid = pc_clang_make_tensor(cx, spelling, PC_TENSOR_PARAM, tloc, info);
        if (e < 0)
            e = pc_clang_env_push(cx, PC_CENV_TENSOR, spelling, NULL);
        cx->env.items[e].kernel = k;
        cx->env.items[e].tensor = tid;
    }
    add_kernel_constants(cx);
    pc_clang_kernel_block(cx, body);
    /* entries made for this kernel (list spellings without a declaration) go; host entries stay */
    cx->env.count = mark;

    cx->kernel = saved_kernel;
    cx->cur_loop = saved_loop;
    cx->block = saved_block;
    cx->cur_stmt = -1;
    PC_VEC_FREE(items);
}

/* ---- kernel statements ------------------------------------------------------------------------- */

void pc_clang_kernel_block(pc_cx *cx, CXCursor body)
{
    size_t mark = cx->env.count;
    if (clang_getCursorKind(body) == CXCursor_CompoundStmt) {
        pc_clang_cursors ch = {0};
        pc_clang_children(body, &ch);
        /* statements clang dropped leave tokens between the children (see pc_clang_uncovered_code) */
        uint32_t bb, be, cb, ce;
        bool gaps = cx->in_main && pc_clang_offsets(cx, body, &bb, &be) && be > bb + 1;
        uint32_t from = bb + 1;
        for (size_t i = 0; i < ch.count; i++) {
            if (gaps && pc_clang_offsets(cx, ch.items[i], &cb, &ce)) {
                uint32_t at = pc_clang_uncovered_code(cx, from, cb, false);
                if (at != UINT32_MAX)
                    pc_clang_report_dropped(cx, at, "statement");
                from = ce > from ? ce : from;
            } else {
                gaps = false;
            }
            pc_clang_walk_kernel_stmt(cx, ch.items[i]);
        }
        if (gaps) {
            uint32_t at = pc_clang_uncovered_code(cx, from, be - 1, false);
            if (at != UINT32_MAX)
                pc_clang_report_dropped(cx, at, "statement");
        }
        PC_VEC_FREE(ch);
    } else if (!clang_Cursor_isNull(body)) {
        pc_clang_walk_kernel_stmt(cx, body);
    }
    cx->env.count = mark;
}

void pc_clang_begin_leaf(pc_cx *cx, CXCursor s)
{
    cx->cur_stmt = -1;
    cx->header_reads = false;
    cx->stmt_loc = pc_clang_cursor_loc(cx, s);
}

/* Clang errors inside a leaf statement, or a declaration whose initializer clang dropped: that
 * statement (or part of it) is not in the model. */
static void end_leaf(pc_cx *cx, CXCursor s)
{
    uint32_t b, e;
    if (pc_clang_offsets(cx, s, &b, &e)) {
        const char *err = pc_clang_claim_errors(cx, b, e > b ? e : b + 1);
        if (err)
            pc_clang_unanalysed(cx, cx->stmt_loc,
                       pc_arena_printf(cx->scratch, "statement not modelled (clang: %s)", err));
        else if (clang_getCursorKind(s) == CXCursor_DeclStmt) {
            /* a declarator whose initializer clang dropped: the declarators' extents stop short */
            pc_clang_cursors ch = {0};
            pc_clang_children(s, &ch);
            uint32_t from = b, cb, ce, at = UINT32_MAX;
            for (size_t i = 0; i < ch.count && at == UINT32_MAX; i++)
                if (pc_clang_offsets(cx, ch.items[i], &cb, &ce)) {
                    at = pc_clang_uncovered_code(cx, from, cb, true);
                    from = ce > from ? ce : from;
                }
            if (at == UINT32_MAX)
                at = pc_clang_uncovered_code(cx, from, e, true);
            PC_VEC_FREE(ch);
            if (at != UINT32_MAX) {
                pc_clang_report_dropped(cx, at, "declaration");
                cx->cur_stmt = -1;
                return;
            }
        }
        if (!err && (err = pc_clang_rejected_use(cx, s)) != NULL)
            pc_clang_unanalysed(cx, cx->stmt_loc, err);
    }
    cx->cur_stmt = -1;
}

/* The range argument of a LOOP recorder (a macro argument: the stub's wrappers go first). */
static bool range_value(pc_cx *cx, CXCursor r, const pc_expr **b, const pc_expr **e, const pc_expr **s)
{
    return pc_clang_value_range(cx, header_expr(cx, r), b, e, s);
}

/* A boolean argument (submitBeforeLoop, parallel): true/false or a constant. */
static bool bool_value(pc_cx *cx, CXCursor arg, bool *out)
{
    const pc_expr *e = pc_clang_value_int_written(cx, arg);
    int64_t v;
    if (!e || !pc_expr_is_int(e, &v))
        return false;
    *out = v != 0;
    return true;
}

/* The header of a LOOP from its recorder call's arguments (h->loc and h->header set): NULL when
 * read, else why the LOOP is not modelled. */
void pc_clang_loop_unroll(pc_cx *cx, pc_cloop_header *h, const pc_expr **list, int n, bool ok, pc_loc at)
{
    if (ok && n > 0) {
        h->unroll = pc_arena_alloc(pc_model_arena(cx->m), sizeof *h->unroll * (size_t)n);
        for (int i = 0; i < n && ok; i++)
            ok = list[i] && pc_expr_is_int(list[i], &h->unroll[i]) && h->unroll[i] > 0;
        h->nunroll = ok ? n : 0;
    }
    if (!ok)
        pc_model_add_message(cx->m, PC_MSG_WARNING, at,
                             "unroll list is not a list of positive integer constants; modelled as [1]");
}

static const char *loop_header_from_cursors(pc_cx *cx, CXCursor s, CXCursor rec, pc_cloop_header *h)
{
    if (clang_Cursor_getNumArguments(rec) < 4)
        return "LOOP not modelled: expected LOOP(name, type, index, range, ...)";
    if (!range_value(cx, clang_Cursor_getArgument(rec, 3), &h->begin, &h->end, &h->step))
        return "LOOP not modelled: its LoopRange could not be read";
    CXCursor name_arg = clang_Cursor_getArgument(rec, 0);
    h->name = pc_clang_value_string(cx, name_arg);
    if (!h->name)
        h->name = pc_clang_written_spelling(cx, header_expr(cx, name_arg));
    /* the index variable is the for-range statement's VarDecl */
    pc_clang_cursors lc = {0};
    pc_clang_children(s, &lc);
    for (size_t i = 0; i < lc.count && !h->index; i++)
        if (clang_getCursorKind(lc.items[i]) == CXCursor_VarDecl)
            h->index = pc_clang_spelling(cx, lc.items[i]);
    PC_VEC_FREE(lc);
    if (!h->index)
        h->index = pc_clang_value_string(cx, clang_Cursor_getArgument(rec, 2));

    /* reads of tensor data in the range (LoopRange(GetTensorData(n, {0}))) happen before the loop */
    cx->cur_stmt = -1;
    cx->stmt_loc = h->header;
    cursor_header_reads(cx, clang_Cursor_getArgument(rec, 3));
    cx->cur_stmt = -1;

    uint32_t ab, ae;
    if (written_arg(cx, rec, 4, &ab, &ae)) {
        const pc_expr **list;
        int nl;
        bool ok = pc_clang_value_list_written(cx, clang_Cursor_getArgument(rec, 4), &list, &nl);
        pc_clang_loop_unroll(cx, h, list, nl, ok, pc_clang_loc_range(cx, ab, ae));
    }
    if (written_arg(cx, rec, 5, &ab, &ae) && !bool_value(cx, clang_Cursor_getArgument(rec, 5), &h->submit))
        pc_model_add_message(cx->m, PC_MSG_WARNING, h->header, "submitBeforeLoop is not a constant; modelled as false");
    if (written_arg(cx, rec, 6, &ab, &ae) && !bool_value(cx, clang_Cursor_getArgument(rec, 6), &h->parallel))
        pc_model_add_message(cx->m, PC_MSG_WARNING, h->header, "parallel is not a constant; modelled as false");
    return NULL;
}

static void loop_stmt(pc_cx *cx, CXCursor s, CXCursor body)
{
    pc_arena *a = pc_model_arena(cx->m);
    uint32_t b = 0, bo = 0, se, be;
    pc_loc sloc = pc_clang_cursor_loc(cx, s);
    if (!pc_clang_offsets(cx, s, &b, &se) || !pc_clang_offsets(cx, body, &bo, &be) || bo < b) {
        pc_clang_unanalysed(cx, sloc, "LOOP not modelled: its header could not be read from the source");
        return;
    }
    pc_cloop_header h = {0};
    CXCursor rec = marker_recorder(cx, s, PC_MK_LOOP, 3);
    const char *err;
    if (clang_Cursor_isNull(rec)) {
        /* clang dropped it for an error there: the loop is modelled from the written header, so
         * that error is this statement's (shown, not a region left out) */
        pc_clang_claim_errors(cx, b, bo);
        err = pc_clang_loop_header_from_tokens(cx, b, bo, &h);
    } else {
        /* the LOOP word, and the header up to the macro's ')' (the extent of the range expression) */
        uint32_t wend = b;
        while (wend < bo && (isalnum((unsigned char)cx->src[wend]) || cx->src[wend] == '_'))
            wend++;
        h.loc = h.header = pc_clang_loc_range(cx, b, wend);
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
        uint32_t rb, re;
        for (size_t i = 0; i + 1 < ch.count; i++)
            if (clang_isExpression(clang_getCursorKind(ch.items[i])) && pc_clang_offsets(cx, ch.items[i], &rb, &re) &&
                re > rb)
                h.header = pc_clang_loc_range(cx, b, re);
        PC_VEC_FREE(ch);
        err = loop_header_from_cursors(cx, s, rec, &h);
    }
    if (err) {
        pc_clang_unanalysed(cx, h.loc.line ? h.loc : sloc, err);
        return;
    }
    pc_loc loc = h.loc, header = h.header;
    const char *name = h.name, *index = h.index ? h.index : "";
    if (!name || !*name)
        name = pc_arena_printf(cx->scratch, "loop_%u", loc.line);
    const pc_expr *lb = h.begin, *le = h.end, *ls = h.step;
    int64_t *unroll = h.unroll;
    int nunroll = h.nunroll;
    bool submit = h.submit, parallel = h.parallel;

    pc_kernel *k = &cx->m->kernels[cx->kernel];
    pc_loop_spec spec = {.name = name, .loc = loc, .header = header, .index_var = index, .begin = lb, .end = le,
                         .step = ls, .unroll = unroll, .nunroll = nunroll, .submit_before_loop = submit,
                         .parallel = parallel, .parent = cx->cur_loop};
    int lid = pc_kernel_add_loop_spec(cx->m, k, &spec);
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
    pc_clang_cursors lc = {0};
    pc_clang_children(s, &lc);
    CXCursor ivar = clang_getNullCursor();
    for (size_t i = 0; i < lc.count && clang_Cursor_isNull(ivar); i++)
        if (clang_getCursorKind(lc.items[i]) == CXCursor_VarDecl)
            ivar = lc.items[i];
    PC_VEC_FREE(lc);
    int ie = pc_clang_env_push(cx, PC_CENV_EXPR, index, clang_Cursor_isNull(ivar) ? NULL : &ivar);
    cx->env.items[ie].expr = pc_expr_sym(a, index);
    pc_clang_kernel_block(cx, body);
    cx->env.count = mark;
    cx->block = saved_block;
    cx->cur_loop = saved_loop;
}

/* The condition of an IF as a model expression (pc_clang_value_cond) and its source spelling:
 * the header is the macro invocation `IF(...)`, the extent of the if-statement's condition. */
static const pc_expr *if_condition(pc_cx *cx, CXCursor cond, pc_loc *hloc, const char **text)
{
    uint32_t b, e;
    *hloc = pc_clang_cursor_loc(cx, cond);
    *text = NULL;
    if (!cx->in_main || !pc_clang_offsets(cx, cond, &b, &e))
        return NULL; /* an IF outside the file being walked is not read (its text is not at hand) */
    CXCursor arg = marker_argument(marker_cursor(cx, cond, PC_MK_IF, 6));
    arg = header_expr(cx, arg);
    uint32_t ab, ae;
    if (!clang_Cursor_isNull(arg) && pc_clang_written_offsets(cx, arg, &ab, &ae) && ae > ab)
        *text = pc_model_strdup(cx->m, pc_arena_strndup(cx->scratch, cx->src + ab, ae - ab));
    else
        *text = macro_arg_text(cx, b, e);
    cx->stmt_loc = *hloc;
    if (clang_Cursor_isNull(arg)) {
        /* clang dropped the condition for an error in it: both paths, and the error is this
         * header's (shown, not a region left out) */
        pc_clang_claim_errors(cx, b, e);
        return NULL;
    }
    cursor_header_reads(cx, arg);
    bool data = false;
    return pc_clang_value_cond(cx, arg, &data);
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
        pc_clang_if_parts(cur, &cond, &then_s, &else_s);
        pc_loc hloc;
        const char *text;
        cx->header_reads = false;
        const pc_expr *c = if_condition(cx, cond, &hloc, &text);
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
        pc_clang_kernel_block(cx, then_s);
        cx->block = saved;
        cur = clang_getNullCursor();
        if (clang_Cursor_isNull(else_s))
            break;
        if (clang_getCursorKind(else_s) == CXCursor_IfStmt) {
            CXCursor c2, t2, e2;
            pc_clang_if_parts(else_s, &c2, &t2, &e2);
            if (!clang_Cursor_isNull(c2) && cond_marker(cx, c2, 6) == PC_MK_IF) {
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
        pc_clang_kernel_block(cx, else_s);
        cx->block = saved;
    }
    cx->cur_stmt = -1;
}

static void unroll_stmt(pc_cx *cx, CXCursor s)
{
    CXCursor cond, then_s, else_s;
    pc_clang_if_parts(s, &cond, &then_s, &else_s);
    CXCursor arg = header_expr(cx, marker_argument(marker_cursor(cx, cond, PC_MK_UNROLL, 6)));
    int64_t factor = 0;
    const pc_expr *e = clang_Cursor_isNull(arg) ? NULL : pc_clang_value_int_written(cx, arg);
    bool ok = e && pc_expr_is_int(e, &factor) && factor > 0;
    pc_loc loc = pc_clang_cursor_loc(cx, s);
    if (!ok) {
        pc_clang_unanalysed(cx, loc, "UNROLL body not modelled: its factor is not a positive integer constant");
        return;
    }
    int sid = pc_clang_new_stmt(cx, PC_STMT_UNROLL, loc);
    cx->m->kernels[cx->kernel].stmts[sid].unroll_factor = factor;
    pc_cblock saved = cx->block;
    cx->block = (pc_cblock){PC_CBLK_UNROLL, sid, 0};
    pc_clang_kernel_block(cx, then_s);
    cx->block = saved;
    cx->cur_stmt = -1;
}

static void kernel_vardecl(pc_cx *cx, CXCursor v)
{
    const char *name = pc_clang_spelling(cx, v);
    pc_cvclass vc = pc_clang_classify_type(cx, clang_getCursorType(v));
    if (vc == PC_VC_TENSOR) {
        pc_clang_tensor_decl(cx, v);
        return;
    }
    if (vc != PC_VC_OTHER)
        pc_clang_scalar_decl(cx, v, vc, name);
    /* scalars read from tensor data: SymbolicScalar idx = GetTensorData(t, {i}) */
    pc_clang_cursors ch = {0};
    pc_clang_children(v, &ch);
    for (size_t i = 0; i < ch.count; i++)
        if (clang_isExpression(clang_getCursorKind(ch.items[i])))
            pc_clang_tensor_stmt(cx, ch.items[i]);
    PC_VEC_FREE(ch);
}

/* auto [a, b] = TopK(x, k): each binding is a new value of the call. */
static void binding_decl(pc_cx *cx, CXCursor d)
{
    pc_clang_cursors ch = {0};
    pc_clang_children(d, &ch);
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
        pc_loc loc = pc_clang_name_loc(cx, b, name);
        int e = pc_clang_env_push(cx, PC_CENV_TENSOR, name, &b);
        int tid;
        if (r.kind == PC_TR_NAMED) {
            tid = pc_clang_make_tensor(cx, name, PC_TENSOR_VIEW, loc, NULL);
            cx->m->kernels[cx->kernel].tensors[tid].base = r.tensor;
        } else {
            tid = pc_clang_make_tensor(cx, name, r.kind == PC_TR_ANON ? PC_TENSOR_VALUE : PC_TENSOR_CREATED, loc, NULL);
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
        pc_clang_option_site(cx, s);
        return;
    }
    if (!name && pc_clang_mentions(cx, s, "SetRuntimeOption")) {
        pc_clang_option_site(cx, s);
        return;
    }
    if (name && is_tile_call(name)) {
        pc_clang_tiles_call(cx, c, name, pc_clang_new_stmt(cx, PC_STMT_OP, cx->stmt_loc)); /* tile-shape setting: no tensor work */
        return;
    }
    if (pc_clang_tensor_stmt(cx, s))
        return;
    pc_clang_scalar_assign(cx, s);
}

void pc_clang_walk_kernel_stmt(pc_cx *cx, CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    switch (k) {
    case CXCursor_CompoundStmt:
        pc_clang_kernel_block(cx, s);
        return;
    case CXCursor_NullStmt: case CXCursor_BreakStmt: case CXCursor_ContinueStmt:
        return;
    case CXCursor_DeclStmt: {
        pc_clang_begin_leaf(cx, s);
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
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
        pc_cmarker mk = pc_clang_for_range_marker(cx, s, &body);
        if (mk == PC_MK_LOOP) {
            cx->cur_stmt = -1;
            loop_stmt(cx, s, body);
        } else if (mk == PC_MK_FUNCTION || mk == PC_MK_PROGRAM) {
            /* FUNCTION nested in a kernel: its work is part of the enclosing kernel */
            uint32_t eb, ee;
            if (mk == PC_MK_FUNCTION && cx->in_main && pc_clang_offsets(cx, s, &eb, &ee))
                PC_VEC_PUSH(cx->function_offs, eb);
            if (cx->in_main && pc_clang_offsets(cx, body, &eb, &ee))
                PC_VEC_PUSH(cx->kernel_spans, ((pc_cspan){cx->kernel, -1, eb, ee}));
            pc_clang_kernel_block(cx, body);
        } else {
            pc_clang_host_loop(cx, s);
        }
        cx->cur_stmt = -1;
        return;
    }
    case CXCursor_IfStmt: {
        CXCursor cond, then_s, else_s;
        pc_clang_if_parts(s, &cond, &then_s, &else_s);
        pc_cmarker mk = clang_Cursor_isNull(cond) ? PC_MK_NONE : cond_marker(cx, cond, 6);
        if (mk == PC_MK_IF)
            if_stmt(cx, s);
        else if (mk == PC_MK_UNROLL)
            unroll_stmt(cx, s);
        else
            pc_clang_host_if(cx, s);
        return;
    }
    case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt:
        pc_clang_host_loop(cx, s);
        return;
    case CXCursor_SwitchStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_CXXTryStmt:
    case CXCursor_CXXCatchStmt: case CXCursor_LabelStmt: {
        bool saved = cx->in_host_loop;
        cx->in_host_loop = true;
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
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
        pc_clang_begin_leaf(cx, s);
        pc_clang_cursors ch = {0};
        pc_clang_children(s, &ch);
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
                    int tid = pc_clang_make_tensor(cx, en->name, r.kind == PC_TR_ANON ? PC_TENSOR_VALUE : PC_TENSOR_CREATED,
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
        pc_clang_begin_leaf(cx, s);
        expr_stmt(cx, s);
        end_leaf(cx, s);
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
    pc_clang_walk_decls(cx, clang_getTranslationUnitCursor(cx->tu));
    pc_clang_check_leftovers(cx);
    pc_clang_sort_options(cx->m);
    PC_VEC_FREE(cx->header_constants);
    cx->header_constants_scanned = false;
    PC_VEC_FREE(cx->skipped);
    PC_VEC_FREE(cx->main_toks);
    cx->main_toks_src = NULL;
    PC_VEC_FREE(cx->host_fns);
    cx->host_fns_scanned = false;
    PC_VEC_FREE(cx->scope_fns);
    cx->scope_fns_scanned = false;
}
