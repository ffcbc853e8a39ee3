/* clang_lex.c - a small C++ lexer over the main buffer and the readers built on its tokens:
 * integer expressions, shape lists, dtypes, strings, runtime option values.
 *
 * They read what the cursor reader (clang_value.c) has no model of, from the written text of
 * the expression: an unknown name becomes the symbol of that name, a call poolcheck cannot
 * evaluate an opaque symbol of its spelling (pc_clang_written_int and friends take a cursor's
 * written extent, a macro argument where it is written). */
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

const char *pc_clang_string_value(pc_cx *cx, const pc_ctok *t)
{
    const char *s = t->text, *e = t->text + t->len;
    while (s < e && *s != '"')
        s++;
    if (s >= e)
        return pc_arena_strdup(cx->scratch, "");
    bool raw = s > t->text && s[-1] == 'R';
    pc_sb b = {0};
    if (raw) {
        const char *open = memchr(s, '(', (size_t)(e - s));
        const char *close = e - 1;
        while (close > s && *close != ')')
            close--;
        if (open && close > open)
            pc_sb_appendn(&b, open + 1, (size_t)(close - open - 1));
    } else {
        for (const char *p = s + 1; p < e && *p != '"'; p++) {
            if (*p != '\\' || p + 1 >= e) {
                pc_sb_putc(&b, *p);
                continue;
            }
            p++;
            switch (*p) {
            case 'n': pc_sb_putc(&b, '\n'); break;
            case 't': pc_sb_putc(&b, '\t'); break;
            case 'r': pc_sb_putc(&b, '\r'); break;
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
                int v = 0, k = 0;
                while (k < 3 && p < e && *p >= '0' && *p <= '7') {
                    v = v * 8 + (*p - '0');
                    p++, k++;
                }
                p--;
                pc_sb_putc(&b, (char)v);
                break;
            }
            case 'x': {
                int v = 0;
                while (p + 1 < e && isxdigit((unsigned char)p[1])) {
                    p++;
                    v = v * 16 + (isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
                }
                pc_sb_putc(&b, (char)v);
                break;
            }
            default: pc_sb_putc(&b, *p); break;
            }
        }
    }
    char *str = pc_sb_take(&b);
    const char *r = pc_arena_strdup(cx->scratch, str);
    pc_mem_free(str);
    return r;
}

/* ---- integer literals ------------------------------------------------------------------------ */

/* A number token's text without its ' digit separators (1'000'000), cut to size - 1 bytes. */
static void literal_digits(const pc_ctok *t, char *out, size_t size)
{
    size_t n = 0;
    for (uint32_t k = 0; k < t->len && n + 1 < size; k++)
        if (t->text[k] != '\'')
            out[n++] = t->text[k];
    out[n] = 0;
}

/* An integer literal (decimal, hex, octal, binary; ' separators; u/l suffixes).  False for
 * floating literals and anything malformed. */
static bool int_literal(const pc_ctok *t, int64_t *out)
{
    char digits[80];
    literal_digits(t, digits, sizeof digits);
    int base = 10;
    const char *p = digits;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, p += 2;
    else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
        base = 2, p += 2;
    else if (p[0] == '0' && p[1])
        base = 8;
    if (base == 10 || base == 8)
        for (const char *q = p; *q; q++)
            if (*q == '.' || *q == 'e' || *q == 'E')
                return false;
    if (base == 16)
        for (const char *q = p; *q; q++)
            if (*q == '.' || *q == 'p' || *q == 'P')
                return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, base);
    if (errno || end == p)
        return false;
    for (; *end; end++)
        if (!strchr("uUlLzZ", *end))
            return false;
    *out = (int64_t)v;
    return true;
}

static bool float_literal(const pc_ctok *t, double *out)
{
    char buf[80];
    literal_digits(t, buf, sizeof buf);
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || errno)
        return false;
    for (; *end; end++)
        if (!strchr("fFlL", *end))
            return false;
    *out = v;
    return true;
}

/* ---- tensors seen from tokens ------------------------------------------------------------------ */

/* The shape and dtype of the tensor variable named `name` here, created in the current kernel on
 * first use (dtype and variable may be NULL).  False when the name is not a tensor. */
static bool tensor_by_name(pc_cx *cx, const char *name, const pc_expr ***shape, int *ndims, pc_dtype *dtype,
                           const char **variable)
{
    int e = pc_clang_env_find(cx, name, PC_CENV_TENSOR);
    if (e < 0)
        return false;
    int t = pc_clang_env_tensor(cx, e);
    pc_dtype dt;
    const char *var;
    if (t >= 0) {
        pc_tensor *pt = &cx->m->kernels[cx->kernel].tensors[t];
        *shape = pt->shape;
        *ndims = pt->ndims;
        dt = pt->dtype;
        var = pt->variable;
    } else {
        pc_cenv *en = &cx->env.items[e];
        *shape = en->host.shape;
        *ndims = en->host.ndims;
        dt = en->host.dtype;
        var = en->name;
    }
    if (dtype)
        *dtype = dt;
    if (variable)
        *variable = var;
    return true;
}

