// Tests for src/sched/framework/pre_enqueue.cc: what holds a pod before any filter runs,
// in kube-scheduler's order (its profile, SchedulingGates' PreEnqueue, then
// gpusched's HAMi refusal and DynamicResources).
#include "gpusched/sched/framework/pre_enqueue.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

class PreEnqueueTest : public ::testing::Test {
 protected:
  PreEnqueueTest()
      : cluster_({GpuNode("a", 4)}), scheduler_(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1) {
    profiles_ = {{kDefaultSchedulerName, &scheduler_}};
  }
  std::optional<HeldPod> Check(const Pod& p) {
    return CheckBeforeScheduling(PodInfo::Make(p, 0), profiles_, nullptr, cluster_);
  }
  ClusterState cluster_;
  Scheduler scheduler_;
  ProfileSchedulers profiles_;
};

Pod Gated(Pod p, std::vector<std::string> gates) {
  auto e = std::make_shared<PodSpecExtras>();
  e->scheduling_gates = std::move(gates);
  p.extras = std::move(e);
  return p;
}

TEST_F(PreEnqueueTest, PlainPodGoesToItsScheduler) {
  EXPECT_FALSE(Check(GpuPod("p", 1)).has_value());
  EXPECT_EQ(ProfileFor(PodInfo::Make(GpuPod("p", 1), 0), profiles_), &scheduler_);
}

TEST_F(PreEnqueueTest, SchedulingGated) {
  std::optional<HeldPod> h = Check(Gated(GpuPod("p", 1), {"foo", "bar"}));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->message, "Scheduling is blocked due to non-empty scheduling gates");
  EXPECT_EQ(h->diagnosis.kind, Diagnosis::Kind::kSchedulingGated);
  EXPECT_FALSE(h->diagnosis.forever);
  EXPECT_EQ(h->diagnosis.text,
            "not attempted (SchedulingGated): waiting for scheduling gates: [foo bar]; kube-scheduler's "
            "SchedulingGates plugin keeps the pod out of its queue until whoever added the gates (e.g. a queueing "
            "controller such as Kueue) removes them (pending is not an error)");
}

// schedule_one.go skipPodSchedule: a pod with a deletionTimestamp is popped
// and dropped with a FailedScheduling event; gates come first (a gated pod
// is never popped).
TEST_F(PreEnqueueTest, BeingDeletedIsSkipped) {
  Pod p = GpuPod("p", 1);
  p.meta.namespace_ = "ml";
  p.deleting = true;
  std::optional<HeldPod> h = Check(p);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->message, "skip schedule deleting pod: ml/p");
  EXPECT_EQ(h->diagnosis.kind, Diagnosis::Kind::kBeingDeleted);
  EXPECT_FALSE(h->diagnosis.forever);
  EXPECT_EQ(h->diagnosis.text,
            "not attempted: the pod is being deleted (metadata.deletionTimestamp is set), and kube-scheduler skips "
            "such a pod (its FailedScheduling event says \"skip schedule deleting pod: ml/p\")");
  EXPECT_EQ(Check(Gated(p, {"foo"}))->diagnosis.kind, Diagnosis::Kind::kSchedulingGated);
}

TEST_F(PreEnqueueTest, UnservedSchedulerComesFirst) {
  // A pod of another scheduler is never seen by kube-scheduler: its gates do not matter.
  Pod p = Gated(GpuPod("p", 1), {"foo"});
  p.scheduler_name = "my-scheduler";
  std::optional<HeldPod> h = Check(p);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->message, "");
  EXPECT_EQ(h->diagnosis.kind, Diagnosis::Kind::kSchedulerNotRun);
  EXPECT_FALSE(h->diagnosis.forever);  // not "can never fit": nothing was tried
  EXPECT_EQ(h->diagnosis.text,
            "not scheduled: spec.schedulerName is \"my-scheduler\", a scheduler gpusched does not run (it serves "
            "\"default-scheduler\"), so the pod waits for that scheduler");
  EXPECT_EQ(h->diagnosis.advice, (Advice{Advice::Kind::kServeSchedulerName, "my-scheduler"}));
  p.scheduler_name = "kai-scheduler";
  EXPECT_EQ(Check(p)->diagnosis.text,
            "not scheduled: spec.schedulerName is \"kai-scheduler\" (NVIDIA KAI-Scheduler: queues, gang scheduling, "
            "GPU sharing), a scheduler gpusched does not run (it serves \"default-scheduler\"), so the pod waits for "
            "that scheduler");
  EXPECT_EQ(Check(p)->diagnosis.advice, (Advice{Advice::Kind::kServeSchedulerName, "kai-scheduler"}));
  // Served once a profile has that name.
  profiles_.emplace_back("kai-scheduler", &scheduler_);
  p.extras.reset();
  EXPECT_FALSE(Check(p).has_value());
}

TEST_F(PreEnqueueTest, HamiIsRefused) {
  Pod p = GpuPod("gpu-pod", 1);
  p.containers[0].limits = p.containers[0].requests;
  p.containers[0].limits["nvidia.com/gpumem"] = *Quantity::Parse("3000");
  p.containers[0].limits["nvidia.com/gpucores"] = *Quantity::Parse("30");
  p.containers[0].requests = p.containers[0].limits;  // DefaultPod's requests-from-limits
  p.scheduler_name = "hami-scheduler";
  const std::string base =
      "not scheduled: it asks for HAMi vGPUs (nvidia.com/gpu: 1, nvidia.com/gpucores: 30, nvidia.com/gpumem: 3000), "
      "where nvidia.com/gpu counts slices of a device, not devices; HAMi's scheduler (hami-scheduler, a "
      "kube-scheduler extender) places them from the per-device memory and cores each node registers "
      "(hami.io/node-nvidia-register), which gpusched does not model, so it neither places the pod nor counts it as "
      "whole GPUs";
  std::optional<HeldPod> h = Check(p);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->message, "");
  EXPECT_EQ(h->diagnosis.kind, Diagnosis::Kind::kNotModelled);
  EXPECT_TRUE(h->diagnosis.forever);
  EXPECT_EQ(h->diagnosis.text, base);
  // Even when hami-scheduler is served by a gpusched policy, HAMi's vGPUs
  // are never scheduled as whole GPUs.
  profiles_.emplace_back("hami-scheduler", &scheduler_);
  EXPECT_EQ(Check(p)->diagnosis.text, base);
  // Then kube-scheduler's own filters speak: no node advertises HAMi's resources.
  EXPECT_EQ(Check(p)->message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpucores, 1 Insufficient nvidia.com/gpumem.");
  // Without the webhook (default-scheduler) too, with a note on what
  // kube-scheduler itself would say.
  p.scheduler_name = kDefaultSchedulerName;
  EXPECT_EQ(Check(p)->diagnosis.text,
            base + " (its spec.schedulerName is \"default-scheduler\", as without HAMi's webhook: that scheduler "
                   "runs its own filters on it, which is what the message says)");
}

TEST_F(PreEnqueueTest, UnservedHamiSchedulerWithPlainGpus) {
  Pod p = GpuPod("p", 1);
  p.scheduler_name = "hami-scheduler";
  std::optional<HeldPod> h = Check(p);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->diagnosis.kind, Diagnosis::Kind::kNotModelled);
  EXPECT_EQ(h->diagnosis.text.substr(0, 63), "not scheduled: it asks for HAMi vGPUs, where nvidia.com/gpu cou");
}

}  // namespace
}  // namespace gpusched
