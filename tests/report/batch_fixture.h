// A scheduled batch for the report tests: nodes and pods in, first-fit
// through ScheduleBatch, and the RunReport over the result (which it owns).
#ifndef GPUSCHED_TESTS_REPORT_BATCH_FIXTURE_H_
#define GPUSCHED_TESTS_REPORT_BATCH_FIXTURE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/report/run_report.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched::testing {

struct ScheduledBatch {
  std::vector<Pod> pods;
  std::vector<const Pod*> ptrs;
  std::unique_ptr<ClusterState> cluster;
  BatchResult result;
  std::vector<InputError> rejected;
  std::vector<std::string> warnings;

  ScheduledBatch(std::vector<Node> nodes, std::vector<Pod> in, std::optional<size_t> explain_pod = std::nullopt,
                 std::unique_ptr<Policy> policy = nullptr)
      : pods(std::move(in)), cluster(std::make_unique<ClusterState>(std::move(nodes))) {
    for (const auto& p : pods) ptrs.push_back(&p);
    Scheduler s(DefaultFilters(), policy ? std::move(policy) : std::make_unique<FirstFitPolicy>(), 1);
    BatchOptions opts;
    opts.explain_pod = explain_pod;
    result = ScheduleBatch(ptrs, *cluster, ProfileSchedulers{{kDefaultSchedulerName, &s}}, opts);
  }
  RunReport Report() const { return RunReport{*cluster, ptrs, result, rejected, warnings, "first-fit", "fifo"}; }
};

// 21 nodes, one past the seed's layout: gpu-a and gpu-b with 2 GPUs each and
// 19 nodes without GPUs. Seven 1-GPU pods (four fit), two 4-GPU pods (never),
// one pod whose nodeSelector no node matches, and one CPU-only pod.
inline ScheduledBatch TwentyOneNodes() {
  std::vector<Node> nodes = {GpuNode("gpu-a", 2), GpuNode("gpu-b", 2)};
  for (int i = 0; i < 19; ++i) nodes.push_back(GpuNode("cpu-" + std::to_string(i), -1));
  std::vector<Pod> pods;
  for (int i = 0; i < 7; ++i) pods.push_back(GpuPod("train-" + std::to_string(i), 1, 1000));
  pods.push_back(GpuPod("big-0", 4, 1000));
  pods.push_back(GpuPod("big-1", 4, 1000));
  Pod pinned = GpuPod("pinned", 1, 1000);
  pinned.node_selector["zone"] = "x";
  pinned.meta.namespace_ = "ml";
  pods.push_back(pinned);
  pods.push_back(GpuPod("web", 0, 500));
  return ScheduledBatch(std::move(nodes), std::move(pods));
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_REPORT_BATCH_FIXTURE_H_
