/*
 * clang_pp.c - what the preprocessor decided, read back from libclang: object-like macro
 * definitions that are in effect (CXCursor_MacroDefinition cursors of the detailed preprocessing
 * record, so `#ifdef BIG / #define TRIPS 64 / #else / #define TRIPS 8` under -DBIG gives the 64
 * one and nothing in an `#if 0` block exists), and the ranges the preprocessor skipped.
 *
 * Macro values matter because written text is read from tokens where the cursor reader has no
 * model of an expression, or clang dropped it (a LOOP header with an error): there TRIPS in
 * `LoopRange(0, TRIPS, 1)` is not expanded.  A macro's body has no AST; its tokens come from clang_tokenize over the
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

/* A value for NAME from the tokens of its definition: integer, string, dtype or list. */
static void define_value(pc_cx *cx, const char *name, const pc_ctok *t, int n)
{
    if (n <= 0)
        return;
    pc_dtype dt = pc_clang_dtype(cx, t, n);
    const char *str = t[0].kind == PC_CTOK_STRING ? pc_clang_string_arg(cx, t, n) : NULL;
    const pc_expr **list;
    int nl;
    int e;
    if (str) {
        e = pc_clang_env_push(cx, PC_CENV_STRING, name, NULL);
        cx->env.items[e].str = str;
    } else if (n == 1 && dt != PC_DT_UNKNOWN) {
        e = pc_clang_env_push(cx, PC_CENV_DTYPE, name, NULL);
        cx->env.items[e].dtype = dt;
    } else if (pc_ctok_is(&t[0], "{") && pc_clang_shape_list(cx, t, n, &list, &nl)) {
        e = pc_clang_env_push(cx, PC_CENV_LIST, name, NULL);
        cx->env.items[e].list = list;
        cx->env.items[e].nlist = nl;
    } else {
        const pc_expr *v = pc_clang_int_expr(cx, t, n);
        if (v && !pc_clang_has_opaque(v)) {
            e = pc_clang_env_push(cx, PC_CENV_EXPR, name, NULL);
            cx->env.items[e].expr = v;
        }
    }
}

static void define_cb(pc_cx *cx, const char *name, const pc_ctok *t, int n, void *data)
{
    (void)data;
    define_value(cx, name, t, n);
}

/* Object-like macros poolcheck can read values from: -DNAME=VALUE arguments, then the
 * definitions the preprocessor kept (clang_pp.c: inactive #if branches have none).  Kernels use
 * them as constants in LoopRange and shapes, which written text read from tokens carries
 * unexpanded.  A translation unit without a preprocessing record falls back to the main file's
 * `#define` lines (in order; #undef forgets). */
void pc_clang_scan_defines(pc_cx *cx)
{
    for (int i = 0; i < cx->nargs; i++) {
        const char *a = cx->args[i];
        const char *def = NULL;
        if (!strncmp(a, "-D", 2) && a[2])
            def = a + 2;
        else if (!strcmp(a, "-D") && i + 1 < cx->nargs)
            def = cx->args[++i];
        if (!def)
            continue;
        const char *eq = strchr(def, '=');
        const char *name = pc_arena_strndup(cx->scratch, def, eq ? (size_t)(eq - def) : strlen(def));
        const char *val = eq ? eq + 1 : "1";
        pc_ctoks toks = {0};
        pc_clang_lex(val, 0, strlen(val), &toks);
        if (!strchr(name, '('))
            define_value(cx, name, toks.items, (int)toks.count);
        PC_VEC_FREE(toks);
    }
    if (pc_clang_macros(cx, define_cb, NULL))
        return;
    for (int l = 0; l < cx->nlines; l++) {
        size_t b = cx->line_start[l], e = l + 1 < cx->nlines ? cx->line_start[l + 1] : cx->srclen;
        size_t i = b;
        while (i < e && (cx->src[i] == ' ' || cx->src[i] == '\t'))
            i++;
        if (i >= e || cx->src[i] != '#')
            continue;
        i++;
        while (i < e && (cx->src[i] == ' ' || cx->src[i] == '\t'))
            i++;
        bool undef = e - i > 5 && !strncmp(cx->src + i, "undef", 5);
        if (!(e - i > 6 && !strncmp(cx->src + i, "define", 6)) && !undef)
            continue;
        i += undef ? 5 : 6;
        /* the directive, continuation lines included */
        size_t end = i;
        while (end < cx->srclen && cx->src[end] != '\n') {
            if (cx->src[end] == '\\' && end + 1 < cx->srclen && cx->src[end + 1] == '\n')
                end++;
            end++;
        }
        pc_ctoks toks = {0};
        /* lex as code: the '#' is behind us, so the lexer does not skip the line */
        size_t k = i;
        while (k < end && (cx->src[k] == ' ' || cx->src[k] == '\t'))
            k++;
        if (k < end)
            pc_clang_lex(cx->src, k, end, &toks);
        if (toks.count >= 1 && toks.items[0].kind == PC_CTOK_IDENT) {
            const char *name = pc_arena_strndup(cx->scratch, toks.items[0].text, toks.items[0].len);
            bool function_like = toks.count >= 2 && pc_ctok_is(&toks.items[1], "(") &&
                                 toks.items[1].off == toks.items[0].off + toks.items[0].len;
            if (undef) {
                int e2 = pc_clang_env_find(cx, name, -1);
                if (e2 >= 0)
                    cx->env.items[e2].name = "";
            } else if (!function_like) {
                define_value(cx, name, toks.items + 1, (int)toks.count - 1);
            }
        }
        PC_VEC_FREE(toks);
    }
}
