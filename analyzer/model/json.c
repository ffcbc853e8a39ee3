/* json.c - the model as JSON (`poolcheck model FILE`), read back, and compared.
 *
 * Writing: a small streaming writer (2-space indent, short containers on one line), so the text
 * is deterministic and diffable.  Reading: cJSON with strict options (require_null_terminated, so
 * trailing garbage is an error), case-sensitive lookups, unknown fields rejected, integers taken
 * from valuedouble with range checks (cJSON's valueint saturates), and every index validated
 * against its array, plus the statement tree and the base / parent chains checked for cycles, so
 * a corrupt model file can never make the analysis index out of range or recurse forever.
 *
 * Format (version 1), every field of model.h:
 *   {"version": 1, "file", "lang", "fatal", "kernels": [...], "options": [...], "messages": [...]}
 *   kernel  {"id", "name", "loc", "insert_loc", "tensors", "stmts", "loops", "body", "constants"}
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

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL_JSON_VERSION 1
#define JSON_SAFE_INT 9007199254740992LL /* 2^53 */

/* ---- enum names ------------------------------------------------------------------------------ */

static const char *lang_name(pc_lang l)
{
    return l == PC_LANG_CPP ? "cpp" : l == PC_LANG_PYTHON ? "python" : l == PC_LANG_UNKNOWN ? "unknown" : "?";
}

static const char *stmt_kind_name(pc_stmt_kind k)
{
    static const char *n[] = {"op", "loop", "if", "unroll", "unanalysed"};
    return k >= 0 && k <= PC_STMT_UNANALYSED ? n[k] : "?";
}

static const char *optval_kind_name(pc_optval_kind k)
{
    static const char *n[] = {"int", "float", "bool", "string", "list", "tuple", "none", "unknown"};
    return k >= 0 && k <= PC_OPT_UNKNOWN ? n[k] : "?";
}

static const char *msg_kind_name(pc_msg_kind k)
{
    static const char *n[] = {"fatal", "parse_noise", "warning", "note"};
    return k >= 0 && k <= PC_MSG_NOTE ? n[k] : "?";
}

static const char *expr_op_name(pc_expr_kind k)
{
    static const char *n[] = {"int", "sym", "add", "sub", "mul", "div", "floordiv", "mod",
                              "min", "max", "ceildiv", "neg", "lt", "le", "gt", "ge", "eq", "ne",
                              "and", "or", "not", "is_loop_begin", "is_loop_end"};
    return k >= 0 && k <= PC_EXPR_IS_LOOP_END ? n[k] : "?";
}

static const char *unroll_rule_name(pc_unroll_rule r)
{
    static const char *n[] = {"default", "per_factor", "greedy"};
    return r >= 0 && r <= PC_UNROLL_RULE_GREEDY ? n[r] : "?";
}

static const char *unroll_rule_i(int k) { return unroll_rule_name((pc_unroll_rule)k); }
static const char *dtype_name(int t) { return pc_dtype_name((pc_dtype)t); }
static const char *access_name(int k) { return pc_access_kind_name((pc_access_kind)k); }
static const char *tensor_name(int k) { return pc_tensor_kind_name((pc_tensor_kind)k); }
static const char *unit_name(int k) { return pc_unit_name((pc_unit)k); }
static const char *site_name(int k) { return pc_optsite_kind_name((pc_optsite_kind)k); }
static const char *lang_name_i(int k) { return lang_name((pc_lang)k); }
static const char *stmt_name_i(int k) { return stmt_kind_name((pc_stmt_kind)k); }
static const char *optval_name_i(int k) { return optval_kind_name((pc_optval_kind)k); }
static const char *msg_name_i(int k) { return msg_kind_name((pc_msg_kind)k); }
static const char *expr_op_i(int k) { return expr_op_name((pc_expr_kind)k); }

/* ============================================================================================
 * Writing
 * ========================================================================================== */

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

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static void jw_loc(jw *w, const char *k, pc_loc l)
{
    jw_key(w, k);
    jw_open(w, '{', true);
    if (!same_str(l.file, w->m->file))
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
        jw_kstr(w, "op", expr_op_name(e->kind));
        jw_kstr(w, "var", e->name);
        break;
    default:
        jw_kstr(w, "op", expr_op_name(e->kind));
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
    jw_kstr(w, "kind", optval_kind_name(v->kind));
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
        jw_key(w, "items");
        jw_open(w, '[', true);
        for (int i = 0; i < v->nitems; i++)
            jw_optval(w, &v->items[i]);
        jw_close(w, ']');
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
    if (!uses_items && v->nitems > 0) {
        jw_key(w, "items");
        jw_open(w, '[', true);
        for (int i = 0; i < v->nitems; i++)
            jw_optval(w, &v->items[i]);
        jw_close(w, ']');
    }
    jw_loc(w, "loc", v->loc);
    jw_close(w, '}');
}

static void jw_tensor(jw *w, const pc_tensor *t)
{
    jw_open(w, '{', false);
    jw_kint(w, "id", t->id);
    jw_kstr(w, "name", t->name);
    jw_kstr(w, "variable", t->variable);
    jw_kstr(w, "kind", pc_tensor_kind_name(t->kind));
    jw_kstr(w, "dtype", pc_dtype_name(t->dtype));
    jw_key(w, "shape");
    if (t->ndims < 0 || (!t->shape && t->ndims > 0)) {
        jw_null(w);
    } else {
        jw_open(w, '[', true);
        for (int i = 0; i < t->ndims; i++)
            jw_expr(w, t->shape[i]);
        jw_close(w, ']');
    }
    jw_kint(w, "base", t->base);
    jw_kint(w, "scope_loop", t->scope_loop);
    jw_kint(w, "def_stmt", t->def_stmt);
    jw_loc(w, "loc", t->loc);
    jw_close(w, '}');
}

/* ---- tile shapes and matmul operands (issue 18; model.md section 7, "Tile pieces") -------------
 *   stmt   + "tiles": {"vec_set", "vec_known", "vec": [..], "vec_loc", "cube_set", "cube_known",
 *            "cube_m": [m0, m1], "cube_k": [k0, k1, k2], "cube_n": [n0, n1], "cube_loc"}
 *            (absent: no tile setter precedes the statement)
 *   access + "role": "left" | "right" | "other" (absent: "any"), "transposed": true (absent: false)
 */
const char *pc_operand_role_name(pc_operand_role r)
{
    switch (r) {
    case PC_OPERAND_ANY: return "any";
    case PC_OPERAND_LEFT: return "left";
    case PC_OPERAND_RIGHT: return "right";
    case PC_OPERAND_OTHER: return "other";
    }
    return "?";
}

static const char *operand_role_i(int k) { return pc_operand_role_name((pc_operand_role)k); }

static void jw_access_operand(jw *w, const pc_access *a)
{
    if (a->role != PC_OPERAND_ANY)
        jw_kstr(w, "role", pc_operand_role_name(a->role));
    if (a->transposed)
        jw_kbool(w, "transposed", true);
}

static void jw_int_list(jw *w, const char *k, const int64_t *v, int n)
{
    jw_key(w, k);
    jw_open(w, '[', true);
    for (int i = 0; i < n; i++)
        jw_int(w, v[i]);
    jw_close(w, ']');
}

static void jw_stmt_tiles(jw *w, const pc_stmt *s)
{
    const pc_tile_shapes *t = s->tiles;
    if (!t)
        return;
    jw_key(w, "tiles");
    jw_open(w, '{', false);
    jw_kbool(w, "vec_set", t->vec_set);
    jw_kbool(w, "vec_known", t->vec_known);
    jw_int_list(w, "vec", t->vec, t->nvec);
    jw_loc(w, "vec_loc", t->vec_loc);
    jw_kbool(w, "cube_set", t->cube_set);
    jw_kbool(w, "cube_known", t->cube_known);
    jw_int_list(w, "cube_m", t->cube_m, 2);
    jw_int_list(w, "cube_k", t->cube_k, 3);
    jw_int_list(w, "cube_n", t->cube_n, 2);
    jw_loc(w, "cube_loc", t->cube_loc);
    jw_close(w, '}');
}

static void jw_stmt(jw *w, const pc_stmt *s)
{
    jw_open(w, '{', false);
    jw_kint(w, "id", s->id);
    jw_kstr(w, "kind", stmt_kind_name(s->kind));
    jw_loc(w, "loc", s->loc);
    bool op = s->kind == PC_STMT_OP;
    if (op || s->has_op != (s->kind == PC_STMT_OP))
        jw_kbool(w, "has_op", s->has_op);
    if (op || s->naccesses > 0) {
        jw_key(w, "accesses");
        jw_open(w, '[', false);
        for (int i = 0; i < s->naccesses; i++) {
            const pc_access *a = &s->accesses[i];
            jw_open(w, '{', true);
            jw_kint(w, "tensor", a->tensor);
            jw_kstr(w, "kind", pc_access_kind_name(a->kind));
            jw_kstr(w, "unit", pc_unit_name(a->unit));
            jw_loc(w, "loc", a->loc);
            jw_access_operand(w, a);
            jw_close(w, '}');
        }
        jw_close(w, ']');
    }
    if (s->kind == PC_STMT_LOOP || s->loop != -1)
        jw_kint(w, "loop", s->loop);
    if (s->kind == PC_STMT_IF || s->nbranches > 0) {
        jw_key(w, "branches");
        jw_open(w, '[', false);
        for (int i = 0; i < s->nbranches; i++) {
            const pc_branch *b = &s->branches[i];
            jw_open(w, '{', true);
            jw_kexpr(w, "cond", b->cond);
            jw_kstr(w, "cond_text", b->cond_text);
            jw_kint(w, "decided", b->decided);
            jw_block(w, "body", b->body);
            jw_loc(w, "loc", b->loc);
            jw_close(w, '}');
        }
        jw_close(w, ']');
    }
    if (s->kind == PC_STMT_UNROLL || s->unroll_factor != 0)
        jw_kint(w, "unroll_factor", s->unroll_factor);
    if (s->kind == PC_STMT_UNROLL || s->unroll_body.count > 0)
        jw_block(w, "unroll_body", s->unroll_body);
    if (s->kind == PC_STMT_UNANALYSED || s->message)
        jw_kstr(w, "message", s->message);
    jw_stmt_tiles(w, s);
    jw_close(w, '}');
}

