#include "gpusched/report/gang_report.h"

#include <map>


namespace gpusched {
namespace {

std::string Key(const Pod& p) { return p.ns() + "/" + p.name(); }

}  // namespace

std::string GangKeyOf(const RunReport& r, size_t pod) {
  if (!r.gangs) return "";
  static const GangServing kNone;
  const Pod& p = *r.pods[pod];
  const Gang* g = ReportedGang(p, Key(p), *r.gangs, r.gang_serving ? *r.gang_serving : kNone);
  return g ? g->key : "";
}

std::vector<GangRow> GangRows(const RunReport& r) {
  std::vector<GangRow> rows;
  if (!r.gangs) return rows;
  static const GangServing kNone;
  const GangServing& serving = r.gang_serving ? *r.gang_serving : kNone;
  std::map<const Gang*, GangRow> by_gang;
  auto row_of = [&](size_t pod) -> GangRow* {
    const Pod& p = *r.pods[pod];
    const Gang* g = ReportedGang(p, Key(p), *r.gangs, serving);
    if (!g) return nullptr;
    GangRow& row = by_gang[g];
    if (!row.gang) {
      row.gang = g;
      if (EnforcedGang(p, Key(p), *r.gangs, serving)) row.enforcer = EnforcementFor(p, serving)->enforcer;
    }
    ++row.members;
    return &row;
  };
  for (const auto& pl : r.result.placements) {
    if (GangRow* row = row_of(pl.pod)) {
      row->placed.Add(SubgroupLabel(*r.pods[pl.pod], row->gang->api));
      row->gpus_held_idle += r.result.pod_infos[pl.pod].whole_gpus;
    }
  }
  for (const auto& pe : r.result.pending)
    if (GangRow* row = row_of(pe.pod)) ++row->pending;
  for (const auto& rf : r.result.refused)
    if (GangRow* row = row_of(rf.pod)) ++row->pending;
  for (const Gang& g : r.gangs->gangs) {
    auto it = by_gang.find(&g);
    if (it == by_gang.end()) continue;
    GangRow row = it->second;
    if (GangReady(g, row.placed)) {
      row.state = "running";
      row.gpus_held_idle = 0;
    } else {
      row.state = row.placed.total > 0 ? "partial" : "waiting";
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

void WriteGangsSection(std::ostream& out, const RunReport& r) {
  const std::vector<GangRow> rows = GangRows(r);
  if (rows.empty()) return;
  out << "\ngangs (members placed / needed):\n";
  for (const GangRow& row : rows) {
    const Gang& g = *row.gang;
    // Needed: the fewest members that make it ready (its minimum, or its
    // subgroups' when KAI checks those instead).
    out << "  " << g.key << ": " << row.placed.total << "/" << SmallestReadyCount(g) << " placed, " << row.pending
        << " pending";
    if (row.state == "running") {
      out << ", can start";
    } else {
      out << ", cannot start";
      for (const GangShortfall& f : GangShortfalls(g, row.placed))
        if (!f.subgroup.empty())
          out << "; " << SubgroupWord(g.api) << " " << f.subgroup << " has " << f.have << " of its " << f.min
              << " placed";
      if (row.state == "partial")
        out << "; " << row.gpus_held_idle << (row.gpus_held_idle == 1 ? " GPU" : " GPUs")
            << " held idle by its placed members";
    }
    out << " [" << (row.enforcer.empty() ? "placed one by one: its pods' scheduler does not gang" : "gang: " + row.enforcer)
        << "]\n";
  }
}

}  // namespace gpusched
