// SharedReplicaNote (diagnosis.h): a pod waiting for nvidia.com/gpu (or the
// renamed nvidia.com/gpu.shared) on nodes whose device plugin shares each
// GPU as replicas (time-slicing or MPS: GPU feature discovery's
// nvidia.com/gpu.replicas label) waits for a replica of a GPU that other
// pods already share, not for a GPU: the note says how many GPUs and
// replicas there are and how many pods hold them. A request for more than
// one replica gets what NVIDIA's k8s-device-plugin README says of it: no
// proportional compute, and with failRequestsGreaterThanOne (the default
// under MPS) the kubelet's Allocate fails with UnexpectedAdmissionError
// "request for 'nvidia.com/gpu: 2' too large: maximum request size for
// shared resources is 1".
#include <set>

#include "gpusched/model/mig_profiles.h"
#include "gpusched/sched/diagnosis/diagnosis.h"

namespace gpusched {

std::string SharedReplicaNote(std::string_view resource, int64_t request, const ClusterState& cluster,
                              const std::vector<size_t>& nodes) {
  if (resource != kResourceGPU && resource != kResourceGpuShared) return "";
  int64_t gpus = 0, replicas = 0, held = 0, pods = 0, shared_nodes = 0;
  std::set<int64_t> per_gpu;
  std::set<std::string_view> kinds;
  std::string first;
  for (size_t i : nodes) {
    const Node& node = cluster.node(i);
    if (!node.meta.labels.contains(kLabelGpuReplicas)) continue;  // most nodes: no label to parse
    const NodeGpuSharing g = ReadNodeGpuSharing(node.meta);
    if (g.replicas <= 1 || g.replica_resource != resource) continue;
    const NodeState& st = cluster.state(i);
    const int64_t have = st.allocatable.Get(resource);
    if (have <= 0) continue;
    if (shared_nodes++ == 0) first = node.name();
    gpus = SatAdd(gpus, g.gpu_count >= 0 ? g.gpu_count : have / g.replicas + (have % g.replicas != 0));
    replicas = SatAdd(replicas, have);
    held = SatAdd(held, std::min(have, st.requested.Get(resource)));
    for (const BoundPod& p : st.pods) pods += p.requests.Get(resource) > 0;
    per_gpu.insert(g.replicas);
    kinds.insert(g.sharing);
  }
  if (shared_nodes == 0) return "";
  const std::string how = kinds.size() == 1 && *kinds.begin() == "mps" ? "shared through MPS"
                          : kinds.size() == 1                         ? "time-sliced"
                                                                      : "time-sliced or shared through MPS";
  std::string each;
  for (int64_t r : per_gpu) each += (each.empty() ? "" : " or ") + std::to_string(r);
  std::string s = "; these GPUs are shared, not whole: " +
                  (shared_nodes == 1 ? first + " has " : std::to_string(shared_nodes) + " nodes have ") +
                  std::to_string(gpus) + (gpus == 1 ? " GPU " : " GPUs ") + how + " as " + each + " replicas each, " +
                  (held >= replicas ? "all " + std::to_string(replicas) : std::to_string(held) + " of " +
                                                                              std::to_string(replicas)) +
                  " held by " + std::to_string(pods) + (pods == 1 ? " pod" : " pods") +
                  ", so it waits for one of those pods to finish";
  if (request > 1)
    s += "; it asks for " + std::to_string(request) +
         " replicas, which give no more compute than one (NVIDIA's device plugin README), and a device plugin with "
         "failRequestsGreaterThanOne set (the default under MPS) has the kubelet refuse the pod at admission "
         "(UnexpectedAdmissionError: maximum request size for shared resources is 1)";
  return s;
}

}  // namespace gpusched
