/*
 * check_bad_inputs.c - the bad-input corpus (tests/bad_inputs/).
 *
 * 1. tests/bad_inputs/manifest.txt: one command-line case per line,
 *        name | status | expectations | command
 *    run against build/bin/poolcheck (or poolcheck-lsp) from an empty working directory, with
 *    stdin from /dev/null.  Placeholders in the command: {bad} = tests/bad_inputs, {tmp} = the
 *    directory of generated inputs (below), {ex} = examples/, {fix} = tests/fixtures/,
 *    {shared} = the shared examples.  Words split like a shell's (quotes, backslashes); \xHH in a
 *    word or an expectation is that byte (non-UTF-8 paths).  Redirections: `>&-` closes stdout,
 *    `>FILE` writes it to FILE (e.g. /dev/full), `<FILE` reads stdin from FILE; a word `@@FILE`
 *    is one argument holding FILE's contents.
 *    Expectations, joined by ` && `: `stderr~TEXT` / `stdout~TEXT` (contains), `stderr!~TEXT`
 *    (does not contain), `stdout#TEXT<=N` (at most N times), `stdout:utf8` (valid UTF-8),
 *    `stderr=` / `stdout=` (empty), `time<=S` (wall seconds), `cpu<=S` (user + system seconds of the
 *    command: a bound on its work that a loaded machine does not move, for the linear-time cases;
 *    a hang is `time<=`'s) and `rss<=MB` (peak resident set of the command): a hostile input's
 *    bound, which the ASan+UBSan pass widens (SANITIZED_SLOWDOWN).
 *    After the status, `nosan: why` runs the case only in a build without sanitizers.
 *    Every case also must not die of a
 *    signal, time out, or print a sanitizer report or a Python traceback.
 * 2. Generated inputs, written into a fresh temporary directory before the cases run: binary
 *    files, a 100 MB source, symbolic-link loops, non-UTF-8 names, directories named like
 *    sources, deeply nested JSON and code, a 10 MB log line, a truncated gzip log.
 * 3. tests/bad_inputs/fuzz/<target>/: inputs the fuzzers (fuzz/) once crashed on, replayed
 *    through the very harness that found them (compiled in by tests/e2e/bad_inputs.cmake).
 * 4. Bad input a command line cannot send as such (the LSP server's in-memory transport): a
 *    didOpen text holding U+0000.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4: the peak memory of a case */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lsp.h" /* plugin/lsp: the in-memory transport, for the NUL-in-didOpen test */

#define BAD_DIR PC_SOURCE_DIR "/tests/bad_inputs"
#define CASE_TIMEOUT_S 300

/* Sanitizers run a command several times slower and with shadow memory: a case's time and memory
 * bounds are widened by these factors there, so the bound still tells linear from exponential. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED_SLOWDOWN 10.0
#define SANITIZED_MEMORY 4.0
#else
#define SANITIZED_SLOWDOWN 1.0
#define SANITIZED_MEMORY 1.0
#endif

/* ==== the fuzz harnesses (fuzz/fuzz_<target>.c with FUZZ_ENTRY=pc_fuzz_<target>) ============= */

int pc_fuzz_logs(const uint8_t *data, size_t size);
int pc_fuzz_config_file(const uint8_t *data, size_t size);
int pc_fuzz_project(const uint8_t *data, size_t size);
int pc_fuzz_model_json(const uint8_t *data, size_t size);
int pc_fuzz_options(const uint8_t *data, size_t size);
int pc_fuzz_lsp(const uint8_t *data, size_t size);

typedef struct fuzz_target { const char *name; int (*fn)(const uint8_t *, size_t); } fuzz_target;
static const fuzz_target fuzz_targets[] = {
    {"logs", pc_fuzz_logs},       {"config_file", pc_fuzz_config_file},
    {"project", pc_fuzz_project}, {"model_json", pc_fuzz_model_json},
    {"options", pc_fuzz_options}, {"lsp", pc_fuzz_lsp},
};

/* Set-up runs outside any test (Check's asserts are for tests only): die loudly. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "check_bad_inputs: %s:%d: %s failed\n", __FILE__, __LINE__, #cond);      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ==== small helpers ============================================================================ */

static char tmpdir[256];

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    REQUIRE(p);
    return p;
}

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static void write_bytes(const char *name, const void *data, size_t len)
{
    char *p = path_in(tmpdir, name);
    FILE *f = fopen(p, "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
        fprintf(stderr, "check_bad_inputs: cannot write %s: %s\n", p, strerror(errno));
        exit(1);
    }
    free(p);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 4096)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

/* Deterministic pseudo-random bytes (NULs, control bytes, invalid UTF-8 all included). */
static void fill_random(unsigned char *p, size_t n, uint32_t seed)
{
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

/* ==== generated inputs =========================================================================== */

static void gen_repeat(const char *name, const char *head, const char *unit, size_t times, const char *tail)
{
    char *p = path_in(tmpdir, name);
    FILE *f = fopen(p, "wb");
    REQUIRE(f);
    fputs(head, f);
    for (size_t i = 0; i < times; i++)
        fputs(unit, f);
    fputs(tail, f);
    REQUIRE(fclose(f) == 0);
    free(p);
}

static void gen_copy(const char *from, const char *name)
{
    size_t len;
    char *data = read_all(from, &len);
    if (!data) {
        fprintf(stderr, "check_bad_inputs: cannot read %s\n", from);
        exit(1);
    }
    write_bytes(name, data, len);
    free(data);
}

static void gen_symlink(const char *target, const char *name)
{
    char *p = path_in(tmpdir, name);
    if (symlink(target, p) != 0) {
        fprintf(stderr, "check_bad_inputs: symlink %s: %s\n", p, strerror(errno));
        exit(1);
    }
    free(p);
}

static void gen_dir(const char *name)
{
    char *p = path_in(tmpdir, name);
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "check_bad_inputs: mkdir %s: %s\n", p, strerror(errno));
        exit(1);
    }
    free(p);
}

