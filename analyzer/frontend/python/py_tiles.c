/* py_tiles.c - the tile shapes in force at each operation of a Python kernel (docs/model.md
 * section 7, "Tile pieces of root_inner tensors").
 *
 * pypto.set_vec_tile_shapes(*shapes) and pypto.set_cube_tile_shapes(m, k, n[, enable_split_k]) write
 * into the *current* configuration scope (upstream _controller.py: pypto_impl.SetScope).  A
 * pypto.loop / loop_unroll body is a scope of its own (_loop_function: BeginScope ... EndScope), so a
 * tile set inside a loop body is gone after the loop; plain Python code (helpers, `for` over range,
 * `if`) opens no scope, so a helper's setter stays in force after it returns.  `with pypto.options(
 * vec_tile_shapes=..., cube_tile_shapes=...)` sets tiles for its block only.  A setter at module
 * level is the state every kernel starts from.
 *
 * The walker calls:
 *   pc_py_tiles_call     for every pypto.* call: consumes the two setters;
 *   pc_py_tiles_enter/leave around a pypto loop body, pc_py_tiles_with_enter/leave around a `with`;
 *   pc_py_tiles_options  for `with pypto.options(vec_tile_shapes=..., cube_tile_shapes=...)`;
 *   pc_py_tiles_matmul   when a matmul is applied: which operand node is left / right, transposed;
 *   pc_py_tiles_stmt     when a statement is added to the model: stamps the tiles in force and the
 *                        operand roles on its cube reads.
 */
#include "py_int.h"

#include <string.h>

typedef struct tiles_mark {
    pc_loc loc;              /* the operand's node, as the read access records it */
    pc_operand_role role;
    bool transposed;
} tiles_mark;

struct pc_py_tiles {
    const pc_tile_shapes *module;  /* set at module level (c->kernel == -1) */
    const pc_tile_shapes *cur;     /* in force now, in kernel cur_kernel */
    int cur_kernel;
    tiles_mark *marks;             /* matmul operands of the statement being built */
    int nmarks, capmarks;
    bool *with_scoped;             /* per open `with`: did a pypto.options item set tiles */
    int nwith, capwith;
};

static struct pc_py_tiles *state(pc_py_ctx *c)
{
    if (!c->tiles) {
        c->tiles = pc_arena_alloc(c->scratch, sizeof *c->tiles);
        c->tiles->cur_kernel = -1;
    }
    struct pc_py_tiles *st = c->tiles;
    if (st->cur_kernel != c->kernel) {
        /* a new kernel is traced with the module-level tiles */
        st->cur = st->module;
        st->cur_kernel = c->kernel;
    }
    return st;
}

/* A positive integer constant, or false. */
static bool tile_int(const pc_py_val *v, int64_t *out)
{
    if (v->kind != PV_INT || !v->e)
        return false;
    int64_t x;
    if (!pc_expr_is_int(v->e, &x) || x <= 0)
        return false;
    *out = x;
    return true;
}

/* The positional arguments of call, with `*seq` expanded (set_vec_tile_shapes(*tile)). */
static int eval_positional(pc_py_ctx *c, const pc_py_node *call, pc_py_val *out, int cap, bool *unknown)
{
    int n = 0;
    for (int i = 0; i < call->list1.count; i++) {
        const pc_py_node *a = call->list1.items[i];
        if (a->kind == PY_STARRED) {
            pc_py_val v = pc_py_eval(c, a->a);
            if (v.kind != PV_SEQ) {
                *unknown = true;
                continue;
            }
            for (int j = 0; j < v.nitems; j++)
                if (n < cap)
                    out[n++] = v.items[j];
                else
                    *unknown = true;
            continue;
        }
        if (n < cap)
            out[n++] = pc_py_eval(c, a);
        else
            *unknown = true;
    }
    return n;
}

static const pc_py_node *keyword(const pc_py_node *call, const char *name)
{
    for (int i = 0; i < call->list2.count; i++) {
        const pc_py_node *kw = call->list2.items[i];
        if (kw->name && strcmp(kw->name, name) == 0)
            return kw->a;
    }
    return NULL;
}

static pc_tile_shapes *copy_current(pc_py_ctx *c, struct pc_py_tiles *st)
{
    pc_tile_shapes *t = pc_arena_alloc(pc_model_arena(c->m), sizeof *t);
    if (st->cur)
        *t = *st->cur;
    return t;
}

