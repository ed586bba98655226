// The scheduler plugins' names, each written once (upstream keeps them in
// pkg/scheduler/framework/plugins/names/names.go, which the configuration's
// defaulting imports too). Config is the lowest layer that needs them: the
// default plugins and the args kinds of the v1 scheme are named here, the
// plugins and the registry (sched/plugins/registry.h) use the same constants.
#ifndef GPUSCHED_CONFIG_PLUGIN_NAMES_H_
#define GPUSCHED_CONFIG_PLUGIN_NAMES_H_

namespace gpusched::names {

// kube-scheduler v1.35's in-tree plugins (names.go).
inline constexpr const char kPrioritySort[] = "PrioritySort";
inline constexpr const char kDefaultBinder[] = "DefaultBinder";
inline constexpr const char kDefaultPreemption[] = "DefaultPreemption";
inline constexpr const char kDynamicResources[] = "DynamicResources";
inline constexpr const char kImageLocality[] = "ImageLocality";
inline constexpr const char kInterPodAffinity[] = "InterPodAffinity";
inline constexpr const char kNodeAffinity[] = "NodeAffinity";
inline constexpr const char kNodeName[] = "NodeName";
inline constexpr const char kNodePorts[] = "NodePorts";
inline constexpr const char kNodeResourcesBalancedAllocation[] = "NodeResourcesBalancedAllocation";
inline constexpr const char kNodeResourcesFit[] = "NodeResourcesFit";
inline constexpr const char kNodeUnschedulable[] = "NodeUnschedulable";
inline constexpr const char kNodeVolumeLimits[] = "NodeVolumeLimits";
inline constexpr const char kPodTopologySpread[] = "PodTopologySpread";
inline constexpr const char kSchedulingGates[] = "SchedulingGates";
inline constexpr const char kTaintToleration[] = "TaintToleration";
inline constexpr const char kVolumeBinding[] = "VolumeBinding";
inline constexpr const char kVolumeRestrictions[] = "VolumeRestrictions";
inline constexpr const char kVolumeZone[] = "VolumeZone";
inline constexpr const char kNodeDeclaredFeatures[] = "NodeDeclaredFeatures";
inline constexpr const char kGangScheduling[] = "GangScheduling";

// scheduler-plugins' Coscheduling (pkg/coscheduling), read as a
// scheduler-plugins build of kube-scheduler registers it.
inline constexpr const char kCoscheduling[] = "Coscheduling";

// gpusched's own device-level GPU filter, appended to every profile.
inline constexpr const char kGpuShare[] = "GpuShare";

}  // namespace gpusched::names

#endif  // GPUSCHED_CONFIG_PLUGIN_NAMES_H_
