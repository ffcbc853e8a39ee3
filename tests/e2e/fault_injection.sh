#!/usr/bin/env bash
# Allocation-failure sweep (registered by tests/e2e/fault_injection.cmake when the build has
# -DPOOLCHECK_FAULT_INJECTION=ON).
#
#   fault_injection.sh POOLCHECK VALGRIND|"" FILE...
#
# For each FILE: a normal `poolcheck check` run with POOLCHECK_ALLOC_COUNT=1 says how many pc_mem_*
# allocations it makes (TOTAL).  Then for every N in 1..TOTAL+1 the same run with
# POOLCHECK_FAIL_ALLOC_AFTER=N must
#   - N <= TOTAL: exit 2 with "out of memory" on stderr and nothing else wrong (no signal, no
#     sanitizer report);
#   - N = TOTAL+1: behave exactly like the normal run (same status, same stdout).
# Under valgrind (when given) a sample of N spread over the range must show no definite leak and
# no memory error.  Runs two at a time (the machine has 2 cores).
set -uo pipefail
PC=$1
VG=$2
shift 2
export PYTHONHASHSEED=0          # same interpreter behaviour in every run
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pc-fault.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
SAMPLES=${FAULT_VALGRIND_SAMPLES:-12}

one() { # FILE N TOTAL EXPECTED_STATUS EXPECTED_STDOUT_FILE -> prints a failure line or nothing
  local f=$1 n=$2 total=$3 want_rc=$4 want_out=$5 out err rc
  out=$(mktemp "$WORK/o.XXXXXX"); err=$(mktemp "$WORK/e.XXXXXX")
  POOLCHECK_FAIL_ALLOC_AFTER=$n "$PC" check --no-config-lookup "$f" >"$out" 2>"$err" </dev/null
  rc=$?
  if [ "$rc" -ge 128 ]; then
    echo "FAIL $f N=$n: killed by signal $((rc - 128)); stderr: $(head -c 400 "$err")"
  elif [ "$n" -le "$total" ]; then
    if [ "$rc" -ne 2 ] || ! grep -q "out of memory" "$err"; then
      echo "FAIL $f N=$n: want status 2 and 'out of memory', got status $rc; stderr: $(head -c 400 "$err")"
    elif grep -qE "AddressSanitizer|runtime error:|LeakSanitizer" "$err"; then
      echo "FAIL $f N=$n: sanitizer report: $(grep -m1 -E "ERROR|runtime error" "$err")"
    fi
  else
    if [ "$rc" -ne "$want_rc" ] || ! cmp -s "$out" "$want_out"; then
      echo "FAIL $f N=$n (past the last allocation): status $rc (want $want_rc) or stdout differs from the normal run"
    fi
  fi
  rm -f "$out" "$err"
}
export -f one
export PC WORK

status=0
for f in "$@"; do
  normal_out=$WORK/normal.$(basename "$f").out
  normal_err=$WORK/normal.$(basename "$f").err
  POOLCHECK_ALLOC_COUNT=1 "$PC" check --no-config-lookup "$f" >"$normal_out" 2>"$normal_err" </dev/null
  normal_rc=$?
  total=$(sed -n 's/^poolcheck: allocations: \([0-9]*\)$/\1/p' "$normal_err" | tail -1)
  if [ -z "$total" ]; then
    echo "FAIL $f: no allocation count; is this a -DPOOLCHECK_FAULT_INJECTION=ON build whose main()"
    echo "     calls pc_mem_init_from_env()?  stderr: $(head -c 400 "$normal_err")"
    status=1
    continue
  fi
  if [ "$normal_rc" -ge 2 ]; then
    echo "FAIL $f: the normal run itself exits $normal_rc: $(head -c 400 "$normal_err")"
    status=1
    continue
  fi
  start=$(date +%s)
  fails=$(seq 1 $((total + 1)) | xargs -P2 -I{} bash -c 'one "$0" {} "$1" "$2" "$3"' "$f" "$total" "$normal_rc" "$normal_out")
  nfail=$(printf '%s' "$fails" | grep -c '^FAIL' || true)
  echo "$f: $total allocations; swept N = 1..$((total + 1)) in $(( $(date +%s) - start )) s; $nfail failures"
  if [ "$nfail" -gt 0 ]; then
    printf '%s\n' "$fails" | head -20
    status=1
  fi
  if [ -n "$VG" ]; then
    # N spread over the range: the first allocations (start-up), the last, and evenly between
    picks=$( { echo 1; echo 2; echo "$total"; for i in $(seq 1 "$SAMPLES"); do echo $(( (total * i) / (SAMPLES + 1) + 1 )); done; } | sort -nu)
    for n in $picks; do
      POOLCHECK_FAIL_ALLOC_AFTER=$n "$VG" -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        "$PC" check --no-config-lookup "$f" >/dev/null 2>"$WORK/vg.err" </dev/null
      rc=$?
      if [ "$rc" -ne 2 ]; then
        echo "FAIL $f N=$n under valgrind: status $rc (99 = a memory error or a definite leak)"
        grep -E "==[0-9]+==" "$WORK/vg.err" | head -30
        status=1
      fi
    done
    echo "$f: valgrind at N = $(echo $picks | tr '\n' ' '): $( [ $status -eq 0 ] && echo clean || echo see above)"
  fi
done
exit $status
