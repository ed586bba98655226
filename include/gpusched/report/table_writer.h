// The human-readable report of `gpusched schedule`: first the seed's own
// lines (scheduling result, pending, node state), then why each pending pod
// waits, the GPU devices each pod got, rejected input, and the summary.
#ifndef GPUSCHED_REPORT_TABLE_WRITER_H_
#define GPUSCHED_REPORT_TABLE_WRITER_H_

#include <ostream>

#include "gpusched/report/run_report.h"

namespace gpusched {

void WriteTable(std::ostream& out, const RunReport& r);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_TABLE_WRITER_H_
