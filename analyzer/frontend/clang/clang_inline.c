/* clang_inline.c - helper inlining: a call to a function poolcheck can walk (defined in the main
 * file or in a project header, not the PyPTO API) is walked in kernel mode in a frame of its own,
 * its parameters bound to the arguments evaluated in the caller's scope; a helper of another file
 * is walked over that file's bytes. */
#define _POSIX_C_SOURCE 200809L
#include "clang_int.h"

#include <string.h>

/* ---- helper inlining ------------------------------------------------------------------------------ */

/* A function poolcheck can walk into: defined in the main file, or in a project header (not a
 * system header; not the PyPTO API itself, whose inline bodies are implementation). */
bool pc_clang_inlinable(pc_cx *cx, CXCursor decl)
{
    if (clang_Cursor_isNull(decl))
        return false;
    CXCursor def = clang_getCursorDefinition(decl);
    if (clang_Cursor_isNull(def))
        return false;
    CXSourceLocation l = clang_getCursorLocation(def);
    CXFile f;
    clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
    if (!f)
        return false;
    if (clang_File_isEqual(f, cx->main_file))
        return true;
    if (clang_Location_isInSystemHeader(l)) /* the stub header is one (#pragma clang system_header) */
        return false;
    /* declared in npu::tile_fwk: the API */
    for (CXCursor p = clang_getCursorSemanticParent(def);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        CXString n = clang_getCursorSpelling(p);
        bool api = clang_getCursorKind(p) == CXCursor_Namespace && !strcmp(clang_getCString(n), "tile_fwk");
        clang_disposeString(n);
        if (api)
            return false;
    }
    return true;
}

typedef struct binding {
    CXCursor parm;
    const char *name;
    pc_cvclass vc;
    int tensor;
    const pc_expr *expr;
    const pc_expr **list;
    int nlist;
    const char *str;
    pc_dtype dtype;
    bool bound;
} binding;

/* An argument's value, bound to the helper's parameter b: a tensor (a view or a new value of the
 * call's own gets a tensor of the parameter's name), or a scalar, list, string or dtype read from
 * the argument's cursor (clang_value.c). */
static void bind_argument(pc_cx *cx, CXCursor call, CXCursor arg, binding *b)
{
    switch (b->vc) {
    case PC_VC_TENSOR: {
        pc_ctres r = pc_clang_tensor_expr(cx, arg);
        if (r.kind == PC_TR_NAMED && r.via_view) { /* Helper(View(x, ...)): the parameter is that view */
            int id = pc_clang_make_tensor(cx, b->name, PC_TENSOR_VIEW, pc_clang_cursor_loc(cx, arg), NULL);
            pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[id];
            t->base = r.tensor;
            t->dtype = r.dtype;
            t->ndims = r.ndims;
            t->shape = r.shape;
            t->scope_loop = cx->cur_loop;
            if (cx->cur_stmt < 0)
                cx->cur_stmt = pc_clang_new_stmt(cx, PC_STMT_OP, pc_clang_cursor_loc(cx, call));
            cx->m->kernels[cx->kernel].tensors[id].def_stmt = cx->cur_stmt;
            b->tensor = id;
        } else if (r.kind == PC_TR_NAMED) {
            b->tensor = r.tensor;
        } else if (r.kind == PC_TR_ANON) { /* Helper(Add(a, b)): the parameter names a new value */
            pc_loc al = pc_clang_cursor_loc(cx, arg);
            int id = pc_clang_make_tensor(cx, b->name, PC_TENSOR_VALUE, al, NULL);
            pc_tensor *t = &cx->m->kernels[cx->kernel].tensors[id];
            t->dtype = r.dtype;
            t->ndims = r.ndims;
            t->shape = r.shape;
            t->scope_loop = cx->cur_loop;
            pc_clang_access(cx, id, PC_ACC_DEFINE, r.unit, al);
            cx->m->kernels[cx->kernel].tensors[id].def_stmt = cx->cur_stmt;
            b->tensor = id;
        }
        b->bound = b->tensor >= 0;
        break;
    }
    case PC_VC_INT:
        b->expr = pc_clang_value_int(cx, arg);
        if (b->expr && pc_clang_has_opaque(b->expr))
            b->expr = NULL;
        b->bound = b->expr != NULL;
        break;
    case PC_VC_LIST:
    case PC_VC_RANGE:
        b->bound = pc_clang_value_list(cx, arg, &b->list, &b->nlist);
        break;
    case PC_VC_STRING:
        b->str = pc_clang_value_string(cx, arg);
        b->bound = b->str != NULL;
        break;
    case PC_VC_DTYPE:
        b->dtype = pc_clang_value_dtype(cx, arg);
        b->bound = true;
        break;
    default:
        break;
    }
}

