#!/usr/bin/env bash
# Configures ./build (Ninja, RelWithDebInfo) when needed and builds the given
# targets, or everything (tests, benchmark and fuzz regressions included).
#
#   bash scripts/build.sh                    # everything
#   bash scripts/build.sh gpusched           # just the binary
#   bash scripts/build.sh --quiet gpusched   # one progress line instead of the build log
#                                            # (what scripts/demo.sh does; the log goes to build/build.log)
#
# GPUSCHED_WERROR=ON in the environment makes warnings errors (CI sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
quiet=0
if [[ "${1:-}" == "--quiet" ]]; then
  quiet=1
  shift
fi
werror=(-DGPUSCHED_WERROR="${GPUSCHED_WERROR:-OFF}")
if [[ ! -f build/CMakeCache.txt ]]; then
  # A new build directory: the modules as a unity build (CMakeLists.txt).
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSCHED_UNITY=ON "${werror[@]}" >/dev/null
elif (($# == 0)) || [[ -n "${GPUSCHED_WERROR:-}" ]]; then
  cmake -S . -B build "${werror[@]}" >/dev/null  # picks up what setup.sh --tests installed
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
if ((quiet == 0)); then
  exec cmake --build build -j"$(nproc)" "${targets[@]}"
fi
# One line that counts the steps (rewritten in place on a terminal), then
# how long it took; the whole log only when the build fails.
start=$SECONDS
log=build/build.log
what="${*:-everything}"
status=0
cmake --build build -j"$(nproc)" "${targets[@]}" >"$log" 2>&1 &
pid=$!
if [[ -t 1 ]]; then
  while kill -0 "$pid" 2>/dev/null; do
    step=$(grep -o '^\[[0-9]*/[0-9]*\]' "$log" | tail -1 || true)
    printf '\rbuilding %s %s %ds ' "$what" "$step" $((SECONDS - start))
    sleep 1
  done
  printf '\r\033[K'
fi
wait "$pid" || status=$?
if ((status != 0)); then
  cat "$log" >&2
  echo "build: failed (the log above is also in $log)" >&2
  exit "$status"
fi
# Compiling and linking count; re-checking globs and the like do not.
steps=$(grep -c '^\[[0-9]*/[0-9]*\] \(Building\|Linking\)' "$log" || true)
warnings=$(grep -c ': warning: ' "$log" || true)
note=""
((warnings == 0)) || note=", $warnings compiler warnings"
if ((steps == 0)); then
  echo "built $what: up to date"
else
  echo "built $what in $((SECONDS - start)) s ($steps compile and link steps; log: $log$note)"
fi
