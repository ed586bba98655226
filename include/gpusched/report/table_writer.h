// The human-readable report of `gpusched schedule`, in one of two layouts:
//
// - The seed's, for a cluster small enough to read whole (at most
//   kSeedLayoutMaxNodes nodes and kSeedLayoutMaxPods pods, the seed's cluster
//   among them): the seed's own lines byte for byte and in its order
//   (scheduling result, pending, node state), then why each pending pod
//   waits, the GPU devices each pod got, pods already bound, rejected input,
//   and the summary.
// - Summary first, for larger ones: the summary, the pending pods grouped by
//   reason (pending_groups.h), rejected input, then the placements, node
//   state and GPU devices.
//
// `quiet` prints only the summary and the pending groups, whatever the size.
#ifndef GPUSCHED_REPORT_TABLE_WRITER_H_
#define GPUSCHED_REPORT_TABLE_WRITER_H_

#include <cstddef>
#include <ostream>

#include "gpusched/report/run_report.h"

namespace gpusched {

// Past these, the seed's layout would put the summary and the pending pods
// hundreds of lines down: the summary goes first instead.
inline constexpr size_t kSeedLayoutMaxNodes = 20;
inline constexpr size_t kSeedLayoutMaxPods = 50;

struct TableOptions {
  bool quiet = false;
};

// True when `r` is printed in the seed's layout.
bool UsesSeedLayout(const RunReport& r);

void WriteTable(std::ostream& out, const RunReport& r, const TableOptions& options = {});

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_TABLE_WRITER_H_
