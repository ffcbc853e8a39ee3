# Allocation-failure testing (Lua's memerr idea): with -DPOOLCHECK_FAULT_INJECTION=ON the CLI
# honours POOLCHECK_FAIL_ALLOC_AFTER=N (the Nth pc_mem_* allocation fails) and
# POOLCHECK_ALLOC_COUNT=1 (print the allocation count at exit), through pc_mem_init_from_env()
# (analyzer/support/fault_env.c), and tests/e2e/fault_injection.cmake registers the sweep test.
# Off by default: a release binary must not read those variables.
#
# Included from the top-level CMakeLists (include(cmake/FaultInjection.cmake OPTIONAL)), before or
# after add_subdirectory(analyzer): the definition goes on the library target when it exists, else
# on every target defined after this point.
option(POOLCHECK_FAULT_INJECTION "Fail the Nth allocation on request (POOLCHECK_FAIL_ALLOC_AFTER); for tests only" OFF)
if(POOLCHECK_FAULT_INJECTION)
  if(TARGET poolcheck_lib)
    target_compile_definitions(poolcheck_lib PRIVATE POOLCHECK_FAULT_INJECTION=1)
  else()
    add_compile_definitions(POOLCHECK_FAULT_INJECTION=1)
  endif()
endif()
