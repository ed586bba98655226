// AntiAffinityIndex: the required pod anti-affinity terms the bound pods of
// a cluster carry, each distinct term once with how many pods carry it per
// node and per domain of its topology key. InterPodAffinity's PreFilter
// asks it which terms match the incoming pod (upstream's
// getExistingAntiAffinityCounts, filtering.go) instead of looking at every
// bound pod with anti-affinity, which made every pod cost O(pods in the
// cluster) once pods with anti-affinity run there.
//
// It follows ClusterState::change_log() as the node indexes do: Sync
// replays the changes since the last one, recounting only the nodes they
// touched; another cluster (serial), a new node set (nodes_version) or
// changes the log no longer holds make it count afresh. Terms handed out
// are immutable: a caller holds them (shared_ptr) for a scheduling cycle,
// and a later Sync that finds one still held updates a copy. The plain
// count (every bound pod's terms matched) must agree: tests/sched/plugins/interpodaffinity/
// anti_affinity_index_test.cc checks both on random clusters.
//
// Thread-safe (one mutex).
#ifndef GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_ANTI_AFFINITY_INDEX_H_
#define GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_ANTI_AFFINITY_INDEX_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod_affinity.h"
#include "gpusched/sched/plugins/pod_match_index.h"

namespace gpusched {

// One distinct term (with the namespace of the pods that carry it, which a
// term without namespaces means) and where it is carried.
struct CarriedTerm {
  PodAffinityTerm term;
  std::string owner_ns;
  std::shared_ptr<const TopologyDomains> domains;  // of term.topology_key
  // Sorted flat maps (few entries each, iterated on every use): node ->
  // pods carrying it (> 0), domain id -> pods carrying it (> 0).
  std::vector<std::pair<uint32_t, int32_t>> per_node;
  std::vector<std::pair<int32_t, int64_t>> per_domain;
  // Pods carrying it on nodes with the topology key (the sum of per_domain).
  int64_t labeled = 0;

  int32_t OnNode(size_t node) const { return Find(per_node, static_cast<uint32_t>(node)); }
  int64_t InDomain(int32_t domain) const { return Find(per_domain, domain); }

 private:
  template <typename K, typename V>
  static V Find(const std::vector<std::pair<K, V>>& m, K key) {
    auto it = std::lower_bound(m.begin(), m.end(), key, [](const auto& e, K k) { return e.first < k; });
    return it != m.end() && it->first == key ? it->second : V{};
  }
};

class AntiAffinityIndex {
 public:
  // The terms carried by some pod on a node with their topology key for
  // which `pick` holds, current with `cluster`, in first-seen order.
  std::vector<std::shared_ptr<const CarriedTerm>> Terms(const ClusterState& cluster,
                                                        const std::function<bool(const CarriedTerm&)>& pick);

  // Equal keys for terms (with their owners' namespace) that select the
  // same pods over the same topology key.
  static std::string Key(const PodAffinityTerm& term, const std::string& owner_ns);

 private:
  void Rebuild(const ClusterState& cluster);
  void Recount(const ClusterState& cluster, size_t node);
  CarriedTerm& Mutable(size_t id);
  void Add(size_t id, size_t node, int32_t n);

  std::mutex mu_;
  uint64_t serial_ = 0, nodes_version_ = 0, log_pos_ = 0;
  bool built_ = false;
  PodMatchIndex domains_;  // its Domains() only
  std::unordered_map<std::string, size_t> id_of_;
  std::vector<std::shared_ptr<CarriedTerm>> terms_;
  // What each node runs: each pod's BoundPod::bind_seq and the ids of the
  // terms it carries, if any (a pod that comes or goes is all a change
  // needs).
  struct Carrier {
    uint64_t seq;
    std::vector<uint32_t> ids;
  };
  std::vector<std::vector<Carrier>> carriers_;
  std::vector<uint32_t> seen_;
  uint32_t replay_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_ANTI_AFFINITY_INDEX_H_
