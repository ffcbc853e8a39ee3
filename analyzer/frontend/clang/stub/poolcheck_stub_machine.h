#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_machine.h - runtime, machine and simulation internals and the system tests' helpers.
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own. */
#ifndef POOLCHECK_STUB_MACHINE_H
#define POOLCHECK_STUB_MACHINE_H

#endif /* POOLCHECK_STUB_MACHINE_H */
