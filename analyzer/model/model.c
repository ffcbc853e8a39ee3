/* model.c - kernel model builders, data types and names (see poolcheck/model.h). */
#define _POSIX_C_SOURCE 200809L
#include "model_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- data types ------------------------------------------------------------------------------ */

static const struct { const char *name; int bits; } dtypes[PC_DT_COUNT] = {
    [PC_DT_UNKNOWN] = {"UNKNOWN", 0},
    [PC_DT_INT4] = {"INT4", 4},         [PC_DT_INT8] = {"INT8", 8},
    [PC_DT_INT16] = {"INT16", 16},      [PC_DT_INT32] = {"INT32", 32},
    [PC_DT_INT64] = {"INT64", 64},      [PC_DT_FP8] = {"FP8", 8},
    [PC_DT_FP16] = {"FP16", 16},        [PC_DT_FP32] = {"FP32", 32},
    [PC_DT_BF16] = {"BF16", 16},        [PC_DT_HF4] = {"HF4", 4},
    [PC_DT_HF8] = {"HF8", 8},           [PC_DT_UINT8] = {"UINT8", 8},
    [PC_DT_UINT16] = {"UINT16", 16},    [PC_DT_UINT32] = {"UINT32", 32},
    [PC_DT_UINT64] = {"UINT64", 64},    [PC_DT_BOOL] = {"BOOL", 8},
    [PC_DT_DOUBLE] = {"DOUBLE", 64},    [PC_DT_FP8E4M3] = {"FP8E4M3", 8},
    [PC_DT_FP8E5M2] = {"FP8E5M2", 8},   [PC_DT_FP8E8M0] = {"FP8E8M0", 8},
    [PC_DT_FP4_E2M1X2] = {"FP4_E2M1X2", 8}, [PC_DT_FP4_E1M2X2] = {"FP4_E1M2X2", 8},
    [PC_DT_FP4_E2M1] = {"FP4_E2M1", 4}, [PC_DT_FP4_E1M2] = {"FP4_E1M2", 4},
};

int pc_dtype_bits(pc_dtype t) { return t > 0 && t < PC_DT_COUNT ? dtypes[t].bits : 0; }

const char *pc_dtype_name(pc_dtype t) { return t >= 0 && t < PC_DT_COUNT ? dtypes[t].name : "UNKNOWN"; }

pc_dtype pc_dtype_from_name(const char *name)
{
    if (!name)
        return PC_DT_UNKNOWN;
    const char *dot = strrchr(name, '.');      /* pypto.DT_FP32 */
    if (dot)
        name = dot + 1;
    const char *colon = strrchr(name, ':');    /* npu::tile_fwk::DT_FP32 */
    if (colon)
        name = colon + 1;
    if (strncmp(name, "DT_", 3) == 0)
        name += 3;
    for (int t = 1; t < PC_DT_COUNT; t++)
        if (strcmp(dtypes[t].name, name) == 0)
            return (pc_dtype)t;
    return PC_DT_UNKNOWN;
}

const char *pc_tensor_label(const pc_tensor *t, char *buf, size_t n)
{
    if (t->name && *t->name)
        return t->name;
    snprintf(buf, n, "tmp@%u:%u", t->loc.line, t->loc.col);
    return buf;
}

const char *pc_kernel_param_other_spelling(const pc_kernel *k, const char *name)
{
    const char *dot = strchr(name, '.');
    if (!dot)
        return NULL;
    size_t plen = (size_t)(dot - name);
    for (int t = 0; t < k->ntensors; t++) {
        const pc_tensor *T = &k->tensors[t];
        if (T->kind != PC_TENSOR_PARAM || !T->name || !T->variable || !strcmp(T->name, T->variable))
            continue;
        if (strlen(T->name) == plen && !strncmp(T->name, name, plen))
            return T->variable;
        if (strlen(T->variable) == plen && !strncmp(T->variable, name, plen))
            return T->name;
    }
    return NULL;
}

/* ---- names ------------------------------------------------------------------------------------ */

const char *pc_access_kind_name(pc_access_kind k)
{
    static const char *n[] = {"read", "define", "write_whole", "write_assemble", "write_element"};
    return k >= 0 && k <= PC_ACC_WRITE_ELEMENT ? n[k] : "?";
}

const char *pc_tensor_kind_name(pc_tensor_kind k)
{
    static const char *n[] = {"param", "created", "value", "view"};
    return k >= 0 && k <= PC_TENSOR_VIEW ? n[k] : "?";
}

const char *pc_unit_name(pc_unit u)
{
    static const char *n[] = {"none", "vector", "cube"};
    return u >= 0 && u <= PC_UNIT_CUBE ? n[u] : "?";
}

