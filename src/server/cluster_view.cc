#include "gpusched/server/cluster_view.h"

#include <algorithm>
#include <set>

#include "gpusched/model/pod_requests.h"

namespace gpusched {
namespace {

std::string Key(std::string_view ns, std::string_view name) {
  std::string k(ns.empty() ? std::string_view(kDefaultNamespace) : ns);
  k += '/';
  k += name;
  return k;
}

// "0,1" or "0-1": non-negative device indices.
std::vector<int32_t> ParseIndices(std::string_view s, char sep) {
  std::vector<int32_t> out;
  if (s.empty()) return out;
  int64_t v = -1;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      if (v < 0) return {};
      out.push_back(static_cast<int32_t>(v));
      v = -1;
    } else if (s[i] >= '0' && s[i] <= '9') {
      v = (v < 0 ? 0 : v) * 10 + (s[i] - '0');
      if (v > kMaxTrackedGpusPerNode) return {};
    } else {
      return {};
    }
  }
  return out;
}

std::string JoinIndices(const std::vector<int32_t>& d, char sep) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i) s += sep;
    s += std::to_string(d[i]);
  }
  return s;
}

// `devices` are `gpu.count` distinct devices of the node, each with the
// pod's share free.
bool DevicesFit(const NodeState& s, const GpuRequest& gpu, const std::vector<int32_t>& devices) {
  if (!gpu.any() || static_cast<int64_t>(devices.size()) != gpu.count) return false;
  const int32_t milli = s.GpuMilliFor(gpu);
  if (milli <= 0) return false;
  std::set<int32_t> seen;
  for (int32_t d : devices) {
    if (d < 0 || static_cast<size_t>(d) >= s.gpu_free_milli.size() || !seen.insert(d).second) return false;
    if (s.gpu_free_milli[static_cast<size_t>(d)] < milli) return false;
  }
  return true;
}

}  // namespace

std::map<std::string, std::string> BindAnnotations(const Pod& pod, const GpuRequest& gpu,
                                                   const std::vector<int32_t>& devices, int64_t assume_time_ns) {
  std::map<std::string, std::string> out;
  if (devices.empty()) return out;
  out[std::string(kAnnotationGpuDevices)] = JoinIndices(devices, ',');
  if (gpu.from_annotations && pod.meta.annotations.count(kAnnotationGpuMilli)) {
    out[std::string(kAnnotationAlibabaGpuIndex)] = JoinIndices(devices, '-');
    out[std::string(kAnnotationAlibabaAssumeTime)] = std::to_string(assume_time_ns);
  }
  return out;
}

std::vector<int32_t> AnnotatedDevices(const Pod& pod) {
  const auto& a = pod.meta.annotations;
  if (auto it = a.find(kAnnotationGpuDevices); it != a.end()) return ParseIndices(it->second, ',');
  if (auto it = a.find(kAnnotationAlibabaGpuIndex); it != a.end()) return ParseIndices(it->second, '-');
  return {};
}

ClusterView::ClusterView() : cluster_(std::vector<Node>{}) {}

bool ClusterView::SameForScheduling(const Node& a, const Node& b) {
  if (a.meta.labels != b.meta.labels || a.unschedulable != b.unschedulable) return false;
  if (a.taints.size() != b.taints.size()) return false;
  for (size_t i = 0; i < a.taints.size(); ++i) {
    const Taint &x = a.taints[i], &y = b.taints[i];
    if (x.key != y.key || x.value != y.value || x.effect != y.effect) return false;
  }
  const ResourceList &p = a.EffectiveAllocatable(), &q = b.EffectiveAllocatable();
  if (p.size() != q.size()) return false;
  for (auto i = p.begin(), j = q.begin(); i != p.end(); ++i, ++j) {
    if (i->first != j->first || i->second.String() != j->second.String()) return false;
  }
  return true;
}

