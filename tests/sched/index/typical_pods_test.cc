#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpusched/sched/index/frag.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::TracePod;

TEST(TypicalPodsTest, ShapeOf) {
  struct Case {
    const char* name;
    Pod pod;
    PodShape want;
  } cases[] = {
      {"cpu only", TracePod("a", 12500), {12500, 0, 0, ""}},
      {"share", TracePod("b", 3152, 1, 810), {3152, 810, 1, ""}},
      {"whole", TracePod("c", 11300, 2, 1000), {11300, 1000, 2, ""}},
      {"model list as written", TracePod("d", 4000, 1, 500, "V100M32|V100M16"), {4000, 500, 1, "V100M32|V100M16"}},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ShapeOf(PodInfo::Make(c.pod, 0)), c.want);
  }
  // GetNonzeroRequests per container: 100m for one without a cpu request,
  // an explicit 0 stays 0; init containers are not counted.
  Pod p = TracePod("e", 2000);
  p.containers.push_back(Container{"no-cpu", "img", {}, {}, ""});
  Container zero{"zero", "img", {}, {}, ""};
  zero.requests["cpu"] = Quantity::FromMilli(0);
  p.containers.push_back(zero);
  Container init{"init", "img", {}, {}, ""};
  init.requests["cpu"] = Quantity::FromMilli(50000);
  p.init_containers.push_back(init);
  EXPECT_EQ(ShapeOf(PodInfo::Make(p, 0)).milli_cpu, 2100);
}

TEST(TypicalPodsTest, PodHasNoRequests) {
  struct Case {
    const char* name;
    void (*edit)(Pod&);
    bool want;
  } cases[] = {
      {"cpu request", [](Pod&) {}, false},
      // The GPU share is in annotations, which are not requests.
      {"no request anywhere", [](Pod& p) { p.containers[0].requests.clear(); }, true},
      // An explicit zero still names a resource.
      {"explicit zero", [](Pod& p) { p.containers[0].requests = {{"cpu", Quantity::FromMilli(0)}}; }, false},
      {"init container", [](Pod& p) {
         p.containers[0].requests.clear();
         p.init_containers.push_back(Container{"init", "img", {{"memory", Quantity::FromInt(1)}}, {}, ""});
       }, false},
      {"overhead", [](Pod& p) {
         p.containers[0].requests.clear();
         p.overhead["cpu"] = Quantity::FromMilli(10);
       }, false},
  };
  for (auto& c : cases) {
    Pod p = TracePod("p", 1000, 1, 500);
    c.edit(p);
    EXPECT_EQ(PodHasNoRequests(PodInfo::Make(p, 0)), c.want) << c.name;
  }
  // Without a Pod: its requests decide.
  EXPECT_TRUE(PodHasNoRequests(PodInfo{}));
  PodInfo with_cpu;
  with_cpu.requests.milli_cpu = 1;
  EXPECT_FALSE(PodHasNoRequests(with_cpu));
}

TEST(TypicalPodsTest, ModelListAllows) {
  struct Case {
    const char* models;
    const char* node;
    bool want;
  } cases[] = {
      {"", "T4", true},     {"", "", true},       {"T4", "T4", true},         {"T4", "P100", false},
      {"T4", "", false},    {"P100|T4", "T4", true}, {"P100|T4", "T", false}, {"|", "T4", true},
      {"|", "", false},     {"|T4|", "T4", true},    {"T4|", "G2", false},
  };
  for (const auto& c : cases) EXPECT_EQ(ModelListAllows(c.models, c.node), c.want) << c.models << " / " << c.node;
}

