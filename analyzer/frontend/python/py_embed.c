/*
 * py_embed.c - CPython embedded as the Python frontend's parser.
 *
 * The interpreter exists once per process (CPython's own rule) and is created on first use under a
 * pthread_once flag, isolated from the user's environment: no PYTHON* variables, no site import, no
 * signal handlers, all warnings ignored (so nothing the parser says reaches the terminal).  After
 * initialisation the creating thread releases the interpreter lock; every parse takes it with
 * PyGILState_Ensure, so the LSP server may parse from any thread.
 *
 * A parse compiles the source to its syntax tree only (compile(..., PyCF_ONLY_AST), what
 * `ast.parse(source, filename)` does, without importing the ast module) - the same parser CPython
 * compiles with, which never runs the file - and copies the tree into pc_py_node structs in a
 * scratch arena.  Every Python object is released before the lock is dropped, and a Python
 * exception is always fetched and turned into a located message, never printed.
 */
/* Python.h must come first: it sets the feature-test macros (_POSIX_C_SOURCE among them). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "py_int.h"

#include <pthread.h>
#include <string.h>

/* ---- the process-wide interpreter ----------------------------------------------------------- */

static pthread_once_t py_once = PTHREAD_ONCE_INIT;
static const char *py_init_error;      /* set once by py_init (a static string) */

static void py_init(void)
{
    bool we_initialised = false;
    if (!Py_IsInitialized()) {
        PyConfig config;
        PyConfig_InitIsolatedConfig(&config);
        config.site_import = 0;              /* no site-packages, no .pth files */
        config.install_signal_handlers = 0;  /* SIGINT stays the host's */
        config.write_bytecode = 0;
        config.pathconfig_warnings = 0;      /* never print "Could not find platform ..." */
        config.parse_argv = 0;
        config.use_environment = 0;
        config.user_site_directory = 0;
        PyStatus st = PyWideStringList_Append(&config.warnoptions, L"ignore");
        if (!PyStatus_Exception(st))
            st = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(st)) {
            py_init_error = st.err_msg ? st.err_msg : "Py_InitializeFromConfig failed";
            return;
        }
        we_initialised = true;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    /* The parser is reached through compile(..., PyCF_ONLY_AST) below: no `import ast` (its
     * Python module and what it imports cost a few milliseconds of every process).  The builtin
     * `_ast` module is imported here, once, because importing it creates the interpreter's AST
     * node types (state that lives as long as the interpreter); otherwise the first
     * PyCF_ONLY_AST compile creates them, and LeakSanitizer would see that one-time set-up as
     * a leak of whichever parse came first (scripts/lsan.supp). */
    PyObject *ast_types = PyImport_ImportModule("_ast");
    Py_XDECREF(ast_types);
    PyErr_Clear();
    PyGILState_Release(g);
    if (we_initialised)
        (void)PyEval_SaveThread(); /* let other threads take the lock */
}

/* ---- positions ------------------------------------------------------------------------------ */

static void build_lines(pc_py_source *src)
{
    size_t n = 1;
    for (size_t i = 0; i < src->len; i++)
        if (src->text[i] == '\n' || (src->text[i] == '\r' && (i + 1 >= src->len || src->text[i + 1] != '\n')))
            n++;
    src->line_start = pc_arena_alloc(src->arena, (n + 2) * sizeof *src->line_start);
    uint32_t line = 1;
    src->line_start[1] = 0;
    for (size_t i = 0; i < src->len; i++)
        if (src->text[i] == '\n' || (src->text[i] == '\r' && (i + 1 >= src->len || src->text[i + 1] != '\n')))
            src->line_start[++line] = i + 1;
    src->nlines = line;
    src->line_start[line + 1] = src->len;
}

static size_t byte_offset(const pc_py_source *src, uint32_t line, uint32_t col)
{
    if (line < 1)
        return 0;
    if (line > src->nlines)
        return src->len;
    size_t off = src->line_start[line] + (col ? col - 1 : 0);
    return off > src->len ? src->len : off;
}

