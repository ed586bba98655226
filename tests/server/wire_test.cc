// src/server/wire.cc: extender/v1 as kube-scheduler marshals and reads it.
// The marshalled forms are KS extender/v1/types_test.go's (TestCompatibility),
// and like it the decoders are checked on the lower-cased text too (Go
// matches field names ignoring case).
#include "gpusched/server/wire.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

namespace gpusched {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// types_test.go's ExtenderPreemptionResult case.
TEST(WireTest, PreemptionResultMarshalsAsUpstream) {
  NodeToMetaVictims v{{"foo", MetaVictims{{"myuid"}, 1}}};
  EXPECT_EQ(EncodePreemptionResult(v), R"({"NodeNameToMetaVictims":{"foo":{"Pods":[{"UID":"myuid"}],"NumPDBViolations":1}}})");
  EXPECT_EQ(EncodePreemptionResult({}), R"({"NodeNameToMetaVictims":{}})");
}

TEST(WireTest, BindingResultAndHostPriorityMarshalAsUpstream) {
  EXPECT_EQ(EncodeBindingResult("myerror"), R"({"Error":"myerror"})");
  EXPECT_EQ(EncodeHostPriorityList({{"myhost", 1}}), R"([{"Host":"myhost","Score":1}])");
  EXPECT_EQ(EncodeHostPriorityList({}), "[]");
}

// types_test.go's ExtenderFilterResult case (NodeNames form; the Nodes form
// echoes the request's items) with FailedAndUnresolvableNodes, which the
// current types.go has after FailedNodes.
TEST(WireTest, FilterResultMarshalsAsUpstream) {
  ExtenderFilterResult r;
  r.node_names = {"node1"};
  r.failed = {{"foo", "bar"}};
  r.error = "myerror";
  EXPECT_EQ(EncodeFilterResult(r),
            R"({"Nodes":null,"NodeNames":["node1"],"FailedNodes":{"foo":"bar"},"FailedAndUnresolvableNodes":{},"Error":"myerror"})");
  std::string text = R"({"metadata":{"name":"nodename","creationTimestamp":null},"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}}}})";
  WithJsonBody(text, [&](const DocNode& node) {
    ExtenderFilterResult full;
    full.names = false;
    full.nodes = {node};
    EXPECT_EQ(EncodeFilterResult(full), R"({"Nodes":{"metadata":{},"items":[)" + text +
                                            R"(]},"NodeNames":null,"FailedNodes":{},"FailedAndUnresolvableNodes":{},"Error":""})");
  });
}

// types_test.go's ExtenderArgs case, as sent and lower-cased.
TEST(WireTest, DecodesExtenderArgsAnyCase) {
  const std::string text =
      R"({"Pod":{"metadata":{"name":"podname","creationTimestamp":null},"spec":{"containers":null},"status":{}},)"
      R"("Nodes":{"metadata":{},"items":[{"metadata":{"name":"nodename","creationTimestamp":null},"spec":{},"status":{}}]},)"
      R"("NodeNames":["node1"]})";
  for (const std::string& t : {text, Lower(text)}) {
    ASSERT_TRUE(WithJsonBody(t, [&](const DocNode& root) {
                  ExtenderArgs a;
                  ASSERT_TRUE(DecodeExtenderArgs(root, a).ok());
                  EXPECT_TRUE(a.pod.IsMap());
                  EXPECT_TRUE(a.has_nodes);
                  ASSERT_EQ(a.node_items.size(), 1u);
                  EXPECT_EQ(NodeItemName(a.node_items[0]), "nodename");
                  EXPECT_TRUE(a.has_node_names);
                  EXPECT_EQ(a.node_names, std::vector<std::string_view>{"node1"});
                }).ok());
  }
}

TEST(WireTest, DecodesBindingAndPreemptionArgsAnyCase) {
  const std::string bind = R"({"PodName":"mypodname","PodNamespace":"mypodnamespace","PodUID":"mypoduid","Node":"mynode"})";
  for (const std::string& t : {bind, Lower(bind)}) {
    WithJsonBody(t, [&](const DocNode& root) {
      ExtenderBindingArgs a;
      ASSERT_TRUE(DecodeExtenderBindingArgs(root, a).ok());
      EXPECT_EQ(a.pod_name, "mypodname");
      EXPECT_EQ(a.pod_namespace, "mypodnamespace");
      EXPECT_EQ(a.pod_uid, "mypoduid");
      EXPECT_EQ(a.node, "mynode");
    });
  }
  // types_test.go's ExtenderPreemptionArgs: both maps; the meta form wins.
  const std::string preempt =
      R"({"Pod":{"metadata":{"name":"podname","creationTimestamp":null},"spec":{"containers":null},"status":{}},)"
      R"("NodeNameToVictims":{"foo":{"Pods":[{"metadata":{"name":"podname","uid":"fulluid"},"spec":{"containers":null},"status":{}}],"NumPDBViolations":1}},)"
      R"("NodeNameToMetaVictims":{"foo":{"Pods":[{"UID":"myuid"}],"NumPDBViolations":1}}})";
  WithJsonBody(preempt, [&](const DocNode& root) {
    ExtenderPreemptionArgs a;
    ASSERT_TRUE(DecodeExtenderPreemptionArgs(root, a).ok());
    EXPECT_EQ(a.victims, (NodeToMetaVictims{{"foo", MetaVictims{{"myuid"}, 1}}}));
  });
  // nodeCacheCapable: false sends only full pods: their UIDs are kept.
  const std::string full =
      R"({"Pod":{"metadata":{"name":"p"}},"NodeNameToVictims":{"n1":{"Pods":[{"metadata":{"name":"v","uid":"u-v"}}],"NumPDBViolations":0}},"NodeNameToMetaVictims":null})";
  WithJsonBody(full, [&](const DocNode& root) {
    ExtenderPreemptionArgs a;
    ASSERT_TRUE(DecodeExtenderPreemptionArgs(root, a).ok());
    EXPECT_EQ(a.victims, (NodeToMetaVictims{{"n1", MetaVictims{{"u-v"}, 0}}}));
  });
}

