// The simulator's invariants (SimOptions::check_invariants): what must hold
// after every event batch, and how a violation is reported.
#ifndef GPUSCHED_SIM_INVARIANTS_H_
#define GPUSCHED_SIM_INVARIANTS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/model/resources.h"

namespace gpusched {

// The per-node invariants: every device's free milli-GPU in [0, 1000], and no
// requested resource (pod count included) above allocatable. "" when they
// hold, else what is wrong.
std::string CheckNodeInvariants(const ClusterState& cluster, size_t node);

// What the pods running on a node add up to, summed by the caller from the
// pods themselves (their requests and GPU asks), not read from
// ClusterState's books: the check below holds those books against it.
struct NodeUsage {
  int64_t pods = 0;
  int64_t milli_cpu = 0, memory = 0, ephemeral_storage = 0;
  int64_t gpu_milli = 0;  // milli-GPU taken on devices (count x milli per pod)
  std::map<std::string, int64_t, std::less<>> scalars;  // extended resources but nvidia.com/gpu
  // Adds one running pod.
  void Add(const Resources& requests, const GpuRequest& gpu);
};

// "" when node `node`'s books (pod count, cpu, memory, ephemeral storage,
// extended resources other than nvidia.com/gpu, milli-GPU taken over its
// devices) equal `usage`, else the first difference. A removed node must
// hold nothing. nvidia.com/gpu itself is left to CheckNodeInvariants: a GPU
// share charges whole devices to it (ClusterState::Bind), which only the
// books know.
std::string CheckNodeUsage(const ClusterState& cluster, size_t node, const NodeUsage& usage);

// Every pod that arrived is in exactly one place: "" when finished + running
// + waiting + rejected == arrived, else the counts.
std::string CheckPodConservation(int64_t finished, int64_t running, int64_t waiting, int64_t rejected,
                                 int64_t arrived);

// A violation `what`: passed to `failed` when it is set, else printed to
// stderr ("gpusched: simulator invariant violated <what>") before aborting.
void ReportInvariantViolation(const std::function<void(const std::string& what)>& failed, const std::string& what);

}  // namespace gpusched

#endif  // GPUSCHED_SIM_INVARIANTS_H_
