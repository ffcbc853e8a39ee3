/* PLACEHOLDER (owner: clang frontend) - replaced by the real libclang frontend. */
#include "frontend/frontend_int.h"
struct pc_clang_state { int unused; };
void pc_clang_state_free(struct pc_clang_state *st) { pc_mem_free(st); }
pc_model *pc_clang_parse(pc_frontend *fe, const char *path, const char *text, size_t len, const pc_parse_opts *opts)
{
    (void)fe; (void)text; (void)len; (void)opts;
    pc_model *m = pc_model_new(path, PC_LANG_CPP);
    pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0), "C++ frontend not built yet");
    return m;
}
