# stub_hermetic: a stub-mode parse never depends on what the machine has installed.  Every C++
# fixture and example is checked three ways - as it is, with a folder of poisoned headers (each an
# #error) on CPLUS_INCLUDE_PATH / CPATH / C_INCLUDE_PATH, and with that folder as an -I - and the
# three outputs must be byte-identical with no poisoned header reached (README "How it works").
add_test(NAME stub_hermetic
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/stub_hermetic/check.py
          $<TARGET_FILE:poolcheck> ${CMAKE_SOURCE_DIR})
set_tests_properties(stub_hermetic PROPERTIES TIMEOUT 600 LABELS e2e)