static void jw_loop(jw *w, const pc_loop *l)
{
    jw_open(w, '{', false);
    jw_kint(w, "id", l->id);
    jw_kstr(w, "name", l->name);
    jw_kstr(w, "index_var", l->index_var);
    jw_kstr(w, "factor_var", l->factor_var);
    jw_kexpr(w, "begin", l->begin);
    jw_kexpr(w, "end", l->end);
    jw_kexpr(w, "step", l->step);
    jw_key(w, "unroll");
    jw_open(w, '[', true);
    for (int i = 0; i < l->nunroll; i++)
        jw_int(w, l->unroll[i]);
    jw_close(w, ']');
    jw_kbool(w, "submit_before_loop", l->submit_before_loop);
    jw_kbool(w, "parallel", l->parallel);
    jw_kint(w, "parent", l->parent);
    jw_kint(w, "stmt", l->stmt);
    jw_block(w, "body", l->body);
    jw_loc(w, "loc", l->loc);
    jw_loc(w, "header", l->header);
    if (l->unroll_rule != PC_UNROLL_RULE_DEFAULT)
        jw_kstr(w, "unroll_rule", unroll_rule_name(l->unroll_rule));
    jw_close(w, '}');
}

static void jw_kernel(jw *w, const pc_kernel *k)
{
    jw_open(w, '{', false);
    jw_kint(w, "id", k->id);
    jw_kstr(w, "name", k->name);
    jw_loc(w, "loc", k->loc);
    jw_loc(w, "insert_loc", k->insert_loc);
    jw_key(w, "tensors");
    jw_open(w, '[', false);
    for (int i = 0; i < k->ntensors; i++)
        jw_tensor(w, &k->tensors[i]);
    jw_close(w, ']');
    jw_key(w, "stmts");
    jw_open(w, '[', false);
    for (int i = 0; i < k->nstmts; i++)
        jw_stmt(w, &k->stmts[i]);
    jw_close(w, ']');
    jw_key(w, "loops");
    jw_open(w, '[', false);
    for (int i = 0; i < k->nloops; i++)
        jw_loop(w, &k->loops[i]);
    jw_close(w, ']');
    jw_block(w, "body", k->body);
    jw_key(w, "constants");
    jw_open(w, '{', false);
    for (int i = 0; i < k->nconstants; i++)
        jw_kint(w, k->constants[i].name ? k->constants[i].name : "", k->constants[i].value);
    jw_close(w, '}');
    jw_close(w, '}');
}

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
    jw_kstr(&w, "lang", lang_name(m->lang));
    jw_kbool(&w, "fatal", m->fatal);
    jw_key(&w, "kernels");
    jw_open(&w, '[', false);
    for (int i = 0; i < m->nkernels; i++)
        jw_kernel(&w, &m->kernels[i]);
    jw_close(&w, ']');
    jw_key(&w, "options");
    jw_open(&w, '[', false);
    for (int i = 0; i < m->noptions; i++) {
        const pc_option *o = &m->options[i];
        jw_open(&w, '{', false);
        jw_kstr(&w, "key", o->key);
        jw_key(&w, "value");
        jw_optval(&w, &o->value);
        jw_kstr(&w, "site", pc_optsite_kind_name(o->site));
        jw_kint(&w, "kernel", o->kernel);
        jw_kbool(&w, "in_kernel", o->in_kernel);
        jw_loc(&w, "loc", o->loc);
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    jw_key(&w, "messages");
    jw_open(&w, '[', false);
    for (int i = 0; i < m->nmessages; i++) {
        const pc_message *msg = &m->messages[i];
        jw_open(&w, '{', true);
        jw_kstr(&w, "kind", msg_kind_name(msg->kind));
        jw_loc(&w, "loc", msg->loc);
        jw_kstr(&w, "text", msg->text);
        if (msg->check)
            jw_kstr(&w, "check", msg->check);
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    jw_close(&w, '}');
    pc_sb_putc(&w.b, '\n');
    pc_arena_free(w.scratch);
    pc_mem_free(w.st);
    return pc_sb_take(&w.b);
}

/* ============================================================================================
 * Reading
 * ========================================================================================== */

typedef struct jr {
    pc_model *m;
    pc_sb path;       /* JSON path of the item being read: kernels[0].tensors[2].kind */
    char *err;        /* first problem, malloc'd */
    /* counts of the kernel being read, for index validation */
    int ntensors, nstmts, nloops;
} jr;

static const char *type_name(const cJSON *j)
{
    if (!j) return "nothing";
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    return "an unknown value";
}

static bool fail(jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(jr *r, const char *fmt, ...)
{
    if (r->err)
        return false;
    pc_sb b = {0};
    pc_sb_append(&b, r->path.len ? r->path.data : "top level");
    pc_sb_append(&b, ": ");
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    r->err = pc_sb_take(&b);
    return false;
}

static size_t path_key(jr *r, const char *k)
{
    size_t saved = r->path.len;
    if (r->path.len)
        pc_sb_putc(&r->path, '.');
    pc_sb_append(&r->path, k);
    return saved;
}

static size_t path_index(jr *r, int i)
{
    size_t saved = r->path.len;
    pc_sb_printf(&r->path, "[%d]", i);
    return saved;
}

static void path_pop(jr *r, size_t saved)
{
    r->path.len = saved;
    if (r->path.data)
        r->path.data[saved] = 0;
}

/* Every member of obj must be one of the allowed names, and appear once. */
static bool check_fields(jr *r, const cJSON *obj, const char *const *allowed)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, c->string) == 0)
                ok = true;
        if (!ok)
            return fail(r, "unknown field \"%s\"", c->string);
        for (const cJSON *d = obj->child; d != c; d = d->next)
            if (strcmp(d->string, c->string) == 0)
                return fail(r, "duplicate field \"%s\"", c->string);
    }
    return true;
}

static bool want_object(jr *r, const cJSON *j)
{
    return cJSON_IsObject(j) || fail(r, "expected an object, got %s", type_name(j));
}

static bool want_array(jr *r, const cJSON *j)
{
    return cJSON_IsArray(j) || fail(r, "expected an array, got %s", type_name(j));
}

static const cJSON *field(jr *r, const cJSON *obj, const char *k, bool required)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, k);
    if (!j && required)
        fail(r, "missing \"%s\"", k);
    return j;
}

/* An integer in [lo, hi]: a JSON number with no fraction (read from valuedouble: valueint
 * saturates), or a decimal string for values beyond 2^53. */
static bool int_value(jr *r, const cJSON *j, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t v;
    if (cJSON_IsNumber(j)) {
        double d = j->valuedouble;
        if (!isfinite(d) || d != floor(d))
            return fail(r, "expected an integer, got %g", d);
        if (d < -(double)JSON_SAFE_INT || d > (double)JSON_SAFE_INT)
            return fail(r, "integer %g is too large to be exact in JSON (write it as a string)", d);
        v = (int64_t)d;
    } else if (cJSON_IsString(j)) {
        const char *s = j->valuestring, *p = s;
        if (*p == '-')
            p++;
        if (!*p)
            return fail(r, "expected an integer, got \"%s\"", s);
        int64_t acc = 0;
        bool neg = *s == '-';
        for (; *p; p++) {
            if (*p < '0' || *p > '9')
                return fail(r, "expected an integer, got \"%s\"", s);
            if (__builtin_mul_overflow(acc, 10, &acc) ||
                (neg ? __builtin_sub_overflow(acc, *p - '0', &acc) : __builtin_add_overflow(acc, *p - '0', &acc)))
                return fail(r, "integer \"%s\" is out of range", s);
        }
        v = acc;
    } else {
        return fail(r, "expected an integer, got %s", type_name(j));
    }
    if (v < lo || v > hi)
        return fail(r, "%lld is out of range [%lld, %lld]", (long long)v, (long long)lo, (long long)hi);
    *out = v;
    return true;
}

static bool read_int(jr *r, const cJSON *obj, const char *k, int64_t lo, int64_t hi, int64_t *out)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = int_value(r, j, lo, hi, out);
    path_pop(r, saved);
    return ok;
}

