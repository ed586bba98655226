// field.Error (k8s.io/apimachinery/pkg/util/validation/field) as gpusched's
// validators report it, and the kubectl message a rejected object ends up in,
// so that what gpusched rejects reads exactly as `kubectl apply` would print
// it. Every validator in model (and config, io) returns these.
#ifndef GPUSCHED_MODEL_FIELD_ERROR_H_
#define GPUSCHED_MODEL_FIELD_ERROR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

// One field error (apimachinery/pkg/util/validation/field.Error).
struct FieldError {
  enum class Type { kInvalid, kRequired, kDuplicate, kNotSupported, kForbidden, kTooLong, kNotFound, kTooMany };
  Type type;
  std::string field;  // e.g. spec.containers[0].resources.limits[nvidia.com/gpu]
  std::string value;  // already rendered as upstream renders it, e.g. "\"500m\""
  std::string detail;

  static FieldError Invalid(std::string field, std::string_view value, std::string detail);
  static FieldError Required(std::string field, std::string detail);
  static FieldError Duplicate(std::string field, std::string_view value);
  static FieldError NotSupported(std::string field, std::string_view value,
                                 const std::vector<std::string>& supported);
  static FieldError Forbidden(std::string field, std::string detail);
  // field.TooLong: "Too long: may not be more than <n> bytes"; the value is omitted.
  static FieldError TooLong(std::string field, int64_t max_bytes);
  // field.TooMany: "Too many: <actual>: must have at most <max> items".
  static FieldError TooMany(std::string field, int64_t actual, int64_t max_items);
  // Invalid and NotSupported for a BadValue that upstream's Go type does not
  // hold as a plain string (a ResourceName, an enum type, a Quantity): the
  // value is rendered with JsonQuote instead of GoQuote.
  static FieldError InvalidJson(std::string field, std::string_view value, std::string detail);
  static FieldError NotSupportedJson(std::string field, std::string_view value,
                                     const std::vector<std::string>& supported);

  // "<field>: <type>: <value>: <detail>" exactly as field.Error.Error().
  std::string ToString() const;
};

// `The Pod "x" is invalid: <error>`, or with several errors kubectl's
// "\n* <error>" list, as kubectl apply prints a StatusError
// (k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr + MultilineError; the
// trailing newline kubectl prints is left to the caller). Repeated messages
// are dropped, as statusCausesToAggrError does.
std::string InvalidObjectMessage(std::string_view kind, std::string_view name,
                                 const std::vector<FieldError>& errors);

// How upstream renders a field.Error BadValue: a Go string with %q
// (strconv.Quote) and any other type with encoding/json (resource names,
// enum-typed strings, quantities, structs).
std::string GoQuote(std::string_view s);
std::string JsonQuote(std::string_view s);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_FIELD_ERROR_H_
