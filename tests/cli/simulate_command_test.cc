// `gpusched simulate` end to end on examples/simulate, in-process.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_util.h"
#include "gpusched/cli/cli.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kSim = std::string(GPUSCHED_SOURCE_DIR) + "/examples/simulate/";

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(SimulateCommandTest, SyntheticWorkloadSummaryAndOutputs) {
  const std::string dir = ::testing::TempDir() + "/gpusched-sim-cli";
  std::filesystem::remove_all(dir);
  CliRun r = Cli({"simulate", "-f", kSim + "cluster.yaml", "--workload", kSim + "synthetic.yaml", "--policy",
                  "best-fit,fgd", "-o", dir, "--report", dir + "/report.html"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::istringstream lines(r.out);
  std::string first;
  std::getline(lines, first);
  EXPECT_EQ(first, "simulated 300 pods on 8 nodes (+2 node events), queue order priority, seed 1");
  // Every pod of the synthetic workload finishes under both policies.
  EXPECT_NE(r.out.find("\n  best-fit           300       300        0        0         0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  fgd                300       300        0        0         0"), std::string::npos) << r.out;
  nlohmann::json summary = nlohmann::json::parse(Slurp(dir + "/summary.json"));
  ASSERT_EQ(summary["policies"].size(), 2u);
  EXPECT_EQ(summary["policies"][0]["policy"], "best-fit");
  EXPECT_EQ(summary["policies"][1]["finished"], 300);
  EXPECT_EQ(Slurp(dir + "/fgd/timeseries.csv").rfind("time,gpu_alloc_pct,", 0), 0u);
  const std::string pods = Slurp(dir + "/best-fit/pods.csv");
  EXPECT_EQ(std::count(pods.begin(), pods.end(), '\n'), 301);  // header + every pod
  const std::string html = Slurp(dir + "/report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
}

TEST(SimulateCommandTest, SameSeedSameBytes) {
  const std::string a = ::testing::TempDir() + "/gpusched-sim-a", b = ::testing::TempDir() + "/gpusched-sim-b";
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
  CliRun ra = Cli({"simulate", "-f", kSim + "cluster.yaml", "--workload", kSim + "synthetic.yaml", "--policy",
                   "kube-default,random", "--seed", "7", "-o", a, "--report", a + "/r.html"});
  CliRun rb = Cli({"simulate", "-f", kSim + "cluster.yaml", "--workload", kSim + "synthetic.yaml", "--policy",
                   "kube-default,random", "--seed", "7", "-o", b, "--report", b + "/r.html"});
  ASSERT_EQ(ra.code, 0);
  EXPECT_EQ(ra.out.substr(0, ra.out.find("wrote")), rb.out.substr(0, rb.out.find("wrote")));
  for (const char* f : {"summary.json", "kube-default/timeseries.csv", "kube-default/pods.csv", "random/pods.csv", "r.html"})
    EXPECT_EQ(Slurp(a + "/" + f), Slurp(b + "/" + f)) << f;
  // Another seed draws another synthetic workload.
  CliRun rc = Cli({"simulate", "-f", kSim + "cluster.yaml", "--workload", kSim + "synthetic.yaml", "--policy",
                   "kube-default", "--seed", "8"});
  EXPECT_NE(rc.out.substr(rc.out.find("POLICY")), ra.out.substr(ra.out.find("POLICY")));
}

TEST(SimulateCommandTest, JobsWithTimingAnnotations) {
  CliRun r = Cli({"simulate", "-f", kSim + "cluster.yaml", "--workload", kSim + "jobs.yaml", "--policy", "first-fit"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 8 pods: six finish, the two without gpusched.io/duration still run.
  EXPECT_NE(r.out.find("\n  first-fit            8         6        2        0         0"), std::string::npos) << r.out;
}

TEST(SimulateCommandTest, PopFromBackoffQGateChangesWaits) {
  // v1.33+ pops a backing-off pod when activeQ is empty; v1.32 made it sit
  // out its backoff, so the same workload waits longer.
  std::vector<std::string> base = {"simulate", "-f", kSim + "cluster.yaml", "--workload", kSim + "synthetic.yaml",
                                   "--policy", "first-fit", "-o", ::testing::TempDir() + "/gate"};
  CliRun on = Cli(base);
  base.insert(base.end(), {"--feature-gates", "SchedulerPopFromBackoffQ=false"});
  base[base.size() - 3] = ::testing::TempDir() + "/gate-off";
  CliRun off = Cli(base);
  ASSERT_EQ(on.code, 0);
  ASSERT_EQ(off.code, 0);
  nlohmann::json a = nlohmann::json::parse(Slurp(::testing::TempDir() + "/gate/summary.json"));
  nlohmann::json b = nlohmann::json::parse(Slurp(::testing::TempDir() + "/gate-off/summary.json"));
  EXPECT_LT(a["policies"][0]["queueing_delay"]["mean"].get<double>(),
            b["policies"][0]["queueing_delay"]["mean"].get<double>());
}

TEST(SimulateCommandTest, UsageErrors) {
  struct Case {
    const char* name;
    std::vector<std::string> args;
    int code;
    std::string err_prefix;
  };
  const std::vector<Case> cases = {
      {"unknown policy", {"simulate", "-f", kSim + "cluster.yaml", "--policy", "fgd,magic"}, 2,
       "error: unknown --policy \"magic\" (known: first-fit,"},
      {"missing workload", {"simulate", "-f", kSim + "cluster.yaml", "--workload", "/nonexistent/w.yaml"}, 2,
       "error: the path \"/nonexistent/w.yaml\" does not exist; --workload takes"},
      {"unknown order", {"simulate", "-f", kSim + "cluster.yaml", "--order", "lifo"}, 2,
       "error: unknown --order \"lifo\""},
      {"unknown feature gate", {"simulate", "-f", kSim + "cluster.yaml", "--feature-gates", "Foo=true"}, 2,
       "error: unsupported --feature-gates entry \"Foo=true\" (gpusched simulates only "
       "SchedulerPopFromBackoffQ=true|false and SchedulerQueueingHints=true|false)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, c.code);
    EXPECT_EQ(r.err.substr(0, c.err_prefix.size()), c.err_prefix) << r.err;
  }
}

// Each names the flag and the path, says what is wrong and what to give;
// where it writes is checked before the simulation (which can take minutes).
TEST(SimulateCommandTest, PathErrorsNameTheFlag) {
  const std::string cluster = kSim + "cluster.yaml";
  const std::string examples = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";
  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"missing workload", {"simulate", "-f", cluster, "--workload", "/nonexistent/w.yaml"},
       "error: the path \"/nonexistent/w.yaml\" does not exist; --workload takes a trace pod list (*.csv), a "
       "SyntheticWorkload spec or pod manifests\n"},
      {"workload directory without manifests", {"simulate", "-f", cluster, "--workload", examples},
       "error: the directory \"" + examples + "\" holds no manifests (no *.yaml, *.yml or *.json file); its "
       "subdirectories do: add -R to read them\n"},
      {"report in a missing directory", {"simulate", "-f", cluster, "--report", "/nonexistent/dir/x.html"},
       "error: --report \"/nonexistent/dir/x.html\": the directory \"/nonexistent/dir\" does not exist; create it "
       "or give another path\n"},
      {"report a directory", {"simulate", "-f", cluster, "--report", kSim},
       "error: --report \"" + kSim + "\" is a directory; give the file to write, e.g. " + kSim + "report.html\n"},
      {"report under a file", {"simulate", "-f", cluster, "--report", cluster + "/x.html"},
       "error: --report \"" + cluster + "/x.html\": \"" + cluster + "\" is a file, not a directory; give another "
       "path\n"},
      {"output dir a file", {"simulate", "-f", cluster, "-o", cluster},
       "error: --output-dir \"" + cluster + "\" is a file, not a directory; give a directory (one missing is "
       "created)\n"},
      {"a trace pod list as the cluster",
       {"simulate", "-f", std::string(GPUSCHED_SOURCE_DIR) + "/data/alibaba-gpu-2023/openb_pod_list_gpushare20.csv"},
       "error: " + std::string(GPUSCHED_SOURCE_DIR) +
           "/data/alibaba-gpu-2023/openb_pod_list_gpushare20.csv:1: unexpected header "
           "\"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
           "scheduled_time\": expected \"sn,cpu_milli,memory_mib,gpu,model\" (this is a trace pod list; the cluster "
           "is a node list, openb_node_list_*.csv)\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

TEST(SimulateCommandTest, InvalidWorkloadRowsAreReportedAndTheRestRuns) {
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/bad-pods.csv");
    f << "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
         "ok,1000,1024,1,1000\n"
         "bad,1000,1024,x,1000\n";
  }
  CliRun r = Cli({"simulate", "-f", kSim + "cluster.yaml", "--workload", dir + "/bad-pods.csv", "--policy", "first-fit"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad-pods.csv:3: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("column num_gpu"), std::string::npos) << r.err;
  // The valid pod runs (forever: the 5-column form has no times); the bad
  // row is counted as rejected.
  EXPECT_NE(r.out.find("\n  first-fit            2         0        1        0         1"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpusched
