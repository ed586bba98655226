// RunReport: everything one `gpusched schedule` run produced — the cluster
// after scheduling, the pods, the batch result, the rejected inputs — and the
// summary derived from it. The table and JSON writers read only this.
#ifndef GPUSCHED_REPORT_RUN_REPORT_H_
#define GPUSCHED_REPORT_RUN_REPORT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/gang.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/util/input_error.h"
#include "gpusched/util/plural.h"  // Plural, which report's users print with

namespace gpusched {

struct RunReport {
  const ClusterState& cluster;
  const std::vector<const Pod*>& pods;
  const BatchResult& result;
  const std::vector<InputError>& rejected;
  const std::vector<std::string>& warnings;
  std::string policy;
  std::string order;
  // Configured plugins gpusched does not implement (shown with --explain).
  std::vector<std::string> unimplemented = {};
  // The input's gangs and who enforces them (report/gang_report.h); null:
  // no gangs section.
  const GangSet* gangs = nullptr;
  const GangServing* gang_serving = nullptr;
};

struct Summary {
  int64_t nodes = 0;
  int64_t pods = 0;  // valid pods that went in
  int64_t placed = 0;
  int64_t preexisting = 0;  // placements that were already bound
  int64_t pending = 0;
  int64_t pending_forever = 0;
  int64_t refused = 0;
  int64_t preempted = 0;  // evicted by DefaultPreemption
  int64_t rejected_objects = 0;
  int64_t gpus_capacity = 0;
  int64_t gpus_requested = 0;  // whole nvidia.com/gpu, by all valid pods
  int64_t gpus_allocated = 0;  // devices charged to nvidia.com/gpu (those lent to shares included), as kubectl shows
  int64_t gpus_free = 0;
  int64_t gpus_pending = 0;  // whole nvidia.com/gpu requested by pending pods
  // The same in milli-GPU with GPU shares counted at their size (a 300
  // milli-GPU share is 0.3 GPU), so requested and allocated compare.
  int64_t gpu_milli_requested = 0;
  int64_t gpu_milli_pending = 0;
  // Allocated devices that hold GPU shares, and the milli-GPU those shares
  // use: an allocated device lent to shares is not wholly used.
  int64_t gpus_holding_shares = 0;
  int64_t gpu_milli_in_shares = 0;
  // DRA devices in the ResourceSlices (newest generation of each pool),
  // by model/dra/device_kinds.h's kinds, and those the claims hold.
  int64_t dra_gpus = 0, dra_gpus_allocated = 0;
  int64_t dra_mig = 0, dra_mig_allocated = 0;
  int64_t dra_mig_parents = 0;            // GPUs the MIG devices are carved from
  int64_t dra_mig_slices_allocated = 0;   // memory slices (eighths of a GPU) the allocated MIG devices hold
  int64_t dra_other = 0, dra_other_allocated = 0;
  std::string verdict;       // the answer to "could every pod fit?"
};

Summary Summarize(const RunReport& r);

// "name" for pods in the default namespace, "namespace/name" otherwise.
std::string DisplayName(const Pod& p);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_RUN_REPORT_H_
