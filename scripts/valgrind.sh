#!/usr/bin/env bash
# valgrind (memcheck) over the CLI and the LSP server on every example, fixture and bad input:
# no invalid read or write, no use of uninitialised memory, no definite leak.  poolcheck's own
# exit status (0, 1 or 2) does not matter here; valgrind's error status (99) or a signal fails.
#
#   scripts/valgrind.sh [BUILD_DIR]        default build-valgrind/ (a normal RelWithDebInfo build)
#
# Directories are analysed in one process each, so a leak or stale pointer carried from one file
# to the next shows up too; two valgrind processes run at a time (the machine has 2 cores).
# "Still reachable" blocks are not errors: CPython's interpreter and libclang's caches live until
# exit by design (see scripts/sanitize.sh); "definitely lost" ones are.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${1:-$ROOT/build-valgrind}
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
if [ ! -x "$BUILD/bin/poolcheck" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOOLCHECK_TESTS=OFF >/dev/null &&
    cmake --build "$BUILD" -j2 --target poolcheck poolcheck-lsp >/dev/null || exit 2
fi
PC=$BUILD/bin/poolcheck
LSP=$BUILD/bin/poolcheck-lsp
LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/pc-valgrind.XXXXXX")
export LIBCLANG_DISABLE_CRASH_RECOVERY=1  # valgrind, not libclang, should see any crash
export PYTHONHASHSEED=0

VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --track-origins=yes --num-callers=30
    --suppressions="$ROOT/tests/e2e/valgrind.supp")  # ld.so's strncmp when the CLI dlopens libclang

# name | stdin file (- for none) | command...
CASES=(
  "check-examples|-|$PC check --no-config-lookup examples"
  "check-examples-dir|-|$PC check --no-config-lookup examples"
  "check-fixtures-python|-|$PC check --no-config-lookup tests/fixtures/python"
  "check-fixtures-cpp|-|$PC check --no-config-lookup tests/fixtures/cpp"
  "check-fixtures-checks|-|$PC check --no-config-lookup tests/fixtures/checks"
  "check-json|-|$PC check --no-config-lookup --format=json tests/fixtures/checks examples"
  "check-sarif|-|$PC check --no-config-lookup --format=sarif tests/fixtures/python tests/fixtures/cpp"
  "check-github|-|$PC check --no-config-lookup --format=github tests/fixtures/checks"
  "check-jobs|-|$PC check --no-config-lookup -j 2 tests/fixtures/python tests/fixtures/cpp"
  "check-emit-json|-|$PC check --no-config-lookup --emit-config=json examples"
  "check-emit-cpp|-|$PC check --no-config-lookup --emit-config=cpp tests/fixtures/cpp"
  "check-fix-dry-run|-|$PC check --no-config-lookup --fix-dry-run tests/fixtures/checks"
  "check-bad-inputs|-|$PC check --no-config-lookup tests/bad_inputs/files"
  "check-bad-options|-|$PC check --no-config-lookup --config tests/bad_inputs/files/cfg_wrong_types.json --config-file tests/bad_inputs/files/proj_runtime_bad.json --set stitch_function_num_per_pool=[True,1] examples"
  "check-bad-config|-|$PC check --config tests/bad_inputs/files/cfg_unterminated_string.json examples/k_tmp_to_d_emb.py"
  "model-py|-|$PC model examples/k_tmp_to_d_emb.py"
  "model-cpp|-|$PC model examples/k_tmp_to_d_emb.cpp"
  "model-broken|-|$PC model tests/bad_inputs/files/py_unterminated_string.py"
  "logs-fixtures|-|$PC logs tests/fixtures/logs examples/logs"
  "logs-json|-|$PC logs --format=json tests/fixtures/logs tests/bad_inputs/files"
  "logs-kernel|-|$PC logs --kernel examples/k_tmp_to_d_emb.py examples/logs/k_tmp_to_d_emb.device.log"
  "logs-stdin|examples/logs/k_tmp_to_d_emb.sim.log|$PC logs -"
  "plan|-|$PC plan examples/k_tmp_to_d_emb.py --budget-kb 64"
  "plan-logs|-|$PC plan examples/k_tmp_to_d_emb.cpp --budget-kb 40 --logs examples/logs"
  "plan-logs-int64|-|$PC plan examples/k_tmp_to_d_emb.py --budget-kb 64 --logs tests/bad_inputs/files/log_int64_max.log"
  "lsp-bad-documents|tests/bad_inputs/files/lsp_bad_documents.bin|$LSP"
  "lsp-bad-framing|tests/bad_inputs/files/lsp_bad_framing.bin|$LSP"
  "lsp-session|fuzz/seeds/lsp/raw.bin|$LSP"
)

run_one() { # "name|stdin|command" -> prints "ok name Ns" or "FAIL name"
  local name=${1%%|*} rest=${1#*|}
  local in=${rest%%|*} cmd=${rest#*|}
  [ "$in" = "-" ] && in=/dev/null
  if [ "$name" = lsp-session ]; then  # the seed starts with the fuzz harness's control byte
    tail -c +2 "$in" > "$LOGDIR/lsp-session.in"; in=$LOGDIR/lsp-session.in
  fi
  local start=$SECONDS rc
  # shellcheck disable=SC2086
  "${VG[@]}" $cmd <"$in" >/dev/null 2>"$LOGDIR/$name.err"
  rc=$?
  if [ "$rc" -eq 99 ] || [ "$rc" -ge 128 ]; then
    echo "FAIL $name (status $rc, $((SECONDS - start)) s): $cmd"
    grep -E '^==[0-9]+==' "$LOGDIR/$name.err" | head -40
  else
    echo "ok   $name ($((SECONDS - start)) s, poolcheck status $rc)"
  fi
}
export -f run_one
export LOGDIR
export VG_STR="${VG[*]}"

start=$SECONDS
results=$(printf '%s\n' "${CASES[@]}" | xargs -d '\n' -P2 -I{} bash -c 'VG=($VG_STR); run_one "$1"' _ {})
printf '%s\n' "$results"
nfail=$(printf '%s\n' "$results" | grep -c '^FAIL' || true)
echo "valgrind.sh: ${#CASES[@]} runs, $nfail failed, $((SECONDS - start)) s wall"
rm -rf "$LOGDIR"
[ "$nfail" -eq 0 ]
