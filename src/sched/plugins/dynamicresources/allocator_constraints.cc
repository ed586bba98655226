// matchAttribute and distinctAttribute constraints, after v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go
// (matchAttributeConstraint, lookupAttribute) and internal/experimental/constraint.go.
#include "gpusched/sched/plugins/dynamicresources/allocator_constraints.h"

namespace gpusched::dra {

namespace {

// The values compare by kind: a value of another kind never matches.
// Versions compare as strings: semver 2.0.0 versions are in minimal form.
bool SameValue(const DeviceAttribute& a, const DeviceAttribute& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case DeviceAttribute::Kind::kInt: return a.int_value == b.int_value;
    case DeviceAttribute::Kind::kBool: return a.bool_value == b.bool_value;
    case DeviceAttribute::Kind::kString:
    case DeviceAttribute::Kind::kVersion: return a.string_value == b.string_value;
  }
  return false;
}

}  // namespace

const DeviceAttribute* LookupAttribute(const Device& device, const std::string& driver, const std::string& name) {
  if (auto it = device.attributes.find(name); it != device.attributes.end()) return &it->second;
  const auto slash = name.find('/');
  if (slash == std::string::npos) return nullptr;  // not fully qualified
  if (name.compare(0, slash, driver) != 0 || slash != driver.size()) return nullptr;  // another domain
  if (auto it = device.attributes.find(std::string_view(name).substr(slash + 1)); it != device.attributes.end()) {
    return &it->second;
  }
  return nullptr;
}

bool AttributeConstraint::Applies(const std::string& request, const std::string& subrequest) const {
  if (requests_.empty()) return true;
  if (requests_.contains(request)) return true;
  return !subrequest.empty() && requests_.contains(request + "/" + subrequest);
}

bool AttributeConstraint::Add(const std::string& request, const std::string& subrequest, const Device& device,
                              const std::string& driver) {
  if (!Applies(request, subrequest)) return true;
  const DeviceAttribute* attr = LookupAttribute(device, driver, attribute_);
  if (attr == nullptr) return false;  // a device without the attribute never satisfies it
  return kind_ == Kind::kMatch ? AddMatch(*attr) : AddDistinct(request, *attr);
}

bool AttributeConstraint::AddMatch(const DeviceAttribute& attr) {
  if (num_devices_ == 0) {
    first_ = attr;  // the first device can always be picked
  } else if (!SameValue(attr, first_)) {
    return false;
  }
  ++num_devices_;
  return true;
}

bool AttributeConstraint::AddDistinct(const std::string& request, const DeviceAttribute& attr) {
  if (num_devices_ > 0) {
    for (const auto& [name, value] : distinct_values_) {
      if (SameValue(attr, value)) return false;
    }
  }
  distinct_values_[request] = attr;
  ++num_devices_;
  return true;
}

void AttributeConstraint::Remove(const std::string& request, const std::string& subrequest) {
  if (!Applies(request, subrequest)) return;
  if (kind_ == Kind::kDistinct) distinct_values_.erase(request);
  --num_devices_;
}

}  // namespace gpusched::dra
