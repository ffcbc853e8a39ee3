#!/usr/bin/env bash
# Scan-speed benchmark for `poolcheck logs`: make a large synthetic CANN log (mostly lines that do
# not match, some [Workspace Runtime ...] lines), then time poolcheck against
# `grep -F '[Workspace Runtime' FILE` on the same file in the same run, and print the ratio.
# Target: ratio <= 1.0.  Not part of the CTest suite (slow at the default size).
#
# usage: bench/logs/run.sh [--size-mb N] [--poolcheck PATH] [--dir DIR] [--repeat N]
#                          [--max-ratio R] [--keep]
#   --size-mb N     log size in MiB (default 1024; CI can use e.g. 64)
#   --poolcheck P   the binary (default: $POOLCHECK, else build/bin/poolcheck under the repo)
#   --dir DIR       where the log is written (default: ${TMPDIR:-/tmp})
#   --repeat N      timed runs of each tool, the fastest counts (default 3)
#   --max-ratio R   exit 1 when poolcheck/grep is above R (default: report only)
#   --keep          keep the generated log (it is reused by a later run of the same size)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
size_mb=1024
poolcheck=${POOLCHECK:-$repo/build/bin/poolcheck}
dir=${TMPDIR:-/tmp}
repeat=3
max_ratio=
keep=0

while [ $# -gt 0 ]; do
    case "$1" in
        --size-mb) size_mb=$2; shift 2 ;;
        --size-mb=*) size_mb=${1#*=}; shift ;;
        --poolcheck) poolcheck=$2; shift 2 ;;
        --poolcheck=*) poolcheck=${1#*=}; shift ;;
        --dir) dir=$2; shift 2 ;;
        --dir=*) dir=${1#*=}; shift ;;
        --repeat) repeat=$2; shift 2 ;;
        --repeat=*) repeat=${1#*=}; shift ;;
        --max-ratio) max_ratio=$2; shift 2 ;;
        --max-ratio=*) max_ratio=${1#*=}; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

case "$size_mb" in ''|*[!0-9.]*) echo "run.sh: --size-mb needs a number" >&2; exit 2 ;; esac
if [ ! -x "$poolcheck" ]; then
    echo "run.sh: no poolcheck binary at '$poolcheck' (build it, or pass --poolcheck PATH)" >&2
    exit 2
fi

log="$dir/poolcheck-bench-${size_mb}mb.log"
out="$dir/poolcheck-bench-$$.out"
cleanup() {
    rm -f "$out"
    if [ "$keep" = 0 ]; then rm -f "$log"; fi
}
trap cleanup EXIT

if [ ! -s "$log" ]; then
    echo "generating a ${size_mb} MiB log in $log ..."
    python3 "$here/gen_log.py" "$log" "$size_mb"
fi
bytes=$(stat -c %s "$log")
cat "$log" > /dev/null   # warm the page cache: both tools then read from memory

# Seconds (with ns resolution) of the fastest of $repeat runs of "$@" (stdout to $out: GNU grep
# stops at the first match when its output is /dev/null, so nothing here writes to /dev/null).
fastest() {
    local best= t0 t1 dt i
    for ((i = 0; i < repeat; i++)); do
        t0=$(date +%s%N)
        "$@" > "$out" || true
        t1=$(date +%s%N)
        dt=$((t1 - t0))
        if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
    done
    echo "$best"
}

grep_ns=$(fastest grep -F '[Workspace Runtime' "$log")
grep_lines=$(wc -l < "$out")
pc_ns=$(fastest "$poolcheck" logs --format=json "$log")
pc_lines=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["workspace_lines"])' "$out")

ratio=$(awk -v a="$pc_ns" -v b="$grep_ns" 'BEGIN { printf "%.3f", a / b }')
awk -v n="$bytes" -v g="$grep_ns" -v p="$pc_ns" 'BEGIN {
    printf "log: %.1f MiB\n", n / 1048576
    printf "grep -F:        %7.3f s  (%6.0f MiB/s)\n", g / 1e9, n / 1048576 / (g / 1e9)
    printf "poolcheck logs: %7.3f s  (%6.0f MiB/s)\n", p / 1e9, n / 1048576 / (p / 1e9)
}'
echo "Workspace lines: grep $grep_lines, poolcheck $pc_lines"
echo "ratio poolcheck/grep: $ratio"

status=0
if [ "$grep_lines" != "$pc_lines" ]; then
    echo "run.sh: poolcheck and grep disagree on the number of Workspace lines" >&2
    status=1
fi
if [ -n "$max_ratio" ] && awk -v r="$ratio" -v m="$max_ratio" 'BEGIN { exit !(r > m) }'; then
    echo "run.sh: ratio $ratio is above --max-ratio $max_ratio" >&2
    status=1
fi
exit $status
