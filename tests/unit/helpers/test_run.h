/* test_run.h - run a program (usually build/bin/poolcheck) and capture its output. */
#ifndef POOLCHECK_TEST_RUN_H
#define POOLCHECK_TEST_RUN_H

typedef struct pc_test_output {
    char *out;      /* stdout, NUL-terminated (free()) */
    char *err;      /* stderr */
    int status;     /* exit status, or 128 + signal */
} pc_test_output;

/* argv[0] is the program path; argv is NULL-terminated.  stdin_text may be NULL (empty stdin). */
pc_test_output pc_test_run(char *const argv[], const char *stdin_text);
/* Convenience: poolcheck with up to 30 arguments, NULL-terminated. */
pc_test_output pc_test_poolcheck(const char *arg, ...);
void pc_test_output_free(pc_test_output *o);
/* Split a fixture's RUN: arguments at blanks (quotes group, %S becomes dir) into strdup'd
 * argv entries; returns how many (at most max). */
int pc_test_split_args(const char *s, char **argv, int max, const char *dir);

/* Files for a case (each exits the test on failure, as an assertion would): a fresh directory
 * /tmp/PREFIX-XXXXXX, DIR/NAME, and a file holding text (all strdup'd / malloc'd: free()). */
char *pc_test_tmpdir(const char *prefix);
char *pc_test_path(const char *dir, const char *name);
void pc_test_write_file(const char *path, const char *text);

#endif
