/* clang_guard.c - the parse thread opens only regular files and directories.
 *
 * libclang has no hook on #include: clang's FileManager opens a header with open(2), which waits
 * for a writer when the header is a FIFO, and reads it to its end, which a character device such
 * as /dev/zero never has (the memory grows until the machine runs out).  So while a parse runs,
 * the opens LLVM makes on that thread are looked at first: a path that exists and is neither a
 * regular file nor a directory is refused (the open fails with EACCES, clang reports that it
 * cannot open the file, and the frontend turns that report into a located error naming the
 * file's kind).  Other threads, and the parse thread outside a parse, open what they like.
 *
 * This module is dlopen'ed with RTLD_LOCAL, so defining open() here would not interpose on
 * libLLVM's calls (its lookup finds the C library first).  Instead libLLVM's own relocation slots
 * for open/open64/openat/openat64 are pointed, once per process, at the wrappers below, which
 * forward to what dlsym(RTLD_DEFAULT) finds (the C library, or a sanitizer's interceptor in front
 * of it).  The state that decides (the guard of the parse in progress) is thread-local, so
 * concurrent analyses in one process (the language server) do not see each other's. */
#define _GNU_SOURCE
#include "clang_int.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

static _Thread_local pc_clang_guard *active_guard;

/* Written once (under pthread_once) before any slot points at a wrapper, read-only after. */
static open_fn next_open, next_open64;
static openat_fn next_openat, next_openat64;
static bool hooks_installed;

static const char *kind_of(mode_t m)
{
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

/* Should this open be refused?  Only while a guard is active on this thread; a path that does
 * not exist is left to the open itself (its ENOENT is clang's "file not found"). */
static bool refuse(int dirfd, const char *path, int flags)
{
    pc_clang_guard *g = active_guard;
    if (!g || !path)
        return false;
    struct stat st;
    if (fstatat(dirfd, path, &st, (flags & O_NOFOLLOW) ? AT_SYMLINK_NOFOLLOW : 0) != 0)
        return false;
    if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
        return false;
    if (g->nrefused < PC_CLANG_GUARD_MAX) {
        bool seen = false;
        for (int i = 0; i < g->nrefused && !seen; i++)
            seen = strcmp(g->refused[i].path, path) == 0;
        if (!seen) {
            g->refused[g->nrefused].path = pc_mem_strdup(path);
            g->refused[g->nrefused].kind = kind_of(st.st_mode);
            g->nrefused++;
        }
    }
    errno = EACCES;
    return true;
}

static int mode_arg(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
}

static int guarded_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = mode_arg(flags, ap);
    va_end(ap);
    return refuse(AT_FDCWD, path, flags) ? -1 : next_open(path, flags, mode);
}

static int guarded_open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = mode_arg(flags, ap);
    va_end(ap);
    return refuse(AT_FDCWD, path, flags) ? -1 : next_open64(path, flags, mode);
}

static int guarded_openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = mode_arg(flags, ap);
    va_end(ap);
    return refuse(dirfd, path, flags) ? -1 : next_openat(dirfd, path, flags, mode);
}

static int guarded_openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = mode_arg(flags, ap);
    va_end(ap);
    return refuse(dirfd, path, flags) ? -1 : next_openat64(dirfd, path, flags, mode);
}

#if defined(__x86_64__) || defined(__aarch64__)
static void *wrapper_for(const char *name)
{
    if (!strcmp(name, "open"))
        return next_open ? (void *)guarded_open : NULL;
    if (!strcmp(name, "open64"))
        return next_open64 ? (void *)guarded_open64 : NULL;
    if (!strcmp(name, "openat"))
        return next_openat ? (void *)guarded_openat : NULL;
    if (!strcmp(name, "openat64"))
        return next_openat64 ? (void *)guarded_openat64 : NULL;
    return NULL;
}

/* Point the slots of one relocation table that name one of the four functions at the wrappers.
 * A slot inside the object's read-only-after-relocation range is made writable for the store and
 * read-only again. */
