#!/usr/bin/env bash
# bench/rss.sh - peak memory of `poolcheck check` over many files (each file's
# results are written when its turn comes and freed, so the peak must not grow with the number of
# files).  For each corpus size, format and -j value it prints the wall time and the peak resident
# set size (GNU time's %M: the largest of the command and the workers it waited for), then the
# growth per file between the smallest and the largest corpus.
#
#   bench/rss.sh                       1,000 and 10,000 generated files (gen_corpus.py: half Python,
#                                      half C++), text and SARIF, -j 1 and -j 2
#   RSS_SIZES="1000 10000" RSS_JOBS="1 2" RSS_FORMATS="text sarif" RSS_KIND=all|py|cpp
#   POOLCHECK=path/to/poolcheck        the binary to measure (default: build-bench/, built on demand)
#
# RSS_KIND=py keeps only the Python files of a corpus twice as large (the C++ parses take ~90 ms
# each: 10,000 mixed files are ~8 minutes per run on one core).  Needs GNU time (/usr/bin/time).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sizes=${RSS_SIZES:-1000 10000}
jobs=${RSS_JOBS:-1 2}
formats=${RSS_FORMATS:-text sarif}
kind=${RSS_KIND:-all}
[ -x /usr/bin/time ] || { echo "bench/rss.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
pc=$(bench_poolcheck) || { echo "bench/rss.sh: cannot build poolcheck" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-rss.XXXXXX")
trap 'rm -rf "$work"' EXIT

printf '%-7s %-4s %-6s %-3s %9s %11s\n' files kind format -j "wall s" "peak RSS MB"
declare -A peak
for n in $sizes; do
  dir=$work/c$n
  case $kind in
    all) "$BENCH_PYTHON" "$BENCH_ROOT/bench/gen_corpus.py" "$dir" "$n" 1 >/dev/null ;;
    py|cpp)
      "$BENCH_PYTHON" "$BENCH_ROOT/bench/gen_corpus.py" "$dir" $((2 * n)) 1 >/dev/null
      find "$dir" -type f ! -name "*.$kind" -delete ;;
    *) echo "bench/rss.sh: RSS_KIND is all, py or cpp" >&2; exit 2 ;;
  esac
  count=$(find "$dir" -type f | wc -l)
  for fmt in $formats; do
    for j in $jobs; do
      /usr/bin/time -f '%e %M' -o "$work/time" "$pc" check --no-config-lookup --format="$fmt" -j "$j" "$dir" \
        >"$work/out" 2>/dev/null || true
      read -r wall kb < <(tail -n 1 "$work/time") || { wall=? kb=0; }
      [ -s "$work/out" ] || { echo "bench/rss.sh: no output for $n files, $fmt, -j $j" >&2; exit 1; }
      peak[$n,$fmt,$j]=$kb
      printf '%-7s %-4s %-6s %-3s %9s %11.1f\n' "$count" "$kind" "$fmt" "$j" "$wall" "$(echo "$kb / 1024" | bc -l)"
    done
  done
  rm -rf "$dir"
done
first=${sizes%% *} last=${sizes##* }
if [ "$first" != "$last" ]; then
  echo
  echo "growth between $first and $last files (KB per file; 0 = flat):"
  for fmt in $formats; do
    for j in $jobs; do
      a=${peak[$first,$fmt,$j]} b=${peak[$last,$fmt,$j]}
      printf '  %-6s -j %-3s %8.2f KB/file (%d -> %d KB)\n' "$fmt" "$j" \
        "$(echo "($b - $a) / ($last - $first)" | bc -l)" "$a" "$b"
    done
  done
fi
