// Resources: the integer resource vector the scheduler works with, the
// counterpart of kube-scheduler's framework.Resource
// (pkg/scheduler/framework/types.go): cpu in milli-units, everything else in
// whole units (Quantity::Value(), rounded up), extended resources as a small
// sorted vector of scalars. ResourceList is the API-level map of name to
// Quantity that manifests carry.
#ifndef GPUSCHED_MODEL_RESOURCES_H_
#define GPUSCHED_MODEL_RESOURCES_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/quantity.h"

namespace gpusched {

inline constexpr std::string_view kResourceCPU = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";
// The resource the NVIDIA device plugin advertises: whole GPUs.
inline constexpr std::string_view kResourceGPU = "nvidia.com/gpu";

// API-level resource map, sorted by name so iteration is deterministic
// (upstream iterates Go maps in random order; we pick sorted order).
using ResourceList = std::map<std::string, Quantity, std::less<>>;

// Resource-name classification, as k8s.io/kubernetes/pkg/apis/core/helper and
// pkg/api/v1/resource helpers define it.
bool IsHugePageResourceName(std::string_view name);
bool IsNativeResource(std::string_view name);     // no '/' or a kubernetes.io/ prefix
bool IsExtendedResourceName(std::string_view name);
bool IsPrefixedNativeResource(std::string_view name);
// Scalar resources are tracked by name in Resources::scalars (extended,
// hugepages-*, prefixed native, attachable volumes).
bool IsScalarResourceName(std::string_view name);
bool IsStandardContainerResourceName(std::string_view name);
// Extended resources and hugepages may not be overcommitted (requests must equal limits).
bool IsOvercommitAllowed(std::string_view name);
// Integer resources: extended resources and the standard quota counts.
bool IsIntegerResourceName(std::string_view name);

struct Resources {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pods = 0;  // meaningful for node allocatable only
  std::vector<std::pair<std::string, int64_t>> scalars;  // sorted by name, no duplicates

  // Converts an API list: cpu by MilliValue(), the rest by Value(); names that
  // are neither standard nor scalar are ignored, as framework.Resource.Add does.
  static Resources FromList(const ResourceList& list);

  int64_t Scalar(std::string_view name) const;
  bool HasScalar(std::string_view name) const;
  void SetScalar(std::string_view name, int64_t value);
  void AddScalar(std::string_view name, int64_t value);

  // Value of any resource by its API name (cpu in milli); 0 when absent.
  int64_t Get(std::string_view name) const;

  // Saturating element-wise arithmetic (scalars are merged by name).
  void Add(const Resources& o);
  void Sub(const Resources& o);
  void Max(const Resources& o);

  bool operator==(const Resources& o) const = default;
};

// Saturating int64 addition/subtraction: a 2^40-GPU node or a 2^63-milli-cpu
// request must never wrap around.
// Inline: the scheduler's resource checks call them per node.
inline int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
inline int64_t SatSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN;
  return r;
}

// Human-readable amount of a resource, used in messages: cpu as cores with
// milli precision (1500 milli -> "1.5"), memory-like amounts with the largest
// exact binary suffix ("64Gi"), others as integers.
std::string FormatAmount(std::string_view resource, int64_t value);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_RESOURCES_H_
