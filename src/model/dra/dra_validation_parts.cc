// The shared DRA field checks, in the order and words of
// k8s.io/kubernetes pkg/apis/resource/validation/validation.go.
#include "dra_validation_parts.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "gpusched/model/cel/device_selector.h"
#include "gpusched/model/name_validation.h"

namespace gpusched::dra_validation {
namespace {

constexpr std::string_view kCostLimitText = "too complex, exceeds cost limit";

// validation.go's validDeviceTaintEffects, sorted as sets.List returns them.
const std::vector<std::string>& TaintEffects() {
  static const std::vector<std::string> kEffects = {"NoExecute", "NoSchedule", "None"};
  return kEffects;
}

bool IsTaintEffect(std::string_view e) {
  const auto& all = TaintEffects();
  return std::find(all.begin(), all.end(), e) != all.end();
}

// validateCIdentifier: an attribute id is at most 32 bytes and a C identifier.
void ValidateCIdentifier(std::string_view id, const std::string& path, Errors& errs) {
  if (id.size() > kDeviceMaxIDLength) errs.push_back(FieldError::TooLong(path, kDeviceMaxIDLength));
  for (const auto& m : IsCIdentifier(id)) errs.push_back(FieldError::Invalid(path, id, m));
}

// metav1validation.ValidateLabelName.
void ValidateLabelName(std::string_view name, const std::string& path, Errors& errs) {
  for (const auto& m : IsQualifiedName(name)) errs.push_back(FieldError::Invalid(path, name, m));
}

void ValidateLabelValue(std::string_view value, const std::string& path, Errors& errs) {
  for (const auto& m : IsValidLabelValue(value)) errs.push_back(FieldError::Invalid(path, value, m));
}

}  // namespace

std::string Index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }
std::string Key(const std::string& path, std::string_view key) { return path + "[" + std::string(key) + "]"; }

void ValidateDriverName(std::string_view name, const std::string& path, Errors& errs) {
  if (name.empty()) errs.push_back(FieldError::Required(path, ""));
  if (name.size() > kDriverNameMaxLength) errs.push_back(FieldError::TooLong(path, kDriverNameMaxLength));
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& m : IsDNS1123Subdomain(lower)) errs.push_back(FieldError::Invalid(path, name, m));
}

void ValidatePoolName(std::string_view name, const std::string& path, Errors& errs) {
  if (name.empty()) {
    errs.push_back(FieldError::Required(path, ""));
    return;
  }
  if (name.size() > kPoolNameMaxLength) errs.push_back(FieldError::TooLong(path, kPoolNameMaxLength));
  size_t start = 0;
  while (true) {
    const size_t slash = name.find('/', start);
    const std::string_view part = name.substr(start, slash == std::string_view::npos ? slash : slash - start);
    for (const auto& m : IsDNS1123Subdomain(part)) errs.push_back(FieldError::Invalid(path, part, m));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
}

void ValidateDNSLabel(std::string_view name, const std::string& path, Errors& errs) {
  for (const auto& m : IsDNS1123Label(name)) errs.push_back(FieldError::Invalid(path, name, m));
}

void ValidateDNSSubdomain(std::string_view name, const std::string& path, Errors& errs) {
  for (const auto& m : IsDNS1123Subdomain(name)) errs.push_back(FieldError::Invalid(path, name, m));
}

void ValidateQualifiedName(std::string_view name, const std::string& path, Errors& errs) {
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos) return ValidateCIdentifier(name, path, errs);
  if (name.find('/', slash + 1) != std::string_view::npos) {
    errs.push_back(FieldError::Invalid(path, name, "must not contain more than one slash"));
    return;
  }
  const std::string_view domain = name.substr(0, slash);
  const std::string_view id = name.substr(slash + 1);
  if (domain.empty()) {
    errs.push_back(FieldError::Invalid(path, "", "the domain must not be empty"));
  } else {
    ValidateDriverName(domain, path, errs);
  }
  if (id.empty()) {
    errs.push_back(FieldError::Invalid(path, "", "the name must not be empty"));
  } else {
    ValidateCIdentifier(id, path, errs);
  }
}

void ValidateFullyQualifiedName(std::string_view name, const std::string& path, Errors& errs) {
  ValidateQualifiedName(name, path, errs);
  if (name.find('/') == std::string_view::npos)
    errs.push_back(FieldError::Invalid(path, name, "a fully qualified name must be a domain and a name separated by a slash"));
}

