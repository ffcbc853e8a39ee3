#!/usr/bin/env bash
# Scale: the analysis cost does not grow with the number of instances where the loops
# repeat.  Three measurements, each printed with what it is checked against:
#
#  1. the seed example (examples/k_tmp_to_d_emb.py and .cpp) with L_STATIC = 10^3, 10^6, 10^9,
#     10^12: `poolcheck check --format=json` time (median), and its numbers against the formula of
#     docs/model.md section 10 for any L: instances 2L + 1, DeviceTasks ceil((2L + 1) / 128),
#     predicted [max(min(L, 127), min(max(L - 127, 0), 128)), 1, 1] (task 0 holds l_loop_0 and up
#     to 127 of l_loop_1, task 1 up to 128 more), workspace AlignUp(512 r + 64 L + 5 * 64 L, 32768)
#     for L a multiple of 8 (U0 = 512, U2 = S = 64 L bytes, E = A = 1);
#  2. poolcheck-lsp didChange -> publishDiagnostics (bench/lsp_latency.c, --debounce-ms=0) on the
#     seed example at L_STATIC = 64 (129 instances) and 5,000,000 (10,000,001 instances): the
#     difference is the analysis of 10^7 instances beyond the parse;
#  3. `check --shapes FILE` with 1 and 1,000 binding sets on an upstream kernel with symbolic dims
#     (python/tests/ut/interpreter/_ops/flash_attention_mha_impl.py: batch cu_seqlens_q.shape[0]
#     from 2 to 1,001, q.shape[1] = 8, q_tile_count = k_tile_count = 4), when UPSTREAM=DIR names
#     a PyPTO source tree.
#
#   bench/scale.sh                         builds build-bench/ on demand
#   POOLCHECK=build/bin/poolcheck UPSTREAM=../pypto bench/scale.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
LSP=$(dirname "$PC")/poolcheck-lsp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

seed_py() { sed "s/L_STATIC, H_STATIC, D_STATIC = 1, 64, 1, 16/L_STATIC, H_STATIC, D_STATIC = 1, $1, 1, 16/" \
  "$BENCH_ROOT/examples/k_tmp_to_d_emb.py" >"$2"; }
seed_cpp() { sed "s/constexpr int L_STATIC = 64;/constexpr long long L_STATIC = $1LL;/" \
  "$BENCH_ROOT/examples/k_tmp_to_d_emb.cpp" >"$2"; }

echo "== seed example, poolcheck check --format=json (median of $BENCH_RUNS runs)"
for lang in py cpp; do
  for L in 1000 1000000 1000000000 1000000000000; do
    f=$tmp/seed_$L.$lang
    "seed_$lang" "$L" "$f"
    ms=$(measure_ms "$PC" check --format=json "$f")
    "$PC" check --format=json "$f" >"$tmp/out.json" 2>/dev/null || true
    verdict=$("$BENCH_PYTHON" - "$tmp/out.json" "$L" <<'EOF'
import json, sys
L = int(sys.argv[2])
k = json.load(open(sys.argv[1]))["kernels"][0]
r = max(min(L, 127), min(max(L - 127, 0), 128))
want = {"instances": 2 * L + 1, "device_tasks": -(-(2 * L + 1) // 128), "predicted": [r, 1, 1],
        "workspace": -(-(512 * r + 64 * L + 5 * 64 * L) // 32768) * 32768}
got = {"instances": k["instances"], "device_tasks": k["device_tasks"], "predicted": k["predicted"],
       "workspace": k["workspace_bytes"]["predicted"]}
bad = [key for key in want if want[key] != got[key]]
print("exact" if not bad else "WRONG " + ", ".join("%s %s != %s" % (b, got[b], want[b]) for b in bad),
      "(instances %d, DeviceTasks %d, predicted %s, workspace %d B)" % (
          got["instances"], got["device_tasks"], got["predicted"], got["workspace"]))
EOF
)
    case $verdict in exact*) ;; *) status=1 ;; esac
    printf '%-4s L_STATIC = %-14s %9.1f ms   %s\n' "$lang" "$L" "$ms" "$verdict"
  done
done

echo
echo "== poolcheck-lsp didChange -> publishDiagnostics, --debounce-ms=0 (bench/lsp_latency.c, ${LSP_EDITS:-20} edits)"
if [ -x "$LSP" ]; then
  ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/lsp_latency" "$BENCH_ROOT/bench/lsp_latency.c"
  for lang in py cpp; do
    for L in 64 5000000; do
      f=$tmp/lsp_$L.$lang
      "seed_$lang" "$L" "$f"
      echo "$lang L_STATIC = $L ($((2 * L + 1)) instances): $("$tmp/lsp_latency" "$LSP" "$f" "${LSP_EDITS:-20}" -- --debounce-ms=0)"
    done
  done
else
  echo "no $LSP"
fi

echo
echo "== check --shapes, upstream flash_attention_mha_impl.py"
fa=${UPSTREAM:+$UPSTREAM/python/tests/ut/interpreter/_ops/flash_attention_mha_impl.py}
if [ -n "$fa" ] && [ -f "$fa" ]; then
  for n in 1 1000; do
    "$BENCH_PYTHON" -c '
import json, sys
n = int(sys.argv[1])
json.dump([{"cu_seqlens_q.shape[0]": 2 + i, "q.shape[1]": 8, "q_tile_count": 4, "k_tile_count": 4}
           for i in range(n)], open(sys.argv[2], "w"))' "$n" "$tmp/shapes_$n.json"
    ms=$(BENCH_RUNS=${SHAPES_RUNS:-3} BENCH_WARMUP=1 measure_ms "$PC" check --shapes "$tmp/shapes_$n.json" "$fa")
    printf '%5d binding sets: %9.1f ms\n' "$n" "$ms"
  done
else
  echo "skipped: set UPSTREAM to a PyPTO source tree"
fi
exit $status
