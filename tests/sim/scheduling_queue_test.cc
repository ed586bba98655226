#include "gpusched/sim/scheduling_queue.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace gpusched {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

SchedulingQueueOptions Opts(QueueOrder order = QueueOrder::kPriority, bool gate = false, double initial = 1,
                            double max = 10) {
  return SchedulingQueueOptions{order, initial, max, gate};
}

std::vector<size_t> PopAll(SchedulingQueue& q) {
  std::vector<size_t> ids;
  while (auto p = q.Pop()) ids.push_back(p->id);
  return ids;
}

// Pops the one pod there must be and fails it at `now`.
void PopAndFail(SchedulingQueue& q, double now) {
  std::optional<QueuedPod> p = q.Pop();
  ASSERT_TRUE(p.has_value());
  q.AddUnschedulable(*p, now);
}

TEST(SchedulingQueueTest, BackoffDurationDoublesUpToTheMax) {
  struct Case {
    double initial, max;
    std::vector<double> want;  // failures 0, 1, 2, ...
  } cases[] = {
      {1, 10, {0, 1, 2, 4, 8, 10, 10, 10}},  // upstream defaults
      {2, 5, {0, 2, 4, 5, 5}},
      {1, 1, {0, 1, 1, 1}},
      {0.5, 3, {0, 0.5, 1, 2, 3, 3}},
      {4, 2, {0, 2, 2}},  // initial above max: capped from the first failure
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.initial << "/" << c.max);
    SchedulingQueue q(Opts(QueueOrder::kPriority, false, c.initial, c.max));
    for (size_t n = 0; n < c.want.size(); ++n) EXPECT_EQ(q.BackoffDuration(static_cast<int32_t>(n)), c.want[n]) << n;
  }
  // Thousands of failures do not overflow.
  SchedulingQueue q(Opts());
  EXPECT_EQ(q.BackoffDuration(100000), 10);
}

TEST(SchedulingQueueTest, ActiveQOrderPerQueueSort) {
  struct P {
    size_t id;
    int32_t priority;
    int64_t gpu_milli;
    double ts;
  };
  // Added out of order on purpose; ts is the Add time.
  const std::vector<P> pods = {
      {2, 0, 4000, 2}, {0, 0, 1000, 0}, {3, 10, 1000, 0.5}, {1, 10, 2000, 1}, {4, 0, 1000, 0},
  };
  struct Case {
    QueueOrder order;
    std::vector<size_t> want;
  } cases[] = {
      // PrioritySort: priority 10 first (3 added before 1), then 0 by time, ties by index.
      {QueueOrder::kPriority, {3, 1, 0, 4, 2}},
      {QueueOrder::kFifo, {0, 4, 3, 1, 2}},
      {QueueOrder::kLargestFirst, {2, 1, 0, 4, 3}},
      {QueueOrder::kSmallestFirst, {0, 4, 3, 1, 2}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(QueueOrderName(c.order));
    SchedulingQueue q(Opts(c.order));
    for (const P& p : pods) q.Add(p.id, p.priority, p.gpu_milli, p.ts);
    EXPECT_EQ(q.active_size(), 5u);
    EXPECT_EQ(PopAll(q), c.want);
    EXPECT_EQ(q.size(), 0u);
  }
}

TEST(SchedulingQueueTest, FailureRefreshesTheTimestamp) {
  // Pod 0 arrives at 0 and fails at 5; pod 1 arrives at 3. Requeued at 20,
  // pod 0's Timestamp is 5, so pod 1 goes first (PrioritySort compares the
  // time a pod was (re)added, not its creation).
  SchedulingQueue q(Opts());
  q.Add(0, 0, 1000, 0);
  std::optional<QueuedPod> p0 = q.Pop();
  ASSERT_TRUE(p0);
  EXPECT_EQ(p0->attempts, 1);
  q.Add(1, 0, 1000, 3);
  q.AddUnschedulable(*p0, 5);
  EXPECT_EQ(q.unschedulable_size(), 1u);
  q.MoveAllToActiveOrBackoffQueue(20);  // backoff (5 + 1) long over: straight to activeQ
  EXPECT_EQ(q.backoff_size(), 0u);
  std::optional<QueuedPod> first = q.Pop();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->id, 1u);
  EXPECT_EQ(first->attempts, 1);
  std::optional<QueuedPod> again = q.Pop();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, 0u);
  EXPECT_EQ(again->attempts, 2);
  EXPECT_EQ(again->timestamp, 5);
  EXPECT_EQ(again->unschedulable_count, 1);
}