/* The helper's parameters as entries of its frame (the current one): a bound argument's value, an
 * unbound tensor a tensor of its own on first use, an unbound integer a symbol of its name. */
static void enter_parameters(pc_cx *cx, CXCursor call, const binding *binds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const binding *b = &binds[i];
        int e;
        switch (b->vc) {
        case PC_VC_TENSOR:
            e = pc_clang_env_push(cx, PC_CENV_TENSOR, b->name, &b->parm);
            if (b->bound) {
                cx->env.items[e].kernel = cx->kernel;
                cx->env.items[e].tensor = b->tensor;
            } else { /* unknown argument: a tensor of its own on first use */
                cx->env.items[e].is_host = true;
                cx->env.items[e].host.kind = PC_TENSOR_CREATED;
                cx->env.items[e].host.ndims = -1;
                cx->env.items[e].host.loc = pc_clang_cursor_loc(cx, call);
            }
            break;
        case PC_VC_INT:
            e = pc_clang_env_push(cx, PC_CENV_EXPR, b->name, &b->parm);
            cx->env.items[e].expr = b->bound ? b->expr : pc_expr_sym(pc_model_arena(cx->m), b->name);
            break;
        case PC_VC_LIST:
        case PC_VC_RANGE:
            if (b->bound) {
                e = pc_clang_env_push(cx, PC_CENV_LIST, b->name, &b->parm);
                cx->env.items[e].list = b->list;
                cx->env.items[e].nlist = b->nlist;
            }
            break;
        case PC_VC_STRING:
            if (b->bound) {
                e = pc_clang_env_push(cx, PC_CENV_STRING, b->name, &b->parm);
                cx->env.items[e].str = b->str;
            }
            break;
        case PC_VC_DTYPE:
            e = pc_clang_env_push(cx, PC_CENV_DTYPE, b->name, &b->parm);
            cx->env.items[e].dtype = b->dtype;
            break;
        default:
            break;
        }
    }
}

