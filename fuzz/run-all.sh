#!/usr/bin/env bash
# Build the libFuzzer targets (own build directory, clang-14, ASan+UBSan) and run each for
# SECONDS seconds, one after another (the machine has 2 cores; the CLI and tests may be running).
#
#   fuzz/run-all.sh [SECONDS] [TARGET...]      default 60 s, all targets
#
# Corpora live in $FUZZ_BUILD_DIR/corpus/<target> (kept between runs, so later runs start where
# the last one stopped), seeded from fuzz/seeds/, the test fixtures, the sample logs, the model
# JSON of every example, and the crash inputs kept in tests/bad_inputs/fuzz/<target>/.  A crash
# is written to $FUZZ_BUILD_DIR/artifacts/<target>/ and makes the script exit 1; turn it into a
# regression test by copying it to tests/bad_inputs/fuzz/<target>/ (check_bad_inputs replays
# those through the same harness).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:-60}
shift || true
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
ALL_TARGETS=(logs config_file project model_json options lsp)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")

CC=${CC:-clang-14}
command -v "$CC" >/dev/null || { echo "run-all.sh: $CC not found (scripts/install-deps.sh installs clang-14 and libclang-rt-14-dev)" >&2; exit 2; }
CC=$CC cmake -S . -B "$BUILD" -DPOOLCHECK_FUZZ=ON -DPOOLCHECK_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j2 --target fuzz poolcheck >/dev/null

# CPython's one-time interpreter set-up looks like a leak to LSan (fuzz/lsan.supp says why);
# the suppressions name libpython's entry points only.  poolcheck's own leaks still fail.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/fuzz/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

seed_dir() { # target -> seed files go to $BUILD/corpus/<target>
  local t=$1 c=$BUILD/corpus/$1
  mkdir -p "$c"
  [ -d fuzz/seeds/$t ] && cp -n fuzz/seeds/$t/* "$c"/ 2>/dev/null || true
  [ -d tests/bad_inputs/fuzz/$t ] && cp -n tests/bad_inputs/fuzz/$t/* "$c"/ 2>/dev/null || true
  case $t in
    logs)   # byte 0 is the harness's control byte: default buffer, one source / 4 KiB, two sources
      for f in tests/fixtures/logs/*.log tests/fixtures/logs/tree/*.log tests/fixtures/logs/tree/*/*.log examples/logs/*.log; do
        [ -f "$f" ] || continue
        b=$(basename "$f")
        { printf '\000'; cat "$f"; } > "$c/$b.0"
        { printf '\015'; cat "$f"; } > "$c/$b.13"
        { printf '\000'; gzip -c "$f"; } > "$c/$b.gz.0"
      done ;;
    model_json)
      for f in examples/*.py examples/*.cpp tests/fixtures/python/*.py tests/fixtures/checks/*.py tests/fixtures/cpp/*.cpp; do
        [ -f "$f" ] || continue
        ASAN_OPTIONS=detect_leaks=0 "$BUILD/bin/poolcheck" model "$f" > "$c/$(basename "$f").json" 2>/dev/null ||
          rm -f "$c/$(basename "$f").json"
      done ;;
  esac
  return 0
}

dict_of() {
  case $1 in
    logs) echo fuzz/dict/logs.dict ;;
    lsp) echo fuzz/dict/lsp.dict ;;
    options) echo fuzz/dict/options.dict ;;
    *) echo fuzz/dict/json.dict ;;
  esac
}

status=0
summary=()
for t in "${TARGETS[@]}"; do
  bin=$BUILD/bin/fuzz_$t
  [ -x "$bin" ] || { echo "run-all.sh: no $bin" >&2; status=1; continue; }
  seed_dir "$t"
  art=$BUILD/artifacts/$t
  mkdir -p "$art"
  log=$BUILD/fuzz-$t.log
  echo "== fuzz_$t for ${SECONDS_EACH}s (corpus $BUILD/corpus/$t, log $log)"
  before=$(ls "$art" | wc -l)
  set +e
  # libpython has no frame pointers: the leak suppressions need the slow unwinder to see
  # Py_InitializeFromConfig on the stack (only fuzz_lsp reaches the Python frontend)
  extra_asan=""
  [ "$t" = lsp ] && extra_asan=":fast_unwind_on_malloc=0:malloc_context_size=255"
  ASAN_OPTIONS="$ASAN_OPTIONS$extra_asan" \
  "$bin" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2560 -max_len=65536 \
    -dict="$(dict_of "$t")" -artifact_prefix="$art/" -print_final_stats=1 \
    "$BUILD/corpus/$t" > "$log" 2>&1
  rc=$?
  set -e
  after=$(ls "$art" | wc -l)
  runs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | tail -1 | grep -o "[0-9]*$" || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
    status=1
    summary+=("fuzz_$t: FAILED (rc $rc) after $runs runs, cov $cov; new artifacts in $art:")
    summary+=("$(ls -t "$art" | head -5 | sed 's/^/    /')")
    grep -m3 -E 'ERROR: |runtime error:|SUMMARY:' "$log" | sed 's/^/    /' || true
  else
    summary+=("fuzz_$t: ok, $runs runs, cov $cov")
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
