#!/usr/bin/env bash
# Second README command (and what CI runs): install what is missing, build,
# run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
