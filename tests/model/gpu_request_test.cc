#include "gpusched/model/gpu_request.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gpusched/model/pod_requests.h"
#include "model_test_util.h"

namespace gpusched {
namespace {

using testing::RL;

Pod AnnotatedPod(std::map<std::string, std::string> annotations, std::string gpu_limit = "") {
  Pod p;
  p.meta.name = "p";
  p.meta.namespace_ = "default";
  for (auto& [k, v] : annotations) p.meta.annotations.emplace(k, v);
  Container c{"c", "img", RL({{"cpu", "1"}}), RL({{"cpu", "1"}}), "", {}};
  if (!gpu_limit.empty()) {
    c.limits = RL({{"cpu", "1"}, {"nvidia.com/gpu", gpu_limit}});
    c.requests = c.limits;
  }
  p.containers.push_back(c);
  return p;
}

TEST(ComputeGpuRequestTest, Spellings) {
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    std::string gpu_limit;
    GpuRequest want;
  };
  const std::vector<Case> cases = {
      {"none", {}, "", GpuRequest{}},
      {"whole nvidia.com/gpu", {}, "2", GpuRequest{1000, 2, false, {}}},
      {"trace share", {{"alibabacloud.com/gpu-milli", "250"}, {"alibabacloud.com/gpu-count", "1"}}, "",
       GpuRequest{250, 1, true, {}}},
      {"milli alone means one device", {{"alibabacloud.com/gpu-milli", "500"}}, "", GpuRequest{500, 1, true, {}}},
      {"count alone means whole devices", {{"alibabacloud.com/gpu-count", "4"}}, "", GpuRequest{1000, 4, true, {}}},
      {"KAI fraction", {{"gpu-fraction", "0.5"}}, "", GpuRequest{500, 1, true, {}}},
      {"KAI fraction on 2 devices", {{"gpu-fraction", "0.25"}, {"gpu-fraction-num-devices", "2"}}, "",
       GpuRequest{250, 2, true, {}}},
      {"KAI rounding", {{"gpu-fraction", "0.3333"}}, "", GpuRequest{333, 1, true, {}}},
      {"models", {{"alibabacloud.com/gpu-card-model", "V100M16|V100M32"}}, "1",
       GpuRequest{1000, 1, false, {"V100M16", "V100M32"}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = AnnotatedPod(c.annotations, c.gpu_limit);
    EXPECT_EQ(ComputeGpuRequest(p, PodGpuRequest(ComputePodRequests(p))), c.want);
  }
}

TEST(ValidateGpuAnnotationsTest, Messages) {
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    std::string gpu_limit;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"valid share", {{"alibabacloud.com/gpu-milli", "810"}, {"alibabacloud.com/gpu-count", "1"}}, "", {}},
      {"milli too big",
       {{"alibabacloud.com/gpu-milli", "1500"}},
       "",
       {"metadata.annotations[alibabacloud.com/gpu-milli]: Invalid value: \"1500\": must be an integer from 1 to "
        "1000 (milli-GPU per device)"}},
      {"milli not a number",
       {{"alibabacloud.com/gpu-milli", "0.5"}},
       "",
       {"metadata.annotations[alibabacloud.com/gpu-milli]: Invalid value: \"0.5\": must be an integer from 1 to "
        "1000 (milli-GPU per device)"}},
      {"count zero",
       {{"alibabacloud.com/gpu-count", "0"}},
       "",
       {"metadata.annotations[alibabacloud.com/gpu-count]: Invalid value: \"0\": must be a positive integer "
        "(number of GPU devices)"}},
      {"fraction above one",
       {{"gpu-fraction", "1.5"}},
       "",
       {"metadata.annotations[gpu-fraction]: Invalid value: \"1.5\": must be a number greater than 0 and at most 1 "
        "(fraction of one GPU)"}},
      {"fraction NaN",
       {{"gpu-fraction", "nan"}},
       "",
       {"metadata.annotations[gpu-fraction]: Invalid value: \"nan\": must be a number greater than 0 and at most 1 "
        "(fraction of one GPU)"}},
      {"fraction below a milli",
       {{"gpu-fraction", "0.0001"}},
       "",
       {"metadata.annotations[gpu-fraction]: Invalid value: \"0.0001\": must be at least 0.001 (gpusched tracks "
        "GPU shares in milli-GPU)"}},
      {"num devices without fraction",
       {{"gpu-fraction-num-devices", "2"}},
       "",
       {"metadata.annotations[gpu-fraction]: Required value: gpu-fraction-num-devices needs gpu-fraction or gpu-memory"}},
      {"both spellings",
       {{"gpu-fraction", "0.5"}, {"alibabacloud.com/gpu-milli", "500"}},
       "",
       {"metadata.annotations[gpu-fraction]: Forbidden: may not be combined with alibabacloud.com/gpu-milli or "
        "alibabacloud.com/gpu-count: give the GPU share once"}},
      {"share and nvidia.com/gpu",
       {{"alibabacloud.com/gpu-milli", "500"}},
       "1",
       {"metadata.annotations[alibabacloud.com/gpu-milli]: Forbidden: may not be combined with an nvidia.com/gpu "
        "request: ask for whole GPUs with nvidia.com/gpu or for a share with the annotation, not both"}},
      {"empty model list",
       {{"alibabacloud.com/gpu-card-model", "|"}},
       "1",
       {"metadata.annotations[alibabacloud.com/gpu-card-model]: Invalid value: \"|\": must name at least one GPU "
        "model (models are separated by |)"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> got;
    for (const auto& e : ValidateGpuAnnotations(AnnotatedPod(c.annotations, c.gpu_limit))) got.push_back(e.ToString());
    EXPECT_EQ(got, c.want);
  }
}

TEST(ValidateGpuAnnotationsTest, TemplatePathAndPodValidation) {
  Pod p = AnnotatedPod({{"gpu-fraction", "2"}});
  std::vector<FieldError> errs = ValidatePod(p, "spec.template.spec", /*validate_meta=*/false);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].field, "spec.template.metadata.annotations[gpu-fraction]");
}

TEST(GpuRequestTest, ModelsAndNodeModel) {
  GpuRequest r{1000, 1, false, {"T4", "P100"}};
  EXPECT_TRUE(r.AllowsModel("T4"));
  EXPECT_FALSE(r.AllowsModel("G2"));
  EXPECT_FALSE(r.AllowsModel(""));
  EXPECT_TRUE(GpuRequest{}.AllowsModel("anything"));
  ObjectMeta m;
  EXPECT_EQ(NodeGpuModel(m), "");
  m.labels["nvidia.com/gpu.product"] = "Tesla-T4";
  EXPECT_EQ(NodeGpuModel(m), "Tesla-T4");
  m.labels["alibabacloud.com/gpu-card-model"] = "T4";
  EXPECT_EQ(NodeGpuModel(m), "T4");
  EXPECT_TRUE((GpuRequest{500, 1}).shared());
  EXPECT_FALSE((GpuRequest{1000, 1}).shared());
  EXPECT_FALSE((GpuRequest{500, 2}).shared());
  EXPECT_EQ((GpuRequest{500, 2}).total_milli(), 1000);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// KAI-Scheduler's gpu-memory (pkg/scheduler/api/pod_info/pod_info.go
// updatePodAdditionalFields: a positive ParseInt, with
// gpu-fraction-num-devices).
TEST(KaiGpuMemoryTest, Compute) {
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    GpuRequest want;
  };
  GpuRequest one_device;
  one_device.milli = 1;
  one_device.count = 1;
  one_device.from_annotations = true;
  one_device.memory_mib = 20000;
  GpuRequest two_devices = one_device;
  two_devices.count = 2;
  two_devices.memory_mib = 8000;
  const std::vector<Case> cases = {
      {"gpu-memory", {{"gpu-memory", "20000"}}, one_device},
      {"gpu-memory on 2 devices", {{"gpu-memory", "8000"}, {"gpu-fraction-num-devices", "2"}}, two_devices},
      {"not a number: no request", {{"gpu-memory", "20GiB"}}, GpuRequest{}},
      {"zero: no request", {{"gpu-memory", "0"}}, GpuRequest{}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = AnnotatedPod(c.annotations);
    EXPECT_EQ(ComputeGpuRequest(p, 0), c.want);
  }
}

// The share on a node: ceil(memory x 1000 / node memory); nothing when the
// node has no usable label or smaller GPUs (KAI: not synced,
// isValidGpuPortion).
TEST(KaiGpuMemoryTest, MilliOnNode) {
  GpuRequest r;
  r.milli = 1;
  r.count = 1;
  r.from_annotations = true;
  struct Case {
    int64_t memory, node;
    int32_t want;
  };
  const Case cases[] = {
      {40000, 81900, 489},  // 488.40 rounded up
      {20000, 81900, 245},  // 244.20
      {20000, 23000, 870},  // 869.57
      {23000, 23000, 1000}, {40950, 81900, 500}, {1, 81900, 1},
      {40000, 23000, 0},    // GPUs too small
      {40000, -1, 0},       // no label
      {40000, 0, 0},        // label floored to nothing
  };
  for (const Case& c : cases) {
    r.memory_mib = c.memory;
    EXPECT_EQ(r.MilliOn(c.node), c.want) << c.memory << " MiB on " << c.node;
  }
  GpuRequest fraction{500, 1, true, {}};
  EXPECT_EQ(fraction.MilliOn(-1), 500);  // not by memory: the node does not matter
}

TEST(KaiGpuMemoryTest, Validation) {
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    std::string gpu_limit;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"valid", {{"gpu-memory", "2000"}}, "", {}},
      {"valid on 2 devices", {{"gpu-memory", "2000"}, {"gpu-fraction-num-devices", "2"}}, "", {}},
      {"not an integer",
       {{"gpu-memory", "2Gi"}},
       "",
       {"metadata.annotations[gpu-memory]: Invalid value: \"2Gi\": must be a positive integer (MiB of GPU memory per "
        "device)"}},
      {"zero",
       {{"gpu-memory", "0"}},
       "",
       {"metadata.annotations[gpu-memory]: Invalid value: \"0\": must be a positive integer (MiB of GPU memory per "
        "device)"}},
      {"with gpu-fraction",
       {{"gpu-memory", "2000"}, {"gpu-fraction", "0.5"}},
       "",
       {"metadata.annotations[gpu-memory]: Forbidden: may not be combined with gpu-fraction: KAI-Scheduler refuses a "
        "pod that asks for both (\"cannot request both GPU and GPU memory\")"}},
      {"with alibaba annotations",
       {{"gpu-memory", "2000"}, {"alibabacloud.com/gpu-milli", "500"}},
       "",
       {"metadata.annotations[gpu-memory]: Forbidden: may not be combined with alibabacloud.com/gpu-milli or "
        "alibabacloud.com/gpu-count: give the GPU share once"}},
      {"with nvidia.com/gpu",
       {{"gpu-memory", "2000"}},
       "1",
       {"metadata.annotations[gpu-memory]: Forbidden: may not be combined with an nvidia.com/gpu request: ask for "
        "whole GPUs with nvidia.com/gpu or for a share with the annotation, not both"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> got;
    for (const auto& e : ValidateGpuAnnotations(AnnotatedPod(c.annotations, c.gpu_limit))) got.push_back(e.ToString());
    EXPECT_EQ(got, c.want);
  }
}

}  // namespace
}  // namespace gpusched
