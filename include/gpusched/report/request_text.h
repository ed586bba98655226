// What a pod asks for, in words, for the table's pending groups and for
// `gpusched explain`: its resource requests and its GPU share, spelled as
// the annotation it came from ("0.3 of a GPU (alibabacloud.com/gpu-milli:
// 300), 2 cpu, 8Gi memory"), and GPU amounts in GPUs from milli-GPU.
#ifndef GPUSCHED_REPORT_REQUEST_TEXT_H_
#define GPUSCHED_REPORT_REQUEST_TEXT_H_

#include <cstdint>
#include <string>

#include "gpusched/model/gpu_request.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"

namespace gpusched {

// "3", "0.3", "16.875": an amount of milli-GPU in GPUs, without trailing zeros.
std::string FormatGpuMilli(int64_t milli);

// Whole GPUs in milli-GPU, saturating.
int64_t GpusToMilli(int64_t gpus);

// The milli-GPU a pod holds when placed: whole GPUs x 1000, or its share
// on each of its devices.
int64_t GpuMilliOf(const GpuRequest& gpu);

// "3 nvidia.com/gpu, 4 cpu, 16Gi memory"; a GPU share first, as its
// annotation spells it; "nothing (a best-effort pod)" when it asks for
// nothing at all. `requests` and `gpu` are the pod's, as its PodInfo holds
// them (BatchResult::pod_infos).
std::string DescribeRequests(const Pod& pod, const Resources& requests, const GpuRequest& gpu);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_REQUEST_TEXT_H_
