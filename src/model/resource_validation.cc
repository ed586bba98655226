// pkg/apis/core/validation/validation.go's checks of resources, the ones
// containers, pod overhead, pod-level resources and node status share:
// resource names (standard, qualified, extended), quantities (non-negative,
// integer where the resource is), and validateResourceRequirements (requests
// against limits, hugepages).
#include "gpusched/model/resource_validation.h"

#include <set>
#include <string>

#include "gpusched/model/name_validation.h"

namespace gpusched {
namespace {

// pkg/apis/core/validation/validation.go
constexpr const char* kIsNegativeErrorMsg = "must be greater than or equal to 0";
constexpr const char* kIsNotIntegerErrorMsg = "must be an integer";

bool IsStandardResourceName(std::string_view name) {
  static const std::set<std::string, std::less<>> kStandard = {
      "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services", "replicationcontrollers",
      "resourcequotas", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
      "services.nodeports", "services.loadbalancers"};
  // IsQuotaHugePageResourceName: "hugepages-" or "requests.hugepages-".
  return kStandard.count(name) > 0 || IsHugePageResourceName(name) || name.substr(0, 19) == "requests.hugepages-";
}

// helper.IsHugePageResourceValueDivisible.
bool IsHugePageResourceValueDivisible(std::string_view name, const Quantity& q) {
  Result<Quantity> page = Quantity::Parse(name.substr(std::string_view("hugepages-").size()));
  if (!page.ok()) return false;
  if (page->Sign() <= 0 || page->MilliValue() % 1000 != 0) return false;
  return q.Value() % page->Value() == 0;
}

}  // namespace

// ValidateResourceQuantityValue.
void ValidateResourceQuantityValue(std::string_view name, const Quantity& q, const std::string& path,
                                   std::vector<FieldError>& errs) {
  // ValidateNonnegativeQuantity passes value.String(), a Go string.
  if (q.Sign() < 0) errs.push_back(FieldError::Invalid(path, q.String(), kIsNegativeErrorMsg));
  // The integer check passes the Quantity itself, which marshals to "<q>".
  if (IsIntegerResourceName(name) && q.MilliValue() % 1000 != 0)
    errs.push_back(FieldError::InvalidJson(path, q.String(), kIsNotIntegerErrorMsg));
}

// validateResourceName: a qualified name; a bare name must be standard.
void ValidateResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  size_t before = errs.size();
  for (const auto& msg : IsQualifiedName(name)) errs.push_back(FieldError::InvalidJson(path, name, msg));
  if (errs.size() != before) return;
  if (name.find('/') == std::string_view::npos && !IsStandardResourceName(name))
    errs.push_back(FieldError::InvalidJson(path, name, "must be a standard resource type or fully qualified"));
}

// validateContainerResourceName.
void ValidateContainerResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  ValidateResourceName(name, path, errs);
  if (name.find('/') == std::string_view::npos) {
    if (!IsStandardContainerResourceName(name))
      errs.push_back(FieldError::InvalidJson(path, name, "must be a standard resource for containers"));
  } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
    errs.push_back(FieldError::InvalidJson(path, name, "doesn't follow extended resource name standard"));
  }
}

// validateResourceRequirements, with Go's random map order replaced by sorted
// order (std::map). `name_fn` is validateContainerResourceName for containers
// and overhead, validatePodResourceName for pod-level resources.
void ValidateResourceRequirementsWith(const ResourceList& limits, const ResourceList& requests,
                                      const std::string& path, ResourceNameValidator name_fn,
                                      std::vector<FieldError>& errs) {
  const std::string lim_path = path + ".limits";
  const std::string req_path = path + ".requests";
  bool lim_cpu_or_memory = false, req_cpu_or_memory = false, lim_hugepages = false, req_hugepages = false;
  auto hugepages = [&](const std::string& name, const Quantity& q, const std::string& p, bool& seen) {
    if (!IsHugePageResourceName(name)) return;
    seen = true;
    if (!IsHugePageResourceValueDivisible(name, q))
      errs.push_back(FieldError::Invalid(p, q.String(), q.String() + " is not positive integer multiple of " + name));
  };
  for (const auto& [name, q] : limits) {
    std::string p = lim_path + "[" + name + "]";
    name_fn(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
    hugepages(name, q, p, lim_hugepages);
    if (name == kResourceCPU || name == kResourceMemory) lim_cpu_or_memory = true;
  }
  for (const auto& [name, q] : requests) {
    std::string p = req_path + "[" + name + "]";
    name_fn(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
    auto lim = limits.find(name);
    if (lim != limits.end()) {
      // For non overcommitable resources requests must equal limits.
      if (q != lim->second && !IsOvercommitAllowed(name)) {
        errs.push_back(FieldError::Invalid(req_path, q.String(),
                                           "must be equal to " + name + " limit of " + lim->second.String()));
      } else if (q > lim->second) {
        errs.push_back(FieldError::Invalid(
            req_path, q.String(), "must be less than or equal to " + name + " limit of " + lim->second.String()));
      }
    } else if (!IsOvercommitAllowed(name)) {
      errs.push_back(FieldError::Required(lim_path, "Limit must be set for non overcommitable resources"));
    }
    hugepages(name, q, p, req_hugepages);
    if (name == kResourceCPU || name == kResourceMemory) req_cpu_or_memory = true;
  }
  if (!lim_cpu_or_memory && !req_cpu_or_memory && (req_hugepages || lim_hugepages))
    errs.push_back(FieldError::Forbidden(path, "HugePages require cpu or memory"));
}

}  // namespace gpusched
