#include "gpusched/report/request_text.h"

#include <vector>

#include "gpusched/model/pod_requests.h"

namespace gpusched {
namespace {

std::string Annotation(const Pod& pod, std::string_view key) {
  auto it = pod.meta.annotations.find(std::string(key));
  return it == pod.meta.annotations.end() ? "" : std::string(key) + ": " + it->second;
}

// "0.3 of a GPU (alibabacloud.com/gpu-milli: 300)", "0.5 of a GPU on each of
// 2 devices (gpu-fraction: 0.5, gpu-fraction-num-devices: 2)", "2 whole
// GPUs (...)", with " of model A100 or H100" when it names models.
std::string DescribeShare(const Pod& pod, const GpuRequest& gpu) {
  std::string s;
  if (gpu.milli >= kGpuMilli) {
    s = std::to_string(gpu.count) + (gpu.count == 1 ? " whole GPU" : " whole GPUs");
  } else {
    s = FormatGpuMilli(gpu.milli) + " of a GPU";
    if (gpu.count > 1) s += " on each of " + std::to_string(gpu.count) + " devices";
  }
  std::vector<std::string> spelled;
  for (std::string_view key : {kAnnotationGpuMilli, kAnnotationGpuCount, kAnnotationKaiGpuFraction,
                               kAnnotationKaiNumDevices}) {
    if (std::string a = Annotation(pod, key); !a.empty()) spelled.push_back(std::move(a));
  }
  if (!spelled.empty()) {
    s += " (";
    for (size_t i = 0; i < spelled.size(); ++i) s += (i ? ", " : "") + spelled[i];
    s += ")";
  }
  return s;
}

}  // namespace

std::string FormatGpuMilli(int64_t milli) {
  const bool negative = milli < 0;
  // -(INT64_MIN) overflows; amounts that large never reach a report.
  const uint64_t m = negative ? 0 - static_cast<uint64_t>(milli) : static_cast<uint64_t>(milli);
  std::string s = std::to_string(m / 1000);
  if (uint64_t frac = m % 1000; frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 3 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return negative ? "-" + s : s;
}

int64_t GpusToMilli(int64_t gpus) {
  int64_t r;
  return __builtin_mul_overflow(gpus, int64_t{kGpuMilli}, &r) ? (gpus > 0 ? INT64_MAX : INT64_MIN) : r;
}

int64_t GpuMilliOf(const GpuRequest& gpu) { return gpu.any() ? gpu.total_milli() : 0; }

std::string DescribeRequests(const Pod& pod, const Resources& r, const GpuRequest& gpu) {
  std::vector<std::string> parts;
  if (gpu.any() && gpu.from_annotations) parts.push_back(DescribeShare(pod, gpu));
  for (const auto& [n, v] : r.scalars)
    if (v > 0) parts.push_back(FormatAmount(n, v) + " " + n);
  if (r.milli_cpu > 0) parts.push_back(FormatAmount(kResourceCPU, r.milli_cpu) + " cpu");
  if (r.memory > 0) parts.push_back(FormatAmount(kResourceMemory, r.memory) + " memory");
  if (r.ephemeral_storage > 0)
    parts.push_back(FormatAmount(kResourceEphemeralStorage, r.ephemeral_storage) + " ephemeral-storage");
  if (!gpu.models.empty()) {
    std::string models;
    for (size_t i = 0; i < gpu.models.size(); ++i)
      models += (i == 0 ? "" : i + 1 == gpu.models.size() ? " or " : ", ") + gpu.models[i];
    parts.push_back("GPU model " + models);
  }
  // DRA: the claims, by where they come from.
  for (const PodResourceClaim& c : pod.Extras().resource_claims)
    parts.push_back("resource claim " + c.name + " (" +
                    (c.resource_claim_name.empty() ? "from ResourceClaimTemplate " + c.resource_claim_template_name
                                                   : "ResourceClaim " + c.resource_claim_name) +
                    ")");
  if (parts.empty()) return "nothing (a best-effort pod)";
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

}  // namespace gpusched
