// MigOfferNote (diagnosis.h): a whole-GPU pod facing nodes whose GPUs the
// NVIDIA device plugin exposes as MIG slices (migStrategy mixed advertises
// nvidia.com/mig-<g>g.<mem>gb per profile and no nvidia.com/gpu; gpu
// feature discovery labels nvidia.com/mig.strategy=mixed) is told which
// profiles exist and how many, instead of "the device plugin is probably
// missing". KAI-Scheduler gives the same advice in its own words
// (landscape: KAI #1876 "didn't have enough of mig profile").
#include <map>
#include <set>

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

}  // namespace gpusched
