/* json.c - the one strict JSON reader (poolcheck/json.h): RFC 8259 grammar and UTF-8, a tree in
 * one arena with the line:column of every value and key, and located errors that say what was
 * expected.  Users of upstream's nlohmann-based loaders get the same verdicts: what nlohmann
 * rejects, this rejects.
 *
 * One pass, recursive descent (depth capped at PC_JSON_MAX_DEPTH, so the C stack is bounded).
 * Lines are counted as the whitespace between tokens is skipped: a string cannot hold a raw line
 * break (it is a control character), so every value starts at a known line without a second
 * scan.  An error's position is computed from its offset (pc_json_pos_of), errors being rare.
 */
#define _POSIX_C_SOURCE 200809L
#include "poolcheck/json.h"
#include "support.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pc_json_doc {
    pc_arena *arena;
    pc_json *root;
};

typedef struct parser {
    const unsigned char *s;
    size_t len, i;
    unsigned flags;
    size_t bom;              /* 3 when a byte order mark was skipped */
    uint32_t line;           /* the line of s[i] while between tokens */
    size_t line_start;       /* offset where that line starts (after the BOM on line 1) */
    pc_arena *arena;
    bool failed;
    size_t err_off;
    char *msg;
    size_t msgsize;
} parser;

/* ---- errors ----------------------------------------------------------------------------------- */

/* "what, found 'x'" at the current byte */
static bool fail_found(parser *p, const char *what)
{
    p->failed = true;
    p->err_off = p->i;
    if (p->i >= p->len)
        snprintf(p->msg, p->msgsize, "%s, found end of input", what);
    else if (p->s[p->i] >= 0x20 && p->s[p->i] < 0x7f)
        snprintf(p->msg, p->msgsize, "%s, found '%c'", what, p->s[p->i]);
    else
        snprintf(p->msg, p->msgsize, "%s, found byte 0x%02x", what, p->s[p->i]);
    return false;
}

static bool fail_at(parser *p, size_t off, const char *what)
{
    p->failed = true;
    p->err_off = off;
    snprintf(p->msg, p->msgsize, "%s", what);
    return false;
}

/* ---- positions -------------------------------------------------------------------------------- */

static pc_json_pos here(const parser *p)
{
    pc_json_pos pos = {p->line, (uint32_t)(p->i - p->line_start + 1), p->i};
    return pos;
}

static void skip_ws(parser *p)
{
    const unsigned char *s = p->s;
    size_t i = p->i, len = p->len;
    while (i < len) {
        unsigned char c = s[i];
        if (c == ' ' || c == '\t') {
            i++;
        } else if (c == '\n') {
            i++;
            p->line++;
            p->line_start = i;
        } else if (c == '\r') {
            i += (i + 1 < len && s[i + 1] == '\n') ? 2 : 1; /* CRLF or a lone CR: one line break */
            p->line++;
            p->line_start = i;
        } else {
            break;
        }
    }
    p->i = i;
}

pc_json_pos pc_json_pos_of(const char *text, size_t len, size_t off, unsigned flags)
{
    pc_json_pos pos = {1, 1, off};
    size_t start = 0;
    if ((flags & PC_JSON_BOM) && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 && off >= 3)
        start = 3; /* editors do not count the byte order mark */
    if (off > len)
        off = len;
    for (size_t i = start; i < off;) {
        size_t n = pc_eol_len(text, len, i);
        if (n && i + n <= off) {
            i += n;
            pos.line++;
            start = i;
        } else if (n) {
            break; /* off is the LF of a CRLF: still on the CR's line */
        } else {
            i++;
        }
    }
    pos.col = (uint32_t)(off - start + 1);
    return pos;
}

/* ---- strings ---------------------------------------------------------------------------------- */

