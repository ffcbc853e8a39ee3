/* main.c - the poolcheck command: dispatch to a subcommand.  All the work is in the library. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>

static const char usage[] =
    "usage: poolcheck [check] [options] FILE|DIR...   predict pool depths and lint runtime options\n"
    "       poolcheck model FILE                      print the kernel model as JSON\n"
    "       poolcheck logs [options] PATH...          read runtime logs; compare with --kernel FILE\n"
    "       poolcheck plan FILE --budget-kb N         depths for a workspace budget\n"
    "       poolcheck --list-checks | --version | --help\n"
    "Run 'poolcheck SUBCOMMAND --help' for the options of a subcommand.\n";

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
    /* `poolcheck FILE...` is `poolcheck check FILE...` */
    argv[0] = "check";
    return pc_cmd_check(argc, argv);
}
