// Sets up node states for the paper policies' tests by binding pods on
// chosen devices directly.
#ifndef GPUSCHED_TESTS_SCHED_PAPER_PLACE_UTIL_H_
#define GPUSCHED_TESTS_SCHED_PAPER_PLACE_UTIL_H_

#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched::testing {

inline void Place(ClusterState& cl, size_t node, const Pod& pod, const std::vector<int32_t>& devices) {
  PodInfo pi = PodInfo::Make(pod, 0);
  cl.Bind(node, pi.requests, pi.non_zero_requests, kAnonymousPod, 0, pi.gpu, devices);
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_PAPER_PLACE_UTIL_H_
