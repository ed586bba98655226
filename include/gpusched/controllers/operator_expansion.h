// ExpandWorkloads: once every file is read, operator workloads and workload
// controllers create the pods they do not have yet, as their controllers
// would, with the groups their operators form. It replaces a bare
// ExpandControllers call (controllers/controller_expansion.h), which it runs in the
// middle:
//
// 1. Operator workloads (model/operator_workload.h):
//    - Kubeflow jobs create pod <job>-<role>-<index> (role lower-cased, as
//      training-operator's GenGeneralName; MPIJob's launcher is
//      <job>-launcher) for each index of each replica type that has no pod
//      yet (ReconcilePods/GetPodSlices: a pod counts for the index its
//      training.kubeflow.org/replica-index label says; a Failed pod whose
//      restartPolicy is OnFailure, ExitCode or Always is replaced under its
//      name), labelled training.kubeflow.org/{operator-name, job-name,
//      replica-type, replica-index, job-role};
//    - Volcano Jobs create <job>-<task>-<index> (helpers.MakePodName) with
//      volcano.sh/* labels and annotations and the PodGroup annotation;
//    - JobSets create, for each replicated job, Jobs
//      <jobset>-<replicatedJob>-<jobIndex> (placement.GenJobName) with
//      JobSet's labels, Indexed; their pods are then the Jobs' pods
//      (<job>-<index>-<suffix>);
//    - LeaderWorkerSets create the leader StatefulSet <lws> (one leader pod
//      <lws>-<group> per group) and, per group, the worker StatefulSet
//      <lws>-<group> (ordinals 1..size-1: pods <lws>-<group>-<worker>), as
//      the LWS controllers do; leader pods get their group-index label.
//    Pods, Jobs and StatefulSets already in the input are never created
//    again: a pod (or child) belongs to its workload by its controller
//    reference (the owner's uid, or its kind and name when the input has
//    none); an orphan pod carrying a Kubeflow job's job-name and
//    operator-name labels is adopted, as training-operator's ClaimPods does.
//    A finished or suspended workload creates nothing.
// 2. The controller scales every PodDisruptionBudget counts are recorded.
// 3. ExpandControllers expands the workload controllers (the JobSets' Jobs
//    and LWSs' StatefulSets among them).
// 4. Each workload's group is declared (ClusterObjects::pod_groups, implied):
//    the PodGroup its operator creates for the scheduler its pods name —
//    Volcano ("volcano": Kubeflow's PodGroup <job>, Volcano Job's
//    <job>-<uid>, a LeaderWorkerSet's <lws>-<group>-<revision> per group),
//    KAI ("kai-scheduler": the pod-grouper's pg-<owner>-<uid>, per group for
//    LWS), scheduler-plugins (any other scheduler name: Kubeflow's PodGroup
//    <job>) — with its minimum (Kubeflow runPolicy.schedulingPolicy
//    .minAvailable or all replicas; Volcano spec.minAvailable; a JobSet all
//    its pods; a LWS group its size, 1 with startupPolicy LeaderReady under
//    Volcano); the pods gpusched creates carry the link. Under
//    default-scheduler the operator creates no PodGroup and the group is
//    kOperator: its pods, by ownership, flagged by the diagnosis only.
//    A group object of the same API and name in the input replaces it
//    (controllers/gang_inputs.h).
#ifndef GPUSCHED_CONTROLLERS_OPERATOR_EXPANSION_H_
#define GPUSCHED_CONTROLLERS_OPERATOR_EXPANSION_H_

#include "gpusched/controllers/cluster_objects.h"

namespace gpusched {

// Reads and empties m.operators and m.controllers; appends pods to m.pods,
// reports to m.operator_pods and m.controller_pods, groups to
// m.pod_groups, scales to m.controller_scales.
void ExpandWorkloads(ClusterObjects& m);

// The default schedulers' names operators decorate pods with.
inline constexpr const char* kVolcanoSchedulerName = "volcano";
inline constexpr const char* kKaiSchedulerName = "kai-scheduler";

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_OPERATOR_EXPANSION_H_
