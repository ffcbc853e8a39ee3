/* clang_incr.c - editor mode: re-analyse only the function an edit touches.
 *
 * A 138 KB upstream test file is about a hundred TEST bodies; libclang needs ~150 ms to reparse it
 * even with the preamble (stub + headers) reused, and an edit touches one body.  So in editor mode
 * (keep_tu) the session remembers, per document, the text of the last analysis, its model and the
 * main file's top-level function bodies (from the cursor tree: the CompoundStmt of each function
 * definition at namespace scope, by its extent).  On the next text:
 *
 *  - the changed bytes are the part between the common prefix and the common suffix of the two
 *    texts; it must lie inside one function body (B), or after the last body;
 *  - every other definition that is unchanged, on lines of its own (no line shared with the
 *    change), and "blankable" is left out of the parse: its bytes from the head (`void F(...)`,
 *    `TEST_F(Suite, Name)`) to the closing brace become blanks (line breaks kept, so every line and
 *    column stays), and clang parses the other declarations, B and the definitions that are not
 *    left out.  The whole definition goes: a TEST_F head is a class clang builds, and on the 138 KB
 *    file the heads and the helpers the tests call cost as much as the rest of the reparse;
 *  - the model of that parse gets the previous model's kernels, messages and runtime-option sites
 *    of the left-out definitions, moved by the number of lines the edit added or removed.
 *
 * A definition is blankable when leaving it out cannot change anything outside it: no #define /
 * #include / skipped #if range lies in it, every location of each kernel found in it lies in it (no
 * helper inlined from elsewhere), and no clang diagnostic elsewhere points into it (an
 * instantiation it requested).  It is left out when, besides, everything that names what it
 * declares (its function, a TEST_F head's class; the references of the previous parse, per
 * definition) is left out too: a helper B or any other parsed code calls is parsed, one only
 * left-out tests call goes with them.  One-`return` helpers are always parsed (the token readers
 * find them by name, for written text the cursor reader could not evaluate).
 * The parse is checked before its result is used: B starts and ends where it should, nothing
 * parsed refers into a left-out definition, nothing in the edited text names what a left-out
 * definition declared (a reference spelling the name, or a clang error quoting it: `use of
 * undeclared identifier 'Helper'`), B has no preprocessor directive, and the walk found nothing
 * inside a left-out definition.
 * The translation unit lists the main file's declarations and directives but not those the preamble
 * holds (the index excludes a PCH's; clang_loc.c), so the directives at the top of the file are
 * not in the list: an edit before the first thing it lists is a parse of the whole text.
 * Anything else, or a failed check, is a parse of the whole text as before.  Messages come out in
 * location order in editor mode (either way), so the merged model equals a parse from scratch:
 * tests/unit/check_clang_tu.c compares the two after every edit of a sequence.
 * The interface (clang_int.h, pc_clang_incr_*): clang_frontend.c asks for a plan before it parses,
 * checks the parse and the walk against it, and hands the result here to be merged and remembered.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "clang_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct incr_region {
    uint32_t head;                 /* where the definition starts (`void`, `static`, `TEST_F`, ...) */
    uint32_t fn_loc;               /* offset of the function's name (its cursor location) */
    uint32_t body_begin, body_end; /* '{' and one past '}' */
    uint32_t line0, line1;         /* lines of the head and of '}' */
    bool blankable;
    bool referenced;               /* named outside its own definition */
    bool value_fn;                 /* `{ return e; }`: the evaluator reads its body (clang_value.c) */
} incr_region;
typedef PC_VEC(incr_region) incr_regions;

/* A region after an edit that moved the text by `shift` bytes and `dlines` lines (its head too
 * when the head is after the edit). */
static void shift_region(incr_region *g, int64_t shift, int64_t dlines, bool head)
{
    if (head)
        g->head = (uint32_t)((int64_t)g->head + shift);
    g->fn_loc = (uint32_t)((int64_t)g->fn_loc + shift);
    g->body_begin = (uint32_t)((int64_t)g->body_begin + shift);
    g->body_end = (uint32_t)((int64_t)g->body_end + shift);
    g->line0 = (uint32_t)((int64_t)g->line0 + dlines);
    g->line1 = (uint32_t)((int64_t)g->line1 + dlines);
}

/* The names a definition declares where it stands (its function's; the class a TEST_F head makes):
 * a parse that leaves the whole definition out takes them away, so nothing it parsed may name them
 * (scan_refs, names_in_diagnostics). */
typedef struct region_name {
    int region;
    char *name;
} region_name;
typedef PC_VEC(region_name) region_names;

static void region_names_free(region_names *v)
{
    for (size_t i = 0; i < v->count; i++)
        pc_mem_free(v->items[i].name);
    PC_VEC_FREE(*v);
}

/* A cursor at namespace scope outside every region (a class, a variable, a namespace, a
 * declaration without a body): an edit between two definitions is left at that only when these
 * are the same before and after it, moved, and it touches none but the namespaces around it. */
typedef struct outside_decl {
    enum CXCursorKind kind;
    uint32_t b, e;
} outside_decl;
typedef PC_VEC(outside_decl) outside_decls;

/* Region `from` (-1: code outside every region) names something region `to` declares. */
typedef struct region_ref {
    int to, from;
} region_ref;
typedef PC_VEC(region_ref) region_refs;

typedef struct pp_span { uint32_t b, e; } pp_span; /* offsets in the main file */
typedef PC_VEC(pp_span) pp_spans;
typedef PC_VEC(char *) path_vec;

static void paths_free(path_vec *v)
{
    for (size_t i = 0; i < v->count; i++)
        pc_mem_free(v->items[i]);
    PC_VEC_FREE(*v);
}

typedef struct pc_clang_incr {
    char *path;
    char *key;                     /* arguments and bindings: another key is a parse from scratch */
    char *text;                    /* the text `model` is the analysis of */
    size_t len;
    uint32_t *lines;               /* line starts of text */
    int nlines;
    incr_regions regions;          /* sorted by body_begin */
    region_names names;            /* what each region's head declares */
    region_refs refs;              /* who names what each region declares */
    outside_decls outside;         /* the declarations outside the regions */
    pp_spans pp;                   /* directives and skipped ranges of text */
    uint32_t lead;                 /* where the first declaration or directive the translation
                                    * unit lists starts: the preamble's directives lie before */
    path_vec inc_paths;            /* the files its parse read */
    char *includes;                /* their inclusion_signature then */
    pc_model *model;               /* equal to a whole-text parse of text (messages in order) */
    bool usable;                   /* kernels in location order: merging by location is exact */
    int reused;                    /* bodies the parse of text left out */
} pc_clang_incr;

struct pc_clang_incr_set {
    PC_VEC(pc_clang_incr *) docs;
};

