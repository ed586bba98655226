// The node-choice policies gpusched knows by name (--policy), and how to make
// the ones that are not a kube-scheduler profile. "kube-default" is built by
// BuildSchedulers from the profile's score plugins; every other name is a
// "simple" policy made here.
#ifndef GPUSCHED_SCHED_POLICIES_POLICY_REGISTRY_H_
#define GPUSCHED_SCHED_POLICIES_POLICY_REGISTRY_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/dra_features.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy.h"

namespace gpusched {

struct PolicyOptions {
  // FGD's target workload. The caller owns it; the policy copies it.
  const TypicalPods* typical = nullptr;
  // The DRA feature gates every profile's DynamicResources runs with.
  DraFeatures dra_features;
};

// The one table of policies: a row per --policy name, in PolicyNames()
// order. Every other function here reads it.
struct PolicyEntry {
  std::string_view name;
  // The name the FGD paper's figures use (SCORE_POLICY_ABBR in the FGD
  // simulator's scripts/generate_config_and_run.py); ours keep their name.
  std::string_view display;
  bool paper;           // one of the FGD paper's policies (paper_policies.h)
  bool needs_workload;  // made only with PolicyOptions::typical (fgd)
  bool from_profile;    // kube-default: BuildSchedulers makes it from the profile's score plugins
  std::unique_ptr<Policy> (*make)(const PolicyOptions& options);  // nullptr when from_profile
};
std::span<const PolicyEntry> PolicyTable();
// The row of `name`, or nullptr for an unknown name.
const PolicyEntry* FindPolicy(std::string_view name);

// first-fit, best-fit, worst-fit, kube-default, then the FGD paper's six:
// fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit.
// (Also declared in policy.h, where it always was.)
std::vector<std::string> PolicyNames();

bool IsKnownPolicy(std::string_view name);
// `error: unknown policy "x" (known: first-fit, ...)`.
std::string UnknownPolicyMessage(std::string_view name);

// True for the FGD paper's policies (paper_policies.h).
bool IsPaperPolicy(std::string_view name);

// The name the FGD paper's figures use ("FGD", "Random", "DotProd",
// "GpuClustering", "GpuPacking", "BestFit"); gpusched's own policies keep
// their --policy name. Empty for an unknown name.
std::string_view PolicyDisplayName(std::string_view name);

// A new policy by name, or nullptr: for an unknown name, for "kube-default"
// (a profile, see BuildSchedulers), and for "fgd" without options.typical —
// FGD has no meaning without a target workload, and guessing one (say, from
// the pods scheduled so far) would silently change its decisions; the caller
// reports kFgdNeedsWorkload instead.
std::unique_ptr<Policy> NewSimplePolicy(std::string_view name, const PolicyOptions& options = {});

inline constexpr std::string_view kFgdNeedsWorkload = "fgd needs a workload to derive its target pods";

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POLICIES_POLICY_REGISTRY_H_
