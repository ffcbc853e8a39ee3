#!/usr/bin/env bash
# Every benchmark, one after another (the machine has 2 cores; run it on an otherwise idle one):
# C++ files against clang -fsyntax-only, Python files against ast.parse, logs against grep -F,
# LSP didChange -> publishDiagnostics, and 500 generated kernels at -j 1 and -j 2.  Each prints
# a ratio measured in the same run.  docs/performance.md holds the last measured table.
#
#   bench/run-all.sh                  builds build-bench/ (RelWithDebInfo) on demand
#   POOLCHECK=build/bin/poolcheck bench/run-all.sh
#   BENCH_RUNS=30 bench/run-all.sh    more runs per measurement (default 15)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
POOLCHECK=$(bench_poolcheck)
export POOLCHECK
echo "machine: $(bench_machine)"
echo "binary: $POOLCHECK; timing: $(command -v hyperfine >/dev/null && echo "hyperfine $(hyperfine --version | cut -d' ' -f2), median of $BENCH_RUNS runs" || echo "median of $BENCH_RUNS runs (date +%s%N)")"
status=0
for b in cpp python logs lsp corpus; do
  echo
  echo "== $b"
  "$here/$b.sh" || status=1
done
exit $status
