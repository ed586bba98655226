#include "gpusched/model/node_gpus.h"

#include <algorithm>
#include <charconv>

namespace gpusched {

Resources NodeAllocatableResources(const Node& node) {
  Resources r = Resources::FromList(node.EffectiveAllocatable());
  if (r.HasScalar(kResourceGPU) || !r.HasScalar(kResourceAlibabaGpuCount)) return r;
  const int64_t devices = r.Scalar(kResourceAlibabaGpuCount);
  std::erase_if(r.scalars, [](const auto& kv) { return kv.first == kResourceAlibabaGpuCount; });
  r.SetScalar(kResourceGPU, devices);
  return r;
}

int64_t NodeGpuMemoryMib(const ObjectMeta& node_meta) {
  auto it = node_meta.labels.find(kLabelGpuMemory);
  if (it == node_meta.labels.end()) return -1;
  // strconv.ParseInt(label, 10, 64).
  const std::string& s = it->second;
  int64_t v = 0;
  const char* begin = s.data();
  if (!s.empty() && s[0] == '+') ++begin;  // ParseInt accepts a sign
  auto [p, ec] = std::from_chars(begin, s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || begin == s.data() + s.size()) return -1;
  constexpr int64_t kTibInMib = 1024 * 1024;
  if (v >= kTibInMib) v /= kTibInMib;  // bytes, not MiB
  // Floored to whole hundreds "so there will not be 2 jobs that get same
  // bytes"; a negative or sub-100 value leaves 0, which nothing fits.
  return std::max<int64_t>(0, v - v % 100);
}

std::string_view MigProfile(std::string_view resource) {
  if (resource.substr(0, kMigResourcePrefix.size()) != kMigResourcePrefix) return {};
  return resource.substr(kMigResourcePrefix.size());
}

}  // namespace gpusched
