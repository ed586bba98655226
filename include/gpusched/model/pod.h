// Pod: a core/v1 Pod reduced to what scheduling needs: containers with their
// resource requirements, where it is bound, priority, scheduler name and the
// constraints (node selector, tolerations).
#ifndef GPUSCHED_MODEL_POD_H_
#define GPUSCHED_MODEL_POD_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/container_port.h"
#include "gpusched/model/node_affinity.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/owner_reference.h"
#include "gpusched/model/pod_affinity.h"
#include "gpusched/model/pod_volume.h"
#include "gpusched/model/resources.h"
#include "gpusched/model/taint.h"
#include "gpusched/model/topology_spread.h"

namespace gpusched {

inline constexpr const char* kDefaultSchedulerName = "default-scheduler";

// resources.claims[] of a container: a pod claim (and optionally one of its
// requests) the container uses (core/v1 ResourceClaim).
struct ContainerClaim {
  std::string name;
  std::string request;
};

struct Container {
  std::string name;
  std::string image;
  ResourceList requests;
  ResourceList limits;
  // An init container with restartPolicy: Always is a sidecar (KEP-753).
  std::string restart_policy;
  std::vector<ContainerClaim> claims;  // resources.claims
  bool IsRestartableInit() const { return restart_policy == "Always"; }
};

// spec.resources: pod-level resources (PodLevelResources, beta and on since
// v1.34). `claims` is kept only to be refused as the API server does.
struct PodLevelResources {
  ResourceList requests;
  ResourceList limits;
  bool has_claims = false;
};

// spec.resourceClaims[] (core/v1 PodResourceClaim, v1.31+ shape): exactly one
// of the claim's name or a template's should be set ("" = unset).
// `generated` is the claim name status.resourceClaimStatuses gives for this
// entry (the resourceclaim controller's claim from a template), when the pod
// was dumped from a live cluster; `generated_known` says whether the status
// had an entry for it at all.
struct PodResourceClaim {
  std::string name;
  std::string resource_claim_name;
  std::string resource_claim_template_name;
  std::string generated;
  bool generated_known = false;
};

// spec.workloadRef (core/v1 WorkloadReference, v1.35 alpha GenericWorkload):
// the Workload (scheduling.k8s.io/v1alpha1) and the pod group in it the pod
// belongs to; pods with different podGroupReplicaKeys form separate gangs.
struct WorkloadReference {
  std::string name;
  std::string pod_group;
  std::string pod_group_replica_key;
};

// What a pod spec rarely has: shared between copies of a pod (workload
// replicas) and never changed once loaded, so that a million-pod trace pays
// one pointer per pod for them.
struct PodSpecExtras {
  std::vector<std::string> scheduling_gates;  // spec.schedulingGates[].name
  std::optional<PodLevelResources> resources;  // spec.resources
  std::vector<PodResourceClaim> resource_claims;  // spec.resourceClaims
  // Read by gangs and preemption (model/gang.h, model/eviction.h).
  std::optional<int64_t> termination_grace_period_seconds;  // spec.terminationGracePeriodSeconds
  std::optional<WorkloadReference> workload_ref;            // spec.workloadRef (v1.35)
  std::string scheduling_group;  // spec.schedulingGroup.podGroupName (v1.36), "" when absent
  // --- NodePorts (host_ports.h) ---
  // containers[i].ports and initContainers[i].ports, indexed as the
  // containers; both empty unless some container has a port.
  std::vector<std::vector<ContainerPort>> container_ports;
  std::vector<std::vector<ContainerPort>> init_container_ports;
  bool has_ports = false;     // some container has a port
  bool host_network = false;  // spec.hostNetwork
  // --- end NodePorts ---
  // --- ImageLocality ---
  std::vector<std::string> image_volumes;  // spec.volumes[].image.reference
  // --- end ImageLocality ---
  // spec.volumes the volume plugins read (pod_volume.h).
  std::vector<PodVolume> volumes;
  // spec.topologySpreadConstraints (PodTopologySpread), matchLabelKeys merged.
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
    bool empty() const {
    return scheduling_gates.empty() && !resources && resource_claims.empty() && !termination_grace_period_seconds &&
           !workload_ref && scheduling_group.empty()
           && !has_ports && !host_network  // NodePorts
           && image_volumes.empty()  // ImageLocality
           && volumes.empty()  // volume plugins
           && topology_spread_constraints.empty()  // PodTopologySpread
        ;
  }
};

struct Pod {
  ObjectMeta meta;
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  ResourceList overhead;
  std::string node_name;  // spec.nodeName: already bound
  std::optional<int32_t> priority;
  std::string priority_class_name;
  std::string preemption_policy;
  std::string scheduler_name = kDefaultSchedulerName;
  std::map<std::string, std::string, std::less<>> node_selector;
  std::vector<Toleration> tolerations;
  std::optional<NodeAffinity> node_affinity;  // spec.affinity.nodeAffinity
  // spec.affinity.podAffinity and podAntiAffinity (InterPodAffinity); null
  // when the spec has neither, shared between copies of a pod.
  std::shared_ptr<const PodAffinitySpec> pod_affinity;
  std::string phase;  // status.phase
  // --- What a dump says of the pod's life (read by DefaultPreemption) ---
  // status.startTime in nanoseconds since the Unix epoch; none while the pod
  // has not started (upstream's GetPodStartTime then takes "now").
  std::optional<int64_t> start_time_ns;
  bool deleting = false;  // metadata.deletionTimestamp is set
  // The pod's first DisruptionTarget condition is True with reason
  // PreemptionByScheduler (the scheduler preempted it).
  bool disrupted_by_scheduler = false;
  std::string nominated_node_name;  // status.nominatedNodeName
  // podTerminatingByPreemption (defaultpreemption): being deleted because
  // the scheduler preempted it.
  bool TerminatingByPreemption() const { return deleting && disrupted_by_scheduler; }
  // "Deployment/web" when the pod was expanded from a workload template.
  std::string owner;

  // --- Controller ownership (read by controllers/controller_expansion) ---
  // The metadata.ownerReferences entry with controller: true, if any.
  std::optional<OwnerReference> controller_ref;
  // --- end controller ownership ---
  // Scheduling gates, pod-level resources, DRA claims, gang fields: null
  // when the spec has none of them (the common case).
  std::shared_ptr<const PodSpecExtras> extras;
  const PodSpecExtras& Extras() const {
    static const PodSpecExtras kNone;
    return extras ? *extras : kNone;
  }
  bool IsSchedulingGated() const { return extras && !extras->scheduling_gates.empty(); }
  bool HasResourceClaims() const { return extras && !extras->resource_claims.empty(); }
  bool HasVolumes() const { return extras && !extras->volumes.empty(); }

  const std::string& name() const { return meta.name; }
  const std::string& ns() const { return meta.namespace_; }
  int32_t Priority() const { return priority.value_or(0); }
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_H_
