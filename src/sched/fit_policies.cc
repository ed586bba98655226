// first-fit, best-fit and worst-fit: gpusched's simple node-choice policies.
#include <iterator>
#include <limits>
#include <string>

#include "gpusched/sched/policy.h"

namespace gpusched {
namespace {

int64_t FreeAfter(const NodeState& s, const PodInfo& pod, std::string_view resource) {
  return SatSub(SatSub(s.allocatable.Get(resource), s.requested.Get(resource)), pod.requests.Get(resource));
}

// Picks the node minimizing (free GPUs after, free cpu after), or maximizing
// it when `most` is set; the first in scan order wins ties.
size_t Extreme(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, bool most,
               PodExplain* explain, const char* what) {
  size_t best = feasible.front();
  auto key = [&](size_t i) {
    const NodeState& s = cluster.state(i);
    return std::pair<int64_t, int64_t>(FreeAfter(s, pod, kResourceGPU), FreeAfter(s, pod, kResourceCPU));
  };
  for (size_t i : feasible) {
    auto k = key(i), b = key(best);
    if (most ? k > b : k < b) best = i;
  }
  if (explain) {
    auto [g, c] = key(best);
    explain->why = std::string(what) + ": leaves " + std::to_string(g) + " GPUs and " + FormatAmount(kResourceCPU, c) +
                   " cpu free (first in node order on ties)";
  }
  return best;
}

}  // namespace

size_t FirstFitPolicy::Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng&,
                              PodExplain* explain) const {
  if (explain) explain->why = "first-fit: the first node in input order that fits";
  return feasible.front();
}

size_t BestFitPolicy::Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                             Rng&, PodExplain* explain) const {
  return Extreme(pod, cluster, feasible, false, explain, "best-fit");
}

size_t WorstFitPolicy::Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                              Rng&, PodExplain* explain) const {
  return Extreme(pod, cluster, feasible, true, explain, "worst-fit");
}

}  // namespace gpusched

namespace gpusched {

void FreeOrderIndex::Sync(const ClusterState& cluster) {
  auto key_of = [&](size_t i) {
    const NodeState& s = cluster.state(i);
    return Key(SatSub(s.allocatable.Get(kResourceGPU), s.requested.Get(kResourceGPU)),
               SatSub(s.allocatable.milli_cpu, s.requested.milli_cpu), i);
  };
  const auto& log = cluster.change_log();
  if (cluster_ != &cluster || log.size() < log_pos_) {
    cluster_ = &cluster;
    keys_.clear();
    in_set_.clear();
    set_.clear();
    log_pos_ = 0;
  }
  for (; log_pos_ < log.size(); ++log_pos_) {
    const size_t i = log[log_pos_];
    if (i >= keys_.size()) {
      keys_.resize(i + 1);
      in_set_.resize(i + 1, false);
    }
    if (in_set_[i]) set_.erase(keys_[i]);
    in_set_[i] = cluster.present(i);
    if (in_set_[i]) set_.insert(keys_[i] = key_of(i));
  }
}

std::optional<size_t> FreeOrderIndex::Find(const PodInfo& pod, const ClusterState& cluster, bool most,
                                           const std::function<bool(size_t)>& fits) {
  Sync(cluster);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  // As fitsRequest: an unrequested resource does not constrain.
  const int64_t need_gpu = pod.requests.Scalar(kResourceGPU) > 0 ? pod.requests.Scalar(kResourceGPU) : kMin;
  const int64_t need_cpu = pod.requests.milli_cpu > 0 ? pod.requests.milli_cpu : kMin;
  if (!most) {
    // Buckets of free GPUs upwards from the request; in each, free cpu upwards.
    auto it = set_.lower_bound(Key(need_gpu, kMin, 0));
    while (it != set_.end()) {
      const int64_t g = std::get<0>(*it);
      for (it = set_.lower_bound(Key(g, need_cpu, 0)); it != set_.end() && std::get<0>(*it) == g; ++it)
        if (fits(std::get<2>(*it))) return std::get<2>(*it);
    }
    return std::nullopt;
  }
  // Most free first: buckets of free GPUs downwards; in each, free cpu
  // downwards, and among equal (GPUs, cpu) the lowest index first.
  auto bucket_end = set_.end();
  while (bucket_end != set_.begin()) {
    const int64_t g = std::get<0>(*std::prev(bucket_end));
    if (g < need_gpu) break;
    auto bucket_begin = set_.lower_bound(Key(g, kMin, 0));
    auto it = bucket_end;
    while (it != bucket_begin) {
      const int64_t c = std::get<1>(*std::prev(it));
      if (c < need_cpu) break;
      auto group = set_.lower_bound(Key(g, c, 0));
      for (auto k = group; k != it; ++k)
        if (fits(std::get<2>(*k))) return std::get<2>(*k);
      it = group;
    }
    bucket_end = bucket_begin;
  }
  return std::nullopt;
}

}  // namespace gpusched
