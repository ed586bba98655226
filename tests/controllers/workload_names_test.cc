#include "gpusched/controllers/workload_names.h"

#include <gtest/gtest.h>

#include <set>

namespace gpusched {
namespace {

TEST(WorkloadNamesTest, Fnv1aKnownVectors) {
  // Reference values of 64-bit FNV-1a.
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(WorkloadNamesTest, SuffixUsesKubernetesAlphabet) {
  std::string s = SafeSuffix(123456789, 5);
  ASSERT_EQ(s.size(), 5u);
  for (char c : s) EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(c), std::string::npos) << c;
}

TEST(WorkloadNamesTest, ShapesPerKind) {
  EXPECT_EQ(ExpandedPodName("StatefulSet", "default", "web", 0), "web-0");
  EXPECT_EQ(ExpandedPodName("StatefulSet", "default", "web", 12), "web-12");
  std::string d0 = ExpandedPodName("Deployment", "default", "web", 0);
  std::string d1 = ExpandedPodName("Deployment", "default", "web", 1);
  ASSERT_EQ(d0.size(), std::string("web-").size() + 10 + 1 + 5);
  // Same pod-template-hash part, different per-pod part.
  EXPECT_EQ(d0.substr(0, 15), d1.substr(0, 15));
  EXPECT_NE(d0, d1);
  EXPECT_EQ(ExpandedPodName("Job", "default", "train", 0).size(), std::string("train-").size() + 5);
}

TEST(WorkloadNamesTest, DeterministicAndDistinct) {
  EXPECT_EQ(ExpandedPodName("Job", "ns", "j", 3), ExpandedPodName("Job", "ns", "j", 3));
  EXPECT_NE(ExpandedPodName("Job", "ns1", "j", 3), ExpandedPodName("Job", "ns2", "j", 3));
  std::set<std::string> names;
  for (int i = 0; i < 1000; ++i) names.insert(ExpandedPodName("ReplicaSet", "default", "rs", i));
  EXPECT_EQ(names.size(), 1000u);
}

TEST(WorkloadNamesTest, ControllerShapedNames) {
  // The ReplicaSet a Deployment creates shares its hash with the Deployment's pods.
  EXPECT_EQ(GeneratedReplicaSetName("default", "web"), "web-vdgb8zbvpn");
  EXPECT_EQ(GeneratedPodTemplateHash("default", "web"), "vdgb8zbvpn");
  EXPECT_EQ(ExpandedPodName("Deployment", "default", "web", 0), "web-vdgb8zbvpn-d88dm");
  EXPECT_EQ(IndexedJobPodName("default", "train", 4), "train-4-kf4nm");
  EXPECT_NE(IndexedJobPodName("default", "train", 4, 1), IndexedJobPodName("default", "train", 4));
  EXPECT_EQ(DaemonPodName("kube-system", "dp", "n3", 0), "dp-zgh28");
  EXPECT_NE(DaemonPodName("kube-system", "dp", "n3", 1), DaemonPodName("kube-system", "dp", "n3", 0));
  // A DaemonSet's pod name is its node's, not a position among the nodes.
  EXPECT_NE(DaemonPodName("kube-system", "dp", "n3", 0), DaemonPodName("kube-system", "dp", "n4", 0));
}

}  // namespace
}  // namespace gpusched
