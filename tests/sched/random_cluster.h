// Random clusters and pods with everything the filters look at, for the
// tests that hold a fast path to the plain scan (tests/sched/index/
// node_index_test.cc, tests/sched/framework/*_test.cc). Nodes are cordoned,
// tainted (NoSchedule, PreferNoSchedule, NoExecute), labelled with a zone
// and a GPU model, some advertise an extended resource; pods are CPU-only
// (some best-effort), whole GPUs, GPU shares on one or two devices,
// extended-resource pods, with GPU models, nodeSelectors, tolerations,
// preferred affinity, nodeName ("n<k>" of `num_nodes`), priorities and
// preemptionPolicy Never.
#ifndef GPUSCHED_TESTS_SCHED_RANDOM_CLUSTER_H_
#define GPUSCHED_TESTS_SCHED_RANDOM_CLUSTER_H_

#include <string>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/util/random.h"
#include "test_util.h"

namespace gpusched::testing::rich {

inline Node RandomNode(const std::string& name, Rng& rng) {
  static const int64_t kGpus[] = {-1, 0, 1, 2, 4, 8, 8};
  Node node = GpuNode(name, kGpus[rng.Uniform(7)], 1000 * static_cast<int64_t>(1 + rng.Uniform(32)),
                      (1LL << 30) * static_cast<int64_t>(1 + rng.Uniform(16)),
                      rng.Uniform(4) == 0 ? 110 : 1 + static_cast<int64_t>(rng.Uniform(10)));
  node.unschedulable = rng.Uniform(25) == 0;
  if (rng.Uniform(12) == 0) node.taints.push_back({"dedicated", "x", "NoSchedule"});
  if (rng.Uniform(8) == 0) node.taints.push_back({"spot", "", "PreferNoSchedule"});
  if (rng.Uniform(30) == 0) node.taints.push_back({"maint", "", "NoExecute"});
  node.meta.labels["zone"] = rng.Uniform(2) ? "a" : "b";
  if (const uint64_t m = rng.Uniform(3); m < 2) node.meta.labels["alibabacloud.com/gpu-card-model"] = m ? "A100" : "T4";
  if (rng.Uniform(5) == 0) node.allocatable["example.com/foo"] = Quantity::FromInt(static_cast<int64_t>(rng.Uniform(5)));
  return node;
}

inline Pod RandomPod(const std::string& name, Rng& rng, size_t num_nodes) {
  testing::Res r;
  Pod p;
  const uint64_t kind = rng.Uniform(10);
  if (kind < 3) {  // CPU-only, now and then best-effort
    r.milli_cpu = 500 * static_cast<int64_t>(rng.Uniform(9));
    r.memory = (1LL << 28) * static_cast<int64_t>(rng.Uniform(9));
  } else if (kind < 7) {
    static const int64_t kWhole[] = {1, 1, 2, 4, 8};
    r.scalars["nvidia.com/gpu"] = kWhole[rng.Uniform(5)];
    r.milli_cpu = 1000 * static_cast<int64_t>(rng.Uniform(5));
    r.memory = (1LL << 30) * static_cast<int64_t>(rng.Uniform(3));
  } else if (kind < 9) {
    r.milli_cpu = 250 * static_cast<int64_t>(rng.Uniform(5));
  } else {
    r.scalars["example.com/foo"] = 1 + static_cast<int64_t>(rng.Uniform(3));
    r.milli_cpu = 1000;
  }
  p = testing::ResourcePod({r});
  p.meta.name = name;
  if (kind == 7 || kind == 8) {
    p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(100 * (1 + rng.Uniform(10)));
    if (rng.Uniform(4) == 0) p.meta.annotations["alibabacloud.com/gpu-count"] = "2";
  }
  if (rng.Uniform(8) == 0) p.meta.annotations["alibabacloud.com/gpu-card-model"] = "A100";
  if (rng.Uniform(8) == 0) p.node_selector["zone"] = "a";
  if (rng.Uniform(8) == 0) p.tolerations.push_back({"dedicated", "Exists", "", ""});
  if (rng.Uniform(10) == 0) p.tolerations.push_back({"spot", "Exists", "", "PreferNoSchedule"});
  if (rng.Uniform(10) == 0) {
    NodeAffinity a;
    a.preferred.push_back({5, NodeSelectorTerm{{{"zone", "In", {"b"}}}, {}}});
    p.node_affinity = a;
  }
  if (rng.Uniform(3) == 0) p.priority = static_cast<int32_t>(rng.Uniform(7)) - 3;
  if (rng.Uniform(10) == 0) p.preemption_policy = "Never";
  if (rng.Uniform(40) == 0) p.node_name = "n" + std::to_string(rng.Uniform(num_nodes));
  return p;
}

}  // namespace gpusched::testing::rich

#endif  // GPUSCHED_TESTS_SCHED_RANDOM_CLUSTER_H_
