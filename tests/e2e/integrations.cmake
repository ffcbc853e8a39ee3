# integration_settings: the editor settings in docs/integrations.md are one sample, written alike
# for VS Code, Neovim and Emacs, and poolcheck-lsp with that sample reports no PC004, no settings
# error and no binding warning on the seed example in default and precise mode.
add_test(NAME integration_settings
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/integrations/check_settings.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(integration_settings PROPERTIES TIMEOUT 300 LABELS e2e)
