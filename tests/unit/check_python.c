/* check_python.c - the Python frontend (analyzer/frontend/python): source -> pc_model.
 *
 * Every test parses a small kernel with pc_py_parse and checks the model the analysis will read:
 * kernels, parameters, tensors and their kinds, accesses and units, loops, branches, option sites
 * with their exact source extents, and the behaviour on broken input. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "poolcheck/frontend.h"
#include "poolcheck/model.h"

#define SEED PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py"

/* ---- helpers ---------------------------------------------------------------------------------- */

static pc_model *parse(const char *src)
{
    pc_model *m = pc_py_parse("test.py", src, strlen(src), NULL);
    ck_assert_ptr_nonnull(m);
    return m;
}

static const pc_kernel *kernel(const pc_model *m, const char *name)
{
    for (int i = 0; i < m->nkernels; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    ck_abort_msg("no kernel named %s (%d kernels)", name, m->nkernels);
    return NULL;
}

/* The n-th (0-based) tensor defined under variable `var`. */
static const pc_tensor *tensor_n(const pc_kernel *k, const char *var, int n)
{
    for (int i = 0; i < k->ntensors; i++)
        if (strcmp(k->tensors[i].variable, var) == 0 && n-- == 0)
            return &k->tensors[i];
    ck_abort_msg("kernel %s has no tensor %s", k->name, var);
    return NULL;
}

static const pc_tensor *tensor(const pc_kernel *k, const char *var) { return tensor_n(k, var, 0); }

static int count_tensors(const pc_kernel *k, const char *var)
{
    int n = 0;
    for (int i = 0; i < k->ntensors; i++)
        n += strcmp(k->tensors[i].variable, var) == 0;
    return n;
}

/* Number of accesses of `kind` with `unit` to tensor t anywhere in the kernel. */
static int accesses(const pc_kernel *k, int t, pc_access_kind kind, pc_unit unit)
{
    int n = 0;
    for (int s = 0; s < k->nstmts; s++)
        for (int a = 0; a < k->stmts[s].naccesses; a++) {
            const pc_access *x = &k->stmts[s].accesses[a];
            n += x->tensor == t && x->kind == kind && x->unit == unit;
        }
    return n;
}

static int any_access(const pc_kernel *k, int t, pc_access_kind kind)
{
    int n = 0;
    for (int s = 0; s < k->nstmts; s++)
        for (int a = 0; a < k->stmts[s].naccesses; a++)
            n += k->stmts[s].accesses[a].tensor == t && k->stmts[s].accesses[a].kind == kind;
    return n;
}

static const pc_loop *loop_named(const pc_kernel *k, const char *name)
{
    for (int i = 0; i < k->nloops; i++)
        if (strcmp(k->loops[i].name, name) == 0)
            return &k->loops[i];
    ck_abort_msg("kernel %s has no loop %s", k->name, name);
    return NULL;
}

static bool expr_is(const pc_expr *e, const char *text)
{
    char *s = pc_expr_to_string(e);
    bool same = strcmp(s, text) == 0;
    if (!same)
        fprintf(stderr, "expression is '%s', expected '%s'\n", s, text);
    free(s);
    return same;
}

static bool shape_is(const pc_tensor *t, const char *text)
{
    char buf[512] = "[";
    if (t->ndims < 0 || !t->shape) {
        strcpy(buf, "?");
    } else {
        for (int d = 0; d < t->ndims; d++) {
            char *s = pc_expr_to_string(t->shape[d]);
            strncat(buf, s, sizeof buf - strlen(buf) - 4);
            if (d + 1 < t->ndims)
                strcat(buf, ", ");
            free(s);
        }
        strcat(buf, "]");
    }
    if (strcmp(buf, text) != 0)
        fprintf(stderr, "tensor %s has shape %s, expected %s\n", t->variable, buf, text);
    return strcmp(buf, text) == 0;
}

static const pc_option *option(const pc_model *m, const char *key, pc_optsite_kind site, int nth)
{
    for (int i = 0; i < m->noptions; i++)
        if (strcmp(m->options[i].key, key) == 0 && m->options[i].site == site && nth-- == 0)
            return &m->options[i];
    ck_abort_msg("no option %s at site %s", key, pc_optsite_kind_name(site));
    return NULL;
}

static void loc_is(pc_loc l, uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col)
{
    ck_assert_msg(l.line == line && l.col == col && l.end_line == end_line && l.end_col == end_col,
                  "location %u:%u-%u:%u, expected %u:%u-%u:%u", l.line, l.col, l.end_line, l.end_col, line, col,
                  end_line, end_col);
}

static bool has_fatal(const pc_model *m, uint32_t line, uint32_t col, const char *fragment)
{
    for (int i = 0; i < m->nmessages; i++)
        if (m->messages[i].kind == PC_MSG_FATAL && m->messages[i].loc.line == line &&
            (!col || m->messages[i].loc.col == col) && strstr(m->messages[i].text, fragment))
            return true;
    for (int i = 0; i < m->nmessages; i++)
        fprintf(stderr, "message %d:%d %s\n", m->messages[i].loc.line, m->messages[i].loc.col, m->messages[i].text);
    return false;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *write_temp(const char *name, const char *content, size_t len)
{
    char *path = malloc(4096);
    snprintf(path, 4096, "/tmp/pc_py_%d_%s", (int)getpid(), name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(content, 1, len, f), len);
    fclose(f);
    return path;
}

/* ---- the seed example -------------------------------------------------------------------------- */

START_TEST(seed_example)
{
    double t0 = now();
    pc_model *m = pc_py_parse(SEED, NULL, 0, NULL);
    double t1 = now();
    pc_model_free(pc_py_parse(SEED, NULL, 0, NULL));
    double t2 = now();
    fprintf(stderr, "seed example: first parse (interpreter start included) %.2f ms, second %.2f ms\n",
            (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->lang, PC_LANG_PYTHON);
    ck_assert_int_eq(m->nkernels, 1);
    const pc_kernel *k = &m->kernels[0];
    ck_assert_str_eq(k->name, "k_tmp_to_d_emb");
    loc_is(k->loc, 13, 1, 13, 19);         /* `def k_tmp_to_d_emb` */
    ck_assert_uint_eq(k->insert_loc.line, 12); /* the decorator */
    ck_assert_uint_eq(k->insert_loc.col, 1);

    const char *params[] = {"dy", "weight", "output1", "output2"};
    int nparams = 0;
    for (int i = 0; i < k->ntensors; i++)
        nparams += k->tensors[i].kind == PC_TENSOR_PARAM;
    ck_assert_int_eq(nparams, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(k->tensors[i].kind, PC_TENSOR_PARAM);
        ck_assert_str_eq(k->tensors[i].variable, params[i]);
        ck_assert_int_eq(k->tensors[i].dtype, PC_DT_FP32);
    }
    ck_assert(shape_is(tensor(k, "dy"), "[1, 64, 1, 16]"));
    ck_assert(shape_is(tensor(k, "weight"), "[1, 16, 16]"));

    const pc_tensor *ta = tensor(k, "tmp_assemble"), *te = tensor(k, "tmp_exclusive");
    ck_assert_int_eq(ta->kind, PC_TENSOR_CREATED);
    ck_assert_str_eq(ta->name, "tmp_assemble");
    ck_assert_int_eq(ta->scope_loop, -1);
    ck_assert_int_eq(te->kind, PC_TENSOR_CREATED);
    ck_assert_str_eq(te->name, "tmp_exclusive");
    ck_assert(shape_is(ta, "[1, 64, 1, 16]"));
    ck_assert_int_eq(ta->dtype, PC_DT_FP32); /* output1.dtype */

    /* loop 0: tmp_exclusive[:] = pypto.add(dy, dy): a whole write by the vector unit */
    ck_assert_int_eq(accesses(k, te->id, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(accesses(k, tensor(k, "dy")->id, PC_ACC_READ, PC_UNIT_VECTOR), 2);

    /* loop 1: dy_v is a view of dy; dx is a cube result read by a vector op; the assemble */
    const pc_tensor *dyv = tensor(k, "dy_v");
    ck_assert_int_eq(dyv->kind, PC_TENSOR_VIEW);
    ck_assert_int_eq(dyv->base, tensor(k, "dy")->id);
    ck_assert(shape_is(dyv, "[t, 16]"));
    const pc_tensor *dx = tensor(k, "dx");
    ck_assert_int_eq(dx->kind, PC_TENSOR_VALUE);
    ck_assert(shape_is(dx, "[t, 16]")); /* [t,16] x [16,16]^T */
    ck_assert_int_eq(accesses(k, dx->id, PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(accesses(k, dx->id, PC_ACC_READ, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(accesses(k, dyv->id, PC_ACC_READ, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(accesses(k, tensor(k, "weight")->id, PC_ACC_READ, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(accesses(k, ta->id, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(dx->def_stmt >= 0, 1);
    ck_assert_int_eq(k->stmts[dx->def_stmt].has_op, true);
    /* no tensor of its own for `dx + 0.0`: exactly 8 tensors */
    ck_assert_int_eq(k->ntensors, 8);

    /* loop 2: reads of both temporaries, assembles into the outputs */
    ck_assert_int_eq(accesses(k, ta->id, PC_ACC_READ, PC_UNIT_NONE), 1);
    ck_assert_int_eq(accesses(k, te->id, PC_ACC_READ, PC_UNIT_NONE), 1);
    ck_assert_int_eq(accesses(k, tensor(k, "output1")->id, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);

    ck_assert_int_eq(k->nloops, 3);
    const char *names[] = {"l_loop_0", "l_loop_1", "l_loop_2"};
    const char *idx[] = {"i_idx", "j_idx", "k_idx"};
    const char *ends[] = {"1", "64", "64"};
    for (int i = 0; i < 3; i++) {
        const pc_loop *l = &k->loops[i];
        ck_assert_str_eq(l->name, names[i]);
        ck_assert_str_eq(l->index_var, idx[i]);
        ck_assert_ptr_nonnull(l->factor_var);
        ck_assert_str_eq(l->factor_var, "t");
        ck_assert_int_eq(l->nunroll, 0); /* default unroll list [1] */
        ck_assert(expr_is(l->begin, "0"));
        ck_assert(expr_is(l->end, ends[i]));
        ck_assert(expr_is(l->step, "1"));
        ck_assert_int_eq(l->parent, -1);
        ck_assert(!l->submit_before_loop && !l->parallel);
        ck_assert_int_eq(k->stmts[l->stmt].kind, PC_STMT_LOOP);
        ck_assert_int_eq(k->stmts[l->stmt].loop, i);
    }
    ck_assert_int_eq(dx->scope_loop, 1);
    ck_assert_int_eq(k->loops[1].body.count, 3); /* dy_v, dx, the assemble (tile-shape calls do no work) */
    /* module constants */
    bool found = false;
    for (int i = 0; i < k->nconstants; i++)
        found |= strcmp(k->constants[i].name, "L_STATIC") == 0 && k->constants[i].value == 64;
    ck_assert(found);
    ck_assert_int_eq(m->noptions, 0);
    pc_model_free(m);
}
END_TEST

/* ---- kernel recognition ------------------------------------------------------------------------ */

START_TEST(aliases)
{
    pc_model *m = parse("import pypto as pp\n"
                        "import pypto\n"
                        "from pypto import frontend\n"
                        "from pypto.frontend import jit\n"
                        "import pypto.frontend as pf\n"
                        "\n"
                        "@pp.frontend.jit\n"
                        "def k_pp(x: pp.Tensor([4], pp.DT_FP16)):\n"
                        "    x[:] = pp.exp(x)\n"
                        "@frontend.jit(runtime_options={'stitch_function_max_num': 64})\n"
                        "def k_frontend(x: pypto.Tensor[[4, 8], pypto.DT_BF16]):\n"
                        "    pass\n"
                        "@jit\n"
                        "def k_jit(x): pass\n"
                        "@pf.jit()\n"
                        "def k_pf(x): pass\n"
                        "@pypto.jit\n"
                        "def k_short(x): pass\n"
                        "@pypto.frontend.function\n"
                        "def not_a_kernel(x): pass\n"
                        "@other.jit\n"
                        "def not_pypto(x): pass\n");
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 5);
    const pc_kernel *k = kernel(m, "k_pp");
    ck_assert_int_eq(tensor(k, "x")->dtype, PC_DT_FP16);
    ck_assert_int_eq(accesses(k, 0, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR), 1);
    k = kernel(m, "k_frontend");
    ck_assert(shape_is(tensor(k, "x"), "[4, 8]"));
    ck_assert_int_eq(tensor(k, "x")->dtype, PC_DT_BF16);
    ck_assert_int_eq(option(m, "stitch_function_max_num", PC_SITE_JIT, 0)->kernel, k->id);
    (void)kernel(m, "k_jit");
    (void)kernel(m, "k_pf");
    (void)kernel(m, "k_short");
    ck_assert_int_eq(kernel(m, "k_jit")->ntensors, 0); /* an unannotated parameter is not a tensor */
    pc_model_free(m);

    /* from pypto import *: bare API names */
    m = parse("from pypto import *\n"
              "@jit\n"
              "def k(x: Tensor([8], DT_FP32)):\n"
              "    for i in loop(2, name='L'):\n"
              "        x[i:i+1] = x[i:i+1] * 2.0\n");
    ck_assert_int_eq(m->nkernels, 1);
    ck_assert_int_eq(m->kernels[0].nloops, 1);
    ck_assert_int_eq(tensor(&m->kernels[0], "x")->dtype, PC_DT_FP32);
    pc_model_free(m);
}
END_TEST

START_TEST(dynamic_parameters)
{
    pc_model *m = parse("import pypto\n"
                        "N = pypto.frontend.dynamic('n')\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([pypto.DYNAMIC, 16, pypto.DYN], pypto.DT_FP32),\n"
                        "      y: pypto.Tensor([N, 2 * 8], pypto.DT_INT8), flag: int, scale: float = 1.0):\n"
                        "    rows = x.shape[0]\n"
                        "    for i in pypto.loop(0, rows // 4, 2, name='L', parallel=True, unroll_list=[4, 2]):\n"
                        "        y[i:i+1, :] = pypto.cast(x[i:i+1, :, 0], pypto.DT_INT8)\n"
                        "    for j in pypto.loop(flag):\n"
                        "        pass\n");
    ck_assert(!m->fatal);
    const pc_kernel *k = &m->kernels[0];
    ck_assert_int_eq(k->ntensors, 2); /* flag and scale are not tensors */
    ck_assert(shape_is(tensor(k, "x"), "[x.shape[0], 16, x.shape[2]]"));
    ck_assert(shape_is(tensor(k, "y"), "[n, 16]"));
    ck_assert_int_eq(tensor(k, "y")->dtype, PC_DT_INT8);
    const pc_loop *l = loop_named(k, "L");
    ck_assert(expr_is(l->end, "x.shape[0]//4"));
    ck_assert(expr_is(l->step, "2"));
    ck_assert(l->parallel);
    ck_assert_int_eq(l->nunroll, 2);
    ck_assert_int_eq(l->unroll[0], 4);
    ck_assert_int_eq(l->unroll[1], 2);
    ck_assert_ptr_null(l->factor_var);
    /* an unnamed loop gets a name from its line; an int parameter is a symbol */
    const pc_loop *l2 = &k->loops[1];
    ck_assert_str_eq(l2->name, "loop_9");
    ck_assert(expr_is(l2->end, "flag"));
    pc_model_free(m);
}
END_TEST

START_TEST(legacy_with_function)
{
    pc_model *m = parse("import pypto\n"
                        "def test_add():\n"
                        "    n = 16\n"
                        "    a = pypto.tensor([n, 32], pypto.DT_FP16, 'a_in')\n"
                        "    b = pypto.tensor((n, 32), pypto.DT_FP16, 'b_out')\n"
                        "    golden = a\n"
                        "    with pypto.function('main', a, b):\n"
                        "        for i in pypto.loop(4, name='L0', submit_before_loop=True):\n"
                        "            t = pypto.add(a, a)\n"
                        "            b.move(t)\n"
                        "    print(golden)\n");
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 1);
    const pc_kernel *k = kernel(m, "main");
    ck_assert_uint_eq(k->loc.line, 7);
    ck_assert_uint_eq(k->loc.col, 5);
    const pc_tensor *a = &k->tensors[0], *b = &k->tensors[1];
    ck_assert_int_eq(a->kind, PC_TENSOR_PARAM);
    ck_assert_str_eq(a->variable, "a");
    ck_assert_str_eq(a->name, "a_in");
    ck_assert_int_eq(b->kind, PC_TENSOR_PARAM);
    ck_assert_str_eq(b->name, "b_out");
    ck_assert(shape_is(b, "[16, 32]"));
    ck_assert_int_eq(b->dtype, PC_DT_FP16);
    const pc_tensor *t = tensor(k, "t");
    ck_assert_int_eq(t->kind, PC_TENSOR_VALUE);
    ck_assert_int_eq(t->scope_loop, 0);
    ck_assert_int_eq(accesses(k, b->id, PC_ACC_WRITE_WHOLE, PC_UNIT_NONE), 1); /* b.move(t) */
    ck_assert_int_eq(accesses(k, t->id, PC_ACC_READ, PC_UNIT_NONE), 1);
    ck_assert(k->loops[0].submit_before_loop);
    bool n_const = false;
    for (int i = 0; i < k->nconstants; i++)
        n_const |= strcmp(k->constants[i].name, "n") == 0 && k->constants[i].value == 16;
    ck_assert(n_const);
    pc_model_free(m);
}
END_TEST

START_TEST(helper_inlining)
{
    pc_model *m = parse("import pypto\n"
                        "def scale(v, factor=2.0):\n"
                        "    w = pypto.mul(v, factor)\n"
                        "    return w\n"
                        "@pypto.frontend.function\n"
                        "def fill(dst, src):\n"
                        "    for r in range(2):\n"
                        "        dst[r:r+1, :] = src[r:r+1, :] + 1.0\n"
                        "def forever(v):\n"
                        "    return forever(v)\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([2, 8], pypto.DT_FP32), o: pypto.Tensor([2, 8], pypto.DT_FP32)):\n"
                        "    for i in pypto.loop(3, name='L'):\n"
                        "        y = scale(x, factor=3.0)\n"
                        "        fill(o, y)\n"
                        "        z = forever(y)\n");
    ck_assert(!m->fatal);
    const pc_kernel *k = &m->kernels[0];
    const pc_tensor *w = tensor(k, "w");
    /* the helper's op result is its own value; `y = scale(...)` names the returned tensor again */
    ck_assert_int_eq(w->kind, PC_TENSOR_VALUE);
    ck_assert_int_eq(count_tensors(k, "y"), 0);
    ck_assert_int_eq(w->scope_loop, 0);
    ck_assert_int_eq(accesses(k, 0, PC_ACC_READ, PC_UNIT_VECTOR), 1); /* mul reads x */
    /* fill(o, y): two compile-time iterations, two assembles into o reading the returned value */
    ck_assert_int_eq(accesses(k, 1, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR), 2);
    ck_assert_int_eq(accesses(k, w->id, PC_ACC_READ, PC_UNIT_VECTOR), 2);
    /* the helper's statements sit in the loop body, in call order */
    ck_assert_int_eq(k->stmts[w->def_stmt].loc.line, 3);
    ck_assert_int_eq(k->loops[0].body.count, 3); /* mul, two unrolled assembles */
    /* recursion is not followed: a warning, no crash */
    bool warned = false;
    for (int i = 0; i < m->nmessages; i++)
        warned |= m->messages[i].kind == PC_MSG_WARNING && strstr(m->messages[i].text, "recursive") != NULL;
    ck_assert(warned);
    pc_model_free(m);
}
END_TEST

START_TEST(writes_and_views)
{
    pc_model *m = parse("import pypto\n"
                        "@pypto.frontend.jit\n"
                        "def k(a: pypto.Tensor([8, 32], pypto.DT_FP32), b: pypto.Tensor([32, 16], pypto.DT_FP32),\n"
                        "      o: pypto.Tensor([8, 16], pypto.DT_FP32)):\n"
                        "    t = pypto.tensor([8, 16], pypto.DT_FP32, 'tmp')\n"
                        "    z = pypto.zeros(8, 16, dtype=pypto.DT_FP16)\n"
                        "    t[:] = pypto.matmul(a, b, pypto.DT_FP32)\n"
                        "    t[0:4, :] = a[0:4, 0:16]\n"
                        "    t[1, 2] = 3.0\n"
                        "    t[1] = a[1, 0:16]\n"
                        "    pypto.assemble(a[0:8, 0:16] * 2.0, [0, 0], o)\n"
                        "    pypto.assemble([(t, [0, 0])], o)\n"
                        "    s = pypto.sum(a, dim=-1, keepdim=True)\n"
                        "    r = pypto.amax(a, 0)\n"
                        "    v = pypto.view(a, [4, 32], [0, 0])\n"
                        "    rs = pypto.reshape(a, [256])\n"
                        "    mt = pypto.matmul(b, a, pypto.DT_FP16, a_trans=True, b_trans=True)\n"
                        "    c = pypto.concat([a, a], 0)\n"
                        "    tr = pypto.transpose(a, 0, 1)\n"
                        "    q = a @ b\n"
                        "    e = pypto.exp(pypto.matmul(a, b, pypto.DT_FP32))\n"
                        "    o.move(e)\n");
    ck_assert(!m->fatal);
    const pc_kernel *k = &m->kernels[0];
    const pc_tensor *t = tensor(k, "t"), *z = tensor(k, "z");
    int a = tensor(k, "a")->id, o = tensor(k, "o")->id;
    ck_assert_int_eq(t->kind, PC_TENSOR_CREATED);
    ck_assert_str_eq(t->name, "tmp");
    ck_assert_int_eq(z->kind, PC_TENSOR_CREATED);
    ck_assert(shape_is(z, "[8, 16]"));
    ck_assert_int_eq(z->dtype, PC_DT_FP16);
    ck_assert_int_eq(accesses(k, z->id, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR), 1); /* zeros fills it */
    ck_assert_int_eq(accesses(k, t->id, PC_ACC_WRITE_WHOLE, PC_UNIT_CUBE), 1);   /* t[:] = matmul */
    ck_assert_int_eq(any_access(k, t->id, PC_ACC_WRITE_ASSEMBLE), 2);            /* t[0:4,:] and t[1] */
    ck_assert_int_eq(any_access(k, t->id, PC_ACC_WRITE_ELEMENT), 1);             /* t[1, 2] = 3.0 */
    ck_assert_int_eq(accesses(k, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(accesses(k, o, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE), 1);
    ck_assert_int_eq(accesses(k, o, PC_ACC_WRITE_WHOLE, PC_UNIT_NONE), 1);       /* o.move(e) */
    ck_assert_int_eq(accesses(k, t->id, PC_ACC_READ, PC_UNIT_NONE), 1);          /* assemble list form */
    ck_assert(shape_is(tensor(k, "s"), "[8, 1]"));
    ck_assert(shape_is(tensor(k, "r"), "[32]"));
    const pc_tensor *v = tensor(k, "v");
    ck_assert_int_eq(v->kind, PC_TENSOR_VIEW);
    ck_assert_int_eq(v->base, a);
    ck_assert(shape_is(v, "[4, 32]"));
    ck_assert_int_eq(tensor(k, "rs")->kind, PC_TENSOR_VIEW);
    ck_assert(shape_is(tensor(k, "rs"), "[256]"));
    ck_assert(shape_is(tensor(k, "mt"), "[16, 8]")); /* b^T [16,32] x a^T [32,8] */
    ck_assert_int_eq(tensor(k, "mt")->dtype, PC_DT_FP16);
    ck_assert(shape_is(tensor(k, "c"), "[16, 32]"));
    ck_assert(shape_is(tensor(k, "tr"), "[32, 8]"));
    ck_assert(shape_is(tensor(k, "q"), "[8, 16]"));
    ck_assert_int_eq(accesses(k, tensor(k, "q")->id, PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    /* pypto.exp(pypto.matmul(...)): the inner result is an anonymous cube value read by the vector */
    int anon = -1;
    for (int i = 0; i < k->ntensors; i++)
        if (!*k->tensors[i].variable)
            anon = i;
    ck_assert_int_ge(anon, 0);
    ck_assert_int_eq(accesses(k, anon, PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(accesses(k, anon, PC_ACC_READ, PC_UNIT_VECTOR), 1);
    pc_model_free(m);
}
END_TEST

START_TEST(loops_and_branches)
{
    pc_model *m = parse("import pypto\n"
                        "DEBUG = False\n"
                        "T = 4\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([64, 16], pypto.DT_FP32), o: pypto.Tensor([64, 16], pypto.DT_FP32)):\n"
                        "    h = x[0:16, :] * 1.0\n"
                        "    for i, f in pypto.loop_unroll(0, 64, 16, name='U', unroll_list=[2]):\n"
                        "        blk = x[i : i + f * 16, :]\n"
                        "        if pypto.is_loop_begin(i):\n"
                        "            h = h + 1.0\n"
                        "        elif pypto.cond(i > 32):\n"
                        "            h = h + 2.0\n"
                        "        if DEBUG:\n"
                        "            h = h * 0.0\n"
                        "        else:\n"
                        "            for r in range(T):\n"
                        "                o[r:r+1, :] = blk[r:r+1, :]\n"
                        "        if i == 3:\n"
                        "            o[0:1, :] = h\n"
                        "        for j in pypto.loop(2, name='inner'):\n"
                        "            o[j:j+1, :] = h\n");
    ck_assert(!m->fatal);
    const pc_kernel *k = &m->kernels[0];
    const pc_loop *u = loop_named(k, "U"), *in = loop_named(k, "inner");
    ck_assert_str_eq(u->factor_var, "f");
    ck_assert_int_eq(u->nunroll, 1);
    ck_assert(expr_is(u->step, "16"));
    ck_assert_int_eq(in->parent, u->id);
    ck_assert(shape_is(tensor(k, "blk"), "[16*f, 16]"));
    /* two dynamic ifs (the second `if` on DEBUG is decided: no statement for it) */
    int ifs = 0, three = 0;
    for (int s = 0; s < k->nstmts; s++)
        if (k->stmts[s].kind == PC_STMT_IF) {
            ifs++;
            three += k->stmts[s].nbranches == 3;
            for (int b = 0; b < k->stmts[s].nbranches; b++)
                ck_assert_int_eq(k->stmts[s].branches[b].decided, -1);
        }
    ck_assert_int_eq(ifs, 2);
    ck_assert_int_eq(three, 1); /* if / elif / (empty) else */
    /* h: kernel body, two in the branches; none from the DEBUG branch */
    ck_assert_int_eq(count_tensors(k, "h"), 3);
    ck_assert_int_eq(tensor_n(k, "h", 1)->scope_loop, u->id);
    /* range(T) unrolled: four assembles into o from blk */
    ck_assert_int_eq(accesses(k, tensor(k, "blk")->id, PC_ACC_READ, PC_UNIT_NONE), 4);
    /* the loop body block holds: blk, the if, 4 unrolled writes, the if, the inner loop */
    ck_assert_int_eq(u->body.count, 8);
    pc_model_free(m);
}
END_TEST

START_TEST(factory_kernel)
{
    /* The upstream examples' shape: a host function builds the kernel from its arguments and
     * returns it; the kernel returns its outputs. */
    pc_model *m = parse("import pypto\n"
                        "def build(shape, val, dynamic=True):\n"
                        "    if dynamic:\n"
                        "        rows = pypto.frontend.dynamic('rows')\n"
                        "        _, cols = shape\n"
                        "    else:\n"
                        "        rows, cols = shape\n"
                        "    shape = (rows, cols)\n"
                        "    @pypto.frontend.jit\n"
                        "    def kern(a: pypto.Tensor(shape, pypto.DT_FP32)) -> pypto.Tensor(shape, pypto.DT_FP32):\n"
                        "        tiles = [32 for _ in range(len(a.shape))]\n"
                        "        out = pypto.tensor(shape, pypto.DT_FP32)\n"
                        "        for i in pypto.loop(rows):\n"
                        "            end = pypto.min(i + 1, rows)\n"
                        "            v = pypto.view(a, [1, cols], [i, 0], valid_shape=[end - i, cols])\n"
                        "            pypto.assemble(v + val, [i, 0], out)\n"
                        "        k_t = pypto.transpose(a, [1, 0])\n"
                        "        hidden = [pypto.exp(a) for _ in range(2)]\n"
                        "        return out, pypto.add(a, a)\n"
                        "    return kern\n");
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 1);
    const pc_kernel *k = kernel(m, "kern");
    ck_assert_uint_eq(k->loc.line, 10);
    ck_assert_uint_eq(k->loc.col, 5);
    ck_assert_uint_eq(k->insert_loc.line, 9);
    ck_assert_uint_eq(k->insert_loc.col, 5);
    ck_assert(shape_is(tensor(k, "a"), "[rows, cols]"));
    /* returned tensors are the kernel's outputs: parameters, like the inputs */
    const pc_tensor *out = tensor(k, "out");
    ck_assert_int_eq(out->kind, PC_TENSOR_PARAM);
    ck_assert(shape_is(out, "[rows, cols]"));
    int anon_out = 0;
    for (int i = 0; i < k->ntensors; i++)
        anon_out += !*k->tensors[i].variable && k->tensors[i].kind == PC_TENSOR_PARAM;
    ck_assert_int_eq(anon_out, 1);
    /* pypto.min on scalars is a scalar; the view's read and the assemble are tensor work */
    ck_assert(shape_is(tensor(k, "v"), "[1, cols]"));
    ck_assert_int_eq(accesses(k, tensor(k, "v")->id, PC_ACC_READ, PC_UNIT_VECTOR), 1);
    ck_assert_int_eq(accesses(k, out->id, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR), 1);
    ck_assert(shape_is(tensor(k, "k_t"), "[cols, rows]"));
    /* the comprehension over shapes is harmless; the one calling pypto.exp is reported */
    int unanalysed = 0;
    for (int s = 0; s < k->nstmts; s++)
        if (k->stmts[s].kind == PC_STMT_UNANALYSED) {
            unanalysed++;
            ck_assert_uint_eq(k->stmts[s].loc.line, 18);
        }
    ck_assert_int_eq(unanalysed, 1);
    pc_model_free(m);
}
END_TEST

/* ---- options -------------------------------------------------------------------------------------- */

START_TEST(option_extents)
{
    /* "é" is two bytes: columns after it are byte columns, as clang's */
    const char *src =
        "import pypto\n"                                                                                  /* 1 */
        "P = 64\n"                                                                                        /* 2 */
        "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[P, True, 1.5])  # é\n"    /* 3 */
        "x = 'é'; pypto.experimental.set_runtime_options(stitch_function_max_num=-3)\n"                  /* 4 */
        "pypto.set_options(runtime_options={'stitch_function_num_per_pool': (1, 2),\n"                    /* 5 */
        "                                   'max_workspace_kb': 'big', 'device_sched_parallelism': n})\n" /* 6 */
        "@pypto.options(runtime_options={'stitch_function_max_num': 2.5})\n"                              /* 7 */
        "@pypto.frontend.jit(runtime_options={\"stitch_function_num_per_pool\": [0, 0, 0, 1]})\n"        /* 8 */
        "def k(a: pypto.Tensor([4], pypto.DT_FP32)):\n"                                                   /* 9 */
        "    for i in pypto.loop(2):\n"                                                                   /* 10 */
        "        pypto.experimental.set_runtime_options(stitch_function_max_num=None)\n"                  /* 11 */
        "    with pypto.options(runtime_options={'device_sched_parallelism': 2}):\n"                      /* 12 */
        "        a[:] = a + 1.0\n"                                                                        /* 13 */
        "with pypto.options(runtime_options={'stitch_function_max_num': 7}):\n"                           /* 14 */
        "    k(a)\n";                                                                                     /* 15 */
    pc_model *m = parse(src);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->noptions, 10);

    const pc_option *o = option(m, "stitch_function_num_per_pool", PC_SITE_SET_RUNTIME_OPTIONS, 0);
    ck_assert_int_eq(o->kernel, -1);
    ck_assert(!o->in_kernel);
    loc_is(o->loc, 3, 40, 3, 83);       /* the key=value pair */
    ck_assert_int_eq(o->value.kind, PC_OPT_LIST);
    loc_is(o->value.loc, 3, 69, 3, 83); /* [P, True, 1.5] */
    ck_assert_int_eq(o->value.nitems, 3);
    ck_assert_int_eq(o->value.items[0].kind, PC_OPT_INT); /* a module constant */
    ck_assert_int_eq(o->value.items[0].i, 64);
    loc_is(o->value.items[0].loc, 3, 70, 3, 71);
    ck_assert_int_eq(o->value.items[1].kind, PC_OPT_BOOL);
    ck_assert_int_eq(o->value.items[1].i, 1);
    ck_assert_int_eq(o->value.items[2].kind, PC_OPT_FLOAT);
    ck_assert_str_eq(o->value.items[2].text, "1.5");
    loc_is(o->value.items[2].loc, 3, 79, 3, 82);

    o = option(m, "stitch_function_max_num", PC_SITE_SET_RUNTIME_OPTIONS, 0);
    ck_assert_int_eq(o->value.kind, PC_OPT_INT);
    ck_assert_int_eq(o->value.i, -3);
    loc_is(o->value.loc, 4, 74, 4, 76); /* `x = 'é'; ` is 10 bytes, 9 characters */

    o = option(m, "stitch_function_num_per_pool", PC_SITE_SET_OPTIONS, 0);
    ck_assert_int_eq(o->value.kind, PC_OPT_TUPLE);
    ck_assert_int_eq(o->value.nitems, 2);
    loc_is(o->loc, 5, 36, 5, 74);
    loc_is(o->value.loc, 5, 68, 5, 74);
    o = option(m, "max_workspace_kb", PC_SITE_SET_OPTIONS, 0);
    ck_assert_int_eq(o->value.kind, PC_OPT_STRING);
    ck_assert_str_eq(o->value.text, "big");
    o = option(m, "device_sched_parallelism", PC_SITE_SET_OPTIONS, 0);
    ck_assert_int_eq(o->value.kind, PC_OPT_UNKNOWN);
    ck_assert_str_eq(o->value.text, "n");
    loc_is(o->value.loc, 6, 91, 6, 92);

    o = option(m, "stitch_function_max_num", PC_SITE_OPTIONS_SCOPE, 0);
    ck_assert_int_eq(o->kernel, 0); /* decorator on the kernel */
    ck_assert_int_eq(o->value.kind, PC_OPT_FLOAT);
    ck_assert(o->value.f == 2.5);
    o = option(m, "stitch_function_num_per_pool", PC_SITE_JIT, 0);
    ck_assert_int_eq(o->kernel, 0);
    ck_assert(!o->in_kernel);
    ck_assert_int_eq(o->value.kind, PC_OPT_LIST);
    ck_assert_int_eq(o->value.nitems, 4);
    loc_is(o->value.loc, 8, 70, 8, 82);

    /* inside the kernel: reported as in_kernel (PC005) */
    o = option(m, "stitch_function_max_num", PC_SITE_SET_RUNTIME_OPTIONS, 1);
    ck_assert_int_eq(o->kernel, 0);
    ck_assert(o->in_kernel);
    ck_assert_int_eq(o->value.kind, PC_OPT_NONE);
    loc_is(o->value.loc, 11, 72, 11, 76);
    o = option(m, "device_sched_parallelism", PC_SITE_OPTIONS_SCOPE, 0);
    ck_assert_int_eq(o->kernel, 0);
    ck_assert(o->in_kernel);
    /* a module-level options block around a call, not a definition: kernel -1 */
    o = option(m, "stitch_function_max_num", PC_SITE_OPTIONS_SCOPE, 1);
    ck_assert_int_eq(o->kernel, -1);
    ck_assert_int_eq(o->value.i, 7);

    /* source order */
    for (int i = 1; i < m->noptions; i++)
        ck_assert(m->options[i - 1].loc.line <= m->options[i].loc.line);
    pc_model_free(m);
}
END_TEST

START_TEST(option_in_helper_counted_once)
{
    pc_model *m = parse("import pypto\n"
                        "def prepare(v):\n"
                        "    pypto.experimental.set_runtime_options(stitch_function_max_num=8)\n"
                        "    return v\n"
                        "def host():\n"
                        "    pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[1, 1, 1])\n"
                        "@pypto.frontend.jit\n"
                        "def k(a: pypto.Tensor([4], pypto.DT_FP32)):\n"
                        "    b = prepare(a)\n"
                        "    c = prepare(b)\n");
    ck_assert_int_eq(m->noptions, 2);
    const pc_option *o = option(m, "stitch_function_max_num", PC_SITE_SET_RUNTIME_OPTIONS, 0);
    ck_assert(o->in_kernel);
    ck_assert_int_eq(o->kernel, 0);
    o = option(m, "stitch_function_num_per_pool", PC_SITE_SET_RUNTIME_OPTIONS, 0);
    ck_assert(!o->in_kernel);
    ck_assert_int_eq(o->kernel, -1);
    pc_model_free(m);
}
END_TEST

/* ---- broken input --------------------------------------------------------------------------------- */

START_TEST(syntax_error)
{
    pc_model *m = parse("import pypto\n"
                        "@pypto.jit\n"
                        "def k(x):\n"
                        "    y = 'é' + ))\n");
    ck_assert(m->fatal);
    ck_assert_int_eq(m->nkernels, 0);
    ck_assert_int_eq(m->nmessages, 1);
    /* `    y = 'é' + ))`: the first ')' is character 15, byte 16 */
    ck_assert(has_fatal(m, 4, 16, "unmatched ')'"));
    pc_model_free(m);

    m = parse("def f(:\n  pass\n");
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 1, 7, "syntax"));
    pc_model_free(m);

    m = parse("if x:\ny = 1\n");
    ck_assert(has_fatal(m, 2, 1, "indentation"));
    pc_model_free(m);

    m = parse("x = (1,\n");
    ck_assert(has_fatal(m, 1, 5, "never closed"));
    pc_model_free(m);

    m = pc_py_parse("nul.py", "x = 1\0\n", 7, NULL);
    ck_assert(has_fatal(m, 1, 6, "NUL"));
    pc_model_free(m);
}
END_TEST

START_TEST(deep_nesting)
{
    /* Python's own parser limits nesting; whatever it says must come back as a message. */
    size_t n = 200000;
    char *src = malloc(n + 8);
    memset(src, '-', n);
    strcpy(src + n, "1\n");
    pc_model *m = parse(src);
    ck_assert(m->fatal);
    ck_assert_int_eq(m->nmessages, 1);
    pc_model_free(m);
    for (size_t i = 0; i < n; i += 2) {
        src[i] = '1';
        src[i + 1] = '+';
    }
    strcpy(src + n, "1\n");
    m = parse(src);
    ck_assert(m->fatal);
    pc_model_free(m);
    free(src);
}
END_TEST

START_TEST(not_utf8)
{
    const char bytes[] = "import pypto\nx = 'ok'\ny = '\xff\xfe'\n";
    char *path = write_temp("latin.py", bytes, sizeof bytes - 1);
    pc_model *m = pc_py_parse(path, NULL, 0, NULL);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 3, 6, "not valid UTF-8"));
    ck_assert_str_eq(m->messages[0].loc.file, path);
    pc_model_free(m);
    unlink(path);
    free(path);

    /* a UTF-8 BOM is fine, and columns still count the file's bytes */
    const char bom[] = "\xEF\xBB\xBFimport pypto\npypto.set_options(runtime_options={'k': 1})\n";
    m = pc_py_parse("bom.py", bom, sizeof bom - 1, NULL);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->noptions, 1);
    loc_is(m->options[0].value.loc, 2, 41, 2, 42);
    pc_model_free(m);
}
END_TEST

/* PEP 263: CPython reads the coding line, and so does the frontend; columns stay the file's bytes
 * and the text it quotes is UTF-8. */
START_TEST(coding_cookie)
{
    const char l1[] = "# -*- coding: latin-1 -*-\nimport pypto\n"
                      "name = 'caf\xe9'; pypto.set_options(runtime_options={'k': caf\xe9, 's': 'd\xe9j\xe0'})\n";
    pc_model *m = pc_py_parse("l1.py", l1, sizeof l1 - 1, NULL);
    ck_assert_msg(!m->fatal, "%s", m->nmessages ? m->messages[0].text : "");
    ck_assert_int_eq(m->noptions, 2);
    loc_is(m->options[0].value.loc, 3, 56, 3, 60); /* é is one byte of the file (two in UTF-8) */
    ck_assert_int_eq(m->options[0].value.kind, PC_OPT_UNKNOWN);
    ck_assert_str_eq(m->options[0].value.text, "caf\xc3\xa9");
    loc_is(m->options[1].value.loc, 3, 67, 3, 73);
    ck_assert_int_eq(m->options[1].value.kind, PC_OPT_STRING);
    ck_assert_str_eq(m->options[1].value.text, "d\xc3\xa9j\xc3\xa0");
    pc_model_free(m);

    /* a two-byte codec: 你 is two bytes in GBK, three in UTF-8 */
    const char gbk[] = "# coding: gbk\nimport pypto\nx = '\xc4\xe3'; pypto.set_options(runtime_options={'k': 1})\n";
    m = pc_py_parse("gbk.py", gbk, sizeof gbk - 1, NULL);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->noptions, 1);
    loc_is(m->options[0].value.loc, 3, 51, 3, 52);
    pc_model_free(m);

    /* a syntax error after a non-ASCII character of a latin-1 file: located in the file's bytes */
    const char bad[] = "# coding: latin-1\nx = '\xe9\xe9' +\n";
    m = pc_py_parse("bad.py", bad, sizeof bad - 1, NULL);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 2, 11, "invalid syntax"));
    pc_model_free(m);

    /* what CPython refuses: an unknown codec; a UTF-8 BOM with another encoding declared */
    const char unknown[] = "#!/usr/bin/env python3\n# vim: set fileencoding=no-such-codec :\nx = 1\n";
    m = pc_py_parse("unknown.py", unknown, sizeof unknown - 1, NULL);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 1, 1, "unknown encoding: no-such-codec"));
    pc_model_free(m);
    const char bom[] = "\xEF\xBB\xBF# coding: latin-1\nx = 1\n";
    m = pc_py_parse("bom.py", bom, sizeof bom - 1, NULL);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 1, 1, "encoding problem: iso-8859-1 with BOM"));
    pc_model_free(m);
    /* a BOM with a utf-8 cookie is fine; bytes that are not ASCII declare nothing */
    const char bom8[] = "\xEF\xBB\xBF# coding: utf-8\nimport pypto\npypto.set_options(runtime_options={'k': '\xe4\xbd\xa0'})\n";
    m = pc_py_parse("bom8.py", bom8, sizeof bom8 - 1, NULL);
    ck_assert(!m->fatal);
    loc_is(m->options[0].value.loc, 3, 41, 3, 46);
    pc_model_free(m);
    /* an ascii cookie with a byte outside ASCII: CPython's own decoding error */
    const char ascii[] = "# coding: ascii\nx = '\xe9'\n";
    m = pc_py_parse("ascii.py", ascii, sizeof ascii - 1, NULL);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 1, 1, "'ascii' codec can't decode byte 0xe9"));
    pc_model_free(m);
}
END_TEST

START_TEST(unreadable)
{
    pc_model *m = pc_py_parse("/nonexistent/dir/k.py", NULL, 0, NULL);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 1, 1, "cannot open"));
    pc_model_free(m);
}
END_TEST

START_TEST(no_kernel)
{
    pc_model *m = parse("import pypto\n"
                        "def helper(x):\n"
                        "    return pypto.add(x, x)\n"
                        "VALUE = 3\n");
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 0);
    ck_assert_int_eq(m->nmessages, 0);
    pc_model_free(m);
    m = parse("");
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 0);
    pc_model_free(m);
}
END_TEST