// A later key wins, as in Go, whatever its case.
TEST(WireTest, LastMatchingKeyWins) {
  WithJsonBody(R"({"PodName":"a","podname":"b","Node":"n"})", [&](const DocNode& root) {
    ExtenderBindingArgs a;
    ASSERT_TRUE(DecodeExtenderBindingArgs(root, a).ok());
    EXPECT_EQ(a.pod_name, "b");
  });
}

TEST(WireTest, TypeErrorsInGoWords) {
  struct Case {
    const char* body;
    std::string want;
  };
  const Case args_cases[] = {
      {R"({"Pod":{},"NodeNames":"a"})", "json: cannot unmarshal string into Go struct field ExtenderArgs.NodeNames of type []string"},
      {R"({"Pod":{},"NodeNames":[1]})", "json: cannot unmarshal number into Go struct field ExtenderArgs.NodeNames of type string"},
      {R"({"Pod":[],"NodeNames":[]})", "json: cannot unmarshal array into Go struct field ExtenderArgs.Pod of type v1.Pod"},
      {R"({"Pod":null,"NodeNames":[]})", "ExtenderArgs.Pod is null: there is no pod to schedule"},
      {R"({"Pod":{},"Nodes":{"items":{}}})", "json: cannot unmarshal object into Go struct field NodeList.items of type []v1.Node"},
      {R"([1])", "json: cannot unmarshal array into Go value of type v1.ExtenderArgs"},
  };
  for (const Case& c : args_cases) {
    Status got;
    ASSERT_TRUE(WithJsonBody(c.body, [&](const DocNode& root) {
                  ExtenderArgs a;
                  got = DecodeExtenderArgs(root, a);
                }).ok());
    EXPECT_EQ(got.message(), c.want) << c.body;
  }
  Status got;
  WithJsonBody(R"({"PodName":7})", [&](const DocNode& root) {
    ExtenderBindingArgs a;
    got = DecodeExtenderBindingArgs(root, a);
  });
  EXPECT_EQ(got.message(), "json: cannot unmarshal number into Go struct field ExtenderBindingArgs.PodName of type string");
  WithJsonBody(R"({"Pod":{},"NodeNameToMetaVictims":{"n":{"NumPDBViolations":"x"}}})", [&](const DocNode& root) {
    ExtenderPreemptionArgs a;
    got = DecodeExtenderPreemptionArgs(root, a);
  });
  EXPECT_EQ(got.message(),
            "json: cannot unmarshal string into Go struct field MetaVictims.NumPDBViolations of type int64");
}

TEST(WireTest, BodyErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "the body is empty: expected a JSON object"},
      {"   ", "the body is empty: expected a JSON object"},
      {"hello", "the body is not a JSON object or array"},
      {"{\"Pod\":", "cannot parse JSON at line 1, column 8: unexpected end of JSON input"},
      {"{} {}", "the body holds 2 JSON values, not one"},
  };
  for (const auto& [body, want] : cases) {
    Status s = WithJsonBody(body, [](const DocNode&) {});
    EXPECT_EQ(s.message(), want) << body;
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// A body with something after its value is refused without `f` seeing the
// value: a refused request has no effect.
TEST(WireTest, NothingIsDecodedFromABodyWithTrailingData) {
  const std::pair<const char*, const char*> cases[] = {
      {"{\"PodName\":\"p\"} {}", "the body holds 2 JSON values, not one"},
      {"{\"PodName\":\"p\",\"x\":\"}\\\"\"} {}", "the body holds 2 JSON values, not one"},
      {"[1] x", "cannot parse JSON at line 1, column 5: invalid character 'x' looking for beginning of value"},
  };
  for (const auto& [body, want] : cases) {
    int calls = 0;
    Status s = WithJsonBody(body, [&](const DocNode&) { ++calls; });
    EXPECT_EQ(s.message(), want) << body;
    EXPECT_EQ(calls, 0) << body;
  }
  int calls = 0;
  EXPECT_TRUE(WithJsonBody("\xEF\xBB\xBF {\"a\":\"]\"} \n", [&](const DocNode&) { ++calls; }).ok());
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace gpusched
