#!/usr/bin/env bash
# First README command: install what is missing, build, run the seed's demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/gpusched schedule -f examples/seed/