START_TEST(never_executed)
{
    char marker[256];
    snprintf(marker, sizeof marker, "/tmp/pc_py_%d_executed", (int)getpid());
    unlink(marker);
    char src[2048];
    snprintf(src, sizeof src,
             "import pypto\n"
             "open(%s'%s', 'w').write('the analysed file ran')\n"
             "import os; os.system('touch %s')\n"
             "@pypto.frontend.jit\n"
             "def k(a: pypto.Tensor([4], pypto.DT_FP32)):\n"
             "    a[:] = a + 1.0\n"
             "if __name__ == '__main__':\n"
             "    open('%s', 'w')\n",
             "", marker, marker, marker);
    char *path = write_temp("side_effect.py", src, strlen(src));
    pc_model *m = pc_py_parse(path, NULL, 0, NULL);
    ck_assert(!m->fatal);
    ck_assert_int_eq(m->nkernels, 1);
    ck_assert_msg(access(marker, F_OK) != 0, "analysing the file executed it: %s exists", marker);
    pc_model_free(m);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(quiet_and_isolated)
{
    /* The user's Python environment must not reach the embedded interpreter: a PYTHONPATH (and
     * a working directory) holding an `ast.py` that would leave a marker, a startup file, and
     * warnings-as-errors.  And nothing Python says may reach the terminal. */
    char dir[256], marker[300], evil[300];
    snprintf(dir, sizeof dir, "/tmp/pc_py_%d_env", (int)getpid());
    snprintf(marker, sizeof marker, "%s/MARKER", dir);
    snprintf(evil, sizeof evil, "%s/ast.py", dir);
    ck_assert_int_eq(mkdir(dir, 0700) == 0 || access(dir, F_OK) == 0, 1);
    char body[512];
    snprintf(body, sizeof body, "open('%s', 'w').write('imported')\ndef parse(*a, **k):\n    raise SystemExit(3)\n",
             marker);
    FILE *f = fopen(evil, "w");
    ck_assert_ptr_nonnull(f);
    fputs(body, f);
    fclose(f);
    setenv("PYTHONPATH", dir, 1);
    setenv("PYTHONSTARTUP", evil, 1);
    setenv("PYTHONWARNINGS", "error", 1);
    setenv("PYTHONHOME", "/nonexistent", 1);
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);

    char errpath[300];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    int saved = dup(2), fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    const char *inputs[] = {"def f(:\n", "x = '\\d'\nif x:\ny\n", "import pypto\n@pypto.jit\ndef k(a):\n    a[:] = a + '\\q'\n",
                            "x = 1 +\n", "-----------------------------------1\n"};
    int fatal = 0;
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        pc_model *m = parse(inputs[i]);
        fatal += m->fatal;
        pc_model_free(m);
    }
    pc_model *m = pc_py_parse(SEED, NULL, 0, NULL);
    bool seed_ok = !m->fatal && m->nkernels == 1;
    pc_model_free(m);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    ck_assert_int_eq(chdir(cwd), 0);
    unsetenv("PYTHONPATH");
    unsetenv("PYTHONSTARTUP");
    unsetenv("PYTHONWARNINGS");
    unsetenv("PYTHONHOME");

    ck_assert_int_eq(fatal, 3);
    ck_assert(seed_ok);
    ck_assert_msg(access(marker, F_OK) != 0, "the embedded Python imported %s", evil);
    struct stat st;
    ck_assert_int_eq(stat(errpath, &st), 0);
    ck_assert_msg(st.st_size == 0, "Python wrote %lld bytes to stderr", (long long)st.st_size);
    unlink(errpath);
    unlink(evil);
    rmdir(dir);
}
END_TEST

