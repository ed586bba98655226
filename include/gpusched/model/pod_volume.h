// PodVolume: an entry of a pod's spec.volumes that a volume plugin reads:
// a PersistentVolumeClaim (VolumeBinding, VolumeZone, VolumeRestrictions'
// ReadWriteOncePod check, NodeVolumeLimits), a generic ephemeral volume (its
// claim is "<pod>-<volume>", component-helpers/storage/ephemeral), and the
// inline sources VolumeRestrictions compares between pods (GCE PD, AWS EBS,
// iSCSI, RBD) and NodeVolumeLimits counts (CSI). Other kinds (configMap,
// emptyDir, secret, projected...) take no part in scheduling and are not
// kept. A pod holds them in PodSpecExtras (pod.h), so that a pod without
// such volumes pays nothing.
#ifndef GPUSCHED_MODEL_POD_VOLUME_H_
#define GPUSCHED_MODEL_POD_VOLUME_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpusched {

struct PersistentVolumeClaim;  // volume_objects.h

// An in-tree or CSI volume source, of a pod's volume or of a
// PersistentVolume's spec.
struct VolumeSource {
  // The source's field name: "gcePersistentDisk", "awsElasticBlockStore",
  // "iscsi", "rbd", "csi" (and for a PV also "local", "hostPath", "nfs"...);
  // "" when none is known.
  std::string kind;
  // gcePersistentDisk.pdName, awsElasticBlockStore.volumeID, iscsi.iqn,
  // rbd.image, csi.volumeHandle.
  std::string id;
  std::string csi_driver;  // csi.driver
  std::string rbd_pool;    // rbd.pool (defaulted "rbd")
  std::vector<std::string> rbd_monitors;
  bool read_only = false;
};

struct PodVolume {
  enum class Kind : uint8_t { kClaim, kEphemeral, kInline };
  std::string name;
  int32_t index = 0;  // position in spec.volumes (for messages)
  Kind kind = Kind::kInline;
  std::string claim_name;  // persistentVolumeClaim.claimName (kClaim)
  bool read_only = false;  // persistentVolumeClaim.readOnly
  VolumeSource source;     // kInline
  // kEphemeral: ephemeral.volumeClaimTemplate (its labels, annotations and
  // spec; nullptr when the field is missing), from which the ephemeral
  // volume controller creates the claim.
  std::shared_ptr<const PersistentVolumeClaim> claim_template;

  bool UsesClaim() const { return kind != Kind::kInline; }
  // The claim's name: claimName, or "<pod>-<volume>" for an ephemeral
  // volume (ephemeral.VolumeClaimName).
  std::string ClaimName(const std::string& pod_name) const {
    return kind == Kind::kEphemeral ? pod_name + "-" + name : claim_name;
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_VOLUME_H_
