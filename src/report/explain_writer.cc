#include "gpusched/report/explain_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpusched/model/pod_requests.h"

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

// "3 nvidia.com/gpu, 4 cpu, 16Gi memory"
std::string DescribeRequests(const Resources& r) {
  std::vector<std::string> parts;
  for (const auto& [n, v] : r.scalars)
    if (v > 0) parts.push_back(FormatAmount(n, v) + " " + n);
  if (r.milli_cpu > 0) parts.push_back(FormatAmount(kResourceCPU, r.milli_cpu) + " cpu");
  if (r.memory > 0) parts.push_back(FormatAmount(kResourceMemory, r.memory) + " memory");
  if (r.ephemeral_storage > 0)
    parts.push_back(FormatAmount(kResourceEphemeralStorage, r.ephemeral_storage) + " ephemeral-storage");
  return parts.empty() ? "nothing (a best-effort pod)" : Join(parts, ", ");
}

std::string ScoresText(const NodeExplain& ne) {
  std::vector<std::string> parts;
  for (const auto& s : ne.scores)
    parts.push_back(fmt::format("{} {}->{}x{}={}", s.plugin, s.raw, s.normalized, s.weight, s.weighted));
  return Join(parts, ", ");
}

std::string WhatWouldHelp(const RunReport& r, const Diagnosis& d) {
  switch (d.kind) {
    case Diagnosis::Kind::kNoNodes:
      return "add nodes to the cluster (or pass their manifests with -f)";
    case Diagnosis::Kind::kTooLarge:
      return "a smaller request (at most what the largest node has), or a bigger node";
    case Diagnosis::Kind::kNotAdvertised:
      return "install the device plugin on the GPU nodes (the NVIDIA device plugin DaemonSet or the GPU "
             "Operator) so that they advertise the resource in status.allocatable";
    case Diagnosis::Kind::kNoEligibleNode:
      return "a toleration for the nodes' taints, uncordoning nodes (kubectl uncordon), or a nodeSelector/affinity "
             "that some node's labels satisfy (or labelling a node)";
    case Diagnosis::Kind::kSchedulingGated:
      return "its scheduling gates removed (by whoever added them, e.g. a queueing controller)";
    case Diagnosis::Kind::kSchedulerNotRun:
      return "--scheduler-name NAME=POLICY, to model that scheduler with a gpusched policy";
    case Diagnosis::Kind::kDraClaimMissing:
      return "the missing resource.k8s.io object (ResourceClaim, ResourceClaimTemplate or DeviceClass) in the input";
    case Diagnosis::Kind::kDraNotModelled:
      return "nothing gpusched can tell yet: DRA device allocation is not modelled";
    case Diagnosis::Kind::kNotModelled:
      return "nothing gpusched can tell: HAMi's scheduler decides where HAMi vGPU pods go";
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
      if (d.kind == Diagnosis::Kind::kFragmented) s += "; or a bin-packing policy / --order largest-first";
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

void WriteExplain(std::ostream& out, const RunReport& r, size_t pod_index) {
  const Pod& pod = *r.pods[pod_index];
  const Resources req = ComputePodRequests(pod);
  out << "pod " << pod.ns() << "/" << pod.name() << " requests " << DescribeRequests(req) << "\n";
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
  if (e) {
    out << fmt::format("policy {}, queue order {}; the filter scan started at node {} and looked for {} feasible "
                       "node(s)\n\n",
                       r.policy, r.order, e->start_index, e->nodes_to_find);
    size_t w = 4;
    for (const auto& ne : e->nodes) w = std::max(w, r.cluster.node(ne.node).name().size());
    out << fmt::format("  {:<{}}  {:>5}  {:<9}  {:<18}  {:>6}  {}\n", "NODE", w, "GPUS", "FEASIBLE", "FILTER", "TOTAL",
                       "REASONS / SCORES (plugin raw->normalized x weight = weighted)");
    for (const auto& ne : e->nodes) {
      std::string feasible = !ne.evaluated ? "not run" : (ne.feasible ? "yes" : "no");
      std::string detail = ne.feasible ? ScoresText(ne) : Join(ne.reasons, ", ");
      if (!ne.evaluated) detail = "(the scan had found enough feasible nodes)";
      std::string total = ne.scored ? std::to_string(ne.total) : "-";
      out << fmt::format("  {:<{}}  {:>5}  {:<9}  {:<18}  {:>6}  {}\n", r.cluster.node(ne.node).name(), w,
                         std::to_string(ne.gpus_free) + "/" + std::to_string(ne.gpus_total), feasible,
                         ne.failed_plugin.empty() ? "-" : ne.failed_plugin, total, detail);
    }
    out << "\n";
  }
  if (!pending) {
    if (e && e->chosen) out << "chosen: " << r.cluster.node(*e->chosen).name() << " (" << e->why << ")\n";
    return;
  }
  out << "pending: " << (pending->message.empty() ? "(not handled by any profile)" : pending->message) << "\n\n";
  const Diagnosis& d = pending->diagnosis;
  out << "diagnosis:\n";
  out << "  asked for:        " << DescribeRequests(req) << " on one node\n";
  size_t largest = 0;
  for (size_t i = 1; i < r.cluster.size(); ++i)
    if (r.cluster.state(i).GpuAllocatable() > r.cluster.state(largest).GpuAllocatable()) largest = i;
  if (r.cluster.size() > 0) {
    out << "  largest node:     " << r.cluster.node(largest).name() << " with "
        << r.cluster.state(largest).GpuAllocatable() << " GPUs allocatable\n";
  }
  if (e) {
    std::vector<std::string> free;
    for (const auto& ne : e->nodes)
      free.push_back(r.cluster.node(ne.node).name() + " " + std::to_string(ne.gpus_free) + "/" +
                     std::to_string(ne.gpus_total));
    out << "  free GPUs then:   " << (free.empty() ? "(no nodes)" : Join(free, ", ")) << "\n";
  }
  out << "  can it ever fit:  " << (d.forever ? "no, not on this cluster as it is" : "yes, once there is room") << "\n";
  out << "  why:              " << d.text << "\n";
  out << "  it would fit with: " << WhatWouldHelp(r, d) << "\n";
}

}  // namespace gpusched
