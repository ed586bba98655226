// Tests for gpusched::ClusterState (src/model/cluster_state.cc).
//
// Upstream sources:
//   github.com/kubernetes/kubernetes pkg/apis/core/v1/defaults.go
//     (SetDefaults_NodeStatus: status.allocatable, when absent, is a copy of
//     status.capacity; a present but empty allocatable stays empty)
//   pkg/scheduler/framework/types.go (NodeInfo: allocatable and requested
//     resources, the pod count)
//
// Device indices are not kube-scheduler's business: the NVIDIA device plugin
// hands a container whole devices, and gpusched models it as "lowest free
// index first". Those expectations (marked "ours") follow the contract in
// include/gpusched/model/cluster_state.h.
#include "gpusched/model/cluster_state.h"

#include <gtest/gtest.h>

#include "model_test_util.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/quantity.h"
#include "gpusched/model/resources.h"

namespace gpusched {
namespace {

using testing::Q;
using testing::RL;

Node MakeNode(const std::string& name, ResourceList capacity, ResourceList allocatable, bool has_allocatable) {
  Node n;
  n.meta.name = name;
  n.capacity = std::move(capacity);
  n.allocatable = std::move(allocatable);
  n.has_allocatable = has_allocatable;
  return n;
}

Resources Gpus(int64_t n, int64_t milli_cpu = 0) {
  Resources r;
  r.milli_cpu = milli_cpu;
  if (n != 0) r.SetScalar(kResourceGPU, n);
  return r;
}

// SetDefaults_NodeStatus: allocatable falls back to capacity only when it is
// absent, and the per-device slots follow the allocatable GPU count.
TEST(ClusterStateTest, AllocatableFallsBackToCapacity) {
  struct Case {
    const char* name;
    Node node;
    int64_t milli_cpu, gpus;
    size_t tracked_devices;
  };
  const std::vector<Case> cases = {
      {"allocatable present", MakeNode("a", RL({{"cpu", "8"}, {"nvidia.com/gpu", "8"}}),
                                       RL({{"cpu", "7500m"}, {"nvidia.com/gpu", "4"}}), true),
       7500, 4, 4},
      {"allocatable absent: capacity is used", MakeNode("b", RL({{"cpu", "8"}, {"nvidia.com/gpu", "2"}}), {}, false),
       8000, 2, 2},
      {"allocatable present but empty: nothing is allocatable", MakeNode("c", RL({{"nvidia.com/gpu", "8"}}), {}, true),
       0, 0, 0},
      {"no GPUs", MakeNode("d", RL({{"cpu", "4"}}), {}, false), 4000, 0, 0},
      // ours: a device count is clamped to [0, kMaxTrackedGpusPerNode] for
      // the per-device slots; the nvidia.com/gpu count itself is kept.
      {"more GPUs than tracked devices", MakeNode("e", RL({{"nvidia.com/gpu", "5000"}}), {}, false), 0, 5000,
       static_cast<size_t>(kMaxTrackedGpusPerNode)},
      {"negative GPU count", MakeNode("f", RL({{"nvidia.com/gpu", "-1"}}), {}, false), 0, -1, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cs({c.node});
    const NodeState& s = cs.state(0);
    EXPECT_EQ(s.allocatable.milli_cpu, c.milli_cpu);
    EXPECT_EQ(s.GpuAllocatable(), c.gpus);
    EXPECT_EQ(s.GpuRequested(), 0);
    EXPECT_EQ(s.GpuFree(), c.gpus);
    EXPECT_EQ(s.num_pods, 0);
    EXPECT_EQ(s.gpu_free_milli, std::vector<int32_t>(c.tracked_devices, kGpuMilli));
  }
}

TEST(ClusterStateTest, FindNode) {
  ClusterState cs({MakeNode("gpu-0", {}, {}, false), MakeNode("gpu-1", {}, {}, false), MakeNode("cpu-0", {}, {}, false)});
  EXPECT_EQ(cs.size(), 3u);
  struct Case {
    const char* name;
    int64_t index;
  };
  const Case cases[] = {{"gpu-0", 0}, {"gpu-1", 1}, {"cpu-0", 2}, {"gpu-2", -1}, {"", -1}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(cs.FindNode(c.name), c.index);
  }
  EXPECT_EQ(cs.node(1).name(), "gpu-1");
}

// Ours: Bind takes the lowest free device indices and accounts the request
// and the pod; Unbind reverses the Bind of the pod with those requests and
// devices, so its devices are free again for the next Bind.
TEST(ClusterStateTest, BindTakesLowestFreeIndicesAndUnbindFreesThem) {
  ClusterState cs({MakeNode("n", {}, RL({{"cpu", "64"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}}), true)});
  using Ids = std::vector<int32_t>;

  struct Step {
    const char* name;
    bool bind;          // false: Unbind
    Resources request;  // for Unbind: what the pod was bound with
    Ids unbind_gpus;    // for Unbind
    Ids want_taken;     // for Bind
    int64_t want_requested_gpus, want_pods, want_requested_cpu;
    std::vector<int32_t> want_free;  // gpu_free_milli afterwards
  };
  const int32_t F = kGpuMilli, U = 0;
  const std::vector<Step> steps = {
      {"bind 2", true, Gpus(2, 1000), {}, {0, 1}, 2, 1, 1000, {U, U, F, F, F, F, F, F}},
      {"bind 3", true, Gpus(3, 500), {}, {2, 3, 4}, 5, 2, 1500, {U, U, U, U, U, F, F, F}},
      {"bind a CPU-only pod", true, Gpus(0, 250), {}, {}, 5, 3, 1750, {U, U, U, U, U, F, F, F}},
      {"unbind the first pod", false, Gpus(2, 1000), {0, 1}, {}, 3, 2, 750, {F, F, U, U, U, F, F, F}},
      {"bind 3 fills the hole first", true, Gpus(3, 0), {}, {0, 1, 5}, 6, 3, 750, {U, U, U, U, U, U, F, F}},
      {"unbind the middle pod", false, Gpus(3, 500), {2, 3, 4}, {}, 3, 2, 250, {U, U, F, F, F, U, F, F}},
      {"bind 1", true, Gpus(1, 0), {}, {2}, 4, 3, 250, {U, U, U, F, F, U, F, F}},
      {"bind 4 takes the rest", true, Gpus(4, 0), {}, {3, 4, 6, 7}, 8, 4, 250, {U, U, U, U, U, U, U, U}},
  };
  for (const auto& s : steps) {
    SCOPED_TRACE(s.name);
    if (s.bind) {
      EXPECT_EQ(cs.Bind(0, s.request), s.want_taken);
    } else {
      cs.Unbind(0, s.request, s.unbind_gpus);
    }
    const NodeState& st = cs.state(0);
    EXPECT_EQ(st.GpuRequested(), s.want_requested_gpus);
    EXPECT_EQ(st.GpuFree(), 8 - s.want_requested_gpus);
    EXPECT_EQ(st.num_pods, s.want_pods);
    EXPECT_EQ(st.requested.milli_cpu, s.want_requested_cpu);
    EXPECT_EQ(st.gpu_free_milli, s.want_free);
    EXPECT_EQ(st.allocatable.Scalar(kResourceGPU), 8);  // allocatable never changes
  }
}

// Ours: nodes are independent; binding on one leaves the others untouched.
TEST(ClusterStateTest, NodesAreIndependent) {
  ClusterState cs({MakeNode("a", RL({{"nvidia.com/gpu", "2"}}), {}, false),
                   MakeNode("b", RL({{"nvidia.com/gpu", "2"}}), {}, false)});
  EXPECT_EQ(cs.Bind(1, Gpus(1)), std::vector<int32_t>({0}));
  EXPECT_EQ(cs.Bind(0, Gpus(2)), std::vector<int32_t>({0, 1}));
  EXPECT_EQ(cs.state(0).GpuFree(), 0);
  EXPECT_EQ(cs.state(1).GpuFree(), 1);
  EXPECT_EQ(cs.state(1).gpu_free_milli, std::vector<int32_t>({0, kGpuMilli}));
  EXPECT_EQ(cs.state(0).num_pods, 1);
  EXPECT_EQ(cs.state(1).num_pods, 1);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

Node FourGpuNode(const std::string& name) {
  Node n;
  n.meta.name = name;
  n.has_allocatable = true;
  n.allocatable["nvidia.com/gpu"] = Quantity::FromInt(4);
  n.allocatable["pods"] = Quantity::FromInt(110);
  return n;
}

TEST(ClusterStateSharesTest, SharesChargeWholeGpusLikeAReservationPod) {
  ClusterState cs({FourGpuNode("n")});
  const GpuRequest share{300, 1, true, {}};
  struct Step {
    const char* what;
    bool bind;  // else unbind `id`
    uint64_t id;
    GpuRequest gpu;
    std::vector<int32_t> devices;
    std::vector<int32_t> want_free;
    int64_t want_gpu_requested;
  };
  const std::vector<Step> steps = {
      {"share on device 1", true, 1, share, {1}, {1000, 700, 1000, 1000}, 1},
      {"second share on the same device", true, 2, share, {1}, {1000, 400, 1000, 1000}, 1},
      {"share on device 3", true, 3, GpuRequest{600, 1, true, {}}, {3}, {1000, 400, 1000, 400}, 2},
      {"first sharer leaves: device still lent", false, 1, {}, {}, {1000, 700, 1000, 400}, 2},
      {"last sharer leaves: device free again", false, 2, {}, {}, {1000, 1000, 1000, 400}, 1},
      {"two whole devices by annotation", true, 4, GpuRequest{1000, 2, true, {}}, {0, 1}, {0, 0, 1000, 400}, 3},
      {"they leave", false, 4, {}, {}, {1000, 1000, 1000, 400}, 1},
  };
  for (const auto& s : steps) {
    SCOPED_TRACE(s.what);
    if (s.bind) {
      cs.Bind(0, Resources{}, Resources{}, s.id, 0, s.gpu, s.devices);
    } else {
      EXPECT_TRUE(cs.Unbind(0, s.id));
    }
    EXPECT_EQ(cs.state(0).gpu_free_milli, s.want_free);
    EXPECT_EQ(cs.state(0).GpuRequested(), s.want_gpu_requested);
  }
}

TEST(ClusterStateSharesTest, DefaultGpuChoiceAndFits) {
  ClusterState cs({FourGpuNode("n")});
  cs.Bind(0, Resources{}, Resources{}, 1, 0, GpuRequest{600, 1, true, {}}, {2});  // free 1000,1000,400,1000
  cs.Bind(0, Resources{}, Resources{}, 2, 0, GpuRequest{200, 1, true, {}}, {0});  // free 800,1000,400,1000
  struct Case {
    GpuRequest gpu;
    std::vector<int32_t> want;
  };
  const std::vector<Case> cases = {
      {GpuRequest{300, 1, true, {}}, {2}},       // least free that fits
      {GpuRequest{500, 1, true, {}}, {0}},       // 400 is too small; 800 is next
      {GpuRequest{900, 1, true, {}}, {1}},       // lowest index among the wholly free
      {GpuRequest{1000, 2, false, {}}, {1, 3}},  // whole devices, lowest index first
      {GpuRequest{1000, 3, false, {}}, {}},      // only two wholly free
      {GpuRequest{400, 3, true, {}}, {0, 1, 2}}, // a fraction on three devices
  };
  for (const auto& c : cases) {
    EXPECT_EQ(cs.DefaultGpuChoice(0, c.gpu), c.want) << c.gpu.milli << "x" << c.gpu.count;
    EXPECT_EQ(cs.state(0).FitsGpus(c.gpu), !c.want.empty());
  }
}

TEST(ClusterStateEventsTest, AddAndRemoveNodes) {
  ClusterState cs({FourGpuNode("a"), FourGpuNode("b")});
  cs.Bind(1, Resources{}, Resources{}, 7, 0, GpuRequest{500, 1, true, {}}, {0});
  cs.Bind(1, Resources{}, Resources{}, 8, 0, GpuRequest{1000, 1, true, {}}, {1});
  EXPECT_EQ(cs.num_present(), 2u);
  std::vector<BoundPod> evicted = cs.RemoveNode(1);
  ASSERT_EQ(evicted.size(), 2u);
  EXPECT_EQ(evicted[0].id, 7u);
  EXPECT_EQ(evicted[1].id, 8u);
  EXPECT_FALSE(cs.present(1));
  EXPECT_EQ(cs.num_present(), 1u);
  EXPECT_EQ(cs.FindNode("b"), -1);
  EXPECT_EQ(cs.state(1).gpu_free_milli, std::vector<int32_t>(4, 1000));
  EXPECT_EQ(cs.state(1).GpuRequested(), 0);
  EXPECT_TRUE(cs.RemoveNode(1).empty());  // removing twice is a no-op
  EXPECT_EQ(cs.AddNode(FourGpuNode("b")), 2u);
  EXPECT_EQ(cs.FindNode("b"), 2);
  EXPECT_EQ(cs.num_present(), 2u);
  EXPECT_EQ(cs.size(), 3u);
}

// Ours: pod_ids mirrors the ids of `pods`, in bind order, through binds,
// unbinds (first, middle, last) and a removal.
TEST(ClusterStateTest, PodIdsFollowPods) {
  ClusterState cs({FourGpuNode("a")});
  struct Step {
    const char* name;
    bool bind;
    uint64_t id;
    bool want_found;  // for Unbind
    std::vector<uint64_t> want_ids;
  };
  const Step steps[] = {
      {"bind 1", true, 1, true, {1}},
      {"bind 2", true, 2, true, {1, 2}},
      {"bind 3", true, 3, true, {1, 2, 3}},
      {"bind 4", true, 4, true, {1, 2, 3, 4}},
      {"unbind the middle", false, 2, true, {1, 3, 4}},
      {"unbind the first", false, 1, true, {3, 4}},
      {"unbind an unknown id", false, 9, false, {3, 4}},
      {"unbind the last", false, 4, true, {3}},
      {"bind 5", true, 5, true, {3, 5}},
  };
  for (const Step& st : steps) {
    SCOPED_TRACE(st.name);
    if (st.bind) {
      cs.Bind(0, Gpus(0, 100), Gpus(0, 100), st.id, 0);
    } else {
      EXPECT_EQ(cs.Unbind(0, st.id), st.want_found);
    }
    std::vector<uint64_t> from_pods;
    for (const BoundPod& p : cs.state(0).pods) from_pods.push_back(p.id);
    EXPECT_EQ(cs.state(0).pod_ids, st.want_ids);
    EXPECT_EQ(from_pods, st.want_ids);
  }
  cs.RemoveNode(0);
  EXPECT_TRUE(cs.state(0).pod_ids.empty());
}

// Ours: serial() is unique per object; a copy (constructed or assigned) is
// another cluster to the indexes that follow a change log.
TEST(ClusterStateTest, SerialIsNewForEveryCopy) {
  ClusterState a({FourGpuNode("a")}), b({FourGpuNode("a")});
  EXPECT_NE(a.serial(), b.serial());
  ClusterState c = a;
  EXPECT_NE(c.serial(), a.serial());
  const uint64_t before = b.serial();
  b = a;
  EXPECT_NE(b.serial(), before);
  EXPECT_NE(b.serial(), a.serial());
  EXPECT_EQ(b.change_log(), a.change_log());
}

// Ours: every change bumps version() and names its node in the change log,
// which holds at least max(kMinChangesHeld, node slots) of the latest
// entries and never more than twice that, however many changes there were.
TEST(ClusterStateTest, ChangeLogIsBoundedAndVersionCountsChanges) {
  ClusterState cs({FourGpuNode("a"), FourGpuNode("b")});
  EXPECT_EQ(cs.version(), 2u);  // one entry per node added
  EXPECT_EQ(cs.change_log().begin(), 0u);
  EXPECT_EQ(cs.change_log()[0], 0u);
  EXPECT_EQ(cs.change_log()[1], 1u);
  Resources one;
  one.milli_cpu = 100;
  constexpr uint64_t kChanges = 10 * ClusterState::kMinChangesHeld;
  for (uint64_t k = 0; k < kChanges / 2; ++k) {
    cs.Bind(k % 2, one, one, k);
    ASSERT_TRUE(cs.Unbind(k % 2, k));
  }
  const ChangeLog& log = cs.change_log();
  EXPECT_EQ(cs.version(), 2 + kChanges);
  EXPECT_EQ(log.end(), cs.version());
  const uint64_t held = log.end() - log.begin();
  EXPECT_GE(held, ClusterState::kMinChangesHeld);
  EXPECT_LE(held, 2 * ClusterState::kMinChangesHeld);
  // The entries held are the latest: binds and unbinds alternating a, b.
  EXPECT_EQ(log[log.end() - 1], 1u);
  EXPECT_EQ(log[log.end() - 3], 0u);
  EXPECT_TRUE(log.Holds(log.end() - ClusterState::kMinChangesHeld));
  EXPECT_FALSE(log.Holds(0));
  // Removing and adding nodes are changes too.
  const uint64_t before = cs.version();
  cs.RemoveNode(0);
  cs.AddNode(FourGpuNode("c"));
  EXPECT_EQ(cs.version(), before + 2);
  EXPECT_EQ(log[before], 0u);
  EXPECT_EQ(log[before + 1], 2u);
}

// Ours: the PreferNoSchedule flag the scorers read instead of the taints.
TEST(ClusterStateTest, PreferNoScheduleTaintFlag) {
  struct Case {
    const char* name;
    std::vector<Taint> taints;
    bool want;
  };
  const Case cases[] = {
      {"no taints", {}, false},
      {"NoSchedule only", {{"k", "v", "NoSchedule"}}, false},
      {"PreferNoSchedule", {{"k", "", "PreferNoSchedule"}}, true},
      {"among others", {{"a", "", "NoExecute"}, {"b", "", "PreferNoSchedule"}}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Node n = FourGpuNode("n");
    n.taints = c.taints;
    ClusterState cs({n});
    EXPECT_EQ(cs.state(0).prefer_no_schedule_taint, c.want);
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// The FGD simulator's node (example/test-cluster/node/pai-node-01.yaml): its
// 4 alibabacloud.com/gpu-count devices are 4 GPUs of 1000 milli each, and
// shares from the trace annotations land on them.
TEST(ClusterStateAlibabaTest, GpuCountNodesHaveDevices) {
  ClusterState c({MakeNode("pai-node-01", {},
                           RL({{"alibabacloud.com/gpu-count", "4"}, {"alibabacloud.com/gpu-milli", "4000"},
                               {"cpu", "64"}, {"memory", "256000Mi"}, {"pods", "110"}}),
                           true)});
  EXPECT_EQ(c.state(0).GpuAllocatable(), 4);
  EXPECT_EQ(c.state(0).gpu_free_milli, (std::vector<int32_t>{1000, 1000, 1000, 1000}));
  GpuRequest share{500, 1, true, {}};
  std::vector<int32_t> d = c.DefaultGpuChoice(0, share);
  ASSERT_EQ(d, std::vector<int32_t>{0});
  c.Bind(0, Resources{}, Resources{}, 7, 0, share, d);
  EXPECT_EQ(c.state(0).gpu_free_milli, (std::vector<int32_t>{500, 1000, 1000, 1000}));
  EXPECT_EQ(c.state(0).GpuRequested(), 1);  // the shared device is reserved
}

// KAI's gpu-memory takes, on each node, the share its memory is of the
// node's GPU memory (nvidia.com/gpu.memory, floored to hundreds).
TEST(ClusterStateKaiTest, GpuMemorySharesPerNode) {
  Node a100 = MakeNode("a100", {}, RL({{"nvidia.com/gpu", "2"}, {"pods", "110"}}), true);
  a100.meta.labels["nvidia.com/gpu.memory"] = "81920";
  Node l4 = MakeNode("l4", {}, RL({{"nvidia.com/gpu", "1"}, {"pods", "110"}}), true);
  l4.meta.labels["nvidia.com/gpu.memory"] = "23034";
  Node bare = MakeNode("bare", {}, RL({{"nvidia.com/gpu", "4"}, {"pods", "110"}}), true);
  ClusterState c({a100, l4, bare});
  EXPECT_EQ(c.state(0).gpu_memory_mib, 81900);
  EXPECT_EQ(c.state(1).gpu_memory_mib, 23000);
  EXPECT_EQ(c.state(2).gpu_memory_mib, -1);
  GpuRequest mem;
  mem.milli = 1;
  mem.count = 1;
  mem.from_annotations = true;
  mem.memory_mib = 20000;
  EXPECT_EQ(c.state(0).GpuMilliFor(mem), 245);
  EXPECT_EQ(c.state(1).GpuMilliFor(mem), 870);
  EXPECT_EQ(c.state(2).GpuMilliFor(mem), 0);
  EXPECT_TRUE(c.state(0).FitsGpus(mem));
  EXPECT_FALSE(c.state(2).FitsGpus(mem));
  EXPECT_TRUE(c.DefaultGpuChoice(2, mem).empty());
  std::vector<int32_t> d = c.DefaultGpuChoice(1, mem);
  ASSERT_EQ(d, std::vector<int32_t>{0});
  c.Bind(1, Resources{}, Resources{}, 1, 0, mem, d);
  EXPECT_EQ(c.state(1).gpu_free_milli, std::vector<int32_t>{130});
  EXPECT_FALSE(c.state(1).FitsGpus(mem));  // 870 more do not fit in 130
  // Unbinding gives the node's share back.
  EXPECT_TRUE(c.Unbind(1, 1));
  EXPECT_EQ(c.state(1).gpu_free_milli, std::vector<int32_t>{1000});
}

}  // namespace
}  // namespace gpusched
