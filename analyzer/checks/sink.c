/* PLACEHOLDER (owner: checks) - replaced by the real diagnostics sink and check table. */
#include "poolcheck/diag.h"
#include "support/support.h"
struct pc_diag_sink { PC_VEC(pc_diag) diags; };
const char *pc_severity_name(pc_severity s) { return s == PC_SEV_ERROR ? "error" : s == PC_SEV_WARNING ? "warning" : "note"; }
const pc_check_info *pc_chk_table(size_t *count) { *count = 0; return NULL; }
int pc_chk_find(const char *x) { (void)x; return -1; }
pc_diag_sink *pc_diag_sink_new(void) { return pc_mem_calloc(1, sizeof(pc_diag_sink)); }
void pc_diag_sink_free(pc_diag_sink *s) { if (s) { PC_VEC_FREE(s->diags); pc_mem_free(s); } }
bool pc_diag_set_checks(pc_diag_sink *s, const char *g, const char **err) { (void)s; (void)g; (void)err; return true; }
bool pc_diag_set_werror(pc_diag_sink *s, const char *g, const char **err) { (void)s; (void)g; (void)err; return true; }
void pc_diag_set_max(pc_diag_sink *s, int n) { (void)s; (void)n; }
void pc_diag_set_source(pc_diag_sink *s, const char *f, const char *t, size_t n, pc_lang l) { (void)s; (void)f; (void)t; (void)n; (void)l; }
pc_diag *pc_diag_report(pc_diag_sink *s, int check, pc_loc loc, const char *kernel, const char *fmt, ...) { (void)s; (void)check; (void)loc; (void)kernel; (void)fmt; return NULL; }
void pc_diag_note(pc_diag_sink *s, pc_diag *d, pc_loc loc, const char *fmt, ...) { (void)s; (void)d; (void)loc; (void)fmt; }
void pc_diag_fix(pc_diag_sink *s, pc_diag *d, pc_loc r, const char *t) { (void)s; (void)d; (void)r; (void)t; }
pc_diag *pc_diag_message(pc_diag_sink *s, pc_severity sev, pc_loc loc, const char *text) { (void)s; (void)sev; (void)loc; (void)text; return NULL; }
const pc_diag *pc_diag_items(const pc_diag_sink *s, size_t *count) { *count = s->diags.count; return s->diags.items; }
size_t pc_diag_count(const pc_diag_sink *s, pc_severity sev) { (void)s; (void)sev; return 0; }
size_t pc_diag_suppressed(const pc_diag_sink *s) { (void)s; return 0; }
void pc_lint(pc_diag_sink *s, const pc_lint_input *in) { (void)s; (void)in; }
