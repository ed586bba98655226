// The gangs of a `schedule` run, as the report shows them: for each group
// with members in the run, how many are placed against the minimum it needs,
// how many wait, and the GPUs its placed members hold while the group cannot
// start (a partially placed group under a scheduler that does not gang: the
// insight stock kube-scheduler's output does not give).
#ifndef GPUSCHED_REPORT_GANG_REPORT_H_
#define GPUSCHED_REPORT_GANG_REPORT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/model/gang_readiness.h"
#include "gpusched/report/run_report.h"

namespace gpusched {

struct GangRow {
  const Gang* gang = nullptr;
  std::string enforcer;  // "" when its pods' scheduler does not gang
  int64_t members = 0;   // its pods in the run
  GangCount placed;      // bound (already or by this run): in all (total) and by task / subgroup label
  int64_t pending = 0;
  // GPUs (whole nvidia.com/gpu) held by its placed members while the gang
  // is not ready: allocated, idle, the job cannot start.
  int64_t gpus_held_idle = 0;
  // "running" (the placed members are ready: GangReady, its task /
  // subgroup minimums included), "partial" (some placed, not ready),
  // "waiting" (none placed).
  std::string state;
};

// One row per gang reported for some pod of the run (ReportedGang), in the
// GangSet's order.
std::vector<GangRow> GangRows(const RunReport& r);

// "ns/name" of the gang reported for the pod at `pod` (an index into r.pods),
// "" for none.
std::string GangKeyOf(const RunReport& r, size_t pod);

// The table's "gangs" section; nothing when there are no gangs.
void WriteGangsSection(std::ostream& out, const RunReport& r);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_GANG_REPORT_H_
