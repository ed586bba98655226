// Loading the storage objects the volume plugins read, called by LoadObject
// for their apiVersion and kind: PersistentVolume and PersistentVolumeClaim
// (v1), StorageClass and CSINode (storage.k8s.io/v1). Decoded, defaulted and
// validated as the API server does (model/volume_validation.h), and kept in
// Manifests::api_objects.volumes; a name given twice is refused
// ("persistentvolumes \"x\" already exists"). Private to src/io.
#ifndef GPUSCHED_IO_VOLUME_DECODE_H_
#define GPUSCHED_IO_VOLUME_DECODE_H_

#include <string>

#include "gpusched/io/document.h"
#include "gpusched/io/manifest_loader.h"
#include "object_loader.h"

namespace gpusched {

// True when `kind` of `api_version` is one of the four (the object is then
// loaded or rejected); false for any other kind.
bool LoadVolumeObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version);
// A PersistentVolumeClaim's fields (also a StatefulSet's volumeClaimTemplates
// entry); `errs`: its ownerReferences' errors.
PersistentVolumeClaim DecodePvc(DecodeContext& ctx, const DocNode& obj, std::vector<FieldError>& errs);
// A claim template (a StatefulSet's volumeClaimTemplates entry, an
// ephemeral volume's volumeClaimTemplate): DecodePvc without an owner, as
// a template's ownerReferences are not the claim's.
PersistentVolumeClaim DecodePvcTemplate(DecodeContext& ctx, const DocNode& obj);

// Once every object is read: the claims StatefulSets and the ephemeral
// volume controller create, the default StorageClass of claims without one
// (VolumeObjects::AssignDefaultClass), what the PV controller makes of
// objects written by hand (VolumeObjects::CompleteHandWritten), and the warning for
// pods that mount claims when the input holds none (ClaimsWithoutObjectsWarning).
void FinishVolumeObjects(Manifests& m);

}  // namespace gpusched

#endif  // GPUSCHED_IO_VOLUME_DECODE_H_
