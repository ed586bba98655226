// containers[].ports[] and initContainers[].ports[] (core/v1
// ContainerPort), kept in PodSpecExtras (pod.h) so that a pod without any
// pays nothing. What the scheduler makes of them is host_ports.h.
#ifndef GPUSCHED_MODEL_CONTAINER_PORT_H_
#define GPUSCHED_MODEL_CONTAINER_PORT_H_

#include <cstdint>
#include <string>

namespace gpusched {

// containers[].ports[] (core/v1 ContainerPort).
struct ContainerPort {
  std::string name;
  std::string host_ip;
  std::string protocol;  // "TCP" once defaulted
  int32_t container_port = 0;
  int32_t host_port = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_CONTAINER_PORT_H_
