#include "gpusched/report/table_writer.h"

#include <fmt/format.h>

#include <map>

#include "gpusched/model/dra/device_kinds.h"
#include "gpusched/report/device_plugin_gpus.h"
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

// "DRA devices: 12 GPUs, 9 MIG devices (of 2 GPUs) in ResourceSlices; claims hold 4 GPUs, 1 MIG device
// (1 memory slice: 0.125 GPUs)".
std::string DraSummaryLine(const Summary& s) {
  std::vector<std::string> have, held;
  if (s.dra_gpus > 0) {
    have.push_back(Plural(s.dra_gpus, "GPU"));
    held.push_back(Plural(s.dra_gpus_allocated, "GPU"));
  }
  if (s.dra_mig > 0) {
    have.push_back(Plural(s.dra_mig, "MIG device") + " (of " + Plural(s.dra_mig_parents, "GPU") + ")");
    std::string m = Plural(s.dra_mig_allocated, "MIG device");
    if (s.dra_mig_slices_allocated > 0) {
      const std::string gpus = FormatGpuMilli(s.dra_mig_slices_allocated * 1000 / kMigMemorySlicesPerGpu);
      m += " (" + Plural(s.dra_mig_slices_allocated, "memory slice") + ": " + gpus + (gpus == "1" ? " GPU" : " GPUs") +
           ")";
    }
    held.push_back(m);
  }
  if (s.dra_other > 0) {
    have.push_back(Plural(s.dra_other, "other device"));
    held.push_back(Plural(s.dra_other_allocated, "other device"));
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
    return out;
  };
  return "DRA devices: " + join(have) + " in ResourceSlices; claims hold " + join(held);
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

// Per node, the DRA devices of its own slices (spec.nodeName) by kind:
// "4/4 DRA GPUs, 1/9 MIG devices held by claims"; "" without any.
std::map<std::string, std::string> NodeDraState(const ClusterState& cluster) {
  std::map<std::string, std::string> out;
  const DraObjects& dra = cluster.objects().dra;
  if (dra.slices.empty()) return out;
  const AllocatedState& in_use = cluster.dra_allocations().state();
  struct Counts {
    int64_t have[3] = {0, 0, 0}, held[3] = {0, 0, 0};
  };
  std::map<std::string, Counts> by_node;
  for (const ResourceSlice& sl : dra.slices) {
    if (sl.node_name.empty()) continue;
    Counts& c = by_node[sl.node_name];
    for (const Device& d : sl.devices) {
      const int k = static_cast<int>(KindOfDevice(sl.driver, d));
      ++c.have[k];
      c.held[k] += in_use.allocated_devices.count(DeviceId{sl.driver, sl.pool.name, d.name}) > 0;
    }
  }
  static constexpr const char* kNames[] = {"GPUs", "MIG devices", "other devices"};
  for (const auto& [node, c] : by_node) {
    std::string text;
    for (int k = 0; k < 3; ++k)
      if (c.have[k] > 0)
        text += (text.empty() ? "" : ", ") + std::to_string(c.held[k]) + "/" + std::to_string(c.have[k]) + " " +
                (text.empty() ? "DRA " : "") + kNames[k];
    out[node] = text + " held by claims";
  }
  return out;
}

void WriteNodeState(std::ostream& out, const RunReport& r) {
  out << "node state after scheduling:\n";
  const std::map<std::string, std::string> dra = NodeDraState(r.cluster);
  for (size_t i = 0; i < r.cluster.size(); ++i) {
    const NodeState& s = r.cluster.state(i);
    const std::string& name = r.cluster.node(i).name();
    auto it = dra.find(name);
    // The device plugin's MIG devices and replicas: instead of a GPU count
    // that is not GPUs, or beside a count that is.
    bool not_whole = false;
    if (std::string dp = NodeDevicePluginState(r.cluster, i, &not_whole); !dp.empty()) {
      if (it != dra.end()) dp += "; " + it->second;
      if (not_whole || s.GpuAllocatable() == 0)
        out << fmt::format("  {}: {}\n", name, dp);
      else
        out << fmt::format("  {}: {}/{} GPUs used; {}\n", name, s.GpuRequested(), s.GpuAllocatable(), dp);
    } else if (it != dra.end() && s.GpuAllocatable() == 0) {
      out << fmt::format("  {}: {}\n", name, it->second);
    } else if (it != dra.end()) {
      out << fmt::format("  {}: {}/{} GPUs used; {}\n", name, s.GpuRequested(), s.GpuAllocatable(), it->second);
    } else {
      out << fmt::format("  {}: {}/{} GPUs used\n", name, s.GpuRequested(), s.GpuAllocatable());
    }
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
  if (s.dra_gpus + s.dra_mig + s.dra_other > 0) out << "\n  " << DraSummaryLine(s);
  for (const std::string& line : DevicePluginGpuLines(CountDevicePluginGpus(r.cluster))) out << "\n  " << line;
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
