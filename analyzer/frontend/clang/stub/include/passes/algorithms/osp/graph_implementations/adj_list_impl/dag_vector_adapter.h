/* passes/algorithms/osp/graph_implementations/adj_list_impl/dag_vector_adapter.h - upstream PyPTO's pass header (framework/src/passes/algorithms/osp/graph_implementations/adj_list_impl/dag_vector_adapter.h), in poolcheck's stub mode.  The real one is
 * used when the include path reaches it; without it, passes/poolcheck_stub_passes.h declares the
 * pass classes and helpers upstream's pass unit tests use. */
#pragma once
#if __has_include_next("passes/algorithms/osp/graph_implementations/adj_list_impl/dag_vector_adapter.h")
#include_next "passes/algorithms/osp/graph_implementations/adj_list_impl/dag_vector_adapter.h"
#else
#pragma clang system_header
#include "passes/poolcheck_stub_passes.h"
#endif
