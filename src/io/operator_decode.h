// Decoding the operator workloads of model/operator_workload.h, after their
// CRD check (crd_schema.h), with the API server's checks of their metadata,
// and handing them to their operators' admission (src/controllers):
//  - Kubeflow (training-operator v1.9, pkg/apis/kubeflow.org/v1): replicas
//    defaulted to 1; its webhooks rename the replica types and validate the
//    job, and the MPIJob controller checks what no webhook does
//    (controllers/kubeflow_admission.h);
//  - Volcano Job (batch.volcano.sh/v1alpha1): its task list and lifecycle
//    policies, through the mutating and validating webhooks
//    (controllers/volcano_job_admission.h);
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
