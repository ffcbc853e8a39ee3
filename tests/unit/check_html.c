/* check_html.c - the HTML report (report/html.c, docs/report.md) on hand-built models analysed
 * by pc_analyze, and on the seed example through the Python frontend: the seed's numbers as SVG
 * text, escaping, binning of 100 000 instances, highlights of a shallow precise configuration,
 * observed data from logs, a plan, unknown trip counts, and well-formed XML throughout. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"
#include "poolcheck/poolcheck.h"
#include "poolcheck/report.h"
#include "support/support.h"
#include "helpers/test_run.h"

/* ---- a tiny model builder (as in check_analysis.c) ------------------------------------------- */

typedef struct kb {
    pc_model *m;
    int k;
    pc_block *cur;
    int cur_loop;
} kb;

static pc_kernel *K(kb *b) { return &b->m->kernels[b->k]; }
static pc_loc L(kb *b, int line) { return pc_model_loc(b->m, NULL, (uint32_t)line, 1, 0, 0); }

static void kb_init(kb *b, const char *file, const char *name)
{
    b->m = pc_model_new(file, PC_LANG_PYTHON);
    b->k = pc_model_add_kernel(b->m, name, L(b, 1));
    b->cur = &K(b)->body;
    b->cur_loop = -1;
}

static int tensor(kb *b, const char *name, pc_tensor_kind kind, int n, const int64_t *dims)
{
    int t = pc_kernel_add_tensor(b->m, K(b), name, kind, L(b, 2));
    pc_tensor *T = &K(b)->tensors[t];
    T->dtype = PC_DT_FP32;
    T->ndims = n;
    const pc_expr **s = pc_arena_alloc(b->m->arena, (size_t)n * sizeof(pc_expr *));
    for (int i = 0; i < n; i++)
        s[i] = pc_expr_int(b->m->arena, dims[i]);
    T->shape = s;
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

static int created(kb *b, const char *name, int n, const int64_t *dims)
{
    int s = stmt(b);
    K(b)->stmts[s].has_op = false;
    int t = tensor(b, name, PC_TENSOR_CREATED, n, dims);
    K(b)->tensors[t].def_stmt = s;
    acc(b, s, t, PC_ACC_DEFINE, PC_UNIT_NONE);
    return t;
}

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

static void write_acc(kb *b, int dst, pc_access_kind kind, pc_unit u, int r1)
{
    int s = stmt(b);
    if (r1 >= 0) acc(b, s, r1, PC_ACC_READ, u);
    acc(b, s, dst, kind, u);
}

typedef struct saved { pc_block *blk; int loop; } saved;

static saved loop_begin_e(kb *b, const char *name, const pc_expr *end)
{
    saved sv = {b->cur, b->cur_loop};
    int s = pc_kernel_add_stmt(b->m, K(b), PC_STMT_LOOP, L(b, 4));
    pc_block_append(b->m, b->cur, s);
    int l = pc_kernel_add_loop(b->m, K(b), name, L(b, 4));
    pc_loop *lp = &K(b)->loops[l];
    lp->begin = pc_expr_int(b->m->arena, 0);
    lp->end = end;
    lp->step = pc_expr_int(b->m->arena, 1);
    lp->index_var = pc_model_strdup(b->m, "i");
    lp->parent = b->cur_loop;
    lp->stmt = s;
    K(b)->stmts[s].loop = l;
    b->cur = &K(b)->loops[l].body;
    b->cur_loop = l;
    return sv;
}

static saved loop_begin(kb *b, const char *name, int64_t end)
{
    return loop_begin_e(b, name, pc_expr_int(b->m->arena, end));
}

static void loop_end(kb *b, saved sv) { b->cur = sv.blk; b->cur_loop = sv.loop; }

static const int64_t D4[] = {1, 64, 1, 16};

/* The seed example (docs/model.md section 10); names may be replaced to test escaping. */
static void build_seed_named(kb *b, const char *file, const char *kernel, const char *tmp_assemble_name)
{
    kb_init(b, file, kernel);
    int dy = tensor(b, "dy", PC_TENSOR_PARAM, 4, D4);
    int w = tensor(b, "weight", PC_TENSOR_PARAM, 3, (int64_t[]){1, 16, 16});
    int o1 = tensor(b, "output1", PC_TENSOR_PARAM, 3, (int64_t[]){1, 64, 16});
    int o2 = tensor(b, "output2", PC_TENSOR_PARAM, 3, (int64_t[]){1, 64, 16});
    int ta = created(b, tmp_assemble_name, 4, D4);
    int te = created(b, "tmp_exclusive", 4, D4);
    saved s = loop_begin(b, "l_loop_0", 1);
    write_acc(b, te, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, dy);
    loop_end(b, s);
    s = loop_begin(b, "l_loop_1", 64);
    int st = stmt(b);
    int dyv = tensor(b, "dy_v", PC_TENSOR_VIEW, 2, (int64_t[]){1, 16});
    K(b)->tensors[dyv].base = dy;
    K(b)->tensors[dyv].def_stmt = st;
    acc(b, st, dy, PC_ACC_READ, PC_UNIT_NONE);
    acc(b, st, dyv, PC_ACC_DEFINE, PC_UNIT_NONE);
    int dx = value(b, "dx", PC_UNIT_CUBE, 2, (int64_t[]){1, 16}, dyv, w);
    write_acc(b, ta, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, dx);
    loop_end(b, s);
    s = loop_begin(b, "l_loop_2", 64);
    write_acc(b, o1, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE, ta);
    write_acc(b, o2, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_NONE, te);
    loop_end(b, s);
}

static void build_seed(kb *b) { build_seed_named(b, "k.py", "k_tmp_to_d_emb", "tmp_assemble"); }

/* Analyse kernel 0 of the builder's model with `pool` (NULL = default mode) and wrap it as the
 * driver does; pc_file_result_free frees all of it. */
static pc_file_result *analyse(kb *b, const int64_t *pool)
{
    pc_file_result *fr = pc_mem_calloc(1, sizeof *fr);
    fr->model = b->m;
    fr->results = pc_mem_calloc(1, sizeof *fr->results);
    fr->cfgs = pc_mem_calloc(1, sizeof *fr->cfgs);
    pc_cfg_defaults(&fr->cfgs[0]);
    if (pool)
        memcpy(fr->cfgs[0].pool, pool, sizeof fr->cfgs[0].pool);
    pc_analysis_opts o;
    pc_an_default_opts(&o);
    fr->results[0] = pc_analyze(b->m, 0, &fr->cfgs[0], &o);
    fr->sink = pc_diag_sink_new();
    return fr;
}

/* ---- checking the page ------------------------------------------------------------------------ */

static bool entity_ok(const char *p, size_t *len)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if (strncmp(p, named[i], strlen(named[i])) == 0) {
            *len = strlen(named[i]);
            return true;
        }
    if (p[1] != '#')
        return false;
    const char *q = p + 2;
    bool hex = *q == 'x';
    if (hex)
        q++;
    const char *digits = q;
    while (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q))
        q++;
    if (q == digits || *q != ';')
        return false;
    *len = (size_t)(q + 1 - p);
    return true;
}

