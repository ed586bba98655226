// training-operator's webhooks and MPIJob controller check
// (src/controllers/kubeflow_admission.cc) on decoded jobs, without a file:
// each rule with upstream's exact text. The same rules through the loader,
// with the rejection kubectl prints, are in operator_expansion_test.cc.
#include "gpusched/controllers/kubeflow_admission.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

Container Named(const std::string& name, const std::string& image = "img") {
  Container c;
  c.name = name;
  c.image = image;
  return c;
}

OperatorRole Role(const std::string& name, int64_t replicas, std::vector<Container> containers) {
  OperatorRole r;
  r.name = name;
  r.replicas = replicas;
  r.tmpl.containers = std::move(containers);
  return r;
}

std::string Lines(const std::vector<FieldError>& errs) {
  std::string s;
  for (const FieldError& e : errs) s += e.ToString() + "\n";
  return s;
}

TEST(KubeflowAdmissionTest, CanonicalReplicaType) {
  struct Case {
    OperatorKind kind;
    std::string written;
    std::string want;
  };
  const Case cases[] = {
      {OperatorKind::kPyTorchJob, "master", "Master"},
      {OperatorKind::kPyTorchJob, "WORKER", "Worker"},
      {OperatorKind::kPyTorchJob, "Worker", "Worker"},
      {OperatorKind::kPyTorchJob, "launcher", "launcher"},  // not a PyTorchJob type: left as written
      {OperatorKind::kTFJob, "ps", "PS"},
      {OperatorKind::kTFJob, "chief", "Chief"},
      {OperatorKind::kMPIJob, "launcher", "Launcher"},
      {OperatorKind::kJAXJob, "master", "master"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(CanonicalReplicaType(KubeflowFrameworkOf(c.kind), c.written), c.want) << c.written;
}

TEST(KubeflowAdmissionTest, JobName) {
  const std::string dns1035 =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
      "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
      "is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  struct Case {
    const char* name;
    OperatorKind kind;
    std::string job;
    std::string want;
  };
  const Case cases[] = {
      {"a DNS-1035 label", OperatorKind::kPyTorchJob, "train-1", ""},
      {"starts with a digit", OperatorKind::kTFJob, "1train",
       "metadata.name: Invalid value: \"1train\": should match: " + dns1035 + "\n"},
      {"too long and a dot", OperatorKind::kPyTorchJob, std::string(60, 'a') + ".bcd",
       "metadata.name: Invalid value: \"" + std::string(60, 'a') +
           ".bcd\": should match: must be no more than 63 characters," + dns1035 + "\n"},
      {"no name: the API server's own check reports it", OperatorKind::kPyTorchJob, "", ""},
      {"the v1 MPIJob has no webhook", OperatorKind::kMPIJob, "1train", ""},
  };
  for (const Case& c : cases) {
    std::vector<FieldError> errs;
    ValidateKubeflowJobName(c.kind, c.job, errs);
    EXPECT_EQ(Lines(errs), c.want) << c.name;
  }
}

TEST(KubeflowAdmissionTest, ReplicaWebhook) {
  const std::string p = "spec.pytorchReplicaSpecs[Master]";
  struct Case {
    const char* name;
    OperatorKind kind;
    OperatorRole role;
    std::string path;
    std::string want;
  };
  const Case cases[] = {
      {"valid Master", OperatorKind::kPyTorchJob, Role("Master", 1, {Named("pytorch")}), p, ""},
      {"PyTorchJob's Master must be 1", OperatorKind::kPyTorchJob, Role("Master", 2, {Named("pytorch")}), p,
       p + ".replicas: Forbidden: must be 1\n"},
      {"other replicas at least 1", OperatorKind::kTFJob, Role("Worker", 0, {Named("tensorflow")}),
       "spec.tfReplicaSpecs[Worker]", "spec.tfReplicaSpecs[Worker].replicas: Forbidden: must be at least 1\n"},
      {"an unknown type, a container without image, none named as the default",
       OperatorKind::kXGBoostJob, Role("Launcher", 1, {Named("x", "")}), "spec.xgbReplicaSpecs[Launcher]",
       "spec.xgbReplicaSpecs[Launcher]: Unsupported value: \"Launcher\": supported values: \"Master\", \"Worker\"\n"
       "spec.xgbReplicaSpecs[Launcher].template.spec.containers[0].image: Required value: must be required\n"
       "spec.xgbReplicaSpecs[Launcher].template.spec.containers: Required value: must have at least one container "
       "with name xgboost\n"},
      {"no containers", OperatorKind::kJAXJob, Role("Worker", 1, {}), "spec.jaxReplicaSpecs[Worker]",
       "spec.jaxReplicaSpecs[Worker].template.spec.containers: Required value: must be specified\n"
       "spec.jaxReplicaSpecs[Worker].template.spec.containers: Required value: must have at least one container with "
       "name jax\n"},
  };
  for (const Case& c : cases) {
    std::vector<FieldError> errs;
    ValidateKubeflowReplica(KubeflowFrameworkOf(c.kind), c.role, c.path, errs);
    EXPECT_EQ(Lines(errs), c.want) << c.name;
  }
}

TEST(KubeflowAdmissionTest, ElasticPolicy) {
  struct Case {
    const char* name;
    ElasticPolicySpec policy;
    std::vector<OperatorRole> roles;
    std::optional<int32_t> want_min;
    std::string want_errors;
  };
  const std::vector<OperatorRole> worker4 = {Role("Master", 1, {}), Role("Worker", 4, {})};
  const Case cases[] = {
      {"minReplicas", {2, 3, false}, worker4, 2, ""},
      {"maxReplicas when minReplicas is not given", {std::nullopt, 3, false}, worker4, 3, ""},
      {"the Worker replicas when neither is given", {}, worker4, 4, ""},
      {"minReplicas beyond int32 is kept at its bound", {int64_t{1} << 40, std::nullopt, false}, worker4, INT32_MAX,
       ""},
      {"no Worker, nProcPerNode twice", {std::nullopt, std::nullopt, true}, {Role("Master", 1, {})}, std::nullopt,
       "spec.pytorchReplicaSpecs[Worker]: Required value: must be configured if elastic policy is used\n"
       "spec.elasticPolicy.nProcPerNode: Forbidden: must not be used with spec.nprocPerNode\n"},
  };
  for (const Case& c : cases) {
    OperatorWorkload w;
    w.roles = c.roles;
    std::vector<FieldError> errs;
    AdmitElasticPolicy(c.policy, w, errs);
    EXPECT_EQ(w.elastic_min_replicas, c.want_min) << c.name;
    EXPECT_EQ(Lines(errs), c.want_errors) << c.name;
  }
}

TEST(KubeflowAdmissionTest, CreationOrder) {
  std::vector<OperatorRole> roles = {Role("Worker", 1, {}), Role("Zed", 1, {}), Role("PS", 1, {}),
                                     Role("Chief", 1, {}), Role("Alpha", 1, {})};
  SortReplicaTypes(KubeflowFrameworkOf(OperatorKind::kTFJob), roles);
  std::string order;
  for (const OperatorRole& r : roles) order += r.name + " ";
  EXPECT_EQ(order, "Chief PS Worker Alpha Zed ");
}

TEST(KubeflowAdmissionTest, MpiJobController) {
  struct Case {
    const char* name;
    std::vector<OperatorRole> roles;  // in creation order
    std::string want;
  };
  const Case cases[] = {
      {"launcher and workers", {Role("Launcher", 1, {Named("l")}), Role("Worker", 2, {Named("w")})}, ""},
      {"two launchers", {Role("Launcher", 2, {Named("l")}), Role("Worker", 2, {Named("w")})},
       "MPIReplicaSpec is not valid: There must be only 1 launcher replica"},
      {"no launcher", {Role("Worker", 2, {Named("w")})},
       "MPIReplicaSpec is not valid: Master ReplicaSpec must be present"},
      {"a type as written", {Role("Worker", 2, {Named("w")}), Role("launcher", 1, {Named("l")})},
       "MPIReplicaType is launcher but must be one of [Launcher Worker]"},
      {"no containers", {Role("Launcher", 1, {})}, "MPIReplicaSpecs is not valid: containers definition expected in Launcher"},
      {"a container without image", {Role("Launcher", 1, {Named("l", "")})},
       "MPIReplicaSpec is not valid: Image is undefined in the container of Launcher"},
      {"a container without name", {Role("Launcher", 1, {Named("", "img")})},
       "MPIReplicaSpec is not valid: ImageName is undefined in the container of Launcher"},
  };
  for (const Case& c : cases) EXPECT_EQ(MpiJobRefusal(c.roles), c.want) << c.name;
}

}  // namespace
}  // namespace gpusched
