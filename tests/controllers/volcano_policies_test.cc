// Volcano Job lifecycle policies as Volcano's validating webhook checks them
// (volcano-sh/volcano pkg/webhooks/admission/jobs/validate/util.go
// validatePolicies, its text appended by admit_job.go validateJobCreate):
// the rule each case hits, with the webhook's exact text, through the loader
// (a denied Job is rejected and creates no pod).
#include <gtest/gtest.h>

#include "../io/gang_test_util.h"

namespace gpusched {
namespace {

using namespace gang_test;

const std::string kValid =
    " valid events are [* PodFailed PodEvicted PodPending Unknown TaskCompleted TaskFailed JobUpdated], valid actions "
    "are [AbortJob RestartJob RestartTask RestartPod RestartPartition TerminateJob CompleteJob ResumeJob];";

// A Volcano Job of one task with `task_policies` and job `policies` (YAML
// flow lists, "" for none).
std::string Job(const std::string& policies, const std::string& task_policies = "") {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vj, namespace: ml}\nspec:\n"
         "  minAvailable: 1\n" +
         (policies.empty() ? "" : "  policies: " + policies + "\n") +
         "  tasks:\n  - name: t\n    replicas: 1\n" +
         (task_policies.empty() ? "" : "    policies: " + task_policies + "\n") +
         "    template:\n      spec:\n        containers: [{name: c, image: x}]\n";
}

std::string Denied(const std::string& why) {
  return "Job.batch.volcano.sh/ml/vj | t.yaml:1: admission webhook \"validatejob.volcano.sh\" denied the request: " +
         why + "\n";
}

TEST(VolcanoPoliciesTest, WebhookTable) {
  struct Case {
    const char* name;
    std::string text;
    std::string rejected;  // "" when admitted
  };
  const Case cases[] = {
      {"valid: event and events[] naming the same event once", Job("[{event: PodEvicted, events: [PodEvicted, PodFailed], action: RestartJob}, {exitCode: 3, action: AbortJob}]"), ""},
      {"Volcano's example/invalid_jobs/duplicatedPolicyEvent-webhook-deny.yaml",
       Job("[{event: PodFailed, action: RestartJob}, {event: PodFailed, action: AbortJob}]"),
       Denied("1 error occurred:\n\t* duplicate event PodFailed  across different policy\n\n" + kValid)},
      {"an event users may not write", Job("[{event: PodRunning, action: RestartJob}]"),
       Denied("1 error occurred:\n\t* spec.policies: Invalid value: \"PodRunning\": invalid policy event\n\n" + kValid)},
      {"an action users may not write, in a task", Job("", "[{event: PodFailed, action: SyncJob}]"),
       Denied("1 error occurred:\n\t* spec.tasks.policies: Invalid value: \"SyncJob\": invalid policy action\n\n" + kValid)},
      {"event and exitCode together", Job("[{event: PodFailed, exitCode: 2, action: RestartJob}]"),
       Denied("1 error occurred:\n\t* must not specify event and exitCode simultaneously\n\n" + kValid)},
      {"neither event nor exitCode", Job("[{action: RestartJob}]"),
       Denied("1 error occurred:\n\t* either event and exitCode should be specified\n\n" + kValid)},
      {"exitCode 0", Job("[{exitCode: 0, action: RestartJob}]"),
       Denied("1 error occurred:\n\t* 0 is not a valid error code\n\n" + kValid)},
      {"an exitCode twice", Job("[{exitCode: 3, action: RestartJob}, {exitCode: 3, action: AbortJob}]"),
       Denied("1 error occurred:\n\t* duplicate exitCode 3\n\n" + kValid)},
      {"* with another event", Job("[{event: '*', action: RestartJob}, {event: PodFailed, action: AbortJob}]"),
       Denied("1 error occurred:\n\t* if there's * here, no other policy should be here\n\n" + kValid)},
      {"two errors: a duplicate stops the walk, then * with others",
       Job("[{event: PodFailed, action: AbortJob}, {event: '*', action: RestartJob}, {event: PodFailed, action: RestartJob}]"),
       Denied("2 errors occurred:\n\t* duplicate event PodFailed  across different policy\n\t* if there's * here, no "
              "other policy should be here\n\n" + kValid)},
      {"task and job policies are checked apart: the same event in both is fine",
       Job("[{event: PodFailed, action: RestartJob}]", "[{event: PodFailed, action: RestartTask}]"), ""},
      {"task then job, in the webhook's order",
       Job("[{exitCode: 0, action: RestartJob}]", "[{event: Unknown, action: CloseQueue}]"),
       Denied("1 error occurred:\n\t* spec.tasks.policies: Invalid value: \"CloseQueue\": invalid policy action\n\n" +
              kValid + "1 error occurred:\n\t* 0 is not a valid error code\n\n" + kValid)},
  };
  for (const Case& c : cases) {
    Manifests m = Load(c.text);
    EXPECT_EQ(Rejections(m), c.rejected) << c.name;
    EXPECT_EQ(m.pods.size(), c.rejected.empty() ? 1u : 0u) << c.name;
  }
}

}  // namespace
}  // namespace gpusched
