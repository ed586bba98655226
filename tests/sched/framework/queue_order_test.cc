#include "gpusched/sched/framework/queue_order.h"

#include <gtest/gtest.h>

#include "../test_util.h"

namespace gpusched {
namespace {

TEST(QueueOrderTest, FifoAndStableLargestFirst) {
  std::vector<Pod> pods;
  for (int64_t g : {2, 1, 3, 1, 2}) pods.push_back(testing::GpuPod("p", g));
  std::vector<PodInfo> infos;
  for (size_t i = 0; i < pods.size(); ++i) infos.push_back(PodInfo::Make(pods[i], i));
  EXPECT_EQ(OrderQueue(infos, QueueOrder::kFifo), (std::vector<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(OrderQueue(infos, QueueOrder::kLargestFirst), (std::vector<size_t>{2, 0, 4, 1, 3}));
}

TEST(QueueOrderTest, Parse) {
  EXPECT_EQ(ParseQueueOrder("fifo"), QueueOrder::kFifo);
  EXPECT_EQ(ParseQueueOrder("largest-first"), QueueOrder::kLargestFirst);
  EXPECT_EQ(ParseQueueOrder("LIFO"), std::nullopt);
  EXPECT_STREQ(QueueOrderName(QueueOrder::kLargestFirst), "largest-first");
}

}  // namespace
}  // namespace gpusched
