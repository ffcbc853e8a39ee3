/* securec.h (the Huawei secure C library CANN ships) in poolcheck's stub mode: stood in for; the
 * bounded memory and string functions tests call. */
#pragma once
#pragma clang system_header
#include <stddef.h>
typedef int errno_t;
#define EOK 0
extern "C" {
errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
int sprintf_s(char *strDest, size_t destMax, const char *format, ...);
int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...);
}