static bool name_char(char ch) { return isalnum((unsigned char)ch) || ch == '-' || ch == '_' || ch == ':' || ch == '.'; }

/* A minimal XML well-formedness check: one root element, tags nested and matched, attributes
 * quoted with no '<' in values, '&' only as an entity, no text outside the root.  Returns NULL or
 * what is wrong, with the byte offset. */
static char xml_msg[256];
static const char *xml_check(const char *doc)
{
    const char *p = doc;
    const char *stack[512];
    size_t stack_len[512];
    int depth = 0, roots = 0;
#define FAIL(what)                                                                                 \
    do {                                                                                           \
        snprintf(xml_msg, sizeof xml_msg, "%s at byte %ld", what, (long)(p - doc));                \
        return xml_msg;                                                                            \
    } while (0)
    while (*p) {
        if (*p == '&') {
            size_t n;
            if (!entity_ok(p, &n))
                FAIL("bad entity");
            if (depth == 0)
                FAIL("text outside the root");
            p += n;
            continue;
        }
        if (*p != '<') {
            if (depth == 0 && !isspace((unsigned char)*p))
                FAIL("text outside the root");
            if (*p == '>' && p > doc && p[-1] == ']' && p - doc > 1 && p[-2] == ']')
                FAIL("]]> in text");
            p++;
            continue;
        }
        if (strncmp(p, "<!--", 4) == 0) {
            const char *q = strstr(p + 4, "-->");
            if (!q)
                FAIL("unterminated comment");
            p = q + 3;
            continue;
        }
        if (strncmp(p, "<!DOCTYPE", 9) == 0) {
            if (depth || roots)
                FAIL("DOCTYPE after the root");
            const char *q = strchr(p, '>');
            if (!q)
                FAIL("unterminated DOCTYPE");
            p = q + 1;
            continue;
        }
        if (p[1] == '/') {
            const char *name = p + 2, *q = name;
            while (name_char(*q))
                q++;
            size_t n = (size_t)(q - name);
            while (isspace((unsigned char)*q))
                q++;
            if (*q != '>')
                FAIL("bad end tag");
            if (depth == 0 || stack_len[depth - 1] != n || strncmp(stack[depth - 1], name, n) != 0)
                FAIL("mismatched end tag");
            depth--;
            p = q + 1;
            continue;
        }
        const char *name = p + 1, *q = name;
        while (name_char(*q))
            q++;
        if (q == name)
            FAIL("'<' that starts no tag");
        size_t n = (size_t)(q - name);
        bool empty = false;
        for (;;) {
            while (isspace((unsigned char)*q))
                q++;
            if (q[0] == '/' && q[1] == '>') {
                empty = true;
                q += 2;
                break;
            }
            if (*q == '>') {
                q++;
                break;
            }
            const char *an = q;
            while (name_char(*q))
                q++;
            if (q == an || *q != '=' || (q[1] != '"' && q[1] != '\'')) {
                p = q;
                FAIL("bad attribute");
            }
            char quote = q[1];
            q += 2;
            while (*q && *q != quote) {
                size_t en;
                if (*q == '<') {
                    p = q;
                    FAIL("'<' in an attribute value");
                }
                if (*q == '&') {
                    if (!entity_ok(q, &en)) {
                        p = q;
                        FAIL("bad entity in an attribute value");
                    }
                    q += en;
                    continue;
                }
                q++;
            }
            if (!*q)
                FAIL("unterminated attribute value");
            q++;
        }
        if (depth == 0 && ++roots > 1)
            FAIL("a second root element");
        if (!empty) {
            if (depth == 512)
                FAIL("nesting too deep");
            stack[depth] = name;
            stack_len[depth++] = n;
        }
        p = q;
    }
    if (depth)
        FAIL("unclosed element");
    if (roots != 1)
        FAIL("no root element");
#undef FAIL
    return NULL;
}

