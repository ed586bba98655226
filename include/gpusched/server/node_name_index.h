// NodeNameIndex: node name -> node slot of one version of a ClusterState's
// node set, for resolving the thousands of names of each extender request.
// It is immutable once built and owns its names, so the server builds one
// per version of the view's nodes (a new serial or nodes_version: AddNode
// and RemoveNode bump it), not per request, and shares it: requests resolve
// their names through it outside the view's lock, and check under the lock
// that it still Matches the view (server/extender.h).
//
// An open-addressing table of (hash, entry) pairs probed linearly, the
// names in one buffer: a lookup touches one or two cache lines of slots and
// its name. Answers exactly as ClusterState::FindNode on a cluster whose
// present nodes have distinct names (AddNode's precondition; tests/server/
// node_name_index_test.cc).
#ifndef GPUSCHED_SERVER_NODE_NAME_INDEX_H_
#define GPUSCHED_SERVER_NODE_NAME_INDEX_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"

namespace gpusched {

class NodeNameIndex {
 public:
  explicit NodeNameIndex(const ClusterState& cluster);

  // True when `cluster` is the one (serial) and node set (nodes_version,
  // size) this index was built from.
  bool Matches(const ClusterState& cluster) const {
    return serial_ == cluster.serial() && nodes_version_ == cluster.nodes_version() && size_ == cluster.size();
  }
  // The present node called `name`, or -1 (as cluster.FindNode).
  int64_t Find(std::string_view name) const;

  // The rank of node `slot`'s name among the indexed names in byte order
  // (0 .. num_names() - 1), for `slot` a node Find returns: answers list
  // thousands of names in Go's map key order (sorted) without comparing
  // them. Computed on first use (thread-safe).
  uint32_t Rank(size_t slot) const;
  size_t num_names() const { return node_.size(); }

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t entry = 0;  // 1 + index into node_/offset_; 0 = empty
  };
  static uint32_t Hash(std::string_view s);

  uint64_t serial_ = 0, nodes_version_ = 0;
  size_t size_ = 0;
  std::vector<Slot> slots_;        // power-of-two size, at most half full
  std::vector<uint32_t> node_;     // entry -> node slot
  std::vector<uint32_t> offset_;   // entry -> its name in names_ (one past: offset_[e + 1])
  std::string names_;
  mutable std::once_flag ranked_;
  mutable std::vector<uint32_t> rank_;  // by node slot
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_NODE_NAME_INDEX_H_
