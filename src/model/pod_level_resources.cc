#include "gpusched/model/pod_level_resources.h"

#include <algorithm>
#include <memory>

#include "gpusched/model/resource_validation.h"

namespace gpusched {
namespace {

// addResourceList: the first quantity is copied, later ones added to it.
void AddList(ResourceList& to, const ResourceList& from) {
  for (const auto& [name, q] : from) {
    auto [it, inserted] = to.emplace(name, q);
    if (!inserted) it->second.Add(q);
  }
}

// maxResourceList: every resource of `from` that is larger (or missing) wins.
void MaxList(ResourceList& to, const ResourceList& from) {
  for (const auto& [name, q] : from) {
    auto it = to.find(name);
    if (it == to.end()) {
      to.emplace(name, q);
    } else if (q > it->second) {
      it->second = q;
    }
  }
}

// The sidecar formula of helpers.go over one side of the containers'
// resource requirements.
ResourceList Aggregate(const Pod& pod, const ResourceList Container::*side) {
  ResourceList reqs;
  for (const Container& c : pod.containers) AddList(reqs, c.*side);
  ResourceList restartable, init;
  for (const Container& c : pod.init_containers) {
    ResourceList use;
    if (c.IsRestartableInit()) {
      AddList(reqs, c.*side);
      AddList(restartable, c.*side);
      use = restartable;
    } else {
      AddList(use, c.*side);
      AddList(use, restartable);
    }
    MaxList(init, use);
  }
  MaxList(reqs, init);
  return reqs;
}

// validatePodResourceName: validateResourceName, then a supported pod-level
// resource (NotSupported lists sets.List(SupportedPodLevelResources())).
void ValidatePodResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  const size_t before = errs.size();
  ValidateResourceName(name, path, errs);
  if (errs.size() != before) return;
  if (!IsSupportedPodLevelResource(name)) {
    // A core.ResourceName, rendered as JSON.
    errs.push_back(FieldError::NotSupportedJson(path, name, {"cpu", "hugepages-", "memory"}));
  }
}

}  // namespace

bool IsSupportedPodLevelResource(std::string_view name) {
  return name == kResourceCPU || name == kResourceMemory || IsHugePageResourceName(name);
}

bool IsPodLevelRequestsSet(const Pod& pod) {
  const auto& r = pod.Extras().resources;
  if (!r) return false;
  return std::any_of(r->requests.begin(), r->requests.end(),
                     [](const auto& kv) { return IsSupportedPodLevelResource(kv.first); });
}

ResourceList AggregateContainerRequests(const Pod& pod) { return Aggregate(pod, &Container::requests); }

ResourceList AggregateContainerLimits(const Pod& pod) { return Aggregate(pod, &Container::limits); }

void DefaultPodLevelResources(Pod& pod) {
  if (!pod.extras || !pod.extras->resources) return;
  PodLevelResources res = *pod.extras->resources;
  if (res.limits.empty() && res.requests.empty()) return;
  // defaultHugePagePodLimits: a hugepage the containers limit, with neither a
  // pod request nor a pod limit for it, gets the aggregate as pod limit.
  for (const auto& [name, q] : AggregateContainerLimits(pod)) {
    if (!IsSupportedPodLevelResource(name) || !IsHugePageResourceName(name)) continue;
    if (res.requests.count(name)) continue;
    res.limits.emplace(name, q);
  }
  // defaultPodRequests: only when pod-level limits are set.
  if (!res.limits.empty()) {
    for (const auto& [name, q] : AggregateContainerRequests(pod))
      if (!res.requests.count(name) && IsSupportedPodLevelResource(name) && IsOvercommitAllowed(name))
        res.requests.emplace(name, q);
    for (const auto& [name, q] : res.limits)
      if (!res.requests.count(name) && IsSupportedPodLevelResource(name)) res.requests.emplace(name, q);
  }
  if (res.limits == pod.extras->resources->limits && res.requests == pod.extras->resources->requests) return;
  // The extras may be shared with other copies: change a copy.
  auto extras = std::make_shared<PodSpecExtras>(*pod.extras);
  extras->resources = std::move(res);
  pod.extras = std::move(extras);
}

void ValidatePodLevelResources(const Pod& pod, const std::string& path, std::vector<FieldError>& errs) {
  const auto& res = pod.Extras().resources;
  if (!res) return;
  if (res->has_claims)
    errs.push_back(FieldError::Forbidden(path + ".claims", "claims cannot be set for Resources at pod-level"));
  ValidateResourceRequirementsWith(res->limits, res->requests, path, ValidatePodResourceName, errs);
  // validatePodResourceConsistency. Only resources the pod sets at pod level
  // are compared: a container's nvidia.com/gpu has no pod-level counterpart.
  for (const auto& [name, aggregate] : AggregateContainerRequests(pod)) {
    auto it = res->requests.find(name);
    if (it == res->requests.end() || !(aggregate > it->second)) continue;
    errs.push_back(
        FieldError::Invalid(path + ".requests[" + name + "]", it->second.String(),
                            "must be greater than or equal to aggregate container requests of " + aggregate.String()));
  }
  for (size_t i = 0; i < pod.containers.size(); ++i) {
    for (const auto& [name, limit] : pod.containers[i].limits) {
      auto it = res->limits.find(name);
      if (it == res->limits.end() || !(limit > it->second)) continue;
      // Upstream builds this path from the pod-level one:
      // spec.resources.containers[i][name].limits.
      errs.push_back(FieldError::Invalid(path + ".containers[" + std::to_string(i) + "][" + name + "].limits",
                                         limit.String(),
                                         "must be less than or equal to pod limits of " + it->second.String()));
    }
  }
}

}  // namespace gpusched
