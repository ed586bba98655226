// The gpusched executable as a process (src/cli/main.cc): what only separate
// processes can show. Determinism across runs (no address, hash seed or
// clock leaks into the output) is checked for the policies that draw random
// numbers (kube-default's tie-breaking, fgd, random), and for `experiment`
// with different numbers of worker threads.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gpusched {
namespace {

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kBinary = GPUSCHED_BINARY;

struct ProcessRun {
  int code = -1;
  std::string out;
};

// Runs the executable with `args` (no shell quoting needed: the arguments
// here are plain paths and words); stderr is discarded.
ProcessRun RunGpusched(const std::vector<std::string>& args) {
  std::string cmd = "'" + kBinary + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " 2>/dev/null";
  ProcessRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(MainTest, ScheduleIsByteIdenticalAcrossProcesses) {
  // A cluster where kube-default meets ties (the seeded generator breaks
  // them) and fgd and random draw numbers.
  const std::string cluster = kSource + "/examples/simulate/cluster.yaml";
  const std::string jobs = kSource + "/examples/simulate/jobs.yaml";
  for (const char* policy : {"kube-default", "fgd", "random"}) {
    SCOPED_TRACE(policy);
    for (const char* output : {"json", "table"}) {
      const std::vector<std::string> args = {"schedule", "-f", cluster, "-f", jobs, "--policy", policy,
                                             "--seed", "11", "-o", output};
      ProcessRun a = RunGpusched(args), b = RunGpusched(args);
      ASSERT_EQ(a.code, 0) << a.out;
      EXPECT_EQ(a.code, b.code);
      EXPECT_GT(a.out.size(), 200u);
      EXPECT_EQ(a.out, b.out);
    }
  }
}

TEST(MainTest, SimulateIsByteIdenticalAcrossProcesses) {
  const std::string cluster = kSource + "/examples/simulate/cluster.yaml";
  const std::string workload = kSource + "/examples/simulate/synthetic.yaml";
  std::vector<std::string> files[2];
  std::string outs[2];
  for (int run = 0; run < 2; ++run) {
    const std::string dir = ::testing::TempDir() + "/gpusched-main-sim" + std::to_string(run);
    std::filesystem::remove_all(dir);
    ProcessRun r = RunGpusched({"simulate", "-f", cluster, "--workload", workload, "--policy", "kube-default,fgd,random",
                        "--seed", "5", "-o", dir});
    ASSERT_EQ(r.code, 0) << r.out;
    // The output names its folder; the rest must be the same bytes.
    std::string out = r.out;
    for (size_t at; (at = out.find(dir)) != std::string::npos;) out.replace(at, dir.size(), "DIR");
    outs[run] = out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file()) files[run].push_back(e.path().lexically_relative(dir).string() + "\n" + ReadFile(e.path()));
    std::sort(files[run].begin(), files[run].end());
  }
  EXPECT_EQ(outs[0], outs[1]);
  ASSERT_GE(files[0].size(), 5u);  // summary.json and each policy's series and pods
  EXPECT_EQ(files[0], files[1]);
}

TEST(MainTest, ExperimentIsTheSameWhateverTheNumberOfWorkers) {
  // Runs are spread over -j threads; each run has its own generator, so the
  // table and the CSVs must not depend on which thread ran what, or when.
  const std::string data = kSource + "/data/alibaba-gpu-2023";
  std::string outs[2];
  std::vector<std::string> files[2];
  const char* jobs[2] = {"1", "3"};
  for (int run = 0; run < 2; ++run) {
    const std::string dir = ::testing::TempDir() + "/gpusched-main-exp";
    std::filesystem::remove_all(dir);
    ProcessRun r = RunGpusched({"experiment", "--data-dir", data, "--policies", "fgd,random,dot-product", "--seeds", "1-3",
                        "-j", jobs[run], "-o", dir});
    ASSERT_EQ(r.code, 0) << r.out;
    outs[run] = r.out;
    for (const char* f : {"experiment.csv", "runs.csv"}) files[run].push_back(ReadFile(dir + "/" + f));
  }
  EXPECT_GT(files[0][1].size(), 1000u);
  EXPECT_EQ(files[0], files[1]);
  // Wall time goes to stderr: stdout is the same bytes.
  EXPECT_EQ(outs[0], outs[1]);
}

}  // namespace
}  // namespace gpusched
