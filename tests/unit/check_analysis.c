/* check_analysis.c - the analysis on hand-built models: every rule of docs/model.md sections 3-7 with
 * numbers worked out by hand (independent of either frontend). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"
#include "support/support.h"

/* ---- a tiny builder ----------------------------------------------------------------------------- */

typedef struct kb {
    pc_model *m;
    int k;
    pc_block *cur;          /* block statements are appended to */
    int cur_loop;
} kb;

static pc_kernel *K(kb *b) { return &b->m->kernels[b->k]; }
static pc_loc L(kb *b, int line) { return pc_model_loc(b->m, NULL, (uint32_t)line, 1, 0, 0); }

static void kb_init(kb *b, const char *name)
{
    b->m = pc_model_new("k.py", PC_LANG_PYTHON);
    b->k = pc_model_add_kernel(b->m, name, L(b, 1));
    b->cur = &K(b)->body;
    b->cur_loop = -1;
}

static const pc_expr **shape(kb *b, int n, const int64_t *dims)
{
    const pc_expr **s = pc_arena_alloc(b->m->arena, (size_t)n * sizeof(pc_expr *));
    for (int i = 0; i < n; i++)
        s[i] = pc_expr_int(b->m->arena, dims[i]);
    return s;
}

static int tensor(kb *b, const char *name, pc_tensor_kind kind, int n, const int64_t *dims)
{
    int t = pc_kernel_add_tensor(b->m, K(b), name, kind, L(b, 2));
    pc_tensor *T = &K(b)->tensors[t];
    T->dtype = PC_DT_FP32;
    T->ndims = n;
    T->shape = shape(b, n, dims);
    T->scope_loop = b->cur_loop;
    return t;
}

static int stmt(kb *b)
{
    int s = pc_kernel_add_stmt(b->m, K(b), PC_STMT_OP, L(b, 3));
    pc_block_append(b->m, b->cur, s);
    return s;
}

static void acc(kb *b, int s, int t, pc_access_kind kind, pc_unit u)
{
    pc_stmt_add_access(b->m, &K(b)->stmts[s], t, kind, u, L(b, 3));
}

/* a declaration statement: pypto.tensor(...) */
static int created(kb *b, const char *name, int n, const int64_t *dims)
{
    int s = stmt(b);
    K(b)->stmts[s].has_op = false;
    int t = tensor(b, name, PC_TENSOR_CREATED, n, dims);
    K(b)->tensors[t].def_stmt = s;
    acc(b, s, t, PC_ACC_DEFINE, PC_UNIT_NONE);
    return t;
}

/* t = op(reads...) as a new value */
static int value(kb *b, const char *name, pc_unit u, int n, const int64_t *dims, int r1, int r2)
{
    int s = stmt(b);
    if (r1 >= 0) acc(b, s, r1, PC_ACC_READ, u);
    if (r2 >= 0) acc(b, s, r2, PC_ACC_READ, u);
    int t = tensor(b, name, PC_TENSOR_VALUE, n, dims);
    K(b)->tensors[t].def_stmt = s;
    acc(b, s, t, PC_ACC_DEFINE, u);
    return t;
}

static void write(kb *b, int dst, pc_access_kind kind, pc_unit u, int r1, int r2)
{
    int s = stmt(b);
    if (r1 >= 0) acc(b, s, r1, PC_ACC_READ, u);
    if (r2 >= 0) acc(b, s, r2, PC_ACC_READ, u);
    acc(b, s, dst, kind, u);
}

typedef struct saved { pc_block *blk; int loop; } saved;

static saved loop_begin(kb *b, const char *name, int64_t begin, int64_t end, int64_t step)
{
    saved sv = {b->cur, b->cur_loop};
    int s = pc_kernel_add_stmt(b->m, K(b), PC_STMT_LOOP, L(b, 4));
    pc_block_append(b->m, b->cur, s);
    int l = pc_kernel_add_loop(b->m, K(b), name, L(b, 4));
    pc_loop *lp = &K(b)->loops[l];
    lp->begin = pc_expr_int(b->m->arena, begin);
    lp->end = pc_expr_int(b->m->arena, end);
    lp->step = pc_expr_int(b->m->arena, step);
    lp->index_var = pc_model_strdup(b->m, "i");
    lp->parent = b->cur_loop;
    lp->stmt = s;
    K(b)->stmts[s].loop = l;
    b->cur = &K(b)->loops[l].body;
    b->cur_loop = l;
    return sv;
}

static void loop_end(kb *b, saved sv) { b->cur = sv.blk; b->cur_loop = sv.loop; }

static int last_loop(kb *b) { return K(b)->nloops - 1; }

static pc_result *run(kb *b, int64_t k, const int64_t *pool, pc_inner_policy pol)
{
    pc_runtime_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.max_num = k;
    cfg.parallelism = 1;
    if (pool)
        memcpy(cfg.pool, pool, sizeof cfg.pool);
    pc_analysis_opts o;
    pc_an_default_opts(&o);
    o.inner_policy = pol;
    return pc_analyze(b->m, b->k, &cfg, &o);
}

static int find(const pc_result *r, const char *name)
{
    for (int t = 0; t < r->ntensors; t++)
        if (strcmp(r->kernel->tensors[t].name, name) == 0)
            return t;
    ck_abort_msg("no tensor %s", name);
    return -1;
}

#define CK_TRIPLE(v, a, b_, c)                                                                   \
    do {                                                                                         \
        ck_assert_int_eq((v)[0], a);                                                             \
        ck_assert_int_eq((v)[1], b_);                                                            \
        ck_assert_int_eq((v)[2], c);                                                             \
    } while (0)

static const int64_t D4[] = {1, 64, 1, 16};

static void build_seed_n(kb *b, int64_t L);

/* The seed example (docs/model.md section 10). */
static void build_seed(kb *b) { build_seed_n(b, 64); }

/* ... with L_STATIC = L for the two 64-iteration loops. */
static void build_seed_n(kb *b, int64_t L)
{
    kb_init(b, "k_tmp_to_d_emb");
    int dy = tensor(b, "dy", PC_TENSOR_PARAM, 4, D4);
    int w = tensor(b, "weight", PC_TENSOR_PARAM, 3, (int64_t[]){1, 16, 16});
    int o1 = tensor(b, "output1", PC_TENSOR_PARAM, 3, (int64_t[]){1, 64, 16});
    int o2 = tensor(b, "output2", PC_TENSOR_PARAM, 3, (int64_t[]){1, 64, 16});
    int ta = created(b, "tmp_assemble", 4, D4);
    int te = created(b, "tmp_exclusive", 4, D4);
    saved s = loop_begin(b, "l_loop_0", 0, 1, 1);
    write(b, te, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, dy, -1);
    loop_end(b, s);
    s = loop_begin(b, "l_loop_1", 0, L, 1);
    int st = stmt(b);
    int dyv = tensor(b, "dy_v", PC_TENSOR_VIEW, 2, (int64_t[]){1, 16});
    K(b)->tensors[dyv].base = dy;
    K(b)->tensors[dyv].def_stmt = st;
    acc(b, st, dy, PC_ACC_READ, PC_UNIT_NONE);
    acc(b, st, dyv, PC_ACC_DEFINE, PC_UNIT_NONE);
    int dx = value(b, "dx", PC_UNIT_CUBE, 2, (int64_t[]){1, 16}, dyv, w);
    write(b, ta, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, dx, -1);
    loop_end(b, s);
    s = loop_begin(b, "l_loop_2", 0, L, 1);
    write(b, o1, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE, ta, -1);
    write(b, o2, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE, te, -1);
    loop_end(b, s);
}

