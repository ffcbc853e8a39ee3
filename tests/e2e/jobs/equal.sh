#!/bin/sh
# jobs_equal: `poolcheck check -j 2` (and -j 3) writes exactly what -j 1 writes, byte for byte,
# in every format: stdout, stderr (the closing counts) and the exit status, over a mixed set:
# Python and C++ kernels, a file that does not parse (a SARIF toolExecutionNotification, which
# executionSuccessful false must follow), a file that cannot be read, a shared
# tile_fwk_config.json with diagnostics (written once), NOLINT/noqa-suppressed diagnostics
# (the "Suppressed N" count), fixes and notes, --verbose and --no-summary, -o FILE.
# usage: equal.sh POOLCHECK SOURCE_DIR WORK_DIR
set -u
pc=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/in/sub" || exit 2
cp "$src/examples/k_tmp_to_d_emb.py" "$src/examples/k_tmp_to_d_emb.cpp" \
   "$src/tests/fixtures/checks/pc001_zero_depth_pool.py" \
   "$src/tests/fixtures/checks/pc006_pool_too_shallow.cpp" \
   "$src/tests/fixtures/checks/pc006_pool_too_shallow.py" \
   "$src/tests/fixtures/checks/suppress_nolint.cpp" \
   "$src/tests/fixtures/checks/suppress_noqa.py" \
   "$src/tests/bad_inputs/files/py_unterminated_string.py" "$work/in/" || exit 2
cp "$src/tests/fixtures/checks/pc012_unanalysed_region.cpp" \
   "$src/tests/fixtures/checks/suppress_nolint.py" \
   "$src/tests/fixtures/checks/pc009_suggest_precise_config.py" "$work/in/sub/" || exit 2
cp "$src/tests/bad_inputs/files/cfg_wrong_types.json" "$work/cfg.json" || exit 2
cd "$work" || exit 2
fail=0
n=0
run() { # name, then the arguments after `check`
    name=$1
    shift
    "$pc" check -j 1 "$@" >"$name.1.out" 2>"$name.1.err"
    echo $? >"$name.1.rc"
    for j in 2 3; do
        "$pc" check -j $j "$@" >"$name.$j.out" 2>"$name.$j.err"
        echo $? >"$name.$j.rc"
        for part in out err rc; do
            if ! cmp -s "$name.1.$part" "$name.$j.$part"; then
                echo "FAIL: $name: -j $j $part differs from -j 1 (check $*)"
                diff "$name.1.$part" "$name.$j.$part" | head -20
                fail=1
            fi
        done
    done
    n=$((n + 1))
}
for fmt in text json sarif github; do
    run "$fmt" --no-config-lookup --config cfg.json --format=$fmt in in/sub/../k_missing.py
    run "$fmt-plain" --no-config-lookup --format=$fmt in
done
run text-verbose --no-config-lookup --config cfg.json --verbose --no-summary in
run text-werror --no-config-lookup --warnings-as-errors='*' in
# -o FILE: the same document in the file
"$pc" check -j 1 --no-config-lookup --config cfg.json --format=sarif -o o1.sarif in >/dev/null 2>&1
"$pc" check -j 2 --no-config-lookup --config cfg.json --format=sarif -o o2.sarif in >/dev/null 2>&1
cmp -s o1.sarif o2.sarif || { echo "FAIL: -o FILE: -j 2 differs from -j 1"; fail=1; }

# The cases must mean something: the set has what the comparisons are about.
grep -q 'py_unterminated_string.py' sarif.1.out || { echo "FAIL: no syntax-error notification"; fail=1; }
grep -q '"executionSuccessful":	false' sarif.1.out || { echo "FAIL: SARIF must say executionSuccessful false"; fail=1; }
c=$(grep -c 'cfg.json:1:46: error' text.1.out)
[ "$c" = 1 ] || { echo "FAIL: the config file's diagnostic is written $c times, not once"; fail=1; }
grep -q 'Suppressed [0-9]* diagnostic' text.1.err || { echo "FAIL: no suppressed diagnostics in the set"; fail=1; }
grep -q 'kernel ' text-plain.1.out || { echo "FAIL: no kernel summary"; fail=1; }
grep -q 'pc006_pool_too_shallow.cpp' text.1.out || { echo "FAIL: no C++ diagnostic"; fail=1; }
grep -q 'k_missing.py' text.1.out || grep -q 'k_missing.py' text.1.err || { echo "FAIL: the missing file is not reported"; fail=1; }
for f in json json-plain sarif sarif-plain; do
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f.2.out" || { echo "FAIL: $f -j 2 is not JSON"; fail=1; }
done
[ $fail = 0 ] && echo "jobs_equal: $n cases, -j 2 and -j 3 equal to -j 1"
exit $fail
