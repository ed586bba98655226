#include "gpusched/model/cluster_state.h"

#include "gpusched/model/pod.h"

#include <algorithm>
#include <atomic>

#include "gpusched/model/node_gpus.h"
#include "gpusched/model/pod_requests.h"

namespace gpusched {

ClusterState::Serial::Serial() {
  static std::atomic<uint64_t> next{1};
  value = next.fetch_add(1, std::memory_order_relaxed);
}

int64_t NodeState::GpuFreeMilli() const {
  int64_t sum = 0;
  for (int32_t f : gpu_free_milli) sum += f;
  return sum;
}

ClusterState::ClusterState(std::vector<Node> nodes) : nodes_(std::move(nodes)) {
  states_.resize(nodes_.size());
  index_.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) InitState(i);
}

void ClusterState::InitState(size_t i) {
  NodeState& s = states_[i];
  s.allocatable = NodeAllocatableResources(nodes_[i]);
  s.gpu_allocatable = s.allocatable.Scalar(kResourceGPU);
  int64_t gpus = std::clamp<int64_t>(s.GpuAllocatable(), 0, kMaxTrackedGpusPerNode);
  s.gpu_free_milli.assign(static_cast<size_t>(gpus), kGpuMilli);
  s.gpu_model = std::string(NodeGpuModel(nodes_[i].meta));
  s.gpu_memory_mib = NodeGpuMemoryMib(nodes_[i].meta);
  for (const Taint& t : nodes_[i].taints) s.prefer_no_schedule_taint |= t.effect == kTaintEffectPreferNoSchedule;
  index_[nodes_[i].name()] = i;
  ++num_present_;
  ++nodes_version_;
  Changed(i);
}

void ClusterState::set_objects(std::shared_ptr<const ApiObjects> objects) {
  objects_ = std::move(objects);
  dra_ = ClaimAllocations();
  if (!objects_) return;
  // status.allocation and status.reservedFor of the input's claims.
  for (const auto& [key, claim] : objects_->dra.claims) {
    if (!claim.allocation) continue;
    dra_.Allocate(key, *claim.allocation, "");
    for (const ResourceClaimConsumerReference& r : claim.reserved_for)
      if (r.resource == "pods") dra_.Reserve(key, claim.meta.namespace_ + "/" + r.name);
  }
}

