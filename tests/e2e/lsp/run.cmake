# run.cmake - the lsp_e2e test (registered by tests/e2e/lsp.cmake).
#
#   cmake -DSERVER=<poolcheck-lsp> -DEXAMPLE=<k_tmp_to_d_emb.py> -DCLIENT_DIR=<this dir>
#         -DWORK=<scratch dir in the build tree> -P run.cmake
#
# Installs the client library (npm vscode-jsonrpc, pinned by package-lock.json) into WORK once,
# then runs client.js there.  Without npm/node the test is skipped: CTest matches the
# "POOLCHECK_SKIP" line (SKIP_REGULAR_EXPRESSION).
cmake_minimum_required(VERSION 3.20)
foreach(v SERVER EXAMPLE CLIENT_DIR WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run.cmake: -D${v}=... is required")
  endif()
endforeach()

find_program(NPM npm)
find_program(NODE node)
if(NOT NPM OR NOT NODE)
  message("POOLCHECK_SKIP: npm/node not found; the LSP client test needs them (apt-get install npm)")
  return()
endif()

file(MAKE_DIRECTORY "${WORK}")
foreach(f package.json package-lock.json client.js)
  configure_file("${CLIENT_DIR}/${f}" "${WORK}/${f}" COPYONLY)
endforeach()
if(NOT EXISTS "${WORK}/node_modules/vscode-jsonrpc/package.json"
   OR "${WORK}/package-lock.json" IS_NEWER_THAN "${WORK}/node_modules/.installed")
  execute_process(COMMAND "${NPM}" ci --no-audit --no-fund --loglevel=error
    WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npm ci (vscode-jsonrpc) failed in ${WORK}:\n${out}")
  endif()
  file(TOUCH "${WORK}/node_modules/.installed")
endif()

execute_process(COMMAND "${NODE}" client.js "${SERVER}" "${EXAMPLE}" "${WORK}/docs"
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the LSP client failed (status ${rc})")
endif()
