#include "gpusched/sched/plugins/pod_match_index.h"

#include <algorithm>
#include <cassert>

namespace gpusched {

bool PodMatcher::Matches(const Pod& pod) const {
  if (nothing) return false;
  if (skip_deleting && pod.deleting) return false;
  if (!any_namespace && !std::binary_search(namespaces.begin(), namespaces.end(), pod.ns())) return false;
  return SelectorMatches(selector, pod.meta.labels);
}

std::string PodMatcher::Key() const {
  // Fields separated by bytes no label, namespace or operator holds.
  std::string k;
  k += nothing ? 'N' : 'S';
  k += skip_deleting ? 'D' : 'd';
  if (any_namespace) {
    k += '*';
  } else {
    for (const std::string& n : namespaces) (k += n) += '\x01';
  }
  k += '\x02';
  for (const auto& [key, value] : selector.match_labels) (((k += key) += '\x03') += value) += '\x01';
  k += '\x02';
  for (const LabelSelectorRequirement& r : selector.match_expressions) {
    ((k += r.key) += '\x03') += r.op;
    for (const std::string& v : r.values) (k += '\x03') += v;
    k += '\x01';
  }
  return k;
}

int32_t TopologyDomains::Find(std::string_view value) const {
  auto it = id_of.find(std::string(value));
  return it == id_of.end() ? -1 : it->second;
}

const PodMatchCounts::ByKey& PodMatchCounts::For(std::string_view key) const {
  for (const ByKey& b : by_key)
    if (b.domains->key == key) return b;
  assert(false && "PodMatchCounts::For: key not asked for");
  return by_key.front();
}

int32_t PodMatchIndex::CountOn(const std::vector<BoundPod>& pods, const PodMatcher& matcher) {
  if (matcher.nothing) return 0;
  int32_t n = 0;
  for (const BoundPod& b : pods)
    // A pod known only by its requests has no labels to match.
    if (b.pod != nullptr && matcher.Matches(*b.pod)) ++n;
  return n;
}

std::shared_ptr<const TopologyDomains> PodMatchIndex::DomainsLocked(const ClusterState& cluster,
                                                                    const std::string& key) {
  auto& slot = domains_[key];
  if (slot) return slot;
  auto d = std::make_shared<TopologyDomains>();
  d->key = key;
  d->domain_of.assign(cluster.size(), -1);
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    const LabelMap& labels = cluster.node(i).meta.labels;
    auto it = labels.find(key);
    if (it == labels.end()) continue;
    ++d->nodes_with_key;
    auto [id, added] = d->id_of.emplace(it->second, static_cast<int32_t>(d->names.size()));
    if (added) d->names.push_back(it->second);
    d->domain_of[i] = id->second;
  }
  slot = std::move(d);
  return slot;
}

std::shared_ptr<const TopologyDomains> PodMatchIndex::Domains(const ClusterState& cluster, const std::string& key) {
  std::lock_guard<std::mutex> l(mu_);
  if (serial_ != cluster.serial() || nodes_version_ != cluster.nodes_version()) Reset(cluster);
  return DomainsLocked(cluster, key);
}

void PodMatchIndex::Reset(const ClusterState& cluster) {
  counts_.clear();
  order_.clear();
  selected_by_.clear();
  domains_.clear();
  sets_.clear();
  set_id_.clear();
  kept_.clear();
  seen_.clear();
  synced_ = false;
  serial_ = cluster.serial();
  nodes_version_ = cluster.nodes_version();
}

uint32_t PodMatchIndex::Intern(const Pod* pod) {
  if (pod == nullptr) return kNoLabels;
  // Fields separated by bytes no label or namespace holds.
  std::string key = pod->ns();
  key += pod->deleting ? '\x02' : '\x01';
  for (const auto& [k, v] : pod->meta.labels) (((key += k) += '\x03') += v) += '\x01';
  auto [it, added] = set_id_.emplace(std::move(key), static_cast<uint32_t>(sets_.size()));
  if (added) sets_.push_back(LabelSet{pod->ns(), pod->meta.labels, pod->deleting});
  return it->second;
}

bool PodMatchIndex::Matches(PodMatchCounts& c, uint32_t set) {
  if (set == kNoLabels) return false;
  if (c.memo.size() <= set) c.memo.resize(sets_.size(), -1);
  int8_t& m = c.memo[set];
  if (m < 0) {
    const LabelSet& l = sets_[set];
    const PodMatcher& p = c.matcher;
    m = !p.nothing && !(p.skip_deleting && l.deleting) &&
        (p.any_namespace || std::binary_search(p.namespaces.begin(), p.namespaces.end(), l.ns)) &&
        SelectorMatches(p.selector, l.labels);
  }
  return m != 0;
}

void PodMatchIndex::Count(PodMatchCounts& c) {
  c.per_node.assign(kept_.size(), 0);
  c.total = 0;
  for (size_t i = 0; i < kept_.size(); ++i) {
    int32_t n = 0;
    for (const Kept& k : kept_[i]) n += Matches(c, k.set) ? 1 : 0;
    c.per_node[i] = n;
    c.total += n;
  }
  for (PodMatchCounts::ByKey& b : c.by_key) {
    b.counts.assign(b.domains->names.size(), 0);
    for (size_t i = 0; i < kept_.size(); ++i)
      if (const int32_t d = b.domains->domain_of[i]; d >= 0) b.counts[static_cast<size_t>(d)] += c.per_node[i];
  }
}

