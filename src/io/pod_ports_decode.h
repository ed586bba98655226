// Decoding what NodePorts reads of a pod spec: containers[].ports and
// initContainers[].ports (name, containerPort, hostPort, hostIP, protocol)
// and spec.hostNetwork, into PodSpecExtras (model/container_port.h). Private
// to src/io.
#ifndef GPUSCHED_IO_POD_PORTS_DECODE_H_
#define GPUSCHED_IO_POD_PORTS_DECODE_H_

#include <string>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// The ports of spec.containers and spec.initContainers (the items that are
// objects: DecodeContainers reports the others) and spec.hostNetwork.
void DecodePodPorts(DecodeContext& ctx, const DocNode& spec, const std::string& path, PodSpecExtras& extras);

}  // namespace gpusched

#endif  // GPUSCHED_IO_POD_PORTS_DECODE_H_
