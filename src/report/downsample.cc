#include "gpusched/report/downsample.h"

namespace gpusched {

std::vector<size_t> DownsampleIndices(const std::vector<double>& ys, size_t max_points) {
  const size_t n = ys.size();
  if (max_points < 4) max_points = 4;
  std::vector<size_t> out;
  if (n <= max_points) {
    for (size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  const size_t interior = n - 2;
  const size_t buckets = (max_points - 2) / 2;
  out.push_back(0);
  for (size_t b = 0; b < buckets; ++b) {
    size_t begin = 1 + b * interior / buckets;
    size_t end = 1 + (b + 1) * interior / buckets;
    if (begin >= end) continue;
    size_t lo = begin, hi = begin;
    for (size_t i = begin; i < end; ++i) {
      if (ys[i] < ys[lo]) lo = i;
      if (ys[i] > ys[hi]) hi = i;
    }
    // In time order, so the line still runs left to right.
    if (lo == hi) {
      out.push_back(lo);
    } else {
      out.push_back(lo < hi ? lo : hi);
      out.push_back(lo < hi ? hi : lo);
    }
  }
  out.push_back(n - 1);
  return out;
}

}  // namespace gpusched
