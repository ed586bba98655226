// helper.DefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/
// normalize_score.go), the NormalizeScore of TaintToleration and
// NodeAffinity's scores: scales to [0, max_priority] by the maximum score,
// optionally reversed (max_priority - score). When every score is 0 they stay
// 0, or all become max_priority when reversed.
#ifndef GPUSCHED_SCHED_PLUGINS_NORMALIZE_SCORE_H_
#define GPUSCHED_SCHED_PLUGINS_NORMALIZE_SCORE_H_

#include <cstdint>
#include <vector>

namespace gpusched {

void DefaultNormalizeScore(int64_t max_priority, bool reverse, std::vector<int64_t>& scores);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NORMALIZE_SCORE_H_
