// The storage objects the volume plugins read (VolumeBinding, VolumeZone,
// VolumeRestrictions, NodeVolumeLimits): PersistentVolumes,
// PersistentVolumeClaims, StorageClasses and CSINodes, reduced to the fields
// kube-scheduler v1.35 reads of them, and the helpers of
// k8s.io/component-helpers/storage/volume (pv_helpers.go) and
// pkg/apis/core/v1/helper that judge them.
//
// They live in ApiObjects (api_objects.h), which a run copies into its
// ClusterState: lookups go by index, never by pointers taken before the
// copy.
#ifndef GPUSCHED_MODEL_VOLUME_OBJECTS_H_
#define GPUSCHED_MODEL_VOLUME_OBJECTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/model/label_selector.h"
#include "gpusched/model/node_affinity.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/pod_volume.h"
#include "gpusched/model/quantity.h"

namespace gpusched {

// Annotations of component-helpers/storage/volume and core/v1.
inline constexpr const char* kAnnBindCompleted = "pv.kubernetes.io/bind-completed";
inline constexpr const char* kAnnBoundByController = "pv.kubernetes.io/bound-by-controller";
inline constexpr const char* kAnnSelectedNode = "volume.kubernetes.io/selected-node";
inline constexpr const char* kAnnBetaStorageClass = "volume.beta.kubernetes.io/storage-class";
inline constexpr const char* kAnnDefaultStorageClass = "storageclass.kubernetes.io/is-default-class";
inline constexpr const char* kAnnBetaDefaultStorageClass = "storageclass.beta.kubernetes.io/is-default-class";
inline constexpr const char* kAnnMigratedPlugins = "storage.alpha.kubernetes.io/migrated-plugins";
inline constexpr const char* kNotSupportedProvisioner = "kubernetes.io/no-provisioner";

struct PersistentVolume {
  ObjectMeta meta;
  // GetPersistentVolumeClass: the beta annotation, else spec.storageClassName.
  std::string storage_class;
  std::optional<Quantity> capacity;  // spec.capacity.storage
  std::vector<std::string> access_modes;
  std::string volume_mode = "Filesystem";  // defaulted as the API server does
  std::string volume_attributes_class;     // spec.volumeAttributesClassName, "" when nil
  // spec.nodeAffinity.required.nodeSelectorTerms; has_node_affinity tells
  // an absent nodeAffinity (any node) from one that is set.
  bool has_node_affinity = false;
  std::vector<NodeSelectorTerm> node_affinity;
  // spec.claimRef.
  bool has_claim_ref = false;
  std::string claim_namespace, claim_name, claim_uid;
  std::string phase = "Pending";  // status.phase, defaulted to Pending
  bool has_status = false;        // the input had status.phase
  bool deleting = false;          // metadata.deletionTimestamp
  VolumeSource source;

  const std::string& name() const { return meta.name; }
};

struct PersistentVolumeClaim {
  ObjectMeta meta;
  std::string volume_name;                 // spec.volumeName
  std::optional<std::string> storage_class_name;  // spec.storageClassName (nil != "")
  std::vector<std::string> access_modes;
  std::string volume_mode = "Filesystem";
  std::string volume_attributes_class;     // spec.volumeAttributesClassName, "" when nil
  std::optional<Quantity> request;         // spec.resources.requests.storage
  std::optional<LabelSelector> selector;   // spec.selector
  std::string phase = "Pending";           // status.phase, defaulted to Pending
  bool has_status = false;
  bool deleting = false;
  // metadata.ownerReferences' controller entry (ephemeral.VolumeIsForPod).
  bool has_controller = false;
  std::string controller_uid;

  const std::string& name() const { return meta.name; }
  const std::string& ns() const { return meta.namespace_; }
  // GetPersistentVolumeClaimClass: the beta annotation, else
  // spec.storageClassName, else "".
  std::string Class() const;
  // isPVCFullyBound: spec.volumeName set and the bind-completed annotation.
  bool FullyBound() const { return !volume_name.empty() && meta.annotations.count(kAnnBindCompleted) > 0; }
  const std::string* SelectedNode() const {
    auto it = meta.annotations.find(kAnnSelectedNode);
    return it == meta.annotations.end() ? nullptr : &it->second;
  }
};

// storage/v1 TopologySelectorTerm: matchLabelExpressions (key In values).
struct TopologySelectorTerm {
  std::vector<std::pair<std::string, std::vector<std::string>>> match_label_expressions;
};

struct StorageClass {
  ObjectMeta meta;
  std::string provisioner;
  std::string volume_binding_mode = "Immediate";  // defaulted as the API server does
  std::vector<TopologySelectorTerm> allowed_topologies;
  std::string creation_timestamp;  // metadata.creationTimestamp (RFC 3339, UTC), "" when not given

