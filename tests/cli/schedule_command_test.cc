// `gpusched schedule` and `gpusched explain` on generated clusters: what
// `explain` costs, and that it decides what `schedule` decides.
#include <malloc.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "generated_cluster.h"
#include "gpusched/cli/cli.h"

// Live heap bytes, counted while g_counting is on: this binary's operator
// new and delete go through here (malloc_usable_size measures each block,
// so frees need no size).
namespace {
std::atomic<bool> g_counting{false};
std::atomic<int64_t> g_live{0};
std::atomic<int64_t> g_peak{0};

void* Allocate(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  if (g_counting.load(std::memory_order_relaxed)) {
    const int64_t now = g_live.fetch_add(static_cast<int64_t>(malloc_usable_size(p))) +
                        static_cast<int64_t>(malloc_usable_size(p));
    int64_t peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
  }
  return p;
}

void Free(void* p) noexcept {
  if (!p) return;
  if (g_counting.load(std::memory_order_relaxed)) g_live.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
}
}  // namespace

// Every unaligned form, nothrow ones included (std::stable_sort's buffer
// comes from nothrow new): new and delete must pair up, as ASan checks.
// Aligned forms keep the library's own new and delete, also paired.
void* operator new(std::size_t n) { return Allocate(n); }
void* operator new[](std::size_t n) { return Allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return Allocate(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, std::size_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

// Peak live heap (bytes) of one in-process run of the command line.
int64_t PeakHeap(const std::vector<std::string>& args, CliRun* run) {
  g_live = 0;
  g_peak = 0;
  g_counting = true;
  *run = Cli(args);
  g_counting = false;
  return g_peak.load();
}

// The issue's cluster: 1,000 nodes and 5,000 pods. `explain` used to record
// every pod's per-node explanation to print one (1.4 GB); it records one pod's.
TEST(ScheduleCommandTest, ExplainOnAThousandNodesKeepsMemoryUnder100MB) {
  const std::string path = ::testing::TempDir() + "/generated-1000x5000.yaml";
  testing::WriteGeneratedCluster(path, 1000, 5000);
  CliRun schedule, explain;
  const int64_t schedule_peak = PeakHeap({"schedule", "-f", path, "-o", "json"}, &schedule);
  const int64_t explain_peak = PeakHeap({"explain", "-f", path, "pod-4999"}, &explain);
  ASSERT_EQ(schedule.code, 0) << schedule.err;
  ASSERT_EQ(explain.code, 0) << explain.err;
  ASSERT_EQ(explain.out.rfind("pod default/pod-4999 requests ", 0), 0u) << explain.out;
  ::testing::Test::RecordProperty("schedule_peak_heap_bytes", std::to_string(schedule_peak));
  ::testing::Test::RecordProperty("explain_peak_heap_bytes", std::to_string(explain_peak));
  EXPECT_LT(explain_peak, int64_t{100} << 20) << "schedule " << schedule_peak << " B, explain " << explain_peak << " B";
}

// What `explain POD` says happened to POD is what `schedule` did with it,
// for every policy (explain records it through the plain scan; the batch's
// other pods take the fast paths).
TEST(ScheduleCommandTest, ExplainDecidesWhatScheduleDecides) {
  const std::string path = ::testing::TempDir() + "/generated-30x200.yaml";
  testing::WriteGeneratedCluster(path, 30, 200, 7);
  for (const char* policy : {"first-fit", "best-fit", "worst-fit", "kube-default", "fgd", "dot-product", "random"}) {
    SCOPED_TRACE(policy);
    CliRun s = Cli({"schedule", "-f", path, "--policy", policy, "-o", "json"});
    ASSERT_EQ(s.code, 0) << s.err;
    const nlohmann::json j = nlohmann::json::parse(s.out);
    std::map<std::string, std::string> outcome;  // pod -> "chosen: node" / "pending: message"
    for (const auto& p : j["placements"]) outcome[p["pod"]] = "chosen: " + p["node"].get<std::string>() + " (";
    for (const auto& p : j["pending"]) outcome[p["pod"]] = "pending: " + p["message"].get<std::string>() + "\n";
    ASSERT_GT(j["pending"].size(), 10u);
    ASSERT_GT(j["placements"].size(), 5u);
    for (size_t i = 0; i < 200; i += 7) {
      const std::string pod = "pod-" + std::to_string(i);
      CliRun e = Cli({"explain", "-f", path, "--policy", policy, pod});
      ASSERT_EQ(e.code, 0) << e.err;
      EXPECT_NE(e.out.find("\n" + outcome[pod]), std::string::npos) << pod << ": " << outcome[pod] << "\n" << e.out;
    }
  }
}

TEST(ScheduleCommandTest, QuietOnTheSeed) {
  CliRun r = Cli({"schedule", "-f", std::string(GPUSCHED_SOURCE_DIR) + "/examples/seed", "--quiet"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "summary: 2 nodes, 5 pods: 4 placed, 1 pending (0 can never fit), 0 rejected\n"
            "  GPUs: 9 requested, 6 capacity, 6 allocated (100%), 0 free\n"
            "  the pods request 9 GPUs but the cluster has 6: no queue order or policy can place them all at once; at "
            "least 3 GPUs' worth of pods must wait for others to finish\n"
            "\n"
            "why pending, by reason (1 pod in 1 group):\n"
            "  1 pod asking 3 nvidia.com/gpu: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n"
            "    waiting for room: it needs 3 nvidia.com/gpu on one node; when it was considered, the only node big "
            "enough was gpu-node-1 (4 in all, 1 free); it is placed when running pods finish (pending is not an "
            "error)\n"
            "    pod: training-job-c\n");
  // Rejected objects are not in the quiet table: they go to stderr.
  CliRun rej = Cli({"schedule", "-f", std::string(GPUSCHED_SOURCE_DIR) + "/examples/mistakes/fractional-gpu", "-q"});
  EXPECT_EQ(rej.code, 1);
  EXPECT_NE(rej.err.find("error: " + std::string(GPUSCHED_SOURCE_DIR) +
                         "/examples/mistakes/fractional-gpu/cluster.yaml:27: The Pod \"half-a-gpu\" is invalid"),
            std::string::npos)
      << rej.err;
}

// A pending pod with a deletionTimestamp is not attempted (kube-scheduler's
// skipPodSchedule), whatever room there is; JSON names its reason.
TEST(ScheduleCommandTest, PendingPodBeingDeletedIsNotAttempted) {
  const std::string path = ::testing::TempDir() + "/being-deleted.yaml";
  std::ofstream(path) << R"(apiVersion: v1
kind: Node
metadata: {name: gpu-node-a}
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "110", nvidia.com/gpu: "4"}
---
apiVersion: v1
kind: Pod
metadata: {name: old-replica, namespace: ml, deletionTimestamp: "2026-12-07T10:00:00Z"}
spec:
  containers:
  - {name: c, image: pytorch, resources: {limits: {nvidia.com/gpu: "1"}}}
)";
  CliRun r = Cli({"schedule", "-f", path});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("  ml/old-replica: skip schedule deleting pod: ml/old-replica\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("summary: 1 node, 1 pod: 0 placed, 1 pending (0 can never fit), 0 rejected\n"
                       "  GPUs: 1 requested, 4 capacity, 0 allocated (0%), 4 free\n"
                       "  1 pending pod is being deleted (metadata.deletionTimestamp) and not attempted, as "
                       "kube-scheduler skips such pods\n"),
            std::string::npos)
      << r.out;
  CliRun j = Cli({"schedule", "-f", path, "-o", "json"});
  ASSERT_EQ(j.code, 0) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["pending"][0]["reason"], "being-deleted") << j.out;
}

}  // namespace
}  // namespace gpusched
