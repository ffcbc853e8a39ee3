/*
 * PC003 invalid-runtime-option (error): a runtime option key upstream does not have (a typo such as
 * stitch_funtion_num_per_pool, or a pass/host/... option given as a runtime one), or another
 * runtime option (stitch_function_max_num, max_workspace_kb, device_sched_parallelism) out of its
 * range or of the wrong type, in the source, a config file or --set.  Validation and its wording
 * are the config module's (pc_cfg_validate, pc_cfg_runtime_key_known); the key is judged first,
 * since a value is only meaningful for a key that exists.
 */
#include "checks/checks_int.h"

#include <string.h>

static bool ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

typedef enum spelled {
    KEY_NOT_FOUND,  /* the source was not read, or it does not spell the key (a resolved constant) */
    KEY_WRITTEN,    /* the key as written: a string literal or a Python keyword argument */
    KEY_CONSTANT,   /* C++: an upper-case constant the frontend could not read, taken as its name */
    KEY_EXPRESSION  /* a variable's name the frontend could not evaluate, kept as the key */
} spelled;

static bool same_ignoring_case(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] - 'A' + 'a') : a[i];
        if (x != b[i])
            return false;
    }
    return true;
}

static bool has_lower(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] >= 'a' && s[i] <= 'z')
            return true;
    return false;
}

/* Where the source spells o's key inside the option's extent: quoted (a Python or JSON key, the
 * C++ key argument) or as a Python keyword (`key=`).  What a frontend could not evaluate it keeps
 * as text: a Python dict entry `NAME: value` keeps NAME, a C++ key argument that is no string the
 * name in lower case (upstream names its key constants after the keys, STITCH_FUNCTION_MAX_NUM).
 * An upper-case name is such a constant, and a misspelled one is a finding; any other name is a
 * variable, whose key poolcheck does not know, so the caller must not call it unknown. */
static spelled key_spelling(pc_chk_ctx *c, const pc_option *o, pc_loc *range)
{
    size_t len = 0;
    const char *text = pc_chk_loc_known(o->loc) ? pc_chk_source(c, o->loc.file, &len) : NULL;
    if (!text)
        return KEY_NOT_FOUND;
    long start = pc_chk_offset(text, len, o->loc.line, o->loc.col);
    long end = o->loc.end_line ? pc_chk_offset(text, len, o->loc.end_line, o->loc.end_col) : -1;
    if (start < 0)
        return KEY_NOT_FOUND;
    size_t stop = end > start ? (size_t)end : len;
    size_t klen = strlen(o->key);
    uint32_t line = o->loc.line, col = o->loc.col;
    bool cpp = o->site == PC_SITE_CPP_SET_RUNTIME_OPTION;
    for (size_t i = (size_t)start; klen && i + klen <= stop; i++) {
        size_t eol = pc_eol_len(text, len, i);
        if (eol) {
            line++;
            col = 1;
            i += eol - 1;
            continue;
        }
        char before = i > (size_t)start ? text[i - 1] : 0, after = i + klen < len ? text[i + klen] : 0;
        if (memcmp(text + i, o->key, klen) == 0) {
            bool quoted = (before == '"' || before == '\'') && after == before;
            bool bare = i == (size_t)start && !ident_char(after);
            if (quoted || bare) {
                *range = (pc_loc){o->loc.file, line, col, line, col + (uint32_t)klen};
                if (quoted)
                    return KEY_WRITTEN;
                size_t j = i + klen;
                while (j < stop && (text[j] == ' ' || text[j] == '\t'))
                    j++;
                return j < stop && text[j] == '=' && (j + 1 >= len || text[j + 1] != '=') ? KEY_WRITTEN
                                                                                          : KEY_EXPRESSION;
            }
        }
        if (cpp && !ident_char(before) && !ident_char(after) && same_ignoring_case(text + i, o->key, klen)) {
            *range = (pc_loc){o->loc.file, line, col, line, col + (uint32_t)klen};
            return has_lower(text + i, klen) ? KEY_EXPRESSION : KEY_CONSTANT;
        }
        col++;
    }
    return KEY_NOT_FOUND;
}