static void incr_doc_free(pc_clang_incr *d)
{
    if (!d)
        return;
    pc_mem_free(d->path);
    pc_mem_free(d->key);
    pc_mem_free(d->text);
    pc_mem_free(d->lines);
    PC_VEC_FREE(d->regions);
    region_names_free(&d->names);
    PC_VEC_FREE(d->refs);
    PC_VEC_FREE(d->outside);
    PC_VEC_FREE(d->pp);
    pc_mem_free(d->includes);
    paths_free(&d->inc_paths);
    pc_model_free(d->model);
    pc_mem_free(d);
}

void pc_clang_incr_free(struct pc_clang_incr_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->docs.count; i++)
        incr_doc_free(s->docs.items[i]);
    PC_VEC_FREE(s->docs);
    pc_mem_free(s);
}

void pc_clang_incr_release(struct pc_clang_incr_set *s, const char *path)
{
    for (size_t i = 0; s && i < s->docs.count; i++)
        if (!strcmp(s->docs.items[i]->path, path)) {
            incr_doc_free(s->docs.items[i]);
            s->docs.items[i] = s->docs.items[--s->docs.count];
            return;
        }
}

static pc_clang_incr *incr_find(const pc_frontend *fe, const char *path)
{
    for (size_t i = 0; fe->clang_incr && i < fe->clang_incr->docs.count; i++)
        if (!strcmp(fe->clang_incr->docs.items[i]->path, path))
            return fe->clang_incr->docs.items[i];
    return NULL;
}

int pc_clang_incr_reused(const pc_frontend *fe, const char *path)
{
    char real[PATH_MAX];
    const pc_clang_incr *d = incr_find(fe, realpath(path, real) ? real : path);
    return d ? d->reused : -1;
}

char *pc_clang_incr_key(const pc_clang_argv *args, const pc_parse_opts *opts)
{
    pc_sb b = {0};
    for (size_t i = 0; i < args->count; i++) {
        pc_sb_append(&b, args->items[i]);
        pc_sb_putc(&b, '\x1f');
    }
    for (size_t s = 0; opts->bindings && s < opts->nbindings; s++) {
        pc_sb_putc(&b, '\x1e');
        for (size_t i = 0; i < opts->bindings[s].count; i++)
            pc_sb_printf(&b, "%s=%lld\x1f", opts->bindings[s].items[i].name ? opts->bindings[s].items[i].name : "",
                         (long long)opts->bindings[s].items[i].value);
    }
    pc_sb_putc(&b, '\x1d');
    return pc_sb_take(&b);
}

/* The files the parse read besides the main file (listed once, by the parse of the whole text:
 * clang_getInclusions reads every source-location entry of the preamble, ~9 ms here), and their
 * sizes and modification times now.  The text a left-out body was analysed with includes them, so
 * a header saved since means a parse of the whole text; a new #include in the main file changes
 * its directives (pp_spans). */
static void inclusion_visit(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack;
    if (!depth)
        return; /* the main file: its text is compared byte by byte */
    path_vec *v = d;
    CXString name = clang_getFileName(f);
    const char *path = clang_getCString(name);
    PC_VEC_PUSH(*v, pc_mem_strdup(path ? path : ""));
    clang_disposeString(name);
}

static void inclusion_paths(CXTranslationUnit tu, path_vec *out) { clang_getInclusions(tu, inclusion_visit, out); }

