# FindLibClang: libclang's C API through llvm-config (LLVM 14 to 19 are built and tested).
# Defines the imported target LibClang::LibClang and LibClang_VERSION / LibClang_VERSION_MAJOR.
#
# Which libclang: -DPOOLCHECK_LIBCLANG_VERSION=19 (a major version: llvm-config-19 must exist,
# Debian's llvm-19-dev + libclang-19-dev), or -DLLVM_CONFIG_EXECUTABLE=/path/to/llvm-config.
# Default: the unversioned llvm-config (Debian's default LLVM), else the newest versioned one.
# Changing the choice in an existing build directory re-runs the search.
set(POOLCHECK_LIBCLANG_VERSION "" CACHE STRING
  "LLVM major version of the libclang to build against (14-19); empty: the default llvm-config")

if(NOT "${POOLCHECK_LIBCLANG_VERSION}" STREQUAL "${_POOLCHECK_LIBCLANG_VERSION_USED}")
  # a new choice: forget what the last one found
  unset(LLVM_CONFIG_EXECUTABLE CACHE)
  unset(LibClang_INCLUDE_DIR CACHE)
  unset(LibClang_LIBRARY CACHE)
  set(_POOLCHECK_LIBCLANG_VERSION_USED "${POOLCHECK_LIBCLANG_VERSION}" CACHE INTERNAL "")
endif()

if(POOLCHECK_LIBCLANG_VERSION)
  find_program(LLVM_CONFIG_EXECUTABLE
    NAMES llvm-config-${POOLCHECK_LIBCLANG_VERSION}
    HINTS /usr/lib/llvm-${POOLCHECK_LIBCLANG_VERSION}/bin
    DOC "llvm-config used to find libclang")
  if(NOT LLVM_CONFIG_EXECUTABLE)
    message(FATAL_ERROR "POOLCHECK_LIBCLANG_VERSION=${POOLCHECK_LIBCLANG_VERSION}: no llvm-config-${POOLCHECK_LIBCLANG_VERSION} "
      "(Debian: apt-get install llvm-${POOLCHECK_LIBCLANG_VERSION}-dev libclang-${POOLCHECK_LIBCLANG_VERSION}-dev)")
  endif()
else()
  find_program(LLVM_CONFIG_EXECUTABLE
    NAMES llvm-config llvm-config-19 llvm-config-18 llvm-config-17 llvm-config-16 llvm-config-15 llvm-config-14
    DOC "llvm-config used to find libclang")
endif()
if(LLVM_CONFIG_EXECUTABLE)
  execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --includedir OUTPUT_VARIABLE _llvm_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --libdir OUTPUT_VARIABLE _llvm_lib OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --version OUTPUT_VARIABLE LibClang_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX MATCH "^[0-9]+" LibClang_VERSION_MAJOR "${LibClang_VERSION}")
endif()
# llvm-config's own directories first and only: another LLVM's clang-c/ or libclang.so in a
# system directory must not be mixed in
find_path(LibClang_INCLUDE_DIR clang-c/Index.h HINTS ${_llvm_inc} NO_DEFAULT_PATH)
find_path(LibClang_INCLUDE_DIR clang-c/Index.h)
find_library(LibClang_LIBRARY NAMES clang libclang clang-${LibClang_VERSION_MAJOR} HINTS ${_llvm_lib} NO_DEFAULT_PATH)
find_library(LibClang_LIBRARY NAMES clang libclang clang-${LibClang_VERSION_MAJOR})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibClang REQUIRED_VARS LibClang_LIBRARY LibClang_INCLUDE_DIR VERSION_VAR LibClang_VERSION)
if(LibClang_FOUND AND LibClang_VERSION VERSION_LESS 14)
  message(FATAL_ERROR "libclang ${LibClang_VERSION} is too old: poolcheck needs LLVM 14 or newer")
endif()
if(LibClang_FOUND AND POOLCHECK_LIBCLANG_VERSION AND NOT LibClang_VERSION_MAJOR STREQUAL POOLCHECK_LIBCLANG_VERSION)
  message(FATAL_ERROR "POOLCHECK_LIBCLANG_VERSION=${POOLCHECK_LIBCLANG_VERSION} but ${LLVM_CONFIG_EXECUTABLE} is LLVM ${LibClang_VERSION}")
endif()
if(LibClang_FOUND AND NOT TARGET LibClang::LibClang)
  add_library(LibClang::LibClang UNKNOWN IMPORTED)
  set_target_properties(LibClang::LibClang PROPERTIES
    IMPORTED_LOCATION "${LibClang_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LibClang_INCLUDE_DIR}")
endif()
mark_as_advanced(LLVM_CONFIG_EXECUTABLE LibClang_INCLUDE_DIR LibClang_LIBRARY)
