#include "gpusched/sched/diagnosis/diagnosis_cache.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/noderesources/fit.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;
using Kind = Diagnosis::Kind;

// The seed's training-job-c, asked three times: the same answer, one class.
TEST(DiagnosisCacheTest, SharesOneAnswerPerClass) {
  ClusterState c({GpuNode("gpu-node-1", 4), GpuNode("gpu-node-2", 2)});
  c.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 3}}}));
  auto filters = DefaultFilters();
  DiagnosisCache cache;
  Pod a = GpuPod("a", 3), b = GpuPod("b", 3), other = GpuPod("c", 1);
  const std::string want =
      "waiting for room: it needs 3 nvidia.com/gpu on one node; when it was considered, the only node big enough was "
      "gpu-node-1 (4 in all, 1 free); it is placed when running pods finish (pending is not an error)";
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(a, 0), c, filters).text, want);
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(b, 1), c, filters).text, want);
  EXPECT_EQ(cache.num_classes(), 1u);
  // Room freed: the same class, a new answer.
  c.Unbind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 3}}}), {0, 1, 2});
  c.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 2}}}));
  c.Bind(1, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 1}}}));
  Diagnosis d = cache.Diagnose(PodInfo::Make(b, 1), c, filters);
  EXPECT_EQ(d.kind, Kind::kWaitingForRoom);
  EXPECT_EQ(d.text,
            "waiting for room: it needs 3 nvidia.com/gpu on one node; when it was considered, the only node big "
            "enough was gpu-node-1 (4 in all, 2 free); it is placed when running pods finish (pending is not an "
            "error)");
  EXPECT_FALSE(d.free_up_node.has_value());
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(other, 2), c, filters).kind, Kind::kWaitingForRoom);
  EXPECT_EQ(cache.num_classes(), 2u);
}

// Summaries that fell behind what the change log holds are rebuilt from the
// nodes: the answer is Diagnose's for the cluster as it is now.
TEST(DiagnosisCacheTest, RebuildsWhenTheLogNoLongerHoldsItsChanges) {
  // Five nodes of 4 GPUs with 2 taken on each: 10 free, at most 2 on one.
  std::vector<Node> nodes;
  for (int i = 1; i <= 5; ++i) nodes.push_back(GpuNode("gpu-node-" + std::to_string(i), 4));
  ClusterState c(nodes);
  for (size_t i = 0; i < 5; ++i) c.Bind(i, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 2}}}));
  auto filters = DefaultFilters();
  DiagnosisCache cache;
  const Pod p = GpuPod("p", 3);
  const PodInfo info = PodInfo::Make(p, 0);
  EXPECT_EQ(cache.Diagnose(info, c, filters).text, Diagnose(info, c, filters).text);
  EXPECT_EQ(cache.Diagnose(info, c, filters).kind, Kind::kFragmented);
  const uint64_t pos = c.version();
  // One more GPU taken on nodes 1, 3 and 5: 7 free.
  testing::ChurnPastTheLog(c, pos);
  ASSERT_FALSE(c.change_log().Holds(pos));
  const Diagnosis d = cache.Diagnose(info, c, filters);
  EXPECT_EQ(d.text, Diagnose(info, c, filters).text);
  EXPECT_EQ(d.text,
            "waiting for room, fragmented: when it was considered, 7 nvidia.com/gpu were free across the 5 nodes "
            "that could run it, but at most 2 free on any one node and it needs 3 on one node");
  EXPECT_EQ(d.advice, Diagnose(info, c, filters).advice);
  EXPECT_EQ(d.advice.kind, Advice::Kind::kLargestFirstOrBinPacking);
}

// A filter gpusched does not know: the cache answers through Diagnose.
class AlwaysFails : public FilterPlugin {
 public:
  std::string_view Name() const override { return "Custom"; }
  bool Check(const PodInfo&, const Node&, const NodeState&, FilterVerdict* why) const override {
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, "custom");
    return false;
  }
};

TEST(DiagnosisCacheTest, UnknownFilterFallsBackToDiagnose) {
  std::vector<std::unique_ptr<FilterPlugin>> filters = DefaultFilters();
  EXPECT_TRUE(DiagnosisCache::Supports(filters));
  filters.push_back(std::make_unique<AlwaysFails>());
  EXPECT_FALSE(DiagnosisCache::Supports(filters));
  ClusterState c({GpuNode("a", 4)});
  Pod p = GpuPod("p", 8);
  DiagnosisCache cache;
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(p, 0), c, filters).text, Diagnose(PodInfo::Make(p, 0), c, filters).text);
  EXPECT_EQ(cache.num_classes(), 0u);
}

// ---------------------------------------------------------------------------
// The cache against Diagnose on random clusters with churn: pods bound and
// unbound (overcommitting now and then, which Diagnose clamps), nodes added
// and removed, taints, cordons, selectors, required affinity, nodeName, GPU
// models, shares on one or two devices, an extended resource, pod limits.

