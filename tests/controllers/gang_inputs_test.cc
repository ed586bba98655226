// Gang inputs as the loader reads them: an operator's pods already in the
// dump are not created again (ownerReferences), and bad gang objects are
// refused with the file, the object and the field.
#include <gtest/gtest.h>

#include "../io/gang_test_util.h"

namespace gpusched {
namespace {

using namespace gang_test;

TEST(GangInputsTest, CasesAsLoaded) {
  struct Case {
    const char* name;
    std::string text;
    std::string want;
  };
  const Case cases[] = {
      {"a PyTorchJob whose master pod the dump holds", R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pj
  namespace: training
  uid: "1111"
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
          - name: pytorch
            image: x
            resources: {limits: {nvidia.com/gpu: 1}}
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: pytorch
            image: x
            resources: {limits: {nvidia.com/gpu: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: pj-master-0
  namespace: training
  labels: {training.kubeflow.org/replica-type: master, training.kubeflow.org/replica-index: "0"}
  ownerReferences:
  - apiVersion: kubeflow.org/v1
    kind: PyTorchJob
    name: pj
    uid: "1111"
    controller: true
spec:
  nodeName: gpu-node-1
  containers:
  - name: pytorch
    image: x
    resources: {limits: {nvidia.com/gpu: 1}}
)",
       "pods:\n"
       "training/pj-master-0 ref=PyTorchJob/pj training.kubeflow.org/replica-type=master training.kubeflow.org/replica-index=0\n"
       "training/pj-worker-0 owner=PyTorchJob/pj ref=PyTorchJob/pj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0\n"
       "training/pj-worker-1 owner=PyTorchJob/pj ref=PyTorchJob/pj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1\n"
       "gangs:\n"
       "training/pj [no group object] min 3 owner PyTorchJob/training/pj implied: training/pj-master-0 training/pj-worker-0 training/pj-worker-1\n"
       "operators:\n"
       "PyTorchJob/training/pj (t.yaml:1): Master 1, Worker 2 (3 pods), 1 present: creates 2; group: none created (its pods are scheduled by default-scheduler)\n"
       "  had: training/pj-master-0\n"
       "  created: training/pj-worker-0 training/pj-worker-1\n"
       "rejected:\n"
       "warnings:\n"},
      {"bad objects", R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pj2
  namespace: training
spec:
  pytorchReplicaSpecs:
    Worker:
      replicas: -2
      template:
        spec:
          containers:
          - name: pytorch
            image: x
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: pg, namespace: training}
spec: {minMember: "three"}
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: vj, namespace: training}
spec:
  minAvailable: 5
  tasks:
  - name: t
    replicas: 2
    template: {spec: {containers: [{name: c, image: x}]}}
)",
       "pods:\n"
       "gangs:\n"
       "operators:\n"
       "rejected:\n"
       "PyTorchJob/training/pj2 | t.yaml:9: The PyTorchJob \"pj2\" is invalid: spec.pytorchReplicaSpecs[Worker].replicas: Forbidden: must be at least 1\n"
       "PodGroup/training/pg | t.yaml:19: The PodGroup \"pg\" is invalid: spec.minMember: Invalid value: \"three\": spec.minMember in body must be of type integer: \"string\"\n"
       "Job.batch.volcano.sh/training/vj | t.yaml:21: admission webhook \"validatejob.volcano.sh\" denied the request: job 'minAvailable' should not be greater than total replicas in tasks;\n"
       "warnings:\n"},
  };
  for (const Case& c : cases) {
    Manifests m = Load(c.text);
    EXPECT_EQ("pods:\n" + Pods(m) + "gangs:\n" + Gangs(m) + "operators:\n" + Operators(m) + "rejected:\n" +
                  Rejections(m) + "warnings:\n" + Warnings(m),
              c.want)
        << c.name;
  }
}