static char *inclusion_signature(const path_vec *paths)
{
    pc_sb b = {0};
    pc_sb_putc(&b, '\x1d');
    for (size_t i = 0; i < paths->count; i++) {
        struct stat sb;
        if (stat(paths->items[i], &sb) == 0)
            pc_sb_printf(&b, "%lld.%09ld/%lld\x1e", (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec,
                         (long long)sb.st_size);
        else
            pc_sb_append(&b, "?\x1e");
    }
    return pc_sb_take(&b);
}

/* 1-based line of offset off. */
static uint32_t line_of_off(const uint32_t *ls, int n, uint32_t off)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (ls[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (uint32_t)lo + 1;
}

/* Offset of a 1-based line and column, or UINT32_MAX when it is not in the text. */
static uint32_t off_of_loc(const uint32_t *ls, int n, size_t len, uint32_t line, uint32_t col)
{
    if (line < 1 || (int)line > n || col < 1)
        return UINT32_MAX;
    size_t off = (size_t)ls[line - 1] + col - 1;
    return off <= len ? (uint32_t)off : UINT32_MAX;
}

/* The first region that ends after off (regions are in order and do not overlap), or count. */
static size_t region_ending_after(const incr_regions *r, uint32_t off)
{
    size_t lo = 0, hi = r->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r->items[mid].body_end <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the region whose definition (head and body) holds off, or -1. */
static int region_at(const incr_regions *r, uint32_t off)
{
    size_t i = region_ending_after(r, off);
    return i < r->count && r->items[i].head <= off ? (int)i : -1;
}

/* Index of the region whose function's name is at off, or -1 (the name lies in the head). */
static int region_of_fn(const incr_regions *r, uint32_t off)
{
    size_t i = region_ending_after(r, off);
    return i < r->count && r->items[i].fn_loc == off ? (int)i : -1;
}

static bool file_offset(CXSourceLocation l, CXFile main, uint32_t *off)
{
    CXFile f;
    unsigned o;
    clang_getFileLocation(l, &f, NULL, NULL, &o);
    if (!f || !clang_File_isEqual(f, main))
        return false;
    *off = o;
    return true;
}

/* Both ends of r as offsets in the main file; false when either lies elsewhere. */
static bool range_offsets(CXSourceRange r, CXFile main, uint32_t *b, uint32_t *e)
{
    return file_offset(clang_getRangeStart(r), main, b) && file_offset(clang_getRangeEnd(r), main, e);
}

static bool is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

typedef struct region_scan {
    CXFile main;
    const char *text;
    size_t len;
    const uint32_t *lines;
    int nlines;
    incr_regions *out;
    CXCursor body;
    bool have_body;
} region_scan;

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    region_scan *rs = d;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
        rs->body = c;
        rs->have_body = true;
    }
    return CXChildVisit_Continue;
}

/* A body of one `return` statement: the walk evaluates such functions when written text it reads
 * from tokens names them (clang_value.c), by name and not through a reference cursor. */
typedef struct body_shape { int n; bool ret; } body_shape;

static enum CXChildVisitResult count_stmts(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    body_shape *b = d;
    b->n++;
    b->ret = clang_getCursorKind(c) == CXCursor_ReturnStmt;
    return b->n > 1 ? CXChildVisit_Break : CXChildVisit_Continue;
}

static enum CXChildVisitResult scan_regions(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    region_scan *rs = d;
    uint32_t loc;
    if (!file_offset(clang_getCursorLocation(c), rs->main, &loc))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    if (!is_function_kind(k) || !clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    rs->have_body = false;
    clang_visitChildren(c, find_body, rs);
    if (!rs->have_body)
        return CXChildVisit_Continue;
    CXSourceRange ext = clang_getCursorExtent(rs->body);
    uint32_t b, e, h;
    if (!range_offsets(ext, rs->main, &b, &e) || e <= b + 1 || e > rs->len || rs->text[b] != '{' || rs->text[e - 1] != '}' || loc >= b ||
        !file_offset(clang_getRangeStart(clang_getCursorExtent(c)), rs->main, &h) || h > loc)
        return CXChildVisit_Continue;
    if (rs->out->count && rs->out->items[rs->out->count - 1].body_end > h)
        return CXChildVisit_Continue; /* not after the previous one: leave it to the whole parse */
    body_shape shape = {0, false};
    clang_visitChildren(rs->body, count_stmts, &shape);
    incr_region r = {h, loc, b, e, line_of_off(rs->lines, rs->nlines, h), line_of_off(rs->lines, rs->nlines, e - 1),
                     true, false, shape.n == 1 && shape.ret};
    PC_VEC_PUSH(*rs->out, r);
    return CXChildVisit_Continue;
}

/* The translation unit's children in the main file (declarations and preprocessor records), read
 * once per parse: the list has the preamble's thousands of declarations in front of them. */
typedef PC_VEC(CXCursor) cursor_vec;

typedef struct tops_scan {
    CXFile main;
    cursor_vec *out;
} tops_scan;

static enum CXChildVisitResult scan_tops(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    tops_scan *ts = d;
    uint32_t off;
    if (file_offset(clang_getCursorLocation(c), ts->main, &off))
        PC_VEC_PUSH(*ts->out, c);
    return CXChildVisit_Continue;
}

static void collect_tops(CXTranslationUnit tu, CXFile main, cursor_vec *out)
{
    tops_scan ts = {main, out};
    pc_clang_visit_tu(tu, scan_tops, &ts);
}

/* visit(top) for each of tops, and over its children when it says Recurse: what
 * clang_visitChildren of the translation unit would do, without the preamble's cursors. */
static void visit_tops(const cursor_vec *tops, CXCursorVisitor visit, CXClientData data)
{
    for (size_t i = 0; i < tops->count; i++)
        if (visit(tops->items[i], clang_getNullCursor(), data) == CXChildVisit_Recurse)
            clang_visitChildren(tops->items[i], visit, data);
}

typedef struct outside_scan {
    CXFile main;
    const incr_regions *r;
    outside_decls *out;
} outside_scan;

static bool is_scope_kind(enum CXCursorKind k) { return k == CXCursor_Namespace || k == CXCursor_LinkageSpec; }

static enum CXChildVisitResult scan_outside(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    outside_scan *os = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXSourceRange ext = clang_getCursorExtent(c);
    outside_decl o = {k, 0, 0};
    if (!clang_isDeclaration(k) || !range_offsets(ext, os->main, &o.b, &o.e))
        return CXChildVisit_Continue;
    if (is_scope_kind(k)) {
        PC_VEC_PUSH(*os->out, o);
        return CXChildVisit_Recurse;
    }
    int ri = region_at(os->r, o.b);
    if (ri < 0 || o.e > os->r->items[ri].body_end)
        PC_VEC_PUSH(*os->out, o);
    return CXChildVisit_Continue;
}

static void collect_outside(const cursor_vec *tops, CXFile main, const incr_regions *r, outside_decls *out)
{
    outside_scan os = {main, r, out};
    visit_tops(tops, scan_outside, &os);
}

/* The main file's function bodies at namespace scope, in order. */
static void collect_regions(const cursor_vec *tops, CXFile main, const char *text, size_t len, const uint32_t *lines,
                            int nlines, incr_regions *out)
{
    region_scan rs = {main, text, len, lines, nlines, out, clang_getNullCursor(), false};
    visit_tops(tops, scan_regions, &rs);
}

/* r as a span of the main file, when it lies there (a directive, a skipped range). */
static void add_pp_span(CXSourceRange r, CXFile main, pp_spans *out)
{
    pp_span sp;
    if (range_offsets(r, main, &sp.b, &sp.e))
        PC_VEC_PUSH(*out, sp);
}

static int span_cmp(const void *a, const void *b)
{
    const pp_span *x = a, *y = b;
    return x->b != y->b ? (x->b < y->b ? -1 : 1) : x->e < y->e ? -1 : x->e > y->e;
}

/* The main file's preprocessor directives clang records (#define, #include) and the ranges it
 * skipped (#if 0, a false #ifdef), in order.  A #define anywhere reaches every kernel after it
 * (and the walk reads the file's macros as values), so the edit must keep this list as it was,
 * moved, and a body holding one of them is never left out. */
static void collect_pp(CXTranslationUnit tu, const cursor_vec *tops, CXFile main, pp_spans *out)
{
    for (size_t i = 0; i < tops->count; i++) {
        enum CXCursorKind k = clang_getCursorKind(tops->items[i]);
        if (k == CXCursor_MacroDefinition || k == CXCursor_InclusionDirective)
            add_pp_span(clang_getCursorExtent(tops->items[i]), main, out);
    }
    CXSourceRangeList *sk = clang_getSkippedRanges(tu, main);
    for (unsigned i = 0; sk && i < sk->count; i++)
        add_pp_span(sk->ranges[i], main, out);
    if (sk)
        clang_disposeSourceRangeList(sk);
    if (out->count > 1)
        qsort(out->items, out->count, sizeof *out->items, span_cmp);
}

/* Regions a directive or skipped range meets are not blankable. */
static void mark_pp(incr_regions *r, const pp_spans *pp)
{
    for (size_t i = 0; i < pp->count; i++)
        for (size_t j = 0; j < r->count; j++)
            if (pp->items[i].b < r->items[j].body_end && pp->items[i].e >= r->items[j].head)
                r->items[j].blankable = false;
}

/* Does a span meet [b, e]? */
static bool pp_meets(const pp_spans *pp, uint32_t b, uint32_t e)
{
    for (size_t i = 0; i < pp->count; i++)
        if (pp->items[i].b <= e && pp->items[i].e >= b)
            return true;
    return false;
}

typedef struct name_scan {
    CXFile main;
    const incr_regions *r;
    region_names *out;
} name_scan;

static enum CXChildVisitResult scan_names(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    name_scan *ns = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    uint32_t at;
    if (!clang_isDeclaration(k) || !file_offset(clang_getCursorLocation(c), ns->main, &at))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    int ri = region_at(ns->r, at);
    if (ri < 0 || at >= ns->r->items[ri].body_begin)
        return CXChildVisit_Continue;
    CXString sp = clang_getCursorSpelling(c);
    const char *name = clang_getCString(sp);
    if (name && *name)
        PC_VEC_PUSH(*ns->out, ((region_name){ri, pc_mem_strdup(name)}));
    clang_disposeString(sp);
    return CXChildVisit_Continue;
}

static void collect_region_names(const cursor_vec *tops, CXFile main, const incr_regions *r, region_names *out)
{
    name_scan ns = {main, r, out};
    visit_tops(tops, scan_names, &ns);
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Is the name a cursor spells (its last identifier: a type reference spells `class ns::T`) one
 * of gone[] (sorted)? */
static bool spells_gone(CXCursor c, const char *const *gone, size_t ngone)
{
    CXString sp = clang_getCursorSpelling(c);
    const char *name = clang_getCString(sp);
    bool hit = false;
    if (name && *name) {
        const char *last = name;
        for (const char *q = name; *q; q++)
            if (*q == ' ' || *q == ':')
                last = q + 1;
        hit = bsearch(&last, gone, ngone, sizeof *gone, str_cmp) != NULL;
    }
    clang_disposeString(sp);
    return hit;
}

/* Does a clang error in [b, e) of the main file quote one of gone[] (`use of undeclared identifier
 * 'F'`)? */
static bool names_in_diagnostics(CXTranslationUnit tu, CXFile main, const char *const *gone, size_t ngone, uint32_t b,
                                 uint32_t e)
{
    bool hit = false;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n && !hit; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        uint32_t off;
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
            file_offset(clang_getDiagnosticLocation(d), main, &off) && off >= b && off < e) {
            CXString sp = clang_getDiagnosticSpelling(d);
            const char *t = clang_getCString(sp);
            for (size_t g = 0; t && g < ngone && !hit; g++) {
                size_t len = strlen(gone[g]);
                for (const char *q = strchr(t, '\''); q && !hit; q = strchr(q + 1, '\''))
                    hit = !strncmp(q + 1, gone[g], len) && q[1 + len] == '\'';
            }
            clang_disposeString(sp);
        }
        clang_disposeDiagnostic(d);
    }
    return hit;
}

/* References to what the regions declare from outside their own definitions.  With `skip` set,
 * cursors inside a skip[] definition are not looked at, and a reference into one, or in the
 * edited text [gone_b, gone_e) to a name of gone[] (what the left-out definitions declared), is a
 * hit.  (The text outside the edit is what the previous parse read: what it names was noted then,
 * and such definitions are never left out.) */
typedef struct ref_scan {
    CXFile main;
    incr_regions *r;
    const bool *skip;  /* per region, or NULL */
    const char *const *gone;
    size_t ngone;
    uint32_t gone_b, gone_e;
    region_refs *edges; /* every reference from one region into another, or NULL */
    bool hit;
} ref_scan;

static enum CXChildVisitResult scan_refs(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ref_scan *rs = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    uint32_t here = 0;
    bool located = file_offset(clang_getCursorLocation(c), rs->main, &here);
    int in = located ? region_at(rs->r, here) : -1;
    if (rs->skip && in >= 0 && rs->skip[in] && k == CXCursor_CompoundStmt)
        return CXChildVisit_Continue; /* a left-out body: blanks */
    if (clang_isExpression(k) || clang_isReference(k)) {
        CXCursor ref = clang_getCursorReferenced(c);
        int ri = -1;
        uint32_t at;
        if (!clang_Cursor_isNull(ref) && is_function_kind(clang_getCursorKind(ref))) {
            CXCursor def = clang_getCursorDefinition(ref);
            if (!clang_Cursor_isNull(def) && file_offset(clang_getCursorLocation(def), rs->main, &at))
                ri = region_of_fn(rs->r, at);
        }
        /* anything else a definition's head declares (a TEST_F head's class) */
        if (ri < 0 && !clang_Cursor_isNull(ref) && file_offset(clang_getCursorLocation(ref), rs->main, &at))
            ri = region_at(rs->r, at);
        if (ri >= 0 && ri != in) {
            rs->r->items[ri].referenced = true;
            region_ref e = {ri, in};
            if (rs->edges && (!rs->edges->count || rs->edges->items[rs->edges->count - 1].to != e.to ||
                              rs->edges->items[rs->edges->count - 1].from != e.from))
                PC_VEC_PUSH(*rs->edges, e);
            if (rs->skip && rs->skip[ri])
                rs->hit = true;
        }
        if (rs->ngone && !rs->hit && located && here >= rs->gone_b && here < rs->gone_e &&
            spells_gone(c, rs->gone, rs->ngone))
            rs->hit = true;
    }
    return CXChildVisit_Recurse;
}

/* (the preamble's declarations cannot name the main file's: only the main file's are looked at) */
static bool mark_references(const cursor_vec *tops, CXFile main, incr_regions *r, const bool *skip,
                            const char *const *gone, size_t ngone, uint32_t gone_b, uint32_t gone_e,
                            region_refs *edges)
{
    ref_scan rs = {main, r, skip, gone, ngone, gone_b, gone_e, edges, false};
    visit_tops(tops, scan_refs, &rs);
    return rs.hit;
}

/* A diagnostic whose notes point into a body other than its own: that body is not blankable. */
static void mark_diag_notes(CXTranslationUnit tu, CXFile main, incr_regions *r)
{
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        uint32_t off;
        int own = file_offset(clang_getDiagnosticLocation(d), main, &off) ? region_at(r, off) : -1;
        CXDiagnosticSet kids = clang_getChildDiagnostics(d);
        unsigned nk = kids ? clang_getNumDiagnosticsInSet(kids) : 0;
        for (unsigned j = 0; j < nk; j++) {
            CXDiagnostic kd = clang_getDiagnosticInSet(kids, j);
            uint32_t ko;
            int ri = file_offset(clang_getDiagnosticLocation(kd), main, &ko) ? region_at(r, ko) : -1;
            if (ri >= 0 && ri != own)
                r->items[ri].blankable = false;
            clang_disposeDiagnostic(kd);
        }
        clang_disposeDiagnostic(d);
    }
}

