// FilterVerdict: a filter's answer for one node without heap allocation, for
// the scheduler's hot loops (a scan visits thousands of nodes per pod, and a
// pod that fits nowhere needs every node's reasons for its FitError). The
// reasons are views — static text, or a prefix and one of the pod's resource
// names — valid while the pod is. ReasonTally counts them across nodes the
// way FitError::AddNodeStatus does, and hands the counts to a FitError once.
#ifndef GPUSCHED_SCHED_API_FILTER_VERDICT_H_
#define GPUSCHED_SCHED_API_FILTER_VERDICT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/api/status.h"

namespace gpusched {

// A reason string as `text` followed by `suffix` ("Insufficient " +
// "example.com/foo"), so that naming a resource needs no concatenation.
struct ReasonView {
  std::string_view text;
  std::string_view suffix;

  std::string str() const;
  bool operator==(const ReasonView& o) const { return text == o.text && suffix == o.suffix; }
};

struct FilterVerdict {
  SchedStatus::Code code = SchedStatus::Code::kSuccess;
  // Cleared, not freed, between uses: a reused verdict stops allocating.
  std::vector<ReasonView> reasons;

  void Reset() {
    code = SchedStatus::Code::kSuccess;
    reasons.clear();
  }
  // Records a failure with one reason.
  void Fail(SchedStatus::Code c, std::string_view text, std::string_view suffix = {}) {
    code = c;
    reasons.push_back({text, suffix});
  }
  // The same verdict as a SchedStatus (without the plugin name).
  SchedStatus ToStatus() const;
};

// Reason counts over many nodes' verdicts, as FitError counts them: each
// reason of each node once, and the nodes whose code is
// UnschedulableAndUnresolvable.
class ReasonTally {
 public:
  void Clear() {
    counts_.clear();
    unresolvable_nodes_ = 0;
  }
  void Add(const FilterVerdict& v) { Add(v.code, v.reasons); }
  void Add(SchedStatus::Code code, const std::vector<ReasonView>& reasons) {
    for (const ReasonView& r : reasons) Count(r);
    if (code == SchedStatus::Code::kUnschedulableAndUnresolvable) ++unresolvable_nodes_;
  }
  // One node with the single reason `text`.
  void Add(SchedStatus::Code code, std::string_view text) {
    Count(ReasonView{text, {}});
    if (code == SchedStatus::Code::kUnschedulableAndUnresolvable) ++unresolvable_nodes_;
  }
  // Adds the counts to `err` (views that spell the same string add up).
  void AddTo(FitError& err) const;

 private:
  void Count(const ReasonView& r) {
    // A handful of distinct reasons: a linear search beats hashing.
    for (auto& [reason, n] : counts_)
      if (reason == r) {
        ++n;
        return;
      }
    counts_.emplace_back(r, 1);
  }
  std::vector<std::pair<ReasonView, int64_t>> counts_;
  int64_t unresolvable_nodes_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_FILTER_VERDICT_H_
