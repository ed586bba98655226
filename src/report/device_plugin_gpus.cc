#include "gpusched/report/device_plugin_gpus.h"

#include <algorithm>

#include "gpusched/model/mig_profiles.h"
#include "gpusched/model/node_gpus.h"
#include "gpusched/report/request_text.h"
#include "gpusched/util/plural.h"

namespace gpusched {
namespace {

std::string Gpus(int64_t milli) {
  const std::string g = FormatGpuMilli(milli);
  return g + (g == "1" ? " GPU" : " GPUs");
}

// A 2^40-device node must not wrap the GPU fraction around.
int64_t SatMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return INT64_MAX;
  return r;
}

// Adds node i's MIG devices and shared replicas to `d` and `kinds`
// (time-sliced, MPS); true when its nvidia.com/gpu are not whole GPUs
// (single-strategy MIG devices, or replicas kept under that name).
bool AddNode(const ClusterState& cluster, size_t i, DevicePluginGpus& d, DevicePluginGpus::Shared (&kinds)[2]) {
  bool gpu_not_whole = false;
  {
    const NodeState& st = cluster.state(i);
    const NodeGpuSharing g = ReadNodeGpuSharing(cluster.node(i).meta);
    bool mig_node = false;
    auto count_mig = [&](std::string_view resource, const MigProfileInfo* profile) {
      const int64_t have = st.allocatable.Get(resource);
      if (have <= 0) return;
      const int64_t held = std::min(have, st.requested.Get(resource));
      mig_node = true;
      d.mig_devices = SatAdd(d.mig_devices, have);
      d.mig_held = SatAdd(d.mig_held, held);
      if (!g.model || !profile) {
        d.mig_unsized = SatAdd(d.mig_unsized, have);
        return;
      }
      const int64_t each = MigProfileMilliGpu(*g.model, *profile);
      d.mig_milli = SatAdd(d.mig_milli, SatMul(each, have));
      d.mig_held_milli = SatAdd(d.mig_held_milli, SatMul(each, held));
    };
    // Mixed: every nvidia.com/mig-<profile> (on any node: the resource
    // name says it, labels or not).
    for (const auto& [name, amount] : st.allocatable.scalars) {
      const std::string_view profile = MigProfile(name);
      if (profile.empty()) continue;
      count_mig(name, g.model ? FindMigProfile(*g.model, profile) : nullptr);
    }
    // Single: nvidia.com/gpu is MIG devices of the product's profile.
    if (g.mig == NodeGpuSharing::Mig::kSingle && !g.product.mig_profile.empty()) {
      const int64_t have = st.allocatable.Get(kResourceGPU);
      count_mig(kResourceGPU, g.single_profile);
      if (have > 0) {
        gpu_not_whole = true;
        d.single_devices = SatAdd(d.single_devices, have);
        const std::string profile = g.single_profile ? std::string(g.single_profile->name) : "";
        if (profile.empty() || (!d.single_profile.empty() && profile != d.single_profile)) {
          d.single_mixed_profiles = true;  // several profiles, or one unknown: not named
          d.single_profile.clear();
        } else if (!d.single_mixed_profiles) {
          d.single_profile = profile;
          d.single_milli = MigProfileMilliGpu(*g.model, *g.single_profile);
        }
        for (const BoundPod& p : st.pods) d.single_pods += p.requests.Get(kResourceGPU) > 0;
      }
    }
    d.mig_nodes += mig_node;
    if (g.replicas > 1) {
      const int64_t replicas = st.allocatable.Get(g.replica_resource);
      if (replicas <= 0) return gpu_not_whole;
      DevicePluginGpus::Shared& k = kinds[g.sharing == "mps" ? 1 : 0];
      ++k.nodes;
      // GFD's nvidia.com/gpu.count is the physical GPUs; without it, the
      // replicas over the replicas per GPU (rounded up).
      const int64_t gpus = g.gpu_count >= 0 ? g.gpu_count : replicas / g.replicas + (replicas % g.replicas != 0);
      k.gpus = SatAdd(k.gpus, gpus);
      k.replicas = SatAdd(k.replicas, replicas);
      k.held = SatAdd(k.held, std::min(replicas, st.requested.Get(g.replica_resource)));
      if (g.replica_resource == kResourceGPU) {
        k.replicas_as_gpu = SatAdd(k.replicas_as_gpu, replicas);
        gpu_not_whole = true;
      }
      for (const BoundPod& p : st.pods) {
        const int64_t r = p.requests.Get(g.replica_resource);
        k.pods += r > 0;
        k.pods_over_one += r > 1;
      }
    }
  }
  return gpu_not_whole;
}

}  // namespace

