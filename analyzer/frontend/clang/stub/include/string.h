/* <string.h> in poolcheck's stub mode: memory and string functions.  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
#include <stddef.h>
extern "C" {
void *memcpy(void *, const void *, size_t); void *memmove(void *, const void *, size_t); void *memset(void *, int, size_t);
int memcmp(const void *, const void *, size_t); void *memchr(const void *, int, size_t);
size_t strlen(const char *); int strcmp(const char *, const char *); int strncmp(const char *, const char *, size_t);
char *strcpy(char *, const char *); char *strncpy(char *, const char *, size_t); char *strcat(char *, const char *);
char *strncat(char *, const char *, size_t); char *strchr(const char *, int); char *strrchr(const char *, int);
char *strstr(const char *, const char *); char *strdup(const char *); char *strerror(int); char *strtok(char *, const char *);
size_t strspn(const char *, const char *); size_t strcspn(const char *, const char *); char *strpbrk(const char *, const char *);
int strcasecmp(const char *, const char *); int strncasecmp(const char *, const char *, size_t);
}
