// Loading Namespace objects into Manifests::api_objects (InterPodAffinity's
// section). Private to src/io.
#ifndef GPUSCHED_IO_NAMESPACE_LOADER_H_
#define GPUSCHED_IO_NAMESPACE_LOADER_H_

#include <string>

#include "object_loader.h"

namespace gpusched {

// Loads `obj` when it is a v1 Namespace (true); false for any other kind.
bool LoadNamespaceObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version);

}  // namespace gpusched

#endif  // GPUSCHED_IO_NAMESPACE_LOADER_H_
