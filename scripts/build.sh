#!/usr/bin/env bash
# Configures ./build (Ninja, RelWithDebInfo) when needed and builds the given
# targets, or everything (tests, benchmark and fuzz regressions included).
#
#   bash scripts/build.sh            # everything
#   bash scripts/build.sh gpusched   # just the binary (what scripts/demo.sh builds)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/CMakeCache.txt ]]; then
  # A new build directory: the modules as a unity build (CMakeLists.txt).
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSCHED_UNITY=ON >/dev/null
elif (($# == 0)); then
  cmake -S . -B build >/dev/null  # picks up what setup.sh --tests installed
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
