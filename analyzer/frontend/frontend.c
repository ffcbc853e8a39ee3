/* frontend.c - choose the frontend for a file and run it. */
#define _POSIX_C_SOURCE 200809L
#include "frontend_int.h"

#include <string.h>
#include <strings.h>

pc_frontend *pc_frontend_new(void) { return pc_mem_calloc(1, sizeof(pc_frontend)); }

void pc_frontend_free(pc_frontend *fe)
{
    if (!fe)
        return;
    if (fe->clang)
        pc_clang_state_free(fe->clang);
    pc_mem_free(fe);
}

void pc_frontend_release(pc_frontend *fe, const char *path)
{
    if (fe && fe->clang && path)
        pc_clang_release(fe->clang, path);
}

pc_lang pc_frontend_lang_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return PC_LANG_UNKNOWN;
    static const char *cpp[] = {".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx", ".C"};
    if (strcasecmp(dot, ".py") == 0 || strcasecmp(dot, ".pyi") == 0)
        return PC_LANG_PYTHON;
    for (size_t i = 0; i < sizeof cpp / sizeof *cpp; i++)
        if (strcmp(dot, cpp[i]) == 0)
            return PC_LANG_CPP;
    return PC_LANG_UNKNOWN;
}

pc_model *pc_frontend_parse(pc_frontend *fe, const char *path, const char *text, size_t len,
                            const pc_parse_opts *opts)
{
    pc_parse_opts none;
    if (!opts) {
        memset(&none, 0, sizeof none);
        opts = &none;
    }
    pc_lang lang = opts->lang != PC_LANG_UNKNOWN ? opts->lang : pc_frontend_lang_of(path);
    if (lang == PC_LANG_PYTHON)
        return pc_py_parse(path, text, len, opts);
    if (lang == PC_LANG_CPP)
        return pc_clang_parse(fe, path, text, len, opts);
    pc_model *m = pc_model_new(path, PC_LANG_UNKNOWN);
    pc_model_add_message(m, PC_MSG_FATAL, pc_model_loc(m, path, 1, 1, 0, 0),
                         "cannot tell the language of this file from its extension (use --lang=cpp|python)");
    return m;
}
