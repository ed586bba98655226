// Taint and Toleration, as core/v1 defines them, and the matching rule of
// k8s.io/api/core/v1/toleration.go ToleratesTaint.
#ifndef GPUSCHED_MODEL_TAINT_H_
#define GPUSCHED_MODEL_TAINT_H_

#include <string>
#include <vector>

namespace gpusched {

inline constexpr const char* kTaintEffectNoSchedule = "NoSchedule";
inline constexpr const char* kTaintEffectPreferNoSchedule = "PreferNoSchedule";
inline constexpr const char* kTaintEffectNoExecute = "NoExecute";
// The taint the node lifecycle controller puts on cordoned nodes.
inline constexpr const char* kTaintNodeUnschedulable = "node.kubernetes.io/unschedulable";

struct Taint {
  std::string key;
  std::string value;
  std::string effect;
};

struct Toleration {
  std::string key;
  std::string op;  // "Equal" or "Exists"; empty means Equal
  std::string value;
  std::string effect;  // empty matches every effect
  bool operator==(const Toleration&) const = default;
};

// True when `t` tolerates `taint` (upstream Toleration.ToleratesTaint).
bool ToleratesTaint(const Toleration& t, const Taint& taint);
bool TolerationsTolerateTaint(const std::vector<Toleration>& ts, const Taint& taint);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_TAINT_H_
