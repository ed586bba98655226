#!/usr/bin/env bash
# Renders an HTML report to a PNG with headless Chromium, to check by eye
# that charts, legends, heatmaps and the table render (the report itself needs
# no browser feature beyond inline SVG and CSS).
#
#   bash scripts/screenshot-report.sh REPORT.html OUT.png [WIDTHxHEIGHT]
#
# The window defaults to 1400x3000; the page is cut at that height.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 REPORT.html OUT.png [WIDTHxHEIGHT]" >&2
  exit 2
fi
report=$1
out=$2
size=${3:-1400x3000}
if [[ ! $size =~ ^[0-9]+x[0-9]+$ ]]; then
  echo "error: window size must look like 1400x3000, got \"$size\"" >&2
  exit 2
fi
if [[ ! -f $report ]]; then
  echo "error: report \"$report\" does not exist" >&2
  exit 1
fi

browser=""
for name in chromium chromium-browser google-chrome; do
  if command -v "$name" >/dev/null 2>&1; then
    browser=$(command -v "$name")
    break
  fi
done
if [[ -z $browser ]]; then
  echo "error: chromium is not installed (looked for chromium, chromium-browser, google-chrome);" \
       "install it with: sudo apt-get install chromium" >&2
  exit 1
fi

# Absolute paths: Chromium resolves --screenshot against its own working
# directory and needs a file:// URL for the page.
report_abs=$(realpath "$report")
out_dir=$(dirname "$out")
mkdir -p "$out_dir"
out_abs="$(realpath "$out_dir")/$(basename "$out")"
rm -f "$out_abs"

# A throwaway profile, so the run neither reads nor leaves browser state.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

log=$(mktemp)
if ! "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$profile" --no-first-run --disable-extensions \
    --screenshot="$out_abs" --window-size="${size/x/,}" "file://$report_abs" >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "error: $browser failed to render $report" >&2
  exit 1
fi
rm -f "$log"
if [[ ! -s $out_abs ]]; then
  echo "error: $browser did not write $out_abs" >&2
  exit 1
fi
echo "wrote $out_abs ($size)"
