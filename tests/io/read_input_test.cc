// Ours: whole-file reads with a size limit (src/io/read_input.cc), for the
// manifest, configuration and workload loaders.
#include "gpusched/io/read_input.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gpusched/io/manifest_loader.h"

namespace gpusched {
namespace {

// A file path removed when the test ends; the pid keeps parallel runs apart.
class TempPath {
 public:
  explicit TempPath(const std::string& tag)
      : path_((std::filesystem::temp_directory_path() /
               ("gpusched_read_input_" + tag + "_" + std::to_string(::getpid()) + ".yaml"))
                  .string()) {}
  ~TempPath() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(ReadInputTest, FilesAndStdinUpToTheLimit) {
  struct Case {
    const char* name;
    std::string text;
    bool from_stdin;
    Status::Code code;
    std::string message;  // "{}" stands for the file's quoted path
  };
  const Case cases[] = {
      {"under the limit", "kind: Pod\n", false, Status::Code::kOk, ""},
      {"exactly the limit", std::string(16, 'a'), false, Status::Code::kOk, ""},
      {"empty", "", false, Status::Code::kOk, ""},
      {"a byte over", std::string(17, 'a'), false, Status::Code::kInvalidArgument,
       "{} is 17 bytes, more than the 16 gpusched reads from one input"},
      {"stdin under the limit", "kind: Pod\n", true, Status::Code::kOk, ""},
      {"stdin over the limit", std::string(17, 'a'), true, Status::Code::kInvalidArgument,
       "<stdin> is more than the 16 bytes gpusched reads from one input"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TempPath f("case");
    std::ofstream(f.path(), std::ios::binary) << c.text;
    std::istringstream in(c.text);
    std::string out = "left over";
    const Status s = ReadInput(c.from_stdin ? "-" : f.path(), out, 16, &in);
    EXPECT_EQ(s.code(), c.code);
    std::string want = c.message;
    if (const size_t at = want.find("{}"); at != std::string::npos) want.replace(at, 2, "\"" + f.path() + "\"");
    EXPECT_EQ(s.ok() ? "" : s.message(), want);
    if (s.ok()) {
      EXPECT_EQ(out, c.text);
    }
  }
}

TEST(ReadInputTest, MissingFile) {
  std::string out;
  const Status s = ReadInput("/nonexistent/gpusched.yaml", out);
  EXPECT_EQ(s.code(), Status::Code::kNotFound);
  EXPECT_EQ(s.message(), "the path \"/nonexistent/gpusched.yaml\" does not exist");
}

TEST(ReadInputTest, ADirectoryIsNotAFile) {
  std::string out;
  const Status s = ReadInput(GPUSCHED_SOURCE_DIR "/examples", out);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(s.message(), "\"" GPUSCHED_SOURCE_DIR "/examples\" is a directory, not a file");
}

TEST(ReadInputTest, AManifestOverTheLimitIsRefusedBeforeItIsRead) {
  // A sparse file one byte over 1 GiB: refused from its size alone, so the
  // test neither writes nor reads a gigabyte.
  TempPath f("sparse");
  { std::ofstream(f.path()).flush(); }
  std::filesystem::resize_file(f.path(), kMaxInputBytes + 1);
  Manifests m;
  const Status s = LoadManifestPaths({f.path()}, LoadOptions{}, m);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "error: \"" + f.path() + "\" is 1073741825 bytes, more than the 1073741824 gpusched reads "
                         "from one input");
  EXPECT_TRUE(m.pods.empty());
  EXPECT_TRUE(m.nodes.empty());
}

}  // namespace
}  // namespace gpusched
