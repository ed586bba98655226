// Property tests of preemption in Simulate, on random small clusters and
// workloads with mixed priorities, Jobs and bare pods, grace periods of 0 s
// and more, preemptionPolicy Never, PodDisruptionBudgets and every queue
// order:
//  - no pod is ever preempted by a pod of equal or lower priority;
//  - a PDB is never violated when a candidate that respects it exists (an
//    oracle independent of the dry run: on some node, evicting every
//    lower-priority pod whose eviction the budgets allow lets the preemptor
//    fit);
//  - every pod is accounted for: finished, running, pending, rejected, or
//    preempted (a bare victim, gone); a Job's victim is requeued, never
//    reported preempted; the invariants hold after every event batch;
//  - with --preempt-gangs whole, no preemption leaves a gang with some but
//    fewer than minCount members on the cluster (and under upstream some
//    do, so the check can fail).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/model/gang.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sim/simulator.h"
#include "gpusched/util/random.h"

namespace gpusched {
namespace {

int64_t Between(Rng& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng.Uniform(static_cast<uint64_t>(hi - lo + 1)));
}

struct Scenario {
  std::vector<Node> nodes;
  Workload workload;
  SimOptions options;
};

Scenario RandomScenario(uint64_t seed) {
  Rng rng(seed);
  Scenario s;
  for (int64_t i = 0, n = Between(rng, 1, 5); i < n; ++i)
    s.nodes.push_back(testing::GpuNode("n" + std::to_string(i), Between(rng, 1, 8), Between(rng, 4, 32) * 1000));
  for (int64_t i = 0, n = Between(rng, 5, 40); i < n; ++i) {
    WorkloadPod wp;
    wp.pod = testing::GpuPod("p" + std::to_string(i), Between(rng, 0, 4), Between(rng, 0, 4) * 1000);
    wp.pod.priority = static_cast<int32_t>(Between(rng, 0, 2) * 100);
    if (Between(rng, 0, 1) == 0) wp.pod.meta.labels["app"] = Between(rng, 0, 1) ? "a" : "b";
    if (Between(rng, 0, 1) == 0) wp.pod.owner = "Job/j";
    if (Between(rng, 0, 9) == 0) wp.pod.preemption_policy = "Never";
    static const int64_t kGrace[] = {-1, 0, 5};
    if (const int64_t g = kGrace[Between(rng, 0, 2)]; g >= 0) {
      auto extras = std::make_shared<PodSpecExtras>();
      extras->termination_grace_period_seconds = g;
      wp.pod.extras = extras;
    }
    wp.arrival = static_cast<double>(Between(rng, 0, 400)) / 4;
    wp.duration = static_cast<double>(Between(rng, 1, 800)) / 4;
    s.workload.pods.push_back(std::move(wp));
  }
  for (const char* app : {"a", "b"}) {
    if (Between(rng, 0, 2) == 0) continue;
    PodDisruptionBudget pdb;
    pdb.meta.name = std::string("pdb-") + app;
    pdb.meta.namespace_ = s.workload.pods.front().pod.ns();
    pdb.selector = LabelSelector{};
    pdb.selector->match_labels["app"] = app;
    pdb.min_available = IntOrPercent{Between(rng, 0, 3), false};
    s.workload.pdbs.push_back(pdb);
  }
  const QueueOrder orders[] = {QueueOrder::kPriority, QueueOrder::kFifo, QueueOrder::kLargestFirst,
                               QueueOrder::kSmallestFirst};
  s.options.order = orders[Between(rng, 0, 3)];
  s.options.check_invariants = true;
  s.options.max_batches = 100000;  // a run that loops at one instant fails below rather than hangs
  return s;
}

// Whether the budgets allow evicting `p` (and use them up if so).
bool TakeBudget(const Pod& p, const std::vector<PdbBudget>& pdbs, std::vector<int32_t>& allowed) {
  std::vector<size_t> matching;
  for (size_t k = 0; k < pdbs.size(); ++k)
    if (PdbSelects(*pdbs[k].pdb, p)) {
      if (allowed[k] <= 0) return false;
      matching.push_back(k);
    }
  for (size_t k : matching) --allowed[k];
  return true;
}

// Some node where evicting only lower-priority pods the budgets allow lets
// the preemptor pass the filters (with the nominated pods counted).
bool RespectingCandidateExists(const SimPreemption& sp, const Workload& w,
                               const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  const ClusterState& c = *sp.cluster;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c.present(i)) continue;
    std::vector<int32_t> allowed;
    for (const PdbBudget& b : *sp.pdbs) allowed.push_back(b.disruptions_allowed);
    NodeState s = AccountingCopy(c.state(i));
    bool removed = false;
    for (const BoundPod& bp : c.state(i).pods) {
      if (bp.priority >= sp.pod->priority) continue;
      if (!TakeBudget(w.pods[bp.id].pod, *sp.pdbs, allowed)) continue;
      s.Remove(bp);
      removed = true;
    }
    if (!removed) continue;
    FilterVerdict why;
    std::vector<const PodInfo*> scratch;
    if (!CheckFiltersWithNominated(filters, *sp.pod, c.node(i), i, s, *sp.nominated, why, scratch)) return true;
  }
  return false;
}

