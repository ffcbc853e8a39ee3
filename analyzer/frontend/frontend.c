/* frontend.c - choose the frontend for a file and run it.
 *
 * Built twice.  In libpoolcheck the C++ frontend is linked in and called directly.  The poolcheck
 * CLI compiles this file with POOLCHECK_LAZY_CLANG: the C++ frontend (and with it libclang and
 * libLLVM, some 16 ms of relocations at every process start) lives in the module
 * poolcheck_clang.so, loaded with dlopen when the first C++ file appears - so a Python check, or
 * `poolcheck logs`, never pays for it.  The module is looked for next to the executable
 * (<bin>/../lib, the build tree) and where it is installed (<bin>/../<libdir>/poolcheck, then the
 * configured prefix).  Its entry points are the ones frontend.h declares, unchanged.
 */
#define _POSIX_C_SOURCE 200809L
#include "frontend_int.h"

#include <stdlib.h>
#include <string.h>

#ifdef POOLCHECK_LAZY_CLANG
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

/* Resolved once per process, read-only afterwards (like CPython's interpreter, the one kind of
 * process-wide state: a loaded shared object is process-wide by nature). */
static pthread_once_t clang_once = PTHREAD_ONCE_INIT;
static struct {
    pc_model *(*parse)(pc_frontend *, const char *, const char *, size_t, const pc_parse_opts *);
    void (*state_free)(struct pc_clang_state *);
    void (*release)(struct pc_clang_state *, const char *);
    void (*incr_free)(struct pc_clang_incr_set *);
    void (*incr_release)(struct pc_clang_incr_set *, const char *);
    char error[1024];
} clang_api;

static bool clang_try(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        if (!clang_api.error[0] || access(path, F_OK) == 0)
            snprintf(clang_api.error, sizeof clang_api.error, "%s", e ? e : path);
        return false;
    }
    /* POSIX: a data pointer converted to a function pointer, the dlsym convention */
    *(void **)&clang_api.parse = dlsym(h, "pc_clang_parse");
    *(void **)&clang_api.state_free = dlsym(h, "pc_clang_state_free");
    *(void **)&clang_api.release = dlsym(h, "pc_clang_release");
    *(void **)&clang_api.incr_free = dlsym(h, "pc_clang_incr_free");
    *(void **)&clang_api.incr_release = dlsym(h, "pc_clang_incr_release");
    if (clang_api.parse && clang_api.state_free && clang_api.release && clang_api.incr_free && clang_api.incr_release)
        return true; /* never unloaded: the models it made point into it */
    snprintf(clang_api.error, sizeof clang_api.error, "%s lacks the C++ frontend's entry points", path);
    clang_api.parse = NULL;
    dlclose(h);
    return false;
}

static void clang_load(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        const char *rel[] = {"../lib/" POOLCHECK_CLANG_MODULE_NAME, POOLCHECK_CLANG_MODULE_REL};
        for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
            char path[PATH_MAX + 256];
            snprintf(path, sizeof path, "%s/%s", exe, rel[i]);
            if (clang_try(path))
                return;
        }
    }
    if (clang_try(POOLCHECK_CLANG_MODULE_INSTALLED))
        return;
}

static bool clang_ready(void)
{
    pthread_once(&clang_once, clang_load);
    return clang_api.parse != NULL;
}
#endif

pc_frontend *pc_frontend_new(void) { return pc_mem_calloc(1, sizeof(pc_frontend)); }

void pc_frontend_free(pc_frontend *fe)
{
    if (!fe || atomic_load(&fe->abandoned))
        return; /* the abandoned parse thread may still read any of it */
#ifdef POOLCHECK_LAZY_CLANG
    if (fe->clang && clang_ready())
        clang_api.state_free(fe->clang);
    if (fe->clang_incr && clang_ready())
        clang_api.incr_free(fe->clang_incr);
#else
    if (fe->clang)
        pc_clang_state_free(fe->clang);
    pc_clang_incr_free(fe->clang_incr);
#endif
    pc_mem_free(fe);
}

