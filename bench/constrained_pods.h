// Pods and nodes for the throughput rows under pod constraints: every pod
// belongs to one of `apps` apps (label app=app-K) and asks, as scheduler_perf's
// topology-spreading and anti-affinity workloads do
// (test/integration/scheduler_perf/config/templates/
// pod-with-topology-spreading.yaml, pod-with-pod-anti-affinity.yaml), for a
// zone spread of its app (maxSkew 5, DoNotSchedule) and/or required
// anti-affinity to its app on kubernetes.io/hostname. Nodes get a hostname
// and one of three zones, as scheduler_perf's (moon-1..3).
#ifndef GPUSCHED_BENCH_CONSTRAINED_PODS_H_
#define GPUSCHED_BENCH_CONSTRAINED_PODS_H_

#include <memory>
#include <string>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched::bench {

struct PodConstraints {
  bool spread = false;         // topology.kubernetes.io/zone, maxSkew 5, DoNotSchedule
  bool anti_affinity = false;  // required, kubernetes.io/hostname
};

inline void LabelNodesWithTopology(std::vector<Node>& nodes) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].meta.labels[kLabelHostname] = nodes[i].meta.name;
    nodes[i].meta.labels[kLabelTopologyZone] = "moon-" + std::to_string(1 + i % 3);
  }
}

// Pod i of the pool joins app i % apps.
inline void Constrain(std::vector<Pod>& pool, size_t apps, PodConstraints c) {
  for (size_t i = 0; i < pool.size(); ++i) {
    Pod& p = pool[i];
    const std::string app = "app-" + std::to_string(i % apps);
    p.meta.labels["app"] = app;
    LabelSelector selector;
    selector.match_labels["app"] = app;
    auto extras = std::make_shared<PodSpecExtras>(p.Extras());
    if (c.spread) {
      TopologySpreadConstraint t;
      t.max_skew = 5;
      t.topology_key = kLabelTopologyZone;
      t.when_unsatisfiable = kDoNotSchedule;
      t.label_selector = selector;
      extras->topology_spread_constraints.push_back(t);
    }
    p.extras = std::move(extras);
    if (c.anti_affinity) {
      auto spec = std::make_shared<PodAffinitySpec>();
      spec->anti_affinity.emplace();
      PodAffinityTerm term;
      term.label_selector = selector;
      term.topology_key = kLabelHostname;
      spec->anti_affinity->required.push_back(term);
      p.pod_affinity = std::move(spec);
    }
  }
}

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_CONSTRAINED_PODS_H_
