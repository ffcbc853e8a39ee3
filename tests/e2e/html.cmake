# HTML report end to end (docs/report.md).  Writes the report of the seed example
# (examples/k_tmp_to_d_emb.py) with `poolcheck check --report=out.html` (or, while the CLI has no
# --report, with html_report_demo, which calls pc_rep_html_write the same way), then
# tests/e2e/html/run_e2e.py checks it: well-formed XML and HTML, self-contained (nothing fetched,
# no script), the seed's numbers in the SVG; renders it with headless Chromium and checks the
# screenshot is not blank (distinct colours counted with a pure-Python PNG decoder).
# Exit status 77 (skipped): Chromium is missing and could not be installed.
add_executable(html_report_demo ${CMAKE_CURRENT_LIST_DIR}/html/html_report_demo.c)
target_link_libraries(html_report_demo PRIVATE poolcheck_lib)

add_test(NAME html_report_e2e
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html/run_e2e.py
    --poolcheck $<TARGET_FILE:poolcheck>
    --demo $<TARGET_FILE:html_report_demo>
    --source-dir ${CMAKE_SOURCE_DIR}
    --work ${CMAKE_BINARY_DIR}/e2e/html)
set_tests_properties(html_report_e2e PROPERTIES TIMEOUT 900 LABELS e2e SKIP_RETURN_CODE 77)
