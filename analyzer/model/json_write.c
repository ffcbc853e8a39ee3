/* json_write.c - the model as JSON (`poolcheck model FILE`): a small streaming writer (2-space
 * indent, short containers on one line), so the text is deterministic and diffable.  json_read.c
 * reads it back, json_equal.c compares two models.
 *
 * Format (version 1), every field of model.h:
 *   {"version": 1, "file", "lang", "fatal", "kernels": [...], "options": [...], "messages": [...]}
 *   kernel  {"id", "name", "scope": string or null (optional on input), "loc", "insert_loc", "tensors",
 *            "stmts", "loops", "body", "constants"}
 *   tensor  {"id", "name", "variable", "kind", "dtype", "shape" (null = unknown), "base",
 *            "scope_loop", "def_stmt", "loc"}
 *   stmt    {"id", "kind", "loc", ...the fields of its kind, and any other field that is not at
 *            its builder default ("has_op", "accesses", "loop", "branches", "unroll_factor",
 *            "unroll_body", "message")}
 *   loop    {"id", "name", "index_var", "factor_var", "begin", "end", "step", "unroll",
 *            "submit_before_loop", "parallel", "parent", "stmt", "body", "loc", "header"}
 *            (+ "unroll_rule": "per_factor" | "greedy" when not the default)
 *   branch  {"cond": expr or null, "cond_text": string or null (optional on input), "decided",
 *            "body", "loc"}
 *   option  {"key", "value": optval, "site", "kernel", "in_kernel", "loc"}
 *   optval  {"kind", "value" | "text" | "items", "loc"} (+ "i", "f", "text", "items" when set
 *            on a kind that does not use them)
 *   loc     {"file" (omitted when it is the model's file), "line", "col", "end_line", "end_col"}
 *   expr    an integer when constant; else pc_expr_to_string's text; else (a name or a shape the
 *           text form cannot carry) {"int": n} / {"sym": name} / {"op": "add", "a": e, "b": e}
 *           / {"op": "not", "a": e} / {"op": "is_loop_begin", "var": index_var}.  Conditions
 *           print as `i < 1 and not is_loop_end(i)`.
 *   Integers beyond 2^53 (which a JSON double cannot hold exactly) are written as strings.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jw_frame { bool inl; int n; } jw_frame;

typedef struct jw {
    pc_sb b;
    jw_frame *st;        /* open containers (heap: option values may nest deeply) */
    int depth, cap;
    bool after_key;
    const pc_model *m;
    pc_arena *scratch;   /* expression round-trip checks */
} jw;

static void jw_indent(jw *w)
{
    pc_sb_putc(&w->b, '\n');
    for (int i = 0; i < w->depth; i++)
        pc_sb_append(&w->b, "  ");
}

/* Separator before a value or key in the current container. */
static void jw_pre(jw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    jw_frame *f = &w->st[w->depth - 1];
    if (f->n++)
        pc_sb_putc(&w->b, ',');
    if (f->inl) {
        if (f->n > 1)
            pc_sb_putc(&w->b, ' ');
    } else {
        jw_indent(w);
    }
}

static void jw_open(jw *w, char c, bool inl)
{
    jw_pre(w);
    pc_sb_putc(&w->b, c);
    /* inside a one-line container everything stays on that line */
    if (w->depth > 0 && w->st[w->depth - 1].inl)
        inl = true;
    if (w->depth == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 16;
        w->st = pc_mem_realloc(w->st, (size_t)w->cap * sizeof *w->st);
    }
    w->st[w->depth].inl = inl;
    w->st[w->depth].n = 0;
    w->depth++;
}

static void jw_close(jw *w, char c)
{
    jw_frame f = w->st[--w->depth];
    if (!f.inl && f.n > 0)
        jw_indent(w);
    pc_sb_putc(&w->b, c);
}

