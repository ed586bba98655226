// Tests for src/model/object_meta_validation.cc, through ValidatePod as the
// API server runs it.
//
// Upstream sources: github.com/kubernetes/apimachinery at tag
// kubernetes-1.35.0 (72d71eac265e06713c6d83d7034aac609450243f):
//   pkg/api/validation/objectmeta.go, generic.go (ValidateObjectMeta)
//   github.com/kubernetes/kubernetes pkg/apis/core/validation/validation_test.go
//   (TestValidatePod)
#include "gpusched/model/object_meta_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/model/validation.h"

#include "model_test_util.h"
#include "validation_test_util.h"

namespace gpusched {
namespace {

using namespace validationtest;
using testing::Q;
using testing::RL;

// --- metadata -----------------------------------------------------------

// ValidateObjectMeta (apimachinery objectmeta.go) with ValidatePodName =
// NameIsDNSSubdomain and ValidateNamespaceName = NameIsDNSLabel; the
// TestValidatePod cases "bad name", "bad namespace" and "bad label".
TEST(ValidateMetaTest, PodMetadata) {
  struct Case {
    const char* name;
    ObjectMeta meta;
    Strings expect;
  };
  auto meta = [](std::string name, std::string ns) {
    ObjectMeta m;
    m.name = std::move(name);
    m.namespace_ = std::move(ns);
    return m;
  };
  ObjectMeta bad_label = meta("123", "ns");
  bad_label.labels["NoUppercaseOrSpecialCharsLike=Equals"] = "bar";
  ObjectMeta bad_label_value = meta("123", "ns");
  bad_label_value.labels["app"] = "-web";
  ObjectMeta bad_annotation = meta("123", "ns");
  bad_annotation.annotations["Example.com/Key"] = "upper case is allowed in annotation keys";
  bad_annotation.annotations["a/b/c"] = "x";
  ObjectMeta huge_annotation = meta("123", "ns");
  huge_annotation.annotations["k"] = std::string(256 * 1024, 'v');
  ObjectMeta generated = meta("web-7fd9c", "ns");
  generated.generate_name = "web-";
  ObjectMeta bad_generated = meta("x", "ns");
  bad_generated.generate_name = "Web-";
  const std::vector<Case> cases = {
      {"bad name", meta("", "ns"), {"metadata.name: Required value: name or generateName is required"}},
      {"bad namespace", meta("123", ""), {"metadata.namespace: Required value"}},
      {"uppercase name", meta("Bad_Name", "ns"), {"metadata.name: Invalid value: \"Bad_Name\": " + kSubdomainRegex}},
      {"namespace with dots", meta("123", "a.b"), {"metadata.namespace: Invalid value: \"a.b\": " + kDots}},
      {"bad label", bad_label,
       {"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": " + kNamePartRegex}},
      {"bad label value", bad_label_value, {"metadata.labels: Invalid value: \"-web\": " + kLabelValueRegex}},
      {"annotation keys are checked in lower case", bad_annotation,
       {"metadata.annotations: Invalid value: \"a/b/c\": " + kTooManySlashes}},
      {"annotations over 256 KiB", huge_annotation,
       {"metadata.annotations: Too long: may not be more than 262144 bytes"}},
      // maskTrailingDash: a generateName may end in '-'.
      {"generateName with a trailing dash", generated, {}},
      {"bad generateName", bad_generated, {"metadata.generateName: Invalid value: \"Web-\": " + kSubdomainRegex}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.meta = c.meta;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
    // Templates skip ObjectMeta (their names are generated).
    EXPECT_TRUE(ValidatePod(p, "spec.template.spec", /*validate_meta=*/false).empty());
  }
}

}  // namespace
}  // namespace gpusched
