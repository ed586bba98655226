// FailureSummaries: what kube-scheduler tells a pod that fits nowhere — the
// FitError's reason counts over every node and DefaultPreemption's verdict —
// kept per pod shape and brought up to date through the change log, so a
// failing pod costs the nodes changed since its shape last failed instead
// of a filter run (and a preemption dry run) on every node.
//
// For a pod whose verdicts depend only on its shape (PodInfo::unconstrained:
// no nodeSelector, affinity, tolerations or nodeName). Each node's verdict
// comes from the same filters and the same preemption rules as the plain
// scan; only where they are computed differs. The counts are order-free,
// and preemption's first helpful node is the smallest index, which is what
// EvaluatePreemption's scan in node order finds.
#ifndef GPUSCHED_SCHED_INDEX_FAILURE_SUMMARY_H_
#define GPUSCHED_SCHED_INDEX_FAILURE_SUMMARY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {

class FailureSummaries {
 public:
  // `preemption`: the profile runs DefaultPreemption.
  explicit FailureSummaries(bool preemption) : preemption_(preemption) {}

  // The failure of `pod` on `cluster` under `filters` (always the same
  // chain) as the plain scan and EvaluatePreemption give it. False (and
  // nothing set) when some node passes the filters after all: the caller
  // then scans plainly.
  bool Explain(const PodInfo& pod, const ClusterState& cluster,
               const std::vector<std::unique_ptr<FilterPlugin>>& filters, FitError& err,
               std::optional<PreemptionVerdict>& preemption);
  // The same, also setting bit k of `rejectors` when filters[k] was the
  // failing filter on some node (upstream's UnschedulablePlugins; k >= 63
  // all share bit 63).
  bool Explain(const PodInfo& pod, const ClusterState& cluster,
               const std::vector<std::unique_ptr<FilterPlugin>>& filters, FitError& err,
               std::optional<PreemptionVerdict>& preemption, uint64_t& rejectors);
  // Whether the shape's last Explain ran the filters in a preemption dry
  // run on some node (lower-priority pods removed) rather than deciding
  // every node's preemption verdict from its filter verdict alone.
  bool last_dry_run() const { return last_dry_run_; }

  // Shapes kept (tests).
  size_t num_shapes() const { return shapes_.size(); }

 private:
  static constexpr uint16_t kAbsent = 0xffff;  // removed node: not counted
  static constexpr uint16_t kHelps = 0xfffe;   // preemption would make room
  static constexpr size_t kMaxShapes = 8;

  // A verdict: the code, reason strings and failing filter (its index in
  // the chain; kNoPlugin for preemption's), interned (id = position).
  static constexpr uint16_t kNoPlugin = 0xffff;
  struct Verdict {
    SchedStatus::Code code;
    std::vector<std::string> reasons;
    uint16_t plugin = kNoPlugin;
  };
  struct Shape {
    Resources requests;
    GpuRequest gpu;
    int32_t priority = 0;
    std::string preemption_policy;
    uint64_t serial = 0;  // ClusterState::serial()
    uint64_t log_pos = 0;  // change log position (a version) the rows are current up to
    uint64_t last_used = 0;
    std::vector<uint16_t> filter;   // per node slot: its filter verdict id
    std::vector<uint16_t> preempt;  // per node slot: its preemption verdict id, or kHelps
    std::vector<int64_t> filter_count, preempt_count;  // per verdict id: nodes
    std::set<size_t> helps;         // nodes where preemption would help
    std::vector<uint8_t> dry;       // per node slot: its preemption verdict came from a dry run
    int64_t dry_count = 0;
  };

  bool Matches(const Shape& s, const PodInfo& pod) const;
  Shape& ShapeOf(const PodInfo& pod, const ClusterState& cluster);
  void Update(Shape& s, const PodInfo& pod, const ClusterState& cluster, size_t i);
  static void Count(std::vector<int64_t>& counts, uint16_t id, int64_t delta);
  uint16_t Intern(SchedStatus::Code code, const std::vector<ReasonView>& reasons, uint16_t plugin = kNoPlugin);
  uint16_t Intern(SchedStatus::Code code, std::string_view reason);
  bool EvaluatesPreemption(const PodInfo& pod) const;

  const std::vector<std::unique_ptr<FilterPlugin>>* filters_ = nullptr;  // Explain's, while it runs
  bool preemption_;
  std::vector<Verdict> verdicts_;
  std::vector<Shape> shapes_;
  uint64_t clock_ = 0;
  bool last_dry_run_ = false;
  std::vector<uint64_t> seen_;  // per node slot: batch stamp, so a node changed twice is updated once
  uint64_t batch_ = 0;
  FilterVerdict why_;  // scratch
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_INDEX_FAILURE_SUMMARY_H_
