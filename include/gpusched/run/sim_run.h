// One `simulate` run: the cluster and workload read from the user's paths
// (siminput/sim_inputs.h), replayed once per policy of the resolved settings with
// their queue order, feature gates, backoffs, gang serving and gang
// preemption (sim/simulator.h). FGD's target workload is the workload's own
// pods (GetTypicalPods).
#ifndef GPUSCHED_RUN_SIM_RUN_H_
#define GPUSCHED_RUN_SIM_RUN_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/run/run_settings.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sim/simulator.h"
#include "gpusched/siminput/sim_inputs.h"
#include "gpusched/util/status.h"

namespace gpusched {

class SimRun {
 public:
  // `settings` must outlive the run.
  explicit SimRun(const RunSettings& settings) : settings_(settings) {}

  // Reads the cluster paths and the workload ("" for none); the settings'
  // seed generates a SyntheticWorkload unless its spec has its own and the
  // seed was not given. An error names the path; warnings and rejected
  // objects are in inputs().
  Status Load(const std::vector<std::string>& cluster_paths, bool recursive, const std::string& workload);
  const SimInputs& inputs() const { return inputs_; }

  // Simulates `policy` (one of the settings') until `end_time` (none: to
  // completion), calling `progress` with the fraction done. Fails only where
  // the engine refuses the policy's schedulers.
  Result<SimResult> Simulate(std::string_view policy, std::optional<double> end_time,
                             std::function<void(double fraction)> progress) const;

 private:
  const RunSettings& settings_;
  SimInputs inputs_;
  TypicalPods typical_;
};

}  // namespace gpusched

#endif  // GPUSCHED_RUN_SIM_RUN_H_
