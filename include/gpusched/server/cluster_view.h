// ClusterView: what `gpusched serve` knows of the cluster it schedules for.
// kube-scheduler sends an extender the pod and the candidate nodes but not
// what runs on them, so the server keeps its own view, fed by a list + watch
// of Nodes and Pods (server/reflector.h) or by a static snapshot (-f), and
// turns it into the ClusterState the Scheduler decides on.
//
// Pods are keyed by namespace/name. A pod counts on its node once it names
// one (spec.nodeName) and until it is deleted or terminates; a pod whose node
// is not (yet) in the view waits for the node. Its GPU devices are read from
// the pod's device annotation (BindAnnotations writes it) when valid, else
// assigned as the device plugin would (ClusterState::DefaultGpuChoice).
//
// The server's own binds are "assumed" pods, as kube-scheduler's cache
// assumes them: counted at once, confirmed when the watch shows the pod on a
// node (on that node, whichever it is), forgotten when the bind fails or when
// they expire unconfirmed. Unbound pods (from the watch, or seen in a filter
// request) are kept so that bind, which names the pod only, can find its spec.
//
// The other objects plugins read (model/api_objects.h: Namespaces, Services,
// ReplicaSets..., PVs, PVCs, StorageClasses, CSINodes) are kept per kind and
// key, each as the ApiObjects it contributes, and published to the
// ClusterState merged (in kind and key order) whenever one changes: O(all
// objects) per change, which their rate (claims come and go with pods, the
// rest rarely) affords. Until some are published the volume plugins skip,
// as they do for a run without objects.
//
// A node whose labels, taints, cordon or allocatable change is re-added with
// its pods; removed node slots are compacted away when they outnumber the
// present ones. Not thread-safe: the caller serializes (server/extender.h).
#ifndef GPUSCHED_SERVER_CLUSTER_VIEW_H_
#define GPUSCHED_SERVER_CLUSTER_VIEW_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/model/api_objects.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// Request-seen unbound pods kept for their bind (--max-pending-pods): ~2 kB
// each for a typical GPU pod (docs/performance.md), so 20,000 hold ~40 MB.
inline constexpr size_t kDefaultMaxPendingPods = 20000;

// gpusched's own record of the devices it chose ("0,1"): read back by the
// view after a restart; no device plugin reads it.
inline constexpr std::string_view kAnnotationGpuDevices = "gpusched.io/gpu-devices";
// The Open-Gpu-Share / FGD simulator annotations for a pod whose GPU share
// comes from alibabacloud.com/gpu-milli: the device indices joined with "-"
// ("Exists when the pod are assigned/predefined to a GPU device") and the
// assume time in nanoseconds (hkust-adsl/kubernetes-scheduler-simulator
// pkg/type/open-gpu-share/utils/const.go: DeviceIndex, AssumeTime).
inline constexpr std::string_view kAnnotationAlibabaGpuIndex = "alibabacloud.com/gpu-index";
inline constexpr std::string_view kAnnotationAlibabaAssumeTime = "alibabacloud.com/assume-time";

// The annotations a bind records on the pod for `devices`: always gpusched's
// own; Open-Gpu-Share's for an alibabacloud.com/gpu-milli pod. Empty when the
// pod takes no device.
std::map<std::string, std::string> BindAnnotations(const Pod& pod, const GpuRequest& gpu,
                                                   const std::vector<int32_t>& devices, int64_t assume_time_ns);

// The devices a pod's annotations name (gpusched's, else Open-Gpu-Share's),
// empty when none or unparseable.
std::vector<int32_t> AnnotatedDevices(const Pod& pod);

class ClusterView {
 public:
  using Clock = std::chrono::steady_clock;

  ClusterView();

  // The ClusterState the scheduler decides on (its serial changes when the
  // view compacts).
  const ClusterState& cluster() const { return cluster_; }
  ClusterState& mutable_cluster() { return cluster_; }

  // --- Nodes ---
  void UpsertNode(Node node);
  void DeleteNode(std::string_view name);
  // A relist: nodes not in `nodes` are deleted.
  void ReplaceNodes(std::vector<Node> nodes);

  // --- Pods ---
  // Added or modified (a terminated pod is deleted).
  void UpsertPod(const Pod& pod, bool terminated = false);
  void DeletePod(std::string_view ns, std::string_view name);
  // A relist: bound pods not in `pods` are deleted (assumed ones stay until
  // they are confirmed or expire).
  void ReplacePods(const std::vector<std::pair<Pod, bool>>& pods_and_terminated);
  // Remembers an unbound pod seen in a request, for a later bind. At most
  // max_pending() of them: each one over evicts the oldest, one at a time
  // (a pod kube-scheduler still wants comes again with its next filter).
  void RememberPending(const Pod& pod);
  void set_max_pending(size_t n) { max_pending_ = n; }
  size_t max_pending() const { return max_pending_; }
  // The unbound pod ns/name (with `uid` when not empty), or null.
  std::shared_ptr<const Pod> FindPending(std::string_view ns, std::string_view name, std::string_view uid) const;

