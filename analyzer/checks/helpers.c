/*
 * helpers.c - what several checks share: kernel access, triples and pool labels, where an option
 * was set, notes on tensors and options, and the fixes that rewrite or insert the pool option.
 */
#include "checks/checks_int.h"

#include <string.h>

#include "poolcheck/config.h"

/* ---- kernels ---------------------------------------------------------------------------------- */

int pc_chk_nkernels(const pc_chk_ctx *c)
{
    return (c->in->results && c->in->cfgs) ? c->model->nkernels : 0;
}

const pc_result *pc_chk_result(const pc_chk_ctx *c, int kernel)
{
    if (kernel < 0 || kernel >= pc_chk_nkernels(c))
        return NULL;
    return c->in->results[kernel];
}

const pc_runtime_config *pc_chk_cfg(const pc_chk_ctx *c, int kernel)
{
    if (kernel < 0 || kernel >= pc_chk_nkernels(c))
        return NULL;
    return &c->in->cfgs[kernel];
}

void pc_chk_each_precise_kernel(pc_chk_ctx *c, pc_chk_precise_fn judge)
{
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        const pc_runtime_config *cfg = pc_chk_cfg(c, k);
        if (r && pc_cfg_precise(cfg))
            judge(c, &c->model->kernels[k], r, cfg);
    }
}

bool pc_chk_first(pc_chk_ctx *c, int check, const void *key)
{
    /* Keys are pointers into the model / options; the check index is folded into the entry. */
    for (size_t i = 0; i + 1 < c->seen.count; i += 2)
        if (c->seen.items[i] == key && c->seen.items[i + 1] == (const void *)&pc_chk_table(NULL)[check])
            return false;
    PC_VEC_PUSH(c->seen, key);
    PC_VEC_PUSH(c->seen, (const void *)&pc_chk_table(NULL)[check]);
    return true;
}

/* ---- text ------------------------------------------------------------------------------------- */

const char *pc_chk_triple(pc_chk_ctx *c, const int64_t d[3])
{
    return pc_arena_printf(c->arena, "[%lld, %lld, %lld]", (long long)d[0], (long long)d[1],
                           (long long)d[2]);
}

const char *pc_chk_pool_label(int pool)
{
    switch (pool) {
    case 0: return "stitch_function_num_per_pool[0] (root_inner)";
    case 1: return "stitch_function_num_per_pool[1] (assemble_outcast)";
    case 2: return "stitch_function_num_per_pool[2] (exclusive_outcast)";
    }
    return "stitch_function_num_per_pool";
}

/* ---- locations -------------------------------------------------------------------------------- */

bool pc_chk_loc_known(pc_loc l) { return l.file && *l.file && l.line > 0; }

pc_loc pc_chk_option_loc(const pc_option *o)
{
    if (!o)
        return (pc_loc){0};
    if (pc_chk_loc_known(o->value.loc))
        return o->value.loc;
    return o->loc;
}

pc_loc pc_chk_primary(const pc_option *o, const pc_kernel *k)
{
    pc_loc l = pc_chk_option_loc(o);
    if (pc_chk_loc_known(l))
        return l;
    return k ? k->loc : (pc_loc){0};
}

const char *pc_chk_site_name(const pc_option *o)
{
    switch (o->site) {
    case PC_SITE_SET_RUNTIME_OPTIONS: return "pypto.experimental.set_runtime_options";
    case PC_SITE_SET_OPTIONS: return "pypto.set_options(runtime_options=...)";
    case PC_SITE_OPTIONS_SCOPE: return "pypto.options(runtime_options=...)";
    case PC_SITE_JIT: return "@pypto.frontend.jit(runtime_options=...)";
    case PC_SITE_CPP_SET_RUNTIME_OPTION: return "config::SetRuntimeOption";
    case PC_SITE_CONFIG_FILE: return "tile_fwk_config.json";
    case PC_SITE_PROJECT_FILE: return ".poolcheck.json";
    case PC_SITE_COMMAND_LINE: return "--set";
    }
    return "an option";
}