static void generate_inputs(void)
{
    const char *example_py = PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.py";
    const char *example_cpp = PC_SOURCE_DIR "/examples/k_tmp_to_d_emb.cpp";
    const char *example_log = PC_SOURCE_DIR "/examples/logs/k_tmp_to_d_emb.device.log";

    gen_dir("cwd"); /* every case runs here: no .poolcheck.json above it but /tmp's */

    /* binary files under every extension poolcheck reads */
    unsigned char *bin = malloc(65536);
    fill_random(bin, 65536, 12345u);
    write_bytes("binary.py", bin, 65536);
    write_bytes("binary.cpp", bin, 65536);
    write_bytes("binary.log", bin, 65536);
    write_bytes("binary.json", bin, 65536);
    free(bin);
    /* ELF-looking: starts with the magic and NULs */
    write_bytes("elf.py", "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16);

    /* a 100 MB source: the seed kernel, then comment lines (CPython's AST for 100 MB of
     * statements would need ~40 GB; comments make the size the point, not the parser's memory) */
    size_t len;
    char *ex = read_all(example_py, &len);
    REQUIRE(ex);
    gen_repeat("big.py", ex, "# padding padding padding padding padding padding padding padding padding padding pad\n",
               (100u << 20) / 88, "");
    free(ex);
    /* a 100 MB log: the example log repeated (one run, many launches) */
    char *log = read_all(example_log, &len);
    REQUIRE(log);
    gen_repeat("big.log", "", log, (100u << 20) / len + 1, "");
    /* the same log with its line breaks turned into lone CRs */
    {
        char *cr = malloc(len);
        REQUIRE(cr != NULL);
        for (size_t i = 0; i < len; i++)
            cr[i] = log[i] == '\n' ? '\r' : log[i];
        write_bytes("cr_only.log", cr, len);
        free(cr);
    }
    /* a log cut in the middle of its last tagged line, and one 10 MB line */
    write_bytes("cut_midline.log", log, len - 40);
    free(log);
    char *longline = malloc(10u << 20);
    memset(longline, 'x', 10u << 20);
    memcpy(longline + (5u << 20), "[Workspace Runtime Tuning] taskId=0, stitchCount=1", 50);
    write_bytes("long_line.log", longline, 10u << 20);
    free(longline);
    /* a gzip log cut in half (corrupt stream) */
    {
        char *gzpath = path_in(tmpdir, "cut.log.gz");
        gzFile gz = gzopen(gzpath, "wb");
        REQUIRE(gz);
        char *text = read_all(example_log, &len);
        for (int i = 0; i < 20; i++)
            gzwrite(gz, text, (unsigned)len);
        gzclose(gz);
        free(text);
        char *z = read_all(gzpath, &len);
        write_bytes("cut.log.gz", z, len / 2);
        free(z);
        free(gzpath);
    }

    /* directories where files are expected */
    gen_dir("dir.py");
    gen_dir("empty_dir");
    gen_dir("dir.log");
    gen_dir("tile_fwk_config.json");

    /* symbolic links: a self loop, a two-link loop, a dangling link, a directory loop */
    gen_symlink("loop.py", "loop.py");
    gen_symlink("loop_b.cpp", "loop_a.cpp");
    gen_symlink("loop_a.cpp", "loop_b.cpp");
    gen_symlink("does/not/exist.py", "dangling.py");
    gen_dir("tree");
    gen_dir("tree/sub");
    gen_symlink("..", "tree/sub/up");
    gen_symlink(".", "tree/self");
    gen_copy(example_py, "tree/sub/k.py");
    gen_dir("logtree");
    gen_symlink("..", "logtree/up");
    gen_symlink("logtree/loop.log", "logtree/loop.log");
    gen_copy(example_log, "logtree/run.log");

    /* non-UTF-8 names and contents */
    gen_copy(example_py, "k\xff\xfe.py");
    gen_copy(example_cpp, "k\xc3\x28.cpp");
    gen_copy(example_log, "run\xe9.log");
    gen_dir("d\xff");
    gen_copy(example_py, "d\xff/k.py");

    /* deeply nested JSON (cJSON stops at 1000 levels) and code */
    gen_repeat("deep_array.json", "", "[", 100000, "");
    {
        char *p = path_in(tmpdir, "deep_runtime.json");
        FILE *f = fopen(p, "wb");
        fputs("{\"runtime\": {\"stitch_function_num_per_pool\": ", f);
        for (int i = 0; i < 5000; i++)
            fputc('[', f);
        for (int i = 0; i < 5000; i++)
            fputc(']', f);
        fputs("}}", f);
        fclose(f);
        free(p);
    }
    gen_repeat("deep_shapes.json", "", "[{\"n\": ", 3000, "1");
    /* a million levels: the JSON reader's depth limit, not the C stack, must stop it */
    gen_repeat("deep_array_1m.json", "", "[", 1000000, "");
    gen_repeat("deep_object_1m.json", "", "{\"a\": ", 1000000, "");
    /* a project file found by discovery that is a symbolic link to itself, beside a kernel */
    gen_dir("projloop");
    gen_symlink(".poolcheck.json", "projloop/.poolcheck.json");
    gen_copy(example_py, "projloop/k.py");
    /* names a shell or an option parser trips on: a line break inside, a leading '-' (in the
     * directory the cases run in, so `./-k.py` reaches it) */
    gen_copy(example_py, "line\nbreak.py");
    gen_copy(example_py, "cwd/-k.py");
    /* inputs that -o / --report must not overwrite: each case has its own copy, so one that is
     * overwritten shows in the case that checks it afterwards */
    gen_copy(example_py, "victim_o.py");
    gen_copy(example_py, "victim_report.py");
    gen_copy(example_py, "victim_link.py");
    gen_symlink("victim_link.py", "victim_alias.py");
    gen_copy(example_log, "victim.log");
    write_bytes("victim_config.json", "{}\n", 3);
    gen_repeat("deep_parens.py", "x = ", "(", 5000, "1");
    /* 100,000 module constants no kernel reads, before the seed kernel (once
     * quadratic: 38 s for half as many) */
    {
        char *p = path_in(tmpdir, "const_100k.py");
        FILE *f = fopen(p, "wb");
        REQUIRE(f != NULL);
        for (int i = 0; i < 100000; i++)
            fprintf(f, "V%d = %d\n", i, i);
        size_t n;
        char *seed = read_all(example_py, &n);
        REQUIRE(seed != NULL);
        fwrite(seed, 1, n, f);
        free(seed);
        REQUIRE(fclose(f) == 0);
        free(p);
    }
    /* ... and a chain of 100,000 a kernel reads through its last link: evaluated with a stack of
     * its own (C recursion that deep would overflow), each link once */
    {
        char *p = path_in(tmpdir, "const_chain_100k.py");
        FILE *f = fopen(p, "wb");
        REQUIRE(f != NULL);
        fputs("import pypto\nV0 = 1\n", f);
        for (int i = 1; i < 100000; i++)
            fprintf(f, "V%d = V%d + 1\n", i, i - 1);
        fputs("\n\n@pypto.frontend.jit\n"
              "def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):\n"
              "    for i in pypto.loop(0, V99999 // 10000, 1, name=\"l\"):\n"
              "        y[:] = pypto.add(x, x)\n",
              f);
        REQUIRE(fclose(f) == 0);
        free(p);
    }
    {
        /* 300 nested blocks inside a kernel loop (CPython's parser limit is 200 indentation
         * levels... of its tokenizer: 100) */
        char *p = path_in(tmpdir, "deep_blocks.py");
        FILE *f = fopen(p, "wb");
        fputs("import pypto\n\n@pypto.frontend.jit\ndef k(x: pypto.Tensor):\n", f);
        for (int i = 0; i < 300; i++)
            fprintf(f, "%*sif x:\n", 4 * (i + 1), "");
        fprintf(f, "%*spass\n", 4 * 301, "");
        fclose(f);
        free(p);
    }
    {
        char *p = path_in(tmpdir, "deep_braces.cpp");
        FILE *f = fopen(p, "wb");
        fputs("#include \"tilefwk/tilefwk.h\"\nusing namespace npu::tile_fwk;\nvoid K(Tensor &x) {\n"
              "  FUNCTION(\"k\", {x}, {x}) {\n",
              f);
        for (int i = 0; i < 3000; i++)
            fputc('{', f);
        for (int i = 0; i < 3000; i++)
            fputc('}', f);
        fputs("\n  }\n}\n", f);
        fclose(f);
        free(p);
    }
    gen_repeat("deep_expr.cpp", "int x = ", "(", 100000, "1;\n");
    /* a source whose one line is 10 MB long */
    gen_repeat("long_line.py", "x = 1", " + 1", (10u << 20) / 4, "\n");

    {
        /* the PC001 fixture with its options call 2 KB long: a diagnostic with a fix-it far out on
         * a long line */
        size_t flen;
        char *fx = read_all(PC_SOURCE_DIR "/tests/fixtures/checks/pc001_zero_depth_pool.py", &flen);
        REQUIRE(fx != NULL);
        const char *call = "set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])";
        char *at = strstr(fx, call);
        REQUIRE(at != NULL);
        char *p = path_in(tmpdir, "long_option_line.py");
        FILE *f = fopen(p, "wb");
        fwrite(fx, 1, (size_t)(at - fx), f);
        fputs("set_runtime_options(", f);
        for (int i = 0; i < 100; i++)
            fputs("max_workspace_kb=1, ", f);
        fputs(call + strlen("set_runtime_options("), f);
        fputs(at + strlen(call), f);
        fclose(f);
        free(p);
        free(fx);
    }
    /* a kernel whose runtime_options value is nested 100 deep (the option parser's recursion) */
    {
        char *p = path_in(tmpdir, "deep_option.py");
        FILE *f = fopen(p, "wb");
        fputs("import pypto\n\n@pypto.frontend.jit(runtime_options={\"stitch_function_num_per_pool\": ", f);
        for (int i = 0; i < 90; i++)
            fputc('[', f);
        fputc('1', f);
        for (int i = 0; i < 90; i++)
            fputc(']', f);
        fputs("})\ndef k(x: pypto.Tensor):\n    pass\n", f);
        fclose(f);
        free(p);
    }
    {
        /* --set with a 100000-deep list: one argv word */
        char *p = path_in(tmpdir, "deep_set.txt");
        FILE *f = fopen(p, "wb");
        fputs("stitch_function_num_per_pool=", f);
        for (int i = 0; i < 100000; i++)
            fputc('[', f);
        fclose(f);
        free(p);
    }

    /* FIFOs (a read would wait for a writer forever) and sparse files past the read caps (2 GiB
     * of source, 100 MiB of configuration: no disk space, the size alone is refused) */
    {
        static const char *const fifos[] = {"fifo.py", "fifo.json", "fifo.log"};
        for (size_t i = 0; i < sizeof fifos / sizeof *fifos; i++) {
            char *p = path_in(tmpdir, fifos[i]);
            REQUIRE(mkfifo(p, 0600) == 0);
            free(p);
        }
        static const struct { const char *name; off_t size; } sparse[] = {
            {"huge.py", (off_t)2 << 30}, {"huge.json", (off_t)100 << 20}};
        for (size_t i = 0; i < sizeof sparse / sizeof *sparse; i++) {
            char *p = path_in(tmpdir, sparse[i].name);
            int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            REQUIRE(fd >= 0 && ftruncate(fd, sparse[i].size) == 0 && close(fd) == 0);
            free(p);
        }
    }
    /* special files behind #include: a FIFO header (named by its absolute path, and found
     * through -I), /dev/zero and /dev/urandom (read to an end that never comes), and a macro that
     * expands to 2^25 tokens (for the parse's time bound) */
    {
        gen_dir("inc_fifo");
        char *p = path_in(tmpdir, "inc_fifo/fifo.h");
        REQUIRE(mkfifo(p, 0600) == 0);
        char text[600];
        snprintf(text, sizeof text, "#include \"%s\"\nint x;\n", p);
        write_bytes("include_fifo_abs.cpp", text, strlen(text));
        free(p);
        static const char dir_inc[] = "#include \"fifo.h\"\nint x;\n";
        write_bytes("include_fifo_dir.cpp", dir_inc, sizeof dir_inc - 1);
        static const char zero[] = "int a;\n#include \"/dev/zero\"\nint x;\n";
        write_bytes("include_dev_zero.cpp", zero, sizeof zero - 1);
        static const char urandom[] = "#include \"/dev/urandom\"\nint x;\n";
        write_bytes("include_dev_urandom.cpp", urandom, sizeof urandom - 1);
        p = path_in(tmpdir, "macro_bomb.cpp");
        FILE *f = fopen(p, "wb");
        REQUIRE(f);
        fputs("#define A0 x x\n", f);
        for (int i = 1; i <= 24; i++)
            fprintf(f, "#define A%d A%d A%d\n", i, i - 1, i - 1);
        fputs("int A24;\n", f);
        REQUIRE(fclose(f) == 0);
        free(p);
    }
    /* the PC001 fixtures with their first line ended by a lone CR, which CPython and clang count
     * as a line break (the report and --fix must count it too) */
    {
        static const char *const fixtures[] = {"pc001_zero_depth_pool.py", "pc001_zero_depth_pool.cpp"};
        static const char *const names[] = {"cr_first.py", "cr_first.cpp"};
        for (size_t i = 0; i < 2; i++) {
            char *from = path_in(PC_SOURCE_DIR "/tests/fixtures/checks", fixtures[i]);
            size_t flen;
            char *text = read_all(from, &flen);
            REQUIRE(text != NULL);
            char *nl = memchr(text, '\n', flen);
            REQUIRE(nl != NULL);
            *nl = '\r';
            write_bytes(names[i], text, flen);
            free(text);
            free(from);
        }
    }
    /* terminal escapes in an option value and in a file name */
    {
        static const char esc[] = "import pypto\n\npypto.experimental.set_runtime_options("
                                  "stitch_function_max_num=\"\x1b]0;pwned\x07\x1b[2J\")\n";
        write_bytes("esc.py", esc, sizeof esc - 1);
        write_bytes("e\x1b[2Jx.py", esc, sizeof esc - 1);
        gen_copy(example_py, "\x1b[2J.py");
        gen_copy(example_log, "r\x1b[2Jun.log");
    }
    /* floods: a helper nested 16 deep calls the next one twice (65,536 paths to one call site),
     * and a kernel with 300 statements that cannot be modelled */
    {
        char *p = path_in(tmpdir, "exp_helper.cpp");
        FILE *f = fopen(p, "wb");
        fputs("#include \"tilefwk/tilefwk.h\"\nusing namespace npu::tile_fwk;\n"
              "static void H0(Tensor &x) { x = Frobnicate(x); }\n", f);
        for (int i = 1; i <= 16; i++)
            fprintf(f, "static void H%d(Tensor &x) { H%d(x); H%d(x); }\n", i, i - 1, i - 1);
        fputs("void K(Tensor &x, Tensor &y)\n{\n    FUNCTION(\"k\", {x}, {y})\n    {\n"
              "        LOOP(\"l\", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1))\n        {\n"
              "            H16(x);\n        }\n    }\n}\n", f);
        fclose(f);
        free(p);
        p = path_in(tmpdir, "many_unanalysed.py");
        f = fopen(p, "wb");
        fputs("import pypto\n\n\n@pypto.frontend.jit\ndef k(x: pypto.Tensor([64, 16], pypto.DT_FP32)):\n", f);
        for (int i = 0; i < 300; i++)
            fprintf(f, "    match %d:\n        case _:\n            pass\n", i);
        fclose(f);
        free(p);
    }
}

/* Remove the generated tree (symlinks are removed, never followed). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                    char *p = path_in(path, e->d_name);
                    remove_tree(p);
                    free(p);
                }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ==== the manifest ================================================================================ */

typedef struct bad_case {
    char *name;
    int line;
    int status;
    char *expect;
    char *command;
    char *xfail;      /* "xfail: why" after the status: a known bug in a module being finished */
} bad_case;

static bad_case *cases;
static size_t ncases;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

static void load_manifest(void)
{
    FILE *f = fopen(BAD_DIR "/manifest.txt", "r");
    if (!f) {
        fprintf(stderr, "check_bad_inputs: cannot open %s\n", BAD_DIR "/manifest.txt");
        exit(1);
    }
    char buf[8192];
    int lineno = 0;
    size_t cap = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        char *l = trim(buf);
        if (!*l || *l == '#')
            continue;
        char *fields[4];
        int nf = 0;
        char *p = l;
        while (nf < 3) {
            char *bar = strstr(p, " | ");
            if (!bar)
                break;
            *bar = 0;
            fields[nf++] = trim(p);
            p = bar + 3;
        }
        fields[nf++] = trim(p);
        char *end = NULL;
        long status = nf == 4 ? strtol(fields[1], &end, 10) : -1;
        char *xfail = NULL;
        if (end && *end == ' ') {
            xfail = trim(end);
            end = strncmp(xfail, "xfail", 5) == 0 || strncmp(xfail, "nosan", 5) == 0 ? xfail + strlen(xfail) : xfail;
        }
        if (nf != 4 || !end || *end || status < 0 || status > 255) {
            fprintf(stderr, "%s:%d: expected `name | status | expectations | command`\n", BAD_DIR "/manifest.txt", lineno);
            exit(1);
        }
        if (ncases == cap)
            cases = realloc(cases, (cap = cap ? cap * 2 : 64) * sizeof *cases);
        cases[ncases++] = (bad_case){xstrdup(fields[0]), lineno, (int)status, xstrdup(fields[2]), xstrdup(fields[3]),
                                     xfail ? xstrdup(xfail) : NULL};
    }
    fclose(f);
}

