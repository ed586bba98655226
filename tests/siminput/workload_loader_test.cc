#include "gpusched/siminput/workload_loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpusched {
namespace {

struct SecondsCase {
  std::string text;
  std::optional<double> seconds;
};

TEST(WorkloadLoaderTest, ParseSimSeconds) {
  const SecondsCase cases[] = {
      {"0", 0},
      {"90", 90},
      {"1.5", 1.5},
      {".5", 0.5},
      {"5.", 5},
      {"007", 7},
      {"90s", 90},
      {"5m", 300},
      {"1h30m", 5400},
      {"1.5h", 5400},
      {"250ms", 0.25},
      {"2h45m30.5s", 9930.5},
      {"1m1m", 120},  // Go adds repeated units too
      {"100us", 100e-6},
      {"100\xC2\xB5s", 100e-6},  // micro sign
      {"100\xCE\xBCs", 100e-6},  // Greek mu
      {"1500ns", 1500e-9},
      {"0s", 0},
      {"", std::nullopt},
      {"abc", std::nullopt},
      {"-5", std::nullopt},
      {"-5s", std::nullopt},
      {"+5", std::nullopt},
      {"5 s", std::nullopt},
      {" 5", std::nullopt},
      {"5m30", std::nullopt},  // a number without unit after a duration part
      {"5d", std::nullopt},
      {"5S", std::nullopt},
      {"1e3", std::nullopt},
      {"1.2.3", std::nullopt},
      {".", std::nullopt},
      {"s", std::nullopt},
      {"nan", std::nullopt},
      {"NaN", std::nullopt},
      {"inf", std::nullopt},
      {"infinity", std::nullopt},
      {"1" + std::string(400, '0'), std::nullopt},       // beyond a double
      {"1" + std::string(307, '0') + "h", std::nullopt},  // finite number, infinite seconds
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text.substr(0, 20));
    std::optional<double> got = ParseSimSeconds(c.text);
    ASSERT_EQ(got.has_value(), c.seconds.has_value());
    if (got) {
      EXPECT_DOUBLE_EQ(*got, *c.seconds);
    }
  }
}

TEST(WorkloadLoaderTest, InvalidSimSecondsTellsNegativeFromGarbage) {
  const struct {
    const char* text;
    const char* error;
  } cases[] = {
      {"-5", "t: Invalid value: \"-5\": must be greater than or equal to 0"},
      {"-1h30m", "t: Invalid value: \"-1h30m\": must be greater than or equal to 0"},
      {"-x", "t: Invalid value: \"-x\": must be a number of seconds or a duration such as 90s, 5m or 1h30m"},
      {"--5", "t: Invalid value: \"--5\": must be a number of seconds or a duration such as 90s, 5m or 1h30m"},
      {"abc", "t: Invalid value: \"abc\": must be a number of seconds or a duration such as 90s, 5m or 1h30m"},
  };
  for (const auto& c : cases) EXPECT_EQ(InvalidSimSeconds("t", c.text).ToString(), c.error) << c.text;
}

Manifests Load(const std::string& text) {
  Manifests m;
  LoadManifestText(text, "w.yaml", m);
  return m;
}

std::string Join(const std::vector<InputError>& errs) {
  std::string s;
  for (const auto& e : errs) s += e.ToString() + "\n";
  return s;
}

TEST(WorkloadLoaderTest, PodsGetArrivalAndDurationNodesGetEvents) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata:
  name: plain
spec:
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: Pod
metadata:
  name: timed
  namespace: ml
  annotations: {gpusched.io/arrival-time: "1m30s", gpusched.io/duration: "3600"}
spec:
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: Node
metadata: {name: n0}
status: {allocatable: {pods: "110"}}
---
apiVersion: v1
kind: Node
metadata:
  name: late
  annotations: {gpusched.io/add-time: 2h}
status: {allocatable: {pods: "110"}}
---
apiVersion: v1
kind: Node
metadata:
  name: leaving
  annotations: {gpusched.io/remove-time: "30m"}
status: {allocatable: {pods: "110"}}
---
apiVersion: v1
kind: Node
metadata:
  name: visitor
  annotations: {gpusched.io/add-time: 1h, gpusched.io/remove-time: 1h}
