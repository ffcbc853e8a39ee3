#!/usr/bin/env bash
# poolcheck-lsp: time from textDocument/didChange to its publishDiagnostics on the seed example
# (examples/k_tmp_to_d_emb.py and .cpp), measured by bench/lsp_latency.c over pipes, as an editor
# sees it.  With --debounce-ms=0 the number is the analysis and the round trip; with the default
# debounce (150 ms) an editor waits that much longer after the last keystroke, by design.
# Goal: <= 50 ms (debounce 0).
#
#   bench/lsp.sh [EDITS]          default 30 edits per file
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
LSP=$(dirname "$PC")/poolcheck-lsp
[ -x "$LSP" ] || { echo "lsp.sh: no $LSP" >&2; exit 2; }
EDITS=${1:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/lsp_latency" "$BENCH_ROOT/bench/lsp_latency.c"
for f in examples/k_tmp_to_d_emb.py examples/k_tmp_to_d_emb.cpp; do
  echo "lsp $f, --debounce-ms=0: $("$tmp/lsp_latency" "$LSP" "$BENCH_ROOT/$f" "$EDITS" -- --debounce-ms=0)"
done
echo "lsp examples/k_tmp_to_d_emb.py, default debounce: $("$tmp/lsp_latency" "$LSP" "$BENCH_ROOT/examples/k_tmp_to_d_emb.py" 10)"
