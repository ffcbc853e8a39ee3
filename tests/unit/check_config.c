/* check_config.c - runtime options: validation, precedence, --set, config and project files. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "poolcheck/config.h"
#include "poolcheck/poolcheck.h"
#include "support/support.h"

static pc_arena *A;
static void setup(void) { A = pc_arena_new(); }
static void teardown(void) { pc_arena_free(A); A = NULL; }

/* ---- building values ------------------------------------------------------------------------- */

static pc_optval V_int(int64_t i) { pc_optval v = {0}; v.kind = PC_OPT_INT; v.i = i; return v; }
static pc_optval V_bool(bool b) { pc_optval v = {0}; v.kind = PC_OPT_BOOL; v.i = b; return v; }
static pc_optval V_float(double f) { pc_optval v = {0}; v.kind = PC_OPT_FLOAT; v.f = f; return v; }
static pc_optval V_str(const char *s) { pc_optval v = {0}; v.kind = PC_OPT_STRING; v.text = s; return v; }
static pc_optval V_none(void) { pc_optval v = {0}; v.kind = PC_OPT_NONE; return v; }
static pc_optval V_unknown(const char *t) { pc_optval v = {0}; v.kind = PC_OPT_UNKNOWN; v.text = t; return v; }

static pc_optval V_seq(pc_optval_kind k, int n, ...)
{
    pc_optval v = {0};
    v.kind = k;
    v.nitems = n;
    v.items = pc_arena_alloc(A, (size_t)(n ? n : 1) * sizeof *v.items);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        v.items[i] = va_arg(ap, pc_optval);
    va_end(ap);
    return v;
}
#define LIST(...) V_seq(PC_OPT_LIST, __VA_ARGS__)
#define TUPLE(...) V_seq(PC_OPT_TUPLE, __VA_ARGS__)
#define TRIPLE(a, b, c) LIST(3, V_int(a), V_int(b), V_int(c))

static const char *SHAPE_TAIL = ". Expected a list of 3 ints in [0, 1024], meaning [root_inner_depth, "
                                "assemble_outcast_depth, exclusive_outcast_depth].";
static const char *ELEM_TAIL = ". Each element must be an int in [0, 1024].";

static void expect_invalid(const char *key, pc_optval v, const char *shown, const char *tail)
{
    const char *why = pc_cfg_validate(A, key, &v);
    char want[512];
    snprintf(want, sizeof want, "Invalid %s: '%s'%s", key, shown, tail);
    ck_assert_msg(why != NULL, "%s = %s accepted", key, shown);
    ck_assert_str_eq(why, want);
    ck_assert(!pc_cfg_applicable(key, &v));
}

static void expect_valid(const char *key, pc_optval v, bool applies)
{
    const char *why = pc_cfg_validate(A, key, &v);
    ck_assert_msg(why == NULL, "%s rejected: %s", key, why);
    ck_assert_int_eq(pc_cfg_applicable(key, &v), applies);
}

/* ---- defaults -------------------------------------------------------------------------------- */

START_TEST(defaults_and_derived)
{
    pc_runtime_config c;
    memset(&c, 0x5a, sizeof c);
    pc_cfg_defaults(&c);
    ck_assert_int_eq(c.max_num, 128);
    ck_assert_int_eq(c.workspace_kb, 0);
    ck_assert_int_eq(c.parallelism, 1);
    ck_assert(c.pool[0] == 0 && c.pool[1] == 0 && c.pool[2] == 0);
    ck_assert(!c.src_max_num && !c.src_pool && !c.src_workspace_kb && !c.src_parallelism);
    ck_assert(!pc_cfg_precise(&c));
    ck_assert_int_eq(pc_cfg_k(&c), 128);
    int64_t eff[3];
    pc_cfg_effective_pool(&c, eff);
    ck_assert(eff[0] == 128 && eff[1] == 128 && eff[2] == 128);
    c.max_num = 4000; /* beyond upstream's MAX_STITCH_FUNC_NUM */
    ck_assert_int_eq(pc_cfg_k(&c), 1024);
    c.max_num = 64;
    c.pool[1] = 2;
    ck_assert(pc_cfg_precise(&c));
    pc_cfg_effective_pool(&c, eff);
    ck_assert(eff[0] == 0 && eff[1] == 2 && eff[2] == 0);
}
END_TEST

/* ---- validation ------------------------------------------------------------------------------ */

START_TEST(pool_invalid_values_upstream_rejects)
{
    /* UT test_runtime_option_stitch_function_num_per_pool_invalid, every case */
    expect_invalid(PC_KEY_POOL, LIST(2, V_int(64), V_int(1)), "[64, 1]", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(4, V_int(64), V_int(1), V_int(1), V_int(1)), "[64, 1, 1, 1]", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, V_str("abc"), "abc", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, TRIPLE(64, -1, 1), "[64, -1, 1]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, TRIPLE(64, 1025, 1), "[64, 1025, 1]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_int(64), V_int(1), V_float(1.5)), "[64, 1, 1.5]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_int(64), V_bool(true), V_int(1)), "[64, True, 1]", ELEM_TAIL);
    /* and the rest of the type lattice */
    expect_invalid(PC_KEY_POOL, TUPLE(2, V_int(64), V_int(1)), "(64, 1)", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, V_int(64), "64", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, V_bool(false), "False", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, V_float(64.0), "64.0", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(0), "[]", SHAPE_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_str("64"), V_int(1), V_int(1)), "['64', 1, 1]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_int(64), V_none(), V_int(1)), "[64, None, 1]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_bool(false), V_int(0), V_int(0)), "[False, 0, 0]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_int(1), TRIPLE(1, 1, 1), V_int(1)), "[1, [1, 1, 1], 1]", ELEM_TAIL);
    expect_invalid(PC_KEY_POOL, LIST(3, V_float(1.0), V_int(1), V_int(1)), "[1.0, 1, 1]", ELEM_TAIL);
    /* an element poolcheck cannot evaluate does not hide a bad one */
    expect_invalid(PC_KEY_POOL, LIST(3, V_unknown("n"), V_int(1025), V_int(1)), "[n, 1025, 1]", ELEM_TAIL);
    /* the message searches like upstream's */
    pc_optval bad = TRIPLE(64, -1, 1);
    ck_assert_ptr_nonnull(strstr(pc_cfg_validate(A, PC_KEY_POOL, &bad), "Invalid stitch_function_num_per_pool"));
    /* without an arena: a static message */
    ck_assert_str_eq(pc_cfg_validate(NULL, PC_KEY_POOL, &bad),
                     "Invalid stitch_function_num_per_pool. Each element must be an int in [0, 1024].");
}
END_TEST

START_TEST(pool_valid_values)
{
    expect_valid(PC_KEY_POOL, TRIPLE(64, 1, 1), true);
    expect_valid(PC_KEY_POOL, TRIPLE(0, 0, 0), true);
    expect_valid(PC_KEY_POOL, TRIPLE(1024, 1024, 0), true);
    expect_valid(PC_KEY_POOL, TUPLE(3, V_int(64), V_int(2), V_int(1)), true);
    /* None: "no change"; an expression poolcheck cannot evaluate: not reported, not applied */
    expect_valid(PC_KEY_POOL, V_none(), false);
    expect_valid(PC_KEY_POOL, V_unknown("DEPTHS"), false);
    expect_valid(PC_KEY_POOL, LIST(3, V_int(64), V_unknown("n"), V_int(1)), false);
}
END_TEST

