// Deterministic names for pods expanded from workloads, shaped like the names
// the Kubernetes controllers give (StatefulSet "web-0"; Deployment
// "web-6d4cf56db6-x2k4p"; ReplicaSet and Job "web-x2k4p"), but derived from a
// hash of the owner and the replica index instead of randomness, so the same
// input always gives the same names.
#ifndef GPUSCHED_IO_WORKLOAD_NAMES_H_
#define GPUSCHED_IO_WORKLOAD_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gpusched {

// FNV-1a 64-bit.
uint64_t Fnv1a64(std::string_view s, uint64_t seed = 14695981039346656037ull);

// n characters from the alphabet Kubernetes uses for generated names
// (apimachinery/pkg/util/rand: "bcdfghjklmnpqrstvwxz2456789").
std::string SafeSuffix(uint64_t h, int n);

// Name of replica `index` of workload `kind`/`name` in `ns`.
std::string ExpandedPodName(std::string_view kind, std::string_view ns, std::string_view name, int64_t index);

}  // namespace gpusched

#endif  // GPUSCHED_IO_WORKLOAD_NAMES_H_
