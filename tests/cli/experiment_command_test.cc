// `gpusched experiment` end to end on the repository's copy of the trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_test_util.h"
#include "gpusched/cli/cli.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kData = std::string(GPUSCHED_SOURCE_DIR) + "/data/alibaba-gpu-2023";

TEST(ExperimentCommandTest, OnePolicyOneSeedOnTheDefaultTrace) {
  const std::string dir = ::testing::TempDir() + "/gpusched-exp";
  std::filesystem::remove_all(dir);
  CliRun r = Cli({"experiment", "--data-dir", kData, "--policies", "fgd", "--seeds", "42", "-o", dir, "--report",
                  dir + "/exp.html"});
  ASSERT_EQ(r.code, 0) << r.err;
  // Wall time goes to stderr: stdout is the same on every run.
  EXPECT_EQ(r.out.rfind("FGD paper protocol: 8152 trace pods (openb_pod_list_default.csv) on 1213 nodes / 6212 GPUs, "
                        "tuned to 130% of GPU capacity, 1 seed, 1 run\n\n",
                        0),
            0u)
      << r.out;
  EXPECT_EQ(r.err.rfind("experiment: 1 run in ", 0), 0u) << r.err;
  CliRun again = Cli({"experiment", "--data-dir", kData, "--policies", "fgd", "--seeds", "42"});
  EXPECT_EQ(again.out, r.out.substr(0, again.out.size()));
  // Up to 80% arrived, FGD places everything (the table's first column).
  EXPECT_NE(r.out.find("\n  FGD               20."), std::string::npos) << r.out;
  std::ifstream curves(dir + "/experiment.csv");
  std::string header;
  std::getline(curves, header);
  EXPECT_EQ(header, "policy,arrived_gpu_pct,unallocated_gpu_pct_mean,unallocated_gpu_pct_sd,frag_pct_mean");
  std::string line;
  int rows = 0;
  while (std::getline(curves, line)) ++rows;
  EXPECT_EQ(rows, 131);  // x = 0..130
  EXPECT_TRUE(std::filesystem::exists(dir + "/exp.html"));
}

