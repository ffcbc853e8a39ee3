# Install rules and the CMake package, included (OPTIONAL) by the top-level CMakeLists.txt.
#
#   <prefix>/bin/poolcheck, poolcheck-lsp, poolcheck-cc
#   <prefix>/lib/libpoolcheck.a, <prefix>/include/poolcheck/*.h
#   <prefix>/share/poolcheck/stub/          the stub PyPTO headers the C++ frontend parses against
#   <prefix>/share/doc/poolcheck/checks/    the check pages diagnostics link to
#   <prefix>/share/doc/poolcheck/           README.md, docs/ (model.md, integrations.md, ...),
#                                           examples/ (the seed kernels and sample logs)
#   <prefix>/share/man/man1/                poolcheck.1, poolcheck-lsp.1, poolcheck-cc.1, made at
#                                           build time from each tool's --help (cmake/man.py)
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
# The C++ frontend module the CLI loads on its first C++ file (analyzer/frontend/frontend.c looks
# for it in <bin>/../<libdir>/poolcheck).
if(TARGET poolcheck_clang)
  install(TARGETS poolcheck_clang LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/poolcheck)
endif()
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
# The user documentation, laid out as in the source tree so that its relative links hold.
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  PATTERN dev EXCLUDE PATTERN "*.py" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# Man pages: each tool's --help, turned into roff by cmake/man.py whenever the tool is rebuilt, so
# the page and --help cannot disagree.  `man -l build/man/poolcheck.1` reads one in place.
set(_pc_man_dir ${CMAKE_BINARY_DIR}/man)
set(_pc_man_pages)
foreach(_t ${_pc_tools})
  set(_subs)
  if(_t STREQUAL "poolcheck")
    set(_subs check model logs plan rule)
  endif()
  add_custom_command(OUTPUT ${_pc_man_dir}/${_t}.1
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_pc_man_dir}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/man.py ${_pc_man_dir}/${_t}.1 ${_t}
            ${PROJECT_VERSION} $<TARGET_FILE:${_t}> ${_subs}
    DEPENDS ${_t} ${CMAKE_CURRENT_LIST_DIR}/man.py
    COMMENT "Man page ${_t}.1 from ${_t} --help"
    VERBATIM)
  list(APPEND _pc_man_pages ${_pc_man_dir}/${_t}.1)
endforeach()
add_custom_target(man ALL DEPENDS ${_pc_man_pages})
install(FILES ${_pc_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

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