/* ---- every location of a kernel ---- */

typedef void (*loc_fn)(void *ctx, pc_loc l);

static void tiles_locs(const pc_tile_shapes *t, loc_fn fn, void *ctx)
{
    if (!t)
        return;
    fn(ctx, t->vec_loc);
    fn(ctx, t->cube_loc);
}

static void kernel_locs(const pc_kernel *k, loc_fn fn, void *ctx)
{
    fn(ctx, k->loc);
    fn(ctx, k->insert_loc);
    for (int i = 0; i < k->ntensors; i++)
        fn(ctx, k->tensors[i].loc);
    for (int i = 0; i < k->nstmts; i++) {
        const pc_stmt *s = &k->stmts[i];
        fn(ctx, s->loc);
        for (int a = 0; a < s->naccesses; a++)
            fn(ctx, s->accesses[a].loc);
        for (int b = 0; b < s->nbranches; b++)
            fn(ctx, s->branches[b].loc);
        tiles_locs(s->tiles, fn, ctx);
    }
    for (int i = 0; i < k->nloops; i++) {
        fn(ctx, k->loops[i].loc);
        fn(ctx, k->loops[i].header);
    }
}

typedef struct home_check {
    const pc_model *m;
    const uint32_t *lines;
    int nlines;
    size_t len;
    incr_regions *r;
    int home;
    bool bad;
    int touched[8];
    int ntouched;
    bool overflow;                 /* more regions than touched[] holds */
} home_check;

