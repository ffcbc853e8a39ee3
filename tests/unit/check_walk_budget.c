/*
 * check_walk_budget.c - loop nests stay in closed form, the walk has a budget,
 * and the LSP server answers while an analysis runs.
 *
 * Each case runs the built binaries on kernels written into a temporary directory and records
 * its own bounds: wall time and peak RSS (wait4) of the child, which is killed at a hard deadline
 * well past the bound so a regression fails instead of hanging the suite.  Before the change the
 * 50-level nest ran for more than 10 minutes (2^50 walked instances), 127^4 took 31-100 s, the
 * growing nest walked for ever, and the LSP server never answered `shutdown` once such a
 * document was open.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The process exit the LSP cases time includes the sanitizers' own work at exit (LeakSanitizer
 * scans the heap: ~120 ms under the ASan+UBSan pass), which no user's server pays: the bound on
 * an exit is widened there, the bound on the answer to shutdown is not. */
#if defined(__SANITIZE_ADDRESS__)
#define EXIT_BOUND_S 1.0
#else
#define EXIT_BOUND_S 0.1
#endif

#define POOLCHECK PC_BINARY_DIR "/bin/poolcheck"
#define POOLCHECK_LSP PC_BINARY_DIR "/bin/poolcheck-lsp"

static char dir[256];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Paths in the temporary directory: a few live at once (a kernel's and the output's). */
static char *path_in(const char *name)
{
    static char p[4][512];
    static int next;
    char *q = p[next++ % 4];
    snprintf(q, sizeof p[0], "%s/%s", dir, name);
    return q;
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path_in(name), "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* A Python kernel: `levels` nested pypto.loop(0, n) around one add. */
static void write_py_nest(const char *name, int levels, long n)
{
    char buf[16384];
    int o = snprintf(buf, sizeof buf, "import pypto\n\n@pypto.frontend.jit\ndef k(x: pypto.Tensor([16, 16], pypto.DT_FP32), "
                                      "y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n");
    for (int i = 0; i < levels; i++)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "%*sfor i%d in pypto.loop(0, %ld, 1, name=\"l%d\"):\n", 4 * (i + 1), "", i, n, i);
    snprintf(buf + o, sizeof buf - (size_t)o, "%*sy[:] = pypto.add(x, x)\n", 4 * (levels + 1), "");
    write_file(name, buf);
}

/* The same nest against the C++ API. */
static void write_cpp_nest(const char *name, int levels, long n)
{
    char buf[16384];
    int o = snprintf(buf, sizeof buf, "#include \"tilefwk/tilefwk.h\"\nusing namespace npu::tile_fwk;\n\nvoid Build()\n{\n"
                                      "    Tensor x(DT_FP32, {16, 16}, \"x\");\n    Tensor y(DT_FP32, {16, 16}, \"y\");\n"
                                      "    FUNCTION(\"k\", {x}, {y})\n    {\n");
    for (int i = 0; i < levels; i++)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "%*sLOOP(\"l%d\", FunctionType::DYNAMIC_LOOP, i%d, LoopRange(0, %ld, 1)) {\n",
                      4 * (i + 2), "", i, i, n);
    o += snprintf(buf + o, sizeof buf - (size_t)o, "%*sy = Add(x, x);\n", 4 * (levels + 2), "");
    for (int i = levels - 1; i >= 0; i--)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "%*s}\n", 4 * (i + 2), "");
    snprintf(buf + o, sizeof buf - (size_t)o, "    }\n}\n");
    write_file(name, buf);
}

/* A kernel with no repeating structure the closed form can use: the inner trip count follows the
 * outer index (about 5 * 10^17 instances). */
static const char grow_py[] =
    "import pypto\n\n@pypto.frontend.jit\n"
    "def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n"
    "    for i in pypto.loop(0, 1000000000, 1, name=\"outer\"):\n"
    "        for j in pypto.loop(0, i + 1, 1, name=\"inner\"):\n"
    "            y[:] = pypto.add(x, x)\n";

typedef struct run_out { int status; double secs; long maxrss_kb; char *out; } run_out;

/* Run argv with stdout captured, killed after deadline_s; wall time and peak RSS recorded. */
static run_out run_bounded(char *const argv[], double deadline_s)
{
    run_out r = {0};
    char *outp = path_in("stdout.txt");
    double t0 = now_s();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600), nul = open("/dev/null", O_RDWR);
        dup2(fd, 1);
        dup2(nul, 0);
        dup2(nul, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    struct rusage ru;
    int st = 0;
    for (;;) {
        pid_t w = wait4(pid, &st, WNOHANG, &ru);
        if (w == pid)
            break;
        if (now_s() - t0 > deadline_s) {
            kill(pid, SIGKILL);
            wait4(pid, &st, 0, &ru);
            break;
        }
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
    r.secs = now_s() - t0;
    r.maxrss_kb = ru.ru_maxrss;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    FILE *f = fopen(outp, "r");
    ck_assert_ptr_nonnull(f);
    size_t cap = 1 << 20, n = 0;
    r.out = calloc(cap + 1, 1);
    n = fread(r.out, 1, cap, f);
    r.out[n] = 0;
    fclose(f);
    return r;
}

/* poolcheck check --format=json FILE [EXTRA]: within time_bound seconds and rss_bound_mb. */
static run_out check_json(const char *file, const char *extra, double time_bound, long rss_bound_mb)
{
    char *argv[8];
    int a = 0;
    argv[a++] = (char *)POOLCHECK;
    argv[a++] = (char *)"check";
    argv[a++] = (char *)"--format=json";
    if (extra)
        argv[a++] = (char *)extra;
    argv[a++] = (char *)file;
    argv[a] = NULL;
    run_out r = run_bounded(argv, time_bound * 4 + 10);
    fprintf(stderr, "check_walk_budget: %s%s%s: %.3f s (bound %.0f s), %ld KB peak (bound %ld MB)\n", file,
            extra ? " " : "", extra ? extra : "", r.secs, time_bound, r.maxrss_kb, rss_bound_mb);
    ck_assert_msg(r.secs < time_bound, "%s took %.2f s, bound %.0f s", file, r.secs, time_bound);
    ck_assert_msg(r.maxrss_kb < rss_bound_mb * 1024, "%s peaked at %ld KB, bound %ld MB", file, r.maxrss_kb, rss_bound_mb);
    return r;
}

static void expect_instances(const run_out *r, const char *count)
{
    char want[64];
    snprintf(want, sizeof want, "\"instances\":\t%s,", count);
    ck_assert_msg(strstr(r->out, want), "no %s in:\n%.2000s", want, r->out);
}

START_TEST(nest_50_levels_python)
{
    write_py_nest("n50.py", 50, 2);
    run_out r = check_json(path_in("n50.py"), NULL, 5, 200);
    ck_assert_int_eq(r.status, 0);
    expect_instances(&r, "1125899906842624"); /* 2^50, exact: no PC012 */
    ck_assert_ptr_null(strstr(r.out, "PC012"));
    free(r.out);
}
END_TEST

START_TEST(nest_127_4_python)
{
    write_py_nest("c4.py", 4, 127);
    run_out r = check_json(path_in("c4.py"), NULL, 5, 200);
    ck_assert_int_eq(r.status, 0);
    expect_instances(&r, "260144641"); /* 127^4 */
    ck_assert_ptr_nonnull(strstr(r.out, "\"device_tasks\":\t2032381,")); /* ceil(127^4 / 128) */
    free(r.out);
}
END_TEST

START_TEST(nest_small_counts_tasks)
{
    /* 3 levels of 5, at k = 7: 125 instances in ceil(125 / 7) = 18 DeviceTasks, as walked */
    write_py_nest("s3.py", 3, 5);
    run_out r = check_json(path_in("s3.py"), "--set=stitch_function_max_num=7", 5, 200);
    expect_instances(&r, "125");
    ck_assert_msg(strstr(r.out, "\"device_tasks\":\t18,"), "%.2000s", r.out);
    free(r.out);
}
END_TEST

START_TEST(nest_50_levels_cpp)
{
    write_cpp_nest("n50.cpp", 50, 2);
    run_out r = check_json(path_in("n50.cpp"), NULL, 10, 400);
    expect_instances(&r, "1125899906842624");
    free(r.out);
}
END_TEST

START_TEST(walk_budget_stops_with_pc012)
{
    write_file("grow.py", grow_py);
    run_out r = check_json(path_in("grow.py"), "--max-walk-seconds=1", 5, 200);
    ck_assert_int_eq(r.status, 0); /* a warning */
    ck_assert_msg(strstr(r.out, "PC012") && strstr(r.out, "its time limit of 1 s (--max-walk-seconds) was reached"), "%.3000s",
                  r.out);
    ck_assert_msg(strstr(r.out, "\"instances\":\tnull,"), "the count is unknown: %.2000s", r.out);
    free(r.out);
}
END_TEST

/* ---- the LSP server over pipes ---- */

typedef struct lsp { pid_t pid; int to, from; char buf[1 << 16]; size_t len; } lsp;

static void lsp_start_with(lsp *l, const char *flag)
{
    int in[2], out[2];
    ck_assert_int_eq(pipe(in), 0);
    ck_assert_int_eq(pipe(out), 0);
    l->pid = fork();
    ck_assert_int_ge(l->pid, 0);
    if (l->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 2);
        close(in[1]);
        close(out[0]);
        execl(POOLCHECK_LSP, POOLCHECK_LSP, "--debounce-ms=0", flag, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    l->to = in[1];
    l->from = out[0];
    l->len = 0;
}

static void lsp_start(lsp *l) { lsp_start_with(l, NULL); }

static void lsp_send(lsp *l, const char *json)
{
    char head[64];
    int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(json));
    ck_assert_int_eq(write(l->to, head, (size_t)n), n);
    ck_assert_int_eq(write(l->to, json, strlen(json)), (ssize_t)strlen(json));
}

/* Wait up to timeout_s for `what` in the server's output; the seconds it took, or -1. */
static double lsp_wait_for(lsp *l, const char *what, double timeout_s)
{
    double t0 = now_s();
    for (;;) {
        l->buf[l->len] = 0;
        char *hit = strstr(l->buf, what);
        if (hit) {
            size_t drop = (size_t)(hit - l->buf) + strlen(what);
            memmove(l->buf, l->buf + drop, l->len - drop);
            l->len -= drop;
            return now_s() - t0;
        }
        double left = timeout_s - (now_s() - t0);
        if (left <= 0)
            return -1;
        struct pollfd p = {l->from, POLLIN, 0};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        if (l->len >= sizeof l->buf - 1)
            l->len = 0;
        ssize_t n = read(l->from, l->buf + l->len, sizeof l->buf - 1 - l->len);
        if (n <= 0)
            return -1;
        l->len += (size_t)n;
    }
}

/* Seconds until the server exits (killed after timeout_s: -1). */
static double lsp_wait_exit(lsp *l, double timeout_s, int *status)
{
    double t0 = now_s();
    while (now_s() - t0 < timeout_s) {
        if (waitpid(l->pid, status, WNOHANG) == l->pid)
            return now_s() - t0;
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);
    }
    kill(l->pid, SIGKILL);
    waitpid(l->pid, status, 0);
    return -1;
}

static char *json_text(const char *src)
{
    /* the document text as a JSON string */
    size_t n = strlen(src);
    char *o = malloc(2 * n + 3), *p = o;
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (src[i] == '\n') { *p++ = '\\'; *p++ = 'n'; }
        else if (src[i] == '"') { *p++ = '\\'; *p++ = '"'; }
        else *p++ = src[i];
    }
    *p++ = '"';
    *p = 0;
    return o;
}

static void lsp_open_grow(lsp *l)
{
    lsp_send(l, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}");
    ck_assert_double_ge(lsp_wait_for(l, "\"id\":1", 30), 0);
    lsp_send(l, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    char *t = json_text(grow_py);
    char msg[8192];
    snprintf(msg, sizeof msg,
             "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file://%s\","
             "\"languageId\":\"python\",\"version\":1,\"text\":%s}}}",
             path_in("grow_lsp.py"), t);
    free(t);
    lsp_send(l, msg);
    /* the analysis is under way (it would walk for the whole 10 s budget) */
    struct timespec nap = {0, 400000000};
    nanosleep(&nap, NULL);
}

/* `shutdown` answered within 100 ms, then `exit` ends the server with status 0 within the exit
 * bound; `when` says what was under way, for the log line. */
static void lsp_shutdown_and_exit(lsp *l, const char *when)
{
    lsp_send(l, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\",\"params\":null}");
    double answered = lsp_wait_for(l, "\"id\":2", 20);
    lsp_send(l, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\",\"params\":null}");
    int st = 0;
    double exited = lsp_wait_exit(l, 20, &st);
    fprintf(stderr, "check_walk_budget: LSP shutdown %s answered in %.1f ms, exit in %.1f ms (bounds 100 ms, exit %.0f ms)\n",
            when, answered * 1000, exited * 1000, EXIT_BOUND_S * 1000);
    ck_assert_msg(answered >= 0 && answered < 0.1, "shutdown %s answered after %.3f s", when, answered);
    ck_assert_msg(exited >= 0 && exited < EXIT_BOUND_S, "exit %s took %.3f s", when, exited);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(l->to);
    close(l->from);
}

/* A C++ file libclang takes seconds to parse (2^20 statements from one macro; about 7 s and
 * 300 MB with clang -fsyntax-only): the walk's cancel cannot reach into libclang, the parse's
 * own poll must. */
static char *slow_cpp_text(void)
{
    static char text[4096];
    int n = snprintf(text, sizeof text, "#define A0 x = x + 1;\n");
    for (int i = 1; i <= 20; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "#define A%d A%d A%d\n", i, i - 1, i - 1);
    snprintf(text + n, sizeof text - (size_t)n, "void f() { int x = 0; A20 }\n");
    return json_text(text);
}

static void lsp_open_cpp(lsp *l, const char *name, int version, const char *json_string)
{
    size_t cap = strlen(json_string) + 1024;
    char *msg = malloc(cap);
    snprintf(msg, cap,
             "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file://%s\","
             "\"languageId\":\"cpp\",\"version\":%d,\"text\":%s}}}",
             path_in(name), version, json_string);
    lsp_send(l, msg);
    free(msg);
}

static void lsp_initialize(lsp *l)
{
    lsp_send(l, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}");
    ck_assert_double_ge(lsp_wait_for(l, "\"id\":1", 30), 0);
    lsp_send(l, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
}

START_TEST(lsp_shutdown_during_parse)
{
    lsp l;
    lsp_start(&l);
    lsp_initialize(&l);
    char *slow = slow_cpp_text();
    lsp_open_cpp(&l, "slow.cpp", 1, slow);
    free(slow);
    struct timespec nap = {0, 400000000}; /* libclang is parsing */
    nanosleep(&nap, NULL);
    lsp_shutdown_and_exit(&l, "during a parse");
}
END_TEST

/* Past --max-parse-seconds the document gets an error and the server goes on in a new session:
 * the next document is analysed as usual while the abandoned parse runs out in its thread. */
START_TEST(lsp_parse_bound_then_next_document)
{
    lsp l;
    lsp_start_with(&l, "--max-parse-seconds=1");
    lsp_initialize(&l);
    char *slow = slow_cpp_text();
    lsp_open_cpp(&l, "slow2.cpp", 1, slow);
    free(slow);
    double bounded = lsp_wait_for(&l, "took longer than 1 s", 20);
    fprintf(stderr, "check_walk_budget: LSP parse bound reported after %.1f ms (bound 1 s)\n", bounded * 1000);
    ck_assert_msg(bounded >= 0 && bounded < 3, "the parse bound came after %.3f s", bounded);
    char *small = json_text("#include \"tilefwk/tilefwk.h\"\nusing namespace npu::tile_fwk;\n"
                            "void K(Tensor &a, Tensor &b) {\n"
                            "    FUNCTION(\"k\", {a}, {b}) {\n"
                            "        LOOP(\"L\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1)) {\n"
                            "            Tensor t = Add(a, a);\n"
                            "            b = Add(t, t);\n"
                            "        }\n"
                            "    }\n"
                            "}\n");
    lsp_open_cpp(&l, "small.cpp", 7, small);
    free(small);
    double next = lsp_wait_for(&l, "small.cpp\",\"version\":7", 20);
    ck_assert_msg(next >= 0 && next < 5, "the next document's diagnostics came after %.3f s", next);
    double clean = lsp_wait_for(&l, "not parsed", 0.2);
    ck_assert_msg(clean < 0, "the next document was refused by the abandoned session");
    lsp_shutdown_and_exit(&l, "after an abandoned parse");
}
END_TEST

START_TEST(lsp_shutdown_during_analysis)
{
    lsp l;
    lsp_start(&l);
    lsp_open_grow(&l);
    lsp_shutdown_and_exit(&l, "during an analysis");
}
END_TEST

START_TEST(lsp_eof_during_analysis)
{
    lsp l;
    lsp_start(&l);
    lsp_open_grow(&l);
    close(l.to); /* the client goes away */
    int st = 0;
    double exited = lsp_wait_exit(&l, 20, &st);
    fprintf(stderr, "check_walk_budget: LSP exit after stdin closed: %.1f ms (bound %.0f ms)\n", exited * 1000, EXIT_BOUND_S * 1000);
    ck_assert_msg(exited >= 0 && exited < EXIT_BOUND_S, "exit took %.3f s", exited);
    close(l.from);
}
END_TEST

START_TEST(lsp_newer_edit_cancels)
{
    lsp l;
    lsp_start(&l);
    lsp_open_grow(&l);
    char msg[8192];
    snprintf(msg, sizeof msg,
             "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"file://%s\","
             "\"version\":2},\"contentChanges\":[{\"text\":\"import pypto\\n\"}]}}",
             path_in("grow_lsp.py"));
    lsp_send(&l, msg);
    double fresh = lsp_wait_for(&l, "\"version\":2", 20);
    fprintf(stderr, "check_walk_budget: LSP diagnostics of the newer version after %.1f ms (bound 1000 ms)\n", fresh * 1000);
    ck_assert_msg(fresh >= 0 && fresh < 1.0, "the newer version's diagnostics came after %.3f s", fresh);
    kill(l.pid, SIGKILL);
    int st;
    waitpid(l.pid, &st, 0);
    close(l.to);
    close(l.from);
}
END_TEST

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/check_walk_budget.XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    signal(SIGPIPE, SIG_IGN);
    Suite *s = suite_create("walk_budget");
    TCase *tc = tcase_create("nests");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, nest_50_levels_python);
    tcase_add_test(tc, nest_127_4_python);
    tcase_add_test(tc, nest_small_counts_tasks);
    tcase_add_test(tc, nest_50_levels_cpp);
    tcase_add_test(tc, walk_budget_stops_with_pc012);
    suite_add_tcase(s, tc);
    TCase *tl = tcase_create("lsp");
    tcase_set_timeout(tl, 120);
    tcase_add_test(tl, lsp_shutdown_during_analysis);
    tcase_add_test(tl, lsp_eof_during_analysis);
    tcase_add_test(tl, lsp_newer_edit_cancels);
    tcase_add_test(tl, lsp_shutdown_during_parse);
    tcase_add_test(tl, lsp_parse_bound_then_next_document);
    suite_add_tcase(s, tl);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "check_walk_budget: could not remove %s\n", dir);
    return failed ? 1 : 0;
}
