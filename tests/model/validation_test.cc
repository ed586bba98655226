// Tests for gpusched's API-server defaulting and validation of Pods and Nodes
// (src/model/validation.cc) and the kubectl message they end up in.
//
// Upstream sources (Kubernetes v1.35, the release gpusched follows):
//   github.com/kubernetes/apimachinery at tag kubernetes-1.35.0
//   (72d71eac265e06713c6d83d7034aac609450243f):
//     pkg/util/validation/field/errors.go, errors_test.go (TestErrorFormatting)
//     pkg/util/validation/field/path.go (Path.String)
//     pkg/util/validation/validation.go, validation_test.go (DNS-1123 names)
//     pkg/api/validate/content/kube.go, errors.go, kube_test.go (label keys
//       and values: IsQualifiedName and IsValidLabelValue alias these)
//     pkg/api/validation/objectmeta.go, generic.go (ValidateObjectMeta)
//   github.com/kubernetes/kubectl at dee3483a3d6a64c07fdf746caf80af446dee99ac:
//     pkg/cmd/util/helpers.go (checkErr, statusCausesToAggrError, MultilineError)
//   github.com/kubernetes/kubernetes (stored copy at commit
//   000f26050b9be6fb3d79fae95e06b47fc96128cd):
//     pkg/apis/core/validation/validation.go (validateResourceRequirements,
//       ValidateResourceQuantityValue, validateResourceName,
//       validateContainerResourceName, validateContainers,
//       validateInitContainers, ValidateTolerations, ValidatePreemptionPolicy,
//       validateNodeTaints, ValidateNode, ValidateNodeResources)
//     pkg/apis/core/validation/validation_test.go (TestValidateContainers,
//       TestValidateInitContainers, TestValidatePod, TestValidateResourceRequirements)
//     pkg/apis/core/v1/defaults.go (SetDefaults_Pod)
//
// Most upstream tables only assert the error type and field (or that there
// is an error at all); the exact messages below are what upstream's code
// builds for those inputs, read from the functions named above. Go iterates
// resource maps in random order; gpusched iterates them sorted by name, so
// where a table has several resources the expected order is the sorted one.
#include "gpusched/model/validation.h"

#include <gtest/gtest.h>

#include "model_test_util.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/quantity.h"