const pc_expr *pc_clang_input_shape(pc_cx *cx, const char *tname, int64_t dim)
{
    pc_arena *a = pc_model_arena(cx->m);
    const pc_expr **shape = NULL;
    int ndims = -1;
    pc_dtype dt;
    const char *variable = tname;
    if (tensor_by_name(cx, tname, &shape, &ndims, &dt, &variable) && dim >= 0 && dim < ndims && shape[dim]) {
        /* a constant dim is that constant; any other (a host parameter `n`, an expression) is the
         * binding symbol, so `--bind x.shape[0]=...` applies as docs/model.md section 12 says */
        int64_t v;
        if (pc_expr_is_int(shape[dim], &v) && v >= 0)
            return shape[dim];
    }
    return pc_expr_sym(a, pc_arena_printf(cx->scratch, "%s.shape[%lld]", variable, (long long)dim));
}

/* ---- integer expressions ------------------------------------------------------------------------ */

typedef struct eparse {
    pc_cx *cx;
    const pc_ctok *t;
    int n, i;
} eparse;

static const pc_expr *e_cond(eparse *p);

static bool at(eparse *p, const char *s) { return p->i < p->n && pc_ctok_is(&p->t[p->i], s); }

static bool eat(eparse *p, const char *s)
{
    if (!at(p, s))
        return false;
    p->i++;
    return true;
}

static const pc_expr *opaque(eparse *p, int from)
{
    if (from >= p->i)
        return NULL;
    return pc_expr_sym(pc_model_arena(p->cx->m), pc_clang_tok_spelling(p->cx, p->t + from, p->i - from));
}

static const pc_expr *sub_expr(pc_cx *cx, const pc_ctok *t, int n)
{
    eparse q = {cx, t, n, 0};
    const pc_expr *e = e_cond(&q);
    if (!e || q.i != n)
        return n > 0 ? pc_expr_sym(pc_model_arena(cx->m), pc_clang_tok_spelling(cx, t, n)) : NULL;
    return e;
}

static bool is_type_word(const pc_ctok *t)
{
    static const char *const w[] = {"int", "long", "unsigned", "short", "char", "signed", "const", "size_t",
                                    "int64_t", "int32_t", "int16_t", "int8_t", "uint64_t", "uint32_t",
                                    "uint16_t", "uint8_t", "std", "::", "ssize_t", "ptrdiff_t", NULL};
    for (int k = 0; w[k]; k++)
        if (pc_ctok_is(t, w[k]))
            return true;
    return false;
}

static bool name_is_ci(const char *s, const char *const *names)
{
    for (int k = 0; names[k]; k++)
        if (strcasecmp(s, names[k]) == 0)
            return true;
    return false;
}

