# docs_console: every ```console example of README.md and docs/**/*.md runs, from the source tree
# with this build's binaries, and prints what the page shows; every fenced block says what it is
# (docs/dev/writing-docs.md has the convention, tests/e2e/docs_console/check_console.py runs it).
add_test(NAME docs_console
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/docs_console/check_console.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(docs_console PROPERTIES TIMEOUT 120 LABELS e2e)