/* ---- threads -------------------------------------------------------------------------------------- */

static void *parse_seed_repeatedly(void *arg)
{
    int *ok = arg;
    for (int i = 0; i < 20; i++) {
        pc_model *m = pc_py_parse(SEED, NULL, 0, NULL);
        if (m->fatal || m->nkernels != 1 || m->kernels[0].ntensors != 8)
            *ok = 0;
        pc_model_free(m);
    }
    return NULL;
}

START_TEST(threads)
{
    pthread_t th[4];
    int ok[4] = {1, 1, 1, 1};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, parse_seed_repeatedly, &ok[i]), 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        ck_assert(ok[i]);
    }
}
END_TEST

/* ---- scalars, open ranks, conditions, alternatives, modules, noise, limits ---- */

static int count_kind(const pc_kernel *k, pc_stmt_kind kind)
{
    int n = 0;
    for (int i = 0; i < k->nstmts; i++)
        n += k->stmts[i].kind == kind;
    return n;
}

static const pc_stmt *first_stmt(const pc_kernel *k, pc_stmt_kind kind)
{
    for (int i = 0; i < k->nstmts; i++)
        if (k->stmts[i].kind == kind)
            return &k->stmts[i];
    return NULL;
}

static bool has_message(const pc_model *m, pc_msg_kind kind, const char *fragment)
{
    for (int i = 0; i < m->nmessages; i++)
        if (m->messages[i].kind == kind && strstr(m->messages[i].text, fragment))
            return true;
    for (int i = 0; i < m->nmessages; i++)
        fprintf(stderr, "message %d:%d %s\n", m->messages[i].loc.line, m->messages[i].loc.col, m->messages[i].text);
    return false;
}

