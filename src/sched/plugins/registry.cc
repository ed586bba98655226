// The registry's rows (registry.h). Extension points as each plugin's
// `var _ fwk.XPlugin = &P{}` assertions declare them in v1.35.
#include "gpusched/sched/plugins/registry.h"

#include <algorithm>
#include <utility>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/plugins/coscheduling/coscheduling.h"
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"
#include "gpusched/sched/plugins/gpushare/gpu_share.h"
#include "gpusched/sched/plugins/imagelocality/image_locality.h"
#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"
#include "gpusched/sched/plugins/nodename/node_name.h"
#include "gpusched/sched/plugins/nodeports/node_ports.h"
#include "gpusched/sched/plugins/nodevolumelimits/csi.h"
#include "gpusched/sched/plugins/noderesources/balanced_allocation.h"
#include "gpusched/sched/plugins/noderesources/fit.h"
#include "gpusched/sched/plugins/nodeunschedulable/node_unschedulable.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"
#include "gpusched/sched/plugins/tainttoleration/taint_toleration.h"
#include "gpusched/sched/plugins/volumebinding/volume_binding.h"
#include "gpusched/sched/plugins/volumerestrictions/volume_restrictions.h"
#include "gpusched/sched/plugins/volumezone/volume_zone.h"

namespace gpusched {
namespace {

template <typename P>
std::unique_ptr<Plugin> Make(const ResolvedProfile&) {
  return std::make_unique<P>();
}

std::unique_ptr<Plugin> MakePodTopologySpread(const ResolvedProfile& profile) {
  const PodTopologySpreadArgs* args = PluginArgsOf<PodTopologySpreadArgs>(profile, names::kPodTopologySpread);
  return std::make_unique<PodTopologySpread>(args ? *args : PodTopologySpreadArgs{});
}

std::unique_ptr<Plugin> MakeNodeAffinity(const ResolvedProfile& profile) {
  const NodeAffinityArgs* args = PluginArgsOf<NodeAffinityArgs>(profile, names::kNodeAffinity);
  return std::make_unique<NodeAffinityPlugin>(args ? *args : NodeAffinityArgs{});
}

std::unique_ptr<Plugin> MakeNodeResourcesFit(const ResolvedProfile& profile) {
  // The profile's args are defaulted already; a profile built by hand may not be.
  NodeResourcesFitArgs args = profile.fit_args;
  SetDefaultsNodeResourcesFitArgs(args);
  return std::make_unique<NodeResourcesFit>(args);
}

std::unique_ptr<Plugin> MakeBalancedAllocation(const ResolvedProfile& profile) {
  NodeResourcesBalancedAllocationArgs args = profile.balanced_args;
  SetDefaultsNodeResourcesBalancedAllocationArgs(args);
  return std::make_unique<NodeResourcesBalancedAllocation>(args);
}

std::unique_ptr<Plugin> MakeInterPodAffinity(const ResolvedProfile& profile) {
  const InterPodAffinityArgs* args = PluginArgsOf<InterPodAffinityArgs>(profile, names::kInterPodAffinity);
  return std::make_unique<InterPodAffinity>(args ? *args : InterPodAffinityArgs{});
}

std::unique_ptr<Plugin> MakeDynamicResources(const ResolvedProfile& profile) {
  return std::make_unique<DynamicResources>(profile.dra_features);
}

std::vector<PluginRegistration> InTreeRows() {
  using namespace names;  // the rows read as upstream's table
  // NodeDeclaredFeatures and GangScheduling are alpha in v1.35 (their feature
  // gates are off, so they are not default plugins); they are registered and
  // can be enabled.
  return {
      {{kSchedulingGates, kPreEnqueue}},
      {{kPrioritySort, kQueueSort}},
      {{kNodeUnschedulable, kFilter}, Make<NodeUnschedulable>},
      {{kNodeName, kFilter}, Make<NodeName>},
      {{kTaintToleration, kFilter | kPreScore | kScore}, Make<TaintToleration>},
      {{kNodeAffinity, kPreFilter | kFilter | kPreScore | kScore, DecodeNodeAffinityArgs}, MakeNodeAffinity},
      {{kNodePorts, kPreFilter | kFilter}, Make<NodePorts>},
      {{kNodeResourcesFit, kPreFilter | kFilter | kPreScore | kScore, DecodeNodeResourcesFitArgs},
       MakeNodeResourcesFit},
      {{kVolumeRestrictions, kPreFilter | kFilter}, Make<VolumeRestrictions>},
      {{kNodeVolumeLimits, kPreFilter | kFilter}, Make<CSILimits>},
      {{kVolumeBinding, kPreFilter | kFilter | kReserve | kPreBind | kPreScore | kScore}, Make<VolumeBinding>},
      {{kVolumeZone, kPreFilter | kFilter}, Make<VolumeZone>},
      {{kPodTopologySpread, kPreFilter | kFilter | kPreScore | kScore, DecodePodTopologySpreadArgs},
       MakePodTopologySpread},
      {{kInterPodAffinity, kPreFilter | kFilter | kPreScore | kScore, DecodeInterPodAffinityArgs},
       MakeInterPodAffinity},
      {{kDynamicResources, kPreEnqueue | kPreFilter | kFilter | kPostFilter | kReserve | kPreBind | kScore},
       MakeDynamicResources},
      {{kDefaultPreemption, kPostFilter}},
      {{kNodeResourcesBalancedAllocation, kPreScore | kScore, DecodeNodeResourcesBalancedAllocationArgs},
       MakeBalancedAllocation},
      {{kImageLocality, kScore}, Make<ImageLocality>},
      {{kDefaultBinder, kBind}},
      {{kNodeDeclaredFeatures, kPreFilter | kFilter}},
      {{kGangScheduling, kPreEnqueue | kReserve | kPermit}},
      // Not in-tree: scheduler-plugins' Coscheduling (pkg/coscheduling/
      // coscheduling.go: QueueSort, PreFilter, PostFilter, Permit, Reserve).
      // A configuration naming it is one for a scheduler-plugins build of
      // kube-scheduler, whose registry is the in-tree one plus its plugins
      // (cmd/scheduler/main.go app.WithPlugin); gpusched reads it as such.
      // Its Permit is the framework's (sched/framework/gang_serving.h).
      {{kCoscheduling, kQueueSort | kPreFilter | kPostFilter | kPermit | kReserve, DecodeCoschedulingArgs}},
      {{kGpuShare, kFilter}, Make<GpuShare>, /*internal=*/true},
  };
}

// Converts `p` to the extension point's interface, or drops it.
template <typename Point>
std::unique_ptr<Point> As(std::unique_ptr<Plugin> p) {
  auto* point = dynamic_cast<Point*>(p.get());
  if (point == nullptr) return nullptr;
  p.release();
  return std::unique_ptr<Point>(point);
}

}  // namespace

PluginRegistry::PluginRegistry(std::vector<PluginRegistration> rows) : rows_(std::move(rows)) {
  for (const PluginRegistration& r : rows_)
    if (!r.internal) catalog_.push_back(r.plugin);
}

const PluginRegistry& PluginRegistry::InTree() {
  static const PluginRegistry kInTree(InTreeRows());
  return kInTree;
}

PluginRegistry PluginRegistry::With(PluginRegistration row) const {
  std::vector<PluginRegistration> rows = rows_;
  auto same = [&](const PluginRegistration& r) { return std::string_view(r.plugin.name) == row.plugin.name; };
  if (auto it = std::find_if(rows.begin(), rows.end(), same); it != rows.end()) {
    *it = row;
  } else {
    rows.push_back(row);
  }
  return PluginRegistry(std::move(rows));
}

const PluginRegistration* PluginRegistry::Find(std::string_view name) const {
  for (const PluginRegistration& r : rows_)
    if (name == r.plugin.name) return &r;
  return nullptr;
}

std::unique_ptr<FilterPlugin> PluginRegistry::NewFilter(std::string_view name, const ResolvedProfile& profile) const {
  const PluginRegistration* r = Find(name);
  if (r == nullptr || r->make == nullptr) return nullptr;
  return As<FilterPlugin>(r->make(profile));
}

std::unique_ptr<ScorePlugin> PluginRegistry::NewScore(std::string_view name, const ResolvedProfile& profile) const {
  const PluginRegistration* r = Find(name);
  if (r == nullptr || r->make == nullptr) return nullptr;
  return As<ScorePlugin>(r->make(profile));
}

const std::vector<InTreePlugin>& InTreePlugins() { return PluginRegistry::InTree().Catalog(); }

std::optional<uint32_t> PluginExtensionPoints(std::string_view name) {
  const PluginRegistration* r = PluginRegistry::InTree().Find(name);
  if (r == nullptr || r->internal) return std::nullopt;
  return r->plugin.extension_points;
}

ResolvedProfile ResolveProfile(const KubeSchedulerConfiguration& config, size_t profile_index) {
  return ResolveProfile(config, profile_index, InTreePlugins());
}

std::optional<std::string> FrameworkError(const KubeSchedulerConfiguration& config, size_t profile_index) {
  return FrameworkError(config, profile_index, InTreePlugins());
}

std::unique_ptr<FilterPlugin> NewFilterPlugin(std::string_view name) {
  return PluginRegistry::InTree().NewFilter(name, ResolvedProfile{});
}

std::unique_ptr<ScorePlugin> NewScorePlugin(std::string_view name, const ResolvedProfile& profile) {
  return PluginRegistry::InTree().NewScore(name, profile);
}

}  // namespace gpusched