void ValidateSelectors(const std::vector<std::string>& expressions, const std::string& path, Errors& errs) {
  if (expressions.size() > kDeviceSelectorsMaxSize) {
    errs.push_back(FieldError::TooMany(path, static_cast<int64_t>(expressions.size()), kDeviceSelectorsMaxSize));
    return;
  }
  cel::CompileOptions options;
  options.consumable_capacity = true;  // see dra_validation.h
  for (size_t i = 0; i < expressions.size(); ++i) {
    const std::string& expr = expressions[i];
    const std::string p = Index(path, i) + ".cel";
    if (expr.empty()) {  // the model keeps a selector without `cel` as ""
      errs.push_back(FieldError::Required(p, ""));
      continue;
    }
    if (expr.size() > kCELSelectorExpressionMaxLength) {
      errs.push_back(FieldError::TooLong(p + ".expression", kCELSelectorExpressionMaxLength));
      continue;
    }
    Result<cel::DeviceSelector> compiled = cel::DeviceSelector::Compile(expr, options);
    if (compiled.ok()) continue;
    const std::string& detail = compiled.status().message();
    if (detail == kCostLimitText) {
      errs.push_back(FieldError::Forbidden(p + ".expression", detail));
    } else {
      errs.push_back(FieldError::Invalid(p + ".expression", expr, detail));
    }
  }
}

void ValidateDeviceToleration(const DeviceToleration& t, const std::string& path, Errors& errs) {
  if (!t.key.empty()) ValidateLabelName(t.key, path + ".key", errs);
  const std::string op = t.op.empty() ? "Equal" : t.op;  // defaulted by the API server
  if (op == "Exists") {
    if (!t.value.empty()) errs.push_back(FieldError::Invalid(path + ".value", t.value, "must be empty for operator `Exists`"));
  } else if (op == "Equal") {
    ValidateLabelValue(t.value, path + ".value", errs);
  } else {
    errs.push_back(FieldError::NotSupportedJson(path + ".operator", op, {"Equal", "Exists"}));
  }
  if (!t.effect.empty() && !IsTaintEffect(t.effect))
    errs.push_back(FieldError::NotSupportedJson(path + ".effect", t.effect, TaintEffects()));
}

void ValidateDeviceTaint(const DeviceTaint& t, const std::string& path, Errors& errs) {
  ValidateLabelName(t.key, path + ".key", errs);
  if (!t.value.empty()) ValidateLabelValue(t.value, path + ".value", errs);
  if (t.effect.empty()) {
    errs.push_back(FieldError::Required(path + ".effect", ""));
  } else if (!IsTaintEffect(t.effect)) {
    errs.push_back(FieldError::NotSupportedJson(path + ".effect", t.effect, TaintEffects()));
  }
}

void ValidateBindingConditions(const std::vector<std::string>& conditions,
                               const std::vector<std::string>& failure_conditions, const std::string& path,
                               Errors& errs) {
  const std::string cp = path + ".bindingConditions";
  const std::string fp = path + ".bindingFailureConditions";
  if (conditions.size() > kBindingConditionsMaxSize) {
    errs.push_back(FieldError::TooMany(cp, static_cast<int64_t>(conditions.size()), kBindingConditionsMaxSize));
  } else {
    for (size_t i = 0; i < conditions.size(); ++i) ValidateLabelName(conditions[i], Index(cp, i), errs);
  }
  if (failure_conditions.size() > kBindingConditionsMaxSize) {
    errs.push_back(
        FieldError::TooMany(fp, static_cast<int64_t>(failure_conditions.size()), kBindingConditionsMaxSize));
  } else {
    for (size_t i = 0; i < failure_conditions.size(); ++i) ValidateLabelName(failure_conditions[i], Index(fp, i), errs);
  }
  std::set<std::string, std::less<>> seen;
  for (size_t i = 0; i < conditions.size(); ++i)
    if (!seen.insert(conditions[i]).second) errs.push_back(FieldError::Duplicate(Index(cp, i), conditions[i]));
  const std::set<std::string, std::less<>> all(conditions.begin(), conditions.end());
  std::set<std::string, std::less<>> seen_failure;
  for (size_t i = 0; i < failure_conditions.size(); ++i) {
    const std::string& c = failure_conditions[i];
    if (!seen_failure.insert(c).second) errs.push_back(FieldError::Duplicate(Index(fp, i), c));
    if (all.count(c))
      errs.push_back(FieldError::Invalid(Index(fp, i), c, "bindingFailureConditions must not overlap with bindingConditions"));
  }
  // The BadValue is a []string: upstream renders it with %#v.
  if (conditions.empty() && !failure_conditions.empty())
    errs.push_back(FieldError{FieldError::Type::kInvalid, cp, "[]string(nil)",
                              "bindingConditions are required to use bindingFailureConditions"});
  if (failure_conditions.empty() && !conditions.empty())
    errs.push_back(FieldError{FieldError::Type::kInvalid, fp, "[]string(nil)",
                              "bindingFailureConditions are required to use bindingConditions"});
}

void ValidateOpaqueConfig(const DeviceConfiguration& config, const std::string& path, Errors& errs) {
  ValidateDriverName(config.driver, path + ".opaque.driver", errs);
}

}  // namespace gpusched::dra_validation
