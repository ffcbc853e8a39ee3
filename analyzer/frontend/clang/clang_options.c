/* clang_options.c - runtime options: each `config::SetRuntimeOption<T>(key, value)` call, read from
 * the call clang resolved (clang_recover.c reads one clang rejected from its tokens), recorded
 * once per site, and the model's options in source order. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

/* The SetRuntimeOption call inside an expression statement (clang resolved it). */
static enum CXChildVisitResult find_option_call(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 2) {
        CXString s = clang_getCursorSpelling(c);
        bool hit = !strcmp(clang_getCString(s), "SetRuntimeOption");
        clang_disposeString(s);
        if (hit) {
            *(CXCursor *)d = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Record an option site.  Host code records a site each time the walk runs it (a helper called
 * from two host functions is two records, each with the values of its own call); which kernels a
 * host record configures is decided after the walk (clang_host.c, docs/model.md section 8).  Inside
 * a kernel a site is recorded once per kernel (PC005); NULL when it was already. */
pc_option *pc_clang_option_record(pc_cx *cx, const char *key, pc_loc loc)
{
    for (int o = 0; cx->kernel >= 0 && o < cx->m->noptions; o++) {
        const pc_option *op = &cx->m->options[o];
        if (op->site == PC_SITE_CPP_SET_RUNTIME_OPTION && op->in_kernel && op->kernel == cx->kernel &&
            op->loc.line == loc.line && op->loc.col == loc.col)
            return NULL;
    }
    int id = pc_model_add_option(cx->m, key, PC_SITE_CPP_SET_RUNTIME_OPTION, loc);
    pc_option *o = &cx->m->options[id];
    o->kernel = cx->kernel;
    o->in_kernel = cx->kernel >= 0;
    return o;
}

/* A key written as a constant whose value poolcheck cannot read (STITCH_FUNCTION_MAX_NUM from an
 * unknown header): upstream spells each key as its constant's lower-case name. */
const char *pc_clang_option_key_from_constant(pc_cx *cx, const char *spelled)
{
    const char *last = strrchr(spelled, ':');
    char *lower = pc_arena_strdup(cx->scratch, last ? last + 1 : spelled);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return lower;
}

void pc_clang_option_site(pc_cx *cx, CXCursor c)
{
    /* from the AST: config::SetRuntimeOption<T>(key, value) as clang resolved it */
    CXCursor call = clang_getNullCursor();
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        find_option_call(c, c, &call);
    if (clang_Cursor_isNull(call))
        clang_visitChildren(c, find_option_call, &call);
    if (!clang_Cursor_isNull(call)) {
        CXCursor karg = clang_Cursor_getArgument(call, 0);
        const char *key = pc_clang_value_string(cx, karg);
        if (!key)
            key = pc_clang_option_key_from_constant(cx, pc_clang_spelling(cx, pc_clang_strip(karg)));
        pc_option *o = pc_clang_option_record(cx, key, pc_clang_cursor_loc(cx, call));
        if (o)
            pc_clang_value_opt(cx, clang_Cursor_getArgument(call, 1), &o->value, 0);
        return;
    }
    pc_clang_option_site_from_tokens(cx, c); /* clang rejected the call (clang_recover.c) */
}

/* Options in source order; stable, so records of one site keep the order the walk ran them in
 * (clang_host.c relies on it: of two records of one key for a kernel, the later one wins). */
void pc_clang_sort_options(pc_model *m)
{
    for (int i = 1; i < m->noptions; i++)
        for (int j = i; j > 0 && pc_clang_loc_cmp(m->options[j - 1].loc, m->options[j].loc) > 0; j--) {
            pc_option tmp = m->options[j];
            m->options[j] = m->options[j - 1];
            m->options[j - 1] = tmp;
        }
}
