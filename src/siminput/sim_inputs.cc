#include "gpusched/siminput/sim_inputs.h"

#include "gpusched/model/volume_claims_warning.h"

#include <fstream>
#include <iterator>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/sim/synthetic.h"
#include "gpusched/siminput/synthetic_spec_loader.h"
#include "gpusched/siminput/trace_loader.h"
#include "gpusched/siminput/workload_loader.h"

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

template <typename T>
void MoveAppend(std::vector<T>& to, std::vector<T>&& from) {
  if (to.empty()) {
    to = std::move(from);
    return;
  }
  to.reserve(to.size() + from.size());
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// Moves (never copies) `from` to the end of `to`: the first workload is
// taken whole.
void Append(Workload& to, Workload&& from) {
  MoveAppend(to.pods, std::move(from.pods));
  MoveAppend(to.node_events, std::move(from.node_events));
  MoveAppend(to.rejected, std::move(from.rejected));
  MoveAppend(to.warnings, std::move(from.warnings));
}

// Manifests -> initial nodes and a workload (pods with their timing
// annotations, nodes with add/remove times).
Status LoadManifestsInto(const std::vector<std::string>& paths, bool recursive, SimInputs& out) {
  if (paths.empty()) return Status::Ok();
  Manifests m;
  Status st = LoadManifestPaths(paths, LoadOptions{recursive}, m);
  if (!st.ok()) return st;
  ResolvePriorities(m);
  // DRA objects of several path runs add up (a name seen again keeps its first).
  out.dra.Merge(std::move(m.dra));
  MoveAppend(out.pod_groups, std::move(m.pod_groups));
  {
    // The loader's warning about claims (ClaimsWithoutObjectsWarning) is
    // said once every path is read (LoadSimInputs): the cluster's paths
    // may hold the workload's claims.
    std::vector<const Pod*> loaded;
    for (const LoadedPod& lp : m.pods) loaded.push_back(&lp.pod);
    const std::string w = ClaimsWithoutObjectsWarning(loaded, m.api_objects.volumes);
    if (!w.empty()) std::erase(m.warnings, w);
  }
  out.api_objects.Merge(std::move(m.api_objects));  // a name seen again keeps its first
  // The manifests' invalid objects and warnings go with the workload they
  // came in (LoadManifestWorkload moves them there), reported once.
  Workload w;
  st = LoadManifestWorkload(std::move(m), out.initial_nodes, w);
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

namespace {

// Every path into `out`, gangs aside.
Status LoadAll(const SimInputSpec& spec, SimInputs& out) {
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

}  // namespace

Status LoadSimInputs(const SimInputSpec& spec, SimInputs& out) {
  Status st = LoadAll(spec, out);
  if (!st.ok() || out.workload.pods.empty()) return st;
  {
    std::vector<const Pod*> pods;
    for (const WorkloadPod& wp : out.workload.pods) pods.push_back(&wp.pod);
    if (std::string w = ClaimsWithoutObjectsWarning(pods, out.api_objects.volumes); !w.empty())
      out.workload.warnings.push_back(std::move(w));
  }
  if (out.pod_groups.empty()) {
    // Links to groups that are not in the input still matter (GroupGangs).
    bool linked = false;
    for (const WorkloadPod& wp : out.workload.pods) linked = linked || !GangLinksOf(wp.pod).empty();
    if (!linked) return st;
  }
  // An operator's group lists its pods; only those in the workload count.
  std::unordered_set<std::string> keys;
  std::vector<const Pod*> pods;
  pods.reserve(out.workload.pods.size());
  for (const WorkloadPod& wp : out.workload.pods) {
    pods.push_back(&wp.pod);
    keys.insert(wp.pod.ns() + "/" + wp.pod.name());
  }
  std::vector<PodGroupDecl> decls = out.pod_groups;
  for (PodGroupDecl& d : decls)
    if (d.api == GangApi::kOperator) std::erase_if(d.members, [&](const std::string& k) { return !keys.count(k); });
  out.gangs = GroupIntoGangs(decls, pods);
  return st;
}

}  // namespace gpusched