/* A file offset in a non-UTF-8 source -> the offset of the same place in its UTF-8 text. */
static size_t file_to_u8(const pc_py_source *src, size_t off)
{
    size_t lo = 0, hi = src->u8_len;
    while (lo < hi) { /* the first UTF-8 byte whose file offset is >= off */
        size_t mid = lo + (hi - lo) / 2;
        if (src->u8_to_file[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The text is UTF-8 whatever the file's encoding: a non-UTF-8 source is cut from its decoded text. */
const char *pc_py_source_text(pc_py_source *src, uint32_t line, uint32_t col, uint32_t end_line,
                              uint32_t end_col)
{
    size_t a = byte_offset(src, line, col), b = byte_offset(src, end_line, end_col);
    if (b < a)
        b = a;
    if (src->u8) {
        size_t ua = file_to_u8(src, a), ub = file_to_u8(src, b);
        return pc_arena_strndup(src->arena, src->u8 + ua, ub - ua);
    }
    return pc_arena_strndup(src->arena, src->text + a, b - a);
}

/* 1-based file byte column of CPython's 0-based UTF-8 byte offset `u8col` on `line` (CPython
 * counts in the UTF-8 text it decoded; poolcheck columns are bytes of the file as written). */
static uint32_t file_col(const pc_py_source *src, long line, long u8col, bool bom)
{
    if (!src->u8 || line < 1 || (uint32_t)line > src->nlines)
        return (uint32_t)u8col + 1 + (line == 1 && bom ? 3 : 0);
    size_t at = src->u8_line_start[line] + (size_t)u8col;
    if (at > src->u8_len)
        at = src->u8_len;
    size_t off = src->u8_to_file[at];
    return (uint32_t)(off >= src->line_start[line] ? off - src->line_start[line] + 1 : 1);
}

/* 1-based byte column of the 1-based character offset `chars` on `line` (SyntaxError.offset
 * counts characters; poolcheck columns count bytes). */
static uint32_t char_to_byte_col(const pc_py_source *src, uint32_t line, long chars, bool bom)
{
    if (line < 1 || line > src->nlines || chars < 1)
        return 1;
    if (src->u8) { /* count the characters in the decoded text, then map to the file */
        size_t q = src->u8_line_start[line], qend = src->u8_line_start[line + 1];
        for (long k = 1; k < chars && q < qend; k++) {
            q++;
            while (q < qend && ((unsigned char)src->u8[q] & 0xC0) == 0x80)
                q++;
        }
        return file_col(src, line, (long)(q - src->u8_line_start[line]), false);
    }
    size_t p = src->line_start[line], end = src->line_start[line + 1];
    size_t start = p;
    if (line == 1 && bom)
        p += 3;
    for (long k = 1; k < chars && p < end; k++) {
        p++;
        while (p < end && ((unsigned char)src->text[p] & 0xC0) == 0x80)
            p++;
    }
    return (uint32_t)(p - start + 1);
}

/* ---- converting Python's AST ------------------------------------------------------------------ */

typedef struct conv {
    pc_py_source *src;
    bool bom;           /* a UTF-8 BOM was stripped: line-1 columns move by 3 bytes */
    const char *error;  /* first conversion problem (static text) */
    uint32_t error_line, error_col; /* where it is (the node at which it was noticed) */
} conv;

enum { MAX_DEPTH = 900 };

static const char *type_name(PyObject *o)
{
    const char *n = Py_TYPE(o)->tp_name;
    const char *dot = strrchr(n, '.');
    return dot ? dot + 1 : n;
}

static PyObject *attr(PyObject *o, const char *name)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        PyErr_Clear();
    return v;
}

static long attr_long(PyObject *o, const char *name, long dflt)
{
    PyObject *v = attr(o, name);
    long r = dflt;
    if (v && PyLong_Check(v)) {
        r = PyLong_AsLong(v);
        if (r == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            r = dflt;
        }
    }
    Py_XDECREF(v);
    return r;
}

static const char *attr_str(conv *cv, PyObject *o, const char *name)
{
    PyObject *v = attr(o, name);
    const char *r = NULL;
    if (v && PyUnicode_Check(v)) {
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(v, &n);
        if (s)
            r = pc_arena_strndup(cv->src->arena, s, (size_t)n);
        else
            PyErr_Clear();
    }
    Py_XDECREF(v);
    return r;
}

static pc_py_node *mk(conv *cv, pc_py_kind kind, PyObject *o)
{
    pc_py_node *n = pc_arena_alloc(cv->src->arena, sizeof *n);
    n->kind = kind;
    if (o) {
        long line = attr_long(o, "lineno", 0), col = attr_long(o, "col_offset", -1);
        long eline = attr_long(o, "end_lineno", 0), ecol = attr_long(o, "end_col_offset", -1);
        if (line > 0 && col >= 0) {
            n->line = (uint32_t)line;
            n->col = file_col(cv->src, line, col, cv->bom);
        }
        if (eline > 0 && ecol >= 0) {
            n->end_line = (uint32_t)eline;
            n->end_col = file_col(cv->src, eline, ecol, cv->bom);
        }
    }
    return n;
}

static pc_py_op op_of(PyObject *o)
{
    static const struct { const char *name; pc_py_op op; } ops[] = {
        {"Add", PY_OP_ADD}, {"Sub", PY_OP_SUB}, {"Mult", PY_OP_MUL}, {"Div", PY_OP_DIV},
        {"FloorDiv", PY_OP_FLOORDIV}, {"Mod", PY_OP_MOD}, {"Pow", PY_OP_POW},
        {"MatMult", PY_OP_MATMUL}, {"LShift", PY_OP_LSHIFT}, {"RShift", PY_OP_RSHIFT},
        {"BitOr", PY_OP_BITOR}, {"BitXor", PY_OP_BITXOR}, {"BitAnd", PY_OP_BITAND},
        {"USub", PY_OP_USUB}, {"UAdd", PY_OP_UADD}, {"Not", PY_OP_NOT}, {"Invert", PY_OP_INVERT},
        {"And", PY_OP_AND}, {"Or", PY_OP_OR}, {"Eq", PY_OP_EQ}, {"NotEq", PY_OP_NE},
        {"Lt", PY_OP_LT}, {"LtE", PY_OP_LE}, {"Gt", PY_OP_GT}, {"GtE", PY_OP_GE},
        {"Is", PY_OP_IS}, {"IsNot", PY_OP_ISNOT}, {"In", PY_OP_IN}, {"NotIn", PY_OP_NOTIN},
    };
    if (!o)
        return PY_OP_NONE;
    const char *n = type_name(o);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strcmp(ops[i].name, n) == 0)
            return ops[i].op;
    return PY_OP_NONE;
}

/* The operator of a BinOp / UnaryOp / BoolOp / AugAssign node (its `op` field). */
static pc_py_op op_field(PyObject *o)
{
    PyObject *op = attr(o, "op");
    pc_py_op r = op_of(op);
    Py_XDECREF(op);
    return r;
}

static pc_py_node *conv_node(conv *cv, PyObject *o, int depth);

static pc_py_node *conv_field(conv *cv, PyObject *o, const char *field, int depth)
{
    PyObject *v = attr(o, field);
    pc_py_node *n = (v && v != Py_None) ? conv_node(cv, v, depth + 1) : NULL;
    Py_XDECREF(v);
    return n;
}

/* Append the elements of Python list o.field to l (NULL entries kept as NULL). */
static void conv_list_into(conv *cv, PyObject *o, const char *field, pc_py_list *l, int depth)
{
    PyObject *v = attr(o, field);
    if (v && PyList_Check(v)) {
        Py_ssize_t n = PyList_GET_SIZE(v);
        if (n > 0) {
            l->items = pc_arena_grow(cv->src->arena, l->items, (size_t)l->count,
                                     (size_t)l->count + (size_t)n, sizeof *l->items);
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *e = PyList_GET_ITEM(v, i); /* borrowed */
                l->items[l->count++] = e == Py_None ? NULL : conv_node(cv, e, depth + 1);
            }
        }
    }
    Py_XDECREF(v);
}

static void list_push(conv *cv, pc_py_list *l, pc_py_node *n)
{
    l->items = pc_arena_grow(cv->src->arena, l->items, (size_t)l->count, (size_t)l->count + 1, sizeof *l->items);
    l->items[l->count++] = n;
}

static void conv_arguments(conv *cv, PyObject *args, pc_py_list *out, int depth)
{
    pc_py_list pos = {0}, defaults = {0}, kwonly = {0}, kwdefaults = {0};
    conv_list_into(cv, args, "posonlyargs", &pos, depth);
    conv_list_into(cv, args, "args", &pos, depth);
    conv_list_into(cv, args, "defaults", &defaults, depth);
    conv_list_into(cv, args, "kwonlyargs", &kwonly, depth);
    conv_list_into(cv, args, "kw_defaults", &kwdefaults, depth);
    /* defaults belong to the last positional parameters */
    for (int i = 0; i < pos.count; i++) {
        int d = i - (pos.count - defaults.count);
        if (pos.items[i] && d >= 0)
            pos.items[i]->b = defaults.items[d];
        list_push(cv, out, pos.items[i]);
    }
    pc_py_node *va = conv_field(cv, args, "vararg", depth);
    if (va) {
        va->ivalue = 1;
        list_push(cv, out, va);
    }
    for (int i = 0; i < kwonly.count; i++) {
        if (kwonly.items[i]) {
            kwonly.items[i]->ivalue = 2;
            kwonly.items[i]->b = i < kwdefaults.count ? kwdefaults.items[i] : NULL;
        }
        list_push(cv, out, kwonly.items[i]);
    }
    pc_py_node *kw = conv_field(cv, args, "kwarg", depth);
    if (kw) {
        kw->ivalue = 3;
        list_push(cv, out, kw);
    }
}

static void conv_constant(conv *cv, pc_py_node *n, PyObject *o)
{
    PyObject *v = attr(o, "value");
    if (!v || v == Py_None) {
        n->kind = PY_NONE;
    } else if (PyBool_Check(v)) {
        n->kind = PY_BOOL;
        n->ivalue = v == Py_True;
    } else if (PyLong_Check(v)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred())
            PyErr_Clear();
        n->kind = PY_INT;
        n->ivalue = (int64_t)x;
        n->big = overflow != 0;
    } else if (PyFloat_Check(v)) {
        n->kind = PY_FLOAT;
        n->fvalue = PyFloat_AS_DOUBLE(v);
    } else if (PyUnicode_Check(v)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(v, &len);
        n->kind = PY_STR;
        if (s) {
            n->str = pc_arena_strndup(cv->src->arena, s, (size_t)len);
        } else { /* lone surrogates from escapes: keep the spelling instead */
            PyErr_Clear();
            n->str = "";
        }
    } else if (v == Py_Ellipsis) {
        n->kind = PY_ELLIPSIS;
    } else {
        n->kind = PY_OTHER_CONST;
        n->name = type_name(v);
        n->name = pc_arena_strdup(cv->src->arena, n->name);
    }
    Py_XDECREF(v);
}

