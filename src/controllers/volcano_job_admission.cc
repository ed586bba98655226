#include "gpusched/controllers/volcano_job_admission.h"

#include <algorithm>
#include <utility>

#include "gpusched/controllers/operator_expansion.h"
#include "gpusched/util/saturate.h"

namespace gpusched {

VolcanoJobAdmission::VolcanoJobAdmission(OperatorWorkload& w, std::vector<VolcanoPolicy> job_policies)
    : w_(w), job_policies_(std::move(job_policies)) {
  if (w_.scheduler_name.empty()) w_.scheduler_name = kVolcanoSchedulerName;  // patchDefaultScheduler
  if (w_.queue.empty()) w_.queue = "default";                               // patchDefaultQueue
  w_.policies = PolicyEventActions(job_policies_);
}

bool VolcanoJobAdmission::AddTask(VolcanoTask task) {
  OperatorRole& r = task.role;
  if (r.name.empty()) r.name = "default" + std::to_string(tasks_);  // mutateSpec: DefaultTaskSpec + index
  ++tasks_;
  r.min_available = SaturateInt32(task.min_available.value_or(r.replicas));
  r.policies = PolicyEventActions(task.policies);
  if (r.tmpl.scheduler_name == kDefaultSchedulerName && !task.template_names_scheduler)
    r.tmpl.scheduler_name = w_.scheduler_name;  // createJobPod: the Job's when the template names none
  if (r.tmpl.priority_class_name.empty()) r.tmpl.priority_class_name = w_.priority_class;
  if (*r.min_available > r.replicas)
    denied_ += " 'minAvailable' is greater than 'replicas' in task: " + r.name + ", job: " + w_.name() + ";";
  total_ += r.replicas;
  sum_min_ += *r.min_available;
  if (std::find(names_.begin(), names_.end(), r.name) != names_.end()) {
    denied_ += " duplicated task name " + r.name + ";";
    return false;
  }
  names_.push_back(r.name);
  denied_ += ValidateVolcanoPolicies(task.policies, "spec.tasks.policies");
  w_.roles.push_back(std::move(r));
  return true;
}

std::string VolcanoJobAdmission::Finish(std::optional<int64_t> min_available) {
  if (tasks_ == 0) return "No task specified in job spec";
  // patchDefaultMinAvailable: the tasks' minAvailable (or replicas) summed.
  w_.min_available = SaturateInt32(min_available && *min_available != 0 ? *min_available : sum_min_);
  if (total_ < *w_.min_available) denied_ += " job 'minAvailable' should not be greater than total replicas in tasks;";
  denied_ += ValidateVolcanoPolicies(job_policies_, "spec.policies");
  return denied_;
}

}  // namespace gpusched
