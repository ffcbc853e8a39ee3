/* PLACEHOLDER (owner: model JSON) - replaced by the real (de)serialiser. */
#include "model_int.h"
#include <string.h>
char *pc_model_to_json(const pc_model *m) { (void)m; return pc_mem_strdup("{}"); }
pc_model *pc_model_from_json(const char *text, size_t len, char **err) { (void)text; (void)len; if (err) *err = pc_mem_strdup("not implemented"); return NULL; }
bool pc_model_equal(const pc_model *a, const pc_model *b, char *where, size_t n) { (void)a; (void)b; if (n) where[0] = 0; return false; }
