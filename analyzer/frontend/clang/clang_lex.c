/* clang_lex.c - a small C++ lexer over the main buffer, the bracket and argument helpers the
 * readers of code clang dropped use (clang_recover.c), and an expression's
 * written spelling: the name the cursor reader (clang_value.c) gives a symbol for a part it has
 * no model of (a macro argument's text where it is written). */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- lexer ---------------------------------------------------------------------------------- */

static bool ident_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static bool ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Longest first. */
static const char *const puncts[] = {
    "...", "<<=", ">>=", "->*", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*", NULL,
};

/* Length of a string literal starting at s[i] (the opening quote, after any prefix). */
static size_t string_len(const char *s, size_t i, size_t end, char q)
{
    size_t j = i + 1;
    while (j < end && s[j] != q && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < end)
            j++;
        j++;
    }
    return (j < end && s[j] == q ? j + 1 : j) - i;
}

/* Length of a raw string literal R"delim( ... )delim" whose quote is at s[i]. */
static size_t raw_string_len(const char *s, size_t i, size_t end)
{
    size_t j = i + 1, d0 = j;
    while (j < end && s[j] != '(' && j - d0 < 16)
        j++;
    if (j >= end || s[j] != '(')
        return string_len(s, i, end, '"');
    size_t dlen = j - d0;
    for (size_t k = j + 1; k + dlen < end; k++)
        if (s[k] == ')' && memcmp(s + k + 1, s + d0, dlen) == 0 && s[k + 1 + dlen] == '"')
            return k + dlen + 2 - i;
    return end - i;
}

void pc_clang_lex(const char *buf, size_t begin, size_t end, pc_ctoks *out)
{
    size_t i = begin;
    /* Are we at the start of a line (only blanks before)? Decides whether '#' opens a directive. */
    bool line_start = begin == 0 || buf[begin - 1] == '\n';
    if (!line_start) {
        size_t k = begin;
        while (k > 0 && (buf[k - 1] == ' ' || buf[k - 1] == '\t'))
            k--;
        line_start = k == 0 || buf[k - 1] == '\n';
    }
    while (i < end) {
        char c = buf[i];
        if (c == '\n') {
            line_start = true;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < end && (buf[i + 1] == '\n' || buf[i + 1] == '\r')) {
            i += 2;
            continue;
        }
        if (c == '/' && i + 1 < end && buf[i + 1] == '/') {
            while (i < end && buf[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < end && buf[i + 1] == '*') {
            i += 2;
            while (i + 1 < end && !(buf[i] == '*' && buf[i + 1] == '/'))
                i++;
            i = i + 2 < end ? i + 2 : end;
            continue;
        }
        if (c == '#' && line_start) { /* a preprocessor directive: not code */
            while (i < end && buf[i] != '\n') {
                if (buf[i] == '\\' && i + 1 < end && buf[i + 1] == '\n')
                    i++;
                i++;
            }
            continue;
        }
        line_start = false;
        pc_ctok t = {.text = buf + i, .off = (uint32_t)i};
        size_t len = 1;
        if (ident_start((unsigned char)c)) {
            while (i + len < end && ident_char((unsigned char)buf[i + len]))
                len++;
            /* string prefixes: u8"..", L"..", R"(..)", u8R"(..)" */
            if (i + len < end && buf[i + len] == '"' && len <= 3) {
                bool raw = buf[i + len - 1] == 'R';
                const char *p = buf + i;
                bool prefix = (len == 1 && (*p == 'u' || *p == 'U' || *p == 'L' || *p == 'R')) ||
                              (len == 2 && (!strncmp(p, "u8", 2) || !strncmp(p, "uR", 2) ||
                                            !strncmp(p, "UR", 2) || !strncmp(p, "LR", 2))) ||
                              (len == 3 && !strncmp(p, "u8R", 3));
                if (prefix) {
                    size_t q = i + len;
                    len += raw ? raw_string_len(buf, q, end) : string_len(buf, q, end, '"');
                    t.kind = PC_CTOK_STRING;
                    t.len = (uint32_t)len;
                    PC_VEC_PUSH(*out, t);
                    i += len;
                    continue;
                }
            }
            t.kind = PC_CTOK_IDENT;
        } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < end && isdigit((unsigned char)buf[i + 1]))) {
            while (i + len < end) {
                char d = buf[i + len];
                if (ident_char((unsigned char)d) || d == '.' || (d == '\'' && i + len + 1 < end &&
                                                                 isalnum((unsigned char)buf[i + len + 1])))
                    len++;
                else if ((d == '+' || d == '-') && strchr("eEpP", buf[i + len - 1]))
                    len++;
                else
                    break;
            }
            t.kind = PC_CTOK_NUMBER;
        } else if (c == '"') {
            len = string_len(buf, i, end, '"');
            t.kind = PC_CTOK_STRING;
        } else if (c == '\'') {
            len = string_len(buf, i, end, '\'');
            t.kind = PC_CTOK_CHAR;
        } else {
            t.kind = PC_CTOK_PUNCT;
            for (int p = 0; puncts[p]; p++) {
                if (puncts[p][0] != c) /* only those that can match: the lexer runs over the whole file */
                    continue;
                size_t pl = strlen(puncts[p]);
                if (i + pl <= end && memcmp(buf + i, puncts[p], pl) == 0) {
                    len = pl;
                    break;
                }
            }
        }
        t.len = (uint32_t)len;
        PC_VEC_PUSH(*out, t);
        i += len;
    }
}

