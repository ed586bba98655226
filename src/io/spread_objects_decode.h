// The objects whose selectors give PodTopologySpread its default
// constraints (helper.DefaultSelector), into Manifests::api_objects: core/v1
// Services and ReplicationControllers are read for their metadata and
// spec.selector only (gpusched does not create an RC's pods: a dump holds
// them); the ReplicaSets, StatefulSets and Deployments read as controllers
// give theirs once loading ends. Private to src/io.
#ifndef GPUSCHED_IO_SPREAD_OBJECTS_DECODE_H_
#define GPUSCHED_IO_SPREAD_OBJECTS_DECODE_H_

#include <string>

#include "object_loader.h"

namespace gpusched {

// A v1 Service or ReplicationController: read, true. Other kinds: false.
bool LoadSpreadObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version);

// The selectors of the workload controllers read (ReplicaSets,
// StatefulSets; Deployments for the ReplicaSets gpusched stands in for),
// appended to out.api_objects.spread_controllers. Called before
// ExpandWorkloads, which consumes the controllers: the StatefulSets an
// operator workload makes (LeaderWorkerSet) are not among them.
void NoteSpreadSelectors(Manifests& out);

}  // namespace gpusched

#endif  // GPUSCHED_IO_SPREAD_OBJECTS_DECODE_H_