/* Every AST child of an expression kind poolcheck does not model (comprehensions, lambdas,
 * f-strings...), in _fields order: the walker looks inside to tell harmless ones from ones that
 * hide tensor work. */
static void conv_children(conv *cv, PyObject *o, pc_py_list *out, int depth)
{
    PyObject *fields = attr(o, "_fields");
    if (!fields || !PyTuple_Check(fields)) {
        Py_XDECREF(fields);
        return;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); i++) {
        PyObject *name = PyTuple_GET_ITEM(fields, i);
        const char *fname = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (!fname) {
            PyErr_Clear();
            continue;
        }
        PyObject *v = attr(o, fname);
        if (v && PyList_Check(v)) {
            for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v); j++) {
                PyObject *e = PyList_GET_ITEM(v, j);
                if (PyObject_HasAttrString(e, "_fields")) {
                    pc_py_node *c = conv_node(cv, e, depth + 1);
                    if (c)
                        list_push(cv, out, c);
                }
            }
        } else if (v && v != Py_None && PyObject_HasAttrString(v, "_fields")) {
            pc_py_node *c = conv_node(cv, v, depth + 1);
            if (c)
                list_push(cv, out, c);
        }
        Py_XDECREF(v);
    }
    Py_DECREF(fields);
}

/* Longer than 150 lines on purpose: one case per CPython `ast` node type, each a few lines that
 * copy that type's fields; split up, the dispatch would only move into a table of the same cases. */
