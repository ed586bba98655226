// Pod affinity and Namespaces read from manifests (pod_affinity_decode.cc,
// namespace_loader.cc): the terms, the API server's validation with the
// line of the field, the matchLabelKeys merge for a new pod (not for one
// read from a cluster), and Namespace labels for namespaceSelector.
#include <gtest/gtest.h>

#include "gpusched/io/manifest_loader.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

TEST(PodAffinityDecodeTest, TermsAndNamespaces) {
  Manifests m = Load(R"(apiVersion: v1
kind: Namespace
metadata: {name: ml, labels: {team: research}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, labels: {app: infer, pod-template-hash: h1}}
spec:
  containers: [{name: c, image: i}]
  affinity:
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        podAffinityTerm:
          labelSelector: {matchLabels: {app: cache}}
          namespaceSelector: {matchLabels: {team: research}}
          topologyKey: topology.kubernetes.io/zone
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: infer}}
        matchLabelKeys: [pod-template-hash]
        namespaces: [ml]
        topologyKey: kubernetes.io/hostname
)");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(Join(m.warnings), "");
  ASSERT_EQ(m.pods.size(), 1u);
  ASSERT_EQ(m.api_objects.namespace_labels.size(), 1u);
  EXPECT_EQ(m.api_objects.namespace_labels.at("ml").at("team"), "research");
  const PodAffinitySpec& a = *m.pods[0].pod.pod_affinity;
  ASSERT_EQ(a.PreferredAffinity().size(), 1u);
  EXPECT_EQ(a.PreferredAffinity()[0].weight, 10);
  EXPECT_EQ(a.PreferredAffinity()[0].term.namespace_selector->match_labels.at("team"), "research");
  ASSERT_EQ(a.RequiredAntiAffinity().size(), 1u);
  const PodAffinityTerm& t = a.RequiredAntiAffinity()[0];
  EXPECT_EQ(t.namespaces, std::vector<std::string>{"ml"});
  // The API server merged pod-template-hash In (h1) into the selector.
  ASSERT_EQ(t.label_selector->match_expressions.size(), 1u);
  EXPECT_EQ(t.label_selector->match_expressions[0].key, "pod-template-hash");
  EXPECT_EQ(t.label_selector->match_expressions[0].values, std::vector<std::string>{"h1"});
}

TEST(PodAffinityDecodeTest, PodFromAClusterIsNotMergedAgain) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata: {name: p, uid: 0b7c, labels: {app: infer, pod-template-hash: h1}}
spec:
  containers: [{name: c, image: i}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels: {app: infer}
          matchExpressions: [{key: pod-template-hash, operator: In, values: [h1]}]
        matchLabelKeys: [pod-template-hash]
        topologyKey: kubernetes.io/hostname
)");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(m.pods[0].pod.pod_affinity->RequiredAntiAffinity()[0].label_selector->match_expressions.size(), 1u);
}

TEST(PodAffinityDecodeTest, InvalidTermRejectedAsTheApiServerDoes) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: i}]
  affinity:
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 101
        podAffinityTerm:
          labelSelector: {matchLabels: {app: cache}}
          topologyKey: zone
)");
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:9: The Pod \"p\" is invalid: "
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: "
            "must be in the range 1-100");
}

}  // namespace
}  // namespace gpusched