START_TEST(seed_example)
{
    kb b;
    build_seed(&b);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->tensors[find(r, "dy")].pool, PC_POOL_NONE);
    ck_assert_int_eq(r->tensors[find(r, "dy_v")].pool, PC_POOL_NONE);
    ck_assert_int_eq(r->tensors[find(r, "dx")].pool, PC_POOL_ROOT_INNER);
    ck_assert_int_eq(r->tensors[find(r, "tmp_assemble")].pool, PC_POOL_ASSEMBLE);
    ck_assert_int_eq(r->tensors[find(r, "tmp_exclusive")].pool, PC_POOL_EXCLUSIVE);
    ck_assert_int_eq(r->instances, 129);
    ck_assert_int_eq(r->device_tasks, 2);
    ck_assert_int_eq(r->tasks[0].last - r->tasks[0].first + 1, 128);
    CK_TRIPLE(r->predicted, 64, 1, 1);
    CK_TRIPLE(r->required, 1, 1, 1);
    CK_TRIPLE(r->suggested, 64, 2, 1);
    CK_TRIPLE(r->configured, 128, 128, 128);
    ck_assert_int_eq(r->unit_inner, 512);
    ck_assert_int_eq(r->unit_excl, 4096);
    ck_assert_int_eq(r->slot_size, 4096);
    ck_assert_int_eq(r->ws_predicted, 65536);
    ck_assert_int_eq(r->ws_default, 1146880);
    ck_assert_int_eq(r->ws_suggested, 65536);
    /* tmp_assemble's one allocation lives across both DeviceTasks (PC011's situation) */
    ck_assert_int_eq(r->ncross_task_assemble, 1);
    ck_assert_int_eq(r->why[0].task, 0);
    ck_assert_int_eq(r->why[0].nroots, 3);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

START_TEST(seed_headroom_zero_and_precise)
{
    kb b;
    build_seed(&b);
    pc_runtime_config cfg;
    pc_cfg_defaults(&cfg);
    cfg.pool[0] = 64; cfg.pool[1] = 0; cfg.pool[2] = 1;
    pc_analysis_opts o;
    pc_an_default_opts(&o);
    o.assemble_headroom = 0;
    pc_result *r = pc_analyze(b.m, 0, &cfg, &o);
    CK_TRIPLE(r->suggested, 64, 1, 1);
    CK_TRIPLE(r->configured, 64, 0, 1);
    ck_assert(r->precise);
    /* k stays the configured stitch_function_max_num for the partition (docs/model.md section 5) */
    CK_TRIPLE(r->predicted, 64, 1, 1);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* Three 100-iteration loops, each writing an exclusive value read by the next loop.
 * k = 128: tasks [0,128) holds loop a x100 + loop b x28, then b x72 + c x56, then c x44.
 * exclusive per task = instances that write: 128, 128, 44 -> 128; k = 64: 64. */
START_TEST(window_overflow)
{
    for (int kk = 0; kk < 2; kk++) {
        kb b;
        kb_init(&b, "win");
        int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){100, 16});
        int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){100, 16});
        int a = created(&b, "a", 2, (int64_t[]){1, 16});
        saved s = loop_begin(&b, "la", 0, 100, 1);
        write(&b, a, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x, -1);
        loop_end(&b, s);
        s = loop_begin(&b, "lb", 0, 100, 1);
        write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a, -1);
        loop_end(&b, s);
        s = loop_begin(&b, "lc", 0, 100, 1);
        write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1);
        loop_end(&b, s);
        pc_result *r = run(&b, kk ? 64 : 128, NULL, PC_INNER_BOUNDARY);
        ck_assert_int_eq(r->instances, 300);
        ck_assert_int_eq(r->device_tasks, kk ? 5 : 3);
        /* only la writes `a`: task 0 holds 100 la instances at k=128, 64 at k=64 */
        CK_TRIPLE(r->predicted, 0, 0, kk ? 64 : 100);
        pc_result_free(r);
        pc_model_free(b.m);
    }
}
END_TEST

/* submit_before_loop cuts a task before the loop even when k is not reached. */
START_TEST(barrier)
{
    kb b;
    kb_init(&b, "bar");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 1, (int64_t[]){16});
    int t = created(&b, "t", 1, (int64_t[]){16});
    saved s = loop_begin(&b, "l1", 0, 10, 1);
    write(&b, t, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x, -1);
    loop_end(&b, s);
    s = loop_begin(&b, "l2", 0, 10, 1);
    K(&b)->loops[last_loop(&b)].submit_before_loop = true;
    write(&b, x, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, t, -1);
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->device_tasks, 2);
    ck_assert_int_eq(r->tasks[0].close, PC_CLOSE_BARRIER);
    CK_TRIPLE(r->predicted, 0, 0, 10);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* loop_unroll with unroll_list [4]: 10 iterations -> factor 4 twice, factor 1 twice (4 instances).
 * The factor-4 root's tensor is 4x the factor-1 root's: inner bytes 4*512 vs 512 (rows of 32 FP32
 * = 128 B per row: 4 rows = 512 B, 1 row = 128 B -> 512 aligned).  Use 8 rows per unit instead:
 * row = 16 FP32 = 64 B; p rows: 4 -> 256 B (512 aligned), 1 -> 64 B (512 aligned).  With rows of
 * 256 FP32 = 1024 B: p=4 -> 4096, p=1 -> 1024.  U0 = 4096; one task: 2*4096 + 2*1024 = 10240 ->
 * ceil(10240/4096) = 3, while counting instances gives 4. */