status: {allocatable: {pods: "110"}}
)");
  ASSERT_EQ(Join(m.rejected), "");
  std::vector<Node> initial;
  Workload w;
  ASSERT_TRUE(LoadManifestWorkload(m, initial, w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 2u);
  EXPECT_EQ(w.pods[0].pod.name(), "plain");
  EXPECT_EQ(w.pods[0].arrival, 0);
  EXPECT_EQ(w.pods[0].duration, -1);
  EXPECT_EQ(w.pods[0].file, "w.yaml");
  EXPECT_EQ(w.pods[0].line, 1);
  EXPECT_EQ(w.pods[1].pod.name(), "timed");
  EXPECT_EQ(w.pods[1].arrival, 90);
  EXPECT_EQ(w.pods[1].duration, 3600);
  EXPECT_EQ(w.pods[1].line, 8);

  ASSERT_EQ(initial.size(), 2u);
  EXPECT_EQ(initial[0].name(), "n0");
  EXPECT_EQ(initial[1].name(), "leaving");

  struct Event {
    double time;
    NodeEvent::Kind kind;
    std::string name;
    bool operator==(const Event&) const = default;
  };
  std::vector<Event> events;
  for (const NodeEvent& e : w.node_events) {
    events.push_back({e.time, e.kind, e.kind == NodeEvent::Kind::kAdd ? e.node.name() : e.name});
  }
  using K = NodeEvent::Kind;
  EXPECT_EQ(events, (std::vector<Event>{{7200, K::kAdd, "late"},
                                        {1800, K::kRemove, "leaving"},
                                        {3600, K::kAdd, "visitor"},
                                        {3600, K::kRemove, "visitor"}}));
  EXPECT_EQ(w.node_events[0].node.EffectiveAllocatable().at("pods").Value(), 110);
}

// Passing the manifests with std::move (as sim_inputs does) moves the pods
// and nodes instead of copying them; the workload is the same.
TEST(WorkloadLoaderTest, MovedManifestsGiveTheSameWorkload) {
  const std::string text = R"(apiVersion: v1
kind: Pod
metadata:
  name: a
  annotations: {gpusched.io/arrival-time: "5", gpusched.io/duration: "7"}
spec:
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  annotations: {gpusched.io/duration: "x"}
spec:
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: Pod
metadata: {name: c}
spec:
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: Node
metadata:
  name: both
  annotations: {gpusched.io/add-time: 1m, gpusched.io/remove-time: 2m}
status: {allocatable: {pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n0}
status: {allocatable: {pods: "110"}}
)";
  // What a workload says, as text.
  auto render = [](const Workload& w, const std::vector<Node>& initial) {
    std::string s;
    for (const WorkloadPod& p : w.pods)
      s += "pod " + p.pod.name() + " " + p.file.str() + ":" + std::to_string(p.line) + " " +
           std::to_string(p.arrival) + " " + std::to_string(p.duration) + "\n";
    for (const NodeEvent& e : w.node_events)
      s += std::string(e.kind == NodeEvent::Kind::kAdd ? "add " : "remove ") + e.name + " node=" + e.node.name() +
           " at " + std::to_string(e.time) + "\n";
    for (const Node& n : initial) s += "initial " + n.name() + "\n";
    for (const InputError& e : w.rejected) s += "rejected " + e.ToString() + "\n";
    return s;
  };
  const Manifests m = Load(text);
  std::vector<Node> copied_initial, moved_initial;
  Workload copied, moved;
  ASSERT_TRUE(LoadManifestWorkload(m, copied_initial, copied).ok());
  ASSERT_TRUE(LoadManifestWorkload(Load(text), moved_initial, moved).ok());
  EXPECT_EQ(render(moved, moved_initial),
            "pod a w.yaml:1 5.000000 7.000000\n"
            "pod c w.yaml:17 0.000000 -1.000000\n"
            "add both node=both at 60.000000\n"
            "remove both node= at 120.000000\n"
            "initial n0\n"
            "rejected w.yaml:9: The Pod \"b\" is invalid: metadata.annotations[gpusched.io/duration]: Invalid value: "
            "\"x\": must be a number of seconds or a duration such as 90s, 5m or 1h30m\n");
  EXPECT_EQ(render(copied, copied_initial), render(moved, moved_initial));
  // The pods of one file share its name.
  EXPECT_EQ(&moved.pods[0].file.str(), &moved.pods[1].file.str());
}

struct RejectCase {
  const char* name;
  std::string text;
  std::string error;  // InputError::ToString()
  std::string object;
};

