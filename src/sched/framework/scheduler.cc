#include "gpusched/sched/framework/scheduler.h"

#include <algorithm>

#include "gpusched/sched/framework/indexed_scan.h"
#include "gpusched/sched/framework/policy_index_search.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"
#include "gpusched/sched/plugins/nominated_pods.h"

namespace gpusched {

void Scheduler::set_use_index(bool on) {
  use_index_ = on;
  for (const auto& f : filters_) f->SetUseIndex(on);
  policy_->SetUseIndex(on);
}

Scheduler::Scheduler(std::vector<std::unique_ptr<FilterPlugin>> filters, std::unique_ptr<Policy> policy,
                     uint64_t seed, bool preemption)
    : filters_(std::move(filters)),
      policy_(std::move(policy)),
      policy_state_(policy_->NewState()),
      rng_(seed),
      preemption_(preemption),
      plain_(preemption) {
  // Each fast path only where what it relies on is declared (its Usable);
  // a policy's own index before the node index, which it makes unneeded.
  const ChainTraits chain = ChainTraits::Of(filters_);
  if (PolicyIndexSearch::Usable(chain, *policy_)) {
    search_ = std::make_unique<PolicyIndexSearch>(chain);
  } else if (IndexedScan::Usable(chain)) {
    search_ = std::make_unique<IndexedScan>(chain);
  }
  if (SummarizedFailures::Usable(chain)) summaries_ = std::make_unique<SummarizedFailures>(preemption_);
  if (FailureCache::Usable(chain)) failures_ = std::make_unique<FailureCache>();
  for (size_t k = 0; k < filters_.size(); ++k)
    if (filters_[k]->HasPreFilter()) pre_filters_.push_back(k);
  for (const auto& f : filters_)
    if (const auto* dra = dynamic_cast<const DynamicResources*>(f.get())) dra_ = dra;
}

bool Scheduler::PreFilter(const PodInfo& pod, const ClusterState& cluster, CycleState& cycle,
                          SchedStatus& reject) const {
  bool stateful = false;
  for (size_t k : pre_filters_) {
    const FilterPlugin& f = *filters_[k];
    SchedStatus r = SchedStatus::Success();
    std::unique_ptr<PreFilterData> data = f.PreFilter(pod, cluster, r);
    if (!r.IsSuccess()) {
      r.set_plugin(std::string(f.Name()));
      reject = std::move(r);
      return true;
    }
    if (data) {
      cycle.Put(&f, std::move(data), f.Name());
      stateful = true;
    }
  }
  return stateful;
}

bool Scheduler::PreFilterState(const PodInfo& pod, const ClusterState& cluster, CycleState& cycle) const {
  SchedStatus reject = SchedStatus::Success();
  return !pre_filters_.empty() && PreFilter(pod, cluster, cycle, reject) && reject.IsSuccess();
}

Decision Scheduler::PreFilterRejected(const PodInfo& pod, const ClusterState& cluster, const SchedStatus& reject,
                                      uint64_t& rejectors) {
  Decision d;
  d.fit_error.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  // Status.Message(): the reasons joined with ", ".
  for (size_t k = 0; k < reject.reasons().size(); ++k)
    d.fit_error.pre_filter_message += (k ? ", " : "") + reject.reasons()[k];
  if (reject.code() == SchedStatus::Code::kUnschedulableAndUnresolvable)
    d.fit_error.unresolvable_nodes = d.fit_error.num_all_nodes;
  rejectors = 0;
  for (size_t k = 0; k < filters_.size(); ++k)
    if (filters_[k]->Name() == reject.plugin()) rejectors |= uint64_t{1} << std::min<size_t>(k, 63);
  if (preemption_) {
    const std::vector<SchedStatus::Code> codes(cluster.size(), reject.code());
    PreemptionVerdict v = EvaluatePreemption(pod, cluster, filters_, codes);
    if (!v.would_help) d.fit_error.post_filter_message = v.message;
    d.preemption = std::move(v);
  }
  return d;
}

Decision Scheduler::ScheduleWithCycle(const PodInfo& pod, ClusterState& cluster, const CycleState& cycle,
                                      const SchedStatus& reject, PodExplain* explain, uint64_t& rejectors) {
  // The framework's copy of the pod for this attempt (PodInfo::cycle).
  PodInfo with = pod;
  with.cycle = &cycle;
  if (!reject.IsSuccess()) return PreFilterRejected(with, cluster, reject, rejectors);
  return ScheduleUncached(with, cluster, explain, rejectors);
}

SearchContext Scheduler::Context(const PodInfo& pod, const ClusterState& cluster, size_t start, int64_t to_find) {
  return SearchContext{pod, cluster, filters_, *policy_, *policy_state_, rng_, start, to_find};
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

bool Scheduler::Cacheable(const PodInfo& pod) const {
  // A pod-aware pod is a class of its own (pod_class.h): its failure would
  // never be found again, only kept.
  return failures_ != nullptr && !pod.pod_aware && !CountsNominated(pod);
}

Attempt Scheduler::Schedule(const PodInfo& pod, ClusterState& cluster) {
  if (!pre_filters_.empty() && pod.cycle == nullptr) {
    CycleState cycle;
    SchedStatus reject = SchedStatus::Success();
    if (PreFilter(pod, cluster, cycle, reject)) {
      uint64_t rejectors = 0;
      Decision d = ScheduleWithCycle(pod, cluster, cycle, reject, nullptr, rejectors);
      if (d.scheduled) return Attempt{true, d.node, std::move(d.gpus), nullptr, std::move(d.claims)};
      return Attempt{false, 0, {}, MakeFailure(d, rejectors)};
    }
  }
  if (!Cacheable(pod)) {
    // Its failure depends on the nominations (and on which pod it is), not
    // only on its class and the cluster: neither looked up nor kept.
    uint64_t rejectors = 0;
    Decision d = ScheduleUncached(pod, cluster, nullptr, rejectors);
    if (d.scheduled) return Attempt{true, d.node, std::move(d.gpus), nullptr};
    return Attempt{false, 0, {}, MakeFailure(d, rejectors)};
  }
  // The class is hashed only when there is a failure to find or to keep: a
  // pod that fits costs nothing more.
  size_t hash = 0;
  bool hashed = false;
  {
    failures_->Sync(cluster);
    if (!failures_->empty()) {
      hash = ClassHash(pod);
      hashed = true;
      if (const auto* kept = failures_->Find(pod, hash)) return Attempt{false, 0, {}, *kept};
    }
  }
  uint64_t rejectors = 0;
  Decision d = ScheduleUncached(pod, cluster, nullptr, rejectors);
  if (d.scheduled) return Attempt{true, d.node, std::move(d.gpus), nullptr};
  std::shared_ptr<const Failure> f = MakeFailure(d, rejectors);
  {
    if (!hashed) hash = ClassHash(pod);
    failures_->Keep(pod, hash, f);
  }
  return Attempt{false, 0, {}, std::move(f)};
}

std::shared_ptr<const Failure> Scheduler::FailureOf(const PodInfo& pod, ClusterState& cluster) {
  if (!pre_filters_.empty() && pod.cycle == nullptr) {
    CycleState cycle;
    SchedStatus reject = SchedStatus::Success();
    if (PreFilter(pod, cluster, cycle, reject)) {
      const size_t start = next_start_index_;
      uint64_t rejectors = 0;
      dry_run_ = true;
      Decision d = ScheduleWithCycle(pod, cluster, cycle, reject, nullptr, rejectors);
      dry_run_ = false;
      if (d.scheduled) {
        next_start_index_ = start;
        return nullptr;
      }
      return MakeFailure(d, rejectors);
    }
  }
  const bool cacheable = Cacheable(pod);  // see Schedule
  size_t hash = 0;
  if (cacheable) {
    failures_->Sync(cluster);
    hash = ClassHash(pod);
    if (const auto* kept = failures_->Find(pod, hash)) return *kept;
  }
  const size_t start = next_start_index_;
  uint64_t rejectors = 0;
  dry_run_ = true;
  Decision d = ScheduleUncached(pod, cluster, nullptr, rejectors);
  dry_run_ = false;
  if (d.scheduled) {
    next_start_index_ = start;
    return nullptr;
  }
  std::shared_ptr<const Failure> f = MakeFailure(d, rejectors);
  if (cacheable) failures_->Keep(pod, hash, f);
  return f;
}

Decision Scheduler::ScheduleOne(const PodInfo& pod, ClusterState& cluster, PodExplain* explain) {
  if (explain && !pre_filters_.empty() && pod.cycle == nullptr) {
    CycleState cycle;
    SchedStatus reject = SchedStatus::Success();
    if (PreFilter(pod, cluster, cycle, reject)) {
      uint64_t rejectors = 0;
      return ScheduleWithCycle(pod, cluster, cycle, reject, explain, rejectors);
    }
  }
  if (explain) {
    uint64_t rejectors = 0;
    return ScheduleUncached(pod, cluster, explain, rejectors);
  }
  Attempt a = Schedule(pod, cluster);
  Decision d;
  d.scheduled = a.scheduled;
  d.node = a.node;
  d.gpus = std::move(a.gpus);
  d.claims = std::move(a.claims);
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
  const size_t n = cluster.size();
  feasible_.clear();
  d.fit_error.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  const int64_t to_find = policy_->NumFeasibleNodesToFind(static_cast<int64_t>(cluster.num_present()));
  const size_t start = policy_->RotatesStartIndex() && n > 0 ? next_start_index_ % n : 0;
  SearchContext ctx = Context(pod, cluster, start, to_find);
  // Pods nominated to a node count there (RunFilterPluginsWithNominatedPods):
  // the fast paths know nothing of them, so such a pod takes the plain scan.
  // So does a pod with PreFilter state, unless the search serves it: the
  // fast paths rely on FilterTraits, which hold for the pods every
  // PreFilter skips; and its failure is explained from its shape's summary
  // only where the stateful filters are known not to have run.
  if (CountsNominated(pod)) ctx.nominated = nominated_;
  if (!explain && use_index_ && search_ && n > 0 && ctx.nominated == nullptr &&
      (pod.cycle == nullptr || search_->ServesPreFilterState())) {
    if (search_->Find(ctx, feasible_, next_start_index_)) return Commit(pod, cluster, to_find, explain);
    // The plain scan would also have found nothing; it would have moved
    // the start index past every node, i.e. back to `start`.
    if (!explain_failures_) {
      next_start_index_ = start;
      return d;
    }
    if (summaries_ && (pod.cycle == nullptr ? summaries_->Explain(ctx, d.fit_error, d.preemption, rejectors)
                                            : summaries_->ExplainStateful(ctx, d.fit_error, d.preemption, rejectors))) {
      next_start_index_ = start;
      return d;
    }
  }
  if (plain_.Run(ctx, explain, feasible_, next_start_index_, d.fit_error, d.preemption, rejectors))
    return Commit(pod, cluster, to_find, explain);
  return d;
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
    d.node = policy_->Select(pod, cluster, feasible_, rng_, *policy_state_, explain);
  }
  if (explain) explain->chosen = d.node;
  d.gpus = policy_->SelectGpus(pod, cluster, d.node, rng_, *policy_state_);
  cluster.Bind(d.node, pod.requests, pod.non_zero_requests, pod.input_index, pod.priority, pod.gpu, d.gpus,
               pod.pod);
  // Reserve: DynamicResources records the claims' devices for the next pods.
  if (dra_ != nullptr) d.claims = dra_->Reserve(pod, cluster, d.node);
  return d;
}

}  // namespace gpusched
