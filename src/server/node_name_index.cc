#include "gpusched/server/node_name_index.h"

namespace gpusched {

void NodeNameIndex::Sync(const ClusterState& cluster) {
  if (built_ && serial_ == cluster.serial() && nodes_version_ == cluster.nodes_version() && size_ == cluster.size())
    return;
  index_.clear();
  index_.reserve(cluster.num_present());
  for (size_t i = 0; i < cluster.size(); ++i)
    if (cluster.present(i)) index_[cluster.node(i).meta.name] = static_cast<uint32_t>(i);
  serial_ = cluster.serial();
  nodes_version_ = cluster.nodes_version();
  size_ = cluster.size();
  built_ = true;
}

}  // namespace gpusched
