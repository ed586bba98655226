#include "gpusched/model/controller.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

// The valid rows of k8s.io/apimachinery/pkg/util/intstr intstr_test.go
// (TestGetScaledValueFromIntOrPercent), and the 25%/33% roundings
// Deployments meet.
TEST(ControllerModelTest, ScaledValueUpstreamTable) {
  struct Case {
    IntOrPercent v;
    int64_t total;
    bool round_up;
    int64_t expected;
  };
  const Case cases[] = {
      {{123, false}, 0, false, 123}, {{90, true}, 100, false, 90}, {{90, true}, 95, false, 85},
      {{90, true}, 95, true, 86},   {{0, true}, 95, true, 0},     {{25, true}, 1, true, 1},
      {{25, true}, 1, false, 0},    {{25, true}, 8, true, 2},     {{33, true}, 10, true, 4},
  };
  for (const Case& c : cases)
    EXPECT_EQ(ScaledValue(c.v, c.total, c.round_up), c.expected)
        << c.v.value << (c.v.percent ? "%" : "") << " of " << c.total;
}

TEST(ControllerModelTest, KindNames) {
  EXPECT_EQ(ResourceName(ControllerKind::kDeployment), "deployments.apps");
  EXPECT_EQ(ResourceName(ControllerKind::kJob), "jobs.batch");
  EXPECT_EQ(ResourceName(ControllerKind::kCronJob), "cronjobs.batch");
  EXPECT_EQ(KindGroup(ControllerKind::kDaemonSet), "apps");
  EXPECT_EQ(ParseControllerKind("StatefulSet"), ControllerKind::kStatefulSet);
  EXPECT_EQ(ParseControllerKind("Pod"), std::nullopt);
  EXPECT_EQ(ParseControllerKind("statefulset"), std::nullopt);
  for (ControllerKind k : {ControllerKind::kDeployment, ControllerKind::kReplicaSet, ControllerKind::kStatefulSet,
                           ControllerKind::kJob, ControllerKind::kDaemonSet, ControllerKind::kCronJob})
    EXPECT_EQ(ParseControllerKind(KindName(k)), k);
}

}  // namespace
}  // namespace gpusched
