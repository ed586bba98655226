#include "gpusched/model/gang.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

Pod MakePod(const std::string& ns, const std::string& name) {
  Pod p;
  p.meta.namespace_ = ns;
  p.meta.name = name;
  return p;
}

Pod WithWorkloadRef(Pod p, const std::string& workload, const std::string& group, const std::string& replica = "") {
  auto x = std::make_shared<PodSpecExtras>(p.Extras());
  x->workload_ref = WorkloadReference{workload, group, replica};
  p.extras = x;
  return p;
}

Pod WithSchedulingGroup(Pod p, const std::string& group) {
  auto x = std::make_shared<PodSpecExtras>(p.Extras());
  x->scheduling_group = group;
  p.extras = x;
  return p;
}

PodGroupDecl Decl(GangApi api, const std::string& ns, const std::string& name, int32_t min) {
  PodGroupDecl d;
  d.api = api;
  d.ns = ns;
  d.name = name;
  d.min_count = min;
  return d;
}

// One line per gang: key, API, min, members (with subgroups), then problems.
std::string Describe(const GangSet& s) {
  std::string out;
  for (const Gang& g : s.gangs) {
    out += g.key + " [" + std::string(GangApiName(g.api)) + "] min " + std::to_string(g.min_count) + ":";
    for (const GangMember& m : g.members) out += " " + m.pod + (m.subgroup.empty() ? "" : "(" + m.subgroup + ")");
    out += "\n";
  }
  for (const GangRefProblem& p : s.problems) out += "problem " + p.pod + " " + p.group + ": " + p.message + "\n";
  return out;
}

std::vector<const Pod*> Ptrs(const std::vector<Pod>& pods) {
  std::vector<const Pod*> out;
  for (const Pod& p : pods) out.push_back(&p);
  return out;
}

// The cases of upstream's TestGangSchedulingFlow (pkg/scheduler/framework/
// plugins/gangscheduling/gangscheduling_test.go, v1.35) as groupings: a
// Workload "gang-wl" with pg1 (minCount 3) and pg2 (minCount 4), a basic
// Workload, p5 in another replica of pg1, a pod with no workload.
TEST(GangTest, WorkloadV1alpha1GroupsByWorkloadPodGroupAndReplicaKey) {
  PodGroupDecl gang_wl = Decl(GangApi::kWorkloadV1alpha1, "ns1", "gang-wl", 0);
  gang_wl.workload_groups = {{"pg1", true, 3}, {"pg2", true, 4}};
  PodGroupDecl basic_wl = Decl(GangApi::kWorkloadV1alpha1, "ns1", "basic-wl", 0);
  basic_wl.workload_groups = {{"pg1", false, 0}};
  const std::vector<Pod> pods = {
      WithWorkloadRef(MakePod("ns1", "p1"), "gang-wl", "pg1"),
      WithWorkloadRef(MakePod("ns1", "p2"), "gang-wl", "pg1"),
      WithWorkloadRef(MakePod("ns1", "p3"), "gang-wl", "pg1"),
      WithWorkloadRef(MakePod("ns1", "p4"), "gang-wl", "pg2"),
      WithWorkloadRef(MakePod("ns1", "p5"), "gang-wl", "pg1", "2"),
      WithWorkloadRef(MakePod("ns1", "basic-pod"), "basic-wl", "pg1"),
      MakePod("ns1", "non-gang"),
  };
  const GangSet s = GroupIntoGangs({gang_wl, basic_wl}, Ptrs(pods));
  EXPECT_EQ(Describe(s),
            "ns1/gang-wl/pg1 [Workload scheduling.k8s.io/v1alpha1] min 3: ns1/p1 ns1/p2 ns1/p3\n"
            "ns1/gang-wl/pg1/2 [Workload scheduling.k8s.io/v1alpha1] min 3: ns1/p5\n"
            "ns1/gang-wl/pg2 [Workload scheduling.k8s.io/v1alpha1] min 4: ns1/p4\n");
  // "gang pod fails PreEnqueue when quorum is not met": pg2 has 1 of 4.
  EXPECT_TRUE(s.gangs[0].HasQuorum());
  EXPECT_FALSE(s.gangs[2].HasQuorum());
  EXPECT_EQ(s.gangs[0].timeout_seconds, std::nullopt);  // only what the decl says
  ASSERT_EQ(s.GangsOf("ns1/p5").size(), 1u);
  EXPECT_EQ(s.GangsOf("ns1/p5")[0]->replica_key, "2");
  EXPECT_EQ(s.GangsOf("ns1/basic-pod").size(), 0u);
  EXPECT_EQ(s.GangOf("ns1/p1", GangApi::kWorkloadV1alpha1)->pod_group, "pg1");
  EXPECT_EQ(s.GangOf("ns1/p1", GangApi::kVolcano), nullptr);
}

