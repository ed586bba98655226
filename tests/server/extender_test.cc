// src/server/extender.cc: every verb's response for both node-cache modes
// (compared after canonical JSON ordering), hostile and faulty input, binds
// that fail, and many threads at once.
#include "gpusched/server/extender.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_cluster.h"

namespace gpusched {
namespace {

using testing::ArgsWithNames;
using testing::ArgsWithNodes;
using testing::Canonical;
using testing::json;
using testing::NodeJson;
using testing::PodJson;

class FakeBinder : public Binder {
 public:
  BindResult Bind(const Pod& pod, const std::string& node, const std::map<std::string, std::string>& annotations) override {
    std::lock_guard<std::mutex> l(mu);
    calls.push_back(pod.ns() + "/" + pod.name() + "->" + node);
    last_annotations = annotations;
    return error.empty() ? BindResult() : BindResult(Status::IOError(error), maybe_bound);
  }
  std::mutex mu;
  std::vector<std::string> calls;
  std::map<std::string, std::string> last_annotations;
  std::string error;
  bool maybe_bound = false;
};

// gpu-a: 8 free GPUs; gpu-b: 8 GPUs, 4 taken; gpu-c: cordoned; gpu-d: 2 GPUs.
struct Fixture {
  std::vector<json> nodes = {NodeJson("gpu-a", 8), NodeJson("gpu-b", 8), NodeJson("gpu-c", 8), NodeJson("gpu-d", 2)};
  Metrics metrics;
  FakeBinder binder;
  ExtenderService ext;
  explicit Fixture(const std::string& policy = "best-fit", bool static_snapshot = true, Binder* b = nullptr)
      : ext(testing::Factory(policy), ExtenderOptions{static_snapshot, 30, 1}, b ? b : &binder, &metrics) {
    nodes[2]["spec"]["unschedulable"] = true;
    std::vector<Node> ns;
    for (const json& n : nodes) ns.push_back(testing::DecodeNode(n));
    std::vector<std::pair<Pod, bool>> pods = {{testing::DecodePod(PodJson("ml", "running", 4, 0, "gpu-b")), false}};
    ext.Update([&](ClusterView& v) {
      v.ReplaceNodes(ns);
      v.ReplacePods(pods);
    });
    EXPECT_TRUE(ext.MarkSynced().ok());
  }
};

const std::vector<std::string> kNames = {"gpu-a", "gpu-b", "gpu-c", "gpu-d", "gpu-zz"};

// gpu-d has 2 GPUs in all: since v1.34 a request above the node's
// allocatable is UnschedulableAndUnresolvable (preemption cannot help).
TEST(ExtenderTest, FilterWithNodeNames) {
  Fixture f;
  Reply r = f.ext.Filter(ArgsWithNames(PodJson("ml", "train-0", 4), kNames));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body,
            R"({"Nodes":null,"NodeNames":["gpu-a","gpu-b"],)"
            R"("FailedNodes":{"gpu-zz":"node(s) were not in gpusched's cluster view"},)"
            R"("FailedAndUnresolvableNodes":{"gpu-c":"node(s) were unschedulable","gpu-d":"Insufficient nvidia.com/gpu"},)"
            R"("Error":""})");
}

// The volume plugins read the claims and volumes the view holds (listed
// and watched like nodes and pods, server/reflector.h): a pod whose claim is
// bound to a local PV on gpu-b passes gpu-b only; a pod whose claim does not
// exist fails VolumeBinding's PreFilter on every node. Without objects in
// the view (before this, always) both passed every node with room.
TEST(ExtenderTest, VolumeBindingSeesTheListedClaims) {
  Fixture f("kube-default");
  for (auto& n : f.nodes) n["metadata"]["labels"] = {{"kubernetes.io/hostname", n["metadata"]["name"]}};
  std::vector<Node> ns;
  for (const json& n : f.nodes) ns.push_back(testing::DecodeNode(n));
  f.ext.Update([&](ClusterView& v) {
    v.ReplaceNodes(ns);
    v.UpsertObject("persistentvolumes", "pv-b", testing::DecodeObject(testing::LocalPvJson("pv-b", "gpu-b", "ml", "data"),
                                                                      "PersistentVolume", "v1"));
    v.UpsertObject("persistentvolumeclaims", "ml/data",
                   testing::DecodeObject(testing::BoundClaimJson("ml", "data", "pv-b"), "PersistentVolumeClaim", "v1"));
  });
  Reply r = f.ext.Filter(ArgsWithNames(testing::WithClaim(PodJson("ml", "train-0", 2), "data"), kNames));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body,
            R"({"Nodes":null,"NodeNames":["gpu-b"],)"
            R"("FailedNodes":{"gpu-zz":"node(s) were not in gpusched's cluster view"},)"
            R"("FailedAndUnresolvableNodes":{"gpu-a":"node(s) had volume node affinity conflict",)"
            R"("gpu-c":"node(s) were unschedulable","gpu-d":"node(s) had volume node affinity conflict"},)"
            R"("Error":""})");
  auto missing = [](const std::string& claim) {
    const std::string why = R"(persistentvolumeclaim \")" + claim + R"(\" not found)";
    return R"({"Nodes":null,"NodeNames":[],"FailedNodes":{"gpu-zz":"node(s) were not in gpusched's cluster view"},)"
           R"("FailedAndUnresolvableNodes":{"gpu-a":")" + why + R"(","gpu-b":")" + why + R"(","gpu-c":")" + why +
           R"(","gpu-d":")" + why + R"("},"Error":""})";
  };
  r = f.ext.Filter(ArgsWithNames(testing::WithClaim(PodJson("ml", "train-1", 2), "missing"), kNames));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, missing("missing"));
  // The claim deleted (a watch event): the first pod's claim is missing now.
  f.ext.Update([&](ClusterView& v) { v.DeleteObject("persistentvolumeclaims", "ml/data"); });
  r = f.ext.Filter(ArgsWithNames(testing::WithClaim(PodJson("ml", "train-0", 2), "data"), kNames));
  EXPECT_EQ(r.body, missing("data"));
}

