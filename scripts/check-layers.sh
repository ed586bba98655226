#!/usr/bin/env bash
# Fails when a module includes a header of a module above it. The rule
# (README, "Layout"): util <- model <- config <- sched <- sim <- report <- cli,
# with io feeding model/config/sim (io may read util, model, config and sim)
# and server using sched (and io, to read a cluster snapshot). ctest runs this
# as LayerCheck; run it by hand with `bash scripts/check-layers.sh [ROOT]`.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
declare -A allowed=(
  [util]="util"
  [model]="util model"
  [config]="util model config"
  [sched]="util model config sched"
  [sim]="util model config sched sim"
  [io]="util model config sim io"
  [report]="util model config sched sim report"
  [server]="util model config sched io server"
  [cli]="util model config sched sim io report server cli"
)
status=0
for module in "${!allowed[@]}"; do
  for dir in "$root/src/$module" "$root/include/gpusched/$module"; do
    [[ -d $dir ]] || continue
    while IFS=: read -r file line text; do
      used=$(sed -E 's|.*#include "gpusched/([a-z_]+)/.*|\1|' <<<"$text")
      if [[ " ${allowed[$module]} " != *" $used "* ]]; then
        echo "${file#"$root"/}:$line: $module may not include $used (${text#*#include })"
        status=1
      fi
    done < <(grep -rnE '#include "gpusched/[a-z_]+/' "$dir" || true)
  done
done
# Every folder under src/ must have a rule, so that a new module is placed.
for dir in "$root"/src/*/; do
  module=$(basename "$dir")
  if [[ -z ${allowed[$module]+x} ]]; then
    echo "src/$module: a module with no layer rule in scripts/check-layers.sh"
    status=1
  fi
done
if ((status == 0)); then echo "layers: every include points down"; fi
exit $status
