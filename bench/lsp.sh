#!/usr/bin/env bash
# poolcheck-lsp: time from textDocument/didChange to its publishDiagnostics, measured by
# bench/lsp_latency.c over pipes, as an editor sees it.  With --debounce-ms=0 the number is the
# analysis and the round trip; with the default debounce (150 ms) an editor waits that much longer
# after the last keystroke, by design.  lsp_latency also prints the server's CPU time per edit:
# on a loaded machine the wall times include waiting for a core.
#
#   bench/lsp.sh [EDITS] [FILE...]
#
# Without FILEs: the seed example (examples/k_tmp_to_d_emb.py and .cpp; goal <= 50 ms at debounce
# 0) and, when $PYPTO_UPSTREAM names a checkout of the upstream PyPTO tree, its largest C++ test file
# framework/tests/ut/interface/src/function/test_dynamic_ops.cpp (138 KB, ~100 TEST bodies; goal
# <= 25 ms).  Each edit adds a comment line (new text every time): at the end of the file,
# and for C++ also first in a function body and between two functions in the middle of the file
# (lsp_latency --at=body / --at=between); a C++ document is kept in editor mode, where an edit
# re-parses only the function it touches.  The machine's load average is printed with each line:
# wall times on a loaded machine include waiting for a core, the server's CPU time does not.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
LSP=$(dirname "$PC")/poolcheck-lsp
[ -x "$LSP" ] || { echo "lsp.sh: no $LSP" >&2; exit 2; }
EDITS=${1:-30}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/lsp_latency" "$BENCH_ROOT/bench/lsp_latency.c"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$BENCH_ROOT/examples/k_tmp_to_d_emb.py" "$BENCH_ROOT/examples/k_tmp_to_d_emb.cpp")
  big=${PYPTO_UPSTREAM:+$PYPTO_UPSTREAM/framework/tests/ut/interface/src/function/test_dynamic_ops.cpp}
  [ -n "$big" ] && [ -f "$big" ] && files+=("$big")
fi
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
for f in "${files[@]}"; do
  places=(end)
  case "$f" in *.cpp|*.cc|*.cxx|*.h|*.hpp) places=(end body between) ;; esac
  for at in "${places[@]}"; do
    if out=$("$tmp/lsp_latency" "$LSP" "$f" "$EDITS" --at="$at" -- --debounce-ms=0 2>&1); then
      echo "lsp $f, --debounce-ms=0, --at=$at (load $(load)): $out"
    else
      echo "lsp $f, --at=$at: $out"
    fi
  done
done
if [ $# -eq 0 ]; then
  echo "lsp examples/k_tmp_to_d_emb.py, default debounce: $("$tmp/lsp_latency" "$LSP" "$BENCH_ROOT/examples/k_tmp_to_d_emb.py" 10)"
fi
