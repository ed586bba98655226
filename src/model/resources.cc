#include "gpusched/model/resources.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr std::string_view kDefaultNamespacePrefix = "kubernetes.io/";
constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kHugePagesPrefix = "hugepages-";
constexpr std::string_view kAttachableVolumePrefix = "attachable-volumes-";

}  // namespace

// k8s.io/kubernetes/pkg/apis/core/helper/helpers.go
bool IsHugePageResourceName(std::string_view name) { return StartsWith(name, kHugePagesPrefix); }

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos || name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

bool IsPrefixedNativeResource(std::string_view name) {
  return name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

bool IsExtendedResourceName(std::string_view name) {
  // The one extended resource every GPU node and pod names, known valid:
  // spares the name validation (and its string) on each of them.
  if (name == kResourceGPU) return true;
  if (IsNativeResource(name) || StartsWith(name, kRequestsPrefix)) return false;
  // It must still be a qualified name once turned into its quota name.
  return IsQualifiedName(std::string(kRequestsPrefix) + std::string(name)).empty();
}

bool IsScalarResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) || IsPrefixedNativeResource(name) ||
         StartsWith(name, kAttachableVolumePrefix);
}

bool IsStandardContainerResourceName(std::string_view name) {
  return name == kResourceCPU || name == kResourceMemory || name == kResourceEphemeralStorage ||
         IsHugePageResourceName(name);
}

bool IsOvercommitAllowed(std::string_view name) { return IsNativeResource(name) && !IsHugePageResourceName(name); }

bool IsIntegerResourceName(std::string_view name) {
  static constexpr std::string_view kStandardInteger[] = {
      "pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
      "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"};
  for (auto s : kStandardInteger)
    if (name == s) return true;
  return IsExtendedResourceName(name);
}

Resources Resources::FromList(const ResourceList& list) {
  Resources r;
  for (const auto& [name, q] : list) {
    if (name == kResourceCPU) {
      r.milli_cpu = q.MilliValue();
    } else if (name == kResourceMemory) {
      r.memory = q.Value();
    } else if (name == kResourceEphemeralStorage) {
      r.ephemeral_storage = q.Value();
    } else if (name == kResourcePods) {
      r.allowed_pods = q.Value();
    } else if (IsScalarResourceName(name)) {
      r.scalars.emplace_back(name, q.Value());  // std::map iterates sorted
    }
  }
  return r;
}

namespace {

// First scalar whose name is not less than `name` (scalars are sorted).
template <typename Vec>
auto LowerBound(Vec& scalars, std::string_view name) {
  return std::lower_bound(scalars.begin(), scalars.end(), name,
                          [](const auto& p, std::string_view n) { return p.first < n; });
}

// a == b for resource names: those of 8 to 16 bytes (nvidia.com/gpu has
// 14) are compared as two overlapping 8-byte words, without a memcmp call.
bool SameName(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  if (n < 8 || n > 16) return a == b;
  uint64_t a0, a1, b0, b1;
  std::memcpy(&a0, a.data(), 8);
  std::memcpy(&b0, b.data(), 8);
  std::memcpy(&a1, a.data() + n - 8, 8);
  std::memcpy(&b1, b.data() + n - 8, 8);
  return a0 == b0 && a1 == b1;
}

// Where `name` is, or -1. The scheduler asks for nvidia.com/gpu on every
// node it looks at, and a pod or node has one or two scalars: an equality
// scan (length first) beats a binary search of three-way string compares.
template <typename Vec>
ptrdiff_t Find(const Vec& scalars, std::string_view name) {
  for (size_t k = 0; k < scalars.size(); ++k)
    if (SameName(scalars[k].first, name)) return static_cast<ptrdiff_t>(k);
  return -1;
}

// Applies `op(mine, theirs)` to each of `from`'s scalars, inserting those
// `to` lacks (as 0 first), in one merge walk of the two sorted lists instead
// of a search per name.
template <typename Op>
void MergeScalars(std::vector<std::pair<std::string, int64_t>>& to,
                  const std::vector<std::pair<std::string, int64_t>>& from, Op op) {
  size_t j = 0;
  for (const auto& [n, v] : from) {
    // Equality first: the names usually match one for one.
    while (j < to.size() && !SameName(to[j].first, n) && to[j].first < n) ++j;
    if (j == to.size() || !SameName(to[j].first, n)) to.emplace(to.begin() + static_cast<ptrdiff_t>(j), n, 0);
    to[j].second = op(to[j].second, v);
    ++j;
  }
}

}  // namespace

