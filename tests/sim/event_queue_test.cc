#include "gpusched/sim/event_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

struct Pushed {
  double time;
  EventKind kind;
  uint64_t payload;
};

// Pops everything, as "time:payload" strings.
std::vector<std::string> Drain(EventQueue& q) {
  std::vector<std::string> out;
  while (!q.empty()) {
    Event e = q.Pop();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g:%llu", e.time, static_cast<unsigned long long>(e.payload));
    out.push_back(buf);
  }
  return out;
}

TEST(EventQueueTest, OrderedByTimeThenPushOrder) {
  struct Case {
    const char* name;
    std::vector<Pushed> pushes;
    std::vector<std::string> want;
  } cases[] = {
      {"empty", {}, {}},
      {"by time", {{3, EventKind::kPodArrival, 0}, {1, EventKind::kPodArrival, 1}, {2, EventKind::kPodArrival, 2}},
       {"1:1", "2:2", "3:0"}},
      {"equal times keep push order whatever the kind",
       {{5, EventKind::kUnschedulableFlush, 0},
        {5, EventKind::kPodFinish, 1},
        {5, EventKind::kPodArrival, 2},
        {5, EventKind::kNodeRemove, 3},
        {5, EventKind::kNodeAdd, 4}},
       {"5:0", "5:1", "5:2", "5:3", "5:4"}},
      {"interleaved",
       {{2, EventKind::kPodArrival, 0},
        {1, EventKind::kPodArrival, 1},
        {2, EventKind::kPodArrival, 2},
        {1, EventKind::kPodArrival, 3},
        {0.5, EventKind::kBackoffFlush, 4},
        {2, EventKind::kPodArrival, 5}},
       {"0.5:4", "1:1", "1:3", "2:0", "2:2", "2:5"}},
      {"negative and fractional times", {{0, EventKind::kPodArrival, 0}, {-1.5, EventKind::kPodArrival, 1},
                                          {0.25, EventKind::kPodArrival, 2}},
       {"-1.5:1", "0:0", "0.25:2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EventQueue q;
    for (const Pushed& p : c.pushes) q.Push(p.time, p.kind, p.payload);
    EXPECT_EQ(q.size(), c.pushes.size());
    EXPECT_EQ(Drain(q), c.want);
  }
}

TEST(EventQueueTest, SequenceNumbersIncreaseAndSurvivePops) {
  EventQueue q;
  EXPECT_EQ(q.Push(10, EventKind::kPodArrival, 7), 0u);
  EXPECT_EQ(q.Push(5, EventKind::kPodFinish, 8), 1u);
  Event e = q.Pop();
  EXPECT_EQ(e.time, 5);
  EXPECT_EQ(e.seq, 1u);
  EXPECT_EQ(e.kind, EventKind::kPodFinish);
  EXPECT_EQ(e.payload, 8u);
  // Pushed later at the same time as the remaining event: comes out after it.
  EXPECT_EQ(q.Push(10, EventKind::kNodeAdd, 9), 2u);
  EXPECT_EQ(q.Top().payload, 7u);
  EXPECT_EQ(Drain(q), (std::vector<std::string>{"10:7", "10:9"}));
}

TEST(EventQueueTest, ManyEqualTimesStayFifo) {
  // A heap is not stable by itself; the sequence number makes it so.
  EventQueue q;
  for (uint64_t i = 0; i < 1000; ++i) q.Push(static_cast<double>(i % 3), EventKind::kPodArrival, i);
  uint64_t prev_time = 0, prev_payload = 0;
  bool first = true;
  while (!q.empty()) {
    Event e = q.Pop();
    const auto t = static_cast<uint64_t>(e.time);
    EXPECT_EQ(e.payload % 3, t);
    if (!first) {
      EXPECT_GE(t, prev_time);
      if (t == prev_time) {
        EXPECT_GT(e.payload, prev_payload);
      }
    }
    prev_time = t;
    prev_payload = e.payload;
    first = false;
  }
}

TEST(EventQueueTest, KindNames) {
  EXPECT_STREQ(EventKindName(EventKind::kPodArrival), "pod-arrival");
  EXPECT_STREQ(EventKindName(EventKind::kPodFinish), "pod-finish");
  EXPECT_STREQ(EventKindName(EventKind::kBackoffFlush), "backoff-flush");
  EXPECT_STREQ(EventKindName(EventKind::kNodeAdd), "node-add");
  EXPECT_STREQ(EventKindName(EventKind::kNodeRemove), "node-remove");
  EXPECT_STREQ(EventKindName(EventKind::kUnschedulableFlush), "unschedulable-flush");
}

}  // namespace
}  // namespace gpusched