void ClusterView::Place(Bound& b) {
  if (b.node != kNoNode) return;
  const int64_t i = cluster_.FindNode(b.node_name);
  if (i < 0) return;
  const size_t n = static_cast<size_t>(i);
  const NodeState& s = cluster_.state(n);
  GpuRequest gpu = b.gpu;
  std::vector<int32_t> devices;
  if (gpu.any()) {
    if (DevicesFit(s, gpu, b.devices)) {
      devices = b.devices;
    } else if (DevicesFit(s, gpu, b.annotated)) {
      devices = b.annotated;
    } else {
      devices = cluster_.DefaultGpuChoice(n, gpu);
    }
    // The node is overcommitted (someone else bound past it): the pod's
    // resources still count, its share of a device cannot.
    if (!DevicesFit(s, gpu, devices)) {
      devices.clear();
      gpu = GpuRequest{};
    }
  }
  cluster_.Bind(n, b.requests, b.non_zero, b.id, b.priority, gpu, devices, b.pod.get());
  b.node = n;
  b.devices = std::move(devices);
}

void ClusterView::Unplace(Bound& b) {
  if (b.node == kNoNode) return;
  cluster_.Unbind(b.node, b.id);
  b.node = kNoNode;
}

std::unordered_map<std::string, ClusterView::Bound>::iterator ClusterView::Insert(const std::string& key, const Pod& pod,
                                                                                  std::string node_name,
                                                                                  std::vector<int32_t> devices,
                                                                                  bool assumed) {
  PodInfo info = PodInfo::Make(pod, 0);
  Bound b;
  b.uid = pod.meta.uid;
  b.node_name = std::move(node_name);
  b.id = next_id_++;
  b.requests = std::move(info.requests);
  b.non_zero = std::move(info.non_zero_requests);
  b.gpu = std::move(info.gpu);
  b.annotated = AnnotatedDevices(pod);
  b.devices = std::move(devices);
  b.priority = info.priority;
  b.pod = std::make_shared<const Pod>(pod);
  b.assumed = assumed;
  if (assumed) assumed_.insert(key);
  by_id_[b.id] = key;
  auto [it, inserted] = bound_.insert_or_assign(key, std::move(b));
  Place(it->second);
  return it;
}

void ClusterView::Erase(const std::string& key) {
  auto it = bound_.find(key);
  if (it == bound_.end()) return;
  Unplace(it->second);
  assumed_.erase(key);
  by_id_.erase(it->second.id);
  bound_.erase(it);
}

void ClusterView::UpsertNode(Node node) {
  const std::string name = node.name();
  const int64_t i = cluster_.FindNode(name);
  if (i >= 0 && SameForScheduling(cluster_.node(static_cast<size_t>(i)), node)) return;
  std::vector<Bound*> moved;
  if (i >= 0) {
    for (uint64_t id : cluster_.state(static_cast<size_t>(i)).pod_ids) {
      Bound& b = bound_.at(by_id_.at(id));
      moved.push_back(&b);
    }
    for (Bound* b : moved) Unplace(*b);
    cluster_.RemoveNode(static_cast<size_t>(i));
  }
  cluster_.AddNode(std::move(node));
  // The pods that named this node before it was here (or before it changed).
  for (auto& [key, b] : bound_)
    if (b.node == kNoNode && b.node_name == name) Place(b);
  MaybeCompact();
}

void ClusterView::DeleteNode(std::string_view name) {
  const int64_t i = cluster_.FindNode(name);
  if (i < 0) return;
  std::vector<uint64_t> ids = cluster_.state(static_cast<size_t>(i)).pod_ids;
  for (uint64_t id : ids) Unplace(bound_.at(by_id_.at(id)));
  cluster_.RemoveNode(static_cast<size_t>(i));
  MaybeCompact();
}

void ClusterView::ReplaceNodes(std::vector<Node> nodes) {
  std::set<std::string, std::less<>> names;
  for (const Node& n : nodes) names.insert(n.name());
  std::vector<std::string> gone;
  for (size_t i = 0; i < cluster_.size(); ++i)
    if (cluster_.present(i) && !names.count(cluster_.node(i).name())) gone.push_back(cluster_.node(i).name());
  for (const std::string& n : gone) DeleteNode(n);
  for (Node& n : nodes) UpsertNode(std::move(n));
}

void ClusterView::MaybeCompact() {
  if (cluster_.size() <= 2 * cluster_.num_present() + 64) return;
  std::vector<Node> nodes;
  for (size_t i = 0; i < cluster_.size(); ++i)
    if (cluster_.present(i)) nodes.push_back(cluster_.node(i));
  cluster_ = ClusterState(std::move(nodes));
  if (published_) cluster_.set_objects(published_);
  // Bind order: by id, so that the rebuilt state is the same whatever the map's order.
  std::vector<Bound*> all;
  for (auto& [key, b] : bound_) {
    b.node = kNoNode;
    all.push_back(&b);
  }
  std::sort(all.begin(), all.end(), [](const Bound* a, const Bound* b) { return a->id < b->id; });
  for (Bound* b : all) Place(*b);
}