TEST(ExtenderTest, FilterWithFullNodesEchoesThem) {
  Fixture f;
  std::vector<json> nodes = f.nodes;
  nodes.push_back(NodeJson("gpu-zz", 8));
  Reply r = f.ext.Filter(ArgsWithNodes(PodJson("ml", "train-0", 4), nodes));
  EXPECT_EQ(r.status, 200);
  json want = {{"Nodes", {{"metadata", json::object()}, {"items", {nodes[0], nodes[1]}}}},
               {"NodeNames", nullptr},
               {"FailedNodes", {{"gpu-zz", "node(s) were not in gpusched's cluster view"}}},
               {"FailedAndUnresolvableNodes",
                {{"gpu-c", "node(s) were unschedulable"}, {"gpu-d", "Insufficient nvidia.com/gpu"}}},
               {"Error", ""}};
  EXPECT_EQ(Canonical(r.body), want.dump());
}

// best-fit prefers the node the pod leaves fullest: gpu-b (4 free → 0),
// then gpu-a; the unknown and failing nodes score 0.
TEST(ExtenderTest, PrioritizeBothModes) {
  Fixture f;
  const json want = json::array({{{"Host", "gpu-a"}, {"Score", 9}},
                                 {{"Host", "gpu-b"}, {"Score", 10}},
                                 {{"Host", "gpu-c"}, {"Score", 0}},
                                 {{"Host", "gpu-d"}, {"Score", 0}},
                                 {{"Host", "gpu-zz"}, {"Score", 0}}});
  Reply names = f.ext.Prioritize(ArgsWithNames(PodJson("ml", "train-0", 4), kNames));
  EXPECT_EQ(names.status, 200);
  EXPECT_EQ(Canonical(names.body), want.dump());
  std::vector<json> nodes = f.nodes;
  nodes.push_back(NodeJson("gpu-zz", 8));
  Reply full = f.ext.Prioritize(ArgsWithNodes(PodJson("ml", "train-0", 4), nodes));
  EXPECT_EQ(Canonical(full.body), want.dump());
}

