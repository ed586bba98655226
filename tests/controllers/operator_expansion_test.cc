// Kubeflow TFJob, MPIJob and PyTorchJob (kubeflow.org/v1) as
// ExpandWorkloads expands them: the pods their operator creates, named as
// training-operator names them, and the gang they form with its minimum.
//  - Pod names: GenGeneralName (kubeflow/training-operator pkg/core/utils.go)
//    "<job>-<replica type lowercased>-<index>"; the v1 MPIJob controller
//    (pkg/controller.v1/mpi/mpijob_controller.go, newLauncher and
//    getOrCreateWorker) names its launcher "<job>-launcher" and its workers
//    "<job>-worker-<i>".
//  - Gang minimum: runPolicy.schedulingPolicy.minAvailable, else every
//    replica.
//  - Checks: the webhooks of pkg/webhooks/<framework>; the v1 MPIJob has
//    none, and its controller's ValidateV1MpiJobSpec refuses it instead.
#include <gtest/gtest.h>

#include "../io/gang_test_util.h"

namespace gpusched {
namespace {

using namespace gang_test;

// One replica spec: `replicas` pods of container `container` with one GPU.
std::string Replica(const std::string& type, int replicas, const std::string& container,
                    const std::string& scheduler = "") {
  return "    " + type + ":\n      replicas: " + std::to_string(replicas) +
         "\n      template:\n        spec:\n" + (scheduler.empty() ? "" : "          schedulerName: " + scheduler + "\n") +
         "          containers:\n          - name: " + container +
         "\n            image: x\n            resources: {limits: {nvidia.com/gpu: 1}}\n";
}

TEST(KubeflowExpansionTest, PodsAndGangs) {
  struct Case {
    const char* name;
    std::string text;
    std::string want;
  };
  const Case cases[] = {
      {"TFJob: Chief, PS, Worker (keys in any case), one gang of every replica",
       "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: tfj, namespace: ml}\nspec:\n  tfReplicaSpecs:\n" +
           Replica("worker", 2, "tensorflow") + Replica("ps", 1, "tensorflow") + Replica("Chief", 1, "tensorflow"),
       "pods:\n"
       "ml/tfj-chief-0 owner=TFJob/tfj ref=TFJob/tfj training.kubeflow.org/replica-type=chief training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master\n"
       "ml/tfj-ps-0 owner=TFJob/tfj ref=TFJob/tfj training.kubeflow.org/replica-type=ps training.kubeflow.org/replica-index=0\n"
       "ml/tfj-worker-0 owner=TFJob/tfj ref=TFJob/tfj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0\n"
       "ml/tfj-worker-1 owner=TFJob/tfj ref=TFJob/tfj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1\n"
       "gangs:\n"
       "ml/tfj [no group object] min 4 owner TFJob/ml/tfj implied: ml/tfj-chief-0 ml/tfj-ps-0 ml/tfj-worker-0 ml/tfj-worker-1\n"},
      {"MPIJob under Volcano: <job>-launcher and <job>-worker-<i>, PodGroup named after the job",
       "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: mpij, namespace: ml}\nspec:\n  mpiReplicaSpecs:\n" +
           Replica("Launcher", 1, "mpi", "volcano") + Replica("Worker", 3, "mpi", "volcano"),
       "pods:\n"
       "ml/mpij-launcher owner=MPIJob/mpij ref=MPIJob/mpij scheduler=volcano training.kubeflow.org/replica-type=launcher training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master @scheduling.k8s.io/group-name=mpij @volcano.sh/task-spec=launcher\n"
       "ml/mpij-worker-0 owner=MPIJob/mpij ref=MPIJob/mpij scheduler=volcano training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0 @scheduling.k8s.io/group-name=mpij @volcano.sh/task-spec=worker\n"
       "ml/mpij-worker-1 owner=MPIJob/mpij ref=MPIJob/mpij scheduler=volcano training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1 @scheduling.k8s.io/group-name=mpij @volcano.sh/task-spec=worker\n"
       "ml/mpij-worker-2 owner=MPIJob/mpij ref=MPIJob/mpij scheduler=volcano training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=2 @scheduling.k8s.io/group-name=mpij @volcano.sh/task-spec=worker\n"
       "gangs:\n"
       "ml/mpij [PodGroup scheduling.volcano.sh/v1beta1] min 4 queue default owner MPIJob/ml/mpij implied: ml/mpij-launcher(launcher) ml/mpij-worker-0(worker) ml/mpij-worker-1(worker) ml/mpij-worker-2(worker)\n"},
      {"PyTorchJob, Master 1 + Worker 4, minAvailable 3 under Coscheduling: minMember 3 of 5",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ptj, namespace: ml}\nspec:\n  runPolicy:\n"
       "    schedulingPolicy: {minAvailable: 3, scheduleTimeoutSeconds: 30}\n  pytorchReplicaSpecs:\n" +
           Replica("Master", 1, "pytorch", "scheduler-plugins-scheduler") +
           Replica("Worker", 4, "pytorch", "scheduler-plugins-scheduler"),
       "pods:\n"
       "ml/ptj-master-0 owner=PyTorchJob/ptj ref=PyTorchJob/ptj scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ptj training.kubeflow.org/replica-type=master training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master\n"
       "ml/ptj-worker-0 owner=PyTorchJob/ptj ref=PyTorchJob/ptj scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ptj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0\n"
       "ml/ptj-worker-1 owner=PyTorchJob/ptj ref=PyTorchJob/ptj scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ptj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1\n"
       "ml/ptj-worker-2 owner=PyTorchJob/ptj ref=PyTorchJob/ptj scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ptj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=2\n"
       "ml/ptj-worker-3 owner=PyTorchJob/ptj ref=PyTorchJob/ptj scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ptj training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=3\n"
       "gangs:\n"
       "ml/ptj [PodGroup scheduling.x-k8s.io/v1alpha1] min 3 timeout 30s owner PyTorchJob/ml/ptj implied: ml/ptj-master-0 ml/ptj-worker-0 ml/ptj-worker-1 ml/ptj-worker-2 ml/ptj-worker-3\n"},
      {"MPIJob with containers not named mpi (Horovod's elastic example in training-operator's examples/mpi): no "
       "webhook for the v1 MPIJob, its controller accepts it",
       "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: hvd, namespace: ml}\nspec:\n  mpiReplicaSpecs:\n" +
           Replica("Launcher", 1, "mpi-launcher") + Replica("Worker", 2, "mpi-worker"),
       "pods:\n"
       "ml/hvd-launcher owner=MPIJob/hvd ref=MPIJob/hvd training.kubeflow.org/replica-type=launcher training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master\n"
       "ml/hvd-worker-0 owner=MPIJob/hvd ref=MPIJob/hvd training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0\n"
       "ml/hvd-worker-1 owner=MPIJob/hvd ref=MPIJob/hvd training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1\n"
       "gangs:\n"
       "ml/hvd [no group object] min 3 owner MPIJob/ml/hvd implied: ml/hvd-launcher ml/hvd-worker-0 ml/hvd-worker-1\n"},
      {"MPIJob with 2 launchers: the controller's ValidateV1MpiJobSpec refuses it, no pod",
       "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: hvd, namespace: ml}\nspec:\n  mpiReplicaSpecs:\n" +
           Replica("Launcher", 2, "l") + Replica("Worker", 2, "w"),
       "pods:\ngangs:\n"
       "MPIJob/ml/hvd | t.yaml:1: admitted, but training-operator's MPIJob controller creates no pod for it (its event: "
       "\"MPIJob failed validation because MPIReplicaSpec is not valid: There must be only 1 launcher replica\")\n"},
      {"MPIJob without a Launcher", 
       "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: hvd, namespace: ml}\nspec:\n  mpiReplicaSpecs:\n" +
           Replica("Worker", 2, "w"),
       "pods:\ngangs:\n"
       "MPIJob/ml/hvd | t.yaml:1: admitted, but training-operator's MPIJob controller creates no pod for it (its event: "
       "\"MPIJob failed validation because MPIReplicaSpec is not valid: Master ReplicaSpec must be present\")\n"},
      {"MPIJob replica types as written: nothing renames launcher before the controller's check",
       "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: hvd, namespace: ml}\nspec:\n  mpiReplicaSpecs:\n" +
           Replica("launcher", 1, "l") + Replica("Worker", 2, "w"),
       "pods:\ngangs:\n"
       "MPIJob/ml/hvd | t.yaml:1: admitted, but training-operator's MPIJob controller creates no pod for it (its event: "
       "\"MPIJob failed validation because MPIReplicaType is launcher but must be one of [Launcher Worker]\")\n"},
      {"MPIJob without mpiReplicaSpecs: the CRD schema's required field",
       "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: hvd, namespace: ml}\nspec:\n  slotsPerWorker: 1\n",
       "pods:\ngangs:\n"
       "MPIJob/ml/hvd | t.yaml:5: The MPIJob \"hvd\" is invalid: spec.mpiReplicaSpecs: Required value\n"},
      {"elastic PyTorchJob under KAI (KAI docs/elastic/pytorch-elastic.yaml): minReplicas 1 is the gang's minimum",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ej, namespace: ml}\nspec:\n"
       "  elasticPolicy: {rdzvBackend: c10d, minReplicas: 1, maxReplicas: 3}\n  pytorchReplicaSpecs:\n" +
           Replica("Worker", 2, "pytorch", "kai-scheduler"),
       "pods:\n"
       "ml/ej-worker-0 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0 @pod-group-name=pg-ej\n"
       "ml/ej-worker-1 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1 @pod-group-name=pg-ej\n"
       "gangs:\n"
       "ml/pg-ej [PodGroup scheduling.run.ai/v2alpha2] min 1 owner PyTorchJob/ml/ej implied {worker 1}: ml/ej-worker-0(worker) ml/ej-worker-1(worker)\n"},
      {"elastic PyTorchJob under KAI, Master 1 + Worker 4, only maxReplicas 3: minReplicas defaults to 3",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ej, namespace: ml}\nspec:\n"
       "  elasticPolicy: {maxReplicas: 3}\n  pytorchReplicaSpecs:\n" +
           Replica("Master", 1, "pytorch", "kai-scheduler") + Replica("Worker", 4, "pytorch", "kai-scheduler"),
       "pods:\n"
       "ml/ej-master-0 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=master training.kubeflow.org/replica-type=master training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master @pod-group-name=pg-ej\n"
       "ml/ej-worker-0 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0 @pod-group-name=pg-ej\n"
       "ml/ej-worker-1 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1 @pod-group-name=pg-ej\n"
       "ml/ej-worker-2 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=2 @pod-group-name=pg-ej\n"
       "ml/ej-worker-3 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=3 @pod-group-name=pg-ej\n"
       "gangs:\n"
       "ml/pg-ej [PodGroup scheduling.run.ai/v2alpha2] min 3 owner PyTorchJob/ml/ej implied {master 1} {worker 2}: ml/ej-master-0(master) ml/ej-worker-0(worker) ml/ej-worker-1(worker) ml/ej-worker-2(worker) ml/ej-worker-3(worker)\n"},
      // (Its subgroup minimums, master 1 and worker 2, are enforced: GangReady. No warning.)
      {"elastic PyTorchJob under KAI with schedulingPolicy.minAvailable 2: minAvailable wins over minReplicas 1",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ej, namespace: ml}\nspec:\n"
       "  runPolicy: {schedulingPolicy: {minAvailable: 2}}\n  elasticPolicy: {minReplicas: 1}\n  pytorchReplicaSpecs:\n" +
           Replica("Worker", 3, "pytorch", "kai-scheduler"),
       "pods:\n"
       "ml/ej-worker-0 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0 @pod-group-name=pg-ej\n"
       "ml/ej-worker-1 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1 @pod-group-name=pg-ej\n"
       "ml/ej-worker-2 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=2 @pod-group-name=pg-ej\n"
       "gangs:\n"
       "ml/pg-ej [PodGroup scheduling.run.ai/v2alpha2] min 2 owner PyTorchJob/ml/ej implied {worker 2}: ml/ej-worker-0(worker) ml/ej-worker-1(worker) ml/ej-worker-2(worker)\n"},
      {"elastic PyTorchJob under Coscheduling: training-operator's PodGroup ignores minReplicas (every replica)",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ej, namespace: ml}\nspec:\n"
       "  elasticPolicy: {minReplicas: 1, maxReplicas: 3}\n  pytorchReplicaSpecs:\n" +
           Replica("Worker", 2, "pytorch", "scheduler-plugins-scheduler"),
       "pods:\n"
       "ml/ej-worker-0 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ej training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0\n"
       "ml/ej-worker-1 owner=PyTorchJob/ej ref=PyTorchJob/ej scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=ej training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1\n"
       "gangs:\n"
       "ml/ej [PodGroup scheduling.x-k8s.io/v1alpha1] min 2 owner PyTorchJob/ml/ej implied: ml/ej-worker-0 ml/ej-worker-1\n"},
      {"elasticPolicy without a Worker, and nProcPerNode with nprocPerNode: the webhook's errors",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ej, namespace: ml}\nspec:\n"
       "  nprocPerNode: \"2\"\n  elasticPolicy: {nProcPerNode: 2}\n  pytorchReplicaSpecs:\n" +
           Replica("Master", 1, "pytorch"),
       "pods:\ngangs:\n"
       "PyTorchJob/ml/ej | t.yaml:8: The PyTorchJob \"ej\" is invalid: \n"
       "* spec.pytorchReplicaSpecs[Worker]: Required value: must be configured if elastic policy is used\n"
       "* spec.elasticPolicy.nProcPerNode: Forbidden: must not be used with spec.nprocPerNode\n"},
      {"elasticPolicy before the replica specs' own errors, as validateSpec orders them",
       "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ej, namespace: ml}\nspec:\n"
       "  elasticPolicy: {minReplicas: 1}\n  pytorchReplicaSpecs:\n" + Replica("Launcher", 1, "pytorch"),
       "pods:\ngangs:\n"
       "PyTorchJob/ml/ej | t.yaml:7: The PyTorchJob \"ej\" is invalid: \n"
       "* spec.pytorchReplicaSpecs[Worker]: Required value: must be configured if elastic policy is used\n"
       "* spec.pytorchReplicaSpecs[Launcher]: Unsupported value: \"Launcher\": supported values: \"Master\", \"Worker\"\n"},
  };
  for (const Case& c : cases) {
    Manifests m = Load(c.text);
    EXPECT_EQ("pods:\n" + Pods(m) + "gangs:\n" + Gangs(m) + Rejections(m) + Warnings(m), c.want) << c.name;
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// An operator workload with only generateName is named as the API server
// names it before validation (generateName + 5 characters), here
// deterministically from what it is: the same spec gets the same name
// however its keys are ordered, a different spec another one, and
// identical ones are numbered apart.
TEST(KubeflowExpansionTest, GenerateNameNamesTheJobBeforeItsPods) {
  using namespace gang_test;
  const std::string a = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {generateName: ptj-, namespace: ml}\n"
                        "spec:\n  runPolicy: {suspend: false}\n  pytorchReplicaSpecs:\n" +
                        Replica("Worker", 1, "pytorch");
  const std::string a_reordered = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {namespace: ml, generateName: ptj-}\n"
                                  "spec:\n  pytorchReplicaSpecs:\n" + Replica("Worker", 1, "pytorch") +
                                  "  runPolicy: {suspend: false}\n";
  const std::string b = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {generateName: ptj-, namespace: ml}\n"
                        "spec:\n  pytorchReplicaSpecs:\n" + Replica("Worker", 2, "pytorch");
  Manifests ma = Load(a), mr = Load(a_reordered), mb = Load(b), twice = Load(a + "---\n" + a);
  ASSERT_EQ(Rejections(ma), "");
  ASSERT_EQ(ma.pods.size(), 1u);
  const std::string pod = ma.pods[0].pod.name();
  ASSERT_EQ(pod.size(), std::string("ptj-xxxxx-worker-0").size()) << pod;
  EXPECT_EQ(pod.substr(0, 4), "ptj-");
  EXPECT_EQ(pod.substr(9), "-worker-0");
  ASSERT_EQ(mr.pods.size(), 1u);
  EXPECT_EQ(mr.pods[0].pod.name(), pod);
  ASSERT_EQ(mb.pods.size(), 2u);
  EXPECT_NE(mb.pods[0].pod.name(), pod);
  ASSERT_EQ(twice.pods.size(), 2u) << Rejections(twice);
  EXPECT_EQ(twice.pods[0].pod.name(), pod);
  EXPECT_NE(twice.pods[1].pod.name(), pod);
}

}  // namespace
}  // namespace gpusched
