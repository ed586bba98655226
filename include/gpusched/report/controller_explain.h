// `gpusched explain CONTROLLER`: what a workload controller in the input
// amounts to — the pods it already had (each with its outcome in this run),
// the terminated ones it counted, and the pods gpusched created for it.
#ifndef GPUSCHED_REPORT_CONTROLLER_EXPLAIN_H_
#define GPUSCHED_REPORT_CONTROLLER_EXPLAIN_H_

#include <ostream>
#include <string_view>
#include <vector>

#include "gpusched/model/controller.h"
#include "gpusched/report/run_report.h"

namespace gpusched {

// The controllers `want` names: "NAME", "NAMESPACE/NAME", "KIND/NAME" or
// "KIND/NAMESPACE/NAME", KIND as kubectl spells it (deployment, deployments,
// deploy, replicaset, rs, statefulset, sts, job, daemonset, ds, cronjob, cj;
// any case). Indices into `controllers`, in their order.
std::vector<size_t> FindControllers(const std::vector<ControllerPods>& controllers, std::string_view want);

// "Deployment/ml/web" (namespace omitted when it is "default").
std::string ControllerDisplayName(const ControllerPods& c);

// The explanation of `c`: its summary, then every pod with its outcome
// (already running on a node, placed, pending with kube-scheduler's message,
// refused, terminated, or rejected).
void WriteControllerExplain(std::ostream& out, const RunReport& r, const ControllerPods& c);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_CONTROLLER_EXPLAIN_H_
