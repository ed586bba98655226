#include "gpusched/controllers/deployment_sync.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

IntOrPercent Int(int64_t v) { return IntOrPercent{v, false}; }
IntOrPercent Pct(int64_t v) { return IntOrPercent{v, true}; }

// newDeployment of pkg/controller/deployment's tests: RollingUpdate with
// maxSurge 0 and maxUnavailable 0 unless given.
DeploymentState Dep(int64_t replicas, IntOrPercent surge = Int(0), IntOrPercent unavailable = Int(0)) {
  DeploymentState d;
  d.replicas = replicas;
  d.max_surge = surge;
  d.max_unavailable = unavailable;
  return d;
}

RsState Rs(std::string name, int64_t replicas, std::string created = "", int64_t available = 0) {
  RsState r;
  r.name = std::move(name);
  r.replicas = replicas;
  r.creation_timestamp = std::move(created);
  r.available = available;
  return r;
}

// deployment_util_test.go TestResolveFenceposts (the valid rows).
TEST(DeploymentSyncTest, ResolveFencepostsUpstreamTable) {
  EXPECT_EQ(ResolveFenceposts(Pct(0), Pct(0), 0), std::make_pair(int64_t{0}, int64_t{1}));
  EXPECT_EQ(ResolveFenceposts(Pct(39), Pct(39), 10), std::make_pair(int64_t{4}, int64_t{3}));
  // 25% of 8: surge rounds up, unavailable down.
  EXPECT_EQ(ResolveFenceposts(Pct(25), Pct(25), 8), std::make_pair(int64_t{2}, int64_t{2}));
  EXPECT_EQ(ResolveFenceposts(Int(1), Int(1), 2), std::make_pair(int64_t{1}, int64_t{1}));
}

// deployment_util_test.go TestNewRSNewReplicas: the other ReplicaSet has 5.
TEST(DeploymentSyncTest, NewRSNewReplicasUpstreamTable) {
  struct Case {
    const char* name;
    bool recreate;
    int64_t dep_replicas, new_rs_replicas, max_surge, expected;
  };
  const Case cases[] = {
      {"can not scale up - to newRSReplicas", false, 1, 5, 1, 5},
      {"scale up - to depReplicas", false, 6, 2, 10, 6},
      {"recreate - to depReplicas", true, 3, 1, 1, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    DeploymentState d = Dep(c.dep_replicas, Int(c.max_surge), Int(1));
    d.recreate = c.recreate;
    EXPECT_EQ(NewRSNewReplicas(d, 5, c.new_rs_replicas), c.expected);
  }
}

// rolling_test.go TestDeploymentController_reconcileNewReplicaSet, through
// one sync: the new ReplicaSet's size after it.
TEST(DeploymentSyncTest, ReconcileNewReplicaSetUpstreamTable) {
  struct Case {
    int64_t deployment_replicas, max_surge, old_replicas, new_replicas, expected_new;
  };
  const Case cases[] = {
      {10, 0, 10, 0, 0},   // should not scale up
      {10, 2, 10, 0, 2},
      {10, 2, 5, 0, 7},
      {10, 2, 10, 2, 2},
      {10, 2, 2, 11, 10},  // should scale down
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "surge " << c.max_surge << " old " << c.old_replicas << " new " << c.new_replicas);
    DeploymentSyncResult r = SyncDeployment(Dep(c.deployment_replicas, Int(c.max_surge), Int(0)),
                                            {Rs("foo-v2", c.new_replicas), Rs("foo-v1", c.old_replicas)}, 0, false);
    EXPECT_EQ(r.replicas[0], c.expected_new);
    EXPECT_FALSE(r.create_new);
  }
}

// rolling_test.go TestDeploymentController_reconcileOldReplicaSets (maxSurge
// 0): the old ReplicaSet's size after one sync.
TEST(DeploymentSyncTest, ReconcileOldReplicaSetsUpstreamTable) {
  struct Case {
    int64_t max_unavailable, old_replicas, new_replicas, ready_old, ready_new, expected_old;
  };
  const Case cases[] = {
      {0, 10, 0, 10, 0, 9},
      {2, 10, 0, 10, 0, 8},
      {2, 10, 0, 8, 0, 8},   // unhealthy old replicas cleaned up
      {2, 10, 0, 9, 0, 8},   // one unhealthy cleaned up, one ready scaled down
      {2, 8, 2, 8, 0, 8},    // the new RS's unavailable pods block further scale-down
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "maxUnavailable " << c.max_unavailable << " old " << c.old_replicas << " ready "
                                    << c.ready_old);
    DeploymentSyncResult r =
        SyncDeployment(Dep(10, Int(0), Int(c.max_unavailable)),
                       {Rs("foo-old", c.old_replicas, "", c.ready_old), Rs("foo-new", c.new_replicas, "", c.ready_new)}, 1,
                       false);
    EXPECT_EQ(r.replicas[0], c.expected_old);
    EXPECT_EQ(r.replicas[1], c.new_replicas);
  }
}

