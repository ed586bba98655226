// src/server/reflector.cc against the fake API server (tests/server/
// fake_api_server.h, loopback only): scripted events reach the view; 410 Gone
// relists; a dropped connection resumes from the last resourceVersion; a
// slow list keeps the view unsynced until it answers.
#include "gpusched/server/reflector.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "fake_api_server.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using testing::FakeApiServer;
using testing::NodeJson;
using testing::PodJson;

// Waits (up to 10 s) for `cond`.
template <class F>
bool Eventually(F cond) {
  for (int i = 0; i < 1000; ++i) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return cond();
}

struct Harness {
  FakeApiServer api;
  Metrics metrics;
  ExtenderService ext{testing::Factory("best-fit"), ExtenderOptions{}, nullptr, &metrics};
  std::unique_ptr<Reflector> nodes, pods;
  void Start() {
    ApiConfig c;
    c.server = api.url();
    ReflectorOptions o;
    o.initial_backoff_seconds = 0.05;
    o.max_backoff_seconds = 0.2;
    nodes = std::make_unique<Reflector>(c, Reflector::Resource::kNodes, ext, &metrics, o);
    pods = std::make_unique<Reflector>(c, Reflector::Resource::kPods, ext, &metrics, o);
    nodes->Start();
    pods->Start();
  }
  size_t Nodes() { return ext.Read([](const ClusterView& v) { return v.num_nodes(); }); }
  size_t Pods() { return ext.Read([](const ClusterView& v) { return v.num_bound_pods(); }); }
  std::map<std::string, ClusterView::Placement> Placements() {
    return ext.Read([](const ClusterView& v) { return v.Placements(); });
  }
};

TEST(ReflectorTest, ScriptedEventsReachTheView) {
  Harness h;
  h.api.AddNode(NodeJson("n1", 8));
  h.api.AddPod(PodJson("ml", "a", 2, 0, "n1"));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.nodes->synced() && h.pods->synced(); }));
  EXPECT_EQ(h.Nodes(), 1u);
  EXPECT_EQ(h.Pods(), 1u);
  // Node added.
  h.api.AddNode(NodeJson("n2", 4));
  ASSERT_TRUE(Eventually([&] { return h.Nodes() == 2; }));
  // Pod bound (pending, then given a node).
  h.api.AddPod(PodJson("ml", "b", 1));
  h.api.ModifyPod(PodJson("ml", "b", 1, 0, "n2"));
  ASSERT_TRUE(Eventually([&] { return h.Pods() == 2; }));
  EXPECT_EQ(h.Placements().at("ml/b").node, "n2");
  // Pod deleted.
  h.api.DeletePod("ml", "a");
  ASSERT_TRUE(Eventually([&] { return h.Pods() == 1; }));
  // A bookmark moves the resourceVersion on without changing anything.
  h.api.Bookmark("pods");
  EXPECT_EQ(h.api.lists("pods"), 1);
}

