// Decoding one Pod or Node that does not come from a manifest file: the pod
// and nodes of a scheduler extender's request, and the objects an API server
// lists and watches (`gpusched serve`). They go through exactly the path a
// manifest's Pod or Node takes (io/manifest_loader.h: decoding, defaulting,
// validation as the API server does), so `serve` and `schedule` read pods
// identically. Such objects carry no apiVersion/kind (client-go's typed
// objects), which is why the kind is given.
#ifndef GPUSCHED_IO_OBJECT_DECODER_H_
#define GPUSCHED_IO_OBJECT_DECODER_H_

#include <string>
#include <vector>

#include "gpusched/io/document.h"
#include "gpusched/model/api_objects.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/util/status.h"

namespace gpusched {

struct ObjectDecodeOptions {
  // Refuse unknown fields, duplicate keys and wrong types as `kubectl apply`
  // does. Off for objects an API server sent: a newer server's fields are
  // ignored, as client-go ignores them.
  bool strict = true;
  // Names the input in messages ("request", "watch"...).
  std::string source = "request";
};

struct DecodedPod {
  Pod pod;
  // status.phase Succeeded or Failed: the pod holds nothing.
  bool terminated = false;
  std::vector<std::string> warnings;
};

// InvalidArgument with the API server's message ("Pod in version "v1" cannot
// be handled as a Pod: ...", "Pod "x" is invalid: ...") when the object is
// refused.
Result<DecodedPod> DecodePodObject(const DocNode& obj, const ObjectDecodeOptions& options = {});
Result<Node> DecodeNodeObject(const DocNode& obj, const ObjectDecodeOptions& options = {});
// One of the objects plugins read beside nodes and pods (Namespace,
// Service, ReplicationController, ReplicaSet, StatefulSet,
// PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode), as the
// ApiObjects it alone contributes: what a manifest's object of that kind
// gives (a ReplicaSet or StatefulSet: its spread selector, no pods).
Result<ApiObjects> DecodeApiObject(const DocNode& obj, const std::string& kind, const std::string& api_version,
                                   const ObjectDecodeOptions& options = {});

}  // namespace gpusched

#endif  // GPUSCHED_IO_OBJECT_DECODER_H_
