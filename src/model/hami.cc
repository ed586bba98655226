#include "gpusched/model/hami.h"

#include <algorithm>

namespace gpusched {

bool IsHamiResource(std::string_view name) {
  return name == "nvidia.com/gpumem" || name == "nvidia.com/gpumem-percentage" || name == "nvidia.com/gpucores" ||
         name == "nvidia.com/priority";
}

std::vector<std::string> HamiResourcesOf(const Pod& pod) {
  std::vector<std::string> out;
  auto add = [&](const Container& c) {
    // GenerateResourceRequests reads limits first, then requests.
    for (const ResourceList* list : {&c.limits, &c.requests})
      for (const auto& [name, q] : *list) {
        if (!IsHamiResource(name)) continue;
        std::string item = name + ": " + q.String();
        bool seen = std::any_of(out.begin(), out.end(),
                                [&](const std::string& o) { return o.substr(0, name.size() + 1) == name + ":"; });
        if (!seen) out.push_back(std::move(item));
      }
  };
  for (const Container& c : pod.init_containers) add(c);
  for (const Container& c : pod.containers) add(c);
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
