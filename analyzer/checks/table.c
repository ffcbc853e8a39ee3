/*
 * table.c - the check registry, built from checks.def (the one table of poolcheck's checks,
 * docs/model.md section 9), and pc_lint, which runs the selected checks over one analysed file.
 *
 * --list-checks, the SARIF rules, docs/checks/index.md and the pages docs/checks/PCnnn.md are all
 * generated from checks.def: adding a check is one entry there, one pcNNN_*.c file and one
 * fixture (docs/dev/adding-a-check.md).
 */
#include "checks/checks_int.h"

#include <ctype.h>
#include <string.h>

/* checks.def, row by row (the page fields are the docs generator's). */
static const pc_check_info check_table[PC_CHK_COUNT] = {
#define PC_CHECK(enum_, id, name, sev, fn, summary, description, remedy, ...) \
    [PC_CHK_##enum_] = {id, name, PC_SEV_##sev, summary, description, remedy},
#define PC_FRONTEND_NOTE(enum_, id, name, sev, summary, description, remedy, ...) \
    [PC_CHK_##enum_] = {id, name, PC_SEV_##sev, summary, description, remedy},
#include "checks/checks.def"
};

/* Each row's check, in table order; a frontend note has none (the driver reports it). */
static const pc_chk_fn check_fns[PC_CHK_COUNT] = {
#define PC_CHECK(enum_, id, name, sev, fn, ...) [PC_CHK_##enum_] = fn,
#define PC_FRONTEND_NOTE(enum_, id, name, sev, ...) [PC_CHK_##enum_] = NULL,
#include "checks/checks.def"
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
        fprintf(out, "%s  %-28s %-8s %s\n", check_table[i].id, check_table[i].name,
                pc_severity_name(check_table[i].severity), check_table[i].summary);
}

char *pc_chk_docs_index(void)
{
    pc_sb b = {0};
    pc_sb_append(&b, "# poolcheck checks\n\n"
                     "<!-- Generated from analyzer/checks/checks.def (cmake --build BUILD --target "
                     "regenerate-check-docs); the CTest checks_docs fails when it differs. -->\n\n"
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
