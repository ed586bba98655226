#include "gpusched/model/cluster_state.h"

#include <algorithm>

#include "gpusched/model/pod_requests.h"

namespace gpusched {

ClusterState::ClusterState(std::vector<Node> nodes) : nodes_(std::move(nodes)) {
  states_.resize(nodes_.size());
  index_.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    NodeState& s = states_[i];
    s.allocatable = Resources::FromList(nodes_[i].EffectiveAllocatable());
    int64_t gpus = std::clamp<int64_t>(s.GpuAllocatable(), 0, kMaxTrackedGpusPerNode);
    s.gpu_free_milli.assign(static_cast<size_t>(gpus), kGpuMilli);
    index_.emplace(nodes_[i].name(), i);
  }
}

int64_t ClusterState::FindNode(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

std::vector<int32_t> ClusterState::Bind(size_t i, const Resources& requests, const Resources& non_zero, uint64_t id,
                                        int32_t priority) {
  NodeState& s = states_[i];
  s.requested.Add(requests);
  s.non_zero_requested.milli_cpu = SatAdd(s.non_zero_requested.milli_cpu, non_zero.milli_cpu);
  s.non_zero_requested.memory = SatAdd(s.non_zero_requested.memory, non_zero.memory);
  s.num_pods++;
  std::vector<int32_t> taken;
  int64_t want = PodGpuRequest(requests);
  for (size_t d = 0; d < s.gpu_free_milli.size() && static_cast<int64_t>(taken.size()) < want; ++d) {
    if (s.gpu_free_milli[d] == kGpuMilli) {
      s.gpu_free_milli[d] = 0;
      taken.push_back(static_cast<int32_t>(d));
    }
  }
  s.pods.push_back(BoundPod{id, priority, next_bind_seq_++, requests, non_zero, taken});
  return taken;
}

void ClusterState::Release(size_t i, size_t pod_pos) {
  NodeState& s = states_[i];
  const BoundPod& p = s.pods[pod_pos];
  s.requested.Sub(p.requests);
  s.non_zero_requested.milli_cpu = SatSub(s.non_zero_requested.milli_cpu, p.non_zero.milli_cpu);
  s.non_zero_requested.memory = SatSub(s.non_zero_requested.memory, p.non_zero.memory);
  s.num_pods--;
  for (int32_t d : p.gpus) s.gpu_free_milli[static_cast<size_t>(d)] = kGpuMilli;
  s.pods.erase(s.pods.begin() + static_cast<std::ptrdiff_t>(pod_pos));
}

bool ClusterState::Unbind(size_t i, uint64_t id) {
  auto& pods = states_[i].pods;
  for (size_t k = 0; k < pods.size(); ++k) {
    if (pods[k].id == id) {
      Release(i, k);
      return true;
    }
  }
  return false;
}

void ClusterState::Unbind(size_t i, const Resources& requests, const Resources& non_zero,
                          const std::vector<int32_t>& gpus) {
  auto& pods = states_[i].pods;
  for (size_t k = 0; k < pods.size(); ++k) {
    if (pods[k].requests == requests && pods[k].non_zero == non_zero && pods[k].gpus == gpus) {
      Release(i, k);
      return;
    }
  }
}

}  // namespace gpusched
