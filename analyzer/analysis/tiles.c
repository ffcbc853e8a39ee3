/* tiles.c - root_inner tensors stored as tile pieces (docs/model.md section 7, "Tile pieces
 * of root_inner tensors").
 *
 * Upstream's SplitLargeFanoutTensor pass cuts a root_inner tensor T of static shape S when the least
 * common multiple of its producer's tile and a consumer's tile is smaller than S in some dimension;
 * each piece is a buffer of its own, rounded up to 512 bytes.  Producer tile p, consumer tile c, each
 * clipped to S:
 *   - a matmul result [M, N]: p = (min(m0, M), min(n0, N)), the cube tile where the matmul is written;
 *   - a vector op: p_d = min(vec_d, S_d), the vector tile in force there (entries map to dims from
 *     the front; extra entries are ignored);
 *   - a matmul reading T as its left operand [M, K]: c = (min(m0, M), min(k1, K)).
 * Per consumer b_d = min(lcm(p_d, c_d), S_d); b = S keeps T whole, otherwise T is cut at multiples of
 * b_d from 0 (the last piece clipped).  Consumers with different b each read their own pieces, and a
 * consumer with b = S keeps the whole T as well.
 *
 * Where an input is unknown (no tile setter before the op, a tile that is not a constant, dynamic
 * dims) or the case is not verified on upstream's compiler (T read as a matmul's right operand, a
 * transposed operand), T stays one piece and the kernel says its root_inner bytes may be low.
 */
#include "analysis_int.h"

#include <stdio.h>
#include <string.h>

typedef struct tile_use {
    const pc_stmt *st;
    const pc_access *a;
    bool via_view;      /* the access names a view of T, or reads a region of it (View(T, ...)) */
    int view;           /* the view tensor it names, -1: an inline region or T itself */
} tile_use;

typedef struct tile_tensor {
    bool scanned;
    tile_use producer;
    int nproducers;     /* whole writes / definitions by an op */
    bool other_write;   /* an assemble, element or view write into T */
    tile_use *consumers;
    int nconsumers;
} tile_tensor;

struct an_tiles {
    tile_tensor *t;     /* per tensor of the kernel */
};

/* ---- producers and consumers --------------------------------------------------------------- */

static tile_tensor *uses_of(an_ctx *c, int t)
{
    const pc_kernel *k = c->k;
    if (!c->tiles) {
        c->tiles = pc_arena_alloc(c->arena, sizeof *c->tiles);
        c->tiles->t = pc_arena_alloc(c->arena, (size_t)(k->ntensors ? k->ntensors : 1) * sizeof(tile_tensor));
    }
    tile_tensor *tt = &c->tiles->t[t];
    if (tt->scanned)
        return tt;
    tt->scanned = true;
    int cap = 0;
    for (int s = 0; s < k->nstmts; s++) {
        const pc_stmt *st = &k->stmts[s];
        if (st->kind != PC_STMT_OP)
            continue;
        for (int j = 0; j < st->naccesses; j++) {
            const pc_access *a = &st->accesses[j];
            if (a->tensor < 0 || a->tensor >= k->ntensors || c->base[a->tensor] != t)
                continue;
            bool view = a->tensor != t;
            if (a->kind == PC_ACC_READ) {
                if (a->unit != PC_UNIT_VECTOR && a->unit != PC_UNIT_CUBE)
                    continue; /* data movement fuses with its producer */
                if (tt->nconsumers == cap) {
                    int ncap = cap ? cap * 2 : 4;
                    tt->consumers = pc_arena_grow(c->arena, tt->consumers, (size_t)cap, (size_t)ncap,
                                                  sizeof *tt->consumers);
                    cap = ncap;
                }
                tt->consumers[tt->nconsumers++] = (tile_use){st, a, view || a->region_rank >= 0, view ? a->tensor : -1};
            } else if (a->kind == PC_ACC_DEFINE && k->tensors[a->tensor].kind == PC_TENSOR_VIEW) {
                continue; /* making a view writes nothing */
            } else if (a->kind == PC_ACC_DEFINE && a->unit == PC_UNIT_NONE &&
                       k->tensors[a->tensor].kind == PC_TENSOR_CREATED) {
                continue; /* a declaration */
            } else if ((a->kind == PC_ACC_DEFINE || a->kind == PC_ACC_WRITE_WHOLE) && !view) {
                if (tt->nproducers++ == 0)
                    tt->producer = (tile_use){st, a, false, -1};
            } else {
                tt->other_write = true;
            }
        }
    }
    return tt;
}