/* A call `name(args)` whose tokens are t[open+1, close). */
static const pc_expr *call_expr(eparse *p, const char *name, int open, int close)
{
    pc_cx *cx = p->cx;
    pc_arena *a = pc_model_arena(cx->m);
    int st[8], en[8];
    int na = pc_clang_split_args(p->t + open + 1, close - open - 1, st, en, 8);
    const pc_ctok *args = p->t + open + 1;
    static const char *const ceil_names[] = {"CeilDiv", "ceil_div", "CeilDivision", "DivCeil", "CeilDivide", NULL};
    static const char *const type_names[] = {"SymbolicScalar", "int64_t", "int32_t", "int", "long", "size_t",
                                             "uint64_t", "uint32_t", "unsigned", NULL};
    if (strcmp(name, "GetInputShape") == 0 && na == 2) {
        const pc_expr *d = sub_expr(cx, args + st[1], en[1] - st[1]);
        int64_t dv;
        if (d && pc_expr_is_int(d, &dv))
            return pc_clang_input_shape(cx, pc_clang_tok_spelling(cx, args + st[0], en[0] - st[0]), dv);
        return NULL;
    }
    /* GetTensorData(t, {i, j}) in written text (a LoopRange clang dropped): the same
     * one-element symbol `t[i,j]` as the AST reader makes of it */
    if ((!strcmp(name, "GetTensorData") || !strcmp(name, "GetInputData")) && na == 2 && en[0] - st[0] == 1 &&
        args[st[0]].kind == PC_CTOK_IDENT && en[1] - st[1] >= 2 && pc_ctok_is(&args[st[1]], "{") &&
        pc_clang_match(args, en[1], st[1]) == en[1] - 1) {
        const pc_ctok *il = args + st[1] + 1;
        int ist[8], ien[8];
        int ni = pc_clang_split_args(il, en[1] - st[1] - 2, ist, ien, 8);
        const pc_expr *idx[8];
        for (int q = 0; q < ni; q++)
            idx[q] = sub_expr(cx, il + ist[q], ien[q] - ist[q]);
        return ni >= 1 && ni <= 8 ? pc_clang_tensor_data(cx, pc_clang_tok_spelling(cx, args + st[0], 1), idx, ni) : NULL;
    }
    if ((!strcmp(name, "min") || !strcmp(name, "Min") || !strcmp(name, "max") || !strcmp(name, "Max")) && na >= 2) {
        pc_expr_kind k = name[1] == 'i' ? PC_EXPR_MIN : PC_EXPR_MAX;
        const pc_expr *acc = sub_expr(cx, args + st[0], en[0] - st[0]);
        for (int q = 1; q < na && acc; q++)
            acc = pc_expr_bin(a, k, acc, sub_expr(cx, args + st[q], en[q] - st[q]));
        return acc;
    }
    if (name_is_ci(name, ceil_names) && na == 2)
        return pc_expr_bin(a, PC_EXPR_CEILDIV, sub_expr(cx, args + st[0], en[0] - st[0]),
                           sub_expr(cx, args + st[1], en[1] - st[1]));
    for (int k = 0; type_names[k]; k++)
        if (strcmp(name, type_names[k]) == 0 && (na == 1 || na == 2)) {
            const pc_ctok *v = args + st[na - 1];
            int vn = en[na - 1] - st[na - 1];
            if (na == 1 && vn >= 1 && v[0].kind == PC_CTOK_STRING) /* SymbolicScalar("n") */
                return pc_expr_sym(a, pc_clang_string_arg(cx, v, vn));
            return sub_expr(cx, v, vn);
        }
    /* a helper of the translation unit (`constexpr T Ceil(T a, T b) { return ...; }`), found by
     * its declaration and evaluated over its AST with the arguments bound */
    const pc_expr *vals[8];
    bool all = na <= 8;
    for (int q = 0; q < na && all; q++) {
        vals[q] = sub_expr(cx, args + st[q], en[q] - st[q]);
        all = vals[q] != NULL;
    }
    return all ? pc_clang_call_by_name(cx, name, vals, na) : NULL;
}

/* Postfix uses of a named variable: x.GetShape()[d], x.GetShape(d), x.Dim(), v.size(), v[i]. */
static const pc_expr *member_expr(eparse *p, const char *name)
{
    pc_cx *cx = p->cx;
    pc_arena *a = pc_model_arena(cx->m);
    const pc_ctok *t = p->t;
    int i = p->i;
    int le = pc_clang_env_find(cx, name, PC_CENV_LIST);
    if (le >= 0 && i < p->n && pc_ctok_is(&t[i], "[")) {
        int close = pc_clang_match(t, p->n, i);
        const pc_expr *ix = close < p->n ? sub_expr(cx, t + i + 1, close - i - 1) : NULL;
        int64_t k;
        pc_cenv *en = &cx->env.items[le];
        if (ix && pc_expr_is_int(ix, &k) && k >= 0 && k < en->nlist && en->list[k]) {
            p->i = close + 1;
            return en->list[k];
        }
        return NULL;
    }
    if (i + 3 < p->n && (pc_ctok_is(&t[i], ".") || pc_ctok_is(&t[i], "->")) && t[i + 1].kind == PC_CTOK_IDENT &&
        pc_ctok_is(&t[i + 2], "(")) {
        int close = pc_clang_match(t, p->n, i + 2);
        if (close >= p->n)
            return NULL;
        const pc_ctok *m = &t[i + 1];
        if (le >= 0 && pc_ctok_is(m, "size") && close == i + 3) {
            p->i = close + 1;
            return pc_expr_int(a, cx->env.items[le].nlist);
        }
        const pc_expr **shape;
        int ndims;
        if (!tensor_by_name(cx, name, &shape, &ndims, NULL, NULL))
            return NULL;
        if (pc_ctok_is(m, "Dim") && close == i + 3 && ndims >= 0) {
            p->i = close + 1;
            return pc_expr_int(a, ndims);
        }
        if (pc_ctok_is(m, "GetShape")) {
            const pc_expr *ix = NULL;
            int after = close + 1;
            if (close > i + 3)
                ix = sub_expr(cx, t + i + 3, close - i - 3);
            else if (after < p->n && pc_ctok_is(&t[after], "[")) {
                int c2 = pc_clang_match(t, p->n, after);
                if (c2 >= p->n)
                    return NULL;
                ix = sub_expr(cx, t + after + 1, c2 - after - 1);
                after = c2 + 1;
            } else if (after + 3 < p->n && pc_ctok_is(&t[after], ".") && pc_ctok_is(&t[after + 1], "size")) {
                if (ndims < 0)
                    return NULL;
                p->i = after + 4;
                return pc_expr_int(a, ndims);
            }
            int64_t k;
            if (ix && pc_expr_is_int(ix, &k) && k >= 0 && k < ndims && shape[k]) {
                p->i = after;
                return shape[k];
            }
        }
    }
    return NULL;
}

