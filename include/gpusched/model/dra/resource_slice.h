// ResourceSlice and its devices, as resource.k8s.io/v1 defines them
// (k8s.io/api resource/v1/types.go): what a DRA driver publishes for a node
// (or for a set of nodes), read by the structured allocator and by CEL
// device selectors. Older API versions (v1beta1: basic devices; v1beta2,
// v1alpha3) are converted to this shape by io/ as the API server converts
// them. Plain data: validation is model/dra/dra_validation.h, allocation is
// sched/dra/.
#ifndef GPUSCHED_MODEL_DRA_RESOURCE_SLICE_H_
#define GPUSCHED_MODEL_DRA_RESOURCE_SLICE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/node_affinity.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/quantity.h"

namespace gpusched {

// A device attribute value: exactly one of the four (DeviceAttribute's
// int, bool, string, version). A version is kept as written (a semantic
// version string, validated as the API server does); CEL parses it.
struct DeviceAttribute {
  enum class Kind { kInt, kBool, kString, kVersion };
  Kind kind = Kind::kString;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string string_value;  // kString and kVersion
  bool operator==(const DeviceAttribute&) const = default;
};

// capacity.<name>.requestPolicy (consumable capacity, DRAConsumableCapacity).
struct CapacityRequestPolicy {
  std::optional<Quantity> default_value;
  std::vector<Quantity> valid_values;
  struct Range {
    Quantity min;
    std::optional<Quantity> max;
    std::optional<Quantity> step;
  };
  std::optional<Range> valid_range;
};

struct DeviceCapacity {
  Quantity value;
  std::optional<CapacityRequestPolicy> request_policy;
};

// consumesCounters[i] (DRAPartitionableDevices): what a device draws from
// a counter set of its slice's pool.
struct DeviceCounterConsumption {
  std::string counter_set;
  std::map<std::string, Quantity, std::less<>> counters;
};

// sharedCounters[i]: a named set of counters the devices of the pool draw from.
struct CounterSet {
  std::string name;
  std::map<std::string, Quantity, std::less<>> counters;
};

// taints[i] (DRADeviceTaints).
struct DeviceTaint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule or NoExecute
};

// Attribute and capacity names are qualified names: "domain/id", or a bare
// "id", which is in the driver's domain. The maps keep them as written;
// lookups that need the split use QualifiedAttributeName below.
struct Device {
  std::string name;
  std::map<std::string, DeviceAttribute, std::less<>> attributes;
  std::map<std::string, DeviceCapacity, std::less<>> capacity;
  std::vector<DeviceCounterConsumption> consumes_counters;
  std::vector<DeviceTaint> taints;
  bool allow_multiple_allocations = false;
  // perDeviceNodeSelection: the device's own nodeName / nodeSelector / allNodes.
  std::string node_name;
  std::optional<std::vector<NodeSelectorTerm>> node_selector;
  bool all_nodes = false;
  bool binds_to_node = false;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
};

struct ResourcePool {
  std::string name;
  int64_t generation = 0;
  int64_t resource_slice_count = 0;
};

struct ResourceSlice {
  ObjectMeta meta;
  std::string api_version;  // as written, e.g. "resource.k8s.io/v1beta1"
  std::string driver;
  ResourcePool pool;
  // Exactly one of the four says which nodes can reach the devices.
  std::string node_name;
  std::optional<std::vector<NodeSelectorTerm>> node_selector;  // nodeSelector.nodeSelectorTerms
  bool all_nodes = false;
  bool per_device_node_selection = false;
  std::vector<Device> devices;
  std::vector<CounterSet> shared_counters;
};

// "gpu.nvidia.com/type" -> {"gpu.nvidia.com", "type"}; a bare "type" is in
// `driver`'s domain (upstream: the CEL environment and matchAttribute both
// read unqualified names so).
struct QualifiedAttributeName {
  std::string domain;
  std::string id;
};
QualifiedAttributeName SplitQualifiedName(const std::string& name, const std::string& driver);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_RESOURCE_SLICE_H_
