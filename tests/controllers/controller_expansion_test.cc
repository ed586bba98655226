#include "gpusched/controllers/controller_expansion.h"

#include <gtest/gtest.h>

#include "controller_test_util.h"

namespace gpusched {
namespace {

using controller_test::LoadFiles;
using controller_test::Owner;
using controller_test::PodKeys;
using controller_test::PodSpec;
using controller_test::PodYaml;
using controller_test::Report;
using controller_test::WorkloadSpec;
using controller_test::WorkloadYaml;

using Strings = std::vector<std::string>;

// The warnings, with the temporary directory cut from the file names.
std::string Warnings(const Manifests& m) {
  std::string s;
  for (const auto& w : m.warnings) s += w.substr(w.find_last_of('/', w.find(':')) + 1) + "\n";
  return s;
}

// The worst case: a live dump with a Deployment of 2 replicas, its
// ReplicaSet and its 2 running pods is 2 pods, not 6.
WorkloadSpec WebDeployment() {
  WorkloadSpec d;
  d.kind = "Deployment";
  d.name = "web";
  d.uid = "d-uid";
  d.replicas = 2;
  d.selector = {{"app", "web"}};
  d.template_labels = {{"app", "web"}};
  d.gpus = 1;
  d.annotations = {{"deployment.kubernetes.io/revision", "1"}};
  return d;
}

WorkloadSpec WebReplicaSet(const std::string& hash = "6d4cf56db6", int replicas = 2) {
  WorkloadSpec r = WebDeployment();
  r.kind = "ReplicaSet";
  r.name = "web-" + hash;
  r.uid = "rs-uid-" + hash;
  r.owner = Owner{"apps/v1", "Deployment", "web", "d-uid"};
  r.replicas = replicas;
  r.selector = {{"app", "web"}, {"pod-template-hash", hash}};
  r.template_labels = r.selector;
  r.annotations = {{"deployment.kubernetes.io/revision", "1"},
                   {"deployment.kubernetes.io/desired-replicas", std::to_string(replicas)}};
  r.status = "  replicas: " + std::to_string(replicas) + "\n  availableReplicas: " + std::to_string(replicas) + "\n";
  return r;
}

PodSpec WebPod(const std::string& name, const std::string& hash = "6d4cf56db6") {
  PodSpec p;
  p.name = name;
  p.uid = "uid-" + name;
  p.labels = {{"app", "web"}, {"pod-template-hash", hash}};
  p.owner = Owner{"apps/v1", "ReplicaSet", "web-" + hash, "rs-uid-" + hash};
  p.gpus = 1;
  p.node = "n1";
  p.phase = "Running";
  return p;
}

TEST(ControllerExpansionTest, LiveDeploymentIsTwoPodsNotSix) {
  Manifests m = LoadFiles({{"dump.yaml",
                            {WorkloadYaml(WebDeployment()), WorkloadYaml(WebReplicaSet()),
                             PodYaml(WebPod("web-6d4cf56db6-abcde")), PodYaml(WebPod("web-6d4cf56db6-fghij"))}}});
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-6d4cf56db6-abcde", "default/web-6d4cf56db6-fghij"}));
  const ControllerPods* d = Report(m, "Deployment", "web");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->had, (Strings{"default/web-6d4cf56db6-abcde", "default/web-6d4cf56db6-fghij"}));
  EXPECT_TRUE(d->created.empty());
  EXPECT_EQ(d->summary,
            "2 replicas wanted (RollingUpdate, maxSurge 25%, maxUnavailable 25%); rolling update; ReplicaSet "
            "web-6d4cf56db6 (new): 2 replicas, 2 present, creates 0");
  const ControllerPods* rs = Report(m, "ReplicaSet", "web-6d4cf56db6");
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->had.size(), 2u);
  EXPECT_EQ(rs->summary,
            "owned by Deployment web (its new ReplicaSet); after the Deployment's sync 2 replicas, 2 present: creates 0");
  EXPECT_EQ(Warnings(m), "");
}