static const pc_expr *e_primary(eparse *p)
{
    pc_cx *cx = p->cx;
    pc_arena *a = pc_model_arena(cx->m);
    int from = p->i;
    if (p->i >= p->n)
        return NULL;
    const pc_ctok *t = &p->t[p->i];
    if (pc_ctok_is(t, "(")) {
        int close = pc_clang_match(p->t, p->n, p->i);
        if (close >= p->n)
            return NULL;
        bool cast = close > p->i + 1 && close + 1 < p->n;
        for (int k = p->i + 1; k < close && cast; k++)
            cast = is_type_word(&p->t[k]);
        if (cast) { /* C-style cast to an integer type */
            p->i = close + 1;
            return e_primary(p);
        }
        const pc_expr *e = sub_expr(cx, p->t + p->i + 1, close - p->i - 1);
        p->i = close + 1;
        return e;
    }
    if (t->kind == PC_CTOK_NUMBER) {
        int64_t v;
        p->i++;
        if (int_literal(t, &v))
            return pc_expr_int(a, v);
        return opaque(p, from);
    }
    if (t->kind == PC_CTOK_STRING || t->kind == PC_CTOK_CHAR) {
        p->i++;
        return opaque(p, from);
    }
    if (t->kind == PC_CTOK_IDENT || pc_ctok_is(t, "::")) {
        if (pc_ctok_is(t, "true") || pc_ctok_is(t, "false")) {
            p->i++;
            return pc_expr_int(a, pc_ctok_is(t, "true"));
        }
        if (pc_ctok_is(t, "nullptr")) {
            p->i++;
            return pc_expr_int(a, 0);
        }
        if (pc_ctok_is(t, "static_cast") || pc_ctok_is(t, "reinterpret_cast") || pc_ctok_is(t, "const_cast")) {
            int k = pc_clang_skip_template_args(p->t, p->n, p->i + 1) - 1; /* the closing '>' */
            if (k >= 0 && k + 1 < p->n && pc_ctok_is(&p->t[k + 1], "(")) {
                int close = pc_clang_match(p->t, p->n, k + 1);
                if (close < p->n) {
                    const pc_expr *e = sub_expr(cx, p->t + k + 2, close - k - 2);
                    p->i = close + 1;
                    return e;
                }
            }
            return NULL;
        }
        /* a (possibly qualified) name */
        const pc_ctok *last = NULL;
        while (p->i < p->n) {
            if (pc_ctok_is(&p->t[p->i], "::")) {
                p->i++;
                continue;
            }
            if (p->t[p->i].kind != PC_CTOK_IDENT)
                break;
            last = &p->t[p->i++];
            if (!(p->i < p->n && pc_ctok_is(&p->t[p->i], "::")))
                break;
        }
        if (!last)
            return NULL;
        const char *name = pc_arena_strndup(cx->scratch, last->text, last->len);
        bool qualified = p->i - from > 1;
        /* template arguments of a call: min<int64_t>(...), Ceil<int64_t>(...) */
        if (p->i < p->n && pc_ctok_is(&p->t[p->i], "<")) {
            int k = pc_clang_skip_template_args(p->t, p->n, p->i);
            if (k > 0 && k < p->n && pc_ctok_is(&p->t[k], "("))
                p->i = k;
        }
        if (p->i < p->n && pc_ctok_is(&p->t[p->i], "(")) {
            int close = pc_clang_match(p->t, p->n, p->i);
            if (close >= p->n)
                return NULL;
            const pc_expr *e = call_expr(p, name, p->i, close);
            p->i = close + 1;
            return e ? e : opaque(p, from);
        }
        if (!qualified) {
            int save = p->i;
            const pc_expr *m = member_expr(p, name);
            if (m)
                return m;
            p->i = save;
        }
        int e = pc_clang_env_find(cx, name, PC_CENV_EXPR);
        if (e >= 0 && (!qualified || cx->env.items[e].frame == 0))
            return cx->env.items[e].expr;
        /* a constant of an included project header (model.md 2, "Code outside the file") */
        const pc_expr *hc = pc_clang_header_constant(cx, pc_clang_tok_spelling(cx, p->t + from, p->i - from));
        if (hc)
            return hc;
        return qualified ? opaque(p, from) : pc_expr_sym(a, name);
    }
    return NULL;
}

