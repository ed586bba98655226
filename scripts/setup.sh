#!/usr/bin/env bash
# Installs the Debian packages gpusched needs, when missing. Run as root on a
# fresh Debian (bookworm) machine. Idempotent: does nothing when all is there.
# With --test (scripts/test.sh passes it) it also installs what only the tests
# use: Chromium, which renders the HTML report in the screenshot test.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-dev libsimdjson-dev nlohmann-json3-dev libfmt-dev libcli11-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  libcpp-httplib-dev libssl-dev prometheus-cpp-dev wrk
)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(chromium)
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
