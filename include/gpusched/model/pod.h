// Pod: a core/v1 Pod reduced to what scheduling needs: containers with their
// resource requirements, where it is bound, priority, scheduler name and the
// constraints (node selector, tolerations).
#ifndef GPUSCHED_MODEL_POD_H_
#define GPUSCHED_MODEL_POD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/node_affinity.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/owner_reference.h"
#include "gpusched/model/resources.h"
#include "gpusched/model/taint.h"

namespace gpusched {

inline constexpr const char* kDefaultSchedulerName = "default-scheduler";

struct Container {
  std::string name;
  std::string image;
  ResourceList requests;
  ResourceList limits;
  // An init container with restartPolicy: Always is a sidecar (KEP-753).
  std::string restart_policy;
  bool IsRestartableInit() const { return restart_policy == "Always"; }
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
  std::string phase;  // status.phase
  // "Deployment/web" when the pod was expanded from a workload template.
  std::string owner;

  // --- Controller ownership (read by io/controller_expansion) ---
  // The metadata.ownerReferences entry with controller: true, if any.
  std::optional<OwnerReference> controller_ref;
  // --- end controller ownership ---

  const std::string& name() const { return meta.name; }
  const std::string& ns() const { return meta.namespace_; }
  int32_t Priority() const { return priority.value_or(0); }
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_H_
