// The per-node GPU occupancy heatmap: one cell per node, in input order, row
// by row; the color is the node's used / total GPU milli, grey for a node not
// in the cluster at that moment; hovering a cell shows "node: x/y GPUs" (an
// SVG <title>, so no script is needed).
#ifndef GPUSCHED_REPORT_HEATMAP_H_
#define GPUSCHED_REPORT_HEATMAP_H_

#include <string>
#include <vector>

#include "gpusched/sim/sim_result.h"

namespace gpusched {

// The color for an occupancy fraction in [0, 1] (clamped) as "#rrggbb": a
// sequential yellow-orange-red scale through fixed stops at 0, 25, 50, 75 and
// 100% (ColorBrewer YlOrRd), linear in RGB between them; 50% is "#fd8d3c".
std::string OccupancyColor(double fraction);

// Cells of nodes absent at the snapshot's time (total 0).
inline constexpr const char* kAbsentNodeColor = "#c8c8c8";

// Cell side in pixels (gap included) for a cluster of `nodes`: large cells for
// a handful of nodes, 6 px from 2,500 nodes on so 10,000 nodes fit in about
// 200 x 50 cells.
int HeatmapCellSize(size_t nodes);

// One SVG grid for one snapshot, at most `max_width` pixels wide. Nodes past
// the end of the snapshot's vectors count as absent; names past the end of
// `node_names` print as "node <index>".
std::string RenderNodeHeatmap(const std::vector<std::string>& node_names, const NodeSnapshot& snapshot,
                              int max_width = 1200);

// The color scale: swatches at 0, 10, ..., 100% and the absent grey.
std::string RenderOccupancyLegend();

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_HEATMAP_H_
