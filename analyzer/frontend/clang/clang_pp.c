/*
 * clang_pp.c - what the preprocessor decided, read back from libclang: object-like macro
 * definitions that are in effect (CXCursor_MacroDefinition cursors of the detailed preprocessing
 * record, so `#ifdef BIG / #define TRIPS 64 / #else / #define TRIPS 8` under -DBIG gives the 64
 * one and nothing in an `#if 0` block exists), and the ranges the preprocessor skipped.
 *
 * Macro values matter because LOOP / FUNCTION / IF headers reach the walker as stringified macro
 * arguments (the stub's markers): `LoopRange(0, TRIPS, 1)` is read from the header's tokens, where
 * TRIPS is not expanded.  A macro's body has no AST; its tokens come from clang_tokenize over the
 * definition's extent (libclang's lexer, not poolcheck's).
 */
#include "clang_int.h"

#include <string.h>

typedef struct macro_scan {
    pc_cx *cx;
    pc_clang_macro_fn fn;
    void *data;
    int count;
} macro_scan;

/* The tokens of a macro definition after its name, as pc_ctoks over arena copies. */
static void macro_body(pc_cx *cx, CXCursor def, pc_ctoks *out)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(cx->tu, clang_getCursorExtent(def), &toks, &n);
    for (unsigned i = 1; i < n; i++) { /* token 0 is the macro's name */
        CXString s = clang_getTokenSpelling(cx->tu, toks[i]);
        const char *text = pc_arena_strdup(cx->scratch, clang_getCString(s) ? clang_getCString(s) : "");
        clang_disposeString(s);
        pc_ctok t;
        memset(&t, 0, sizeof t);
        switch (clang_getTokenKind(toks[i])) {
        case CXToken_Identifier:
        case CXToken_Keyword:
            t.kind = PC_CTOK_IDENT;
            break;
        case CXToken_Literal:
            t.kind = text[0] == '"' || strchr(text, '"') ? PC_CTOK_STRING : text[0] == '\'' ? PC_CTOK_CHAR : PC_CTOK_NUMBER;
            break;
        case CXToken_Comment:
            continue;
        default:
            t.kind = PC_CTOK_PUNCT;
            break;
        }
        t.text = text;
        t.len = (uint32_t)strlen(text);
        t.off = 0;
        PC_VEC_PUSH(*out, t);
    }
    if (toks)
        clang_disposeTokens(cx->tu, toks, n);
}

static enum CXChildVisitResult macro_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    macro_scan *ms = d;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    ms->count++;
    CXSourceLocation l = clang_getCursorLocation(c);
    CXFile f = NULL;
    clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
    /* builtins and the command line (no file: -D values are read from the arguments), the
     * stub's own macros and system headers are not the kernel's constants */
    if (!f || clang_Location_isInSystemHeader(l) || clang_Cursor_isMacroFunctionLike(c) || clang_Cursor_isMacroBuiltin(c))
        return CXChildVisit_Continue;
    CXString fn = clang_getFileName(f);
    const char *path = clang_getCString(fn);
    size_t pl = path ? strlen(path) : 0, sl = strlen(PC_CLANG_STUB_NAME);
    bool stub = pl >= sl && !strcmp(path + pl - sl, PC_CLANG_STUB_NAME);
    clang_disposeString(fn);
    if (stub)
        return CXChildVisit_Continue;
    CXString ns = clang_getCursorSpelling(c);
    const char *name = pc_arena_strdup(ms->cx->scratch, clang_getCString(ns) ? clang_getCString(ns) : "");
    clang_disposeString(ns);
    pc_ctoks body = {0};
    macro_body(ms->cx, c, &body);
    ms->fn(ms->cx, name, body.items, (int)body.count, ms->data);
    PC_VEC_FREE(body);
    return CXChildVisit_Continue;
}

bool pc_clang_macros(pc_cx *cx, pc_clang_macro_fn fn, void *data)
{
    macro_scan ms = {cx, fn, data, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(cx->tu), macro_visit, &ms);
    /* every translation unit with a preprocessing record holds definitions (the stub's, the
     * PyPTO headers', the compiler's builtins); none at all means no record was kept */
    return ms.count > 0;
}

void pc_clang_skipped_ranges(pc_cx *cx)
{
    cx->skipped.count = 0;
    if (!cx->main_file)
        return;
    CXSourceRangeList *l = clang_getSkippedRanges(cx->tu, cx->main_file);
    if (!l)
        return;
    for (unsigned i = 0; i < l->count; i++) {
        unsigned b = 0, e = 0;
        clang_getFileLocation(clang_getRangeStart(l->ranges[i]), NULL, NULL, NULL, &b);
        clang_getFileLocation(clang_getRangeEnd(l->ranges[i]), NULL, NULL, NULL, &e);
        if (e > b)
            PC_VEC_PUSH(cx->skipped, ((pc_cspan){-1, -1, b, e}));
    }
    clang_disposeSourceRangeList(l);
}

bool pc_clang_is_skipped(const pc_cx *cx, uint32_t off)
{
    for (size_t i = 0; i < cx->skipped.count; i++)
        if (off >= cx->skipped.items[i].begin && off < cx->skipped.items[i].end)
            return true;
    return false;
}
