#include "gpusched/model/gpu_request.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "gpusched/model/pod_requests.h"

namespace gpusched {
namespace {

const std::string* Annotation(const Pod& pod, std::string_view key) {
  auto it = pod.meta.annotations.find(key);
  return it == pod.meta.annotations.end() ? nullptr : &it->second;
}

// A decimal integer with nothing around it.
bool ParseInt(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// KAI parses gpu-fraction with strconv.ParseFloat.
bool ParseFraction(std::string_view s, double& out) {
  if (s.empty() || s.size() > 64) return false;
  std::string buf(s);
  char* end = nullptr;
  out = std::strtod(buf.c_str(), &end);
  return end == buf.c_str() + buf.size() && std::isfinite(out);
}

std::vector<std::string> SplitModels(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t bar = list.find('|', start);
    if (bar == std::string_view::npos) bar = list.size();
    if (bar > start) out.emplace_back(list.substr(start, bar - start));
    start = bar + 1;
  }
  return out;
}

std::string AnnotationPath(std::string_view meta_path, std::string_view key) {
  return std::string(meta_path) + ".annotations[" + std::string(key) + "]";
}

}  // namespace

bool GpuRequest::AllowsModel(std::string_view model) const {
  if (models.empty()) return true;
  for (const auto& m : models)
    if (m == model) return true;
  return false;
}

int32_t GpuRequest::MilliOn(int64_t node_gpu_memory_mib) const {
  if (memory_mib <= 0) return milli;
  if (node_gpu_memory_mib <= 0 || memory_mib > node_gpu_memory_mib) return 0;
  // Both are at most ~8.8e12 (a label in bytes is divided down to MiB), so
  // the product cannot overflow.
  return static_cast<int32_t>((memory_mib * kGpuMilli + node_gpu_memory_mib - 1) / node_gpu_memory_mib);
}

GpuRequest ComputeGpuRequest(const Pod& pod, int64_t whole_gpus) {
  GpuRequest r;
  if (const std::string* m = Annotation(pod, kAnnotationGpuCardModel)) r.models = SplitModels(*m);
  if (whole_gpus > 0) {
    r.milli = kGpuMilli;
    r.count = static_cast<int32_t>(std::min<int64_t>(whole_gpus, INT32_MAX));
    return r;
  }
  int64_t v = 0;
  const std::string* milli = Annotation(pod, kAnnotationGpuMilli);
  const std::string* count = Annotation(pod, kAnnotationGpuCount);
  if (milli || count) {
    r.from_annotations = true;
    r.milli = milli && ParseInt(*milli, v) && v >= 1 && v <= kGpuMilli ? static_cast<int32_t>(v) : kGpuMilli;
    r.count = count && ParseInt(*count, v) && v >= 1 && v <= INT32_MAX ? static_cast<int32_t>(v) : 1;
    return r;
  }
  double f = 0;
  if (const std::string* frac = Annotation(pod, kAnnotationKaiGpuFraction); frac && ParseFraction(*frac, f) && f > 0 &&
                                                                              f <= 1) {
    r.from_annotations = true;
    r.milli = static_cast<int32_t>(std::lround(f * kGpuMilli));
  } else if (const std::string* mem = Annotation(pod, kAnnotationKaiGpuMemory); mem && ParseInt(*mem, v) && v > 0) {
    r.from_annotations = true;
    r.memory_mib = v;
    r.milli = 1;
  }
  if (r.from_annotations) {
    const std::string* n = Annotation(pod, kAnnotationKaiNumDevices);
    r.count = n && ParseInt(*n, v) && v >= 1 && v <= INT32_MAX ? static_cast<int32_t>(v) : 1;
  }
  return r;
}

std::vector<FieldError> ValidateGpuAnnotations(const Pod& pod, std::string_view meta_path) {
  std::vector<FieldError> errs;
  const std::string* milli = Annotation(pod, kAnnotationGpuMilli);
  const std::string* count = Annotation(pod, kAnnotationGpuCount);
  const std::string* frac = Annotation(pod, kAnnotationKaiGpuFraction);
  const std::string* ndev = Annotation(pod, kAnnotationKaiNumDevices);
  const std::string* model = Annotation(pod, kAnnotationGpuCardModel);
  const std::string* mem = Annotation(pod, kAnnotationKaiGpuMemory);
  int64_t v = 0;
  if (milli && !(ParseInt(*milli, v) && v >= 1 && v <= kGpuMilli))
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationGpuMilli), *milli,
                                       "must be an integer from 1 to 1000 (milli-GPU per device)"));
  if (count && !(ParseInt(*count, v) && v >= 1 && v <= INT32_MAX))
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationGpuCount), *count,
                                       "must be a positive integer (number of GPU devices)"));
  double f = 0;
  if (frac && !(ParseFraction(*frac, f) && f > 0 && f <= 1))
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationKaiGpuFraction), *frac,
                                       "must be a number greater than 0 and at most 1 (fraction of one GPU)"));
  else if (frac && std::lround(f * kGpuMilli) < 1)
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationKaiGpuFraction), *frac,
                                       "must be at least 0.001 (gpusched tracks GPU shares in milli-GPU)"));
  if (ndev && !(ParseInt(*ndev, v) && v >= 1 && v <= INT32_MAX))
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationKaiNumDevices), *ndev,
                                       "must be a positive integer (number of GPU devices)"));
  // KAI's binder (gpu_request_validator.go) accepts ParseUint > 0.
  if (mem && !(ParseInt(*mem, v) && v > 0))
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationKaiGpuMemory), *mem,
                                       "must be a positive integer (MiB of GPU memory per device)"));
  if (ndev && !frac && !mem)
    errs.push_back(FieldError::Required(AnnotationPath(meta_path, kAnnotationKaiGpuFraction),
                                        "gpu-fraction-num-devices needs gpu-fraction or gpu-memory"));
  if ((milli || count) && frac)
    errs.push_back(FieldError::Forbidden(
        AnnotationPath(meta_path, kAnnotationKaiGpuFraction),
        "may not be combined with alibabacloud.com/gpu-milli or alibabacloud.com/gpu-count: give the GPU share once"));
  if (mem && frac)
    errs.push_back(FieldError::Forbidden(AnnotationPath(meta_path, kAnnotationKaiGpuMemory),
                                         "may not be combined with gpu-fraction: KAI-Scheduler refuses a pod that "
                                         "asks for both (\"cannot request both GPU and GPU memory\")"));
  if (mem && (milli || count))
    errs.push_back(FieldError::Forbidden(
        AnnotationPath(meta_path, kAnnotationKaiGpuMemory),
        "may not be combined with alibabacloud.com/gpu-milli or alibabacloud.com/gpu-count: give the GPU share once"));
  if (model && SplitModels(*model).empty())
    errs.push_back(FieldError::Invalid(AnnotationPath(meta_path, kAnnotationGpuCardModel), *model,
                                       "must name at least one GPU model (models are separated by |)"));
  if ((milli || count || frac || mem) && PodGpuRequest(ComputePodRequests(pod)) > 0) {
    std::string_view key = milli   ? kAnnotationGpuMilli
                           : count ? kAnnotationGpuCount
                           : frac  ? kAnnotationKaiGpuFraction
                                   : kAnnotationKaiGpuMemory;
    errs.push_back(FieldError::Forbidden(AnnotationPath(meta_path, key),
                                         "may not be combined with an nvidia.com/gpu request: ask for whole GPUs "
                                         "with nvidia.com/gpu or for a share with the annotation, not both"));
  }
  return errs;
}

std::string_view NodeGpuModel(const ObjectMeta& node_meta) {
  for (std::string_view key : {kLabelGpuCardModel, kLabelGpuProduct}) {
    auto it = node_meta.labels.find(key);
    if (it != node_meta.labels.end()) return it->second;
  }
  return {};
}

}  // namespace gpusched
