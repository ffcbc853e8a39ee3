/* passes/block_graph_pass/schedule_ooo/pre_schedule/core_assign.h - upstream PyPTO's pass header (framework/src/passes/block_graph_pass/schedule_ooo/pre_schedule/core_assign.h), in poolcheck's stub mode.  The real one is
 * used when the include path reaches it; without it, passes/poolcheck_stub_passes.h declares the
 * pass classes and helpers upstream's pass unit tests use. */
#pragma once
#if __has_include_next("passes/block_graph_pass/schedule_ooo/pre_schedule/core_assign.h")
#include_next "passes/block_graph_pass/schedule_ooo/pre_schedule/core_assign.h"
#else
#pragma clang system_header
#include "passes/poolcheck_stub_passes.h"
#endif
