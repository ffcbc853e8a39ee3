#!/usr/bin/env bash
# bench/upstream_oracle.sh KIT_DIR [OUT_DIR] - poolcheck against upstream PyPTO's own compiler.
#
# KIT_DIR is the upstream-oracle kit (its gen/ scripts and data/: the C++ kernels upstream's
# compiler was run on and the ORACLE lines it printed per compiled root - which tensors got a
# global-memory raw, rootInnerTensorWsMemoryRequirement, exclusiveOutcastWsMemoryRequirement).  The
# kit is not part of this repository; point this script at a copy of it.  It copies data/ to
# OUT_DIR (default: a temporary folder), runs this build's poolcheck on every kernel
# (KIT_DIR/gen/run_oracle.py poolcheck), compares (KIT_DIR/gen/compare.py) and prints the three
# agreement figures docs/accuracy.md tracks - pools, per-root root_inner bytes, per-root exclusive
# bytes, each as kernels agreeing out of those upstream compiled - then the kernels that disagree.
# POOLCHECK=path/to/poolcheck picks the binary (default: build-bench/, built on demand).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
KIT=${1:-}
if [ -z "$KIT" ] || [ ! -f "$KIT/gen/compare.py" ] || [ ! -d "$KIT/data/kernels" ]; then
  echo "usage: bench/upstream_oracle.sh KIT_DIR [OUT_DIR]   (KIT_DIR/gen/compare.py and KIT_DIR/data/kernels must exist)" >&2
  exit 2
fi
PC=$(bench_poolcheck)
OUT=${2:-$(mktemp -d)}
rm -rf "$OUT/uo"
mkdir -p "$OUT"
cp -r "$KIT/data" "$OUT/uo"
chmod -R u+w "$OUT/uo"
t0=$(date +%s)
"$BENCH_PYTHON" "$KIT/gen/run_oracle.py" poolcheck "$OUT/uo" --poolcheck "$PC" > "$OUT/run.log" 2>&1
# A root whose bytes poolcheck does not know is null in its JSON (with a note saying why); the
# comparison wants a number: -1, which agrees with nothing and is listed below.
"$BENCH_PYTHON" - "$OUT/uo/poolcheck" <<'PY'
import json, os, sys
d = sys.argv[1]
for f in os.listdir(d):
    if not f.endswith(".json"):
        continue
    p = os.path.join(d, f)
    try:
        doc = json.load(open(p))
    except ValueError:
        continue
    changed = False
    for k in doc.get("kernels", []):
        for r in k.get("roots", []):
            for key in ("inner_bytes", "exclusive_bytes", "instances"):
                if r.get(key) is None:
                    r[key] = -1
                    changed = True
    if changed:
        json.dump(doc, open(p, "w"))
PY
"$BENCH_PYTHON" "$KIT/gen/compare.py" "$OUT/uo" --json "$OUT/uo/compare.json" --verbose > "$OUT/compare.txt"
t1=$(date +%s)
echo "upstream oracle: $(sed -n 2p "$OUT/compare.txt")"
echo "  ($(sed -n 1p "$OUT/compare.txt"); poolcheck over every kernel and the comparison: $((t1 - t0)) s)"
echo "kernels that disagree (details: $OUT/compare.txt):"
grep -E '^[a-z0-9_]+ \(kernels/' "$OUT/compare.txt" | sed 's/^/  /' || echo "  none"