/* postfix operators on an opaque primary: a[i], a.b, a->b(), a(...) */
static const pc_expr *e_postfix(eparse *p)
{
    int from = p->i;
    const pc_expr *e = e_primary(p);
    if (!e)
        return NULL;
    bool more = false;
    while (p->i < p->n) {
        const pc_ctok *t = &p->t[p->i];
        if (pc_ctok_is(t, "[") || pc_ctok_is(t, "(")) {
            int close = pc_clang_match(p->t, p->n, p->i);
            if (close >= p->n)
                return NULL;
            p->i = close + 1;
            more = true;
        } else if ((pc_ctok_is(t, ".") || pc_ctok_is(t, "->")) && p->i + 1 < p->n &&
                   p->t[p->i + 1].kind == PC_CTOK_IDENT) {
            p->i += 2;
            more = true;
        } else {
            break;
        }
    }
    return more ? opaque(p, from) : e;
}

static const pc_expr *e_unary(eparse *p)
{
    pc_arena *a = pc_model_arena(p->cx->m);
    int from = p->i;
    if (eat(p, "-")) {
        const pc_expr *e = e_unary(p);
        return e ? pc_expr_neg(a, e) : NULL;
    }
    if (eat(p, "+"))
        return e_unary(p);
    if (at(p, "!") || at(p, "~")) {
        bool nt = at(p, "!");
        p->i++;
        const pc_expr *e = e_unary(p);
        int64_t v;
        if (e && pc_expr_is_int(e, &v))
            return pc_expr_int(a, nt ? !v : ~v);
        return e ? opaque(p, from) : NULL;
    }
    if (at(p, "sizeof") || at(p, "&") || at(p, "*")) {
        p->i++;
        if (!e_unary(p))
            return NULL;
        return opaque(p, from);
    }
    return e_postfix(p);
}

static const pc_expr *e_mul(eparse *p)
{
    pc_arena *a = pc_model_arena(p->cx->m);
    const pc_expr *l = e_unary(p);
    while (l && (at(p, "*") || at(p, "/") || at(p, "%"))) {
        char op = p->t[p->i].text[0];
        p->i++;
        const pc_expr *r = e_unary(p);
        if (!r)
            return NULL;
        int64_t rv;
        if (op != '*' && pc_expr_is_int(r, &rv) && rv == 0) /* keep x/0 symbolic: folding would drop it */
            l = pc_expr_sym(a, "division_by_zero");
        else
            l = op == '%' ? pc_clang_cpp_mod(a, l, r) : pc_expr_bin(a, op == '*' ? PC_EXPR_MUL : PC_EXPR_DIV, l, r);
    }
    return l;
}

static const pc_expr *e_add(eparse *p)
{
    pc_arena *a = pc_model_arena(p->cx->m);
    const pc_expr *l = e_mul(p);
    while (l && (at(p, "+") || at(p, "-"))) {
        bool plus = p->t[p->i].text[0] == '+';
        p->i++;
        const pc_expr *r = e_mul(p);
        if (!r)
            return NULL;
        l = pc_expr_bin(a, plus ? PC_EXPR_ADD : PC_EXPR_SUB, l, r);
    }
    return l;
}

/* Binary operators that pc_expr cannot hold: folded when both sides are integers, otherwise the
 * whole subexpression becomes an opaque symbol. */
typedef struct bop { const char *op; int level; } bop;
static const bop bops[] = {
    {"<<", 0}, {">>", 0}, {"<", 1}, {"<=", 1}, {">", 1}, {">=", 1}, {"==", 2}, {"!=", 2},
    {"&", 3}, {"^", 4}, {"|", 5}, {"&&", 6}, {"||", 7}, {NULL, 0},
};

static int64_t fold_bop(const char *op, int64_t x, int64_t y)
{
    if (!strcmp(op, "<<")) return y >= 0 && y < 63 ? x << y : 0;
    if (!strcmp(op, ">>")) return y >= 0 && y < 63 ? x >> y : 0;
    if (!strcmp(op, "<")) return x < y;
    if (!strcmp(op, "<=")) return x <= y;
    if (!strcmp(op, ">")) return x > y;
    if (!strcmp(op, ">=")) return x >= y;
    if (!strcmp(op, "==")) return x == y;
    if (!strcmp(op, "!=")) return x != y;
    if (!strcmp(op, "&")) return x & y;
    if (!strcmp(op, "^")) return x ^ y;
    if (!strcmp(op, "|")) return x | y;
    if (!strcmp(op, "&&")) return x && y;
    return x || y;
}

