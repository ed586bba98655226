// FitError: why a pod fits on no node, and its message exactly as
// kube-scheduler prints it (pkg/scheduler/framework/types.go FitError.Error):
//   "0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient nvidia.com/gpu."
#ifndef GPUSCHED_SCHED_API_FIT_ERROR_H_
#define GPUSCHED_SCHED_API_FIT_ERROR_H_

#include <map>
#include <string>

#include "gpusched/sched/api/status.h"

namespace gpusched {

inline constexpr const char* kNoNodesAvailable = "no nodes available to schedule pods";

struct FitError {
  int64_t num_all_nodes = 0;
  // reason -> number of nodes that reported it (a node with two reasons
  // counts once under each).
  std::map<std::string, int64_t> reason_counts;
  int64_t unresolvable_nodes = 0;  // nodes whose status was UnschedulableAndUnresolvable
  std::string post_filter_message;  // e.g. "preemption: ..." (appended without a ".")
  // A PreFilter plugin's rejection (Diagnosis.PreFilterMsg): printed instead
  // of the per-node histogram, e.g. DynamicResources' "request gpu: device
  // class gpu.nvidia.com does not exist".
  std::string pre_filter_message;

  void AddNodeStatus(const SchedStatus& s);
  std::string Error() const;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_FIT_ERROR_H_
