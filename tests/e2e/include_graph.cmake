# include_graph: every #include under analyzer/, plugin/ and include/ is an arrow that the table of
# docs/architecture.md allows.  include_graph_patterns runs the checker's own cases
# (a clean tree passes; report -> driver, analysis -> libclang and an unresolved include fail).
add_test(NAME include_graph
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/include_graph/check.py ${CMAKE_SOURCE_DIR})
add_test(NAME include_graph_patterns
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/include_graph/check.py --self-test)
set_tests_properties(include_graph include_graph_patterns PROPERTIES TIMEOUT 60 LABELS e2e)