TEST(SchedulingQueueTest, BackoffDelaysTheRetryWithoutTheGate) {
  // One pod failing again and again, each time moved by a cluster event half
  // a second after the failure. Without SchedulerPopFromBackoffQ it waits in
  // backoffQ until the flush tick at or after its expiry.
  SchedulingQueue q(Opts(QueueOrder::kPriority, /*gate=*/false));
  q.Add(0, 0, 0, 0);
  struct Step {
    double fail_at;
    double want_expiry;
    double want_tick;
  } steps[] = {
      {0, 1, 1}, {1, 3, 3}, {3, 7, 7}, {7, 15, 15}, {15, 25, 25}, {25, 35, 35},  // 1 2 4 8 10 10
      {35.25, 45.25, 46},  // not on a tick: the next whole second
  };
  for (const Step& s : steps) {
    SCOPED_TRACE(s.fail_at);
    PopAndFail(q, s.fail_at);
    EXPECT_EQ(q.NextBackoffFlush(), kInf);  // in the pool, not in backoffQ
    q.MoveAllToActiveOrBackoffQueue(s.fail_at + 0.5);
    ASSERT_EQ(q.backoff_size(), 1u);
    EXPECT_FALSE(q.Pop().has_value());  // backing off: nothing to pop
    EXPECT_EQ(q.NextBackoffFlush(), s.want_tick);
    q.FlushBackoffQCompleted(s.want_expiry - 0.25);
    EXPECT_EQ(q.backoff_size(), 1u);
    q.FlushBackoffQCompleted(s.want_tick);
    EXPECT_EQ(q.backoff_size(), 0u);
    EXPECT_EQ(q.active_size(), 1u);
    // The expiry was computed from the failure time and count.
    QueuedPod probe;
    probe.timestamp = s.fail_at;
    probe.unschedulable_count = static_cast<int32_t>(&s - steps) + 1;
    EXPECT_EQ(q.BackoffExpiration(probe), s.want_expiry);
  }
}

TEST(SchedulingQueueTest, MoveAllSplitsBetweenActiveAndBackoff) {
  // Pods fail once at 0, 0.5 and 1.2; the event at 1.25 finds pod 0's
  // backoff (0 + 1) over, the others' (1.5, 2.2) not.
  SchedulingQueue q(Opts(QueueOrder::kFifo, false));
  q.Add(0, 0, 0, 0);
  PopAndFail(q, 0);
  q.Add(1, 0, 0, 0.5);
  PopAndFail(q, 0.5);
  q.Add(2, 0, 0, 1.2);
  PopAndFail(q, 1.2);
  q.MoveAllToActiveOrBackoffQueue(1.25);
  EXPECT_EQ(q.unschedulable_size(), 0u);
  EXPECT_EQ(q.active_size(), 1u);
  EXPECT_EQ(q.backoff_size(), 2u);
  EXPECT_EQ(q.NextBackoffFlush(), 2);  // pod 1's 1.5, at the 2 s tick
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{0}));
  q.FlushBackoffQCompleted(2);
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{1}));
  EXPECT_EQ(q.NextBackoffFlush(), 3);
  q.FlushBackoffQCompleted(3);
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{2}));
}

