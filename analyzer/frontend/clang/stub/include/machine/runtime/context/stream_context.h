/* machine/runtime/context/stream_context.h (PyPTO framework/src) in poolcheck's stub mode: declared by poolcheck_stub_machine.h, the
 * part of the stub (injected with -include) for the runtime internals the machine tests use */
#pragma once
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