START_TEST(scalar_reads)
{
    pc_model *m = parse("import pypto\n"
                        "@pypto.frontend.jit\n"
                        "def k(seqlens: pypto.Tensor([9], pypto.DT_INT32), t2: pypto.Tensor([4, 2], pypto.DT_INT32),\n"
                        "      x: pypto.Tensor([64, 8], pypto.DT_FP32), idx: pypto.Tensor([4], pypto.DT_INT32)):\n"
                        "    for b in pypto.loop(8, name='B'):\n"
                        "        start = seqlens[b]\n"
                        "        n = (seqlens[b + 1] - start).as_variable()\n"
                        "        e = t2[b, 0].max(0)\n"
                        "        row = t2[1]\n"
                        "        g = x[0:idx, :]\n"
                        "        for i in pypto.loop(n, name='I'):\n"
                        "            x[start + i:start + i + 1, :] = x[start + i:start + i + 1, :] + e\n"
                        "        for j in pypto.loop(seqlens[b + 2] - seqlens[b], name='J'):\n"
                        "            x[j:j + 1, :] = x[j:j + 1, :] + 1.0\n"
                        "        b = seqlens[b + 3]\n"
                        "        for j in pypto.loop(b, name='K'):\n"
                        "            x[j:j + 1, :] = x[j:j + 1, :] + 1.0\n");
    const pc_kernel *k = &m->kernels[0];
    ck_assert_int_eq(count_tensors(k, "start"), 0);
    ck_assert_int_eq(count_tensors(k, "n"), 0);
    ck_assert_int_eq(count_tensors(k, "e"), 0);
    ck_assert_int_eq(count_kind(k, PC_STMT_UNANALYSED), 0);
    /* a local read from tensor data is the symbol of its name (--bind n=V), said to stand for a
     * value per iteration of B; a read written in the bound keeps its spelling; a local named like
     * an enclosing loop's index is not that index's symbol */
    ck_assert(expr_is(loop_named(k, "I")->end, "n"));
    ck_assert(has_message(m, PC_MSG_NOTE, "'n = (seqlens[b + 1] - start).as_variable()' reads tensor data in every "
                                          "iteration of loop 'B'"));
    ck_assert(expr_is(loop_named(k, "J")->end, "seqlens[b+2] - seqlens[b]"));
    ck_assert(expr_is(loop_named(k, "K")->end, "seqlens[b+3]"));
    /* fewer indices than dims: a view; a tensor slice stop: a gather (an op value) */
    ck_assert_int_eq(tensor(k, "row")->kind, PC_TENSOR_VIEW);
    ck_assert(shape_is(tensor(k, "row"), "[2]"));
    ck_assert_int_eq(tensor(k, "g")->kind, PC_TENSOR_VALUE);
    ck_assert_int_eq(accesses(k, tensor(k, "g")->id, PC_ACC_DEFINE, PC_UNIT_VECTOR), 1);
    pc_model_free(m);
}
END_TEST

