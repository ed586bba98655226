// One `schedule` or `explain` run: the manifests read from the user's paths,
// scheduled in one batch (sched/framework/batch.h) with the schedulers, queue
// order, gang serving and gang preemption of the resolved settings. FGD's
// target workload is the input's own pods (GetTypicalPods). What the run
// builds that grows with the input is not destroyed when the process ends
// with the command (util/exit_memory.h).
#ifndef GPUSCHED_RUN_BATCH_RUN_H_
#define GPUSCHED_RUN_BATCH_RUN_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/run/run_settings.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/util/status.h"

namespace gpusched {

// The per-node detail a run records: for every pod (schedule --explain) or
// for one input pod (explain POD).
struct BatchDetail {
  bool every_pod = false;
  std::optional<size_t> pod;
};

class BatchRun {
 public:
  BatchRun();
  ~BatchRun();
  BatchRun(const BatchRun&) = delete;
  BatchRun& operator=(const BatchRun&) = delete;

  // Reads `paths` (io/manifest_loader.h); an error names the path. The
  // manifests' warnings and rejected objects are in manifests().
  Status Load(const std::vector<std::string>& paths, bool recursive);
  Manifests& manifests() { return *manifests_; }
  // The valid input pods, in input order (indices are explain's).
  const std::vector<const Pod*>& pods() const { return *pods_; }

  // Schedules every pod once Load succeeded. Fails only where the engine
  // refuses the settings' schedulers (sched/framework/profile_factory.h).
  Status Schedule(const RunSettings& settings, const BatchDetail& detail);
  const ClusterState& cluster() const { return *cluster_; }
  const BatchResult& result() const { return *result_; }
  const SchedulerSet& schedulers() const { return schedulers_; }

 private:
  std::unique_ptr<Manifests> manifests_;
  std::unique_ptr<std::vector<const Pod*>> pods_;
  std::unique_ptr<ClusterState> cluster_;
  std::unique_ptr<BatchResult> result_;
  std::vector<const PodDisruptionBudget*> pdbs_;  // into *manifests_; small
  SchedulerSet schedulers_;
};

}  // namespace gpusched

#endif  // GPUSCHED_RUN_BATCH_RUN_H_
