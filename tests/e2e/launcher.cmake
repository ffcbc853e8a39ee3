# poolcheck-cc end-to-end tests.  This file is both the registration (include()d by
# tests/CMakeLists.txt) and the scenario runner (run with `cmake -P` by the tests it registers).
#
#   launcher_args   poolcheck-cc as a compiler launcher, with a recording fake compiler: a PC001
#                   kernel stops the compile; POOLCHECK_CC_WARN_ONLY=1 compiles anyway; a file
#                   with no kernel passes through with its arguments untouched; a leading ccache
#                   (and `env VAR=V`) is skipped to find the compiler and kept in what runs.
#   launcher_tidy   clang-tidy's calling convention (`--extra-arg-before=... <src> -- <cmd>` and
#                   `-p <dir>`): lint only, diagnostics on stdout, nothing executed.
#   launcher_cmake  a real CMake project with CMAKE_CXX_COMPILER_LAUNCHER="poolcheck-cc;ccache",
#                   and another with CMAKE_CXX_CLANG_TIDY=poolcheck-cc: the kernel target fails
#                   with PC001, the plain target builds.
if(NOT CMAKE_SCRIPT_MODE_FILE)
  if(TARGET poolcheck-cc)
    foreach(scenario args tidy cmake)
      add_test(NAME launcher_${scenario}
        COMMAND ${CMAKE_COMMAND}
          -DSCENARIO=${scenario}
          -DCC=$<TARGET_FILE:poolcheck-cc>
          -DEXAMPLES=${CMAKE_SOURCE_DIR}/examples
          -DSTUB=${CMAKE_SOURCE_DIR}/analyzer/frontend/clang/stub
          -DWORK=${CMAKE_BINARY_DIR}/e2e/launcher/${scenario}
          "-DGENERATOR=${CMAKE_GENERATOR}"
          -P ${CMAKE_CURRENT_LIST_FILE})
      set_tests_properties(launcher_${scenario} PROPERTIES TIMEOUT 600 LABELS e2e)
    endforeach()
  endif()
  return()
endif()

# ---- scenario runner ----------------------------------------------------------------------------
cmake_minimum_required(VERSION 3.20)

