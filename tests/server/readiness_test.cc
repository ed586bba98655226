// src/server/readiness.cc: the table of /readyz answers from the sync state
// and each reflector's health; then against the fake API server (tests/
// server/fake_api_server.h): a watch that is open with nothing to say stays
// ready past --stale-after, and an API server that goes away turns the
// answer stale, naming the last error.
#include "gpusched/server/readiness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "fake_api_server.h"
#include "gpusched/server/reflector.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using Clock = std::chrono::steady_clock;
using testing::FakeApiServer;
using testing::NodeJson;
using testing::PodJson;

TEST(ReadinessTest, Table) {
  const Clock::time_point now = Clock::now();
  const auto ago = [&](double s) {
    return now - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  struct Case {
    const char* name;
    bool synced;
    std::vector<ReflectorHealth> reflectors;
    double stale_after;
    bool ready;
    std::string why;
  };
  const std::vector<Case> cases = {
      {"static snapshot, synced", true, {}, 60, true, ""},
      {"static snapshot, not synced", false, {}, 60, false,
       "not ready: waiting for the first list of nodes and pods"},
      {"first list pending, errors named", false,
       {{"nodes", false, ago(1), "list failed: 403: forbidden"}, {"pods", false, ago(1), ""}}, 60, false,
       "not ready: waiting for the first list of nodes and pods (nodes: list failed: 403: forbidden)"},
      // The audit's case: open watches, no event for far longer than
      // --stale-after.
      {"open quiet watches", true,
       {{"nodes", true, ago(3600), ""}, {"pods", true, ago(3600), ""}}, 60, true, ""},
      {"between two watches, recent contact", true,
       {{"nodes", false, ago(5), ""}, {"pods", true, ago(3600), ""}}, 60, true, ""},
      {"watch lost for longer than --stale-after", true,
       {{"nodes", true, ago(1), ""},
        {"pods", false, ago(90.5), "watch failed: cannot reach the API server at https://10.96.0.1:443 (Connection)"}},
       60, false,
       "stale: no word from the API server about pods for 90 s, since 2026-12-07T11:58:29Z (--stale-after 60); "
       "last error: watch failed: "
       "cannot reach the API server at https://10.96.0.1:443 (Connection)"},
      {"fractional --stale-after", true,
       {{"nodes", false, ago(2), "list failed: 500: etcdserver: request timed out"}, {"pods", true, ago(2), ""}},
       0.5, false,
       "stale: no word from the API server about nodes for 2 s, since 2026-12-07T11:59:58Z (--stale-after 0.5); "
       "last error: list failed: 500: "
       "etcdserver: request timed out"},
  };
  for (const Case& c : cases) {
    std::string why;
    // The wall clock at `now`: 2026-12-07T12:00:00Z.
    const auto wall = std::chrono::system_clock::from_time_t(1796644800);
    EXPECT_EQ(Readiness(c.synced, c.reflectors, c.stale_after, now, &why, wall), c.ready) << c.name;
    EXPECT_EQ(why, c.why) << c.name;
  }
}

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
  static constexpr double kStaleAfter = 0.2;
  std::unique_ptr<FakeApiServer> api = std::make_unique<FakeApiServer>();
  std::string url = api->url();
  Metrics metrics;
  ExtenderService ext{testing::Factory("best-fit"), ExtenderOptions{}, nullptr, &metrics};
  std::unique_ptr<Reflector> nodes, pods;
  void Start() {
    ApiConfig c;
    c.server = url;
    ReflectorOptions o;
    o.initial_backoff_seconds = 0.05;
    o.max_backoff_seconds = 0.1;
    nodes = std::make_unique<Reflector>(c, Reflector::Resource::kNodes, ext, &metrics, o);
    pods = std::make_unique<Reflector>(c, Reflector::Resource::kPods, ext, &metrics, o);
    nodes->Start();
    pods->Start();
  }
  bool Ready(std::string* why) {
    return Readiness(nodes->synced() && pods->synced(), {HealthOf(*nodes), HealthOf(*pods)}, kStaleAfter,
                     Clock::now(), why);
  }
  ~Harness() {
    if (nodes) nodes->Stop();
    if (pods) pods->Stop();
  }
};

TEST(ReadinessTest, QuietOpenWatchStaysReady) {
  Harness h;
  h.api->AddNode(NodeJson("n1", 8));
  h.api->AddPod(PodJson("ml", "a", 2, 0, "n1"));
  h.Start();
  // Both watches open: their requests came back 200, and no event follows.
  ASSERT_TRUE(Eventually([&] { return h.nodes->connected() && h.pods->connected(); }));
  const int watches = h.api->watches("nodes") + h.api->watches("pods");
  std::this_thread::sleep_for(std::chrono::duration<double>(4 * Harness::kStaleAfter));
  std::string why;
  EXPECT_TRUE(h.Ready(&why)) << why;
  EXPECT_EQ(why, "");
  EXPECT_TRUE(h.nodes->connected());
  EXPECT_TRUE(h.pods->connected());
  // Still the same watches (none ended and was started again meanwhile).
  EXPECT_EQ(h.api->watches("nodes") + h.api->watches("pods"), watches);
}

TEST(ReadinessTest, GoneApiServerTurnsStaleWithTheLastError) {
  Harness h;
  h.api->AddNode(NodeJson("n1", 8));
  h.Start();
  ASSERT_TRUE(Eventually([&] { return h.nodes->connected() && h.pods->connected(); }));
  std::string why;
  ASSERT_TRUE(h.Ready(&why)) << why;
  h.api.reset();  // the API server goes away; nothing listens on its port
  const std::string prefix = "stale: no word from the API server about nodes for ";
  // The watch is retried (client-go retries a refused watch) from the last
  // resourceVersion, whose number the fake server chose.
  const std::string middle = "Z (--stale-after 0.2); last error: watch failed: cannot reach the API server at " +
                             h.url + " (Connection); retrying from resourceVersion ";
  ASSERT_TRUE(Eventually([&] {
    why.clear();
    if (h.Ready(&why) || why.rfind(prefix, 0) != 0) return false;
    const size_t at = why.find(middle);
    return at != std::string::npos && at + middle.size() < why.size() &&
           why.find_first_not_of("0123456789", at + middle.size()) == std::string::npos;
  })) << why;
  EXPECT_FALSE(h.nodes->connected());
  EXPECT_FALSE(h.pods->connected());
}

}  // namespace
}  // namespace gpusched
