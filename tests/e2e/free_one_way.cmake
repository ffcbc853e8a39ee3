# free_one_way: under analyzer/ and plugin/, allocation goes through the seam (no malloc/strdup
# outside analyzer/support/support.c) and free() only releases libc's own results (realpath,
# getcwd, open_memstream); what the library hands out is freed with pc_mem_free
# (poolcheck/support.h).  free_one_way_patterns runs the checker's own cases.
add_test(NAME free_one_way
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/free_one_way/check.py ${CMAKE_SOURCE_DIR})
add_test(NAME free_one_way_patterns
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/free_one_way/check.py --self-test)
set_tests_properties(free_one_way free_one_way_patterns PROPERTIES TIMEOUT 60 LABELS e2e)
