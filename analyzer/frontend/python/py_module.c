/*
 * py_module.c - code outside the analysed file (model.md 2, "Code outside the file") and the
 * user's bindings as the frontend sees them.
 *
 * A kernel's helpers may live in other modules of the project (`from .common import dequant`,
 * `import glm_common as gc`).  Such a module is found by its name - relative imports against the
 * importing file's package, absolute ones against the analysed file's directory, its package root
 * and every --python-path directory - read, parsed by CPython's parser and its top-level names
 * bound exactly as the analysed file's are.  It is never imported or executed: nothing of it runs,
 * whatever its top level does.  Modules are read once per parse (cached by name, misses too).
 */
#define _POSIX_C_SOURCE 200809L
#include "py_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    MAX_MODULES = 64,                 /* modules read per analysed file */
    MAX_MODULE_BYTES = 8 * 1024 * 1024
};

bool pc_py_user_binding(const pc_py_ctx *c, const char *name, int64_t *out, bool want_max)
{
    const pc_parse_opts *o = c->popts;
    if (!o || !name)
        return false;
    bool found = false, missing = false;
    int64_t v = 0;
    for (size_t s = 0; s < o->nbindings; s++) {
        const pc_bindings *set = &o->bindings[s];
        bool here = false;
        for (size_t i = 0; i < set->count && !here; i++) {
            if (!set->items[i].name || strcmp(set->items[i].name, name) != 0)
                continue;
            here = true;
            int64_t x = set->items[i].value;
            if (!found)
                v = x;
            else if (x != v) {
                if (!want_max)
                    return false; /* the sets disagree: not one trace */
                if (x > v)
                    v = x;
            }
            found = true;
        }
        missing |= !here;
    }
    if (!found || (missing && !want_max))
        return false;
    *out = v;
    return true;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dir_of(pc_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return pc_arena_strdup(a, ".");
    if (slash == path)
        return pc_arena_strdup(a, "/");
    return pc_arena_strndup(a, path, (size_t)(slash - path));
}

/* <dir>/<a/b>.py or <dir>/<a/b>/__init__.py */
static const char *find_in(pc_py_ctx *c, const char *dir, const char *rel, bool *package)
{
    const char *p = pc_arena_printf(c->scratch, "%s/%s.py", dir, rel);
    if (is_file(p)) {
        *package = false;
        return p;
    }
    p = pc_arena_printf(c->scratch, "%s/%s/__init__.py", dir, rel);
    if (is_file(p)) {
        *package = true;
        return p;
    }
    return NULL;
}

/* The directory above the outermost package that holds dir (dir itself when it is no package). */
static const char *package_root(pc_py_ctx *c, const char *dir)
{
    const char *root = dir;
    for (int depth = 0; depth < 32; depth++) {
        if (!is_file(pc_arena_printf(c->scratch, "%s/__init__.py", root)))
            break;
        const char *up = pc_arena_printf(c->scratch, "%s/..", root);
        root = up;
    }
    return root;
}

static pc_py_module *cached(pc_py_ctx *c, const char *key)
{
    for (int i = 0; i < c->nmodules; i++)
        if (strcmp(c->modules[i]->name, key) == 0)
            return c->modules[i];
    return NULL;
}

static pc_py_module *remember(pc_py_ctx *c, const char *key)
{
    pc_py_module *mod = pc_arena_alloc(c->scratch, sizeof *mod);
    mod->name = pc_arena_strdup(c->scratch, key);
    c->modules = pc_py_room_for_one(c, c->modules, c->nmodules, &c->capmodules, 8, sizeof *c->modules);
    c->modules[c->nmodules++] = mod;
    return mod;
}

/* Read, parse and bind the module at path (never executed). */
static void load(pc_py_ctx *c, pc_py_module *mod, const char *path, bool package, const pc_py_node *at)
{
    mod->path = pc_model_strdup(c->m, path);
    mod->dir = dir_of(c->scratch, path);
    mod->is_package = package;
    size_t len = 0;
    char *err = NULL;
    char *text = pc_read_file(path, &len, &err);
    if (!text || len > MAX_MODULE_BYTES) {
        pc_py_message(c, PC_MSG_WARNING, at, "module '%s' (%s) cannot be read: %s; its helpers are not followed",
                      mod->name, path, text ? "larger than 8 MiB" : err ? err : "unreadable");
        mod->failed = true;
        pc_mem_free(text);
        pc_mem_free(err);
        return;
    }
    pc_py_source *src = pc_arena_alloc(c->scratch, sizeof *src);
    src->arena = c->scratch;
    src->text = pc_arena_strndup(c->scratch, text, len);
    src->len = len;
    pc_mem_free(text);
    /* its syntax errors are its own: the analysed file's model only hears that it was skipped */
    pc_model *scratch_model = pc_model_new(mod->path, PC_LANG_PYTHON);
    bool ok = pc_py_parse_source(scratch_model, mod->path, src);
    if (!ok) {
        const char *why = scratch_model->nmessages ? scratch_model->messages[0].text : "cannot parse it";
        uint32_t line = scratch_model->nmessages ? scratch_model->messages[0].loc.line : 0;
        pc_py_message(c, PC_MSG_WARNING, at, "module '%s' (%s:%u) is not valid Python (%s); its helpers are not followed",
                      mod->name, path, line, why);
        pc_model_free(scratch_model);
        mod->failed = true;
        return;
    }
    pc_model_free(scratch_model);
    mod->src = src;

    /* Bind its top level in host mode, as the analysed file's (pass 1): the caller's statement is
     * suspended meanwhile. */
    int kernel = c->kernel;
    pc_py_place back = pc_py_place_now(c);
    pc_py_suspended_stmt stmt = pc_py_suspend_stmt(c);
    bool star = c->star_pypto;
    c->kernel = -1;
    pc_py_frame *mf = pc_py_frame_new(c, NULL);
    mf->module = mod;
    pc_py_place there = {mf, mod->path, src};
    pc_py_place_set(c, &there);
    c->star_pypto = false;
    pc_py_bind_module(c, &src->module->list1);
    c->star_pypto = star;
    c->kernel = kernel;
    pc_py_place_set(c, &back);
    pc_py_resume_stmt(c, &stmt);
    mod->frame = mf;
}

/* The module `dotted` (level leading dots) imported from the code now being walked, or NULL. */
static pc_py_module *module_named(pc_py_ctx *c, int level, const char *dotted, const pc_py_node *at)
{
    if (!*dotted && level == 0)
        return NULL;
    if (level > 16)
        return NULL;
    if (level == 0 && (strcmp(dotted, "pypto") == 0 || strncmp(dotted, "pypto.", 6) == 0))
        return NULL;
    pc_py_module *cur = pc_py_frame_module(c->frame);
    const char *from = cur ? cur->dir : c->kernel_dir;
    char *rel = pc_arena_strdup(c->scratch, dotted);
    for (char *p = rel; *p; p++)
        if (*p == '.')
            *p = '/';
    /* the cache key: absolute names are one module wherever imported; relative ones per base */
    const char *base = NULL;
    if (level > 0) {
        base = from;
        for (int i = 1; i < level; i++)
            base = pc_arena_printf(c->scratch, "%s/..", base);
    }
    const char *key = level > 0 ? pc_arena_printf(c->scratch, "%s/%s", base, rel) : dotted;
    pc_py_module *mod = cached(c, key);
    if (mod)
        return mod->failed || !mod->frame ? NULL : mod;
    if (c->nmodules >= MAX_MODULES)
        return NULL;
    mod = remember(c, key);
    bool package = false;
    const char *path = NULL;
    if (level > 0) {
        if (*rel) {
            path = find_in(c, base, rel, &package);
        } else {
            path = pc_arena_printf(c->scratch, "%s/__init__.py", base);
            package = true;
            if (!is_file(path))
                path = NULL;
        }
    } else {
        path = find_in(c, c->kernel_dir, rel, &package);
        if (!path) {
            const char *root = package_root(c, c->kernel_dir);
            if (strcmp(root, c->kernel_dir) != 0)
                path = find_in(c, root, rel, &package);
        }
        for (size_t i = 0; !path && c->popts && i < c->popts->npython_path; i++)
            if (c->popts->python_path[i])
                path = find_in(c, c->popts->python_path[i], rel, &package);
    }
    if (!path) {
        mod->failed = true; /* not a project module (numpy, torch, ...): its calls stay opaque */
        return NULL;
    }
    load(c, mod, path, package, at);
    return mod->failed ? NULL : mod;
}

static pc_py_val *foreign(pc_py_ctx *c, const char *q, const pc_py_node *at, int depth)
{
    if (!q || depth > 8)
        return NULL;
    int level = 0;
    while (q[level] == '.')
        level++;
    const char *rest = q + level;
    if (!*rest || (level == 0 && (!strchr(rest, '.') || strncmp(rest, "pypto", 5) == 0)))
        return NULL;
    /* the longest prefix that is a module; the remainder is a name bound in it */
    size_t n = strlen(rest);
    for (size_t cut = n; cut > 0; cut--) {
        if (rest[cut] != '.')
            continue;
        const char *modname = pc_arena_strndup(c->scratch, rest, cut);
        const char *attr = rest + cut + 1;
        pc_py_module *mod = module_named(c, level, modname, at);
        if (!mod)
            continue;
        const char *dot = strchr(attr, '.');
        const char *first = dot ? pc_arena_strndup(c->scratch, attr, (size_t)(dot - attr)) : attr;
        pc_py_val *v = pc_py_lookup(mod->frame, first);
        if (!v)
            return NULL;
        if (!dot)
            return v;
        if (v->kind == PV_MODULE && v->s) {
            /* a module the module imported: resolve the rest there */
            pc_py_frame *saved = c->frame;
            c->frame = mod->frame;
            pc_py_val *r = foreign(c, pc_arena_printf(c->scratch, "%s%s", v->s, dot), at, depth + 1);
            c->frame = saved;
            return r;
        }
        return NULL;
    }
    /* `from . import name`: a name of the package itself (its __init__.py) */
    if (level > 0) {
        pc_py_module *mod = module_named(c, level, "", at);
        const char *dot = strchr(rest, '.');
        const char *first = dot ? pc_arena_strndup(c->scratch, rest, (size_t)(dot - rest)) : rest;
        pc_py_val *v = mod ? pc_py_lookup(mod->frame, first) : NULL;
        return v && !dot ? v : NULL;
    }
    return NULL;
}

pc_py_val *pc_py_foreign(pc_py_ctx *c, const char *q, const pc_py_node *at) { return foreign(c, q, at, 0); }
