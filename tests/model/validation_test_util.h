// What the validation tests share (validation_test.cc, field_error_test.cc,
// name_validation_test.cc, resource_validation_test.cc,
// object_meta_validation_test.cc): upstream's messages written out in full,
// and the pods and nodes they validate.
#ifndef GPUSCHED_TESTS_MODEL_VALIDATION_TEST_UTIL_H_
#define GPUSCHED_TESTS_MODEL_VALIDATION_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"

namespace gpusched::validationtest {

// --- upstream message constants, written out in full --------------------


inline const std::string kLabelRegex =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
inline const std::string kSubdomainRegex =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
inline const std::string kNamePartRegex =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
inline const std::string kTooManySlashes =
    "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. "
    "'example.com/MyName')";
// Copied from validation_test.go's "invalid required node affinity" case.
inline const std::string kLabelValueRegex =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
inline const std::string kDots = "must not contain dots";
inline const std::string kLimitMustBeSet = "Limit must be set for non overcommitable resources";
inline const std::string kEmptyKeyOperator =
    "operator must be Exists when `key` is empty, which means \"match all values and all keys\"";

using Strings = std::vector<std::string>;

inline Strings Messages(const std::vector<FieldError>& errs) {
  Strings out;
  for (const auto& e : errs) out.push_back(e.ToString());
  return out;
}

// podtest.MakePod: a named pod in a namespace with one valid container.
inline Pod MakePod(const std::string& name = "123") {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "ns";
  p.containers.push_back(Container{"ctr", "image", {}, {}, "", {}});
  return p;
}

inline Container MakeContainer(const std::string& name, ResourceList requests = {}, ResourceList limits = {},
                        const std::string& restart_policy = "") {
  return Container{name, "image", std::move(requests), std::move(limits), restart_policy, {}};
}

inline Node MakeNode(const std::string& name = "node") {
  Node n;
  n.meta.name = name;
  return n;
}

}  // namespace gpusched::validationtest

#endif  // GPUSCHED_TESTS_MODEL_VALIDATION_TEST_UTIL_H_