static void touch(home_check *h, int ri)
{
    if (ri < 0)
        return;
    for (int i = 0; i < h->ntouched; i++)
        if (h->touched[i] == ri)
            return;
    if (h->ntouched < 8)
        h->touched[h->ntouched++] = ri;
    else
        h->overflow = true;
}

static void home_loc(void *ctx, pc_loc l)
{
    home_check *h = ctx;
    if (!l.file || !l.line)
        return; /* not set */
    if (strcmp(l.file, h->m->file) != 0) {
        h->bad = true;
        return;
    }
    uint32_t off = off_of_loc(h->lines, h->nlines, h->len, l.line, l.col);
    uint32_t eoff = l.end_line ? off_of_loc(h->lines, h->nlines, h->len, l.end_line, l.end_col ? l.end_col : 1) : off;
    int ri = off == UINT32_MAX ? -1 : region_at(h->r, off);
    int re = eoff == UINT32_MAX ? -1 : eoff == off ? ri : region_at(h->r, eoff > off ? eoff - 1 : eoff);
    if (ri != h->home || re != h->home) {
        h->bad = true;
        touch(h, ri);
        touch(h, re);
    }
}

static int loc_region(const pc_model *m, const uint32_t *lines, int nlines, size_t len, const incr_regions *r,
                      pc_loc l)
{
    if (!l.file || !l.line || strcmp(l.file, m->file) != 0)
        return -1;
    uint32_t off = off_of_loc(lines, nlines, len, l.line, l.col);
    return off == UINT32_MAX ? -1 : region_at(r, off);
}

/* Regions holding part of a kernel found elsewhere, or a kernel reaching outside: not blankable.
 * Only regions in [from, to) are marked; true if one was. */
static bool mark_kernel_homes(const pc_model *m, const uint32_t *lines, int nlines, size_t len, incr_regions *r,
                              uint32_t from, uint32_t to)
{
    bool any = false;
    for (int k = 0; k < m->nkernels; k++) {
        home_check h = {m, lines, nlines, len, r, loc_region(m, lines, nlines, len, r, m->kernels[k].loc), false, {0},
                        0, false};
        kernel_locs(&m->kernels[k], home_loc, &h);
        if (!h.bad)
            continue;
        touch(&h, h.home);
        for (int i = 0; i < h.ntouched; i++) {
            incr_region *g = &r->items[h.touched[i]];
            if (g->body_begin >= from && g->body_begin < to) {
                g->blankable = false;
                any = true;
            }
        }
        if (h.overflow) /* more than it kept: be safe */
            for (size_t i = 0; i < r->count; i++)
                r->items[i].blankable = false;
    }
    for (int o = 0; o < m->noptions; o++) {
        const pc_option *op = &m->options[o];
        if (op->kernel < 0 || op->kernel >= m->nkernels)
            continue;
        int a = loc_region(m, lines, nlines, len, r, op->loc);
        int b = loc_region(m, lines, nlines, len, r, m->kernels[op->kernel].loc);
        if (a != b) {
            if (a >= 0)
                r->items[a].blankable = false;
            if (b >= 0)
                r->items[b].blankable = false;
            any = true;
        }
    }
    return any;
}

static int loc_order(pc_loc a, pc_loc b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    return a.col < b.col ? -1 : a.col > b.col;
}

/* Messages in a fixed order in editor mode: the main file's by location, then other files' by
 * name and location; equal places keep their order. */
static int msg_order(const pc_model *m, const pc_message *a, const pc_message *b)
{
    bool am = !a->loc.file || !strcmp(a->loc.file, m->file), bm = !b->loc.file || !strcmp(b->loc.file, m->file);
    if (am != bm)
        return am ? -1 : 1;
    if (!am) {
        int c = strcmp(a->loc.file, b->loc.file);
        if (c)
            return c;
    }
    return loc_order(a->loc, b->loc);
}

static void sort_messages(pc_model *m)
{
    int n = m->nmessages;
    if (n < 2)
        return;
    /* stable merge sort through a scratch copy */
    pc_message *tmp = pc_mem_alloc(sizeof *tmp * (size_t)n);
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = msg_order(m, &m->messages[j], &m->messages[i]) < 0 ? m->messages[j++] : m->messages[i++];
            while (i < mid)
                tmp[k++] = m->messages[i++];
            while (j < hi)
                tmp[k++] = m->messages[j++];
        }
        memcpy(m->messages, tmp, sizeof *tmp * (size_t)n);
    }
    pc_mem_free(tmp);
}

static void sort_options_by_loc(pc_model *m)
{
    for (int i = 1; i < m->noptions; i++)
        for (int j = i; j > 0 && loc_order(m->options[j - 1].loc, m->options[j].loc) > 0; j--) {
            pc_option t = m->options[j];
            m->options[j] = m->options[j - 1];
            m->options[j - 1] = t;
        }
}

static bool kernels_in_order(const pc_model *m)
{
    for (int k = 1; k < m->nkernels; k++)
        if (loc_order(m->kernels[k - 1].loc, m->kernels[k].loc) > 0)
            return false;
    return true;
}

/* ---- the plan for one parse ---- */

struct pc_clang_plan {
    bool active;
    pc_clang_incr *doc;
    char *blanked;                 /* the text clang parses: left-out bodies blank */
    int changed;                   /* region B, or -1 (the change is after the last body) */
    bool *reuse;                   /* per old region */
    int nreuse;
    int64_t shift;                 /* bytes added by the edit (new length - old length) */
    int64_t dlines;                /* lines added by the edit */
    uint32_t change_end_old;       /* the change is [change_begin, change_end_old) in the old text */
    uint32_t change_begin;
    incr_regions now;              /* the regions of the new text (the old ones moved) */
    pp_spans pp;                   /* the new text's directives */
    const char **gone;             /* what the left-out definitions declared, sorted (doc->names) */
    size_t ngone;
    region_refs refs;              /* the references this parse found, and the left-out ones' before */
    bool gap;                      /* the edit lies between definitions (changed is -1) */
    uint32_t edit_b, edit_e;       /* the edited text in the new text (changed is -1) */
    outside_decls outside;         /* the new text's declarations outside the regions */
};

static void plan_free(pc_clang_plan *p)
{
    pc_mem_free(p->blanked);
    pc_mem_free(p->reuse);
    pc_mem_free(p->gone);
    PC_VEC_FREE(p->refs);
    PC_VEC_FREE(p->outside);
    PC_VEC_FREE(p->now);
    PC_VEC_FREE(p->pp);
    memset(p, 0, sizeof *p);
}

