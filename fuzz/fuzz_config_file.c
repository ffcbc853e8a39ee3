/*
 * fuzz_config_file.c - the tile_fwk_config.json loader (pc_cfg_parse_config_file) and what the
 * CLI then does with each option of its "runtime" section: validate it as upstream does, print
 * it the way diagnostics do, and resolve the configuration.
 */
#include "fuzz_common.h"

#include <stdlib.h>

#include "poolcheck/config.h"

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char *err = NULL;
    pc_config_file *f = pc_cfg_parse_config_file("tile_fwk_config.json", (const char *)data, size, &err);
    if (!f) {
        free(err); /* malloc'd by contract (config.h) */
        return 0;
    }
    pc_arena *a = pc_arena_new();
    for (size_t i = 0; i < f->noptions; i++) {
        const pc_option *o = &f->options[i];
        (void)pc_cfg_validate(a, o->key, &o->value);
        (void)pc_cfg_value_text(a, &o->value);
        (void)pc_cfg_value_str(a, &o->value);
        (void)pc_cfg_applicable(o->key, &o->value);
    }
    pc_runtime_config c;
    pc_cfg_resolve(&c, NULL, -1, f->options, f->noptions, NULL, 0);
    int64_t eff[3];
    pc_cfg_effective_pool(&c, eff);
    (void)pc_cfg_k(&c);
    pc_arena_free(a);
    pc_cfg_config_file_free(f);
    return 0;
}
