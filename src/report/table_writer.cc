#include "gpusched/report/table_writer.h"

#include <fmt/format.h>

#include <map>

namespace gpusched {
namespace {

std::string JoinGpus(const std::vector<int32_t>& gpus) {
  std::string s;
  for (size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
  return s;
}

}  // namespace

void WriteTable(std::ostream& out, const RunReport& r) {
  const BatchResult& res = r.result;
  // The seed's lines, byte for byte: "  {pod:16} -> {node}".
  out << "scheduling result:\n";
  for (const auto& p : res.placements) {
    if (p.preexisting) continue;
    out << fmt::format("  {:16} -> {}\n", DisplayName(*r.pods[p.pod]), r.cluster.node(p.node).name());
  }
  if (!res.pending.empty()) {
    out << "pending (no node had enough free GPUs):\n";
    for (const auto& p : res.pending) out << "  " << DisplayName(*r.pods[p.pod]) << "\n";
  }
  out << "\nnode state after scheduling:\n";
  for (size_t i = 0; i < r.cluster.size(); ++i) {
    const NodeState& s = r.cluster.state(i);
    out << fmt::format("  {}: {}/{} GPUs used\n", r.cluster.node(i).name(), s.GpuRequested(), s.GpuAllocatable());
  }

  // What gpusched adds after the seed's lines.
  if (!res.pending.empty()) {
    out << "\nwhy pending:\n";
    for (const auto& p : res.pending) {
      out << "  " << DisplayName(*r.pods[p.pod]) << ": "
          << (p.message.empty() ? "(not handled by this scheduler)" : p.message) << "\n";
      out << "    " << p.diagnosis.text << "\n";
    }
  }
  bool any_gpu = false;
  std::map<size_t, std::vector<const BatchResult::Placed*>> by_node;
  for (const auto& p : res.placements) {
    if (!p.gpus.empty()) any_gpu = true;
    by_node[p.node].push_back(&p);
  }
  if (any_gpu) {
    out << "\nGPU devices (index on the node):\n";
    for (const auto& [node, list] : by_node) {
      std::string line;
      for (const auto* p : list) {
        if (p->gpus.empty()) continue;
        line += (line.empty() ? "" : ", ") + DisplayName(*r.pods[p->pod]) + " [" + JoinGpus(p->gpus) + "]";
      }
      if (!line.empty()) out << "  " << r.cluster.node(node).name() << ": " << line << "\n";
    }
  }
  bool any_pre = false;
  for (const auto& p : res.placements) any_pre |= p.preexisting;
  if (any_pre) {
    out << "\nalready running (spec.nodeName):\n";
    for (const auto& p : res.placements)
      if (p.preexisting)
        out << fmt::format("  {:16} -> {}\n", DisplayName(*r.pods[p.pod]), r.cluster.node(p.node).name());
  }
  if (!res.refused.empty()) {
    out << "\ncannot run where they are bound:\n";
    for (const auto& p : res.refused) out << "  " << DisplayName(*r.pods[p.pod]) << ": " << p.error << "\n";
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

  const Summary s = Summarize(r);
  out << fmt::format("\nsummary: {}, {}: {} placed, {} pending ({} can never fit), {} rejected\n",
                     Plural(s.nodes, "node"), Plural(s.pods, "pod"), s.placed, s.pending, s.pending_forever,
                     s.rejected_objects + s.refused);
  const int64_t pct = s.gpus_capacity > 0 ? s.gpus_allocated * 100 / s.gpus_capacity : 0;
  out << fmt::format("  GPUs: {} requested, {} capacity, {} allocated ({}%), {} free\n", s.gpus_requested,
                     s.gpus_capacity, s.gpus_allocated, pct, s.gpus_free);
  out << "  " << s.verdict << "\n";
}

}  // namespace gpusched
