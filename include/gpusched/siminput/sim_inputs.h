// Everything a simulation reads, gathered from the user's paths: the
// cluster (Node manifests and/or an Alibaba trace node list), the workload
// (pods in the cluster manifests, plus --workload: a trace pod list CSV, a
// SyntheticWorkload spec, or more manifests with gpusched.io/* timing
// annotations).
#ifndef GPUSCHED_SIMINPUT_SIM_INPUTS_H_
#define GPUSCHED_SIMINPUT_SIM_INPUTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/gang.h"
#include "gpusched/model/node.h"
#include "gpusched/model/api_objects.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/sim/workload.h"
#include "gpusched/util/input_error.h"
#include "gpusched/util/status.h"

namespace gpusched {

struct SimInputSpec {
  std::vector<std::string> cluster_paths;  // -f: manifests; *.csv = trace node list
  bool recursive = false;
  std::string workload;  // --workload: "" | *.csv | SyntheticWorkload YAML | manifests
  // The generator's seed: a SyntheticWorkload's own `seed` is used unless
  // the caller says the user chose one.
  uint64_t seed = 1;
  bool seed_given = false;
};

struct SimInputs {
  std::vector<Node> initial_nodes;
  Workload workload;
  // Invalid rows of trace node lists and nodes given twice. Invalid objects
  // of manifests (cluster or workload) are in workload.rejected, with the
  // invalid trace pod rows: each problem is reported once.
  std::vector<InputError> rejected;
  // resource.k8s.io objects of the manifests (cluster and workload).
  DraObjects dra;
  // The manifests' other API objects plugins read (PVs, PVCs, StorageClasses,
  // CSINodes...), handed to the simulated cluster.
  ApiObjects objects;
  // Group objects of the manifests (cluster and workload) and the workload
  // pods filed into gangs (model/gang.h), once every path is read: a
  // group in one file and its pods in another make one gang.
  std::vector<PodGroupDecl> pod_groups;
  GangSet gangs;
};

// A non-OK status is a usage-level problem (a path that cannot be read, an
// invalid synthetic spec); invalid objects are in `out`. The
// KubeSchedulerConfiguration is the run's (run/run_settings.h), read once.
Status LoadSimInputs(const SimInputSpec& spec, SimInputs& out);

}  // namespace gpusched

#endif  // GPUSCHED_SIMINPUT_SIM_INPUTS_H_
