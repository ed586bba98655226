#include "gpusched/sched/diagnosis/diagnosis_cache.h"

#include <algorithm>
#include <limits>

#include "diagnosis_parts.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/api/pod_class.h"

namespace gpusched {

using diagnosis_parts::Free;
using diagnosis_parts::FreeNow;

struct DiagnosisCache::Entry {
  explicit Entry(const PodInfo& pod) : key(pod) {}
  PodClassKey key;
  uint64_t serial = 0;
  uint64_t nodes_version = std::numeric_limits<uint64_t>::max();
  diagnosis_parts::NodeSet ns;
  std::vector<int32_t> pos;  // per node slot: its index in ns.could, or -1
  // Per want: a max tree over ns.could (leaves from `leaves`) and the sum of
  // its leaves (exact: free amounts are never negative, so clamping the sum
  // at the end is what SatAdd over them gives).
  size_t leaves = 0;
  std::vector<std::vector<int64_t>> tree;
  std::vector<__int128> sum;
  std::vector<uint8_t> full;  // per could node: at its pod limit
  int64_t num_full = 0;
  uint64_t log_pos = 0;  // change log position (a version) the summaries are current up to
  uint64_t version = std::numeric_limits<uint64_t>::max();  // ClusterState::version() of `result`
  Diagnosis result;
};

DiagnosisCache::DiagnosisCache() = default;
DiagnosisCache::~DiagnosisCache() = default;

bool DiagnosisCache::Supports(const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  return AllInTreeFilters(filters);
}

// Node i's free amounts and pod-limit flag, from its state now.
void DiagnosisCache::Update(Entry& e, const ClusterState& cluster, size_t i) {
  if (i >= e.pos.size() || e.pos[i] < 0) return;
  const auto p = static_cast<size_t>(e.pos[i]);
  const NodeState& s = cluster.state(i);
  for (size_t k = 0; k < e.ns.wants.size(); ++k) {
    std::vector<int64_t>& t = e.tree[k];
    size_t at = e.leaves + p;
    const int64_t v = FreeNow(s, e.ns.wants[k].name);
    e.sum[k] += static_cast<__int128>(v) - t[at];
    t[at] = v;
    for (at /= 2; at >= 1; at /= 2) t[at] = std::max(t[2 * at], t[2 * at + 1]);
  }
  const uint8_t full = s.num_pods + 1 > s.allocatable.allowed_pods;
  e.num_full += static_cast<int64_t>(full) - e.full[p];
  e.full[p] = full;
}

void DiagnosisCache::Rebuild(Entry& e, const ClusterState& cluster) {
  const std::vector<size_t>& could = e.ns.could;
  e.leaves = 1;
  while (e.leaves < could.size()) e.leaves *= 2;
  e.tree.assign(e.ns.wants.size(), std::vector<int64_t>(2 * e.leaves, 0));
  e.sum.assign(e.ns.wants.size(), 0);
  e.full.assign(could.size(), 0);
  e.num_full = 0;
  for (size_t i : could) Update(e, cluster, i);
  e.log_pos = cluster.version();
}

DiagnosisCache::Entry& DiagnosisCache::EntryOf(const PodInfo& pod, const ClusterState& cluster,
                                              const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  const size_t hash = ClassHash(pod);
  Entry* e = nullptr;
  auto [lo, hi] = by_hash_.equal_range(hash);
  for (auto it = lo; it != hi && !e; ++it)
    if (entries_[it->second]->key.Matches(pod)) e = entries_[it->second].get();
  if (!e) {
    if (entries_.size() >= kMaxClasses) {
      entries_.clear();
      by_hash_.clear();
    }
    by_hash_.emplace(hash, entries_.size());
    entries_.push_back(std::make_unique<Entry>(pod));
    e = entries_.back().get();
  }
  if (e->serial != cluster.serial() || e->nodes_version != cluster.nodes_version()) {
    // The nodes changed (or another cluster): the node-set part afresh.
    e->serial = cluster.serial();
    e->nodes_version = cluster.nodes_version();
    e->version = std::numeric_limits<uint64_t>::max();
    // `pod`, not the key: it carries this attempt's PreFilter state.
    e->ns = diagnosis_parts::DiagnoseNodeSet(pod, cluster, filters);
    e->pos.assign(cluster.size(), -1);
    for (size_t k = 0; k < e->ns.could.size(); ++k) e->pos[e->ns.could[k]] = static_cast<int32_t>(k);
    Rebuild(*e, cluster);
  }
  return *e;
}

Diagnosis DiagnosisCache::Diagnose(const PodInfo& pod, const ClusterState& cluster,
                                   const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                   const BatchDemand* demand) {
  if (supported_ < 0) supported_ = Supports(filters);
  if (!supported_) {
    Diagnosis d = gpusched::Diagnose(pod, cluster, filters, demand);
    d.free_up_node.reset();
    d.free_up_pods.clear();
    return d;
  }
  Entry& e = EntryOf(pod, cluster, filters);
  if (e.ns.settled) return *e.ns.settled;
  if (e.version == cluster.version()) return e.result;
  // Catch up with the nodes changed since; more changes than nodes to
  // follow (or changes the log no longer holds), and a pass over them is
  // cheaper.
  const ChangeLog& log = cluster.change_log();
  if (!log.Holds(e.log_pos) || log.end() - e.log_pos > e.ns.could.size()) {
    Rebuild(e, cluster);
  } else {
    for (uint64_t k = e.log_pos; k < log.end(); ++k) Update(e, cluster, log[k]);
    e.log_pos = log.end();
  }
  auto free = [&e](size_t k) {
    Free f;
    f.max = e.tree[k][1];
    f.sum = e.sum[k] > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max()
                                                            : static_cast<int64_t>(e.sum[k]);
    return f;
  };
  auto pods_full = [&e] { return e.num_full == static_cast<int64_t>(e.ns.could.size()); };
  e.result = Diagnosis();
  // Whether running pods' anti-affinity concerns it changes as pods come
  // and go; the node set was computed for an earlier attempt.
  e.ns.pod_aware = diagnosis_parts::ComparedWithPods(pod);
  diagnosis_parts::FinishWaiting(e.result, cluster, e.ns, free, pods_full, demand);
  diagnosis_parts::NameWhatIsInTheWay(e.result, pod, cluster, e.ns, filters);
  e.version = cluster.version();
  return e.result;
}

}  // namespace gpusched