TEST(ControllerExpansionTest, DeploymentMissingAPodCreatesOneFromItsReplicaSet) {
  Manifests m = LoadFiles({{"dump.yaml",
                            {WorkloadYaml(WebDeployment()), WorkloadYaml(WebReplicaSet()),
                             PodYaml(WebPod("web-6d4cf56db6-abcde"))}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-6d4cf56db6-abcde", "default/web-6d4cf56db6-8695q"}));
  const Pod& created = m.pods[1].pod;
  EXPECT_EQ(created.owner, "Deployment/web");
  ASSERT_TRUE(created.controller_ref);
  EXPECT_EQ(created.controller_ref->kind, "ReplicaSet");
  EXPECT_EQ(created.controller_ref->name, "web-6d4cf56db6");
  EXPECT_EQ(created.controller_ref->uid, "rs-uid-6d4cf56db6");
  EXPECT_EQ(created.meta.labels.at("pod-template-hash"), "6d4cf56db6");
  EXPECT_EQ(created.node_name, "");
  EXPECT_EQ(Report(m, "Deployment", "web")->created, (Strings{"default/web-6d4cf56db6-8695q"}));
}

TEST(ControllerExpansionTest, DeploymentAloneExpandsToItsReplicas) {
  Manifests m = LoadFiles({{"d.yaml", {WorkloadYaml(WebDeployment())}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-vdgb8zbvpn-d88dm", "default/web-vdgb8zbvpn-4r6hh"}));
  EXPECT_EQ(m.pods[0].pod.meta.labels.at("pod-template-hash"), "vdgb8zbvpn");
  EXPECT_EQ(Report(m, "Deployment", "web")->summary,
            "2 replicas wanted (RollingUpdate, maxSurge 25%, maxUnavailable 25%); rolling update; new ReplicaSet "
            "web-vdgb8zbvpn (not in the input): 2 replicas, 0 present, creates 2");
}

TEST(ControllerExpansionTest, PodsOfAReplicaSetNotInTheInputCountForTheirDeployment) {
  // `kubectl get deployments,pods`: no ReplicaSets.
  Manifests m = LoadFiles({{"dump.yaml", {WorkloadYaml(WebDeployment()), PodYaml(WebPod("web-6d4cf56db6-abcde"))}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-6d4cf56db6-abcde", "default/web-vdgb8zbvpn-d88dm"}));
  EXPECT_EQ(Report(m, "Deployment", "web")->had, (Strings{"default/web-6d4cf56db6-abcde"}));
}

TEST(ControllerExpansionTest, WithoutUidsSelectorsDecide) {
  // Stripped of uids and ownerReferences: the ReplicaSet adopts the pods its
  // selector matches, the Deployment the ReplicaSet its selector matches.
  WorkloadSpec d = WebDeployment();
  d.uid.clear();
  WorkloadSpec rs = WebReplicaSet();
  rs.uid.clear();
  rs.owner.reset();
  rs.labels = rs.selector;
  PodSpec a = WebPod("web-6d4cf56db6-abcde");
  a.uid.clear();
  a.owner.reset();
  PodSpec b = WebPod("web-6d4cf56db6-fghij");
  b.uid.clear();
  b.owner.reset();
  PodSpec other = WebPod("unrelated");
  other.owner.reset();
  other.labels = {{"app", "web"}};  // no pod-template-hash: the ReplicaSet does not select it
  Manifests m = LoadFiles({{"a.yaml", {PodYaml(a), PodYaml(other)}}, {"b.yaml", {WorkloadYaml(d), WorkloadYaml(rs), PodYaml(b)}}});
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-6d4cf56db6-abcde", "default/unrelated", "default/web-6d4cf56db6-fghij"}));
  EXPECT_EQ(Report(m, "Deployment", "web")->had,
            (Strings{"default/web-6d4cf56db6-abcde", "default/web-6d4cf56db6-fghij"}));
}

TEST(ControllerExpansionTest, ReferenceByNameWhenTheControllerHasNoUid) {
  WorkloadSpec rs;
  rs.kind = "ReplicaSet";
  rs.name = "rs";
  rs.replicas = 3;
  rs.selector = {{"app", "rs"}};
  rs.template_labels = rs.selector;
  PodSpec p;
  p.name = "rs-a1b2c";
  p.owner = Owner{"apps/v1", "ReplicaSet", "rs", "some-uid"};
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(rs), PodYaml(p)}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(m.pods.size(), 3u);
  EXPECT_EQ(Report(m, "ReplicaSet", "rs")->had, (Strings{"default/rs-a1b2c"}));
  EXPECT_EQ(Report(m, "ReplicaSet", "rs")->summary, "3 replicas wanted, 1 present: creates 2");
}

TEST(ControllerExpansionTest, AnotherObjectsUidIsNotOwnership) {
  // The pod names a ReplicaSet "rs" with another uid: an earlier object of
  // that name, since deleted. This "rs" does not count it.
  WorkloadSpec rs;
  rs.kind = "ReplicaSet";
  rs.name = "rs";
  rs.uid = "new-uid";
  rs.replicas = 1;
  rs.selector = {{"app", "rs"}};
  rs.template_labels = rs.selector;
  PodSpec p;
  p.name = "rs-old12";
  p.labels = {{"app", "rs"}};
  p.owner = Owner{"apps/v1", "ReplicaSet", "rs", "old-uid"};
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(rs), PodYaml(p)}}});
  EXPECT_EQ(m.pods.size(), 2u);
  EXPECT_TRUE(Report(m, "ReplicaSet", "rs")->had.empty());
}

TEST(ControllerExpansionTest, TerminatedPodsHoldNothingAndAreNotReplicas) {
  WorkloadSpec rs;
  rs.kind = "ReplicaSet";
  rs.name = "rs";
  rs.uid = "rs-uid";
  rs.replicas = 2;
  rs.selector = {{"app", "rs"}};
  rs.template_labels = rs.selector;
  PodSpec running;
  running.name = "rs-aaaaa";
  running.owner = Owner{"apps/v1", "ReplicaSet", "rs", "rs-uid"};
  running.phase = "Running";
  PodSpec failed = running;
  failed.name = "rs-bbbbb";
  failed.phase = "Failed";
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(rs), PodYaml(running), PodYaml(failed)}}});
  EXPECT_EQ(PodKeys(m), (Strings{"default/rs-aaaaa", "default/rs-z44mp"}));
  const ControllerPods* r = Report(m, "ReplicaSet", "rs");
  EXPECT_EQ(r->had, (Strings{"default/rs-aaaaa"}));
  EXPECT_EQ(r->had_terminated, (std::vector<std::pair<std::string, std::string>>{{"default/rs-bbbbb", "Failed"}}));
  ASSERT_EQ(m.terminal_pods.size(), 1u);
}