static const pc_expr *e_bin(eparse *p, int level)
{
    if (level < 0)
        return e_add(p);
    int from = p->i;
    const pc_expr *l = e_bin(p, level - 1);
    bool opaque_result = false;
    while (l && p->i < p->n) {
        const bop *b = NULL;
        for (int k = 0; bops[k].op; k++)
            if (bops[k].level == level && pc_ctok_is(&p->t[p->i], bops[k].op))
                b = &bops[k];
        if (!b)
            break;
        p->i++;
        const pc_expr *r = e_bin(p, level - 1);
        if (!r)
            return NULL;
        int64_t x, y;
        if (!opaque_result && pc_expr_is_int(l, &x) && pc_expr_is_int(r, &y))
            l = pc_expr_int(pc_model_arena(p->cx->m), fold_bop(b->op, x, y));
        else
            opaque_result = true;
    }
    return opaque_result ? opaque(p, from) : l;
}

static const pc_expr *e_cond(eparse *p)
{
    int from = p->i;
    const pc_expr *c = e_bin(p, 7);
    if (!c || !at(p, "?"))
        return c;
    p->i++;
    const pc_expr *x = e_cond(p);
    if (!x || !eat(p, ":"))
        return NULL;
    const pc_expr *y = e_cond(p);
    if (!y)
        return NULL;
    int64_t v;
    if (pc_expr_is_int(c, &v))
        return v ? x : y;
    return opaque(p, from);
}

const pc_expr *pc_clang_int_expr(pc_cx *cx, const pc_ctok *t, int n)
{
    if (n <= 0)
        return NULL;
    eparse p = {cx, t, n, 0};
    const pc_expr *e = e_cond(&p);
    if (!e)
        return NULL;
    if (p.i != n) /* trailing tokens we do not understand: the whole thing is one symbol */
        return pc_expr_sym(pc_model_arena(cx->m), pc_clang_tok_spelling(cx, t, n));
    return e;
}

const pc_expr *pc_clang_written_int(pc_cx *cx, CXCursor e)
{
    uint32_t b, en;
    if (!pc_clang_written_offsets(cx, e, &b, &en) || en <= b)
        return NULL;
    pc_ctoks toks = {0};
    pc_clang_src_lex(cx, b, en, &toks);
    const pc_expr *v = pc_clang_int_expr(cx, toks.items, (int)toks.count);
    PC_VEC_FREE(toks);
    return v;
}

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

bool pc_clang_value_list_written(pc_cx *cx, CXCursor e, const pc_expr ***dims, int *nd)
{
    if (pc_clang_value_list(cx, e, dims, nd))
        return true;
    uint32_t b, en;
    if (!pc_clang_written_offsets(cx, e, &b, &en) || en <= b)
        return false;
    pc_ctoks toks = {0};
    pc_clang_src_lex(cx, b, en, &toks);
    bool ok = pc_clang_shape_list(cx, toks.items, (int)toks.count, dims, nd);
    PC_VEC_FREE(toks);
    return ok;
}

/* ---- shapes, dtypes, strings ---------------------------------------------------------------------- */

/* Skip a leading type spelling (std::vector<int64_t>, Shape, npu::tile_fwk::Shape) before a
 * brace or parenthesis; returns the index of that bracket or -1. */
static int after_type_prefix(const pc_ctok *t, int n)
{
    int k = 0, depth = 0;
    for (; k < n; k++) {
        if (depth == 0 && (pc_ctok_is(&t[k], "{") || pc_ctok_is(&t[k], "(")))
            return k;
        if (pc_ctok_is(&t[k], "<")) {
            int after = pc_clang_skip_template_args(t, n, k);
            if (after < 0)
                return -1;
            k = after - 1;
        } else if (depth == 0 && t[k].kind != PC_CTOK_IDENT && !pc_ctok_is(&t[k], "::"))
            return -1;
    }
    return -1;
}