/* Decide what the new text (len bytes) lets us leave out. */
static void plan_make(pc_frontend *fe, const char *abs_path, const char *key, const char *text, size_t len,
                      pc_clang_plan *p)
{
    memset(p, 0, sizeof *p);
    pc_clang_incr *d = incr_find(fe, abs_path);
    if (!d || !d->usable || !d->model || d->model->fatal || strcmp(d->key, key) != 0 || !d->regions.count)
        return;
    size_t pre = 0, lim = d->len < len ? d->len : len;
    while (pre < lim && d->text[pre] == text[pre])
        pre++;
    size_t suf = 0;
    while (suf < lim - pre && d->text[d->len - 1 - suf] == text[len - 1 - suf])
        suf++;
    uint32_t cb = (uint32_t)pre, ce = (uint32_t)(d->len - suf); /* [cb, ce) of the old text changed */
    if (pp_meets(&d->pp, cb, ce) || cb <= d->lead)
        return; /* a directive edited: what follows it may read differently (the translation
                 * unit does not list the preamble's, the ones at the top: an edit there reparses) */
    int changed = -1, ri = -1;
    bool gap = false;
    const incr_region *last = &d->regions.items[d->regions.count - 1];
    if (cb < last->body_end && (ri = region_at(&d->regions, cb)) >= 0 && ce <= d->regions.items[ri].head)
        ri = -1; /* text put in front of a definition's head: before it */
    if (cb < last->body_end && ri < 0) {
        /* between two definitions: it must not reach into the next one, nor touch a declaration
         * outside them (the new parse is checked again: plan_check_tu) */
        size_t next = region_ending_after(&d->regions, cb);
        if (next >= d->regions.count || ce > d->regions.items[next].head)
            return;
        for (size_t i = 0; i < d->outside.count; i++)
            if (!is_scope_kind(d->outside.items[i].kind) && d->outside.items[i].b <= ce && d->outside.items[i].e >= cb)
                return;
        gap = true;
    } else if (ri >= 0) {
        const incr_region *g = &d->regions.items[ri];
        if (cb < g->body_begin + 1 || ce > g->body_end - 1 || g->referenced || g->value_fn)
            return; /* a helper: its callers read it */
        changed = ri;
    }
    uint32_t cl0 = line_of_off(d->lines, d->nlines, cb), cl1 = line_of_off(d->lines, d->nlines, ce);
    int new_lines = 1;
    for (size_t i = 0; i < len; i++)
        new_lines += text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'));
    p->shift = (int64_t)len - (int64_t)d->len;
    p->dlines = (int64_t)new_lines - (int64_t)d->nlines;
    p->reuse = pc_mem_calloc(d->regions.count, sizeof *p->reuse);
    p->blanked = pc_mem_strndup(text, len);
    size_t nreuse = 0;
    for (size_t i = 0; i < d->regions.count; i++) {
        incr_region g = d->regions.items[i];
        bool before = g.body_end <= cb && g.line1 < cl0, after = g.head >= ce && g.line0 > cl1;
        if (after) {
            shift_region(&g, p->shift, p->dlines, true);
        } else if ((int)i == changed) {
            g.body_end = (uint32_t)((int64_t)g.body_end + p->shift);
            g.line1 = (uint32_t)((int64_t)g.line1 + p->dlines);
        } else if (!before) {
            /* shares a line with the change: parsed, and its flags as they were (the text is too) */
            if (g.body_begin >= ce)
                shift_region(&g, p->shift, p->dlines, g.head >= ce);
        }
        PC_VEC_PUSH(p->now, g);
        p->reuse[i] = (before || after) && g.blankable && !g.value_fn;
    }
    /* A definition something parsed names is parsed (a helper a parsed kernel may inline); one
     * named only from left-out definitions is left out with them: the previous analysis of those
     * is taken whole. */
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < d->refs.count; i++) {
            region_ref e = d->refs.items[i];
            if (p->reuse[e.to] && (e.from < 0 || !p->reuse[e.from])) {
                p->reuse[e.to] = false;
                again = true;
            }
        }
    }
    for (size_t i = 0; i < d->regions.count; i++) {
        if (!p->reuse[i])
            continue;
        const incr_region *g = &p->now.items[i];
        nreuse++;
        /* the whole definition: its head (a TEST_F's class) costs clang as much as a body */
        for (uint32_t o = g->head; o < g->body_end; o++)
            if (p->blanked[o] != '\n' && p->blanked[o] != '\r')
                p->blanked[o] = ' ';
    }
    if (!nreuse) {
        plan_free(p);
        return;
    }
    p->gone = pc_mem_alloc(sizeof *p->gone * (d->names.count ? d->names.count : 1));
    for (size_t i = 0; i < d->names.count; i++)
        if (p->reuse[d->names.items[i].region])
            p->gone[p->ngone++] = d->names.items[i].name;
    qsort(p->gone, p->ngone, sizeof *p->gone, str_cmp);
    p->doc = d;
    p->nreuse = (int)nreuse;
    p->changed = changed;
    p->change_begin = cb;
    p->change_end_old = ce;
    p->gap = gap;
    p->edit_b = gap ? cb : p->now.items[p->now.count - 1].body_end;
    p->edit_e = gap ? (uint32_t)((int64_t)ce + p->shift) : (uint32_t)len;
    p->active = true;
}

