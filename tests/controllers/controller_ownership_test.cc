#include "gpusched/controllers/controller_ownership.h"

#include <gtest/gtest.h>

#include "gpusched/util/random.h"

namespace gpusched {
namespace {

Controller C(ControllerKind kind, const std::string& name, const std::string& uid, LabelMap selector,
             const std::string& ns = "default") {
  Controller c;
  c.kind = kind;
  c.api_version = kind == ControllerKind::kJob ? "batch/v1" : "apps/v1";
  c.meta.name = name;
  c.meta.namespace_ = ns;
  c.meta.uid = uid;
  if (!selector.empty()) c.selector = LabelSelector{std::move(selector), {}};
  return c;
}

Pod P(const std::string& name, LabelMap labels, std::optional<OwnerReference> ref = std::nullopt,
      const std::string& ns = "default") {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = ns;
  p.meta.labels = std::move(labels);
  p.controller_ref = std::move(ref);
  return p;
}

struct Fixture {
  std::vector<Controller> cs;
  std::vector<Pod> pods;
  Ownership Resolve() const {
    std::vector<const Controller*> c;
    for (const auto& x : cs) c.push_back(&x);
    std::vector<const Pod*> p;
    for (const auto& x : pods) p.push_back(&x);
    return ResolveOwnership(c, p);
  }
};

TEST(ControllerOwnershipTest, ReferenceRules) {
  Fixture f;
  f.cs.push_back(C(ControllerKind::kReplicaSet, "rs", "rs-uid", {{"app", "a"}}));        // 0
  f.cs.push_back(C(ControllerKind::kReplicaSet, "rs", "other-ns-uid", {{"app", "a"}}, "ml"));  // 1
  f.cs.push_back(C(ControllerKind::kStatefulSet, "db", "", {{"app", "db"}}));            // 2: uid stripped
  f.cs.push_back(C(ControllerKind::kJob, "train", "job-uid", {}));                        // 3
  f.pods = {
      P("by-uid", {}, OwnerReference{"apps/v1", "ReplicaSet", "rs", "rs-uid"}),
      P("uid-in-other-namespace", {}, OwnerReference{"apps/v1", "ReplicaSet", "rs", "other-ns-uid"}),
      P("by-name", {}, OwnerReference{"apps/v1", "StatefulSet", "db", "whatever"}),
      P("stale-uid", {{"app", "a"}}, OwnerReference{"apps/v1", "ReplicaSet", "rs", "deleted-uid"}),
      P("wrong-group", {}, OwnerReference{"batch.volcano.sh/v1alpha1", "Job", "train", "job-uid"}),
      P("node-owned", {}, OwnerReference{"v1", "Node", "n1", "node-uid"}),
      P("generated-job-selector", {{"batch.kubernetes.io/controller-uid", "job-uid"}}),
  };
  Ownership o = f.Resolve();
  EXPECT_EQ(o.owner_of[0], 0u);
  EXPECT_EQ(o.owner_of[1], std::nullopt);  // namespaced: ml/rs is not default's
  EXPECT_EQ(o.owner_of[2], 2u);
  EXPECT_EQ(o.owner_of[3], std::nullopt);  // a reference never falls back to selectors
  EXPECT_EQ(o.owner_of[4], std::nullopt);  // a Volcano Job is not a batch/v1 Job
  EXPECT_EQ(o.owner_of[5], std::nullopt);
  EXPECT_EQ(o.owner_of[6], 3u);
  EXPECT_TRUE(o.notes.empty());
}

TEST(ControllerOwnershipTest, DeploymentsOwnReplicaSetsAndPodsOfMissingOnes) {
  Fixture f;
  f.cs.push_back(C(ControllerKind::kDeployment, "web", "d-uid", {{"app", "web"}}));  // 0
  Controller rs = C(ControllerKind::kReplicaSet, "web-abc", "rs-uid", {{"app", "web"}, {"pod-template-hash", "abc"}});
  rs.controller_ref = OwnerReference{"apps/v1", "Deployment", "web", "d-uid"};
  f.cs.push_back(rs);  // 1
  Controller orphan_rs = C(ControllerKind::kReplicaSet, "web-def", "", {{"app", "web"}, {"pod-template-hash", "def"}});
  orphan_rs.meta.labels = {{"app", "web"}, {"pod-template-hash", "def"}};
  f.cs.push_back(orphan_rs);  // 2: adopted by its labels
  f.cs.push_back(C(ControllerKind::kReplicaSet, "lonely", "", {{"app", "lonely"}}));  // 3
  f.pods = {
      P("web-zzz-1", {{"app", "web"}, {"pod-template-hash", "zzz"}},
        OwnerReference{"apps/v1", "ReplicaSet", "web-zzz", "gone"}),
      P("web-zzz-2", {{"app", "other"}}, OwnerReference{"apps/v1", "ReplicaSet", "web-zzz", "gone"}),
      P("web-extra-zzz-3", {{"app", "web"}}, OwnerReference{"apps/v1", "ReplicaSet", "web-extra-zzz", "gone"}),
      P("orphan-with-hash", {{"app", "web"}, {"pod-template-hash", "zzz"}}),
      P("orphan-without-hash", {{"app", "web"}}),
  };
  Ownership o = f.Resolve();
  EXPECT_EQ(o.deployment_of[1], 0u);
  EXPECT_EQ(o.deployment_of[2], 0u);
  EXPECT_EQ(o.deployment_of[3], std::nullopt);
  EXPECT_EQ(o.owner_of[0], 0u);            // its ReplicaSet web-zzz is not in the input
  EXPECT_EQ(o.owner_of[1], std::nullopt);  // the Deployment's selector does not match it
  EXPECT_EQ(o.owner_of[2], std::nullopt);  // "web-extra-zzz" is not "web-<hash>"
  EXPECT_EQ(o.owner_of[3], 0u);
  EXPECT_EQ(o.owner_of[4], std::nullopt);  // no ReplicaSet of a Deployment selects it without the hash
}

TEST(ControllerOwnershipTest, OrphanAdoptionOrderAndStatefulSetMembership) {
  Fixture f;
  f.cs.push_back(C(ControllerKind::kDaemonSet, "ds", "", {{"app", "x"}}));    // 0
  f.cs.push_back(C(ControllerKind::kStatefulSet, "x", "", {{"app", "x"}}));   // 1
  f.cs.push_back(C(ControllerKind::kReplicaSet, "z", "", {{"app", "x"}}));    // 2
  f.cs.push_back(C(ControllerKind::kReplicaSet, "b", "", {{"app", "x"}}));    // 3
  f.cs.push_back(C(ControllerKind::kReplicaSet, "empty", "", {}));            // 4: no selector adopts nothing
  f.pods = {P("x-0", {{"app", "x"}}), P("x-01", {{"app", "y"}}), P("not-a-member", {{"app", "x"}})};
  f.pods[1].meta.labels = {{"app", "x"}};
  Ownership o = f.Resolve();
  // ReplicaSets first, by name.
  EXPECT_EQ(o.owner_of[0], 3u);
  EXPECT_EQ(o.owner_of[1], 3u);
  ASSERT_EQ(o.notes.size(), 3u);
  EXPECT_EQ(o.notes[0].second,
            "has no controller reference and the selectors of ReplicaSet/b, ReplicaSet/z, StatefulSet/x and "
            "DaemonSet/ds all match its labels: counted as ReplicaSet/b's");
  // "x-01" is not an ordinal name (leading zero): the StatefulSet does not claim it.
  EXPECT_EQ(o.notes[1].second,
            "has no controller reference and the selectors of ReplicaSet/b, ReplicaSet/z and DaemonSet/ds all match "
            "its labels: counted as ReplicaSet/b's");
}

// The selector index against the plain scan of every controller of the
// namespace, on random controllers, selectors and pods.
TEST(ControllerOwnershipTest, IndexAgreesWithThePlainScan) {
  const std::vector<std::string> keys = {"app", "tier", "pod-template-hash", "batch.kubernetes.io/controller-uid"};
  const std::vector<std::string> values = {"a", "b"};
  const std::vector<std::string> ops = {"In", "NotIn", "Exists", "DoesNotExist"};
  size_t adopted = 0, notes = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    auto pick = [&](const std::vector<std::string>& v) { return v[rng.Uniform(v.size())]; };
    auto labels = [&](size_t lo, size_t hi) {
      LabelMap m;
      for (size_t n = lo + rng.Uniform(hi - lo + 1); n > 0; --n) m[pick(keys)] = pick(values);
      return m;
    };
    Fixture f;
    const size_t nc = 4 + rng.Uniform(12);
    for (size_t i = 0; i < nc; ++i) {
      const ControllerKind kind = static_cast<ControllerKind>(rng.Uniform(6));
      Controller c = C(kind, "c" + std::to_string(rng.Uniform(4)), rng.Uniform(2) ? "u" + std::to_string(i) : "",
                       labels(0, 2), rng.Uniform(2) ? "default" : "ml");
      if (rng.Uniform(6) == 0) c.selector.reset();
      if (c.selector && rng.Uniform(2))
        c.selector->match_expressions.push_back({pick(keys), pick(ops), {pick(values)}});
      c.meta.labels = labels(1, 4);
      if (kind == ControllerKind::kReplicaSet && rng.Uniform(2))
        c.controller_ref = OwnerReference{"apps/v1", "Deployment", "c" + std::to_string(rng.Uniform(4)), ""};
      bool duplicate = false;
      for (const Controller& o : f.cs) duplicate |= o.kind == c.kind && o.ns() == c.ns() && o.name() == c.name();
      if (!duplicate) f.cs.push_back(std::move(c));
    }
    for (size_t i = 0; i < 20; ++i) {
      Pod p = P(rng.Uniform(2) ? "c" + std::to_string(rng.Uniform(4)) + "-" + std::to_string(rng.Uniform(3))
                               : "p" + std::to_string(i),
                labels(1, 4), std::nullopt, rng.Uniform(2) ? "default" : "ml");
      if (rng.Uniform(3) == 0)
        p.controller_ref = OwnerReference{"apps/v1", "ReplicaSet", "c" + std::to_string(rng.Uniform(4)) + "-h", "x"};
      f.pods.push_back(std::move(p));
    }
    std::vector<const Controller*> cs;
    for (const auto& x : f.cs) cs.push_back(&x);
    std::vector<const Pod*> pods;
    for (const auto& x : f.pods) pods.push_back(&x);
    const Ownership fast = ResolveOwnership(cs, pods, /*indexed=*/true);
    const Ownership plain = ResolveOwnership(cs, pods, /*indexed=*/false);
    for (const auto& o : fast.owner_of) adopted += o.has_value();
    notes += fast.notes.size();
    ASSERT_EQ(fast.owner_of, plain.owner_of) << "seed " << seed;
    ASSERT_EQ(fast.deployment_of, plain.deployment_of) << "seed " << seed;
    ASSERT_EQ(fast.notes, plain.notes) << "seed " << seed;
  }
  // The cases are not trivial: many pods are adopted, some by several.
  EXPECT_GT(adopted, 500u);
  EXPECT_GT(notes, 20u);
}

}  // namespace
}  // namespace gpusched
