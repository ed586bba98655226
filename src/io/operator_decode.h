// Decoding, defaulting and validating the operator workloads of
// model/operator_workload.h, after their CRD check (crd_schema.h):
//  - Kubeflow (training-operator v1.9, pkg/apis/kubeflow.org/v1): replica
//    types matched case-insensitively and renamed as the defaulting webhook
//    does ("master" -> "Master"), replicas defaulted to 1; the validating
//    webhook's checks (name a DNS-1035 label, known replica types, containers
//    with an image and one named as the framework's default container,
//    PyTorchJob's Master replicas 1);
//  - Volcano Job (batch.volcano.sh/v1alpha1): the mutating webhook's defaults
//    (task names "default<i>", task minAvailable = replicas, job minAvailable
//    = the sum of the tasks', queue "default", schedulerName "volcano") and
//    the validating webhook's denials (no task, a task's minAvailable above
//    its replicas, a duplicated task name, minAvailable above the total);
//  - JobSet (jobset.x-k8s.io/v1alpha2): replicated jobs with replicas
//    defaulted to 1 and their Job templates (completionMode Indexed, as
//    JobSet's webhook defaults it);
//  - LeaderWorkerSet (leaderworkerset.x-k8s.io/v1): replicas and size
//    defaulted to 1, startupPolicy LeaderCreated, restartPolicy
//    RecreateGroupOnPodRestart (the CRD's defaults).
// Every pod template is validated as ValidatePod validates a template.
// Private to src/io.
#ifndef GPUSCHED_IO_OPERATOR_DECODE_H_
#define GPUSCHED_IO_OPERATOR_DECODE_H_

#include <string>

#include "gpusched/io/document.h"
#include "gpusched/model/operator_workload.h"
#include "object_loader.h"

namespace gpusched {

// Appends the workload to src.out.operators, or rejects it.
void LoadOperator(const Source& src, const DocNode& obj, OperatorKind kind, const std::string& api_version);

}  // namespace gpusched

#endif  // GPUSCHED_IO_OPERATOR_DECODE_H_