TEST(TypicalPodsTest, OrderThresholdAndRenormalisation) {
  // 10 pods: A×4, B×2, C×2, D×1, E×1. Count descending; ties put the larger
  // shape (cpu, then milli, count, models) first: C (3000m) before B
  // (2000m), E (cpu 1000, milli 500) before D (cpu 1000, milli 0).
  const PodShape A{1000, 1000, 1, ""}, B{2000, 0, 0, ""}, C{3000, 500, 1, ""}, D{1000, 0, 0, ""},
      E{1000, 500, 1, ""};
  const std::vector<PodShape> pods = {B, A, C, A, D, B, A, C, E, A};
  struct Case {
    double threshold;
    std::vector<TypicalPod> want;
  } cases[] = {
      // 95%: 9.5 pods. 4, 6, 8, 9 < 9.5, then 10: every shape is typical and,
      // as upstream, the frequencies are count/10 without renormalising.
      {0.95, {{A, 0.4}, {C, 0.2}, {B, 0.2}, {E, 0.1}, {D, 0.1}}},
      // 60%: 6 pods: A (4) then C (6 >= 6); renormalised by 6/10.
      {0.6, {{A, (4.0 / 10) / (6.0 / 10)}, {C, (2.0 / 10) / (6.0 / 10)}}},
      // 35%: A alone (4 >= 3.5) gets frequency 1.
      {0.35, {{A, 1}}},
      // <= 0 is upstream's default, 60%.
      {0, {{A, (4.0 / 10) / (6.0 / 10)}, {C, (2.0 / 10) / (6.0 / 10)}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.threshold);
    TypicalPods got = ComputeTypicalPods(pods, c.threshold);
    ASSERT_EQ(got.pods.size(), c.want.size());
    for (size_t i = 0; i < c.want.size(); ++i) {
      EXPECT_EQ(got.pods[i].shape, c.want[i].shape) << i;
      EXPECT_EQ(got.pods[i].freq, c.want[i].freq) << i;
    }
  }
  EXPECT_TRUE(ComputeTypicalPods({}).pods.empty());
}

// The shapes of the trace's pod list, read as the trace loader reads them
// (sched_tests does not link io): cpu_milli, then num_gpu × gpu_milli, 0 GPUs
// for num_gpu 0, and gpu_spec as written.
std::vector<PodShape> ReadTraceShapes(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<PodShape> out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    f.resize(6);
    PodShape s;
    s.milli_cpu = std::stoll(f[1]);
    const int32_t num = std::stoi(f[3]);
    if (num > 0) {
      s.gpu_count = num;
      s.milli_gpu = std::stoi(f[4]);
    }
    s.models = f[5];
    out.push_back(s);
  }
  return out;
}

TEST(TypicalPodsTest, AlibabaDefaultTrace) {
  // fgd.md §4: 91 distinct shapes, 35 typical covering 95.26% (7766 of
  // 8152 pods); the top one (3152m, 810m × 1) holds 1047 pods = 12.8% of all
  // pods; by kind CPU-only 13.6%, sharing 37.3%, whole GPUs 49.1%.
  std::vector<PodShape> shapes =
      ReadTraceShapes(std::string(GPUSCHED_SOURCE_DIR) + "/data/alibaba-gpu-2023/openb_pod_list_default.csv");
  ASSERT_EQ(shapes.size(), 8152u);
  TypicalPods t = ComputeTypicalPods(shapes);
  ASSERT_EQ(t.pods.size(), 35u);
  EXPECT_EQ(t.pods[0].shape, (PodShape{3152, 810, 1, ""}));
  EXPECT_EQ(t.pods[0].freq, (1047.0 / 8152) / (7766.0 / 8152));
  EXPECT_NEAR(1047.0 / 8152, 0.128, 0.0005);
  EXPECT_NEAR(7766.0 / 8152, 0.9526, 0.00005);
  // Ties by count go to the larger shape: (15400m, CPU only) before (6000m,
  // 460m × 1), both 120 pods; (8000m, 320m) before (4152m, 550m), both 72.
  EXPECT_EQ(t.pods[20].shape, (PodShape{15400, 0, 0, ""}));
  EXPECT_EQ(t.pods[21].shape, (PodShape{6000, 460, 1, ""}));
  EXPECT_EQ(t.pods[26].shape, (PodShape{8000, 320, 1, ""}));
  EXPECT_EQ(t.pods[27].shape, (PodShape{4152, 550, 1, ""}));
  EXPECT_EQ(t.pods[34].shape, (PodShape{4152, 810, 1, ""}));
  double cpu = 0, share = 0, whole = 0, sum = 0;
  for (const auto& p : t.pods) {
    sum += p.freq;
    if (p.shape.gpu_count == 0) cpu += p.freq;
    else if (p.shape.shared()) share += p.freq;
    else whole += p.freq;
  }
  EXPECT_NEAR(sum, 1, 1e-12);
  EXPECT_NEAR(cpu, 0.136, 0.0005);
  EXPECT_NEAR(share, 0.373, 0.0005);
  EXPECT_NEAR(whole, 0.491, 0.0005);
}

}  // namespace
}  // namespace gpusched