bool pc_frontend_abandoned(const pc_frontend *fe) { return fe && atomic_load(&fe->abandoned); }

void pc_frontend_release(pc_frontend *fe, const char *path)
{
    if (fe && atomic_load(&fe->abandoned))
        return;
#ifdef POOLCHECK_LAZY_CLANG
    if (fe && fe->clang && path && clang_ready())
        clang_api.release(fe->clang, path);
    if (fe && fe->clang_incr && path && clang_ready())
        clang_api.incr_release(fe->clang_incr, path);
#else
    if (fe && fe->clang && path)
        pc_clang_release(fe->clang, path);
    if (fe && path)
        pc_clang_incr_release(fe->clang_incr, path);
#endif
}

/* Python sources, C++ translation units (what compilers compile: the launcher sees these in
 * compile commands), C++ headers (kernels often live in them).  No .pyi: a stub declares, it never
 * holds a kernel body. */
static const pc_source_ext source_exts[] = {
    {".py", PC_LANG_PYTHON, false},
    {".cpp", PC_LANG_CPP, false}, {".cc", PC_LANG_CPP, false},  {".cxx", PC_LANG_CPP, false},
    {".c++", PC_LANG_CPP, false}, {".cp", PC_LANG_CPP, false},  {".C", PC_LANG_CPP, false},
    {".CPP", PC_LANG_CPP, false}, {".c", PC_LANG_CPP, false},
    {".h", PC_LANG_CPP, true},    {".hpp", PC_LANG_CPP, true},  {".hh", PC_LANG_CPP, true},
    {".hxx", PC_LANG_CPP, true},
};

const pc_source_ext *pc_frontend_source_exts(size_t *n)
{
    *n = sizeof source_exts / sizeof *source_exts;
    return source_exts;
}

const pc_source_ext *pc_frontend_source_ext(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return NULL;
    for (size_t i = 0; i < sizeof source_exts / sizeof *source_exts; i++)
        if (strcmp(dot, source_exts[i].ext) == 0)
            return &source_exts[i];
    return NULL;
}

pc_lang pc_frontend_lang_of(const char *path)
{
    const pc_source_ext *e = pc_frontend_source_ext(path);
    return e ? e->lang : PC_LANG_UNKNOWN;
}

/* ---- bindings that name nothing ------------------------------------------------------------ */

/* The symbols of a kernel: `names` in the order they first appear (candidates for "did you mean":
 * the first of equally near ones wins), `sorted` the same deduplicated and sorted, with the
 * kernel's constants in `consts`, for lookups in log time: a file bound with 200,000 names is
 * checked in n log n, not pairwise. */
typedef struct symset {
    PC_VEC(const char *) names;
    PC_VEC(const char *) sorted;
    PC_VEC(const char *) consts;
} symset;