TEST(ControllerExpansionTest, RollingUpdateInProgress) {
  // 4 replicas, 25%/25%; the old ReplicaSet (image v1) has 4 running pods;
  // the Deployment's template is now v2 and no ReplicaSet has it: the
  // controller creates the new one with 1 replica (maxSurge) and scales the
  // old one to 3; the 4 old pods are in the input and stay.
  WorkloadSpec d = WebDeployment();
  d.replicas = 4;
  d.image = "img:2";
  d.annotations = {{"deployment.kubernetes.io/revision", "2"}};
  WorkloadSpec old_rs = WebReplicaSet("oldhash", 4);
  std::vector<std::string> docs = {WorkloadYaml(d), WorkloadYaml(old_rs)};
  for (const char* n : {"web-oldhash-a", "web-oldhash-b", "web-oldhash-c", "web-oldhash-d"})
    docs.push_back(PodYaml(WebPod(n, "oldhash")));
  Manifests m = LoadFiles({{"dump.yaml", docs}});
  ASSERT_TRUE(m.rejected.empty());
  ASSERT_EQ(m.pods.size(), 5u) << Report(m, "Deployment", "web")->summary;
  EXPECT_EQ(m.pods[4].pod.name(), "web-vdgb8zbvpn-d88dm");
  EXPECT_EQ(m.pods[4].pod.containers[0].image, "img:2");
  EXPECT_EQ(Report(m, "Deployment", "web")->summary,
            "4 replicas wanted (RollingUpdate, maxSurge 25%, maxUnavailable 25%); rolling update; ReplicaSet "
            "web-oldhash (old): 3 replicas, 4 present, creates 0; new ReplicaSet web-vdgb8zbvpn (not in the input): 1 "
            "replicas, 0 present, creates 1");
}

