# symbols: every global symbol libpoolcheck.a defines carries the pc_ prefix (issue 15), checked on
# `nm -g --defined-only` of the built archive.  symbols_patterns runs the checker's own cases.
add_test(NAME symbols
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/symbols/check_symbols.py
          ${CMAKE_NM} $<TARGET_FILE:poolcheck_lib>)
add_test(NAME symbols_patterns
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/symbols/check_symbols.py --self-test)
set_tests_properties(symbols symbols_patterns PROPERTIES TIMEOUT 60 LABELS e2e)
