# FindLibClang: libclang's C API through llvm-config (any LLVM 14 or newer).
# Defines the imported target LibClang::LibClang.
find_program(LLVM_CONFIG_EXECUTABLE
  NAMES llvm-config llvm-config-19 llvm-config-18 llvm-config-17 llvm-config-16 llvm-config-15 llvm-config-14
  DOC "llvm-config used to find libclang")
if(LLVM_CONFIG_EXECUTABLE)
  execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --includedir OUTPUT_VARIABLE _llvm_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --libdir OUTPUT_VARIABLE _llvm_lib OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --version OUTPUT_VARIABLE LibClang_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
find_path(LibClang_INCLUDE_DIR clang-c/Index.h HINTS ${_llvm_inc})
find_library(LibClang_LIBRARY NAMES clang libclang clang-14 HINTS ${_llvm_lib})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibClang REQUIRED_VARS LibClang_LIBRARY LibClang_INCLUDE_DIR VERSION_VAR LibClang_VERSION)
if(LibClang_FOUND AND LibClang_VERSION VERSION_LESS 14)
  message(FATAL_ERROR "libclang ${LibClang_VERSION} is too old: poolcheck needs LLVM 14 or newer")
endif()
if(LibClang_FOUND AND NOT TARGET LibClang::LibClang)
  add_library(LibClang::LibClang UNKNOWN IMPORTED)
  set_target_properties(LibClang::LibClang PROPERTIES
    IMPORTED_LOCATION "${LibClang_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LibClang_INCLUDE_DIR}")
endif()
mark_as_advanced(LLVM_CONFIG_EXECUTABLE LibClang_INCLUDE_DIR LibClang_LIBRARY)