bool pc_clang_inline_call(pc_cx *cx, CXCursor call, pc_ctarget *target)
{
    if (cx->kernel < 0)
        return false;
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref))
        return false;
    if (!pc_clang_inlinable(cx, ref))
        return false;
    CXCursor def = clang_getCursorDefinition(ref);
    enum CXCursorKind dk = clang_getCursorKind(def);
    if (dk != CXCursor_FunctionDecl && dk != CXCursor_CXXMethod && dk != CXCursor_FunctionTemplate)
        return false;
    const char *refused = NULL;
    for (int i = 0; i < cx->depth; i++)
        if (clang_equalCursors(cx->inline_stack[i], def))
            refused = "recursive call of a helper: its tensor work and LOOPs are not modelled";
    if (cx->depth >= (int)(sizeof cx->inline_stack / sizeof cx->inline_stack[0]))
        refused = "helper calls nested too deeply: this call's tensor work and LOOPs are not modelled";
    if (refused) {
        pc_clang_unanalysed(cx, pc_clang_cursor_loc(cx, call), refused);
        cx->cur_stmt = -1;
        return true; /* handled: reported instead of guessed */
    }
    pc_clang_cursors ch = {0};
    pc_clang_children(def, &ch);
    CXCursor body = clang_getNullCursor();
    PC_VEC(binding) binds = {0};
    bool relevant = pc_clang_is_tensor_type(clang_getCursorResultType(def));
    for (size_t i = 0; i < ch.count; i++) {
        enum CXCursorKind k = clang_getCursorKind(ch.items[i]);
        if (k == CXCursor_CompoundStmt)
            body = ch.items[i];
        else if (k == CXCursor_ParmDecl) {
            binding b;
            memset(&b, 0, sizeof b);
            b.parm = ch.items[i];
            b.name = pc_clang_spelling(cx, ch.items[i]);
            b.vc = pc_clang_classify_type(cx, clang_getCursorType(ch.items[i]));
            b.tensor = -1;
            const char *tn = pc_clang_type_name(cx, clang_getCursorType(ch.items[i]));
            relevant = relevant || strstr(tn, "npu::tile_fwk::Tensor") != NULL;
            PC_VEC_PUSH(binds, b);
        }
    }
    PC_VEC_FREE(ch);
    if (clang_Cursor_isNull(body) ||
        !(relevant || pc_clang_mentions(cx, body, "LOOP") || pc_clang_mentions(cx, body, "SetRuntimeOption"))) {
        PC_VEC_FREE(binds);
        return false;
    }
    /* arguments, evaluated in the caller's scope; a member operator call (a lambda's
     * operator()) passes the object as argument 0 */
    int nargs = pc_clang_call_nargs(call);
    int first = 0;
    if (clang_getCursorKind(def) == CXCursor_CXXMethod && !strncmp(pc_clang_spelling(cx, call), "operator", 8))
        first = 1;
    for (size_t i = 0; i < binds.count; i++) {
        binding *b = &binds.items[i];
        if ((int)i + first >= nargs)
            break;
        bind_argument(cx, call, pc_clang_call_arg(call, (int)i + first), b);
    }
    /* the callee's scope */
    int saved_frame = cx->frame;
    size_t mark = cx->env.count;
    cx->frame = ++cx->next_frame;
    enter_parameters(cx, call, binds.items, binds.count);
    uint32_t eb, ee;
    if (cx->in_main && pc_clang_offsets(cx, body, &eb, &ee))
        PC_VEC_PUSH(cx->kernel_spans, ((pc_cspan){cx->kernel, -1, eb, ee}));
    pc_ctarget *saved_target = cx->target;
    bool saved_host = cx->in_host_loop;
    cx->target = target;
    cx->inline_stack[cx->depth++] = def;
    cx->cur_stmt = -1;
    /* a helper from another file: walk that file's bytes (the token readers work on cx->src) */
    pc_cx saved_src = *cx;
    uint32_t *other_lines = NULL;
    CXFile hf;
    clang_getExpansionLocation(clang_getCursorLocation(def), &hf, NULL, NULL, NULL);
    bool other = hf && !clang_File_isEqual(hf, cx->main_file);
    if (other) {
        size_t len = 0;
        const char *text = clang_getFileContents(cx->tu, hf, &len);
        CXString fn = clang_getFileName(hf);
        cx->src_name = pc_arena_strdup(cx->scratch, clang_getCString(fn) ? clang_getCString(fn) : "");
        clang_disposeString(fn);
        cx->main_file = hf;
        cx->src = text ? text : "";
        cx->srclen = text ? len : 0;
        other_lines = pc_clang_line_table(cx->src, cx->srclen, &cx->nlines);
        cx->line_start = other_lines;
        cx->in_main = false;
    }
    pc_clang_kernel_block(cx, body);
    if (other) {
        cx->main_file = saved_src.main_file;
        cx->src = saved_src.src;
        cx->srclen = saved_src.srclen;
        cx->line_start = saved_src.line_start;
        cx->nlines = saved_src.nlines;
        cx->src_name = saved_src.src_name;
        cx->in_main = saved_src.in_main;
        pc_mem_free(other_lines);
    }
    cx->depth--;
    cx->target = saved_target;
    cx->in_host_loop = saved_host;
    cx->env.count = mark;
    cx->frame = saved_frame;
    cx->cur_stmt = -1;
    PC_VEC_FREE(binds);
    return true;
}
