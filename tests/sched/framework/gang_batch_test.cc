// All-or-nothing placement of enforced gangs in ScheduleBatch, with each
// enforcer's messages (GangScheduling, Coscheduling, Volcano, KAI) and the
// gang diagnosis; groups nobody enforces placed one pod at a time.
#include "gpusched/sched/framework/gang_batch.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

struct Member {
  std::string name;
  int64_t gpus;
  std::string node_name = "";  // already bound
  std::string subgroup = "";   // Volcano task-spec / KAI subgroup label
  int64_t milli_cpu = 0;
};

struct Case {
  std::string name;
  GangApi api;
  int32_t min_count;
  std::vector<Member> members;
  std::vector<int64_t> node_gpus;  // nodes n0, n1, ...
  bool enforced;
  std::vector<std::string> want;  // per member: "-> node" or "pending [reason] message"
  bool want_forever = false;      // of the pending members
  std::string want_diagnosis;     // of the first pending member
  double reject_threshold = 0.10;  // Coscheduling's podGroupRejectPercentage / 100
  std::vector<GangSubgroup> subgroups = {};  // Volcano minTaskMember, KAI subGroups
};

std::string Enforcer(GangApi api) {
  switch (api) {
    case GangApi::kWorkloadV1alpha1: return "GangScheduling";
    case GangApi::kCoscheduling: return "Coscheduling";
    case GangApi::kVolcano: return "Volcano";
    default: return "KAI";
  }
}

void Link(Pod& p, GangApi api, const std::string& subgroup = "") {
  if (!subgroup.empty() && api == GangApi::kVolcano) p.meta.annotations[kVolcanoTaskSpecAnnotation] = subgroup;
  if (!subgroup.empty() && api == GangApi::kKai) p.meta.labels[kKaiSubGroupLabel] = subgroup;
  switch (api) {
    case GangApi::kWorkloadV1alpha1: {
      auto x = std::make_shared<PodSpecExtras>();
      x->workload_ref = WorkloadReference{"job", "workers", ""};
      p.extras = x;
      break;
    }
    case GangApi::kCoscheduling: p.meta.labels[kCoschedulingPodGroupLabel] = "pg"; break;
    case GangApi::kVolcano: p.meta.annotations[kVolcanoGroupNameAnnotation] = "pg"; break;
    default: p.meta.annotations[kKaiPodGroupAnnotation] = "pg"; break;
  }
}

PodGroupDecl Decl(GangApi api, int32_t min_count) {
  PodGroupDecl d;
  d.api = api;
  d.ns = "default";
  d.name = api == GangApi::kWorkloadV1alpha1 ? "job" : "pg";
  if (api == GangApi::kWorkloadV1alpha1) {
    d.workload_groups = {{"workers", true, min_count}};
    d.timeout_seconds = kWorkloadGangTimeoutSeconds;
  } else {
    d.min_count = min_count;  // no scheduleTimeoutSeconds: the plugin's permitWaitingTimeSeconds
  }
  return d;
}

