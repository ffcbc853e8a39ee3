#!/usr/bin/env bash
# Install what is missing, build poolcheck, and run it on the bundled examples.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo
echo "== build/bin/poolcheck check examples/k_tmp_to_d_emb.py"
build/bin/poolcheck check examples/k_tmp_to_d_emb.py
echo
echo "== build/bin/poolcheck check examples/k_tmp_to_d_emb.cpp"
build/bin/poolcheck check examples/k_tmp_to_d_emb.cpp
