// Deterministic names for pods expanded from workloads, shaped like the names
// the Kubernetes controllers give (StatefulSet "web-0"; Deployment
// "web-6d4cf56db6-x2k4p"; ReplicaSet and Job "web-x2k4p"; Indexed Job
// "train-3-x2k4p"; DaemonSet "dp-x2k4p"), but derived from a hash of the
// namespace, the owner's name and the replica index (the node's name for a
// DaemonSet) instead of randomness: the same input always gives the same
// names, whatever else is in the input and in which order.
#ifndef GPUSCHED_CONTROLLERS_WORKLOAD_NAMES_H_
#define GPUSCHED_CONTROLLERS_WORKLOAD_NAMES_H_

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

// The ReplicaSet a Deployment creates when none of its ReplicaSets has its
// template: "<deployment>-<10 characters>" (upstream's pod-template-hash is a
// hash of the template; this one of the namespace and name). Pods of that
// ReplicaSet are named ExpandedPodName("Deployment", ...).
std::string GeneratedReplicaSetName(std::string_view ns, std::string_view deployment);
// Its pod-template-hash label: the name's last part.
std::string GeneratedPodTemplateHash(std::string_view ns, std::string_view deployment);

// Pod `index` of an Indexed Job: "<job>-<index>-<5 characters>"
// (upstream's generateName "<job>-<index>-"); `attempt` > 0 picks another
// suffix when the first name is taken.
std::string IndexedJobPodName(std::string_view ns, std::string_view job, int64_t index, int attempt = 0);

// A DaemonSet's pod for `node`; `attempt` > 0 picks another suffix when the
// first name is taken.
std::string DaemonPodName(std::string_view ns, std::string_view daemonset, std::string_view node, int attempt);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_WORKLOAD_NAMES_H_