/* Everything between <svg ...> and </svg>, all pictures concatenated. */
static char *svg_text_of(const char *doc)
{
    pc_sb b = {0};
    const char *p = doc;
    while ((p = strstr(p, "<svg")) != NULL) {
        const char *e = strstr(p, "</svg>");
        ck_assert_ptr_nonnull(e);
        pc_sb_appendn(&b, p, (size_t)(e - p));
        p = e + 6;
    }
    return pc_sb_take(&b);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Self-contained: no script, nothing loaded from anywhere. */
static void assert_self_contained(const char *doc)
{
    ck_assert_ptr_null(strstr(doc, "<script"));
    ck_assert_ptr_null(strstr(doc, " src="));
    ck_assert_ptr_null(strstr(doc, "@import"));
    ck_assert_ptr_null(strstr(doc, "<link"));
    ck_assert_ptr_null(strstr(doc, "@font-face"));
    for (const char *p = doc; (p = strstr(p, "url(")) != NULL; p += 4)
        ck_assert_msg(p[4] == '#', "url() that is not a fragment");
    /* the only http(s) URIs are the XML namespace names, which are never fetched */
    size_t http = count(doc, "http://") + count(doc, "https://");
    size_t ns = count(doc, "xmlns=\"http://www.w3.org/");
    ck_assert_uint_eq(http, ns);
}

static char *render(pc_file_result *fr, const pc_rep_html_extra *ex)
{
    char *doc = pc_rep_html_render(&fr, 1, ex);
    const char *bad = xml_check(doc);
    ck_assert_msg(bad == NULL, "not well-formed: %s", bad ? bad : "");
    assert_self_contained(doc);
    return doc;
}

/* ---- tests -------------------------------------------------------------------------------------- */

START_TEST(xml_checker_rejects)
{
    /* the checker itself must be able to fail */
    ck_assert_ptr_nonnull(xml_check("<a><b></a></b>"));
    ck_assert_ptr_nonnull(xml_check("<a>x & y</a>"));
    ck_assert_ptr_nonnull(xml_check("<a>x < y</a>"));
    ck_assert_ptr_nonnull(xml_check("<a t=\"<\"/>"));
    ck_assert_ptr_nonnull(xml_check("<a t=x/>"));
    ck_assert_ptr_nonnull(xml_check("<a/><b/>"));
    ck_assert_ptr_nonnull(xml_check("<a>"));
    ck_assert_ptr_nonnull(xml_check("<a><br></a>"));
    ck_assert_ptr_null(xml_check("<!DOCTYPE html>\n<a x=\"1&amp;2\"><b/>t&#8211;&lt;</a>\n"));
}
END_TEST

START_TEST(seed_numbers)
{
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, NULL);
    const pc_result *r = fr->results[0];
    ck_assert_int_eq(r->ntasks, 2);
    char *doc = render(fr, NULL);
    char *svg = svg_text_of(doc);

    /* the predicted depths [64, 1, 1], each as the label of its pool's line */
    ck_assert_ptr_nonnull(strstr(svg, ">predicted 64</text>"));
    ck_assert_uint_eq(count(svg, ">predicted 1</text>"), 2);
    ck_assert_uint_eq(count(svg, ">configured 128"), 3);
    ck_assert_ptr_nonnull(strstr(svg, ">suggested 2</text>"));
    /* the two DeviceTasks: 128 instances closed by k, 1 closed by the end of the kernel */
    ck_assert_ptr_nonnull(strstr(svg, ">T0: 128 instances</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">T1: 1 instance</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">closed: k reached</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">closed: end</text>"));
    /* per-task bars: sizes 128 and 1, root_inner needs 64 then 0 */
    ck_assert_ptr_nonnull(strstr(svg, ">128</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">64</text>"));
    ck_assert_ptr_nonnull(strstr(svg, "T0 (128 instances): needs root_inner depth 64; configured 128"));
    ck_assert_ptr_nonnull(strstr(svg, "T1 (1 instance): needs root_inner depth 0"));
    /* strip: one cell per instance (129 fit), three roots in the legend, one boundary */
    ck_assert_ptr_nonnull(strstr(svg, "each cell = 1 instance \xC2\xB7 129 instances in 2 DeviceTasks (k = 128)"));
    ck_assert_uint_eq(count(svg, "<title>instance "), 129);
    ck_assert_ptr_nonnull(strstr(svg, ">l_loop_1 (64 instances)</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">l_loop_0 (1 instance)</text>"));
    ck_assert_uint_eq(count(svg, "class=\"bnd\""), 2); /* the T1 boundary, and the legend's sample */
    /* units and axis labels */
    ck_assert_ptr_nonnull(strstr(svg, "root_inner: depth needed per DeviceTask (1 depth = 512 B)"));
    ck_assert_ptr_nonnull(strstr(svg, "exclusive_outcast: depth needed per DeviceTask (1 depth = 4 KiB)"));
    ck_assert_ptr_nonnull(strstr(svg, ">depth (per workspace copy)</text>"));
    /* workspace bytes on one scale */
    ck_assert_ptr_nonnull(strstr(svg, ">default [128, 128, 128]</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">predicted [64, 1, 1]</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">suggested [64, 2, 1]</text>"));
    ck_assert_ptr_nonnull(strstr(svg, "1146880 B (1.1 MiB)"));
    ck_assert_ptr_nonnull(strstr(svg, "65536 B (64 KiB) \xC2\xB7 5.7% of default"));
    /* no highlight in default mode */
    ck_assert_ptr_null(strstr(svg, "class=\"cut\""));

    /* HTML: tensors with their pools; light and dark schemes */
    ck_assert_ptr_nonnull(strstr(doc, "<code>tmp_assemble</code></td><td>created</td><td class=\"nw\"><span class=\"chip p1\"></span>assemble_outcast"));
    ck_assert_ptr_nonnull(strstr(doc, "<code>dx</code></td><td>value</td><td class=\"nw\"><span class=\"chip p0\"></span>root_inner"));
    ck_assert_ptr_nonnull(strstr(doc, "@media (prefers-color-scheme: dark)"));
    ck_assert_ptr_nonnull(strstr(doc, "<meta name=\"color-scheme\" content=\"light dark\"/>"));
    /* k.py does not exist here: file:line is text, not a link */
    ck_assert_ptr_nonnull(strstr(doc, "<span class=\"mono\">k.py:2</span>"));
    ck_assert_ptr_null(strstr(doc, "file://"));
    pc_mem_free(svg);
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(escapes_source_strings)
{
    kb b;
    build_seed_named(&b, "dir&<\"x'.py", "k<&>\"", "a<b&\"c'\x01\xff");
    pc_file_result *fr = analyse(&b, NULL);
    char *doc = render(fr, NULL);
    ck_assert_ptr_nonnull(strstr(doc, "<code>a&lt;b&amp;&quot;c&#39;\xEF\xBF\xBD\xEF\xBF\xBD</code>"));
    ck_assert_ptr_nonnull(strstr(doc, "kernel <code>k&lt;&amp;&gt;&quot;</code>"));
    ck_assert_ptr_nonnull(strstr(doc, "<h2>dir&amp;&lt;&quot;x&#39;.py</h2>"));
    ck_assert_ptr_nonnull(strstr(doc, "<title>poolcheck report: k&lt;&amp;&gt;&quot;</title>"));
    ck_assert_ptr_null(strstr(doc, "a<b"));
    ck_assert_ptr_null(strstr(doc, "k<&"));
    ck_assert_ptr_null(strstr(doc, "\x01"));
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(local_file_link)
{
    /* a file that exists: file:line links to file:///abs/path#L<line>, percent-encoded */
    char dir[] = "/tmp/pc_html_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/my kernel#1.py", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# kernel\n", f);
    fclose(f);
    kb b;
    build_seed_named(&b, path, "k", "tmp_assemble");
    pc_file_result *fr = analyse(&b, NULL);
    char *doc = render(fr, NULL);
    char want[512];
    snprintf(want, sizeof want, "<a class=\"mono\" href=\"file://%s/my%%20kernel%%231.py#L2\">%s:2</a>", dir, path);
    ck_assert_msg(strstr(doc, want) != NULL, "no link %s", want);
    pc_mem_free(doc);
    pc_file_result_free(fr);
    remove(path);
    rmdir(dir);
}
END_TEST

START_TEST(bins_100000_instances)
{
    kb b;
    kb_init(&b, "big.py", "big");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){100000, 16});
    int y = tensor(&b, "y", PC_TENSOR_PARAM, 2, (int64_t[]){100000, 16});
    int a = created(&b, "a", 2, (int64_t[]){1, 16});
    saved s = loop_begin(&b, "big_loop", 100000);
    write_acc(&b, a, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x);
    write_acc(&b, y, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a);
    loop_end(&b, s);
    pc_file_result *fr = analyse(&b, NULL);
    const pc_result *r = fr->results[0];
    ck_assert_int_eq(r->instances, 100000);
    ck_assert_int_eq(r->ntasks, 782);
    char *doc = render(fr, NULL);
    char *svg = svg_text_of(doc);
    const char *cell = strstr(svg, "each cell = ");
    ck_assert_ptr_nonnull(cell);
    long per = strtol(cell + strlen("each cell = "), NULL, 10);
    ck_assert_int_gt(per, 1);
    ck_assert_int_le((100000 + per - 1) / per, 1000);      /* the cells fit the strip */
    ck_assert_int_ge((100000 + per - 1) / per, 100);       /* and are not needlessly coarse */
    ck_assert_ptr_nonnull(strstr(svg, "100000 instances in 782 DeviceTasks (k = 128)"));
    /* DeviceTasks grouped both in the strip and in the per-task charts */
    ck_assert_ptr_nonnull(strstr(svg, "each band = "));
    ck_assert_ptr_nonnull(strstr(svg, "each bar = "));
    ck_assert_ptr_nonnull(strstr(svg, ">predicted 128</text>")); /* exclusive: 128 per task */
    /* the picture stays small */
    ck_assert_uint_lt(count(doc, "<rect"), 2500);
    ck_assert_uint_lt(strlen(doc), 600000);
    pc_mem_free(svg);
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(instance_roots_not_recorded)
{
    /* over 1 000 000 instances the analysis keeps no root per instance: the strip says so */
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, NULL);
    fr->results[0]->instance_roots = NULL;
    fr->results[0]->ninstances = 0;
    char *doc = render(fr, NULL);
    ck_assert_ptr_nonnull(strstr(doc, "root of each instance not recorded (more than 1000000 instances)"));
    ck_assert_ptr_nonnull(strstr(doc, ">T0: 128 instances</text>"));
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(precise_cut_highlighted)
{
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, (const int64_t[]){32, 1, 1});
    ck_assert(fr->results[0]->precise);
    char *doc = render(fr, NULL);
    char *svg = svg_text_of(doc);
    /* T0 needs 64 root_inner slots with 32 configured: one highlighted bar, said in words */
    ck_assert_uint_eq(count(svg, "class=\"cut\"><title>"), 1);
    ck_assert_ptr_nonnull(strstr(svg, "T0 (128 instances): needs root_inner depth 64; configured 32 (instances serialised)"));
    ck_assert_ptr_nonnull(strstr(svg, ">1 DeviceTask needs more than the configured 32: instances serialised</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">configured 32</text>"));
    ck_assert_ptr_nonnull(strstr(doc, "<td class=\"n bad\">32</td>"));
    pc_mem_free(svg);
    pc_mem_free(doc);
    pc_file_result_free(fr);

    build_seed(&b);
    fr = analyse(&b, (const int64_t[]){64, 0, 1});
    doc = render(fr, NULL);
    svg = svg_text_of(doc);
    ck_assert_ptr_nonnull(strstr(svg, "configured 0 for a needed pool: compilation fails (PC001)"));
    ck_assert_uint_eq(count(svg, "class=\"cut\"><title>"), 2); /* both tasks hold tmp_assemble */
    pc_mem_free(svg);
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(observed_from_logs)
{
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, NULL);
    const pc_rep_html_task_obs tasks[2] = {{128, {64, 1, 1}}, {1, {1, 1, 1}}};
    const pc_rep_html_run runs[2] = {
        {"device.log, pid 48211", {64, 1, 1}, tasks, 2, false},
        {NULL, {32, 2, -1}, NULL, 0, true},
    };
    pc_rep_html_extra other = {"another_kernel", runs, 2, NULL, -1, 0, NULL};
    pc_rep_html_extra ex = {"k_tmp_to_d_emb", runs, 2, NULL, -1, 0, NULL};
    other.next = &ex;
    char *doc = render(fr, &other);
    char *svg = svg_text_of(doc);
    /* combined element-wise by maximum: [64, 2, 1] */
    ck_assert_ptr_nonnull(strstr(svg, ">observed 64</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">observed 2</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">observed 1</text>"));
    ck_assert_ptr_nonnull(strstr(svg, "stitchCount (logs): 128"));
    ck_assert_ptr_nonnull(strstr(svg, "stitchCount (logs): 1<"));
    ck_assert_ptr_nonnull(strstr(svg, "observed depth (logs): 64"));
    ck_assert_ptr_nonnull(strstr(svg, ">observed (logs) [64, 2, 1]</text>"));
    ck_assert_ptr_nonnull(strstr(doc, "<td class=\"good\">match</td>"));
    ck_assert_ptr_nonnull(strstr(doc, "<td class=\"bad\">under-predicted</td>"));
    ck_assert_ptr_nonnull(strstr(doc, "device.log, pid 48211"));
    ck_assert_ptr_nonnull(strstr(doc, "<td>run 2</td>"));
    ck_assert_ptr_nonnull(strstr(doc, "Alloc Failure: the observation was cut short"));
    pc_mem_free(svg);
    pc_mem_free(doc);

    /* logs of another kernel are not drawn on this one */
    other.next = NULL;
    doc = render(fr, &other);
    ck_assert_ptr_null(strstr(doc, "observed 64"));
    ck_assert_ptr_null(strstr(doc, "stitchCount (logs)"));
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(plan_drawn)
{
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, NULL);
    const int64_t depths[3] = {32, 2, 1};
    pc_rep_html_extra ex = {NULL, NULL, 0, depths, -1, 49152, NULL};
    char *doc = render(fr, &ex);
    char *svg = svg_text_of(doc);
    int64_t bytes = pc_workspace_bytes(fr->results[0], depths, 1);
    ck_assert_int_gt(bytes, 0);
    char want[128];
    snprintf(want, sizeof want, "plan [32, 2, 1]: %lld B", (long long)bytes);
    ck_assert_msg(strstr(svg, want) != NULL, "no %s", want);
    ck_assert_ptr_nonnull(strstr(svg, ">plan 32</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">budget = 48 KiB</text>"));
    pc_mem_free(svg);
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(unknown_trip_count)
{
    kb b;
    kb_init(&b, "dyn.py", "dyn");
    int x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 16});
    int a = created(&b, "a", 2, (int64_t[]){1, 16});
    saved s = loop_begin_e(&b, "l", pc_expr_sym(b.m->arena, "n"));
    write_acc(&b, a, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x);
    write_acc(&b, x, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a);
    loop_end(&b, s);
    pc_file_result *fr = analyse(&b, NULL);
    ck_assert_int_lt(fr->results[0]->instances, 0);
    char *doc = render(fr, NULL);
    ck_assert_ptr_nonnull(strstr(doc, "instances depend on unbound symbols"));
    ck_assert_ptr_nonnull(strstr(doc, "bind: <code>n</code>"));
    ck_assert_ptr_nonnull(strstr(doc, "&#8804; 128"));
    ck_assert_ptr_nonnull(strstr(doc, "unknown until the symbols are bound"));
    ck_assert_ptr_null(strstr(doc, "each cell ="));
    pc_mem_free(doc);
    pc_file_result_free(fr);

    /* a tensor whose size depends on the symbol too: the bytes are unknown, said in words */
    kb_init(&b, "dyn2.py", "dyn2");
    x = tensor(&b, "x", PC_TENSOR_PARAM, 2, (int64_t[]){64, 16});
    a = created(&b, "a", 2, (int64_t[]){1, 16});
    K(&b)->tensors[a].shape[0] = pc_expr_sym(b.m->arena, "n");
    s = loop_begin(&b, "l", 4);
    write_acc(&b, a, PC_ACC_WRITE_WHOLE, PC_UNIT_VECTOR, x);
    write_acc(&b, x, PC_ACC_WRITE_ASSEMBLE, PC_UNIT_VECTOR, a);
    loop_end(&b, s);
    fr = analyse(&b, NULL);
    ck_assert_int_lt(fr->results[0]->ws_predicted, 0);
    doc = render(fr, NULL);
    ck_assert_ptr_nonnull(strstr(doc, ">unknown: the bytes depend on unbound symbols</text>"));
    ck_assert_ptr_null(strstr(doc, " B</text>")); /* no byte axis without a known value */
    ck_assert_ptr_nonnull(strstr(doc, "<td class=\"n\">?</td><td class=\"n\">?</td>")); /* a's bytes */
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

START_TEST(several_kernels_and_files)
{
    kb b1, b2;
    build_seed(&b1);
    build_seed_named(&b2, "other.py", "second", "tmp_assemble");
    pc_file_result *frs[3] = {analyse(&b1, NULL), analyse(&b2, NULL), NULL};
    /* a file that could not be parsed, and one without kernels */
    pc_file_result *bad = pc_mem_calloc(1, sizeof *bad);
    bad->model = pc_model_new("broken.py", PC_LANG_PYTHON);
    bad->model->fatal = true;
    pc_model_add_message(bad->model, PC_MSG_FATAL, pc_model_loc(bad->model, NULL, 3, 1, 0, 0), "invalid syntax <here>");
    frs[2] = bad;
    char *doc = pc_rep_html_render(frs, 3, NULL);
    ck_assert_ptr_null(xml_check(doc));
    ck_assert_ptr_nonnull(strstr(doc, "<a href=\"#k0\"><code>k_tmp_to_d_emb</code></a>"));
    ck_assert_ptr_nonnull(strstr(doc, "<a href=\"#k1\"><code>second</code></a>"));
    ck_assert_ptr_nonnull(strstr(doc, "id=\"k1\""));
    ck_assert_ptr_nonnull(strstr(doc, "could not be analysed: invalid syntax &lt;here&gt;"));
    ck_assert_ptr_nonnull(strstr(doc, "2 kernels in 3 files"));
    pc_mem_free(doc);

    /* nothing at all */
    doc = pc_rep_html_render(NULL, 0, NULL);
    ck_assert_ptr_null(xml_check(doc));
    ck_assert_ptr_nonnull(strstr(doc, "No kernel found."));
    pc_mem_free(doc);
    for (int i = 0; i < 3; i++)
        pc_file_result_free(frs[i]);
}
END_TEST

START_TEST(write_file)
{
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, NULL);
    char dir[] = "/tmp/pc_html_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.html", dir);
    ck_assert_int_eq(pc_rep_html_write(path, &fr, 1, NULL), 0);
    size_t len;
    char *err = NULL;
    char *text = pc_read_file(path, &len, &err);
    ck_assert_ptr_nonnull(text);
    char *doc = pc_rep_html_render(&fr, 1, NULL);
    ck_assert_str_eq(text, doc);
    pc_mem_free(text);
    pc_mem_free(doc);
    remove(path);
    rmdir(dir);

    errno = 0;
    ck_assert_int_eq(pc_rep_html_write("/nonexistent-dir-pc/out.html", &fr, 1, NULL), -1);
    ck_assert_int_eq(errno, ENOENT);
    errno = 0;
    ck_assert_int_eq(pc_rep_html_write("", &fr, 1, NULL), -1);
    ck_assert_int_eq(errno, EINVAL);
    pc_file_result_free(fr);
}
END_TEST

/* The seed example through the real Python frontend (examples/k_tmp_to_d_emb.py). */
START_TEST(seed_from_python_source)
{
    pc_frontend *fe = pc_frontend_new();
    pc_check_opts opts;
    pc_check_opts_init(&opts);
    opts.next_opts = 0;
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py", NULL, 0, &opts, &err);
    ck_assert_ptr_nonnull(fr);
    ck_assert_msg(!fr->model->fatal, "the Python frontend cannot read the seed example");
    ck_assert_int_eq(fr->model->nkernels, 1);
    char *doc = render(fr, NULL);
    char *svg = svg_text_of(doc);
    ck_assert_ptr_nonnull(strstr(svg, ">predicted 64</text>"));
    ck_assert_uint_eq(count(svg, ">predicted 1</text>"), 2);
    ck_assert_ptr_nonnull(strstr(svg, ">T0: 128 instances</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">T1: 1 instance</text>"));
    /* the source exists: tensors link to their lines */
    ck_assert_ptr_nonnull(strstr(doc, "k_tmp_to_d_emb.py#L"));
    ck_assert_ptr_nonnull(strstr(doc, "PC009"));
    pc_mem_free(svg);
    pc_mem_free(doc);
    pc_file_result_free(fr);
    pc_frontend_free(fe);
}
END_TEST

/* The page opens with a summary of the findings: counts, then errors, then PC012 (numbers may be
 * low), then the other warnings, then notes, each linked to its kernel's section; and a table of
 * every kernel.  It names nothing outside the page but the analysed files. */
START_TEST(summary_first)
{
    char path[] = "/tmp/pc_html_summary_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char arg[128];
    snprintf(arg, sizeof arg, "--report=%s", path);
    pc_test_output o = pc_test_poolcheck("check", "--no-config-lookup", arg, PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py",
                                         PC_SOURCE_DIR "/tests/fixtures/checks/pc006_pool_too_shallow.py",
                                         PC_SOURCE_DIR "/tests/fixtures/checks/pc012_unanalysed_region.py",
                                         PC_SOURCE_DIR "/tests/fixtures/checks/pc001_zero_depth_pool.py", NULL);
    ck_assert_int_eq(o.status, 1);
    pc_test_output_free(&o);
    size_t len;
    char *err = NULL;
    char *doc = pc_read_file(path, &len, &err);
    ck_assert_ptr_nonnull(doc);
    ck_assert_ptr_null(xml_check(doc));
    char *sum = strstr(doc, "<section class=\"summary\" id=\"summary\">");
    char *first_file = strstr(doc, "<section class=\"file\">");
    ck_assert_ptr_nonnull(sum);
    ck_assert_ptr_nonnull(first_file);
    ck_assert(sum < first_file);
    /* 4 notes: PC009 and, per fixture with no cube tile setter, the tile-pieces note */
    ck_assert_ptr_nonnull(strstr(sum, "<span class=\"bad\">1 error</span>, 2 warnings, 4 notes."));
    /* order inside the summary, whatever the order of the files on the command line */
    char *e = strstr(sum, "<span class=\"sev-error\">error</span> <code>PC001</code>");
    char *w12 = strstr(sum, "<code>PC012</code>");
    char *w6 = strstr(sum, "<code>PC006</code>");
    char *n9 = strstr(sum, "<code>PC009</code>");
    ck_assert(e && w12 && w6 && n9);
    ck_assert(e < w12 && w12 < w6 && w6 < n9 && n9 < first_file);
    /* the PC001 item links to the section of the fourth kernel (k3), which exists */
    ck_assert_ptr_nonnull(strstr(e, "<a href=\"#k3\">kernel <code>k_tmp_to_d_emb</code></a>: "));
    ck_assert_ptr_nonnull(strstr(doc, "<section class=\"kernel\" id=\"k3\">"));
    /* every in-page link has its target; every other link is a file:// link to an input */
    for (const char *h = strstr(doc, "href=\""); h; h = strstr(h + 1, "href=\"")) {
        h += 6;
        if (*h == '#') {
            char id[64];
            size_t n = strcspn(h + 1, "\"");
            ck_assert_uint_lt(n, sizeof id - 8);
            snprintf(id, sizeof id, "id=\"%.*s\"", (int)n, h + 1);
            ck_assert_msg(strstr(doc, id), "no target for %s", id);
        } else {
            ck_assert_msg(strncmp(h, "file://", 7) == 0, "link outside the report: %.60s", h);
            ck_assert_msg(strncmp(h, "file://" PC_SOURCE_DIR "/examples/", 7 + strlen(PC_SOURCE_DIR) + 10) == 0 ||
                              strncmp(h, "file://" PC_SOURCE_DIR "/tests/fixtures/", 7 + strlen(PC_SOURCE_DIR) + 16) == 0,
                          "link to a file that is not an input: %.80s", h);
        }
    }
    /* no document outside the report or the repository is named */
    ck_assert_ptr_null(strstr(doc, "../"));
    ck_assert_ptr_null(strstr(doc, "shared/"));
    ck_assert_ptr_null(strstr(doc, "spec/"));
    /* the kernel table: one row per kernel with its depths */
    ck_assert_uint_eq(count(sum, "<tr><td><a href=\"#k"), 4);
    ck_assert_ptr_nonnull(strstr(sum, "<td class=\"n nw\">[16, 2, 1]</td>"));
    pc_mem_free(doc);
    unlink(path);
}
END_TEST

/* ---- the Inputs section: the report reproduces what it was run with ---------------------------- */

/* s as the report writes it in text: the five markup characters as entities (s is ASCII). */
static char *html_text(const char *s)
{
    pc_sb b = {0};
    for (; *s; s++)
        switch (*s) {
        case '&': pc_sb_append(&b, "&amp;"); break;
        case '<': pc_sb_append(&b, "&lt;"); break;
        case '>': pc_sb_append(&b, "&gt;"); break;
        case '"': pc_sb_append(&b, "&quot;"); break;
        case '\'': pc_sb_append(&b, "&#39;"); break;
        default: pc_sb_putc(&b, *s);
        }
    return pc_sb_take(&b);
}

#define HAS(doc, frag) ck_assert_msg(strstr((doc), (frag)) != NULL, "no\n%s\nin the page", (frag))

/* Hostile names and values everywhere a user writes them: the command line, binding names and
 * sources, option keys and values, file names; every one escaped, the sources right. */
START_TEST(inputs_escaped)
{
    kb b;
    build_seed_named(&b, "k.py", "k<&>\"", "tmp_assemble");
    pc_file_result *fr = analyse(&b, (const int64_t[]){64, 2, 1});
    /* where the configuration in force came from: the source's own call, and --set */
    pc_option src_pool = {.key = PC_KEY_POOL, .site = PC_SITE_SET_RUNTIME_OPTIONS, .kernel = -1,
                          .loc = pc_model_loc(b.m, NULL, 7, 1, 0, 0)};
    pc_option src_max = {.key = PC_KEY_MAX_NUM, .value = {.kind = PC_OPT_INT, .i = 128}, .site = PC_SITE_COMMAND_LINE,
                         .kernel = -1};
    fr->cfgs[0].src_pool = &src_pool;
    fr->cfgs[0].src_max_num = &src_max;

    pc_binding set0[] = {{"n<&>", 4}, {"n<&>", 5}}, set1[] = {{"m", 8}};
    pc_bindings sets[] = {{set0, 2}, {set1, 1}};
    const char *src0[] = {"shapes&.json (--shapes)", NULL}, *src1[] = {"/p/<.poolcheck.json>"};
    const char *const *sources[] = {src0, src1};
    pc_optval items[] = {{.kind = PC_OPT_INT, .i = 64}, {.kind = PC_OPT_INT, .i = 2}, {.kind = PC_OPT_INT, .i = 1}};
    pc_option ext[] = {
        {.key = "stitch_funtion<num>", .value = {.kind = PC_OPT_STRING, .text = "<script>&"}, .site = PC_SITE_PROJECT_FILE,
         .kernel = -1, .loc = {.file = "/p/<x>.json", .line = 3}},
        {.key = PC_KEY_POOL, .value = {.kind = PC_OPT_LIST, .items = items, .nitems = 3}, .site = PC_SITE_COMMAND_LINE,
         .kernel = -1},
    };
    pc_rep_html_file_inputs fi = {.file = "k.py", .project_file = "/p/<.poolcheck.json>", .project_how = "--config-file",
                                  .sets = sets, .nsets = 2, .binding_sources = sources, .ext_opts = ext, .next_opts = 2};
    const char *argv[] = {"check", "--bind", "n<&>=4", "--report=o.html", "it's.py"};
    pc_rep_html_inputs in = {.argv = argv, .argc = 5, .cwd = "/w&d", .files = &fi, .nfiles = 1, .assemble_headroom = 1};
    char *doc = pc_rep_html_render_inputs(&fr, 1, NULL, &in);
    const char *bad = xml_check(doc);
    ck_assert_msg(bad == NULL, "not well-formed: %s", bad ? bad : "");
    assert_self_contained(doc);

    /* after the summary (which links to it), before the first file */
    char *sec = strstr(doc, "<section class=\"inputs\" id=\"inputs\">\n<h2>Inputs</h2>\n");
    ck_assert_ptr_nonnull(sec);
    ck_assert(strstr(doc, "<section class=\"summary\"") < sec && sec < strstr(doc, "<section class=\"file\">"));
    HAS(doc, "<a href=\"#inputs\">Inputs</a>");
    HAS(doc, "<a href=\"#paste\">Configuration to paste</a>");
    /* the command line as a shell reads it back */
    HAS(sec, "<pre class=\"cmd\"><code>poolcheck check --bind &#39;n&lt;&amp;&gt;=4&#39; --report=o.html "
             "&#39;it&#39;\\&#39;&#39;s.py&#39;</code></pre>\n<p class=\"muted\">run in <span class=\"mono\">/w&amp;d</span></p>");
    /* the project file and how it was found */
    HAS(sec, "<p>Project file: <span class=\"mono\">/p/&lt;.poolcheck.json&gt;</span> (--config-file). "
             "Runtime config file: none.</p>");
    /* every binding of both sets, with its source; the shadowed one says so */
    HAS(sec, "<p>Bindings: 2 sets; the depths are the element-wise maximum over the sets.</p>");
    HAS(sec, "<tr><td class=\"n\">0</td><td><code>n&lt;&amp;&gt;</code></td><td class=\"n\">4</td>"
             "<td><span class=\"mono\">shapes&amp;.json (--shapes)</span></td><td></td></tr>\n");
    HAS(sec, "<tr><td class=\"n\">0</td><td><code>n&lt;&amp;&gt;</code></td><td class=\"n\">5</td><td><code>--bind</code></td>"
             "<td><span class=\"muted\">not used: an earlier binding of this name wins</span></td></tr>\n");
    HAS(sec, "<tr><td class=\"n\">1</td><td><code>m</code></td><td class=\"n\">8</td>"
             "<td><span class=\"mono\">/p/&lt;.poolcheck.json&gt;</span></td><td></td></tr>\n");
    /* the options from outside the source, in order, with where each was given */
    char *o1 = strstr(sec, "<tr><td><code>stitch_funtion&lt;num&gt;</code></td><td><code>&#39;&lt;script&gt;&amp;&#39;</code></td>"
                           "<td><code>.poolcheck.json</code> at <span class=\"mono\">/p/&lt;x&gt;.json:3</span></td>"
                           "<td><span class=\"bad\">not a runtime option: never applied</span></td></tr>\n");
    char *o2 = strstr(sec, "<tr><td><code>stitch_function_num_per_pool</code></td><td><code>[64, 2, 1]</code></td>"
                           "<td><code>--set</code></td><td></td></tr>\n");
    ck_assert(o1 && o2 && o1 < o2);
    /* the three snippets of pc_rep_emit_config, escaped, the kernel's name in their comments too */
    HAS(sec, "<pre class=\"paste\" id=\"paste-json\"><code>{\n  &quot;runtime&quot;: {\n    "
             "&quot;stitch_function_num_per_pool&quot;: [64, 2, 1]\n  }\n}\n</code></pre>");
    HAS(sec, "<pre class=\"paste\" id=\"paste-python\"><code># poolcheck: stitch_function_num_per_pool=[64, 2, 1] for 1 kernel\n"
             "#   k&lt;&amp;&gt;&quot; (k.py:1): ");
    HAS(sec, "\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n</code></pre>");
    HAS(sec, "<pre class=\"paste\" id=\"paste-cpp\"><code>// poolcheck: ");
    HAS(sec, "\nconfig::SetRuntimeOption(&quot;stitch_function_num_per_pool&quot;, std::vector&lt;int64_t&gt;{64, 2, 1});\n"
             "</code></pre>");
    HAS(sec, "assemble headroom 1)");
    /* the kernel's section: each option in force and its source */
    char *ks = strstr(doc, "<section class=\"kernel\"");
    ck_assert_ptr_nonnull(ks);
    HAS(ks, "<h4>Runtime options in force</h4>\n");
    HAS(ks, "<tr><td><code>stitch_function_num_per_pool</code></td><td class=\"n nw\">[64, 2, 1]</td>"
            "<td><code>set_runtime_options</code> at <span class=\"mono\">k.py:7</span></td></tr>\n");
    HAS(ks, "<tr><td><code>stitch_function_max_num</code></td><td class=\"n nw\">128</td><td><code>--set</code></td></tr>\n");
    HAS(ks, "<tr><td><code>max_workspace_kb</code></td><td class=\"n nw\">0</td><td><span class=\"muted\">default</span></td></tr>\n");
    /* nothing raw */
    ck_assert_ptr_null(strstr(doc, "n<&"));
    ck_assert_ptr_null(strstr(doc, "/p/<"));
    ck_assert_ptr_null(strstr(doc, "<x>"));
    ck_assert_ptr_null(strstr(doc, "it's"));
    ck_assert_ptr_null(strstr(doc, "w&d"));
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

/* Without the caller's inputs the section says what it cannot show, and still has what the results
 * hold: the files, the options in force per kernel, the configuration to paste. */
START_TEST(inputs_not_given)
{
    kb b;
    build_seed(&b);
    pc_file_result *fr = analyse(&b, NULL);
    char *doc = render(fr, NULL);
    char *sec = strstr(doc, "<section class=\"inputs\" id=\"inputs\">");
    ck_assert_ptr_nonnull(sec);
    ck_assert_ptr_null(strstr(doc, "<pre class=\"cmd\">"));
    HAS(sec, "<tr><td><span class=\"mono\">k.py</span></td><td>Python</td><td class=\"n\">1</td></tr>\n");
    HAS(sec, "The bindings and the runtime options from outside the source were not given to this report");
    HAS(sec, "assemble headroom 1)");
    HAS(sec, "\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 2, 1])\n</code></pre>");
    HAS(doc, "<tr><td><code>stitch_function_num_per_pool</code></td><td class=\"n nw\">[0, 0, 0]</td>"
             "<td><span class=\"muted\">default</span></td></tr>\n");
    pc_mem_free(doc);

    /* no kernel: nothing to paste */
    doc = pc_rep_html_render(NULL, 0, NULL);
    ck_assert_ptr_null(xml_check(doc));
    HAS(doc, "No kernel was analysed: there is nothing to paste.");
    pc_mem_free(doc);
    pc_file_result_free(fr);
}
END_TEST

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char kernel_with_options[] =
    "import pypto\n"
    "\n"
    "pypto.experimental.set_runtime_options(stitch_function_max_num=32)\n"
    "\n"
    "\n"
    "@pypto.frontend.jit\n"
    "def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32), n: int):\n"
    "    t = pypto.tensor([16, 16], pypto.DT_FP32, \"t\")\n"
    "    for i, u in pypto.loop_unroll(0, n, 1, name=\"l\"):\n"
    "        t[:] = pypto.add(x, x)\n"
    "        y[:] = t + 0.0\n";

/* `check --report`: what the command was given, from each source, as --show-settings finds it; two
 * files given the same share one table; the snippets are --emit-config's text. */
START_TEST(inputs_from_the_command_line)
{
    char dir[] = "/tmp/pc_html_in_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char py[256], py2[256], proj[256], cfg[256], out[256], arg[300];
    snprintf(py, sizeof py, "%s/two.py", dir);
    snprintf(py2, sizeof py2, "%s/three.py", dir);
    snprintf(proj, sizeof proj, "%s/.poolcheck.json", dir);
    snprintf(cfg, sizeof cfg, "%s/tile_fwk_config.json", dir);
    snprintf(out, sizeof out, "%s/out.html", dir);
    snprintf(arg, sizeof arg, "--report=%s", out);
    put_file(py, kernel_with_options);
    put_file(py2, kernel_with_options);
    put_file(proj, "{\"bind\": {\"n\": 2},\n \"runtime\": {\"stitch_function_max_num\": 64}}");
    put_file(cfg, "{\"runtime\": {\"device_sched_parallelism\": 2}}");
    pc_test_output o = pc_test_poolcheck("check", "--config", cfg, "--bind", "n=4", "--set", "max_workspace_kb=4096", arg,
                                         py, py2, NULL);
    ck_assert_msg(o.status == 0 || o.status == 1, "%s", o.err);
    pc_test_output_free(&o);
    size_t len;
    char *err = NULL;
    char *doc = pc_read_file(out, &len, &err);
    ck_assert_ptr_nonnull(doc);
    const char *bad = xml_check(doc);
    ck_assert_msg(bad == NULL, "not well-formed: %s", bad ? bad : "");
    assert_self_contained(doc);
    char *sec = strstr(doc, "<section class=\"inputs\" id=\"inputs\">");
    ck_assert_ptr_nonnull(sec);
    char want[2048];
    snprintf(want, sizeof want, "<pre class=\"cmd\"><code>poolcheck check --config %s --bind n=4 --set max_workspace_kb=4096 "
                                "--report=%s %s %s</code></pre>", cfg, out, py, py2);
    HAS(sec, want);
    /* one group: both files, the same inputs */
    ck_assert_uint_eq(count(sec, "<div class=\"inputgroup\">"), 1);
    snprintf(want, sizeof want, "<a class=\"mono\" href=\"file://%s\">%s</a></td><td>Python</td><td class=\"n\">1</td></tr>\n"
                                "<tr><td><a class=\"mono\" href=\"file://%s\">%s</a>", py, py, py2, py2);
    HAS(sec, want);
    snprintf(want, sizeof want, "<p>Project file: <a class=\"mono\" href=\"file://%s\">%s</a> (the nearest .poolcheck.json). "
                                "Runtime config file: <a class=\"mono\" href=\"file://%s\">%s</a> (--config).</p>", proj, proj, cfg, cfg);
    HAS(sec, want);
    /* the command line overrides .poolcheck.json (docs/model.md 8.1): --bind first */
    snprintf(want, sizeof want, "<tr><td><code>n</code></td><td class=\"n\">4</td><td><code>--bind</code></td>"
                                "<td></td></tr>\n<tr><td><code>n</code></td><td class=\"n\">2</td><td><span class=\"mono\">%s</span></td>"
                                "<td><span class=\"muted\">not used: an earlier binding of this name wins</span></td></tr>\n", proj);
    HAS(sec, want);
    snprintf(want, sizeof want, "<tr><td><code>device_sched_parallelism</code></td><td><code>2</code></td>"
                                "<td><code>tile_fwk_config.json</code> at <a class=\"mono\" href=\"file://%s#L1\">%s:1</a></td>"
                                "<td></td></tr>\n<tr><td><code>stitch_function_max_num</code></td><td><code>64</code></td>"
                                "<td><code>.poolcheck.json</code> at <a class=\"mono\" href=\"file://%s#L2\">%s:2</a></td><td></td></tr>\n"
                                "<tr><td><code>max_workspace_kb</code></td><td><code>4096</code></td><td><code>--set</code></td>"
                                "<td></td></tr>\n", cfg, cfg, proj, proj);
    HAS(sec, want);
    /* the kernel's options in force: the source's own call beats the project file */
    snprintf(want, sizeof want, "<tr><td><code>stitch_function_max_num</code></td><td class=\"n nw\">32</td>"
                                "<td><code>set_runtime_options</code> at <a class=\"mono\" href=\"file://%s#L3\">%s:3</a></td></tr>\n", py, py);
    HAS(doc, want);
    HAS(doc, "<tr><td><code>max_workspace_kb</code></td><td class=\"n nw\">4096</td><td><code>--set</code></td></tr>\n");
    /* each snippet is what --emit-config writes for the same command */
    static const char *const kinds[] = {"json", "python", "cpp"};
    for (size_t i = 0; i < 3; i++) {
        char emit[32];
        snprintf(emit, sizeof emit, "--emit-config=%s", kinds[i]);
        o = pc_test_poolcheck("check", "--config", cfg, "--bind", "n=4", "--set", "max_workspace_kb=4096", emit, py, py2, NULL);
        ck_assert_int_eq(o.status, 0);
        ck_assert_ptr_nonnull(strstr(o.out, "stitch_function_num_per_pool"));
        char *text = html_text(o.out);
        snprintf(want, sizeof want, "<pre class=\"paste\" id=\"paste-%s\"><code>%s</code></pre>", kinds[i], text);
        HAS(sec, want);
        pc_mem_free(text);
        pc_test_output_free(&o);
    }
    pc_mem_free(doc);
    unlink(py);
    unlink(py2);
    unlink(proj);
    unlink(cfg);
    unlink(out);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("html");
    TCase *tc = tcase_create("html");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, xml_checker_rejects);
    tcase_add_test(tc, seed_numbers);
    tcase_add_test(tc, escapes_source_strings);
    tcase_add_test(tc, local_file_link);
    tcase_add_test(tc, bins_100000_instances);
    tcase_add_test(tc, instance_roots_not_recorded);
    tcase_add_test(tc, precise_cut_highlighted);
    tcase_add_test(tc, observed_from_logs);
    tcase_add_test(tc, plan_drawn);
    tcase_add_test(tc, unknown_trip_count);
    tcase_add_test(tc, several_kernels_and_files);
    tcase_add_test(tc, write_file);
    tcase_add_test(tc, seed_from_python_source);
    tcase_add_test(tc, summary_first);
    tcase_add_test(tc, inputs_escaped);
    tcase_add_test(tc, inputs_not_given);
    tcase_add_test(tc, inputs_from_the_command_line);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
