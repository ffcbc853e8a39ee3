/* layers.c - options from outside the source, layered the same way for every front door
 * (see driver.h): the user's explicit choices, then the governing .poolcheck.json, with the
 * runtime options in precedence order tile_fwk_config.json -> project "runtime" -> --set. */
#define _XOPEN_SOURCE 700
#include "poolcheck/driver.h"
#include "support/support.h"

#include <stdlib.h>
#include <string.h>

struct pc_config_cache {
    PC_VEC(pc_project_config *) projects;
    PC_VEC(pc_config_file *) config_files;
};

pc_config_cache *pc_config_cache_new(void) { return pc_mem_calloc(1, sizeof(pc_config_cache)); }

void pc_config_cache_free(pc_config_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->projects.count; i++)
        pc_cfg_project_free(c->projects.items[i]);
    PC_VEC_FREE(c->projects);
    for (size_t i = 0; i < c->config_files.count; i++)
        pc_cfg_config_file_free(c->config_files.items[i]);
    PC_VEC_FREE(c->config_files);
    pc_mem_free(c);
}

static const pc_project_config *load_project(pc_config_cache *c, const char *path, char **err)
{
    for (size_t i = 0; i < c->projects.count; i++)
        if (strcmp(c->projects.items[i]->path, path) == 0)
            return c->projects.items[i];
    pc_project_config *p = pc_cfg_load_project(path, err);
    if (p)
        PC_VEC_PUSH(c->projects, p);
    return p;
}

bool pc_config_cache_project(pc_config_cache *c, const char *path, const char *explicit_file, bool lookup,
                             const pc_project_config **found, char **err)
{
    *found = NULL;
    if (explicit_file) {
        *found = load_project(c, explicit_file, err);
        return *found != NULL;
    }
    if (!lookup)
        return true;
    char *p = pc_cfg_find_project(path);
    if (!p)
        return true;
    *found = load_project(c, p, err);
    pc_mem_free(p);
    return *found != NULL;
}

const pc_config_file *pc_config_cache_config_file(pc_config_cache *c, const char *path, char **err)
{
    for (size_t i = 0; i < c->config_files.count; i++)
        if (strcmp(c->config_files.items[i]->path, path) == 0)
            return c->config_files.items[i];
    pc_config_file *f = pc_cfg_load_config_file(path, err);
    if (f)
        PC_VEC_PUSH(c->config_files, f);
    return f;
}

void pc_check_opts_layer(pc_check_opts *o, const pc_opts_layers *l, pc_arena *a)
{
    const pc_project_config *proj = l->project;
    if (proj) {
        if (!l->inner_policy_given && proj->inner_policy)
            o->analysis.inner_policy = strcmp(proj->inner_policy, "all") == 0 ? PC_INNER_ALL : PC_INNER_BOUNDARY;
        if (!l->headroom_given && proj->has_assemble_headroom)
            o->analysis.assemble_headroom = proj->assemble_headroom;
        if (!l->checks_given && proj->checks)
            o->checks = proj->checks;
        if (!l->werror_given && proj->warnings_as_errors)
            o->werror = proj->warnings_as_errors;
        /* the project's module directories are searched after the explicit ones (--python-path) */
        if (proj->npython_path) {
            size_t n0 = o->parse.npython_path, n = n0 + proj->npython_path;
            const char **pp = pc_arena_alloc(a, n * sizeof *pp);
            for (size_t i = 0; i < n0; i++)
                pp[i] = o->parse.python_path[i];
            for (size_t i = 0; i < proj->npython_path; i++)
                pp[n0 + i] = proj->python_path[i];
            o->parse.python_path = pp;
            o->parse.npython_path = n;
        }
    }

    /* Binding sets: the explicit ones (--shapes, each searched before --bind), else the project's
     * (searched after --bind: the command line overrides .poolcheck.json, docs/model.md 8.1).
     * Bindings are looked up first hit first, so the order is the precedence. */
    const pc_bindings *base = l->nbinding_sets ? l->binding_sets : proj ? proj->binding_sets : NULL;
    size_t nbase = l->nbinding_sets ? l->nbinding_sets : proj ? proj->nbinding_sets : 0;
    size_t nsets = nbase ? nbase : 1;
    bool binds_first = !l->nbinding_sets;
    pc_bindings *sets = pc_arena_alloc(a, nsets * sizeof(pc_bindings));
    /* and where each binding came from, for the messages about it (a merged set holds two sources) */
    const char *const **sources = pc_arena_alloc(a, nsets * sizeof *sources);
    for (size_t s = 0; s < nsets; s++) {
        size_t n0 = nbase ? base[s].count : 0, nb = l->nbinds;
        pc_binding *items = pc_arena_alloc(a, (n0 + nb + 1) * sizeof(pc_binding));
        size_t at_base = binds_first ? nb : 0, at_binds = binds_first ? 0 : n0;
        if (n0)
            memcpy(items + at_base, base[s].items, n0 * sizeof(pc_binding));
        if (nb)
            memcpy(items + at_binds, l->binds, nb * sizeof(pc_binding));
        sets[s].items = items;
        sets[s].count = n0 + nb;
        const char *own = l->nbinding_sets
                              ? (l->binding_set_sources && l->binding_set_sources[s] ? l->binding_set_sources[s] : "--shapes")
                          : proj ? (proj->binding_sets_path ? proj->binding_sets_path : proj->path)
                                 : NULL;
        const char **row = pc_arena_alloc(a, (n0 + nb + 1) * sizeof *row);
        for (size_t i = 0; i < n0 + nb; i++)
            row[i] = (i >= at_base && i < at_base + n0) ? own : l->binds_source;
        sources[s] = row;
    }
    o->parse.binding_sources = sources;
    o->analysis.binding_sets = sets;
    o->analysis.nbinding_sets = nsets;
    /* the frontends see them too: the Python one unrolls range() over a bound symbol and decides a
     * trace-time if on a bound argument; the dispatcher warns about a binding that names nothing */
    o->parse.bindings = sets;
    o->parse.nbindings = nsets;

    size_t ncfg = l->config ? l->config->noptions : 0, nproj = proj ? proj->noptions : 0;
    size_t n = ncfg + nproj + l->nset_opts;
    pc_option *ext = pc_arena_alloc(a, (n ? n : 1) * sizeof(pc_option));
    size_t at = 0;
    if (ncfg)
        memcpy(ext + at, l->config->options, ncfg * sizeof(pc_option)), at += ncfg;
    if (nproj)
        memcpy(ext + at, proj->options, nproj * sizeof(pc_option)), at += nproj;
    if (l->nset_opts)
        memcpy(ext + at, l->set_opts, l->nset_opts * sizeof(pc_option)), at += l->nset_opts;
    o->ext_opts = ext;
    o->next_opts = at;
}