void ClusterView::UpsertPod(const Pod& pod, bool terminated) {
  const std::string key = Key(pod.ns(), pod.name());
  if (terminated) {
    DeletePod(pod.ns(), pod.name());
    return;
  }
  auto it = bound_.find(key);
  if (pod.node_name.empty()) {
    if (it != bound_.end() && !it->second.assumed) Erase(key);
    pending_[key] = std::make_shared<const Pod>(pod);
    return;
  }
  pending_.erase(key);
  if (it != bound_.end() && !it->second.uid.empty() && !pod.meta.uid.empty() && it->second.uid != pod.meta.uid) {
    Erase(key);  // deleted and created again under the same name
    it = bound_.end();
  }
  if (it == bound_.end()) {
    Insert(key, pod, pod.node_name, {}, false);
    return;
  }
  Bound& b = it->second;
  if (b.assumed) {
    // Confirmed by the watch: kube-scheduler's cache keeps the pod, on the
    // node the API server says.
    b.assumed = false;
    assumed_.erase(key);
    b.deadline = Clock::time_point::max();
    if (b.uid.empty()) b.uid = pod.meta.uid;
    if (b.node_name != pod.node_name) {
      Unplace(b);
      b.node_name = pod.node_name;
      b.devices = AnnotatedDevices(pod);
      Place(b);
    }
    return;
  }
  PodInfo info = PodInfo::Make(pod, 0);
  if (b.node_name == pod.node_name && b.requests == info.requests && b.gpu == info.gpu &&
      b.priority == info.priority)
    return;
  Insert(key, pod, pod.node_name, b.node_name == pod.node_name ? b.devices : std::vector<int32_t>{}, false);
}

void ClusterView::DeletePod(std::string_view ns, std::string_view name) {
  const std::string key = Key(ns, name);
  pending_.erase(key);
  Erase(key);
}

void ClusterView::ReplacePods(const std::vector<std::pair<Pod, bool>>& pods) {
  std::set<std::string> keys;
  for (const auto& [p, terminated] : pods) keys.insert(Key(p.ns(), p.name()));
  std::vector<std::string> gone;
  for (const auto& [key, b] : bound_)
    if (!b.assumed && !keys.count(key)) gone.push_back(key);
  for (const std::string& k : gone) Erase(k);
  for (auto it = pending_.begin(); it != pending_.end();) {
    it = keys.count(it->first) ? std::next(it) : pending_.erase(it);
  }
  for (const auto& [p, terminated] : pods) UpsertPod(p, terminated);
}

void ClusterView::RememberPending(const Pod& pod) {
  if (!pod.node_name.empty()) return;
  const std::string key = Key(pod.ns(), pod.name());
  if (bound_.count(key)) return;
  auto it = pending_.find(key);
  if (it != pending_.end() && it->second->meta.uid == pod.meta.uid) return;
  auto entry = std::make_shared<const Pod>(pod);
  pending_order_.emplace_back(key, entry.get());
  pending_[key] = std::move(entry);
  // One out for each one in (halving at the cap stalled every decision for
  // ~120 ms at 100,000).
  while (pending_order_.size() > max_pending_) {
    auto& [old_key, old_pod] = pending_order_.front();
    if (auto it = pending_.find(old_key); it != pending_.end() && it->second.get() == old_pod) pending_.erase(it);
    pending_order_.pop_front();
  }
}

std::shared_ptr<const Pod> ClusterView::FindPending(std::string_view ns, std::string_view name,
                                                    std::string_view uid) const {
  auto it = pending_.find(Key(ns, name));
  if (it == pending_.end()) return nullptr;
  if (!uid.empty() && !it->second->meta.uid.empty() && it->second->meta.uid != uid) return nullptr;
  return it->second;
}

bool ClusterView::Assume(const Pod& pod, size_t node, const std::vector<int32_t>& devices, Clock::time_point deadline) {
  const std::string key = Key(pod.ns(), pod.name());
  if (bound_.count(key)) return false;
  auto it = Insert(key, pod, cluster_.node(node).name(), devices, true);
  it->second.deadline = deadline;
  pending_.erase(key);
  return true;
}

