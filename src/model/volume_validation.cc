// Upstream: pkg/apis/core/validation/validation.go (ValidatePersistentVolume
// Spec, ValidatePersistentVolumeClaimSpec, ValidateVolumes) and
// pkg/apis/storage/validation/validation.go (v1.35).
#include "gpusched/model/volume_validation.h"

#include <set>

#include "gpusched/model/label_selector.h"
#include "gpusched/model/name_validation.h"
#include "gpusched/model/object_meta_validation.h"
#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

// sets.List(supportedAccessModes): sorted.
const std::vector<std::string> kAccessModes = {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"};
const std::vector<std::string> kVolumeModes = {"Block", "Filesystem"};

bool Supported(const std::vector<std::string>& set, const std::string& v) {
  for (const std::string& s : set)
    if (s == v) return true;
  return false;
}

// The accessModes values checks PV and PVC specs share.
void ValidateAccessModes(const std::vector<std::string>& modes, const std::string& path,
                         std::vector<FieldError>& errs) {
  bool rwop = false, other = false;
  for (const std::string& m : modes) {
    if (!Supported(kAccessModes, m)) errs.push_back(FieldError::NotSupportedJson(path, m, kAccessModes));
    if (m == "ReadWriteOncePod") {
      rwop = true;
    } else if (Supported(kAccessModes, m)) {
      other = true;
    }
  }
  if (rwop && other) errs.push_back(FieldError::Forbidden(path, "may not use ReadWriteOncePod with other access modes"));
}

// ValidateClassName: a DNS subdomain.
void ValidateClassName(const std::string& name, const std::string& path, std::vector<FieldError>& errs) {
  for (const std::string& m : IsDNS1123Subdomain(name)) errs.push_back(FieldError::Invalid(path, name, m));
}

// ValidatePositiveQuantityValue.
void ValidatePositive(const Quantity& q, const std::string& path, std::vector<FieldError>& errs) {
  if (q.Sign() <= 0) errs.push_back(FieldError::Invalid(path, q.String(), "must be greater than zero"));
}

// validateNodeSelector as validateVolumeNodeAffinity calls it.
void ValidateVolumeNodeAffinity(const PersistentVolume& pv, const std::string& path, std::vector<FieldError>& errs) {
  NodeAffinity a;
  a.has_required = true;
  a.required = pv.node_affinity;
  std::vector<FieldError> term_errs;
  ValidateNodeAffinity(a, path, term_errs);
  // ValidateNodeAffinity names the pod's field; a PV's is required.nodeSelectorTerms.
  const std::string pod_field = path + ".requiredDuringSchedulingIgnoredDuringExecution";
  for (FieldError& e : term_errs) {
    if (e.field.compare(0, pod_field.size(), pod_field) == 0) e.field = path + ".required" + e.field.substr(pod_field.size());
    errs.push_back(std::move(e));
  }
}

}  // namespace

std::vector<FieldError> ValidatePersistentVolume(const PersistentVolume& pv) {
  std::vector<FieldError> errs;
  ValidateObjectMeta(pv.meta, /*namespaced=*/false, errs);
  if (pv.access_modes.empty()) errs.push_back(FieldError::Required("spec.accessModes", ""));
  ValidateAccessModes(pv.access_modes, "spec.accessModes", errs);
  if (!pv.capacity) {
    errs.push_back(FieldError::Required("spec.capacity", ""));
    errs.push_back(FieldError{FieldError::Type::kNotSupported, "spec.capacity", "core.ResourceList(nil)",
                              "supported values: \"storage\""});
  } else {
    ValidatePositive(*pv.capacity, "spec.capacity[storage]", errs);
  }
  if (pv.has_node_affinity) ValidateVolumeNodeAffinity(pv, "spec.nodeAffinity", errs);
  if (pv.source.kind.empty()) errs.push_back(FieldError::Required("spec", "must specify a volume type"));
  if (pv.source.kind == "local" && !pv.has_node_affinity)
    errs.push_back(FieldError::Required("spec.nodeAffinity", "Local volume requires node affinity"));
  if (!pv.storage_class.empty() && !pv.meta.annotations.count(kAnnBetaStorageClass))
    ValidateClassName(pv.storage_class, "spec.storageClassName", errs);
  if (!Supported(kVolumeModes, pv.volume_mode))
    errs.push_back(FieldError::NotSupportedJson("spec.volumeMode", pv.volume_mode, kVolumeModes));
  return errs;
}