Node RandomNode(const std::string& name, Rng& rng) {
  static const int64_t kGpus[] = {-1, 0, 1, 2, 4, 8, 8};
  Node node = GpuNode(name, kGpus[rng.Uniform(7)], 1000 * static_cast<int64_t>(rng.Uniform(33)),
                      (1LL << 30) * static_cast<int64_t>(rng.Uniform(17)),
                      rng.Uniform(4) == 0 ? 110 : static_cast<int64_t>(rng.Uniform(6)));
  node.unschedulable = rng.Uniform(20) == 0;
  if (rng.Uniform(10) == 0) node.taints.push_back({"dedicated", "x", "NoSchedule"});
  if (rng.Uniform(8) == 0) node.taints.push_back({"spot", "", "PreferNoSchedule"});
  if (rng.Uniform(25) == 0) node.taints.push_back({"maint", "", "NoExecute"});
  node.meta.labels["zone"] = rng.Uniform(2) ? "a" : "b";
  if (const uint64_t m = rng.Uniform(3); m < 2) node.meta.labels["alibabacloud.com/gpu-card-model"] = m ? "A100" : "T4";
  if (rng.Uniform(5) == 0) node.allocatable["example.com/foo"] = Quantity::FromInt(static_cast<int64_t>(rng.Uniform(5)));
  if (rng.Uniform(6) == 0) node.allocatable["ephemeral-storage"] = Quantity::FromInt(static_cast<int64_t>(rng.Uniform(4)) << 30);
  return node;
}

// Pods come from a few dozen shapes, so that classes repeat.
Pod RandomPod(const std::string& name, Rng& shape_rng, size_t num_nodes) {
  Rng& rng = shape_rng;
  testing::Res r;
  const uint64_t kind = rng.Uniform(10);
  if (kind < 3) {
    r.milli_cpu = 4000 * static_cast<int64_t>(rng.Uniform(6));
    r.memory = (1LL << 31) * static_cast<int64_t>(rng.Uniform(6));
  } else if (kind < 7) {
    static const int64_t kWhole[] = {1, 1, 2, 4, 8, 16};
    r.scalars["nvidia.com/gpu"] = kWhole[rng.Uniform(6)];
    r.milli_cpu = 4000 * static_cast<int64_t>(rng.Uniform(4));
  } else if (kind < 9) {
    r.milli_cpu = 1000 * static_cast<int64_t>(rng.Uniform(3));
  } else {
    r.scalars["example.com/foo"] = 1 + static_cast<int64_t>(rng.Uniform(3));
    if (rng.Uniform(2)) r.ephemeral = 1LL << 31;
  }
  Pod p = testing::ResourcePod({r});
  p.meta.name = name;
  if (kind == 7 || kind == 8) {
    p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(250 * (1 + rng.Uniform(4)));
    if (rng.Uniform(3) == 0) p.meta.annotations["alibabacloud.com/gpu-count"] = "2";
  }
  if (rng.Uniform(6) == 0) p.meta.annotations["alibabacloud.com/gpu-card-model"] = rng.Uniform(2) ? "A100" : "H100";
  if (rng.Uniform(6) == 0) p.node_selector["zone"] = rng.Uniform(4) ? "a" : "c";
  if (rng.Uniform(6) == 0) p.tolerations.push_back({"dedicated", "Exists", "", ""});
  if (rng.Uniform(12) == 0) p.tolerations.push_back({"node.kubernetes.io/unschedulable", "Exists", "", ""});
  if (rng.Uniform(10) == 0) {
    NodeAffinity a;
    a.has_required = true;
    a.required.push_back(NodeSelectorTerm{{{"zone", "In", {rng.Uniform(2) ? "b" : "d"}}}, {}});
    p.node_affinity = a;
  }
  if (rng.Uniform(30) == 0) p.node_name = "n" + std::to_string(rng.Uniform(num_nodes + 2));
  return p;
}

struct Chain {
  const char* name;
  std::vector<std::unique_ptr<FilterPlugin>> (*make)();
};

std::vector<std::unique_ptr<FilterPlugin>> KubeDefaultChain() {
  KubeSchedulerConfiguration cfg = DefaultSchedulerConfiguration();
  Result<SchedulerSet> set = BuildSchedulers(cfg, "kube-default", 1);
  std::vector<std::unique_ptr<FilterPlugin>> out;
  for (const auto& f : set->owned.front()->filters()) out.push_back(NewFilterPlugin(f->Name()));
  return out;
}

std::vector<std::unique_ptr<FilterPlugin>> IgnoringGpus() {
  std::vector<std::unique_ptr<FilterPlugin>> out = DefaultFilters();
  for (auto& f : out)
    if (f->Name() == "NodeResourcesFit")
      f = std::make_unique<NodeResourcesFit>(std::vector<std::string>{"nvidia.com/gpu"},
                                                   std::vector<std::string>{"example.com"});
  return out;
}