static pc_py_node *conv_node(conv *cv, PyObject *o, int depth)
{
    if (depth > MAX_DEPTH) {
        if (!cv->error) {
            cv->error = "the source is nested too deeply to analyse";
            /* say where: the node at the cut-off (the innermost position Python gives it) */
            pc_py_node *at = mk(cv, PY_PASS, o);
            cv->error_line = at->line;
            cv->error_col = at->col;
        }
        return NULL;
    }
    const char *t = type_name(o);
    pc_py_node *n;
#define IS(s) (strcmp(t, s) == 0)
    if (IS("Module")) {
        n = mk(cv, PY_MODULE, NULL);
        conv_list_into(cv, o, "body", &n->list1, depth);
    } else if (IS("FunctionDef") || IS("AsyncFunctionDef")) {
        n = mk(cv, PY_FUNCDEF, o);
        n->name = attr_str(cv, o, "name");
        PyObject *args = attr(o, "args");
        if (args)
            conv_arguments(cv, args, &n->list1, depth);
        Py_XDECREF(args);
        conv_list_into(cv, o, "body", &n->list2, depth);
        conv_list_into(cv, o, "decorator_list", &n->list3, depth);
    } else if (IS("ClassDef")) {
        n = mk(cv, PY_CLASSDEF, o);
        n->name = attr_str(cv, o, "name");
        conv_list_into(cv, o, "body", &n->list2, depth);
        conv_list_into(cv, o, "decorator_list", &n->list3, depth);
    } else if (IS("Return")) {
        n = mk(cv, PY_RETURN, o);
        n->a = conv_field(cv, o, "value", depth);
    } else if (IS("Assign")) {
        n = mk(cv, PY_ASSIGN, o);
        conv_list_into(cv, o, "targets", &n->list1, depth);
        n->a = conv_field(cv, o, "value", depth);
    } else if (IS("AugAssign")) {
        n = mk(cv, PY_AUGASSIGN, o);
        n->a = conv_field(cv, o, "target", depth);
        n->b = conv_field(cv, o, "value", depth);
        n->op = op_field(o);
    } else if (IS("AnnAssign")) {
        n = mk(cv, PY_ANNASSIGN, o);
        n->a = conv_field(cv, o, "target", depth);
        n->b = conv_field(cv, o, "annotation", depth);
        n->c = conv_field(cv, o, "value", depth);
    } else if (IS("For") || IS("AsyncFor")) {
        n = mk(cv, PY_FOR, o);
        n->a = conv_field(cv, o, "target", depth);
        n->b = conv_field(cv, o, "iter", depth);
        conv_list_into(cv, o, "body", &n->list1, depth);
        conv_list_into(cv, o, "orelse", &n->list2, depth);
    } else if (IS("While")) {
        n = mk(cv, PY_WHILE, o);
        n->a = conv_field(cv, o, "test", depth);
        conv_list_into(cv, o, "body", &n->list1, depth);
        conv_list_into(cv, o, "orelse", &n->list2, depth);
    } else if (IS("If")) {
        n = mk(cv, PY_IF, o);
        n->a = conv_field(cv, o, "test", depth);
        conv_list_into(cv, o, "body", &n->list1, depth);
        conv_list_into(cv, o, "orelse", &n->list2, depth);
    } else if (IS("With") || IS("AsyncWith")) {
        n = mk(cv, PY_WITH, o);
        conv_list_into(cv, o, "items", &n->list1, depth);
        conv_list_into(cv, o, "body", &n->list2, depth);
    } else if (IS("withitem")) {
        n = mk(cv, PY_WITHITEM, NULL);
        n->a = conv_field(cv, o, "context_expr", depth);
        n->b = conv_field(cv, o, "optional_vars", depth);
        if (n->a) {
            n->line = n->a->line;
            n->col = n->a->col;
            n->end_line = n->a->end_line;
            n->end_col = n->a->end_col;
        }
    } else if (IS("Try") || IS("TryStar")) {
        n = mk(cv, PY_TRY, o);
        conv_list_into(cv, o, "body", &n->list1, depth);
        PyObject *handlers = attr(o, "handlers");
        if (handlers && PyList_Check(handlers))
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(handlers); i++)
                conv_list_into(cv, PyList_GET_ITEM(handlers, i), "body", &n->list2, depth + 1);
        Py_XDECREF(handlers);
        conv_list_into(cv, o, "orelse", &n->list2, depth);
        conv_list_into(cv, o, "finalbody", &n->list2, depth);
    } else if (IS("Expr")) {
        n = mk(cv, PY_EXPR_STMT, o);
        n->a = conv_field(cv, o, "value", depth);
    } else if (IS("Import")) {
        n = mk(cv, PY_IMPORT, o);
        conv_list_into(cv, o, "names", &n->list1, depth);
    } else if (IS("ImportFrom")) {
        n = mk(cv, PY_IMPORTFROM, o);
        n->name = attr_str(cv, o, "module");
        if (!n->name)
            n->name = "";
        n->ivalue = attr_long(o, "level", 0);
        conv_list_into(cv, o, "names", &n->list1, depth);
    } else if (IS("alias")) {
        n = mk(cv, PY_ALIAS, o);
        n->name = attr_str(cv, o, "name");
        n->str = attr_str(cv, o, "asname");
    } else if (IS("Pass")) {
        n = mk(cv, PY_PASS, o);
    } else if (IS("Break")) {
        n = mk(cv, PY_BREAK, o);
    } else if (IS("Continue")) {
        n = mk(cv, PY_CONTINUE, o);
    } else if (IS("Name")) {
        n = mk(cv, PY_NAME, o);
        n->name = attr_str(cv, o, "id");
    } else if (IS("Constant")) {
        n = mk(cv, PY_NONE, o);
        conv_constant(cv, n, o);
    } else if (IS("Attribute")) {
        n = mk(cv, PY_ATTRIBUTE, o);
        n->a = conv_field(cv, o, "value", depth);
        n->name = attr_str(cv, o, "attr");
    } else if (IS("Call")) {
        n = mk(cv, PY_CALL, o);
        n->a = conv_field(cv, o, "func", depth);
        conv_list_into(cv, o, "args", &n->list1, depth);
        conv_list_into(cv, o, "keywords", &n->list2, depth);
    } else if (IS("keyword")) {
        n = mk(cv, PY_KEYWORD, o);
        n->name = attr_str(cv, o, "arg");
        n->a = conv_field(cv, o, "value", depth);
    } else if (IS("Subscript")) {
        n = mk(cv, PY_SUBSCRIPT, o);
        n->a = conv_field(cv, o, "value", depth);
        n->b = conv_field(cv, o, "slice", depth);
    } else if (IS("Slice")) {
        n = mk(cv, PY_SLICE, o);
        n->a = conv_field(cv, o, "lower", depth);
        n->b = conv_field(cv, o, "upper", depth);
        n->c = conv_field(cv, o, "step", depth);
    } else if (IS("Index")) { /* Python < 3.9 wraps subscripts */
        return conv_field(cv, o, "value", depth);
    } else if (IS("Tuple") || IS("List") || IS("Set")) {
        n = mk(cv, IS("Tuple") ? PY_TUPLE : IS("List") ? PY_LIST : PY_SET, o);
        conv_list_into(cv, o, "elts", &n->list1, depth);
    } else if (IS("Dict")) {
        n = mk(cv, PY_DICT, o);
        conv_list_into(cv, o, "keys", &n->list1, depth);
        conv_list_into(cv, o, "values", &n->list2, depth);
    } else if (IS("BinOp")) {
        n = mk(cv, PY_BINOP, o);
        n->a = conv_field(cv, o, "left", depth);
        n->b = conv_field(cv, o, "right", depth);
        n->op = op_field(o);
    } else if (IS("UnaryOp")) {
        n = mk(cv, PY_UNARYOP, o);
        n->a = conv_field(cv, o, "operand", depth);
        n->op = op_field(o);
    } else if (IS("BoolOp")) {
        n = mk(cv, PY_BOOLOP, o);
        conv_list_into(cv, o, "values", &n->list1, depth);
        n->op = op_field(o);
    } else if (IS("Compare")) {
        n = mk(cv, PY_COMPARE, o);
        n->a = conv_field(cv, o, "left", depth);
        conv_list_into(cv, o, "comparators", &n->list1, depth);
        PyObject *ops = attr(o, "ops");
        if (ops && PyList_Check(ops)) {
            Py_ssize_t k = PyList_GET_SIZE(ops);
            n->ops = pc_arena_alloc(cv->src->arena, (size_t)(k + 1) * sizeof *n->ops);
            for (Py_ssize_t i = 0; i < k; i++)
                n->ops[i] = op_of(PyList_GET_ITEM(ops, i));
        }
        Py_XDECREF(ops);
        if (!n->ops)
            n->list1.count = 0;
    } else if (IS("IfExp")) {
        n = mk(cv, PY_IFEXP, o);
        n->a = conv_field(cv, o, "test", depth);
        n->b = conv_field(cv, o, "body", depth);
        n->c = conv_field(cv, o, "orelse", depth);
    } else if (IS("Starred")) {
        n = mk(cv, PY_STARRED, o);
        n->a = conv_field(cv, o, "value", depth);
    } else if (IS("arg")) {
        n = mk(cv, PY_ARG, o);
        n->name = attr_str(cv, o, "arg");
        n->a = conv_field(cv, o, "annotation", depth);
    } else {
        /* Statements and expressions poolcheck does not model keep their kind and extent so the
         * walker can say what it skipped. */
        static const char *const stmts[] = {"Raise", "Assert", "Delete", "Global", "Nonlocal",
                                            "Match", "TypeAlias"};
        bool is_stmt = false;
        for (size_t i = 0; i < sizeof stmts / sizeof *stmts; i++)
            is_stmt |= IS(stmts[i]);
        n = mk(cv, is_stmt ? PY_OTHER_STMT : PY_OTHER_EXPR, o);
        n->name = pc_arena_strdup(cv->src->arena, t);
        if (!is_stmt)
            conv_children(cv, o, &n->list1, depth);
    }