// A scoring policy: FGD's scores min-max scaled, its choice at 10.
TEST(ExtenderTest, PrioritizeFgdPutsItsChoiceOnTop) {
  Fixture f("fgd");
  Reply r = f.ext.Prioritize(ArgsWithNames(PodJson("ml", "share", 0, 500), {"gpu-a", "gpu-b", "gpu-d"}));
  ASSERT_EQ(r.status, 200);
  json list = json::parse(r.body);
  int tens = 0;
  for (const json& h : list) {
    EXPECT_GE(h["Score"].get<int>(), 0);
    EXPECT_LE(h["Score"].get<int>(), 10);
    tens += h["Score"].get<int>() == 10;
  }
  EXPECT_EQ(tens, 1);
}

TEST(ExtenderTest, BindRecordsDevicesAndCounts) {
  Fixture f;
  const json pod = PodJson("ml", "train-0", 2);
  ASSERT_EQ(f.ext.Filter(ArgsWithNames(pod, kNames)).status, 200);
  Reply r = f.ext.Bind(R"({"PodName":"train-0","PodNamespace":"ml","PodUID":"uid-ml-train-0","Node":"gpu-b"})");
  EXPECT_EQ(r.body, R"({"Error":""})");
  EXPECT_EQ(f.binder.calls, std::vector<std::string>{"ml/train-0->gpu-b"});
  EXPECT_EQ(f.binder.last_annotations, (std::map<std::string, std::string>{{"gpusched.io/gpu-devices", "4,5"}}));
  auto placements = f.ext.Read([](const ClusterView& v) { return v.Placements(); });
  EXPECT_EQ(placements.at("ml/train-0").node, "gpu-b");
  EXPECT_EQ(placements.at("ml/train-0").devices, (std::vector<int32_t>{4, 5}));
  // Binding it again is refused: it is on a node already.
  EXPECT_EQ(f.ext.Bind(R"({"PodName":"train-0","PodNamespace":"ml","Node":"gpu-a"})").body,
            R"({"Error":"pod ml/train-0 is already on node gpu-b"})");
}

// The Open-Gpu-Share annotations for an alibabacloud.com/gpu-milli pod.
TEST(ExtenderTest, BindWritesOpenGpuShareIndex) {
  Fixture f;
  f.ext.Filter(ArgsWithNames(PodJson("ml", "share", 0, 300), kNames));
  EXPECT_EQ(f.ext.Bind(R"({"PodName":"share","PodNamespace":"ml","Node":"gpu-d"})").body, R"({"Error":""})");
  EXPECT_EQ(f.binder.last_annotations.at("gpusched.io/gpu-devices"), "0");
  EXPECT_EQ(f.binder.last_annotations.at("alibabacloud.com/gpu-index"), "0");
  EXPECT_EQ(f.binder.last_annotations.count("alibabacloud.com/assume-time"), 1u);
}

TEST(ExtenderTest, BindFailuresPassTheApiServerErrorThrough) {
  Fixture f("best-fit", /*static_snapshot=*/false);
  f.binder.error = "binding pod ml/train-0 to gpu-a failed: 409: pod train-0 is already assigned to node \"x\"";
  f.ext.Filter(ArgsWithNames(PodJson("ml", "train-0", 2), kNames));
  Reply r = f.ext.Bind(R"({"PodName":"train-0","PodNamespace":"ml","Node":"gpu-a"})");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body)["Error"], f.binder.error);
  // Forgotten: nothing counts on gpu-a, and the pod can be bound again.
  EXPECT_EQ(f.ext.Read([](const ClusterView& v) { return v.num_assumed(); }), 0u);
  f.binder.error.clear();
  EXPECT_EQ(f.ext.Bind(R"({"PodName":"train-0","PodNamespace":"ml","Node":"gpu-a"})").body, R"({"Error":""})");
  // Live mode: assumed until the watch confirms it.
  EXPECT_EQ(f.ext.Read([](const ClusterView& v) { return v.num_assumed(); }), 1u);
}