/* ---- notes ------------------------------------------------------------------------------------ */

static bool same_line(pc_loc a, pc_loc b)
{
    return a.file && b.file && strcmp(a.file, b.file) == 0 && a.line == b.line;
}

void pc_chk_note_option(pc_chk_ctx *c, pc_diag *d, const pc_option *o, pc_loc primary)
{
    if (!d || !o)
        return;
    pc_loc l = pc_chk_option_loc(o);
    const char *value = pc_cfg_value_text(c->arena, &o->value);
    if (!pc_chk_loc_known(l)) {
        /* --set has no place in a file: say where it came from instead. */
        pc_diag_note(c->sink, d, (pc_loc){0}, "%s=%s is set by %s", o->key, value, pc_chk_site_name(o));
        return;
    }
    if (same_line(l, primary))
        return;
    pc_diag_note(c->sink, d, l, "%s=%s is set here (%s)", o->key, value, pc_chk_site_name(o));
}

void pc_chk_note_kernel(pc_chk_ctx *c, pc_diag *d, const pc_kernel *k, pc_loc primary)
{
    if (!d || !k || same_line(k->loc, primary))
        return;
    pc_diag_note(c->sink, d, k->loc, "kernel %s is defined here", k->ref);
}

void pc_chk_pool_finding_tail(pc_chk_ctx *c, pc_diag *d, const pc_option *src, const pc_kernel *k, pc_loc at,
                              const int64_t *fix)
{
    pc_chk_note_option(c, d, src, at);
    pc_chk_note_kernel(c, d, k, at);
    if (fix)
        pc_chk_fix_pool_value(c, d, src, fix);
}

enum { MAX_TENSOR_NOTES = 6 };

int pc_chk_note_pool_tensors(pc_chk_ctx *c, pc_diag *d, const pc_result *r, int pool)
{
    int n = 0;
    for (int i = 0; i < r->ntensors; i++) {
        const pc_tensor_result *t = &r->tensors[i];
        if ((int)t->pool != pool || t->tensor < 0 || t->tensor >= r->kernel->ntensors)
            continue;
        n++;
        if (!d || n > MAX_TENSOR_NOTES)
            continue;
        const pc_tensor *mt = &r->kernel->tensors[t->tensor];
        if (t->reason && *t->reason)
            pc_diag_note(c->sink, d, mt->loc, "'%s' uses %s: %s", mt->name, pc_pool_name((pc_pool)pool),
                         t->reason);
        else
            pc_diag_note(c->sink, d, mt->loc, "'%s' uses %s", mt->name, pc_pool_name((pc_pool)pool));
    }
    if (d && n > MAX_TENSOR_NOTES)
        pc_diag_note(c->sink, d, r->kernel->loc, "and %d more %s tensors in kernel %s",
                     n - MAX_TENSOR_NOTES, pc_pool_name((pc_pool)pool), r->kernel->ref);
    return n;
}

const char *pc_chk_pool_tensor_names(pc_chk_ctx *c, const pc_result *r, int pool)
{
    const char *names[3];
    int shown = 0, total = 0;
    for (int i = 0; i < r->ntensors; i++) {
        const pc_tensor_result *t = &r->tensors[i];
        if ((int)t->pool != pool || t->tensor < 0 || t->tensor >= r->kernel->ntensors)
            continue;
        if (shown < 3)
            names[shown++] = r->kernel->tensors[t->tensor].name;
        total++;
    }
    pc_sb b = {0};
    for (int i = 0; i < shown; i++) {
        if (i > 0)
            pc_sb_append(&b, (i == shown - 1 && total == shown) ? " and " : ", ");
        pc_sb_printf(&b, "'%s'", names[i]);
    }
    if (total > shown)
        pc_sb_printf(&b, " and %d more", total - shown);
    char *s = pc_sb_take(&b);
    const char *out = pc_arena_strdup(c->arena, s);
    pc_mem_free(s);
    return out;
}

