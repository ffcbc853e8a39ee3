# SARIF output validated against the official SARIF 2.1.0 schema with ajv (plus the SARIF
# Multitool's GitHub rules), using validators npm installs under the build tree
# (tests/e2e/sarif/run.cmake).  Skipped, with a message, when npm is missing.
#   sarif_tools        installs the validators (a fixture of the two below)
#   sarif_schema_unit  the document check_report writes with pc_rep_write
#   sarif_schema_cli   `poolcheck check --format=sarif` on the examples, the lint fixtures and a
#                      file that does not parse (a tool execution notification)
set(PC_SARIF_TOOLS ${CMAKE_BINARY_DIR}/e2e/sarif-tools)
set(PC_SARIF_RUN ${CMAKE_CURRENT_LIST_DIR}/sarif/run.cmake)

add_test(NAME sarif_tools
  COMMAND ${CMAKE_COMMAND} -DMODE=setup -DTOOLS=${PC_SARIF_TOOLS} -P ${PC_SARIF_RUN})
set_tests_properties(sarif_tools PROPERTIES FIXTURES_SETUP pc_sarif_tools TIMEOUT 600 LABELS e2e
  SKIP_REGULAR_EXPRESSION "POOLCHECK_SKIP")

if(TARGET check_report)
  set_tests_properties(check_report PROPERTIES FIXTURES_SETUP pc_sarif_unit_doc)
  add_test(NAME sarif_schema_unit
    COMMAND ${CMAKE_COMMAND} -DMODE=validate -DTOOLS=${PC_SARIF_TOOLS}
            -DFILES=${CMAKE_BINARY_DIR}/sarif/check_report.sarif.json -P ${PC_SARIF_RUN})
  set_tests_properties(sarif_schema_unit PROPERTIES
    FIXTURES_REQUIRED "pc_sarif_tools;pc_sarif_unit_doc" TIMEOUT 300 LABELS e2e
    SKIP_REGULAR_EXPRESSION "POOLCHECK_SKIP")
endif()

if(TARGET poolcheck)
  set(_sarif_inputs
    ${CMAKE_SOURCE_DIR}/examples/k_tmp_to_d_emb.py
    ${CMAKE_SOURCE_DIR}/examples/k_tmp_to_d_emb.cpp
    ${CMAKE_SOURCE_DIR}/tests/fixtures/checks
    ${CMAKE_SOURCE_DIR}/tests/fixtures/python/syntax_error.py)
  string(REPLACE ";" "\\;" _sarif_inputs "${_sarif_inputs}")
  add_test(NAME sarif_schema_cli
    COMMAND ${CMAKE_COMMAND} -DMODE=cli -DTOOLS=${PC_SARIF_TOOLS} -DPOOLCHECK=$<TARGET_FILE:poolcheck>
            -DOUT=${CMAKE_BINARY_DIR}/e2e/sarif -DINPUTS=${_sarif_inputs} -P ${PC_SARIF_RUN})
  set_tests_properties(sarif_schema_cli PROPERTIES
    FIXTURES_REQUIRED pc_sarif_tools TIMEOUT 600 LABELS e2e SKIP_REGULAR_EXPRESSION "POOLCHECK_SKIP")
endif()