TEST(SimPreemptionPropertyTest, PriorityPdbAndAccounting) {
  std::map<std::string, int64_t> seen;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    Scenario sc = RandomScenario(seed);
    int violations = 0;
    sc.options.invariant_failed = [&violations](const std::string& what) {
      if (++violations <= 3) ADD_FAILURE() << what;
    };
    Scheduler sched(DefaultFilters(), std::make_unique<FirstFitPolicy>(), seed, /*preemption=*/true);
    std::set<size_t> victims;
    int64_t records = 0;
    sc.options.on_preemption = [&](const SimPreemption& sp) {
      ++records;
      const int32_t prio = sc.workload.pods[sp.preemptor].pod.Priority();
      EXPECT_NE(sc.workload.pods[sp.preemptor].pod.preemption_policy, "Never");
      for (size_t v : sp.victims) {
        victims.insert(v);
        EXPECT_LT(sc.workload.pods[v].pod.Priority(), prio)
            << sc.workload.pods[v].pod.name() << " preempted by " << sc.workload.pods[sp.preemptor].pod.name();
      }
      // Did the victims break a budget (in eviction order)?
      std::vector<int32_t> allowed;
      for (const PdbBudget& b : *sp.pdbs) allowed.push_back(b.disruptions_allowed);
      bool violated = false;
      for (size_t v : sp.victims) violated = !TakeBudget(sc.workload.pods[v].pod, *sp.pdbs, allowed) || violated;
      // Upstream counts as violating a victim classified so among all the
      // node's lower-priority pods (filterPodsWithPDBViolation), which may
      // be so even when the victims chosen break no budget; not the reverse.
      if (violated) {
        EXPECT_GT(sp.num_pdb_violations, 0);
      }
      if (violated) {
        ++seen["violating preemptions"];
        EXPECT_FALSE(RespectingCandidateExists(sp, sc.workload, sched.filters()))
            << sc.workload.pods[sp.preemptor].pod.name() << " broke a PDB on " << sc.nodes.size() << " nodes";
      }
      if (!sp.pdbs->empty() && !violated) ++seen["respecting preemptions under PDBs"];
    };
    SimResult r = Simulate(sc.workload, sc.nodes, sched, sc.options);
    const SimSummary& s = r.summary;
    EXPECT_EQ(s.preemptions, records);
    EXPECT_EQ(s.finished + s.running + s.pending + s.rejected + s.preempted, s.pods);
    ASSERT_EQ(r.pods.size(), sc.workload.pods.size());
    for (size_t i = 0; i < r.pods.size(); ++i) {
      const PodOutcome& o = r.pods[i];
      if (o.state == PodOutcome::State::kPreempted) {
        // Only a bare victim is gone.
        EXPECT_TRUE(victims.count(i)) << o.name;
        EXPECT_TRUE(sc.workload.pods[i].pod.owner.empty()) << o.name;
      }
      if (victims.count(i) && !sc.workload.pods[i].pod.owner.empty()) {
        EXPECT_NE(o.state, PodOutcome::State::kPreempted) << o.name;
        ++seen["job victims requeued"];
      }
    }
    // Nothing is left running or waiting forever: every pod has a duration
    // and the run reached its end (not the max_batches bound).
    EXPECT_EQ(s.running, 0);
    seen["preemptions"] += s.preemptions;
    seen["victims gone"] += s.preempted;
  }
  for (const char* what : {"preemptions", "victims gone", "job victims requeued", "violating preemptions",
                           "respecting preemptions under PDBs"})
    EXPECT_GT(seen[what], 20) << what;
}

// Random groups of 2..4 consecutive pods, minCount their size or one less
// (operator groups: placed one by one, as stock kube-scheduler does).
std::vector<PodGroupDecl> RandomGangGroups(uint64_t seed, const Workload& w) {
  Rng rng(seed * 7919);
  std::vector<PodGroupDecl> out;
  for (size_t i = 0; i < w.pods.size();) {
    const auto size = static_cast<size_t>(Between(rng, 2, 4));
    if (Between(rng, 0, 2) == 0 || i + size > w.pods.size()) {
      ++i;
      continue;
    }
    PodGroupDecl d;
    d.api = GangApi::kOperator;
    d.ns = w.pods[i].pod.ns();
    d.name = "g" + std::to_string(i);
    d.implied = true;
    d.min_count = static_cast<int32_t>(size) - static_cast<int32_t>(Between(rng, 0, 1));
    for (size_t k = i; k < i + size; ++k) d.members.push_back(w.pods[k].pod.ns() + "/" + w.pods[k].pod.name());
    out.push_back(std::move(d));
    i += size;
  }
  return out;
}

