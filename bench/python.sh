#!/usr/bin/env bash
# Per Python file: `poolcheck check FILE` against CPython parsing it:
#   python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' FILE
# Both are whole processes.  The baseline is Debian's /usr/bin/python3 (the CPython poolcheck
# embeds; a pyenv shim in PATH would add its own bash start-up to the baseline).  poolcheck pays
# for loading libclang/libLLVM at start-up even for a Python file (it is linked, not loaded on
# demand: about 18 ms here, see docs/performance.md), then CPython's start, the same ast.parse,
# the model walk, the analysis and the report.
#
#   bench/python.sh [FILE...]  default: examples/*.py, tests/fixtures/python/*.py, the check fixtures
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$BENCH_ROOT"/examples/*.py "$BENCH_ROOT"/tests/fixtures/python/*.py "$BENCH_ROOT"/tests/fixtures/checks/*.py)
fi
printf '%-44s %10s %10s %7s\n' "Python file" "poolcheck" "ast.parse" "ratio"
total_pc=0
total_py=0
for f in "${files[@]}"; do
  pc=$(measure_ms "$PC" check --no-config-lookup "$f")
  py=$(measure_ms "$BENCH_PYTHON" -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' "$f")
  printf '%-44s %8.1f ms %7.1f ms %7s\n' "${f#"$BENCH_ROOT"/}" "$pc" "$py" "$(ratio "$pc" "$py")"
  total_pc=$(awk -v a="$total_pc" -v b="$pc" 'BEGIN{print a+b}')
  total_py=$(awk -v a="$total_py" -v b="$py" 'BEGIN{print a+b}')
done
echo "python: ${#files[@]} files, poolcheck ${total_pc} ms, ast.parse ${total_py} ms, ratio $(ratio "$total_pc" "$total_py") (goal <= 1.10)"
