/*
 * PC016 upstream-rejects (error): a kernel upstream PyPTO's compiler refuses, said before anything is
 * compiled, with upstream's own message.  Four rules, each from the upstream check that raises the
 * error (facts and message texts from upstream's source; the code is poolcheck's):
 *
 *   1. a reduction on a dtype it does not take (interface/operation/vector/reduction.cpp, Sum / Prod
 *      / Amax / Amin / ArgMax / ArgMin -> CheckTensorDataType, operation_common.cpp):
 *      "Data type DT_FP16 is not in supported types for op: SUM";
 *   2. a tensor-tensor binary op whose two tensors differ in dtype (vector/binary.cpp Add, Sub, ...,
 *      where.cpp, compare.cpp -> CheckTensorsDataTypeConsistency):
 *      "Tensor data type inconsistent, tensor1 dtype: DT_FP32, tensor2 dtype: DT_INT32 for op: ADD";
 *   3. a matmul whose cube tile CheckCubeTiling (cube_operation_impl.cpp) refuses: kL0 and nL0
 *      multiples of 16, every L0 <= its L1 and dividing it, kL0 and nL0 times the operand's bytes
 *      multiples of 32;
 *   4. a vector op whose vector tile has fewer entries than its output has dims
 *      (TileShapeVerifier::VerifyTileShapeSize, run by the ExpandFunction pass on every op
 *      registered with it in opcode.cpp): "Tile shape size 2 is not matched the output shape size 4."
 *
 * Everything is read from the kernel model: the op of each read (pc_access.op, .call), the
 * tensors' dtypes and shapes, the region a read through a view reads, a matmul's operand roles and
 * the tile shapes in force at the statement.  A rule reports only what is certain: an unknown
 * dtype, rank or tile, an op poolcheck's op table does not name, a read that may be one of several
 * tensors (a name an undecided branch binds differently), a BOOL operand (see judged_dtype), a tile
 * whose setter may not reach the kernel (see setter_reaches) or a statement upstream may never trace
 * (a branch decided false, an alternative of a host `if`, a branch on data) gives no finding.
 *
 * Not done: upstream's "TensorSlot[x] already exists in inputSlotDict." (two FUNCTIONs of one build
 * entry listing the same Tensor object) needs what the model does not record: whether a kernel
 * parameter is an input or an output, and which host call runs each FUNCTION.
 */
#include "checks/checks_int.h"

#include <string.h>

/* ---- upstream's facts ------------------------------------------------------------------------- */

/* A reduction and the dtypes it takes (reduction.cpp).  Amax / Amin also take INT8 and UINT8 on
 * DAV_3510 only; the union of the architectures is listed, so a kernel is reported only when no
 * architecture takes it. */
typedef struct reduce_rule {
    const char *op;      /* the op table's C++ name */
    const char *opcode;  /* the name upstream's message uses */
    pc_dtype ok[8];      /* PC_DT_UNKNOWN ends the list */
    const char *takes;   /* for the explanation */
} reduce_rule;

static const reduce_rule reduce_rules[] = {
    {"Sum", "SUM", {PC_DT_FP32, PC_DT_BF16, PC_DT_INT32, PC_DT_INT16}, "FP32, BF16, INT32 and INT16"},
    {"Prod", "PROD", {PC_DT_FP32, PC_DT_INT32, PC_DT_INT16}, "FP32, INT32 and INT16"},
    {"Amax", "AMAX", {PC_DT_FP16, PC_DT_BF16, PC_DT_INT16, PC_DT_INT32, PC_DT_FP32, PC_DT_INT8, PC_DT_UINT8},
     "FP16, BF16, INT16, INT32 and FP32 (INT8 and UINT8 on DAV_3510)"},
    {"Amin", "AMIN", {PC_DT_FP16, PC_DT_BF16, PC_DT_INT16, PC_DT_INT32, PC_DT_FP32, PC_DT_INT8, PC_DT_UINT8},
     "FP16, BF16, INT16, INT32 and FP32 (INT8 and UINT8 on DAV_3510)"},
    {"ArgMax", "ARGMAX", {PC_DT_FP16, PC_DT_BF16, PC_DT_FP32}, "FP16, BF16 and FP32"},
    {"ArgMin", "ARGMIN", {PC_DT_FP16, PC_DT_BF16, PC_DT_FP32}, "FP16, BF16 and FP32"},
};