DevicePluginGpus CountDevicePluginGpus(const ClusterState& cluster) {
  DevicePluginGpus d;
  DevicePluginGpus::Shared kinds[2] = {{"time-sliced"}, {"MPS"}};
  for (size_t i = 0; i < cluster.size(); ++i)
    if (cluster.present(i)) AddNode(cluster, i, d, kinds);
  for (auto& k : kinds)
    if (k.nodes > 0) d.shared.push_back(k);
  return d;
}

std::string NodeDevicePluginState(const ClusterState& cluster, size_t i, bool* gpu_not_whole) {
  DevicePluginGpus d;
  DevicePluginGpus::Shared kinds[2] = {{"time-sliced"}, {"MPS"}};
  const bool not_whole = AddNode(cluster, i, d, kinds);
  if (gpu_not_whole) *gpu_not_whole = not_whole;
  std::string s;
  if (d.mig_devices > 0) s = std::to_string(d.mig_held) + "/" + std::to_string(d.mig_devices) + " MIG devices held";
  for (const auto& k : kinds)
    if (k.nodes > 0)
      s += (s.empty() ? "" : "; ") + std::to_string(k.held) + "/" + std::to_string(k.replicas) + " " + k.kind +
           " replicas of " + Plural(k.gpus, "GPU") + " held";
  return s;
}

std::vector<std::string> DevicePluginGpuLines(const DevicePluginGpus& d) {
  std::vector<std::string> lines;
  if (d.mig_devices > 0) {
    std::string l = "MIG devices through the device plugin: " + std::to_string(d.mig_devices) + " on " +
                    Plural(d.mig_nodes, "node");
    const int64_t sized = d.mig_devices - d.mig_unsized;
    if (sized > 0) l += " (" + (d.mig_unsized > 0 ? std::to_string(sized) + " of them sized: " : "") + Gpus(d.mig_milli) + ")";
    l += ", " + std::to_string(d.mig_held) + " held";
    if (d.mig_held > 0 && d.mig_held_milli > 0) l += " (" + Gpus(d.mig_held_milli) + ")";
    if (d.mig_unsized > 0)
      l += "; " + std::to_string(d.mig_unsized) +
           " of unknown size (no nvidia.com/gpu.product label of a MIG-capable GPU gpusched knows)";
    lines.push_back(l);
    if (d.single_devices > 0) {
      std::string s = "MIG single strategy: " + Plural(d.single_devices, "MIG device") +
                      " advertised as nvidia.com/gpu, counted above as GPUs by kube-scheduler and kubectl";
      if (d.single_pods > 0)
        s += "; " + Plural(d.single_pods, "pod", "pods") + " asking nvidia.com/gpu " +
             (d.single_pods == 1 ? "runs" : "run") + " there on " +
             (d.single_profile.empty() ? std::string("a MIG device")
                                       : "one " + d.single_profile + " MIG device (" + Gpus(d.single_milli) + ")") +
             " per GPU asked, not a whole GPU";
      lines.push_back(s);
    }
  }
  for (const auto& k : d.shared) {
    std::string l = (k.kind == "MPS" ? std::string("MPS: ") : std::string("time-slicing: ")) + Plural(k.gpus, "GPU") +
                    " on " + Plural(k.nodes, "node") + ", shared as " + std::to_string(k.replicas) + " " + k.kind +
                    (k.replicas == 1 ? " replica, " : " replicas, ") + std::to_string(k.held) + " held by " +
                    Plural(k.pods, "pod");
    if (k.replicas_as_gpu > 0)
      l += "; " + std::to_string(k.replicas_as_gpu) + " of the GPU capacity above " +
           (k.replicas_as_gpu == 1 ? "is a replica" : "are replicas") + ", not physical GPUs";
    lines.push_back(l);
    // k8s-device-plugin: with failRequestsGreaterThanOne (MPS's default)
    // Allocate fails for more than one replica; the scheduler cannot know
    // the flag (it is in the plugin's config, not on the node).
    if (k.pods_over_one > 0)
      lines.push_back(Plural(k.pods_over_one, "placed pod") + (k.pods_over_one == 1 ? " holds" : " hold") + " more than 1 " +
                      k.kind + " replica: a device plugin with failRequestsGreaterThanOne set (the default under MPS) has the "
                      "kubelet refuse " + (k.pods_over_one == 1 ? "it" : "them") +
                      " at admission (UnexpectedAdmissionError: maximum request size for shared resources is 1)");
  }
  return lines;
}

}  // namespace gpusched