static pc_optval *objects_as_text(pc_chk_ctx *c, const pc_optval *v)
{
    pc_optval *copy = pc_arena_alloc(c->arena, sizeof *copy);
    *copy = *v;
    if (v->kind == PC_OPT_UNKNOWN) {
        copy->kind = PC_OPT_STRING;
    } else if (v->nitems > 0) {
        copy->items = pc_arena_alloc(c->arena, (size_t)v->nitems * sizeof *copy->items);
        for (int i = 0; i < v->nitems; i++)
            copy->items[i] = *objects_as_text(c, &v->items[i]);
    }
    return copy;
}

const pc_optval *pc_chk_judged_value(pc_chk_ctx *c, const pc_option *o)
{
    if (o->site != PC_SITE_CONFIG_FILE && o->site != PC_SITE_PROJECT_FILE)
        return &o->value;
    return objects_as_text(c, &o->value);
}

pc_diag *pc_chk_report_invalid_option(pc_chk_ctx *c, int check, const pc_option *o)
{
    const pc_optval *value = pc_chk_judged_value(c, o);
    if (value->kind == PC_OPT_NONE || value->kind == PC_OPT_UNKNOWN)
        return NULL;
    const char *why = pc_cfg_validate(c->arena, o->key, value);
    if (!why)
        return NULL;
    const pc_kernel *kern = (o->kernel >= 0 && o->kernel < c->model->nkernels)
                                ? &c->model->kernels[o->kernel] : NULL;
    pc_loc at = pc_chk_option_loc(o);
    if (pc_chk_loc_known(at))
        return pc_diag_report(c->sink, check, at, kern ? kern->name : NULL, "%s", why);
    return pc_diag_report(c->sink, check, at, kern ? kern->name : NULL, "%s (set by %s)", why,
                          pc_chk_site_name(o));
}

/* ---- fixes ------------------------------------------------------------------------------------ */

const char *pc_chk_source(const pc_chk_ctx *c, const char *file, size_t *len)
{
    return pc_diag_source(c->sink, file, len, NULL);
}

long pc_chk_offset(const char *text, size_t len, uint32_t line, uint32_t col)
{
    return pc_text_offset(text, len, line, col);
}

bool pc_chk_suggest_for_option(pc_chk_ctx *c, const pc_option *o, int64_t out[3])
{
    bool any = false;
    out[0] = out[1] = out[2] = 0;
    for (int pass = 0; pass < 2 && !any; pass++) {
        for (int k = 0; k < pc_chk_nkernels(c); k++) {
            const pc_result *r = pc_chk_result(c, k);
            const pc_runtime_config *cfg = pc_chk_cfg(c, k);
            if (!r)
                continue;
            /* First the kernels the option is in force for; an option that never applies (an
             * invalid one) is fixed for the kernels it targets. */
            bool mine = pass == 0 ? cfg->src_pool == o : (o->kernel < 0 || o->kernel == k);
            if (!mine)
                continue;
            for (int i = 0; i < 3; i++)
                if (r->suggested[i] > out[i])
                    out[i] = r->suggested[i];
            any = true;
        }
    }
    return any;
}

/* How the file spells a pool triple: Python and JSON lists, Python tuples, C++ brace lists. */
typedef enum { SPELL_LIST, SPELL_TUPLE, SPELL_BRACES, SPELL_VECTOR } spelling;

static const char *spell(pc_chk_ctx *c, spelling s, const int64_t t[3])
{
    const char *fmt = s == SPELL_TUPLE    ? "(%lld, %lld, %lld)"
                      : s == SPELL_BRACES ? "{%lld, %lld, %lld}"
                      : s == SPELL_VECTOR ? "std::vector<int64_t>{%lld, %lld, %lld}"
                                          : "[%lld, %lld, %lld]";
    return pc_arena_printf(c->arena, fmt, (long long)t[0], (long long)t[1], (long long)t[2]);
}

