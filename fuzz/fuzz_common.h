/*
 * fuzz_common.h - shared by the libFuzzer harnesses in fuzz/.
 *
 * FUZZ_ENTRY is LLVMFuzzerTestOneInput in the fuzz build; tests/e2e/bad_inputs.cmake compiles the
 * same files into check_bad_inputs with FUZZ_ENTRY=pc_fuzz_<target>, so every kept crash input is
 * replayed through exactly the code that found it.
 */
#ifndef POOLCHECK_FUZZ_COMMON_H
#define POOLCHECK_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "support/support.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (the loaders take text + length, but a C string must
 * never be read past its end either). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = pc_mem_alloc(size + 1);
    if (size)
        memcpy(s, data, size);
    s[size] = 0;
    return s;
}

#endif
