/* passes/tile_graph_pass/graph_constraint/axis_combine_marker.h - upstream PyPTO's pass header (framework/src/passes/tile_graph_pass/graph_constraint/axis_combine_marker.h), in poolcheck's stub mode.  The real one is
 * used when the include path reaches it; without it, passes/poolcheck_stub_passes.h declares the
 * pass classes and helpers upstream's pass unit tests use. */
#pragma once
#if __has_include_next("passes/tile_graph_pass/graph_constraint/axis_combine_marker.h")
#include_next "passes/tile_graph_pass/graph_constraint/axis_combine_marker.h"
#else
#pragma clang system_header
#include "passes/poolcheck_stub_passes.h"
#endif