bool pc_clang_shape_list(pc_cx *cx, const pc_ctok *t, int n, const pc_expr ***dims, int *ndims)
{
    pc_arena *a = pc_model_arena(cx->m);
    if (n <= 0)
        return false;
    if (pc_ctok_is(&t[0], "{")) {
        int close = pc_clang_match(t, n, 0);
        if (close != n - 1)
            return false;
        /* as many items as are written: a list has at most one more than it has tokens */
        int *st = pc_mem_alloc(sizeof *st * (size_t)n), *en = pc_mem_alloc(sizeof *en * (size_t)n);
        int na = pc_clang_split_args(t + 1, close - 1, st, en, n);
        const pc_expr **d = pc_arena_alloc(a, sizeof *d * (size_t)(na ? na : 1));
        bool ok = true;
        for (int k = 0; k < na && ok; k++) {
            ok = !(en[k] > st[k] && pc_ctok_is(&t[1 + st[k]], "{"));
            if (ok)
                ok = (d[k] = pc_clang_int_expr(cx, t + 1 + st[k], en[k] - st[k])) != NULL;
        }
        pc_mem_free(st);
        pc_mem_free(en);
        if (!ok)
            return false;
        *dims = d;
        *ndims = na;
        return true;
    }
    if (n == 1 && t[0].kind == PC_CTOK_IDENT) {
        const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
        int e = pc_clang_env_find(cx, name, PC_CENV_LIST);
        if (e < 0)
            return false;
        *dims = cx->env.items[e].list;
        *ndims = cx->env.items[e].nlist;
        return true;
    }
    /* x.GetShape() */
    if (n == 5 && t[0].kind == PC_CTOK_IDENT && pc_ctok_is(&t[1], ".") && pc_ctok_is(&t[2], "GetShape") &&
        pc_ctok_is(&t[3], "(") && pc_ctok_is(&t[4], ")")) {
        const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
        const pc_expr **shape;
        int nd;
        if (!tensor_by_name(cx, name, &shape, &nd, NULL, NULL) || nd < 0)
            return false;
        *dims = shape;
        *ndims = nd;
        return true;
    }
    /* GetInputShape(x) */
    if (n >= 4 && pc_ctok_is(&t[0], "GetInputShape") && pc_ctok_is(&t[1], "(") && pc_clang_match(t, n, 1) == n - 1) {
        const char *name = pc_clang_tok_spelling(cx, t + 2, n - 3);
        const pc_expr **shape;
        int nd;
        if (!tensor_by_name(cx, name, &shape, &nd, NULL, NULL) || nd < 0)
            return false;
        const pc_expr **d = pc_arena_alloc(a, sizeof *d * (size_t)(nd ? nd : 1));
        for (int k = 0; k < nd; k++)
            d[k] = pc_clang_input_shape(cx, name, k);
        *dims = d;
        *ndims = nd;
        return true;
    }
    int b = after_type_prefix(t, n);
    if (b > 0) {
        int close = pc_clang_match(t, n, b);
        if (close != n - 1)
            return false;
        /* `F({16, 64})` reads like `Shape({16, 64})`: only a type's construction is its argument;
         * a function's value is its own (clang_hostfn.c runs the helpers it can) */
        if (pc_clang_token_names_function(cx, &t[b - 1]))
            return false;
        if (pc_ctok_is(&t[b], "{"))
            return pc_clang_shape_list(cx, t + b, n - b, dims, ndims);
        /* std::vector<int64_t>({...}) */
        return pc_clang_shape_list(cx, t + b + 1, close - b - 1, dims, ndims);
    }
    return false;
}

pc_dtype pc_clang_dtype(pc_cx *cx, const pc_ctok *t, int n)
{
    if (n <= 0)
        return PC_DT_UNKNOWN;
    for (int k = 0; k < n; k++)
        if (t[k].kind == PC_CTOK_IDENT && t[k].len > 3 && memcmp(t[k].text, "DT_", 3) == 0) {
            const char *nm = pc_arena_strndup(cx->scratch, t[k].text, t[k].len);
            return pc_dtype_from_name(nm);
        }
    if (t[0].kind != PC_CTOK_IDENT)
        return PC_DT_UNKNOWN;
    const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
    if (n == 1) {
        int e = pc_clang_env_find(cx, name, PC_CENV_DTYPE);
        return e >= 0 ? cx->env.items[e].dtype : PC_DT_UNKNOWN;
    }
    /* x.GetDataType(), x.GetStorage()->Datatype() */
    bool getter = false;
    for (int k = 1; k < n; k++)
        if (pc_ctok_is(&t[k], "GetDataType") || pc_ctok_is(&t[k], "Datatype"))
            getter = true;
    if (getter) {
        const pc_expr **shape;
        int nd;
        pc_dtype dt;
        if (tensor_by_name(cx, name, &shape, &nd, &dt, NULL))
            return dt;
    }
    return PC_DT_UNKNOWN;
}

const char *pc_clang_string_arg(pc_cx *cx, const pc_ctok *t, int n)
{
    if (n <= 0)
        return NULL;
    bool all_strings = true;
    for (int k = 0; k < n; k++)
        all_strings = all_strings && t[k].kind == PC_CTOK_STRING;
    if (all_strings) {
        pc_sb b = {0};
        for (int k = 0; k < n; k++)
            pc_sb_append(&b, pc_clang_string_value(cx, &t[k]));
        char *s = pc_sb_take(&b);
        const char *r = pc_arena_strdup(cx->scratch, s);
        pc_mem_free(s);
        return r;
    }
    if (n == 1 && t[0].kind == PC_CTOK_IDENT) {
        const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
        int e = pc_clang_env_find(cx, name, PC_CENV_STRING);
        return e >= 0 ? cx->env.items[e].str : NULL;
    }
    /* std::string("x") */
    int b = after_type_prefix(t, n);
    if (b > 0 && pc_clang_match(t, n, b) == n - 1)
        return pc_clang_string_arg(cx, t + b + 1, n - b - 2);
    return NULL;
}

