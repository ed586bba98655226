#include "gpusched/sched/scheduler.h"

#include "gpusched/sched/filters.h"

namespace gpusched {

Scheduler::Scheduler(std::vector<std::unique_ptr<FilterPlugin>> filters, std::unique_ptr<Policy> policy,
                     uint64_t seed)
    : filters_(std::move(filters)), policy_(std::move(policy)), rng_(seed) {}

Decision Scheduler::ScheduleOne(const PodInfo& pod, ClusterState& cluster) {
  Decision d;
  feasible_.clear();
  const bool first_only = policy_->StopsAtFirstFeasible();
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(cluster.size());
  for (size_t i = 0; i < cluster.size(); ++i) {
    SchedStatus s = RunFilters(filters_, pod, cluster.node(i), cluster.state(i));
    if (s.IsSuccess()) {
      feasible_.push_back(i);
      if (first_only) break;
    } else {
      err.AddNodeStatus(s);
    }
  }
  if (feasible_.empty()) {
    d.fit_error = std::move(err);
    return d;
  }
  d.scheduled = true;
  d.node = feasible_.size() == 1 ? feasible_.front() : policy_->Select(pod, cluster, feasible_, rng_);
  d.gpus = cluster.Bind(d.node, pod.requests, pod.non_zero_requests);
  return d;
}

}  // namespace gpusched
