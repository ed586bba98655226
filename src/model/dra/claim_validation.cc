// ValidateResourceClaim, ValidateResourceClaimTemplate and
// ValidateDeviceClass (dra_validation.h), after
// k8s.io/kubernetes pkg/apis/resource/validation/validation.go:
// validateDeviceClaim, validateDeviceRequest, validateDeviceAllocationMode,
// validateDeviceConstraint, validateRequestNameRef, validateDeviceClassSpec
// and the status invariants of validateResourceClaimStatusUpdate.
#include <map>
#include <set>

#include "dra_validation_parts.h"
#include "gpusched/model/dra/dra_validation.h"
#include "gpusched/model/resources.h"

namespace gpusched {
namespace {

using namespace dra_validation;  // NOLINT(google-build-using-namespace): the shared checks

constexpr const char* kNotARequest =
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

// gatherRequestNames: a request's subrequests (empty for an exact request).
using RequestNames = std::map<std::string, std::set<std::string>, std::less<>>;

RequestNames GatherRequestNames(const ResourceClaimSpec& spec) {
  RequestNames names;
  for (const DeviceRequest& r : spec.requests) {
    std::set<std::string>& subs = names[r.name];
    for (const ExactDeviceRequest& s : r.first_available) subs.insert(s.name);
  }
  return names;
}

bool HasRequest(const RequestNames& names, std::string_view ref) {
  const size_t slash = ref.find('/');
  const auto it = names.find(ref.substr(0, slash));
  if (it == names.end()) return false;
  if (slash == std::string_view::npos) return true;
  return it->second.count(std::string(ref.substr(slash + 1))) > 0;
}

void ValidateRequestNameRef(const std::string& ref, const std::string& path, const RequestNames& names,
                            Errors& errs) {
  std::vector<std::string_view> segments;
  size_t start = 0;
  while (true) {
    const size_t slash = ref.find('/', start);
    segments.push_back(std::string_view(ref).substr(start, slash == std::string::npos ? slash : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  if (segments.size() > 2) {
    errs.push_back(FieldError::Invalid(path, ref, kNotARequest));
    return;
  }
  for (std::string_view s : segments) ValidateDNSLabel(s, path, errs);
  if (!HasRequest(names, ref)) errs.push_back(FieldError::Invalid(path, ref, kNotARequest));
}

// validateSet over request names (constraints[i].requests, config[i].requests).
void ValidateRequestRefs(const std::vector<std::string>& refs, const std::string& path, const RequestNames& names,
                         Errors& errs) {
  ValidateSet(
      refs, kDeviceRequestsMaxSize, path,
      [&names](const std::string& ref, const std::string& p, Errors& e) { ValidateRequestNameRef(ref, p, names, e); },
      [](const std::string& ref) -> const std::string& { return ref; }, errs);
}

void ValidateAllocationMode(const ExactDeviceRequest& r, const std::string& path, Errors& errs) {
  const std::string& mode = r.allocation_mode.empty() ? std::string(kAllocationModeExactCount) : r.allocation_mode;
  if (mode == kAllocationModeAll) {
    if (r.count != 0)
      errs.push_back(FieldError{FieldError::Type::kInvalid, path + ".count", std::to_string(r.count),
                                "must not be specified when allocationMode is 'All'"});
  } else if (mode == kAllocationModeExactCount) {
    if (r.count <= 0)
      errs.push_back(FieldError{FieldError::Type::kInvalid, path + ".count", std::to_string(r.count),
                                "must be greater than zero"});
  } else {
    errs.push_back(FieldError::NotSupportedJson(path + ".allocationMode", mode, {"All", "ExactCount"}));
  }
}

// validateExactDeviceRequest and validateDeviceSubRequest (without the name).
void ValidateExactFields(const ExactDeviceRequest& r, const std::string& path, Errors& errs) {
  if (r.device_class_name.empty()) {
    errs.push_back(FieldError::Required(path + ".deviceClassName", ""));
  } else {
    ValidateDNSSubdomain(r.device_class_name, path + ".deviceClassName", errs);
  }
  ValidateSelectors(r.selectors, path + ".selectors", errs);
  ValidateAllocationMode(r, path, errs);
  for (size_t i = 0; i < r.tolerations.size(); ++i)
    ValidateDeviceToleration(r.tolerations[i], Index(path + ".tolerations", i), errs);
}

void ValidateDeviceRequest(const DeviceRequest& r, const std::string& path, Errors& errs) {
  ValidateDNSLabel(r.name, path + ".name", errs);
  const bool exactly = r.exactly.has_value();
  const bool first = !r.first_available.empty();
  if (!exactly && !first) {
    errs.push_back(FieldError::Required(path, "exactly one of `exactly` or `firstAvailable` is required"));
  } else if (exactly && first) {
    errs.push_back(FieldError{FieldError::Type::kInvalid, path, "\"null\"",
                              "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"});
  } else if (exactly) {
    ValidateExactFields(*r.exactly, path + ".exactly", errs);
  } else {
    ValidateSet(
        r.first_available, kFirstAvailableDeviceRequestMaxSize, path + ".firstAvailable",
        [](const ExactDeviceRequest& sub, const std::string& p, Errors& e) {
          ValidateDNSLabel(sub.name, p + ".name", e);
          ValidateExactFields(sub, p, e);
        },
        [](const ExactDeviceRequest& sub) -> const std::string& { return sub.name; }, errs);
  }
}

void ValidateConstraint(const DeviceConstraint& c, const std::string& path, const RequestNames& names, Errors& errs) {
  ValidateRequestRefs(c.requests, path + ".requests", names, errs);
  if (c.match_attribute) {
    ValidateFullyQualifiedName(*c.match_attribute, path + ".matchAttribute", errs);
  } else if (c.distinct_attribute) {
    ValidateFullyQualifiedName(*c.distinct_attribute, path + ".distinctAttribute", errs);
  } else {
    errs.push_back(FieldError::Required(path + ".matchAttribute", ""));
  }
}

void ValidateStatus(const ResourceClaim& claim, const RequestNames& names, Errors& errs) {
  if (claim.reserved_for.size() > kResourceClaimReservedForMaxSize) {
    errs.push_back(FieldError::TooMany("status.reservedFor", static_cast<int64_t>(claim.reserved_for.size()),
                                       kResourceClaimReservedForMaxSize));
  } else {
    std::set<std::string, std::less<>> uids;
    for (size_t i = 0; i < claim.reserved_for.size(); ++i) {
      const ResourceClaimConsumerReference& ref = claim.reserved_for[i];
      const std::string p = Index("status.reservedFor", i);
      if (ref.resource.empty()) errs.push_back(FieldError::Required(p + ".resource", ""));
      if (ref.name.empty()) errs.push_back(FieldError::Required(p + ".name", ""));
      if (ref.uid.empty()) errs.push_back(FieldError::Required(p + ".uid", ""));
      if (!ref.uid.empty() && !uids.insert(ref.uid).second) errs.push_back(FieldError::Duplicate(p, ref.uid));
    }
  }
  if (!claim.reserved_for.empty() && !claim.allocation)
    errs.push_back(FieldError::Forbidden("status.reservedFor", "may not be specified when `allocated` is not set"));
  if (!claim.allocation) return;
  const std::string rp = "status.allocation.devices.results";
  ValidateSlice(
      claim.allocation->results, kAllocationResultsMaxSize, rp,
      [&names](const DeviceRequestAllocationResult& r, const std::string& p, Errors& e) {
        ValidateRequestNameRef(r.request, p + ".request", names, e);
        ValidateDriverName(r.driver, p + ".driver", e);
        ValidatePoolName(r.pool, p + ".pool", e);
        ValidateDNSLabel(r.device, p + ".device", e);
        ValidateBindingConditions(r.binding_conditions, r.binding_failure_conditions, p, e);
        for (size_t t = 0; t < r.tolerations.size(); ++t)
          ValidateDeviceToleration(r.tolerations[t], Index(p + ".tolerations", t), e);
      },
      errs);
  if (claim.allocation->node_selector)
    ValidateNodeSelector(*claim.allocation->node_selector, "status.allocation.nodeSelector", errs);
}

}  // namespace

std::vector<FieldError> ValidateResourceClaimSpec(const ResourceClaimSpec& spec, const std::string& path) {
  Errors errs;
  const std::string devices = path + ".devices";
  const RequestNames names = GatherRequestNames(spec);
  ValidateSet(spec.requests, kDeviceRequestsMaxSize, devices + ".requests", ValidateDeviceRequest,
              [](const DeviceRequest& r) -> const std::string& { return r.name; }, errs);
  ValidateSlice(
      spec.constraints, kDeviceConstraintsMaxSize, devices + ".constraints",
      [&names](const DeviceConstraint& c, const std::string& p, Errors& e) { ValidateConstraint(c, p, names, e); },
      errs);
  ValidateSlice(
      spec.config, kDeviceConfigMaxSize, devices + ".config",
      [&names](const DeviceConfiguration& c, const std::string& p, Errors& e) {
        ValidateRequestRefs(c.requests, p + ".requests", names, e);
        ValidateOpaqueConfig(c, p, e);
      },
      errs);
  return errs;
}

std::vector<FieldError> ValidateResourceClaim(const ResourceClaim& claim) {
  Errors errs = ValidateResourceClaimSpec(claim.spec, "spec");
  ValidateStatus(claim, GatherRequestNames(claim.spec), errs);
  return errs;
}

std::vector<FieldError> ValidateResourceClaimTemplate(const ResourceClaimTemplate& tmpl) {
  return ValidateResourceClaimSpec(tmpl.spec, "spec.spec");
}

std::vector<FieldError> ValidateDeviceClass(const DeviceClass& device_class) {
  Errors errs;
  ValidateSelectors(device_class.selectors, "spec.selectors", errs);
  ValidateSlice(device_class.config, kDeviceConfigMaxSize, "spec.config", ValidateOpaqueConfig, errs);
  const std::string& ext = device_class.extended_resource_name;
  if (!ext.empty() && !IsExtendedResourceName(ext))
    errs.push_back(FieldError::Invalid("spec.extendedResourceName", ext, "must be a valid extended resource name"));
  return errs;
}

}  // namespace gpusched
