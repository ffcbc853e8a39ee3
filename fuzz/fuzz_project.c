/*
 * fuzz_project.c - the .poolcheck.json loader (pc_cfg_parse_project): every field, bindings in
 * both shapes, globs, the nested "runtime" options (validated and printed as the CLI does).
 */
#include "fuzz_common.h"

#include <stdlib.h>

#include "poolcheck/config.h"

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char *err = NULL;
    pc_project_config *p = pc_cfg_parse_project("/fuzz/project/.poolcheck.json", (const char *)data, size, &err);
    if (!p) {
        free(err);
        return 0;
    }
    pc_arena *a = pc_arena_new();
    for (size_t i = 0; i < p->noptions; i++) {
        (void)pc_cfg_validate(a, p->options[i].key, &p->options[i].value);
        (void)pc_cfg_value_text(a, &p->options[i].value);
    }
    for (size_t i = 0; i < p->nexclude; i++)
        (void)pc_glob_match(p->exclude[i], "/fuzz/project/kernels/k.py");
    size_t total = 0;
    for (size_t i = 0; i < p->nbinding_sets; i++)
        for (size_t j = 0; j < p->binding_sets[i].count; j++)
            total += strlen(p->binding_sets[i].items[j].name);
    (void)total;
    pc_runtime_config c;
    pc_cfg_resolve(&c, NULL, -1, p->options, p->noptions, NULL, 0);
    pc_arena_free(a);
    pc_cfg_project_free(p);
    return 0;
}