TEST(ControllerExpansionTest, NewReplicaSetByTemplateThenRevision) {
  // Two ReplicaSets with the Deployment's template (as after a rollback to
  // an identical one): the revision annotation picks the new one.
  WorkloadSpec d = WebDeployment();
  d.annotations = {{"deployment.kubernetes.io/revision", "3"}};
  WorkloadSpec a = WebReplicaSet("aaaaaaaaaa", 0);
  a.created = "2025-01-01T00:00:00Z";
  a.annotations = {{"deployment.kubernetes.io/revision", "1"}};
  WorkloadSpec b = WebReplicaSet("bbbbbbbbbb", 0);
  b.created = "2025-02-01T00:00:00Z";
  b.annotations = {{"deployment.kubernetes.io/revision", "3"}};
  Manifests m = LoadFiles({{"dump.yaml", {WorkloadYaml(d), WorkloadYaml(a), WorkloadYaml(b)}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(Report(m, "Deployment", "web")->summary,
            "2 replicas wanted (RollingUpdate, maxSurge 25%, maxUnavailable 25%); rolling update; ReplicaSet "
            "web-aaaaaaaaaa (old): 0 replicas, 0 present, creates 0; ReplicaSet web-bbbbbbbbbb (new): 2 replicas, 0 "
            "present, creates 2");
  // Without the annotation, the oldest of the equal ones (FindNewReplicaSet).
  d.annotations.clear();
  m = LoadFiles({{"dump.yaml", {WorkloadYaml(d), WorkloadYaml(a), WorkloadYaml(b)}}});
  EXPECT_EQ(Report(m, "ReplicaSet", "web-aaaaaaaaaa")->created.size(), 2u);
}

TEST(ControllerExpansionTest, ReplicaSetOfAbsentDeploymentExpandsOnItsOwn) {
  Manifests m = LoadFiles({{"rs.yaml", {WorkloadYaml(WebReplicaSet()), PodYaml(WebPod("web-6d4cf56db6-abcde"))}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-6d4cf56db6-abcde", "default/web-6d4cf56db6-8695q"}));
  EXPECT_EQ(Report(m, "ReplicaSet", "web-6d4cf56db6")->summary, "2 replicas wanted, 1 present: creates 1");
}

TEST(ControllerExpansionTest, StatefulSetCreatesMissingOrdinals) {
  WorkloadSpec s;
  s.kind = "StatefulSet";
  s.name = "db";
  s.uid = "sts-uid";
  s.replicas = 3;
  s.selector = {{"app", "db"}};
  s.template_labels = s.selector;
  PodSpec p0;
  p0.name = "db-0";
  p0.owner = Owner{"apps/v1", "StatefulSet", "db", "sts-uid"};
  p0.phase = "Running";
  p0.node = "n1";
  PodSpec p2 = p0;
  p2.name = "db-2";
  p2.phase = "Failed";  // replaced under the same name
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(s), PodYaml(p0), PodYaml(p2)}}});
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(PodKeys(m), (Strings{"default/db-0", "default/db-1", "default/db-2"}));
  EXPECT_EQ(Report(m, "StatefulSet", "db")->summary, "3 replicas (ordinals 0..2), 1 present: creates 2");
  // spec.ordinals.start.
  s.spec_extra = "  ordinals: {start: 5}\n";
  s.replicas = 2;
  m = LoadFiles({{"x.yaml", {WorkloadYaml(s)}}});
  EXPECT_EQ(PodKeys(m), (Strings{"default/db-5", "default/db-6"}));
}

// volumeClaimTemplates (stateful_set_utils.go updateStorage,
// getPersistentVolumeClaims): each created pod mounts
// "<template>-<set>-<ordinal>" under the template's name; the claim is
// created with the set's selector labels unless the input holds one of that
// name, which is used as it is.
TEST(ControllerExpansionTest, StatefulSetClaimsFromTemplates) {
  WorkloadSpec s;
  s.kind = "StatefulSet";
  s.name = "db";
  s.replicas = 2;
  s.selector = {{"app", "db"}};
  s.template_labels = s.selector;
  s.spec_extra =
      "  volumeClaimTemplates:\n"
      "  - metadata: {name: model-cache, labels: {tier: cache}}\n"
      "    spec:\n"
      "      accessModes: [ReadWriteOnce]\n"
      "      storageClassName: local\n"
      "      resources: {requests: {storage: 500Gi}}\n";
  const std::string existing =
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: model-cache-db-1}\n"
      "spec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: other\n  resources: {requests: {storage: 1Gi}}\n";
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(s), existing}}});
  ASSERT_TRUE(m.rejected.empty()) << m.rejected.front().ToString();
  ASSERT_EQ(PodKeys(m), (Strings{"default/db-0", "default/db-1"}));
  for (size_t k = 0; k < 2; ++k) {
    const Pod& pod = m.pods[k].pod;
    ASSERT_TRUE(pod.HasVolumes());
    ASSERT_EQ(pod.extras->volumes.size(), 1u);
    EXPECT_EQ(pod.extras->volumes[0].name, "model-cache");
    EXPECT_EQ(pod.extras->volumes[0].kind, PodVolume::Kind::kClaim);
    EXPECT_EQ(pod.extras->volumes[0].claim_name, "model-cache-db-" + std::to_string(k));
  }
  const VolumeObjects& v = m.api_objects.volumes;
  const PersistentVolumeClaim* c0 = v.FindPvc("default", "model-cache-db-0");
  ASSERT_NE(c0, nullptr);
  EXPECT_EQ(*c0->storage_class_name, "local");
  EXPECT_EQ(c0->meta.labels, (LabelMap{{"app", "db"}, {"tier", "cache"}}));
  EXPECT_EQ(c0->phase, "Pending");  // what the API server defaults a new claim to
  const PersistentVolumeClaim* c1 = v.FindPvc("default", "model-cache-db-1");
  ASSERT_NE(c1, nullptr);
  EXPECT_EQ(*c1->storage_class_name, "other");  // the input's, left as it is
  // A template without a name is refused as the API server refuses the set.
  s.spec_extra = "  volumeClaimTemplates:\n  - spec: {accessModes: [ReadWriteOnce]}\n";
  m = LoadFiles({{"x.yaml", {WorkloadYaml(s)}}});
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_NE(m.rejected[0].message.find("spec.volumeClaimTemplates[0].metadata.name: Required value"), std::string::npos)
      << m.rejected[0].message;
}

