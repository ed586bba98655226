// FailureCache (src/sched/framework/failure_cache.cc): a failure kept for a
// pod class is found for every pod of the class while the cluster is
// unchanged, and for no other; and, on random clusters with churn, what it
// hands a pod is what the plain scan gives that pod.
#include "gpusched/sched/framework/failure_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusched/sched/framework/plain_scan.h"
#include "../random_cluster.h"
#include "../test_util.h"
#include "search_test_util.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace failure_cache_test {

using testing::GpuNode;
using testing::GpuPod;
using testing::ProfileRun;

std::shared_ptr<const Failure> FailureSaying(const std::string& message) {
  auto f = std::make_shared<Failure>();
  f->message = message;
  return f;
}

TEST(FailureCacheTest, KeepsPerClassWhileTheClusterIsUnchanged) {
  ClusterState c({GpuNode("a", 2)}), other({GpuNode("a", 2)});
  FailureCache cache;
  const Pod big = GpuPod("big", 4), also_big = GpuPod("also-big", 4), small = GpuPod("small", 1);
  Pod tolerant = big;
  tolerant.tolerations.push_back({"dedicated", "Exists", "", ""});
  const PodInfo b = PodInfo::Make(big, 0), b2 = PodInfo::Make(also_big, 1), s = PodInfo::Make(small, 2),
                t = PodInfo::Make(tolerant, 3);
  cache.Sync(c);
  EXPECT_TRUE(cache.empty());
  const auto kept = cache.Keep(b, ClassHash(b), FailureSaying("big"));
  struct Case {
    const char* name;
    const PodInfo* pod;
    const char* want;  // nullptr: none found
  };
  const Case cases[] = {
      {"the pod itself", &b, "big"},
      {"another pod of its class", &b2, "big"},
      {"another request", &s, nullptr},
      {"a toleration: another class", &t, nullptr},
  };
  for (const Case& k : cases) {
    const auto* f = cache.Find(*k.pod, ClassHash(*k.pod));
    ASSERT_EQ(f != nullptr, k.want != nullptr) << k.name;
    if (f) {
      EXPECT_EQ((*f)->message, k.want) << k.name;
      EXPECT_EQ(f->get(), kept.get()) << k.name;  // shared, not copied
    }
  }
  // Unchanged: Sync keeps it. A change, or another cluster, drops it.
  cache.Sync(c);
  EXPECT_NE(cache.Find(b, ClassHash(b)), nullptr);
  cache.Sync(other);
  EXPECT_TRUE(cache.empty());
  cache.Keep(b, ClassHash(b), FailureSaying("big on other"));
  other.Bind(0, b.requests);
  cache.Sync(other);
  EXPECT_TRUE(cache.empty());
}

TEST(FailureCacheTest, HoldsAtMostMaxFailures) {
  ClusterState c({GpuNode("a", 2)});
  FailureCache cache;
  cache.Sync(c);
  std::vector<Pod> pods;
  for (size_t k = 0; k <= FailureCache::kMaxFailures; ++k) pods.push_back(GpuPod("p", 0, 1 + static_cast<int64_t>(k)));
  for (size_t k = 0; k < FailureCache::kMaxFailures; ++k) {
    const PodInfo p = PodInfo::Make(pods[k], k);
    cache.Keep(p, ClassHash(p), FailureSaying("f"));
  }
  const PodInfo first = PodInfo::Make(pods[0], 0), last = PodInfo::Make(pods.back(), 0);
  EXPECT_NE(cache.Find(first, ClassHash(first)), nullptr);
  // Full: it starts over before keeping one more.
  cache.Keep(last, ClassHash(last), FailureSaying("last"));
  EXPECT_EQ(cache.Find(first, ClassHash(first)), nullptr);
  EXPECT_NE(cache.Find(last, ClassHash(last)), nullptr);
}

// On random clusters: each failure the plain scan finds is kept; a later
// pod of a class whose failure is found gets exactly what the plain scan
// gives it (message, preemption verdict, rejecting filters) on the cluster
// as it is.
TEST(FailureCacheTest, WhatItFindsIsThePlainScansFailure) {
  Rng rng(5);
  int64_t found = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE(trial);
    const size_t n = 5 + rng.Uniform(60);
    std::vector<Node> nodes;
    for (size_t i = 0; i < n; ++i) nodes.push_back(testing::rich::RandomNode("n" + std::to_string(i), rng));
    ClusterState cluster(nodes);
    ProfileRun run({trial % 2 ? "kube-default" : "first-fit"}, 1);
    ASSERT_TRUE(FailureCache::Usable(run.chain()));
    FailureCache cache;
    PlainScan plain(run.preemption());
    std::vector<Pod> shapes;
    for (int k = 0; k < 8; ++k) shapes.push_back(testing::rich::RandomPod("s" + std::to_string(k), rng, n));
    std::vector<std::pair<size_t, uint64_t>> running;
    for (uint64_t id = 0; id < 150; ++id) {
      // Another pod of a random shape (a copy, renamed: the name is not in the class).
      Pod pod = shapes[rng.Uniform(shapes.size())];
      pod.meta.name = "p" + std::to_string(id);
      const PodInfo info = PodInfo::Make(pod, id);
      cache.Sync(cluster);
      const size_t hash = ClassHash(info);
      const std::shared_ptr<const Failure>* kept = cache.Find(info, hash);
      std::vector<size_t> feasible;
      size_t next = 0;
      Failure want;
      want.fit_error.num_all_nodes = static_cast<int64_t>(cluster.num_present());
      const bool fits = plain.Run(run.Context(info, cluster, 0, static_cast<int64_t>(cluster.size())), nullptr,
                                  feasible, next, want.fit_error, want.preemption, want.rejectors);
      if (kept) {
        ++found;
        ASSERT_FALSE(fits) << "pod " << id;
        EXPECT_EQ((*kept)->message, want.fit_error.Error()) << "pod " << id;
        EXPECT_EQ((*kept)->rejectors, want.rejectors) << "pod " << id;
        ASSERT_EQ((*kept)->preemption.has_value(), want.preemption.has_value()) << "pod " << id;
        if (want.preemption) {
          EXPECT_EQ((*kept)->preemption->message, want.preemption->message) << "pod " << id;
        }
      } else if (!fits) {
        auto f = std::make_shared<Failure>(want);
        f->message = f->fit_error.Error();
        cache.Keep(info, hash, f);
      }
      if (fits && rng.Uniform(2) == 0) {
        const size_t node = feasible[rng.Uniform(feasible.size())];
        cluster.Bind(node, info.requests, info.non_zero_requests, id, info.priority, info.gpu,
                     cluster.DefaultGpuChoice(node, info.gpu));
        running.emplace_back(node, id);
      }
      if (!running.empty() && rng.Uniform(5) == 0) {
        const size_t r = rng.Uniform(running.size());
        cluster.Unbind(running[r].first, running[r].second);
        running[r] = running.back();
        running.pop_back();
      }
    }
  }
  EXPECT_EQ(found, 170);  // pods handed a kept failure, each checked
}

TEST(FailureCacheTest, UsableOnlyOnADeclaredChain) {
  EXPECT_TRUE(FailureCache::Usable(ChainTraits{true, false, false, false}));
  EXPECT_FALSE(FailureCache::Usable(ChainTraits{false, true, true, true}));
}

}  // namespace failure_cache_test
}  // namespace gpusched
