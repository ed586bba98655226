// Name checks with upstream's messages (k8s.io/apimachinery
// pkg/util/validation and pkg/api/validate/content, Kubernetes v1.35): each
// returns the messages a field.Error puts after the value, empty when the
// name is valid.
#ifndef GPUSCHED_MODEL_NAME_VALIDATION_H_
#define GPUSCHED_MODEL_NAME_VALIDATION_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

std::vector<std::string> IsDNS1123Subdomain(std::string_view value);
std::vector<std::string> IsDNS1123Label(std::string_view value);
// Label keys, annotation keys, resource names (content.IsLabelKey).
std::vector<std::string> IsQualifiedName(std::string_view value);
// Label values (content.IsLabelValue).
std::vector<std::string> IsValidLabelValue(std::string_view value);
// C identifiers (content.IsCIdentifier): DRA attribute and capacity ids.
// Checks the format, not the length.
std::vector<std::string> IsCIdentifier(std::string_view value);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_NAME_VALIDATION_H_
