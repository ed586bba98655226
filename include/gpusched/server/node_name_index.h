// NodeNameIndex: node name -> node slot of a ClusterState, for resolving
// the thousands of names of each extender request without building a
// std::string per name (ClusterState::FindNode's key). Rebuilt only when the
// node set changes (another serial or nodes_version: AddNode and RemoveNode
// bump it), so it is built once per version of the view's nodes, not per
// request. Answers exactly as ClusterState::FindNode on a cluster whose
// present nodes have distinct names (AddNode's precondition; tests/server/
// node_name_index_test.cc). Not thread-safe.
#ifndef GPUSCHED_SERVER_NODE_NAME_INDEX_H_
#define GPUSCHED_SERVER_NODE_NAME_INDEX_H_

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "gpusched/model/cluster_state.h"

namespace gpusched {

class NodeNameIndex {
 public:
  // Brings the index up to date with `cluster`.
  void Sync(const ClusterState& cluster);
  // The present node called `name`, or -1 (as cluster.FindNode).
  int64_t Find(std::string_view name) const {
    auto it = index_.find(name);
    return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
  }

 private:
  uint64_t serial_ = 0;
  uint64_t nodes_version_ = 0;
  size_t size_ = 0;
  bool built_ = false;
  // Views into the cluster's node names: valid while its node set is
  // unchanged (the vector of nodes is not touched otherwise).
  std::unordered_map<std::string_view, uint32_t> index_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_NODE_NAME_INDEX_H_
