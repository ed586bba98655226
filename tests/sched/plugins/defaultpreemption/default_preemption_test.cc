// DefaultPreemption's tables, ported with their expected values from
// kubernetes v1.35 pkg/scheduler/framework/plugins/defaultpreemption/
// default_preemption_test.go (TestDryRunPreemption, TestSelectBestCandidate,
// TestPostFilter, TestPodEligibleToPreemptOthers, TestPreempt) and
// pkg/scheduler/framework/preemption/preemption_test.go
// (TestNodesWherePreemptionMightHelp). Upstream's st.MakeNode().Capacity
// gives 32 pods unless the capacity says otherwise; its "100m"/"100" units
// are milli-CPU and bytes here too.
//
// The pod topology spread cases ("preemption to resolve pod topology spread
// filter failure", "preemption for topology spread constraints") are
// TopologySpreadDryRunPreemption and TopologySpreadPreempt below.
// TestDryRunPreemption's "pod with anti-affinity is preempted" is
// DryRunPreemptionResolvesAntiAffinity below (InterPodAffinity's PreFilter
// state, victims taken off the node's copy). Not ported: the
// TestPlugin AddPod/RemovePod error cases, the extender case, and the
// SchedulingGroup cases (TAS / workload-aware preemption feature gates,
// off in v1.35's defaults); TestCustomSelection and TestCustomOrdering
// (out-of-tree IsEligiblePod / MoreImportantPod hooks).
#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <set>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/util/random.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

constexpr int32_t kNeg = -100, kLow = 0, kMid = 100, kHigh = 1000, kVeryHigh = 10000;
struct R {
  int64_t cpu = 0, mem = 0;
};
constexpr R kSmall{100, 100}, kMedium{200, 200}, kLarge{300, 300}, kVeryLarge{500, 500}, kNone{0, 0};

struct TPod {
  std::string name;
  std::string node;  // "" for the preemptor
  int32_t priority = 0;
  R req = kNone;
  std::map<std::string, std::string> labels = {};
  // status.startTime: epochTime + start ns; none when upstream's pod has no
  // StartTime (GetPodStartTime then reads the clock: "now").
  std::optional<int64_t> start = std::nullopt;
  std::string nominated = "";  // status.nominatedNodeName
  bool terminating = false;    // st.MakePod().Terminating(): a deletionTimestamp
  bool disrupted_by_scheduler = false;  // DisruptionTarget=True, reason PreemptionByScheduler
};

struct TPdb {
  std::map<std::string, std::string> match_labels;
  int32_t allowed = 0;
  std::vector<std::string> disrupted = {};
};

Node MakeNode(const std::string& name, R cap, int64_t pods = 32) {
  Node n;
  n.meta.name = name;
  n.has_allocatable = true;
  if (cap.cpu) n.allocatable["cpu"] = Quantity::FromMilli(cap.cpu);
  if (cap.mem) n.allocatable["memory"] = Quantity::FromInt(cap.mem, Quantity::Format::kBinarySI);
  n.allocatable["pods"] = Quantity::FromInt(pods);
  return n;
}

Pod MakePod(const TPod& t) {
  testing::Res r;
  r.milli_cpu = t.req.cpu;
  r.memory = t.req.mem;
  Pod p = testing::ResourcePod({r});
  p.meta.name = t.name;
  p.priority = t.priority;
  for (const auto& [k, v] : t.labels) p.meta.labels[k] = v;
  p.start_time_ns = t.start;
  p.nominated_node_name = t.nominated;
  p.deleting = t.terminating;
  p.disrupted_by_scheduler = t.disrupted_by_scheduler;
  return p;
}

// Upstream's test filters: FakeFilter (a code per node, counting calls),
// FalseFilter, TrueFilter, MatchFilter (node name == pod name).
class FakeFilter : public FilterPlugin {
 public:
  explicit FakeFilter(SchedStatus::Code code) : code_(code) {}
  std::string_view Name() const override { return "FakeFilter"; }
  bool Check(const PodInfo&, const Node&, const NodeState&, FilterVerdict* why) const override {
    if (code_ == SchedStatus::Code::kSuccess) return true;
    if (why) why->Fail(code_, "injecting failure for pod");
    return false;
  }

 private:
  SchedStatus::Code code_;
};
class MatchFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "MatchFilter"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const override {
    if (node.name() == pod.pod->name()) return true;
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, "Nodes failed the fake plugin");
    return false;
  }
};

// A cluster of nodes with their pods bound in the table's order (upstream's
// NodeInfo order), their start times, the PDBs and the Pod behind each
// BoundPod id, read as `schedule` reads a dump (batch_preemption.cc).
struct World {
  std::deque<Pod> pods;
  std::unique_ptr<ClusterState> cluster;
  std::vector<PodDisruptionBudget> pdb_objects;
  PreemptionInputs in;

  World(const std::vector<Node>& nodes, std::vector<TPod> init, const std::vector<TPdb>& pdbs = {}) {
    cluster = std::make_unique<ClusterState>(nodes);
    for (const TPod& t : init) {
      pods.push_back(MakePod(t));
      PodInfo info = PodInfo::Make(pods.back(), pods.size() - 1);
      const int64_t n = cluster->FindNode(t.node);
      // With its Pod, which filters that compare pods read (PodTopologySpread).
      cluster->Bind(static_cast<size_t>(n), info.requests, info.non_zero_requests, pods.size() - 1, t.priority,
                    info.gpu, {}, &pods.back());
    }
    pdb_objects.reserve(pdbs.size());
    for (const TPdb& t : pdbs) {
      PodDisruptionBudget pdb;
      pdb.meta.namespace_ = "default";
      LabelSelector sel;
      for (const auto& [k, v] : t.match_labels) sel.match_labels[k] = v;
      pdb.selector = sel;
      pdb_objects.push_back(pdb);
    }
    for (size_t i = 0; i < pdbs.size(); ++i)
      in.pdbs.push_back(PdbBudget{&pdb_objects[i], pdbs[i].allowed, pdbs[i].disrupted});
    in.pod_of = [this](uint64_t id) -> const Pod* { return id < pods.size() ? &pods[id] : nullptr; };
    in.start_time = [this](uint64_t id) { return id < pods.size() ? pods[id].start_time_ns : std::nullopt; };
    in.terminating_by_preemption = [this](uint64_t id) { return id < pods.size() && pods[id].TerminatingByPreemption(); };
  }
  std::string NodeName(size_t i) const { return cluster->node(i).name(); }
  std::vector<std::string> Names(const std::vector<BoundPod>& v) const {
    std::vector<std::string> out;
    for (const BoundPod& b : v) out.push_back(pods[b.id].name());
    return out;
  }
};