TEST(SchedulingQueueTest, PopFromBackoffQWhenActiveQIsEmpty) {
  // With the gate, an idle scheduler takes the backoffQ head at once; pods in
  // activeQ still go first.
  SchedulingQueue q(Opts(QueueOrder::kPriority, /*gate=*/true));
  q.Add(0, 0, 0, 0);
  PopAndFail(q, 0);
  q.MoveAllToActiveOrBackoffQueue(0.5);
  EXPECT_EQ(q.backoff_size(), 1u);
  q.Add(1, 0, 0, 0.5);
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{1, 0}));
}

TEST(SchedulingQueueTest, GateAlignsExpiriesToWholeSecondWindows) {
  struct Case {
    double fail_at;
    int32_t failures;
    double want_expiry;  // Truncate(Timestamp + backoff, 1s)
    double backing_off_at;
    double done_at;      // first time not backing off
    double want_tick;
  } cases[] = {
      {0, 1, 1, 1.999, 2, 2},      // the pod's window (1 s) must be over
      {0.3, 1, 1, 1.5, 2, 2},      // 1.3 truncated to 1
      {0.7, 2, 2, 2.9, 3, 3},      // 0.7 + 2 = 2.7 -> 2
      {5.5, 5, 15, 15.99, 16, 16},  // 5.5 + 10 -> 15
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fail_at);
    SchedulingQueue q(Opts(QueueOrder::kPriority, true));
    QueuedPod p;
    p.timestamp = c.fail_at;
    p.unschedulable_count = c.failures;
    EXPECT_EQ(q.BackoffExpiration(p), c.want_expiry);
    EXPECT_TRUE(q.IsBackingOff(p, c.backing_off_at));
    EXPECT_FALSE(q.IsBackingOff(p, c.done_at));
    // Through the queue: fail the pod `failures` times at fail_at.
    q.Add(0, 0, 0, c.fail_at);
    for (int32_t k = 0; k < c.failures; ++k) {
      PopAndFail(q, c.fail_at);
      // Back at once: with the gate an idle queue pops backoffQ.
      if (k + 1 < c.failures) q.MoveAllToActiveOrBackoffQueue(c.fail_at);
    }
    q.MoveAllToActiveOrBackoffQueue(c.backing_off_at);
    ASSERT_EQ(q.backoff_size(), 1u);
    EXPECT_EQ(q.NextBackoffFlush(), c.want_tick);
  }
}

TEST(SchedulingQueueTest, GateOrdersOneWindowAsActiveQ) {
  // Failed at 0.2 (priority 0) and 0.7 (priority 5): both expire in window 1,
  // where PrioritySort puts priority 5 first although it failed later.
  SchedulingQueue q(Opts(QueueOrder::kPriority, true));
  q.Add(0, 0, 0, 0);
  PopAndFail(q, 0.2);
  q.Add(1, 5, 0, 0.5);
  PopAndFail(q, 0.7);
  q.MoveAllToActiveOrBackoffQueue(0.8);
  EXPECT_EQ(q.backoff_size(), 2u);
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{1, 0}));
}

TEST(SchedulingQueueTest, NoBackoffWithMaxZeroOrNoFailure) {
  SchedulingQueue q(Opts(QueueOrder::kPriority, true, 1, 0));
  QueuedPod p;
  p.timestamp = 3;
  p.unschedulable_count = 4;
  EXPECT_EQ(q.BackoffExpiration(p), -kInf);
  EXPECT_FALSE(q.IsBackingOff(p, 3));
  SchedulingQueue d(Opts());
  QueuedPod fresh;
  fresh.timestamp = 3;
  EXPECT_FALSE(d.IsBackingOff(fresh, 3));
}