void pc_chk_fix_pool_value(pc_chk_ctx *c, pc_diag *d, const pc_option *o, const int64_t t[3])
{
    if (!d || !o)
        return;
    pc_loc range = o->value.loc;
    if (!pc_chk_loc_known(range) || range.end_line == 0 || range.end_col == 0)
        return; /* --set, or a value without an extent: nothing to rewrite */
    spelling sp = SPELL_LIST;
    size_t len = 0;
    const char *text = pc_chk_source(c, range.file, &len);
    long start = text ? pc_chk_offset(text, len, range.line, range.col) : -1;
    long end = text ? pc_chk_offset(text, len, range.end_line, range.end_col) : -1;
    bool have_text = start >= 0 && end > start;
    if (o->site == PC_SITE_CPP_SET_RUNTIME_OPTION) {
        sp = SPELL_VECTOR;
        if (have_text) {
            /* Keep what precedes the braces (`std::vector<int64_t>`), rewrite the braces. */
            const char *brace = memchr(text + start, '{', (size_t)(end - start));
            if (brace && text[end - 1] == '}') {
                sp = SPELL_BRACES;
                for (size_t p = (size_t)start; p < (size_t)(brace - text);) {
                    size_t eol = pc_eol_len(text, len, p); /* LF, CRLF, lone CR: support.h */
                    if (eol) {
                        range.line++;
                        range.col = 1;
                        p += eol;
                    } else {
                        range.col++;
                        p++;
                    }
                }
            }
        }
    } else if (o->site != PC_SITE_CONFIG_FILE && o->site != PC_SITE_PROJECT_FILE && have_text &&
               text[start] == '(') {
        sp = SPELL_TUPLE;
    }
    pc_diag_fix(c->sink, d, range, spell(c, sp, t));
}

void pc_chk_fix_insert_call(pc_chk_ctx *c, pc_diag *d, const pc_kernel *k, const int64_t t[3])
{
    if (!d || !k || !pc_chk_loc_known(k->insert_loc))
        return;
    pc_loc at = k->insert_loc;
    at.end_line = at.line;
    at.end_col = at.col;
    /* The call takes the insertion point's column; what followed moves to the next line with the
     * same indentation (copied from the source so tabs stay tabs). */
    size_t len = 0;
    const char *text = pc_chk_source(c, at.file, &len);
    const char *indent = "";
    if (at.col > 1) {
        long bol = text ? pc_chk_offset(text, len, at.line, 1) : -1;
        if (bol >= 0 && (size_t)bol + at.col - 1 <= len)
            indent = pc_arena_strndup(c->arena, text + bol, at.col - 1);
        else
            indent = pc_arena_printf(c->arena, "%*s", (int)(at.col - 1), "");
        for (const char *p = indent; *p; p++)
            if (*p != ' ' && *p != '\t') {
                indent = pc_arena_printf(c->arena, "%*s", (int)(at.col - 1), "");
                break;
            }
    }
    const char *call;
    if (c->model->lang == PC_LANG_CPP)
        call = pc_arena_printf(c->arena, "config::SetRuntimeOption(\"%s\", %s);\n%s", PC_KEY_POOL,
                               spell(c, SPELL_VECTOR, t), indent);
    else
        /* At module level the call goes before the kernel's decorator (or def): two blank lines
         * after it keep the decorator apart from it, as PEP 8 spaces top-level definitions. */
        call = pc_arena_printf(c->arena, "pypto.experimental.set_runtime_options(%s=%s)\n%s%s",
                               PC_KEY_POOL, spell(c, SPELL_LIST, t), at.col == 1 ? "\n\n" : "", indent);
    pc_diag_fix(c->sink, d, at, call);
}
