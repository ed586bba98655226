// Ours: the per-shape failure summaries (src/sched/index/failure_summary.cc) give
// exactly what the plain failure scan and EvaluatePreemption give, kept up
// to date through the change log.
#include "gpusched/sched/index/failure_summary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

// The plain way: every node through the filters, then the preemption dry run.
struct Plain {
  bool any_fits = false;
  std::string error;
  std::optional<PreemptionVerdict> preemption;
};

Plain PlainFailure(const PodInfo& pod, const ClusterState& c, const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                   bool preemption) {
  Plain out;
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(c.num_present());
  std::vector<SchedStatus> statuses(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c.present(i)) continue;
    statuses[i] = RunFilters(filters, pod, c.node(i), c.state(i));
    if (statuses[i].IsSuccess()) out.any_fits = true;
    else err.AddNodeStatus(statuses[i]);
  }
  if (preemption) {
    PreemptionVerdict v = EvaluatePreemption(pod, c, filters, statuses);
    if (!v.would_help) err.post_filter_message = v.message;
    out.preemption = v;
  }
  out.error = err.Error();
  return out;
}

TEST(FailureSummariesTest, SmallClusterMessages) {
  Node tainted = GpuNode("n2", 8);
  tainted.taints.push_back({"dedicated", "x", "NoSchedule"});
  ClusterState c({GpuNode("n0", 4), GpuNode("n1", 2), tainted});
  const Pod low = GpuPod("low", 4);
  c.Bind(0, PodInfo::Make(low, 0).requests, PodInfo::Make(low, 0).requests, 0, /*priority=*/-1);
  const auto filters = DefaultFilters();
  FailureSummaries summaries(/*preemption=*/true);

  Pod p = GpuPod("p", 3);
  struct Case {
    const char* name;
    int32_t priority;
    std::string policy;
    std::string want_error;
    bool want_help;
  };
  const Case cases[] = {
      {"a victim on n0 makes room", 0, "",
       "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu.", true},
      {"no lower priority to evict", -1, "",
       "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu. preemption: 0/3 "
       "nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for "
       "scheduling.",
       false},
      {"preemptionPolicy Never", 0, "Never",
       "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu. preemption: not "
       "eligible due to preemptionPolicy=Never.",
       false},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    p.priority = k.priority;
    p.preemption_policy = k.policy;
    const PodInfo info = PodInfo::Make(p, 1);
    FitError err;
    std::optional<PreemptionVerdict> v;
    ASSERT_TRUE(summaries.Explain(info, c, filters, err, v));
    EXPECT_EQ(err.Error(), k.want_error);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->would_help, k.want_help);
    if (k.want_help) {
      EXPECT_EQ(v->node, 0u);
      EXPECT_EQ(v->victims, 1);
    }
  }
  EXPECT_EQ(summaries.num_shapes(), 3u);
  // Once the pod leaves n0 the pod fits there: no failure to explain.
  c.Unbind(0, 0);
  FitError err;
  std::optional<PreemptionVerdict> v;
  EXPECT_FALSE(summaries.Explain(PodInfo::Make(p, 1), c, filters, err, v));
}

// A shape whose rows fell behind what the change log holds is rebuilt from
// every node: the message is the plain scan's for the cluster as it is now.
TEST(FailureSummariesTest, RebuildsWhenTheLogNoLongerHoldsItsChanges) {
  ClusterState c({GpuNode("n0", 4), GpuNode("n1", 4), GpuNode("n2", 4)});
  const auto filters = DefaultFilters();
  FailureSummaries summaries(/*preemption=*/true);
  Pod p = GpuPod("p", 4);
  p.priority = 1;
  const PodInfo info = PodInfo::Make(p, 0);
  FitError err;
  std::optional<PreemptionVerdict> v;
  EXPECT_FALSE(summaries.Explain(info, c, filters, err, v));  // it fits anywhere
  // Pods of a higher priority take 1, 2 and 1 GPUs: no victims anywhere.
  for (size_t i = 0; i < 3; ++i) {
    const Pod high = GpuPod("high", i == 1 ? 2 : 1);
    c.Bind(i, PodInfo::Make(high, 1).requests, PodInfo::Make(high, 1).requests, 1 + i, /*priority=*/5);
  }
  ASSERT_TRUE(summaries.Explain(info, c, filters, err, v));
  EXPECT_EQ(err.Error(),
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No "
            "preemption victims found for incoming pod.");
  const uint64_t pos = c.version();
  // One more GPU taken on n0 and n2 by a pod of priority 0: a victim, whose
  // eviction still leaves too few GPUs.
  testing::ChurnPastTheLog(c, pos);
  ASSERT_FALSE(c.change_log().Holds(pos));
  ASSERT_TRUE(summaries.Explain(info, c, filters, err, v));
  EXPECT_EQ(err.Error(), PlainFailure(info, c, filters, true).error);
  EXPECT_EQ(err.Error(),
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 1 No "
            "preemption victims found for incoming pod, 2 Insufficient nvidia.com/gpu.");
  EXPECT_EQ(summaries.num_shapes(), 1u);
}

