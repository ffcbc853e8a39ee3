# man_pages: build/man/*.1 (made from each tool's --help by cmake/man.py) render with `man -l`,
# groff reports no warning, and every option of every --help is on its page.  Skipped (77) where
# man or groff is not installed.
add_test(NAME man_pages
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/man/check_man.py ${CMAKE_BINARY_DIR}/man ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(man_pages PROPERTIES TIMEOUT 120 LABELS e2e SKIP_RETURN_CODE 77)
