// KAI's pod-grouper and batch/v1 Jobs (src/controllers/kai_job_groups.h): a Job
// whose pods name kai-scheduler becomes a KAI gang when its annotation
// kai.scheduler/batch-min-member asks for more than 1 (KAI's
// docs/batch/batch-job-min-member.yaml); otherwise nothing changes.
#include <gtest/gtest.h>

#include "../io/gang_test_util.h"

namespace gpusched {
namespace {

using namespace gang_test;

// A Job of `parallelism` pods (named by gpusched's generateName stand-in),
// with `annotations` (YAML flow map, "" for none) and `extra_meta` lines.
std::string Job(const std::string& annotations, const std::string& scheduler = "kai-scheduler",
                const std::string& extra_meta = "") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: bj\n  namespace: ml\n  uid: u1\n" +
         (annotations.empty() ? "" : "  annotations: " + annotations + "\n") + extra_meta +
         "spec:\n  parallelism: 3\n  completions: 3\n  template:\n    metadata: {labels: {kai.scheduler/queue: team-a}}\n"
         "    spec:\n      schedulerName: " + scheduler +
         "\n      restartPolicy: OnFailure\n      containers: [{name: main, image: x, resources: {limits: "
         "{nvidia.com/gpu: 1}}}]\n";
}

TEST(KaiJobGroupsTest, BatchMinMember) {
  struct Case {
    const char* name;
    std::string text;
    std::string want_gangs;
    std::string want_warnings;
  };
  const Case cases[] = {
      {"batch-min-member 2: one PodGroup pg-<job>-<uid> of minMember 2 over the Job's pods, queue from the pod label",
       Job("{kai.scheduler/batch-min-member: \"2\"}"),
       "ml/pg-bj-u1 [PodGroup scheduling.run.ai/v2alpha2] min 2 queue team-a owner Job/ml/bj implied: ml/bj-9kddx "
       "ml/bj-x69gs ml/bj-tfk68\n",
       ""},
      {"no annotation: minMember 1, no gang", Job(""), "", ""},
      {"batch-min-member 1: no gang", Job("{kai.scheduler/batch-min-member: \"1\"}"), "", ""},
      {"not kai-scheduler's pods: KAI's pod-grouper never sees them",
       Job("{kai.scheduler/batch-min-member: \"2\"}", "default-scheduler"), "", ""},
      {"a Job a CronJob owns: the CronJob's grouper decides",
       Job("{kai.scheduler/batch-min-member: \"2\"}", "kai-scheduler",
           "  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: cj, uid: c1, controller: true}]\n"),
       "", ""},
      {"a value KAI cannot parse: its pod-grouper fails on the Job",
       Job("{kai.scheduler/batch-min-member: two}"), "",
       "t.yaml:1: Job/ml/bj: metadata.annotations[kai.scheduler/batch-min-member] \"two\" is not an integer: KAI's "
       "pod-grouper fails on this Job (\"invalid min-member annotation value\") and KAI never schedules its pods; "
       "gpusched places them one by one\n"},
  };
  for (const Case& c : cases) {
    Manifests m = Load(c.text);
    EXPECT_EQ(Rejections(m), "") << c.name;
    EXPECT_EQ(m.pods.size(), 3u) << c.name;
    EXPECT_EQ(Gangs(m), c.want_gangs) << c.name;
    std::string warnings;
    for (const std::string& w : m.warnings)
      if (w.find("batch-min-member") != std::string::npos) warnings += w + "\n";
    EXPECT_EQ(warnings, c.want_warnings) << c.name;
  }
}

}  // namespace
}  // namespace gpusched
