# bench/lib.sh - shared by the bench/*.sh scripts (sourced, not run).
#
# measure_ms CMD...   prints the median wall time of CMD in milliseconds (3 decimals).
#   With hyperfine (Debian `hyperfine`): `hyperfine -N` (no shell in between), $BENCH_WARMUP
#   warm-up runs, $BENCH_RUNS timed runs, the median of its JSON export.  Without it: the same
#   number of runs timed with date +%s%N around each, median.  stdout/stderr of CMD are dropped;
#   its exit status is not judged (a lint finding exits 1).
# BENCH_RUNS (default 15) and BENCH_WARMUP (default 3) set the effort.

BENCH_ROOT=${BENCH_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BENCH_RUNS=${BENCH_RUNS:-15}
BENCH_WARMUP=${BENCH_WARMUP:-3}
# Debian's python3, the one poolcheck embeds (a pyenv shim first in PATH adds ~50 ms of bash)
BENCH_PYTHON=${BENCH_PYTHON:-/usr/bin/python3}
[ -x "$BENCH_PYTHON" ] || BENCH_PYTHON=python3

bench_poolcheck() { # the binary to measure: $POOLCHECK, else build-bench/ (built on demand)
  if [ -n "${POOLCHECK:-}" ]; then
    echo "$POOLCHECK"
    return
  fi
  local b=$BENCH_ROOT/build-bench
  if [ ! -x "$b/bin/poolcheck" ] || [ ! -x "$b/bin/poolcheck-lsp" ]; then
    cmake -S "$BENCH_ROOT" -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOOLCHECK_TESTS=OFF >/dev/null &&
      cmake --build "$b" -j2 --target poolcheck poolcheck-lsp >/dev/null || return 1
  fi
  echo "$b/bin/poolcheck"
}

measure_ms() {
  if command -v hyperfine >/dev/null 2>&1; then
    local json
    json=$(mktemp)
    # -N: no intermediate shell; -i: a non-zero exit (findings) is fine
    hyperfine -N -i --style none --warmup "$BENCH_WARMUP" --runs "$BENCH_RUNS" --export-json "$json" \
      -- "$(printf '%q ' "$@")" >/dev/null 2>&1
    "$BENCH_PYTHON" -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$json"
    rm -f "$json"
  else
    local i t0 t1 times=()
    for ((i = 0; i < BENCH_WARMUP; i++)); do "$@" >/dev/null 2>&1; done
    for ((i = 0; i < BENCH_RUNS; i++)); do
      t0=$(date +%s%N)
      "$@" >/dev/null 2>&1
      t1=$(date +%s%N)
      times+=($(( (t1 - t0) / 1000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f\n", m / 1000}'
  fi
}

# measure_cpu_ms CMD...   the median over $BENCH_RUNS runs (after $BENCH_WARMUP) of the CPU time
#   of CMD in ms: perf stat's task-clock, every thread of the process (user + system).  On a
#   machine other jobs load, wall times of the same command vary by 2x from run to run; CPU times
#   move by a few percent.  Needs perf (Debian `linux-perf`).
measure_cpu_ms() {
  local i v=() out
  for ((i = 0; i < BENCH_WARMUP; i++)); do "$@" >/dev/null 2>&1 || true; done
  for ((i = 0; i < BENCH_RUNS; i++)); do
    out=$(perf stat -x, -e task-clock -- "$@" 2>&1 >/dev/null | grep ',task-clock' | cut -d, -f1)
    v+=("$out")
  done
  printf '%s\n' "${v[@]}" | sort -g | awk '{a[NR] = $1} END {printf "%.3f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

bench_machine() { # one line: date, CPU, cores, kernel, compiler versions
  local cpu
  cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
  echo "$(date -u +%Y-%m-%d), ${cpu:-unknown CPU}, $(nproc) cores, $(uname -sr), clang $(clang-14 --version 2>/dev/null | head -1 | grep -o '[0-9][0-9.]*' | head -1), Python $("$BENCH_PYTHON" -c 'import platform; print(platform.python_version())')"
}
