/* check_tiles.c - tile shapes in the model and root_inner tensors as tile pieces
 * (docs/model.md section 7 "Tile pieces of root_inner tensors").
 *
 * The frontends record the tiles in force at each op (Python: a pypto.loop body scopes them, a helper
 * does not; C++: one current tile in program order, across FUNCTIONs); the model JSON carries them
 * and matmul operand roles; the analysis keeps a tensor whole when the rule's inputs are unknown and
 * says why; the seed example's tiles cut nothing.  The numbers of section 7 are in
 * tests/fixtures/tiles/ (twins). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"
#include "poolcheck/frontend.h"
#include "poolcheck/model.h"

static pc_model *parse_text(const char *path, const char *text)
{
    pc_frontend *fe = pc_frontend_new();
    pc_parse_opts o;
    memset(&o, 0, sizeof o);
    pc_model *m = pc_frontend_parse(fe, path, text, text ? strlen(text) : 0, &o);
    pc_frontend_free(fe);
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(!m->fatal, "%s did not parse", path);
    return m;
}

static pc_result *analyse(const pc_model *m, int kernel)
{
    pc_runtime_config cfg;
    pc_cfg_resolve(&cfg, m, kernel, NULL, 0, NULL, 0);
    pc_analysis_opts o;
    pc_an_default_opts(&o);
    return pc_analyze(m, kernel, &cfg, &o);
}

static int tensor_named(const pc_kernel *k, const char *name)
{
    for (int t = 0; t < k->ntensors; t++)
        if (k->tensors[t].name && strcmp(k->tensors[t].name, name) == 0)
            return t;
    ck_abort_msg("no tensor %s", name);
    return -1;
}

/* The statement that defines tensor t. */
static const pc_stmt *def_stmt(const pc_kernel *k, int t)
{
    ck_assert_int_ge(k->tensors[t].def_stmt, 0);
    return &k->stmts[k->tensors[t].def_stmt];
}

/* The first statement with a read of t by `unit`, and that access. */
static const pc_access *read_of(const pc_kernel *k, int t, pc_unit unit, const pc_stmt **st)
{
    for (int s = 0; s < k->nstmts; s++)
        for (int i = 0; i < k->stmts[s].naccesses; i++) {
            const pc_access *a = &k->stmts[s].accesses[i];
            if (a->tensor == t && a->kind == PC_ACC_READ && a->unit == unit) {
                if (st)
                    *st = &k->stmts[s];
                return a;
            }
        }
    ck_abort_msg("no read of tensor %d", t);
    return NULL;
}

/* ---- model JSON ------------------------------------------------------------------------------ */

START_TEST(json_round_trip)
{
    pc_model *m = parse_text(PC_SOURCE_DIR "/tests/fixtures/tiles/two_consumers.py", NULL);
    char *json = pc_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(json, "\"tiles\": {"));
    ck_assert_ptr_nonnull(strstr(json, "\"role\": \"left\""));
    ck_assert_ptr_nonnull(strstr(json, "\"role\": \"right\""));
    ck_assert_ptr_nonnull(strstr(json, "\"cube_k\": [32, 32, 0]"));
    char *err = NULL;
    pc_model *back = pc_model_from_json(json, strlen(json), &err);
    ck_assert_msg(back != NULL, "%s", err ? err : "?");
    char where[256];
    ck_assert_msg(pc_model_equal(m, back, where, sizeof where), "%s", where);
    /* the tiles take part in equality */
    const pc_kernel *k = &back->kernels[0];
    int s = -1;
    for (int i = 0; i < k->nstmts && s < 0; i++)
        if (k->stmts[i].tiles && k->stmts[i].tiles->nvec == 2 && k->stmts[i].tiles->vec[1] == 64)
            s = i;
    ck_assert_int_ge(s, 0);
    pc_tile_shapes *t = (pc_tile_shapes *)k->stmts[s].tiles;
    t->vec[1] = 48;
    ck_assert(!pc_model_equal(m, back, where, sizeof where));
    ck_assert_msg(strstr(where, "tiles.vec[1]"), "%s", where);
    t->vec[1] = 64;
    /* and the operand roles */
    const pc_access *ra = NULL;
    for (int i = 0; i < k->nstmts && !ra; i++)
        for (int j = 0; j < k->stmts[i].naccesses; j++)
            if (k->stmts[i].accesses[j].role == PC_OPERAND_LEFT)
                ra = &k->stmts[i].accesses[j];
    ck_assert_ptr_nonnull(ra);
    ((pc_access *)ra)->role = PC_OPERAND_RIGHT;
    ck_assert(!pc_model_equal(m, back, where, sizeof where));
    ck_assert_msg(strstr(where, "role"), "%s", where);
    pc_model_free(back);
    free(json);
    pc_model_free(m);
}
END_TEST

