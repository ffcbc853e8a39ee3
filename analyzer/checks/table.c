/*
 * table.c - the check table, the one registry of poolcheck's checks (docs/model.md section 9), and
 * pc_lint, which runs the selected checks over one analysed file.
 *
 * --list-checks, the SARIF rules, the docs index (docs/checks/index.md) and the docs test are
 * all generated from or checked against this table: adding a check is one row here, one
 * pcNNN_*.c file and one docs/checks/PCNNN.md page.
 */
#include "checks/checks_int.h"

#include <ctype.h>
#include <string.h>

static const pc_check_info check_table[PC_CHK_COUNT] = {
    [PC_CHK_ZERO_DEPTH_POOL] = {
        "PC001", "zero-depth-pool", PC_SEV_ERROR,
        "precise mode is on and a pool the kernel needs is set to 0",
        "When any element of stitch_function_num_per_pool is non-zero the runtime uses the three "
        "depths as given. A pool set to 0 that the program needs (a root_inner intermediate, an "
        "assemble_outcast or an exclusive_outcast tensor) makes compilation fail with "
        "'stitch_function_num_per_pool[i] cannot be 0 because the current program requires this "
        "workspace pool to construct one root function'.",
        "Set the pool to at least 1, or better to the suggested depth; the fix writes the "
        "suggested triple."},
    [PC_CHK_INVALID_POOL_OPTION] = {
        "PC002", "invalid-pool-option", PC_SEV_ERROR,
        "stitch_function_num_per_pool is not a list of 3 ints in [0, 1024]",
        "The runtime accepts a list or tuple of exactly 3 integers, each in [0, 1024]; a bool, a "
        "float, a string, a wrong length or an out-of-range element raises 'Invalid "
        "stitch_function_num_per_pool' before the kernel is compiled. poolcheck reports the value "
        "wherever it is set: in the source, tile_fwk_config.json, .poolcheck.json or --set.",
        "Write three integers in [0, 1024]: [root_inner, assemble_outcast, exclusive_outcast]. "
        "The fix writes the suggested triple."},
    [PC_CHK_INVALID_RUNTIME_OPTION] = {
        "PC003", "invalid-runtime-option", PC_SEV_ERROR,
        "a runtime option other than the pool triple is out of range or of the wrong type",
        "stitch_function_max_num must be an integer in 1..1024, max_workspace_kb an integer in "
        "0..2147483647 and device_sched_parallelism an integer in 1..8. An invalid value does not "
        "apply: the previous valid value (or the default) stays in force.",
        "Use a value of the right type inside the documented range."},
    [PC_CHK_IGNORED_OPTION] = {
        "PC004", "ignored-option", PC_SEV_WARNING,
        "precise mode is on, so stitch_function_max_num / max_workspace_kb have no effect",
        "Once any element of stitch_function_num_per_pool is non-zero (precise mode), the runtime "
        "sizes the workspace from the three depths alone: stitch_function_max_num and "
        "max_workspace_kb are ignored, so a budget or a stitch count set next to the triple does "
        "not do what it says.",
        "Remove the ignored option, or switch precise mode off ([0, 0, 0]) if the budget is what "
        "you want."},
    [PC_CHK_OPTION_IN_KERNEL] = {
        "PC005", "option-in-kernel", PC_SEV_WARNING,
        "set_runtime_options is called inside a kernel or a loop",
        "Runtime options are read when the kernel is compiled; a set_runtime_options call inside "
        "the kernel body or a pypto.loop runs too late to apply to that kernel (the upstream "
        "documentation says not to do it).",
        "Move the call to module level before the kernel, or pass the options with "
        "@pypto.frontend.jit(runtime_options={...})."},
    [PC_CHK_POOL_TOO_SHALLOW] = {
        "PC006", "pool-too-shallow", PC_SEV_WARNING,
        "a configured non-zero depth is below the predicted one",
        "With a pool shallower than the predicted depth the runtime cuts DeviceTasks early or "
        "serialises root-function instances, losing the parallelism stitch_function_max_num was "
        "tuned for. (PC001 covers a depth of 0.)",
        "Raise the pool to the predicted depth; the fix writes the suggested triple."},
    [PC_CHK_POOL_TOO_DEEP] = {
        "PC007", "pool-too-deep", PC_SEV_NOTE,
        "a configured depth is above the suggested one and reserves workspace never used",
        "A depth above the suggested one (the predicted depth, plus the assemble headroom) makes "
        "every DeviceTask's Workspace reserve memory no instance uses. The note says how many "
        "bytes; it is silent when the extra depth reserves nothing.",
        "Lower the pool to the suggested depth; the fix writes the suggested triple."},
    [PC_CHK_UNKNOWN_TRIP_COUNT] = {
        "PC008", "unknown-trip-count", PC_SEV_NOTE,
        "a depth could not be computed exactly because a symbol is unbound",
        "A trip count or a tensor shape depends on a value poolcheck cannot see (a dynamic "
        "dimension, a runtime variable). The depth is printed as an upper bound and the lints "
        "that need exact depths stay silent for it.",
        "Bind the symbol with --bind NAME=VALUE (or several shapes with --shapes FILE)."},
    [PC_CHK_SUGGEST_PRECISE_CONFIG] = {
        "PC009", "suggest-precise-config", PC_SEV_NOTE,
        "precise mode is off; the predicted triple would save workspace",
        "By default every pool is stitch_function_max_num deep. The predicted depths are the "
        "minimal non-zero depths that lose no parallelism, so setting them (plus the assemble "
        "headroom) shrinks the Workspace without changing how DeviceTasks are formed.",
        "Set stitch_function_num_per_pool to the suggested triple; the fix inserts or rewrites "
        "the options call."},
    [PC_CHK_WORKSPACE_BUDGET] = {
        "PC010", "workspace-budget-too-small", PC_SEV_ERROR,
        "max_workspace_kb is at or below the smallest runnable workspace",
        "With max_workspace_kb set (and precise mode off) the runtime refuses a budget at or "
        "below the workspace of one root function: '[workspaceSize] max_workspace_kb=<n>KB must be "
        "greater than the minimum runnable workspace=<m>KB'. poolcheck counts the tensor "
        "workspace only, so the real minimum is at least the one it prints.",
        "Raise max_workspace_kb above the minimum, or unset it (0)."},
    [PC_CHK_ASSEMBLE_NO_HEADROOM] = {
        "PC011", "assemble-no-headroom", PC_SEV_WARNING,
        "the assemble depth leaves no headroom for an allocation that lives across DeviceTasks",
        "Newer runtimes refuse a root whenever fewer assemble slots are free than there are "
        "assemble tensors, and recommend the observed depth plus one. With exactly the observed "
        "depth, a kernel whose assemble allocation lives across DeviceTasks can stop with 'Root "
        "cannot fit in an empty DeviceTask'.",
        "Add one to the assemble_outcast depth (the fix does); --assemble-headroom 0 silences "
        "this check for runtimes without the pre-check."},
    [PC_CHK_UNANALYSED_REGION] = {
        "PC012", "unanalysed-region", PC_SEV_WARNING,
        "part of a kernel could not be modelled; the depths may be too low",
        "A loop or statement the frontend could not turn into the kernel model is left out of "
        "the analysis, so the tensors and instances it would add are missing and the predicted "
        "depths may be too low.",
        "Rewrite the construct in a form poolcheck understands, or check the depths against a "
        "run with `poolcheck logs`."},
    /* PC013 and PC014 are the frontends' notes (a pc_message with this check id), which the driver
     * reports through the check path; they have no function in check_fns. */
    [PC_CHK_SHAPE_NOT_INFERRED] = {
        "PC013", "shape-not-inferred", PC_SEV_NOTE,
        "an op's result shape is not in poolcheck's op table, so bytes that depend on it are unknown",
        "poolcheck infers each op's result shape from its op table. An op it has no shape rule for "
        "is modelled as vector work with an unknown result: a tensor made from it has unknown "
        "bytes, so the workspace figures that count it are unknown too (the depths, which count "
        "instances and tensors, are not affected).",
        "Nothing to fix in the kernel; silence the note with --checks=-PC013 or `# noqa: PC013` if "
        "the bytes do not matter to you."},
    [PC_CHK_UNEVALUATED_LOOP_BOUND] = {
        "PC014", "unevaluated-loop-bound", PC_SEV_NOTE,
        "a loop bound or a compile-time loop count is not an integer poolcheck can evaluate",
        "A pypto.loop bound that is not an integer expression poolcheck can evaluate (a float, a "
        "value beyond 64 bits, an unknown call) is kept as a symbol, so the trip count and the "
        "depths that depend on it are upper bounds (PC008). A compile-time Python loop whose count "
        "depends on an unbound value has its body modelled once, so root_inner bytes may be low.",
        "Bind the bound with --bind NAME=VALUE, using the name the note prints."},
    [PC_CHK_TILE_SPLIT_UNKNOWN] = {
        "PC015", "tile-split-unknown", PC_SEV_NOTE,
        "a root_inner tensor's tile split is unknown, so it is counted as one piece",
        "Upstream may store a root_inner tensor as several tile pieces, each rounded up to 512 "
        "bytes. When poolcheck cannot work out the split (no tile setter before its producer or a "
        "consumer, a tile that is not a constant, dynamic dims, a matmul reading it as its right "
        "operand or transposed) it counts the tensor as one piece, so the root_inner bytes (the "
        "workspace) may be low. The depths are not affected.",
        "Set the tile shapes with a constant set_vec_tile_shapes / set_cube_tile_shapes (C++: "
        "TileShape::Current().SetVecTile / SetCubeTile) before the tensor's producer."},
};

