#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_codegen.h - codegen internals the codegen unit tests reach.
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own. */
#ifndef POOLCHECK_STUB_CODEGEN_H
#define POOLCHECK_STUB_CODEGEN_H

#endif /* POOLCHECK_STUB_CODEGEN_H */