static bool read_i32(jr *r, const cJSON *obj, const char *k, int lo, int hi, int *out)
{
    int64_t v;
    if (!read_int(r, obj, k, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

static bool read_u32(jr *r, const cJSON *obj, const char *k, uint32_t *out)
{
    int64_t v;
    if (!read_int(r, obj, k, 0, UINT32_MAX, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

/* An index field: -1 (none, when allowed) or a valid index into an array of `count` items. */
static bool read_index(jr *r, const cJSON *obj, const char *k, bool allow_none, int count,
                       const char *what, int *out)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    int64_t v;
    bool ok = int_value(r, j, INT32_MIN, INT32_MAX, &v);
    if (ok && !(allow_none && v == -1) && (v < 0 || v >= count))
        ok = fail(r, "%s index %lld out of range (%d %s%s)", what, (long long)v, count, what,
                  count == 1 ? "" : "s");
    path_pop(r, saved);
    if (ok)
        *out = (int)v;
    return ok;
}

static bool read_bool(jr *r, const cJSON *obj, const char *k, bool required, bool *out)
{
    const cJSON *j = field(r, obj, k, required);
    if (!j)
        return !required;
    if (!cJSON_IsBool(j)) {
        size_t saved = path_key(r, k);
        fail(r, "expected a boolean, got %s", type_name(j));
        path_pop(r, saved);
        return false;
    }
    *out = cJSON_IsTrue(j);
    return true;
}

/* A string (copied into the model arena) or null (NULL). */
static bool read_str(jr *r, const cJSON *obj, const char *k, const char **out)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    if (cJSON_IsNull(j)) {
        *out = NULL;
        return true;
    }
    if (!cJSON_IsString(j)) {
        size_t saved = path_key(r, k);
        fail(r, "expected a string or null, got %s", type_name(j));
        path_pop(r, saved);
        return false;
    }
    *out = pc_model_strdup(r->m, j->valuestring);
    return true;
}

/* An enum by its name, as the pc_*_name functions spell it. */
static bool read_enum(jr *r, const cJSON *obj, const char *k, const char *(*name)(int), int lo,
                      int hi, int *out)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = false;
    if (!cJSON_IsString(j)) {
        fail(r, "expected a string, got %s", type_name(j));
    } else {
        for (int v = lo; v <= hi; v++)
            if (strcmp(name(v), j->valuestring) == 0) {
                *out = v;
                ok = true;
                break;
            }
        if (!ok)
            fail(r, "unknown value \"%s\"", j->valuestring);
    }
    path_pop(r, saved);
    return ok;
}

static bool read_loc(jr *r, const cJSON *obj, const char *k, pc_loc *out)
{
    static const char *const fields[] = {"file", "line", "col", "end_line", "end_col", NULL};
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = want_object(r, j) && check_fields(r, j, fields);
    if (ok) {
        const cJSON *f = field(r, j, "file", false);
        if (!f) {
            out->file = r->m->file;
        } else {
            ok = read_str(r, j, "file", &out->file);
            /* share the model's own file string, as pc_model_loc does */
            if (ok && same_str(out->file, r->m->file))
                out->file = r->m->file;
        }
        ok = ok && read_u32(r, j, "line", &out->line) && read_u32(r, j, "col", &out->col) &&
             read_u32(r, j, "end_line", &out->end_line) && read_u32(r, j, "end_col", &out->end_col);
    }
    path_pop(r, saved);
    return ok;
}

/* Arrays that the builders grow keep the capacity the builders assume (a power of two, at least
 * 8), so that a frontend or test may keep adding to a model read from JSON. */
static size_t builder_cap(size_t count) { size_t c = 8; while (c < count) c *= 2; return c; }

static void *grown_array(pc_model *m, int count, size_t elem)
{
    return count > 0 ? pc_arena_alloc(m->arena, builder_cap((size_t)count) * elem) : NULL;
}

static bool expr_value(jr *r, const cJSON *j, const pc_expr **out);

static bool expr_struct(jr *r, const cJSON *j, const pc_expr **out)
{
    static const char *const fields[] = {"int", "sym", "op", "a", "b", "var", NULL};
    if (!check_fields(r, j, fields))
        return false;
    const cJSON *ji = field(r, j, "int", false), *js = field(r, j, "sym", false);
    if (ji) {
        int64_t v;
        size_t saved = path_key(r, "int");
        bool ok = int_value(r, ji, INT64_MIN, INT64_MAX, &v);
        path_pop(r, saved);
        if (ok)
            *out = pc_expr_int(r->m->arena, v);
        return ok;
    }
    if (js) {
        if (!cJSON_IsString(js))
            return fail(r, "\"sym\": expected a string, got %s", type_name(js));
        *out = pc_expr_sym(r->m->arena, js->valuestring);
        return true;
    }
    int k;
    if (!read_enum(r, j, "op", expr_op_i, PC_EXPR_ADD, PC_EXPR_IS_LOOP_END, &k))
        return false;
    if (k == PC_EXPR_IS_LOOP_BEGIN || k == PC_EXPR_IS_LOOP_END) {
        /* a loop predicate names the index variable of its loop and has no operands */
        const char *var = NULL;
        if (!read_str(r, j, "var", &var))
            return false;
        if (!var || !*var)
            return fail(r, "\"var\": a loop predicate needs the loop's index variable");
        if (field(r, j, "a", false) || field(r, j, "b", false))
            return fail(r, "a loop predicate has no operands");
        *out = pc_expr_loop_pred(r->m->arena, (pc_expr_kind)k, var);
        return true;
    }
    if (field(r, j, "var", false))
        return fail(r, "\"var\" belongs to is_loop_begin / is_loop_end only");
    bool unary = k == PC_EXPR_NEG || k == PC_EXPR_NOT;
    pc_expr *e = pc_arena_alloc(r->m->arena, sizeof *e);
    e->kind = (pc_expr_kind)k;
    const cJSON *ja = field(r, j, "a", true);
    if (!ja)
        return false;
    size_t saved = path_key(r, "a");
    bool ok = expr_value(r, ja, &e->a);
    path_pop(r, saved);
    if (!ok)
        return false;
    if (!e->a)
        return fail(r, "\"a\": operand missing");
    const cJSON *jb = field(r, j, "b", !unary);
    if (jb) {
        saved = path_key(r, "b");
        ok = expr_value(r, jb, &e->b);
        path_pop(r, saved);
        if (!ok)
            return false;
        if (!e->b && !unary)
            return fail(r, "\"b\": operand missing");
    } else if (!unary) {
        return false;
    }
    *out = e;
    return true;
}

static bool expr_value(jr *r, const cJSON *j, const pc_expr **out)
{
    if (cJSON_IsNull(j)) {
        *out = NULL;
        return true;
    }
    if (cJSON_IsNumber(j)) {
        int64_t v;
        if (!int_value(r, j, INT64_MIN, INT64_MAX, &v))
            return false;
        *out = pc_expr_int(r->m->arena, v);
        return true;
    }
    if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        /* plain integers (those beyond 2^53 are written as strings) are read exactly */
        const char *p = s + (*s == '-');
        if (*p && strspn(p, "0123456789") == strlen(p)) {
            int64_t v;
            if (!int_value(r, j, INT64_MIN, INT64_MAX, &v))
                return false;
            *out = pc_expr_int(r->m->arena, v);
            return true;
        }
        const char *perr = NULL;
        const pc_expr *e = pc_expr_parse(r->m->arena, s, &perr);
        if (!e)
            return fail(r, "invalid expression \"%s\": %s", s, perr ? perr : "syntax error");
        *out = e;
        return true;
    }
    if (cJSON_IsObject(j))
        return expr_struct(r, j, out);
    return fail(r, "expected an expression (integer, string or object), got %s", type_name(j));
}

static bool read_expr(jr *r, const cJSON *obj, const char *k, const pc_expr **out)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = expr_value(r, j, out);
    path_pop(r, saved);
    return ok;
}

/* A block: an array of statement ids, each a valid index. */
static bool read_block(jr *r, const cJSON *obj, const char *k, pc_block *out)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = want_array(r, j);
    if (ok) {
        int n = cJSON_GetArraySize(j);
        out->count = n;
        out->stmts = grown_array(r->m, n, sizeof(int));
        int i = 0;
        for (const cJSON *c = j->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            int64_t v;
            ok = int_value(r, c, INT32_MIN, INT32_MAX, &v);
            if (ok && (v < 0 || v >= r->nstmts))
                ok = fail(r, "statement index %lld out of range (%d statements)", (long long)v, r->nstmts);
            if (ok)
                out->stmts[i] = (int)v;
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok;
}

static bool double_value(jr *r, const cJSON *j, double *out)
{
    if (cJSON_IsNumber(j)) {
        *out = j->valuedouble;
        return true;
    }
    if (cJSON_IsString(j)) {
        if (!strcmp(j->valuestring, "inf")) { *out = INFINITY; return true; }
        if (!strcmp(j->valuestring, "-inf")) { *out = -INFINITY; return true; }
        if (!strcmp(j->valuestring, "nan")) { *out = NAN; return true; }
    }
    return fail(r, "expected a number, got %s", type_name(j));
}

static bool optval_read(jr *r, const cJSON *j, pc_optval *v);

static bool optval_items(jr *r, const cJSON *j, pc_optval *v)
{
    if (!want_array(r, j))
        return false;
    v->nitems = cJSON_GetArraySize(j);
    v->items = v->nitems ? pc_arena_alloc(r->m->arena, (size_t)v->nitems * sizeof *v->items) : NULL;
    int i = 0;
    for (const cJSON *c = j->child; c; c = c->next, i++) {
        size_t saved = path_index(r, i);
        bool ok = optval_read(r, c, &v->items[i]);
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    return true;
}

static bool optval_read(jr *r, const cJSON *j, pc_optval *v)
{
    static const char *const fields[] = {"kind", "value", "i", "f", "text", "items", "loc", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    int kind;
    if (!read_enum(r, j, "kind", optval_name_i, PC_OPT_INT, PC_OPT_UNKNOWN, &kind))
        return false;
    v->kind = (pc_optval_kind)kind;
    const cJSON *jv = field(r, j, "value", false);
    bool value_used = kind == PC_OPT_INT || kind == PC_OPT_BOOL || kind == PC_OPT_FLOAT || kind == PC_OPT_STRING;
    if (jv && !value_used)
        return fail(r, "\"value\" is not used by kind \"%s\"", optval_kind_name(v->kind));
    if (!jv && value_used)
        return fail(r, "missing \"value\"");
    size_t saved;
    bool ok = true;
    if (jv) {
        saved = path_key(r, "value");
        switch (v->kind) {
        case PC_OPT_INT: ok = int_value(r, jv, INT64_MIN, INT64_MAX, &v->i); break;
        case PC_OPT_BOOL:
            if (cJSON_IsBool(jv))
                v->i = cJSON_IsTrue(jv);
            else
                ok = int_value(r, jv, INT64_MIN, INT64_MAX, &v->i);
            break;
        case PC_OPT_FLOAT: ok = double_value(r, jv, &v->f); break;
        default: /* STRING */
            if (cJSON_IsNull(jv))
                v->text = NULL;
            else if (cJSON_IsString(jv))
                v->text = pc_model_strdup(r->m, jv->valuestring);
            else
                ok = fail(r, "expected a string, got %s", type_name(jv));
            break;
        }
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    const cJSON *ji = field(r, j, "i", false);
    if (ji) {
        if (kind == PC_OPT_INT || kind == PC_OPT_BOOL)
            return fail(r, "\"i\" duplicates \"value\"");
        saved = path_key(r, "i");
        ok = int_value(r, ji, INT64_MIN, INT64_MAX, &v->i);
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    const cJSON *jf = field(r, j, "f", false);
    if (jf) {
        if (kind == PC_OPT_FLOAT)
            return fail(r, "\"f\" duplicates \"value\"");
        saved = path_key(r, "f");
        ok = double_value(r, jf, &v->f);
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    const cJSON *jt = field(r, j, "text", kind == PC_OPT_UNKNOWN);
    if (jt) {
        if (kind == PC_OPT_STRING)
            return fail(r, "\"text\" duplicates \"value\"");
        if (!read_str(r, j, "text", &v->text))
            return false;
    } else if (kind == PC_OPT_UNKNOWN) {
        return false;
    }
    const cJSON *jl = field(r, j, "items", kind == PC_OPT_LIST || kind == PC_OPT_TUPLE);
    if (jl) {
        saved = path_key(r, "items");
        ok = optval_items(r, jl, v);
        path_pop(r, saved);
        if (!ok)
            return false;
    } else if (kind == PC_OPT_LIST || kind == PC_OPT_TUPLE) {
        return false;
    }
    return read_loc(r, j, "loc", &v->loc);
}

static bool read_tensor(jr *r, const cJSON *j, int index, pc_tensor *t)
{
    static const char *const fields[] = {"id", "name", "variable", "kind", "dtype", "shape", "base",
                                         "scope_loop", "def_stmt", "loc", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    int kind, dtype;
    if (!read_i32(r, j, "id", index, index, &t->id) || !read_str(r, j, "name", &t->name) ||
        !read_str(r, j, "variable", &t->variable) ||
        !read_enum(r, j, "kind", tensor_name, PC_TENSOR_PARAM, PC_TENSOR_VIEW, &kind) ||
        !read_enum(r, j, "dtype", dtype_name, PC_DT_UNKNOWN, PC_DT_COUNT - 1, &dtype))
        return false;
    t->kind = (pc_tensor_kind)kind;
    t->dtype = (pc_dtype)dtype;
    const cJSON *js = field(r, j, "shape", true);
    if (!js)
        return false;
    size_t saved = path_key(r, "shape");
    bool ok = true;
    if (cJSON_IsNull(js)) {
        t->shape = NULL;
        t->ndims = -1;
    } else if (want_array(r, js)) {
        t->ndims = cJSON_GetArraySize(js);
        t->shape = pc_arena_alloc(r->m->arena, (size_t)(t->ndims ? t->ndims : 1) * sizeof *t->shape);
        int i = 0;
        for (const cJSON *c = js->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            ok = expr_value(r, c, &t->shape[i]);
            path_pop(r, s2);
        }
    } else {
        ok = false;
    }
    path_pop(r, saved);
    return ok && read_index(r, j, "base", true, r->ntensors, "tensor", &t->base) &&
           read_index(r, j, "scope_loop", true, r->nloops, "loop", &t->scope_loop) &&
           read_index(r, j, "def_stmt", true, r->nstmts, "statement", &t->def_stmt) &&
           read_loc(r, j, "loc", &t->loc);
}

/* ---- tile shapes and matmul operands (issue 18): see jw_stmt_tiles for the format ---------- */
static bool read_access_operand(jr *r, const cJSON *c, pc_access *a)
{
    int role = PC_OPERAND_ANY;
    if (field(r, c, "role", false) &&
        !read_enum(r, c, "role", operand_role_i, PC_OPERAND_ANY, PC_OPERAND_OTHER, &role))
        return false;
    a->role = (pc_operand_role)role;
    a->transposed = false;
    return read_bool(r, c, "transposed", false, &a->transposed);
}

/* An array of at most max integers, each in [lo, hi]; exactly max when exact. */
static bool read_int_list(jr *r, const cJSON *obj, const char *k, int max, bool exact, int64_t lo,
                          int64_t hi, int64_t *out, int *n)
{
    const cJSON *j = field(r, obj, k, true);
    if (!j)
        return false;
    size_t saved = path_key(r, k);
    bool ok = want_array(r, j);
    int count = ok ? cJSON_GetArraySize(j) : 0;
    if (ok && (count > max || (exact && count != max)))
        ok = fail(r, "expected %s%d integers, got %d", exact ? "" : "at most ", max, count);
    int i = 0;
    for (const cJSON *c = ok ? j->child : NULL; c && ok; c = c->next, i++) {
        size_t s2 = path_index(r, i);
        ok = int_value(r, c, lo, hi, &out[i]);
        path_pop(r, s2);
    }
    path_pop(r, saved);
    if (ok && n)
        *n = count;
    return ok;
}

static bool read_stmt_tiles(jr *r, const cJSON *j, pc_stmt *s)
{
    static const char *const fields[] = {"vec_set", "vec_known", "vec", "vec_loc", "cube_set", "cube_known",
                                         "cube_m", "cube_k", "cube_n", "cube_loc", NULL};
    const cJSON *jt = field(r, j, "tiles", false);
    s->tiles = NULL;
    if (!jt)
        return true;
    pc_tile_shapes *t = pc_arena_alloc(r->m->arena, sizeof *t);
    size_t saved = path_key(r, "tiles");
    bool ok = want_object(r, jt) && check_fields(r, jt, fields) &&
              read_bool(r, jt, "vec_set", true, &t->vec_set) && read_bool(r, jt, "vec_known", true, &t->vec_known) &&
              read_int_list(r, jt, "vec", PC_TILE_MAX_DIMS, false, 0, INT64_MAX, t->vec, &t->nvec) &&
              read_loc(r, jt, "vec_loc", &t->vec_loc) && read_bool(r, jt, "cube_set", true, &t->cube_set) &&
              read_bool(r, jt, "cube_known", true, &t->cube_known) &&
              read_int_list(r, jt, "cube_m", 2, true, 0, INT64_MAX, t->cube_m, NULL) &&
              read_int_list(r, jt, "cube_k", 3, true, 0, INT64_MAX, t->cube_k, NULL) &&
              read_int_list(r, jt, "cube_n", 2, true, 0, INT64_MAX, t->cube_n, NULL) &&
              read_loc(r, jt, "cube_loc", &t->cube_loc);
    path_pop(r, saved);
    if (ok)
        s->tiles = t;
    return ok;
}

static bool read_stmt(jr *r, const cJSON *j, int index, pc_stmt *s)
{
    static const char *const fields[] = {"id", "kind", "loc", "has_op", "accesses", "loop", "branches",
                                         "unroll_factor", "unroll_body", "message", "tiles", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    int kind;
    if (!read_i32(r, j, "id", index, index, &s->id) ||
        !read_enum(r, j, "kind", stmt_name_i, PC_STMT_OP, PC_STMT_UNANALYSED, &kind) ||
        !read_loc(r, j, "loc", &s->loc))
        return false;
    s->kind = (pc_stmt_kind)kind;
    /* fields of other kinds are optional and default to what the builder sets */
    s->has_op = kind == PC_STMT_OP;
    if (!read_bool(r, j, "has_op", kind == PC_STMT_OP, &s->has_op))
        return false;
    const cJSON *ja = field(r, j, "accesses", kind == PC_STMT_OP);
    if (kind == PC_STMT_OP && !ja)
        return false;
    if (ja) {
        static const char *const afields[] = {"tensor", "kind", "unit", "loc", "role", "transposed", NULL};
        size_t saved = path_key(r, "accesses");
        bool ok = want_array(r, ja);
        if (ok) {
            s->naccesses = cJSON_GetArraySize(ja);
            s->accesses = grown_array(r->m, s->naccesses, sizeof *s->accesses);
            int i = 0;
            for (const cJSON *c = ja->child; c && ok; c = c->next, i++) {
                size_t s2 = path_index(r, i);
                pc_access *a = &s->accesses[i];
                int ak, unit;
                ok = want_object(r, c) && check_fields(r, c, afields) &&
                     read_index(r, c, "tensor", false, r->ntensors, "tensor", &a->tensor) &&
                     read_enum(r, c, "kind", access_name, PC_ACC_READ, PC_ACC_WRITE_ELEMENT, &ak) &&
                     read_enum(r, c, "unit", unit_name, PC_UNIT_NONE, PC_UNIT_CUBE, &unit) &&
                     read_loc(r, c, "loc", &a->loc) && read_access_operand(r, c, a);
                if (ok) {
                    a->kind = (pc_access_kind)ak;
                    a->unit = (pc_unit)unit;
                }
                path_pop(r, s2);
            }
        }
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    s->loop = -1;
    if (kind == PC_STMT_LOOP || field(r, j, "loop", false)) {
        if (!read_index(r, j, "loop", kind != PC_STMT_LOOP, r->nloops, "loop", &s->loop))
            return false;
    }
    const cJSON *jb = field(r, j, "branches", kind == PC_STMT_IF);
    if (kind == PC_STMT_IF && !jb)
        return false;
    if (jb) {
        static const char *const bfields[] = {"cond", "cond_text", "decided", "body", "loc", NULL};
        size_t saved = path_key(r, "branches");
        bool ok = want_array(r, jb);
        if (ok) {
            s->nbranches = cJSON_GetArraySize(jb);
            s->branches = grown_array(r->m, s->nbranches, sizeof *s->branches);
            int i = 0;
            for (const cJSON *c = jb->child; c && ok; c = c->next, i++) {
                size_t s2 = path_index(r, i);
                pc_branch *b = &s->branches[i];
                ok = want_object(r, c) && check_fields(r, c, bfields) && read_expr(r, c, "cond", &b->cond) &&
                     /* cond_text is optional: models written before conditions were kept */
                     (!field(r, c, "cond_text", false) || read_str(r, c, "cond_text", &b->cond_text)) &&
                     read_i32(r, c, "decided", -1, 1, &b->decided) && read_block(r, c, "body", &b->body) &&
                     read_loc(r, c, "loc", &b->loc);
                path_pop(r, s2);
            }
        }
        path_pop(r, saved);
        if (!ok)
            return false;
    }
    if (kind == PC_STMT_UNROLL || field(r, j, "unroll_factor", false)) {
        if (!read_int(r, j, "unroll_factor", INT64_MIN, INT64_MAX, &s->unroll_factor))
            return false;
    }
    if (kind == PC_STMT_UNROLL || field(r, j, "unroll_body", false)) {
        if (!read_block(r, j, "unroll_body", &s->unroll_body))
            return false;
    }
    if (kind == PC_STMT_UNANALYSED || field(r, j, "message", false)) {
        if (!read_str(r, j, "message", &s->message))
            return false;
    }
    return read_stmt_tiles(r, j, s);
}

static bool read_unroll_rule(jr *r, const cJSON *j, pc_loop *l)
{
    int v = PC_UNROLL_RULE_DEFAULT;
    if (field(r, j, "unroll_rule", false) &&
        !read_enum(r, j, "unroll_rule", unroll_rule_i, PC_UNROLL_RULE_DEFAULT, PC_UNROLL_RULE_GREEDY, &v))
        return false;
    l->unroll_rule = (pc_unroll_rule)v;
    return true;
}

static bool read_loop(jr *r, const cJSON *j, int index, pc_loop *l)
{
    static const char *const fields[] = {"id", "name", "index_var", "factor_var", "begin", "end", "step",
                                         "unroll", "submit_before_loop", "parallel", "parent", "stmt",
                                         "body", "loc", "header", "unroll_rule", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    if (!read_i32(r, j, "id", index, index, &l->id) || !read_str(r, j, "name", &l->name) ||
        !read_str(r, j, "index_var", &l->index_var) || !read_str(r, j, "factor_var", &l->factor_var) ||
        !read_expr(r, j, "begin", &l->begin) || !read_expr(r, j, "end", &l->end) ||
        !read_expr(r, j, "step", &l->step))
        return false;
    const cJSON *ju = field(r, j, "unroll", true);
    if (!ju)
        return false;
    size_t saved = path_key(r, "unroll");
    bool ok = want_array(r, ju);
    if (ok) {
        l->nunroll = cJSON_GetArraySize(ju);
        l->unroll = l->nunroll ? pc_arena_alloc(r->m->arena, (size_t)l->nunroll * sizeof *l->unroll) : NULL;
        int i = 0;
        for (const cJSON *c = ju->child; c && ok; c = c->next, i++) {
            size_t s2 = path_index(r, i);
            ok = int_value(r, c, INT64_MIN, INT64_MAX, &l->unroll[i]);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    return ok && read_bool(r, j, "submit_before_loop", true, &l->submit_before_loop) &&
           read_bool(r, j, "parallel", true, &l->parallel) &&
           read_index(r, j, "parent", true, r->nloops, "loop", &l->parent) &&
           read_index(r, j, "stmt", true, r->nstmts, "statement", &l->stmt) &&
           read_block(r, j, "body", &l->body) && read_loc(r, j, "loc", &l->loc) &&
           read_loc(r, j, "header", &l->header) && read_unroll_rule(r, j, l);
}

/* ---- structural validation of one kernel ----------------------------------------------------- */

/* The statement tree: every statement sits in at most one block, every loop body belongs to at
 * most one LOOP statement, and following "the statement whose block holds me" never cycles.
 * Otherwise an interpreter-style walk of the kernel (the analysis) could recurse forever. */
/* fail() with a path below the current one ("stmts[3].loop"). */
static bool fail_below(jr *r, const char *sub, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail_below(jr *r, const char *sub, const char *fmt, ...)
{
    size_t saved = path_key(r, sub);
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    fail(r, "%s", b.data ? b.data : "");
    pc_sb_free(&b);
    path_pop(r, saved);
    return false;
}

/* Record that block `where` (held by statement `own`, -1 for none) contains its statements. */
static bool place_block(jr *r, int *owner, pc_block b, int own, const char *where)
{
    for (int i = 0; i < b.count; i++) {
        int s = b.stmts[i];
        if (owner[s] != -2) {
            char sub[96];
            snprintf(sub, sizeof sub, "%s[%d]", where, i);
            return fail_below(r, sub, "statement %d appears in more than one block", s);
        }
        owner[s] = own;
    }
    return true;
}

static bool validate_tree(jr *r, const pc_kernel *k)
{
    int n = k->nstmts;
    bool ok = true;
    char sub[96];
    int *owner = pc_mem_alloc(sizeof(int) * (size_t)(n ? n : 1));        /* who holds each stmt */
    int *loop_owner = pc_mem_alloc(sizeof(int) * (size_t)(k->nloops ? k->nloops : 1));
    char *state = pc_mem_calloc((size_t)(n ? n : 1), 1);
    for (int i = 0; i < n; i++)
        owner[i] = -2; /* -2: in no block; -1: a block no statement holds (kernel body); else stmt */
    for (int i = 0; i < k->nloops; i++)
        loop_owner[i] = -1;

    ok = place_block(r, owner, k->body, -1, "body");
    for (int s = 0; ok && s < n; s++) {
        const pc_stmt *st = &k->stmts[s];
        if (st->kind == PC_STMT_LOOP) {
            if (loop_owner[st->loop] != -1) {
                snprintf(sub, sizeof sub, "stmts[%d].loop", s);
                ok = fail_below(r, sub, "loop %d is already the loop of statement %d", st->loop,
                                loop_owner[st->loop]);
                break;
            }
            loop_owner[st->loop] = s;
        }
        for (int b = 0; ok && b < st->nbranches; b++) {
            snprintf(sub, sizeof sub, "stmts[%d].branches[%d].body", s, b);
            ok = place_block(r, owner, st->branches[b].body, s, sub);
        }
        if (ok) {
            snprintf(sub, sizeof sub, "stmts[%d].unroll_body", s);
            ok = place_block(r, owner, st->unroll_body, s, sub);
        }
    }
    for (int l = 0; ok && l < k->nloops; l++) {
        snprintf(sub, sizeof sub, "loops[%d].body", l);
        ok = place_block(r, owner, k->loops[l].body, loop_owner[l], sub);
    }

    /* owner[] links each statement to the one holding it; walk each chain once
     * (state 0 new, 1 on the current chain, 2 known to end at a top-level block) */
    for (int s = 0; ok && s < n; s++) {
        int cur = s;
        while (cur >= 0 && state[cur] == 0) {
            state[cur] = 1;
            cur = owner[cur];
        }
        if (cur >= 0 && state[cur] == 1) {
            snprintf(sub, sizeof sub, "stmts[%d]", cur);
            ok = fail_below(r, sub, "statement %d contains itself (its blocks form a cycle)", cur);
            break;
        }
        for (cur = s; cur >= 0 && state[cur] == 1; cur = owner[cur])
            state[cur] = 2;
    }

    /* tensor base chains and loop parent chains must end */
    for (int t = 0; ok && t < k->ntensors; t++) {
        int cur = k->tensors[t].base, steps = 0;
        while (cur >= 0 && steps++ <= k->ntensors)
            cur = k->tensors[cur].base;
        if (cur >= 0) {
            snprintf(sub, sizeof sub, "tensors[%d].base", t);
            ok = fail_below(r, sub, "the chain of view bases forms a cycle");
        }
    }
    for (int l = 0; ok && l < k->nloops; l++) {
        int cur = k->loops[l].parent, steps = 0;
        while (cur >= 0 && steps++ <= k->nloops)
            cur = k->loops[cur].parent;
        if (cur >= 0) {
            snprintf(sub, sizeof sub, "loops[%d].parent", l);
            ok = fail_below(r, sub, "the chain of parent loops forms a cycle");
        }
    }
    pc_mem_free(owner);
    pc_mem_free(loop_owner);
    pc_mem_free(state);
    return ok;
}

static int array_size_of(const cJSON *obj, const char *k)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, k);
    return cJSON_IsArray(j) ? cJSON_GetArraySize(j) : 0;
}

#define READ_ARRAY(r, obj, key, arr, count, reader)                                              \
    do {                                                                                         \
        const cJSON *_j = field(r, obj, key, true);                                              \
        if (!_j)                                                                                 \
            return false;                                                                        \
        size_t _saved = path_key(r, key);                                                        \
        bool _ok = want_array(r, _j);                                                            \
        if (_ok) {                                                                               \
            (count) = cJSON_GetArraySize(_j);                                                    \
            (arr) = grown_array((r)->m, (count), sizeof *(arr));                                 \
            int _i = 0;                                                                          \
            for (const cJSON *_c = _j->child; _c && _ok; _c = _c->next, _i++) {                  \
                size_t _s2 = path_index(r, _i);                                                  \
                _ok = reader(r, _c, _i, &(arr)[_i]);                                             \
                path_pop(r, _s2);                                                                \
            }                                                                                    \
        }                                                                                        \
        path_pop(r, _saved);                                                                     \
        if (!_ok)                                                                                \
            return false;                                                                        \
    } while (0)

static bool read_kernel(jr *r, const cJSON *j, int index, pc_kernel *k)
{
    static const char *const fields[] = {"id", "name", "loc", "insert_loc", "tensors", "stmts",
                                         "loops", "body", "constants", NULL};
    if (!want_object(r, j) || !check_fields(r, j, fields))
        return false;
    /* the counts first: indices anywhere in the kernel are checked against them */
    r->ntensors = array_size_of(j, "tensors");
    r->nstmts = array_size_of(j, "stmts");
    r->nloops = array_size_of(j, "loops");
    if (!read_i32(r, j, "id", index, index, &k->id) || !read_str(r, j, "name", &k->name) ||
        !read_loc(r, j, "loc", &k->loc) || !read_loc(r, j, "insert_loc", &k->insert_loc))
        return false;
    READ_ARRAY(r, j, "tensors", k->tensors, k->ntensors, read_tensor);
    READ_ARRAY(r, j, "stmts", k->stmts, k->nstmts, read_stmt);
    READ_ARRAY(r, j, "loops", k->loops, k->nloops, read_loop);
    if (!read_block(r, j, "body", &k->body))
        return false;
    const cJSON *jc = field(r, j, "constants", true);
    if (!jc)
        return false;
    size_t saved = path_key(r, "constants");
    bool ok = want_object(r, jc);
    if (ok) {
        k->nconstants = cJSON_GetArraySize(jc);
        k->constants = grown_array(r->m, k->nconstants, sizeof *k->constants);
        int i = 0;
        for (const cJSON *c = jc->child; c && ok; c = c->next, i++) {
            size_t s2 = path_key(r, c->string);
            k->constants[i].name = pc_model_strdup(r->m, c->string);
            ok = int_value(r, c, INT64_MIN, INT64_MAX, &k->constants[i].value);
            path_pop(r, s2);
        }
    }
    path_pop(r, saved);
    if (!ok)
        return false;
    return validate_tree(r, k);
}

static bool read_option(jr *r, const cJSON *j, int index, pc_option *o)
{
    static const char *const fields[] = {"key", "value", "site", "kernel", "in_kernel", "loc", NULL};
    (void)index;
    if (!want_object(r, j) || !check_fields(r, j, fields) || !read_str(r, j, "key", &o->key))
        return false;
    const cJSON *jv = field(r, j, "value", true);
    if (!jv)
        return false;
    size_t saved = path_key(r, "value");
    bool ok = optval_read(r, jv, &o->value);
    path_pop(r, saved);
    int site;
    return ok && read_enum(r, j, "site", site_name, PC_SITE_SET_RUNTIME_OPTIONS, PC_SITE_COMMAND_LINE, &site) &&
           (o->site = (pc_optsite_kind)site, true) &&
           read_index(r, j, "kernel", true, r->m->nkernels, "kernel", &o->kernel) &&
           read_bool(r, j, "in_kernel", true, &o->in_kernel) && read_loc(r, j, "loc", &o->loc);
}

static bool read_message(jr *r, const cJSON *j, int index, pc_message *msg)
{
    static const char *const fields[] = {"kind", "loc", "text", "check", NULL};
    (void)index;
    int kind;
    if (!want_object(r, j) || !check_fields(r, j, fields) ||
        !read_enum(r, j, "kind", msg_name_i, PC_MSG_FATAL, PC_MSG_NOTE, &kind))
        return false;
    msg->kind = (pc_msg_kind)kind;
    msg->check = NULL; /* optional: only the notes a check reports have one */
    return read_loc(r, j, "loc", &msg->loc) && read_str(r, j, "text", &msg->text) &&
           (!field(r, j, "check", false) || read_str(r, j, "check", &msg->check));
}

static bool read_model(jr *r, const cJSON *root)
{
    static const char *const fields[] = {"version", "file", "lang", "fatal", "kernels", "options",
                                         "messages", NULL};
    if (!want_object(r, root) || !check_fields(r, root, fields))
        return false;
    int64_t version;
    const cJSON *jv = field(r, root, "version", true);
    if (!jv)
        return false;
    size_t saved = path_key(r, "version");
    bool ok = int_value(r, jv, INT32_MIN, INT32_MAX, &version);
    if (ok && version != MODEL_JSON_VERSION)
        ok = fail(r, "unsupported model version %lld (this poolcheck reads version %d)", (long long)version,
                  MODEL_JSON_VERSION);
    path_pop(r, saved);
    if (!ok)
        return false;
    const cJSON *jf = field(r, root, "file", true);
    if (!jf)
        return false;
    if (!cJSON_IsString(jf)) {
        saved = path_key(r, "file");
        fail(r, "expected a string, got %s", type_name(jf));
        path_pop(r, saved);
        return false;
    }
    int lang;
    if (!read_enum(r, root, "lang", lang_name_i, PC_LANG_UNKNOWN, PC_LANG_PYTHON, &lang))
        return false;
    r->m = pc_model_new(jf->valuestring, (pc_lang)lang);
    pc_model *m = r->m;
    if (!read_bool(r, root, "fatal", true, &m->fatal))
        return false;
    READ_ARRAY(r, root, "kernels", m->kernels, m->nkernels, read_kernel);
    READ_ARRAY(r, root, "options", m->options, m->noptions, read_option);
    READ_ARRAY(r, root, "messages", m->messages, m->nmessages, read_message);
    return true;
}

/* ---- strict JSON parsing with located errors ------------------------------------------------
 *
 * cJSON builds the tree, but it is looser than RFC 8259 (it takes `01`, `+1`, `.5`, raw control
 * characters in strings), its error pointer is only approximately where the problem is, and it
 * never says what the problem is.  So a small validator checks the text first: RFC 8259 grammar,
 * UTF-8, the surrogate pairs cJSON insists on, and cJSON's nesting limit; it reports the exact
 * byte and what was expected there.  Users of upstream's nlohmann-based loaders get the same
 * verdicts: what nlohmann rejects, this rejects. */

typedef struct jv { const unsigned char *s; size_t len, i; char *msg; size_t msgsize; } jv;

static bool jv_fail(jv *v, const char *what)
{
    if (v->i >= v->len)
        snprintf(v->msg, v->msgsize, "%s, found end of input", what);
    else if (v->s[v->i] >= 0x20 && v->s[v->i] < 0x7f)
        snprintf(v->msg, v->msgsize, "%s, found '%c'", what, v->s[v->i]);
    else
        snprintf(v->msg, v->msgsize, "%s, found byte 0x%02x", what, v->s[v->i]);
    return false;
}

static bool jv_fail_plain(jv *v, const char *what)
{
    snprintf(v->msg, v->msgsize, "%s", what);
    return false;
}

static void jv_ws(jv *v)
{
    while (v->i < v->len && (v->s[v->i] == ' ' || v->s[v->i] == '\t' || v->s[v->i] == '\n' || v->s[v->i] == '\r'))
        v->i++;
}

static int jv_hex4(jv *v, size_t at)
{
    int x = 0;
    for (size_t k = at; k < at + 4; k++) {
        if (k >= v->len)
            return -1;
        unsigned char c = v->s[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        x = x * 16 + d;
    }
    return x;
}

/* Length of the UTF-8 sequence at i (0 when invalid): no overlongs, no surrogates, <= U+10FFFF. */
static size_t jv_utf8(jv *v, size_t i)
{
    const unsigned char *s = v->s;
    unsigned char c = s[i];
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (n == 0 || c > 0xF4 || c == 0xC0 || c == 0xC1 || i + n > v->len)
        return 0;
    for (size_t k = 1; k < n; k++)
        if ((s[i + k] & 0xC0) != 0x80)
            return 0;
    if (n == 3 && c == 0xE0 && s[i + 1] < 0xA0) return 0;   /* overlong */
    if (n == 3 && c == 0xED && s[i + 1] >= 0xA0) return 0;  /* surrogate */
    if (n == 4 && c == 0xF0 && s[i + 1] < 0x90) return 0;   /* overlong */
    if (n == 4 && c == 0xF4 && s[i + 1] >= 0x90) return 0;  /* > U+10FFFF */
    return n;
}

static bool jv_string(jv *v)
{
    v->i++; /* opening quote */
    for (;;) {
        if (v->i >= v->len)
            return jv_fail(v, "unterminated string");
        unsigned char c = v->s[v->i];
        if (c == '"') {
            v->i++;
            return true;
        }
        if (c < 0x20)
            return jv_fail_plain(v, "control character in a string (write it as an escape such as \\n)");
        if (c == '\\') {
            if (v->i + 1 >= v->len) {
                v->i++;
                return jv_fail(v, "unterminated string");
            }
            unsigned char e = v->s[v->i + 1];
            if (strchr("\"\\/bfnrt", e) && e) {
                v->i += 2;
                continue;
            }
            if (e != 'u') {
                snprintf(v->msg, v->msgsize, "invalid escape '\\%c'", e >= 0x20 && e < 0x7f ? e : '?');
                return false;
            }
            int u = jv_hex4(v, v->i + 2);
            if (u < 0)
                return jv_fail_plain(v, "invalid \\u escape (expected 4 hex digits)");
            if (u == 0)
                return jv_fail_plain(v, "\\u0000 is not allowed in strings");
            if (u >= 0xDC00 && u <= 0xDFFF)
                return jv_fail_plain(v, "invalid \\u escape (a low surrogate without a high one)");
            if (u >= 0xD800 && u <= 0xDBFF) {
                int lo = (v->i + 7 < v->len && v->s[v->i + 6] == '\\' && v->s[v->i + 7] == 'u') ? jv_hex4(v, v->i + 8) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return jv_fail_plain(v, "invalid \\u escape (a high surrogate without a low one)");
                v->i += 12;
                continue;
            }
            v->i += 6;
            continue;
        }
        if (c < 0x80) {
            v->i++;
            continue;
        }
        size_t n = jv_utf8(v, v->i);
        if (!n)
            return jv_fail_plain(v, "invalid UTF-8 in a string");
        v->i += n;
    }
}

static bool jv_digits(jv *v)
{
    size_t start = v->i;
    while (v->i < v->len && v->s[v->i] >= '0' && v->s[v->i] <= '9')
        v->i++;
    return v->i > start;
}

static bool jv_number(jv *v)
{
    size_t start = v->i;
    if (v->s[v->i] == '-')
        v->i++;
    if (v->i < v->len && v->s[v->i] == '0') {
        v->i++;
        if (v->i < v->len && v->s[v->i] >= '0' && v->s[v->i] <= '9') {
            v->i = start;
            return jv_fail_plain(v, "invalid number (leading zero)");
        }
    } else if (!jv_digits(v)) {
        return jv_fail(v, "invalid number: expected a digit");
    }
    if (v->i < v->len && v->s[v->i] == '.') {
        v->i++;
        if (!jv_digits(v))
            return jv_fail(v, "invalid number: expected a digit after '.'");
    }
    if (v->i < v->len && (v->s[v->i] == 'e' || v->s[v->i] == 'E')) {
        v->i++;
        if (v->i < v->len && (v->s[v->i] == '+' || v->s[v->i] == '-'))
            v->i++;
        if (!jv_digits(v))
            return jv_fail(v, "invalid number: expected a digit in the exponent");
    }
    if (v->i - start > 63) { /* cJSON reads at most 63 characters of a number */
        v->i = start;
        return jv_fail_plain(v, "number too long (more than 63 characters)");
    }
    return true;
}

static bool jv_literal(jv *v)
{
    static const char *const lits[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(lits[k]);
        if (v->len - v->i >= n && memcmp(v->s + v->i, lits[k], n) == 0) {
            v->i += n;
            return true;
        }
    }
    return jv_fail(v, "expected a value");
}

/* Validate the whole text; false with v->i at the problem and v->msg saying what it is. */
static bool jv_document(jv *v)
{
    char stack[CJSON_NESTING_LIMIT]; /* '[' or '{' per open container */
    int depth = 0;
    if (v->len >= 3 && memcmp(v->s, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        v->i = 3;
    for (;;) {
        /* a value */
        jv_ws(v);
        if (v->i >= v->len)
            return jv_fail(v, "expected a value");
        unsigned char c = v->s[v->i];
        bool closed = false;
        if (c == '{' || c == '[') {
            if (depth == CJSON_NESTING_LIMIT) {
                char buf[64];
                snprintf(buf, sizeof buf, "nesting deeper than %d levels", CJSON_NESTING_LIMIT);
                return jv_fail_plain(v, buf);
            }
            stack[depth++] = (char)c;
            v->i++;
            jv_ws(v);
            if (v->i < v->len && v->s[v->i] == (c == '{' ? '}' : ']')) {
                v->i++;
                depth--;
                closed = true;
            } else if (c == '[') {
                continue;
            }
            /* an object's first key is read below */
        } else if (c == '"') {
            if (!jv_string(v))
                return false;
            closed = true;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!jv_number(v))
                return false;
            closed = true;
        } else if (c == 't' || c == 'f' || c == 'n') {
            if (!jv_literal(v))
                return false;
            closed = true;
        } else {
            return jv_fail(v, "expected a value");
        }
        /* after a value (or at an object's first key) */
        for (;;) {
            if (!closed) {
                /* read "key": inside an object */
                jv_ws(v);
                if (v->i >= v->len || v->s[v->i] != '"')
                    return jv_fail(v, "expected a string key");
                if (!jv_string(v))
                    return false;
                jv_ws(v);
                if (v->i >= v->len || v->s[v->i] != ':')
                    return jv_fail(v, "expected ':' after the key");
                v->i++;
                break; /* its value */
            }
            jv_ws(v);
            if (depth == 0) {
                if (v->i < v->len)
                    return jv_fail(v, "unexpected text after the JSON value");
                return true;
            }
            char top = stack[depth - 1];
            if (v->i < v->len && v->s[v->i] == ',') {
                v->i++;
                if (top == '{') {
                    closed = false;
                    continue;
                }
                break; /* next array element */
            }
            if (v->i < v->len && v->s[v->i] == (top == '{' ? '}' : ']')) {
                v->i++;
                depth--;
                continue;
            }
            return jv_fail(v, top == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
}

void pc_model_json_line_col(const char *text, size_t len, size_t off, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1, c = 1;
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 && off >= 3)
        i = 3; /* editors do not count the byte order mark */
    for (; i < off && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

cJSON *pc_model_json_parse(const char *text, size_t len, size_t *err_off, char *err, size_t errsize)
{
    jv v = {(const unsigned char *)text, len, 0, err, errsize};
    const char *nul = memchr(text, 0, len);
    /* the validator stops at the first problem; a NUL byte is one wherever it is */
    size_t scan_len = nul ? (size_t)(nul - text) : len;
    v.len = scan_len;
    if (!jv_document(&v)) {
        if (nul && v.i >= scan_len) {
            v.i = scan_len;
            snprintf(err, errsize, "unexpected NUL byte");
        }
        *err_off = v.i;
        return NULL;
    }
    if (nul) {
        *err_off = scan_len;
        snprintf(err, errsize, "unexpected NUL byte");
        return NULL;
    }
    size_t skip = (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) ? 3 : 0;
    char *buf = pc_mem_strndup(text + skip, len - skip);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(buf, &end, 1);
    if (!root) {
        /* the validator accepted what cJSON refused: report cJSON's position */
        *err_off = skip + (end ? (size_t)(end - buf) : 0);
        snprintf(err, errsize, "invalid JSON");
    }
    pc_mem_free(buf);
    return root;
}

pc_model *pc_model_from_json(const char *text, size_t len, char **err)
{
    char *e = NULL;
    if (!text) {
        if (err)
            *err = pc_mem_strdup("no input");
        return NULL;
    }
    size_t off = 0;
    char what[160];
    cJSON *root = pc_model_json_parse(text, len, &off, what, sizeof what);
    if (!root) {
        uint32_t line, col;
        pc_model_json_line_col(text, len, off, &line, &col);
        pc_sb b = {0};
        pc_sb_printf(&b, "line %u, column %u: %s", line, col, what);
        e = pc_sb_take(&b);
        if (err)
            *err = e;
        else
            pc_mem_free(e);
        return NULL;
    }
    jr r;
    memset(&r, 0, sizeof r);
    bool ok = read_model(&r, root);
    cJSON_Delete(root);
    pc_sb_free(&r.path);
    if (!ok) {
        if (!r.err)
            r.err = pc_mem_strdup("invalid model");
        if (err)
            *err = r.err;
        else
            pc_mem_free(r.err);
        pc_model_free(r.m);
        return NULL;
    }
    return r.m;
}

/* ============================================================================================
 * Equality
 * ========================================================================================== */

typedef struct eq {
    pc_sb path;
    char *where;
    size_t where_size;
} eq;

static bool differ(eq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool differ(eq *q, const char *fmt, ...)
{
    if (q->where && q->where_size) {
        pc_sb b = {0};
        pc_sb_append(&b, q->path.len ? q->path.data : "model");
        pc_sb_append(&b, ": ");
        va_list ap;
        va_start(ap, fmt);
        pc_sb_vprintf(&b, fmt, ap);
        va_end(ap);
        snprintf(q->where, q->where_size, "%s", b.data);
        pc_sb_free(&b);
    }
    return false;
}

static size_t eq_push(eq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t eq_push(eq *q, const char *fmt, ...)
{
    size_t saved = q->path.len;
    if (q->path.len && fmt[0] != '[')
        pc_sb_putc(&q->path, '.');
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&q->path, fmt, ap);
    va_end(ap);
    return saved;
}

static void eq_pop(eq *q, size_t saved)
{
    q->path.len = saved;
    if (q->path.data)
        q->path.data[saved] = 0;
}

#define EQ_SCOPE(q, body, ...)                                                                   \
    do {                                                                                         \
        size_t _sv = eq_push(q, __VA_ARGS__);                                                    \
        bool _ok = (body);                                                                       \
        eq_pop(q, _sv);                                                                          \
        if (!_ok)                                                                                \
            return false;                                                                        \
    } while (0)

static bool eq_int(eq *q, const char *name, int64_t a, int64_t b)
{
    if (a == b)
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%lld != %lld", (long long)a, (long long)b);
    eq_pop(q, sv);
    return false;
}

static bool eq_str(eq *q, const char *name, const char *a, const char *b)
{
    if (same_str(a, b))
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%s%s%s != %s%s%s", a ? "\"" : "", a ? a : "null", a ? "\"" : "", b ? "\"" : "",
           b ? b : "null", b ? "\"" : "");
    eq_pop(q, sv);
    return false;
}

static bool eq_double(eq *q, const char *name, double a, double b)
{
    if (a == b || (isnan(a) && isnan(b)))
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%.17g != %.17g", a, b);
    eq_pop(q, sv);
    return false;
}

static bool eq_loc_body(eq *q, pc_loc a, pc_loc b)
{
    return eq_str(q, "file", a.file, b.file) && eq_int(q, "line", a.line, b.line) &&
           eq_int(q, "col", a.col, b.col) && eq_int(q, "end_line", a.end_line, b.end_line) &&
           eq_int(q, "end_col", a.end_col, b.end_col);
}

static bool eq_loc(eq *q, const char *name, pc_loc a, pc_loc b)
{
    EQ_SCOPE(q, eq_loc_body(q, a, b), "%s", name);
    return true;
}

static bool eq_expr(eq *q, const char *name, const pc_expr *a, const pc_expr *b)
{
    if (pc_expr_equal(a, b))
        return true;
    char *sa = a ? pc_expr_to_string(a) : NULL, *sb = b ? pc_expr_to_string(b) : NULL;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%s != %s%s", sa ? sa : "null", sb ? sb : "null",
           sa && sb && !strcmp(sa, sb) ? " (same text, different structure)" : "");
    eq_pop(q, sv);
    pc_mem_free(sa);
    pc_mem_free(sb);
    return false;
}

static bool eq_block(eq *q, const char *name, pc_block a, pc_block b)
{
    size_t sv = eq_push(q, "%s", name);
    bool ok = true;
    if (a.count != b.count)
        ok = differ(q, "%d statements != %d", a.count, b.count);
    for (int i = 0; ok && i < a.count; i++)
        if (a.stmts[i] != b.stmts[i]) {
            size_t s2 = eq_push(q, "[%d]", i);
            ok = differ(q, "%d != %d", a.stmts[i], b.stmts[i]);
            eq_pop(q, s2);
        }
    eq_pop(q, sv);
    return ok;
}

static bool eq_count(eq *q, const char *name, int a, int b)
{
    if (a == b)
        return true;
    size_t sv = eq_push(q, "%s", name);
    differ(q, "%d items != %d", a, b);
    eq_pop(q, sv);
    return false;
}

static bool eq_optval(eq *q, const pc_optval *a, const pc_optval *b)
{
    if (!eq_int(q, "kind", a->kind, b->kind) || !eq_int(q, "i", a->i, b->i) ||
        !eq_double(q, "f", a->f, b->f) || !eq_str(q, "text", a->text, b->text) ||
        !eq_count(q, "items", a->nitems, b->nitems))
        return false;
    for (int i = 0; i < a->nitems; i++)
        EQ_SCOPE(q, eq_optval(q, &a->items[i], &b->items[i]), "items[%d]", i);
    return eq_loc(q, "loc", a->loc, b->loc);
}

static bool eq_tensor(eq *q, const pc_tensor *a, const pc_tensor *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_str(q, "name", a->name, b->name) ||
        !eq_str(q, "variable", a->variable, b->variable) || !eq_int(q, "kind", a->kind, b->kind) ||
        !eq_int(q, "dtype", a->dtype, b->dtype) || !eq_int(q, "ndims", a->ndims, b->ndims))
        return false;
    bool sa = a->shape != NULL || a->ndims == 0, sb = b->shape != NULL || b->ndims == 0;
    if (sa != sb)
        return eq_str(q, "shape", sa ? "[...]" : NULL, sb ? "[...]" : NULL);
    for (int i = 0; sa && i < a->ndims; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "shape[%d]", i);
        if (!eq_expr(q, nm, a->shape[i], b->shape[i]))
            return false;
    }
    return eq_int(q, "base", a->base, b->base) && eq_int(q, "scope_loop", a->scope_loop, b->scope_loop) &&
           eq_int(q, "def_stmt", a->def_stmt, b->def_stmt) && eq_loc(q, "loc", a->loc, b->loc);
}

/* issue 18: tile shapes and matmul operands */
static bool eq_access_operand(eq *q, const pc_access *a, const pc_access *b)
{
    return eq_int(q, "role", a->role, b->role) && eq_int(q, "transposed", a->transposed, b->transposed);
}

static bool eq_tiles_body(eq *q, const pc_tile_shapes *a, const pc_tile_shapes *b)
{
    if (!eq_int(q, "vec_set", a->vec_set, b->vec_set) || !eq_int(q, "vec_known", a->vec_known, b->vec_known) ||
        !eq_count(q, "vec", a->nvec, b->nvec) || !eq_loc(q, "vec_loc", a->vec_loc, b->vec_loc) ||
        !eq_int(q, "cube_set", a->cube_set, b->cube_set) || !eq_int(q, "cube_known", a->cube_known, b->cube_known) ||
        !eq_loc(q, "cube_loc", a->cube_loc, b->cube_loc))
        return false;
    char nm[32];
    for (int i = 0; i < a->nvec; i++) {
        snprintf(nm, sizeof nm, "vec[%d]", i);
        if (!eq_int(q, nm, a->vec[i], b->vec[i]))
            return false;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(nm, sizeof nm, "cube_k[%d]", i);
        if (!eq_int(q, nm, a->cube_k[i], b->cube_k[i]))
            return false;
    }
    for (int i = 0; i < 2; i++) {
        snprintf(nm, sizeof nm, "cube_m[%d]", i);
        if (!eq_int(q, nm, a->cube_m[i], b->cube_m[i]))
            return false;
        snprintf(nm, sizeof nm, "cube_n[%d]", i);
        if (!eq_int(q, nm, a->cube_n[i], b->cube_n[i]))
            return false;
    }
    return true;
}

static bool eq_stmt_tiles(eq *q, const pc_stmt *a, const pc_stmt *b)
{
    if (!a->tiles || !b->tiles)
        return eq_str(q, "tiles", a->tiles ? "{...}" : NULL, b->tiles ? "{...}" : NULL);
    EQ_SCOPE(q, eq_tiles_body(q, a->tiles, b->tiles), "tiles");
    return true;
}

static bool eq_access(eq *q, const pc_access *a, const pc_access *b)
{
    return eq_int(q, "tensor", a->tensor, b->tensor) && eq_int(q, "kind", a->kind, b->kind) &&
           eq_int(q, "unit", a->unit, b->unit) && eq_loc(q, "loc", a->loc, b->loc) && eq_access_operand(q, a, b);
}

static bool eq_branch(eq *q, const pc_branch *a, const pc_branch *b)
{
    return eq_expr(q, "cond", a->cond, b->cond) && eq_str(q, "cond_text", a->cond_text, b->cond_text) &&
           eq_int(q, "decided", a->decided, b->decided) &&
           eq_block(q, "body", a->body, b->body) && eq_loc(q, "loc", a->loc, b->loc);
}

static bool eq_stmt(eq *q, const pc_stmt *a, const pc_stmt *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_int(q, "kind", a->kind, b->kind) ||
        !eq_loc(q, "loc", a->loc, b->loc) || !eq_int(q, "has_op", a->has_op, b->has_op) ||
        !eq_count(q, "accesses", a->naccesses, b->naccesses))
        return false;
    for (int i = 0; i < a->naccesses; i++)
        EQ_SCOPE(q, eq_access(q, &a->accesses[i], &b->accesses[i]), "accesses[%d]", i);
    if (!eq_int(q, "loop", a->loop, b->loop) || !eq_count(q, "branches", a->nbranches, b->nbranches))
        return false;
    for (int i = 0; i < a->nbranches; i++)
        EQ_SCOPE(q, eq_branch(q, &a->branches[i], &b->branches[i]), "branches[%d]", i);
    return eq_int(q, "unroll_factor", a->unroll_factor, b->unroll_factor) &&
           eq_block(q, "unroll_body", a->unroll_body, b->unroll_body) &&
           eq_str(q, "message", a->message, b->message) && eq_stmt_tiles(q, a, b);
}

static bool eq_loop(eq *q, const pc_loop *a, const pc_loop *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_str(q, "name", a->name, b->name) ||
        !eq_str(q, "index_var", a->index_var, b->index_var) ||
        !eq_str(q, "factor_var", a->factor_var, b->factor_var) || !eq_expr(q, "begin", a->begin, b->begin) ||
        !eq_expr(q, "end", a->end, b->end) || !eq_expr(q, "step", a->step, b->step) ||
        !eq_count(q, "unroll", a->nunroll, b->nunroll))
        return false;
    for (int i = 0; i < a->nunroll; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "unroll[%d]", i);
        if (!eq_int(q, nm, a->unroll[i], b->unroll[i]))
            return false;
    }
    return eq_int(q, "submit_before_loop", a->submit_before_loop, b->submit_before_loop) &&
           eq_int(q, "parallel", a->parallel, b->parallel) && eq_int(q, "parent", a->parent, b->parent) &&
           eq_int(q, "stmt", a->stmt, b->stmt) && eq_int(q, "unroll_rule", a->unroll_rule, b->unroll_rule) &&
           eq_block(q, "body", a->body, b->body) &&
           eq_loc(q, "loc", a->loc, b->loc) && eq_loc(q, "header", a->header, b->header);
}

static bool eq_kernel(eq *q, const pc_kernel *a, const pc_kernel *b)
{
    if (!eq_int(q, "id", a->id, b->id) || !eq_str(q, "name", a->name, b->name) ||
        !eq_loc(q, "loc", a->loc, b->loc) || !eq_loc(q, "insert_loc", a->insert_loc, b->insert_loc) ||
        !eq_count(q, "tensors", a->ntensors, b->ntensors))
        return false;
    for (int i = 0; i < a->ntensors; i++)
        EQ_SCOPE(q, eq_tensor(q, &a->tensors[i], &b->tensors[i]), "tensors[%d]", i);
    if (!eq_count(q, "stmts", a->nstmts, b->nstmts))
        return false;
    for (int i = 0; i < a->nstmts; i++)
        EQ_SCOPE(q, eq_stmt(q, &a->stmts[i], &b->stmts[i]), "stmts[%d]", i);
    if (!eq_count(q, "loops", a->nloops, b->nloops))
        return false;
    for (int i = 0; i < a->nloops; i++)
        EQ_SCOPE(q, eq_loop(q, &a->loops[i], &b->loops[i]), "loops[%d]", i);
    if (!eq_block(q, "body", a->body, b->body) || !eq_count(q, "constants", a->nconstants, b->nconstants))
        return false;
    for (int i = 0; i < a->nconstants; i++) {
        char nm[40];
        snprintf(nm, sizeof nm, "constants[%d].name", i);
        if (!eq_str(q, nm, a->constants[i].name, b->constants[i].name))
            return false;
        snprintf(nm, sizeof nm, "constants[%d].value", i);
        if (!eq_int(q, nm, a->constants[i].value, b->constants[i].value))
            return false;
    }
    return true;
}

static bool eq_option(eq *q, const pc_option *a, const pc_option *b)
{
    if (!eq_str(q, "key", a->key, b->key))
        return false;
    EQ_SCOPE(q, eq_optval(q, &a->value, &b->value), "value");
    return eq_int(q, "site", a->site, b->site) && eq_int(q, "kernel", a->kernel, b->kernel) &&
           eq_int(q, "in_kernel", a->in_kernel, b->in_kernel) && eq_loc(q, "loc", a->loc, b->loc);
}

static bool eq_message(eq *q, const pc_message *a, const pc_message *b)
{
    return eq_int(q, "kind", a->kind, b->kind) && eq_loc(q, "loc", a->loc, b->loc) &&
           eq_str(q, "text", a->text, b->text) && eq_str(q, "check", a->check, b->check);
}

static bool eq_model(eq *q, const pc_model *a, const pc_model *b)
{
    if (!eq_str(q, "file", a->file, b->file) || !eq_int(q, "lang", a->lang, b->lang) ||
        !eq_int(q, "fatal", a->fatal, b->fatal) || !eq_count(q, "kernels", a->nkernels, b->nkernels))
        return false;
    for (int i = 0; i < a->nkernels; i++)
        EQ_SCOPE(q, eq_kernel(q, &a->kernels[i], &b->kernels[i]), "kernels[%d]", i);
    if (!eq_count(q, "options", a->noptions, b->noptions))
        return false;
    for (int i = 0; i < a->noptions; i++)
        EQ_SCOPE(q, eq_option(q, &a->options[i], &b->options[i]), "options[%d]", i);
    if (!eq_count(q, "messages", a->nmessages, b->nmessages))
        return false;
    for (int i = 0; i < a->nmessages; i++)
        EQ_SCOPE(q, eq_message(q, &a->messages[i], &b->messages[i]), "messages[%d]", i);
    return true;
}

bool pc_model_equal(const pc_model *a, const pc_model *b, char *where, size_t where_size)
{
    if (where && where_size)
        where[0] = 0;
    if (a == b)
        return true;
    eq q = {{0}, where, where_size};
    bool ok;
    if (!a || !b)
        ok = differ(&q, "%s", a ? "second model is NULL" : "first model is NULL");
    else
        ok = eq_model(&q, a, b);
    pc_sb_free(&q.path);
    return ok;
}
