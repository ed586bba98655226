#include "gpusched/sched/diagnosis/diagnosis.h"

#include <algorithm>
#include <map>
#include <optional>

#include "diagnosis_parts.h"

namespace gpusched {
namespace diagnosis_parts {
namespace {

using ResourceView = Want;

// Every resource the pod requests, in NodeResourcesFit's checking order.
std::vector<ResourceView> RequestedResources(const Resources& r) {
  std::vector<ResourceView> v;
  if (r.milli_cpu > 0) v.push_back({std::string(kResourceCPU), r.milli_cpu});
  if (r.memory > 0) v.push_back({std::string(kResourceMemory), r.memory});
  if (r.ephemeral_storage > 0) v.push_back({std::string(kResourceEphemeralStorage), r.ephemeral_storage});
  for (const auto& [n, q] : r.scalars)
    if (q > 0) v.push_back({n, q});
  return v;
}

bool LooksLikeGpu(std::string_view name) { return name.find("gpu") != std::string_view::npos; }

std::string Amount(const std::string& resource, int64_t v) {
  std::string s = FormatAmount(resource, v);
  return resource == kResourceCPU ? s + " cpu" : s + " " + resource;
}

std::string Nodes(int64_t n) { return std::to_string(n) + (n == 1 ? " node" : " nodes"); }

}  // namespace

int64_t FreeNow(const NodeState& s, std::string_view resource) {
  return std::max<int64_t>(0, SatSub(s.allocatable.Get(resource), s.requested.Get(resource)));
}

NodeSet DiagnoseNodeSet(const PodInfo& pod, const ClusterState& cluster,
                        const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  NodeSet ns;
  Diagnosis& d = ns.settled.emplace();
  if (cluster.num_present() == 0) {
    d.kind = Diagnosis::Kind::kNoNodes;
    d.forever = true;
    d.text = "can never fit: the cluster has no nodes";
    return ns;
  }
  // Nodes the pod may use at all: those no filter rejects for good, whatever
  // runs there (each filter says so itself: FilterPlugin::NeverPasses).
  std::vector<size_t> eligible;
  std::map<std::pair<size_t, int>, int64_t> excluded_by;  // (filter, its reason) -> node count
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    bool ok = true;
    for (size_t k = 0; k < filters.size() && ok; ++k) {
      if (const int reason = filters[k]->NeverPasses(pod, cluster.node(i), cluster.state(i))) {
        excluded_by[{k, reason}]++;
        ok = false;
      }
    }
    if (ok) eligible.push_back(i);
  }
  std::vector<ResourceView> wants = RequestedResources(pod.requests);
  // A share asked for by annotation needs at least `count` devices.
  if (pod.gpu.from_annotations) wants.push_back({std::string(kResourceGPU), pod.gpu.count});
  // Resources the profile's NodeResourcesFit ignores cannot block the pod.
  for (const auto& f : filters) std::erase_if(wants, [&](const ResourceView& w) { return f->IgnoresResource(w.name); });

  if (eligible.empty()) {
    d.kind = Diagnosis::Kind::kNoEligibleNode;
    d.forever = true;
    std::vector<std::string> why;
    for (const auto& [at, count] : excluded_by) {
      std::string phrase = filters[at.first]->ExclusionPhrase(pod, cluster, at.second);
      if (!phrase.empty()) why.push_back(Nodes(count) + " " + phrase);
    }
    d.text = "can never fit: every node is excluded before resources are even compared: ";
    for (size_t i = 0; i < why.size(); ++i) d.text += (i ? "; " : "") + why[i];
    return ns;
  }

