/* <stdlib.h> in poolcheck's stub mode: memory, conversions, the environment, exit.  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
#include <stddef.h>
extern "C" {
typedef struct { int quot, rem; } div_t;
typedef struct { long quot, rem; } ldiv_t;
void *malloc(size_t); void *calloc(size_t, size_t); void *realloc(void *, size_t); void free(void *);
void *aligned_alloc(size_t, size_t); int posix_memalign(void **, size_t, size_t);
[[noreturn]] void exit(int); [[noreturn]] void abort(void); [[noreturn]] void _Exit(int); int atexit(void (*)(void));
char *getenv(const char *); int setenv(const char *, const char *, int); int unsetenv(const char *); int system(const char *);
int atoi(const char *); long atol(const char *); long long atoll(const char *); double atof(const char *);
long strtol(const char *, char **, int); long long strtoll(const char *, char **, int);
unsigned long strtoul(const char *, char **, int); unsigned long long strtoull(const char *, char **, int);
double strtod(const char *, char **); float strtof(const char *, char **);
int rand(void); void srand(unsigned); char *realpath(const char *, char *);
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *));
int abs(int); long labs(long); long long llabs(long long); div_t div(int, int); ldiv_t ldiv(long, long);
}
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
