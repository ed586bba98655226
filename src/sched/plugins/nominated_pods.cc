#include "gpusched/sched/plugins/nominated_pods.h"

#include <algorithm>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

void NominatedPods::Nominate(const PodInfo& pod, size_t node) {
  Remove(pod.pod);
  node_of_.emplace(pod.pod, Entry{&pod, node});
  by_node_[node].push_back(&pod);
  priorities_.insert(pod.priority);
}

void NominatedPods::Remove(const Pod* pod) {
  auto it = node_of_.find(pod);
  if (it == node_of_.end()) return;
  const Entry e = it->second;
  node_of_.erase(it);
  priorities_.erase(priorities_.find(e.info->priority));
  auto on = by_node_.find(e.node);
  std::erase(on->second, e.info);
  if (on->second.empty()) by_node_.erase(on);
}

std::optional<size_t> NominatedPods::NodeOf(const Pod* pod) const {
  auto it = node_of_.find(pod);
  if (it == node_of_.end()) return std::nullopt;
  return it->second.node;
}

bool NominatedPods::Affects(const PodInfo& pod) const {
  auto it = priorities_.lower_bound(pod.priority);
  if (it == priorities_.end()) return false;
  // The pod's own nomination does not count: it needs a second one.
  if (node_of_.find(pod.pod) == node_of_.end()) return true;
  return ++it != priorities_.end();
}

void NominatedPods::On(size_t node, const PodInfo& pod, std::vector<const PodInfo*>& out) const {
  out.clear();
  auto it = by_node_.find(node);
  if (it == by_node_.end()) return;
  for (const PodInfo* p : it->second)
    if (p->pod != pod.pod && p->priority >= pod.priority) out.push_back(p);
}

std::vector<NominatedPod> NominatedPods::All() const {
  std::vector<NominatedPod> out;
  out.reserve(node_of_.size());
  for (const auto& [node, pods] : by_node_)
    for (const PodInfo* p : pods) out.push_back(NominatedPod{p, node});
  return out;
}

void AddPodBack(NodeState& s, const BoundPod& p) {
  s.requested.Add(p.requests);
  s.non_zero_requested.milli_cpu = SatAdd(s.non_zero_requested.milli_cpu, p.non_zero_milli_cpu);
  s.non_zero_requested.memory = SatAdd(s.non_zero_requested.memory, p.non_zero_memory);
  s.num_pods++;
  int64_t reserved = 0;
  for (int32_t d : p.gpus) {
    int32_t& f = s.gpu_free_milli[static_cast<size_t>(d)];
    if (f == kGpuMilli) ++reserved;
    f -= p.gpu_milli;
  }
  if (p.gpu_reserves && reserved > 0) s.requested.AddScalar(kResourceGPU, reserved);
  s.gpu_requested = s.requested.Scalar(kResourceGPU);
  s.pods.push_back(p);
  s.pod_ids.push_back(p.id);
  ++s.version;
}

void RemovePod(NodeState& s, const BoundPod& p) {
  s.Remove(p);
  for (size_t k = 0; k < s.pods.size(); ++k) {
    if (s.pods[k].bind_seq != p.bind_seq || s.pods[k].id != p.id) continue;
    s.pods.erase(s.pods.begin() + static_cast<std::ptrdiff_t>(k));
    if (k < s.pod_ids.size()) s.pod_ids.erase(s.pod_ids.begin() + static_cast<std::ptrdiff_t>(k));
    break;
  }
}

NodeState AccountingCopy(const NodeState& o) {
  NodeState s;
  s.allocatable = o.allocatable;
  s.requested = o.requested;
  s.non_zero_requested = o.non_zero_requested;
  s.num_pods = o.num_pods;
  s.gpu_free_milli = o.gpu_free_milli;
  s.pods = o.pods;
  s.pod_ids = o.pod_ids;
  s.gpu_model = o.gpu_model;
  s.gpu_memory_mib = o.gpu_memory_mib;
  s.prefer_no_schedule_taint = o.prefer_no_schedule_taint;
  s.present = o.present;
  s.version = o.version;
  s.gpu_allocatable = o.gpu_allocatable;
  s.gpu_requested = o.gpu_requested;
  return s;
}

void AddNominatedPod(NodeState& s, const PodInfo& p) {
  BoundPod b;
  b.id = p.input_index;
  b.priority = p.priority;
  b.bind_seq = ~0ull;  // after every bound pod
  b.pod = p.pod;
  b.requests = p.requests;
  b.non_zero_milli_cpu = p.non_zero_requests.milli_cpu;
  b.non_zero_memory = p.non_zero_requests.memory;
  b.gpu_reserves = p.gpu.from_annotations;
  if (p.gpu.any()) {
    const int32_t milli = s.GpuMilliFor(p.gpu);
    b.gpu_milli = milli;
    if (milli > 0 && p.gpu.shared()) {
      int32_t best = -1;
      for (size_t d = 0; d < s.gpu_free_milli.size(); ++d)
        if (s.gpu_free_milli[d] >= milli &&
            (best < 0 || s.gpu_free_milli[d] < s.gpu_free_milli[static_cast<size_t>(best)]))
          best = static_cast<int32_t>(d);
      if (best >= 0) b.gpus.push_back(best);
    } else if (milli > 0) {
      for (size_t d = 0; d < s.gpu_free_milli.size() && static_cast<int64_t>(b.gpus.size()) < p.gpu.count; ++d)
        if (s.gpu_free_milli[d] >= milli) b.gpus.push_back(static_cast<int32_t>(d));
      if (static_cast<int64_t>(b.gpus.size()) < p.gpu.count) b.gpus.clear();
    }
  }
  AddPodBack(s, b);
}

const FilterPlugin* CheckFiltersWithNominated(const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                              const PodInfo& pod, const Node& node, size_t index,
                                              const NodeState& state, const NominatedPods& nominated,
                                              FilterVerdict& why, std::vector<const PodInfo*>& scratch) {
  nominated.On(index, pod, scratch);
  if (!scratch.empty()) {
    NodeState with = AccountingCopy(state);
    for (const PodInfo* p : scratch) AddNominatedPod(with, *p);
    if (const FilterPlugin* failed = CheckFilters(filters, pod, node, with, why)) return failed;
  }
  return CheckFilters(filters, pod, node, state, why);
}

}  // namespace gpusched