/* ---- runtime option values ------------------------------------------------------------------------ */

void pc_clang_optval(pc_cx *cx, const pc_ctok *t, int n, pc_optval *out)
{
    memset(out, 0, sizeof *out);
    out->kind = PC_OPT_UNKNOWN;
    out->text = "";
    if (n <= 0)
        return;
    out->loc = pc_clang_loc_range(cx, t[0].off, t[n - 1].off + t[n - 1].len);
    out->text = pc_model_strdup(cx->m, pc_clang_tok_spelling(cx, t, n));
    if (n == 1 && (pc_ctok_is(&t[0], "true") || pc_ctok_is(&t[0], "false"))) {
        out->kind = PC_OPT_BOOL;
        out->i = pc_ctok_is(&t[0], "true");
        return;
    }
    if (t[0].kind == PC_CTOK_STRING) {
        const char *s = pc_clang_string_arg(cx, t, n);
        if (s) {
            out->kind = PC_OPT_STRING;
            out->text = pc_model_strdup(cx->m, s);
        }
        return;
    }
    /* a list: {a, b, c}, std::vector<int64_t>{...}, std::vector<int64_t>({...}) */
    int b = pc_ctok_is(&t[0], "{") ? 0 : after_type_prefix(t, n);
    if (b >= 0 && pc_clang_match(t, n, b) == n - 1) {
        const pc_ctok *in = t + b + 1;
        int inn = n - b - 2;
        if (pc_ctok_is(&t[b], "(") && inn >= 2 && pc_ctok_is(&in[0], "{") && pc_clang_match(in, inn, 0) == inn - 1) {
            in++;
            inn -= 2;
        }
        if (pc_ctok_is(&t[b], "{") || (pc_ctok_is(&t[b], "(") && in != t + b + 1)) {
            int *st = pc_mem_alloc(sizeof *st * (size_t)(inn + 1)), *en = pc_mem_alloc(sizeof *en * (size_t)(inn + 1));
            int na = pc_clang_split_args(in, inn, st, en, inn + 1);
            out->kind = PC_OPT_LIST;
            out->nitems = na;
            out->items = pc_arena_alloc(pc_model_arena(cx->m), sizeof *out->items * (size_t)(na ? na : 1));
            for (int k = 0; k < na; k++)
                pc_clang_optval(cx, in + st[k], en[k] - st[k], &out->items[k]);
            pc_mem_free(st);
            pc_mem_free(en);
            return;
        }
    }
    int neg = (n == 2 && pc_ctok_is(&t[0], "-")) ? 1 : 0;
    if (n == 1 + neg && t[neg].kind == PC_CTOK_NUMBER) {
        int64_t v;
        double f;
        if (int_literal(&t[neg], &v)) {
            out->kind = PC_OPT_INT;
            out->i = neg ? -v : v;
            return;
        }
        if (float_literal(&t[neg], &f)) {
            out->kind = PC_OPT_FLOAT;
            out->f = neg ? -f : f;
            return;
        }
    }
    if (n == 1 && t[0].kind == PC_CTOK_IDENT) {
        const char *name = pc_arena_strndup(cx->scratch, t[0].text, t[0].len);
        int e = pc_clang_env_find(cx, name, -1);
        if (e >= 0 && cx->env.items[e].kind == PC_CENV_LIST) {
            pc_cenv *en = &cx->env.items[e];
            out->kind = PC_OPT_LIST;
            out->nitems = en->nlist;
            out->items = pc_arena_alloc(pc_model_arena(cx->m), sizeof *out->items * (size_t)(en->nlist ? en->nlist : 1));
            for (int k = 0; k < en->nlist; k++) {
                int64_t v;
                out->items[k].loc = out->loc;
                out->items[k].text = "";
                if (en->list[k] && pc_expr_is_int(en->list[k], &v)) {
                    out->items[k].kind = PC_OPT_INT;
                    out->items[k].i = v;
                } else {
                    out->items[k].kind = PC_OPT_UNKNOWN;
                }
            }
            return;
        }
        if (e >= 0 && cx->env.items[e].kind == PC_CENV_STRING) {
            out->kind = PC_OPT_STRING;
            out->text = pc_model_strdup(cx->m, cx->env.items[e].str);
            return;
        }
    }
    const pc_expr *e = pc_clang_int_expr(cx, t, n);
    int64_t v;
    if (e && pc_expr_is_int(e, &v)) {
        out->kind = PC_OPT_INT;
        out->i = v;
    }
}
