#include "gpusched/model/operator_workload.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(OperatorWorkloadTest, KindsByApiVersion) {
  EXPECT_EQ(ParseOperatorKind("kubeflow.org/v1", "PyTorchJob"), OperatorKind::kPyTorchJob);
  EXPECT_EQ(ParseOperatorKind("batch.volcano.sh/v1alpha1", "Job"), OperatorKind::kVolcanoJob);
  EXPECT_EQ(ParseOperatorKind("batch/v1", "Job"), std::nullopt);
  EXPECT_EQ(ParseOperatorKind("jobset.x-k8s.io/v1alpha2", "JobSet"), OperatorKind::kJobSet);
  EXPECT_EQ(ParseOperatorKind("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"), OperatorKind::kLeaderWorkerSet);
  EXPECT_EQ(ParseOperatorKind("kubeflow.org/v2beta1", "MPIJob"), std::nullopt);
  EXPECT_EQ(OperatorId(OperatorKind::kVolcanoJob, "ml", "vj"), "Job.batch.volcano.sh/ml/vj");
  EXPECT_EQ(OperatorId(OperatorKind::kTFJob, "ml", "tf"), "TFJob/ml/tf");
  EXPECT_TRUE(IsKubeflowKind(OperatorKind::kJAXJob));
  EXPECT_FALSE(IsKubeflowKind(OperatorKind::kJobSet));
}

TEST(OperatorWorkloadTest, TotalPods) {
  OperatorWorkload w;
  w.kind = OperatorKind::kPyTorchJob;
  w.roles.resize(2);
  w.roles[0].replicas = 1;
  w.roles[1].replicas = 3;
  EXPECT_EQ(w.TotalPods(), 4);
  w.kind = OperatorKind::kJobSet;
  w.roles[0].replicas = 2;  // two Jobs of min(parallelism 4, completions 2) pods
  w.roles[0].job.parallelism = 4;
  w.roles[0].job.completions = 2;
  w.roles[1].replicas = 1;  // one Job of parallelism 3, no completions
  w.roles[1].job.parallelism = 3;
  EXPECT_EQ(w.TotalPods(), 7);
  w.kind = OperatorKind::kLeaderWorkerSet;
  w.roles[0].replicas = 3;
  w.group_size = 4;
  EXPECT_EQ(w.TotalPods(), 12);
}

}  // namespace
}  // namespace gpusched
