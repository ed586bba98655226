#include "gpusched/model/dra/dra_node_gpus.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "gpusched/model/dra/device_kinds.h"

namespace gpusched {
namespace {

constexpr int64_t kMilliPerMemorySlice = 1000 / kMigMemorySlicesPerGpu;

}  // namespace

DraNodeGpus::DraNodeGpus(const DraObjects& dra) {
  // GPUs published as devices, by (driver, pool, uuid): their MIG devices are in their 1000.
  std::set<std::tuple<std::string, std::string, std::string>> gpus;
  for (const ResourceSlice& sl : dra.slices)
    for (const Device& d : sl.devices)
      if (KindOfDevice(sl.driver, d) == DraDeviceKind::kGpu) gpus.insert({sl.driver, sl.pool.name, GpuUuid(sl.driver, d)});
  for (const ResourceSlice* current : CurrentSlices(dra.slices)) {
    const ResourceSlice& sl = *current;
    for (const Device& d : sl.devices) {
      const std::string& node = sl.per_device_node_selection ? d.node_name : sl.node_name;
      if (node.empty()) continue;
      int64_t total = 0, used = 0;  // what the device adds to the node's total, and to used when held
      switch (KindOfDevice(sl.driver, d)) {
        case DraDeviceKind::kGpu:
          total = used = 1000;
          break;
        case DraDeviceKind::kMig: {
          used = MigMemorySlices(d) * kMilliPerMemorySlice;
          const std::string parent = MigParent(sl.driver, d);
          total = !parent.empty() && gpus.count({sl.driver, sl.pool.name, parent}) ? 0 : used;
          break;
        }
        case DraDeviceKind::kOther:
          break;
      }
      if (used > 0) by_node_[node].push_back({DeviceId{sl.driver, sl.pool.name, d.name}, total, used});
    }
  }
}

DraNodeGpus::Milli DraNodeGpus::On(std::string_view node, const AllocatedState& in_use) const {
  Milli m;
  auto it = by_node_.find(node);
  if (it == by_node_.end()) return m;
  for (const Entry& e : it->second) {
    m.total += e.total_milli;
    if (in_use.allocated_devices.count(e.id)) m.used += e.used_milli;
  }
  m.used = std::min(m.used, m.total);
  return m;
}

}  // namespace gpusched
