#include "gpusched/report/request_text.h"

#include <gtest/gtest.h>

#include "gpusched/sched/api/pod_info.h"
#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuPod;

TEST(RequestTextTest, FormatGpuMilli) {
  struct Case {
    int64_t milli;
    std::string want;
  } cases[] = {{0, "0"},        {9000, "9"},     {300, "0.3"},          {16800, "16.8"},
               {125, "0.125"},  {1050, "1.05"},  {-2500, "-2.5"},       {INT64_MAX, "9223372036854775.807"}};
  for (const auto& c : cases) EXPECT_EQ(FormatGpuMilli(c.milli), c.want) << c.milli;
  EXPECT_EQ(GpusToMilli(6), 6000);
  EXPECT_EQ(GpusToMilli(INT64_MAX / 10), INT64_MAX);
}

Pod Annotated(std::vector<std::pair<std::string, std::string>> annotations, int64_t cpu_milli = 2000) {
  Pod p = GpuPod("p", 0, cpu_milli);
  for (auto& [k, v] : annotations) p.meta.annotations[k] = v;
  return p;
}

TEST(RequestTextTest, DescribeRequestsShowsGpuSharesAsSpelled) {
  struct Case {
    const char* name;
    Pod pod;
    std::string want;
  } cases[] = {
      {"whole GPUs", GpuPod("p", 3, 4000), "3 nvidia.com/gpu, 4 cpu"},
      {"best effort", GpuPod("p", 0, 0), "nothing (a best-effort pod)"},
      {"Alibaba share",
       Annotated({{"alibabacloud.com/gpu-milli", "300"}, {"alibabacloud.com/gpu-count", "1"}}),
       "0.3 of a GPU (alibabacloud.com/gpu-milli: 300, alibabacloud.com/gpu-count: 1), 2 cpu"},
      {"share without cpu is not best effort", Annotated({{"alibabacloud.com/gpu-milli", "500"}}, 0),
       "0.5 of a GPU (alibabacloud.com/gpu-milli: 500)"},
      {"KAI fraction on two devices",
       Annotated({{"gpu-fraction", "0.5"}, {"gpu-fraction-num-devices", "2"}}),
       "0.5 of a GPU on each of 2 devices (gpu-fraction: 0.5, gpu-fraction-num-devices: 2), 2 cpu"},
      {"whole devices by annotation",
       Annotated({{"alibabacloud.com/gpu-milli", "1000"}, {"alibabacloud.com/gpu-count", "2"}}),
       "2 whole GPUs (alibabacloud.com/gpu-milli: 1000, alibabacloud.com/gpu-count: 2), 2 cpu"},
      {"models",
       Annotated({{"alibabacloud.com/gpu-milli", "250"}, {"alibabacloud.com/gpu-card-model", "V100M16|V100M32|A100"}}),
       "0.25 of a GPU (alibabacloud.com/gpu-milli: 250), 2 cpu, GPU model V100M16, V100M32 or A100"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const PodInfo info = PodInfo::Make(c.pod, 0);
    EXPECT_EQ(DescribeRequests(c.pod, info.requests, info.gpu), c.want);
  }
}

}  // namespace
}  // namespace gpusched
