/* <assert.h> in poolcheck's stub mode: assert().  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
#undef assert
#define assert(...) ((void)0)
