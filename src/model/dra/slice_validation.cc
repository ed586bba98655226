// ValidateResourceSlice (dra_validation.h), after
// k8s.io/kubernetes pkg/apis/resource/validation/validation.go:
// validateResourceSliceSpec, validateResourcePool, validateDevice,
// validateDeviceAttribute, validateCounterSet and the capacity request
// policy checks that do not need the DRAFractionalCapacityRange gate.
#include <regex>

#include "dra_validation_parts.h"
#include "gpusched/model/dra/dra_validation.h"
#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

using namespace dra_validation;  // NOLINT(google-build-using-namespace): the shared checks

constexpr const char* kSliceNodeSelection =
    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
constexpr const char* kDeviceNodeSelection =
    "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to "
    "true in the ResourceSlice spec";

// validation.go's semverRe.
bool IsSemver(const std::string& v) {
  static const std::regex kSemver(
      R"(^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))"
      R"((-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?)"
      R"((\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$)");
  return std::regex_match(v, kSemver);
}

void ValidateAttribute(const DeviceAttribute& a, const std::string& path, Errors& errs) {
  if (a.kind == DeviceAttribute::Kind::kString && a.string_value.size() > kDeviceAttributeMaxValueLength)
    errs.push_back(FieldError::TooLong(path + ".string", kDeviceAttributeMaxValueLength));
  if (a.kind == DeviceAttribute::Kind::kVersion) {
    if (!IsSemver(a.string_value))
      errs.push_back(FieldError::Invalid(path + ".version", a.string_value,
                                         "must be a string compatible with semver.org spec 2.0.0"));
    if (a.string_value.size() > kDeviceAttributeMaxValueLength)
      errs.push_back(FieldError::TooLong(path + ".version", kDeviceAttributeMaxValueLength));
  }
}

// validateRequestPolicy without the fractional-range gate (integer steps).
void ValidateRequestPolicy(const Quantity& capacity, const CapacityRequestPolicy& policy, const std::string& path,
                           Errors& errs) {
  if (!policy.valid_values.empty() && policy.valid_range) {
    errs.push_back(FieldError::Forbidden(
        path, "exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the same time"));
    return;
  }
  if (!policy.valid_values.empty()) {
    if (!policy.default_value) {
      errs.push_back(FieldError::Required(path + ".default", "required when validValues is defined"));
      return;
    }
    const std::string vp = path + ".validValues";
    for (size_t i = 0; i + 1 < policy.valid_values.size(); ++i)
      if (policy.valid_values[i] > policy.valid_values[i + 1])
        errs.push_back(FieldError{FieldError::Type::kInvalid, Index(vp, i + 1), GoQuote(policy.valid_values[i + 1].String()),
                                  "values must be sorted in ascending order"});
    bool found_default = false;
    for (size_t i = 0; i < policy.valid_values.size(); ++i) {
      const Quantity& v = policy.valid_values[i];
      if (v > capacity)
        errs.push_back(FieldError{FieldError::Type::kInvalid, Index(vp, i), GoQuote(v.String()),
                                  "option is larger than capacity value: " + capacity.String()});
      found_default = found_default || v == *policy.default_value;
    }
    if (!found_default)
      errs.push_back(FieldError{FieldError::Type::kInvalid, vp, GoQuote(policy.default_value->String()),
                                "default value is not valid according to the requestPolicy"});
    return;
  }
  if (!policy.valid_range) return;
  const std::string rp = path + ".validRange";
  if (!policy.default_value) {
    errs.push_back(FieldError::Required(rp + ".default", "required when validRange is defined"));
    return;
  }
  const CapacityRequestPolicy::Range& r = *policy.valid_range;
  const Quantity& def = *policy.default_value;
  auto invalid = [&](const std::string& field, const Quantity& q, std::string detail) {
    errs.push_back(FieldError{FieldError::Type::kInvalid, rp + "." + field, GoQuote(q.String()), std::move(detail)});
  };
  if (r.min > capacity) invalid("min", r.min, "min is larger than capacity value: " + capacity.String());
  if (def < r.min) invalid("default", def, "default is less than min: " + r.min.String());
  if (r.max) {
    if (r.min > *r.max) invalid("max", r.min, "min is larger than max: " + r.max->String());
    if (*r.max > capacity) invalid("max", *r.max, "max is larger than capacity value: " + capacity.String());
    if (def > *r.max) invalid("default", def, "default is more than max: " + r.max->String());
  }
}

