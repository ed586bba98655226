#include "gpusched/sched/scheduler.h"

#include "gpusched/sched/filters.h"

#include <limits>

namespace gpusched {

Scheduler::Scheduler(std::vector<std::unique_ptr<FilterPlugin>> filters, std::unique_ptr<Policy> policy,
                     uint64_t seed, bool preemption)
    : filters_(std::move(filters)), policy_(std::move(policy)), rng_(seed), preemption_(preemption) {
  // The index may prune only on what the filter chain itself checks.
  for (const auto& f : filters_) {
    if (const auto* fit = dynamic_cast<const NodeResourcesFitFilter*>(f.get())) {
      index_usable_ = true;
      index_gpu_checked_ = fit->Checks(kResourceGPU);
    }
    if (dynamic_cast<const GpuShareFilter*>(f.get())) index_devices_checked_ = true;
  }
}

bool Scheduler::IndexedScan(const PodInfo& pod, const ClusterState& cluster, size_t start, int64_t to_find) {
  index_.Sync(cluster);
  NodeFitIndex::Need need = NodeFitIndex::NeedOf(pod, index_gpu_checked_);
  if (!index_devices_checked_) need[NodeFitIndex::kDeviceMilli] = std::numeric_limits<int64_t>::min();
  const size_t n = cluster.size();
  size_t last = 0;
  auto visit = [&](size_t from, size_t to) {
    for (size_t i = from; static_cast<int64_t>(feasible_.size()) < to_find; ++i) {
      i = index_.FindFirst(i, to, need);
      if (i == NodeFitIndex::kNone) return;
      if (RunFilters(filters_, pod, cluster.node(i), cluster.state(i)).IsSuccess()) {
        feasible_.push_back(i);
        last = i;
      }
    }
  };
  visit(start, n);
  visit(0, start);
  if (feasible_.empty()) return false;
  // As in the plain scan: the nodes processed are those up to the one that
  // completed the feasible set, or all of them when the set stayed short.
  const size_t processed = static_cast<int64_t>(feasible_.size()) >= to_find ? (last + n - start) % n + 1 : n;
  next_start_index_ = (start + processed) % n;
  return true;
}

bool Scheduler::Cacheable(const PodInfo& pod) {
  const Pod& p = *pod.pod;
  return p.node_selector.empty() && !p.node_affinity && p.tolerations.empty() && p.node_name.empty();
}

Decision Scheduler::ScheduleOne(const PodInfo& pod, ClusterState& cluster, PodExplain* explain) {
  // A cached failure stands while the cluster is unchanged since it was seen.
  const bool cacheable = !explain && Cacheable(pod);
  if (failure_cluster_ != &cluster || failure_log_size_ != cluster.change_log().size()) {
    failures_.clear();
    failure_cluster_ = &cluster;
    failure_log_size_ = cluster.change_log().size();
  }
  FailureKey key;
  if (cacheable && !failures_.empty()) {
    key = FailureKey{pod.requests, pod.gpu, pod.pod->Priority(), pod.pod->preemption_policy, pod.pod->scheduler_name};
    for (const auto& [k, decision] : failures_)
      if (k == key) return decision;
  }
  Decision d = ScheduleUncached(pod, cluster, explain);
  if (cacheable && !d.scheduled && failures_.size() < 64) {
    if (failures_.empty())
      key = FailureKey{pod.requests, pod.gpu, pod.pod->Priority(), pod.pod->preemption_policy, pod.pod->scheduler_name};
    failures_.emplace_back(std::move(key), d);
  }
  return d;
}

Decision Scheduler::ScheduleUncached(const PodInfo& pod, ClusterState& cluster, PodExplain* explain) {
  Decision d;
  // Node slots, removed nodes included: those are skipped and not counted.
  const size_t n = cluster.size();
  feasible_.clear();
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  const int64_t to_find = policy_->NumFeasibleNodesToFind(static_cast<int64_t>(cluster.num_present()));
  const size_t start = policy_->RotatesStartIndex() && n > 0 ? next_start_index_ % n : 0;
  if (explain) {
    explain->nodes.assign(n, NodeExplain{});
    for (size_t i = 0; i < n; ++i) {
      explain->nodes[i].node = i;
      explain->nodes[i].gpus_free = cluster.state(i).GpuFree();
      explain->nodes[i].gpus_total = cluster.state(i).GpuAllocatable();
    }
    explain->nodes_to_find = to_find;
    explain->start_index = start;
  }
  if (!explain && index_usable_ && use_index_ && n > 0) {
    // A policy with its own index (best-fit) picks directly; others get the
    // feasible set from the pruned scan.
    bool supported = false;
    std::optional<size_t> pick;
    // Its index prunes on nvidia.com/gpu, so only when the filters check it.
    if (index_gpu_checked_) pick = policy_->SelectIndexed(
        pod, cluster,
        [&](size_t i) { return RunFilters(filters_, pod, cluster.node(i), cluster.state(i)).IsSuccess(); },
        supported);
    if (supported && pick) {
      feasible_.assign(1, *pick);
      return Commit(pod, cluster, to_find, explain);
    }
    if (!supported && IndexedScan(pod, cluster, start, to_find)) return Commit(pod, cluster, to_find, explain);
    if (!explain_failures_) {
      // The plain scan would also have found nothing; it would have moved
      // the start index past every node, i.e. back to `start`.
      d.fit_error = std::move(err);
      return d;
    }
  }
  feasible_.clear();
  if (preemption_) statuses_.assign(n, SchedStatus());
  // findNodesThatPassFilters, sequentially: scan from `start`, stop once
  // `to_find` feasible nodes are found.
  size_t processed = 0;
  for (size_t k = 0; k < n && static_cast<int64_t>(feasible_.size()) < to_find; ++k) {
    const size_t i = (start + k) % n;
    ++processed;
    if (!cluster.present(i)) continue;
    SchedStatus s = RunFilters(filters_, pod, cluster.node(i), cluster.state(i));
    if (explain) {
      NodeExplain& ne = explain->nodes[i];
      ne.evaluated = true;
      ne.feasible = s.IsSuccess();
      ne.failed_plugin = s.plugin();
      ne.code = s.code();
      ne.reasons = s.reasons();
    }
    if (s.IsSuccess()) {
      feasible_.push_back(i);
    } else {
      err.AddNodeStatus(s);
      if (preemption_) statuses_[i] = std::move(s);
    }
  }
  if (n > 0) next_start_index_ = (start + processed) % n;
  if (feasible_.empty()) {
    if (preemption_) {
      PreemptionVerdict v = EvaluatePreemption(pod, cluster, filters_, statuses_);
      // When preemption would help, kube-scheduler nominates a node and the
      // FitError carries no post-filter message.
      if (!v.would_help) err.post_filter_message = v.message;
      d.preemption = std::move(v);
    }
    d.fit_error = std::move(err);
    return d;
  }
  return Commit(pod, cluster, to_find, explain);
}

Decision Scheduler::Commit(const PodInfo& pod, ClusterState& cluster, int64_t to_find, PodExplain* explain) {
  Decision d;
  d.scheduled = true;
  if (feasible_.size() == 1) {
    // One feasible node is chosen without scoring (schedulePod).
    d.node = feasible_.front();
    if (explain)
      explain->why = to_find == 1 ? "the first node in scan order that passes the filters"
                                  : "the only feasible node (chosen without scoring)";
  } else {
    d.node = policy_->Select(pod, cluster, feasible_, rng_, explain);
  }
  if (explain) explain->chosen = d.node;
  d.gpus = policy_->SelectGpus(pod, cluster, d.node, rng_);
  cluster.Bind(d.node, pod.requests, pod.non_zero_requests, pod.input_index, pod.pod->Priority(), pod.gpu, d.gpus);
  return d;
}

}  // namespace gpusched
