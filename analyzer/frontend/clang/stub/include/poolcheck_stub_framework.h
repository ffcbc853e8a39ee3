/* poolcheck_stub_framework.h - the stand-ins for upstream PyPTO's framework internals (IR, passes,
 * configs, runtime, machine, simulation, codegen) that its unit and system tests reach.
 *
 * A kernel that includes only the public API (tilefwk/...) and the standard library never needs
 * them, so poolcheck_tilefwk_stub.h (injected into every stub-mode parse) does not include them:
 * every shadow of an upstream header outside the public API (interface/, machine/, passes/,
 * codegen/, gtest/, the test helpers) includes this file instead, so they are parsed only by a
 * source that includes such a header - about 1,600 lines less for a plain kernel. */
#pragma once
#pragma clang system_header
#include "../poolcheck_stub_internal.h"
#include "../poolcheck_stub_machine.h"
#include "../poolcheck_stub_codegen.h"
