/* clang_pch.c - the stub header, precompiled once and loaded by every stub-mode parse.
 *
 * Why: every stub-mode parse begins with the stub header and what it includes (about 4,000 lines
 * of declarations), and on a small kernel file that is a third of clang's work: 69 M of the 211 M
 * instructions `clang -fsyntax-only` spends on upstream's test_softmax.cpp.  The header is the
 * same for every file, so, as clangd does with a preamble, it is precompiled once (a PCH) into a
 * cache directory and later parses load it with `-include-pch` instead of `-include`.  The
 * outputs are the same either way (tests/e2e/stub_pch.sh compares every C++ fixture).
 *
 * When: only for the plain stub argument list (no -D / -U / -std / -I from a compile command, no
 * --extra-arg: a PCH is only valid for the language and macro options it was built with) and
 * outside editor mode, whose translation units have a precompiled preamble of their own.
 *
 * Where: $POOLCHECK_CACHE_DIR, else $XDG_CACHE_HOME/poolcheck, else $HOME/.cache/poolcheck;
 * nowhere when $POOLCHECK_NO_CACHE is set or the directory cannot be made (then the header is
 * parsed as text, as before).  The file is stub-<hash>.pch, the hash (FNV-1a, 64 bits) of the
 * libclang version, the argument list (the stub's path among them) and the stub header's text:
 * another libclang or another stub gets a file of its own.  It is written under a temporary name and renamed, so a parallel run
 * sees either no file or a whole one.
 *
 * Stale: clang checks, when it loads a PCH, that every file it was built from still has its size
 * and modification time.  A PCH that does not load (the stub was edited, the file is damaged)
 * fails the parse with CXError_ASTReadError and no translation unit: the frontend removes the
 * file and parses with the header's text; the next run builds the PCH afresh.
 */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp */
#include "clang_int.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* mkdir -p for the cache directory (0700: it is the user's). */
static bool make_dirs(const char *path)
{
    char *p = pc_mem_strdup(path);
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            ok = false;
        *s = c;
        if (!c)
            break;
    }
    struct stat sb;
    ok = ok && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
    pc_mem_free(p);
    return ok;
}

/* The cache directory (pc_mem), or NULL when caching is off or there is no place for it. */
static char *cache_dir(void)
{
    const char *off = getenv("POOLCHECK_NO_CACHE");
    if (off && *off)
        return NULL;
    pc_sb b = {0};
    const char *dir = getenv("POOLCHECK_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (dir && *dir)
        pc_sb_printf(&b, "%s", dir);
    else if (xdg && xdg[0] == '/')
        pc_sb_printf(&b, "%s/poolcheck", xdg);
    else if (home && home[0] == '/')
        pc_sb_printf(&b, "%s/.cache/poolcheck", home);
    else
        return NULL;
    char *path = pc_sb_take(&b);
    /* absolute: a relative $POOLCHECK_CACHE_DIR means the directory it names from here */
    char real[PATH_MAX];
    bool ok = make_dirs(path) && realpath(path, real);
    pc_mem_free(path);
    return ok ? pc_mem_strdup(real) : NULL;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    h ^= 0x1f; /* separator: {"ab","c"} and {"a","bc"} differ */
    return h * 0x100000001b3ULL;
}

/* The arguments the stub header itself is compiled with: the parse's, without `-include STUB`
 * and as a header. */
static void header_args(const pc_clang_argv *args, size_t include_at, pc_clang_argv *out)
{
    for (size_t i = 0; i < args->count; i++) {
        if (i == include_at || i == include_at + 1)
            continue;
        bool lang = i > 0 && !strcmp(args->items[i - 1], "-x");
        PC_VEC_PUSH(*out, pc_mem_strdup(lang ? "c++-header" : args->items[i]));
    }
}

/* Compile the stub header with the parse's arguments into `path`: true when it was written. */
static bool build_pch(struct pc_clang_state *st, const pc_clang_argv *args, size_t include_at, const char *path)
{
    pc_clang_argv hargs = {0};
    header_args(args, include_at, &hargs);
    /* from the file, not the text read at start-up: clang records only a file it read (size and
     * time) as one to check when the PCH is loaded */
    CXTranslationUnit tu = NULL;
    /* the same preprocessing record as the parses that load it (clang_pp.c reads it) */
    unsigned flags = CXTranslationUnit_ForSerialization | CXTranslationUnit_DetailedPreprocessingRecord;
    enum CXErrorCode rc = clang_parseTranslationUnit2(st->index, st->stub_path, (const char *const *)hargs.items,
                                                      (int)hargs.count, NULL, 0, flags, &tu);
    for (size_t i = 0; i < hargs.count; i++)
        pc_mem_free(hargs.items[i]);
    PC_VEC_FREE(hargs);
    if (rc != CXError_Success || !tu)
        return false;
    pc_sb b = {0};
    pc_sb_printf(&b, "%s.XXXXXX", path);
    char *tmp = pc_sb_take(&b);
    /* a name of its own: other threads and processes may be building the same file */
    int fd = mkstemp(tmp);
    bool ok = fd >= 0;
    if (ok)
        close(fd);
    /* a stub that does not compile is saved by no one (CXSaveError_TranslationErrors) */
    ok = ok && clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) == CXSaveError_None &&
         rename(tmp, path) == 0;
    if (!ok && fd >= 0)
        unlink(tmp);
    pc_mem_free(tmp);
    clang_disposeTranslationUnit(tu);
    return ok;
}

/* A new PCH was just built: the stubs of a poolcheck no one runs any more (another version,
 * another build tree) leave files nothing loads.  Remove those not used for PC_CLANG_PCH_DAYS
 * days (a load does not touch the file's times: its modification time is when it was built,
 * its access time, where the file system keeps one, when it was loaded). */
#define PC_CLANG_PCH_DAYS 14
static void remove_unused(const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "stub-", 5) != 0 || n < 9 || strcmp(e->d_name + n - 4, ".pch") != 0)
            continue;
        pc_sb b = {0};
        pc_sb_printf(&b, "%s/%s", dir, e->d_name);
        char *path = pc_sb_take(&b);
        struct stat sb;
        if (strcmp(path, keep) != 0 && stat(path, &sb) == 0) {
            time_t used = sb.st_atime > sb.st_mtime ? sb.st_atime : sb.st_mtime;
            if (now - used > PC_CLANG_PCH_DAYS * 86400)
                unlink(path);
        }
        pc_mem_free(path);
    }
    closedir(d);
}

char *pc_clang_stub_pch(struct pc_clang_state *st, const pc_clang_argv *args, size_t include_at)
{
    char *dir = cache_dir();
    if (!dir)
        return NULL;
    CXString version = clang_getClangVersion();
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, clang_getCString(version));
    clang_disposeString(version);
    for (size_t i = 0; i < args->count; i++)
        h = fnv1a(h, args->items[i]);
    /* and the header's text: an edit of the header within its timestamp's second */
    for (size_t i = 0; i < st->stub_len; i++)
        h = (h ^ (unsigned char)st->stub_text[i]) * 0x100000001b3ULL;
    pc_sb b = {0};
    pc_sb_printf(&b, "%s/stub-%016llx.pch", dir, (unsigned long long)h);
    char *path = pc_sb_take(&b);
    if (access(path, R_OK) != 0) {
        if (!build_pch(st, args, include_at, path)) {
            pc_mem_free(dir);
            pc_mem_free(path);
            return NULL;
        }
        remove_unused(dir, path);
    }
    pc_mem_free(dir);
    return path;
}