/* Append s[0..n) to a growing buffer. */
typedef struct buf { char *p; size_t len, cap; } buf;
static void buf_add(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Placeholders and \xHH escapes. */
static char *expand(const char *s)
{
    static const struct { const char *key, *value; } vars[] = {
        {"{bad}", BAD_DIR},
        {"{ex}", PC_SOURCE_DIR "/examples"},
        {"{fix}", PC_SOURCE_DIR "/tests/fixtures"},
        {"{shared}", PC_SOURCE_DIR "/examples"},
        {"{tmp}", NULL},
    };
    buf b = {0};
    buf_add(&b, "", 0);
    while (*s) {
        bool done = false;
        for (size_t i = 0; i < sizeof vars / sizeof *vars && !done; i++)
            if (strncmp(s, vars[i].key, strlen(vars[i].key)) == 0) {
                const char *v = vars[i].value ? vars[i].value : tmpdir;
                buf_add(&b, v, strlen(v));
                s += strlen(vars[i].key);
                done = true;
            }
        if (done)
            continue;
        if (s[0] == '\\' && s[1] == 'x' && hexval(s[2]) >= 0 && hexval(s[3]) >= 0) {
            char c = (char)(hexval(s[2]) * 16 + hexval(s[3]));
            buf_add(&b, &c, 1);
            s += 4;
            continue;
        }
        buf_add(&b, s, 1);
        s++;
    }
    return b.p;
}

/* Shell-like words: blanks separate, '...' is literal, "..." and bare words take \-escapes
 * (\xHH was already expanded). */
static char **split_words(const char *s, int *n)
{
    char **words = NULL;
    *n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        buf w = {0};
        buf_add(&w, "", 0);
        while (*s && *s != ' ' && *s != '\t') {
            if (*s == '\'') {
                const char *e = strchr(s + 1, '\'');
                REQUIRE(e != NULL);
                buf_add(&w, s + 1, (size_t)(e - s - 1));
                s = e + 1;
            } else if (*s == '"') {
                s++;
                while (*s && *s != '"') {
                    if (*s == '\\' && s[1])
                        s++;
                    buf_add(&w, s++, 1);
                }
                REQUIRE(*s == '"');
                s++;
            } else {
                if (*s == '\\' && s[1])
                    s++;
                buf_add(&w, s++, 1);
            }
        }
        words = realloc(words, (size_t)(*n + 2) * sizeof *words);
        words[(*n)++] = w.p;
        words[*n] = NULL;
    }
    return words;
}

