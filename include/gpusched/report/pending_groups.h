// Pending pods grouped by reason, the way a person reads hundreds of them:
// pods with the same diagnosis kind, kube-scheduler message (its node counts
// aside: "16 Insufficient cpu" and "17 Insufficient cpu" are one reason) and
// shape (what they ask for) form one group, shown as one entry with its
// count, the first pod's message and diagnosis, and the pod names folded
// after a few. The key is whatever kind and message the scheduler gave, so a
// new pending reason groups without a change here.
#ifndef GPUSCHED_REPORT_PENDING_GROUPS_H_
#define GPUSCHED_REPORT_PENDING_GROUPS_H_

#include <ostream>
#include <string>
#include <vector>

#include "gpusched/report/run_report.h"

namespace gpusched {

struct PendingGroup {
  std::string kind;     // DiagnosisKindName
  bool forever = false;
  std::string message;  // the first pod's kube-scheduler message ("" when no profile serves the pods)
  std::string shape;    // DescribeRequests
  std::vector<size_t> pending;  // indices into RunReport::result.pending, in scheduling order
};

// Largest group first; equal counts in the order their first pod was
// considered.
std::vector<PendingGroup> GroupPending(const RunReport& r);

// True when the pod waits for GPUs: its diagnosis is about resources and
// every resource reason in its message is a GPU's ("Insufficient
// nvidia.com/gpu", not enough free GPU share); nodes excluded by a taint or
// selector only narrow where it may go. The seed's heading "pending (no node
// had enough free GPUs):" is true of exactly these pods.
bool WaitsForGpus(const BatchResult::Pending& p);

// "a, b, c" or, past `shown` + 1 names, "a, b, c, d, e and 12 more".
std::string FoldNames(const std::vector<std::string>& names, size_t shown = 5);

// "why pending, by reason (N pods in G groups):" and one entry per group.
void WritePendingGroups(std::ostream& out, const RunReport& r);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_PENDING_GROUPS_H_
