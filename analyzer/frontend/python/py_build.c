/*
 * py_build.c - building the kernel model from evaluated values: model tensors (parameters, op
 * results, views, created tensors), the accesses of the statement being evaluated, flushing them
 * into one PC_STMT_OP of the current block, and the PC012 statements of what is not modelled.
 *
 * Outside a kernel (host mode, c->kernel < 0) nothing is recorded.
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <stdint.h>
#include <string.h>

/* ---- tensors and accesses ------------------------------------------------------------------------ */

pc_kernel *pc_py_kernel(pc_py_ctx *c) { return &c->m->kernels[c->kernel]; }

static pc_loc node_loc(pc_py_ctx *c, const pc_py_node *at)
{
    if (at && at->line)
        return pc_py_loc(c, at);
    return pc_model_loc(c->m, c->file, c->stmt_line, c->stmt_col, c->stmt_end_line, c->stmt_end_col);
}

void pc_py_access(pc_py_ctx *c, int tensor, pc_access_kind kind, pc_unit unit, const pc_py_node *at)
{
    if (!pc_py_in_kernel(c) || tensor < 0)
        return;
    c->acc = pc_py_room_for_one(c, c->acc, c->nacc, &c->capacc, 16, sizeof *c->acc);
    pc_py_pending_access *p = &c->acc[c->nacc++];
    p->tensor = tensor;
    p->kind = kind;
    p->unit = unit;
    p->loc = node_loc(c, at);
    p->op = NULL;
    p->call = p->axis = -1;
    p->region = NULL;
    p->region_rank = -1;
}

int pc_py_new_tensor(pc_py_ctx *c, const char *variable, pc_tensor_kind kind, pc_dtype dt,
                     const pc_expr **shape, int ndims, const pc_py_node *at)
{
    pc_kernel *k = pc_py_kernel(c);
    int id = pc_kernel_add_tensor(c->m, k, variable, kind, node_loc(c, at));
    pc_tensor *t = &k->tensors[id];
    t->dtype = dt;
    t->ndims = shape ? ndims : -1;
    t->shape = shape && ndims >= 0 ? shape : NULL;
    t->scope_loop = kind == PC_TENSOR_PARAM ? -1 : c->loop;
    if (kind != PC_TENSOR_PARAM) {
        c->defined = pc_py_room_for_one(c, c->defined, c->ndefined, &c->capdefined, 8, sizeof *c->defined);
        c->defined[c->ndefined++] = id;
    }
    return id;
}

void pc_py_tensor_shape(pc_py_ctx *c, const pc_py_val *v, const pc_expr ***shape, int *ndims, pc_dtype *dt)
{
    if (v->kind == PV_TENSOR && pc_py_in_kernel(c) && v->tensor >= 0) {
        const pc_tensor *t = &pc_py_kernel(c)->tensors[v->tensor];
        *shape = (const pc_expr **)t->shape;
        *ndims = t->shape ? t->ndims : -1;
        *dt = t->dtype;
        return;
    }
    *shape = (const pc_expr **)v->shape;
    *ndims = v->shape ? v->ndims : -1;
    *dt = v->dtype;
}

int pc_py_materialise(pc_py_ctx *c, pc_py_val *v, const char *variable, const pc_py_node *at)
{
    if (!pc_py_in_kernel(c))
        return -1;
    int id = -1;
    switch (v->kind) {
    case PV_TENSOR:
        return v->tensor;
    case PV_PENDING:
        id = pc_py_new_tensor(c, variable, PC_TENSOR_VALUE, v->dtype, v->shape, v->ndims, at);
        pc_py_access(c, id, PC_ACC_DEFINE, v->unit, at);
        break;
    case PV_VIEW:
        if (v->tensor < 0)
            return -1;
        /* A view reads its base and allocates nothing: no define access (it would look like a
         * write of the base's memory), just the tensor with its base. */
        pc_py_access(c, v->tensor, PC_ACC_READ, PC_UNIT_NONE, v->node ? v->node : at);
        id = pc_py_new_tensor(c, variable, PC_TENSOR_VIEW, v->dtype, v->shape, v->ndims, at);
        pc_py_kernel(c)->tensors[id].base = v->tensor;
        break;
    case PV_CREATE: {
        id = pc_py_new_tensor(c, variable, PC_TENSOR_CREATED, v->dtype, v->shape, v->ndims, at);
        if (v->s && *v->s)
            pc_py_kernel(c)->tensors[id].name = pc_model_strdup(c->m, v->s);
        /* full/zeros/ones fill their tensor: vector work that writes all of it, as `t[:] = e`
         * would.  pypto.tensor only declares it (no access). */
        if (v->unit != PC_UNIT_NONE)
            pc_py_access(c, id, PC_ACC_WRITE_WHOLE, v->unit, at);
        break;
    }
    default:
        return -1;
    }
    *v = pc_py_mkval(PV_TENSOR);
    v->tensor = id;
    return id;
}

/* An operand read by an op executing on `unit`. */
void pc_py_read_operand(pc_py_ctx *c, pc_py_val *v, pc_unit unit, const pc_py_node *at)
{
    switch (v->kind) {
    case PV_TENSOR:
        pc_py_access(c, v->tensor, PC_ACC_READ, unit, at);
        if (v->alt) /* a name an open `if` bound to one of several tensors: each is read */
            for (int i = 0; i < v->nitems; i++)
                pc_py_access(c, v->items[i].tensor, PC_ACC_READ, unit, at);
        break;
    case PV_VIEW:
        /* An inline slice is read straight from its base: it allocates nothing.  Its region is
         * what a cube -> vector copy moves (docs/model.md section 7). */
        pc_py_access(c, v->tensor, PC_ACC_READ, unit, at);
        if (c->nacc > 0 && c->acc[c->nacc - 1].tensor == v->tensor && v->shape && v->ndims >= 0) {
            c->acc[c->nacc - 1].region = v->shape;
            c->acc[c->nacc - 1].region_rank = v->ndims;
        }
        break;
    case PV_PENDING:
    case PV_CREATE: {
        int id = pc_py_materialise(c, v, NULL, at);
        pc_py_access(c, id, PC_ACC_READ, unit, at);
        break;
    }
    case PV_SEQ:
        for (int i = 0; i < v->nitems; i++)
            pc_py_read_operand(c, &v->items[i], unit, at);
        break;
    default:
        break;
    }
}