// sync_test.go TestScale: the proportional scaling of a paused Deployment or
// a scaling event (desired-replicas annotations from the old Deployment,
// max-replicas = desired + the old Deployment's maxSurge). "failed rs update"
// is left out: it fakes an API error.
TEST(DeploymentSyncTest, ScaleUpstreamTable) {
  const std::string newer = "2016-05-20T02:00:00Z", old = "2016-05-20T01:00:00Z", older = "2016-05-20T00:00:00Z";
  struct Case {
    const char* name;
    int64_t replicas, old_replicas;
    int64_t surge, old_surge;
    std::vector<RsState> rss;  // new first when has_new
    bool has_new;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"normal scaling event: 10 -> 12", 12, 10, 0, 0, {Rs("foo-v1", 10, newer)}, true, {12}},
      {"normal scaling event: 10 -> 5", 5, 10, 0, 0, {Rs("foo-v1", 10, newer)}, true, {5}},
      {"proportional scaling: 5 -> 10", 10, 5, 0, 0, {Rs("foo-v2", 2, newer), Rs("foo-v1", 3, old)}, true, {4, 6}},
      {"proportional scaling: 5 -> 3", 3, 5, 0, 0, {Rs("foo-v2", 2, newer), Rs("foo-v1", 3, old)}, true, {1, 2}},
      {"proportional scaling: 9 -> 4", 4, 9, 0, 0, {Rs("foo-v2", 8, newer), Rs("foo-v1", 1, old)}, true, {4, 0}},
      {"proportional scaling: 7 -> 10", 10, 7, 0, 0,
       {Rs("foo-v3", 2, newer), Rs("foo-v2", 3, old), Rs("foo-v1", 2, older)}, true, {3, 4, 3}},
      {"proportional scaling: 13 -> 8", 8, 13, 0, 0,
       {Rs("foo-v3", 2, newer), Rs("foo-v2", 8, old), Rs("foo-v1", 3, older)}, true, {1, 5, 2}},
      {"leftover distribution: 3 -> 4", 4, 3, 0, 0,
       {Rs("foo-v3", 1, newer), Rs("foo-v2", 1, old), Rs("foo-v1", 1, older)}, true, {2, 1, 1}},
      {"leftover distribution: 3 -> 2", 2, 3, 0, 0,
       {Rs("foo-v3", 1, newer), Rs("foo-v2", 1, old), Rs("foo-v1", 1, older)}, true, {1, 1, 0}},
      {"proportional scaling (no new rs): 4 -> 5", 5, 4, 0, 0, {Rs("foo-v2", 2, old), Rs("foo-v1", 2, older)}, false,
       {3, 2}},
      {"proportional scaling: 6 -> 0", 0, 6, 0, 0,
       {Rs("foo-v3", 3, newer), Rs("foo-v2", 2, old), Rs("foo-v1", 1, older)}, true, {0, 0, 0}},
      {"proportional scaling: 0 -> 6", 6, 6, 0, 0,
       {Rs("foo-v3", 0, newer), Rs("foo-v2", 0, old), Rs("foo-v1", 0, older)}, true, {6, 0, 0}},
      {"deployment with surge pods", 20, 10, 2, 2, {Rs("foo-v2", 6, newer), Rs("foo-v1", 6, old)}, true, {11, 11}},
      {"change both surge and size", 50, 10, 6, 3, {Rs("foo-v2", 5, newer), Rs("foo-v1", 8, old)}, true, {22, 34}},
      {"change both size and template", 14, 10, 0, 0, {Rs("foo-v2", 7, newer), Rs("foo-v1", 3, old)}, false, {10, 4}},
  };
  for (Case c : cases) {
    SCOPED_TRACE(c.name);
    for (RsState& r : c.rss) {
      r.desired_annotation = c.old_replicas;
      r.max_annotation = c.old_replicas + c.old_surge;
    }
    DeploymentState d = Dep(c.replicas, Int(c.surge), Int(0));
    d.paused = true;  // scale() alone, as TestScale calls it
    DeploymentSyncResult r = SyncDeployment(d, c.rss, c.has_new ? std::optional<size_t>(0) : std::nullopt, false);
    EXPECT_EQ(r.replicas, c.expected);
    EXPECT_FALSE(r.create_new);
  }
  // "saturated but broken new replica set does not affect old pods".
  RsState broken = Rs("foo-v2", 2, newer, 0);
  broken.desired_annotation = 2;
  broken.max_annotation = 3;
  RsState old_rs = Rs("foo-v1", 1, old);
  old_rs.desired_annotation = 2;
  old_rs.max_annotation = 3;
  DeploymentState d = Dep(2, Int(1), Int(1));
  d.paused = true;
  EXPECT_EQ(SyncDeployment(d, {broken, old_rs}, 0, false).replicas, (std::vector<int64_t>{2, 1}));
}

