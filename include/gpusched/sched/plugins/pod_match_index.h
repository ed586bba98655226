// PodMatchIndex: for the pods a spread constraint or an affinity term
// selects (a PodMatcher: namespaces and a label selector), how many bound
// pods match on each node and in each topology domain. PodTopologySpread's
// and InterPodAffinity's PreFilter ask it instead of matching every bound
// pod of the cluster against the pod's selectors, which upstream does per
// pod (filtering.go calPreFilterState, getIncomingAffinityAntiAffinityCounts)
// and which made a pod under a zone spread cost O(pods in the cluster).
//
// The index keeps what each node runs as interned label sets (namespace,
// labels, terminating), brought up to date through
// ClusterState::change_log() on each use: only the nodes changed since are
// compared with what it kept, and each pod that came or went moves the
// counts of every matcher kept by one (a matcher's verdict on a label set
// is remembered, and each label set keeps which matchers select it, so a
// pod moves only the counts of the matchers that select it, not every
// matcher's). A new matcher is counted from the kept label sets; another
// cluster (serial), a new node set (nodes_version) or changes the log no
// longer holds start afresh. Counts handed out are immutable: a caller holds
// them (shared_ptr) for a scheduling cycle, and an update that finds them
// still held changes a copy. The plain count (the plugins' own loops, kept
// as the reference) must give the same numbers: tests/sched/plugins/
// pod_match_index_test.cc checks both on random clusters.
//
// Thread-safe (one mutex): a profile's plugin may serve several threads.
#ifndef GPUSCHED_SCHED_PLUGINS_POD_MATCH_INDEX_H_
#define GPUSCHED_SCHED_PLUGINS_POD_MATCH_INDEX_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/label_selector.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// Which bound pods count.
struct PodMatcher {
  // The pod's namespace must be one of these (sorted, unique); with
  // `any_namespace` every namespace counts.
  std::vector<std::string> namespaces;
  bool any_namespace = false;
  LabelSelector selector;
  // labels.Nothing(): no pod matches.
  bool nothing = false;
  // Terminating pods (Pod::deleting) are not counted (PodTopologySpread's
  // countPodsMatchSelector).
  bool skip_deleting = false;

  bool Matches(const Pod& pod) const;
  // Equal keys for matchers that match the same pods.
  std::string Key() const;
};

// The domains of one topology key over a node set: node i is in domain
// domain_of[i] (-1: absent, or without the label), named names[d].
struct TopologyDomains {
  std::string key;
  std::vector<int32_t> domain_of;
  std::vector<std::string> names;
  std::unordered_map<std::string, int32_t> id_of;
  // Present nodes with the label.
  size_t nodes_with_key = 0;
  // The domain of `value`, or -1 when no present node has it.
  int32_t Find(std::string_view value) const;
};

struct PodMatchCounts {
  PodMatcher matcher;
  // Matching pods on node i (0 for absent nodes).
  std::vector<int32_t> per_node;
  // Sums per domain of the keys asked for.
  struct ByKey {
    std::shared_ptr<const TopologyDomains> domains;
    std::vector<int64_t> counts;  // by domain id
  };
  std::vector<ByKey> by_key;
  int64_t total = 0;
  // The matcher's verdict per interned label set: -1 not asked yet.
  std::vector<int8_t> memo;

  // The sums for `key`, which Get was asked for.
  const ByKey& For(std::string_view key) const;
};

class PodMatchIndex {
 public:
  // Most matchers kept: past it, all are dropped and counted afresh.
  static constexpr size_t kMaxMatchers = 512;

  // The counts of `matcher` current with `cluster`, with sums per domain
  // of each of `keys`.
  std::shared_ptr<const PodMatchCounts> Get(const ClusterState& cluster, const PodMatcher& matcher,
                                            const std::vector<std::string>& keys);
  // The domains of `key` over the cluster's nodes.
  std::shared_ptr<const TopologyDomains> Domains(const ClusterState& cluster, const std::string& key);

  // Matching pods on one node's pods (the plain count).
  static int32_t CountOn(const std::vector<BoundPod>& pods, const PodMatcher& matcher);

 private:
  // A bound pod as the matchers see it.
  struct LabelSet {
    std::string ns;
    LabelMap labels;
    bool deleting = false;
  };
  static constexpr uint32_t kNoLabels = ~0u;  // a pod known only by its requests
  static constexpr size_t kMaxLabelSets = size_t{1} << 20;
  // A kept pod: its BoundPod::bind_seq and label set.
  struct Kept {
    uint64_t seq;
    uint32_t set;
  };

  std::shared_ptr<const TopologyDomains> DomainsLocked(const ClusterState& cluster, const std::string& key);
  // Brings the kept label sets up to date, moving every matcher's counts.
  void Sync(const ClusterState& cluster);
  void Reset(const ClusterState& cluster);
  uint32_t Intern(const Pod* pod);
  bool Matches(PodMatchCounts& c, uint32_t set);
  void Count(PodMatchCounts& c);
  // The entry in `slot`, copied first when a caller still holds it.
  static PodMatchCounts& Own(std::shared_ptr<PodMatchCounts>& slot);
  // The matchers (positions in order_) that select label set `set`, brought
  // up to date with the matchers added since it was last asked.
  const std::vector<uint32_t>& SelectedBy(uint32_t set);

  std::mutex mu_;
  uint64_t serial_ = 0, nodes_version_ = 0, log_pos_ = 0;
  bool synced_ = false;
  std::unordered_map<std::string, std::shared_ptr<PodMatchCounts>> counts_;
  // counts_'s slots in the order they were added (an unordered_map's
  // elements keep their address until erased, and counts_ only loses
  // elements all at once, when order_ is cleared too).
  std::vector<std::shared_ptr<PodMatchCounts>*> order_;
  // Per label set: the matchers of order_ that select it, and how many of
  // order_'s matchers that list has been compared with.
  struct Selection {
    std::vector<uint32_t> matchers;
    uint32_t compared = 0;
  };
  std::vector<Selection> selected_by_;
  std::unordered_map<std::string, std::shared_ptr<const TopologyDomains>> domains_;
  std::vector<LabelSet> sets_;
  std::unordered_map<std::string, uint32_t> set_id_;
  std::vector<std::vector<Kept>> kept_;  // per node slot
  // Sync's dedup: the sync that last compared each node.
  std::vector<uint32_t> seen_;
  uint32_t sync_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_POD_MATCH_INDEX_H_
