#include "gpusched/sim/queueing_hints.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

// DefaultFilters(): 0 NodeUnschedulable, 1 TaintToleration, 2 NodeAffinity,
// 3 NodeResourcesFit, 4 GpuShare.
constexpr uint64_t kUnschedulable = 1 << 0, kTaint = 1 << 1, kAffinity = 1 << 2, kFit = 1 << 3, kShare = 1 << 4;

TEST(QueueingHintsTest, WhichEventRequeuesWhichPod) {
  auto filters = DefaultFilters();
  Node big = GpuNode("big", 8), small = GpuNode("small", 1), cordoned = GpuNode("cordoned", 8),
       tainted = GpuNode("tainted", 8), labelled = GpuNode("labelled", 8), t4 = GpuNode("t4", 8);
  cordoned.unschedulable = true;
  tainted.taints.push_back({"dedicated", "x", "NoSchedule"});
  labelled.meta.labels["zone"] = "a";
  t4.meta.labels["alibabacloud.com/gpu-card-model"] = "T4";
  ClusterState states({big, small, cordoned, tainted, labelled, t4});
  auto added = [&](size_t i) {
    ClusterEvents e;
    e.nodes_added.push_back({&states.node(i), states.state(i)});
    return e;
  };
  ClusterEvents deleted;
  deleted.assigned_pod_deleted = true;
  const ClusterEvents none;

  Pod four = GpuPod("four", 4), selective = GpuPod("selective", 1), a100 = GpuPod("a100", 1);
  selective.node_selector["zone"] = "a";
  a100.meta.annotations["alibabacloud.com/gpu-card-model"] = "A100";
  struct Case {
    const char* name;
    const Pod& pod;
    uint64_t rejectors;
    ClusterEvents events;
    bool worth;
  };
  const Case cases[] = {
      {"no rejector: any event", four, 0, deleted, true},
      {"resources: a bound pod deleted", four, kFit, deleted, true},
      {"resources: a node big enough added", four, kFit, added(0), true},
      {"resources: a node too small added", four, kFit, added(1), false},
      {"resources and a taint: the small node is still no help", four, kFit | kTaint, added(1), true},
      {"taint only: a pod deleted is no help", four, kTaint, deleted, false},
      {"taint only: an untainted node added", four, kTaint, added(0), true},
      {"taint only: a tainted node added", four, kTaint, added(3), false},
      {"cordon only: a cordoned node added", four, kUnschedulable, added(2), false},
      {"cordon only: a schedulable node added", four, kUnschedulable, added(0), true},
      {"selector: a pod deleted is no help", selective, kAffinity, deleted, false},
      {"selector: a node without the label", selective, kAffinity, added(0), false},
      {"selector: a node with the label", selective, kAffinity, added(4), true},
      {"GPU model: a pod deleted", a100, kShare, deleted, true},
      {"GPU model: a node of another model", a100, kShare, added(5), false},
      {"GPU model: a node of unknown model", a100, kShare, added(0), false},
      {"no event at all", four, kFit, none, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(WorthRequeuing(filters, c.rejectors, PodInfo::Make(c.pod, 0), c.events), c.worth);
  }
}

// A filter gpusched does not know has no hints: Queue on every event.
class Custom : public FilterPlugin {
 public:
  std::string_view Name() const override { return "Custom"; }
  bool Check(const PodInfo&, const Node&, const NodeState&, FilterVerdict*) const override { return true; }
};

TEST(QueueingHintsTest, PluginsWithoutHintsQueueOnEveryEvent) {
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  filters.push_back(std::make_unique<Custom>());
  ClusterEvents deleted;
  deleted.assigned_pod_deleted = true;
  Pod p = GpuPod("p", 1);
  EXPECT_TRUE(WorthRequeuing(filters, 1, PodInfo::Make(p, 0), deleted));
  EXPECT_TRUE(WorthRequeuing(filters, uint64_t{1} << 63, PodInfo::Make(p, 0), deleted));
}

}  // namespace
}  // namespace gpusched
