// Which controller each pod (and each ReplicaSet) in the input belongs to,
// decided once every file is read, so that no pod is counted twice and the
// answer does not depend on the order of the files:
//
// 1. An object whose controller reference (ownerReferences, controller: true)
//    names the uid of a controller in the input belongs to it.
// 2. Else, when that controller's uid is absent (an input stripped of uids),
//    the reference's kind, API group and name in the object's namespace
//    decide. A pod whose ReplicaSet is not in the input but whose
//    Deployment is (the ReplicaSet is named <deployment>-<hash> and the
//    Deployment's selector matches the pod) belongs to that Deployment.
// 3. An object without a controller reference is adopted as upstream
//    controllers adopt orphans (ClaimPods, ClaimReplicaSets): by a controller
//    in its namespace whose selector matches its labels — a ReplicaSet, a
//    StatefulSet, a DaemonSet, a Job (its selector, or the generated
//    batch.kubernetes.io/controller-uid one); a pod carrying
//    pod-template-hash also by a Deployment whose selector matches it. When
//    several match, the first in the order ReplicaSet, StatefulSet, Job,
//    DaemonSet, Deployment, then namespace/name, wins (upstream: whichever
//    syncs first) and a note says so.
// A reference to an object that is not in the input leaves the pod on its
// own (it is scheduled as given).
#ifndef GPUSCHED_CONTROLLERS_CONTROLLER_OWNERSHIP_H_
#define GPUSCHED_CONTROLLERS_CONTROLLER_OWNERSHIP_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/controller.h"
#include "gpusched/model/pod.h"

namespace gpusched {

struct Ownership {
  // Per controller: for a ReplicaSet, the Deployment (index) it belongs to.
  std::vector<std::optional<size_t>> deployment_of;
  // Per pod: the controller it belongs to.
  std::vector<std::optional<size_t>> owner_of;
  // (pod index, text) for pods several controllers would adopt.
  std::vector<std::pair<size_t, std::string>> notes;
};

// `controllers` must have distinct kind/namespace/name. `indexed` false
// looks for adopters among all the controllers of a namespace instead of
// through the selector index: the plain reference the index is tested
// against (same answer, quadratic time).
Ownership ResolveOwnership(const std::vector<const Controller*>& controllers, const std::vector<const Pod*>& pods,
                           bool indexed = true);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_CONTROLLER_OWNERSHIP_H_
