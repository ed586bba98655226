#include "gpusched/sched/index/failure_summary.h"

#include <algorithm>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {
namespace {

bool SameReason(const std::string& s, const ReasonView& r) {
  return s.size() == r.text.size() + r.suffix.size() && s.compare(0, r.text.size(), r.text) == 0 &&
         s.compare(r.text.size(), r.suffix.size(), r.suffix) == 0;
}

}  // namespace

uint16_t FailureSummaries::Intern(SchedStatus::Code code, const std::vector<ReasonView>& reasons, uint16_t plugin) {
  for (size_t id = 0; id < verdicts_.size(); ++id) {
    const Verdict& v = verdicts_[id];
    if (v.code != code || v.plugin != plugin || v.reasons.size() != reasons.size()) continue;
    bool same = true;
    for (size_t k = 0; k < reasons.size() && same; ++k) same = SameReason(v.reasons[k], reasons[k]);
    if (same) return static_cast<uint16_t>(id);
  }
  Verdict v{code, {}, plugin};
  for (const ReasonView& r : reasons) v.reasons.push_back(r.str());
  verdicts_.push_back(std::move(v));
  return static_cast<uint16_t>(verdicts_.size() - 1);
}

uint16_t FailureSummaries::Intern(SchedStatus::Code code, std::string_view reason) {
  return Intern(code, std::vector<ReasonView>{ReasonView{reason, {}}});
}

void FailureSummaries::Count(std::vector<int64_t>& counts, uint16_t id, int64_t delta) {
  if (id == kAbsent || id == kHelps) return;
  if (counts.size() <= id) counts.resize(id + 1u, 0);
  counts[id] += delta;
}

bool FailureSummaries::Matches(const Shape& s, const PodInfo& pod) const {
  return s.requests == pod.requests && s.gpu == pod.gpu && s.priority == pod.priority &&
         s.preemption_policy == pod.pod->preemption_policy;
}

// PodEligibleToPreemptOthers: with preemptionPolicy Never there is no dry run.
bool FailureSummaries::EvaluatesPreemption(const PodInfo& pod) const {
  return preemption_ && pod.pod->preemption_policy != "Never";
}

// Node i's verdicts for the shape, from its state now.
void FailureSummaries::Update(Shape& s, const PodInfo& pod, const ClusterState& cluster, size_t i) {
  if (s.filter.size() <= i) {
    s.filter.resize(i + 1, kAbsent);
    s.preempt.resize(i + 1, kAbsent);
    s.dry.resize(i + 1, 0);
  }
  s.dry_count -= s.dry[i];
  s.dry[i] = 0;
  Count(s.filter_count, s.filter[i], -1);
  Count(s.preempt_count, s.preempt[i], -1);
  if (s.preempt[i] == kHelps) s.helps.erase(i);
  s.filter[i] = s.preempt[i] = kAbsent;
  if (!cluster.present(i)) return;

  const NodeState& state = cluster.state(i);
  const Node& node = cluster.node(i);
  const FilterPlugin* failed = CheckFilters(*filters_, pod, node, state, why_);
  uint16_t plugin = kNoPlugin;
  for (size_t k = 0; failed && k < filters_->size(); ++k)
    if ((*filters_)[k].get() == failed) plugin = static_cast<uint16_t>(std::min<size_t>(k, 63));
  s.filter[i] = Intern(why_.code, why_.reasons, plugin);
  Count(s.filter_count, s.filter[i], 1);
  if (!EvaluatesPreemption(pod)) return;

  // EvaluatePreemption's rules for one node.
  uint16_t p;
  if (why_.code != SchedStatus::Code::kUnschedulable) {
    p = Intern(SchedStatus::Code::kUnschedulableAndUnresolvable, kPreemptionNotHelpful);
  } else {
    const int32_t prio = pod.priority;
    int64_t victims = 0;
    for (const BoundPod& bp : state.pods) victims += bp.priority < prio;
    if (victims == 0) {
      p = Intern(SchedStatus::Code::kUnschedulableAndUnresolvable, kNoPreemptionVictims);
    } else {
      s.dry[i] = 1;
      ++s.dry_count;
      NodeState without = state;
      for (const BoundPod& bp : state.pods)
        if (bp.priority < prio) without.Remove(bp);
      if (!CheckFilters(*filters_, pod, node, without, why_)) {
        p = kHelps;
        s.helps.insert(i);
      } else {
        p = Intern(why_.code, why_.reasons);
      }
    }
  }
  s.preempt[i] = p;
  Count(s.preempt_count, p, 1);
}