START_TEST(unroll_weighting)
{
    kb b;
    kb_init(&b, "unr");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){10, 256});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){256, 256});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){10, 256});
    saved s = loop_begin(&b, "lu", 0, 10, 1);
    pc_loop *lp = &K(&b)->loops[last_loop(&b)];
    lp->factor_var = pc_model_strdup(b.m, "p");
    lp->nunroll = 1;
    lp->unroll = pc_arena_alloc(b.m->arena, sizeof(int64_t));
    lp->unroll[0] = 4;
    int mm = value(&b, "mm", PC_UNIT_CUBE, 2, (int64_t[]){1, 256}, x, w);
    K(&b)->tensors[mm].shape[0] = pc_expr_sym(b.m->arena, "p");
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, mm, -1);
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->instances, 4);
    ck_assert_int_eq(r->nroots, 2);
    ck_assert_str_eq(r->roots[0].name, "lu_LoopUnroll4");
    ck_assert_int_eq(r->roots[0].instances, 2);
    ck_assert_int_eq(r->roots[1].instances, 2);
    ck_assert_int_eq(r->unit_inner, 4096);
    CK_TRIPLE(r->predicted, 3, 0, 0);
    ck_assert_int_eq(r->tensors[mm].bytes, 4096);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* A tensor created in the outer loop body and assembled by an inner loop gets one allocation per
 * outer iteration.  Outer 8 x (inner 4 + reader 1) = 40 instances; with k = 10 each task holds two
 * outer iterations: allocations of both are live -> 2 per task (A = 1) -> predicted 2. */
START_TEST(assemble_per_outer)
{
    kb b;
    kb_init(&b, "apo");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){32, 16});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){8, 16});
    saved so = loop_begin(&b, "outer", 0, 8, 1);
    int acc_t = created(&b, "acc", 2, (int64_t[]){4, 16});
    saved si = loop_begin(&b, "inner", 0, 4, 1);
    write(&b, acc_t, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1);
    loop_end(&b, si);
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, acc_t, -1);
    loop_end(&b, so);
    pc_result *r = run(&b, 10, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->tensors[acc_t].pool, PC_POOL_ASSEMBLE);
    ck_assert_int_eq(r->instances, 40);
    ck_assert_int_eq(r->device_tasks, 4);
    CK_TRIPLE(r->predicted, 0, 2, 0);
    pc_result_free(r);
    /* with k = 128 all 8 allocations are live in the one task */
    r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    CK_TRIPLE(r->predicted, 0, 8, 0);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* h = h + x in a loop: loop-carried exclusive value, one block per iteration. */
START_TEST(loop_carried)
{
    kb b;
    kb_init(&b, "lc");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 1, (int64_t[]){16});
    int o = tensor(&b, "o", PC_TENSOR_PARAM, 1, (int64_t[]){16});
    int h0 = value(&b, "h", PC_UNIT_VECTOR, 1, (int64_t[]){16}, x, -1);
    saved s = loop_begin(&b, "l", 0, 20, 1);
    int h1 = value(&b, "h", PC_UNIT_VECTOR, 1, (int64_t[]){16}, h0, x);
    loop_end(&b, s);
    write(&b, o, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, h1, -1);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->tensors[h1].pool, PC_POOL_EXCLUSIVE);
    ck_assert_int_eq(r->tensors[h0].pool, PC_POOL_EXCLUSIVE);
    ck_assert_int_eq(r->instances, 22);
    /* every instance writes 512 B of exclusive: kernel root + 20 loop + final root: 22 - 1 (the
     * last root writes only the parameter) = 21 */
    CK_TRIPLE(r->predicted, 0, 0, 21);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* A trip count that depends on an unbound symbol: null depth, bound k, named symbol, formula. */
START_TEST(dynamic_trip)
{
    kb b;
    kb_init(&b, "dyn");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 1, (int64_t[]){16});
    int t = created(&b, "t", 1, (int64_t[]){16});
    saved s = loop_begin(&b, "l", 0, 1, 1);
    K(&b)->loops[last_loop(&b)].end = pc_expr_sym(b.m->arena, "n");
    write(&b, t, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x, -1);
    loop_end(&b, s);
    s = loop_begin(&b, "l2", 0, 4, 1);
    write(&b, x, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, t, -1);
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->predicted[2], -1);
    ck_assert_int_eq(r->bounds[2], 128);
    ck_assert_int_eq(r->instances, -1);
    ck_assert_int_eq(r->nunknowns, 1);
    ck_assert_str_eq(r->unknowns[0], "n");
    ck_assert_ptr_nonnull(r->formulas[2]);
    ck_assert_str_eq(r->formulas[2], "min(n, 128)");
    CK_TRIPLE(r->required, 0, 0, 1);
    pc_result_free(r);
    /* bound: n = 50 -> 54 instances, exclusive 50 */
    pc_binding bind = {"n", 50};
    pc_bindings set = {&bind, 1};
    pc_analysis_opts o;
    pc_an_default_opts(&o);
    o.binding_sets = &set;
    o.nbinding_sets = 1;
    pc_runtime_config cfg;
    pc_cfg_defaults(&cfg);
    r = pc_analyze(b.m, 0, &cfg, &o);
    ck_assert_int_eq(r->instances, 54);
    CK_TRIPLE(r->predicted, 0, 0, 50);
    pc_result_free(r);
    /* two sets: the element-wise maximum */
    pc_binding b2[2] = {{"n", 10}, {"n", 300}};
    pc_bindings sets[2] = {{&b2[0], 1}, {&b2[1], 1}};
    o.binding_sets = sets;
    o.nbinding_sets = 2;
    r = pc_analyze(b.m, 0, &cfg, &o);
    CK_TRIPLE(r->predicted, 0, 0, 128);
    ck_assert_int_eq(r->instances, 304);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* --inner-policy: a vector value read by a vector op in the same root stays on chip by default,
 * and is root_inner under `all`; a matmul result read by a vector op is root_inner either way. */
START_TEST(inner_policy)
{
    kb b;
    kb_init(&b, "ip");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){16, 16});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){16, 16});
    saved s = loop_begin(&b, "l", 0, 4, 1);
    int v = value(&b, "v", PC_UNIT_VECTOR, 2, (int64_t[]){16, 16}, x, -1);
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, v, -1);
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->tensors[v].pool, PC_POOL_NONE);
    CK_TRIPLE(r->predicted, 0, 0, 0);
    pc_result_free(r);
    r = run(&b, 128, NULL, PC_INNER_ALL);
    ck_assert_int_eq(r->tensors[v].pool, PC_POOL_ROOT_INNER);
    CK_TRIPLE(r->predicted, 4, 0, 0);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* IF/ELSE inside a loop body: one instance per iteration, requirement = the larger path. */
START_TEST(if_paths)
{
    kb b;
    kb_init(&b, "ifp");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    saved s = loop_begin(&b, "l", 0, 8, 1);
    int st = pc_kernel_add_stmt(b.m, K(&b), PC_STMT_IF, L(&b, 5));
    pc_block_append(b.m, b.cur, st);
    pc_block *outer = b.cur;
    pc_branch *br = pc_stmt_add_branch(b.m, &K(&b)->stmts[st], L(&b, 5));
    b.cur = &br->body;
    int big = value(&b, "big", PC_UNIT_CUBE, 2, (int64_t[]){64, 64}, x, w);   /* 16 KiB */
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, big, -1);
    br = pc_stmt_add_branch(b.m, &K(&b)->stmts[st], L(&b, 6));
    b.cur = &br->body;
    int small = value(&b, "small", PC_UNIT_CUBE, 2, (int64_t[]){8, 64}, x, w); /* 2 KiB */
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, small, -1);
    b.cur = outer;
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->instances, 8);
    ck_assert_int_eq(r->unit_inner, 16384);
    CK_TRIPLE(r->predicted, 8, 0, 0);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* A root with only declarations produces no instance; a parameter written through a view takes
 * no pool. */
