// One filter plugin run on one node with nothing in use there, for the
// per-plugin filter tables (node_unschedulable_test.cc,
// taint_toleration_test.cc, node_affinity_test.cc).
#ifndef GPUSCHED_TESTS_SCHED_PLUGINS_FILTER_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_PLUGINS_FILTER_TEST_UTIL_H_

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/api/status.h"

namespace gpusched::testing {

inline SchedStatus RunOne(const FilterPlugin& f, const Pod& pod, const Node& node) {
  return f.Filter(PodInfo::Make(pod, 0), node, NodeState{});
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_PLUGINS_FILTER_TEST_UTIL_H_
