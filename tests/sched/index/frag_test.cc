#include "gpusched/sched/index/frag.h"

#include <gtest/gtest.h>

#include "gpusched/util/random.h"

namespace gpusched {
namespace {

TypicalPod TP(int64_t cpu, int32_t milli, int32_t count, const std::string& models, double percent) {
  return TypicalPod{PodShape{cpu, milli, count, models}, percent / 100};
}

// TestingGenerateGetTypicalPods in the simulator's pkg/utils/frag_test.go.
TypicalPods UpstreamTypical() {
  return TypicalPods{{
      TP(6000, 465, 1, "", 9.33),        TP(8000, 440, 1, "2080", 9.15),    TP(8000, 475, 1, "T4", 8.76),
      TP(8000, 440, 1, "P100", 8.72),    TP(2000, 465, 1, "", 8.68),        TP(12000, 900, 1, "", 8.65),
      TP(4000, 900, 1, "", 8.43),        TP(16000, 678, 1, "T4", 8.36),     TP(8000, 500, 1, "", 8.29),
      TP(6000, 511, 1, "", 8.11),        TP(14000, 1000, 2, "2080", 0.54),  TP(4000, 1000, 1, "2080", 0.43),
      TP(32000, 1000, 2, "T4", 0.43),    TP(16000, 1000, 1, "V100M16", 0.40), TP(64000, 1000, 2, "", 0.40),
      TP(10000, 1000, 2, "", 0.40),      TP(11400, 1000, 1, "T4", 0.36),    TP(16000, 1000, 1, "T4", 0.36),
      TP(4000, 1000, 2, "", 0.36),       TP(14000, 1000, 2, "V100M16", 0.36), TP(8000, 1000, 4, "", 0.36),
      TP(16000, 1000, 2, "", 0.32),      TP(2000, 1000, 1, "T4", 0.32),     TP(6000, 1000, 1, "", 0.32),
      TP(4000, 1000, 1, "", 0.32),       TP(5000, 1000, 1, "", 0.32),       TP(32000, 1000, 4, "V100M16", 0.32),
      TP(32000, 1000, 2, "", 0.32),      TP(24000, 1000, 8, "2080", 0.32),  TP(40000, 1000, 4, "", 0.29),
      TP(32000, 1000, 8, "", 0.29),      TP(32000, 1000, 1, "T4", 0.29),    TP(16000, 1000, 1, "", 0.25),
      TP(7000, 1000, 1, "V100M16", 0.25), TP(24000, 1000, 1, "T4", 0.25),
  }};
}

// TestingGenerateGetTypicalPodsWithNonGpu in frag_test.go.
TypicalPods UpstreamTypicalWithNonGpu() {
  return TypicalPods{{
      TP(15700, 1000, 1, "", 28.69), TP(11900, 1000, 1, "", 18.93), TP(11400, 1000, 1, "", 12.27),
      TP(1000, 0, 0, "", 7.36),      TP(18710, 1000, 1, "", 4.85),  TP(8200, 1000, 1, "", 3.79),
      TP(16400, 1000, 1, "", 3.31),  TP(9810, 1000, 1, "", 1.97),   TP(15200, 1000, 1, "", 1.87),
      TP(11200, 1000, 1, "", 1.81),  TP(14200, 1000, 1, "", 1.76),  TP(12000, 0, 0, "", 1.65),
      TP(14900, 1000, 1, "", 1.39),  TP(60200, 1000, 4, "", 1.23),  TP(64200, 1000, 8, "", 1.07),
      TP(32200, 1000, 4, "", 1.01),  TP(17400, 1000, 2, "", 0.91),  TP(30200, 1000, 2, "", 0.69),
      TP(16000, 1000, 1, "", 0.64),  TP(15000, 1000, 1, "", 0.59),  TP(64000, 1000, 8, "", 0.53),
      TP(15000, 0, 0, "", 0.53),     TP(11910, 1000, 1, "", 0.53),  TP(120200, 1000, 8, "", 0.48),
      TP(11300, 1000, 1, "", 0.37),  TP(30000, 1000, 2, "", 0.32),  TP(9800, 1000, 1, "", 0.32),
      TP(8000, 1000, 1, "", 0.32),   TP(2000, 1000, 1, "", 0.27),   TP(2000, 80, 1, "", 0.27),
      TP(1000, 1000, 1, "", 0.27),
  }};
}

double SumFreq(const TypicalPods& t) {
  double s = 0;
  for (const auto& p : t.pods) s += p.freq;
  return s;
}

TEST(FragTest, UpstreamVectors) {
  // frag_test.go's TestNodeGpuShareFragAmount(Score) and
  // TestNodeGpuShareFragAmountWithNonGpu. Expected values by hand (fgd.md §4):
  //  - 1080 nodes with 1000m CPU left: every typical pod asks >= 2000m CPU and
  //    none accepts "1080" except the untyped ones, so each type is Q1/Q4/
  //    NoAccess and counts all R: F = R·Σp = R·0.9506 (upstream: 2566.62,
  //    3802.40, 7604.80 within 0.01).
  //  - 8xP100_empty (64 cores, 8 free): CPU-only types are XL (all R):
  //    8000·(7.36+1.65+0.53)% = 763.2; 64200m and 120200m 8-GPU types lack
  //    CPU (Q4): 8000·(1.07+0.48)% = 124.0; the rest are Q3 with no device
  //    too small: 887.2.
  //  - 8xP100_halved (32 cores, 4 of 8 free, R=4000): XL 4000·9.54% = 381.6;
  //    CPU > 32000 (60200, 64200, 32200, 64000, 120200): 4000·4.32% = 172.8;
  //    total 554.4.
  //  - 8xP100_nocpu: nothing fits the CPU, so F = 4000·Σp = 4000.
  struct Case {
    const char* name;
    TypicalPods typical;
    int64_t cpu_left;
    std::vector<int32_t> free;
    std::string model;
    double want;
  } cases[] = {
      {"4x1080_used", UpstreamTypical(), 1000, {200, 1000, 1000, 500}, "1080", 2700 * SumFreq(UpstreamTypical())},
      {"4x1080_full", UpstreamTypical(), 1000, {1000, 1000, 1000, 1000}, "1080", 4000 * SumFreq(UpstreamTypical())},
      {"8x1080_full", UpstreamTypical(), 1000, std::vector<int32_t>(8, 1000), "1080",
       8000 * SumFreq(UpstreamTypical())},
      {"4x1080_used_lack_CPU", TypicalPods{{TP(6000, 465, 1, "", 9.33)}}, 1000, {200, 1000, 1000, 500}, "1080",
       0.0933 * 2700},  // 251.91
      {"8xP100_empty", UpstreamTypicalWithNonGpu(), 64000, std::vector<int32_t>(8, 1000), "P100", 887.2},
      {"8xP100_halved", UpstreamTypicalWithNonGpu(), 32000, {1000, 1000, 1000, 1000, 0, 0, 0, 0}, "P100", 554.4},
      {"8xP100_nocpu", UpstreamTypicalWithNonGpu(), 0, {1000, 1000, 1000, 1000, 0, 0, 0, 0}, "P100", 4000},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_NEAR(NodeFragMilli(c.cpu_left, c.free, c.model, c.typical), c.want, 1e-9);
  }
  EXPECT_NEAR(2700 * SumFreq(UpstreamTypical()), 2566.62, 0.01);
}

TEST(FragTest, Classify) {
  // GetNodePodFrag on a node with 4000m CPU left, free [200, 1000, 500], model T4.
  const std::vector<int32_t> free = {200, 1000, 500};
  struct Case {
    PodShape shape;
    FragClass want;
  } cases[] = {
      {{4000, 500, 1, ""}, FragClass::kQ3Satisfied},   // 1000 and 500 fit, CPU fits exactly
      {{4001, 500, 1, ""}, FragClass::kQ4LackCpu},
      {{1000, 1000, 2, ""}, FragClass::kQ2LackGpu},    // one fully free device only
      {{5000, 1000, 2, ""}, FragClass::kQ1LackBoth},
      {{4000, 0, 0, ""}, FragClass::kXLSatisfied},
      {{4001, 0, 0, "V100M16"}, FragClass::kXRLackCpu},  // CPU-only: the model is not looked at
      {{1000, 500, 1, "V100M16|P100"}, FragClass::kNoAccess},
      {{1000, 500, 1, "V100M16|T4"}, FragClass::kQ3Satisfied},
      {{1000, 600, 0, ""}, FragClass::kQ3Satisfied},   // count 0 still needs one device
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.shape.milli_cpu);
    EXPECT_EQ(ClassifyNodeForShape(4000, free, "T4", c.shape), c.want);
  }
}

TEST(FragTest, AmountPerClass) {
  // Node: 3000m CPU left, free [100, 600, 1000] (R = 1700), model T4.
  // By hand:
  //  A (1000m, 500m×1, p .5): Q3; devices below 500: 100 -> Q2 += .5·100 = 50, Q3 += .5·1600 = 800.
  //  B (4000m, CPU only, p .25): XR, all R -> .25·1700 = 425.
  //  C (1000m, 1000m×2, p .125): one fully free device -> Q2, .125·1700 = 212.5.
  //  D (1000m, 200m×1, "A10", p .125): NoAccess, .125·1700 = 212.5.
  TypicalPods t{{TP(1000, 500, 1, "", 50), TP(4000, 0, 0, "", 25), TP(1000, 1000, 2, "", 12.5),
                 TP(1000, 200, 1, "A10", 12.5)}};
  FragAmount a = NodeFragAmount(3000, std::vector<int32_t>{100, 600, 1000}, "T4", t);
  EXPECT_EQ(a.data, (std::array<double, kNumFragClasses>{0, 262.5, 800, 0, 0, 425, 212.5}));
  EXPECT_EQ(a.SumExceptQ3(), 900);
  EXPECT_EQ(a.Sum(), 1700);
  // A frequency outside [0, 1] is skipped, as upstream logs and skips it.
  t.pods.push_back(TP(0, 0, 0, "", 150));
  EXPECT_EQ(NodeFragMilli(3000, {100, 600, 1000}, "T4", t), 900);
}

TEST(FragTest, NodeStateOverload) {
  NodeState s;
  s.allocatable.milli_cpu = 8000;
  s.requested.milli_cpu = 7000;  // 1000m left
  s.gpu_free_milli = {200, 1000, 1000, 500};
  s.gpu_model = "1080";
  EXPECT_EQ(CpuLeftMilli(s), 1000);
  // 0.0933·2700, as the 4x1080_used_lack_CPU vector.
  EXPECT_EQ(NodeFragMilli(s, TypicalPods{{TP(6000, 465, 1, "", 9.33)}}), 0.0933 * 2700);
}

// The incremental profile must give exactly the reference's numbers, before
// and after any change a pod can make, on random nodes and workloads.
TEST(FragTest, ModelViewAndBoundHelpers) {
  // T1 (1000m, 500m), T2 (2000m, 1000m), T3 CPU-only (3000m), T4 (1000m,
  // 300m, A100 only), .25 each.
  TypicalPods t{{{PodShape{1000, 500, 1, ""}, .25},
                 {PodShape{2000, 1000, 1, ""}, .25},
                 {PodShape{3000, 0, 0, ""}, .25},
                 {PodShape{1000, 300, 1, "A100"}, .25}}};
  FragTable table(t);
  const FragTable::Model& m = table.Access("T4");
  EXPECT_EQ(m.access, (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_EQ(m.refused_freq, std::vector<double>{.25});
  EXPECT_EQ(m.freq, (std::vector<double>{.25, .25}));
  EXPECT_EQ(m.cpu, (std::vector<int64_t>{1000, 2000}));
  EXPECT_EQ(m.milli, (std::vector<int32_t>{500, 1000}));
  EXPECT_EQ(m.need, (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(m.by_milli, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(m.never_satisfied, .5);  // T3 and T4
  EXPECT_EQ(&table.Access("T4"), &m);  // cached
  struct Case {
    int64_t cpu_left;
    std::vector<int32_t> free;
    double unsatisfied, above_400, above_500;
  } cases[] = {
      // T1 fits and has CPU; T2 fits but lacks CPU: unsatisfied T2, T3, T4.
      {1500, {500, 1000}, .75, .25, 0},
      // Both satisfied.
      {4000, {500, 1000}, .5, .5, .25},
      // No device for either.
      {4000, {400}, 1, 0, 0},
  };
  for (const Case& c : cases) {
    NodeFragProfile prof;
    prof.Build(c.cpu_left, c.free, table, m);
    EXPECT_TRUE(prof.nonnegative());
    EXPECT_EQ(prof.unsatisfied_freq(), c.unsatisfied) << c.cpu_left;
    EXPECT_EQ(prof.SatisfiedFreqAbove(400), c.above_400) << c.cpu_left;
    EXPECT_EQ(prof.SatisfiedFreqAbove(500), c.above_500) << c.cpu_left;
    EXPECT_EQ(prof.frag(), NodeFragMilli(c.cpu_left, c.free, "T4", t));
  }
}

TEST(FragTest, ProfileMatchesReferenceExactly) {
  Rng rng(7);
  const char* models[] = {"", "T4", "G2"};
  for (int round = 0; round < 300; ++round) {
    TypicalPods t;
    const size_t n_typical = 1 + rng.Uniform(12);
    for (size_t m = 0; m < n_typical; ++m) {
      const int kind = static_cast<int>(rng.Uniform(3));
      PodShape s{static_cast<int64_t>(rng.Uniform(20)) * 1000, 0, 0, ""};
      if (kind == 1) s.milli_gpu = static_cast<int32_t>(50 + rng.Uniform(950)), s.gpu_count = 1;
      if (kind == 2) s.milli_gpu = 1000, s.gpu_count = static_cast<int32_t>(1 + rng.Uniform(8));
      if (rng.Uniform(4) == 0) s.models = rng.Uniform(2) ? "T4" : "G2|V100M16";
      t.pods.push_back(TypicalPod{s, rng.UniformDouble() / static_cast<double>(n_typical)});
    }
    std::vector<int32_t> free(rng.Uniform(9));
    for (auto& f : free) f = rng.Uniform(3) == 0 ? 1000 : static_cast<int32_t>(rng.Uniform(1001));
    const int64_t cpu = static_cast<int64_t>(rng.Uniform(40)) * 1000;
    const std::string model = models[rng.Uniform(3)];
    FragTable table(t);
    NodeFragProfile prof;
    prof.Build(cpu, free, table, table.Access(model));
    ASSERT_EQ(prof.frag(), NodeFragMilli(cpu, free, model, t)) << round;
    // A share on each device, and k whole devices.
    const int32_t milli = static_cast<int32_t>(1 + rng.Uniform(999));
    const int64_t pod_cpu = static_cast<int64_t>(rng.Uniform(10)) * 1000;
    for (size_t d = 0; d < free.size(); ++d) {
      if (free[d] < milli) continue;
      std::vector<int32_t> after = free;
      after[d] -= milli;
      const int32_t before = free[d];
      ASSERT_EQ(prof.FragAfter(table, pod_cpu, {&before, 1}, milli), NodeFragMilli(cpu - pod_cpu, after, model, t))
          << round << " device " << d;
    }
    std::vector<int32_t> after = free, taken;
    for (auto& f : after)
      if (f == 1000 && taken.size() < 2) taken.push_back(f), f = 0;
    ASSERT_EQ(prof.FragAfter(table, pod_cpu, taken, 1000), NodeFragMilli(cpu - pod_cpu, after, model, t)) << round;
  }
}

}  // namespace
}  // namespace gpusched
