#include "gpusched/sched/framework/scheduler.h"

#include <gtest/gtest.h>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

Scheduler FirstFit() { return Scheduler(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1); }

TEST(SchedulerTest, SeedClusterFirstFit) {
  // The seed's demo: nodes of 4 and 2 GPUs, pods a2 b1 c3 d1 e2 in order.
  ClusterState c({GpuNode("gpu-node-1", 4), GpuNode("gpu-node-2", 2)});
  Scheduler s = FirstFit();
  struct Want {
    const char* pod;
    int64_t gpus;
    bool scheduled;
    size_t node;
    std::vector<int32_t> devices;
  } want[] = {
      {"training-job-a", 2, true, 0, {0, 1}}, {"inference-svc-b", 1, true, 0, {2}},
      {"training-job-c", 3, false, 0, {}},    {"inference-svc-d", 1, true, 0, {3}},
      {"training-job-e", 2, true, 1, {0, 1}},
  };
  std::vector<Pod> pods;
  for (const auto& w : want) pods.push_back(GpuPod(w.pod, w.gpus));
  for (size_t i = 0; i < pods.size(); ++i) {
    SCOPED_TRACE(want[i].pod);
    Decision d = s.ScheduleOne(PodInfo::Make(pods[i], i), c);
    EXPECT_EQ(d.scheduled, want[i].scheduled);
    if (d.scheduled) {
      EXPECT_EQ(d.node, want[i].node);
      EXPECT_EQ(d.gpus, want[i].devices);
    } else {
      EXPECT_EQ(d.fit_error.Error(), "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
    }
  }
  EXPECT_EQ(c.state(0).GpuRequested(), 4);
  EXPECT_EQ(c.state(1).GpuRequested(), 2);
}

TEST(SchedulerTest, SkipsCordonedAndTaintedNodesWithTheirReasons) {
  Node cordoned = GpuNode("a", 8);
  cordoned.unschedulable = true;
  Node tainted = GpuNode("b", 8);
  tainted.taints.push_back({"nvidia.com/gpu", "present", "NoSchedule"});
  ClusterState c({cordoned, tainted, GpuNode("c", 1)});
  Scheduler s = FirstFit();
  Pod p = GpuPod("p", 2);
  Decision d = s.ScheduleOne(PodInfo::Make(p, 0), c);
  ASSERT_FALSE(d.scheduled);
  EXPECT_EQ(d.fit_error.Error(),
            "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint(s), 1 node(s) "
            "were unschedulable.");
  // With the toleration the tainted node is the first that fits.
  p.tolerations.push_back({"nvidia.com/gpu", "Exists", "", "NoSchedule"});
  d = s.ScheduleOne(PodInfo::Make(p, 0), c);
  ASSERT_TRUE(d.scheduled);
  EXPECT_EQ(d.node, 1u);
  EXPECT_EQ(d.gpus, (std::vector<int32_t>{0, 1}));
}

TEST(SchedulerTest, CpuAndPodCountAreCheckedToo) {
  ClusterState c({GpuNode("small", 4, /*milli_cpu=*/1000, 1LL << 30, /*pods=*/1), GpuNode("big", 4)});
  Scheduler s = FirstFit();
  Pod cpu_heavy = GpuPod("cpu-heavy", 1, 2000);
  Decision d = s.ScheduleOne(PodInfo::Make(cpu_heavy, 0), c);
  ASSERT_TRUE(d.scheduled);
  EXPECT_EQ(d.node, 1u);
  Pod p1 = GpuPod("p1", 1), p2 = GpuPod("p2", 1);
  EXPECT_EQ(s.ScheduleOne(PodInfo::Make(p1, 1), c).node, 0u);
  EXPECT_EQ(s.ScheduleOne(PodInfo::Make(p2, 2), c).node, 1u);  // "small" holds one pod only
}

TEST(SchedulerTest, WithoutExplainedFailuresAFailureCarriesOnlyTheNodeCount) {
  // For callers that only count failures (the paper protocol): no reasons,
  // no preemption verdict; placements are unchanged.
  ClusterState c({GpuNode("a", 1), GpuNode("b", 2)});
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
  s.set_explain_failures(false);
  Pod big = GpuPod("big", 4);
  Decision d = s.ScheduleOne(PodInfo::Make(big, 0), c);
  ASSERT_FALSE(d.scheduled);
  EXPECT_EQ(d.fit_error.num_all_nodes, 2);
  EXPECT_TRUE(d.fit_error.reason_counts.empty());
  EXPECT_EQ(d.fit_error.Error(), "0/2 nodes are available: .");
  EXPECT_FALSE(d.preemption.has_value());
  Pod two = GpuPod("two", 2);
  d = s.ScheduleOne(PodInfo::Make(two, 1), c);
  ASSERT_TRUE(d.scheduled);
  EXPECT_EQ(d.node, 1u);
  // Switched back on, the same failure is explained in full.
  s.set_explain_failures(true);
  d = s.ScheduleOne(PodInfo::Make(big, 2), c);
  ASSERT_FALSE(d.scheduled);
  EXPECT_EQ(d.fit_error.Error(),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 "
            "Preemption is not helpful for scheduling.");
  EXPECT_TRUE(d.preemption.has_value());
}

// Pods of one class that fail against an unchanged cluster share one
// Failure; a change to the cluster (or another class) makes a new one. The
// rejectors are the filters that failed some node.
TEST(SchedulerTest, ScheduleSharesTheFailureOfAClass) {
  Node tainted = GpuNode("t", 8);
  tainted.taints.push_back({"dedicated", "x", "NoSchedule"});
  ClusterState c({GpuNode("a", 2), tainted});
  Scheduler s = FirstFit();  // NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit, GpuShare
  Pod p1 = GpuPod("p1", 4), p2 = GpuPod("p2", 4), tolerant = GpuPod("p3", 4), small = GpuPod("s", 1);
  tolerant.tolerations.push_back({"dedicated", "Exists", "", ""});
  Attempt a1 = s.Schedule(PodInfo::Make(p1, 0), c);
  Attempt a2 = s.Schedule(PodInfo::Make(p2, 1), c);
  ASSERT_FALSE(a1.scheduled);
  ASSERT_TRUE(a1.failure && a2.failure);
  EXPECT_EQ(a1.failure.get(), a2.failure.get());
  EXPECT_EQ(a1.failure->message,
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint(s).");
  EXPECT_EQ(a1.failure->rejectors, (uint64_t{1} << 1) | (uint64_t{1} << 3));  // TaintToleration, NodeResourcesFit
  // The same request with a toleration is another class: it fits.
  Attempt a3 = s.Schedule(PodInfo::Make(tolerant, 2), c);
  ASSERT_TRUE(a3.scheduled);
  EXPECT_EQ(a3.node, 1u);
  // The cluster changed: a new failure, with the new message.
  Attempt a4 = s.Schedule(PodInfo::Make(p2, 1), c);
  ASSERT_FALSE(a4.scheduled);
  EXPECT_NE(a4.failure.get(), a1.failure.get());
  EXPECT_EQ(a4.failure->message, a1.failure->message);
  EXPECT_TRUE(s.Schedule(PodInfo::Make(small, 3), c).scheduled);
  // ScheduleOne says the same, as a copy.
  Decision d = s.ScheduleOne(PodInfo::Make(p1, 0), c);
  EXPECT_FALSE(d.scheduled);
  EXPECT_EQ(d.fit_error.Error(), a1.failure->message);
}

TEST(SchedulerTest, EmptyClusterMessage) {
  ClusterState c(std::vector<Node>{});
  Scheduler s = FirstFit();
  Pod p = GpuPod("p", 1);
  Decision d = s.ScheduleOne(PodInfo::Make(p, 0), c);
  EXPECT_FALSE(d.scheduled);
  EXPECT_EQ(d.fit_error.Error(), "no nodes available to schedule pods");
}

// Hostile input: a node with 2^40 GPUs and
// 2^63-1 milli-cpu, and pods whose requests add up to exactly that. Sums are
// saturated, never wrapped: the second 2^62 milli-cpu pod must not fit (a
// wrapped sum would be negative and fit), and the last GPU is refused. Only
// the first kMaxTrackedGpusPerNode devices are tracked: a pod asking more
// than are tracked free is placed by nvidia.com/gpu alone, with no device
// indices. Every policy.
TEST(SchedulerTest, ExtremeAmountsScheduleWithoutOverflow) {
  constexpr int64_t kGpus = int64_t{1} << 40;
  constexpr int64_t kHalfCpu = int64_t{1} << 62;
  struct Step {
    const char* pod;
    int64_t gpus, milli_cpu;
    bool scheduled;
    std::vector<int32_t> devices;
    std::string fit_error;  // without kube-default's preemption sentence
  };
  const std::vector<Step> steps = {
      {"one", 1, 0, true, {0}, ""},
      {"half-a", 0, kHalfCpu, true, {}, ""},
      {"half-b", 0, kHalfCpu, false, {}, "0/1 nodes are available: 1 Insufficient cpu."},
      {"rest", kGpus - 1, kHalfCpu - 1, true, {}, ""},
      {"more", 1, 1, false, {}, "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient nvidia.com/gpu."},
  };
  const TypicalPods typical{{{PodShape{1000, 500, 1, ""}, 1.0}}};
  for (const std::string& policy : PolicyNames()) {
    SCOPED_TRACE(policy);
    auto set = BuildSchedulers(DefaultSchedulerConfiguration(), policy, 1, PolicyOptions{&typical});
    ASSERT_TRUE(set.ok()) << set.status().message();
    Scheduler& s = *set->owned.front();
    ClusterState c({GpuNode("huge", kGpus, INT64_MAX, int64_t{1} << 50)});
    for (size_t i = 0; i < steps.size(); ++i) {
      const Step& w = steps[i];
      SCOPED_TRACE(w.pod);
      Pod p = GpuPod(w.pod, w.gpus, w.milli_cpu);
      Decision d = s.ScheduleOne(PodInfo::Make(p, i), c);
      ASSERT_EQ(d.scheduled, w.scheduled);
      if (d.scheduled) {
        EXPECT_EQ(d.node, 0u);
        EXPECT_EQ(d.gpus, w.devices);
      } else {
        const std::string preemption =
            s.preemption() ? " preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
                           : "";
        EXPECT_EQ(d.fit_error.Error(), w.fit_error + preemption);
      }
    }
    EXPECT_EQ(c.state(0).GpuRequested(), kGpus);
    EXPECT_EQ(c.state(0).GpuFree(), 0);
    EXPECT_EQ(c.state(0).requested.milli_cpu, INT64_MAX);
  }
}

// The straightforward first-fit of the seed, extended to cpu, the pod count
// and cordons: the reference the real scheduler is checked against.
struct RefNode {
  int64_t cpu, gpus, pods;
  bool cordoned;
  std::vector<bool> used;
};

TEST(SchedulerTest, PropertyMatchesReferenceFirstFitOnRandomClusters) {
  Rng rng(20261202);
  for (int trial = 0; trial < 3000; ++trial) {
    SCOPED_TRACE(trial);
    const int n_nodes = 1 + static_cast<int>(rng.Uniform(12));
    std::vector<Node> nodes;
    std::vector<RefNode> ref;
    for (int i = 0; i < n_nodes; ++i) {
      static const int64_t kGpuChoices[] = {0, 1, 2, 4, 8};
      int64_t g = kGpuChoices[rng.Uniform(5)];
      int64_t cpu = 1000 * static_cast<int64_t>(1 + rng.Uniform(16));
      int64_t pods = 1 + static_cast<int64_t>(rng.Uniform(6));
      Node n = GpuNode("n" + std::to_string(i), g, cpu, 1LL << 36, pods);
      n.unschedulable = rng.Uniform(10) == 0;
      nodes.push_back(n);
      ref.push_back({cpu, g, pods, n.unschedulable, std::vector<bool>(static_cast<size_t>(g), false)});
    }
    ClusterState c(nodes);
    Scheduler s = FirstFit();
    const int n_pods = static_cast<int>(rng.Uniform(25));
    std::vector<Pod> pods;
    for (int j = 0; j < n_pods; ++j) {
      static const int64_t kPodGpus[] = {0, 1, 1, 2, 4, 8};
      pods.push_back(GpuPod("p" + std::to_string(j), kPodGpus[rng.Uniform(6)],
                            500 * static_cast<int64_t>(rng.Uniform(9))));
    }
    std::vector<int64_t> ref_cpu(static_cast<size_t>(n_nodes), 0), ref_pods(static_cast<size_t>(n_nodes), 0);
    for (int j = 0; j < n_pods; ++j) {
      const int64_t want_gpu = pods[static_cast<size_t>(j)].containers[0].requests.count("nvidia.com/gpu")
                                   ? pods[static_cast<size_t>(j)].containers[0].requests.at("nvidia.com/gpu").Value()
                                   : 0;
      const int64_t want_cpu = pods[static_cast<size_t>(j)].containers[0].requests.count("cpu")
                                   ? pods[static_cast<size_t>(j)].containers[0].requests.at("cpu").MilliValue()
                                   : 0;
      int chosen = -1;
      std::vector<int32_t> devices;
      for (int i = 0; i < n_nodes && chosen < 0; ++i) {
        RefNode& r = ref[static_cast<size_t>(i)];
        int64_t free_gpus = 0;
        for (bool u : r.used) free_gpus += u ? 0 : 1;
        if (r.cordoned || ref_pods[static_cast<size_t>(i)] + 1 > r.pods) continue;
        if (want_cpu > r.cpu - ref_cpu[static_cast<size_t>(i)] || want_gpu > free_gpus) continue;
        chosen = i;
        ref_cpu[static_cast<size_t>(i)] += want_cpu;
        ref_pods[static_cast<size_t>(i)]++;
        for (size_t d = 0; d < r.used.size() && static_cast<int64_t>(devices.size()) < want_gpu; ++d)
          if (!r.used[d]) {
            r.used[d] = true;
            devices.push_back(static_cast<int32_t>(d));
          }
      }
      Decision d = s.ScheduleOne(PodInfo::Make(pods[static_cast<size_t>(j)], static_cast<size_t>(j)), c);
      ASSERT_EQ(d.scheduled, chosen >= 0) << "pod " << j;
      if (chosen >= 0) {
        ASSERT_EQ(d.node, static_cast<size_t>(chosen)) << "pod " << j;
        ASSERT_EQ(d.gpus, devices) << "pod " << j;
      }
    }
  }
}

// best-fit and worst-fit against a reference of their own that shares no
// code with the scheduler: its own books per node (cpu, memory, GPUs by
// device, pod slots), cordons, a NoSchedule taint some pods tolerate, a zone
// selector, and departures (a random running pod leaves, releasing what it
// held). Ties go to the first node in input order.
struct RefBook {
  int64_t cpu, memory, pods;
  bool cordoned, tainted;
  std::string zone;
  std::vector<bool> used;  // per GPU device
  int64_t cpu_used = 0, memory_used = 0, pods_used = 0;
  int64_t FreeGpus() const {
    int64_t f = 0;
    for (bool u : used) f += u ? 0 : 1;
    return f;
  }
};

struct RefPod {
  int64_t gpus, cpu, memory;
  bool tolerates;
  std::string zone;  // nodeSelector zone=..., "" for none
  int node = -1;     // where it runs, -1 when not running
  std::vector<int32_t> devices;
};

void RunFitReference(bool most, bool use_index, uint64_t seed) {
  Rng rng(seed);
  for (int trial = 0; trial < 1500; ++trial) {
    SCOPED_TRACE(trial);
    const int n_nodes = 1 + static_cast<int>(rng.Uniform(10));
    std::vector<Node> nodes;
    std::vector<RefBook> books;
    for (int i = 0; i < n_nodes; ++i) {
      static const int64_t kGpuChoices[] = {0, 1, 2, 4, 8};
      const int64_t g = kGpuChoices[rng.Uniform(5)];
      RefBook b{1000 * static_cast<int64_t>(1 + rng.Uniform(16)), (1LL << 30) * static_cast<int64_t>(1 + rng.Uniform(8)),
                1 + static_cast<int64_t>(rng.Uniform(6)), rng.Uniform(12) == 0, rng.Uniform(6) == 0,
                rng.Uniform(2) ? "a" : "b", std::vector<bool>(static_cast<size_t>(g), false)};
      Node n = GpuNode("n" + std::to_string(i), g, b.cpu, b.memory, b.pods);
      n.unschedulable = b.cordoned;
      if (b.tainted) n.taints.push_back({"dedicated", "gpu", "NoSchedule"});
      n.meta.labels["zone"] = b.zone;
      nodes.push_back(n);
      books.push_back(b);
    }
    ClusterState c(nodes);
    Scheduler s(DefaultFilters(), most ? std::unique_ptr<Policy>(std::make_unique<WorstFitPolicy>())
                                       : std::unique_ptr<Policy>(std::make_unique<BestFitPolicy>()),
                1);
    s.set_use_index(use_index);
    const int n_pods = static_cast<int>(rng.Uniform(40));
    std::vector<Pod> pods;
    std::vector<RefPod> refs;
    for (int j = 0; j < n_pods; ++j) {
      static const int64_t kPodGpus[] = {0, 1, 1, 2, 4, 8};
      RefPod r{kPodGpus[rng.Uniform(6)], 500 * static_cast<int64_t>(rng.Uniform(9)),
               (1LL << 28) * static_cast<int64_t>(rng.Uniform(6)), rng.Uniform(3) == 0,
               rng.Uniform(4) == 0 ? (rng.Uniform(2) ? "a" : "b") : ""};
      testing::Res res;
      res.milli_cpu = r.cpu;
      res.memory = r.memory;
      if (r.gpus > 0) res.scalars["nvidia.com/gpu"] = r.gpus;
      Pod p = testing::ResourcePod({res});
      p.meta.name = "p" + std::to_string(j);
      if (r.tolerates) p.tolerations.push_back(Toleration{"dedicated", "Equal", "gpu", "NoSchedule"});
      if (!r.zone.empty()) p.node_selector["zone"] = r.zone;
      pods.push_back(p);
      refs.push_back(r);
    }
    for (int j = 0; j < n_pods; ++j) {
      RefPod& r = refs[static_cast<size_t>(j)];
      int chosen = -1;
      std::pair<int64_t, int64_t> chosen_key;
      for (int i = 0; i < n_nodes; ++i) {
        const RefBook& b = books[static_cast<size_t>(i)];
        if (b.cordoned || (b.tainted && !r.tolerates) || (!r.zone.empty() && r.zone != b.zone)) continue;
        if (b.pods_used + 1 > b.pods) continue;
        if (r.cpu > 0 && r.cpu > b.cpu - b.cpu_used) continue;
        if (r.memory > 0 && r.memory > b.memory - b.memory_used) continue;
        if (r.gpus > 0 && r.gpus > b.FreeGpus()) continue;
        const std::pair<int64_t, int64_t> key{b.FreeGpus() - r.gpus, b.cpu - b.cpu_used - r.cpu};
        if (chosen < 0 || (most ? key > chosen_key : key < chosen_key)) {
          chosen = i;
          chosen_key = key;
        }
      }
      if (chosen >= 0) {
        RefBook& b = books[static_cast<size_t>(chosen)];
        b.cpu_used += r.cpu;
        b.memory_used += r.memory;
        b.pods_used += 1;
        r.node = chosen;
        for (size_t d = 0; d < b.used.size() && static_cast<int64_t>(r.devices.size()) < r.gpus; ++d) {
          if (!b.used[d]) {
            b.used[d] = true;
            r.devices.push_back(static_cast<int32_t>(d));
          }
        }
      }
      Decision d = s.ScheduleOne(PodInfo::Make(pods[static_cast<size_t>(j)], static_cast<size_t>(j)), c);
      ASSERT_EQ(d.scheduled, chosen >= 0) << "pod " << j;
      if (chosen >= 0) {
        ASSERT_EQ(d.node, static_cast<size_t>(chosen)) << "pod " << j;
        ASSERT_EQ(d.gpus, r.devices) << "pod " << j;
      }
      // A departure: a running pod leaves and frees what it held.
      if (j > 0 && rng.Uniform(3) == 0) {
        const size_t k = rng.Uniform(static_cast<size_t>(j));
        RefPod& gone = refs[k];
        if (gone.node >= 0) {
          RefBook& b = books[static_cast<size_t>(gone.node)];
          b.cpu_used -= gone.cpu;
          b.memory_used -= gone.memory;
          b.pods_used -= 1;
          for (int32_t dev : gone.devices) b.used[static_cast<size_t>(dev)] = false;
          ASSERT_TRUE(c.Unbind(static_cast<size_t>(gone.node), k)) << "pod " << k;
          gone.node = -1;
          gone.devices.clear();
        }
      }
    }
  }
}

// Both the indexed path (FreeOrderIndex) and the plain scan (Policy::Select).
TEST(SchedulerTest, PropertyMatchesReferenceBestFitWithDepartures) {
  RunFitReference(false, true, 20261203);
  RunFitReference(false, false, 20261204);
}

TEST(SchedulerTest, PropertyMatchesReferenceWorstFitWithDepartures) {
  RunFitReference(true, true, 31);
  RunFitReference(true, false, 32);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Schedule's shared failures against the plain scan (a fresh scheduler that
// explains, so caches nothing): on random clusters with churn, pods of a few
// classes (placement constraints, priorities, shares, preemptionPolicy
// Never) fail with the plain scan's message, preemption verdict and
// rejecting filters, whether the failure was made now or found.
TEST(SchedulerTest, SharedFailuresMatchThePlainScanOnRandomClusters) {
  Rng rng(20261203);
  int64_t failures = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE(trial);
    const bool kube = trial % 2 == 0;  // kube-default with DefaultPreemption, or first-fit
    std::vector<Node> nodes;
    const size_t n = 1 + rng.Uniform(30);
    for (size_t i = 0; i < n; ++i) {
      static const int64_t kGpus[] = {-1, 0, 1, 2, 4, 8};
      Node node = GpuNode("n" + std::to_string(i), kGpus[rng.Uniform(6)], 1000 * static_cast<int64_t>(1 + rng.Uniform(16)),
                          1LL << 36, 1 + static_cast<int64_t>(rng.Uniform(8)));
      node.unschedulable = rng.Uniform(12) == 0;
      if (rng.Uniform(8) == 0) node.taints.push_back({"dedicated", "x", "NoSchedule"});
      node.meta.labels["zone"] = rng.Uniform(2) ? "a" : "b";
      nodes.push_back(node);
    }
    ClusterState cluster(nodes);
    auto make = [&]() {
      if (!kube) return std::make_unique<Scheduler>(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
      return std::move(BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1)->owned.front());
    };
    auto s = make();
    std::vector<Pod> shapes;
    for (int k = 0; k < 6; ++k) {
      static const int64_t kPodGpus[] = {0, 1, 2, 4, 8};
      Pod p = GpuPod("shape" + std::to_string(k), kPodGpus[rng.Uniform(5)], 1000 * static_cast<int64_t>(rng.Uniform(6)));
      if (rng.Uniform(5) == 0) {
        p = GpuPod("shape" + std::to_string(k), 0, 500);
        p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(250 * (1 + rng.Uniform(4)));
      }
      if (rng.Uniform(3) == 0) p.priority = static_cast<int32_t>(rng.Uniform(3)) * 100;
      if (rng.Uniform(6) == 0) p.preemption_policy = "Never";
      if (rng.Uniform(5) == 0) p.node_selector["zone"] = "a";
      if (rng.Uniform(5) == 0) p.tolerations.push_back({"dedicated", "Exists", "", ""});
      if (rng.Uniform(15) == 0) p.node_name = "n0";
      shapes.push_back(p);
    }
    std::vector<std::pair<size_t, uint64_t>> running;
    for (uint64_t id = 0; id < 120; ++id) {
      const Pod& pod = shapes[rng.Uniform(shapes.size())];
      const PodInfo info = PodInfo::Make(pod, id);
      const uint64_t version = cluster.version();
      Attempt a = s->Schedule(info, cluster);
      if (a.scheduled) {
        running.emplace_back(a.node, id);
      } else {
        ASSERT_EQ(cluster.version(), version);
        auto fresh = make();
        PodExplain explain;
        Decision want = fresh->ScheduleOne(info, cluster, &explain);
        ASSERT_FALSE(want.scheduled);
        EXPECT_EQ(a.failure->message, want.fit_error.Error());
        EXPECT_EQ(a.failure->message, a.failure->fit_error.Error());
        ASSERT_EQ(a.failure->preemption.has_value(), want.preemption.has_value());
        if (want.preemption) {
          EXPECT_EQ(a.failure->preemption->would_help, want.preemption->would_help);
          EXPECT_EQ(a.failure->preemption->node, want.preemption->node);
          EXPECT_EQ(a.failure->preemption->victims, want.preemption->victims);
        }
        uint64_t rejectors = 0;
        for (const NodeExplain& ne : explain.nodes)
          for (size_t k = 0; k < s->filters().size(); ++k)
            if (cluster.present(ne.node) && ne.failed_plugin == s->filters()[k]->Name()) rejectors |= uint64_t{1} << k;
        EXPECT_EQ(a.failure->rejectors, rejectors);
        // The same class again, nothing changed: the same failure, found.
        Attempt again = s->Schedule(PodInfo::Make(pod, id + 1000), cluster);
        EXPECT_EQ(again.failure.get(), a.failure.get());
        ++failures;
      }
      while (!running.empty() && rng.Uniform(3) == 0) {
        const size_t r = rng.Uniform(running.size());
        cluster.Unbind(running[r].first, running[r].second);
        running[r] = running.back();
        running.pop_back();
      }
      if (rng.Uniform(60) == 0) {
        const size_t gone = rng.Uniform(cluster.size());
        cluster.RemoveNode(gone);
        std::erase_if(running, [&](const auto& r) { return r.first == gone; });
      }
    }
  }
  EXPECT_GT(failures, 5000);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace scheduler_strategies_test {

using testing::GpuNode;
using testing::GpuPod;


// A filter that declares nothing (FilterTraits{}): it refuses pods named
// "blocked" (a pod's name is not part of its class) and counts the nodes
// it is asked about.
class NameFilter : public FilterPlugin {
 public:
  explicit NameFilter(int64_t* calls) : calls_(calls) {}
  std::string_view Name() const override { return "NameFilter"; }
  bool Check(const PodInfo& pod, const Node&, const NodeState&, FilterVerdict* why) const override {
    ++*calls_;
    if (pod.pod->meta.name != "blocked") return true;
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, "blocked by name");
    return false;
  }

 private:
  int64_t* calls_;
};

// The strategies follow what the filters and the policy declare.
TEST(SchedulerTest, StrategiesFollowTheDeclarations) {
  int64_t calls = 0;
  auto with_undeclared = [&calls] {
    auto f = DefaultFilters();
    f.push_back(std::make_unique<NameFilter>(&calls));
    return f;
  };
  const TypicalPods typical{{{PodShape{1000, 500, 1, ""}, 1.0}}};
  struct Case {
    const char* name;
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    std::string policy;
    std::string want_search;
    bool want_summaries, want_cache;
  };
  std::vector<Case> cases;
  cases.push_back({"first-fit", DefaultFilters(), "first-fit", "indexed scan", true, true});
  cases.push_back({"best-fit: its own index", DefaultFilters(), "best-fit", "policy index", true, true});
  cases.push_back({"fgd: its own index", DefaultFilters(), "fgd", "policy index", true, true});
  cases.push_back({"no GpuShare: best-fit's index unsafe", {}, "best-fit", "indexed scan", true, true});
  for (auto& f : DefaultFilters())
    if (f->Name() != "GpuShare") cases.back().filters.push_back(std::move(f));
  cases.push_back({"no filter checks fit", {}, "first-fit", "plain scan", true, true});
  cases.back().filters.push_back(NewFilterPlugin("NodeUnschedulable"));
  cases.push_back({"one filter declares nothing", with_undeclared(), "first-fit", "plain scan", false, false});
  cases.push_back({"best-fit, one filter declares nothing", with_undeclared(), "best-fit", "plain scan", false, false});
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    Scheduler s(std::move(c.filters), NewSimplePolicy(c.policy, PolicyOptions{&typical}), 1);
    EXPECT_EQ(s.search_name(), c.want_search);
    EXPECT_EQ(s.summarizes_failures(), c.want_summaries);
    EXPECT_EQ(s.caches_failures(), c.want_cache);
  }
}

// A filter without a declaration is never skipped: it runs on every node
// the plain scan visits (the index would have jumped over the full node 0),
// and its verdict on one pod is not reused for another of the same class.
TEST(SchedulerTest, AFilterWithoutDeclarationForcesThePlainPath) {
  for (const char* policy : {"first-fit", "best-fit"}) {
    SCOPED_TRACE(policy);
    int64_t calls = 0;
    auto filters = DefaultFilters();
    filters.insert(filters.begin(), std::make_unique<NameFilter>(&calls));
    Scheduler s(std::move(filters), NewSimplePolicy(policy), 1);
    ClusterState c({GpuNode("full", 0), GpuNode("a", 4), GpuNode("b", 4)});
    const Pod blocked = GpuPod("blocked", 2), other = GpuPod("other", 2);
    Attempt a = s.Schedule(PodInfo::Make(blocked, 0), c);
    ASSERT_FALSE(a.scheduled);
    EXPECT_EQ(a.failure->message, "0/3 nodes are available: 3 blocked by name.");
    EXPECT_EQ(calls, 3);
    // Same class, another name: it fits (no failure shared), the filter
    // asked again of every node the plain scan visits.
    calls = 0;
    Attempt b = s.Schedule(PodInfo::Make(other, 1), c);
    ASSERT_TRUE(b.scheduled);
    EXPECT_EQ(b.node, 1u);
    EXPECT_EQ(calls, std::string(policy) == "first-fit" ? 2 : 3);
  }
}

}  // namespace scheduler_strategies_test
}  // namespace gpusched
