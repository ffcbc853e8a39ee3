/*
 * checks_int.h - internal header of the checks module (analyzer/checks/).
 *
 *   table.c       the check table (the single registry) and pc_lint, which runs each selected
 *                 check over one analysed file
 *   sink.c        the diagnostics sink: selection, promotion, NOLINT/noqa suppression, caps
 *   helpers.c     what several checks share: triples, option locations, notes, fixes
 *   pcNNN_*.c     one file per check (docs/model.md section 9)
 */
#ifndef POOLCHECK_CHECKS_INT_H
#define POOLCHECK_CHECKS_INT_H

#include "poolcheck/diag.h"
#include "support/support.h"

/* Index of each check in the table; the order is the table's (and the ids'). */
enum {
    PC_CHK_ZERO_DEPTH_POOL,         /* PC001 */
    PC_CHK_INVALID_POOL_OPTION,     /* PC002 */
    PC_CHK_INVALID_RUNTIME_OPTION,  /* PC003 */
    PC_CHK_IGNORED_OPTION,          /* PC004 */
    PC_CHK_OPTION_IN_KERNEL,        /* PC005 */
    PC_CHK_POOL_TOO_SHALLOW,        /* PC006 */
    PC_CHK_POOL_TOO_DEEP,           /* PC007 */
    PC_CHK_UNKNOWN_TRIP_COUNT,      /* PC008 */
    PC_CHK_SUGGEST_PRECISE_CONFIG,  /* PC009 */
    PC_CHK_WORKSPACE_BUDGET,        /* PC010 */
    PC_CHK_ASSEMBLE_NO_HEADROOM,    /* PC011 */
    PC_CHK_UNANALYSED_REGION,       /* PC012 */
    PC_CHK_SHAPE_NOT_INFERRED,      /* PC013: a frontend note (pc_message.check) */
    PC_CHK_UNEVALUATED_LOOP_BOUND,  /* PC014: a frontend note (pc_message.check) */
    PC_CHK_TILE_SPLIT_UNKNOWN,      /* PC015 */
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

/* One function per check file. */
void pc_chk_zero_depth_pool(pc_chk_ctx *c);
void pc_chk_invalid_pool_option(pc_chk_ctx *c);
void pc_chk_invalid_runtime_option(pc_chk_ctx *c);
void pc_chk_ignored_option(pc_chk_ctx *c);
void pc_chk_option_in_kernel(pc_chk_ctx *c);
void pc_chk_pool_too_shallow(pc_chk_ctx *c);
void pc_chk_pool_too_deep(pc_chk_ctx *c);
void pc_chk_unknown_trip_count(pc_chk_ctx *c);
void pc_chk_suggest_precise_config(pc_chk_ctx *c);
void pc_chk_workspace_budget(pc_chk_ctx *c);
void pc_chk_assemble_no_headroom(pc_chk_ctx *c);
void pc_chk_unanalysed_region(pc_chk_ctx *c);
void pc_chk_tiles_note(pc_chk_ctx *c); /* PC015 (issue 18), tiles_note.c */

/* ---- helpers.c -------------------------------------------------------------------------------- */

/* Number of kernels with a result to check (0 when the file could not be analysed). */
int pc_chk_nkernels(const pc_chk_ctx *c);
const pc_result *pc_chk_result(const pc_chk_ctx *c, int kernel);   /* NULL when none */
const pc_runtime_config *pc_chk_cfg(const pc_chk_ctx *c, int kernel);

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
/* Primary location of a kernel-level finding about an option: the option value when it has a
 * location in a file, else the kernel. */
pc_loc pc_chk_primary(const pc_option *o, const pc_kernel *k);
/* How the option was written, for messages: "set_runtime_options", "jit(runtime_options=...)",
 * "config::SetRuntimeOption", "tile_fwk_config.json", ".poolcheck.json", "--set". */
const char *pc_chk_site_name(const pc_option *o);
/* Is the option from outside the source (config file, project file, --set)? */
bool pc_chk_option_external(const pc_option *o);

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