/* Each row's check, in table order. */
static const pc_chk_fn check_fns[PC_CHK_COUNT] = {
    [PC_CHK_ZERO_DEPTH_POOL] = pc_chk_zero_depth_pool,
    [PC_CHK_INVALID_POOL_OPTION] = pc_chk_invalid_pool_option,
    [PC_CHK_INVALID_RUNTIME_OPTION] = pc_chk_invalid_runtime_option,
    [PC_CHK_IGNORED_OPTION] = pc_chk_ignored_option,
    [PC_CHK_OPTION_IN_KERNEL] = pc_chk_option_in_kernel,
    [PC_CHK_POOL_TOO_SHALLOW] = pc_chk_pool_too_shallow,
    [PC_CHK_POOL_TOO_DEEP] = pc_chk_pool_too_deep,
    [PC_CHK_UNKNOWN_TRIP_COUNT] = pc_chk_unknown_trip_count,
    [PC_CHK_SUGGEST_PRECISE_CONFIG] = pc_chk_suggest_precise_config,
    [PC_CHK_WORKSPACE_BUDGET] = pc_chk_workspace_budget,
    [PC_CHK_ASSEMBLE_NO_HEADROOM] = pc_chk_assemble_no_headroom,
    [PC_CHK_UNANALYSED_REGION] = pc_chk_unanalysed_region,
    [PC_CHK_TILE_SPLIT_UNKNOWN] = pc_chk_tiles_note,
};