// The result the README leads with: the paper protocol's default run (six
// policies x seeds 42-51 on the default trace, tuned to 130%), pinned to the
// last digit. FGD strands the fewest GPUs at every x from 100% on, as in the
// paper. At x = 100% the paper's Fig. 9a reads FGD ~4.8, BestFit ~7.1 and
// DotProd ~9.5; ours are 4.74, 7.10 and 9.16 (DotProd 0.3 point better:
// docs/fgd-experiment.md says why).
TEST(ExperimentCommandTest, PaperTableOnTheDefaultTraceIsPinned) {
  CliRun r = Cli({"experiment", "--data-dir", kData, "-j", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string table =
      "\n"
      "  unallocated GPU % (mean ± sd over seeds) when the arrived GPU request reaches x% of capacity\n"
      "  POLICY                    x=80%          x=90%         x=100%         x=110%         x=120%      FRAG @100%\n"
      "  FGD               20.01 ± 0.03   9.99 ± 0.03   4.74 ± 0.09   4.68 ± 0.10   4.63 ± 0.09           4.70%\n"
      "  BestFit           20.01 ± 0.03   9.99 ± 0.03   7.10 ± 0.17   7.02 ± 0.16   6.96 ± 0.17           7.04%\n"
      "  DotProd           20.01 ± 0.03   9.99 ± 0.03   9.16 ± 0.22   9.09 ± 0.23   9.01 ± 0.26           9.11%\n"
      "  GpuPacking        20.01 ± 0.03   9.99 ± 0.03   8.28 ± 0.42   8.20 ± 0.42   8.13 ± 0.41           8.20%\n"
      "  GpuClustering     20.01 ± 0.03   9.99 ± 0.03   8.30 ± 0.53   8.22 ± 0.53   8.15 ± 0.51           8.19%\n"
      "  Random            21.69 ± 0.40  14.92 ± 0.22  13.59 ± 0.24  13.03 ± 0.25  12.64 ± 0.26          13.39%\n";
  EXPECT_EQ(r.out,
            "FGD paper protocol: 8152 trace pods (openb_pod_list_default.csv) on 1213 nodes / 6212 GPUs, tuned to "
            "130% of GPU capacity, 10 seeds, 60 runs\n" +
                table)
      << r.out;
}

TEST(ExperimentCommandTest, UsageErrors) {
  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"seeds backwards", {"experiment", "--seeds", "9-3"},
       "error: invalid --seeds \"9-3\": the range runs backwards (did you mean 3-9?)\n"},
      {"seed range not numbers", {"experiment", "--seeds", "1-x"},
       "error: invalid --seeds \"1-x\": a range is two whole numbers, FIRST-LAST, e.g. 42-51\n"},
      {"seed range too long", {"experiment", "--seeds", "1-20000"},
       "error: invalid --seeds \"1-20000\": at most 10001 seeds in a range\n"},
      {"seed list with a word", {"experiment", "--seeds", "1,x"},
       "error: invalid --seeds \"1,x\": \"x\" is not a whole number (use a range like 42-51 or a list like 1,2,3)\n"},
      {"seed list with a negative", {"experiment", "--seeds", "1,-2"},
       "error: invalid --seeds \"1,-2\": \"-2\" is not a whole number (use a range like 42-51 or a list like "
       "1,2,3)\n"},
      {"seed half a number", {"experiment", "--seeds", "7x"},
       "error: invalid --seeds \"7x\": \"7x\" is not a whole number (use a range like 42-51 or a list like 1,2,3)\n"},
      {"no seed", {"experiment", "--seeds", ","},
       "error: invalid --seeds \",\": \"\" is not a whole number (use a range like 42-51 or a list like 1,2,3)\n"},
      {"kube-default is not a paper policy", {"experiment", "--policies", "fgd,kube-default"},
       "error: --policies \"kube-default\" is not run by experiment (the FGD paper's protocol has no "
       "KubeSchedulerConfiguration); choose among: first-fit, best-fit, worst-fit, fgd, random, dot-product, "
       "gpu-clustering, gpu-packing, paper-best-fit\n"},
      {"a policy one letter off", {"experiment", "--policies", "fgd,bestfit"},
       "error: unknown --policies \"bestfit\" (did you mean best-fit? known: first-fit, best-fit, worst-fit, "
       "fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {"no policy", {"experiment", "--policies", ","},
       "error: --policies is empty; give one or more policies separated by commas, e.g. fgd,best-fit\n"},
      {"data dir missing", {"experiment", "--data-dir", "/nonexistent/data"},
       "error: --data-dir \"/nonexistent/data\" does not exist; give the folder of the trace CSVs "
       "(openb_node_list_gpu_node.csv, openb_pod_list_*.csv)\n"},
      {"data dir a file", {"experiment", "--data-dir", kData + "/README.md"},
       "error: --data-dir \"" + kData + "/README.md\" is a file, not a directory; give the folder of the trace "
       "CSVs (openb_node_list_gpu_node.csv, openb_pod_list_*.csv)\n"},
      {"nodes missing", {"experiment", "--data-dir", kData, "--nodes", "/nonexistent/nodes.csv"},
       "error: the path \"/nonexistent/nodes.csv\" does not exist; --nodes takes the path of a trace node list CSV\n"},
      // Where it writes is checked before the runs.
      {"report in a missing directory", {"experiment", "--data-dir", kData, "--report", "/nonexistent/d/x.html"},
       "error: --report \"/nonexistent/d/x.html\": the directory \"/nonexistent/d\" does not exist; create it or "
       "give another path\n"},
      {"report a directory", {"experiment", "--data-dir", kData, "--report", kData},
       "error: --report \"" + kData + "\" is a directory; give the file to write, e.g. " + kData + "/report.html\n"},
      {"output dir a file", {"experiment", "--data-dir", kData, "-o", kData + "/README.md"},
       "error: --output-dir \"" + kData + "/README.md\" is a file, not a directory; give a directory (one missing "
       "is created)\n"},
      {"missing trace", {"experiment", "--data-dir", kData, "--trace", "nosuch"}, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, 2);
    if (!c.err.empty()) {
      EXPECT_EQ(r.err, c.err);
    } else {
      EXPECT_NE(r.err.find("openb_pod_list_nosuch.csv"), std::string::npos) << r.err;
    }
  }
}

// --trace takes a name of the data folder or a path: a name that is not
// there lists the names that are, instead of a made-up path.
TEST(ExperimentCommandTest, UnknownTraceNameListsTheKnownOnes) {
  const std::string dir = ::testing::TempDir() + "/gpusched-exp-names";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* f : {"openb_pod_list_multigpu50.csv", "openb_pod_list_default.csv", "openb_node_list_gpu_node.csv"})
    std::ofstream(dir + "/" + f) << "\n";
  CliRun r = Cli({"experiment", "--data-dir", dir, "--trace", "multigpu5"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: unknown --trace \"multigpu5\": " + dir +
                       " has no openb_pod_list_multigpu5.csv (known: default, multigpu50); or give the path of a pod "
                       "list CSV\n");
  // A path is read as it is.
  r = Cli({"experiment", "--data-dir", kData, "--trace", "/nonexistent/pods.csv"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: the path \"/nonexistent/pods.csv\" does not exist; --trace takes a trace name or the path of a pod "
            "list CSV\n");
}

// "-o out/" writes out/experiment.csv, and says so without a double slash.
TEST(ExperimentCommandTest, OutputDirWithATrailingSlash) {
  const std::string dir = ::testing::TempDir() + "/gpusched-exp-slash";
  std::filesystem::remove_all(dir);
  CliRun r = Cli({"experiment", "--data-dir", kData, "--trace", "multigpu50", "--policies", "random", "--seeds", "1",
                  "--tune", "0", "-o", dir + "/"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\nwrote " + dir + "/experiment.csv (curves) and runs.csv (every run)\n"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace gpusched