/* ==== running one case ============================================================================ */

typedef struct run_result {
    int status;       /* exit status, 128 + signal, or -1 on timeout */
    char *out, *err;
    size_t out_len, err_len;
    double seconds;
    double cpu_seconds; /* user + system time of the command (getrusage of the waited child) */
    long maxrss_kb;   /* peak resident set of the command (getrusage of the waited child) */
} run_result;

static run_result run_case(const bad_case *c)
{
    char *cmd = expand(c->command);
    int nwords;
    char **words = split_words(cmd, &nwords);
    ck_assert_msg(nwords > 0, "%s: empty command", c->name);

    const char *stdin_path = "/dev/null", *stdout_path = NULL;
    bool close_stdout = false;
    char *argv[256];
    int argc = 0;
    for (int i = 0; i < nwords; i++) {
        if (strcmp(words[i], ">&-") == 0)
            close_stdout = true;
        else if (words[i][0] == '>' && words[i][1])
            stdout_path = words[i] + 1;
        else if (words[i][0] == '<' && words[i][1])
            stdin_path = words[i] + 1;
        else if (strncmp(words[i], "@@", 2) == 0 && argc < 255) {
            /* @@FILE: one argument holding FILE's contents (a 100000-deep --set value) */
            char *contents = read_all(words[i] + 2, NULL);
            ck_assert_msg(contents != NULL, "%s: cannot read %s", c->name, words[i] + 2);
            free(words[i]);
            words[i] = contents;
            argv[argc++] = words[i];
        } else if (argc < 255)
            argv[argc++] = words[i];
    }
    argv[argc] = NULL;
    char *prog = NULL;
    if (strcmp(argv[0], "poolcheck") == 0 || strcmp(argv[0], "poolcheck-lsp") == 0)
        prog = path_in(PC_BINARY_DIR "/bin", argv[0]);
    else
        prog = xstrdup(argv[0]);

    char *outp = path_in(tmpdir, "case.stdout"), *errp = path_in(tmpdir, "case.stderr");
    char *cwd = path_in(tmpdir, "cwd");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setpgid(0, 0);
        if (chdir(cwd) != 0)
            _exit(126);
        int in = open(stdin_path, O_RDONLY);
        int out = open(stdout_path ? stdout_path : outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0)
            _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        close(in);
        close(out);
        close(err);
        if (close_stdout)
            close(1);
        execv(prog, argv);
        _exit(127);
    }
    run_result r = {0};
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    for (;;) {
        pid_t w = wait4(pid, &st, WNOHANG, &ru);
        if (w == pid)
            break;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (t1.tv_sec - t0.tv_sec > CASE_TIMEOUT_S) {
            kill(-pid, SIGKILL);
            wait4(pid, &st, 0, &ru);
            st = -1;
            break;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    r.maxrss_kb = ru.ru_maxrss;
    r.cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                    (double)ru.ru_stime.tv_usec / 1e6;
    r.status = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = stdout_path ? xstrdup("") : read_all(outp, &r.out_len);
    r.err = read_all(errp, &r.err_len);
    if (!r.out)
        r.out = xstrdup("");
    if (!r.err)
        r.err = xstrdup("");
    unlink(outp);
    unlink(errp);
    free(outp);
    free(errp);
    free(cwd);
    free(prog);
    for (int i = 0; i < nwords; i++)
        free(words[i]);
    free(words);
    free(cmd);
    return r;
}

static bool contains(const char *hay, size_t hay_len, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return true;
    for (size_t i = 0; i + n <= hay_len; i++)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, n) == 0)
            return true;
    return false;
}