static void symset_add_expr(symset *s, const pc_expr *e)
{
    if (!e)
        return;
    const char *buf[64];
    size_t n = pc_expr_symbols(e, buf, 0, 64);
    for (size_t i = 0; i < n; i++)
        PC_VEC_PUSH(s->names, buf[i]);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort v and drop repeats. */
static void sort_unique(const char **items, size_t *count)
{
    if (*count < 2)
        return;
    qsort(items, *count, sizeof *items, by_string);
    size_t k = 1;
    for (size_t i = 1; i < *count; i++)
        if (strcmp(items[i], items[k - 1]) != 0)
            items[k++] = items[i];
    *count = k;
}

static void kernel_symbols(const pc_kernel *k, symset *s)
{
    for (int t = 0; t < k->ntensors; t++)
        for (int d = 0; k->tensors[t].shape && d < k->tensors[t].ndims; d++)
            symset_add_expr(s, k->tensors[t].shape[d]);
    for (int l = 0; l < k->nloops; l++) {
        symset_add_expr(s, k->loops[l].begin);
        symset_add_expr(s, k->loops[l].end);
        symset_add_expr(s, k->loops[l].step);
    }
    for (int i = 0; i < k->nstmts; i++)
        for (int b = 0; b < k->stmts[i].nbranches; b++)
            symset_add_expr(s, k->stmts[i].branches[b].cond);
    for (size_t i = 0; i < s->names.count; i++)
        PC_VEC_PUSH(s->sorted, s->names.items[i]);
    sort_unique(s->sorted.items, &s->sorted.count);
    for (int i = 0; i < k->nconstants; i++)
        PC_VEC_PUSH(s->consts, k->constants[i].name);
    sort_unique(s->consts.items, &s->consts.count);
}

static void symset_free(symset *s)
{
    PC_VEC_FREE(s->names);
    PC_VEC_FREE(s->sorted);
    PC_VEC_FREE(s->consts);
}

static bool sorted_has(const char *const *items, size_t count, const char *name)
{
    return count && bsearch(&name, items, count, sizeof *items, by_string) != NULL;
}

static bool symset_has(const symset *s, const char *name)
{
    return sorted_has(s->sorted.items, s->sorted.count, name);
}

/* `PARAM.shape[D]` may name a parameter by its variable or by its name string (docs/model.md 12;
 * the analysis binds both spellings): the kernel knows the name when it knows the other spelling. */
static bool knows_other_spelling(const pc_kernel *k, const symset *s, const char *name)
{
    const char *other = pc_kernel_param_other_spelling(k, name);
    if (!other)
        return false;
    pc_sb sb = {0};
    pc_sb_printf(&sb, "%s%s", other, strchr(name, '.'));
    char *spelled = pc_sb_take(&sb);
    bool known = symset_has(s, spelled);
    pc_mem_free(spelled);
    return known;
}

static bool kernel_knows(const pc_kernel *k, const symset *s, const char *name)
{
    return symset_has(s, name) || sorted_has(s->consts.items, s->consts.count, name) ||
           knows_other_spelling(k, s, name);
}

/* Edit distance, for "did you mean" (names are short; anything long is no suggestion). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* A binding's name, where it was given (NULL: --bind) and its place among all the bindings (set by
 * set, in order). */
typedef struct bref {
    const char *name;
    const char *source;
    size_t order;
} bref;

static int bref_by_name(const void *a, const void *b)
{
    const bref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int bref_by_order(const void *a, const void *b)
{
    const bref *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

/* Each distinct binding name once, where it first appears, in the order of the bindings: sorted by
 * name to find repeats, then back in order. */
static size_t distinct_bindings(const pc_parse_opts *opts, bref **out)
{
    size_t total = 0;
    for (size_t si = 0; si < opts->nbindings; si++)
        total += opts->bindings[si].count;
    bref *refs = pc_mem_alloc((total ? total : 1) * sizeof *refs);
    size_t n = 0;
    for (size_t si = 0; si < opts->nbindings; si++)
        for (size_t bi = 0; bi < opts->bindings[si].count; bi++) {
            const char *name = opts->bindings[si].items[bi].name;
            if (name) {
                refs[n].name = name;
                refs[n].source = opts->binding_sources && opts->binding_sources[si] ? opts->binding_sources[si][bi] : NULL;
                refs[n].order = n;
                n++;
            }
        }
    if (n > 1) {
        qsort(refs, n, sizeof *refs, bref_by_name);
        size_t k = 1;
        for (size_t i = 1; i < n; i++)
            if (strcmp(refs[i].name, refs[k - 1].name) != 0)
                refs[k++] = refs[i];
        n = k;
        qsort(refs, n, sizeof *refs, bref_by_order);
    }
    *out = refs;
    return n;
}

/* The symbol of the kernels nearest to name, or NULL when none is near. */
static const char *nearest_symbol(const pc_model *m, const symset *syms, const char *name)
{
    const char *best = NULL;
    size_t bestd = strlen(name) / 3 + 1;
    for (int k = 0; k < m->nkernels; k++)
        for (size_t i = 0; i < syms[k].names.count; i++) {
            size_t d = distance(name, syms[k].names.items[i]);
            if (d <= bestd && (!best || d < bestd)) {
                best = syms[k].names.items[i];
                bestd = d;
            }
        }
    return best;
}

/* How many names of the bindings that name nothing are listed after the first. */
#define UNUSED_LISTED 8

/* A --bind (or binding-set) name that no kernel of the file mentions does nothing: say so once,
 * with the closest symbol the kernels do have ("--bind nn=8": did you mean 'n'?) and where the
 * binding was given ("'nn' bound in ./.poolcheck.json"), and name the other such bindings in the
 * same warning (one warning per place: the sink keeps one). */
static bool named(const pc_parse_opts *opts, const char *name);

/* PC018 for the bindings no kernel of the file reads, at the first kernel --kernel-name keeps
 * (messages inside the kernels it drops go with them). */
static void check_bindings(pc_model *m, const pc_parse_opts *opts)
{
    if (m->fatal || m->nkernels == 0 || !opts->nbindings)
        return;
    symset *syms = pc_mem_calloc((size_t)m->nkernels, sizeof *syms);
    for (int k = 0; k < m->nkernels; k++)
        kernel_symbols(&m->kernels[k], &syms[k]);
    bref *names = NULL;
    size_t n = distinct_bindings(opts, &names);
    const bref *first = NULL;
    size_t more = 0;
    pc_sb others = {0};
    for (size_t i = 0; i < n; i++) {
        const char *name = names[i].name;
        bool known = false;
        for (int k = 0; k < m->nkernels && !known; k++)
            known = kernel_knows(&m->kernels[k], &syms[k], name);
        if (known)
            continue;
        if (!first) {
            first = &names[i];
            continue;
        }
        if (more < UNUSED_LISTED)
            pc_sb_printf(&others, "%s'%s'", more ? ", " : "", name);
        more++;
    }
    if (first) {
        const char *best = nearest_symbol(m, syms, first->name);
        pc_sb sb = {0};
        /* named by its source: a binding from a file is no --bind the user can look for */
        if (first->source)
            pc_sb_printf(&sb, "'%s' bound in %s", first->name, first->source);
        else
            pc_sb_printf(&sb, "--bind %s", first->name);
        pc_sb_printf(&sb, ": no symbol '%s' in kernel%s ", first->name, m->nkernels > 1 ? "s" : "");
        for (int k = 0; k < m->nkernels && k < 4; k++)
            pc_sb_printf(&sb, "%s'%s'", k ? ", " : "", m->kernels[k].name);
        if (m->nkernels > 4)
            pc_sb_printf(&sb, ", ...");
        if (best)
            pc_sb_printf(&sb, "; did you mean '%s'?", best);
        else
            pc_sb_printf(&sb, ": the binding has no effect");
        if (more)
            pc_sb_printf(&sb, "; %zu more binding%s name%s no symbol either: %s%s", more, more == 1 ? "" : "s",
                         more == 1 ? "s" : "", others.data, more > UNUSED_LISTED ? ", ..." : "");
        char *text = pc_sb_take(&sb);
        int at = 0;
        while (opts->nkernel_names && at + 1 < m->nkernels && !named(opts, m->kernels[at].name))
            at++;
        pc_model_add_message_check(m, PC_MSG_WARNING, m->kernels[at].loc, "PC018", text);
        pc_mem_free(text);
    }
    pc_sb_free(&others);
    pc_mem_free(names);
    for (int k = 0; k < m->nkernels; k++)
        symset_free(&syms[k]);
    pc_mem_free(syms);
}

/* ---- --kernel-name: the kernels asked for ------------------------------------------------------- */

static bool named(const pc_parse_opts *opts, const char *name)
{
    for (size_t i = 0; i < opts->nkernel_names; i++)
        if (strcmp(opts->kernel_names[i], name) == 0)
            return true;
    return false;
}

static int by_line(const void *a, const void *b, const pc_model *m)
{
    uint32_t x = m->kernels[*(const int *)a].loc.line, y = m->kernels[*(const int *)b].loc.line;
    return (x > y) - (x < y);
}

/* The kernel whose code holds line: the last one starting at or before it (order: the kernels by
 * first line), or -1 before the first. */
static int kernel_at(const pc_model *m, const int *order, uint32_t line)
{
    int lo = 0, hi = m->nkernels - 1, at = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (m->kernels[order[mid]].loc.line <= line) {
            at = order[mid];
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return at;
}

static void keep_named_kernels(pc_model *m, const pc_parse_opts *opts)
{
    if (!opts->nkernel_names || m->fatal || m->nkernels == 0)
        return;
    int n = m->nkernels;
    int *order = pc_mem_alloc((size_t)n * sizeof *order), *map = pc_mem_alloc((size_t)n * sizeof *map);
    for (int k = 0; k < n; k++)
        order[k] = k;
    /* insertion sort keeps equal lines in model order; n is the number of kernels of one file */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && by_line(&order[j - 1], &order[j], m) > 0; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int kept = 0;
    for (int k = 0; k < n; k++)
        map[k] = named(opts, m->kernels[k].name) ? kept++ : -1;
    /* the frontend's messages inside a kernel that goes (in the model's own file) go with it */
    int nm = 0;
    for (int i = 0; i < m->nmessages; i++) {
        const pc_message *msg = &m->messages[i];
        bool here = !msg->loc.file || !m->file || strcmp(msg->loc.file, m->file) == 0;
        int in = here && msg->loc.line ? kernel_at(m, order, msg->loc.line) : -1;
        if (in < 0 || map[in] >= 0)
            m->messages[nm++] = *msg;
    }
    m->nmessages = nm;
    int no = 0;
    for (int i = 0; i < m->noptions; i++) {
        pc_option o = m->options[i];
        if (o.kernel >= 0 && o.kernel < n && map[o.kernel] < 0)
            continue;
        if (o.kernel >= 0 && o.kernel < n)
            o.kernel = map[o.kernel];
        m->options[no++] = o;
    }
    m->noptions = no;
    for (int k = 0; k < n; k++)
        if (map[k] >= 0) {
            m->kernels[map[k]] = m->kernels[k];
            m->kernels[map[k]].id = map[k];
        }
    m->nkernels = kept;
    pc_mem_free(order);
    pc_mem_free(map);
}

static pc_model *parse_lang(pc_frontend *fe, const char *path, const char *text, size_t len,
                            const pc_parse_opts *opts);

pc_model *pc_frontend_parse(pc_frontend *fe, const char *path, const char *text, size_t len,
                            const pc_parse_opts *opts)
{
    pc_parse_opts none;
    if (!opts) {
        memset(&none, 0, sizeof none);
        opts = &none;
    }
    pc_model *m = parse_lang(fe, path, text, len, opts);
    /* a binding has an effect when any kernel of the file reads it: judged before --kernel-name
     * narrows the kernels, so narrowing never turns a binding the file uses into a PC018 */
    check_bindings(m, opts);
    keep_named_kernels(m, opts);
    return m;
}

static pc_model *parse_lang(pc_frontend *fe, const char *path, const char *text, size_t len,
                            const pc_parse_opts *opts)
{
    pc_parse_opts none;
    if (!opts) {
        memset(&none, 0, sizeof none);
        opts = &none;
    }
    pc_lang lang = opts->lang != PC_LANG_UNKNOWN ? opts->lang : pc_frontend_lang_of(path);
    if (lang == PC_LANG_PYTHON)
        return pc_py_parse(path, text, len, opts);
    if (lang == PC_LANG_CPP) {
#ifdef POOLCHECK_LAZY_CLANG
        if (!clang_ready()) {
            pc_model *m = pc_model_new(path, PC_LANG_CPP);
            pc_sb sb = {0};
            pc_sb_printf(&sb, "the C++ frontend (%s) cannot be loaded: %s", POOLCHECK_CLANG_MODULE_NAME,
                         clang_api.error[0] ? clang_api.error : "not found next to the executable");
            char *text_msg = pc_sb_take(&sb);
            pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0), text_msg);
            pc_mem_free(text_msg);
            return m;
        }
        return clang_api.parse(fe, path, text, len, opts);
#else
        return pc_clang_parse(fe, path, text, len, opts);
#endif
    }
    pc_model *m = pc_model_new(path, PC_LANG_UNKNOWN);
    pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0),
                         "cannot tell the language of this file from its extension (use --lang=cpp|python)");
    return m;
}

