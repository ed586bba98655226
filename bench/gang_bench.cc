#include "gang_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "bench_cluster.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/gang.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/framework/gang_serving.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a) { return std::chrono::duration<double>(Clock::now() - a).count(); }

// Whole-GPU pod (4 CPUs and 32 GiB per GPU, as bench_cluster.h's pods).
Pod GpuPod(const std::string& name, int64_t gpus) {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "default";
  Container c;
  c.name = "main";
  c.limits["cpu"] = Quantity::FromMilli(4000 * gpus);
  c.limits["memory"] = Quantity::FromInt((32LL * gpus) << 30, Quantity::Format::kBinarySI);
  c.limits["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  c.requests = c.limits;
  p.containers.push_back(std::move(c));
  return p;
}

// Prefilled pods are bound under ids far from the batch's input indices,
// which ScheduleBatch binds and unbinds its members by.
constexpr size_t kPrefillId = size_t{1} << 40;

struct Workload {
  ClusterState cluster{std::vector<Node>{}};  // prefilled
  std::vector<Pod> pods;                      // the gangs' members, gang after gang
  std::vector<PodGroupDecl> decls;
  size_t gangs = 0;
};

// N nodes x 8 GPUs filled to `fill` of their GPUs with single pods of 1, 2,
// 4 or 8 GPUs (first fit), then gangs of 2-16 members x 1/2/4/8 GPUs whose
// GPUs add up to `demand` of the cluster's: the first ones fit, the later
// ones meet a fuller cluster and many fall short.
Workload Make(size_t n, double fill, double demand) {
  std::vector<Node> nodes;
  for (size_t i = 0; i < n; ++i) nodes.push_back(MakeNode(i, 8));
  Workload w;
  w.cluster = ClusterState(std::move(nodes));
  const int64_t capacity = 8 * static_cast<int64_t>(n);
  const int64_t shapes[] = {1, 2, 4, 8};
  Rng rng(11);
  Scheduler fill_s(DefaultFilters(), NewSimplePolicy("first-fit", {}), 1);
  int64_t used = 0;
  for (size_t i = 0; static_cast<double>(used) < fill * static_cast<double>(capacity); ++i) {
    const int64_t g = shapes[rng.Uniform(4)];
    const Pod p = GpuPod("fill-" + std::to_string(i), g);
    if (fill_s.Schedule(PodInfo::Make(p, kPrefillId + i), w.cluster).scheduled) used += g;
  }
  int64_t wanted = 0;
  while (static_cast<double>(wanted) < demand * static_cast<double>(capacity)) {
    const std::string name = "gang-" + std::to_string(w.gangs++);
    const int64_t members = 2 + static_cast<int64_t>(rng.Uniform(15));
    const int64_t g = shapes[rng.Uniform(4)];
    PodGroupDecl d;
    d.api = GangApi::kCoscheduling;
    d.ns = "default";
    d.name = name;
    d.min_count = static_cast<int32_t>(members);
    w.decls.push_back(d);
    for (int64_t k = 0; k < members; ++k) {
      w.pods.push_back(GpuPod(name + "-" + std::to_string(k), g));
      w.pods.back().meta.labels[kCoschedulingPodGroupLabel] = name;
    }
    wanted += members * g;
  }
  return w;
}

struct Run {
  double seconds = 0;
  std::vector<std::pair<int64_t, std::vector<int32_t>>> where;  // per member: node (-1 pending), devices
};

size_t Placed(const Run& r) {
  size_t placed = 0;
  for (const auto& [node, gpus] : r.where) placed += node >= 0;
  return placed;
}

// Gangs with members placed (all or nothing here: minMember is all of them).
size_t GangsPlaced(const Workload& w, const Run& r) {
  size_t placed = 0;
  for (size_t i = 0; i < w.pods.size(); ++i)
    placed += r.where[i].first >= 0 && (i == 0 || w.pods[i].meta.labels.at(kCoschedulingPodGroupLabel) !=
                                                      w.pods[i - 1].meta.labels.at(kCoschedulingPodGroupLabel));
  return placed;
}

// `gpusched schedule`'s path: BatchOptions::gangs and gang_serving built as
// src/cli/schedule_command.cc builds them, from a profile that enables
// Coscheduling.
Run Fast(const Workload& w, ClusterState cluster) {
  KubeSchedulerConfiguration config = DefaultSchedulerConfiguration();
  config.profiles.front().plugins.multi_point.enabled.push_back({"Coscheduling", 0});
  Result<GangServing> serving = BuildGangServing(config, {}, ScheduleFeatureGates{});
  if (!serving.ok()) {
    std::fprintf(stderr, "gang bench: %s\n", serving.status().message().c_str());
    std::exit(1);
  }
  std::vector<const Pod*> ptrs;
  for (const Pod& p : w.pods) ptrs.push_back(&p);
  const GangSet gangs = GroupIntoGangs(w.decls, ptrs);
  Scheduler s(DefaultFilters(), NewSimplePolicy("first-fit", {}), 1);
  BatchOptions o;
  o.gangs = &gangs;
  o.gang_serving = &*serving;
  const auto t0 = Clock::now();
  BatchResult r = ScheduleBatch(ptrs, cluster, ProfileSchedulers{{kDefaultSchedulerName, &s}}, o);
  Run out;
  out.seconds = Seconds(t0);
  out.where.assign(w.pods.size(), {-1, {}});
  for (auto& pl : r.placements) out.where[pl.pod] = {static_cast<int64_t>(pl.node), std::move(pl.gpus)};
  return out;
}

// The straightforward reference: each gang's members tried one by one with
// the plain scan on a copy of the cluster, the copy kept when at least
// minMember of them fit.
Run Plain(const Workload& w, ClusterState cluster) {
  Scheduler s(DefaultFilters(), NewSimplePolicy("first-fit", {}), 1);
  s.set_use_index(false);
  Run out;
  out.where.assign(w.pods.size(), {-1, {}});
  const auto t0 = Clock::now();
  size_t i = 0;
  for (const PodGroupDecl& d : w.decls) {
    ClusterState trial = cluster;
    std::vector<std::pair<size_t, Decision>> placed;
    int64_t fit = 0;
    for (; i < w.pods.size() && w.pods[i].meta.labels.at(kCoschedulingPodGroupLabel) == d.name; ++i) {
      Decision dec = s.ScheduleOne(PodInfo::Make(w.pods[i], i), trial);
      if (dec.scheduled) {
        ++fit;
        placed.push_back({i, std::move(dec)});
      }
    }
    if (fit < d.min_count) continue;  // the copy is discarded
    cluster = std::move(trial);
    for (auto& [k, dec] : placed) out.where[k] = {static_cast<int64_t>(dec.node), std::move(dec.gpus)};
  }
  out.seconds = Seconds(t0);
  return out;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string Fmt(double v) {
  char buf[64];
  if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  else if (v >= 1e3) std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

void GangThroughput(const std::vector<size_t>& sizes) {
  std::printf("\ngang-heavy decisions per second (8-GPU nodes 60%% filled by single pods, then Coscheduling gangs\n"
              "of 2-16 members x 1/2/4/8 GPUs, minMember all, asking for 60%% of the GPUs; all or nothing through\n"
              "ScheduleBatch against each gang tried with the plain scan on a copy of the cluster; first-fit;\n"
              "median time of up to 15 alternating runs of each while they take under 2 s):\n");
  std::printf("  %7s %6s %7s %7s %10s %10s %11s %11s %8s   %s\n", "NODES", "GANGS", "MEMBERS", "PLACED",
              "GANGS/S", "PLAIN", "MEMBERS/S", "PLAIN", "RATIO", "AGREE");
  for (size_t n : sizes) {
    const Workload w = Make(n, 0.6, 0.6);
    // Alternately, while they take under 2 s together (at least once): the
    // median time of each, so that a small size is not one noisy sample.
    std::vector<double> fast_s, plain_s;
    Run fast, plain;
    for (double total = 0; fast_s.empty() || (total < 2 && fast_s.size() < 15);) {
      fast = Fast(w, w.cluster);
      plain = Plain(w, w.cluster);
      fast_s.push_back(fast.seconds);
      plain_s.push_back(plain.seconds);
      total += fast.seconds + plain.seconds;
    }
    fast.seconds = Median(fast_s);
    plain.seconds = Median(plain_s);
    const double gangs = static_cast<double>(w.gangs), members = static_cast<double>(w.pods.size());
    std::printf("  %7zu %6zu %7zu %6.1f%% %10s %10s %11s %11s %7.1fx   %s\n", n, w.gangs, w.pods.size(),
                100.0 * static_cast<double>(GangsPlaced(w, fast)) / gangs, Fmt(gangs / fast.seconds).c_str(),
                Fmt(gangs / plain.seconds).c_str(), Fmt(members / fast.seconds).c_str(),
                Fmt(members / plain.seconds).c_str(), plain.seconds / fast.seconds,
                fast.where == plain.where ? ("same (" + std::to_string(Placed(fast)) + " members placed)").c_str()
                                          : "DIFFERENT");
  }
}

}  // namespace gpusched::bench
