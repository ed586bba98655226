// GPU capacity that DRA gives each node, in the device plugin's unit
// (milli-GPUs), so that GPU ALLOC in `simulate` counts DRA GPUs with
// device-plugin ones: a whole GPU device (the NVIDIA driver's `type: gpu`)
// is 1000, a MIG device its memory slices x 125 (eighths of its GPU), unless
// its parent GPU is published as a device of the same pool too (partitionable
// devices), whose 1000 already count it (held, it still counts as used). Devices of the newest generation of
// their pool, in slices published for one node (`nodeName`, or a device's
// own `nodeName`); slices for node selectors or all nodes are not counted
// here. A held device (allocated to a claim) is used; used never exceeds
// total on a node.
#ifndef GPUSCHED_MODEL_DRA_DRA_NODE_GPUS_H_
#define GPUSCHED_MODEL_DRA_DRA_NODE_GPUS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/dra/allocated_devices.h"
#include "gpusched/model/resource_claims.h"

namespace gpusched {

class DraNodeGpus {
 public:
  struct Milli {
    int64_t total = 0;
    int64_t used = 0;
  };

  // Indexes `dra`'s slices by node once; On() is then a walk over the node's devices.
  explicit DraNodeGpus(const DraObjects& dra);

  Milli On(std::string_view node, const AllocatedState& in_use) const;
  bool empty() const { return by_node_.empty(); }

 private:
  struct Entry {
    DeviceId id;
    int64_t total_milli;  // 0 for a MIG device whose GPU is a device too
    int64_t used_milli;
  };
  std::map<std::string, std::vector<Entry>, std::less<>> by_node_;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_DRA_NODE_GPUS_H_
