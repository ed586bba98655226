#include "gpusched/sim/queueing_hints.h"

namespace gpusched {

bool WorthRequeuing(const std::vector<std::unique_ptr<FilterPlugin>>& filters, uint64_t rejectors, const PodInfo& pod,
                    const ClusterEvents& events) {
  if (rejectors == 0) return true;  // "Worth requeuing because no failed plugins"
  for (size_t k = 0; k < 64; ++k) {
    if (!(rejectors >> k & 1)) continue;
    // Bit 63 also stands for every filter past the 63rd: ask as for an unknown one.
    if (k >= filters.size() || k == 63) return true;
    const FilterPlugin& plugin = *filters[k];
    if (events.assigned_pod_deleted) {
      if (events.deleted_unknown || events.pods_deleted.empty()) {
        if (plugin.QueueOnAssignedPodDeleted()) return true;
      } else {
        for (const Pod* deleted : events.pods_deleted)
          if (plugin.QueueOnPodDeleted(pod, *deleted)) return true;
      }
    }
    for (const ClusterEvents::AddedNode& added : events.nodes_added)
      if (plugin.QueueOnNodeAdded(pod, *added.node, added.state)) return true;
    for (const ClusterEvents::AddedPod& added : events.pods_added)
      if (plugin.QueueOnAssignedPodAdded(pod, *added.pod, *added.node)) return true;
  }
  return false;
}

}  // namespace gpusched
