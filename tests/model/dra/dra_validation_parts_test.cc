// The shared DRA field checks (src/model/dra/dra_validation_parts.h): the
// edges of qualified names, pool names and driver names that the claim and
// slice tables do not reach.
#include "../../../src/model/dra/dra_validation_parts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched::dra_validation {
namespace {

std::vector<std::string> Texts(const Errors& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(DraValidationPartsTest, QualifiedNames) {
  struct Case {
    const char* name;
    bool fully;
    std::vector<std::string> want;
  };
  const std::string id33(33, 'a');
  const std::vector<Case> cases = {
      {"gpu.example.com/pcieRoot", true, {}},
      {"pcieRoot", false, {}},
      {"_private", false, {}},
      {"gpu.example.com/", false, {"f: Invalid value: \"\": the name must not be empty"}},
      {"", true,
       {"f: Invalid value: \"\": a valid C identifier must start with alphabetic character or '_', followed by a "
        "string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
        "validation is '[A-Za-z_][A-Za-z0-9_]*')",
        "f: Invalid value: \"\": a fully qualified name must be a domain and a name separated by a slash"}},
  };
  for (const Case& c : cases) {
    Errors errs;
    if (c.fully) {
      ValidateFullyQualifiedName(c.name, "f", errs);
    } else {
      ValidateQualifiedName(c.name, "f", errs);
    }
    EXPECT_EQ(Texts(errs), c.want) << c.name;
  }
  Errors errs;
  ValidateQualifiedName("example.com/" + id33, "f", errs);
  EXPECT_EQ(Texts(errs), std::vector<std::string>{"f: Too long: may not be more than 32 bytes"});
}

TEST(DraValidationPartsTest, PathsAndPools) {
  EXPECT_EQ(Index("spec.devices", 3), "spec.devices[3]");
  EXPECT_EQ(Key("spec.devices[0].attributes", "gpu.example.com/model"),
            "spec.devices[0].attributes[gpu.example.com/model]");
  Errors errs;
  ValidatePoolName(std::string(254, 'a'), "p", errs);
  ASSERT_FALSE(errs.empty());
  EXPECT_EQ(errs.front().ToString(), "p: Too long: may not be more than 253 bytes");
}

}  // namespace
}  // namespace gpusched::dra_validation