static void jw_string_raw(pc_sb *b, const char *s)
{
    pc_sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': pc_sb_append(b, "\\\""); break;
        case '\\': pc_sb_append(b, "\\\\"); break;
        case '\n': pc_sb_append(b, "\\n"); break;
        case '\r': pc_sb_append(b, "\\r"); break;
        case '\t': pc_sb_append(b, "\\t"); break;
        case '\b': pc_sb_append(b, "\\b"); break;
        case '\f': pc_sb_append(b, "\\f"); break;
        default:
            if (*p < 0x20 || *p == 0x7f) {
                pc_sb_printf(b, "\\u%04x", *p);
            } else if (*p >= 0x80) {
                /* JSON text must be UTF-8 (RFC 8259 8.1); a path need not be: a byte outside a
                 * valid sequence is written as U+FFFD */
                size_t avail = 1;
                while (avail < 4 && p[avail])
                    avail++;
                size_t k = pc_utf8_seq_len(p, avail);
                if (k) {
                    pc_sb_appendn(b, (const char *)p, k);
                    p += k - 1;
                } else {
                    pc_sb_append(b, "\\ufffd");
                }
            } else {
                pc_sb_putc(b, (char)*p);
            }
        }
    }
    pc_sb_putc(b, '"');
}

static void jw_key(jw *w, const char *k)
{
    jw_pre(w);
    jw_string_raw(&w->b, k);
    pc_sb_append(&w->b, ": ");
    w->after_key = true;
}

static void jw_str(jw *w, const char *s)
{
    jw_pre(w);
    if (s)
        jw_string_raw(&w->b, s);
    else
        pc_sb_append(&w->b, "null");
}

static void jw_null(jw *w) { jw_pre(w); pc_sb_append(&w->b, "null"); }
static void jw_bool(jw *w, bool v) { jw_pre(w); pc_sb_append(&w->b, v ? "true" : "false"); }

/* Integers a double holds exactly are numbers; others are decimal strings (read back exactly). */
static void jw_int(jw *w, int64_t v)
{
    jw_pre(w);
    if (v >= -JSON_SAFE_INT && v <= JSON_SAFE_INT)
        pc_sb_printf(&w->b, "%lld", (long long)v);
    else
        pc_sb_printf(&w->b, "\"%lld\"", (long long)v);
}

/* Shortest text that reads back as the same double; always looks like a float ("2.0"). */
static void format_double(double d, char *buf, size_t n)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    if (!strpbrk(buf, ".eE"))
        strncat(buf, ".0", n - strlen(buf) - 1);
}

static void jw_double(jw *w, double d)
{
    jw_pre(w);
    if (isnan(d))
        pc_sb_append(&w->b, "\"nan\"");
    else if (isinf(d))
        pc_sb_append(&w->b, d > 0 ? "\"inf\"" : "\"-inf\"");
    else {
        char buf[64];
        format_double(d, buf, sizeof buf);
        pc_sb_append(&w->b, buf);
    }
}

static void jw_kint(jw *w, const char *k, int64_t v) { jw_key(w, k); jw_int(w, v); }
static void jw_kstr(jw *w, const char *k, const char *s) { jw_key(w, k); jw_str(w, s); }
static void jw_kbool(jw *w, const char *k, bool v) { jw_key(w, k); jw_bool(w, v); }

static void jw_loc(jw *w, const char *k, pc_loc l)
{
    jw_key(w, k);
    jw_open(w, '{', true);
    if (!pc_mjson_same_str(l.file, w->m->file))
        jw_kstr(w, "file", l.file);
    jw_kint(w, "line", l.line);
    jw_kint(w, "col", l.col);
    jw_kint(w, "end_line", l.end_line);
    jw_kint(w, "end_col", l.end_col);
    jw_close(w, '}');
}

static void jw_expr_struct(jw *w, const pc_expr *e)
{
    if (!e) {
        jw_null(w);
        return;
    }
    jw_open(w, '{', true);
    switch (e->kind) {
    case PC_EXPR_INT: jw_kint(w, "int", e->value); break;
    case PC_EXPR_SYM: jw_kstr(w, "sym", e->name); break;
    case PC_EXPR_IS_LOOP_BEGIN:
    case PC_EXPR_IS_LOOP_END:
        jw_kstr(w, "op", pc_mjson_expr_op_name(e->kind));
        jw_kstr(w, "var", e->name);
        break;
    default:
        jw_kstr(w, "op", pc_mjson_expr_op_name(e->kind));
        jw_key(w, "a");
        jw_expr_struct(w, e->a);
        if ((e->kind != PC_EXPR_NEG && e->kind != PC_EXPR_NOT) || e->b) {
            jw_key(w, "b");
            jw_expr_struct(w, e->b);
        }
        break;
    }
    jw_close(w, '}');
}

