# error_one_way: the public headers report errors one way, a status return and an owned
# char **err (poolcheck/support.h, "Errors, one way"): no borrowed const char **err, no error
# out-struct, no _MSG_MAX caller buffer, no _Thread_local; and no per-thread message buffer in the
# library.  error_one_way_patterns runs the checker on planted bad headers.
add_test(NAME error_one_way
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/error_one_way/check.py ${CMAKE_SOURCE_DIR})
add_test(NAME error_one_way_patterns
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/error_one_way/check.py --self-test)
set_tests_properties(error_one_way error_one_way_patterns PROPERTIES TIMEOUT 60 LABELS e2e)