const pc_check_info *pc_chk_table(size_t *count)
{
    if (count)
        *count = PC_CHK_COUNT;
    return check_table;
}

const char *pc_severity_name(pc_severity s)
{
    switch (s) {
    case PC_SEV_ERROR: return "error";
    case PC_SEV_WARNING: return "warning";
    case PC_SEV_NOTE: return "note";
    }
    return "note";
}

/* Lower-case copy into buf (truncated). */
static void lower(char *buf, size_t n, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++)
        buf[i] = (char)tolower((unsigned char)s[i]);
    buf[i] = 0;
}

bool pc_chk_glob_matches(const char *glob, int check)
{
    if (check < 0 || check >= PC_CHK_COUNT || !glob)
        return false;
    char g[128], id[16], name[96], full[128];
    lower(g, sizeof g, glob);
    lower(id, sizeof id, check_table[check].id);
    lower(name, sizeof name, check_table[check].name);
    lower(full, sizeof full, "poolcheck-");
    strncat(full, name, sizeof full - strlen(full) - 1);
    return pc_glob_match(g, id) || pc_glob_match(g, name) || pc_glob_match(g, full);
}

int pc_chk_find(const char *id_or_name)
{
    if (!id_or_name || !*id_or_name || strchr(id_or_name, '*') || strchr(id_or_name, '?'))
        return -1;
    for (int i = 0; i < PC_CHK_COUNT; i++)
        if (pc_chk_glob_matches(id_or_name, i))
            return i;
    return -1;
}

void pc_chk_list(FILE *out)
{
    for (int i = 0; i < PC_CHK_COUNT; i++)
        fprintf(out, "%s  %-27s %-8s %s\n", check_table[i].id, check_table[i].name,
                pc_severity_name(check_table[i].severity), check_table[i].summary);
}

char *pc_chk_docs_index(void)
{
    pc_sb b = {0};
    pc_sb_append(&b, "# poolcheck checks\n\n"
                     "<!-- Generated from analyzer/checks/table.c; tests/unit/check_checks.c keeps "
                     "this page and the table in step. -->\n\n"
                     "| id | name | severity | finds |\n|---|---|---|---|\n");
    for (int i = 0; i < PC_CHK_COUNT; i++)
        pc_sb_printf(&b, "| [%s](%s.md) | `%s` | %s | %s |\n", check_table[i].id, check_table[i].id,
                     check_table[i].name, pc_severity_name(check_table[i].severity),
                     check_table[i].summary);
    pc_sb_append(&b, "\nSelect checks with `--checks='PC*,-PC009'` (ids, names or globs; `-` "
                     "negates; later wins), make warnings fail with `--warnings-as-errors=GLOBS`, "
                     "and silence one finding with `// NOLINT(PC001)`, `// NOLINTNEXTLINE(...)`, "
                     "`// NOLINTBEGIN(...)` ... `// NOLINTEND(...)` or, in Python, "
                     "`# noqa: PC001` (ids or names, e.g. `zero-depth-pool`).\n");
    return pc_sb_take(&b);
}

void pc_lint(pc_diag_sink *s, const pc_lint_input *in)
{
    if (!s || !in || !in->model)
        return;
    pc_chk_ctx c = {.sink = s, .in = in, .model = in->model, .arena = pc_arena_new()};
    for (int i = 0; i < PC_CHK_COUNT; i++)
        if (check_fns[i] && pc_diag_selected(s, i)) /* no function: a frontend note (driver.c) */
            check_fns[i](&c);
    PC_VEC_FREE(c.seen);
    pc_arena_free(c.arena);
}