#undef IS
    return n;
}

/* ---- errors ---------------------------------------------------------------------------------- */

/* Turn the pending Python exception into one located fatal message (and clear it). */
static void report_exception(pc_model *m, const char *path, pc_py_source *src, bool bom)
{
    PyObject *type = NULL, *value = NULL, *tb = NULL;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    uint32_t line = 0, col = 1, end_line = 0, end_col = 0;
    char *text = NULL;
    if (value && PyErr_GivenExceptionMatches(type, PyExc_SyntaxError)) {
        conv cv = {src, bom, NULL, 0, 0};
        const char *msg = attr_str(&cv, value, "msg");
        long l = attr_long(value, "lineno", 0), off = attr_long(value, "offset", 0);
        long el = attr_long(value, "end_lineno", 0), eoff = attr_long(value, "end_offset", 0);
        if (l > 0) {
            line = (uint32_t)l;
            col = char_to_byte_col(src, line, off, bom);
            if (el >= l && eoff > 0) {
                end_line = (uint32_t)el;
                end_col = char_to_byte_col(src, end_line, eoff, bom);
                if (end_line == line && end_col <= col)
                    end_line = end_col = 0;
            }
        }
        const char *kind = PyErr_GivenExceptionMatches(type, PyExc_IndentationError) ? "indentation error"
                                                                                     : "syntax error";
        pc_sb sb = {0};
        pc_sb_printf(&sb, "Python %s: %s", kind, msg && *msg ? msg : "invalid syntax");
        text = pc_sb_take(&sb);
    } else {
        const char *tname = type ? ((PyTypeObject *)type)->tp_name : "error";
        const char *why = "";
        if (type && (PyErr_GivenExceptionMatches(type, PyExc_RecursionError) ||
                     PyErr_GivenExceptionMatches(type, PyExc_MemoryError)))
            why = " (the source is nested too deeply for Python's parser)";
        PyObject *s = value ? PyObject_Str(value) : NULL;
        const char *detail = s ? PyUnicode_AsUTF8(s) : NULL;
        if (!detail)
            PyErr_Clear();
        pc_sb sb = {0};
        pc_sb_printf(&sb, "Python cannot parse this file: %s%s%s%s", tname, detail && *detail ? ": " : "",
                     detail ? detail : "", why);
        text = pc_sb_take(&sb);
        Py_XDECREF(s);
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    PyErr_Clear();
    pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, line ? line : 1, col, end_line, end_col), text);
    pc_mem_free(text);
}

