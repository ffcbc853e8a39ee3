/* copy.c - deep copies of model parts into another model (pc_model_copy, pc_model_copier; see
 * poolcheck/model.h), generated from the field table (fields.def).
 *
 * Everything a copy points at lives in the destination's arena: strings, arrays, expressions and
 * tile states.  An expression or tile state that the source shares between several places (the
 * frontends hand one pc_expr to many dims, one pc_tile_shapes to many statements) is copied once
 * per copier and stays shared in the copy.  Locations in the source model's own file name the
 * destination's file, their lines moved by the copier's line delta; other files' stay as they are. */
#define _POSIX_C_SOURCE 200809L
#include "model_int.h"

#include <stdint.h>
#include <string.h>

typedef struct ptr_pair { const void *from; void *to; } ptr_pair;

struct pc_model_copier {
    pc_model *dst;
    const char *src_file;          /* the source model's file (pc_model.file) */
    int64_t delta;                 /* lines added to main-file locations */
    ptr_pair *map;                 /* shared expressions / tile states copied once: open addressing */
    size_t nmap, capmap;
};

typedef pc_model_copier copier;

static void *map_get(const copier *c, const void *p)
{
    if (!c->capmap)
        return NULL;
    size_t h = ((uintptr_t)p >> 4) & (c->capmap - 1);
    while (c->map[h].from) {
        if (c->map[h].from == p)
            return c->map[h].to;
        h = (h + 1) & (c->capmap - 1);
    }
    return NULL;
}

static void map_put(copier *c, const void *p, void *q)
{
    if ((c->nmap + 1) * 2 > c->capmap) {
        size_t ncap = c->capmap ? c->capmap * 2 : 256;
        ptr_pair *nm = pc_mem_calloc(ncap, sizeof *nm);
        for (size_t i = 0; i < c->capmap; i++)
            if (c->map[i].from) {
                size_t h = ((uintptr_t)c->map[i].from >> 4) & (ncap - 1);
                while (nm[h].from)
                    h = (h + 1) & (ncap - 1);
                nm[h] = c->map[i];
            }
        pc_mem_free(c->map);
        c->map = nm;
        c->capmap = ncap;
    }
    size_t h = ((uintptr_t)p >> 4) & (c->capmap - 1);
    while (c->map[h].from)
        h = (h + 1) & (c->capmap - 1);
    c->map[h].from = p;
    c->map[h].to = q;
    c->nmap++;
}

/* Room for n items as the model's builders would have grown it (pc_model_cap_for); NULL for none. */
static void *cp_alloc(copier *c, int n, size_t elem)
{
    return n > 0 ? pc_arena_alloc(c->dst->arena, pc_model_cap_for((size_t)n) * elem) : NULL;
}

/* The same holding a copy of the n items at src. */
static void *cp_array(copier *c, const void *src, int n, size_t elem)
{
    if (!src || n <= 0)
        return NULL;
    void *p = cp_alloc(c, n, elem);
    memcpy(p, src, (size_t)n * elem);
    return p;
}

static const char *cp_str(copier *c, const char *s) { return s ? pc_model_strdup(c->dst, s) : NULL; }

static pc_loc cp_loc(copier *c, pc_loc l)
{
    if (!l.file)
        return l;
    bool main = !strcmp(l.file, c->src_file);
    uint32_t line = l.line, eline = l.end_line;
    if (main && line)
        line = (uint32_t)((int64_t)line + c->delta);
    if (main && eline)
        eline = (uint32_t)((int64_t)eline + c->delta);
    return pc_model_loc(c->dst, main ? c->dst->file : l.file, line, l.col, eline, l.end_col);
}

static const pc_expr *cp_expr(copier *c, const pc_expr *e)
{
    if (!e)
        return NULL;
    pc_expr *q = map_get(c, e);
    if (q)
        return q;
    q = pc_arena_alloc(c->dst->arena, sizeof *q);
    *q = *e;
    map_put(c, e, q);
    q->name = cp_str(c, e->name);
    q->a = cp_expr(c, e->a);
    q->b = cp_expr(c, e->b);
    return q;
}

/* A copy of n dims (a tensor's shape, an access's region), each expression copied once; NULL for
 * NULL. */
static const pc_expr **cp_dims(copier *c, const pc_expr *const *dims, int n)
{
    if (!dims)
        return NULL;
    const pc_expr **out = pc_arena_alloc(c->dst->arena, sizeof *out * (size_t)(n > 0 ? n : 1));
    for (int d = 0; d < n; d++)
        out[d] = cp_expr(c, dims[d]);
    return out;
}

static void cp_optval(copier *c, pc_optval *d, const pc_optval *s)
{
    *d = *s;
    d->text = cp_str(c, s->text);
    d->loc = cp_loc(c, s->loc);
    d->items = cp_alloc(c, s->items ? s->nitems : 0, sizeof *d->items);
    for (int i = 0; d->items && i < s->nitems; i++)
        cp_optval(c, &d->items[i], &s->items[i]);
}

static pc_binding *cp_constants(copier *c, const pc_binding *s, int n)
{
    pc_binding *d = cp_array(c, s, n, sizeof *s);
    for (int i = 0; d && i < n; i++)
        d[i].name = cp_str(c, s[i].name);
    return d;
}

/* ---- the structs of fields.def: one copy each, generated -------------------------------------- */

