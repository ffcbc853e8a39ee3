/*
 * fields.c - `key=value` and `key={...}` groups of a Workspace log message, read by name.
 *
 * The runtime prints groups such as
 *   rootInner={current=32768,peak=32768,capacity=65536}
 *   depthMemory={rawPerParallelBytes={rootInner=512,...}, nextDepthTotalBytes={...}, parallelism=1}
 * (dev_workspace.cpp LogTuningUsage / LogTuningSummary) and, at compile time, flat lists such as
 *   stitch depth: k_min=1, stitchNumMax=128, ..., stitch_1=32768 bytes, ...
 * (LogWorkspaceEncodeSummary).  Positions differ between versions, so nothing here depends on
 * them: every `=` names the identifier right before it, nested groups prefix their members with
 * "group.", and anything that is not a key=value pair (prose, units, punctuation) is ignored.
 */
#include "logs_int.h"

#include <string.h>

static bool is_ident(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void add_field(pc_log_fields *f, const char *prefix, size_t plen, const char *key,
                      size_t klen, const char *val, size_t vlen)
{
    if (f->count >= PC_LOG_MAX_FIELDS)
        return; /* more pairs than any known line has: the rest is not read */
    if (plen + 1 + klen + 1 > PC_LOG_MAX_PATH)
        return;
    pc_log_field *fl = &f->items[f->count++];
    size_t n = 0;
    if (plen) {
        memcpy(fl->path, prefix, plen);
        n = plen;
        fl->path[n++] = '.';
    }
    memcpy(fl->path + n, key, klen);
    fl->path[n + klen] = 0;
    fl->val = val;
    fl->vlen = vlen;
}

void pc_log_parse_fields(const char *s, size_t n, pc_log_fields *f)
{
    /* path holds the dotted prefix of the current group; stack[] its length before each `{`. */
    char path[PC_LOG_MAX_PATH];
    size_t plen = 0;
    size_t stack[16];
    int depth = 0;
    int ignored_depth = 0; /* groups nested deeper than the stack: tracked for balance only */
    size_t floor = 0;      /* a key never reaches back before the end of the previous value */

    f->count = 0;
    f->unbalanced = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '}') {
            if (ignored_depth) {
                ignored_depth--;
            } else if (depth == 0) {
                f->unbalanced = true;
            } else {
                plen = stack[--depth];
            }
            floor = i + 1;
            continue;
        }
        if (c == '{') {
            /* a brace that does not open a key's group (e.g. `={` handled below): keep balance */
            if (depth < (int)(sizeof stack / sizeof stack[0]))
                stack[depth++] = plen;
            else
                ignored_depth++;
            floor = i + 1;
            continue;
        }
        if (c != '=')
            continue;
        size_t k = i;
        while (k > floor && is_ident((unsigned char)s[k - 1]))
            k--;
        size_t klen = i - k;
        size_t j = i + 1;
        while (j < n && s[j] == ' ')
            j++;
        if (j < n && s[j] == '{') {
            if (depth < (int)(sizeof stack / sizeof stack[0]) && klen &&
                plen + 1 + klen + 1 <= sizeof path) {
                stack[depth++] = plen;
                if (plen)
                    path[plen++] = '.';
                memcpy(path + plen, s + k, klen);
                plen += klen;
            } else if (depth < (int)(sizeof stack / sizeof stack[0])) {
                stack[depth++] = plen; /* unnamed or too deep a name: members keep the prefix */
            } else {
                ignored_depth++;
            }
            i = j;
            floor = j + 1;
            continue;
        }
        size_t e = j;
        while (e < n && s[e] != ',' && s[e] != '}' && s[e] != '{')
            e++;
        size_t v_end = e;
        while (v_end > j && (s[v_end - 1] == ' ' || s[v_end - 1] == '\t'))
            v_end--;
        if (klen && !ignored_depth)
            add_field(f, path, plen, s + k, klen, s + j, v_end - j);
        i = e - 1; /* the loop's i++ lands on the delimiter, which closes a group if `}` */
        floor = e;
    }
    if (depth || ignored_depth)
        f->unbalanced = true;
}

const pc_log_field *pc_log_field_get(const pc_log_fields *f, const char *path)
{
    /* Last wins: a key repeated on one line is a later value of the same thing. */
    for (int i = f->count - 1; i >= 0; i--)
        if (strcmp(f->items[i].path, path) == 0)
            return &f->items[i];
    return NULL;
}

bool pc_log_field_u64(const pc_log_fields *f, const char *path, int64_t *out)
{
    const pc_log_field *fl = pc_log_field_get(f, path);
    if (!fl || fl->vlen == 0 || fl->val[0] < '0' || fl->val[0] > '9')
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < fl->vlen && fl->val[i] >= '0' && fl->val[i] <= '9'; i++) {
        int d = fl->val[i] - '0';
        if (v > (INT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool pc_log_field_pool1(const pc_log_fields *f, const char *group, const char *leaf, int64_t *out)
{
    /* assembleOutcast (newer runtimes), innerTemporalOutcast (older Pool/Summary lines),
     * innerTemporal (older Tuning/Recommendation lines, and configuredDepths/actualDepths). */
    static const char *const names[] = {"assembleOutcast", "innerTemporalOutcast", "innerTemporal"};
    char path[PC_LOG_MAX_PATH];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t gl = strlen(group), nl = strlen(names[i]), ll = strlen(leaf);
        if (gl + nl + ll + 3 > sizeof path)
            return false;
        size_t p = 0;
        if (gl) {
            memcpy(path, group, gl);
            p = gl;
            path[p++] = '.';
        }
        memcpy(path + p, names[i], nl);
        p += nl;
        if (ll) {
            path[p++] = '.';
            memcpy(path + p, leaf, ll);
            p += ll;
        }
        path[p] = 0;
        if (pc_log_field_u64(f, path, out))
            return true;
    }
    return false;
}
