// The gang and preemption examples (examples/gang/, examples/preemption/)
// as the loader reads them, exactly: the pods each operator creates, with
// their links, the gangs, the PDBs. Each file alone, so that a change to one
// example shows in its own case.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gang_test_util.h"
#include "gpusched/model/pdb.h"

namespace gpusched {
namespace {

using namespace gang_test;

// The preemption examples name PriorityClasses defined in their own file,
// loaded with them as the README's command does.
Manifests LoadExample(const std::string& relative) {
  Manifests m;
  const std::string root = std::string(GPUSCHED_SOURCE_DIR) + "/";
  std::vector<std::string> paths;
  if (relative.rfind("examples/preemption/", 0) == 0) paths.push_back(root + "examples/preemption/priorityclasses.yaml");
  paths.push_back(root + relative);
  EXPECT_TRUE(LoadManifestPaths(paths, LoadOptions{}, m).ok()) << relative;
  return m;
}

std::string IntOrPct(const IntOrPercent& v) { return std::to_string(v.value) + (v.percent ? "%" : ""); }

std::string Pdbs(const Manifests& m) {
  std::string s;
  for (const LoadedPdb& p : m.pdbs) {
    s += p.pdb.meta.namespace_ + "/" + p.pdb.meta.name;
    if (p.pdb.min_available) s += " minAvailable=" + IntOrPct(*p.pdb.min_available);
    if (p.pdb.max_unavailable) s += " maxUnavailable=" + IntOrPct(*p.pdb.max_unavailable);
    s += "\n";
  }
  return s;
}

// Paths relative to the source tree, so that the expected text does not
// depend on where it is checked out.
std::string Relative(std::string s) {
  const std::string root = std::string(GPUSCHED_SOURCE_DIR) + "/";
  for (size_t p = s.find(root); p != std::string::npos; p = s.find(root, p)) s.erase(p, root.size());
  return s;
}

std::string All(const Manifests& m) {
  return Relative("pods:\n" + Pods(m) + "gangs:\n" + Gangs(m) + "operators:\n" + Operators(m) + "pdbs:\n" + Pdbs(m) +
                  "rejected:\n" + Rejections(m) + "warnings:\n" + Warnings(m));
}

TEST(GangExamplesTest, EachExampleAsLoaded) {
  struct Case {
    const char* file;
    const char* want;
  };
  const Case cases[] = {
      {"examples/gang/pytorchjob.yaml",
       "pods:\n"
       "training/pytorch-dist-mnist-nccl-master-0 owner=PyTorchJob/pytorch-dist-mnist-nccl ref=PyTorchJob/pytorch-dist-mnist-nccl training.kubeflow.org/replica-type=master training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master\n"
       "training/pytorch-dist-mnist-nccl-worker-0 owner=PyTorchJob/pytorch-dist-mnist-nccl ref=PyTorchJob/pytorch-dist-mnist-nccl training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0\n"
       "training/pytorch-dist-mnist-nccl-worker-1 owner=PyTorchJob/pytorch-dist-mnist-nccl ref=PyTorchJob/pytorch-dist-mnist-nccl training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1\n"
       "training/pytorch-dist-mnist-nccl-worker-2 owner=PyTorchJob/pytorch-dist-mnist-nccl ref=PyTorchJob/pytorch-dist-mnist-nccl training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=2\n"
       "gangs:\n"
       "training/pytorch-dist-mnist-nccl [no group object] min 4 owner PyTorchJob/training/pytorch-dist-mnist-nccl implied: training/pytorch-dist-mnist-nccl-master-0 training/pytorch-dist-mnist-nccl-worker-0 training/pytorch-dist-mnist-nccl-worker-1 training/pytorch-dist-mnist-nccl-worker-2\n"
       "operators:\n"
       "PyTorchJob/training/pytorch-dist-mnist-nccl (examples/gang/pytorchjob.yaml:7): Master 1, Worker 3 (4 pods), 0 present: creates 4; group: none created (its pods are scheduled by default-scheduler)\n"
       "  had:\n"
       "  created: training/pytorch-dist-mnist-nccl-master-0 training/pytorch-dist-mnist-nccl-worker-0 training/pytorch-dist-mnist-nccl-worker-1 training/pytorch-dist-mnist-nccl-worker-2\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/kai-pytorchjob.yaml",
       "pods:\n"
       "training/pytorch-dist-mnist-kai-master-0 owner=PyTorchJob/pytorch-dist-mnist-kai ref=PyTorchJob/pytorch-dist-mnist-kai scheduler=kai-scheduler kai.scheduler/subgroup-name=master training.kubeflow.org/replica-type=master training.kubeflow.org/replica-index=0 training.kubeflow.org/job-role=master @pod-group-name=pg-pytorch-dist-mnist-kai\n"
       "training/pytorch-dist-mnist-kai-worker-0 owner=PyTorchJob/pytorch-dist-mnist-kai ref=PyTorchJob/pytorch-dist-mnist-kai scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=0 @pod-group-name=pg-pytorch-dist-mnist-kai\n"
       "training/pytorch-dist-mnist-kai-worker-1 owner=PyTorchJob/pytorch-dist-mnist-kai ref=PyTorchJob/pytorch-dist-mnist-kai scheduler=kai-scheduler kai.scheduler/subgroup-name=worker training.kubeflow.org/replica-type=worker training.kubeflow.org/replica-index=1 @pod-group-name=pg-pytorch-dist-mnist-kai\n"
       "gangs:\n"
       "training/pg-pytorch-dist-mnist-kai [PodGroup scheduling.run.ai/v2alpha2] min 3 owner PyTorchJob/training/pytorch-dist-mnist-kai implied {master 1} {worker 2}: training/pytorch-dist-mnist-kai-master-0(master) training/pytorch-dist-mnist-kai-worker-0(worker) training/pytorch-dist-mnist-kai-worker-1(worker)\n"
       "operators:\n"
       "PyTorchJob/training/pytorch-dist-mnist-kai (examples/gang/kai-pytorchjob.yaml:4): Master 1, Worker 2 (3 pods), 0 present: creates 3; group: PodGroup scheduling.run.ai/v2alpha2 pg-pytorch-dist-mnist-kai\n"
       "  had:\n"
       "  created: training/pytorch-dist-mnist-kai-master-0 training/pytorch-dist-mnist-kai-worker-0 training/pytorch-dist-mnist-kai-worker-1\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/volcano-job.yaml",
       "pods:\n"
       "training/mnist-training-trainer-0 owner=Job.batch.volcano.sh/mnist-training ref=Job/mnist-training scheduler=volcano volcano.sh/task-index=0 @scheduling.k8s.io/group-name=mnist-training @volcano.sh/task-spec=trainer\n"
       "training/mnist-training-trainer-1 owner=Job.batch.volcano.sh/mnist-training ref=Job/mnist-training scheduler=volcano volcano.sh/task-index=1 @scheduling.k8s.io/group-name=mnist-training @volcano.sh/task-spec=trainer\n"
       "training/mnist-training-trainer-2 owner=Job.batch.volcano.sh/mnist-training ref=Job/mnist-training scheduler=volcano volcano.sh/task-index=2 @scheduling.k8s.io/group-name=mnist-training @volcano.sh/task-spec=trainer\n"
       "training/mnist-training-trainer-3 owner=Job.batch.volcano.sh/mnist-training ref=Job/mnist-training scheduler=volcano volcano.sh/task-index=3 @scheduling.k8s.io/group-name=mnist-training @volcano.sh/task-spec=trainer\n"
       "gangs:\n"
       "training/mnist-training [PodGroup scheduling.volcano.sh/v1beta1] min 4 queue default owner Job.batch.volcano.sh/training/mnist-training implied restarts-whole {trainer 4}: training/mnist-training-trainer-0(trainer) training/mnist-training-trainer-1(trainer) training/mnist-training-trainer-2(trainer) training/mnist-training-trainer-3(trainer)\n"
       "operators:\n"
       "Job.batch.volcano.sh/training/mnist-training (examples/gang/volcano-job.yaml:6): trainer 4 (4 pods), 0 present: creates 4; group: PodGroup scheduling.volcano.sh/v1beta1 mnist-training\n"
       "  had:\n"
       "  created: training/mnist-training-trainer-0 training/mnist-training-trainer-1 training/mnist-training-trainer-2 training/mnist-training-trainer-3\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/volcano-podgroup.yaml",
       "pods:\n"
       "serving/inference-pair-0 scheduler=volcano @scheduling.k8s.io/group-name=inference-pair\n"
       "serving/inference-pair-1 scheduler=volcano @scheduling.k8s.io/group-name=inference-pair\n"
       "gangs:\n"
       "serving/inference-pair [PodGroup scheduling.volcano.sh/v1beta1] min 2 queue default min nvidia.com/gpu=8: serving/inference-pair-0 serving/inference-pair-1\n"
       "operators:\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/volcano-ps-worker.yaml",
       "pods:\n"
       "training/ps-job-worker-0 scheduler=volcano @scheduling.k8s.io/group-name=ps-job @volcano.sh/task-spec=worker\n"
       "training/ps-job-worker-1 scheduler=volcano @scheduling.k8s.io/group-name=ps-job @volcano.sh/task-spec=worker\n"
       "training/ps-job-worker-2 scheduler=volcano @scheduling.k8s.io/group-name=ps-job @volcano.sh/task-spec=worker\n"
       "training/ps-job-ps-0 scheduler=volcano @scheduling.k8s.io/group-name=ps-job @volcano.sh/task-spec=ps\n"
       "gangs:\n"
       "training/ps-job [PodGroup scheduling.volcano.sh/v1beta1] min 3 queue default {ps 1} {worker 2}: "
       "training/ps-job-worker-0(worker) training/ps-job-worker-1(worker) training/ps-job-worker-2(worker) "
       "training/ps-job-ps-0(ps)\n"
       "operators:\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/coscheduling.yaml",
       "pods:\n"
       "training/nccl-allreduce-lnlm8 owner=ReplicaSet/nccl-allreduce ref=ReplicaSet/nccl-allreduce scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=nccl-allreduce\n"
       "training/nccl-allreduce-v4njd owner=ReplicaSet/nccl-allreduce ref=ReplicaSet/nccl-allreduce scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=nccl-allreduce\n"
       "training/nccl-allreduce-zsftw owner=ReplicaSet/nccl-allreduce ref=ReplicaSet/nccl-allreduce scheduler=scheduler-plugins-scheduler scheduling.x-k8s.io/pod-group=nccl-allreduce\n"
       "gangs:\n"
       "training/nccl-allreduce [PodGroup scheduling.x-k8s.io/v1alpha1] min 3 timeout 10s: training/nccl-allreduce-lnlm8 training/nccl-allreduce-v4njd training/nccl-allreduce-zsftw\n"
       "operators:\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/kai-podgroup.yaml",
       "pods:\n"
       "serving/disagg-llm-prefill-0 scheduler=kai-scheduler kai.scheduler/subgroup-name=prefill @pod-group-name=disagg-llm\n"
       "serving/disagg-llm-decode-0 scheduler=kai-scheduler kai.scheduler/subgroup-name=decode @pod-group-name=disagg-llm\n"
       "serving/disagg-llm-decode-1 scheduler=kai-scheduler kai.scheduler/subgroup-name=decode @pod-group-name=disagg-llm\n"
       "gangs:\n"
       "serving/disagg-llm [PodGroup scheduling.run.ai/v2alpha2] min 3 queue default-queue priority inference {prefill 1} {decode 2}: serving/disagg-llm-prefill-0(prefill) serving/disagg-llm-decode-0(decode) serving/disagg-llm-decode-1(decode)\n"
       "operators:\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/workload.yaml",
       "pods:\n"
       "training/training-job-0-xp4kj owner=Job/training-job ref=Job/training-job workloadRef=training-job-workload/workers\n"
       "training/training-job-1-956gn owner=Job/training-job ref=Job/training-job workloadRef=training-job-workload/workers\n"
       "training/training-job-2-dvvr8 owner=Job/training-job ref=Job/training-job workloadRef=training-job-workload/workers\n"
       "training/training-job-3-nbznd owner=Job/training-job ref=Job/training-job workloadRef=training-job-workload/workers\n"
       "gangs:\n"
       "training/training-job-workload/workers [Workload scheduling.k8s.io/v1alpha1] min 4 timeout 300s: training/training-job-0-xp4kj training/training-job-1-956gn training/training-job-2-dvvr8 training/training-job-3-nbznd\n"
       "operators:\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/workload-v1alpha2.yaml",
       "pods:\n"
       "training/finetune-worker-0 schedulingGroup=finetune-workers\n"
       "training/finetune-worker-1 schedulingGroup=finetune-workers\n"
       "gangs:\n"
       "training/finetune-workers [PodGroup scheduling.k8s.io/v1alpha2] min 2 timeout 300s: training/finetune-worker-0 training/finetune-worker-1\n"
       "operators:\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/jobset.yaml",
       "pods:\n"
       "training/pytorch-workers-0-0-rkp7k owner=Job/pytorch-workers-0 ref=Job/pytorch-workers-0 jobset.sigs.k8s.io/job-index=0\n"
       "training/pytorch-workers-0-1-4xr4p owner=Job/pytorch-workers-0 ref=Job/pytorch-workers-0 jobset.sigs.k8s.io/job-index=0\n"
       "training/pytorch-workers-0-2-7pjfb owner=Job/pytorch-workers-0 ref=Job/pytorch-workers-0 jobset.sigs.k8s.io/job-index=0\n"
       "training/pytorch-workers-0-3-h6lbg owner=Job/pytorch-workers-0 ref=Job/pytorch-workers-0 jobset.sigs.k8s.io/job-index=0\n"
       "gangs:\n"
       "training/pytorch [no group object] min 4 owner JobSet/training/pytorch implied {workers 4}: training/pytorch-workers-0-0-rkp7k training/pytorch-workers-0-1-4xr4p training/pytorch-workers-0-2-7pjfb training/pytorch-workers-0-3-h6lbg\n"
       "operators:\n"
       "JobSet/training/pytorch (examples/gang/jobset.yaml:6): workers 1 Jobs (4 pods); group: none created (its pods are scheduled by default-scheduler)\n"
       "  had:\n"
       "  created: training/pytorch-workers-0-0-rkp7k training/pytorch-workers-0-1-4xr4p training/pytorch-workers-0-2-7pjfb training/pytorch-workers-0-3-h6lbg\n"
       "  children: Job/training/pytorch-workers-0\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/gang/leaderworkerset.yaml",
       "pods:\n"
       "serving/lws-sample-volcano-0 owner=StatefulSet/lws-sample-volcano ref=StatefulSet/lws-sample-volcano scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=0 leaderworkerset.sigs.k8s.io/worker-index=0 @scheduling.k8s.io/group-name=lws-sample-volcano-0-gldv2pxnk2\n"
       "serving/lws-sample-volcano-1 owner=StatefulSet/lws-sample-volcano ref=StatefulSet/lws-sample-volcano scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=1 leaderworkerset.sigs.k8s.io/worker-index=0 @scheduling.k8s.io/group-name=lws-sample-volcano-1-gldv2pxnk2\n"
       "serving/lws-sample-volcano-0-1 owner=StatefulSet/lws-sample-volcano-0 ref=StatefulSet/lws-sample-volcano-0 scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=0 @scheduling.k8s.io/group-name=lws-sample-volcano-0-gldv2pxnk2\n"
       "serving/lws-sample-volcano-0-2 owner=StatefulSet/lws-sample-volcano-0 ref=StatefulSet/lws-sample-volcano-0 scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=0 @scheduling.k8s.io/group-name=lws-sample-volcano-0-gldv2pxnk2\n"
       "serving/lws-sample-volcano-0-3 owner=StatefulSet/lws-sample-volcano-0 ref=StatefulSet/lws-sample-volcano-0 scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=0 @scheduling.k8s.io/group-name=lws-sample-volcano-0-gldv2pxnk2\n"
       "serving/lws-sample-volcano-1-1 owner=StatefulSet/lws-sample-volcano-1 ref=StatefulSet/lws-sample-volcano-1 scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=1 @scheduling.k8s.io/group-name=lws-sample-volcano-1-gldv2pxnk2\n"
       "serving/lws-sample-volcano-1-2 owner=StatefulSet/lws-sample-volcano-1 ref=StatefulSet/lws-sample-volcano-1 scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=1 @scheduling.k8s.io/group-name=lws-sample-volcano-1-gldv2pxnk2\n"
       "serving/lws-sample-volcano-1-3 owner=StatefulSet/lws-sample-volcano-1 ref=StatefulSet/lws-sample-volcano-1 scheduler=volcano leaderworkerset.sigs.k8s.io/group-index=1 @scheduling.k8s.io/group-name=lws-sample-volcano-1-gldv2pxnk2\n"
       "gangs:\n"
       "serving/lws-sample-volcano-0-gldv2pxnk2 [PodGroup scheduling.volcano.sh/v1beta1] min 4 owner LeaderWorkerSet/serving/lws-sample-volcano implied restarts-whole: serving/lws-sample-volcano-0 serving/lws-sample-volcano-0-1 serving/lws-sample-volcano-0-2 serving/lws-sample-volcano-0-3\n"
       "serving/lws-sample-volcano-1-gldv2pxnk2 [PodGroup scheduling.volcano.sh/v1beta1] min 4 owner LeaderWorkerSet/serving/lws-sample-volcano implied restarts-whole: serving/lws-sample-volcano-1 serving/lws-sample-volcano-1-1 serving/lws-sample-volcano-1-2 serving/lws-sample-volcano-1-3\n"
       "operators:\n"
       "LeaderWorkerSet/serving/lws-sample-volcano (examples/gang/leaderworkerset.yaml:5): 2 groups of 4 (8 pods); group: PodGroup scheduling.volcano.sh/v1beta1 lws-sample-volcano-0-gldv2pxnk2 ...\n"
       "  had:\n"
       "  created: serving/lws-sample-volcano-0 serving/lws-sample-volcano-0-1 serving/lws-sample-volcano-0-2 serving/lws-sample-volcano-0-3 serving/lws-sample-volcano-1 serving/lws-sample-volcano-1-1 serving/lws-sample-volcano-1-2 serving/lws-sample-volcano-1-3\n"
       "  children: StatefulSet/serving/lws-sample-volcano StatefulSet/serving/lws-sample-volcano-0 StatefulSet/serving/lws-sample-volcano-1\n"
       "pdbs:\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/preemption/training.yaml",
       "pods:\n"
       "training/llm-pretrain-0-5p9gs owner=Job/llm-pretrain ref=Job/llm-pretrain\n"
       "training/llm-pretrain-1-sb7kn owner=Job/llm-pretrain ref=Job/llm-pretrain\n"
       "training/llm-pretrain-2-jv4nj owner=Job/llm-pretrain ref=Job/llm-pretrain\n"
       "training/llm-pretrain-3-8gzrd owner=Job/llm-pretrain ref=Job/llm-pretrain\n"
       "gangs:\n"
       "operators:\n"
       "pdbs:\n"
       "training/llm-pretrain minAvailable=3\n"
       "rejected:\n"
       "warnings:\n"},
      {"examples/preemption/inference.yaml",
       "pods:\n"
       "serving/llm-inference-nz7rhjqthn-qbd8g owner=Deployment/llm-inference ref=Deployment/llm-inference\n"
       "serving/llm-inference-nz7rhjqthn-gv9bc owner=Deployment/llm-inference ref=Deployment/llm-inference\n"
       "gangs:\n"
       "operators:\n"
       "pdbs:\n"
       "serving/llm-inference maxUnavailable=50%\n"
       "rejected:\n"
       "warnings:\n"},
  };
  for (const Case& c : cases) EXPECT_EQ(All(LoadExample(c.file)), c.want) << c.file;
}

}  // namespace
}  // namespace gpusched
