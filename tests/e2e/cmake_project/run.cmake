# run.cmake - the cmake_package end-to-end test (registered by tests/e2e/cmake_package.cmake).
#
#   cmake -DPOOLCHECK_BUILD=<build dir> -DPROJECT_SRC=<this dir> -DSHARED=<../shared>
#         -DWORK=<scratch dir> -DGENERATOR=<generator> -P run.cmake
#
# 1. `cmake --install` poolcheck into WORK/prefix.
# 2. Copy this project to WORK/src with the seed example as its kernels; the Python kernel
#    configures a zero assemble pool (stitch_function_num_per_pool=[64, 0, 1]).
# 3. Configure against the prefix; build: it must fail, showing PC001 for the Python kernel.
# 4. Replace the kernel with the fixed one ([64, 2, 1]); build: it must succeed.
# 5. The probe program linked against libpoolcheck runs and analyses a kernel.
cmake_minimum_required(VERSION 3.20)
foreach(v POOLCHECK_BUILD PROJECT_SRC SHARED WORK GENERATOR)
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
  file(READ "${SHARED}/examples/python/k_tmp_to_d_emb.py" text)
  string(REPLACE "import pypto\n"
    "import pypto\npypto.experimental.set_runtime_options(stitch_function_num_per_pool=${triple})\n"
    text "${text}")
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

set(src "${WORK}/src")
file(COPY "${PROJECT_SRC}/" DESTINATION "${src}" PATTERN "run.cmake" EXCLUDE)
file(COPY "${SHARED}/examples/cpp/k_tmp_to_d_emb.cpp" DESTINATION "${src}/kernels")
file(RENAME "${src}/kernels/k_tmp_to_d_emb.cpp" "${src}/kernels/k_cpp.cpp")
write_kernel("${src}/kernels/kernel.py" "[64, 0, 1]")

set(build "${WORK}/build")
run("configure" COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release)
run("build with the PC001 kernel" EXPECT_FAIL COMMAND "${CMAKE_COMMAND}" --build "${build}")
if(NOT run_output MATCHES "kernel\\.py:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")
  message(FATAL_ERROR "the failed build does not show PC001 for kernel.py:\n${run_output}")
endif()
if(EXISTS "${build}/app")
  message(FATAL_ERROR "app was built although its kernel failed the lint")
endif()

write_kernel("${src}/kernels/kernel.py" "[64, 2, 1]")
run("build with the fixed kernel" COMMAND "${CMAKE_COMMAND}" --build "${build}")
if(run_output MATCHES "\\[PC001\\]")
  message(FATAL_ERROR "the fixed kernel still reports PC001:\n${run_output}")
endif()
if(NOT EXISTS "${build}/app")
  message(FATAL_ERROR "app was not built")
endif()

run("probe" COMMAND "${build}/probe" "${src}/kernels/kernel.py")
if(NOT run_output MATCHES "poolcheck [0-9]+\\.[0-9]+\\.[0-9]+\nerrors: 0")
  message(FATAL_ERROR "probe: unexpected output:\n${run_output}")
endif()
message(STATUS "cmake_package: all steps passed")
