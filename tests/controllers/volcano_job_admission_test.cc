// VolcanoJobAdmission (src/controllers/volcano_job_admission.cc) on decoded
// Jobs, without a file: the mutating webhook's defaults, createJobPod's
// inheritance, and the validating webhook's job-level denials in its order.
// The same through the loader, with the rejection kubectl prints, are in
// operator_expansion_test.cc and volcano_policies_test.cc.
#include "gpusched/controllers/volcano_job_admission.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace gpusched {
namespace {

VolcanoTask Task(std::string name, int64_t replicas, std::optional<int64_t> min = std::nullopt) {
  VolcanoTask t;
  t.role.name = std::move(name);
  t.role.replicas = replicas;
  t.min_available = min;
  return t;
}

TEST(VolcanoJobAdmissionTest, DefaultsAndDenials) {
  struct Case {
    const char* name;
    std::vector<VolcanoTask> tasks;
    std::optional<int64_t> min_available;
    std::string want;  // roles (name replicas/min scheduler); job minAvailable; tasks read | denial
  };
  const Case cases[] = {
      {"defaults: task names default<i>, minAvailable its replicas, the job's the sum",
       {Task("", 2), Task("", 3, 1)}, std::nullopt, "default0 2/2 volcano, default1 3/1 volcano; min 3; read 2 | "},
      {"spec.minAvailable 0 is not given", {Task("a", 2)}, 0, "a 2/2 volcano; min 2; read 1 | "},
      {"no task", {}, std::nullopt, "; min -; read 0 | No task specified in job spec"},
      {"a task's minAvailable above its replicas, and the job's above the total", {Task("a", 1, 2)}, 5,
       "a 1/2 volcano; min 5; read 1 |  'minAvailable' is greater than 'replicas' in task: a, job: vj; job "
       "'minAvailable' should not be greater than total replicas in tasks;"},
      {"a duplicated name stops the walk: the task after it is not read", {Task("a", 1), Task("a", 1), Task("b", 1)},
       std::nullopt, "a 1/1 volcano; min 2; read 2 |  duplicated task name a;"},
  };
  for (const Case& c : cases) {
    OperatorWorkload w;
    w.kind = OperatorKind::kVolcanoJob;
    w.meta.name = "vj";
    VolcanoJobAdmission admission(w, {});
    size_t read = 0;
    for (const VolcanoTask& t : c.tasks) {
      ++read;
      if (!admission.AddTask(t)) break;
    }
    const std::string denied = admission.Finish(c.min_available);
    std::string got;
    for (size_t i = 0; i < w.roles.size(); ++i)
      got += (i ? ", " : "") + w.roles[i].name + " " + std::to_string(w.roles[i].replicas) + "/" +
             std::to_string(w.roles[i].min_available.value_or(-1)) + " " + w.roles[i].tmpl.scheduler_name;
    got += "; min " + (w.min_available ? std::to_string(*w.min_available) : std::string("-")) + "; read " +
           std::to_string(read) + " | " + denied;
    EXPECT_EQ(got, c.want) << c.name;
    EXPECT_EQ(w.scheduler_name, "volcano") << c.name;
    EXPECT_EQ(w.queue, "default") << c.name;
  }
}

TEST(VolcanoJobAdmissionTest, TemplatesTakeTheJobsSchedulerAndPriorityClass) {
  OperatorWorkload w;
  w.scheduler_name = "my-volcano";
  w.queue = "q";
  w.priority_class = "high";
  VolcanoJobAdmission admission(w, {});
  VolcanoTask plain = Task("plain", 1);  // names neither: both from the Job
  VolcanoTask own = Task("own", 1);      // names its own scheduler and class
  own.role.tmpl.scheduler_name = "other";
  own.role.tmpl.priority_class_name = "low";
  own.template_names_scheduler = true;
  VolcanoTask default_named = Task("default-named", 1);  // says default-scheduler itself: kept
  default_named.template_names_scheduler = true;
  for (VolcanoTask* t : {&plain, &own, &default_named}) EXPECT_TRUE(admission.AddTask(*t));
  EXPECT_EQ(admission.Finish(std::nullopt), "");
  std::string got;
  for (const OperatorRole& r : w.roles)
    got += r.name + ":" + r.tmpl.scheduler_name + "/" + r.tmpl.priority_class_name + " ";
  EXPECT_EQ(got, "plain:my-volcano/high own:other/low default-named:default-scheduler/high ");
  EXPECT_EQ(w.queue, "q");
}

TEST(VolcanoJobAdmissionTest, PoliciesBecomeRestartRulesAndAreChecked) {
  OperatorWorkload w;
  VolcanoPolicy job;
  job.events = {"PodEvicted"};
  job.has_event = true;
  job.action = "RestartJob";
  VolcanoJobAdmission admission(w, {job});
  VolcanoTask t = Task("t", 1);
  VolcanoPolicy bad;
  bad.exit_code = 0;
  bad.action = "RestartTask";
  t.policies = {bad};
  EXPECT_TRUE(admission.AddTask(t));
  const std::string valid =
      " valid events are [* PodFailed PodEvicted PodPending Unknown TaskCompleted TaskFailed JobUpdated], valid "
      "actions are [AbortJob RestartJob RestartTask RestartPod RestartPartition TerminateJob CompleteJob ResumeJob];";
  EXPECT_EQ(admission.Finish(std::nullopt), "1 error occurred:\n\t* 0 is not a valid error code\n\n" + valid);
  ASSERT_EQ(w.policies.size(), 1u);
  EXPECT_EQ(w.policies[0], std::make_pair(std::string("PodEvicted"), std::string("RestartJob")));
  ASSERT_EQ(w.roles.size(), 1u);
  EXPECT_TRUE(w.roles[0].policies.empty());  // an exit-code policy names no event
}

}  // namespace
}  // namespace gpusched
