/* config.c - runtime options: defaults, validation as upstream does it, precedence, --set.
 *
 * Validation mirrors python/pypto/experimental/runtime.py `_validate_stitch_function_num_per_pool`
 * (a list or tuple of exactly 3 ints in [0, 1024], bool is not an int) and, for the other options,
 * the ranges of tile_fwk_config_schema.json (stitch_function_max_num 1..1024, max_workspace_kb
 * 0..2147483647, device_sched_parallelism 1..8).  Messages echo upstream's so users can search
 * them; values are rendered as Python prints them.
 */
#define _POSIX_C_SOURCE 200809L
#include "poolcheck/config.h"
#include "support/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- defaults and derived values --------------------------------------------------------------- */

void pc_cfg_defaults(pc_runtime_config *c)
{
    memset(c, 0, sizeof *c);
    c->max_num = 128;
    c->workspace_kb = 0;
    c->parallelism = 1;
}

bool pc_cfg_precise(const pc_runtime_config *c) { return c->pool[0] || c->pool[1] || c->pool[2]; }

/* upstream reads stitch_function_max_num as uint16 and caps it at MAX_STITCH_FUNC_NUM = 1024 */
int64_t pc_cfg_k(const pc_runtime_config *c) { return c->max_num > PC_MAX_DEPTH ? PC_MAX_DEPTH : c->max_num; }

void pc_cfg_effective_pool(const pc_runtime_config *c, int64_t out[3])
{
    bool precise = pc_cfg_precise(c);
    for (int i = 0; i < 3; i++)
        out[i] = precise ? c->pool[i] : pc_cfg_k(c);
}

/* ---- Python rendering --------------------------------------------------------------------------- */

/* repr(float): the shortest digits that read back as d, fixed notation for exponents -4..15,
 * else d.ddde+XX (at least two exponent digits), as CPython's float_repr_style 'short'. */
static void py_float_repr(pc_sb *b, double d)
{
    if (isnan(d)) {
        pc_sb_append(b, "nan");
        return;
    }
    if (isinf(d)) {
        pc_sb_append(b, d < 0 ? "-inf" : "inf");
        return;
    }
    if (signbit(d))
        pc_sb_putc(b, '-');
    double x = fabs(d);
    if (x == 0) {
        pc_sb_append(b, "0.0");
        return;
    }
    char buf[40];
    int p;
    for (p = 0; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    char digits[24];
    int nd = 0;
    const char *q = buf;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9')
            digits[nd++] = *q;
    int exp10 = atoi(q + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 >= 0) {
            for (int i = 0; i <= exp10; i++)
                pc_sb_putc(b, i < nd ? digits[i] : '0');
            pc_sb_putc(b, '.');
            if (nd > exp10 + 1)
                pc_sb_appendn(b, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
            else
                pc_sb_putc(b, '0');
        } else {
            pc_sb_append(b, "0.");
            for (int i = 0; i < -exp10 - 1; i++)
                pc_sb_putc(b, '0');
            pc_sb_appendn(b, digits, (size_t)nd);
        }
    } else {
        pc_sb_putc(b, digits[0]);
        if (nd > 1) {
            pc_sb_putc(b, '.');
            pc_sb_appendn(b, digits + 1, (size_t)(nd - 1));
        }
        pc_sb_printf(b, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    }
}

/* repr(str): single quotes unless the text has a ' and no ", escapes as CPython writes them. */
static void py_str_repr(pc_sb *b, const char *s)
{
    char quote = (strchr(s, '\'') && !strchr(s, '"')) ? '"' : '\'';
    pc_sb_putc(b, quote);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == (unsigned char)quote || *p == '\\') {
            pc_sb_putc(b, '\\');
            pc_sb_putc(b, (char)*p);
        } else if (*p == '\n') {
            pc_sb_append(b, "\\n");
        } else if (*p == '\r') {
            pc_sb_append(b, "\\r");
        } else if (*p == '\t') {
            pc_sb_append(b, "\\t");
        } else if (*p < 0x20 || *p == 0x7f) {
            pc_sb_printf(b, "\\x%02x", *p);
        } else {
            pc_sb_putc(b, (char)*p);
        }
    }
    pc_sb_putc(b, quote);
}

