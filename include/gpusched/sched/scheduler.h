// Scheduler: the one narrow entry point through which everything (the CLI,
// the simulator, the extender) asks "where does this pod go?". It runs the
// filter chain over the nodes, lets the policy choose among the feasible
// ones, binds the pod on success, and builds the FitError on failure.
#ifndef GPUSCHED_SCHED_SCHEDULER_H_
#define GPUSCHED_SCHED_SCHEDULER_H_

#include <memory>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/filter_plugin.h"
#include "gpusched/sched/fit_error.h"
#include "gpusched/sched/pod_info.h"
#include "gpusched/sched/policy.h"
#include "gpusched/util/random.h"

namespace gpusched {

struct Decision {
  bool scheduled = false;
  size_t node = 0;             // valid when scheduled
  std::vector<int32_t> gpus;   // device indices taken on `node`
  FitError fit_error;          // valid when !scheduled
};

class Scheduler {
 public:
  Scheduler(std::vector<std::unique_ptr<FilterPlugin>> filters, std::unique_ptr<Policy> policy, uint64_t seed);

  // Schedules one pod: on success it is bound in `cluster`.
  Decision ScheduleOne(const PodInfo& pod, ClusterState& cluster);

  const std::vector<std::unique_ptr<FilterPlugin>>& filters() const { return filters_; }
  const Policy& policy() const { return *policy_; }

 private:
  std::vector<std::unique_ptr<FilterPlugin>> filters_;
  std::unique_ptr<Policy> policy_;
  Rng rng_;
  std::vector<size_t> feasible_;  // reused between calls
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_SCHEDULER_H_