/* ---- the rule -------------------------------------------------------------------------------- */

typedef struct tile_why {
    const char *text;   /* NULL: the rule applied (or nothing to cut) */
    pc_loc loc;
} tile_why;

static bool is_factor_or_constant(const pc_kernel *k, const char *name)
{
    for (int l = 0; l < k->nloops; l++)
        if (k->loops[l].factor_var && strcmp(k->loops[l].factor_var, name) == 0)
            return true;
    for (int i = 0; i < k->nconstants; i++)
        if (strcmp(k->constants[i].name, name) == 0)
            return true;
    return false;
}

/* A dim fixed when the root is compiled: an integer, or one made of unroll factor variables and
 * the kernel's constants (x[i:i+t] under loop_unroll is t rows in the factor-t root). */
static bool static_dim(const pc_kernel *k, const pc_expr *e)
{
    int64_t v;
    if (!e)
        return false;
    if (pc_expr_is_int(e, &v))
        return true;
    const char *names[16];
    size_t n = pc_expr_symbols(e, names, 0, 16);
    if (n == 0 || n >= 16)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!is_factor_or_constant(k, names[i]))
            return false;
    return true;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* min(lcm(a, b), cap) without overflow (a, b >= 1). */
static int64_t lcm_capped(int64_t a, int64_t b, int64_t cap)
{
    int64_t q = a / gcd64(a, b);
    if (q > cap / b)
        return cap;
    return min64(q * b, cap);
}

static void why_set(tile_why *w, const char *text, pc_loc loc)
{
    if (!w->text) {
        w->text = text;
        w->loc = loc;
    }
}

static bool loc_known(pc_loc l) { return l.line > 0; }

/* The setter's name in the kernel's language. */
static const char *setter(const an_ctx *c, bool cube)
{
    if (c->model->lang == PC_LANG_CPP)
        return cube ? "TileShape::Current().SetCubeTile" : "TileShape::Current().SetVecTile";
    return cube ? "pypto.set_cube_tile_shapes" : "pypto.set_vec_tile_shapes";
}

/* The vector tile of the op at u, clipped to S; false (and why) when it is not known. */
static bool vec_tile(an_ctx *c, const tile_use *u, const int64_t *S, int n, int64_t *out, tile_why *why)
{
    const pc_tile_shapes *ts = u->st->tiles;
    if (!ts || !ts->vec_set) {
        why_set(why, pc_arena_printf(c->arena, "no %s precedes the vector op", setter(c, false)), u->a->loc);
        return false;
    }
    if (!ts->vec_known) {
        why_set(why, "the vector tile in force at the vector op is not a constant", ts->vec_loc);
        return false;
    }
    if (ts->nvec < n) {
        why_set(why, pc_arena_printf(c->arena, "the vector tile in force at the vector op has %d entr%s for %d dims",
                                     ts->nvec, ts->nvec == 1 ? "y" : "ies", n),
                ts->vec_loc);
        return false;
    }
    for (int d = 0; d < n; d++)
        out[d] = min64(ts->vec[d], S[d]);
    return true;
}

static bool cube_known(an_ctx *c, const tile_use *u, tile_why *why)
{
    const pc_tile_shapes *ts = u->st->tiles;
    if (!ts || !ts->cube_set) {
        why_set(why, pc_arena_printf(c->arena, "no %s precedes the matmul", setter(c, true)), u->a->loc);
        return false;
    }
    if (!ts->cube_known) {
        why_set(why, "the cube tile in force at the matmul is not a constant", ts->cube_loc);
        return false;
    }
    return true;
}

