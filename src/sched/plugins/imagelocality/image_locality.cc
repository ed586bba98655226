// ImageLocality: pkg/scheduler/framework/plugins/imagelocality/
// image_locality.go (v1.35), with the scheduler cache's image states
// (pkg/scheduler/backend/cache addNodeImageStates: a name counts each node
// that lists it once).
//
// The size of an image on a node is the one that node reports (what the
// upstream tests' snapshots use); the live cache keeps the size the first
// node to report a name gave, which differs only if nodes disagree on the
// size of one name.
#include "gpusched/sched/plugins/imagelocality/image_locality.h"

#include <string>

#include "gpusched/model/image_names.h"

namespace gpusched {
namespace {

constexpr int64_t kMb = 1024 * 1024;
constexpr int64_t kMinThreshold = 23 * kMb;
constexpr int64_t kMaxContainerThreshold = 1000 * kMb;

}  // namespace

int64_t ImageLocality::CalculatePriority(int64_t sum_scores, int64_t num_containers) {
  const int64_t max_threshold = kMaxContainerThreshold * num_containers;
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  return kMaxNodeScore * (sum_scores - kMinThreshold) / (max_threshold - kMinThreshold);
}

std::shared_ptr<const ImageLocality::Spread> ImageLocality::SpreadOf(const ClusterState& cluster) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (spread_ && spread_->serial == cluster.serial() && spread_->nodes_version == cluster.nodes_version())
    return spread_;
  auto s = std::make_shared<Spread>();
  s->serial = cluster.serial();
  s->nodes_version = cluster.nodes_version();
  // totalNumNodes: every node of the snapshot.
  s->total_nodes = static_cast<int64_t>(cluster.num_present());
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    for (const NodeImage& img : cluster.node(i).images) ++s->nodes_with[img.name.data()];
  }
  spread_ = s;
  return spread_;
}

std::vector<ImageLocality::Wanted> ImageLocality::WantedImages(const Pod& pod, const Spread& spread) {
  std::vector<Wanted> out;
  auto add = [&](const std::string& image) {
    const std::string_view name = FindImageName(NormalizedImageName(image));
    if (name.data() == nullptr) return;
    auto it = spread.nodes_with.find(name.data());
    if (it != spread.nodes_with.end()) out.push_back(Wanted{name, it->second});
  };
  // sumImageScores: init containers, containers, then image volumes (each
  // occurrence counts, a repeated image twice).
  for (const Container& c : pod.init_containers) add(c.image);
  for (const Container& c : pod.containers) add(c.image);
  for (const std::string& ref : pod.Extras().image_volumes) add(ref);
  return out;
}

int64_t ImageLocality::NodeScore(const Pod& pod, const std::vector<Wanted>& wanted, const Node& node,
                                 int64_t total) {
  int64_t sum = 0;
  for (const Wanted& w : wanted) {
    const int64_t size = node.ImageSize(w.name);
    if (size < 0) continue;
    // scaledImageScore: int64(float64(Size) * (float64(NumNodes) / float64(totalNumNodes))).
    const double spread = static_cast<double>(w.nodes) / static_cast<double>(total);
    sum += static_cast<int64_t>(static_cast<double>(size) * spread);
  }
  // The thresholds scale with the init containers and containers (not the
  // image volumes) in v1.35.
  return CalculatePriority(sum, static_cast<int64_t>(pod.init_containers.size() + pod.containers.size()));
}

bool ImageLocality::PreScore(const PodInfo& pod, const ClusterState& cluster) const {
  const std::shared_ptr<const Spread> s = SpreadOf(cluster);
  if (s->nodes_with.empty()) return false;  // no node reports images: 0 everywhere
  return !WantedImages(*pod.pod, *s).empty();
}

void ImageLocality::ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                               std::vector<int64_t>& scores) const {
  const std::shared_ptr<const Spread> s = SpreadOf(cluster);
  const std::vector<Wanted> wanted = WantedImages(*pod.pod, *s);
  for (size_t k = 0; k < nodes.size(); ++k)
    scores[k] = wanted.empty() ? 0 : NodeScore(*pod.pod, wanted, cluster.node(nodes[k]), s->total_nodes);
}

int64_t ImageLocality::Score(const PodInfo& pod, const Node& node, const NodeState&) const {
  std::shared_ptr<const Spread> s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s = spread_;
  }
  if (!s || s->total_nodes == 0) return 0;
  return NodeScore(*pod.pod, WantedImages(*pod.pod, *s), node, s->total_nodes);
}

}  // namespace gpusched
