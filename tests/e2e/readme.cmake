# readme_console: the README's console examples run from the source tree (with this build's
# binaries for build/bin/) and print what the README shows; `...` lines stand for any lines.
add_test(NAME readme_console
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/readme/check_console.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/bin README.md)
set_tests_properties(readme_console PROPERTIES TIMEOUT 300 LABELS e2e)
