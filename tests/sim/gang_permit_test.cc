// GangPermit (sim/gang_permit.h) inside whole simulations, on random small
// clusters and workloads with gangs enforced by Coscheduling, GangScheduling
// or a session scheduler (Volcano), and placed one by one: the invariants
// hold after every event batch (node usage recomputed with the members
// reserved and waiting, pod conservation with them, no enforced gang
// running below minCount), every pod ends in exactly one outcome, and an
// enforced gang first starts with at least minCount members at once.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/gang.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sim/gang_permit.h"
#include "gpusched/sim/simulator.h"
#include "gpusched/util/random.h"

namespace gpusched {
namespace {

int64_t Between(Rng& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng.Uniform(static_cast<uint64_t>(hi - lo + 1)));
}

struct GangScenario {
  std::vector<Node> nodes;
  Workload workload;
  std::vector<PodGroupDecl> decls;
};

GangScenario RandomGangScenario(uint64_t seed) {
  Rng rng(seed);
  GangScenario s;
  const int64_t num_nodes = Between(rng, 1, 5);
  for (int64_t i = 0; i < num_nodes; ++i)
    s.nodes.push_back(testing::GpuNode("n" + std::to_string(i), Between(rng, 1, 8)));
  const int64_t gangs = Between(rng, 1, 4);
  int64_t pod = 0;
  for (int64_t g = 0; g < gangs; ++g) {
    PodGroupDecl d;
    d.api = GangApi::kCoscheduling;
    d.name = "pg" + std::to_string(g);
    const int64_t members = Between(rng, 2, 4);
    d.min_count = static_cast<int32_t>(Between(rng, 2, members));
    const int64_t t = Between(rng, 0, 2);
    if (t > 0) d.timeout_seconds = static_cast<double>(t * 20);
    for (int64_t m = 0; m < members; ++m) {
      WorkloadPod wp;
      wp.pod = testing::GpuPod("g" + std::to_string(g) + "-" + std::to_string(m), Between(rng, 1, 4));
      wp.pod.meta.labels[kCoschedulingPodGroupLabel] = d.name;
      wp.arrival = static_cast<double>(Between(rng, 0, 40));
      const int64_t dur = Between(rng, 0, 9);
      wp.duration = dur == 0 ? -1 : static_cast<double>(dur * 30);
      s.workload.pods.push_back(std::move(wp));
      ++pod;
    }
    d.ns = s.workload.pods.back().pod.ns();
    s.decls.push_back(d);
  }
  for (int64_t i = 0, n = Between(rng, 0, 6); i < n; ++i) {
    WorkloadPod wp;
    wp.pod = testing::GpuPod("solo" + std::to_string(i), Between(rng, 0, 4));
    if (Between(rng, 0, 2) == 0) wp.pod.priority = 100;
    wp.arrival = static_cast<double>(Between(rng, 0, 60));
    wp.duration = static_cast<double>(Between(rng, 0, 9) * 30);
    s.workload.pods.push_back(std::move(wp));
  }
  if (Between(rng, 0, 2) == 0) {
    NodeEvent e;
    e.kind = NodeEvent::Kind::kRemove;
    e.time = static_cast<double>(Between(rng, 0, 100));
    e.name = "n0";
    s.workload.node_events.push_back(e);
  }
  return s;
}

TEST(GangPermitTest, EnforcedGangsStartWholeAndEveryPodIsAccountedFor) {
  const char* enforcers[] = {"Coscheduling", "GangScheduling", "Volcano", ""};
  std::map<std::string, int64_t> started, timeouts, partial;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const std::string enforcer = enforcers[seed % 4];
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " enforcer '" << enforcer << "'");
    GangScenario sc = RandomGangScenario(seed);
    std::vector<const Pod*> pods;
    for (const WorkloadPod& wp : sc.workload.pods) pods.push_back(&wp.pod);
    GangSet set = GroupIntoGangs(sc.decls, pods);
    GangServing serving;
    if (!enforcer.empty())
      serving[kDefaultSchedulerName] = GangEnforcement{{GangApi::kCoscheduling}, enforcer, 60, 0.10};
    int violations = 0;
    SimOptions o;
    o.check_invariants = true;
    o.invariant_failed = [&violations](const std::string& what) {
      if (++violations <= 3) ADD_FAILURE() << what;
    };
    o.gangs = &set;
    o.gang_serving = &serving;
    Result<SchedulerSet> schedulers = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", seed, {});
    ASSERT_TRUE(schedulers.ok());
    SimResult r = Simulate(sc.workload, sc.nodes, *schedulers.value().owned.front(), o);
    EXPECT_EQ(violations, 0);
    const SimSummary& sum = r.summary;
    ASSERT_EQ(r.pods.size(), sc.workload.pods.size());
    EXPECT_EQ(sum.finished + sum.running + sum.pending + sum.rejected + sum.preempted, sum.pods);
    EXPECT_EQ(sum.gangs.gangs, static_cast<int64_t>(set.gangs.size()));
    EXPECT_EQ(sum.gangs.enforced, enforcer.empty() ? 0 : static_cast<int64_t>(set.gangs.size()));
    std::map<std::string, const PodOutcome*> by_name;
    for (const PodOutcome& o : r.pods) by_name[o.name] = &o;
    for (const Gang& g : set.gangs) {
      double first = -1;
      for (const GangMember& m : g.members) {
        const double st = by_name.at(m.pod)->start;
        if (st >= 0 && (first < 0 || st < first)) first = st;
      }
      if (first < 0) continue;
      int64_t together = 0;
      for (const GangMember& m : g.members) together += by_name.at(m.pod)->start == first ? 1 : 0;
      // Enforced: the gang's first start lets minCount members go at once;
      // one by one, members start whenever they fit.
      if (!enforcer.empty()) {
        EXPECT_GE(together, g.min_count) << g.key << " first started at " << first;
        ++started[enforcer];
      }
    }
    timeouts[enforcer] += sum.gangs.timeouts + sum.gangs.session_rejections;
    partial[enforcer] += sum.gangs.partial_groups;
    if (enforcer.empty()) {
      EXPECT_EQ(sum.gangs.waiting_gpu_seconds, 0);
    }
  }
  // The scenarios reach what they are meant to test.
  for (const char* e : {"Coscheduling", "GangScheduling", "Volcano"}) {
    EXPECT_GT(started[e], 10) << e;
    EXPECT_GT(timeouts[e], 0) << e;
  }
  EXPECT_GT(partial[""], 0);
}

