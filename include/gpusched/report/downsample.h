// Thinning a polyline for the report: thousands of samples per policy would
// make the SVG heavy while adding nothing a 600-pixel chart can show.
#ifndef GPUSCHED_REPORT_DOWNSAMPLE_H_
#define GPUSCHED_REPORT_DOWNSAMPLE_H_

#include <cstddef>
#include <vector>

namespace gpusched {

// Indices (ascending) of at most `max_points` of the n points whose y values
// are given, n > max_points, always keeping the first and last. The interior
// is cut into equal buckets by index and each bucket keeps its lowest and
// highest point, so spikes (a burst of pending pods) survive where every-k-th
// sampling would drop them. Pure integer arithmetic: deterministic. Returns
// every index when n <= max_points; max_points below 4 is taken as 4.
std::vector<size_t> DownsampleIndices(const std::vector<double>& ys, size_t max_points);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_DOWNSAMPLE_H_
