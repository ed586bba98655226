// ObjectMeta: the identity of an API object (metadata.name/namespace/labels/
// annotations), shared by Node and Pod.
#ifndef GPUSCHED_MODEL_OBJECT_META_H_
#define GPUSCHED_MODEL_OBJECT_META_H_

#include <map>
#include <string>

namespace gpusched {

inline constexpr const char* kDefaultNamespace = "default";

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;  // empty for cluster-scoped objects (Node)
  std::string uid;
  std::map<std::string, std::string, std::less<>> labels;
  std::map<std::string, std::string, std::less<>> annotations;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_OBJECT_META_H_
