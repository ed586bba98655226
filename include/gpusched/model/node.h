// Node: a core/v1 Node as the scheduler sees it: allocatable resources,
// labels, taints and the cordon flag.
#ifndef GPUSCHED_MODEL_NODE_H_
#define GPUSCHED_MODEL_NODE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/object_meta.h"
#include "gpusched/model/resources.h"
#include "gpusched/model/taint.h"

namespace gpusched {

// One name of an image the node holds (status.images[].names[], with the
// image's sizeBytes): the name is interned (model/image_names.h).
struct NodeImage {
  std::string_view name;
  int64_t size_bytes = 0;
};

struct Node {
  ObjectMeta meta;
  ResourceList capacity;
  ResourceList allocatable;
  bool has_allocatable = false;  // status.allocatable was present
  std::vector<Taint> taints;
  bool unschedulable = false;
  // status.images, one entry per distinct name (the first image listing it
  // gives the size, as the scheduler cache's addNodeImageStates does),
  // sorted by the interned name's address (NodeImageSize). ImageLocality
  // reads it.
  std::vector<NodeImage> images;

  const std::string& name() const { return meta.name; }
  // status.allocatable, or status.capacity when allocatable is absent (the API
  // server's node-status defaulting, pkg/apis/core/v1/defaults.go).
  const ResourceList& EffectiveAllocatable() const { return has_allocatable ? allocatable : capacity; }
  // The size of the image the interned `name` names on this node, or -1
  // when the node does not list it.
  int64_t ImageSize(std::string_view interned) const;
  // Sets `images` from (name, size) pairs in status order: interns, keeps
  // the first of a repeated name, sorts.
  void SetImages(const std::vector<std::pair<std::string, int64_t>>& names_sizes);
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_NODE_H_
