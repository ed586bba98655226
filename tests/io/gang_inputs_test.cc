// Gang inputs as the loader reads them: an operator's pods already in the
// dump are not created again (ownerReferences), and bad gang objects are
// refused with the file, the object and the field.
#include <gtest/gtest.h>

#include "gang_test_util.h"

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

}  // namespace
}  // namespace gpusched