namespace gpusched {
namespace {

// --- upstream message constants, written out in full --------------------

const std::string kLabelRegex =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kSubdomainRegex =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kNamePartRegex =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kTooManySlashes =
    "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. "
    "'example.com/MyName')";
// Copied from validation_test.go's "invalid required node affinity" case.
const std::string kLabelValueRegex =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::string kDots = "must not contain dots";
const std::string kLimitMustBeSet = "Limit must be set for non overcommitable resources";
const std::string kEmptyKeyOperator =
    "operator must be Exists when `key` is empty, which means \"match all values and all keys\"";

using Strings = std::vector<std::string>;

using testing::Q;
using testing::RL;

Strings Messages(const std::vector<FieldError>& errs) {
  Strings out;
  for (const auto& e : errs) out.push_back(e.ToString());
  return out;
}

// podtest.MakePod: a named pod in a namespace with one valid container.
Pod MakePod(const std::string& name = "123") {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "ns";
  p.containers.push_back(Container{"ctr", "image", {}, {}, "", {}});
  return p;
}

Container MakeContainer(const std::string& name, ResourceList requests = {}, ResourceList limits = {},
                        const std::string& restart_policy = "") {
  return Container{name, "image", std::move(requests), std::move(limits), restart_policy, {}};
}

Node MakeNode(const std::string& name = "node") {
  Node n;
  n.meta.name = name;
  return n;
}

// --- field.Error formatting ---------------------------------------------

// errors_test.go TestErrorFormatting (the error types gpusched produces).
// FieldError::value is the already-rendered BadValue; for Required,
// Forbidden and TooLong it is never printed.
TEST(FieldErrorTest, FormattingMatchesUpstreamErrorBody) {
  using T = FieldError::Type;
  struct Case {
    const char* name;
    FieldError input;
    std::string expect;
  };
  const Case cases[] = {
      {"required", FieldError{T::kRequired, "path.to.field", "\"the value\"", "the details"},
       "path.to.field: Required value: the details"},
      {"required func", FieldError::Required("path.to.field", "the details"),
       "path.to.field: Required value: the details"},
      {"required func, no detail", FieldError::Required("spec.containers", ""), "spec.containers: Required value"},
      {"forbidden", FieldError{T::kForbidden, "path.to.field", "\"the value\"", "the details"},
       "path.to.field: Forbidden: the details"},
      {"forbidden func", FieldError::Forbidden("path.to.field", "the details"), "path.to.field: Forbidden: the details"},
      {"too long", FieldError{T::kTooLong, "path.to.field", "\"the value\"", "the details"},
       "path.to.field: Too long: the details"},
      {"too long func(1)", FieldError::TooLong("path.to.field", 1), "path.to.field: Too long: may not be more than 1 byte"},
      {"too long func(2)", FieldError::TooLong("path.to.field", 2),
       "path.to.field: Too long: may not be more than 2 bytes"},
      {"too long func(-1)", FieldError::TooLong("path.to.field", -1), "path.to.field: Too long: value is too long"},
      {"invalid func", FieldError::Invalid("path.to.field", "the value", "the details"),
       "path.to.field: Invalid value: \"the value\": the details"},
      {"not supported", FieldError{T::kNotSupported, "path.to.field", "\"the value\"", "the details"},
       "path.to.field: Unsupported value: \"the value\": the details"},
      {"not supported func", FieldError::NotSupported("path.to.field", "the value", {"val1", "val2"}),
       "path.to.field: Unsupported value: \"the value\": supported values: \"val1\", \"val2\""},
      {"not supported func, no values", FieldError::NotSupported("path.to.field", "the value", {}),
       "path.to.field: Unsupported value: \"the value\""},
      {"duplicate", FieldError{T::kDuplicate, "path.to.field", "\"the value\"", "the details"},
       "path.to.field: Duplicate value: \"the value\": the details"},
      {"duplicate func", FieldError::Duplicate("path.to.field", "the value"),
       "path.to.field: Duplicate value: \"the value\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.input.ToString(), c.expect);
  }
}

// How a BadValue is rendered: a Go string with strconv.Quote (%q), any other
// type (ResourceName, enum strings, Quantity) with encoding/json, HTML-safe.
// The expectations are the Go standard library's output (json.Marshal of
// Go >= 1.22, which Kubernetes v1.35 is built with, writes \b and \f).
TEST(QuoteTest, GoQuoteAndJsonQuoteMatchGoStandardLibrary) {
  struct Case {
    std::string in;
    std::string go_quote;
    std::string json;
  };
  const Case cases[] = {
      {"500m", "\"500m\"", "\"500m\""},
      {"", "\"\"", "\"\""},
      {"a\"b\\c", "\"a\\\"b\\\\c\"", "\"a\\\"b\\\\c\""},
      {"tab\there", "\"tab\\there\"", "\"tab\\there\""},
      {"nl\nx", "\"nl\\nx\"", "\"nl\\nx\""},
      {std::string("\x00\x1f\x7f", 3), "\"\\x00\\x1f\\x7f\"", "\"\\u0000\\u001f\x7f\""},
      {"\a\b\f\v\r", "\"\\a\\b\\f\\v\\r\"", "\"\\u0007\\b\\f\\u000b\\r\""},
      {"<a&b>", "\"<a&b>\"", "\"\\u003ca\\u0026b\\u003e\""},
      {"M\xc4\x81ori", "\"M\xc4\x81ori\"", "\"M\xc4\x81ori\""},  // "Māori"
      {"\xc2\xa0nbsp", "\"\\u00a0nbsp\"", "\"\xc2\xa0nbsp\""},   // U+00A0 is not printable for Go
      {"\xe2\x80\xa8", "\"\\u2028\"", "\"\\u2028\""},
      {"\xff", "\"\\xff\"", "\"\\ufffd\""},
      {"\xc3\xa9\xc3", "\"\xc3\xa9\\xc3\"", "\"\xc3\xa9\\ufffd\""},  // "é" then a truncated sequence
      {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", "\"\xf0\x9f\x98\x80\""},  // U+1F600
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(GoQuote(c.in));
    EXPECT_EQ(GoQuote(c.in), c.go_quote);
    EXPECT_EQ(JsonQuote(c.in), c.json);
  }
}

// --- kubectl's message --------------------------------------------------

// kubectl checkErr: `The <Kind> "<name>" is invalid` + MultilineError(": ",
// causes): one cause inline, several as "\n* <cause>" lines; identical
// "<field>: <message>" causes are dropped (statusCausesToAggrError), in
// first-seen order. kubectl's final "\n" is the caller's to print.
TEST(InvalidObjectMessageTest, KubectlFormat) {
  const FieldError a = FieldError::Required("spec.containers", "");
  const FieldError b = FieldError::Invalid("metadata.name", "Bad_Name", "x");
  const FieldError c = FieldError::Required("spec.containers[0].resources.limits", kLimitMustBeSet);
  struct Case {
    const char* name;
    std::string kind, object;
    std::vector<FieldError> errs;
    std::string expect;
  };
  const Case cases[] = {
      {"single cause inline", "Pod", "x", {a}, "The Pod \"x\" is invalid: spec.containers: Required value"},
      {"several causes as a list", "Pod", "x", {b, a},
       "The Pod \"x\" is invalid: \n* metadata.name: Invalid value: \"Bad_Name\": x\n* spec.containers: Required value"},
      {"identical causes collapse to one, printed inline", "Pod", "x", {c, c},
       "The Pod \"x\" is invalid: spec.containers[0].resources.limits: Required value: " + kLimitMustBeSet},
      {"duplicates dropped, first-seen order kept", "Node", "n", {a, b, a},
       "The Node \"n\" is invalid: \n* spec.containers: Required value\n* metadata.name: Invalid value: "
       "\"Bad_Name\": x"},
      {"name quoted with %q", "Deployment", "we\"b", {a},
       "The Deployment \"we\\\"b\" is invalid: spec.containers: Required value"},
  };
  for (const auto& t : cases) {
    SCOPED_TRACE(t.name);
    EXPECT_EQ(InvalidObjectMessage(t.kind, t.object, t.errs), t.expect);
  }
}

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

// --- defaulting ---------------------------------------------------------

// defaults.go SetDefaults_Pod: a limit without a request becomes the request
// (containers and init containers); an explicit request is kept. The
// namespace default is the request namespace kubectl sends ("default").
TEST(DefaultPodTest, RequestsFromLimitsAndNamespace) {
  Pod p;
  p.meta.name = "x";
  p.containers.push_back(MakeContainer("a", RL({{"cpu", "250m"}}), RL({{"cpu", "1"}, {"nvidia.com/gpu", "2"}})));
  p.init_containers.push_back(MakeContainer("i", {}, RL({{"memory", "1Gi"}})));
  DefaultPod(p);
  EXPECT_EQ(p.meta.namespace_, "default");
  ASSERT_EQ(p.containers[0].requests.size(), 2u);
  EXPECT_EQ(p.containers[0].requests.at("cpu").String(), "250m");
  EXPECT_EQ(p.containers[0].requests.at("nvidia.com/gpu").String(), "2");
  ASSERT_EQ(p.init_containers[0].requests.size(), 1u);
  EXPECT_EQ(p.init_containers[0].requests.at("memory").String(), "1Gi");

  Pod q = MakePod();
  DefaultPod(q);
  EXPECT_EQ(q.meta.namespace_, "ns");
  EXPECT_TRUE(q.containers[0].requests.empty());
}

// --- resource requirements ----------------------------------------------

struct ResourcesCase {
  const char* name;
  ResourceList requests;
  ResourceList limits;
  Strings expect;  // errors of ValidatePod for a pod with this one container
};

void RunResourcesCases(const std::vector<ResourcesCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.containers[0].requests = c.requests;
    p.containers[0].limits = c.limits;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// validation_test.go TestValidateResourceRequirements (container cases) and
// the resource success cases of TestValidateContainers.
TEST(ValidateResourcesTest, UpstreamSuccessCases) {
  RunResourcesCases({
      {"limits and requests of hugepage resource are equal", RL({{"cpu", "10"}, {"hugepages-2Mi", "2Mi"}}),
       RL({{"cpu", "10"}, {"hugepages-2Mi", "2Mi"}}), {}},
      {"limits and requests of memory resource are equal", RL({{"memory", "2Mi"}}), RL({{"memory", "2Mi"}}), {}},
      {"limits and requests of cpu resource are equal", RL({{"cpu", "10"}}), RL({{"cpu", "10"}}), {}},
      {"resources-test", {}, RL({{"cpu", "10"}, {"memory", "10G"}, {"my.org/resource", "10"}}), {}},
      {"resources-test-with-request-and-limit", RL({{"cpu", "10"}, {"memory", "10G"}}),
       RL({{"cpu", "10"}, {"memory", "10G"}}), {}},
      {"resources-request-limit-simple", RL({{"cpu", "8"}}), RL({{"cpu", "10"}}), {}},
      {"resources-request-limit-edge", RL({{"cpu", "10"}, {"memory", "10G"}, {"my.org/resource", "10"}}),
       RL({{"cpu", "10"}, {"memory", "10G"}, {"my.org/resource", "10"}}), {}},
      {"resources-request-limit-partials", RL({{"cpu", "9.5"}, {"memory", "10G"}}),
       RL({{"cpu", "10"}, {"my.org/resource", "10"}}), {}},
      {"resources-request", RL({{"cpu", "9.5"}, {"memory", "10G"}}), {}, {}},
      {"valid extended resources for regular container", RL({{"example.com/a", "10"}}),
       RL({{"example.com/a", "10"}}), {}},
      // ours: the GPU case the project is about.
      {"whole GPUs, request equal to limit", RL({{"nvidia.com/gpu", "2"}}), RL({{"nvidia.com/gpu", "2"}}), {}},
  });
}

// validation_test.go TestValidateContainers / TestValidatePod /
// TestValidateResourceRequirements error cases, with upstream's field and
// type and the message validateResourceRequirements builds.
TEST(ValidateResourcesTest, UpstreamErrorCases) {
  const std::string lim = "spec.containers[0].resources.limits";
  const std::string req = "spec.containers[0].resources.requests";
  RunResourcesCases({
      {"invalid compute resource", {}, RL({{"disk", "10G"}}),
       {lim + "[disk]: Invalid value: \"disk\": must be a standard resource type or fully qualified",
        lim + "[disk]: Invalid value: \"disk\": must be a standard resource for containers"}},
      {"Resource CPU invalid", {}, RL({{"cpu", "-10"}, {"memory", "0"}}),
       {lim + "[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"}},
      {"Resource Requests CPU invalid", RL({{"cpu", "-10"}, {"memory", "0"}}), {},
       {req + "[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"}},
      {"Resource Memory invalid", {}, RL({{"cpu", "0"}, {"memory", "-10"}}),
       {lim + "[memory]: Invalid value: \"-10\": must be greater than or equal to 0"}},
      {"Request limit simple invalid", RL({{"cpu", "6"}, {"memory", "3"}}), RL({{"cpu", "5"}, {"memory", "3"}}),
       {req + ": Invalid value: \"6\": must be less than or equal to cpu limit of 5"}},
      {"Memory request limit multiple invalid", RL({{"cpu", "5"}, {"memory", "4"}}),
       RL({{"cpu", "5"}, {"memory", "3"}}),
       {req + ": Invalid value: \"4\": must be less than or equal to memory limit of 3"}},
      {"Invalid storage limit request", {}, RL({{"attachable-volumes-aws-ebs", "10"}}),
       {lim + "[attachable-volumes-aws-ebs]: Invalid value: \"attachable-volumes-aws-ebs\": must be a standard "
              "resource type or fully qualified",
        lim + "[attachable-volumes-aws-ebs]: Invalid value: \"attachable-volumes-aws-ebs\": must be a standard "
              "resource for containers"}},
      {"invalid extended resource name in container request", RL({{"invalid-name", "2"}}),
       RL({{"invalid-name", "2"}}),
       {lim + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource type or fully qualified",
        lim + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource for containers",
        req + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource type or fully qualified",
        req + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource for containers"}},
      {"invalid extended resource requirement: request must be == limit", RL({{"example.com/a", "2"}}),
       RL({{"example.com/a", "1"}}), {req + ": Invalid value: \"2\": must be equal to example.com/a limit of 1"}},
      {"invalid extended resource requirement without limit", RL({{"example.com/a", "2"}}), {},
       {lim + ": Required value: " + kLimitMustBeSet}},
      {"invalid fractional extended resource in container request", RL({{"example.com/a", "500m"}}), {},
       {req + "[example.com/a]: Invalid value: \"500m\": must be an integer", lim + ": Required value: " + kLimitMustBeSet}},
      {"invalid fractional extended resource in container limit", RL({{"example.com/a", "5"}}),
       RL({{"example.com/a", "2.5"}}),
       {lim + "[example.com/a]: Invalid value: \"2500m\": must be an integer",
        req + ": Invalid value: \"5\": must be equal to example.com/a limit of 2500m"}},
      {"hugepage resource without cpu or memory", RL({{"hugepages-2Mi", "2Mi"}}), RL({{"hugepages-2Mi", "2Mi"}}),
       {"spec.containers[0].resources: Forbidden: HugePages require cpu or memory"}},
      // validateResourceQuantityHugePageValue (IsHugePageResourceValueDivisible,
      // helpers_test.go TestIsHugePageResourceValueDivisible: 5Mi of 2Mi pages).
      {"hugepages not a multiple of the page size", RL({{"cpu", "1"}, {"hugepages-2Mi", "5Mi"}}),
       RL({{"cpu", "1"}, {"hugepages-2Mi", "5Mi"}}),
       {lim + "[hugepages-2Mi]: Invalid value: \"5Mi\": 5Mi is not positive integer multiple of hugepages-2Mi",
        req + "[hugepages-2Mi]: Invalid value: \"5Mi\": 5Mi is not positive integer multiple of hugepages-2Mi"}},
      {"hugepages with a bad page size", {}, RL({{"cpu", "1"}, {"hugepages-bad", "128Ki"}}),
       {lim + "[hugepages-bad]: Invalid value: \"128Ki\": 128Ki is not positive integer multiple of hugepages-bad"}},
      {"cpu request above limit with a fraction", RL({{"cpu", "1500m"}}), RL({{"cpu", "1"}}),
       {req + ": Invalid value: \"1500m\": must be less than or equal to cpu limit of 1"}},
  });
}

// The messages behind the GPU rules, after defaulting, as `kubectl apply`
// prints them. IsExtendedResourceName makes nvidia.com/gpu an integer,
// non-overcommitable resource; the integer check's BadValue is the Quantity,
// which encoding/json renders as "500m" (with the quotes).
TEST(ValidateResourcesTest, GpuRulesThroughKubectlMessage) {
  struct Case {
    const char* name;
    ResourceList requests, limits;
    std::string expect;
  };
  const Case cases[] = {
      {"fractional GPU limit (request defaulted from it)", {}, RL({{"nvidia.com/gpu", "0.5"}}),
       "The Pod \"123\" is invalid: \n"
       "* spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer\n"
       "* spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer"},
      {"GPU request without a limit", RL({{"nvidia.com/gpu", "1"}}), {},
       "The Pod \"123\" is invalid: spec.containers[0].resources.limits: Required value: " + kLimitMustBeSet},
      {"GPU request below its limit", RL({{"nvidia.com/gpu", "1"}}), RL({{"nvidia.com/gpu", "2"}}),
       "The Pod \"123\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to "
       "nvidia.com/gpu limit of 2"},
      {"GPU request above its limit", RL({{"nvidia.com/gpu", "4"}}), RL({{"nvidia.com/gpu", "2"}}),
       "The Pod \"123\" is invalid: spec.containers[0].resources.requests: Invalid value: \"4\": must be equal to "
       "nvidia.com/gpu limit of 2"},
      {"bare gpu name", {}, RL({{"gpu", "1"}}),
       "The Pod \"123\" is invalid: \n"
       "* spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or "
       "fully qualified\n"
       "* spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for "
       "containers\n"
       "* spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or "
       "fully qualified\n"
       "* spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for "
       "containers"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.containers[0].requests = c.requests;
    p.containers[0].limits = c.limits;
    DefaultPod(p);
    EXPECT_EQ(InvalidObjectMessage("Pod", p.name(), ValidatePod(p)), c.expect);
  }
}

// validateResourceName / validateContainerResourceName on names that are not
// qualified names or not extended-resource names. A ResourceName BadValue is
// not a Go string, so it is rendered with encoding/json.
TEST(ValidateResourcesTest, ResourceNames) {
  const std::string lim = "spec.containers[0].resources.limits";
  const std::string long_prefix = std::string(250, 'a');
  RunResourcesCases({
      // validateContainerResourceName adds its own error after
      // validateResourceName's: "requests.<name>" is no qualified name either.
      {"too many slashes", {}, RL({{"a/b/c", "1"}}),
       {lim + "[a/b/c]: Invalid value: \"a/b/c\": " + kTooManySlashes,
        lim + "[a/b/c]: Invalid value: \"a/b/c\": doesn't follow extended resource name standard"}},
      {"uppercase prefix", {}, RL({{"Example.com/a", "1"}}),
       {lim + "[Example.com/a]: Invalid value: \"Example.com/a\": prefix part " + kSubdomainRegex,
        lim + "[Example.com/a]: Invalid value: \"Example.com/a\": doesn't follow extended resource name standard"}},
      {"JSON rendering of the name", {}, RL({{"a<b", "1"}}),
       {lim + "[a<b]: Invalid value: \"a\\u003cb\": " + kNamePartRegex,
        lim + "[a<b]: Invalid value: \"a\\u003cb\": must be a standard resource for containers"}},
      // A qualified name whose quota form "requests.<name>" is not: its prefix
      // grows past 253 bytes, so it is not an extended resource.
      {"not an extended resource name", {}, RL({{long_prefix + "/foo", "1"}}),
       {lim + "[" + long_prefix + "/foo]: Invalid value: \"" + long_prefix +
        "/foo\": doesn't follow extended resource name standard"}},
      {"requests. prefix is a quota name", {}, RL({{"requests.example.com/a", "1"}}),
       {lim + "[requests.example.com/a]: Invalid value: \"requests.example.com/a\": doesn't follow extended "
              "resource name standard"}},
      {"kubernetes.io prefixed native resource", {}, RL({{"kubernetes.io/foo", "1"}}), {}},
      {"standard but not for containers", {}, RL({{"pods", "1"}}),
       {lim + "[pods]: Invalid value: \"pods\": must be a standard resource for containers"}},
  });
}

// validateOverhead: ValidateContainerResourceRequirements on
// ResourceRequirements{Limits: overhead} under spec.overhead.
TEST(ValidateResourcesTest, Overhead) {
  struct Case {
    const char* name;
    ResourceList overhead;
    Strings expect;
  };
  const Case cases[] = {
      {"valid", RL({{"cpu", "250m"}, {"memory", "120Mi"}}), {}},
      {"negative cpu", RL({{"cpu", "-1"}}),
       {"spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"}},
      {"pods is not a container resource", RL({{"pods", "1"}}),
       {"spec.overhead.limits[pods]: Invalid value: \"pods\": must be a standard resource for containers"}},
      {"fractional extended resource", RL({{"example.com/a", "1.5"}}),
       {"spec.overhead.limits[example.com/a]: Invalid value: \"1500m\": must be an integer"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.overhead = c.overhead;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// --- containers -----------------------------------------------------------

// validation_test.go TestValidateContainers and TestValidateInitContainers
// error cases (upstream asserts type and field; BadValue from the code).
// gpusched keeps an unset restartPolicy as "", so upstream's "empty
// RestartPolicy" cases have no equivalent here.
TEST(ValidateContainersTest, UpstreamErrorCases) {
  struct Case {
    const char* name;
    std::vector<Container> containers;
    std::vector<Container> init_containers;
    Strings expect;
  };
  const std::string forbidden_rp = ": Forbidden: may not be set for non-init containers";
  const std::vector<Container> app = {MakeContainer("app")};
  const std::vector<Case> cases = {
      {"zero-length name", {Container{"", "image", {}, {}, "", {}}}, {}, {"spec.containers[0].name: Required value"}},
      {"zero-length-image", {Container{"abc", "", {}, {}, "", {}}}, {}, {"spec.containers[0].image: Required value"}},
      {"name > 63 characters", {MakeContainer(std::string(64, 'a'))}, {},
       {"spec.containers[0].name: Invalid value: \"" + std::string(64, 'a') + "\": must be no more than 63 characters"}},
      {"name not a DNS label", {MakeContainer("a.b.c")}, {},
       {"spec.containers[0].name: Invalid value: \"a.b.c\": " + kDots}},
      {"name not unique", {MakeContainer("abc"), MakeContainer("abc")}, {},
       {"spec.containers[1].name: Duplicate value: \"abc\""}},
      {"Forbidden RestartPolicy: Always", {MakeContainer("foo", {}, {}, "Always")}, {},
       {"spec.containers[0].restartPolicy" + forbidden_rp}},
      {"Forbidden RestartPolicy: OnFailure", {MakeContainer("foo", {}, {}, "OnFailure")}, {},
       {"spec.containers[0].restartPolicy" + forbidden_rp}},
      {"Forbidden RestartPolicy: Never", {MakeContainer("foo", {}, {}, "Never")}, {},
       {"spec.containers[0].restartPolicy" + forbidden_rp}},
      {"no containers", {}, {}, {"spec.containers: Required value"}},
      {"init: empty name", app, {Container{"", "image", {}, {}, "", {}}}, {"spec.initContainers[0].name: Required value"}},
      {"init: name collision with regular container", app, {MakeContainer("app")},
       {"spec.initContainers[0].name: Duplicate value: \"app\""}},
      {"init: duplicate names", app, {MakeContainer("init"), MakeContainer("init")},
       {"spec.initContainers[1].name: Duplicate value: \"init\""}},
      {"init: Not supported RestartPolicy: OnFailure", app, {MakeContainer("init", {}, {}, "OnFailure")},
       {"spec.initContainers[0].restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""}},
      {"init: Not supported RestartPolicy: Never", app, {MakeContainer("init", {}, {}, "Never")},
       {"spec.initContainers[0].restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""}},
      {"init: restartPolicy Always is a sidecar", app, {MakeContainer("sidecar", {}, {}, "Always")}, {}},
      // Order within one container: name, image, resources, then the
      // duplicate check (validateContainerCommon runs first).
      {"errors in upstream order", {MakeContainer("abc"), Container{"abc", "", {}, RL({{"cpu", "-1"}}), "", {}}}, {},
       {"spec.containers[1].image: Required value",
        "spec.containers[1].resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
        "spec.containers[1].name: Duplicate value: \"abc\""}},
      {"fractional extended resource in init container request", app,
       {MakeContainer("invalid", RL({{"example.com/a", "500m"}}))},
       {"spec.initContainers[0].resources.requests[example.com/a]: Invalid value: \"500m\": must be an integer",
        "spec.initContainers[0].resources.limits: Required value: " + kLimitMustBeSet}},
      {"fractional extended resource in init container limit", app,
       {MakeContainer("invalid", RL({{"example.com/a", "2.5"}}), RL({{"example.com/a", "2.5"}}))},
       {"spec.initContainers[0].resources.limits[example.com/a]: Invalid value: \"2500m\": must be an integer",
        "spec.initContainers[0].resources.requests[example.com/a]: Invalid value: \"2500m\": must be an integer"}},
      {"valid extended resources for init container", app,
       {MakeContainer("valid-extended", RL({{"example.com/a", "10"}}), RL({{"example.com/a", "10"}}))}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.containers = c.containers;
    p.init_containers = c.init_containers;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// validation_test.go TestValidatePod "image whitespace" cases:
// validateContainersOnlyForPod runs for Pods, not for pod templates.
TEST(ValidateContainersTest, ImageWhitespaceOnlyForPods) {
  for (const char* image : {" ", " something "}) {
    SCOPED_TRACE(image);
    Pod p = MakePod();
    p.containers[0].image = image;
    EXPECT_EQ(Messages(ValidatePod(p)),
              Strings({"spec.containers[0].image: Invalid value: \"" + std::string(image) +
                       "\": must not have leading or trailing whitespace"}));
    EXPECT_TRUE(ValidatePod(p, "spec.template.spec", /*validate_meta=*/false).empty());
  }
}

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

// --- the rest of the pod spec -------------------------------------------

// ValidateTolerations (validation.go), with the TestValidatePod toleration
// success cases. Lt/Gt (TaintTolerationComparisonOperators, alpha in v1.35,
// off by default) get the operator's NotSupported error.
TEST(ValidatePodSpecTest, Tolerations) {
  struct Case {
    const char* name;
    Toleration t;
    Strings expect;
  };
  const std::string p = "spec.tolerations[0]";
  const std::vector<Case> cases = {
      {"key, value and effect", {"foo", "", "bar", "NoSchedule"}, {}},
      {"empty effect matches all effects", {"foo", "Equal", "bar", ""}, {}},
      {"Exists with NoExecute", {"node.kubernetes.io/not-ready", "Exists", "", "NoExecute"}, {}},
      {"empty key with Exists matches everything", {"", "Exists", "", ""}, {}},
      {"GPU taint toleration", {"nvidia.com/gpu", "Exists", "", "NoSchedule"}, {}},
      {"empty key needs Exists", {"", "", "", ""}, {p + ".operator: Invalid value: \"\": " + kEmptyKeyOperator}},
      {"empty key with Equal", {"", "Equal", "bar", ""},
       {p + ".operator: Invalid value: \"Equal\": " + kEmptyKeyOperator}},
      {"Exists with a value", {"foo", "Exists", "bar", ""},
       {p + ".operator: Invalid value: \"bar\": value must be empty when `operator` is 'Exists'"}},
      {"value not a label value", {"foo", "Equal", "bar!", ""},
       {p + ".operator: Invalid value: \"bar!\": " + kLabelValueRegex}},
      {"unsupported operator", {"foo", "In", "bar", ""},
       {p + ".operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\""}},
      {"Gt without its feature gate", {"node.kubernetes.io/sla", "Gt", "950", "NoSchedule"},
       {p + ".operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\""}},
      {"unsupported effect", {"foo", "Exists", "", "NoScheduleNoAdmit"},
       {p + ".effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: \"NoSchedule\", "
            "\"PreferNoSchedule\", \"NoExecute\""}},
      {"bad key", {"nospecialchars%^=@", "Exists", "", ""}, {p + ".key: Invalid value: \"nospecialchars%^=@\": " + kNamePartRegex}},
      {"empty key, bad operator, bad effect: all reported in order", {"", "In", "", "Bogus"},
       {p + ".operator: Invalid value: \"In\": " + kEmptyKeyOperator,
        p + ".operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
        p + ".effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", "
            "\"NoExecute\""}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod pod = MakePod();
    pod.tolerations = {c.t};
    EXPECT_EQ(Messages(ValidatePod(pod)), c.expect);
  }
}

// ValidatePodSpec's checks of nodeSelector (ValidateLabels at the map's
// path), nodeName (ValidateNodeName), priorityClassName
// (ValidatePriorityClassName) and preemptionPolicy (ValidatePreemptionPolicy,
// whose supported values are listed PreemptLowerPriority first).
TEST(ValidatePodSpecTest, SchedulingFields) {
  struct Case {
    const char* name;
    void (*set)(Pod&);
    Strings expect;
  };
  const std::vector<Case> cases = {
      {"valid", [](Pod& p) {
         p.node_selector["kubernetes.io/hostname"] = "gpu-0";
         p.node_name = "gpu-0.example.com";
         p.priority_class_name = "high-priority";
         p.preemption_policy = "Never";
       }, {}},
      {"bad node selector value", [](Pod& p) { p.node_selector["accelerator"] = "nvidia a100"; },
       {"spec.nodeSelector: Invalid value: \"nvidia a100\": " + kLabelValueRegex}},
      {"bad node selector key", [](Pod& p) { p.node_selector["a/b/c"] = "x"; },
       {"spec.nodeSelector: Invalid value: \"a/b/c\": " + kTooManySlashes}},
      {"bad node name", [](Pod& p) { p.node_name = "Node_1"; },
       {"spec.nodeName: Invalid value: \"Node_1\": " + kSubdomainRegex}},
      {"bad priority class name", [](Pod& p) { p.priority_class_name = "High"; },
       {"spec.priorityClassName: Invalid value: \"High\": " + kSubdomainRegex}},
      {"bad preemption policy", [](Pod& p) { p.preemption_policy = "Sometimes"; },
       {"spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", "
        "\"Never\""}},
      // ValidatePodSpec order: containers, initContainers, nodeSelector,
      // nodeName, tolerations, priorityClassName, preemptionPolicy, overhead.
      {"spec order", [](Pod& p) {
         p.overhead = RL({{"cpu", "-1"}});
         p.preemption_policy = "Sometimes";
         p.priority_class_name = "High";
         p.tolerations = {Toleration{"foo", "In", "", ""}};
         p.node_name = "Node_1";
         p.node_selector["a"] = "-";
         p.init_containers = {Container{"", "image", {}, {}, "", {}}};
         p.containers[0].image = "";
       }, {"spec.containers[0].image: Required value", "spec.initContainers[0].name: Required value",
           "spec.nodeSelector: Invalid value: \"-\": " + kLabelValueRegex,
           "spec.nodeName: Invalid value: \"Node_1\": " + kSubdomainRegex,
           "spec.tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
           "spec.priorityClassName: Invalid value: \"High\": " + kSubdomainRegex,
           "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", "
           "\"Never\"",
           "spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    c.set(p);
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// A workload template is validated at its own spec path.
TEST(ValidatePodSpecTest, TemplateSpecPath) {
  Pod p = MakePod("");
  p.containers[0].limits = RL({{"nvidia.com/gpu", "1.5"}});
  EXPECT_EQ(Messages(ValidatePod(p, "spec.template.spec", /*validate_meta=*/false)),
            Strings({"spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"1500m\": "
                     "must be an integer"}));
}

// --- nodes --------------------------------------------------------------

// ValidateNode: ValidateObjectMeta (not namespaced), validateNodeTaints at
// fldPath "metadata"+"taints" (so metadata.taints[i], as upstream reports it),
// ValidateNodeResources at field.NewPath("status", "capacity", name) --
// which Path.String() prints as "status.capacity.<name>" -- with only the
// quantity checked, not the name. The duplicate-taint BadValue is the
// internal core.Taint, which has no json tags.
TEST(ValidateNodeTest, UpstreamChecks) {
  struct Case {
    const char* name;
    void (*set)(Node&);
    Strings expect;
  };
  const std::vector<Case> cases = {
      {"valid GPU node", [](Node& n) {
         n.capacity = RL({{"cpu", "64"}, {"memory", "512Gi"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}});
         n.allocatable = RL({{"cpu", "63500m"}, {"memory", "500Gi"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}});
         n.has_allocatable = true;
         n.taints = {Taint{"nvidia.com/gpu", "present", "NoSchedule"}, Taint{"nvidia.com/gpu", "present", "NoExecute"}};
       }, {}},
      {"missing name", [](Node& n) { n.meta.name = ""; },
       {"metadata.name: Required value: name or generateName is required"}},
      {"bad name", [](Node& n) { n.meta.name = "GPU_0"; }, {"metadata.name: Invalid value: \"GPU_0\": " + kSubdomainRegex}},
      {"namespace not allowed", [](Node& n) { n.meta.namespace_ = "default"; },
       {"metadata.namespace: Forbidden: not allowed on this type"}},
      {"taint with no key and no effect", [](Node& n) { n.taints = {Taint{"", "", ""}}; },
       {"metadata.taints[0].key: Invalid value: \"\": name part must be non-empty",
        "metadata.taints[0].key: Invalid value: \"\": " + kNamePartRegex, "metadata.taints[0].effect: Required value"}},
      {"taint with a bad value", [](Node& n) { n.taints = {Taint{"dedicated", "ml team", "NoSchedule"}}; },
       {"metadata.taints[0].value: Invalid value: \"ml team\": " + kLabelValueRegex}},
      {"taint with an unsupported effect", [](Node& n) { n.taints = {Taint{"dedicated", "ml", "NoScheduleNoAdmit"}}; },
       {"metadata.taints[0].effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: \"NoSchedule\", "
        "\"PreferNoSchedule\", \"NoExecute\""}},
      {"duplicate taint key and effect", [](Node& n) {
         n.taints = {Taint{"gpu", "a", "NoSchedule"}, Taint{"gpu", "b", "NoExecute"}, Taint{"gpu", "b", "NoSchedule"}};
       }, {"metadata.taints[2]: Duplicate value: {\"Key\":\"gpu\",\"Value\":\"b\",\"Effect\":\"NoSchedule\","
           "\"TimeAdded\":null}: taints must be unique by key and effect pair"}},
      {"fractional GPU allocatable", [](Node& n) {
         n.allocatable = RL({{"nvidia.com/gpu", "1500m"}, {"pods", "110"}});
         n.has_allocatable = true;
       }, {"status.allocatable.nvidia.com/gpu: Invalid value: \"1500m\": must be an integer"}},
      // SetDefaults_NodeStatus copies capacity into a missing allocatable
      // before validation, so both are reported.
      {"fractional GPU capacity, allocatable defaulted from it",
       [](Node& n) { n.capacity = RL({{"nvidia.com/gpu", "0.5"}}); },
       {"status.capacity.nvidia.com/gpu: Invalid value: \"500m\": must be an integer",
        "status.allocatable.nvidia.com/gpu: Invalid value: \"500m\": must be an integer"}},
      {"negative cpu and fractional pods", [](Node& n) {
         n.capacity = RL({{"cpu", "-1"}, {"pods", "110.5"}});
         n.allocatable = RL({{"cpu", "1"}});
         n.has_allocatable = true;
       }, {"status.capacity.cpu: Invalid value: \"-1\": must be greater than or equal to 0",
           "status.capacity.pods: Invalid value: \"110500m\": must be an integer"}},
      {"resource names are not checked on nodes", [](Node& n) {
         n.capacity = RL({{"gpu", "1"}, {"Example.com/x", "1"}});
       }, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Node n = MakeNode();
    c.set(n);
    EXPECT_EQ(Messages(ValidateNode(n)), c.expect);
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// ValidatePod runs the issue-12 checks in ValidatePodSpec's order (resource
// claims, containers, pod-level resources, ..., scheduling gates) and
// ValidatePodCreate's gated-nodeName rule for Pods only.
TEST(ValidatePodIssue12Test, GatesClaimsAndPodLevelResources) {
  Pod p;
  p.meta.name = "p";
  p.meta.namespace_ = "ns";
  p.node_name = "node-1";
  p.containers.push_back(Container{"ctr", "image", {}, {}, "", {ContainerClaim{"gpu", ""}}});
  auto e = std::make_shared<PodSpecExtras>();
  e->scheduling_gates = {"foo", "foo"};
  e->resource_claims = {PodResourceClaim{"gpu", "", "", "", false}};
  ResourceList pod_req;
  pod_req.emplace("ephemeral-storage", *Quantity::Parse("1Gi"));
  e->resources = PodLevelResources{pod_req, {}, false};
  p.extras = e;
  std::vector<std::string> want = {
      "spec.resourceClaims[0]: Invalid value: {\"name\":\"gpu\"}: must specify one of: `resourceClaimName`, "
      "`resourceClaimTemplateName`",
      "spec.resources.requests[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported values: "
      "\"cpu\", \"hugepages-\", \"memory\"",
      "spec.schedulingGates[1]: Duplicate value: \"foo\"",
      "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
  };
  std::vector<std::string> got;
  for (const auto& err : ValidatePod(p)) got.push_back(err.ToString());
  EXPECT_EQ(got, want);
  // A template has no nodeName rule (ValidatePodCreate is for Pods).
  got.clear();
  for (const auto& err : ValidatePod(p, "spec.template.spec", false)) got.push_back(err.ToString());
  EXPECT_EQ(got.size(), 3u);
}

TEST(ValidatePodIssue12Test, DefaultPodFillsPodLevelRequests) {
  Pod p;
  p.meta.name = "p";
  ResourceList lim;
  lim.emplace("memory", *Quantity::Parse("1Gi"));
  p.containers.push_back(Container{"ctr", "image", {}, lim, "", {}});
  auto e = std::make_shared<PodSpecExtras>();
  ResourceList pod_lim;
  pod_lim.emplace("memory", *Quantity::Parse("2Gi"));
  e->resources = PodLevelResources{{}, pod_lim, false};
  p.extras = e;
  DefaultPod(p);
  // Containers first (request = limit 1Gi), then the pod: its request is
  // the containers' aggregate, not its limit.
  EXPECT_EQ(p.Extras().resources->requests.at("memory").String(), "1Gi");
}

}  // namespace
}  // namespace gpusched