/* ---- the file's encoding (PEP 263) ------------------------------------------------------------ */

/* The encoding CPython reads the file in, as the standard library says it (tokenize.detect_encoding:
 * the BOM and the coding cookie of the first two lines, the rules CPython's tokenizer applies),
 * e.g. "utf-8", "utf-8-sig", "iso-8859-1".  NULL when it cannot say (the exception is cleared). */
static const char *source_encoding(pc_py_source *src)
{
    const char *r = NULL;
    PyObject *tokenize = PyImport_ImportModule("tokenize");
    PyObject *io = tokenize ? PyImport_ImportModule("io") : NULL;
    PyObject *data = io ? PyBytes_FromStringAndSize(src->text, (Py_ssize_t)src->len) : NULL;
    PyObject *buf = data ? PyObject_CallMethod(io, "BytesIO", "O", data) : NULL;
    PyObject *readline = buf ? PyObject_GetAttrString(buf, "readline") : NULL;
    PyObject *res = readline ? PyObject_CallMethod(tokenize, "detect_encoding", "O", readline) : NULL;
    if (res && PyTuple_Check(res) && PyTuple_GET_SIZE(res) >= 1 && PyUnicode_Check(PyTuple_GET_ITEM(res, 0))) {
        const char *e = PyUnicode_AsUTF8(PyTuple_GET_ITEM(res, 0));
        if (e)
            r = pc_arena_strdup(src->arena, e);
    }
    Py_XDECREF(res);
    Py_XDECREF(readline);
    Py_XDECREF(buf);
    Py_XDECREF(data);
    Py_XDECREF(io);
    Py_XDECREF(tokenize);
    PyErr_Clear();
    return r;
}

