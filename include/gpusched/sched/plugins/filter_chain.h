// The in-tree Filter plugins gpusched implements, with kube-scheduler's names,
// reasons and status codes, and the default filter chain in kube-scheduler's
// order (pkg/scheduler/apis/config/v1/default_plugins.go).
#ifndef GPUSCHED_SCHED_PLUGINS_FILTER_CHAIN_H_
#define GPUSCHED_SCHED_PLUGINS_FILTER_CHAIN_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

// Reason strings (Kubernetes v1.35; see gpusched/sched/api/version.h).
inline constexpr const char* kReasonNodeUnschedulable = "node(s) were unschedulable";
inline constexpr const char* kReasonUntoleratedTaint = "node(s) had untolerated taint(s)";
inline constexpr const char* kReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector";
inline constexpr const char* kReasonTooManyPods = "Too many pods";
inline constexpr const char* kReasonNodeName = "node(s) didn't match the requested node name";

// gpusched's reasons for GPU devices (no upstream equivalent: kube-scheduler
// sees only the nvidia.com/gpu count).
inline constexpr const char* kReasonGpuModel = "node(s) didn't have the requested GPU model";
inline constexpr const char* kReasonGpuShare = "node(s) didn't have enough free GPU share";
// KAI's gpu-memory is sized against the node's nvidia.com/gpu.memory label
// (KAI itself says "node is not a gpu node or the gpu memory count on the
// node was not synced yet"); both are unresolvable.
inline constexpr const char* kReasonGpuMemoryUnknown =
    "node(s) didn't have the nvidia.com/gpu.memory label that gpu-memory is sized against";
inline constexpr const char* kReasonGpuMemoryTooSmall = "node(s) had GPUs with less memory than the requested gpu-memory";

// NodeName (plugins/nodename): a pod that names a node fits only there.
class NodeNameFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeName"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

// NodeResourcesFit's filter (pkg/scheduler/framework/plugins/noderesources/fit.go).
// NodeResourcesFitArgs.ignoredResources / ignoredResourceGroups name
// extended resources it does not check (e.g. ones an extender manages).
class NodeResourcesFitFilter : public FilterPlugin {
 public:
  NodeResourcesFitFilter() = default;
  NodeResourcesFitFilter(std::vector<std::string> ignored_resources, std::vector<std::string> ignored_groups)
      : ignored_resources_(std::move(ignored_resources)), ignored_groups_(std::move(ignored_groups)) {}
  std::string_view Name() const override { return "NodeResourcesFit"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // False for resources the args tell it to ignore.
  bool Checks(std::string_view resource) const { return !Ignored(resource); }
  FilterTraits Traits() const override {
    return {.in_tree = true, .checks_fit = true, .checks_gpu_count = Checks(kResourceGPU)};
  }

 private:
  bool Ignored(std::string_view resource) const;
  std::vector<std::string> ignored_resources_;
  std::vector<std::string> ignored_groups_;
};

// NodeUnschedulable (plugins/nodeunschedulable): cordoned nodes, unless the
// pod tolerates node.kubernetes.io/unschedulable:NoSchedule.
class NodeUnschedulableFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeUnschedulable"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

// TaintToleration's filter (plugins/tainttoleration): NoSchedule and
// NoExecute taints must be tolerated.
class TaintTolerationFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "TaintToleration"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

// NodeAffinity's filter (plugins/nodeaffinity), nodeSelector part.
class NodeAffinityFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeAffinity"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

// GpuShare: the device-level check of GPU requests, as the FGD simulator's
// Open-Gpu-Share filter and KAI-Scheduler's GPU sharing do it: the node's GPU
// model must be one the pod allows (alibabacloud.com/gpu-card-model), and a
// share (annotations) needs `count` devices with `milli` free each (for
// KAI's gpu-memory, the share it takes on this node: the node must carry the
// nvidia.com/gpu.memory label and GPUs at least that large). Whole
// nvidia.com/gpu counts are left to NodeResourcesFit, which sees shared
// devices as taken. Unresolvable when the node has too few devices at all.
class GpuShareFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "GpuShare"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true, .checks_devices = true}; }
};

// Why GpuShare can never pass `gpu` on a node whatever runs there, for the
// diagnosis: "GpuShare" (no GPU model the pod allows), "GpuMemoryLabel" (no
// nvidia.com/gpu.memory label for a KAI gpu-memory request),
// "GpuMemorySize" (GPUs smaller than it); nullptr when it may pass.
const char* GpuShareNeverFits(const GpuRequest& gpu, const NodeState& state);

// Creates a filter by its kube-scheduler name; nullptr when unknown.
std::unique_ptr<FilterPlugin> NewFilterPlugin(std::string_view name);
// The same, configured from a profile's plugin args.
std::unique_ptr<FilterPlugin> NewFilterPlugin(std::string_view name, const ResolvedProfile& profile);

// The filters of gpusched's simple policies (first-fit, best-fit, worst-fit)
// without a --config, in upstream order: NodeUnschedulable, TaintToleration,
// NodeAffinity, NodeResourcesFit, then gpusched's GpuShare.
std::vector<std::unique_ptr<FilterPlugin>> DefaultFilters();

// True when every filter of the chain declares FilterTraits::in_tree (the
// filters above do): what they read of a pod is its class (pod_class.h), their verdicts
// beyond NodeResourcesFit and GpuShare's free share ignore what runs on a
// node, and a bind can only turn a node's verdict from pass to fail. The
// caches that rely on this (DiagnosisCache, the simulator's pod classes)
// serve other chains the plain way.
bool AllInTreeFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters);

// Runs `filters` in order and returns the first failure (upstream
// RunFilterPlugins stops at the first failing plugin), its plugin name set.
SchedStatus RunFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PodInfo& pod,
                       const Node& node, const NodeState& state);

// The same chain without building a status: true when every filter passes.
inline bool PassesFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PodInfo& pod,
                          const Node& node, const NodeState& state) {
  for (const auto& f : filters)
    if (!f->Check(pod, node, state, nullptr)) return false;
  return true;
}

// The same chain with the first failure's verdict in `why` (Reset first):
// the failing plugin, or nullptr when every filter passes.
inline const FilterPlugin* CheckFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                        const PodInfo& pod, const Node& node, const NodeState& state,
                                        FilterVerdict& why) {
  why.Reset();
  for (const auto& f : filters)
    if (!f->Check(pod, node, state, &why)) return f.get();
  return nullptr;
}

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_FILTER_CHAIN_H_
