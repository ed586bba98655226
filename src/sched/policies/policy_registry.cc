// The registry of policy names (see policy_registry.h).
#include "gpusched/sched/policies/policy_registry.h"

#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {
namespace {

template <typename P>
std::unique_ptr<Policy> MakePolicy(const PolicyOptions&) {
  return std::make_unique<P>();
}

std::unique_ptr<Policy> MakeFgdPolicy(const PolicyOptions& options) {
  return std::make_unique<FgdPolicy>(*options.typical);
}

constexpr PolicyEntry kPolicies[] = {
    // name             display          paper  workload profile make
    {"first-fit",       "first-fit",     false, false,   false,  &MakePolicy<FirstFitPolicy>},
    {"best-fit",        "best-fit",      false, false,   false,  &MakePolicy<BestFitPolicy>},
    {"worst-fit",       "worst-fit",     false, false,   false,  &MakePolicy<WorstFitPolicy>},
    {"kube-default",    "kube-default",  false, false,   true,   nullptr},
    {"fgd",             "FGD",           true,  true,    false,  &MakeFgdPolicy},
    {"random",          "Random",        true,  false,   false,  &MakePolicy<RandomPolicy>},
    {"dot-product",     "DotProd",       true,  false,   false,  &MakePolicy<DotProductPolicy>},
    {"gpu-clustering",  "GpuClustering", true,  false,   false,  &MakePolicy<GpuClusteringPolicy>},
    {"gpu-packing",     "GpuPacking",    true,  false,   false,  &MakePolicy<GpuPackingPolicy>},
    {"paper-best-fit",  "BestFit",       true,  false,   false,  &MakePolicy<PaperBestFitPolicy>},
};

}  // namespace

std::span<const PolicyEntry> PolicyTable() { return kPolicies; }

const PolicyEntry* FindPolicy(std::string_view name) {
  for (const PolicyEntry& e : kPolicies)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> out;
  for (const PolicyEntry& e : kPolicies) out.emplace_back(e.name);
  return out;
}

bool IsKnownPolicy(std::string_view name) { return FindPolicy(name) != nullptr; }

std::string UnknownPolicyMessage(std::string_view name) {
  std::string known;
  for (const PolicyEntry& e : kPolicies) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return "error: unknown policy \"" + std::string(name) + "\" (known: " + known + ")";
}

bool IsPaperPolicy(std::string_view name) {
  const PolicyEntry* e = FindPolicy(name);
  return e != nullptr && e->paper;
}

std::string_view PolicyDisplayName(std::string_view name) {
  const PolicyEntry* e = FindPolicy(name);
  return e ? e->display : std::string_view();
}

std::unique_ptr<Policy> NewSimplePolicy(std::string_view name, const PolicyOptions& options) {
  const PolicyEntry* e = FindPolicy(name);
  if (e == nullptr || e->make == nullptr || (e->needs_workload && options.typical == nullptr)) return nullptr;
  return e->make(options);
}

}  // namespace gpusched
