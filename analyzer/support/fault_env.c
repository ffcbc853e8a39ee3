/* fault_env.c - the command-line end of the allocation-failure seam (support.h).
 *
 * Built with -DPOOLCHECK_FAULT_INJECTION=ON (cmake/FaultInjection.cmake), pc_mem_init_from_env()
 * reads two environment variables, Lua's memerr tests driven from outside the process:
 *   POOLCHECK_FAIL_ALLOC_AFTER=N   the Nth pc_mem_* allocation of this run fails (N >= 1), and
 *                                  every later one, so the out-of-memory handler must end the run;
 *   POOLCHECK_ALLOC_COUNT=1        print "poolcheck: allocations: N" to stderr at exit, the number
 *                                  of allocations a normal run makes (the range to sweep).
 * In a normal build it does nothing: a production binary must not change behaviour with its
 * environment this way.
 */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "poolcheck/json.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef POOLCHECK_FAULT_INJECTION
static void print_alloc_count(void)
{
    fprintf(stderr, "poolcheck: allocations: %llu\n", (unsigned long long)pc_mem_count());
}
#endif

void pc_mem_init_from_env(void)
{
    pc_json_use_pc_mem(); /* the report writers' cJSON allocations go through the seam too */
#ifdef POOLCHECK_FAULT_INJECTION
    const char *n = getenv("POOLCHECK_FAIL_ALLOC_AFTER");
    if (n && *n) {
        char *end = NULL;
        unsigned long long v = strtoull(n, &end, 10);
        if (*end == 0)
            pc_mem_fail_after((uint64_t)v);
    }
    const char *count = getenv("POOLCHECK_ALLOC_COUNT");
    if (count && *count && *count != '0')
        atexit(print_alloc_count);
#endif
}
