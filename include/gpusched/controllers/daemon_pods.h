// The DaemonSet controller's view of nodes and of its own pods
// (pkg/controller/daemon/daemon_controller.go and
// pkg/controller/daemon/util/daemonset_util.go): on which nodes a DaemonSet
// should run, the pod it creates for a node, and the node an existing daemon
// pod is for.
#ifndef GPUSCHED_CONTROLLERS_DAEMON_PODS_H_
#define GPUSCHED_CONTROLLERS_DAEMON_PODS_H_

#include <optional>
#include <string>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// NodeShouldRunDaemonPod(node, ds).shouldRun for template `tmpl` with
// hostNetwork `host_network`: the template's nodeName (if any) is the node,
// its nodeSelector and required node affinity match the node
// (nodeaffinity.GetRequiredNodeAffinity), and every NoSchedule/NoExecute
// taint of the node is tolerated, the default daemon tolerations included.
bool DaemonShouldRunOnNode(const Pod& tmpl, bool host_network, const Node& node);

// AddOrUpdateDaemonPodTolerations: the tolerations every daemon pod gets
// (not-ready and unreachable NoExecute; disk-pressure, memory-pressure,
// pid-pressure and unschedulable NoSchedule; network-unavailable NoSchedule
// with hostNetwork), added unless an identical one is there.
void AddDaemonPodTolerations(Pod& pod, bool host_network);

// The pod the DaemonSet creates for `node`: its template with the default
// tolerations and its required node affinity replaced by one term
// `matchFields metadata.name In [node]` (ReplaceDaemonSetPodNodeNameNodeAffinity);
// preferred terms are kept.
Pod DaemonPodFor(const Pod& tmpl, bool host_network, const std::string& node);

// GetTargetNodeName: spec.nodeName, else the value of a required
// `matchFields metadata.name In [one node]` term; nullopt when neither.
std::optional<std::string> DaemonPodTargetNode(const Pod& pod);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_DAEMON_PODS_H_
