#include "gpusched/report/table_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "gpusched/sched/filters.h"
#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

TEST(TableWriterTest, ExtraSectionsForBoundRefusedAndRejected) {
  ClusterState c({GpuNode("a", 2)});
  std::vector<Pod> pods = {GpuPod("running", 1), GpuPod("stuck", 4), GpuPod("cpu-only", 0)};
  pods[0].node_name = "a";
  pods[1].node_name = "a";
  pods[2].meta.namespace_ = "ml";
  std::vector<const Pod*> ptrs = {&pods[0], &pods[1], &pods[2]};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(ptrs, c, s, QueueOrder::kFifo);
  std::vector<InputError> rejected = {
      {"Pod/default/bad", "x.yaml", 3, "The Pod \"bad\" is invalid: \n* one\n* two"}};
  std::vector<std::string> warnings;
  std::ostringstream out;
  WriteTable(out, RunReport{c, ptrs, r, rejected, warnings, "first-fit", "fifo"});
  EXPECT_EQ(out.str(),
            "scheduling result:\n"
            "  ml/cpu-only      -> a\n"
            "\n"
            "node state after scheduling:\n"
            "  a: 1/2 GPUs used\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  a: running [0]\n"
            "\n"
            "already running (spec.nodeName):\n"
            "  running          -> a\n"
            "\n"
            "cannot run where they are bound:\n"
            "  stuck: Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 4, used: 1, "
            "capacity: 2\n"
            "\n"
            "rejected (invalid input, not scheduled):\n"
            "  x.yaml:3: The Pod \"bad\" is invalid: \n"
            "    * one\n"
            "    * two\n"
            "\n"
            "summary: 1 node, 3 pods: 2 placed, 0 pending (0 can never fit), 2 rejected\n"
            "  GPUs: 5 requested, 2 capacity, 1 allocated (50%), 1 free\n"
            "  every valid pod was placed\n");
}

}  // namespace
}  // namespace gpusched
