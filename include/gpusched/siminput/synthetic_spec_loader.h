// Loading a synthetic workload spec (sim/synthetic.h) from YAML:
//
//   apiVersion: gpusched.io/v1alpha1
//   kind: SyntheticWorkload
//   metadata: {name: demo}         # optional
//   seed: 7                        # optional: SyntheticSpec::seed
//   pods: 400
//   arrivalRatePerHour: 120        # or meanInterarrival: 30s (exactly one of the two)
//   duration: {median: 30m, sigma: 1.0}   # optional (absent: pods run forever); sigma defaults to 1
//   mix:
//   - {name: 1-gpu, weight: 60, gpus: 1, cpu: "8", memory: 32Gi}
//   - {name: half, weight: 10, gpuMilli: 500, cpu: "4", memory: 16Gi, gpuModels: [A100]}
//   - {name: long, weight: 5, gpus: 8, cpu: "64", memory: 256Gi, duration: {median: 4h, sigma: 0.5}}
//   - {name: dra, weight: 5, resourceClaimTemplate: one-gpu}   # DRA: a claim per pod from the template
//   nodeEvents:                    # optional
//   - {time: 2h, action: add, node: {metadata: {name: n9}, status: {allocatable: {...}}}}
//   - {time: 3h, action: remove, node: n1}
//
// Times are seconds or Go durations (ParseSimSeconds). An `add` event's node
// is a Node manifest, decoded and validated as the manifest loader does; a
// `remove` event names the node (or gives a manifest whose name is used).
// Unknown fields are errors (a misspelt "gpu:" must not silently make
// CPU-only pods). Errors name the file, the line and the field, one per
// line, e.g.
//   workload.yaml:7: mix[2].weight: Invalid value: -1: must be greater than 0
#ifndef GPUSCHED_SIMINPUT_SYNTHETIC_SPEC_LOADER_H_
#define GPUSCHED_SIMINPUT_SYNTHETIC_SPEC_LOADER_H_

#include <string>
#include <string_view>

#include "gpusched/sim/synthetic.h"
#include "gpusched/util/status.h"

namespace gpusched {

inline constexpr std::string_view kSyntheticApiVersion = "gpusched.io/v1alpha1";
inline constexpr std::string_view kSyntheticKind = "SyntheticWorkload";

// Reads `path` ("-" for standard input). SyntheticSpec::file is set to it.
Result<SyntheticSpec> LoadSyntheticSpecFile(const std::string& path);

// Parses `text`; `file` is the name used in messages and in SyntheticSpec::file.
Result<SyntheticSpec> LoadSyntheticSpecText(std::string_view text, const std::string& file);

}  // namespace gpusched

#endif  // GPUSCHED_SIMINPUT_SYNTHETIC_SPEC_LOADER_H_
