// Nominated pods: the nominator and RunFilterPluginsWithNominatedPods.
// The filter table is upstream's TestFilterPluginsWithNominatedPods
// (kubernetes v1.35 pkg/scheduler/framework/runtime/framework_test.go) where
// gpusched can express it: its PreFilter AddPod error cases have no
// counterpart (gpusched's filters keep no PreFilter state); the test filter
// here fails on the pod count, which adding the nominated pod raises.
#include "gpusched/sched/plugins/nominated_pods.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

// Upstream's TestPlugin with an injected Filter status, decided by the node:
// fails (Unschedulable) when the node holds more than `max_pods` pods, or
// fewer than `min_pods`.
class CountFilter : public FilterPlugin {
 public:
  CountFilter(int64_t max_pods, int64_t min_pods = 0) : max_(max_pods), min_(min_pods) {}
  std::string_view Name() const override { return "TestPlugin2"; }
  bool Check(const PodInfo&, const Node&, const NodeState& state, FilterVerdict* why) const override {
    if (state.num_pods <= max_ && state.num_pods >= min_) return true;
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, "injected filter status");
    return false;
  }

 private:
  int64_t max_, min_;
};

TEST(NominatedPodsTest, FilterPluginsWithNominatedPods) {
  struct Case {
    const char* name;
    bool nominated;            // a pod is nominated to the node
    int32_t pod_priority, nominated_priority;
    int64_t max_pods, min_pods;  // the filter's verdict (CountFilter)
    bool want_pass;
  };
  // The node holds one pod (upstream: framework.NewNodeInfo(pod)).
  const Case cases[] = {
      {"node has no nominated pod", false, 0, 0, 1, 0, true},
      {"node has a high-priority nominated pod and all filters succeed", true, 0, 1000, 2, 0, true},
      {"node has a high-priority nominated pod and filters fail", true, 0, 1000, 1, 0, false},
      {"node has a low-priority nominated pod and filters would fail with it", true, 1000, 0, 1, 0, true},
      // gpusched's cases: equal priority counts; the filters must pass
      // without the nominated pods too.
      {"node has an equal-priority nominated pod and filters fail", true, 500, 500, 1, 0, false},
      {"filters pass only with the nominated pod", true, 0, 1000, 2, 2, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster({GpuNode("node1", 0)});
    Pod bound = GpuPod("pod", 0);
    const PodInfo bound_info = PodInfo::Make(bound, 9);
    cluster.Bind(0, bound_info.requests, bound_info.non_zero_requests, 9, 0, bound_info.gpu, {});
    Pod pod = GpuPod("p", 0);
    pod.priority = c.pod_priority;
    Pod other = GpuPod("nominated", 0);
    other.priority = c.nominated_priority;
    const PodInfo pi = PodInfo::Make(pod, 1), oi = PodInfo::Make(other, 2);
    NominatedPods nominated;
    if (c.nominated) nominated.Nominate(oi, 0);
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    filters.push_back(std::make_unique<CountFilter>(c.max_pods, c.min_pods));
    FilterVerdict why;
    std::vector<const PodInfo*> scratch;
    const FilterPlugin* failed =
        CheckFiltersWithNominated(filters, pi, cluster.node(0), 0, cluster.state(0), nominated, why, scratch);
    EXPECT_EQ(failed == nullptr, c.want_pass);
    if (failed) {
      EXPECT_EQ(failed->Name(), "TestPlugin2");
      EXPECT_EQ(why.ToStatus().reasons(), (std::vector<std::string>{"injected filter status"}));
    }
  }
}

TEST(NominatedPodsTest, Nominator) {
  Pod a = GpuPod("a", 1), b = GpuPod("b", 1), c = GpuPod("c", 1);
  a.priority = 100;
  b.priority = 50;
  c.priority = 100;
  const PodInfo ai = PodInfo::Make(a, 0), bi = PodInfo::Make(b, 1), ci = PodInfo::Make(c, 2);
  NominatedPods n;
  EXPECT_FALSE(n.Affects(ai));
  n.Nominate(ai, 3);
  EXPECT_EQ(n.NodeOf(&a), 3u);
  EXPECT_FALSE(n.Affects(ai));  // its own nomination does not count
  EXPECT_TRUE(n.Affects(bi));
  EXPECT_TRUE(n.Affects(ci));   // equal priority counts
  n.Nominate(bi, 3);
  std::vector<const PodInfo*> on;
  n.On(3, bi, on);
  EXPECT_EQ(on, (std::vector<const PodInfo*>{&ai}));  // b itself left out
  n.On(3, ci, on);
  EXPECT_EQ(on, (std::vector<const PodInfo*>{&ai}));  // b is of lower priority
  n.On(4, bi, on);
  EXPECT_TRUE(on.empty());
  n.Nominate(ai, 5);  // ModeOverride: moved
  EXPECT_EQ(n.NodeOf(&a), 5u);
  n.On(3, ci, on);
  EXPECT_TRUE(on.empty());
  EXPECT_EQ(n.size(), 2u);
  n.Remove(&a);
  EXPECT_FALSE(n.NodeOf(&a).has_value());
  EXPECT_FALSE(n.Affects(ci));
  EXPECT_TRUE(n.Affects(bi) == false);  // only b itself is left
  n.Remove(&a);  // not nominated: nothing
  n.Remove(&b);
  EXPECT_TRUE(n.empty());
}

// The Scheduler counts the nominated pods on their node, on the indexed
// paths as on the plain scan: a lower-priority pod does not take the room
// the nominated pod waits for; the nominated pod itself, and a pod of
// higher priority, do.
TEST(NominatedPodsTest, SchedulerKeepsTheNominatedRoom) {
  for (bool use_index : {true, false}) {
    SCOPED_TRACE(use_index);
    Pod preemptor = GpuPod("preemptor", 4), low = GpuPod("low", 4), higher = GpuPod("higher", 4);
    preemptor.priority = 100;
    higher.priority = 200;
    const PodInfo pi = PodInfo::Make(preemptor, 0), li = PodInfo::Make(low, 1), hi = PodInfo::Make(higher, 2);
    NominatedPods nominated;
    nominated.Nominate(pi, 0);
    auto make = [&] {
      auto s = std::make_unique<Scheduler>(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, true);
      s->set_use_index(use_index);
      s->set_nominated_pods(&nominated);
      return s;
    };
    {
      ClusterState cluster({GpuNode("n0", 4)});
      auto s = make();
      Attempt a = s->Schedule(li, cluster);
      ASSERT_FALSE(a.scheduled);
      // Nothing of lower priority runs there to preempt either.
      EXPECT_EQ(a.failure->message,
                "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No "
                "preemption victims found for incoming pod.");
      EXPECT_EQ(s->FailureOf(li, cluster)->message, a.failure->message);
      EXPECT_TRUE(s->Schedule(pi, cluster).scheduled);
    }
    {
      ClusterState cluster({GpuNode("n0", 4)});
      EXPECT_TRUE(make()->Schedule(hi, cluster).scheduled);
    }
    {
      // Another node with room: the low pod goes there.
      ClusterState cluster({GpuNode("n0", 4), GpuNode("n1", 4)});
      Attempt a = make()->Schedule(li, cluster);
      ASSERT_TRUE(a.scheduled);
      EXPECT_EQ(a.node, 1u);
    }
  }
}

}  // namespace
}  // namespace gpusched
