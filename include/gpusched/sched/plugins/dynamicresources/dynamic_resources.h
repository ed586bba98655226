// kube-scheduler's DynamicResources plugin (Dynamic Resource Allocation, GA
// since v1.34; pkg/scheduler/framework/plugins/dynamicresources/
// dynamicresources.go, v1.35), with the structured allocator
// (allocator.h):
//   - PreFilter: Skip for a pod without claims. Resolves its claims
//     (pod_claims.h; a failure is UnschedulableAndUnresolvable with
//     upstream's text); "resourceclaim in use" for an allocated claim whose
//     reservedFor is full (256) and does not hold the pod; every device
//     class that a request of an unallocated claim names must exist
//     ("request <req>: device class <class> does not exist", a subrequest
//     named "<req>/<sub>"); a claim with firstAvailable without the
//     DRAPrioritizedList gate is "resource claim <ns>/<c>, request <r>: has
//     subrequests, but the DRAPrioritizedList feature is disabled".
//   - Filter: the unallocated claims must all be allocatable on the node
//     ("cannot allocate all claims"), and each allocated claim's node
//     selector must admit it ("resourceclaim not available on the node");
//     both UnschedulableAndUnresolvable (v1.35: DefaultPreemption skips
//     such nodes). An allocator error (a CEL runtime error, a request that
//     cannot be met) aborts the attempt upstream (status Error); gpusched
//     reports it as the node's reason instead, the same on every node. The
//     filter timeout (10 s) is a step limit: "timed out trying to allocate devices".
//   - Reserve: the chosen node's allocation is recorded in the cluster
//     (ClusterState::mutable_dra_allocations), the pod reserves its
//     allocated claims; later pods see those devices taken.
//   - Score: DRAPrioritizedList's preference for earlier subrequests.
// Not modelled: PostFilter's deallocation, the filter timeout, binding
// conditions (PreBind), DRAExtendedResource's claims for extended resources.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/dynamicresources/allocator.h"
#include "gpusched/sched/plugins/dynamicresources/pod_claims.h"

namespace gpusched {

inline constexpr const char* kReasonCannotAllocateAllClaims = "cannot allocate all claims";
inline constexpr const char* kReasonClaimNotAvailableOnNode = "resourceclaim not available on the node";
inline constexpr const char* kReasonClaimInUse = "resourceclaim in use";
inline constexpr const char* kReasonAllocationTimedOut = "timed out trying to allocate devices";
// The allocator's steps per node (Allocator::SetStepLimit), gpusched's
// deterministic stand-in for DRASchedulerFilterTimeout's 10 s: a search
// past it fails the node with kReasonAllocationTimedOut.
inline constexpr int64_t kAllocationStepLimit = 1000000;
// resourceapi.ResourceClaimReservedForMaxSize.
inline constexpr size_t kResourceClaimReservedForMaxSize = 256;

// One claim of a pod on one node: its devices (allocated now, or before).
struct ClaimDevices {
  std::string pod_claim_name;
  std::string claim;  // "namespace/name"
  std::vector<DeviceRequestAllocationResult> results;
};

class DynamicResources : public FilterPlugin, public ScorePlugin {
 public:
  explicit DynamicResources(DraFeatures features = {});

  // What the allocator answered for the pod's claims on a node that passed:
  // the allocation (one result per claim to allocate) and computeScore of it.
  struct NodeAnswer {
    std::shared_ptr<const std::vector<AllocationResult>> results;
    int64_t score = 0;
  };
  // The slice index and the memo of one cluster's objects
  // (dynamic_resources_memo.cc).
  struct Generation;