/* What to show of an output in a failure message. */
static const char *head_of(const char *s)
{
    static char shown[2][600];
    static int which;
    which ^= 1;
    snprintf(shown[which], sizeof shown[which], "%.580s%s", s, strlen(s) > 580 ? "..." : "");
    return shown[which];
}

/* Offset of the first byte that is not part of a valid UTF-8 sequence, or (size_t)-1. Written
 * here rather than taken from the library: the test must not share the code it checks. */
static size_t utf8_invalid_at(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 2 : (c & 0xF0) == 0xE0 ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (!k || i + k > len)
            return i;
        for (size_t j = 1; j < k; j++)
            if ((s[i + j] & 0xC0) != 0x80)
                return i;
        unsigned cp = k == 1 ? c : k == 2 ? (c & 0x1F) : k == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t j = 1; j < k; j++)
            cp = (cp << 6) | (s[i + j] & 0x3F);
        if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += k;
    }
    return (size_t)-1;
}

/* The first way the run differs from the case's expectations, or NULL (malloc'd message). */
static char *judge_case(const bad_case *c, const run_result *r)
{
    char msg[2048];
    if (r->status == -1) {
        snprintf(msg, sizeof msg, "timed out after %d s", CASE_TIMEOUT_S);
        return xstrdup(msg);
    }
    if (r->status >= 128) {
        snprintf(msg, sizeof msg, "killed by signal %d; stderr: %s", r->status - 128, head_of(r->err));
        return xstrdup(msg);
    }
    static const char *const never[] = {"AddressSanitizer", "LeakSanitizer", "runtime error:",
                                        "Traceback (most recent call last)", "Segmentation fault"};
    for (size_t i = 0; i < sizeof never / sizeof *never; i++)
        if (contains(r->err, r->err_len, never[i])) {
            snprintf(msg, sizeof msg, "stderr has '%s': %s", never[i], head_of(r->err));
            return xstrdup(msg);
        }
    if (r->status != c->status) {
        snprintf(msg, sizeof msg, "exit status %d, expected %d; stderr: %s; stdout: %s", r->status, c->status,
                 head_of(r->err), head_of(r->out));
        return xstrdup(msg);
    }
    char *expect = expand(c->expect);
    char *failure = NULL;
    for (char *clause = expect; clause && *clause && !failure;) {
        char *next = strstr(clause, " && ");
        if (next) {
            *next = 0;
            next += 4;
        }
        char *cl = trim(clause);
        msg[0] = 0;
        if (strncmp(cl, "time<=", 6) == 0 || strncmp(cl, "cpu<=", 5) == 0 || strncmp(cl, "rss<=", 5) == 0) {
            bool is_time = cl[0] != 'r', is_cpu = cl[0] == 'c';
            double bound = strtod(cl + (cl[0] == 't' ? 6 : 5), NULL) * (is_time ? SANITIZED_SLOWDOWN : SANITIZED_MEMORY);
            double got = is_cpu ? r->cpu_seconds : is_time ? r->seconds : (double)r->maxrss_kb / 1024.0;
            if (got > bound)
                snprintf(msg, sizeof msg, "%s %.2f %s, bound %.2f", is_cpu ? "used" : is_time ? "took" : "peak memory",
                         got, is_cpu ? "s of CPU" : is_time ? "s" : "MB", bound);
            if (msg[0])
                failure = xstrdup(msg);
            clause = next;
            continue;
        }
        bool is_err = strncmp(cl, "stderr", 6) == 0, is_out = strncmp(cl, "stdout", 6) == 0;
        const char *text = is_err ? r->err : r->out;
        size_t len = is_err ? r->err_len : r->out_len;
        const char *stream = is_err ? "stderr" : "stdout", *op = cl + 6;
        msg[0] = 0;
        if (!is_err && !is_out)
            snprintf(msg, sizeof msg, "bad expectation '%s'", cl);
        else if (strncmp(op, "!~", 2) == 0) {
            if (contains(text, len, op + 2))
                snprintf(msg, sizeof msg, "%s has '%s': %s", stream, op + 2, head_of(text));
        } else if (op[0] == '~') {
            if (!contains(text, len, op + 1))
                snprintf(msg, sizeof msg, "%s lacks '%s': %s", stream, op + 1, head_of(text));
        } else if (op[0] == '#' && strstr(op, "<=")) {
            /* TEXT at most N times: a flood of one repeated diagnostic */
            char *le = strstr(op, "<=");
            *le = 0;
            long max = strtol(le + 2, NULL, 10), n = 0;
            for (size_t i = 0, k = strlen(op + 1); k && i + k <= len; i++)
                if (memcmp(text + i, op + 1, k) == 0)
                    n++;
            if (n > max)
                snprintf(msg, sizeof msg, "%s has '%s' %ld times (at most %ld expected)", stream, op + 1, n, max);
        } else if (strcmp(op, ":utf8") == 0) {
            /* JSON text must be UTF-8 (RFC 8259 8.1), whatever bytes the paths hold */
            size_t bad = utf8_invalid_at(text, len);
            if (bad != (size_t)-1)
                snprintf(msg, sizeof msg, "%s is not valid UTF-8 (byte 0x%02X at offset %zu)", stream,
                         (unsigned char)text[bad], bad);
        } else if (op[0] == '=' && op[1] == 0) {
            if (len != 0)
                snprintf(msg, sizeof msg, "%s should be empty: %s", stream, head_of(text));
        } else {
            snprintf(msg, sizeof msg, "bad expectation '%s'", cl);
        }
        if (msg[0])
            failure = xstrdup(msg);
        clause = next;
    }
    free(expect);
    return failure;
}

