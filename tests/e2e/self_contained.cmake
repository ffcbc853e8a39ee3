# self_contained: no tracked file names a path outside the repository (a sibling `shared` folder,
# an up-path that climbs out of the root, a development machine's absolute path): a lone clone must build,
# test and read on its own.  self_contained_patterns runs the checker's own cases (found / not found).
add_test(NAME self_contained
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/self_contained/check.py ${CMAKE_SOURCE_DIR})
add_test(NAME self_contained_patterns
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/self_contained/check.py ${CMAKE_SOURCE_DIR} --self-test)
set_tests_properties(self_contained self_contained_patterns PROPERTIES TIMEOUT 120 LABELS e2e)