  struct State : PreFilterData {
    PodClaims claims;
    std::vector<const ResourceClaim*> to_allocate;  // unallocated, in the pod's order
    std::vector<size_t> to_allocate_index;           // their index in claims.claims
    const DraObjects* objects = nullptr;
    const AllocatedState* allocated = nullptr;
    const ClaimAllocations* allocations = nullptr;
    // The node selectors of the pod's claims allocated already, in the
    // pod's order: found once here rather than looked up per node.
    std::vector<const std::vector<NodeSelectorTerm>*> allocated_selectors;
    std::shared_ptr<Generation> generation;
    // The templates the claims to allocate were made from, when every one
    // was (the memo's key: such pods get the same answer on a node whose
    // pools hold the same devices); empty otherwise (never memoized).
    std::vector<const void*> signature;
    // The memo answers (set_memoize and a signature): Score and Reserve
    // read Filter's answers from it, else from node_answers.
    bool memoized = false;
    // Filter's answer for each node that passed (upstream's
    // nodeAllocations) when not memoized: Score's input, and what Reserve
    // records on the chosen node without allocating again.
    mutable std::mutex mu;
    mutable std::unordered_map<std::string, NodeAnswer> node_answers;
  };

  // On (the default): a node's answer for claims of the same templates is
  // kept against the stamps of the pools the node reaches
  // (ClaimAllocations::PoolStamp) and reused while they are unchanged. Off:
  // the allocator runs for every node and pod, the plain reference the
  // memo is tested against.
  void set_memoize(bool on) { memoize_ = on; }

  std::string_view Name() const override { return names::kDynamicResources; }
  bool HasPreFilter() const override { return true; }
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // Pods it skips (no claims) pass everywhere.
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // A node's devices and the claims holding them decide, not the pods the
  // node runs (v1.35 has no DRA preemption): a rejection holds whatever is evicted.
  int NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;
  // For `gpusched explain` (dra_explain.cc): per request of each claim to
  // allocate, how many of the node's devices its class and selectors admit,
  // which are taken and by which claim, the first CEL error on a device;
  // the claims' matchAttribute constraints; an allocated claim whose
  // devices are elsewhere.
  std::string ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const override;

  // Reserve on `node` (after Check passed there in the same attempt):
  // records the allocations in `cluster` and returns the pod's claims with
  // their devices, in spec.resourceClaims order.
  std::vector<ClaimDevices> Reserve(const PodInfo& pod, ClusterState& cluster, size_t node) const;

  // Score (DRAPrioritizedList): for each firstAvailable request of a claim
  // allocated on the node, 8 - the index of the subrequest chosen
  // (resourceapi.FirstAvailableDeviceRequestMaxSize - i, computeScore);
  // NormalizeScore is DefaultNormalizeScore(100). Pods without such
  // requests skip (PreScore false), as their score is 0 everywhere.
  bool PreScore(const PodInfo& pod, const ClusterState& cluster) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;

  const DraFeatures& features() const { return features_; }

 private:
  // The slices node `name` may reach: its own (spec.nodeName) and every
  // slice with a node selector, allNodes or per-device selection.
  const std::vector<const ResourceSlice*>& SlicesFor(const State& s, const std::string& node) const;
  // Allocate for `node`: results, nullopt (cannot), or the error text.
  // `in_use` replaces the devices in use PreFilter saw (nullptr: those).
  Result<std::optional<std::vector<AllocationResult>>> Allocate(const State& s, const Node& node,
                                                                const AllocatedState* in_use) const;
  // Filter's answer on `node` for the claims to allocate: the allocation
  // (results null when they cannot all be allocated) or Allocate's error;
  // from the memo when it holds the answer for the node's current pools.
  Result<NodeAnswer> AnswerFor(const State& s, const Node& node) const;
  // The index and memo for `cluster`'s objects, made anew when they changed.
  std::shared_ptr<Generation> GenerationFor(const ClusterState& cluster) const;
  // NeverPasses' reasons.
  static constexpr int kNeverNoDevices = 1;
  static constexpr int kNeverClaimElsewhere = 2;
  std::string_view Intern(std::string text) const;

  DraFeatures features_;
  bool memoize_ = true;
  mutable cel::SelectorCache cache_;
  mutable std::mutex mu_;  // guards generation_ and the interned texts
  mutable std::shared_ptr<Generation> generation_;
  mutable std::deque<std::string> texts_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
