#!/usr/bin/env bash
# `poolcheck logs` scan speed against `grep -F`: bench/logs/run.sh (the logs module's benchmark),
# on a $BENCH_LOGS_MB MiB synthetic CANN log (default 256).  Its last line is the ratio.
#
#   bench/logs.sh [SIZE_MB]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PC=$(bench_poolcheck)
"$BENCH_ROOT/bench/logs/run.sh" --size-mb "${1:-${BENCH_LOGS_MB:-256}}" --poolcheck "$PC" --repeat 5
