#!/usr/bin/env bash
# Per C++ file: `poolcheck check FILE` against clang parsing the same text with the same flags.
#
#   bench/cpp.sh [FILE...]     default: examples/*.cpp, tests/fixtures/cpp/*.cpp, the C++ check fixtures
#
# Baseline (stub mode, what poolcheck does without CANN): poolcheck blanks the file's #include
# lines (keeping line numbers) and parses it with libclang 14 and
#   -x c++ -std=c++17 -include stub/poolcheck_tilefwk_stub.h -ferror-limit=0 -w -fno-access-control
# so the baseline is `clang-14 -fsyntax-only` with exactly those flags on the same blanked text
# (a copy with the #include lines blanked; on the original, clang would stop at the first missing
# CANN header and time almost nothing).  Both sides are whole processes: start-up, loading
# libclang/libLLVM, parsing; poolcheck adds its walk, the analysis and the report.
# Goal: ratio poolcheck/clang <= 1.10.  Prints one row per file and the ratio of the totals.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
STUB=$BENCH_ROOT/analyzer/frontend/clang/stub/poolcheck_tilefwk_stub.h
CLANG=${CLANG:-clang-14}
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$BENCH_ROOT"/examples/*.cpp "$BENCH_ROOT"/tests/fixtures/cpp/*.cpp "$BENCH_ROOT"/tests/fixtures/checks/*.cpp)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-44s %10s %10s %7s\n' "C++ file" "poolcheck" "clang" "ratio"
total_pc=0
total_cl=0
for f in "${files[@]}"; do
  blanked=$tmp/$(basename "$f")
  sed 's/^[[:space:]]*#[[:space:]]*include.*$//' "$f" > "$blanked"
  pc=$(measure_ms "$PC" check --no-config-lookup "$f")
  cl=$(measure_ms "$CLANG" -fsyntax-only -x c++ -std=c++17 -include "$STUB" -ferror-limit=0 -w -fno-access-control "$blanked")
  printf '%-44s %8.1f ms %7.1f ms %7s\n' "${f#"$BENCH_ROOT"/}" "$pc" "$cl" "$(ratio "$pc" "$cl")"
  total_pc=$(awk -v a="$total_pc" -v b="$pc" 'BEGIN{print a+b}')
  total_cl=$(awk -v a="$total_cl" -v b="$cl" 'BEGIN{print a+b}')
done
echo "cpp: ${#files[@]} files, poolcheck ${total_pc} ms, clang ${total_cl} ms, ratio $(ratio "$total_pc" "$total_cl") (goal <= 1.10)"