START_TEST(other_option_ranges)
{
    static const struct { const char *key; int64_t lo, hi; } opts[] = {
        {PC_KEY_MAX_NUM, 1, 1024}, {PC_KEY_WORKSPACE_KB, 0, 2147483647}, {PC_KEY_PARALLELISM, 1, 8}};
    for (size_t i = 0; i < 3; i++) {
        const char *k = opts[i].key;
        char tail[64];
        snprintf(tail, sizeof tail, ". Expected an int in [%lld, %lld].", (long long)opts[i].lo, (long long)opts[i].hi);
        char shown[32];
        expect_valid(k, V_int(opts[i].lo), true);
        expect_valid(k, V_int(opts[i].hi), true);
        snprintf(shown, sizeof shown, "%lld", (long long)opts[i].lo - 1);
        expect_invalid(k, V_int(opts[i].lo - 1), shown, tail);
        snprintf(shown, sizeof shown, "%lld", (long long)opts[i].hi + 1);
        expect_invalid(k, V_int(opts[i].hi + 1), shown, tail);
        /* bool is not an int anywhere, not even True for a range holding 1 */
        expect_invalid(k, V_bool(true), "True", tail);
        expect_invalid(k, V_bool(false), "False", tail);
        expect_invalid(k, V_float(4.0), "4.0", tail);
        expect_invalid(k, V_str("4"), "4", tail);
        expect_invalid(k, LIST(1, V_int(4)), "[4]", tail);
        expect_valid(k, V_none(), false);
        expect_valid(k, V_unknown("kMax"), false);
    }
    /* options poolcheck does not model: never reported, never applied */
    expect_valid("device_sched_mode", V_int(99), false);
    expect_valid("launch_sched_aicpu_num", V_str("x"), false);
    pc_optval one = V_int(1);
    ck_assert_ptr_null(pc_cfg_validate(A, NULL, &one));
    pc_optval zero = V_int(0);
    ck_assert_str_eq(pc_cfg_validate(NULL, PC_KEY_MAX_NUM, &zero), "Invalid runtime option value. Expected an int in its range.");
}
END_TEST

START_TEST(python_rendering)
{
    static const struct { double f; const char *repr; } floats[] = {
        {1.5, "1.5"}, {2.0, "2.0"}, {0.1, "0.1"}, {100.0, "100.0"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
        {1e-5, "1e-05"}, {0.0001, "0.0001"}, {-0.0, "-0.0"}, {0.0, "0.0"}, {1.5e300, "1.5e+300"},
        {123456.789, "123456.789"}, {-2.5e-7, "-2.5e-07"}, {1.0 / 3, "0.3333333333333333"},
    };
    for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) {
        pc_optval v = V_float(floats[i].f);
        ck_assert_str_eq(pc_cfg_value_text(A, &v), floats[i].repr);
    }
    pc_optval v = V_float(INFINITY);
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "inf");
    v = V_float(-INFINITY);
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "-inf");
    v = V_float(NAN);
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "nan");
    v = V_str("abc");
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "'abc'");
    ck_assert_str_eq(pc_cfg_value_str(A, &v), "abc");
    v = V_str("it's");
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "\"it's\"");
    v = V_str("a'b\"c\\\n\x01");
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "'a\\'b\"c\\\\\\n\\x01'");
    v = LIST(3, V_int(64), V_bool(true), V_int(1));
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "[64, True, 1]");
    ck_assert_str_eq(pc_cfg_value_str(A, &v), "[64, True, 1]");
    v = LIST(2, LIST(2, V_int(1), V_str("a")), TUPLE(1, V_int(2)));
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "[[1, 'a'], (2,)]");
    ck_assert_str_eq(pc_cfg_value_str(A, &v), "[[1, 'a'], (2,)]");
    v = TUPLE(0);
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "()");
    v = V_none();
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "None");
    v = V_unknown("kDepth * 2");
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "kDepth * 2");
    v = V_int(-9223372036854775807LL - 1);
    ck_assert_str_eq(pc_cfg_value_text(A, &v), "-9223372036854775808");
}
END_TEST

/* ---- apply and precedence -------------------------------------------------------------------- */

static pc_option opt(const char *key, pc_optval v, pc_optsite_kind site, int kernel)
{
    pc_option o;
    memset(&o, 0, sizeof o);
    o.key = key;
    o.value = v;
    o.site = site;
    o.kernel = kernel;
    return o;
}

START_TEST(apply_valid_only)
{
    pc_runtime_config c;
    pc_cfg_defaults(&c);
    pc_option good = opt(PC_KEY_POOL, TRIPLE(64, 1, 1), PC_SITE_JIT, 0);
    pc_cfg_apply(&c, &good);
    ck_assert(c.pool[0] == 64 && c.pool[1] == 1 && c.pool[2] == 1);
    ck_assert_ptr_eq(c.src_pool, &good);
    pc_option bad = opt(PC_KEY_POOL, LIST(3, V_int(64), V_bool(true), V_int(1)), PC_SITE_COMMAND_LINE, -1);
    pc_cfg_apply(&c, &bad);
    ck_assert(c.pool[0] == 64 && c.pool[1] == 1 && c.pool[2] == 1);
    ck_assert_ptr_eq(c.src_pool, &good);
    pc_option none = opt(PC_KEY_POOL, V_none(), PC_SITE_COMMAND_LINE, -1);
    pc_option unknown = opt(PC_KEY_POOL, LIST(3, V_int(1), V_unknown("n"), V_int(1)), PC_SITE_COMMAND_LINE, -1);
    pc_cfg_apply(&c, &none);
    pc_cfg_apply(&c, &unknown);
    ck_assert(c.pool[0] == 64 && c.pool[1] == 1 && c.pool[2] == 1);
    pc_option mx = opt(PC_KEY_MAX_NUM, V_int(256), PC_SITE_SET_RUNTIME_OPTIONS, -1);
    pc_option kb = opt(PC_KEY_WORKSPACE_KB, V_int(4096), PC_SITE_SET_RUNTIME_OPTIONS, -1);
    pc_option par = opt(PC_KEY_PARALLELISM, V_int(4), PC_SITE_SET_RUNTIME_OPTIONS, -1);
    pc_option other = opt("device_sched_mode", V_int(2), PC_SITE_SET_RUNTIME_OPTIONS, -1);
    pc_cfg_apply(&c, &mx);
    pc_cfg_apply(&c, &kb);
    pc_cfg_apply(&c, &par);
    pc_cfg_apply(&c, &other);
    pc_cfg_apply(&c, NULL);
    ck_assert_int_eq(c.max_num, 256);
    ck_assert_int_eq(pc_cfg_k(&c), 256);
    ck_assert_int_eq(c.workspace_kb, 4096);
    ck_assert_int_eq(c.parallelism, 4);
    ck_assert_ptr_eq(c.src_max_num, &mx);
    ck_assert_ptr_eq(c.src_workspace_kb, &kb);
    ck_assert_ptr_eq(c.src_parallelism, &par);
    pc_option bad_bool = opt(PC_KEY_PARALLELISM, V_bool(true), PC_SITE_SET_RUNTIME_OPTIONS, -1);
    pc_cfg_apply(&c, &bad_bool);
    ck_assert_int_eq(c.parallelism, 4);
}
END_TEST

/* The precedence ladder, earliest first.  A source is one option placed where it comes from. */
enum { SRC_CONFIG, SRC_PROJECT, SRC_MODULE, SRC_SET_OPTIONS, SRC_CPP_MODULE, SRC_SCOPE, SRC_JIT, SRC_CPP_KERNEL,
       SRC_CLI, NSRC };
static const int src_rank[NSRC] = {0, 1, 2, 2, 2, 3, 4, 4, 5};
static const char *const src_names[NSRC] = {"config", "project", "set_runtime_options", "set_options",
                                            "SetRuntimeOption(module)", "options scope", "jit",
                                            "SetRuntimeOption(kernel)", "--set"};

typedef struct world {
    pc_model *m;
    pc_option file[4];
    size_t nfile;
    pc_option cli[4];
    size_t ncli;
} world;

