#include "gpusched/sched/api/fit_error.h"

#include <algorithm>
#include <vector>

namespace gpusched {

void FitError::AddNodeStatus(const SchedStatus& s) {
  for (const auto& r : s.reasons()) reason_counts[r]++;
  if (s.code() == SchedStatus::Code::kUnschedulableAndUnresolvable) unresolvable_nodes++;
}

std::string FitError::Error() const {
  if (num_all_nodes == 0) return kNoNodesAvailable;
  std::string msg = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!pre_filter_message.empty()) {
    msg += " " + pre_filter_message + ".";
    if (!post_filter_message.empty()) msg += " " + post_filter_message;
    return msg;
  }
  // "count reason" strings sorted byte-wise (sort.Strings), so "12 x" < "3 y".
  std::vector<std::string> parts;
  parts.reserve(reason_counts.size());
  for (const auto& [reason, count] : reason_counts) parts.push_back(std::to_string(count) + " " + reason);
  std::sort(parts.begin(), parts.end());
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
  msg += " " + joined + ".";
  if (!post_filter_message.empty()) msg += " " + post_filter_message;
  return msg;
}

}  // namespace gpusched