static bool producer_tile(an_ctx *c, const tile_tensor *tt, const int64_t *S, int n, int64_t *p, tile_why *why,
                          pc_loc tloc)
{
    if (tt->nproducers != 1 || tt->other_write) {
        why_set(why, tt->other_write       ? "it is assembled or written in part (not yet verified on upstream's compiler)"
                     : tt->nproducers == 0 ? "no op produces it"
                                           : "it is written by more than one op",
                tloc);
        return false;
    }
    const tile_use *u = &tt->producer;
    if (u->a->unit == PC_UNIT_VECTOR)
        return vec_tile(c, u, S, n, p, why);
    if (u->a->unit == PC_UNIT_CUBE) {
        if (!cube_known(c, u, why))
            return false;
        if (n != 2) {
            why_set(why, "it is a batched matmul result (not yet verified on upstream's compiler)", u->a->loc);
            return false;
        }
        const pc_tile_shapes *ts = u->st->tiles;
        p[0] = min64(ts->cube_m[0], S[0]);
        p[1] = min64(ts->cube_n[0], S[1]);
        return true;
    }
    why_set(why, "its producer is neither a vector nor a cube op", u->a->loc);
    return false;
}

/* The region of T a consumer reads, R (T's shape S when it reads T whole); false (and why) when it
 * reads a view poolcheck cannot place: a reshape, a shape that is not static, a matmul's. */
static bool consumer_region(an_ctx *c, const tile_use *u, const int64_t *S, int n, const pc_bindings *sets,
                            size_t nsets, int64_t *R, tile_why *why)
{
    const pc_kernel *k = c->k;
    if (!u->via_view) {
        memcpy(R, S, (size_t)n * sizeof *R);
        return true;
    }
    const pc_expr *const *dims = u->a->region_rank >= 0 ? u->a->region : NULL;
    int rank = u->a->region_rank;
    if (!dims && u->view >= 0 && k->tensors[u->view].shape) {
        dims = k->tensors[u->view].shape;
        rank = k->tensors[u->view].ndims;
    }
    if (u->a->unit != PC_UNIT_VECTOR || !dims || rank != n) {
        why_set(why, u->a->unit != PC_UNIT_VECTOR ? "a matmul reads it through a view (not yet verified on upstream's compiler)"
                                                  : "an op reads it through a view of another rank or an unknown shape",
                u->a->loc);
        return false;
    }
    for (int d = 0; d < n; d++)
        if (!static_dim(k, dims[d]) || !pc_expr_eval(dims[d], sets, nsets, &R[d]) || R[d] <= 0 || R[d] > S[d]) {
            why_set(why, "an op reads it through a view whose shape is not static", u->a->loc);
            return false;
        }
    return true;
}

static bool consumer_tile(an_ctx *c, const tile_use *u, const int64_t *S, int n, int64_t *out, tile_why *why)
{
    if (u->a->unit == PC_UNIT_VECTOR)
        return vec_tile(c, u, S, n, out, why);
    /* a matmul operand */
    if (u->a->role == PC_OPERAND_RIGHT) {
        why_set(why, "a matmul reads it as its right operand (not yet verified on upstream's compiler)", u->a->loc);
        return false;
    }
    if (u->a->role != PC_OPERAND_LEFT) {
        why_set(why, "a matmul reads it as an operand poolcheck cannot place", u->a->loc);
        return false;
    }
    if (u->a->transposed) {
        why_set(why, "a matmul reads it transposed (not yet verified on upstream's compiler)", u->a->loc);
        return false;
    }
    if (!cube_known(c, u, why))
        return false;
    if (n != 2) {
        why_set(why, "a batched matmul reads it (not yet verified on upstream's compiler)", u->a->loc);
        return false;
    }
    const pc_tile_shapes *ts = u->st->tiles;
    out[0] = min64(ts->cube_m[0], S[0]);
    out[1] = min64(ts->cube_k[1] > 0 ? ts->cube_k[1] : ts->cube_k[0], S[1]);
    return true;
}

/* Pieces of S cut at multiples of b: per dim up to two sizes (b_d, count S_d / b_d) and the clipped
 * rest.  Adds their aligned bytes to *bytes and their description to text (when given); returns the
 * number of pieces. */
