#include "gpusched/model/fractional_gpu_advice.h"

#include <set>
#include <string_view>

#include "gpusched/model/quantity.h"
#include "gpusched/util/ascii.h"

namespace gpusched {
namespace {

// "spec.containers[0].resources.limits[nvidia.com/gpu]" -> "nvidia.com/gpu";
// "" for any other field.
std::string ResourceOf(const std::string& field) {
  for (std::string_view part : {".resources.limits[", ".resources.requests["}) {
    const size_t at = field.find(part);
    if (at == std::string::npos || !field.ends_with("]")) continue;
    const size_t begin = at + part.size();
    return field.substr(begin, field.size() - 1 - begin);
  }
  return "";
}

bool NamesAGpu(std::string_view name) { return AsciiLower(name).find("gpu") != std::string::npos; }

// 500 -> "0.5", 1250 -> "1.25": the number as a user writes it.
std::string Decimal(int64_t milli) {
  std::string s = std::to_string(milli / 1000);
  int64_t frac = milli % 1000;
  if (frac == 0) return s;
  std::string digits = std::to_string(1000 + frac).substr(1);
  while (digits.back() == '0') digits.pop_back();
  return s + "." + digits;
}

std::string Advice(const std::string& resource, const std::string& canonical, int64_t milli) {
  const std::string amount = Decimal(milli);
  std::string s = "you asked for " + amount + " of " + resource + " (the API server writes " + amount + " as \"" +
                  canonical + "\", and a limit sets the request when none is given), but " + resource +
                  " counts whole devices: ";
  if (milli > 1000) {
    const int64_t up = (milli + 999) / 1000;
    return s + "ask for " + std::to_string(up - 1) + " or " + std::to_string(up) +
           ", or for a share of each of several devices with KAI-Scheduler's annotations gpu-fraction and "
           "gpu-fraction-num-devices (README \"Shared GPUs\")";
  }
  s += "a share of one GPU is asked for through a sharing mechanism instead:";
  s += "\n  KAI-Scheduler: annotation gpu-fraction: \"" + amount +
       "\" and schedulerName: kai-scheduler (gpusched places it on a device: README \"Shared GPUs\")";
  s += "\n  Alibaba GPU share (the FGD trace's spelling): annotations alibabacloud.com/gpu-milli: \"" +
       std::to_string(milli) + "\" and alibabacloud.com/gpu-count: \"1\" (gpusched places it on a device)";
  s += "\n  MIG: a partition is a resource of its own, e.g. nvidia.com/mig-3g.40gb: 1, on nodes whose device plugin "
       "advertises it (scheduled as the count the nodes advertise)";
  s += "\n  time-slicing or MPS: " + resource +
       ": 1 on nodes whose device plugin advertises each GPU as several replicas (scheduled as the count the "
       "nodes advertise, as kube-scheduler does)";
  s += "\n  DRA: a MIG device of the driver's mig.nvidia.com class, or one ResourceClaim that several pods name "
       "(gpusched allocates the devices: README \"GPUs through DRA\")";
  return s;
}

}  // namespace

std::string FractionalGpuAdvice(const std::vector<FieldError>& errors) {
  std::set<std::string> done;  // limits and requests of one resource: one paragraph
  std::string out;
  for (const FieldError& e : errors) {
    if (e.type != FieldError::Type::kInvalid || e.detail != "must be an integer") continue;
    const std::string resource = ResourceOf(e.field);
    if (resource.empty() || !NamesAGpu(resource) || !done.insert(resource).second) continue;
    // The value is rendered as JSON: "\"500m\"".
    const std::string canonical = e.value.size() >= 2 ? e.value.substr(1, e.value.size() - 2) : e.value;
    Result<Quantity> q = Quantity::Parse(canonical);
    if (!q.ok() || q->Sign() <= 0) continue;
    out += (out.empty() ? "" : "\n") + Advice(resource, canonical, q->MilliValue());
  }
  return out;
}

}  // namespace gpusched
