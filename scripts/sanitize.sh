#!/usr/bin/env bash
# The whole CTest suite against an AddressSanitizer + UndefinedBehaviorSanitizer build
# (-DPOOLCHECK_SANITIZE=ON, gcc, -fno-sanitize-recover=undefined) in build-asan/, plus
# -fsanitize=float-cast-overflow: -fsanitize=undefined leaves it out (in gcc as in clang), and a
# double outside the target's range cast to an integer is undefined behaviour (the LSP's
# `version: 1e300` was one).  gcc 12 has it, so the pass stays on the compiler the build uses.
#
#   scripts/sanitize.sh [CTEST ARGS...]        e.g. scripts/sanitize.sh -R check_logs
#
# Leak checking is on (detect_leaks=1) for every process: the CLI, poolcheck-lsp, the unit
# suites and each forked Check test.  scripts/lsan.supp suppresses only the blocks allocated by
# CPython's one-time interpreter set-up (Py_InitializeFromConfig, `import ast`), which LSan cannot
# see referenced from pymalloc's mmap'd arenas; the file says why.  Nothing of poolcheck's own is
# suppressed: a leak through any other stack fails the run.
# The valgrind tests are skipped here (valgrind cannot run ASan binaries); scripts/valgrind.sh
# runs them against the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
scripts/install-deps.sh
BUILD=${SANITIZE_BUILD_DIR:-$ROOT/build-asan}
EXTRA_SAN="-fsanitize=float-cast-overflow -fno-sanitize-recover=float-cast-overflow"
cmake -S . -B "$BUILD" -DPOOLCHECK_SANITIZE=ON -DPOOLCHECK_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$EXTRA_SAN" -DCMAKE_CXX_FLAGS="$EXTRA_SAN" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=float-cast-overflow" >/dev/null
cmake --build "$BUILD" -j2
# slow unwinding: libpython has no frame pointers, and scripts/lsan.supp matches libpython entry
# points deep in its stacks
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=255:detect_stack_use_after_return=1:check_initialization_order=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# libclang's crash recovery installs signal handlers that hide ASan reports (tooling-notes 6)
export LIBCLANG_DISABLE_CRASH_RECOVERY=1
# cmake_package builds a separate project against the installed (sanitized) static library: its
# executables need the sanitizer runtimes too (CMake takes LDFLAGS on that project's first
# configure; poolcheck's own build is configured already).
export LDFLAGS="${LDFLAGS:-} -fsanitize=address,undefined,float-cast-overflow"
cd "$BUILD"
ctest --output-on-failure -j2 -E 'valgrind|fault_injection' "$@"
