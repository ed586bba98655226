// DefaultNormalizeScore: ported from TestDefaultNormalizeScore in
// k8s.io/kubernetes pkg/scheduler/framework/plugins/helper/normalize_score_test.go
// (all 9 cases).
#include "gpusched/sched/plugins/normalize_score.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"

namespace gpusched {
namespace {

TEST(ScorePluginsTest, DefaultNormalizeScore) {
  struct Case {
    bool reverse;
    std::vector<int64_t> scores;
    std::vector<int64_t> expected_scores;
  };
  const std::vector<Case> cases = {
      {false, {1, 2, 3, 4}, {25, 50, 75, 100}},
      {true, {1, 2, 3, 4}, {75, 50, 25, 0}},
      {false, {1000, 10, 20, 30}, {100, 1, 2, 3}},
      {true, {1000, 10, 20, 30}, {0, 99, 98, 97}},
      {false, {1, 1, 1, 1}, {100, 100, 100, 100}},
      {false, {1000, 1, 1, 1}, {100, 0, 0, 0}},
      {true, {0, 1, 1, 1}, {100, 0, 0, 0}},
      {false, {0, 0, 0, 0}, {0, 0, 0, 0}},
      {true, {0, 0, 0, 0}, {100, 100, 100, 100}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case_" + std::to_string(i));
    std::vector<int64_t> scores = cases[i].scores;
    DefaultNormalizeScore(kMaxNodeScore, cases[i].reverse, scores);
    EXPECT_EQ(scores, cases[i].expected_scores);
  }
}

}  // namespace
}  // namespace gpusched
