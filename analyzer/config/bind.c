/* bind.c - the one NAME=VALUE binding parser (poolcheck/bind.h). */
#include "poolcheck/bind.h"

#include <stdio.h>
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

bool pc_cfg_bind_parse2(pc_arena *a, const char *name, size_t name_len, const char *value,
                        pc_binding *out, char msg[PC_BIND_MSG_MAX])
{
    int64_t v;
    if (name_len == 0 || !value || !*value) {
        snprintf(msg, PC_BIND_MSG_MAX, "bind expects NAME=VALUE, got '%.*s%s%s'", (int)name_len, name,
                 value ? "=" : "", value ? value : "");
        return false;
    }
    if (!pc_cfg_bind_value(value, &v)) {
        snprintf(msg, PC_BIND_MSG_MAX,
                 "bind '%.*s=%s': '%s' is not an integer (decimal digits, within int64)", (int)name_len,
                 name, value, value);
        return false;
    }
    out->name = pc_arena_strndup(a, name, name_len);
    out->value = v;
    return true;
}

bool pc_cfg_bind_parse(pc_arena *a, const char *text, pc_binding *out, char msg[PC_BIND_MSG_MAX])
{
    const char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(msg, PC_BIND_MSG_MAX, "bind expects NAME=VALUE, got '%s'", text);
        return false;
    }
    return pc_cfg_bind_parse2(a, text, (size_t)(eq - text), eq + 1, out, msg);
}
