# valgrind on the CLI over the bundled examples: no definite leak, no memory error.
find_program(VALGRIND_EXECUTABLE valgrind)
if(VALGRIND_EXECUTABLE)
  foreach(example k_tmp_to_d_emb.py k_tmp_to_d_emb.cpp)
    add_test(NAME valgrind_check_${example}
      COMMAND ${VALGRIND_EXECUTABLE} -q --error-exitcode=1 --leak-check=full
              --errors-for-leak-kinds=definite --show-leak-kinds=definite
              --suppressions=${CMAKE_CURRENT_LIST_DIR}/valgrind.supp
              $<TARGET_FILE:poolcheck> check --no-config-lookup --format=json ${CMAKE_SOURCE_DIR}/examples/${example})
    set_tests_properties(valgrind_check_${example} PROPERTIES TIMEOUT 600)
  endforeach()
  add_test(NAME valgrind_model_cpp
    COMMAND ${VALGRIND_EXECUTABLE} -q --error-exitcode=1 --leak-check=full
            --errors-for-leak-kinds=definite --show-leak-kinds=definite
            --suppressions=${CMAKE_CURRENT_LIST_DIR}/valgrind.supp
            $<TARGET_FILE:poolcheck> model ${CMAKE_SOURCE_DIR}/examples/k_tmp_to_d_emb.cpp)
  set_tests_properties(valgrind_model_cpp PROPERTIES TIMEOUT 600)
else()
  message(WARNING "valgrind not found: the valgrind tests are not registered (scripts/install-deps.sh installs it)")
endif()
