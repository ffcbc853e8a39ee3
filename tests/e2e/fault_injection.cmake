# Allocation failure (cmake/FaultInjection.cmake): in a -DPOOLCHECK_FAULT_INJECTION=ON build, fail
# the Nth allocation of `poolcheck check` on both bundled examples for every N, and check each run
# ends with status 2 and "out of memory" (never a signal), or runs normally past the last
# allocation; a sample of N under valgrind shows no definite leak.
if(POOLCHECK_FAULT_INJECTION)
  find_program(VALGRIND_FOR_FAULTS valgrind)
  if(NOT VALGRIND_FOR_FAULTS)
    set(VALGRIND_FOR_FAULTS "")
  endif()
  add_test(NAME fault_injection
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/fault_injection.sh $<TARGET_FILE:poolcheck> "${VALGRIND_FOR_FAULTS}"
            ${CMAKE_SOURCE_DIR}/examples/k_tmp_to_d_emb.py ${CMAKE_SOURCE_DIR}/examples/k_tmp_to_d_emb.cpp)
  set_tests_properties(fault_injection PROPERTIES TIMEOUT 3600 LABELS "e2e;slow")
endif()
