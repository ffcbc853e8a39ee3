/* Links libpoolcheck from the installed package and analyses a kernel given on the command line:
 * prints the version and the number of error-level diagnostics.  The source is read, and the line
 * written, through the installed public support header (poolcheck/support.h), so the package is
 * shown to carry what a plugin needs and to free it one way (pc_mem_free). */
#include <stdio.h>
#include <string.h>

#include "poolcheck/poolcheck.h"
#include "poolcheck/support.h"

int main(int argc, char **argv)
{
    printf("poolcheck %s\n", pc_version());
    if (argc < 2)
        return 0;
    size_t len = 0;
    char *read_err = NULL;
    char *text = pc_read_file(argv[1], &len, &read_err);
    if (!text) {
        fprintf(stderr, "probe: %s\n", read_err ? read_err : "cannot read the kernel");
        pc_mem_free(read_err);
        return 2;
    }
    pc_frontend *fe = pc_frontend_new();
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, argv[1], text, len, NULL, &err);
    pc_mem_free(text);
    if (!fr) {
        fprintf(stderr, "probe: %s\n", err);
        pc_mem_free(err);
        pc_frontend_free(fe);
        return 2;
    }
    pc_sb line = {0};
    pc_sb_printf(&line, "errors: %zu\n", pc_diag_count(fr->sink, PC_SEV_ERROR));
    char *out = pc_sb_take(&line);
    fputs(out, stdout);
    pc_mem_free(out);
    pc_file_result_free(fr);
    pc_frontend_free(fe);
    return 0;
}
