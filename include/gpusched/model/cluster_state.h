// ClusterState: the nodes of a cluster and what is in use on each one
// (requested resources, pod count, which GPU devices are taken). It is the
// scheduler's equivalent of kube-scheduler's NodeInfo snapshot, kept in node
// input order.
#ifndef GPUSCHED_MODEL_CLUSTER_STATE_H_
#define GPUSCHED_MODEL_CLUSTER_STATE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/model/api_objects.h"
#include "gpusched/model/change_log.h"
#include "gpusched/model/dra/allocated_devices.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/model/node.h"
#include "gpusched/model/resources.h"

namespace gpusched {

struct Pod;

// Device indices are tracked for at most this many GPUs per node; a node that
// advertises more still has its nvidia.com/gpu count honoured by the filter.
inline constexpr int64_t kMaxTrackedGpusPerNode = 4096;

// A pod running on a node, as much as scheduling needs of it (preemption
// looks at priorities; the simulator unbinds by id).
struct BoundPod {
  uint64_t id = 0;        // caller's id for the pod (e.g. its input index)
  int32_t priority = 0;
  uint64_t bind_seq = 0;  // order of binding in this ClusterState: the pod's "start time"
  Resources requests;
  // The pod's cpu and memory with scoring's defaults (ComputeNonZeroPodRequests):
  // only these two are kept in NodeState::non_zero_requested, and a whole
  // Resources would be a second heap copy of the scalars per bind.
  int64_t non_zero_milli_cpu = 0;
  int64_t non_zero_memory = 0;
  std::vector<int32_t> gpus;
  int32_t gpu_milli = kGpuMilli;  // taken on each device in `gpus`
  // The pod's devices are charged to the node's nvidia.com/gpu as
  // KAI-Scheduler's reservation pod does (GpuRequest::from_annotations).
  bool gpu_reserves = false;
  // The pod itself, for the plugins that compare a pod with the pods
  // running on a node or in its topology domain (labels, namespace,
  // affinity terms, host ports, volumes); nullptr when the binder had none
  // (a pod known only by its requests). The binder keeps it alive while
  // it is bound.
  const Pod* pod = nullptr;
};

inline constexpr uint64_t kAnonymousPod = ~0ull;

struct NodeState {
  Resources allocatable;
  Resources requested;
  // Requests with scoring's 100m / 200Mi defaults for containers that set
  // none (kube-scheduler's NodeInfo.NonZeroRequested); cpu and memory only.
  Resources non_zero_requested;
  int64_t num_pods = 0;
  // Free milli-GPU per device, index = device index. 1000 = wholly free.
  std::vector<int32_t> gpu_free_milli;
  // In bind order. Copies made for a dry run (preemption's victims removed,
  // nominated pods added: nominated_pods.h) keep it exact, as the filters
  // that read other pods rely on it.
  std::vector<BoundPod> pods;
  // pods[k].id for each k, kept by ClusterState: Unbind's search reads
  // these contiguously rather than one 200-byte BoundPod per pod.
  std::vector<uint64_t> pod_ids;
  std::string gpu_model;       // NodeGpuModel(labels), "" when unknown
  // MiB of one GPU from the nvidia.com/gpu.memory label (NodeGpuMemoryMib;
  // -1 absent), which KAI's gpu-memory requests are sized against.
  int64_t gpu_memory_mib = -1;
  // The node has a PreferNoSchedule taint (fixed, like gpu_model): lets
  // TaintToleration's scoring skip the Node of every other node it scores.
  bool prefer_no_schedule_taint = false;
  bool present = true;         // false once removed (ClusterState::RemoveNode)
  // Bumped on every bind/unbind, so per-node caches (FGD's fragmentation)
  // know when to recompute.
  uint64_t version = 0;

  // allocatable's nvidia.com/gpu, set with it by ClusterState: the indexes
  // read it for every changed node, and a search of the scalars is a cache
  // miss on a node that only had a pod leave.
  int64_t gpu_allocatable = 0;
  // requested's nvidia.com/gpu, kept with it by ClusterState and Remove
  // (which are all that change `requested`), for the same reason.
  int64_t gpu_requested = 0;

