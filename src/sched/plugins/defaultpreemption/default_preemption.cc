#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {
namespace {

// RunFilterPluginsWithNominatedPods: with the nominated pods of equal or
// higher priority added, and, when some were, once more without them (a pod
// must fit both ways). `why` gets the first failure.
bool FitsWithNominated(const PodInfo& pod, const ClusterState& cluster, size_t node, const NodeState& s,
                       const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PreemptionInputs& in,
                       FilterVerdict& why, int64_t& calls) {
  auto run = [&](const NodeState& st) {
    ++calls;
    if (CheckFilters(filters, pod, cluster.node(node), st, why)) return false;
    return in.last == nullptr || in.last->Check(pod, cluster.node(node), st, &why);
  };
  bool added = false;
  NodeState with;
  for (const NominatedPod& n : in.nominated) {
    if (n.node != node || n.pod == nullptr || n.pod->pod == pod.pod || n.pod->priority < pod.priority) continue;
    if (!added) with = s;
    added = true;
    AddNominatedPod(with, *n.pod);
  }
  if (added && !run(with)) return false;
  return run(s);
}

using StartTimeFn = std::function<std::optional<int64_t>(uint64_t)>;

// GetPodStartTime as a key, earlier first: status.startTime; a pod without
// one started "now", after every pod with one, and of two such pods the one
// bound later reads the clock later. Without start times (`simulate`), the
// bind order.
using StartKeyT = std::pair<bool, int64_t>;
StartKeyT StartKey(const BoundPod& p, const StartTimeFn& start_time) {
  if (start_time)
    if (std::optional<int64_t> t = start_time(p.id)) return {false, *t};
  return {true, static_cast<int64_t>(p.bind_seq)};
}

// MoreImportantPod: higher priority, then the earlier start (equal starts
// keep their order: the sorts are stable).
auto MoreImportant(const StartTimeFn& start_time) {
  return [&start_time](const BoundPod& a, const BoundPod& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    return StartKey(a, start_time) < StartKey(b, start_time);
  };
}

// filterPodsWithPDBViolation: keeps the order; a PDB with a nil or empty
// selector matches nothing here, and a pod already in its disruptedPods
// does not use up its budget.
void SplitByPdbViolation(const std::vector<const BoundPod*>& pods, const PreemptionInputs& in,
                         std::vector<const BoundPod*>& violating, std::vector<const BoundPod*>& non_violating) {
  std::vector<int32_t> allowed;
  allowed.reserve(in.pdbs.size());
  for (const PdbBudget& b : in.pdbs) allowed.push_back(b.disruptions_allowed);
  for (const BoundPod* bp : pods) {
    const Pod* p = in.pod_of && !in.pdbs.empty() ? in.pod_of(bp->id) : nullptr;
    bool violated = false;
    if (p != nullptr && !p->meta.labels.empty()) {
      for (size_t i = 0; i < in.pdbs.size(); ++i) {
        const PodDisruptionBudget& pdb = *in.pdbs[i].pdb;
        if (pdb.meta.namespace_ != p->ns() || !pdb.selector || pdb.selector->Empty() ||
            !SelectorMatches(*pdb.selector, p->meta.labels))
          continue;
        const auto& disrupted = in.pdbs[i].disrupted_pods;
        if (std::find(disrupted.begin(), disrupted.end(), p->name()) != disrupted.end()) continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(bp);
  }
}

}  // namespace

std::vector<PdbBudget> PdbBudgets(const std::vector<const PodDisruptionBudget*>& pdbs,
                                  const std::vector<PdbPod>& pods, const ControllerScales& scales) {
  std::vector<PdbBudget> out;
  out.reserve(pdbs.size());
  for (const PodDisruptionBudget* pdb : pdbs) {
    PdbBudget b;
    b.pdb = pdb;
    if (pdb->status_disruptions_allowed) {
      b.disruptions_allowed = *pdb->status_disruptions_allowed;
    } else {
      std::vector<PdbPod> selected;
      for (const PdbPod& p : pods)
        if (PdbSelects(*pdb, *p.pod)) selected.push_back(p);
      b.disruptions_allowed = ComputePdbStatus(*pdb, selected, scales).disruptions_allowed;
    }
    out.push_back(std::move(b));
  }
  return out;
}

std::optional<std::string> PodIneligibleToPreemptOthers(const PodInfo& pod, std::optional<size_t> nominated_node,
                                                        SchedStatus::Code nominated_code,
                                                        const ClusterState& cluster, const PreemptionInputs& in) {
  if (pod.pod->preemption_policy == "Never") return std::string(kNotEligiblePreemptNever);
  if (nominated_node) {
    // A nominated node the filters now call UnschedulableAndUnresolvable:
    // the pod may preempt again (elsewhere).
    if (nominated_code == SchedStatus::Code::kUnschedulableAndUnresolvable) return std::nullopt;
    if (*nominated_node < cluster.size() && cluster.present(*nominated_node) && in.terminating_by_preemption) {
      for (const BoundPod& bp : cluster.state(*nominated_node).pods)
        if (bp.priority < pod.priority && in.terminating_by_preemption(bp.id))
          return std::string(kNotEligibleTerminating);
    }
  }
  return std::nullopt;
}

std::vector<size_t> NodesWherePreemptionMightHelp(const ClusterState& cluster,
                                                  const std::vector<SchedStatus::Code>& codes) {
  std::vector<size_t> out;
  for (size_t i = 0; i < cluster.size() && i < codes.size(); ++i)
    if (cluster.present(i) && codes[i] == SchedStatus::Code::kUnschedulable) out.push_back(i);
  return out;
}

int32_t NumPreemptionCandidates(int32_t num_nodes, int32_t percentage, int32_t absolute) {
  int32_t n = static_cast<int32_t>(static_cast<int64_t>(num_nodes) * percentage / 100);
  n = std::max(n, absolute);
  return std::min(n, num_nodes);
}

VictimSelection SelectVictimsOnNode(const PodInfo& pod, const ClusterState& cluster, size_t node,
                                    const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                    const PreemptionInputs& in) {
  VictimSelection out;
  const NodeState& orig = cluster.state(node);
  // Pointers into the cluster's pod list, which the dry run does not change.
  std::vector<const BoundPod*> potential;
  for (const BoundPod& bp : orig.pods)
    if (bp.priority < pod.priority && !(in.unevictable && in.unevictable(bp.id, pod.priority)))
      potential.push_back(&bp);
  if (potential.empty()) {
    out.code = SchedStatus::Code::kUnschedulableAndUnresolvable;
    out.reasons.push_back({kNoPreemptionVictims, {}});
    return out;
  }
  NodeState s = AccountingCopy(orig);
  for (const BoundPod* bp : potential) RemovePod(s, *bp);
  FilterVerdict why;
  if (!FitsWithNominated(pod, cluster, node, s, filters, in, why, out.filter_calls)) {
    out.code = why.code;
    out.reasons = why.reasons;
    return out;
  }
  const auto more_important = MoreImportant(in.start_time);
  std::stable_sort(potential.begin(), potential.end(),
                   [&](const BoundPod* a, const BoundPod* b) { return more_important(*a, *b); });
  std::vector<const BoundPod*> violating, non_violating;
  SplitByPdbViolation(potential, in, violating, non_violating);
  // Adds `bp` back; keeps it when the preemptor still fits, else it is a victim.
  auto reprieve = [&](const BoundPod* bp) {
    AddPodBack(s, *bp);
    if (FitsWithNominated(pod, cluster, node, s, filters, in, why, out.filter_calls)) return true;
    RemovePod(s, *bp);
    out.victims.push_back(*bp);
    return false;
  };
  for (const BoundPod* bp : violating)
    if (!reprieve(bp)) ++out.num_pdb_violations;
  for (const BoundPod* bp : non_violating) reprieve(bp);
  if (!violating.empty() && !non_violating.empty())
    std::stable_sort(out.victims.begin(), out.victims.end(), more_important);
  return out;
}

DryRun DryRunPreemption(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& potential,
                        size_t offset, int32_t num_candidates,
                        const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PreemptionInputs& in) {
  DryRun out;
  std::vector<PreemptionCandidate> violating, non_violating;
  const size_t n = potential.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t node = potential[(offset + k) % n];
    VictimSelection v = SelectVictimsOnNode(pod, cluster, node, filters, in);
    out.filter_calls += v.filter_calls;
    if (v.code == SchedStatus::Code::kSuccess && !v.victims.empty()) {
      // Each list holds at most num_candidates (candidateList's fixed
      // size): a violating candidate beyond it is dropped.
      auto& list = v.num_pdb_violations == 0 ? non_violating : violating;
      if (static_cast<int64_t>(list.size()) < num_candidates)
        list.push_back(PreemptionCandidate{node, std::move(v.victims), v.num_pdb_violations});
      const int64_t total = static_cast<int64_t>(non_violating.size() + violating.size());
      if (!non_violating.empty() && total >= num_candidates) break;
      continue;
    }
    if (v.code == SchedStatus::Code::kSuccess) {
      // Every victim reprieved: the node did not need preemption. Upstream
      // records an Error status for it ("expected at least one victim").
      if (out.error.empty())
        out.error = "expected at least one victim pod on node \"" + cluster.node(node).name() + "\"";
      continue;
    }
    out.statuses.Add(v.code, v.reasons);
  }
  out.candidates = std::move(non_violating);
  for (PreemptionCandidate& c : violating) out.candidates.push_back(std::move(c));
  return out;
}

size_t SelectCandidate(const std::vector<PreemptionCandidate>& given, const StartTimeFn& start_time) {
  if (given.size() <= 1) return 0;
  // A candidate's cost includes its co-victims (--preempt-gangs whole).
  std::vector<PreemptionCandidate> with_co;
  bool any_co = false;
  for (const PreemptionCandidate& c : given) any_co = any_co || !c.co_victims.empty();
  if (any_co) {
    with_co.reserve(given.size());
    for (const PreemptionCandidate& c : given) {
      PreemptionCandidate w{c.node, c.victims, c.num_pdb_violations};
      for (const CoVictim& cv : c.co_victims) w.victims.push_back(cv.pod);
      std::stable_sort(w.victims.begin(), w.victims.end(), MoreImportant(start_time));
      with_co.push_back(std::move(w));
    }
  }
  const std::vector<PreemptionCandidate>& candidates = any_co ? with_co : given;
  std::vector<size_t> all(candidates.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  using Score = std::function<int64_t(const PreemptionCandidate&)>;
  const Score scores[] = {
      [](const PreemptionCandidate& c) { return -c.num_pdb_violations; },
      [](const PreemptionCandidate& c) { return -static_cast<int64_t>(c.victims.front().priority); },
      [](const PreemptionCandidate& c) {
        int64_t sum = 0;
        for (const BoundPod& v : c.victims)
          sum += static_cast<int64_t>(v.priority) + static_cast<int64_t>(std::numeric_limits<int32_t>::max()) + 1;
        return -sum;
      },
      [](const PreemptionCandidate& c) { return -static_cast<int64_t>(c.victims.size()); },
  };
  // GetEarliestPodStartTime: the earliest start among the victims of the
  // highest priority; the later it is, the better.
  auto earliest_start = [&start_time](const PreemptionCandidate& c) {
    int32_t max_prio = c.victims.front().priority;
    StartKeyT earliest = StartKey(c.victims.front(), start_time);
    for (const BoundPod& v : c.victims) {
      if (v.priority == max_prio) {
        earliest = std::min(earliest, StartKey(v, start_time));
      } else if (v.priority > max_prio) {
        max_prio = v.priority;
        earliest = StartKey(v, start_time);
      }
    }
    return earliest;
  };
  for (const Score& f : scores) {
    std::vector<size_t> selected;
    int64_t best = std::numeric_limits<int64_t>::min();
    for (size_t i : all) {
      const int64_t s = f(candidates[i]);
      if (s > best) {
        best = s;
        selected.clear();
      }
      if (s == best) selected.push_back(i);
    }
    if (selected.size() == 1) return selected.front();
    all = std::move(selected);
  }
  size_t best = all.front();
  StartKeyT best_start = earliest_start(candidates[best]);
  for (size_t i : all) {
    const StartKeyT s = earliest_start(candidates[i]);
    if (s > best_start) {
      best = i;
      best_start = s;
    }
  }
  return best;
}

PreemptionResult Preempt(const PodInfo& pod, const ClusterState& cluster,
                         const std::vector<SchedStatus::Code>& codes,
                         const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PreemptionInputs& in,
                         uint64_t offset_seed, std::optional<size_t> nominated_node) {
  PreemptionResult out;
  SchedStatus::Code nominated_code = SchedStatus::Code::kUnschedulableAndUnresolvable;
  if (nominated_node && *nominated_node < codes.size()) nominated_code = codes[*nominated_node];
  if (std::optional<std::string> why = PodIneligibleToPreemptOthers(pod, nominated_node, nominated_code, cluster, in)) {
    out.message = "preemption: " + *why;
    return out;
  }
  const std::vector<size_t> potential = NodesWherePreemptionMightHelp(cluster, codes);
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  DryRun dry;
  if (!potential.empty()) {
    const int32_t n = static_cast<int32_t>(potential.size());
    dry = DryRunPreemption(pod, cluster, potential, static_cast<size_t>(offset_seed % potential.size()),
                           NumPreemptionCandidates(n, in.min_candidate_nodes_percentage,
                                                   in.min_candidate_nodes_absolute),
                           filters, in);
  }
  if (dry.candidates.empty() && !dry.error.empty()) {
    // findCandidates' error with no candidate: the PostFilter's Error status.
    out.message = "preemption: " + dry.error;
    return out;
  }
  if (dry.candidates.empty()) {
    // SetAbsentNodesStatus: the nodes the dry run did not reach.
    int64_t absent = static_cast<int64_t>(cluster.num_present()) - static_cast<int64_t>(potential.size());
    for (int64_t i = 0; i < absent; ++i)
      dry.statuses.Add(SchedStatus::Code::kUnschedulableAndUnresolvable, kPreemptionNotHelpful);
    dry.statuses.AddTo(err);
    out.message = "preemption: " + err.Error();
    return out;
  }
  if (in.co_victims)
    for (PreemptionCandidate& c : dry.candidates) c.co_victims = in.co_victims(c.victims);
  const size_t best = SelectCandidate(dry.candidates, in.start_time);
  out.nominated = true;
  out.node = dry.candidates[best].node;
  out.victims = std::move(dry.candidates[best].victims);
  out.num_pdb_violations = dry.candidates[best].num_pdb_violations;
  out.co_victims = std::move(dry.candidates[best].co_victims);
  return out;
}

}  // namespace gpusched