// A bind sent but unanswered within the bind timeout may still be carried
// out: the pod keeps gpu-a's GPUs (assumed) so that no other pod is given
// them before the watch tells, and kube-scheduler hears the error.
TEST(ExtenderTest, UnansweredBindKeepsItsAssumption) {
  Fixture f("best-fit", /*static_snapshot=*/false);
  f.binder.error = "binding pod ml/train-0 to gpu-a: no answer within the bind timeout";
  f.binder.maybe_bound = true;
  f.ext.Filter(ArgsWithNames(PodJson("ml", "train-0", 8), kNames));
  EXPECT_EQ(json::parse(f.ext.Bind(R"({"PodName":"train-0","PodNamespace":"ml","Node":"gpu-a"})").body)["Error"],
            f.binder.error);
  EXPECT_EQ(f.ext.Read([](const ClusterView& v) { return v.num_assumed(); }), 1u);
  Reply r = f.ext.Filter(ArgsWithNames(PodJson("ml", "train-1", 8), {"gpu-a"}));
  EXPECT_EQ(json::parse(r.body)["NodeNames"], json::array());
  EXPECT_EQ(json::parse(r.body)["FailedNodes"]["gpu-a"], "Insufficient nvidia.com/gpu");
}

TEST(ExtenderTest, BindErrors) {
  Fixture f;
  EXPECT_EQ(f.ext.Bind(R"({"PodName":"ghost","PodNamespace":"ml","Node":"gpu-a"})").body,
            R"({"Error":"gpusched has not seen pod ml/ghost: it learns a pod's spec from filter requests and from the API server's watch"})");
  f.ext.Filter(ArgsWithNames(PodJson("ml", "big", 6), kNames));
  EXPECT_EQ(f.ext.Bind(R"({"PodName":"big","PodNamespace":"ml","Node":"gpu-zz"})").body,
            R"({"Error":"node \"gpu-zz\" is not in gpusched's cluster view"})");
  EXPECT_EQ(f.ext.Bind(R"({"PodName":"big","PodNamespace":"ml","Node":"gpu-b"})").body,
            R"({"Error":"pod ml/big no longer fits on node gpu-b: Insufficient nvidia.com/gpu"})");
  Reply bad = f.ext.Bind(R"({"PodName":"big"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body, "ExtenderBindingArgs needs PodName and Node\n");
}

// /preempt answers each candidate with DefaultPreemption's victims on
// gpusched's view (server/preempt_verb.h), in the meta form, whichever form
// kube-scheduler sent: gpu-b keeps its victim (the 8-GPU pod fits once the
// 4-GPU pod of priority 0 is gone); gpu-a has no pod to evict (upstream's
// SelectVictimsOnNode: "No preemption victims found for incoming pod"),
// gpu-d (2 GPUs) can never hold 8 and gpu-zz is unknown: all three dropped.
TEST(ExtenderTest, PreemptAnswersWithGpuschedsVictimsBothModes) {
  Fixture f;
  json pod = PodJson("ml", "urgent", 8);
  pod["spec"]["priority"] = 1000;
  const json victim = {{"Pods", {{{"UID", "uid-ml-running"}}}}, {"NumPDBViolations", 0}};
  Reply meta = f.ext.Preempt(json{{"Pod", pod},
                                  {"NodeNameToVictims", nullptr},
                                  {"NodeNameToMetaVictims",
                                   {{"gpu-a", {{"Pods", json::array()}, {"NumPDBViolations", 0}}},
                                    {"gpu-b", victim},
                                    {"gpu-d", {{"Pods", json::array()}, {"NumPDBViolations", 0}}},
                                    {"gpu-zz", victim}}}}
                                 .dump());
  EXPECT_EQ(meta.status, 200);
  EXPECT_EQ(meta.body, R"({"NodeNameToMetaVictims":{"gpu-b":{"Pods":[{"UID":"uid-ml-running"}],"NumPDBViolations":0}}})");
  Reply full = f.ext.Preempt(json{{"Pod", pod},
                                  {"NodeNameToVictims",
                                   {{"gpu-b", {{"Pods", {PodJson("ml", "running", 4, 0, "gpu-b")}}, {"NumPDBViolations", 1}}}}},
                                  {"NodeNameToMetaVictims", nullptr}}
                                 .dump());
  EXPECT_EQ(full.body, R"({"NodeNameToMetaVictims":{"gpu-b":{"Pods":[{"UID":"uid-ml-running"}],"NumPDBViolations":1}}})");
  // Of equal priority, the running pod is no victim: no candidate is left.
  pod["spec"]["priority"] = 0;
  Reply equal = f.ext.Preempt(
      json{{"Pod", pod}, {"NodeNameToVictims", nullptr}, {"NodeNameToMetaVictims", {{"gpu-b", victim}}}}.dump());
  EXPECT_EQ(equal.body, R"({"NodeNameToMetaVictims":{}})");
}