TEST(SimPreemptionPropertyTest, WholeGangsAreNeverLeftPartiallyEvicted) {
  std::map<std::string, int64_t> seen;
  for (PreemptGangs mode : {PreemptGangs::kUpstream, PreemptGangs::kWhole}) {
    for (uint64_t seed = 1; seed <= 300; ++seed) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " " << PreemptGangsName(mode));
      Scenario sc = RandomScenario(seed);
      std::vector<const Pod*> pods;
      for (const WorkloadPod& wp : sc.workload.pods) pods.push_back(&wp.pod);
      const GangSet gangs = GroupIntoGangs(RandomGangGroups(seed, sc.workload), pods);
      sc.options.gangs = &gangs;
      sc.options.preempt_gangs = mode;
      int violations = 0;
      sc.options.invariant_failed = [&violations](const std::string& what) {
        if (++violations <= 3) ADD_FAILURE() << what;
      };
      Scheduler sched(DefaultFilters(), std::make_unique<FirstFitPolicy>(), seed, /*preemption=*/true);
      // Each evicted pod's bind_seq at its eviction: while the cluster
      // shows that same binding, the pod is terminating (not a member the
      // gang still has).
      std::map<size_t, uint64_t> leaving;
      int64_t broken = 0;
      sc.options.on_preemption = [&](const SimPreemption& sp) {
        const ClusterState& c = *sp.cluster;
        std::map<uint64_t, uint64_t> bound;  // id -> bind_seq
        for (size_t i = 0; i < c.size(); ++i)
          if (c.present(i))
            for (const BoundPod& bp : c.state(i).pods) bound[bp.id] = bp.bind_seq;
        auto present = [&](size_t id) {
          auto b = bound.find(id);
          if (b == bound.end()) return false;
          auto l = leaving.find(id);
          return l == leaving.end() || l->second != b->second;
        };
        std::vector<size_t> evicted = sp.victims;
        evicted.insert(evicted.end(), sp.co_victims.begin(), sp.co_victims.end());
        const int32_t prio = sc.workload.pods[sp.preemptor].pod.Priority();
        for (size_t v : sp.co_victims) EXPECT_LT(sc.workload.pods[v].pod.Priority(), prio);
        if (mode == PreemptGangs::kUpstream) {
          EXPECT_TRUE(sp.co_victims.empty());
        }
        std::set<const Gang*> touched;
        for (size_t v : evicted)
          for (const Gang* g : gangs.GangsOf(pods[v]->ns() + "/" + pods[v]->name())) touched.insert(g);
        for (const Gang* g : touched) {
          if (g->min_count <= 1) continue;
          int64_t before = 0, after = 0;
          for (const GangMember& m : g->members) {
            size_t id = 0;
            while (pods[id]->ns() + "/" + pods[id]->name() != m.pod) ++id;
            if (!present(id)) continue;
            ++before;
            if (std::find(evicted.begin(), evicted.end(), id) == evicted.end()) ++after;
          }
          if (after > 0 && after < g->min_count) {
            ++seen[std::string("left partial under ") + std::string(PreemptGangsName(mode))];
            EXPECT_NE(mode, PreemptGangs::kWhole) << g->key << " left with " << after << " of " << g->min_count;
          }
          if (before >= g->min_count && after < g->min_count) ++broken;
        }
        for (size_t v : evicted)
          if (bound.count(v)) leaving[v] = bound[v];
      };
      SimResult r = Simulate(sc.workload, sc.nodes, sched, sc.options);
      const SimSummary& s = r.summary;
      EXPECT_EQ(s.finished + s.running + s.pending + s.rejected + s.preempted, s.pods);
      EXPECT_EQ(s.running, 0);
      // The summary's count agrees with this independent one but where a
      // victim finishes within its grace period: the simulator does not
      // evict it (it still runs for its gang), this count does.
      seen[std::string("broken by sim ") + std::string(PreemptGangsName(mode))] += s.gangs_broken;
      seen[std::string("broken by test ") + std::string(PreemptGangsName(mode))] += broken;
      if (s.gangs_broken != broken) ++seen[std::string("runs differing ") + std::string(PreemptGangsName(mode))];
      EXPECT_LE(s.broken_gang_gpu_hours_lost, s.gpu_hours_lost + 1e-9);
      if (mode == PreemptGangs::kWhole) seen["broken under whole"] += s.gangs_broken;
      if (mode == PreemptGangs::kUpstream) seen["idle under upstream"] += s.broken_gang_idle_gpu_hours > 0;
      seen["preemptions"] += s.preemptions;
    }
  }
  for (const char* what : {"preemptions", "left partial under upstream", "broken under whole", "idle under upstream"})
    EXPECT_GT(seen[what], 10) << what;
  // 8 of 300 upstream runs and 2 of 300 whole runs differ (seeds 1..300).
  for (const char* what : {"runs differing upstream", "runs differing whole"}) EXPECT_LE(seen[what], 15) << what;
  EXPECT_NEAR(static_cast<double>(seen["broken by sim upstream"]), static_cast<double>(seen["broken by test upstream"]), 15);
  EXPECT_NEAR(static_cast<double>(seen["broken by sim whole"]), static_cast<double>(seen["broken by test whole"]), 15);
}

}  // namespace
}  // namespace gpusched
