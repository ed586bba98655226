// Qualified attribute names (k8s.io/dynamic-resource-allocation/cel/
// compile.go parseQualifiedName): "domain/id", or a bare id in the driver's
// domain.
#include "gpusched/model/dra/resource_slice.h"

namespace gpusched {

QualifiedAttributeName SplitQualifiedName(const std::string& name, const std::string& driver) {
  size_t sep = name.find('/');
  if (sep == std::string::npos) return {driver, name};
  return {name.substr(0, sep), name.substr(sep + 1)};
}

}  // namespace gpusched
