#include "gpusched/model/pdb.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

PodDisruptionBudget Pdb(std::optional<IntOrPercent> min_available, std::optional<IntOrPercent> max_unavailable) {
  PodDisruptionBudget pdb;
  pdb.meta.name = "foobar";
  pdb.meta.namespace_ = "default";
  pdb.selector = LabelSelector{{{"foo", "bar"}}, {}};
  pdb.min_available = min_available;
  pdb.max_unavailable = max_unavailable;
  return pdb;
}

Pod NewPod(const std::string& name, std::optional<OwnerReference> owner = std::nullopt) {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "default";
  p.meta.labels = {{"foo", "bar"}};
  p.controller_ref = owner;
  return p;
}

ScaleTarget Target(const std::string& api_version, const std::string& kind, const std::string& name, const std::string& uid,
                   std::optional<int32_t> scale, std::optional<OwnerReference> owner = std::nullopt) {
  return ScaleTarget{api_version, kind, "default", name, uid, scale, owner};
}

// "allowed healthy desired expected" as upstream's VerifyPdbStatus reads them.
std::string Status(const PdbStatus& s) {
  return std::to_string(s.disruptions_allowed) + " " + std::to_string(s.current_healthy) + " " +
         std::to_string(s.desired_healthy) + " " + std::to_string(s.expected_pods) +
         (s.error.empty() ? "" : " error: " + s.error);
}

std::vector<PdbPod> Healthy(const std::vector<Pod>& pods, size_t unhealthy = 0) {
  std::vector<PdbPod> out;
  for (size_t i = 0; i < pods.size(); ++i) out.push_back(PdbPod{&pods[i], i >= unhealthy});
  return out;
}

// pkg/controller/disruption/disruption_test.go (TestNoSelector's body:
// minAvailable 3, pods added one at a time, then one made unready).
TEST(PdbTest, IntegerMinAvailableCountsThePodsPresent) {
  const PodDisruptionBudget pdb = Pdb(IntOrPercent{3, false}, std::nullopt);
  ControllerScales none;
  std::vector<Pod> pods;
  EXPECT_EQ(Status(ComputePdbStatus(pdb, {}, none)), "0 0 3 0");
  for (int i = 0; i < 4; ++i) {
    pods.push_back(NewPod("yo-yo-yo " + std::to_string(i)));
    const std::string want = i < 3 ? "0 " + std::to_string(i + 1) + " 3 " + std::to_string(i + 1) : "1 4 3 4";
    EXPECT_EQ(Status(ComputePdbStatus(pdb, Healthy(pods), none)), want) << i;
  }
  EXPECT_EQ(Status(ComputePdbStatus(pdb, Healthy(pods, 1), none)), "0 3 3 4");
}