/* Place a max_num option from source `src` with value v; returns the option as stored. */
static const pc_option *place(world *w, int src, int64_t v)
{
    static const pc_optsite_kind site_of[NSRC] = {
        PC_SITE_CONFIG_FILE, PC_SITE_PROJECT_FILE, PC_SITE_SET_RUNTIME_OPTIONS, PC_SITE_SET_OPTIONS,
        PC_SITE_CPP_SET_RUNTIME_OPTION, PC_SITE_OPTIONS_SCOPE, PC_SITE_JIT, PC_SITE_CPP_SET_RUNTIME_OPTION,
        PC_SITE_COMMAND_LINE};
    if (src == SRC_CONFIG || src == SRC_PROJECT) {
        w->file[w->nfile] = opt(PC_KEY_MAX_NUM, V_int(v), site_of[src], -1);
        return &w->file[w->nfile++];
    }
    if (src == SRC_CLI) {
        w->cli[w->ncli] = opt(PC_KEY_MAX_NUM, V_int(v), site_of[src], -1);
        return &w->cli[w->ncli++];
    }
    int o = pc_model_add_option(w->m, PC_KEY_MAX_NUM, site_of[src], w->m->kernels[0].loc);
    bool module = src == SRC_MODULE || src == SRC_SET_OPTIONS || src == SRC_CPP_MODULE;
    w->m->options[o].kernel = module ? -1 : 0;
    w->m->options[o].value = V_int(v);
    return &w->m->options[o];
}

static void world_init(world *w)
{
    memset(w, 0, sizeof *w);
    w->m = pc_model_new("k.py", PC_LANG_PYTHON);
    pc_model_add_kernel(w->m, "k0", pc_model_loc(w->m, "k.py", 5, 1, 5, 4));
    pc_model_add_kernel(w->m, "k1", pc_model_loc(w->m, "k.py", 9, 1, 9, 4));
}

START_TEST(precedence_every_pair)
{
    /* for every pair of sources: the later one in the ladder wins, whatever the source order;
     * with equal rank, source order decides */
    for (int a = 0; a < NSRC; a++)
        for (int b = 0; b < NSRC; b++) {
            if (a == b)
                continue;
            world w;
            world_init(&w);
            const pc_option *oa = place(&w, a, 10 + a); /* a appears first in its list */
            const pc_option *ob = place(&w, b, 10 + b);
            /* the model's options array may have moved when growing: look the pointers up again */
            pc_runtime_config c;
            pc_cfg_resolve(&c, w.m, 0, w.file, w.nfile, w.cli, w.ncli);
            int want = src_rank[a] > src_rank[b] ? a : b; /* equal rank: b came later */
            ck_assert_msg(c.max_num == 10 + want, "%s then %s: got %lld, want %s", src_names[a], src_names[b],
                          (long long)c.max_num, src_names[want]);
            ck_assert_ptr_nonnull(c.src_max_num);
            ck_assert_int_eq(c.src_max_num->value.i, 10 + want);
            (void)oa;
            (void)ob;
            /* alone, each source beats the default */
            pc_model_free(w.m);
            world_init(&w);
            place(&w, a, 10 + a);
            pc_cfg_resolve(&c, w.m, 0, w.file, w.nfile, w.cli, w.ncli);
            ck_assert_int_eq(c.max_num, 10 + a);
            pc_model_free(w.m);
        }
}
END_TEST

START_TEST(precedence_rules)
{
    world w;
    world_init(&w);
    pc_runtime_config c;
    /* no options at all */
    pc_cfg_resolve(&c, w.m, 0, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.max_num, 128);
    pc_cfg_resolve(&c, NULL, -1, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.max_num, 128);

    /* jit(runtime_options=...) honours stitch_function_num_per_pool; it is per kernel */
    int o = pc_model_add_option(w.m, PC_KEY_POOL, PC_SITE_JIT, w.m->kernels[0].loc);
    w.m->options[o].kernel = 0;
    w.m->options[o].value = TRIPLE(64, 1, 1);
    pc_cfg_resolve(&c, w.m, 0, NULL, 0, NULL, 0);
    ck_assert(c.pool[0] == 64 && c.pool[1] == 1 && c.pool[2] == 1);
    ck_assert_int_eq(c.src_pool->site, PC_SITE_JIT);
    pc_cfg_resolve(&c, w.m, 1, NULL, 0, NULL, 0);
    ck_assert(!pc_cfg_precise(&c));

    /* set_runtime_options inside a kernel (PC005) does not apply */
    o = pc_model_add_option(w.m, PC_KEY_MAX_NUM, PC_SITE_SET_RUNTIME_OPTIONS, w.m->kernels[0].loc);
    w.m->options[o].value = V_int(16);
    w.m->options[o].kernel = 0;
    w.m->options[o].in_kernel = true;
    o = pc_model_add_option(w.m, PC_KEY_PARALLELISM, PC_SITE_CPP_SET_RUNTIME_OPTION, w.m->kernels[0].loc);
    w.m->options[o].value = V_int(2);
    w.m->options[o].kernel = 0;
    w.m->options[o].in_kernel = true;
    pc_cfg_resolve(&c, w.m, 0, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.max_num, 128);
    ck_assert_int_eq(c.parallelism, 1);

    /* an options scope that belongs to no kernel in particular applies to all */
    o = pc_model_add_option(w.m, PC_KEY_WORKSPACE_KB, PC_SITE_OPTIONS_SCOPE, w.m->kernels[0].loc);
    w.m->options[o].value = V_int(512);
    pc_cfg_resolve(&c, w.m, 1, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.workspace_kb, 512);

    /* invalid values never apply: the previous valid value stays, with its provenance */
    pc_option file = opt(PC_KEY_MAX_NUM, V_int(64), PC_SITE_CONFIG_FILE, -1);
    pc_option cli_bad[2] = {opt(PC_KEY_MAX_NUM, V_int(0), PC_SITE_COMMAND_LINE, -1),
                            opt(PC_KEY_MAX_NUM, V_bool(true), PC_SITE_COMMAND_LINE, -1)};
    pc_cfg_resolve(&c, w.m, 0, &file, 1, cli_bad, 2);
    ck_assert_int_eq(c.max_num, 64);
    ck_assert_ptr_eq(c.src_max_num, &file);
    /* None at a later source is "no change" */
    pc_option cli_none = opt(PC_KEY_MAX_NUM, V_none(), PC_SITE_COMMAND_LINE, -1);
    pc_cfg_resolve(&c, w.m, 0, &file, 1, &cli_none, 1);
    ck_assert_int_eq(c.max_num, 64);

    /* all external options in one array (as pc_check_opts carries them): --set still last, even
     * when it comes first in the array; the project file after the config file */
    pc_option ext[3] = {opt(PC_KEY_MAX_NUM, V_int(8), PC_SITE_COMMAND_LINE, -1),
                        opt(PC_KEY_MAX_NUM, V_int(32), PC_SITE_CONFIG_FILE, -1),
                        opt(PC_KEY_MAX_NUM, V_int(48), PC_SITE_PROJECT_FILE, -1)};
    pc_cfg_resolve(&c, w.m, 0, ext, 3, NULL, 0);
    ck_assert_int_eq(c.max_num, 8);
    ck_assert_ptr_eq(c.src_max_num, &ext[0]);
    pc_cfg_resolve(&c, w.m, 0, ext + 1, 2, NULL, 0);
    ck_assert_int_eq(c.max_num, 48);
    pc_option swapped[2] = {ext[2], ext[1]}; /* the project file wins whatever the array order */
    pc_cfg_resolve(&c, w.m, 0, swapped, 2, NULL, 0);
    ck_assert_int_eq(c.max_num, 48);
    /* a module-level option overrides the files */
    o = pc_model_add_option(w.m, PC_KEY_MAX_NUM, PC_SITE_SET_OPTIONS, w.m->kernels[0].loc);
    w.m->options[o].value = V_int(96);
    pc_cfg_resolve(&c, w.m, 0, ext + 1, 2, NULL, 0);
    ck_assert_int_eq(c.max_num, 96);
    /* an option of another kernel does not apply */
    o = pc_model_add_option(w.m, PC_KEY_MAX_NUM, PC_SITE_JIT, w.m->kernels[1].loc);
    w.m->options[o].value = V_int(200);
    w.m->options[o].kernel = 1;
    pc_cfg_resolve(&c, w.m, 0, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.max_num, 96);
    pc_cfg_resolve(&c, w.m, 1, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.max_num, 200);
    /* same rank: source order (two jit options of kernel 1) */
    o = pc_model_add_option(w.m, PC_KEY_MAX_NUM, PC_SITE_CPP_SET_RUNTIME_OPTION, w.m->kernels[1].loc);
    w.m->options[o].value = V_int(300);
    w.m->options[o].kernel = 1;
    pc_cfg_resolve(&c, w.m, 1, NULL, 0, NULL, 0);
    ck_assert_int_eq(c.max_num, 300);
    pc_model_free(w.m);
}
END_TEST

