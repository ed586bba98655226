#include "gpusched/model/eviction.h"

#include <gtest/gtest.h>

#include <memory>

namespace gpusched {
namespace {

Pod WithAnnotation(const std::string& value) {
  Pod p;
  p.meta.name = "p";
  p.meta.annotations[kAnnotationCheckpointInterval] = value;
  return p;
}

TEST(EvictionTest, GracePeriodDefaultsTo30) {
  Pod p;
  EXPECT_EQ(TerminationGracePeriodSeconds(p), 30);
  auto x = std::make_shared<PodSpecExtras>();
  x->termination_grace_period_seconds = 120;
  p.extras = x;
  EXPECT_EQ(TerminationGracePeriodSeconds(p), 120);
}

TEST(EvictionTest, CheckpointIntervalAndLostWork) {
  struct Case {
    const char* value;
    std::optional<double> seconds;
  };
  const Case cases[] = {{"600", 600}, {"10m", 600}, {"1h30m", 5400}, {"0.5h", 1800},
                        {"0", std::nullopt}, {"-5m", std::nullopt}, {"ten", std::nullopt}, {"", std::nullopt}};
  for (const Case& c : cases) {
    const Pod p = WithAnnotation(c.value);
    EXPECT_EQ(CheckpointIntervalSeconds(p), c.seconds) << c.value;
    EXPECT_EQ(CheckpointIntervalError(p).has_value(), !c.seconds.has_value()) << c.value;
  }
  EXPECT_EQ(CheckpointIntervalError(WithAnnotation("ten"))->ToString(),
            "metadata.annotations[gpusched.io/checkpoint-interval]: Invalid value: \"ten\": must be a duration greater "
            "than 0 such as 600, 10m or 1h");
  Pod none;
  EXPECT_EQ(CheckpointIntervalError(none), std::nullopt);
  // All the work since it started, or since its last checkpoint.
  EXPECT_EQ(LostWorkSeconds(none, 4000), 4000);
  EXPECT_EQ(LostWorkSeconds(WithAnnotation("30m"), 4000), 400);  // checkpoints at 1800 and 3600
  EXPECT_EQ(LostWorkSeconds(WithAnnotation("30m"), 1000), 1000);
  EXPECT_EQ(LostWorkSeconds(WithAnnotation("30m"), 3600), 0);
  EXPECT_EQ(LostWorkSeconds(WithAnnotation("30m"), -1), 0);
}

TEST(EvictionTest, RequeueAsTheControllerWould) {
  struct Case {
    std::string owner;                       // Pod::owner
    std::optional<OwnerReference> ref;        // controller reference
    EvictionRequeue::Kind want;
    std::string controller;
  };
  const Case cases[] = {
      {"", std::nullopt, EvictionRequeue::Kind::kGone, ""},
      {"Deployment/web", OwnerReference{"apps/v1", "ReplicaSet", "web-6d4", ""},
       EvictionRequeue::Kind::kReplacedNewName, "ReplicaSet/web-6d4"},
      {"", OwnerReference{"batch/v1", "Job", "train", "u"}, EvictionRequeue::Kind::kReplacedNewName, "Job/train"},
      {"", OwnerReference{"apps/v1", "StatefulSet", "db", "u"}, EvictionRequeue::Kind::kReplacedSameName,
       "StatefulSet/db"},
      {"PyTorchJob/mnist", OwnerReference{"kubeflow.org/v1", "PyTorchJob", "mnist", ""},
       EvictionRequeue::Kind::kReplacedSameName, "PyTorchJob/mnist"},
      {"", OwnerReference{"batch.volcano.sh/v1alpha1", "Job", "vj", ""}, EvictionRequeue::Kind::kReplacedSameName,
       "Job.batch.volcano.sh/vj"},
      {"DaemonSet/dp", std::nullopt, EvictionRequeue::Kind::kReplacedNewName, "DaemonSet/dp"},
      {"", OwnerReference{"example.io/v1", "Thing", "t", ""}, EvictionRequeue::Kind::kGone, ""},
  };
  for (const Case& c : cases) {
    Pod p;
    p.owner = c.owner;
    p.controller_ref = c.ref;
    const EvictionRequeue r = RequeueOnEviction(p);
    EXPECT_EQ(r.kind, c.want) << c.owner;
    EXPECT_EQ(r.controller, c.controller) << c.owner;
  }
}

}  // namespace
}  // namespace gpusched
