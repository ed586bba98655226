// Node: a core/v1 Node as the scheduler sees it: allocatable resources,
// labels, taints and the cordon flag.
#ifndef GPUSCHED_MODEL_NODE_H_
#define GPUSCHED_MODEL_NODE_H_

#include <string>
#include <vector>

#include "gpusched/model/object_meta.h"
#include "gpusched/model/resources.h"
#include "gpusched/model/taint.h"

namespace gpusched {

struct Node {
  ObjectMeta meta;
  ResourceList capacity;
  ResourceList allocatable;
  bool has_allocatable = false;  // status.allocatable was present
  std::vector<Taint> taints;
  bool unschedulable = false;

  const std::string& name() const { return meta.name; }
  // status.allocatable, or status.capacity when allocatable is absent (the API
  // server's node-status defaulting, pkg/apis/core/v1/defaults.go).
  const ResourceList& EffectiveAllocatable() const { return has_allocatable ? allocatable : capacity; }
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_NODE_H_