START_TEST(no_op_root_and_param_views)
{
    kb b;
    kb_init(&b, "np");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){4, 16});
    int o = tensor(&b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){4, 16});
    created(&b, "unused", 1, (int64_t[]){16});
    saved s = loop_begin(&b, "l", 0, 4, 1);
    int st = stmt(&b);
    int ov = tensor(&b, "ov", PC_TENSOR_VIEW, 1, (int64_t[]){16});
    K(&b)->tensors[ov].base = o;
    K(&b)->tensors[ov].def_stmt = st;
    acc(&b, st, ov, PC_ACC_DEFINE, PC_UNIT_NONE);
    write(&b, ov, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x, -1);
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->instances, 4);
    ck_assert_int_eq(r->tensors[ov].pool, PC_POOL_NONE);
    ck_assert_int_eq(r->tensors[o].pool, PC_POOL_NONE);
    CK_TRIPLE(r->predicted, 0, 0, 0);
    CK_TRIPLE(r->required, 0, 0, 0);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* parallel=True loop with device_sched_parallelism 2: k does not cut, instances spread over two
 * workspace copies; per copy 150 of 300 writes -> exclusive 150. */
START_TEST(parallel_loop)
{
    kb b;
    kb_init(&b, "par");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 1, (int64_t[]){16});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){300, 16});
    saved s = loop_begin(&b, "lp", 0, 300, 1);
    K(&b)->loops[last_loop(&b)].parallel = true;
    int v = value(&b, "v", PC_UNIT_VECTOR, 1, (int64_t[]){16}, x, -1);
    (void)v;
    loop_end(&b, s);
    s = loop_begin(&b, "lr", 0, 300, 1);
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, v, -1);
    loop_end(&b, s);
    pc_runtime_config cfg;
    pc_cfg_defaults(&cfg);
    cfg.parallelism = 2;
    pc_result *r = pc_analyze(b.m, 0, &cfg, NULL);
    ck_assert_int_eq(r->tasks[0].last - r->tasks[0].first + 1, 300);
    ck_assert_int_eq(r->tasks[0].close, PC_CLOSE_PARALLEL);
    CK_TRIPLE(r->predicted, 0, 0, 150);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* Making a view of a tensor in another root writes nothing into it: `flat = reshape(t)` in the
 * reading loop leaves t's exclusive need at its one producing instance. */
START_TEST(view_define_is_not_a_write)
{
    kb b;
    kb_init(&b, "alias");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){8, 128});
    int out = tensor(&b, "out", PC_TENSOR_PARAM, 2, (int64_t[]){32, 32});
    saved s = loop_begin(&b, "produce", 0, 1, 1);
    int t = value(&b, "t", PC_UNIT_VECTOR, 2, (int64_t[]){8, 128}, x, x);
    loop_end(&b, s);
    s = loop_begin(&b, "consume", 0, 2, 1);
    int st = stmt(&b);
    int flat = tensor(&b, "flat", PC_TENSOR_VIEW, 2, (int64_t[]){32, 32});
    K(&b)->tensors[flat].base = t;
    K(&b)->tensors[flat].def_stmt = st;
    acc(&b, st, t, PC_ACC_READ, PC_UNIT_NONE);
    acc(&b, st, flat, PC_ACC_DEFINE, PC_UNIT_NONE);
    write(&b, out, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE, flat, -1);
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->tensors[t].pool, PC_POOL_EXCLUSIVE);
    ck_assert_int_eq(r->roots[1].excl_bytes, 0);
    CK_TRIPLE(r->predicted, 0, 0, 1);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST


/* ---- paths and unroll (model.md section 3) ------------------------------------------------------ */

/* An IF statement in the current block; branch() adds a path and makes its body current. */
static int if_begin(kb *b)
{
    int st = pc_kernel_add_stmt(b->m, K(b), PC_STMT_IF, L(b, 5));
    K(b)->stmts[st].has_op = false;
    pc_block_append(b->m, b->cur, st);
    return st;
}

/* cond NULL with text: data-dependent; cond and text NULL: else. */
static void branch(kb *b, int st, const char *cond, const char *text)
{
    pc_branch *br = pc_stmt_add_branch(b->m, &K(b)->stmts[st], L(b, 6 + K(b)->stmts[st].nbranches));
    br->cond = cond ? pc_expr_parse(b->m->arena, cond, NULL) : NULL;
    ck_assert(!cond || br->cond);
    br->cond_text = text ? pc_model_strdup(b->m, text) : NULL;
    b->cur = &br->body;
}

static pc_result *run_opts(kb *b, const pc_analysis_opts *o)
{
    pc_runtime_config cfg;
    pc_cfg_defaults(&cfg);
    return pc_analyze(b->m, b->k, &cfg, o);
}

/* The issue's example: `if pypto.cond(i < 1)` matmul (root_inner 512 B) else a vector write into
 * the parameter.  Only i = 0 takes the matmul path: root_inner(T) = ceil(512 / 512) = 1 (the old
 * rule charged every instance the larger path: 4). */
START_TEST(path_decided_per_instance)
{
    kb b;
    kb_init(&b, "cond_lt");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){4, 64});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 32});
    int o = tensor(&b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){4, 32});
    saved s = loop_begin(&b, "L", 0, 4, 1);
    pc_block *body = b.cur;
    int st = if_begin(&b);
    branch(&b, st, "i < 1", "pypto.cond(i < 1)");
    int t = value(&b, "t", PC_UNIT_CUBE, 2, (int64_t[]){1, 32}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, t, -1);
    branch(&b, st, NULL, NULL);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1);
    b.cur = body;
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->instances, 4);
    ck_assert_int_eq(r->unit_inner, 512);
    CK_TRIPLE(r->predicted, 1, 0, 0);
    ck_assert_int_eq(r->nundecided, 0);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* if / elif / else, a path with no operation, loop predicates.  Loop 0..6:
 *   if is_loop_begin(i) or i == 1: A (matmul [4, 64] FP32 = 1024 B)      i = 0, 1
 *   elif i == 2: nothing                                                    i = 2: no instance
 *   elif is_loop_end(i): C (matmul [1, 64] = 256 -> 512 B)                  i = 5
 *   else: B (matmul [2, 64] = 512 B)                                        i = 3, 4
 * 5 instances; U0 = 1024; root_inner(T) = ceil((2*1024 + 3*512) / 1024) = ceil(3.5) = 4. */