TEST(GangBatchTest, AllOrNothing) {
  const Case cases[] = {
      {"coscheduling: 3 of 4 GPUs on 2 nodes of 4 never fit; the fitting ones rejected in PostFilter",
       GangApi::kCoscheduling, 3, {{"g-0", 4}, {"g-1", 4}, {"g-2", 4}}, {4, 4}, true,
       {"pending [gang] optimistic rejection in PostFilter", "pending [gang] optimistic rejection in PostFilter",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu. PodGroup default/pg gets "
        "rejected due to Pod g-2 is unschedulable even after PostFilter"},
       true,
       "gang default/pg (Coscheduling, minMember 3): 2 of 3 members fit now; the other 1 needs 4 GPUs; the gang can "
       "never fit this cluster: even on empty nodes fewer than 3 of its members fit"},
      {"coscheduling: minMember 2 reached, the third waits on its own", GangApi::kCoscheduling, 2,
       {{"g-0", 4}, {"g-1", 4}, {"g-2", 4}}, {4, 4}, true,
       {"-> n0", "-> n1", "pending [waiting-for-room] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."}},
      {"gang scheduling: the fitting members time out at Permit", GangApi::kWorkloadV1alpha1, 3,
       {{"g-0", 4}, {"g-1", 4}, {"g-2", 4}}, {4, 4}, true,
       {"pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."},
       true,
       "gang default/job/workers (GangScheduling, minCount 3): 2 of 3 members fit now; the other 1 needs 4 GPUs; the "
       "gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit"},
      {"gang scheduling: fewer pods than minCount never enter the queue", GangApi::kWorkloadV1alpha1, 4,
       {{"g-0", 1}, {"g-1", 1}}, {4, 4}, true,
       {"pending [gang] waiting for minCount pods from a gang to appear in scheduling queue",
        "pending [gang] waiting for minCount pods from a gang to appear in scheduling queue"},
       true,
       "gang default/job/workers (GangScheduling, minCount 4): the input holds 2 of its members, fewer than 4, so "
       "none is scheduled until the rest exist"},
      {"coscheduling: fewer pods than minMember fail PreFilter", GangApi::kCoscheduling, 3, {{"g-0", 1}, {"g-1", 1}},
       {4, 4}, true,
       {"pending [gang] 0/2 nodes are available: pre-filter pod g-0 cannot find enough sibling pods, current pods "
        "number: 2, minMember of group: 3.",
        "pending [gang] 0/2 nodes are available: pre-filter pod g-1 cannot find enough sibling pods, current pods "
        "number: 2, minMember of group: 3."},
       true},
      {"not enforced: placed one by one, the group half placed", GangApi::kCoscheduling, 3,
       {{"g-0", 4}, {"g-1", 4}, {"g-2", 4}}, {4, 4}, false,
       {"-> n0", "-> n1", "pending [waiting-for-room] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."}},
      {"volcano: a running pod holds a node; the gang waits whole and fits later", GangApi::kVolcano, 2,
       {{"other", 4, "n0"}, {"g-0", 4}, {"g-1", 4}}, {4, 4}, true,
       {"-> n0", "pending [gang] 1/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable",
        "pending [gang] 1/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable"},
       false,
       "gang default/pg (Volcano, minAvailable 2): 1 of 2 members fit now; the other 1 needs 4 GPUs; the whole gang "
       "fits this cluster once enough GPUs are free, so no member is bound until then"},
      {"coscheduling with podGroupRejectPercentage 50: a gap of 1 in 3 is tolerated, the fitting ones time out "
       "after permitWaitingTimeSeconds",
       GangApi::kCoscheduling, 3, {{"g-0", 4}, {"g-1", 4}, {"g-2", 4}}, {4, 4}, true,
       {"pending [gang] rejected due to timeout after waiting 1m0s at plugin Coscheduling",
        "pending [gang] rejected due to timeout after waiting 1m0s at plugin Coscheduling",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."},
       true, "", 0.5},
      {"gang scheduling: members of mixed sizes short; the rest need 14 GPUs, which no 8-GPU node holds alone",
       GangApi::kWorkloadV1alpha1, 3, {{"o1", 4, "n0"}, {"o2", 4, "n1"}, {"g-0", 2}, {"g-1", 8}, {"g-2", 6}}, {8, 8},
       true,
       {"-> n0", "-> n1", "pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."},
       false,
       "gang default/job/workers (GangScheduling, minCount 3): 1 of 3 members fit now; the other 2 need 14 GPUs, on "
       "at least 2 nodes; the whole gang fits this cluster once enough GPUs are free, so no member is bound until "
       "then"},
      {"gang scheduling: two 4-GPU members short fit one 8-GPU node", GangApi::kWorkloadV1alpha1, 4,
       {{"o1", 8, "n0"}, {"g-0", 4}, {"g-1", 4}, {"g-2", 4}, {"g-3", 4}}, {8, 8}, true,
       {"-> n0", "pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."},
       false,
       "gang default/job/workers (GangScheduling, minCount 4): 2 of 4 members fit now; the other 2 need 8 GPUs, 4 per "
       "pod, on at least 1 node; the whole gang fits this cluster once enough GPUs are free, so no member is bound "
       "until then"},
      {"gang scheduling: minCount 4 of 5, two fit; two more of the three short are enough",
       GangApi::kWorkloadV1alpha1, 4,
       {{"o1", 4, "n0"}, {"o2", 4, "n1"}, {"g-0", 8}, {"g-1", 8}, {"g-2", 2}, {"g-3", 4}, {"g-4", 8}}, {8, 8}, true,
       {"-> n0", "-> n1", "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
        "pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] rejected due to timeout after waiting 5m0s at plugin GangScheduling",
        "pending [gang] 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."},
       true,
       "gang default/job/workers (GangScheduling, minCount 4): 2 of 5 members fit now; 2 more of the other 3 are "
       "needed to reach minCount 4: at least 16 GPUs, 8 per pod, on at least 2 nodes; the gang can never fit this "
       "cluster: even on empty nodes fewer than 4 of its members fit; this member: no node had room once the 2 "
       "members that fit were reserved"},
      {"kai: all fit", GangApi::kKai, 2, {{"g-0", 2}, {"g-1", 2}}, {4, 4}, true, {"-> n0", "-> n0"}},
      {"kai: too few fit", GangApi::kKai, 2, {{"g-0", 4}, {"g-1", 8}}, {4, 4}, true,
       {"pending [gang] KAI: pod group pg is not scheduled: 1 of its minMember 2 can be allocated (2 pods exist)",
        "pending [too-large] KAI: pod group pg is not scheduled: 1 of its minMember 2 can be allocated (2 pods exist)"},
       true},
      // Task and subgroup minimums (GangReady): the gang's minimum fits, a
      // task's / subgroup's does not, so nothing binds and the diagnosis
      // names it.
      {"volcano minMember 3, minTaskMember worker 2 / ps 1: 3 workers fit, the 8-GPU ps never does",
       GangApi::kVolcano, 3,
       {{"g-w0", 4, "", "worker"}, {"g-w1", 4, "", "worker"}, {"g-w2", 4, "", "worker"}, {"g-ps0", 8, "", "ps"}},
       {4, 4, 4}, true,
       {"pending [gang] 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending",
        "pending [gang] 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending",
        "pending [gang] 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending",
        "pending [too-large] 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending"},
       true,
       "gang default/pg (Volcano, minAvailable 3): 3 of 4 members fit now; task ps has 0 of its 1 placed; 1 more of "
       "its 1 unplaced member is needed: at least 8 GPUs; the gang can never fit this cluster: even on empty nodes "
       "too few of its members fit to meet its task minimums",
       0.10, {{"worker", 2, ""}, {"ps", 1, ""}}},
      {"volcano minMember 3, minTaskMember worker 2 / ps 1: the ps fits an 8-GPU node, all bind", GangApi::kVolcano,
       3, {{"g-w0", 4, "", "worker"}, {"g-w1", 4, "", "worker"}, {"g-w2", 4, "", "worker"}, {"g-ps0", 8, "", "ps"}},
       {4, 4, 4, 8}, true, {"-> n0", "-> n1", "-> n2", "-> n3"}, false, "", 0.10,
       {{"worker", 2, ""}, {"ps", 1, ""}}},
      {"volcano minMember 1 below the tasks' sum 2: no task checked, the workers bind without a ps",
       GangApi::kVolcano, 1, {{"g-w0", 4, "", "worker"}, {"g-ps0", 8, "", "ps"}}, {4}, true,
       {"-> n0", "pending [too-large] 0/1 nodes are available: 1 Insufficient nvidia.com/gpu."}, true, "", 0.10,
       {{"worker", 1, ""}, {"ps", 1, ""}}},
      {"volcano: no ps exists for minTaskMember ps 1: held until it does", GangApi::kVolcano, 2,
       {{"g-w0", 1, "", "worker"}, {"g-w1", 1, "", "worker"}}, {4}, true,
       {"pending [gang] 2/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable",
        "pending [gang] 2/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable"},
       true,
       "gang default/pg (Volcano, minAvailable 2): the input holds 2 of its members; task ps has 0 of the 1 it needs, "
       "so none is scheduled until the rest exist",
       0.10, {{"worker", 1, ""}, {"ps", 1, ""}}},
      {"volcano, a gang of CPU pods that can never fit: no GPU count in the diagnosis", GangApi::kVolcano, 3,
       {{"g-0", 0, "", "", 20000}, {"g-1", 0, "", "", 20000}, {"g-2", 0, "", "", 20000}}, {0, 0}, true,
       {"pending [gang] 1/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable",
        "pending [gang] 1/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable",
        "pending [gang] 1/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable"},
       true,
       "gang default/pg (Volcano, minAvailable 3): 2 of 3 members fit now; the other 1 asks no GPUs: what holds it is "
       "its own reason; the gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit"},
      {"volcano, a gang of CPU pods waiting for room a running pod holds", GangApi::kVolcano, 2,
       {{"other", 0, "n0", "", 20000}, {"g-0", 0, "", "", 20000}, {"g-1", 0, "", "", 20000}}, {0, 0}, true,
       {"-> n0", "pending [gang] 1/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable",
        "pending [gang] 1/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable"},
       false,
       "gang default/pg (Volcano, minAvailable 2): 1 of 2 members fit now; the other 1 asks no GPUs: what holds it is "
       "its own reason; the whole gang fits this cluster once enough room is free, so no member is bound until then"},
      {"kai subGroups master 1 / worker 2: the workers fit, the master waits for a node that is busy",
       GangApi::kKai, 3,
       {{"other", 8, "n3"}, {"g-m0", 8, "", "master"}, {"g-w0", 4, "", "worker"}, {"g-w1", 4, "", "worker"}},
       {4, 4, 4, 8}, true,
       {"-> n3",
        "pending [gang] KAI: pod group pg is not scheduled: 0 of subgroup master's minMember 1 can be "
        "allocated (3 pods exist)",
        "pending [gang] KAI: pod group pg is not scheduled: 0 of subgroup master's minMember 1 can be allocated (3 "
        "pods exist)",
        "pending [gang] KAI: pod group pg is not scheduled: 0 of subgroup master's minMember 1 can be allocated (3 "
        "pods exist)"},
       false,
       "gang default/pg (KAI, minMember 3): 2 of 3 members fit now; subgroup master has 0 of its 1 placed; 1 more of "
       "its 1 unplaced member is needed: at least 8 GPUs; the whole gang fits this cluster once enough GPUs are free",
       0.10, {{"master", 1, ""}, {"worker", 2, ""}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Node> nodes;
    for (size_t i = 0; i < c.node_gpus.size(); ++i) nodes.push_back(GpuNode("n" + std::to_string(i), c.node_gpus[i]));
    ClusterState cluster(std::move(nodes));
    std::vector<Pod> pods;
    for (const Member& m : c.members) {
      Pod p = GpuPod(m.name, m.gpus, m.milli_cpu);
      p.node_name = m.node_name;
      if (m.name.starts_with("g-")) Link(p, c.api, m.subgroup);
      pods.push_back(std::move(p));
    }
    std::vector<const Pod*> ptrs;
    for (const Pod& p : pods) ptrs.push_back(&p);
    PodGroupDecl decl = Decl(c.api, c.min_count);
    decl.subgroups = c.subgroups;
    GangSet gangs = GroupIntoGangs({decl}, ptrs);
    ASSERT_EQ(gangs.gangs.size(), 1u);
    GangServing serving;
    if (c.enforced) serving[kDefaultSchedulerName] = GangEnforcement{{c.api}, Enforcer(c.api), c.api == GangApi::kCoscheduling ? 60.0 : 300.0,
                                                                c.reject_threshold};
    Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
    BatchOptions o;
    o.gangs = &gangs;
    o.gang_serving = &serving;
    BatchResult r = ScheduleBatch(ptrs, cluster, ProfileSchedulers{{kDefaultSchedulerName, &s}}, o);
    std::vector<std::string> got(pods.size());
    for (const auto& pl : r.placements) got[pl.pod] = "-> " + cluster.node(pl.node).name();
    const BatchResult::Pending* first = nullptr;
    for (const auto& pe : r.pending) {
      got[pe.pod] = "pending [" + std::string(DiagnosisKindName(pe.diagnosis.kind)) + "] " + pe.message;
      EXPECT_EQ(pe.diagnosis.forever, c.want_forever) << pods[pe.pod].name();
      if (!first) first = &pe;
    }
    EXPECT_EQ(got, c.want);
    if (!c.want_diagnosis.empty() && first) {
      EXPECT_EQ(first->diagnosis.text.substr(0, c.want_diagnosis.size()), c.want_diagnosis);
    }
    // Nothing held by a gang that is not placed: the GPUs in use are the placed pods'.
    int64_t used = 0, placed = 0;
    for (size_t i = 0; i < cluster.size(); ++i) used += cluster.state(i).requested.Scalar(kResourceGPU);
    for (const auto& pl : r.placements) placed += c.members[pl.pod].gpus;
    EXPECT_EQ(used, placed);
  }
}

// Whether a failing gang can ever fit is asked of one empty copy of the
// nodes per batch: each gang's trial binds on it are undone, so gangs that
// fail now but fit an empty cluster are each told so, and a gang too large
// for it is told it never fits.
TEST(GangBatchTest, EverFitsForEachFailingGangOfABatch) {
  std::vector<Node> nodes;
  nodes.push_back(GpuNode("n0", 8));
  ClusterState cluster(std::move(nodes));
  std::vector<Pod> pods;
  pods.push_back(GpuPod("busy", 8));
  pods.back().node_name = "n0";
  std::vector<PodGroupDecl> decls;
  const std::vector<std::pair<std::string, int64_t>> gangs_gpus = {{"pg0", 4}, {"pg1", 4}, {"pg2", 8}, {"pg3", 2}};
  for (const auto& [name, gpus] : gangs_gpus) {
    PodGroupDecl d;
    d.api = GangApi::kCoscheduling;
    d.ns = "default";
    d.name = name;
    d.min_count = 2;
    decls.push_back(d);
    for (int k = 0; k < 2; ++k) {
      pods.push_back(GpuPod(name + "-" + std::to_string(k), gpus));
      pods.back().meta.labels[kCoschedulingPodGroupLabel] = name;
    }
  }
  std::vector<const Pod*> ptrs;
  for (const Pod& p : pods) ptrs.push_back(&p);
  GangSet gangs = GroupIntoGangs(decls, ptrs);
  GangServing serving;
  serving[kDefaultSchedulerName] = GangEnforcement{{GangApi::kCoscheduling}, "Coscheduling", 60, 0.1};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchOptions o;
  o.gangs = &gangs;
  o.gang_serving = &serving;
  BatchResult r = ScheduleBatch(ptrs, cluster, ProfileSchedulers{{kDefaultSchedulerName, &s}}, o);
  ASSERT_EQ(r.placements.size(), 1u);  // busy, pre-bound
  std::vector<std::string> got;
  for (const auto& pe : r.pending)
    got.push_back(pods[pe.pod].name() + (pe.diagnosis.forever ? " never fits" : " may fit later"));
  const std::vector<std::string> want = {"pg0-0 may fit later", "pg0-1 may fit later", "pg1-0 may fit later",
                                         "pg1-1 may fit later", "pg2-0 never fits",    "pg2-1 never fits",
                                         "pg3-0 may fit later", "pg3-1 may fit later"};
  EXPECT_EQ(got, want);
}

// Random clusters and gangs (some enforced, some not, some members already
// bound): every pod comes out exactly once, an enforced gang has none or at
// least its minimum of members placed, and the GPUs in use are exactly the
// placed pods'.
TEST(GangBatchTest, RandomAllOrNothing) {
  Rng rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<Node> nodes;
    const size_t num_nodes = 1 + rng.Uniform(5);
    for (size_t i = 0; i < num_nodes; ++i) nodes.push_back(GpuNode("n" + std::to_string(i), 1 + rng.Uniform(8)));
    ClusterState cluster(std::move(nodes));
    std::vector<Pod> pods;
    std::vector<PodGroupDecl> decls;
    const size_t num_gangs = 1 + rng.Uniform(4);
    for (size_t g = 0; g < num_gangs; ++g) {
      PodGroupDecl d;
      d.api = GangApi::kCoscheduling;
      d.ns = "default";
      d.name = "pg" + std::to_string(g);
      const size_t members = 1 + rng.Uniform(5);
      d.min_count = static_cast<int32_t>(1 + rng.Uniform(members + 1));  // sometimes more than exist
      decls.push_back(d);
      for (size_t k = 0; k < members; ++k) {
        Pod p = GpuPod(d.name + "-" + std::to_string(k), static_cast<int64_t>(rng.Uniform(5)));
        p.meta.labels[kCoschedulingPodGroupLabel] = d.name;
        if (g % 2 == 1) p.scheduler_name = "other";  // odd gangs: served by a profile that does not gang
        pods.push_back(std::move(p));
      }
    }
    for (size_t k = 0, n = rng.Uniform(4); k < n; ++k) {
      Pod p = GpuPod("solo-" + std::to_string(k), static_cast<int64_t>(rng.Uniform(5)));
      if (rng.Uniform(2) == 0) p.node_name = "n0";
      pods.push_back(std::move(p));
    }
    // Pods of the gangs' shapes after them: they meet the scheduler's shared
    // failures and the DiagnosisCache after the trial binds and unbinds.
    for (size_t k = 0, n = rng.Uniform(4); k < n; ++k)
      pods.push_back(GpuPod("late-" + std::to_string(k), static_cast<int64_t>(rng.Uniform(5))));
    std::vector<const Pod*> ptrs;
    for (const Pod& p : pods) ptrs.push_back(&p);
    GangSet gangs = GroupIntoGangs(decls, ptrs);
    const ClusterState initial = cluster;
    GangServing serving;
    serving[kDefaultSchedulerName] = GangEnforcement{{GangApi::kCoscheduling}, "Coscheduling", 60, 0.1};
    Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
    Scheduler other(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
    BatchOptions o;
    o.gangs = &gangs;
    o.gang_serving = &serving;
    BatchResult r =
        ScheduleBatch(ptrs, cluster, ProfileSchedulers{{kDefaultSchedulerName, &s}, {"other", &other}}, o);
    std::vector<int> seen(pods.size(), 0);
    std::map<std::string, int64_t> placed_in;
    int64_t placed_gpus = 0;
    for (const auto& pl : r.placements) {
      ++seen[pl.pod];
      placed_gpus += PodGpuRequest(ComputePodRequests(pods[pl.pod]));
      auto it = pods[pl.pod].meta.labels.find(kCoschedulingPodGroupLabel);
      if (it != pods[pl.pod].meta.labels.end()) ++placed_in[it->second];
    }
    for (const auto& pe : r.pending) ++seen[pe.pod];
    for (const auto& rf : r.refused) ++seen[rf.pod];
    for (size_t i = 0; i < pods.size(); ++i) EXPECT_EQ(seen[i], 1) << "round " << round << " pod " << pods[i].name();
    for (size_t g = 0; g < decls.size(); g += 2)  // the enforced ones
      EXPECT_TRUE(placed_in[decls[g].name] == 0 || placed_in[decls[g].name] >= decls[g].min_count)
          << "round " << round << " " << decls[g].name << ": " << placed_in[decls[g].name] << " placed, min "
          << decls[g].min_count;
    int64_t used = 0;
    for (size_t i = 0; i < cluster.size(); ++i) used += cluster.state(i).requested.Scalar(kResourceGPU);
    EXPECT_EQ(used, placed_gpus) << "round " << round;

    // The reference: every pod that is not a gang's member explained, so
    // scanned and diagnosed plainly (ScheduleOne + Diagnose). Same outcome,
    // message and diagnosis: no cached answer outlived a rolled-back trial.
    ClusterState plain_cluster = initial;
    Scheduler ps(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
    Scheduler pother(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
    o.explain = true;
    BatchResult plain =
        ScheduleBatch(ptrs, plain_cluster, ProfileSchedulers{{kDefaultSchedulerName, &ps}, {"other", &pother}}, o);
    ASSERT_EQ(plain.placements.size(), r.placements.size()) << "round " << round;
    for (size_t i = 0; i < r.placements.size(); ++i) {
      EXPECT_EQ(plain.placements[i].pod, r.placements[i].pod) << "round " << round;
      EXPECT_EQ(plain.placements[i].node, r.placements[i].node) << "round " << round;
      EXPECT_EQ(plain.placements[i].gpus, r.placements[i].gpus) << "round " << round;
    }
    ASSERT_EQ(plain.pending.size(), r.pending.size()) << "round " << round;
    for (size_t i = 0; i < r.pending.size(); ++i) {
      EXPECT_EQ(plain.pending[i].pod, r.pending[i].pod) << "round " << round;
      EXPECT_EQ(plain.pending[i].message, r.pending[i].message) << "round " << round;
      EXPECT_EQ(plain.pending[i].diagnosis.kind, r.pending[i].diagnosis.kind) << "round " << round;
      EXPECT_EQ(plain.pending[i].diagnosis.forever, r.pending[i].diagnosis.forever) << "round " << round;
      EXPECT_EQ(plain.pending[i].diagnosis.text, r.pending[i].diagnosis.text) << "round " << round;
    }
  }
}

TEST(GangBatchTest, GoSeconds) {
  EXPECT_EQ(GoSeconds(10), "10s");
  EXPECT_EQ(GoSeconds(60), "1m0s");
  EXPECT_EQ(GoSeconds(300), "5m0s");
  EXPECT_EQ(GoSeconds(3725), "1h2m5s");
}

}  // namespace
}  // namespace gpusched
