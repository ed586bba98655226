// End to end: a client plays kube-scheduler's calls (filter → prioritize →
// bind, as HTTP on loopback) for 1,000 pods while the fake API server streams
// the binds back through the watch. Every pod is bound once, no GPU is
// double-booked (checked from the device annotations the binds wrote), and
// the assume cache empties as the watch confirms the binds.
#include <gtest/gtest.h>

#include <httplib.h>

#include <thread>

#include "fake_api_server.h"
#include "gpusched/server/http_server.h"
#include "gpusched/server/reflector.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using testing::json;

TEST(EndToEndTest, ThousandPodsBoundOnceNoGpuDoubleBooked) {
  testing::FakeApiServer api;
  // 100 nodes of 8 GPUs; 600 pods of one GPU and 400 of half a GPU
  // (alibabacloud.com/gpu-milli 500): exactly the 800 GPUs.
  std::vector<std::string> names;
  for (int i = 0; i < 100; ++i) {
    names.push_back("node-" + std::to_string(i));
    api.AddNode(testing::NodeJson(names.back(), 8));
  }
  std::vector<json> pods;
  for (int i = 0; i < 1000; ++i) {
    pods.push_back(i % 5 < 3 ? testing::PodJson("ml", "p-" + std::to_string(i), 1)
                             : testing::PodJson("ml", "p-" + std::to_string(i), 0, 500));
    api.AddPod(pods.back());
  }
  ApiConfig config;
  config.server = api.url();
  Metrics metrics;
  ApiBinder binder(config);
  ExtenderService ext(testing::Factory("best-fit"), ExtenderOptions{false, 30, 1}, &binder, &metrics);
  ReflectorOptions ro;
  Reflector nodes(config, Reflector::Resource::kNodes, ext, &metrics, ro);
  Reflector watched(config, Reflector::Resource::kPods, ext, &metrics, ro);
  nodes.Start();
  watched.Start();
  for (int i = 0; i < 1000 && !(nodes.synced() && watched.synced()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(nodes.synced() && watched.synced());
  ASSERT_TRUE(ext.MarkSynced().ok());

  HttpServerOptions ho;
  ho.port = 0;
  ExtenderHttpServer server(ext, metrics, ho, [](std::string*) { return true; });
  ASSERT_TRUE(server.Listen().ok());
  std::thread serving([&] { server.Run(); });

  httplib::Client scheduler("127.0.0.1", server.port());
  scheduler.set_tcp_nodelay(true);
  int errors = 0;
  for (const json& pod : pods) {
    auto f = scheduler.Post("/filter", testing::ArgsWithNames(pod, names), "application/json");
    ASSERT_TRUE(f && f->status == 200);
    const std::vector<std::string> passed = json::parse(f->body)["NodeNames"].get<std::vector<std::string>>();
    ASSERT_FALSE(passed.empty()) << pod["metadata"]["name"];
    std::string host = passed.front();
    if (passed.size() > 1) {  // kube-scheduler scores only when more than one node is feasible
      auto p = scheduler.Post("/prioritize", testing::ArgsWithNames(pod, passed), "application/json");
      ASSERT_TRUE(p && p->status == 200);
      int64_t top = -1;
      for (const json& h : json::parse(p->body))
        if (h["Score"].get<int64_t>() > top) top = h["Score"], host = h["Host"];
    }
    auto b = scheduler.Post("/bind",
                            json{{"PodName", pod["metadata"]["name"]},
                                 {"PodNamespace", "ml"},
                                 {"PodUID", pod["metadata"]["uid"]},
                                 {"Node", host}}
                                .dump(),
                            "application/json");
    ASSERT_TRUE(b && b->status == 200);
    errors += json::parse(b->body)["Error"] != "";
  }
  EXPECT_EQ(errors, 0);
  // Every pod bound exactly once at the API server.
  const auto binds = api.binds();
  EXPECT_EQ(binds.size(), 1000u);
  for (const auto& [key, n] : binds) EXPECT_EQ(n, 1) << key;
  // No device over its capacity, from what the binds recorded on the pods.
  std::map<std::pair<std::string, int>, int> used;
  for (const json& p : api.pods()) {
    const std::string node = p["spec"]["nodeName"];
    const int milli = p["metadata"].contains("annotations") && p["metadata"]["annotations"].contains("alibabacloud.com/gpu-milli")
                          ? 500
                          : 1000;
    const std::string devices = p["metadata"]["annotations"]["gpusched.io/gpu-devices"];
    used[{node, std::stoi(devices)}] += milli;
  }
  EXPECT_EQ(used.size(), 800u);
  for (const auto& [dev, milli] : used) EXPECT_LE(milli, 1000) << dev.first << "/" << dev.second;
  // The watch confirms every bind: the assume cache empties.
  for (int i = 0; i < 1000 && ext.Read([](const ClusterView& v) { return v.num_assumed(); }) > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(ext.Read([](const ClusterView& v) { return v.num_assumed(); }), 0u);
  EXPECT_EQ(ext.Read([](const ClusterView& v) { return v.num_bound_pods(); }), 1000u);
  server.Stop();
  serving.join();
  nodes.Stop();
  watched.Stop();
}

}  // namespace
}  // namespace gpusched