PodMatchCounts& PodMatchIndex::Own(std::shared_ptr<PodMatchCounts>& slot) {
  // Still held by a caller's cycle: its counts stay as they are.
  if (slot.use_count() > 1) slot = std::make_shared<PodMatchCounts>(*slot);
  return *slot;
}

void PodMatchIndex::Sync(const ClusterState& cluster) {
  if (serial_ != cluster.serial() || nodes_version_ != cluster.nodes_version()) Reset(cluster);
  const ChangeLog& log = cluster.change_log();
  if (sets_.size() > kMaxLabelSets || (synced_ && !log.Holds(log_pos_))) {
    // Too many label sets kept, or changes missed: afresh.
    Reset(cluster);
  }
  auto keep = [&](size_t i) {
    std::vector<Kept>& kept = kept_[i];
    kept.clear();
    if (!cluster.present(i)) return;
    for (const BoundPod& b : cluster.state(i).pods) kept.push_back({b.bind_seq, Intern(b.pod)});
  };
  if (!synced_) {
    kept_.assign(cluster.size(), {});
    for (size_t i = 0; i < cluster.size(); ++i) keep(i);
    synced_ = true;
    log_pos_ = log.end();
    return;
  }
  if (log_pos_ == log.end()) return;
  // The pods that came and went on the nodes changed since.
  struct Moved {
    uint32_t node;
    uint32_t set;
    int32_t sign;
  };
  std::vector<Moved> moved;
  if (seen_.size() < cluster.size()) seen_.resize(cluster.size(), 0);
  if (++sync_ == 0) {  // wrapped: no mark may look current
    std::fill(seen_.begin(), seen_.end(), 0);
    sync_ = 1;
  }
  for (uint64_t pos = log_pos_; pos < log.end(); ++pos) {
    const uint32_t i = log[pos];
    if (seen_[i] == sync_) continue;
    seen_[i] = sync_;
    std::vector<Kept> before = std::move(kept_[i]);
    const std::vector<BoundPod> none;
    const std::vector<BoundPod>& now = cluster.present(i) ? cluster.state(i).pods : none;
    kept_[i].clear();
    for (const BoundPod& b : now) {
      auto it = std::find_if(before.begin(), before.end(), [&](const Kept& k) { return k.seq == b.bind_seq; });
      if (it != before.end()) {
        kept_[i].push_back(*it);
        it->seq = ~0ull;  // still there
        continue;
      }
      const uint32_t set = Intern(b.pod);
      kept_[i].push_back({b.bind_seq, set});
      moved.push_back({i, set, 1});
    }
    for (const Kept& k : before)
      if (k.seq != ~0ull) moved.push_back({i, k.set, -1});
  }
  log_pos_ = log.end();
  if (moved.empty()) return;
  // Only the matchers that select a moved pod's labels change; each is
  // copied (Own) at most once per sync.
  std::vector<uint8_t> touched(order_.size(), 0);
  for (const Moved& m : moved) {
    if (m.set == kNoLabels) continue;
    for (uint32_t j : SelectedBy(m.set)) {
      std::shared_ptr<PodMatchCounts>& slot = *order_[j];
      PodMatchCounts& c = touched[j] ? *slot : Own(slot);
      touched[j] = 1;
      c.per_node[m.node] += m.sign;
      c.total += m.sign;
      for (PodMatchCounts::ByKey& b : c.by_key)
        if (const int32_t d = b.domains->domain_of[m.node]; d >= 0) b.counts[static_cast<size_t>(d)] += m.sign;
    }
  }
}

const std::vector<uint32_t>& PodMatchIndex::SelectedBy(uint32_t set) {
  if (selected_by_.size() <= set) selected_by_.resize(sets_.size());
  Selection& s = selected_by_[set];
  for (; s.compared < order_.size(); ++s.compared)
    if (Matches(**order_[s.compared], set)) s.matchers.push_back(s.compared);
  return s.matchers;
}

std::shared_ptr<const PodMatchCounts> PodMatchIndex::Get(const ClusterState& cluster, const PodMatcher& matcher,
                                                         const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> l(mu_);
  Sync(cluster);
  if (counts_.size() >= kMaxMatchers) {
    counts_.clear();
    order_.clear();
    selected_by_.clear();
  }
  std::shared_ptr<PodMatchCounts>& slot = counts_[matcher.Key()];
  bool fresh = false;
  if (!slot) {
    slot = std::make_shared<PodMatchCounts>();
    slot->matcher = matcher;
    order_.push_back(&slot);
    fresh = true;
  }
  bool new_key = false;
  for (const std::string& key : keys) {
    if (std::any_of(slot->by_key.begin(), slot->by_key.end(), [&](const auto& b) { return b.domains->key == key; }))
      continue;
    Own(slot).by_key.push_back({DomainsLocked(cluster, key), {}});
    new_key = true;
  }
  if (fresh || new_key) Count(Own(slot));
  return slot;
}

}  // namespace gpusched
