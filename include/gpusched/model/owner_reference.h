// OwnerReference: one entry of metadata.ownerReferences (apimachinery
// meta/v1). gpusched keeps only the controller reference (controller: true),
// the one that says which workload controller a pod or ReplicaSet belongs to.
#ifndef GPUSCHED_MODEL_OWNER_REFERENCE_H_
#define GPUSCHED_MODEL_OWNER_REFERENCE_H_

#include <string>

namespace gpusched {

struct OwnerReference {
  std::string api_version;  // "apps/v1"
  std::string kind;         // "ReplicaSet"
  std::string name;
  std::string uid;  // empty when the input was stripped of uids
};

// The API group of an apiVersion: "apps" for "apps/v1", "" for "v1".
inline std::string ApiGroup(const std::string& api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_OWNER_REFERENCE_H_
