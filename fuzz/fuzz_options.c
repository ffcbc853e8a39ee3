/*
 * fuzz_options.c - runtime-option values as `--set KEY=VALUE` gives them: pc_cfg_parse_set, then
 * the upstream-style checks (pc_cfg_validate: PC002/PC003 messages), the Python renderings used
 * in messages and fixes, and applying a valid value.
 *
 * Input: byte 0 picks the key (one of the four modelled options, or the input carries its own
 * `KEY=`); the rest is the value text.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "fuzz_common.h"

#include "poolcheck/config.h"

static const char *const keys[] = {PC_KEY_POOL, PC_KEY_MAX_NUM, PC_KEY_WORKSPACE_KB, PC_KEY_PARALLELISM};

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned pick = data[0] % 5;
    pc_sb arg = {0};
    if (pick < 4) {
        pc_sb_append(&arg, keys[pick]);
        pc_sb_putc(&arg, '=');
    }
    /* a command-line argument is a C string: it ends at the first NUL */
    size_t n = strnlen((const char *)data + 1, size - 1);
    pc_sb_appendn(&arg, (const char *)data + 1, n);
    char *s = pc_sb_take(&arg);

    pc_arena *a = pc_arena_new();
    pc_option opt;
    char *err = NULL;
    if (pc_cfg_parse_set(a, s, &opt, &err)) {
        (void)pc_cfg_validate(a, opt.key, &opt.value);
        (void)pc_cfg_value_text(a, &opt.value);
        (void)pc_cfg_value_str(a, &opt.value);
        if (pc_cfg_applicable(opt.key, &opt.value)) {
            pc_runtime_config c;
            pc_cfg_resolve(&c, NULL, -1, NULL, 0, &opt, 1);
            int64_t eff[3];
            pc_cfg_effective_pool(&c, eff);
        }
    }
    pc_mem_free(err);
    pc_arena_free(a);
    pc_mem_free(s);
    return 0;
}
