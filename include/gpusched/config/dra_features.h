// The DRA feature gates kube-scheduler's DynamicResources plugin and the
// structured allocator read (structured.Features; pkg/features/
// kube_features.go), with v1.35's defaults. `--feature-gates` sets them
// (run/feature_gates.h); the profile's DynamicResources gets them
// (ResolvedProfile::dra_features).
#ifndef GPUSCHED_CONFIG_DRA_FEATURES_H_
#define GPUSCHED_CONFIG_DRA_FEATURES_H_

namespace gpusched {

struct DraFeatures {
  bool admin_access = true;                // DRAAdminAccess, beta
  bool prioritized_list = true;            // DRAPrioritizedList, beta
  bool partitionable_devices = false;      // DRAPartitionableDevices, alpha
  bool device_taints = false;              // DRADeviceTaints, alpha
  bool device_binding_conditions = false;  // DRADeviceBindingConditions, alpha
  bool consumable_capacity = false;        // DRAConsumableCapacity, alpha
};

}  // namespace gpusched

#endif  // GPUSCHED_CONFIG_DRA_FEATURES_H_