// The kinds plugins read (ReflectedObjectKinds) are listed and watched
// into the cluster's objects: a claim listed, a StorageClass added, the
// claim deleted, a namespace's labels modified.
TEST(ReflectorTest, ApiObjectsReachTheClustersObjects) {
  Harness h;
  h.api.PutObject("persistentvolumeclaims", testing::BoundClaimJson("ml", "data", "pv-a"));
  h.api.PutObject("namespaces", {{"metadata", {{"name", "ml"}, {"labels", {{"team", "a"}}}}}});
  ApiConfig c;
  c.server = h.api.url();
  std::vector<std::unique_ptr<Reflector>> rs;
  for (const ReflectedKind& k : ReflectedObjectKinds()) {
    rs.push_back(std::make_unique<Reflector>(c, k, h.ext, &h.metrics, ReflectorOptions{}));
    rs.back()->Start();
  }
  auto objects = [&](auto f) { return h.ext.Read([&](const ClusterView& v) { return f(v.cluster().objects()); }); };
  for (const auto& r : rs) ASSERT_TRUE(Eventually([&] { return r->synced(); })) << r->name() << ": " << r->last_error();
  EXPECT_EQ(rs[6]->name(), std::string("persistentvolumeclaims"));
  EXPECT_TRUE(objects([](const ApiObjects& o) { return o.volumes.FindPvc("ml", "data") != nullptr; }));
  EXPECT_EQ(objects([](const ApiObjects& o) { return o.NamespaceLabels("ml")->at("team"); }), "a");
  h.api.PutObject("storageclasses", {{"metadata", {{"name", "local"}}},
                                     {"provisioner", "kubernetes.io/no-provisioner"},
                                     {"volumeBindingMode", "WaitForFirstConsumer"}});
  ASSERT_TRUE(Eventually([&] { return objects([](const ApiObjects& o) { return o.volumes.FindClass("local") != nullptr; }); }));
  h.api.DeleteObject("persistentvolumeclaims", "ml/data");
  ASSERT_TRUE(Eventually([&] { return objects([](const ApiObjects& o) { return o.volumes.FindPvc("ml", "data") == nullptr; }); }));
  h.api.PutObject("namespaces", {{"metadata", {{"name", "ml"}, {"labels", {{"team", "b"}}}}}});
  ASSERT_TRUE(Eventually([&] { return objects([](const ApiObjects& o) { return o.NamespaceLabels("ml")->at("team") == "b"; }); }));
  EXPECT_EQ(objects([](const ApiObjects& o) { return o.volumes.FindClass("local") != nullptr; }), true);
  for (auto& r : rs) r->Stop();
}

TEST(ReflectorTest, GoneRelists) {
  for (bool as_event : {false, true}) {
    Harness h;
    h.api.AddNode(NodeJson("n1", 8));
    h.Start();
    ASSERT_TRUE(Eventually([&] { return h.nodes->synced() && h.api.watches("nodes") >= 1; }));
    // The open watch ends (dropped), and the next one is told 410 Gone: the
    // reflector lists again and sees the node added in between.
    h.api.GoneOnNextWatch("nodes", as_event);
    h.api.DropNextWatchAfter("nodes", 0);
    h.api.AddNode(NodeJson("n2", 8));
    ASSERT_TRUE(Eventually([&] { return h.api.lists("nodes") >= 2 && h.Nodes() == 2; })) << as_event;
  }
}

TEST(ReflectorTest, DroppedConnectionResumesFromTheLastResourceVersion) {
  Harness h;
  h.api.AddNode(NodeJson("n1", 8));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.nodes->synced() && h.api.watches("nodes") >= 1; }));
  // The open watch drops after one more event.
  h.api.DropNextWatchAfter("nodes", 1);
  h.api.AddNode(NodeJson("n2", 8));
  h.api.AddNode(NodeJson("n3", 8));
  h.api.AddNode(NodeJson("n4", 8));
  ASSERT_TRUE(Eventually([&] { return h.Nodes() == 4; }));
  EXPECT_EQ(h.api.lists("nodes"), 1);  // resumed, never relisted
}

TEST(ReflectorTest, SlowListKeepsTheViewUnsynced) {
  Harness h;
  h.api.AddNode(NodeJson("n1", 8));
  h.api.DelayLists(std::chrono::milliseconds(800));
  h.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(h.nodes->synced());
  ASSERT_TRUE(Eventually([&] { return h.nodes->synced(); }));
  EXPECT_EQ(h.Nodes(), 1u);
}

TEST(ReflectorTest, UnreachableApiServerIsReported) {
  Metrics metrics;
  ExtenderService ext{testing::Factory("best-fit"), ExtenderOptions{}, nullptr, &metrics};
  ApiConfig c;
  c.server = "http://127.0.0.1:1";  // nothing listens there
  ReflectorOptions o;
  o.initial_backoff_seconds = 0.05;
  Reflector r(c, Reflector::Resource::kNodes, ext, &metrics, o);
  r.Start();
  ASSERT_TRUE(Eventually([&] { return !r.last_error().empty(); }));
  EXPECT_FALSE(r.synced());
  EXPECT_EQ(r.last_error(), "list failed: cannot reach the API server at http://127.0.0.1:1 (Connection)");
  r.Stop();
}

}  // namespace
}  // namespace gpusched
