# poolcheck-lsp tests.
# - check_lsp (tests/unit/check_lsp.c) drives the server core in memory; it needs the core library.
# - lsp_e2e: a real LSP client (npm vscode-jsonrpc, installed into the build tree by
#   tests/e2e/lsp/run.cmake) talks to the poolcheck-lsp binary over pipes.  Skipped when npm or
#   node is missing.
if(TARGET check_lsp)
  target_link_libraries(check_lsp PRIVATE pc_lsp_core)
endif()
if(TARGET poolcheck-lsp)
  add_test(NAME lsp_e2e
    COMMAND ${CMAKE_COMMAND}
      -DSERVER=$<TARGET_FILE:poolcheck-lsp>
      -DEXAMPLE=${CMAKE_SOURCE_DIR}/examples/k_tmp_to_d_emb.py
      -DCLIENT_DIR=${CMAKE_CURRENT_LIST_DIR}/lsp
      -DWORK=${CMAKE_BINARY_DIR}/e2e/lsp
      -P ${CMAKE_CURRENT_LIST_DIR}/lsp/run.cmake)
  set_tests_properties(lsp_e2e PROPERTIES TIMEOUT 300 LABELS e2e SKIP_REGULAR_EXPRESSION "POOLCHECK_SKIP")
endif()