/* A loop_unroll body whose trace decides something on the factor is walked once per factor (an
 * UNROLL body each, in upstream's order, the factor an integer); one that only sizes shapes with it
 * stays one body with the factor a symbol. */
START_TEST(unroll_per_factor)
{
    pc_model *m = parse("import pypto\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([128, 64], pypto.DT_FP32), w: pypto.Tensor([64, 64], pypto.DT_FP32)):\n"
                        "    for i, t in pypto.loop_unroll(0, 128, 1, name='A', unroll_list=[4, 64, 4]):\n"
                        "        rows = t\n"
                        "        split = rows <= 4\n"
                        "        if split:\n"
                        "            y = pypto.matmul(x[i:i + t, :], w, pypto.DT_FP32)\n"
                        "        else:\n"
                        "            y = pypto.matmul(x[i:i + t, :], w, pypto.DT_FP32, b_trans=True)\n"
                        "        x[i:i + t, :] = y + 1.0\n"
                        "    for i, t in pypto.loop_unroll(0, 128, 1, name='B', unroll_list=[64]):\n"
                        "        z = pypto.matmul(x[i:i + t, :], w, pypto.DT_FP32)\n"
                        "        x[i:i + t, :] = z + 1.0\n");
    const pc_kernel *k = &m->kernels[0];
    const pc_loop *a = loop_named(k, "A");
    ck_assert_int_eq(a->body.count, 3);
    const int64_t want[3] = {64, 4, 1};
    for (int i = 0; i < 3; i++) {
        const pc_stmt *u = &k->stmts[a->body.stmts[i]];
        ck_assert_int_eq(u->kind, PC_STMT_UNROLL);
        ck_assert_int_eq(u->unroll_factor, want[i]);
    }
    /* decided in each trace: no IF is left, one y per factor with that factor's rows */
    ck_assert_int_eq(count_kind(k, PC_STMT_IF), 0);
    ck_assert_int_eq(count_tensors(k, "y"), 3);
    ck_assert(shape_is(tensor(k, "y"), "[64, 64]"));
    const pc_loop *b = loop_named(k, "B");
    for (int i = 0; i < b->body.count; i++)
        ck_assert_int_ne(k->stmts[b->body.stmts[i]].kind, PC_STMT_UNROLL);
    ck_assert_int_eq(count_tensors(k, "z"), 1);
    ck_assert(shape_is(tensor(k, "z"), "[t, 64]"));
    pc_model_free(m);
}
END_TEST