/* ---- rules both frontends apply to what they read --------------------------------------------- */

const pc_expr **pc_op_broadcast(pc_arena *a, const pc_expr **x, int nx, const pc_expr **y, int ny, int *nd)
{
    if (nx < 0 || ny < 0) {
        *nd = nx >= 0 ? nx : ny >= 0 ? ny : -1;
        return nx >= 0 ? x : ny >= 0 ? y : NULL;
    }
    int n = nx > ny ? nx : ny;
    const pc_expr **d = pc_arena_alloc(a, sizeof *d * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        int ix = i - (n - nx), iy = i - (n - ny);
        const pc_expr *dx = ix >= 0 ? x[ix] : NULL, *dy = iy >= 0 ? y[iy] : NULL;
        int64_t v;
        if (!dx)
            d[i] = dy;
        else if (!dy)
            d[i] = dx;
        else if (pc_expr_is_int(dx, &v) && v == 1)
            d[i] = dy;
        else
            d[i] = dx;
    }
    *nd = n;
    return d;
}

void pc_frontend_vec_tile_begin(pc_tile_shapes *t)
{
    t->vec_set = true;
    t->vec_known = false;
    t->nvec = 0;
    memset(t->vec, 0, sizeof t->vec);
}

void pc_frontend_vec_tile_end(pc_tile_shapes *t, bool known, pc_loc call)
{
    t->vec_known = known;
    if (!known) {
        t->nvec = 0;
        memset(t->vec, 0, sizeof t->vec);
    }
    t->vec_loc = call;
}