TEST(DeploymentSyncTest, NoReplicaSetCreatesTheNewOneAtFullSize) {
  DeploymentSyncResult r = SyncDeployment(Dep(3, Pct(25), Pct(25)), {}, std::nullopt, false);
  EXPECT_TRUE(r.create_new);
  EXPECT_EQ(r.new_replicas, 3);
  EXPECT_EQ(r.how, "rolling update");
}

TEST(DeploymentSyncTest, RolloutCreatesTheNewReplicaSetWithinMaxSurge) {
  // 4 replicas, 25%/25%: surge 1. The old ReplicaSet has all 4.
  DeploymentSyncResult r = SyncDeployment(Dep(4, Pct(25), Pct(25)), {Rs("web-old", 4, "", 4)}, std::nullopt, false);
  EXPECT_TRUE(r.create_new);
  EXPECT_EQ(r.new_replicas, 1);
  // Then, in the same sync, reconcileOldReplicaSets: minAvailable 3, the new
  // RS has 1 unavailable: maxScaledDown = 5 - 3 - 1 = 1; 4 available > 3, so
  // the old one goes to 3.
  EXPECT_EQ(r.replicas, (std::vector<int64_t>{3}));
}

TEST(DeploymentSyncTest, SteadyStateChangesNothing) {
  RsState rs = Rs("web-abc", 2, "", 2);
  rs.desired_annotation = 2;
  rs.max_annotation = 3;
  DeploymentSyncResult r = SyncDeployment(Dep(2, Pct(25), Pct(25)), {rs}, 0, false);
  EXPECT_EQ(r.replicas, (std::vector<int64_t>{2}));
  EXPECT_FALSE(r.create_new);
}

TEST(DeploymentSyncTest, RecreateScalesOldDownFirstAndWaitsForItsPods) {
  DeploymentState d = Dep(3);
  d.recreate = true;
  // An active old ReplicaSet: scaled to 0, nothing else this sync.
  DeploymentSyncResult a = SyncDeployment(d, {Rs("web-old", 3, "", 3)}, std::nullopt, false);
  EXPECT_EQ(a.replicas, (std::vector<int64_t>{0}));
  EXPECT_FALSE(a.create_new);
  EXPECT_EQ(a.how, "Recreate: old ReplicaSets scaled to 0 first");
  // Scaled to 0, but its pods are still running: wait.
  DeploymentSyncResult b = SyncDeployment(d, {Rs("web-old", 0)}, std::nullopt, true);
  EXPECT_FALSE(b.create_new);
  EXPECT_EQ(b.how, "Recreate: waiting for the old pods to terminate");
  // status.replicas of the old one counts as running pods too (oldPodsRunning).
  RsState terminating = Rs("web-old", 0);
  terminating.status_replicas = 1;
  EXPECT_FALSE(SyncDeployment(d, {terminating}, std::nullopt, false).create_new);
  // Old pods gone: the new ReplicaSet at full size.
  DeploymentSyncResult c = SyncDeployment(d, {Rs("web-old", 0)}, std::nullopt, false);
  EXPECT_TRUE(c.create_new);
  EXPECT_EQ(c.new_replicas, 3);
  DeploymentSyncResult e = SyncDeployment(d, {Rs("web-new", 1), Rs("web-old", 0)}, 0, false);
  EXPECT_EQ(e.replicas, (std::vector<int64_t>{3, 0}));
}

TEST(DeploymentSyncTest, PausedWithoutReplicaSetsCreatesNone) {
  DeploymentState d = Dep(3, Pct(25), Pct(25));
  d.paused = true;
  DeploymentSyncResult r = SyncDeployment(d, {}, std::nullopt, false);
  EXPECT_FALSE(r.create_new);
  EXPECT_EQ(r.how, "paused: nothing to scale");
}

TEST(DeploymentSyncTest, ScalingEventFromDesiredReplicasAnnotation) {
  // Not paused: an active ReplicaSet annotated with another desired size
  // makes the sync a scaling event (isScalingEvent), so scale() runs.
  RsState rs = Rs("web-abc", 2, "", 2);
  rs.desired_annotation = 2;
  rs.max_annotation = 3;
  DeploymentSyncResult r = SyncDeployment(Dep(5, Pct(25), Pct(25)), {rs}, 0, false);
  EXPECT_EQ(r.replicas, (std::vector<int64_t>{5}));
  EXPECT_EQ(r.how, "scaling event: scaled its one active ReplicaSet web-abc");
}

}  // namespace
}  // namespace gpusched
