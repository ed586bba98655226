// Policy: how the scheduler picks one node among those that pass the filters.
// Policies are registered by name ("first-fit", ...) and selected with
// --policy. A policy that only needs the first feasible node says so, and the
// scheduler stops filtering there.
#ifndef GPUSCHED_SCHED_POLICY_H_
#define GPUSCHED_SCHED_POLICY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/pod_info.h"
#include "gpusched/util/random.h"

namespace gpusched {

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view Name() const = 0;
  // True when the policy takes the first feasible node in node order, so the
  // scheduler may stop filtering at it.
  virtual bool StopsAtFirstFeasible() const { return false; }
  // Picks one of `feasible` (node indices, non-empty, in node order).
  virtual size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                        Rng& rng) const = 0;
};

// first-fit, the seed's policy: the first node in input order that fits.
class FirstFitPolicy : public Policy {
 public:
  std::string_view Name() const override { return "first-fit"; }
  bool StopsAtFirstFeasible() const override { return true; }
  size_t Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng&) const override {
    return feasible.front();
  }
};

// Creates a policy by name; nullptr when unknown.
std::unique_ptr<Policy> NewPolicy(std::string_view name);
// The names NewPolicy accepts, for usage messages.
std::vector<std::string> PolicyNames();

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POLICY_H_