std::vector<FieldError> ValidatePersistentVolumeClaim(const PersistentVolumeClaim& pvc) {
  std::vector<FieldError> errs;
  ValidateObjectMeta(pvc.meta, /*namespaced=*/true, errs);
  if (pvc.access_modes.empty())
    errs.push_back(FieldError::Required("spec.accessModes", "at least 1 access mode is required"));
  if (pvc.selector) ValidateLabelSelector(*pvc.selector, "spec.selector", errs);
  ValidateAccessModes(pvc.access_modes, "spec.accessModes", errs);
  if (!pvc.request) {
    errs.push_back(FieldError::Required("spec.resources[storage]", ""));
  } else {
    ValidatePositive(*pvc.request, "spec.resources[storage]", errs);
  }
  if (pvc.storage_class_name && !pvc.storage_class_name->empty())
    ValidateClassName(*pvc.storage_class_name, "spec.storageClassName", errs);
  if (!Supported(kVolumeModes, pvc.volume_mode))
    errs.push_back(FieldError::NotSupportedJson("spec.volumeMode", pvc.volume_mode, kVolumeModes));
  if (!pvc.volume_attributes_class.empty())
    ValidateClassName(pvc.volume_attributes_class, "spec.volumeAttributesClassName", errs);
  return errs;
}

void ValidatePersistentVolumeClaimTemplate(const PersistentVolumeClaim& t, const std::string& path,
                                           std::vector<FieldError>& errs) {
  for (FieldError e : ValidatePersistentVolumeClaim(t)) {
    if (!e.field.starts_with("spec")) continue;  // a template's name and namespace are not the claim's
    e.field = path + "." + e.field;
    errs.push_back(std::move(e));
  }
}

std::vector<FieldError> ValidateStorageClass(const StorageClass& sc) {
  std::vector<FieldError> errs;
  ValidateObjectMeta(sc.meta, /*namespaced=*/false, errs);
  // validateProvisioner
  if (sc.provisioner.empty()) errs.push_back(FieldError::Required("provisioner", ""));
  static const std::vector<std::string> kModes = {"Immediate", "WaitForFirstConsumer"};
  if (!Supported(kModes, sc.volume_binding_mode))
    errs.push_back(FieldError::NotSupportedJson("volumeBindingMode", sc.volume_binding_mode, kModes));
  for (size_t i = 0; i < sc.allowed_topologies.size(); ++i) {
    const std::string p = "allowedTopologies[" + std::to_string(i) + "]";
    const TopologySelectorTerm& t = sc.allowed_topologies[i];
    if (t.match_label_expressions.empty()) errs.push_back(FieldError::Required(p + ".matchLabelExpressions", ""));
    for (size_t k = 0; k < t.match_label_expressions.size(); ++k) {
      const auto& [key, values] = t.match_label_expressions[k];
      const std::string e = p + ".matchLabelExpressions[" + std::to_string(k) + "]";
      for (const std::string& m : IsQualifiedName(key)) errs.push_back(FieldError::Invalid(e + ".key", key, m));
      if (values.empty()) errs.push_back(FieldError::Required(e + ".values", "must specify as least one value"));
    }
  }
  return errs;
}

std::vector<FieldError> ValidateCSINode(const CSINode& csi_node) {
  std::vector<FieldError> errs;
  ValidateObjectMeta(csi_node.meta, /*namespaced=*/false, errs);
  std::set<std::string> seen;
  for (size_t i = 0; i < csi_node.drivers.size(); ++i) {
    const CSINodeDriver& d = csi_node.drivers[i];
    const std::string p = "spec.drivers[" + std::to_string(i) + "]";
    if (d.name.empty()) {
      errs.push_back(FieldError::Required(p + ".name", ""));
    } else if (!seen.insert(d.name).second) {
      errs.push_back(FieldError::Duplicate(p + ".name", d.name));
    }
    if (d.allocatable_count && *d.allocatable_count < 0)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".allocatable.count",
                                std::to_string(*d.allocatable_count), "must be greater than or equal to 0"});
  }
  return errs;
}

void ValidatePodVolumes(const std::vector<PodVolume>& volumes, const std::string& path, std::vector<FieldError>& errs) {
  std::set<std::string> names;
  for (const PodVolume& v : volumes) {
    const std::string p = path + "[" + std::to_string(v.index) + "]";
    if (v.name.empty()) {
      errs.push_back(FieldError::Required(p + ".name", ""));
    } else {
      for (const std::string& m : IsDNS1123Label(v.name)) errs.push_back(FieldError::Invalid(p + ".name", v.name, m));
      if (!names.insert(v.name).second) errs.push_back(FieldError::Duplicate(p + ".name", v.name));
    }
    if (v.kind == PodVolume::Kind::kClaim && v.claim_name.empty())
      errs.push_back(FieldError::Required(p + ".persistentVolumeClaim.claimName", ""));
    // validateEphemeralVolumeSource: the template is required, and its spec
    // is validated as a claim's (ValidatePersistentVolumeClaimTemplate).
    if (v.kind == PodVolume::Kind::kEphemeral) {
      const std::string at = p + ".ephemeral.volumeClaimTemplate";
      if (!v.claim_template) {
        errs.push_back(FieldError::Required(at, ""));
        continue;
      }
      ValidatePersistentVolumeClaimTemplate(*v.claim_template, at, errs);
    }
  }
}

}  // namespace gpusched
