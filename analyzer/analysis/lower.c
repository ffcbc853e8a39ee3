/* lower.c - root_inner buffers that upstream's lowering adds to a root and no tensor of the kernel
 * is (docs/model.md section 4, "What upstream's lowering adds").
 *
 * Two rules, each measured against upstream's compiler (883e7dfb, compiled on CPU) and read from
 * its passes:
 *
 *   FP16 work through FP32 copies.  Upstream's AutoCast pass (tensor_graph_pass/auto_cast) gives
 *   Add / Sub / Mul / Fmod on FP16 an FP32 copy (Cast) of every distinct FP16 operand, of the
 *   operand's shape, and computes in FP32.  A copy of an operand read from global memory (a kernel
 *   parameter, a value from outside the root, a tensor assembled in it) is a node of its own in the
 *   graph partitioner (Iso, graph_partition/); copies whose consumers have the same op and operand
 *   count hash alike, and such a group stays apart from its consumer - each copy a global-memory
 *   buffer between two leaf functions - when some consumer reads two distinct copies and the
 *   operands fit in one vector tile (a group of one merges into its consumer; copies of operands
 *   that span several tiles merge with their isomorphic consumers).
 *
 *   Multi-tile reductions.  Sum / Amax / Amin / Prod over an axis that spans nt >= 4 vector tiles
 *   (the other dims within one tile) expand into a pairwise tree whose two halves stay separate
 *   leaves: two buffers of one register tile (the vector tile along the axis, clipped elsewhere) in
 *   the operand's dtype.  nt <= 3 folds into one leaf.
 *
 * Each buffer is AlignUp(bytes, 512), summed with the root's tensors (no reuse happened between
 * them in any root of the measured data).  What the rules need and cannot know (an operand's
 * shape, the vector tile) leaves the bytes out and says so (PC015). */
#include "analysis_int.h"

#include <string.h>

/* ---- the operands of the op calls on a path -------------------------------------------------- */

typedef struct low_operand {
    int tensor;               /* the tensor the access names (a view tensor, or the base) */
    bool inline_view;         /* View(T, ...) in the call itself: a tensor of its own each time */
    int base;                 /* the tensor read (its base) */
    const pc_expr *const *dims; /* the region read: a View's, a view tensor's, or the tensor's shape */
    int rank;
} low_operand;

typedef struct low_call {
    const pc_stmt *st;
    const char *op;
    int call;
    int nslots;               /* tensor operands read (Mul(h, h) has two slots, one operand) */
    low_operand ops[4];       /* distinct operands (the first four) */
    int nops;
    int axis;
} low_call;

static low_operand operand_of(const an_ctx *c, const pc_access *a)
{
    const pc_kernel *k = c->k;
    low_operand o = {a->tensor, a->region_rank >= 0, c->base[a->tensor], NULL, -1};
    if (a->region_rank >= 0) {
        o.dims = a->region;
        o.rank = a->region_rank;
    } else if (k->tensors[a->tensor].shape) {
        o.dims = k->tensors[a->tensor].shape; /* T itself, or a view tensor of it */
        o.rank = k->tensors[a->tensor].ndims;
    }
    return o;
}

/* The op calls of statement st (its reads grouped by call). */
static int calls_of(const an_ctx *c, const pc_stmt *st, low_call *out, int cap)
{
    int n = 0;
    for (int i = 0; i < st->naccesses; i++) {
        const pc_access *a = &st->accesses[i];
        if (a->kind != PC_ACC_READ || !a->op || a->tensor < 0 || a->tensor >= c->k->ntensors)
            continue;
        low_call *lc = NULL;
        for (int j = 0; j < n && !lc; j++)
            if (out[j].call == a->call)
                lc = &out[j];
        if (!lc) {
            if (n == cap)
                continue;
            lc = &out[n++];
            memset(lc, 0, sizeof *lc);
            lc->st = st;
            lc->op = a->op;
            lc->call = a->call;
            lc->axis = a->axis;
        }
        lc->nslots++;
        /* one copy per distinct tensor: Mul(h, h) reads one, Add(View(x, ..), View(x, ..)) two (each
         * View makes a tensor, whatever its offsets) */
        low_operand o = operand_of(c, a);
        bool dup = false;
        for (int j = 0; j < lc->nops && !dup; j++)
            dup = !o.inline_view && !lc->ops[j].inline_view && lc->ops[j].tensor == o.tensor;
        if (!dup && lc->nops < 4)
            lc->ops[lc->nops++] = o;
    }
    return n;
}

/* ---- what is known of an operand -------------------------------------------------------------- */

