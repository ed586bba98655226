// NodeResourcesFit's Filter and its queueing hint: port of fitsRequest and isFit in
// k8s.io/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go.
#include "gpusched/sched/plugins/noderesources/fit.h"

#include <algorithm>

namespace gpusched {

// fitsRequest skips an extended resource named in ignoredResources, or whose
// prefix (the part before "/") is in ignoredResourceGroups. The lists are
// looked at first: the name validation behind IsExtendedResourceName is far
// dearer, and with no lists (the default) it is never needed.
bool NodeResourcesFit::Ignored(std::string_view resource) const {
  if (ignored_resources_.empty() && ignored_groups_.empty()) return false;
  const size_t slash = resource.find('/');
  const std::string_view group = slash == std::string_view::npos ? resource : resource.substr(0, slash);
  const bool listed =
      std::find(ignored_resources_.begin(), ignored_resources_.end(), resource) != ignored_resources_.end() ||
      std::find(ignored_groups_.begin(), ignored_groups_.end(), group) != ignored_groups_.end();
  return listed && IsExtendedResourceName(resource);
}

bool NodeResourcesFit::Check(const PodInfo& pod, const Node&, const NodeState& state, FilterVerdict* why) const {
  const Resources& req = pod.requests;
  const Resources& alloc = state.allocatable;
  const Resources& used = state.requested;
  bool fits = true, unresolvable = false;

  // "Too many pods" is always resolvable: pods can finish.
  if (state.num_pods + 1 > alloc.allowed_pods) {
    if (!why) return false;
    why->reasons.push_back({kReasonTooManyPods, {}});
    fits = false;
  }
  if (req.milli_cpu != 0 || req.memory != 0 || req.ephemeral_storage != 0 || !req.scalars.empty()) {
    // Since v1.34 (PR #131345) a request larger than the node's whole
    // allocatable is Unresolvable, which keeps preemption away from the node.
    auto check = [&](int64_t r, int64_t a, int64_t u, std::string_view text, std::string_view suffix) {
      if (r > 0 && r > SatSub(a, u)) {
        fits = false;
        if (why) why->reasons.push_back({text, suffix});
        if (r > a) unresolvable = true;
      }
      return fits || why;  // without `why` the first failure settles it
    };
    if (!check(req.milli_cpu, alloc.milli_cpu, used.milli_cpu, "Insufficient cpu", {}) ||
        !check(req.memory, alloc.memory, used.memory, "Insufficient memory", {}) ||
        !check(req.ephemeral_storage, alloc.ephemeral_storage, used.ephemeral_storage,
               "Insufficient ephemeral-storage", {}))
      return false;
    // Upstream walks scalars in Go map order (random); ours are sorted by name.
    for (const auto& [name, r] : req.scalars) {
      if (r == 0 || Ignored(name)) continue;
      // A resource the node does not advertise reads as 0: the same
      // "Insufficient <name>" as an exhausted one.
      if (!check(r, alloc.Scalar(name), used.Scalar(name), "Insufficient ", name)) return false;
    }
  }
  if (fits) return true;
  why->code = unresolvable ? SchedStatus::Code::kUnschedulableAndUnresolvable : SchedStatus::Code::kUnschedulable;
  return false;
}

bool NodeResourcesFit::QueueOnNodeAdded(const PodInfo& pod, const Node&, const NodeState& node) const {
  const Resources& r = pod.requests;
  const Resources& a = node.allocatable;
  if (a.allowed_pods < 1) return false;
  if (r.milli_cpu > 0 && r.milli_cpu > a.milli_cpu) return false;
  if (r.memory > 0 && r.memory > a.memory) return false;
  if (r.ephemeral_storage > 0 && r.ephemeral_storage > a.ephemeral_storage) return false;
  for (const auto& [name, v] : r.scalars)
    if (v > 0 && v > a.Scalar(name)) return false;
  return true;
}

}  // namespace gpusched