TEST(ControllerExpansionTest, StatefulSetOrdinalHeldByAnotherPod) {
  WorkloadSpec s;
  s.kind = "StatefulSet";
  s.name = "db";
  s.replicas = 2;
  s.selector = {{"app", "db"}};
  s.template_labels = s.selector;
  PodSpec squatter;
  squatter.name = "db-1";
  squatter.labels = {{"app", "other"}};
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(s), PodYaml(squatter)}}});
  EXPECT_EQ(PodKeys(m), (Strings{"default/db-1", "default/db-0"}));
  EXPECT_EQ(Warnings(m),
            "x.yaml:1: StatefulSet/default/db: pod db-1 exists and does not belong to it: the StatefulSet cannot "
            "create its ordinal 1\n");
}

WorkloadSpec TrainJob() {
  WorkloadSpec j;
  j.kind = "Job";
  j.name = "train";
  j.uid = "job-uid";
  j.gpus = 2;
  return j;
}

PodSpec TrainPod(const std::string& name, const std::string& phase) {
  PodSpec p;
  p.name = name;
  p.owner = Owner{"batch/v1", "Job", "train", "job-uid"};
  p.phase = phase;
  p.gpus = 2;
  if (phase == "Running") p.node = "n1";
  return p;
}

TEST(ControllerExpansionTest, JobWantsCompletionsMinusSucceededUpToParallelism) {
  struct Case {
    const char* name;
    std::string spec;
    std::string status;
    std::vector<std::pair<std::string, std::string>> pods;  // name, phase
    size_t created;
    std::string summary;
  };
  const Case cases[] = {
      {"defaults: one pod", "", "", {}, 1, "completions 1, parallelism 1: 0 succeeded, 0 active: creates 1"},
      {"parallelism 4, completions 2", "  parallelism: 4\n  completions: 2\n", "", {}, 2,
       "completions 2, parallelism 4: 0 succeeded, 0 active: creates 2"},
      {"succeeded from status and active pods", "  parallelism: 3\n  completions: 5\n", "  succeeded: 2\n",
       {{"train-a", "Running"}}, 2, "completions 5, parallelism 3: 2 succeeded, 1 active: creates 2"},
      {"succeeded pods present count when status lags", "  parallelism: 3\n  completions: 4\n", "  succeeded: 1\n",
       {{"train-a", "Succeeded"}, {"train-b", "Succeeded"}, {"train-c", "Failed"}}, 2,
       "completions 4, parallelism 3: 2 succeeded, 0 active: creates 2"},
      {"work queue: parallelism until one succeeds", "  parallelism: 3\n", "", {{"train-a", "Running"}}, 2,
       "work queue, parallelism 3: 0 succeeded, 1 active: creates 2"},
      {"work queue after a success: only the active ones", "  parallelism: 3\n", "",
       {{"train-a", "Running"}, {"train-b", "Succeeded"}}, 0,
       "work queue, parallelism 3: 1 succeeded, 1 active: creates 0"},
      {"complete", "  completions: 2\n  parallelism: 2\n",
       "  succeeded: 2\n  conditions:\n  - {type: Complete, status: \"True\"}\n", {}, 0,
       "completions 2, parallelism 2: 2 succeeded, 0 active: creates 0 (finished)"},
      {"failed", "", "  conditions:\n  - {type: Failed, status: \"True\"}\n", {}, 0,
       "completions 1, parallelism 1: 0 succeeded, 0 active: creates 0 (finished)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    WorkloadSpec j = TrainJob();
    j.spec_extra = c.spec;
    j.status = c.status;
    std::vector<std::string> docs = {WorkloadYaml(j)};
    for (const auto& [n, phase] : c.pods) docs.push_back(PodYaml(TrainPod(n, phase)));
    Manifests m = LoadFiles({{"j.yaml", docs}});
    ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
    const ControllerPods* r = Report(m, "Job", "train");
    EXPECT_EQ(r->created.size(), c.created);
    EXPECT_EQ(r->summary, c.summary);
  }
}

TEST(ControllerExpansionTest, SuspendedJobWarns) {
  WorkloadSpec j = TrainJob();
  j.spec_extra = "  suspend: true\n";
  Manifests m = LoadFiles({{"j.yaml", {WorkloadYaml(j)}}});
  EXPECT_TRUE(m.pods.empty());
  EXPECT_EQ(Warnings(m),
            "j.yaml:1: Job/default/train: spec.suspend is true: the Job controller creates no pods until it is "
            "resumed\n");
}

TEST(ControllerExpansionTest, IndexedJobCreatesLowestPendingIndexes) {
  WorkloadSpec j = TrainJob();
  j.spec_extra = "  completionMode: Indexed\n  completions: 6\n  parallelism: 3\n";
  j.status = "  completedIndexes: \"0,2\"\n";
  PodSpec active = TrainPod("train-1-zzzzz", "Running");
  active.annotations = {{"batch.kubernetes.io/job-completion-index", "1"}};
  PodSpec done = TrainPod("train-3-yyyyy", "Succeeded");
  done.annotations = {{"batch.kubernetes.io/job-completion-index", "3"}};
  Manifests m = LoadFiles({{"j.yaml", {WorkloadYaml(j), PodYaml(active), PodYaml(done)}}});
  ASSERT_TRUE(m.rejected.empty());
  // Succeeded 0, 2, 3; active 1: want min(6 - 3, 3) = 3 active, 2 more: 4 and 5.
  EXPECT_EQ(PodKeys(m), (Strings{"default/train-1-zzzzz", "default/train-4-kf4nm", "default/train-5-9xxrh"}));
  EXPECT_EQ(m.pods[1].pod.meta.annotations.at("batch.kubernetes.io/job-completion-index"), "4");
}

std::string NodeYaml(const std::string& name, const std::string& labels, const std::string& spec) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels: " + labels + "\n" + spec +
         "status:\n  allocatable: {cpu: \"8\", pods: \"110\", nvidia.com/gpu: \"4\"}\n";
}

