#!/usr/bin/env bash
# Install the Debian packages poolcheck needs to build and test, if any is missing.
# Safe to run repeatedly: it only calls apt-get when something is absent.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  llvm-14 libclang-14-dev clang-14      # llvm-config, libclang's C API, clang for fuzzing
  libclang-rt-14-dev                    # -fsanitize=fuzzer runtime
  libcjson-dev check libsubunit-dev     # JSON, the Check unit-test framework (+ its subunit dependency)
  python3-dev                           # libpython for the embedded Python frontend
  zlib1g-dev                            # gzip'd runtime logs
  valgrind                              # leak checks in the test suite
)
# Node.js and npm drive the LSP and SARIF end-to-end tests.  Some machines carry a nodejs that
# bundles npm (nodesource), which conflicts with Debian's npm package: ask for the packages only
# when the commands are missing.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
# --with-libclang=N: also LLVM N's libclang (CI builds the C++ frontend against 14 and 19:
# cmake -DPOOLCHECK_LIBCLANG_VERSION=N); any other argument is a package name.
for extra in "$@"; do
  case "$extra" in
    --with-libclang=*) packages+=("llvm-${extra#*=}-dev" "libclang-${extra#*=}-dev") ;;
    *) packages+=("$extra") ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