/* Digits with an optional '-': how an integer that is no int64 is written (JSON, --set). */
static bool integer_spelling(const char *t)
{
    if (!t)
        return false;
    t += *t == '-' || *t == '+';
    return *t && strspn(t, "0123456789") == strlen(t);
}

static void py_repr(pc_sb *b, const pc_optval *v, int depth)
{
    if (depth > 64) { /* Python would print a recursion placeholder; so do we */
        pc_sb_append(b, "[...]");
        return;
    }
    switch (v->kind) {
    case PC_OPT_INT: pc_sb_printf(b, "%lld", (long long)v->i); break;
    case PC_OPT_FLOAT:
        /* an integer beyond int64 (9223372036854775808) is still an int to Python: shown whole */
        if (integer_spelling(v->text))
            pc_sb_append(b, v->text + (v->text[0] == '+'));
        else
            py_float_repr(b, v->f);
        break;
    case PC_OPT_BOOL: pc_sb_append(b, v->i ? "True" : "False"); break;
    case PC_OPT_STRING: py_str_repr(b, v->text ? v->text : ""); break;
    case PC_OPT_NONE: pc_sb_append(b, "None"); break;
    case PC_OPT_LIST:
    case PC_OPT_TUPLE: {
        bool tuple = v->kind == PC_OPT_TUPLE;
        pc_sb_putc(b, tuple ? '(' : '[');
        for (int i = 0; i < v->nitems; i++) {
            if (i)
                pc_sb_append(b, ", ");
            py_repr(b, &v->items[i], depth + 1);
        }
        if (tuple && v->nitems == 1)
            pc_sb_putc(b, ',');
        pc_sb_putc(b, tuple ? ')' : ']');
        break;
    }
    case PC_OPT_UNKNOWN:
    default: pc_sb_append(b, v->text && *v->text ? v->text : "..."); break;
    }
}

static char *to_arena(pc_arena *a, pc_sb *b)
{
    char *s = pc_arena_strndup(a, b->data ? b->data : "", b->len);
    pc_sb_free(b);
    return s;
}

char *pc_cfg_value_text(pc_arena *a, const pc_optval *v)
{
    pc_sb b = {0};
    py_repr(&b, v, 0);
    return to_arena(a, &b);
}

char *pc_cfg_value_str(pc_arena *a, const pc_optval *v)
{
    if (v->kind == PC_OPT_STRING)
        return pc_arena_strdup(a, v->text ? v->text : "");
    return pc_cfg_value_text(a, v);
}

/* ---- validation ------------------------------------------------------------------------------ */

typedef enum verdict {
    V_OK,         /* valid and known: applies */
    V_NO_CHANGE,  /* None ("no change") or a value poolcheck cannot evaluate: valid, not applied */
    V_BAD_SHAPE,  /* pool: not a list/tuple of exactly 3 */
    V_BAD_ELEMENT,/* pool: an element that is not an int in [0, 1024] */
    V_BAD_INT,    /* another option: not an int in its range */
    V_UNMODELLED  /* a key poolcheck does not model: its value is not judged, never applied (whether
                     the key exists at all is PC003's question, keys.c) */
} verdict;

typedef struct int_option { const char *key; int64_t lo, hi; } int_option;

static const int_option int_options[] = {
    {PC_KEY_MAX_NUM, 1, PC_MAX_DEPTH},
    {PC_KEY_WORKSPACE_KB, 0, 2147483647},
    {PC_KEY_PARALLELISM, 1, 8},
};

static const int_option *find_int_option(const char *key)
{
    for (size_t i = 0; i < sizeof int_options / sizeof *int_options; i++)
        if (strcmp(int_options[i].key, key) == 0)
            return &int_options[i];
    return NULL;
}

/* isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi */
static bool is_int_in(const pc_optval *v, int64_t lo, int64_t hi)
{
    return v->kind == PC_OPT_INT && v->i >= lo && v->i <= hi;
}

