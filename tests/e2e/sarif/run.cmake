# SARIF validation against the official 2.1.0 schema, run with
#   cmake -DMODE=setup    -DTOOLS=<dir> -P run.cmake
#   cmake -DMODE=validate -DTOOLS=<dir> -DFILES=<a.json;b.json> -P run.cmake
#   cmake -DMODE=cli      -DTOOLS=<dir> -DPOOLCHECK=<exe> -DOUT=<dir> -DINPUTS=<path;...> -P run.cmake
# setup installs ajv-cli, ajv-formats and @microsoft/sarif-multitool-linux (whose bundled
# sarif-2.1.0.json is the schema) with npm into TOOLS, under the build tree.  Every mode prints
# POOLCHECK_SKIP (the test's skip expression) and stops when npm or node is missing.
cmake_minimum_required(VERSION 3.20)

find_program(NPM npm)
find_program(NODE node)
if(NOT NPM OR NOT NODE)
  message("POOLCHECK_SKIP: npm/node not found; cannot validate SARIF against the 2.1.0 schema")
  return()
endif()

set(SCHEMA ${TOOLS}/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json)
set(AJV ${TOOLS}/node_modules/.bin/ajv)
set(MULTITOOL ${TOOLS}/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool)

if(MODE STREQUAL "setup")
  if(EXISTS ${SCHEMA} AND EXISTS ${AJV} AND EXISTS ${TOOLS}/node_modules/ajv-formats/package.json)
    message(STATUS "SARIF tools already in ${TOOLS}")
    return()
  endif()
  file(MAKE_DIRECTORY ${TOOLS})
  execute_process(
    COMMAND ${NPM} install --no-audit --no-fund --loglevel=error --prefix ${TOOLS}
            ajv-cli ajv-formats @microsoft/sarif-multitool-linux
    WORKING_DIRECTORY ${TOOLS}
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${SCHEMA} OR NOT EXISTS ${AJV})
    message(FATAL_ERROR "npm install of the SARIF validators into ${TOOLS} failed (${rc})")
  endif()
  return()
endif()

if(NOT EXISTS ${SCHEMA} OR NOT EXISTS ${AJV})
  message(FATAL_ERROR "the SARIF validators are not installed in ${TOOLS} (the sarif_tools test installs them)")
endif()

# Validate one document: ajv against the schema (the gate), then the Multitool's GitHub rules
# (it exits 0 even when it finds errors, so its own SARIF output is read back).
function(validate file)
  set(data ${file})
  if(NOT file MATCHES "\\.json$")   # ajv wants a .json name
    get_filename_component(name ${file} NAME)
    set(data ${TOOLS}/${name}.json)
    configure_file(${file} ${data} COPYONLY)
  endif()
  file(SIZE ${data} size)
  if(size EQUAL 0)
    message(FATAL_ERROR "${file} is empty")
  endif()
  execute_process(
    COMMAND ${AJV} validate --spec=draft2020 -c ajv-formats --strict=false -s ${SCHEMA} -d ${data}
    WORKING_DIRECTORY ${TOOLS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${file} is not valid SARIF 2.1.0")
  endif()
  if(EXISTS ${MULTITOOL})
    set(report ${data}.multitool.sarif)
    file(REMOVE ${report})
    execute_process(
      COMMAND ${MULTITOOL} validate ${data} -o ${report} --log ForceOverwrite --rule-kind "Gh;Sarif"
              --level "Error"
      RESULT_VARIABLE mrc OUTPUT_VARIABLE mout ERROR_VARIABLE merr)
    if(EXISTS ${report})
      file(READ ${report} json)
      string(JSON nresults ERROR_VARIABLE jerr LENGTH "${json}" runs 0 results)
      if(jerr)
        set(nresults 0)
      endif()
      if(nresults GREATER 0)
        math(EXPR last "${nresults} - 1")
        foreach(i RANGE ${last})
          string(JSON rule GET "${json}" runs 0 results ${i} ruleId)
          string(JSON text ERROR_VARIABLE terr GET "${json}" runs 0 results ${i} message text)
          message("Multitool: ${rule}: ${text}")
        endforeach()
        message(FATAL_ERROR "${file}: the SARIF Multitool reports ${nresults} error(s) (rules Gh;Sarif)")
      endif()
    else()
      message(WARNING "the SARIF Multitool did not run (${mrc}): ${merr}; ajv alone validated ${file}")
    endif()
  endif()
  message(STATUS "${file}: valid SARIF 2.1.0")
endfunction()

if(MODE STREQUAL "validate")
  foreach(f ${FILES})
    if(NOT EXISTS ${f})
      message(FATAL_ERROR "${f} does not exist (written by the check_report unit suite)")
    endif()
    validate(${f})
  endforeach()
elseif(MODE STREQUAL "cli")
  # `poolcheck check --format=sarif` over kernels and lint fixtures, one process and -j 2; the
  # exit status says whether there were findings (0, 1) or unreadable inputs (2), never a crash.
  file(MAKE_DIRECTORY ${OUT})
  set(n 0)
  foreach(jobs 1 2)
    foreach(input ${INPUTS})
      math(EXPR n "${n} + 1")
      set(doc ${OUT}/cli-${n}.sarif)
      execute_process(
        COMMAND ${POOLCHECK} check --format=sarif -j ${jobs} ${input}
        OUTPUT_FILE ${doc} ERROR_VARIABLE err RESULT_VARIABLE rc)
      message(STATUS "poolcheck check --format=sarif -j ${jobs} ${input}: exit ${rc}")
      if(NOT rc MATCHES "^[012]$")
        message(FATAL_ERROR "poolcheck failed on ${input} (${rc}): ${err}")
      endif()
      validate(${doc})
    endforeach()
  endforeach()
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
