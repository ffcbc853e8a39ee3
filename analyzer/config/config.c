/* PLACEHOLDER (owner: config) - replaced by the real configuration module. */
#include "poolcheck/config.h"
#include "support/support.h"
#include <string.h>
void pc_cfg_defaults(pc_runtime_config *c) { memset(c, 0, sizeof *c); c->max_num = 128; c->parallelism = 1; }
bool pc_cfg_precise(const pc_runtime_config *c) { return c->pool[0] || c->pool[1] || c->pool[2]; }
int64_t pc_cfg_k(const pc_runtime_config *c) { return c->max_num > 1024 ? 1024 : c->max_num; }
void pc_cfg_effective_pool(const pc_runtime_config *c, int64_t out[3]) { for (int i = 0; i < 3; i++) out[i] = pc_cfg_precise(c) ? c->pool[i] : pc_cfg_k(c); }
const char *pc_cfg_validate(pc_arena *a, const char *key, const pc_optval *v) { (void)a; (void)key; (void)v; return NULL; }
void pc_cfg_apply(pc_runtime_config *c, const pc_option *opt) { (void)c; (void)opt; }
void pc_cfg_resolve(pc_runtime_config *c, const pc_model *m, int kernel, const pc_option *f, size_t nf, const pc_option *l, size_t nl) { (void)m; (void)kernel; (void)f; (void)nf; (void)l; (void)nl; pc_cfg_defaults(c); }
bool pc_cfg_parse_set(pc_arena *a, const char *arg, pc_option *opt, const char **err) { (void)a; (void)arg; (void)opt; *err = "not implemented"; return false; }
char *pc_cfg_value_text(pc_arena *a, const pc_optval *v) { (void)v; return pc_arena_strdup(a, "?"); }
