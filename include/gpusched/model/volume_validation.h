// Validation of the storage objects and of a pod's volumes as the API
// server validates them (pkg/apis/core/validation ValidatePersistentVolume,
// ValidatePersistentVolumeClaim, ValidateVolumes; pkg/apis/storage/validation
// ValidateStorageClass, ValidateCSINode), for the fields gpusched keeps,
// with upstream's messages.
#ifndef GPUSCHED_MODEL_VOLUME_VALIDATION_H_
#define GPUSCHED_MODEL_VOLUME_VALIDATION_H_

#include <string>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/pod_volume.h"
#include "gpusched/model/volume_objects.h"

namespace gpusched {

std::vector<FieldError> ValidatePersistentVolume(const PersistentVolume& pv);
std::vector<FieldError> ValidatePersistentVolumeClaim(const PersistentVolumeClaim& pvc);
// ValidatePersistentVolumeClaimTemplate's spec half (a StatefulSet's
// volumeClaimTemplates entry, an ephemeral volume's volumeClaimTemplate):
// the spec errors of the claim made from `t`, named under `path`.
void ValidatePersistentVolumeClaimTemplate(const PersistentVolumeClaim& t, const std::string& path,
                                           std::vector<FieldError>& errs);
std::vector<FieldError> ValidateStorageClass(const StorageClass& sc);
std::vector<FieldError> ValidateCSINode(const CSINode& csi_node);
// ValidateVolumes for the volumes a pod keeps: names (required, DNS-1123
// labels, unique) and persistentVolumeClaim.claimName; `path` is
// "spec.volumes".
void ValidatePodVolumes(const std::vector<PodVolume>& volumes, const std::string& path, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_VOLUME_VALIDATION_H_
