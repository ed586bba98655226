// The Kubernetes release whose kube-scheduler behaviour gpusched reproduces.
// Reason strings and status codes change between releases (the taint reason
// in v1.35, Unresolvable fit failures in v1.34); this is the one place that
// says which release we follow.
#ifndef GPUSCHED_SCHED_API_VERSION_H_
#define GPUSCHED_SCHED_API_VERSION_H_

namespace gpusched {

inline constexpr const char* kTargetKubernetesVersion = "v1.35";

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_VERSION_H_
