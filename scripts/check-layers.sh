#!/usr/bin/env bash
# Fails when a module includes a header of a module above it. The rule
# (README, "Layout"): util <- model <- config <- sched <- sim <- report <- cli,
# with controllers beside config (above model: what Kubernetes controllers
# and operators would create, from model structs alone), io reading files
# into model and config structs and handing them to the controllers (io may
# read util, model, config and controllers; only what links io may read
# controllers: sched, sim and report do not link it), siminput
# reading the simulator's inputs through io into sim's structs, server
# using sched (and io, to read a cluster snapshot), and run between the
# engine and cli (it puts a command's run together: it may read everything
# but report, server and cli; report and server stay beside it: neither
# reads run, run reads neither). ctest runs this as LayerCheck; run it by
# hand with `bash scripts/check-layers.sh [ROOT]`.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
declare -A allowed=(
  [util]="util"
  [model]="util model"
  [config]="util model config"
  [controllers]="util model controllers"
  [sched]="util model config sched"
  [sim]="util model config sched sim"
  [io]="util model config controllers io"
  [siminput]="util model config controllers sched sim io siminput"
  [report]="util model config sched sim report"
  [server]="util model config controllers sched io server"
  [run]="util model config controllers sched sim io siminput run"
  [cli]="util model config controllers sched sim io siminput report server run cli"
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
# Inside sched, the sub-folders have their own order (README, "Layout";
# each folder's README.md says why):
#   api <- plugins <- index <- policies <- framework, and
#   api <- plugins <- diagnosis <- framework.
# api holds the types and interfaces every other folder exchanges (PodInfo,
# SchedStatus, FitError, FilterPlugin, ScorePlugin, the pod class);
# framework (the Scheduler, batch, queue order, PreEnqueue, profiles) may
# include every folder. A file directly in src/sched/ or
# include/gpusched/sched/ has no place in this order and fails the check.
declare -A sched_allowed=(
  [api]="api"
  [plugins]="api plugins"
  [index]="api plugins index"
  [policies]="api index policies"
  [diagnosis]="api plugins diagnosis"
  [framework]="api plugins index policies diagnosis framework"
)
for sub in "${!sched_allowed[@]}"; do
  for dir in "$root/src/sched/$sub" "$root/include/gpusched/sched/$sub"; do
    [[ -d $dir ]] || continue
    while IFS=: read -r file line text; do
      used=$(sed -E 's|.*#include "gpusched/sched/([a-z_]+)/.*|\1|' <<<"$text")
      rel=${file#"$root"/}
      if [[ " ${sched_allowed[$sub]} " != *" $used "* ]]; then
        echo "$rel:$line: sched/$sub may not include sched/$used (${text#*#include })"
        status=1
      fi
    done < <(grep -rnE '#include "gpusched/sched/[a-z_]+/' "$dir" || true)
  done
done
for dir in "$root/src/sched" "$root/include/gpusched/sched"; do
  [[ -d $dir ]] || continue
  for entry in "$dir"/*; do
    name=$(basename "$entry")
    if [[ -f $entry && $name != README.md ]]; then
      echo "${entry#"$root"/}: a sched file outside the sub-folders (api, plugins, index, policies, diagnosis, framework)"
      status=1
    elif [[ -d $entry && -z ${sched_allowed[$name]+x} ]]; then
      echo "${entry#"$root"/}: a sched sub-folder with no rule in scripts/check-layers.sh"
      status=1
    fi
  done
done
if ((status == 0)); then echo "layers: every include points down"; fi
exit $status