/* ---- --set --------------------------------------------------------------------------------------- */

static pc_option set(const char *arg)
{
    pc_option o;
    char *err = NULL;
    ck_assert_msg(pc_cfg_parse_set(A, arg, &o, &err), "--set %s: %s", arg, err ? err : "");
    ck_assert_ptr_null(err);
    ck_assert_int_eq(o.site, PC_SITE_COMMAND_LINE);
    ck_assert_int_eq(o.kernel, -1);
    ck_assert(!o.in_kernel);
    ck_assert_ptr_null(o.loc.file);
    return o;
}

static void set_text(const char *arg, const char *key, pc_optval_kind kind, const char *text)
{
    pc_option o = set(arg);
    ck_assert_str_eq(o.key, key);
    ck_assert_msg(o.value.kind == kind, "--set %s: kind %d, want %d", arg, o.value.kind, kind);
    ck_assert_str_eq(pc_cfg_value_text(A, &o.value), text);
}

START_TEST(parse_set_forms)
{
    set_text("stitch_function_num_per_pool=64,1,1", PC_KEY_POOL, PC_OPT_LIST, "[64, 1, 1]");
    set_text("stitch_function_num_per_pool=[64,1,1]", PC_KEY_POOL, PC_OPT_LIST, "[64, 1, 1]");
    set_text("stitch_function_num_per_pool=(64,1,1)", PC_KEY_POOL, PC_OPT_TUPLE, "(64, 1, 1)");
    set_text("stitch_function_num_per_pool=[64, True, 1]", PC_KEY_POOL, PC_OPT_LIST, "[64, True, 1]");
    set_text("stitch_function_num_per_pool= [ 64 , 1 , 1.5 ] ", PC_KEY_POOL, PC_OPT_LIST, "[64, 1, 1.5]");
    set_text("k=(64,)", "k", PC_OPT_TUPLE, "(64,)");
    set_text("k=[]", "k", PC_OPT_LIST, "[]");
    set_text("k=()", "k", PC_OPT_TUPLE, "()");
    set_text("k=[[1,2],(3,'a,b')]", "k", PC_OPT_LIST, "[[1, 2], (3, 'a,b')]");
    set_text("k=1,'x',false", "k", PC_OPT_LIST, "[1, 'x', False]");
    set_text("stitch_function_max_num=64", PC_KEY_MAX_NUM, PC_OPT_INT, "64");
    set_text("k=-5", "k", PC_OPT_INT, "-5");
    set_text("k=+5", "k", PC_OPT_INT, "5");
    set_text("k=true", "k", PC_OPT_BOOL, "True");
    set_text("k=True", "k", PC_OPT_BOOL, "True");
    set_text("k=false", "k", PC_OPT_BOOL, "False");
    set_text("k=False", "k", PC_OPT_BOOL, "False");
    set_text("k=1.5", "k", PC_OPT_FLOAT, "1.5");
    set_text("k=1e3", "k", PC_OPT_FLOAT, "1000.0");
    set_text("k=.5", "k", PC_OPT_FLOAT, "0.5");
    /* beyond int64: still an int to Python, so shown whole, not as the double it holds */
    set_text("k=99999999999999999999", "k", PC_OPT_FLOAT, "99999999999999999999");
    set_text("k=-99999999999999999999", "k", PC_OPT_FLOAT, "-99999999999999999999");
    set_text("k='abc'", "k", PC_OPT_STRING, "'abc'");
    set_text("k=\"a\\\"b\"", "k", PC_OPT_STRING, "'a\"b'");
    set_text("k=abc", "k", PC_OPT_STRING, "'abc'");
    set_text("k=1.5.6", "k", PC_OPT_STRING, "'1.5.6'");
    set_text("k=", "k", PC_OPT_STRING, "''");
    set_text("k=a=b", "k", PC_OPT_STRING, "'a=b'");
    set_text("k=None", "k", PC_OPT_NONE, "None");
    set_text("k=[64,1,1", "k", PC_OPT_STRING, "'[64,1,1'");
    set_text("  max_workspace_kb  =  2048 ", PC_KEY_WORKSPACE_KB, PC_OPT_INT, "2048");
    /* the parsed values validate like source values */
    pc_option o = set("stitch_function_num_per_pool=64,True,1");
    ck_assert_str_eq(pc_cfg_validate(A, o.key, &o.value),
                     "Invalid stitch_function_num_per_pool: '[64, True, 1]'. Each element must be an int in [0, 1024].");
    o = set("stitch_function_num_per_pool=abc");
    ck_assert_str_eq(pc_cfg_validate(A, o.key, &o.value),
                     "Invalid stitch_function_num_per_pool: 'abc'. Expected a list of 3 ints in [0, 1024], meaning "
                     "[root_inner_depth, assemble_outcast_depth, exclusive_outcast_depth].");
    o = set("stitch_function_num_per_pool=64,1,1");
    ck_assert(pc_cfg_applicable(o.key, &o.value));
    /* deep brackets do not recurse without bound */
    char deep[300];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    memcpy(deep, "k=", 2);
    o = set(deep);
    ck_assert_int_eq(o.value.kind, PC_OPT_STRING);
    char nested[200] = "k=";
    for (int i = 0; i < 40; i++)
        strcat(nested, "[");
    strcat(nested, "1");
    for (int i = 0; i < 40; i++)
        strcat(nested, "]");
    o = set(nested);
    ck_assert_int_eq(o.value.kind, PC_OPT_LIST);
    /* long lists keep every item */
    pc_sb long_list = {0};
    pc_sb_append(&long_list, "k=[");
    for (int i = 0; i < 3000; i++)
        pc_sb_printf(&long_list, "%d,", i);
    pc_sb_append(&long_list, "]");
    o = set(long_list.data);
    ck_assert_int_eq(o.value.kind, PC_OPT_LIST);
    ck_assert_int_eq(o.value.nitems, 3000);
    ck_assert_int_eq(o.value.items[2999].i, 2999);
    pc_sb_free(&long_list);
    set_text("k=1,,2", "k", PC_OPT_LIST, "[1, '', 2]");
    set_text("k=[1, 'a]b', \"c,\"]", "k", PC_OPT_LIST, "[1, 'a]b', 'c,']");
    /* errors */
    char *err = NULL;
    pc_option bad;
    ck_assert(!pc_cfg_parse_set(A, "stitch_function_max_num", &bad, &err));
    ck_assert_str_eq(err, "expected KEY=VALUE");
    pc_mem_free(err);
    err = NULL;
    ck_assert(!pc_cfg_parse_set(A, "=64", &bad, &err));
    ck_assert_str_eq(err, "expected KEY=VALUE");
    pc_mem_free(err);
    err = NULL;
    ck_assert(!pc_cfg_parse_set(A, "  =64", &bad, &err));
    pc_mem_free(err);
    err = NULL;
    ck_assert(!pc_cfg_parse_set(A, "", &bad, &err));
    ck_assert_str_eq(err, "expected KEY=VALUE");
    pc_mem_free(err);
}
END_TEST