  // --- Other API objects ---
  // `kind`'s object `key` ("namespace/name", or the name), as what it alone
  // contributes (io/object_decoder.h DecodeApiObject).
  void UpsertObject(std::string_view kind, std::string key, ApiObjects objects);
  void DeleteObject(std::string_view kind, std::string_view key);
  // A relist of `kind`: its objects not in `objects` are deleted.
  void ReplaceObjects(std::string_view kind, std::vector<std::pair<std::string, ApiObjects>> objects);
  size_t num_objects() const { return objects_.size(); }

  // --- Assume cache ---
  // Counts `pod` on node `node` with `devices` until confirmed, forgotten or
  // `deadline`. False when the pod is already counted somewhere.
  bool Assume(const Pod& pod, size_t node, const std::vector<int32_t>& devices, Clock::time_point deadline);
  // Sets the deadline of an assumed pod once its bind has finished.
  void SetAssumeDeadline(std::string_view ns, std::string_view name, Clock::time_point deadline);
  // The bind failed: the pod no longer counts.
  void Forget(std::string_view ns, std::string_view name);
  // Counts the assumed pod as bound for good (a static snapshot has no watch
  // to confirm it).
  void Confirm(std::string_view ns, std::string_view name);
  // Forgets assumed pods whose deadline has passed; returns how many.
  size_t ExpireAssumed(Clock::time_point now);

  size_t num_nodes() const { return cluster_.num_present(); }
  size_t num_bound_pods() const { return bound_.size(); }
  size_t num_assumed() const { return assumed_.size(); }
  size_t num_pending() const { return pending_.size(); }
  // Pods counted on a node, by key, with their devices (tests).
  struct Placement {
    std::string node;
    std::vector<int32_t> devices;
    bool assumed = false;
  };
  std::map<std::string, Placement> Placements() const;
  // The UID of the pod counted as BoundPod::id `id` ("" when unknown or the
  // pod had none), for the preempt verb's victims.
  std::string UidOf(uint64_t id) const;
  // What each pod counted or pending asks for (FGD's target workload).
  std::vector<PodInfo> PodRequests() const;

 private:
  struct Bound {
    std::string uid;
    std::string node_name;
    size_t node = kNoNode;  // kNoNode while the node is not in the view
    uint64_t id = 0;
    Resources requests, non_zero;
    GpuRequest gpu;
    std::vector<int32_t> devices;
    std::vector<int32_t> annotated;  // devices the pod's annotations name
    int32_t priority = 0;
    bool assumed = false;
    Clock::time_point deadline = Clock::time_point::max();
    // The pod as last seen: BoundPod::pod of its place in the ClusterState,
    // for the plugins that compare a pod with the pods already running.
    std::shared_ptr<const Pod> pod;
  };
  static constexpr size_t kNoNode = ~size_t{0};

  // Counts b on b.node_name when that node is present.
  void Place(Bound& b);
  void Unplace(Bound& b);
  void Erase(const std::string& key);
  std::unordered_map<std::string, Bound>::iterator Insert(const std::string& key, const Pod& pod, std::string node_name,
                                                          std::vector<int32_t> devices, bool assumed);
  void MaybeCompact();
  // The objects merged, into the ClusterState.
  void PublishObjects();
  static bool SameForScheduling(const Node& a, const Node& b);

  ClusterState cluster_;
  std::unordered_map<std::string, Bound> bound_;  // ns/name -> pod counted (or waiting for its node)
  std::unordered_map<std::string, std::shared_ptr<const Pod>> pending_;  // ns/name -> unbound pod
  // Request-seen pods, oldest first, with the Pod remembered then (a key
  // remembered again is evicted with its newer entry, not its older one).
  std::deque<std::pair<std::string, const Pod*>> pending_order_;
  size_t max_pending_ = kDefaultMaxPendingPods;
  std::unordered_map<uint64_t, std::string> by_id_;
  uint64_t next_id_ = 1;
  std::set<std::string> assumed_;  // keys of assumed pods (few: the binds in flight or unconfirmed)
  std::map<std::pair<std::string, std::string>, ApiObjects, std::less<>> objects_;  // (kind, key) -> its part
  std::shared_ptr<const ApiObjects> published_;  // what the ClusterState reads (kept across compaction)
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_CLUSTER_VIEW_H_
