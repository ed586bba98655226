#include "gpusched/model/pdb.h"

#include <algorithm>
#include <set>

#include "gpusched/util/ascii.h"

namespace gpusched {
namespace {

std::string NameKey(const std::string& kind, const std::string& group, const std::string& ns, const std::string& name) {
  return kind + '\0' + group + '\0' + ns + '\0' + name;
}

std::string IntOrPercentText(const IntOrPercent& v) { return std::to_string(v.value) + (v.percent ? "%" : ""); }

// ValidatePositiveIntOrPercent and IsNotMoreThan100Percent
// (pkg/apis/apps/validation) for a value that decoded.
void ValidateIntOrPercent(const IntOrPercent& v, const std::string& path, std::vector<FieldError>& errs) {
  if (!v.percent) {
    if (v.value < 0)
      errs.push_back(FieldError{FieldError::Type::kInvalid, path, std::to_string(v.value),
                                "must be greater than or equal to 0"});
    return;
  }
  if (v.value > 100) errs.push_back(FieldError::Invalid(path, IntOrPercentText(v), "must not be greater than 100%"));
}

int32_t Clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}

}  // namespace

std::vector<FieldError> ValidatePdb(const PodDisruptionBudget& pdb, std::vector<FieldError> decoded) {
  std::vector<FieldError> errs;
  if (pdb.meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(pdb.meta.name))
      errs.push_back(FieldError::Invalid("metadata.name", pdb.meta.name, m));
  }
  if (pdb.min_available && pdb.max_unavailable) {
    // Upstream renders the whole spec with %#v (pointer addresses included).
    errs.push_back(FieldError{FieldError::Type::kInvalid, "spec", "policy.PodDisruptionBudgetSpec{...}",
                              "minAvailable and maxUnavailable cannot be both set"});
  }
  auto decoded_at = [&](const std::string& path) {
    for (FieldError& e : decoded)
      if (e.field == path) errs.push_back(std::move(e));
  };
  decoded_at("spec.minAvailable");
  if (pdb.min_available) ValidateIntOrPercent(*pdb.min_available, "spec.minAvailable", errs);
  decoded_at("spec.maxUnavailable");
  if (pdb.max_unavailable) ValidateIntOrPercent(*pdb.max_unavailable, "spec.maxUnavailable", errs);
  if (pdb.selector) ValidateLabelSelector(*pdb.selector, "spec.selector", errs);
  const std::string& policy = pdb.unhealthy_pod_eviction_policy;
  if (!policy.empty() && policy != "IfHealthyBudget" && policy != "AlwaysAllow")
    errs.push_back(
        FieldError::NotSupported("spec.unhealthyPodEvictionPolicy", policy, {"AlwaysAllow", "IfHealthyBudget"}));
  return errs;
}

bool PdbSelects(const PodDisruptionBudget& pdb, const Pod& pod) {
  if (!pdb.selector || pod.ns() != pdb.meta.namespace_) return false;
  return SelectorMatches(*pdb.selector, pod.meta.labels);
}

void ControllerScales::Add(ScaleTarget t) {
  const size_t i = targets_.size();
  if (!t.uid.empty()) by_uid_.emplace(t.uid, i);
  by_name_.emplace(NameKey(t.kind, ApiGroup(t.api_version), t.ns, t.name), i);
  targets_.push_back(std::move(t));
}

const ScaleTarget* ControllerScales::Find(const OwnerReference& ref, const std::string& ns) const {
  const std::string group = ApiGroup(ref.api_version);
  auto by_name = by_name_.find(NameKey(ref.kind, group, ns, ref.name));
  if (!ref.uid.empty()) {
    if (auto it = by_uid_.find(ref.uid); it != by_uid_.end()) {
      const ScaleTarget& t = targets_[it->second];
      if (t.kind == ref.kind && ApiGroup(t.api_version) == group && t.ns == ns) return &t;
    }
    // An input stripped of uids: the name decides.
    if (by_name != by_name_.end() && targets_[by_name->second].uid.empty()) return &targets_[by_name->second];
    return nullptr;
  }
  return by_name == by_name_.end() ? nullptr : &targets_[by_name->second];
}

std::string ScaleResourceName(const std::string& kind, const std::string& api_version) {
  // Kinds pluralise by lower-casing and adding "s" (every kind that owns
  // pods does: jobs, daemonsets, cronjobs, pytorchjobs, leaderworkersets).
  const std::string r = AsciiLower(kind) + 's';
  const std::string group = ApiGroup(api_version);
  return group.empty() ? r : r + "." + group;
}

PdbStatus ComputePdbStatus(const PodDisruptionBudget& pdb, const std::vector<PdbPod>& pods,
                           const ControllerScales& scales) {
  PdbStatus st;
  // getExpectedScale: each controller's scale, once (keyed as upstream by
  // the controller's uid; by name when the input has no uids).
  auto expected_scale = [&](int64_t& expected) -> bool {
    std::set<std::string> seen;
    expected = 0;
    for (const PdbPod& pp : pods) {
      const Pod& pod = *pp.pod;
      if (!pod.controller_ref) {
        st.unmanaged_pods.push_back(pod.name());
        continue;
      }
      const ScaleTarget* t = scales.Find(*pod.controller_ref, pod.ns());
      // getPodDeployment: a ReplicaSet's Deployment in the input gives the scale.
      if (t && t->kind == "ReplicaSet" && t->controller_ref && t->controller_ref->kind == "Deployment")
        if (const ScaleTarget* d = scales.Find(*t->controller_ref, pod.ns())) t = d;
      if (!t) {
        st.error = "found no controllers for pod \"" + pod.name() + "\"";
        return false;
      }
      if (!t->scale) {
        st.error = ScaleResourceName(t->kind, t->api_version) + " does not implement the scale subresource";
        return false;
      }
      const std::string key = t->uid.empty() ? NameKey(t->kind, ApiGroup(t->api_version), t->ns, t->name) : t->uid;
      if (seen.insert(key).second) expected += *t->scale;
    }
    return true;
  };
  int64_t expected = 0, desired = 0;
  if (pdb.max_unavailable) {
    if (!expected_scale(expected)) return st;
    desired = std::max<int64_t>(0, expected - ScaledValue(*pdb.max_unavailable, expected, true));
  } else if (pdb.min_available) {
    if (!pdb.min_available->percent) {
      desired = pdb.min_available->value;
      expected = static_cast<int64_t>(pods.size());
    } else {
      if (!expected_scale(expected)) return st;
      desired = ScaledValue(*pdb.min_available, expected, true);
    }
  }
  int64_t healthy = 0;
  for (const PdbPod& pp : pods)
    if (pp.healthy) ++healthy;
  st.expected_pods = Clamp32(expected);
  st.desired_healthy = Clamp32(desired);
  st.current_healthy = Clamp32(healthy);
  const int64_t allowed = healthy - desired;
  st.disruptions_allowed = expected <= 0 || allowed <= 0 ? 0 : Clamp32(allowed);
  return st;
}

}  // namespace gpusched
