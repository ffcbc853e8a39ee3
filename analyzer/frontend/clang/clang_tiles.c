/* clang_tiles.c - the tile shapes in force at each operation of a C++ kernel (docs/model.md
 * section 7, "Tile pieces of root_inner tensors").
 *
 * TileShape::Current().SetVecTile(...) and SetCubeTile(m, k, n[, enableSplitK]) update the current
 * configuration scope (upstream tile_shape.cpp: ConfigManagerNg::CurrentScope()->UpdateValue).
 * A C++ LOOP opens no configuration scope (RecordLoopFunc), so the tiles are one value changed in
 * program order, also across FUNCTIONs.  The state lives in the model itself: each statement
 * carries the tiles in force (pc_stmt.tiles), a new statement takes those of the one made before
 * it, and a setter's own statement carries the tiles it sets.  A kernel's first statement takes the
 * setters its host function runs before the FUNCTION (host code is not walked statement by
 * statement: they are found in source order, straight-line, host loops and branches not followed).
 *
 * SetVecTile takes integers (SetVecTile(1, 32)), a list ({1, 32}, a std::vector variable) or a
 * VecTile; SetCubeTile three lists {m0, m1}, {k0, k1[, k2]}, {n0, n1}.  A value the reader cannot
 * fold leaves the tile set but unknown.
 */

#include "clang_int.h"

#include <string.h>

/* A positive integer the value reader folds, or false. */
static bool tile_int(pc_cx *cx, CXCursor e, int64_t *out)
{
    const pc_expr *v = pc_clang_value_int(cx, e);
    int64_t x;
    if (!v || !pc_expr_is_int(v, &x) || x <= 0)
        return false;
    *out = x;
    return true;
}

/* A list of min..max positive integer constants. */
static bool tile_list(pc_cx *cx, CXCursor e, int64_t *out, int min, int max, int *n)
{
    const pc_expr **dims = NULL;
    int nd = 0;
    if (!pc_clang_value_list(cx, e, &dims, &nd) || nd < min || nd > max)
        return false;
    for (int i = 0; i < nd; i++)
        if (!pc_expr_is_int(dims[i], &out[i]) || out[i] <= 0)
            return false;
    if (n)
        *n = nd;
    return true;
}

static pc_tile_shapes *new_tiles(pc_cx *cx, int stmt)
{
    pc_stmt *st = &cx->m->kernels[cx->kernel].stmts[stmt];
    pc_tile_shapes *t = pc_arena_alloc(pc_model_arena(cx->m), sizeof *t);
    if (st->tiles)
        *t = *st->tiles;
    st->tiles = t;
    return t;
}

static void set_vec(pc_cx *cx, CXCursor call, pc_tile_shapes *t)
{
    int n = pc_clang_call_nargs(call);
    pc_frontend_vec_tile_begin(t);
    bool known = false;
    if (n == 1 && tile_list(cx, pc_clang_call_arg(call, 0), t->vec, 1, PC_TILE_MAX_DIMS, &t->nvec)) {
        known = true; /* SetVecTile({1, 32}) */
    } else if (n >= 1 && n <= PC_TILE_MAX_DIMS) {
        known = true;
        for (int i = 0; i < n && known; i++)
            known = tile_int(cx, pc_clang_call_arg(call, i), &t->vec[i]);
        t->nvec = known ? n : 0;
    }
    pc_frontend_vec_tile_end(t, known, pc_clang_cursor_loc(cx, call));
}

static void set_cube(pc_cx *cx, CXCursor call, pc_tile_shapes *t)
{
    int n = pc_clang_call_nargs(call);
    pc_frontend_cube_tile_begin(t);
    bool known = n >= 3 && tile_list(cx, pc_clang_call_arg(call, 0), t->cube_m, 2, 2, NULL) &&
                 tile_list(cx, pc_clang_call_arg(call, 1), t->cube_k, 2, 3, NULL) &&
                 tile_list(cx, pc_clang_call_arg(call, 2), t->cube_n, 2, 2, NULL);
    pc_frontend_cube_tile_end(t, known, pc_clang_cursor_loc(cx, call));
}

void pc_clang_tiles_call(pc_cx *cx, CXCursor call, const char *name, int stmt)
{
    if (cx->kernel < 0 || stmt < 0 || !name)
        return;
    if (!strcmp(name, "SetVecTile"))
        set_vec(cx, call, new_tiles(cx, stmt));
    else if (!strcmp(name, "SetCubeTile"))
        set_cube(cx, call, new_tiles(cx, stmt));
}

static bool inside(pc_loc in, pc_loc out)
{
    if (!in.line || !out.line)
        return false;
    bool after = in.line > out.line || (in.line == out.line && in.col >= out.col);
    bool before = in.end_line < out.end_line || (in.end_line == out.end_line && in.end_col <= out.end_col);
    return after && before;
}

