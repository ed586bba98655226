// DiagnosisCache: Diagnose (diagnosis.h) at the cost of a lookup for the
// pending pods of a batch. Pods of one class (pod_class.h) facing an
// unchanged cluster share one answer; when the cluster changed, the answer
// is rebuilt from per-class summaries brought up to date with the nodes
// changed since (ClusterState::change_log), not by looking at every node:
//
//   - what follows from the nodes alone (diagnosis_parts::DiagnoseNodeSet:
//     the nodes the pod may use, those that could hold it when empty, and
//     every "can never fit") is kept while no node is added or removed
//     (ClusterState::nodes_version);
//   - for a pod that waits for room, the most and the total free of each
//     resource it requests over the nodes that could hold it (a max tree
//     and a sum per resource), and how many of them are at their pod limit.
//
// Cache key: the pod's class (SameClass) within one ClusterState (serial):
// a node-set part valid for nodes_version(), an answer valid for version().
//
// kind, forever and text are Diagnose's, byte for byte
// (tests/sched/diagnosis/diagnosis_cache_test.cc checks both on random clusters with
// churn); free_up_node and free_up_pods, which only `explain` shows, are
// left empty: Diagnose fills them.
//
// Only for filter chains made of gpusched's in-tree filters (Supports),
// whose verdicts outside NodeResourcesFit and GpuShare's free share do not
// depend on what runs on a node; for any other chain Diagnose answers.
#ifndef GPUSCHED_SCHED_DIAGNOSIS_DIAGNOSIS_CACHE_H_
#define GPUSCHED_SCHED_DIAGNOSIS_DIAGNOSIS_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

class DiagnosisCache {
 public:
  DiagnosisCache();
  ~DiagnosisCache();
  DiagnosisCache(const DiagnosisCache&) = delete;
  DiagnosisCache& operator=(const DiagnosisCache&) = delete;

  // Diagnose(pod, cluster, filters, demand) without free_up_*. `filters`
  // and `demand` must be the same on every call (one cache per profile and
  // batch).
  Diagnosis Diagnose(const PodInfo& pod, const ClusterState& cluster,
                     const std::vector<std::unique_ptr<FilterPlugin>>& filters, const BatchDemand* demand = nullptr);

  // True when every filter of the chain is one of gpusched's in-tree ones.
  static bool Supports(const std::vector<std::unique_ptr<FilterPlugin>>& filters);

  // Classes held (tests).
  size_t num_classes() const { return entries_.size(); }

 private:
  struct Entry;
  static constexpr size_t kMaxClasses = 256;  // then it starts over: a batch rarely has more

  Entry& EntryOf(const PodInfo& pod, const ClusterState& cluster,
                 const std::vector<std::unique_ptr<FilterPlugin>>& filters);
  static void Rebuild(Entry& e, const ClusterState& cluster);
  static void Update(Entry& e, const ClusterState& cluster, size_t i);

  int supported_ = -1;  // Supports(filters), asked once
  std::unordered_multimap<size_t, size_t> by_hash_;  // ClassHash -> entries_ index
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_DIAGNOSIS_DIAGNOSIS_CACHE_H_
