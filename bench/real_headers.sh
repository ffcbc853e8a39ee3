#!/usr/bin/env bash
# Real-headers mode against clang, and against stub mode.
#
#   bench/real_headers.sh UPSTREAM_DIR [UPSTREAM_TEST_FILE...]
#
# UPSTREAM_DIR is a checkout of upstream PyPTO (github.com/hicann/pypto; not vendored here).
# The script builds a small project in a temporary directory:
#   kernels/  the repository's examples/*.cpp and a kernel written here (IF / ELSE, UNROLL, a
#             LOOP bound from a project header), both including "tilefwk/tilefwk.h";
#   include/  the project's own header (shapes.h);
#   upstream/ copies of a few upstream kernel tests (default: five from framework/tests that parse
#             without errors with the include path below; or the files given);
#   third_party/securec/include/securec.h  a declarations-only stand-in for the Huawei secure C
#             library CANN ships (the upstream headers include it; it is not a Debian package);
#   compile_commands.json  one entry per file: clang++ -std=c++17 with -I for the project, the
#             securec stand-in and what upstream's own build puts on the include path
#             (framework/include, framework/src, framework/src/interface,
#             framework/src/interface/machine/device, as its cmake/intf.cmake does; for an
#             upstream file also its own directory, the tests' include/ directories and
#             framework/tests/utils), the real C++ standard library, the real gtest and
#             nlohmann/json (Debian libgtest-dev, nlohmann-json3-dev).
# Then, per file:
#   - time: `poolcheck check -p DIR FILE` against `clang -fsyntax-only` with exactly the entry's
#     arguments (its compiler, -c and -o left out).  CPU time (perf stat task-clock, user +
#     system, every thread), the median of $BENCH_RUNS runs after $BENCH_WARMUP (default 5 and
#     1 here: an upstream test takes clang several seconds); without perf, wall time (hyperfine
#     or date, bench/lib.sh).
#   - predictions: the kernels and their predicted / required depths of real-headers mode
#     against stub mode (`poolcheck check FILE --extra-arg=-I<project include>`, no -p).  Any
#     difference is printed; the exit status is 1 when there is one.
# CLANG=clang-19 compares with LLVM 19 (then give POOLCHECK a build against libclang 19).
# KEEP=1 keeps the temporary project and prints where it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_WARMUP=${BENCH_WARMUP:-1}
source "$here/lib.sh"
UP=${1:?usage: bench/real_headers.sh UPSTREAM_DIR [UPSTREAM_TEST_FILE...]}
shift
UP=$(cd "$UP" && pwd)
[ -d "$UP/framework/include/tilefwk" ] || { echo "$UP: no framework/include/tilefwk (not a PyPTO checkout)" >&2; exit 2; }
PC=$(bench_poolcheck)
CLANG=${CLANG:-clang-14}
if command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock -- true >/dev/null 2>&1; then
  clock=cpu
  measure() { measure_cpu_ms "$@"; }
else
  clock=wall
  measure() { measure_ms "$@"; }
fi

upstream_files=("$@")
if [ ${#upstream_files[@]} -eq 0 ]; then
  for f in ut/operator/src/test_softmax.cpp ut/operator/src/test_rms_norm.cpp ut/operator/src/test_quant.cpp \
    ut/interface/src/function/test_dynamic_function.cpp ut/interface/src/interpreter/test_interp_loop_unroll_if.cpp; do
    upstream_files+=("$UP/framework/tests/$f")
  done
fi

proj=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then
  echo "project: $proj"
else
  trap 'rm -rf "$proj"' EXIT
fi
mkdir -p "$proj/kernels" "$proj/include" "$proj/upstream" "$proj/third_party/securec/include" "$proj/out"

cat >"$proj/third_party/securec/include/securec.h" <<'EOF'
/* Stand-in for the Huawei secure C library's securec.h: the declarations the PyPTO headers use. */
#pragma once
#include <stdarg.h>
#include <stddef.h>
typedef int errno_t;
#define EOK 0
#ifdef __cplusplus
extern "C" {
#endif
errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
int sprintf_s(char *strDest, size_t destMax, const char *format, ...);
int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...);
int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList);
int sscanf_s(const char *buffer, const char *format, ...);
#ifdef __cplusplus
}
#endif
EOF

