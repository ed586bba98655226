// SaturateInt32: an int64 clamped into int32's range. Counts are decoded as
// int64 and many API fields are int32: a value out of range is kept at the
// bound, so that validation still sees it too large or too small instead of
// a wrapped number.
#ifndef GPUSCHED_UTIL_SATURATE_H_
#define GPUSCHED_UTIL_SATURATE_H_

#include <algorithm>
#include <cstdint>

namespace gpusched {

inline int32_t SaturateInt32(int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); }

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_SATURATE_H_