/* ---- files ----------------------------------------------------------------------------------- */

static char tmpdir[256];

static void tmp_setup(void)
{
    setup();
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/pc_cfg_XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_rf(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    ck_assert_int_eq(system(cmd), 0);
}

static void tmp_teardown(void)
{
    rm_rf(tmpdir);
    teardown();
}

static char *tmp_path(const char *rel)
{
    return pc_arena_printf(A, "%s/%s", tmpdir, rel);
}

static char *write_file(const char *rel, const char *text)
{
    char *p = tmp_path(rel);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static void mkdirs(const char *rel)
{
    char *p = tmp_path(rel);
    for (char *s = p + strlen(tmpdir) + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0700);
            *s = '/';
        }
    ck_assert(mkdir(p, 0700) == 0 || errno == EEXIST);
}

static const pc_option *find_opt(const pc_option *opts, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(opts[i].key, key) == 0)
            return &opts[i];
    ck_abort_msg("no option %s", key);
    return NULL;
}

static void assert_loc(pc_loc l, uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col)
{
    ck_assert_msg(l.line == line && l.col == col && l.end_line == end_line && l.end_col == end_col,
                  "loc %u:%u-%u:%u, want %u:%u-%u:%u", l.line, l.col, l.end_line, l.end_col, line, col, end_line,
                  end_col);
}

START_TEST(config_file_good)
{
    const char *text =
        "{\n"
        "  \"global\": {\"runtime\": 1},\n"
        "  \"runtime\": {\n"
        "    \"stitch_function_max_num\": 64,\n"
        "    \"stitch_function_num_per_pool\": [64, 1, 1],\n"
        "    \"max_workspace_kb\": 1024.0,\n"
        "    \"device_sched_parallelism\": true,\n"
        "    \"f\": 1.5, \"s\": \"abc\", \"n\": null, \"o\": {\"a\": [1]},\n"
        "    \"big\": 9007199254740993, \"huge\": 1e300, \"neg\": -3\n"
        "  }\n"
        "}\n";
    char *path = write_file("tile_fwk_config.json", text);
    char *err = NULL;
    pc_config_file *f = pc_cfg_load_config_file(path, &err);
    ck_assert_msg(f != NULL, "%s", err ? err : "");
    ck_assert_str_eq(f->path, path);
    ck_assert_uint_eq(f->noptions, 11);
    const pc_option *o = find_opt(f->options, f->noptions, PC_KEY_MAX_NUM);
    ck_assert_int_eq(o->site, PC_SITE_CONFIG_FILE);
    ck_assert_int_eq(o->kernel, -1);
    ck_assert(!o->in_kernel);
    ck_assert_int_eq(o->value.kind, PC_OPT_INT);
    ck_assert_int_eq(o->value.i, 64);
    ck_assert_str_eq(o->loc.file, path);
    assert_loc(o->loc, 4, 5, 4, 34);          /* the key ... the end of its value */
    assert_loc(o->value.loc, 4, 32, 4, 34);   /* the value */
    o = find_opt(f->options, f->noptions, PC_KEY_POOL);
    ck_assert_int_eq(o->value.kind, PC_OPT_LIST);
    ck_assert_int_eq(o->value.nitems, 3);
    ck_assert_str_eq(pc_cfg_value_text(A, &o->value), "[64, 1, 1]");
    assert_loc(o->value.loc, 5, 37, 5, 47);
    assert_loc(o->value.items[1].loc, 5, 42, 5, 43);
    ck_assert(pc_cfg_applicable(o->key, &o->value));
    o = find_opt(f->options, f->noptions, PC_KEY_WORKSPACE_KB);
    ck_assert_int_eq(o->value.kind, PC_OPT_INT); /* integral numbers are integers */
    ck_assert_int_eq(o->value.i, 1024);
    o = find_opt(f->options, f->noptions, PC_KEY_PARALLELISM);
    ck_assert_int_eq(o->value.kind, PC_OPT_BOOL);
    ck_assert_str_eq(pc_cfg_validate(A, o->key, &o->value), "Invalid device_sched_parallelism: 'True'. Expected an int in [1, 8].");
    ck_assert_int_eq(find_opt(f->options, f->noptions, "f")->value.kind, PC_OPT_FLOAT);
    ck_assert(find_opt(f->options, f->noptions, "f")->value.f == 1.5);
    ck_assert_str_eq(find_opt(f->options, f->noptions, "s")->value.text, "abc");
    ck_assert_int_eq(find_opt(f->options, f->noptions, "n")->value.kind, PC_OPT_NONE);
    ck_assert_int_eq(find_opt(f->options, f->noptions, "o")->value.kind, PC_OPT_UNKNOWN);
    ck_assert_str_eq(find_opt(f->options, f->noptions, "o")->value.text, "{\"a\": [1]}");
    ck_assert_int_eq(find_opt(f->options, f->noptions, "big")->value.i, 9007199254740993LL);
    ck_assert_int_eq(find_opt(f->options, f->noptions, "huge")->value.kind, PC_OPT_FLOAT);
    ck_assert_int_eq(find_opt(f->options, f->noptions, "neg")->value.i, -3);
    assert_loc(find_opt(f->options, f->noptions, "neg")->loc, 9, 45, 9, 54);
    /* the file's options in the precedence: they beat the defaults, the source beats them */
    pc_runtime_config c;
    pc_cfg_resolve(&c, NULL, 0, f->options, f->noptions, NULL, 0);
    ck_assert_int_eq(c.max_num, 64);
    ck_assert_int_eq(c.workspace_kb, 1024);
    ck_assert_int_eq(c.parallelism, 1); /* True is not an int */
    ck_assert(c.pool[0] == 64 && c.pool[1] == 1 && c.pool[2] == 1);
    ck_assert_int_eq(c.src_pool->site, PC_SITE_CONFIG_FILE);
    pc_cfg_config_file_free(f);

    /* no runtime section: no options; CRLF and a byte order mark are fine */
    f = pc_cfg_parse_config_file("x.json", "\xEF\xBB\xBF{\r\n  \"global\": {}\r\n}\r\n", 25, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->noptions, 0);
    pc_cfg_config_file_free(f);
    const char *crlf = "\xEF\xBB\xBF{\"runtime\": {\r\n  \"stitch_function_max_num\": 7}}";
    f = pc_cfg_parse_config_file("x.json", crlf, strlen(crlf), &err);
    ck_assert_ptr_nonnull(f);
    assert_loc(f->options[0].loc, 2, 3, 2, 31);
    assert_loc(f->options[0].value.loc, 2, 30, 2, 31);
    pc_cfg_config_file_free(f);
    /* an integer beyond int64 as an option value is shown as written, as Python prints the int,
     * not as the double it holds (9.223372036854776e+18) */
    const char *big = "{\"runtime\": {\"stitch_function_max_num\": 9223372036854775808}}";
    f = pc_cfg_parse_config_file("x.json", big, strlen(big), &err);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(pc_cfg_validate(A, f->options[0].key, &f->options[0].value),
                     "Invalid stitch_function_max_num: '9223372036854775808'. Expected an int in [1, 1024].");
    assert_loc(f->options[0].value.loc, 1, 41, 1, 60);
    pc_cfg_config_file_free(f);
    const char *bigproj = "{\"runtime\": {\"max_workspace_kb\": -9223372036854775809}}";
    pc_project_config *pp = pc_cfg_parse_project("proj/.poolcheck.json", bigproj, strlen(bigproj), &err);
    ck_assert_ptr_nonnull(pp);
    ck_assert_str_eq(pc_cfg_validate(A, pp->options[0].key, &pp->options[0].value),
                     "Invalid max_workspace_kb: '-9223372036854775809'. Expected an int in [0, 2147483647].");
    pc_cfg_project_free(pp);
    /* tile_fwk_config.json is upstream's file, read as upstream reads it: duplicate keys inside
     * runtime are both kept, the later wins */
    const char *dup = "{\"runtime\": {\"stitch_function_max_num\": 7, \"stitch_function_max_num\": 9}}";
    f = pc_cfg_parse_config_file("x.json", dup, strlen(dup), &err);
    ck_assert_uint_eq(f->noptions, 2);
    pc_cfg_resolve(&c, NULL, 0, f->options, f->noptions, NULL, 0);
    ck_assert_int_eq(c.max_num, 9);
    pc_cfg_config_file_free(f);
}
END_TEST

