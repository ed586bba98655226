#include "gpusched/util/base64.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

// RFC 4648 section 10 test vectors.
TEST(Base64Test, Rfc4648Vectors) {
  const std::pair<const char*, const char*> cases[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                                       {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                                                       {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : cases) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    EXPECT_EQ(Base64Decode(encoded), std::optional<std::string>(plain)) << encoded;
  }
}

TEST(Base64Test, LineBreaksAreSkipped) { EXPECT_EQ(Base64Decode("Zm9v\nYmFy\r\n"), std::optional<std::string>("foobar")); }

TEST(Base64Test, IllegalInputNamesTheByte) {
  const std::pair<const char*, size_t> cases[] = {{"Zm9v!", 4}, {"Zg=", 3}, {"Z===", 1}, {"Zg==Zg==", 4}, {"Zm9vY", 5}};
  for (const auto& [text, at] : cases) {
    size_t bad = 99;
    EXPECT_FALSE(Base64Decode(text, &bad).has_value()) << text;
    EXPECT_EQ(bad, at) << text;
  }
}

}  // namespace
}  // namespace gpusched
