#!/usr/bin/env bash
# poolcheck over the C++ kernel files of an upstream PyPTO checkout, with no flags at all (stub
# mode, as a new user runs it), one process per file:
#
#   bench/cpp_corpus.sh UPSTREAM_DIR [-j N]      (POOLCHECK=path/to/poolcheck to pick a binary)
#
# Kernel files: the .cpp files under UPSTREAM_DIR/framework/tests that use the FUNCTION or LOOP
# macro.  Prints four figures (the targets in brackets):
#   - files with a clang error in stub mode (any `clang:` error of --show-parse-errors)  [<= 10 %]
#     and of those, how many have every error outside kernel bodies (test scaffolding, headers:
#     the predictions do not depend on them) against errors inside a kernel (a statement or LOOP
#     of a kernel clang rejected: a PC012 or FUNCTION warning quoting clang, so a kernel lost code)
#   - kernels without PC012 (an unanalysed region)                                        [>= 90 %]
#   - crashes (a signal, or an exit status other than 0, 1 and 2)                         [0]
# and, with CORPUS_DETAIL=1, the files with clang errors, the most frequent clang errors and the
# kernels with PC012.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [ $# -lt 1 ] || [ ! -d "$1/framework/tests" ]; then
  echo "usage: bench/cpp_corpus.sh UPSTREAM_DIR [-j N]   (UPSTREAM_DIR/framework/tests must exist)" >&2
  exit 2
fi
UP=$(cd "$1" && pwd)
JOBS=1
if [ "${2:-}" = "-j" ]; then JOBS=${3:-1}; fi
PC=$(bench_poolcheck)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -rlE '\b(FUNCTION|LOOP)[[:space:]]*\(' --include='*.cpp' "$UP/framework/tests" | sort > "$tmp/files"
nfiles=$(wc -l < "$tmp/files")
# one JSON report per file, and its exit status
run_one() {
  local f=$1 out=$2
  local rc=0
  "$PC" check --no-config-lookup --show-parse-errors --format=json "$f" > "$out.json" 2> "$out.err" || rc=$?
  echo "$rc" > "$out.rc"
}
export -f run_one
export PC
i=0
while read -r f; do
  i=$((i + 1))
  echo "$f $tmp/r$i"
done < "$tmp/files" | xargs -P "$JOBS" -n 2 bash -c 'run_one "$0" "$1"'
"$BENCH_PYTHON" - "$tmp" "$nfiles" "$UP" "${CORPUS_DETAIL:-0}" <<'PY'
import collections, json, os, re, sys
tmp, nfiles, up, detail = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
files = open(os.path.join(tmp, "files")).read().split("\n")[:nfiles]
err_files, crashes, bad_json = [], [], []
err_in_kernel = []
kernels = kernels_ok = 0
pc012_kernels = []
errors = collections.Counter()
for i, f in enumerate(files, 1):
    base = os.path.join(tmp, "r%d" % i)
    rc = int(open(base + ".rc").read().strip() or "0")
    if rc not in (0, 1, 2):
        crashes.append((f, rc))
        continue
    try:
        d = json.load(open(base + ".json"))
    except ValueError:
        bad_json.append(f)
        continue
    diags = d.get("diagnostics", [])
    clang = [x for x in diags if x.get("severity") == "error" and x.get("message", "").startswith("clang: ")]
    if clang:
        err_files.append((f, len(clang)))
        # a clang error inside a kernel body is claimed by the statement (or LOOP / FUNCTION) it
        # broke, which says so quoting clang; errors elsewhere are only the plain `clang:` errors
        if any("(clang: " in x.get("message", "") or "clang could not parse it" in x.get("message", "")
               for x in diags if x.get("check") == "PC012" or x.get("message", "").startswith("FUNCTION not modelled")):
            err_in_kernel.append(f)
        for x in clang:
            errors[re.sub(r"'[^']*'", "'X'", x["message"])] += 1
    for k in d.get("kernels", []):
        kernels += 1
        prefix = "kernel '%s'" % k["name"]
        if any(x.get("check") == "PC012" and x.get("message", "").startswith(prefix) for x in diags):
            pc012_kernels.append((f, k["name"]))
        else:
            kernels_ok += 1
rel = lambda p: os.path.relpath(p, up)
pct = lambda a, b: 100.0 * a / b if b else 0.0
print("cpp corpus: %d kernel files under framework/tests (%d kernels)" % (nfiles, kernels))
print("  files with a clang error in stub mode: %d / %d = %.1f %% (target <= 10 %%)" % (len(err_files), nfiles, pct(len(err_files), nfiles)))
print("    all outside kernel bodies: %d, some inside a kernel: %d" % (len(err_files) - len(err_in_kernel), len(err_in_kernel)))
print("  kernels without PC012: %d / %d = %.1f %% (target >= 90 %%)" % (kernels_ok, kernels, pct(kernels_ok, kernels)))
print("  crashes: %d (target 0)%s" % (len(crashes), "".join("\n    %s: exit %d" % (rel(f), rc) for f, rc in crashes)))
if bad_json:
    print("  unreadable JSON reports: %d" % len(bad_json))
if detail:
    print("files with clang errors:")
    for f, n in sorted(err_files, key=lambda t: -t[1]):
        print("  %5d  %s" % (n, rel(f)))
    print("most frequent clang errors:")
    for e, n in errors.most_common(40):
        print("  %5d  %s" % (n, e))
    print("files with clang errors inside a kernel:")
    for f in err_in_kernel:
        print("  %s" % rel(f))
    print("kernels with PC012:")
    for f, k in pc012_kernels:
        print("  %s: %s" % (rel(f), k))
PY
