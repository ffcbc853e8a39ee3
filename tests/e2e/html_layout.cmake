# html_layout: the HTML report, rendered by headless Chromium in a 1400 px window, needs no
# horizontal scrolling (also with long "why" texts) and opens with its summary.  Skipped (77)
# where no Chromium is installed.
add_test(NAME html_layout
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_layout/check_layout.py
          ${CMAKE_BINARY_DIR}/bin ${CMAKE_BINARY_DIR}/e2e/html_layout)
set_tests_properties(html_layout PROPERTIES TIMEOUT 300 LABELS e2e SKIP_RETURN_CODE 77)