static verdict judge(const char *key, const pc_optval *v)
{
    if (!key || !v)
        return V_UNMODELLED;
    bool pool = strcmp(key, PC_KEY_POOL) == 0;
    const int_option *io = pool ? NULL : find_int_option(key);
    if (!pool && !io)
        return V_UNMODELLED;
    if (v->kind == PC_OPT_NONE || v->kind == PC_OPT_UNKNOWN)
        return V_NO_CHANGE;
    if (io)
        return is_int_in(v, io->lo, io->hi) ? V_OK : V_BAD_INT;
    if ((v->kind != PC_OPT_LIST && v->kind != PC_OPT_TUPLE) || v->nitems != 3)
        return V_BAD_SHAPE;
    bool unknown = false;
    for (int i = 0; i < 3; i++) {
        if (v->items[i].kind == PC_OPT_UNKNOWN)
            unknown = true;    /* evaluated at run time: only the others can be judged */
        else if (!is_int_in(&v->items[i], 0, PC_MAX_DEPTH))
            return V_BAD_ELEMENT;
    }
    return unknown ? V_NO_CHANGE : V_OK;
}

const char *pc_cfg_validate(pc_arena *a, const char *key, const pc_optval *v)
{
    verdict vd = judge(key, v);
    if (vd == V_OK || vd == V_NO_CHANGE || vd == V_UNMODELLED)
        return NULL;
    /* upstream: f"Invalid stitch_function_num_per_pool: '{value}'. ..." (str() of the value) */
    const char *shown = a ? pc_cfg_value_str(a, v) : NULL;
    switch (vd) {
    case V_BAD_SHAPE:
        if (!a)
            return "Invalid stitch_function_num_per_pool. Expected a list of 3 ints in [0, 1024], meaning "
                   "[root_inner_depth, assemble_outcast_depth, exclusive_outcast_depth].";
        return pc_arena_printf(a,
                               "Invalid stitch_function_num_per_pool: '%s'. Expected a list of 3 ints in "
                               "[0, 1024], meaning [root_inner_depth, assemble_outcast_depth, "
                               "exclusive_outcast_depth].",
                               shown);
    case V_BAD_ELEMENT:
        if (!a)
            return "Invalid stitch_function_num_per_pool. Each element must be an int in [0, 1024].";
        return pc_arena_printf(a, "Invalid stitch_function_num_per_pool: '%s'. Each element must be an int in [0, 1024].",
                               shown);
    default: {
        const int_option *io = find_int_option(key);
        if (!a)
            return "Invalid runtime option value. Expected an int in its range.";
        return pc_arena_printf(a, "Invalid %s: '%s'. Expected an int in [%lld, %lld].", key, shown,
                               (long long)io->lo, (long long)io->hi);
    }
    }
}

bool pc_cfg_applicable(const char *key, const pc_optval *v) { return judge(key, v) == V_OK; }

void pc_cfg_apply(pc_runtime_config *c, const pc_option *opt)
{
    /* invalid values never apply: the value in force stays the previous valid one */
    if (!opt || !pc_cfg_applicable(opt->key, &opt->value))
        return;
    const char *k = opt->key;
    if (strcmp(k, PC_KEY_POOL) == 0) {
        for (int i = 0; i < 3; i++)
            c->pool[i] = opt->value.items[i].i;
        c->src_pool = opt;
    } else if (strcmp(k, PC_KEY_MAX_NUM) == 0) {
        c->max_num = opt->value.i;
        c->src_max_num = opt;
    } else if (strcmp(k, PC_KEY_WORKSPACE_KB) == 0) {
        c->workspace_kb = opt->value.i;
        c->src_workspace_kb = opt;
    } else if (strcmp(k, PC_KEY_PARALLELISM) == 0) {
        c->parallelism = opt->value.i;
        c->src_parallelism = opt;
    }
}

/* ---- precedence -------------------------------------------------------------------------------- */

enum {
    RANK_NONE = -1,
    RANK_CONFIG = 0,    /* tile_fwk_config.json "runtime" */
    RANK_PROJECT = 1,   /* .poolcheck.json "runtime" */
    RANK_MODULE = 2,    /* set_runtime_options / set_options / SetRuntimeOption outside a FUNCTION */
    RANK_SCOPE = 3,     /* pypto.options(runtime_options=...) */
    RANK_KERNEL = 4,    /* jit(runtime_options=...), SetRuntimeOption inside this kernel's FUNCTION */
    RANK_CLI = 5        /* --set */
};