START_TEST(open_rank_parameters)
{
    pc_model *m = parse("import pypto\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([pypto.DYNAMIC, ...], pypto.DT_FP32), g: pypto.Tensor([], pypto.DT_FP32),\n"
                        "      y: pypto.Tensor([4, ...], pypto.DT_FP32), z: pypto.Tensor([], pypto.DT_FP32)):\n"
                        "    b, w, n, c = x.shape\n"
                        "    e, h = g.shape\n"
                        "    d3 = y.shape[3]\n"
                        "    for i in pypto.loop(d3, name='L'):\n"
                        "        pass\n");
    const pc_kernel *k = &m->kernels[0];
    ck_assert(shape_is(tensor(k, "x"), "[x.shape[0], x.shape[1], x.shape[2], x.shape[3]]"));
    ck_assert(shape_is(tensor(k, "g"), "[g.shape[0], g.shape[1]]"));
    /* x.shape[3] says the rank is at least 4, not what it is: still unknown, never a guess */
    ck_assert(shape_is(tensor(k, "y"), "?"));
    ck_assert(expr_is(loop_named(k, "L")->end, "y.shape[3]"));
    ck_assert(shape_is(tensor(k, "z"), "?"));
    pc_model_free(m);
}
END_TEST

START_TEST(branch_conditions)
{
    pc_model *m = parse("import pypto\n"
                        "DEBUG = False\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), o: pypto.Tensor([8, 64], pypto.DT_FP32)):\n"
                        "    for i in pypto.loop(0, 8, 1, name='L'):\n"
                        "        if pypto.cond(i < 1):\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 1.0\n"
                        "        elif pypto.is_loop_end(i) or not i >= 6:\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 2.0\n"
                        "        else:\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 3.0\n"
                        "        if DEBUG:\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 4.0\n"
                        "        if pypto.cond(True):\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 5.0\n"
                        "        if pypto.cond(x[0, 0] > 0.0):\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 6.0\n"
                        "        if pypto.cond(pypto.sum(x) > 0.0):\n"
                        "            o[i:i+1, :] = x[i:i+1, :] + 7.0\n");
    const pc_kernel *k = &m->kernels[0];
    ck_assert_int_eq(count_kind(k, PC_STMT_IF), 4); /* DEBUG is decided while tracing */
    const pc_stmt *ifs[4];
    int n = 0;
    for (int i = 0; i < k->nstmts && n < 4; i++)
        if (k->stmts[i].kind == PC_STMT_IF)
            ifs[n++] = &k->stmts[i];
    ck_assert_int_eq(ifs[0]->nbranches, 3);
    ck_assert(expr_is(ifs[0]->branches[0].cond, "i < 1"));
    ck_assert_str_eq(ifs[0]->branches[0].cond_text, "i < 1");
    const pc_expr *c1 = ifs[0]->branches[1].cond;
    ck_assert_int_eq(c1->kind, PC_EXPR_OR);
    ck_assert_int_eq(c1->a->kind, PC_EXPR_IS_LOOP_END);
    ck_assert_str_eq(c1->a->name, "i");
    ck_assert_str_eq(ifs[0]->branches[1].cond_text, "pypto.is_loop_end(i) or not i >= 6");
    ck_assert_ptr_null(ifs[0]->branches[2].cond);
    ck_assert_ptr_null(ifs[0]->branches[2].cond_text);
    /* pypto.cond(<constant>) stays a path, with its constant condition */
    int64_t v = -1;
    ck_assert(pc_expr_is_int(ifs[1]->branches[0].cond, &v) && v == 1);
    /* an FP32 element compared with a float: data, kept as its spelling */
    ck_assert_ptr_null(ifs[2]->branches[0].cond);
    ck_assert_str_eq(ifs[2]->branches[0].cond_text, "x[0, 0] > 0.0");
    /* a reduction's value is tensor data: no expression, only its spelling */
    ck_assert_ptr_null(ifs[3]->branches[0].cond);
    ck_assert_str_eq(ifs[3]->branches[0].cond_text, "pypto.sum(x) > 0.0");
    pc_model_free(m);
}
END_TEST

START_TEST(trace_time_alternatives)
{
    const char *src = "import pypto\n"
                      "@pypto.frontend.jit\n"
                      "def k(x: pypto.Tensor([64, 64], pypto.DT_FP32), w: pypto.Tensor([64, 64], pypto.DT_FP32),\n"
                      "      o: pypto.Tensor([64, 64], pypto.DT_FP32), use_bias: bool = False, mode: int = 0):\n"
                      "    for i in pypto.loop(0, 8, 1, name='L'):\n"
                      "        if use_bias:\n"
                      "            h = pypto.matmul(x[i*8:i*8+8, :], w, pypto.DT_FP32)\n"
                      "        elif mode == 2:\n"
                      "            h = pypto.matmul(x[i*8:i*8+8, :], w, pypto.DT_FP32, b_trans=True)\n"
                      "        else:\n"
                      "            h = pypto.matmul(x[i*8:i*8+8, :], w, pypto.DT_FP32, a_trans=True)\n"
                      "        o[i*8:i*8+8, :] = h + 1.0\n";
    pc_model *m = parse(src);
    const pc_kernel *k = &m->kernels[0];
    ck_assert_int_eq(count_tensors(k, "h"), 3);
    for (int n = 0; n < 3; n++) /* every alternative is read after the if */
        ck_assert_int_eq(accesses(k, tensor_n(k, "h", n)->id, PC_ACC_READ, PC_UNIT_VECTOR), 1);
    const pc_stmt *st = first_stmt(k, PC_STMT_IF);
    ck_assert(expr_is(st->branches[0].cond, "use_bias != 0"));
    ck_assert(expr_is(st->branches[1].cond, "mode == 2"));
    pc_model_free(m);
    /* bound (every set agreeing): decided while tracing, the dead alternatives do not exist */
    pc_binding b1[] = {{"use_bias", 0}, {"mode", 2}};
    pc_bindings sets[] = {{b1, 2}};
    pc_parse_opts o = {0};
    o.bindings = sets;
    o.nbindings = 1;
    m = pc_py_parse("test.py", src, strlen(src), &o);
    k = &m->kernels[0];
    ck_assert_int_eq(count_kind(k, PC_STMT_IF), 0);
    ck_assert_int_eq(count_tensors(k, "h"), 1);
    pc_model_free(m);
}
END_TEST

