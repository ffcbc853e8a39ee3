# stub_pch: the precompiled stub (analyzer/frontend/clang/clang_pch.c) changes no output.  Every C++
# fixture and example is checked with the header's text (POOLCHECK_NO_CACHE), with an empty cache
# (the PCH is built), with a warm one, and with the cached PCH damaged; then, on a copy of the
# stub, an edit of a header the stub includes must reach the output although a PCH of the old
# text is cached, and that PCH must be gone after the run.
add_test(NAME stub_pch
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/stub_pch/check.py
          $<TARGET_FILE:poolcheck> ${CMAKE_SOURCE_DIR})
set_tests_properties(stub_pch PROPERTIES TIMEOUT 600 LABELS e2e)
