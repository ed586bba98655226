// src/server/reflector.cc against the fake API server (tests/server/
// fake_api_server.h, loopback only): scripted events reach the view; 410 Gone
// relists; a dropped connection resumes from the last resourceVersion; a
// slow list keeps the view unsynced until it answers.
#include "gpusched/server/reflector.h"

#include <gmock/gmock.h>
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

// The metric line of `name` for `resource` ("" when absent).
std::string MetricLine(Metrics& m, const std::string& name, const std::string& resource) {
  const std::string text = m.Text();
  const std::string head = name + "{resource=\"" + resource + "\"} ";
  const size_t at = text.find(head);
  return at == std::string::npos ? "" : text.substr(at, text.find('\n', at) - at);
}

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
    // Each relist counted once (it was counted twice).
    EXPECT_EQ(MetricLine(h.metrics, "gpusched_cluster_relists_total", "nodes"),
              "gpusched_cluster_relists_total{resource=\"nodes\"} " + std::to_string(h.api.lists("nodes") - 1));
  }
}

// The API server down (every request 503, open watches dropped) while
// more changes come than it keeps (compacted, as etcd compacts): back up,
// the watch from the old resourceVersion is 410 Gone, and the reflector
// lists again, seeing every pod (issue 28's stand-in API server: down and
// back, compaction).
TEST(ReflectorTest, DownThenCompactedRelists) {
  Harness h;
  h.api.SetMaxEvents(5);
  h.api.AddNode(NodeJson("n1", 8));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.nodes->synced() && h.pods->synced() && h.api.watches("pods") >= 1; }));
  h.api.SetDown(true);
  for (int i = 0; i < 10; ++i) h.api.AddPod(PodJson("ml", "p" + std::to_string(i), 0, 0, "n1"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(h.Pods(), 0u);
  const int lists = h.api.lists("pods");
  h.api.SetDown(false);
  ASSERT_TRUE(Eventually([&] { return h.Pods() == 10; }));
  EXPECT_EQ(h.api.lists("pods"), lists + 1);
  EXPECT_EQ(MetricLine(h.metrics, "gpusched_cluster_relists_total", "pods"),
            "gpusched_cluster_relists_total{resource=\"pods\"} 1");
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

// An event whose object does not decode, carrying a resourceVersion the
// server cannot parse ("abc"): dropped and counted, and the watch resumes
// from the last event applied (it kept "abc" and every later watch failed
// 400, the view frozen for good).
TEST(ReflectorTest, UndecodableEventDoesNotPoisonTheResumePoint) {
  Harness h;
  h.api.AddNode(NodeJson("n1", 8));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.pods->synced() && h.api.watches("pods") >= 1; }));
  nlohmann::json bad = PodJson("ml", "bad", 1, 0, "n1");
  bad["spec"]["containers"] = "not a list";
  h.api.DropNextWatchAfter("pods", 1);
  h.api.EmitRaw("pods", "ADDED", bad, "abc");
  ASSERT_TRUE(Eventually([&] { return h.api.watches("pods") >= 2; }));
  h.api.AddPod(PodJson("ml", "good", 1, 0, "n1"));
  ASSERT_TRUE(Eventually([&] { return h.Pods() == 1; }));
  EXPECT_EQ(h.Placements().count("ml/bad"), 0u);
  EXPECT_EQ(h.api.lists("pods"), 1);  // resumed from the last good resourceVersion
  // Dropped twice: once as sent, once more when the resumed watch replays
  // what came after the last good resourceVersion.
  EXPECT_EQ(MetricLine(h.metrics, "gpusched_cluster_dropped_events_total", "pods"),
            "gpusched_cluster_dropped_events_total{resource=\"pods\"} 2");
  EXPECT_EQ(MetricLine(h.metrics, "gpusched_cluster_relists_total", "pods"), "");
}

// A valid event with a resourceVersion the server then refuses: the watch
// is answered 400, which cannot be resumed from, so the reflector lists
// again (it retried the same watch every 30 s), and counts that relist once.
TEST(ReflectorTest, WatchRefusedWith400Relists) {
  Harness h;
  h.api.AddNode(NodeJson("n1", 8));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.pods->synced() && h.api.watches("pods") >= 1; }));
  h.api.DropNextWatchAfter("pods", 1);
  h.api.EmitRaw("pods", "ADDED", PodJson("ml", "a", 1, 0, "n1"), "abc");
  ASSERT_TRUE(Eventually([&] { return h.api.lists("pods") >= 2; }));
  h.api.AddPod(PodJson("ml", "b", 1, 0, "n1"));
  ASSERT_TRUE(Eventually([&] { return h.Placements().count("ml/b") == 1; }));
  // The relist replaced the view with the store, which never held ml/a.
  EXPECT_EQ(h.Placements().count("ml/a"), 0u);
  EXPECT_EQ(MetricLine(h.metrics, "gpusched_cluster_relists_total", "pods"),
            "gpusched_cluster_relists_total{resource=\"pods\"} " + std::to_string(h.api.lists("pods") - 1));
}

