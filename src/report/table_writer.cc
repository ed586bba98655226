#include "gpusched/report/table_writer.h"

#include <fmt/format.h>

#include <map>

#include "gpusched/report/diagnosis_text.h"
#include "gpusched/report/gang_report.h"
#include "gpusched/report/pending_groups.h"
#include "gpusched/report/request_text.h"

namespace gpusched {
namespace {

std::string JoinGpus(const std::vector<int32_t>& gpus) {
  std::string s;
  for (size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
  return s;
}

// The seed's lines: "  {pod:16} -> {node}".
void WritePlacements(std::ostream& out, const RunReport& r) {
  out << "scheduling result:\n";
  for (const auto& p : r.result.placements) {
    if (p.preexisting) continue;
    out << fmt::format("  {:16} -> {}\n", DisplayName(*r.pods[p.pod]), r.cluster.node(p.node).name());
  }
}

// The seed's heading is true of pods that wait for GPUs; the others are
// listed under a heading of their own.
void WritePendingNames(std::ostream& out, const RunReport& r) {
  // The seed's heading over the pods it is true of (they wait for GPUs to
  // free up); a pod that can never fit is not waiting for free GPUs. A pod
  // gpusched does not model (DRA, HAMi) was not tried on the nodes: its
  // heading says no more than that.
  auto never_fits = [](const BatchResult::Pending& p) {
    using K = Diagnosis::Kind;
    return p.diagnosis.forever && p.diagnosis.kind != K::kNotModelled;
  };
  std::vector<const BatchResult::Pending*> gpu, never, other;
  for (const auto& p : r.result.pending) (never_fits(p) ? never : WaitsForGpus(p) ? gpu : other).push_back(&p);
  if (!gpu.empty()) {
    out << "pending (no node had enough free GPUs):\n";
    for (const auto* p : gpu) out << "  " << DisplayName(*r.pods[p->pod]) << "\n";
  }
  if (!never.empty()) {
    out << "pending (can never fit on this cluster as it is; see why pending):\n";
    for (const auto* p : never) out << "  " << DisplayName(*r.pods[p->pod]) << "\n";
  }
  if (!other.empty()) {
    out << "pending (for reasons other than free GPUs; see why pending):\n";
    for (const auto* p : other) out << "  " << DisplayName(*r.pods[p->pod]) << "\n";
  }
}

void WriteNodeState(std::ostream& out, const RunReport& r) {
  out << "node state after scheduling:\n";
  for (size_t i = 0; i < r.cluster.size(); ++i) {
    const NodeState& s = r.cluster.state(i);
    out << fmt::format("  {}: {}/{} GPUs used\n", r.cluster.node(i).name(), s.GpuRequested(), s.GpuAllocatable());
  }
}

void WriteWhyPendingEach(std::ostream& out, const RunReport& r) {
  out << "why pending:\n";
  for (const auto& p : r.result.pending) {
    out << "  " << DisplayName(*r.pods[p.pod]) << ": "
        << (p.message.empty() ? "(not handled by this scheduler)" : p.message) << "\n";
    out << "    " << DiagnosisText(p.diagnosis) << "\n";
  }
}

void WriteDevices(std::ostream& out, const RunReport& r) {
  std::map<size_t, std::vector<const BatchResult::Placed*>> by_node;
  for (const auto& p : r.result.placements)
    if (!p.gpus.empty()) by_node[p.node].push_back(&p);
  if (by_node.empty()) return;
  out << "\nGPU devices (index on the node):\n";
  for (const auto& [node, list] : by_node) {
    std::string line;
    for (const auto* p : list) line += (line.empty() ? "" : ", ") + DisplayName(*r.pods[p->pod]) + " [" + JoinGpus(p->gpus) + "]";
    out << "  " << r.cluster.node(node).name() << ": " << line << "\n";
  }
}

// DynamicResources' allocations: each placed pod's claims and devices
// ("  trainer-0: claim gpu (ml/trainer-0-gpu-x9k2q): gpu.nvidia.com/node-a/gpu-0, .../gpu-1").
void WriteClaimDevices(std::ostream& out, const RunReport& r) {
  bool any = false;
  for (const auto& p : r.result.placements) any |= !p.claims.empty();
  if (!any) return;
  out << "\nDRA devices (driver/pool/device, by claim):\n";
  for (const auto& p : r.result.placements) {
    for (const ClaimDevices& c : p.claims) {
      std::string devices;
      for (const DeviceRequestAllocationResult& d : c.results)
        devices += (devices.empty() ? "" : ", ") + d.driver + "/" + d.pool + "/" + d.device;
      out << "  " << DisplayName(*r.pods[p.pod]) << ": claim " << c.pod_claim_name << " (" << c.claim
          << "): " << (devices.empty() ? std::string("no devices") : devices) << "\n";
    }
  }
}

void WritePreexisting(std::ostream& out, const RunReport& r) {
  bool any = false;
  for (const auto& p : r.result.placements) any |= p.preexisting;
  if (!any) return;
  out << "\nalready running (spec.nodeName):\n";
  for (const auto& p : r.result.placements)
    if (p.preexisting) out << fmt::format("  {:16} -> {}\n", DisplayName(*r.pods[p.pod]), r.cluster.node(p.node).name());
}

// Pods DefaultPreemption evicted, in eviction order.
void WritePreempted(std::ostream& out, const RunReport& r) {
  if (r.result.preempted.empty()) return;
  out << "\npreempted (evicted to make room for a higher-priority pod):\n";
  for (const auto& p : r.result.preempted)
    out << "  " << DisplayName(*r.pods[p.pod]) << " on " << r.cluster.node(p.node).name() << ", by "
        << DisplayName(*r.pods[p.by]) << "\n";
  // --preempt-gangs (docs/preemption.md): gangs left below minCount placed.
  for (const auto& b : r.result.broken_gangs)
    out << "  gang " << b.gang->key << " broken (below minCount " << b.gang->min_count << ") by "
        << DisplayName(*r.pods[b.by]) << "\n";
}

void WriteRefusedAndRejected(std::ostream& out, const RunReport& r) {
  if (!r.result.refused.empty()) {
    out << "\ncannot run where they are bound:\n";
    for (const auto& p : r.result.refused) out << "  " << DisplayName(*r.pods[p.pod]) << ": " << p.error << "\n";
  }
  if (!r.rejected.empty()) {
    out << "\nrejected (invalid input, not scheduled):\n";
    for (const auto& e : r.rejected) {
      std::string msg = e.ToString();
      // Indent continuation lines of kubectl's "* " lists.
      std::string indented;
      for (char c : msg) {
        indented.push_back(c);
        if (c == '\n') indented += "    ";
      }
      out << "  " << indented << "\n";
    }
  }
}

void WriteSummary(std::ostream& out, const RunReport& r) {
  const Summary s = Summarize(r);
  out << fmt::format("summary: {}, {}: {} placed, {} pending ({} can never fit), ", Plural(s.nodes, "node"),
                     Plural(s.pods, "pod"), s.placed, s.pending, s.pending_forever);
  if (s.preempted > 0) out << s.preempted << " preempted, ";
  out << (s.rejected_objects + s.refused) << " rejected\n";
  const int64_t pct = s.gpus_capacity > 0 ? s.gpus_allocated * 100 / s.gpus_capacity : 0;
  // Requested counts GPU shares at their size; allocated counts devices as
  // kubectl does, a device lent to shares as one: the last part reconciles them.
  out << fmt::format("  GPUs: {} requested, {} capacity, {} allocated ({}%), {} free",
                     FormatGpuMilli(s.gpu_milli_requested), s.gpus_capacity, s.gpus_allocated, pct, s.gpus_free);
  if (s.gpus_holding_shares > 0) {
    out << "; " << s.gpus_holding_shares << " of the allocated GPUs " << (s.gpus_holding_shares == 1 ? "holds" : "hold")
        << " GPU shares, which use " << FormatGpuMilli(s.gpu_milli_in_shares) << " of "
        << (s.gpus_holding_shares == 1 ? "it" : "them");
  }
  out << "\n  " << s.verdict << "\n";
}

void WriteSeedLayout(std::ostream& out, const RunReport& r) {
  WritePlacements(out, r);
  WritePendingNames(out, r);
  out << "\n";
  WriteNodeState(out, r);
  // What gpusched adds after the seed's lines.
  if (!r.result.pending.empty()) {
    out << "\n";
    WriteWhyPendingEach(out, r);
  }
  WriteGangsSection(out, r);
  WriteDevices(out, r);
  WriteClaimDevices(out, r);
  WritePreexisting(out, r);
  WritePreempted(out, r);
  WriteRefusedAndRejected(out, r);
  out << "\n";
  WriteSummary(out, r);
}

void WriteSummaryFirst(std::ostream& out, const RunReport& r) {
  WriteSummary(out, r);
  if (!r.result.pending.empty()) {
    out << "\n";
    WritePendingGroups(out, r);
  }
  WriteGangsSection(out, r);
  WritePreempted(out, r);
  WriteRefusedAndRejected(out, r);
  out << "\n";
  WritePlacements(out, r);
  WritePreexisting(out, r);
  out << "\n";
  WriteNodeState(out, r);
  WriteDevices(out, r);
  WriteClaimDevices(out, r);
}

}  // namespace

bool UsesSeedLayout(const RunReport& r) {
  return r.cluster.size() <= kSeedLayoutMaxNodes && r.pods.size() <= kSeedLayoutMaxPods;
}

void WriteTable(std::ostream& out, const RunReport& r, const TableOptions& options) {
  if (options.quiet) {
    WriteSummary(out, r);
    if (!r.result.pending.empty()) {
      out << "\n";
      WritePendingGroups(out, r);
    }
    WriteGangsSection(out, r);
    return;
  }
  if (UsesSeedLayout(r)) {
    WriteSeedLayout(out, r);
  } else {
    WriteSummaryFirst(out, r);
  }
}

}  // namespace gpusched
