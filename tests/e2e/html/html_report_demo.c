/* html_report_demo.c - writes the HTML report of source files through pc_rep_html_write, the
 * way `poolcheck check --report=FILE.html` does; the end-to-end test uses it when the CLI it runs
 * does not have --report.
 *
 * usage: html_report_demo OUT.html FILE...   (exit 0 written, 1 analysis error, 2 failure) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "poolcheck/poolcheck.h"
#include "poolcheck/report.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s OUT.html FILE...\n", argv[0]);
        return 2;
    }
    pc_check_opts opts;
    pc_check_opts_init(&opts);
    pc_frontend *fe = pc_frontend_new();
    size_t n = (size_t)(argc - 2);
    pc_file_result *files[64];
    if (n > sizeof files / sizeof *files) {
        fprintf(stderr, "%s: at most 64 files\n", argv[0]);
        return 2;
    }
    int status = 0;
    for (size_t i = 0; i < n; i++) {
        char *err = NULL;
        files[i] = pc_check_file(fe, argv[i + 2], NULL, 0, &opts, &err);
        if (!files[i]) {
            fprintf(stderr, "%s: %s\n", argv[i + 2], err);
            pc_mem_free(err);
            return 2;
        }
        if (files[i]->model->fatal)
            status = 1;
    }
    if (pc_rep_html_write(argv[1], files, n, NULL) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", argv[0], argv[1], strerror(errno));
        status = 2;
    }
    for (size_t i = 0; i < n; i++)
        pc_file_result_free(files[i]);
    pc_frontend_free(fe);
    return status;
}
