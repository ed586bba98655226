// ValidatePersistentVolume, ValidatePersistentVolumeClaim,
// ValidateStorageClass, ValidateCSINode and ValidatePodVolumes: upstream's
// messages (pkg/apis/core/validation and pkg/apis/storage/validation,
// v1.35) for the fields gpusched keeps.
#include "gpusched/model/volume_validation.h"

#include <gtest/gtest.h>

#include <memory>

namespace gpusched {
namespace {

std::vector<std::string> Strings(const std::vector<FieldError>& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(VolumeValidationTest, PersistentVolumeClaim) {
  PersistentVolumeClaim c;
  c.meta.name = "c";
  c.meta.namespace_ = "default";
  c.access_modes = {"ReadWriteOncePod", "ReadWriteOnce"};
  c.request = *Quantity::Parse("0");
  c.storage_class_name = "Bad_Class";
  c.volume_mode = "Raw";
  EXPECT_EQ(Strings(ValidatePersistentVolumeClaim(c)),
            (std::vector<std::string>{
                "spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes",
                "spec.resources[storage]: Invalid value: \"0\": must be greater than zero",
                "spec.storageClassName: Invalid value: \"Bad_Class\": a lowercase RFC 1123 subdomain must consist "
                "of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
                "character (e.g. 'example.com', regex used for validation is "
                "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.volumeMode: Unsupported value: \"Raw\": supported values: \"Block\", \"Filesystem\"",
            }));
  c.access_modes.clear();
  c.request.reset();
  c.storage_class_name.reset();
  c.volume_mode = "Filesystem";
  EXPECT_EQ(Strings(ValidatePersistentVolumeClaim(c)),
            (std::vector<std::string>{"spec.accessModes: Required value: at least 1 access mode is required",
                                      "spec.resources[storage]: Required value"}));
}

TEST(VolumeValidationTest, PersistentVolume) {
  PersistentVolume pv;
  pv.meta.name = "pv";
  pv.access_modes = {"ReadWriteOnce"};
  pv.capacity = *Quantity::Parse("1Gi");
  pv.source.kind = "local";
  EXPECT_EQ(Strings(ValidatePersistentVolume(pv)),
            (std::vector<std::string>{"spec.nodeAffinity: Required value: Local volume requires node affinity"}));
  pv.has_node_affinity = true;
  EXPECT_EQ(Strings(ValidatePersistentVolume(pv)),
            (std::vector<std::string>{"spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at "
                                      "least one node selector term"}));
  pv.node_affinity.push_back(NodeSelectorTerm{{{"zone", "Near", {}}}, {}});
  EXPECT_EQ(Strings(ValidatePersistentVolume(pv)),
            (std::vector<std::string>{"spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: "
                                      "Invalid value: \"Near\": not a valid selector operator"}));
}

TEST(VolumeValidationTest, StorageClassAndCsiNode) {
  StorageClass sc;
  sc.meta.name = "s";
  sc.allowed_topologies.push_back(TopologySelectorTerm{});
  EXPECT_EQ(Strings(ValidateStorageClass(sc)),
            (std::vector<std::string>{"provisioner: Required value",
                                      "allowedTopologies[0].matchLabelExpressions: Required value"}));
  CSINode n;
  n.meta.name = "a";
  n.drivers = {CSINodeDriver{"d", "", {}, -1}, CSINodeDriver{"d", "", {}, 1}};
  EXPECT_EQ(Strings(ValidateCSINode(n)),
            (std::vector<std::string>{
                "spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0",
                "spec.drivers[1].name: Duplicate value: \"d\""}));
}

TEST(VolumeValidationTest, PodVolumes) {
  PodVolume a, b;
  a.name = "data";
  a.index = 1;
  a.kind = PodVolume::Kind::kClaim;
  b.name = "data";
  b.index = 3;
  b.source.kind = "csi";
  std::vector<FieldError> errs;
  ValidatePodVolumes({a, b}, "spec.volumes", errs);
  EXPECT_EQ(Strings(errs), (std::vector<std::string>{"spec.volumes[1].persistentVolumeClaim.claimName: Required value",
                                                     "spec.volumes[3].name: Duplicate value: \"data\""}));
}

// validateEphemeralVolumeSource: volumeClaimTemplate is required, and its
// spec is validated as a claim's under the template's path.
TEST(VolumeValidationTest, EphemeralVolumes) {
  PodVolume none, bad, good;
  none.name = "a";
  none.kind = PodVolume::Kind::kEphemeral;
  bad.name = "b";
  bad.index = 1;
  bad.kind = PodVolume::Kind::kEphemeral;
  bad.claim_template = std::make_shared<PersistentVolumeClaim>();
  good.name = "c";
  good.index = 2;
  good.kind = PodVolume::Kind::kEphemeral;
  auto t = std::make_shared<PersistentVolumeClaim>();
  t->access_modes = {"ReadWriteOnce"};
  t->request = *Quantity::Parse("1Gi");
  good.claim_template = t;
  std::vector<FieldError> errs;
  ValidatePodVolumes({none, bad, good}, "spec.volumes", errs);
  EXPECT_EQ(Strings(errs),
            (std::vector<std::string>{
                "spec.volumes[0].ephemeral.volumeClaimTemplate: Required value",
                "spec.volumes[1].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access "
                "mode is required",
                "spec.volumes[1].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value"}));
}

}  // namespace
}  // namespace gpusched