std::vector<Node> VeryLargeNodes(const std::vector<std::string>& names) {
  std::vector<Node> out;
  for (const auto& n : names) out.push_back(MakeNode(n, kVeryLarge));
  return out;
}

std::vector<std::unique_ptr<FilterPlugin>> Chain(SchedStatus::Code fake, std::unique_ptr<FilterPlugin> second) {
  std::vector<std::unique_ptr<FilterPlugin>> f;
  f.push_back(std::make_unique<FakeFilter>(fake));
  if (second) f.push_back(std::move(second));
  return f;
}

struct Cand {
  std::string node;
  std::vector<std::string> victims;  // sorted by name, as upstream's test sorts them
  int64_t pdb_violations = 0;
  bool operator==(const Cand&) const = default;
};
void PrintTo(const Cand& c, std::ostream* os) {
  *os << c.node << "{";
  for (const auto& v : c.victims) *os << v << ",";
  *os << "} pdb=" << c.pdb_violations;
}

struct DryRunCase {
  std::string name;
  std::vector<std::string> nodes;
  std::vector<TPod> preemptors;  // one cycle each
  std::vector<TPod> init;
  std::string second_filter = "NodeResourcesFit";  // or "False", "True", "Match"
  SchedStatus::Code fake_code = SchedStatus::Code::kSuccess;
  std::vector<TPdb> pdbs = {};
  int32_t pct = 10, abs = 100;
  std::vector<size_t> offsets = {0};  // upstream: rand.NewSource(4).Int31n(5) gives 4, 1, 3
  std::vector<std::vector<Cand>> expected;
  std::vector<int64_t> filter_calls;
};

std::unique_ptr<FilterPlugin> Second(const std::string& s) {
  if (s == "False") return std::make_unique<FakeFilter>(SchedStatus::Code::kUnschedulable);
  if (s == "True") return nullptr;
  if (s == "Match") return std::make_unique<MatchFilter>();
  return NewFilterPlugin("NodeResourcesFit");
}