/* Where an option sits in the precedence for kernel `kernel`, or RANK_NONE when it does not
 * apply to that kernel at all. */
static int rank_of(const pc_option *o, int kernel)
{
    if (o->in_kernel) /* PC005: read after the kernel was compiled */
        return RANK_NONE;
    bool mine = o->kernel == -1 || o->kernel == kernel;
    if (!mine)
        return RANK_NONE;
    switch (o->site) {
    case PC_SITE_CONFIG_FILE: return RANK_CONFIG;
    case PC_SITE_PROJECT_FILE: return RANK_PROJECT;
    case PC_SITE_SET_RUNTIME_OPTIONS:
    case PC_SITE_SET_OPTIONS: return RANK_MODULE;
    case PC_SITE_OPTIONS_SCOPE: return RANK_SCOPE;
    case PC_SITE_JIT: return RANK_KERNEL;
    case PC_SITE_CPP_SET_RUNTIME_OPTION: return o->kernel == -1 ? RANK_MODULE : RANK_KERNEL;
    case PC_SITE_COMMAND_LINE: return RANK_CLI;
    }
    return RANK_NONE;
}

/* Options from outside the source: a project file beats the config file, --set beats everything;
 * anything else passed in file_opts counts as the config file. */
static int external_rank(const pc_option *o)
{
    if (o->in_kernel)
        return RANK_NONE;
    return o->site == PC_SITE_COMMAND_LINE ? RANK_CLI : o->site == PC_SITE_PROJECT_FILE ? RANK_PROJECT : RANK_CONFIG;
}

void pc_cfg_resolve(pc_runtime_config *c, const pc_model *m, int kernel, const pc_option *file_opts,
                    size_t nfile_opts, const pc_option *cli_opts, size_t ncli_opts)
{
    pc_cfg_defaults(c);
    for (int rank = RANK_CONFIG; rank <= RANK_CLI; rank++) {
        for (size_t i = 0; i < nfile_opts; i++)
            if (external_rank(&file_opts[i]) == rank)
                pc_cfg_apply(c, &file_opts[i]);
        /* the source, in source order within a rank */
        for (int i = 0; m && i < m->noptions; i++)
            if (rank_of(&m->options[i], kernel) == rank)
                pc_cfg_apply(c, &m->options[i]);
        for (size_t i = 0; rank == RANK_CLI && i < ncli_opts; i++)
            if (!cli_opts[i].in_kernel)
                pc_cfg_apply(c, &cli_opts[i]);
    }
}

/* ---- --set KEY=VALUE ----------------------------------------------------------------------------- */

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void trim(const char **s, size_t *n)
{
    while (*n && is_space(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && is_space((*s)[*n - 1]))
        (*n)--;
}

/* Split s[0..n) at commas outside brackets and quotes.  Returns the number of pieces and, when
 * ps/pn are given, stores them; a trailing empty piece is dropped (Python's `(64,)`). */
static int split_top(const char *s, size_t n, const char **ps, size_t *pn)
{
    int count = 0, depth = 0;
    char quote = 0;
    size_t start = 0, last_start = 0, last_len = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : ','; /* a sentinel comma ends the last piece */
        if (quote && i < n) {
            if (c == '\\' && i + 1 < n)
                i++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '[' || c == '(') {
            depth++;
        } else if ((c == ']' || c == ')') && depth > 0) {
            depth--;
        } else if (c == ',' && (depth == 0 || i == n)) {
            if (ps) {
                ps[count] = s + start;
                pn[count] = i - start;
            }
            last_start = start;
            last_len = i - start;
            count++;
            start = i + 1;
        }
    }
    const char *ls = s + last_start;
    trim(&ls, &last_len);
    if (count > 1 && last_len == 0)
        count--;
    return count;
}

static bool has_top_comma(const char *s, size_t n)
{
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '[' || c == '(') {
            depth++;
        } else if ((c == ']' || c == ')') && depth > 0) {
            depth--;
        } else if (c == ',' && depth == 0) {
            return true;
        }
    }
    return false;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?  with a '.' or an exponent */
static bool is_float_literal(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t int_start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    bool int_digits = i > int_start, frac_digits = false, dot = false, exp = false;
    if (i < n && s[i] == '.') {
        dot = true;
        i++;
        size_t f = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        frac_digits = i > f;
    }
    if (!int_digits && !frac_digits)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t e = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e)
            return false;
        exp = true;
    }
    return i == n && (dot || exp);
}

