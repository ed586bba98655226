// The registry of --policy names (see policy_registry.h).
#include "gpusched/sched/policies/policy_registry.h"

#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {
namespace {

struct Entry {
  std::string_view name;
  std::string_view display;
  bool paper;
};

// Display names: SCORE_POLICY_ABBR in the FGD simulator's
// scripts/generate_config_and_run.py.
constexpr Entry kPolicies[] = {
    {"first-fit", "first-fit", false},  {"best-fit", "best-fit", false},
    {"worst-fit", "worst-fit", false},  {"kube-default", "kube-default", false},
    {"fgd", "FGD", true},               {"random", "Random", true},
    {"dot-product", "DotProd", true},   {"gpu-clustering", "GpuClustering", true},
    {"gpu-packing", "GpuPacking", true}, {"paper-best-fit", "BestFit", true},
};

const Entry* Find(std::string_view name) {
  for (const Entry& e : kPolicies)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

std::vector<std::string> PolicyNames() {
  std::vector<std::string> out;
  for (const Entry& e : kPolicies) out.emplace_back(e.name);
  return out;
}

bool IsKnownPolicy(std::string_view name) {
  for (const Entry& e : kPolicies)
    if (e.name == name) return true;
  return false;
}

std::string UnknownPolicyMessage(std::string_view name) {
  std::string known;
  for (const Entry& e : kPolicies) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return "error: unknown --policy \"" + std::string(name) + "\" (known: " + known + ")";
}

bool IsPaperPolicy(std::string_view name) {
  const Entry* e = Find(name);
  return e != nullptr && e->paper;
}

std::string_view PolicyDisplayName(std::string_view name) {
  const Entry* e = Find(name);
  return e ? e->display : std::string_view();
}

std::unique_ptr<Policy> NewSimplePolicy(std::string_view name, const PolicyOptions& options) {
  if (name == "first-fit") return std::make_unique<FirstFitPolicy>();
  if (name == "best-fit") return std::make_unique<BestFitPolicy>();
  if (name == "worst-fit") return std::make_unique<WorstFitPolicy>();
  if (name == "fgd") {
    if (options.typical == nullptr) return nullptr;
    return std::make_unique<FgdPolicy>(*options.typical);
  }
  if (name == "random") return std::make_unique<RandomPolicy>();
  if (name == "dot-product") return std::make_unique<DotProductPolicy>();
  if (name == "gpu-clustering") return std::make_unique<GpuClusteringPolicy>();
  if (name == "gpu-packing") return std::make_unique<GpuPackingPolicy>();
  if (name == "paper-best-fit") return std::make_unique<PaperBestFitPolicy>();
  return nullptr;
}

}  // namespace gpusched