START_TEST(path_elif_chain_no_op_and_loop_predicates)
{
    kb b;
    kb_init(&b, "elif");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){6, 64});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int o = tensor(&b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){6, 64});
    saved s = loop_begin(&b, "L", 0, 6, 1);
    pc_block *body = b.cur;
    int st = if_begin(&b);
    branch(&b, st, "is_loop_begin(i) or i == 1", NULL);
    int a = value(&b, "a", PC_UNIT_CUBE, 2, (int64_t[]){4, 64}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a, -1);
    branch(&b, st, "i == 2", NULL);
    branch(&b, st, "is_loop_end(i)", NULL);
    int cc = value(&b, "c", PC_UNIT_CUBE, 2, (int64_t[]){1, 64}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, cc, -1);
    branch(&b, st, NULL, NULL);
    int bb = value(&b, "b", PC_UNIT_CUBE, 2, (int64_t[]){2, 64}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, bb, -1);
    b.cur = body;
    loop_end(&b, s);
    pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->instances, 5);
    ck_assert_int_eq(r->unit_inner, 1024);
    CK_TRIPLE(r->predicted, 4, 0, 0);
    /* k = 2: tasks {0, 1} (A A: 2), {3, 4} (B B: 1), {5} (C: 1) */
    pc_result_free(r);
    r = run(&b, 2, NULL, PC_INNER_BOUNDARY);
    ck_assert_int_eq(r->device_tasks, 3);
    CK_TRIPLE(r->predicted, 2, 0, 0);
    ck_assert_int_eq(r->why[0].task, 0);
    /* why lists the tensors of the paths taken in that task: a (i = 0, 1), not b or c */
    ck_assert_int_eq(r->why[0].ntensors, 1);
    ck_assert_str_eq(r->why[0].tensors[0], "a");
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* A condition that cannot be decided: the maximum over the paths, and a note naming it; a bound
 * symbol decides it. */
START_TEST(path_undecidable_and_bound)
{
    kb b;
    kb_init(&b, "undec");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){4, 64});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int o = tensor(&b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){4, 64});
    saved s = loop_begin(&b, "L", 0, 4, 1);
    pc_block *body = b.cur;
    int st = if_begin(&b);
    branch(&b, st, "i < n", "i < n");
    int a = value(&b, "a", PC_UNIT_CUBE, 2, (int64_t[]){1, 64}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a, -1);
    branch(&b, st, NULL, NULL);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1);
    b.cur = body;
    int st2 = if_begin(&b);
    branch(&b, st2, NULL, "x[0, 0] > 0");
    int c2 = value(&b, "c", PC_UNIT_CUBE, 2, (int64_t[]){1, 64}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, c2, -1);
    b.cur = body;
    loop_end(&b, s);
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *r = run_opts(&b, &opts);
    /* unbound n: both IFs undecidable; every instance charged a + c = 1024 B -> 4 */
    ck_assert_int_eq(r->instances, 4);
    CK_TRIPLE(r->predicted, 4, 0, 0);
    ck_assert_int_eq(r->nundecided, 2);
    ck_assert_str_eq(r->undecided[0].cond_text, "i < n");
    ck_assert_int_eq(r->undecided[0].nsymbols, 1);
    ck_assert_str_eq(r->undecided[0].symbols[0], "n");
    ck_assert_str_eq(r->undecided[1].cond_text, "x[0, 0] > 0");
    ck_assert_int_eq(r->undecided[1].nsymbols, 0);
    pc_result_free(r);
    /* n = 1: only i = 0 takes `a`; the data-dependent IF still charges c: (512+512) + 3*512 = 2560
     * over U0 = 1024 -> 3 */
    pc_binding nb = {"n", 1};
    pc_bindings set = {&nb, 1};
    opts.binding_sets = &set;
    opts.nbinding_sets = 1;
    r = run_opts(&b, &opts);
    CK_TRIPLE(r->predicted, 3, 0, 0);
    ck_assert_int_eq(r->nundecided, 1);
    ck_assert_str_eq(r->undecided[0].cond_text, "x[0, 0] > 0");
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* loop_unroll(7, unroll_list=[4, 6]) (model.md section 3, "Unroll"): upstream Python runs factor 6
 * over range(0, 6, 6) = {0}, factor 4 over range(6, 4, 4) = {}, factor 1 over range(4, 7) =
 * {4, 5, 6}: 4 instances.  C++ (greedy): 6 then 1 -> 2 instances.  Shapes follow the factor:
 * mm is [t, 64] FP32 = 256*t B: 1536 for t = 6, 256 -> 512 for t = 1. */
START_TEST(unroll_per_factor_and_greedy)
{
    for (int lang = 0; lang < 3; lang++) {
        kb b;
        kb_init(&b, "lu");
        if (lang == 1)
            b.m->lang = PC_LANG_CPP;
        int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){7, 64});
        int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
        int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){7, 64});
        saved s = loop_begin(&b, "lu", 0, 7, 1);
        pc_loop *lp = &K(&b)->loops[last_loop(&b)];
        lp->factor_var = pc_model_strdup(b.m, "t");
        lp->nunroll = 2;
        lp->unroll = pc_arena_alloc(b.m->arena, 2 * sizeof(int64_t));
        lp->unroll[0] = 4;
        lp->unroll[1] = 6;
        if (lang == 2) /* a C++ model whose loop says it follows the Python rule */
            lp->unroll_rule = PC_UNROLL_RULE_PER_FACTOR, b.m->lang = PC_LANG_CPP;
        int mm = value(&b, "mm", PC_UNIT_CUBE, 2, (int64_t[]){1, 64}, x, w);
        K(&b)->tensors[mm].shape[0] = pc_expr_sym(b.m->arena, "t");
        write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, mm, -1);
        loop_end(&b, s);
        pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
        ck_assert_int_eq(r->nroots, 3);
        ck_assert_str_eq(r->roots[0].name, "lu_LoopUnroll6");
        ck_assert_str_eq(r->roots[1].name, "lu_LoopUnroll4");
        ck_assert_int_eq(r->unit_inner, 1536);
        if (lang == 1) {
            ck_assert_int_eq(r->instances, 2);
            ck_assert_int_eq(r->roots[0].instances, 1);
            ck_assert_int_eq(r->roots[2].instances, 1);
            CK_TRIPLE(r->predicted, 2, 0, 0); /* ceil((1536 + 512) / 1536) */
        } else {
            ck_assert_int_eq(r->instances, 4);
            ck_assert_int_eq(r->roots[0].instances, 1);
            ck_assert_int_eq(r->roots[1].instances, 0);
            ck_assert_int_eq(r->roots[2].instances, 3);
            CK_TRIPLE(r->predicted, 2, 0, 0); /* ceil((1536 + 3*512) / 1536) = 2 */
        }
        pc_result_free(r);
        pc_model_free(b.m);
    }
}
END_TEST

/* is_loop_begin / is_loop_end under loop_unroll are checked against the factor's own loop:
 * loop_unroll(0, 10, unroll_list=[4]): factor 4 runs 0, 4 and factor 1 runs 8, 9; is_loop_begin
 * holds at 0 and at 8, is_loop_end at 4 and at 9.  The factor variable decides `t == 4`. */