TEST(WorkloadLoaderTest, BadAnnotationsRejectTheObject) {
  const std::string pod_head = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n";
  const std::string pod_tail = "spec:\n  containers: [{name: c, image: i}]\n";
  const std::string node_head = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  annotations:\n";
  const RejectCase cases[] = {
      {"garbage duration", pod_head + "    gpusched.io/duration: abc\n" + pod_tail,
       "w.yaml:1: The Pod \"p\" is invalid: metadata.annotations[gpusched.io/duration]: Invalid value: \"abc\": must "
       "be a number of seconds or a duration such as 90s, 5m or 1h30m",
       "Pod/default/p"},
      {"negative arrival", pod_head + "    gpusched.io/arrival-time: \"-5\"\n" + pod_tail,
       "w.yaml:1: The Pod \"p\" is invalid: metadata.annotations[gpusched.io/arrival-time]: Invalid value: \"-5\": "
       "must be greater than or equal to 0",
       "Pod/default/p"},
      {"negative go duration", pod_head + "    gpusched.io/duration: -1m\n" + pod_tail,
       "w.yaml:1: The Pod \"p\" is invalid: metadata.annotations[gpusched.io/duration]: Invalid value: \"-1m\": must "
       "be greater than or equal to 0",
       "Pod/default/p"},
      {"nan", pod_head + "    gpusched.io/duration: NaN\n" + pod_tail,
       "w.yaml:1: The Pod \"p\" is invalid: metadata.annotations[gpusched.io/duration]: Invalid value: \"NaN\": must "
       "be a number of seconds or a duration such as 90s, 5m or 1h30m",
       "Pod/default/p"},
      {"both bad", pod_head + "    gpusched.io/arrival-time: inf\n    gpusched.io/duration: 5x\n" + pod_tail,
       "w.yaml:1: The Pod \"p\" is invalid: \n"
       "* metadata.annotations[gpusched.io/arrival-time]: Invalid value: \"inf\": must be a number of seconds or a "
       "duration such as 90s, 5m or 1h30m\n"
       "* metadata.annotations[gpusched.io/duration]: Invalid value: \"5x\": must be a number of seconds or a "
       "duration such as 90s, 5m or 1h30m",
       "Pod/default/p"},
      {"bad add time", node_head + "    gpusched.io/add-time: soon\n",
       "w.yaml:1: The Node \"n1\" is invalid: metadata.annotations[gpusched.io/add-time]: Invalid value: \"soon\": "
       "must be a number of seconds or a duration such as 90s, 5m or 1h30m",
       "Node/n1"},
      {"removed before added", node_head + "    gpusched.io/add-time: 2h\n    gpusched.io/remove-time: 1h\n",
       "w.yaml:1: The Node \"n1\" is invalid: metadata.annotations[gpusched.io/remove-time]: Invalid value: \"1h\": "
       "must not be before gpusched.io/add-time (2h)",
       "Node/n1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text);
    ASSERT_EQ(Join(m.rejected), "");
    std::vector<Node> initial;
    Workload w;
    ASSERT_TRUE(LoadManifestWorkload(m, initial, w).ok());
    EXPECT_TRUE(w.pods.empty());
    EXPECT_TRUE(initial.empty());
    EXPECT_TRUE(w.node_events.empty());
    ASSERT_EQ(w.rejected.size(), 1u);
    EXPECT_EQ(w.rejected[0].ToString(), c.error);
    EXPECT_EQ(w.rejected[0].object, c.object);
  }
}

TEST(WorkloadLoaderTest, ManifestRejectionsAndWarningsAreCarriedOver) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata: {name: Bad_Name}
spec:
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
---
apiVersion: v1
kind: Pod
metadata:
  name: ok
  annotations: {gpusched.io/duration: 10s}
spec:
  containers: [{name: c, image: i}]
)");
  ASSERT_EQ(m.rejected.size(), 1u);
  ASSERT_EQ(m.warnings.size(), 1u);
  std::vector<Node> initial;
  Workload w;
  ASSERT_TRUE(LoadManifestWorkload(m, initial, w).ok());
  ASSERT_EQ(w.rejected.size(), 1u);
  EXPECT_EQ(w.rejected[0].object, "Pod/default/Bad_Name");
  EXPECT_EQ(w.warnings, m.warnings);
  ASSERT_EQ(w.pods.size(), 1u);
  EXPECT_EQ(w.pods[0].duration, 10);
  EXPECT_EQ(w.pods[0].line, 11);
}

TEST(WorkloadLoaderTest, SimulateExample) {
  Manifests m;
  ASSERT_TRUE(LoadManifestPaths({GPUSCHED_SOURCE_DIR "/examples/simulate/cluster.yaml",
                                 GPUSCHED_SOURCE_DIR "/examples/simulate/jobs.yaml"},
                                LoadOptions{}, m)
                  .ok());
  ASSERT_EQ(Join(m.rejected), "");
  std::vector<Node> initial;
  Workload w;
  ASSERT_TRUE(LoadManifestWorkload(m, initial, w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  EXPECT_EQ(initial.size(), 8u);
  struct Timed {
    std::string name;
    double arrival;
    double duration;
    bool operator==(const Timed&) const = default;
  };
  std::vector<Timed> pods;
  for (const WorkloadPod& wp : w.pods) pods.push_back({wp.pod.name(), wp.arrival, wp.duration});
  EXPECT_EQ(pods, (std::vector<Timed>{{"pretrain", 0, 21600},
                                      {"finetune-a", 300, 7200},
                                      {"finetune-b", 600, 5400},
                                      {"notebook", 900, 2700},
                                      {"infer-small", 1200, -1},
                                      {"infer-half", 1800, -1},
                                      {"eval", 3600, 1800},
                                      {"preprocess", 5400, 1200}}));
  ASSERT_EQ(w.node_events.size(), 2u);
  EXPECT_EQ(w.node_events[0].kind, NodeEvent::Kind::kAdd);
  EXPECT_EQ(w.node_events[0].node.name(), "a100-burst");
  EXPECT_EQ(w.node_events[0].time, 7200);
  EXPECT_EQ(w.node_events[1].kind, NodeEvent::Kind::kRemove);
  EXPECT_EQ(w.node_events[1].name, "a100-burst");
  EXPECT_EQ(w.node_events[1].time, 28800);
}

}  // namespace
}  // namespace gpusched