START_TEST(test_manifest_case)
{
    const bad_case *c = &cases[_i];
    if (c->xfail && strncmp(c->xfail, "nosan", 5) == 0) {
        /* `nosan: why`: what the sanitizers' own runtime cannot take (the case's note says why) */
        if (SANITIZED_SLOWDOWN > 1.0) {
            fprintf(stderr, "SKIP %s (%s)\n", c->name, c->xfail);
            return;
        }
        bad_case plain = *c;
        plain.xfail = NULL;
        run_result pr = run_case(&plain);
        char *pf = judge_case(&plain, &pr);
        ck_assert_msg(pf == NULL, "%s:%d: %s: %s", BAD_DIR "/manifest.txt", c->line, c->name, pf);
        free(pr.out);
        free(pr.err);
        return;
    }
    run_result r = run_case(c);
    char *failure = judge_case(c, &r);
    const char *where = BAD_DIR "/manifest.txt";
    if (c->xfail) {
        /* a known bug (see the case's xfail note): it must still fail, and fail short of a crash
         * or a hang; when it passes, the bug is fixed and the marker must go */
        ck_assert_msg(failure != NULL, "%s:%d: %s: passes now: remove its '%s' marker", where, c->line, c->name,
                      c->xfail);
        ck_assert_msg(r.status >= 0 && r.status < 128, "%s:%d: %s (%s): %s", where, c->line, c->name, c->xfail,
                      failure);
        fprintf(stderr, "XFAIL %s (%s): %s\n", c->name, c->xfail, failure);
    } else {
        ck_assert_msg(failure == NULL, "%s:%d: %s: %s", where, c->line, c->name, failure);
    }
    if (r.seconds > 5)
        fprintf(stderr, "note: %s took %.1f s\n", c->name, r.seconds);
    free(failure);
    free(r.out);
    free(r.err);
}
END_TEST

