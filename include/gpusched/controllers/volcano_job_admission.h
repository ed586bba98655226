// A Volcano Job (batch.volcano.sh/v1alpha1) through Volcano's admission
// webhooks, before its job controller creates any pod: the mutating
// webhook's defaults (pkg/webhooks/admission/jobs/mutate/mutate_job.go:
// patchDefaultScheduler "volcano", patchDefaultQueue "default", task names
// "default<i>", a task's minAvailable its replicas, patchDefaultMinAvailable
// the sum of the tasks'), what the job controller's createJobPod takes from
// the Job for each task's pods (its schedulerName and priorityClassName,
// when the template names none), and the validating webhook's denials
// (pkg/webhooks/admission/jobs/validate/admit_job.go validateJobCreate: no
// task, a task's minAvailable above its replicas, a duplicated task name,
// minAvailable above the total, invalid lifecycle policies), in its order
// and words. A Job the webhook denies never exists in a cluster, so the
// loader rejects it with that text. Decoding the Job is io's
// (operator_decode.cc).
#ifndef GPUSCHED_CONTROLLERS_VOLCANO_JOB_ADMISSION_H_
#define GPUSCHED_CONTROLLERS_VOLCANO_JOB_ADMISSION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/controllers/volcano_policies.h"
#include "gpusched/model/operator_workload.h"

namespace gpusched {

// One spec.tasks[i] of a Volcano Job as written.
struct VolcanoTask {
  OperatorRole role;  // name ("" when not given), replicas, template; the rest is admission's
  std::optional<int64_t> min_available;
  std::vector<VolcanoPolicy> policies;
  bool template_names_scheduler = false;  // template.spec.schedulerName is given
};

// The Job, task by task as validateJobCreate walks them.
class VolcanoJobAdmission {
 public:
  // `w` holds spec.schedulerName, queue and priorityClassName as written;
  // they are defaulted here, and w.policies set from `job_policies`.
  VolcanoJobAdmission(OperatorWorkload& w, std::vector<VolcanoPolicy> job_policies);

  // The next task, admitted into w.roles. False when the webhook stops at it
  // (a duplicated name): the tasks after it are not read.
  bool AddTask(VolcanoTask task);

  // spec.minAvailable as written: defaulted into w.min_available, and the
  // Job's own checks. What the webhook denies the Job with (its reasons run
  // together, each ending in ";"), or "" when it is admitted.
  std::string Finish(std::optional<int64_t> min_available);

 private:
  OperatorWorkload& w_;
  std::vector<VolcanoPolicy> job_policies_;
  std::string denied_;
  int64_t total_ = 0;    // replicas of the tasks read
  int64_t sum_min_ = 0;  // their minAvailable
  std::vector<std::string> names_;
  size_t tasks_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_VOLCANO_JOB_ADMISSION_H_