TEST(PdbTest, UpstreamControllerScaleCases) {
  const OwnerReference rs_ref{"apps/v1", "ReplicaSet", "rs", "rs-uid"};
  struct Case {
    const char* name;  // the upstream test
    PodDisruptionBudget pdb;
    std::vector<ScaleTarget> scales;
    std::vector<Pod> pods;
    std::string want;
    size_t unmanaged = 0;
  };
  const std::vector<Case> cases = {
      {"TestIntegerMaxUnavailable: no pods", Pdb(std::nullopt, IntOrPercent{1, false}), {}, {}, "0 0 0 0"},
      {"TestIntegerMaxUnavailable: a naked pod", Pdb(std::nullopt, IntOrPercent{1, false}), {}, {NewPod("naked")},
       "0 1 0 0", 1},
      {"TestIntegerMaxUnavailableWithScaling: rs 7",
       Pdb(std::nullopt, IntOrPercent{2, false}),
       {Target("apps/v1", "ReplicaSet", "rs", "rs-uid", 7)},
       {NewPod("pod", rs_ref)},
       "0 1 5 7"},
      {"TestIntegerMaxUnavailableWithScaling: rs 5",
       Pdb(std::nullopt, IntOrPercent{2, false}),
       {Target("apps/v1", "ReplicaSet", "rs", "rs-uid", 5)},
       {NewPod("pod", rs_ref)},
       "0 1 3 5"},
      {"TestPercentageMaxUnavailableWithScaling: rs 7",
       Pdb(std::nullopt, IntOrPercent{30, true}),
       {Target("apps/v1", "ReplicaSet", "rs", "rs-uid", 7)},
       {NewPod("pod", rs_ref)},
       "0 1 4 7"},
      {"TestPercentageMaxUnavailableWithScaling: rs 3",
       Pdb(std::nullopt, IntOrPercent{30, true}),
       {Target("apps/v1", "ReplicaSet", "rs", "rs-uid", 3)},
       {NewPod("pod", rs_ref)},
       "0 1 2 3"},
      {"TestNakedPod", Pdb(IntOrPercent{28, true}, std::nullopt), {}, {NewPod("naked")}, "0 1 0 0", 1},
      {"TestUnsupportedControllerPod",
       Pdb(IntOrPercent{28, true}, std::nullopt),
       {},
       {NewPod("naked", OwnerReference{"apps.test.io/v1", "TestWorkload", "fake-controller", "b7329742"})},
       "0 0 0 0 error: found no controllers for pod \"naked\""},
      {"TestReplicaSet",
       Pdb(IntOrPercent{20, true}, std::nullopt),
       {Target("apps/v1", "ReplicaSet", "rs", "rs-uid", 10)},
       {NewPod("pod", rs_ref)},
       "0 1 2 10"},
      {"TestScaleResource: a custom resource of scale 10, 4 pods, maxUnavailable 5",
       Pdb(std::nullopt, IntOrPercent{5, false}),
       {Target("custom.k8s.io/v1", "customresource", "cr", "cr-uid", 10)},
       {NewPod("pod-0", OwnerReference{"custom.k8s.io/v1", "customresource", "cr", "cr-uid"}),
        NewPod("pod-1", OwnerReference{"custom.k8s.io/v1", "customresource", "cr", "cr-uid"}),
        NewPod("pod-2", OwnerReference{"custom.k8s.io/v1", "customresource", "cr", "cr-uid"}),
        NewPod("pod-3", OwnerReference{"custom.k8s.io/v1", "customresource", "cr", "cr-uid"})},
       "0 4 5 10"},
      {"TestStatefulSetController: 34% of 3 rounds up to 2",
       Pdb(IntOrPercent{34, true}, std::nullopt),
       {Target("apps/v1", "StatefulSet", "ss", "ss-uid", 3)},
       {NewPod("foobar 0", OwnerReference{"apps/v1", "StatefulSet", "ss", "ss-uid"}),
        NewPod("foobar 1", OwnerReference{"apps/v1", "StatefulSet", "ss", "ss-uid"}),
        NewPod("foobar 2", OwnerReference{"apps/v1", "StatefulSet", "ss", "ss-uid"})},
       "1 3 2 3"},
      {"TestReplicationController: a rogue pod without a controller",
       Pdb(IntOrPercent{34, true}, std::nullopt),
       {Target("v1", "ReplicationController", "rc", "rc-uid", 3)},
       {NewPod("foobar 0", OwnerReference{"v1", "ReplicationController", "rc", "rc-uid"}),
        NewPod("foobar 1", OwnerReference{"v1", "ReplicationController", "rc", "rc-uid"}),
        NewPod("foobar 2", OwnerReference{"v1", "ReplicationController", "rc", "rc-uid"}), NewPod("rogue")},
       "2 4 2 3", 1},
      // getPodDeployment: a ReplicaSet of a Deployment counts the Deployment's scale.
      {"a Deployment through its ReplicaSet",
       Pdb(std::nullopt, IntOrPercent{1, false}),
       {Target("apps/v1", "ReplicaSet", "rs", "rs-uid", 2, OwnerReference{"apps/v1", "Deployment", "d", "d-uid"}),
        Target("apps/v1", "Deployment", "d", "d-uid", 4)},
       {NewPod("a", rs_ref), NewPod("b", rs_ref), NewPod("c", rs_ref), NewPod("d", rs_ref)},
       "1 4 3 4"},
      // A Job has no scale subresource: the sync fails and failSafe allows none.
      {"a Job's pods under a maxUnavailable budget",
       Pdb(std::nullopt, IntOrPercent{1, false}),
       {Target("batch/v1", "Job", "train", "job-uid", std::nullopt)},
       {NewPod("train-0", OwnerReference{"batch/v1", "Job", "train", "job-uid"})},
       "0 0 0 0 error: jobs.batch does not implement the scale subresource"},
      // An input stripped of uids: kind and name decide.
      {"no uids",
       Pdb(std::nullopt, IntOrPercent{1, false}),
       {Target("apps/v1", "StatefulSet", "ss", "", 2)},
       {NewPod("ss-0", OwnerReference{"apps/v1", "StatefulSet", "ss", ""}),
        NewPod("ss-1", OwnerReference{"apps/v1", "StatefulSet", "ss", ""})},
       "1 2 1 2"},
  };
  for (const Case& c : cases) {
    ControllerScales scales;
    for (const ScaleTarget& t : c.scales) scales.Add(t);
    const PdbStatus s = ComputePdbStatus(c.pdb, Healthy(c.pods), scales);
    EXPECT_EQ(Status(s), c.want) << c.name;
    EXPECT_EQ(s.unmanaged_pods.size(), c.unmanaged) << c.name;
  }
}

