#!/bin/sh
# bench/python_corpus.sh - poolcheck over the Python kernels of a PyPTO checkout.
#
#   bench/python_corpus.sh UPSTREAM_DIR [POOLCHECK]
#
# Runs `poolcheck check --format=json` on every .py file under UPSTREAM_DIR's
# python/tests/st/operator, models and examples, and prints:
#   files, kernels found, kernels without a PC012 (target >= 95 %),
#   one-element scalars placed in a pool (views or op values of at most 8 bytes in root_inner /
#   assemble_outcast / exclusive_outcast - what a GetTensorData read modelled as a tensor becomes;
#   target 0; tensors the kernel creates itself, pypto.full([1, 1], ...), are counted apart, and a
#   genuine one-element tensor computed by an op on one - a per-tensor scale - also shows here, so
#   read the list),
#   crashes (a signal, or output that is not the JSON document; target 0),
# then the files behind each PC012 and each scalar, most frequent message first (PC012_LIST=1).
# POOLCHECK defaults to build/bin/poolcheck next to this script's repository.
set -u
root=${1:?usage: bench/python_corpus.sh UPSTREAM_DIR [POOLCHECK]}
here=$(cd "$(dirname "$0")/.." && pwd)
pc=${2:-$here/build/bin/poolcheck}
[ -x "$pc" ] || { echo "python_corpus.sh: no poolcheck at $pc (pass it as the second argument)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python_corpus.sh: needs python3 to read the JSON" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for d in python/tests/st/operator models examples; do
    [ -d "$root/$d" ] && find "$root/$d" -name '*.py' -type f
done | sort > "$tmp/files"
while IFS= read -r f; do
    n=$((n + 1))
    "$pc" check --format=json --no-config-lookup "$f" > "$tmp/$n.json" 2> "$tmp/$n.err"
    echo "$? $f" > "$tmp/$n.status"
done < "$tmp/files"
python3 - "$tmp" "$n" <<'PY'
import json, os, sys, collections
tmp, n = sys.argv[1], int(sys.argv[2])
kernels = clean = scalars = crashes = created = 0
pc012 = collections.Counter()
scalar_files = collections.Counter()
for i in range(1, n + 1):
    status, path = open(os.path.join(tmp, f"{i}.status")).read().rstrip("\n").split(" ", 1)
    status = int(status)
    try:
        doc = json.load(open(os.path.join(tmp, f"{i}.json")))
    except ValueError:
        doc = None
    if status >= 128 or doc is None:
        crashes += 1
        print(f"crash: {path} (exit {status})", file=sys.stderr)
        continue
    with_012 = set()
    for d in doc.get("diagnostics", []):
        if d.get("check") == "PC012":
            with_012.add(d.get("kernel"))
            msg = d.get("message", "")
            pc012[msg.split(":", 1)[1].strip()[:90] if ":" in msg else msg[:90]] += 1
    for k in doc.get("kernels", []):
        kernels += 1
        if k.get("name") not in with_012:
            clean += 1
        for t in k.get("tensors", []):
            b = t.get("bytes")
            if t.get("pool") not in (None, "none") and isinstance(b, (int, float)) and 0 < b <= 8:
                if t.get("kind") not in ("view", "value"):
                    created += 1
                    continue
                scalars += 1
                scalar_files[f"{os.path.relpath(path)} {k.get('name')}:{t.get('name')} ({t.get('kind')}, line {t.get('line')})"] += 1
pct = 100.0 * clean / kernels if kernels else 0.0
print(f"files:                      {n}")
print(f"kernels found:              {kernels}")
print(f"kernels without PC012:      {clean} ({pct:.1f} %)")
print(f"one-element scalars in a pool: {scalars}")
print(f"  (one-element tensors the kernels create, not counted: {created})")
print(f"crashes:                    {crashes}")
if os.environ.get("PC012_LIST"):
    for msg, cnt in pc012.most_common(40):
        print(f"  PC012 x{cnt}: {msg}")
    for s, cnt in scalar_files.most_common(40):
        print(f"  scalar: {s}")
PY