# run(<what> [EXPECT <status>|fail] [ENV VAR=V...] COMMAND ...): sets out/err in the caller.
function(run what)
  cmake_parse_arguments(PARSE_ARGV 1 R "" "EXPECT;DIR" "ENV;COMMAND")
  if(NOT DEFINED R_EXPECT)
    set(R_EXPECT 0)
  endif()
  if(NOT R_DIR)
    set(R_DIR "${WORK}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${R_ENV} ${R_COMMAND}
    WORKING_DIRECTORY "${R_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(R_EXPECT STREQUAL "fail" AND rc STREQUAL "0")
    message(FATAL_ERROR "${what}: succeeded, want a failure\nstdout:\n${o}\nstderr:\n${e}")
  elseif(NOT R_EXPECT STREQUAL "fail" AND NOT rc STREQUAL R_EXPECT)
    message(FATAL_ERROR "${what}: exit status ${rc}, want ${R_EXPECT}\nstdout:\n${o}\nstderr:\n${e}")
  endif()
  set(out "${o}" PARENT_SCOPE)
  set(err "${e}" PARENT_SCOPE)
  message(STATUS "${what}: status ${rc} as expected")
endfunction()

function(expect_match what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

function(expect_no_match what text regex)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: unexpected match for '${regex}' in:\n${text}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# The C++ seed example, clean and with a zero-depth assemble pool set before its FUNCTION.
file(READ "${EXAMPLES}/k_tmp_to_d_emb.cpp" kernel)
file(WRITE "${WORK}/k_clean.cpp" "${kernel}")
string(REPLACE "void BuildTmpToDEmb()\n{\n"
  "void BuildTmpToDEmb()\n{\n    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>{64, 0, 1});\n"
  bad "${kernel}")
if(bad STREQUAL kernel)
  message(FATAL_ERROR "the C++ seed example changed shape: cannot insert the option")
endif()
file(WRITE "${WORK}/k_bad.cpp" "${bad}")
file(WRITE "${WORK}/plain.cpp" "int plain(int x) { return x + 1; }\n")

# Given a compile command, poolcheck parses with the headers that command names, as a build on a
# machine with CANN would.  This one has none, so the test stands in a tilefwk/tilefwk.h that
# pulls in poolcheck's declaration-only stub; `inc` is what a kernel's compile command adds.
file(WRITE "${WORK}/pypto/include/tilefwk/tilefwk.h" "#include \"poolcheck_tilefwk_stub.h\"\n")
set(inc "-I${WORK}/pypto/include" "-I${STUB}")

# A compiler that records its arguments, and a ccache that records itself and runs the rest.
set(log "${WORK}/calls.log")
file(WRITE "${WORK}/bin/fakecc" "#!/bin/sh\necho \"fakecc $*\" >> '${log}'\n")
file(WRITE "${WORK}/bin/ccache" "#!/bin/sh\necho \"ccache $*\" >> '${log}'\nexec \"$@\"\n")
file(CHMOD "${WORK}/bin/fakecc" "${WORK}/bin/ccache" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(fakecc "${WORK}/bin/fakecc")

function(read_log var)
  set(text "")
  if(EXISTS "${log}")
    file(READ "${log}" text)
  endif()
  file(REMOVE "${log}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

set(pc001 "k_bad\\.cpp:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")

if(SCENARIO STREQUAL "args")
  run("PC001 kernel" EXPECT 1 COMMAND "${CC}" "${fakecc}" ${inc} -O2 -c k_bad.cpp -o k_bad.o)
  expect_match("PC001 kernel: stderr" "${err}" "${pc001}")
  expect_match("PC001 kernel: stderr" "${err}" "not compiling")
  read_log(calls)
  expect_no_match("PC001 kernel: the compiler ran" "${calls}" "fakecc")

  run("PC001 kernel, warn only" ENV POOLCHECK_CC_WARN_ONLY=1 COMMAND "${CC}" "${fakecc}" ${inc} -c k_bad.cpp -o k_bad.o)
  expect_match("warn only: stderr" "${err}" "${pc001}")
  read_log(calls)
  expect_match("warn only: the compiler ran" "${calls}" "fakecc -I[^\n]* -c k_bad.cpp -o k_bad.o\n")

  run("clean kernel" COMMAND "${CC}" "${fakecc}" ${inc} -c k_clean.cpp -o k_clean.o)
  expect_no_match("clean kernel: stderr" "${err}" "error:")
  expect_match("clean kernel: stderr" "${err}" "\\[PC009\\]")   # the kernel was analysed
  read_log(calls)
  expect_match("clean kernel: the compiler ran" "${calls}" "fakecc -I[^\n]* -c k_clean.cpp -o k_clean.o\n")

  # Arguments reach the compiler exactly; option values naming kernels are not sources.
  run("no kernel" COMMAND "${CC}" "${fakecc}" -DX=1 "-DMSG=a b" -MF k_bad.cpp -include k_bad.cpp -c plain.cpp -o plain.o)
  if(NOT err STREQUAL "")
    message(FATAL_ERROR "no kernel: poolcheck-cc printed something:\n${err}")
  endif()
  read_log(calls)
  expect_match("no kernel: arguments" "${calls}" "^fakecc -DX=1 -DMSG=a b -MF k_bad.cpp -include k_bad.cpp -c plain.cpp -o plain.o\n$")

  # CMAKE_CXX_COMPILER_LAUNCHER="poolcheck-cc;ccache": ccache is skipped to find the compiler and
  # runs the compile; the lint happens first, so a cache hit cannot skip it.
  run("ccache chain" COMMAND "${CC}" "${WORK}/bin/ccache" "${fakecc}" -c k_clean.cpp -o k_clean.o)
  read_log(calls)
  expect_match("ccache chain" "${calls}" "^ccache ${fakecc} -c k_clean.cpp -o k_clean.o\nfakecc -c k_clean.cpp")
  run("ccache chain, PC001" EXPECT 1 COMMAND "${CC}" "${WORK}/bin/ccache" "${fakecc}" ${inc} -c k_bad.cpp -o k_bad.o)
  expect_match("ccache chain, PC001" "${err}" "${pc001}")
  read_log(calls)
  if(NOT calls STREQUAL "")
    message(FATAL_ERROR "ccache chain, PC001: something ran:\n${calls}")
  endif()
  run("env chain, PC001" EXPECT 1 COMMAND "${CC}" env CCACHE_DISABLE=1 "${fakecc}" ${inc} -c k_bad.cpp)
  expect_match("env chain, PC001" "${err}" "${pc001}")

  # `-x c++` makes any name a source.
  file(COPY_FILE "${WORK}/k_bad.cpp" "${WORK}/k_bad.kernel")
  run("-x c++" EXPECT 1 COMMAND "${CC}" "${fakecc}" ${inc} -x c++ -c k_bad.kernel)
  expect_match("-x c++" "${err}" "k_bad\\.kernel:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")

  run("--set fixes it" COMMAND "${CC}" --set=stitch_function_num_per_pool=64,2,1 "${fakecc}" ${inc} -c k_bad.cpp)
  expect_no_match("--set fixes it" "${err}" "PC001")
  read_log(calls)
  # --config: tile_fwk_config.json's "runtime" section applies to the clean kernel.
  file(WRITE "${WORK}/tile_fwk_config.json" "{\"runtime\": {\"stitch_function_num_per_pool\": [64, 0, 1]}}\n")
  run("--config" EXPECT 1 COMMAND "${CC}" "--config=${WORK}/tile_fwk_config.json" "${fakecc}" ${inc} -c k_clean.cpp)
  expect_match("--config" "${err}" "tile_fwk_config\\.json:1:[0-9]+: error: [^\n]*\\[PC001\\]")
  run("--config missing" EXPECT 2 COMMAND "${CC}" "--config=${WORK}/nope.json" "${fakecc}" -c k_clean.cpp)
  expect_match("--config missing" "${err}" "nope\\.json")
  read_log(calls)
  # The .poolcheck.json governing the source applies, as on the command line.
  file(WRITE "${WORK}/.poolcheck.json" "{\"runtime\": {\"stitch_function_num_per_pool\": [64, 0, 1]}}\n")
  run(".poolcheck.json" EXPECT 1 COMMAND "${CC}" "${fakecc}" ${inc} -c k_clean.cpp)
  expect_match(".poolcheck.json" "${err}" "\\[PC001\\]")
  file(WRITE "${WORK}/.poolcheck.json" "{\"chekcs\": 1}\n")
  run(".poolcheck.json broken" EXPECT 1 COMMAND "${CC}" "${fakecc}" ${inc} -c k_clean.cpp)
  expect_match(".poolcheck.json broken" "${err}" "\\.poolcheck\\.json:1:")
  file(REMOVE "${WORK}/.poolcheck.json")
  read_log(calls)
  run("missing compiler" EXPECT 127 COMMAND "${CC}" "${WORK}/bin/no-such-cc" -c plain.cpp)
  run("unknown option" EXPECT 2 COMMAND "${CC}" --no-such-option "${fakecc}" -c plain.cpp)

elseif(SCENARIO STREQUAL "tidy")
  # CMake 3.25's CMAKE_CXX_CLANG_TIDY call: diagnostics on stdout, nothing executed.
  run("tidy: PC001" EXPECT 1 COMMAND "${CC}" --extra-arg-before=--driver-mode=g++ k_bad.cpp -- "${fakecc}" ${inc} -c k_bad.cpp -o k_bad.o)
  expect_match("tidy: stdout" "${out}" "${pc001}")
  read_log(calls)
  if(NOT calls STREQUAL "")
    message(FATAL_ERROR "tidy mode ran the compiler:\n${calls}")
  endif()
  run("tidy: clean" COMMAND "${CC}" --extra-arg-before=--driver-mode=g++ k_clean.cpp -- "${fakecc}" ${inc} -c k_clean.cpp)
  expect_no_match("tidy: clean" "${out}" "error:")
  run("tidy: no kernel" COMMAND "${CC}" --extra-arg-before=--driver-mode=g++ plain.cpp -- "${fakecc}" -c plain.cpp)
  # With -p the command comes from compile_commands.json.
  file(WRITE "${WORK}/db/compile_commands.json"
    "[{\"directory\": \"${WORK}\", \"file\": \"${WORK}/k_bad.cpp\", \"arguments\": [\"c++\", \"-std=c++17\", \"-I${WORK}/pypto/include\", \"-I${STUB}\", \"-c\", \"k_bad.cpp\"]}]\n")
  run("tidy -p: PC001" EXPECT 1 COMMAND "${CC}" -p "${WORK}/db" "${WORK}/k_bad.cpp")
  expect_match("tidy -p: stdout" "${out}" "k_bad\\.cpp:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")
  run("tidy, warn only" ENV POOLCHECK_CC_WARN_ONLY=1 COMMAND "${CC}" k_bad.cpp -- "${fakecc}" ${inc} -c k_bad.cpp)
  expect_match("tidy, warn only" "${out}" "${pc001}")

elseif(SCENARIO STREQUAL "cmake")
  # A project with a plain target, a PC001 kernel target and a clean kernel target, whose
  # kernels see the stand-in PyPTO headers.  The PC001 kernel never reaches the compiler: the lint
  # stops it.  The clean kernel is linted and compiled; the stub is declaration-only C++ that
  # clang compiles (g++ does not), so that target is built only when clang++ is here.
  file(MAKE_DIRECTORY "${WORK}/proj")
  foreach(f k_bad.cpp k_clean.cpp plain.cpp)
    file(COPY_FILE "${WORK}/${f}" "${WORK}/proj/${f}")
  endforeach()
  file(WRITE "${WORK}/proj/CMakeLists.txt" [=[
cmake_minimum_required(VERSION 3.20)
project(launcher_sample LANGUAGES CXX)
add_library(plain STATIC plain.cpp)
add_library(kernel STATIC k_bad.cpp)
add_library(good_kernel STATIC k_clean.cpp)
foreach(t kernel good_kernel)
  target_include_directories(${t} PRIVATE ${PYPTO_INCLUDE} ${POOLCHECK_STUB})
  set_target_properties(${t} PROPERTIES CXX_STANDARD 17)
endforeach()
]=])
  find_program(CLANGXX NAMES clang++ clang++-14)
  function(build_project name)
    set(b "${WORK}/build-${name}")
    set(cxx "")
    if(CLANGXX)
      set(cxx "-DCMAKE_CXX_COMPILER=${CLANGXX}")
    endif()
    run("${name}: configure" COMMAND "${CMAKE_COMMAND}" -S "${WORK}/proj" -B "${b}" -G "${GENERATOR}"
        "-DPYPTO_INCLUDE=${WORK}/pypto/include" "-DPOOLCHECK_STUB=${STUB}" ${cxx} ${ARGN})
    run("${name}: plain target" COMMAND "${CMAKE_COMMAND}" --build "${b}" --target plain)
    run("${name}: kernel target" EXPECT fail COMMAND "${CMAKE_COMMAND}" --build "${b}" --target kernel)
    expect_match("${name}: kernel build output" "${out}${err}" "k_bad\\.cpp:[0-9]+:[0-9]+: error: [^\n]*\\[PC001\\]")
    if(CLANGXX)
      run("${name}: clean kernel target" COMMAND "${CMAKE_COMMAND}" --build "${b}" --target good_kernel)
      expect_no_match("${name}: clean kernel" "${out}${err}" "error:")
    else()
      message(STATUS "${name}: clang++ not found: the clean kernel is not compiled")
    endif()
  endfunction()
  # A list value does not survive a command line intact: hand it over in an initial cache.
  file(WRITE "${WORK}/launcher-init.cmake"
    "set(CMAKE_CXX_COMPILER_LAUNCHER \"${CC};${WORK}/bin/ccache\" CACHE STRING \"\")\n")
  build_project(launcher -C "${WORK}/launcher-init.cmake")
  read_log(calls)
  expect_match("launcher: ccache ran the plain compile" "${calls}" "ccache [^\n]*plain\\.cpp")
  expect_no_match("launcher: the PC001 kernel reached ccache" "${calls}" "k_bad\\.cpp")
  if(CLANGXX)
    expect_match("launcher: ccache ran the clean kernel" "${calls}" "ccache [^\n]*k_clean\\.cpp")
  endif()
  build_project(tidy "-DCMAKE_CXX_CLANG_TIDY=${CC}")

else()
  message(FATAL_ERROR "unknown SCENARIO '${SCENARIO}'")
endif()
message(STATUS "launcher_${SCENARIO}: all steps passed")