/* Tensor-tensor ops that require their two tensors to have one dtype, with the name upstream's
 * message uses (binary.cpp, where.cpp, compare.cpp).  `first` is the index, among the call's
 * tensor reads, of tensor1: Where(condition, input, other) compares input and other. */
typedef struct same_dtype_rule {
    const char *op;
    const char *opcode;
    int nreads;          /* the rule holds for calls with exactly this many tensor operands */
    int first;
} same_dtype_rule;

static const same_dtype_rule same_dtype_rules[] = {
    {"Add", "ADD", 2, 0},           {"Sub", "SUB", 2, 0},
    {"Mul", "MUL", 2, 0},           {"Div", "DIV", 2, 0},
    {"Fmod", "MOD", 2, 0},          {"Remainder", "REM", 2, 0},
    {"Maximum", "MAXIMUM", 2, 0},   {"Minimum", "MINIMUM", 2, 0},
    {"BitwiseAnd", "BITWISEAND", 2, 0}, {"BitwiseOr", "BITWISEOR", 2, 0},
    {"BitwiseXor", "BITWISEXOR", 2, 0}, {"Compare", "COMPARE", 2, 0},
    {"Where", "WHERE", 3, 1},
};

/* Vector ops whose trace-time ops are all registered with TileShapeVerifier (opcode.cpp) and whose
 * output has as many dims as their largest tensor operand: elementwise, unary, Cast, Where, the
 * reductions (their ROW*_SINGLE op keeps the reduced axis as 1; keepdim only reshapes after it),
 * Clip (MAXS / MINS), Permute, GatherMask, Pad, FillPad.  Left out: ops whose output rank is not the
 * operands' (Expand, OneHot, Gather), ops registered without the verifier (Reciprocal, Compare with
 * a scalar, Transpose) and composite ops poolcheck has not followed. */
static const char *const vec_rank_ops[] = {
    "Add", "Sub", "Mul", "Div", "Maximum", "Minimum", "Fmod", "Remainder", "BitwiseAnd", "BitwiseOr",
    "BitwiseXor", "BitwiseNot", "Exp", "Exp2", "Expm1", "Neg", "Rsqrt", "Relu", "Sqrt", "Ceil",
    "Floor", "Trunc", "Round", "Abs", "Ln", "Log", "Log1p", "IsFinite", "IsNan", "Sign", "Erf",
    "Sin", "Cos", "Tanh", "LogicalNot", "LogicalAnd", "Cast", "Where", "Clip", "Permute",
    "GatherMask", "FillPad", "Pad", "Sum", "Amax", "Amin", "Prod", "ArgMax", "ArgMin",
};

/* The matmuls whose API runs CheckMatmulOperands, and so CheckCubeTiling, with the tile in force
 * (TransposedBatchMatmul sets tiles of its own). */
static const char *const cube_ops[] = {"Matmul", "BatchMatmul", "MatmulMX", "BatchMatmulMX"};

static bool in_list(const char *const *list, size_t n, const char *op)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], op) == 0)
            return true;
    return false;
}

/* Upstream's BytesOf: whole bytes, a 4-bit type counting as one. */
static int64_t dtype_bytes(pc_dtype t)
{
    int bits = pc_dtype_bits(t);
    return bits <= 0 ? 0 : (bits + 7) / 8;
}

/* ---- the reads of one op call ----------------------------------------------------------------- */

enum { MAX_CALL_READS = 8 };

typedef struct op_call {
    const char *op;
    int call;
    const pc_access *reads[MAX_CALL_READS];
    int nreads;
    bool too_many;       /* more reads than kept: not judged */
} op_call;

static bool same_loc(pc_loc a, pc_loc b)
{
    return a.line == b.line && a.col == b.col && a.end_line == b.end_line && a.end_col == b.end_col;
}

/* Two reads of one argument: the argument may be one of several tensors (an undecided branch bound
 * the name differently), so which tensor the op gets is not known. */
static bool has_alternatives(const op_call *oc)
{
    for (int i = 0; i < oc->nreads; i++)
        for (int j = 0; j < i; j++)
            if (same_loc(oc->reads[i]->loc, oc->reads[j]->loc))
                return true;
    return false;
}

static pc_dtype read_dtype(const pc_kernel *k, const pc_access *a)
{
    return a->tensor >= 0 && a->tensor < k->ntensors ? k->tensors[a->tensor].dtype : PC_DT_UNKNOWN;
}

