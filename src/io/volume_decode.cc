#include "volume_decode.h"

#include "controller_decode.h"
#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_decode.h"
#include "gpusched/model/volume_claims_warning.h"
#include "gpusched/model/volume_validation.h"
#include "pod_volumes_decode.h"

namespace gpusched {
namespace {

struct VolumeKind {
  const char* kind;
  const char* api_version;
  const char* resource;  // as "already exists" names it
  bool namespaced;
};
constexpr VolumeKind kVolumeKinds[] = {
    {"PersistentVolume", "v1", "persistentvolumes", false},
    {"PersistentVolumeClaim", "v1", "persistentvolumeclaims", true},
    {"StorageClass", "storage.k8s.io/v1", "storageclasses.storage.k8s.io", false},
    {"CSINode", "storage.k8s.io/v1", "csinodes.storage.k8s.io", false},
};

bool Deleting(const DocNode& obj) {
  const DocNode t = obj["metadata"]["deletionTimestamp"];
  return t.IsDefined() && !t.IsNull();
}

std::optional<Quantity> Storage(DecodeContext& ctx, const DocNode& parent, const char* key, const std::string& path) {
  const ResourceList list = ctx.Quantities(parent, key, path);
  auto it = list.find("storage");
  if (it == list.end()) return std::nullopt;
  return it->second;
}

PersistentVolume DecodePv(DecodeContext& ctx, const DocNode& obj) {
  PersistentVolume pv;
  DecodeObjectMeta(ctx, obj, "metadata", pv.meta);
  pv.deleting = Deleting(obj);
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    pv.capacity = Storage(ctx, spec, "capacity", "spec.capacity");
    pv.access_modes = ctx.Strings(spec, "accessModes", "spec.accessModes");
    if (std::string m = ctx.Str(spec, "volumeMode", "spec.volumeMode"); !m.empty()) pv.volume_mode = m;
    pv.storage_class = ctx.Str(spec, "storageClassName", "spec.storageClassName");
    pv.volume_attributes_class = ctx.Str(spec, "volumeAttributesClassName", "spec.volumeAttributesClassName");
    const DocNode na = ctx.Map(spec, "nodeAffinity", "spec.nodeAffinity");
    if (na.IsDefined()) {
      pv.has_node_affinity = true;
      const DocNode req = ctx.Map(na, "required", "spec.nodeAffinity.required");
      if (req.IsDefined())
        pv.node_affinity = DecodeNodeSelectorTerms(ctx, req, "spec.nodeAffinity.required.nodeSelectorTerms");
    }
    const DocNode ref = ctx.Map(spec, "claimRef", "spec.claimRef");
    if (ref.IsDefined()) {
      pv.has_claim_ref = true;
      pv.claim_namespace = ctx.Str(ref, "namespace", "spec.claimRef.namespace");
      pv.claim_name = ctx.Str(ref, "name", "spec.claimRef.name");
      pv.claim_uid = ctx.Str(ref, "uid", "spec.claimRef.uid");
    }
    pv.source = DecodeVolumeSource(ctx, spec, "spec");
  }
  // GetPersistentVolumeClass: the beta annotation wins.
  if (auto it = pv.meta.annotations.find(kAnnBetaStorageClass); it != pv.meta.annotations.end())
    pv.storage_class = it->second;
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    if (std::string phase = ctx.Str(status, "phase", "status.phase"); !phase.empty()) {
      pv.phase = phase;
      pv.has_status = true;
    }
  }
  return pv;
}

}  // namespace

