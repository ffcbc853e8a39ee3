#!/usr/bin/env bash
# 500 generated kernels (bench/gen_corpus.py: half Python, half C++) in one directory, checked by
# `poolcheck check -j 1 DIR` and `poolcheck check -j 2 DIR` in the same run.  -j N forks N worker
# processes that take every N-th file (analyzer/cli/cmd_check.c), so on N idle cores the time
# should fall close to 1/N: the script prints both medians, the speed-up and the efficiency
# (speed-up / jobs).  Goal: near-linear (speed-up >= 1.8 with 2 jobs on 2 cores).
#
#   bench/corpus.sh [COUNT]       default 500
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
COUNT=${1:-500}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$BENCH_PYTHON" "$BENCH_ROOT/bench/gen_corpus.py" "$dir/corpus" "$COUNT" 1
runs=${BENCH_CORPUS_RUNS:-5}
j1=$(BENCH_RUNS=$runs BENCH_WARMUP=1 measure_ms "$PC" check --no-config-lookup -j 1 "$dir/corpus")
j2=$(BENCH_RUNS=$runs BENCH_WARMUP=1 measure_ms "$PC" check --no-config-lookup -j 2 "$dir/corpus")
speedup=$(ratio "$j1" "$j2")
printf 'corpus: %d kernels (%d .py, %d .cpp): -j 1 %.0f ms (%.1f ms/file), -j 2 %.0f ms; speed-up %s, efficiency %s (goal: near-linear, >= 1.8 on 2 cores)\n' \
  "$COUNT" $(( (COUNT + 1) / 2 )) $(( COUNT / 2 )) "$j1" "$(awk -v t="$j1" -v n="$COUNT" 'BEGIN{print t/n}')" "$j2" \
  "$speedup" "$(awk -v s="$speedup" 'BEGIN{printf "%.2f", s/2}')"