  // Can never fit: no eligible node could hold the pod even when empty.
  auto fits_empty = [&](size_t i) {
    const Resources& a = cluster.state(i).allocatable;
    if (a.allowed_pods < 1) return false;
    for (const auto& w : wants)
      if (w.request > a.Get(w.name)) return false;
    return true;
  };
  if (std::none_of(eligible.begin(), eligible.end(), fits_empty)) {
    d.forever = true;
    for (const auto& w : wants) {
      int64_t max_any = 0, max_eligible = 0, total = 0;
      for (size_t i = 0; i < cluster.size(); ++i)
        if (cluster.present(i)) max_any = std::max(max_any, cluster.state(i).allocatable.Get(w.name));
      for (size_t i : eligible) {
        int64_t a = cluster.state(i).allocatable.Get(w.name);
        max_eligible = std::max(max_eligible, a);
        total = SatAdd(total, a);
      }
      if (max_any <= 0) {
        d.kind = Diagnosis::Kind::kNotAdvertised;
        d.resource = w.name;
        d.text = "can never fit: no node advertises " + w.name;
        if (std::string mig = MigOfferNote(w.name, cluster); !mig.empty()) {
          d.text += mig;
        } else if (std::string profile = MigProfileNote(w.name, cluster); !profile.empty()) {
          d.text += profile;
        } else if (std::string dra = DraGpuNote(w.name, cluster); !dra.empty()) {
          d.text += dra;
        } else if (LooksLikeGpu(w.name)) {
          d.text += "; the nodes may have GPUs, but without the device plugin (e.g. the NVIDIA device plugin "
                    "DaemonSet) running on them Kubernetes does not know it";
        } else if (w.name == kResourceCPU || w.name == kResourceMemory || w.name == kResourceEphemeralStorage) {
          // The kubelet reports these on every node (pkg/kubelet/nodestatus
          // setters.go MachineInfo): only hand-written Node objects lack them.
          d.text += ", which the kubelet reports on every node it runs: these Node objects were written without it "
                    "(add it to their status.allocatable, or take them from `kubectl get nodes -o json`)";
        }
        return ns;
      }
      if (max_eligible <= 0) {
        d.kind = Diagnosis::Kind::kNotAdvertised;
        d.resource = w.name;
        d.text = "can never fit: the only nodes that advertise " + w.name +
                 " are excluded by taints, cordons or the pod's nodeSelector";
        return ns;
      }
      if (w.request > max_eligible) {
        d.kind = Diagnosis::Kind::kTooLarge;
        d.resource = w.name;
        d.text = "can never fit: it requests " + Amount(w.name, w.request) + " but the largest node has " +
                 FormatAmount(w.name, max_eligible);
        if (total >= w.request)
          d.text += " (" + FormatAmount(w.name, total) + " across all " + Nodes(static_cast<int64_t>(eligible.size())) +
                    ", but a pod runs on one node and is never split across several)";
        d.text += "; request at most " + FormatAmount(w.name, max_eligible) + " or add a bigger node";
        return ns;
      }
    }
    d.kind = Diagnosis::Kind::kTooLarge;
    d.text = "can never fit: no single node is big enough for all of its requests together";
    bool no_pods = std::all_of(eligible.begin(), eligible.end(),
                               [&](size_t i) { return cluster.state(i).allocatable.allowed_pods < 1; });
    if (no_pods) d.text = "can never fit: no node advertises a pod capacity (status.allocatable.pods is 0 or missing)";
    return ns;
  }

  // It would fit on some node if pods finished: it waits for room.
  for (size_t i : eligible)
    if (fits_empty(i)) ns.could.push_back(i);
  ns.wants = std::move(wants);
  ns.pod_aware = ComparedWithPods(pod);
  ns.settled.reset();
  return ns;
}

void FinishWaiting(Diagnosis& d, const ClusterState& cluster, const NodeSet& ns,
                   const std::function<Free(size_t)>& free, const std::function<bool()>& pods_full,
                   const BatchDemand* demand) {
  const std::vector<size_t>& could = ns.could;
  d.forever = false;
  d.kind = Diagnosis::Kind::kWaitingForRoom;
  for (size_t k = 0; k < ns.wants.size(); ++k) {
    const Want& w = ns.wants[k];
    const Free f = free(k);
    const int64_t max_free = f.max, sum_free = f.sum;
    if (max_free >= w.request) continue;
    if (sum_free >= w.request) {
      d.kind = Diagnosis::Kind::kFragmented;
      d.resource = w.name;
      d.text = "waiting for room, fragmented: when it was considered, " + Amount(w.name, sum_free) +
               " were free across the " + Nodes(static_cast<int64_t>(could.size())) + " that could run it, but at most " +
               FormatAmount(w.name, max_free) + " free on any one node and it needs " +
               FormatAmount(w.name, w.request) + " on one node";
      // Reordering helps only when the batch's pods could all fit.
      if (!demand || demand->requested.Get(w.name) <= demand->free.Get(w.name))
        d.advice.kind = Advice::Kind::kLargestFirstOrBinPacking;
    } else {
      // Name the nodes when there are few, as the seed explains its example.
      std::string where;
      if (could.size() <= 3) {
        for (size_t j = 0; j < could.size(); ++j) {
          const NodeState& s = cluster.state(could[j]);
          where += std::string(j ? ", " : "") + cluster.node(could[j]).name() + " (" +
                   FormatAmount(w.name, s.allocatable.Get(w.name)) + " in all, " +
                   FormatAmount(w.name, FreeNow(s, w.name)) +
                   " free)";
        }
      } else {
        where = Nodes(static_cast<int64_t>(could.size())) + " with " + FormatAmount(w.name, sum_free) + " free in total";
      }
      d.resource = w.name;
      d.text = "waiting for room: it needs " + Amount(w.name, w.request) + " on one node; when it was considered, " +
               std::string(could.size() == 1 ? "the only node big enough was " : "the nodes big enough were ") + where +
               "; it is placed when running pods finish (pending is not an error)";
      d.text += SharedReplicaNote(w.name, w.request, cluster, could);
    }
    return;
  }
  if (pods_full()) {
    d.text = "waiting for room: every node big enough is at its pod limit (status.allocatable.pods)";
  } else if (ns.pod_aware) {
    // Its requests are free on a node: the filters that count the pods
    // running there (topology spread, pod affinity, host ports) reject it.
    // NameWhatIsInTheWay names the pod in the way when a filter can.
    d.text = kPodRuleText;
  } else {
    d.text = kNoSingleNodeText;
  }
}

void NameWhatIsInTheWay(Diagnosis& d, const PodInfo& pod, const ClusterState& cluster, const NodeSet& ns,
                        const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  if (!ComparedWithPods(pod) || (d.text != kNoSingleNodeText && d.text != kPodRuleText)) return;
  for (size_t i : ns.could)
    for (const auto& f : filters) {
      const std::string why = f->ExplainRejection(pod, cluster.node(i), cluster.state(i));
      // Only words naming a running pod ("node a runs web-0, which ..."):
      // that pod finishing is what the text promises. InterPodAffinity's
      // words for a missing pod its affinity needs ("no pod matching ...",
      // "node a has no label ...") leave kPodRuleText (explain shows them).
      if (!why.starts_with("node ") || why.find(" runs ") == std::string::npos) continue;
      d.text = "waiting for room: " + why + "; it is placed when that pod finishes (pending is not an error)";
      return;
    }
  if (d.text == kPodRuleText) {
    // No filter names a pod in the way: its requests fit on a node now, and
    // no pod has to finish for room.
    d.free_up_node.reset();
    d.free_up_pods.clear();
  }
}

}  // namespace diagnosis_parts