static void jw_expr(jw *w, const pc_expr *e)
{
    if (!e) {
        jw_null(w);
        return;
    }
    if (e->kind == PC_EXPR_INT) {
        jw_int(w, e->value);
        return;
    }
    /* The text form is the readable one; use it only when it reads back as this very tree. */
    char *text = pc_expr_to_string(e);
    const pc_expr *back = pc_expr_parse(w->scratch, text, NULL);
    if (back && pc_expr_equal(back, e))
        jw_str(w, text);
    else
        jw_expr_struct(w, e);
    pc_mem_free(text);
}

static void jw_kexpr(jw *w, const char *k, const pc_expr *e) { jw_key(w, k); jw_expr(w, e); }

/* "key": [write(w, &items[0]), write(w, &items[1]), ...] (on one line when `inl`) */
#define JW_KLIST(w, key, inl, items, n, write)                                                     \
    do {                                                                                           \
        jw_key(w, key);                                                                            \
        jw_open(w, '[', inl);                                                                      \
        for (int i_ = 0; i_ < (n); i_++)                                                           \
            write(w, &(items)[i_]);                                                                \
        jw_close(w, ']');                                                                          \
    } while (0)

static void jw_block(jw *w, const char *k, pc_block b)
{
    jw_key(w, k);
    jw_open(w, '[', true);
    for (int i = 0; i < b.count; i++)
        jw_int(w, b.stmts[i]);
    jw_close(w, ']');
}

static void jw_optval(jw *w, const pc_optval *v)
{
    jw_open(w, '{', true);
    jw_kstr(w, "kind", pc_mjson_optval_kind_name(v->kind));
    bool uses_i = false, uses_f = false, uses_text = false, uses_items = false;
    switch (v->kind) {
    case PC_OPT_INT: jw_kint(w, "value", v->i); uses_i = true; break;
    case PC_OPT_BOOL:
        jw_key(w, "value");
        if (v->i == 0 || v->i == 1)
            jw_bool(w, v->i != 0);
        else
            jw_int(w, v->i);
        uses_i = true;
        break;
    case PC_OPT_FLOAT: jw_key(w, "value"); jw_double(w, v->f); uses_f = true; break;
    case PC_OPT_STRING: jw_kstr(w, "value", v->text); uses_text = true; break;
    case PC_OPT_UNKNOWN: jw_kstr(w, "text", v->text); uses_text = true; break;
    case PC_OPT_LIST:
    case PC_OPT_TUPLE:
        JW_KLIST(w, "items", true, v->items, v->nitems, jw_optval);
        uses_items = true;
        break;
    default: break;
    }
    /* fields the kind does not use, when a frontend set them anyway: keep them (lossless) */
    if (!uses_i && v->i != 0)
        jw_kint(w, "i", v->i);
    if (!uses_f && (v->f != 0 || signbit(v->f))) {
        jw_key(w, "f");
        jw_double(w, v->f);
    }
    if (!uses_text && v->text)
        jw_kstr(w, "text", v->text);
    if (!uses_items && v->nitems > 0)
        JW_KLIST(w, "items", true, v->items, v->nitems, jw_optval);
    jw_loc(w, "loc", v->loc);
    jw_close(w, '}');
}

static void jw_int_list(jw *w, const char *k, const int64_t *v, int n)
{
    jw_key(w, k);
    jw_open(w, '[', true);
    for (int i = 0; i < n; i++)
        jw_int(w, v[i]);
    jw_close(w, ']');
}

/* A list of expressions; null when there is none (count -1, or no array for a positive count). */
static void jw_exprs(jw *w, const char *k, const pc_expr *const *v, int n)
{
    jw_key(w, k);
    if (n < 0 || (!v && n > 0)) {
        jw_null(w);
        return;
    }
    jw_open(w, '[', true);
    for (int i = 0; i < n; i++)
        jw_expr(w, v[i]);
    jw_close(w, ']');
}

