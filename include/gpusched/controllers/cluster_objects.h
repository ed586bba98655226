// ClusterObjects: the objects of a cluster as its controllers and operators
// see them once every file is read: nodes, pods (active, and the terminated
// ones their controllers count), the workload controllers and operator
// workloads that have not made their pods yet, and the group objects read.
// io decodes files into it (io/manifest_loader.h's Manifests is one, with
// what only decoding needs); the controllers of this module read it, add the
// pods, groups and reports their Kubernetes counterparts would, and say what
// they refuse or notice in `rejected` and `warnings`, each naming the file
// and line of the object concerned.
#ifndef GPUSCHED_CONTROLLERS_CLUSTER_OBJECTS_H_
#define GPUSCHED_CONTROLLERS_CLUSTER_OBJECTS_H_

#include <string>
#include <unordered_set>
#include <vector>

#include "gpusched/model/controller.h"
#include "gpusched/model/gang.h"
#include "gpusched/model/node.h"
#include "gpusched/model/operator_workload.h"
#include "gpusched/model/pdb.h"
#include "gpusched/model/pod.h"
#include "gpusched/util/input_error.h"

namespace gpusched {

struct LoadedPod {
  Pod pod;
  std::string file;
  int line = 0;
};

struct LoadedNode {
  Node node;
  std::string file;
  int line = 0;
};

// A workload controller as read, before expansion.
struct LoadedController {
  Controller controller;
  std::string file;
  int line = 0;
};

// An operator workload as read, before expansion.
struct LoadedOperator {
  OperatorWorkload workload;
  std::string file;
  int line = 0;
};

struct ClusterObjects {
  std::vector<LoadedNode> nodes;  // in input order
  std::vector<LoadedPod> pods;    // in input order; then the pods controllers create
  std::vector<InputError> rejected;
  std::vector<std::string> warnings;  // "file:line: text"
  // "ns/name" of every pod in `pods`, to refuse a name given twice ("pods
  // \"x\" already exists") and to keep controllers off names taken.
  std::unordered_set<std::string> pod_keys;

  // --- Workload controllers (controllers/controller_expansion.h) ---
  // As read, in input order; ExpandControllers turns them into pods.
  std::vector<LoadedController> controllers;
  // Pods in phase Succeeded or Failed: they hold nothing and are not
  // scheduled, but their controllers count them (a Job's completions).
  std::vector<LoadedPod> terminal_pods;
  // The claims StatefulSets create for the pods they create
  // (volumeClaimTemplates), in creation order; io adds each whose name no
  // claim of the input has (the controller uses an existing claim as it is).
  std::vector<PersistentVolumeClaim> created_claims;
  // What expansion did, one entry per controller, in input order.
  std::vector<ControllerPods> controller_pods;
  // --- end workload controllers ---

  // --- Gangs and operator workloads (controllers/gang_inputs.h) ---
  // Operator workloads as read, in input order; ExpandWorkloads turns them
  // into pods (Kubeflow jobs, Volcano Jobs) or into the Jobs and
  // StatefulSets their operators create (JobSet, LeaderWorkerSet), and
  // empties this.
  std::vector<LoadedOperator> operators;
  // What expansion did, one entry per workload, in input order.
  std::vector<OperatorPods> operator_pods;
  // Group objects (Workload, PodGroup of every spelling) as read, in input
  // order; then the groups operators would create that the input does not
  // hold (PodGroupDecl::implied).
  std::vector<PodGroupDecl> pod_groups;
  // Every workload controller's scale, for the PDBs' expected pods.
  ControllerScales controller_scales;
  // The pods filed into gangs once loading ends (GroupGangs).
  GangSet gangs;
  // --- end gangs and operator workloads ---
};

// status.phase Succeeded or Failed: the pod holds nothing and is not
// scheduled; its controller counts it.
inline bool IsTerminated(const Pod& p) { return p.phase == "Succeeded" || p.phase == "Failed"; }

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_CLUSTER_OBJECTS_H_
