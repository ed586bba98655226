// ASCII case folding, as the names it serves are spelled: Kubernetes kinds,
// replica types, subgroup names. Bytes outside A-Z are kept as they are
// (what std::tolower does in the "C" locale gpusched runs in).
#ifndef GPUSCHED_UTIL_ASCII_H_
#define GPUSCHED_UTIL_ASCII_H_

#include <string>
#include <string_view>

namespace gpusched {

std::string AsciiLower(std::string_view s);

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_ASCII_H_
