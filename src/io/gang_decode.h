// Loading the objects gangs and preemption read, called by LoadObject for
// their apiVersion and kind:
//  - Workload scheduling.k8s.io/v1alpha1 (v1.35: spec.podGroups[].policy
//    basic | gang{minCount}) and v1alpha2 (v1.36: spec.podGroupTemplates),
//    PodGroup scheduling.k8s.io/v1alpha2 (spec.schedulingPolicy): built-in
//    types, decoded strictly against k8s.io/api (v0.35.0, v0.36.0) and
//    validated as pkg/apis/scheduling/validation does;
//  - PodGroup of scheduler-plugins (scheduling.x-k8s.io/v1alpha1), Volcano
//    (scheduling.volcano.sh/v1beta1) and KAI (scheduling.run.ai/v2alpha2):
//    custom resources, checked against their CRDs (crd_schema.h);
//  - PodDisruptionBudget policy/v1, validated as
//    pkg/apis/policy/validation does;
//  - the operator workloads of model/operator_workload.h (operator_decode.h).
// Valid objects land in Manifests (its gangs and operator workloads); invalid ones are
// rejected with the API server's message; a name given twice is refused
// ("podgroups.scheduling.volcano.sh \"x\" already exists"). Private to src/io.
#ifndef GPUSCHED_IO_GANG_DECODE_H_
#define GPUSCHED_IO_GANG_DECODE_H_

#include <string>

#include "gpusched/io/document.h"
#include "object_loader.h"

namespace gpusched {

// True when `kind` of `api_version` is one of the above (the object is then
// loaded or rejected); false for any other kind.
bool LoadGangObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version);

// The resource name the API server gives in "already exists" messages
// ("podgroups.scheduling.volcano.sh").
std::string GangResourceName(const std::string& kind, const std::string& api_version);

}  // namespace gpusched

#endif  // GPUSCHED_IO_GANG_DECODE_H_
