#include "gpusched/sim/metrics.h"

#include <gtest/gtest.h>

#include <vector>

#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;

Resources Gpus(int64_t n) {
  testing::Res r;
  r.scalars["nvidia.com/gpu"] = n;
  return testing::ToResources(r);
}

void BindGpus(ClusterState& c, size_t node, int64_t gpus, uint64_t id) { c.Bind(node, Gpus(gpus), Gpus(gpus), id, 0); }

std::vector<double> Times(const std::vector<SimSample>& s) {
  std::vector<double> t;
  for (const SimSample& x : s) t.push_back(x.time);
  return t;
}

TEST(SimMetricsTest, TotalsFollowTheChangedNodeOnly) {
  ClusterState c({GpuNode("a", 4), GpuNode("b", 4), GpuNode("cpu-only", 0)});
  int calls = 0;
  // A stand-in for FGD: the free milli of a node that is partly used.
  NodeFragFn frag = [&calls](const ClusterState& cl, size_t i) {
    ++calls;
    const NodeState& s = cl.state(i);
    const int64_t free = s.GpuFreeMilli();
    return free > 0 && free < static_cast<int64_t>(s.gpu_free_milli.size()) * kGpuMilli ? static_cast<double>(free) : 0.0;
  };
  SimMetrics m(c, frag, 0);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(m.gpu_milli_total(), 8000);
  EXPECT_EQ(m.gpu_milli_used(), 0);

  struct Step {
    const char* what;
    int64_t gpus;  // > 0 bind on node 0 with id = gpus; < 0 unbind that id
    int64_t want_used;
    double want_frag;
    double want_alloc_pct, want_frag_pct, want_frag_of_idle_pct;
  } steps[] = {
      {"bind 1", 1, 1000, 3000, 12.5, 37.5, 3000.0 / 7000 * 100},
      {"bind 3", 3, 4000, 0, 50, 0, 0},
      {"unbind 1", -1, 3000, 1000, 37.5, 12.5, 1000.0 / 5000 * 100},
      {"unbind 3", -3, 0, 0, 0, 0, 0},
  };
  double t = 0;
  for (const Step& s : steps) {
    SCOPED_TRACE(s.what);
    const int before = calls;
    if (s.gpus > 0) {
      BindGpus(c, 0, s.gpus, static_cast<uint64_t>(s.gpus));
    } else {
      ASSERT_TRUE(c.Unbind(0, static_cast<uint64_t>(-s.gpus)));
    }
    m.NodeChanged(c, 0, ++t);
    EXPECT_EQ(calls, before + 1);
    EXPECT_EQ(m.gpu_milli_used(), s.want_used);
    EXPECT_DOUBLE_EQ(m.frag_milli(), s.want_frag);
    m.Sample(t, 2, 1);
    const SimSample got = m.Series().back();
    EXPECT_EQ(got.time, t);
    EXPECT_DOUBLE_EQ(got.gpu_alloc_pct, s.want_alloc_pct);
    EXPECT_DOUBLE_EQ(got.gpu_unalloc_pct, 100 - s.want_alloc_pct);
    EXPECT_DOUBLE_EQ(got.frag_pct, s.want_frag_pct);
    EXPECT_DOUBLE_EQ(got.frag_of_idle_pct, s.want_frag_of_idle_pct);
    EXPECT_EQ(got.gpu_milli_total, 8000);
    EXPECT_EQ(got.gpu_milli_used, s.want_used);
    EXPECT_EQ(got.pending, 2);
    EXPECT_EQ(got.running, 1);
  }
}

TEST(SimMetricsTest, NodesAddedAndRemoved) {
  ClusterState c({GpuNode("a", 2)});
  SimMetrics m(c, nullptr, 0);
  const size_t b = c.AddNode(GpuNode("b", 6));
  m.NodeChanged(c, b, 1);
  EXPECT_EQ(m.gpu_milli_total(), 8000);
  BindGpus(c, b, 3, 7);
  m.NodeChanged(c, b, 2);
  EXPECT_EQ(m.gpu_milli_used(), 3000);
  m.PodArrived(3000);
  m.PodArrived(500);
  c.RemoveNode(b);
  m.NodeChanged(c, b, 3);
  EXPECT_EQ(m.gpu_milli_total(), 2000);
  EXPECT_EQ(m.gpu_milli_used(), 0);
  m.Sample(3, 0, 0);
  EXPECT_EQ(m.Series().back().arrived_gpu_milli, 3500);
  EXPECT_EQ(m.frag_milli(), 0);  // no frag function
  // No GPUs at all: the percentages are 0, not NaN.
  ClusterState empty({GpuNode("cpu", 0)});
  SimMetrics e(empty, nullptr, 0);
  e.Sample(0, 0, 0);
  const SimSample s = e.Series().back();
  EXPECT_EQ(s.gpu_alloc_pct, 0);
  EXPECT_EQ(s.gpu_unalloc_pct, 0);
  EXPECT_EQ(s.frag_pct, 0);
  EXPECT_EQ(s.frag_of_idle_pct, 0);
}

