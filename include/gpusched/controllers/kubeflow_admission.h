// What training-operator v1.9 (kubeflow/training-operator,
// pkg/apis/kubeflow.org/v1 and pkg/webhooks) does to a Kubeflow job between
// the API server and the first pod: its defaulting webhook (replica types
// renamed case-insensitively, setTypeNamesToCamelCase; replicas 1 is the
// decoder's), its validating webhook (a DNS-1035 name, known replica types,
// containers with an image and one named as the framework's default
// container, PyTorchJob's single Master, spec.elasticPolicy), the order in
// which the controller creates replica types, and the check the MPIJob
// controller makes instead of a webhook. A job a webhook denies never
// exists; one the MPIJob controller refuses exists and has no pod.
#ifndef GPUSCHED_CONTROLLERS_KUBEFLOW_ADMISSION_H_
#define GPUSCHED_CONTROLLERS_KUBEFLOW_ADMISSION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/operator_workload.h"

namespace gpusched {

// What training-operator knows of one framework.
struct KubeflowFramework {
  OperatorKind kind;
  const char* specs;               // the replica specs field ("pytorchReplicaSpecs")
  const char* container;           // the default container's name ("pytorch")
  std::vector<const char*> roles;  // the canonical replica types, in creation order
  // Webhooks registered for it: every kind but the v1 MPIJob
  // (pkg/webhooks/webhooks.go: MPIJobKind is `scaffold`), which the API
  // server admits as its CRD schema allows.
  bool webhooks;
};

// `kind` must be a Kubeflow kind (IsKubeflowKind).
const KubeflowFramework& KubeflowFrameworkOf(OperatorKind kind);

// setTypeNamesToCamelCase: `written` as the framework spells it when they
// match case-insensitively ("master" -> "Master"), else unchanged.
std::string CanonicalReplicaType(const KubeflowFramework& f, std::string_view written);

// The validating webhooks' name rule: metadata.name a DNS-1035 label
// ("should match: ..."); nothing for an empty name (the API server's own
// check reports it) or a kind without webhooks.
void ValidateKubeflowJobName(OperatorKind kind, const std::string& name, std::vector<FieldError>& errs);

// The validating webhook's checks of one replica spec, `path` naming it
// ("spec.pytorchReplicaSpecs[Master]"): a replica type the framework knows,
// containers, each with an image, one named as its default container, and
// replicas (PyTorchJob's Master exactly 1, others at least 1).
void ValidateKubeflowReplica(const KubeflowFramework& f, const OperatorRole& r, const std::string& path,
                             std::vector<FieldError>& errs);

// A PyTorchJob's spec.elasticPolicy as written.
struct ElasticPolicySpec {
  std::optional<int64_t> min_replicas;
  std::optional<int64_t> max_replicas;
  // elasticPolicy.nProcPerNode and spec.nprocPerNode both set.
  bool nproc_per_node_twice = false;
};

// SetDefaults_PyTorchJob's minimum (pytorch_defaults.go, setElasticPolicy:
// minReplicas, else maxReplicas, else the Worker replicas) into
// w.elastic_min_replicas, and what the validating webhook checks of the
// policy (pkg/webhooks/pytorch/pytorchjob_webhook.go, validateSpec) into
// `errs`. Call once w.roles are decoded.
void AdmitElasticPolicy(const ElasticPolicySpec& ep, OperatorWorkload& w, std::vector<FieldError>& errs);

// The order the controller creates replica types in: the framework's, then
// any other by name.
void SortReplicaTypes(const KubeflowFramework& f, std::vector<OperatorRole>& roles);

// What the MPIJob controller checks before creating any pod
// (pkg/apis/kubeflow.org/v1/mpi_validation.go ValidateV1MpiJobSpec, called
// by pkg/controller.v1/mpi/mpijob_controller.go Reconcile), on `roles` in
// creation order with their replica types as written (no defaulting runs
// before it). Go walks the map in random order and returns the first error;
// here the creation order decides. "" when the controller accepts the job.
std::string MpiJobRefusal(const std::vector<OperatorRole>& roles);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_KUBEFLOW_ADMISSION_H_
