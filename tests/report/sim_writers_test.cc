#include "gpusched/report/sim_writers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim_fixture.h"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char kSeriesCsv[] =
    "time,gpu_alloc_pct,gpu_unalloc_pct,frag_pct,frag_of_idle_pct,pending,running,arrived_gpu_milli,gpu_milli_used,"
    "gpu_milli_total\n"
    "0.000,0.0000,100.0000,0.0000,0.0000,2,0,2000,0,8000\n"
    "50.000,50.0000,50.0000,12.5000,25.0000,1,2,6000,4000,8000\n"
    "100.000,100.0000,0.0000,0.0000,0.0000,0,3,8000,8000,8000\n";

const char kPodsCsv[] =
    "name,state,arrival,start,finish,node,attempts,evictions,reason\n"
    "default/a,finished,0.000,0.000,100.000,gpu-node-1,1,0,\n"
    "default/b,running,10.000,40.000,,gpu-node-2,2,1,\n"
    "\"ml/c,\"\"x\"\"\",pending,20.000,,,,3,0,0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n"
    "default/d,rejected,30.000,,,,0,0,\"line1\nline2\"\n";

TEST(SimWritersTest, SeriesCsv) { EXPECT_EQ(SeriesCsv(testing::TinyRun()), kSeriesCsv); }

TEST(SimWritersTest, PodsCsv) { EXPECT_EQ(PodsCsv(testing::TinyRun()), kPodsCsv); }

TEST(SimWritersTest, CsvField) {
  struct Case {
    std::string in, want;
  };
  const Case cases[] = {
      {"plain", "plain"},         {"", ""},
      {"a,b", "\"a,b\""},         {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""}, {"cr\r", "\"cr\r\""},
      {" spaced ", " spaced "},  // RFC 4180: spaces are part of the field
  };
  for (const auto& c : cases) EXPECT_EQ(CsvField(c.in), c.want) << c.in;
}

TEST(SimWritersTest, SummaryJson) {
  SimResult odd = testing::TinyRun("best-fit");
  odd.summary.mean_frag_pct = 1.0 / 3;  // rounded to 3 decimals
  nlohmann::json got = SummaryJson({testing::TinyRun(), odd});
  nlohmann::json want = nlohmann::json::parse(R"({"policies": [
    {"policy": "first-fit", "pods": 4, "finished": 1, "running": 1, "pending": 1, "rejected": 1,
     "scheduling_attempts": 6, "end_time": 100.0, "mean_gpu_alloc_pct": 50.0, "mean_frag_pct": 6.25,
     "queueing_delay": {"count": 2, "p50": 0.0, "p90": 30.0, "p99": 30.0, "max": 30.0, "mean": 15.0},
     "jct": {"count": 1, "p50": 100.0, "p90": 100.0, "p99": 100.0, "max": 100.0, "mean": 100.0}},
    {"policy": "best-fit", "pods": 4, "finished": 1, "running": 1, "pending": 1, "rejected": 1,
     "scheduling_attempts": 6, "end_time": 100.0, "mean_gpu_alloc_pct": 50.0, "mean_frag_pct": 0.333,
     "queueing_delay": {"count": 2, "p50": 0.0, "p90": 30.0, "p99": 30.0, "max": 30.0, "mean": 15.0},
     "jct": {"count": 1, "p50": 100.0, "p90": 100.0, "p99": 100.0, "max": 100.0, "mean": 100.0}}
  ]})");
  EXPECT_EQ(got, want) << got.dump(2);
  EXPECT_EQ(SummaryJson({}).dump(), "{\"policies\":[]}");
}

TEST(SimWritersTest, PolicyDirName) {
  struct Case {
    std::string in, want;
  };
  const Case cases[] = {{"best-fit", "best-fit"}, {"kube_default.v2", "kube_default.v2"},
                        {"a<&>b", "a___b"},       {"../etc", ".._etc"},
                        {"..", "_"},              {".", "_"},
                        {"", "_"},                {"a b/c", "a_b_c"}};
  for (const auto& c : cases) EXPECT_EQ(PolicyDirName(c.in), c.want) << c.in;
}

class SimWritersFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("sim_writers_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(SimWritersFilesTest, WritesEveryFile) {
  fs::path out = dir_ / "nested" / "out";
  ASSERT_TRUE(WriteSimOutputs(out.string(), {testing::TinyRun("first-fit"), testing::TinyRun("a<&>b")}).ok());
  EXPECT_EQ(ReadAll(out / "first-fit" / "timeseries.csv"), kSeriesCsv);
  EXPECT_EQ(ReadAll(out / "first-fit" / "pods.csv"), kPodsCsv);
  EXPECT_EQ(ReadAll(out / "a___b" / "pods.csv"), kPodsCsv);
  std::string summary = ReadAll(out / "summary.json");
  ASSERT_FALSE(summary.empty());
  EXPECT_EQ(summary.back(), '\n');
  nlohmann::json j = nlohmann::json::parse(summary);
  EXPECT_EQ(j["policies"][1]["policy"], "a<&>b");
  // Rewriting gives the same bytes.
  ASSERT_TRUE(WriteSimOutputs(out.string(), {testing::TinyRun("first-fit"), testing::TinyRun("a<&>b")}).ok());
  EXPECT_EQ(ReadAll(out / "summary.json"), summary);
}

TEST_F(SimWritersFilesTest, Errors) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "plain-file";
  std::ofstream(file) << "x";

  Status st = WriteSimOutputs(file.string(), {testing::TinyRun()});
  EXPECT_EQ(st.code(), Status::Code::kIOError);
  EXPECT_NE(st.message().find("cannot create directory \"" + file.string() + "\""), std::string::npos)
      << st.message();

  const fs::path blocked = dir_ / "out";
  fs::create_directories(blocked / "first-fit" / "pods.csv");  // a directory where the file goes
  st = WriteSimOutputs(blocked.string(), {testing::TinyRun()});
  EXPECT_EQ(st.code(), Status::Code::kIOError);
  EXPECT_NE(st.message().find("cannot write \"" + (blocked / "first-fit" / "pods.csv").string() + "\""),
            std::string::npos)
      << st.message();

  st = WriteSimOutputs((dir_ / "dup").string(), {testing::TinyRun("a/b"), testing::TinyRun("a_b")});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(st.message(), "two runs would write to \"" + (dir_ / "dup" / "a_b").string() +
                              "\": policy names must be distinct (\"a_b\")");
  EXPECT_FALSE(fs::exists(dir_ / "dup"));  // refused before writing anything
}

}  // namespace
}  // namespace gpusched