/* The static dims of an operand under sets; false when some dim is not known. */
static bool operand_dims(const low_operand *o, const pc_bindings *sets, size_t nsets, int64_t *out)
{
    if (!o->dims || o->rank < 1 || o->rank > PC_TILE_MAX_DIMS)
        return false;
    for (int d = 0; d < o->rank; d++)
        if (!pc_expr_eval(o->dims[d], sets, nsets, &out[d]) || out[d] <= 0)
            return false;
    return true;
}

static bool vec_tile_for(const pc_stmt *st, int rank, int64_t *t)
{
    const pc_tile_shapes *ts = st->tiles;
    if (!ts || !ts->vec_set || !ts->vec_known || ts->nvec < rank)
        return false;
    for (int d = 0; d < rank; d++)
        t[d] = ts->vec[d];
    return true;
}

static int64_t buffer_bytes(const int64_t *dims, int rank, int bits)
{
    int64_t numel = 1;
    for (int d = 0; d < rank; d++) {
        if (dims[d] > INT64_MAX / 64 / (numel ? numel : 1))
            return -1;
        numel *= dims[d];
    }
    return pc_align_up(numel * bits / 8, 512);
}

static void say_unknown(low_result *lr, const pc_stmt *st, const char *why)
{
    if (lr && !lr->why) {
        lr->why = why;
        lr->loc = st->loc;
    }
}

/* ---- the rules ------------------------------------------------------------------------------ */

/* The ops upstream's AutoCast computes in FP32 for an operand of dtype dt (opcode.h's
 * UNSUPPORT_FP16_OPS and UNSUPPORT_BF16_OPS, by the C++ names of the calls that make those
 * opcodes).  Only the ops with two tensor operands matter here: a copy goes to global memory only
 * in a group where some op reads two (below), so the unary ones of the BF16 list never do. */
static bool computes_in_fp32(const char *op, pc_dtype dt)
{
    static const char *const fp16[] = {"Add", "Sub", "Mul", "Fmod", NULL};
    static const char *const bf16[] = {"Add", "Sub", "Mul", "Div", "Fmod", "Remainder", "Maximum", "Minimum",
                                       "BitwiseAnd", "BitwiseOr", "BitwiseXor", "CopySign", NULL};
    const char *const *list = dt == PC_DT_FP16 ? fp16 : dt == PC_DT_BF16 ? bf16 : NULL;
    for (int i = 0; list && list[i]; i++)
        if (!strcmp(op, list[i]))
            return true;
    return false;
}

static bool tree_reduction(const char *op)
{
    return !strcmp(op, "Sum") || !strcmp(op, "Amax") || !strcmp(op, "Amin") || !strcmp(op, "Prod");
}

/* An FP16 copy candidate: a distinct FP16 operand read from global memory, within one vector tile. */
typedef struct low_copy {
    const char *op;
    int nslots;
    int64_t bytes;            /* its tiles' buffers (one per vector tile of the operand) */
    int64_t tiles;
    int call;                 /* which call of the path reads it (an index into the path's calls) */
    int ncopies;              /* how many such copies that call reads */
} low_copy;