/* Does the parse of the blanked text look as the plan expects?  (See the comment at the top of the file.) */
static bool plan_check_tu(pc_clang_plan *p, CXTranslationUnit tu, CXFile main, const char *text, size_t len,
                          const uint32_t *lines, int nlines)
{
    /* the headers as they were */
    char *sig = inclusion_signature(&p->doc->inc_paths);
    bool same = !strcmp(sig, p->doc->includes ? p->doc->includes : "");
    pc_mem_free(sig);
    if (!same)
        return false;
    cursor_vec tops = {0};
    collect_tops(tu, main, &tops);
    incr_regions got = {0};
    collect_regions(&tops, main, text, len, lines, nlines, &got);
    bool ok = true;
    bool *skip = pc_mem_calloc(p->now.count ? p->now.count : 1, sizeof *skip);
    bool changed_value_fn = false;
    for (size_t i = 0; i < p->now.count; i++)
        skip[i] = p->reuse[i];
    /* the left-out definitions are blanks; the edited one starts, and ends, where it should */
    if (p->changed >= 0) {
        const incr_region *want = &p->now.items[p->changed];
        size_t j = 0;
        while (j < got.count && got.items[j].body_begin < want->body_begin)
            j++;
        ok = j < got.count && got.items[j].body_begin == want->body_begin && got.items[j].body_end == want->body_end &&
             got.items[j].fn_loc == want->fn_loc && got.items[j].head == want->head;
        if (ok)
            changed_value_fn = got.items[j].value_fn;
    }
    PC_VEC_FREE(got);
    /* the declarations outside the definitions as before, moved: an edit between two definitions
     * changed a comment or blank lines, no declaration (nor a namespace's braces) */
    collect_outside(&tops, main, &p->now, &p->outside);
    if (ok && p->gap) {
        const outside_decls *was = &p->doc->outside;
        ok = was->count == p->outside.count;
        for (size_t i = 0; ok && i < was->count; i++) {
            outside_decl w = was->items[i], n = p->outside.items[i];
            if (w.b >= p->change_end_old)
                w.b = (uint32_t)((int64_t)w.b + p->shift);
            if (w.e >= p->change_end_old)
                w.e = (uint32_t)((int64_t)w.e + p->shift);
            ok = w.kind == n.kind && w.b == n.b && w.e == n.e &&
                 (is_scope_kind(n.kind) || n.e < p->edit_b || n.b > p->edit_e);
        }
    }
    /* the directives and skipped ranges as before, moved: none was added by the edit, and an
     * #if the edit left open did not skip more */
    if (ok) {
        collect_pp(tu, &tops, main, &p->pp);
        const pp_spans *was = &p->doc->pp;
        ok = was->count == p->pp.count;
        for (size_t i = 0; ok && i < was->count; i++) {
            pp_span w = was->items[i];
            if (w.b >= p->change_end_old) {
                w.b = (uint32_t)((int64_t)w.b + p->shift);
                w.e = (uint32_t)((int64_t)w.e + p->shift);
            }
            ok = w.b == p->pp.items[i].b && w.e == p->pp.items[i].e;
        }
    }
    /* an edit that makes a function a one-`return` helper may change what its callers read */
    if (ok && p->changed >= 0) {
        ok = !changed_value_fn;
        p->now.items[p->changed].blankable = true; /* its flags anew, from its new text */
    }
    /* nothing parsed may name what a left-out definition declared (a reference, or an error
     * quoting the name: the declaration is not there); names of the others are noted */
    if (ok) {
        uint32_t eb = p->changed >= 0 ? p->now.items[p->changed].body_begin : p->edit_b;
        uint32_t ee = p->changed >= 0 ? p->now.items[p->changed].body_end : p->edit_e;
        ok = !mark_references(&tops, main, &p->now, skip, p->gone, p->ngone, eb, ee, &p->refs) &&
             !names_in_diagnostics(tu, main, p->gone, p->ngone, eb, ee);
        /* the left-out definitions' references are the ones their text made before */
        for (size_t i = 0; ok && i < p->doc->refs.count; i++)
            if (p->doc->refs.items[i].from >= 0 && p->reuse[p->doc->refs.items[i].from])
                PC_VEC_PUSH(p->refs, p->doc->refs.items[i]);
    }
    pc_mem_free(skip);
    PC_VEC_FREE(tops);
    return ok;
}

/* Nothing the walk found may sit in a left-out body. */
static bool plan_check_model(const pc_clang_plan *p, const pc_model *n, const uint32_t *lines, int nlines, size_t len)
{
    for (int k = 0; k < n->nkernels; k++) {
        int ri = loc_region(n, lines, nlines, len, &p->now, n->kernels[k].loc);
        if (ri >= 0 && p->reuse[ri])
            return false;
    }
    for (int i = 0; i < n->nmessages; i++) {
        int ri = loc_region(n, lines, nlines, len, &p->now, n->messages[i].loc);
        if (ri >= 0 && p->reuse[ri])
            return false;
    }
    for (int i = 0; i < n->noptions; i++) {
        int ri = loc_region(n, lines, nlines, len, &p->now, n->options[i].loc);
        if (ri >= 0 && p->reuse[ri])
            return false;
    }
    return kernels_in_order(n);
}

/* The previous model's item at l (old text) is carried when it sits in a reused body: which one. */
static int carried_region(const pc_clang_plan *p, const pc_model *old, pc_loc l)
{
    const pc_clang_incr *d = p->doc;
    int ri = loc_region(old, d->lines, d->nlines, d->len, &d->regions, l);
    return ri >= 0 && p->reuse[ri] ? ri : -1;
}

/* The merged model: n's items and the previous model's of the reused bodies, in order. */
static pc_model *plan_merge(const pc_clang_plan *p, const pc_model *n)
{
    const pc_model *old = p->doc->model;
    pc_model *m = pc_model_new(n->file, n->lang);
    pc_model_copier *cn = pc_model_copier_new(m, n), *co = pc_model_copier_new(m, old);
    int *nmap = pc_mem_calloc((size_t)(n->nkernels ? n->nkernels : 1), sizeof *nmap);
    int *omap = pc_mem_calloc((size_t)(old->nkernels ? old->nkernels : 1), sizeof *omap);
    int i = 0, j = 0;
    for (int k = 0; k < old->nkernels; k++)
        omap[k] = -1;
    while (i < n->nkernels || j < old->nkernels) {
        int rj = j < old->nkernels ? carried_region(p, old, old->kernels[j].loc) : -1;
        if (j < old->nkernels && rj < 0) {
            j++;
            continue;
        }
        bool take_old = false;
        if (j < old->nkernels) {
            pc_loc ol = old->kernels[j].loc;
            if (p->reuse[rj] && p->doc->regions.items[rj].body_begin >= p->change_end_old)
                ol.line = (uint32_t)((int64_t)ol.line + p->dlines);
            take_old = i >= n->nkernels || loc_order(ol, n->kernels[i].loc) < 0;
        }
        if (take_old) {
            pc_model_copier_set_line_delta(co, p->doc->regions.items[rj].body_begin >= p->change_end_old ? p->dlines : 0);
            omap[j] = pc_model_copier_kernel(co, &old->kernels[j]);
            j++;
        } else {
            nmap[i] = pc_model_copier_kernel(cn, &n->kernels[i]);
            i++;
        }
    }
    for (int o = 0; o < n->noptions; o++) {
        int k = n->options[o].kernel;
        pc_model_copier_option(cn, &n->options[o], k >= 0 && k < n->nkernels ? nmap[k] : k);
    }
    for (int o = 0; o < old->noptions; o++) {
        int ri = carried_region(p, old, old->options[o].loc);
        if (ri < 0)
            continue;
        pc_model_copier_set_line_delta(co, p->doc->regions.items[ri].body_begin >= p->change_end_old ? p->dlines : 0);
        int k = old->options[o].kernel;
        pc_model_copier_option(co, &old->options[o], k >= 0 && k < old->nkernels ? omap[k] : k);
    }
    sort_options_by_loc(m);
    for (int x = 0; x < n->nmessages; x++)
        pc_model_copier_message(cn, &n->messages[x]);
    for (int x = 0; x < old->nmessages; x++) {
        int ri = carried_region(p, old, old->messages[x].loc);
        if (ri < 0)
            continue;
        pc_model_copier_set_line_delta(co, p->doc->regions.items[ri].body_begin >= p->change_end_old ? p->dlines : 0);
        pc_model_copier_message(co, &old->messages[x]);
    }
    sort_messages(m);
    m->fatal = n->fatal;
    pc_mem_free(nmap);
    pc_mem_free(omap);
    pc_model_copier_free(cn);
    pc_model_copier_free(co);
    return m;
}