  int64_t GpuAllocatable() const { return gpu_allocatable; }
  int64_t GpuRequested() const { return gpu_requested; }
  // Whole GPUs free: devices lent to fractions count as taken (reserved).
  int64_t GpuFree() const { return GpuAllocatable() - GpuRequested(); }
  int64_t GpuFreeMilli() const;
  // True when `gpu.count` devices have at least the request's share on this
  // node (gpu.MilliOn(gpu_memory_mib)) free each.
  bool FitsGpus(const GpuRequest& gpu) const;
  // The share of one device `gpu` takes here (GpuRequest::MilliOn).
  int32_t GpuMilliFor(const GpuRequest& gpu) const { return gpu.MilliOn(gpu_memory_mib); }
  // Takes a bound pod's usage off the totals and devices (not off `pods`):
  // the accounting half of an unbind, also used by preemption's dry run.
  void Remove(const BoundPod& p);
};

class ClusterState {
 public:
  explicit ClusterState(std::vector<Node> nodes);
  ClusterState(std::vector<Node> nodes, std::shared_ptr<const ApiObjects> objects) : ClusterState(std::move(nodes)) {
    set_objects(std::move(objects));
  }

  // Number of node slots, removed nodes included (indices are never reused).
  size_t size() const { return nodes_.size(); }
  bool present(size_t i) const { return states_[i].present; }
  size_t num_present() const { return num_present_; }
  const Node& node(size_t i) const { return nodes_[i]; }
  const NodeState& state(size_t i) const { return states_[i]; }
  const std::vector<Node>& nodes() const { return nodes_; }

  // The input's other API objects (api_objects.h), empty unless set.
  const ApiObjects& objects() const { return objects_ ? *objects_ : kNoObjects; }
  // The same, shared (null when unset): a cache built from the objects
  // holds it so that their address is not reused while it keys on it.
  const std::shared_ptr<const ApiObjects>& shared_objects() const { return objects_; }
  // Also starts the DRA claim allocations over from the objects' allocated claims.
  void set_objects(std::shared_ptr<const ApiObjects> objects);

  // The DRA claims allocated in this run (model/dra/allocated_devices.h):
  // those of the input and those DynamicResources' Reserve adds. A pod
  // with resource claims that leaves its node releases its reservations.
  const ClaimAllocations& dra_allocations() const { return dra_; }
  ClaimAllocations& mutable_dra_allocations() { return dra_; }
  // Whether the run reads API objects at all (set_objects was called, even
  // with none): plugins that need them skip without (serve, until it
  // lists them).
  bool has_objects() const { return objects_ != nullptr; }

  // Bound pods whose Pod (BoundPod::pod) has podAffinity or podAntiAffinity,
  // and those with required anti-affinity terms (upstream's NodeInfo
  // PodsWithAffinity and PodsWithRequiredAntiAffinity, counted over the
  // cluster): InterPodAffinity skips a pod in O(1) when they are zero.
  int64_t pods_with_affinity() const { return pods_with_affinity_; }
  int64_t pods_with_required_anti_affinity() const { return pods_with_required_anti_affinity_; }
  // Bound pods whose terms InterPodAffinity's Score weighs for other pods:
  // required podAffinity (hardPodAffinityWeight) and preferred affinity or
  // anti-affinity. A pod without preferred terms of its own is scored in
  // O(1) when it is zero.
  int64_t pods_with_scored_affinity() const { return pods_with_scored_affinity_; }

  // Index of the present node called `name`, or -1.
  int64_t FindNode(std::string_view name) const;

  // Cluster events. AddNode appends a node and returns its index (a name that
  // is already present is the caller's error to avoid). RemoveNode takes the
  // node out of scheduling and releases its pods, returned in bind order so
  // the simulator can requeue them.
  size_t AddNode(Node node);
  std::vector<BoundPod> RemoveNode(size_t i);