// A Pod on the nodes watch is not a node.
TEST(ReflectorTest, ObjectOfAnotherKindIsDropped) {
  Harness h;
  h.api.AddNode(NodeJson("n1", 8));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.nodes->synced() && h.api.watches("nodes") >= 1; }));
  nlohmann::json pod = PodJson("ml", "n9", 1);
  pod["kind"] = "Pod";
  pod["apiVersion"] = "v1";
  h.api.EmitRaw("nodes", "ADDED", pod, "999");
  h.api.AddNode(NodeJson("n2", 8));
  ASSERT_TRUE(Eventually([&] { return h.Nodes() == 2; }));
  EXPECT_EQ(h.ext.Read([](const ClusterView& v) { return v.cluster().FindNode("n9"); }), -1);
  EXPECT_EQ(MetricLine(h.metrics, "gpusched_cluster_dropped_events_total", "nodes"),
            "gpusched_cluster_dropped_events_total{resource=\"nodes\"} 1");
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

// The device annotations travel in the Binding, which the API server writes
// onto the pod with its node: a refused binding (409: already bound) leaves
// no annotation behind (a patch sent before the binding did).
TEST(ApiBinderTest, AnnotationsOnlyWithTheBinding) {
  FakeApiServer api;
  api.AddPod(PodJson("ml", "free", 1));
  api.AddPod(PodJson("ml", "taken", 1, 0, "n2"));
  ApiConfig c;
  c.server = api.url();
  ApiBinder binder(c);
  const std::map<std::string, std::string> devices = {{"gpusched.io/gpu-devices", "3"}};
  ASSERT_TRUE(binder.Bind(testing::DecodePod(PodJson("ml", "free", 1)), "n1", devices).status.ok());
  nlohmann::json free = api.pod("ml/free");
  EXPECT_EQ(free["spec"]["nodeName"], "n1");
  EXPECT_EQ(free["metadata"]["annotations"]["gpusched.io/gpu-devices"], "3");
  const Status st = binder.Bind(testing::DecodePod(PodJson("ml", "taken", 1)), "n1", devices).status;
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("409"), std::string::npos) << st.message();
  nlohmann::json taken = api.pod("ml/taken");
  EXPECT_EQ(taken["spec"]["nodeName"], "n2");
  EXPECT_FALSE(taken["metadata"].contains("annotations")) << taken.dump();
}

// Issue 28: binds ran one at a time, so with a slow API server they waited
// past kube-scheduler's httpTimeout and were carried out long after it had
// given up. Now 4 binds that each take the API server 400 ms run at once
// (done together, well under 4 x 400 ms), each on its own connection.
TEST(ApiBinderTest, BindsRunConcurrently) {
  FakeApiServer api;
  api.DelayBinds(std::chrono::milliseconds(400));
  for (int i = 0; i < 4; ++i) api.AddPod(PodJson("ml", "p" + std::to_string(i), 1));
  ApiConfig c;
  c.server = api.url();
  ApiBinder binder(c, BindOptions{.concurrency = 4, .timeout = std::chrono::seconds(5)});
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::vector<BindResult> results(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      results[static_cast<size_t>(i)] = binder.Bind(testing::DecodePod(PodJson("ml", "p" + std::to_string(i), 1)), "n1", {});
    });
  for (auto& t : threads) t.join();
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const BindResult& r : results) EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(api.max_binds_in_flight(), 4);
  EXPECT_LT(took, 1.2);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(api.pod("ml/p" + std::to_string(i))["spec"]["nodeName"], "n1");
}

// A bind still waiting for a connection at its deadline, or left with
// less than a quarter of it, is never sent; one sent and unanswered by then
// is maybe_bound (the API server carries it out later, as this one does).
TEST(ApiBinderTest, TheDeadlineDecidesWhatIsSentAndWhatIsUnknown) {
  FakeApiServer api;
  api.DelayBinds(std::chrono::milliseconds(900));
  api.AddPod(PodJson("ml", "slow", 1));
  api.AddPod(PodJson("ml", "queued", 1));
  ApiConfig c;
  c.server = api.url();
  ApiBinder binder(c, BindOptions{.concurrency = 1, .timeout = std::chrono::milliseconds(400)});
  BindResult slow, queued;
  std::thread first([&] { slow = binder.Bind(testing::DecodePod(PodJson("ml", "slow", 1)), "n1", {}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  queued = binder.Bind(testing::DecodePod(PodJson("ml", "queued", 1)), "n1", {});
  first.join();
  EXPECT_FALSE(queued.maybe_bound);
  EXPECT_THAT(queued.status.message(), ::testing::MatchesRegex(
      "binding pod ml/queued to n1 was not sent: it waited 0\\.[0-9]+ s for one of the 1 connections "
      "\\(--bind-concurrency\\), leaving less than a quarter of the bind timeout of 0\\.4 s \\(--bind-timeout\\)"));
  EXPECT_TRUE(slow.maybe_bound);
  EXPECT_EQ(slow.status.message(),
            "binding pod ml/slow to n1: no answer within the bind timeout of 0.4 s (--bind-timeout); the API server "
            "may still bind it, so gpusched keeps its node and devices taken until the watch tells");
  ASSERT_TRUE(Eventually([&] { return api.pod("ml/slow")["spec"].value("nodeName", "") == "n1"; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(api.pod("ml/queued")["spec"].value("nodeName", ""), "");
}

}  // namespace
}  // namespace gpusched