TEST(ExtenderTest, HostileInputIs400WithAMessage) {
  Fixture f;
  struct Case {
    std::string body;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"{\"Pod\":{\"metadata\":", "cannot parse JSON at line 1, column 20: unexpected end of JSON input\n"},
      {"[]", "json: cannot unmarshal array into Go value of type v1.ExtenderArgs\n"},
      {R"({"Pod":{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}})",
       "ExtenderArgs has neither NodeNames (nodeCacheCapable: true) nor Nodes: no node to consider\n"},
      {R"({"Pod":{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"lots"}}}]}},"NodeNames":[]})",
       "ExtenderArgs.Pod: Pod in version \"v1\" cannot be handled as a Pod: spec.containers[0].resources.limits[cpu]: "
       "quantities must match the regular "
       "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n"},
  };
  for (const Case& c : cases) {
    Reply r = f.ext.Filter(c.body);
    EXPECT_EQ(r.status, 400) << c.body;
    EXPECT_EQ(r.body, c.want) << c.body;
    EXPECT_EQ(f.ext.Prioritize(c.body).status, 400) << c.body;
  }
  EXPECT_EQ(f.ext.Preempt("nope").status, 400);
  EXPECT_EQ(f.ext.Bind("{").status, 400);
}

TEST(ExtenderTest, NotReadyBeforeTheFirstList) {
  Metrics metrics;
  ExtenderService ext(testing::Factory("best-fit"), ExtenderOptions{}, nullptr, &metrics);
  Reply r = ext.Filter(ArgsWithNames(PodJson("ml", "p", 1), {"a"}));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(ext.Bind(R"({"PodName":"p","Node":"a"})").status, 503);
}

// Many threads filtering, prioritizing and binding pods of one GPU each on
// the same nodes: every bind that succeeds has its own GPU (the bind checks
// the filters again under the lock), and the view's accounting matches.
// Run under AddressSanitizer/UBSan in the sanitizer build.
TEST(ExtenderTest, ManyThreadsNeverDoubleBook) {
  Fixture f;
  std::atomic<int> bound{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        const std::string name = "p-" + std::to_string(t) + "-" + std::to_string(i);
        const json pod = PodJson("ml", name, 1);
        Reply fr = f.ext.Filter(ArgsWithNames(pod, kNames));
        ASSERT_EQ(fr.status, 200);
        json passed = json::parse(fr.body)["NodeNames"];
        if (passed.empty()) continue;
        Reply pr = f.ext.Prioritize(ArgsWithNames(pod, passed.get<std::vector<std::string>>()));
        json list = json::parse(pr.body);
        std::string best;
        int top = -1;
        for (const json& h : list)
          if (h["Score"].get<int>() > top) top = h["Score"], best = h["Host"];
        Reply br = f.ext.Bind(json{{"PodName", name}, {"PodNamespace", "ml"}, {"Node", best}}.dump());
        if (json::parse(br.body)["Error"] == "") ++bound;
      }
    });
  }
  for (auto& t : threads) t.join();
  // 8 + 4 + 2 free GPUs on the schedulable nodes.
  EXPECT_EQ(bound.load(), 14);
  auto placements = f.ext.Read([](const ClusterView& v) { return v.Placements(); });
  std::set<std::pair<std::string, int32_t>> devices;
  for (const auto& [key, p] : placements)
    for (int32_t d : p.devices) EXPECT_TRUE(devices.insert({p.node, d}).second) << key;
  EXPECT_EQ(devices.size(), 4u + 14u);
}

}  // namespace
}  // namespace gpusched