using diagnosis_parts::Free;
using diagnosis_parts::FreeNow;
using diagnosis_parts::NodeSet;

const char* DiagnosisKindName(Diagnosis::Kind k) {
  switch (k) {
    case Diagnosis::Kind::kWaitingForRoom: return "waiting-for-room";
    case Diagnosis::Kind::kFragmented: return "fragmented";
    case Diagnosis::Kind::kTooLarge: return "too-large";
    case Diagnosis::Kind::kNotAdvertised: return "not-advertised";
    case Diagnosis::Kind::kNoEligibleNode: return "no-eligible-node";
    case Diagnosis::Kind::kNoNodes: return "no-nodes";
    case Diagnosis::Kind::kSchedulingGated: return "scheduling-gated";
    case Diagnosis::Kind::kSchedulerNotRun: return "scheduler-not-run";
    case Diagnosis::Kind::kBeingDeleted: return "being-deleted";
    case Diagnosis::Kind::kDraClaimMissing: return "dra-claim-missing";
    case Diagnosis::Kind::kNotModelled: return "not-modelled";
    case Diagnosis::Kind::kGang: return "gang";
    case Diagnosis::Kind::kPreFilterRejected: return "prefilter-rejected";
  }
  return "unknown";
}

// The plain reference: every node looked at again for every pod.
Diagnosis Diagnose(const PodInfo& pod, const ClusterState& cluster,
                   const std::vector<std::unique_ptr<FilterPlugin>>& filters, const BatchDemand* demand) {
  NodeSet ns = diagnosis_parts::DiagnoseNodeSet(pod, cluster, filters);
  if (ns.settled) return std::move(*ns.settled);
  Diagnosis d;
  const std::vector<size_t>& could = ns.could;
  const auto& wants = ns.wants;
  // Which pods would have to finish: on each node, the latest-bound first,
  // until the pod fits; keep the node that needs the fewest.
  for (size_t i : could) {
    const NodeState& s = cluster.state(i);
    Resources used = s.requested;
    int64_t pods = s.num_pods;
    std::vector<uint64_t> finished;
    // A pod compared with the node's pods (host ports...) also needs the
    // filters that do so to stop objecting: they see the node without the
    // pods finished so far.
    std::optional<NodeState> left;
    if (diagnosis_parts::ComparedWithPods(pod)) left = s;
    auto in_the_way = [&] {
      if (!left) return false;
      for (const auto& f : filters)
        if (!f->ExplainRejection(pod, cluster.node(i), *left).empty()) return true;
      return false;
    };
    auto fits_now = [&] {
      if (pods + 1 > s.allocatable.allowed_pods) return false;
      for (const auto& w : wants)
        if (w.request > SatSub(s.allocatable.Get(w.name), used.Get(w.name))) return false;
      return !in_the_way();
    };
    for (auto it = s.pods.rbegin(); it != s.pods.rend() && !fits_now(); ++it) {
      used.Sub(it->requests);
      --pods;
      finished.push_back(it->id);
      if (left) std::erase_if(left->pods, [&](const BoundPod& b) { return b.bind_seq == it->bind_seq && b.id == it->id; });
    }
    if (!fits_now()) continue;
    if (!d.free_up_node || finished.size() < d.free_up_pods.size()) {
      d.free_up_node = i;
      d.free_up_pods = std::move(finished);
    }
  }
  auto free = [&](size_t k) {
    Free f;
    for (size_t i : could) {
      const int64_t v = FreeNow(cluster.state(i), wants[k].name);
      f.max = std::max(f.max, v);
      f.sum = SatAdd(f.sum, v);
    }
    return f;
  };
  auto pods_full = [&] {
    return std::all_of(could.begin(), could.end(), [&](size_t i) {
      return cluster.state(i).num_pods + 1 > cluster.state(i).allocatable.allowed_pods;
    });
  };
  diagnosis_parts::FinishWaiting(d, cluster, ns, free, pods_full, demand);
  diagnosis_parts::NameWhatIsInTheWay(d, pod, cluster, ns, filters);
  return d;
}

}  // namespace gpusched