static void config_err(const char *text, const char *want)
{
    char *path = write_file("bad.json", text);
    char *err = NULL;
    pc_config_file *f = pc_cfg_load_config_file(path, &err);
    ck_assert_msg(f == NULL, "accepted %s", text);
    char *full = pc_arena_printf(A, "%s:%s", path, want);
    ck_assert_msg(strcmp(err, full) == 0, "got '%s', want '%s'", err, full);
    free(err);
}

START_TEST(config_file_errors)
{
    config_err("{\"runtime\": {\"stitch_function_max_num\": 64,}}", "1:44: expected a string key, found '}'");
    config_err("{\n  \"runtime\": {\n    \"stitch_function_max_num\": 64\n    \"max_workspace_kb\": 0\n  }\n}\n",
               "4:5: expected ',' or '}', found '\"'");
    config_err("{\"runtime\": {\"stitch_function_num_per_pool\": [64, 1, 1]}} trailing",
               "1:59: unexpected text after the JSON value, found 't'");
    config_err("{\"runtime\": {\"stitch_function_max_num\": 064}}", "1:41: invalid number (leading zero)");
    config_err("", "1:1: expected a value, found end of input");
    config_err("[1, 2]", "1:1: expected a JSON object at the top level, found an array");
    config_err("{\n\"runtime\": [64, 1, 1]}", "2:12: the \"runtime\" section must be an object, found an array");
    config_err("{\"runtime\": {}, \"runtime\": {}}", "1:17: duplicate key \"runtime\"");
    /* deep nesting is an error, not a crash */
    size_t n = 100000;
    char *deep = malloc(n + 1);
    memset(deep, '[', n);
    deep[n] = 0;
    config_err(deep, "1:1001: nesting deeper than 1000 levels");
    free(deep);
    /* missing and unreadable files */
    char *err = NULL;
    char *missing = tmp_path("nope/tile_fwk_config.json");
    ck_assert_ptr_null(pc_cfg_load_config_file(missing, &err));
    ck_assert_str_eq(err, pc_arena_printf(A, "cannot open '%s': No such file or directory", missing));
    free(err);
    ck_assert_ptr_null(pc_cfg_load_config_file(tmpdir, &err));
    ck_assert_ptr_nonnull(strstr(err, "Is a directory"));
    free(err);
    ck_assert_ptr_null(pc_cfg_load_config_file(missing, NULL)); /* err is optional */
    ck_assert_ptr_null(pc_cfg_parse_config_file("x", "[", 1, NULL));
}
END_TEST

START_TEST(project_file_good)
{
    mkdirs("proj/cfg");
    const char *text =
        "{\n"
        "  \"checks\": \"PC*,-PC009\",\n"
        "  \"warnings_as_errors\": \"PC006\",\n"
        "  \"bindings\": [{\"n\": 1000, \"x.shape[0]\": 64}, {\"n\": 4096}],\n"
        "  \"config\": \"cfg/tile_fwk_config.json\",\n"
        "  \"runtime\": {\"stitch_function_num_per_pool\": [64, 2, 1], \"stitch_function_max_num\": true},\n"
        "  \"inner_policy\": \"all\",\n"
        "  \"assemble_headroom\": 0,\n"
        "  \"exclude\": [\"build/*\", \"*_test.py\"]\n"
        "}\n";
    char *path = write_file("proj/.poolcheck.json", text);
    char *err = NULL;
    pc_project_config *p = pc_cfg_load_project(path, &err);
    ck_assert_msg(p != NULL, "%s", err ? err : "");
    ck_assert_str_eq(p->path, path);
    ck_assert_str_eq(p->dir, tmp_path("proj"));
    ck_assert_str_eq(p->checks, "PC*,-PC009");
    ck_assert_str_eq(p->warnings_as_errors, "PC006");
    ck_assert_uint_eq(p->nbinding_sets, 2);
    ck_assert_uint_eq(p->binding_sets[0].count, 2);
    ck_assert_str_eq(p->binding_sets[0].items[1].name, "x.shape[0]");
    ck_assert_int_eq(p->binding_sets[0].items[1].value, 64);
    ck_assert_uint_eq(p->binding_sets[1].count, 1);
    ck_assert_int_eq(p->binding_sets[1].items[0].value, 4096);
    ck_assert_str_eq(p->config_path, tmp_path("proj/cfg/tile_fwk_config.json"));
    ck_assert_uint_eq(p->noptions, 2);
    ck_assert_int_eq(p->options[0].site, PC_SITE_PROJECT_FILE);
    ck_assert_str_eq(p->options[0].key, PC_KEY_POOL);
    ck_assert_str_eq(p->options[0].loc.file, path);
    assert_loc(p->options[0].loc, 6, 15, 6, 57);
    ck_assert_str_eq(pc_cfg_validate(A, p->options[1].key, &p->options[1].value),
                     "Invalid stitch_function_max_num: 'True'. Expected an int in [1, 1024].");
    ck_assert_str_eq(p->inner_policy, "all");
    ck_assert(p->has_assemble_headroom);
    ck_assert_int_eq(p->assemble_headroom, 0);
    ck_assert_uint_eq(p->nexclude, 2);
    ck_assert_str_eq(p->exclude[1], "*_test.py");
    pc_runtime_config c;
    pc_cfg_resolve(&c, NULL, 0, p->options, p->noptions, NULL, 0);
    ck_assert(c.pool[1] == 2);
    ck_assert_int_eq(c.max_num, 128);
    pc_cfg_project_free(p);

    /* one binding set as an object; absent fields; an absolute config path */
    const char *one = "{\"bindings\": {\"n\": -1}, \"config\": \"/etc/tile_fwk_config.json\"}";
    p = pc_cfg_parse_project("sub/dir/.poolcheck.json", one, strlen(one), &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->dir, "sub/dir");
    ck_assert_uint_eq(p->nbinding_sets, 1);
    ck_assert_int_eq(p->binding_sets[0].items[0].value, -1);
    ck_assert_str_eq(p->config_path, "/etc/tile_fwk_config.json");
    ck_assert_ptr_null(p->checks);
    ck_assert_ptr_null(p->inner_policy);
    ck_assert(!p->has_assemble_headroom);
    ck_assert_uint_eq(p->noptions, 0);
    pc_cfg_project_free(p);
    p = pc_cfg_parse_project(".poolcheck.json", "{\"config\": \"c.json\"}", 20, &err);
    ck_assert_str_eq(p->dir, ".");
    ck_assert_str_eq(p->config_path, "./c.json");
    pc_cfg_project_free(p);
    p = pc_cfg_parse_project("p.json", "{}", 2, &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->nbinding_sets, 0);
    pc_cfg_project_free(p);
}
END_TEST

