#include "gpusched/sched/plugins/interpodaffinity/anti_affinity_index.h"

#include <algorithm>

namespace gpusched {
namespace {

void AppendSelector(std::string& k, const LabelSelector& s) {
  for (const auto& [key, value] : s.match_labels) (((k += key) += '\x03') += value) += '\x01';
  k += '\x02';
  for (const LabelSelectorRequirement& r : s.match_expressions) {
    ((k += r.key) += '\x03') += r.op;
    for (const std::string& v : r.values) (k += '\x03') += v;
    k += '\x01';
  }
}

}  // namespace

std::string AntiAffinityIndex::Key(const PodAffinityTerm& term, const std::string& owner_ns) {
  std::string k = term.topology_key;
  (k += '\x04') += owner_ns;
  k += '\x04';
  for (const std::string& n : term.namespaces) (k += n) += '\x01';
  k += '\x04';
  if (term.namespace_selector) {
    k += 'S';
    AppendSelector(k, *term.namespace_selector);
  }
  k += '\x04';
  if (term.label_selector) {
    k += 'L';
    AppendSelector(k, *term.label_selector);
  }
  // matchLabelKeys and mismatchLabelKeys are merged into the selector when
  // the pod is read (MergeAffinityLabelKeys): not part of what it selects.
  return k;
}

CarriedTerm& AntiAffinityIndex::Mutable(size_t id) {
  std::shared_ptr<CarriedTerm>& t = terms_[id];
  // Held by a caller's cycle: its view stays as it is.
  if (t.use_count() > 1) t = std::make_shared<CarriedTerm>(*t);
  return *t;
}

namespace {

// m[key] += n in a sorted flat map, the entry gone at 0.
template <typename K, typename V>
void AddSorted(std::vector<std::pair<K, V>>& m, K key, V n) {
  auto it = std::lower_bound(m.begin(), m.end(), key, [](const auto& e, K k) { return e.first < k; });
  if (it == m.end() || it->first != key) {
    m.insert(it, {key, n});
  } else if ((it->second += n) == 0) {
    m.erase(it);
  }
}

}  // namespace

void AntiAffinityIndex::Add(size_t id, size_t node, int32_t n) {
  CarriedTerm& t = Mutable(id);
  AddSorted(t.per_node, static_cast<uint32_t>(node), n);
  const int32_t d = t.domains->domain_of[node];
  if (d < 0) return;
  AddSorted(t.per_domain, d, static_cast<int64_t>(n));
  t.labeled += n;
}

void AntiAffinityIndex::Recount(const ClusterState& cluster, size_t node) {
  std::vector<Carrier> before = std::move(carriers_[node]);
  std::vector<Carrier>& now = carriers_[node];
  now.clear();
  if (cluster.present(node)) {
    for (const BoundPod& b : cluster.state(node).pods) {
      auto it = std::find_if(before.begin(), before.end(), [&](const Carrier& c) { return c.seq == b.bind_seq; });
      if (it != before.end()) {  // still there
        now.push_back(std::move(*it));
        it->seq = ~0ull;
        continue;
      }
      // Every pod is kept, those without terms too: only a new one is read.
      Carrier c{b.bind_seq, {}};
      if (b.pod == nullptr || !HasRequiredPodAntiAffinity(*b.pod)) {
        now.push_back(std::move(c));
        continue;
      }
      for (const PodAffinityTerm& term : b.pod->pod_affinity->RequiredAntiAffinity()) {
        auto [id, added] = id_of_.emplace(Key(term, b.pod->ns()), terms_.size());
        if (added) {
          auto t = std::make_shared<CarriedTerm>();
          t->term = term;
          t->owner_ns = b.pod->ns();
          t->domains = domains_.Domains(cluster, term.topology_key);
          terms_.push_back(std::move(t));
        }
        c.ids.push_back(static_cast<uint32_t>(id->second));
        Add(id->second, node, 1);
      }
      now.push_back(std::move(c));
    }
  }
  for (const Carrier& c : before)
    if (c.seq != ~0ull)
      for (uint32_t id : c.ids) Add(id, node, -1);
}

void AntiAffinityIndex::Rebuild(const ClusterState& cluster) {
  id_of_.clear();
  terms_.clear();
  carriers_.assign(cluster.size(), {});
  for (size_t i = 0; i < cluster.size(); ++i) Recount(cluster, i);
}

std::vector<std::shared_ptr<const CarriedTerm>> AntiAffinityIndex::Terms(
    const ClusterState& cluster, const std::function<bool(const CarriedTerm&)>& pick) {
  std::lock_guard<std::mutex> l(mu_);
  const ChangeLog& log = cluster.change_log();
  // Terms no pod carries any more are dropped by a rebuild once they are
  // most of what is kept.
  size_t live = 0;
  for (const auto& t : terms_) live += t->per_node.empty() ? 0 : 1;
  if (!built_ || serial_ != cluster.serial() || nodes_version_ != cluster.nodes_version() || !log.Holds(log_pos_) ||
      (terms_.size() > 64 && live < terms_.size() / 4)) {
    Rebuild(cluster);
    built_ = true;
  } else {
    if (seen_.size() < cluster.size()) seen_.resize(cluster.size(), 0);
    if (++replay_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      replay_ = 1;
    }
    for (uint64_t pos = log_pos_; pos < log.end(); ++pos) {
      const uint32_t i = log[pos];
      if (seen_[i] == replay_) continue;
      seen_[i] = replay_;
      Recount(cluster, i);
    }
  }
  serial_ = cluster.serial();
  nodes_version_ = cluster.nodes_version();
  log_pos_ = log.end();
  std::vector<std::shared_ptr<const CarriedTerm>> out;
  for (const auto& t : terms_)
    if (t->labeled > 0 && pick(*t)) out.push_back(t);
  return out;
}

}  // namespace gpusched
