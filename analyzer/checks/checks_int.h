/*
 * checks_int.h - internal header of the checks module (analyzer/checks/).
 *
 *   checks.def    the table of checks (id, name, severity, summary, docs): the one place a check
 *                 is registered; the enum and prototypes below are generated from it
 *   table.c       the registry built from checks.def and pc_lint, which runs each selected check
 *                 over one analysed file
 *   sink.c        the diagnostics sink: selection, promotion, NOLINT/noqa suppression, caps
 *   helpers.c     what several checks share: triples, option locations, notes, fixes
 *   pcNNN_*.c     one file per check (docs/model.md section 9)
 *   docgen/       gen_check_docs, which writes docs/checks/ from checks.def (not in the library)
 */
#ifndef POOLCHECK_CHECKS_INT_H
#define POOLCHECK_CHECKS_INT_H

#include "poolcheck/diag.h"
#include "support/support.h"

/* Index of each check in the table (checks.def); the order is the table's (and the ids'). */
enum {
#define PC_CHECK(enum_, id, name, sev, fn, ...) PC_CHK_##enum_,
#define PC_FRONTEND_NOTE(enum_, id, name, sev, ...) PC_CHK_##enum_,
#include "checks/checks.def"
    PC_CHK_COUNT
};

/* ---- table.c ---------------------------------------------------------------------------------- */

/* Everything one pc_lint run shares between checks. */
typedef struct pc_chk_ctx {
    pc_diag_sink *sink;
    const pc_lint_input *in;
    const pc_model *model;
    pc_arena *arena;                 /* scratch for this run (messages are copied by the sink) */
    /* Per-option diagnostics are reported once even when the option applies to many kernels. */
    PC_VEC(const void *) seen;
} pc_chk_ctx;

typedef void (*pc_chk_fn)(pc_chk_ctx *c);

/* One function per check file (checks.def names it). */
#define PC_CHECK(enum_, id, name, sev, fn, ...) void fn(pc_chk_ctx *c);
#define PC_FRONTEND_NOTE(enum_, id, name, sev, ...)
#include "checks/checks.def"

/* ---- helpers.c -------------------------------------------------------------------------------- */

/* Number of kernels with a result to check (0 when the file could not be analysed). */
int pc_chk_nkernels(const pc_chk_ctx *c);
const pc_result *pc_chk_result(const pc_chk_ctx *c, int kernel);   /* NULL when none */
const pc_runtime_config *pc_chk_cfg(const pc_chk_ctx *c, int kernel);

/* A check of the configured depths of one kernel: the kernel, its result and its runtime config. */
typedef void (*pc_chk_precise_fn)(pc_chk_ctx *c, const pc_kernel *kern, const pc_result *r,
                                  const pc_runtime_config *cfg);
/* Run judge on every kernel, in order, that has a result and runs in precise mode (the kernels
 * whose configured options the runtime validates: PC001, PC004, PC006, PC007, PC011). */
void pc_chk_each_precise_kernel(pc_chk_ctx *c, pc_chk_precise_fn judge);

/* True the first time (check, key) is seen in this run (per-option deduplication). */
bool pc_chk_first(pc_chk_ctx *c, int check, const void *key);

/* "[64, 2, 1]" (arena). */
const char *pc_chk_triple(pc_chk_ctx *c, const int64_t d[3]);
/* "stitch_function_num_per_pool[1] (assemble_outcast)" (static per pool). */
const char *pc_chk_pool_label(int pool);

bool pc_chk_loc_known(pc_loc l);
/* Where an option's value is (its extent when known, else the option, else an unknown loc). */
pc_loc pc_chk_option_loc(const pc_option *o);
/* The option's value as PC002/PC003 judge it.  From a JSON file (tile_fwk_config.json,
 * .poolcheck.json) nothing is left to evaluate at run time, so a value kept as "unknown" is a JSON
 * object, which no option takes: it is judged as the text it is (invalid), not skipped. */
const pc_optval *pc_chk_judged_value(pc_chk_ctx *c, const pc_option *o);
/* PC002's and PC003's report: when o's judged value is one pc_cfg_validate refuses (None, "no
 * change", and a value poolcheck cannot evaluate are not known to be bad), report check `check`
 * with its message at the value (adding "(set by <site>)" when the value has no location) and
 * return the diagnostic; NULL when the value is valid or the diagnostic was filtered. */
pc_diag *pc_chk_report_invalid_option(pc_chk_ctx *c, int check, const pc_option *o);
/* Primary location of a kernel-level finding about an option: the option value when it has a
 * location in a file, else the kernel. */
pc_loc pc_chk_primary(const pc_option *o, const pc_kernel *k);
/* How the option was written, for messages: "set_runtime_options", "jit(runtime_options=...)",
 * "config::SetRuntimeOption", "tile_fwk_config.json", ".poolcheck.json", "--set". */
const char *pc_chk_site_name(const pc_option *o);

/* Notes. */
void pc_chk_note_option(pc_chk_ctx *c, pc_diag *d, const pc_option *o, pc_loc primary);
void pc_chk_note_kernel(pc_chk_ctx *c, pc_diag *d, const pc_kernel *k, pc_loc primary);
/* One note per tensor of `pool` (at most a handful, then "and N more"); returns how many
 * tensors use the pool. */
int pc_chk_note_pool_tensors(pc_chk_ctx *c, pc_diag *d, const pc_result *r, int pool);
/* "'a', 'b' and 'c'" naming the tensors of `pool` (arena; "" when none). */
const char *pc_chk_pool_tensor_names(pc_chk_ctx *c, const pc_result *r, int pool);

/* The triple to write into option o: the element-wise maximum of `suggested` over the kernels
 * o configures (those whose effective pool option is o, else those it targets).  False when
 * no kernel has a result. */
bool pc_chk_suggest_for_option(pc_chk_ctx *c, const pc_option *o, int64_t out[3]);
/* Attach a fix that replaces o's value with the triple t, spelled as the source spells it. */
void pc_chk_fix_pool_value(pc_chk_ctx *c, pc_diag *d, const pc_option *o, const int64_t t[3]);
/* What a finding about kernel k's configured pool option src (reported at `at`) adds after its
 * message: the note on the option, the note on the kernel, and the fix writing `fix` into the option
 * when fix is not NULL. */
void pc_chk_pool_finding_tail(pc_chk_ctx *c, pc_diag *d, const pc_option *src, const pc_kernel *k, pc_loc at,
                              const int64_t *fix);
/* Attach a fix inserting `stitch_function_num_per_pool = t` as an options call at
 * k->insert_loc (Python: pypto.experimental.set_runtime_options; C++: config::SetRuntimeOption). */
void pc_chk_fix_insert_call(pc_chk_ctx *c, pc_diag *d, const pc_kernel *k, const int64_t t[3]);

/* The source text of a location's file, as given to the sink (NULL when none). */
const char *pc_chk_source(const pc_chk_ctx *c, const char *file, size_t *len);
/* Byte offset of (line, col) in text, or -1 when outside it. */
long pc_chk_offset(const char *text, size_t len, uint32_t line, uint32_t col);

/* ---- sink.c (used by table.c) ----------------------------------------------------------------- */
/* Does a suppression comment cover (check, loc)? */
bool pc_diag_is_suppressed(const pc_diag_sink *s, int check, pc_loc loc);

#endif