START_TEST(unroll_loop_predicates_and_factor)
{
    kb b;
    kb_init(&b, "lup");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){10, 64});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){10, 64});
    saved s = loop_begin(&b, "lu", 0, 10, 1);
    pc_block *body = b.cur;
    pc_loop *lp = &K(&b)->loops[last_loop(&b)];
    lp->factor_var = pc_model_strdup(b.m, "t");
    lp->nunroll = 1;
    lp->unroll = pc_arena_alloc(b.m->arena, sizeof(int64_t));
    lp->unroll[0] = 4;
    int st = if_begin(&b);
    branch(&b, st, "is_loop_begin(i)", NULL);
    int a = value(&b, "a", PC_UNIT_CUBE, 2, (int64_t[]){8, 64}, x, w); /* 2048 B */
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a, -1);
    b.cur = body;
    st = if_begin(&b);
    branch(&b, st, "is_loop_end(i) and t == 4", NULL);
    int e = value(&b, "e", PC_UNIT_CUBE, 2, (int64_t[]){4, 64}, x, w); /* 1024 B */
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, e, -1);
    b.cur = body;
    loop_end(&b, s);
    pc_result *r = run(&b, 1, NULL, PC_INNER_BOUNDARY);
    /* instances: 0 (a), 4 (e), 8 (a), 9 (nothing: is_loop_end but t = 1) -> 3; with k = 1 each
     * task is one instance; U0 = 2048 + 1024 (both paths of the factor-4 root) = 3072 */
    ck_assert_int_eq(r->instances, 3);
    ck_assert_int_eq(r->unit_inner, 3072);
    CK_TRIPLE(r->predicted, 1, 0, 0);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* Units over every compiled root (model.md section 6): a path no instance takes (i < 0) holds a
 * 4096 B intermediate, the taken one 512 B.  U0 = 4096 although no instance needs it, so 16
 * instances of 512 B need ceil(16*512 / 4096) = 2 (charging every instance the larger path gave
 * 16); a loop that never runs (trip count 0) still counts: its 8192 B make U0 8192 -> 1. */
START_TEST(units_over_compiled_roots)
{
    for (int with_empty_loop = 0; with_empty_loop < 2; with_empty_loop++) {
        kb b;
        kb_init(&b, "units");
        int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
        int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
        int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
        saved s = loop_begin(&b, "L", 0, 16, 1);
        pc_block *body = b.cur;
        int st = if_begin(&b);
        branch(&b, st, "i < 0", NULL);
        int big = value(&b, "big", PC_UNIT_CUBE, 2, (int64_t[]){16, 64}, x, w);
        write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, big, -1);
        branch(&b, st, NULL, NULL);
        int sm = value(&b, "small", PC_UNIT_CUBE, 2, (int64_t[]){2, 64}, x, w);
        write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, sm, -1);
        b.cur = body;
        loop_end(&b, s);
        if (with_empty_loop) {
            s = loop_begin(&b, "E", 5, 5, 1);
            int huge = value(&b, "huge", PC_UNIT_CUBE, 2, (int64_t[]){32, 64}, x, w);
            write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, huge, -1);
            loop_end(&b, s);
        }
        pc_result *r = run(&b, 128, NULL, PC_INNER_BOUNDARY);
        ck_assert_int_eq(r->instances, 16);
        ck_assert_int_eq(r->unit_inner, with_empty_loop ? 8192 : 4096);
        CK_TRIPLE(r->predicted, with_empty_loop ? 1 : 2, 0, 0);
        ck_assert_int_eq(r->tensors[big].aligned_bytes, 4096);
        /* why: the tensors of the paths taken, not of the one no instance takes */
        ck_assert_int_eq(r->why[0].ntensors, 1);
        ck_assert_str_eq(r->why[0].tensors[0], "small");
        pc_result_free(r);
        pc_model_free(b.m);
    }
}
END_TEST

/* A step of 0 gives no iterations and a flag (never a division by zero or a formula);
 * a walk cut by the instance cap is never reported as exact. */
START_TEST(zero_step_and_truncation)
{
    kb b;
    kb_init(&b, "zs");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 1, (int64_t[]){16});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){64, 16});
    saved s = loop_begin(&b, "Z", 0, 10, 0);
    int v = value(&b, "v", PC_UNIT_VECTOR, 1, (int64_t[]){16}, x, -1);
    loop_end(&b, s);
    s = loop_begin(&b, "R", 0, 64, 1);
    write(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, v, -1);
    loop_end(&b, s);
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *r = run_opts(&b, &opts);
    ck_assert_int_eq(r->nzero_step_loops, 1);
    ck_assert_int_eq(r->zero_step_loops[0], 0);
    ck_assert_int_eq(r->instances, 64);
    ck_assert(!r->truncated);
    ck_assert_ptr_null(r->formulas[2]);
    CK_TRIPLE(r->predicted, 0, 0, 1);
    pc_result_free(r);
    opts.max_instances = 10;
    r = run_opts(&b, &opts);
    ck_assert(r->truncated);
    ck_assert_int_eq(r->instance_limit, 10);
    ck_assert_int_eq(r->instances, -1);
    ck_assert_int_eq(r->device_tasks, -1);
    ck_assert_int_eq(r->predicted[2], -1);
    ck_assert_int_eq(r->bounds[2], 128);
    ck_assert_int_eq(r->predicted[0], 0); /* a pool nothing uses stays exact */
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST


/* A loop of identical iterations is added DeviceTask by DeviceTask in closed form, with
 * the per-instance walk's result.  3,000,000 iterations of [matmul 512 B root_inner, write of an
 * exclusive 1024 B outcast read at the end], k = 100: tasks of 100 instances, ceil(100 * 512 / 512)
 * = 100 and ceil(100 * 1024 / 1024) = 100; the reader closes with one task of 1. */
