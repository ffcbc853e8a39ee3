# run.cmake - the cmake_package end-to-end test (registered by tests/e2e/cmake_package.cmake).
#
#   cmake -DPOOLCHECK_BUILD=<build dir> -DPROJECT_SRC=<this dir> -DEXAMPLES=<examples dir>
#         -DWORK=<scratch dir> -DGENERATOR=<generator> -P run.cmake
#
# 1. `cmake --install` poolcheck into WORK/prefix: tools, library, CMake package, man pages, docs
#    and examples are there; the installed binary, run from elsewhere, analyses the installed
#    seed examples ([64, 1, 1]) and matches the installed sample logs; the man page renders.
# 2. Copy this project to WORK/src with the seed example as its kernels (Python and C++).
# 3. Configure against the prefix.  Build with a zero assemble pool ([64, 0, 1]) in the Python
#    kernel: it fails showing PC001; fix it and put the zero in the C++ kernel: it fails showing
#    PC001 there; fix that ([64, 2, 1]): it builds; build again: nothing is linted again.
# 4. The probe program linked against libpoolcheck runs and analyses a kernel.
cmake_minimum_required(VERSION 3.20)
foreach(v POOLCHECK_BUILD PROJECT_SRC EXAMPLES WORK GENERATOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run.cmake: -D${v}=... is required")
  endif()
endforeach()

function(run what)
  cmake_parse_arguments(PARSE_ARGV 1 R "EXPECT_FAIL" "" "COMMAND")
  execute_process(COMMAND ${R_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(run_output "${out}" PARENT_SCOPE)
  if(R_EXPECT_FAIL AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: expected to fail, but it succeeded:\n${out}")
  elseif(NOT R_EXPECT_FAIL AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: failed (${rc}):\n${out}")
  endif()
  message(STATUS "${what}: ${rc} (as expected)")
endfunction()

# The seed example with a module-level pool option after `import pypto`.
function(write_kernel dest triple)
  file(READ "${EXAMPLES}/k_tmp_to_d_emb.py" text)
  string(REPLACE "import pypto\n"
    "import pypto\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=${triple})\n"
    text "${text}")
  file(WRITE "${dest}" "${text}")
endfunction()

# The C++ seed example, with the pool option set before its FUNCTION when a triple is given.
function(write_cpp_kernel dest triple)
  file(READ "${EXAMPLES}/k_tmp_to_d_emb.cpp" text)
  if(triple)
    string(REPLACE "void BuildTmpToDEmb()\n{\n"
      "void BuildTmpToDEmb()\n{\n    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>${triple});\n"
      text "${text}")
  endif()
  file(WRITE "${dest}" "${text}")
endfunction()

file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
run("install" COMMAND "${CMAKE_COMMAND}" --install "${POOLCHECK_BUILD}" --prefix "${prefix}")
foreach(f bin/poolcheck bin/poolcheck-lsp bin/poolcheck-cc lib/cmake/poolcheck/poolcheckConfig.cmake
          lib/cmake/poolcheck/poolcheckConfigVersion.cmake lib/cmake/poolcheck/PoolcheckLint.cmake
          include/poolcheck/poolcheck.h share/poolcheck/stub/poolcheck_tilefwk_stub.h)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()
# The man pages, the user documentation and the examples (GNUInstallDirs: share/man, share/doc).
foreach(f share/man/man1/poolcheck.1 share/man/man1/poolcheck-lsp.1 share/man/man1/poolcheck-cc.1
          share/doc/poolcheck/README.md share/doc/poolcheck/docs/model.md
          share/doc/poolcheck/docs/integrations.md share/doc/poolcheck/checks/PC001.md
          share/doc/poolcheck/examples/k_tmp_to_d_emb.py share/doc/poolcheck/examples/k_tmp_to_d_emb.cpp
          share/doc/poolcheck/examples/logs/k_tmp_to_d_emb.device.log)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()
if(EXISTS "${prefix}/share/doc/poolcheck/docs/dev")
  message(FATAL_ERROR "install: the developers' notes (docs/dev) are not user documentation")
endif()

# The installed binary on the installed seed examples, run from a directory outside both the
# source and the build tree: the Python and the C++ kernel give [64, 1, 1] (the C++ one through
# the installed stub headers), and the sample logs match.
set(ex "${prefix}/share/doc/poolcheck/examples")
file(MAKE_DIRECTORY "${WORK}/elsewhere")
foreach(k k_tmp_to_d_emb.py k_tmp_to_d_emb.cpp)
  execute_process(COMMAND "${prefix}/bin/poolcheck" check --no-config-lookup "${ex}/${k}"
    WORKING_DIRECTORY "${WORK}/elsewhere" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "predicted   64 +1 +1\n")
    message(FATAL_ERROR "installed poolcheck on ${k}: exit ${rc}:\n${out}\n${err}")
  endif()
  message(STATUS "installed poolcheck on ${k}: predicted [64, 1, 1]")
endforeach()
execute_process(COMMAND "${prefix}/bin/poolcheck" logs --no-config-lookup --kernel "${ex}/k_tmp_to_d_emb.py" "${ex}/logs"
  WORKING_DIRECTORY "${WORK}/elsewhere" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "  match\n" matches "${out}")
list(LENGTH matches nmatch)
if(NOT rc EQUAL 0 OR NOT nmatch EQUAL 3)
  message(FATAL_ERROR "installed poolcheck logs on the installed sample logs: exit ${rc}:\n${out}\n${err}")
endif()
find_program(MAN_PROGRAM man)
if(MAN_PROGRAM)
  execute_process(COMMAND "${MAN_PROGRAM}" -l "${prefix}/share/man/man1/poolcheck.1"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(ASCII 8 backspace) # without a terminal man overstrikes bold text: X<BS>X
  string(REGEX REPLACE ".${backspace}" "" out "${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "SYNOPSIS.*stitch_function_num_per_pool.*EXIT STATUS")
    message(FATAL_ERROR "man -l on the installed poolcheck.1: exit ${rc}:\n${out}\n${err}")
  endif()
endif()

set(src "${WORK}/src")
file(COPY "${PROJECT_SRC}/" DESTINATION "${src}" PATTERN "run.cmake" EXCLUDE)
write_cpp_kernel("${src}/kernels/k_cpp.cpp" "")
write_kernel("${src}/kernels/kernel.py" "[64, 0, 1]")

set(build "${WORK}/build")
run("configure" COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release)
run("build with the PC001 Python kernel" EXPECT_FAIL COMMAND "${CMAKE_COMMAND}" --build "${build}")
if(NOT run_output MATCHES "kernel\\.py:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")
  message(FATAL_ERROR "the failed build does not show PC001 for kernel.py:\n${run_output}")
endif()
if(EXISTS "${build}/app")
  message(FATAL_ERROR "app was built although its kernel failed the lint")
endif()

# The C++ kernel fails only if the target's include directories reach poolcheck: without them
# its #include "tilefwk/tilefwk.h" is not found and no kernel is seen.
write_kernel("${src}/kernels/kernel.py" "[64, 2, 1]")
write_cpp_kernel("${src}/kernels/k_cpp.cpp" "{64, 0, 1}")
run("build with the PC001 C++ kernel" EXPECT_FAIL COMMAND "${CMAKE_COMMAND}" --build "${build}")
if(NOT run_output MATCHES "k_cpp\\.cpp:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")
  message(FATAL_ERROR "the failed build does not show PC001 for k_cpp.cpp:\n${run_output}")
endif()

write_cpp_kernel("${src}/kernels/k_cpp.cpp" "{64, 2, 1}")
run("build with the fixed kernels" COMMAND "${CMAKE_COMMAND}" --build "${build}")
if(run_output MATCHES "\\[PC001\\]")
  message(FATAL_ERROR "a fixed kernel still reports PC001:\n${run_output}")
endif()
if(NOT EXISTS "${build}/app")
  message(FATAL_ERROR "app was not built")
endif()

# Nothing changed: nothing is linted again.
run("rebuild" COMMAND "${CMAKE_COMMAND}" --build "${build}")
if(run_output MATCHES "poolcheck (kernels|main)")
  message(FATAL_ERROR "an unchanged kernel was linted again:\n${run_output}")
endif()

run("probe" COMMAND "${build}/probe" "${src}/kernels/kernel.py")
if(NOT run_output MATCHES "poolcheck [0-9]+\\.[0-9]+\\.[0-9]+\nerrors: 0")
  message(FATAL_ERROR "probe: unexpected output:\n${run_output}")
endif()
message(STATUS "cmake_package: all steps passed")
