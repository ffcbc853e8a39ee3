# Install rules and the CMake package, included (OPTIONAL) by the top-level CMakeLists.txt.
#
#   <prefix>/bin/poolcheck, poolcheck-lsp, poolcheck-cc
#   <prefix>/lib/libpoolcheck.a, <prefix>/include/poolcheck/*.h
#   <prefix>/share/poolcheck/stub/          the stub PyPTO headers the C++ frontend parses against
#   <prefix>/share/doc/poolcheck/checks/    the check pages diagnostics link to
#   <prefix>/lib/cmake/poolcheck/           find_package(poolcheck): poolcheck::poolcheck (the
#                                           executable), poolcheck::poolcheck-lsp, poolcheck::poolcheck-cc,
#                                           poolcheck_lint(); with COMPONENTS library also
#                                           poolcheck::libpoolcheck (needs cJSON, libclang, Python, zlib)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(POOLCHECK_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/poolcheck"
    CACHE STRING "Where the poolcheck CMake package files are installed, relative to the prefix")
set(POOLCHECK_INSTALL_STUBDIR "${CMAKE_INSTALL_DATADIR}/poolcheck/stub")

# The tools.  Executables carry no link interface, so their export set needs nothing else.
set(_pc_tools poolcheck)
foreach(_t poolcheck-lsp poolcheck-cc)
  if(TARGET ${_t})
    list(APPEND _pc_tools ${_t})
  endif()
endforeach()
install(TARGETS ${_pc_tools} EXPORT poolcheckToolTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT poolcheckToolTargets NAMESPACE poolcheck::
  FILE poolcheckTargets.cmake DESTINATION ${POOLCHECK_INSTALL_CMAKEDIR})

# The library, in its own export set: its link interface names cJSON, libclang, Python and zlib,
# which only users of COMPONENTS library should have to find.
set_target_properties(poolcheck_lib PROPERTIES EXPORT_NAME libpoolcheck)
install(TARGETS poolcheck_lib EXPORT poolcheckLibTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT poolcheckLibTargets NAMESPACE poolcheck::
  FILE poolcheckLibTargets.cmake DESTINATION ${POOLCHECK_INSTALL_CMAKEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/poolcheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

if(EXISTS ${CMAKE_SOURCE_DIR}/analyzer/frontend/clang/stub)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/analyzer/frontend/clang/stub/
    DESTINATION ${POOLCHECK_INSTALL_STUBDIR})
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/docs/checks)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/checks/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/checks)
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/poolcheckConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/poolcheckConfig.cmake
  INSTALL_DESTINATION ${POOLCHECK_INSTALL_CMAKEDIR}
  PATH_VARS POOLCHECK_INSTALL_STUBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/poolcheckConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/cmake/poolcheckConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/poolcheckConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/PoolcheckLint.cmake
  ${CMAKE_CURRENT_LIST_DIR}/FindLibClang.cmake
  DESTINATION ${POOLCHECK_INSTALL_CMAKEDIR})
