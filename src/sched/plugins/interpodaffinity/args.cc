// InterPodAffinityArgs (v1, pkg/scheduler/apis/config/v1/types_pluginargs.go)
// from profiles[].pluginConfig[].args: defaulting (SetDefaults_
// InterPodAffinityArgs: hardPodAffinityWeight 1) and validation
// (validation_pluginargs.go ValidateInterPodAffinityArgs).
#include <memory>
#include <string>

#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"

namespace gpusched {

void DecodeInterPodAffinityArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                SchedulerProfile& profile) {
  r.WarnUnknown(args, path, {"apiVersion", "kind", "hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"});
  auto a = std::make_shared<InterPodAffinityArgs>();
  const std::string wp = path + ".hardPodAffinityWeight";
  if (std::optional<int32_t> w = r.Int32(args, "hardPodAffinityWeight", wp)) a->hard_pod_affinity_weight = *w;
  a->ignore_preferred_terms_of_existing_pods =
      r.Bool(args, "ignorePreferredTermsOfExistingPods", path + ".ignorePreferredTermsOfExistingPods").value_or(false);
  // validateHardPodAffinityWeight: [0, 100].
  if (a->hard_pod_affinity_weight < 0 || a->hard_pod_affinity_weight > 100)
    r.Error(wp, r.At(args, "hardPodAffinityWeight"),
            "Invalid value: " + std::to_string(a->hard_pod_affinity_weight) + ": not in valid range [0-100]");
  profile.plugin_args[names::kInterPodAffinity] = std::move(a);
}

}  // namespace gpusched