START_TEST(json_rejects_bad_tiles)
{
    pc_model *m = parse_text(PC_SOURCE_DIR "/tests/fixtures/tiles/mm_n32_vec32.py", NULL);
    char *json = pc_model_to_json(m);
    static const struct { const char *from, *to, *err; } cases[] = {
        {"\"vec_known\": true", "\"vec_known\": 1", "tiles.vec_known: expected a boolean"},
        {"\"cube_m\": [32, 32]", "\"cube_m\": [32]", "tiles.cube_m: expected 2 integers, got 1"},
        {"\"cube_n\": [32, 32]", "\"cube_n\": [32, -1]", "tiles.cube_n[1]"},
        {"\"vec_set\": true", "\"vec_sets\": true", "unknown field \"vec_sets\""},
        {"\"role\": \"left\"", "\"role\": \"middle\"", "role: unknown value \"middle\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(json, cases[i].from);
        ck_assert_msg(at, "%s not in the model JSON", cases[i].from);
        size_t pre = (size_t)(at - json), lf = strlen(cases[i].from), lt = strlen(cases[i].to);
        char *bad = malloc(strlen(json) - lf + lt + 1);
        memcpy(bad, json, pre);
        memcpy(bad + pre, cases[i].to, lt);
        strcpy(bad + pre + lt, at + lf);
        char *err = NULL;
        pc_model *back = pc_model_from_json(bad, strlen(bad), &err);
        ck_assert_msg(back == NULL, "case %zu was accepted", i);
        ck_assert_msg(err && strstr(err, cases[i].err), "case %zu: %s", i, err ? err : "(no error)");
        free(err);
        free(bad);
    }
    free(json);
    pc_model_free(m);
}
END_TEST

/* ---- frontends: scoping -------------------------------------------------------------------- */

START_TEST(python_loop_body_scopes_tiles)
{
    pc_model *m = parse_text(PC_SOURCE_DIR "/tests/fixtures/tiles/roots_differ.py", NULL);
    const pc_kernel *k = &m->kernels[0];
    const pc_stmt *s1 = def_stmt(k, tensor_named(k, "c1")), *s2 = def_stmt(k, tensor_named(k, "c2"));
    ck_assert_ptr_nonnull(s1->tiles);
    ck_assert_ptr_nonnull(s2->tiles);
    ck_assert(s1->tiles->vec_known && s2->tiles->vec_known);
    ck_assert_int_eq(s1->tiles->vec[1], 32);      /* set inside loop "split" */
    ck_assert_int_eq(s2->tiles->vec[1], 64);      /* that scope ended: the kernel's tile again */
    ck_assert(s2->tiles->cube_known);
    ck_assert_int_eq(s2->tiles->cube_n[0], 32);
    pc_model_free(m);
}
END_TEST

static const char helper_py[] =
    "import pypto\n"
    "\n"
    "def tiles_for_rows():\n"
    "    pypto.set_vec_tile_shapes(1, 16)\n"
    "\n"
    "@pypto.frontend.jit\n"
    "def helper_tiles(a: pypto.Tensor([1, 16], pypto.DT_FP32), b: pypto.Tensor([16, 64], pypto.DT_FP32),\n"
    "                 out: pypto.Tensor([4, 64], pypto.DT_FP32)):\n"
    "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
    "    for i in pypto.loop(0, 4, 1, name=\"rows\"):\n"
    "        tiles_for_rows()\n"
    "        c = pypto.matmul(a, b, pypto.DT_FP32, b_trans=False)\n"
    "        out[i : i + 1, :] = pypto.add(c, 1.0)\n";

START_TEST(python_helper_keeps_its_tiles)
{
    /* a plain function opens no configuration scope: its setter is in force after it returns */
    pc_model *m = parse_text("/tmp/pc_tiles_helper.py", helper_py);
    const pc_kernel *k = &m->kernels[0];
    int c = tensor_named(k, "c");
    const pc_stmt *st = NULL;
    read_of(k, c, PC_UNIT_VECTOR, &st);
    ck_assert_ptr_nonnull(st->tiles);
    ck_assert(st->tiles->vec_known);
    ck_assert_int_eq(st->tiles->nvec, 2);
    ck_assert_int_eq(st->tiles->vec[1], 16);
    pc_result *r = analyse(m, 0);
    /* p = (1, 32), c = (1, 16): b = (1, 32), two pieces */
    ck_assert_int_eq(r->tensors[c].aligned_bytes, 1024);
    ck_assert_int_eq(r->tensors[c].pieces, 2);
    ck_assert_str_eq(r->tensors[c].pieces_text, "2 pieces of [1, 32]");
    ck_assert_int_eq(r->unit_inner, 1024);
    ck_assert_int_eq(r->ntiles_unverified, 0);
    pc_result_free(r);
    pc_model_free(m);
}
END_TEST

static const char with_options_py[] =
    "import pypto\n"
    "\n"
    "@pypto.frontend.jit\n"
    "def with_tiles(a: pypto.Tensor([1, 16], pypto.DT_FP32), b: pypto.Tensor([16, 64], pypto.DT_FP32),\n"
    "               out: pypto.Tensor([4, 64], pypto.DT_FP32)):\n"
    "    pypto.set_vec_tile_shapes(1, 64)\n"
    "    for i in pypto.loop(0, 4, 1, name=\"rows\"):\n"
    "        with pypto.options(cube_tile_shapes=[[32, 32], [32, 32], [32, 32]], vec_tile_shapes=[1, 32]):\n"
    "            c = pypto.matmul(a, b, pypto.DT_FP32)\n"
    "            out[i : i + 1, :] = pypto.add(c, 1.0)\n"
    "        d = pypto.matmul(a, b, pypto.DT_FP32)\n"
    "        out[i : i + 1, :] = pypto.add(d, 1.0)\n";

START_TEST(python_with_options_scopes_tiles)
{
    /* `with pypto.options(vec_tile_shapes=..., cube_tile_shapes=...)` sets tiles for its block
     * (options.__enter__ / __exit__: BeginScope / EndScope) */
    pc_model *m = parse_text("/tmp/pc_tiles_with.py", with_options_py);
    const pc_kernel *k = &m->kernels[0];
    int c = tensor_named(k, "c"), d = tensor_named(k, "d");
    const pc_stmt *sc = def_stmt(k, c), *sd = def_stmt(k, d);
    ck_assert(sc->tiles && sc->tiles->cube_known && sc->tiles->vec_known);
    ck_assert_int_eq(sc->tiles->vec[1], 32);
    ck_assert_int_eq(sc->tiles->cube_n[0], 32);
    ck_assert(sd->tiles && sd->tiles->vec_known);
    ck_assert_int_eq(sd->tiles->vec[1], 64);
    ck_assert(!sd->tiles->cube_set); /* the block's cube tile ended with it */
    pc_result *r = analyse(m, 0);
    ck_assert_str_eq(r->tensors[c].pieces_text, "2 pieces of [1, 32]");
    ck_assert_int_eq(r->tensors[d].pieces, 0);
    ck_assert_int_eq(r->ntiles_unverified, 1); /* d: no cube tile */
    ck_assert_int_eq(r->tiles_unverified[0], d);
    pc_result_free(r);
    pc_model_free(m);
}
END_TEST

static const char star_py[] =
    "from pypto import *\n"
    "import pypto\n"
    "\n"
    "@pypto.frontend.jit\n"
    "def star(a: pypto.Tensor([1, 16], pypto.DT_FP32), b: pypto.Tensor([16, 64], pypto.DT_FP32),\n"
    "         out: pypto.Tensor([4, 64], pypto.DT_FP32)):\n"
    "    set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
    "    set_vec_tile_shapes(1, 32)\n"
    "    for i in loop(0, 4, 1):\n"
    "        c = matmul(a, b, pypto.DT_FP32)\n"
    "        out[i : i + 1, :] = add(c, 1.0)\n";

START_TEST(python_star_import_setters)
{
    /* `from pypto import *`: the bare setter names are pypto's */
    pc_model *m = parse_text("/tmp/pc_tiles_star.py", star_py);
    pc_result *r = analyse(m, 0);
    int c = tensor_named(&m->kernels[0], "c");
    ck_assert_int_eq(r->tensors[c].aligned_bytes, 1024);
    ck_assert_int_eq(r->ntiles_unverified, 0);
    pc_result_free(r);
    pc_model_free(m);
}
END_TEST

static const char two_functions_cpp[] =
    "#include \"tilefwk/tilefwk.h\"\n"
    "using namespace npu::tile_fwk;\n"
    "void Build()\n"
    "{\n"
    "    Tensor a(DT_FP32, {1, 16}, \"a\");\n"
    "    Tensor b(DT_FP32, {16, 64}, \"b\");\n"
    "    Tensor out(DT_FP32, {4, 64}, \"out\");\n"
    "    FUNCTION(\"first\", {a, b}, {out}) {\n"
    "        TileShape::Current().SetCubeTile({32, 32}, {32, 32}, {32, 32});\n"
    "        LOOP(\"l0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1)) {\n"
    "            TileShape::Current().SetVecTile({1, 32});\n"
    "            Tensor c = Matrix::Matmul(DT_FP32, a, b, false, false);\n"
    "            Assemble(Add(c, Element(DT_FP32, 1.0)), {i, 0}, out);\n"
    "        }\n"
    "    }\n"
    "    FUNCTION(\"second\", {a, b}, {out}) {\n"
    "        LOOP(\"l1\", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 4, 1)) {\n"
    "            Tensor d = Matrix::Matmul(DT_FP32, a, b);\n"
    "            Assemble(Add(d, Element(DT_FP32, 1.0)), {j, 0}, out);\n"
    "        }\n"
    "    }\n"
    "}\n";

static const char host_setter_cpp[] =
    "#include \"tilefwk/tilefwk.h\"\n"
    "using namespace npu::tile_fwk;\n"
    "void Other() { TileShape::Current().SetVecTile(1, 64); }\n"
    "void Build()\n"
    "{\n"
    "    Tensor a(DT_FP32, {1, 16}, \"a\");\n"
    "    Tensor b(DT_FP32, {16, 64}, \"b\");\n"
    "    Tensor out(DT_FP32, {4, 64}, \"out\");\n"
    "    TileShape::Current().SetCubeTile({32, 32}, {32, 32}, {32, 32});\n"
    "    std::vector<int64_t> vt = {1, 32};\n"
    "    TileShape::Current().SetVecTile(vt);\n"
    "    FUNCTION(\"host\", {a, b}, {out}) {\n"
    "        LOOP(\"l0\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1)) {\n"
    "            Tensor c = Matrix::Matmul(DT_FP32, a, b);\n"
    "            Assemble(Add(c, Element(DT_FP32, 1.0)), {i, 0}, out);\n"
    "        }\n"
    "    }\n"
    "    TileShape::Current().SetVecTile(1, 64);\n"
    "}\n";

START_TEST(cpp_host_setters_before_function)
{
    /* the host function's setters before the FUNCTION are in force in it (another function's, and
     * the one after the FUNCTION, are not) */
    pc_model *m = parse_text("/tmp/pc_tiles_host.cpp", host_setter_cpp);
    const pc_kernel *k = &m->kernels[0];
    int c = tensor_named(k, "c");
    const pc_stmt *st = NULL;
    read_of(k, c, PC_UNIT_VECTOR, &st);
    ck_assert(st->tiles && st->tiles->vec_known && st->tiles->cube_known);
    ck_assert_int_eq(st->tiles->vec[1], 32);
    ck_assert_int_eq(st->tiles->vec_loc.line, 11);
    pc_result *r = analyse(m, 0);
    ck_assert_str_eq(r->tensors[c].pieces_text, "2 pieces of [1, 32]");
    pc_result_free(r);
    pc_model_free(m);
}
END_TEST

START_TEST(cpp_one_current_tile)
{
    /* a LOOP opens no configuration scope, and the tile set in one FUNCTION is still current in the
     * next: `d` in "second" is read under the (1, 32) set in "first" */
    pc_model *m = parse_text("/tmp/pc_tiles_two.cpp", two_functions_cpp);
    ck_assert_int_eq(m->nkernels, 2);
    const pc_kernel *k = &m->kernels[1];
    int d = tensor_named(k, "d");
    const pc_stmt *st = NULL;
    read_of(k, d, PC_UNIT_VECTOR, &st);
    ck_assert_ptr_nonnull(st->tiles);
    ck_assert(st->tiles->vec_known && st->tiles->cube_known);
    ck_assert_int_eq(st->tiles->vec[1], 32);
    const pc_access *left = read_of(k, tensor_named(k, "a"), PC_UNIT_CUBE, NULL);
    const pc_access *right = read_of(k, tensor_named(k, "b"), PC_UNIT_CUBE, NULL);
    ck_assert_int_eq(left->role, PC_OPERAND_LEFT);
    ck_assert_int_eq(right->role, PC_OPERAND_RIGHT);
    pc_result *r = analyse(m, 1);
    ck_assert_int_eq(r->tensors[d].aligned_bytes, 1024);
    ck_assert_str_eq(r->tensors[d].pieces_text, "2 pieces of [1, 32]");
    pc_result_free(r);
    pc_model_free(m);
}
END_TEST

/* ---- the rule's unknown inputs -------------------------------------------------------------- */

/* One kernel of `body` (indented 4) after a header; the tensor `name` stays one piece of `bytes`
 * and the reason names `why`. */
static void expect_unverified(const char *params, const char *body, const char *name, int64_t bytes,
                              const char *why)
{
    char text[4096];
    snprintf(text, sizeof text,
             "import pypto\n\n@pypto.frontend.jit\ndef k(%s):\n%s", params, body);
    pc_model *m = parse_text("/tmp/pc_tiles_case.py", text);
    pc_result *r = analyse(m, 0);
    int t = tensor_named(&m->kernels[0], name);
    ck_assert_int_eq(r->tensors[t].pool, PC_POOL_ROOT_INNER);
    ck_assert_int_eq(r->tensors[t].pieces, 0);
    ck_assert_ptr_null(r->tensors[t].pieces_text);
    ck_assert_int_eq(r->tensors[t].aligned_bytes, bytes);
    ck_assert_int_eq(r->ntiles_unverified, 1);
    ck_assert_int_eq(r->tiles_unverified[0], t);
    ck_assert_msg(strstr(r->tiles_unverified_why[0], why), "%s: '%s'", why, r->tiles_unverified_why[0]);
    ck_assert_int_gt(r->tiles_unverified_loc[0].line, 0);
    pc_result_free(r);
    pc_model_free(m);
}

static const char mm_params[] = "a: pypto.Tensor([1, 16], pypto.DT_FP32), b: pypto.Tensor([16, 64], pypto.DT_FP32), "
                                "out: pypto.Tensor([4, 64], pypto.DT_FP32)";

START_TEST(unknown_inputs_keep_one_piece)
{
    /* no vector tile (the cube one is set) */
    expect_unverified(mm_params,
                      "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
                      "    for i in pypto.loop(0, 4, 1):\n"
                      "        c = pypto.matmul(a, b, pypto.DT_FP32)\n"
                      "        out[i : i + 1, :] = pypto.add(c, 1.0)\n",
                      "c", 512, "no pypto.set_vec_tile_shapes precedes the vector op");
    /* a vector tile that is no constant */
    expect_unverified(mm_params,
                      "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
                      "    pypto.set_vec_tile_shapes(*TILES)\n"
                      "    for i in pypto.loop(0, 4, 1):\n"
                      "        c = pypto.matmul(a, b, pypto.DT_FP32)\n"
                      "        out[i : i + 1, :] = pypto.add(c, 1.0)\n",
                      "c", 512, "is not a constant");
    /* fewer vector tile entries than dims */
    expect_unverified(mm_params,
                      "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
                      "    pypto.set_vec_tile_shapes(32)\n"
                      "    for i in pypto.loop(0, 4, 1):\n"
                      "        c = pypto.matmul(a, b, pypto.DT_FP32)\n"
                      "        out[i : i + 1, :] = pypto.add(c, 1.0)\n",
                      "c", 512, "has 1 entry for 2 dims");
    /* a transposed left operand */
    expect_unverified("x: pypto.Tensor([64, 4], pypto.DT_FP32), w: pypto.Tensor([64, 16], pypto.DT_FP32), "
                      "out: pypto.Tensor([4, 16], pypto.DT_FP32)",
                      "    pypto.set_vec_tile_shapes(32, 4)\n"
                      "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
                      "    for i in pypto.loop(0, 4, 1):\n"
                      "        v = pypto.add(x, 1.0)\n"
                      "        out[:, :] = pypto.matmul(v, w, pypto.DT_FP32, a_trans=True)\n",
                      "v", 1024, "transposed");
    /* dynamic dims */
    expect_unverified("a: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), b: pypto.Tensor([16, 64], pypto.DT_FP32), "
                      "out: pypto.Tensor([4, 64], pypto.DT_FP32)",
                      "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n"
                      "    pypto.set_vec_tile_shapes(1, 32)\n"
                      "    for i in pypto.loop(0, 4, 1):\n"
                      "        c = pypto.matmul(a, b, pypto.DT_FP32)\n"
                      "        out[i : i + 1, :] = pypto.add(c[0:1, :], 1.0)\n",
                      "c", -1, "dynamic dims");
}
END_TEST

/* ---- the seed example ---------------------------------------------------------------------- */

START_TEST(seed_example_cuts_nothing)
{
    static const char *const files[] = {PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py",
                                        PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp"};
    for (int f = 0; f < 2; f++) {
        pc_model *m = parse_text(files[f], NULL);
        pc_result *r = analyse(m, 0);
        ck_assert_int_eq(r->predicted[0], 64);
        ck_assert_int_eq(r->predicted[1], 1);
        ck_assert_int_eq(r->predicted[2], 1);
        ck_assert_int_eq(r->ws_predicted, 65536);
        ck_assert_int_eq(r->unit_inner, 512);
        int dx = tensor_named(&m->kernels[0], "dx");
        ck_assert_int_eq(r->tensors[dx].pool, PC_POOL_ROOT_INNER);
        ck_assert_int_eq(r->tensors[dx].pieces, 0);
        ck_assert_int_eq(r->tensors[dx].aligned_bytes, 512);
        ck_assert_int_eq(r->ntiles_unverified, 0); /* its tiles are all known */
        pc_result_free(r);
        pc_model_free(m);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tiles");
    TCase *tc = tcase_create("tiles");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, json_round_trip);
    tcase_add_test(tc, json_rejects_bad_tiles);
    tcase_add_test(tc, python_loop_body_scopes_tiles);
    tcase_add_test(tc, python_helper_keeps_its_tiles);
    tcase_add_test(tc, python_with_options_scopes_tiles);
    tcase_add_test(tc, python_star_import_setters);
    tcase_add_test(tc, cpp_one_current_tile);
    tcase_add_test(tc, cpp_host_setters_before_function);
    tcase_add_test(tc, unknown_inputs_keep_one_piece);
    tcase_add_test(tc, seed_example_cuts_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
