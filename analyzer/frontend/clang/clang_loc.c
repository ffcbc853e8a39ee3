/* clang_loc.c - where cursors are: byte offsets of a cursor's extent in the file being walked,
 * line / column locations for the model, a cursor's tokens and spelling, its children, and
 * whether its tokens mention a word. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <ctype.h>
#include <string.h>

/* ---- locations ------------------------------------------------------------------------------ */

bool pc_clang_main_offset(pc_cx *cx, CXSourceLocation l, uint32_t *off)
{
    CXFile f;
    unsigned o;
    clang_getExpansionLocation(l, &f, NULL, NULL, &o);
    if (!f || !clang_File_isEqual(f, cx->main_file))
        return false;
    *off = o;
    return true;
}

bool pc_clang_offsets(pc_cx *cx, CXCursor c, uint32_t *begin, uint32_t *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    if (!pc_clang_main_offset(cx, clang_getRangeStart(r), begin))
        return false;
    if (!pc_clang_main_offset(cx, clang_getRangeEnd(r), end) || *end < *begin)
        *end = *begin;
    return true;
}

bool pc_clang_written_offsets(pc_cx *cx, CXCursor c, uint32_t *begin, uint32_t *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    unsigned ob = 0, oe = 0;
    clang_getFileLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
    clang_getFileLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
    if (!fb || !fe || !clang_File_isEqual(fb, cx->main_file) || !clang_File_isEqual(fe, cx->main_file) || oe < ob)
        return false;
    *begin = ob;
    *end = oe;
    return true;
}