TEST(DefaultPreemptionTest, TestDryRunPreemption) {
  const auto U = SchedStatus::Code::kUnschedulable;
  const std::vector<DryRunCase> cases = {
      {"a pod that does not fit on any node", {"node1", "node2"}, {{"p", "", kHigh}},
       {{"p1", "node1", kMid}, {"p2", "node2", kMid}}, "False", SchedStatus::Code::kSuccess, {}, 10, 100, {0}, {{}}, {2}},
      {"a pod that fits with no preemption", {"node1", "node2"}, {{"p", "", kHigh}},
       {{"p1", "node1", kMid}, {"p2", "node2", kMid}}, "True", U, {}, 10, 100, {0}, {{}}, {2}},
      {"a pod that fits on one node with no preemption", {"node1", "node2"}, {{"node1", "", kHigh}},
       {{"p1", "node1", kMid}, {"p2", "node2", kMid}}, "Match", U, {}, 10, 100, {0}, {{}}, {2}},
      {"a pod that fits on both nodes when lower priority pods are preempted", {"node1", "node2"},
       {{"p", "", kHigh, kLarge}}, {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}}, "NodeResourcesFit",
       SchedStatus::Code::kSuccess, {}, 10, 100, {0}, {{{"node1", {"p1"}}, {"node2", {"p2"}}}}, {4}},
      {"a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen",
       {"node1", "node2"}, {{"p", "", kLow, kLarge}}, {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 10, 100, {0}, {{}}, {0}},
      {"medium priority pod is preempted, but lower priority one stays as it is small", {"node1", "node2"},
       {{"p", "", kHigh, kLarge}},
       {{"p1.1", "node1", kLow, kSmall}, {"p1.2", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 10, 100, {0},
       {{{"node1", {"p1.2"}}, {"node2", {"p2"}}}}, {5}},
      {"mixed priority pods are preempted", {"node1", "node2"}, {{"p", "", kHigh, kLarge}},
       {{"p1.1", "node1", kMid, kSmall},
        {"p1.2", "node1", kLow, kSmall},
        {"p1.3", "node1", kMid, kMedium},
        {"p1.4", "node1", kHigh, kSmall},
        {"p2", "node2", kHigh, kLarge}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 10, 100, {0}, {{{"node1", {"p1.2", "p1.3"}}}}, {4}},
      {"mixed priority pods are preempted, pick later StartTime one when priorities are equal", {"node1", "node2"},
       {{"p", "", kHigh, kLarge}},
       {{"p1.1", "node1", kLow, kSmall, {}, 5},
        {"p1.2", "node1", kLow, kSmall, {}, 4},
        {"p1.3", "node1", kMid, kMedium, {}, 3},
        {"p1.4", "node1", kHigh, kSmall, {}, 2},
        {"p2", "node2", kHigh, kLarge, {}, 1}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 10, 100, {0}, {{{"node1", {"p1.1", "p1.3"}}}}, {4}},
      {"get Unschedulable in the preemption phase when the filter plugins filtering the nodes", {"node1", "node2"},
       {{"p", "", kHigh, kLarge}}, {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}}, "NodeResourcesFit",
       U, {}, 10, 100, {0}, {{}}, {2}},
      {"preemption with violation of same pdb", {"node1"}, {{"p", "", kHigh, kVeryLarge}},
       {{"p1.1", "node1", kMid, kMedium, {{"app", "foo"}}}, {"p1.2", "node1", kMid, kMedium, {{"app", "foo"}}}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {{{{"app", "foo"}}, 1}}, 10, 100, {0},
       {{{"node1", {"p1.1", "p1.2"}, 1}}}, {3}},
      {"preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to "
       "DisruptedPods",
       {"node1"}, {{"p", "", kHigh, kVeryLarge}},
       {{"p1.1", "node1", kMid, kMedium, {{"app", "foo"}}}, {"p1.2", "node1", kMid, kMedium, {{"app", "foo"}}}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {{{{"app", "foo"}}, 1, {"p2"}}}, 10, 100, {0},
       {{{"node1", {"p1.1", "p1.2"}, 1}}}, {3}},
      {"preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to "
       "DisruptedPods",
       {"node1"}, {{"p", "", kHigh, kVeryLarge}},
       {{"p1.1", "node1", kMid, kMedium, {{"app", "foo"}}}, {"p1.2", "node1", kMid, kMedium, {{"app", "foo"}}}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {{{{"app", "foo"}}, 1, {"p1.2"}}}, 10, 100, {0},
       {{{"node1", {"p1.1", "p1.2"}, 0}}}, {3}},
      {"preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to "
       "DisruptedPods is treated as 'nonViolating'",
       {"node1"}, {{"p", "", kHigh, kVeryLarge}},
       {{"p1.1", "node1", kMid, kMedium, {{"app", "foo"}}},
        {"p1.2", "node1", kMid, kMedium, {{"app", "foo"}}},
        {"p1.3", "node1", kMid, kMedium, {{"app", "foo"}}}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {{{{"app", "foo"}}, 1, {"p1.3"}}}, 10, 100, {0},
       {{{"node1", {"p1.1", "p1.2", "p1.3"}, 1}}}, {4}},
      {"all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
       {"node1", "node2", "node3", "node4", "node5"}, {{"p", "", kHigh, kLarge}},
       {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}, {"p3", "node3", kMid, kLarge},
        {"p4", "node4", kMid, kLarge}, {"p5", "node5", kMid, kLarge}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 40, 1, {4}, {{{"node1", {"p1"}}, {"node5", {"p5"}}}}, {4}},
      {"some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
       {"node1", "node2", "node3", "node4", "node5"}, {{"p", "", kHigh, kLarge}},
       {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kVeryHigh, kLarge}, {"p3", "node3", kMid, kLarge},
        {"p4", "node4", kMid, kLarge}, {"p5", "node5", kVeryHigh, kLarge}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 40, 1, {4}, {{{"node1", {"p1"}}, {"node3", {"p3"}}}}, {4}},
      {"preemption offset across multiple scheduling cycles and wrap around",
       {"node1", "node2", "node3", "node4", "node5"},
       {{"tp1", "", kHigh, kLarge}, {"tp2", "", kHigh, kLarge}, {"tp3", "", kHigh, kLarge}},
       {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}, {"p3", "node3", kMid, kLarge},
        {"p4", "node4", kMid, kLarge}, {"p5", "node5", kMid, kLarge}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {}, 40, 1, {4, 1, 3},
       {{{"node1", {"p1"}}, {"node5", {"p5"}}},
        {{"node2", {"p2"}}, {"node3", {"p3"}}},
        {{"node4", {"p4"}}, {"node5", {"p5"}}}},
       {4, 4, 4}},
      {"preemption looks past numCandidates until a non-PDB violating node is found",
       {"node1", "node2", "node3", "node4", "node5"}, {{"p", "", kHigh, kLarge}},
       {{"p1", "node1", kMid, kLarge, {{"app", "foo"}}}, {"p2", "node2", kMid, kLarge, {{"app", "foo"}}},
        {"p3", "node3", kMid, kLarge}, {"p4", "node4", kMid, kLarge}, {"p5", "node5", kMid, kLarge, {{"app", "foo"}}}},
       "NodeResourcesFit", SchedStatus::Code::kSuccess, {{{{"app", "foo"}}, 0}}, 40, 2, {4},
       {{{"node1", {"p1"}, 1}, {"node3", {"p3"}, 0}, {"node5", {"p5"}, 1}}}, {8}},
  };
  for (const DryRunCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    World w(VeryLargeNodes(tc.nodes), tc.init, tc.pdbs);
    w.in.min_candidate_nodes_percentage = tc.pct;
    w.in.min_candidate_nodes_absolute = tc.abs;
    auto filters = Chain(tc.fake_code, Second(tc.second_filter));
    std::vector<size_t> all;
    for (size_t i = 0; i < tc.nodes.size(); ++i) all.push_back(i);
    for (size_t cycle = 0; cycle < tc.preemptors.size(); ++cycle) {
      Pod p = MakePod(tc.preemptors[cycle]);
      PodInfo info = PodInfo::Make(p, 1000);
      const int32_t num = NumPreemptionCandidates(static_cast<int32_t>(all.size()), tc.pct, tc.abs);
      DryRun got = DryRunPreemption(info, *w.cluster, all, tc.offsets[cycle], num, filters, w.in);
      std::vector<Cand> cands;
      for (const PreemptionCandidate& c : got.candidates) {
        Cand x{w.NodeName(c.node), w.Names(c.victims), c.num_pdb_violations};
        std::sort(x.victims.begin(), x.victims.end());
        cands.push_back(std::move(x));
      }
      std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) { return a.node < b.node; });
      EXPECT_EQ(cands, tc.expected[cycle]) << "cycle " << cycle;
      EXPECT_EQ(got.filter_calls, tc.filter_calls[cycle]) << "cycle " << cycle;
    }
  }
}

// TestDryRunPreemption's "pod with anti-affinity is preempted": p1.1's
// required anti-affinity (foo Exists, hostname) forbids p on node1 until
// p1.1 is a victim; p1.2 is reprieved. Nodes carry hostname as upstream's
// test nodes do.
TEST(DefaultPreemptionTest, DryRunPreemptionResolvesAntiAffinity) {
  std::vector<Node> nodes = VeryLargeNodes({"node1", "node2"});
  for (Node& n : nodes) n.meta.labels["hostname"] = n.name();
  World w(nodes, {});
  const std::vector<TPod> init = {{"p1.1", "node1", kLow, kSmall, {{"foo", ""}}},
                                  {"p1.2", "node1", kMid, kSmall},
                                  {"p1.3", "node1", kHigh, kSmall},
                                  {"p2", "node2", kHigh, kSmall}};
  for (const TPod& t : init) {
    w.pods.push_back(MakePod(t));
    if (t.name == "p1.1") {
      PodAffinitySpec s;
      PodAffinityTerm term;
      term.label_selector = LabelSelector{{}, {{"foo", "Exists", {}}}};
      term.topology_key = "hostname";
      s.anti_affinity = PodAffinityRules{{term}, {}};
      w.pods.back().pod_affinity = std::make_shared<const PodAffinitySpec>(s);
    }
    PodInfo info = PodInfo::Make(w.pods.back(), w.pods.size() - 1);
    w.cluster->Bind(static_cast<size_t>(w.cluster->FindNode(t.node)), info.requests, info.non_zero_requests,
                    w.pods.size() - 1, t.priority, GpuRequest{}, {}, &w.pods.back());
  }
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  filters.push_back(NewFilterPlugin("NodeResourcesFit"));
  filters.push_back(NewFilterPlugin("InterPodAffinity"));
  Pod p = MakePod({"p", "", kHigh, kSmall, {{"foo", ""}}});
  PodInfo info = PodInfo::Make(p, 1000);
  SchedStatus reject = SchedStatus::Success();
  CycleState cycle;
  cycle.Put(filters[1].get(), filters[1]->PreFilter(info, *w.cluster, reject));
  info.cycle = &cycle;
  EXPECT_FALSE(filters[1]->Filter(info, w.cluster->node(0), w.cluster->state(0)).IsSuccess());
  DryRun got = DryRunPreemption(info, *w.cluster, {0, 1}, 0, NumPreemptionCandidates(2, 10, 100), filters, w.in);
  std::vector<Cand> cands;
  for (const PreemptionCandidate& c : got.candidates) cands.push_back(Cand{w.NodeName(c.node), w.Names(c.victims), 0});
  EXPECT_EQ(cands, (std::vector<Cand>{{"node1", {"p1.1"}, 0}}));
  EXPECT_EQ(got.filter_calls, 3);
}

// Victims come out most important first (upstream sorts them only for its
// comparison; the order is what eviction follows).
TEST(DefaultPreemptionTest, VictimsMostImportantFirst) {
  World w(VeryLargeNodes({"node1"}),
          {{"p1.1", "node1", kLow, kSmall, {}, 5},
           {"p1.2", "node1", kLow, kSmall, {}, 4},
           {"p1.3", "node1", kMid, kMedium, {}, 3},
           {"p1.4", "node1", kHigh, kSmall, {}, 2}});
  auto filters = Chain(SchedStatus::Code::kSuccess, NewFilterPlugin("NodeResourcesFit"));
  Pod p = MakePod({"p", "", kHigh, kLarge});
  VictimSelection v = SelectVictimsOnNode(PodInfo::Make(p, 99), *w.cluster, 0, filters, w.in);
  ASSERT_EQ(v.code, SchedStatus::Code::kSuccess);
  EXPECT_EQ(w.Names(v.victims), (std::vector<std::string>{"p1.3", "p1.1"}));
}

// GetPodStartTime: a pod without status.startTime started "now", after
// every pod with one. At equal priority it is the less important (evicted
// first, reprieved last); a node whose highest-priority victims have none
// wins the latest-start rule. Between two such pods upstream's order is the
// clock's; here the one bound later started later.
TEST(DefaultPreemptionTest, PodsWithoutStartTimeStartedNow) {
  auto filters = Chain(SchedStatus::Code::kSuccess, NewFilterPlugin("NodeResourcesFit"));
  {
    World w(VeryLargeNodes({"node1"}), {{"new", "node1", kLow, kMedium},
                                        {"old", "node1", kLow, kMedium, {}, 7},
                                        {"older", "node1", kLow, kMedium, {}, 3}});
    Pod p = MakePod({"p", "", kHigh, kSmall});
    VictimSelection v = SelectVictimsOnNode(PodInfo::Make(p, 99), *w.cluster, 0, filters, w.in);
    ASSERT_EQ(v.code, SchedStatus::Code::kSuccess);
    // Reprieved most important first: "older", then "old"; "new" goes.
    EXPECT_EQ(w.Names(v.victims), (std::vector<std::string>{"new"}));
  }
  {
    World w(VeryLargeNodes({"node1", "node2", "node3"}), {{"a", "node1", kMid, kVeryLarge, {}, 5},
                                                          {"b", "node2", kMid, kVeryLarge},
                                                          {"c", "node3", kMid, kVeryLarge, {}, 9}});
    Pod p = MakePod({"p", "", kHigh, kLarge});
    DryRun got = DryRunPreemption(PodInfo::Make(p, 99), *w.cluster, {0, 1, 2}, 0, 3, filters, w.in);
    ASSERT_EQ(got.candidates.size(), 3u);
    EXPECT_EQ(w.NodeName(got.candidates[SelectCandidate(got.candidates, w.in.start_time)].node), "node2");
    // Without start times (`simulate`): bind order, the last bound is the latest.
    EXPECT_EQ(w.NodeName(got.candidates[SelectCandidate(got.candidates)].node), "node3");
  }
  {
    World w(VeryLargeNodes({"node1", "node2"}), {{"a", "node1", kMid, kVeryLarge}, {"b", "node2", kMid, kVeryLarge}});
    Pod p = MakePod({"p", "", kHigh, kLarge});
    DryRun got = DryRunPreemption(PodInfo::Make(p, 99), *w.cluster, {0, 1}, 0, 2, filters, w.in);
    ASSERT_EQ(got.candidates.size(), 2u);
    EXPECT_EQ(SelectCandidate(got.candidates, w.in.start_time), 1u);  // b was bound later
  }
}

// Start times read from the input, not the order the pods were listed in
// (kubectl lists them by name): the pod listed last started first.
TEST(DefaultPreemptionTest, StartTimeNotListOrder) {
  auto filters = Chain(SchedStatus::Code::kSuccess, NewFilterPlugin("NodeResourcesFit"));
  World w(VeryLargeNodes({"node1"}), {{"a", "node1", kLow, kMedium, {}, 30},
                                      {"b", "node1", kLow, kMedium, {}, 20},
                                      {"c", "node1", kLow, kSmall, {}, 10}});
  Pod p = MakePod({"p", "", kHigh, kMedium});
  VictimSelection v = SelectVictimsOnNode(PodInfo::Make(p, 99), *w.cluster, 0, filters, w.in);
  ASSERT_EQ(v.code, SchedStatus::Code::kSuccess);
  // c (oldest), then b are reprieved; a, the newest, goes (by list order b would).
  EXPECT_EQ(w.Names(v.victims), (std::vector<std::string>{"a"}));
}

struct BestCase {
  std::string name;
  std::vector<std::string> nodes;
  TPod pod;
  std::vector<TPod> pods;
  std::set<std::string> expected;  // any of them
};

TEST(DefaultPreemptionTest, TestSelectBestCandidate) {
  const std::vector<BestCase> cases = {
      {"a pod that fits on both nodes when lower priority pods are preempted", {"node1", "node2"},
       {"p", "", kHigh, kLarge}, {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}}, {"node1", "node2"}},
      {"node with min highest priority pod is picked", {"node1", "node2", "node3"}, {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kMedium}, {"p1.2", "node1", kMid, kLarge}, {"p2.1", "node2", kMid, kMedium},
        {"p2.2", "node2", kLow, kMedium}, {"p3.1", "node3", kLow, kMedium}, {"p3.2", "node3", kLow, kMedium}},
       {"node3"}},
      {"when highest priorities are the same, minimum sum of priorities is picked", {"node1", "node2", "node3"},
       {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kMedium}, {"p1.2", "node1", kMid, kLarge}, {"p2.1", "node2", kMid, kLarge},
        {"p2.2", "node2", kLow, kMedium}, {"p3.1", "node3", kMid, kMedium}, {"p3.2", "node3", kMid, kMedium}},
       {"node2"}},
      {"when highest priority and sum are the same, minimum number of pods is picked", {"node1", "node2", "node3"},
       {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kSmall}, {"p1.2", "node1", kNeg, kSmall}, {"p1.3", "node1", kMid, kSmall},
        {"p1.4", "node1", kNeg, kSmall}, {"p2.1", "node2", kMid, kLarge}, {"p2.2", "node2", kNeg, kMedium},
        {"p3.1", "node3", kMid, kMedium}, {"p3.2", "node3", kNeg, kSmall}, {"p3.3", "node3", kLow, kSmall}},
       {"node2"}},
      {"sum of adjusted priorities is considered", {"node1", "node2", "node3"}, {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kSmall}, {"p1.2", "node1", kNeg, kSmall}, {"p1.3", "node1", kNeg, kSmall},
        {"p2.1", "node2", kMid, kLarge}, {"p2.2", "node2", kNeg, kMedium}, {"p3.1", "node3", kMid, kMedium},
        {"p3.2", "node3", kNeg, kSmall}, {"p3.3", "node3", kLow, kSmall}},
       {"node2"}},
      {"non-overlapping lowest high priority, sum priorities, and number of pods",
       {"node1", "node2", "node3", "node4"}, {"p", "", kVeryHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kSmall}, {"p1.2", "node1", kLow, kSmall}, {"p1.3", "node1", kLow, kSmall},
        {"p2.1", "node2", kHigh, kLarge}, {"p3.1", "node3", kMid, kMedium}, {"p3.2", "node3", kLow, kSmall},
        {"p3.3", "node3", kLow, kSmall}, {"p3.4", "node3", kLow, kMedium}, {"p4.1", "node4", kMid, kMedium},
        {"p4.2", "node4", kMid, kSmall}, {"p4.3", "node4", kMid, kSmall}, {"p4.4", "node4", kNeg, kSmall}},
       {"node1"}},
      {"same priority, same number of victims, different start time for each node's pod",
       {"node1", "node2", "node3"}, {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kMedium, {}, 2}, {"p1.2", "node1", kMid, kMedium, {}, 2},
        {"p2.1", "node2", kMid, kMedium, {}, 3}, {"p2.2", "node2", kMid, kMedium, {}, 3},
        {"p3.1", "node3", kMid, kMedium, {}, 1}, {"p3.2", "node3", kMid, kMedium, {}, 1}},
       {"node2"}},
      {"same priority, same number of victims, different start time for all pods", {"node1", "node2", "node3"},
       {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kMid, kMedium, {}, 4}, {"p1.2", "node1", kMid, kMedium, {}, 2},
        {"p2.1", "node2", kMid, kMedium, {}, 5}, {"p2.2", "node2", kMid, kMedium, {}, 1},
        {"p3.1", "node3", kMid, kMedium, {}, 3}, {"p3.2", "node3", kMid, kMedium, {}, 6}},
       {"node3"}},
      {"different priority, same number of victims, different start time for all pods", {"node1", "node2", "node3"},
       {"p", "", kHigh, kVeryLarge},
       {{"p1.1", "node1", kLow, kMedium, {}, 4}, {"p1.2", "node1", kMid, kMedium, {}, 2},
        {"p2.1", "node2", kMid, kMedium, {}, 6}, {"p2.2", "node2", kLow, kMedium, {}, 1},
        {"p3.1", "node3", kLow, kMedium, {}, 3}, {"p3.2", "node3", kMid, kMedium, {}, 5}},
       {"node2"}},
  };
  for (const BestCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    // Every pod of upstream's table has a StartTime: epochTime unless given.
    std::vector<TPod> pods = tc.pods;
    for (TPod& t : pods) t.start = t.start.value_or(0);
    World w(VeryLargeNodes(tc.nodes), pods);
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    filters.push_back(NewFilterPlugin("NodeResourcesFit"));
    std::vector<size_t> all;
    for (size_t i = 0; i < tc.nodes.size(); ++i) all.push_back(i);
    Pod p = MakePod(tc.pod);
    const int32_t num = NumPreemptionCandidates(static_cast<int32_t>(all.size()), 10, 100);
    // Upstream's offset from rand.NewSource(4): every node is visited here
    // anyway (numCandidates is all of them).
    DryRun got = DryRunPreemption(PodInfo::Make(p, 99), *w.cluster, all, 4 % all.size(), num, filters, w.in);
    ASSERT_FALSE(got.candidates.empty());
    const std::string chosen = w.NodeName(got.candidates[SelectCandidate(got.candidates, w.in.start_time)].node);
    EXPECT_TRUE(tc.expected.count(chosen)) << "got " << chosen;
  }
}

