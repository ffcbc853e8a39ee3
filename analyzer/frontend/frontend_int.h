/* frontend_int.h - internal header shared by the frontend dispatcher and the language frontends. */
#ifndef POOLCHECK_FRONTEND_INT_H
#define POOLCHECK_FRONTEND_INT_H

#include "poolcheck/frontend.h"
#include "support/support.h"

/* Per-session state of the libclang frontend (CXIndex, kept TUs); defined in frontend/clang/. */
struct pc_clang_state;
void pc_clang_state_free(struct pc_clang_state *st);
/* Dispose the translation unit kept for path, if any. */
void pc_clang_release(struct pc_clang_state *st, const char *path);

struct pc_frontend {
    struct pc_clang_state *clang;   /* created lazily by pc_clang_parse */
};

#endif