static void jw_constants(jw *w, const char *k, const pc_binding *c, int n)
{
    jw_key(w, k);
    jw_open(w, '{', false);
    for (int i = 0; i < n; i++)
        jw_kint(w, c[i].name ? c[i].name : "", c[i].value);
    jw_close(w, '}');
}

/* ---- the structs of fields.def: one writer each, generated ----------------------------------- */

/* access "op", "call": both when an op makes the access (docs/model.md sections 4 and 7) */
static void w_access_op(jw *w, const pc_access *X)
{
    if (X->op) {
        jw_kstr(w, "op", X->op);
        jw_kint(w, "call", X->call);
    }
}

#define PC_MODEL_STRUCT(name, type, layout, pre, post) static void w_##name(jw *w, const type *X);
#define PC_MODEL_FIELD(...)
#define PC_MODEL_FIELD_OPT(...)
#define PC_MODEL_END(name)
#include "fields.def"

#define W_SELF_ID(m, key, ...) jw_kint(w, key, X->m);
#define W_INT(m, key, lo, hi) jw_kint(w, key, X->m);
#define W_INT64(m, key, ...) jw_kint(w, key, X->m);
#define W_BOOL(m, key, ...) jw_kbool(w, key, X->m);
#define W_STR(m, key, ...) jw_kstr(w, key, X->m);
#define W_ENUM(m, key, name, lo, hi) jw_kstr(w, key, name(X->m));
#define W_INDEX(m, key, count, what, none) jw_kint(w, key, X->m);
#define W_LOC(m, key, ...) jw_loc(w, key, X->m);
#define W_EXPR(m, key, ...) jw_kexpr(w, key, X->m);
#define W_BLOCK(m, key, ...) jw_block(w, key, X->m);
#define W_LIST(m, key, item, count) JW_KLIST(w, key, false, X->m, X->count, w_##item);
#define W_INT64S(m, key, count) jw_int_list(w, key, X->m, X->count);
#define W_INT64S_UPTO(m, key, count, max, lo) jw_int_list(w, key, X->m, X->count);
#define W_INT64_ARRAY(m, key, n, lo) jw_int_list(w, key, X->m, n);
#define W_EXPRS(m, key, count, nullable) jw_exprs(w, key, X->m, X->count);
#define W_SHARED(m, key, item) jw_key(w, key); w_##item(w, X->m);
#define W_OPTVAL(m, key, ...) jw_key(w, key); jw_optval(w, &X->m);
#define W_CONSTANTS(m, key, count) jw_constants(w, key, X->m, X->count);
#define W_DERIVED(m, key, ...)
#define W_CUSTOM(m, key, hooks) w_##hooks(w, X);
#define W_WITH(m, key, ...)
#define W_LAYOUT_INLINE true
#define W_LAYOUT_BLOCK false

#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    static void w_##name(jw *w, const type *X)                                                   \
    {                                                                                            \
        jw_open(w, '{', W_LAYOUT_##layout);
#define PC_MODEL_FIELD(m, key, kind, args) PC_MF_CALL(W_##kind, m, key, PC_MF_ARGS args)
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt)                          \
        if (written) {                                                                           \
            PC_MF_CALL(W_##kind, m, key, PC_MF_ARGS args)                                        \
        }
#define PC_MODEL_END(name)                                                                       \
        jw_close(w, '}');                                                                        \
    }
#include "fields.def"

char *pc_model_to_json(const pc_model *m)
{
    if (!m)
        return pc_mem_strdup("null\n");
    jw w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.scratch = pc_arena_new();
    jw_open(&w, '{', false);
    jw_kint(&w, "version", MODEL_JSON_VERSION);
    jw_kstr(&w, "file", m->file);
    jw_kstr(&w, "lang", pc_mjson_lang_name(m->lang));
    jw_kbool(&w, "fatal", m->fatal);
    JW_KLIST(&w, "kernels", false, m->kernels, m->nkernels, w_kernel);
    JW_KLIST(&w, "options", false, m->options, m->noptions, w_option);
    JW_KLIST(&w, "messages", false, m->messages, m->nmessages, w_message);
    jw_close(&w, '}');
    pc_sb_putc(&w.b, '\n');
    pc_arena_free(w.scratch);
    pc_mem_free(w.st);
    return pc_sb_take(&w.b);
}