void ValidateCounters(const std::map<std::string, Quantity, std::less<>>& counters, size_t max,
                      const std::string& path, Errors& errs) {
  if (counters.empty()) {
    errs.push_back(FieldError::Required(path, ""));
    return;
  }
  if (counters.size() > max) {
    errs.push_back(FieldError::TooMany(path, static_cast<int64_t>(counters.size()), static_cast<int64_t>(max)));
    return;
  }
  for (const auto& [name, q] : counters) ValidateDNSLabel(name, path, errs);
}

// A counter set (name) or a device's consumption of one (counterSet) at
// `path`: the name, at path + name_field, is required and a DNS label, then
// the counters (validateCounterSet, validateDeviceCounterConsumption).
void ValidateNamedCounters(const std::string& name, const char* name_field,
                           const std::map<std::string, Quantity, std::less<>>& counters, const std::string& path,
                           Errors& errs) {
  if (name.empty()) {
    errs.push_back(FieldError::Required(path + name_field, ""));
  } else {
    ValidateDNSLabel(name, path + name_field, errs);
  }
  ValidateCounters(counters, kResourceSliceMaxCountersPerCounterSet, path + ".counters", errs);
}

void ValidateDevice(const Device& d, const std::string& path, bool per_device_node_selection, Errors& errs) {
  ValidateDNSLabel(d.name, path + ".name", errs);
  const size_t entries = d.attributes.size() + d.capacity.size();
  if (entries > kResourceSliceMaxAttributesAndCapacitiesPerDevice)
    errs.push_back(FieldError{FieldError::Type::kInvalid, path, std::to_string(entries),
                              "the total number of attributes and capacities must not exceed " +
                                  std::to_string(kResourceSliceMaxAttributesAndCapacitiesPerDevice)});
  for (const auto& [name, a] : d.attributes) {
    ValidateQualifiedName(name, path + ".attributes", errs);
    ValidateAttribute(a, Key(path + ".attributes", name), errs);
  }
  for (const auto& [name, c] : d.capacity) {
    ValidateQualifiedName(name, path + ".capacity", errs);
    if (!c.request_policy) continue;
    const std::string pp = Key(path + ".capacity", name) + ".requestPolicy";
    if (d.allow_multiple_allocations) {
      ValidateRequestPolicy(c.value, *c.request_policy, pp, errs);
    } else {
      errs.push_back(FieldError::Forbidden(pp, "allowMultipleAllocations must be true"));
    }
  }
  ValidateSlice(d.taints, kDeviceTaintsMaxLength, path + ".taints", ValidateDeviceTaint, errs);
  ValidateSet(
      d.consumes_counters, kResourceSliceMaxDeviceCounterConsumptionsPerDevice, path + ".consumesCounters",
      [](const DeviceCounterConsumption& c, const std::string& p, Errors& e) {
        ValidateNamedCounters(c.counter_set, ".counterSet", c.counters, p, e);
      },
      [](const DeviceCounterConsumption& c) -> const std::string& { return c.counter_set; }, errs);
  const bool has_node = !d.node_name.empty();
  const bool has_selector = d.node_selector.has_value();
  if (per_device_node_selection) {
    std::vector<std::string> set;
    if (has_node) {
      set.push_back("`nodeName`");
      ValidateDNSSubdomain(d.node_name, path + ".nodeName", errs);
    }
    if (has_selector) {
      set.push_back("`nodeSelector`");
      ValidateNodeSelector(*d.node_selector, path + ".nodeSelector", errs);
    }
    if (d.all_nodes) set.push_back("`allNodes`");
    if (set.empty()) {
      errs.push_back(FieldError::Required(path, kDeviceNodeSelection));
    } else if (set.size() > 1) {
      std::string joined;
      for (const std::string& s : set) joined += (joined.empty() ? "" : ", ") + s;
      errs.push_back(FieldError::Invalid(path, "{" + joined + "}", kDeviceNodeSelection));
    }
  } else if (has_node || has_selector || d.all_nodes) {
    errs.push_back(FieldError{FieldError::Type::kInvalid, path, "\"null\"",
                              "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` "
                              "is set to true in the ResourceSlice spec"});
  }
  ValidateBindingConditions(d.binding_conditions, d.binding_failure_conditions, path, errs);
}

}  // namespace

