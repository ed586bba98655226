// ExpandControllers: once every file is read, each workload controller in
// the input creates the pods it does not have yet, as its Kubernetes
// controller would; the pods it already has (controllers/controller_ownership.h) are
// never counted twice.
//
// - ReplicaSet: spec.replicas minus its active pods (not Succeeded/Failed).
//   A ReplicaSet that belongs to a Deployment in the input is not expanded on
//   its own: its Deployment decides its size.
// - Deployment: its new ReplicaSet is the one whose template is the
//   Deployment's, pod-template-hash aside (oldest first, as FindNewReplicaSet;
//   among equal ones the one whose deployment.kubernetes.io/revision is the
//   Deployment's); one sync of the Deployment controller
//   (controllers/deployment_sync.h) sizes every ReplicaSet (and creates the new one if
//   none is in the input); then each makes up the pods it lacks. Pods whose
//   ReplicaSet is not in the input count for the new ReplicaSet.
// - StatefulSet: ordinals start..start+replicas-1, named <set>-<ordinal>; an
//   ordinal whose pod is present and active is not created again.
// - Job: as manageJob: want min(completions - succeeded, parallelism) active
//   (parallelism, or the active ones once one succeeded, for a work queue),
//   minus the active pods; succeeded = max(status.succeeded, Succeeded pods
//   present). Indexed Jobs create their lowest pending indexes. A finished or
//   suspended Job creates none.
// - DaemonSet: one pod per node where the DaemonSet controller's
//   NodeShouldRunDaemonPod holds (template nodeName, nodeSelector and required
//   node affinity, NoSchedule/NoExecute taints with the default daemon
//   tolerations), minus the nodes that already run one of its pods; the pod
//   gets those tolerations and a required `matchFields metadata.name` term.
// - CronJob: no pod; a warning names it.
//
// Created pods go after the pods given, controller by controller in input
// order. A controller whose kind, namespace and name repeat an earlier one is
// rejected as the API server would ("deployments.apps \"web\" already
// exists").
#ifndef GPUSCHED_CONTROLLERS_CONTROLLER_EXPANSION_H_
#define GPUSCHED_CONTROLLERS_CONTROLLER_EXPANSION_H_

#include <string>

#include "gpusched/controllers/cluster_objects.h"

namespace gpusched {

// Reads m.controllers, m.pods, m.terminal_pods and m.nodes; appends the
// created pods to m.pods (their keys to m.pod_keys), one entry per
// controller to m.controller_pods, and warnings and rejections. Empties
// m.controllers: each controller is expanded once.
void ExpandControllers(ClusterObjects& m);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_CONTROLLER_EXPANSION_H_
