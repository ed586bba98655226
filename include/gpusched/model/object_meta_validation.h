// The metadata checks every validated object gets (k8s.io/apimachinery
// pkg/api/validation/objectmeta.go and pkg/apis/meta/v1/validation), with
// upstream's field paths and messages, appending to `errs`.
#ifndef GPUSCHED_MODEL_OBJECT_META_VALIDATION_H_
#define GPUSCHED_MODEL_OBJECT_META_VALIDATION_H_

#include <map>
#include <string>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/object_meta.h"

namespace gpusched {

// unversionedvalidation.ValidateLabelName: a qualified name.
void ValidateLabelName(const std::string& key, const std::string& path, std::vector<FieldError>& errs);

// unversionedvalidation.ValidateLabels: every error is reported at the map's
// own path, without the key.
void ValidateLabels(const std::map<std::string, std::string, std::less<>>& labels, const std::string& path,
                    std::vector<FieldError>& errs);

// ValidateAnnotations: keys are qualified names (compared in lower case),
// and all keys and values together at most 256 KiB.
void ValidateAnnotations(const std::map<std::string, std::string, std::less<>>& annotations, const std::string& path,
                         std::vector<FieldError>& errs);

// ValidateObjectMeta (ValidateObjectMetaAccessor) for objects whose names
// must be DNS subdomains (Pods and Nodes): name or generateName, the
// namespace when `namespaced` (forbidden otherwise), labels, annotations.
void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_OBJECT_META_VALIDATION_H_
