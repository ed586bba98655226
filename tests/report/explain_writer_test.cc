// Tests for src/report/explain_writer.cc: the "explain" JSON object of
// `gpusched schedule --explain -o json`, field by field, and the readable
// report of `gpusched explain` for a small batch.
#include "gpusched/report/explain_writer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "batch_fixture.h"

namespace gpusched {
namespace {

TEST(ExplainJsonTest, EveryFieldOfEveryNode) {
  ClusterState cluster({testing::GpuNode("gpu-a", 2), testing::GpuNode("gpu-b", 4), testing::GpuNode("cpu", -1)});
  PodExplain e;
  e.nodes.resize(3);
  e.nodes[0] = NodeExplain{.node = 0, .evaluated = true, .feasible = false, .scored = false,
                           .failed_plugin = "NodeResourcesFit", .code = SchedStatus::Code::kUnschedulable,
                           .reasons = {"Insufficient nvidia.com/gpu"}, .scores = {}, .total = 0,
                           .gpus_free = 1, .gpus_total = 2};
  e.nodes[1] = NodeExplain{.node = 1, .evaluated = true, .feasible = true, .scored = true, .failed_plugin = "",
                           .code = SchedStatus::Code::kSuccess, .reasons = {},
                           .scores = {PluginScore{"NodeResourcesFit", 37, 37, 1, 37}}, .total = 37,
                           .gpus_free = 4, .gpus_total = 4};
  e.nodes[2].node = 2;  // not evaluated: no code
  e.nodes_to_find = 3;
  e.start_index = 1;
  e.chosen = 1;
  e.why = "only feasible node";
  EXPECT_EQ(ExplainJson(e, cluster).dump(),
            R"({"nodes":[)"
            R"({"node":"gpu-a","evaluated":true,"feasible":false,"filter":"NodeResourcesFit","code":"Unschedulable",)"
            R"("reasons":["Insufficient nvidia.com/gpu"],"detail":"","gpus_free":1,"gpus_total":2,"scores":[],"total":0},)"
            R"({"node":"gpu-b","evaluated":true,"feasible":true,"filter":"","code":"Success","reasons":[],"detail":"",)"
            R"("gpus_free":4,"gpus_total":4,"scores":[{"plugin":"NodeResourcesFit","raw":37,"normalized":37,)"
            R"("weight":1,"weighted":37}],"total":37},)"
            R"({"node":"cpu","evaluated":false,"feasible":false,"filter":"","code":"","reasons":[],"detail":"","gpus_free":0,)"
            R"("gpus_total":0,"scores":[],"total":0}],)"
            R"("nodes_to_find":3,"start_index":1,"chosen":"gpu-b","why":"only feasible node"})");
  e.chosen.reset();
  EXPECT_EQ(ExplainJson(e, cluster)["chosen"].dump(), "null");
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// first-fit looks for one feasible node: gpu-a (1 GPU) fails, gpu-b fits
// and ends the scan, so cpu is never evaluated. The table lists the
// feasible node first, then the failed one, then the one not run.
TEST(WriteExplainTest, FirstFitStopsAtTheFirstFeasibleNode) {
  testing::ScheduledBatch b({testing::GpuNode("gpu-a", 1), testing::GpuNode("gpu-b", 4), testing::GpuNode("cpu", -1)},
                            {testing::GpuPod("train", 2, 1000)}, 0);
  std::ostringstream out;
  WriteExplain(out, b.Report(), 0);
  EXPECT_EQ(out.str(),
            "pod default/train requests 2 nvidia.com/gpu, 1 cpu\n"
            "policy first-fit, queue order fifo; the filter scan started at node 0 and looked for 1 feasible node(s)\n"
            "3 nodes: 1 feasible, 1 failed a filter, 1 not evaluated (the scan had found enough feasible nodes)\n"
            "  1 failed NodeResourcesFit: Insufficient nvidia.com/gpu\n"
            "\n"
            "  NODE   GPUS USED  FEASIBLE  FILTER               TOTAL  REASONS / SCORES (plugin raw->normalized x "
            "weight = weighted)\n"
            "  gpu-b        0/4  yes       -                        -  \n"
            "  gpu-a        0/1  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  cpu          0/0  not run   -                        -  (the scan had found enough feasible nodes)\n"
            "\n"
            "chosen: gpu-b (the first node in scan order that passes the filters)\n");
}

}  // namespace
}  // namespace gpusched
