#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_internal.h - framework internals upstream unit tests reach (IR: Function, Operation, LogicalTensor, builders; passes; configs).
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own. */
#ifndef POOLCHECK_STUB_INTERNAL_H
#define POOLCHECK_STUB_INTERNAL_H

#endif /* POOLCHECK_STUB_INTERNAL_H */