/* Remember the analysis of text for the next edit.  regions: this text's (taken). */
static void incr_store(pc_frontend *fe, const char *abs_path, const char *key, const char *text, size_t len,
                       const uint32_t *lines, int nlines, incr_regions *regions, region_names *names,
                       region_refs *refs, outside_decls *outside, pp_spans *pp, path_vec *includes,
                       const pc_model *m, int reused)
{
    if (!fe->clang_incr)
        fe->clang_incr = pc_mem_calloc(1, sizeof *fe->clang_incr);
    pc_clang_incr *d = incr_find(fe, abs_path);
    if (!d) {
        d = pc_mem_calloc(1, sizeof *d);
        d->path = pc_mem_strdup(abs_path);
        PC_VEC_PUSH(fe->clang_incr->docs, d);
    }
    pc_mem_free(d->key);
    pc_mem_free(d->text);
    pc_mem_free(d->lines);
    PC_VEC_FREE(d->regions);
    pc_model_free(d->model);
    d->key = pc_mem_strdup(key);
    d->text = pc_mem_strndup(text, len);
    d->len = len;
    /* the parse's line table: blanking keeps every line break */
    d->lines = pc_mem_alloc(sizeof *d->lines * (size_t)(nlines ? nlines : 1));
    memcpy(d->lines, lines, sizeof *d->lines * (size_t)nlines);
    d->nlines = nlines;
    d->regions = *regions;
    memset(regions, 0, sizeof *regions);
    PC_VEC_FREE(d->refs);
    d->refs = *refs;
    memset(refs, 0, sizeof *refs);
    PC_VEC_FREE(d->outside);
    d->outside = *outside;
    memset(outside, 0, sizeof *outside);
    if (names) { /* else the regions are the ones before, moved: their names stand */
        region_names_free(&d->names);
        d->names = *names;
        memset(names, 0, sizeof *names);
    }
    PC_VEC_FREE(d->pp);
    d->pp = *pp;
    memset(pp, 0, sizeof *pp);
    if (includes) { /* a parse of the whole text: its inclusions (else the ones before stand) */
        paths_free(&d->inc_paths);
        d->inc_paths = *includes;
        memset(includes, 0, sizeof *includes);
        pc_mem_free(d->includes);
        d->includes = inclusion_signature(&d->inc_paths);
    }
    d->model = pc_model_copy(m);
    d->usable = kernels_in_order(m);
    d->reused = reused;
}

/* ---- the interface (clang_int.h) ---- */

pc_clang_plan *pc_clang_incr_plan(pc_frontend *fe, const char *path, const char *key, char **text, size_t len)
{
    pc_clang_plan *p = pc_mem_alloc(sizeof *p);
    plan_make(fe, path, key, *text, len, p);
    if (!p->active) {
        plan_free(p);
        pc_mem_free(p);
        return NULL;
    }
    /* clang parses the blanked text; the plan keeps the whole one */
    char *whole = *text;
    *text = p->blanked;
    p->blanked = whole;
    return p;
}

void pc_clang_incr_plan_free(pc_clang_plan *p, char **text)
{
    if (!p)
        return;
    char *whole = p->blanked;
    p->blanked = *text;
    *text = whole;
    plan_free(p);
    pc_mem_free(p);
}

bool pc_clang_incr_check_tu(pc_clang_plan *p, const pc_cx *cx)
{
    return plan_check_tu(p, cx->tu, cx->main_file, cx->src, cx->srclen, cx->line_start, cx->nlines);
}

bool pc_clang_incr_check_model(const pc_clang_plan *p, const pc_cx *cx)
{
    return plan_check_model(p, cx->m, cx->line_start, cx->nlines, cx->srclen);
}

pc_model *pc_clang_incr_merge(pc_frontend *fe, pc_clang_plan *p, const char *path, const char *key, const pc_cx *cx)
{
    /* the left-out bodies' kernels, messages and option sites from the previous analysis */
    pc_model *m = plan_merge(p, cx->m);
    if (p->changed >= 0) {
        const incr_region *b = &p->now.items[p->changed];
        mark_kernel_homes(m, cx->line_start, cx->nlines, cx->srclen, &p->now, b->body_begin, b->body_begin + 1);
    }
    mark_diag_notes(cx->tu, cx->main_file, &p->now);
    /* the whole text is what the next edit is compared with */
    incr_store(fe, path, key, p->blanked, cx->srclen, cx->line_start, cx->nlines, &p->now, NULL, &p->refs,
               &p->outside, &p->pp, NULL, m, p->nreuse);
    return m;
}

void pc_clang_incr_remember(pc_frontend *fe, const char *path, const char *key, const pc_cx *cx)
{
    pc_model *m = cx->m;
    sort_messages(m);
    if (!cx->main_file || m->fatal) {
        pc_clang_incr_release(fe->clang_incr, path);
        return;
    }
    CXTranslationUnit tu = cx->tu;
    CXFile main = cx->main_file;
    incr_regions regions = {0};
    cursor_vec tops = {0};
    collect_tops(tu, main, &tops);
    collect_regions(&tops, main, cx->src, cx->srclen, cx->line_start, cx->nlines, &regions);
    pp_spans pp = {0};
    collect_pp(tu, &tops, main, &pp);
    mark_pp(&regions, &pp);
    region_refs refs = {0};
    mark_references(&tops, main, &regions, NULL, NULL, 0, 0, 0, &refs);
    region_names names = {0};
    collect_region_names(&tops, main, &regions, &names);
    outside_decls outside = {0};
    collect_outside(&tops, main, &regions, &outside);
    mark_diag_notes(tu, main, &regions);
    mark_kernel_homes(m, cx->line_start, cx->nlines, cx->srclen, &regions, 0, UINT32_MAX);
    uint32_t lead = UINT32_MAX;
    for (size_t i = 0; i < tops.count; i++) {
        uint32_t b, e;
        if (range_offsets(clang_getCursorExtent(tops.items[i]), main, &b, &e) && b < lead)
            lead = b;
    }
    path_vec includes = {0};
    inclusion_paths(tu, &includes);
    incr_store(fe, path, key, cx->src, cx->srclen, cx->line_start, cx->nlines, &regions, &names, &refs, &outside, &pp,
               &includes, m, 0);
    incr_find(fe, path)->lead = lead;
    PC_VEC_FREE(tops);
    region_names_free(&names);
    PC_VEC_FREE(regions);
    PC_VEC_FREE(pp);
}
