#include "gpusched/report/explain_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpusched/model/pod_requests.h"
#include "gpusched/report/diagnosis_text.h"
#include "gpusched/report/explain_ranking.h"
#include "gpusched/report/request_text.h"

namespace gpusched {
namespace {

using Json = nlohmann::ordered_json;

const char* CodeName(SchedStatus::Code c) {
  switch (c) {
    case SchedStatus::Code::kSuccess: return "Success";
    case SchedStatus::Code::kError: return "Error";
    case SchedStatus::Code::kUnschedulable: return "Unschedulable";
    case SchedStatus::Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case SchedStatus::Code::kSkip: return "Skip";
  }
  return "";
}

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string ScoresText(const NodeExplain& ne) {
  std::vector<std::string> parts;
  for (const auto& s : ne.scores)
    parts.push_back(fmt::format("{} {}->{}x{}={}", s.plugin, s.raw, s.normalized, s.weight, s.weighted));
  return Join(parts, ", ");
}

std::string WhatWouldHelp(const RunReport& r, const Diagnosis& d, bool room_for_all) {
  switch (d.kind) {
    case Diagnosis::Kind::kNoNodes:
      return "add nodes to the cluster (or pass their manifests with -f)";
    case Diagnosis::Kind::kTooLarge:
      return "a smaller request (at most what the largest node has), or a bigger node";
    case Diagnosis::Kind::kNotAdvertised:
      return "install the device plugin on the GPU nodes (the NVIDIA device plugin DaemonSet or the GPU "
             "Operator) so that they advertise the resource in status.allocatable";
    case Diagnosis::Kind::kNoEligibleNode:
      // DynamicResources' exclusion (its ExclusionPhrase) names the claims.
      if (d.text.find("the pod's resource claims") != std::string::npos ||
          d.text.find("the pod's claims, allocated already") != std::string::npos)
        return "devices that the claims' device classes and selectors admit, enough of them on one node (see each "
               "node's reasons above, and the ResourceSlices: kubectl get resourceslices -o yaml), or claims that "
               "ask for devices the cluster has";
      return "a toleration for the nodes' taints, uncordoning nodes (kubectl uncordon), or a nodeSelector/affinity "
             "that some node's labels satisfy (or labelling a node)";
    case Diagnosis::Kind::kSchedulingGated:
      return "its scheduling gates removed (by whoever added them, e.g. a queueing controller)";
    case Diagnosis::Kind::kSchedulerNotRun:
      return "--scheduler-name NAME=POLICY, to model that scheduler with a gpusched policy";
    case Diagnosis::Kind::kBeingDeleted:
      return "nothing: the pod is going away; its controller, if it has one, creates a replacement, which is "
             "scheduled as a new pod";
    case Diagnosis::Kind::kDraClaimMissing:
      return "the missing resource.k8s.io object (ResourceClaim, ResourceClaimTemplate or DeviceClass) in the input";
    case Diagnosis::Kind::kNotModelled:
      return "nothing gpusched can tell: HAMi's scheduler decides where HAMi vGPU pods go";
    case Diagnosis::Kind::kPreFilterRejected:
      return "what the rejection names, in the input: the PersistentVolumeClaim, its binding to a volume (a claim "
             "of an Immediate StorageClass the PV controller has bound), or a claim no longer being deleted";
    case Diagnosis::Kind::kGang:
      return "room for its whole gang at once (the other members' GPUs free on other nodes), or a smaller minimum "
             "for the gang";
    case Diagnosis::Kind::kWaitingForRoom:
    case Diagnosis::Kind::kFragmented: {
      std::string s;
      if (d.free_up_node) {
        std::vector<std::string> names;
        for (uint64_t id : d.free_up_pods)
          names.push_back(id < r.pods.size() ? DisplayName(*r.pods[id]) : "(a pod)");
        s = names.empty() ? "nothing: it fits on " + r.cluster.node(*d.free_up_node).name() + " now"
                          : "these pods finishing on " + r.cluster.node(*d.free_up_node).name() + ": " +
                                Join(names, ", ");
      } else {
        s = "running pods finishing";
      }
      // Reordering only decides which pods wait when they cannot all fit.
      if (d.kind == Diagnosis::Kind::kFragmented && room_for_all) s += "; or a bin-packing policy / --order largest-first";
      return s;
    }
  }
  return "";
}

}  // namespace

Json ExplainJson(const PodExplain& e, const ClusterState& cluster) {
  Json nodes = Json::array();
  for (const auto& ne : e.nodes) {
    Json scores = Json::array();
    for (const auto& s : ne.scores)
      scores.push_back(Json{{"plugin", s.plugin},
                            {"raw", s.raw},
                            {"normalized", s.normalized},
                            {"weight", s.weight},
                            {"weighted", s.weighted}});
    nodes.push_back(Json{{"node", cluster.node(ne.node).name()},
                         {"evaluated", ne.evaluated},
                         {"feasible", ne.feasible},
                         {"filter", ne.failed_plugin},
                         {"code", ne.evaluated ? CodeName(ne.code) : ""},
                         {"reasons", ne.reasons},
                         {"detail", ne.detail},
                         {"gpus_free", ne.gpus_free},
                         {"gpus_total", ne.gpus_total},
                         {"scores", scores},
                         {"total", ne.total}});
  }
  return Json{{"nodes", nodes},
              {"nodes_to_find", e.nodes_to_find},
              {"start_index", e.start_index},
              {"chosen", e.chosen ? Json(cluster.node(*e.chosen).name()) : Json(nullptr)},
              {"why", e.why}};
}

namespace {

// "1 node", "12 nodes" as the counts of the node summary read.
std::string Nodes(size_t n) { return Plural(static_cast<int64_t>(n), "node"); }

// "1000 nodes: 312 feasible, 688 failed a filter, ..." and one line per
// failure group.
void WriteNodeCounts(std::ostream& out, const ExplainRanking& rank) {
  out << Nodes(rank.order.size()) << ": " << rank.feasible << " feasible, " << rank.failed_nodes
      << " failed a filter";
  if (rank.not_evaluated > 0)
    out << ", " << rank.not_evaluated << " not evaluated (the scan had found enough feasible nodes)";
  out << "\n";
  for (const auto& g : rank.failed)
    out << "  " << g.nodes.size() << " failed " << (g.filter.empty() ? "-" : g.filter) << ": " << g.reasons << "\n";
}

void WriteNodeTable(std::ostream& out, const RunReport& r, const PodExplain& e, const ExplainRanking& rank,
                    size_t max_rows) {
  const size_t rows = std::min(max_rows, rank.order.size());
  size_t w = 4;
  for (size_t k = 0; k < rows; ++k) w = std::max(w, r.cluster.node(e.nodes[rank.order[k]].node).name().size());
  // GPUS USED is used/total, as the node state of `gpusched schedule` prints it.
  out << fmt::format("  {:<{}}  {:>9}  {:<8}  {:<18}  {:>6}  {}\n", "NODE", w, "GPUS USED", "FEASIBLE", "FILTER",
                     "TOTAL", "REASONS / SCORES (plugin raw->normalized x weight = weighted)");
  for (size_t k = 0; k < rows; ++k) {
    const NodeExplain& ne = e.nodes[rank.order[k]];
    std::string feasible = !ne.evaluated ? "not run" : (ne.feasible ? "yes" : "no");
    std::string detail = ne.feasible ? ScoresText(ne) : Join(ne.reasons, ", ");
    if (!ne.feasible && !ne.detail.empty()) detail += " (" + ne.detail + ")";
    if (!ne.evaluated) detail = "(the scan had found enough feasible nodes)";
    std::string total = ne.scored ? std::to_string(ne.total) : "-";
    out << fmt::format("  {:<{}}  {:>9}  {:<8}  {:<18}  {:>6}  {}\n", r.cluster.node(ne.node).name(), w,
                       std::to_string(ne.gpus_total - ne.gpus_free) + "/" + std::to_string(ne.gpus_total), feasible,
                       ne.failed_plugin.empty() ? "-" : ne.failed_plugin, total, detail);
  }
  if (rows < rank.order.size())
    out << "  ... " << rank.order.size() - rows << " more " << (rank.order.size() - rows == 1 ? "node" : "nodes")
        << ", ranked the same way (--nodes all lists every node)\n";
}

// Free GPUs when the pod was considered: node by node on a small cluster,
// else counted against what the pod needs ("812 nodes with 0, 130 with 1-3,
// 58 with 4+").
std::string FreeGpusThen(const RunReport& r, const PodExplain& e, const ExplainRanking& rank, int64_t need,
                         size_t max_named) {
  if (rank.order.empty()) return "(no nodes)";
  std::vector<size_t> present;
  for (size_t k = 0; k < e.nodes.size(); ++k)
    if (e.nodes[k].node < r.cluster.size() && r.cluster.present(e.nodes[k].node)) present.push_back(k);
  std::vector<std::string> parts;
  if (present.size() <= max_named) {
    for (size_t k : present)
      parts.push_back(r.cluster.node(e.nodes[k].node).name() + " " + std::to_string(e.nodes[k].gpus_free) + " of " +
                      std::to_string(e.nodes[k].gpus_total));
    return Join(parts, ", ");
  }
  need = std::max<int64_t>(need, 1);
  size_t none = 0, some = 0, enough = 0;
  for (size_t k : present) {
    const int64_t f = e.nodes[k].gpus_free;
    (f <= 0 ? none : f < need ? some : enough)++;
  }
  // Only the first count says "nodes": "812 nodes with 0, 130 with 1-3".
  auto add = [&](size_t count, const std::string& what) {
    if (count == 0) return;
    parts.push_back((parts.empty() ? Nodes(count) : std::to_string(count)) + " with " + what);
  };
  add(none, "0");
  add(some, need == 2 ? "1" : "1-" + std::to_string(need - 1));
  add(enough, std::to_string(need) + "+");
  return Join(parts, ", ");
}

}  // namespace

void WriteExplain(std::ostream& out, const RunReport& r, size_t pod_index, const ExplainOptions& options) {
  const Pod& pod = *r.pods[pod_index];
  const Resources& req = r.result.pod_infos[pod_index].requests;
  const GpuRequest& gpu = r.result.pod_infos[pod_index].gpu;
  const std::string asked = DescribeRequests(pod, req, gpu);
  out << "pod " << pod.ns() << "/" << pod.name() << " requests " << asked << "\n";
  const PodExplain* e = nullptr;
  const BatchResult::Pending* pending = nullptr;
  for (const auto& p : r.result.placements) {
    if (p.pod != pod_index) continue;
    if (p.preexisting) {
      out << "already bound to " << r.cluster.node(p.node).name() << " by spec.nodeName: not scheduled\n";
      return;
    }
    if (p.explain) e = &*p.explain;
  }
  for (const auto& p : r.result.pending)
    if (p.pod == pod_index) {
      pending = &p;
      if (p.explain) e = &*p.explain;
    }
  for (const auto& f : r.result.refused)
    if (f.pod == pod_index) {
      out << "bound by spec.nodeName but cannot run: " << f.error << "\n";
      return;
    }
  // Evicted by DefaultPreemption, or placed after evicting others.
  for (const auto& v : r.result.preempted)
    if (v.pod == pod_index) {
      out << "preempted: evicted from " << r.cluster.node(v.node).name() << " to make room for "
          << DisplayName(*r.pods[v.by]) << " (higher priority); it no longer runs\n";
      return;
    }
  for (const auto& p : r.result.placements)
    if (p.pod == pod_index && !p.preempted.empty()) {
      out << "first attempt: " << p.first_attempt << "\npreemption evicted:";
      for (size_t v : p.preempted) out << " " << DisplayName(*r.pods[v]);
      out << " (on " << r.cluster.node(p.node).name() << "); then:\n";
    }
  ExplainRanking rank;
  if (e) {
    rank = RankExplainedNodes(*e, r.cluster);
    out << fmt::format("policy {}, queue order {}; the filter scan started at node {} and looked for {} feasible "
                       "node(s)\n",
                       r.policy, r.order, e->start_index, e->nodes_to_find);
    WriteNodeCounts(out, rank);
    out << "\n";
    WriteNodeTable(out, r, *e, rank, options.max_nodes);
    out << "\n";
  }
  if (!pending) {
    if (e && e->chosen) out << "chosen: " << r.cluster.node(*e->chosen).name() << " (" << e->why << ")\n";
    return;
  }
  out << "pending: " << (pending->message.empty() ? "(not handled by any profile)" : pending->message) << "\n\n";
  const Diagnosis& d = pending->diagnosis;
  out << "diagnosis:\n";
  out << "  asked for:        " << asked << " on one node\n";
  size_t largest = 0;
  for (size_t i = 1; i < r.cluster.size(); ++i)
    if (r.cluster.state(i).GpuAllocatable() > r.cluster.state(largest).GpuAllocatable()) largest = i;
  if (r.cluster.size() > 0) {
    out << "  largest node:     " << r.cluster.node(largest).name() << " with "
        << r.cluster.state(largest).GpuAllocatable() << " GPUs allocatable\n";
  }
  if (e) {
    const int64_t need = gpu.any() ? (gpu.from_annotations ? gpu.count : PodGpuRequest(req)) : 1;
    out << "  free GPUs then:   " << FreeGpusThen(r, *e, rank, need, options.max_named_free) << "\n";
  }
  const bool attempted = d.kind != Diagnosis::Kind::kSchedulerNotRun && d.kind != Diagnosis::Kind::kSchedulingGated &&
                         d.kind != Diagnosis::Kind::kBeingDeleted;
  out << "  can it ever fit:  "
      << (!attempted   ? "not attempted (see why)"
          : d.forever ? "no, not on this cluster as it is"
                      : "yes, once there is room")
      << "\n";
  out << "  why:              " << DiagnosisText(d) << "\n";
  const Summary s = Summarize(r);
  const bool room_for_all = s.gpu_milli_requested <= GpusToMilli(s.gpus_capacity);
  out << "  it would fit with: " << WhatWouldHelp(r, d, room_for_all) << "\n";
}

}  // namespace gpusched
