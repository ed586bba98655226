#include "gpusched/util/exit_memory.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

struct Counted {
  explicit Counted(int* d) : destroyed(d) {}
  ~Counted() { ++*destroyed; }
  int* destroyed;
};

TEST(ExitMemoryTest, DestroyedAtOnceUnlessTheProcessExitsAfterTheCommand) {
  int destroyed = 0;
  ASSERT_FALSE(ProcessExitsAfterCommand());
  KeepUntilExit(std::make_unique<Counted>(&destroyed));
  EXPECT_EQ(destroyed, 1);

  SetProcessExitsAfterCommand(true);
  static int kept_destroyed = 0;  // outlives the kept object, which is never destroyed
  KeepUntilExit(std::make_unique<Counted>(&kept_destroyed));
  EXPECT_EQ(kept_destroyed, 0);
  SetProcessExitsAfterCommand(false);
  KeepUntilExit(std::unique_ptr<Counted>());  // null: nothing to keep
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace gpusched
