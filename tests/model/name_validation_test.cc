// Tests for src/model/name_validation.cc: DNS-1123 labels and subdomains,
// qualified names and label values, with upstream's messages.
//
// Upstream sources: github.com/kubernetes/apimachinery at tag
// kubernetes-1.35.0 (72d71eac265e06713c6d83d7034aac609450243f):
//   pkg/util/validation/validation.go, validation_test.go (DNS-1123 names)
//   pkg/api/validate/content/kube.go, errors.go, kube_test.go (label keys
//     and values: IsQualifiedName and IsValidLabelValue alias these)
#include "gpusched/model/name_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model_test_util.h"
#include "validation_test_util.h"

namespace gpusched {
namespace {

using namespace validationtest;
using testing::Q;
using testing::RL;

// --- name checks --------------------------------------------------------

struct NameCase {
  std::string value;
  Strings expect;
};

// validation_test.go TestIsDNS1123Label: all good and bad values.
TEST(NameValidationTest, IsDNS1123Label) {
  const std::string max_len = "must be no more than 63 characters";
  std::vector<NameCase> cases;
  for (const char* v : {"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2"})
    cases.push_back({v, {}});
  cases.push_back({std::string(63, 'a'), {}});
  for (const char* v : {"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a",
                        "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "1.", ".1", " ", "a ", " a", "a b", "1 ", " 1",
                        "1 2"})
    cases.push_back({v, {kLabelRegex}});
  // Valid subdomains that are not labels: "since we already checked length, it must be dots".
  cases.push_back({"a.b", {kDots}});
  cases.push_back({"1.2", {kDots}});
  cases.push_back({std::string(64, 'a'), {max_len}});
  for (const auto& c : cases) {
    SCOPED_TRACE("\"" + c.value + "\"");
    EXPECT_EQ(IsDNS1123Label(c.value), c.expect);
  }
}

// validation_test.go TestIsDNS1123Subdomain: all good and bad values.
TEST(NameValidationTest, IsDNS1123Subdomain) {
  std::vector<NameCase> cases;
  for (const char* v : {"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
                        "a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1",
                        "a-1.1", "a--1--2--b.1", "0.a", "01.a", "012.a", "1a.a", "1-a.a", "0.1", "01.1", "012.1",
                        "1a.1", "1-a.1", "1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5",
                        "11.22.33.44.55"})
    cases.push_back({v, {}});
  cases.push_back({std::string(253, 'a'), {}});
  for (const char* v : {"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a",
                        "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2", " ", "a ", " a",
                        "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A", "A1.a", "a1.A", "A.1", "aB.1", "A1.1",
                        "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A", "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e",
                        "aa.bB.cc.dd.ee", "a@b", "a,b", "a;b", "a:b", "a%b", "a?b", "a$b"})
    cases.push_back({v, {kSubdomainRegex}});
  cases.push_back({std::string(254, 'a'), {"must be no more than 253 characters"}});
  for (const auto& c : cases) {
    SCOPED_TRACE("\"" + c.value + "\"");
    EXPECT_EQ(IsDNS1123Subdomain(c.value), c.expect);
  }
}

// content/kube_test.go TestIsLabelKey (validation.IsQualifiedName is
// content.IsLabelKey since v1.35; its length messages say "bytes").
TEST(NameValidationTest, IsQualifiedName) {
  std::vector<NameCase> cases;
  for (const char* v : {"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple",
                        "now-with-dashes/simple", "now-with-dashes/now-with-dashes", "now.with.dots/simple",
                        "now-with.dashes-and.dots/simple", "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678",
                        "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
                        "nvidia.com/gpu"})
    cases.push_back({v, {}});
  cases.push_back({std::string(63, 'a'), {}});
  cases.push_back({std::string(253, 'a') + "/" + std::string(63, 'b'), {}});
  cases.push_back({"nospecialchars%^=@", {kNamePartRegex}});
  cases.push_back({"cantendwithadash-", {kNamePartRegex}});
  cases.push_back({"-cantstartwithadash-", {kNamePartRegex}});
  cases.push_back({"only/one/slash", {kTooManySlashes}});
  cases.push_back({"Example.com/abc", {"prefix part " + kSubdomainRegex}});
  cases.push_back({"example_com/abc", {"prefix part " + kSubdomainRegex}});
  cases.push_back({"example.com/", {"name part must be non-empty", kNamePartRegex}});
  cases.push_back({"/simple", {"prefix part must be non-empty"}});
  cases.push_back({"", {"name part must be non-empty", kNamePartRegex}});
  cases.push_back({std::string(64, 'a'), {"name part must be no more than 63 bytes"}});
  cases.push_back({std::string(254, 'a') + "/abc", {"prefix part must be no more than 253 bytes"}});
  for (const auto& c : cases) {
    SCOPED_TRACE("\"" + c.value + "\"");
    EXPECT_EQ(IsQualifiedName(c.value), c.expect);
  }
}

// content/kube_test.go TestIsLabelValue.
TEST(NameValidationTest, IsValidLabelValue) {
  std::vector<NameCase> cases;
  for (const char* v : {"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", ""})
    cases.push_back({v, {}});
  cases.push_back({std::string(63, 'a'), {}});
  for (const char* v : {"nospecialchars%^=@", "Tama-nui-te-r\xc4\x81.is.M\xc4\x81ori.sun", "\\backslashes\\are\\bad",
                        "-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot."})
    cases.push_back({v, {kLabelValueRegex}});
  cases.push_back({std::string(64, 'a'), {"must be no more than 63 bytes"}});
  for (const auto& c : cases) {
    SCOPED_TRACE("\"" + c.value + "\"");
    EXPECT_EQ(IsValidLabelValue(c.value), c.expect);
  }
}

}  // namespace
}  // namespace gpusched