static void line_col(pc_cx *cx, uint32_t off, uint32_t *line, uint32_t *col)
{
    int lo = 0, hi = cx->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (cx->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = (uint32_t)lo + 1;
    *col = off - cx->line_start[lo] + 1;
}

pc_loc pc_clang_loc_range(pc_cx *cx, uint32_t begin, uint32_t end)
{
    uint32_t l1, c1, l2, c2;
    line_col(cx, begin, &l1, &c1);
    line_col(cx, end, &l2, &c2);
    return pc_model_loc(cx->m, cx->src_name ? cx->src_name : cx->m->file, l1, c1, l2, c2);
}

pc_loc pc_clang_cursor_loc(pc_cx *cx, CXCursor c)
{
    uint32_t b, e;
    if (pc_clang_offsets(cx, c, &b, &e))
        return pc_clang_loc_range(cx, b, e);
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
    CXString name = clang_getFileName(f);
    const char *fn = clang_getCString(name);
    pc_loc l = pc_model_loc(cx->m, fn ? fn : cx->m->file, line, col, 0, 0);
    clang_disposeString(name);
    return l;
}

/* The location of a declaration's name (its cursor location), one token long. */
pc_loc pc_clang_name_loc(pc_cx *cx, CXCursor decl, const char *name)
{
    uint32_t off;
    if (pc_clang_main_offset(cx, clang_getCursorLocation(decl), &off))
        return pc_clang_loc_range(cx, off, off + (uint32_t)strlen(name));
    return pc_clang_cursor_loc(cx, decl);
}

/* ---- tokens -------------------------------------------------------------------------------- */

/* The statements of a kernel file each ask for the tokens of their own extent (declarations, LOOP
 * headers, options), and the LOOP / FUNCTION cross-check needs the whole file's: the main file is
 * lexed once and a range is a slice of that, which is what lexing the range gives when the range
 * starts and ends between tokens (the lexer's state there is the same: not inside a comment, a
 * string or a directive, and after a token `#` cannot open a directive). */
const pc_ctoks *pc_clang_main_tokens(pc_cx *cx)
{
    if (!cx->in_main)
        return NULL;
    if (!cx->main_toks_src) {
        cx->main_toks.count = 0;
        pc_clang_lex(cx->src, 0, cx->srclen, &cx->main_toks);
        cx->main_toks_src = cx->src;
    }
    return cx->main_toks_src == cx->src ? &cx->main_toks : NULL;
}

/* The index of the first token at or after off. */
static size_t first_token_at(const pc_ctoks *t, size_t off)
{
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->items[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t pc_clang_declaration_end(pc_cx *cx, uint32_t from, uint32_t limit)
{
    const pc_ctoks *t = pc_clang_main_tokens(cx);
    if (!t)
        return from;
    int depth = 0;
    for (size_t i = first_token_at(t, from); i < t->count && t->items[i].off < limit; i++) {
        const pc_ctok *k = &t->items[i];
        if (pc_ctok_is(k, "(") || pc_ctok_is(k, "[") || pc_ctok_is(k, "{"))
            depth++;
        else if ((pc_ctok_is(k, ")") || pc_ctok_is(k, "]") || pc_ctok_is(k, "}")) && --depth < 0)
            return k->off;
        else if ((pc_ctok_is(k, ";") || pc_ctok_is(k, ",")) && depth == 0)
            return k->off;
    }
    return limit;
}

uint32_t pc_clang_block_end(pc_cx *cx, uint32_t open, uint32_t end)
{
    const pc_ctoks *t = pc_clang_main_tokens(cx);
    size_t i = t ? first_token_at(t, open) : 0;
    if (!t || i >= t->count || t->items[i].off != open || !pc_ctok_is(&t->items[i], "{"))
        return end;
    int depth = 0;
    for (; i < t->count; i++) {
        const pc_ctok *k = &t->items[i];
        if (pc_ctok_is(k, "{"))
            depth++;
        else if (pc_ctok_is(k, "}") && --depth == 0)
            return k->off + 1 > end ? k->off + 1 : end;
    }
    return end;
}

/* Does lexing cx->src[begin, end) give the main tokens [*lo, *hi)?  Where the range starts: at
 * the file's start, at a token (not `#`, which lexed from a line's start would open a directive),
 * or right after one.  Where it ends: no token crosses it, and the last byte before it is not
 * the first of a two-byte construct cut in two (`//`, slash-star, a backslash before a newline). */
static bool main_slice(pc_cx *cx, const pc_ctoks *t, size_t begin, size_t end, size_t *lo, size_t *hi)
{
    if (begin > end || end > cx->srclen)
        return false;
    size_t a = first_token_at(t, begin);
    bool at_token = a < t->count && t->items[a].off == begin;
    if (at_token && t->items[a].len == 1 && t->items[a].text[0] == '#')
        return false;
    bool after_token = a > 0 && t->items[a - 1].off + t->items[a - 1].len == begin;
    if (begin != 0 && !at_token && !after_token)
        return false;
    size_t b = first_token_at(t, end);
    if (b > a && t->items[b - 1].off + t->items[b - 1].len > end)
        return false;
    if (end > 0 && end < cx->srclen && (cx->src[end - 1] == '/' || cx->src[end - 1] == '\\'))
        return false;
    *lo = a;
    *hi = b < a ? a : b;
    return true;
}

void pc_clang_src_lex(pc_cx *cx, size_t begin, size_t end, pc_ctoks *out)
{
    const pc_ctoks *t = pc_clang_main_tokens(cx);
    size_t lo, hi;
    if (!t || !main_slice(cx, t, begin, end, &lo, &hi)) {
        pc_clang_lex(cx->src, begin, end, out);
        return;
    }
    for (size_t i = lo; i < hi; i++)
        PC_VEC_PUSH(*out, t->items[i]);
}

bool pc_clang_cursor_tokens(pc_cx *cx, CXCursor c, pc_ctoks *out)
{
    uint32_t b, e;
    out->count = 0;
    if (!pc_clang_offsets(cx, c, &b, &e) || e <= b)
        return false;
    pc_clang_src_lex(cx, b, e, out);
    return true;
}

const char *pc_clang_src_spelling(pc_cx *cx, uint32_t begin, uint32_t end)
{
    pc_sb b = {0};
    char prev = 0;
    bool gap = false;
    for (uint32_t i = begin; i < end && i < cx->srclen; i++) {
        char c = cx->src[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            gap = true;
            continue;
        }
        bool word = isalnum((unsigned char)c) || c == '_';
        if (gap && word && (isalnum((unsigned char)prev) || prev == '_'))
            pc_sb_putc(&b, ' ');
        pc_sb_putc(&b, c);
        prev = c;
        gap = false;
    }
    char *s = pc_sb_take(&b);
    const char *r = pc_arena_strdup(cx->scratch, s ? s : "");
    pc_mem_free(s);
    return r;
}

/* A cursor's spelling as a scratch-arena string ("" when it has none). */
const char *pc_clang_spelling(pc_cx *cx, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *r = pc_arena_strdup(cx->scratch, clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

/* ---- children ------------------------------------------------------------------------------- */

/* The index is created with excludeDeclarationsFromPCH (clang_frontend.c): the translation unit's
 * children are then the declarations clang parsed for it (and, in editor mode, the preamble's
 * top-level declarations), not every declaration and macro a precompiled stub holds, which a visit
 * would otherwise deserialise on each parse.  That list also holds what Sema handed its consumer
 * at top level after parsing: the implicit instantiations of function templates and of class
 * templates' members.  They are not text; they stand where their template stands (an explicit
 * specialisation stands where it is written). */
static bool implicit_instance(CXCursor c)
{
    CXCursor t = clang_getSpecializedCursorTemplate(c);
    return !clang_Cursor_isNull(t) && clang_equalLocations(clang_getCursorLocation(c), clang_getCursorLocation(t));
}

typedef struct tu_visit {
    CXCursorVisitor fn;
    CXClientData data;
} tu_visit;

static enum CXChildVisitResult tu_filter(CXCursor c, CXCursor parent, CXClientData d)
{
    const tu_visit *v = d;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && implicit_instance(c))
        return CXChildVisit_Continue;
    return v->fn(c, parent, v->data);
}

void pc_clang_visit_tu(CXTranslationUnit tu, CXCursorVisitor fn, CXClientData data)
{
    tu_visit v = {fn, data};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), tu_filter, &v);
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
    pc_clang_cursors *v = d;
    if (clang_getCursorKind(parent) != CXCursor_TranslationUnit || !implicit_instance(c))
        PC_VEC_PUSH(*v, c);
    return CXChildVisit_Continue;
}

void pc_clang_children(CXCursor c, pc_clang_cursors *out)
{
    out->count = 0;
    clang_visitChildren(c, collect, out);
}

/* Is `word` one of the tokens of c's extent (main file only)? */
bool pc_clang_mentions(pc_cx *cx, CXCursor c, const char *word)
{
    pc_ctoks toks = {0};
    bool found = false;
    if (pc_clang_cursor_tokens(cx, c, &toks))
        for (size_t i = 0; i < toks.count && !found; i++)
            found = pc_ctok_is(&toks.items[i], word);
    PC_VEC_FREE(toks);
    return found;
}