// The GPU-hours of a group placed one by one while it never had minCount
// running at once, driven event by event: members bound one after the other
// in one scheduling moment (all at the same time) never ran partially, and a
// group that lost members after it started (to preemption, say) is not
// counted here (the simulator reports it as a gang broken by preemption).
TEST(GangPermitTest, PartialGroupsOfGroupsPlacedOneByOne) {
  struct Event {
    char kind;  // 's' started, 'x' stopped
    size_t member;
    double at;
  };
  struct Case {
    std::string name;
    std::vector<Event> events;
    double end;
    int64_t want_groups;
    double want_gpu_hours;
  };
  // One group of 4 members x 4 GPUs, minMember 4.
  const Case cases[] = {
      {"all four bound at the same moment", {{'s', 0, 0}, {'s', 1, 0}, {'s', 2, 0}, {'s', 3, 0}}, 3600, 0, 0},
      {"started whole, one member preempted at 90 min, back at 2.5 h",
       {{'s', 0, 0}, {'s', 1, 0}, {'s', 2, 0}, {'s', 3, 0}, {'x', 2, 5400}, {'s', 2, 9030}},
       18000,
       0,
       0},
      {"two at 0, two at 1 h: 8 GPUs for 1 h",
       {{'s', 0, 0}, {'s', 1, 0}, {'s', 2, 3600}, {'s', 3, 3600}},
       7200,
       1,
       8},
      {"one member alone until the end (30 min)", {{'s', 0, 0}}, 1800, 1, 2},
      {"one member alone, gone at 15 min, the rest never come", {{'s', 0, 0}, {'x', 0, 900}}, 3600, 1, 1},
      {"one member bound and gone at the same moment", {{'s', 0, 60}, {'x', 0, 60}}, 3600, 0, 0},
      {"three at 0, one leaves at 30 min, two more at 1 h: 12 GPUs for 30 min, 8 for 30 min",
       {{'s', 0, 0}, {'s', 1, 0}, {'s', 2, 0}, {'x', 2, 1800}, {'s', 2, 3600}, {'s', 3, 3600}},
       7200,
       1,
       10},
      {"still partial at the end of the run, which is when it started", {{'s', 0, 600}}, 600, 0, 0},
  };
  for (const Case& c : cases) {
    std::vector<Pod> pods;
    for (int m = 0; m < 4; ++m) {
      pods.push_back(testing::GpuPod("w" + std::to_string(m), 4));
      pods.back().meta.labels[kCoschedulingPodGroupLabel] = "pg";
    }
    std::vector<const Pod*> ptrs;
    for (const Pod& p : pods) ptrs.push_back(&p);
    PodGroupDecl d;
    d.api = GangApi::kCoscheduling;
    d.ns = pods.front().ns();
    d.name = "pg";
    d.min_count = 4;
    const GangSet gangs = GroupIntoGangs({d}, ptrs);
    const GangServing none;  // no profile enforces it: placed one by one
    GangPermit permit(gangs, none, ptrs);
    for (const Event& e : c.events) {
      if (e.kind == 's') permit.Started(e.member, 4000, e.at);
      else permit.Stopped(e.member, e.at);
    }
    const GangSimMetrics m = permit.Metrics(c.end);
    EXPECT_EQ(m.gangs, 1) << c.name;
    EXPECT_EQ(m.partial_groups, c.want_groups) << c.name;
    EXPECT_DOUBLE_EQ(m.partial_gpu_hours, c.want_gpu_hours) << c.name;
  }
}

