#!/usr/bin/env bash
# Installs the Debian packages gpusched needs, when missing. Run as root on a
# fresh Debian (bookworm) machine. Idempotent: does nothing when all is there.
#
#   bash scripts/setup.sh           # what the gpusched binary needs (scripts/demo.sh)
#   bash scripts/setup.sh --tests   # and what the tests use (scripts/test.sh): GoogleTest,
#                                   # Chromium, which renders the HTML report in the screenshot test,
#                                   # Python 3, which checks the generated schema table, and curl
#                                   # and jq, which the README's and docs' command blocks use (DocCommandsTest)
#
# ccache is installed too: a second build of unchanged sources, in this
# checkout or another, then costs next to nothing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config ccache
  libyaml-dev libsimdjson-dev nlohmann-json3-dev libfmt-dev libcli11-dev
  libcpp-httplib-dev libboost-dev libssl-dev prometheus-cpp-dev
  libre2-dev  # CEL's matches() in DRA device selectors (model/cel/), with RE2's semantics as upstream
)
if [[ "${1:-}" == "--tests" ]]; then
  packages+=(libgtest-dev libgmock-dev googletest chromium wrk python3 curl jq)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
