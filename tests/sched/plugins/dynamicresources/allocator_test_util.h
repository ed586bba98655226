// Builders for the structured allocator's tests, named and shaped as the
// helpers of upstream's shared test table
// (staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go,
// v1.35: slice(), device(), claim(), request(), deviceAllocationResult(),
// allocationResult(), nodeLabelSelector(), ...) so that each ported case
// reads like upstream's; and the runner that checks one case
// (RunAllocatorCase). `class` is a C++ keyword: upstream's class() is
// deviceClass() here.
#ifndef GPUSCHED_TESTS_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/node.h"
#include "gpusched/model/quantity.h"
#include "gpusched/sched/plugins/dynamicresources/allocator.h"

namespace gpusched::dra_test {

// Go's nil for any map, slice, pointer or optional.
struct Nil {
  template <typename T>
  operator T() const {  // NOLINT: implicit by design
    return T{};
  }
};
inline constexpr Nil nil{};

using QMap = std::map<std::string, Quantity, std::less<>>;
using AttrMap = std::map<std::string, DeviceAttribute, std::less<>>;
using CapMap = QMap;  // ConsumedCapacity
using NodeSel = std::optional<std::vector<NodeSelectorTerm>>;

// ---- upstream's constants ----
inline const std::string region1 = "region-1", region2 = "region-2";
inline const std::string node1 = "node-1", node2 = "node-2";
inline const std::string classA = "class-a", classB = "class-b";
inline const std::string driverA = "driver-a", driverB = "driver-b";
inline const std::string pool1 = "pool-1", pool2 = "pool-2", pool3 = "pool-3", pool4 = "pool-4";
inline const std::string req0 = "req-0", req1 = "req-1", req2 = "req-2", req3 = "req-3";
inline const std::string subReq0 = "subReq-0", subReq1 = "subReq-1";
inline const std::string req0SubReq0 = "req-0/subReq-0", req0SubReq1 = "req-0/subReq-1";
inline const std::string req1SubReq0 = "req-1/subReq-0", req1SubReq1 = "req-1/subReq-1";
inline const std::string req2SubReq0 = "req-2/subReq-0";
inline const std::string claim0 = "claim-0", claim1 = "claim-1";
inline const std::string slice1 = "slice-1", slice2 = "slice-2", slice3 = "slice-3", slice4 = "slice-4";
inline const std::string device0 = "device-0", device1 = "device-1", device2 = "device-2", device3 = "device-3",
                         device4 = "device-4";
inline const std::string counterSet1 = "counter-set-1", counterSet2 = "counter-set-2";
inline const std::string capacity0 = "capacity-0", capacity1 = "capacity-1";
inline const std::string fieldNameKey = "metadata.name", regionKey = "region", planetKey = "planet",
                         planetValueEarth = "earth";
inline const std::string nodeSelectionAll = "nodeSelectionAll", nodeSelectionPerDevice = "nodeSelectionPerDevice";
inline const std::string fromCounters = "fromCounters";
// Upstream replaces every share id by this one before comparing.
inline const std::string fixedShareID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
inline constexpr const char* BinarySI = "BinarySI";
inline constexpr const char* DecimalSI = "DecimalSI";

Quantity q(const std::string& text);  // resource.MustParse
Quantity NewQuantity(int64_t value, const char* format);
inline int64_t int64(int64_t v) { return v; }
inline const Quantity zero = Quantity::FromInt(0, Quantity::Format::kBinarySI);
inline const Quantity one = Quantity::FromInt(1, Quantity::Format::kBinarySI);
inline const Quantity two = Quantity::FromInt(2, Quantity::Format::kBinarySI);
inline const Quantity three = Quantity::FromInt(3, Quantity::Format::kBinarySI);
inline const Quantity four = Quantity::FromInt(4, Quantity::Format::kBinarySI);

// TestAllocator's local variables.
inline const std::string nonExistentAttribute = "driver-a/NonExistentAttribute";
inline const std::string boolAttribute = "driver-a/boolAttribute";
inline const std::string stringAttribute = "driver-a/stringAttribute";
inline const std::string versionAttribute = "driver-a/driverVersion";
inline const std::string intAttribute = "driver-a/numa";
inline const std::string taintKey = "taint-key", taintValue = "taint-value", taintValue2 = "taint-value-2";
inline const DeviceTaint taintNone{taintKey, taintValue, "None"};
inline const DeviceTaint taintNoSchedule{taintKey, taintValue, "NoSchedule"};
inline const DeviceTaint taintNoExecute{taintKey, taintValue2, "NoExecute"};
inline const DeviceToleration tolerationNoSchedule{taintKey, "Exists", "", "NoSchedule", std::nullopt};
inline const DeviceToleration tolerationNoExecute{taintKey, "Equal", taintValue2, "NoExecute", std::nullopt};
inline const DeviceToleration tolerationNoScheduleKey1{"key1", "Exists", "", "NoSchedule", std::nullopt};

// fmt.Sprintf for %s, %v and %d.
std::string SprintfImpl(const std::string& format, const std::vector<std::string>& args);
inline std::string ToArg(const std::string& s) { return s; }
inline std::string ToArg(const char* s) { return s; }
inline std::string ToArg(bool b) { return b ? "true" : "false"; }
inline std::string ToArg(int v) { return std::to_string(v); }
inline std::string ToArg(int64_t v) { return std::to_string(v); }
template <typename... A>
std::string Sprintf(const std::string& format, const A&... args) {
  return SprintfImpl(format, {ToArg(args)...});
}

DeviceAttribute StrAttr(const std::string& v);
DeviceAttribute IntAttr(int64_t v);
DeviceAttribute BoolAttr(bool v);
DeviceAttribute VersionAttr(const std::string& v);
inline DeviceId MakeDeviceID(const std::string& d, const std::string& p, const std::string& dev) { return {d, p, dev}; }

template <typename T, typename... Ts>
std::vector<T> objects(T first, Ts... rest) {
  return std::vector<T>{std::move(first), T(std::move(rest))...};
}
template <typename T>
const T& Spread(const T& v) { return v; }
template <typename T>
std::vector<T> Concat(std::vector<T> a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
std::set<SharedDeviceId> SharedSet(std::initializer_list<SharedDeviceId> ids);

// ---- features: Go's names; the zero value has every gate off ----
struct Features {
  bool AdminAccess = false;
  bool PrioritizedList = false;
  bool PartitionableDevices = false;
  bool DeviceTaints = false;
  bool DeviceBindingAndStatus = false;
  bool ConsumableCapacity = false;
  DraFeatures ToDra() const;
};

// ---- nodes and classes ----
Node node(const std::string& name, const std::string& region);
DeviceClass deviceClass(const std::string& name, const std::string& driver);
DeviceClass classWithAllowMultipleAllocations(const std::string& name, const std::string& driver, bool multi);
DeviceConfiguration deviceConfiguration(const std::string& driver, const std::string& attribute);
DeviceClass classWithConfig(const std::string& name, const std::string& driver, const std::string& attribute);

// ---- requests and claims ----
// A capacity request (Go: *resource.Quantity; nil: none).
struct QuantityArg {
  QuantityArg() = default;
  QuantityArg(const Quantity& v) : value(v) {}  // NOLINT
  std::optional<Quantity> value;
};

struct DeviceRequestW : DeviceRequest {
  DeviceRequest obj() const { return *this; }
  DeviceRequestW withCapacityRequest(QuantityArg quantity) const;
  template <typename... S>
  DeviceRequestW withSelectors(const S&... selectors) const {
    DeviceRequestW out = *this;
    out.exactly->selectors = {std::string(selectors)...};
    return out;
  }
};

struct SubRequestW : ExactDeviceRequest {
  SubRequestW withAllocationMode(const std::string& mode) const;
  SubRequestW withCapacityRequest(QuantityArg quantity) const;
  void Add(const std::string& selector) { selectors.push_back(selector); }
  void Add(const char* selector) { selectors.push_back(selector); }
  void Add(const DeviceToleration& t) { tolerations.push_back(t); }
};

template <typename... S>
DeviceRequest request(const std::string& name, const std::string& cls, int64_t count, const S&... selectors) {
  DeviceRequest r;
  r.name = name;
  r.exactly.emplace();
  r.exactly->count = count;
  r.exactly->allocation_mode = kAllocationModeExactCount;
  r.exactly->device_class_name = cls;
  r.exactly->selectors = {std::string(selectors)...};
  return r;
}
DeviceRequestW deviceRequest(const std::string& name, const std::string& cls, int64_t count);
DeviceRequestW allDeviceRequest(const std::string& name, const std::string& cls);
template <typename... F>
SubRequestW subRequest(const std::string& name, const std::string& cls, int64_t count, const F&... fields) {
  SubRequestW s;
  s.name = name;
  s.count = count;
  s.allocation_mode = kAllocationModeExactCount;
  s.device_class_name = cls;
  (s.Add(fields), ...);
  return s;
}
template <typename... S>
DeviceRequestW requestWithPrioritizedList(const std::string& name, const S&... subs) {
  DeviceRequestW r;
  r.name = name;
  r.first_available = {ExactDeviceRequest(subs)...};
  return r;
}

struct ClaimW : ResourceClaim {
  ResourceClaim obj() const { return *this; }
  template <typename... T>
  ClaimW withTolerations(const T&... tolerations) const {
    ClaimW out = *this;
    for (DeviceRequest& r : out.spec.requests) (r.exactly->tolerations.push_back(tolerations), ...);
    return out;
  }
  template <typename... R>
  ClaimW withRequests(const R&... requests) const {
    ClaimW out = *this;
    out.spec.requests = {DeviceRequest(requests)...};
    return out;
  }
  template <typename... C>
  ClaimW withConstraints(const C&... constraints) const {
    ClaimW out = *this;
    out.spec.constraints = {DeviceConstraint(constraints)...};
    return out;
  }
  ClaimW withConfigs(std::vector<DeviceConfiguration> configs) const {
    ClaimW out = *this;
    out.spec.config = std::move(configs);
    return out;
  }
};

ClaimW claim(const std::string& name);
template <typename... R>
ClaimW claimWithRequests(const std::string& name, std::vector<DeviceConstraint> constraints, const R&... requests) {
  ClaimW c = claim(name);
  c.spec.constraints = std::move(constraints);
  c.spec.requests = {DeviceRequest(requests)...};
  return c;
}
template <typename... C>
ClaimW claimWithRequest(const std::string& name, const std::string& req, const std::string& cls,
                        const C&... constraints) {
  return claimWithRequests(name, {DeviceConstraint(constraints)...}, request(req, cls, 1));
}
ClaimW claimWithDeviceConfig(const std::string& name, const std::string& req, const std::string& cls,
                             const std::string& driver, const std::string& attribute);
DeviceConfiguration deviceClaimConfig(std::vector<std::string> requests, DeviceConfiguration config);

// ---- devices and slices ----
struct CapacityArg {
  CapacityArg() = default;
  CapacityArg(QMap c) : capacity(std::move(c)) {}                   // NOLINT
  CapacityArg(const std::string& s) : from_counters(s == fromCounters) {}  // NOLINT
  QMap capacity;
  bool from_counters = false;
};

struct DeviceW : Device {
  bool capacity_from_counters = false;
  Device obj() const { return *this; }
  template <typename... T>
  DeviceW withTaints(const T&... taints) const {
    DeviceW out = *this;
    (out.taints.push_back(taints), ...);
    out.capacity_from_counters = false;
    return out;
  }
  template <typename... C>
  DeviceW withDeviceCounterConsumption(const C&... consumption) const {
    DeviceW out = *this;
    (out.consumes_counters.push_back(consumption), ...);
    out.FillCapacityFromCounters();
    return out;
  }
  DeviceW withNodeSelection(const NodeSel& selector) const;
  DeviceW withNodeSelection(const std::string& selection) const;
  DeviceW withBindingConditions(std::vector<std::string> conditions, std::vector<std::string> failure) const;
  DeviceW withBindsToNode(bool binds) const;
  DeviceW withAllowMultipleAllocations() const;
  DeviceW withCapacityRequestPolicyRange(const QMap& capacity) const;
  DeviceW withCapacityRequestPolicyValidValues(const Quantity& default_value, const QMap& capacity,
                                               const std::vector<Quantity>& additional) const;

 private:
  void FillCapacityFromCounters();
};
DeviceW device(const std::string& name, CapacityArg capacity, AttrMap attributes);
DeviceCounterConsumption deviceCounterConsumption(const std::string& set, const QMap& counters);
CounterSet counterSet(const std::string& name, const QMap& counters);

struct NodeSelectionArg {
  NodeSelectionArg(const NodeSel& s) : selector(s) {}          // NOLINT
  NodeSelectionArg(const std::string& s) : name(s) {}          // NOLINT
  NodeSelectionArg(const char* s) : name(s) {}                 // NOLINT
  NodeSel selector;
  std::string name;
};
struct PoolArg {
  PoolArg(const ResourcePool& p) : pool(p) {}                 // NOLINT
  PoolArg(const std::string& name) : pool{name, 1, 1} {}      // NOLINT
  PoolArg(const char* name) : pool{name, 1, 1} {}             // NOLINT
  ResourcePool pool;
};

struct SliceW : ResourceSlice {
  ResourceSlice obj() const { return *this; }
  ResourceSlice DeepCopy() const { return *this; }
};
SliceW slice(const std::string& name, const NodeSelectionArg& selection, const PoolArg& pool, const std::string& driver);
template <typename... D>
SliceW sliceWithDevices(const std::string& name, const NodeSelectionArg& selection, const PoolArg& pool,
                        const std::string& driver, const D&... devices) {
  SliceW s = slice(name, selection, pool, driver);
  s.devices = {Device(devices)...};
  return s;
}
template <typename... C>
SliceW sliceWithCounterSets(const std::string& name, const NodeSelectionArg& selection, const PoolArg& pool,
                            const std::string& driver, const C&... sets) {
  SliceW s = slice(name, selection, pool, driver);
  s.shared_counters = {CounterSet(sets)...};
  return s;
}
ResourcePool resourcePool(const std::string& name, int64_t count);
SliceW sliceWithNoDevices(const std::string& name, const NodeSelectionArg& selection, const PoolArg& pool,
                          const std::string& driver);
SliceW sliceWithOneDevice(const std::string& name, const NodeSelectionArg& selection, const PoolArg& pool,
                          const std::string& driver);
SliceW sliceWithMultipleDevices(const std::string& name, const NodeSelectionArg& selection, const PoolArg& pool,
                                const std::string& driver, int count);
template <typename... S>
std::vector<ResourceSlice> unwrapResourceSlices(const S&... slices) {
  return {ResourceSlice(slices)...};
}
template <typename... S>
std::vector<ResourceSlice> unwrap(const S&... slices) {
  return {ResourceSlice(slices)...};
}

// ---- expected results ----
template <typename... T>
DeviceRequestAllocationResult deviceAllocationResult(const std::string& request, const std::string& driver,
                                                     const std::string& pool, const std::string& device,
                                                     bool admin_access, const T&... tolerations) {
  DeviceRequestAllocationResult r;
  r.request = request;
  r.driver = driver;
  r.pool = pool;
  r.device = device;
  r.tolerations = {DeviceToleration(tolerations)...};
  if (admin_access) r.admin_access = true;
  return r;
}
struct ResultW : DeviceRequestAllocationResult {
  DeviceRequestAllocationResult withConsumedCapacity(const std::string& share_id, const QMap& consumed) const;
};
ResultW deviceRequestAllocationResult(const std::string& request, const std::string& driver, const std::string& pool,
                                      const std::string& device);
template <typename... T>
DeviceRequestAllocationResult deviceRequestAllocationResultWithBindingConditions(
    const std::string& request, const std::string& driver, const std::string& pool, const std::string& device,
    std::vector<std::string> conditions, std::vector<std::string> failure, const T&... tolerations) {
  DeviceRequestAllocationResult r = deviceAllocationResult(request, driver, pool, device, false, tolerations...);
  r.binding_conditions = std::move(conditions);
  r.binding_failure_conditions = std::move(failure);
  return r;
}
std::vector<DeviceRequestAllocationResult> multipleDeviceAllocationResults(const std::string& request,
                                                                           const std::string& driver,
                                                                           const std::string& pool, int count,
                                                                           int start);
template <typename... V>
NodeSel nodeLabelSelector(const std::string& key, const V&... values) {
  NodeSelectorTerm term;
  term.match_expressions.push_back(NodeSelectorRequirement{key, "In", {std::string(values)...}});
  return std::vector<NodeSelectorTerm>{term};
}
NodeSel localNodeSelector(const std::string& node_name);

// DeviceAllocationConfiguration.
struct AllocConfig {
  std::string source;
  std::vector<std::string> requests;
  DeviceConfiguration config;
};
// DeviceAllocationResult (results and configs), for AllocationResult{Devices: ...}.
struct DeviceAllocationResultGo {
  std::vector<DeviceRequestAllocationResult> results;
  std::vector<AllocConfig> configs;
};
void SetDevices(AllocationResult& out, const DeviceAllocationResultGo& devices);

inline void AppendResults(std::vector<DeviceRequestAllocationResult>& to, const DeviceRequestAllocationResult& r) {
  to.push_back(r);
}
inline void AppendResults(std::vector<DeviceRequestAllocationResult>& to,
                          const std::vector<DeviceRequestAllocationResult>& rs) {
  to.insert(to.end(), rs.begin(), rs.end());
}
template <typename... R>
AllocationResult allocationResult(const NodeSel& selector, const R&... results) {
  AllocationResult a;
  a.node_selector = selector;
  (AppendResults(a.results, results), ...);
  return a;
}
template <typename... R>
AllocationResult allocationResultWithConfig(const NodeSel& selector, const std::string& driver,
                                            const std::string& source, const std::string& attribute,
                                            const R&... results) {
  AllocationResult a = allocationResult(selector, results...);
  a.config.push_back(deviceConfiguration(driver, attribute));
  a.config_source.push_back(source);
  return a;
}
AllocationResult allocationResultWithConfigs(const NodeSel& selector, std::vector<DeviceRequestAllocationResult> results,
                                             const std::vector<AllocConfig>& configs);

// ---- the table and its runner ----
struct AllocatorCase {
  Features features;
  std::vector<ClaimW> claimsToAllocate;
  std::vector<DeviceId> allocatedDevices;
  std::set<SharedDeviceId> allocatedSharedDeviceIDs;
  std::map<DeviceId, CapMap> allocatedCapacityDevices;
  std::vector<DeviceClass> classes;
  std::vector<ResourceSlice> slices;
  Node node;
  std::vector<AllocationResult> expectResults;  // empty: no allocation
  std::string expectError;                      // a substring of the error, as upstream matches it
  // Upstream's count of allocateOne calls, for some cases (0: not checked).
  int64_t expectNumAllocateOneInvocations = 0;
};
struct NamedAllocatorCase {
  std::string name;
  std::function<void(AllocatorCase&)> build;
  // Why this case cannot run yet ("" when it can).
  std::string skip = "";
  // Compare share ids as they are (upstream replaces every one by fixedShareID).
  bool keep_share_ids = false;
};

// GoogleTest prints a case by its name.
void PrintTo(const NamedAllocatorCase& c, std::ostream* os);

// Runs one case with GoogleTest assertions (exact results; the error's
// substring, as upstream's MatchError(ContainSubstring(...))).
void RunAllocatorCase(const NamedAllocatorCase& named);
// Every device result, node selector and config of `a` as one text, the
// results sorted (upstream's ConsistOf: their order is irrelevant).
std::string Describe(const AllocationResult& a);

}  // namespace gpusched::dra_test

#endif  // GPUSCHED_TESTS_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_TEST_UTIL_H_