static bool is_utf8(const char *enc) { return !strcmp(enc, "utf-8") || !strcmp(enc, "utf-8-sig"); }

/* For a file in another encoding: its text decoded (what CPython parsed, in UTF-8) and the file
 * offset of each UTF-8 byte, so that CPython's UTF-8 columns become the file's byte columns.  Left
 * unset (columns then taken as CPython gives them) when the text does not decode and encode back
 * to the same bytes character by character (a stateful codec). */
static void map_encoding(pc_py_source *src, const char *enc)
{
    PyObject *u = PyUnicode_Decode(src->text, (Py_ssize_t)src->len, enc, "strict");
    Py_ssize_t n8 = 0;
    const char *u8 = u ? PyUnicode_AsUTF8AndSize(u, &n8) : NULL;
    if (!u8) {
        PyErr_Clear();
        Py_XDECREF(u);
        return;
    }
    size_t *map = pc_arena_alloc(src->arena, ((size_t)n8 + 1) * sizeof *map);
    size_t f = 0, q = 0;
    bool ok = true;
    Py_ssize_t nch = PyUnicode_GET_LENGTH(u);
    for (Py_ssize_t k = 0; k < nch && ok; k++) {
        Py_UCS4 ch = PyUnicode_READ_CHAR(u, k);
        size_t w8 = ch < 0x80 ? 1 : ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4, wf = 1;
        if (ch >= 0x80) {
            PyObject *one = PyUnicode_Substring(u, k, k + 1);
            PyObject *b = one ? PyUnicode_AsEncodedString(one, enc, "strict") : NULL;
            if (b)
                wf = (size_t)PyBytes_GET_SIZE(b);
            else
                ok = false;
            Py_XDECREF(b);
            Py_XDECREF(one);
        }
        for (size_t j = 0; j < w8 && q + j < (size_t)n8; j++)
            map[q + j] = f;
        q += w8;
        f += wf;
    }
    PyErr_Clear();
    if (ok && q == (size_t)n8 && f == src->len) {
        map[n8] = f;
        /* its lines: the same line ends as the file's (the codecs CPython accepts are ASCII-based) */
        size_t *ls = pc_arena_alloc(src->arena, ((size_t)src->nlines + 2) * sizeof *ls);
        uint32_t line = 1;
        for (size_t i = 0; i < (size_t)n8 && line <= src->nlines; i++)
            if (u8[i] == '\n' || (u8[i] == '\r' && (i + 1 >= (size_t)n8 || u8[i + 1] != '\n'))) {
                if (++line <= src->nlines)
                    ls[line] = i + 1;
            }
        if (line == src->nlines) {
            ls[line + 1] = (size_t)n8;
            src->u8 = pc_arena_strndup(src->arena, u8, (size_t)n8);
            src->u8_len = (size_t)n8;
            src->u8_line_start = ls;
            src->u8_to_file = map;
        }
    }
    Py_DECREF(u);
}

/* A file read as UTF-8 (no cookie, or a utf-8 one) that is not: said with the first bad byte's
 * place, which CPython's "(unicode error)" does not give in the file's terms.  True when said. */