TEST(ControllerExpansionTest, DaemonSetOnePodPerEligibleNodeWithoutOne) {
  WorkloadSpec ds;
  ds.kind = "DaemonSet";
  ds.name = "dp";
  ds.ns = "kube-system";
  ds.uid = "ds-uid";
  ds.selector = {{"app", "dp"}};
  ds.template_labels = ds.selector;
  ds.spec_extra = "";
  std::string ds_yaml = WorkloadYaml(ds);
  // nodeSelector gpu=true, as the device plugin's chart can set.
  ds_yaml.replace(ds_yaml.find("    spec:\n"), 10, "    spec:\n      nodeSelector: {gpu: \"true\"}\n");
  PodSpec existing;
  existing.name = "dp-existing";
  existing.ns = "kube-system";
  existing.owner = Owner{"apps/v1", "DaemonSet", "dp", "ds-uid"};
  existing.node = "n1";
  existing.phase = "Running";
  PodSpec pending = existing;  // not bound yet: its matchFields term names n5
  pending.name = "dp-pending";
  pending.node.clear();
  pending.phase = "Pending";
  pending.affinity_node = "n5";
  Manifests m = LoadFiles(
      {{"nodes.yaml",
        {NodeYaml("n1", "{gpu: \"true\"}", ""),
         NodeYaml("n2", "{gpu: \"true\"}", "spec:\n  taints: [{key: dedicated, value: x, effect: NoSchedule}]\n"),
         NodeYaml("n3", "{gpu: \"true\"}",
                  "spec:\n  unschedulable: true\n  taints: [{key: node.kubernetes.io/unschedulable, effect: "
                  "NoSchedule}]\n"),
         NodeYaml("n4", "{gpu: \"false\"}", ""), NodeYaml("n5", "{gpu: \"true\"}", ""),
         NodeYaml("n6", "{gpu: \"true\"}", "spec:\n  taints: [{key: node.kubernetes.io/not-ready, effect: NoExecute}]\n")}},
       {"ds.yaml", {ds_yaml, PodYaml(existing), PodYaml(pending)}}});
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  // n1 and n5 have one; n2 is tainted, n4 unselected: n3 and n6.
  EXPECT_EQ(PodKeys(m), (Strings{"kube-system/dp-existing", "kube-system/dp-pending", "kube-system/dp-zgh28",
                                 "kube-system/dp-jd2kj"}));
  EXPECT_EQ(Report(m, "DaemonSet", "dp")->summary, "should run on 4 of 6 nodes, present on 2: creates 2");
  const Pod& p = m.pods[2].pod;
  ASSERT_TRUE(p.node_affinity);
  ASSERT_EQ(p.node_affinity->required.size(), 1u);
  EXPECT_EQ(p.node_affinity->required[0].match_fields[0].values, (Strings{"n3"}));
  EXPECT_EQ(p.tolerations.size(), 6u);
  EXPECT_EQ(p.node_selector.at("gpu"), "true");
}

