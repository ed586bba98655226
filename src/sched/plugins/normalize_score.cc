// helper.DefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/normalize_score.go).
#include "gpusched/sched/plugins/normalize_score.h"

namespace gpusched {
namespace {

__extension__ typedef __int128 Int128;

}  // namespace

void DefaultNormalizeScore(int64_t max_priority, bool reverse, std::vector<int64_t>& scores) {
  int64_t max_count = 0;
  for (int64_t s : scores) {
    if (s > max_count) max_count = s;
  }
  if (max_count == 0) {
    if (reverse) {
      for (auto& s : scores) s = max_priority;
    }
    return;
  }
  for (auto& s : scores) {
    // The product is formed in 128 bits; the quotient is at most max_priority.
    int64_t score = static_cast<int64_t>(static_cast<Int128>(max_priority) * s / max_count);
    if (reverse) score = max_priority - score;
    s = score;
  }
}

}  // namespace gpusched