const char *pc_optsite_kind_name(pc_optsite_kind k)
{
    static const char *n[] = {"set_runtime_options", "set_options", "options", "jit",
                              "SetRuntimeOption", "config_file", "project_file", "command_line"};
    return k >= 0 && k <= PC_SITE_COMMAND_LINE ? n[k] : "?";
}

/* ---- model and builders ----------------------------------------------------------------------- */

pc_model *pc_model_new(const char *file, pc_lang lang)
{
    pc_arena *a = pc_arena_new();
    pc_model *m = pc_arena_alloc(a, sizeof *m);
    m->arena = a;
    m->lang = lang;
    m->file = pc_arena_strdup(a, file ? file : "");
    return m;
}

void pc_model_free(pc_model *m)
{
    if (m)
        pc_arena_free(m->arena);
}

pc_arena *pc_model_arena(pc_model *m) { return m->arena; }

const char *pc_model_strdup(pc_model *m, const char *s) { return s ? pc_arena_strdup(m->arena, s) : NULL; }

pc_loc pc_model_loc(pc_model *m, const char *file, uint32_t line, uint32_t col, uint32_t end_line,
                    uint32_t end_col)
{
    pc_loc l;
    /* Most locations name the model's own file: share its string instead of copying. */
    l.file = (file && strcmp(file, m->file) != 0) ? pc_arena_strdup(m->arena, file) : m->file;
    l.line = line;
    l.col = col;
    l.end_line = end_line;
    l.end_col = end_col;
    return l;
}

size_t pc_model_cap_for(size_t count) { size_t c = 8; while (c < count) c *= 2; return c; }

#define GROW PC_MODEL_GROW

int pc_model_add_kernel(pc_model *m, const char *name, pc_loc loc)
{
    GROW(m, m->kernels, m->nkernels);
    pc_kernel *k = &m->kernels[m->nkernels];
    memset(k, 0, sizeof *k);
    k->id = m->nkernels;
    k->name = pc_model_strdup(m, name ? name : "");
    k->ref = pc_arena_printf(m->arena, "'%s'", k->name);
    k->loc = loc;
    k->insert_loc = loc;
    return m->nkernels++;
}

bool pc_kernel_scope_shown(const pc_kernel *k)
{
    size_t n = strlen(k->name);
    return k->scope && k->ref && strlen(k->ref) > n + 2; /* longer than 'name' */
}

typedef struct named_kernel { const char *name; int index; } named_kernel;

static int by_kernel_name(const void *a, const void *b)
{
    const named_kernel *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : x->index - y->index;
}

void pc_model_name_kernels(pc_model *m)
{
    if (m->nkernels <= 0)
        return;
    /* shared names found by sorting: linear-logarithmic in the kernels of a file */
    named_kernel *order = pc_mem_alloc(sizeof *order * (size_t)m->nkernels);
    for (int i = 0; i < m->nkernels; i++)
        order[i] = (named_kernel){m->kernels[i].name, i};
    qsort(order, (size_t)m->nkernels, sizeof *order, by_kernel_name);
    for (int i = 0; i < m->nkernels; i++) {
        pc_kernel *k = &m->kernels[order[i].index];
        bool shared = (i > 0 && !strcmp(order[i - 1].name, k->name)) ||
                      (i + 1 < m->nkernels && !strcmp(order[i + 1].name, k->name));
        k->ref = shared && k->scope ? pc_arena_printf(m->arena, "'%s' in %s", k->name, k->scope)
                                    : pc_arena_printf(m->arena, "'%s'", k->name);
    }
    pc_mem_free(order);
}

int pc_kernel_add_tensor(pc_model *m, pc_kernel *k, const char *variable, pc_tensor_kind kind, pc_loc loc)
{
    GROW(m, k->tensors, k->ntensors);
    pc_tensor *t = &k->tensors[k->ntensors];
    memset(t, 0, sizeof *t);
    t->id = k->ntensors;
    t->variable = pc_model_strdup(m, variable ? variable : "");
    t->name = t->variable;
    t->kind = kind;
    t->ndims = -1;
    t->base = -1;
    t->scope_loop = -1;
    t->def_stmt = -1;
    t->loc = loc;
    return k->ntensors++;
}

int pc_kernel_add_stmt(pc_model *m, pc_kernel *k, pc_stmt_kind kind, pc_loc loc)
{
    GROW(m, k->stmts, k->nstmts);
    pc_stmt *s = &k->stmts[k->nstmts];
    memset(s, 0, sizeof *s);
    s->id = k->nstmts;
    s->kind = kind;
    s->loc = loc;
    s->loop = -1;
    s->has_op = kind == PC_STMT_OP;
    return k->nstmts++;
}

