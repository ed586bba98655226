#include "gpusched/util/status.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(StatusTest, OkAndErrors) {
  EXPECT_TRUE(Status::Ok().ok());
  EXPECT_EQ(Status::Ok().ToString(), "OK");
  Status s = Status::InvalidArgument("a.yaml:3: bad");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.ToString(), "a.yaml:3: bad");
}

TEST(ResultTest, HoldsValueOrStatus) {
  Result<int> v = 5;
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 5);
  Result<int> e = Status::NotFound("no such file");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "no such file");
}

}  // namespace
}  // namespace gpusched
