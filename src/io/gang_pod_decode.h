// Decoding the pod fields gangs and preemption read (model/pod.h's
// PodSpecExtras): spec.terminationGracePeriodSeconds,
// spec.workloadRef (v1.35) and spec.schedulingGroup (v1.36). Private to
// src/io; called by DecodePodSpecExtras.
#ifndef GPUSCHED_IO_GANG_POD_DECODE_H_
#define GPUSCHED_IO_GANG_POD_DECODE_H_

#include <string>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// Reads the three fields of `spec` into `extras`. The default grace period
// (30) is not stored, so that a dumped pod, which always carries it, costs
// nothing; a negative one is kept as 1 with the API server's warning
// ("must be >= 0; negative values are invalid and will be treated as 1",
// pkg/api/pod/warnings.go).
void DecodeGangPodFields(DecodeContext& ctx, const DocNode& spec, const std::string& path, PodSpecExtras& extras);

}  // namespace gpusched

#endif  // GPUSCHED_IO_GANG_POD_DECODE_H_
