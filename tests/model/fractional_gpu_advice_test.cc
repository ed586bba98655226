#include "gpusched/model/fractional_gpu_advice.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

FieldError NotInteger(const std::string& field, const std::string& canonical) {
  return FieldError::InvalidJson(field, canonical, "must be an integer");
}

const std::string kShareOfOne =
    "you asked for 0.5 of nvidia.com/gpu (the API server writes 0.5 as \"500m\", and a limit sets the request when "
    "none is given), but nvidia.com/gpu counts whole devices: a share of one GPU is asked for through a sharing "
    "mechanism instead:\n"
    "  KAI-Scheduler: annotation gpu-fraction: \"0.5\" and schedulerName: kai-scheduler (gpusched places it on a "
    "device: README \"Shared GPUs\")\n"
    "  Alibaba GPU share (the FGD trace's spelling): annotations alibabacloud.com/gpu-milli: \"500\" and "
    "alibabacloud.com/gpu-count: \"1\" (gpusched places it on a device)\n"
    "  MIG: a partition is a resource of its own, e.g. nvidia.com/mig-3g.40gb: 1, on nodes whose device plugin "
    "advertises it (scheduled as the count the nodes advertise)\n"
    "  time-slicing or MPS: nvidia.com/gpu: 1 on nodes whose device plugin advertises each GPU as several replicas "
    "(scheduled as the count the nodes advertise, as kube-scheduler does)\n"
    "  DRA: a MIG device of the driver's mig.nvidia.com class, or one ResourceClaim that several pods name "
    "(gpusched allocates the devices: README \"GPUs through DRA\")";

TEST(FractionalGpuAdviceTest, Table) {
  const std::string limits = "spec.containers[0].resources.limits[nvidia.com/gpu]";
  const std::string requests = "spec.containers[0].resources.requests[nvidia.com/gpu]";
  struct Case {
    const char* name;
    std::vector<FieldError> errors;
    std::string want;
  } cases[] = {
      {"limit defaulted to the request: one paragraph", {NotInteger(limits, "500m"), NotInteger(requests, "500m")},
       kShareOfOne},
      {"more than one device",
       {NotInteger("spec.initContainers[1].resources.requests[amd.com/gpu]", "1500m")},
       "you asked for 1.5 of amd.com/gpu (the API server writes 1.5 as \"1500m\", and a limit sets the request when "
       "none is given), but amd.com/gpu counts whole devices: ask for 1 or 2, or for a share of each of several "
       "devices with KAI-Scheduler's annotations gpu-fraction and gpu-fraction-num-devices (README \"Shared GPUs\")"},
      {"a small share keeps its digits",
       {NotInteger(limits, "125m")},
       "you asked for 0.125 of nvidia.com/gpu (the API server writes 0.125 as \"125m\""},
      {"not a GPU", {NotInteger("spec.containers[0].resources.limits[example.com/dongle]", "500m")}, ""},
      {"another field", {NotInteger("spec.overhead[nvidia.com/gpu]", "500m")}, ""},
      {"another error", {FieldError::InvalidJson(limits, "-1", "must be greater than or equal to 0")}, ""},
      {"no errors", {}, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string got = FractionalGpuAdvice(c.errors);
    if (c.want.empty() || c.want.ends_with(')') || c.want.ends_with("yet")) {
      EXPECT_EQ(got, c.want);
    } else {
      EXPECT_TRUE(got.starts_with(c.want)) << got;
      EXPECT_NE(got.find("gpu-milli: \"125\""), std::string::npos) << got;
    }
  }
}

TEST(FractionalGpuAdviceTest, OneParagraphPerResource) {
  const std::string got =
      FractionalGpuAdvice({NotInteger("spec.containers[0].resources.limits[nvidia.com/gpu]", "500m"),
                           NotInteger("spec.containers[1].resources.limits[amd.com/gpu]", "2500m")});
  EXPECT_EQ(got.substr(0, kShareOfOne.size()), kShareOfOne);
  EXPECT_EQ(got.substr(kShareOfOne.size()),
            "\nyou asked for 2.5 of amd.com/gpu (the API server writes 2.5 as \"2500m\", and a limit sets the request "
            "when none is given), but amd.com/gpu counts whole devices: ask for 2 or 3, or for a share of each of "
            "several devices with KAI-Scheduler's annotations gpu-fraction and gpu-fraction-num-devices (README "
            "\"Shared GPUs\")");
}

}  // namespace
}  // namespace gpusched
