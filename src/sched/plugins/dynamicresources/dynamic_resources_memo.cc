// DynamicResources' slice index and memo of per-node answers (see
// dynamic_resources.h).
//
// Why a memo: Filter runs the allocator on every node it is asked about,
// for every pod, and the allocator's answer on a node depends only on the
// claims' specs, the node, the objects (slices, classes) and the devices
// the allocated claims hold in the pools the node reaches. Pods whose claims
// come from the same templates ask the same thing; after a pod is placed
// only the pools of its devices change. So each node's answer is kept with
// the position in the allocations' change log (ClaimAllocations::pool_log)
// it was computed at, and reused while no later entry names a pool the node
// reaches: a pod's Filter then costs a few comparisons per node, and the log
// is read once per change, not once per node. Errors are kept only
// when they concern the node alone (IsFailedAllocationOnNode: their text
// names no claim); others are recomputed, their text naming the pod's claim.
// Score and Reserve ask again and find Filter's answer there.
// set_memoize(false) is the plain reference it is tested against
// (tests/sched/plugins/dynamicresources/dra_memo_test.cc).
#include <algorithm>
#include <cstdint>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/plugins/dynamicresources/allocator_pools.h"
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

namespace gpusched {
namespace {

// resourceapi.FirstAvailableDeviceRequestMaxSize.
constexpr int64_t kFirstAvailableDeviceRequestMaxSize = 8;

// computeScore (dynamicresources.go): the claims allocated here, matched
// with their results in order; each firstAvailable request whose
// subrequest i ("<request>/<subrequest>") was chosen adds 8 - i.
int64_t ComputeScore(const std::vector<const ResourceClaim*>& claims, const std::vector<AllocationResult>& results) {
  int64_t score = 0;
  for (size_t k = 0; k < claims.size() && k < results.size(); ++k) {
    for (const DeviceRequest& r : claims[k]->spec.requests) {
      if (r.exactly) continue;
      for (size_t i = 0; i < r.first_available.size(); ++i) {
        const std::string ref = r.name + "/" + r.first_available[i].name;
        for (const DeviceRequestAllocationResult& res : results[k].results)
          if (res.request == ref) {
            score += kFirstAvailableDeviceRequestMaxSize - static_cast<int64_t>(i);
            break;
          }
      }
    }
  }
  return score;
}

// A handful of pointers: a loop beats memcmp's call.
bool SameSignature(const std::vector<const void*>& a, const std::vector<const void*>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

struct DynamicResources::Generation {
  // Held so that the objects' address, which keys this, is not reused.
  std::shared_ptr<const ApiObjects> owner;
  const DraObjects* objects = nullptr;
  size_t num_slices = 0;
  // The memo is per node of one cluster with the same nodes.
  uint64_t cluster_serial = 0;
  uint64_t nodes_version = 0;
  const Node* nodes = nullptr;  // the cluster's nodes (Check is handed these)
  size_t num_nodes = 0;
  std::unordered_map<std::string, size_t> node_index;  // for a Node handed as a copy

  struct NodeSlices {
    std::vector<const ResourceSlice*> slices;  // its own, then the shared ones, in input order
  };
  std::unordered_map<std::string, NodeSlices> by_node;
  NodeSlices shared;  // a node without slices of its own

  // The nodes that reach each pool; -1 for all of them (a shared slice's).
  std::map<std::pair<std::string, std::string>, std::vector<int64_t>, std::less<>> pool_nodes;

  struct Memo {
    std::vector<const void*> signature;
    uint64_t computed_at = 0;  // log position (below) it is valid at
    Status error;              // a node-only error, or Ok
    NodeAnswer answer;
  };
  std::mutex mu;  // guards what follows
  std::vector<std::vector<Memo>> memo;  // by node index
  std::vector<uint64_t> changed_at;     // by node index: the log position after its pools' last change
  // By node index: what GatherPools gives for it (pools depend on the
  // slices, the node and the gates only); null until asked.
  std::vector<std::shared_ptr<const std::vector<dra::Pool>>> pools;
  AllocatorReuse reuse;  // the selectors' results per device, for every node
  uint64_t all_changed_at = 0;          // the same for a pool every node reaches
  // How far the allocations' pool log was read, and the stamp of the entry
  // before that position (0 at the start of a history).
  uint64_t log_pos = 0;
  uint64_t log_stamp = 0;

  const NodeSlices& For(const std::string& node) const {
    auto it = by_node.find(node);
    return it == by_node.end() ? shared : it->second;
  }
  // The index of `node` in the cluster, or -1.
  int64_t IndexOf(const Node& node) const {
    // Compared as integers: `node` need not point into the array.
    const auto p = reinterpret_cast<std::uintptr_t>(&node), b = reinterpret_cast<std::uintptr_t>(nodes);
    if (nodes != nullptr && p >= b && p < b + num_nodes * sizeof(Node) && (p - b) % sizeof(Node) == 0)
      return static_cast<int64_t>((p - b) / sizeof(Node));
    auto it = node_index.find(node.name());
    return it == node_index.end() ? -1 : static_cast<int64_t>(it->second);
  }

  // Reads the log entries of `a` past log_pos, marking the nodes whose
  // pools changed; forgets every answer when `a` is not the history read
  // so far (or its entries were dropped). Under mu.
  void CatchUp(const ClaimAllocations& a) {
    const std::deque<ClaimAllocations::PoolChange>& log = a.pool_log();
    const uint64_t begin = a.pool_log_begin(), end = begin + log.size();
    const bool same = log_pos == 0 ? begin == 0
                                   : log_pos > begin && log_pos <= end && log[log_pos - 1 - begin].stamp == log_stamp;
    if (!same) {
      for (std::vector<Memo>& m : memo) m.clear();
      log_pos = end;
      log_stamp = log.empty() ? 0 : log.back().stamp;
      return;
    }
    for (uint64_t p = log_pos; p < end; ++p) {
      const ClaimAllocations::PoolChange& c = log[p - begin];
      auto it = pool_nodes.find(std::make_pair(c.driver, c.pool));
      if (it == pool_nodes.end()) continue;  // no node reaches it
      for (int64_t n : it->second) {
        if (n < 0)
          all_changed_at = p + 1;
        else
          changed_at[static_cast<size_t>(n)] = p + 1;
      }
    }
    log_pos = end;
    if (!log.empty()) log_stamp = log.back().stamp;
  }
};

std::shared_ptr<DynamicResources::Generation> DynamicResources::GenerationFor(const ClusterState& cluster) const {
  const DraObjects* objects = &cluster.objects().dra;
  std::lock_guard<std::mutex> lock(mu_);
  const std::shared_ptr<Generation>& g = generation_;
  // The slice count too: a caller that edits the objects it shares between
  // runs (tests do) gets a new index.
  if (g && g->objects == objects && g->num_slices == objects->slices.size() &&
      g->cluster_serial == cluster.serial() && g->nodes_version == cluster.nodes_version() &&
      g->nodes == cluster.nodes().data() && g->num_nodes == cluster.size())
    return g;
  auto made = std::make_shared<Generation>();
  made->owner = cluster.shared_objects();
  made->objects = objects;
  made->num_slices = objects->slices.size();
  made->cluster_serial = cluster.serial();
  made->nodes_version = cluster.nodes_version();
  made->nodes = cluster.nodes().data();
  made->num_nodes = cluster.size();
  for (size_t i = 0; i < cluster.size(); ++i) made->node_index.emplace(cluster.node(i).name(), i);
  made->memo.resize(cluster.size());
  made->changed_at.resize(cluster.size());
  made->pools.resize(cluster.size());
  for (const ResourceSlice& sl : objects->slices) {
    std::vector<int64_t>& reach = made->pool_nodes[std::make_pair(sl.driver, sl.pool.name)];
    if (!sl.node_name.empty()) {
      made->by_node[sl.node_name].slices.push_back(&sl);
      auto it = made->node_index.find(sl.node_name);
      if (it != made->node_index.end()) reach.push_back(static_cast<int64_t>(it->second));
    } else {
      made->shared.slices.push_back(&sl);
      reach.push_back(-1);
    }
  }
  for (auto& [name, n] : made->by_node)
    n.slices.insert(n.slices.end(), made->shared.slices.begin(), made->shared.slices.end());
  generation_ = made;
  return made;
}

// The allocator with what the generation keeps for it: the node's pools
// (gathered once per node) and the selectors' results per device.
Result<std::optional<std::vector<AllocationResult>>> DynamicResources::Allocate(const State& s, const Node& node,
                                                                                const AllocatedState* in_use) const {
  const DraObjects* objects = s.objects;
  Generation& g = *s.generation;
  const std::vector<const ResourceSlice*>& slices = SlicesFor(s, node.name());
  Allocator a(features_, in_use ? in_use : s.allocated,
              [objects](const std::string& name) { return objects->FindClass(name); }, slices, &cache_);
  a.SetStepLimit(kAllocationStepLimit);
  a.SetReuse(&g.reuse);
  if (const int64_t index = g.IndexOf(node); index >= 0) {
    std::lock_guard<std::mutex> lock(g.mu);
    std::shared_ptr<const std::vector<dra::Pool>>& pools = g.pools[static_cast<size_t>(index)];
    if (pools == nullptr)
      pools = std::make_shared<const std::vector<dra::Pool>>(dra::GatherPools(slices, node, features_));
    a.SetPools(pools);
  }
  return a.Allocate(node, s.to_allocate);
}

const std::vector<const ResourceSlice*>& DynamicResources::SlicesFor(const State& s, const std::string& node) const {
  return s.generation->For(node).slices;
}

Result<DynamicResources::NodeAnswer> DynamicResources::AnswerFor(const State& s, const Node& node) const {
  Generation& g = *s.generation;
  const int64_t index = s.memoized ? g.IndexOf(node) : -1;
  uint64_t computed_at = 0;
  if (index >= 0) {
    const size_t i = static_cast<size_t>(index);
    std::lock_guard<std::mutex> lock(g.mu);
    g.CatchUp(*s.allocations);
    computed_at = g.log_pos;
    const uint64_t changed = std::max(g.changed_at[i], g.all_changed_at);
    for (const Generation::Memo& m : g.memo[i]) {
      if (m.computed_at < changed || !SameSignature(m.signature, s.signature)) continue;
      if (!m.error.ok()) return m.error;
      return m.answer;
    }
  }
  Result<std::optional<std::vector<AllocationResult>>> r = Allocate(s, node, nullptr);
  Status error;
  NodeAnswer answer;
  if (!r.ok()) {
    error = r.status();
    if (!IsFailedAllocationOnNode(error)) return error;  // its text may name the pod's claim: not kept
  } else if (r->has_value() && (*r)->size() == s.to_allocate.size()) {
    answer.score = ComputeScore(s.to_allocate, **r);
    answer.results = std::make_shared<const std::vector<AllocationResult>>(std::move(**r));
  }
  if (index >= 0) {
    std::lock_guard<std::mutex> lock(g.mu);
    std::vector<Generation::Memo>& kept = g.memo[static_cast<size_t>(index)];
    auto it = std::find_if(kept.begin(), kept.end(),
                           [&](const Generation::Memo& m) { return SameSignature(m.signature, s.signature); });
    if (it == kept.end()) it = kept.insert(kept.end(), Generation::Memo{s.signature, 0, {}, {}});
    it->computed_at = computed_at;
    it->error = error;
    it->answer = answer;
  }
  if (!error.ok()) return error;
  return answer;
}

}  // namespace gpusched
