// The JSON report of `gpusched schedule -o json` (schema in the README):
// {"placements":[...],"pending":[...],"rejected":[...],"nodes":[...],"summary":{...}}
#ifndef GPUSCHED_REPORT_JSON_WRITER_H_
#define GPUSCHED_REPORT_JSON_WRITER_H_

#include <ostream>

#include "gpusched/report/run_report.h"

namespace gpusched {

void WriteJson(std::ostream& out, const RunReport& r);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_JSON_WRITER_H_