/* A vector tile from n evaluated entries (unknown: some entry could not be evaluated). */
static void vec_from_values(pc_py_ctx *c, struct pc_py_tiles *st, const pc_py_val *vals, int n, bool unknown,
                            pc_loc loc)
{
    pc_tile_shapes *t = copy_current(c, st);
    pc_frontend_vec_tile_begin(t);
    bool known = !unknown && n > 0 && n <= PC_TILE_MAX_DIMS;
    for (int i = 0; known && i < n; i++)
        known = tile_int(&vals[i], &t->vec[t->nvec++]);
    pc_frontend_vec_tile_end(t, known, loc);
    st->cur = t;
}

static void set_vec(pc_py_ctx *c, struct pc_py_tiles *st, const pc_py_node *call)
{
    pc_py_val vals[PC_TILE_MAX_DIMS + 1];
    bool unknown = false;
    int n = eval_positional(c, call, vals, PC_TILE_MAX_DIMS + 1, &unknown);
    if (n == 1 && vals[0].kind == PV_SEQ) { /* set_vec_tile_shapes([1, 32]): the docstring's spelling */
        pc_py_val seq = vals[0];
        n = 0;
        for (int j = 0; j < seq.nitems; j++)
            if (n < PC_TILE_MAX_DIMS + 1)
                vals[n++] = seq.items[j];
    }
    vec_from_values(c, st, vals, n, unknown, pc_py_loc(c, call));
}

/* [a, b] (or [a, b, c] for k), min..max entries: each a positive integer constant. */
static bool pair_val(const pc_py_val *v, int64_t *out, int min, int max)
{
    if (v->kind != PV_SEQ || v->nitems < min || v->nitems > max)
        return false;
    for (int i = 0; i < v->nitems; i++)
        if (!tile_int(&v->items[i], &out[i]))
            return false;
    return true;
}

/* pair_val() of the node's value (false for no node). */
static bool pair(pc_py_ctx *c, const pc_py_node *n, int64_t *out, int min, int max)
{
    if (!n)
        return false;
    pc_py_val v = pc_py_eval(c, n);
    return pair_val(&v, out, min, max);
}

/* `with pypto.options(vec_tile_shapes=[...], cube_tile_shapes=[m, k, n(, split_k)])`: the with
 * block is a scope (config.py options.__enter__: BeginScope with those values). */
void pc_py_tiles_options(pc_py_ctx *c, const pc_py_node *call)
{
    if (!call || call->kind != PY_CALL)
        return;
    struct pc_py_tiles *st = state(c);
    for (int i = 0; i < call->list2.count; i++) {
        const pc_py_node *kw = call->list2.items[i];
        if (!kw->name || !kw->a)
            continue;
        if (st->nwith > 0 && (strcmp(kw->name, "vec_tile_shapes") == 0 || strcmp(kw->name, "cube_tile_shapes") == 0))
            st->with_scoped[st->nwith - 1] = true;
        if (strcmp(kw->name, "vec_tile_shapes") == 0) {
            pc_py_val v = pc_py_eval(c, kw->a);
            bool seq = v.kind == PV_SEQ && v.nitems <= PC_TILE_MAX_DIMS;
            vec_from_values(c, st, seq ? v.items : NULL, seq ? v.nitems : 0, !seq, pc_py_loc(c, kw));
        } else if (strcmp(kw->name, "cube_tile_shapes") == 0) {
            pc_py_val v = pc_py_eval(c, kw->a);
            pc_tile_shapes *t = copy_current(c, st);
            pc_frontend_cube_tile_begin(t);
            bool known = v.kind == PV_SEQ && v.nitems >= 3 && pair_val(&v.items[0], t->cube_m, 2, 2) &&
                         pair_val(&v.items[1], t->cube_k, 2, 3) && pair_val(&v.items[2], t->cube_n, 2, 2);
            pc_frontend_cube_tile_end(t, known, pc_py_loc(c, kw));
            st->cur = t;
        }
    }
}