/* The dtype a dtype rule judges, PC_DT_UNKNOWN when it is not certain.  BOOL is not: the op table
 * gives Where's result its condition's dtype (BOOL) where upstream gives it the input's
 * (vector/where.cpp), and everything computed from it inherits that, so a BOOL operand of a
 * reduction or of an arithmetic op is more likely that than a real one. */
static pc_dtype judged_dtype(const pc_kernel *k, const pc_access *a)
{
    pc_dtype t = read_dtype(k, a);
    return t == PC_DT_BOOL ? PC_DT_UNKNOWN : t;
}

static const char *read_name(pc_chk_ctx *c, const pc_kernel *k, const pc_access *a)
{
    char buf[64];
    if (a->tensor < 0 || a->tensor >= k->ntensors)
        return "?";
    return pc_arena_strdup(c->arena, pc_tensor_label(&k->tensors[a->tensor], buf, sizeof buf));
}

/* The dims of what a read reads: the viewed region, else the tensor; -1 when not known. */
static int read_rank(const pc_kernel *k, const pc_access *a)
{
    if (a->region_rank >= 0)
        return a->region_rank;
    if (a->tensor < 0 || a->tensor >= k->ntensors)
        return -1;
    return k->tensors[a->tensor].ndims;
}

/* ---- where a tile was set ------------------------------------------------------------------------ */

/* A kernel's text: from its FUNCTION / def to the end of its last statement or loop. */
typedef struct extent { const char *file; uint32_t start, start_col, end; } extent;

/* One run of the check over a model: the kernel being judged and every kernel's text. */
typedef struct run {
    pc_chk_ctx *c;
    const pc_model *m;
    int kernel;
    extent *ext;
} run;

static void grow_end(extent *e, pc_loc l)
{
    uint32_t last = l.end_line ? l.end_line : l.line;
    if (l.line && last > e->end)
        e->end = last;
}