#define SET_MAX_DEPTH 32

static void parse_set_value(pc_arena *a, const char *s, size_t n, pc_optval *v, int depth)
{
    memset(v, 0, sizeof *v);
    trim(&s, &n);
    bool list = n >= 2 && s[0] == '[' && s[n - 1] == ']';
    bool tuple = n >= 2 && s[0] == '(' && s[n - 1] == ')';
    bool bare_list = !list && !tuple && has_top_comma(s, n);
    if ((list || tuple || bare_list) && depth < SET_MAX_DEPTH) {
        const char *inner = bare_list ? s : s + 1;
        size_t inner_n = bare_list ? n : n - 2;
        const char *t = inner;
        size_t tn = inner_n;
        trim(&t, &tn);
        int count = tn == 0 ? 0 : split_top(inner, inner_n, NULL, NULL);
        /* +1: the fill pass also stores a trailing empty piece before dropping it */
        const char **ps = pc_mem_alloc((size_t)(count + 1) * sizeof *ps);
        size_t *pn = pc_mem_alloc((size_t)(count + 1) * sizeof *pn);
        if (count)
            split_top(inner, inner_n, ps, pn);
        v->kind = tuple ? PC_OPT_TUPLE : PC_OPT_LIST;
        v->nitems = count;
        v->items = count ? pc_arena_alloc(a, (size_t)count * sizeof *v->items) : NULL;
        for (int i = 0; i < count; i++)
            parse_set_value(a, ps[i], pn[i], &v->items[i], depth + 1);
        pc_mem_free(ps);
        pc_mem_free(pn);
        return;
    }
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
        /* a quoted string: backslash escapes the next character */
        char *out = pc_arena_alloc(a, n);
        size_t k = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            if (s[i] == '\\' && i + 2 < n)
                i++;
            out[k++] = s[i];
        }
        out[k] = 0;
        v->kind = PC_OPT_STRING;
        v->text = out;
        return;
    }
    char *text = pc_arena_strndup(a, s, n);
    if (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "false") || !strcmp(text, "False")) {
        v->kind = PC_OPT_BOOL;
        v->i = text[0] == 't' || text[0] == 'T';
        return;
    }
    if (!strcmp(text, "None")) {
        v->kind = PC_OPT_NONE;
        return;
    }
    size_t sign = (n > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (all_digits(s + sign, n - sign)) {
        int64_t x = 0;
        bool overflow = false;
        for (size_t i = sign; i < n && !overflow; i++)
            overflow = __builtin_mul_overflow(x, 10, &x) ||
                       (s[0] == '-' ? __builtin_sub_overflow(x, s[i] - '0', &x) : __builtin_add_overflow(x, s[i] - '0', &x));
        if (!overflow) {
            v->kind = PC_OPT_INT;
            v->i = x;
            v->text = text;
            return;
        }
        /* beyond int64: still a number, and out of every option's range */
        v->kind = PC_OPT_FLOAT;
        v->f = strtod(text, NULL);
        v->text = text;
        return;
    }
    if (is_float_literal(s, n)) {
        v->kind = PC_OPT_FLOAT;
        v->f = strtod(text, NULL);
        v->text = text;
        return;
    }
    v->kind = PC_OPT_STRING;
    v->text = text;
}

bool pc_cfg_parse_set(pc_arena *a, const char *arg, pc_option *opt, char **err)
{
    memset(opt, 0, sizeof *opt);
    opt->site = PC_SITE_COMMAND_LINE;
    opt->kernel = -1;
    const char *eq = arg ? strchr(arg, '=') : NULL;
    const char *key = arg;
    size_t nkey = eq ? (size_t)(eq - arg) : 0;
    if (eq)
        trim(&key, &nkey);
    if (!eq || nkey == 0)
        return pc_err_set(err, "expected KEY=VALUE");
    opt->key = pc_arena_strndup(a, key, nkey);
    /* --set has no place in a file: locations stay unknown (zero) */
    parse_set_value(a, eq + 1, strlen(eq + 1), &opt->value, 0);
    return true;
}
