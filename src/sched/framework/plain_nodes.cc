#include "gpusched/sched/framework/plain_nodes.h"

namespace gpusched {

// On a plain node, for such a pod: NodeName and NodeAffinity have nothing to
// check; NodeResourcesFit compares exactly the free amounts in NeedOf (no
// other extended resource is requested); GpuShare's only question is
// whether one device has the share free, which is the largest free share.
bool PlainNodes::Decides(const ChainTraits& chain, const PodInfo& pod) {
  if (!chain.declared || !chain.checks_fit) return false;
  if (!pod.unconstrained) {
    const Pod& p = *pod.pod;
    if (!p.node_name.empty() || !p.node_selector.empty() || (p.node_affinity && p.node_affinity->has_required))
      return false;
  }
  if (pod.other_extended || (pod.whole_gpus > 0 && !chain.checks_gpu_count)) return false;
  const GpuRequest& g = pod.gpu;
  // A KAI gpu-memory share is sized per node: the index's largest free share
  // cannot decide it.
  return !g.any() || (g.models.empty() && g.memory_mib == 0 && (!g.from_annotations || g.count == 1));
}

void PlainNodes::Sync(const ClusterState& cluster) {
  if (serial_ != cluster.serial()) {
    serial_ = cluster.serial();
    plain_.clear();
  }
  for (size_t i = plain_.size(); i < cluster.size(); ++i) {
    const Node& node = cluster.node(i);
    bool plain = !node.unschedulable;
    for (const Taint& t : node.taints)
      if (t.effect == kTaintEffectNoSchedule || t.effect == kTaintEffectNoExecute) plain = false;
    plain_.push_back(plain);
  }
}

}  // namespace gpusched