static bool same_file(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* Is (line, col) at or after the kernel's start? */
static bool from_start(const extent *e, uint32_t line, uint32_t col)
{
    return line > e->start || (line == e->start && col >= e->start_col);
}

/* Does the tile set at `setter` reach kernel r->kernel as upstream runs it?  The frontends carry
 * the tiles in program order across the kernels of a file, but each gtest TEST (and each
 * jit-compiled function) starts from tiles of its own: a setter in another kernel's body, or
 * before another kernel that comes first, may not reach this one.  Trusted: a setter in this
 * kernel's body, or between the kernel before it and its start, in its file. */
static bool setter_reaches(const run *r, pc_loc setter)
{
    const extent *k = &r->ext[r->kernel];
    if (!setter.line || !same_file(setter.file, k->file))
        return false;
    bool inside = from_start(k, setter.line, setter.col) && setter.line <= k->end;
    if (!inside && from_start(k, setter.line, setter.col))
        return false; /* after the kernel's end */
    if (inside)
        return true;
    for (int j = 0; j < r->m->nkernels; j++) {
        const extent *o = &r->ext[j];
        if (j == r->kernel || !same_file(o->file, k->file))
            continue;
        bool o_first = o->start < k->start || (o->start == k->start && o->start_col < k->start_col);
        if (!o_first)
            continue;
        bool after_o_start = from_start(o, setter.line, setter.col);
        if (!after_o_start || setter.line <= o->end)
            return false; /* before an earlier kernel, or in one */
    }
    return true;
}

/* ---- the rules -------------------------------------------------------------------------------- */

#define WHY "upstream PyPTO rejects this kernel at compile time"

static bool reduce_dtype(pc_chk_ctx *c, const pc_kernel *k, const op_call *oc)
{
    for (size_t r = 0; r < sizeof reduce_rules / sizeof *reduce_rules; r++) {
        const reduce_rule *rule = &reduce_rules[r];
        if (strcmp(rule->op, oc->op) != 0 || oc->nreads != 1)
            continue;
        pc_dtype t = judged_dtype(k, oc->reads[0]);
        if (t == PC_DT_UNKNOWN)
            return false;
        for (int i = 0; i < 8 && rule->ok[i] != PC_DT_UNKNOWN; i++)
            if (rule->ok[i] == t)
                return false;
        pc_diag_report(c->sink, PC_CHK_UPSTREAM_REJECTS, oc->reads[0]->loc, k->name,
                       "Data type DT_%s is not in supported types for op: %s (" WHY ": %s takes %s only, and "
                       "'%s' is %s; cast it first)",
                       pc_dtype_name(t), rule->opcode, rule->op, rule->takes, read_name(c, k, oc->reads[0]),
                       pc_dtype_name(t));
        return true;
    }
    return false;
}

static bool binary_dtype(pc_chk_ctx *c, const pc_kernel *k, const op_call *oc)
{
    for (size_t r = 0; r < sizeof same_dtype_rules / sizeof *same_dtype_rules; r++) {
        const same_dtype_rule *rule = &same_dtype_rules[r];
        if (strcmp(rule->op, oc->op) != 0 || oc->nreads != rule->nreads)
            continue;
        const pc_access *a = oc->reads[rule->first], *b = oc->reads[rule->first + 1];
        pc_dtype ta = judged_dtype(k, a), tb = judged_dtype(k, b);
        if (ta == PC_DT_UNKNOWN || tb == PC_DT_UNKNOWN || ta == tb)
            return false;
        pc_diag *d = pc_diag_report(
            c->sink, PC_CHK_UPSTREAM_REJECTS, a->loc, k->name,
            "Tensor data type inconsistent, tensor1 dtype: DT_%s, tensor2 dtype: DT_%s for op: %s (" WHY
            ": %s needs both tensors of one dtype, and '%s' is %s while '%s' is %s; cast one of them)",
            pc_dtype_name(ta), pc_dtype_name(tb), rule->opcode, rule->op, read_name(c, k, a), pc_dtype_name(ta),
            read_name(c, k, b), pc_dtype_name(tb));
        if (d)
            pc_diag_note(c->sink, d, b->loc, "tensor2 '%s' (%s) is here", read_name(c, k, b), pc_dtype_name(tb));
        return true;
    }
    return false;
}

/* The first of CheckCubeTiling's refusals the tile and the operands meet, in upstream's order, as
 * upstream words it (arena); NULL when it passes or an operand's dtype is not known. */
static const char *cube_refusal(pc_chk_ctx *c, const pc_tile_shapes *t, pc_dtype ta, pc_dtype tb)
{
    int64_t m0 = t->cube_m[0], m1 = t->cube_m[1], k0 = t->cube_k[0], k1a = t->cube_k[1];
    /* SetCubeTile / CubeTile: a k list of two gives kL1b = kL1a */
    int64_t k1b = t->cube_k[2] ? t->cube_k[2] : t->cube_k[1];
    int64_t n0 = t->cube_n[0], n1 = t->cube_n[1];
    if (k0 % 16 != 0 || n0 % 16 != 0)
        return pc_arena_printf(c->arena, "kL0(%lld) and nL0(%lld) must be aligned to 16 elements", (long long)k0,
                               (long long)n0);
    struct { int64_t l0, l1; const char *n0, *n1; } pairs[] = {
        {k0, k1a, "kL0", "kL1a"}, {k0, k1b, "kL0", "kL1b"}, {n0, n1, "nL0", "nL1"}, {m0, m1, "mL0", "mL1"}};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (!(pairs[i].l0 <= pairs[i].l1 && pairs[i].l1 % pairs[i].l0 == 0))
            return pc_arena_printf(c->arena, "Invalid L1/L0 relation: %s=%lld, %s=%lld, require %s <= %s && %s %% %s == 0",
                                   pairs[i].n0, (long long)pairs[i].l0, pairs[i].n1, (long long)pairs[i].l1,
                                   pairs[i].n0, pairs[i].n1, pairs[i].n1, pairs[i].n0);
    int64_t ba = dtype_bytes(ta), bb = dtype_bytes(tb);
    if (ba == 0 || bb == 0)
        return NULL;
    if (k0 * ba % 32 != 0)
        return pc_arena_printf(c->arena, "kL0 * sizeof(dtype) = %lld bytes, must be 32-byte aligned",
                               (long long)(k0 * ba));
    if (n0 * bb % 32 != 0)
        return pc_arena_printf(c->arena, "nL0 * sizeof(dtype) = %lld bytes, must be 32-byte aligned",
                               (long long)(n0 * bb));
    return NULL;
}

static bool cube_tile(const run *r, const pc_kernel *k, const pc_stmt *s, const op_call *oc)
{
    pc_chk_ctx *c = r->c;
    if (!in_list(cube_ops, sizeof cube_ops / sizeof *cube_ops, oc->op))
        return false;
    const pc_tile_shapes *t = s->tiles;
    if (!t || !t->cube_set || !t->cube_known || !setter_reaches(r, t->cube_loc))
        return false;
    const pc_access *left = NULL, *right = NULL;
    for (int i = 0; i < oc->nreads; i++) {
        if (oc->reads[i]->role == PC_OPERAND_LEFT && !left)
            left = oc->reads[i];
        else if (oc->reads[i]->role == PC_OPERAND_RIGHT && !right)
            right = oc->reads[i];
    }
    if (!left || !right)
        return false;
    /* the alignment and L1/L0 rules come before the dtype ones and need no operand */
    const char *msg = cube_refusal(c, t, read_dtype(k, left), read_dtype(k, right));
    if (!msg)
        return false;
    pc_diag *d = pc_diag_report(c->sink, PC_CHK_UPSTREAM_REJECTS, left->loc, k->name,
                                "%s (" WHY ": its CheckCubeTiling refuses the cube tile in force at this %s, "
                                "m %s, k %s, n %s)",
                                msg, oc->op,
                                pc_arena_printf(c->arena, "[%lld, %lld]", (long long)t->cube_m[0], (long long)t->cube_m[1]),
                                t->cube_k[2] ? pc_arena_printf(c->arena, "[%lld, %lld, %lld]", (long long)t->cube_k[0],
                                                               (long long)t->cube_k[1], (long long)t->cube_k[2])
                                             : pc_arena_printf(c->arena, "[%lld, %lld]", (long long)t->cube_k[0],
                                                               (long long)t->cube_k[1]),
                                pc_arena_printf(c->arena, "[%lld, %lld]", (long long)t->cube_n[0], (long long)t->cube_n[1]));
    if (d && pc_chk_loc_known(t->cube_loc))
        pc_diag_note(c->sink, d, t->cube_loc, "the cube tile is set here");
    return true;
}

static bool vec_rank(const run *r, const pc_kernel *k, const pc_stmt *s, const op_call *oc)
{
    pc_chk_ctx *c = r->c;
    if (!in_list(vec_rank_ops, sizeof vec_rank_ops / sizeof *vec_rank_ops, oc->op))
        return false;
    const pc_tile_shapes *t = s->tiles;
    if (!t || !t->vec_set || !t->vec_known || t->nvec <= 0 || !setter_reaches(r, t->vec_loc))
        return false;
    int rank = -1;
    const pc_access *widest = NULL;
    for (int i = 0; i < oc->nreads; i++) {
        if (oc->reads[i]->unit != PC_UNIT_VECTOR)
            return false;
        int n = read_rank(k, oc->reads[i]);
        if (n < 0)
            return false; /* the output's rank, which upstream prints, is not known */
        if (n > rank) {
            rank = n;
            widest = oc->reads[i];
        }
    }
    if (!widest || t->nvec >= rank)
        return false;
    pc_diag *d = pc_diag_report(c->sink, PC_CHK_UPSTREAM_REJECTS, oc->reads[0]->loc, k->name,
                                "Tile shape size %d is not matched the output shape size %d. (" WHY
                                ": the vector tile in force has %d entr%s and %s's result has %d dims ('%s' has "
                                "%d); give the tile one entry per dim)",
                                t->nvec, rank, t->nvec, t->nvec == 1 ? "y" : "ies", oc->op, rank,
                                read_name(c, k, widest), rank);
    if (d && pc_chk_loc_known(t->vec_loc))
        pc_diag_note(c->sink, d, t->vec_loc, "the vector tile is set here, with %d entr%s", t->nvec,
                     t->nvec == 1 ? "y" : "ies");
    return true;
}

/* One op call: the first rule it breaks, in the order upstream checks them (the dtype rules and
 * the cube tile while tracing the call, the vector tile in a pass afterwards). */
static void judge_call(const run *r, const pc_kernel *k, const pc_stmt *s, const op_call *oc)
{
    if (oc->too_many || oc->nreads == 0 || has_alternatives(oc))
        return;
    if (reduce_dtype(r->c, k, oc) || binary_dtype(r->c, k, oc) || cube_tile(r, k, s, oc))
        return;
    (void)vec_rank(r, k, s, oc);
}

static void judge_stmt(const run *r, const pc_kernel *k, const pc_stmt *s)
{
    /* the calls of the statement, in the order of their first read */
    op_call calls[16];
    int ncalls = 0;
    for (int i = 0; i < s->naccesses; i++) {
        const pc_access *a = &s->accesses[i];
        if (a->kind != PC_ACC_READ || !a->op || a->call < 0)
            continue;
        op_call *oc = NULL;
        for (int j = 0; j < ncalls && !oc; j++)
            if (calls[j].call == a->call)
                oc = &calls[j];
        if (!oc) {
            if (ncalls == (int)(sizeof calls / sizeof *calls))
                continue;
            oc = &calls[ncalls++];
            *oc = (op_call){.op = a->op, .call = a->call};
        }
        if (oc->nreads < MAX_CALL_READS)
            oc->reads[oc->nreads++] = a;
        else
            oc->too_many = true;
    }
    for (int i = 0; i < ncalls; i++)
        judge_call(r, k, s, &calls[i]);
}

/* ---- which statements upstream traces --------------------------------------------------------- */

static bool is_loop_var(const pc_kernel *k, const char *name)
{
    for (int i = 0; i < k->nloops; i++)
        if ((k->loops[i].index_var && strcmp(k->loops[i].index_var, name) == 0) ||
            (k->loops[i].factor_var && strcmp(k->loops[i].factor_var, name) == 0))
            return true;
    return false;
}

/* Does the condition depend on a loop of the kernel (an index, an unroll factor, is_loop_begin /
 * is_loop_end)?  Such a branch is a path of the loop: upstream records every path. */
static bool on_loop(const pc_kernel *k, const pc_expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END:
        return true;
    case PC_EXPR_SYM:
        return e->name && is_loop_var(k, e->name);
    default:
        return on_loop(k, e->a) || on_loop(k, e->b);
    }
}

