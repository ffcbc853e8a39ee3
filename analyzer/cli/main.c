/* main.c - the poolcheck command: dispatch to a subcommand.  All the work is in the library. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: poolcheck [check] [options] FILE|DIR...   predict pool depths and lint runtime options\n"
    "       poolcheck model FILE                      print the kernel model as JSON\n"
    "       poolcheck logs [options] PATH...          read runtime logs; compare with --kernel FILE\n"
    "       poolcheck plan FILE --budget-kb N         depths for a workspace budget\n"
    "       poolcheck rule ID|NAME | --all            explain a check (what it finds, what to do)\n"
    "       poolcheck --list-checks | --version | --help\n"
    "\n"
    "poolcheck reads CANN PyPTO kernels (Python and C++) without compiling or running them and\n"
    "predicts, per kernel, the minimal non-zero stitch_function_num_per_pool = [root_inner,\n"
    "assemble_outcast, exclusive_outcast] depths the runtime's Workspace needs, the workspace bytes\n"
    "they cost, and what the configured runtime options do; it lints those options (the PC0NN\n"
    "checks of 'poolcheck --list-checks'), writes the suggested configuration, and checks a\n"
    "prediction against the INFO logs of a real run.  'poolcheck FILE...' is 'poolcheck check\n"
    "FILE...'.  How every number is computed: docs/model.md (installed under share/doc/poolcheck).\n"
    "\n"
    "Run 'poolcheck SUBCOMMAND --help' for the options of a subcommand.\n";

static const char *const subcommands[] = {"check", "model", "logs", "plan", "rule", "help", NULL};

/* A first word that is no option, no subcommand and no existing file, and does not look like a
 * path (no '/', no kernel extension), is a mistyped subcommand rather than a missing input:
 * `poolcheck chek x.py`.  Returns the nearest subcommand (edit distance <= 2), or NULL when the
 * word should be read as a file (`poolcheck frobnicate` then says it cannot open 'frobnicate'). */
static const char *unknown_command(const char *word)
{
    if (word[0] == '-' || strchr(word, '/') || strchr(word, '.'))
        return NULL;
    struct stat st;
    if (stat(word, &st) == 0)
        return NULL;
    /* two mistakes whatever the length (docs/model.md 12): subcommands are short words */
    return pc_cfg_nearest(word, subcommands, sizeof subcommands / sizeof *subcommands - 1, 2);
}

int main(int argc, char **argv)
{
    pc_mem_init_from_env(); /* allocation-failure tests; a no-op unless POOLCHECK_FAULT_INJECTION */
    if (argc < 2) {
        fputs(usage, stderr);
        return PC_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("poolcheck %s\n", pc_version());
        return pc_cli_close_output(stdout, "<stdout>") ? PC_EXIT_OK : PC_EXIT_USAGE;
    }
    /* A subcommand name wins over a file of that name (`./logs` names the file). */
    if (strcmp(cmd, "check") == 0)
        return pc_cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "model") == 0)
        return pc_cmd_model(argc - 1, argv + 1);
    if (strcmp(cmd, "logs") == 0)
        return pc_cmd_logs(argc - 1, argv + 1);
    if (strcmp(cmd, "plan") == 0)
        return pc_cmd_plan(argc - 1, argv + 1);
    if (strcmp(cmd, "rule") == 0)
        return pc_cmd_rule(argc - 1, argv + 1);
    const char *near = unknown_command(cmd);
    if (near) {
        pc_cli_error("unknown command '%s'; did you mean '%s'?", cmd, near);
        return PC_EXIT_USAGE;
    }
    /* `poolcheck FILE...` is `poolcheck check FILE...` */
    argv[0] = "check";
    return pc_cmd_check(argc, argv);
}
