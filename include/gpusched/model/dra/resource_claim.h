// ResourceClaim, ResourceClaimTemplate and DeviceClass, as resource.k8s.io/v1
// defines them (k8s.io/api resource/v1/types.go): what a pod asks for
// through DRA and what the cluster admin's classes add to every request.
// v1beta1's flat request (the exact request's fields on the request itself)
// is converted by io/ into `exactly`, as the API server's conversion does.
// Plain data: validation is model/dra/dra_validation.h.
#ifndef GPUSCHED_MODEL_DRA_RESOURCE_CLAIM_H_
#define GPUSCHED_MODEL_DRA_RESOURCE_CLAIM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/node_affinity.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/quantity.h"

namespace gpusched {

inline constexpr const char* kAllocationModeExactCount = "ExactCount";
inline constexpr const char* kAllocationModeAll = "All";

// tolerations[i] of a request (DRADeviceTaints).
struct DeviceToleration {
  std::string key;
  std::string op;  // "Exists" or "Equal" (the default)
  std::string value;
  std::string effect;  // "" matches every effect
  std::optional<int64_t> toleration_seconds;
};

// An exact request, or one subrequest of firstAvailable (the same fields;
// a subrequest's name is its own, the request's results name it
// "<request>/<subrequest>").
struct ExactDeviceRequest {
  std::string name;  // subrequests only
  std::string device_class_name;
  std::vector<std::string> selectors;   // CEL expressions (selectors[i].cel.expression)
  std::string allocation_mode;          // "" (defaults to ExactCount), ExactCount or All
  int64_t count = 1;                    // ExactCount only
  std::optional<bool> admin_access;     // DRAAdminAccess; not on subrequests
  std::vector<DeviceToleration> tolerations;
  std::map<std::string, Quantity, std::less<>> capacity_requests;  // capacity.requests (consumable capacity)

  bool AllocateAll() const { return allocation_mode == kAllocationModeAll; }
};

struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  std::vector<ExactDeviceRequest> first_available;  // DRAPrioritizedList
};

struct DeviceConstraint {
  std::vector<std::string> requests;  // empty: every request of the claim
  std::optional<std::string> match_attribute;
  std::optional<std::string> distinct_attribute;  // DRAConsumableCapacity
};

// config[i] of a claim (with the requests it applies to) or of a class.
struct DeviceConfiguration {
  std::vector<std::string> requests;
  std::string driver;      // opaque.driver
  std::string parameters;  // opaque.parameters, as JSON text
};

struct ResourceClaimSpec {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
  std::vector<DeviceConfiguration> config;
};

// status.allocation.devices.results[i].
struct DeviceRequestAllocationResult {
  std::string request;  // "<request>" or "<request>/<subrequest>"
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<bool> admin_access;
  std::vector<DeviceToleration> tolerations;
  std::string share_id;  // consumable capacity: one allocation of a shareable device
  std::map<std::string, Quantity, std::less<>> consumed_capacity;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  bool operator==(const DeviceRequestAllocationResult& o) const {
    return request == o.request && driver == o.driver && pool == o.pool && device == o.device &&
           admin_access == o.admin_access && share_id == o.share_id;
  }
};

struct AllocationResult {
  std::vector<DeviceRequestAllocationResult> results;
  std::vector<DeviceConfiguration> config;  // with source FromClass / FromClaim in `source`
  std::vector<std::string> config_source;   // parallel to config: "FromClass" or "FromClaim"
  // nodeSelector: the nodes that can use the devices (absent: every node).
  std::optional<std::vector<NodeSelectorTerm>> node_selector;
  std::string allocation_timestamp;
};

// status.reservedFor[i].
struct ResourceClaimConsumerReference {
  std::string api_group;
  std::string resource;  // "pods"
  std::string name;
  std::string uid;
};

struct ResourceClaim {
  ObjectMeta meta;
  std::string api_version;
  bool being_deleted = false;  // metadata.deletionTimestamp is set
  // metadata.ownerReferences[] with controller: true (the pod a generated claim belongs to).
  std::string owner_kind;
  std::string owner_name;
  std::string owner_uid;
  ResourceClaimSpec spec;
  std::optional<AllocationResult> allocation;  // status.allocation
  std::vector<ResourceClaimConsumerReference> reserved_for;
};

struct ResourceClaimTemplate {
  ObjectMeta meta;
  std::string api_version;
  // spec.metadata: labels and annotations copied to the claims made from it.
  std::map<std::string, std::string, std::less<>> claim_labels;
  std::map<std::string, std::string, std::less<>> claim_annotations;
  ResourceClaimSpec spec;
};

struct DeviceClass {
  ObjectMeta meta;
  std::string api_version;
  std::string creation_timestamp;  // RFC 3339; decides between classes with one extendedResourceName
  std::vector<std::string> selectors;  // CEL expressions
  std::vector<DeviceConfiguration> config;
  std::string extended_resource_name;  // DRAExtendedResource
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_RESOURCE_CLAIM_H_
