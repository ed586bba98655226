#include "gpusched/sched/api/pod_class.h"

#include <gtest/gtest.h>

#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuPod;

TEST(PodClassTest, WhatMakesAClass) {
  const Pod base = GpuPod("a", 2, 1000);
  struct Case {
    const char* name;
    Pod other;
    bool same;
  };
  auto with = [&](auto change) {
    Pod p = base;
    p.meta.name = "b";
    change(p);
    return p;
  };
  const Case cases[] = {
      {"another name only", with([](Pod& p) { p.meta.name = "other"; }), true},
      // Other pods' anti-affinity and spread selectors read a pod's
      // namespace and labels.
      {"another namespace", with([](Pod& p) { p.meta.namespace_ = "team"; }), false},
      {"another GPU count", GpuPod("b", 4, 1000), false},
      {"more cpu", GpuPod("b", 2, 2000), false},
      {"a priority", with([](Pod& p) { p.priority = 10; }), false},
      {"preemptionPolicy Never", with([](Pod& p) { p.preemption_policy = "Never"; }), false},
      {"another scheduler", with([](Pod& p) { p.scheduler_name = "gpu"; }), false},
      {"a nodeSelector", with([](Pod& p) { p.node_selector["zone"] = "a"; }), false},
      {"a toleration", with([](Pod& p) { p.tolerations.push_back({"k", "Exists", "", ""}); }), false},
      {"a nodeName", with([](Pod& p) { p.node_name = "n1"; }), false},
      {"a GPU model", with([](Pod& p) { p.meta.annotations["alibabacloud.com/gpu-card-model"] = "A100"; }), false},
      {"a required affinity",
       with([](Pod& p) {
         p.node_affinity.emplace();
         p.node_affinity->has_required = true;
         p.node_affinity->required.push_back(NodeSelectorTerm{{{"zone", "In", {"a"}}}, {}});
       }),
       false},
      // Only scores read these: the class ignores them.
      {"a preferred affinity only",
       with([](Pod& p) {
         p.node_affinity.emplace();
         p.node_affinity->preferred.push_back({5, NodeSelectorTerm{{{"zone", "In", {"a"}}}, {}}});
       }),
       true},
  };
  const PodInfo a = PodInfo::Make(base, 0);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const PodInfo b = PodInfo::Make(c.other, 1);
    EXPECT_EQ(SameClass(a, b), c.same);
    EXPECT_EQ(SameClass(b, a), c.same);
    if (c.same) {
      EXPECT_EQ(ClassHash(a), ClassHash(b));
    }
  }
}

TEST(PodClassTest, ConstraintsCompareByValue) {
  Pod a = GpuPod("a", 1), b = GpuPod("b", 1);
  for (Pod* p : {&a, &b}) {
    p->node_selector["zone"] = "a";
    p->tolerations.push_back({"dedicated", "Equal", "x", "NoSchedule"});
  }
  EXPECT_TRUE(SameClass(PodInfo::Make(a, 0), PodInfo::Make(b, 1)));
  b.tolerations[0].value = "y";
  EXPECT_FALSE(SameClass(PodInfo::Make(a, 0), PodInfo::Make(b, 1)));
}

TEST(PodClassTest, TableNumbersClassesAndOutlivesThePods) {
  PodClassTable table;
  {
    Pod a = GpuPod("a", 1), b = GpuPod("b", 2), c = GpuPod("c", 1);
    c.node_selector["zone"] = "a";
    EXPECT_EQ(table.Intern(PodInfo::Make(a, 0)), 0u);
    EXPECT_EQ(table.Intern(PodInfo::Make(b, 1)), 1u);
    EXPECT_EQ(table.Intern(PodInfo::Make(c, 2)), 2u);
    EXPECT_EQ(table.Intern(PodInfo::Make(GpuPod("d", 2), 3)), 1u);
  }
  // The pods are gone; the table's keys are its own.
  Pod e = GpuPod("e", 1);
  e.node_selector["zone"] = "a";
  EXPECT_EQ(table.Intern(PodInfo::Make(e, 4)), 2u);
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.Representative(2).pod->node_selector.at("zone"), "a");
}

}  // namespace
}  // namespace gpusched
