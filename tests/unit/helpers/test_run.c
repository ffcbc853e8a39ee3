/* test_run.c - fork/exec a program with pipes, collect stdout/stderr and the exit status. */
#define _POSIX_C_SOURCE 200809L
#include "test_run.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp(int fd)
{
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    ssize_t n;
    while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 4096)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    return buf;
}

pc_test_output pc_test_run(char *const argv[], const char *stdin_text)
{
    pc_test_output r = {0};
    char outpath[] = "/tmp/pctest-out-XXXXXX", errpath[] = "/tmp/pctest-err-XXXXXX",
         inpath[] = "/tmp/pctest-in-XXXXXX";
    int outfd = mkstemp(outpath), errfd = mkstemp(errpath), infd = mkstemp(inpath);
    if (stdin_text && write(infd, stdin_text, strlen(stdin_text)) < 0)
        abort();
    lseek(infd, 0, SEEK_SET);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(infd, 0);
        dup2(outfd, 1);
        dup2(errfd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    lseek(outfd, 0, SEEK_SET);
    lseek(errfd, 0, SEEK_SET);
    r.out = slurp(outfd);
    r.err = slurp(errfd);
    close(outfd);
    close(errfd);
    close(infd);
    unlink(outpath);
    unlink(errpath);
    unlink(inpath);
    return r;
}

pc_test_output pc_test_poolcheck(const char *arg, ...)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)PC_BINARY_DIR "/bin/poolcheck";
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && n < 31; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    return pc_test_run(argv, NULL);
}

void pc_test_output_free(pc_test_output *o)
{
    free(o->out);
    free(o->err);
    o->out = o->err = NULL;
}

int pc_test_split_args(const char *s, char **argv, int max, const char *dir)
{
    int n = 0;
    const char *p = s;
    while (*p && n < max) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char buf[4096];
        size_t len = 0;
        char quote = 0;
        while (*p && (quote || !isspace((unsigned char)*p)) && len < sizeof buf - 1) {
            if (!quote && (*p == '\'' || *p == '"')) {
                quote = *p++;
                continue;
            }
            if (quote && *p == quote) {
                quote = 0;
                p++;
                continue;
            }
            if (p[0] == '%' && p[1] == 'S') {
                int w = snprintf(buf + len, sizeof buf - len, "%s", dir);
                len += w > 0 ? (size_t)w : 0;
                if (len >= sizeof buf)
                    len = sizeof buf - 1;
                p += 2;
                continue;
            }
            buf[len++] = *p++;
        }
        buf[len] = 0;
        argv[n++] = strdup(buf);
    }
    return n;
}

char *pc_test_tmpdir(const char *prefix)
{
    char tmpl[256];
    snprintf(tmpl, sizeof tmpl, "/tmp/%s-XXXXXX", prefix);
    char *d = mkdtemp(tmpl);
    if (!d) {
        perror("mkdtemp");
        exit(1);
    }
    return strdup(d);
}

char *pc_test_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

void pc_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}
