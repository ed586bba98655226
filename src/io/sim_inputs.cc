#include "gpusched/io/sim_inputs.h"

#include <fstream>
#include <iterator>
#include <unordered_set>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/io/synthetic_spec_loader.h"
#include "gpusched/io/trace_loader.h"
#include "gpusched/io/workload_loader.h"
#include "gpusched/sim/synthetic.h"

namespace gpusched {
namespace {

bool IsCsv(const std::string& path) { return path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0; }

// A SyntheticWorkload spec names its kind near the top; anything else that
// is not a CSV is read as manifests.
bool IsSyntheticSpec(const std::string& path) {
  std::ifstream f(path);
  std::string head(4096, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(f.gcount()));
  return head.find("SyntheticWorkload") != std::string::npos;
}

void Append(Workload& to, Workload&& from) {
  for (auto& p : from.pods) to.pods.push_back(std::move(p));
  for (auto& e : from.node_events) to.node_events.push_back(std::move(e));
  for (auto& r : from.rejected) to.rejected.push_back(std::move(r));
  for (auto& w : from.warnings) to.warnings.push_back(std::move(w));
}

// Manifests -> initial nodes and a workload (pods with their timing
// annotations, nodes with add/remove times).
Status LoadManifestsInto(const std::vector<std::string>& paths, bool recursive, SimInputs& out) {
  if (paths.empty()) return Status::Ok();
  Manifests m;
  Status st = LoadManifestPaths(paths, LoadOptions{recursive}, m);
  if (!st.ok()) return st;
  ResolvePriorities(m);
  for (auto& w : m.warnings) out.warnings.push_back(std::move(w));
  for (auto& r : m.rejected) out.rejected.push_back(std::move(r));
  Workload w;
  st = LoadManifestWorkload(m, out.initial_nodes, w);
  if (!st.ok()) return st;
  Append(out.workload, std::move(w));
  return Status::Ok();
}

// A node name given twice (a manifest and a trace row, or two files) keeps
// its first definition; the later one is refused like a second create.
void RejectDuplicateNodes(SimInputs& out) {
  std::unordered_set<std::string> seen;
  std::vector<Node> kept;
  kept.reserve(out.initial_nodes.size());
  for (Node& n : out.initial_nodes) {
    if (seen.insert(n.name()).second) {
      kept.push_back(std::move(n));
    } else {
      out.rejected.push_back(InputError{"Node/" + n.name(), "", 0, "nodes \"" + n.name() + "\" already exists"});
    }
  }
  out.initial_nodes = std::move(kept);
}

}  // namespace

Status LoadSimInputs(const SimInputSpec& spec, SimInputs& out) {
  out.config = DefaultSchedulerConfiguration();
  if (!spec.config.empty()) {
    Result<KubeSchedulerConfiguration> c = LoadSchedulerConfigFile(spec.config, &out.warnings);
    if (!c.ok()) return c.status();
    out.config = std::move(c).value();
  }
  // Nodes keep the order of the paths (first-fit and tie-breaks see it):
  // runs of manifest paths are loaded together, so duplicates among them
  // are refused as the API server would.
  std::vector<std::string> manifests;
  for (const std::string& p : spec.cluster_paths) {
    if (!IsCsv(p)) {
      manifests.push_back(p);
      continue;
    }
    Status st = LoadManifestsInto(manifests, spec.recursive, out);
    if (!st.ok()) return st;
    manifests.clear();
    st = LoadTraceNodes(p, out.initial_nodes, out.rejected);
    if (!st.ok()) return st;
  }
  Status st = LoadManifestsInto(manifests, spec.recursive, out);
  if (!st.ok()) return st;
  RejectDuplicateNodes(out);
  if (spec.workload.empty()) return Status::Ok();
  if (IsCsv(spec.workload)) return LoadTracePods(spec.workload, out.workload);
  if (IsSyntheticSpec(spec.workload)) {
    Result<SyntheticSpec> s = LoadSyntheticSpecFile(spec.workload);
    if (!s.ok()) return s.status();
    const uint64_t seed = spec.seed_given || !s->seed ? spec.seed : *s->seed;
    Append(out.workload, GenerateSyntheticWorkload(*s, seed));
    return Status::Ok();
  }
  return LoadManifestsInto({spec.workload}, spec.recursive, out);
}

}  // namespace gpusched
