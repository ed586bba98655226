#include "gpusched/sched/api/filter_verdict.h"

namespace gpusched {

std::string ReasonView::str() const {
  std::string s;
  s.reserve(text.size() + suffix.size());
  s.append(text).append(suffix);
  return s;
}

SchedStatus FilterVerdict::ToStatus() const {
  if (code == SchedStatus::Code::kSuccess) return SchedStatus::Success();
  std::vector<std::string> out;
  out.reserve(reasons.size());
  for (const ReasonView& r : reasons) out.push_back(r.str());
  return SchedStatus(code, std::move(out));
}

void ReasonTally::AddTo(FitError& err) const {
  for (const auto& [reason, n] : counts_) err.reason_counts[reason.str()] += n;
  err.unresolvable_nodes += unresolvable_nodes_;
}

}  // namespace gpusched
