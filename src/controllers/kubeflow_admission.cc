#include "gpusched/controllers/kubeflow_admission.h"

#include <algorithm>
#include <cctype>

#include "gpusched/util/ascii.h"
#include "gpusched/util/saturate.h"

namespace gpusched {
namespace {

// apimachinery IsDNS1035Label.
std::vector<std::string> IsDNS1035Label(std::string_view v) {
  std::vector<std::string> errs;
  if (v.size() > 63) errs.push_back("must be no more than 63 characters");
  bool ok = !v.empty() && v.front() >= 'a' && v.front() <= 'z' && (std::isalnum(static_cast<unsigned char>(v.back())) != 0);
  for (char c : v) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!ok)
    errs.push_back(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
        "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
        "is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  return errs;
}

}  // namespace

const KubeflowFramework& KubeflowFrameworkOf(OperatorKind kind) {
  static const KubeflowFramework kFrameworks[] = {
      {OperatorKind::kPyTorchJob, "pytorchReplicaSpecs", "pytorch", {"Master", "Worker"}, true},
      {OperatorKind::kTFJob, "tfReplicaSpecs", "tensorflow", {"Chief", "Master", "PS", "Worker", "Evaluator"}, true},
      {OperatorKind::kMPIJob, "mpiReplicaSpecs", "mpi", {"Launcher", "Worker"}, false},
      {OperatorKind::kXGBoostJob, "xgbReplicaSpecs", "xgboost", {"Master", "Worker"}, true},
      {OperatorKind::kPaddleJob, "paddleReplicaSpecs", "paddle", {"Master", "Worker"}, true},
      {OperatorKind::kJAXJob, "jaxReplicaSpecs", "jax", {"Worker"}, true},
  };
  for (const KubeflowFramework& f : kFrameworks)
    if (f.kind == kind) return f;
  return kFrameworks[0];
}

std::string CanonicalReplicaType(const KubeflowFramework& f, std::string_view written) {
  std::string role(written);
  for (const char* canonical : f.roles)
    if (AsciiLower(role) == AsciiLower(canonical)) role = canonical;
  return role;
}

void ValidateKubeflowJobName(OperatorKind kind, const std::string& name, std::vector<FieldError>& errs) {
  if (name.empty() || !KubeflowFrameworkOf(kind).webhooks) return;
  const std::vector<std::string> dns = IsDNS1035Label(name);
  std::string joined;
  for (size_t i = 0; i < dns.size(); ++i) joined += (i ? "," : "") + dns[i];
  if (!dns.empty()) errs.push_back(FieldError::Invalid("metadata.name", name, "should match: " + joined));
}

void ValidateKubeflowReplica(const KubeflowFramework& f, const OperatorRole& r, const std::string& path,
                             std::vector<FieldError>& errs) {
  if (std::find_if(f.roles.begin(), f.roles.end(), [&](const char* c) { return r.name == c; }) == f.roles.end()) {
    std::vector<std::string> supported(f.roles.begin(), f.roles.end());
    errs.push_back(FieldError::NotSupported(path, r.name, supported));
  }
  const std::string containers = path + ".template.spec.containers";
  if (r.tmpl.containers.empty()) errs.push_back(FieldError::Required(containers, "must be specified"));
  bool default_container = false;
  for (size_t i = 0; i < r.tmpl.containers.size(); ++i) {
    const Container& c = r.tmpl.containers[i];
    if (c.image.empty())
      errs.push_back(FieldError::Required(containers + "[" + std::to_string(i) + "].image", "must be required"));
    default_container = default_container || c.name == f.container;
  }
  if (!default_container)
    errs.push_back(
        FieldError::Required(containers, std::string("must have at least one container with name ") + f.container));
  // replicas is 1 unless given, so below 1 only when given so.
  if (f.kind == OperatorKind::kPyTorchJob && r.name == "Master" && r.replicas != 1) {
    errs.push_back(FieldError::Forbidden(path + ".replicas", "must be 1"));
  } else if (r.replicas < 1) {
    errs.push_back(FieldError::Forbidden(path + ".replicas", "must be at least 1"));
  }
}

void AdmitElasticPolicy(const ElasticPolicySpec& ep, OperatorWorkload& w, std::vector<FieldError>& errs) {
  const OperatorRole* worker = nullptr;
  for (const OperatorRole& r : w.roles)
    if (r.name == "Worker") worker = &r;
  if (worker == nullptr)
    errs.push_back(FieldError::Required("spec.pytorchReplicaSpecs[Worker]", "must be configured if elastic policy is used"));
  if (ep.nproc_per_node_twice)
    errs.push_back(FieldError::Forbidden("spec.elasticPolicy.nProcPerNode", "must not be used with spec.nprocPerNode"));
  if (ep.min_replicas) {
    w.elastic_min_replicas = SaturateInt32(*ep.min_replicas);
  } else if (ep.max_replicas) {
    w.elastic_min_replicas = SaturateInt32(*ep.max_replicas);
  } else if (worker != nullptr) {
    w.elastic_min_replicas = SaturateInt32(worker->replicas);
  }
}

void SortReplicaTypes(const KubeflowFramework& f, std::vector<OperatorRole>& roles) {
  auto rank = [&](const std::string& name) {
    for (size_t i = 0; i < f.roles.size(); ++i)
      if (name == f.roles[i]) return i;
    return f.roles.size();
  };
  std::stable_sort(roles.begin(), roles.end(), [&](const OperatorRole& a, const OperatorRole& b) {
    if (rank(a.name) != rank(b.name)) return rank(a.name) < rank(b.name);
    return a.name < b.name;
  });
}

std::string MpiJobRefusal(const std::vector<OperatorRole>& roles) {
  bool launcher = false;
  for (const OperatorRole& r : roles) {
    const std::string& type = r.name;
    if (r.tmpl.containers.empty()) return "MPIReplicaSpecs is not valid: containers definition expected in " + type;
    if (type != "Launcher" && type != "Worker")
      return "MPIReplicaType is " + type + " but must be one of [Launcher Worker]";
    for (const Container& c : r.tmpl.containers) {
      if (c.image.empty()) return "MPIReplicaSpec is not valid: Image is undefined in the container of " + type;
      if (c.name.empty()) return "MPIReplicaSpec is not valid: ImageName is undefined in the container of " + type;
    }
    if (type == "Launcher") {
      launcher = true;
      if (r.replicas != 1) return "MPIReplicaSpec is not valid: There must be only 1 launcher replica";
    }
  }
  if (!launcher) return "MPIReplicaSpec is not valid: Master ReplicaSpec must be present";
  return "";
}

}  // namespace gpusched
