# symbols: every global symbol libpoolcheck.a defines carries the pc_ prefix, checked on
# `nm -g --defined-only` of the built archive.  symbols_patterns runs the checker's own cases.
add_test(NAME symbols
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/symbols/check_symbols.py
          ${CMAKE_NM} $<TARGET_FILE:poolcheck_lib>)
add_test(NAME symbols_patterns
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/symbols/check_symbols.py --self-test)
# symbols_offender: the same check on a planted archive (symbols/offender.c: a global function and
# a global object without the prefix, beside static and pc_ ones) finds exactly those two, so the
# check fails on real nm output of a non-prefixed global.
add_library(pc_symbols_offender STATIC ${CMAKE_CURRENT_LIST_DIR}/symbols/offender.c)
add_test(NAME symbols_offender
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/symbols/check_symbols.py
          ${CMAKE_NM} $<TARGET_FILE:pc_symbols_offender> --expect an_walk,counter)
set_tests_properties(symbols symbols_patterns symbols_offender PROPERTIES TIMEOUT 60 LABELS e2e)