static bool report_not_utf8(pc_model *m, const char *path, pc_py_source *src, bool bom)
{
    const char *text = src->text + (bom ? 3 : 0);
    size_t len = src->len - (bom ? 3 : 0);
    PyObject *source = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "strict");
    if (source) {
        Py_DECREF(source);
        return false;
    }
    /* Locate the first byte that is not UTF-8 from the decoder's own error. */
    PyObject *type = NULL, *value = NULL, *tb = NULL;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    Py_ssize_t start = 0;
    if (!value || PyUnicodeDecodeError_GetStart(value, &start) < 0) {
        PyErr_Clear();
        start = 0;
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    size_t off = (size_t)start + (bom ? 3 : 0);
    uint32_t line = 1;
    while (line < src->nlines && src->line_start[line + 1] <= off)
        line++;
    uint32_t col = (uint32_t)(off - src->line_start[line] + 1);
    pc_sb sb = {0};
    pc_sb_printf(&sb, "the file is not valid UTF-8 (byte 0x%02X at line %u, column %u); "
                 "poolcheck reads Python sources as UTF-8 unless a coding line (PEP 263) says otherwise",
                 off < src->len ? (unsigned char)src->text[off] : 0, line, col);
    char *msg = pc_sb_take(&sb);
    pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, line, col, line, col + 1), msg);
    pc_mem_free(msg);
    return true;
}

/* ---- entry ----------------------------------------------------------------------------------- */

bool pc_py_parse_source(pc_model *m, const char *path, pc_py_source *src)
{
    build_lines(src);
    pthread_once(&py_once, py_init);
    if (py_init_error) {
        char *msg = NULL;
        pc_sb sb = {0};
        pc_sb_printf(&sb, "cannot start the embedded Python interpreter: %s", py_init_error);
        msg = pc_sb_take(&sb);
        pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0), msg);
        pc_mem_free(msg);
        return false;
    }
    /* CPython refuses NUL bytes without saying where; say it ourselves. */
    const char *nul = memchr(src->text, '\0', src->len);
    if (nul) {
        size_t off = (size_t)(nul - src->text);
        uint32_t line = 1;
        while (line < src->nlines && src->line_start[line + 1] <= off)
            line++;
        uint32_t col = (uint32_t)(off - src->line_start[line] + 1);
        pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, line, col, line, col + 1),
                             "the file contains a NUL byte: it is not Python source");
        return false;
    }
    bool bom = src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0;
    bool ascii = true;
    for (size_t i = bom ? 3 : 0; i < src->len && ascii; i++)
        ascii = (unsigned char)src->text[i] < 0x80;
    /* CPython is given the bytes, NUL-terminated: it reads the BOM and the coding cookie (PEP 263)
     * itself, as ast.parse(bytes, filename) does - an unknown codec, or a BOM with a cookie that is
     * not utf-8, is its SyntaxError. */
    const char *bytes = pc_arena_strndup(src->arena, src->text, src->len);

    bool ok = false;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *fname = PyUnicode_DecodeFSDefault(path);
    /* compile(source, filename, 'exec', PyCF_ONLY_AST) without the ast module: the tree of _ast
     * nodes only. */
    PyObject *tree = NULL;
    if (fname) {
        PyCompilerFlags cf;
        memset(&cf, 0, sizeof cf);
        cf.cf_flags = PyCF_ONLY_AST;
        cf.cf_feature_version = PY_MINOR_VERSION;
        tree = Py_CompileStringObject(bytes, fname, Py_file_input, &cf, -1);
    }
    /* Non-ASCII text: in which encoding CPython read it, for the columns (and the UTF-8 message). */
    const char *enc = NULL;
    if (!ascii) {
        PyObject *type = NULL, *value = NULL, *tb = NULL;
        PyErr_Fetch(&type, &value, &tb);
        enc = source_encoding(src);
        if (enc && !is_utf8(enc))
            map_encoding(src, enc);
        PyErr_Restore(type, value, tb);
    }
    if (!tree) {
        if (enc && is_utf8(enc)) {
            PyObject *type = NULL, *value = NULL, *tb = NULL;
            PyErr_Fetch(&type, &value, &tb);
            if (report_not_utf8(m, path, src, bom)) {
                Py_XDECREF(type);
                Py_XDECREF(value);
                Py_XDECREF(tb);
            } else {
                PyErr_Restore(type, value, tb);
                report_exception(m, path, src, bom);
            }
        } else {
            report_exception(m, path, src, bom);
        }
    } else {
        conv cv = {src, bom, NULL, 0, 0};
        src->module = conv_node(&cv, tree, 0);
        if (PyErr_Occurred())
            PyErr_Clear();
        if (cv.error || !src->module || src->module->kind != PY_MODULE) {
            pc_model_add_message(m, PC_MSG_FATAL,
                                 pc_model_loc(m, path, cv.error_line ? cv.error_line : 1,
                                              cv.error_line && cv.error_col ? cv.error_col : 1, 0, 0),
                                 cv.error ? cv.error : "unexpected result from Python's ast.parse");
            src->module = NULL;
        } else {
            ok = true;
        }
    }
    Py_XDECREF(tree);
    Py_XDECREF(fname);
    PyGILState_Release(g);
    return ok;
}