TEST(ControllerExpansionTest, CronJobWarnsAndAddsNothing) {
  WorkloadSpec c;
  c.kind = "CronJob";
  c.name = "nightly";
  c.spec_extra = "  schedule: \"0 3 * * *\"\n";
  Manifests m = LoadFiles({{"c.yaml", {WorkloadYaml(c)}}});
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_TRUE(m.pods.empty());
  EXPECT_EQ(Warnings(m),
            "c.yaml:1: CronJob/default/nightly: a CronJob has no pod until its schedule \"0 3 * * *\" fires; gpusched "
            "does not run schedules, so it adds none (Jobs it already created, when in the input, are expanded)\n");
  EXPECT_EQ(Report(m, "CronJob", "nightly")->summary, "no pod until its schedule \"0 3 * * *\" fires");
}

TEST(ControllerExpansionTest, SecondControllerOfTheSameNameIsRejectedWhole) {
  WorkloadSpec other = WebDeployment();
  other.replicas = 1;
  Manifests m = LoadFiles({{"a.yaml", {WorkloadYaml(WebDeployment())}}, {"b.yaml", {WorkloadYaml(other)}}});
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-vdgb8zbvpn-d88dm", "default/web-vdgb8zbvpn-4r6hh"}));
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].object, "Deployment/default/web");
  EXPECT_EQ(m.rejected[0].line, 1);
  EXPECT_EQ(m.rejected[0].message, "deployments.apps \"web\" already exists");
  EXPECT_TRUE(m.rejected[0].file.ends_with("/b.yaml"));
}

