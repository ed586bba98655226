#include "gpusched/cli/input_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace gpusched {
namespace {

TEST(InputPathsTest, DirectoriesMustHoldManifests) {
  namespace fs = std::filesystem;
  const std::string root = ::testing::TempDir() + "/input-paths";
  fs::remove_all(root);
  fs::create_directories(root + "/empty");
  fs::create_directories(root + "/csv-only");
  std::ofstream(root + "/csv-only/nodes.csv") << "sn\n";
  fs::create_directories(root + "/nested/deeper");
  std::ofstream(root + "/nested/deeper/pods.yml") << "kind: Pod\n";
  fs::create_directories(root + "/json");
  std::ofstream(root + "/json/list.json") << "{}\n";
  std::ofstream(root + "/file.yaml") << "kind: Node\n";
  struct Case {
    std::string path;
    bool recursive;
    std::string error;  // "" = accepted
  } cases[] = {
      {root + "/json", false, ""},
      {root + "/file.yaml", false, ""},           // files are the loader's to read
      {root + "/missing", false, ""},             // and so are missing paths
      {"-", false, ""},
      {root + "/nested", true, ""},
      {root + "/empty", false, "error: the directory \"" + root + "/empty\" holds no manifests (no *.yaml, *.yml or *.json file)"},
      {root + "/csv-only", true, "error: the directory \"" + root + "/csv-only\" holds no manifests (no *.yaml, *.yml or *.json file)"},
      {root + "/nested", false,
       "error: the directory \"" + root + "/nested\" holds no manifests (no *.yaml, *.yml or *.json file); its "
       "subdirectories do: add -R to read them"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    Status st = CheckManifestDirectories({c.path}, c.recursive);
    EXPECT_EQ(st.ok(), c.error.empty());
    if (!st.ok()) {
      EXPECT_EQ(st.message(), c.error);
    }
  }
}

// What simulate and experiment write goes through one function: the file's
// bytes as given, or an error that names the flag, the path and why.
TEST(InputPathsTest, WriteOutputFileNamesTheFlagAndTheReason) {
  const std::string path = ::testing::TempDir() + "/gpusched-written.txt";
  std::filesystem::remove(path);
  ASSERT_TRUE(WriteOutputFile("--report", path, "a\nb\n").ok());
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "a\nb\n");

  Status st = WriteOutputFile("--output-dir", "/nonexistent-gpusched/runs.csv", "x");
  EXPECT_EQ(st.code(), Status::Code::kIOError);
  EXPECT_EQ(st.message(), "error: --output-dir: cannot write \"/nonexistent-gpusched/runs.csv\": No such file or directory");
}

}  // namespace
}  // namespace gpusched
