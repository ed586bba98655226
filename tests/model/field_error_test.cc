// Tests for src/model/field_error.cc: field.Error formatting, Go's and
// encoding/json's quoting of a BadValue, and kubectl's message.
//
// Upstream sources (Kubernetes v1.35):
//   github.com/kubernetes/apimachinery at tag kubernetes-1.35.0
//   (72d71eac265e06713c6d83d7034aac609450243f):
//     pkg/util/validation/field/errors.go, errors_test.go (TestErrorFormatting)
//   github.com/kubernetes/kubectl at dee3483a3d6a64c07fdf746caf80af446dee99ac:
//     pkg/cmd/util/helpers.go (checkErr, statusCausesToAggrError, MultilineError)
#include "gpusched/model/field_error.h"

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

}  // namespace
}  // namespace gpusched
