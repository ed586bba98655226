// MigOfferNote (diagnosis.h): a whole-GPU pod facing nodes whose GPUs the
// NVIDIA device plugin exposes as MIG slices (migStrategy mixed advertises
// nvidia.com/mig-<g>g.<mem>gb per profile and no nvidia.com/gpu; gpu
// feature discovery labels nvidia.com/mig.strategy=mixed) is told which
// profiles exist and how many, instead of "the device plugin is probably
// missing". KAI-Scheduler gives the same advice in its own words
// (landscape: KAI #1876 "didn't have enough of mig profile").
//
// MigProfileNote: a pod asking for nvidia.com/mig-<profile> that no node
// advertises is told what the nodes do offer, whether their GPU models have
// that profile at all (model/mig_profiles.h), and which nvidia.com/mig.config
// value of the GPU operator's default-mig-parted-config makes it on which
// nodes. kube-scheduler's own words stay "Insufficient nvidia.com/mig-...".
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "gpusched/model/mig_profiles.h"
#include "gpusched/model/node_gpus.h"
#include "gpusched/sched/diagnosis/diagnosis.h"

namespace gpusched {

std::string MigOfferNote(std::string_view resource, const ClusterState& cluster) {
  if (resource != kResourceGPU) return "";
  struct Offer {
    int64_t slices = 0;
    int64_t nodes = 0;
  };
  std::map<std::string, Offer, std::less<>> offers;  // by resource name
  std::set<size_t> mig_nodes;
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    for (const auto& [name, amount] : cluster.state(i).allocatable.scalars) {
      if (MigProfile(name).empty() || amount <= 0) continue;
      Offer& o = offers[name];
      o.slices = SatAdd(o.slices, amount);
      ++o.nodes;
      mig_nodes.insert(i);
    }
  }
  if (offers.empty()) return "";
  std::string list;
  for (const auto& [name, o] : offers)
    list += (list.empty() ? "" : ", ") + name + " (" + std::to_string(o.slices) + " on " + std::to_string(o.nodes) +
            (o.nodes == 1 ? " node)" : " nodes)");
  const size_t n = mig_nodes.size();
  return "; the GPUs of " + std::to_string(n) + (n == 1 ? " node are" : " nodes are") +
         " partitioned with MIG (the NVIDIA device plugin's mixed strategy) and offered as " + list +
         ": request one of these profiles (e.g. " + offers.begin()->first +
         ": 1) instead of nvidia.com/gpu, or "
         "turn MIG off on some nodes";
}

namespace {

// "a", "a, b, c", "a, b, c and 4 more".
std::string NodeNames(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < 3; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 3) s += " and " + std::to_string(names.size() - 3) + " more";
  return s;
}

std::string NodesPhrase(const std::vector<std::string>& names) {
  return names.size() == 1 ? names[0] : std::to_string(names.size()) + " nodes";
}

// The model's profiles with the same number of compute slices ("3g.20gb"
// for 3g.40gb on an A100 40GB), or all of them when none has.
std::string SimilarProfiles(const MigGpuModel& m, std::string_view profile) {
  const std::string_view compute = profile.substr(0, profile.find('.') + 1);  // "3g."
  std::string same, all;
  int n_same = 0;
  for (const MigProfileInfo& p : m.profiles) {
    all += (all.empty() ? "" : ", ") + std::string(p.name);
    if (!compute.empty() && p.name.starts_with(compute)) {
      same += (same.empty() ? "" : ", ") + std::string(p.name);
      ++n_same;
    }
  }
  if (same.empty()) return "their profiles are " + all;
  return "their " + std::string(compute.substr(0, compute.size() - 2)) +
         (n_same == 1 ? "-slice profile is " : "-slice profiles are ") + same;
}

}  // namespace

