# public_headers: every include/poolcheck/*.h compiles as the only include of a C11 file and, when a
# C++ compiler is found, of a C++11 file; a snippet uses poolcheck/support.h's macros in both
# (the public API is complete on its own).
find_program(PC_CXX_FOR_HEADERS NAMES c++ g++ clang++)
add_test(NAME public_headers
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/public_headers/check.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_C_COMPILER} "${PC_CXX_FOR_HEADERS}")
set_tests_properties(public_headers PROPERTIES TIMEOUT 120 LABELS e2e)
