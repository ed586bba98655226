#include "gpusched/report/run_report.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "gpusched/model/dra/device_kinds.h"
#include "gpusched/model/node_gpus.h"
#include "gpusched/report/request_text.h"

namespace gpusched {
std::string DisplayName(const Pod& p) { return p.ns() == kDefaultNamespace ? p.name() : p.ns() + "/" + p.name(); }

namespace {

// The DRA part of the summary: every device of the newest generation of
// its pool, and whether a claim holds it.
void CountDraDevices(const ClusterState& cluster, Summary& s) {
  const DraObjects& dra = cluster.objects().dra;
  if (dra.slices.empty()) return;
  const AllocatedState& in_use = cluster.dra_allocations().state();
  std::set<std::string> parents;
  for (const ResourceSlice* current : CurrentSlices(dra.slices)) {
    const ResourceSlice& sl = *current;
    for (const Device& d : sl.devices) {
      const bool held = in_use.allocated_devices.count(DeviceId{sl.driver, sl.pool.name, d.name}) > 0;
      switch (KindOfDevice(sl.driver, d)) {
        case DraDeviceKind::kGpu:
          ++s.dra_gpus;
          s.dra_gpus_allocated += held;
          break;
        case DraDeviceKind::kMig:
          ++s.dra_mig;
          if (held) {
            ++s.dra_mig_allocated;
            s.dra_mig_slices_allocated += MigMemorySlices(d);
          }
          parents.insert(sl.pool.name + "/" + MigParent(sl.driver, d));
          break;
        case DraDeviceKind::kOther:
          ++s.dra_other;
          s.dra_other_allocated += held;
          break;
      }
    }
  }
  s.dra_mig_parents = static_cast<int64_t>(parents.size());
}

}  // namespace

Summary Summarize(const RunReport& r) {
  Summary s;
  CountDraDevices(r.cluster, s);
  s.nodes = static_cast<int64_t>(r.cluster.size());
  s.pods = static_cast<int64_t>(r.pods.size());
  for (const auto& p : r.result.placements) {
    s.placed++;
    if (p.preexisting) s.preexisting++;
  }
  s.pending = static_cast<int64_t>(r.result.pending.size());
  s.refused = static_cast<int64_t>(r.result.refused.size());
  s.preempted = static_cast<int64_t>(r.result.preempted.size());
  s.rejected_objects = static_cast<int64_t>(r.rejected.size());
  for (size_t i = 0; i < r.cluster.size(); ++i) {
    s.gpus_capacity = SatAdd(s.gpus_capacity, r.cluster.state(i).GpuAllocatable());
    s.gpus_allocated = SatAdd(s.gpus_allocated, r.cluster.state(i).GpuRequested());
  }
  s.gpus_free = SatSub(s.gpus_capacity, s.gpus_allocated);
  // Every pod's request, as the scheduler worked it out: whole GPUs and shares.
  std::vector<int64_t> whole(r.pods.size()), milli(r.pods.size());
  std::vector<bool> share(r.pods.size());
  std::vector<std::optional<GpuRequest>> memory_gpu(r.pods.size());
  for (size_t i = 0; i < r.pods.size(); ++i) {
    whole[i] = r.result.pod_infos[i].whole_gpus;
    const GpuRequest& gpu = r.result.pod_infos[i].gpu;
    share[i] = gpu.any() && gpu.from_annotations;
    // Whole GPUs from the request itself: GpuRequest caps its count at 2^31.
    milli[i] = share[i] ? GpuMilliOf(gpu) : GpusToMilli(whole[i]);
    if (share[i] && gpu.memory_mib > 0) memory_gpu[i] = gpu;
    s.gpus_requested = SatAdd(s.gpus_requested, whole[i]);
  }
  // KAI's gpu-memory takes a share that depends on the node's GPU memory
  // (GpuRequest::MilliOn): a placed pod counts what it took on its node; a
  // pending one the least it would take, on the node with the largest GPUs,
  // or a whole device each when no node can size it (it asks for more memory
  // than any labelled GPU here has).
  // Read from every node's labels only when some gpu-memory pod is not placed.
  std::optional<int64_t> largest_gpu_mib;
  auto largest = [&] {
    if (!largest_gpu_mib) {
      largest_gpu_mib = 0;
      for (size_t n = 0; n < r.cluster.size(); ++n)
        largest_gpu_mib = std::max(*largest_gpu_mib, NodeGpuMemoryMib(r.cluster.node(n).meta));
    }
    return *largest_gpu_mib;
  };
  std::vector<bool> placed(r.pods.size());
  for (const auto& p : r.result.placements) {
    placed[p.pod] = true;
    if (memory_gpu[p.pod])
      milli[p.pod] = static_cast<int64_t>(memory_gpu[p.pod]->MilliOn(NodeGpuMemoryMib(r.cluster.node(p.node).meta))) *
                     memory_gpu[p.pod]->count;
  }
  for (size_t i = 0; i < r.pods.size(); ++i) {
    if (memory_gpu[i] && !placed[i]) {
      const int32_t least = memory_gpu[i]->MilliOn(largest());
      milli[i] = static_cast<int64_t>(least > 0 ? least : kGpuMilli) * memory_gpu[i]->count;
    }
    s.gpu_milli_requested = SatAdd(s.gpu_milli_requested, milli[i]);
  }
  int64_t whole_placed = 0;
  for (const auto& p : r.result.placements) {
    if (share[p.pod]) {
      s.gpu_milli_in_shares = SatAdd(s.gpu_milli_in_shares, milli[p.pod]);
    } else {
      whole_placed = SatAdd(whole_placed, whole[p.pod]);
    }
  }
  // Devices are charged to nvidia.com/gpu by whole-GPU pods and by shares
  // (ClusterState::Bind); what whole-GPU pods do not account for, shares hold.
  if (s.gpu_milli_in_shares > 0) s.gpus_holding_shares = std::max<int64_t>(0, SatSub(s.gpus_allocated, whole_placed));
  int64_t fragmented = 0, gated = 0, not_run = 0, deleting = 0;
  int64_t forever_milli = 0;  // asked by pods that can never fit: waiting does not help them
  for (const auto& p : r.result.pending) {
    s.gpus_pending = SatAdd(s.gpus_pending, whole[p.pod]);
    s.gpu_milli_pending = SatAdd(s.gpu_milli_pending, milli[p.pod]);
    if (p.diagnosis.forever) {
      s.pending_forever++;
      forever_milli = SatAdd(forever_milli, milli[p.pod]);
    }
    if (p.diagnosis.kind == Diagnosis::Kind::kFragmented) fragmented++;
    if (p.diagnosis.kind == Diagnosis::Kind::kSchedulingGated) gated++;
    if (p.diagnosis.kind == Diagnosis::Kind::kSchedulerNotRun) not_run++;
    if (p.diagnosis.kind == Diagnosis::Kind::kBeingDeleted) deleting++;
  }

  const int64_t capacity_milli = GpusToMilli(s.gpus_capacity);
  const std::string req = FormatGpuMilli(s.gpu_milli_requested);
  const std::string cap = std::to_string(s.gpus_capacity);
  auto gpus = [](const std::string& n) { return n + (n == "1" ? " GPU" : " GPUs"); };
  std::vector<std::string> parts;
  if (s.pods == 0 && s.rejected_objects > 0) {
    // Not "no pods": the input had some, and they are refused.
    parts.push_back("no valid pod to schedule: fix what is rejected (see rejected) and run again");
  } else if (s.pods == 0) {
    parts.push_back("no pods to schedule");
  } else if (s.pending == 0 && s.preempted == 0) {
    parts.push_back(s.rejected_objects + s.refused > 0 ? "every valid pod was placed" : "every pod was placed");
  }
  if (s.preempted > 0)
    parts.push_back(Plural(s.preempted, "pod") + (s.preempted == 1 ? " was" : " were") +
                    " preempted (evicted to make room for higher-priority pods; see preempted)");
  if (gated > 0)
    parts.push_back(Plural(gated, "pending pod") + (gated == 1 ? " is" : " are") +
                    " gated (spec.schedulingGates) and not attempted until the gates are removed");
  if (not_run > 0)
    parts.push_back(Plural(not_run, "pending pod") +
                    " not attempted: spec.schedulerName names a scheduler gpusched does not run (see why pending)");
  if (deleting > 0)
    parts.push_back(Plural(deleting, "pending pod") + (deleting == 1 ? " is" : " are") +
                    " being deleted (metadata.deletionTimestamp) and not attempted, as kube-scheduler skips such pods");
  if (s.pending_forever > 0)
    parts.push_back(Plural(s.pending_forever, "pending pod") + " can never fit on this cluster as it is (see why pending)");
  // Only the pods that can fit wait for others to finish: a pod bigger
  // than every node is not helped by waiting, and says so itself.
  const int64_t can_fit_milli = SatSub(s.gpu_milli_requested, forever_milli);
  if (s.pending > 0 && s.gpus_capacity == 0 && s.gpu_milli_requested > 0) {
    parts.push_back("the pods request " + gpus(req) + " and the cluster advertises none");
  } else if (s.pending > s.pending_forever && can_fit_milli > capacity_milli) {
    parts.push_back((forever_milli > 0 ? "the pods that can fit request " + FormatGpuMilli(can_fit_milli)
                                       : "the pods request " + req) +
                    " GPUs but the cluster has " + cap + ": no queue order or policy can place them all at once; at least " +
                    FormatGpuMilli(can_fit_milli - capacity_milli) +
                    (can_fit_milli - capacity_milli == GpusToMilli(1) ? " GPU's" : " GPUs'") +
                    " worth of pods must wait for others to finish");
  } else if (fragmented > 0) {
    parts.push_back("the pods request " + req + " of " + cap +
                    " GPUs, so they could all fit, but free GPUs are fragmented across nodes; try --order "
                    "largest-first or a bin-packing policy");
  }
  // Pending for none of the reasons above (e.g. held by a topology spread
  // constraint while its requests are free): said, not left blank.
  if (parts.empty() && s.pending > 0)
    parts.push_back(Plural(s.pending, "pending pod") + (s.pending == 1 ? " waits" : " wait") +
                    " for the cluster to change (see why pending)");
  for (size_t i = 0; i < parts.size(); ++i) s.verdict += (i ? "; " : "") + parts[i];
  return s;
}

}  // namespace gpusched
