#include "gpusched/model/change_log.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpusched {
namespace {

// Ours: the log holds its last `keep` entries at least, twice that at most,
// trimming to `keep` when it would exceed it; positions count every entry
// ever appended.
TEST(ChangeLogTest, HoldsTheLatestEntriesWithinTwiceKeep) {
  struct Case {
    const char* name;
    size_t appends, keep;
    uint64_t want_begin;  // end() is `appends`
  };
  const Case cases[] = {
      {"empty", 0, 3, 0},
      {"within twice keep", 6, 3, 0},
      {"one over: trimmed to keep", 7, 3, 4},
      {"grows again from keep", 9, 3, 4},
      {"trimmed again at 2*keep+1 held", 11, 3, 8},
      {"keep 1", 5, 1, 4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ChangeLog log;
    for (size_t k = 0; k < c.appends; ++k) log.Append(static_cast<uint32_t>(10 + k), c.keep);
    EXPECT_EQ(log.end(), c.appends);
    EXPECT_EQ(log.begin(), c.want_begin);
    for (uint64_t p = log.begin(); p < log.end(); ++p) EXPECT_EQ(log[p], 10 + p);
    EXPECT_EQ(log.Holds(c.want_begin), true);
    EXPECT_EQ(log.Holds(log.end()), true);  // a reader current up to now
    EXPECT_EQ(log.Holds(log.end() + 1), false);
    if (c.want_begin > 0) {
      EXPECT_EQ(log.Holds(c.want_begin - 1), false);
    }
  }
}

// A keep that grows (a cluster that gained nodes) lets more pile up before
// the next trim, and that trim keeps more.
TEST(ChangeLogTest, AGrowingKeepHoldsMore) {
  ChangeLog log;
  for (uint32_t k = 0; k < 5; ++k) log.Append(k, 2);  // 5 > 2*2: trimmed to [3, 5)
  EXPECT_EQ(log.begin(), 3u);
  for (uint32_t k = 5; k < 11; ++k) log.Append(k, 4);  // up to 8 held: nothing trimmed
  EXPECT_EQ(log.begin(), 3u);
  log.Append(11, 4);  // 9 > 2*4: trimmed to the last 4
  EXPECT_EQ(log.end(), 12u);
  std::vector<uint32_t> held;
  for (uint64_t p = log.begin(); p < log.end(); ++p) held.push_back(log[p]);
  EXPECT_EQ(held, (std::vector<uint32_t>{8, 9, 10, 11}));
}

}  // namespace
}  // namespace gpusched
