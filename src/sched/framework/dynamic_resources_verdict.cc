#include "gpusched/sched/framework/dynamic_resources_verdict.h"

#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {
namespace {

// The claim a pod entry resolves to (resourceclaim.Name), "" when none is
// needed, or nullopt with the PreEnqueue error.
struct ClaimLookup {
  const ResourceClaimSpec* claim = nullptr;  // the spec of the claim or template found
  std::string claim_name;                    // "" for a template's
  std::string error;                 // PreEnqueue's message when not found
  std::string why;                   // gpusched's words for it
};

ClaimLookup Lookup(const Pod& pod, const PodResourceClaim& c, const DraObjects& dra) {
  ClaimLookup out;
  const std::string ns = pod.ns() + "/";
  auto find_claim = [&](const std::string& name, const std::string& what) {
    auto it = dra.claims.find(ns + name);
    if (it != dra.claims.end()) {
      out.claim = &it->second.spec;
      out.claim_name = it->second.meta.name;
      return;
    }
    out.error = "could not find ResourceClaim \"" + ns + name + "\"";
    out.why =
        "its resource claim \"" + c.name + "\" " + what + " ResourceClaim \"" + name + "\", which is not in the input";
  };
  if (!c.resource_claim_name.empty()) {
    find_claim(c.resource_claim_name, "names");
    return out;
  }
  if (c.generated_known) {
    // status.resourceClaimStatuses: the claim the controller made, or none
    // needed (resourceClaimName unset), which the plugin skips.
    if (!c.generated.empty()) find_claim(c.generated, "was given (status.resourceClaimStatuses)");
    return out;
  }
  // The resourceclaim controller creates the claim from the template; with
  // the template missing it cannot, and the pod's status never names one.
  auto it = dra.templates.find(ns + c.resource_claim_template_name);
  if (it != dra.templates.end()) {
    out.claim = &it->second.spec;
    return out;
  }
  out.error = "pod \"" + ns + pod.name() + "\": ResourceClaim not created yet";
  out.why = "its resource claim \"" + c.name + "\" comes from ResourceClaimTemplate \"" +
            c.resource_claim_template_name +
            "\", which is not in the input, so the resourceclaim controller cannot create the claim";
  return out;
}

}  // namespace

std::optional<DraVerdict> EvaluateDynamicResources(const PodInfo& pod, const DraObjects* dra,
                                                   const ClusterState& cluster, const Scheduler& scheduler) {
  const Pod& p = *pod.pod;
  if (!p.HasResourceClaims()) return std::nullopt;
  static const DraObjects kNone;
  const DraObjects& objects = dra ? *dra : kNone;
  DraVerdict v;
  // PreEnqueue: every claim must exist.
  std::vector<std::pair<const ResourceClaimSpec*, std::string>> specs;
  for (const PodResourceClaim& c : p.Extras().resource_claims) {
    ClaimLookup l = Lookup(p, c, objects);
    if (!l.error.empty()) {
      v.message = l.error;
      v.diagnosis.kind = Diagnosis::Kind::kDraClaimMissing;
      v.diagnosis.forever = true;
      v.diagnosis.text = "not attempted: " + l.why +
                         "; kube-scheduler's DynamicResources plugin keeps the pod out of "
                         "its queue until the claim exists (add it to the input)";
      return v;
    }
    if (l.claim) specs.emplace_back(l.claim, l.claim_name);
  }
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  // PreFilter: the device classes of the claims' requests must exist.
  // (dynamicresources.go PreFilter, validateDeviceClass: a subrequest is
  // named "<request>/<subrequest>").
  for (const auto& [spec, claim_name] : specs) {
    for (const DeviceRequest& r : spec->requests) {
      std::vector<std::pair<std::string, std::string>> classes;  // request name, class
      if (r.exactly) classes.emplace_back(r.name, r.exactly->device_class_name);
      for (const ExactDeviceRequest& sub : r.first_available)
        classes.emplace_back(r.name + "/" + sub.name, sub.device_class_name);
      for (const auto& [req, cls] : classes) {
        if (objects.device_classes.count(cls) || !err.pre_filter_message.empty()) continue;
        err.pre_filter_message = "request " + req + ": device class " + cls + " does not exist";
        v.diagnosis.kind = Diagnosis::Kind::kDraClaimMissing;
        v.diagnosis.forever = true;
        v.diagnosis.text = "can never fit: request \"" + req + "\" of " +
                           (claim_name.empty() ? std::string("its claim") : "\"" + claim_name + "\"") +
                           " asks for DeviceClass \"" + cls +
                           "\", which is not in the input (DeviceClasses are set up by the cluster admin or the "
                           "DRA driver's Helm chart)";
      }
    }
  }
  std::vector<SchedStatus::Code> codes(cluster.size(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  DynamicResources dra_filter;
  if (err.pre_filter_message.empty()) {
    // Filter: the profile's chain, then DynamicResources on the nodes that pass.
    ReasonTally tally;
    FilterVerdict why;
    for (size_t i = 0; i < cluster.size(); ++i) {
      if (!cluster.present(i)) continue;
      if (!CheckFilters(scheduler.filters(), pod, cluster.node(i), cluster.state(i), why))
        dra_filter.Check(pod, cluster.node(i), cluster.state(i), &why);
      tally.Add(why);
      codes[i] = why.code;
    }
    tally.AddTo(err);
    v.diagnosis.kind = Diagnosis::Kind::kDraNotModelled;
    v.diagnosis.forever = true;
    const size_t n = p.Extras().resource_claims.size();
    const size_t slices = objects.slices.size();
    v.diagnosis.text =
        "not placed: it asks for devices through DRA (" + std::to_string(n) +
        (n == 1 ? " resource claim" : " resource claims") +
        ") and gpusched does not model DRA device allocation yet, " +
        (slices == 0 ? std::string("but the input has no ResourceSlices, so no device could satisfy it and "
                                   "kube-scheduler would not place it either")
                     : "so it cannot tell whether the input's " + std::to_string(slices) +
                           (slices == 1 ? " ResourceSlice" : " ResourceSlices") +
                           " could satisfy it (kube-scheduler might place the pod)") +
        "; it is never scheduled as if it needed no GPU";
  }
  if (scheduler.preemption())
    err.post_filter_message = EvaluatePreemption(pod, cluster, scheduler.filters(), codes, &dra_filter).message;
  v.message = err.Error();
  return v;
}

}  // namespace gpusched
