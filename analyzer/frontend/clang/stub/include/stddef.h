/* <stddef.h> in poolcheck's stub mode: the compiler's types, from its predefined macros.  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __WINT_TYPE__ wint_t;
typedef struct { long long __ll __attribute__((__aligned__(__alignof__(long long)))); long double __ld __attribute__((__aligned__(__alignof__(long double)))); } max_align_t;
#ifdef __cplusplus
namespace std { typedef decltype(nullptr) nullptr_t; }
#define NULL __null
#else
#define NULL ((void *)0)
#endif
#define offsetof(t, m) __builtin_offsetof(t, m)
