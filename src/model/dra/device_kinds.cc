#include "gpusched/model/dra/device_kinds.h"

#include <algorithm>
#include <map>
#include <utility>

namespace gpusched {
namespace {

const DeviceAttribute* NvidiaAttribute(const std::string& driver, const Device& device, const std::string& id) {
  // Qualified in the driver's domain, or bare when the slice's driver is it.
  auto it = device.attributes.find(std::string(kNvidiaGpuDriver) + "/" + id);
  if (it != device.attributes.end()) return &it->second;
  if (driver != kNvidiaGpuDriver) return nullptr;
  it = device.attributes.find(id);
  return it == device.attributes.end() ? nullptr : &it->second;
}

}  // namespace

DraDeviceKind KindOfDevice(const std::string& driver, const Device& device) {
  const DeviceAttribute* type = NvidiaAttribute(driver, device, "type");
  if (type == nullptr || type->kind != DeviceAttribute::Kind::kString) return DraDeviceKind::kOther;
  if (type->string_value == "gpu") return DraDeviceKind::kGpu;
  if (type->string_value == "mig") return DraDeviceKind::kMig;
  return DraDeviceKind::kOther;
}

int MigMemorySlices(const Device& device) {
  int n = 0;
  for (const auto& [name, cap] : device.capacity) {
    const std::string id = name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1);
    if (id.rfind("memorySlice", 0) == 0 && !cap.value.IsZero()) ++n;
  }
  return n;
}

std::string MigParent(const std::string& driver, const Device& device) {
  const DeviceAttribute* p = NvidiaAttribute(driver, device, "parentUUID");
  return p && p->kind == DeviceAttribute::Kind::kString ? p->string_value : std::string();
}

std::string GpuUuid(const std::string& driver, const Device& device) {
  const DeviceAttribute* u = NvidiaAttribute(driver, device, "uuid");
  return u && u->kind == DeviceAttribute::Kind::kString ? u->string_value : std::string();
}

std::vector<const ResourceSlice*> CurrentSlices(const std::vector<ResourceSlice>& slices) {
  std::map<std::pair<std::string, std::string>, int64_t> newest;  // (driver, pool) -> generation
  for (const ResourceSlice& sl : slices) {
    int64_t& g = newest[{sl.driver, sl.pool.name}];
    g = std::max(g, sl.pool.generation);
  }
  std::vector<const ResourceSlice*> out;
  for (const ResourceSlice& sl : slices)
    if (sl.pool.generation == newest[{sl.driver, sl.pool.name}]) out.push_back(&sl);
  return out;
}

}  // namespace gpusched
