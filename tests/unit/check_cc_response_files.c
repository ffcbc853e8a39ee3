/* check_cc_response_files.c - poolcheck-cc reads the compiler's @file arguments:
 * `poolcheck-cc cc @resp.txt` with `-c bad.cpp` inside was not linted and compiled.  The
 * expansion is GCC's and clang's (nested files, quotes, backslashes, a missing file left as a
 * literal argument), bounded in depth, files and bytes; the compiler still gets the arguments as
 * they were given.  A fake compiler records the arguments it runs with, one per line. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CC PC_BINARY_DIR "/bin/poolcheck-cc"
#define PC001_CPP PC_SOURCE_DIR "/tests/fixtures/checks/pc001_zero_depth_pool.cpp"
#define SEED_CPP PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp"

static char *work; /* the scenario directory: every command runs there */

static char *path_in(const char *name)
{
    size_t n = strlen(work) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", work, name);
    return p;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void put(const char *name, const char *text)
{
    char *p = path_in(name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    free(p);
}

/* The PC001 fixture with its zero depth behind a macro (2 unless -DPOOL_MID=... says otherwise). */
static char *macro_kernel(void)
{
    char *text = slurp(PC001_CPP);
    ck_assert_ptr_nonnull(text);
    char *at = strstr(text, "{64, 0, 1}");
    ck_assert_ptr_nonnull(at);
    size_t n = strlen(text) + 128;
    char *out = malloc(n);
    snprintf(out, n, "#ifndef POOL_MID\n#define POOL_MID 2\n#endif\n%.*s{64, POOL_MID, 1}%s", (int)(at - text), text,
             at + strlen("{64, 0, 1}"));
    free(text);
    return out;
}

static void setup(void)
{
    char tmpl[] = "/tmp/pccc-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    work = strdup(tmpl);
    char *bad = slurp(PC001_CPP), *clean = slurp(SEED_CPP), *macro = macro_kernel();
    ck_assert(bad && clean);
    put("bad.cpp", bad);
    put("my bad.cpp", bad);
    put("clean.cpp", clean);
    put("macro.cpp", macro);
    free(bad);
    free(clean);
    free(macro);
    /* the compiler: writes its arguments, one per line, to record */
    put("fakecc", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > record\n");
    char *cc = path_in("fakecc");
    chmod(cc, 0755);
    free(cc);
    char *sub = path_in("sub");
    mkdir(sub, 0755);
    free(sub);
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", work);
    free(work);
}

typedef struct run { char *out, *err, *record; int status; double seconds; } run;

/* poolcheck-cc with args in the work directory (env: one VAR=VALUE or NULL). */
static run cc(const char *env, const char *const args[])
{
    char *argv[40];
    int n = 0;
    argv[n++] = (char *)CC;
    for (int i = 0; args[i] && n < 39; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    char *record = path_in("record");
    unlink(record);
    char outp[] = "/tmp/pccc-out-XXXXXX", errp[] = "/tmp/pccc-err-XXXXXX";
    int outfd = mkstemp(outp), errfd = mkstemp(errp);
    ck_assert(outfd >= 0 && errfd >= 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(work) != 0)
            _exit(126);
        if (env) {
            const char *eq = strchr(env, '=');
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(eq - env), env);
            setenv(name, eq + 1, 1);
        }
        int in = open("/dev/null", O_RDONLY);
        dup2(in, 0);
        dup2(outfd, 1);
        dup2(errfd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    run r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    close(outfd);
    close(errfd);
    r.out = slurp(outp);
    r.err = slurp(errp);
    r.record = slurp(record); /* NULL: the compiler did not run */
    unlink(outp);
    unlink(errp);
    free(record);
    return r;
}

static void run_free(run *r)
{
    free(r->out);
    free(r->err);
    free(r->record);
}

/* The sources in a response file are linted: a PC001 there stops the compile. */
START_TEST(response_file_is_linted)
{
    put("resp.txt", "-c bad.cpp -o bad.o\n");
    run r = cc(NULL, (const char *[]){"./fakecc", "@resp.txt", NULL});
    ck_assert_msg(r.status == 1, "exit %d, want 1 (PC001 in bad.cpp): %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "bad.cpp:25:62: error:"));
    ck_assert_ptr_nonnull(strstr(r.err, "[PC001]"));
    ck_assert_msg(r.record == NULL, "the compiler ran");
    run_free(&r);
}
END_TEST

/* A clean source passes, and the compiler gets the @file, not its expansion. */
START_TEST(compiler_gets_the_original_arguments)
{
    put("resp.txt", "-c clean.cpp -o clean.o\n");
    run r = cc(NULL, (const char *[]){"./fakecc", "-O2", "@resp.txt", NULL});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_ptr_nonnull(r.record);
    ck_assert_str_eq(r.record, "-O2\n@resp.txt\n");
    run_free(&r);
}
END_TEST

/* The options in the file reach the parse too: -DPOOL_MID=0 makes the macro kernel a PC001,
 * in both calling conventions. */
START_TEST(options_in_the_file_reach_the_parse)
{
    run r = cc(NULL, (const char *[]){"./fakecc", "-c", "macro.cpp", NULL});
    ck_assert_msg(r.status == 0, "without the macro: exit %d: %s", r.status, r.err);
    run_free(&r);
    put("defs.rsp", "-DPOOL_MID=0 -c macro.cpp\n");
    r = cc(NULL, (const char *[]){"./fakecc", "@defs.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "[PC001]"), "launcher: exit %d: %s", r.status, r.err);
    run_free(&r);
    r = cc(NULL, (const char *[]){"macro.cpp", "--", "./fakecc", "@defs.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.out, "[PC001]"), "clang-tidy convention: exit %d: %s%s", r.status, r.out,
                  r.err);
    ck_assert(r.record == NULL);
    run_free(&r);
}
END_TEST

/* Nested files, quotes and backslashes: sub/outer.rsp names inner.rsp, which is beside it (as
 * clang looks), and top.rsp, which is in the working directory (as GCC looks). */
START_TEST(nested_quoted_escaped)
{
    put("sub/outer.rsp", "-O2 '-DNAME=a b' @inner.rsp\n\t@top.rsp\n");
    put("sub/inner.rsp", "-c \"my bad.cpp\" -o my\\ bad.o\n");
    put("top.rsp", "-Wall\n");
    run r = cc(NULL, (const char *[]){"./fakecc", "@sub/outer.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "my bad.cpp:25:62: error:"), "exit %d: %s", r.status, r.err);
    run_free(&r);
    /* backslashes inside quotes, an empty argument, the name built from pieces */
    put("pieces.rsp", "\"\" -c b'a'\"d\"\\.cpp\n");
    r = cc(NULL, (const char *[]){"./fakecc", "@pieces.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "bad.cpp:25:62: error:"), "exit %d: %s", r.status, r.err);
    run_free(&r);
}
END_TEST

/* A missing @file stays a literal argument (GCC's rule): the rest is linted as usual. */
START_TEST(missing_file_is_literal)
{
    run r = cc(NULL, (const char *[]){"./fakecc", "@nope.rsp", "-c", "clean.cpp", NULL});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.record, "@nope.rsp\n-c\nclean.cpp\n");
    run_free(&r);
    r = cc(NULL, (const char *[]){"./fakecc", "@nope.rsp", "-c", "bad.cpp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "[PC001]"), "exit %d: %s", r.status, r.err);
    run_free(&r);
    put("inner_missing.rsp", "@nowhere.rsp -c bad.cpp\n");
    r = cc(NULL, (const char *[]){"./fakecc", "@inner_missing.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "[PC001]"), "exit %d: %s", r.status, r.err);
    run_free(&r);
}
END_TEST

/* The bounds: a file including itself, a fan-out of 2^24 reads, more than 16 MiB.  Each ends at
 * once with a message, the build fails (or, with POOLCHECK_CC_WARN_ONLY=1, compiles). */
START_TEST(bounds)
{
    put("self.rsp", "@self.rsp -c bad.cpp\n");
    run r = cc(NULL, (const char *[]){"./fakecc", "@self.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "nested more than 32 deep"), "exit %d: %s", r.status, r.err);
    ck_assert(r.record == NULL);
    run_free(&r);
    r = cc("POOLCHECK_CC_WARN_ONLY=1", (const char *[]){"./fakecc", "@self.rsp", NULL});
    ck_assert_msg(r.status == 0 && r.record && strcmp(r.record, "@self.rsp\n") == 0, "exit %d: %s", r.status, r.err);
    run_free(&r);
    /* the message names the file without its escape sequence */
    put("self\x1b[2J.rsp", "@self\x1b[2J.rsp\n");
    r = cc(NULL, (const char *[]){"./fakecc", "@self\x1b[2J.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "(does @self?[2J.rsp include itself?)") && !strchr(r.err, '\x1b'),
                  "exit %d: %s", r.status, r.err);
    run_free(&r);

    for (int i = 0; i < 24; i++) {
        char name[32], text[64];
        snprintf(name, sizeof name, "f%d.rsp", i);
        snprintf(text, sizeof text, "@f%d.rsp @f%d.rsp\n", i + 1, i + 1);
        put(name, text);
    }
    put("f24.rsp", "-c clean.cpp\n");
    r = cc(NULL, (const char *[]){"./fakecc", "@f0.rsp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "more than 2000 response files"), "exit %d: %s", r.status, r.err);
    ck_assert_msg(r.seconds < 10, "the fan-out took %.1f s", r.seconds);
    run_free(&r);

    char *big = path_in("big.rsp");
    FILE *f = fopen(big, "wb");
    ck_assert_ptr_nonnull(f);
    char line[64];
    memset(line, 'x', sizeof line - 1);
    line[0] = '-', line[1] = 'D', line[sizeof line - 2] = '\n', line[sizeof line - 1] = 0;
    for (size_t n = 0; n < ((size_t)17 << 20); n += sizeof line - 1)
        fputs(line, f);
    fclose(f);
    free(big);
    r = cc(NULL, (const char *[]){"./fakecc", "@big.rsp", "-c", "clean.cpp", NULL});
    ck_assert_msg(r.status == 1 && strstr(r.err, "more than 16 MiB of response files"), "exit %d: %s", r.status, r.err);
    run_free(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cc_response_files");
    TCase *tc = tcase_create("cc_response_files");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, response_file_is_linted);
    tcase_add_test(tc, compiler_gets_the_original_arguments);
    tcase_add_test(tc, options_in_the_file_reach_the_parse);
    tcase_add_test(tc, nested_quoted_escaped);
    tcase_add_test(tc, missing_file_is_literal);
    tcase_add_test(tc, bounds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
