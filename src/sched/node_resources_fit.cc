// NodeResourcesFit filter: port of fitsRequest in
// k8s.io/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go.
#include "gpusched/sched/filters.h"

#include <algorithm>

namespace gpusched {

// fitsRequest skips an extended resource named in ignoredResources, or whose
// prefix (the part before "/") is in ignoredResourceGroups.
bool NodeResourcesFitFilter::Ignored(std::string_view resource) const {
  if (!IsExtendedResourceName(resource)) return false;
  if (std::find(ignored_resources_.begin(), ignored_resources_.end(), resource) != ignored_resources_.end()) return true;
  size_t slash = resource.find('/');
  std::string_view group = slash == std::string_view::npos ? resource : resource.substr(0, slash);
  return std::find(ignored_groups_.begin(), ignored_groups_.end(), group) != ignored_groups_.end();
}

SchedStatus NodeResourcesFitFilter::Filter(const PodInfo& pod, const Node&, const NodeState& state) const {
  const Resources& req = pod.requests;
  const Resources& alloc = state.allocatable;
  const Resources& used = state.requested;
  std::vector<std::string> reasons;
  bool unresolvable = false;

  // "Too many pods" is always resolvable: pods can finish.
  if (state.num_pods + 1 > alloc.allowed_pods) reasons.emplace_back(kReasonTooManyPods);

  if (req.milli_cpu == 0 && req.memory == 0 && req.ephemeral_storage == 0 && req.scalars.empty()) {
    if (reasons.empty()) return SchedStatus::Success();
    return SchedStatus(SchedStatus::Code::kUnschedulable, std::move(reasons));
  }
  // Since v1.34 (PR #131345) a request larger than the node's whole
  // allocatable is Unresolvable, which keeps preemption away from the node.
  auto check = [&](int64_t r, int64_t a, int64_t u, std::string reason) {
    if (r > 0 && r > SatSub(a, u)) {
      reasons.push_back(std::move(reason));
      if (r > a) unresolvable = true;
    }
  };
  check(req.milli_cpu, alloc.milli_cpu, used.milli_cpu, "Insufficient cpu");
  check(req.memory, alloc.memory, used.memory, "Insufficient memory");
  check(req.ephemeral_storage, alloc.ephemeral_storage, used.ephemeral_storage, "Insufficient ephemeral-storage");
  // Upstream walks scalars in Go map order (random); ours are sorted by name.
  for (const auto& [name, r] : req.scalars) {
    if (r == 0 || Ignored(name)) continue;
    // A resource the node does not advertise reads as 0: the same
    // "Insufficient <name>" as an exhausted one.
    check(r, alloc.Scalar(name), used.Scalar(name), "Insufficient " + name);
  }
  if (reasons.empty()) return SchedStatus::Success();
  return SchedStatus(unresolvable ? SchedStatus::Code::kUnschedulableAndUnresolvable
                                  : SchedStatus::Code::kUnschedulable,
                     std::move(reasons));
}

}  // namespace gpusched
