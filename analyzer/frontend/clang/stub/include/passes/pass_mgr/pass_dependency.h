/* passes/pass_mgr/pass_dependency.h - upstream PyPTO's pass header (framework/src/passes/pass_mgr/pass_dependency.h), in poolcheck's stub mode.  The real one is
 * used when the include path reaches it; without it, passes/poolcheck_stub_passes.h declares the
 * pass classes and helpers upstream's pass unit tests use. */
#pragma once
#if __has_include_next("passes/pass_mgr/pass_dependency.h")
#include_next "passes/pass_mgr/pass_dependency.h"
#else
#pragma clang system_header
#include "passes/poolcheck_stub_passes.h"
#endif
