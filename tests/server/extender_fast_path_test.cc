// The extender's fast path (src/server/extender.cc and extender_fast.cc with
// ExtenderOptions::plain false: the scanned body, NodeNameIndex, the node
// lists and pods kept by text, FilterCache, one-pass ranking, the fast
// writers) against the plain one it replaced, kept as the reference (the
// generic decoder and writers, every name looked up and every node filtered):
// on random clusters, random pods and random sequences of filter, prioritize
// (with the request's nodes or, as kube-scheduler sends it, with the names
// filter answered), bind and view changes, in bodies written compactly or
// with white space, every response is byte-identical, for every policy; and
// so are the answers to hostile and mutated bodies.
#include <gtest/gtest.h>

#include <random>

#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/server/extender.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using testing::json;

class Ok : public Binder {
 public:
  BindResult Bind(const Pod&, const std::string&, const std::map<std::string, std::string>&) override {
    return Status::Ok();
  }
};

struct Pair {
  Ok binder;
  std::unique_ptr<ExtenderService> fast, plain;
};

void Check(const Reply& a, const Reply& b, const std::string& what) {
  ASSERT_EQ(a.status, b.status) << what;
  ASSERT_EQ(a.body, b.body) << what;
}

TEST(ExtenderFastPathTest, AnswersAsThePlainPathOnRandomClusters) {
  for (const std::string& policy : PolicyNames()) {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
      SCOPED_TRACE(policy + " seed " + std::to_string(seed));
      std::mt19937 g(seed);
      const int n = std::uniform_int_distribution<int>(3, 24)(g);
      std::vector<json> nodes;
      std::vector<std::string> names;
      for (int i = 0; i < n; ++i) {
        names.push_back("n" + std::to_string(i));
        nodes.push_back(testing::RandomNodeJson(g, names.back()));
      }
      std::vector<Node> decoded;
      for (const json& j : nodes) decoded.push_back(testing::DecodeNode(j));
      std::vector<std::pair<Pod, bool>> running;
      for (int i = 0; i < n; ++i)
        if (g() % 2)
          running.push_back({testing::DecodePod(testing::PodJson("ml", "run" + std::to_string(i), g() % 3, 0,
                                                                 names[static_cast<size_t>(i)])),
                             false});
      Pair p;
      for (bool plain : {false, true}) {
        ExtenderOptions o{true, 30, seed};
        o.plain = plain;
        auto ext = std::make_unique<ExtenderService>(testing::Factory(policy, seed), o, &p.binder, nullptr);
        ext->Update([&](ClusterView& v) {
          v.ReplaceNodes(decoded);
          v.ReplacePods(running);
        });
        ASSERT_TRUE(ext->MarkSynced().ok());
        (plain ? p.plain : p.fast) = std::move(ext);
      }
      std::vector<json> pods;
      for (int step = 0; step < 80; ++step) {
        const int op = static_cast<int>(g() % 10);
        // The request's nodes: a random subset in random order, with an
        // unknown name and a repeated one now and then.
        std::vector<std::string> req;
        std::vector<json> req_nodes;
        for (int i = 0; i < n; ++i)
          if (g() % 4) {
            req.push_back(names[static_cast<size_t>(i)]);
            req_nodes.push_back(nodes[static_cast<size_t>(i)]);
          }
        if (g() % 6 == 0) {
          // Unknown names, some that Go escapes or empty.
          const char* unknown[] = {"unknown", "odd<name&", ""};
          req.push_back(unknown[g() % 3]), req_nodes.push_back(testing::NodeJson(req.back(), 8));
        }
        if (g() % 6 == 0 && !req.empty()) req.push_back(req.front()), req_nodes.push_back(req_nodes.front());
        for (size_t i = req.size(); i > 1; --i) {
          const size_t k = g() % i;
          std::swap(req[i - 1], req[k]);
          std::swap(req_nodes[i - 1], req_nodes[k]);
        }
        if (op <= 3 || pods.empty()) {
          // A new pod, or a same-shaped one again, filtered then prioritized.
          json pod = pods.empty() || g() % 3 ? testing::RandomPodJson(g, "p" + std::to_string(step)) : pods[g() % pods.size()];
          pod["metadata"]["name"] = "p" + std::to_string(step);
          pods.push_back(pod);
          const bool by_names = g() % 4 != 0;
          std::string body = by_names ? testing::ArgsWithNames(pod, req) : testing::ArgsWithNodes(pod, req_nodes);
          if (g() % 5 == 0) body = json::parse(body).dump(1);  // white space between every token
          const Reply filtered = p.fast->Filter(body);
          Check(filtered, p.plain->Filter(body), "filter " + body);
          if (by_names && filtered.status == 200 && g() % 2) {
            // kube-scheduler's next call: the names filter answered.
            const std::vector<std::string> passed = json::parse(filtered.body)["NodeNames"];
            body = testing::ArgsWithNames(pod, passed);
          }
          Check(p.fast->Prioritize(body), p.plain->Prioritize(body), "prioritize " + body);
        } else if (op <= 6) {
          // Bind a pod seen in a filter to a random node.
          const json& pod = pods[g() % pods.size()];
          const std::string body = json{{"PodName", pod["metadata"]["name"]},
                                        {"PodNamespace", "ml"},
                                        {"PodUID", pod["metadata"]["uid"]},
                                        {"Node", names[g() % names.size()]}}
                                       .dump();
          Check(p.fast->Bind(body), p.plain->Bind(body), "bind " + body);
        } else if (op == 7) {
          // A node changes (labels, taints, cordon, size): re-added.
          const size_t i = g() % names.size();
          nodes[i] = testing::RandomNodeJson(g, names[i]);
          const Node node = testing::DecodeNode(nodes[i]);
          for (auto* e : {p.fast.get(), p.plain.get()}) e->Update([&](ClusterView& v) { v.UpsertNode(node); });
        } else if (op == 8) {
          const std::string name = names[g() % names.size()];
          for (auto* e : {p.fast.get(), p.plain.get()}) e->Update([&](ClusterView& v) { v.DeleteNode(name); });
        } else {
          // A pod leaves (bound by an earlier bind or running from the start).
          const std::string name = g() % 2 && !pods.empty() ? pods[g() % pods.size()]["metadata"]["name"].get<std::string>()
                                                             : "run" + std::to_string(g() % static_cast<uint32_t>(n));
          for (auto* e : {p.fast.get(), p.plain.get()}) e->Update([&](ClusterView& v) { v.DeletePod("ml", name); });
        }
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Bodies the fast path leaves to the generic decoder, or takes while they
// are unusual, and random mutations of a valid one: both paths answer alike
// (status and body), 400 messages included.
TEST(ExtenderFastPathTest, HostileAndUnusualBodiesAnswerAsThePlainPath) {
  Pair p;
  std::vector<Node> nodes;
  for (int i = 0; i < 4; ++i) nodes.push_back(testing::DecodeNode(testing::NodeJson("n" + std::to_string(i), 2 * i)));
  for (bool plain : {false, true}) {
    ExtenderOptions o{true, 30, 1};
    o.plain = plain;
    auto ext = std::make_unique<ExtenderService>(testing::Factory("best-fit"), o, &p.binder, nullptr);
    ext->Update([&](ClusterView& v) { v.ReplaceNodes(nodes); });
    ASSERT_TRUE(ext->MarkSynced().ok());
    (plain ? p.plain : p.fast) = std::move(ext);
  }
  const std::string pod = testing::PodJson("ml", "p", 1).dump();
  const std::string bad_pod =
      R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"lots"}}}]}})";
  std::vector<std::string> bodies = {
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1","n2","n3","n0"]})",
      R"({"pod":)" + pod + R"(,"nodenames":["n1",null,"n2","n3","x<y"]})",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1"],"pod":)" + pod + "}",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1"],"NodeNames":["n2"]})",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1"],"Nodes":{"items":[]}})",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1"],"items":[{"a":1}]})",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1"]} {})",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1"]})" + "\n\n",
      R"({"Pod":)" + pod + R"(,"NodeNames":[1]})",
      R"({"Pod":)" + pod + R"(,"NodeNames":"n1"})",
      R"({"Pod":)" + pod + "}",
      R"({"Pod":null,"NodeNames":["n1"]})",
      R"({"Pod":)" + bad_pod + R"(,"NodeNames":["n1"]})",
      R"({"Pod":)" + pod + R"(,"NodeNames":["n1",]})",
      R"({"Pod":)" + pod.substr(0, pod.size() - 1) + R"(,"NodeNames":["n1"]})",
      "ï»¿" R"({"Pod":)" + pod + R"(,"NodeNames":["n1"]})",
      "[]",
      "",
  };
  std::mt19937 g(3);
  const std::string valid = bodies.front();
  for (int i = 0; i < 1500; ++i) {
    std::string m = valid;
    for (int k = 0, n = 1 + static_cast<int>(g() % 3); k < n; ++k) {
      const size_t at = g() % (m.size() + 1);
      const char bytes[] = "{}[]\",:\\ \n0n\x01\x80";
      const char c = bytes[g() % (sizeof bytes - 1)];
      switch (g() % 3) {
        case 0: if (at < m.size()) m.erase(at, 1); break;
        case 1: m.insert(at, 1, c); break;
        default: if (at < m.size()) m[at] = c;
      }
    }
    bodies.push_back(m);
  }
  int ok = 0, bad = 0;
  for (const std::string& body : bodies) {
    const Reply f = p.fast->Filter(body);
    Check(f, p.plain->Filter(body), "filter " + body);
    Check(p.fast->Prioritize(body), p.plain->Prioritize(body), "prioritize " + body);
    if (::testing::Test::HasFatalFailure()) return;
    (f.status == 200 ? ok : bad) += 1;
  }
  // Both kinds of answer were compared.
  EXPECT_GT(ok, 100);
  EXPECT_GT(bad, 100);
}

}  // namespace
}  // namespace gpusched
