// spec.topologySpreadConstraints (core/v1 TopologySpreadConstraint): what
// PodTopologySpread reads, the API server's merge of matchLabelKeys into the
// labelSelector at pod creation (pkg/registry/core/pod/strategy.go
// mutateTopologySpreadConstraints, MatchLabelKeysInPodTopologySpread-
// SelectorMerge, beta and on since v1.33), and the API server's validation
// (pkg/apis/core/validation validateTopologySpreadConstraints).
//
// Also the objects whose selectors give the plugin's default constraints
// (helper.DefaultSelector): Services, ReplicationControllers, ReplicaSets
// and StatefulSets, as ApiObjects keeps them.
#ifndef GPUSCHED_MODEL_TOPOLOGY_SPREAD_H_
#define GPUSCHED_MODEL_TOPOLOGY_SPREAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/label_selector.h"

namespace gpusched {

struct Pod;

inline constexpr const char* kDoNotSchedule = "DoNotSchedule";
inline constexpr const char* kScheduleAnyway = "ScheduleAnyway";
inline constexpr const char* kNodeInclusionHonor = "Honor";
inline constexpr const char* kNodeInclusionIgnore = "Ignore";
inline constexpr const char* kLabelHostname = "kubernetes.io/hostname";
inline constexpr const char* kLabelTopologyZone = "topology.kubernetes.io/zone";

struct TopologySpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable;
  // nullopt: labelSelector absent or null, which matches no pod
  // (LabelSelectorAsSelector(nil) is labels.Nothing()).
  std::optional<LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  std::string node_affinity_policy;  // "" when unset (Honor)
  std::string node_taints_policy;    // "" when unset (Ignore)
  std::vector<std::string> match_label_keys;
};

// mutateTopologySpreadConstraints: for each constraint with matchLabelKeys
// and a labelSelector, `key In (value)` for each key the pod has a label
// for, appended to the selector's matchExpressions. A requirement already
// there as merged (a pod dumped from a cluster that merged it) is not
// added twice. Done where a Pod is created: decoding a Pod, and the pods
// controllers create from their templates.
void ApplyMatchLabelKeys(Pod& pod);

// validateTopologySpreadConstraints with the v1.35 options (the merge
// rule for matchLabelKeys, validateMatchLabelKeysAndMismatchLabelKeys),
// appending to `errs`; `path` is "spec.topologySpreadConstraints".
void ValidateTopologySpreadConstraints(const std::vector<TopologySpreadConstraint>& constraints,
                                       const std::string& path, std::vector<FieldError>& errs);

// A Service's spec.selector (nullopt: absent, which selects nothing).
struct ServiceSelector {
  std::string ns;
  std::string name;
  std::optional<LabelMap> selector;
};

// A ReplicationController's, ReplicaSet's or StatefulSet's selector, found
// by the pod's controller reference (kind and name in its namespace).
struct ControllerSelector {
  std::string kind;         // "ReplicationController", "ReplicaSet", "StatefulSet"
  std::string api_version;  // "v1", "apps/v1"
  std::string ns;
  std::string name;
  // The RC's spec.selector (a map) as matchLabels; the RS's and SS's
  // LabelSelector. nullopt: absent (a set-based selector that is nil
  // selects nothing: LabelSelectorAsSelector(nil)).
  std::optional<LabelSelector> selector;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_TOPOLOGY_SPREAD_H_