TEST(DiagnosisCacheTest, MatchesDiagnoseOnRandomClustersWithChurn) {
  const Chain chains[] = {{"default", &DefaultFilters}, {"kube-default", &KubeDefaultChain},
                          {"ignoring gpus", &IgnoringGpus}};
  Rng rng(20261203);
  std::map<Kind, int64_t> kinds;
  int64_t compared = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    SCOPED_TRACE(trial);
    const Chain& chain = chains[trial % 3];
    auto filters = chain.make();
    const size_t n = rng.Uniform(4) == 0 ? rng.Uniform(4) : 1 + rng.Uniform(40);
    std::vector<Node> nodes;
    for (size_t i = 0; i < n; ++i) nodes.push_back(RandomNode("n" + std::to_string(i), rng));
    ClusterState cluster(nodes);
    // A pool of shapes, drawn again with a fixed seed per trial.
    std::vector<Pod> pods;
    Rng shapes(static_cast<uint64_t>(trial) * 7919 + 1);
    for (size_t k = 0; k < 12; ++k) pods.push_back(RandomPod("p" + std::to_string(k), shapes, n));
    std::vector<PodInfo> infos;
    for (size_t k = 0; k < pods.size(); ++k) infos.push_back(PodInfo::Make(pods[k], k));
    const Pod filler_pod = GpuPod("filler", 1, 2000);
    const PodInfo filler = PodInfo::Make(filler_pod, 99);
    DiagnosisCache cache;
    std::vector<std::pair<size_t, uint64_t>> running;  // (node, id)
    uint64_t next_id = 100;
    // One trial in two starts busy: fillers on random nodes, as far as they fit.
    for (size_t k = 0; trial % 2 == 1 && k < 4 * n; ++k) {
      const size_t i = rng.Uniform(n);
      if (filler.requests.milli_cpu > SatSub(cluster.state(i).allocatable.milli_cpu, cluster.state(i).requested.milli_cpu) ||
          cluster.state(i).GpuFree() < 1)
        continue;
      cluster.Bind(i, filler.requests, filler.non_zero_requests, next_id, 0);
      running.emplace_back(i, next_id++);
    }
    for (int step = 0; step < 40; ++step) {
      // A few pods asked about, each against the same cluster.
      for (int q = 0; q < 3; ++q) {
        const PodInfo& info = infos[rng.Uniform(infos.size())];
        const Diagnosis want = Diagnose(info, cluster, filters);
        const Diagnosis got = cache.Diagnose(info, cluster, filters);
        ASSERT_EQ(got.kind, want.kind) << chain.name << " step " << step << " " << want.text;
        ASSERT_EQ(got.forever, want.forever) << chain.name << " step " << step;
        ASSERT_EQ(got.text, want.text) << chain.name << " step " << step;
        ++kinds[want.kind];
        ++compared;
      }
      // Churn: binds (some past what fits), departures, nodes gone and new.
      const uint64_t what = rng.Uniform(10);
      if (what < 6 && cluster.num_present() > 0) {
        size_t i = rng.Uniform(cluster.size());
        if (!cluster.present(i)) continue;
        // A pod of the pool, or a small filler that leaves free GPUs and
        // cpu scattered over the nodes.
        const PodInfo& info = rng.Uniform(2) ? infos[rng.Uniform(infos.size())] : filler;
        std::vector<int32_t> devices = cluster.DefaultGpuChoice(i, info.gpu);
        if (info.gpu.from_annotations && devices.empty()) continue;
        cluster.Bind(i, info.requests, info.non_zero_requests, next_id, 0, info.gpu, devices);
        running.emplace_back(i, next_id++);
      } else if (what < 8 && !running.empty()) {
        const size_t r = rng.Uniform(running.size());
        cluster.Unbind(running[r].first, running[r].second);
        running[r] = running.back();
        running.pop_back();
      } else if (what == 8 && cluster.size() > 0) {
        const size_t gone = rng.Uniform(cluster.size());
        cluster.RemoveNode(gone);
        std::erase_if(running, [&](const auto& r) { return r.first == gone; });
      } else {
        cluster.AddNode(RandomNode("m" + std::to_string(step), rng));
      }
    }
  }
  // Every kind of answer was compared, many times.
  for (Kind k : {Kind::kWaitingForRoom, Kind::kFragmented, Kind::kTooLarge, Kind::kNotAdvertised,
                 Kind::kNoEligibleNode, Kind::kNoNodes})
    EXPECT_GT(kinds[k], 1000) << DiagnosisKindName(k);
  EXPECT_EQ(compared, 2000 * 40 * 3);
}

// One cache over two clusters (another serial): never the other's answer.
TEST(DiagnosisCacheTest, KeysOnTheCluster) {
  auto filters = DefaultFilters();
  ClusterState small({GpuNode("a", 2)}), big({GpuNode("a", 8)});
  Pod p = GpuPod("p", 4);
  DiagnosisCache cache;
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(p, 0), small, filters).kind, Kind::kTooLarge);
  big.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 8}}}));
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(p, 0), big, filters).kind, Kind::kWaitingForRoom);
  ClusterState copy = big;  // a copy is another cluster
  copy.Unbind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 8}}}), {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(cache.Diagnose(PodInfo::Make(p, 0), copy, filters).text,
            Diagnose(PodInfo::Make(p, 0), copy, filters).text);
}

}  // namespace
}  // namespace gpusched