int64_t pc_an_lowered_inner(an_ctx *c, const int *stmts, size_t n, const pc_bindings *sets, size_t nsets,
                            low_result *lr)
{
    const pc_kernel *k = c->k;
    int64_t total = 0;
    PC_VEC(low_copy) copies = {0};
    /* Tensors written whole earlier on the path by an op AutoCast computes in FP32: the op's FP32
     * result is what a later op reads (the Cast back and forth is removed, RemoveRedundantCastChain),
     * so they need no copy.  Values made on chip by any other op (Exp, a matmul) are copied. */
    bool *fp32_already = pc_mem_calloc((size_t)(k->ntensors ? k->ntensors : 1), sizeof(bool));
    int ncalls_seen = 0;
    for (size_t i = 0; i < n; i++) {
        const pc_stmt *st = &k->stmts[stmts[i]];
        if (st->kind != PC_STMT_OP)
            continue;
        low_call calls[16];
        int ncalls = calls_of(c, st, calls, 16);
        for (int j = 0; j < ncalls; j++) {
            const low_call *lc = &calls[j];
            if (computes_in_fp32(lc->op, PC_DT_FP16) || computes_in_fp32(lc->op, PC_DT_BF16)) {
                int64_t copy_bytes[4], copy_tiles[4];
                int ncopies = 0;
                for (int o = 0; o < lc->nops; o++) {
                    const low_operand *op = &lc->ops[o];
                    pc_dtype dt = k->tensors[op->base].dtype;
                    if ((dt != PC_DT_FP16 && dt != PC_DT_BF16) || !computes_in_fp32(lc->op, dt) || fp32_already[op->base])
                        continue;
                    int64_t dims[PC_TILE_MAX_DIMS], tile[PC_TILE_MAX_DIMS];
                    if (!operand_dims(op, sets, nsets, dims)) {
                        say_unknown(lr, st, "the shape of an FP16 / BF16 operand upstream copies to FP32 is not known");
                        continue;
                    }
                    if (!vec_tile_for(st, op->rank, tile)) {
                        say_unknown(lr, st, "the vector tile in force at an FP16 / BF16 op upstream computes in "
                                               "FP32 is not known");
                        continue;
                    }
                    /* one Cast per vector tile of the operand, each its own buffer */
                    int64_t b = 0;
                    copy_tiles[ncopies] = pc_an_add_pieces(dims, tile, op->rank, 32, &b, NULL);
                    copy_bytes[ncopies++] = b;
                }
                for (int o = 0; o < ncopies; o++)
                    PC_VEC_PUSH(copies, ((low_copy){lc->op, lc->nslots, copy_bytes[o], copy_tiles[o], ncalls_seen,
                                                    ncopies}));
                ncalls_seen++;
            } else if (tree_reduction(lc->op) && lc->nops == 1) {
                const low_operand *op = &lc->ops[0];
                int bits = pc_dtype_bits(k->tensors[op->base].dtype);
                int64_t dims[PC_TILE_MAX_DIMS], tile[PC_TILE_MAX_DIMS];
                if (lc->axis < 0 || !operand_dims(op, sets, nsets, dims) || lc->axis >= op->rank || bits == 0) {
                    say_unknown(lr, st, "the shape or axis of a reduction is not known");
                    continue;
                }
                if (!vec_tile_for(st, op->rank, tile)) {
                    say_unknown(lr, st, "the vector tile in force at a reduction is not known");
                    continue;
                }
                int ax = lc->axis;
                bool others_one_tile = true;
                for (int d = 0; d < op->rank; d++)
                    others_one_tile &= d == ax || dims[d] <= tile[d];
                if (others_one_tile && pc_ceil_div(dims[ax], tile[ax]) >= 4) {
                    int64_t reg[PC_TILE_MAX_DIMS];
                    for (int d = 0; d < op->rank; d++)
                        reg[d] = d == ax ? tile[d] : dims[d];
                    int64_t b = buffer_bytes(reg, op->rank, bits);
                    if (b > 0) {
                        total += 2 * b;
                        if (lr)
                            lr->kinds |= LOW_REDUCTION;
                    }
                }
            }
        }
        /* the op that writes a value is the op of the last read before the write in the statement
         * (an op's reads come right before the value it makes, nested calls first) */
        const char *last_op = NULL;
        for (int a = 0; a < st->naccesses; a++) {
            const pc_access *ac = &st->accesses[a];
            if (ac->kind == PC_ACC_READ && ac->op)
                last_op = ac->op;
            if ((ac->kind == PC_ACC_DEFINE || ac->kind == PC_ACC_WRITE_WHOLE) && ac->tensor >= 0 &&
                ac->tensor < k->ntensors && k->tensors[ac->tensor].kind != PC_TENSOR_VIEW &&
                !(ac->kind == PC_ACC_DEFINE && ac->unit == PC_UNIT_NONE)) {
                int b = c->base[ac->tensor];
                fp32_already[b] = last_op && computes_in_fp32(last_op, k->tensors[b].dtype);
            }
        }
    }
    /* Copies go to global memory by groups of the same consumer op and slot count (their hash in
     * the partitioner), when some consumer tile of the group reads two distinct copies - unless
     * the group's consumer tiles are one isomorphic group of two or more (every call reads as many
     * copies as the others): then copies and consumers merge 1:n and stay on chip. */
    for (size_t i = 0; i < copies.count; i++) {
        const low_copy *x = &copies.items[i];
        bool paired = false, uniform = true;
        int64_t consumer_tiles = 0;
        int last_call = -1;
        for (size_t j = 0; j < copies.count; j++) {
            const low_copy *y = &copies.items[j];
            if (y->nslots != x->nslots || strcmp(y->op, x->op) != 0)
                continue;
            paired |= y->ncopies >= 2;
            uniform &= y->ncopies == x->ncopies;
            if (y->call != last_call) /* a call's copies are pushed together: count its tiles once */
                consumer_tiles += y->tiles;
            last_call = y->call;
        }
        if (paired && !(uniform && consumer_tiles >= 2)) {
            total += x->bytes;
            if (lr)
                lr->kinds |= LOW_COPIES;
        }
    }
    PC_VEC_FREE(copies);
    pc_mem_free(fp32_already);
    return total;
}