bool pc_ctok_is(const pc_ctok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

int pc_clang_match(const pc_ctok *t, int n, int i)
{
    int depth = 0;
    for (int k = i; k < n; k++) {
        if (t[k].kind != PC_CTOK_PUNCT || t[k].len != 1)
            continue;
        char c = t[k].text[0];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0)
                return k;
            if (depth < 0)
                return n;
        }
    }
    return n;
}

int pc_clang_skip_template_args(const pc_ctok *t, int n, int i)
{
    if (i >= n || !pc_ctok_is(&t[i], "<"))
        return -1;
    int depth = 0;
    for (int k = i; k < n; k++) {
        if (pc_ctok_is(&t[k], "<"))
            depth++;
        else if (pc_ctok_is(&t[k], ">"))
            depth--;
        else if (pc_ctok_is(&t[k], ">>")) /* one token closing two lists */
            depth -= 2;
        else if (pc_ctok_is(&t[k], "(") || pc_ctok_is(&t[k], "[") || pc_ctok_is(&t[k], "{")) {
            int c = pc_clang_match(t, n, k);
            if (c >= n)
                return -1;
            k = c;
            continue;
        } else if (pc_ctok_is(&t[k], ";"))
            return -1;
        if (depth == 0)
            return k + 1;
        if (depth < 0)
            return -1;
    }
    return -1;
}

int pc_clang_split_args(const pc_ctok *t, int n, int *starts, int *ends, int max)
{
    if (n <= 0)
        return 0;
    int count = 0, depth = 0, start = 0;
    for (int k = 0; k <= n; k++) {
        bool at_end = k == n;
        if (!at_end && t[k].kind == PC_CTOK_PUNCT && t[k].len == 1) {
            char c = t[k].text[0];
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if (c == ')' || c == ']' || c == '}')
                depth--;
        }
        if (at_end || (depth == 0 && pc_ctok_is(&t[k], ","))) {
            if (count < max) {
                starts[count] = start;
                ends[count] = k;
            }
            count++;
            start = k + 1;
        }
    }
    return count < max ? count : max;
}

/* ---- spelling ------------------------------------------------------------------------------- */

const char *pc_clang_tok_spelling(pc_cx *cx, const pc_ctok *t, int n)
{
    pc_sb b = {0};
    for (int k = 0; k < n; k++) {
        bool word = t[k].kind == PC_CTOK_IDENT || t[k].kind == PC_CTOK_NUMBER;
        if (k > 0 && word && (t[k - 1].kind == PC_CTOK_IDENT || t[k - 1].kind == PC_CTOK_NUMBER))
            pc_sb_putc(&b, ' ');
        pc_sb_appendn(&b, t[k].text, t[k].len);
    }
    char *s = pc_sb_take(&b);
    const char *r = pc_arena_strdup(cx->scratch, s);
    pc_mem_free(s);
    return r;
}

/* ---- written text ---------------------------------------------------------------------------- */

const char *pc_clang_written_spelling(pc_cx *cx, CXCursor e)
{
    uint32_t b, en;
    if (!pc_clang_written_offsets(cx, e, &b, &en) || en <= b)
        return NULL;
    pc_ctoks toks = {0};
    pc_clang_src_lex(cx, b, en, &toks);
    const char *r = toks.count ? pc_clang_tok_spelling(cx, toks.items, (int)toks.count) : NULL;
    PC_VEC_FREE(toks);
    return r;
}

const char *pc_clang_extent_spelling(pc_cx *cx, CXCursor c)
{
    pc_ctoks toks = {0};
    const char *r = pc_clang_cursor_tokens(cx, c, &toks) && toks.count
                        ? pc_clang_tok_spelling(cx, toks.items, (int)toks.count)
                        : NULL;
    PC_VEC_FREE(toks);
    return r;
}