/* ==== fuzz crash replays =========================================================================== */

typedef struct replay { const fuzz_target *target; char *path; } replay;
static replay *replays;
static size_t nreplays;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void load_replays(void)
{
    for (size_t t = 0; t < sizeof fuzz_targets / sizeof *fuzz_targets; t++) {
        char *dir = path_in(BAD_DIR "/fuzz", fuzz_targets[t].name);
        DIR *d = opendir(dir);
        if (!d) {
            free(dir);
            continue;
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                names = realloc(names, (n + 1) * sizeof *names);
                names[n++] = xstrdup(e->d_name);
            }
        closedir(d);
        if (n)
            qsort(names, n, sizeof *names, cmp_str);
        for (size_t i = 0; i < n; i++) {
            replays = realloc(replays, (nreplays + 1) * sizeof *replays);
            replays[nreplays++] = (replay){&fuzz_targets[t], path_in(dir, names[i])};
            free(names[i]);
        }
        free(names);
        free(dir);
    }
}

START_TEST(test_fuzz_replay)
{
    const replay *rp = &replays[_i];
    size_t len;
    char *data = read_all(rp->path, &len);
    ck_assert_msg(data != NULL, "cannot read %s", rp->path);
    /* Check runs this in a forked child: a crash is reported as this test's error */
    ck_assert_int_eq(rp->target->fn((const uint8_t *)data, len), 0);
    free(data);
}
END_TEST

