// Rng: the one seeded random generator of gpusched. Every random choice
// (tie-breaking, shuffles, synthetic workloads) goes through an Rng so that
// the same input and seed give byte-identical output on every platform.
//
// std::mt19937_64's output sequence is fixed by the C++ standard, but the
// std::*_distribution classes are not, so the distributions are ours.
#ifndef GPUSCHED_UTIL_RANDOM_H_
#define GPUSCHED_UTIL_RANDOM_H_

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace gpusched {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint64_t NextU64() { return engine_(); }

  // Uniform integer in [0, n); n must be > 0. Rejection sampling, no modulo bias.
  uint64_t Uniform(uint64_t n);

  // Uniform double in [0, 1) with 53 random bits.
  double UniformDouble();

  // Fisher-Yates shuffle (the same algorithm as Go's rand.Shuffle).
  template <typename T>
  void Shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) {
      size_t j = static_cast<size_t>(Uniform(i));
      std::swap(v[i - 1], v[j]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_RANDOM_H_
