// The two halves of Diagnose (diagnosis.h), shared by the plain Diagnose and
// DiagnosisCache so that both say the same thing in the same words:
//
// DiagnoseNodeSet: what follows from the nodes alone (their labels, taints,
// cordons, allocatable) — the nodes the pod may use, the ones that could
// hold it when empty, and every answer that does not depend on what runs
// (no nodes, no eligible node, can never fit). ClusterState changes those
// only when a node is added or removed (nodes_version()).
//
// FinishWaiting: the words for a pod that waits for room, from the free
// amounts over the nodes that could hold it. Diagnose sums them by a scan;
// DiagnosisCache keeps them up to date as pods come and go.
#ifndef GPUSCHED_SRC_SCHED_DIAGNOSIS_PARTS_H_
#define GPUSCHED_SRC_SCHED_DIAGNOSIS_PARTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched::diagnosis_parts {

struct Want {
  std::string name;  // API name (cpu, memory, nvidia.com/gpu...)
  int64_t request;
};

struct NodeSet {
  std::optional<Diagnosis> settled;  // the answer, whatever runs on the nodes
  std::vector<Want> wants;           // what the pod's NodeResourcesFit checks, in its order
  std::vector<size_t> could;         // nodes it may use that could hold it when empty, in node order
  // The pod is compared with other pods (ComparedWithPods): when its
  // requests are free somewhere, those filters are what holds it.
  bool pod_aware = false;
};

// Filters compare the pod with the pods running on a node: its own spec asks
// for it (PodInfo::pod_aware), or a PreFilter kept state for it (running
// pods' required anti-affinity may forbid a pod without rules of its own).
inline bool ComparedWithPods(const PodInfo& pod) { return pod.pod_aware || pod.cycle != nullptr; }

NodeSet DiagnoseNodeSet(const PodInfo& pod, const ClusterState& cluster,
                        const std::vector<std::unique_ptr<FilterPlugin>>& filters);

// What is free of `resource` on a node right now (never negative).
int64_t FreeNow(const NodeState& s, std::string_view resource);

struct Free {
  int64_t max = 0;  // most free on one node of `could`
  int64_t sum = 0;  // free over all of `could`, saturated at INT64_MAX
};

// Sets d.kind, d.resource and d.text for a pod that could fit once pods
// finish (ns.could not empty): free(k) is want k's Free over ns.could, asked
// in order until one is short; pods_full() whether every node of ns.could is
// at its pod limit, asked only when none is. `demand` (may be null) is the
// batch's: a fragmented pod is advised to reorder only when all could fit.
void FinishWaiting(Diagnosis& d, const ClusterState& cluster, const NodeSet& ns,
                   const std::function<Free(size_t)>& free, const std::function<bool()>& pods_full,
                   const BatchDemand* demand);

// FinishWaiting's words when every resource the pod asks for is free on some
// node of ns.could.
inline constexpr const char* kNoSingleNodeText =
    "waiting for room: no single node has all of its requests free at once right now";
// A pod-aware pod whose requests are free on some node that a filter counting
// the pods already running rejects (topology spread, pod affinity).
inline constexpr const char* kPodRuleText =
    "waiting: its requests are free on some node, but placing it there breaks a rule that counts the pods already "
    "running (its topologySpreadConstraints or pod affinity: see the message above); it is placed when those pods "
    "change";

// For a pod some filter compares with the pods running on a node (a
// pod-aware pod: host ports...), FinishWaiting's kNoSingleNodeText is
// replaced by what that filter names in the way on a node of ns.could
// (FilterPlugin::ExplainRejection: NodePorts, InterPodAffinity), when one
// names a running pod.
void NameWhatIsInTheWay(Diagnosis& d, const PodInfo& pod, const ClusterState& cluster, const NodeSet& ns,
                        const std::vector<std::unique_ptr<FilterPlugin>>& filters);

}  // namespace gpusched::diagnosis_parts

#endif  // GPUSCHED_SRC_SCHED_DIAGNOSIS_PARTS_H_