std::vector<FieldError> ValidateResourceSlice(const ResourceSlice& slice) {
  Errors errs;
  ValidateDriverName(slice.driver, "spec.driver", errs);
  ValidatePoolName(slice.pool.name, "spec.pool.name", errs);
  if (slice.pool.resource_slice_count <= 0)
    errs.push_back(FieldError{FieldError::Type::kInvalid, "spec.pool.resourceSliceCount",
                              std::to_string(slice.pool.resource_slice_count), "must be greater than zero"});
  if (slice.pool.generation < 0)
    errs.push_back(FieldError{FieldError::Type::kInvalid, "spec.pool.generation",
                              std::to_string(slice.pool.generation), "must be greater than or equal to zero"});
  std::vector<std::string> set;
  if (!slice.node_name.empty()) {
    set.push_back("`nodeName`");
    ValidateDNSSubdomain(slice.node_name, "spec.nodeName", errs);
  }
  if (slice.node_selector) {
    set.push_back("`nodeSelector`");
    ValidateNodeSelector(*slice.node_selector, "spec.nodeSelector", errs);
    // One term keeps merging the selectors of devices from several slices
    // simple. The BadValue is a []core.NodeSelectorTerm, printed with %#v:
    // its length stands in for the dump.
    if (slice.node_selector->size() != 1)
      errs.push_back(FieldError{FieldError::Type::kInvalid, "spec.nodeSelector.nodeSelectorTerms",
                                "[" + std::to_string(slice.node_selector->size()) + " terms]",
                                "must have exactly one node selector term"});
  }
  if (slice.all_nodes) set.push_back("`allNodes`");
  if (slice.per_device_node_selection) set.push_back("`perDeviceNodeSelection`");
  if (set.empty()) {
    errs.push_back(FieldError::Required("spec", kSliceNodeSelection));
  } else if (set.size() > 1) {
    std::string joined;
    for (const std::string& s : set) joined += (joined.empty() ? "" : ", ") + s;
    errs.push_back(FieldError::Invalid("spec", "{" + joined + "}",
                                       std::string(kSliceNodeSelection) + ", but multiple fields are set"));
  }
  if (!slice.shared_counters.empty() && !slice.devices.empty())
    errs.push_back(FieldError::Invalid("spec", "", "only one of `sharedCounters` or `devices` is allowed"));

  bool advanced = false;
  for (const Device& d : slice.devices) advanced = advanced || !d.taints.empty() || !d.consumes_counters.empty();
  const size_t max_devices = advanced ? kResourceSliceMaxDevicesWithAdvancedFeatures : kResourceSliceMaxDevices;
  ValidateSet(
      slice.devices, max_devices, "spec.devices",
      [&slice](const Device& d, const std::string& p, Errors& e) {
        ValidateDevice(d, p, slice.per_device_node_selection, e);
      },
      [](const Device& d) -> const std::string& { return d.name; }, errs);
  ValidateSet(
      slice.shared_counters, kResourceSliceMaxCounterSets, "spec.sharedCounters",
      [](const CounterSet& c, const std::string& p, Errors& e) { ValidateNamedCounters(c.name, ".name", c.counters, p, e); },
      [](const CounterSet& c) -> const std::string& { return c.name; }, errs);
  return errs;
}

}  // namespace gpusched