  const std::string& name() const { return meta.name; }
  bool WaitForFirstConsumer() const { return volume_binding_mode == "WaitForFirstConsumer"; }
  // IsDefaultAnnotation: either is-default-class annotation is "true".
  bool IsDefault() const;
};

// storage/v1 CSINode: the CSI drivers registered on a node.
struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::vector<std::string> topology_keys;
  std::optional<int32_t> allocatable_count;  // allocatable.count
};

struct CSINode {
  ObjectMeta meta;
  std::vector<CSINodeDriver> drivers;

  const std::string& name() const { return meta.name; }
};

// The storage objects of an input, by name.
class VolumeObjects {
 public:
  // Adds an object; false when one of that name (and namespace) exists.
  bool Add(PersistentVolume pv);
  bool Add(PersistentVolumeClaim pvc);
  bool Add(StorageClass sc);
  bool Add(CSINode csi_node);
  // Every object of `other` whose name is not taken yet.
  void Merge(VolumeObjects&& other);

  const PersistentVolume* FindPv(std::string_view name) const;
  const PersistentVolumeClaim* FindPvc(std::string_view ns, std::string_view name) const;
  const StorageClass* FindClass(std::string_view name) const;
  const CSINode* FindCsiNode(std::string_view name) const;
  // pvCache.ListPVs(class): the PVs of a storage class, in input order.
  std::vector<const PersistentVolume*> PvsOfClass(std::string_view storage_class) const;

  const std::vector<PersistentVolume>& pvs() const { return pvs_; }
  const std::vector<PersistentVolumeClaim>& pvcs() const { return pvcs_; }
  const std::vector<StorageClass>& classes() const { return classes_; }
  const std::vector<CSINode>& csi_nodes() const { return csi_nodes_; }
  bool empty() const { return pvs_.empty() && pvcs_.empty() && classes_.empty() && csi_nodes_.empty(); }

  // What the PV controller makes of objects written by hand, once every
  // object is read (pkg/controller/volume/persistentvolume, syncVolume and
  // syncClaim): a PV without status that no claim holds becomes Available;
  // a claim without status that names a PV (spec.volumeName) whose claimRef
  // is unset or names it gets bound to it (bind-completed, Bound, the PV's
  // claimRef). Objects dumped from a cluster carry their status and are
  // left as they are.
  void CompleteHandWritten();
  // GetDefaultClass (component-helpers/storage/volume): of the classes
  // marked default, the newest by creationTimestamp, then the first by
  // name; nullptr when none is.
  const StorageClass* DefaultClass() const;
  // The DefaultStorageClass admission plugin on a claim created without a
  // class (neither spec.storageClassName nor the beta annotation), and the
  // PV controller's retroactive assignment (GA in v1.28) on an unbound one
  // that a dump still shows without: an unbound claim with no class gets
  // the default class. A claim that names its volume keeps no class here
  // (static binding writes storageClassName: "" for that; kept as read).
  void AssignDefaultClass();

 private:
  std::vector<PersistentVolume> pvs_;
  std::vector<PersistentVolumeClaim> pvcs_;
  std::vector<StorageClass> classes_;
  std::vector<CSINode> csi_nodes_;
  std::unordered_map<std::string, size_t> pv_index_, pvc_index_, class_index_, csi_node_index_;
};

// volume.CheckNodeAffinity: the PV's required node affinity matched against
// a node's labels only (a node without name, so matchFields never match).
bool PvNodeAffinityMatches(const PersistentVolume& pv, const LabelMap& node_labels);
// v1helper.MatchTopologySelectorTerms: no terms match every node; a term
// without expressions matches none; each expression is key In values.
bool MatchTopologySelectorTerms(const std::vector<TopologySelectorTerm>& terms, const LabelMap& labels);
// volume.IsVolumeBoundToClaim: the PV's claimRef names the claim (and its
// uid when the claimRef has one).
bool IsVolumeBoundToClaim(const PersistentVolume& pv, const PersistentVolumeClaim& claim);
// volume.CheckAccessModes: every mode of the claim is among the PV's.
bool CheckAccessModes(const PersistentVolumeClaim& claim, const PersistentVolume& pv);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_VOLUME_OBJECTS_H_
