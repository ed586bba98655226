#include "gpusched/model/gang_readiness.h"

#include <algorithm>
#include <unordered_set>

#include "gpusched/util/ascii.h"

namespace gpusched {
namespace {

}  // namespace

void GangCount::Add(std::string_view subgroup, int64_t n) {
  total += n;
  auto it = by_subgroup.find(subgroup);
  if (it == by_subgroup.end()) it = by_subgroup.emplace(std::string(subgroup), 0).first;
  it->second += n;
}

void GangCount::Add(const GangCount& other) {
  for (const auto& [s, n] : other.by_subgroup) Add(s, n);
}

int64_t GangCount::In(std::string_view subgroup) const {
  auto it = by_subgroup.find(subgroup);
  return it == by_subgroup.end() ? 0 : it->second;
}

std::vector<GangMinimum> EnforcedMinimums(const Gang& g) {
  std::vector<GangMinimum> out;
  if (g.api == GangApi::kKai && !g.subgroups.empty()) {
    // factory.go: a subgroup some other names as parent becomes a
    // SubGroupSet (no minimum); the rest PodSets with max(minMember, 1).
    std::unordered_set<std::string> parents;
    for (const GangSubgroup& sg : g.subgroups)
      if (!sg.parent.empty()) parents.insert(AsciiLower(sg.parent));
    for (const GangSubgroup& sg : g.subgroups)
      if (!parents.count(sg.name)) out.push_back({sg.name, std::max<int64_t>(sg.min_count, 1)});
    return out;
  }
  out.push_back({"", g.min_count});
  if (g.api == GangApi::kVolcano && !g.subgroups.empty()) {
    // CheckTaskReady / CheckTaskValid: no task is checked when minMember is
    // below TaskMinAvailableTotal.
    int64_t sum = 0;
    for (const GangSubgroup& sg : g.subgroups) sum += sg.min_count;
    if (g.min_count < sum) return out;
    for (const GangSubgroup& sg : g.subgroups)
      if (sg.min_count > 0) out.push_back({sg.name, sg.min_count});
  }
  return out;
}

std::vector<GangShortfall> GangShortfalls(const Gang& g, const GangCount& count) {
  std::vector<GangShortfall> out;
  for (const GangMinimum& m : EnforcedMinimums(g)) {
    const int64_t have = m.subgroup.empty() ? count.total : count.In(m.subgroup);
    if (have < m.min) out.push_back({m.subgroup, m.min, have});
  }
  return out;
}

bool GangReady(const Gang& g, const GangCount& count) { return GangShortfalls(g, count).empty(); }

int64_t SmallestReadyCount(const Gang& g) {
  int64_t whole = 0, parts = 0;
  for (const GangMinimum& m : EnforcedMinimums(g)) (m.subgroup.empty() ? whole : parts) += m.min;
  return std::max(whole, parts);
}

bool Gang::HasQuorum() const { return GangReady(*this, CountMembers(*this)); }

GangCount CountMembers(const Gang& g) {
  GangCount c;
  for (const GangMember& m : g.members) c.Add(m.subgroup);
  return c;
}

std::string_view SubgroupLabel(const Pod& pod, GangApi api) {
  if (api == GangApi::kVolcano) {
    auto t = pod.meta.annotations.find(kVolcanoTaskSpecAnnotation);
    return t == pod.meta.annotations.end() ? std::string_view() : std::string_view(t->second);
  }
  if (api == GangApi::kKai) {
    auto s = pod.meta.labels.find(kKaiSubGroupLabel);
    return s == pod.meta.labels.end() ? std::string_view() : std::string_view(s->second);
  }
  return {};
}

std::string_view SubgroupWord(GangApi api) { return api == GangApi::kVolcano ? "task" : "subgroup"; }

}  // namespace gpusched
