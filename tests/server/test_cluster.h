// Helpers for the server tests: nodes and pods as the API server writes them
// (JSON), and an ExtenderService over a static view.
#ifndef GPUSCHED_TESTS_SERVER_TEST_CLUSTER_H_
#define GPUSCHED_TESTS_SERVER_TEST_CLUSTER_H_

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/json_documents.h"
#include "gpusched/io/object_decoder.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/server/extender.h"

namespace gpusched::testing {

using json = nlohmann::json;

inline json NodeJson(const std::string& name, int gpus, const std::string& cpu = "64") {
  return json{{"metadata", {{"name", name}, {"uid", "uid-" + name}}},
              {"spec", json::object()},
              {"status",
               {{"allocatable", {{"cpu", cpu}, {"memory", "512Gi"}, {"pods", "110"}, {"nvidia.com/gpu", std::to_string(gpus)}}},
                {"capacity", {{"cpu", cpu}, {"memory", "512Gi"}, {"pods", "110"}, {"nvidia.com/gpu", std::to_string(gpus)}}}}}};
}

// A pod asking for `gpus` whole GPUs, or a share of `milli` of one GPU
// (alibabacloud.com/gpu-milli) when milli > 0.
inline json PodJson(const std::string& ns, const std::string& name, int gpus, int milli = 0,
                    const std::string& node = "") {
  json c = {{"name", "c"}, {"image", "trainer"}, {"resources", {{"requests", {{"cpu", "1"}}}}}};
  if (gpus > 0) c["resources"]["limits"] = {{"nvidia.com/gpu", std::to_string(gpus)}};
  json pod = {{"metadata", {{"name", name}, {"namespace", ns}, {"uid", "uid-" + ns + "-" + name}}},
              {"spec", {{"containers", json::array({c})}, {"schedulerName", "gpusched"}}},
              {"status", {{"phase", node.empty() ? "Pending" : "Running"}}}};
  if (milli > 0)
    pod["metadata"]["annotations"] = {{"alibabacloud.com/gpu-milli", std::to_string(milli)},
                                      {"alibabacloud.com/gpu-count", "1"}};
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  return pod;
}

// Random inputs for the property tests (extender_fast_path_test,
// decisions_test): a node with 0-8 GPUs, a zone label, sometimes
// unschedulable or tainted; a pod asking whole GPUs or a share, sometimes
// with a node selector or a toleration, running on `node` when given.
inline json RandomNodeJson(std::mt19937& g, const std::string& name) {
  std::uniform_int_distribution<int> gpus(0, 8), cpu(2, 64), coin(0, 5);
  json n = NodeJson(name, gpus(g), std::to_string(cpu(g)));
  n["metadata"]["labels"] = {{"zone", "z" + std::to_string(coin(g) % 3)}};
  if (coin(g) == 0) n["spec"]["unschedulable"] = true;
  if (coin(g) == 1) n["spec"]["taints"] = json::array({{{"key", "dedicated"}, {"value", "ml"}, {"effect", "NoSchedule"}}});
  return n;
}

inline json RandomPodJson(std::mt19937& g, const std::string& name, const std::string& node = "") {
  std::uniform_int_distribution<int> gpus(0, 4), coin(0, 5), milli(1, 9), cpu(1, 16);
  json p = coin(g) == 0 ? PodJson("ml", name, 0, 100 * milli(g), node) : PodJson("ml", name, gpus(g), 0, node);
  p["spec"]["containers"][0]["resources"]["requests"]["cpu"] = std::to_string(cpu(g));
  if (coin(g) == 0) p["spec"]["nodeSelector"] = {{"zone", "z" + std::to_string(coin(g) % 3)}};
  if (coin(g) == 0)
    p["spec"]["tolerations"] = json::array({{{"key", "dedicated"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}});
  return p;
}

inline Node DecodeNode(const json& j) {
  Node out;
  ParseJsonStream(j.dump(), 1, JsonStreamEvents{nullptr, nullptr, nullptr, [&](const DocNode& n, size_t) {
                                                  out = DecodeNodeObject(n).value();
                                                }, nullptr});
  return out;
}

inline Pod DecodePod(const json& j) {
  Pod out;
  ParseJsonStream(j.dump(), 1, JsonStreamEvents{nullptr, nullptr, nullptr, [&](const DocNode& n, size_t) {
                                                  out = DecodePodObject(n).value().pod;
                                                }, nullptr});
  return out;
}

// The ApiObjects one object of `kind` contributes (io DecodeApiObject).
inline ApiObjects DecodeObject(const json& j, const std::string& kind, const std::string& api_version) {
  ApiObjects out;
  ParseJsonStream(j.dump(), 1, JsonStreamEvents{nullptr, nullptr, nullptr, [&](const DocNode& n, size_t) {
                                                  Result<ApiObjects> o = DecodeApiObject(n, kind, api_version);
                                                  EXPECT_TRUE(o.ok()) << o.status().message();
                                                  if (o.ok()) out = std::move(o).value();
                                                }, nullptr});
  return out;
}

// A local PersistentVolume `name` on node `node`, bound to claim ns/claim,
// and that claim (ReadWriteOnce, 10Gi, class local), as a cluster lists them.
inline json LocalPvJson(const std::string& name, const std::string& node, const std::string& ns,
                        const std::string& claim) {
  return json{{"metadata", {{"name", name}, {"uid", "uid-" + name}}},
              {"spec",
               {{"capacity", {{"storage", "10Gi"}}},
                {"accessModes", {"ReadWriteOnce"}},
                {"storageClassName", "local"},
                {"local", {{"path", "/mnt/disks/" + name}}},
                {"claimRef", {{"namespace", ns}, {"name", claim}, {"uid", "uid-" + ns + "-" + claim}}},
                {"nodeAffinity",
                 {{"required",
                   {{"nodeSelectorTerms",
                     json::array({{{"matchExpressions",
                                    json::array({{{"key", "kubernetes.io/hostname"},
                                                  {"operator", "In"},
                                                  {"values", {node}}}})}}})}}}}}}},
              {"status", {{"phase", "Bound"}}}};
}
inline json BoundClaimJson(const std::string& ns, const std::string& name, const std::string& pv) {
  return json{{"metadata",
               {{"name", name},
                {"namespace", ns},
                {"uid", "uid-" + ns + "-" + name},
                {"annotations", {{"pv.kubernetes.io/bind-completed", "yes"}}}}},
              {"spec",
               {{"accessModes", {"ReadWriteOnce"}},
                {"resources", {{"requests", {{"storage", "10Gi"}}}}},
                {"storageClassName", "local"},
                {"volumeName", pv}}},
              {"status", {{"phase", "Bound"}, {"accessModes", {"ReadWriteOnce"}}, {"capacity", {{"storage", "10Gi"}}}}}};
}
// A pod mounting claim `claim`.
inline json WithClaim(json pod, const std::string& claim) {
  pod["spec"]["volumes"] = json::array({{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", claim}}}}});
  return pod;
}

// A factory for `policy` with kube-scheduler's default configuration.
inline SchedulerFactory Factory(const std::string& policy, uint64_t seed = 1) {
  return [policy, seed](const ClusterView& view) -> Result<SchedulerSet> {
    std::vector<PodShape> shapes;
    for (const PodInfo& p : view.PodRequests()) shapes.push_back(ShapeOf(p));
    const TypicalPods typical = ComputeTypicalPods(shapes);
    PolicyOptions o;
    o.typical = &typical;
    return BuildSchedulers(DefaultSchedulerConfiguration(), policy, seed, o);
  };
}

// Filter/prioritize bodies as kube-scheduler marshals ExtenderArgs.
inline std::string ArgsWithNames(const json& pod, const std::vector<std::string>& names) {
  return json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", names}}.dump();
}
inline std::string ArgsWithNodes(const json& pod, const std::vector<json>& nodes) {
  return json{{"Pod", pod}, {"Nodes", {{"metadata", json::object()}, {"items", nodes}}}, {"NodeNames", nullptr}}.dump();
}

// Canonical form: keys sorted (nlohmann's object), no spaces.
inline std::string Canonical(const std::string& text) { return json::parse(text).dump(); }

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SERVER_TEST_CLUSTER_H_