static void cp_access_op(copier *c, pc_access *d, const pc_access *s) { d->op = cp_str(c, s->op); }

#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    static void cp_##name(copier *c, type *D, const type *S, int index);                         \
    __attribute__((unused)) static const type *cs_##name(copier *c, const type *S);
#define PC_MODEL_FIELD(...)
#define PC_MODEL_FIELD_OPT(...)
#define PC_MODEL_END(name)
#include "fields.def"

#define C_SELF_ID(m, ...) D->m = index;
#define C_INT(m, ...)
#define C_INT64(m, ...)
#define C_BOOL(m, ...)
#define C_ENUM(m, ...)
#define C_INDEX(m, ...)
#define C_STR(m, ...) D->m = cp_str(c, S->m);
#define C_LOC(m, ...) D->m = cp_loc(c, S->m);
#define C_EXPR(m, ...) D->m = cp_expr(c, S->m);
#define C_BLOCK(m, ...) D->m.stmts = cp_array(c, S->m.stmts, S->m.count, sizeof *S->m.stmts);
#define C_LIST(m, item, count)                                                                   \
    D->m = cp_alloc(c, S->m ? S->count : 0, sizeof *D->m);                                       \
    for (int i_ = 0; D->m && i_ < S->count; i_++)                                                \
        cp_##item(c, &D->m[i_], &S->m[i_], i_);
#define C_INT64S(m, count) D->m = cp_array(c, S->m, S->count, sizeof *S->m);
#define C_INT64S_UPTO(m, ...)
#define C_INT64_ARRAY(m, ...)
#define C_EXPRS(m, count, nullable) D->m = cp_dims(c, S->m, S->count);
#define C_SHARED(m, item) D->m = cs_##item(c, S->m);
#define C_OPTVAL(m, ...) cp_optval(c, &D->m, &S->m);
#define C_CONSTANTS(m, count) D->m = cp_constants(c, S->m, S->count);
#define C_DERIVED(m, ...) D->m = cp_str(c, S->m);
#define C_CUSTOM(m, hooks) cp_##hooks(c, D, S);
#define C_WITH(m, ...)

#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    /* the copy of a shared object, made once per copier */                                      \
    __attribute__((unused)) static const type *cs_##name(copier *c, const type *S)               \
    {                                                                                            \
        if (!S)                                                                                  \
            return NULL;                                                                         \
        type *D = map_get(c, S);                                                                 \
        if (!D) {                                                                                \
            D = pc_arena_alloc(c->dst->arena, sizeof *D);                                        \
            map_put(c, S, D);                                                                    \
            cp_##name(c, D, S, 0);                                                               \
        }                                                                                        \
        return D;                                                                                \
    }                                                                                            \
    static void cp_##name(copier *c, type *D, const type *S, int index)                          \
    {                                                                                            \
        (void)index;                                                                             \
        *D = *S;
#define PC_MODEL_FIELD(m, key, kind, args) PC_MF_CALL(C_##kind, m, PC_MF_ARGS args)
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt) PC_MF_CALL(C_##kind, m, PC_MF_ARGS args)
#define PC_MODEL_END(name) }
#include "fields.def"

/* ---- public ----------------------------------------------------------------------------------- */

pc_model_copier *pc_model_copier_new(pc_model *dst, const pc_model *src)
{
    copier *c = pc_mem_calloc(1, sizeof *c);
    c->dst = dst;
    c->src_file = src->file ? src->file : "";
    return c;
}

void pc_model_copier_set_line_delta(pc_model_copier *c, int64_t delta) { c->delta = delta; }

void pc_model_copier_free(pc_model_copier *c)
{
    if (!c)
        return;
    pc_mem_free(c->map);
    pc_mem_free(c);
}

int pc_model_copier_kernel(pc_model_copier *c, const pc_kernel *k)
{
    pc_model *m = c->dst;
    PC_MODEL_GROW(m, m->kernels, m->nkernels);
    int idx = m->nkernels++;
    cp_kernel(c, &m->kernels[idx], k, idx);
    return idx;
}

int pc_model_copier_option(pc_model_copier *c, const pc_option *o, int kernel)
{
    pc_model *m = c->dst;
    PC_MODEL_GROW(m, m->options, m->noptions);
    int idx = m->noptions++;
    cp_option(c, &m->options[idx], o, idx);
    m->options[idx].kernel = kernel;
    return idx;
}

void pc_model_copier_message(pc_model_copier *c, const pc_message *msg)
{
    pc_model *m = c->dst;
    PC_MODEL_GROW(m, m->messages, m->nmessages);
    int idx = m->nmessages++;
    cp_message(c, &m->messages[idx], msg, idx);
    if (msg->kind == PC_MSG_FATAL) /* as pc_model_add_message */
        m->fatal = true;
}

pc_model *pc_model_copy(const pc_model *m)
{
    pc_model *q = pc_model_new(m->file, m->lang);
    copier *c = pc_model_copier_new(q, m);
    for (int k = 0; k < m->nkernels; k++)
        pc_model_copier_kernel(c, &m->kernels[k]);
    for (int o = 0; o < m->noptions; o++)
        pc_model_copier_option(c, &m->options[o], m->options[o].kernel);
    for (int i = 0; i < m->nmessages; i++)
        pc_model_copier_message(c, &m->messages[i]);
    q->fatal = m->fatal;
    pc_model_copier_free(c);
    return q;
}