void ClusterView::SetAssumeDeadline(std::string_view ns, std::string_view name, Clock::time_point deadline) {
  auto it = bound_.find(Key(ns, name));
  if (it != bound_.end() && it->second.assumed) it->second.deadline = deadline;
}

void ClusterView::Forget(std::string_view ns, std::string_view name) {
  const std::string key = Key(ns, name);
  auto it = bound_.find(key);
  if (it != bound_.end() && it->second.assumed) Erase(key);
}

void ClusterView::Confirm(std::string_view ns, std::string_view name) {
  auto it = bound_.find(Key(ns, name));
  if (it == bound_.end() || !it->second.assumed) return;
  it->second.assumed = false;
  it->second.deadline = Clock::time_point::max();
  assumed_.erase(it->first);
}

size_t ClusterView::ExpireAssumed(Clock::time_point now) {
  std::vector<std::string> expired;
  for (const std::string& key : assumed_)
    if (bound_.at(key).deadline < now) expired.push_back(key);
  for (const std::string& k : expired) Erase(k);
  return expired.size();
}

std::map<std::string, ClusterView::Placement> ClusterView::Placements() const {
  std::map<std::string, Placement> out;
  for (const auto& [key, b] : bound_)
    if (b.node != kNoNode) out[key] = Placement{b.node_name, b.devices, b.assumed};
  return out;
}

std::vector<PodInfo> ClusterView::PodRequests() const {
  std::vector<PodInfo> out;
  out.reserve(bound_.size() + pending_.size());
  std::vector<const Bound*> all;
  for (const auto& [key, b] : bound_) all.push_back(&b);
  std::sort(all.begin(), all.end(), [](const Bound* a, const Bound* b) { return a->id < b->id; });
  for (const Bound* b : all) {
    PodInfo info;
    info.requests = b->requests;
    info.non_zero_requests = b->non_zero;
    info.gpu = b->gpu;
    out.push_back(std::move(info));
  }
  std::vector<std::string> keys;
  for (const auto& [key, p] : pending_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const std::string& k : keys) {
    PodInfo info = PodInfo::Make(*pending_.at(k), 0);
    info.pod = nullptr;  // the view's pod may go; ShapeOf reads the requests
    out.push_back(std::move(info));
  }
  return out;
}

std::string ClusterView::UidOf(uint64_t id) const {
  auto key = by_id_.find(id);
  if (key == by_id_.end()) return "";
  auto b = bound_.find(key->second);
  return b == bound_.end() ? "" : b->second.uid;
}

void ClusterView::UpsertObject(std::string_view kind, std::string key, ApiObjects objects) {
  objects_.insert_or_assign(std::make_pair(std::string(kind), std::move(key)), std::move(objects));
  PublishObjects();
}

void ClusterView::DeleteObject(std::string_view kind, std::string_view key) {
  auto it = objects_.find(std::make_pair(std::string(kind), std::string(key)));
  if (it == objects_.end()) return;
  objects_.erase(it);
  PublishObjects();
}

void ClusterView::ReplaceObjects(std::string_view kind, std::vector<std::pair<std::string, ApiObjects>> objects) {
  for (auto it = objects_.lower_bound(std::make_pair(std::string(kind), std::string()));
       it != objects_.end() && it->first.first == kind;)
    it = objects_.erase(it);
  for (auto& [key, o] : objects) objects_.insert_or_assign(std::make_pair(std::string(kind), key), std::move(o));
  PublishObjects();
}

void ClusterView::PublishObjects() {
  // Keys are unique per kind, so the parts are appended, not merged
  // (ApiObjects::Merge looks for each name among those before it).
  auto all = std::make_shared<ApiObjects>();
  for (const auto& [id, part] : objects_) {
    for (const auto& [name, labels] : part.namespace_labels) all->namespace_labels.emplace(name, labels);
    all->services.insert(all->services.end(), part.services.begin(), part.services.end());
    all->spread_controllers.insert(all->spread_controllers.end(), part.spread_controllers.begin(),
                                   part.spread_controllers.end());
    VolumeObjects volumes = part.volumes;
    all->volumes.Merge(std::move(volumes));
  }
  published_ = std::move(all);
  cluster_.set_objects(published_);
}

}  // namespace gpusched