static void clear_cube_tiles(pc_tile_shapes *t)
{
    memset(t->cube_m, 0, sizeof t->cube_m);
    memset(t->cube_k, 0, sizeof t->cube_k);
    memset(t->cube_n, 0, sizeof t->cube_n);
}

void pc_frontend_cube_tile_begin(pc_tile_shapes *t)
{
    t->cube_set = true;
    clear_cube_tiles(t);
}

void pc_frontend_cube_tile_end(pc_tile_shapes *t, bool known, pc_loc call)
{
    t->cube_known = known;
    if (!known)
        clear_cube_tiles(t);
    t->cube_loc = call;
}

/* Upstream's GatherMask (interface/operation/vector/indexing.cpp) keeps every second element of
 * the last axis for pattern modes 1 and 2, every fourth for 3 to 6, and all of them for 7; any
 * other mode is its error. */
const pc_expr **pc_op_gathermask_shape(pc_arena *a, const pc_expr **x, int nx, bool mode_known, int64_t mode, int *nd)
{
    *nd = -1;
    if (!x || nx < 1 || !mode_known || mode < 1 || mode > 7)
        return NULL;
    int64_t div = mode <= 2 ? 2 : mode <= 6 ? 4 : 1;
    const pc_expr **d = pc_arena_alloc(a, sizeof *d * (size_t)nx);
    for (int i = 0; i < nx; i++)
        d[i] = x[i];
    if (div > 1)
        d[nx - 1] = pc_expr_bin(a, PC_EXPR_DIV, x[nx - 1], pc_expr_int(a, div));
    *nd = nx;
    return d;
}