/* Flush helpers ------------------------------------------------------------------------------ */

void pc_py_begin_stmt(pc_py_ctx *c, const pc_py_node *stmt)
{
    c->nacc = 0;
    c->ndefined = 0;
    c->stmt_line = stmt->line;
    c->stmt_col = stmt->col;
    c->stmt_end_line = stmt->end_line;
    c->stmt_end_col = stmt->end_col;
}

pc_py_suspended_stmt pc_py_suspend_stmt(pc_py_ctx *c)
{
    pc_py_suspended_stmt s = {c->acc, c->nacc, c->capacc, c->defined, c->ndefined, c->capdefined,
                              c->stmt_line, c->stmt_col, c->stmt_end_line, c->stmt_end_col};
    c->acc = NULL;
    c->nacc = c->capacc = 0;
    c->defined = NULL;
    c->ndefined = c->capdefined = 0;
    return s;
}

void pc_py_resume_stmt(pc_py_ctx *c, const pc_py_suspended_stmt *s)
{
    c->acc = s->acc;
    c->nacc = s->nacc;
    c->capacc = s->capacc;
    c->defined = s->defined;
    c->ndefined = s->ndefined;
    c->capdefined = s->capdefined;
    c->stmt_line = s->line;
    c->stmt_col = s->col;
    c->stmt_end_line = s->end_line;
    c->stmt_end_col = s->end_col;
}

pc_py_place pc_py_place_now(const pc_py_ctx *c)
{
    pc_py_place p = {c->frame, c->file, c->src};
    return p;
}

void pc_py_place_set(pc_py_ctx *c, const pc_py_place *p)
{
    c->frame = p->frame;
    c->file = p->file;
    c->src = p->src;
}

void pc_py_block_append(pc_py_ctx *c, int stmt)
{
    pc_kernel *k = pc_py_kernel(c);
    pc_block *b;
    if (c->block.stmt >= 0 && c->block.branch < 0)
        b = &k->stmts[c->block.stmt].unroll_body; /* a loop_unroll body traced for one factor */
    else if (c->block.stmt >= 0)
        b = &k->stmts[c->block.stmt].branches[c->block.branch].body;
    else if (c->block.loop >= 0)
        b = &k->loops[c->block.loop].body;
    else
        b = &k->body;
    pc_block_append(c->m, b, stmt);
}

void pc_py_flush_stmt(pc_py_ctx *c, bool force)
{
    if (!pc_py_in_kernel(c)) {
        c->nacc = c->ndefined = 0;
        return;
    }
    if (c->nacc == 0 && c->ndefined == 0 && !force)
        return;
    pc_kernel *k = pc_py_kernel(c);
    pc_loc loc = pc_model_loc(c->m, c->file, c->stmt_line, c->stmt_col, c->stmt_end_line, c->stmt_end_col);
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_OP, loc);
    pc_stmt *s = &k->stmts[sid];
    bool op = false;
    for (int i = 0; i < c->nacc; i++) {
        const pc_py_pending_access *p = &c->acc[i];
        pc_stmt_add_access(c->m, s, p->tensor, p->kind, p->unit, p->loc);
        pc_access_set_op(c->m, &s->accesses[s->naccesses - 1], p->op, p->call, p->axis);
        pc_access_set_region(c->m, &s->accesses[s->naccesses - 1], p->region, p->region_rank);
        /* Declarations and views do no work; everything else is an operation (model.md 4:
         * a root function with no operation produces no instance). */
        if (p->kind == PC_ACC_WRITE_WHOLE || p->kind == PC_ACC_WRITE_ASSEMBLE || p->kind == PC_ACC_WRITE_ELEMENT ||
            p->unit != PC_UNIT_NONE)
            op = true;
    }
    s->has_op = op;
    pc_py_tiles_stmt(c, s);
    for (int i = 0; i < c->ndefined; i++)
        k->tensors[c->defined[i]].def_stmt = sid;
    pc_py_block_append(c, sid);
    c->nacc = c->ndefined = 0;
}


void pc_py_unanalysed(pc_py_ctx *c, const pc_py_node *at, const char *what)
{
    if (!pc_py_in_kernel(c))
        return;
    pc_kernel *k = pc_py_kernel(c);
    pc_loc loc = pc_py_loc(c, at);
    /* one PC012 per place: a helper inlined many times, an unrolled loop, say it once */
    for (int i = 0; i < k->nstmts; i++) {
        const pc_stmt *st = &k->stmts[i];
        if (st->kind == PC_STMT_UNANALYSED && st->loc.line == loc.line && st->loc.col == loc.col &&
            st->loc.file == loc.file)
            return;
    }
    int sid = pc_kernel_add_stmt(c->m, k, PC_STMT_UNANALYSED, loc);
    k = pc_py_kernel(c);
    k->stmts[sid].has_op = false;
    k->stmts[sid].message = pc_model_strdup(c->m, what);
    pc_py_block_append(c, sid);
}
