# cmake_package: install poolcheck into a scratch prefix, then build tests/e2e/cmake_project
# against it (find_package(poolcheck), poolcheck_lint, poolcheck::libpoolcheck).  A kernel with a
# zero-depth pool must fail the build with PC001; the fixed kernel must build.
add_test(NAME cmake_package
  COMMAND ${CMAKE_COMMAND}
    -DPOOLCHECK_BUILD=${CMAKE_BINARY_DIR}
    -DPROJECT_SRC=${CMAKE_CURRENT_LIST_DIR}/cmake_project
    -DEXAMPLES=${CMAKE_SOURCE_DIR}/examples
    -DWORK=${CMAKE_BINARY_DIR}/e2e/cmake_package
    "-DGENERATOR=${CMAKE_GENERATOR}"
    -P ${CMAKE_CURRENT_LIST_DIR}/cmake_project/run.cmake)
set_tests_properties(cmake_package PROPERTIES TIMEOUT 900 LABELS e2e)