static int hex4(const parser *p, size_t at)
{
    int x = 0;
    for (size_t k = at; k < at + 4; k++) {
        if (k >= p->len)
            return -1;
        unsigned char c = p->s[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        x = x * 16 + d;
    }
    return x;
}

static size_t put_utf8(char *out, unsigned long u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xC0 | (u >> 6));
        out[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xE0 | (u >> 12));
        out[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        out[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (u >> 18));
    out[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    out[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* The string whose opening quote is at p->i: validated and decoded into the arena; p->i ends one
 * past the closing quote. */
static bool read_string(parser *p, const char **out, size_t *out_len)
{
    const unsigned char *s = p->s;
    size_t len = p->len;
    size_t start = ++p->i;
    /* the raw extent first (escapes only shrink), and whether anything needs more than a copy */
    size_t j = start;
    bool plain = true;
    while (j < len && s[j] != '"') {
        if (s[j] == '\\') {
            plain = false;
            j += 2;
            continue;
        }
        if (s[j] < 0x20 || s[j] >= 0x80)
            plain = false;
        j++;
    }
    size_t raw = (j < len ? j : len) - start;
    char *buf = pc_arena_alloc(p->arena, raw + 1);
    if (plain && j < len) {
        memcpy(buf, s + start, raw);
        buf[raw] = 0;
        p->i = j + 1;
        *out = buf;
        *out_len = raw;
        return true;
    }
    size_t n = 0;
    for (;;) {
        if (p->i >= len)
            return fail_found(p, "unterminated string");
        unsigned char c = s[p->i];
        if (c == '"') {
            p->i++;
            break;
        }
        if (c < 0x20)
            return fail_at(p, p->i, "control character in a string (write it as an escape such as \\n)");
        if (c == '\\') {
            if (p->i + 1 >= len) {
                p->i++;
                return fail_found(p, "unterminated string");
            }
            unsigned char e = s[p->i + 1];
            const char *simple = e ? strchr("\"\\/bfnrt", e) : NULL;
            if (simple) {
                static const char decoded[] = "\"\\/\b\f\n\r\t";
                buf[n++] = decoded[simple - "\"\\/bfnrt"];
                p->i += 2;
                continue;
            }
            if (e != 'u') {
                char what[40];
                snprintf(what, sizeof what, "invalid escape '\\%c'", e >= 0x20 && e < 0x7f ? e : '?');
                return fail_at(p, p->i, what);
            }
            int u = hex4(p, p->i + 2);
            if (u < 0)
                return fail_at(p, p->i, "invalid \\u escape (expected 4 hex digits)");
            if (u == 0 && !(p->flags & PC_JSON_ALLOW_NUL))
                return fail_at(p, p->i, "\\u0000 is not allowed in strings");
            if (u >= 0xDC00 && u <= 0xDFFF)
                return fail_at(p, p->i, "invalid \\u escape (a low surrogate without a high one)");
            if (u >= 0xD800 && u <= 0xDBFF) {
                int lo = (p->i + 7 < len && s[p->i + 6] == '\\' && s[p->i + 7] == 'u') ? hex4(p, p->i + 8) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail_at(p, p->i, "invalid \\u escape (a high surrogate without a low one)");
                n += put_utf8(buf + n, 0x10000 + (((unsigned long)u - 0xD800) << 10) + ((unsigned long)lo - 0xDC00));
                p->i += 12;
                continue;
            }
            n += put_utf8(buf + n, (unsigned long)u);
            p->i += 6;
            continue;
        }
        if (c < 0x80) {
            buf[n++] = (char)c;
            p->i++;
            continue;
        }
        size_t k = pc_utf8_seq_len(s + p->i, len - p->i);
        if (!k)
            return fail_at(p, p->i, "invalid UTF-8 in a string");
        memcpy(buf + n, s + p->i, k);
        n += k;
        p->i += k;
    }
    buf[n] = 0;
    *out = buf;
    *out_len = n;
    return true;
}

/* ---- numbers ---------------------------------------------------------------------------------- */

static bool digits(parser *p)
{
    size_t start = p->i;
    while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        p->i++;
    return p->i > start;
}

static bool read_number(parser *p, pc_json *v)
{
    const unsigned char *s = p->s;
    size_t start = p->i;
    bool integral = true;
    if (s[p->i] == '-')
        p->i++;
    if (p->i < p->len && s[p->i] == '0') {
        p->i++;
        if (p->i < p->len && s[p->i] >= '0' && s[p->i] <= '9')
            return fail_at(p, start, "invalid number (leading zero)");
    } else if (!digits(p)) {
        return fail_found(p, "invalid number: expected a digit");
    }
    if (p->i < p->len && s[p->i] == '.') {
        p->i++;
        integral = false;
        if (!digits(p))
            return fail_found(p, "invalid number: expected a digit after '.'");
    }
    if (p->i < p->len && (s[p->i] == 'e' || s[p->i] == 'E')) {
        p->i++;
        integral = false;
        if (p->i < p->len && (s[p->i] == '+' || s[p->i] == '-'))
            p->i++;
        if (!digits(p))
            return fail_found(p, "invalid number: expected a digit in the exponent");
    }
    size_t n = p->i - start;
    if (n > 63) /* the limit cJSON had; a longer spelling is no number a configuration means */
        return fail_at(p, start, "number too long (more than 63 characters)");
    char *spell = pc_arena_strndup(p->arena, (const char *)s + start, n);
    bool neg = spell[0] == '-';
    if (integral && n - neg <= 15) {
        /* exact in a double: no need for strtod */
        int64_t x = 0;
        for (size_t k = neg; k < n; k++)
            x = x * 10 + (spell[k] - '0');
        v->num = neg ? -(double)x : (double)x;
    } else {
        v->num = strtod(spell, NULL);
        /* nlohmann::json, which upstream's C++ reads configurations with, refuses 1e400 too */
        if (!isfinite(v->num))
            return fail_at(p, start, "number out of range (beyond what a double holds)");
    }
    v->str = spell;
    v->len = n;
    return true;
}

/* ---- values ----------------------------------------------------------------------------------- */

static int key_order(const void *a, const void *b)
{
    const pc_json *x = *(const pc_json *const *)a, *y = *(const pc_json *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    if (x->key_len != y->key_len)
        return x->key_len < y->key_len ? -1 : 1;
    return x->key_pos.off < y->key_pos.off ? -1 : x->key_pos.off > y->key_pos.off;
}

static bool same_key(const pc_json *x, const pc_json *y)
{
    return x->key_len == y->key_len && memcmp(x->key, y->key, x->key_len) == 0;
}

const pc_json *pc_json_repeated_key(const pc_json *obj)
{
    const pc_json *dup = NULL;
    if (!obj || obj->type != PC_JSON_OBJECT || obj->count < 2)
        return NULL;
    if (obj->count <= 16) {
        for (const pc_json *c = obj->child; c && !dup; c = c->next)
            for (const pc_json *d = obj->child; d != c; d = d->next)
                if (same_key(c, d)) {
                    dup = c;
                    break;
                }
    } else {
        const pc_json **v = pc_mem_alloc((size_t)obj->count * sizeof *v);
        int n = 0;
        for (const pc_json *c = obj->child; c; c = c->next)
            v[n++] = c;
        qsort(v, (size_t)n, sizeof *v, key_order);
        for (int k = 1; k < n; k++)
            if (same_key(v[k - 1], v[k]) && (!dup || v[k]->key_pos.off < dup->key_pos.off))
                dup = v[k];
        pc_mem_free(v);
    }
    return dup;
}

/* PC_JSON_UNIQUE_KEYS: the first member (in document order) whose key an earlier one has. */
static bool unique_keys(parser *p, const pc_json *obj)
{
    const pc_json *dup = pc_json_repeated_key(obj);
    if (!dup)
        return true;
    char what[160];
    int shown = dup->key_len > 100 ? 100 : (int)dup->key_len;
    snprintf(what, sizeof what, "duplicate key \"%.*s%s\"", shown, dup->key, dup->key_len > 100 ? "..." : "");
    return fail_at(p, dup->key_pos.off, what);
}

static bool read_value(parser *p, pc_json *v, int depth);

static bool read_container(parser *p, pc_json *v, int depth)
{
    unsigned char open = p->s[p->i];
    unsigned char close = open == '{' ? '}' : ']';
    if (depth >= PC_JSON_MAX_DEPTH) {
        char what[64];
        snprintf(what, sizeof what, "nesting deeper than %d levels", PC_JSON_MAX_DEPTH);
        return fail_at(p, p->i, what);
    }
    v->type = open == '{' ? PC_JSON_OBJECT : PC_JSON_ARRAY;
    p->i++;
    skip_ws(p);
    if (p->i < p->len && p->s[p->i] == close) {
        p->i++;
        return true;
    }
    pc_json **tail = &v->child;
    for (;;) {
        pc_json *item = pc_arena_alloc(p->arena, sizeof *item);
        if (open == '{') {
            skip_ws(p);
            if (p->i >= p->len || p->s[p->i] != '"')
                return fail_found(p, "expected a string key");
            item->key_pos = here(p);
            if (!read_string(p, &item->key, &item->key_len))
                return false;
            skip_ws(p);
            if (p->i >= p->len || p->s[p->i] != ':')
                return fail_found(p, "expected ':' after the key");
            p->i++;
        }
        if (!read_value(p, item, depth + 1))
            return false;
        *tail = item;
        tail = &item->next;
        v->count++;
        skip_ws(p);
        if (p->i < p->len && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->len && p->s[p->i] == close) {
            p->i++;
            break;
        }
        return fail_found(p, open == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    if (open == '{' && (p->flags & PC_JSON_UNIQUE_KEYS))
        return unique_keys(p, v);
    return true;
}

/* One value, after any whitespace; v->pos and v->end are set. */
static bool read_value(parser *p, pc_json *v, int depth)
{
    skip_ws(p);
    v->pos = here(p);
    if (p->i >= p->len)
        return fail_found(p, "expected a value");
    unsigned char c = p->s[p->i];
    bool ok;
    if (c == '{' || c == '[') {
        ok = read_container(p, v, depth);
    } else if (c == '"') {
        v->type = PC_JSON_STRING;
        ok = read_string(p, &v->str, &v->len);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        v->type = PC_JSON_NUMBER;
        ok = read_number(p, v);
    } else if (p->len - p->i >= 4 && memcmp(p->s + p->i, "true", 4) == 0) {
        v->type = PC_JSON_BOOL;
        v->b = true;
        p->i += 4;
        ok = true;
    } else if (p->len - p->i >= 5 && memcmp(p->s + p->i, "false", 5) == 0) {
        v->type = PC_JSON_BOOL;
        p->i += 5;
        ok = true;
    } else if (p->len - p->i >= 4 && memcmp(p->s + p->i, "null", 4) == 0) {
        v->type = PC_JSON_NULL;
        p->i += 4;
        ok = true;
    } else {
        return fail_found(p, "expected a value");
    }
    /* p->i is one past the value's last byte, on that byte's line (a container's closing bracket:
     * no whitespace has been skipped since) */
    if (ok)
        v->end = here(p);
    return ok;
}

pc_json_doc *pc_json_parse(const char *text, size_t len, unsigned flags, pc_json_pos *at, char **err)
{
    pc_json_use_pc_mem();
    if (!text) {
        text = "";
        len = 0;
    }
    char msg[160]; /* the parser's wordings are short and fixed: "expected ',' or '}', found '\"'" */
    parser p;
    memset(&p, 0, sizeof p);
    p.s = (const unsigned char *)text;
    p.flags = flags;
    p.line = 1;
    p.msg = msg;
    p.msgsize = sizeof msg;
    /* a NUL byte is a problem wherever it is: parse up to the first one */
    const char *nul = memchr(text, 0, len);
    p.len = nul ? (size_t)(nul - text) : len;
    if ((flags & PC_JSON_BOM) && p.len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.i = p.bom = p.line_start = 3;
    pc_json_doc *doc = pc_mem_calloc(1, sizeof *doc);
    doc->arena = pc_arena_new();
    p.arena = doc->arena;
    doc->root = pc_arena_alloc(doc->arena, sizeof *doc->root);
    bool ok = read_value(&p, doc->root, 0);
    if (ok) {
        skip_ws(&p);
        if (p.i < p.len)
            ok = fail_found(&p, "unexpected text after the JSON value");
    }
    if (nul && (ok || p.err_off >= p.len)) /* the problem is the NUL itself */
        ok = fail_at(&p, p.len, "unexpected NUL byte");
    if (ok)
        return doc;
    if (at)
        *at = pc_json_pos_of(text, len, p.err_off, flags);
    pc_err_set(err, "%s", msg);
    pc_json_free(doc);
    return NULL;
}

const pc_json *pc_json_root(const pc_json_doc *doc) { return doc ? doc->root : NULL; }

void pc_json_free(pc_json_doc *doc)
{
    if (!doc)
        return;
    pc_arena_free(doc->arena);
    pc_mem_free(doc);
}

const pc_json *pc_json_get(const pc_json *obj, const char *key)
{
    if (!pc_json_is(obj, PC_JSON_OBJECT))
        return NULL;
    size_t n = strlen(key);
    for (const pc_json *c = obj->child; c; c = c->next)
        if (c->key_len == n && memcmp(c->key, key, n) == 0)
            return c;
    return NULL;
}

const char *pc_json_kind(const pc_json *j)
{
    if (!j)
        return "nothing";
    switch (j->type) {
    case PC_JSON_NULL: return "null";
    case PC_JSON_BOOL: return "a boolean";
    case PC_JSON_NUMBER: return "a number";
    case PC_JSON_STRING: return "a string";
    case PC_JSON_ARRAY: return "an array";
    case PC_JSON_OBJECT: return "an object";
    }
    return "an unknown value";
}

/* ---- cJSON: the LSP's handlers walk its trees; the report writers build output with it ------- */

static void *cjson_alloc(size_t n) { return pc_mem_alloc(n); }
static void cjson_free(void *q) { pc_mem_free(q); }

static void install_pc_mem_hooks(void)
{
    cJSON_Hooks h = {cjson_alloc, cjson_free};
    cJSON_InitHooks(&h);
}

/* cJSON keeps its allocator in a global of the cJSON library.  Setting it is the one piece of
 * process-wide state poolcheck touches, and it is set once (pthread_once), always to the same two
 * functions, so no two callers can disagree and no analysis sees it change under it.  Before it is
 * set cJSON uses malloc/free, which is what pc_mem_alloc/pc_mem_free wrap: a block allocated
 * before and freed after (or the other way) is still freed by the allocator that made it. */
static pthread_once_t pc_mem_hooks_once = PTHREAD_ONCE_INIT;

void pc_json_use_pc_mem(void) { pthread_once(&pc_mem_hooks_once, install_pc_mem_hooks); }

static cJSON *to_cjson(const pc_json *j)
{
    switch (j->type) {
    case PC_JSON_NULL: return cJSON_CreateNull();
    case PC_JSON_BOOL: return cJSON_CreateBool(j->b);
    case PC_JSON_NUMBER: return cJSON_CreateNumber(j->num);
    case PC_JSON_STRING: return cJSON_CreateString(j->str);
    case PC_JSON_ARRAY: {
        cJSON *a = cJSON_CreateArray();
        for (const pc_json *c = j->child; c; c = c->next)
            cJSON_AddItemToArray(a, to_cjson(c));
        return a;
    }
    case PC_JSON_OBJECT: {
        cJSON *o = cJSON_CreateObject();
        for (const pc_json *c = j->child; c; c = c->next)
            cJSON_AddItemToObject(o, c->key, to_cjson(c));
        return o;
    }
    }
    return cJSON_CreateNull();
}

cJSON *pc_json_to_cjson(const pc_json *j)
{
    pc_json_use_pc_mem();
    return j ? to_cjson(j) : NULL;
}