PersistentVolumeClaim DecodePvc(DecodeContext& ctx, const DocNode& obj, std::vector<FieldError>& errs) {
  PersistentVolumeClaim pvc;
  DecodeObjectMeta(ctx, obj, "metadata", pvc.meta);
  pvc.deleting = Deleting(obj);
  std::optional<OwnerReference> controller;
  errs = DecodeOwnerReferences(ctx, obj, controller);
  if (controller) {
    pvc.has_controller = true;
    pvc.controller_uid = controller->uid;
  }
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    pvc.access_modes = ctx.Strings(spec, "accessModes", "spec.accessModes");
    const DocNode res = ctx.Map(spec, "resources", "spec.resources");
    if (res.IsDefined()) pvc.request = Storage(ctx, res, "requests", "spec.resources.requests");
    const DocNode cls = spec["storageClassName"];
    if (cls.IsDefined() && !cls.IsNull()) pvc.storage_class_name = ctx.Str(spec, "storageClassName", "spec.storageClassName");
    pvc.volume_name = ctx.Str(spec, "volumeName", "spec.volumeName");
    if (std::string m = ctx.Str(spec, "volumeMode", "spec.volumeMode"); !m.empty()) pvc.volume_mode = m;
    pvc.volume_attributes_class = ctx.Str(spec, "volumeAttributesClassName", "spec.volumeAttributesClassName");
    pvc.selector = DecodeLabelSelector(ctx, spec, "selector", "spec.selector");
  }
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    if (std::string phase = ctx.Str(status, "phase", "status.phase"); !phase.empty()) {
      pvc.phase = phase;
      pvc.has_status = true;
    }
  }
  return pvc;
}

PersistentVolumeClaim DecodePvcTemplate(DecodeContext& ctx, const DocNode& obj) {
  std::vector<FieldError> owner_errs;  // not the claim's
  PersistentVolumeClaim t = DecodePvc(ctx, obj, owner_errs);
  t.has_controller = false;
  return t;
}

namespace {

StorageClass DecodeStorageClass(DecodeContext& ctx, const DocNode& obj) {
  StorageClass sc;
  DecodeObjectMeta(ctx, obj, "metadata", sc.meta);
  sc.provisioner = ctx.Str(obj, "provisioner", "provisioner");
  if (const DocNode meta = ctx.Map(obj, "metadata", "metadata"); meta.IsDefined())
    sc.creation_timestamp = ctx.Str(meta, "creationTimestamp", "metadata.creationTimestamp");
  // SetDefaults_StorageClass: Immediate when unset.
  if (std::string m = ctx.Str(obj, "volumeBindingMode", "volumeBindingMode"); !m.empty()) sc.volume_binding_mode = m;
  for (const auto& [t, p] : ctx.Objects(obj, "allowedTopologies", "allowedTopologies")) {
    TopologySelectorTerm term;
    for (const auto& [e, ep] : ctx.Objects(t, "matchLabelExpressions", p + ".matchLabelExpressions"))
      term.match_label_expressions.emplace_back(ctx.Str(e, "key", ep + ".key"), ctx.Strings(e, "values", ep + ".values"));
    sc.allowed_topologies.push_back(std::move(term));
  }
  return sc;
}

CSINode DecodeCsiNode(DecodeContext& ctx, const DocNode& obj) {
  CSINode n;
  DecodeObjectMeta(ctx, obj, "metadata", n.meta);
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (!spec.IsDefined()) return n;
  for (const auto& [d, p] : ctx.Objects(spec, "drivers", "spec.drivers")) {
    CSINodeDriver driver;
    driver.name = ctx.Str(d, "name", p + ".name");
    driver.node_id = ctx.Str(d, "nodeID", p + ".nodeID");
    driver.topology_keys = ctx.Strings(d, "topologyKeys", p + ".topologyKeys");
    const DocNode alloc = ctx.Map(d, "allocatable", p + ".allocatable");
    if (alloc.IsDefined())
      if (auto c = ctx.Int(alloc, "count", p + ".allocatable.count"))
        driver.allocatable_count = static_cast<int32_t>(std::clamp<int64_t>(*c, INT32_MIN, INT32_MAX));
    n.drivers.push_back(std::move(driver));
  }
  return n;
}

}  // namespace