int64_t ClusterState::FindNode(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

size_t ClusterState::AddNode(Node node) {
  nodes_.push_back(std::move(node));
  states_.emplace_back();
  InitState(nodes_.size() - 1);
  return nodes_.size() - 1;
}

std::vector<BoundPod> ClusterState::RemoveNode(size_t i) {
  NodeState& s = states_[i];
  if (!s.present) return {};
  std::vector<BoundPod> evicted = s.pods;
  while (!s.pods.empty()) Release(i, s.pods.size() - 1);
  s.present = false;
  --num_present_;
  ++nodes_version_;
  Changed(i);
  auto it = index_.find(nodes_[i].name());
  if (it != index_.end() && it->second == i) index_.erase(it);
  return evicted;
}

bool NodeState::FitsGpus(const GpuRequest& gpu) const {
  if (!gpu.any()) return true;
  const int32_t milli = GpuMilliFor(gpu);
  if (milli <= 0) return false;
  int64_t fit = 0;
  for (int32_t f : gpu_free_milli)
    if (f >= milli && ++fit >= gpu.count) return true;
  return false;
}

std::vector<int32_t> ClusterState::DefaultGpuChoice(size_t i, const GpuRequest& gpu) const {
  std::vector<int32_t> out;
  if (!gpu.any()) return out;
  const auto& free = states_[i].gpu_free_milli;
  const int32_t milli = states_[i].GpuMilliFor(gpu);
  if (milli <= 0) return out;
  if (gpu.shared()) {
    int32_t best = -1;
    for (size_t d = 0; d < free.size(); ++d)
      if (free[d] >= milli && (best < 0 || free[d] < free[static_cast<size_t>(best)])) best = static_cast<int32_t>(d);
    if (best >= 0) out.push_back(best);
    return out;
  }
  // One allocation, not one per doubling (an 8-GPU pod took four).
  out.reserve(static_cast<size_t>(std::min<int64_t>(gpu.count, static_cast<int64_t>(free.size()))));
  for (size_t d = 0; d < free.size() && static_cast<int64_t>(out.size()) < gpu.count; ++d)
    if (free[d] >= milli) out.push_back(static_cast<int32_t>(d));
  if (static_cast<int64_t>(out.size()) < gpu.count) out.clear();
  return out;
}

void ClusterState::Bind(size_t i, const Resources& requests, const Resources& non_zero, uint64_t id, int32_t priority,
                        const GpuRequest& gpu, const std::vector<int32_t>& devices, const Pod* pod) {
  NodeState& s = states_[i];
  s.requested.Add(requests);
  s.non_zero_requested.milli_cpu = SatAdd(s.non_zero_requested.milli_cpu, non_zero.milli_cpu);
  s.non_zero_requested.memory = SatAdd(s.non_zero_requested.memory, non_zero.memory);
  s.num_pods++;
  const int32_t milli = gpu.any() ? s.GpuMilliFor(gpu) : kGpuMilli;
  int64_t reserved = 0;
  for (int32_t d : devices) {
    int32_t& f = s.gpu_free_milli[static_cast<size_t>(d)];
    if (f == kGpuMilli) ++reserved;
    f -= milli;
  }
  if (gpu.from_annotations && reserved > 0) s.requested.AddScalar(kResourceGPU, reserved);
  s.gpu_requested = s.requested.Scalar(kResourceGPU);
  s.pods.push_back(BoundPod{id, priority, next_bind_seq_++, requests, non_zero.milli_cpu, non_zero.memory, devices, milli,
                          gpu.from_annotations, pod});
  s.pod_ids.push_back(id);
  CountAffinity(pod, 1);
  ++s.version;
  Changed(i);
}

std::vector<int32_t> ClusterState::Bind(size_t i, const Resources& requests, const Resources& non_zero, uint64_t id,
                                        int32_t priority) {
  // Whole GPUs, lowest free index first; devices beyond kMaxTrackedGpusPerNode
  // are counted by the scalar but not handed out.
  GpuRequest whole;
  whole.milli = kGpuMilli;
  whole.count = static_cast<int32_t>(std::min<int64_t>(PodGpuRequest(requests), kMaxTrackedGpusPerNode));
  std::vector<int32_t> taken;
  const auto& free = states_[i].gpu_free_milli;
  for (size_t d = 0; d < free.size() && static_cast<int64_t>(taken.size()) < whole.count; ++d)
    if (free[d] == kGpuMilli) taken.push_back(static_cast<int32_t>(d));
  Bind(i, requests, non_zero, id, priority, whole, taken);
  return taken;
}

void NodeState::Remove(const BoundPod& p) {
  requested.Sub(p.requests);
  non_zero_requested.milli_cpu = SatSub(non_zero_requested.milli_cpu, p.non_zero_milli_cpu);
  non_zero_requested.memory = SatSub(non_zero_requested.memory, p.non_zero_memory);
  num_pods--;
  int64_t unreserved = 0;
  for (int32_t d : p.gpus) {
    int32_t& f = gpu_free_milli[static_cast<size_t>(d)];
    f += p.gpu_milli;
    if (f == kGpuMilli) ++unreserved;
  }
  if (p.gpu_reserves && unreserved > 0) requested.AddScalar(kResourceGPU, -unreserved);
  gpu_requested = requested.Scalar(kResourceGPU);
  ++version;
}

void ClusterState::CountAffinity(const Pod* pod, int64_t delta) {
  if (pod == nullptr || !pod->pod_affinity) return;
  if (HasPodAffinity(*pod)) pods_with_affinity_ += delta;
  if (HasRequiredPodAntiAffinity(*pod)) pods_with_required_anti_affinity_ += delta;
  const PodAffinitySpec& a = *pod->pod_affinity;
  if (!a.RequiredAffinity().empty() || !a.PreferredAffinity().empty() || !a.PreferredAntiAffinity().empty())
    pods_with_scored_affinity_ += delta;
}

void ClusterState::Release(size_t i, size_t pod_pos) {
  NodeState& s = states_[i];
  const Pod* pod = s.pods[pod_pos].pod;
  CountAffinity(pod, -1);
  if (pod != nullptr && pod->HasResourceClaims()) dra_.Release(pod->ns() + "/" + pod->name());
  s.Remove(s.pods[pod_pos]);
  s.pods.erase(s.pods.begin() + static_cast<std::ptrdiff_t>(pod_pos));
  s.pod_ids.erase(s.pod_ids.begin() + static_cast<std::ptrdiff_t>(pod_pos));
  Changed(i);
}

bool ClusterState::Unbind(size_t i, uint64_t id) {
  const auto& ids = states_[i].pod_ids;
  for (size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] == id) {
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
    if (pods[k].requests == requests && pods[k].non_zero_milli_cpu == non_zero.milli_cpu &&
        pods[k].non_zero_memory == non_zero.memory && pods[k].gpus == gpus) {
      Release(i, k);
      return;
    }
  }
}

}  // namespace gpusched
