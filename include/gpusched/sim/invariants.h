// The simulator's invariants (SimOptions::check_invariants): what must hold
// after every event batch, and how a violation is reported.
#ifndef GPUSCHED_SIM_INVARIANTS_H_
#define GPUSCHED_SIM_INVARIANTS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "gpusched/model/cluster_state.h"

namespace gpusched {

// The per-node invariants: every device's free milli-GPU in [0, 1000], and no
// requested resource (pod count included) above allocatable. "" when they
// hold, else what is wrong.
std::string CheckNodeInvariants(const ClusterState& cluster, size_t node);

// Every pod that arrived is in exactly one place: "" when finished + running
// + waiting + rejected == arrived, else the counts.
std::string CheckPodConservation(int64_t finished, int64_t running, int64_t waiting, int64_t rejected,
                                 int64_t arrived);

// A violation `what`: passed to `failed` when it is set, else printed to
// stderr ("gpusched: simulator invariant violated <what>") before aborting.
void ReportInvariantViolation(const std::function<void(const std::string& what)>& failed, const std::string& what);

}  // namespace gpusched

#endif  // GPUSCHED_SIM_INVARIANTS_H_
