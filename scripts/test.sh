#!/usr/bin/env bash
# Second README command (and what CI runs): install what is missing, build,
# run every test; then, with --sanitize (CI passes it), build and run the
# whole suite once more under AddressSanitizer + UndefinedBehaviorSanitizer,
# which fail the run on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
bash scripts/build.sh
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)"
if [[ "${1:-}" == "--sanitize" ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGPUSCHED_SANITIZE=ON -DGPUSCHED_BUILD_BENCH=OFF \
    -DGPUSCHED_UNITY=ON -DGPUSCHED_WERROR="${GPUSCHED_WERROR:-OFF}" >/dev/null
  cmake --build build-asan -j"$(nproc)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$(nproc)"
fi
