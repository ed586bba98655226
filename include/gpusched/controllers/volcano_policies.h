// Volcano Job lifecycle policies (batch.volcano.sh/v1alpha1 Job
// spec.policies and spec.tasks[i].policies), as io decodes them, checked as
// Volcano's validating webhook checks them (volcano-sh/volcano
// pkg/webhooks/admission/jobs/validate/util.go, validatePolicies, called from
// admit_job.go validateJobCreate). A Job the webhook denies never exists in a
// cluster, so the loader rejects it with the webhook's text.
#ifndef GPUSCHED_CONTROLLERS_VOLCANO_POLICIES_H_
#define GPUSCHED_CONTROLLERS_VOLCANO_POLICIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpusched {

struct VolcanoPolicy {
  std::vector<std::string> events;  // event, then events[], as written (getEventList dedupes)
  bool has_event = false;           // event or events[] given
  std::string action;
  std::optional<int64_t> exit_code;
};

// validatePolicies' error followed, as validateJobCreate appends it, by
// " valid events are [...], valid actions are [...];"; "" when valid.
// `field_path` is the webhook's: "spec.policies" or "spec.tasks.policies".
// Volcano lists the valid events and actions in Go map order (random); they
// are listed here in the order its tables declare them.
std::string ValidateVolcanoPolicies(const std::vector<VolcanoPolicy>& policies, const std::string& field_path);

// (event, action) for every event a policy names: what the Job's restart
// rules read.
std::vector<std::pair<std::string, std::string>> PolicyEventActions(const std::vector<VolcanoPolicy>& policies);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_VOLCANO_POLICIES_H_
