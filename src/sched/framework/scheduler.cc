#include "gpusched/sched/framework/scheduler.h"

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/nominated_pods.h"

#include <functional>
#include <limits>

namespace gpusched {

Scheduler::Scheduler(std::vector<std::unique_ptr<FilterPlugin>> filters, std::unique_ptr<Policy> policy,
                     uint64_t seed, bool preemption)
    : filters_(std::move(filters)), policy_(std::move(policy)), rng_(seed), preemption_(preemption),
      summaries_(preemption) {
  // The index may prune only on what the filter chain itself checks, as
  // each filter declares it (FilterTraits).
  chain_known_ = true;
  for (const auto& f : filters_) {
    const FilterTraits t = f->Traits();
    if (t.checks_fit) {
      index_usable_ = true;
      index_gpu_checked_ = t.checks_gpu_count;
    }
    if (t.checks_devices) index_devices_checked_ = true;
    if (!t.in_tree) chain_known_ = false;
  }
}

void Scheduler::SyncPlain(const ClusterState& cluster) {
  if (plain_serial_ != cluster.serial()) {
    plain_serial_ = cluster.serial();
    plain_.clear();
  }
  for (size_t i = plain_.size(); i < cluster.size(); ++i) {
    const Node& node = cluster.node(i);
    bool plain = !node.unschedulable;
    for (const Taint& t : node.taints)
      if (t.effect == kTaintEffectNoSchedule || t.effect == kTaintEffectNoExecute) plain = false;
    plain_.push_back(plain);
  }
}

// On a plain node, for such a pod: NodeName and NodeAffinity have nothing to
// check; NodeResourcesFit compares exactly the free amounts in NeedOf (no
// other extended resource is requested); GpuShare's only question is
// whether one device has the share free, which is the largest free share.
bool Scheduler::DecidedByIndex(const PodInfo& pod) const {
  if (!chain_known_ || !index_usable_) return false;
  if (!pod.unconstrained) {
    const Pod& p = *pod.pod;
    if (!p.node_name.empty() || !p.node_selector.empty() || (p.node_affinity && p.node_affinity->has_required))
      return false;
  }
  if (pod.other_extended || (pod.whole_gpus > 0 && !index_gpu_checked_)) return false;
  const GpuRequest& g = pod.gpu;
  // A KAI gpu-memory share is sized per node: the index's largest free share
  // cannot decide it.
  return !g.any() || (g.models.empty() && g.memory_mib == 0 && (!g.from_annotations || g.count == 1));
}

bool Scheduler::IndexedScan(const PodInfo& pod, const ClusterState& cluster, size_t start, int64_t to_find,
                            const NodeFitIndex::Need& need) {
  index_.Sync(cluster);
  const bool by_index = DecidedByIndex(pod);
  if (by_index) SyncPlain(cluster);
  const size_t n = cluster.size();
  size_t last = 0;
  auto visit = [&](size_t from, size_t to) {
    for (size_t i = from; static_cast<int64_t>(feasible_.size()) < to_find; ++i) {
      // Most nodes meet a small pod's need: look at the next one before
      // asking the tree to jump.
      if (i >= to || !NodeFitIndex::Meets(index_.Free(i), need)) i = index_.FindFirst(i, to, need);
      if (i == NodeFitIndex::kNone) return;
      // The index returned i because it meets `need`.
      if ((by_index && plain_[i]) || PassesFilters(filters_, pod, cluster.node(i), cluster.state(i))) {
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

size_t Scheduler::PluginIndex(const FilterPlugin* p) const {
  for (size_t k = 0; k < filters_.size(); ++k)
    if (filters_[k].get() == p) return std::min<size_t>(k, 63);
  return 63;
}

void Scheduler::SyncFailures(const ClusterState& cluster) {
  // A cached failure stands while the cluster is unchanged since it was seen.
  if (failure_cluster_ != cluster.serial() || failure_version_ != cluster.version()) {
    if (!failures_.empty()) failures_.clear();
    failure_cluster_ = cluster.serial();
    failure_version_ = cluster.version();
  }
}

const std::shared_ptr<const Failure>* Scheduler::FindFailure(const PodInfo& pod, size_t hash) const {
  auto [lo, hi] = failures_.equal_range(hash);
  for (auto it = lo; it != hi; ++it)
    if (it->second.key.Matches(pod)) return &it->second.failure;
  return nullptr;
}

std::shared_ptr<const Failure> Scheduler::MakeFailure(Decision& d, uint64_t rejectors) {
  auto f = std::make_shared<Failure>();
  f->message = d.fit_error.Error();
  f->fit_error = std::move(d.fit_error);
  f->preemption = std::move(d.preemption);
  f->rejectors = rejectors;
  return f;
}

bool Scheduler::CountsNominated(const PodInfo& pod) const {
  return nominated_ != nullptr && nominated_->Affects(pod);
}

std::shared_ptr<const Failure> Scheduler::Remember(const PodInfo& pod, size_t hash, Decision& d, uint64_t rejectors) {
  std::shared_ptr<const Failure> f = MakeFailure(d, rejectors);
  // Bounded: on a full cluster every pending pod of a new class adds one.
  if (failures_.size() >= kMaxCachedFailures) failures_.clear();
  failures_.emplace(hash, CachedFailure{PodClassKey(pod), f});
  return f;
}

Attempt Scheduler::Schedule(const PodInfo& pod, ClusterState& cluster) {
  if (CountsNominated(pod)) {
    // Its failure depends on the nominations (and on which pod it is), not
    // only on its class and the cluster: neither looked up nor kept.
    uint64_t rejectors = 0;
    Decision d = ScheduleUncached(pod, cluster, nullptr, rejectors);
    if (d.scheduled) return Attempt{true, d.node, std::move(d.gpus), nullptr};
    return Attempt{false, 0, {}, MakeFailure(d, rejectors)};
  }
  SyncFailures(cluster);
  // The class is hashed only when there is a failure to find or to keep: a
  // pod that fits costs nothing more.
  size_t hash = 0;
  if (!failures_.empty()) {
    hash = ClassHash(pod);
    if (const auto* cached = FindFailure(pod, hash)) return Attempt{false, 0, {}, *cached};
  }
  uint64_t rejectors = 0;
  Decision d = ScheduleUncached(pod, cluster, nullptr, rejectors);
  if (d.scheduled) return Attempt{true, d.node, std::move(d.gpus), nullptr};
  if (failures_.empty()) hash = ClassHash(pod);
  return Attempt{false, 0, {}, Remember(pod, hash, d, rejectors)};
}

std::shared_ptr<const Failure> Scheduler::FailureOf(const PodInfo& pod, ClusterState& cluster) {
  const bool nominated = CountsNominated(pod);  // not cached: see Schedule
  SyncFailures(cluster);
  const size_t hash = nominated ? 0 : ClassHash(pod);
  if (!nominated)
    if (const auto* cached = FindFailure(pod, hash)) return *cached;
  const size_t start = next_start_index_;
  uint64_t rejectors = 0;
  dry_run_ = true;
  Decision d = ScheduleUncached(pod, cluster, nullptr, rejectors);
  dry_run_ = false;
  if (d.scheduled) {
    next_start_index_ = start;
    return nullptr;
  }
  return nominated ? MakeFailure(d, rejectors) : Remember(pod, hash, d, rejectors);
}

Decision Scheduler::ScheduleOne(const PodInfo& pod, ClusterState& cluster, PodExplain* explain) {
  if (explain) {
    uint64_t rejectors = 0;
    return ScheduleUncached(pod, cluster, explain, rejectors);
  }
  Attempt a = Schedule(pod, cluster);
  Decision d;
  d.scheduled = a.scheduled;
  d.node = a.node;
  d.gpus = std::move(a.gpus);
  if (a.failure) {
    d.fit_error = a.failure->fit_error;
    d.preemption = a.failure->preemption;
  }
  return d;
}

Decision Scheduler::ScheduleUncached(const PodInfo& pod, ClusterState& cluster, PodExplain* explain,
                                     uint64_t& rejectors) {
  Decision d;
  rejectors = 0;
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
  // Pods nominated to a node count there (RunFilterPluginsWithNominatedPods):
  // the fast paths below know nothing of them, so such a pod takes the
  // plain scan.
  const bool with_nominated = CountsNominated(pod);
  if (!explain && index_usable_ && use_index_ && n > 0 && !with_nominated) {
    // A policy with its own index (best-fit) picks directly; others get the
    // feasible set from the pruned scan.
    std::optional<size_t> pick;
    // Its index prunes on nvidia.com/gpu and devices, so only when the
    // filters check them (SelectIndexed's precondition).
    const bool own_index = index_gpu_checked_ && index_devices_checked_ && policy_->HasOwnIndex();
    if (own_index) {
      const bool by_index = DecidedByIndex(pod);
      if (by_index) SyncPlain(cluster);
      // One pointer captured: std::function keeps it inline, no allocation.
      struct Ctx {
        const Scheduler* self;
        const PodInfo* pod;
        const ClusterState* cluster;
        bool by_index;
      } ctx{this, &pod, &cluster, by_index};
      // SelectIndexed asks only about present nodes whose exact free
      // amounts meet the pod's need: on a plain node, the filters' whole verdict.
      const std::function<bool(size_t)> fits = [c = &ctx](size_t i) {
        return (c->by_index && c->self->plain_[i]) ||
               PassesFilters(c->self->filters_, *c->pod, c->cluster->node(i), c->cluster->state(i));
      };
      pick = policy_->SelectIndexed(pod, cluster, fits, rng_);
    }
    if (own_index && pick) {
      feasible_.assign(1, *pick);
      return Commit(pod, cluster, to_find, explain);
    }
    if (!own_index) {
      NodeFitIndex::Need need = NodeFitIndex::NeedOf(pod, index_gpu_checked_);
      if (!index_devices_checked_) need[NodeFitIndex::kDeviceMilli] = std::numeric_limits<int64_t>::min();
      if (IndexedScan(pod, cluster, start, to_find, need)) return Commit(pod, cluster, to_find, explain);
    }
    // The plain scan would also have found nothing; it would have moved
    // the start index past every node, i.e. back to `start`.
    if (!explain_failures_) {
      next_start_index_ = start;
      d.fit_error = std::move(err);
      return d;
    }
    // The verdicts of a pod whose shape alone decides them are kept up to
    // date per shape: only the nodes changed since are filtered again.
    if (chain_known_ && pod.unconstrained && summaries_.Explain(pod, cluster, filters_, err, d.preemption, rejectors)) {
      next_start_index_ = start;
      d.fit_error = std::move(err);
      return d;
    }
  }
  feasible_.clear();
  tally_.Clear();
  if (preemption_) codes_.assign(n, SchedStatus::Code::kSuccess);
  // findNodesThatPassFilters, sequentially: scan from `start`, stop once
  // `to_find` feasible nodes are found. Failures are tallied from views, not
  // built into statuses: a pod that fits nowhere visits every node here.
  size_t processed = 0;
  for (size_t k = 0; k < n && static_cast<int64_t>(feasible_.size()) < to_find; ++k) {
    const size_t i = (start + k) % n;
    ++processed;
    if (!cluster.present(i)) continue;
    const FilterPlugin* failed =
        with_nominated ? CheckFiltersWithNominated(filters_, pod, cluster.node(i), i, cluster.state(i), *nominated_,
                                                   verdict_, nominated_scratch_)
                       : CheckFilters(filters_, pod, cluster.node(i), cluster.state(i), verdict_);
    if (explain) {
      NodeExplain& ne = explain->nodes[i];
      ne.evaluated = true;
      ne.feasible = failed == nullptr;
      if (failed) ne.failed_plugin = std::string(failed->Name());
      ne.code = verdict_.code;
      for (const ReasonView& r : verdict_.reasons) ne.reasons.push_back(r.str());
    }
    if (!failed) {
      feasible_.push_back(i);
    } else {
      rejectors |= uint64_t{1} << PluginIndex(failed);
      tally_.Add(verdict_);
      if (preemption_) codes_[i] = verdict_.code;
    }
  }
  if (n > 0) next_start_index_ = (start + processed) % n;
  if (feasible_.empty()) {
    tally_.AddTo(err);
    if (preemption_) {
      PreemptionVerdict v = EvaluatePreemption(pod, cluster, filters_, codes_);
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
  if (dry_run_) return d;  // FailureOf: it fits, and nothing is chosen or bound
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
  cluster.Bind(d.node, pod.requests, pod.non_zero_requests, pod.input_index, pod.priority, pod.gpu, d.gpus);
  return d;
}

}  // namespace gpusched
