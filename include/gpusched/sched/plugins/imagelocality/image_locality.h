// ImageLocality (pkg/scheduler/framework/plugins/imagelocality/
// image_locality.go, v1.35): prefers nodes that already hold the pod's
// images. A node's raw score: the sum, over the images of the pod's init
// containers, containers and image volumes (normalizedImageName) that the
// node lists in status.images, of the image's size scaled by its spread
// (nodes listing it / all nodes), clamped to [23 MiB, 1000 MiB x (init
// containers + containers)] and mapped onto 0..100 (calculatePriority). No
// NormalizeScore.
//
// Which nodes hold which image is counted once per node set
// (ClusterState::nodes_version), not per pod. Upstream scores every pod; a
// pod whose images no node lists gets 0 on every node, so PreScore skips it
// (the same totals) and a cluster whose nodes report no images costs
// nothing.
#ifndef GPUSCHED_SCHED_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
#define GPUSCHED_SCHED_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

class ImageLocality : public ScorePlugin {
 public:
  std::string_view Name() const override { return names::kImageLocality; }

  bool PreScore(const PodInfo& pod, const ClusterState& cluster) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;
  // One node, with the spread of the cluster last given to PreScore or
  // ScoreNodes (Score has no cluster); 0 before any.
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;

  // calculatePriority(sumScores, numContainers).
  static int64_t CalculatePriority(int64_t sum_scores, int64_t num_containers);

 private:
  // How many present nodes list each image name, for one node set.
  struct Spread {
    uint64_t serial = 0, nodes_version = 0;
    int64_t total_nodes = 0;
    std::unordered_map<const char*, int32_t> nodes_with;  // interned name -> nodes
  };
  // One image of the pod some node lists, and on how many nodes.
  struct Wanted {
    std::string_view name;  // interned
    int32_t nodes = 0;
  };
  std::shared_ptr<const Spread> SpreadOf(const ClusterState& cluster) const;
  static std::vector<Wanted> WantedImages(const Pod& pod, const Spread& spread);
  static int64_t NodeScore(const Pod& pod, const std::vector<Wanted>& wanted, const Node& node, int64_t total);

  mutable std::mutex mu_;
  mutable std::shared_ptr<const Spread> spread_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