START_TEST(compile_time_range)
{
    const char *src = "import pypto\n"
                      "@pypto.frontend.jit\n"
                      "def k(x: pypto.Tensor([64, 64], pypto.DT_FP32), w: pypto.Tensor([64, 64], pypto.DT_FP32),\n"
                      "      o: pypto.Tensor([64, 64], pypto.DT_FP32), cfg_tile: int = 64):\n"
                      "    block_num = cfg_tile // 16\n"
                      "    for i in pypto.loop(0, 4, 1, name='L'):\n"
                      "        for j in range(block_num):\n"
                      "            t = pypto.matmul(x[j:j+1, :], w, pypto.DT_FP32)\n"
                      "            o[j:j+1, :] = t + 1.0\n"
                      "        for j in range(block_num):\n"
                      "            o[j:j+1, :] = x[j:j+1, :] * 2.0\n";
    pc_model *m = parse(src);
    const pc_kernel *k = &m->kernels[0];
    ck_assert_int_eq(count_kind(k, PC_STMT_UNANALYSED), 0);
    ck_assert_int_eq(count_tensors(k, "t"), 1);
    ck_assert(has_message(m, PC_MSG_NOTE, "--bind cfg_tile=VALUE"));
    pc_model_free(m);
    pc_binding b1[] = {{"cfg_tile", 32}};
    pc_binding b2[] = {{"cfg_tile", 48}};
    pc_bindings sets[] = {{b1, 1}, {b2, 1}};
    pc_parse_opts o = {0};
    o.bindings = sets;
    o.nbindings = 2;
    m = pc_py_parse("test.py", src, strlen(src), &o);
    k = &m->kernels[0];
    ck_assert_int_eq(count_tensors(k, "t"), 3); /* the largest over the sets: 48 // 16 */
    ck_assert(!has_message(m, PC_MSG_NOTE, "--bind cfg_tile"));
    pc_model_free(m);
}
END_TEST

