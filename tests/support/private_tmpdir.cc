// Gives every test process its own ::testing::TempDir().
//
// ctest runs each test as its own process, several at once (-j), and other
// checkouts on the same machine run the same tests too; tests that write a
// fixed name under /tmp (a generated cluster, a simulate output directory) would
// then read each other's half-written files. GoogleTest's TempDir() honours
// TEST_TMPDIR, so this sets it, before main, to a fresh directory of this process,
// removed again at exit.
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

struct PrivateTmpDir {
  std::string path;
  PrivateTmpDir() {
    if (std::getenv("TEST_TMPDIR") != nullptr) return;  // the caller chose one
    std::string templ = (std::filesystem::temp_directory_path() / "gpusched-test-XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr) return;  // TempDir() stays /tmp/
    path = templ;
    setenv("TEST_TMPDIR", path.c_str(), 1);
  }
  ~PrivateTmpDir() {
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const PrivateTmpDir private_tmp_dir;

}  // namespace
