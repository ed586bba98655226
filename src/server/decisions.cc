#include "gpusched/server/decisions.h"

#include <algorithm>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

NodeVerdict ExtenderDecisions::Filter(const PodInfo& pod, const ClusterState& cluster, size_t node) {
  NodeVerdict v;
  if (!CheckFilters(scheduler_.filters(), pod, cluster.node(node), cluster.state(node), verdict_)) {
    v.passed = true;
    return v;
  }
  v.unresolvable = verdict_.code == SchedStatus::Code::kUnschedulableAndUnresolvable;
  for (size_t i = 0; i < verdict_.reasons.size(); ++i) {
    if (i) v.reason += ", ";
    v.reason += verdict_.reasons[i].str();
  }
  return v;
}

bool ExtenderDecisions::PreFilter(const PodInfo& pod, const ClusterState& cluster) {
  cycle_ = CycleState();
  reject_ = SchedStatus::Success();
  prefiltered_.reset();
  if (!scheduler_.PreFilter(pod, cluster, cycle_, reject_)) return false;
  prefiltered_ = pod;
  prefiltered_->cycle = &cycle_;
  return true;
}

NodeVerdict ExtenderDecisions::FilterPreFiltered(const ClusterState& cluster, size_t node) {
  if (reject_.IsSuccess()) return Filter(*prefiltered_, cluster, node);
  // Every node gets PreFilter's status (SetAbsentNodesStatus).
  NodeVerdict v;
  v.unresolvable = reject_.code() == SchedStatus::Code::kUnschedulableAndUnresolvable;
  for (size_t i = 0; i < reject_.reasons().size(); ++i) v.reason += (i ? ", " : "") + reject_.reasons()[i];
  return v;
}

void ExtenderDecisions::ScorePicks(const ClusterState& cluster, const std::vector<size_t>& feasible,
                                   std::vector<int64_t>& scores) {
  // The j-th pick scores 10 - j; a node named twice in the request may be
  // picked once per name and keeps its best score, as the plain loop does.
  node_score_.resize(cluster.size(), 0);
  for (size_t j = 0; j < picks_.size(); ++j)
    node_score_[picks_[j]] = std::max(node_score_[picks_[j]], kMaxExtenderScore - static_cast<int64_t>(j));
  for (size_t k = 0; k < feasible.size(); ++k) scores[k] = node_score_[feasible[k]];
  for (size_t p : picks_) node_score_[p] = 0;
}

void ExtenderDecisions::Prioritize(const PodInfo& pod, const ClusterState& cluster,
                                   const std::vector<size_t>& feasible, std::vector<int64_t>& scores) {
  scores.assign(feasible.size(), 0);
  if (feasible.empty()) return;
  if (feasible.size() == 1) {
    scores[0] = kMaxExtenderScore;
    return;
  }
  const Policy& policy = scheduler_.policy();
  if (!plain_ && policy.RanksInOnePass()) {
    // No scores: Select's choice and its next picks in one pass.
    policy.SelectInTurn(pod, cluster, feasible, static_cast<size_t>(kMaxExtenderScore), rng_, *policy_state_, picks_);
    ScorePicks(cluster, feasible, scores);
    return;
  }
  // Select with explain, as `gpusched explain` runs it: it records each
  // scored node's total.
  explain_.nodes.resize(cluster.size());
  for (size_t i : feasible) {
    NodeExplain& ne = explain_.nodes[i];
    ne.node = i;
    ne.scored = false;
    ne.scores.clear();
    ne.total = 0;
  }
  const size_t chosen = policy.Select(pod, cluster, feasible, rng_, *policy_state_, &explain_);
  bool scored = false;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i : feasible) {
    const NodeExplain& ne = explain_.nodes[i];
    if (!ne.scored) continue;
    scored = true;
    lo = std::min(lo, ne.total);
    hi = std::max(hi, ne.total);
  }
  if (scored) {
    for (size_t k = 0; k < feasible.size(); ++k) {
      const NodeExplain& ne = explain_.nodes[feasible[k]];
      if (feasible[k] == chosen) {
        scores[k] = kMaxExtenderScore;
      } else if (!ne.scored) {
        scores[k] = 0;
      } else if (hi == lo) {
        scores[k] = kMaxExtenderScore - 1;
      } else {
        // 128-bit: totals of kube-default's plugins times weights stay far
        // below, but nothing here assumes it.
        const __int128 num = static_cast<__int128>(kMaxExtenderScore - 1) * (ne.total - lo);
        scores[k] = static_cast<int64_t>(num / (static_cast<__int128>(hi) - lo));
      }
    }
    return;
  }
  // A policy without scores: its picks in order.
  if (!plain_) {
    std::vector<size_t> rest = feasible;
    rest.erase(std::find(rest.begin(), rest.end(), chosen));
    policy.SelectInTurn(pod, cluster, std::move(rest), static_cast<size_t>(kMaxExtenderScore - 1), rng_,
                        *policy_state_, picks_);
    picks_.insert(picks_.begin(), chosen);
    ScorePicks(cluster, feasible, scores);
    return;
  }
  std::vector<size_t> rest = feasible;
  size_t pick = chosen;
  for (int64_t score = kMaxExtenderScore; score > 0 && !rest.empty(); --score) {
    for (size_t k = 0; k < feasible.size(); ++k)
      if (feasible[k] == pick) scores[k] = std::max(scores[k], score);
    rest.erase(std::find(rest.begin(), rest.end(), pick));
    if (rest.empty() || score == 1) break;
    pick = rest.size() == 1 ? rest.front() : policy.Select(pod, cluster, rest, rng_, *policy_state_, nullptr);
  }
}

std::vector<int32_t> ExtenderDecisions::ChooseDevices(const PodInfo& pod, const ClusterState& cluster, size_t node) {
  return scheduler_.policy().SelectGpus(pod, cluster, node, rng_, *policy_state_);
}

}  // namespace gpusched