START_TEST(noise)
{
    pc_model *m = parse("import pypto, logging\n"
                        "import numpy as np\n"
                        "def pow2(n):\n"
                        "    p = 1\n"
                        "    while p * 2 <= n:\n"
                        "        p *= 2\n"
                        "    return p\n"
                        "def opaque(a):\n"
                        "    return np.square(a)\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([64, 64], pypto.DT_FP32), o: pypto.Tensor([64, 64], pypto.DT_FP32)):\n"
                        "    print(f'shape {x.shape} {x}')\n"
                        "    logging.info('x %s', x)\n"
                        "    tile = pow2(40)\n"
                        "    for j in range(3):\n"
                        "        y = opaque(x)\n"
                        "        y = opaque(x)\n"
                        "    for i in pypto.loop(0, tile, 1, name='L'):\n"
                        "        o[i:i+1, :] = x[i:i+1, :] + 1.0\n");
    const pc_kernel *k = &m->kernels[0];
    ck_assert(expr_is(loop_named(k, "L")->end, "32"));
    /* one PC012 for the one place, however often the helper is inlined */
    ck_assert_int_eq(count_kind(k, PC_STMT_UNANALYSED), 1);
    const pc_stmt *u = first_stmt(k, PC_STMT_UNANALYSED);
    ck_assert_uint_eq(u->loc.line, 9);
    ck_assert(!strstr(u->message, "JoinedStr"));
    pc_model_free(m);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(sibling_modules)
{
    char dir[256], p[512], marker[512], extra[256];
    snprintf(dir, sizeof dir, "/tmp/pc_py_%d_proj", (int)getpid());
    snprintf(extra, sizeof extra, "/tmp/pc_py_%d_extra", (int)getpid());
    snprintf(marker, sizeof marker, "/tmp/pc_py_%d_module_ran", (int)getpid());
    unlink(marker);
    mkdir(dir, 0700);
    mkdir(extra, 0700);
    snprintf(p, sizeof p, "%s/pkg", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/pkg/__init__.py", dir);
    write_file(p, "");
    char text[4096];
    snprintf(text, sizeof text,
             "import pypto\n"
             "import os\n"
             "open('%s', 'w').write('ran')\n"
             "os.system('touch %s')\n"
             "BLOCK = 8\n"
             "def project(a, w):\n"
             "    return pypto.matmul(a, w, pypto.DT_FP32)\n",
             marker, marker);
    snprintf(p, sizeof p, "%s/pkg/common.py", dir);
    write_file(p, text);
    snprintf(p, sizeof p, "%s/pkg/kernel.py", dir);
    write_file(p, "import pypto\n"
                  "from .common import project, BLOCK\n"
                  "import pkg.common as pc\n"
                  "from far_helpers import add_one\n"
                  "@pypto.frontend.jit\n"
                  "def k(x: pypto.Tensor([64, 64], pypto.DT_FP32), w: pypto.Tensor([64, 64], pypto.DT_FP32),\n"
                  "      o: pypto.Tensor([64, 64], pypto.DT_FP32)):\n"
                  "    for i in pypto.loop(0, 64 // BLOCK, 1, name='L'):\n"
                  "        h = project(x[i*8:i*8+8, :], w)\n"
                  "        g = pc.project(x[i*8:i*8+8, :], w)\n"
                  "        o[i*8:i*8+8, :] = add_one(h + g)\n");
    snprintf(p, sizeof p, "%s/far_helpers.py", extra);
    write_file(p, "def add_one(t):\n    return t + 1.0\n");
    snprintf(p, sizeof p, "%s/pkg/kernel.py", dir);
    pc_model *m = pc_py_parse(p, NULL, 0, NULL);
    ck_assert(!m->fatal);
    const pc_kernel *k = &m->kernels[0];
    ck_assert(expr_is(loop_named(k, "L")->end, "8"));
    ck_assert_int_eq(accesses(k, tensor(k, "h")->id, PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    ck_assert_int_eq(accesses(k, tensor(k, "g")->id, PC_ACC_DEFINE, PC_UNIT_CUBE), 1);
    /* add_one is only on the --python-path: without it, a PC012 naming the call */
    ck_assert_int_eq(count_kind(k, PC_STMT_UNANALYSED), 1);
    pc_model_free(m);
    const char *pp[] = {extra};
    pc_parse_opts o = {0};
    o.python_path = pp;
    o.npython_path = 1;
    m = pc_py_parse(p, NULL, 0, &o);
    k = &m->kernels[0];
    ck_assert_int_eq(count_kind(k, PC_STMT_UNANALYSED), 0);
    /* the work the helper does is located in the helper's file */
    bool in_helper = false;
    for (int i = 0; i < k->nstmts; i++)
        for (int a = 0; a < k->stmts[i].naccesses; a++)
            in_helper |= strstr(k->stmts[i].accesses[a].loc.file, "far_helpers.py") != NULL;
    ck_assert(in_helper);
    pc_model_free(m);
    ck_assert_msg(access(marker, F_OK) != 0, "reading an imported module executed it: %s exists", marker);
    /* a module that is not valid Python: said, not fatal for the kernel */
    snprintf(p, sizeof p, "%s/pkg/common.py", dir);
    write_file(p, "def project(a, w:\n");
    snprintf(p, sizeof p, "%s/pkg/kernel.py", dir);
    m = pc_py_parse(p, NULL, 0, NULL);
    ck_assert(!m->fatal);
    ck_assert(has_message(m, PC_MSG_WARNING, "is not valid Python"));
    pc_model_free(m);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, extra);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(binding_names_nothing)
{
    const char *src = "import pypto\n"
                      "@pypto.frontend.jit\n"
                      "def kern(x: pypto.Tensor([8, 8], pypto.DT_FP32), n: int):\n"
                      "    for i in pypto.loop(n, name='L'):\n"
                      "        x[:] = x + 1.0\n";
    pc_binding b1[] = {{"nn", 8}, {"n", 3}};
    pc_bindings sets[] = {{b1, 2}};
    pc_parse_opts o = {0};
    o.lang = PC_LANG_PYTHON;
    o.bindings = sets;
    o.nbindings = 1;
    pc_frontend *fe = pc_frontend_new();
    pc_model *m = pc_frontend_parse(fe, "test.py", src, strlen(src), &o);
    ck_assert(has_message(m, PC_MSG_WARNING, "no symbol 'nn' in kernel 'kern'; did you mean 'n'?"));
    ck_assert_int_eq(m->nmessages, 1); /* n itself is a symbol of the kernel */
    pc_model_free(m);
    pc_frontend_free(fe);
}
END_TEST

/* Module constants wait until a kernel reads them, and then are what Python's order
 * makes them: a constant reading a name bound again later is evaluated at once (A is 2, not 6), a
 * forward reference stays the symbol it was, a kernel parameter hiding a constant still finds it
 * among the kernel's constants, and what no kernel reads is never evaluated (no note for S30). */
START_TEST(lazy_constants_keep_python_order)
{
    pc_model *m = parse("import pypto\n"
                        "X = 1\n"
                        "A = X + 1\n"
                        "X = 5\n"
                        "B = LATER + 0\n"
                        "LATER = 7\n"
                        "N = 3\n"
                        "M = N * 4\n"
                        "S0 = 'ab'\n"
                        "S1 = S0 + S0\nS2 = S1 + S1\nS3 = S2 + S2\nS4 = S3 + S3\nS5 = S4 + S4\n"
                        "S6 = S5 + S5\nS7 = S6 + S6\nS8 = S7 + S7\nS9 = S8 + S8\nS10 = S9 + S9\n"
                        "S11 = S10 + S10\nS12 = S11 + S11\nS13 = S12 + S12\nS14 = S13 + S13\n"
                        "S15 = S14 + S14\nS16 = S15 + S15\nS17 = S16 + S16\nS18 = S17 + S17\n"
                        "S19 = S18 + S18\nS20 = S19 + S19\nS21 = S20 + S20\nS22 = S21 + S21\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([8, 8], pypto.DT_FP32), o: pypto.Tensor([8, 8], pypto.DT_FP32), N: int):\n"
                        "    for i in pypto.loop(A, name='a'):\n"
                        "        o[:] = x + 1.0\n"
                        "    for i in pypto.loop(M, name='m'):\n"
                        "        o[:] = x + 1.0\n"
                        "    for i in pypto.loop(X, name='x'):\n"
                        "        o[:] = x + 1.0\n"
                        "    for i in pypto.loop(B, name='b'):\n"
                        "        o[:] = x + 1.0\n");
    const pc_kernel *k = kernel(m, "k");
    ck_assert_int_eq(k->nloops, 4);
    const char *want[] = {"2", "12", "5", "LATER"};
    for (int l = 0; l < 4; l++)
        ck_assert_msg(expr_is(k->loops[l].end, want[l]), "loop %s", k->loops[l].name);
    bool n_known = false;
    for (int i = 0; i < k->nconstants; i++)
        n_known |= strcmp(k->constants[i].name, "N") == 0 && k->constants[i].value == 3;
    ck_assert_msg(n_known, "the parameter N does not find the constant N = 3");
    for (int i = 0; i < m->nmessages; i++)
        ck_assert_msg(strstr(m->messages[i].text, "string of more than") == NULL, "%s", m->messages[i].text);
    pc_model_free(m);
}
END_TEST

START_TEST(limits)
{
    pc_model *m = parse("import pypto\n"
                        "def h0(t):\n    return t + 1.0\n"
                        "def h1(t):\n    return h0(h0(t))\n"
                        "def h2(t):\n    return h1(h1(t))\n"
                        "def h3(t):\n    return h2(h2(t))\n"
                        "def h4(t):\n    return h3(h3(t))\n"
                        "def h5(t):\n    return h4(h4(t))\n"
                        "def h6(t):\n    return h5(h5(t))\n"
                        "def h7(t):\n    return h6(h6(t))\n"
                        "def h8(t):\n    return h7(h7(t))\n"
                        "def h9(t):\n    return h8(h8(t))\n"
                        "def h10(t):\n    return h9(h9(t))\n"
                        "def h11(t):\n    return h10(h10(t))\n"
                        "def h12(t):\n    return h11(h11(t))\n"
                        "def h13(t):\n    return h12(h12(t))\n"
                        "def h14(t):\n    return h13(h13(t))\n"
                        "def h15(t):\n    return h14(h14(t))\n"
                        "@pypto.frontend.jit\n"
                        "def k(x: pypto.Tensor([8, 8], pypto.DT_FP32), o: pypto.Tensor([8, 8], pypto.DT_FP32)):\n"
                        "    for i in pypto.loop(10**19, name='big'):\n"
                        "        o[:] = x + 1.0\n"
                        "    for i in pypto.loop(5 << 61, name='shift'):\n"
                        "        o[:] = x + 1.0\n"
                        "    for i in pypto.loop(0.5, name='half'):\n"
                        "        o[:] = x + 1.0\n"
                        "    for j in range(-2**63 + 1, 2**63 - 1):\n"
                        "        o[:] = x * 2.0\n"
                        "    for j in range(-9223372036854775807, 9223372036854775807, 4611686018427387904):\n"
                        "        o[:] = x * 3.0\n"
                        "    o[:] = h15(x)\n");
    const pc_kernel *k = &m->kernels[0];
    /* a bound that does not fit in 64 bits, or is no integer, is a symbol that is a name */
    ck_assert(expr_is(loop_named(k, "big")->end, "big.stop"));
    ck_assert(expr_is(loop_named(k, "shift")->end, "shift.stop"));
    ck_assert(expr_is(loop_named(k, "half")->end, "half.stop"));
    ck_assert(has_message(m, PC_MSG_WARNING, "helper calls inlined into kernel 'k'"));
    ck_assert_int_ge(count_kind(k, PC_STMT_UNANALYSED), 1);
    pc_model_free(m);
}
END_TEST

/* Squeeze as upstream's Squeeze builds it: a one-dim tensor comes back as it is, and a tensor whose
 * every dim is squeezed keeps [1] (before: [] for both, a rank-0 shape upstream never makes). */
START_TEST(squeeze_keeps_one_dim)
{
    pc_model *m = parse("import pypto\n\n@pypto.frontend.jit\n"
                        "def k(a: pypto.Tensor([1, 1], pypto.DT_FP32), b: pypto.Tensor([1], pypto.DT_FP32),\n"
                        "      c: pypto.Tensor([1, 16, 1], pypto.DT_FP32), o: pypto.Tensor([16], pypto.DT_FP32)):\n"
                        "    for i in pypto.loop(0, 1, 1, name=\"L\"):\n"
                        "        sa = pypto.squeeze(a)\n"
                        "        sb = pypto.squeeze(b)\n"
                        "        sc = pypto.squeeze(c)\n"
                        "        sd = pypto.squeeze(c, [0])\n"
                        "        o[:] = pypto.add(sc, sc)\n");
    const pc_kernel *k = kernel(m, "k");
    ck_assert(shape_is(tensor(k, "sa"), "[1]"));
    ck_assert(shape_is(tensor(k, "sb"), "[1]"));
    ck_assert(shape_is(tensor(k, "sc"), "[16]"));
    ck_assert(shape_is(tensor(k, "sd"), "[16, 1]"));
    pc_model_free(m);
}
END_TEST

START_TEST(linear_time)
{
    /* name lookups are hashed: twice the statements, about twice the time */
    double t[2];
    for (int r = 0; r < 2; r++) {
        int n = r ? 20000 : 10000;
        size_t cap = (size_t)n * 64 + 512, len = 0;
        char *src = malloc(cap);
        len += (size_t)snprintf(src + len, cap - len,
                                "import pypto\n@pypto.frontend.jit\n"
                                "def k(x: pypto.Tensor([8, 8], pypto.DT_FP32), o: pypto.Tensor([8, 8], pypto.DT_FP32)):\n"
                                "    v0 = 1\n");
        for (int i = 1; i < n; i++)
            len += (size_t)snprintf(src + len, cap - len, "    v%d = v%d + %d\n", i, i - 1, i % 7);
        snprintf(src + len, cap - len, "    o[:] = x + 1.0\n");
        double t0 = now();
        pc_model *m = parse(src);
        t[r] = now() - t0;
        ck_assert(!m->fatal);
        pc_model_free(m);
        free(src);
    }
    ck_assert_msg(t[1] < 3.5 * t[0] + 0.05, "10000 statements %.3f s, 20000 %.3f s: not linear", t[0], t[1]);
    ck_assert_msg(t[1] < 5.0, "20000 statements took %.3f s", t[1]);
}
END_TEST

START_TEST(nested_error_location)
{
    char *src = malloc(8192);
    strcpy(src, "import pypto\nx = ");
    for (int i = 0; i < 1200; i++)
        strcat(src, "1+");
    strcat(src, "1\n");
    pc_model *m = parse(src);
    ck_assert(m->fatal);
    ck_assert(has_fatal(m, 2, 0, "nested too deeply"));
    pc_model_free(m);
    free(src);
}
END_TEST

START_TEST(cli_python_check_does_not_load_libclang)
{
    /* The CLI dlopens the C++ frontend on its first C++ file: a Python check never maps libclang
     * (or libLLVM), whose relocations cost every process ~16 ms.  LD_DEBUG=files lists each object
     * the loader opens. */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "LD_DEBUG=files '%s/bin/poolcheck' check --no-config-lookup '%s' 2>&1 >/dev/null | "
             "grep -c 'file=.*lib\\(clang\\|LLVM\\)' ",
             PC_BINARY_DIR, SEED);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    int n = -1;
    ck_assert_int_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    ck_assert_msg(n == 0, "a Python check loaded libclang/libLLVM (%d loader lines)", n);
    /* and a C++ file still gets its frontend, through the module */
    snprintf(cmd, sizeof cmd,
             "LD_DEBUG=files '%s/bin/poolcheck' check --no-config-lookup '%s/examples/k_tmp_to_d_emb.cpp' 2>&1 "
             ">/dev/null | grep -c 'file=.*poolcheck_clang'",
             PC_BINARY_DIR, PC_SOURCE_DIR);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    n = -1;
    ck_assert_int_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    ck_assert_msg(n >= 1, "the C++ check did not load poolcheck_clang");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("python");
    TCase *tc = tcase_create("frontend");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, seed_example);
    tcase_add_test(tc, aliases);
    tcase_add_test(tc, dynamic_parameters);
    tcase_add_test(tc, legacy_with_function);
    tcase_add_test(tc, helper_inlining);
    tcase_add_test(tc, writes_and_views);
    tcase_add_test(tc, loops_and_branches);
    tcase_add_test(tc, factory_kernel);
    tcase_add_test(tc, option_extents);
    tcase_add_test(tc, option_in_helper_counted_once);
    tcase_add_test(tc, syntax_error);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, not_utf8);
    tcase_add_test(tc, coding_cookie);
    tcase_add_test(tc, unreadable);
    tcase_add_test(tc, no_kernel);
    tcase_add_test(tc, never_executed);
    tcase_add_test(tc, quiet_and_isolated);
    tcase_add_test(tc, threads);
    tcase_add_test(tc, scalar_reads);
    tcase_add_test(tc, unroll_per_factor);
    tcase_add_test(tc, open_rank_parameters);
    tcase_add_test(tc, branch_conditions);
    tcase_add_test(tc, trace_time_alternatives);
    tcase_add_test(tc, compile_time_range);
    tcase_add_test(tc, noise);
    tcase_add_test(tc, sibling_modules);
    tcase_add_test(tc, binding_names_nothing);
    tcase_add_test(tc, limits);
    tcase_add_test(tc, lazy_constants_keep_python_order);
    tcase_add_test(tc, squeeze_keeps_one_dim);
    tcase_add_test(tc, linear_time);
    tcase_add_test(tc, nested_error_location);
    tcase_add_test(tc, cli_python_check_does_not_load_libclang);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