int64_t Resources::Scalar(std::string_view name) const {
  const ptrdiff_t k = Find(scalars, name);
  return k < 0 ? 0 : scalars[static_cast<size_t>(k)].second;
}

bool Resources::HasScalar(std::string_view name) const { return Find(scalars, name) >= 0; }

void Resources::SetScalar(std::string_view name, int64_t value) {
  auto it = LowerBound(scalars, name);
  if (it != scalars.end() && it->first == name) {
    it->second = value;
  } else {
    scalars.emplace(it, std::string(name), value);
  }
}

void Resources::AddScalar(std::string_view name, int64_t value) { SetScalar(name, SatAdd(Scalar(name), value)); }

int64_t Resources::Get(std::string_view name) const {
  if (name == kResourceCPU) return milli_cpu;
  if (name == kResourceMemory) return memory;
  if (name == kResourceEphemeralStorage) return ephemeral_storage;
  if (name == kResourcePods) return allowed_pods;
  return Scalar(name);
}

void Resources::Add(const Resources& o) {
  milli_cpu = SatAdd(milli_cpu, o.milli_cpu);
  memory = SatAdd(memory, o.memory);
  ephemeral_storage = SatAdd(ephemeral_storage, o.ephemeral_storage);
  allowed_pods = SatAdd(allowed_pods, o.allowed_pods);
  if (&o == this) {  // every name is present: no insertion can move what we read
    for (auto& [n, v] : scalars) v = SatAdd(v, v);
    return;
  }
  MergeScalars(scalars, o.scalars, SatAdd);
}

void Resources::Sub(const Resources& o) {
  milli_cpu = SatSub(milli_cpu, o.milli_cpu);
  memory = SatSub(memory, o.memory);
  ephemeral_storage = SatSub(ephemeral_storage, o.ephemeral_storage);
  allowed_pods = SatSub(allowed_pods, o.allowed_pods);
  if (&o == this) {
    for (auto& [n, v] : scalars) v = SatSub(v, v);
    return;
  }
  MergeScalars(scalars, o.scalars, SatSub);
}

void Resources::Max(const Resources& o) {
  milli_cpu = std::max(milli_cpu, o.milli_cpu);
  memory = std::max(memory, o.memory);
  ephemeral_storage = std::max(ephemeral_storage, o.ephemeral_storage);
  allowed_pods = std::max(allowed_pods, o.allowed_pods);
  for (const auto& [n, v] : o.scalars) {
    if (!HasScalar(n) || Scalar(n) < v) SetScalar(n, v);
  }
}

std::string FormatAmount(std::string_view resource, int64_t value) {
  if (resource == kResourceMemory || resource == kResourceEphemeralStorage || IsHugePageResourceName(resource)) {
    static constexpr const char* kSuffix[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    int k = -1;
    int64_t v = value;
    while (v != 0 && v % 1024 == 0 && k < 5) {
      v /= 1024;
      ++k;
    }
    return k < 0 ? std::to_string(value) : std::to_string(v) + kSuffix[k];
  }
  if (resource != kResourceCPU) return std::to_string(value);
  // Work on the magnitude so that -500 milli prints "-0.5" (and INT64_MIN works).
  uint64_t mag = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string s = (value < 0 ? "-" : "") + std::to_string(mag / 1000);
  uint64_t frac = mag % 1000;
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f = std::string(3 - f.size(), '0') + f;
    while (!f.empty() && f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return s;
}

}  // namespace gpusched
