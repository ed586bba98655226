#include "gpusched/model/hami.h"

#include <algorithm>

namespace gpusched {

bool IsHamiResource(std::string_view name) {
  return name == "nvidia.com/gpumem" || name == "nvidia.com/gpumem-percentage" || name == "nvidia.com/gpucores" ||
         name == "nvidia.com/priority";
}

std::vector<std::string> HamiResourcesOf(const Pod& pod) {
  std::vector<std::string> out;
  bool any = false;
  auto add = [&](const Container& c, bool hami_only) {
    // GenerateResourceRequests reads limits first, then requests, each as
    // an integer (Quantity.AsInt64).
    for (const ResourceList* list : {&c.limits, &c.requests})
      for (const auto& [name, q] : *list) {
        const bool hami = IsHamiResource(name);
        if (hami_only ? !hami : name != kResourceGPU) continue;
        any |= hami;
        const std::string key = name + ": ";
        if (std::none_of(out.begin(), out.end(), [&](const std::string& o) { return o.starts_with(key); }))
          out.push_back(key + std::to_string(q.Value()));
      }
  };
  // The vGPU count first, then HAMi's own resources, as the containers list them.
  for (bool hami_only : {false, true}) {
    for (const Container& c : pod.init_containers) add(c, hami_only);
    for (const Container& c : pod.containers) add(c, hami_only);
  }
  if (!any) out.clear();
  return out;
}

bool IsHamiNode(const Node& node) { return node.meta.annotations.count(kHamiNodeRegisterAnnotation) > 0; }

std::string HamiNodeNote(const Node& node) {
  std::string gpus = "none";
  auto it = node.EffectiveAllocatable().find(kResourceGPU);
  if (it != node.EffectiveAllocatable().end()) gpus = it->second.String();
  return "carries HAMi's device registry (hami.io/node-nvidia-register), so its nvidia.com/gpu (" + gpus +
         ") counts HAMi vGPUs, not devices; gpusched does not model HAMi: pods that ask for hami-scheduler or HAMi's "
         "resources stay pending, and other pods see the vGPU count as whole GPUs";
}

}  // namespace gpusched
