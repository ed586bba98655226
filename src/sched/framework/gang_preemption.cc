#include "gpusched/sched/framework/gang_preemption.h"

#include <algorithm>
#include <map>

#include "gpusched/model/gang_readiness.h"

namespace gpusched {

std::optional<PreemptGangs> ParsePreemptGangs(std::string_view s) {
  if (s == "upstream") return PreemptGangs::kUpstream;
  if (s == "whole") return PreemptGangs::kWhole;
  return std::nullopt;
}

std::string_view PreemptGangsName(PreemptGangs g) { return g == PreemptGangs::kWhole ? "whole" : "upstream"; }

PreemptionGangs::PreemptionGangs(const GangSet& gangs, const GangServing* serving,
                                 const std::vector<const Pod*>& pods) {
  gang_of_.assign(pods.size(), -1);
  subgroup_of_.assign(pods.size(), "");
  static const GangServing kNone;
  std::map<const Gang*, int32_t> index;
  for (size_t i = 0; i < pods.size(); ++i) {
    const Pod& p = *pods[i];
    const Gang* g = ReportedGang(p, p.ns() + "/" + p.name(), gangs, serving ? *serving : kNone);
    if (g == nullptr || SmallestReadyCount(*g) <= 1) continue;
    auto [it, added] = index.emplace(g, static_cast<int32_t>(gangs_.size()));
    if (added) gangs_.push_back(Entry{g, {}, p.Priority()});
    Entry& e = gangs_[static_cast<size_t>(it->second)];
    e.members.push_back(i);
    e.max_priority = std::max(e.max_priority, p.Priority());
    gang_of_[i] = it->second;
    subgroup_of_[i] = std::string(SubgroupLabel(p, g->api));
  }
}

const std::string& PreemptionGangs::SubgroupOf(uint64_t id) const {
  static const std::string kNone;
  return id < subgroup_of_.size() ? subgroup_of_[id] : kNone;
}

std::vector<CoVictim> PreemptionGangs::CoVictims(const std::vector<BoundPod>& victims, const ClusterState& cluster,
                                                 const PlaceFn& place) const {
  std::vector<CoVictim> out;
  std::vector<int32_t> seen;
  for (const BoundPod& v : victims) {
    const int32_t g = GangOf(v.id);
    if (g < 0 || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
    seen.push_back(g);
    auto is_victim = [&](uint64_t id) {
      return std::any_of(victims.begin(), victims.end(), [id](const BoundPod& b) { return b.id == id; });
    };
    std::vector<std::pair<uint64_t, size_t>> remaining;
    GangCount left;
    for (uint64_t m : Members(g)) {
      if (is_victim(m)) continue;
      if (std::optional<size_t> node = place(m)) {
        remaining.emplace_back(m, *node);
        left.Add(SubgroupOf(m));
      }
    }
    if (GangReady(gang(g), left)) continue;  // surplus: KAI's elastic eviction
    for (const auto& [m, node] : remaining) {
      for (const BoundPod& bp : cluster.state(node).pods) {
        if (bp.id != m) continue;
        out.push_back(CoVictim{node, bp});
        break;
      }
    }
  }
  return out;
}

bool PreemptionGangs::Unevictable(uint64_t id, int32_t preemptor_priority) const {
  const int32_t g = GangOf(id);
  return g >= 0 && gangs_[static_cast<size_t>(g)].max_priority >= preemptor_priority;
}

std::vector<int32_t> PreemptionGangs::Broken(const std::vector<uint64_t>& evicted, const PlaceFn& running) const {
  std::vector<int32_t> out, seen;
  for (uint64_t v : evicted) {
    const int32_t g = GangOf(v);
    if (g < 0 || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
    seen.push_back(g);
    GangCount before, after;
    for (uint64_t m : Members(g)) {
      if (!running(m)) continue;
      before.Add(SubgroupOf(m));
      if (std::find(evicted.begin(), evicted.end(), m) == evicted.end()) after.Add(SubgroupOf(m));
    }
    if (GangReady(gang(g), before) && !GangReady(gang(g), after)) out.push_back(g);
  }
  return out;
}

}  // namespace gpusched