FailureSummaries::Shape& FailureSummaries::ShapeOf(const PodInfo& pod, const ClusterState& cluster) {
  Shape* shape = nullptr;
  for (Shape& s : shapes_)
    if (Matches(s, pod)) shape = &s;
  if (!shape) {
    if (shapes_.size() < kMaxShapes) {
      shapes_.emplace_back();
      shape = &shapes_.back();
    } else {  // the least recently used makes way
      shape = &*std::min_element(shapes_.begin(), shapes_.end(),
                                 [](const Shape& a, const Shape& b) { return a.last_used < b.last_used; });
      *shape = Shape();
    }
    shape->requests = pod.requests;
    shape->gpu = pod.gpu;
    shape->priority = pod.priority;
    shape->preemption_policy = pod.pod->preemption_policy;
  }
  shape->last_used = ++clock_;
  const ChangeLog& log = cluster.change_log();
  Shape& s = *shape;
  if (s.serial != cluster.serial() || !log.Holds(s.log_pos) || log.end() - s.log_pos >= cluster.size()) {
    // New, another cluster, more changes than nodes, or changes the log no
    // longer holds: every node afresh.
    s.filter.clear();
    s.preempt.clear();
    s.filter_count.clear();
    s.preempt_count.clear();
    s.helps.clear();
    s.dry.clear();
    s.dry_count = 0;
    s.serial = cluster.serial();
    for (size_t i = 0; i < cluster.size(); ++i) Update(s, pod, cluster, i);
  } else {
    if (seen_.size() < cluster.size()) seen_.resize(cluster.size(), 0);
    ++batch_;
    for (uint64_t k = s.log_pos; k < log.end(); ++k) {
      const size_t i = log[k];
      if (seen_[i] == batch_) continue;
      seen_[i] = batch_;
      Update(s, pod, cluster, i);
    }
  }
  s.log_pos = log.end();
  return s;
}

bool FailureSummaries::Explain(const PodInfo& pod, const ClusterState& cluster,
                               const std::vector<std::unique_ptr<FilterPlugin>>& filters, FitError& err,
                               std::optional<PreemptionVerdict>& preemption) {
  uint64_t rejectors = 0;
  return Explain(pod, cluster, filters, err, preemption, rejectors);
}

bool FailureSummaries::Explain(const PodInfo& pod, const ClusterState& cluster,
                               const std::vector<std::unique_ptr<FilterPlugin>>& filters, FitError& err,
                               std::optional<PreemptionVerdict>& preemption, uint64_t& rejectors) {
  filters_ = &filters;
  const Shape& s = ShapeOf(pod, cluster);
  last_dry_run_ = s.dry_count > 0;
  const uint16_t fits = Intern(SchedStatus::Code::kSuccess, std::vector<ReasonView>{});
  if (fits < s.filter_count.size() && s.filter_count[fits] > 0) return false;

  err = FitError();
  err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  auto add = [](FitError& e, const std::vector<int64_t>& counts, const std::vector<Verdict>& verdicts) {
    for (size_t id = 0; id < counts.size(); ++id) {
      if (counts[id] == 0) continue;
      for (const std::string& r : verdicts[id].reasons) e.reason_counts[r] += counts[id];
      if (verdicts[id].code == SchedStatus::Code::kUnschedulableAndUnresolvable) e.unresolvable_nodes += counts[id];
    }
  };
  add(err, s.filter_count, verdicts_);
  rejectors = 0;
  for (size_t id = 0; id < s.filter_count.size(); ++id)
    if (s.filter_count[id] > 0 && verdicts_[id].plugin != kNoPlugin) rejectors |= uint64_t{1} << verdicts_[id].plugin;
  preemption.reset();
  if (!preemption_) return true;
  PreemptionVerdict v;
  if (!EvaluatesPreemption(pod)) {
    v.message = "preemption: not eligible due to preemptionPolicy=Never.";
  } else if (!s.helps.empty()) {
    // EvaluatePreemption stops at the first such node in node order.
    v.would_help = true;
    v.node = *s.helps.begin();
    const int32_t prio = pod.priority;
    for (const BoundPod& bp : cluster.state(v.node).pods) v.victims += bp.priority < prio;
  } else {
    FitError dry_run;
    dry_run.num_all_nodes = err.num_all_nodes;
    add(dry_run, s.preempt_count, verdicts_);
    v.message = "preemption: " + dry_run.Error();
  }
  // When preemption would help, kube-scheduler nominates a node and the
  // FitError carries no post-filter message.
  if (!v.would_help) err.post_filter_message = v.message;
  preemption = std::move(v);
  return true;
}

}  // namespace gpusched