START_TEST(identical_iterations_closed_form)
{
    kb b;
    kb_init(&b, "big");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int w = tensor(&b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int o = tensor(&b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int e = created(&b, "e", 2, (int64_t[]){4, 64});
    saved s = loop_begin(&b, "L", 0, 3000000, 1);
    int v = value(&b, "v", PC_UNIT_CUBE, 2, (int64_t[]){1, 64}, x, w);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, v, -1);
    write(&b, e, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x, -1);
    loop_end(&b, s);
    s = loop_begin(&b, "R", 0, 1, 1);
    write(&b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, e, -1);
    loop_end(&b, s);
    pc_runtime_config cfg;
    pc_cfg_defaults(&cfg);
    cfg.max_num = 100;
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *fast = pc_analyze(b.m, 0, &cfg, &opts);
    opts.walk_every_instance = true;
    pc_result *walked = pc_analyze(b.m, 0, &cfg, &opts);
    for (pc_result *r = fast; r; r = r == fast ? walked : NULL) {
        ck_assert_int_eq(r->instances, 3000001);
        ck_assert_int_eq(r->device_tasks, 30001);
        CK_TRIPLE(r->predicted, 100, 0, 100);
        ck_assert_int_eq(r->roots[1].instances, 3000000); /* roots[0]: the declaration of e */
        ck_assert_int_eq(r->tasks[29999].last, 2999999);
        ck_assert_int_eq(r->tasks[30000].first, 3000000);
        ck_assert_int_eq(r->why[0].task, 0);
        ck_assert_int_eq(r->why[0].roots[0].instances, 100);
        ck_assert_int_eq(r->ninstances, 0); /* past a million the roots of each instance are not kept */
    }
    pc_result_free(fast);
    pc_result_free(walked);
    pc_model_free(b.m);
}
END_TEST


/* The seed example with L_STATIC = 1,000,000: loop 1 assembles into the kernel-body
 * tmp_assemble, so its first iteration is walked (the allocation) and the rest added in closed
 * form; the result is the per-instance walk's: 2,000,001 instances, tasks of 128, [128, 1, 1]. */
START_TEST(seed_large_closed_form)
{
    kb b;
    build_seed_n(&b, 1000000);
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *fast = pc_analyze(b.m, 0, NULL, &opts);
    opts.walk_every_instance = true;
    pc_result *walked = pc_analyze(b.m, 0, NULL, &opts);
    for (pc_result *r = fast; r; r = r == fast ? walked : NULL) {
        ck_assert_int_eq(r->instances, 2000001);
        ck_assert_int_eq(r->device_tasks, 15626);
        CK_TRIPLE(r->predicted, 128, 1, 1);
        ck_assert_int_eq(r->assemble_live_max, 1);
        ck_assert_int_eq(r->ncross_task_assemble, 1);
    }
    ck_assert_int_eq(fast->ntasks, walked->ntasks);
    for (int64_t t = 0; t < fast->ntasks; t++) {
        ck_assert_int_eq(fast->tasks[t].last, walked->tasks[t].last);
        ck_assert_mem_eq(fast->tasks[t].need, walked->tasks[t].need, sizeof fast->tasks[t].need);
    }
    pc_result_free(fast);
    pc_result_free(walked);
    pc_model_free(b.m);
}
END_TEST

/* The closed form against the per-instance walk, in the fields reports read. */
static void assert_same(const pc_result *a, const pc_result *b)
{
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(a->predicted[i], b->predicted[i]);
        ck_assert_int_eq(a->why[i].task, b->why[i].task);
        ck_assert_int_eq(a->why[i].first_instance, b->why[i].first_instance);
        ck_assert_int_eq(a->why[i].nroots, b->why[i].nroots);
        ck_assert_int_eq(a->why[i].ntensors, b->why[i].ntensors);
        for (int j = 0; j < a->why[i].nroots; j++)
            ck_assert_int_eq(a->why[i].roots[j].instances, b->why[i].roots[j].instances);
    }
    ck_assert_int_eq(a->instances, b->instances);
    ck_assert_int_eq(a->device_tasks, b->device_tasks);
    ck_assert_int_eq(a->ntasks, b->ntasks);
    for (int64_t t = 0; t < a->ntasks; t++) {
        ck_assert_int_eq(a->tasks[t].first, b->tasks[t].first);
        ck_assert_int_eq(a->tasks[t].last, b->tasks[t].last);
        ck_assert_int_eq(a->tasks[t].close, b->tasks[t].close);
        ck_assert_mem_eq(a->tasks[t].need, b->tasks[t].need, sizeof a->tasks[t].need);
    }
    for (int i = 0; i < a->nroots; i++)
        ck_assert_int_eq(a->roots[i].instances, b->roots[i].instances);
    ck_assert_int_eq(a->ws_predicted, b->ws_predicted);
    ck_assert_int_eq(a->assemble_live_max, b->assemble_live_max);
    ck_assert_int_eq(a->ncross_task_assemble, b->ncross_task_assemble);
}

/* The seed example with L_STATIC = 10^12 is exact (the instance cap of 50 million made
 * it a bound before): 2*10^12 + 1 instances, ceil(that / 128) DeviceTasks, [128, 1, 1] from
 * DeviceTask 1, the first full task of l_loop_1 (task 0 holds l_loop_0 and 127 of l_loop_1). */
