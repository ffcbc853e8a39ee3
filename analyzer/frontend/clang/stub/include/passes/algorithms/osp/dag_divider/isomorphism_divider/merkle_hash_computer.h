/* passes/algorithms/osp/dag_divider/isomorphism_divider/merkle_hash_computer.h - upstream PyPTO's pass header (framework/src/passes/algorithms/osp/dag_divider/isomorphism_divider/merkle_hash_computer.h), in poolcheck's stub mode.  The real one is
 * used when the include path reaches it; without it, passes/poolcheck_stub_passes.h declares the
 * pass classes and helpers upstream's pass unit tests use. */
#pragma once
#if __has_include_next("passes/algorithms/osp/dag_divider/isomorphism_divider/merkle_hash_computer.h")
#include_next "passes/algorithms/osp/dag_divider/isomorphism_divider/merkle_hash_computer.h"
#else
#pragma clang system_header
#include "passes/poolcheck_stub_passes.h"
#endif
