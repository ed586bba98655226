// What a user who wrote `nvidia.com/gpu: 0.5` most likely wanted, in our
// words, after the API server's own "must be an integer" lines: a share of
// one GPU, and how to ask for it with the sharing mechanisms that exist
// (KAI-Scheduler's gpu-fraction, Alibaba's gpu-milli, MIG profiles,
// time-slicing replicas, a DRA claim). The API server's text stays as it is
// (it quotes the canonical "500m" and lists the request a limit defaulted);
// this only follows it.
#ifndef GPUSCHED_MODEL_FRACTIONAL_GPU_ADVICE_H_
#define GPUSCHED_MODEL_FRACTIONAL_GPU_ADVICE_H_

#include <string>
#include <vector>

#include "gpusched/model/field_error.h"

namespace gpusched {

// "" unless one of `errors` is the integer check failing on a GPU resource
// (a name with "gpu" in it) in a container's limits or requests; then one
// paragraph per such resource, lines separated by '\n' (list lines indented
// by two spaces), to append to the rejection's message after a '\n'.
std::string FractionalGpuAdvice(const std::vector<FieldError>& errors);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_FRACTIONAL_GPU_ADVICE_H_