START_TEST(seed_trillion_exact)
{
    kb b;
    build_seed_n(&b, 1000000000000LL);
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *r = pc_analyze(b.m, 0, NULL, &opts);
    ck_assert(!r->truncated);
    ck_assert_int_eq(r->instances, 2000000000001LL);
    ck_assert_int_eq(r->device_tasks, 15625000001LL);
    CK_TRIPLE(r->predicted, 128, 1, 1);
    ck_assert_int_eq(r->why[0].task, 1);
    ck_assert_int_eq(r->why[0].first_instance, 128);
    ck_assert_int_eq(r->why[0].nroots, 1);
    ck_assert_int_eq(r->why[0].roots[0].instances, 128);
    ck_assert_int_eq(r->why[1].task, 0);
    ck_assert_int_eq(r->roots[2].instances, 1000000000000LL);
    ck_assert_int_eq(r->roots[3].instances, 1000000000000LL);
    ck_assert_int_eq(r->ncross_task_assemble, 1);
    ck_assert_ptr_null(r->tasks); /* too many to list; device_tasks counts them */
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* "exact for trip counts up to 2^62": the seed example at L = 2^61 - 1 has 2^62 - 1
 * instances (the walk stopped at 2^61 before: truncated), ceil(that / 128) = 2^55 DeviceTasks;
 * at L = 2^62 (2^63 + 1 instances, past int64) it stops as truncated, never a wrapped count. */
START_TEST(seed_two_to_the_62_exact)
{
    kb b;
    build_seed_n(&b, (INT64_C(1) << 61) - 1);
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *r = pc_analyze(b.m, 0, NULL, &opts);
    ck_assert(!r->truncated);
    ck_assert_int_eq(r->instances, (INT64_C(1) << 62) - 1);
    ck_assert_int_eq(r->device_tasks, INT64_C(1) << 55);
    CK_TRIPLE(r->predicted, 128, 1, 1);
    pc_result_free(r);
    pc_model_free(b.m);
    build_seed_n(&b, INT64_C(1) << 62);
    r = pc_analyze(b.m, 0, NULL, &opts);
    ck_assert(r->truncated);
    ck_assert(r->too_many_instances);
    pc_result_free(r);
    pc_model_free(b.m);
}
END_TEST

/* Nested loops with paths decided by the indices: for i < N, for j < M:
 * if i == 0 or j % 2 == 0: a matmul (root_inner 512 B) else a vector write.  The first outer
 * iteration fills tasks with matmuls (128), the others alternate (64 per task of 128).  Exact for
 * N = M = 100,000 (10^10 instances), and the same as the per-instance walk for small N, M. */
static void build_nested_paths(kb *b, int64_t n, int64_t m, bool with_barrier)
{
    kb_init(b, "nested");
    int x = tensor(b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int w = tensor(b, "w", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int o = tensor(b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    saved so = loop_begin(b, "outer", 0, n, 1);
    saved si = loop_begin(b, "inner", 0, m, 1);
    K(b)->loops[last_loop(b)].index_var = pc_model_strdup(b->m, "j");
    K(b)->loops[last_loop(b)].submit_before_loop = with_barrier;
    int st = if_begin(b);
    pc_block *blk = b->cur;
    branch(b, st, "i == 0 or j % 2 == 0", NULL);
    int v = value(b, "v", PC_UNIT_CUBE, 2, (int64_t[]){1, 64}, x, w);
    write(b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, v, -1);
    branch(b, st, NULL, NULL);
    write(b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1);
    b->cur = blk;
    loop_end(b, si);
    write(b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1); /* a root after the inner loop */
    loop_end(b, so);
}

START_TEST(nested_paths_exact)
{
    kb b;
    build_nested_paths(&b, 100000, 100000, false);
    pc_analysis_opts opts;
    pc_an_default_opts(&opts);
    pc_result *r = pc_analyze(b.m, 0, NULL, &opts);
    ck_assert(!r->truncated);
    ck_assert_int_eq(r->instances, 10000000000LL + 100000);
    ck_assert_int_eq(r->device_tasks, (10000000000LL + 100000 + 127) / 128);
    CK_TRIPLE(r->predicted, 128, 0, 0);
    ck_assert_int_eq(r->why[0].task, 0);
    pc_result_free(r);
    pc_model_free(b.m);
    /* small sizes, with and without a barrier before the inner loop, several k: both modes */
    int64_t sizes[][2] = {{7, 300}, {300, 7}, {40, 129}, {3, 1000}};
    int64_t ks[] = {128, 5, 3, 1};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int bar = 0; bar < 2; bar++)
            for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
                build_nested_paths(&b, sizes[z][0], sizes[z][1], bar);
                pc_runtime_config cfg;
                pc_cfg_defaults(&cfg);
                cfg.max_num = ks[q];
                pc_an_default_opts(&opts);
                pc_result *fast = pc_analyze(b.m, 0, &cfg, &opts);
                opts.walk_every_instance = true;
                pc_result *walked = pc_analyze(b.m, 0, &cfg, &opts);
                assert_same(fast, walked);
                ck_assert_int_eq(fast->instances, sizes[z][0] * (sizes[z][1] + 1));
                pc_result_free(fast);
                pc_result_free(walked);
                pc_model_free(b.m);
            }
}
END_TEST

/* A loop-body assemble tensor (a new allocation each outer iteration, assembled by an inner loop
 * and read after it, so carried into the next DeviceTask by its reader): the periods repeat with
 * allocation events, the state holds the allocations relative to the open task, and the closed
 * form gives the per-instance walk's results (every task, its assemble need, PC011's crossing);
 * at 10^9 outer iterations the depths are those of the walked small case. */
static void build_body_assemble(kb *b, int64_t n, int64_t m)
{
    kb_init(b, "body_asm");
    int x = tensor(b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    int o = tensor(b, "o", PC_TENSOR_PARAM, 2, (int64_t[]){64, 64});
    saved so = loop_begin(b, "outer", 0, n, 1);
    int sa = created(b, "sa", 2, (int64_t[]){4, 64});
    saved si = loop_begin(b, "inner", 0, m, 1);
    K(b)->loops[last_loop(b)].index_var = pc_model_strdup(b->m, "j");
    write(b, sa, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, x, -1);
    loop_end(b, si);
    write(b, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, sa, -1);
    loop_end(b, so);
}

START_TEST(body_assemble_walked_exact)
{
    kb b;
    int64_t ks[] = {128, 7, 4, 3};
    int64_t sizes[][2] = {{50, 9}, {2000, 20}, {700, 3}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
            build_body_assemble(&b, sizes[z][0], sizes[z][1]);
            pc_runtime_config cfg;
            pc_cfg_defaults(&cfg);
            cfg.max_num = ks[q];
            pc_analysis_opts opts;
            pc_an_default_opts(&opts);
            pc_result *fast = pc_analyze(b.m, 0, &cfg, &opts);
            opts.walk_every_instance = true;
            pc_result *walked = pc_analyze(b.m, 0, &cfg, &opts);
            assert_same(fast, walked);
            if (z == 1)
                ck_assert_int_gt(fast->fast_forwards, 0);
            pc_model_free(b.m);
            if (z == 1) {
                build_body_assemble(&b, 1000000000, 20);
                pc_an_default_opts(&opts);
                pc_result *big = pc_analyze(b.m, 0, &cfg, &opts);
                ck_assert(!big->truncated);
                ck_assert_int_eq(big->instances, 21000000000LL);
                ck_assert_int_eq(big->device_tasks, (21000000000LL + ks[q] - 1) / ks[q]);
                for (int i = 0; i < 3; i++)
                    ck_assert_int_eq(big->predicted[i], walked->predicted[i]);
                ck_assert_int_eq(big->why[1].task, walked->why[1].task);
                ck_assert_int_eq(big->ncross_task_assemble, walked->ncross_task_assemble);
                pc_result_free(big);
                pc_model_free(b.m);
            }
            pc_result_free(fast);
            pc_result_free(walked);
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("analysis");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, seed_example);
    tcase_add_test(tc, seed_headroom_zero_and_precise);
    tcase_add_test(tc, window_overflow);
    tcase_add_test(tc, barrier);
    tcase_add_test(tc, unroll_weighting);
    tcase_add_test(tc, assemble_per_outer);
    tcase_add_test(tc, loop_carried);
    tcase_add_test(tc, dynamic_trip);
    tcase_add_test(tc, inner_policy);
    tcase_add_test(tc, if_paths);
    tcase_add_test(tc, no_op_root_and_param_views);
    tcase_add_test(tc, parallel_loop);
    tcase_add_test(tc, view_define_is_not_a_write);
    tcase_add_test(tc, path_decided_per_instance);
    tcase_add_test(tc, path_elif_chain_no_op_and_loop_predicates);
    tcase_add_test(tc, path_undecidable_and_bound);
    tcase_add_test(tc, unroll_per_factor_and_greedy);
    tcase_add_test(tc, unroll_loop_predicates_and_factor);
    tcase_add_test(tc, units_over_compiled_roots);
    tcase_add_test(tc, zero_step_and_truncation);
    tcase_add_test(tc, identical_iterations_closed_form);
    tcase_add_test(tc, seed_large_closed_form);
    tcase_add_test(tc, seed_trillion_exact);
    tcase_add_test(tc, seed_two_to_the_62_exact);
    tcase_add_test(tc, nested_paths_exact);
    tcase_add_test(tc, body_assemble_walked_exact);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
