// GpuClustering, ported from the FGD simulator's pkg/simulator/plugin/
// gpu_clustering_score.go, with the pod tags of
// GetGpuAffinityFromPodAnnotation (pkg/type/open-gpu-share/utils/pod.go) and
// the node's GpuAffinity map (utils.GetNodeResourceViaNodeInfo: tag -> number
// of its pods, no-gpu pods left out). Only which tags a node holds matters,
// so each node's distinct tags are cached per NodeState::version.
#include <algorithm>

#include "gpusched/sched/policies/paper_policies.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {
namespace {

constexpr uint64_t kNeverComputed = ~0ull;
constexpr int32_t kNoGpuTag = 0;
constexpr int32_t kShareGpuTag = -1;

// "no-gpu", "share-gpu" or "<k>-gpu" (as k). Upstream panics on k devices
// with a partial share each (which its trace never has); those get a tag of
// their own, -1 - k.
int32_t Tag(int64_t count, int32_t milli) {
  if (count == 0 || milli == 0) return kNoGpuTag;
  if (count == 1 && milli < kGpuMilli) return kShareGpuTag;
  if (milli >= kGpuMilli) return static_cast<int32_t>(count);
  return static_cast<int32_t>(-1 - count);
}

}  // namespace

// A run of GpuClustering: PaperScorePolicy's state and each node's tags.
struct GpuClusteringPolicy::State : PaperScorePolicy::State {
  struct NodeTags {
    uint64_t version = kNeverComputed;
    std::vector<int32_t> tags;  // distinct, GPU pods only
  };
  uint64_t serial = 0;  // ClusterState::serial() of the cluster cached
  std::vector<NodeTags> nodes;

  const std::vector<int32_t>& Tags(const ClusterState& c, size_t i) {
    NodeTags& t = nodes[i];
    const NodeState& st = c.state(i);
    if (t.version != st.version) {
      t.version = st.version;
      t.tags.clear();
      for (const BoundPod& p : st.pods) {
        const int32_t tag = Tag(static_cast<int64_t>(p.gpus.size()), p.gpus.empty() ? 0 : p.gpu_milli);
        if (tag != kNoGpuTag && std::find(t.tags.begin(), t.tags.end(), tag) == t.tags.end()) t.tags.push_back(tag);
      }
    }
    return t.tags;
  }
};

// What a score means, for explain's `why`.
constexpr const char* kGpuClusteringMeaning =
    "25*(8000 - gpuLeft)/8000, plus 75 when the node holds only pods of this pod's kind (share-gpu / k-gpu), "
    "50 when among other kinds, 25 when it holds no GPU pods; 0 for CPU-only pods";

GpuClusteringPolicy::GpuClusteringPolicy()
    : PaperScorePolicy({"gpu-clustering", "GpuClusteringScore", kGpuClusteringMeaning}) {}

std::unique_ptr<PolicyState> GpuClusteringPolicy::NewState() const { return std::make_unique<State>(); }

void GpuClusteringPolicy::Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                                std::vector<int64_t>& scores, PolicyState& state) const {
  const int32_t tag = pod.gpu.any() ? Tag(pod.gpu.count, pod.gpu.milli) : kNoGpuTag;
  if (tag == kNoGpuTag) {
    std::fill(scores.begin(), scores.end(), 0);
    return;
  }
  State& c = StateAs<State>(state);
  if (c.serial != cluster.serial()) {
    c.serial = cluster.serial();
    c.nodes.assign(cluster.size(), State::NodeTags{});
  }
  if (c.nodes.size() < cluster.size()) c.nodes.resize(cluster.size());
  for (size_t k = 0; k < feasible.size(); ++k) {
    const size_t i = feasible[k];
    const std::vector<int32_t>& tags = c.Tags(cluster, i);
    // MaxNodeScore/4*(MaxSpecGpu-left)/MaxSpecGpu, in Go's int64 arithmetic.
    const int64_t base = kMaxNodeScore / 4 * (kMaxSpecGpu - cluster.state(i).GpuFreeMilli()) / kMaxSpecGpu;
    int64_t bonus;
    if (std::find(tags.begin(), tags.end(), tag) != tags.end()) {
      bonus = tags.size() == 1 ? kMaxNodeScore * 3 / 4 : kMaxNodeScore * 2 / 4;
    } else {
      bonus = tags.empty() ? kMaxNodeScore / 4 : 0;
    }
    scores[k] = base + bonus;
  }
}

}  // namespace gpusched
