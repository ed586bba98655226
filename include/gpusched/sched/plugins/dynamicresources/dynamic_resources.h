// The Filter half of kube-scheduler's DynamicResources plugin (Dynamic
// Resource Allocation, GA since v1.34; pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go). gpusched does not allocate DRA
// devices yet, so a pod with spec.resourceClaims fails on every node with
// `cannot allocate all claims` (UnschedulableAndUnresolvable), what the
// plugin reports when no ResourceSlice device satisfies the claims. Its
// PreEnqueue and PreFilter, which need the input's resource.k8s.io objects
// and a profile's filter chain, are framework/dynamic_resources_verdict.h.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_

#include <string_view>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonCannotAllocateAllClaims = "cannot allocate all claims";

// Any pod with resource claims fails on every node. Not in any profile's
// chain (the scheduler never sees such pods); used to build their FitError
// and preemption text.
class DynamicResources : public FilterPlugin {
 public:
  std::string_view Name() const override { return names::kDynamicResources; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
