// Builders for the FGD paper policies' tests: nodes and pods the way the
// trace loader (siminput/trace_loader.h) makes them from the openb CSVs — whole
// GPUs as nvidia.com/gpu, GPU shares as the alibabacloud.com/gpu-milli and
// gpu-count annotations, models as alibabacloud.com/gpu-card-model.
#ifndef GPUSCHED_TESTS_SCHED_PAPER_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_PAPER_TEST_UTIL_H_

#include <string>

#include "gpusched/model/gpu_request.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched::testing {

inline Node TraceNode(const std::string& name, int64_t cpu_milli, int64_t gpus, const std::string& model,
                      int64_t memory_mib = 262144) {
  Node n;
  n.meta.name = name;
  n.has_allocatable = true;
  n.allocatable["cpu"] = Quantity::FromMilli(cpu_milli);
  n.allocatable["memory"] = Quantity::FromInt(memory_mib * 1024 * 1024, Quantity::Format::kBinarySI);
  n.allocatable["pods"] = Quantity::FromInt(1001);
  if (gpus > 0) n.allocatable["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  if (!model.empty()) n.meta.labels[std::string(kLabelGpuCardModel)] = model;
  return n;
}

// num_gpu GPUs of gpu_milli each (gpu_milli 1000: whole devices).
inline Pod TracePod(const std::string& name, int64_t cpu_milli, int64_t num_gpu = 0, int64_t gpu_milli = 0,
                    const std::string& spec = "", int64_t memory_mib = 1024) {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "default";
  Container c{"main", "img", {}, {}, ""};
  c.requests["cpu"] = Quantity::FromMilli(cpu_milli);
  c.requests["memory"] = Quantity::FromInt(memory_mib * 1024 * 1024, Quantity::Format::kBinarySI);
  if (num_gpu > 0 && gpu_milli >= 1000) {
    c.requests["nvidia.com/gpu"] = Quantity::FromInt(num_gpu);
    c.limits["nvidia.com/gpu"] = Quantity::FromInt(num_gpu);
  } else if (num_gpu > 0) {
    p.meta.annotations[std::string(kAnnotationGpuMilli)] = std::to_string(gpu_milli);
    p.meta.annotations[std::string(kAnnotationGpuCount)] = std::to_string(num_gpu);
  }
  if (!spec.empty()) p.meta.annotations[std::string(kAnnotationGpuCardModel)] = spec;
  p.containers.push_back(c);
  return p;
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_PAPER_TEST_UTIL_H_