cat >"$proj/include/shapes.h" <<'EOF'
// The project's own header: shapes shared by its kernels.
#pragma once
constexpr int ROWS = 8;
constexpr int COLS = 64;
constexpr int TILE_ROWS = 16;
EOF

cat >"$proj/kernels/k_rows_branch.cpp" <<'EOF'
// A kernel with an IF / ELSE on the loop index and an UNROLL set, its sizes from a project header.
#include "tilefwk/tilefwk.h"
#include "shapes.h"

using namespace npu::tile_fwk;

void BuildRowsBranch()
{
    Tensor x(DT_FP32, {ROWS * TILE_ROWS, COLS}, "x");
    Tensor w(DT_FP32, {COLS, 128}, "w");
    Tensor out(DT_FP32, {ROWS * TILE_ROWS, 128}, "out");

    FUNCTION("k_rows_branch", {x, w}, {out})
    {
        LOOP("rows", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, ROWS, 1))
        {
            TileShape::Current().SetVecTile({16, 128});
            IF(IsLoopBegin(i, 0))
            {
                Tensor first = Matrix::Matmul(DT_FP32, View(x, {TILE_ROWS, COLS}, {i * TILE_ROWS, 0}), w);
                Assemble(Add(first, Element(DT_FP32, 1.0)), {i * TILE_ROWS, 0}, out);
            }
            ELSE
            {
                Tensor rest = Matrix::Matmul(DT_FP32, View(x, {TILE_ROWS, COLS}, {i * TILE_ROWS, 0}), w);
                Assemble(Mul(rest, Element(DT_FP32, 2.0)), {i * TILE_ROWS, 0}, out);
            }
        }
        LOOP("unrolled", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 10, 1), {4})
        {
            UNROLL(4)
            {
                Tensor mm = Matrix::Matmul(DT_FP32, View(x, {4, COLS}, {j, 0}), w);
                Assemble(Add(mm, Element(DT_FP32, 1.0)), {j, 0}, out);
            }
            UNROLL_DEFAULT
            {
                Tensor mm = Matrix::Matmul(DT_FP32, View(x, {1, COLS}, {j, 0}), w);
                Assemble(Add(mm, Element(DT_FP32, 1.0)), {j, 0}, out);
            }
        }
    }
}
EOF
cp "$BENCH_ROOT"/examples/*.cpp "$proj/kernels/"

files=("$proj"/kernels/*.cpp)
declare -A own_dir # an upstream copy's original directory: its "" includes are found there
for f in "${upstream_files[@]}"; do
  [ -f "$f" ] || { echo "$f: no such file" >&2; exit 2; }
  rel=${f#"$UP"/framework/tests/}
  copy="$proj/upstream/${rel//\//_}"
  cp "$f" "$copy"
  own_dir[$copy]=$(dirname "$f")
  files+=("$copy")
done

common=(-std=c++17 -I"$proj/include" -I"$proj/third_party/securec/include" -I"$UP/framework/include"
  -I"$UP/framework/src" -I"$UP/framework/src/interface" -I"$UP/framework/src/interface/machine/device")
test_dirs=(-I"$UP/framework/tests/utils") # an upstream test also finds the tests' shared headers
while IFS= read -r d; do test_dirs+=(-I"$d"); done < <(find "$UP/framework/tests" -type d -name include | sort)

args_of() { # the entry's arguments of file $1 less the compiler, -c FILE and -o OBJ
  local f=$1
  printf '%s\n' "${common[@]}"
  if [ -n "${own_dir[$f]:-}" ]; then
    printf '%s\n' "-I${own_dir[$f]}" "${test_dirs[@]}"
  fi
}

{
  echo "["
  sep=""
  for f in "${files[@]}"; do
    mapfile -t a < <(args_of "$f")
    printf '%s  {"directory": "%s", "file": "%s", "arguments": [' "$sep" "$proj" "$f"
    printf '"clang++", '
    for x in "${a[@]}"; do printf '"%s", ' "$x"; done
    printf '"-c", "%s", "-o", "%s"]}' "$f" "$proj/out/$(basename "$f").o"
    sep=$',\n'
  done
  echo
  echo "]"
} >"$proj/compile_commands.json"

echo "machine: $(bench_machine)"
plugin=$(dirname "$PC")/../lib/poolcheck_clang.so # the C++ frontend, which links libclang
libclang=$(ldd "$plugin" 2>/dev/null | grep -o 'libclang[^ ]*\.so[^ ]*' | head -1 || true)
echo "poolcheck: $PC (${libclang:-libclang: see ldd $plugin}); clang: $("$CLANG" --version | head -1)"
echo "upstream: $UP ($(git -C "$UP" log -1 --format='%h %cs' 2>/dev/null || echo 'not a git checkout'))"
echo "clock: $clock time, median of $BENCH_RUNS runs after $BENCH_WARMUP warm-up"
echo
printf '%-66s %11s %11s %6s  %s\n' "file" "poolcheck" "clang" "ratio" "kernels real/stub, depths"
total_pc=0
total_cl=0
ndiff=0
for f in "${files[@]}"; do
  mapfile -t a < <(args_of "$f")
  name=${f#"$proj"/}
  errs=$("$CLANG" -fsyntax-only "${a[@]}" "$f" 2>&1 | grep -c 'error:' || true)
  pc=$(measure "$PC" check --no-config-lookup -p "$proj" "$f")
  cl=$(measure "$CLANG" -fsyntax-only "${a[@]}" "$f")
  total_pc=$(awk -v a="$total_pc" -v b="$pc" 'BEGIN{print a+b}')
  total_cl=$(awk -v a="$total_cl" -v b="$cl" 'BEGIN{print a+b}')
  "$PC" check --no-config-lookup --format=json -p "$proj" "$f" >"$proj/out/real.json" 2>/dev/null || true
  "$PC" check --no-config-lookup --format=json --extra-arg=-I"$proj/include" "$f" >"$proj/out/stub.json" 2>/dev/null || true
  cmp=$("$BENCH_PYTHON" - "$proj/out/real.json" "$proj/out/stub.json" <<'EOF'
import json, sys

def kernels(path):
    doc = json.load(open(path))
    got = {}
    for k in doc.get("kernels", []):
        got[(k.get("scope") or "", k["name"], k.get("line"))] = (k.get("predicted"), k.get("required"))
    # a note that the compile command was not used means this was not real-headers mode
    fallback = any("parsed with the PyPTO stub header instead" in d.get("message", "") for d in doc.get("diagnostics", []))
    return got, fallback

real, fell_back = kernels(sys.argv[1])
stub, _ = kernels(sys.argv[2])
diffs = []
for key in sorted(set(real) | set(stub), key=str):
    if real.get(key) != stub.get(key):
        diffs.append("  %s %s line %s: real %s, stub %s" % (key[0], key[1], key[2], real.get(key), stub.get(key)))
if fell_back:
    diffs.insert(0, "  the compile command was not used (stub header instead)")
print("%d/%d %s" % (len(real), len(stub), "same" if not diffs else "DIFFERENT"))
for d in diffs:
    print(d)
EOF
)
  printf '%-66s %8.1f ms %8.1f ms %6s  %s%s\n' "$name" "$pc" "$cl" "$(ratio "$pc" "$cl")" "$(head -1 <<<"$cmp")" \
    "$([ "$errs" = 0 ] || echo " (clang: $errs errors)")"
  if [ "$(wc -l <<<"$cmp")" -gt 1 ]; then
    tail -n +2 <<<"$cmp"
    ndiff=$((ndiff + 1))
  fi
done
echo "real headers: ${#files[@]} files, poolcheck ${total_pc} ms, clang ${total_cl} ms, ratio $(ratio "$total_pc" "$total_cl"); files whose predictions differ from stub mode: $ndiff"
[ "$ndiff" -eq 0 ]
