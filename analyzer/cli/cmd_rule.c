/* cmd_rule.c - `poolcheck rule ID|NAME` / `poolcheck rule --all`: what a check finds and what to
 * do about it, from the check table (analyzer/checks/checks.def), as `ruff rule` does. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>

static const char rule_help[] =
    "usage: poolcheck rule [--format=text|json] ID|NAME\n"
    "       poolcheck rule [--format=text|json] --all\n"
    "Explain a check: its id, name, severity, summary, description and remedy (the table behind\n"
    "'poolcheck --list-checks').  ID|NAME is 'PC001', 'zero-depth-pool' or\n"
    "'poolcheck-zero-depth-pool'.\n"
    "Exit status: 0 explained; 2 usage error or no such check.\n";

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void print_json(FILE *out, const pc_check_info *ci)
{
    /* one row a field of the object, in its order */
    const char *const fields[][2] = {{"id", ci->id},
                                     {"name", ci->name},
                                     {"severity", pc_severity_name(ci->severity)},
                                     {"summary", ci->summary},
                                     {"description", ci->description},
                                     {"remedy", ci->remedy}};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        fprintf(out, "%s\"%s\": ", i ? ", " : "{", fields[i][0]);
        json_str(out, fields[i][1]);
    }
    fputc('}', out);
}

static void print_text(FILE *out, const pc_check_info *ci)
{
    fprintf(out, "%s %s (%s)\n\n%s\n", ci->id, ci->name, pc_severity_name(ci->severity), ci->summary ? ci->summary : "");
    if (ci->description && *ci->description)
        fprintf(out, "\nWhat it finds:\n  %s\n", ci->description);
    if (ci->remedy && *ci->remedy)
        fprintf(out, "\nWhat to do:\n  %s\n", ci->remedy);
}

int pc_cmd_rule(int argc, char **argv)
{
    bool json = false, all = false;
    const char *which = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(rule_help, stdout);
            return pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
        } else if (strcmp(a, "--all") == 0) {
            all = true;
        } else if (strncmp(a, "--format=", 9) == 0 || (strcmp(a, "--format") == 0 && i + 1 < argc)) {
            int f = pc_cli_choice("--format", a[8] == '=' ? a + 9 : argv[++i], pc_cli_text_json_choices);
            if (f < 0)
                return PC_EXIT_USAGE;
            json = f == 1;
        } else if (a[0] == '-' && a[1]) {
            pc_cli_unknown_option("rule", a, rule_help, NULL);
            return PC_EXIT_USAGE;
        } else if (which) {
            pc_cli_error("'poolcheck rule' takes one check (or --all)");
            return PC_EXIT_USAGE;
        } else {
            which = a;
        }
    }
    if (!which == !all) {
        pc_cli_error("'poolcheck rule' needs a check id or name, or --all (see 'poolcheck rule --help')");
        return PC_EXIT_USAGE;
    }
    size_t n = 0;
    const pc_check_info *table = pc_chk_table(&n);
    if (all) {
        if (json)
            fputc('[', stdout);
        for (size_t k = 0; k < n; k++) {
            if (json) {
                fputs(k ? ",\n " : "", stdout);
                print_json(stdout, &table[k]);
            } else {
                if (k)
                    fputc('\n', stdout);
                print_text(stdout, &table[k]);
            }
        }
        if (json)
            fputs("]\n", stdout);
        return pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
    }
    int k = pc_chk_find(which);
    if (k < 0) {
        /* did you mean: by id and by name, the nearer wins */
        const char **cands = pc_mem_calloc(2 * n + 1, sizeof *cands);
        for (size_t j = 0; j < n; j++) {
            cands[2 * j] = table[j].id;
            cands[2 * j + 1] = table[j].name;
        }
        const char *near = pc_cfg_nearest(which, cands, 2 * n, -1);
        if (near)
            pc_cli_error("no check '%s'; did you mean '%s'? (see 'poolcheck --list-checks')", which, near);
        else
            pc_cli_error("no check '%s' (see 'poolcheck --list-checks')", which);
        pc_mem_free(cands);
        return PC_EXIT_USAGE;
    }
    if (json) {
        print_json(stdout, &table[k]);
        fputc('\n', stdout);
    } else {
        print_text(stdout, &table[k]);
    }
    return pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
}
