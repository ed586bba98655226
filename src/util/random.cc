#include "gpusched/util/random.h"

#include <cassert>

namespace gpusched {

uint64_t Rng::Uniform(uint64_t n) {
  assert(n > 0);
  // Largest multiple of n that fits; values at or above it are rejected.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do {
    x = engine_();
  } while (x >= limit);
  return x % n;
}

double Rng::UniformDouble() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

}  // namespace gpusched
