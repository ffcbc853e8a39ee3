# PoolcheckLint.cmake - poolcheck_lint(): lint a target's PyPTO kernels at build time.
#
#   poolcheck_lint(<target>
#                  [CONFIG <tile_fwk_config.json>]   # its "runtime" section applies (--config)
#                  [WARNINGS_AS_ERRORS]              # warnings fail the build too
#                  [SOURCES <file>...]               # more kernels, e.g. .py files the target
#                                                    # does not compile (relative: to the caller)
#                  [ARGS <poolcheck check option>...])  # e.g. --bind n=128 --checks=-PC009
#
# Every C++ (.cpp .cc .cxx .c++ .h .hpp .hh .hxx) and Python (.py) file in the target's SOURCES,
# plus SOURCES given here, gets one custom command running `poolcheck check` on it and touching a
# stamp, so only edited files are linted again.  The target depends on them: a failing lint
# (an error-level finding, exit 1) stops the build before the target compiles, with the
# diagnostics printed by the build tool.  C++ files are analysed with the target's include
# directories, definitions, options and C++ standard (`-- <compiler> <flags>`).
#
# Works with the installed package (poolcheck::poolcheck) and inside poolcheck's own build
# (the `poolcheck` target).  Files named with generator expressions are skipped.
include_guard(GLOBAL)

function(poolcheck_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 PCL "WARNINGS_AS_ERRORS" "CONFIG" "SOURCES;ARGS")
  if(PCL_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "poolcheck_lint(${target}): unexpected arguments: ${PCL_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "poolcheck_lint: '${target}' is not a target")
  endif()
  if(TARGET poolcheck::poolcheck)
    set(exe poolcheck::poolcheck)
  elseif(TARGET poolcheck)
    set(exe poolcheck)
  else()
    message(FATAL_ERROR "poolcheck_lint: no poolcheck executable (find_package(poolcheck) first)")
  endif()

  get_target_property(target_dir ${target} SOURCE_DIR)
  get_target_property(target_sources ${target} SOURCES)
  if(NOT target_sources)
    set(target_sources "")
  endif()
  set(files "")
  foreach(src IN LISTS target_sources)
    if(NOT src MATCHES "\\$<")
      get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${target_dir}")
      list(APPEND files "${abs}")
    endif()
  endforeach()
  foreach(src IN LISTS PCL_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "poolcheck_lint(${target}): SOURCES file '${src}' does not exist")
    endif()
    list(APPEND files "${abs}")
  endforeach()
  list(REMOVE_DUPLICATES files)

  set(common check --no-summary --color=never)
  set(depends "$<TARGET_FILE:${exe}>")
  if(PCL_CONFIG)
    get_filename_component(config "${PCL_CONFIG}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND common --config "${config}")
    list(APPEND depends "${config}")
  endif()
  if(PCL_WARNINGS_AS_ERRORS)
    list(APPEND common "--warnings-as-errors=*")
  endif()
  list(APPEND common ${PCL_ARGS})

  # The compile command poolcheck's C++ frontend reads flags from (it keeps -I/-D/-std and drops
  # what does not apply to parsing).
  set(cxx "${CMAKE_CXX_COMPILER}")
  if(NOT cxx)
    set(cxx c++)
  endif()
  set(tp "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(td "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(to "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>")
  set(ts "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  # $<SEMICOLON>, not ';': the list is split into arguments only after the generator
  # expressions are evaluated (COMMAND_EXPAND_LISTS); empty results vanish.
  set(cxx_command -- "${cxx}"
    "$<$<BOOL:${ts}>:-std=c++${ts}>"
    "$<$<BOOL:${tp}>:-I$<JOIN:${tp},$<SEMICOLON>-I>>"
    "$<$<BOOL:${td}>:-D$<JOIN:${td},$<SEMICOLON>-D>>"
    "${to}")

  set(stamp_dir "${CMAKE_CURRENT_BINARY_DIR}/poolcheck_lint/${target}")
  file(MAKE_DIRECTORY "${stamp_dir}")
  set(stamps "")
  foreach(file IN LISTS files)
    if(file MATCHES "\\.py$")
      set(tail "")
    elseif(file MATCHES "\\.(cpp|cc|cxx|c\\+\\+|h|hpp|hh|hxx)$")
      set(tail ${cxx_command})
    else()
      continue()
    endif()
    get_filename_component(name "${file}" NAME)
    string(SHA1 hash "${file}")
    string(SUBSTRING "${hash}" 0 10 hash)
    set(stamp "${stamp_dir}/${name}.${hash}.stamp")
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${file}")
    add_custom_command(OUTPUT "${stamp}"
      COMMAND ${exe} ${common} "${file}" ${tail}
      COMMAND ${CMAKE_COMMAND} -E touch "${stamp}"
      DEPENDS "${file}" ${depends}
      COMMENT "poolcheck ${shown}"
      VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND stamps "${stamp}")
  endforeach()
  if(NOT stamps)
    message(WARNING "poolcheck_lint(${target}): no C++ or Python file to lint")
    return()
  endif()
  add_custom_target(${target}_poolcheck DEPENDS ${stamps})
  add_dependencies(${target} ${target}_poolcheck)
endfunction()