TEST(SchedulingQueueTest, LeftoverFlushEveryThirtySecondsAfterFiveMinutes) {
  // flushUnschedulablePodsLeftover ticks at 0, 30, 60, ... and moves pods
  // whose Timestamp is more than 300 s old.
  struct Case {
    std::vector<double> failed_at;
    double want_next;
    size_t want_moved;
    double want_after;  // next tick once those moved
  } cases[] = {
      {{0, 10, 31}, 330, 2, 360},
      {{30}, 360, 1, kInf},  // 330 - 30 is not more than 300
      {{0.5, 29.9}, 330, 2, kInf},
      {{100, 100, 400}, 420, 2, 720},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.failed_at.front());
    SchedulingQueue q(Opts(QueueOrder::kFifo, false));
    for (size_t i = 0; i < c.failed_at.size(); ++i) {
      q.Add(i, 0, 0, c.failed_at[i]);
      PopAndFail(q, c.failed_at[i]);
    }
    EXPECT_EQ(q.NextUnschedulableFlush(), c.want_next);
    q.FlushUnschedulablePodsLeftover(c.want_next - kUnschedulableFlushInterval);
    EXPECT_EQ(q.unschedulable_size(), c.failed_at.size());
    q.FlushUnschedulablePodsLeftover(c.want_next);
    EXPECT_EQ(q.unschedulable_size(), c.failed_at.size() - c.want_moved);
    // Their 1 s backoff is long over: activeQ.
    EXPECT_EQ(q.active_size(), c.want_moved);
    EXPECT_EQ(q.NextUnschedulableFlush(), c.want_after);
  }
}

TEST(SchedulingQueueTest, ErrorsGoToTheErrorBackoffQueue) {
  // A failure with an error (no node at all) is requeued by its backoff
  // alone: cluster events do not move it, and the gate does not pop it.
  SchedulingQueue q(Opts(QueueOrder::kFifo, /*gate=*/true));
  q.Add(0, 0, 0, 0);
  std::optional<QueuedPod> p = q.Pop();
  ASSERT_TRUE(p);
  q.AddUnschedulable(*p, 0, /*error=*/true);
  EXPECT_EQ(q.error_backoff_size(), 1u);
  EXPECT_EQ(q.unschedulable_size(), 0u);
  EXPECT_EQ(q.size(), 1u);
  q.MoveAllToActiveOrBackoffQueue(0.5);
  EXPECT_EQ(q.error_backoff_size(), 1u);
  EXPECT_FALSE(q.Pop().has_value());
  EXPECT_EQ(q.NextBackoffFlush(), 2);  // expiry 1, window 1 over at 2
  q.FlushBackoffQCompleted(1);
  EXPECT_EQ(q.error_backoff_size(), 1u);
  q.FlushBackoffQCompleted(2);
  EXPECT_EQ(q.active_size(), 1u);
  // Consecutive errors count up the backoff: 2 s after the second.
  p = q.Pop();
  ASSERT_TRUE(p);
  q.AddUnschedulable(*p, 2, true);
  EXPECT_EQ(q.NextBackoffFlush(), 5);  // expiry 4
  q.FlushBackoffQCompleted(5);
  // A FitError resets them: the backoff counts FitErrors again (1 s).
  p = q.Pop();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->consecutive_errors, 2);
  q.AddUnschedulable(*p, 5);
  EXPECT_EQ(q.unschedulable_size(), 1u);
  q.MoveAllToActiveOrBackoffQueue(5.5);
  ASSERT_EQ(q.backoff_size(), 1u);
  EXPECT_EQ(q.NextBackoffFlush(), 7);  // expiry floor(5 + 1) = 6
}

TEST(SchedulingQueueTest, SizesAcrossTheThreePlaces) {
  SchedulingQueue q(Opts(QueueOrder::kFifo, false));
  for (size_t i = 0; i < 3; ++i) q.Add(i, 0, 0, 0);
  PopAndFail(q, 0);  // pod 0 -> pool
  PopAndFail(q, 0);  // pod 1 -> pool
  EXPECT_EQ(q.active_size(), 1u);
  EXPECT_EQ(q.unschedulable_size(), 2u);
  q.MoveAllToActiveOrBackoffQueue(0.5);
  EXPECT_EQ(q.backoff_size(), 2u);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{2}));
  q.FlushBackoffQCompleted(1);
  EXPECT_EQ(PopAll(q), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(q.size(), 0u);
}

}  // namespace
}  // namespace gpusched