TEST(PdbTest, SelectionIsPolicyV1s) {
  PodDisruptionBudget pdb = Pdb(IntOrPercent{1, false}, std::nullopt);
  Pod p = NewPod("p");
  EXPECT_TRUE(PdbSelects(pdb, p));
  p.meta.namespace_ = "other";
  EXPECT_FALSE(PdbSelects(pdb, p));
  p.meta.namespace_ = "default";
  pdb.selector = LabelSelector{};  // empty: every pod of the namespace
  EXPECT_TRUE(PdbSelects(pdb, p));
  pdb.selector.reset();  // none: no pod
  EXPECT_FALSE(PdbSelects(pdb, p));
}

// pkg/apis/policy/validation: ValidatePodDisruptionBudgetSpec.
TEST(PdbTest, ValidationMessages) {
  struct Case {
    PodDisruptionBudget pdb;
    std::string want;
  };
  PodDisruptionBudget both = Pdb(IntOrPercent{1, false}, IntOrPercent{1, false});
  PodDisruptionBudget negative = Pdb(IntOrPercent{-1, false}, std::nullopt);
  PodDisruptionBudget over = Pdb(std::nullopt, IntOrPercent{101, true});
  PodDisruptionBudget policy = Pdb(IntOrPercent{1, false}, std::nullopt);
  policy.unhealthy_pod_eviction_policy = "Sometimes";
  PodDisruptionBudget bad_name = Pdb(IntOrPercent{1, false}, std::nullopt);
  bad_name.meta.name = "Bad";
  PodDisruptionBudget ok = Pdb(IntOrPercent{100, true}, std::nullopt);
  ok.unhealthy_pod_eviction_policy = "AlwaysAllow";
  const std::vector<Case> cases = {
      {both, "spec: Invalid value: policy.PodDisruptionBudgetSpec{...}: minAvailable and maxUnavailable cannot be both set\n"},
      {negative, "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0\n"},
      {over, "spec.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%\n"},
      {policy,
       "spec.unhealthyPodEvictionPolicy: Unsupported value: \"Sometimes\": supported values: \"AlwaysAllow\", "
       "\"IfHealthyBudget\"\n"},
      {bad_name,
       "metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
       "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
       "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n"},
      {ok, ""},
  };
  for (const Case& c : cases) {
    std::string got;
    for (const FieldError& e : ValidatePdb(c.pdb)) got += e.ToString() + "\n";
    EXPECT_EQ(got, c.want);
  }
  EXPECT_EQ(ScaleResourceName("PyTorchJob", "kubeflow.org/v1"), "pytorchjobs.kubeflow.org");
  EXPECT_EQ(ScaleResourceName("ReplicationController", "v1"), "replicationcontrollers");
}

}  // namespace
}  // namespace gpusched