// Task and subgroup minimums at Permit / session commit (GangReady): a
// Volcano job with minMember 3 and minTaskMember worker 2 / ps 1 is not
// committed on three workers, only once its ps is reserved too; a KAI
// PodGroup with subGroups master 1 / worker 2 likewise waits for its master.
TEST(GangPermitTest, SessionWaitsForTaskAndSubgroupMinimums) {
  struct Case {
    std::string name;
    GangApi api;
    int32_t min_count;
    std::vector<GangSubgroup> subgroups;
    std::vector<std::string> labels;  // per member
    std::vector<std::string> want;    // per Reserve in member order: the members allowed
    std::string want_message;         // SessionMessage after all but the last reserved
  };
  const Case cases[] = {
      {"volcano: 3 workers then the ps", GangApi::kVolcano, 3, {{"worker", 2, ""}, {"ps", 1, ""}},
       {"worker", "worker", "worker", "ps"}, {"", "", "", "0 1 2 3"},
       "0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending"},
      {"volcano: minMember 1 below the tasks' sum: the first worker goes", GangApi::kVolcano, 1,
       {{"worker", 1, ""}, {"ps", 1, ""}}, {"worker", "ps"}, {"0", "1"}, ""},
      {"kai: workers then the master", GangApi::kKai, 3, {{"master", 1, ""}, {"worker", 2, ""}},
       {"worker", "worker", "worker", "master"}, {"", "", "", "0 1 2 3"},
       "KAI: pod group pg is not scheduled: 0 of subgroup master's minMember 1 can be allocated (4 pods exist)"},
      {"kai: master then 2 workers, the third worker alone", GangApi::kKai, 3,
       {{"master", 1, ""}, {"worker", 2, ""}}, {"master", "worker", "worker", "worker"}, {"", "", "0 1 2", "3"}, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Pod> pods;
    for (size_t m = 0; m < c.labels.size(); ++m) {
      pods.push_back(testing::GpuPod("m" + std::to_string(m), 1));
      if (c.api == GangApi::kVolcano) {
        pods.back().meta.annotations[kVolcanoGroupNameAnnotation] = "pg";
        pods.back().meta.annotations[kVolcanoTaskSpecAnnotation] = c.labels[m];
      } else {
        pods.back().meta.annotations[kKaiPodGroupAnnotation] = "pg";
        pods.back().meta.labels[kKaiSubGroupLabel] = c.labels[m];
      }
    }
    std::vector<const Pod*> ptrs;
    for (const Pod& p : pods) ptrs.push_back(&p);
    PodGroupDecl d;
    d.api = c.api;
    d.ns = pods.front().ns();
    d.name = "pg";
    d.min_count = c.min_count;
    d.subgroups = c.subgroups;
    const GangSet gangs = GroupIntoGangs({d}, ptrs);
    GangServing serving;
    serving[kDefaultSchedulerName] =
        GangEnforcement{{c.api}, c.api == GangApi::kVolcano ? "Volcano" : "KAI", 60, 0.10};
    GangPermit permit(gangs, serving, ptrs);
    ASSERT_EQ(permit.EnforcedGangOf(0), 0);
    std::vector<std::string> got;
    std::string message;
    for (size_t m = 0; m < pods.size(); ++m) {
      if (m + 1 == pods.size()) message = c.want_message.empty() ? "" : permit.SessionMessage(0);
      const GangPermit::Reserved r = permit.Reserve(m, 1000, 0);
      std::string allowed;
      for (size_t a : r.allow) allowed += (allowed.empty() ? "" : " ") + std::to_string(a);
      got.push_back(allowed);
      for (size_t a : r.allow) permit.Started(a, 1000, 0);
    }
    EXPECT_EQ(got, c.want);
    EXPECT_EQ(message, c.want_message);
    EXPECT_EQ(permit.CheckInvariants(), "");
  }
}

// The same in a whole simulation: the 8-GPU ps of a Volcano job never fits
// 4-GPU nodes, so its three workers, which do, never start.
TEST(GangPermitTest, VolcanoJobWithoutItsPsNeverStarts) {
  std::vector<Node> nodes;
  for (int i = 0; i < 3; ++i) nodes.push_back(testing::GpuNode("n" + std::to_string(i), 4));
  Workload w;
  auto add = [&](const std::string& name, int64_t gpus, const std::string& task) {
    WorkloadPod wp;
    wp.pod = testing::GpuPod(name, gpus);
    wp.pod.meta.annotations[kVolcanoGroupNameAnnotation] = "pg";
    wp.pod.meta.annotations[kVolcanoTaskSpecAnnotation] = task;
    wp.duration = 60;
    w.pods.push_back(std::move(wp));
  };
  add("w0", 4, "worker");
  add("w1", 4, "worker");
  add("w2", 4, "worker");
  add("ps0", 8, "ps");
  std::vector<const Pod*> pods;
  for (const WorkloadPod& wp : w.pods) pods.push_back(&wp.pod);
  PodGroupDecl d;
  d.api = GangApi::kVolcano;
  d.ns = pods.front()->ns();
  d.name = "pg";
  d.min_count = 3;
  d.subgroups = {{"worker", 2, ""}, {"ps", 1, ""}};
  GangSet set = GroupIntoGangs({d}, pods);
  GangServing serving;
  serving[kDefaultSchedulerName] = GangEnforcement{{GangApi::kVolcano}, "Volcano", 60, 0.10};
  SimOptions o;
  o.check_invariants = true;
  int violations = 0;
  o.invariant_failed = [&violations](const std::string& what) {
    if (++violations <= 3) ADD_FAILURE() << what;
  };
  o.gangs = &set;
  o.gang_serving = &serving;
  Result<SchedulerSet> schedulers = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1, {});
  ASSERT_TRUE(schedulers.ok());
  SimResult r = Simulate(w, nodes, *schedulers.value().owned.front(), o);
  EXPECT_EQ(violations, 0);
  ASSERT_EQ(r.pods.size(), 4u);
  for (const PodOutcome& p : r.pods) {
    EXPECT_EQ(p.state, PodOutcome::State::kPending) << p.name;
    EXPECT_EQ(p.start, -1) << p.name;
  }
  EXPECT_EQ(r.summary.gangs.started, 0);
  EXPECT_GT(r.summary.gangs.session_rejections, 0);
}

}  // namespace
}  // namespace gpusched
