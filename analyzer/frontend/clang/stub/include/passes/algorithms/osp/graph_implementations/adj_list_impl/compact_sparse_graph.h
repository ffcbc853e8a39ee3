/* passes/algorithms/osp/graph_implementations/adj_list_impl/compact_sparse_graph.h - upstream PyPTO's pass header (framework/src/passes/algorithms/osp/graph_implementations/adj_list_impl/compact_sparse_graph.h), in poolcheck's stub mode.  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): passes/poolcheck_stub_passes.h declares the
 * pass classes and helpers upstream's pass unit tests use. */
#pragma once
#pragma clang system_header
#include "passes/poolcheck_stub_passes.h"
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