static void project_err(const char *text, const char *want)
{
    char *err = NULL;
    pc_project_config *p = pc_cfg_parse_project("proj/.poolcheck.json", text, strlen(text), &err);
    ck_assert_msg(p == NULL, "accepted %s", text);
    ck_assert_msg(strcmp(err, want) == 0, "got '%s', want '%s'", err, want);
    free(err);
}

START_TEST(project_file_errors)
{
    project_err("{\n  \"checks\": \"PC*\",\n  \"chekcs\": \"PC001\"\n}",
                "proj/.poolcheck.json:3:3: unknown field `chekcs` (did you mean `checks`?), expected one of `checks`, `warnings_as_errors`, "
                "`bind`, `config`, `runtime`, `inner_policy`, `assemble_headroom`, `exclude`, `python_path`, `extend`");
    project_err("{\"Checks\": \"PC*\"}", "proj/.poolcheck.json:1:2: unknown field `Checks` (did you mean `checks`?), expected one of `checks`, "
                "`warnings_as_errors`, `bind`, `config`, `runtime`, `inner_policy`, `assemble_headroom`, `exclude`, `python_path`, `extend`");
    /* the deprecated spelling is never what an unknown field is taken for */
    project_err("{\"bindngs\": {}}", "proj/.poolcheck.json:1:2: unknown field `bindngs` (did you mean `bind`?), expected one "
                "of `checks`, `warnings_as_errors`, `bind`, `config`, `runtime`, `inner_policy`, `assemble_headroom`, "
                "`exclude`, `python_path`, `extend`");
    project_err("{\"checks\": 5}", "proj/.poolcheck.json:1:12: `checks` must be a string, found a number");
    project_err("{\"warnings_as_errors\": [\"PC*\"]}",
                "proj/.poolcheck.json:1:24: `warnings_as_errors` must be a string, found an array");
    project_err("{\"checks\": \"a\", \"checks\": \"b\"}", "proj/.poolcheck.json:1:17: duplicate field `checks`");
    project_err("{\"inner_policy\": \"some\"}",
                "proj/.poolcheck.json:1:18: `inner_policy` must be \"boundary\" or \"all\", found \"some\"");
    project_err("{\"assemble_headroom\": -1}", "proj/.poolcheck.json:1:23: `assemble_headroom` must be in [0, 1024], found -1");
    project_err("{\"assemble_headroom\": 1.5}", "proj/.poolcheck.json:1:23: `assemble_headroom` must be an integer, found 1.5");
    project_err("{\"assemble_headroom\": true}",
                "proj/.poolcheck.json:1:23: `assemble_headroom` must be an integer, found a boolean");
    project_err("{\"bindings\": {\"n\": true}}", "proj/.poolcheck.json:1:20: `bindings.n` must be an integer, found a boolean");
    project_err("{\"bindings\": {\"n\": 2.5}}", "proj/.poolcheck.json:1:20: `bindings.n` must be an integer, found 2.5");
    project_err("{\"bindings\": [{\"n\": 1}, 5]}",
                "proj/.poolcheck.json:1:25: `bindings[1]` must be an object of NAME: integer, found a number");
    project_err("{\"bindings\": \"n=1\"}",
                "proj/.poolcheck.json:1:14: `bindings` must be an object or an array of objects, found a string");
    project_err("{\"bindings\": {\"n\": 1, \"n\": 2}}", "proj/.poolcheck.json:1:23: `bindings`: duplicate binding `n`");
    project_err("{\"bindings\": {\"\": 1}}", "proj/.poolcheck.json:1:15: `bindings`: a binding needs a name");
    /* an option given twice in the project file's runtime section: an error at the second, as a
     * field or a binding given twice is (it was last-one-wins) */
    project_err("{\"runtime\": {\"stitch_function_max_num\": 7, \"stitch_function_max_num\": 9}}",
                "proj/.poolcheck.json:1:44: `runtime`: duplicate runtime option `stitch_function_max_num`");
    project_err("{\"exclude\": \"build\"}", "proj/.poolcheck.json:1:13: `exclude` must be an array of glob strings, found a string");
    project_err("{\"exclude\": [\"a\", 1]}", "proj/.poolcheck.json:1:19: `exclude[1]` must be a string, found a number");
    project_err("{\"runtime\": [64, 1, 1]}",
                "proj/.poolcheck.json:1:13: `runtime` must be an object of runtime options, found an array");
    project_err("{\"config\": \"\"}", "proj/.poolcheck.json:1:12: `config` must name a file");
    project_err("{\"config\": null}", "proj/.poolcheck.json:1:12: `config` must be a string, found null");
    project_err("{\"checks\": \"PC*\"", "proj/.poolcheck.json:1:17: expected ',' or '}', found end of input");
    project_err("\"checks\"", "proj/.poolcheck.json:1:1: expected a JSON object at the top level, found a string");
    char *err = NULL;
    char *missing = tmp_path("none/.poolcheck.json");
    ck_assert_ptr_null(pc_cfg_load_project(missing, &err));
    ck_assert_str_eq(err, pc_arena_printf(A, "cannot open '%s': No such file or directory", missing));
    free(err);
    /* the error text from a file on disk includes its path, line and column */
    char *path = write_file(".poolcheck.json", "{\n  \"exclude\": [\"a\",]\n}\n");
    ck_assert_ptr_null(pc_cfg_load_project(path, &err));
    ck_assert_str_eq(err, pc_arena_printf(A, "%s:2:19: expected a value, found ']'", path));
    free(err);
}
END_TEST

/* "python_path": directories (relative to the project file) where the Python frontend looks for
 * the modules a kernel imports, searched after --python-path; every front door gets them through
 * pc_check_opts_layer. */
START_TEST(project_python_path)
{
    char *err = NULL;
    const char *text = "{\"python_path\": [\"lib\", \"/etc/pypto\", \"../common/py\"]}";
    pc_project_config *p = pc_cfg_parse_project("proj/.poolcheck.json", text, strlen(text), &err);
    ck_assert_msg(p != NULL, "%s", err ? err : "");
    ck_assert_uint_eq(p->npython_path, 3);
    ck_assert_str_eq(p->python_path[0], "proj/lib");
    ck_assert_str_eq(p->python_path[1], "/etc/pypto");
    ck_assert_str_eq(p->python_path[2], "proj/../common/py");
    pc_cfg_project_free(p);
    p = pc_cfg_parse_project("proj/.poolcheck.json", "{}", 2, &err);
    ck_assert_uint_eq(p->npython_path, 0);
    pc_cfg_project_free(p);
    project_err("{\"python_path\": \"lib\"}",
                "proj/.poolcheck.json:1:17: `python_path` must be an array of directory strings, found a string");
    project_err("{\"python_path\": [\"lib\", 3]}", "proj/.poolcheck.json:1:25: `python_path[1]` must be a string, found a number");
    project_err("{\"python_path\": [\"\"]}", "proj/.poolcheck.json:1:18: `python_path[0]` must name a directory");

    /* end to end: a kernel whose helper module is only on the project's python_path */
    mkdirs("proj/lib");
    mkdirs("proj/src");
    write_file("proj/lib/far_helpers.py", "def add_one(t):\n    return t + 1.0\n");
    char *kernel = write_file("proj/src/k.py",
                              "import pypto\n"
                              "from far_helpers import add_one\n"
                              "@pypto.frontend.jit\n"
                              "def k(x: pypto.Tensor([64, 64], pypto.DT_FP32), o: pypto.Tensor([64, 64], pypto.DT_FP32)):\n"
                              "    for i in pypto.loop(0, 8, 1, name='L'):\n"
                              "        o[i*8:i*8+8, :] = add_one(x[i*8:i*8+8, :])\n");
    char *path = write_file("proj/.poolcheck.json", "{\"python_path\": [\"lib\"]}\n");
    p = pc_cfg_load_project(path, &err);
    ck_assert_msg(p != NULL, "%s", err ? err : "");
    pc_frontend *fe = pc_frontend_new();
    for (int with_project = 0; with_project < 2; with_project++) {
        pc_check_opts o;
        pc_check_opts_init(&o);
        o.parse.lang = PC_LANG_PYTHON;
        const char *explicit_dirs[] = {tmp_path("nowhere")};
        o.parse.python_path = explicit_dirs;
        o.parse.npython_path = 1;
        pc_opts_layers l = {0};
        l.project = with_project ? p : NULL;
        pc_check_opts_layer(&o, &l, A);
        ck_assert_uint_eq(o.parse.npython_path, with_project ? 2 : 1);
        ck_assert_str_eq(o.parse.python_path[0], tmp_path("nowhere")); /* --python-path first */
        if (with_project)
            ck_assert_str_eq(o.parse.python_path[1], tmp_path("proj/lib"));
        pc_model *m = pc_frontend_parse(fe, kernel, NULL, 0, &o.parse);
        ck_assert(!m->fatal);
        ck_assert_int_eq(m->nkernels, 1);
        int unanalysed = 0;
        for (int i = 0; i < m->kernels[0].nstmts; i++)
            unanalysed += m->kernels[0].stmts[i].kind == PC_STMT_UNANALYSED;
        /* without the project's directory, add_one cannot be found: a PC012 naming the call */
        ck_assert_int_eq(unanalysed, with_project ? 0 : 1);
        pc_model_free(m);
    }
    pc_frontend_free(fe);
    pc_cfg_project_free(p);
}
END_TEST