/* "device_sched_mode, run_mode, ..." (arena) */
static const char *runtime_key_list(pc_chk_ctx *c)
{
    const char *const *keys;
    size_t n = pc_cfg_runtime_keys(&keys);
    pc_sb b = {0};
    for (size_t i = 0; i < n; i++)
        pc_sb_printf(&b, "%s%s", i ? ", " : "", keys[i]);
    char *s = pc_sb_take(&b);
    const char *out = pc_arena_strdup(c->arena, s ? s : "");
    pc_mem_free(s);
    return out;
}

/* Where another section's option is set, in the words of the site that holds it. */
static const char *where_it_goes(pc_chk_ctx *c, const pc_option *o, const pc_cfg_key_home *h)
{
    switch (o->site) {
    case PC_SITE_CPP_SET_RUNTIME_OPTION: return pc_arena_printf(c->arena, "set it with %s", h->cpp);
    case PC_SITE_CONFIG_FILE: return pc_arena_printf(c->arena, "it belongs in the \"%s\" section", h->section);
    case PC_SITE_PROJECT_FILE:
    case PC_SITE_COMMAND_LINE: return "poolcheck reads runtime options only";
    default: return pc_arena_printf(c->arena, "set it with %s", h->python);
    }
}

/* An option key that is not one of upstream's runtime options: reported at the key with the
 * nearest runtime name and a fix that writes it.  True when the key was unknown (reported or not). */
static bool check_key(pc_chk_ctx *c, const pc_option *o)
{
    if (pc_cfg_runtime_key_known(o->key))
        return false;
    pc_loc key_at = {0};
    spelled sp = key_spelling(c, o, &key_at);
    if (sp == KEY_EXPRESSION)
        return true; /* a variable's name, not the key it holds: nothing is known to be wrong */
    pc_loc at = sp == KEY_NOT_FOUND ? o->loc : key_at;
    const pc_kernel *kern = (o->kernel >= 0 && o->kernel < c->model->nkernels) ? &c->model->kernels[o->kernel] : NULL;
    const char *near = pc_cfg_runtime_key_nearest(o->key);
    const pc_cfg_key_home *home = pc_cfg_key_home_of(o->key);
    const char *msg;
    if (home)
        msg = pc_arena_printf(c->arena, "'%s' is a %s option, not a runtime option: %s", o->key, home->section,
                              where_it_goes(c, o, home));
    else if (near)
        msg = pc_arena_printf(c->arena, "unknown runtime option '%s'; did you mean '%s'?", o->key, near);
    else
        msg = pc_arena_printf(c->arena, "unknown runtime option '%s' (upstream's runtime options: %s)", o->key,
                              runtime_key_list(c));
    pc_diag *d = pc_chk_loc_known(at)
                     ? pc_diag_report(c->sink, PC_CHK_INVALID_RUNTIME_OPTION, at, kern ? kern->name : NULL, "%s", msg)
                     : pc_diag_report(c->sink, PC_CHK_INVALID_RUNTIME_OPTION, at, kern ? kern->name : NULL,
                                      "%s (set by %s)", msg, pc_chk_site_name(o));
    if (d && !home && near && sp == KEY_WRITTEN)
        pc_diag_fix(c->sink, d, key_at, near);
    return true;
}

static void check_option(pc_chk_ctx *c, const pc_option *o)
{
    if (!o->key || check_key(c, o) || strcmp(o->key, PC_KEY_POOL) == 0)
        return; /* the pool triple's value is PC002's */
    pc_chk_report_invalid_option(c, PC_CHK_INVALID_RUNTIME_OPTION, o);
}

void pc_chk_invalid_runtime_option(pc_chk_ctx *c)
{
    for (int i = 0; i < c->model->noptions; i++)
        check_option(c, &c->model->options[i]);
    for (size_t i = 0; i < c->in->next_opts; i++)
        check_option(c, &c->in->ext_opts[i]);
}