static void mark(pc_cx *cx, CXCursor call, int arg, pc_operand_role role, bool transposed)
{
    if (arg < 0 || arg >= pc_clang_call_nargs(call) || cx->cur_stmt < 0)
        return;
    pc_loc at = pc_clang_cursor_loc(cx, pc_clang_call_arg(call, arg));
    pc_stmt *st = &cx->m->kernels[cx->kernel].stmts[cx->cur_stmt];
    for (int i = 0; i < st->naccesses; i++) {
        pc_access *a = &st->accesses[i];
        if (a->kind == PC_ACC_READ && a->unit == PC_UNIT_CUBE && a->role == PC_OPERAND_ANY && inside(a->loc, at)) {
            a->role = role;
            a->transposed = transposed;
        }
    }
}

void pc_clang_tiles_matmul(pc_cx *cx, CXCursor call, int left, int right, bool a_trans, bool b_trans)
{
    if (cx->kernel < 0)
        return;
    mark(cx, call, left, PC_OPERAND_LEFT, a_trans);
    mark(cx, call, right, PC_OPERAND_RIGHT, b_trans);
}

/* ---- the tiles in force where a FUNCTION starts ---------------------------------------------- */

static bool loc_before(pc_loc a, pc_loc b)
{
    return a.line < b.line || (a.line == b.line && a.col < b.col);
}

typedef struct host_scan {
    pc_cx *cx;
    pc_loc kernel;          /* the FUNCTION header */
    pc_tile_shapes *t;
    bool any;
} host_scan;

static enum CXChildVisitResult host_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    host_scan *h = data;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    pc_loc at = pc_clang_cursor_loc(h->cx, c);
    if (!loc_before(at, h->kernel))
        return CXChildVisit_Continue; /* at or after the FUNCTION: not yet run */
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        const char *name = pc_clang_call_name(h->cx, c, NULL, NULL);
        if (name && !strcmp(name, "SetVecTile")) {
            set_vec(h->cx, c, h->t);
            h->any = true;
        } else if (name && !strcmp(name, "SetCubeTile")) {
            set_cube(h->cx, c, h->t);
            h->any = true;
        }
    }
    return CXChildVisit_Recurse;
}

typedef struct host_find {
    pc_cx *cx;
    pc_loc kernel;
    CXCursor fn;
} host_find;

/* The main-file function definition whose body holds the FUNCTION. */
static enum CXChildVisitResult find_host(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    host_find *h = data;
    enum CXChildVisitResult pass;
    if (!pc_clang_host_fn_take(c, &pass))
        return pass;
    pc_loc at = pc_clang_cursor_loc(h->cx, c);
    bool starts_before = loc_before(at, h->kernel);
    bool ends_after = at.end_line > h->kernel.line || (at.end_line == h->kernel.line && at.end_col > h->kernel.col);
    if (starts_before && ends_after) {
        h->fn = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* The setters that run before the FUNCTION in its host function (in source order, also those of
 * earlier FUNCTIONs there), applied from nothing; NULL when there is none. */
static const pc_tile_shapes *host_tiles(pc_cx *cx)
{
    const pc_kernel *k = &cx->m->kernels[cx->kernel];
    if (!cx->tu || !k->loc.line)
        return NULL;
    host_find f = {cx, k->loc, clang_getNullCursor()};
    if (!pc_clang_host_function(cx, k->loc, &f.fn)) /* the same search, one visit per translation unit */
        pc_clang_visit_tu(cx->tu, find_host, &f);
    if (clang_Cursor_isNull(f.fn))
        return NULL;
    pc_tile_shapes *t = pc_arena_alloc(pc_model_arena(cx->m), sizeof *t);
    host_scan h = {cx, k->loc, t, false};
    clang_visitChildren(f.fn, host_visit, &h);
    return h.any ? t : NULL;
}

void pc_clang_tiles_inherit(pc_cx *cx, int stmt)
{
    if (cx->kernel < 0)
        return;
    const pc_tile_shapes *cur = NULL;
    if (stmt > 0) {
        cur = cx->m->kernels[cx->kernel].stmts[stmt - 1].tiles;
    } else {
        /* the first statement of a kernel: the setters its host function ran before the FUNCTION,
         * else the tiles the previous kernels left in force */
        cur = host_tiles(cx);
        for (int k = cx->kernel - 1; k >= 0 && !cur; k--)
            if (cx->m->kernels[k].nstmts > 0)
                cur = cx->m->kernels[k].stmts[cx->m->kernels[k].nstmts - 1].tiles;
    }
    cx->m->kernels[cx->kernel].stmts[stmt].tiles = cur;
}
