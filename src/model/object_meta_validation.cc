// apimachinery's ValidateObjectMeta (pkg/api/validation/objectmeta.go) for
// objects whose names are DNS subdomains (Pods, Nodes): name or
// generateName, namespace, labels and annotations.
#include "gpusched/model/object_meta_validation.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "gpusched/model/name_validation.h"

namespace gpusched {
namespace {

// k8s.io/apimachinery/pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB.
constexpr int64_t kTotalAnnotationSizeLimitB = 256 * (1 << 10);

// apimachinery NameIsDNSSubdomain with prefix=true masks a trailing dash
// (maskTrailingDash, which really drops the last two characters).
std::string MaskTrailingDash(const std::string& name) {
  if (name.size() > 1 && name.back() == '-') return name.substr(0, name.size() - 2) + "a";
  return name;
}

}  // namespace

// unversionedvalidation.ValidateLabelName.
void ValidateLabelName(const std::string& key, const std::string& path, std::vector<FieldError>& errs) {
  for (const auto& msg : IsQualifiedName(key)) errs.push_back(FieldError::Invalid(path, key, msg));
}

// unversionedvalidation.ValidateLabels: every error is reported at the map's
// own path, without the key.
void ValidateLabels(const std::map<std::string, std::string, std::less<>>& labels, const std::string& path,
                    std::vector<FieldError>& errs) {
  for (const auto& [k, v] : labels) {
    ValidateLabelName(k, path, errs);
    for (const auto& msg : IsValidLabelValue(v)) errs.push_back(FieldError::Invalid(path, v, msg));
  }
}

// apimachinery ValidateAnnotations: keys are qualified names, compared in lower case.
void ValidateAnnotations(const std::map<std::string, std::string, std::less<>>& annotations, const std::string& path,
                         std::vector<FieldError>& errs) {
  int64_t total = 0;
  for (const auto& [k, v] : annotations) {
    std::string lower = k;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : static_cast<char>(c); });
    for (const auto& msg : IsQualifiedName(lower)) errs.push_back(FieldError::Invalid(path, k, msg));
    total += static_cast<int64_t>(k.size() + v.size());
  }
  if (total > kTotalAnnotationSizeLimitB) errs.push_back(FieldError::TooLong(path, kTotalAnnotationSizeLimitB));
}

// apimachinery ValidateObjectMeta (ValidateObjectMetaAccessor) for names that
// must be DNS subdomains (Pods and Nodes).
void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, std::vector<FieldError>& errs) {
  if (!meta.generate_name.empty())
    for (const auto& m : IsDNS1123Subdomain(MaskTrailingDash(meta.generate_name)))
      errs.push_back(FieldError::Invalid("metadata.generateName", meta.generate_name, m));
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  }
  if (namespaced) {
    if (meta.namespace_.empty()) {
      errs.push_back(FieldError::Required("metadata.namespace", ""));
    } else {
      for (const auto& m : IsDNS1123Label(meta.namespace_))
        errs.push_back(FieldError::Invalid("metadata.namespace", meta.namespace_, m));
    }
  } else if (!meta.namespace_.empty()) {
    errs.push_back(FieldError::Forbidden("metadata.namespace", "not allowed on this type"));
  }
  ValidateLabels(meta.labels, "metadata.labels", errs);
  ValidateAnnotations(meta.annotations, "metadata.annotations", errs);
}

}  // namespace gpusched
