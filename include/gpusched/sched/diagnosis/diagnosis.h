// Diagnosis: gpusched's own answer, in plain words, to "why is this pod
// pending, and will it ever run?" — on top of kube-scheduler's FitError.
// It tells apart a pod that waits for room (resources are in use), one that
// waits because free GPUs are fragmented over several nodes, and one that can
// never fit on this cluster (bigger than every node, a resource no node
// advertises, every node excluded by a taint, cordon or selector).
#ifndef GPUSCHED_SCHED_DIAGNOSIS_DIAGNOSIS_H_
#define GPUSCHED_SCHED_DIAGNOSIS_DIAGNOSIS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/diagnosis/advice.h"

namespace gpusched {

struct Diagnosis {
  enum class Kind {
    kWaitingForRoom,   // fits on some node once running pods finish
    kFragmented,       // enough free GPUs in the cluster, but not on one node
    kTooLarge,         // larger than every eligible node's allocatable
    kNotAdvertised,    // no node advertises a requested resource
    kNoEligibleNode,   // every node excluded by taints, cordon or selector
    kNoNodes,          // the cluster is empty
    // Not attempted at all (sched/framework/pre_enqueue.h), whatever the cluster:
    kSchedulingGated,  // spec.schedulingGates not yet removed
    kSchedulerNotRun,  // spec.schedulerName names a scheduler gpusched does not run
    kBeingDeleted,     // metadata.deletionTimestamp is set: kube-scheduler skips the pod
    kDraClaimMissing,  // a ResourceClaim / template / DeviceClass it needs is not in the input
    kNotModelled,      // a GPU spelling gpusched refuses to guess at (HAMi's vGPUs)
    // It fits, but its gang does not: its scheduler binds no member until
    // minCount of them fit at once (sched/framework/gang_batch.h).
    kGang,
    // A PreFilter plugin rejected it before any node was tried (a missing
    // PersistentVolumeClaim, unbound Immediate claims...).
    kPreFilterRejected,
  };
  Kind kind = Kind::kWaitingForRoom;
  bool forever = false;  // can never fit on this cluster as it is
  std::string text;
  // The setting it ends by recommending, worded after `text` by the layers
  // that print it (advice.h).
  Advice advice;
  // The resource it waits for or can never get (the first of its requests
  // that no eligible node has free, or has at all), "" when the diagnosis
  // is not about one resource (no eligible node, pod limits, no nodes).
  std::string resource;
  // When waiting for room: the node where the fewest running pods would have
  // to finish for it to fit, and those pods (BoundPod ids, latest first).
  std::optional<size_t> free_up_node;
  std::vector<uint64_t> free_up_pods;
};

const char* DiagnosisKindName(Diagnosis::Kind k);

// What a batch's pods ask for in all against what its cluster has free
// before the first is placed (ScheduleBatch fills it). When a resource's
// demand exceeds what is free, no queue order or policy places every pod:
// reordering only changes which pods wait, so a fragmented pod is not told
// that largest-first or bin-packing avoids its wait.
struct BatchDemand {
  Resources requested;  // GPU shares count in nvidia.com/gpu, rounded up
  Resources free;
};

// Diagnoses `pod`, which just failed to schedule on `cluster` (in its
// current state) with `filters`. `demand`, when given, is its batch's.
Diagnosis Diagnose(const PodInfo& pod, const ClusterState& cluster,
                   const std::vector<std::unique_ptr<FilterPlugin>>& filters, const BatchDemand* demand = nullptr);

// For a pod asking for `resource` (nvidia.com/gpu) that no node advertises:
// when nodes offer MIG slices instead (the device plugin's mixed strategy,
// nvidia.com/mig-<profile>), "; the nodes' GPUs are partitioned with MIG
// ...: nvidia.com/mig-1g.10gb (14 on 2 nodes), ..." naming each profile with
// its count; "" when no node offers MIG resources (sched/diagnosis/mig_diagnosis.cc).
std::string MigOfferNote(std::string_view resource, const ClusterState& cluster);

// For a pod asking for nvidia.com/mig-<profile> that no node advertises:
// "; the nodes offer nvidia.com/mig-3g.20gb (2 on a100-1: A100 40GB); 3g.40gb
// is a MIG profile of the H100 80GB GPUs of h100-1 (2 per GPU): `kubectl label
// node h100-1 nvidia.com/mig.config=all-3g.40gb --overwrite` ...; the A100
// 40GB GPUs of a100-1 have no 3g.40gb profile (their 3-slice profile is
// 3g.20gb)", or that no GPU of the cluster has the profile; "" for any other
// resource (sched/diagnosis/mig_diagnosis.cc).
std::string MigProfileNote(std::string_view resource, const ClusterState& cluster);

// For a pod asking for nvidia.com/gpu that no node advertises, on a cluster
// whose GPUs are published through DRA (ResourceSlices with the NVIDIA
// driver's gpu or mig devices): "; the cluster's GPUs are published through
// DRA instead (12 GPUs, 9 MIG devices in ResourceSlices), which kube-scheduler
// v1.35 does not count as nvidia.com/gpu: ask for one through a ResourceClaim
// ..." and, when a DeviceClass names nvidia.com/gpu as its
// extendedResourceName, that this needs the DRAExtendedResource gate; ""
// otherwise (sched/diagnosis/dra_gpu_note.cc).
std::string DraGpuNote(std::string_view resource, const ClusterState& cluster);

// For a pod waiting for `request` of `resource` (nvidia.com/gpu or
// nvidia.com/gpu.shared) on `nodes`: when those nodes share their GPUs as
// time-sliced or MPS replicas (GPU feature discovery's nvidia.com/gpu.replicas),
// "; these GPUs are shared, not whole: l4-ts-1 has 4 GPUs time-sliced as 4
// replicas each, all 16 held by 15 pods, so it waits for one of those pods
// to finish", and what becomes of a request for more than one replica; ""
// otherwise (sched/diagnosis/sharing_diagnosis.cc).
std::string SharedReplicaNote(std::string_view resource, int64_t request, const ClusterState& cluster,
                              const std::vector<size_t>& nodes);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_DIAGNOSIS_DIAGNOSIS_H_