// "gang pod fails PreEnqueue when workload is not yet created", and a pod
// naming a pod group its Workload lacks: the plugin's messages.
TEST(GangTest, MissingWorkloadOrPodGroupIsAProblemWithThePluginsMessage) {
  PodGroupDecl wl = Decl(GangApi::kWorkloadV1alpha1, "ns1", "gang-wl", 0);
  wl.workload_groups = {{"pg1", true, 3}};
  const std::vector<Pod> pods = {
      WithWorkloadRef(MakePod("ns1", "p1"), "absent-wl", "pg1"),
      WithWorkloadRef(MakePod("ns1", "p2"), "gang-wl", "pg9"),
      // Same name in another namespace is another Workload.
      WithWorkloadRef(MakePod("ns2", "p3"), "gang-wl", "pg1"),
      WithSchedulingGroup(MakePod("ns1", "p4"), "absent-pg"),
  };
  const GangSet s = GroupIntoGangs({wl}, Ptrs(pods));
  EXPECT_EQ(Describe(s),
            "problem ns1/p1 absent-wl: waiting for pods's workload \"absent-wl\" to appear in scheduling queue\n"
            "problem ns1/p2 gang-wl/pg9: pod group \"pg9\" doesn't exist for a workload \"gang-wl\"\n"
            "problem ns2/p3 gang-wl: waiting for pods's workload \"gang-wl\" to appear in scheduling queue\n"
            "problem ns1/p4 absent-pg: waiting for pods's pod group \"absent-pg\" to appear in scheduling queue\n");
  for (const GangRefProblem& p : s.problems) EXPECT_EQ(p.effect, GangRefProblem::Effect::kPreEnqueueRejected);
}

TEST(GangTest, PodGroupSpellingsLinkByTheirLabelOrAnnotation) {
  PodGroupDecl v1a2 = Decl(GangApi::kPodGroupV1alpha2, "ml", "pg", 2);
  PodGroupDecl sp = Decl(GangApi::kCoscheduling, "ml", "pg", 3);
  PodGroupDecl vol = Decl(GangApi::kVolcano, "ml", "pg", 2);
  vol.subgroups = {{"ps", 1, ""}, {"worker", 1, ""}};
  PodGroupDecl kai = Decl(GangApi::kKai, "ml", "pg", 1);
  PodGroupDecl basic = Decl(GangApi::kPodGroupV1alpha2, "ml", "basic", 0);
  basic.gang = false;
  std::vector<Pod> pods(6);
  pods[0] = WithSchedulingGroup(MakePod("ml", "a"), "pg");
  pods[1] = MakePod("ml", "b");
  pods[1].meta.labels[kCoschedulingPodGroupLabel] = "pg";
  pods[2] = MakePod("ml", "c");
  pods[2].meta.annotations[kVolcanoGroupNameAnnotation] = "pg";
  pods[2].meta.annotations[kVolcanoTaskSpecAnnotation] = "worker";
  pods[3] = MakePod("ml", "d");
  // The scheduling.volcano.sh spelling, read when the other is absent.
  pods[3].meta.annotations[kVolcanoGroupNameAnnotationAlt] = "pg";
  pods[3].meta.annotations[kVolcanoTaskSpecAnnotation] = "ps";
  pods[4] = MakePod("ml", "e");
  pods[4].meta.annotations[kKaiPodGroupAnnotation] = "pg";
  pods[4].meta.labels[kKaiSubGroupLabel] = "decode";
  // Several links at once: one gang per API.
  pods[4].meta.labels[kCoschedulingPodGroupLabel] = "pg";
  pods[5] = WithSchedulingGroup(MakePod("ml", "f"), "basic");
  const GangSet s = GroupIntoGangs({v1a2, sp, vol, kai, basic}, Ptrs(pods));
  EXPECT_EQ(Describe(s),
            "ml/pg [PodGroup scheduling.k8s.io/v1alpha2] min 2: ml/a\n"
            "ml/pg [PodGroup scheduling.x-k8s.io/v1alpha1] min 3: ml/b ml/e\n"
            "ml/pg [PodGroup scheduling.volcano.sh/v1beta1] min 2: ml/c(worker) ml/d(ps)\n"
            "ml/pg [PodGroup scheduling.run.ai/v2alpha2] min 1: ml/e(decode)\n");
  EXPECT_EQ(s.GangsOf("ml/e").size(), 2u);
  EXPECT_EQ(s.GangOf("ml/e", GangApi::kKai)->members.size(), 1u);
  EXPECT_EQ(s.GangsOf("ml/f").size(), 0u);
}

