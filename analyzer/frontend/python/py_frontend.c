/* PLACEHOLDER (owner: python frontend) - replaced by the real CPython-ast frontend. */
#include "frontend/frontend_int.h"
pc_model *pc_py_parse(const char *path, const char *text, size_t len, const pc_parse_opts *opts)
{
    (void)text; (void)len; (void)opts;
    pc_model *m = pc_model_new(path, PC_LANG_PYTHON);
    pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0), "Python frontend not built yet");
    return m;
}
