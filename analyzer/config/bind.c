/* bind.c - the one NAME=VALUE binding parser (poolcheck/bind.h). */
#include "poolcheck/bind.h"
#include "poolcheck/json.h"

#include <string.h>

#include "support/support.h"

bool pc_cfg_bind_value(const char *text, int64_t *v)
{
    const char *p = text;
    bool neg = *p == '-';
    if (neg)
        p++;
    if (*p < '0' || *p > '9')
        return false;
    /* accumulate as a negative number: int64's range is one wider below zero */
    int64_t acc = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        int d = *p - '0';
        if (acc < (INT64_MIN + d) / 10)
            return false;
        acc = acc * 10 - d;
    }
    if (!neg && acc == INT64_MIN)
        return false;
    *v = neg ? acc : -acc;
    return true;
}

bool pc_cfg_bind_parse_pair(pc_arena *a, const char *name, size_t name_len, const char *value,
                            pc_binding *out, char **err)
{
    int64_t v;
    if (name_len == 0 || !value || !*value) {
        return pc_err_set(err, "bind expects NAME=VALUE, got '%.*s%s%s'", (int)name_len, name,
                          value ? "=" : "", value ? value : "");
    }
    if (!pc_cfg_bind_value(value, &v)) {
        return pc_err_set(err, "bind '%.*s=%s': '%s' is not an integer (decimal digits, within int64)",
                          (int)name_len, name, value, value);
    }
    out->name = pc_arena_strndup(a, name, name_len);
    out->value = v;
    return true;
}

bool pc_cfg_bind_parse(pc_arena *a, const char *text, pc_binding *out, char **err)
{
    const char *eq = strchr(text, '=');
    if (!eq) {
        return pc_err_set(err, "bind expects NAME=VALUE, got '%s'", text);
    }
    return pc_cfg_bind_parse_pair(a, text, (size_t)(eq - text), eq + 1, out, err);
}

/* ---- bindings from JSON ------------------------------------------------------------------------ */

int pc_cfg_json_int64(const char *s, size_t n, int64_t *v)
{
    /* the significant digits (no leading zeros) and the power of ten they are scaled by */
    char digits[80];
    size_t nd = 0, i = 0;
    long exp10 = 0;
    bool neg = i < n && s[i] == '-';
    if (neg)
        i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        if ((nd || s[i] != '0') && nd < sizeof digits)
            digits[nd++] = s[i];
        else if (nd)
            exp10++; /* a digit past the buffer: the number is far beyond int64 anyway */
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            if ((nd || s[i] != '0') && nd < sizeof digits) {
                digits[nd++] = s[i];
                exp10--;
            } else if (!nd) {
                exp10--;
            }
        }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = i < n && s[i] == '-';
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        long e = 0;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (e < 1000000)
                e = e * 10 + (s[i] - '0');
        exp10 += eneg ? -e : e;
    }
    while (nd && digits[nd - 1] == '0') {
        nd--;
        exp10++;
    }
    if (nd == 0) {
        *v = 0; /* 0, -0, 0.000, 0e5 */
        return 0;
    }
    if (exp10 < 0)
        return 1;
    if ((long)nd + exp10 > 19)
        return 2;
    /* accumulate as a negative number: int64's range is one wider below zero */
    int64_t acc = 0;
    for (size_t k = 0; k < nd + (size_t)exp10; k++) {
        int d = k < nd ? digits[k] - '0' : 0;
        if (acc < (INT64_MIN + d) / 10)
            return 2;
        acc = acc * 10 - d;
    }
    if (!neg && acc == INT64_MIN)
        return 2;
    *v = neg ? acc : -acc;
    return 0;
}

static char *member_name(const char *what, const char *name)
{
    pc_sb b = {0};
    if (what)
        pc_sb_printf(&b, "`%s.%s`", what, name);
    else
        pc_sb_printf(&b, "\"%s\"", name); /* a set of its own: the key as JSON writes it */
    return pc_sb_take(&b);
}

static pc_loc loc_at(pc_json_pos p)
{
    pc_loc l = {NULL, p.line, p.col, p.line, p.col};
    return l;
}

/* One member: its binding in *out, or its problem in b (false). */
static bool one_binding(pc_arena *a, const pc_json *c, const pc_json *dup, const char *what, pc_binding *out,
                        pc_sb *b, pc_json_pos *at)
{
    if (!*c->key || c == dup) {
        if (what)
            pc_sb_printf(b, "`%s`: ", what);
        if (!*c->key)
            pc_sb_append(b, "a binding needs a name");
        else
            pc_sb_printf(b, "duplicate binding `%s`", c->key);
        *at = c->key_pos;
        return false;
    }
    int64_t v = 0;
    int r = pc_json_is(c, PC_JSON_NUMBER) ? pc_cfg_json_int64(c->str, c->len, &v) : -1;
    if (r != 0) {
        char *shown = member_name(what, c->key);
        if (r < 0)
            pc_sb_printf(b, "%s must be an integer, found %s", shown, pc_json_kind(c));
        else
            pc_sb_printf(b, "%s must be an integer, found %.*s%s", shown, (int)c->len, c->str,
                         r == 2 ? " (out of int64's range [-9223372036854775808, 9223372036854775807])" : "");
        pc_mem_free(shown);
        *at = c->pos;
        return false;
    }
    out->name = pc_arena_strndup(a, c->key, c->key_len);
    out->value = v;
    return true;
}

bool pc_cfg_bindings_from_json(pc_arena *a, const pc_json *obj, const char *what, bool all_errors,
                               pc_bindings *out, pc_loc *at, char **err)
{
    out->items = NULL;
    out->count = 0;
    pc_sb b = {0};
    pc_json_pos first = {0};
    if (!pc_json_is(obj, PC_JSON_OBJECT)) {
        if (what)
            pc_sb_printf(&b, "`%s` must be an object of NAME: integer, found %s", what, pc_json_kind(obj));
        else
            pc_sb_printf(&b, "a binding set must be an object of NAME: integer, found %s", pc_json_kind(obj));
        *at = loc_at(obj ? obj->pos : first);
        *err = pc_sb_take(&b);
        return false;
    }
    pc_binding *items = obj->count ? pc_arena_alloc(a, (size_t)obj->count * sizeof *items) : NULL;
    const pc_json *dup = pc_json_repeated_key(obj);
    size_t k = 0;
    bool bad = false;
    for (const pc_json *c = obj->child; c && (all_errors || !bad); c = c->next) {
        pc_json_pos here;
        pc_sb why = {0};
        if (one_binding(a, c, dup, what, &items[k], &why, &here)) {
            k++;
            continue;
        }
        pc_sb_printf(&b, "%s%s", bad ? "; " : "", why.data);
        pc_sb_free(&why);
        if (!bad)
            first = here;
        bad = true;
    }
    out->items = items;
    out->count = k;
    if (!bad)
        return true;
    *at = loc_at(first);
    *err = pc_sb_take(&b);
    return false;
}
