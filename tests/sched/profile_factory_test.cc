// Tests for src/sched/profile_factory.cc: --scheduler-name NAME=POLICY
// parsing and the profiles it adds.
#include "gpusched/sched/profile_factory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/frag.h"

namespace gpusched {
namespace {

TEST(SchedulerNameFlagTest, Parse) {
  Result<ExtraProfile> ok = ParseSchedulerNameFlag("kai-scheduler=best-fit");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->scheduler_name, "kai-scheduler");
  EXPECT_EQ(ok->policy, "best-fit");
  struct Case {
    std::string value, error;
  };
  const Case bad[] = {
      {"kai-scheduler", "error: invalid --scheduler-name \"kai-scheduler\": expected NAME=POLICY, e.g. "
                        "kai-scheduler=best-fit"},
      {"=best-fit", "error: invalid --scheduler-name \"=best-fit\": the scheduler name before \"=\" is empty"},
      {"kai-scheduler=", "error: invalid --scheduler-name \"kai-scheduler=\": the policy after \"=\" is empty"},
      {"kai-scheduler=bestfit",
       "error: invalid --scheduler-name \"kai-scheduler=bestfit\": unknown policy \"bestfit\" (known: first-fit, "
       "best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)"},
  };
  for (const Case& c : bad) {
    Result<ExtraProfile> r = ParseSchedulerNameFlag(c.value);
    ASSERT_FALSE(r.ok()) << c.value;
    EXPECT_EQ(r.status().message(), c.error);
  }
}

TEST(SchedulerNameFlagTest, ExtraProfilesAfterTheConfiguration) {
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, {},
                                             {{"kai-scheduler", "best-fit"}, {"volcano", "kube-default"}});
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->profiles.size(), 3u);
  EXPECT_EQ(set->profiles[0].first, "default-scheduler");
  EXPECT_EQ(set->profiles[0].second->policy().Name(), "first-fit");
  EXPECT_EQ(set->profiles[1].first, "kai-scheduler");
  EXPECT_EQ(set->profiles[1].second->policy().Name(), "best-fit");
  EXPECT_EQ(set->profiles[2].first, "volcano");
  EXPECT_EQ(set->profiles[2].second->policy().Name(), "kube-default");
  // kube-scheduler's default plugins, with DefaultPreemption's message.
  EXPECT_TRUE(set->profiles[2].second->preemption());
  EXPECT_FALSE(set->profiles[1].second->preemption());
  std::vector<std::string> filters;
  for (const auto& f : set->profiles[1].second->filters()) filters.emplace_back(f->Name());
  EXPECT_EQ(filters, (std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                               "NodeResourcesFit", "GpuShare"}));
}

TEST(SchedulerNameFlagTest, Conflicts) {
  Result<SchedulerSet> twice = BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, {},
                                               {{"kai-scheduler", "best-fit"}, {"kai-scheduler", "first-fit"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().message(), "error: --scheduler-name kai-scheduler is given twice");
  Result<SchedulerSet> taken =
      BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, {}, {{"default-scheduler", "best-fit"}});
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.status().message(),
            "error: --scheduler-name default-scheduler=best-fit: \"default-scheduler\" is already served by --policy "
            "(or the --config profile of that name)");
  Result<SchedulerSet> fgd =
      BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, {}, {{"kai-scheduler", "fgd"}});
  ASSERT_FALSE(fgd.ok());
  EXPECT_EQ(fgd.status().message(), "error: " + std::string(kFgdNeedsWorkload));
}

}  // namespace
}  // namespace gpusched