static void set_cube(pc_py_ctx *c, struct pc_py_tiles *st, const pc_py_node *call)
{
    const pc_py_node *arg[3] = {NULL, NULL, NULL};
    static const char *const names[3] = {"m", "k", "n"};
    for (int i = 0; i < 3; i++)
        arg[i] = i < call->list1.count && call->list1.items[i]->kind != PY_STARRED ? call->list1.items[i]
                                                                                 : keyword(call, names[i]);
    pc_tile_shapes *t = copy_current(c, st);
    pc_frontend_cube_tile_begin(t);
    bool known = pair(c, arg[0], t->cube_m, 2, 2) && pair(c, arg[1], t->cube_k, 2, 3) &&
                 pair(c, arg[2], t->cube_n, 2, 2);
    pc_frontend_cube_tile_end(t, known, pc_py_loc(c, call));
    st->cur = t;
}

bool pc_py_tiles_call(pc_py_ctx *c, const char *leaf, const pc_py_node *call)
{
    if (!leaf || !call)
        return false;
    bool vec = strcmp(leaf, "set_vec_tile_shapes") == 0, cube = strcmp(leaf, "set_cube_tile_shapes") == 0;
    if (!vec && !cube)
        return false;
    struct pc_py_tiles *st = state(c);
    if (vec)
        set_vec(c, st, call);
    else
        set_cube(c, st, call);
    if (c->kernel < 0)
        st->module = st->cur;
    return true;
}

const pc_tile_shapes *pc_py_tiles_enter(pc_py_ctx *c) { return state(c)->cur; }

void pc_py_tiles_leave(pc_py_ctx *c, const pc_tile_shapes *saved)
{
    /* the loop body's scope ends: its setters are undone (EndScope) */
    state(c)->cur = saved;
}

/* A `with` statement: only one holding pypto.options(...tile shapes...) is a tile scope; a setter
 * inside any other `with` stays in force after it. */
const pc_tile_shapes *pc_py_tiles_with_enter(pc_py_ctx *c)
{
    struct pc_py_tiles *st = state(c);
    st->with_scoped = pc_py_room_for_one(c, st->with_scoped, st->nwith, &st->capwith, 8, sizeof *st->with_scoped);
    st->with_scoped[st->nwith++] = false;
    return st->cur;
}

void pc_py_tiles_with_leave(pc_py_ctx *c, const pc_tile_shapes *saved)
{
    struct pc_py_tiles *st = state(c);
    if (st->nwith > 0 && st->with_scoped[--st->nwith])
        st->cur = saved; /* options.__exit__: EndScope */
}

static void add_mark(pc_py_ctx *c, struct pc_py_tiles *st, const pc_py_node *n, pc_operand_role role, int trans)
{
    if (!n || !n->line)
        return;
    st->marks = pc_py_room_for_one(c, st->marks, st->nmarks, &st->capmarks, 8, sizeof *st->marks);
    tiles_mark *mk = &st->marks[st->nmarks++];
    mk->loc = pc_py_loc(c, n);
    mk->role = role;
    /* a transpose flag that cannot be decided counts as transposed: its pieces are not verified */
    mk->transposed = trans != 0;
}

void pc_py_tiles_matmul(pc_py_ctx *c, const pc_py_node *left, const pc_py_node *right, int a_trans, int b_trans)
{
    struct pc_py_tiles *st = state(c);
    add_mark(c, st, left, PC_OPERAND_LEFT, a_trans);
    add_mark(c, st, right, PC_OPERAND_RIGHT, b_trans);
}

static bool same_loc(pc_loc a, pc_loc b)
{
    return a.line == b.line && a.col == b.col && a.end_line == b.end_line && a.end_col == b.end_col &&
           (a.file == b.file || (a.file && b.file && strcmp(a.file, b.file) == 0));
}

void pc_py_tiles_stmt(pc_py_ctx *c, pc_stmt *s)
{
    struct pc_py_tiles *st = state(c);
    s->tiles = st->cur;
    for (int i = 0; i < s->naccesses; i++) {
        pc_access *a = &s->accesses[i];
        if (a->kind != PC_ACC_READ || a->unit != PC_UNIT_CUBE)
            continue;
        for (int j = 0; j < st->nmarks; j++)
            if (same_loc(st->marks[j].loc, a->loc)) {
                a->role = st->marks[j].role;
                a->transposed = st->marks[j].transposed;
                break;
            }
    }
    st->nmarks = 0;
}
