// CycleState: what the filter plugins of one profile computed for one pod in
// PreFilter, for their Filter (upstream's framework.CycleState, read with
// Read(key) by the plugin that wrote it). The framework makes one per
// scheduling attempt of a pod whose PreFilter left state, hands it to every
// Check through PodInfo::cycle, and drops it when the attempt ends.
//
// Contract for a plugin with PreFilter state (InterPodAffinity,
// PodTopologySpread...): the state describes the cluster as PreFilter saw
// it. Check must read what runs on the node it is asked about from the
// NodeState it is handed, never from the state alone: preemption's dry run
// hands it a copy with victims removed and the nominator one with nominated
// pods added (upstream's PreFilterExtensions AddPod/RemovePod). The usual
// way: keep in the state each node's own contribution, and in Check take
// it off and add what `state.pods` gives.
#ifndef GPUSCHED_SCHED_API_CYCLE_STATE_H_
#define GPUSCHED_SCHED_API_CYCLE_STATE_H_

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched {

class Plugin;

// One test of a Check that, on a node as PreFilter counted it, reads only
// a count of the node's topology domain: node i passes when it is in a
// domain (domain_of[i] >= 0) whose counts[d] is at most `max`, or in none
// and `pass_without_domain`.
struct DomainTest {
  const int32_t* domain_of = nullptr;
  const int64_t* counts = nullptr;  // by domain
  int64_t max = 0;
  bool pass_without_domain = false;

  bool Passes(size_t node) const {
    const int32_t d = domain_of[node];
    return d < 0 ? pass_without_domain : counts[d] <= max;
  }
};

// One plugin's PreFilter state; the plugin derives its own.
struct PreFilterData {
  virtual ~PreFilterData() = default;

  // The indexed scan's fast path (IndexedScan): when `by_domain` is set,
  // Check on node i of the ClusterState `tests_cluster` (the one PreFilter
  // was given), handed that cluster's own Node and NodeState of i while
  // its version() is still `tests_version`, passes exactly when every one
  // of `domain_tests` passes i. Their pointers are into this state. Unset:
  // only Check answers. The plain reference never reads them.
  bool by_domain = false;
  const void* tests_cluster = nullptr;
  uint64_t tests_version = 0;
  std::vector<DomainTest> domain_tests;

  // PreFilterResult.NodeNames (sorted, unique), when the plugin names the
  // only nodes the pod may go to (NodeAffinity for matchFields
  // metadata.name). Nodes outside it are not evaluated at all: CycleState
  // says so (Excludes) and the filter chain rejects them first.
  std::optional<std::vector<std::string>> node_names;
};

class CycleState {
 public:
  // `plugin_name`: the plugin's Name(), for the reason of the nodes a
  // PreFilterResult leaves out.
  void Put(const Plugin* plugin, std::unique_ptr<PreFilterData> data, std::string_view plugin_name = {}) {
    if (data && data->node_names) Restrict(plugin, *data->node_names, plugin_name);
    slots_.emplace_back(plugin, std::move(data));
    slot_names_.emplace_back(plugin_name);
  }
  // A node the PreFilterResults leave out (schedule_one.go
  // findNodesThatFitPod): UnschedulableAndUnresolvable with
  // exclusion_reason(), "node(s) didn't satisfy plugin(s) [NodeAffinity]",
  // before any filter runs on it.
  bool Excludes(std::string_view node) const {
    return restricted_by_ != nullptr && !std::binary_search(allowed_.begin(), allowed_.end(), node);
  }
  const Plugin* restricted_by() const { return restricted_by_; }
  const std::string& exclusion_reason() const { return exclusion_reason_; }
  // The state `plugin` put, as the type it put; nullptr when it put none
  // (its PreFilter skipped this pod).
  template <typename T>
  const T* Get(const Plugin* plugin) const {
    for (const auto& [p, d] : slots_)
      if (p == plugin) return static_cast<const T*>(d.get());
    return nullptr;
  }
  // The state `plugin` put, or nullptr.
  const PreFilterData* Data(const Plugin* plugin) const { return Get<PreFilterData>(plugin); }
  // The state the filter named `plugin_name` put, for the same plugin's
  // other instance (its ScorePlugin, made apart from its FilterPlugin):
  // nullptr when none.
  template <typename T>
  const T* GetByName(std::string_view plugin_name) const {
    for (size_t k = 0; k < slots_.size(); ++k)
      if (slot_names_[k] == plugin_name) return static_cast<const T*>(slots_[k].second.get());
    return nullptr;
  }
  bool empty() const { return slots_.empty(); }
  // Whether `plugin` put state (its Check then looks at more than the pod
  // and the node: FilterTraits do not hold for it).
  bool Has(const Plugin* plugin) const {
    for (const auto& [p, d] : slots_)
      if (p == plugin) return true;
    return false;
  }

 private:
  // PreFilterResult.Merge: the intersection of the plugins' node names.
  void Restrict(const Plugin* plugin, const std::vector<std::string>& names, std::string_view plugin_name) {
    if (restricted_by_ == nullptr) {
      allowed_ = names;
    } else {
      std::vector<std::string> both;
      std::set_intersection(allowed_.begin(), allowed_.end(), names.begin(), names.end(), std::back_inserter(both));
      allowed_ = std::move(both);
    }
    restricted_by_ = plugin;
    plugin_names_.emplace_back(plugin_name);
    std::sort(plugin_names_.begin(), plugin_names_.end());  // sets.List
    exclusion_reason_ = "node(s) didn't satisfy plugin(s) [";
    for (size_t k = 0; k < plugin_names_.size(); ++k) (exclusion_reason_ += k ? " " : "") += plugin_names_[k];
    exclusion_reason_ += "]";
  }

  // A few plugins at most: a linear search beats a map.
  std::vector<std::pair<const Plugin*, std::unique_ptr<PreFilterData>>> slots_;
  std::vector<std::string_view> slot_names_;  // parallel to slots_ (plugin names are static text)
  const Plugin* restricted_by_ = nullptr;
  std::vector<std::string> allowed_, plugin_names_;
  std::string exclusion_reason_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_CYCLE_STATE_H_