int64_t pc_an_add_pieces(const int64_t *S, const int64_t *b, int n, int bits, int64_t *bytes, pc_sb *text)
{
    int64_t size[PC_TILE_MAX_DIMS][2], count[PC_TILE_MAX_DIMS][2];
    int nsz[PC_TILE_MAX_DIMS];
    for (int d = 0; d < n; d++) {
        nsz[d] = 0;
        if (S[d] / b[d] > 0) {
            size[d][nsz[d]] = b[d];
            count[d][nsz[d]++] = S[d] / b[d];
        }
        if (S[d] % b[d]) {
            size[d][nsz[d]] = S[d] % b[d];
            count[d][nsz[d]++] = 1;
        }
    }
    int idx[PC_TILE_MAX_DIMS] = {0};
    int64_t total = 0;
    for (;;) {
        int64_t numel = 1, cnt = 1;
        for (int d = 0; d < n; d++) {
            numel *= size[d][idx[d]];
            cnt *= count[d][idx[d]];
        }
        *bytes += cnt * pc_align_up(numel * bits / 8, 512);
        total += cnt;
        if (text) {
            if (text->len)
                pc_sb_append(text, " + ");
            if (cnt > 1)
                pc_sb_printf(text, "%lld pieces of ", (long long)cnt);
            pc_sb_putc(text, '[');
            for (int d = 0; d < n; d++)
                pc_sb_printf(text, "%s%lld", d ? ", " : "", (long long)size[d][idx[d]]);
            pc_sb_putc(text, ']');
        }
        int d = n - 1;
        while (d >= 0 && ++idx[d] == nsz[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
    return total;
}

/* The rule for tensor t under sets.  Returns the number of pieces (0: one piece, *bytes untouched),
 * with their aligned bytes in *bytes and, when text is given, what they are.  why says why T stays
 * one piece when the rule's inputs are unknown. */
static int64_t tiles_eval(an_ctx *c, int t, const pc_bindings *sets, size_t nsets, int64_t *bytes, pc_sb *text,
                          tile_why *why)
{
    const pc_kernel *k = c->k;
    const pc_tensor *T = &k->tensors[t];
    int bits = pc_dtype_bits(T->dtype);
    int n = T->ndims;
    if (!T->shape || n < 1 || n > PC_TILE_MAX_DIMS || bits == 0)
        return 0;
    tile_tensor *tt = uses_of(c, t);
    if (tt->nconsumers == 0)
        return 0; /* nothing reads it by tiles: nothing to cut */
    int64_t S[PC_TILE_MAX_DIMS];
    for (int d = 0; d < n; d++) {
        if (!static_dim(k, T->shape[d])) {
            why_set(why, "its shape has dynamic dims (not yet verified on upstream's compiler)", T->loc);
            return 0;
        }
        if (!pc_expr_eval(T->shape[d], sets, nsets, &S[d]) || S[d] <= 0)
            return 0;
    }
    int64_t p[PC_TILE_MAX_DIMS];
    if (!producer_tile(c, tt, S, n, p, why, T->loc))
        return 0;
    /* The distinct cuts of the consumers.  A consumer that reads a view of T (View(T, ...), or a
     * view tensor of it) reads only that region R: upstream moves only the viewed region between
     * the cube and the vector unit, cut the same way with the producer tile clipped to R
     * (docs/model.md section 7); the rest of T costs nothing.  Cuts of T itself are told apart by
     * b alone; a region's by the view it reads (a view tensor, or the op call of an inline View),
     * since two views of one shape may be two places of T. */
    typedef struct tile_cut {
        int64_t R[PC_TILE_MAX_DIMS], b[PC_TILE_MAX_DIMS];
        bool region;
        const pc_stmt *st; /* an inline region: the statement and call that read it */
        int call, view;
    } tile_cut;
    tile_cut *cuts = pc_mem_calloc((size_t)tt->nconsumers, sizeof *cuts);
    int ncuts = 0;
    bool whole = false, ok = true;
    for (int i = 0; i < tt->nconsumers && ok; i++) {
        const tile_use *u = &tt->consumers[i];
        int64_t cc[PC_TILE_MAX_DIMS], R[PC_TILE_MAX_DIMS], pr[PC_TILE_MAX_DIMS];
        tile_cut cut = {.region = u->via_view, .st = u->via_view && u->view < 0 ? u->st : NULL,
                        .call = u->via_view && u->view < 0 ? u->a->call : -1, .view = u->view};
        if (!consumer_region(c, u, S, n, sets, nsets, R, why) || !consumer_tile(c, u, R, n, cc, why)) {
            ok = false;
            break;
        }
        bool full = true;
        for (int d = 0; d < n; d++) {
            pr[d] = min64(p[d], R[d]);
            cut.R[d] = R[d];
            cut.b[d] = lcm_capped(pr[d], cc[d], R[d]);
            full &= cut.b[d] == S[d];
        }
        if (full && !cut.region) {
            whole = true;
            continue;
        }
        bool dup = false;
        for (int j = 0; j < ncuts && !dup; j++)
            dup = cuts[j].region == cut.region && cuts[j].st == cut.st && cuts[j].call == cut.call &&
                  cuts[j].view == cut.view && memcmp(cuts[j].R, cut.R, (size_t)n * sizeof *cut.R) == 0 &&
                  memcmp(cuts[j].b, cut.b, (size_t)n * sizeof *cut.b) == 0;
        if (!dup)
            cuts[ncuts++] = cut;
    }
    int64_t pieces = 0;
    if (ok && ncuts > 0) {
        int64_t numel = 1;
        for (int d = 0; d < n; d++)
            numel *= S[d];
        int64_t sum = 0;
        if (whole) {
            sum += pc_align_up(numel * bits / 8, 512);
            pieces++;
            if (text) {
                pc_sb_append(text, "the whole [");
                for (int d = 0; d < n; d++)
                    pc_sb_printf(text, "%s%lld", d ? ", " : "", (long long)S[d]);
                pc_sb_putc(text, ']');
            }
        }
        for (int j = 0; j < ncuts; j++)
            pieces += pc_an_add_pieces(cuts[j].R, cuts[j].b, n, bits, &sum, text);
        *bytes = sum;
    }
    pc_mem_free(cuts);
    return pieces;
}

int64_t pc_an_tiles_inner_bytes(an_ctx *c, int t, const pc_bindings *sets, size_t nsets, int64_t raw)
{
    int64_t bytes = pc_align_up(raw, 512);
    tile_why why = {0};
    if (t >= 0 && t < c->k->ntensors)
        tiles_eval(c, t, sets, nsets, &bytes, NULL, &why);
    return bytes;
}

void pc_an_tiles_tensor_result(an_ctx *c, pc_result *r, int t, const pc_bindings *sets, size_t nsets)
{
    pc_tensor_result *tr = &r->tensors[t];
    if (tr->pool != PC_POOL_ROOT_INNER)
        return; /* (unknown bytes still get their reason: dynamic dims) */
    pc_sb text = {0};
    tile_why why = {0};
    int64_t bytes = tr->aligned_bytes;
    int64_t pieces = tiles_eval(c, t, sets, nsets, &bytes, &text, &why);
    if (pieces > 0 && tr->aligned_bytes >= 0) {
        tr->pieces = pieces > INT32_MAX ? INT32_MAX : (int)pieces;
        tr->pieces_text = pc_arena_strdup(r->arena, text.data);
        tr->aligned_bytes = bytes;
        tr->reason = pc_arena_printf(r->arena, "%s; stored as %s (tile split)", tr->reason ? tr->reason : "",
                                     text.data);
    } else if (why.text) {
        int n = r->ntiles_unverified;
        r->tiles_unverified = pc_arena_grow(r->arena, r->tiles_unverified, (size_t)n, (size_t)n + 1, sizeof(int));
        r->tiles_unverified_why = pc_arena_grow(r->arena, (void *)r->tiles_unverified_why, (size_t)n, (size_t)n + 1,
                                                sizeof(const char *));
        r->tiles_unverified_loc = pc_arena_grow(r->arena, r->tiles_unverified_loc, (size_t)n, (size_t)n + 1,
                                                sizeof(pc_loc));
        r->tiles_unverified[n] = t;
        r->tiles_unverified_why[n] = pc_arena_strdup(r->arena, why.text);
        r->tiles_unverified_loc[n] = loc_known(why.loc) ? why.loc : c->k->tensors[t].loc;
        r->ntiles_unverified = n + 1;
    }
    pc_sb_free(&text);
}