struct PostFilterCase {
  std::string name;
  TPod pod;
  std::vector<TPod> pods;
  std::vector<TPdb> pdbs;
  std::vector<Node> nodes;
  std::map<std::string, SchedStatus::Code> statuses;  // absent: UnschedulableAndUnresolvable
  std::string want_node;                              // "" when not nominated
  std::string want_message;
};

TEST(DefaultPreemptionTest, TestPostFilter) {
  const auto U = SchedStatus::Code::kUnschedulable;
  const auto UU = SchedStatus::Code::kUnschedulableAndUnresolvable;
  const R node_res{200, 400};
  auto one_pod = [](const std::string& n) { return MakeNode(n, kNone, 1); };
  const std::vector<PostFilterCase> cases = {
      {"pod with higher priority can be made schedulable", {"p", "", kHigh}, {{"p1", "node1", 0}}, {},
       {one_pod("node1")}, {{"node1", U}}, "node1", ""},
      {"pod with tied priority is still unschedulable", {"p", "", 0}, {{"p1", "node1", 0}}, {}, {one_pod("node1")},
       {{"node1", U}}, "", "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
      {"preemption should respect filteredNodesStatuses", {"p", "", kHigh}, {{"p1", "node1", 0}}, {},
       {one_pod("node1")}, {{"node1", UU}}, "",
       "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
      {"preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable",
       {"p", "", kHigh}, {{"p1", "node1", 0}}, {}, {one_pod("node1")}, {}, "",
       "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
      {"pod can be made schedulable on one node", {"p", "", kMid},
       {{"p1", "node1", kHigh}, {"p2", "node2", kLow}}, {}, {one_pod("node1"), one_pod("node2")},
       {{"node1", U}, {"node2", U}}, "node2", ""},
      {"pod can be made schedulable on minHighestPriority node", {"p", "", kVeryHigh},
       {{"p1", "node1", kHigh, kNone, {{"test.kubernetes.io/is-violating-pdb", "non-violating"}}},
        {"p2", "node1", kLow, kNone, {{"test.kubernetes.io/is-violating-pdb", "violating"}}},
        {"p3", "node2", kMid, kNone, {{"test.kubernetes.io/is-violating-pdb", "violating"}}}},
       {{{{"test.kubernetes.io/is-violating-pdb", "violating"}}, 0},
        {{{"test.kubernetes.io/is-violating-pdb", "non-violating"}}, std::numeric_limits<int32_t>::max()}},
       {one_pod("node1"), one_pod("node2")}, {{"node1", U}, {"node2", U}}, "node2", ""},
      {"no candidate nodes found, no enough resource after removing low priority pods", {"p", "", kHigh, kLarge},
       {{"p1", "node1", 0}, {"p2", "node2", 0}}, {}, {MakeNode("node1", node_res), MakeNode("node2", node_res)},
       {{"node1", U}, {"node2", U}}, "", "preemption: 0/2 nodes are available: 2 Insufficient cpu."},
      {"no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
       {"p", "", kHigh, kLarge}, {{"p1", "node1", kHigh}, {"p2", "node2", 0}, {"p3", "node3", kHigh}}, {},
       {one_pod("node1"), MakeNode("node2", node_res), one_pod("node3")},
       {{"node1", U}, {"node2", U}, {"node3", U}}, "",
       "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod."},
      {"no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have "
       "enough CPU resource",
       {"p", "", kHigh, kLarge}, {{"p1", "node1", 0}, {"p2", "node2", 0}}, {},
       {MakeNode("node1", node_res), MakeNode("node2", node_res), MakeNode("node3", node_res),
        MakeNode("node4", node_res)},
       {{"node1", U}, {"node2", U}, {"node4", UU}}, "",
       "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling."},
  };
  for (const PostFilterCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    World w(tc.nodes, tc.pods, tc.pdbs);
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    filters.push_back(NewFilterPlugin("NodeResourcesFit"));
    std::vector<SchedStatus::Code> codes(tc.nodes.size(), UU);
    for (size_t i = 0; i < tc.nodes.size(); ++i)
      if (auto it = tc.statuses.find(tc.nodes[i].name()); it != tc.statuses.end()) codes[i] = it->second;
    Pod p = MakePod(tc.pod);
    PreemptionResult r = Preempt(PodInfo::Make(p, 99), *w.cluster, codes, filters, w.in, 0);
    EXPECT_EQ(r.nominated ? w.NodeName(r.node) : "", tc.want_node);
    EXPECT_EQ(r.message, tc.want_message);
  }
}

// A node reported Unschedulable where the pod fits once every victim is
// reprieved: DryRunPreemption's Error status, which the PostFilter returns
// when no node is a candidate.
TEST(DefaultPreemptionTest, NoVictimNeededIsAnError) {
  World w(VeryLargeNodes({"node1"}), {{"p1", "node1", kLow, kSmall}});
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  filters.push_back(NewFilterPlugin("NodeResourcesFit"));
  Pod p = MakePod({"p", "", kHigh, kSmall});
  PreemptionResult r =
      Preempt(PodInfo::Make(p, 99), *w.cluster, {SchedStatus::Code::kUnschedulable}, filters, w.in, 0);
  EXPECT_FALSE(r.nominated);
  EXPECT_EQ(r.message, "preemption: expected at least one victim pod on node \"node1\"");
}

TEST(DefaultPreemptionTest, TestPodEligibleToPreemptOthers) {
  const auto UU = SchedStatus::Code::kUnschedulableAndUnresolvable;
  const auto OK = SchedStatus::Code::kSuccess;  // upstream's nil status
  struct Case {
    std::string name;
    TPod pod;
    std::vector<TPod> pods;
    std::vector<std::string> nodes;
    SchedStatus::Code nominated_code;
    bool expected;
  };
  TPod terminating{"p1", "node1", kLow};
  terminating.terminating = true;
  TPod preempted = terminating;
  preempted.disrupted_by_scheduler = true;
  TPod nominated{"p_with_nominated_node", "", kHigh};
  nominated.nominated = "node1";
  TPod never_pod{"p_with_preempt_never_policy", "", kHigh};
  const std::vector<Case> cases = {
      {"Pod with nominated node", nominated, {terminating}, {"node1"}, UU, true},
      {"Pod without nominated node", {"p_without_nominated_node", "", kHigh}, {}, {}, OK, true},
      {"Pod with 'PreemptNever' preemption policy", never_pod, {}, {}, OK, false},
      {"preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition", nominated,
       {preempted}, {"node1"}, OK, false},
      {"non-victim Pods terminating", nominated, {terminating}, {"node1"}, OK, true},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    World w(VeryLargeNodes(tc.nodes), tc.pods);
    Pod p = MakePod(tc.pod);
    if (tc.pod.name == never_pod.name) p.preemption_policy = "Never";
    // The nominated node as `schedule` finds it (batch_preemption.cc).
    std::optional<size_t> node;
    if (const int64_t n = w.cluster->FindNode(p.nominated_node_name); n >= 0) node = static_cast<size_t>(n);
    std::optional<std::string> why = PodIneligibleToPreemptOthers(PodInfo::Make(p, 99), node, tc.nominated_code,
                                                                  *w.cluster, w.in);
    EXPECT_EQ(!why.has_value(), tc.expected);
  }
  // The messages.
  World w({MakeNode("node1", kVeryLarge)}, {});
  Pod never = MakePod({"p", "", kHigh});
  never.preemption_policy = "Never";
  EXPECT_EQ(PodIneligibleToPreemptOthers(PodInfo::Make(never, 0), std::nullopt, UU, *w.cluster, w.in),
            "not eligible due to preemptionPolicy=Never.");
}

// Upstream's nodes "node-a/zone1": labels hostname=node-a, zone=zone1.
std::vector<Node> ZonedNodes(const std::vector<std::pair<std::string, std::string>>& names) {
  std::vector<Node> out;
  for (const auto& [name, zone] : names) {
    Node n = MakeNode(name, kVeryLarge);
    n.meta.labels["hostname"] = name;
    n.meta.labels["zone"] = zone;
    out.push_back(std::move(n));
  }
  return out;
}

// The preemptor of the spread cases: zone and hostname, maxSkew 1,
// DoNotSchedule, selecting foo.
Pod SpreadPreemptor() {
  Pod p = MakePod({"p", "", kHigh, kNone, {{"foo", ""}}});
  auto extras = std::make_shared<PodSpecExtras>();
  for (const char* key : {"zone", "hostname"}) {
    TopologySpreadConstraint c;
    c.max_skew = 1;
    c.topology_key = key;
    c.when_unsatisfiable = kDoNotSchedule;
    c.label_selector = LabelSelector{};
    c.label_selector->match_expressions.push_back({"foo", "Exists", {}});
    extras->topology_spread_constraints.push_back(std::move(c));
  }
  p.extras = std::move(extras);
  return p;
}

// The preemptor with its PreFilter state, as the framework hands it to
// preemption (RunPreFilterPlugins before the PostFilter).
PodInfo WithCycle(const Pod& p, const FilterPlugin& spread, const ClusterState& cluster, CycleState& cycle) {
  PodInfo info = PodInfo::Make(p, 1000);
  SchedStatus reject = SchedStatus::Success();
  std::unique_ptr<PreFilterData> data = spread.PreFilter(info, cluster, reject);
  EXPECT_NE(data, nullptr);
  cycle.Put(&spread, std::move(data));
  info.cycle = &cycle;
  return info;
}

// TestDryRunPreemption "preemption to resolve pod topology spread filter
// failure": PodTopologySpread alone.
TEST(DefaultPreemptionTest, TopologySpreadDryRunPreemption) {
  World w(ZonedNodes({{"node-a", "zone1"}, {"node-b", "zone1"}, {"node-x", "zone2"}}),
          {{"pod-a1", "node-a", kMid, kNone, {{"foo", ""}}},
           {"pod-a2", "node-a", kLow, kNone, {{"foo", ""}}},
           {"pod-b1", "node-b", kLow, kNone, {{"foo", ""}}},
           {"pod-x1", "node-x", kHigh, kNone, {{"foo", ""}}},
           {"pod-x2", "node-x", kHigh, kNone, {{"foo", ""}}}});
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  filters.push_back(std::make_unique<PodTopologySpread>());
  const Pod p = SpreadPreemptor();
  CycleState cycle;
  const PodInfo info = WithCycle(p, *filters[0], *w.cluster, cycle);
  const int32_t num = NumPreemptionCandidates(3, w.in.min_candidate_nodes_percentage, w.in.min_candidate_nodes_absolute);
  DryRun got = DryRunPreemption(info, *w.cluster, {0, 1, 2}, 0, num, filters, w.in);
  std::vector<Cand> cands;
  for (const PreemptionCandidate& c : got.candidates) cands.push_back({w.NodeName(c.node), w.Names(c.victims), 0});
  std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) { return a.node < b.node; });
  EXPECT_EQ(cands, (std::vector<Cand>{{"node-a", {"pod-a2"}, 0}, {"node-b", {"pod-b1"}, 0}}));
}

// TestPreempt "preemption for topology spread constraints": node-b
// nominated, p-b1 its victim.
TEST(DefaultPreemptionTest, TopologySpreadPreempt) {
  World w(ZonedNodes({{"node-a", "zone1"}, {"node-b", "zone1"}, {"node-x", "zone2"}}),
          {{"p-a1", "node-a", kHigh, kNone, {{"foo", ""}}},
           {"p-a2", "node-a", kHigh, kNone, {{"foo", ""}}},
           {"p-b1", "node-b", kLow, kNone, {{"foo", ""}}},
           {"p-x1", "node-x", kHigh, kNone, {{"foo", ""}}},
           {"p-x2", "node-x", kHigh, kNone, {{"foo", ""}}}});
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  filters.push_back(std::make_unique<PodTopologySpread>());
  const Pod p = SpreadPreemptor();
  CycleState cycle;
  const PodInfo info = WithCycle(p, *filters[0], *w.cluster, cycle);
  const std::vector<SchedStatus::Code> codes(3, SchedStatus::Code::kUnschedulable);
  PreemptionResult r = Preempt(info, *w.cluster, codes, filters, w.in, 0);
  ASSERT_TRUE(r.nominated);
  EXPECT_EQ(w.NodeName(r.node), "node-b");
  EXPECT_EQ(w.Names(r.victims), std::vector<std::string>{"p-b1"});
}

// TestPreempt's cases with NodeResourcesFit alone (the topology spread and
// extender ones have no counterpart): every node Unschedulable, pods
// without StartTime.
TEST(DefaultPreemptionTest, TestPreempt) {
  struct Case {
    std::string name;
    std::string policy;
    std::string want_node;  // "" when not nominated
    std::vector<std::string> victims;
  };
  const std::vector<Case> cases = {
      {"basic preemption logic", "PreemptLowerPriority", "node1", {"p1.1", "p1.2"}},
      {"no preempting in pod", "Never", "", {}},
      {"PreemptionPolicy is nil", "", "node1", {"p1.1", "p1.2"}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    World w(VeryLargeNodes({"node1", "node2", "node3"}), {{"p1.1", "node1", kLow, kSmall},
                                                          {"p1.2", "node1", kLow, kSmall},
                                                          {"p2.1", "node2", kHigh, kLarge},
                                                          {"p3.1", "node3", kMid, kMedium}});
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    filters.push_back(NewFilterPlugin("NodeResourcesFit"));
    Pod p = MakePod({"p", "", kHigh, kVeryLarge});
    p.preemption_policy = tc.policy;
    const std::vector<SchedStatus::Code> codes(3, SchedStatus::Code::kUnschedulable);
    PreemptionResult r = Preempt(PodInfo::Make(p, 99), *w.cluster, codes, filters, w.in, 0);
    EXPECT_EQ(r.nominated ? w.NodeName(r.node) : "", tc.want_node);
    std::vector<std::string> victims = w.Names(r.victims);
    std::sort(victims.begin(), victims.end());
    EXPECT_EQ(victims, tc.victims);
  }
}

// preemption_test.go's table; v1.35 reads absent nodes as
// UnschedulableAndUnresolvable (NodeToStatus' absent status), so the absent
// nodes the older table expected are not candidates here. The reasons do
// not matter, only the codes.
TEST(DefaultPreemptionTest, TestNodesWherePreemptionMightHelp) {
  const auto U = SchedStatus::Code::kUnschedulable;
  const auto UU = SchedStatus::Code::kUnschedulableAndUnresolvable;
  const auto A = UU;  // absent
  struct Case {
    std::string name;
    std::vector<SchedStatus::Code> codes;  // node1..node4
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"No node should be attempted", {UU, UU, UU, UU}, {}},
      {"ErrReasonAntiAffinityRulesNotMatch should be tried as it indicates that the pod is unschedulable due to "
       "inter-pod anti-affinity",
       {U, UU, UU, A}, {"node1"}},
      {"ErrReasonAffinityRulesNotMatch should not be tried ..., but ErrReasonAffinityNotMatch should be tried",
       {UU, U, A, A}, {"node2"}},
      {"Mix of failed filters works fine", {UU, U, A, A}, {"node2"}},
      {"Node condition errors should be considered unresolvable", {UU, A, A, A}, {}},
      {"ErrVolume... errors should not be tried", {UU, UU, UU, A}, {}},
      {"ErrReasonConstraintsNotMatch should be tried", {U, UU, U, A}, {"node1", "node3"}},
      {"UnschedulableAndUnresolvable status should be skipped but Unschedulable should be tried", {A, UU, U, UU},
       {"node3"}},
      {"ErrReasonNodeLabelNotMatch should not be tried", {A, UU, U, UU}, {"node3"}},
  };
  World w(VeryLargeNodes({"node1", "node2", "node3", "node4"}), {});
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<std::string> got;
    for (size_t i : NodesWherePreemptionMightHelp(*w.cluster, tc.codes)) got.push_back(w.NodeName(i));
    EXPECT_EQ(got, tc.expected);
  }
  // A status vector shorter than the nodes: the rest are absent.
  EXPECT_EQ(NodesWherePreemptionMightHelp(*w.cluster, {U}), std::vector<size_t>{0});
}

