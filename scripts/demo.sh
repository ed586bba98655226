#!/usr/bin/env bash
# First README command: install what is missing, build the gpusched binary
# (only it: the tests, benchmark and fuzz targets are scripts/test.sh's), run
# the seed's demo. A second run rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh --quiet gpusched
./build/gpusched schedule -f examples/seed/