static void walk_block(const run *r, const pc_kernel *k, const pc_block *b, int depth);

static void walk_stmt(const run *r, const pc_kernel *k, int id, int depth)
{
    if (id < 0 || id >= k->nstmts || depth > 256)
        return;
    const pc_stmt *s = &k->stmts[id];
    switch (s->kind) {
    case PC_STMT_OP:
        judge_stmt(r, k, s);
        break;
    case PC_STMT_LOOP:
        if (s->loop >= 0 && s->loop < k->nloops)
            walk_block(r, k, &k->loops[s->loop].body, depth + 1);
        break;
    case PC_STMT_UNROLL:
        walk_block(r, k, &s->unroll_body, depth + 1);
        break;
    case PC_STMT_IF: {
        /* A branch decided true is traced; one decided false is not.  An undecided one is traced
         * when it is a path of a loop (its condition, or for the else branch a sibling's, is on a
         * loop's values); otherwise it may be an alternative of a host `if`, of which the trace
         * takes one, or depend on data: not judged. */
        bool paths = false;
        for (int i = 0; i < s->nbranches; i++)
            paths = paths || on_loop(k, s->branches[i].cond);
        for (int i = 0; i < s->nbranches; i++) {
            const pc_branch *br = &s->branches[i];
            bool traced = br->decided == 1 ||
                          (br->decided == -1 && paths && (br->cond ? on_loop(k, br->cond) : !br->cond_text));
            if (traced)
                walk_block(r, k, &br->body, depth + 1);
        }
        break;
    }
    case PC_STMT_UNANALYSED:
        break;
    }
}