TEST(SimMetricsTest, TimeWeightedMeans) {
  // 0% over [0, 10), 50% over [10, 16), 100% over [16, end].
  ClusterState c({GpuNode("a", 4)});
  SimMetrics m(c, nullptr, 0);
  m.Sample(0, 0, 0);
  BindGpus(c, 0, 2, 1);
  m.NodeChanged(c, 0, 10);
  m.Sample(10, 0, 1);
  BindGpus(c, 0, 2, 2);
  m.NodeChanged(c, 0, 16);
  m.Sample(16, 0, 2);
  struct Case {
    double end, want;
  } cases[] = {
      {16, 300.0 / 16},         // (0*10 + 50*6) / 16
      {20, (300.0 + 400) / 20},  // the last value holds until the end
      {40, (300.0 + 2400) / 40},
  };
  for (const Case& k : cases) EXPECT_DOUBLE_EQ(m.MeanGpuAllocPct(k.end), k.want) << k.end;
  EXPECT_EQ(m.MeanFragPct(20), 0);
  // One sample: its value; none: 0.
  SimMetrics one(c, nullptr, 0);
  one.Sample(5, 0, 0);
  EXPECT_EQ(one.MeanGpuAllocPct(5), 100);
  SimMetrics none(c, nullptr, 0);
  EXPECT_EQ(none.MeanGpuAllocPct(5), 0);
  EXPECT_FALSE(none.last_sample_time().has_value());
}

TEST(SimMetricsTest, ThinningKeepsEveryKthAndTheLast) {
  struct Case {
    size_t max_samples;
    int samples;
    std::vector<double> want;
  } cases[] = {
      {0, 6, {0, 1, 2, 3, 4, 5}},  // unbounded
      {5, 4, {0, 1, 2, 3}},
      {5, 5, {0, 2, 4}},  // the 5th sample halves the buffer; it is also the last
      {5, 20, {0, 8, 16, 19}},
      {5, 17, {0, 8, 16}},  // the last one is already kept
      {2, 20, {0, 19}},
      {1, 20, {19}},
      {100, 1000, {}},  // checked for its size below
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(::testing::Message() << k.max_samples << " of " << k.samples);
    ClusterState c({GpuNode("a", 1)});
    SimMetrics m(c, nullptr, k.max_samples);
    for (int i = 0; i < k.samples; ++i) m.Sample(i, 0, 0);
    const std::vector<SimSample> got = m.Series();
    EXPECT_EQ(m.samples_taken(), static_cast<size_t>(k.samples));
    if (!k.want.empty()) {
      EXPECT_EQ(Times(got), k.want);
    } else {
      EXPECT_LE(got.size(), k.max_samples);
      EXPECT_GE(got.size(), k.max_samples / 4);
      EXPECT_EQ(got.front().time, 0);
      EXPECT_EQ(got.back().time, k.samples - 1);
    }
  }
}

TEST(SimMetricsTest, SnapshotsReplayTheChanges) {
  ClusterState c({GpuNode("a", 4), GpuNode("b", 2)});
  SimMetrics m(c, nullptr, 0);
  BindGpus(c, 0, 1, 1);
  m.NodeChanged(c, 0, 1);
  BindGpus(c, 1, 2, 2);
  m.NodeChanged(c, 1, 2);
  c.Unbind(0, 1);
  m.NodeChanged(c, 0, 3);
  const size_t n = c.AddNode(GpuNode("c", 8));
  m.NodeChanged(c, n, 4);
  BindGpus(c, n, 8, 3);
  m.NodeChanged(c, n, 4);
  c.RemoveNode(1);
  m.NodeChanged(c, 1, 5);
  struct Want {
    double time;
    std::vector<int32_t> used, total;
  } want[] = {
      {0, {0, 0, 0}, {4000, 2000, 0}},
      {1, {1000, 0, 0}, {4000, 2000, 0}},
      {2.5, {1000, 2000, 0}, {4000, 2000, 0}},
      {3, {0, 2000, 0}, {4000, 2000, 0}},
      {4, {0, 2000, 8000}, {4000, 2000, 8000}},
      {100, {0, 0, 8000}, {4000, 0, 8000}},
  };
  std::vector<double> times;
  for (const Want& w : want) times.push_back(w.time);
  const std::vector<NodeSnapshot> got = m.Snapshots(times, 3);
  ASSERT_EQ(got.size(), std::size(want));
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(want[i].time);
    EXPECT_EQ(got[i].time, want[i].time);
    EXPECT_EQ(got[i].gpu_used_milli, want[i].used);
    EXPECT_EQ(got[i].gpu_total_milli, want[i].total);
  }
}

TEST(SimMetricsTest, ReleasedChangeLogLeavesTheStartAndTheTotals) {
  ClusterState c({GpuNode("a", 4), GpuNode("b", 2)});
  SimMetrics m(c, nullptr, 0);
  BindGpus(c, 0, 1, 1);
  m.NodeChanged(c, 0, 1);
  m.Sample(1, 0, 1);
  m.ReleaseChangeLog();
  // Snapshots see the cluster as it started; the running figures stay.
  const std::vector<NodeSnapshot> got = m.Snapshots({0, 5}, 2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].gpu_used_milli, (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(got[1].gpu_total_milli, (std::vector<int32_t>{4000, 2000}));
  EXPECT_EQ(m.gpu_milli_used(), 1000);
  EXPECT_EQ(m.gpu_milli_total(), 6000);
  EXPECT_EQ(m.MeanGpuAllocPct(5), 1000.0 / 6000 * 100);
}

}  // namespace
}  // namespace gpusched