TEST(FailureSummariesTest, MatchesThePlainScanThroughChanges) {
  Rng rng(5);
  const auto filters = DefaultFilters();
  int explained_total = 0, helped = 0;
  for (int trial = 0; trial < 30; ++trial) {
    SCOPED_TRACE(trial);
    const bool preemption = trial % 3 != 0;
    std::vector<Node> nodes;
    const size_t n = 1 + rng.Uniform(40);
    for (size_t i = 0; i < n; ++i) {
      Node node = GpuNode("n" + std::to_string(i), static_cast<int64_t>(rng.Uniform(9)) - 1,
                          1000 * static_cast<int64_t>(1 + rng.Uniform(8)), 1LL << 34, 1 + static_cast<int64_t>(rng.Uniform(6)));
      node.unschedulable = rng.Uniform(10) == 0;
      if (rng.Uniform(8) == 0) node.taints.push_back({"k", "", "NoSchedule"});
      nodes.push_back(node);
    }
    ClusterState c(nodes);
    FailureSummaries summaries(preemption);
    // Twelve shapes: more than are kept, so some are dropped and rebuilt.
    std::vector<Pod> shapes;
    for (int s = 0; s < 12; ++s) {
      Pod p = GpuPod("s" + std::to_string(s), 2 + s % 7, 1000 * (s % 3));
      p.priority = s % 4 - 1;
      if (s == 11) {
        p = GpuPod("share", 0, 500);
        p.meta.annotations["alibabacloud.com/gpu-milli"] = "600";
      }
      shapes.push_back(p);
    }
    std::vector<std::pair<size_t, uint64_t>> bound;
    for (int step = 0; step < 80; ++step) {
      const uint64_t op = rng.Uniform(6);
      if (op < 3) {
        const size_t i = rng.Uniform(c.size());
        if (c.present(i)) {
          const Pod& q = shapes[rng.Uniform(shapes.size())];
          const PodInfo qi = PodInfo::Make(q, 0);
          c.Bind(i, qi.requests, qi.non_zero_requests, static_cast<uint64_t>(step), static_cast<int32_t>(rng.Uniform(5)) - 2);
          bound.emplace_back(i, static_cast<uint64_t>(step));
        }
      } else if (op < 5 && !bound.empty()) {
        const size_t k = rng.Uniform(bound.size());
        c.Unbind(bound[k].first, bound[k].second);
        bound.erase(bound.begin() + static_cast<ptrdiff_t>(k));
      } else if (rng.Uniform(4) == 0) {
        c.RemoveNode(rng.Uniform(c.size()));
      } else {
        c.AddNode(GpuNode("m" + std::to_string(step), static_cast<int64_t>(rng.Uniform(5)), 2000));
      }
      const PodInfo pod = PodInfo::Make(shapes[rng.Uniform(shapes.size())], 1);
      const Plain want = PlainFailure(pod, c, filters, preemption);
      FitError err;
      std::optional<PreemptionVerdict> v;
      const bool explained = summaries.Explain(pod, c, filters, err, v);
      ASSERT_EQ(explained, !want.any_fits) << "step " << step;
      if (!explained) continue;
      ++explained_total;
      helped += v && v->would_help;
      EXPECT_EQ(err.Error(), want.error) << "step " << step;
      ASSERT_EQ(v.has_value(), want.preemption.has_value());
      if (v) {
        EXPECT_EQ(v->would_help, want.preemption->would_help) << "step " << step;
        EXPECT_EQ(v->node, want.preemption->node) << "step " << step;
        EXPECT_EQ(v->victims, want.preemption->victims) << "step " << step;
        EXPECT_EQ(v->message, want.preemption->message) << "step " << step;
      }
    }
    EXPECT_LE(summaries.num_shapes(), 8u);
  }
  // Failures of every kind were compared (exact for this seed).
  EXPECT_EQ(explained_total, 362);
  EXPECT_EQ(helped, 25);
}

}  // namespace
}  // namespace gpusched