static void walk_block(const run *r, const pc_kernel *k, const pc_block *b, int depth)
{
    for (int i = 0; i < b->count; i++)
        walk_stmt(r, k, b->stmts[i], depth);
}

void pc_chk_upstream_rejects(pc_chk_ctx *c)
{
    const pc_model *m = c->model;
    if (!m || m->fatal || m->nkernels <= 0)
        return;
    run r = {.c = c, .m = m, .ext = pc_arena_alloc(c->arena, (size_t)m->nkernels * sizeof(extent))};
    for (int k = 0; k < m->nkernels; k++) {
        const pc_kernel *kern = &m->kernels[k];
        extent *e = &r.ext[k];
        *e = (extent){kern->loc.file, kern->loc.line, kern->loc.col, kern->loc.line};
        grow_end(e, kern->loc);
        for (int i = 0; i < kern->nstmts; i++)
            if (same_file(kern->stmts[i].loc.file, e->file))
                grow_end(e, kern->stmts[i].loc);
        for (int i = 0; i < kern->nloops; i++)
            if (same_file(kern->loops[i].loc.file, e->file))
                grow_end(e, kern->loops[i].header.line ? kern->loops[i].header : kern->loops[i].loc);
    }
    for (int k = 0; k < m->nkernels; k++) {
        r.kernel = k;
        walk_block(&r, &m->kernels[k], &m->kernels[k].body, 0);
    }
}