// Volcano's minTaskMember and KAI's subGroups are enforced (GangReady), so
// they warn no more. What remains: a KAI member in no subgroup without
// children (KAI drops it from the job: AddTaskInfo "SubGroup not found"),
// and a KAI PodGroup or parent-subgroup minMember that asks more than the
// leaf subgroups KAI checks.
TEST(GangInputsTest, KaiSubgroupWarnings) {
  auto pod = [](const std::string& name, const std::string& links) {
    return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: ml\n" + links +
           "spec:\n  containers: [{name: c, image: x}]\n";
  };
  auto volcano = [&](const std::string& name, const std::string& task) {
    return pod(name, "  annotations: {scheduling.k8s.io/group-name: pg, volcano.sh/task-spec: " + task + "}\n");
  };
  auto kai = [&](const std::string& name, const std::string& subgroup) {
    return pod(name, "  annotations: {pod-group-name: kpg}\n  labels: {kai.scheduler/subgroup-name: " + subgroup +
                         "}\n");
  };
  struct Case {
    const char* name;
    std::string text;
    std::string want;
  };
  const std::string kpg = "apiVersion: scheduling.run.ai/v2alpha2\nkind: PodGroup\nmetadata: {name: kpg, namespace: ml}\n";
  const Case cases[] = {
      {"Volcano PodGroup with task minimums: enforced, no warning",
       "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg, namespace: ml}\n"
       "spec: {minMember: 2, minTaskMember: {worker: 1, ps: 1}}\n" +
           volcano("w-0", "worker") + volcano("w-1", "worker") + volcano("ps-0", "ps"),
       ""},
      {"KAI PodGroup: minMember 3 = master 1 + worker 2, every member in a leaf",
       kpg + "spec:\n  minMember: 3\n  subGroups:\n  - {name: master, minMember: 1}\n  - {name: worker, minMember: 2}\n" +
           kai("m-0", "master") + kai("w-0", "worker") + kai("w-1", "worker") + kai("w-2", "worker"),
       ""},
      {"KAI PodGroup: minMember above its leaves' sum is not checked",
       kpg + "spec:\n  minMember: 4\n  subGroups:\n  - {name: master, minMember: 1}\n  - {name: worker, minMember: 2}\n" +
           kai("m-0", "master") + kai("w-0", "worker") + kai("w-1", "worker") + kai("w-2", "worker"),
       "t.yaml:1: PodGroup/ml/kpg: spec.minMember (4) is not checked: with subGroups KAI checks only the minMember of "
       "each subgroup without children (3 in all), and so does gpusched\n"},
      {"KAI nested subGroups: parent decode's minMember 3 is above its leaves' 2; a pod labelled decode is in no leaf",
       kpg + "spec:\n  minMember: 3\n  subGroups:\n  - {name: decode, minMember: 3}\n"
             "  - {name: decode-leader, parent: decode, minMember: 1}\n"
             "  - {name: decode-workers, parent: decode, minMember: 1}\n  - {name: prefill, minMember: 1}\n" +
           kai("l-0", "decode-leader") + kai("w-0", "decode-workers") + kai("d-0", "decode") + kai("p-0", "prefill"),
       "t.yaml:32: Pod/ml/d-0: its label kai.scheduler/subgroup-name \"decode\" names no subgroup without children of "
       "PodGroup ml/kpg, which has subGroups: KAI leaves it out of the job (SubGroup not found) and never schedules it; "
       "gpusched places it with its gang, counting it for no subgroup's minMember\n"
       "t.yaml:1: PodGroup/ml/kpg: spec.subGroups[0].minMember (3) is not checked: subgroup decode has subgroups of its "
       "own, and KAI checks only the minMember of those without children (2 under it), and so does gpusched\n"},
      {"KAI PodGroup with subGroups: a pod without the subgroup label",
       kpg + "spec:\n  minMember: 1\n  subGroups:\n  - {name: worker, minMember: 1}\n" + kai("w-0", "worker") +
           pod("x-0", "  annotations: {pod-group-name: kpg}\n"),
       "t.yaml:19: Pod/ml/x-0: has no label kai.scheduler/subgroup-name of PodGroup ml/kpg, which has subGroups: KAI "
       "leaves it out of the job (SubGroup not found) and never schedules it; gpusched places it with its gang, "
       "counting it for no subgroup's minMember\n"},
  };
  for (const Case& c : cases) {
    Manifests m = Load(c.text);
    EXPECT_EQ(Rejections(m), "") << c.name;
    EXPECT_EQ(Warnings(m), c.want) << c.name;
  }
}

}  // namespace
}  // namespace gpusched
