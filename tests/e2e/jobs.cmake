# check -j N writes what one process writes: tests/e2e/jobs/equal.sh compares
# -j 2 and -j 3 with -j 1 byte for byte (stdout, stderr, exit status) in every format over a
# mixed set of inputs.
if(TARGET poolcheck)
  add_test(NAME jobs_equal
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/jobs/equal.sh $<TARGET_FILE:poolcheck> ${CMAKE_SOURCE_DIR}
            ${CMAKE_BINARY_DIR}/e2e/jobs_equal)
  set_tests_properties(jobs_equal PROPERTIES TIMEOUT 300 LABELS e2e)
endif()
