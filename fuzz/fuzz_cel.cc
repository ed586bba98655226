// libFuzzer target: CEL device selectors. Any input must compile or give an
// error, and a compiled selector must evaluate to a bool or an error against
// a device with attributes of every kind and a capacity, never crash, and
// stay within the runtime cost limit.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpusched/model/cel/device_selector.h"

namespace {

const gpusched::Device& TestDevice() {
  static const gpusched::Device* device = [] {
    using gpusched::DeviceAttribute;
    auto* d = new gpusched::Device();
    d->name = "gpu-0";
    d->attributes["type"] = {DeviceAttribute::Kind::kString, 0, false, "gpu"};
    d->attributes["index"] = {DeviceAttribute::Kind::kInt, 0, false, ""};
    d->attributes["mig"] = {DeviceAttribute::Kind::kBool, 0, true, ""};
    d->attributes["driverVersion"] = {DeviceAttribute::Kind::kVersion, 0, false, "580.95.5"};
    d->attributes["resource.kubernetes.io/pcieRoot"] = {DeviceAttribute::Kind::kString, 0, false, "pci0000:00"};
    d->capacity["memory"].value = *gpusched::Quantity::Parse("80Gi");
    d->allow_multiple_allocations = true;
    return d;
  }();
  return *device;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpusched::cel::CompileOptions options;
  options.consumable_capacity = size % 2 == 0;
  gpusched::Result<gpusched::cel::DeviceSelector> s = gpusched::cel::DeviceSelector::Compile(text, options);
  if (!s.ok()) {
    if (s.status().message().empty()) std::abort();  // every error says something
    return 0;
  }
  if (s->max_cost() > options.max_cost) std::abort();
  gpusched::Result<bool> m = s->Matches("gpu.nvidia.com", TestDevice());
  if (!m.ok() && m.status().message().empty()) std::abort();
  return 0;
}
