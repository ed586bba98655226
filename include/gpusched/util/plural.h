// A count with its noun, as every message in gpusched writes one: "1 pod",
// "2 pods", never "1 pods".
#ifndef GPUSCHED_UTIL_PLURAL_H_
#define GPUSCHED_UTIL_PLURAL_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gpusched {

// "1 node", "2 nodes": the noun with an "s" unless n is 1.
inline std::string Plural(int64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

// For nouns whose plural is not noun+"s": "1 DeviceClass", "2 DeviceClasses".
inline std::string Plural(int64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_PLURAL_H_
