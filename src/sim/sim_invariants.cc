// Simulation::CheckInvariants (SimOptions::check_invariants; the checks are
// sim/invariants.h): after each batch, every touched node's cached usage
// against the usage recomputed from the pods the simulator ran there, and
// every pod in exactly one state.
#include <string>

#include "gpusched/sim/invariants.h"
#include "simulation.h"

namespace gpusched {
namespace sim_internal {

void Simulation::CheckInvariants(double now) {
  std::string what;
  for (size_t i : touched_) {
    what = CheckNodeInvariants(cluster_, i);
    if (what.empty()) {
      NodeUsage usage;
      if (i < running_on_.size()) {
        for (size_t id : running_on_[i]) {
          const PodInfo info = PodInfo::Make(workload_.pods[id].pod, id);
          usage.Add(info.requests, info.gpu);
        }
      }
      what = CheckNodeUsage(cluster_, i, usage);
    }
    if (!what.empty()) break;
  }
  if (what.empty())
    // A bare pod preemption removed is done with, as a finished one is.
    // A member waiting on Permit holds its node like a running pod.
    what = CheckPodConservation(finished_ + gone_, running_ + reserved_, static_cast<int64_t>(QueueSize()) + held_,
                                rejected_, arrived_);
  if (what.empty() && permit_) what = permit_->CheckInvariants();
  if (what.empty()) return;
  ReportInvariantViolation(options_.invariant_failed, "at t=" + FormatSeconds(now) + ": " + what);
}

}  // namespace sim_internal
}  // namespace gpusched