  // Every node whose state changed (bind, unbind, add, remove), in order,
  // its latest entries at least (change_log.h). Indexes over the nodes
  // (sched/index/node_index.h) keep their position in it and catch up
  // lazily, so one ClusterState serves several schedulers.
  const ChangeLog& change_log() const { return change_log_; }
  // Entries the change log holds at least, whatever the cluster's size.
  static constexpr size_t kMinChangesHeld = 1024;
  // Bumped by every change (bind, unbind, node added or removed): the
  // change log's end(). Equal versions of one ClusterState (same serial())
  // mean an unchanged cluster, which is all the failure and diagnosis
  // caches ask.
  uint64_t version() const { return change_log_.end(); }
  // Bumped only when a node is added or removed: what depends on the nodes
  // alone (their labels, taints, allocatable), not on what runs there,
  // stays valid while it is unchanged.
  uint64_t nodes_version() const { return nodes_version_; }
  // Unique to this object in the process: a copy, or another cluster built
  // where one was destroyed, gets a new one. Indexes that follow the change
  // log key on it rather than on the address, which can be reused.
  uint64_t serial() const { return serial_.value; }

  // The devices a pod gets when the policy has no opinion, as the device
  // plugin and the FGD simulator's "best" gpusel hand them out: whole devices
  // lowest index first; a fraction on the device with the least free share
  // that still fits, lowest index on ties. Empty when it does not fit.
  std::vector<int32_t> DefaultGpuChoice(size_t i, const GpuRequest& gpu) const;

  // Accounts a pod on node `i` taking `gpu.milli` on each of `devices`
  // (which must fit). Devices taken by an annotation request that were
  // wholly free are charged to nvidia.com/gpu (and released when the device
  // is wholly free again), so whole-GPU pods never land on a shared device.
  // `pod` is BoundPod::pod.
  void Bind(size_t i, const Resources& requests, const Resources& non_zero, uint64_t id, int32_t priority,
            const GpuRequest& gpu, const std::vector<int32_t>& devices, const Pod* pod = nullptr);

  // Accounts a pod with `requests` on node `i` and hands it `gpus` whole GPU
  // devices, lowest free index first (as the NVIDIA device plugin does).
  // Returns the device indices taken.
  // `non_zero` is the pod's request with scoring defaults
  // (ComputeNonZeroPodRequests); the two-argument form uses `requests`.
  // `id` and `priority` are recorded in NodeState::pods.
  std::vector<int32_t> Bind(size_t i, const Resources& requests, const Resources& non_zero,
                            uint64_t id = kAnonymousPod, int32_t priority = 0);
  std::vector<int32_t> Bind(size_t i, const Resources& requests) { return Bind(i, requests, requests); }
  // Reverses Bind of the pod with `id` on node `i`; false when it is not there.
  bool Unbind(size_t i, uint64_t id);
  // Reverses Bind of the first pod on node `i` with these requests and devices.
  void Unbind(size_t i, const Resources& requests, const Resources& non_zero, const std::vector<int32_t>& gpus);
  void Unbind(size_t i, const Resources& requests, const std::vector<int32_t>& gpus) {
    Unbind(i, requests, requests, gpus);
  }

 private:
  inline static const ApiObjects kNoObjects{};
  std::vector<Node> nodes_;
  std::vector<NodeState> states_;
  std::shared_ptr<const ApiObjects> objects_;
  ClaimAllocations dra_;
  std::unordered_map<std::string, size_t> index_;
  uint64_t next_bind_seq_ = 0;
  size_t num_present_ = 0;
  int64_t pods_with_affinity_ = 0;
  int64_t pods_with_required_anti_affinity_ = 0;
  int64_t pods_with_scored_affinity_ = 0;
  void CountAffinity(const Pod* pod, int64_t delta);
  ChangeLog change_log_;
  uint64_t nodes_version_ = 0;
  // Appends node i to the change log (which bumps the version). At least
  // one entry per node slot is held, so a reader less than size() changes
  // behind can always replay.
  void Changed(size_t i) {
    change_log_.Append(static_cast<uint32_t>(i), std::max(kMinChangesHeld, nodes_.size()));
  }
  struct Serial {
    Serial();
    Serial(const Serial&) : Serial() {}
    Serial& operator=(const Serial&) {
      *this = Serial();
      return *this;
    }
    Serial& operator=(Serial&&) = default;
    uint64_t value;
  };
  Serial serial_;

  void InitState(size_t i);

  void Release(size_t i, size_t pod_pos);
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_CLUSTER_STATE_H_