TEST(ControllerExpansionTest, CreatedNamesSkipNamesAlreadyTaken) {
  PodSpec squatter;
  squatter.name = "web-vdgb8zbvpn-d88dm";  // the first name the Deployment would use
  squatter.labels = {{"app", "other"}};
  Manifests m = LoadFiles({{"a.yaml", {PodYaml(squatter), WorkloadYaml(WebDeployment())}}});
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(PodKeys(m), (Strings{"default/web-vdgb8zbvpn-d88dm", "default/web-vdgb8zbvpn-4r6hh",
                                 "default/web-vdgb8zbvpn-rd4lc"}));
}

TEST(ControllerExpansionTest, NamesDoNotDependOnOtherFilesOrTheirOrder) {
  Manifests alone = LoadFiles({{"web.yaml", {WorkloadYaml(WebDeployment())}}});
  WorkloadSpec other = WebDeployment();
  other.name = "api";
  other.uid = "api-uid";
  Manifests with = LoadFiles({{"a.yaml", {WorkloadYaml(other)}}, {"web.yaml", {WorkloadYaml(WebDeployment())}}});
  Manifests reversed = LoadFiles({{"web.yaml", {WorkloadYaml(WebDeployment())}}, {"a.yaml", {WorkloadYaml(other)}}});
  EXPECT_EQ(Report(alone, "Deployment", "web")->created, Report(with, "Deployment", "web")->created);
  EXPECT_EQ(Report(alone, "Deployment", "web")->created, Report(reversed, "Deployment", "web")->created);
}

TEST(ControllerExpansionTest, GenerateNamedDeploymentNamesDoNotDependOnPosition) {
  std::string d = WorkloadYaml(WebDeployment());
  d.replace(d.find("  name: web\n"), 12, "  generateName: web-\n");
  WorkloadSpec other = WebDeployment();
  other.name = "api";
  Manifests first = LoadFiles({{"a.yaml", {d}}});
  Manifests later = LoadFiles({{"z.yaml", {WorkloadYaml(other)}}, {"b.yaml", {WorkloadYaml(other), d}}});
  ASSERT_EQ(first.controller_pods.size(), 1u);
  const ControllerPods& a = first.controller_pods[0];
  const ControllerPods* b = Report(later, "Deployment", a.name);
  ASSERT_TRUE(b);
  EXPECT_EQ(a.name.rfind("web-", 0), 0u);
  EXPECT_EQ(a.created, b->created);
  EXPECT_EQ(a.created.size(), 2u);
}

TEST(ControllerExpansionTest, OrphanMatchedBySeveralControllersIsNoted) {
  WorkloadSpec rs;
  rs.kind = "ReplicaSet";
  rs.name = "a";
  rs.replicas = 1;
  rs.selector = {{"app", "x"}};
  rs.template_labels = rs.selector;
  WorkloadSpec rs2 = rs;
  rs2.name = "b";
  PodSpec p;
  p.name = "orphan";
  p.labels = {{"app", "x"}};
  Manifests m = LoadFiles({{"x.yaml", {WorkloadYaml(rs2), WorkloadYaml(rs), PodYaml(p)}}});
  EXPECT_EQ(Report(m, "ReplicaSet", "a")->had, (Strings{"default/orphan"}));
  EXPECT_TRUE(Report(m, "ReplicaSet", "b")->had.empty());
  EXPECT_EQ(Warnings(m),
            "x.yaml:39: Pod/default/orphan: has no controller reference and the selectors of ReplicaSet/a and "
            "ReplicaSet/b all match its labels: counted as ReplicaSet/a's\n");
}

TEST(ControllerExpansionTest, PausedDeploymentWithoutReplicaSetsCreatesNothing) {
  WorkloadSpec d = WebDeployment();
  d.spec_extra = "  paused: true\n";
  Manifests m = LoadFiles({{"d.yaml", {WorkloadYaml(d)}}});
  EXPECT_TRUE(m.pods.empty());
  EXPECT_EQ(Warnings(m),
            "d.yaml:1: Deployment/default/web: spec.paused is true: the Deployment controller only scales its "
            "ReplicaSets, it rolls nothing out and creates no ReplicaSet, so no pods\n");
}

}  // namespace
}  // namespace gpusched
