// ChainTraits: what a filter chain declares as a whole, read once from its
// filters' FilterTraits when a Scheduler is made. The scheduler's fast
// paths (framework/*_search.h, indexed_scan.h, summarized_failures.h,
// failure_cache.h) each say in their Usable() which of these they need, so
// a filter that declares nothing (FilterTraits{}) makes `declared` false
// and leaves the chain to the plain scan: it is never skipped, and none of
// its verdicts is reused for another pod.
#ifndef GPUSCHED_SCHED_FRAMEWORK_CHAIN_TRAITS_H_
#define GPUSCHED_SCHED_FRAMEWORK_CHAIN_TRAITS_H_

#include <memory>
#include <vector>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

struct ChainTraits {
  // Every filter declares FilterTraits::in_tree: a verdict depends only on
  // the pod's class (pod_class.h), the node and what runs there, so it may
  // be kept for the next pod of the class until the node changes; and on a
  // "plain" node (plain_nodes.h) only checks_fit and checks_devices can
  // reject a pod without placement constraints. True for an empty chain.
  bool declared = true;
  // Some filter rejects every node whose free amounts fall short of the
  // pod's requests (NodeResourcesFit): the node index may prune on them.
  bool checks_fit = false;
  // That filter checks nvidia.com/gpu too (the last such filter's say).
  bool checks_gpu_count = false;
  // Some filter rejects every node without the pod's share free on enough
  // devices (GpuShare): the index may prune on the largest free share.
  bool checks_devices = false;

  static ChainTraits Of(const std::vector<std::unique_ptr<FilterPlugin>>& filters);
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_CHAIN_TRAITS_H_