TEST(GangTest, MissingPodGroupsOfEachSchedulerSayWhatItDoes) {
  std::vector<Pod> pods(3);
  pods[0] = MakePod("ml", "sp");
  pods[0].meta.labels[kCoschedulingPodGroupLabel] = "gone";
  pods[1] = MakePod("ml", "vol");
  pods[1].meta.annotations[kVolcanoGroupNameAnnotation] = "gone";
  pods[2] = MakePod("ml", "kai");
  pods[2].meta.annotations[kKaiPodGroupAnnotation] = "gone";
  const GangSet s = GroupIntoGangs({}, Ptrs(pods));
  EXPECT_EQ(Describe(s),
            "problem ml/sp gone: PodGroup not found\n"
            "problem ml/vol gone: Volcano ignores a job whose PodGroup \"gone\" does not exist: the pod stays Pending "
            "without an event\n"
            "problem ml/kai gone: KAI schedules PodGroups and PodGroup \"gone\" does not exist: the pod stays Pending "
            "without an event\n");
  EXPECT_EQ(s.problems[0].effect, GangRefProblem::Effect::kPermitRejected);
  EXPECT_EQ(s.problems[1].effect, GangRefProblem::Effect::kIgnored);
  EXPECT_EQ(s.problems[2].effect, GangRefProblem::Effect::kIgnored);
}

TEST(GangTest, OperatorGroupsTakeTheirMembersAndFirstDeclarationWins) {
  PodGroupDecl op = Decl(GangApi::kOperator, "ml", "job", 2);
  op.members = {"ml/job-master-0", "ml/job-worker-0"};
  op.owner = "PyTorchJob/ml/job";
  op.implied = true;
  PodGroupDecl first = Decl(GangApi::kVolcano, "ml", "pg", 2);
  PodGroupDecl again = Decl(GangApi::kVolcano, "ml", "pg", 9);
  again.implied = true;
  std::vector<Pod> pods = {MakePod("ml", "job-master-0"), MakePod("ml", "job-worker-0")};
  const GangSet s = GroupIntoGangs({op, first, again}, Ptrs(pods));
  EXPECT_EQ(Describe(s),
            "ml/job [no group object] min 2: ml/job-master-0 ml/job-worker-0\n"
            "ml/pg [PodGroup scheduling.volcano.sh/v1beta1] min 2:\n");
  EXPECT_EQ(s.gangs[0].owner, "PyTorchJob/ml/job");
  EXPECT_TRUE(s.gangs[0].implied);
  EXPECT_FALSE(s.gangs[1].implied);
  EXPECT_EQ(GangEnforcer(GangApi::kOperator), "");
  EXPECT_EQ(GangEnforcer(GangApi::kPodGroupV1alpha2), "kube-scheduler GangScheduling");
}

TEST(GangTest, ValidateGangPodFieldsAsTheApiServer) {
  std::vector<FieldError> errs;
  ValidateGangPodFields(WithWorkloadRef(MakePod("ml", "p"), "", "Bad_Group", "-x"), "spec", errs);
  ValidateGangPodFields(WithSchedulingGroup(MakePod("ml", "q"), "UPPER"), "spec.template.spec", errs);
  std::string got;
  for (const FieldError& e : errs) got += e.ToString() + "\n";
  EXPECT_EQ(got,
            "spec.workloadRef.name: Required value\n"
            "spec.workloadRef.podGroup: Invalid value: \"Bad_Group\": a lowercase RFC 1123 label must consist of lower "
            "case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
            "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
            "spec.workloadRef.podGroupReplicaKey: Invalid value: \"-x\": a lowercase RFC 1123 label must consist of "
            "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
            "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
            "spec.template.spec.schedulingGroup.podGroupName: Invalid value: \"UPPER\": a lowercase RFC 1123 "
            "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n");
}

}  // namespace
}  // namespace gpusched
