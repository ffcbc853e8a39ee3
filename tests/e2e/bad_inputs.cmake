# check_bad_inputs (tests/unit/check_bad_inputs.c): the bad-input manifest, generated inputs, and
# the fuzz crash replays, which run through the fuzz harnesses themselves: fuzz/fuzz_<t>.c is
# compiled in with its entry point renamed to pc_fuzz_<t> (no libFuzzer needed).
if(TARGET check_bad_inputs)
  foreach(t logs config_file project model_json options lsp)
    set(_src ${CMAKE_SOURCE_DIR}/fuzz/fuzz_${t}.c)
    target_sources(check_bad_inputs PRIVATE ${_src})
    set_source_files_properties(${_src} PROPERTIES COMPILE_DEFINITIONS FUZZ_ENTRY=pc_fuzz_${t})
  endforeach()
  target_include_directories(check_bad_inputs PRIVATE ${CMAKE_SOURCE_DIR}/fuzz)
  target_link_libraries(check_bad_inputs PRIVATE pc_lsp_core ZLIB::ZLIB)
  # the 100 MB inputs and the CLI cases take a while; poolcheck and poolcheck-lsp must be built
  add_dependencies(check_bad_inputs poolcheck poolcheck-lsp)
  set_tests_properties(check_bad_inputs PROPERTIES TIMEOUT 1800)
endif()