static int patch_table(ElfW(Addr) base, const ElfW(Rela) *rel, size_t bytes, const ElfW(Sym) *symtab,
                       const char *strtab, ElfW(Addr) relro_lo, ElfW(Addr) relro_hi)
{
    int n = 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < bytes / sizeof *rel; i++) {
        size_t si = ELF64_R_SYM(rel[i].r_info);
        if (!si || symtab[si].st_shndx != SHN_UNDEF)
            continue;
        void *w = wrapper_for(strtab + symtab[si].st_name);
        if (!w)
            continue;
        void **slot = (void **)(base + rel[i].r_offset);
        uintptr_t lo = (uintptr_t)slot & ~(page - 1);
        bool ro = (uintptr_t)slot >= relro_lo && (uintptr_t)slot < relro_hi;
        if (ro && mprotect((void *)lo, page, PROT_READ | PROT_WRITE) != 0)
            continue;
        __atomic_store_n(slot, w, __ATOMIC_RELEASE);
        if (ro)
            (void)mprotect((void *)lo, page, PROT_READ);
        n++;
    }
    return n;
}

static ElfW(Addr) dyn_ptr(ElfW(Addr) base, ElfW(Addr) v)
{
    /* the C library relocates most pointers of the dynamic section in place; be safe either way */
    return v < base ? v + base : v;
}

static int patch_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    int *patched = data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libLLVM"))
        return 0;
    ElfW(Addr) base = info->dlpi_addr;
    const ElfW(Dyn) *dyn = NULL;
    ElfW(Addr) relro_lo = 0, relro_hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(base + ph->p_vaddr);
        else if (ph->p_type == PT_GNU_RELRO) {
            relro_lo = base + ph->p_vaddr;
            relro_hi = relro_lo + ph->p_memsz;
        }
    }
    if (!dyn)
        return 0;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *jmprel = NULL, *rela = NULL;
    size_t jmpsz = 0, relasz = 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)dyn_ptr(base, dyn->d_un.d_ptr); break;
        case DT_STRTAB: strtab = (const char *)dyn_ptr(base, dyn->d_un.d_ptr); break;
        case DT_JMPREL: jmprel = (const ElfW(Rela) *)dyn_ptr(base, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmpsz = dyn->d_un.d_val; break;
        case DT_RELA: rela = (const ElfW(Rela) *)dyn_ptr(base, dyn->d_un.d_ptr); break;
        case DT_RELASZ: relasz = dyn->d_un.d_val; break;
        default: break;
        }
    }
    if (!symtab || !strtab)
        return 0;
    if (jmprel)
        *patched += patch_table(base, jmprel, jmpsz, symtab, strtab, relro_lo, relro_hi);
    if (rela)
        *patched += patch_table(base, rela, relasz, symtab, strtab, relro_lo, relro_hi);
    return 0;
}
#endif

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void install(void)
{
    next_open = (open_fn)dlsym(RTLD_DEFAULT, "open");
    next_open64 = (open_fn)dlsym(RTLD_DEFAULT, "open64");
    next_openat = (openat_fn)dlsym(RTLD_DEFAULT, "openat");
    next_openat64 = (openat_fn)dlsym(RTLD_DEFAULT, "openat64");
#if defined(__x86_64__) || defined(__aarch64__)
    int patched = 0;
    dl_iterate_phdr(patch_object, &patched);
    hooks_installed = patched > 0;
#endif
}

bool pc_clang_guard_begin(pc_clang_guard *g)
{
    memset(g, 0, sizeof *g);
    pthread_once(&install_once, install);
    active_guard = g;
    return hooks_installed;
}

void pc_clang_guard_end(pc_clang_guard *g)
{
    if (active_guard == g)
        active_guard = NULL;
    for (int i = 0; i < g->nrefused; i++)
        pc_mem_free(g->refused[i].path);
    g->nrefused = 0;
}

const pc_clang_guard *pc_clang_guard_current(void) { return active_guard; }