/* Every harness also gets an empty and a one-byte input (the edges of their input layouts). */
START_TEST(test_fuzz_edges)
{
    for (size_t t = 0; t < sizeof fuzz_targets / sizeof *fuzz_targets; t++) {
        ck_assert_int_eq(fuzz_targets[t].fn((const uint8_t *)"", 0), 0);
        ck_assert_int_eq(fuzz_targets[t].fn((const uint8_t *)"\x01", 1), 0);
    }
}
END_TEST

/* ==== the LSP server in memory ==================================================================== */

/* The LSP server's whole output for a session in memory (virtual clock, so the debounce costs
 * nothing): initialize, the given messages at t = 0, shutdown and exit at t = 10 s. */
static char *lsp_session(const char *const *msgs, size_t n)
{
    pc_lsp_mem mem;
    pc_lsp_transport t;
    pc_lsp_mem_init(&mem, &t);
    pc_lsp_mem_feed_msg(&mem, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}");
    pc_lsp_mem_feed_msg(&mem, 0, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    for (size_t i = 0; i < n; i++)
        pc_lsp_mem_feed_msg(&mem, 0, msgs[i]);
    pc_lsp_mem_feed_msg(&mem, 10000, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
    pc_lsp_mem_feed_msg(&mem, 10000, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    pc_lsp_server_opts o;
    pc_lsp_server_opts_init(&o);
    pc_lsp_server *srv = pc_lsp_server_new(&t, &o);
    pc_lsp_server_run(srv);
    pc_lsp_server_free(srv);
    char *out = xstrdup(mem.out.data ? mem.out.data : "");
    pc_lsp_mem_free(&mem);
    return out;
}

/* plugin/lsp: a didOpen whose text holds U+0000 is analysed whole, as the CLI reads the file:
 * Python refuses it ("the file contains a NUL byte", at the NUL), where cJSON's C strings once
 * cut the text at the NUL and left the junk after it unseen (empty diagnostics). */
START_TEST(test_lsp_text_with_nul_is_whole)
{
    const char *open = "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
                       "{\"uri\":\"file:///tmp/pc-bad-lsp/nul.py\",\"languageId\":\"python\",\"version\":1,"
                       "\"text\":\"import pypto\\nx = 1\\u0000\\nthis is not python (\\n\"}}}";
    char *out = lsp_session(&open, 1);
    const char *pub = strstr(out, "\"uri\":\"file:///tmp/pc-bad-lsp/nul.py\"");
    ck_assert_msg(pub != NULL, "no publishDiagnostics for the document: %s", out);
    ck_assert_msg(strstr(pub, "\"diagnostics\":[]") == NULL, "the text after the NUL went unseen: %s", out);
    ck_assert_msg(strstr(pub, "NUL byte") != NULL, "the NUL is not reported as the CLI reports it: %s", out);
    ck_assert_msg(strstr(pub, "\"line\":1,\"character\":5") != NULL, "not at the NUL (line 2, column 6): %s", out);
    free(out);
}
END_TEST

/* ==== main ========================================================================================== */

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/pc-bad-inputs-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    generate_inputs();
    load_manifest();
    load_replays();

    Suite *s = suite_create("bad_inputs");
    TCase *tc = tcase_create("manifest");
    tcase_set_timeout(tc, CASE_TIMEOUT_S + 30);
    tcase_add_loop_test(tc, test_manifest_case, 0, (int)ncases);
    suite_add_tcase(s, tc);
    TCase *tf = tcase_create("fuzz_replay");
    tcase_set_timeout(tf, 120);
    if (nreplays)
        tcase_add_loop_test(tf, test_fuzz_replay, 0, (int)nreplays);
    tcase_add_test(tf, test_fuzz_edges);
    suite_add_tcase(s, tf);
    TCase *tk = tcase_create("lsp_in_memory");
    tcase_set_timeout(tk, 120);
    tcase_add_test(tk, test_lsp_text_with_nul_is_whole);
    suite_add_tcase(s, tk);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("bad inputs: %zu manifest cases, %zu fuzz replays\n", ncases, nreplays);
    remove_tree(tmpdir);
    for (size_t i = 0; i < ncases; i++) {
        free(cases[i].name);
        free(cases[i].expect);
        free(cases[i].command);
        free(cases[i].xfail);
    }
    free(cases);
    for (size_t i = 0; i < nreplays; i++)
        free(replays[i].path);
    free(replays);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