START_TEST(project_discovery)
{
    mkdirs("root/a/b/c");
    mkdirs("root/x/.poolcheck.json"); /* a directory of that name is not a project file */
    write_file("root/a/b/c/k.py", "import pypto\n");
    char *found = pc_cfg_find_project(tmp_path("root/a/b/c/k.py"));
    /* nothing up to the filesystem root (the test tree lives under a temporary directory that
     * has no project file) */
    ck_assert_msg(found == NULL, "found %s", found ? found : "");
    char *top = write_file("root/a/.poolcheck.json", "{}");
    found = pc_cfg_find_project(tmp_path("root/a/b/c/k.py"));
    ck_assert_ptr_nonnull(found);
    ck_assert_str_eq(found, top);
    free(found);
    /* the nearest one wins */
    char *near = write_file("root/a/b/.poolcheck.json", "{}");
    found = pc_cfg_find_project(tmp_path("root/a/b/c/k.py"));
    ck_assert_str_eq(found, near);
    free(found);
    /* a directory argument starts in that directory */
    found = pc_cfg_find_project(tmp_path("root/a/b"));
    ck_assert_str_eq(found, near);
    free(found);
    found = pc_cfg_find_project(tmp_path("root/a"));
    ck_assert_str_eq(found, top);
    free(found);
    /* a file that does not exist (an unsaved buffer) still has a directory */
    found = pc_cfg_find_project(tmp_path("root/a/b/c/new.py"));
    ck_assert_str_eq(found, near);
    free(found);
    /* ".." is resolved lexically */
    found = pc_cfg_find_project(tmp_path("root/x/../a/b/c/k.py"));
    ck_assert_str_eq(found, near);
    free(found);
    found = pc_cfg_find_project(tmp_path("root/x/k.py"));
    ck_assert_ptr_null(found);
    /* relative paths are relative to the working directory */
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tmp_path("root/a/b/c")), 0);
    found = pc_cfg_find_project("k.py");
    ck_assert_str_eq(found, near);
    free(found);
    found = pc_cfg_find_project("./../c/k.py");
    ck_assert_str_eq(found, near);
    free(found);
    ck_assert_int_eq(chdir(tmp_path("root")), 0);
    found = pc_cfg_find_project("a/k.py");
    ck_assert_str_eq(found, top);
    free(found);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_ptr_null(pc_cfg_find_project(""));
    ck_assert_ptr_null(pc_cfg_find_project(NULL));
    /* the found file loads */
    found = pc_cfg_find_project(tmp_path("root/a/b/c/k.py"));
    char *err = NULL;
    pc_project_config *p = pc_cfg_load_project(found, &err);
    ck_assert_ptr_nonnull(p);
    pc_cfg_project_free(p);
    free(found);
}
END_TEST

/* Out of memory while a file is read or analysed: the message names the file.  The
 * allocation seam's fault injection fails the Nth allocation; the default handler prints and exits
 * 2, so the call runs in a child whose stderr is kept. */
static char *stderr_of_oom(const char *path, uint64_t fail_at, bool analyse)
{
    char err_path[] = "/tmp/pc-oom-stderr-XXXXXX";
    int fd = mkstemp(err_path);
    ck_assert_int_ge(fd, 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd, 2);
        pc_frontend *fe = analyse ? pc_frontend_new() : NULL;
        pc_mem_fail_after(fail_at);
        if (analyse) {
            char *why = NULL;
            pc_check_file(fe, path, NULL, 0, NULL, &why);
        } else {
            char *err = NULL;
            pc_cfg_load_config_file(path, &err);
        }
        _exit(0); /* the allocation did not fail: the caller sees status 0 */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fd);
    char *e = NULL, *text = pc_read_file(err_path, NULL, &e);
    unlink(err_path);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s, allocation %llu: no out-of-memory exit (status %d)", path,
                  (unsigned long long)fail_at, st);
    return text;
}

START_TEST(oom_names_the_file)
{
    const char *cfg = PC_SOURCE_DIR "/tests/bad_inputs/files/cfg_wrong_types.json";
    char *text = stderr_of_oom(cfg, 1, false);
    ck_assert_msg(strstr(text, "out of memory while processing '") && strstr(text, "cfg_wrong_types.json'"), "%s", text);
    pc_mem_free(text);
    const char *src = PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp";
    /* how many allocations an analysis makes here, to fail a few of them spread over it */
    pc_frontend *fe = pc_frontend_new();
    pc_mem_fail_after(0);
    char *why = NULL;
    pc_file_result *fr = pc_check_file(fe, src, NULL, 0, NULL, &why);
    uint64_t total = pc_mem_count();
    pc_file_result_free(fr);
    pc_frontend_free(fe);
    ck_assert_uint_gt(total, 8);
    for (uint64_t at = 1; at <= total; at += total / 4) {
        text = stderr_of_oom(src, at, true);
        ck_assert_msg(strstr(text, "out of memory while processing '") && strstr(text, "k_tmp_to_d_emb.cpp'"),
                      "allocation %llu: %s", (unsigned long long)at, text);
        pc_mem_free(text);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("config");
    TCase *t = tcase_create("options");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, defaults_and_derived);
    tcase_add_test(t, pool_invalid_values_upstream_rejects);
    tcase_add_test(t, pool_valid_values);
    tcase_add_test(t, other_option_ranges);
    tcase_add_test(t, python_rendering);
    tcase_add_test(t, apply_valid_only);
    tcase_add_test(t, precedence_every_pair);
    tcase_add_test(t, precedence_rules);
    tcase_add_test(t, parse_set_forms);
    suite_add_tcase(s, t);
    t = tcase_create("files");
    tcase_add_checked_fixture(t, tmp_setup, tmp_teardown);
    tcase_add_test(t, config_file_good);
    tcase_add_test(t, config_file_errors);
    tcase_add_test(t, project_file_good);
    tcase_add_test(t, project_file_errors);
    tcase_add_test(t, project_python_path);
    tcase_add_test(t, project_discovery);
    tcase_add_test(t, oom_names_the_file);
    suite_add_tcase(s, t);
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