std::string MigProfileNote(std::string_view resource, const ClusterState& cluster) {
  const std::string_view profile = MigProfile(resource);
  if (profile.empty()) return "";
  // What the nodes offer now, by resource: the mixed strategy's
  // nvidia.com/mig-<profile>, and the single strategy's nvidia.com/gpu
  // whose devices are all one profile.
  struct Offer {
    int64_t count = 0;
    std::vector<std::string> nodes;
    std::set<std::string_view> models;
  };
  std::map<std::string, Offer, std::less<>> offers;
  std::vector<std::string> single_same;  // single-strategy nodes whose nvidia.com/gpu is this profile
  // Nodes by GPU model, and whether the device plugin there is mixed.
  struct ModelNodes {
    const MigGpuModel* model = nullptr;
    std::vector<std::string> mixed, other;
  };
  std::vector<ModelNodes> by_model;  // in order of first node
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    const Node& node = cluster.node(i);
    const NodeGpuSharing g = ReadNodeGpuSharing(node.meta);
    for (const auto& [name, amount] : cluster.state(i).allocatable.scalars) {
      if (MigProfile(name).empty() || amount <= 0) continue;
      Offer& o = offers[name];
      o.count = SatAdd(o.count, amount);
      o.nodes.push_back(node.name());
      if (g.model) o.models.insert(g.model->name);
    }
    if (g.single_profile && g.single_profile->name == profile && cluster.state(i).allocatable.Get(kResourceGPU) > 0)
      single_same.push_back(node.name());
    if (!g.model) continue;
    auto it = std::find_if(by_model.begin(), by_model.end(), [&](const ModelNodes& m) { return m.model == g.model; });
    if (it == by_model.end()) it = by_model.insert(by_model.end(), ModelNodes{g.model, {}, {}});
    (g.mig == NodeGpuSharing::Mig::kMixed ? it->mixed : it->other).push_back(node.name());
  }
  std::string s;
  if (!offers.empty()) {
    s += "; the nodes offer ";
    bool first = true;
    for (const auto& [name, o] : offers) {
      s += std::string(first ? "" : ", ") + name + " (" + std::to_string(o.count) + " on " + NodesPhrase(o.nodes);
      std::string models;
      for (std::string_view m : o.models) models += (models.empty() ? "" : ", ") + std::string(m);
      s += (models.empty() ? "" : ": " + models) + ")";
      first = false;
    }
  }
  if (!single_same.empty())
    s += "; " + NodeNames(single_same) + (single_same.size() == 1 ? " offers " : " offer ") + std::string(profile) +
         " MIG devices as nvidia.com/gpu (the device plugin's single strategy): request nvidia.com/gpu: 1 to run there";
  // Which nodes' GPUs have the profile, and what makes it.
  std::vector<std::string> can, can_other;
  std::string can_models;
  const MigProfileInfo* info = nullptr;
  std::string lacking;
  for (const ModelNodes& m : by_model) {
    if (const MigProfileInfo* p = FindMigProfile(*m.model, profile)) {
      info = p;
      can.insert(can.end(), m.mixed.begin(), m.mixed.end());
      can_other.insert(can_other.end(), m.other.begin(), m.other.end());
      if (!m.mixed.empty()) can_models += (can_models.empty() ? "" : ", ") + std::string(m.model->name);
      continue;
    }
    std::vector<std::string> all = m.mixed;
    all.insert(all.end(), m.other.begin(), m.other.end());
    lacking += "; the " + std::string(m.model->name) + " GPUs of " + NodeNames(all) + " have no " +
               std::string(profile) + " profile (" + SimilarProfiles(*m.model, profile) + ")";
  }
  if (!can.empty()) {
    std::string names;
    for (size_t i = 0; i < can.size() && i < 3; ++i) names += " " + can[i];
    s += "; " + std::string(profile) + " is a MIG profile of the " + can_models + " GPUs of " + NodeNames(can) + " (" +
         std::to_string(info->max_instances) + " per GPU): `kubectl label node" + names +
         " nvidia.com/mig.config=all-" + std::string(profile) + " --overwrite`" + (can.size() > 3 ? " (and the others)" : "") +
         " has the GPU operator's MIG manager repartition their GPUs (once no pod uses them)";
  } else if (!can_other.empty()) {
    s += "; the GPUs of " + NodeNames(can_other) + " have the " + std::string(profile) +
         " profile, but only the device plugin's mixed strategy (nvidia.com/mig.strategy=mixed) advertises "
         "nvidia.com/mig-" + std::string(profile);
  }
  s += lacking;
  if (can.empty() && can_other.empty()) {
    std::string models;
    for (const MigGpuModel& m : MigGpuModels())
      if (FindMigProfile(m, profile)) models += (models.empty() ? "" : ", ") + std::string(m.name);
    if (models.empty())
      s += "; no GPU model gpusched knows has a " + std::string(profile) + " MIG profile (NVIDIA's MIG user guide lists "
           "each model's)";
    else
      s += "; no GPU in this cluster can provide " + std::string(profile) + ": it is a MIG profile of " + models;
  }
  return s;
}

}  // namespace gpusched