bool LoadVolumeObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version) {
  const VolumeKind* vk = nullptr;
  for (const VolumeKind& k : kVolumeKinds)
    if (kind == k.kind && api_version == k.api_version) vk = &k;
  if (vk == nullptr) return false;
  if (!DecodesStrictly(src, obj, kind, api_version, vk->namespaced)) return true;
  DecodeContext ctx(obj);
  VolumeObjects& vols = src.out.api_objects.volumes;
  std::vector<FieldError> errs;
  ObjectMeta meta;
  PersistentVolume pv;
  PersistentVolumeClaim pvc;
  StorageClass sc;
  CSINode csi;
  if (kind == "PersistentVolume") {
    pv = DecodePv(ctx, obj);
    pv.meta.namespace_.clear();  // cluster-scoped: the API server drops it
    meta = pv.meta;
  } else if (kind == "PersistentVolumeClaim") {
    std::vector<FieldError> ownership;
    pvc = DecodePvc(ctx, obj, ownership);
    if (pvc.meta.namespace_.empty()) pvc.meta.namespace_ = kDefaultNamespace;
    meta = pvc.meta;
    errs = std::move(ownership);
  } else if (kind == "StorageClass") {
    sc = DecodeStorageClass(ctx, obj);
    sc.meta.namespace_.clear();
    meta = sc.meta;
  } else {
    csi = DecodeCsiNode(ctx, obj);
    csi.meta.namespace_.clear();
    meta = csi.meta;
  }
  const std::string id = ObjectId(kind, meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) {
    Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, api_version, ctx));
    return true;
  }
  std::vector<FieldError> valid = kind == "PersistentVolume"        ? ValidatePersistentVolume(pv)
                                  : kind == "PersistentVolumeClaim" ? ValidatePersistentVolumeClaim(pvc)
                                  : kind == "StorageClass"          ? ValidateStorageClass(sc)
                                                                    : ValidateCSINode(csi);
  errs.insert(errs.end(), valid.begin(), valid.end());
  if (!errs.empty()) {
    RejectInvalid(src, id, ctx.LineOf(errs.front().field), kind, meta.name, errs);
    return true;
  }
  const bool added = kind == "PersistentVolume"        ? vols.Add(std::move(pv))
                     : kind == "PersistentVolumeClaim" ? vols.Add(std::move(pvc))
                     : kind == "StorageClass"          ? vols.Add(std::move(sc))
                                                       : vols.Add(std::move(csi));
  if (!added) Reject(src, id, ctx.Line(obj), std::string(vk->resource) + " \"" + meta.name + "\" already exists");
  return true;
}

void FinishVolumeObjects(Manifests& m) {
  VolumeObjects& v = m.api_objects.volumes;
  // The claims StatefulSets created for their new pods, where the input has
  // none of that name (the controller leaves an existing claim as it is).
  for (PersistentVolumeClaim& claim : m.created_claims) v.Add(std::move(claim));
  m.created_claims.clear();
  // The claims of generic ephemeral volumes, for pods not yet created (no
  // metadata.uid: manifests, and the pods controllers create here), as the
  // ephemeral volume controller creates them when the pod is
  // (pkg/controller/ephemeral/controller.go handleVolume): named
  // "<pod>-<volume>", the template's labels, annotations and spec, the pod
  // its controller. A pod of a dump was created: its claim is what the dump
  // holds, and where it holds none the pod waits as kube-scheduler says.
  for (const LoadedPod& lp : m.pods) {
    const Pod& pod = lp.pod;
    if (!pod.meta.uid.empty() || !pod.extras) continue;
    for (const PodVolume& vol : pod.extras->volumes) {
      if (vol.kind != PodVolume::Kind::kEphemeral || !vol.claim_template) continue;
      const std::string name = vol.ClaimName(pod.name());
      if (v.FindPvc(pod.ns(), name) != nullptr) continue;  // the controller leaves an existing claim as it is
      PersistentVolumeClaim claim = *vol.claim_template;
      claim.meta.name = name;
      claim.meta.namespace_ = pod.ns();
      claim.has_controller = true;
      claim.controller_uid = pod.meta.uid;
      v.Add(std::move(claim));
    }
  }
  v.AssignDefaultClass();
  v.CompleteHandWritten();
  std::vector<const Pod*> pods;
  for (const LoadedPod& lp : m.pods) pods.push_back(&lp.pod);
  if (std::string w = ClaimsWithoutObjectsWarning(pods, v); !w.empty()) m.warnings.push_back(std::move(w));
}

}  // namespace gpusched