TEST(DefaultPreemptionTest, NumCandidates) {
  EXPECT_EQ(NumPreemptionCandidates(5, 40, 1), 2);
  EXPECT_EQ(NumPreemptionCandidates(5, 10, 100), 5);
  EXPECT_EQ(NumPreemptionCandidates(10000, 10, 100), 1000);
  EXPECT_EQ(NumPreemptionCandidates(500, 10, 100), 100);
}

// addNominatedPods: a nominated pod of equal or higher priority counts on
// its node; a lower one does not.
TEST(DefaultPreemptionTest, NominatedPodsCount) {
  World w(VeryLargeNodes({"node1"}), {{"v", "node1", kLow, kLarge}});
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  filters.push_back(NewFilterPlugin("NodeResourcesFit"));
  Pod p = MakePod({"p", "", kMid, kLarge});
  PodInfo info = PodInfo::Make(p, 50);
  for (int32_t prio : {kHigh, kMid, kLow}) {
    SCOPED_TRACE(prio);
    Pod nom = MakePod({"nominee", "", prio, kLarge});
    PodInfo ninfo = PodInfo::Make(nom, 51);
    w.in.nominated = {{&ninfo, 0}};
    VictimSelection v = SelectVictimsOnNode(info, *w.cluster, 0, filters, w.in);
    if (prio >= kMid) {
      EXPECT_EQ(v.code, SchedStatus::Code::kUnschedulable);
    } else {
      EXPECT_EQ(v.code, SchedStatus::Code::kSuccess);
      EXPECT_EQ(w.Names(v.victims), std::vector<std::string>{"v"});
    }
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Random clusters: the chosen candidate has the fewest PDB violations of all
// nodes where preemption helps (so none when some candidate respects every
// PDB), its victims all have lower priority than the preemptor, and the
// preemptor fits once they are gone.
TEST(DefaultPreemptionTest, PropertyPdbRespectedWhenPossible) {
  Rng rng(11);
  for (int iter = 0; iter < 300; ++iter) {
    SCOPED_TRACE(iter);
    const size_t n_nodes = 1 + rng.Uniform(5);
    std::vector<std::string> names;
    for (size_t i = 0; i < n_nodes; ++i) names.push_back("node" + std::to_string(i));
    std::vector<TPod> init;
    for (size_t i = 0; i < 3 * n_nodes; ++i) {
      const R sizes[] = {kSmall, kMedium, kLarge};
      init.push_back({"p" + std::to_string(i), names[rng.Uniform(n_nodes)], static_cast<int32_t>(rng.Uniform(3)) * 100,
                      sizes[rng.Uniform(3)], {{"app", rng.Uniform(2) ? "a" : "b"}}, static_cast<int>(i)});
    }
    std::vector<TPdb> pdbs = {{{{"app", "a"}}, static_cast<int32_t>(rng.Uniform(3))}};
    World w(VeryLargeNodes(names), init, pdbs);
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    filters.push_back(NewFilterPlugin("NodeResourcesFit"));
    Pod p = MakePod({"pre", "", static_cast<int32_t>(rng.Uniform(4)) * 100, kLarge});
    PodInfo info = PodInfo::Make(p, 999);
    std::vector<SchedStatus::Code> codes(n_nodes, SchedStatus::Code::kUnschedulable);
    PreemptionResult r = Preempt(info, *w.cluster, codes, filters, w.in, rng.Uniform(7));
    int64_t best = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < n_nodes; ++i) {
      VictimSelection v = SelectVictimsOnNode(info, *w.cluster, i, filters, w.in);
      if (v.code == SchedStatus::Code::kSuccess && !v.victims.empty()) best = std::min(best, v.num_pdb_violations);
    }
    if (best == std::numeric_limits<int64_t>::max()) {
      EXPECT_FALSE(r.nominated);
      continue;
    }
    ASSERT_TRUE(r.nominated);
    EXPECT_EQ(r.num_pdb_violations, best);
    NodeState s = w.cluster->state(r.node);
    for (const BoundPod& v : r.victims) {
      EXPECT_LT(v.priority, info.priority);
      s.Remove(v);
    }
    EXPECT_TRUE(PassesFilters(filters, info, w.cluster->node(r.node), s));
  }
}

}  // namespace
}  // namespace gpusched
