#include "gpusched/model/operator_workload.h"

#include <algorithm>

namespace gpusched {
namespace {

struct KindInfo {
  OperatorKind kind;
  const char* name;
  const char* api_version;
};
constexpr KindInfo kKinds[] = {
    {OperatorKind::kPyTorchJob, "PyTorchJob", "kubeflow.org/v1"},
    {OperatorKind::kTFJob, "TFJob", "kubeflow.org/v1"},
    {OperatorKind::kMPIJob, "MPIJob", "kubeflow.org/v1"},
    {OperatorKind::kXGBoostJob, "XGBoostJob", "kubeflow.org/v1"},
    {OperatorKind::kPaddleJob, "PaddleJob", "kubeflow.org/v1"},
    {OperatorKind::kJAXJob, "JAXJob", "kubeflow.org/v1"},
    {OperatorKind::kVolcanoJob, "Job", "batch.volcano.sh/v1alpha1"},
    {OperatorKind::kJobSet, "JobSet", "jobset.x-k8s.io/v1alpha2"},
    {OperatorKind::kLeaderWorkerSet, "LeaderWorkerSet", "leaderworkerset.x-k8s.io/v1"},
};

}  // namespace

std::string_view OperatorKindName(OperatorKind kind) {
  for (const KindInfo& k : kKinds)
    if (k.kind == kind) return k.name;
  return "";
}

std::string_view OperatorApiVersion(OperatorKind kind) {
  for (const KindInfo& k : kKinds)
    if (k.kind == kind) return k.api_version;
  return "";
}

std::string OperatorId(OperatorKind kind, std::string_view ns, std::string_view name) {
  std::string k(OperatorKindName(kind));
  if (kind == OperatorKind::kVolcanoJob) k += ".batch.volcano.sh";
  return k + "/" + std::string(ns) + "/" + std::string(name);
}

std::optional<OperatorKind> ParseOperatorKind(std::string_view api_version, std::string_view kind) {
  for (const KindInfo& k : kKinds)
    if (kind == k.name && api_version == k.api_version) return k.kind;
  return std::nullopt;
}

bool IsKubeflowKind(OperatorKind kind) {
  return kind == OperatorKind::kPyTorchJob || kind == OperatorKind::kTFJob || kind == OperatorKind::kMPIJob ||
         kind == OperatorKind::kXGBoostJob || kind == OperatorKind::kPaddleJob || kind == OperatorKind::kJAXJob;
}

int64_t OperatorWorkload::TotalPods() const {
  int64_t total = 0;
  switch (kind) {
    case OperatorKind::kJobSet:
      for (const OperatorRole& r : roles)
        total += r.replicas * (r.job.completions ? std::min(r.job.parallelism, *r.job.completions) : r.job.parallelism);
      return total;
    case OperatorKind::kLeaderWorkerSet:
      return roles.empty() ? 0 : roles.front().replicas * group_size;
    default:
      for (const OperatorRole& r : roles) total += r.replicas;
      return total;
  }
}

}  // namespace gpusched
