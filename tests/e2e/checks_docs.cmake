# checks_docs: docs/checks/PCnnn.md and index.md are what analyzer/checks/checks.def generates
# (gen_check_docs --check; `cmake --build BUILD --target regenerate-check-docs` rewrites them), and
# no page lacks a table entry.
if(TARGET gen_check_docs AND TARGET poolcheck)
  add_test(NAME checks_docs
    COMMAND gen_check_docs --check $<TARGET_FILE:poolcheck> ${CMAKE_SOURCE_DIR}/docs/checks)
  set_tests_properties(checks_docs PROPERTIES TIMEOUT 300 LABELS e2e)
endif()
