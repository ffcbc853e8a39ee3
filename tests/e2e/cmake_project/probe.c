/* Links libpoolcheck from the installed package and analyses a kernel given on the command line:
 * prints the version and the number of error-level diagnostics. */
#include <stdio.h>

#include "poolcheck/poolcheck.h"

int main(int argc, char **argv)
{
    printf("poolcheck %s\n", pc_version());
    if (argc < 2)
        return 0;
    pc_frontend *fe = pc_frontend_new();
    const char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, argv[1], NULL, 0, NULL, &err);
    if (!fr) {
        fprintf(stderr, "probe: %s\n", err ? err : "analysis failed");
        return 2;
    }
    printf("errors: %zu\n", pc_diag_count(fr->sink, PC_SEV_ERROR));
    pc_file_result_free(fr);
    pc_frontend_free(fe);
    return 0;
}