int pc_kernel_add_loop_spec(pc_model *m, pc_kernel *k, const pc_loop_spec *spec)
{
    int lid = pc_kernel_add_loop(m, k, spec->name, spec->loc);
    pc_loop *l = &k->loops[lid];
    l->index_var = pc_model_strdup(m, spec->index_var ? spec->index_var : "");
    l->factor_var = spec->factor_var ? pc_model_strdup(m, spec->factor_var) : NULL;
    l->begin = spec->begin;
    l->end = spec->end;
    l->step = spec->step;
    l->unroll = spec->unroll;
    l->nunroll = spec->nunroll;
    l->submit_before_loop = spec->submit_before_loop;
    l->parallel = spec->parallel;
    l->parent = spec->parent;
    l->header = spec->header;
    return lid;
}

int pc_kernel_add_loop(pc_model *m, pc_kernel *k, const char *name, pc_loc loc)
{
    GROW(m, k->loops, k->nloops);
    pc_loop *l = &k->loops[k->nloops];
    memset(l, 0, sizeof *l);
    l->id = k->nloops;
    l->name = pc_model_strdup(m, name ? name : "");
    l->index_var = "";
    l->parent = -1;
    l->stmt = -1;
    l->loc = loc;
    l->header = loc;
    return k->nloops++;
}

void pc_stmt_add_access(pc_model *m, pc_stmt *s, int tensor, pc_access_kind kind, pc_unit unit, pc_loc loc)
{
    GROW(m, s->accesses, s->naccesses);
    pc_access *a = &s->accesses[s->naccesses++];
    memset(a, 0, sizeof *a);
    a->tensor = tensor;
    a->kind = kind;
    a->unit = unit;
    a->loc = loc;
    a->call = -1;
    a->region_rank = -1;
    a->axis = -1;
}

void pc_access_set_op(pc_model *m, pc_access *a, const char *op, int call, int axis)
{
    a->op = op ? pc_model_strdup(m, op) : NULL;
    a->call = op ? call : -1;
    a->axis = op ? axis : -1;
}

void pc_access_set_region(pc_model *m, pc_access *a, const pc_expr *const *region, int rank)
{
    a->region = NULL;
    a->region_rank = -1;
    if (!region || rank < 0)
        return;
    const pc_expr **r = pc_arena_alloc(pc_model_arena(m), sizeof *r * (size_t)(rank ? rank : 1));
    for (int d = 0; d < rank; d++)
        r[d] = region[d];
    a->region = r;
    a->region_rank = rank;
}

pc_branch *pc_stmt_add_branch(pc_model *m, pc_stmt *s, pc_loc loc)
{
    GROW(m, s->branches, s->nbranches);
    pc_branch *b = &s->branches[s->nbranches++];
    memset(b, 0, sizeof *b);
    b->decided = -1;
    b->loc = loc;
    return b;
}

void pc_block_append(pc_model *m, pc_block *b, int stmt)
{
    GROW(m, b->stmts, b->count);
    b->stmts[b->count++] = stmt;
}

void pc_kernel_add_constant(pc_model *m, pc_kernel *k, const char *name, int64_t value)
{
    for (int i = 0; i < k->nconstants; i++)
        if (strcmp(k->constants[i].name, name) == 0) {
            k->constants[i].value = value;
            return;
        }
    pc_kernel_append_constant(m, k, name, value);
}

void pc_kernel_append_constant(pc_model *m, pc_kernel *k, const char *name, int64_t value)
{
    GROW(m, k->constants, k->nconstants);
    k->constants[k->nconstants].name = pc_model_strdup(m, name);
    k->constants[k->nconstants].value = value;
    k->nconstants++;
}

int pc_model_add_option(pc_model *m, const char *key, pc_optsite_kind site, pc_loc loc)
{
    GROW(m, m->options, m->noptions);
    pc_option *o = &m->options[m->noptions];
    memset(o, 0, sizeof *o);
    o->key = pc_model_strdup(m, key ? key : "");
    o->site = site;
    o->kernel = -1;
    o->loc = loc;
    o->value.kind = PC_OPT_UNKNOWN;
    o->value.text = "";
    return m->noptions++;
}

void pc_model_add_message(pc_model *m, pc_msg_kind kind, pc_loc loc, const char *text)
{
    GROW(m, m->messages, m->nmessages);
    pc_message *msg = &m->messages[m->nmessages++];
    msg->kind = kind;
    msg->loc = loc;
    msg->text = pc_model_strdup(m, text ? text : "");
    msg->check = NULL;
    if (kind == PC_MSG_FATAL)
        m->fatal = true;
}

void pc_model_add_message_check(pc_model *m, pc_msg_kind kind, pc_loc loc, const char *check, const char *text)
{
    pc_model_add_message(m, kind, loc, text);
    m->messages[m->nmessages - 1].check = check ? pc_model_strdup(m, check) : NULL;
}
